"""The Human Ethos board as data: hex spaces, walls on edges, areas and special spaces.

Coordinates are axial (q, r) on a flat-top layout: columns are q, and a space's board name is
a column letter and a row number ("C4"), converted through "odd-q" offset coordinates so the
names read like a printed board. Walls sit on the edge between two adjacent spaces.

Pure: no I/O beyond parsing a given text. The pydantic models round-trip through JSON; the
`Board` class is a fast, read-only view of one map (tuples, adjacency lists) for pathfinding and
range; `sight_line` is the exact straight line between two hex centres that range is counted on.
What it says to players (a refused map, what keeps a map from play) is a `Msg`, said in each
phone's language; a space's board name ("C4") is the same in every language.
"""

from __future__ import annotations

import math
from collections import deque
from dataclasses import dataclass
from functools import lru_cache
from typing import Iterable, Literal, NamedTuple, Optional

from pydantic import ConfigDict, Field, ValidationError, model_validator

from companion.games.base import InputError, Model, Words, said_error
from companion.i18n import N_, Msg, NMsg, joined

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
    def of(cls, c: Coord) -> Hex:
        return cls(q=c[0], r=c[1])

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.q}, {self.r})"


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
        raise InputError(Msg("A space is named by a column letter A–Z and a row number, like C4 (got {label}).",
                             label=repr(label)))
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
# The special spaces' names (shown with `_()`).
SPECIAL_NAMES: dict[str, str] = {
    "start": N_("Start"),
    "end": N_("End (objective)"),
    "cache": N_("Supply cache"),
    "hazard": N_("Hazard"),
    "common": N_("Common encounter"),
    "elite": N_("Elite encounter"),
}


class Space(Model):
    q: int = Field(ge=-COORD_LIMIT, le=COORD_LIMIT)
    r: int = Field(ge=-COORD_LIMIT, le=COORD_LIMIT)
    area: str = Field("", max_length=24)  # the area's name; empty: in no area
    special: Optional[Special] = None
    label: str = Field("", max_length=8)  # the board name; empty: derived from the coordinates

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
    def _on_an_edge(self) -> Wall:
        if hex_distance(self.a.c, self.b.c) != 1:
            raise ValueError(Msg("a wall must lie on the edge between two adjacent hexes; {a} and {b} are {n} apart",
                                 a=str(self.a.c), b=str(self.b.c), n=hex_distance(self.a.c, self.b.c)))
        return self

    @property
    def key(self) -> tuple[Coord, Coord]:
        return edge_key(self.a.c, self.b.c)


def edge_key(a: Coord, b: Coord) -> tuple[Coord, Coord]:
    return (a, b) if a <= b else (b, a)


def make_wall(a: Coord, b: Coord) -> Wall:
    x, y = edge_key(a, b)
    return Wall(a=Hex.of(x), b=Hex.of(y))


# The name the shipped sample map comes with, said in each phone's language (see `map_name`).
SAMPLE_NAME = Msg("Sample map (not from the box)")


class HexMap(Model):
    """A map as the table entered it. Structural faults (overlapping hexes, walls that are not on an
    edge between two spaces) are refused on construction; play-readiness is `check_map`."""

    name: str = Field(min_length=1, max_length=60)
    sample: bool = False  # True for the shipped sample map: not a map from the box
    note: str = Field("", max_length=300)
    spaces: list[Space] = Field(max_length=MAX_SPACES)
    walls: list[Wall] = Field(default_factory=list, max_length=MAX_WALLS)

    @model_validator(mode="after")
    def _structure(self) -> HexMap:
        seen: set[Coord] = set()
        for s in self.spaces:
            if s.c in seen:
                raise ValueError(Msg("two spaces overlap at {space} (q={q}, r={r})", space=default_label(s.c),
                                     q=str(s.q), r=str(s.r)))
            seen.add(s.c)
        labels: set[str] = set()
        for s in self.spaces:
            name = s.label or default_label(s.c)
            if name in labels:
                raise ValueError(Msg("two spaces are named {name}", name=name))
            labels.add(name)
        edges: set[tuple[Coord, Coord]] = set()
        for w in self.walls:
            if w.a.c not in seen or w.b.c not in seen:
                raise ValueError(Msg("the wall {a}–{b} must lie between two spaces of the map", a=str(w.a.c),
                                     b=str(w.b.c)))
            if w.key in edges:
                raise ValueError(Msg("the wall {a}–{b} is entered twice", a=str(w.a.c), b=str(w.b.c)))
            edges.add(w.key)
        return self

    def space(self, h: Hex | Coord) -> Optional[Space]:
        c = h.c if isinstance(h, Hex) else h
        for s in self.spaces:
            if s.c == c:
                return s
        return None


