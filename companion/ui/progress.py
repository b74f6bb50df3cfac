"""Long work with its progress on the phone that asked (#28): a dialog with what is being done, how
far it is, and (where stopping is safe) a Cancel button, while the work runs in a worker thread
(companion.jobs) and every other phone plays on."""

from __future__ import annotations

import logging
from typing import Any, Callable, Optional

import flet as ft

from companion.games.base import InputError, RuleError
from companion.i18n import Text, _, render
from companion.jobs import Cancelled, Job
from companion.log import NotFound
from companion.ui.widgets import close_dialog, dialog_frame, error_box, roomy, tagged, text
from models.db import is_database_error, plain_db_error

log = logging.getLogger(__name__)


def run_with_progress(app, title: str, work: Callable[[Job], Any], *, on_done: Callable[[Any], None],
                      cancellable: bool = True, cancelled_words: Optional[str] = None) -> Job:
    """Run `work(job)` in a worker thread behind a dialog on this phone. `on_done(result)` runs on
    the phone's loop once it is done (the dialog closed); a refusal shows in the dialog; a cancel
    closes it and says `cancelled_words` (the work rolled back what it had begun)."""
    stage = tagged("progress-stage", text(_("Starting…"), ft.TextThemeStyle.BODY_LARGE))
    bar = ft.ProgressBar(value=None)
    said = error_box("progress-error")
    close = ft.TextButton(content=roomy(_("Close")), on_click=lambda e: close_dialog(app, dialog), visible=False)
    stop = ft.TextButton(content=roomy(_("Cancel")), on_click=lambda e: cancel(), visible=cancellable)
    dialog = dialog_frame(title, error=said, modal=True, content=ft.Column([stage, bar], tight=True, width=360, spacing=12),
                          actions=[stop, close])

    def cancel() -> None:
        job.cancel()
        stop.disabled = True
        stage.content.value = _("Stopping…")
        app.page.update()

    def show(words: Text, done: int, total: int) -> None:
        stage.content.value = render(words) if total <= 1 else _(
            "{stage}: {done} of {total}", stage=render(words), done=done, total=total)
        bar.value = done / total if total > 1 else None
        app.page.update()

    def finished(result: Any) -> None:
        close_dialog(app, dialog)
        on_done(result)

    def failed(exc: BaseException) -> None:
        if isinstance(exc, Cancelled):
            close_dialog(app, dialog)
            app.toast(cancelled_words or _("Cancelled: nothing was changed."))
            return
        if isinstance(exc, (InputError, RuleError, NotFound)):
            words = str(exc)
        elif is_database_error(exc):
            words = _("{problem} Nothing was changed.", problem=plain_db_error(exc, app.ctx.db.path))
        else:
            log.error("%s failed", title, exc_info=exc)
            words = _("Something went wrong on the table's computer. Nothing was changed.")
        said.content.value = words
        said.visible = True
        stop.visible, close.visible = False, True
        bar.value = 0
        app.page.update()

    job = Job(work, name=title,
              on_progress=lambda words, done, total: app.later(lambda: show(words, done, total)),
              on_done=lambda result: app.later(lambda: finished(result)),
              on_failed=lambda exc: app.later(lambda: failed(exc)))
    app.page.show_dialog(dialog)
    return job.start()
