import pytest

from companion.dice import RecordedDice, ReplayMismatch, SeededDice, hand_die, parse_notation
from companion.games.base import InputError


def test_same_seed_and_action_number_give_the_same_dice():
    first = SeededDice(42, 7)
    second = SeededDice(42, 7)
    assert [first.roll(6) for _ in range(20)] == [second.roll(6) for _ in range(20)]


def test_different_action_numbers_and_seeds_differ():
    def rolls(seed, n):
        dice = SeededDice(seed, n)
        return [dice.roll(6) for _ in range(30)]

    assert rolls(1, 1) != rolls(1, 2)
    assert rolls(1, 1) != rolls(2, 1)


def test_rolls_are_in_range_and_cover_every_face():
    dice = SeededDice(3, 1)
    seen = {dice.roll(6) for _ in range(300)}
    assert seen == {1, 2, 3, 4, 5, 6}


def test_physical_entries_are_used_first_and_recorded_as_physical():
    dice = SeededDice(5, 1, entered=[4])
    assert dice.roll(6) == 4
    second = dice.roll(6)
    assert [d.physical for d in dice.rolled] == [True, False]
    # A typed result doesn't shift the seeded dice that follow it.
    plain = SeededDice(5, 1)
    plain.roll(6)
    assert plain.roll(6) == second


def test_a_physical_face_outside_the_die_is_refused_with_the_range():
    dice = SeededDice(5, 1, entered=[7])
    with pytest.raises(InputError, match="1 to 6"):
        dice.roll(6)


def test_recorded_dice_replay_exactly_and_refuse_a_different_request():
    dice = SeededDice(9, 3)
    values = [dice.roll(6), dice.roll(12)]
    replay = RecordedDice(list(dice.rolled))
    assert [replay.roll(6), replay.roll(12)] == values
    assert replay.all_used()
    with pytest.raises(ReplayMismatch):
        replay.roll(6)
    with pytest.raises(ReplayMismatch):
        RecordedDice(list(dice.rolled)).roll(8)


@pytest.mark.parametrize("text,count,sides", [("d6", 1, 6), ("2d6", 2, 6), ("3D12", 3, 12), (" 1d20 ", 1, 20)])
def test_notation(text, count, sides):
    n, kind = parse_notation(text)
    assert (n, kind.sides) == (count, sides)


@pytest.mark.parametrize("text", ["", "6", "d", "2x6", "0d6", "101d6", "2d1", "2d101", "-1d6", "d6+1"])
def test_bad_notation_is_refused(text):
    with pytest.raises(InputError):
        parse_notation(text)


def test_hand_die_faces_follow_the_setting():
    die = hand_die(2)
    assert die.faces.count("black hand") == 2 and len(die.faces) == 6
    assert hand_die(0).faces.count("black hand") == 0
    with pytest.raises(InputError, match="0 to 6"):
        hand_die(7)


def test_a_chance_names_its_first_die_only_when_it_differs():
    """KLAW's six-dice roll has a golden wild die, entered first; every other chance's JSON (in saves
    and events made before) stays as it was."""
    from companion.games.base import Chance, d

    plain = Chance(count=2, die=d(6), why="a roll")
    assert "first" not in plain.model_dump(mode="json")
    wild = Chance(count=6, die=d(6), why="an attack", first="wild")
    assert wild.model_dump(mode="json")["first"] == "wild"
    assert Chance.model_validate(wild.model_dump(mode="json")) == wild


def test_the_dice_pad_frames_the_wild_die():
    import flet as ft

    from companion.games.base import Chance, d
    from companion.ui.widgets import DicePad, WILD_GOLD

    pad = DicePad(Chance(count=6, die=d(6), why="an attack", first="wild"), lambda faces: None)
    pad.control(lambda fn: fn)
    pad.faces = [6, 2]
    pad._show()
    first, second = pad.shown.content.controls
    assert isinstance(first, ft.Column) and first.controls[1].value == "wild"
    assert first.controls[0].border.top.color == WILD_GOLD and not isinstance(second, ft.Column)


def test_a_status_line_says_each_thing_once():
    from companion.ui.widgets import said_once

    assert said_once("Turn 8 · Lost", "Lost") == "Turn 8 · Lost"  # not "Turn 8 · Lost · Lost"
    assert said_once("Ana wins", "Ana wins (last host standing)") == "Ana wins (last host standing)"
    assert said_once("In progress", "Round 3") == "In progress · Round 3"
    assert said_once("Won", "") == "Won"


def test_the_dice_pad_takes_a_throw_by_count():
    """Issue #30: "2 Bugs, 1 Idea, the rest Progress" is entered as counts, in any order; the log gets
    the same list of values it always got (one per die), and a wrong count is refused, changing nothing."""
    import pytest

    from companion.games.base import Chance, InputError
    from companion.games.save_the_singularity.rules import D6 as STS_DIE
    from companion.ui.widgets import DicePad

    used = []
    pad = DicePad(Chance(count=6, die=STS_DIE, why="the first throw"), used.append)
    pad.control(lambda fn: fn)
    assert pad.by_count and len(pad.counted) == 3
    bug, idea, progress = (value for _, value in STS_DIE.choices())
    pad._add(idea)
    pad._add(bug)
    pad._add(bug)
    pad._rest(progress)
    assert sorted(pad.faces) == sorted([bug, bug, idea, progress, progress, progress])
    assert [pad.counted[v][0].value for v in (bug, idea, progress)] == ["2", "1", "3"]
    assert not pad.use.disabled
    with pytest.raises(InputError, match="All 6 dice are entered"):
        pad._add(bug)  # a seventh die: refused, the six stay
    with pytest.raises(InputError, match="All 6 dice are entered"):
        pad._rest(idea)
    assert len(pad.faces) == 6
    pad._less(progress)
    assert pad.counted[progress][0].value == "2" and pad.use.disabled
    with pytest.raises(InputError, match="5 of 6 dice entered"):
        pad._use()  # one die short: nothing reaches the log
    assert used == []
    pad._less(bug)
    pad._less(bug)
    pad._less(bug)  # none left to take: nothing happens
    assert pad.counted[bug][0].value == "0" and pad.counted[bug][1].content.disabled
    pad._rest(bug)
    pad._use()
    assert used == [[idea, progress, progress, bug, bug, bug]]
    assert Chance(count=6, die=STS_DIE, why="x").check_faces(used[0]) == used[0]  # what replay reads


def test_the_dice_pad_keeps_tapping_where_dice_differ_or_are_numbers():
    from companion.games.base import Chance, d
    from companion.games.save_the_singularity.rules import D6 as STS_DIE
    from companion.ui.widgets import DicePad

    assert not DicePad(Chance(count=6, die=d(6), why="an attack", first="wild"), print).by_count  # golden die first
    assert not DicePad(Chance(count=3, die=d(6), why="a hit"), print).by_count  # numbers: a button each, any order
    assert not DicePad(Chance(count=1, die=STS_DIE, why="one die"), print).by_count  # one die: one tap
