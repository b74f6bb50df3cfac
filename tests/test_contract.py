"""The game contract's chance nodes, physical dice and typed events, on the tiny counter game."""

import pytest

from companion.dice import PhysicalDice, ScriptedDice
from companion.games import get_game
from companion.games.base import Chance, DieSpec, Event, InputError, NeedDice, RuleError, d, field_specs, percent, \
    threshold_outcomes
from companion.games.counter import rules as counter
from companion.log import replay
from companion.table import GiveDice, SetPhysicalDice, TableNote, TrayRoll
from tests.contract import physical_playout, pick_ready, store_playout
from tests.helpers import memory_store

GAME = get_game("counter")


def test_a_physical_table_is_asked_for_the_die_and_the_action_goes_on_when_it_is_given():
    store = memory_store()
    cid = store.create("counter", "c", {"start": 5})
    store.apply(cid, SetPhysicalDice(on=True), expected_cursor=0)
    applied = store.apply(cid, counter.Roll(), expected_cursor=1)
    assert applied.dice == []  # nothing rolled by the app
    loaded = store.load(cid)
    assert loaded.state.pending is not None
    assert loaded.state.pending.chance.count == 1 and loaded.state.pending.chance.die.sides == 6
    assert loaded.game_state.value == 5  # the action hasn't happened yet
    assert applied.events[0].kind == "waiting"
    assert loaded.undo_label == "roll a d6 (waiting for dice)"
    # Anything else waits too (a note may still be written).
    with pytest.raises(RuleError, match="waiting for 1 d6"):
        store.apply(cid, counter.Add(amount=1), expected_cursor=2)
    store.apply(cid, TableNote(text="hold on"), expected_cursor=2)
    done = store.apply(cid, GiveDice(faces=[4]), expected_cursor=3)
    assert [(x.value, x.physical) for x in done.dice] == [(4, True)]
    loaded = store.load(cid)
    assert loaded.state.pending is None and loaded.game_state.value == 9
    assert loaded.undo_label == "dice for roll a d6: 4"
    # Undo asks for the die again; redo brings back the same die.
    store.undo(cid, expected_cursor=4)
    assert store.load(cid).state.pending is not None
    store.redo(cid, expected_cursor=3)
    assert store.load(cid).game_state.value == 9
    rows = store.log_rows(cid)
    assert all(x[2] == 1 for r in rows for x in r.dice)
    assert replay(GAME, store.get(cid).settings, [r.model_dump() for r in rows]).ok


def test_given_dice_are_checked_against_the_chance():
    store = memory_store()
    cid = store.create("counter", "c", {})
    store.apply(cid, SetPhysicalDice(on=True), expected_cursor=0)
    store.apply(cid, counter.Roll(), expected_cursor=1)
    with pytest.raises(InputError, match="shows 1 to 6"):
        store.apply(cid, GiveDice(faces=[7]), expected_cursor=2)
    with pytest.raises(InputError, match="enter 1 d6"):
        store.apply(cid, GiveDice(faces=[1, 2]), expected_cursor=2)
    with pytest.raises(RuleError, match="waiting"):
        store.apply(cid, SetPhysicalDice(on=False), expected_cursor=2)
    assert store.load(cid).cursor == 2


def test_physical_mode_is_kept_in_the_log_and_refuses_a_second_switch():
    store = memory_store()
    cid = store.create("counter", "c", {})
    with pytest.raises(RuleError, match="already"):
        store.apply(cid, SetPhysicalDice(on=False), expected_cursor=0)
    store.apply(cid, SetPhysicalDice(on=True), expected_cursor=0)
    assert store.load(cid).state.physical_dice
    assert store.history(cid)[0].label == "physical dice on"
    store.apply(cid, SetPhysicalDice(on=False), expected_cursor=1)
    applied = store.apply(cid, counter.Roll(), expected_cursor=2)
    assert len(applied.dice) == 1 and not applied.dice[0].physical  # the app's dice again


