"""The join gate: without the token a browser gets only the "scan the code" page, no app, no socket."""

import asyncio
from concurrent.futures import ThreadPoolExecutor

from companion.share import COOKIE, JoinGate, join_url, qr_modules


async def inner_app(scope, receive, send):
    if scope["type"] == "websocket":
        await send({"type": "websocket.accept"})
        return
    await send({"type": "http.response.start", "status": 200, "headers": []})
    await send({"type": "http.response.body", "body": b"THE APP"})


def call(gate, scope):
    sent = []

    async def receive():
        return {"type": "websocket.connect"} if scope["type"] == "websocket" else {"type": "http.request"}

    async def send(message):
        sent.append(message)

    # In a worker thread: Playwright's sync API (e2e tests in the same run) leaves a loop running here.
    with ThreadPoolExecutor(1) as pool:
        pool.submit(asyncio.run, gate(scope, receive, send)).result()
    return sent


def http(path="/", query=b"", cookie=None):
    headers = [(b"cookie", f"{COOKIE}={cookie}".encode())] if cookie else []
    return {"type": "http", "path": path, "query_string": query, "headers": headers}


gate = JoinGate(inner_app, "s3cret")


def status(sent):
    return sent[0].get("status")


def test_without_token_only_the_scan_page():
    sent = call(gate, http("/"))
    assert status(sent) == 403 and b"Scan the code at the table" in sent[1]["body"]
    assert b"THE APP" not in sent[1]["body"]
    assert status(call(gate, http("/c/1"))) == 403
    assert status(call(gate, http("/main.dart.js"))) == 403


def test_a_wrong_token_or_cookie_is_refused():
    assert status(call(gate, http("/", b"join=nope"))) == 403
    assert status(call(gate, http("/", cookie="nope"))) == 403


def test_the_token_sets_a_cookie_and_redirects_to_the_app():
    sent = call(gate, http("/", b"join=s3cret"))
    headers = dict(sent[0]["headers"])
    assert status(sent) == 303 and headers[b"location"] == b"/"
    assert headers[b"set-cookie"].startswith(f"{COOKIE}=s3cret".encode()) and b"HttpOnly" in headers[b"set-cookie"]
    assert call(gate, http("/", cookie="s3cret"))[1]["body"] == b"THE APP"


def test_the_websocket_needs_the_cookie():
    refused = call(gate, {"type": "websocket", "path": "/ws", "query_string": b"", "headers": []})
    assert refused[0] == {"type": "websocket.close", "code": 4403}
    accepted = call(gate, {"type": "websocket", "path": "/ws", "query_string": b"",
                           "headers": [(b"cookie", f"{COOKIE}=s3cret".encode())]})
    assert accepted[0]["type"] == "websocket.accept"


def test_an_open_table_lets_everyone_in():
    assert call(JoinGate(inner_app, None), http("/"))[1]["body"] == b"THE APP"


def test_join_url_and_qr():
    assert join_url("192.168.1.5", 8550, "abc") == "http://192.168.1.5:8550/?join=abc"
    rows = qr_modules("http://x/?join=abc", border=2)
    assert len(rows) >= 21 + 4 and all(len(r) == len(rows) for r in rows)  # version 1 or more, bordered
    assert not any(rows[0]) and not any(rows[1])  # the light border
    finder = [row[2:9] for row in rows[2:9]]  # the top-left finder pattern: a dark ring, a light ring, a 3×3 core
    assert finder[0] == [True] * 7 and finder[1] == [True] + [False] * 5 + [True]
    assert finder[3] == [True, False, True, True, True, False, True]


# --- the gate's edges (#12.8) ------------------------------------------------------------------------


def socket_scope(origin, host=b"192.168.1.5:8550", cookie="s3cret"):
    headers = [(b"host", host), (b"cookie", f"{COOKIE}={cookie}".encode())]
    if origin is not None:
        headers.append((b"origin", origin))
    return {"type": "websocket", "path": "/ws", "query_string": b"", "headers": headers}


def test_the_websocket_must_come_from_a_page_of_this_host():
    assert call(gate, socket_scope(b"http://192.168.1.5:8550"))[0]["type"] == "websocket.accept"
    assert call(gate, socket_scope(None))[0]["type"] == "websocket.accept"  # a program, not a page: cookie only
    for origin in (b"http://evil.example", b"http://192.168.1.5:8551", b"http://192.168.1.5.evil.example:8550",
                   b"null", b"file://", b"ftp://192.168.1.5:8550"):
        assert call(gate, socket_scope(origin))[0] == {"type": "websocket.close", "code": 4403}, origin
    # an open table too: a page elsewhere must not drive it through a phone's browser
    assert call(JoinGate(inner_app, None), socket_scope(b"http://evil.example"))[0]["code"] == 4403


def test_the_join_redirect_never_leaves_the_host():
    for path in ("//evil.example/", "///evil.example/x", "/\\evil.example/", "/\\/evil.example"):
        sent = call(gate, http(path, b"join=s3cret"))
        location = dict(sent[0]["headers"])[b"location"].decode()
        assert status(sent) == 303 and location.startswith("/") and not location.startswith(("//", "/\\")), location
    sent = call(gate, http("/c/1\r\nSet-Cookie: x=y", b"join=s3cret&tab=2"))
    assert dict(sent[0]["headers"])[b"location"] == b"/c/1%0D%0ASet-Cookie:%20x=y?tab=2"


def test_no_api_docs_are_served():
    for path in ("/docs", "/docs/", "/redoc", "/openapi.json", "/docs/oauth2-redirect"):
        for g in (gate, JoinGate(inner_app, None)):
            assert status(call(g, http(path, cookie="s3cret"))) == 404, path


# --- the join token: kept with the data, long enough (#12.7) -----------------------------------------


def test_a_short_or_odd_token_is_refused():
    from companion.share import new_token, token_problem

    assert token_problem(new_token()) is None and len(new_token()) >= 16
    assert "at least 16 characters" in token_problem("e2e-token")
    assert "at least 16 characters" in token_problem("x")
    assert "letters, digits" in token_problem("a-long-token-with;semicolon")
    assert token_problem("e2e-physical-token") is None


def test_the_token_is_kept_with_the_data_across_restarts(tmp_path):
    from companion.context import AppContext
    from models.backup import make_backup

    url = f"sqlite:///{tmp_path / 'c.sqlite'}"
    first = AppContext.open(url)
    token = first.join_token()
    first.close()
    again = AppContext.open(url)
    assert again.join_token() == token  # a restart: every joined phone's cookie still works
    rotated = again.join_token(rotate=True)
    assert rotated != token and again.join_token() == rotated
    again.close()
    given = AppContext.open(url)
    assert given.join_token(given="my-own-long-token-1") == "my-own-long-token-1"
    given.token = "my-own-long-token-1"
    backup = make_backup(given.db.path, given.backup_dir)  # holds this token
    given.token = given.join_token(rotate=True)
    given.restore(backup)  # a restore brings back campaigns, not an old token
    assert given.join_token() == given.token
    given.close()


def test_serve_refuses_a_short_token_with_a_message(tmp_path):
    import subprocess
    import sys
    from pathlib import Path

    from tests.browser import free_port

    root = Path(__file__).resolve().parent.parent
    result = subprocess.run([sys.executable, "-m", "companion", "--db", f"sqlite:///{tmp_path / 'c.sqlite'}", "serve",
                             "--token", "e2e-token", "--port", str(free_port())], cwd=root, capture_output=True,
                            text=True, timeout=60)  # (a token that was accepted would serve until killed)
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert "a join token needs at least 16 characters (this one has 9)" in result.stderr
