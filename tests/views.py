"""What view tests share: walking a built panel's control tree without a browser, a button's words,
and the app's guard as a panel or dialog meets it."""

from __future__ import annotations

import dataclasses
import enum
import functools
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
        self.app = SimpleNamespace(store=store, guard=guard, go=lambda route: None, sizes=Sizes(1.0), scale=1.0,
                                   page=page, confirm=lambda title, text, yes, go, danger=False: go())
        self.dispatched: list = []
        self.memo = True  # False: every section drawn afresh (what `kept` must read the same as)
        self._kept: dict = {}
        self._screen_states: dict = {}
        self.refresh()

    def refresh(self) -> None:
        self.loaded = self.store.load(self.campaign_id)

    def history(self, limit: int = 100) -> list:
        return self.store.history(self.campaign_id, limit=limit)

    def dispatch(self, action, pulse: bool = False) -> None:
        self.store.apply(self.campaign_id, action, expected_cursor=self.loaded.cursor)
        self.dispatched.append((action, pulse))
        self.refresh()

    def kept(self, key: str, inputs, build):
        """CampaignScreen.kept: the section drawn last time while its inputs are unchanged (the phone's
        language among them, as the real frame adds it)."""
        from companion import i18n

        inputs = (inputs, i18n.current().code)
        entry = self._kept.get(key) if self.memo else None
        if entry is None or entry[0] != inputs:
            entry = (inputs, build())
        self._kept[key] = entry
        return entry[1]

    def screen_state(self, kind):
        """CampaignScreen.screen_state: this phone's own `kind()`, made once, kept across redraws."""
        state = self._screen_states.get(kind)
        if state is None:
            state = self._screen_states[kind] = kind()
        return state

    def panel(self) -> ft.Control:
        return self.view.panel(self)


@functools.lru_cache(maxsize=None)
def _shown_fields(cls) -> tuple[str, ...]:
    return tuple(f.name for f in dataclasses.fields(cls)
                 if not f.name.startswith("_") and f.name not in ("data", "parent", "page"))


def signature(control) -> object:
    """Everything a control tree shows, as plain data: each control's type and public properties,
    its children in order (handlers and Flet's bookkeeping left out). Two trees that read the same
    to a player have equal signatures."""
    seen: set[int] = set()

    def walk(value):
        if isinstance(value, (list, tuple)):
            return [walk(v) for v in value]
        if isinstance(value, dict):
            return {k: walk(v) for k, v in value.items()}
        if dataclasses.is_dataclass(value) and not isinstance(value, type):
            if id(value) in seen:
                return "<again>"
            seen.add(id(value))
            props = {}
            for name in _shown_fields(type(value)):
                v = getattr(value, name, None)
                if v is None or isinstance(v, (str, int, float, bool)):
                    props[name] = v
                else:
                    props[name] = True if name.startswith("on_") else walk(v)
            seen.discard(id(value))
            return (type(value).__name__, props)
        if callable(value) and not isinstance(value, (str, int, float, enum.Enum)):
            return "<handler>" if value is not None else None
        return value
    return walk(control)
