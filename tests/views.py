"""What view tests share: walking a built panel's control tree without a browser."""

from __future__ import annotations

from typing import Sequence

import flet as ft


def all_controls(control, attrs: Sequence[str] = ("controls", "content")) -> list[ft.BaseControl]:
    """Every control in the tree under `control` (itself included), depth first, following `attrs`
    in that order (a control's words in `content` are not followed)."""
    found: list[ft.BaseControl] = []

    def walk(c):
        if isinstance(c, (list, tuple)):
            for x in c:
                walk(x)
        elif isinstance(c, ft.BaseControl):
            found.append(c)
            for attr in attrs:
                v = getattr(c, attr, None)
                if v is not None and not isinstance(v, str):
                    walk(v)
    walk(control)
    return found
