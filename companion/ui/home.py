"""The campaigns list (newest first) and the new-campaign form."""

from __future__ import annotations

from typing import Optional

import flet as ft

from companion import exchange
from companion.games import available_games, get_game
from companion.i18n import N_, Msg, _, as_text, fmt_ago, ngettext, render
from companion.log import parse_settings
from companion.ui.forms import SettingsForm
from companion.ui.style import GAP, ICON_PADDING, TAP
from companion.ui.widgets import (FormDialog, app_bar, big_button, side_by_side, dialog_frame, icon_button, radio_row, readable_width, section,
                                  said_once, tagged, wide_button)

IN_PROGRESS = N_("In progress")  # the status the store gives a campaign under way (models/tables.py)


class HomeScreen:
    follows_all = True  # redraw when any campaign changes on any screen

    def __init__(self, app):
        self.app = app
        self.body = ft.Column(spacing=GAP)

    def view(self) -> ft.View:
        app = self.app
        self.refresh(update=False)
        return ft.View(
            route="/",
            appbar=app_bar(app, _("Table Companion"), back=False, actions=[
                icon_button(ft.Icons.CASINO, _("Dice"), lambda e: app.go("/dice")),
                icon_button(ft.Icons.QR_CODE_2, _("Join this table"), lambda e: share_table(app)),
                icon_button(ft.Icons.SETTINGS, _("Settings"), lambda e: app.go("/settings")),
            ]),
            controls=[readable_width(self.body)],
            scroll=ft.ScrollMode.AUTO,
            padding=16,
        )

    def entered(self) -> None:
        pass

    def refresh(self, update: bool = True) -> None:
        app = self.app
        campaigns = app.store.list_campaigns()
        # Each button as wide as its words, wrapping onto a second line when both don't fit (long words in
        # German, the largest text size): an expanding one would be squeezed to a letter a line.
        rows: list[ft.Control] = [
            ft.Row([
                big_button(_("New campaign"), lambda e: app.go("/new"), icon=ft.Icons.ADD),
                big_button(_("Import"), lambda e: import_dialog(app), icon=ft.Icons.FILE_OPEN, filled=False),
            ], spacing=GAP, run_spacing=GAP, wrap=True),
        ]
        if not campaigns:
            rows.append(ft.Container(ft.Text(_("No campaigns yet. Start one with “New campaign”."),
                                             theme_style=ft.TextThemeStyle.BODY_LARGE), padding=24))
        for c in campaigns:
            rows.append(self._card(c))
        self.body.controls = rows
        if update:
            self.body.update()

    def _card(self, c) -> ft.Control:
        app = self.app
        try:
            title = get_game(c.game).title
        except KeyError:
            title = c.game
        menu = ft.PopupMenuButton(
            # named by its icon: the tooltip's words go to the card, and the button was read without a name (#33)
            icon=ft.Icon(ft.Icons.MORE_VERT, semantics_label=_("More for {name}", name=c.name)), padding=ICON_PADDING,
            tooltip=_("More for {name}", name=c.name),
            items=[
                ft.PopupMenuItem(content=_("Rename"), icon=ft.Icons.EDIT, on_click=lambda e, c=c: rename_dialog(app, c)),
                ft.PopupMenuItem(content=_("Duplicate"), icon=ft.Icons.COPY,
                                 on_click=app.guard(lambda e, c=c: self._duplicate(c))),
                ft.PopupMenuItem(content=_("Export"), icon=ft.Icons.IOS_SHARE,
                                 on_click=lambda e, c=c: export_dialog(app, c.id)),
                ft.PopupMenuItem(content=_("Delete"), icon=ft.Icons.DELETE,
                                 on_click=lambda e, c=c: app.confirm(
                                     _("Delete “{name}”?", name=c.name),
                                     _("The whole campaign and its history are deleted. "
                                       "A backup keeps the last saves for a while."), _("Delete"),
                                     lambda: app.store.delete(c.id))),
            ],
        )
        stored_status, headline = as_text(c.status), render(as_text(c.headline))  # a Msg kept as JSON, or words
        status_color = ft.Colors.PRIMARY if stored_status == IN_PROGRESS else ft.Colors.TERTIARY
        # "In progress" is the store's; a game's outcome is its Msg (or words from an older save, looked up)
        status = render(stored_status) if not isinstance(stored_status, str) else _(stored_status)
        return tagged(f"campaign-{c.id}", ft.Card(content=ft.Container(
            ft.Row([
                ft.Column([
                    ft.Text(c.name, theme_style=ft.TextThemeStyle.TITLE_LARGE, weight=ft.FontWeight.BOLD),
                    ft.Text(title, theme_style=ft.TextThemeStyle.BODY_MEDIUM),
                    ft.Text(said_once(status, headline), color=status_color,
                            theme_style=ft.TextThemeStyle.BODY_MEDIUM),
                    ft.Text(_("Last played {when}", when=fmt_ago(c.updated_at)),
                            theme_style=ft.TextThemeStyle.BODY_SMALL),
                ], spacing=2, expand=True),
                menu,
            ], vertical_alignment=ft.CrossAxisAlignment.CENTER),
            padding=ft.Padding.only(left=16, top=12, bottom=12, right=4),
            on_click=lambda e, c=c: app.go(f"/c/{c.id}"),
            ink=True,
        )))

    def _duplicate(self, c) -> None:
        self.app.store.duplicate(c.id)
        self.app.toast(_("Copied “{name}”.", name=c.name))


