"""Export/import round trip, QR text, and every refusal (nothing written)."""

import gzip
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
    """All of a campaign but its name (an imported copy beside its original is "name (2)"), which
    its first row's event says too."""
    c = store.get(cid)
    rows = [(r.seq, r.action, r.dice, r.events if r.seq else None, r.state, r.label, r.context) for r in store.log_rows(cid)]
    return (c.game, c.seed, c.settings, c.cursor, c.head, c.status, c.headline, rows)


def test_round_trip_gives_an_identical_campaign(store):
    cid = played(store)
    text = exchange.dumps(exchange.export_campaign(store, cid))
    new_id = exchange.import_campaign(store, text.encode())
    assert comparable(store, new_id) == comparable(store, cid)
    assert store.get(new_id).name == "Export me (2)"  # a copy beside its original: told apart
    assert store.get(exchange.import_campaign(store, text.encode())).name == "Export me (3)"
    elsewhere = memory_store()
    assert elsewhere.get(exchange.import_campaign(elsewhere, text.encode())).name == "Export me"
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
    refused(store, json.dumps(bad_state), "doesn.t replay")
    better_die = json.loads(json.dumps(payload))  # an app-rolled die edited: the seed rolls another
    better_die["log"][2]["dice"][0][1] = better_die["log"][2]["dice"][0][1] % 6 + 1
    refused(store, json.dumps(better_die), "seed")
    bad_dice = json.loads(json.dumps(payload))
    bad_dice["log"][2]["dice"] = [[6, 1, 0], [6, 2, 0]]
    refused(store, json.dumps(bad_dice), "doesn.t replay")
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
    refused(store, json.dumps(marked), "action 2: a die is marked as rolled at the table")
    tray = json.loads(json.dumps(payload))  # the tray roll at seq 3 may carry dice the table rolled
    tray["log"][3]["dice"] = [[12, 12, 1], [12, 1, 1]]
    new_id = exchange.import_campaign(store, json.dumps(tray))
    assert store.log_rows(new_id)[3].dice == [[12, 12, 1], [12, 1, 1]]


def tampered_files(payload: dict, seq: int) -> dict[str, dict]:
    """The app's first die at `seq` changed and marked as the table's, with what a file might add
    to be believed: an old format version, the legacy flag, or both."""
    edited = json.loads(json.dumps(payload))
    die = edited["log"][seq]["dice"][0]
    die[1], die[2] = die[1] % die[0] + 1, 1
    return {
        "format 2": edited,
        "version 1": {**edited, "version": 1},
        "legacy flag": {**edited, "legacy_entered_dice": True},
        "version 1 and the legacy flag": {**edited, "version": 1, "legacy_entered_dice": True},
    }


def test_a_file_cant_switch_off_the_dice_check(store):
    """The version and flags in a file are read, never trusted: a die the app rolled, changed and
    marked as the table's, is refused however the file describes itself."""
    payload = exchange.export_campaign(store, played(store))
    for how, data in tampered_files(payload, 2).items():
        before = rows(store)
        with pytest.raises(ImportRefused) as refusal:
            exchange.import_campaign(store, json.dumps(data))
        said = str(refusal.value)
        assert "action 2: a die is marked as rolled at the table" in said and "“I roll physical dice” is off" in said, how
        assert_plain(said)
        assert rows(store) == before, how


def test_a_die_entered_at_a_physical_table_imports_and_one_marked_as_the_app_s_is_named(store):
    from companion.table import GiveDice, SetPhysicalDice

    cid = store.create("counter", "Table dice", {}, seed=9)
    store.apply(cid, SetPhysicalDice(on=True), expected_cursor=0)
    store.apply(cid, Roll(), expected_cursor=1)
    store.apply(cid, GiveDice(faces=[5]), expected_cursor=2)
    payload = exchange.export_campaign(store, cid)
    assert payload["log"][3]["dice"] == [[6, 5, 1]]
    new_id = exchange.import_campaign(store, json.dumps(payload))
    assert store.load(new_id).state.game["value"] == 5
    as_the_apps = json.loads(json.dumps(payload))
    as_the_apps["log"][3]["dice"] = [[6, 5, 0]]  # the same face, said to be the app's: once the same list twice
    refused(store, json.dumps(as_the_apps), "action 3, die 1: the log marks a die the table rolled as the app's")
    bigger = json.loads(json.dumps(payload))
    bigger["log"][3]["dice"] = [[8, 5, 1]]
    refused(store, json.dumps(bigger), "action 3, die 1: the log has a d8, the rules rolled a d6")


