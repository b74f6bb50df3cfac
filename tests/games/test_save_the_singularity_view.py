"""The Save the Singularity panel builds in every step of a turn (no browser), its buttons carry the
words of the game's legal moves, and they are disabled while the table is entering dice."""

from __future__ import annotations

from types import SimpleNamespace

import flet as ft

from companion.dice import ScriptedDice
from companion.games.save_the_singularity import rules, view
from companion.games.save_the_singularity.rules import GAME, Player, PressOn, Roll, Settings, Stop
from tests.views import BUTTONS, all_controls, guard, words


class FakeFrame:
    """The frame a panel is built in; `logged` holds the events of each action in effect, oldest
    first, which the store's history gives newest first."""

    def __init__(self, state: rules.State, *, waiting: bool = False, logged: list | None = None):
        self.campaign_id = 1
        self.dispatched: list = []
        rows = [SimpleNamespace(events=[e.model_dump(mode="json") for e in events]) for events in logged or []]
        self.loaded = SimpleNamespace(game_state=state, cursor=len(rows) or 3,
                                      state=SimpleNamespace(pending=object() if waiting else None))
        self.app = SimpleNamespace(guard=guard, sizes=lambda x: x, go=lambda route: None,
                                   store=SimpleNamespace(history=lambda cid, limit=200: rows[::-1][:limit]))

    def dispatch(self, action, *, pulse: bool = False) -> None:
        self.dispatched.append((action, pulse))

    def kept(self, key, inputs, build):
        return build()  # every section drawn afresh

    def history(self, limit: int = 100) -> list:
        return self.app.store.history(self.campaign_id, limit=limit)


def buttons(panel) -> dict[str, ft.Control]:
    """Buttons by their words."""
    return {words(c): c for c in all_controls(panel) if isinstance(c, BUTTONS)}


def texts(panel) -> str:
    return "\n".join(c.value for c in all_controls(panel) if isinstance(c, ft.Text) and isinstance(c.value, str))


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
    assert s.phase == "over"
    # The frame's end card says how it ended (companion.ui.story); the panel says it no second time.
    over = texts(view.panel(FakeFrame(s, logged=logged)))
    assert "Final scores" in over and "The last world phase" in over
    for said in ("The world wins", "The world won", "Game over", "Lost"):
        assert said not in over
    # The end chart's points are read from the logged events (the state keeps no history).
    assert view.logged_scores(FakeFrame(s, logged=logged)) == [
        rules.ScorePoint(turn=0, team=0, world=0), rules.ScorePoint(turn=1, team=2, world=1),
        rules.ScorePoint(turn=2, team=2, world=4)]
    labels = [c.label for c in all_controls(view.panel(FakeFrame(s, logged=logged))) if isinstance(c, ft.Semantics)]
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
    assert form.max_pool_about.value == "Most dice in one throw (the box has 12d6): 3–12" and form.max_pool.value == "12"
    assert form.max_pool.label == "Most dice in one throw"  # short: a field's floating label has one line
    form.rows[0][0].value = "Ada"
    form.max_pool.value = "7"
    assert form.collect()["max_pool"] == 7


def _quiet(form: view.SetupForm) -> view.SetupForm:
    """A setup form off the page: its redraws change the controls without sending them."""
    form.list.update = form.targets.update = lambda: None
    return form


def _offered(dropdown: ft.Dropdown) -> list[str]:
    return [o.key for o in dropdown.options]


def test_setup_offers_each_player_only_the_roles_still_free():
    form = _quiet(view.SetupForm(SimpleNamespace(guard=lambda fn: fn)))
    assert _offered(form.rows[0][1]) == list(rules.ROLES)  # alone: any role
    form._add(None)
    first, second = form.rows[0][1], form.rows[1][1]
    assert (first.value, second.value) == ("rationalist", "mathematician")
    assert "rationalist" not in _offered(second) and "mathematician" not in _offered(first)
    # Player 2 picks the Programmer: it leaves player 1's list, and the Mathematician comes back to it.
    second.value = "programmer"
    second.on_select(None)
    assert "programmer" not in _offered(first) and "mathematician" in _offered(first)
    assert form.rows[1][2].value == rules.ROLE_POWERS["programmer"]
    # A removed player's role is free again for the others.
    form._remove(1)
    assert _offered(form.rows[0][1]) == list(rules.ROLES)
    # Six players take the six roles; a seventh may repeat any of them.
    for _ in range(5):
        form._add(None)
    assert sorted(d.value for _, d, _ in form.rows) == sorted(rules.ROLES)
    assert all(len(_offered(d)) == 1 for _, d, _ in form.rows)  # each keeps its own, the others are taken
    form._add(None)
    assert _offered(form.rows[6][1]) == list(rules.ROLES)
    for row in form.rows:
        row[0].value = f"P{form.rows.index(row)}"
    rules.Settings.model_validate(form.collect())  # what the form offered, the settings accept


