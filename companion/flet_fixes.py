"""What the served app changes in the pinned Flet (flet-web 1.0.5), and why. Applied once, by
`companion serve` (`apply()`); tests/test_flet_fixes.py fails when Flet's replaced code changes, so an
upgrade is looked at rather than silently patched over.

- `FletApp.send_message` wrote `transport_log.debug(f"send_message: {message}")`: the f-string
  formats every patch sent (its whole tree of controls, enum by enum) whether or not debug logging
  is on. That was ~0.25 ms per message, three messages per phone per change, on every phone (#16).
  The replacement formats it only when that logger would print it; it sends the same bytes.
- `FletApp.handle` (#28) awaits its send loop, which re-raises when the phone is gone mid-send, so the
  `disconnect_session` after it never ran: the session stayed "connected", redrawn on every action,
  never let go. `PhoneConnection` (served instead of `FletApp`) ends the send loop quietly, always
  disconnects, and lets a phone's session go `PHONE_SESSION_TIMEOUT` seconds after its phone left
  (Flet keeps it an hour), unless the phone came back. uvicorn's ping (`HEARTBEAT`) finds a phone that
  vanished without closing its connection.
- `FletAppManager.__evict_expired_sessions` (every 10 s) kept the last session it looked at in its
  loop variable, so one phone's session that had been let go stayed in memory until the next sweep,
  and for good once none was left. The replacement collects the ids in a comprehension.
"""

from __future__ import annotations

import asyncio
import contextlib
import importlib
import logging
from datetime import datetime, timezone
from typing import Optional

import msgpack
from flet.controls.base_control import BaseControl
from flet.messaging.protocol import Message, configure_encode_object_for_msgpack
from flet.messaging.session import Session
from flet_web.fastapi import flet_app
from flet_web.fastapi.flet_app_manager import FletAppManager, app_manager

log = logging.getLogger(__name__)

ORIGINAL = flet_app.FletApp.send_message  # (read at import, before apply() replaces it)
# What PhoneConnection wraps (tests/test_flet_fixes.py pins their source to flet-web 1.0.5's).
ORIGINAL_HANDLE = flet_app.FletApp.handle
ORIGINAL_SEND_LOOP = flet_app.FletApp._FletApp__send_loop
ORIGINAL_RECEIVE_LOOP = flet_app.FletApp._FletApp__receive_loop
ORIGINAL_SWEEP = FletAppManager._FletAppManager__evict_expired_sessions
# The module whose websocket handler makes a FletApp per connection (by its global name FletApp).
SERVING_MODULE = importlib.import_module("flet_web.fastapi.app")

# Seconds a phone's session waits for its phone after the connection dropped. A phone that wakes
# within this resumes where it was (same session, same screen); later it starts a new session and is
# drawn afresh at the same route, which costs the table nothing. FLET_SESSION_TIMEOUT still overrides.
PHONE_SESSION_TIMEOUT = 120
# uvicorn pings each phone this often and drops one that doesn't answer within the timeout (seconds):
# a phone gone without closing its connection (Wi-Fi lost) is let go within half a minute.
HEARTBEAT = {"ws_ping_interval": 15.0, "ws_ping_timeout": 15.0}


def send_message(self, message: Message) -> None:
    """flet-web 1.0.5's `FletApp.send_message`, its debug text made only when it would be logged."""
    if flet_app.transport_log.isEnabledFor(logging.DEBUG):
        flet_app.transport_log.debug("send_message: %s", message)
    queue = self._FletApp__send_queue
    if queue is None:  # the phone has gone and the send loop has ended: there is nobody to send to
        return
    body = msgpack.packb([message.action, message.body], default=configure_encode_object_for_msgpack(BaseControl))
    queue.put_nowait(b"\x00" + body)


