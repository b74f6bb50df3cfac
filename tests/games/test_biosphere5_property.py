"""Biosphere 5 property test: random games at a physical-dice table, drawn from the game's own moves.

`tests.contract.physical_playout` plays each game through the store's pure step: every action comes
from `GAME.moves` (templates filled from their FieldSpecs; the Machine's revealed cards drawn from the
test deck), every rescue check pauses and is answered with hand dice as a table would enter them, and
the log replays. On top of the contract's checks, every state keeps the game's invariants: the
Machine's hand card level 0–8, doom 0–8 (out exactly at 8), leader tiers 0–3, at most one achievement
per category (never salvation), and the phase agrees with what is due; and asking `why_not` (which
runs `apply`) never changes the state it is asked about.
"""

from __future__ import annotations

import random

from test_biosphere5_cards import DECK, TEST_DECK

from companion.games.base import Move
from companion.games.biosphere5 import rules as R
from companion.games.biosphere5.rules import GAME, State
from tests.contract import physical_playout, store_playout
from tests.helpers import memory_store

ALL_IDS = [c.id for c in TEST_DECK]
# How often a random table picks a kind of move: the Machine's turns and your discards whenever
# they are due, a catastrophe now and then (it often ends the game), a win declared rarely.
WEIGHT = {"machine_reveal": 20, "machine_reveal_more": 20, "human_discard": 20, "end_turn": 4, "set_hand": 1,
          "human_catastrophe": 1, "declare_biosphere": 0.2, "leader_ability": 3, "leader_promote": 2}


def _revealed(state: State, move: Move, rng: random.Random):
    """The cards that came up: `low` cards from the test deck, never the stored one nor a card
    revealed earlier this turn."""
    solo = state.solo
    earlier = solo.reveal.revealed if solo.reveal else []
    pool = [i for i in ALL_IDS if i != solo.machine.stored and i not in earlier]
    ids = rng.sample(pool, move.fields[0].low)
    if move.kind == "machine_reveal_more":
        return R.reveal_more_action(state, DECK, ids)
    return R.reveal_action(DECK, ids)


def fill(state: State, move: Move, rng: random.Random):
    """An action from a template: a choice or a number in range for every field."""
    if move.kind in ("machine_reveal", "machine_reveal_more"):
        return _revealed(state, move, rng)
    values = {}
    for f in move.fields:
        if f.name == "give_up":  # a list: `low` of the achievements offered
            values[f.name] = rng.sample(list(f.choices), f.low)
        elif f.choices:
            values[f.name] = rng.choice(f.choices)
        else:
            values[f.name] = rng.randint(f.low, f.high)
    return GAME.parse_action({"kind": move.kind, **values})


def choose(state: State, moves: list[Move], rng: random.Random):
    open_moves = [m for m in moves if m.why_not is None]
    if not open_moves:
        return None
    weights = [WEIGHT.get(m.kind, 1 if m.kind in R.ABYSS_KINDS else 6) for m in open_moves]
    move = rng.choices(open_moves, weights)[0]
    action = move.action if move.ready else fill(state, move, rng)
    before = state.model_copy(deep=True)
    GAME.why_not(state, action)
    assert state == before, "asking why_not changed the state"
    return action


def check_invariants(state: State) -> None:
    assert State.model_validate_json(state.model_dump_json()) == state
    if state.solo is not None:
        s = state.solo
        assert 0 <= s.machine.level <= 8
        assert 0 <= s.human.hand <= 25
        for board in (s.machine.achievements, s.human.achievements):
            assert "salvation" not in board and set(board.values()) <= {"green", "yellow"}
        assert (s.phase == "discard") == (s.due is not None)
        assert (s.phase == "new_hope") == (s.reveal is not None)
        if s.machine.level == 0:
            assert s.machine.stored is None  # discarded when the level reaches 0
    if state.abyss is not None:
        for p in state.abyss.players:
            assert 0 <= p.doom <= 8 and p.out == (p.doom == 8)
            assert all(0 <= t <= 3 for t in p.leaders.values())
    if state.result is not None:
        assert GAME.legal_moves(state) == []


def settings_for(seed: int) -> dict:
    rng = random.Random(seed)
    kind = seed % 4
    if kind == 3:
        return {"opponent": "people", "abyss": True, "players": rng.randint(2, 4)}
    return {"opponent": "machine", "abyss": kind == 2, "difficulty": rng.randint(0, 8),
            "hand_die_black_faces": rng.choice([0, 1, 1, 1, 2, 6])}


def test_random_physical_playouts_keep_invariants_and_replay():
    pauses = outcomes = 0
    for seed in range(200):
        out = physical_playout(GAME, settings_for(seed), seed=seed, choose=choose, steps=45)
        for entry in out.entries:
            check_invariants(State.model_validate(entry["state"]["game"]))
        pauses += out.pauses
        outcomes += out.outcome is not None
    assert pauses > 50  # the rescue checks did stop the table for its hand dice
    assert outcomes > 20  # and many games reached a result


def test_store_playouts_undo_and_redo_keep_the_entered_hand_dice():
    for seed in (1, 2, 6):
        store_playout(memory_store(), GAME, settings_for(seed), seed=seed, choose=choose, steps=40)
