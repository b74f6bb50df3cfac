"""Human Ethos rules (RULES.md §5): threat and awareness, moves, encounters, attacks, the enemy
phase (attack check, moves, splitting, merging, ties), win and loss, and the story campaign."""

from pathlib import Path

import pytest
from pydantic import ValidationError

from companion.dice import ScriptedDice
from companion.games.base import InputError, RuleError
from companion.games.human_ethos.enemies import DEFAULT_ENEMY_TYPES, EnemyType, token_faces
from companion.games.human_ethos.hexmap import Board, Hex, HexMap, Space, from_label, make_wall, parse_map_json
from companion.games.human_ethos.rules import (
    GAME,
    Adjust,
    AbandonIssue,
    Attack,
    ChangeSettings,
    Choose,
    EnemyGroup,
    EnemyPhase,
    Move,
    NextMap,
    Placement,
    SetEnemyType,
    Settings,
    Spawn,
    StartIssue,
    State,
    Team,
    Unlock,
    apply,
    arcade_offer,
    attack_targets,
    default_order,
    describe,
    headline,
    legal_actions,
    move_targets,
    moves,
    new_state,
    option_at,
    outcome,
    placement_spaces,
    plan_move,
)

from tests.games.human_ethos_fixtures import HOST, NANO, RHINO, TYPES

SAMPLE = Path(__file__).resolve().parents[2] / "assets" / "human_ethos_sample_map.json"



def H(q, r=None) -> Hex:
    """H(3, 4) axial, or H("C4") by board name."""
    return Hex.of(from_label(q)) if isinstance(q, str) else Hex(q=q, r=r)


def axial_map(size=9, specials=None, walls=(), areas=None, drop=()) -> HexMap:
    """Open parallelogram q, r in 0..size-1: the neighbours of (q, r) are ±(1,0), ±(0,1), ±(1,-1)."""
    specials = {(0, 0): "start", (size - 1, size - 1): "end", **(specials or {})}
    areas = areas or (lambda c: "")
    spaces = [
        Space(q=q, r=r, special=specials.get((q, r)), area=areas((q, r)))
        for q in range(size)
        for r in range(size)
        if (q, r) not in drop
    ]
    return HexMap(name="test map", spaces=spaces, walls=[make_wall(a, b) for a, b in walls])


def corridor(n=7, areas=None, specials=None) -> HexMap:
    specials = {(0, 0): "start", (n - 1, 0): "end", **(specials or {})}
    areas = areas or {}
    return HexMap(name="corridor", spaces=[Space(q=q, r=0, special=specials.get((q, 0)), area=areas.get(q, "")) for q in range(n)])


def setup(m, members=("Max",), at=None, groups=(), settings=None, track=20, threat=0, awareness=0, **kw) -> State:
    s = State(settings=settings or Settings(**kw), enemy_types=list(TYPES))
    s, _ = apply(s, StartIssue(map=m, track=track, threat=threat, awareness=awareness, members=list(members)), ScriptedDice([]))
    s = s.model_copy(deep=True)
    for member in s.issue.members:
        if at and member.name in at:
            member.at = H(*at[member.name])
    for enemy, c, n in groups:
        s.issue.groups.append(EnemyGroup(enemy=enemy, at=H(*c), count=n))
    return s


def act(s, action):
    return apply(s, action, ScriptedDice([]))


def texts(events) -> list[str]:
    return [e.text for e in events]


def groups(s):
    return sorted((g.enemy, g.at.c, g.count) for g in s.issue.groups)


def refused(s, action, exc, match):
    before = s.model_dump_json()
    with pytest.raises(exc, match=match):
        act(s, action)
    assert s.model_dump_json() == before


def sample_map() -> HexMap:
    return parse_map_json(SAMPLE.read_text())


# =============================================================================================
# Setup and the contract
# =============================================================================================


def test_game_contract():
    assert GAME.key == "human_ethos" and GAME.title == "The Singularity War: Human Ethos"
    s = new_state(Settings())
    assert s.issue is None and [t.name for t in s.enemy_types] == ["Nanobots", "Hosts", "Drakens", "Alphas", "Rhinos"]
    assert all(t.placeholder and "PLACEHOLDER" in t.setup for t in DEFAULT_ENEMY_TYPES)
    assert legal_actions(s) == ["start_issue", "set_enemy_type", "unlock", "change_settings"]
    assert headline(s) == "Story mode · issue #1 next" and outcome(s) is None
    assert Settings() == Settings(mode="story", leave_threat="per_move", hazard_trigger="end_of_turn",
                                  tie_break="players_choose", cache_reveal="3", line_of_sight="generous")
    assert GAME.moves is not None and GAME.rolls_dice is False


def test_start_issue_places_team_and_face_down_tokens():
    s, ev = act(new_state(Settings()), StartIssue(number=1, map=sample_map(), track=20, threat=2, awareness=3,
                                                  members=["Max", "Ana"]))
    i = s.issue
    assert [m.at for m in i.members] == [H("A3"), H("A3")]
    assert [(t.at, t.tier, t.status) for t in i.tokens] == [
        (H("C2"), "common", "face_down"), (H("D5"), "common", "face_down"), (H("F2"), "elite", "face_down")]
    assert (i.threat, i.awareness, i.track) == (2, 3, 20)
    assert "sample map" in ev[1].text and "placeholders" in ev[2].text
    assert headline(s) == "Issue #1 · Turn 1 · Max · threat 2 / awareness 3 of 20"


def test_start_issue_refusals_change_nothing():
    s = new_state(Settings())
    no_start = axial_map(specials={(0, 0): None})
    refused(s, StartIssue(map=no_start, track=20, members=["Max"]), InputError, "exactly one Start")
    refused(s, StartIssue(map=sample_map(), track=10, threat=6, awareness=4, members=["Max"]), InputError, "below the track length 10")
    refused(s, StartIssue(map=sample_map(), track=10, members=["Max", "Max"]), InputError, "distinct names")
    refused(s, StartIssue(number=2, map=sample_map(), track=10, members=["Max"]), RuleError, "locked")


def test_tokens_in_the_start_area_are_revealed_at_once():
    m = corridor(areas={0: "Home", 1: "Home"}, specials={(1, 0): "common"})
    s = setup(m)
    assert s.issue.tokens[0].status == "revealed" and s.issue.tokens[0].encountered_by == "Max"
    assert legal_actions(s)[0] == "spawn"


# =============================================================================================
# The player's turn
# =============================================================================================


def test_move_up_to_the_card_value_along_wall_free_steps():
    s = setup(axial_map(), at={"Max": (3, 3)})
    s2, ev = act(s, Move(member="Max", to=H(3, 5), move=2))
    assert s2.issue.members[0].at == H(3, 5) and s.issue.members[0].at == H(3, 3)  # input untouched
    assert "(2 of 2)" in ev[0].text
    refused(s, Move(member="Max", to=H(3, 6), move=2), RuleError, "3 spaces away by that route; the card moves at most 2")
    walled = setup(axial_map(walls=[((3, 3), (3, 4))]), at={"Max": (3, 3)})
    refused(walled, Move(member="Max", to=H(3, 4), via=[], move=1), RuleError, "2 spaces away")
    refused(walled, Move(member="Max", to=H(3, 5), via=[H(3, 4)], move=3), RuleError, "a wall is in the way")
    assert move_targets(walled, "Max", 1).keys() == {H(4, 2), H(4, 3), H(2, 4), H(2, 3), H(3, 2)}


