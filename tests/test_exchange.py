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
    refused(store, b"{not json", "not valid JSON")
    refused(store, b"\xff\xfe\x00", "not valid JSON")
    refused(store, b"[1,2,3]", "not a Table Companion export")
    refused(store, json.dumps({"format": "something-else", "version": 1}).encode(), "not a Table Companion export")
    refused(store, "TC1:@@@@", "damaged")


def test_oversized_files_are_refused(store):
    refused(store, b" " * (exchange.MAX_BYTES + 1), "at most 4 MB")


def test_wrong_versions_are_refused(store):
    payload = exchange.export_campaign(store, played(store))
    refused(store, json.dumps({**payload, "version": 99}).encode(), "newer version")
    refused(store, json.dumps({**payload, "version": 0}).encode(), "Unknown format version")
    refused(store, json.dumps({**payload, "version": "1"}).encode(), "no format version")


def test_tampered_contents_are_refused(store):
    payload = exchange.export_campaign(store, played(store))
    bad_state = json.loads(json.dumps(payload))
    bad_state["log"][2]["state"]["game"]["value"] = 99
    refused(store, json.dumps(bad_state), "does not replay")
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
