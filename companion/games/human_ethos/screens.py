"""Human Ethos catalog screens, outside any campaign: the map editor (/g/human_ethos/maps) and the
enemy cards (/g/human_ethos/enemies). Maps and cards are entered once and shared by every campaign;
the editing itself is the pure helpers of `hexmap.py` (toggle_space, toggle_wall, set_space). The
editor shows its map as the play screen does (`mapdraw.map_window`: zoom buttons, drag to pan).
Every word is said in the phone's language as the screen is drawn (`_()`); map and card names are
the table's own."""

from __future__ import annotations

import json
import re
from typing import Optional

import flet as ft

from companion import catalog, exchange
from companion.games.base import InputError
from companion.i18n import N_, _, ngettext, render
from companion.ui.screen import DrawnScreen
from companion.ui.style import GAP
from companion.ui.widgets import FormDialog, dialog_frame, icon_button, qr_dialog, section, tagged, wide_button

from .enemies import DEFAULT_ENEMY_TYPES, EnemyType
from .hexmap import (MAX_MAP_JSON, SPECIAL_NAMES, Coord, Hex, HexMap, check_map, hex_neighbours, map_name,
                     parse_map_json, rectangle, set_space, toggle_space, toggle_wall)
from .mapdraw import MapView, Marks, map_canvas, map_window, touch_screen, zoom_buttons
from .view import ENEMY_KIND, MAP_KIND, WIDE_FROM, choice_buttons, enemy_dialog, saved_enemies, saved_maps

MODES = [("spaces", N_("Add / remove spaces")), ("walls", N_("Walls (tap an edge)")), ("area", N_("Paint area")),
         ("special", N_("Special space"))]


# The smallest hex the editor fits a map with (the play screen's: 22 px). Its ring of grey hexes one
# can add makes a 7-column map (the sample, a new one) 9 columns wide: at 22 px that is 316 px, 12 px
# more than a 360 px phone has in the editor's card (304), so the map was cut off; it fits at 21.
EDITOR_MIN_HEX = 20


