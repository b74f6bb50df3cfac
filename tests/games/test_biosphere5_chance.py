"""The Machine's rescue check as a declared chance node: `GAME.chance_for` says which roll an action
needs (as many hand dice as the hand card level, on the round's first catastrophe only), the hand die
shows named faces built from the setting, and the odds are exact."""

from __future__ import annotations

from fractions import Fraction

import pytest
from test_biosphere5_machine import BIO, solo

from companion.dice import PhysicalDice, ScriptedDice
from companion.games.base import NeedDice
from companion.games.biosphere5.rules import (
    GAME,
    Due,
    EndTurn,
    HumanCatastrophe,
    HumanDiscard,
    apply,
    hand_die,
    rescue_outcomes,
)


def test_first_catastrophe_rolls_as_many_hand_dice_as_the_level_then_none():
    state = solo(level=2, machine={"housing": "yellow"}, human={"housing": "green"}, hand=5, stored=BIO,
                 phase="human")
    hurricane = HumanCatastrophe(category="housing", name="Hurricane")
    chance = GAME.chance_for(state, hurricane)
    assert chance.count == 2 and chance.die.sides == 6 and chance.who == "The Machine"
    assert chance.text == ("2 hand dice for the Machine's rescue check against Hurricane: any black hand saves "
                           "the Machine; no black hand: it pays the 2 cards due")
    dice = ScriptedDice([4, 1])
    after, _ = apply(state, hurricane, dice)
    assert dice.chances == [chance]  # the roll apply made is the one declared
    assert GAME.chance_for(after, hurricane) is None  # second catastrophe this round: no rescue check


def test_no_dice_when_protected_at_level_zero_or_refused():
    perfect = solo(level=3, machine={"housing": "green"}, human={"housing": "green"}, hand=5, phase="human")
    assert GAME.chance_for(perfect, HumanCatastrophe(category="housing")) is None
    zero = solo(level=0, human={"housing": "green"}, hand=5, phase="human")
    assert GAME.chance_for(zero, HumanCatastrophe(category="housing")) is None
    refused = solo(level=3, hand=5, phase="human")  # no housing protection, no rescue card: refused
    assert GAME.chance_for(refused, HumanCatastrophe(category="housing")) is None
    assert GAME.why_not(refused, HumanCatastrophe(category="housing")).startswith("You can't play a housing")
    assert GAME.chance_for(refused, EndTurn()) is None


def test_the_machines_own_catastrophe_after_your_discard_rolls():
    state = solo(level=4, machine={"water": "green"}, hand=6, phase="discard")
    state.solo.due = Due(cards=4, why="Drought", rescue="water", then_machine="water", then_machine_name="Drought")
    assert GAME.chance_for(state, HumanDiscard()) is None  # the Machine's perfect water protects it
    state.solo.machine.achievements = {}
    chance = GAME.chance_for(state, HumanDiscard())
    assert chance.count == 4 and "against Drought" in chance.why
    assert GAME.why_not(state, HumanDiscard()) is None  # a roll ahead is no refusal


def test_a_physical_table_is_stopped_at_the_rescue_check_and_never_given_a_die():
    state = solo(level=3, machine={"housing": "yellow"}, human={"housing": "green"}, hand=5, phase="human")
    with pytest.raises(NeedDice) as need:
        apply(state, HumanCatastrophe(category="housing"), PhysicalDice())
    assert need.value.chance.count == 3
    after, events = apply(state, HumanCatastrophe(category="housing"), PhysicalDice([2, 2, 2]))
    assert next(e for e in events if e.kind == "rescue_check").data["shown"] == ["blank"] * 3


@pytest.mark.parametrize("black", range(7))
def test_the_hand_die_has_named_faces_from_the_setting(black):
    die = hand_die(black, 2)
    assert die.sides == 6 and die.label == "hand dice" and hand_die(black, 1).label == "hand die"
    assert die.faces.count("black hand") == black and die.faces.count("blank") == 6 - black
    assert [die.face_name(v) for v in range(1, black + 1)] == ["black hand"] * black  # 1..black: a black hand
    names = [label for label, _ in die.choices()]
    assert names == [n for n in ("black hand", "blank") if n in die.faces]  # one button per face name


@pytest.mark.parametrize("black, count", [(1, 1), (1, 2), (1, 8), (2, 3), (0, 4), (6, 1)])
def test_rescue_odds_are_exact(black, count):
    saved, paid = rescue_outcomes(black, count, due=4)
    exact = 1 - Fraction(6 - black, 6) ** count
    assert saved.label == "any black hand saves the Machine" and saved.probability == float(exact)
    assert paid.label == "no black hand: it pays the 4 cards due" and paid.probability == float(1 - exact)
    state = solo(level=count, machine={"housing": "yellow"}, human={"housing": "green"}, phase="human",
                 hand_die_black_faces=black)
    chance = GAME.chance_for(state, HumanCatastrophe(category="housing"))
    assert chance.outcomes[0].probability == float(exact) and chance.die == hand_die(black, count)
