"""Biosphere 5, Man against Machine: the tactics, catastrophes against the Machine, the human's moves.

RULES.md §4 is the spec; the book's examples #3 and #4 are played verbatim on the test deck.
"""

from __future__ import annotations

import json

import pytest
from test_biosphere5_cards import DECK

from companion.dice import ScriptedDice
from pydantic import ValidationError

from companion.games.base import Event, InputError, RuleError
from companion.games.biosphere5.cards import Card, Lower
from companion.games.biosphere5.rules import (
    GAME,
    EndTurn,
    HumanAchievement,
    HumanAttack,
    HumanBiosphere,
    HumanCatastrophe,
    HumanDiscard,
    HumanEspionage,
    HumanSabotage,
    MachineReveal,
    MachineRevealMore,
    SetHand,
    Settings,
    State,
    apply,
    describe,
    headline,
    machine_decide,
    new_state,
    outcome,
    reveal_action,
    reveal_count,
    reveal_more_action,
)

NO_DICE = ScriptedDice([])


def text(events) -> str:
    return " ".join(str(e.text) for e in events)


def kinds(events) -> list[str]:
    return [e.kind for e in events]


def ready_kinds(state) -> list[str]:
    """The kinds of the moves that may be made now (ready, or a template to fill)."""
    return sorted({m.kind for m in GAME.legal_moves(state) if m.why_not is None})
BIO = "biosphere-5-attack"


def solo(level=2, machine=None, human=None, hand=3, stored=None, phase="machine", **settings) -> State:
    state = new_state(Settings(**settings))
    s = state.solo
    s.machine.level = level
    s.machine.achievements = dict(machine or {})
    s.machine.stored = stored
    s.human.achievements = dict(human or {})
    s.human.hand = hand
    s.phase = phase
    return state


def cards(*ids: str) -> list[Card]:
    return [DECK[i] for i in ids]


def reveal(state: State, *ids: str, dice=NO_DICE):
    return apply(state, reveal_action(DECK, ids), dice)


def refused(state: State, action, error=RuleError, match=None, dice=NO_DICE):
    before = state.model_copy(deep=True)
    with pytest.raises(error, match=match):
        apply(state, action, dice)
    assert state == before  # nothing changed


# --- the book's worked examples -------------------------------------------------------------------


def test_example_3_machine_plays_new_hope_then_inpoverishment():
    """RULES.md §4 **Example** (book #3): level 8 → 5 cards revealed; two need level III (not
    reached), no achievement playable, New Hope playable → no level gain (at max), 3 more revealed,
    none playable; Drought or Inpoverishment → Inpoverishment (higher value)."""
    state = solo(level=8, machine={"water": "green", "housing": "yellow", "production": "yellow"},
                 human={"housing": "green"}, hand=3)
    assert reveal_count(state) == 5
    five = ("greenhouse", "garden", "deep-well", "shack", "catching-basin")
    decision = machine_decide(state, cards(*five))
    assert (decision.rule, decision.play, decision.card_id) == (6, "new_hope", "deep-well")
    not_fired = " ".join(map(str, decision.not_fired))
    assert "Greenhouse, Garden: level III needs" in not_fired  # two need level III
    assert "Deep Well, Catching Basin: water is held already" in not_fired
    assert "Shack: housing is held already" in not_fired

    after, events = reveal(state, *five)
    assert after.solo.machine.level == 8  # no gain: at the maximum already
    assert "stays 8 (max 8)" in text(events)
    assert kinds(events)[:3] == ["machine_reveal", "machine_decision", "machine_why"]
    assert events[0].data["cards"] == list(five) and events[1].data["play"] == "new_hope"
    assert after.solo.phase == "new_hope" and reveal_count(after) == 3

    more = reveal_more_action(after, DECK, ["assembly", "elders", "herbs"])
    follow = machine_decide(after, [*more.earlier, *more.cards])
    assert (follow.play, follow.card_id, follow.category) == ("catastrophe", "catching-basin", "production")
    assert "Inpoverishment" in follow.instruction
    assert "Shack (makeshift · housing)" in follow.why  # Drought's card ranks lower
    for unplayable in ("Assembly", "Blight (Elders)", "Hurricane (Herbs)"):
        assert unplayable in follow.not_fired[0]

    # Inpoverishment hits the human first (no production protection: 4 cards), then the Machine.
    done, events = apply(after, more, NO_DICE)
    assert done.solo.phase == "discard" and done.solo.due.cards == 4
    assert str(done.solo.due.why).startswith("Inpoverishment hits you first")
    # 3 hand cards, 1 short: the human gives up an achievement; then the Machine rolls 8 hand dice.
    final, events = apply(done, HumanDiscard(give_up=["housing"]), ScriptedDice([2, 3, 4, 5, 6, 2, 3, 4]))
    assert final.solo.human.hand == 0 and final.solo.human.achievements == {}
    assert final.solo.machine.level == 6  # makeshift production: 2 due, no black hand
    assert final.solo.phase == "human" and final.result is None
    check = next(e for e in events if e.kind == "rescue_check")
    assert check.data["faces"] == [2, 3, 4, 5, 6, 2, 3, 4] and check.data["saved"] is False
    assert check.data["shown"] == ["blank"] * 8


