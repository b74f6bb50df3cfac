"""Long work off the table's path (#28): a 50,000-action import runs in a worker thread (companion.jobs,
as the import dialog starts it), and another phone's tap on the served app is answered while it
still runs; a cancel, while checking or while writing, leaves nothing written. Timing figures (the
tap during an import against the usual) are tests/perf/long_work_bench.py's."""

from __future__ import annotations

import asyncio
import threading
import time

import pytest

from companion import exchange
from companion.jobs import Cancelled, Job
from models.tables import ActionRow, Campaign
from tests.phone_socket import SocketPhone
from tests.test_sessions import PLUS, TOKEN, table  # noqa: F401  (table: the served app in this process)

BIG = exchange.MAX_ACTIONS  # the most an import may hold


@pytest.fixture(scope="module")
def big_export(tmp_path_factory) -> bytes:
    from companion.log import Store
    from models.db import open_database
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


def test_a_tap_is_answered_while_a_big_import_runs(table, big_export):  # noqa: F811
    ctx, cid, port = table["ctx"], table["cid"], table["port"]
    watched = Watched()

    async def play() -> tuple[bool, int]:
        phone = await SocketPhone(port, TOKEN).open(f"/c/{cid}")
        await phone.drawn()
        job = watched.job(lambda j: exchange.import_campaign(ctx.store, big_export, progress=j.progress)).start()
        await asyncio.to_thread(watched.reached, exchange.CHECKING)
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