def test_others_in_the_space_may_come_along_but_no_one_else():
    s = setup(axial_map(), members=("Max", "Ana", "Kim"), at={"Kim": (1, 1)})
    s2, ev = act(s, Move(member="Max", to=H(0, 2), move=2, with_members=["Ana"]))
    assert [m.at for m in s2.issue.members] == [H(0, 2), H(0, 2), H(1, 1)]
    assert str(ev[0].text).startswith("Max and Ana move")
    refused(s, Move(member="Max", to=H(0, 2), move=2, with_members=["Kim"]), RuleError, "not in Max's space")
    refused(s, Move(member="Max", to=H(0, 2), move=2, with_members=["Zed"]), InputError, "No team member")
    refused(s, Move(member="Max", to=H(20, 20), move=2), InputError, "not a space")


@pytest.mark.parametrize("setting,members,expected", [("per_move", 1, 4), ("per_move", 2, 4), ("per_member", 2, 8), ("per_member", 1, 4)])
def test_leaving_a_space_with_two_enemy_types_raises_threat_by_4(setting, members, expected):
    team = ("Max", "Ana")[:members]
    s = setup(axial_map(), members=team, at={n: (3, 3) for n in team}, leave_threat=setting,
              groups=[("Nanobots", (3, 3), 3), ("Hosts", (3, 3), 1)])
    s2, ev = act(s, Move(member="Max", to=H(3, 4), move=1, with_members=list(team[1:])))
    assert s2.issue.threat == expected
    assert "leaving" in ev[1].text and "Hosts and Nanobots there (+2 per enemy type" in ev[1].text


def test_leave_threat_counts_every_space_left_on_the_way():
    s = setup(axial_map(), at={"Max": (3, 3)}, groups=[("Nanobots", (3, 3), 1), ("Hosts", (3, 4), 2)])
    s2, ev = act(s, Move(member="Max", to=H(4, 4), via=[H(3, 4)], move=2))
    assert s2.issue.threat == 4 and ev[0].text == "Max moves D5 → D6 → E7 (2 of 2)."  # +2 leaving each
    # With no route given, the app takes a shortest route costing the least threat: via (4,3), E6.
    s3, ev = act(s, Move(member="Max", to=H(4, 4), move=2))
    assert s3.issue.threat == 2 and ev[0].text == "Max moves D5 → E6 → E7 (2 of 2)."


def test_hazard_at_end_of_turn_counts_once_for_two_characters():
    m = axial_map(specials={(3, 3): "hazard"})
    s = setup(m, members=("Max", "Ana"), at={"Max": (3, 4), "Ana": (3, 4)})
    s, ev = act(s, Move(member="Max", to=H(3, 3), move=1, with_members=["Ana"]))
    assert s.issue.threat == 0 and len(ev) == 1  # default: not on entering
    s, ev = act(s, EnemyPhase())
    assert s.issue.threat == 4 and any("Max and Ana end the turn on the hazard" in e.text and "once for the space" in e.text for e in ev)


def test_hazard_on_enter_and_both_settings():
    m = axial_map(specials={(3, 3): "hazard"})
    s = setup(m, at={"Max": (3, 4)}, hazard_trigger="on_enter")
    s, ev = act(s, Move(member="Max", to=H(3, 3), move=1))
    assert s.issue.threat == 4 and "moving into the hazard" in ev[1].text
    s, _ = act(s, EnemyPhase())
    assert s.issue.threat == 4
    both = setup(m, at={"Max": (3, 4)}, hazard_trigger="both")
    both, _ = act(both, Move(member="Max", to=H(3, 3), move=1))
    both, _ = act(both, EnemyPhase())
    assert both.issue.threat == 8


def test_a_card_may_waive_the_hazard():
    m = axial_map(specials={(3, 3): "hazard"})
    for trigger in ("end_of_turn", "on_enter", "both"):
        s = setup(m, at={"Max": (3, 4)}, hazard_trigger=trigger)
        s, _ = act(s, Move(member="Max", to=H(3, 3), move=1, waive_hazard=True))
        s, ev = act(s, EnemyPhase())
        assert s.issue.threat == 0, trigger
    # The waiver lasts for the turn it was played: the next turn's end counts again.
    s, _ = act(s, EnemyPhase())
    assert s.issue.threat == 4


def test_entering_an_area_reveals_its_tokens_and_asks_for_placement():
    m = axial_map(areas=lambda c: "West" if c[0] < 3 else "East", specials={(5, 1): "common", (6, 6): "elite"})
    s = setup(m, members=("Max", "Ana"), at={"Max": (2, 0)})
    s, ev = act(s, Move(member="Max", to=H(4, 0), via=[H(3, 0)], move=2))
    assert s.issue.members[0].at == H(3, 0)  # stops where the area begins
    assert "Max enters area East" in ev[1].text and "(Max is the encountering player)" in ev[1].text
    assert "stop at D2" in ev[2].text and "remaining 1 space" in ev[2].text
    assert [t.status for t in s.issue.tokens] == ["revealed", "revealed"]
    assert legal_actions(s)[:2] == ["spawn", "adjust"]
    refused(s, Move(member="Ana", to=H(0, 1), move=1), RuleError, "Place the enemies")
    refused(s, EnemyPhase(), RuleError, "Place the enemies")
    refused(s, Spawn(token=0, face="Nanobots", groups=[Placement(enemy="Nanobots", at=H(1, 1), count=2)]), RuleError, "within the token's area East")
    refused(s, Spawn(token=0, face="Nanobots", groups=[Placement(enemy="Goblins", at=H(5, 1), count=2)]), InputError, "Unknown enemy type")
    assert H(1, 1) not in placement_spaces(s, 0) and H(8, 8) in placement_spaces(s, 0)
    s, ev = act(s, Spawn(token=0, face="Nanobots", groups=[Placement(enemy="Nanobots", at=H(5, 1), count=2),
                                                         Placement(enemy="Nanobots", at=H(5, 2), count=1)]))
    assert "shows Nanobots: 2 Nanobots on" in ev[0].text and "1 Nanobot on" in ev[0].text
    refused(s, Spawn(token=0, face="Nanobots"), InputError, "not waiting")
    s, _ = act(s, Spawn(token=1, face="Alphas", groups=[
        Placement(enemy="Rhinos", at=H(6, 6), count=1), Placement(enemy="Nanobots", at=H(5, 1), count=1)]))
    assert groups(s) == [("Nanobots", (5, 1), 3), ("Nanobots", (5, 2), 1), ("Rhinos", (6, 6), 1)]  # one group per type and space
    assert "move" in legal_actions(s)
    assert "Alphas + common encounter" in token_faces("elite")


@pytest.mark.parametrize("face", ["Rhinos + common encounter", "Alphas + common encounter"])
def test_an_elite_token_with_a_common_encounter_asks_for_that_encounter_too(face):
    """Issue #30: "Rhinos + common encounter" placed only the Rhino. The token also spawns a common
    encounter (RULES.md §5; the box's "Rhinos + Common En."): the table draws a common token, and the
    app asks what it shows and where its enemies go, within the same area, like any revealed token."""
    m = axial_map(areas=lambda c: "West" if c[0] < 3 else "East", specials={(6, 6): "elite"})
    s = setup(m, members=("Max", "Ana"), at={"Max": (2, 0)})
    s, _ = act(s, Move(member="Max", to=H(3, 0), move=1))
    s, ev = act(s, Spawn(token=0, face=face, groups=[Placement(enemy="Rhinos", at=H(6, 6), count=1)]))
    assert [(t.tier, t.status, t.from_elite, t.area, t.encountered_by) for t in s.issue.tokens] == [
        ("elite", "resolved", False, "East", "Max"), ("common", "revealed", True, "East", "Max")]
    assert legal_actions(s)[0] == "spawn"
    assert "draw a common encounter token" in ev[-1].text
    refused(s, Move(member="Ana", to=H(0, 1), move=1), RuleError, "Place the enemies")
    assert H(5, 1) in placement_spaces(s, 1) and H(1, 1) not in placement_spaces(s, 1)
    s, ev = act(s, Spawn(token=1, face="Hosts", groups=[Placement(enemy="Hosts", at=H(5, 1), count=2)]))
    assert groups(s) == [("Hosts", (5, 1), 2), ("Rhinos", (6, 6), 1)]
    assert [t.status for t in s.issue.tokens] == ["resolved", "resolved"] and "move" in legal_actions(s)
    # A plain elite token brings nothing more.
    s = setup(m, members=("Max",), at={"Max": (2, 0)})
    s, _ = act(s, Move(member="Max", to=H(3, 0), move=1))
    s, _ = act(s, Spawn(token=0, face="Rhinos", groups=[Placement(enemy="Rhinos", at=H(6, 6), count=1)]))
    assert len(s.issue.tokens) == 1 and "move" in legal_actions(s)