def test_example_4_human_plays_hurricane_twice():
    """RULES.md §4 **Example** (book #4): level 2, makeshift Shack, Hurricane → rescue roll succeeds
    → level 1; a second Hurricane the same round → no roll, 2 due, level 1 → 0 and Shack destroyed;
    level 0 → the stored Biosphere/Attack card is discarded."""
    state = solo(level=2, machine={"housing": "yellow"}, human={"housing": "green"}, hand=5, stored=BIO,
                 phase="human")
    first, events = apply(state, HumanCatastrophe(category="housing", name="Hurricane"), ScriptedDice([4, 1]))
    assert first.solo.machine.level == 1
    assert first.solo.machine.achievements == {"housing": "yellow"} and first.solo.machine.stored == BIO
    check = next(e for e in events if e.kind == "rescue_check")
    assert check.data["shown"] == ["blank", "black hand"] and check.data["saved"]
    assert (check.data["level_from"], check.data["level_to"]) == (2, 1)
    assert "only 1 level" in check.text

    second, events = apply(first, HumanCatastrophe(category="housing", name="Hurricane"), NO_DICE)  # no roll
    m = second.solo.machine
    assert m.level == 0 and m.achievements == {} and m.stored is None
    said = text(events)
    assert "No rescue check" in said and "makeshift housing (yellow cube)" in said
    assert "discard the stored Biosphere 5/Attack card" in said
    assert kinds(events) == ["human_catastrophe", "machine_hit", "rescue_check", "machine_pays", "stored_discarded",
                             "achievement_lost", "human_protected"]
    assert events[2].data == {"rolled": False, "reason": "not the first catastrophe this round"}
    assert events[5].data == {"side": "machine", "lost": {"housing": "yellow"}}
    assert second.result is None  # the Machine covered it exactly
    assert second.solo.human.hand == 3  # two Hurricanes played; perfect housing protects the human


# --- reveal counts, level cap and floor ------------------------------------------------------------


@pytest.mark.parametrize("level, count", [(0, 0), (1, 1), (2, 2), (3, 2), (4, 3), (5, 3), (6, 4), (7, 4), (8, 5)])
def test_reveal_count_by_level(level, count):
    assert reveal_count(solo(level=level)) == count


def test_reveal_table_is_a_setting():
    assert reveal_count(solo(level=3, reveal_table=[0, 1, 1, 3, 3, 4, 4, 5, 5])) == 3


def test_level_zero_reveals_nothing_and_gains_two():
    after, events = reveal(solo(level=0))
    assert after.solo.machine.level == 2 and after.solo.decision.rule == 8


@pytest.mark.parametrize("level, new", [(6, 8), (7, 8), (8, 8)])
def test_level_cap_8(level, new):
    state = solo(level=level, machine={"water": "green", "housing": "green"})
    ids = ["water-canister", "rain-barrel", "tent", "guards", "powerful-friends"][: reveal_count(state)]
    # rescue cards whose catastrophes the human is perfectly protected against: nothing fits
    state.solo.human.achievements = {"water": "green", "housing": "green", "security": "green",
                                     "production": "green"}
    after, _ = reveal(state, *ids)
    assert after.solo.decision.rule == 8 and after.solo.machine.level == new


def test_level_floor_0_and_stored_card_discarded():
    state = solo(level=2, stored=BIO, human={"security": "green", "production": "green"}, phase="human")
    after, events = apply(state, HumanSabotage(), NO_DICE)
    assert after.solo.machine.level == 0 and after.solo.machine.stored is None
    assert "never below 0" in text(events)
    assert events[0].kind == "human_sabotage" and events[0].data == {"level_from": 2, "level_to": 0}


