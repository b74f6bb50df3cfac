"""The Human Ethos panel builds in every phase without a browser, and reads the game, not sentences:
the arrows of the last moves come from the events' data, the tie buttons and the enemy-phase button
from the legal moves, the steppers' ranges from the moves' FieldSpecs."""

from __future__ import annotations

from types import SimpleNamespace

import flet as ft

from companion.games.human_ethos import rules as R
from companion.games.human_ethos import view
from companion.games.human_ethos.hexmap import Hex, from_label
from tests.games.human_ethos_fixtures import HOST, NANO
from tests.helpers import memory_store
from tests.views import all_controls


class FakeFrame:
    """The frame a panel is built in, over a real store (history rows hold the events as saved)."""

    def __init__(self, store, cid: int, ui: view.Ui):
        self._human_ethos_ui = ui  # the screen's inputs, kept across redraws as the real frame keeps them
        self.campaign_id = cid
        self.loaded = store.load(cid)
        self.app = SimpleNamespace(guard=lambda fn, **kw: fn, go=lambda route: None, store=store, toast=lambda text: None,
                                   confirm=lambda *a: None, sizes=lambda n: n, page=SimpleNamespace(width=412))
        self.dispatched: list = []
        self.dispatch = lambda action, pulse=False: self.dispatched.append(action)
        self.refresh = lambda: None
        self.history = lambda limit=100: store.history(cid, limit=limit)


def words(control) -> str:
    out = []

    def walk(c):
        if isinstance(c, str):
            out.append(c)
        elif isinstance(c, (list, tuple)):
            for x in c:
                walk(x)
        elif isinstance(c, ft.BaseControl):
            for attr in ("value", "label", "content", "controls", "title", "text", "tooltip"):
                v = getattr(c, attr, None)
                if v is not None:
                    walk(v)
    walk(control)
    return "\n".join(out)


def buttons(control) -> list:
    return [c for c in all_controls(control, ("content", "controls")) if isinstance(c, ft.FilledButton)]


def C(label: str):
    return from_label(label)


def test_the_panel_reads_moves_and_event_data_through_an_issue():
    store = memory_store()
    cid = store.create("human_ethos", "view", {})
    ui = view.Ui()
    seq = 0

    def play(action):
        nonlocal seq
        store.apply(cid, action, expected_cursor=seq)
        seq += 1
        frame = FakeFrame(store, cid, ui)
        return frame, view.panel(frame)

    for et in (NANO, HOST):
        play(R.SetEnemyType(enemy=et))
    frame, panel = play(R.StartIssue(map=view.parse_map_json(view.SAMPLE_PATH.read_text()), track=20,
                                     members=["Max", "Ana"]))
    assert "Start issue" not in words(panel) and "Turn 1 · Max's turn" in words(panel)
    ui.selected = "Max"  # picked on the map: the panel redraws with the move card's stepper
    assert "Card's move value" in words(view.panel(FakeFrame(store, cid, ui)))
    # The tap dispatches while Max is still picked: the redraw after it, with the tokens to place,
    # has no movement card to show.
    frame, panel = play(R.Move(member="Max", to=Hex.of(C("C3")), move=3))
    assert "Card's move value" not in words(panel)
    ui.selected = None
    state = frame.loaded.game_state
    marks = view.base_marks(frame, state, view._ui(frame))
    assert marks.moved == [(C("A3"), C("B3")), (C("B3"), C("C3"))]  # from the move's path, not its sentence
    assert "Max moves A3 → B3 → C3 (2 of 3)." in words(panel)
    frame, _ = play(R.Spawn(token=0, face="Nanobots", groups=[R.Placement(enemy="Nanobots", at=Hex.of(C("D4")), count=1)]))
    frame, panel = play(R.Spawn(token=1, face="Hosts"))
    phase_button = next(b for b in buttons(panel) if b.content == "Cards played: run the enemy phase")
    assert not phase_button.disabled
    frame, panel = play(R.EnemyPhase())
    ties = [b for b in buttons(panel) if isinstance(b.content, str) and b.content[:2] in ("1:", "2:")]
    assert [b.content for b in ties] == [m.label for m in R.moves(frame.loaded.game_state) if m.kind == "choose"]
    ties[1].on_click(None)
    assert frame.dispatched == [R.Choose(option=1)]
    frame, panel = play(R.Choose(option=1))
    marks = view.base_marks(frame, frame.loaded.game_state, view._ui(frame))
    assert marks.moved == [(C("D4"), C("D3"))]  # the enemy's move, from the event's parts
    assert "Players' choice 2: 1 to D3." in words(panel)