def test_a_token_outside_any_area_is_revealed_on_its_own_space():
    s = setup(corridor(specials={(3, 0): "common"}), at={"Max": (1, 0)})
    s, ev = act(s, Move(member="Max", to=H(2, 0), move=1))
    assert s.issue.tokens[0].status == "face_down"
    s, ev = act(s, Move(member="Max", to=H(3, 0), move=1))
    assert s.issue.tokens[0].status == "revealed" and "space D2" in ev[1].text


def test_a_cache_works_once_and_reminds_the_procedure():
    m = axial_map(specials={(3, 3): "cache"})
    s = setup(m, members=("Max", "Ana"), at={"Max": (3, 4)})
    s, ev = act(s, Move(member="Max", to=H(3, 3), move=1))
    assert "reveal the top 3 upgrade cards" in ev[1].text and s.issue.used_caches == [H(3, 3)]
    s, _ = act(s, Move(member="Max", to=H(3, 4), move=1))
    s, ev = act(s, Move(member="Max", to=H(3, 3), move=1))
    assert len(ev) == 1 and s.issue.used_caches == [H(3, 3)]
    per = setup(m, members=("Max", "Ana"), at={"Max": (3, 4)}, cache_reveal="per_player")
    _, ev = act(per, Move(member="Max", to=H(3, 3), move=1))
    assert "reveal 2 upgrade cards (one per player)" in ev[1].text


def test_attack_removes_enemies_in_range_respecting_health_within_the_turn():
    s = setup(axial_map(), at={"Max": (3, 3)}, groups=[("Rhinos", (3, 5), 2), ("Nanobots", (3, 4), 3)])
    assert attack_targets(s, "Max", 1) == [1] and attack_targets(s, "Max", 2) == [0, 1]
    s, ev = act(s, Attack(member="Max", at=H(3, 5), enemy="Rhinos", damage=2, range=2))
    assert groups(s)[1] == ("Rhinos", (3, 5), 2) and s.issue.groups[0].damage == 2
    assert "0 Rhinos removed; 2 damage stays" in ev[0].text
    s, ev = act(s, Attack(member="Max", at=H(3, 5), enemy="Rhinos", damage=2, range=3))
    assert groups(s)[1] == ("Rhinos", (3, 5), 1) and s.issue.groups[0].damage == 1
    assert "2 already taken this turn" in ev[0].text and "1 Rhino removed" in ev[0].text
    s, ev = act(s, Attack(member="Max", at=H(3, 4), enemy="Nanobots", damage=5, range=1))
    assert groups(s) == [("Rhinos", (3, 5), 1)] and "3 Nanobots removed; the group is gone" in ev[0].text
    s, ev = act(s, EnemyPhase())
    assert "The 1 damage on Rhinos at D7 wears off" in ev[0].text


def test_attack_refusals():
    s = setup(axial_map(walls=[((3, 3), (3, 4))]), at={"Max": (3, 3)}, groups=[("Nanobots", (3, 4), 1), ("Rhinos", (6, 3), 1)])
    refused(s, Attack(member="Max", at=H(3, 4), enemy="Nanobots", damage=1, range=1), RuleError, "without crossing a wall")
    refused(s, Attack(member="Max", at=H(6, 3), enemy="Rhinos", damage=1, range=2), RuleError, "range 3 from Max; the card reaches 2")
    refused(s, Attack(member="Max", at=H(6, 3), enemy="Hosts", damage=1, range=3), RuleError, "no Hosts")
    s2, _ = act(s, Attack(member="Max", at=H(3, 4), enemy="Nanobots", damage=1, range=1, ignore_walls=True))
    assert groups(s2) == [("Rhinos", (6, 3), 1)]


def test_manual_threat_and_awareness_with_a_reason():
    s = setup(axial_map(), threat=3, awareness=2)
    s, ev = act(s, Adjust(track="awareness", delta=1, reason="It's Closing In"))
    assert s.issue.awareness == 3 and texts(ev) == ["Awareness +1: It's Closing In. Now threat 3 + awareness 3 of 20."]
    s, ev = act(s, Adjust(track="threat", delta=-5, reason="Smoke screen"))
    assert s.issue.threat == 0 and "stopped at 0" in ev[0].text
    refused(s, Adjust(track="threat", delta=0, reason="x"), InputError, "-60 to \\+60")
    with pytest.raises(ValidationError):
        GAME.parse_action({"kind": "adjust", "track": "threat", "delta": 99, "reason": "x"})


# =============================================================================================
# The enemy phase
# =============================================================================================

# Group at (1,1), Max at (3,3): 4 steps. One step along a shortest route reaches (1,2) or (2,1);
# two steps reach (1,3), (2,2) or (3,1). Nanobots move 1, Hosts move 2.
SPLITS = [
    ("Nanobots", 1, [{(1, 2): 1}, {(2, 1): 1}]),
    ("Nanobots", 2, [{(1, 2): 1, (2, 1): 1}]),
    ("Nanobots", 3, [{(1, 2): 2, (2, 1): 1}, {(1, 2): 1, (2, 1): 2}]),
    ("Nanobots", 5, [{(1, 2): 3, (2, 1): 2}, {(1, 2): 2, (2, 1): 3}]),
    ("Hosts", 1, [{(1, 3): 1}, {(2, 2): 1}, {(3, 1): 1}]),
    ("Hosts", 2, [{(1, 3): 1, (2, 2): 1}, {(1, 3): 1, (3, 1): 1}, {(2, 2): 1, (3, 1): 1}]),
    ("Hosts", 3, [{(1, 3): 1, (2, 2): 1, (3, 1): 1}]),
    ("Hosts", 5, [{(1, 3): 2, (2, 2): 2, (3, 1): 1}, {(1, 3): 2, (2, 2): 1, (3, 1): 2}, {(1, 3): 1, (2, 2): 2, (3, 1): 2}]),
]


@pytest.mark.parametrize("enemy,count,options", SPLITS)
def test_split_as_evenly_as_possible_over_equally_short_routes(enemy, count, options):
    s = setup(axial_map(), at={"Max": (3, 3)}, groups=[(enemy, (1, 1), count)])
    board = Board.of(s.issue.map)
    plan = plan_move(board, Team.of(s.issue, board), s.issue.groups[0], next(t for t in TYPES if t.name == enemy))
    assert [{p.at.c: p.count for p in o.parts} for o in plan.options] == options
    s2, ev = act(s, EnemyPhase())
    if len(options) == 1:
        assert s2.issue.pending is None and groups(s2) == sorted((enemy, c, n) for c, n in options[0].items())
        routes = "two" if enemy == "Nanobots" else "three"
        assert any(f"{routes} equally short routes to Max" in e.text for e in ev)
    else:  # the rules leave which space gets the extra miniature(s) to the players
        assert s2.issue.pending is not None and len(s2.issue.pending.options) == len(options)
        assert legal_actions(s2)[0] == "choose" and s2.issue.turn == 1
        s3, ev = act(s2, Choose(option=len(options) - 1))
        assert groups(s3) == sorted((enemy, c, n) for c, n in options[-1].items())
        assert s3.issue.turn == 2 and s3.issue.pending is None


