"""Long work off the table's path (#28): an import, export, backup or restore of a big campaign runs in
a worker thread, not in the handler on the server's event loop, so every other phone's tap is still
answered while it runs. The work reports its progress (shown on the phone that asked) and checks for
a cancel at each report: a cancel raises `Cancelled` inside the work, whose transaction then rolls
back, so nothing is written.

    job = Job(work, on_progress=..., on_done=..., on_failed=...)   # work(job) → result
    job.start(); …; job.cancel()

The callbacks are called in the worker thread: a screen hands them to its own loop (`app.later`).
"""

from __future__ import annotations

import logging
import threading
import time
from typing import Any, Callable, Optional

from companion.i18n import Text

log = logging.getLogger(__name__)

REPORT_EVERY = 0.25  # seconds between progress reports sent to the phone (each one is a redraw)


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
        self.thread: Optional[threading.Thread] = None

    @property
    def cancelled(self) -> bool:
        return self._cancel.is_set()

    def cancel(self) -> None:
        self._cancel.set()

    def progress(self, stage: Text, done: int, total: int) -> None:
        """Called by the work as it goes: stops it if cancelled, tells the phone now and then."""
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
        self.thread.start()
        return self

    def _run(self) -> None:
        try:
            result = self.work(self)
        except BaseException as exc:  # handed to the screen, which says it in words (or re-raises)
            self.on_failed(exc)
            return
        self.on_done(result)
