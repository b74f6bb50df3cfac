"""Drawing a Human Ethos hex map with Flet's canvas, and turning a tap back into a hex.

Used by the play screen and the map editor, which show it alike: in a window that pans a zoomed
map (`map_window`) with the zoom buttons under it (`zoom_buttons`). Decides nothing about the
rules: it is told what to highlight (reachable spaces, placement spaces, a tie's options, the last
moves, an attack's target) and draws it.

Each space keeps its parts apart so none hides another, at any zoom: its name along the top edge
(a face-down token's mark on its left, a tie option's number on its right), the enemies as red
tags under the name ("2 Drak": the count and a short name that still tells the types apart),
the team members' discs along the bottom, over the special space's word. A zoomed map is the
same drawing scaled (`Layout.scaled`), so the writing grows with it and taps map back exactly.
Its words (the special spaces' short words, "+N more", what screen readers hear) are said in the
phone's language as it draws; names of spaces and enemies are the same in every language."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Callable, Iterable, Optional

import flet as ft
import flet.canvas as cv

from companion.i18n import N_, _
from companion.ui.widgets import icon_button, keyed, tagged

from .hexmap import Board, Coord, HexMap, cube_round, default_label, hex_corners, hex_neighbours, hex_to_pixel

# Pastel area tints, none of them green: green means "reachable" on this map (REACHABLE).
AREA_TINTS = ["#E3F2FD", "#FFF3E0", "#FCE4EC", "#F3E5F5", "#FFFDE7", "#E0F7FA", "#FBE9E7", "#EDE7F6", "#ECEFF1"]
REACHABLE_FILL = "#00C853"  # a saturated green wash with a dark green edge: unlike any area tint
REACHABLE_EDGE = "#1B5E20"
SPECIAL_STYLE: dict[str, tuple[str, str]] = {  # special → (fill colour, short word drawn in the hex, with _())
    "start": ("#43A047", N_("START")),
    "end": ("#FFB300", N_("END")),
    "cache": ("#1E88E5", N_("CACHE")),
    "hazard": ("#E53935", N_("HAZARD")),
    "common": ("#8E24AA", N_("ENC")),
    "elite": ("#4A148C", N_("ELITE")),
}
USED_CACHE = N_("USED")  # a used cache's word, in its grey
CLEAR = ft.Colors.with_opacity(0.01, "#FFFFFF")  # a fill that takes taps but shows nothing
MEMBER_COLOURS = ["#00695C", "#1565C0", "#6A1B9A", "#EF6C00", "#2E7D32", "#AD1457"]
ENEMY_COLOUR = "#C62828"
ZOOMS = (1.0, 1.5, 2.0, 2.5, 3.0)  # the zoom buttons' steps (1: the whole map fits the screen)
PINCH_MAX = 3.0  # a pinch zooms up to this much more on top (phones and tablets)


@dataclass
class Marks:
    """What to draw on top of the plain map."""

    members: list[tuple[str, Coord]] = field(default_factory=list)  # (name, space)
    enemies: list[tuple[str, int, Coord]] = field(default_factory=list)  # (type, count, space)
    enemy_words: dict[Coord, str] = field(default_factory=dict)  # space → its enemies in words, read aloud
    selected: Optional[Coord] = None
    reachable: set[Coord] = field(default_factory=set)  # green, filled (REACHABLE_FILL)
    targets: dict[Coord, str] = field(default_factory=dict)  # amber outline + a small tag (tie options, placements)
    moved: list[tuple[Coord, Coord]] = field(default_factory=list)  # arrows of the last moves
    tokens: dict[Coord, str] = field(default_factory=dict)  # space → "?" face down, "!" revealed
    used: set[Coord] = field(default_factory=set)  # used caches
    aimed: Optional[Coord] = None  # the space an attack is aimed at (a thick red ring)
    attackable: set[Coord] = field(default_factory=set)  # enemies the attacker reaches (thin red rings)
    unreachable: set[Coord] = field(default_factory=set)  # editor: flagged spaces
    ghosts: set[Coord] = field(default_factory=set)  # editor: empty hexes one can add


@dataclass
class Layout:
    size: float
    dx: float
    dy: float
    width: float
    height: float

    def centre(self, c: Coord) -> tuple[float, float]:
        x, y = hex_to_pixel(c, self.size)
        return x + self.dx, y + self.dy

    def corners(self, c: Coord) -> list[tuple[float, float]]:
        return [(x + self.dx, y + self.dy) for x, y in hex_corners(c, self.size)]

    def scaled(self, k: float) -> Layout:
        """The same drawing k times bigger (a zoomed map): every point, and so every tap, scales by k."""
        return Layout(self.size * k, self.dx * k, self.dy * k, self.width * k, self.height * k)

    def hex_at(self, px: float, py: float) -> Coord:
        """The hex under a point of the canvas (flat-top axial, rounded in cube coordinates)."""
        x, y = (px - self.dx) / self.size, (py - self.dy) / self.size
        fq = 2 / 3 * x
        fr = -1 / 3 * x + math.sqrt(3) / 3 * y
        return cube_round(fq, fr)

    def edge_at(self, px: float, py: float) -> tuple[Coord, Coord]:
        """The edge nearest a point: the hex under it and the neighbour whose centre is closest."""
        c = self.hex_at(px, py)
        best = min(hex_neighbours(c), key=lambda n: _dist2(self.centre(n), (px, py)))
        return c, best


def _dist2(a, b) -> float:
    return (a[0] - b[0]) ** 2 + (a[1] - b[1]) ** 2


def layout(coords: list[Coord], width: float, *, max_size: float = 46, min_size: float = 22) -> Layout:
    """Fit the hexes into `width` pixels (hex size between min_size and max_size)."""
    if not coords:
        coords = [(0, 0)]
    xs = [hex_to_pixel(c, 1.0)[0] for c in coords]
    ys = [hex_to_pixel(c, 1.0)[1] for c in coords]
    span_x = (max(xs) - min(xs)) + 2.0  # one circumradius each side
    size = max(min_size, min(max_size, (width - 8) / span_x))
    half_h = math.sqrt(3) / 2
    dx = -min(xs) * size + size + 4
    dy = -min(ys) * size + half_h * size + 4
    w = span_x * size + 8
    h = ((max(ys) - min(ys)) + 2 * half_h) * size + 8
    return Layout(size, dx, dy, w, h)


def _polygon(points, paint: ft.Paint) -> cv.Path:
    elements = [cv.Path.MoveTo(*points[0])] + [cv.Path.LineTo(x, y) for x, y in points[1:]] + [cv.Path.Close()]
    return cv.Path(elements, paint=paint)


def _scaled(lay: Layout, c: Coord, k: float):
    cx, cy = lay.centre(c)
    return [(cx + (x - cx) * k, cy + (y - cy) * k) for x, y in lay.corners(c)]


def _fill(colour: str) -> ft.Paint:
    return ft.Paint(color=colour, style=ft.PaintingStyle.FILL)


def _stroke(colour: str, width: float) -> ft.Paint:
    return ft.Paint(color=colour, style=ft.PaintingStyle.STROKE, stroke_width=width, stroke_join=ft.StrokeJoin.ROUND)


def _text(x, y, value, size, colour="#000000", bold=False) -> cv.Text:
    return cv.Text(x, y, value, style=ft.TextStyle(size=size, color=colour,
                                                   weight=ft.FontWeight.BOLD if bold else ft.FontWeight.NORMAL),
                   alignment=ft.Alignment.CENTER)


def shared_edge(lay: Layout, a: Coord, b: Coord) -> Optional[tuple[tuple[float, float], tuple[float, float]]]:
    ca = lay.corners(a)
    cb = lay.corners(b)
    common = [p for p in ca if any(_dist2(p, q) < 1.0 for q in cb)]
    return (common[0], common[1]) if len(common) == 2 else None


def short_names(names: Iterable[str]) -> dict[str, str]:
    """A short name for each enemy type drawn on the map, as short as keeps the types apart:
    "Nanobots" → "Nano", "Drakens" → "Drak"; "Alpha" and "Alphas" → "Alpha" and "Alphas"."""
    unique = sorted(set(names))

    def candidates(name: str) -> list[str]:
        words = name.split()
        out = [name[:4]]
        if len(words) > 1:  # "Elite Guards", "Elite Drones" → "EliG", "EliD"
            out.append(words[0][:3] + "".join(w[0].upper() for w in words[1:]))
        out += [name[:n] for n in range(5, len(name) + 1)]
        return [c.strip() or name for c in out] + [name]

    level = {n: 0 for n in unique}

    def tag(n: str) -> str:
        options = candidates(n)
        return options[min(level[n], len(options) - 1)]

    while True:
        seen: dict[str, list[str]] = {}
        for n in unique:
            seen.setdefault(tag(n).lower(), []).append(n)
        moved = False
        for clash in (ns for ns in seen.values() if len(ns) > 1):
            for n in clash:
                if level[n] < len(candidates(n)) - 1:
                    level[n] += 1
                    moved = True
        if not moved:
            break
    out: dict[str, str] = {}
    taken: set[str] = set()
    for n in unique:  # names alike but for their case: numbered
        t, k = tag(n), 2
        while t.lower() in taken:
            t, k = f"{tag(n)}{k}", k + 1
        taken.add(t.lower())
        out[n] = t
    return out


def tag_width(text: str, size: float) -> float:
    """About how wide an enemy tag must be for `text` in bold at `size` px (the canvas can't measure)."""
    narrow = sum(1 for ch in text if ch in "ilj1 .'")
    return (len(text) - narrow) * size * 0.62 + narrow * size * 0.32 + size * 0.9


def label_size(s: float) -> float:
    """The size of a space's name, along its top edge, on hexes of size s."""
    return max(10.5, s * 0.3)


def shapes(m: HexMap, lay: Layout, marks: Marks) -> list[cv.Shape]:
    board = Board.of(m)
    s = lay.size
    areas = sorted({sp.area for sp in m.spaces if sp.area})
    tint = {a: AREA_TINTS[i % len(AREA_TINTS)] for i, a in enumerate(areas)}
    out: list[cv.Shape] = []
    for c in sorted(marks.ghosts):
        out.append(_polygon(_scaled(lay, c, 0.92), _stroke("#BDBDBD", 1)))
    for sp in m.spaces:
        c = sp.c
        out.append(_polygon(lay.corners(c), _fill(tint.get(sp.area, "#FAFAFA"))))
        if c in marks.reachable:  # under the labels and tokens, which stay readable on it
            out.append(_polygon(lay.corners(c), _fill(ft.Colors.with_opacity(0.45, REACHABLE_FILL))))
        if sp.special:
            colour, word = SPECIAL_STYLE[sp.special]
            if c in marks.used:
                colour, word = "#9E9E9E", USED_CACHE
            word = _(word)
            out.append(_polygon(_scaled(lay, c, 0.55), _fill(ft.Colors.with_opacity(0.4, colour))))
            out.append(_text(lay.centre(c)[0], lay.centre(c)[1] + s * 0.58, word, max(8.5, s * 0.24), "#212121", True))
        out.append(_polygon(lay.corners(c), _stroke("#757575", 1.2)))
        cx, cy = lay.centre(c)
        shift = s * 0.2 if marks.targets.get(c) else 0  # clear of a tie option's number, top right
        out.append(_text(cx - shift, cy - s * 0.6, board.label(c), label_size(s), "#37474F", True))
        if c in marks.unreachable:
            out.append(_polygon(_scaled(lay, c, 0.85), _stroke("#D50000", 2.5)))
    # area borders: a thin dark line where two spaces of different areas meet
    for sp in m.spaces:
        for n in board.adj.get(sp.c, []):
            if sp.c < n and board.spaces[n].area != sp.area:
                e = shared_edge(lay, sp.c, n)
                if e:
                    out.append(cv.Line(*e[0], *e[1], paint=_stroke("#9E9E9E", 2.5)))
    for w in m.walls:
        e = shared_edge(lay, w.a.c, w.b.c)
        if e:
            out.append(cv.Line(*e[0], *e[1], paint=_stroke("#212121", max(4, s * 0.16))))
    for c in marks.reachable:
        out.append(_polygon(_scaled(lay, c, 0.86), _stroke(REACHABLE_EDGE, 3)))
    for c in marks.targets:
        out.append(_polygon(_scaled(lay, c, 0.86), _stroke("#FF8F00", 4)))
    for c, mark in marks.tokens.items():  # top left, beside the space's name
        cx, cy = lay.centre(c)
        r = max(6.5, s * 0.2)
        out.append(cv.Circle(cx - s * 0.5, cy - s * 0.55, r, paint=_fill("#37474F" if mark == "?" else "#FF6F00")))
        out.append(_text(cx - s * 0.5, cy - s * 0.55, mark, max(9, s * 0.26), "#FFFFFF", True))
    for a, b in marks.moved:
        if a in board.spaces and b in board.spaces:
            (x1, y1), (x2, y2) = lay.centre(a), lay.centre(b)
            out.extend(_arrow(x1, y1, x2, y2, s))
    if marks.selected is not None:
        out.append(_polygon(_scaled(lay, marks.selected, 0.95), _stroke("#0D47A1", 5)))
    for c in marks.attackable:
        out.append(_polygon(_scaled(lay, c, 0.86), _stroke(ENEMY_COLOUR, 2.5)))
    if marks.aimed is not None:
        out.append(_polygon(_scaled(lay, marks.aimed, 0.93), _stroke("#B71C1C", max(4, s * 0.14))))
    per_space: dict[Coord, list[tuple[str, int]]] = {}
    for name, count, c in marks.enemies:
        per_space.setdefault(c, []).append((name, count))
    # Team members first: with enemies on their space they stand in its lower corners, under the
    # enemies' tags (drawn next), so a token never hides which enemies are there.
    at: dict[Coord, list[int]] = {}
    for i, (_name, c) in enumerate(marks.members):
        at.setdefault(c, []).append(i)
    for c, idx in at.items():
        cx, cy = lay.centre(c)
        n = len(idx)
        crowded = bool(per_space.get(c))
        r = max(9.0, s * 0.26) if crowded else max(9.5, s * 0.3)
        for k, i in enumerate(idx):
            name = marks.members[i][0]
            if crowded:  # 1: the lower left corner; 2: both corners; more: a row along the bottom
                ox = -s * 0.32 if n == 1 else (k - (n - 1) / 2) * (s * 0.64 / (n - 1) if n <= 3 else r * 1.7)
                oy = s * 0.53
            else:
                ox, oy = (k - (n - 1) / 2) * r * 1.6, s * 0.08
            out.append(cv.Circle(cx + ox, cy + oy, r, paint=_fill(MEMBER_COLOURS[i % len(MEMBER_COLOURS)])))
            out.append(cv.Circle(cx + ox, cy + oy, r, paint=_stroke("#FFFFFF", 2)))
            out.append(_text(cx + ox, cy + oy, name[:2], max(9.5, r), "#FFFFFF", True))
    # Enemies: a red tag per type: its count and a short name ("2 Drak"). One tag just above the
    # middle; a stack of them starts right under the space's name, which stays readable, and stops
    # at the space's lower edge (clear of the name of the space below): what doesn't fit is "+N more".
    short = short_names(name for name, _count, _at in marks.enemies)
    for c, groups in per_space.items():
        cx, cy = lay.centre(c)
        size = max(11.0, s * 0.36) if len(groups) == 1 else max(10.0, s * 0.3)
        h = size * 1.3
        if len(groups) == 1:
            top, rows = cy - s * 0.12 - h / 2, 1
        else:
            top = cy - s * 0.6 + label_size(s) / 2 + 1
            floor = cy + s * math.sqrt(3) / 2 + 1
            rows = max(1, min(len(groups), 3, int((floor - top + 2) // (h + 2))))
        for k, (name, count) in enumerate(groups[:rows]):
            more = len(groups) - rows + 1
            text = _("+{n} more", n=more) if k == rows - 1 and more > 1 else f"{count} {short[name]}"
            w = tag_width(text, size)
            y = top + k * (h + 2)
            out.append(cv.Rect(cx - w / 2, y, w, h, border_radius=ft.BorderRadius.all(h / 2),
                               paint=_fill(ENEMY_COLOUR)))
            out.append(cv.Rect(cx - w / 2, y, w, h, border_radius=ft.BorderRadius.all(h / 2),
                               paint=_stroke("#FFFFFF", 1.5)))
            out.append(_text(cx, y + h / 2, text, size, "#FFFFFF", True))
    # the tie options' numbers last, on top of everything: the players tap by them, at arm's length
    for c, tag in marks.targets.items():
        if tag:
            cx, cy = lay.centre(c)
            r, x, y = max(9.0, s * 0.32), cx + s * 0.55, cy - s * 0.48
            out.append(cv.Circle(x, y, r, paint=_fill("#E65100")))
            out.append(cv.Circle(x, y, r, paint=_stroke("#FFFFFF", 2)))
            out.append(_text(x, y, tag, max(12, r * 1.3), "#FFFFFF", True))
    return out


def _arrow(x1, y1, x2, y2, s) -> list[cv.Shape]:
    length = math.hypot(x2 - x1, y2 - y1) or 1
    ux, uy = (x2 - x1) / length, (y2 - y1) / length
    # stop short of the centres so the discs stay readable
    sx, sy = x1 + ux * s * 0.3, y1 + uy * s * 0.3
    ex, ey = x2 - ux * s * 0.35, y2 - uy * s * 0.35
    paint = _stroke("#FF6F00", 4)
    head = s * 0.28
    left = (ex - ux * head - uy * head * 0.6, ey - uy * head + ux * head * 0.6)
    right = (ex - ux * head + uy * head * 0.6, ey - uy * head - ux * head * 0.6)
    return [cv.Line(sx, sy, ex, ey, paint=paint), cv.Line(ex, ey, *left, paint=paint), cv.Line(ex, ey, *right, paint=paint)]


def map_canvas(m: HexMap, width: float, marks: Marks,
               on_tap: Optional[Callable[[Coord, Layout, float, float], None]], *,
               extra: Optional[list[Coord]] = None, zoom: float = 1.0,
               min_size: float = 22) -> tuple[ft.Control, Layout]:
    """The map fitted to `width` (its hexes no smaller than `min_size`: a map too wide for that is
    panned) then drawn `zoom` times bigger, as a canvas inside a GestureDetector, and its layout.
    `on_tap(hex, layout, x, y)` gets the tapped hex: the position is the canvas's own (Flutter maps
    a tap back through any zoom or pan around it), so it needs no correction."""
    coords = [s.c for s in m.spaces] + list(extra or [])
    lay = layout(coords, width, min_size=min_size).scaled(zoom)
    canvas = cv.Canvas(shapes=shapes(m, lay, marks), width=lay.width, height=lay.height)

    def tapped(e):
        pos = e.local_position
        if pos is None or on_tap is None:
            return
        on_tap(lay.hex_at(pos.x, pos.y), lay, pos.x, pos.y)

    detector = ft.GestureDetector(content=ft.Container(canvas, bgcolor=CLEAR),
                                  on_tap_up=tapped, mouse_cursor=ft.MouseCursor.CLICK)
    markers = enemy_markers(m, lay, marks)
    # (under the canvas: a Container takes the taps on its box, even an empty one)
    content = ft.Stack([*markers, detector], width=lay.width, height=lay.height)
    return ft.Container(content, width=lay.width, height=lay.height, alignment=ft.Alignment.TOP_LEFT), lay


def enemy_markers(m: HexMap, lay: Layout, marks: Marks) -> list[ft.Control]:
    """An empty box over each space with enemies, named for screen readers ("Enemies on D4: 2
    Drakens, 1 Nanobot") and for tests ("enemy-D4"): the canvas's writing is only pixels. They lie
    under the canvas, so a tap there reaches the map."""
    board = Board.of(m)
    out: list[ft.Control] = []
    for c in dict.fromkeys(c for _name, _count, c in marks.enemies):
        label = board.label(c)
        words = marks.enemy_words.get(c) or ", ".join(f"{n} {name}" for name, n, at in marks.enemies if at == c)
        x, y = lay.centre(c)
        w, h = lay.size * 1.4, lay.size * 0.9
        out.append(ft.Container(left=x - w / 2, top=y - lay.size * 0.12 - h / 2, width=w, height=h,
                                content=ft.Semantics(identifier=f"enemy-{label}",
                                                     label=_("Enemies on {space}: {enemies}. Tap to attack.",
                                                             space=label, enemies=words),
                                                     content=ft.Container(width=w, height=h))))
    return out


@dataclass
class MapView:
    """How one phone looks at a map: its zoom (one of ZOOMS: drawn that much bigger, dragged sideways
    to pan), the viewer's generation (`view_epoch`: a zoom button makes a new viewer, with no pinch or
    pan left over) and whether that one is still to be panned to the focus once laid out."""

    zoom: float = 1.0
    view_epoch: int = 0
    centre_pending: bool = False

    def zoomed(self, zoom: float) -> None:
        self.zoom = zoom
        self.view_epoch += 1  # a new viewer: the old pan may not fit the new size
        self.centre_pending = zoom > 1


def touch_screen(page) -> bool:
    """A phone or tablet: a pinch zooms the map too. Not on a desktop, where the viewer would take
    the mouse wheel for a zoom as well as the page's scroll."""
    platform = getattr(page, "platform", None)
    return str(getattr(platform, "value", platform)) in ("android", "ios")


def map_window(view: MapView, canvas: ft.Control, lay: Layout, fit: float, *, focus: Optional[Coord],
               touch: bool, identifier: str = "hexmap", what: Optional[str] = None) -> ft.Control:
    """The map (`canvas`, drawn at `view.zoom` with layout `lay`) in an InteractiveViewer: as wide as
    the screen allows (`fit`) and as tall as the drawing, so a finger's sideways drag pans a zoomed
    map and an upward one still scrolls the page; a phone (`touch`) can pinch it too. A tap reaches
    the canvas inside, which maps it back through the zoom and pan. The viewer keeps its identity
    (and the phone its pan) across redraws until a zoom button makes a new one (`view_epoch`); that
    one is then panned to `focus` (None: the middle of the map) once the phone has laid it out.

    The map's name for screen readers (`what`, in the phone's language; by default the play screen's
    "Hex map: tap a space or an enemy") and tests (`identifier`: the window's box) is on an
    empty box under the viewer, not around it: Flutter's web engine drops the identifier of a node
    whose children change (the enemies' markers come and go inside the viewer)."""
    width, height = min(lay.width, fit), lay.height

    async def laid_out(e):
        if not view.centre_pending:
            return
        view.centre_pending = False
        dx, dy = (centred(lay, focus, width, height) if focus is not None
                  else (min(0.0, (width - lay.width) / 2), min(0.0, (height - lay.height) / 2)))
        if dx or dy:
            try:
                await viewer.pan(dx, dy)
            except (RuntimeError, TimeoutError):  # the phone left or redrew meanwhile: the map stays as it is
                pass

    viewer = ft.InteractiveViewer(content=canvas, constrained=False, width=width, height=height,
                                  min_scale=1, max_scale=PINCH_MAX, scale_enabled=touch, on_size_change=laid_out)
    what = what or _("Hex map: tap a space or an enemy")
    name = ft.Semantics(identifier=identifier, content=ft.Container(width=width, height=height),
                        label=_("{map}, drag to pan", map=what) if lay.width > width else what)
    return keyed(f"map-view-{view.view_epoch}", ft.Stack([name, viewer], width=width, height=height))


def zoom_buttons(view: MapView, redraw: Callable[[], None]) -> ft.Control:
    """Zoom in / out / fit for one hand (a browser or a thumb can't always pinch): each sets the
    view's zoom, then `redraw()` draws the map at it."""
    i = ZOOMS.index(view.zoom) if view.zoom in ZOOMS else 0

    def to(zoom: float):
        def handler(e):
            view.zoomed(zoom)
            redraw()
        return handler

    return ft.Row([
        icon_button(ft.Icons.ZOOM_OUT, _("Zoom out the map"), to(ZOOMS[max(0, i - 1)]), disabled=i == 0),
        # no fixed width: at the largest text size "100 %" would break in two
        tagged("map-zoom", ft.Container(ft.Text(f"{round(view.zoom * 100)} %", theme_style=ft.TextThemeStyle.TITLE_MEDIUM,
                                                weight=ft.FontWeight.BOLD, no_wrap=True),
                                        padding=ft.Padding.symmetric(horizontal=6))),
        icon_button(ft.Icons.ZOOM_IN, _("Zoom in the map"), to(ZOOMS[min(len(ZOOMS) - 1, i + 1)]),
                    disabled=i == len(ZOOMS) - 1),
        icon_button(ft.Icons.FIT_SCREEN, _("Fit the map to the screen"), to(1.0)),
    ], spacing=4, alignment=ft.MainAxisAlignment.CENTER, vertical_alignment=ft.CrossAxisAlignment.CENTER)


def centred(lay: Layout, c: Coord, view_width: float, view_height: float) -> tuple[float, float]:
    """The pan (dx, dy) that brings space `c` of a drawing to the middle of a window of the given size
    on it, stopped at the drawing's edges (as a zoomed map's viewer stops a drag)."""
    x, y = lay.centre(c)
    dx = min(0.0, max(view_width - lay.width, view_width / 2 - x))
    dy = min(0.0, max(view_height - lay.height, view_height / 2 - y))
    return dx, dy


def label_of(m: HexMap, c: Coord) -> str:
    sp = m.space(c)
    return (sp.label if sp and sp.label else "") or default_label(c)
