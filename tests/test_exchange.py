"""Export/import round trip, QR text, and every refusal (nothing written)."""

import json

import pytest

from companion import exchange
from companion.exchange import ImportRefused
from companion.games.counter.rules import Add, Roll
from companion.table import TrayRoll
from tests.helpers import memory_store


@pytest.fixture
def store():
    return memory_store()


def played(store):
    cid = store.create("counter", "Export me", {"start": 2}, seed=77)
    cursor = 0
    for action in (Add(amount=3), Roll(), TrayRoll(count=2, sides=12), Add(amount=-1)):
        cursor = store.apply(cid, action, expected_cursor=cursor).cursor
    store.undo(cid, expected_cursor=cursor)  # the undone tail travels too, so redo still works
    return cid


def comparable(store, cid):
    c = store.get(cid)
    rows = [(r.seq, r.action, r.dice, r.events, r.state, r.label, r.context) for r in store.log_rows(cid)]
    return (c.game, c.name, c.seed, c.settings, c.cursor, c.head, c.status, c.headline, rows)


def test_round_trip_gives_an_identical_campaign(store):
    cid = played(store)
    text = exchange.dumps(exchange.export_campaign(store, cid))
    new_id = exchange.import_campaign(store, text.encode())
    assert comparable(store, new_id) == comparable(store, cid)
    store.redo(new_id, expected_cursor=3)
    store.redo(cid, expected_cursor=3)
    assert store.load(new_id).state == store.load(cid).state


def test_qr_text_round_trip(store):
    cid = played(store)
    payload = exchange.export_campaign(store, cid)
    qr = exchange.to_qr_text(payload)
    assert qr and qr.startswith(exchange.QR_PREFIX) and len(qr) <= exchange.QR_MAX_CHARS
    new_id = exchange.import_campaign(store, qr)
    assert comparable(store, new_id) == comparable(store, cid)


def test_a_big_campaign_is_not_offered_as_qr(store):
    cid = store.create("counter", "Long", {}, seed=1)
    for i in range(300):
        store.apply(cid, Add(amount=1 if i % 2 == 0 else -1), expected_cursor=i)
    assert exchange.to_qr_text(exchange.export_campaign(store, cid)) is None


def refused(store, raw, match):
    before = len(store.list_campaigns())
    with pytest.raises(ImportRefused, match=match):
        exchange.import_campaign(store, raw)
    assert len(store.list_campaigns()) == before


def test_malformed_files_are_refused(store):
    refused(store, b"", "empty")
    refused(store, b"{not json", "not a campaign export")  # pasted by mistake: not "invalid JSON"
    refused(store, b"\xff\xfe\x00", "not a campaign export")
    refused(store, b"[1,2,3]", "not a Table Companion export")
    refused(store, json.dumps({"format": "something-else", "version": 1}).encode(), "not a Table Companion export")
    refused(store, "TC1:@@@@", "damaged")


def test_oversized_files_are_refused(store):
    refused(store, b" " * (exchange.MAX_BYTES + 1), r"at most \d+ MB")


def test_wrong_versions_are_refused(store):
    payload = exchange.export_campaign(store, played(store))
    refused(store, json.dumps({**payload, "version": 99}).encode(), "newer version")
    refused(store, json.dumps({**payload, "version": 0}).encode(), "Unknown format version")
    refused(store, json.dumps({**payload, "version": "1"}).encode(), "no format version")


def test_tampered_contents_are_refused(store):
    payload = exchange.export_campaign(store, played(store))
    bad_state = json.loads(json.dumps(payload))  # a format 1 file carries states: they must replay
    bad_state["log"][2]["state"] = {"game": {"value": 99, "cap": 100, "turn": 3}, "tray": []}
    refused(store, json.dumps(bad_state), "does not replay")
    better_die = json.loads(json.dumps(payload))  # an app-rolled die edited: the seed rolls another
    better_die["log"][2]["dice"][0][1] = better_die["log"][2]["dice"][0][1] % 6 + 1
    refused(store, json.dumps(better_die), "seed")
    bad_dice = json.loads(json.dumps(payload))
    bad_dice["log"][2]["dice"] = [[6, 1, 0], [6, 2, 0]]
    refused(store, json.dumps(bad_dice), "does not replay")
    gap = json.loads(json.dumps(payload))
    del gap["log"][1]
    refused(store, json.dumps(gap), "without gaps")
    refused(store, json.dumps({**payload, "game": "chess"}), "unknown game")
    refused(store, json.dumps({**payload, "name": "x" * 500}), "name")
    refused(store, json.dumps({**payload, "cursor": 50}), "beyond its last action")
    refused(store, json.dumps({**payload, "settings": {"cap": -4}}), "Settings refused")
    missing = dict(payload)
    del missing["seed"]
    refused(store, json.dumps(missing), "seed")


