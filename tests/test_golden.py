"""Every golden playthrough still plays out exactly as written (tests/golden/__init__.py)."""

import pytest

from companion.games import PLAYABLE
from tests.golden.golden import HERE, files, read_inputs, replayed

ALL = [p for key in PLAYABLE for p in files(key)]


@pytest.mark.parametrize("path", ALL, ids=[f"{p.parent.name}/{p.stem}" for p in ALL])
def test_golden_playthrough(path):
    expected = path.read_text(encoding="utf-8")
    assert replayed(path) == expected, (
        f"{path.relative_to(HERE.parent.parent)} plays differently now; if the rules changed on purpose, run "
        "`.venv/bin/python -m tests.golden.regenerate` and check the diff")


@pytest.mark.parametrize("key", PLAYABLE)
def test_each_game_has_two_complete_golden_games(key):
    complete = [p for p in files(key) if "== outcome: still playing" not in p.read_text(encoding="utf-8")]
    assert len(complete) >= 2, f"{key}: at least two complete golden games"
    for p in complete:
        assert read_inputs(p.read_text(encoding="utf-8"))[1] == key
