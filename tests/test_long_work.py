"""Long work off the table's path (#28): a 50,000-action import runs in a worker thread (companion.jobs,
as the import dialog starts it), and another phone's tap on the served app is answered while it
still runs; a cancel, while checking or while writing, leaves nothing written. Timing figures (the
tap during an import against the usual) are tests/perf/long_work_bench.py's."""

from __future__ import annotations

import asyncio
import threading
import time

import pytest

from datetime import datetime, timezone

from companion import exchange
from companion.jobs import Cancelled, Job
from companion.log import Store
from models.db import open_database
from models.tables import ActionRow, Campaign
from tests.phone_socket import SocketPhone
from tests.test_sessions import PLUS, TOKEN, table  # noqa: F401  (table: the served app in this process)

BIG = exchange.MAX_ACTIONS  # the most an import may hold


@pytest.fixture(scope="module")
def big_export(tmp_path_factory) -> bytes:
    from tests.perf.run_all import build_long_campaign

    store = Store(open_database(f"sqlite:///{tmp_path_factory.mktemp('big') / 'big.sqlite'}"))
    cid = build_long_campaign(store, BIG)
    data, _name = exchange.export_file(exchange.export_campaign(store, cid))
    store.db.close()
    return data


class Watched:
    """A job's reports, as the phone that asked is shown them."""

    def __init__(self):
        self.stages: list[tuple[str, int, int]] = []
        self.result = None
        self.error = None
        self.over = threading.Event()

    def job(self, work) -> Job:
        def failed(exc):
            self.error = exc
            self.over.set()

        def done(result):
            self.result = result
            self.over.set()
        return Job(work, on_progress=lambda stage, done_, total: self.stages.append((str(stage), done_, total)),
                   on_done=done, on_failed=failed)

    def reached(self, stage, timeout: float = 120.0) -> None:
        deadline = time.monotonic() + timeout
        while not any(s == str(stage) for s, _d, _t in self.stages):
            assert not self.over.is_set(), f"over before {stage}: {self.error!r}"
            assert time.monotonic() < deadline, f"never reached {stage}"
            time.sleep(0.01)


def campaigns_and_rows(store) -> tuple[int, int]:
    from sqlmodel import func, select

    with store.db.read() as s:
        return s.exec(select(func.count()).select_from(Campaign)).one(), s.exec(
            select(func.count()).select_from(ActionRow)).one()


@pytest.mark.parametrize("stage", [exchange.CHECKING, exchange.SAVING])
def test_a_tap_is_answered_while_a_big_import_runs(table, big_export, stage):  # noqa: F811
    ctx, cid, port = table["ctx"], table["cid"], table["port"]
    watched = Watched()

    async def play() -> tuple[bool, int]:
        phone = await SocketPhone(port, TOKEN).open(f"/c/{cid}")
        await phone.drawn()
        job = watched.job(lambda j: exchange.import_campaign(ctx.store, big_export, progress=j.progress)).start()
        await asyncio.to_thread(watched.reached, stage)
        before = ctx.store.load(cid).cursor
        await phone.tap(PLUS)
        while ctx.store.load(cid).cursor == before:
            assert not watched.over.is_set(), "the tap waited for the import"
            await asyncio.sleep(0.01)
        answered_while_running = job.thread.is_alive()
        await asyncio.to_thread(watched.over.wait, 300)
        await phone.close()
        return answered_while_running, before

    answered_while_running, _before = asyncio.run(play())
    assert answered_while_running
    assert watched.error is None, repr(watched.error)
    assert ctx.store.load(watched.result).cursor == BIG
    checked = [d for s, d, _t in watched.stages if s == str(exchange.CHECKING)]
    assert checked and checked == sorted(checked) and len(set(checked)) > 10  # the phone was told how far it was


@pytest.mark.parametrize("stage", [exchange.CHECKING, exchange.SAVING])
def test_a_cancelled_import_writes_nothing(table, big_export, stage):  # noqa: F811
    store = table["ctx"].store
    before = campaigns_and_rows(store)
    watched = Watched()
    job = watched.job(lambda j: exchange.import_campaign(store, big_export, progress=j.progress)).start()
    watched.reached(stage)
    job.cancel()
    assert watched.over.wait(120)
    assert isinstance(watched.error, Cancelled)
    assert campaigns_and_rows(store) == before


