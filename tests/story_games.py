"""Campaigns of each of the five games for the story tests (luck, recap, BG Stats): played through
the store with the campaign's seeded dice, by the rules' own moves, to the end or part of the way."""

from __future__ import annotations

import json
from pathlib import Path

from companion.games import get_game
from companion.games.klaw.rules import Attack, Deploy, EndTurn, HostCard, Roll
from companion.table import GiveDice, SetPhysicalDice

SAMPLE_MAP = Path(__file__).resolve().parent.parent / "assets" / "human_ethos_sample_map.json"
STS_PLAYERS = [{"name": "Ada", "role": "rationalist"}, {"name": "Bea", "role": "programmer"},
               {"name": "Cy", "role": "media_liaison"}]


def _apply(store, cid, action):
    return store.apply(cid, action, expected_cursor=store.get(cid).cursor)


def save_the_singularity(store, name="Singularity night", *, actions=400, physical=(), seed=11) -> int:
    """Ada, Bea and Cy play by the rules' main moves (stop after a throw with 3 or more at risk). While
    the action count is in `physical`, the table rolls physical dice and enters every die as Progress
    (a d12 as its 1: Stop)."""
    game = get_game("save_the_singularity")
    cid = store.create("save_the_singularity", name, {"players": STS_PLAYERS}, seed=seed)
    for n in range(actions):
        loaded = store.load(cid)
        if game.outcome(loaded.game_state):
            break
        if (n in physical) != loaded.state.physical_dice and loaded.state.pending is None:
            _apply(store, cid, SetPhysicalDice(on=n in physical))
            continue
        pending = loaded.state.pending
        if pending is not None:
            face = 1 if pending.chance.die.sides == 12 else 4
            _apply(store, cid, GiveDice(faces=[face] * pending.chance.count))
            continue
        ready = {m.kind: m for m in game.legal_moves(loaded.game_state) if m.ready and m.why_not is None}
        state = loaded.game_state
        if "stop" in ready and state.phase == "throw" and str(ready["stop"].label).split()[-1].isdigit() \
                and int(str(ready["stop"].label).split()[-1]) >= 3:
            move = ready["stop"]
        else:
            move = next(ready[k] for k in ("roll", "press_on", "take_bust", "roll_d12", "stop") if k in ready)
        _apply(store, cid, move.action)
    return cid


def klaw(store, name="Were night", *, to_the_end=True) -> int:
    """Ana's Kai against Ben's Rex: one fight to the end, then turns until a player wins."""
    game = get_game("klaw")
    cid = store.create("klaw", name, {"players": ["Ana", "Ben"]}, seed=5)
    for action in (Deploy(card=HostCard(name="Kai", attack=3, defense=2, life=8)), EndTurn(),
                   Deploy(card=HostCard(name="Rex", attack=2, defense=2, life=7)), EndTurn(), EndTurn(), EndTurn(),
                   Attack(attacker=1, defender=2)):
        _apply(store, cid, action)
    for _ in range(60):
        state = store.load(cid).game_state
        if game.outcome(state) or (not to_the_end and state.combat is None):
            break
        _apply(store, cid, Roll() if state.combat is not None else EndTurn())
    return cid


def biosphere5(store, name="Abyss night") -> int:
    """Against people: Ada's doom climbs to 8 (the draw pile runs dry four times), Bea is the last one in."""
    cid = store.create("biosphere5", name, {"opponent": "people", "abyss": True, "players": 2,
                                            "names": ["Ada", "Bea"]}, seed=3)
    for _ in range(4):
        _apply(store, cid, {"kind": "doom_draw_pile", "player": 0})
    return cid


def shadowrun(store, name="Sprawl night") -> int:
    """Three objectives, a card effect costing 10 reputation, then the phases until the survival roll
    at reputation −10 (no face survives it): the game is lost on turn 1."""
    game = get_game("shadowrun")
    cid = store.create("shadowrun", name, {"luck_of_the_draw": False}, seed=1)
    for objective, rep in (("Heist", 5), ("Extraction", 15), ("Wetwork", 25)):
        _apply(store, cid, {"kind": "add_objective", "name": objective, "rep": rep})
    _apply(store, cid, {"kind": "adjust", "account": "reputation", "amount": -10, "reason": "a botched job"})
    order = ("check_victory", "refresh_challenges", "roll_payment_due", "refuse_payment", "charge_interest",
             "payroll", "get_paid", "take_nuyen", "advance")
    for _ in range(40):
        state = store.load(cid).game_state
        if game.outcome(state):
            break
        ready = {m.kind: m for m in game.legal_moves(state) if m.ready and m.why_not is None}
        _apply(store, cid, next(ready[k] for k in order if k in ready).action)
    return cid


def human_ethos(store, name="Ethos night", *, lose=True) -> int:
    """Max and Ana start issue #1 on the sample map; a card pushes the threat to meet the awareness."""
    cid = store.create("human_ethos", name, {}, seed=3)
    sample = json.loads(SAMPLE_MAP.read_text())
    _apply(store, cid, {"kind": "start_issue", "map": sample, "track": 12, "members": ["Max", "Ana"]})
    if lose:
        _apply(store, cid, {"kind": "adjust", "track": "threat", "delta": 12, "reason": "It's Closing In"})
    return cid


FINISHED = {"save_the_singularity": save_the_singularity, "klaw": klaw, "biosphere5": biosphere5,
            "shadowrun": shadowrun, "human_ethos": human_ethos}
