"""Human Ethos hex map: coordinates, walls, distances, straight-line range (line of sight, generous and
strict, checked against plain geometry), validation, JSON."""

import random
from fractions import Fraction
from pathlib import Path

import pytest
from pydantic import ValidationError

from companion.games.base import InputError
from companion.games.human_ethos.hexmap import (
    DIRECTIONS,
    Board,
    Hex,
    HexMap,
    Passage,
    Space,
    axial_of,
    check_map,
    default_label,
    distances,
    from_label,
    hex_distance,
    hex_neighbours,
    make_wall,
    neighbours,
    offset_of,
    parse_map_json,
    range_between,
    rectangle,
    require_playable,
    set_space,
    sight_line,
    toggle_space,
    toggle_wall,
)

SAMPLE = Path(__file__).resolve().parents[2] / "assets" / "human_ethos_sample_map.json"


def open_map(size=7, walls=(), drop=(), specials=None) -> HexMap:
    """Axial parallelogram q, r in 0..size-1 (neighbours are ±(1,0), ±(0,1), ±(1,-1))."""
    specials = specials or {(0, 0): "start", (size - 1, size - 1): "end"}
    spaces = [
        Space(q=q, r=r, special=specials.get((q, r)))
        for q in range(size)
        for r in range(size)
        if (q, r) not in drop
    ]
    return HexMap(name="test", spaces=spaces, walls=[make_wall(a, b) for a, b in walls])


# --- coordinates ---------------------------------------------------------------------------------


def test_direction_table_is_the_six_unit_steps():
    assert len(DIRECTIONS) == 6
    assert {(d.dq, d.dr) for d in DIRECTIONS} == {(0, -1), (1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0)}
    assert all(hex_distance((0, 0), (d.dq, d.dr)) == 1 for d in DIRECTIONS)
    assert [d.name for d in DIRECTIONS] == ["N", "NE", "SE", "S", "SW", "NW"]


@pytest.mark.parametrize(
    "a,b,d",
    [((0, 0), (0, 0), 0), ((0, 0), (1, 0), 1), ((0, 0), (3, 0), 3), ((0, 0), (2, 2), 4), ((0, 0), (2, -1), 2), ((1, 3), (4, -2), 5)],
)
def test_hex_distance(a, b, d):
    assert hex_distance(a, b) == d == hex_distance(b, a)


def test_labels_round_trip_like_a_printed_board():
    assert default_label((0, 0)) == "A1"
    assert default_label(axial_of(2, 3)) == "C4"
    for col in range(8):
        for row in range(8):
            c = axial_of(col, row)
            assert offset_of(c) == (col, row)
            assert from_label(default_label(c)) == c
    with pytest.raises(InputError, match="column letter"):
        from_label("4C")


# --- neighbours, walls and distances ------------------------------------------------------------


def test_neighbours_respect_walls_and_the_map_edge():
    m = open_map()
    assert len(neighbours(m, Hex(q=3, r=3))) == 6
    assert len(neighbours(m, Hex(q=0, r=0))) == 2  # a corner of the parallelogram
    walled = open_map(walls=[((3, 3), (4, 3))])
    assert Hex(q=4, r=3) not in neighbours(walled, Hex(q=3, r=3))
    assert Hex(q=3, r=3) not in neighbours(walled, Hex(q=4, r=3))
    assert len(neighbours(walled, Hex(q=3, r=3))) == 5


def test_a_wall_makes_the_route_go_around():
    m = open_map(walls=[((3, 3), (4, 3))])
    assert distances(open_map(), Hex(q=3, r=3))[Hex(q=4, r=3)] == 1
    assert distances(m, Hex(q=3, r=3))[Hex(q=4, r=3)] == 2  # around via a shared neighbour


def test_a_wall_line_cuts_the_map_and_a_door_lets_through():
    # Wall every edge between column q=2 and q=3, except one door at r=6.
    cut = [((2, r), (3, r)) for r in range(7)] + [((2, r), (3, r - 1)) for r in range(1, 7)]
    closed = open_map(walls=cut)
    assert Hex(q=3, r=0) not in distances(closed, Hex(q=2, r=0))
    door = open_map(walls=[w for w in cut if w != ((2, 6), (3, 6))])
    assert distances(door, Hex(q=2, r=0))[Hex(q=3, r=0)] == 6 + 1 + 6  # down to r=6, through, back up
    route = Board.of(door).shortest_route((2, 0), (3, 0))
    assert len(route) == 13 and route[-1] == (3, 0) and (3, 6) in route


# --- range ---------------------------------------------------------------------------------------