def test_the_issue_example_step_in_words():
    s = setup(axial_map(), at={"Max": (3, 3)}, groups=[("Nanobots", (1, 1), 3)])
    s, _ = act(s, EnemyPhase())
    s, ev = act(s, Choose(option=0))
    assert ev[1].text == "2 Nanobots B2 → B3, 1 Nanobot B2 → C3: two equally short routes to Max (4 spaces away)."


def test_choose_refuses_a_missing_option_and_only_works_on_a_tie():
    s = setup(axial_map(), at={"Max": (3, 3)}, groups=[("Nanobots", (1, 1), 1)])
    refused(s, Choose(option=0), RuleError, "no tie")
    s, _ = act(s, EnemyPhase())
    refused(s, Choose(option=2), InputError, r"2 options, 1 to 2 \(got 3\)")
    refused(s, Move(member="Max", to=H(3, 4), move=1), RuleError, "waiting for the players")


def test_groups_must_move_closer_and_go_around_walls():
    s = setup(axial_map(walls=[((3, 3), (4, 3))]), at={"Max": (5, 3)}, groups=[("Nanobots", (3, 3), 2)])
    s, ev = act(s, EnemyPhase())
    assert groups(s) == [("Nanobots", (3, 4), 1), ("Nanobots", (4, 2), 1)]
    board = Board.of(s.issue.map)
    assert all(board.distances(g.at.c)[(5, 3)] == 2 for g in s.issue.groups)  # 3 away before, 2 after


def test_a_group_next_to_a_member_attacks_then_moves_into_its_space():
    s = setup(axial_map(), at={"Max": (4, 3)}, groups=[("Nanobots", (3, 3), 2)])
    s, ev = act(s, EnemyPhase())
    assert s.issue.threat == 1 and groups(s) == [("Nanobots", (4, 3), 2)]
    assert "Threat +1: 2 Nanobots on D5 have Max in range 1 (once per group)" in ev[1].text
    s, ev = act(s, EnemyPhase())
    assert s.issue.threat == 2 and groups(s) == [("Nanobots", (4, 3), 2)]
    assert "2 Nanobots on E6 stay put: already in Max's space." in texts(ev)


def test_a_walled_off_group_stays_and_cannot_attack_through_the_wall():
    box = [((0, 8), (0, 7)), ((0, 8), (1, 7)), ((0, 8), (1, 8))]
    s = setup(axial_map(walls=box, specials={(3, 3): None}), at={"Max": (0, 7)}, groups=[("Nanobots", (0, 8), 4)])
    s, ev = act(s, EnemyPhase())
    assert s.issue.threat == 0 and groups(s) == [("Nanobots", (0, 8), 4)]
    assert "4 Nanobots on A9 stay put: no wall-free route leads to any team member." in texts(ev)


def test_threat_once_per_group_whatever_the_members_in_range_and_stays_rule():
    s = setup(axial_map(), members=("Max", "Ana"), at={"Max": (3, 3), "Ana": (3, 4)},
              groups=[("Turrets", (3, 6), 3), ("Rhinos", (6, 0), 1)])
    s, ev = act(s, EnemyPhase())
    assert s.issue.threat == 2  # Turrets (range 3) see both: +2 once; the Rhinos are out of range
    assert any("have Max and Ana in range 3 (once per group)" in e.text for e in ev)
    assert ("Turrets", (3, 6), 3) in groups(s) and "3 Turrets on D8 stay put: its card says it does not move." in texts(ev)


def test_groups_of_one_type_merge_at_the_end_of_the_phase():
    s = setup(corridor(), at={"Max": (4, 0)},
              groups=[("Nanobots", (3, 0), 2), ("Nanobots", (5, 0), 1), ("Nanobots", (4, 0), 1), ("Hosts", (2, 0), 1)])
    s, ev = act(s, EnemyPhase())
    assert groups(s) == [("Hosts", (4, 0), 1), ("Nanobots", (4, 0), 4)]  # different types stay apart
    assert "Nanobots on E3 merge into one group of 3." in texts(ev) and "Nanobots on E3 merge into one group of 4." in texts(ev)
    assert all(not g.acted for g in s.issue.groups)


def test_each_miniature_moves_once_even_into_a_group_that_has_not_moved():
    s = setup(corridor(), at={"Max": (6, 0)}, groups=[("Nanobots", (2, 0), 2), ("Nanobots", (3, 0), 1)])
    s, _ = act(s, EnemyPhase(order=[0, 1]))  # the pair moves into the single's space first
    assert groups(s) == [("Nanobots", (3, 0), 2), ("Nanobots", (4, 0), 1)]
    refused(setup(corridor(), groups=[("Nanobots", (2, 0), 2)]), EnemyPhase(order=[1]), InputError, "group number 0 to 0")


def test_default_order_is_closest_first():
    s = setup(corridor(), at={"Max": (6, 0)}, groups=[("Nanobots", (1, 0), 1), ("Hosts", (5, 0), 1), ("Nanobots", (4, 0), 1)])
    assert default_order(s) == [1, 2, 0]
    _, ev = act(s, EnemyPhase())
    assert ev[0].text == "Enemy phase, in this order: 1 Host F3, 1 Nanobot E3, 1 Nanobot B1."


def _two_targets(**kw):
    # Max straight ahead (one route, through (3,4)); Ana diagonally (two routes: (3,4) or (4,3)).
    return setup(axial_map(), members=("Max", "Ana"), at={"Max": (3, 5), "Ana": (4, 4)},
                 groups=[("Nanobots", (3, 3), 2)], **kw)


def test_equally_close_members_are_the_players_choice():
    s, ev = act(_two_targets(), EnemyPhase())
    p = s.issue.pending
    assert p is not None and "Max and Ana are equally close" in p.question
    assert [o.label for o in p.options] == ["2 to D6 (toward Max)", "1 to D6, 1 to E6 (toward Ana)"]
    s, ev = act(s, Choose(option=1))
    assert groups(s) == [("Nanobots", (3, 4), 1), ("Nanobots", (4, 3), 1)]


def test_a_tap_on_the_map_picks_the_option_sending_the_most_there():
    s, _ = act(setup(axial_map(), at={"Max": (3, 3)}, groups=[("Nanobots", (1, 1), 3)]), EnemyPhase())
    p = s.issue.pending  # 2 to (1,2) and 1 to (2,1), or the other way round
    assert option_at(p, (1, 2)) == 0 and option_at(p, (2, 1)) == 1
    with pytest.raises(InputError, match="No option sends enemies there"):
        option_at(p, (0, 0))
    s, _ = act(_two_targets(), EnemyPhase())  # "2 to D6 (toward Max)" or "1 to D6, 1 to E6 (toward Ana)"
    assert option_at(s.issue.pending, from_label("D6")) == 0 and option_at(s.issue.pending, from_label("E6")) == 1


def test_a_tap_that_does_not_tell_the_options_apart_is_refused():
    s, _ = act(setup(axial_map(), at={"Max": (3, 3)}, groups=[("Hosts", (1, 1), 2)]), EnemyPhase())
    p = s.issue.pending  # two of three spaces get one each: (1,3) is in options 1 and 2 alike
    with pytest.raises(InputError, match="options 1 and 2 alike"):
        option_at(p, (1, 3))