def test_a_die_marked_entered_at_a_table_the_app_rolls_for_is_refused(store):
    """Marking the app's die as "the table entered it" would let a file pick its value: while the app
    rolls, only the dice tray takes entered dice (the roll at seq 2 is a game action)."""
    payload = exchange.export_campaign(store, played(store))
    assert "legacy_entered_dice" not in payload
    marked = json.loads(json.dumps(payload))
    marked["log"][2]["dice"] = [[6, 6, 1]]
    refused(store, json.dumps(marked), "marked as entered by the table")
    tray = json.loads(json.dumps(payload))  # the tray roll at seq 3 may carry dice the table rolled
    tray["log"][3]["dice"] = [[12, 12, 1], [12, 1, 1]]
    new_id = exchange.import_campaign(store, json.dumps(tray))
    assert store.log_rows(new_id)[3].dice == [[12, 12, 1], [12, 1, 1]]


def test_the_store_refuses_entered_dice_for_a_game_roll_while_the_app_rolls(store):
    from companion.games.base import InputError

    cid = store.create("counter", "App dice", {}, seed=3)
    with pytest.raises(InputError, match="I roll physical dice"):
        store.apply(cid, Roll(), expected_cursor=0, entered=[6])
    assert store.get(cid).cursor == 0
    assert store.apply(cid, TrayRoll(count=1, sides=6), expected_cursor=0, entered=[6]).dice[0].value == 6


def test_a_long_export_is_gzipped_and_imports(store, monkeypatch):
    monkeypatch.setattr(exchange, "GZIP_FROM", 8_000)  # 256 KB is ~2,500 actions: the same path, smaller
    cid = store.create("counter", "Long night", {}, seed=4)
    cursor = 0
    for i in range(120):
        action = TrayRoll(count=2, sides=6) if i % 2 else Add(amount=1 if i % 4 == 0 else -1)
        cursor = store.apply(cid, action, expected_cursor=cursor).cursor
    payload = exchange.export_campaign(store, cid)
    data, filename = exchange.export_file(payload)
    plain = exchange.dumps(payload).encode()
    assert filename == "counter-Long-night.json.gz" and data[:2] == exchange.GZIP_MAGIC
    assert len(plain) >= exchange.GZIP_FROM and len(data) * 5 < len(plain)
    assert exchange.export_file(payload)[0] == data  # the same campaign, the same bytes
    new_id = exchange.import_campaign(store, data)
    assert comparable(store, new_id)[1:] == comparable(store, cid)[1:]
    small, name = exchange.export_file(exchange.export_campaign(store, played(store)))
    assert name.endswith(".json") and small.startswith(b"{")


def test_damaged_and_oversized_gzip_files_are_refused(store, monkeypatch):
    import gzip

    payload = exchange.export_campaign(store, played(store))
    packed = gzip.compress(exchange.dumps(payload).encode())
    refused(store, packed[:-20], "cut short|damaged")
    refused(store, packed[:10] + b"\x00" * 40, "damaged")
    monkeypatch.setattr(exchange, "MAX_BYTES", 10_000)  # a "zip bomb": tiny, unpacking past the limit
    refused(store, gzip.compress(b" " * 100_000), "more than an import may hold")
    assert exchange.import_campaign(store, packed)  # within the limit it imports


def test_the_limit_is_counted_in_actions(store, monkeypatch):
    payload = exchange.export_campaign(store, played(store))
    monkeypatch.setattr(exchange, "MAX_ACTIONS", 3)
    refused(store, json.dumps(payload), "4 actions; an import may hold at most 3")


def test_catalog_round_trip_and_validation(store):
    raw = json.dumps({"format": exchange.CATALOG_FORMAT, "version": 1, "entries": [
        {"kind": "biosphere5_card", "key": "deep-well", "name": "Deep Well", "data": {"level": 1}}]})
    assert exchange.import_catalog(store, raw) == 1
    exported = exchange.export_catalog(store, "biosphere5_card")
    assert exported["entries"][0]["name"] == "Deep Well"
    with pytest.raises(ImportRefused, match="not a campaign|catalog"):
        exchange.import_campaign(store, raw)
    with pytest.raises(ImportRefused, match="bad card"):
        exchange.import_catalog(store, raw, validate_entry=lambda e: "bad card")


# --- every malformed import is refused with a plain message, the database untouched (#12.9) ---------


