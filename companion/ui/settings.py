"""Settings: this phone's own (language, text size, theme, keeping the screen awake, reading turns aloud: kept in its
browser) and the table's (where the data lives, backups: the same for every phone); and the backups screen."""

from __future__ import annotations

import flet as ft

from companion import i18n
from companion.context import TEXT_SCALES
from companion.i18n import N_, _, fmt_datetime, fmt_ago, ngettext
from companion.ui.screen import DrawnScreen
from companion.ui.widgets import app_bar, big_button, side_by_side, section, switch_row, tagged
from models.backup import KEEP, list_backups

SCALE_NAMES = {0.9: N_("Small"), 1.0: N_("Normal"), 1.2: N_("Large"), 1.4: N_("Larger"), 1.7: N_("Huge")}
# Translators: the phone's colour theme: its own (the phone's), light or dark.
THEME_NAMES = {"system": N_("As the phone"), "light": N_("Light"), "dark": N_("Dark")}
# Why a backup was made (the last part of its file name: models/backup.py); another shows as it is.
BACKUP_REASONS = {"start": N_("at start"), "auto": N_("during play"), "manual": N_("by hand"),
                  "before-restore": N_("before a restore"), "before-upgrade": N_("before an upgrade")}

# A choice's button grows with its text (a fixed height cut off the label at the largest text size),
# and at normal size it is still a full tap target: 17 px text + 2 × 18 ≥ TAP.
CHOICE_STYLE = ft.ButtonStyle(padding=ft.Padding.symmetric(horizontal=18, vertical=18))


def choices(names: dict, current, on_pick) -> ft.Control:
    """One button per choice (names: value → the words shown, already in the phone's language), the
    chosen one filled and ticked; they wrap onto more lines when the phone is narrow."""
    return ft.Row([
        (ft.FilledButton if value == current else ft.OutlinedButton)(
            content=ft.Text(name, text_align=ft.TextAlign.CENTER), style=CHOICE_STYLE,
            icon=ft.Icons.CHECK if value == current else None,
            on_click=lambda e, value=value: on_pick(value))
        for value, name in names.items()
    ], wrap=True, spacing=8, run_spacing=8)


def language_names(language: i18n.PhoneLanguage) -> dict[str, str]:
    """The language choices: the browser's (saying which that is), then each language in its own name."""
    return {i18n.BROWSER: _("Browser's language ({language})", language=i18n.autonym(language.browsers.code)),
            **i18n.languages()}


def note(text: str) -> ft.Control:
    return ft.Text(text, theme_style=ft.TextThemeStyle.BODY_SMALL)


class SettingsScreen:
    def __init__(self, app):
        self.app = app

    def view(self) -> ft.View:
        from companion.ui.phone_alone import saves_section_lines

        app = self.app
        phone = app.phone
        awake, _switch = switch_row(_("Keep the screen awake while a campaign is open"), bool(phone["keep_awake"]),
                                    lambda e: app.set_phone_setting("keep_awake", bool(e.control.value)))
        spoken, _speech_switch = switch_row(_("Read turns aloud"), bool(phone["speech"]),
                                            lambda e: app.set_phone_setting("speech", bool(e.control.value)))
        speech_lines = [tagged("speech-setting", spoken),
                        note(_("In this phone's language: what the app does by itself (an opponent's turn, a check), the "
                               "dice it waits for, and what they showed. A button in the campaign says it again."))]
        where = app.ctx.db.path or app.ctx.db.url.split("@")[-1]
        database = (_("Database: {where}. Backups: {folder}", where=where, folder=app.ctx.backup_dir)
                    if app.ctx.backup_dir else _("Database: {where}.", where=where))
        return ft.View(
            route="/settings",
            appbar=app_bar(self.app, _("Settings")),
            controls=[side_by_side([
                tagged("phone-settings", section(
                    _("This phone"),
                    note(_("Kept in this phone's browser: every phone at the table chooses its own.")),
                    ft.Text(_("Language"), theme_style=ft.TextThemeStyle.TITLE_SMALL),
                    tagged("language-choice", choices(language_names(app.language), app.language.choice,
                                                      self._pick_language)),
                    ft.Text(_("Text size"), theme_style=ft.TextThemeStyle.TITLE_SMALL),
                    choices({k: _(v) for k, v in SCALE_NAMES.items()}, phone["text_scale"],
                            lambda s: app.set_phone_setting("text_scale", s)),
                    ft.Text(_("Theme"), theme_style=ft.TextThemeStyle.TITLE_SMALL),
                    choices({k: _(v) for k, v in THEME_NAMES.items()}, phone["theme"],
                            lambda t: app.set_phone_setting("theme", t)),
                    awake,
                    note(_("On a phone that joined over the Wi-Fi, keeping awake starts with your first tap in "
                           "the campaign.")),
                    # The browser speaks (speechSynthesis): the desktop window has no voice.
                    *(speech_lines if getattr(app.page, "web", False) else []),
                ))], [
                tagged("table-settings", section(
                    _("Saves on this phone") if app.ctx.phone_alone else _("This table"),
                    *([] if app.ctx.phone_alone else [note(_("Shared by every phone at the table."))]),
                    *(saves_section_lines(app) if app.ctx.phone_alone else
                      [ft.Text(database, selectable=True, theme_style=ft.TextThemeStyle.BODY_SMALL)]),
                    big_button(_("Backups and restore"), lambda e: app.go("/backups"), icon=ft.Icons.RESTORE,
                               filled=False),
                ))])],
            scroll=ft.ScrollMode.AUTO,
            padding=12,
        )

    def entered(self) -> None:
        pass

    def refresh(self) -> None:
        pass

    def _pick_language(self, choice: str) -> None:
        """Kept in this phone's browser like its other settings; this phone redraws in it at once."""
        app = self.app
        app.language.choose(choice)
        app.page.run_task(app.language.keep)
        app.apply_settings()


