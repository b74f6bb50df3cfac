"""The set-up checklist and the reminders, one piece for every game (above the game's own panel).

What to show comes from the game's pure `setup.py` (companion.games.table_help); this module only
draws it. The checklist is offered while the game is still setting up; its ticks and "skip" belong
to this phone alone and live in the server's memory for this phone's session (a reload or a second
phone starts it fresh: ticking is a help for whoever lays out the table, not part of the game).
A reminder is dismissed by the table, for the rest of the campaign, with an action in its log."""

from __future__ import annotations

import weakref
from dataclasses import dataclass, field
from typing import Any

import flet as ft

from companion import i18n
from companion.games.table_help import reminders_for, setup_for
from companion.i18n import _
from companion.table import DismissReminder
from companion.ui.style import GAP
from companion.ui.widgets import section, tagged, wide_button


@dataclass
class ChecklistMemory:
    """One phone's ticks and skip for one campaign's set-up."""

    ticked: set[str] = field(default_factory=set)
    closed: bool = False


# session → campaign id → its checklist memory; a phone's session gone, its memory goes with it.
_PHONES: weakref.WeakKeyDictionary[Any, dict[int, ChecklistMemory]] = weakref.WeakKeyDictionary()


def checklist_memory(app: Any, campaign_id: int) -> ChecklistMemory:
    return _PHONES.setdefault(app, {}).setdefault(campaign_id, ChecklistMemory())


def cards(screen: Any) -> list[ft.Control]:
    """The set-up checklist (while setting up, until this phone skips it) and the reminders that apply now."""
    loaded = screen.loaded
    if loaded is None:
        return []
    key = loaded.campaign.game
    state = loaded.game_state
    shown: list[ft.Control] = []
    memory = checklist_memory(screen.app, screen.campaign_id)
    steps = [] if memory.closed else setup_for(key, state)
    if steps:
        shown.append(_checklist(screen, steps, memory))
    due = reminders_for(key, state, loaded.state.dismissed)
    if due:
        shown.append(_reminders(screen, due))
    return shown


def _cite(cite: str) -> ft.Control:
    return ft.Text(_("Rulebook: {section}", section=cite), theme_style=ft.TextThemeStyle.BODY_SMALL, italic=True)


def _checklist(screen: Any, steps: list, memory: ChecklistMemory) -> ft.Control:
    done = sum(1 for s in steps if s.key in memory.ticked)

    def tick(key: str):
        def changed(e):
            if e.control.value:
                memory.ticked.add(key)
            else:
                memory.ticked.discard(key)
            screen.refresh()
        return changed

    def close(e):
        memory.closed = True
        screen.refresh()

    rows = [ft.Text(_("Ticks are for this phone only."), theme_style=ft.TextThemeStyle.BODY_SMALL)]
    for number, step in enumerate(steps, start=1):
        ticked = step.key in memory.ticked
        rows.append(tagged(f"setup-step-{step.key}", ft.Row([
            ft.Checkbox(value=ticked, on_change=tick(step.key)),
            ft.Column([ft.Text(f"{number}. {i18n.render(step.text)}", theme_style=ft.TextThemeStyle.BODY_LARGE,
                               color=ft.Colors.ON_SURFACE_VARIANT if ticked else None),
                       _cite(step.cite)], spacing=2, expand=True),
        ], vertical_alignment=ft.CrossAxisAlignment.START)))
    all_done = done == len(steps)
    rows.append(wide_button(_("All set: start playing") if all_done else _("Skip set-up"), close,
                            icon=ft.Icons.CHECK if all_done else ft.Icons.SKIP_NEXT, filled=all_done, tonal=not all_done))
    return tagged("setup-checklist", section(_("Set up the table ({done} of {count} done)", done=done, count=len(steps)),
                                             *rows))


def _reminders(screen: Any, due: list) -> ft.Control:
    def dismiss(reminder_id: str):
        return screen.app.guard(lambda e: screen.dispatch(DismissReminder(reminder=reminder_id)))

    rows: list[ft.Control] = []
    for reminder in due:
        rows.append(tagged(f"reminder-{reminder.id}", ft.Row([
            ft.Icon(ft.Icons.LIGHTBULB_OUTLINE),
            ft.Column([ft.Text(i18n.render(reminder.text), theme_style=ft.TextThemeStyle.BODY_LARGE), _cite(reminder.cite),
                       ft.TextButton(content=_("Dismiss for this campaign"), on_click=dismiss(reminder.id))],
                      spacing=2, expand=True),
        ], vertical_alignment=ft.CrossAxisAlignment.START, spacing=GAP)))
    return tagged("reminders", section(_("On the table now"), *rows))
