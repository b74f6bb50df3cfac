"""The Save the Singularity panel builds in every step of a turn (no browser), its buttons carry the
words of the game's legal moves, and they are disabled while the table is entering dice."""

from __future__ import annotations

from types import SimpleNamespace

import flet as ft

from companion.dice import ScriptedDice
from companion.games.save_the_singularity import rules, view
from companion.games.save_the_singularity.rules import GAME, Player, PressOn, Roll, Settings, Stop


class FakeFrame:
    """The frame a panel is built in; `logged` holds the events of each action in effect, oldest
    first, which the store's history gives newest first."""

    def __init__(self, state: rules.State, *, waiting: bool = False, logged: list | None = None):
        self.campaign_id = 1
        self.dispatched: list = []
        rows = [SimpleNamespace(events=[e.model_dump(mode="json") for e in events]) for events in logged or []]
        self.loaded = SimpleNamespace(game_state=state, cursor=len(rows) or 3,
                                      state=SimpleNamespace(pending=object() if waiting else None))
        self.app = SimpleNamespace(guard=lambda fn: fn, sizes=lambda x: x, go=lambda route: None,
                                   store=SimpleNamespace(history=lambda cid, limit=200: rows[::-1][:limit]))

    def dispatch(self, action, *, pulse: bool = False) -> None:
        self.dispatched.append((action, pulse))

    def history(self, limit: int = 100) -> list:
        return self.app.store.history(self.campaign_id, limit=limit)


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
    logged: list = []

    def play(action, *faces):
        nonlocal s
        s, events = rules.apply(s, action, ScriptedDice(list(faces)))
        logged.append(events)

    play(Roll(), 4, 4, 2)
    play(Stop())
    panel = view.panel(FakeFrame(s))
    assert "Ada stopped and banked 2 points." in texts(panel)
    play(rules.RollD12(), 11)
    assert "World 1 · +1 die for the next player" in texts(view.panel(FakeFrame(s)))
    play(rules.RollD12(), 1)  # Stop: turn 2
    play(Roll(), 1, 1, 4, 4)  # 3 + the 1 owed; a bust (no reroll power at the table)
    play(rules.RollD12(), 4)
    play(rules.RollD12(), 5)
    play(rules.RollD12(), 4)  # the world's fourth Bad
    assert s.phase == "over" and "The world wins" in texts(view.panel(FakeFrame(s, logged=logged)))
    # The end chart's points are read from the logged events (the state keeps no history).
    assert view.logged_scores(FakeFrame(s, logged=logged)) == [
        rules.ScorePoint(turn=0, team=0, world=0), rules.ScorePoint(turn=1, team=2, world=1),
        rules.ScorePoint(turn=2, team=2, world=4)]
    labels = [c.label for c in controls(view.panel(FakeFrame(s, logged=logged))) if isinstance(c, ft.Semantics)]
    assert "Chart of team and world scores over 2 turns, as a share of each target" in labels


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
