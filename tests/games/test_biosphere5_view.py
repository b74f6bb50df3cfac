"""The Biosphere 5 panel without a browser, on a real store: its buttons come from the game's moves
and play through the store, the Machine's rescue check waits for hand dice at a physical-dice table
(the view counts no dice), the last move is read from typed events, the catastrophe dialog shows the
odds the rules declare, and The Abyss offers every usable tier of a leader."""

from __future__ import annotations

from types import SimpleNamespace

import flet as ft
from test_biosphere5_cards import DECK, TEST_DECK
from test_biosphere5_machine import solo

from companion.dice import ScriptedDice
from companion.games.biosphere5 import view
from companion.games.biosphere5.cards import Catalog, dump_catalog
from companion.games.biosphere5.rules import LeaderPromote, apply, reveal_action
from companion.games.biosphere5.screens import import_text
from companion.table import GiveDice, SetPhysicalDice
from tests.helpers import memory_store


class FakeFrame:
    """The frame a panel lives in, over a real store: dispatch applies, dialogs are collected."""

    def __init__(self, store, cid: int):
        self.store, self.campaign_id = store, cid
        self.dialogs: list[ft.AlertDialog] = []
        page = SimpleNamespace(show_dialog=self.dialogs.append, update=lambda: None, views=[], run_task=lambda f: None)
        self.app = SimpleNamespace(store=store, guard=lambda fn: fn, go=lambda route: None, sizes=lambda x: x,
                                   page=page, confirm=lambda title, text, yes, go, danger=False: go())
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
        return view.panel(self)


def walk(control):
    if isinstance(control, (list, tuple)):
        for x in control:
            yield from walk(x)
    elif isinstance(control, ft.BaseControl):
        yield control
        for attr in ("controls", "content", "actions"):
            yield from walk(getattr(control, attr, None))


def texts(control) -> str:
    out = []
    for c in walk(control):
        for attr in ("value", "label", "content", "tooltip"):
            v = getattr(c, attr, None)
            if isinstance(v, str):
                out.append(v)
    return "\n".join(out)


def button(control, text: str, nth: int | None = None):
    """The one control whose words (content, or a screen reader's label) are `text`; with `nth`, the
    nth of several (one per player)."""
    found = [c for c in walk(control) if getattr(c, "content", None) == text or
             (isinstance(c, ft.Semantics) and c.label == text)]
    if nth is None:
        assert len(found) == 1, f"{len(found)} controls read {text!r}"
    c = found[nth or 0]
    return c.content if isinstance(c, ft.Semantics) else c


def tap(control, text: str, nth: int | None = None) -> None:
    b = button(control, text, nth)
    assert not b.disabled, f"{text!r} is disabled: {b.tooltip}"
    b.on_click(None)


def campaign(settings: dict, physical: bool = True) -> FakeFrame:
    store = memory_store()
    import_text(store, dump_catalog(Catalog(complete=True, cards=TEST_DECK)), replace=True)
    cid = store.create("biosphere5", "t", settings, seed=7)
    if physical:
        store.apply(cid, SetPhysicalDice(on=True), expected_cursor=0)
    return FakeFrame(store, cid)


