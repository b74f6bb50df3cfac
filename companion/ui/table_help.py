"""The set-up checklist and the reminders, one piece for every game.

What to show comes from the game's pure `setup.py` (companion.games.table_help); this module only
draws it. The checklist sits above the game's panel; its ticks, and whether it is open, belong to
this phone alone and live in the server's memory for this phone's session (a reload or a second
phone starts it fresh: ticking is a help for whoever lays out the table, not part of the game).

The screen never moves under a player's finger because of the game: a phone that opens a campaign
still setting up shows the checklist open, any other folded to a one-line "Set-up checklist" entry,
and from then on only this phone's own taps open or fold it ("Skip set-up", "All set", the entry) —
never a move, on this phone or another. The reminders, which do follow the game's step, come and
go *below* the panel, where they move nothing a player is about to tap. A reminder is dismissed by
the table, for the rest of the campaign, with an action in its log."""

from __future__ import annotations

import weakref
from dataclasses import dataclass, field
from types import SimpleNamespace
from typing import Any, Optional

import flet as ft

from companion import i18n
from companion.games.table_help import reminders_for, setting_up, setup_for
from companion.i18n import _
from companion.table import DismissReminder
from companion.ui.style import GAP
from companion.ui.widgets import keyed, section, tagged, wide_button


@dataclass
class ChecklistMemory:
    """One phone's checklist for one campaign: open or folded, its ticks, and the steps they were
    ticked on (a new set-up, such as Human Ethos' next issue, starts unticked)."""

    open: bool
    ticked: set[str] = field(default_factory=set)
    steps_seen: Optional[tuple] = None
    reopened: bool = False  # opened again from its entry: its button folds it ("Hide"), not "Skip"


# session → campaign id → its checklist memory; a phone's session gone, its memory goes with it.
_PHONES: weakref.WeakKeyDictionary[Any, dict[int, ChecklistMemory]] = weakref.WeakKeyDictionary()


def checklist_memory(app: Any, campaign_id: int, key: str, state: Any) -> ChecklistMemory:
    """This phone's memory of the campaign's checklist; made at the phone's first look, open while
    the table is still setting up then (the one time the game's state decides it)."""
    phone = _PHONES.setdefault(app, {})
    memory = phone.get(campaign_id)
    if memory is None:
        memory = phone[campaign_id] = ChecklistMemory(open=setting_up(key, state))
    return memory


def checklist(screen: Any) -> list[ft.Control]:
    """The set-up checklist (above the game's panel): open, or folded to its entry; nothing for a
    game that has none."""
    loaded = screen.loaded
    if loaded is None:
        return []
    key = loaded.campaign.game
    steps = setup_for(key, loaded.game_state)
    if not steps:
        return []
    memory = checklist_memory(screen.app, screen.campaign_id, key, loaded.game_state)
    seen = tuple((s.key, repr(s.text)) for s in steps)  # (a step's words and counts, in any language)
    if memory.steps_seen != seen:
        memory.ticked.clear()
        memory.steps_seen = seen
    drawn = _checklist(screen, steps, memory) if memory.open else _folded(screen, steps, memory)
    return [keyed("setup", drawn)]


def reminders(screen: Any) -> list[ft.Control]:
    """The reminders that apply now (below the game's panel)."""
    loaded = screen.loaded
    if loaded is None:
        return []
    due = reminders_for(loaded.campaign.game, loaded.game_state, loaded.state.dismissed)
    return [keyed("reminders", _reminders(screen, due))] if due else []


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
        memory.open = False
        screen.refresh()

    rows = [ft.Text(_("Ticks are for this phone only."), theme_style=ft.TextThemeStyle.BODY_SMALL)]
    for number, step in enumerate(steps, start=1):
        ticked = step.key in memory.ticked
        said = f"{number}. {i18n.render(step.text)}"
        box = ft.Checkbox(value=ticked, on_change=tick(step.key))

        def flip(e, box=box, key=step.key):
            box.value = not box.value
            tick(key)(SimpleNamespace(control=box))

        # The row is the checkbox a screen reader reads (named by its step) and a finger taps anywhere;
        # the box inside isn't a second, nameless one (as widgets.tick_row).
        read = f"{said}\n{_('Rulebook: {section}', section=step.cite)}"  # what a screen reader says of the row
        rows.append(tagged(f"setup-step-{step.key}", ft.Semantics(label=read, checked=ticked, container=True,
                                                                  content=ft.Container(ft.Row([
            ft.Semantics(content=box, exclude_semantics=True),
            ft.Column([ft.Text(said, theme_style=ft.TextThemeStyle.BODY_LARGE,
                               color=ft.Colors.ON_SURFACE_VARIANT if ticked else None),
                       _cite(step.cite)], spacing=2, expand=True),
        ], vertical_alignment=ft.CrossAxisAlignment.START), on_click=flip, border_radius=8))))
    all_done = done == len(steps)
    if memory.reopened:
        words, icon = _("Hide set-up"), ft.Icons.EXPAND_LESS
    elif all_done:
        words, icon = _("All set: start playing"), ft.Icons.CHECK
    else:
        words, icon = _("Skip set-up"), ft.Icons.SKIP_NEXT
    rows.append(wide_button(words, close, icon=icon, filled=all_done and not memory.reopened,
                            tonal=not all_done or memory.reopened))
    return tagged("setup-checklist", section(_("Set up the table ({done} of {count} done)", done=done, count=len(steps)),
                                             *rows))


def _folded(screen: Any, steps: list, memory: ChecklistMemory) -> ft.Control:
    """The checklist folded to one line this phone can open again."""
    def reopen(e):
        memory.open = memory.reopened = True
        screen.refresh()

    done = sum(1 for s in steps if s.key in memory.ticked)
    return tagged("setup-folded", ft.TextButton(
        content=_("Set-up checklist ({done} of {count} done)", done=done, count=len(steps)),
        icon=ft.Icons.CHECKLIST, on_click=reopen))


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