def rows(store):
    from sqlmodel import func, select

    from models.tables import ActionRow, Campaign, CatalogEntry

    with store.db.read() as s:
        return tuple(s.exec(select(func.count()).select_from(t)).one() for t in (Campaign, ActionRow, CatalogEntry))


def assert_plain(message: str) -> None:
    assert message and "Traceback" not in message and "http" not in message and "pydantic" not in message, message
    assert "For further information" not in message and "sqlite" not in message.lower(), message


def qr_of(data: bytes) -> str:
    import base64
    import zlib

    return exchange.QR_PREFIX + base64.urlsafe_b64encode(zlib.compress(data)).decode()


def corpus(payload: dict) -> dict[str, bytes | str]:
    """Files that once crashed the import (or slipped through), each with what must be refused."""
    def edited(**changes) -> str:
        data = json.loads(json.dumps(payload))
        for path, value in changes.items():
            target = data
            *steps, last = path.split("__")
            for step in steps:
                target = target[int(step) if step.isdigit() else step]
            target[int(last) if last.isdigit() else last] = value
        return json.dumps(data)

    deep = "[" * 5000 + "]" * 5000
    return {
        "nested 5,000 deep": deep,
        "nested 5,000 deep inside an export": edited(settings={"x": "@"}).replace('"@"', deep),
        "nested 100 deep inside an export": edited(settings={"x": "@"}).replace('"@"', "[" * 100 + "]" * 100),
        "an integer of 4,301 digits": edited(seed=0).replace('"seed": 0', '"seed": ' + "9" * 4301),
        "an integer of 30 digits in an action": edited(log__1__action__amount=0).replace(
            '"amount": 0', '"amount": ' + "1" * 30, 1),
        "NaN": edited(seed=0).replace('"seed": 0', '"seed": NaN'),
        "Infinity": edited(seed=0).replace('"seed": 0', '"seed": 1e999'),
        "a die written [6]": edited(log__2__dice=[[6]]),
        "a die written 6": edited(log__2__dice=[6]),
        "a die with text": edited(log__2__dice=[["6", 4, 0]]),
        "a die marked physical 7": edited(log__2__dice=[[6, 4, 7]]),
        "QR text that inflates to non-UTF-8": qr_of(b'{"format": "\xff\xfe"}'),
        "QR text that inflates to Latin-1": qr_of(json.dumps(payload, ensure_ascii=False).replace(
            "Export me", "Éxport me").encode("latin-1", "replace")),
        "bytes that are not UTF-8": b'{"format": "table-companion/campaign", "name": "\xe9"}',
        "a lone surrogate in pasted text": '{"name": "\udc80"}',
        "a lone surrogate written as an escape": edited(name="x\udc80y"),
        "a lone surrogate in a key": edited(settings={"\udc80": 1}),
        '"3" for a number': edited(seed="3"),
        '"3" for the position': edited(cursor="3"),
        '"1" for a seq': edited(log__1__seq="1"),
        "true for a version": edited(version=True),
        "true for a number": edited(cursor=True),
        "1.0 for a number": edited(seed=77.0),
        '"100" for a setting': edited(settings={"start": 2, "cap": "100"}),
        "a name of control characters only": edited(name="\x00\x07\u202e"),
        "a list for a name": edited(name=["x"]),
        "null for the log": edited(log=None),
        "a log entry that is a number": edited(log__1=5),
        "an action that is a list": edited(log__1__action=[1, 2]),
        "an unknown action": edited(log__1__action={"kind": "explode"}),
        "an action with a wrong field": edited(log__1__action={"kind": "add", "amount": "lots"}),
    }


def test_the_fuzz_corpus_is_refused_plainly_and_writes_nothing(store):
    payload = exchange.export_campaign(store, played(store))
    before = rows(store)
    for name, raw in corpus(payload).items():
        with pytest.raises(ImportRefused) as refused:
            exchange.import_campaign(store, raw)
        assert_plain(str(refused.value))
        assert rows(store) == before, name


def test_types_are_strict_and_messages_carry_no_library_url(store):
    payload = exchange.export_campaign(store, played(store))
    with pytest.raises(ImportRefused, match="seed: must be a whole number") as refused:
        exchange.import_campaign(store, json.dumps({**payload, "seed": "3"}))
    assert str(refused.value) == "The file's contents are not valid — seed: must be a whole number."
    with pytest.raises(ImportRefused, match="no format version"):
        exchange.import_campaign(store, json.dumps({**payload, "version": True}))
    with pytest.raises(ImportRefused, match="Settings refused — cap"):
        exchange.import_campaign(store, json.dumps({**payload, "settings": {"start": 2, "cap": "100"}}))


