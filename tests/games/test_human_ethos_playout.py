"""Human Ethos on the game contract: random games played the way a table plays them, every action
drawn from the game's own legal moves (`rules.moves`: ready actions, and templates filled from their
FieldSpecs with the rules' own helpers for the spaces), through the physical-dice store step. The
game has no dice, so no action ever pauses; `tests.contract` checks that a listed move is never
refused, that `why_not` agrees with `moves`, and that every log replays. A few games go through a
real Store with undo and redo."""

import random

from companion.games.base import FieldSpec, Move as LegalMove
from companion.games.human_ethos import rules as R
from companion.games.human_ethos.enemies import EnemyType
from companion.games.human_ethos.hexmap import Board, HexMap, Space, axial_of, hex_neighbours, make_wall
from tests.contract import physical_playout, store_playout
from tests.helpers import memory_store

WEIGHTS = {"move": 8, "enemy_phase": 3, "attack": 4, "spawn": 6, "choose": 3, "adjust": 1, "start_issue": 2,
           "next_map": 3, "abandon_issue": 0.1, "set_enemy_type": 0.4, "unlock": 0.2, "change_settings": 0.3}


def random_map(rng: random.Random) -> HexMap:
    """A playable map: a few columns and rows, some hexes left out, walls, specials and areas."""
    while True:
        cols, rows = rng.randint(3, 7), rng.randint(3, 6)
        coords = [axial_of(c, r) for c in range(cols) for r in range(rows)]
        spaces = [c for c in coords if rng.random() > 0.15]
        present = set(spaces)
        edges = sorted({(a, b) for a in spaces for b in hex_neighbours(a) if b in present and a < b})
        walls = rng.sample(edges, rng.randint(0, len(edges) // 4))
        bare = HexMap(name="random", spaces=[Space(q=q, r=r) for q, r in spaces],
                      walls=[make_wall(a, b) for a, b in walls])
        start = rng.choice(spaces)
        reach = sorted(set(Board.of(bare).distances(start)) - {start})
        if reach:
            break
    specials = {start: "start", rng.choice(reach): "end"}
    for c in spaces:
        if c not in specials:
            specials[c] = rng.choice([None] * 6 + ["hazard", "cache", "common", "elite"])
    bands = rng.choice(["", "AB", "ABC"])
    area = (lambda c: bands[c[0] * len(bands) // cols]) if bands else (lambda c: "")
    return HexMap(name=f"random {rng.randint(1, 999)}", walls=bare.walls,
                  spaces=[Space(q=q, r=r, special=specials[(q, r)], area=area((q, r))) for q, r in spaces])


def spec(move: LegalMove, name: str) -> FieldSpec:
    return next(f for f in move.fields if f.name == name)


def number(rng: random.Random, field: FieldSpec, most: int) -> int:
    """A value in the field's range, kept small (a table's cards rarely go high)."""
    return rng.randint(field.low, max(field.low, min(field.high, most)))


def fill(state: R.State, move: LegalMove, rng: random.Random):
    """An action from a template, its values drawn from the FieldSpecs and the rules' helpers."""
    issue = state.issue
    if move.kind == "move":
        member = rng.choice(spec(move, "member").choices)
        card = number(rng, spec(move, "move"), 4)
        targets = sorted(R.move_targets(state, member, card), key=lambda h: h.c)
        if not targets:
            return None
        here = next(m.at for m in issue.members if m.name == member)
        others = [n for n in spec(move, "with_members").choices
                  if n != member and next(m.at for m in issue.members if m.name == n) == here]
        return R.Move(member=member, to=rng.choice(targets), move=card,
                      with_members=rng.sample(others, rng.randint(0, len(others))),
                      waive_hazard=rng.random() < 0.15 and rng.choice(spec(move, "waive_hazard").choices))
    if move.kind == "attack":
        member = rng.choice(spec(move, "member").choices)
        reach = number(rng, spec(move, "range"), 3)
        found = R.attack_targets(state, member, reach)
        if not found:
            return None
        g = issue.groups[rng.choice(found)]
        return R.Attack(member=member, at=g.at, enemy=g.enemy, damage=number(rng, spec(move, "damage"), 4), range=reach)
    if move.kind == "spawn":
        token = rng.choice(spec(move, "token").choices)
        where = R.placement_spaces(state, token)
        kinds = issue.pool or [t.name for t in state.enemy_types]
        count = spec(LegalMove("placement", "", fields=R.field_specs(R.Placement)), "count")
        return R.Spawn(token=token, face="random", groups=[
            R.Placement(enemy=rng.choice(kinds), at=rng.choice(where), count=number(rng, count, 3))
            for _ in range(rng.randint(0, 2))])
    if move.kind == "adjust":
        delta = spec(move, "delta")
        return R.Adjust(track=rng.choice(spec(move, "track").choices), reason="a card",
                        delta=rng.choice([d for d in range(max(delta.low, -3), min(delta.high, 3) + 1) if d]))
    if move.kind == "start_issue":
        arcade = rng.random() < 0.25
        offered = spec(move, "enemies").choices
        track = spec(move, "track")
        return R.StartIssue(
            number=number(rng, spec(move, "number"), 99), map=random_map(rng), track=rng.randint(8, min(track.high, 24)),
            threat=rng.randint(0, 2), awareness=rng.randint(0, 2), members=rng.choice([["Max"], ["Max", "Ana"], ["Max", "Ana", "Kim"]]),
            mode="arcade" if arcade else "story",
            enemies=rng.sample(offered, rng.randint(0, 2)) if arcade else [],
            more_maps=[random_map(rng) for _ in range(rng.randint(0, 1))] if arcade else [])
    if move.kind == "set_enemy_type":
        return R.SetEnemyType(enemy=EnemyType(
            name=rng.choice([t.name for t in state.enemy_types]), threat=rng.randint(0, 3), range=rng.randint(0, 3),
            health=rng.randint(1, 3), move=rng.randint(0, 3), move_rule=rng.choice(["toward_closest", "stays"])))
    if move.kind == "unlock":
        return R.Unlock(what=rng.choice(spec(move, "what").choices), name=rng.choice(["Plasma Rifle", "Medkit", "Sentinels"]))
    if move.kind == "change_settings":
        return R.ChangeSettings(settings=R.Settings(
            leave_threat=rng.choice(["per_move", "per_member"]), hazard_trigger=rng.choice(["end_of_turn", "on_enter", "both"]),
            tie_break=rng.choice(["players_choose", "generous", "smart"]), cache_reveal=rng.choice(["3", "per_player"]),
            line_of_sight=rng.choice(["generous", "strict"])))
    raise AssertionError(f"no filler for {move.kind}")


def choose(state: R.State, moves: list[LegalMove], rng: random.Random):
    """A random move weighted by kind: a ready one as it is, a template filled in."""
    open_moves = [m for m in moves if m.why_not is None]
    for _ in range(20):
        move = rng.choices(open_moves, weights=[WEIGHTS[m.kind] for m in open_moves])[0]
        action = move.action if move.ready else fill(state, move, rng)
        if action is not None:
            return action
    return R.EnemyPhase() if any(m.kind == "enemy_phase" and m.ready for m in open_moves) else None


def test_200_random_games_at_a_physical_dice_table():
    outcomes = []
    for seed in range(200):
        tie_break = ["players_choose", "generous", "smart"][seed % 3]
        settings = {"tie_break": tie_break, "line_of_sight": ["generous", "strict"][seed % 2]}
        out = physical_playout(R.GAME, settings, seed=seed, choose=choose, steps=22)
        assert out.pauses == 0 and out.given == []  # no dice in this game: nothing to ask the table
        for entry in out.entries[2:]:  # after the campaign start and the physical-dice switch
            state = R.State.model_validate(entry["state"]["game"])
            assert state.issue is None or state.issue.threat + state.issue.awareness <= state.issue.track
        outcomes.append(out.outcome)
    finished = [o for o in outcomes if o]
    assert any(str(o).startswith("Won") for o in finished) and any(str(o).startswith("Lost") for o in finished)


def test_random_games_through_a_store_with_undo_and_redo():
    for seed in range(4):
        store_playout(memory_store(), R.GAME, {"tie_break": "smart"}, seed=seed, choose=choose, steps=25)
