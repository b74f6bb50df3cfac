"""Sharing a table on the LAN: the join token, the join URL and its QR code, and the gate that
keeps a browser without the token away from every campaign.

The QR's URL carries `?join=TOKEN`; the gate swaps it for a cookie and redirects to the app, so a
reload or reconnect keeps working. Without a valid token or cookie a browser gets only a "scan the
code at the table" page: no web client, no websocket, nothing of any campaign.
"""

from __future__ import annotations

import hmac
import io
import secrets
import socket
import sys
from http.cookies import SimpleCookie
from typing import Optional
from urllib.parse import parse_qs, urlencode

import qrcode
import qrcode.image.pure

COOKIE = "companion_join"
COOKIE_MAX_AGE = 60 * 60 * 24 * 30


def new_token() -> str:
    return secrets.token_urlsafe(12)


def lan_address() -> str:
    """This machine's address on the LAN (no packet is sent), or 127.0.0.1 without a network."""
    probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        probe.connect(("10.254.254.254", 1))
        return probe.getsockname()[0]
    except OSError:
        return "127.0.0.1"
    finally:
        probe.close()


def join_url(host: str, port: int, token: Optional[str]) -> str:
    base = f"http://{host}:{port}/"
    return f"{base}?{urlencode({'join': token})}" if token else base


def qr_png(text: str, *, box_size: int = 8) -> bytes:
    image = qrcode.make(text, image_factory=qrcode.image.pure.PyPNGImage, box_size=box_size, border=2)
    buffer = io.BytesIO()
    image.save(buffer)
    return buffer.getvalue()


def print_qr(text: str, out=None) -> None:
    code = qrcode.QRCode(border=1)
    code.add_data(text)
    code.make(fit=True)
    code.print_ascii(out=out or sys.stdout, invert=True)


JOIN_PAGE = """<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width,initial-scale=1"><title>Table Companion</title>
<style>body{font-family:system-ui,sans-serif;display:flex;min-height:90vh;align-items:center;
justify-content:center;text-align:center;padding:1.5rem;background:#101418;color:#e8eef2}
h1{font-size:2rem}p{font-size:1.25rem;max-width:26rem;line-height:1.5}</style></head>
<body><main><h1>Scan the code at the table</h1>
<p>This table is private. Scan the QR code shown on the host's screen (or in its terminal) to join.</p>
</main></body></html>"""


class JoinGate:
    """ASGI middleware: lets through only requests that carry the join token or its cookie."""

    def __init__(self, app, token: Optional[str]):
        self.app = app
        self.token = token

    def _valid(self, value: Optional[str]) -> bool:
        return bool(value) and hmac.compare_digest(value.encode(), self.token.encode())

    async def __call__(self, scope, receive, send):
        if self.token is None or scope["type"] not in ("http", "websocket"):
            return await self.app(scope, receive, send)
        query = parse_qs(scope.get("query_string", b"").decode("latin-1"))
        offered = (query.get("join") or [None])[0]
        cookie = _cookie(scope)
        if scope["type"] == "http" and offered is not None:
            if self._valid(offered):
                rest = {k: v for k, v in query.items() if k != "join"}
                location = scope.get("path", "/") + (f"?{urlencode(rest, doseq=True)}" if rest else "")
                return await _respond(send, 303, b"", [
                    (b"location", location.encode()),
                    (b"set-cookie", f"{COOKIE}={self.token}; Path=/; Max-Age={COOKIE_MAX_AGE}; HttpOnly; SameSite=Lax".encode()),
                ])
        if self._valid(cookie):
            return await self.app(scope, receive, send)
        if scope["type"] == "websocket":
            await receive()  # websocket.connect
            return await send({"type": "websocket.close", "code": 4403})
        return await _respond(send, 403, JOIN_PAGE.encode(), [(b"content-type", b"text/html; charset=utf-8")])


def _cookie(scope) -> Optional[str]:
    for name, value in scope.get("headers", []):
        if name == b"cookie":
            jar = SimpleCookie()
            try:
                jar.load(value.decode("latin-1"))
            except Exception:
                return None
            if COOKIE in jar:
                return jar[COOKIE].value
    return None


async def _respond(send, status: int, body: bytes, headers: list) -> None:
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-length", str(len(body)).encode()), (b"cache-control", b"no-store"), *headers]})
    await send({"type": "http.response.body", "body": body})