# --- the tactics, rule by rule --------------------------------------------------------------------


def test_rule_1_stored_card_biosphere_wins_before_revealing():
    state = solo(level=5, machine={"nature": "green", "community": "yellow"}, stored=BIO)
    assert reveal_count(state) == 0
    after, events = reveal(state)
    assert after.solo.decision.rule == 1 and after.solo.decision.play == "biosphere"
    assert outcome(after) == "Lost" and GAME.legal_moves(after) == []
    assert events[-1].kind == "game_over" and events[-1].data["result"] == "Lost"


def test_rule_1_stored_attack_destroys_highest_value_human_achievement():
    state = solo(level=3, machine={"water": "yellow"}, human={"housing": "green", "water": "yellow"}, stored=BIO)
    assert reveal_count(state) == 0
    after, _ = reveal(state)
    d = after.solo.decision
    assert (d.rule, d.play, d.category) == (1, "attack", "housing")  # green housing > yellow water
    assert after.solo.human.achievements == {"water": "yellow"} and after.solo.machine.stored is None
    assert after.solo.phase == "human"


def test_rule_1_stored_card_not_playable_then_the_turn_goes_on():
    state = solo(level=2, stored=BIO)
    assert reveal_count(state) == 2
    d = machine_decide(state, cards("shack", "tent"))
    assert d.rule == 5 and d.card_id == "shack"
    assert "stored Biosphere 5/Attack card can't be played" in d.not_fired[0]


def test_rule_2_biosphere_revealed_wins():
    state = solo(level=5, machine={"nature": "green", "community": "green"})
    d = machine_decide(state, cards(BIO, "shack", "tent"))
    assert (d.rule, d.play) == (2, "biosphere")


def test_rule_2_needs_level_5_then_rule_3_attack():
    state = solo(level=4, machine={"nature": "green", "community": "green"},
                 human={"water": "green", "housing": "green", "security": "yellow"})
    d = machine_decide(state, cards(BIO, "shack", "tent"))
    assert (d.rule, d.play, d.category) == (3, "attack", "water")  # green water > green housing
    assert "hand card level 5" in d.not_fired[-1]


def test_rule_3_blocked_by_rule_2():
    state = solo(level=6, machine={"nature": "green", "community": "green"},
                 human={"water": "green", "housing": "green", "security": "yellow"})
    assert machine_decide(state, cards(BIO, "shack", "tent", "ruins")).play == "biosphere"


def test_rule_4_store_blocks_a_playable_achievement():
    state = solo(level=3)
    d = machine_decide(state, cards("deep-well", BIO))
    assert (d.rule, d.play, d.store_id) == (4, "store", BIO)
    assert "Attack needs you to hold more achievements" in " ".join(map(str, d.not_fired))
    after, _ = reveal(state, "deep-well", BIO)
    assert after.solo.machine.stored == BIO and after.solo.machine.level == 5
    assert after.solo.machine.achievements == {}


def test_rule_5_highest_value_playable_achievement():
    state = solo(level=4, machine={"water": "yellow"})
    d = machine_decide(state, cards("deep-well", "shack", "protection-bunker"))
    # Deep Well: water held. Protection Bunker (perfect housing) > Shack (makeshift housing).
    assert (d.rule, d.card_id, d.category, d.cube) == (5, "protection-bunker", "housing", "green")
    assert "place a green cube on housing" in d.instruction
    after, _ = reveal(state, "deep-well", "shack", "protection-bunker")
    assert after.solo.machine.achievements == {"water": "yellow", "housing": "green"}


def test_rule_5_blocked_by_level():
    d = machine_decide(solo(level=2), cards("factory", "tent"))  # perfect production: level II not reached
    assert d.rule == 8
    assert "level II needs both level I achievements" in " ".join(map(str, d.not_fired))


def test_rule_6_blocked_by_rule_5():
    state = solo(level=2, machine={"security": "green", "production": "green"})
    d = machine_decide(state, cards("shack", "barter"))  # Shack playable; Sabotage (Barter) too
    assert d.rule == 5 and d.card_id == "shack"