class PhoneConnection(flet_app.FletApp):
    """One phone's websocket: flet-web 1.0.5's FletApp with a send loop that survives the phone
    leaving mid-send, a disconnect that always happens, and a short session timeout."""

    def __init__(self, *args, **kwargs):
        kwargs["session_timeout_seconds"] = PHONE_SESSION_TIMEOUT
        super().__init__(*args, **kwargs)  # (reads FLET_SESSION_TIMEOUT, which still wins)
        self._let_go: Optional[tuple[str, Session]] = None  # the session this connection released

    async def handle(self, websocket) -> None:
        try:
            await ORIGINAL_HANDLE(self, websocket)
        except AttributeError:
            # A connection that closed before it registered has no session: Flet 1.0.5 then reads
            # `None.id` where it disconnects it. There is nothing to let go.
            if self._FletApp__session is not None or self._let_go is not None:
                raise
        finally:
            session = self._FletApp__session
            if session is not None and session.connection is self:
                # Flet's own disconnect didn't run (the handler was cancelled or failed): do it here.
                with contextlib.suppress(Exception):
                    await app_manager.disconnect_session(self._session_key(session),
                                                         self._FletApp__session_timeout_seconds)
            if self._let_go is not None:
                self._expire_later(*self._let_go)

    def dispose(self) -> None:
        """Session.disconnect calls this: note which session was let go (Flet forgets it here)."""
        session = self._FletApp__session
        if session is not None:
            self._let_go = (self._session_key(session), session)
        super().dispose()

    def _session_key(self, session: Session) -> str:
        return self._FletApp__get_unique_session_id(session.id)

    async def _FletApp__send_loop(self) -> None:
        """Flet's send loop; when the phone is gone mid-send, stop sending, close the socket (so the
        receive loop ends too) and drop what is queued until the receive loop says it's over."""
        try:
            await ORIGINAL_SEND_LOOP(self)
            return
        except Exception as exc:
            log.info("a phone went away while the table was sending to it (%s)", type(exc).__name__)
        websocket, queue = self._FletApp__websocket, self._FletApp__send_queue
        with contextlib.suppress(Exception):
            await websocket.close()
        while await queue.get() is not None:
            pass
        self._FletApp__websocket = None
        self._FletApp__send_queue = None

    async def _FletApp__receive_loop(self) -> None:
        await ORIGINAL_RECEIVE_LOOP(self)
        if self._FletApp__session is None:  # Flet ends the send loop only for a phone that registered
            await self._FletApp__send_queue.put(None)

    def _expire_later(self, key: str, session: Session) -> None:
        """Let the session go as soon as its time is up, unless its phone came back (Flet's own sweep
        looks only every 10 s; it stays as a second net)."""
        async def expire() -> None:
            if session.connection is not None or session.expires_at is None:
                return  # the phone is back (a reconnect cleared expires_at)
            if datetime.now(timezone.utc) < session.expires_at:
                self.loop.call_later(0.5, lambda: asyncio.ensure_future(expire()))
                return
            if await app_manager.get_session(key) is session:
                await app_manager.delete_session(key)

        delay = max(0.0, (session.expires_at - datetime.now(timezone.utc)).total_seconds()) if session.expires_at else 0.0
        asyncio.get_running_loop().call_later(delay + 0.1, lambda: asyncio.ensure_future(expire()))


async def evict_expired_sessions(self: FletAppManager) -> None:
    """flet-web 1.0.5's sweep of expired sessions, holding none of them between sweeps."""
    while True:
        await asyncio.sleep(10)
        for session_id in _expired(self._FletAppManager__sessions):
            await self.delete_session(session_id)


def _expired(sessions: dict[str, Session]) -> list[str]:
    now = datetime.now(timezone.utc)
    return [key for key, session in sessions.items() if session.expires_at and now > session.expires_at]


def phone_sessions() -> int:
    """The sessions the served app holds (connected, or waiting for their phone to come back)."""
    return len(app_manager._FletAppManager__sessions)


def apply() -> None:
    flet_app.FletApp.send_message = send_message
    SERVING_MODULE.FletApp = PhoneConnection  # the websocket handler makes one per connection
    FletAppManager._FletAppManager__evict_expired_sessions = evict_expired_sessions  # (started with the server)