def test_control_characters_are_removed_from_names(store):
    payload = exchange.export_campaign(store, played(store))
    payload["name"] = "Ann\u202e\x00 won\tthe\x07 campaign"
    payload["log"][1]["label"] = "counter +3\x1b[31m"
    new_id = exchange.import_campaign(store, json.dumps(payload))
    assert store.get(new_id).name == "Ann won the campaign"
    assert all("\x1b" not in r.label for r in store.log_rows(new_id))
    catalog = {"format": exchange.CATALOG_FORMAT, "version": 1, "entries": [
        {"kind": "some_kind", "key": "k", "name": "Deep\x00 Well\u202e", "data": {}}]}
    exchange.import_catalog(store, json.dumps(catalog))
    assert exchange.export_catalog(store, "some_kind")["entries"][0]["name"] == "Deep Well"
    catalog["entries"][0]["key"] = "k\x00"
    with pytest.raises(ImportRefused, match="control characters"):
        exchange.import_catalog(store, json.dumps(catalog))


def test_a_file_with_a_byte_order_mark_imports(store):
    cid = played(store)
    text = exchange.dumps(exchange.export_campaign(store, cid))
    for raw in (b"\xef\xbb\xbf" + text.encode("utf-8"), "\ufeff" + text):
        new_id = exchange.import_campaign(store, raw)
        assert comparable(store, new_id)[1:] == comparable(store, cid)[1:]


def test_qr_text_in_a_file_imports(store):
    cid = played(store)
    qr = exchange.to_qr_text(exchange.export_campaign(store, cid))
    new_id = exchange.import_campaign(store, ("\n" + qr + "\n").encode())  # a file holding the QR text
    assert comparable(store, new_id) == comparable(store, cid)


def test_the_shipped_biosphere5_catalog_round_trips(store):
    from companion.games.biosphere5 import screens
    from companion.games.biosphere5.cards import CATALOG_KIND, validate_entry

    shipped = screens.load_cards(store)
    text = exchange.dumps(screens.export_payload(store))
    other = memory_store()
    assert exchange.import_catalog(other, text, validate_entry=validate_entry) == len(shipped)
    assert exchange.export_catalog(other, CATALOG_KIND) == exchange.export_catalog(store, CATALOG_KIND)


# Random damage to a valid export: whatever comes out is imported whole or refused with a message.
from hypothesis import given, strategies as st  # noqa: E402

_SEED_STORE = memory_store()
_VALID = exchange.export_campaign(_SEED_STORE, played(_SEED_STORE))
_JUNK = st.one_of(st.none(), st.booleans(), st.integers(), st.floats(allow_nan=False, allow_infinity=False),
                  st.text(max_size=8), st.lists(st.integers(), max_size=3), st.dictionaries(st.text(max_size=3),
                                                                                          st.integers(), max_size=2))


def _places(value, path=()):
    yield path
    if isinstance(value, dict):
        for k, v in value.items():
            yield from _places(v, path + (k,))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from _places(v, path + (i,))


_PLACES = [p for p in _places(_VALID) if p]


@given(st.lists(st.tuples(st.sampled_from(_PLACES), _JUNK, st.booleans()), min_size=1, max_size=3))
def test_random_damage_is_imported_whole_or_refused(damage):
    store = memory_store()
    data = json.loads(json.dumps(_VALID))
    for path, junk, remove in damage:
        target = data
        try:
            for step in path[:-1]:
                target = target[step]
            if remove and isinstance(target, dict):
                target.pop(path[-1], None)
            else:
                target[path[-1]] = junk
        except (KeyError, IndexError, TypeError):
            continue
    try:
        new_id = exchange.import_campaign(store, json.dumps(data))
    except ImportRefused as exc:
        assert_plain(str(exc))
        assert rows(store) == (0, 0, 0)
    else:
        assert store.load(new_id).campaign.id == new_id


@pytest.mark.parametrize("game_key", ["save_the_singularity", "shadowrun", "klaw", "biosphere5", "human_ethos"])
def test_a_long_campaign_of_each_game_travels_gzipped(store, monkeypatch, tmp_path, game_key):
    """The storage bench's long campaign, shorter: random legal play with the tray and notes, at a
    table rolling physical dice; exported gzipped, imported (every action replayed) to the same state."""
    from tests.perf import storage_bench

    monkeypatch.setattr(storage_bench, "ACTIONS", 150)
    monkeypatch.setattr(exchange, "GZIP_FROM", 1_000)
    settings, choose = next((s, c) for key, s, c in storage_bench._players() if key == game_key)
    result = storage_bench.play_one(game_key, settings, choose, tmp_path)
    assert result["actions"] == 150 and result["file"].endswith(".json.gz")
