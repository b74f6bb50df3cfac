"""How big saves get: random legal play of each game through the real Store into a SQLite file, until
ACTIONS actions are logged (a new campaign whenever one ends), then bytes per action and the file
size, and the load time at an undone cursor (the worst case: a state replayed from its snapshot).

    .venv/bin/python -m tests.perf.storage_bench           # part of `make bench`
"""

from __future__ import annotations

import os
import random
import statistics
import tempfile
import time
from pathlib import Path

ACTIONS = int(os.environ.get("BENCH_ACTIONS", "10000"))


def _players():
    """(game key, settings, chooser) for each game, from its physical-dice property test."""
    import sys

    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "games"))  # as pytest puts it (sibling imports)
    from tests.games import (test_biosphere5_property as bio, test_human_ethos_playout as he,
                             test_klaw_property as klaw, test_save_the_singularity_property as sts,
                             test_shadowrun_property as sr)
    from tests.contract import pick_ready

    return [
        ("save_the_singularity", sts.table(1), pick_ready),
        ("shadowrun", sr.random_settings(random.Random(1)), sr.choose),
        ("klaw", {"players": ["Ana", "Ben", "Cy"]}, klaw.choose),
        ("biosphere5", bio.settings_for(1), bio.choose),
        ("human_ethos", {"tie_break": "smart"}, he.choose),
    ]


def play(game_key: str, settings: dict, choose, tmp: Path) -> dict:
    from companion.games import get_game
    from companion.games.base import InputError, RuleError
    from companion.log import Store
    from companion.table import GiveDice
    from models.db import open_database
    from tests.contract import table_dice

    path = tmp / f"{game_key}.sqlite"
    store = Store(open_database(f"sqlite:///{path}"))
    game = get_game(game_key)
    rng = random.Random(7)
    logged, campaigns, longest, cid = 0, 0, (0, None), None
    started = time.perf_counter()
    while logged < ACTIONS:
        if cid is None:
            cid = store.create(game_key, f"bench {campaigns}", settings, seed=campaigns)
            campaigns += 1
        loaded = store.load(cid)
        if loaded.state.pending is not None:
            action = GiveDice(faces=table_dice(loaded.state.pending.chance, rng))
        else:
            action = None if game.outcome(loaded.game_state) else choose(loaded.game_state,
                                                                         game.legal_moves(loaded.game_state), rng)
        if action is None:
            longest = max(longest, (loaded.cursor, cid), key=lambda x: x[0])
            cid = None
            continue
        try:
            store.apply(cid, action, expected_cursor=loaded.cursor)
            logged += 1
        except (RuleError, InputError):
            pass
    if cid is not None:
        longest = max(longest, (store.load(cid).cursor, cid), key=lambda x: x[0])
    took = time.perf_counter() - started
    # The worst load: a cursor just before a snapshot, in the longest campaign (up to 31 replayed).
    length, long_id = longest
    target = max(1, (length // 32) * 32 - 1)
    for cursor in range(length, target, -1):
        store.undo(long_id, expected_cursor=cursor)
    loads = []
    for _ in range(20):
        t = time.perf_counter()
        store.load(long_id)
        loads.append((time.perf_counter() - t) * 1000)
    store.db.close()
    for suffix in ("-wal", "-shm"):
        Path(f"{path}{suffix}").unlink(missing_ok=True)
    size = path.stat().st_size
    return {"game": game_key, "actions": logged, "campaigns": campaigns, "longest": length, "bytes": size,
            "per_action": size / logged, "load_ms": statistics.median(loads), "seconds": took}


def main() -> list[str]:
    lines = []
    with tempfile.TemporaryDirectory() as tmp_name:
        for key, settings, choose in _players():
            r = play(key, settings, choose, Path(tmp_name))
            lines.append(f"{r['game']}: {r['actions']:,} actions in {r['campaigns']} campaigns (longest {r['longest']}) → "
                         f"{r['bytes'] / 1e6:.1f} MB on disk, {r['per_action'] / 1000:.2f} KB per action; load at "
                         f"an undone cursor {r['load_ms']:.1f} ms   (target < 20 MB, < 100 ms; played in {r['seconds']:.0f} s)")
    return lines


if __name__ == "__main__":
    for line in main():
        print(line)