class NewCampaignScreen:
    def __init__(self, app):
        self.app = app
        self.games = available_games()
        self.chosen = self.games[0].key
        self.name = ft.TextField(label=_("Campaign name"), max_length=60, autofocus=False)
        self.settings_box = ft.Column(spacing=GAP)
        self.form: SettingsForm | None = None
        self.picker = ft.RadioGroup(
            value=self.chosen,
            on_change=self._picked,
            content=ft.Column([radio_row(g.key, g.title, self._pick) for g in self.games], spacing=0),
        )

    def view(self) -> ft.View:
        self._load_form()
        return ft.View(
            route="/new",
            appbar=app_bar(self.app, _("New campaign")),
            controls=[side_by_side([section(_("Game"), self.picker), section(_("Name"), self.name)],
                                   [section(_("Settings"), self.settings_box)])],
            bottom_appbar=ft.BottomAppBar(  # the next step stays in reach however long the form is
                content=ft.Row([big_button(_("Create and open"), self.app.guard(self._create), icon=ft.Icons.PLAY_ARROW,
                                           expand=True)]),
                height=TAP + 32, padding=ft.Padding.symmetric(horizontal=12, vertical=8),
            ),
            scroll=ft.ScrollMode.AUTO,
            padding=16,
        )

    def entered(self) -> None:
        pass

    def refresh(self) -> None:
        pass

    def _picked(self, e) -> None:
        self.chosen = self.picker.value
        self._load_form()
        self.settings_box.update()

    def _pick(self, key: str) -> None:
        """A tap on a game's name picks it, as a tap on its radio does."""
        if key != self.picker.value:
            self.picker.value = key
            self.picker.update()
            self._picked(None)

    def _load_form(self) -> None:
        from companion.ui.campaign import game_panel_module

        game = get_game(self.chosen)
        module = game_panel_module(self.chosen)
        # A game may bring its own setup form (players and roles, ...); otherwise one drawn from Settings.
        self.form = module.SetupForm(self.app) if module and hasattr(module, "SetupForm") else SettingsForm(game.Settings)
        self.settings_box.controls = [tagged("game-summary", ft.Text(render(game.summary), theme_style=ft.TextThemeStyle.BODY_MEDIUM)),
                                      *self.form.controls()]

    def _create(self, e) -> None:
        game = get_game(self.chosen)
        settings = parse_settings(game, self.form.collect()).model_dump(mode="json")
        campaign_id = self.app.store.create(self.chosen, self.name.value or "", settings)
        self.app.go(f"/c/{campaign_id}")


def form_dialog(app, title: str, controls=()) -> FormDialog:
    """The home screen's FormDialog: a refusal shows under its title, changes nothing and leaves it
    open; a tap outside it closes it, as these dialogs always did."""
    return FormDialog(app, title, controls, modal=False)


def rename_dialog(app, campaign) -> FormDialog:
    field = ft.TextField(label=_("New name"), value=campaign.name, max_length=60, autofocus=True)
    form = form_dialog(app, _("Rename campaign"), [field])

    def save() -> None:
        app.store.rename(campaign.id, field.value or "")
        form.close()
        app.refresh()

    form.actions(form.button(_("Save"), save, close=False))
    form.show()
    return form


def export_dialog(app, campaign_id: int):
    """Save the campaign as a JSON file; a small one is also offered as a QR code."""
    from companion.ui.progress import run_with_progress

    def work(job):  # in a worker thread: a 50,000-action campaign takes seconds to read and pack
        payload = exchange.export_campaign(app.store, campaign_id)
        job.progress(_PACKING, 1, 2)
        data, filename = exchange.export_file(payload)
        return payload, data, filename, exchange.to_qr_text(payload)

    return run_with_progress(app, _("Export"), work, on_done=lambda made: _export_ready(app, *made))


_PACKING = Msg("Packing the file")


