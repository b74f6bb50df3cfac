"""Save the Singularity played at a physical-dice table: random games drawn from the game's own legal
moves, every throw answered with entered dice (tests/contract.py checks no die is invented, listed
moves are never refused, and every state replays), and a few through a real store with undo/redo."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from companion.games.save_the_singularity import rules
from companion.games.save_the_singularity.rules import GAME
from tests.contract import physical_playout, pick_ready, store_playout
from tests.helpers import memory_store

GAMES = 200


def table(seed: int) -> dict:
    """Settings for one random table: 1 to 8 players (roles distinct until all six are taken)."""
    rng = random.Random(seed)
    count = rng.randint(1, 8)
    roles = rng.sample(rules.ROLES, len(rules.ROLES))
    roles += [rng.choice(rules.ROLES) for _ in range(count - len(roles))]
    return {"players": [{"name": f"P{i + 1}", "role": roles[i]} for i in range(count)],
            "max_pool": rng.randint(rules.START_POOL, 12),
            "media_liaison_timing": rng.choice(["before_roll", "after_roll"])}


def test_random_physical_games_never_invent_a_die_and_replay():
    outcomes, actions = Counter(), Counter()
    for seed in range(GAMES):
        out = physical_playout(GAME, table(seed), seed=seed, choose=pick_ready, steps=100)
        outcomes[out.outcome] += 1
        kinds = [e["action"].get("kind") for e in out.entries]
        actions.update(kinds)
        # Every throw waited for the table: one pause per set of dice entered (the last may still wait).
        assert out.pauses == kinds.count("dice") + (out.final.pending is not None)
    assert outcomes["Lost"] >= GAMES // 5  # a good share are played to their end (the world wins random play)
    assert all(actions[role] > 50 for role in rules.ROLES) and actions["take_bust"] > 0


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_store_playout_keeps_the_entered_dice_through_undo_and_redo(seed):
    store_playout(memory_store(), GAME, table(seed), seed=seed, choose=pick_ready, steps=40)
