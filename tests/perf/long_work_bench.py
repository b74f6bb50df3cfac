"""Long work off the table's path (#28): another phone's tap → applied, usual and while one phone
imports a 50,000-action campaign (while it is checked, and while it is saved), and the import's
peak memory.

The served app (tests/perf/long_work_server.py: `companion serve` that imports on a signal, as the
import dialog does, in a worker thread) runs alone in its process. One phone (tests/phone_socket.py)
stays on a counter campaign and taps "Value +1", one tap at a time: the time from the tap until the
server has sent that phone its change. The import's memory is the server's peak resident memory
(VmHWM) against what it held before, and, in this process, the peak of what Python allocated for
the import alone (tracemalloc).

    python -m tests.perf.long_work_bench        # run_all includes it
    BENCH_IMPORT_FILE=big.json.gz …             # an export to import instead of a made one
"""

from __future__ import annotations

import asyncio
import os
import re
import signal
import statistics
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

from tests.browser import served
from tests.phone_socket import SocketPhone

TOKEN = "bench-token-0123456789"
ACTIONS = int(os.environ.get("BENCH_IMPORT_ACTIONS", "50000"))
USUAL_TAPS = 20
PLUS = "Value +1"
CHECKING, SAVING = "Checking every action against the rules", "Saving"


def make_export(folder: Path) -> Path:
    """A counter campaign of ACTIONS actions, exported as the app exports it (gzipped)."""
    from companion import exchange
    from companion.log import Store
    from models.db import open_database
    from tests.perf.run_all import build_long_campaign

    given = os.environ.get("BENCH_IMPORT_FILE")
    if given:
        return Path(given)
    store = Store(open_database(f"sqlite:///{folder / 'source.sqlite'}"))
    data, name = exchange.export_file(exchange.export_campaign(store, build_long_campaign(store, ACTIONS)))
    store.db.close()
    path = folder / name
    path.write_bytes(data)
    return path


async def tap_time(phone: SocketPhone) -> float:
    """Seconds from a tap until the server sent this phone its change (a slow answer while an import
    runs is what this bench looks for, so it waits up to two minutes)."""
    return await phone.tap_answered(PLUS, timeout=120)


def said(server: dict, pattern: str):
    return re.search(pattern, server["output"]())


def python_peak_mb(export: Path) -> tuple[float, float]:
    """(peak MB Python allocated while importing, seconds) in this process, under tracemalloc."""
    from companion import exchange
    from companion.log import Store
    from models.db import open_database

    with tempfile.TemporaryDirectory() as tmp:
        store = Store(open_database(f"sqlite:///{Path(tmp) / 'traced.sqlite'}"))
        raw = export.read_bytes()
        tracemalloc.start()
        started = time.perf_counter()
        try:
            exchange.import_campaign(store, raw, progress=lambda *_a: None)
            del raw
            return tracemalloc.get_traced_memory()[1] / 1e6, time.perf_counter() - started
        finally:
            tracemalloc.stop()
            store.db.close()


def run() -> dict:
    from companion.games.counter.rules import Add
    from companion.log import Store
    from models.db import open_database

    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        export = make_export(tmp)
        db = tmp / "table.sqlite"
        store = Store(open_database(f"sqlite:///{db}"))
        cid = store.create("counter", "Long work bench", {"cap": 1000}, seed=1)
        for cursor in range(120):  # mid-campaign: the screen lists its history
            store.apply(cid, Add(amount=1), expected_cursor=cursor)
        store.db.close()
        port_cmd = [sys.executable, "-m", "tests.perf.long_work_server", "--db", f"sqlite:///{db}", "serve",
                    "--host", "127.0.0.1", "--quiet", "--token", TOKEN]
        from tests.browser import free_port

        port = free_port()
        with served(f"sqlite:///{db}", token=TOKEN, port=port, command=port_cmd + ["--port", str(port)],
                    extra_env={"BENCH_IMPORT_FILE": str(export)}) as server:

            async def bench() -> dict:
                phone = await SocketPhone(port, TOKEN).open(f"/c/{cid}")
                await phone.drawn()
                await tap_time(phone)  # (one untimed)
                usual = [await tap_time(phone) for _ in range(USUAL_TAPS)]
                os.kill(server["proc"].pid, signal.SIGUSR1)
                started = time.monotonic()
                during: dict[str, list[float]] = {CHECKING: [], SAVING: []}
                while not said(server, r"DONE|FAILED"):
                    if time.monotonic() - started > 900:
                        raise RuntimeError("the import never ended")
                    phase = SAVING if said(server, f"STAGE {SAVING}") else CHECKING if said(server, f"STAGE {CHECKING}") else None
                    if phase is None:
                        await asyncio.sleep(0.01)
                        continue
                    took = await tap_time(phone)
                    if not said(server, r"DONE|FAILED"):  # (a tap answered after the import ended doesn't count)
                        during[phase].append(took)
                took_import = time.monotonic() - started
                await phone.close()
                return {"usual": usual, "during": during, "import_s": took_import}

            result = asyncio.run(bench())
            output = server["output"]()
        failed = re.search(r"FAILED (.*)", output)
        if failed:
            raise RuntimeError(f"the import failed: {failed.group(1)}")
        result["before_mb"] = int(re.search(r"STARTED rss_kb=(\d+)", output).group(1)) / 1024
        result["peak_mb"] = int(re.search(r"DONE \d+ peak_kb=(\d+)", output).group(1)) / 1024
        result["python_peak_mb"], result["traced_s"] = python_peak_mb(export)
        result["file_kb"] = export.stat().st_size / 1024
        return result


def report(r: dict) -> str:
    usual = statistics.median(r["usual"])
    lines = [f"a tap on another phone → applied, while one phone imports a {ACTIONS:,}-action campaign "
             f"({r['file_kb']:.0f} KB file, {r['import_s']:.0f} s):",
             f"  usual: median {usual * 1000:.0f} ms (max {max(r['usual']) * 1000:.0f}, {len(r['usual'])} taps)"]
    for phase, taps in r["during"].items():
        if taps:
            median = statistics.median(taps)
            lines.append(f"  while {phase.lower()}: median {median * 1000:.0f} ms ({median / usual:.2f}×), "
                         f"max {max(taps) * 1000:.0f} ms ({max(taps) / usual:.2f}×), {len(taps)} taps   (target < 2×)")
        else:
            lines.append(f"  while {phase.lower()}: no tap fitted in")
    lines.append(f"  the import's memory: server peak {r['peak_mb']:.0f} MB resident ({r['before_mb']:.0f} MB before); "
                 f"Python's peak for the import alone {r['python_peak_mb']:.0f} MB (tracemalloc)")
    return "\n".join(lines)


if __name__ == "__main__":
    print(report(run()))
