"""The Human Ethos panel builds in every phase without a browser, and reads the game, not sentences:
the arrows of the last moves come from the events' data, the tie buttons and the enemy-phase button
from the legal moves, the steppers' ranges from the moves' FieldSpecs."""

from __future__ import annotations

from types import SimpleNamespace

import flet as ft
import pytest

from companion.games.base import InputError
from companion.games.human_ethos import rules as R
from companion.games.human_ethos import view
from companion.games.human_ethos.hexmap import Hex, from_label
from tests.games.human_ethos_fixtures import HOST, NANO
from tests.helpers import memory_store
from tests.views import all_controls


class FakeFrame:
    """The frame a panel is built in, over a real store (history rows hold the events as saved)."""

    def __init__(self, store, cid: int, ui: view.Ui):
        self.ui = ui  # the screen's inputs, kept across redraws as the real frame keeps them (screen_state)
        self.campaign_id = cid
        self.loaded = store.load(cid)
        self.app = SimpleNamespace(guard=lambda fn, **kw: fn, go=lambda route: None, store=store, toast=lambda text: None,
                                   confirm=lambda *a: None, sizes=lambda n: n, page=SimpleNamespace(width=412))
        self.dispatched: list = []
        self.dispatch = lambda action, pulse=False: self.dispatched.append(action)
        self.refresh = lambda: None
        self.history = lambda limit=100: store.history(cid, limit=limit)

    def screen_state(self, kind):
        assert kind is view.Ui
        return self.ui


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
    phase_button = next(b for b in buttons(panel) if button_words(b) == "Cards played: run the enemy phase")
    assert not phase_button.disabled
    frame, panel = play(R.EnemyPhase())
    ties = [b for b in buttons(panel) if button_words(b)[:2] in ("1:", "2:")]
    assert [button_words(b) for b in ties] == [m.label for m in R.moves(frame.loaded.game_state) if m.kind == "choose"]
    ties[1].on_click(None)
    assert frame.dispatched == [R.Choose(option=1)]
    frame, panel = play(R.Choose(option=1))
    marks = view.base_marks(frame, frame.loaded.game_state, view._ui(frame))
    assert marks.moved == [(C("D4"), C("D3"))]  # the enemy's move, from the event's parts
    assert "Players' choice 2: 1 to D3." in words(panel)


def test_an_elite_token_with_a_common_encounter_asks_for_the_common_token_next():
    """Issue #30: after "Rhinos + common encounter" is placed, the panel asks for the common token the
    table draws (with the common faces to pick from), not for the turn's next step."""
    from companion.games.human_ethos.hexmap import HexMap

    store = memory_store()
    cid = store.create("human_ethos", "elite", {})
    corridor = HexMap(name="Corridor", spaces=[{"q": 0, "r": 0, "special": "start", "area": "West"},
                                               {"q": 1, "r": 0, "special": "elite", "area": "East"},
                                               {"q": 2, "r": 0, "special": "end", "area": "East"}])
    for seq, action in enumerate([
            R.StartIssue(map=corridor, track=20, members=["Max"]),
            R.Move(member="Max", to=Hex(q=1, r=0), move=1),
            R.Spawn(token=0, face="Rhinos + common encounter", groups=[R.Placement(enemy="Rhinos", at=Hex(q=2, r=0), count=1)])]):
        store.apply(cid, action, expected_cursor=seq)
    panel = view.panel(FakeFrame(store, cid, view.Ui()))
    said = words(panel)
    assert "The elite token at B1 brings a common encounter: draw a common encounter token" in said
    faces = [button_words(b) for b in all_controls(panel) if isinstance(b, (ft.Button, ft.OutlinedButton))]
    assert "Drakens" in faces and "Rhinos + common encounter" not in faces  # the common token's faces
    assert "Cards played: run the enemy phase" not in said


def test_steppers_take_their_ranges_from_the_moves():
    state = R.new_state(R.Settings())
    moves = view.legal(state)
    assert (view.spec_of(moves, "start_issue", "track").low, view.spec_of(moves, "start_issue", "track").high) == (2, 60)
    assert view._placement_count.low == 1 and view._placement_count.high == 30


