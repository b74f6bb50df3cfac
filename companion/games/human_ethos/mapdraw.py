"""Drawing a Human Ethos hex map with Flet's canvas, and turning a tap back into a hex.

Used by the play screen and the map editor. Decides nothing about the rules: it is told what to
highlight (reachable spaces, placement spaces, a tie's options, the last moves) and draws it."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Callable, Optional

import flet as ft
import flet.canvas as cv

from .hexmap import Board, Coord, HexMap, cube_round, default_label, hex_corners, hex_neighbours, hex_to_pixel

# Pastel area tints, none of them green: green means "reachable" on this map (REACHABLE).
AREA_TINTS = ["#E3F2FD", "#FFF3E0", "#FCE4EC", "#F3E5F5", "#FFFDE7", "#E0F7FA", "#FBE9E7", "#EDE7F6", "#ECEFF1"]
REACHABLE_FILL = "#00C853"  # a saturated green wash with a dark green edge: unlike any area tint
REACHABLE_EDGE = "#1B5E20"
SPECIAL_STYLE: dict[str, tuple[str, str]] = {  # special → (fill colour, short word drawn in the hex)
    "start": ("#43A047", "START"),
    "end": ("#FFB300", "END"),
    "cache": ("#1E88E5", "CACHE"),
    "hazard": ("#E53935", "HAZARD"),
    "common": ("#8E24AA", "ENC"),
    "elite": ("#4A148C", "ELITE"),
}
MEMBER_COLOURS = ["#00695C", "#1565C0", "#6A1B9A", "#EF6C00", "#2E7D32", "#AD1457"]
ENEMY_COLOUR = "#C62828"


@dataclass
class Marks:
    """What to draw on top of the plain map."""

    members: list[tuple[str, Coord]] = field(default_factory=list)  # (name, space)
    enemies: list[tuple[str, int, Coord]] = field(default_factory=list)  # (type, count, space)
    selected: Optional[Coord] = None
    reachable: set[Coord] = field(default_factory=set)  # green, filled (REACHABLE_FILL)
    targets: dict[Coord, str] = field(default_factory=dict)  # amber outline + a small tag (tie options, placements)
    moved: list[tuple[Coord, Coord]] = field(default_factory=list)  # arrows of the last moves
    tokens: dict[Coord, str] = field(default_factory=dict)  # space → "?" face down, "!" revealed
    used: set[Coord] = field(default_factory=set)  # used caches
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
                colour, word = "#9E9E9E", "USED"
            out.append(_polygon(_scaled(lay, c, 0.55), _fill(ft.Colors.with_opacity(0.4, colour))))
            out.append(_text(lay.centre(c)[0], lay.centre(c)[1] + s * 0.52, word, max(8, s * 0.24), "#212121", True))
        out.append(_polygon(lay.corners(c), _stroke("#757575", 1.2)))
        cx, cy = lay.centre(c)
        out.append(_text(cx, cy - s * 0.62, board.label(c), max(8, s * 0.26), "#424242"))
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
    for c, mark in marks.tokens.items():
        cx, cy = lay.centre(c)
        out.append(cv.Circle(cx - s * 0.55, cy - s * 0.3, s * 0.2, paint=_fill("#37474F" if mark == "?" else "#FF6F00")))
        out.append(_text(cx - s * 0.55, cy - s * 0.3, mark, max(9, s * 0.26), "#FFFFFF", True))
    for a, b in marks.moved:
        if a in board.spaces and b in board.spaces:
            (x1, y1), (x2, y2) = lay.centre(a), lay.centre(b)
            out.extend(_arrow(x1, y1, x2, y2, s))
    if marks.selected is not None:
        out.append(_polygon(_scaled(lay, marks.selected, 0.95), _stroke("#0D47A1", 5)))
    # enemies: a red disc with the count and the type's first letters
    per_space: dict[Coord, list[tuple[str, int]]] = {}
    for name, count, c in marks.enemies:
        per_space.setdefault(c, []).append((name, count))
    for c, groups in per_space.items():
        cx, cy = lay.centre(c)
        for i, (name, count) in enumerate(groups[:3]):
            ox = (i - (len(groups[:3]) - 1) / 2) * s * 0.62
            out.append(cv.Circle(cx + ox, cy + s * 0.05, s * 0.3, paint=_fill(ENEMY_COLOUR)))
            out.append(_text(cx + ox, cy - s * 0.02, str(count), max(10, s * 0.34), "#FFFFFF", True))
            out.append(_text(cx + ox, cy + s * 0.24, name[:4], max(7, s * 0.17), "#FFFFFF", True))
    # team members: coloured discs with initials, spread around the lower half of the hex
    at: dict[Coord, list[int]] = {}
    for i, (_, c) in enumerate(marks.members):
        at.setdefault(c, []).append(i)
    for c, idx in at.items():
        cx, cy = lay.centre(c)
        n = len(idx)
        for k, i in enumerate(idx):
            name = marks.members[i][0]
            ox = (k - (n - 1) / 2) * s * 0.42
            oy = s * 0.42 if per_space.get(c) else 0
            out.append(cv.Circle(cx + ox, cy + oy, s * 0.26, paint=_fill(MEMBER_COLOURS[i % len(MEMBER_COLOURS)])))
            out.append(cv.Circle(cx + ox, cy + oy, s * 0.26, paint=_stroke("#FFFFFF", 2)))
            out.append(_text(cx + ox, cy + oy, name[:2], max(9, s * 0.24), "#FFFFFF", True))
    # the tie options' numbers last, on top of everything: the players tap by them, at arm's length
    for c, tag in marks.targets.items():
        if tag:
            cx, cy = lay.centre(c)
            out.append(cv.Circle(cx + s * 0.5, cy - s * 0.3, s * 0.34, paint=_fill("#E65100")))
            out.append(cv.Circle(cx + s * 0.5, cy - s * 0.3, s * 0.34, paint=_stroke("#FFFFFF", 2)))
            out.append(_text(cx + s * 0.5, cy - s * 0.3, tag, max(12, s * 0.44), "#FFFFFF", True))
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


def map_control(m: HexMap, width: float, marks: Marks, on_tap: Optional[Callable[[Coord, "Layout", float, float], None]],
                *, extra: Optional[list[Coord]] = None, identifier: str = "hexmap") -> ft.Control:
    """The map as a canvas inside a GestureDetector; `on_tap(hex, layout, x, y)` gets the tapped hex."""
    coords = [s.c for s in m.spaces] + list(extra or [])
    lay = layout(coords, width)
    canvas = cv.Canvas(shapes=shapes(m, lay, marks), width=lay.width, height=lay.height)

    def tapped(e):
        pos = e.local_position
        if pos is None or on_tap is None:
            return
        on_tap(lay.hex_at(pos.x, pos.y), lay, pos.x, pos.y)

    detector = ft.GestureDetector(content=ft.Container(canvas, bgcolor=ft.Colors.with_opacity(0.01, "#FFFFFF")), on_tap_up=tapped, mouse_cursor=ft.MouseCursor.CLICK)
    return ft.Semantics(identifier=identifier, label="Hex map: tap a space", content=ft.Container(
        detector, width=lay.width, height=lay.height, alignment=ft.Alignment.TOP_LEFT))


def label_of(m: HexMap, c: Coord) -> str:
    sp = m.space(c)
    return (sp.label if sp and sp.label else "") or default_label(c)
