"""A game is one folder (#31): the shared Luck, Recap, standings and BG Stats read each game through
its own `reports.py`, and no shared module names a game or imports one. Shown with the counter, the
smallest game there is: its readers are what the shared screens use."""

from __future__ import annotations

import ast
from pathlib import Path

from companion import bgstats
from companion.games import PLAYABLE, TEST_ONLY, get_game, reports_of
from companion.games.counter.rules import Add, Roll
from companion.luck import report, trace
from companion.recap import recap
from companion.sessions import split
from companion.standings import Seat, Standings, standings
from tests.helpers import memory_store

ROOT = Path(__file__).resolve().parent.parent
# Shared code: the frame, the store, the views' kit, the models. Each game lives under companion/games/<key>/.
SHARED = [p for p in sorted((ROOT / "companion").rglob("*.py")) if "games" not in p.relative_to(ROOT / "companion").parts[:1]] \
    + sorted((ROOT / "models").rglob("*.py")) + [ROOT / "companion" / "games" / "base.py"]
# What #31 has not moved yet, each with why (a shrinking list: an entry that no longer applies fails below).
NOT_YET = {
    ("companion/dice.py", "companion.games.biosphere5.rules"): "the dice tray's Biosphere 5 hand die",
}


def played_counter(store) -> int:
    """A counter campaign with rolls (seeded) and a few adds, up to its cap."""
    cid = store.create("counter", "Sixes", {"cap": 40}, seed=7)
    for n in range(30):
        loaded = store.load(cid)
        if get_game("counter").outcome(loaded.game_state):
            break
        store.apply(cid, Roll() if n % 3 else Add(amount=1), expected_cursor=loaded.cursor)
    return cid


def test_luck_reads_the_game_s_own_numbers_from_its_folder():
    store = memory_store()
    cid = played_counter(store)
    campaign = store.get(cid)
    rows = [r for r in store.log_rows(cid) if 0 < r.seq <= campaign.cursor]
    steps = list(trace(get_game("counter"), store.state_at(cid, 0), rows))
    faces = [e.data["face"] for st in steps for e in st.events if e.data.get("face") is not None]
    table = report("counter", campaign.settings, steps).parts[0]
    sixes = [line for line in table.meanings if line.label == "Rolls that came up 6"]
    assert len(sixes) == 1 and len(faces) >= 5
    assert sixes[0].sentence.startswith(f"{faces.count(6)} against {len(faces) / 6:.1f} expected, over {len(faces)} rolls")


def test_recap_and_standings_read_the_game_s_own_folder(monkeypatch):
    store = memory_store()
    cid = played_counter(store)
    campaign, loaded, lines = store.get(cid), store.load(cid), store.lines(cid)
    table = standings("counter", loaded.game_state)
    assert table.finished and table.result == "Reached the cap"
    seated = Standings([Seat("Ada", score=loaded.game_state.value)], True, "Ada counted")
    monkeypatch.setattr(reports_of("counter"), "standings", lambda game, state: seated)
    assert standings("counter", loaded.game_state) is seated
    told = recap(game_key="counter", title="Counter", name=campaign.name, lines=lines,
                 sessions=split(lines, created=campaign.created_at), standings=table, settings=campaign.settings)
    biggest = max(e["data"]["face"] for line in lines for e in line.events if e["data"].get("face") is not None)
    assert f"The biggest roll: {biggest}." in told.text


def test_a_story_of_plays_is_the_game_s_own_word():
    """BG Stats logs the last issue of a Human Ethos story because its reports say where a play starts."""
    assert reports_of("human_ethos").PLAY_STARTS == "issue_started"
    assert getattr(reports_of("counter"), "PLAY_STARTS", None) is None
    assert bgstats.play_lines("counter", [1, 2, 3]) == [1, 2, 3]


def test_every_game_has_its_readers():
    for key in PLAYABLE + TEST_ONLY:
        module = reports_of(key)
        assert module is not None, key
        assert callable(module.luck) and callable(module.moments) and callable(module.standings), key


def _imports(path: Path) -> set[str]:
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
        elif isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
    return found


def _strings(path: Path) -> set[str]:
    return {n.value for n in ast.walk(ast.parse(path.read_text())) if isinstance(n, ast.Constant) and isinstance(n.value, str)}


def test_no_shared_module_names_or_imports_a_game():
    keys = set(PLAYABLE + TEST_ONLY)
    found = set()
    for path in SHARED:
        rel = str(path.relative_to(ROOT))
        for module in _imports(path):
            parts = module.split(".")
            if parts[:2] == ["companion", "games"] and len(parts) > 2 and parts[2] in keys:
                found.add((rel, module))
        for text in _strings(path) & keys:
            found.add((rel, repr(text)))
    found -= {("companion/games/__init__.py", repr(k)) for k in keys}  # the registry: the one line a game adds
    assert found == set(NOT_YET), "a shared module names a game: give the game a hook in its own folder"


def test_a_view_s_hooks_take_what_the_frame_gives():
    """The campaign frame calls a view's `next_key(frame)` after this phone's action: a view whose
    function of that name took a game state broke every Shadowrun tap once both were merged."""
    import importlib
    import inspect

    for key in PLAYABLE + TEST_ONLY:
        view = importlib.import_module(f"companion.games.{key}.view")
        hook = getattr(view, "next_key", None)
        if hook is not None:
            assert list(inspect.signature(hook).parameters) == ["frame"], key