def test_the_tray_asks_for_named_faces_at_a_physical_table():
    store = memory_store()
    cid = store.create("counter", "c", {})
    store.apply(cid, SetPhysicalDice(on=True), expected_cursor=0)
    store.apply(cid, TrayRoll(count=2, sides=6, faces=["black hand"] + ["blank"] * 5, name="hand die"),
                expected_cursor=1)
    chance = store.load(cid).state.pending.chance
    assert chance.die.choices() == [("black hand", 1), ("blank", 2)]
    store.apply(cid, GiveDice(faces=[1, 2]), expected_cursor=2)
    assert store.load(cid).state.tray[0].shown == ["black hand", "blank"]


def test_entered_dice_given_up_front_are_used_and_never_mixed_with_the_apps():
    dice = PhysicalDice([3])
    assert dice.throw(Chance(count=1, die=d(6), why="x")) == [3]
    with pytest.raises(NeedDice) as need:
        dice.throw(Chance(count=2, die=d(6), why="the next throw"))
    assert need.value.chance.count == 2


def test_game_answers_what_dice_an_action_needs_and_why_not():
    state = counter.new_state(counter.Settings(start=99, cap=100))
    chance = GAME.chance_for(state, counter.Roll())
    assert chance is not None and chance.die.sides == 6
    assert GAME.chance_for(state, counter.Add(amount=1)) is None
    assert GAME.why_not(state, counter.Add(amount=5)) .startswith("The counter must stay between 0 and 100")
    assert GAME.why_not(state, counter.Add(amount=1)) is None


def test_events_are_typed_and_old_sentences_are_read_as_text():
    assert Event.coerce("Rolled 4.") == Event(kind="text", text="Rolled 4.")
    assert Event.coerce({"kind": "move", "text": "A → B", "data": {"to": "B"}}).data == {"to": "B"}


def test_chance_descriptions_and_odds():
    outcomes = threshold_outcomes(3)
    assert outcomes[0].label == "3 or more passes" and outcomes[0].probability == pytest.approx(4 / 6)
    c = Chance(count=1, die=d(6), why="Wolfmother's singularity check", outcomes=outcomes)
    assert c.text == "1 d6 for Wolfmother's singularity check: 3 or more passes; fails"
    assert threshold_outcomes(7)[0].probability == 0 and threshold_outcomes(1)[0].probability == 1
    assert threshold_outcomes(5, bonus=1)[0].label == "4 or more passes"
    die = DieSpec(sides=6, faces=("Bug", "Idea", "Idea", "Progress", "Progress", "Progress"))
    assert die.choices() == [("Bug", 1), ("Idea", 2), ("Progress", 4)]
    assert die.probability("Idea") == pytest.approx(1 / 3)
    assert [percent(p) for p in (0, 0.001, 0.42, 0.999, 1)] == ["0%", "<1%", "42%", ">99%", "100%"]


def test_field_specs_read_ranges_from_the_action_model():
    specs = field_specs(counter.Add, amount=(-5, 5))
    assert [(f.name, f.low, f.high) for f in specs] == [("amount", -5, 5)]
    assert specs[0].hint == "-5–5"


def test_scripted_dice_record_the_declared_chances():
    dice = ScriptedDice([2])
    counter.apply(counter.new_state(counter.Settings()), counter.Roll(), dice)
    assert dice.chances[0].die.sides == 6


def _counter_chooser(state, moves, rng):
    return rng.choice([counter.Roll(), counter.Add(amount=rng.randint(-3, 3))])


def test_random_physical_playouts_of_the_counter_game():
    for seed in range(20):
        out = physical_playout(GAME, {"start": 0, "cap": 60}, seed=seed, choose=_counter_chooser, steps=40)
        assert out.pauses > 0


def test_store_playout_with_undo_and_redo_keeps_entered_dice():
    store_playout(memory_store(), GAME, {"cap": 60}, seed=3, choose=_counter_chooser, steps=30)
