"""How big saves get and whether a long campaign travels: ONE campaign of ACTIONS actions per game,
played through the real Store into a SQLite file (random legal moves; the dice tray and notes as a
table uses them; once the game is over only those), then bytes per action and the file size, the
load time at an undone cursor (the worst case: a state replayed from its snapshot), and the export
(JSON and gzip sizes), import and replay of the whole campaign, timed.

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


def _worst_load_ms(store, cid: int, cursor: int) -> float:
    """Undo to a cursor just before a snapshot (the most states replayed on load), then the median
    of 20 loads there."""
    from companion.log import SNAPSHOT_EVERY

    target = max(1, (cursor // SNAPSHOT_EVERY) * SNAPSHOT_EVERY - 1)
    for c in range(cursor, target, -1):
        store.undo(cid, expected_cursor=c)
    loads = []
    for _ in range(20):
        t = time.perf_counter()
        store.load(cid)
        loads.append((time.perf_counter() - t) * 1000)
    return statistics.median(loads)


def _closed_size(store, path: Path) -> int:
    """The save's size on disk once closed (its WAL checkpointed into it)."""
    store.db.close()
    for suffix in ("-wal", "-shm"):
        Path(f"{path}{suffix}").unlink(missing_ok=True)
    return path.stat().st_size


def play_many(game_key: str, settings: dict, choose, tmp: Path) -> dict:
    """ACTIONS game actions, a new campaign whenever one ends: what saves cost per game action."""
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
    length, long_id = longest
    load_ms = _worst_load_ms(store, long_id, length)
    size = _closed_size(store, path)
    return {"game": game_key, "actions": logged, "campaigns": campaigns, "longest": length, "bytes": size,
            "per_action": size / logged, "load_ms": load_ms, "seconds": took}


def play_one(game_key: str, settings: dict, choose, tmp: Path) -> dict:
    """ONE campaign of ACTIONS actions (once the game is over, the tray and notes): does it travel?"""
    from companion import exchange
    from companion.games import get_game
    from companion.games.base import InputError, RuleError
    from companion.log import Store
    from companion.table import GiveDice, TableNote, TrayRoll
    from models.db import open_database
    from tests.contract import table_dice

    path = tmp / f"{game_key}-one.sqlite"
    store = Store(open_database(f"sqlite:///{path}"))
    game = get_game(game_key)
    rng = random.Random(7)
    cid = store.create(game_key, "bench", settings, seed=1)
    loaded = store.load(cid)
    state, cursor, game_over_at = loaded.state, loaded.cursor, None
    started = time.perf_counter()
    while cursor < ACTIONS:
        game_state = game.State.model_validate(state.game)
        over = game.outcome(game_state) is not None
        game_over_at = cursor if over and game_over_at is None else game_over_at
        if state.pending is not None:
            action = GiveDice(faces=table_dice(state.pending.chance, rng))
        elif rng.random() < 0.9:  # a campaign game goes on after an issue or a run ends
            action = choose(game_state, game.legal_moves(game_state), rng)
        else:
            action = None
        if action is None:  # what a table also logs: the tray's dice, a note now and then
            action = TableNote(text=f"note {cursor}") if rng.random() < 0.1 else TrayRoll(count=2, sides=6)
        try:
            applied = store.apply(cid, action, expected_cursor=cursor)
        except (RuleError, InputError):
            continue
        state, cursor = applied.state, applied.cursor
    took = time.perf_counter() - started
    load_ms = _worst_load_ms(store, cid, cursor)
    t = time.perf_counter()
    payload = exchange.export_campaign(store, cid)
    data, filename = exchange.export_file(payload)
    export_s = time.perf_counter() - t
    json_bytes = len(exchange.dumps(payload).encode())
    t = time.perf_counter()
    new_id = exchange.import_campaign(store, data)  # replays every action, re-deriving the app's dice
    import_s = time.perf_counter() - t
    assert store.load(new_id).state == store.load(cid).state
    size = _closed_size(store, path) / 2  # the file holds the campaign and its imported copy
    return {"game": game_key, "actions": cursor, "game_over_at": game_over_at, "bytes": size,
            "per_action": size / cursor, "load_ms": load_ms, "seconds": took,
            "json_mb": json_bytes / 1e6, "file_mb": len(data) / 1e6, "file": filename,
            "export_s": export_s, "import_s": import_s}


def main() -> list[str]:
    lines = []
    with tempfile.TemporaryDirectory() as tmp_name:
        for key, settings, choose in _players():
            r = play_many(key, settings, choose, Path(tmp_name))
            lines.append(f"{r['game']}: {r['actions']:,} game actions in {r['campaigns']} campaigns (longest {r['longest']}) → "
                         f"{r['bytes'] / 1e6:.1f} MB on disk, {r['per_action'] / 1000:.2f} KB per action; load at "
                         f"an undone cursor {r['load_ms']:.1f} ms   (target < 20 MB, < 100 ms; played in {r['seconds']:.0f} s)")
            r = play_one(key, settings, choose, Path(tmp_name))
            over = f"game over at {r['game_over_at']:,}, then the tray" if r["game_over_at"] else "game still on"
            lines.append(
                f"  one campaign of {r['actions']:,} actions ({over}): {r['bytes'] / 1e6:.1f} MB on disk, load "
                f"{r['load_ms']:.1f} ms; export {r['json_mb']:.1f} MB JSON → {r['file_mb']:.2f} MB "
                f"{r['file'].rsplit('.', 1)[-1]} in {r['export_s']:.1f} s, import with its replay {r['import_s']:.1f} s")
    return lines


if __name__ == "__main__":
    for line in main():
        print(line)
