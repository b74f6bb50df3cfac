"""Save the Singularity (RULES.md §1): every rule and role, bad input, JSON, random legal play."""

from __future__ import annotations

import pytest
from hypothesis import given, settings as hsettings, strategies as st
from pydantic import ValidationError

from companion.dice import PhysicalDice, ScriptedDice, SeededDice
from companion.games.base import InputError, RuleError
from companion.games.save_the_singularity import odds, rules
from companion.games.save_the_singularity.rules import (
    GAME, ComputerScientist, Die, MediaLiaison, Mathematician, Player, PressOn, Programmer,
    Rationalist, Roll, RollD12, Settings, State, Stop, TakeBust, VentureCapitalist,
)
from companion.log import replay, step
from companion.table import CampaignState, GiveDice, SetPhysicalDice

NAMES = ["Ada", "Bea", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal"]


def game(*roles: str, **options) -> State:
    players = [Player(name=NAMES[i], role=r) for i, r in enumerate(roles)]
    return rules.new_state(Settings(players=players, **options))


def go(state: State, action, *faces: int):
    """Apply with scripted dice; every scripted face must be used."""
    dice = ScriptedDice(faces)
    new, events = rules.apply(state, action, dice)
    assert dice.faces == [], f"unused faces {dice.faces}"
    return new, events


def after_throw(state: State, faces: list[int], **update) -> State:
    """A state in the middle of a turn: the current throw shows `faces`."""
    fields = dict(phase="throw", pool=len(faces), throw=[Die(face=f) for f in faces])
    fields.update(update)
    return state.model_copy(update=fields, deep=True)


def texts(events) -> list[str]:
    return [e.text for e in events]


def kinds(state: State) -> set:
    return {(a.kind, getattr(a, "by", None)) for a in rules.legal_actions(state)}


def refused(state: State, action, error=RuleError, match: str = "", dice=None) -> None:
    before = state.model_dump_json()
    with pytest.raises(error, match=match):
        rules.apply(state, action, dice or ScriptedDice([]))
    assert state.model_dump_json() == before


# --- Settings and targets -----------------------------------------------------------------------


@pytest.mark.parametrize("players, team, world", [(1, 25, 4), (2, 50, 8), (5, 125, 20)])
def test_targets_are_25_and_4_per_player(players, team, world):
    s = game(*rules.ROLES[:players])
    assert (rules.team_target(s), rules.world_target(s)) == (team, world)


def test_settings_defaults_from_rules_md():
    s = Settings()
    assert s.max_pool == 12 and s.media_liaison_timing == "before_roll" and len(s.players) == 1


def test_zero_players_refused():
    with pytest.raises(ValidationError, match="1 or more players"):
        Settings(players=[])


def test_roles_distinct_until_players_outnumber_roles():
    with pytest.raises(ValidationError, match="Rationalist is taken twice"):
        game("rationalist", "rationalist")
    seven = game(*rules.ROLES, "programmer")  # all six taken, then a repeat: fine
    assert len(seven.settings.players) == 7
    with pytest.raises(ValidationError, match="missing: Media Liaison"):
        game("rationalist", "mathematician", "computer_scientist", "programmer",
             "venture_capitalist", "rationalist", "programmer")


def test_names_must_be_present_and_different():
    with pytest.raises(ValidationError, match="blank"):
        Player(name="   ", role="rationalist")
    with pytest.raises(ValidationError, match="appears twice"):
        Settings(players=[Player(name="Ada", role="rationalist"), Player(name="ada", role="programmer")])


@pytest.mark.parametrize("bad", [{"max_pool": 13}, {"max_pool": 2}, {"media_liaison_timing": "whenever"}])
def test_settings_out_of_range_refused(bad):
    with pytest.raises(ValidationError):
        Settings(**bad)


def test_new_game():
    s = game("rationalist", "programmer")
    assert (s.team, s.world, s.turn, s.current, s.phase, s.pool) == (0, 0, 1, 0, "start", 3)
    assert s.powers_used == [False, False]
    assert kinds(s) == {("roll", None)}


# --- Phase one: the researcher's throws ----------------------------------------------------------


@pytest.mark.parametrize("face, symbol", [(1, "Bug"), (2, "Idea"), (3, "Idea"), (4, "Progress"), (5, "Progress"), (6, "Progress")])
def test_d6_faces(face, symbol):
    assert rules.d6_symbol(face) == symbol


def test_first_throw_is_3d6_and_progress_goes_at_risk():
    s, events = go(game("mathematician"), Roll(), 1, 3, 5)
    assert s.phase == "throw" and s.pool == 3 and [d.face for d in s.throw] == [1, 3, 5]
    assert rules.at_risk(s) == 1 and rules.next_pool(s) == 4 and s.team == 0
    [e] = events
    assert (e.kind, e.text) == ("throw", "Ada throws 3 dice: 1 Bug, 1 Idea, 1 Progress; +1 at risk (1 this turn).")
    assert {k: e.data[k] for k in ("player", "cause", "faces", "bugs", "ideas", "progress", "gained", "at_risk", "busts")} \
        == {"player": "Ada", "cause": "roll", "faces": [1, 3, 5], "bugs": 1, "ideas": 1, "progress": 1, "gained": 1,
            "at_risk": 1, "busts": False}
    assert e.data["bust_chance"] == float(odds.bust_chance(3))


def test_bust_with_exactly_two_bugs_loses_the_points_at_risk():
    # Earlier throws put 4 at risk; this throw's two Bugs lose them. Nobody holds a reroll power.
    s = after_throw(game("mathematician"), [4, 5, 2], risk_before_throw=2)
    s, events = go(s, PressOn(), 1, 1, 6, 6)
    assert s.phase == "world" and s.team == 0
    assert "Bust: 2 Bugs in one throw (two or more bust); 4 points at risk lost." in texts(events)
    bust = next(e for e in events if e.kind == "bust")
    assert bust.data == {"player": "Ada", "bugs": 2, "lost": 4, "chance": float(odds.bust_chance(4))}


def test_one_bug_does_not_bust():
    s, _ = go(game("mathematician"), Roll(), 1, 4, 4)
    assert s.phase == "throw" and not rules.is_bust(s)
    assert kinds(s) == {("stop", None), ("press_on", None)}


def test_three_bugs_bust():
    s, _ = go(game("mathematician"), Roll(), 1, 1, 1)
    assert s.phase == "world"


def test_press_on_grows_the_pool_by_the_ideas_and_keeps_points():
    s = after_throw(game("mathematician"), [2, 3, 5])  # 2 Ideas, 1 Progress
    s, events = go(s, PressOn(), 4, 4, 2, 6, 1)
    assert s.pool == 5 and rules.at_risk(s) == 1 + 3
    assert (events[0].kind, events[0].text) == ("press_on", "Ada presses on with 1 at risk: 3 dice + 2 Ideas = 5 dice.")
    assert events[0].data == {"player": "Ada", "at_risk": 1, "pool": 3, "ideas": 2, "next_pool": 5, "capped": False}


def test_pool_is_capped_at_12_dice():
    s = after_throw(game("mathematician"), [2, 2, 3, 4, 4, 4, 4, 4, 4, 4, 5])  # 11 dice, 3 Ideas
    s, events = go(s, PressOn(), *([4] * 12))
    assert s.pool == 12 and len(s.throw) == 12
    assert "11 dice + 3 Ideas = 12 dice, capped at 12" in events[0].text and events[0].data["capped"]


def test_max_pool_setting_caps_the_pool():
    s = after_throw(game("mathematician", max_pool=5), [2, 2, 3, 4])
    s, _ = go(s, PressOn(), 4, 4, 4, 4, 4)
    assert s.pool == 5


def test_stop_banks_the_points_and_starts_the_world_phase():
    s = after_throw(game("mathematician"), [4, 5, 2], risk_before_throw=3)
    s, events = go(s, Stop())
    assert (s.team, s.phase, s.world_rolls) == (5, "world", [])
    assert (events[0].kind, events[0].text) == ("bank", "Ada stops and banks 5 points: team 0 → 5 (target 25).")
    assert events[0].data == {"player": "Ada", "points": 5, "team": 5, "target": 25}
    assert events[1].kind == "world_phase"
    assert kinds(s) == {("roll_d12", None)}


# --- Phase two: the world's d12 ---------------------------------------------------------------------

# face: (Bad, +Dice, Stop), the rulebook's chart
CHART = {1: (0, 0, 1), 2: (0, 0, 1), 3: (0, 0, 1), 4: (1, 0, 0), 5: (1, 0, 0), 6: (0, 1, 1), 7: (0, 1, 1),
         8: (0, 1, 0), 9: (1, 0, 1), 10: (1, 0, 1), 11: (1, 1, 0), 12: (1, 1, 1)}


@pytest.mark.parametrize("face", range(1, 13))
def test_d12_chart(face):
    bad, extra, stops = CHART[face]
    s = game("mathematician", "programmer").model_copy(update={"phase": "world", "world": 2})
    s, _ = go(s, RollD12(), face)
    assert s.world == 2 + bad
    if stops:
        assert (s.phase, s.current, s.turn, s.pool, s.owed) == ("start", 1, 2, 3 + extra, 0)
    else:
        assert (s.phase, s.current, s.turn, s.owed) == ("world", 0, 1, extra)


def test_d12_rolled_until_stop_and_dice_owed_to_the_next_player():
    s = game("mathematician", "programmer").model_copy(update={"phase": "world"})
    s, _ = go(s, RollD12(), 8)
    s, _ = go(s, RollD12(), 11)
    s, events = go(s, RollD12(), 12)
    assert (s.world, s.phase, s.current, s.pool) == (2, "start", 1, 6)
    assert (events[-1].kind, events[-1].text) == ("turn", "Turn 2: Bea starts with 3 + 3 owed = 6 dice.")
    assert events[-1].data == {"turn": 2, "by": 1, "player": "Bea", "owed": 3, "pool": 6, "capped": False,
                               "team": 0, "world": 2}
    roll = events[0]
    assert roll.kind == "world_roll" and roll.data == {
        "face": 12, "symbols": ["Bad", "+Dice", "Stop"], "bad": True, "plus_dice": True, "stop": True,
        "liaison": False, "world": 2, "owed": 3, "target": 8}
    assert rules.score_history(events)[-1] == rules.ScorePoint(turn=1, team=0, world=2)


def test_dice_owed_are_capped_by_the_pool():
    s = game("mathematician", "programmer", max_pool=5).model_copy(update={"phase": "world", "owed": 3})
    s, events = go(s, RollD12(), 6)
    assert s.pool == 5 and "capped at 5" in events[-1].text and events[-1].data["capped"]


def test_turns_rotate_through_the_players():
    s = game("mathematician", "programmer")
    for expected in (1, 0, 1):
        s = s.model_copy(update={"phase": "world"})
        s, _ = go(s, RollD12(), 1)
        assert s.current == expected


# --- Game end -------------------------------------------------------------------------------------------


def test_team_wins_on_reaching_its_target():
    s = after_throw(game("mathematician"), [4, 4, 2], team=22, risk_before_throw=1)
    s, events = go(s, Stop())
    assert s.team == 25 and s.phase == "over" and rules.outcome(s) == "Won"
    assert (events[-1].kind, events[-1].text) == ("game_end", "The team reaches 25 points: the team wins.")
    assert events[-1].data == {"winner": "team", "team": 25, "world": 0, "team_target": 25, "world_target": 4, "turn": 1}
    assert rules.legal_actions(s) == []
    refused(s, RollD12(), match="game is over")


def test_team_below_target_plays_on():
    s = after_throw(game("mathematician"), [4, 4, 2], team=21, risk_before_throw=1)
    s, _ = go(s, Stop())
    assert s.team == 24 and s.phase == "world" and rules.outcome(s) is None


def test_world_wins_on_a_bad_without_stop():
    s = game("mathematician").model_copy(update={"phase": "world", "world": 3})
    s, events = go(s, RollD12(), 4)
    assert s.world == 4 and s.phase == "over" and rules.outcome(s) == "Lost"
    assert (events[-1].kind, events[-1].text) == ("game_end", "The world reaches 4 points: the world wins.")
    assert events[-1].data["winner"] == "world"
    assert events[0].data["plus_dice"] is False  # face 4 has no +Dice
    assert rules.score_history(events)[-1] == rules.ScorePoint(turn=1, team=0, world=4)


def test_world_one_short_keeps_playing():
    s = game("mathematician", "programmer").model_copy(update={"phase": "world", "world": 6})
    s, _ = go(s, RollD12(), 9)
    assert s.world == 7 and s.phase == "start" and rules.outcome(s) is None


# --- Role powers -------------------------------------------------------------------------------------------


def test_bust_waits_for_reroll_powers_then_take_bust():
    s, events = go(game("rationalist"), Roll(), 1, 1, 5)
    assert rules.is_bust(s) and s.phase == "throw"
    assert kinds(s) == {("take_bust", None), ("rationalist", 0)}
    assert events[-1].text == "2 Bugs: this throw busts unless a reroll changes it — Ada (Rationalist)."
    assert events[-1].kind == "bust_pending"
    assert events[-1].data == {"bugs": 2, "lost": 0, "powers": [{"by": 0, "role": "rationalist", "player": "Ada"}]}
    refused(s, Stop(), match="busts")
    refused(s, PressOn(), match="busts")
    s, _ = go(s, TakeBust())
    assert s.phase == "world" and s.powers_used == [False]


def test_rationalist_rerolls_all_dice_once_per_game():
    s, _ = go(game("rationalist"), Roll(), 1, 1, 5)
    s, events = go(s, Rationalist(by=0), 4, 5, 2)
    assert [d.face for d in s.throw] == [4, 5, 2] and rules.at_risk(s) == 2 and s.powers_used == [True]
    assert texts(events) == [
        "Ada (Rationalist): reroll all 3 dice of the throw.",
        "Rerolled Bug, Bug, Progress → Progress, Progress, Idea: the throw shows 0 Bugs, 1 Idea, 2 Progress; "
        "2 at risk this turn."]
    assert events[0].data == {"role": "rationalist", "by": 0, "player": "Ada"}
    assert {k: events[1].data[k] for k in ("cause", "replaced", "thrown", "busts", "bust_chance")} == {
        "cause": "rationalist", "replaced": [1, 1, 5], "thrown": [4, 5, 2], "busts": False,
        "bust_chance": float(odds.bust_chance(3))}
    refused(s, Rationalist(by=0), match="already used the Rationalist power")
    # Spent: the next bust is applied at once.
    s, events = go(s, PressOn(), 1, 1, 4, 4)
    assert s.phase == "world" and any(e.kind == "bust" for e in events)


def test_a_power_is_used_on_another_players_turn():
    s, _ = go(game("mathematician", "rationalist"), Roll(), 1, 1, 6)
    assert kinds(s) == {("take_bust", None), ("rationalist", 1)}
    s, _ = go(s, Rationalist(by=1), 6, 6, 6)
    assert s.current == 0 and s.powers_used == [False, True] and rules.at_risk(s) == 3


def test_rationalist_reroll_of_a_venture_throw_still_ignores_the_first_half():
    s = game("venture_capitalist", "rationalist")
    s, _ = go(s, VentureCapitalist(by=0), 1, 1, 1, 4, 2, 5)
    s, _ = go(s, Rationalist(by=1), 1, 1, 1, 1, 5, 6)
    assert [d.bugs_ignored for d in s.throw] == [True] * 3 + [False] * 3
    assert rules.count_bugs(s.throw) == 1 and not rules.is_bust(s) and rules.at_risk(s) == 2


def test_computer_scientist_rerolls_ideas_and_ignores_their_bugs():
    s = after_throw(game("computer_scientist"), [2, 3, 1, 5])
    s, events = go(s, ComputerScientist(by=0), 1, 1)
    assert rules.count_bugs(s.throw) == 1 and not rules.is_bust(s)
    assert [rules.die_symbol(d) for d in s.throw] == ["Bug (ignored)", "Bug (ignored)", "Bug", "Progress"]
    assert "Bugs among them ignored" in events[0].text
    assert events[1].data["ignoring"] == 2 and events[1].data["ignored_bugs"] == 2


def test_computer_scientist_not_offered_on_a_bust_it_cannot_undo():
    s, events = go(game("computer_scientist"), Roll(), 1, 1, 2)
    assert s.phase == "world" and any(e.kind == "bust" for e in events)
    s = after_throw(game("computer_scientist", "programmer"), [1, 1, 2])
    assert kinds(s) == {("take_bust", None), ("programmer", 1)}
    refused(s, ComputerScientist(by=0), match="can't undo a bust")


def test_computer_scientist_needs_idea_dice():
    s = after_throw(game("computer_scientist"), [4, 5, 1])
    assert ("computer_scientist", 0) not in kinds(s)
    refused(s, ComputerScientist(by=0), match="no Idea dice")


def test_programmer_rerolls_the_bugs():
    s, _ = go(game("programmer"), Roll(), 1, 1, 5)
    s, _ = go(s, Programmer(by=0), 4, 6)
    assert [d.face for d in s.throw] == [4, 6, 5] and rules.at_risk(s) == 3


def test_programmer_reroll_can_bust_again_and_then_the_bust_applies():
    s, _ = go(game("programmer"), Roll(), 1, 1, 5)
    s, events = go(s, Programmer(by=0), 1, 1)
    assert s.phase == "world" and events[-2].kind == "bust"
    assert events[-2].data["chance"] == float(odds.bust_chance(2))  # only the two rerolled dice could bust


def test_programmer_needs_a_bug():
    s = after_throw(game("programmer"), [2, 5, 5])
    refused(s, Programmer(by=0), match="no Bugs")


def test_mathematician_starts_a_turn_with_one_die_and_forfeits_owed_dice():
    s = game("rationalist", "mathematician").model_copy(update={"pool": 5})  # 2 +Dice owed
    assert ("mathematician", 1) in kinds(s)
    s, events = go(s, Mathematician(by=1))
    assert s.pool == 1 and s.phase == "start" and s.powers_used == [False, True]
    assert texts(events) == ["Bea (Mathematician): Ada starts with only 1 die instead of 5 (any +Dice owed are forfeited)."]
    assert events[0].data == {"role": "mathematician", "by": 1, "player": "Bea", "pool_before": 5, "forfeited": 2}
    s, _ = go(s, Roll(), 4)
    assert len(s.throw) == 1 and rules.at_risk(s) == 1


def test_mathematician_only_before_the_first_throw():
    s = after_throw(game("rationalist", "mathematician"), [4, 5, 6])
    refused(s, Mathematician(by=1), match="before a turn's first throw")


def test_venture_capitalist_first_throw():
    s, events = go(game("venture_capitalist"), VentureCapitalist(by=0), 1, 1, 2, 4, 1, 3)
    # First 3 ignore Bugs (1, 1, 2, ...), then 3 counting them (4, 1, 3): only 1 Bug counts.
    assert not rules.is_bust(s) and s.pool == 3 and len(s.throw) == 6
    assert rules.at_risk(s) == 1 and rules.next_pool(s) == 3 + 2  # Ideas from both halves
    assert events[0].text == "Ada (Venture Capitalist): back the throw: 3 dice ignoring Bugs, then 3 more counting Bugs."
    # The two throws are told apart, each with its own tally (never merged into one).
    assert events[1].text == ("Ada throws twice, 3 dice each (Venture Capitalist): "
                              "throw 1: 0 Bugs, 1 Idea, 0 Progress (2 Bugs ignored); "
                              "throw 2: 1 Bug, 1 Idea, 1 Progress; +1 at risk (1 this turn).")
    assert events[1].data["ignoring"] == 3 and events[1].data["thrown"] == [1, 1, 2, 4, 1, 3]
    assert [(caption, [d.face for d in dice]) for caption, dice in rules.throw_parts(s)] == [
        ("Throw 1 · 3 dice, Bugs ignored", [1, 1, 2]), ("Throw 2 · 3 dice, Bugs count", [4, 1, 3])]


def test_venture_capitalist_when_pressing_on_and_both_halves_score():
    s = after_throw(game("mathematician", "venture_capitalist"), [2, 5, 5])  # 1 Idea, 2 Progress
    assert ("venture_capitalist", 1) in kinds(s)
    s, events = go(s, VentureCapitalist(by=1), 1, 1, 2, 4, 1, 4, 4, 3)
    assert s.pool == 4 and len(s.throw) == 8
    assert rules.at_risk(s) == 2 + 1 + 2 and rules.next_pool(s) == 4 + 2
    assert str(events[0].text).startswith("Ada presses on with 2 at risk") and events[1].kind == "power"


def test_venture_capitalist_throw_busts_only_on_the_second_half():
    s, _ = go(game("venture_capitalist"), VentureCapitalist(by=0), 1, 1, 1, 1, 1, 5)
    assert s.phase == "world"


def test_venture_capitalist_not_on_a_bust_or_in_the_world_phase():
    s = after_throw(game("venture_capitalist", "rationalist"), [1, 1, 4])
    refused(s, VentureCapitalist(by=0), match="right before a throw")


def test_media_liaison_before_roll_makes_the_result_stop():
    s = game("media_liaison", "programmer").model_copy(update={"phase": "world"})
    assert kinds(s) == {("roll_d12", None), ("media_liaison", 0)}
    s, events = go(s, MediaLiaison(by=0), 11)  # Bad, +Dice: normally roll again
    assert (s.world, s.phase, s.pool) == (1, "start", 4)
    assert "stop (Media Liaison)" in events[1].text
    assert events[1].data["liaison"] and events[1].data["stop"]


def test_media_liaison_after_roll_stops_on_the_last_result():
    s = game("media_liaison", "programmer", media_liaison_timing="after_roll").model_copy(update={"phase": "world"})
    assert kinds(s) == {("roll_d12", None)}
    refused(s, MediaLiaison(by=0), match="Roll the d12 first")
    s, _ = go(s, RollD12(), 8)
    assert ("media_liaison", 0) in kinds(s)
    s, events = go(s, MediaLiaison(by=0))
    assert (s.phase, s.pool, s.current) == ("start", 4, 1)
    assert events[0].text == "Ada (Media Liaison): the d12's 8 also counts as Stop." and events[0].data["face"] == 8


def test_powers_offered_only_when_usable():
    s = game(*rules.ROLES)
    assert kinds(s) == {("roll", None), ("mathematician", 1), ("venture_capitalist", 4)}
    s = after_throw(s, [1, 2, 5])
    assert kinds(s) == {("stop", None), ("press_on", None), ("venture_capitalist", 4),
                        ("rationalist", 0), ("computer_scientist", 2), ("programmer", 3)}
    s = s.model_copy(update={"phase": "world"})
    assert kinds(s) == {("roll_d12", None), ("media_liaison", 5)}


def test_power_of_another_role_refused():
    s = after_throw(game("mathematician", "programmer"), [1, 1, 4])
    refused(s, Rationalist(by=1), match="Bea is the Programmer, not the Rationalist")


# --- Chance nodes: every throw is declared --------------------------------------------------------


def chances(state: State, action, *faces: int) -> list:
    """The rolls an action declares, answered with scripted dice (every face used)."""
    dice = ScriptedDice(faces)
    rules.apply(state, action, dice)
    assert dice.faces == []
    return dice.chances


def test_the_d6_is_entered_as_bug_idea_progress_and_the_d12_by_its_faces():
    assert rules.D6.choices() == [("Bug (1)", 1), ("Idea (2–3)", 2), ("Progress (4–6)", 4)]
    for label, value in rules.D6.choices():
        symbol = rules.d6_symbol(value)
        assert label.startswith(symbol)
        assert rules.D6.probability(label) == {"Bug": odds.P_BUG, "Idea": odds.P_IDEA, "Progress": odds.P_PROGRESS}[symbol]
    # A face without Stop says so on its button (and wherever an entered face is named).
    assert [label for label, _ in rules.D12.choices()] == [
        "1 Stop", "2 Stop", "3 Stop", "4 Bad, no Stop", "5 Bad, no Stop", "6 +Dice Stop", "7 +Dice Stop",
        "8 +Dice, no Stop", "9 Bad Stop", "10 Bad Stop", "11 Bad +Dice, no Stop", "12 Bad +Dice Stop"]


def test_the_first_throw_declares_the_pool_who_rolls_and_the_bust_chance():
    [c] = chances(game("mathematician"), Roll(), 4, 4, 4)
    assert (c.count, c.die, c.who) == (3, rules.D6, "Ada")
    assert c.text == "3 d6 for Ada's first throw: 2 or more Bugs bust; 0 or 1 Bug: no bust"
    assert [o.probability for o in c.outcomes] == [float(odds.bust_chance(3)), 1 - float(odds.bust_chance(3))]


def test_pressing_on_declares_the_grown_pool_and_what_a_bust_loses():
    s = after_throw(game("mathematician"), [2, 3, 5], risk_before_throw=2)
    [c] = chances(s, PressOn(), 4, 4, 4, 4, 4)
    assert (c.count, c.why) == (5, "Ada's throw, pressing on")
    assert c.outcomes[0].label == "2 or more Bugs bust, losing 3 at risk"
    assert c.outcomes[0].probability == float(odds.bust_chance(5))


def test_the_venture_capitalist_throw_is_two_chances():
    first, second = chances(game("venture_capitalist"), VentureCapitalist(by=0), 1, 1, 1, 4, 4, 4)
    assert (first.count, first.why) == (3, "Ada's Venture Capitalist throw 1 of 2, ignoring Bugs")
    assert [(o.label, o.probability) for o in first.outcomes] == [("can't bust (Bugs ignored)", 1.0)]
    assert (second.count, second.why) == (3, "Ada's Venture Capitalist throw 2 of 2, counting Bugs")
    assert second.outcomes[0].probability == float(odds.bust_chance(3))


def test_rerolls_are_declared_with_their_own_bust_chance():
    table = game("rationalist", "programmer", "computer_scientist")
    s = after_throw(table, [1, 1, 2, 3, 5])
    [c] = chances(s, Rationalist(by=0), 4, 4, 4, 4, 4)
    assert (c.count, c.why, c.who) == (5, "the Rationalist reroll of all 5 dice", "Ada")
    assert c.outcomes[0].probability == float(odds.bust_chance(5))
    [c] = chances(s, Programmer(by=1), 4, 4)
    assert (c.count, c.why) == (2, "the Programmer reroll of 2 Bug dice")
    assert c.outcomes[0].probability == float(odds.bust_chance(2))
    [c] = chances(after_throw(table, [1, 2, 3, 5]), ComputerScientist(by=2), 1, 1)
    assert c.count == 2 and [o.probability for o in c.outcomes] == [1.0]


def test_the_rationalist_rerolls_a_venture_throw_as_its_two_halves():
    s, _ = go(game("venture_capitalist", "rationalist"), VentureCapitalist(by=0), 1, 1, 1, 4, 2, 5)
    first, second = chances(s, Rationalist(by=1), 1, 1, 1, 4, 4, 4)
    assert str(first.why).endswith("throw 1, the 3 that ignore Bugs") and [o.probability for o in first.outcomes] == [1.0]
    assert str(second.why).endswith("throw 2, the 3 that count Bugs")
    assert second.outcomes[0].probability == float(odds.bust_chance(3))


def test_the_world_d12_is_declared_with_exclusive_outcomes():
    s = game("mathematician", "media_liaison").model_copy(update={"phase": "world", "world": 7})
    [c] = chances(s, RollD12(), 1)
    assert (c.count, c.die, c.who, c.why) == (1, rules.D12, "Ada", "the world's roll")
    assert [(o.label, o.probability) for o in c.outcomes] == [
        ("Bad: the world wins", 6 / 12), ("Stop, no Bad: the world phase ends", 5 / 12), ("+Dice only, no Stop — roll again", 1 / 12)]
    [c] = chances(s.model_copy(update={"world": 2}), MediaLiaison(by=1), 8)
    assert [(o.label, o.probability) for o in c.outcomes] == [
        ("Bad: world 3 of 8", 6 / 12), ("Stop, no Bad: the world phase ends", 6 / 12)]


def test_a_physical_table_is_asked_for_each_venture_capitalist_throw_in_turn():
    state = CampaignState(game=game("venture_capitalist").model_dump(mode="json"))
    state = step(GAME, state, SetPhysicalDice(on=True), PhysicalDice()).state
    done = step(GAME, state, VentureCapitalist(by=0), PhysicalDice())
    assert done.state.pending.chance.why == "Ada's Venture Capitalist throw 1 of 2, ignoring Bugs" and done.dice == []
    done = step(GAME, done.state, GiveDice(faces=[1, 1, 2]), PhysicalDice())
    assert done.state.pending.chance.why == "Ada's Venture Capitalist throw 2 of 2, counting Bugs"
    done = step(GAME, done.state, GiveDice(faces=[4, 1, 4]), PhysicalDice())
    assert done.state.pending is None and [d.value for d in done.dice] == [4, 1, 4]
    s = State.model_validate(done.state.game)
    assert [d.face for d in s.throw] == [1, 1, 2, 4, 1, 4] and not rules.is_bust(s) and rules.at_risk(s) == 2


def test_the_game_tells_what_dice_an_action_needs():
    s = after_throw(game("mathematician"), [2, 3, 5])
    assert GAME.chance_for(s, PressOn()).count == 5
    assert GAME.chance_for(s, Stop()) is None
    assert GAME.chance_for(s, RollD12()) is None  # refused now


# --- Legal moves ------------------------------------------------------------------------------------


def test_moves_are_the_legal_actions_with_the_words_of_their_buttons():
    s = after_throw(game("mathematician", "programmer", "rationalist"), [2, 3, 5], risk_before_throw=2)
    moves = GAME.legal_moves(s)
    ready = [m for m in moves if m.why_not is None]
    assert [m.action for m in ready] == rules.legal_actions(s) and all(m.ready for m in moves)
    assert {m.kind: m.label for m in ready} == {
        "press_on": "Press on with 5 dice", "stop": "Stop and bank 3", "rationalist": "Cy (Rationalist): reroll all 3 dice"}
    # Unspent powers that can't act now are listed greyed out, with the reason why_not gives.
    assert {m.kind: m.why_not for m in moves if m.why_not} == {
        "mathematician": "The Mathematician acts before a turn's first throw.",
        "programmer": "This throw has no Bugs to reroll."}
    for m in moves:
        assert GAME.why_not(s, m.action) == m.why_not


def test_move_labels_of_every_step():
    s = game(*rules.ROLES).model_copy(update={"pool": 5})
    labels = {m.kind: m.label for m in GAME.legal_moves(s) if m.why_not is None}
    assert labels == {"roll": "Roll 5 dice", "mathematician": "Bea (Mathematician): Ada starts with only 1 die",
                      "venture_capitalist": "Eve (Venture Capitalist): roll 5 dice ignoring Bugs + 5 more"}
    s = after_throw(s, [1, 1, 2])
    labels = {m.kind: m.label for m in GAME.legal_moves(s) if m.why_not is None}
    assert labels == {"take_bust": "Take the bust (lose 0)", "rationalist": "Ada (Rationalist): reroll all 3 dice",
                      "programmer": "Dee (Programmer): reroll the 2 Bug dice"}
    s = s.model_copy(update={"phase": "world"})
    labels = {m.kind: m.label for m in GAME.legal_moves(s) if m.why_not is None}
    assert labels == {"roll_d12": "Roll the d12", "media_liaison": "Fay (Media Liaison): roll the d12, it counts as Stop"}
    after = game("media_liaison", "programmer", media_liaison_timing="after_roll").model_copy(
        update={"phase": "world", "world_rolls": [rules.WorldRoll(face=8)]})
    assert rules.move_label(after, MediaLiaison(by=0)) == "Ada (Media Liaison): the 8 counts as Stop"
    s = after_throw(game("computer_scientist"), [2, 3, 5])
    assert rules.move_label(s, ComputerScientist(by=0)) == "Ada (Computer Scientist): reroll the 2 Idea dice, Bugs ignored"


def test_spent_powers_and_a_finished_game_offer_nothing():
    s = game("rationalist").model_copy(update={"powers_used": [True]})
    assert [m.kind for m in GAME.legal_moves(s)] == ["roll"]
    assert GAME.legal_moves(s.model_copy(update={"phase": "over", "team": 25})) == []


# --- What the view reads -----------------------------------------------------------------------------


def test_start_pool_words():
    s = game("mathematician")
    assert rules.start_pool_words(s) == "3 to start"
    assert rules.start_pool_words(s.model_copy(update={"pool": 5})) == "3 + 2 owed by the world"
    assert rules.start_pool_words(s.model_copy(update={"pool": 1})) == "the Mathematician's 1 die"


def test_researcher_result_in_the_world_phase():
    s = after_throw(game("mathematician"), [4, 5, 2], risk_before_throw=3)
    assert rules.researcher_result(go(s, Stop())[0]) == (False, 5)
    s = after_throw(game("mathematician"), [4, 4, 2], risk_before_throw=3)
    assert rules.researcher_result(go(s, PressOn(), 1, 1, 4, 4)[0]) == (True, 5)


def test_world_rows_give_the_running_score_and_dice_owed():
    s = game("mathematician", "programmer").model_copy(update={"phase": "world", "world": 5})
    for face in (8, 11, 4):
        s, _ = go(s, RollD12(), face)
    assert [(r.roll.face, r.symbols, r.world, r.extra, r.again) for r in rules.world_rows(s)] == [
        (8, ("+Dice",), 5, 1, True), (11, ("Bad", "+Dice"), 6, 2, True), (4, ("Bad",), 7, 2, True)]
    s, _ = go(s, RollD12(), 11)  # the world reaches 8: this +Dice is not given, and nothing is rolled again
    assert rules.world_rows(s)[-1][2:] == (8, 2, False) and s.owed == 2


def test_a_d12_result_without_stop_says_roll_again():
    s = game("mathematician", "media_liaison").model_copy(update={"phase": "world"})
    s, events = go(s, RollD12(), 8)
    assert events[0].text == "d12 shows 8: +Dice → next player +1 die (1 owed); no Stop — roll again."
    s, events = go(s, RollD12(), 2)
    assert events[0].text == "d12 shows 2: Stop → stop." and [r.again for r in rules.world_rows(s)] == [True, False]
    # The Media Liaison's Stop is a Stop: nothing is rolled again.
    s = game("mathematician", "media_liaison").model_copy(update={"phase": "world"})
    s, events = go(s, MediaLiaison(by=1), 4)
    assert [r.again for r in rules.world_rows(s)] == [False] and "roll again" not in events[1].text


def test_setup_offers_only_the_roles_still_free():
    assert rules.free_roles([]) == rules.ROLES
    assert rules.free_roles(["rationalist", "media_liaison"]) == (
        "mathematician", "computer_scientist", "programmer", "venture_capitalist")
    # Beyond six players roles repeat, but only once all six are in play.
    assert rules.free_roles(rules.ROLES) == rules.ROLES
    assert rules.free_roles(["rationalist"] * 2 + ["programmer"]) == (
        "mathematician", "computer_scientist", "venture_capitalist", "media_liaison")
    # Whatever is offered, the settings accept.
    for others in ([], ["programmer"], list(rules.ROLES[:5]), list(rules.ROLES), list(rules.ROLES) + ["rationalist"]):
        for role in rules.free_roles(others):
            players = [Player(name=f"P{i}", role=r) for i, r in enumerate([*others, role])]
            Settings(players=players)


# --- Bad input -----------------------------------------------------------------------------------------------


def test_physical_d6_outside_1_to_6_refused():
    s = game("mathematician")
    refused(s, Roll(), InputError, "1 to 6", dice=SeededDice(1, 0, entered=[3, 7, 2]))


def test_physical_d12_outside_1_to_12_refused():
    s = game("mathematician").model_copy(update={"phase": "world"})
    refused(s, RollD12(), InputError, "1 to 12", dice=SeededDice(1, 0, entered=[13]))


def test_physical_dice_used_when_typed():
    s, _ = rules.apply(game("mathematician"), Roll(), SeededDice(1, 0, entered=[6, 6, 6]))
    assert [d.face for d in s.throw] == [6, 6, 6]


def test_player_index_out_of_range_refused():
    s = after_throw(game("rationalist", "programmer"), [1, 1, 4])
    refused(s, Rationalist(by=2), InputError, "numbered 0 to 1")
    refused(s, Rationalist(by=-1), InputError, "numbered 0 to 1")


def test_actions_out_of_their_step_refused():
    s = game("mathematician")
    refused(s, PressOn(), match="after a throw")
    refused(s, Stop(), match="after a throw")
    refused(s, RollD12(), match="world phase")
    refused(s, TakeBust(), match="two or more Bugs")
    s = after_throw(s, [4, 4, 4])
    refused(s, Roll(), match="first throw has been made")


# --- Views, JSON, contract ----------------------------------------------------------------------------------


def test_json_round_trip_of_state_and_actions():
    s = game(*rules.ROLES, media_liaison_timing="after_roll")
    s, _ = go(s, VentureCapitalist(by=4), 1, 2, 3, 4, 5, 6)
    s, _ = go(s, ComputerScientist(by=2), 1, 1)
    assert State.model_validate_json(s.model_dump_json()) == s
    for action in rules.legal_actions(s) + [Roll(), RollD12(), TakeBust()]:
        data = GAME.dump_action(action)
        assert GAME.parse_action(data) == action


def test_describe_headline_outcome():
    assert rules.describe(PressOn()) == "press on"
    assert rules.describe(Rationalist(by=0)) == "Rationalist power (player 1)"
    s = game("mathematician")
    assert rules.headline(s) == "Turn 1 · Ada · 3 dice to roll"
    s, _ = go(s, Roll(), 4, 5, 2)
    assert rules.headline(s) == "Turn 1 · Ada · 2 at risk"
    assert GAME.key == "save_the_singularity" and GAME.title == "Save the Singularity"


def test_the_score_history_comes_from_the_events_not_the_state():
    """Team and world at the end of each turn (the end chart) are read from the logged events: the
    state keeps no history, so it doesn't grow turn after turn."""
    s, logged = game("mathematician", "programmer"), []
    for action, faces in ((Roll(), (4, 4, 2)), (Stop(), ()), (RollD12(), (4,)), (RollD12(), (1,)),  # turn 1: 2, world 1
                          (Roll(), (1, 1, 4)), (TakeBust(), ()), (RollD12(), (9,))):  # turn 2: bust, world 2
        s, events = go(s, action, *faces)
        logged += events
    assert "history" not in State.model_fields and "history" not in s.model_dump()
    assert rules.score_history(logged) == [rules.ScorePoint(turn=0, team=0, world=0),
                                           rules.ScorePoint(turn=1, team=2, world=1),
                                           rules.ScorePoint(turn=2, team=2, world=2)]
    assert [e.data["team"] for e in logged if e.kind == "turn"] == [2, 2]
    # An older save's turn events carry no scores: the bank and world-roll events give them.
    older = [e.model_copy(update={"data": {k: v for k, v in e.data.items() if k not in ("team", "world")}})
             if e.kind == "turn" else e for e in logged]
    assert rules.score_history(e.model_dump(mode="json") for e in older) == rules.score_history(logged)


def test_an_old_save_with_its_history_in_the_state_still_loads():
    """States saved before the history left the state hold it: it is dropped on load (the log's replay
    compares states as today's code writes them), never refused as an unknown field."""
    s = game("mathematician")
    old = s.model_dump(mode="json") | {"history": [{"turn": 0, "team": 0, "world": 0}]}
    assert State.model_validate(old) == s
    with pytest.raises(ValidationError):
        State.model_validate(s.model_dump(mode="json") | {"histories": []})  # other unknown fields still refused
    # An old log, every state with its history, replays: its states are compared as today's code writes them.
    settings = s.settings.model_dump(mode="json")
    state = CampaignState(game=s.model_dump(mode="json"))
    entries = [{"seq": 0, "action": {}, "dice": [], "state": old_state(state)}]
    for action, faces in ((Roll(), [4, 4, 2]), (Stop(), []), (RollD12(), [1])):
        done = step(GAME, state, action, SeededDice(1, len(entries), entered=faces))
        state = done.state
        entries.append({"seq": len(entries), "action": GAME.dump_action(action), "dice": [d.to_json() for d in done.dice],
                        "state": old_state(state)})
    assert "history" in entries[-1]["state"]["game"] and replay(GAME, settings, entries).ok


def old_state(state: CampaignState) -> dict:
    data = state.model_dump(mode="json")
    return data | {"game": data["game"] | {"history": [{"turn": 0, "team": 0, "world": 0}]}}


def test_apply_never_mutates_its_input():
    s = game("rationalist", "programmer")
    before = s.model_dump_json()
    rules.apply(s, Roll(), ScriptedDice([1, 1, 4]))
    assert s.model_dump_json() == before


# --- Random legal play -----------------------------------------------------------------------------------------


@st.composite
def tables(draw):
    count = draw(st.integers(1, 8))
    roles = list(rules.ROLES)
    order = draw(st.permutations(roles))
    chosen = list(order[:count]) + [draw(st.sampled_from(roles)) for _ in range(count - 6)]
    return Settings(
        players=[Player(name=NAMES[i], role=r) for i, r in enumerate(chosen)],
        max_pool=draw(st.integers(3, 12)),
        media_liaison_timing=draw(st.sampled_from(["before_roll", "after_roll"])),
    )


@hsettings(max_examples=40)
@given(table=tables(), seed=st.integers(0, 2**32), picks=st.lists(st.integers(0, 1000), min_size=300, max_size=300))
def test_random_legal_play_keeps_the_invariants_and_replays(table, seed, picks):
    state = rules.new_state(table)
    log, logged = [], []
    uses = [0] * len(table.players)
    size = len(state.model_dump_json())
    for n, pick in enumerate(picks):
        legal = rules.legal_actions(state)
        if not legal:
            break
        action = legal[pick % len(legal)]
        before = state.model_dump_json()
        new, events = rules.apply(state, action, SeededDice(seed, n))
        assert state.model_dump_json() == before and events
        assert all(e.kind != "text" for e in events)
        if hasattr(action, "by"):
            uses[action.by] += 1
        log.append((action, new))
        logged += events
        state = new
        # The chart's points come from the events: one at each turn's end and at the game's end.
        kinds = {e.kind for e in events}
        if kinds & {"turn", "game_end"}:
            ended = state.turn if "game_end" in kinds else state.turn - 1
            assert rules.score_history(logged)[-1] == rules.ScorePoint(turn=ended, team=state.team, world=state.world)
        # Nothing in the state grows with the log (the throw and the world phase's rolls are bounded).
        assert len(state.model_dump_json()) <= size + 1200
        # Invariants
        assert state.team >= 0 and state.world >= 0 and rules.at_risk(state) >= 0
        assert 1 <= state.pool <= table.max_pool <= 12
        assert all(u <= 1 for u in uses) and [u == 1 for u in uses] == state.powers_used
        reached = state.team >= rules.team_target(state) or state.world >= rules.world_target(state)
        assert (state.phase == "over") == reached == (rules.outcome(state) is not None)
        assert State.model_validate_json(state.model_dump_json()) == state
    # Replaying the log with the same dice gives the same states.
    replay = rules.new_state(table)
    for n, (action, stored) in enumerate(log):
        replay, _ = rules.apply(replay, GAME.parse_action(GAME.dump_action(action)), SeededDice(seed, n))
        assert replay == stored


def test_undo_labels_name_the_player_using_a_power():
    s = game("venture_capitalist", "rationalist")
    assert GAME.label(s, VentureCapitalist(by=0)) == "Ada's Venture Capitalist power"
    assert GAME.label(s, Rationalist(by=1)) == "Bea's Rationalist power"
    assert GAME.label(s, Roll()) == "roll the dice"