def test_a_machine_round_with_its_rescue_check_asked_as_hand_die_faces():
    frame = campaign({})
    tap(frame.panel(), "Reveal 2 cards")
    view._input(frame).picked = ["deep-well", "shack"]
    tap(frame.panel(), "Let the Machine decide")
    assert frame.loaded.game_state.solo.machine.achievements == {"water": "green"}
    for _ in range(3):
        button(frame.panel(), "Your hand cards +1").on_click(None)
    panel = frame.panel()
    assert button(panel, "Espionage").disabled  # level II isn't reached: the game's reason is its tooltip
    assert "level II needs both level I achievements" in button(panel, "Espionage").tooltip

    tap(panel, "Catastrophe")
    dialog = frame.dialogs.pop()
    shown = texts(dialog)
    # The odds come from the chance the rules declare: 2 hand dice, 1 black face of 6 → 1 − (5/6)² = 31%.
    assert "Rescue check: 2 hand dice; any black hand saves the Machine: 31%" in shown
    assert "Machine's protection: none · yours: none" in shown
    assert button(dialog, "Nature catastrophe").disabled
    next(c for c in walk(dialog) if isinstance(c, ft.Switch)).value = True  # with a rescue card
    tap(dialog, "Housing catastrophe")
    assert frame.dispatched[-1][1] is True  # pulsed: it may roll
    pending = frame.loaded.state.pending
    assert pending is not None and pending.chance.count == 2  # the table rolls the Machine's hand dice
    assert [label for label, _ in pending.chance.die.choices()] == ["black hand", "blank"]
    assert frame.loaded.game_state.solo.human.hand == 3  # the action waits for its dice

    frame.dispatch(GiveDice(faces=[2, 1]))  # blank, black hand (what the frame's DicePad sends)
    panel = frame.panel()
    last = next(c for c in walk(panel) if isinstance(c, ft.Semantics) and c.identifier == "last-move")
    assert "Rescue check: 2 hand dice show blank, black hand → a black hand" in texts(last)
    assert frame.loaded.game_state.solo.machine.level == 1
    rows = frame.store.log_rows(frame.campaign_id)
    assert all(d[2] for r in rows for d in r.dice)  # every die was entered at the table
    tap(panel, "End my turn")
    assert "Reveal 1 card" in texts(frame.panel())


def test_giving_up_achievements_is_chosen_from_the_moves_field():
    held = {"water": "green", "housing": "green", "security": "green", "production": "green"}
    state = solo(level=2, machine=held, hand=1, human={"water": "yellow", "housing": "green", "security": "yellow"})
    state, _ = apply(state, reveal_action(DECK, ["barter", "tent"]), ScriptedDice([]))  # the Machine's Sabotage
    frame = campaign({}, physical=False)
    frame.loaded = SimpleNamespace(game_state=state, cursor=frame.loaded.cursor)  # the panel as it shows `state`
    panel = frame.panel()
    assert "You are 2 cards short: choose 2 achievements to give up." in texts(panel)
    go = button(panel, "I discarded 1 card and give up 2 achievements")
    assert go.disabled  # nothing chosen yet
    boxes = [c for c in walk(panel) if isinstance(c, ft.Checkbox)]
    assert [b.label for b in boxes] == ["Give up perfect housing (green cube)", "Give up makeshift water (yellow cube)",
                                        "Give up makeshift security (yellow cube)"]  # lowest value first
    view._input(frame).give_up = ["water", "security"]
    assert not button(frame.panel(), "I discarded 1 card and give up 2 achievements").disabled


def test_abyss_offers_every_usable_tier_and_greys_out_what_the_rules_refuse():
    frame = campaign({"opponent": "people", "abyss": True, "players": 2, "names": ["Ann", "Bo"]}, physical=False)
    panel = frame.panel()
    lower = "Lower doom −1 (discard as many cards as your doom)"
    assert button(panel, lower, 0).disabled and button(panel, lower, 0).tooltip == "Ann's doom is already 0."
    tap(panel, "Draw pile empty +2", 0)
    promote = "Promote True Believer (Ann)"
    button(frame.panel(), promote).on_click(None)
    button(frame.panel(), promote).on_click(None)
    panel = frame.panel()
    # At tier 2 the True Believer may use tier 2's ability or tier 1's instead (RULES.md §4).
    assert button(panel, "Use tier 2 – Without Hesitation") and button(panel, "Use tier 1 – Glimmer of Hope")
    tap(panel, "Use tier 1 – Glimmer of Hope")
    assert [p.doom for p in frame.loaded.game_state.abyss.players] == [1, 0]
    event = frame.store.history(frame.campaign_id, limit=1)[0].events[0]
    assert event["kind"] == "leader_ability" and "instead of tier 2's" in event["text"]
    # Finally true names a player: a dialog lists whom.
    frame.dispatch(LeaderPromote(player=0, leader="true_believer"))
    tap(frame.panel(), "Use tier 3 – Finally true")
    dialog = frame.dialogs.pop()
    tap(dialog, "Bo")
    assert [p.doom for p in frame.loaded.game_state.abyss.players] == [1, 2]
    # Attack: both sides from the template's choices.
    tap(frame.panel(), "Attack: attacker +1, attacked +2…", 0)
    dialog = frame.dialogs.pop()
    tap(dialog, "Ann played it on Bo")
    assert [p.doom for p in frame.loaded.game_state.abyss.players] == [2, 4]
