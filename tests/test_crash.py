"""Killing the process mid-stream never loses an acknowledged action nor damages the database."""

import os
import random
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

from companion.games import get_game
from companion.log import Store, replay
from models.db import open_database

ROOT = Path(__file__).resolve().parent.parent


def test_sigkill_mid_stream_keeps_every_acknowledged_action(tmp_path):
    db_url = f"sqlite:///{tmp_path / 'crash.sqlite'}"
    store = Store(open_database(db_url))
    cid = store.create("counter", "crash", {"cap": 1000}, seed=11)
    store.db.close()
    rng = random.Random(2026)  # the kill moments are seeded: the test is repeatable
    acknowledged = 0
    for _ in range(12):
        child = subprocess.Popen([sys.executable, str(ROOT / "tests" / "crash_child.py"), db_url, str(cid)],
                                 cwd=ROOT, stdout=subprocess.PIPE, text=True, env=dict(os.environ, PYTHONPATH=str(ROOT)))
        assert child.stdout.readline().strip() == "READY"
        wanted = rng.randint(1, 40)
        deadline = time.monotonic() + 30
        while wanted and time.monotonic() < deadline:
            line = child.stdout.readline()
            if line.startswith("ACK"):
                acknowledged = int(line.split()[1])
                wanted -= 1
        time.sleep(rng.random() * 0.01)  # land the kill anywhere in the next write
        child.send_signal(signal.SIGKILL)
        for line in child.stdout:  # acknowledgements already written before the kill
            if line.startswith("ACK"):
                acknowledged = int(line.split()[1])
        child.wait()

        path = tmp_path / "crash.sqlite"
        con = sqlite3.connect(path)
        assert con.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        con.close()
        reopened = Store(open_database(db_url))
        cursor = reopened.load(cid).cursor
        # Every acknowledged action is there. One more may be: committed, killed before its ACK.
        assert acknowledged <= cursor <= acknowledged + 1
        acknowledged = cursor
        rows = reopened.log_rows(cid)
        assert [r.seq for r in rows] == list(range(cursor + 1))
        reopened.db.close()
    final = Store(open_database(db_url))
    report = replay(get_game("counter"), final.get(cid).settings, [r.model_dump() for r in final.log_rows(cid)])
    assert report.ok and report.checked == acknowledged
