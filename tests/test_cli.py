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
    assert result.returncode == 0 and "3 actions replayed, every recorded state and die matches" in result.stdout

    data = json.loads(out.read_text())
    assert "state" not in data["log"][2]  # a compact export: the rules rebuild the states
    data["log"][2]["dice"][0][1] = data["log"][2]["dice"][0][1] % 6 + 1  # a die the seed didn't roll
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(data))
    result = run("replay", str(bad))
    assert result.returncode == 1 and "action 2, die 1: the log has" in result.stdout

    other = f"sqlite:///{tmp_path / 'other.sqlite'}"
    assert "Imported as campaign 1" in run("--db", other, "import", str(out)).stdout
    refused = run("--db", other, "import", str(bad))
    assert refused.returncode == 2 and "doesn't replay" in refused.stderr


def test_a_gz_name_exports_compressed_and_both_commands_read_it(tmp_path):
    store = file_store(tmp_path)
    cid = store.create("counter", "Packed", {}, seed=5)
    store.apply(cid, Roll(), expected_cursor=0)
    db = f"sqlite:///{tmp_path / 't.sqlite'}"
    out = tmp_path / "c.json.gz"
    assert run("--db", db, "export", str(cid), str(out)).returncode == 0
    assert out.read_bytes()[:2] == b"\x1f\x8b"
    assert "1 actions replayed" in run("replay", str(out)).stdout
    assert "Imported as campaign 1" in run("--db", f"sqlite:///{tmp_path / 'o.sqlite'}", "import", str(out)).stdout


def test_a_foreign_database_file_is_refused_with_a_message(tmp_path):
    path = tmp_path / "notes.sqlite"
    path.write_text("not a database")
    result = run("--db", f"sqlite:///{path}", "export", "1", str(tmp_path / "x.json"))
    assert result.returncode == 2 and "not an SQLite file" in result.stderr
    assert path.read_text() == "not a database"


def test_malformed_imports_exit_2_with_a_message_and_no_traceback(tmp_path):
    import base64
    import zlib

    db = f"sqlite:///{tmp_path / 'c.sqlite'}"
    files = {
        "deep.json": ("[" * 5000 + "]" * 5000, "nests more than 64 levels deep"),
        "digits.json": ('{"format": "table-companion/campaign", "version": 1, "seed": ' + "9" * 4301 + "}",
                        "a number of 4301 digits"),
        "missing.json": (None, "can't read"),
    }
    for name, (content, message) in files.items():
        if content is not None:
            (tmp_path / name).write_text(content)
        result = run("--db", db, "import", str(tmp_path / name))
        assert result.returncode == 2 and message in result.stderr and "Traceback" not in result.stderr, result.stderr
    bad_qr = "TC1:" + base64.urlsafe_b64encode(zlib.compress(b"\xff\xfe\xfd")).decode()
    for command in ("import", "replay"):
        result = run("--db", db, command, bad_qr)
        assert result.returncode == 2 and "does not unpack to text" in result.stderr and "Traceback" not in result.stderr


def test_import_takes_qr_text_and_files_with_a_byte_order_mark(tmp_path):
    from companion import exchange

    store = file_store(tmp_path)
    cid = store.create("counter", "QR", {}, seed=3)
    store.apply(cid, Add(amount=2), expected_cursor=0)
    payload = exchange.export_campaign(store, cid)
    other = f"sqlite:///{tmp_path / 'other.sqlite'}"
    qr = exchange.to_qr_text(payload)
    assert "Imported as campaign 1" in run("--db", other, "import", qr).stdout  # pasted on the command line
    (tmp_path / "qr.txt").write_text(qr + "\n")
    assert "Imported as campaign 2" in run("--db", other, "import", str(tmp_path / "qr.txt")).stdout
    (tmp_path / "bom.json").write_bytes(b"\xef\xbb\xbf" + exchange.dumps(payload).encode())
    assert "Imported as campaign 3" in run("--db", other, "import", str(tmp_path / "bom.json")).stdout
    assert run("replay", qr).returncode == 0


def test_cli_export_and_import_leave_the_backups_alone(tmp_path):
    from companion.context import AppContext

    db = f"sqlite:///{tmp_path / 'c.sqlite'}"
    ctx = AppContext.open(db)  # the app started once: one real backup
    cid = ctx.store.create("counter", "Backed up", {})
    ctx.close()
    backups = tmp_path / "c-backups"
    before = sorted(p.name for p in backups.iterdir())
    assert len(before) == 1
    for i in range(3):
        assert run("--db", db, "export", str(cid), str(tmp_path / f"e{i}.json")).returncode == 0
    assert run("--db", db, "import", str(tmp_path / "e0.json")).returncode == 0
    assert sorted(p.name for p in backups.iterdir()) == before


def test_export_of_a_missing_campaign_is_a_message(tmp_path):
    result = run("--db", f"sqlite:///{tmp_path / 'c.sqlite'}", "export", "7", str(tmp_path / "x.json"))
    assert result.returncode == 2 and "Campaign 7 does not exist" in result.stderr and "Traceback" not in result.stderr


def test_import_refuses_hostile_and_tampered_files_in_words(tmp_path):
    """`companion import`: deeply nested, oversized, extra-field and tampered files are refused with
    a sentence on stderr (exit 2), no traceback, nothing imported."""
    from tests.test_exchange import hostile_inputs, tampered_files

    store = file_store(tmp_path)
    cid = store.create("counter", "CLI", {"start": 2}, seed=77)
    cursor = 0
    for action in (Add(amount=3), Roll()):
        cursor = store.apply(cid, action, expected_cursor=cursor).cursor
    db = f"sqlite:///{tmp_path / 't.sqlite'}"
    out = tmp_path / "c.json"
    assert run("--db", db, "export", str(cid), str(out)).returncode == 0
    payload = json.loads(out.read_text())
    cases = {name: said for name, (text, said) in hostile_inputs(payload).items()}
    files = {name: text for name, (text, said) in hostile_inputs(payload).items()}
    for how, data in tampered_files(payload, 2).items():
        files[f"tampered, {how}"] = json.dumps(data)
        cases[f"tampered, {how}"] = "action 2: a die is marked as rolled at the table"
    other = f"sqlite:///{tmp_path / 'other.sqlite'}"
    for name, text in files.items():
        path = tmp_path / "hostile.json"
        path.write_text(text)
        result = run("--db", other, "import", str(path))
        assert result.returncode == 2 and "Traceback" not in result.stderr, (name, result.stderr[-500:])
        assert cases[name] in result.stderr, (name, result.stderr)
        assert "pydantic" not in result.stderr and "http" not in result.stderr, (name, result.stderr)
    assert "Imported as campaign 1" in run("--db", other, "import", str(out)).stdout  # nothing before it