def test_rule_6_sabotage_before_espionage_before_new_hope():
    held = {"water": "green", "housing": "green", "security": "green", "production": "green"}
    state = solo(level=4, machine=held)
    d = machine_decide(state, cards("deep-well", "ruins", "barter"))
    assert (d.rule, d.play, d.card_id) == (6, "sabotage", "barter")
    d = machine_decide(state, cards("deep-well", "ruins", "tent"))
    assert (d.play, d.card_id) == ("espionage", "ruins")
    d = machine_decide(state, cards("deep-well", "tent", "water-canister"))
    assert d.play == "new_hope"


def test_rule_6_sabotage_needs_level_three():
    state = solo(level=4, machine={"water": "green", "housing": "green"})
    d = machine_decide(state, cards("barter", "ruins", "tent"))
    assert d.play == "espionage"
    assert "Sabotage can't be played: level III needs" in d.why


def test_machine_sabotage_and_espionage_tell_the_human_what_to_discard():
    held = {"water": "green", "housing": "green", "security": "green", "production": "green"}
    after, events = reveal(solo(level=2, machine=held, hand=5), "barter", "tent")
    assert after.solo.phase == "discard" and after.solo.due.cards == 3
    assert "shuffle your hand and discard the top three" in after.solo.due.why
    done, _ = apply(after, HumanDiscard(), NO_DICE)
    assert done.solo.human.hand == 2 and done.solo.phase == "human"

    after, _ = reveal(solo(level=2, machine=held, hand=5), "ruins", "tent")
    assert after.solo.due.cards == 1 and "highest level" in after.solo.due.why


def test_rule_7_blocked_by_rule_6():
    state = solo(level=2, machine={"water": "green", "housing": "green"})
    d = machine_decide(state, cards("deep-well", "shack"))  # New Hope beats Drought
    assert d.play == "new_hope"


def test_rule_7_catastrophe_when_machine_better_protected_highest_value():
    state = solo(level=2, machine={"water": "green", "housing": "yellow"})
    # Protection Bunker: perfect housing (Drought) — housing is held, so its upper can't be played
    d = machine_decide(state, cards("protection-bunker", "festival"))
    assert (d.rule, d.play, d.card_id, d.category) == (7, "catastrophe", "protection-bunker", "water")
    assert "beats yours (none)" in d.why and "Festival" in d.why


def test_rule_7_both_makeshift_needs_level_above_hand():
    machine = {"water": "yellow", "housing": "green"}
    state = solo(level=3, machine=machine, human={"water": "yellow"}, hand=2)
    assert machine_decide(state, cards("tent", "festival")).play == "catastrophe"
    state = solo(level=3, machine=machine, human={"water": "yellow"}, hand=3)
    d = machine_decide(state, cards("tent", "festival"))
    assert d.rule == 8 and "doesn't exceed your 3 hand cards" in " ".join(map(str, d.not_fired))


def test_rule_8_blocked_by_rule_7():
    state = solo(level=2, machine={"water": "green", "housing": "green"})
    assert machine_decide(state, cards("tent", "water-canister")).rule == 7


def test_machine_catastrophe_hits_human_first_then_machine():
    state = solo(level=4, machine={"water": "green", "housing": "yellow"}, hand=6)
    after, _ = reveal(state, "protection-bunker", "festival", "tent")
    assert after.solo.phase == "discard" and after.solo.due.cards == 4 and after.solo.due.rescue == "water"
    # the human answers with a water rescue card; the Machine is perfectly protected
    done, events = apply(after, HumanDiscard(rescue=True), NO_DICE)
    assert done.solo.human.hand == 5 and done.solo.machine.level == 4
    assert "perfect water achievement protects it" in text(events)
    assert events[-1].kind == "machine_hit" and events[-1].data["protection"] == "perfect"
    assert done.solo.catastrophes == 1


def test_new_hope_follow_up_stores_an_unplayable_biosphere_card():
    state = solo(level=3, machine={"water": "green"})
    after, _ = reveal(state, "deep-well", "tent")
    assert after.solo.machine.level == 5
    done, _ = apply(after, reveal_more_action(after, DECK, [BIO, "herbs", "rain-barrel"]), NO_DICE)
    d = done.solo.decision
    assert d.store_id == BIO and done.solo.machine.stored == BIO
    assert d.play == "catastrophe" and d.card_id == "tent"  # Drought, the only playable option


