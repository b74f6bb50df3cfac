"""What the app says where a phone alone (the static build: no laptop, no table server) differs from
a table: the join QR code, the token and `serve --https` don't apply; the save lives in the phone's
browser, and whether the browser promised to keep it."""

from __future__ import annotations

from typing import Optional

import flet as ft

from companion.i18n import _
from companion.ui.widgets import dialog_frame, tagged


def alone_dialog(app, campaign_id: Optional[int] = None) -> None:
    """In place of the join code: why there is none, and the export that moves a campaign to a table."""
    from companion.ui.home import export_dialog

    def close(e=None):
        app.page.pop_dialog()

    def export(e):
        close()
        app.guard(lambda _e: export_dialog(app, campaign_id))(None)

    actions: list[ft.Control] = [ft.TextButton(content=_("Close"), on_click=close)]
    if campaign_id is not None:
        actions.append(ft.FilledButton(content=_("Export this campaign"), icon=ft.Icons.DOWNLOAD, on_click=export))
    words = [_("This app runs on this phone alone: there is no table for other phones to join, so there is no "
               "join code, no token and no https here."),
             _("To play a campaign with a group, export it to a file and import it into the table's app "
               "(“companion serve” on a laptop); export it there and import it here to bring it back.")]
    if campaign_id is None:
        words.append(_("Export is in each campaign's settings (the gear in the campaign)."))
    app.page.show_dialog(dialog_frame(_("On this phone alone"), content=tagged("phone-alone", ft.Column(
        [ft.Text(w, theme_style=ft.TextThemeStyle.BODY_MEDIUM) for w in words], tight=True, width=360, spacing=8)),
        actions=actions))


def storage_words(kept: Optional[bool]) -> str:
    """What the browser answered when asked to keep the app's storage (navigator.storage.persist())."""
    if kept is True:
        return _("This browser keeps the app's storage: it won't clear your campaigns to free space.")
    if kept is False:
        return _("This browser may clear the app's storage when the phone runs low on space (or, in Safari, "
                 "after 7 days unused). Install the app to the home screen, and export the campaigns you care about.")
    return _("This browser hasn't said whether it keeps the app's storage.")


def saves_section_lines(app) -> list[ft.Control]:
    """The Settings screen's lines about where a phone alone keeps its campaigns."""
    from companion.web.phone import build_version

    small = ft.TextThemeStyle.BODY_SMALL
    lines: list[ft.Control] = [
        ft.Text(_("Campaigns are saved on this phone, in this browser's storage for this site, after every action. "
                  "Clearing the site's data deletes them."), theme_style=small),
        tagged("storage-kept", ft.Text(storage_words(getattr(app, "storage_kept", None)), theme_style=small)),
    ]
    version = build_version()
    if version:
        lines.append(ft.Text(_("Version {version}", version=version), theme_style=small, selectable=True))
    return lines