def test_range_same_space_is_0_and_adjacent_is_1():
    m = open_map()
    assert range_between(m, Hex(q=3, r=3), Hex(q=3, r=3)) == 0
    assert range_between(m, Hex(q=3, r=3), Hex(q=3, r=4)) == 1


def test_range_is_refused_through_a_wall_even_next_door():
    m = open_map(walls=[((3, 3), (3, 4))])
    assert range_between(m, Hex(q=3, r=3), Hex(q=3, r=4)) is None
    assert range_between(m, Hex(q=3, r=3), Hex(q=3, r=4), ignore_walls=True) == 1


def test_range_in_a_straight_line_and_blocked_by_a_wall_on_the_line():
    m = open_map(walls=[((1, 3), (2, 3))])
    assert range_between(open_map(), Hex(q=0, r=3), Hex(q=3, r=3)) == 3
    assert range_between(m, Hex(q=0, r=3), Hex(q=3, r=3)) is None
    assert range_between(m, Hex(q=3, r=3), Hex(q=0, r=3)) is None
    assert range_between(m, Hex(q=0, r=3), Hex(q=3, r=3), ignore_walls=True) == 3
    # Walking around the wall is a move, not a range: the move distance is 4, the range is refused.
    assert distances(m, Hex(q=0, r=3))[Hex(q=3, r=3)] == 4


def test_range_not_across_a_hole_in_the_map():
    m = open_map(drop=[(2, 3)])
    assert range_between(m, Hex(q=1, r=3), Hex(q=3, r=3)) is None


def test_range_along_an_edge_passes_on_either_side():
    # (0,0) → (1,1) runs exactly along the edge between (1,0) and (0,1).
    assert range_between(open_map(), Hex(q=0, r=0), Hex(q=1, r=1)) == 2
    one_side = open_map(walls=[((0, 0), (1, 0))])
    assert range_between(one_side, Hex(q=0, r=0), Hex(q=1, r=1)) == 2
    both = open_map(walls=[((0, 0), (1, 0)), ((0, 1), (1, 1))])
    assert range_between(both, Hex(q=0, r=0), Hex(q=1, r=1)) is None
    assert range_between(both, Hex(q=1, r=1), Hex(q=0, r=0)) is None


def test_a_line_through_the_middle_of_a_wall_is_blocked():
    # The segment (0,0) → (3,1) enters six hexes; halfway it crosses the middle of the edge between
    # (1,1) and (2,0). Points sampled once per hex step (the old rule) skipped that edge, so a wall
    # there still gave range 4.
    assert sight_line((0, 0), (3, 1)).entered == ((0, 0), (1, 0), (1, 1), (2, 0), (2, 1), (3, 1))
    assert Board.of(open_map()).range_between((0, 0), (3, 1)) == 4
    walled = Board.of(open_map(walls=[((1, 1), (2, 0))]))
    for sight in ("generous", "strict"):
        assert walled.range_between((0, 0), (3, 1), sight=sight) is None
        assert walled.range_between((3, 1), (0, 0), sight=sight) is None
    assert walled.range_between((0, 0), (3, 1), ignore_walls=True) == 4


# (0,0) → (1,1) runs along the edge (1,0)|(0,1): a side is blocked by a hole or by a wall on the way round.
EDGE_CASES = [
    # walls, holes, generous, strict
    ([], [], 2, 2),
    ([((0, 0), (1, 0))], [], 2, None),  # one side walled: the other side is open
    ([((1, 0), (1, 1))], [], 2, None),
    ([((0, 0), (1, 0)), ((0, 1), (1, 1))], [], None, None),  # both sides walled
    ([], [(1, 0)], 2, None),  # one side is a hole
    ([], [(1, 0), (0, 1)], None, None),
    ([((0, 0), (0, 1))], [(1, 0)], None, None),  # a hole on one side, a wall on the other
    ([((1, 0), (0, 1))], [], 2, None),  # a wall lying along the line: not crossed, only touched
]


@pytest.mark.parametrize("walls,holes,generous,strict", EDGE_CASES)
def test_a_line_along_an_edge_generous_and_strict(walls, holes, generous, strict):
    board = Board.of(open_map(walls=walls, drop=holes))
    for a, b in (((0, 0), (1, 1)), ((1, 1), (0, 0))):
        assert board.range_between(a, b) == generous
        assert board.range_between(a, b, sight="strict") == strict


# (0,0) → (4,1) goes from (1,0) into (2,0) exactly through their corner with (1,1): straight across the
# end point of the edge (1,0)|(2,0) on one hand, through a point of (1,1) on the other.
CORNER_CASES = [
    ([], [], 5, 5),
    ([((1, 0), (2, 0))], [], 5, None),  # crossed only at its end point
    ([((1, 0), (1, 1))], [], 5, None),  # touched at its end point
    ([((1, 1), (2, 0))], [], 5, None),
    ([], [(1, 1)], 5, None),  # a hole touched at its corner
    ([((1, 0), (2, 0)), ((1, 0), (1, 1))], [], None, None),  # two walls meeting there make one wall
    ([((1, 0), (2, 0))], [(1, 1)], None, None),
]


