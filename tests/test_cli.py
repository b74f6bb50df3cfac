"""The command line: export, replay (reports whether every recorded state matches), import."""

import json
import subprocess
import sys
from pathlib import Path

from companion.games.counter.rules import Add, Roll
from tests.helpers import file_store

ROOT = Path(__file__).resolve().parent.parent


def run(*args):
    return subprocess.run([sys.executable, "-m", "companion", *args], cwd=ROOT, capture_output=True, text=True)


def test_export_replay_import(tmp_path):
    store = file_store(tmp_path)
    cid = store.create("counter", "CLI", {}, seed=3)
    cursor = 0
    for action in (Add(amount=2), Roll(), Add(amount=1)):
        cursor = store.apply(cid, action, expected_cursor=cursor).cursor
    db = f"sqlite:///{tmp_path / 't.sqlite'}"
    out = tmp_path / "c.json"
    assert run("--db", db, "export", str(cid), str(out)).returncode == 0
    result = run("replay", str(out))
    assert result.returncode == 0 and "3 actions replayed, every recorded state matches" in result.stdout

    data = json.loads(out.read_text())
    data["log"][2]["state"]["game"]["value"] += 1
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(data))
    result = run("replay", str(bad))
    assert result.returncode == 1 and "seq 2: the replayed state differs" in result.stdout

    other = f"sqlite:///{tmp_path / 'other.sqlite'}"
    assert "Imported as campaign 1" in run("--db", other, "import", str(out)).stdout
    refused = run("--db", other, "import", str(bad))
    assert refused.returncode == 2 and "does not replay" in refused.stderr


def test_a_foreign_database_file_is_refused_with_a_message(tmp_path):
    path = tmp_path / "notes.sqlite"
    path.write_text("not a database")
    result = run("--db", f"sqlite:///{path}", "export", "1", str(tmp_path / "x.json"))
    assert result.returncode == 2 and "not an SQLite file" in result.stderr
    assert path.read_text() == "not a database"
