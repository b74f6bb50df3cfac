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