def _key_for(name: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")[:60] or "map"


class MapsScreen(DrawnScreen):
    route, title = "/g/human_ethos/maps", N_("Human Ethos maps")

    def __init__(self, app):
        super().__init__(app)
        self.key: Optional[str] = None
        self.map: Optional[HexMap] = None
        self.mode = "spaces"
        self.area = _("Area 1")
        self.special: Optional[str] = "start"
        self.dirty = False
        self.look = MapView()  # the map's zoom on this phone
        self.last: Optional[Coord] = None  # the hex tapped last: where a zoom button looks

    # --- drawing ---

    def _draw(self) -> None:
        maps = saved_maps(self.app.store)
        if self.map is None and maps:
            self.key, self.map = maps[0]
        pick = choice_buttons([(k, render(map_name(m))) for k, m in maps], self.key or "", self._open)
        rows: list[ft.Control] = [section(
            _("Saved maps"), pick,
            ft.Row([wide_button(_("New map"), self.app.guard(self._new), icon=ft.Icons.ADD, filled=False),
                    wide_button(_("Import"), self._import, icon=ft.Icons.FILE_OPEN, filled=False)],
                   wrap=True, spacing=8, run_spacing=8),
        )]
        if self.map is None:
            self.body.controls = rows
            return
        wide = (self.app.page.width or 412) >= WIDE_FROM
        tools, board = self._editor(wide)
        if wide:  # a desktop: the tools on the left, the map on the right
            self.body.controls = [ft.ResponsiveRow([ft.Column([*rows, *tools], spacing=GAP, col=5),
                                                    ft.Column([board], spacing=GAP, col=7)],
                                                   spacing=GAP, run_spacing=GAP,
                                                   vertical_alignment=ft.CrossAxisAlignment.START)]
        else:
            self.body.controls = [*rows, *tools]

    def _editor(self, wide: bool) -> tuple[list[ft.Control], ft.Control]:
        """The editing tools, and the map with its zoom buttons (a phone: within the tools' card)."""
        m = self.map
        check = check_map(m)
        spaces = {s.c for s in m.spaces}
        ghosts = {n for c in spaces for n in hex_neighbours(c) if n not in spaces} if self.mode == "spaces" else set()
        if not spaces:
            ghosts = {(q, r) for q in range(7) for r in range(-3, 6)}
        marks = Marks(ghosts=ghosts, unreachable=set(check.unreachable))
        # (the sample map's name in the phone's language; kept as it came unless the players rename it)
        name = ft.TextField(label=_("Map name"), value=render(map_name(m)), max_length=60, on_change=self._renamed)
        hint_text = ft.Text(self._hint(), weight=ft.FontWeight.BOLD)
        tools: list[ft.Control] = [choice_buttons([(k, _(words)) for k, words in MODES], self.mode, self._set_mode),
                                   tagged("editor-hint", hint_text)]

        def area_named(e):
            self.area = e.control.value or ""
            hint_text.value = self._hint()
            hint_text.update()

        if self.mode == "area":
            tools.append(ft.TextField(label=_("Area name (tap spaces to paint it; empty = no area)"), value=self.area,
                                      max_length=24, on_change=area_named))
        if self.mode == "special":
            tools.append(choice_buttons([("", _("Plain"))] + [(k, _(words)) for k, words in SPECIAL_NAMES.items()],
                                        self.special or "", self._set_special))
        verdict = ([tagged("map-check", ft.Text(_("Ready to play: one Start, one End, End reachable."),
                                                color=ft.Colors.GREEN_800, weight=ft.FontWeight.BOLD))]
                   if check.ok else [tagged("map-check", ft.Text(" ".join(render(e) for e in check.errors),
                                                                 color=ft.Colors.ERROR, weight=ft.FontWeight.BOLD))])
        verdict += [ft.Text(render(w), theme_style=ft.TextThemeStyle.BODY_SMALL) for w in check.warnings]
        page = self.app.page.width or 412  # the map's card: the page's width or 7 of its 12 columns, less padding
        width = max(280, min(((page - 24) * 7 / 12 - GAP - 32) if wide else page - 56, 680))
        canvas, lay = map_canvas(m, width, marks, self._tapped, extra=sorted(ghosts), zoom=self.look.zoom,
                                 min_size=EDITOR_MIN_HEX)
        window = map_window(self.look, canvas, lay, width, focus=self.last, touch=touch_screen(self.app.page),
                            identifier="editor-map", what=_("Hex map: tap a space"))
        board = [ft.Row([window], alignment=ft.MainAxisAlignment.CENTER), zoom_buttons(self.look, self.refresh)]
        title = _("Editing · SAMPLE map") if m.sample else _("Editing")
        counts = (ngettext("{n} space", "{n} spaces", len(m.spaces)) + ", "
                  + ngettext("{n} wall", "{n} walls", len(m.walls)) + ". "
                  + _("Grey outlines: hexes you can add. Red ring: not reachable from Start."))
        editing = [name, *tools, *([] if wide else board),
                   tagged("map-counts", ft.Text(counts, theme_style=ft.TextThemeStyle.BODY_SMALL)),
                   *verdict,
                   wide_button(_("Save map") + (" *" if self.dirty else ""), self.app.guard(self._save),
                               icon=ft.Icons.SAVE)]
        share = section(_("Share"), ft.Row([
            wide_button(_("Export"), self._export, icon=ft.Icons.DOWNLOAD, filled=False),
            wide_button(_("Show QR"), self.app.guard(self._qr), icon=ft.Icons.QR_CODE, filled=False),
            wide_button(_("Delete"), self._delete, icon=ft.Icons.DELETE, filled=False),
        ], wrap=True, spacing=8, run_spacing=8))
        return [section(title, *editing), share], section(_("Map"), *board) if wide else ft.Container()

    def _hint(self) -> str:
        """What a tap on the map does in this mode."""
        if self.mode == "spaces":
            return _("Tap a grey outline to add a space, a space to remove it.")
        if self.mode == "walls":
            return _("Tap near the edge between two spaces to put up or take down a wall.")
        if self.mode == "area":
            return _("Tap a space to paint it area “{area}”.", area=self.area or _("none"))
        special = SPECIAL_NAMES.get(self.special or "")
        return _("Tap a space to make it {special}.", special=_(special)) if special else \
            _("Tap a space to make it a plain space.")

    # --- taps ---

    def _tapped(self, c, lay, x, y) -> None:
        self.app.guard(lambda e: self._edit(c, lay, x, y))(None)

    def _edit(self, c, lay, x, y) -> None:
        m, h = self.map, Hex.of(c)
        self.last = c
        if self.mode == "spaces":
            self.map = toggle_space(m, h)
        elif self.mode == "walls":
            a, b = lay.edge_at(x, y)
            self.map = toggle_wall(m, Hex.of(a), Hex.of(b))
        elif m.space(h) is None:
            raise InputError(_("Add a space there first (mode “{mode}”).", mode=_(MODES[0][1])))
        elif self.mode == "area":
            self.map = set_space(m, h, area=self.area.strip())
        else:
            self.map = set_space(m, h, special=self.special or None)
        self.dirty = True
        self.refresh()

    def _set_mode(self, mode: str) -> None:
        self.mode = mode
        self.refresh()

    def _set_special(self, special: str) -> None:
        self.special = special or None
        self.refresh()

    def _renamed(self, e) -> None:
        value = (e.control.value or "").strip()
        if value:
            self.map = self.map.model_copy(update={"name": value})
            self.dirty = True

    def _shown(self, key: Optional[str], m: Optional[HexMap], dirty: bool) -> None:
        """Another map in the editor: seen whole again (no zoom, no pan)."""
        self.key, self.map, self.dirty = key, m, dirty
        self.look, self.last = MapView(view_epoch=self.look.view_epoch + 1), None

    def _open(self, key: str) -> None:
        self._shown(key, dict(saved_maps(self.app.store)).get(key), False)
        self.refresh()

    def _new(self, e) -> None:
        existing = {k for k, _ in saved_maps(self.app.store)}
        n = 1
        while f"my-map-{n}" in existing:
            n += 1
        self._shown(f"my-map-{n}", rectangle(_("My map {n}", n=n), 7, 5), True)
        self.refresh()

    def _save(self, e) -> None:
        m = HexMap.model_validate(self.map.model_dump())  # structural checks again
        if self.key == "sample" and m.sample:
            m = m.model_copy(update={"sample": True})
        catalog.put(self.app.store, MAP_KIND, self.key, m.name, m.model_dump(mode="json"))
        self.dirty = False
        check = check_map(m)
        self.app.toast(_("Saved “{map}”.", map=map_name(m)) if check.ok else
                       _("Saved “{map}”. Not playable yet: {problems}", map=map_name(m),
                         problems=" ".join(render(e) for e in check.errors)))
        self.refresh()

    def _delete(self, e) -> None:
        def gone():
            catalog.remove(self.app.store, MAP_KIND, self.key)
            self._shown(None, None, False)
            self.refresh()
        self.app.confirm(_("Delete “{name}”?", name=map_name(self.map)),
                         _("Campaigns that already started an issue on it keep their copy."), _("Delete"), gone)

    # --- sharing ---

    def _export(self, e) -> None:
        text = json.dumps(self.map.model_dump(mode="json"), ensure_ascii=False, indent=1)
        filename = f"{_key_for(self.map.name)}.map.json"

        async def save_file(e):
            self.app.page.pop_dialog()
            await self.app.file_picker.save_file(file_name=filename, src_bytes=text.encode("utf-8"))

        self.app.page.show_dialog(dialog_frame(
            _("Export “{map}”", map=map_name(self.map)),
            content=ft.Column([ft.Text(_("Save it as {file}, or copy the text.", file=filename),
                                       theme_style=ft.TextThemeStyle.BODY_SMALL),
                               tagged("map-json", ft.TextField(value=text, multiline=True, max_lines=8, read_only=True))],
                              tight=True, width=360, scroll=ft.ScrollMode.AUTO),
            actions=[ft.TextButton(content=_("Close"), on_click=lambda e: self.app.page.pop_dialog()),
                     ft.FilledButton(content=_("Save file"), icon=ft.Icons.DOWNLOAD, on_click=save_file)],
        ))

    def _qr(self, e) -> None:
        qr = exchange.to_qr_text(self.map.model_dump(mode="json"))
        if qr is None:
            raise InputError(_("This map is too big for one QR code; use Export."))
        self.app.page.show_dialog(qr_dialog(f"“{render(map_name(self.map))}”", qr,
                                            caption=_("On the other phone: Maps → Import → paste.")))

    def _import_text(self, text: str) -> None:
        """A map from a file, JSON or QR text, saved under a fresh key; refused whole if anything is wrong."""
        text = text.strip()
        if text.startswith(exchange.QR_PREFIX):
            text = exchange.from_qr_text(text)
        m = parse_map_json(text)
        key = _key_for(m.name)
        existing = {k for k, _ in saved_maps(self.app.store)}
        base, n = key, 2
        while key in existing:
            key, n = f"{base}-{n}", n + 1
        catalog.put(self.app.store, MAP_KIND, key, m.name, m.model_dump(mode="json"))
        self._shown(key, m, False)
        self.app.toast(_("Imported “{map}”.", map=map_name(m)))
        self.refresh()

    def _import(self, e) -> FormDialog:
        """A map from a file or pasted text; a refused one says why under the title and the dialog
        stays open (another file, or the text corrected); imported, it closes."""
        field = ft.TextField(label=_("…or paste the map's JSON or QR text"), multiline=True, min_lines=2, max_lines=5)

        async def pick(e):
            files = await self.app.file_picker.pick_files(allowed_extensions=["json"], with_data=True)
            if not files:
                return
            f = files[0]

            def load():
                if f.size and f.size > 4 * MAX_MAP_JSON:  # refuse before decoding it all
                    raise InputError(_("{file} is too big for a map (a map is at most {max} characters).", file=f.name,
                                       max=MAX_MAP_JSON))
                try:
                    text = (f.bytes or b"").decode("utf-8")
                except UnicodeDecodeError:
                    raise InputError(_("{file} is not a text file.", file=f.name)) from None
                self._import_text(text)

            form.acting(load)()

        form = FormDialog(self.app, _("Import a map"), [wide_button(_("Choose a file"), pick, icon=ft.Icons.FILE_OPEN),
                                                        field])
        form.actions(form.button(_("Import text"), lambda: self._import_text(field.value or "")))
        form.show()
        return form


class EnemiesScreen(DrawnScreen):
    """The enemy cards a table entered once; campaigns take them with “Use saved cards”."""

    route, title = "/g/human_ethos/enemies", N_("Human Ethos enemy cards")

    def _draw(self) -> None:
        saved = {t.name: t for t in saved_enemies(self.app.store)}
        types = [saved.get(t.name, t) for t in DEFAULT_ENEMY_TYPES] + [t for n, t in saved.items()
                                                                      if n not in {d.name for d in DEFAULT_ENEMY_TYPES}]
        rows = []
        for t in types:
            state = _("saved") if t.name in saved else _("not entered yet (placeholder)")
            stats = _("{enemy}: threat {threat}, range {range}, health {health}, move {move}", enemy=t.name,
                      threat=t.threat, range=t.range, health=t.health, move=t.move)
            rows.append(ft.Row([
                ft.Text(f"{stats} · {state}", theme_style=ft.TextThemeStyle.BODY_MEDIUM, expand=True),
                icon_button(ft.Icons.EDIT, _("Edit {enemy}", enemy=t.name),
                            lambda e, t=t: enemy_dialog(self.app, t, self._save)),
            ], vertical_alignment=ft.CrossAxisAlignment.CENTER))
        self.body.controls = [
            section(_("Enemy cards"), ft.Text(_("Enter each card once from the box; every campaign can take them "
                                                "(Enemy cards → Use saved cards)."),
                                              theme_style=ft.TextThemeStyle.BODY_SMALL),
                    *rows,
                    wide_button(_("Add a type"), lambda e: enemy_dialog(self.app, None, self._save), icon=ft.Icons.ADD,
                                filled=False)),
            wide_button(_("Edit maps"), lambda e: self.app.go("/g/human_ethos/maps"), icon=ft.Icons.MAP, filled=False),
        ]

    def _save(self, et: EnemyType) -> None:
        et = et.model_copy(update={"placeholder": False})
        catalog.put(self.app.store, ENEMY_KIND, et.name, et.name, et.model_dump(mode="json"))
        self.app.toast(_("Saved {enemy}.", enemy=et.name))
        self.refresh()
