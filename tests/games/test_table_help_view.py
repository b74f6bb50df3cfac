"""The set-up checklist on a phone (companion.ui.table_help): open for a phone that first looks while
the table sets up, folded for one that first looks later; from then on only this phone's own taps
open or fold it — a move, on this phone or another, changes neither (the screen must not jump under
a finger: #32's defect, where the checklist vanished after the first move). Reminders follow the
game's step."""

from __future__ import annotations

from types import SimpleNamespace

import flet as ft

from companion.games.klaw import rules as kl
from companion.ui import table_help
from tests.helpers import memory_store
from tests.views import StoreFrame, all_controls, guard, words


class Phone:
    """A phone's session as the checklist's memory knows it (weakly: gone with its session)."""

    def __init__(self):
        self.guard, self.scale = guard, 1.0
        self.page = SimpleNamespace(update=lambda: None)


def phone_frame(store, cid: int) -> StoreFrame:
    frame = StoreFrame(store, cid)
    frame.app = Phone()
    return frame


def identifiers(controls) -> set[str]:
    return {c.identifier for c in all_controls(controls) if isinstance(c, ft.Semantics) and c.identifier}


def button(controls, said: str):
    return next(c for c in all_controls(controls) if isinstance(c, (ft.Button, ft.TextButton)) and words(c) == said)


def first_move(frame) -> None:
    frame.dispatch(kl.Deploy(card=kl.HostCard(name="Wolfmother", attack=3, defense=2, life=10)))


def test_a_move_neither_closes_nor_opens_a_phones_checklist():
    store = memory_store()
    cid = store.create("klaw", "Were night", {"players": ["Ann", "Bo", "Cy"]}, seed=5)
    early = phone_frame(store, cid)
    shown = table_help.checklist(early)
    assert "setup-checklist" in identifiers(shown) and "setup-folded" not in identifiers(shown)
    assert "reminder-klaw-draw" not in identifiers(table_help.reminders(early))

    first_move(early)  # the table's first move: setting up is over
    shown = table_help.checklist(early)
    assert "setup-checklist" in identifiers(shown)  # still open, as it was
    assert "reminder-klaw-draw" in identifiers(table_help.reminders(early))  # the move's step: draw a card

    late = phone_frame(store, cid)  # a phone that first looks after the first move
    assert identifiers(table_help.checklist(late)) == {"setup-folded"}
    button(table_help.checklist(late), "Set-up checklist (0 of 5 done)").on_click(None)
    reopened = table_help.checklist(late)
    assert "setup-checklist" in identifiers(reopened)
    button(reopened, "Hide set-up").on_click(None)  # opened from its entry: folded by "Hide", not "Skip"
    assert identifiers(table_help.checklist(late)) == {"setup-folded"}

    # The early phone skips: folded to its entry, and undoing the move back into set-up keeps it so.
    button(table_help.checklist(early), "Skip set-up").on_click(None)
    assert identifiers(table_help.checklist(early)) == {"setup-folded"}
    store.undo(cid, expected_cursor=early.loaded.cursor)
    early.refresh()
    assert identifiers(table_help.checklist(early)) == {"setup-folded"}


def test_ticks_are_the_phones_and_all_ticked_offers_start_playing():
    store = memory_store()
    cid = store.create("klaw", "Were night", {"players": ["Ann", "Bo"]}, seed=5)
    phone, other = phone_frame(store, cid), phone_frame(store, cid)
    boxes = [c for c in all_controls(table_help.checklist(phone)) if isinstance(c, ft.Checkbox)]
    assert len(boxes) == 5
    for box in boxes:
        box.value = True
        box.on_change(SimpleNamespace(control=box))
    shown = table_help.checklist(phone)
    button(shown, "All set: start playing").on_click(None)
    assert [words(c) for c in all_controls(table_help.checklist(phone)) if isinstance(c, ft.TextButton)] == [
        "Set-up checklist (5 of 5 done)"]
    assert "Skip set-up" in {words(c) for c in all_controls(table_help.checklist(other)) if isinstance(c, ft.Button)}