def test_a_die_entered_before_physical_dice_were_an_action_needs_the_state_its_save_recorded(store):
    """A first-version save (a state on every row) could take a typed die on any action. Its export
    carries that row's recorded state; without it, or once the log has switched physical dice, the
    same die is refused."""
    from companion.table import SetPhysicalDice

    payload = exchange.export_campaign(store, played(store))
    legacy = json.loads(json.dumps(payload))
    legacy["log"][2]["dice"] = [[6, 6, 1]]  # a typed 6 on the roll, as the first version allowed
    legacy["log"][2]["state"] = {"game": {"value": 11, "cap": 100, "turn": 3}, "tray": []}  # 2 + 3 + 6
    new_id = exchange.import_campaign(store, json.dumps(legacy))
    assert store.log_rows(new_id)[2].dice == [[6, 6, 1]]
    assert set(exchange._entered_before_physical_dice(store.log_rows(new_id))) == {2}
    again = exchange.export_campaign(store, new_id)  # and it travels on, with its recorded state
    assert again["log"][2]["state"]["game"]["value"] == 11 and "state" not in again["log"][1]
    assert comparable(store, exchange.import_campaign(store, json.dumps(again)))[2:] == comparable(store, new_id)[2:]
    wrong_state = json.loads(json.dumps(legacy))
    wrong_state["log"][2]["state"]["game"]["value"] = 12
    refused(store, json.dumps(wrong_state), "action 2: the replayed state differs")
    switched = json.loads(json.dumps(legacy))  # physical dice switched on and off first: the log says when the table rolls
    switched["log"][1:1] = [{"seq": 1, "action": SetPhysicalDice(on=True).model_dump(mode="json"), "dice": []},
                            {"seq": 2, "action": SetPhysicalDice(on=False).model_dump(mode="json"), "dice": []}]
    for i, entry in enumerate(switched["log"]):
        entry["seq"] = i
    refused(store, json.dumps({**switched, "cursor": switched["cursor"] + 2}), "action 4: a die is marked as rolled at the table")


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
        assert comparable(store, new_id) == comparable(store, cid)


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


def app_rolled_campaign(store, game_key: str) -> tuple[int, int]:
    """A campaign of `game_key` played with the app rolling (legal moves, as the storage bench's
    players choose them) up to its first action that rolled a die: (campaign id, that action)."""
    import random

    from companion.games import get_game
    from companion.games.base import InputError, RuleError
    from tests.perf import storage_bench

    settings, choose = next((s, c) for key, s, c in storage_bench._players() if key == game_key)
    game, rng = get_game(game_key), random.Random(3)
    cid = store.create(game_key, "Tampered", settings, seed=11)
    loaded = store.load(cid)
    state, cursor = loaded.state, loaded.cursor
    for _ in range(400):
        game_state = game.State.model_validate(state.game)
        action = choose(game_state, game.legal_moves(game_state), rng)
        try:
            applied = store.apply(cid, action, expected_cursor=cursor)
        except (RuleError, InputError):
            continue
        state, cursor = applied.state, applied.cursor
        if applied.dice:
            return cid, cursor
    raise AssertionError(f"{game_key}: no action rolled a die")


@pytest.mark.parametrize("game_key", ["save_the_singularity", "shadowrun", "klaw", "biosphere5"])
def test_a_tampered_die_is_refused_in_every_game(store, game_key):
    """The issue's file: a seeded die changed, marked as the table's, and an old version or the
    legacy flag added. Refused for each game, naming the action."""
    cid, seq = app_rolled_campaign(store, game_key)
    payload = exchange.export_campaign(store, cid)
    before = rows(store)
    for how, data in tampered_files(payload, seq).items():
        with pytest.raises(ImportRefused) as refusal:
            exchange.import_campaign(store, json.dumps(data))
        said = str(refusal.value)
        assert f"action {seq}: a die is marked as rolled at the table" in said, (how, said)
        assert_plain(said)
    unmarked = json.loads(json.dumps(payload))  # changed but not marked: the seed says which die
    die = unmarked["log"][seq]["dice"][0]
    was, die[1] = die[1], die[1] % die[0] + 1
    with pytest.raises(ImportRefused, match=f"action {seq}, die 1: the log has {die[1]}, but the campaign's seed rolls {was}"):
        exchange.import_campaign(store, json.dumps(unmarked))
    assert rows(store) == before
    exchange.import_campaign(store, json.dumps(payload))  # the file as exported imports


def test_human_ethos_rolls_no_dice_and_its_tray_s_app_dice_are_checked(store):
    """Human Ethos's enemies follow rules, not dice: its only dice are the tray's. The tray takes
    the table's dice in any campaign, and the app's are checked against the seed."""
    cid = store.create("human_ethos", "Tray", {"tie_break": "smart"}, seed=11)
    store.apply(cid, TrayRoll(count=2, sides=6), expected_cursor=0)
    payload = exchange.export_campaign(store, cid)
    edited = json.loads(json.dumps(payload))
    was = edited["log"][1]["dice"][1][1]
    edited["log"][1]["dice"][1][1] = was % 6 + 1
    refused(store, json.dumps({**edited, "version": 1, "legacy_entered_dice": True}),
            f"action 1, die 2: the log has {was % 6 + 1}, but the campaign's seed rolls {was}")