def test_new_hope_follow_up_no_second_new_hope():
    state = solo(level=3, machine={"water": "green", "housing": "green", "security": "green"},
                 human={"water": "green", "housing": "green"})
    after, _ = reveal(state, "deep-well", "ruins")  # Espionage on Ruins? level II reached → espionage
    assert after.solo.decision.play == "espionage"
    state.solo.machine.achievements = {"water": "green", "housing": "green"}
    after, _ = reveal(state, "deep-well", "water-canister")
    assert after.solo.decision.play == "new_hope"
    done, _ = apply(after, reveal_more_action(after, DECK, ["destructive-bunker", "rain-barrel", "herbs"]), NO_DICE)
    d = done.solo.decision
    assert d.play == "achievement" and d.card_id == "destructive-bunker"  # its upper, not its New Hope
    state.solo.machine.achievements = {"water": "green", "housing": "green", "security": "green"}
    after, _ = reveal(state, "deep-well", "water-canister")
    d = machine_decide(after, cards("deep-well", "water-canister", "destructive-bunker", "rain-barrel", "herbs"))
    assert d.play == "nothing" and "a second New Hope can't be chosen" in d.not_fired[0]


# --- catastrophes against the Machine -------------------------------------------------------------


def test_no_black_hand_level_pays_then_achievements_lowest_first_yellow_before_green():
    state = solo(level=2, machine={"water": "green", "security": "yellow", "housing": "yellow"}, phase="human",
                 human={"nature": "green", "security": "green", "production": "green"}, hand=4)
    # nature: the Machine has no protection → 4 due; 2 dice, no black hand → level 2 → 0, 2 achievements
    after, events = apply(state, HumanCatastrophe(category="nature"), ScriptedDice([5, 6]))
    m = after.solo.machine
    assert m.level == 0 and m.achievements == {"water": "green"}  # yellow housing, yellow security went
    assert "no black hand" in text(events)


def test_hand_die_black_faces_setting():
    state = solo(level=1, machine={"housing": "yellow"}, human={"housing": "green"}, phase="human",
                 hand_die_black_faces=3)
    after, events = apply(state, HumanCatastrophe(category="housing"), ScriptedDice([3]))
    assert after.solo.machine.level == 0 and after.solo.machine.achievements == {"housing": "yellow"}
    state = solo(level=1, machine={"housing": "yellow"}, human={"housing": "green"}, phase="human",
                 hand_die_black_faces=0)
    after, _ = apply(state, HumanCatastrophe(category="housing"), ScriptedDice([1]))
    assert after.solo.machine.achievements == {}  # no black faces: 1 from level, 1 achievement


def test_machine_out_when_level_and_achievements_dont_cover():
    state = solo(level=1, machine={}, human={"water": "green"}, phase="human")
    after, events = apply(state, HumanCatastrophe(category="water"), ScriptedDice([6]))
    assert outcome(after) == "Won" and "it is out" in after.reason


def test_perfect_protection_no_roll():
    state = solo(level=3, machine={"water": "green"}, human={"water": "green"}, phase="human")
    after, events = apply(state, HumanCatastrophe(category="water"), NO_DICE)
    assert after.solo.machine.level == 3 and after.solo.catastrophes == 1


def test_catastrophes_reset_each_round():
    state = solo(level=2, machine={"housing": "yellow"}, human={"housing": "green"}, phase="human")
    after, _ = apply(state, HumanCatastrophe(category="housing"), ScriptedDice([1, 1]))
    after, _ = apply(after, EndTurn(), NO_DICE)
    assert after.solo.catastrophes == 0 and after.solo.round == 2 and after.solo.phase == "machine"


# --- the human's moves ----------------------------------------------------------------------------


def test_human_catastrophe_needs_protection_or_rescue_card():
    state = solo(level=2, phase="human", hand=3)
    refused(state, HumanCatastrophe(category="water"), match="without water protection")
    after, events = apply(state, HumanCatastrophe(category="water", rescue=True), ScriptedDice([6, 6]))
    assert after.solo.human.hand == 1  # the catastrophe and the rescue card
    assert after.solo.machine.level == 0 and outcome(after) == "Won"  # 4 due: level 2, no achievements


def test_human_catastrophe_level_and_own_discard():
    state = solo(level=5, machine={"water": "green"}, human={"water": "yellow"}, phase="human", hand=4)
    refused(state, HumanCatastrophe(category="security"), match="level II needs")
    after, _ = apply(state, HumanCatastrophe(category="water"), NO_DICE)
    assert after.solo.phase == "discard" and after.solo.due.cards == 2  # the player is hit last
    done, _ = apply(after, HumanDiscard(), NO_DICE)
    assert done.solo.human.hand == 1 and done.solo.phase == "human"