def test_ties_are_numbered_from_1_in_words_and_in_the_undo_label():
    s, ev = act(_two_targets(), EnemyPhase())
    assert "Options: 1: 2 to D6 (toward Max); 2: 1 to D6, 1 to E6 (toward Ana)." in ev[-1].text
    s, ev = act(s, Choose(option=1))
    assert ev[0].text == "Players' choice 2: 1 to D6, 1 to E6 (toward Ana)."
    assert describe(Choose(option=1)) == "enemy tie: option 2"


def test_the_players_may_change_the_enemy_order():
    s = setup(axial_map(), members=("Max",), at={"Max": (4, 4)},
              groups=[("Nanobots", (4, 2), 1), ("Hosts", (0, 4), 1)])
    assert default_order(s) == [0, 1]
    _, ev = act(s, EnemyPhase())
    assert str(ev[0].text).startswith("Enemy phase, in this order: 1 Nanobot")
    _, ev = act(s, EnemyPhase(order=[1, 0]))
    assert str(ev[0].text).startswith("Enemy phase, in the players' order: 1 Host")
    refused(s, EnemyPhase(order=[1, 1]), InputError, "each group number")


@pytest.mark.parametrize("tie_break,expected", [
    ("generous", [("Nanobots", (3, 4), 2)]),  # one group left in range of the team
    ("smart", [("Nanobots", (3, 4), 1), ("Nanobots", (4, 3), 1)]),  # two groups in range next time
])
def test_generous_and_smart_settings_pick_the_tie(tie_break, expected):
    s, ev = act(_two_targets(tie_break=tie_break), EnemyPhase())
    assert s.issue.pending is None and groups(s) == expected
    assert any(f"Tie ({tie_break} setting): of 2 options" in e.text for e in ev)


def test_end_of_turn_passes_to_the_next_player():
    s = setup(axial_map(), members=("Max", "Ana"))
    s, ev = act(s, EnemyPhase())
    assert (s.issue.turn, s.issue.active) == (2, 1) and str(ev[-1].text).endswith("Turn 2: Ana's turn.")
    s, _ = act(s, EnemyPhase())
    assert (s.issue.turn, s.issue.active) == (3, 0)


# --- golden enemy phases on the sample map (checked by hand against the drawn map) -------------


def test_golden_sample_map_first_encounter():
    types = [NANO, HOST]
    s = State(settings=Settings(), enemy_types=types)
    s, _ = act(s, StartIssue(number=1, map=sample_map(), track=20, threat=2, awareness=3, members=["Max", "Ana"]))
    s, ev = act(s, Move(member="Max", to=H("C3"), move=3))
    assert ev[0].text == "Max moves A3 → B3 → C3 (2 of 3)."  # through the door in the B|C wall
    s, _ = act(s, Spawn(token=0, face="Nanobots", groups=[Placement(enemy="Nanobots", at=H("C2"), count=3)]))
    s, _ = act(s, Spawn(token=1, face="Hosts", groups=[Placement(enemy="Hosts", at=H("D5"), count=2)]))
    s, ev = act(s, EnemyPhase())
    assert texts(ev) == [
        "Enemy phase, in this order: 3 Nanobots C2, 2 Hosts D5.",
        "Threat +1: 3 Nanobots on C2 have Max in range 1 (once per group). Now threat 3 + awareness 3 of 20.",
        "3 Nanobots C2 → C3: the shortest route to Max (1 space away).",
        # D5 to C3 is 3 steps (via D4 or C5, then C4 or D3): after 2 steps, C4 or D3.
        "1 Host D5 → C4, 1 Host D5 → D3: two equally short routes to Max (3 spaces away).",
        "Refill your hand to 3 cards (enter any awareness change, e.g. It's Closing In). Turn 2: Ana's turn.",
    ]
    s, ev = act(s, EnemyPhase())
    assert texts(ev)[1:5] == [
        "Threat +1: 3 Nanobots on C3 have Max in range 1 (once per group). Now threat 4 + awareness 3 of 20.",
        "3 Nanobots on C3 stay put: already in Max's space.",
        "1 Host C4 → C3: the shortest route to Max (1 space away).",
        "1 Host D3 → C3: the shortest route to Max (1 space away).",
    ]
    assert "Hosts on C3 merge into one group of 2." in texts(ev)
    assert groups(s) == [("Hosts", from_label("C3"), 2), ("Nanobots", from_label("C3"), 3)]


def on_sample_map(at: dict[str, str], groups: list[tuple[str, str, int]]) -> State:
    """Issue #1 on the sample map with the team and enemies placed by hand (tokens cleared)."""
    s = State(settings=Settings(), enemy_types=[NANO, RHINO])
    s, _ = act(s, StartIssue(number=1, map=sample_map(), track=20, members=list(at)))
    s = s.model_copy(deep=True)
    for m in s.issue.members:
        m.at = H(at[m.name])
    s.issue.tokens = []
    s.issue.groups = [EnemyGroup(enemy=e, at=H(c), count=n) for e, c, n in groups]
    return s


def test_golden_sample_map_split_tie_and_wall():
    s = on_sample_map({"Max": "C4"}, [("Nanobots", "D2", 3), ("Rhinos", "E3", 1)])
    s, ev = act(s, EnemyPhase())
    # D2 reaches C4 in 2 steps via C3 or D3: 3 Nanobots split 2/1; which space gets 2 is the players' call.
    assert s.issue.pending.options[0].label == "2 to C3, 1 to D3"
    assert s.issue.pending.options[1].label == "1 to C3, 2 to D3"
    assert s.issue.queue == [0, 1]
    s, ev = act(s, Choose(option=1))
    assert ev[1].text == "1 Nanobot D2 → C3, 2 Nanobots D2 → D3: two equally short routes to Max (2 spaces away)."
    # The Rhino on E3 is 2 from C4 in a line (through D3), but the D3–E3 wall is in the way: no threat;
    # its route goes round through the door at D5–E5: E3 → E4 → E5 → D5 → D4 → C4.
    assert s.issue.threat == 0
    assert ev[2].text == "1 Rhino E3 → E4: the shortest route to Max (5 spaces away)."


def test_golden_sample_map_range_down_a_column_doors_and_the_hazard():
    s = on_sample_map({"Max": "D3", "Ana": "D3"}, [("Rhinos", "D5", 1), ("Nanobots", "F3", 2)])  # D3: the hazard
    s, ev = act(s, EnemyPhase())
    assert texts(ev) == [
        "Enemy phase, in this order: 1 Rhino D5, 2 Nanobots F3.",
        # D5 → D4 → D3 is a straight line down column D with no wall: range 2, the Rhino's range.
        "Threat +3: 1 Rhino on D5 has Max and Ana in range 2 (once per group). Now threat 3 + awareness 0 of 20.",
        "1 Rhino D5 → D4: the shortest route to Max and Ana (2 spaces away).",
        # The D|E walls leave two doors, D1–E1 and D5–E5: F3 → E4 or F4 → E5 → D5 → D4 → D3 is 5,
        # the north way 6. One step along either first space: one Nanobot each.
        "1 Nanobot F3 → E4, 1 Nanobot F3 → F4: two equally short routes to Max and Ana (5 spaces away).",
        "Threat +4: Max and Ana end the turn on the hazard at D3 (once for the space). Now threat 7 + awareness 0 of 20.",
        "Refill your hand to 3 cards (enter any awareness change, e.g. It's Closing In). Turn 2: Ana's turn.",
    ]


# =============================================================================================
# Win, loss and the story campaign
# =============================================================================================