def hostile_inputs(payload: dict) -> dict[str, tuple[str, str]]:
    """Deeply nested, oversized and extra-field inputs of a campaign file: (text, what the refusal says)."""
    deep = "[" * 100_000 + "]" * 100_000  # far past Python's recursion limit
    extra_state = json.loads(json.dumps(payload))
    extra_state["log"][1]["state"] = {"game": {"value": 2, "cap": 100, "turn": 1}, "tray": [], "cheat": 1}
    extra_field_in_action = json.loads(json.dumps(payload))
    extra_field_in_action["log"][1]["action"]["cheat"] = 1
    return {
        "nested 100,000 deep": (deep, "nests more than 64 levels"),
        "nested 100,000 deep in its settings": (json.dumps({**payload, "settings": "@"}).replace('"@"', deep),
                                                 "nests more than 64 levels"),
        "oversized": (" " * (exchange.MAX_BYTES + 1), "at most 50 MB"),
        "a state with an extra field": (json.dumps(extra_state), "A state recorded in the file doesn't fit the game — "
                                                                  "cheat: is not expected here."),
        "an action with an extra field": (json.dumps(extra_field_in_action), "action 1: the action can't be replayed"),
        "a setting with an extra field": (json.dumps({**payload, "settings": {"cheat": 1}}),
                                          "Settings refused — cheat: is not expected here."),
    }


def test_hostile_inputs_are_refused_in_words_by_what_the_import_dialog_calls(store):
    payload = exchange.export_campaign(store, played(store))
    before = rows(store)
    for name, (text, said) in hostile_inputs(payload).items():
        for raw in (text, text.encode()):  # pasted text, and a chosen file's bytes
            with pytest.raises(ImportRefused) as refusal:
                exchange.import_campaign(store, raw)
            assert said in str(refusal.value), (name, str(refusal.value))
            assert_plain(str(refusal.value))
    assert rows(store) == before


def test_hostile_catalogs_are_refused_in_words_by_the_biosphere5_import(store):
    """Biosphere 5's Card catalog → Import takes pasted text: its own catalog format or an export."""
    from companion.games.base import InputError
    from companion.games.biosphere5.screens import import_text

    deep = "[" * 100_000 + "]" * 100_000
    card = {"id": "deep-well", "name": "Deep Well", "upper": {"kind": "perfect", "category": "water", "level": 1}}
    cases = {
        "a catalog file nested deep": (json.dumps({"format": "biosphere5-catalog", "version": 1, "cards": "@"})
                                       .replace('"@"', deep), "nests more than 64 levels"),
        "an export nested deep": (json.dumps({"format": exchange.CATALOG_FORMAT, "version": 2, "entries": "@"})
                                  .replace('"@"', deep), "nests more than 64 levels"),
        "a card nested 70 deep": (json.dumps({"format": "biosphere5-catalog", "version": 1, "cards": [
            {**card, "note": "@"}]}).replace('"@"', "[" * 70 + "]" * 70), "nests more than 64 levels"),
        "oversized": ("x" * (exchange.MAX_BYTES + 1), "too long for a catalog"),
        "a card with an extra field": (json.dumps({"format": "biosphere5-catalog", "version": 1, "cards": [
            {**card, "attack": 9}]}), "card 1 (“Deep Well”), attack: is not expected here"),
        "an edited card": (json.dumps({"format": "biosphere5-catalog", "version": 1, "cards": [
            {**card, "upper": {**card["upper"], "level": 9}}]}), "card 1 (“Deep Well”), upper option, level: must be at most 4"),
    }
    for name, (text, said) in cases.items():
        with pytest.raises(InputError) as refusal:
            import_text(store, text, replace=False)
        assert said in str(refusal.value), (name, str(refusal.value))
        assert_plain(str(refusal.value))
        assert "Input should" not in str(refusal.value) and "validation error" not in str(refusal.value)
    assert rows(store)[2] == 0


def test_a_biosphere5_catalog_given_to_campaign_import_points_to_its_own_import(store):
    catalog = json.dumps({"format": "biosphere5-catalog", "version": 1, "cards": []})
    refused(store, catalog, "Card catalog → Import")


def test_a_one_byte_damaged_or_cut_export_says_so(store):
    text = exchange.dumps(exchange.export_campaign(store, played(store))).encode()
    damaged = bytearray(text)
    damaged[10] = ord("#")  # one byte, inside its first field
    for raw in (bytes(damaged), text[: len(text) // 2], text[:-1], bytes(damaged).decode()):
        refused(store, raw, "damaged or cut short")
    refused(store, b"\x89PNG\r\n\x1a\n" + b"\x00" * 40, "not a campaign export")  # another file entirely
    packed = bytearray(gzip.compress(text))
    packed[len(packed) // 2] ^= 0x01
    with pytest.raises(ImportRefused) as refusal:
        exchange.import_campaign(store, bytes(packed))
    assert "damaged" in str(refusal.value) and "Error -3" not in str(refusal.value)


def test_a_json_field_of_a_settings_form_refuses_deep_nesting_in_words():
    from pydantic import BaseModel

    from companion.games.base import InputError
    from companion.ui.forms import SettingsForm

    class WithTable(BaseModel):
        table: dict = {}

    form = SettingsForm(WithTable)
    form.inputs["table"][1].value = "[" * 100_000 + "]" * 100_000
    with pytest.raises(InputError, match="nests more than 64 levels"):
        form.collect()
    form.inputs["table"][1].value = '{"a": '
    with pytest.raises(InputError, match="not valid JSON"):
        form.collect()
