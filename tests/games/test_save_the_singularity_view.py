"""The Save the Singularity panel builds in every step of a turn (no browser), its buttons carry the
words of the game's legal moves, and they are disabled while the table is entering dice."""

from __future__ import annotations

from types import SimpleNamespace

import flet as ft

from companion.dice import ScriptedDice
from companion.games.save_the_singularity import rules, view
from companion.games.save_the_singularity.rules import GAME, Player, PressOn, Roll, Settings, Stop


class FakeFrame:
    def __init__(self, state: rules.State, *, waiting: bool = False):
        self.campaign_id = 1
        self.dispatched: list = []
        self.loaded = SimpleNamespace(game_state=state, cursor=3,
                                      state=SimpleNamespace(pending=object() if waiting else None))
        self.app = SimpleNamespace(guard=lambda fn: fn, sizes=lambda x: x, go=lambda route: None)

    def dispatch(self, action, *, pulse: bool = False) -> None:
        self.dispatched.append((action, pulse))


def controls(control) -> list:
    """Every control in a tree."""
    out = []

    def walk(c):
        if isinstance(c, (list, tuple)):
            for x in c:
                walk(x)
            return
        if not isinstance(c, ft.BaseControl):
            return
        out.append(c)
        for attr in ("content", "controls"):
            v = getattr(c, attr, None)
            if v is not None:
                walk(v)
    walk(control)
    return out


def buttons(panel) -> dict[str, ft.Control]:
    """Buttons by their words."""
    found = {}
    for c in controls(panel):
        if isinstance(c, (ft.FilledButton, ft.OutlinedButton, ft.FilledTonalButton)) and isinstance(c.content, ft.Text):
            found[c.content.value] = c
    return found


def texts(panel) -> str:
    return "\n".join(c.value for c in controls(panel) if isinstance(c, ft.Text) and isinstance(c.value, str))


def table(*roles: str) -> rules.State:
    names = ["Ada", "Bo", "Cy"]
    return rules.new_state(Settings(players=[Player(name=names[i], role=r) for i, r in enumerate(roles)]))


def test_every_button_is_a_legal_move_in_its_words_and_dispatches_it():
    s = table("rationalist", "mathematician")
    for action, faces in ((None, []), (Roll(), [1, 2, 4]), (PressOn(), [1, 1, 4, 4]), ("world", [])):
        if action == "world":
            s, _ = rules.apply(s, rules.TakeBust(), ScriptedDice([]))
        elif action is not None:
            s, _ = rules.apply(s, action, ScriptedDice(faces))
        frame = FakeFrame(s)
        shown = buttons(view.panel(frame))
        ready = [m for m in GAME.legal_moves(s) if m.why_not is None]
        assert {m.label for m in ready} <= set(shown)
        for m in ready:
            shown[m.label].on_click(None)
        throws = [GAME.chance_for(s, m.action) is not None for m in ready]
        assert frame.dispatched == [(m.action, t) for m, t in zip(ready, throws)]


def test_the_panel_builds_through_a_world_phase_and_the_end():
    s = table("media_liaison")
    s, _ = rules.apply(s, Roll(), ScriptedDice([4, 4, 2]))
    s, _ = rules.apply(s, Stop(), ScriptedDice([]))
    panel = view.panel(FakeFrame(s))
    assert "Ada stopped and banked 2 points." in texts(panel)
    s, _ = rules.apply(s, rules.RollD12(), ScriptedDice([11]))
    assert "World 1 · +1 die for the next player" in texts(view.panel(FakeFrame(s)))
    s = s.model_copy(update={"world": 3})
    s, _ = rules.apply(s, rules.RollD12(), ScriptedDice([4]))
    assert s.phase == "over" and "The world wins" in texts(view.panel(FakeFrame(s)))


def test_buttons_wait_while_the_table_enters_dice():
    s, _ = rules.apply(table("rationalist"), Roll(), ScriptedDice([1, 1, 4]))
    shown = buttons(view.panel(FakeFrame(s, waiting=True)))
    assert shown["Take the bust (lose 0)"].disabled and shown["Ada (Rationalist): reroll all 3 dice"].disabled


def test_the_roster_says_why_a_power_cant_act_now():
    s = table("rationalist", "mathematician")
    s, _ = rules.apply(s, Roll(), ScriptedDice([4, 4, 2]))
    words = texts(view.panel(FakeFrame(s)))
    assert "Not now: The Mathematician acts before a turn's first throw." in words


def test_setup_takes_the_pool_range_from_the_settings():
    form = view.SetupForm(SimpleNamespace(guard=lambda fn: fn))
    assert form.max_pool.label == "Most dice in one throw (the box has 12d6): 3–12" and form.max_pool.value == "12"
    form.rows[0][0].value = "Ada"
    form.max_pool.value = "7"
    assert form.collect()["max_pool"] == 7