def map_name(m: HexMap) -> Words:
    """A map's name as players read it: the table's own as they typed it; the shipped sample map's
    (while it keeps the name it came with) in each phone's language."""
    return SAMPLE_NAME if m.sample and m.name == SAMPLE_NAME.msgid else m.name


# --- A fast read-only view for pathfinding ----------------------------------------------------


@dataclass
class Board:
    """Adjacency and lookups of one HexMap, in tuples. Build once per computation."""

    spaces: dict[Coord, Space]
    walls: frozenset[tuple[Coord, Coord]]
    adj: dict[Coord, list[Coord]]

    @classmethod
    def of(cls, m: HexMap) -> Board:
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

    def range_between(self, a: Coord, b: Coord, ignore_walls: bool = False,
                      sight: LineOfSight = "generous") -> Optional[int]:
        """Range from a to b: the hex distance, or None when the straight line between their
        centres is blocked (RULES.md §5 "Range", see `sight_line`).

        The same space is range 0 and an adjacent space range 1. Every hex the line enters must be
        a space of the map, and it may cross no wall. Where it passes a corner or runs along an
        edge it has a side to pass on each hand: `generous` blocks it there only if both sides
        are blocked, `strict` if either is (and if a wall lies along it). With `ignore_walls`
        (cards that ignore obstructions) the range is the plain hex distance.
        """
        n = hex_distance(a, b)
        if ignore_walls or n == 0:
            return n
        line = sight_line(a, b)
        if any(h not in self.spaces for h in line.entered):
            return None
        for p in line.passages:
            on_left, on_right = self._side_blocked(p, p.left), self._side_blocked(p, p.right)
            if sight == "strict":
                if on_left or on_right or (p.along is not None and self.wall_between(*p.along)):
                    return None
            elif on_left and on_right:
                return None
        return n

    def _side_blocked(self, p: Passage, side: tuple[Coord, ...]) -> bool:
        """Going from p.frm to p.to round this side: through the hexes it touches there (none: straight
        across their common edge), each a space, with no wall between one and the next."""
        path = [p.frm, *side, p.to]
        return any(h not in self.spaces for h in side) or any(self.wall_between(x, y) for x, y in zip(path, path[1:]))

    def in_range(self, a: Coord, b: Coord, reach: int, ignore_walls: bool = False,
                 sight: LineOfSight = "generous") -> bool:
        if hex_distance(a, b) > reach:  # cheap test first: most pairs are simply too far
            return False
        r = self.range_between(a, b, ignore_walls, sight)
        return r is not None and r <= reach


# --- Line of sight: the exact segment between two hex centres -------------------------------------
#
# In cube coordinates (q, r, s = -q - r) the hexes are the cells of a triangular lattice: the hex
# centred on c holds the points p with |g| <= 1 for the three differences g of p - c (q - r, r - s,
# s - q). So every cell boundary lies on a line where one difference is a whole number, and
# between two such crossings a segment stays in one hex, on one edge, or at one corner. The walk
# below finds those crossings exactly (whole numbers, scaled by a common denominator) and reads
# the hexes at each crossing and between two of them: no sampled points, no floating point.

LineOfSight = Literal["generous", "strict"]


@dataclass(frozen=True)
class Passage:
    """How a sight line goes from one hex it enters to the next. Across their common edge (not at an
    end of it) it touches nothing else: `left` and `right` are empty, both ways are that edge.
    Through a corner, or along an edge between two other hexes, it touches hexes it doesn't enter:
    those on one hand and on the other are the two ways round (one may be empty: straight across
    the edge that ends at that corner). `along` is the edge it runs on, if it does."""

    frm: Coord
    to: Coord
    left: tuple[Coord, ...] = ()
    right: tuple[Coord, ...] = ()
    along: Optional[tuple[Coord, Coord]] = None


@dataclass(frozen=True)
class SightLine:
    entered: tuple[Coord, ...]  # the hexes whose inside the segment passes through, from a to b
    passages: tuple[Passage, ...]  # one between each two hexes entered one after the other