def test_steppers_take_their_ranges_from_the_moves():
    state = R.new_state(R.Settings())
    moves = view.legal(state)
    assert (view.spec_of(moves, "start_issue", "track").low, view.spec_of(moves, "start_issue", "track").high) == (2, 60)
    assert view._placement_count.low == 1 and view._placement_count.high == 30


def _frame_over(state, ui, store, width=412):
    return SimpleNamespace(
        _human_ethos_ui=ui, campaign_id=1, loaded=SimpleNamespace(game_state=state), dispatched=[],
        app=SimpleNamespace(guard=lambda fn, **kw: fn, go=lambda route: None, store=store, toast=lambda text: None,
                            confirm=lambda *a: None, sizes=lambda n: n, page=SimpleNamespace(width=width)),
        dispatch=lambda action, pulse=False: None, refresh=lambda: None, history=lambda limit=100: [])


def test_after_a_win_the_setup_offers_the_next_issue_with_the_same_team():
    from tests.games.test_human_ethos_rules import H, Attack, Move, _end_game, act

    store = memory_store()
    s = _end_game(groups=[("Nanobots", (2, 0), 1)])
    ui = view.Ui()
    assert "Start issue #1" not in words(view.panel(_frame_over(s, ui, store)))  # playing
    s, _ = act(s, Move(member="Max", to=H(3, 0), move=1))
    s, _ = act(s, Attack(member="Max", at=H(2, 0), enemy="Nanobots", damage=1, range=1))
    ui.number, ui.number_for = 1, 1  # what the setup showed before this issue
    panel = view.panel(_frame_over(s, ui, store))
    assert "Start issue #2" in words(panel) and ui.number == 2
    assert ui.team == "Max, Ana"


def test_stats_entered_in_a_campaign_can_be_saved_to_the_tables_cards():
    from companion import catalog

    store = memory_store()
    state = R.new_state(R.Settings())
    state = state.model_copy(update={"enemy_types": [NANO, HOST]})
    frame = _frame_over(state, view.Ui(), store)
    section = view.enemy_cards_section(frame, state)
    save = next(b for b in _all(section) if isinstance(b, ft.OutlinedButton) and "Save to the table's cards" in str(b.content))
    assert save.content == "Save to the table's cards (2)"
    save.on_click(None)
    assert sorted(e.name for e in catalog.entries(store, view.ENEMY_KIND)) == sorted([NANO.name, HOST.name])
    assert not any("Save to the table's cards" in str(getattr(b, "content", "")) for b in _all(view.enemy_cards_section(frame, state)))


def test_a_desktop_sets_the_map_beside_the_track_and_the_next_step():
    store = memory_store()
    cid = store.create("human_ethos", "wide", {})
    store.apply(cid, R.StartIssue(map=view.parse_map_json(view.SAMPLE_PATH.read_text()), track=20, members=["Max"]),
                expected_cursor=0)
    frame = FakeFrame(store, cid, view.Ui())
    assert not any(isinstance(c, ft.ResponsiveRow) for c in _all(view.panel(frame)))  # a phone: one column
    frame.app.page.width = 1280
    row = next(c for c in _all(view.panel(frame)) if isinstance(c, ft.ResponsiveRow))
    left, right = row.controls
    assert "THREAT" in words(left) and "Next" in words(left) and "Board" in words(right)
    assert view._map_width(frame) > view._map_width(FakeFrame(store, cid, view.Ui()))


def _all(control) -> list:
    return all_controls(control, ("content", "controls"))


def test_the_map_is_drawn_again_only_when_something_on_it_changed():
    store = memory_store()
    cid = store.create("human_ethos", "memo", {})
    seq = store.apply(cid, R.StartIssue(map=view.parse_map_json(view.SAMPLE_PATH.read_text()), track=20,
                                        members=["Max", "Ana"]), expected_cursor=0).cursor
    ui = view.Ui()

    def canvas():
        frame = FakeFrame(store, cid, ui)
        view.panel(frame)
        return ui.map_memo[1]

    first = canvas()
    assert canvas() is first  # a redraw with the same map and marks keeps the control the phone has
    seq = store.apply(cid, R.Adjust(track="threat", delta=1, reason="test"), expected_cursor=seq).cursor
    assert canvas() is first  # threat +1 leaves the map alone
    store.apply(cid, R.Move(member="Max", to=Hex.of(C("B3")), move=1), expected_cursor=seq)
    assert canvas() is not first  # Max moved: drawn again