def test_the_venture_capitalists_two_throws_are_shown_apart():
    s = table("venture_capitalist", "rationalist")
    s, _ = rules.apply(s, rules.VentureCapitalist(by=0), ScriptedDice([1, 2, 4, 1, 3, 5]))
    panel = view.panel(FakeFrame(s))
    ids = {c.identifier: c for c in all_controls(panel) if isinstance(c, ft.Semantics) and c.identifier}
    first, second = texts(ids["sts-throw-1"]), texts(ids["sts-throw-2"])
    assert first.split("\n") == ["Throw 1 · 3 dice, Bugs ignored", "0 Bugs, 1 Idea, 1 Progress (1 Bug ignored)",
                                  "Ignored", "Idea", "Progress"]
    assert second.split("\n") == ["Throw 2 · 3 dice, Bugs count", "1 Bug, 1 Idea, 1 Progress", "Bug", "Idea", "Progress"]
    # After stopping, the world phase shows the last throw apart too.
    s, _ = rules.apply(s, Stop(), ScriptedDice([]))
    panel = view.panel(FakeFrame(s))
    ids = {c.identifier for c in all_controls(panel) if isinstance(c, ft.Semantics)}
    assert {"sts-throw-1", "sts-throw-2"} <= ids
    # An ordinary throw is one row under one caption.
    s, _ = rules.apply(table("rationalist"), Roll(), ScriptedDice([4, 4, 2]))
    words = texts(view.panel(FakeFrame(s)))
    assert "This throw (3 dice)\n0 Bugs, 1 Idea, 2 Progress" in words and "Throw 1" not in words


def test_a_d12_without_stop_says_roll_again_on_its_row():
    s, _ = rules.apply(table("rationalist"), Roll(), ScriptedDice([4, 4, 2]))
    s, _ = rules.apply(s, Stop(), ScriptedDice([]))
    s, _ = rules.apply(s, rules.RollD12(), ScriptedDice([8]))
    panel = view.panel(FakeFrame(s))
    marks = [c for c in all_controls(panel) if isinstance(c, ft.Semantics) and c.identifier == "sts-no-stop"]
    assert [m.content.value for m in marks] == ["no Stop — roll again"]
    s, _ = rules.apply(s, rules.RollD12(), ScriptedDice([2]))  # a Stop: the next turn shows the last world phase
    marks = [c for c in all_controls(view.panel(FakeFrame(s))) if isinstance(c, ft.Semantics) and c.identifier == "sts-no-stop"]
    assert len(marks) == 1  # the 8 still says it, the 2 (a Stop) doesn't


def test_press_on_and_stop_keep_their_places_above_the_dice():
    """Press on above Stop and bank whatever the hint says (it only fills the one it favours), both
    above the throw's dice, whose rows vary from one throw to the next: the buttons stay put."""
    s, _ = rules.apply(table("rationalist"), Roll(), ScriptedDice([4, 4, 2]))
    for state, favoured in ((s, "press_on"), (s.model_copy(update={"team": 24}), "stop")):
        assert view.odds_mod.odds(state).hint == favoured
        order = [c for c in all_controls(view.panel(FakeFrame(state)))
                 if (isinstance(c, BUTTONS) and c.key in ("move-press_on", "move-stop"))
                 or (isinstance(c, ft.Semantics) and c.identifier == "sts-dice")]
        assert [getattr(c, "key", None) or c.identifier for c in order] == ["move-press_on", "move-stop", "sts-dice"]
        press, stop = order[0], order[1]
        assert isinstance(press, ft.FilledButton) == (favoured == "press_on")
        assert isinstance(stop, ft.FilledButton) == (favoured == "stop")


def test_the_end_chart_fits_the_phone_it_is_drawn_on():
    """The final scores chart takes the card's width on this screen (a fixed 340 px ran off a 360 px
    phone), its axis labels grow with the phone's text size."""
    s = table("rationalist").model_copy(update={"phase": "over", "world": 4, "turn": 2})
    for width, scale, canvas_width in ((360, 1.0, 304), (1280, 1.0, 600), (360, 1.7, 304)):
        frame = FakeFrame(s)
        frame.app.page = SimpleNamespace(width=width)
        frame.app.sizes = lambda x, scale=scale: round(x * scale)
        [canvas] = [c for c in all_controls(view.panel(frame)) if isinstance(c, view.cv.Canvas)]
        assert canvas.width == canvas_width
        assert {t.style.size for t in canvas.shapes if isinstance(t, view.cv.Text)} == {round(11 * scale)}
