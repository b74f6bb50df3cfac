"""Biosphere 5, The Abyss (RULES.md §4, book §3): doom 0–8 per player, its causes, the decrease
option, out at 8 at once, and the four leaders' tiers with their abilities."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from companion.dice import ScriptedDice
from companion.games.base import InputError, RuleError
from companion.games.biosphere5.rules import (
    GAME,
    LEADERS,
    DeclareBiosphere,
    DoomAttack,
    DoomDecrease,
    DoomDrawPile,
    DoomFaceUp,
    DoomMissing,
    DoomSpy,
    HumanCatastrophe,
    LeaderAbility,
    LeaderPromote,
    Settings,
    State,
    ability_targets,
    ability_text,
    apply,
    describe,
    headline,
    new_state,
    outcome,
    usable_tiers,
)

NO_DICE = ScriptedDice([])


def table(players=3, doom=(), names=()) -> State:
    state = new_state(Settings(opponent="people", abyss=True, players=players, names=list(names)))
    for i, d in enumerate(doom):
        state.abyss.players[i].doom = d
    return state


def play(state, *actions):
    events = []
    for action in actions:
        state, ev = apply(state, action, NO_DICE)
        events += ev
    return state, events


def dooms(state):
    return [p.doom for p in state.abyss.players]


def refused(state, action, error=RuleError, match=None):
    before = state.model_copy(deep=True)
    with pytest.raises(error, match=match):
        apply(state, action, NO_DICE)
    assert state == before


def test_new_table():
    state = table(3, names=["Ann", "Bo"])
    assert [p.name for p in state.abyss.players] == ["Ann", "Bo", "Player 3"]
    assert dooms(state) == [0, 0, 0] and state.solo is None
    assert all(t == 0 for p in state.abyss.players for t in p.leaders.values())
    assert headline(state) == "The Abyss · 3 of 3 players in"


def test_people_need_the_abyss_on():
    with pytest.raises(ValidationError, match="switch The Abyss on"):
        Settings(opponent="people", abyss=False)


# --- the five causes --------------------------------------------------------------------------------


def test_draw_pile_empty_plus_two():
    assert dooms(play(table(), DoomDrawPile(player=1))[0]) == [0, 2, 0]


def test_missing_achievements_plus_one_each():
    assert dooms(play(table(), DoomMissing(player=0, count=3))[0]) == [3, 0, 0]


def test_attack_attacker_plus_one_attacked_plus_two():
    assert dooms(play(table(), DoomAttack(attacker=0, target=2))[0]) == [1, 0, 2]


def test_espionage_sabotage_both_plus_one():
    assert dooms(play(table(), DoomSpy(by=2, target=1))[0]) == [0, 1, 1]


def test_biosphere_face_up_plus_one():
    assert dooms(play(table(), DoomFaceUp(player=0))[0]) == [1, 0, 0]


def test_out_at_eight_at_once_and_capped():
    state, events = play(table(doom=(7,)), DoomDrawPile(player=0))
    assert state.abyss.players[0].doom == 8 and state.abyss.players[0].out
    assert (events[0].kind, events[0].data["doom_from"], events[0].data["doom_to"]) == ("doom", 7, 8)
    assert "(max 8)" in events[0].text
    assert (events[1].kind, events[1].data["player"]) == ("player_out", 0)
    refused(state, DoomFaceUp(player=0), match="is out")
    refused(state, DoomAttack(attacker=1, target=0), match="is out")
    assert outcome(state) is None  # two players still in


def test_several_lose_at_once_no_winner():
    state, events = play(table(2, doom=(7, 6)), DoomAttack(attacker=0, target=1))
    assert dooms(state) == [8, 8] and outcome(state) == "No winner"
    assert events[-1].kind == "game_over" and events[-1].data["result"] == "No winner"


def test_last_one_in():
    state, _ = play(table(2, doom=(0, 7), names=["Ann", "Bo"]), DoomFaceUp(player=1))
    assert outcome(state) == "Ann is the last one in" and GAME.legal_moves(state) == []


def test_declare_biosphere_wins():
    state, _ = play(table(names=["Ann"]), DeclareBiosphere(player=0))
    assert outcome(state) == "Ann wins"


# --- the decrease option ----------------------------------------------------------------------------


def test_decrease_discards_doom_cards_then_minus_one():
    state, events = play(table(doom=(3,)), DoomDecrease(player=0))
    assert dooms(state)[0] == 2 and "discards 3 cards" in events[0].text
    assert (events[0].kind, events[0].data["cards"]) == ("doom_discard", 3)
    refused(table(), DoomDecrease(player=0), match="already 0")


def test_decrease_with_the_machine_uses_the_hand():
    state = new_state(Settings(abyss=True))
    state.abyss.players[0].doom = 3
    state.solo.human.hand = 2
    refused(state, DoomDecrease(player=0), match="takes 3 cards; you have 2")
    state.solo.human.hand = 4
    after, _ = apply(state, DoomDecrease(player=0), NO_DICE)
    assert after.solo.human.hand == 1 and after.abyss.players[0].doom == 2


# --- leaders --------------------------------------------------------------------------------------


def test_promote_to_tier_three_and_no_further():
    state, events = play(table(), *[LeaderPromote(player=0, leader="fighter")] * 3)
    assert state.abyss.players[0].leaders["fighter"] == 3
    assert "Beat them all!" in events[-1].text and events[-1].data["tier"] == 3
    refused(state, LeaderPromote(player=0, leader="fighter"), match="tier 3 already")


@pytest.mark.parametrize("leader", LEADERS)
def test_ability_texts_at_each_tier(leader):
    assert ability_text(leader, 0) == "Tier 0 – no ability yet."
    for tier in (1, 2, 3):
        assert str(ability_text(leader, tier)).startswith(f"Tier {tier} – ")


def test_ability_needs_the_tier_but_lower_tiers_may_be_used():
    state = table(doom=(3,))
    refused(state, LeaderAbility(player=0, leader="true_believer", tier=1), match="tier 0")
    promote = LeaderPromote(player=0, leader="true_believer")
    state, _ = play(state, promote, promote)
    state, events = play(state, LeaderAbility(player=0, leader="true_believer", tier=1))  # a lower tier
    assert dooms(state)[0] == 2 and "Glimmer of Hope" in events[0].text


@pytest.mark.parametrize("leader", LEADERS)
def test_a_leader_at_tier_n_may_use_any_tier_from_1_to_n_instead(leader):
    """RULES.md §4: "A leader at tier N may use the ability of any tier from 1 to N instead of tier N's"
    (book §3.3: "abilities available from the lower tiers can be activated instead")."""
    state = table(doom=(3, 1))
    state.abyss.players[0].leaders[leader] = 3
    assert usable_tiers(state.abyss.players[0], leader) == [1, 2, 3]
    for tier in (1, 2, 3):
        targets = ability_targets(state.abyss, 0, leader, tier)
        action = LeaderAbility(player=0, leader=leader, tier=tier, target=targets[-1] if targets else None)
        assert GAME.why_not(state, action) is None, (leader, tier)
        after, events = play(state, action)
        first = events[0]
        assert (first.kind, first.data["tier"], first.data["leader_tier"]) == ("leader_ability", tier, 3)
        assert ("instead of tier 3's" in first.text) == (tier < 3)
    state.abyss.players[0].leaders[leader] = 1
    assert usable_tiers(state.abyss.players[0], leader) == [1]
    refused(state, LeaderAbility(player=0, leader=leader, tier=2, target=1 if leader == "fighter" else None),
            match="tier 2 isn't reached")


def test_lower_tier_abilities_do_what_that_tier_says():
    state = table(doom=(5, 2, 0))
    state.abyss.players[0].leaders |= {"true_believer": 3, "fighter": 3, "commander": 2}
    after, _ = play(state, LeaderAbility(player=0, leader="true_believer", tier=1))
    assert dooms(after) == [4, 2, 0]  # Glimmer of Hope at tier 3
    after, _ = play(state, LeaderAbility(player=0, leader="true_believer", tier=2))
    assert dooms(after) == [4, 3, 1]  # Without Hesitation at tier 3
    _, events = play(state, LeaderAbility(player=0, leader="fighter", tier=1, target=1))
    assert events[-1].text == "Player 2 discards 2 cards." and events[-1].data["cards"] == 2
    after, _ = play(state, LeaderAbility(player=0, leader="commander", tier=1))
    assert after == state  # Raising the Flag is played with the cards; the tiers stay


def test_moves_offer_every_usable_tier_and_only_players_still_in():
    state = table(3, doom=(0, 8, 2))
    state.abyss.players[1].out = True
    state.abyss.players[2].leaders["fighter"] = 2
    moves = {m.kind: m for m in GAME.legal_moves(state)}
    fields = {f.name: f for f in moves["leader_ability"].fields}
    assert fields["player"].choices == (2,) and (fields["tier"].low, fields["tier"].high) == (1, 2)
    assert fields["target"].choices == (None, 0, 2)
    assert moves["doom_draw_pile"].fields[0].choices == (0, 2)
    assert moves["doom_decrease"].fields[0].choices == (2,)  # Player 1 is at doom 0; Player 2 is out
    assert moves["doom_missing"].fields[1].low == 1 and moves["doom_missing"].fields[1].high == 8
    assert not any(m.ready for m in moves.values())  # the Abyss's moves are templates: a screen picks the player
    assert ability_targets(state.abyss, 2, "fighter", 1) == [None, 0]  # an opponent still in, or not recorded
    assert ability_targets(state.abyss, 2, "true_believer", 3) == [0, 2]
    assert ability_targets(state.abyss, 2, "strategist", 2) is None


def test_true_believer_tier_1_glimmer_of_hope():
    state = table(doom=(0,))
    state.abyss.players[0].leaders["true_believer"] = 1
    refused(state, LeaderAbility(player=0, leader="true_believer", tier=1), match="already 0")


def test_true_believer_tier_2_without_hesitation():
    state = table(4, doom=(6, 2, 7, 8))
    state.abyss.players[3].out = True
    state.abyss.players[0].leaders["true_believer"] = 2
    state, events = play(state, LeaderAbility(player=0, leader="true_believer", tier=2))
    assert dooms(state) == [4, 3, 8, 8]  # own set to 4, others +1, the out player untouched
    assert state.abyss.players[2].out


def test_true_believer_tier_3_finally_true():
    state = table(doom=(0, 5))
    state.abyss.players[0].leaders["true_believer"] = 3
    refused(state, LeaderAbility(player=0, leader="true_believer", tier=3), InputError, match="choose the player")
    state, _ = play(state, LeaderAbility(player=0, leader="true_believer", tier=3, target=1))
    assert dooms(state) == [0, 7, 0]


def test_commander_tier_3_victory_is_near():
    state = table()
    state.abyss.players[1].leaders["commander"] = 3
    state, _ = play(state, LeaderAbility(player=1, leader="commander", tier=3))
    assert set(state.abyss.players[1].leaders.values()) == {3}
    assert set(state.abyss.players[0].leaders.values()) == {0}


def test_fighter_beat_them_all_names_the_count():
    state = table(doom=(5,))
    state.abyss.players[0].leaders["fighter"] = 3
    _, events = play(state, LeaderAbility(player=0, leader="fighter", tier=3, target=2))
    assert "Player 3 discards 5 cards" in events[-1].text
    assert (events[-1].kind, events[-1].data["player"], events[-1].data["cards"]) == ("opponent_discards", 2, 5)
    refused(state, LeaderAbility(player=0, leader="fighter", tier=3, target=0), InputError, match="opponent")


def test_text_only_abilities_change_nothing_but_the_log():
    state = table()
    state.abyss.players[0].leaders["strategist"] = 2
    after, events = play(state, LeaderAbility(player=0, leader="strategist", tier=2))
    assert after == state and "The Trap" in events[0].text and events[0].kind == "leader_ability"


# --- bad input --------------------------------------------------------------------------------------


def test_out_of_range_refused():
    refused(table(), DoomDrawPile(player=3), InputError, match="between 0 and 2")
    # Ranges the action models hold are refused as the action is read, with the range.
    with pytest.raises(ValidationError, match="greater than or equal to 1"):
        GAME.parse_action({"kind": "doom_missing", "player": 0, "count": 0})
    with pytest.raises(ValidationError, match="less than or equal to 3"):
        GAME.parse_action({"kind": "leader_ability", "player": 0, "leader": "fighter", "tier": 4})
    refused(table(), DoomAttack(attacker=1, target=1), InputError, match="must differ")
    refused(table(), DoomAttack(attacker=None, target=1), InputError, match="choose a player")


# --- with the Machine ---------------------------------------------------------------------------------


def test_solo_with_abyss_the_machine_has_no_doom():
    state = new_state(Settings(abyss=True, names=["Ann"]))
    assert [p.name for p in state.abyss.players] == ["Ann"]
    state, events = play(state, DoomAttack(attacker=None, target=0))
    assert dooms(state) == [2] and "The Machine has no doom" in events[0].text
    assert [e.kind for e in events] == ["machine_no_doom", "doom"]
    state, _ = play(state, DoomSpy(by=0, target=None))
    assert dooms(state) == [3]


def test_solo_doom_eight_loses():
    state = new_state(Settings(abyss=True))
    state.abyss.players[0].doom = 6
    state, _ = play(state, DoomDrawPile(player=0))
    assert outcome(state) == "Lost"


def test_machine_moves_refused_against_people():
    refused(table(), HumanCatastrophe(category="water"), match="against the Machine")


def test_round_trip_and_describe():
    state, _ = play(table(doom=(2, 3)), DoomAttack(attacker=0, target=1), LeaderPromote(player=2, leader="commander"))
    assert State.model_validate_json(state.model_dump_json()) == state
    for action in (DoomDrawPile(player=0), DoomMissing(player=1, count=2), DoomAttack(attacker=None, target=0),
                   DoomSpy(by=0, target=1), DoomFaceUp(player=0), DoomDecrease(player=0),
                   LeaderPromote(player=0, leader="strategist"),
                   LeaderAbility(player=0, leader="true_believer", tier=3, target=1), DeclareBiosphere(player=0)):
        assert GAME.parse_action(GAME.dump_action(action)) == action
        assert describe(action)
