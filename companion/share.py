"""Sharing a table on the LAN: the join token, the join URL and its QR code, and the gate that
keeps a browser without the token away from every campaign.

The QR's URL carries `?join=TOKEN`; the gate swaps it for a cookie and redirects to the app, so a
reload or reconnect keeps working. Without a valid token or cookie a browser gets only a "scan the
code at the table" page: no web client, no websocket, nothing of any campaign.

The token is kept in the save (companion.context), so a restart keeps every joined phone joined;
`serve --new-token` makes a new one. The websocket must come from a page of this host (a cross-site
page can't ride a phone's cookie), the redirect never leaves the host, and the API docs the web
framework would serve are not served.
"""

from __future__ import annotations

import hmac
import html
import re
import secrets
import socket
import sys
from http.cookies import SimpleCookie
from typing import Optional
from urllib.parse import parse_qs, quote, urlencode, urlsplit

import qrcode

from companion.i18n import _, negotiate, speaking

COOKIE = "companion_join"
COOKIE_MAX_AGE = 60 * 60 * 24 * 30
MIN_TOKEN = 16  # characters; a new token has 16 (96 random bits)
_TOKEN_CHARS = re.compile(r"^[A-Za-z0-9._~-]+$")  # safe in a URL, a QR code and a cookie as they are
# The web framework's API docs: nothing a table needs, and a map of the server for anyone else.
NOT_SERVED = {"/docs", "/docs/oauth2-redirect", "/redoc", "/openapi.json"}
# What "Add to home screen" fetches without the join cookie (a browser fetches the manifest without
# credentials): the app's name, icons and colours, nothing of any table. See assets/manifest.json.
PUBLIC = re.compile(r"^/(manifest\.json|favicon\.png|icons/[a-z0-9-]+\.png)$")


def new_token() -> str:
    return secrets.token_urlsafe(12)


def token_problem(token: str) -> Optional[str]:
    """Why a join token given by the host can't be used, or None. For the command line, which speaks
    English (whoever hosts reads it, not the players)."""
    if len(token) < MIN_TOKEN:
        return ("a join token needs at least {} characters (this one has {}); "
                "leave --token out to use the table's own token").format(MIN_TOKEN, len(token))
    if not _TOKEN_CHARS.match(token):
        return "a join token may hold only letters, digits and {}".format("- _ . ~")
    return None


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


def join_url(host: str, port: int, token: Optional[str], *, https: bool = False) -> str:
    base = f"{'https' if https else 'http'}://{host}:{port}/"
    return f"{base}?{urlencode({'join': token})}" if token else base


def qr_modules(text: str, *, border: int = 2) -> list[list[bool]]:
    """The QR code of `text` as rows of modules (True = dark), with a light border around it.

    The app draws these as shapes rather than showing a PNG: a page on the LAN (plain http, not a
    secure context) has no WebCodecs ImageDecoder, and the web client then shows an image given as
    bytes as nothing at all."""
    code = qrcode.QRCode(border=border)
    code.add_data(text)
    code.make(fit=True)
    return [list(row) for row in code.get_matrix()]


def print_qr(text: str, out=None) -> None:
    code = qrcode.QRCode(border=1)
    code.add_data(text)
    code.make(fit=True)
    code.print_ascii(out=out or sys.stdout, invert=True)


def accepted_languages(header: Optional[str]) -> list[str]:
    """A browser's Accept-Language header ("de-CH,de;q=0.9,en;q=0.8") as its languages, best first."""
    ranked = []
    for position, part in enumerate((header or "").split(",")):
        tag, _sep, params = part.strip().partition(";")
        quality = 1.0
        for param in params.split(";"):
            key, _eq, value = param.strip().partition("=")
            if key.strip() == "q":
                try:
                    quality = float(value)
                except ValueError:
                    quality = 0.0
        if tag and tag != "*" and quality > 0:
            ranked.append((-quality, position, tag))
    return [tag for _q, _p, tag in sorted(ranked)]


