"""The standalone Dice screen: any NdX, custom dice with named faces, the Biosphere 5 hand die,
"I rolled …" entry, and a history. Rolls come from a seeded source kept in the app settings."""

from __future__ import annotations

import flet as ft

from companion.dice import SeededDice, new_seed
from companion.games.base import InputError
from companion.ui.style import GAP, TAP
from companion.ui.widgets import DiceTray, dice_faces, section, tagged

HISTORY_KEEP = 40


class DiceScreen:
    def __init__(self, app):
        self.app = app
        self.last = ft.Container()
        self.history = ft.Column(spacing=4)
        self.black_faces = ft.Dropdown(label="Hand die: black-hand faces", value=str(app.ctx.setting("hand_die_black_faces") or 1),
                                       options=[ft.DropdownOption(key=str(i), text=f"{i} of 6") for i in range(7)],
                                       on_select=self._black_changed, width=260)
        self.custom_name = ft.TextField(label="Custom die name", value="")
        self.custom_faces = ft.TextField(label="Faces, separated by commas", value="")

    def view(self) -> ft.View:
        self._draw()
        tray = DiceTray(self._roll, black_faces=self._black(), sizes=self.app.sizes)
        return ft.View(
            route="/dice",
            appbar=ft.AppBar(title=ft.Text("Dice")),
            controls=[
                section("Result", tagged("dice-last", self.last)),
                section("Roll", tray.control(self.app.guard), self.black_faces),
                section("Custom die", self.custom_name, self.custom_faces,
                        ft.FilledTonalButton(content="Roll custom die", icon=ft.Icons.CASINO, height=TAP,
                                             on_click=self.app.guard(self._roll_custom))),
                section("History", self.history,
                        trailing=ft.TextButton(content="Clear", on_click=self.app.guard(self._clear))),
            ],
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
            self.last.content = ft.Column([ft.Text(top["label"] + (f"  total {top['total']}" if top.get("total") else ""),
                                                   theme_style=ft.TextThemeStyle.TITLE_MEDIUM),
                                           dice_faces(top["shown"], sizes=self.app.sizes, highlight=True)])
        else:
            self.last.content = ft.Text("Tap a die to roll.", italic=True)
        self.history.controls = [
            ft.Text(f"{h['label']}: {', '.join(h['shown'])}" + (f" (total {h['total']})" if h.get("total") else "")
                    + (" · physical" if h.get("physical") else ""), theme_style=ft.TextThemeStyle.BODY_MEDIUM)
            for h in history[1:]
        ]

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
            raise InputError(f"You typed {len(entered)} faces for {count} dice.")
        shown = [faces[v - 1] if faces else str(v) for v in values]
        label = f"{count}×{name}" if name else f"{count}d{sides}"
        entry = {"label": label, "shown": shown, "total": sum(values) if not faces and count > 1 else None,
                 "physical": bool(entered)}
        ctx.set_setting("dice_count", n)
        ctx.set_setting("dice_history", [entry, *(ctx.setting("dice_history") or [])][:HISTORY_KEEP])
        self.refresh()
        self.app.pulse()

    def _roll_custom(self, e) -> None:
        faces = [f.strip() for f in (self.custom_faces.value or "").split(",") if f.strip()]
        if not 2 <= len(faces) <= 20:
            raise InputError("A custom die has 2 to 20 faces, separated by commas (e.g. “Bug, Idea, Idea, Progress”).")
        if any(len(f) > 30 for f in faces):
            raise InputError("A face name has at most 30 characters.")
        name = (self.custom_name.value or "").strip()[:30] or "custom die"
        self._roll(1, len(faces), faces, name, [])

    def _clear(self, e) -> None:
        self.app.ctx.set_setting("dice_history", [])
        self.refresh()