@pytest.mark.parametrize("walls,holes,generous,strict", CORNER_CASES)
def test_a_line_through_a_corner_generous_and_strict(walls, holes, generous, strict):
    line = sight_line((0, 0), (4, 1))
    assert line.passages[1] == Passage((1, 0), (2, 0), left=((1, 1),))
    board = Board.of(open_map(walls=walls, drop=holes))
    for a, b in (((0, 0), (4, 1)), ((4, 1), (0, 0))):
        assert board.range_between(a, b) == generous
        assert board.range_between(a, b, sight="strict") == strict


def test_range_is_symmetric_on_the_sample_map():
    board = Board.of(parse_map_json(SAMPLE.read_text()))
    coords = sorted(board.spaces)
    for sight in ("generous", "strict"):
        for a in coords:
            for b in coords:
                assert board.range_between(a, b, sight=sight) == board.range_between(b, a, sight=sight)


# --- range, checked against plain geometry ------------------------------------------------------
#
# An independent look at the same segments: points in axial coordinates times 3 (an affine image of
# the board, so crossings and insides are the same), hexes as hexagons, walls as line segments.

_CORNERS = ((2, -1), (1, 1), (-1, 2), (-2, 1), (-1, -1), (1, -2))  # a hex's corners around its centre, ×3


def _hexagon(c):
    return [(3 * c[0] + x, 3 * c[1] + y) for x, y in _CORNERS]


def _cross(o, a, b):
    return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])


def _wall_segment(a, b):
    shared = sorted(set(_hexagon(a)) & set(_hexagon(b)))
    assert len(shared) == 2
    return shared


def _crosses(p, q, u, v):
    """The segments cross at one point inside both (not at an end point, not along each other)."""
    return _cross(p, q, u) * _cross(p, q, v) < 0 and _cross(u, v, p) * _cross(u, v, q) < 0


def _touches(p, q, u, v):
    """The closed segments have a point in common."""
    def on(a, b, c):
        return min(a[0], b[0]) <= c[0] <= max(a[0], b[0]) and min(a[1], b[1]) <= c[1] <= max(a[1], b[1])
    d1, d2, d3, d4 = _cross(p, q, u), _cross(p, q, v), _cross(u, v, p), _cross(u, v, q)
    if d1 * d2 < 0 and d3 * d4 < 0:
        return True
    return any(d == 0 and on(a, b, c) for d, (a, b, c) in ((d1, (p, q, u)), (d2, (p, q, v)), (d3, (u, v, p)), (d4, (u, v, q))))


def _meets_hexagon(p, q, c, *, inside: bool):
    """The segment meets the hexagon's inside (or, with inside=False, the closed hexagon)."""
    corners = _hexagon(c)
    lo, hi = Fraction(0), Fraction(1)
    for a, b in zip(corners, corners[1:] + corners[:1]):  # the inside is to the left of each side
        at_p = _cross(a, b, p)
        slope = _cross(a, b, q) - at_p  # f(t) = at_p + t · slope must be > 0 (or >= 0)
        if slope == 0:
            if at_p < 0 or (inside and at_p == 0):
                return False
        elif slope > 0:
            lo = max(lo, Fraction(-at_p, slope))
        else:
            hi = min(hi, Fraction(-at_p, slope))
    return lo < hi if inside else lo <= hi


def test_no_blocked_line_gets_a_range_checked_by_plain_geometry():
    rng = random.Random(11)
    coords = [(q, r) for q in range(7) for r in range(7)]
    holes = rng.sample(coords, 5)
    kept = [c for c in coords if c not in holes]
    edges = sorted({(a, b) for a in kept for b in hex_neighbours(a) if b in kept and a < b})
    walls = rng.sample(edges, 16)
    board = Board.of(open_map(walls=walls, drop=holes))
    wall_lines = [_wall_segment(a, b) for a, b in walls]
    generous_only = 0
    for a in kept:
        for b in kept:
            if a == b:
                continue
            p, q = (3 * a[0], 3 * a[1]), (3 * b[0], 3 * b[1])
            crossed = any(_crosses(p, q, u, v) for u, v in wall_lines) or any(
                _meets_hexagon(p, q, h, inside=True) for h in holes)
            touched = any(_touches(p, q, u, v) for u, v in wall_lines) or any(
                _meets_hexagon(p, q, h, inside=False) for h in holes)
            generous, strict = board.range_between(a, b), board.range_between(a, b, sight="strict")
            if crossed:  # through a wall or a hole: never a range
                assert generous is None and strict is None, (a, b)
            # strict: blocked exactly when the segment touches a wall or a hole at all
            assert (strict is None) == touched, (a, b)
            if not touched:
                assert generous == hex_distance(a, b)
            generous_only += generous is not None and strict is None
    assert generous_only > 0  # the map has lines along edges and through corners that only generous lets through


