"""Long work off the table's path (#28): an import, export, backup or restore of a big campaign runs in
a worker thread, not in the handler on the server's event loop, so every other phone's tap is still
answered while it runs. The work reports its progress (shown on the phone that asked) and checks for
a cancel at each report: a cancel raises `Cancelled` inside the work, whose transaction then rolls
back, so nothing is written.

    job = Job(work, on_progress=..., on_done=..., on_failed=...)   # work(job) → result
    job.start(); …; job.cancel()

The callbacks are called in the worker thread: a screen hands them to its own loop (`app.later`).

A thread alone doesn't keep a tap quick: the work holds Python's GIL for slices of 5 ms, and each
time the tap's handler waits for the database or the network it queues for the GIL again. So the
work steps aside while any phone's event is being handled (`TABLE`, counted by the app around each
event): at each progress report it waits until the table is quiet.

A browser's Python (a phone alone: companion.web.phone) can't start a thread. There the work runs on
the page's loop right after the dialog is sent, in one go: its progress isn't drawn while it runs
(the loop is busy) and it can't be cancelled, but nobody else is waiting on that phone, and a phone's
campaigns are small enough for that to take a moment.
"""

from __future__ import annotations

import asyncio
import itertools
import logging
import threading
import time
from contextlib import contextmanager
from typing import Any, Callable, Iterator, Optional

from companion.i18n import Text

log = logging.getLogger(__name__)

REPORT_EVERY = 0.25  # seconds between progress reports sent to the phone (each one is a redraw)
# An event handled for longer than this (one awaiting a phone: a file picker open) no longer holds
# long work back.
STEP_ASIDE_AT_MOST = 2.0
# …and for this long after an event's handler returned: the change it made is still being sent, to
# its phone and the others (Flet's send loop, the other phones' redraws), after the handler returns.
AFTERMATH = 0.15


class TableActivity:
    """The phones' events being handled right now, which long work lets go first."""

    def __init__(self) -> None:
        self._started: dict[int, float] = {}  # event → when its handling began
        self._numbers = itertools.count()
        self._quiet = threading.Condition()
        self._last_done = float("-inf")

    @contextmanager
    def handling(self) -> Iterator[None]:
        number = next(self._numbers)
        with self._quiet:
            self._started[number] = time.monotonic()
        try:
            yield
        finally:
            with self._quiet:
                del self._started[number]
                self._last_done = time.monotonic()
                self._quiet.notify_all()

    def _busy_for(self) -> float:
        """How long the table may still keep long work waiting (0: quiet)."""
        now = time.monotonic()
        return max(self._last_done + AFTERMATH - now,
                   max((began + STEP_ASIDE_AT_MOST - now for began in self._started.values()), default=0.0))

    def wait_quiet(self) -> None:
        """Wait (without the GIL) while an event is being handled (up to STEP_ASIDE_AT_MOST) and for
        AFTERMATH after."""
        with self._quiet:
            while (left := self._busy_for()) > 0:
                self._quiet.wait(left)


TABLE = TableActivity()


class Cancelled(Exception):
    """The player cancelled the work; what it had begun to write was rolled back."""


class Job:
    def __init__(self, work: Callable[[Job], Any], *, on_progress: Callable[[Text, int, int], None],
                 on_done: Callable[[Any], None], on_failed: Callable[[BaseException], None],
                 name: str = "job"):
        self.work = work
        self.on_progress, self.on_done, self.on_failed = on_progress, on_done, on_failed
        self.name = name
        self._cancel = threading.Event()
        self._last_report = 0.0
        self.thread: Optional[threading.Thread] = None  # None: not started, or run on the loop (no threads)

    @property
    def cancelled(self) -> bool:
        return self._cancel.is_set()

    def cancel(self) -> None:
        self._cancel.set()

    def progress(self, stage: Text, done: int, total: int) -> None:
        """Called by the work as it goes: steps aside while a phone's event is handled, stops it if
        cancelled, tells the phone now and then."""
        if self.thread is not None:  # on the loop itself (no threads) there is nobody to wait for
            TABLE.wait_quiet()
        if self._cancel.is_set():
            raise Cancelled()
        now = time.monotonic()
        if now - self._last_report >= REPORT_EVERY or done >= total:
            self._last_report = now
            try:
                self.on_progress(stage, done, total)
            except Exception:  # the phone that asked may have gone: the work goes on
                log.debug("a progress report failed", exc_info=True)

    def start(self) -> Job:
        self.thread = threading.Thread(target=self._run, name=f"companion-{self.name}", daemon=True)
        try:
            self.thread.start()
        except RuntimeError:  # "can't start new thread": a browser's Python (see the module's note)
            self.thread = None
            asyncio.get_running_loop().call_soon(self._run)
        return self

    def _run(self) -> None:
        try:
            result = self.work(self)
        except BaseException as exc:  # handed to the screen, which says it in words (or re-raises)
            self.on_failed(exc)
            return
        self.on_done(result)