def hidden_campaigns(store) -> list[int]:
    from sqlmodel import select

    with store.db.read() as s:
        return list(s.exec(select(Campaign.id).where(Campaign.importing)))


def test_a_campaign_being_saved_is_hidden_until_whole(table, big_export):  # noqa: F811
    from companion.log import NotFound

    store = table["ctx"].store
    listed, counted = [c.id for c in store.list_campaigns()], store.count()
    watched = Watched()
    job = watched.job(lambda j: exchange.import_campaign(store, big_export, progress=j.progress)).start()
    watched.reached(exchange.SAVING)
    while True:  # some rows written, not all
        hidden = hidden_campaigns(store)
        _campaigns, rows = campaigns_and_rows(store)
        if hidden and rows > 1000 or watched.over.is_set():
            break
        time.sleep(0.01)
    assert hidden and not watched.over.is_set(), "the import ended before it could be looked at"
    (new_id,) = hidden
    assert [c.id for c in store.list_campaigns()] == listed and store.count() == counted
    for read in (store.get, store.load, store.history, store.lines):
        with pytest.raises(NotFound):
            read(new_id)
    job.thread.join(300)
    assert watched.error is None, repr(watched.error)
    assert watched.result == new_id and hidden_campaigns(store) == []
    assert store.load(new_id).cursor == BIG and new_id in [c.id for c in store.list_campaigns()]


def test_what_a_crash_left_of_an_import_is_gone_at_the_next_start(tmp_path):
    """An import stopped between two of its transactions (the process killed) leaves a hidden
    campaign: nobody sees it, and the app's next start deletes it; a finished one stays."""
    from companion.context import AppContext

    small = Store(open_database(f"sqlite:///{tmp_path / 'source.sqlite'}"))
    source = small.create("counter", "Kept", {"cap": 10}, seed=3)
    data, _name = exchange.export_file(exchange.export_campaign(small, source))
    small.db.close()

    url = f"sqlite:///{tmp_path / 'table.sqlite'}"
    ctx = AppContext.open(url, start_backup=False)
    kept = exchange.import_campaign(ctx.store, data)
    stopped = ctx.store.begin_import(Campaign(game="counter", name="Stopped", seed=1, settings={"cap": 10}))
    ctx.store.import_rows([{"campaign_id": stopped, "seq": 0, "action": {}, "dice": [], "events": [],
                            "snapshot": None, "state": None, "label": "", "context": "",
                            "created_at": datetime.now(timezone.utc)}])
    assert [c.id for c in ctx.store.list_campaigns()] == [kept]
    ctx.close()

    ctx = AppContext.open(url, start_backup=False)  # a one-off command: never sweeps (the app may be importing)
    assert hidden_campaigns(ctx.store) == [stopped]
    ctx.close()
    ctx = AppContext.open(url, backup_dir=tmp_path / "backups")  # the app starting
    try:
        assert hidden_campaigns(ctx.store) == []
        assert campaigns_and_rows(ctx.store) == (1, 1)
        assert ctx.store.load(kept).campaign.name == "Kept"
    finally:
        ctx.close()


def test_a_failure_while_saving_deletes_what_was_written(tmp_path, big_export, monkeypatch):
    store = Store(open_database(f"sqlite:///{tmp_path / 'table.sqlite'}"))
    written = []
    real = store.import_rows

    def fails_at_the_third(rows):
        if len(written) == 2:
            raise OSError("the disk went away")
        written.append(len(rows))
        real(rows)
    monkeypatch.setattr(store, "import_rows", fails_at_the_third)
    with pytest.raises(OSError):
        exchange.import_campaign(store, big_export)
    assert written == [exchange.IMPORT_CHUNK] * 2
    assert campaigns_and_rows(store) == (0, 0) and hidden_campaigns(store) == []
    store.db.close()
