"""Settings: this phone's own (text size, theme, keeping the screen awake: kept in its browser) and
the table's (where the data lives, backups: the same for every phone); and the backups screen."""

from __future__ import annotations

import flet as ft

from companion.context import TEXT_SCALES
from companion.ui.style import TAP
from companion.ui.screen import DrawnScreen
from companion.ui.widgets import big_button, section, switch_row, tagged, when
from models.backup import KEEP, list_backups

SCALE_NAMES = {0.9: "Small", 1.0: "Normal", 1.2: "Large", 1.4: "Larger", 1.7: "Huge"}
THEME_NAMES = {"system": "As the phone", "light": "Light", "dark": "Dark"}


def choices(names: dict, current, on_pick) -> ft.Control:
    return ft.Row([
        (ft.FilledButton if value == current else ft.OutlinedButton)(
            content=name, height=TAP, icon=ft.Icons.CHECK if value == current else None,
            on_click=lambda e, value=value: on_pick(value))
        for value, name in names.items()
    ], wrap=True, spacing=8, run_spacing=8)


def note(text: str) -> ft.Control:
    return ft.Text(text, theme_style=ft.TextThemeStyle.BODY_SMALL)


class SettingsScreen:
    def __init__(self, app):
        self.app = app

    def view(self) -> ft.View:
        app = self.app
        phone = app.phone
        awake, _ = switch_row("Keep the screen awake while a campaign is open", bool(phone["keep_awake"]),
                              lambda e: app.set_phone_setting("keep_awake", bool(e.control.value)))
        where = app.ctx.db.path or app.ctx.db.url.split("@")[-1]
        kept = f" Backups: {app.ctx.backup_dir}" if app.ctx.backup_dir else ""
        return ft.View(
            route="/settings",
            appbar=ft.AppBar(title=ft.Text("Settings")),
            controls=[
                tagged("phone-settings", section(
                    "This phone",
                    note("Kept in this phone's browser: every phone at the table chooses its own."),
                    ft.Text("Text size", theme_style=ft.TextThemeStyle.TITLE_SMALL),
                    choices(SCALE_NAMES, phone["text_scale"], lambda s: app.set_phone_setting("text_scale", s)),
                    ft.Text("Theme", theme_style=ft.TextThemeStyle.TITLE_SMALL),
                    choices(THEME_NAMES, phone["theme"], lambda t: app.set_phone_setting("theme", t)),
                    awake,
                    note("On a phone that joined over the Wi-Fi, keeping awake starts with your first tap in "
                         "the campaign."),
                )),
                tagged("table-settings", section(
                    "This table",
                    note("Shared by every phone at the table."),
                    ft.Text(f"Database: {where}.{kept}", selectable=True, theme_style=ft.TextThemeStyle.BODY_SMALL),
                    big_button("Backups and restore", lambda e: app.go("/backups"), icon=ft.Icons.RESTORE,
                               filled=False),
                )),
            ],
            scroll=ft.ScrollMode.AUTO,
            padding=12,
        )

    def entered(self) -> None:
        pass

    def refresh(self) -> None:
        pass


class BackupsScreen(DrawnScreen):
    route, title = "/backups", "Backups"

    def _draw(self) -> None:
        ctx = self.app.ctx
        if not ctx.backup_dir:
            self.body.controls = [ft.Text("This database is on a server; back it up with the server's own tools.")]
            return
        backups = list_backups(ctx.backup_dir)
        rows: list[ft.Control] = [
            ft.Text("The app copies the database when it starts and every 10 minutes of play, keeping the newest "
                    f"{KEEP}. Restoring replaces every campaign with the backup's (the current state is backed up first).",
                    theme_style=ft.TextThemeStyle.BODY_MEDIUM),
            ft.Text(f"Folder: {ctx.backup_dir}", selectable=True, theme_style=ft.TextThemeStyle.BODY_SMALL),
            big_button("Back up now", self.app.guard(self._backup_now), icon=ft.Icons.SAVE),
        ]
        if ctx.backup_problem:
            rows.append(ft.Semantics(identifier="backup-problem", content=ft.Text(
                f"The last backup failed. {ctx.backup_problem}", color=ft.Colors.ERROR)))
        for b in backups:
            rows.append(self._card(b))
        self.body.controls = rows

    def _card(self, b) -> ft.Control:
        # The local time it was made; the name holds UTC and a sequence number (see models/backup.py).
        made = b.made_at.astimezone()
        if b.problem:  # a 0-byte, half-written, damaged or foreign file: shown, never restorable
            detail = ft.Text(f"{b.reason} · {b.size // 1024} KB · {b.problem}", color=ft.Colors.ERROR,
                             theme_style=ft.TextThemeStyle.BODY_SMALL)
            action: list[ft.Control] = [ft.Icon(ft.Icons.BLOCK, color=ft.Colors.ERROR, tooltip="Unusable")]
        else:
            detail = ft.Text(f"{when(made)} · {b.reason} · {b.campaigns} campaigns · {b.size // 1024} KB",
                             theme_style=ft.TextThemeStyle.BODY_SMALL)
            read_only = self.app.ctx.read_only_reason is not None  # the live save can't take it now
            action = [ft.OutlinedButton(content="Restore", disabled=read_only,
                                        on_click=lambda e, b=b: self._ask_restore(b))]
        return ft.Semantics(identifier=f"backup-{b.path.name}", content=ft.Card(content=ft.Container(ft.Row([
            ft.Column([ft.Text(made.strftime("%d %b %Y, %H:%M:%S"), weight=ft.FontWeight.BOLD), detail],
                      expand=True, spacing=2),
            *action,
        ]), padding=12)))

    def _backup_now(self, e) -> None:
        self.app.ctx.backup_now("manual")
        self.app.toast("Backup made.")
        self.refresh()

    def _ask_restore(self, backup) -> None:
        def restore():
            self.app.ctx.restore(backup.path)  # refuses an unusable file with a message, changing nothing
            self.app.toast("Backup restored.")
        self.app.confirm("Restore this backup?", f"Every campaign goes back to how it was on "
                         f"{backup.made_at.strftime('%d %b %Y %H:%M')}. The current state is backed up first.",
                         "Restore", restore)
