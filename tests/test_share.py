"""The join gate: without the token a browser gets only the "scan the code" page, no app, no socket."""

import asyncio
from concurrent.futures import ThreadPoolExecutor

from companion.share import COOKIE, JoinGate, join_url, qr_png


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
    assert qr_png("http://x/?join=abc").startswith(b"\x89PNG")
