"""`companion serve`, as a table runs it, with one thing more for tests/perf/long_work_bench.py: on
SIGUSR1 it imports the file named in $BENCH_IMPORT_FILE the way the import dialog does (a Job in a
worker thread, companion.jobs), printing each stage as it starts ("STAGE …"), then "DONE <id>" with
the process's peak resident memory, or "FAILED …".

    python -m tests.perf.long_work_server --db sqlite:///x.sqlite serve --port 8550 --token …
"""

from __future__ import annotations

import os
import signal
import sys
from pathlib import Path

from companion import __main__ as cli
from companion import exchange
from companion.context import AppContext
from companion.jobs import Job

opened: list[AppContext] = []
_open = AppContext.open.__func__


def _open_and_keep(cls, *args, **kwargs) -> AppContext:
    ctx = _open(cls, *args, **kwargs)
    opened.append(ctx)
    return ctx


def memory_kb(field: str) -> int:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1])
    return 0


def start_import(_signum, _frame) -> None:
    store = opened[0].store
    stages: set[str] = set()

    def progress(stage, done: int, total: int) -> None:
        if str(stage) not in stages:
            stages.add(str(stage))
            print(f"STAGE {stage}", flush=True)

    def work(job: Job) -> int:
        raw = Path(os.environ["BENCH_IMPORT_FILE"]).read_bytes()
        return exchange.import_campaign(store, raw, progress=job.progress)

    print(f"STARTED rss_kb={memory_kb('VmRSS')}", flush=True)
    Job(work, name="bench-import", on_progress=progress,
        on_done=lambda cid: print(f"DONE {cid} peak_kb={memory_kb('VmHWM')}", flush=True),
        on_failed=lambda exc: print(f"FAILED {exc!r}", flush=True)).start()


if __name__ == "__main__":
    AppContext.open = classmethod(_open_and_keep)
    signal.signal(signal.SIGUSR1, start_import)
    cli.main(sys.argv[1:])