def _end_game(**kw):
    m = corridor(n=4, areas={0: "Yard", 1: "Yard", 2: "Vault", 3: "Vault"})
    return setup(m, members=("Max", "Ana"), at={"Max": (2, 0), "Ana": (3, 0)}, **kw)


def test_win_when_every_member_is_on_end_and_its_area_is_clear():
    s = _end_game(groups=[("Nanobots", (2, 0), 1), ("Hosts", (0, 0), 1)])
    s, ev = act(s, Move(member="Max", to=H(3, 0), move=1))
    assert outcome(s) is None  # a Nanobot is still in the End's area
    s, ev = act(s, Attack(member="Max", at=H(2, 0), enemy="Nanobots", damage=1, range=1))
    assert outcome(s) == "Won issue #1"  # the Host outside the area doesn't matter
    assert "is won" in ev[-2].text and ev[-1].text == "Story: issue #2 is unlocked (same team and decks)."
    assert s.campaign.unlocked_issue == 2 and s.campaign.records[0].wins == 1
    assert legal_actions(s)[0] == "start_issue" and headline(s) == "Issue #1 · Turn 1 · won"
    refused(s, Move(member="Max", to=H(2, 0), move=1), RuleError, "No issue is being played")


def test_no_win_while_a_member_is_elsewhere():
    s = _end_game()
    s, _ = act(s, Move(member="Ana", to=H(2, 0), move=1))
    assert outcome(s) is None
    s, _ = act(s, Move(member="Max", to=H(3, 0), move=1))
    assert outcome(s) is None
    s, _ = act(s, Move(member="Ana", to=H(3, 0), move=1))
    assert outcome(s) == "Won issue #1"


def test_loss_when_threat_meets_awareness_not_before():
    s = _end_game(threat=10, awareness=8)
    s1, _ = act(s, Adjust(track="threat", delta=1, reason="Alarm"))
    assert outcome(s1) is None and s1.issue.threat + s1.issue.awareness == 19
    s2, ev = act(s1, Adjust(track="awareness", delta=3, reason="It's Closing In"))
    assert outcome(s2) == "Lost issue #1" and (s2.issue.threat, s2.issue.awareness) == (11, 9)
    assert "stopped where the markers meet" in ev[0].text and "is lost" in ev[1].text
    assert s2.campaign.records[0].losses == 1 and s2.campaign.unlocked_issue == 1


def test_loss_in_the_middle_of_the_enemy_phase_stops_it():
    s = setup(corridor(), at={"Max": (3, 0)}, threat=19, groups=[("Nanobots", (2, 0), 1), ("Hosts", (6, 0), 1)])
    s, ev = act(s, EnemyPhase())
    assert outcome(s) == "Lost issue #1" and s.issue.threat == 20
    assert groups(s) == [("Hosts", (6, 0), 1), ("Nanobots", (2, 0), 1)]  # nobody moved after the loss
    assert s.issue.queue == [] and s.issue.pending is None


def test_story_issues_in_order_and_retries():
    s = new_state(Settings())
    m = corridor(n=2)
    s, _ = act(s, StartIssue(number=1, map=m, track=10, members=["Max"]))
    s, _ = act(s, Adjust(track="awareness", delta=10, reason="test loss"))
    refused(s, StartIssue(number=2, map=m, track=10, members=["Max"]), RuleError, "locked")
    s, _ = act(s, StartIssue(number=1, map=m, track=10, members=["Max"]))
    s, _ = act(s, Move(member="Max", to=H(1, 0), move=1))
    assert s.campaign.records[0].model_dump() == {"issue": 1, "wins": 1, "losses": 1}
    s, _ = act(s, StartIssue(number=2, map=m, track=10, members=["Max"]))
    refused(s, StartIssue(number=2, map=m, track=10, members=["Max"]), RuleError, "still being played")
    s, ev = act(s, AbandonIssue())
    assert s.issue is None and "not counted" in ev[0].text and len(s.campaign.records) == 1


def test_unlocks_and_arcade_mode():
    s = new_state(Settings(mode="arcade"))
    s, ev = act(s, Unlock(what="enemy", name="Drakens"))
    s, _ = act(s, Unlock(what="card", name="Plasma Rifle"))
    assert s.campaign.unlocked_enemies == ["Drakens"] and s.campaign.unlocked_cards == ["Plasma Rifle"]
    refused(s, Unlock(what="enemy", name="Drakens"), RuleError, "already unlocked")
    s, _ = act(s, StartIssue(number=7, map=corridor(n=2), track=10, members=["Max"]))  # arcade: any map
    s, _ = act(s, Move(member="Max", to=H(1, 0), move=1))
    assert s.campaign.arcade_wins == 1 and s.campaign.records == [] and s.campaign.unlocked_issue == 1


def test_arcade_offers_the_box_enemies_and_the_unlocked_ones_with_cards():
    s = new_state(Settings())  # a story campaign may play arcade games with what it unlocked
    s, _ = act(s, Unlock(what="enemy", name="Sentinels"))
    s, _ = act(s, Unlock(what="card", name="Plasma Rifle"))
    assert arcade_offer(s) == ["Nanobots", "Hosts", "Drakens", "Alphas", "Rhinos"]
    refused(s, StartIssue(map=corridor(3), track=10, members=["Max"], mode="arcade", enemies=["Sentinels"]),
            InputError, "enter its enemy card first")
    refused(s, StartIssue(map=corridor(3), track=10, members=["Max"], enemies=["Nanobots"]),
            InputError, "arcade")
    s, _ = act(s, SetEnemyType(enemy=EnemyType(name="Sentinels", threat=2, range=2, health=2, move=1)))
    assert arcade_offer(s)[-1] == "Sentinels"
    s, ev = act(s, StartIssue(map=corridor(4, areas={2: "Gate"}, specials={(2, 0): "common"}), track=10, members=["Max"],
                              mode="arcade", enemies=["Nanobots", "Sentinels"]))
    assert s.issue.pool == ["Nanobots", "Sentinels"] and str(headline(s)).startswith("Arcade · Turn 1")
    assert "Arcade enemies: Nanobots and Sentinels. Unlocked cards to shuffle in: Plasma Rifle." in texts(ev)
    s, _ = act(s, Move(member="Max", to=H(1, 0), move=1))
    s2, _ = act(s, Move(member="Max", to=H(2, 0), move=1))  # into the Gate: its token turns up
    refused(s2, Spawn(token=0, face="Hosts", groups=[Placement(enemy="Hosts", at=H(2, 0), count=1)]),
            RuleError, "not in this arcade game")
    s2, _ = act(s2, Spawn(token=0, face="Nanobots", groups=[Placement(enemy="Sentinels", at=H(2, 0), count=1)]))
    assert groups(s2) == [("Sentinels", (2, 0), 1)]


def test_an_arcade_run_plays_several_maps_in_a_row():
    s = new_state(Settings(mode="arcade"))
    first, second = corridor(2), corridor(3)
    refused(s, StartIssue(map=first, track=10, members=["Max"], more_maps=[HexMap(name="bad", spaces=[Space(q=0, r=0)])]),
            InputError, "Start")
    s, _ = act(s, StartIssue(map=first, track=10, threat=2, members=["Max", "Ana"], more_maps=[second]))
    s, _ = act(s, Adjust(track="threat", delta=3, reason="test"))
    s, _ = act(s, Move(member="Max", to=H(1, 0), move=1, with_members=["Ana"]))
    assert s.issue.phase == "won" and s.campaign.arcade_wins == 1 and outcome(s) == "Won arcade map corridor"
    assert "next_map" in legal_actions(s)
    s, ev = act(s, NextMap())
    assert s.issue.map == second and s.issue.threat == 2 and [m.name for m in s.issue.members] == ["Max", "Ana"]
    assert s.issue.more_maps == [] and describe(NextMap()) == "next arcade map"
    s, ev = act(s, Adjust(track="threat", delta=8, reason="test"))
    assert s.issue.phase == "lost" and s.campaign.arcade_losses == 1 and "Arcade: the run ends here." in texts(ev)
    refused(s, NextMap(), RuleError, "arcade map with more maps")


