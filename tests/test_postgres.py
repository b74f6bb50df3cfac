"""The store on PostgreSQL, the supported server database. Runs when COMPANION_TEST_POSTGRES_URL
names an empty database the tests may use (`.ci/run` starts one); skipped otherwise."""

import os
import threading

import pytest
from sqlalchemy import text

from companion import exchange
from companion.games.counter.rules import Add, Roll
from companion.log import StaleAction, Store
from models.db import open_database

URL = os.environ.get("COMPANION_TEST_POSTGRES_URL")
pytestmark = pytest.mark.skipif(not URL, reason="set COMPANION_TEST_POSTGRES_URL to test PostgreSQL")


@pytest.fixture
def store():
    db = open_database(URL)
    with db.engine.begin() as conn:
        conn.execute(text("DELETE FROM action_log"))
        conn.execute(text("DELETE FROM campaign"))
        conn.execute(text("DELETE FROM catalog"))
    yield Store(db)
    db.close()


def test_play_undo_redo_export_import_on_postgres(store):
    cid = store.create("counter", "Server night", {"start": 1}, seed=2**62 + 5)
    cursor = 0
    for action in (Add(amount=2), Roll(), Add(amount=-1)):
        cursor = store.apply(cid, action, expected_cursor=cursor).cursor
    store.undo(cid, expected_cursor=3)
    store.redo(cid, expected_cursor=2)
    with pytest.raises(StaleAction):
        store.apply(cid, Add(amount=1), expected_cursor=2)
    payload = exchange.export_campaign(store, cid)
    copy = exchange.import_campaign(store, exchange.dumps(payload))
    assert store.load(copy).state == store.load(cid).state
    assert store.get(copy).seed == 2**62 + 5


def test_two_writers_at_once_never_double_an_action(store):
    cid = store.create("counter", "Race", {"cap": 1000})
    results: list[str] = []
    # Two stores = two independent writers (as two server processes would be).
    other = Store(open_database(URL))
    threads = [threading.Thread(target=_tap, args=(s, cid, results)) for s in (store, other)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(results) == ["applied", "stale"]
    assert store.load(cid).game_state.value == 1
    other.db.close()


def _tap(store, cid, results):
    try:
        store.apply(cid, Add(amount=1), expected_cursor=0)
        results.append("applied")
    except StaleAction:
        results.append("stale")
