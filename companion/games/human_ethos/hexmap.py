"""The Human Ethos board as data: hex spaces, walls on edges, areas and special spaces.

Coordinates are axial (q, r) on a flat-top layout: columns are q, and a space's board name is
a column letter and a row number ("C4"), converted through "odd-q" offset coordinates so the
names read like a printed board. Walls sit on the edge between two adjacent spaces.

Pure: no I/O beyond parsing a given text. The pydantic models round-trip through JSON; the
`Board` class is a fast, read-only view of one map (tuples, adjacency lists) for pathfinding.
"""

from __future__ import annotations

import math
from collections import deque
from dataclasses import dataclass
from typing import Iterable, Literal, NamedTuple, Optional

from pydantic import ConfigDict, Field, ValidationError, model_validator

from companion.games.base import InputError, Model

# --- Coordinates -----------------------------------------------------------------------------

COORD_LIMIT = 60  # |q|, |r| at most this: a real board is far smaller; refuses absurd imports
MAX_SPACES = 600
MAX_WALLS = 2000
MAX_MAP_JSON = 300_000  # characters of an imported map


class Direction(NamedTuple):
    name: str
    dq: int
    dr: int


# Flat-top axial directions, clockwise from north (screen y grows downward).
DIRECTIONS: tuple[Direction, ...] = (
    Direction("N", 0, -1),
    Direction("NE", 1, -1),
    Direction("SE", 1, 0),
    Direction("S", 0, 1),
    Direction("SW", -1, 1),
    Direction("NW", -1, 0),
)

Coord = tuple[int, int]  # internal fast form of a hex
_STEPS = tuple((d.dq, d.dr) for d in DIRECTIONS)