def sight_line(a: Coord, b: Coord) -> SightLine:
    """The hexes the straight segment from a's centre to b's centre enters, and how it passes from
    each to the next (the walk depends only on b - a, so it is worked out once per offset).

    >>> sight_line((0, 0), (2, 0)).entered
    ((0, 0), (1, 0), (2, 0))
    >>> p = sight_line((0, 0), (1, 1)).passages[0]  # along the edge between (1, 0) and (0, 1)
    >>> (p.frm, p.to, p.left, p.right, p.along)
    ((0, 0), (1, 1), ((0, 1),), ((1, 0),), ((0, 1), (1, 0)))
    """
    walk = _sight_from_origin(b[0] - a[0], b[1] - a[1])
    q0, r0 = a

    def at(c: Coord) -> Coord:
        return (c[0] + q0, c[1] + r0)

    def side(hexes: tuple[Coord, ...]) -> tuple[Coord, ...]:
        return tuple(at(h) for h in hexes)

    return SightLine(
        side(walk.entered),
        tuple(Passage(at(p.frm), at(p.to), side(p.left), side(p.right),
                      edge_key(at(p.along[0]), at(p.along[1])) if p.along else None) for p in walk.passages),
    )


Cube = tuple[int, int, int]
_CUBE_STEPS: tuple[Cube, ...] = tuple((dq, dr, -dq - dr) for dq, dr in _STEPS)


def _differences(v: Cube) -> tuple[int, int, int]:
    return v[0] - v[1], v[1] - v[2], v[2] - v[0]


# The neighbour across the edge where a difference reaches +1 or -1: (difference index, sign) → step.
_ACROSS: dict[tuple[int, int], Coord] = {
    (i, sign): (step[0], step[1])
    for step in _CUBE_STEPS for i, g in enumerate(_differences(step)) for sign in (1, -1) if g == 2 * sign
}


