"""What the served app changes in the pinned Flet (flet-web 1.0.5), and why. Applied once, by
`companion serve` (`apply()`); tests/test_flet_fixes.py fails when Flet's replaced code changes, so an
upgrade is looked at rather than silently patched over.

- `FletApp.send_message` wrote `transport_log.debug(f"send_message: {message}")`: the f-string
  formats every patch sent (its whole tree of controls, enum by enum) whether or not debug logging
  is on. That was ~0.25 ms per message, three messages per phone per change, on every phone (#16).
  The replacement formats it only when that logger would print it; it sends the same bytes.
"""

from __future__ import annotations

import logging

import msgpack
from flet.controls.base_control import BaseControl
from flet.messaging.protocol import Message, configure_encode_object_for_msgpack
from flet_web.fastapi import flet_app

ORIGINAL = flet_app.FletApp.send_message  # (read at import, before apply() replaces it)


def send_message(self, message: Message) -> None:
    """flet-web 1.0.5's `FletApp.send_message`, its debug text made only when it would be logged."""
    if flet_app.transport_log.isEnabledFor(logging.DEBUG):
        flet_app.transport_log.debug("send_message: %s", message)
    body = msgpack.packb([message.action, message.body], default=configure_encode_object_for_msgpack(BaseControl))
    self._FletApp__send_queue.put_nowait(b"\x00" + body)


def apply() -> None:
    flet_app.FletApp.send_message = send_message
