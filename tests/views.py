"""What view tests share: walking a built panel's control tree without a browser, a button's words,
and the app's guard as a panel or dialog meets it."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Optional, Sequence

import flet as ft

from companion.games.base import InputError, RuleError


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


BUTTONS = (ft.Button, ft.OutlinedButton, ft.TextButton)  # FilledButton and FilledTonalButton are Buttons


def words(control) -> Optional[str]:
    """A button's words: its content, or the Text in it (the kit pads it in a Container, to wrap)."""
    content = getattr(control, "content", None)
    if isinstance(content, ft.Container):
        content = content.content
    return content.value if isinstance(content, ft.Text) else content if isinstance(content, str) else None


def guard(fn, *, show_in: Optional[ft.Text] = None):
    """TableSession.guard for a test without a page: a refusal shows in `show_in` (a dialog's error
    line) as the app shows it there, and is raised when there is none (the app's message bar)."""
    def handler(e=None):
        try:
            return fn(e)
        except (RuleError, InputError) as exc:
            if show_in is None:
                raise
            show_in.value = str(exc)
    return handler


class StoreFrame:
    """The frame a panel lives in, over a real store: dispatch applies the action, dialogs are
    collected in `dialogs`. A game's test sets `view` (its view module)."""

    view = None

    def __init__(self, store, cid: int):
        from companion.ui.style import Sizes

        self.store, self.campaign_id = store, cid
        self.dialogs: list[ft.AlertDialog] = []
        page = SimpleNamespace(show_dialog=self.dialogs.append, pop_dialog=lambda: None, update=lambda: None,
                               views=[], run_task=lambda f: None)
        self.app = SimpleNamespace(store=store, guard=guard, go=lambda route: None, sizes=Sizes(1.0), page=page,
                                   confirm=lambda title, text, yes, go, danger=False: go())
        self.dispatched: list = []
        self.refresh()

    def refresh(self) -> None:
        self.loaded = self.store.load(self.campaign_id)

    def history(self, limit: int = 100) -> list:
        return self.store.history(self.campaign_id, limit=limit)

    def dispatch(self, action, pulse: bool = False) -> None:
        self.store.apply(self.campaign_id, action, expected_cursor=self.loaded.cursor)
        self.dispatched.append((action, pulse))
        self.refresh()

    def panel(self) -> ft.Control:
        return self.view.panel(self)
