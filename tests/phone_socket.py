"""A phone as the server sees it, without a browser: Flet's web client protocol over a websocket
(msgpack frames `[0x00][action, body]`). It registers at a route, answers the server's method calls
(phone settings, device info) with "nothing", counts what it is sent, and can leave politely
(close) or vanish (the TCP connection cut, no close frame), e.g. while the server is sending to it.

Used by tests/test_sessions.py, tests/perf/sessions_bench.py and long_work_bench.py: 100 of these cost far less than
100 Chromium pages, and the server can't tell them from phones that dropped.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from typing import Optional

import msgpack
from flet.messaging.protocol import MessageAction, decode_ext_from_msgpack
from websockets.asyncio.client import ClientConnection, connect

from companion.share import COOKIE

PHONE_PAGE = {"web": True, "platform": "android", "width": 412.0, "height": 915.0, "pwa": False, "debug": False}


def _frame(action: MessageAction, body: dict) -> bytes:
    return b"\x00" + msgpack.packb([action.value, body])


def _sets_views(body) -> bool:
    """A patch of the page that sets its views: a screen was drawn (Flet's patch: [[0, {changed
    props}], ops…])."""
    try:
        head = body["patch"][0]
        return isinstance(head[1], dict) and "views" in head[1]
    except (KeyError, IndexError, TypeError):
        return False


def _probe_widths(node, found: dict) -> None:
    """What a browser would report after laying out a patch (TableSession.mark_shown): the probe's id
    (a control with on_size_change, as first drawn) and each new width it is given. A probe's width
    is 1 px and a fraction; a patch that changes it later writes `[0, n, 'width', w]`."""
    if isinstance(node, dict):
        if node.get("on_size_change") and "_i" in node:
            found["id"] = node["_i"]
            found["width"] = node.get("width")
        for value in node.values():
            _probe_widths(value, found)
    elif isinstance(node, list):
        if len(node) == 4 and node[2] == "width" and isinstance(node[3], float) and 1 <= node[3] < 2:
            found["width"] = node[3]
        for value in node:
            _probe_widths(value, found)


def _note_buttons(node, buttons: dict[str, int]) -> None:
    """Every icon button drawn in a patch, by its tooltip (a control keeps its id until replaced)."""
    if isinstance(node, dict):
        if node.get("_c") == "IconButton" and "_i" in node:
            tip = node.get("tooltip")
            tip = tip.get("message") if isinstance(tip, dict) else tip
            if isinstance(tip, str):
                buttons[tip] = node["_i"]
        for value in node.values():
            _note_buttons(value, buttons)
    elif isinstance(node, list):
        for value in node:
            _note_buttons(value, buttons)


class SocketPhone:
    def __init__(self, port: int, token: Optional[str]):
        self.url = f"ws://127.0.0.1:{port}/ws"
        self.token = token
        self.ws: Optional[ClientConnection] = None
        self.frames = 0  # frames received from the server
        self.drawn_screen = asyncio.Event()  # the server drew a screen (a page's views) on this phone
        self.session_id: Optional[str] = None
        self.buttons: dict[str, int] = {}  # an icon button's label (tooltip) → its control id, as last drawn
        self._reader: Optional[asyncio.Task] = None
        self._probe: Optional[int] = None  # the control whose size this phone reports, as a browser does

    async def open(self, route: str, *, session_id: Optional[str] = None) -> "SocketPhone":
        headers = {"Cookie": f"{COOKIE}={self.token}"} if self.token else {}
        self.ws = await connect(self.url, additional_headers=headers, max_size=None, ping_interval=None)
        page = dict(PHONE_PAGE, route=route)
        await self.ws.send(_frame(MessageAction.REGISTER_CLIENT,
                                  {"session_id": session_id, "page_name": "", "page": page}))
        self._reader = asyncio.create_task(self._read())
        return self

    async def _read(self) -> None:
        try:
            async for data in self.ws:
                if not data or data[0] != 0:
                    continue
                self.frames += 1
                action, body = msgpack.unpackb(data[1:], ext_hook=decode_ext_from_msgpack, strict_map_key=False)
                if action == MessageAction.REGISTER_CLIENT.value and isinstance(body, dict):
                    self.session_id = body.get("session_id")
                elif action == MessageAction.PATCH_CONTROL.value:
                    if _sets_views(body):
                        self.drawn_screen.set()
                    _note_buttons(body, self.buttons)
                    await self._report_layout(body)
                elif action == MessageAction.INVOKE_METHOD.value:  # "no such setting": the server keeps its defaults
                    await self.ws.send(_frame(MessageAction.INVOKE_METHOD, {
                        "control_id": body["control_id"], "call_id": body["call_id"], "result": None, "error": None}))
        except Exception:
            pass  # the connection went (closed or cut): nothing more to read

    async def _report_layout(self, patch) -> None:
        """Like a browser, tell the server the probe's new size once the patch is laid out: a tap
        sent after this counts as made on that redraw (a phone that never reports is refused)."""
        found: dict = {}
        _probe_widths(patch, found)
        self._probe = found.get("id", self._probe)
        if self._probe is not None and found.get("width"):
            await self.ws.send(_frame(MessageAction.CONTROL_EVENT, {
                "target": self._probe, "name": "size_change", "data": {"w": found["width"], "h": 0}}))

    async def drawn(self, timeout: float = 20.0) -> None:
        """Wait until the server has drawn this phone's first screen."""
        await asyncio.wait_for(self.drawn_screen.wait(), timeout)

    async def tap(self, label: str) -> None:
        """Tap the icon button with this label (its tooltip), as last drawn on this phone."""
        await self.ws.send(_frame(MessageAction.CONTROL_EVENT,
                                  {"target": self.buttons[label], "name": "click", "data": None}))

    async def tap_answered(self, label: str, *, timeout: float = 20.0, quiet_ms: float = 150) -> float:
        """Tap, and return the seconds until the server sent this phone its change; then wait until
        nothing more has come for `quiet_ms` (the change's last frames), so the next tap starts clean."""
        frames = self.frames
        started = time.perf_counter()
        await self.tap(label)
        deadline = time.monotonic() + timeout
        while self.frames == frames:
            if time.monotonic() > deadline:
                raise RuntimeError(f"the tap on {label!r} was never answered")
            await asyncio.sleep(0.002)
        answered = time.perf_counter() - started
        seen, still = self.frames, time.monotonic()
        while time.monotonic() - still < quiet_ms / 1000:
            await asyncio.sleep(0.01)
            if self.frames != seen:
                seen, still = self.frames, time.monotonic()
        return answered

    async def close(self) -> None:
        """The tab closed: a proper websocket close."""
        await self.ws.close()
        await self._stop_reading()

    async def vanish(self) -> None:
        """The phone is gone mid-conversation: the connection is cut (RST), no close frame."""
        self.ws.transport.abort()
        await self._stop_reading()

    async def _stop_reading(self) -> None:
        if self._reader is not None:
            self._reader.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._reader

