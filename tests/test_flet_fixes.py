"""companion/flet_fixes.py replaces code of the pinned Flet: the replaced code must still be what the
replacement was written against, and the replacement must send what the original sent."""

import asyncio
import hashlib
import inspect

import flet as ft
from flet.messaging.protocol import Message, MessageAction, PatchControlBody
from flet_web.fastapi.flet_app import FletApp

from companion import flet_fixes

# sha256 of flet-web 1.0.5's FletApp.send_message source: if Flet changed it, look at the new one
# (is the f-string still there? does the replacement still match what it does?) and update both.
ORIGINAL_SHA256 = "47399d973ee706f08b9d343906c55dd28aa8aabda2f55513c29d98f3d932466e"


def test_the_replaced_flet_code_is_the_one_the_fix_was_written_for():
    source = inspect.getsource(flet_fixes.ORIGINAL)
    assert hashlib.sha256(source.encode()).hexdigest() == ORIGINAL_SHA256, source


def _sent(send) -> bytes:
    app = FletApp.__new__(FletApp)
    app._FletApp__send_queue = asyncio.Queue()
    patch = [{"value": "7"}, [0, 0, "value", "8"]]
    send(app, Message(MessageAction.PATCH_CONTROL, PatchControlBody(12, patch)))
    line = ft.Text("history line")
    line._i = 99  # (each new control takes the next number)
    send(app, Message(MessageAction.PATCH_CONTROL, PatchControlBody(3, [line])))
    queue = app._FletApp__send_queue
    return b"|".join(queue.get_nowait() for _ in range(queue.qsize()))


def test_the_replacement_sends_the_same_bytes_as_the_original():
    assert _sent(flet_fixes.send_message) == _sent(flet_fixes.ORIGINAL)


# What PhoneConnection and the sweep wrap (#28), pinned the same way: flet-web 1.0.5's source.
PINNED = {
    "ORIGINAL_HANDLE": "d7464637bb485356b6e718ada05d0b96444617aefd5127b0e76e8719972214f4",
    "ORIGINAL_SEND_LOOP": "6bdcfa9a5e2a2c6d8b636ef82e58f1a3a035f60afac80f303f0f2b22c910b115",
    "ORIGINAL_RECEIVE_LOOP": "72d3eaba05852340904cb8790d4c61db862457e11e29d49015fc69cba06f2b91",
    "ORIGINAL_SWEEP": "ae65754338c853897e31a4e4b34e1b52a0d39b81f181fbb5ee55674957089cff",
}
# flet_web.fastapi.app.app: its websocket handler makes `FletApp(...)` by the module's global name.
SERVING_SHA256 = "6d77db4b439dbfd5d345a76ccb951608227f02e05c87727e3612d4dbc5316145"


def test_the_session_guard_wraps_the_flet_web_code_it_was_written_for():
    from importlib.metadata import version

    assert version("flet-web") == "1.0.5"
    for name, digest in PINNED.items():
        source = inspect.getsource(getattr(flet_fixes, name))
        assert hashlib.sha256(source.encode()).hexdigest() == digest, (name, source)
    serving = inspect.getsource(flet_fixes.SERVING_MODULE.app)
    assert hashlib.sha256(serving.encode()).hexdigest() == SERVING_SHA256, serving
    assert "await FletApp(" in serving


def test_once_applied_every_phone_connection_is_guarded():
    flet_fixes.apply()
    assert flet_fixes.SERVING_MODULE.FletApp is flet_fixes.PhoneConnection
    made = flet_fixes.PhoneConnection(loop=None, executor=None, main=None, before_main=None,
                                      session_timeout_seconds=3600)
    assert made._FletApp__session_timeout_seconds == flet_fixes.PHONE_SESSION_TIMEOUT


def test_a_sweep_keeps_no_session_it_looked_at():
    from datetime import datetime, timedelta, timezone
    from types import SimpleNamespace

    now = datetime.now(timezone.utc)
    sessions = {"gone": SimpleNamespace(expires_at=now - timedelta(seconds=1)),
                "here": SimpleNamespace(expires_at=None), "waiting": SimpleNamespace(expires_at=now + timedelta(60))}
    assert flet_fixes._expired(sessions) == ["gone"]