def test_enemy_cards_are_entered_and_bad_stats_refused():
    s = new_state(Settings())
    s, ev = act(s, SetEnemyType(enemy=EnemyType(name="Nanobots", threat=1, range=1, health=1, move=2)))
    nano = s.enemy_types[0]
    assert (nano.move, nano.placeholder) == (2, False) and str(ev[0].text).startswith("Nanobots: threat 1, range 1")
    s, _ = act(s, SetEnemyType(enemy=EnemyType(name="Sentinels", threat=3, range=2, health=2, move=0)))
    assert s.enemy_types[-1].name == "Sentinels"
    with pytest.raises(ValidationError):
        GAME.parse_action({"kind": "set_enemy_type", "enemy": {"name": "X", "threat": -1, "range": 1, "health": 1, "move": 1}})
    with pytest.raises(ValidationError):
        GAME.parse_action({"kind": "set_enemy_type", "enemy": {"name": "X", "threat": 1, "range": 1, "health": 0, "move": 1}})


def test_settings_can_change_between_turns():
    s, ev = act(new_state(Settings()), ChangeSettings(settings=Settings(tie_break="smart")))
    assert s.settings.tie_break == "smart" and texts(ev) == ["Settings: tie_break = smart."]
    refused(s, ChangeSettings(settings=Settings(tie_break="smart")), RuleError, "unchanged")


# =============================================================================================
# JSON and words
# =============================================================================================


def test_state_and_actions_round_trip_through_json():
    s, _ = act(_two_targets(), EnemyPhase())  # paused on a tie: the richest state
    assert State.model_validate_json(s.model_dump_json()) == s
    actions = [
        StartIssue(map=corridor(), track=12, members=["Max"]), Move(member="Max", to=H(1, 0), move=2, via=[]),
        Spawn(token=0, face="Hosts", groups=[Placement(enemy="Hosts", at=H(1, 0), count=2)]),
        Attack(member="Max", at=H(1, 0), enemy="Hosts", damage=1, range=1), Adjust(track="threat", delta=2, reason="r"),
        EnemyPhase(order=[1, 0]), Choose(option=1), SetEnemyType(enemy=NANO), Unlock(what="card", name="c"),
        ChangeSettings(settings=Settings()), AbandonIssue(),
    ]
    for a in actions:
        assert GAME.parse_action(GAME.dump_action(a)) == a
        assert describe(a)


def test_describe_words():
    assert describe(Adjust(track="awareness", delta=1, reason="It's Closing In")) == "awareness +1 (It's Closing In)"
    assert describe(Move(member="Max", to=H(1, 0), move=2)) == "move Max"
    assert describe(EnemyPhase()) == "enemy phase"


# =============================================================================================
# Line of sight (RULES.md §5 "Range")
# =============================================================================================

SNIPER = EnemyType(name="Snipers", threat=3, range=4, health=1, move=1, move_rule="stays")


def test_a_range_4_enemy_behind_a_wall_the_line_crosses_raises_no_threat():
    # From (0,0) to (3,1) the line crosses the middle of the edge (1,1)|(2,0): a wall there blocks it.
    for walls, threat in (([], 3), ([((1, 1), (2, 0))], 0)):
        s = setup(axial_map(walls=walls), at={"Max": (0, 0)}, groups=[("Snipers", (3, 1), 1)])
        s = s.model_copy(update={"enemy_types": [*TYPES, SNIPER]})
        s, ev = act(s, EnemyPhase())
        assert s.issue.threat == threat
        assert [e.kind for e in ev if e.kind == "track"] == (["track"] if threat else [])


def test_line_of_sight_setting_along_an_edge_for_attacks_and_the_attack_check():
    # (0,0) → (1,1) runs along the edge (1,0)|(0,1); a wall on one side: generous lets it through.
    for sight, expected in (("generous", [0]), ("strict", [])):
        s = setup(axial_map(walls=[((0, 0), (1, 0))]), at={"Max": (0, 0)}, groups=[("Rhinos", (1, 1), 1)],
                  line_of_sight=sight)
        assert attack_targets(s, "Max", 2) == expected
        attack = Attack(member="Max", at=H(1, 1), enemy="Rhinos", damage=3, range=2)
        if expected:
            assert act(s, attack)[1][0].data["range"] == 2
        else:
            refused(s, attack, RuleError, "without crossing a wall")
        s, _ = act(s, EnemyPhase())
        assert s.issue.threat == (3 if expected else 0)  # the Rhino's range-2 attack check


def test_line_of_sight_keeps_old_campaigns_valid():
    old = {"mode": "story", "leave_threat": "per_move", "hazard_trigger": "end_of_turn", "tie_break": "players_choose",
           "cache_reveal": "3"}  # settings saved before the setting existed
    assert Settings.model_validate(old).line_of_sight == "generous"
    # Saved states look exactly as before while it has its default, so old logs replay unchanged.
    assert Settings().model_dump(mode="json") == old
    assert Settings(line_of_sight="strict").model_dump(mode="json") == {**old, "line_of_sight": "strict"}
    s, ev = act(new_state(Settings(line_of_sight="strict")), ChangeSettings(settings=Settings()))
    assert s.settings.line_of_sight == "generous" and ev[0].data == {"changed": {"line_of_sight": "generous"}}


# =============================================================================================
# Typed events: every event has a kind and the data a view needs
# =============================================================================================


def test_every_event_is_typed_with_its_data():
    s = State(settings=Settings(), enemy_types=[NANO, HOST])
    s, ev = act(s, StartIssue(number=1, map=sample_map(), track=20, threat=2, awareness=3, members=["Max", "Ana"]))
    assert [e.kind for e in ev] == ["issue_started", "sample_map", "turn"]
    assert ev[0].data["start"] == "A3" and ev[0].data["members"] == ["Max", "Ana"] and ev[0].data["tokens"] == 3
    s, ev = act(s, Move(member="Max", to=H("C3"), move=3))
    assert [e.kind for e in ev] == ["move", "reveal"]
    assert ev[0].data == {"member": "Max", "members": ["Max"], "frm": "A3", "to": "C3", "path": ["A3", "B3", "C3"],
                          "steps": 2, "card": 3}
    assert ev[1].data["member"] == "Max" and [t["at"] for t in ev[1].data["tokens"]] == ["C2", "D5"]
    s, ev = act(s, Spawn(token=0, face="Nanobots", groups=[Placement(enemy="Nanobots", at=H("C2"), count=3)]))
    assert ev[0].kind == "spawn" and ev[0].data["placed"] == [{"enemy": "Nanobots", "at": "C2", "count": 3}]
    s, _ = act(s, Spawn(token=1, face="Hosts", groups=[Placement(enemy="Hosts", at=H("D5"), count=2)]))
    s, ev = act(s, EnemyPhase())
    assert [e.kind for e in ev] == ["enemy_phase", "track", "enemy_move", "enemy_move", "turn"]
    assert ev[0].data["order"] == [{"enemy": "Nanobots", "at": "C2", "count": 3}, {"enemy": "Hosts", "at": "D5", "count": 2}]
    assert ev[1].data == {"track": "threat", "amount": 1, "applied": 1, "cause": "in_range",
                          "group": {"enemy": "Nanobots", "at": "C2", "count": 3}, "members": ["Max"], "range": 1,
                          "threat": 3, "awareness": 3, "length": 20}
    assert ev[3].data == {"group": {"enemy": "Hosts", "at": "D5", "count": 2}, "frm": "D5",
                          "parts": [{"to": "C4", "count": 1}, {"to": "D3", "count": 1}], "split": True}
    assert ev[4].data == {"turn": 2, "member": "Ana"}
    s, ev = act(s, EnemyPhase())
    assert {"enemy_stays", "merge"} <= {e.kind for e in ev}
    assert next(e for e in ev if e.kind == "merge").data == {"enemy": "Hosts", "at": "C3", "count": 2}