class Hex(Model):
    """One hex in axial coordinates. Frozen, so it can key sets and dicts."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    q: int = Field(ge=-COORD_LIMIT, le=COORD_LIMIT)
    r: int = Field(ge=-COORD_LIMIT, le=COORD_LIMIT)

    @property
    def c(self) -> Coord:
        return (self.q, self.r)

    @classmethod
    def of(cls, c: Coord) -> "Hex":
        return cls(q=c[0], r=c[1])

    def __repr__(self) -> str:
        return f"Hex({self.q}, {self.r})"


def hex_distance(a: Coord, b: Coord) -> int:
    """Steps between two hexes on an open board (no walls)."""
    dq, dr = a[0] - b[0], a[1] - b[1]
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


def hex_neighbours(c: Coord) -> list[Coord]:
    """The six hexes around c, in DIRECTIONS order (whether or not they are spaces)."""
    return [(c[0] + d.dq, c[1] + d.dr) for d in DIRECTIONS]


def offset_of(c: Coord) -> tuple[int, int]:
    """Axial → (column, row) in odd-q offset coordinates (odd columns sit half a hex lower)."""
    q, r = c
    return q, r + (q - (q & 1)) // 2


def axial_of(col: int, row: int) -> Coord:
    """(column, row) odd-q offset → axial."""
    return col, row - (col - (col & 1)) // 2


def default_label(c: Coord) -> str:
    """Board name of a hex: column letter + row number from 1 ("A1" is axial (0, 0))."""
    col, row = offset_of(c)
    if 0 <= col < 26 and row >= 0:
        return f"{chr(ord('A') + col)}{row + 1}"
    return f"({c[0]},{c[1]})"


def from_label(label: str) -> Coord:
    """"C4" → axial coordinates (the inverse of default_label)."""
    text = label.strip().upper()
    if len(text) < 2 or not text[0].isalpha() or not text[1:].isdigit():
        raise InputError(f"A space is named by a column letter A–Z and a row number, like C4 (got {label!r}).")
    return axial_of(ord(text[0]) - ord("A"), int(text[1:]) - 1)


def hex_to_pixel(c: Coord, size: float) -> tuple[float, float]:
    """Centre of a flat-top hex of circumradius `size` (for drawing; y grows downward)."""
    q, r = c
    return size * 1.5 * q, size * math.sqrt(3) * (r + q / 2)


def hex_corners(c: Coord, size: float) -> list[tuple[float, float]]:
    """The six corners of a flat-top hex, starting east, clockwise on screen."""
    x, y = hex_to_pixel(c, size)
    return [(x + size * math.cos(math.radians(60 * i)), y + size * math.sin(math.radians(60 * i))) for i in range(6)]


# --- The map model -----------------------------------------------------------------------------

Special = Literal["start", "end", "cache", "hazard", "common", "elite"]
SPECIAL_NAMES: dict[str, str] = {
    "start": "Start",
    "end": "End (objective)",
    "cache": "Supply cache",
    "hazard": "Hazard",
    "common": "Common encounter",
    "elite": "Elite encounter",
}


class Space(Model):
    q: int = Field(ge=-COORD_LIMIT, le=COORD_LIMIT)
    r: int = Field(ge=-COORD_LIMIT, le=COORD_LIMIT)
    area: str = Field("", max_length=24, description="Area name; empty = in no area")
    special: Optional[Special] = None
    label: str = Field("", max_length=8, description="Board name; empty = derived from coordinates")

    @property
    def c(self) -> Coord:
        return (self.q, self.r)

    @property
    def hex(self) -> Hex:
        return Hex(q=self.q, r=self.r)


class Wall(Model):
    """A wall on the edge between two adjacent hexes (stored with a < b, so each edge has one form)."""

    a: Hex
    b: Hex

    @model_validator(mode="after")
    def _on_an_edge(self) -> "Wall":
        if hex_distance(self.a.c, self.b.c) != 1:
            raise ValueError(
                f"a wall must lie on the edge between two adjacent hexes; {self.a.c} and {self.b.c} are "
                f"{hex_distance(self.a.c, self.b.c)} apart"
            )
        return self

    @property
    def key(self) -> tuple[Coord, Coord]:
        return edge_key(self.a.c, self.b.c)


def edge_key(a: Coord, b: Coord) -> tuple[Coord, Coord]:
    return (a, b) if a <= b else (b, a)


def make_wall(a: Coord, b: Coord) -> Wall:
    x, y = edge_key(a, b)
    return Wall(a=Hex.of(x), b=Hex.of(y))


class HexMap(Model):
    """A map as the table entered it. Structural faults (overlapping hexes, walls that are not on an
    edge between two spaces) are refused on construction; play-readiness is `check_map`."""

    name: str = Field(min_length=1, max_length=60)
    sample: bool = Field(False, description="True for the shipped sample map: not a map from the box")
    note: str = Field("", max_length=300)
    spaces: list[Space] = Field(max_length=MAX_SPACES)
    walls: list[Wall] = Field(default_factory=list, max_length=MAX_WALLS)

    @model_validator(mode="after")
    def _structure(self) -> "HexMap":
        seen: set[Coord] = set()
        for s in self.spaces:
            if s.c in seen:
                raise ValueError(f"two spaces overlap at {default_label(s.c)} (q={s.q}, r={s.r})")
            seen.add(s.c)
        labels: set[str] = set()
        for s in self.spaces:
            name = s.label or default_label(s.c)
            if name in labels:
                raise ValueError(f"two spaces are named {name}")
            labels.add(name)
        edges: set[tuple[Coord, Coord]] = set()
        for w in self.walls:
            if w.a.c not in seen or w.b.c not in seen:
                raise ValueError(f"the wall {w.a.c}–{w.b.c} must lie between two spaces of the map")
            if w.key in edges:
                raise ValueError(f"the wall {w.a.c}–{w.b.c} is entered twice")
            edges.add(w.key)
        return self

    def space(self, h: Hex | Coord) -> Optional[Space]:
        c = h.c if isinstance(h, Hex) else h
        for s in self.spaces:
            if s.c == c:
                return s
        return None


# --- A fast read-only view for pathfinding ----------------------------------------------------


@dataclass
class Board:
    """Adjacency and lookups of one HexMap, in tuples. Build once per computation."""

    spaces: dict[Coord, Space]
    walls: frozenset[tuple[Coord, Coord]]
    adj: dict[Coord, list[Coord]]

    @classmethod
    def of(cls, m: HexMap) -> "Board":
        spaces = {(s.q, s.r): s for s in m.spaces}
        walls = frozenset(edge_key((w.a.q, w.a.r), (w.b.q, w.b.r)) for w in m.walls)
        adj: dict[Coord, list[Coord]] = {}
        for c in spaces:
            q, r = c
            around = [(q + dq, r + dr) for dq, dr in _STEPS]
            adj[c] = [n for n in around if n in spaces and (not walls or edge_key(c, n) not in walls)]
        return cls(spaces, walls, adj)

    def label(self, c: Coord) -> str:
        s = self.spaces.get(c)
        return (s.label if s is not None and s.label else "") or default_label(c)

    def area(self, c: Coord) -> str:
        return self.spaces[c].area

    def special(self, c: Coord) -> Optional[str]:
        return self.spaces[c].special

    def with_special(self, special: str) -> list[Coord]:
        return sorted(c for c, s in self.spaces.items() if s.special == special)

    def area_spaces(self, area: str) -> list[Coord]:
        return sorted(c for c, s in self.spaces.items() if s.area == area)

    def wall_between(self, a: Coord, b: Coord) -> bool:
        return edge_key(a, b) in self.walls

    def distances(self, start: Coord, limit: Optional[int] = None) -> dict[Coord, int]:
        """Breadth-first distances from start along wall-free steps (up to `limit` steps)."""
        dist = {start: 0}
        todo = deque([start])
        while todo:
            c = todo.popleft()
            d = dist[c]
            if limit is not None and d >= limit:
                continue
            for n in self.adj[c]:
                if n not in dist:
                    dist[n] = d + 1
                    todo.append(n)
        return dist

    def shortest_route(self, a: Coord, b: Coord, cost=None) -> Optional[list[Coord]]:
        """One shortest wall-free route a → b (the spaces entered, b last), or None.

        Among equally short routes it takes the one with the least `cost(prev, next)` summed over
        its steps (default: none), then the first in direction order, so the answer is repeatable.
        """
        if a == b:
            return []
        from_b = self.distances(b)
        if a not in from_b:
            return None
        # Walk forward from a through spaces one step closer to b each time, keeping the cheapest.
        best: dict[Coord, tuple[int, list[Coord]]] = {a: (0, [])}
        frontier = [a]
        for _ in range(from_b[a]):
            nxt: dict[Coord, tuple[int, list[Coord]]] = {}
            for c in frontier:
                spent, path = best[c]
                for n in self.adj[c]:
                    if from_b.get(n) == from_b[c] - 1:
                        total = spent + (cost(c, n) if cost else 0)
                        if n not in nxt or total < nxt[n][0]:
                            nxt[n] = (total, path + [n])
            best.update(nxt)
            frontier = list(nxt)
        return best[b][1]

    def line(self, a: Coord, b: Coord, nudge: int) -> list[Coord]:
        """The hexes a straight line from the centre of a to the centre of b passes through.

        A line running exactly along an edge is nudged to one side (`nudge` = +1 or -1); both
        endpoints move by the same tiny vector, so the line from b to a is the same line reversed.
        """
        n = hex_distance(a, b)
        if n == 0:
            return [a]
        eq, er = 1e-6 * nudge, 2e-6 * nudge
        out = []
        for i in range(n + 1):
            t = i / n
            out.append(cube_round(a[0] + eq + (b[0] - a[0]) * t, a[1] + er + (b[1] - a[1]) * t))
        return out

    def range_between(self, a: Coord, b: Coord, ignore_walls: bool = False) -> Optional[int]:
        """Range from a to b: hex distance along a straight line, or None if no straight line.

        The same space is range 0 and an adjacent space range 1. The line must run over spaces of
        the map and cross no wall (a line along an edge may pass on either side). With
        `ignore_walls` (cards that ignore obstructions) the range is the plain hex distance.
        """
        n = hex_distance(a, b)
        if ignore_walls or n == 0:
            return n
        for nudge in (1, -1):
            hexes = self.line(a, b, nudge)
            if all(h in self.spaces for h in hexes) and all(
                not self.wall_between(x, y) for x, y in zip(hexes, hexes[1:])
            ):
                return n
        return None

    def in_range(self, a: Coord, b: Coord, reach: int, ignore_walls: bool = False) -> bool:
        if hex_distance(a, b) > reach:  # cheap test first: most pairs are simply too far
            return False
        r = self.range_between(a, b, ignore_walls)
        return r is not None and r <= reach


def cube_round(fq: float, fr: float) -> Coord:
    """The hex containing fractional axial coordinates (rounded in cube coordinates)."""
    fs = -fq - fr
    q, r, s = round(fq), round(fr), round(fs)
    dq, dr, ds = abs(q - fq), abs(r - fr), abs(s - fs)
    if dq > dr and dq > ds:
        q = -r - s
    elif dr > ds:
        r = -q - s
    return q, r


# Convenience wrappers on the model (Hex in, Hex out) for views and tests.


def neighbours(m: HexMap, h: Hex) -> list[Hex]:
    """Spaces one step from h, not across a wall."""
    return [Hex.of(c) for c in Board.of(m).adj.get(h.c, [])]


def distances(m: HexMap, h: Hex) -> dict[Hex, int]:
    """Steps from h to every space reachable without crossing walls."""
    return {Hex.of(c): d for c, d in Board.of(m).distances(h.c).items()}


def range_between(m: HexMap, a: Hex, b: Hex, ignore_walls: bool = False) -> Optional[int]:
    return Board.of(m).range_between(a.c, b.c, ignore_walls)


# --- Validation for play -------------------------------------------------------------------------


@dataclass
class MapCheck:
    errors: list[str]  # the map cannot be played until these are fixed
    unreachable: list[Coord]  # spaces no route reaches from Start: flagged, not refused
    warnings: list[str]

    @property
    def ok(self) -> bool:
        return not self.errors


def check_map(m: HexMap) -> MapCheck:
    """Is the map playable? Exactly one Start and one End, End reachable from Start; any space no
    route reaches from Start is flagged (a table may keep decorative spaces)."""
    board = Board.of(m)
    errors: list[str] = []
    warnings: list[str] = []
    starts, ends = board.with_special("start"), board.with_special("end")
    for name, found in (("Start", starts), ("End", ends)):
        if len(found) != 1:
            where = ", ".join(board.label(c) for c in found) or "none"
            errors.append(f"A map needs exactly one {name} space (found {len(found)}: {where}).")
    unreachable: list[Coord] = []
    if len(starts) == 1:
        reach = board.distances(starts[0])
        unreachable = sorted(c for c in board.spaces if c not in reach)
        if len(ends) == 1 and ends[0] not in reach:
            errors.append(f"No wall-free route leads from Start {board.label(starts[0])} to End {board.label(ends[0])}.")
        if unreachable:
            shown = ", ".join(board.label(c) for c in unreachable[:12]) + ("…" if len(unreachable) > 12 else "")
            warnings.append(f"{len(unreachable)} space(s) cannot be reached from Start: {shown}.")
    return MapCheck(errors, unreachable, warnings)


def require_playable(m: HexMap) -> Board:
    check = check_map(m)
    if not check.ok:
        raise InputError(" ".join(check.errors))
    return Board.of(m)


def parse_map_json(text: str) -> HexMap:
    """Import a map from JSON text (a file or a QR code); refuses oversized or malformed input."""
    if len(text) > MAX_MAP_JSON:
        raise InputError(f"A map file may be at most {MAX_MAP_JSON:,} characters (this one has {len(text):,}).")
    try:
        return HexMap.model_validate_json(text)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first.get("loc", ()))
        raise InputError(f"Not a valid map: {where + ': ' if where else ''}{first.get('msg', 'malformed')}.") from None


# --- Editing (pure: each returns a new map) --------------------------------------------------------


def toggle_space(m: HexMap, h: Hex) -> HexMap:
    """Add a plain space at h, or remove the space there (and the walls on its edges)."""
    if m.space(h) is not None:
        spaces = [s for s in m.spaces if s.c != h.c]
        walls = [w for w in m.walls if h.c not in (w.a.c, w.b.c)]
        return m.model_copy(update={"spaces": spaces, "walls": walls})
    if len(m.spaces) >= MAX_SPACES:
        raise InputError(f"A map has at most {MAX_SPACES} spaces.")
    return m.model_copy(update={"spaces": [*m.spaces, Space(q=h.q, r=h.r)]})


def toggle_wall(m: HexMap, a: Hex, b: Hex) -> HexMap:
    """Add or remove the wall on the edge between two adjacent spaces."""
    if hex_distance(a.c, b.c) != 1:
        raise InputError(f"A wall goes on the edge between two adjacent spaces; {default_label(a.c)} and {default_label(b.c)} are not adjacent.")
    if m.space(a) is None or m.space(b) is None:
        raise InputError("A wall goes between two spaces of the map.")
    key = edge_key(a.c, b.c)
    if any(w.key == key for w in m.walls):
        return m.model_copy(update={"walls": [w for w in m.walls if w.key != key]})
    return m.model_copy(update={"walls": [*m.walls, make_wall(a.c, b.c)]})


def set_space(m: HexMap, h: Hex, *, area: Optional[str] = None, special: Optional[str] = "keep") -> HexMap:
    """Paint an area (""=none) and/or set the special ("keep" leaves it; None clears it)."""
    old = m.space(h)
    if old is None:
        raise InputError(f"There is no space at {default_label(h.c)}; add it first.")
    data = old.model_dump()
    if area is not None:
        data["area"] = area
    if special != "keep":
        data["special"] = special
    new = Space.model_validate(data)
    return m.model_copy(update={"spaces": [new if s.c == h.c else s for s in m.spaces]})


def rectangle(name: str, cols: int, rows: int, **kw) -> HexMap:
    """A plain rectangle-looking board of cols × rows spaces (offset coordinates), for a new map."""
    spaces = [Space(q=q, r=r) for q, r in (axial_of(c, rw) for c in range(cols) for rw in range(rows))]
    return HexMap(name=name, spaces=spaces, **kw)


def spaces_on(m: HexMap, coords: Iterable[Coord]) -> list[Hex]:
    return [Hex.of(c) for c in coords if m.space(c) is not None]
