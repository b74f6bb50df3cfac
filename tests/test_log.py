"""The log: apply, undo, redo, the undone tail, stale refusal, and replay."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.games.base import InputError, RuleError
from companion.games.counter.rules import Add, Roll
from companion.log import StaleAction, replay
from companion.games import get_game
from companion.i18n import render
from companion.table import SetPhysicalDice, TableNote, TrayRoll
from tests.helpers import memory_store


@pytest.fixture
def store():
    return memory_store()


def test_create_starts_at_cursor_zero_with_the_settings_state(store):
    cid = store.create("counter", "Friday", {"start": 3, "cap": 10})
    loaded = store.load(cid)
    assert loaded.cursor == 0 and loaded.game_state.value == 3
    assert loaded.undo_label is None and loaded.redo_label is None


def test_apply_undo_redo(store):
    cid = store.create("counter", "Friday", {})
    store.apply(cid, Add(amount=5), expected_cursor=0)
    store.apply(cid, Add(amount=-2), expected_cursor=1)
    assert store.load(cid).game_state.value == 3
    assert store.load(cid).undo_label == "counter -2"
    store.undo(cid, expected_cursor=2)
    loaded = store.load(cid)
    assert loaded.game_state.value == 5 and loaded.redo_label == "counter -2"
    store.redo(cid, expected_cursor=1)
    assert store.load(cid).game_state.value == 3


def test_nothing_to_undo_or_redo_is_refused(store):
    cid = store.create("counter", "Friday", {})
    with pytest.raises(RuleError, match="Nothing to undo"):
        store.undo(cid, expected_cursor=0)
    with pytest.raises(RuleError, match="Nothing to redo"):
        store.redo(cid, expected_cursor=0)


def test_a_new_action_after_undo_drops_the_undone_tail(store):
    cid = store.create("counter", "Friday", {})
    store.apply(cid, Add(amount=1), expected_cursor=0)
    store.apply(cid, Add(amount=2), expected_cursor=1)
    store.undo(cid, expected_cursor=2)
    store.apply(cid, Add(amount=10), expected_cursor=1)
    loaded = store.load(cid)
    assert loaded.game_state.value == 11 and loaded.redo_label is None
    assert [r.seq for r in store.log_rows(cid)] == [0, 1, 2]
    assert loaded.campaign.head == 2


def test_undo_can_never_reroll(store):
    cid = store.create("counter", "Friday", {}, seed=1234)
    first = store.apply(cid, Roll(), expected_cursor=0).dice[0].value
    for _ in range(5):
        store.undo(cid, expected_cursor=1)
        again = store.apply(cid, Roll(), expected_cursor=0).dice[0].value
        assert again == first
    store.undo(cid, expected_cursor=1)
    store.redo(cid, expected_cursor=0)
    assert store.log_rows(cid)[1].dice[0][1] == first


def test_a_stale_action_is_refused_and_changes_nothing(store):
    cid = store.create("counter", "Friday", {})
    store.apply(cid, Add(amount=1), expected_cursor=0)
    # A second phone still showing cursor 0 taps "+1": refused, not doubled.
    with pytest.raises(StaleAction):
        store.apply(cid, Add(amount=1), expected_cursor=0)
    with pytest.raises(StaleAction):
        store.undo(cid, expected_cursor=0)
    assert store.load(cid).game_state.value == 1 and store.load(cid).cursor == 1


def test_an_illegal_action_changes_nothing(store):
    cid = store.create("counter", "Friday", {"cap": 5})
    with pytest.raises(RuleError, match="between 0 and 5"):
        store.apply(cid, Add(amount=9), expected_cursor=0)
    with pytest.raises(InputError):
        store.apply(cid, {"kind": "add", "amount": "lots"}, expected_cursor=0)
    with pytest.raises(InputError):
        store.apply(cid, {"kind": "teleport"}, expected_cursor=0)
    assert store.load(cid).cursor == 0 and len(store.log_rows(cid)) == 1


def physical_table(store) -> int:
    cid = store.create("counter", "Friday", {})
    store.apply(cid, SetPhysicalDice(on=True), expected_cursor=0)
    return cid


def test_physical_dice_are_recorded_as_physical(store):
    cid = physical_table(store)
    applied = store.apply(cid, Roll(), expected_cursor=1, entered=[6])
    assert store.load(cid).game_state.value == 6
    assert applied.dice[0].physical and store.log_rows(cid)[2].dice == [[6, 6, 1]]


def test_a_physical_die_out_of_range_or_too_many_entries_is_refused(store):
    cid = physical_table(store)
    with pytest.raises(InputError, match="1 to 6"):
        store.apply(cid, Roll(), expected_cursor=1, entered=[7])
    with pytest.raises(InputError, match="entered (die was|dice were) not needed"):
        store.apply(cid, Roll(), expected_cursor=1, entered=[3, 4])
    assert store.load(cid).cursor == 1


def test_tray_rolls_and_notes_are_logged_actions(store):
    cid = store.create("counter", "Friday", {})
    applied = store.apply(cid, TrayRoll(count=2, sides=6), expected_cursor=0)
    assert applied.label == "roll 2d6" and len(applied.dice) == 2
    faces = ["black hand"] + ["blank"] * 5
    store.apply(cid, TrayRoll(count=3, sides=6, faces=faces, name="hand die"), expected_cursor=1)
    store.apply(cid, TableNote(text="Drew Hurricane"), expected_cursor=2)
    tray = store.load(cid).state.tray
    assert tray[0].label == "3×hand die" and set(tray[0].shown) <= {"black hand", "blank"}
    assert [r.label for r in store.history(cid)] == ["note “Drew Hurricane”", "roll 3×hand die", "roll 2d6"]


def test_bad_tray_input_is_refused(store):
    cid = store.create("counter", "Friday", {})
    for bad in ({"kind": "tray_roll", "count": 0, "sides": 6}, {"kind": "tray_roll", "count": 1, "sides": 1},
                {"kind": "tray_roll", "count": 1, "sides": 6, "faces": ["a", "b"]}, {"kind": "note", "text": ""}):
        with pytest.raises(InputError):
            store.apply(cid, bad, expected_cursor=0)


@pytest.mark.parametrize("name,message", [("", "1 to 60"), ("   ", "1 to 60"), ("x" * 10_000, "at most 60")])
def test_bad_names_are_refused(store, name, message):
    with pytest.raises(InputError, match=message):
        store.create("counter", name, {})
    assert store.list_campaigns() == []


def test_settings_out_of_range_are_refused_with_the_range(store):
    # the field named as the form labels it (its description), in the phone's language
    with pytest.raises(InputError, match="Highest value: must be 1 or more"):
        store.create("counter", "x", {"cap": 0})
    with pytest.raises(InputError) as refused:
        store.create("counter", "x", {"cap": 0})
    assert "Höchstwert: muss 1 oder mehr sein" in render(refused.value.args[0], "de")
    cid = store.create("counter", "y", {})
    with pytest.raises(InputError, match="Amount: must be at most 1,000"):  # an action's field, in its union
        store.apply(cid, {"kind": "add", "amount": 5000}, expected_cursor=0)
    with pytest.raises(InputError):
        store.create("counter", "x", {"nonsense": 1})
    with pytest.raises(InputError, match="Unknown game"):
        store.create("chess", "x", {})


def test_rename_duplicate_delete_and_newest_first(store):
    a = store.create("counter", "A", {})
    b = store.create("counter", "B", {})
    store.apply(a, Add(amount=1), expected_cursor=0)
    assert [c.name for c in store.list_campaigns()] == ["A", "B"]
    store.rename(b, "  Bee   night ")
    assert store.get(b).name == "Bee night"
    copy = store.duplicate(a)
    assert store.load(copy).game_state.value == 1 and store.get(copy).name == "A (copy)"
    store.undo(copy, expected_cursor=1)
    assert store.load(a).game_state.value == 1  # the copy is independent
    store.delete(a)
    assert {c.name for c in store.list_campaigns()} == {"Bee night", "A (copy)"}


def test_listeners_hear_every_change(store):
    heard = []
    store.on_change = lambda cid, cursor: heard.append((cid, cursor))
    cid = store.create("counter", "A", {})
    store.apply(cid, Add(amount=1), expected_cursor=0)
    store.undo(cid, expected_cursor=1)
    store.redo(cid, expected_cursor=0)
    assert heard == [(cid, 1), (cid, 0), (cid, 1)]


# --- property: random apply/undo/redo, replay equals the stored states -----------------------------

moves = st.lists(
    st.one_of(
        st.tuples(st.just("add"), st.integers(-3, 5)),
        st.tuples(st.just("roll"), st.none()),
        st.tuples(st.just("tray"), st.integers(1, 3)),
        st.tuples(st.just("undo"), st.none()),
        st.tuples(st.just("redo"), st.none()),
    ),
    max_size=25,
)


@settings(max_examples=60)
@given(moves=moves, seed=st.integers(0, 2**32))
def test_random_play_replays_to_the_stored_states(moves, seed):
    store = memory_store()
    cid = store.create("counter", "prop", {"cap": 40}, seed=seed)
    model = [store.load(cid).state]  # states by cursor, as a reference model of undo/redo
    cursor = 0
    for kind, arg in moves:
        try:
            if kind == "add":
                store.apply(cid, Add(amount=arg), expected_cursor=cursor)
            elif kind == "roll":
                store.apply(cid, Roll(), expected_cursor=cursor)
            elif kind == "tray":
                store.apply(cid, TrayRoll(count=arg, sides=6), expected_cursor=cursor)
            elif kind == "undo":
                store.undo(cid, expected_cursor=cursor)
            else:
                store.redo(cid, expected_cursor=cursor)
        except RuleError:
            assert store.load(cid).cursor == cursor  # refused: nothing moved
            continue
        loaded = store.load(cid)
        if kind in ("add", "roll", "tray"):
            assert loaded.cursor == cursor + 1
            model = model[: cursor + 1] + [loaded.state]
        else:
            assert loaded.state == model[loaded.cursor]  # undo/redo land on the same stored states
        cursor = loaded.cursor
        value = loaded.game_state.value
        assert 0 <= value <= 40
    rows = store.log_rows(cid)
    report = replay(get_game("counter"), store.get(cid).settings, [r.model_dump() for r in rows])
    assert report.ok, report.mismatches
    assert len(rows) == len(model)


def test_replay_with_the_seed_refuses_dice_the_seed_does_not_roll():
    """An app-rolled die edited to a better one, or a changed seed, no longer replays."""
    from companion.games import get_game
    from companion.games.counter.rules import Roll
    from companion.log import replay

    store = memory_store()
    cid = store.create("counter", "c", {}, seed=1234)
    for cursor in range(3):
        store.apply(cid, Roll(), expected_cursor=cursor)
    rows = [r.model_dump() for r in store.log_rows(cid)]
    game = get_game("counter")
    assert replay(game, {}, rows, seed=1234).ok
    assert not replay(game, {}, rows, seed=4321).ok  # another seed rolls other dice
    # Edit the second roll's die and recompute the states: the old replay was fooled, the seeded one isn't.
    tampered = [dict(r) for r in rows]
    face = tampered[2]["dice"][0][1]
    better = 6 if face != 6 else 5
    tampered[2]["dice"] = [[6, better, 0]]
    delta = better - face
    for r in tampered[2:]:
        if r["state"] is not None:  # the rows that keep a state (the newest; see SNAPSHOT_EVERY)
            r["state"] = {**r["state"], "game": {**r["state"]["game"], "value": r["state"]["game"]["value"] + delta}}
    assert replay(game, {}, tampered).ok
    report = replay(game, {}, tampered, seed=1234)
    assert not report.ok and "action 2, die 1: the log has {}, but the campaign's seed rolls {}".format(better, face) in str(report.mismatches[0])


def test_replay_rebuilds_labels_and_contexts_from_the_rules():
    from companion.games import get_game
    from companion.games.counter.rules import Add
    from companion.log import replay

    store = memory_store()
    cid = store.create("counter", "c", {})
    store.apply(cid, Add(amount=2), expected_cursor=0)
    rows = [r.model_dump() for r in store.log_rows(cid)]
    report = replay(get_game("counter"), {}, rows)
    from companion.i18n import as_text

    kept = (as_text(rows[1]["label"]), as_text(rows[1]["context"]))  # the save keeps a Msg as its JSON
    assert report.labels[1] == kept == ("counter +2", "Turn 1 · value 0")
    assert [words.render("de") for words in kept] == ["Zähler +2", "Zug 1 · Wert 0"]


def test_an_old_save_keeps_its_states_even_where_todays_rules_would_refuse_the_action():
    """A save made before snapshots has a state on every row, some made by rules since changed
    (here: an amount the counter now refuses). Playing on, then undoing back, still lands there."""
    from companion.games.counter.rules import Add
    from sqlmodel import select

    from models.tables import ActionRow, Campaign, NewestState

    store = memory_store()
    cid = store.create("counter", "old", {"cap": 100})
    with store.db.session() as s:
        row0 = s.exec(select(ActionRow).where(ActionRow.campaign_id == cid, ActionRow.seq == 0)).one()
        newest = s.get(NewestState, cid)
        row0.state, row0.snapshot = newest.state, None  # as saved before 0003: a state on every row
        s.delete(newest)  # (and no newest state apart: that came with 0004)
        s.add(row0)
        s.add(ActionRow(campaign_id=cid, seq=1, action={"kind": "add", "amount": 5000}, dice=[], events=[],
                        state={"game": {"value": 50, "cap": 100, "turn": 2}, "tray": []}, label="an old rule"))
        campaign = s.get(Campaign, cid)
        campaign.cursor = campaign.head = 1
        s.add(campaign)
    store.apply(cid, Add(amount=-1), expected_cursor=1)
    store.apply(cid, Add(amount=-1), expected_cursor=2)
    store.undo(cid, expected_cursor=3)
    store.undo(cid, expected_cursor=2)
    assert store.load(cid).game_state.value == 50  # the old state, though its action is refused today


def test_two_stores_on_one_save_never_start_from_a_stale_state(tmp_path):
    """A store starts an action from the state its own last apply wrote; a change made through
    another store (another process on the same save) must not be built on a stale copy."""
    from companion.log import Store
    from models.db import open_database

    url = f"sqlite:///{tmp_path / 'shared.sqlite'}"
    a, b = Store(open_database(url)), Store(open_database(url))
    cid = a.create("counter", "shared", {"cap": 100})
    a.apply(cid, Add(amount=1), expected_cursor=0)
    b.apply(cid, Add(amount=2), expected_cursor=1)
    a.apply(cid, Add(amount=3), expected_cursor=2)  # a's own last write was cursor 1
    assert b.load(cid).game_state.value == 6
    b.undo(cid, expected_cursor=3)
    a.apply(cid, Add(amount=10), expected_cursor=2)  # a wrote cursor 3 last, but b undid it
    assert a.load(cid).game_state.value == 13 == b.load(cid).game_state.value
    a.apply(cid, Add(amount=1), expected_cursor=3)
    rows = a.log_rows(cid)
    assert [r.seq for r in rows if r.state is not None] == [rows[-1].seq]  # only the newest keeps its state
    report = replay(get_game("counter"), a.get(cid).settings, [r.model_dump() for r in rows])
    assert report.ok, report.mismatches



def test_a_log_row_is_written_once_and_the_newest_state_is_kept_apart(tmp_path):
    """Each action adds its row and never changes an earlier one (a row rewritten smaller leaves a
    hole in the file that later rows never fill); the newest state is the campaign's one NewestState
    row. The log read as a whole (log_rows) still gives the newest row its state."""
    import re
    import sqlite3

    from sqlalchemy import event

    from companion.log import Store
    from models.db import open_database

    path = tmp_path / "once.sqlite"
    store = Store(open_database(f"sqlite:///{path}"))
    cid = store.create("counter", "once", {"cap": 100})
    statements: list[str] = []
    event.listen(store.db.engine, "before_cursor_execute", lambda conn, cur, sql, *a: statements.append(sql))
    cursor = 0
    for action in (Add(amount=3), Roll(), Add(amount=1), Add(amount=2)):
        cursor = store.apply(cid, action, expected_cursor=cursor).cursor
    cursor = store.undo(cid, expected_cursor=cursor).cursor
    cursor = store.apply(cid, Add(amount=5), expected_cursor=cursor).cursor  # the undone row goes
    writes = [f"{m[1]} {m[2]}" for m in map(re.compile(r"^(INSERT|UPDATE|DELETE)(?: INTO| FROM)? (\w+)").match, statements) if m]
    assert "UPDATE action_log" not in writes and "INSERT action_log" in writes and "DELETE action_log" in writes
    with sqlite3.connect(path) as con:
        assert con.execute("SELECT count(*) FROM action_log WHERE state IS NOT NULL").fetchone()[0] == 0
        assert con.execute("SELECT seq FROM newest_state WHERE campaign_id = ?", (cid,)).fetchall() == [(cursor,)]
    value = store.load(cid).game_state.value
    rows = store.log_rows(cid)
    assert rows[-1].state["game"]["value"] == value and all(r.state is None for r in rows[:-1])
    assert replay(get_game("counter"), store.get(cid).settings, [r.model_dump() for r in rows]).ok
    assert store.log_rows(cid)[-1].state == rows[-1].state  # (filled in on the copies, not written back)
    copy = store.duplicate(cid)
    assert store.load(copy).game_state.value == value
    store.delete(cid)
    with sqlite3.connect(path) as con:
        assert con.execute("SELECT count(*) FROM newest_state WHERE campaign_id = ?", (cid,)).fetchone()[0] == 0


def test_undoing_the_last_action_lands_on_the_state_before_without_a_replay(tmp_path, monkeypatch):
    """A tap's undo of what was just done starts from the state that action started from (the
    store kept it); an undo further back, or after the store forgot, replays as before. Either way
    the state is the one the log replays to, and the next action starts from it."""
    import companion.log as log_module

    store = memory_store()
    cid = store.create("counter", "undo", {"cap": 100}, seed=3)
    cursor = 0
    for amount in range(1, 6):
        cursor = store.apply(cid, Add(amount=amount), expected_cursor=cursor).cursor
    steps = []
    real_step = log_module.step
    monkeypatch.setattr(log_module, "step", lambda *a, **k: steps.append(1) or real_step(*a, **k))
    undone = store.undo(cid, expected_cursor=cursor)
    assert steps == [] and undone.state == store.state_at(cid, undone.cursor)
    assert undone.state.game["value"] == 1 + 2 + 3 + 4
    again = store.undo(cid, expected_cursor=undone.cursor)  # two back: nothing kept, replayed
    assert steps and again.state.game["value"] == 1 + 2 + 3
    store.forget()
    redone = store.redo(cid, expected_cursor=again.cursor)
    applied = store.apply(cid, Add(amount=10), expected_cursor=redone.cursor)
    assert applied.state.game["value"] == 1 + 2 + 3 + 4 + 10 == store.load(cid).game_state.value


def test_events_are_kept_compressed_and_older_plain_ones_still_read(tmp_path):
    import json
    import sqlite3
    import zlib

    from companion.log import Store
    from models.db import open_database

    path = tmp_path / "packed.sqlite"
    store = Store(open_database(f"sqlite:///{path}"))
    cid = store.create("counter", "packed", {"cap": 100})
    store.apply(cid, Roll(), expected_cursor=0)
    events = store.log_rows(cid)[1].events
    assert events and events[0]["kind"]
    with sqlite3.connect(path) as con:
        [(raw,)] = con.execute("SELECT events FROM action_log WHERE campaign_id = ? AND seq = 1", (cid,)).fetchall()
        assert isinstance(raw, bytes) and json.loads(zlib.decompress(raw)) == events
        con.execute("UPDATE action_log SET events = ? WHERE campaign_id = ? AND seq = 1", (json.dumps(events), cid))
    assert store.log_rows(cid)[1].events == events  # a row written before, as JSON text
    assert [line.events for line in store.lines(cid)] == [events]