def test_ties_choices_caches_hazards_and_the_end_are_typed():
    s, ev = act(_two_targets(), EnemyPhase())
    tie = ev[-1]
    assert tie.kind == "tie" and tie.data["options"] == ["2 to D6 (toward Max)", "1 to D6, 1 to E6 (toward Ana)"]
    assert tie.data["group"] == {"enemy": "Nanobots", "at": "D5", "count": 2}
    s, ev = act(s, Choose(option=1))
    assert ev[0].kind == "choice" and ev[0].data == {"option": 1, "number": 2, "label": "1 to D6, 1 to E6 (toward Ana)",
                                                     "by": "players"}
    _, ev = act(_two_targets(tie_break="smart"), EnemyPhase())
    assert next(e for e in ev if e.kind == "choice").data["by"] == "smart"

    m = axial_map(specials={(3, 3): "cache", (3, 5): "hazard"})
    s = setup(m, members=("Max", "Ana"), at={"Max": (3, 4)}, groups=[("Nanobots", (3, 4), 1)])
    s, ev = act(s, Move(member="Max", to=H(3, 3), move=1))
    assert [e.kind for e in ev] == ["move", "track", "cache"]
    assert ev[1].data["cause"] == "leave" and ev[1].data["space"] == "D6" and ev[1].data["enemies"] == ["Nanobots"]
    assert ev[2].data == {"space": "D5", "member": "Max", "reveal": 3}
    s, _ = act(s, Move(member="Max", to=H(3, 5), move=2, waive_hazard=True))
    s, ev = act(s, EnemyPhase())
    assert next(e for e in ev if e.kind == "hazard_waived").data == {"space": "D7", "members": ["Max"]}

    s = _end_game(threat=10, awareness=8)
    lost, ev = act(s, Adjust(track="awareness", delta=3, reason="It's Closing In"))
    assert [e.kind for e in ev] == ["track", "lost", "progress"]
    assert ev[0].data["cause"] == "card" and ev[0].data["reason"] == "It's Closing In"
    assert (ev[0].data["amount"], ev[0].data["applied"]) == (3, 2)
    won, ev = act(_end_game(), Move(member="Max", to=H(3, 0), move=1))
    assert [e.kind for e in ev] == ["move", "won", "progress"]
    assert ev[1].data == {"issue": "issue #1", "end": "D2", "members": ["Max", "Ana"]}
    assert ev[2].data == {"mode": "story", "won": True, "issue": 1, "unlocked": 2}


# =============================================================================================
# Legal moves: what may be done now, as data
# =============================================================================================


def by_kind(s) -> dict:
    out: dict = {}
    for m in moves(s):
        out.setdefault(m.kind, []).append(m)
    return out


def test_moves_before_an_issue_and_their_field_ranges():
    s = new_state(Settings())
    listed = by_kind(s)
    assert list(listed) == ["start_issue", "set_enemy_type", "unlock", "change_settings"]
    fields = {f.name: f for f in listed["start_issue"][0].fields}
    assert (fields["number"].low, fields["number"].high) == (1, 1)  # story: issue #1 is the one unlocked
    assert (fields["track"].low, fields["track"].high) == (2, 60) and fields["track"].label == "Spaces on the threat/awareness track"
    assert (fields["threat"].low, fields["threat"].high) == (0, 60)
    assert fields["enemies"].choices == ("Nanobots", "Hosts", "Drakens", "Alphas", "Rhinos")
    assert {f.name for f in listed["unlock"][0].fields} == {"what", "name"}


def test_moves_in_the_players_turn_and_the_greyed_out_ones():
    s = setup(axial_map(), members=("Max", "Ana"))
    listed = by_kind(s)
    assert [m.ready for m in listed["enemy_phase"]] == [True] and listed["enemy_phase"][0].action == EnemyPhase()
    move = {f.name: f for f in listed["move"][0].fields}
    assert move["member"].choices == ("Max", "Ana") and (move["move"].low, move["move"].high) == (1, 20)
    assert listed["attack"][0].why_not == "There are no enemies on the board to attack."
    assert GAME.why_not(s, Attack(member="Max", at=H(1, 1), enemy="Nanobots", damage=1, range=1)) == listed["attack"][0].why_not
    s = setup(axial_map(), at={"Max": (3, 3)}, groups=[("Rhinos", (3, 5), 2)])
    attack = {f.name: f for f in by_kind(s)["attack"][0].fields}
    assert attack["at"].choices == (H(3, 5),) and attack["enemy"].choices == ("Rhinos",)
    assert (attack["damage"].low, attack["damage"].high, attack["range"].low, attack["range"].high) == (1, 30, 0, 20)


def test_moves_while_tokens_wait_and_while_a_tie_waits():
    m = axial_map(areas=lambda c: "West" if c[0] < 3 else "East", specials={(5, 1): "common", (6, 6): "elite"})
    s, _ = act(setup(m, at={"Max": (2, 0)}), Move(member="Max", to=H(3, 0), move=1))
    listed = by_kind(s)
    assert [f.choices for f in listed["spawn"][0].fields if f.name == "token"] == [(0, 1)]
    for kind, action in (("move", Move(member="Max", to=H(2, 0), move=1)), ("enemy_phase", EnemyPhase())):
        assert listed[kind][0].why_not == "Place the enemies of the revealed encounter tokens first."
        assert GAME.why_not(s, action) == listed[kind][0].why_not
    s, _ = act(_two_targets(), EnemyPhase())
    listed = by_kind(s)
    assert [(m.label, m.action) for m in listed["choose"]] == [
        ("1: 2 to D6 (toward Max)", Choose(option=0)), ("2: 1 to D6, 1 to E6 (toward Ana)", Choose(option=1))]
    assert listed["enemy_phase"][0].why_not == "The enemy phase is waiting for the players to pick one of the options."
    assert all(GAME.why_not(s, m.action) is None for ms in listed.values() for m in ms if m.ready)


@pytest.mark.parametrize("tie_break", ["generous", "smart"])
def test_the_app_picks_a_tie_among_the_options_offered_to_the_players(tie_break):
    paused, _ = act(_two_targets(), EnemyPhase())
    offered = [m.action for m in moves(paused) if m.kind == "choose"]
    picked, ev = act(_two_targets(tie_break=tie_break), EnemyPhase())
    choice = next(e for e in ev if e.kind == "choice")
    assert Choose(option=choice.data["option"]) in offered
    by_hand, _ = act(paused, Choose(option=choice.data["option"]))
    assert groups(picked) == groups(by_hand)


def test_moves_after_an_arcade_win_offer_the_next_map():
    s = new_state(Settings(mode="arcade"))
    s, _ = act(s, StartIssue(map=corridor(2), track=10, members=["Max"], more_maps=[corridor(3)]))
    s, _ = act(s, Move(member="Max", to=H(1, 0), move=1))
    listed = by_kind(s)
    assert listed["next_map"][0].action == NextMap() and listed["next_map"][0].label == "Next map: corridor"
    assert "move" not in listed  # no issue is being played