# --- validation ---------------------------------------------------------------------------------


def test_a_playable_map_has_one_start_and_one_end():
    assert check_map(open_map()).ok
    no_start = check_map(open_map(specials={(6, 6): "end"}))
    assert not no_start.ok and "exactly one Start" in no_start.errors[0]
    two_ends = check_map(open_map(specials={(0, 0): "start", (6, 6): "end", (5, 5): "end"}))
    assert any("exactly one End" in e for e in two_ends.errors)
    with pytest.raises(InputError, match="exactly one Start"):
        require_playable(open_map(specials={(6, 6): "end"}))


def test_unreachable_spaces_are_flagged_and_an_unreachable_end_refused():
    ring = [((6, 6), (5, 6)), ((6, 6), (6, 5))]  # (6,6) is a corner with two neighbours: wall both
    boxed = check_map(open_map(walls=ring, specials={(0, 0): "start", (3, 3): "end"}))
    assert boxed.ok and boxed.unreachable == [(6, 6)] and "cannot be reached" in boxed.warnings[0]
    end_boxed = check_map(open_map(walls=ring))
    assert not end_boxed.ok and "No wall-free route" in end_boxed.errors[0]


def test_overlapping_hexes_and_walls_off_an_edge_are_refused():
    with pytest.raises(ValidationError, match="overlap"):
        HexMap(name="x", spaces=[Space(q=0, r=0), Space(q=0, r=0)])
    with pytest.raises(ValidationError, match="adjacent"):
        HexMap(name="x", spaces=[Space(q=0, r=0), Space(q=2, r=0)], walls=[{"a": {"q": 0, "r": 0}, "b": {"q": 2, "r": 0}}])
    with pytest.raises(ValidationError, match="between two spaces"):
        HexMap(name="x", spaces=[Space(q=0, r=0)], walls=[make_wall((0, 0), (1, 0))])


def test_import_refuses_oversized_and_malformed_text():
    with pytest.raises(InputError, match="at most"):
        parse_map_json("x" * 400_000)
    with pytest.raises(InputError, match="Not a valid map"):
        parse_map_json('{"name": "x"}')
    with pytest.raises(InputError, match="Not a valid map"):
        parse_map_json("not json")


# --- JSON and the sample ----------------------------------------------------------------------------


def test_sample_map_is_marked_playable_and_round_trips():
    text = SAMPLE.read_text()
    m = parse_map_json(text)
    assert m.sample is True and "sample" in m.name.lower() and "SAMPLE" in m.note
    assert check_map(m).ok and not check_map(m).unreachable
    assert HexMap.model_validate_json(m.model_dump_json()) == m
    board = Board.of(m)
    assert [board.label(c) for c in board.with_special("start")] == ["A3"]
    assert [board.label(c) for c in board.with_special("end")] == ["G3"]


def test_map_json_round_trip_with_walls_and_areas():
    m = set_space(open_map(walls=[((1, 1), (1, 2))]), Hex(q=2, r=2), area="Lab", special="hazard")
    again = HexMap.model_validate_json(m.model_dump_json())
    assert again == m and again.space((2, 2)).area == "Lab"


# --- editing -------------------------------------------------------------------------------------


def test_editor_helpers_toggle_spaces_walls_and_paint():
    m = rectangle("new", 3, 3)
    assert len(m.spaces) == 9
    m2 = toggle_wall(m, Hex(q=0, r=0), Hex(q=1, r=0))
    assert len(m2.walls) == 1 and len(toggle_wall(m2, Hex(q=1, r=0), Hex(q=0, r=0)).walls) == 0
    removed = toggle_space(m2, Hex(q=0, r=0))
    assert removed.space((0, 0)) is None and removed.walls == []  # its walls go with it
    assert toggle_space(removed, Hex(q=0, r=0)).space((0, 0)) is not None
    with pytest.raises(InputError, match="adjacent"):
        toggle_wall(m, Hex(q=0, r=0), Hex(q=2, r=0))
    painted = set_space(m, Hex(q=1, r=1), area="B", special="cache")
    assert painted.space((1, 1)).special == "cache" and m.space((1, 1)).special is None
    with pytest.raises(InputError, match="no space"):
        set_space(m, Hex(q=9, r=9), area="B")