def _touched(point: Cube, scale: int) -> tuple[Coord, ...]:
    """The hexes whose closed cell holds `point / scale`: one (inside it), two (on their common edge)
    or three (at their common corner), sorted."""
    guess = tuple((2 * x + scale) // (2 * scale) for x in point[:2])  # q, r rounded: the hex or a neighbour
    for dq, dr in ((0, 0), *_STEPS):
        q, r = guess[0] + dq, guess[1] + dr
        gaps = _differences((point[0] - scale * q, point[1] - scale * r, point[2] + scale * (q + r)))
        if all(abs(g) <= scale for g in gaps):
            out = [(q, r)]
            for i, g in enumerate(gaps):
                if abs(g) == scale:
                    step = _ACROSS[(i, 1 if g > 0 else -1)]
                    out.append((q + step[0], r + step[1]))
            return tuple(sorted(out))
    raise AssertionError((point, scale))  # no hex holds point / scale: can't happen


@lru_cache(maxsize=4096)
def _sight_from_origin(dq: int, dr: int) -> SightLine:
    """`sight_line((0, 0), (dq, dr))`. Walks the points where a difference of the moving point is a
    whole number (the only places a cell boundary can be) and the stretches between them."""
    d = (dq, dr, -dq - dr)
    if d == (0, 0, 0):
        return SightLine(((0, 0),), ())
    rates = [abs(g) for g in _differences(d) if g]
    scale = 2 * math.lcm(*rates)  # even, so the middle of two crossings is a whole step too
    crossings = sorted({scale * k // n for n in rates for k in range(n + 1)})
    stops = [crossings[0]]
    for x, y in zip(crossings, crossings[1:]):
        stops += [(x + y) // 2, y]
    entered: list[Coord] = []
    passages: list[Passage] = []
    touched: set[Coord] = set()
    along: Optional[tuple[Coord, Coord]] = None
    for i, u in enumerate(stops):
        here = _touched((u * d[0], u * d[1], u * d[2]), scale)
        if len(here) == 1:
            if entered and here[0] != entered[-1]:
                frm, to = entered[-1], here[0]
                others = sorted(touched - {frm, to}, key=lambda c: _ahead(d, c))
                left = tuple(c for c in others if _leftward(d, c) > 0)
                right = tuple(c for c in others if _leftward(d, c) < 0)
                passages.append(Passage(frm, to, left, right, along))
            if not entered or here[0] != entered[-1]:
                entered.append(here[0])
            touched, along = set(), None
        else:
            touched.update(here)
            if len(here) == 2 and i % 2 == 1:  # a whole stretch on this edge, not a point of it
                along = (here[0], here[1])
    return SightLine(tuple(entered), tuple(passages))


def _leftward(d: Cube, c: Coord) -> int:
    """> 0 when the centre of c lies to the left of the line from the origin along d (< 0: right)."""
    w = (c[0], c[1], -c[0] - c[1])
    cross = (d[1] * w[2] - d[2] * w[1], d[2] * w[0] - d[0] * w[2], d[0] * w[1] - d[1] * w[0])
    return sum(cross)


def _ahead(d: Cube, c: Coord) -> int:
    return d[0] * c[0] + d[1] * c[1] + d[2] * (-c[0] - c[1])


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
    errors: list[Words]  # the map cannot be played until these are fixed
    unreachable: list[Coord]  # spaces no route reaches from Start: flagged, not refused
    warnings: list[Words]

    @property
    def ok(self) -> bool:
        return not self.errors


def check_map(m: HexMap) -> MapCheck:
    """Is the map playable? Exactly one Start and one End, End reachable from Start; any space no
    route reaches from Start is flagged (a table may keep decorative spaces)."""
    board = Board.of(m)
    errors: list[Words] = []
    warnings: list[Words] = []
    starts, ends = board.with_special("start"), board.with_special("end")
    for special, found in (("start", starts), ("end", ends)):
        if len(found) != 1:
            where = ", ".join(board.label(c) for c in found) or Msg("none")
            errors.append(Msg("A map needs exactly one Start space (found {n}: {where}).", n=len(found), where=where)
                          if special == "start" else
                          Msg("A map needs exactly one End space (found {n}: {where}).", n=len(found), where=where))
    unreachable: list[Coord] = []
    if len(starts) == 1:
        reach = board.distances(starts[0])
        unreachable = sorted(c for c in board.spaces if c not in reach)
        if len(ends) == 1 and ends[0] not in reach:
            errors.append(Msg("No wall-free route leads from Start {start} to End {end}.", start=board.label(starts[0]),
                              end=board.label(ends[0])))
        if unreachable:
            shown = ", ".join(board.label(c) for c in unreachable[:12]) + ("…" if len(unreachable) > 12 else "")
            warnings.append(NMsg("{n} space(s) cannot be reached from Start: {spaces}.",
                                 "{n} space(s) cannot be reached from Start: {spaces}.", len(unreachable), spaces=shown))
    return MapCheck(errors, unreachable, warnings)


def require_playable(m: HexMap) -> Board:
    check = check_map(m)
    if not check.ok:
        raise InputError(joined(check.errors, " "))
    return Board.of(m)


def parse_map_json(text: str) -> HexMap:
    """Import a map from JSON text (a file or a QR code); refuses oversized or malformed input."""
    if len(text) > MAX_MAP_JSON:
        raise InputError(Msg("A map file may be at most {max} characters (this one has {n}).", max=MAX_MAP_JSON,
                             n=len(text)))
    try:
        return HexMap.model_validate_json(text)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first.get("loc", ()))
        problem = said_error(first)
        raise InputError(Msg("Not a valid map: {where}: {problem}.", where=where, problem=problem) if where
                         else Msg("Not a valid map: {problem}.", problem=problem)) from None


# --- Editing (pure: each returns a new map) --------------------------------------------------------


def toggle_space(m: HexMap, h: Hex) -> HexMap:
    """Add a plain space at h, or remove the space there (and the walls on its edges)."""
    if m.space(h) is not None:
        spaces = [s for s in m.spaces if s.c != h.c]
        walls = [w for w in m.walls if h.c not in (w.a.c, w.b.c)]
        return m.model_copy(update={"spaces": spaces, "walls": walls})
    if len(m.spaces) >= MAX_SPACES:
        raise InputError(Msg("A map has at most {max} spaces.", max=MAX_SPACES))
    return m.model_copy(update={"spaces": [*m.spaces, Space(q=h.q, r=h.r)]})


def toggle_wall(m: HexMap, a: Hex, b: Hex) -> HexMap:
    """Add or remove the wall on the edge between two adjacent spaces."""
    if hex_distance(a.c, b.c) != 1:
        raise InputError(Msg("A wall goes on the edge between two adjacent spaces; {a} and {b} are not adjacent.",
                             a=default_label(a.c), b=default_label(b.c)))
    if m.space(a) is None or m.space(b) is None:
        raise InputError(Msg("A wall goes between two spaces of the map."))
    key = edge_key(a.c, b.c)
    if any(w.key == key for w in m.walls):
        return m.model_copy(update={"walls": [w for w in m.walls if w.key != key]})
    return m.model_copy(update={"walls": [*m.walls, make_wall(a.c, b.c)]})


def set_space(m: HexMap, h: Hex, *, area: Optional[str] = None, special: Optional[str] = "keep") -> HexMap:
    """Paint an area (""=none) and/or set the special ("keep" leaves it; None clears it)."""
    old = m.space(h)
    if old is None:
        raise InputError(Msg("There is no space at {space}; add it first.", space=default_label(h.c)))
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
