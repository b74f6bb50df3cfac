"""The shape shared by the screens outside a campaign (maps, enemy cards, card catalog, backups):
a scrolling column redrawn from the store. A subclass sets `route` and `title` (marked for the
catalog with `N_`: it shows in each phone's language) and writes `_draw`, which fills `self.body`."""

from __future__ import annotations

import flet as ft

from companion.i18n import _
from companion.ui.style import GAP
from companion.ui.widgets import app_bar


class DrawnScreen:
    route = ""
    title = ""

    def __init__(self, app):
        self.app = app
        self.body = ft.Column(spacing=GAP)

    def view(self) -> ft.View:
        self._draw()
        return ft.View(route=self.route, appbar=app_bar(self.app, _(self.title) if self.title else ""), controls=[self.body],
                       scroll=ft.ScrollMode.AUTO, padding=12)

    def entered(self) -> None:
        pass

    def refresh(self) -> None:
        self._draw()
        self.app.page.update()

    def _draw(self) -> None:
        raise NotImplementedError