def test_human_espionage_and_sabotage_against_the_machine():
    state = solo(level=4, phase="human", hand=3)
    refused(state, HumanEspionage(), match="level II")
    state.solo.human.achievements = {"water": "yellow", "housing": "yellow"}
    after, events = apply(state, HumanEspionage(), NO_DICE)
    assert after.solo.machine.level == 3 and "reveal 4 cards" in events[0].text
    assert events[0].data == {"reveal": 4, "level_from": 4, "level_to": 3}
    refused(after, HumanSabotage(), match="level III")
    after.solo.human.achievements |= {"security": "green", "production": "yellow"}
    done, _ = apply(after, HumanSabotage(), NO_DICE)
    assert done.solo.machine.level == 0 and done.solo.human.hand == 1


def test_human_attack_removes_the_chosen_cube():
    state = solo(level=4, machine={"water": "green", "nature": "yellow"}, phase="human")
    refused(state, HumanAttack(category="housing"), match="no housing achievement")
    after, _ = apply(state, HumanAttack(category="water"), NO_DICE)
    assert after.solo.machine.achievements == {"nature": "yellow"}
    refused(solo(phase="human"), HumanAttack(category="water"), match="no achievement")


def test_human_achievement_one_per_turn_one_per_category_and_level():
    state = solo(phase="human", hand=3, human={"water": "yellow"})
    refused(state, HumanAchievement(category="water", cube="green"), match="held already")
    refused(state, HumanAchievement(category="security", cube="green"), match="level II")
    after, _ = apply(state, HumanAchievement(category="housing", cube="yellow"), NO_DICE)
    refused(after, HumanAchievement(category="security", cube="green"), match="one achievement per turn")
    assert "human_achievement" not in ready_kinds(after)
    assert all(m.why_not == "At most one achievement per turn (§2.1)." for m in GAME.legal_moves(after)
               if m.kind == "human_achievement")


def test_one_achievement_per_turn_resets_each_round_even_after_a_discard():
    held = {"water": "green", "housing": "green", "security": "green", "production": "green"}
    state = solo(level=2, machine=held, phase="human", hand=6)
    state, _ = apply(state, HumanAchievement(category="water", cube="yellow"), NO_DICE)
    state, _ = apply(state, EndTurn(), NO_DICE)
    state, _ = reveal(state, "barter", "tent")  # the Machine's Sabotage: you discard 3 first
    state, _ = apply(state, HumanDiscard(), NO_DICE)
    after, _ = apply(state, HumanAchievement(category="housing", cube="yellow"), NO_DICE)
    assert after.solo.human.achievements == {"water": "yellow", "housing": "yellow"}


def test_human_biosphere_wins():
    state = solo(phase="human", hand=5, human={"nature": "green", "community": "yellow"})
    refused(state, HumanBiosphere(), match="5 more hand cards")
    state.solo.human.hand = 6
    after, _ = apply(state, HumanBiosphere(), NO_DICE)
    assert outcome(after) == "Won"
    refused(solo(phase="human", hand=8, human={"nature": "green"}), HumanBiosphere(), match="community")


def test_human_short_of_cards_gives_up_achievements_or_loses():
    held = {"water": "green", "housing": "green", "security": "green", "production": "green",
            "nature": "green"}
    after, _ = reveal(solo(level=3, machine=held, hand=1, human={"water": "yellow"}), "barter", "tent")
    assert after.solo.due.cards == 3
    refused(after, HumanDiscard(), match="give up 1 achievement")
    refused(after, HumanDiscard(give_up=["nature"]), match="no nature achievement")
    refused(after, HumanDiscard(rescue=True), match="only against a catastrophe")
    done, events = apply(after, HumanDiscard(give_up=["water"]), NO_DICE)
    assert outcome(done) == "Lost" and "the Machine wins" in done.reason  # 2 short, 1 achievement


def test_with_the_abyss_missing_achievements_raise_doom_instead():
    held = {"water": "green", "housing": "green", "security": "green", "production": "green",
            "nature": "green"}
    after, _ = reveal(solo(level=3, machine=held, hand=0, abyss=True), "barter", "tent")
    done, events = apply(after, HumanDiscard(), NO_DICE)
    assert done.result is None and done.abyss.players[0].doom == 3