class BackupsScreen(DrawnScreen):
    route, title = "/backups", N_("Backups")

    def _draw(self) -> None:
        ctx = self.app.ctx
        if not ctx.backup_dir:
            self.body.controls = [ft.Text(_("This database is on a server; back it up with the server's own tools."))]
            return
        backups = list_backups(ctx.backup_dir)
        rows: list[ft.Control] = [
            ft.Text(_("The app copies the database when it starts and every 10 minutes of play, keeping the newest "
                      "{keep}. Restoring replaces every campaign with the backup's (the current state is backed up "
                      "first).", keep=KEEP),
                    theme_style=ft.TextThemeStyle.BODY_MEDIUM),
            ft.Text(_("Folder: {folder}", folder=ctx.backup_dir), selectable=True,
                    theme_style=ft.TextThemeStyle.BODY_SMALL),
            big_button(_("Back up now"), self.app.guard(self._backup_now), icon=ft.Icons.SAVE),
        ]
        if ctx.backup_problem:
            rows.append(ft.Semantics(identifier="backup-problem", content=ft.Text(
                _("The last backup failed. {problem}", problem=ctx.backup_problem), color=ft.Colors.ERROR)))
        for b in backups:
            rows.append(self._card(b))
        self.body.controls = rows

    def _card(self, b) -> ft.Control:
        # The local time it was made; the name holds UTC and a sequence number (see models/backup.py).
        made = b.made_at.astimezone()
        reason = _(BACKUP_REASONS[b.reason]) if b.reason in BACKUP_REASONS else b.reason
        size = _("{kb} KB", kb=b.size // 1024)
        if b.problem:  # a 0-byte, half-written, damaged or foreign file: shown, never restorable
            detail = ft.Text(f"{reason} · {size} · {b.problem}", color=ft.Colors.ERROR,
                             theme_style=ft.TextThemeStyle.BODY_SMALL)
            action: list[ft.Control] = [ft.Icon(ft.Icons.BLOCK, color=ft.Colors.ERROR, tooltip=_("Unusable"))]
        else:
            campaigns = ngettext("{n} campaign", "{n} campaigns", b.campaigns or 0)
            detail = ft.Text(f"{fmt_ago(made)} · {reason} · {campaigns} · {size}",
                             theme_style=ft.TextThemeStyle.BODY_SMALL)
            read_only = self.app.ctx.read_only_reason is not None  # the live save can't take it now
            action = [ft.OutlinedButton(content=_("Restore"), disabled=read_only,
                                        on_click=lambda e, b=b: self._ask_restore(b))]
        # The button under the words, at the right: beside them it would squeeze them to a word a line
        # ("Wiederherstellen" is long).
        return ft.Semantics(identifier=f"backup-{b.path.name}", content=ft.Card(content=ft.Container(ft.Column([
            ft.Text(fmt_datetime(made), weight=ft.FontWeight.BOLD), detail,
            ft.Row(action, alignment=ft.MainAxisAlignment.END),
        ], spacing=2, horizontal_alignment=ft.CrossAxisAlignment.STRETCH), padding=12)))

    def _backup_now(self, e) -> None:
        from companion.ui.progress import run_with_progress

        def made(_path) -> None:
            self.app.toast(_("Backup made."))
            self.refresh()
        # Copying a big save takes a while: in a worker thread, so the table plays on (not stoppable
        # halfway: it's one copy, and a half-made backup is removed by make_backup itself).
        run_with_progress(self.app, _("Back up now"), lambda job: self.app.ctx.backup_now("manual"), on_done=made,
                          cancellable=False)

    def _ask_restore(self, backup) -> None:
        from companion.ui.progress import run_with_progress

        def restore():
            # refuses an unusable file with a message, changing nothing; never stopped halfway
            run_with_progress(self.app, _("Restore"), lambda job: self.app.ctx.restore(backup.path),
                              on_done=lambda _none: self.app.toast(_("Backup restored.")), cancellable=False)
        self.app.confirm(_("Restore this backup?"),
                         _("Every campaign goes back to how it was on {when}. The current state is backed up first.",
                           when=fmt_datetime(backup.made_at)),
                         _("Restore"), restore)