def join_page(languages: list[str]) -> bytes:
    """The page a browser without the token gets, in its own language (the first the app speaks)."""
    language = negotiate(languages)
    with speaking(language):
        words = {"title": _("Table Companion"), "heading": _("Scan the code at the table"),
                 "text": _("This table is private. Scan the QR code shown on the host's screen (or in its terminal) "
                           "to join.")}
    return """<!doctype html><html lang="{lang}"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width,initial-scale=1"><title>{title}</title>
<style>body{{font-family:system-ui,sans-serif;display:flex;min-height:90vh;align-items:center;
justify-content:center;text-align:center;padding:1.5rem;background:#101418;color:#e8eef2}}
h1{{font-size:2rem}}p{{font-size:1.25rem;max-width:26rem;line-height:1.5}}</style></head>
<body><main><h1>{heading}</h1>
<p>{text}</p>
</main></body></html>""".format(lang=language.code, **{k: html.escape(v, quote=False) for k, v in words.items()}).encode("utf-8")


class JoinGate:
    """ASGI middleware: lets through only requests that carry the join token or its cookie."""

    def __init__(self, app, token: Optional[str]):
        self.app = app
        self.token = token

    def _valid(self, value: Optional[str]) -> bool:
        return bool(value) and hmac.compare_digest(value.encode(), self.token.encode())

    async def __call__(self, scope, receive, send):
        if scope["type"] not in ("http", "websocket"):
            return await self.app(scope, receive, send)
        if scope["type"] == "http" and scope.get("path", "").rstrip("/") in NOT_SERVED:
            return await _respond(send, 404, b"Not found", [(b"content-type", b"text/plain")])
        if scope["type"] == "websocket" and not _same_origin(scope):
            return await _refuse_socket(receive, send)  # a page of another site, riding a joined phone's cookie
        if self.token is None or (scope["type"] == "http" and PUBLIC.match(scope.get("path", ""))):
            return await self.app(scope, receive, send)
        query = parse_qs(scope.get("query_string", b"").decode("latin-1"))
        offered = (query.get("join") or [None])[0]
        cookie = _cookie(scope)
        if scope["type"] == "http" and offered is not None:
            if self._valid(offered):
                rest = {k: v for k, v in query.items() if k != "join"}
                location = _local_path(scope.get("path", "/")) + (f"?{urlencode(rest, doseq=True)}" if rest else "")
                return await _respond(send, 303, b"", [
                    (b"location", location.encode()),
                    (b"set-cookie", b"%s=%s; Path=/; Max-Age=%d; HttpOnly; SameSite=Lax"
                     % (COOKIE.encode(), self.token.encode(), COOKIE_MAX_AGE)),
                ])
        if self._valid(cookie):
            return await self.app(scope, receive, send)
        if scope["type"] == "websocket":
            return await _refuse_socket(receive, send)
        page = join_page(accepted_languages(_header(scope, b"accept-language")))
        return await _respond(send, 403, page, [(b"content-type", b"text/html; charset=utf-8")])


def _header(scope, name: bytes) -> Optional[str]:
    for key, value in scope.get("headers", []):
        if key == name:
            return value.decode("latin-1")
    return None


def _same_origin(scope) -> bool:
    """A browser always sends Origin with a websocket; it must name this very host (and port).
    No Origin at all is a program, not a page: it still needs the cookie."""
    origin = _header(scope, b"origin")
    if origin is None:
        return True
    host = _header(scope, b"host")
    try:
        parts = urlsplit(origin)
    except ValueError:
        return False
    return bool(host) and parts.scheme in ("http", "https") and parts.netloc.lower() == host.lower()


def _local_path(path: str) -> str:
    """The path to redirect to, on this host only: "//evil.example/" (or "/\\evil.example") would
    send the browser to another site, so leading slashes collapse to one; the rest is re-quoted."""
    return "/" + quote(path.lstrip("/\\"), safe="/:@!$&'()*+,;=-._~")


async def _refuse_socket(receive, send) -> None:
    await receive()  # websocket.connect
    await send({"type": "websocket.close", "code": 4403})


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