def test_end_turn_hand_limit():
    after, events = apply(solo(phase="human", hand=10), EndTurn(), NO_DICE)
    assert after.solo.human.hand == 8 and "discard 2" in events[0].text
    assert events[0].kind == "hand_limit" and events[0].data["discard"] == 2
    assert events[1].kind == "round" and events[1].data == {"round": 2, "reveal": 2}


# --- bad input: refused, nothing changes ----------------------------------------------------------


def test_tapping_more_cards_than_the_machine_reveals():
    state = solo(level=2)
    refused(state, reveal_action(DECK, ["shack", "tent", "ruins"]), InputError, match="reveals 2 cards")
    refused(state, reveal_action(DECK, ["shack"]), InputError, match="1 were tapped")


def test_more_copies_than_the_deck_has_and_stored_biosphere_refused():
    refused(solo(level=2), reveal_action(DECK, ["shack", "shack"]), InputError, match="deck has 1 Shack")
    refused(solo(level=2, stored=BIO), reveal_action(DECK, [BIO, "shack"]), InputError, match="stored")


def test_incomplete_card_refused_and_unknown_id():
    half = Card(id="hurricane", name="Hurricane", lower=Lower(kind="catastrophe", category="housing", level=1))
    refused(solo(level=1), MachineReveal(cards=[half]), InputError, match="incomplete")
    with pytest.raises(InputError, match="not in the catalog"):
        reveal_action(DECK, ["no-such-card"])


def test_new_hope_follow_up_must_repeat_the_earlier_cards():
    after, _ = reveal(solo(level=3, machine={"water": "green"}), "deep-well", "tent")
    wrong = MachineRevealMore(cards=cards("herbs", "seeds", "elders"), earlier=cards("tent", "deep-well"))
    refused(after, wrong, InputError, match="revealed before")
    refused(after, MachineRevealMore(cards=cards("herbs"), earlier=cards("deep-well", "tent")), InputError,
            match="reveals 3 cards")


def test_wrong_phase_refused():
    refused(solo(), EndTurn(), match="Machine's turn")
    refused(solo(phase="human"), reveal_action(DECK, []), match="your turn")
    refused(solo(phase="human"), HumanDiscard(), match="your turn")


def test_hand_size_range():
    # The range is the action model's: refused as the action is read, and offered as the field's range.
    with pytest.raises(ValidationError, match="less than or equal to 25"):
        GAME.parse_action({"kind": "set_hand", "cards": 26})
    with pytest.raises(ValidationError, match="greater than or equal to 0"):
        GAME.parse_action({"kind": "set_hand", "cards": -1})
    field = next(m for m in GAME.legal_moves(solo()) if m.kind == "set_hand").fields[0]
    assert (field.name, field.low, field.high, field.hint) == ("cards", 0, 25, "0–25")
    refused(solo(hand=7), SetHand(cards=7), match="already 7")
    after, _ = apply(solo(), SetHand(cards=7), NO_DICE)
    assert after.solo.human.hand == 7


def test_game_over_refuses_moves():
    after, _ = reveal(solo(level=5, machine={"nature": "green", "community": "yellow"}, stored=BIO))
    refused(after, SetHand(cards=1), match="game is over")


def test_abyss_moves_refused_when_abyss_off():
    from companion.games.biosphere5.rules import DoomDrawPile
    refused(solo(), DoomDrawPile(player=0), match="Abyss")


# --- contract: JSON, describe, headline -----------------------------------------------------------


def test_state_and_actions_round_trip_json():
    state = solo(level=8, machine={"water": "green", "housing": "yellow", "production": "yellow"},
                 human={"housing": "green"}, hand=3, stored=None)
    after, _ = reveal(state, "greenhouse", "garden", "deep-well", "shack", "catching-basin")
    for s in (state, after):
        assert State.model_validate_json(s.model_dump_json()) == s
    actions = [reveal_action(DECK, ["shack", BIO]), reveal_more_action(after, DECK, ["herbs", "seeds", "elders"]),
               HumanDiscard(give_up=["water"]), HumanCatastrophe(category="housing", rescue=True, name="Hurricane"),
               HumanAttack(category="nature"), SetHand(cards=3), EndTurn()]
    for action in actions:
        assert GAME.parse_action(GAME.dump_action(action)) == action
        assert describe(action)