def _export_ready(app, payload: dict, data: bytes, filename: str, qr_text) -> None:
    from companion.ui.widgets import qr_dialog

    async def save(e):
        app.page.pop_dialog()
        await app.file_picker.save_file(file_name=filename, src_bytes=data)

    def show_qr(e):
        app.page.pop_dialog()
        app.page.show_dialog(qr_dialog(_("Scan to import"), qr_text,
                                       caption=_("On the other phone: Import → paste or scan this text.")))

    actions = [ft.TextButton(content=_("Cancel"), on_click=lambda e: app.page.pop_dialog()),
               ft.FilledButton(content=_("Save file"), icon=ft.Icons.DOWNLOAD, on_click=save)]
    if qr_text:
        actions.insert(1, ft.OutlinedButton(content=_("Show QR"), icon=ft.Icons.QR_CODE, on_click=show_qr))
    size = (_("{kb} KB", kb=round(len(data) / 1024)) if len(data) > 1024
            else ngettext("{n} byte", "{n} bytes", len(data)))
    actions_logged = len(payload["log"]) - 1
    counted = ngettext("{n} action", "{n} actions", actions_logged)
    sentences = [_("{actions}, {size} (compressed), as {file}.", actions=counted, size=size, file=filename)
                 if filename.endswith(".gz") else
                 _("{actions}, {size}, as {file}.", actions=counted, size=size, file=filename)]
    if not qr_text:
        sentences.append(_("Too big for a QR code; use the file."))
    if actions_logged > exchange.MAX_ACTIONS:
        sentences.append(_("It has more than the {max} actions an import holds: keep this database's backups instead.",
                           max=exchange.MAX_ACTIONS))
    # The name in the words, not the title: a long name at the largest text size left no room for them.
    # (Not scrolled: a scrolling column makes a dialog as tall as the screen; these few lines fit.)
    app.page.show_dialog(dialog_frame(_("Export"), content=ft.Column([
        ft.Text(payload["name"], theme_style=ft.TextThemeStyle.TITLE_MEDIUM, weight=ft.FontWeight.BOLD),
        ft.Text(" ".join(sentences), theme_style=ft.TextThemeStyle.BODY_MEDIUM),
    ], tight=True, width=360, spacing=8), actions=actions))


def import_dialog(app) -> FormDialog:
    """Import a campaign from a file or from pasted QR text. Nothing is written unless all is valid;
    a refusal shows in the dialog, which stays open to try another file or text."""
    # The words above the field, not its label: a label that wraps (the largest text size) runs over the field's border.
    said = ft.Text(_("…or paste the text of an export / QR code"), theme_style=ft.TextThemeStyle.BODY_MEDIUM)
    pasted = ft.TextField(label=_("Text to import"), multiline=True, max_lines=4)
    form = form_dialog(app, _("Import a campaign"))

    def done(campaign_id: int) -> None:
        app.toast(_("Campaign imported."))
        app.go(f"/c/{campaign_id}")

    def start(raw) -> None:
        """Checked and written in a worker thread (a 50,000-action file takes many seconds), with
        its progress and a Cancel on this phone; the other phones play on meanwhile."""
        from companion.ui.progress import run_with_progress

        if not raw:
            raise exchange.ImportRefused(_("The file is empty."))
        form.close()
        held = [raw]  # handed over: the worker lets go of the file's bytes once they are parsed

        def work(job):
            return exchange.import_campaign(app.store, held.pop(), progress=job.progress)
        run_with_progress(app, _("Import a campaign"), work, on_done=done,
                          cancelled_words=_("Import cancelled: nothing was imported."))

    def load(f) -> None:
        if f.size and f.size > exchange.MAX_BYTES:  # refuse before reading it all
            raise exchange.ImportRefused(_("{name} is too big to import (over {mb} MB).", name=f.name,
                                           mb=exchange.MAX_BYTES // 1_000_000))
        start(f.bytes or b"")

    async def pick(e):
        files = await app.file_picker.pick_files(allowed_extensions=["json", "gz"], with_data=True)
        if files:
            form.acting(lambda: load(files[0]), close=False)()

    form.fields.controls = [wide_button(_("Choose a file"), pick, icon=ft.Icons.FILE_OPEN), said, pasted]
    form.actions(form.button(_("Import text"), lambda: start(pasted.value or ""), close=False))
    form.show()
    return form


def share_table(app, campaign_id: Optional[int] = None) -> None:
    from companion.ui.widgets import qr_dialog

    if app.ctx.phone_alone:  # no table server: nothing to join; a campaign moves by its export file
        from companion.ui.phone_alone import alone_dialog

        alone_dialog(app, campaign_id)
        return
    if not app.ctx.join_url:
        app.toast(_("This window is not shared. Start the app with “companion serve” to join phones."))
        return
    app.page.show_dialog(qr_dialog(_("Join this table"), app.ctx.join_url,
                                   caption=_("Scan with a phone on the same Wi-Fi.")))
