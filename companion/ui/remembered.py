"""The cards a table has entered once (companion.remembered): a list to pick from inside a game's
forms, and a screen per game (/g/<game>/cards) to look through them, forget one, and share them all
with another phone — a file, or a QR code whose text the other phone pastes into Import — as the
Biosphere 5 card catalog is shared."""

from __future__ import annotations

from typing import Callable, Optional

import flet as ft

from companion import exchange, remembered
from companion.games.base import InputError
from companion.i18n import _, ngettext
from companion.remembered import Card, Kind
from companion.ui.screen import DrawnScreen
from companion.ui.widgets import FormDialog, icon_button, qr_dialog, roomy, section, tagged, text, wide_button



def pick_list(kind: Kind, cards: list[Card], describe: Callable[[Card], str], on_pick: Callable[[Card], None], *,
              verb: str, disabled: Optional[str] = None) -> Optional[ft.Control]:
    """The remembered cards as one button each ("Decker · runner · cost 6"): a tap plays that card
    (`on_pick`). `verb` names the tap for screen readers ("Deploy {card}"); `disabled`: why none may be
    played now. None when the table has entered none yet."""
    if not cards:
        return None
    buttons = [ft.Semantics(label=verb.format(card=c.name), button=True, container=True, content=ft.FilledTonalButton(
        content=roomy(describe(c)), on_click=lambda e, c=c: on_pick(c), disabled=disabled is not None,
        tooltip=disabled)) for c in cards]
    return tagged(f"remembered-{kind.key}", ft.Row(buttons, wrap=True, spacing=8, run_spacing=8))


class RememberedScreen(DrawnScreen):
    """/g/<game>/cards — every card this table has entered for a game, to forget or share (a game's
    view makes one with its key: `RememberedScreen.of("klaw")`)."""

    game = ""

    @classmethod
    def of(cls, game: str) -> type["RememberedScreen"]:
        return type(f"{game}_cards", (cls,), {"game": game})

    def __init__(self, app):
        super().__init__(app)
        self.route = f"/g/{self.game}/cards"
        self.title = remembered.cards_title(self.game)

    def _draw(self) -> None:
        app = self.app
        sections = [section(_("Cards this table has entered"), text(_(
            "Each card entered in a game's form is kept here by its name, for every campaign of the game: the form "
            "then offers it as one tap. Enter a card again with other numbers to correct it.")), ft.Row([
                ft.OutlinedButton(content=roomy(_("Save file")), icon=ft.Icons.DOWNLOAD, on_click=self._save_file),
                ft.OutlinedButton(content=roomy(_("Show QR")), icon=ft.Icons.QR_CODE_2, on_click=app.guard(self._qr)),
                ft.OutlinedButton(content=roomy(_("Import")), icon=ft.Icons.FILE_OPEN, on_click=app.guard(self._import)),
            ], wrap=True, spacing=8, run_spacing=8))]
        for kind in remembered.kinds_of(self.game):
            cards = remembered.cards(app.store, kind)
            rows = [ft.Row([text(c.name, ft.TextThemeStyle.BODY_LARGE, expand=True),
                            icon_button(ft.Icons.DELETE_OUTLINE, _("Forget {card}", card=c.name),
                                        app.guard(lambda e, c=c, k=kind: self._forget(k, c)), size=26)],
                           vertical_alignment=ft.CrossAxisAlignment.CENTER) for c in cards]
            sections.append(tagged(f"remembered-list-{kind.key}", section(
                f"{_(kind.title)} ({len(cards)})", *(rows or [text(_("None yet."), italic=True)]))))
        self.body.controls = sections

    def _forget(self, kind: Kind, card: Card) -> None:
        remembered.forget(self.app.store, kind, card.name)
        self.app.toast(_("{card} forgotten: games already played keep it.", card=card.name))
        self.refresh()

    async def _save_file(self, e) -> None:
        data = exchange.dumps(remembered.export_payload(self.app.store, self.game)).encode("utf-8")
        await self.app.file_picker.save_file(file_name=f"{self.game}-cards.json", src_bytes=data)

    def _qr(self, e) -> None:
        qr = exchange.to_qr_text(remembered.export_payload(self.app.store, self.game))
        if qr is None:
            raise InputError(_("Too many cards for one QR code: use “Save file”."))
        dialog = qr_dialog(_("Scan to import the cards"), qr,
                           caption=_("On the other phone: {cards} → Import → paste this text.",
                                     cards=_(remembered.cards_title(self.game))))
        self.app.page.show_dialog(dialog)

    def _import(self, e) -> None:
        app = self.app
        pasted = ft.TextField(label=_("…or paste the catalog text (JSON or QR text)"), multiline=True, min_lines=3,
                              max_lines=6, text_size=15)

        async def pick(e):
            files = await app.file_picker.pick_files(allowed_extensions=["json", "txt"], with_data=True)
            if not files:
                return
            f = files[0]

            def load():
                if f.size and f.size > exchange.MAX_BYTES:
                    raise InputError(_("{file} is too big for a catalog.", file=f.name))
                try:
                    pasted.value = (f.bytes or b"").decode("utf-8")
                except UnicodeDecodeError:
                    raise InputError(_("{file} is not a text file.", file=f.name)) from None
                form.dialog.update()

            form.acting(load, close=False)()

        def run():
            count = remembered.import_text(app.store, self.game, pasted.value or "")
            app.toast(ngettext("{n} card imported.", "{n} cards imported.", count))
            self.refresh()

        form = FormDialog(app, _("Import cards"), [
            wide_button(_("Choose a file"), pick, icon=ft.Icons.FILE_OPEN),
            pasted,
            text(_("Cards with a name you have are corrected; the others are added. Nothing changes if anything in "
                   "it is wrong."), ft.TextThemeStyle.BODY_SMALL),
        ], error_id="import-error")
        form.actions(form.button(_("Add / correct"), run))
        form.show()