def _frame_over(state, ui, store, width=412):
    return SimpleNamespace(
        screen_state=lambda kind: ui, ui=ui, campaign_id=1, loaded=SimpleNamespace(game_state=state), dispatched=[],
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
    save = next(b for b in _all(section) if isinstance(b, ft.OutlinedButton) and "Save to the table's cards" in button_words(b))
    assert button_words(save) == "Save to the table's cards (2)"
    save.on_click(None)
    assert sorted(e.name for e in catalog.entries(store, view.ENEMY_KIND)) == sorted([NANO.name, HOST.name])
    assert not any("Save to the table's cards" in button_words(b) for b in _all(view.enemy_cards_section(frame, state))
                   if isinstance(b, ft.OutlinedButton))


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
    assert "Threat →" in words(left) and "Next" in words(left) and "Board" in words(right)
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


# --- the map on a phone: zoom, legible tags, enemies tapped to attack them -----------------------


def _mid_issue(store) -> int:
    """Max on C3 beside a Nanobot (D3) and a Host (on C3 itself); two Drakens and a Nanobot on D4,
    out of Max's reach; Ana on Start (A3). Max's turn."""
    cid = store.create("human_ethos", "map", {})
    seq = 0

    def play(action):
        nonlocal seq
        seq = store.apply(cid, action, expected_cursor=seq).cursor

    for et in (NANO, HOST):
        play(R.SetEnemyType(enemy=et))
    play(R.StartIssue(map=view.parse_map_json(view.SAMPLE_PATH.read_text()), track=20, members=["Max", "Ana"]))
    play(R.Move(member="Max", to=Hex.of(C("C3")), move=2))
    play(R.Spawn(token=0, face="Drakens", groups=[R.Placement(enemy="Drakens", at=Hex.of(C("D4")), count=2),
                                                  R.Placement(enemy="Nanobots", at=Hex.of(C("D4")), count=1),
                                                  R.Placement(enemy="Nanobots", at=Hex.of(C("D3")), count=1)]))
    play(R.Spawn(token=1, face="Hosts", groups=[R.Placement(enemy="Hosts", at=Hex.of(C("C3")), count=1)]))
    return cid


def button_words(b) -> str:
    """A button's words: a plain string, or the Text in the Container that lets them wrap."""
    content = b.content.content if isinstance(b.content, ft.Container) else b.content
    return content.value if isinstance(content, ft.Text) else str(content)


def _hit(panel, text: str):
    return next(b for b in _all(panel) if isinstance(b, ft.Button) and (button_words(b) or "").startswith(text))


def _labelled(panel, label: str):
    """An icon button by its accessible name (the Semantics label around it)."""
    sem = next(c for c in _all(panel) if isinstance(c, ft.Semantics) and c.label == label)
    return sem.content


def test_an_enemy_tapped_on_the_map_is_attacked_as_the_attack_list_attacks_it():
    store = memory_store()
    cid = _mid_issue(store)
    ui = view.Ui()
    frame = FakeFrame(store, cid, ui)
    panel = view.panel(frame)
    assert "tap an enemy on the map to attack it" in words(panel)  # the next step says so
    assert "Tap an enemy's red tag to attack it (Drak = Drakens, Host = Hosts, Nano = Nanobots)" in words(panel)
    listed = _hit(panel, "Hit 1 Nanobot on D3")  # the attack section's button for the same group
    listed.on_click(None)
    assert frame.dispatched == [R.Attack(member="Max", at=Hex.of(C("D3")), enemy="Nanobots", damage=1, range=1)]

    frame = FakeFrame(store, cid, ui)
    view._tapped(frame, C("D3"))
    assert (ui.target, ui.attacker) == (C("D3"), "Max")  # whose turn it is, and they reach it
    panel = view.panel(frame)
    assert "Attack on D3 with Max" in words(panel) and "Aiming at D3" in words(panel)
    assert "Attack with Max" not in words(panel)  # the list below the map steps aside meanwhile
    marks = view.base_marks(frame, frame.loaded.game_state, ui)
    assert marks.aimed == C("D3") and marks.attackable == {C("D3"), C("C3")}  # C3: Max's own space, range 0
    _hit(panel, "Hit 1 Nanobot on D3 (health 1)").on_click(None)
    assert frame.dispatched == [R.Attack(member="Max", at=Hex.of(C("D3")), enemy="Nanobots", damage=1, range=1)]
    assert ui.target is None  # the redraw after the attack no longer aims


def test_a_tapped_enemy_out_of_reach_lets_the_players_pick_who_attacks():
    store = memory_store()
    cid = _mid_issue(store)
    ui = view.Ui()
    frame = FakeFrame(store, cid, ui)
    view._tapped(frame, C("D4"))  # nobody reaches D4 with range 1: whose turn it is, and the card says so
    assert (ui.target, ui.attacker) == (C("D4"), "Max")
    panel = view.panel(frame)
    assert "D4 is not within range 1 of Max in a straight line" in words(panel)
    assert {button_words(b) for b in _all(panel) if isinstance(b, ft.FilledButton) and button_words(b).startswith("Hit")} \
        == {"Hit 2 Drakens on D4 (health 1)", "Hit 1 Nanobot on D4 (health 1)"}  # one per type on the space
    ana = next(b for b in _all(panel) if isinstance(b, ft.OutlinedButton) and button_words(b) == "Ana")
    ana.on_click(None)
    assert ui.attacker == "Ana"
    _hit(view.panel(frame), "Hit 2 Drakens on D4").on_click(None)
    assert frame.dispatched == [R.Attack(member="Ana", at=Hex.of(C("D4")), enemy="Drakens", damage=1, range=1)]

    ui.selected = "Ana"  # a member picked first attacks what is tapped next
    view._tapped(frame, C("D3"))
    assert (ui.target, ui.attacker) == (C("D3"), "Ana")
    view._tapped(frame, C("B3"))  # an empty space: no longer aiming; Ana (still picked) moves there
    assert ui.target is None and frame.dispatched[-1] == R.Move(member="Ana", to=Hex.of(C("B3")), move=2)


def test_a_tap_on_an_enemy_when_no_attack_is_allowed_says_why():
    from tests.games.test_human_ethos_rules import H, Attack, Move, _end_game, act

    store = memory_store()
    s = _end_game(groups=[("Nanobots", (2, 0), 1), ("Hosts", (0, 0), 1)])
    s, _ = act(s, Move(member="Max", to=H(3, 0), move=1))
    s, _ = act(s, Attack(member="Max", at=H(2, 0), enemy="Nanobots", damage=1, range=1))
    assert s.issue.over
    with pytest.raises(InputError, match="No issue is being played"):  # the rules' own reason
        view._tapped(_frame_over(s, view.Ui(), store), (0, 0))
    view._tapped(_frame_over(s, view.Ui(), store), (1, 0))  # no enemy there: nothing to say

    # The enemy phase waits for the players' tie: the enemy's own space picks no option, and
    # attacking waits too; the tap says both.
    cid = store.create("human_ethos", "tie", {})
    seq = 0
    for action in (R.StartIssue(map=view.parse_map_json(view.SAMPLE_PATH.read_text()), track=20, members=["Max"]),
                   R.Move(member="Max", to=Hex.of(C("C3")), move=2),
                   R.Spawn(token=0, face="Nanobots", groups=[R.Placement(enemy="Nanobots", at=Hex.of(C("D4")), count=1)]),
                   R.Spawn(token=1, face="Hosts"), R.EnemyPhase()):
        seq = store.apply(cid, action, expected_cursor=seq).cursor
    frame = FakeFrame(store, cid, view.Ui())
    assert frame.loaded.game_state.issue.pending is not None
    with pytest.raises(InputError, match="The enemy phase is waiting for the players to pick one of the options. "
                                         "No option sends enemies there"):
        view._tapped(frame, C("D4"))
    assert frame.dispatched == [] and frame.ui.target is None


def _viewed(panel) -> str:
    """The key of the map's window (the phone keeps its viewer, and pan, while the key stays) and a
    check that the window is named for screen readers and tests."""
    window = next(c for c in _all(panel) if isinstance(c, ft.Stack) and any(
        isinstance(v, ft.InteractiveViewer) for v in c.controls))
    name = window.controls[0]
    assert isinstance(name, ft.Semantics) and name.identifier == "hexmap" and name.label.startswith("Hex map")
    return window.key


def test_zoom_buttons_draw_the_map_bigger_and_the_zoom_outlives_other_phones_actions():
    from companion.games.human_ethos.mapdraw import centred, layout

    store = memory_store()
    cid = _mid_issue(store)
    ui = view.Ui()
    frame = FakeFrame(store, cid, ui)
    frame.app.page.width = 360

    def viewer(panel):
        return next(c for c in _all(panel) if isinstance(c, ft.InteractiveViewer))

    panel = view.panel(frame)
    fit = viewer(panel).width
    assert viewer(panel).content.width == fit and _labelled(panel, "Zoom out the map").disabled
    assert not viewer(panel).scale_enabled  # a desktop's wheel keeps scrolling the page
    _labelled(panel, "Zoom in the map").on_click(None)
    assert (ui.zoom, ui.view_epoch, ui.centre_pending) == (1.5, 1, True)
    panel = view.panel(frame)
    v = viewer(panel)
    assert v.width == fit and v.content.width == pytest.approx(1.5 * fit)  # drawn bigger, panned in the same window
    assert _viewed(panel) == "map-view-1"

    # Once the phone has laid the new map out, it is panned to bring Max (whose turn it is) to the middle.
    asked = []

    async def pan(dx, dy=0):
        asked.append((dx, dy))
    object.__setattr__(v, "pan", pan)
    import asyncio
    asyncio.run(v.on_size_change(None))
    coords = [s.c for s in frame.loaded.game_state.issue.map.spaces]
    lay = layout(coords, view._map_width(frame)).scaled(1.5)
    assert asked == [centred(lay, C("C3"), v.width, v.height)] and asked[0][0] < 0
    asyncio.run(v.on_size_change(None))
    assert len(asked) == 1  # once

    # A tap on the zoomed canvas lands where it is drawn: the canvas gets its own coordinates.
    detector = next(c for c in _all(v.content) if isinstance(c, ft.GestureDetector))
    x, y = lay.centre(C("D3"))
    detector.on_tap_up(SimpleNamespace(local_position=ft.Offset(x, y)))
    assert ui.target == C("D3")

    # Another phone's action redraws this one: same zoom, same viewer (so the phone keeps its pan).
    store.apply(cid, R.Adjust(track="threat", delta=1, reason="elsewhere"), expected_cursor=store.load(cid).cursor)
    frame = FakeFrame(store, cid, ui)
    frame.app.page.width = 360
    panel = view.panel(frame)
    assert "150 %" in words(panel) and viewer(panel).content.width == pytest.approx(1.5 * fit)
    assert _viewed(panel) == "map-view-1"

    _labelled(panel, "Fit the map to the screen").on_click(None)
    assert (ui.zoom, ui.view_epoch, ui.centre_pending) == (1.0, 2, False)
    frame.app.page.platform = ft.PagePlatform.ANDROID
    assert viewer(view.panel(frame)).scale_enabled  # a phone pinches too


def test_enemy_tags_stay_readable_and_apart_and_team_tokens_leave_them_visible():
    import flet.canvas as cv

    from companion.games.human_ethos.mapdraw import ENEMY_COLOUR, MEMBER_COLOURS, ZOOMS, Marks, layout, shapes, short_names

    box = ["Nanobots", "Hosts", "Drakens", "Alpha", "Alphas", "Rhinos"]
    short = short_names(box)
    assert len(set(short.values())) == len(box) and short["Drakens"] == "Drak" and short["Alphas"] == "Alphas"
    assert len(set(short_names(["Elite Guards", "Elite Drones"]).values())) == 2

    sample = view.parse_map_json(view.SAMPLE_PATH.read_text())
    coords = [s.c for s in sample.spaces]
    marks = Marks(members=[("Max", C("C3")), ("Ana", C("A3"))],
                  enemies=[("Hosts", 1, C("C3")), ("Drakens", 2, C("D4")), ("Nanobots", 1, C("D4"))])
    for zoom in ZOOMS:
        lay = layout(coords, 360 - 56).scaled(zoom)  # a 360 px phone's map, zoomed
        for c in coords:
            assert lay.hex_at(*lay.centre(c)) == c  # a tap maps back at every zoom
        drawn = shapes(sample, lay, marks)
        cx, cy = lay.centre(C("C3"))
        near = lambda x, y: abs(x - cx) < lay.size and abs(y - cy) < lay.size  # noqa: E731
        tag = next(i for i, s in enumerate(drawn) if isinstance(s, cv.Rect) and s.paint.color == ENEMY_COLOUR
                   and s.paint.style == ft.PaintingStyle.FILL and near(s.x, s.y))
        text = next(i for i, s in enumerate(drawn) if isinstance(s, cv.Text) and s.value == "1 Host")
        token = next(i for i, s in enumerate(drawn) if isinstance(s, cv.Circle) and s.paint.color == MEMBER_COLOURS[0])
        t, m = drawn[tag], drawn[token]
        # Max's token sits in the space's lower corner, clear of the Host's tag, and is drawn before it.
        assert m.y - m.radius >= t.y + t.height or m.x + m.radius <= t.x
        assert token < tag < text
        assert drawn[text].style.size >= 11 and drawn[text].style.size >= 0.36 * lay.size * 0.99
        label = next(s for s in drawn if isinstance(s, cv.Text) and s.value == "C3")
        assert label.style.size >= 10.5 and label.y + label.style.size / 2 <= t.y + 1  # the name above the tag
        assert [s.value for s in drawn if isinstance(s, cv.Text) and s.value in ("2 Drak", "1 Nano")] == ["2 Drak", "1 Nano"]


def test_two_enemy_types_on_a_space_leave_its_name_readable_at_every_zoom():
    import flet.canvas as cv

    from companion.games.human_ethos.mapdraw import ENEMY_COLOUR, ZOOMS, Marks, label_size, layout, shapes

    sample = view.parse_map_json(view.SAMPLE_PATH.read_text())
    coords = [s.c for s in sample.spaces]
    for members in ([], [("Max", C("D4"))]):
        for many in (2, 4):
            names = ["Drakens", "Nanobots", "Hosts", "Rhinos"][:many]
            marks = Marks(members=members, enemies=[(n, k + 1, C("D4")) for k, n in enumerate(names)])
            for zoom in ZOOMS:
                lay = layout(coords, 360 - 56).scaled(zoom)  # a 360 px phone's map, zoomed
                drawn = shapes(sample, lay, marks)
                cx, cy = lay.centre(C("D4"))
                tags = [s for s in drawn if isinstance(s, cv.Rect) and s.paint.color == ENEMY_COLOUR
                        and s.paint.style == ft.PaintingStyle.FILL]
                label = next(s for s in drawn if isinstance(s, cv.Text) and s.value == "D4")
                assert len(tags) >= 2  # one per type while they fit, the rest "+N more"
                assert label.y + label_size(lay.size) / 2 <= min(t.y for t in tags)  # under the name
                assert max(t.y + t.height for t in tags) <= cy + lay.size * 0.87 + 1  # within the space
                written = [s.value for s in drawn if isinstance(s, cv.Text) and abs(s.y - cy) < lay.size
                           and abs(s.x - cx) < 1 and s.value not in ("D4", "Ma")]
                assert written[0] == "1 Drak"
                if many == 4:
                    assert written[-1].endswith("more") and len(written) <= 3


class FakeView:
    """The phone's view of a campaign: what it was asked to scroll to."""

    def __init__(self):
        self.scrolled: list = []

    async def scroll_to(self, **kw):
        self.scrolled.append(kw)


def test_an_enemy_tapped_on_the_map_scrolls_its_attack_card_into_view_once():
    import asyncio

    store = memory_store()
    cid = _mid_issue(store)
    ui = view.Ui()
    frame = FakeFrame(store, cid, ui)
    phone = FakeView()
    frame.app.page.views = [SimpleNamespace(), phone]
    view._tapped(frame, C("D3"))
    card = next(c for c in _all(view.panel(frame)) if isinstance(c, ft.Container) and isinstance(c.key, ft.ScrollKey))
    assert card.key.value == "aim-card-D3"
    asyncio.run(card.on_size_change(None))  # the phone laid the card out
    assert phone.scrolled == [{"scroll_key": "aim-card-D3", "duration": 300}]
    asyncio.run(card.on_size_change(None))  # resized later (its words wrapped): no more scrolling
    view._tapped(frame, C("D4"))  # another enemy: a new card, scrolled to as well
    card = next(c for c in _all(view.panel(frame)) if isinstance(c, ft.Container) and isinstance(c.key, ft.ScrollKey))
    asyncio.run(card.on_size_change(None))
    assert [s["scroll_key"] for s in phone.scrolled] == ["aim-card-D3", "aim-card-D4"]


def _dialog_app(store):
    """An app for a dialog without a page: the real guard's way of showing a refusal in the dialog."""
    from tests.views import guard

    shown: list = []

    def show(dialog):
        dialog.open = True
        shown.append(dialog)

    page = SimpleNamespace(show_dialog=show, pop_dialog=lambda: None, update=lambda: None, width=360, platform=None)
    return SimpleNamespace(store=store, guard=guard, page=page, toast=lambda text, **kw: None, go=lambda route: None,
                           sizes=lambda n: n), shown


def _act(form, words_: str) -> None:
    from tests.views import words as button_text

    button = next(b for b in _all(form.dialog.actions) if isinstance(b, ft.Button) and button_text(b) == words_)
    assert button.height is None or button.height >= 48
    button.on_click(None)


def test_a_refused_enemy_card_says_why_in_its_dialog_which_stays_open():
    app, shown = _dialog_app(memory_store())
    saved: list = []
    form = view.enemy_dialog(app, NANO, saved.append)
    assert shown == [form.dialog] and not form.error.visible
    threat = next(f for f in _all(form.fields) if isinstance(f, ft.TextField) and f.label == "Threat")
    threat.value = "-1"
    _act(form, "Save card")
    assert form.error.visible and "must be 0 or more" in form.error.content.value
    assert form.dialog.open and saved == []  # nothing saved, the dialog still open to correct it
    threat.value = "x"
    _act(form, "Save card")
    assert "Threat: type a whole number" in form.error.content.value and form.dialog.open
    threat.value = "2"
    _act(form, "Save card")
    assert saved == [NANO.model_copy(update={"threat": 2})] and not form.dialog.open and not form.error.visible


def test_a_refused_map_import_says_why_in_its_dialog_which_stays_open():
    from companion.games.human_ethos.screens import MapsScreen

    store = memory_store()
    app, shown = _dialog_app(store)
    screen = MapsScreen(app)
    screen._draw()
    form = screen._import(None)
    field = next(f for f in _all(form.fields) if isinstance(f, ft.TextField))
    field.value = '{"name": "broken", "spaces": [{"q": 0, "r": 0}, {"q": 0, "r": 0}]}'
    _act(form, "Import text")
    assert form.error.visible and "Not a valid map" in form.error.content.value and form.dialog.open
    assert [k for k, _ in view.saved_maps(store)] == ["sample"]
    field.value = view.SAMPLE_PATH.read_text().replace('"name": "Sample map', '"name": "Copied map')
    _act(form, "Import text")
    assert not form.dialog.open and screen.map.name.startswith("Copied map")
    assert len(view.saved_maps(store)) == 2


def test_the_map_editor_zooms_and_pans_as_the_play_map_does():
    from companion.games.human_ethos.screens import MapsScreen

    app, _ = _dialog_app(memory_store())
    screen = MapsScreen(app)
    screen._draw()

    def window():
        stack = next(c for c in _all(screen.body) if isinstance(c, ft.Stack) and any(
            isinstance(v, ft.InteractiveViewer) for v in c.controls))
        return stack, next(v for v in stack.controls if isinstance(v, ft.InteractiveViewer))

    stack, viewer = window()
    assert stack.controls[0].identifier == "editor-map" and stack.controls[0].label.startswith("Hex map: tap a space")
    fit, whole = viewer.width, viewer.content.width
    assert fit == 360 - 56 and whole >= fit  # (a hexes' size has a floor: with the hexes one can add, a bit wider)
    _labelled(screen.body, "Zoom in the map").on_click(None)
    stack, viewer = window()
    assert screen.look.zoom == 1.5 and stack.key == "map-view-1" and viewer.width == fit
    assert viewer.content.width == pytest.approx(1.5 * whole) and stack.controls[0].label.endswith("drag to pan")
    # A tap on the zoomed canvas edits the space drawn there (the hexes one can add are drawn too).
    from companion.games.human_ethos.mapdraw import layout

    detector = next(c for c in _all(viewer.content) if isinstance(c, ft.GestureDetector))
    before = len(screen.map.spaces)
    lay = layout([s.c for s in screen.map.spaces] + sorted(_ghosts(screen.map)), 360 - 56).scaled(1.5)
    detector.on_tap_up(SimpleNamespace(local_position=ft.Offset(*lay.centre(C("D3")))))
    assert len(screen.map.spaces) == before - 1 and screen.last == C("D3")  # "Add / remove spaces": D3 removed


def _ghosts(m):
    from companion.games.human_ethos.hexmap import hex_neighbours

    spaces = {s.c for s in m.spaces}
    return {n for c in spaces for n in hex_neighbours(c) if n not in spaces}


def test_reachable_spaces_have_a_colour_no_area_has():
    import flet.canvas as cv

    from companion.games.human_ethos.mapdraw import AREA_TINTS, REACHABLE_EDGE, REACHABLE_FILL, Marks, layout, shapes

    def rgb(colour: str) -> tuple[int, int, int]:
        return tuple(int(colour[i:i + 2], 16) for i in (1, 3, 5))

    r, g, b = rgb(REACHABLE_FILL)
    assert g > 1.5 * max(r, b)  # green
    for tint in AREA_TINTS:  # pale, and none of them green
        tr, tg, tb = rgb(tint)
        assert min(tr, tg, tb) > 200 and not (tg > tr and tg > tb)
    sample = view.parse_map_json(view.SAMPLE_PATH.read_text())
    lay = layout([s.c for s in sample.spaces], 304)
    drawn = shapes(sample, lay, Marks(reachable={C("B3")}))
    assert any(isinstance(s, cv.Path) and s.paint.color == REACHABLE_EDGE for s in drawn)
    assert any(isinstance(s, cv.Path) and REACHABLE_FILL.lstrip("#").lower() in str(s.paint.color).lower() for s in drawn)


def test_a_desktop_edits_a_map_beside_its_tools():
    from companion.games.human_ethos.screens import MapsScreen

    app, _ = _dialog_app(memory_store())
    app.page.width = 1280
    screen = MapsScreen(app)
    screen._draw()
    row = screen.body.controls[0]
    assert isinstance(row, ft.ResponsiveRow)
    left, right = row.controls
    assert "Map name" in words(left) and "Save map" in words(left) and "Zoom in the map" not in words(left)
    viewer = next(c for c in _all(right) if isinstance(c, ft.InteractiveViewer))
    assert 600 <= viewer.width <= 680  # most of the right column's width


def test_paired_buttons_stack_where_their_words_would_break_at_a_large_text_size():
    from companion.ui.style import Sizes

    store = memory_store()
    cid = _mid_issue(store)

    def adjust_rows(width: int, scale: float):
        frame = FakeFrame(store, cid, view.Ui())
        frame.app.page.width, frame.app.sizes = width, Sizes(scale)
        section = view.adjust_section(frame, frame.loaded.game_state, view._ui(frame))
        return [c for c in _all(section) if isinstance(c, (ft.Row, ft.Column)) and any(
            isinstance(b, ft.Button) and button_words(b) in ("Threat −1", "Threat +1") for b in c.controls)]

    assert [type(c) for c in adjust_rows(412, 1.0)] == [ft.Row]  # side by side, each half the width
    assert [type(c) for c in adjust_rows(360, 1.7)] == [ft.Column]  # "Huge": one above the other


def test_the_map_editor_fits_its_map_on_a_360_px_phone():
    """The editor draws a map with a ring of grey hexes one can add: the sample map's 7 columns
    become 9. On a 360 px phone (the map's card leaves 304 px) it fits whole at 100 %, as the play
    screen's map does, at any text size (the map's writing doesn't grow with it)."""
    import flet.canvas as cv

    from companion.games.human_ethos.screens import MapsScreen
    from companion.ui.style import Sizes

    for scale in (1.0, 1.7):
        app = SimpleNamespace(store=memory_store(), guard=lambda fn, **kw: fn, go=lambda route: None, sizes=Sizes(scale),
                              scale=scale, toast=lambda text, **kw: None, page=SimpleNamespace(width=360, platform=None))
        screen = MapsScreen(app)
        screen.view()
        (canvas,) = [c for c in _all(screen.body) if isinstance(c, cv.Canvas)]
        assert canvas.width <= 360 - 2 * 12 - 2 * 16, "the editor's map is cut off on a 360 px phone"


def test_the_campaign_progress_counts_wins_and_losses_in_proper_plurals():
    """Issue #30: "Issue #1: 0 win(s), 1 loss(es)" reads "Issue #1: 0 wins, 1 loss"."""
    store = memory_store()
    cid = store.create("human_ethos", "progress", {})
    sample = view.parse_map_json(view.SAMPLE_PATH.read_text())
    for seq, action in enumerate([R.StartIssue(map=sample, track=12, members=["Max"]),
                                  R.Adjust(track="threat", delta=12, reason="It's Closing In")]):
        store.apply(cid, action, expected_cursor=seq)
    said = words(view.panel(FakeFrame(store, cid, view.Ui())))
    assert "Issue #1: 0 wins, 1 loss" in said and "(s)" not in said and "(es)" not in said
