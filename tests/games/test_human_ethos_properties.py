"""Human Ethos property tests: random maps, random legal play.

Invariants: threat and awareness stay on the track (never past each other, never below 0), enemy
counts are never negative or zero, members and enemies stay on map spaces, the enemy phase
conserves miniatures and every move ends closer to the nearest team member, states round-trip
through JSON, `apply` never mutates its input, and replaying the actions gives the same states.
"""

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from companion.dice import SeededDice
from companion.games.base import Event
from companion.games.human_ethos.enemies import EnemyType
from companion.games.human_ethos.hexmap import Board, Hex, HexMap, Space, axial_of, hex_neighbours, make_wall
from companion.games.human_ethos.rules import (
    AbandonIssue,
    Adjust,
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
    legal_actions,
    move_targets,
    new_state,
    placement_spaces,
    plan_move,
)

from tests.games.human_ethos_fixtures import TYPES


@st.composite
def maps(draw) -> HexMap:
    cols, rows = draw(st.integers(3, 7)), draw(st.integers(3, 6))
    coords = [axial_of(c, r) for c in range(cols) for r in range(rows)]
    dropped = draw(st.sets(st.sampled_from(coords), max_size=len(coords) // 5))
    spaces = [c for c in coords if c not in dropped]
    present = set(spaces)
    edges = sorted({(a, b) for a in spaces for b in hex_neighbours(a) if b in present and a < b})
    walls = draw(st.sets(st.sampled_from(edges), max_size=len(edges) // 3)) if edges else set()
    bare = HexMap(name="random", spaces=[Space(q=q, r=r) for q, r in spaces], walls=[make_wall(a, b) for a, b in walls])
    start = draw(st.sampled_from(spaces))
    reach = sorted(set(Board.of(bare).distances(start)) - {start})
    assume(reach)  # a playable map: End reachable from Start
    end = draw(st.sampled_from(reach))
    specials = {start: "start", end: "end"}
    kinds = [None] * 6 + ["hazard", "cache", "common", "elite"]
    for c in spaces:
        if c not in specials:
            specials[c] = draw(st.sampled_from(kinds))
    bands = draw(st.sampled_from(["", "AB", "ABC"]))  # areas: vertical bands of columns

    def area(c):
        return bands[c[0] * len(bands) // cols] if bands else ""

    return HexMap(
        name="random",
        spaces=[Space(q=q, r=r, special=specials.get((q, r)), area=area((q, r))) for q, r in spaces],
        walls=bare.walls,
    )


def draw_action(data, s: State):
    """A random action that the legal-action list and the helpers say is allowed now."""
    kinds = legal_actions(s)
    weights = {"move": 5, "enemy_phase": 3, "attack": 3, "spawn": 2, "choose": 2, "adjust": 1, "start_issue": 1,
               "next_map": 3}
    pool = [k for k in kinds for _ in range(weights.get(k, 0))] or kinds
    # (rare events use a middle value: hypothesis favours 0 and the ends of a range)
    if "abandon_issue" in kinds and data.draw(st.integers(0, 40)) == 20:
        return AbandonIssue()
    if data.draw(st.integers(0, 25)) == 13:
        return draw_catalog(data, s)
    kind = data.draw(st.sampled_from(pool))
    issue = s.issue
    if kind == "next_map":
        return NextMap()
    if kind == "start_issue":
        track = data.draw(st.integers(6, 30))
        arcade = data.draw(st.integers(0, 3)) == 2
        return StartIssue(
            number=s.campaign.unlocked_issue, map=data.draw(maps()) if data.draw(st.booleans()) else issue.map,
            track=track, threat=data.draw(st.integers(0, 2)), awareness=data.draw(st.integers(0, 2)),
            members=data.draw(st.sampled_from([["Max"], ["Max", "Ana"], ["Max", "Ana", "Kim"]])),
            mode="arcade" if arcade else None,
            enemies=data.draw(st.lists(st.sampled_from(arcade_offer(s)), max_size=3)) if arcade else [],
            more_maps=data.draw(st.lists(maps(), max_size=2)) if arcade else [],
        )
    names = [m.name for m in issue.members]
    if kind == "move":
        who = data.draw(st.sampled_from(names))
        card = data.draw(st.integers(1, 4))
        targets = sorted(move_targets(s, who, card), key=lambda h: h.c)
        if targets:
            here = next(m.at for m in issue.members if m.name == who)
            others = [m.name for m in issue.members if m.at == here and m.name != who]
            return Move(member=who, to=data.draw(st.sampled_from(targets)), move=card,
                        with_members=data.draw(st.lists(st.sampled_from(others), unique=True)) if others else [],
                        waive_hazard=data.draw(st.integers(0, 5)) == 3)
        kind = "adjust"
    if kind == "attack":
        who = data.draw(st.sampled_from(names))
        reach = data.draw(st.integers(0, 3))
        found = attack_targets(s, who, reach)
        if found:
            g = issue.groups[data.draw(st.sampled_from(found))]
            return Attack(member=who, at=g.at, enemy=g.enemy, damage=data.draw(st.integers(1, 4)), range=reach)
        kind = "adjust"
    if kind == "spawn":
        token = next(i for i, t in enumerate(issue.tokens) if t.status == "revealed")
        where = placement_spaces(s, token)
        placements = data.draw(st.lists(st.builds(
            Placement, enemy=st.sampled_from(issue.pool or [t.name for t in s.enemy_types]), at=st.sampled_from(where),
            count=st.integers(1, 5)), max_size=3))
        return Spawn(token=token, face="random", groups=placements)
    if kind == "enemy_phase":
        n = len(issue.groups)
        order = data.draw(st.permutations(list(range(n)))) if n and data.draw(st.booleans()) else []
        return EnemyPhase(order=order)
    if kind == "choose":
        return Choose(option=data.draw(st.integers(0, len(issue.pending.options) - 1)))
    delta = data.draw(st.integers(-3, 3).filter(lambda d: d != 0))
    return Adjust(track=data.draw(st.sampled_from(["threat", "awareness"])), delta=delta, reason="random card")


def draw_catalog(data, s: State):
    pick = data.draw(st.integers(0, 2))
    if pick == 0:
        return SetEnemyType(enemy=EnemyType(
            name=data.draw(st.sampled_from([t.name for t in s.enemy_types])), threat=data.draw(st.integers(0, 3)),
            range=data.draw(st.integers(0, 3)), health=data.draw(st.integers(1, 3)), move=data.draw(st.integers(0, 3)),
            move_rule=data.draw(st.sampled_from(["toward_closest", "stays"]))))
    if pick == 1:
        fresh = [n for n in ("Plasma Rifle", "Recon Drone", "Medkit") if n not in s.campaign.unlocked_cards]
        if fresh:
            return Unlock(what="card", name=fresh[0])
    new = Settings(
        leave_threat=data.draw(st.sampled_from(["per_move", "per_member"])),
        hazard_trigger=data.draw(st.sampled_from(["end_of_turn", "on_enter", "both"])),
        tie_break=data.draw(st.sampled_from(["players_choose", "generous", "smart"])),
        cache_reveal=data.draw(st.sampled_from(["3", "per_player"])),
        line_of_sight=data.draw(st.sampled_from(["generous", "strict"])),
    )
    if new == s.settings:
        new = new.model_copy(update={"tie_break": "smart" if new.tie_break != "smart" else "generous"})
    return ChangeSettings(settings=new)


def check_invariants(s: State) -> None:
    assert State.model_validate_json(s.model_dump_json()) == s
    issue = s.issue
    if issue is None:
        return
    spaces = {sp.c for sp in issue.map.spaces}
    assert 0 <= issue.threat and 0 <= issue.awareness and issue.threat + issue.awareness <= issue.track
    assert all(m.at.c in spaces for m in issue.members)
    assert all(g.count >= 1 and g.damage >= 0 and g.at.c in spaces for g in issue.groups)
    assert all(g.damage < next(t.health for t in s.enemy_types if t.name == g.enemy) for g in issue.groups)
    if issue.phase == "players":
        assert not issue.queue and issue.pending is None and not any(g.acted for g in issue.groups)
        keys = [(g.enemy, g.at) for g in issue.groups]
        assert len(keys) == len(set(keys))  # one group per type and space
    if issue.pending is not None:
        g = issue.groups[issue.pending.group]
        assert all(sum(p.count for p in o.parts) == g.count for o in issue.pending.options)
        assert len(issue.pending.options) >= 2


def miniatures(s: State) -> int:
    return sum(g.count for g in s.issue.groups) if s.issue else 0


@settings(max_examples=40)
@given(data=st.data(), seed=st.integers(0, 2**32), tie_break=st.sampled_from(["players_choose", "players_choose", "generous", "smart"]))
def test_random_play_keeps_the_invariants_and_replays(data, seed, tie_break):
    first = State(settings=Settings(tie_break=tie_break), enemy_types=list(TYPES))
    s = first
    actions, states = [], []
    for n in range(1, 26):
        if s.issue is None:
            a = StartIssue(map=data.draw(maps()), track=data.draw(st.integers(8, 30)), members=["Max", "Ana"],
                           number=s.campaign.unlocked_issue)
        else:
            a = draw_action(data, s)
        before = s.model_dump_json()
        new, events = apply(s, a, SeededDice(seed, n))
        assert s.model_dump_json() == before  # apply never mutates its input
        assert all(isinstance(e, Event) and e.kind != "text" and e.text for e in events)  # every event typed
        if a.kind in ("enemy_phase", "choose"):
            assert miniatures(new) == miniatures(s)  # the enemy phase moves miniatures, never adds or loses them
        check_invariants(new)
        actions.append(a)
        states.append(new)
        s = new
    # Replay: the same actions from the same start give the same states.
    r = first
    for n, (a, expected) in enumerate(zip(actions, states), start=1):
        r, _ = apply(r, a, SeededDice(seed, n))
        assert r == expected


@settings(max_examples=100)
@given(m=maps(), data=st.data())
def test_every_enemy_move_ends_closer_and_splits_evenly(m, data):
    board = Board.of(m)
    coords = sorted(board.spaces)
    names = ["Max", "Ana", "Kim"][: data.draw(st.integers(1, 3))]
    s = new_state(Settings())
    s, _ = apply(s, StartIssue(map=m, track=20, members=names), SeededDice(0, 0))
    issue = s.issue.model_copy(deep=True)
    for mem in issue.members:
        mem.at = Hex.of(data.draw(st.sampled_from(coords)))
    at = data.draw(st.sampled_from(coords))
    count = data.draw(st.integers(1, 7))
    etype = EnemyType(name="Nanobots", threat=1, range=1, health=1, move=data.draw(st.integers(0, 4)))
    group = EnemyGroup(enemy="Nanobots", at=Hex.of(at), count=count)
    team = Team.of(issue, board)
    plan = plan_move(board, team, group, etype)
    closest = team.nearest(at)
    if closest in (None, 0) or etype.move == 0:
        assert plan.options == []
        return
    steps = min(etype.move, closest)
    from_group = board.distances(at)
    assert plan.options
    for option in plan.options:
        counts = [p.count for p in option.parts]
        assert sum(counts) == count and min(counts) >= 1 and max(counts) - min(counts) <= 1
        for p in option.parts:
            assert from_group[p.at.c] == steps  # moved its full move (or onto the member)
            assert team.nearest(p.at.c) == closest - steps  # and that much closer: never farther
    parts = [frozenset((p.at.c, p.count) for p in o.parts) for o in plan.options]
    assert len(parts) == len(set(parts))  # each option is a different outcome
