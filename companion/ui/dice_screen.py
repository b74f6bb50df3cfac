"""The standalone Dice screen: any NdX, custom dice with named faces, the Biosphere 5 hand die,
"I rolled …" entry, and a history. Rolls come from a seeded source kept in the app settings."""

from __future__ import annotations

import flet as ft

from companion.dice import SeededDice, new_seed
from companion.games.base import InputError
from companion.i18n import N_, _, ngettext
from companion.ui.widgets import DiceTray, app_bar, side_by_side, dice_faces, section, tagged, wide_button

HISTORY_KEEP = 40
CUSTOM_DIE = N_("custom die")
# The names of dice the history keeps (the table's, shared by every phone): each phone reads them in its
# language; a name a player typed shows as typed.
DIE_NAMES = {CUSTOM_DIE: CUSTOM_DIE, "hand die": N_("hand die")}  # "hand die": the tray's (ui/widgets.py)


def roll_label(entry: dict) -> str:
    """'2d6', '1×custom die' — in this phone's language when the app named the die."""
    name = entry.get("name")
    if name in DIE_NAMES and entry.get("count"):
        return f"{entry['count']}×{_(DIE_NAMES[name])}"
    return entry["label"]


class DiceScreen:
    def __init__(self, app):
        self.app = app
        self.last = ft.Container()
        self.history = ft.Column(spacing=4)
        self.black_faces = ft.Dropdown(label=_("Hand die: black-hand faces"),
                                       value=str(app.ctx.setting("hand_die_black_faces") or 1),
                                       options=[ft.DropdownOption(key=str(i), text=_("{i} of 6", i=i)) for i in range(7)],
                                       on_select=self._black_changed)  # the card's width: its label wraps less
        self.custom_name = ft.TextField(label=_("Custom die name"), value="")
        self.custom_faces = ft.TextField(label=_("Faces, separated by commas"), value="")

    def view(self) -> ft.View:
        self._draw()
        tray = DiceTray(self._roll, black_faces=self._black(), sizes=self.app.sizes)
        return ft.View(
            route="/dice",
            appbar=app_bar(self.app, _("Dice")),
            controls=[side_by_side([
                section(_("Result"), tagged("dice-last", self.last)),
                # Translators: the title of the part of the screen where dice are rolled.
                section(_("Roll"), tray.control(self.app.guard), self.black_faces)], [
                section(_("Custom die"), self.custom_name, self.custom_faces,
                        wide_button(_("Roll custom die"), self.app.guard(self._roll_custom), icon=ft.Icons.CASINO,
                                    tonal=True)),
                section(_("History"), self.history,
                        # Translators: a button that empties the list of past rolls.
                        trailing=ft.TextButton(content=_("Clear"), on_click=self.app.guard(self._clear)))])],
            scroll=ft.ScrollMode.AUTO,
            padding=12,
        )

    def entered(self) -> None:
        pass

    def refresh(self) -> None:
        self._draw()
        self.app.page.update()

    def _black(self) -> int:
        return int(self.app.ctx.setting("hand_die_black_faces") or 1)

    def _black_changed(self, e) -> None:
        self.app.ctx.set_setting("hand_die_black_faces", int(self.black_faces.value))

    def _draw(self) -> None:
        history = self.app.ctx.setting("dice_history") or []
        if history:
            top = history[0]
            heading = (_("{roll}, total {total}", roll=roll_label(top), total=top["total"]) if top.get("total")
                       else roll_label(top))
            self.last.content = ft.Column([ft.Text(heading, theme_style=ft.TextThemeStyle.TITLE_MEDIUM),
                                           dice_faces(top["shown"], sizes=self.app.sizes, highlight=True)])
        else:
            self.last.content = ft.Text(_("Tap a die to roll."), italic=True)
        self.history.controls = [ft.Text(self._line(h), theme_style=ft.TextThemeStyle.BODY_MEDIUM) for h in history[1:]]

    @staticmethod
    def _line(h: dict) -> str:
        faces = ", ".join(h["shown"])
        line = (_("{roll}: {faces} (total {total})", roll=roll_label(h), faces=faces, total=h["total"]) if h.get("total")
                else _("{roll}: {faces}", roll=roll_label(h), faces=faces))
        return line + (" · " + _("physical dice") if h.get("physical") else "")

    def _roll(self, count, sides, faces, name, entered) -> None:
        ctx = self.app.ctx
        seed = ctx.setting("dice_seed")
        if seed is None:
            seed = new_seed()
            ctx.set_setting("dice_seed", seed)
        n = int(ctx.setting("dice_count") or 0) + 1
        dice = SeededDice(seed, n, entered=list(entered or []))
        values = [dice.roll(sides) for _ in range(count)]
        if dice.unused_entries():
            raise InputError(ngettext("You typed {typed} faces for {n} die.", "You typed {typed} faces for {n} dice.",
                                      count, typed=len(entered)))
        shown = [faces[v - 1] if faces else str(v) for v in values]
        label = f"{count}×{name}" if name else f"{count}d{sides}"
        entry = {"label": label, "count": count, "name": name, "shown": shown,
                 "total": sum(values) if not faces and count > 1 else None, "physical": bool(entered)}
        ctx.set_setting("dice_count", n)
        ctx.set_setting("dice_history", [entry, *(ctx.setting("dice_history") or [])][:HISTORY_KEEP])
        self.refresh()
        self.app.pulse()

    def _roll_custom(self, e) -> None:
        faces = [f.strip() for f in (self.custom_faces.value or "").split(",") if f.strip()]
        if not 2 <= len(faces) <= 20:
            raise InputError(_("A custom die has 2 to 20 faces, separated by commas (e.g. “Bug, Idea, Idea, Progress”)."))
        if any(len(f) > 30 for f in faces):
            raise InputError(_("A face name has at most 30 characters."))
        name = (self.custom_name.value or "").strip()[:30] or CUSTOM_DIE
        self._roll(1, len(faces), faces, name, [])

    def _clear(self, e) -> None:
        self.app.ctx.set_setting("dice_history", [])
        self.refresh()
