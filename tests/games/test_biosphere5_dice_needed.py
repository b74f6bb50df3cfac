"""`dice_needed`: how many hand dice an action rolls, so the app asks for exactly that many faces."""

from __future__ import annotations

from test_biosphere5_machine import BIO, solo

from companion.dice import ScriptedDice
from companion.games.biosphere5.rules import EndTurn, HumanCatastrophe, HumanDiscard, apply, dice_needed


def test_first_catastrophe_rolls_as_many_dice_as_the_level_then_none():
    state = solo(level=2, machine={"housing": "yellow"}, human={"housing": "green"}, hand=5, stored=BIO,
                 phase="human")
    hurricane = HumanCatastrophe(category="housing", name="Hurricane")
    assert dice_needed(state, hurricane) == 2
    after, _ = apply(state, hurricane, ScriptedDice([4, 1]))
    assert dice_needed(after, hurricane) == 0  # second catastrophe this round: no rescue check


def test_no_dice_when_protected_at_level_zero_or_refused():
    perfect = solo(level=3, machine={"housing": "green"}, human={"housing": "green"}, hand=5, phase="human")
    assert dice_needed(perfect, HumanCatastrophe(category="housing")) == 0
    zero = solo(level=0, human={"housing": "green"}, hand=5, phase="human")
    assert dice_needed(zero, HumanCatastrophe(category="housing")) == 0
    refused = solo(level=3, hand=5, phase="human")  # no housing protection, no rescue card: refused
    assert dice_needed(refused, HumanCatastrophe(category="housing")) == 0
    assert dice_needed(refused, EndTurn()) == 0


def test_the_machines_own_catastrophe_after_your_discard_rolls():
    state = solo(level=4, machine={"water": "green"}, hand=6, phase="discard")
    from companion.games.biosphere5.rules import Due

    state.solo.due = Due(cards=4, why="Drought", rescue="water", then_machine="water", then_machine_name="Drought")
    assert dice_needed(state, HumanDiscard()) == 0  # the Machine's perfect water protects it
    state.solo.machine.achievements = {}
    assert dice_needed(state, HumanDiscard()) == 4