def test_headline_and_new_game():
    state = new_state(Settings())
    assert state.solo.machine.level == 2 and state.solo.phase == "machine"  # difficulty 2, the Machine starts
    assert headline(state) == "Round 1 · Machine's turn · reveal 2 · Machine level 2"
    assert outcome(state) is None and ready_kinds(state) == ["machine_reveal", "set_hand"]
    assert GAME.key == "biosphere5" and GAME.title == "Biosphere 5"


# --- the human's words ----------------------------------------------------------------------------


def test_with_no_hand_cards_every_play_first_asks_for_the_hand_size():
    state = solo(phase="human", hand=0, machine={"water": "green"},
                 human={"water": "green", "housing": "green", "nature": "green", "community": "green"})
    for action in (HumanAchievement(category="security", cube="green"), HumanCatastrophe(category="water"),
                   HumanEspionage(), HumanSabotage(), HumanAttack(category="water"), HumanBiosphere()):
        refused(state, action, match="^Enter your hand size first: the app counts 0 cards in your hand.$")
    refused(solo(phase="human", hand=1), HumanCatastrophe(category="water", rescue=True), match="You need 2 hand cards")


def test_the_humans_achievements_are_never_called_cubes_and_older_saves_still_replay():
    """The Machine's achievements are cubes on its board (§4.1); the human's are cards on display.
    A save from before that wording kept the Machine's Attack instruction with "(green cube)": it
    loads in today's words and its log still replays to its recorded states."""
    from companion.games.biosphere5.screens import import_text
    from companion.games.biosphere5.cards import Catalog, dump_catalog
    from companion.log import replay
    from test_biosphere5_cards import TEST_DECK
    from tests.helpers import memory_store

    store = memory_store()
    import_text(store, dump_catalog(Catalog(complete=True, cards=TEST_DECK)), replace=True)
    cid = store.create("biosphere5", "t", {}, seed=7)
    for action in (reveal_action(DECK, ["water-canister", "rain-barrel"]),  # nothing to play: level 2 → 4
                   SetHand(cards=3), HumanAchievement(category="housing", cube="green"), EndTurn(),
                   reveal_action(DECK, [BIO, "tent", "herbs"])):  # rule 3: you hold more achievements
        store.apply(cid, action, expected_cursor=store.load(cid).cursor)
    solo_now = store.load(cid).game_state.solo
    assert solo_now.decision.instruction == ("The Machine plays Attack (Biosphere 5 / Attack): remove your perfect "
                                             "housing achievement, your highest-value one.")
    said = " ".join(str(Event.coerce(e).text) for r in store.history(cid) for e in r.events)
    assert "You play a perfect housing achievement." in said and "Your perfect housing achievement is destroyed." in said
    assert "cube" not in said.replace("place a green cube", "")  # only the Machine's own cubes

    # An older save kept the instruction as a plain English sentence, in the old words.
    new = "perfect housing achievement, your highest-value one."
    old = ("The Machine plays Attack (Biosphere 5 / Attack): remove your perfect housing (green cube), your "
           "highest-value achievement.")
    rows = store.log_rows(cid)

    def older(state):
        if state is None:
            return None
        state = json.loads(json.dumps(state))
        decision = (state["game"].get("solo") or {}).get("decision") or {}
        if decision.get("play") == "attack":
            decision["instruction"] = old
        return state

    entries = [{"seq": r.seq, "action": r.action, "dice": r.dice, "snapshot": r.snapshot, "state": older(r.state)}
               for r in rows]
    assert old in json.dumps(entries[-1]["state"])  # the old words, as an older save kept them
    instruction = State.model_validate(entries[-1]["state"]["game"]).solo.decision.instruction
    assert str(instruction).endswith(new)  # read in today's words, said in each phone's language
    assert "Angriff" in instruction.render("de")
    report = replay(GAME, {}, entries, seed=7)
    assert report.ok, report.mismatches


def test_the_solo_player_is_said_as_you_not_yous():
    """Against the Machine the unnamed human is 'You': sentences about their doom and leaders say
    'your', never "You's"."""
    from companion.games.biosphere5.rules import DoomDecrease, LeaderPromote

    state = solo(abyss=True)
    refused(state, DoomDecrease(player=0), match="^Your doom is already 0.$")
    _, events = apply(state, LeaderPromote(player=0, leader="commander"), NO_DICE)
    assert "Better Leadership: your " in text(events) and "You's" not in text(events)
