"""End to end, phone size: a Human Ethos story campaign on the sample map — start issue #1, move a
team member into an area by tapping the map, place the revealed enemies, run the enemy phase, pick
the tie it leaves on the map, read its explanation, undo, reload: kept. Then the issue's whole flow on a
map built in the editor, and an arcade game."""

import re
from pathlib import Path

import pytest
from playwright.sync_api import expect

from companion.games.human_ethos.hexmap import from_label, parse_map_json
from companion.games.human_ethos.mapdraw import layout
from tests.browser import (PHONE, by_id, finger, go, open_app, scroll_to, served, settled_screenshot, tap, tap_until,
                           type_into, wait_steady)

SAMPLE = parse_map_json((Path(__file__).resolve().parents[2] / "assets" / "human_ethos_sample_map.json").read_text())
GAME = "The Singularity War: Human Ethos"


@pytest.fixture
def server(tmp_path):
    with served(f"sqlite:///{tmp_path / 'e2e.sqlite'}", token="human-ethos-e2e-token", extra_env={"COMPANION_SEED": "7"}) as s:
        yield s


def open_page(browser, server, viewport=None):
    return open_app(browser, server, viewport=viewport or PHONE)


def tap_hex(page, label: str, coords=None, identifier: str = "hexmap") -> None:
    """Tap the centre of a space on the canvas map (scrolled on screen first, like `tap`)."""
    tap_canvas(page, lambda lay: lay.centre(from_label(label)), coords, identifier)


def tap_edge(page, a: str, b: str, coords, identifier: str = "editor-map") -> None:
    """Tap near the edge between two spaces (a little on a's side, so a is the hex under the finger)."""
    def point(lay):
        (ax, ay), (bx, by) = lay.centre(from_label(a)), lay.centre(from_label(b))
        return ax + 0.4 * (bx - ax), ay + 0.4 * (by - ay)
    tap_canvas(page, point, coords, identifier)


def tap_canvas(page, point_of, coords=None, identifier: str = "hexmap") -> None:
    """Tap a point of a canvas map given by `point_of(layout)`, scrolled on screen first: below the
    title bar, clear of the bottom bar and of a snack bar above it (a refusal's message sits there a while)."""
    target = by_id(page, identifier)
    target.wait_for()
    coords = coords or [s.c for s in SAMPLE.spaces]

    def point(box: dict) -> tuple[float, float]:
        y = box["y"] + point_of(layout(coords, box["width"]))[1]
        return y, y

    scroll_to(page, target, near_top=False, top=110, bottom=220, spot=point, step=200)
    # Wait until the map stays put (a redraw above it may still be moving it down), then tap.
    box = wait_steady(page, target)
    x, y = point_of(layout(coords, box["width"]))
    finger(page, box["x"] + x, box["y"] + y)


def new_campaign(page, name: str) -> None:
    """From the home screen: a new Human Ethos campaign, opened."""
    tap(page, page.get_by_role("button", name="New campaign"))
    tap(page, page.get_by_role("radio", name=GAME))
    type_into(page.get_by_label("Campaign name"), name)
    tap(page, page.get_by_role("button", name="Create and open"))


def says(page, identifier: str, text: str) -> None:
    """A card's texts merge into its accessible name: wait until it contains `text`."""
    expect(by_id(page, identifier)).to_have_accessible_name(re.compile(re.escape(text)))


def test_story_issue_move_spawn_enemy_phase_undo_reload(browser, server, artifacts):
    context, page = open_page(browser, server)
    new_campaign(page, "Issue night")

    # Issue setup: the sample map from the catalog, the team on Start.
    expect(page.get_by_role("button", name="Start issue #1")).to_be_visible()
    team = page.get_by_label(re.compile("Team members, in turn order"))
    tap(page, team)
    team.fill("Max, Ana")
    expect(team).to_have_value("Max, Ana")
    settled_screenshot(page, artifacts / "human_ethos-setup-phone.png")
    tap(page, page.get_by_role("button", name="Start issue #1"))
    expect(by_id(page, "turn")).to_have_text("Turn 1 · Max's turn")
    expect(by_id(page, "threat")).to_have_text("0")
    expect(by_id(page, "member-Max")).to_have_text("A3")

    # Tap Max, then C3 (two spaces, into the Plaza): its two tokens are revealed.
    tap(page, page.get_by_role("button", name="Max · A3"))
    expect(by_id(page, "hint")).to_contain_text("Max is picked")
    tap_hex(page, "C3")
    expect(by_id(page, "member-Max")).to_have_text("C3")
    expect(by_id(page, "hint")).to_contain_text("token at C2 face up")
    settled_screenshot(page, artifacts / "human_ethos-reveal-phone.png")

    # C2 shows Nanobots: one goes on D4. D5 shows nothing we place.
    tap_hex(page, "D4")
    expect(page.get_by_role("button", name="Done: place 1 enemy")).to_be_visible()
    tap(page, page.get_by_role("button", name="Done: place 1 enemy"))
    expect(by_id(page, "hint")).to_contain_text("token at D5 face up")
    tap(page, page.get_by_role("button", name="Done: place 0 enemies"))
    says(page, "enemy-list", "1 Nanobot on D4")

    # The enemy phase: the Nanobot has two equally short routes to Max: the players choose.
    tap(page, page.get_by_role("button", name="Cards played: run the enemy phase"))
    expect(by_id(page, "hint")).to_contain_text("Your choice")
    expect(by_id(page, "last-events")).to_contain_text("Enemy phase, in this order: 1 Nanobot D4")
    settled_screenshot(page, artifacts / "human_ethos-tie-phone.png")
    tap_hex(page, "C4")  # the space numbered 1 on the map: option 1
    expect(by_id(page, "last-events")).to_contain_text("1 Nanobot D4 → C4")
    expect(by_id(page, "turn")).to_have_text("Turn 2 · Ana's turn")
    says(page, "enemy-list", "1 Nanobot on C4")
    settled_screenshot(page, artifacts / "human_ethos-enemy-phase-phone.png")

    # Undo the choice: the tie is open again; reload keeps it.
    tap(page, page.get_by_role("button", name="Undo: enemy tie: option 1"))
    expect(by_id(page, "hint")).to_contain_text("Your choice")
    page.reload()
    expect(by_id(page, "hint")).to_contain_text("Your choice")
    expect(by_id(page, "member-Max")).to_have_text("C3")
    tap(page, page.get_by_role("button", name=re.compile(r"^2: 1 to D3")))
    says(page, "enemy-list", "1 Nanobot on D3")
    expect(by_id(page, "history")).to_contain_text("Players' choice 2: 1 to D3")

    # A second phone acts while this one is typing a reason: the redraw waits, so the field keeps
    # the focus and the text; it follows when the player leaves the field.
    reason = page.get_by_label("Reason (the card or effect)")
    type_into(reason, "It's Clos")
    expect(reason).to_be_focused()
    context_b, page_b = open_page(browser, server)
    page_b.goto(page.url)
    expect(by_id(page_b, "awareness")).to_have_text("0")
    type_into(page_b.get_by_label("Reason (the card or effect)"), "Recon")
    tap(page_b, page_b.get_by_role("button", name="Awareness +1"))
    expect(by_id(page_b, "awareness")).to_have_text("1")
    expect(by_id(page, "headline")).to_contain_text("Update held while typing")
    expect(reason).to_be_focused()
    expect(reason).to_have_value("It's Clos")
    expect(by_id(page, "awareness")).to_have_text("0")
    reason.blur()
    expect(by_id(page, "awareness")).to_have_text("1")
    # (off focus Flutter leaves the DOM input empty: read the field's counter instead)
    expect(page.get_by_text("71 characters remaining").first).to_be_visible()
    context_b.close()
    context.close()


def test_build_a_map_then_play_an_issue_on_it(browser, server, artifacts, tmp_path):
    """The issue's end-to-end flow in one go: a small map built in the editor (start, end, a wall,
    an area with an encounter), saved and exported; an enemy card entered (a bad value refused);
    an issue started on the new map; a move too far refused, a move into the area; the spawned
    enemies placed by tapping the map; the enemy order changed; the enemy phase run: threat rises,
    groups move, the tie picked on the map; reload keeps it all."""
    from companion.games.human_ethos.hexmap import rectangle

    coords = [s.c for s in rectangle("x", 7, 5).spaces]
    context, page = open_page(browser, server)
    go(page, server["base"] + "g/human_ethos/maps")
    tap(page, page.get_by_role("button", name="New map"))
    expect(by_id(page, "map-check")).to_contain_text("exactly one Start")

    # Specials: Start A3, End G3, a common encounter on D3.
    tap(page, page.get_by_role("button", name="Special space"))
    tap(page, page.get_by_role("button", name="Start", exact=True))
    expect(by_id(page, "editor-hint")).to_contain_text("make it Start")
    tap_hex(page, "A3", coords, identifier="editor-map")
    expect(by_id(page, "map-check")).to_contain_text("exactly one End")
    tap(page, page.get_by_role("button", name="End (objective)"))
    expect(by_id(page, "editor-hint")).to_contain_text("make it End")
    tap_hex(page, "G3", coords, identifier="editor-map")
    expect(by_id(page, "map-check")).to_contain_text("Ready to play")
    tap(page, page.get_by_role("button", name=re.compile("^Common encounter")))
    expect(by_id(page, "editor-hint")).to_contain_text("make it Common")
    tap_hex(page, "D3", coords, identifier="editor-map")

    # A wall between D3 and E3.
    tap(page, page.get_by_role("button", name="Walls (tap an edge)"))
    expect(by_id(page, "editor-hint")).to_contain_text("wall")
    tap_edge(page, "D3", "E3", coords)
    expect(by_id(page, "map-counts")).to_contain_text("35 spaces, 1 wall.")

    # The area "Lab": C3, D2, D3, D4, E3.
    tap(page, page.get_by_role("button", name="Paint area"))
    type_into(page.get_by_label(re.compile("^Area name")), "Lab")
    expect(by_id(page, "editor-hint")).to_contain_text("area “Lab”")
    for label in ("C3", "D2", "D3", "D4", "E3"):
        tap_hex(page, label, coords, identifier="editor-map")
    expect(by_id(page, "map-check")).to_contain_text("Ready to play")
    settled_screenshot(page, artifacts / "human_ethos-editor-phone.png")
    tap(page, page.get_by_role("button", name="Save map *"))
    expect(page.get_by_role("button", name="My map 1")).to_be_visible()

    # Export as a file: the JSON has the wall and the area.
    tap(page, page.get_by_role("button", name="Export"))
    with page.expect_download() as download:
        tap(page, page.get_by_role("button", name="Save file"))
    saved = parse_map_json(open(download.value.path(), encoding="utf-8").read())
    assert saved.name == "My map 1" and len(saved.walls) == 1
    assert sorted(s.area for s in saved.spaces if s.area) == ["Lab"] * 5

    # A campaign on it: first the Nanobots card (a negative threat is refused in the dialog).
    go(page, server["base"])
    new_campaign(page, "Lab night")
    tap(page, page.get_by_role("button", name="Edit Nanobots"))
    threat = page.get_by_label("Threat", exact=True)
    type_into(threat, "-1")
    tap(page, page.get_by_role("button", name="Save card"))
    expect(by_id(page, "dialog-error")).to_contain_text("must be 0 or more")
    type_into(threat, "2")
    type_into(page.get_by_label("Range", exact=True), "2")
    tap(page, page.get_by_role("button", name="Save card"))
    expect(page.get_by_text("Nanobots: threat 2, range 2, health 1, move 1")).to_be_visible()

    tap(page, page.get_by_role("button", name="My map 1"))
    type_into(page.get_by_label(re.compile("Team members, in turn order")), "Max")
    tap(page, page.get_by_role("button", name="Start issue #1"))
    expect(by_id(page, "turn")).to_have_text("Turn 1 · Max's turn")
    expect(by_id(page, "member-Max")).to_have_text("A3")

    # Max has a move-2 card: D1 is three spaces away (refused, nothing moves); C3 is in the Lab.
    tap(page, page.get_by_role("button", name="Max · A3"))
    expect(by_id(page, "hint")).to_contain_text("Max is picked")
    tap_hex(page, "D1", coords)
    refusal = re.compile("D1 is 3 spaces away by that route; the card moves at most 2")
    expect(page.get_by_text(refusal).or_(page.get_by_label(refusal)).first).to_be_visible()  # a snack bar
    expect(by_id(page, "member-Max")).to_have_text("A3")
    tap_hex(page, "C3", coords)
    expect(by_id(page, "member-Max")).to_have_text("C3")
    expect(by_id(page, "hint")).to_contain_text("token at D3 face up")

    # It shows Nanobots: one on D4, two on E3 (tapped on the map).
    tap_hex(page, "D4", coords)
    expect(page.get_by_role("button", name="Done: place 1 enemy")).to_be_visible()
    tap(page, page.get_by_role("button", name="How many +1"))
    expect(by_id(page, "spawn-count")).to_have_text("2")
    tap_hex(page, "E3", coords)
    expect(page.get_by_role("button", name="Done: place 3 enemies")).to_be_visible()
    settled_screenshot(page, artifacts / "human_ethos-placing-phone.png")
    tap(page, page.get_by_role("button", name="Done: place 3 enemies"))
    says(page, "enemy-list", "2 Nanobots on E3")
    says(page, "enemy-list", "1 Nanobot on D4")

    # The default order is closest first (D4); the players put E3 first.
    expect(by_id(page, "enemy-order")).to_contain_text("closest to the team first): 1. 1 Nanobot on D4; 2. 2 Nanobots on E3")
    tap(page, page.get_by_role("button", name="Change the order"))
    tap(page, page.get_by_role("button", name="Earlier: 2 Nanobots on E3"))
    says(page, "enemy-order", "(your order): the first acts first.")
    settled_screenshot(page, artifacts / "human_ethos-order-phone.png")
    tap(page, page.get_by_role("button", name="Done"))
    expect(by_id(page, "enemy-order")).to_contain_text("(your order): 1. 2 Nanobots on E3; 2. 1 Nanobot on D4")

    # The enemy phase: both groups have Max in range 2 (+2 each); E3's go round the wall to D2;
    # D4's Nanobot has two equally short routes: the players tap C4 on the map.
    tap(page, page.get_by_role("button", name="Cards played: run the enemy phase"))
    expect(by_id(page, "last-events")).to_contain_text("in the players' order: 2 Nanobots E3, 1 Nanobot D4")
    expect(by_id(page, "last-events")).to_contain_text("2 Nanobots E3 → D2")
    expect(by_id(page, "threat")).to_have_text("4")
    expect(by_id(page, "hint")).to_contain_text("Your choice")
    tap_hex(page, "C4", coords)
    expect(by_id(page, "last-events")).to_contain_text("Players' choice 1: 1 to C4")
    expect(by_id(page, "turn")).to_have_text("Turn 2 · Max's turn")
    settled_screenshot(page, artifacts / "human_ethos-after-enemies-phone.png")

    page.reload()
    expect(by_id(page, "turn")).to_have_text("Turn 2 · Max's turn")
    expect(by_id(page, "threat")).to_have_text("4")
    says(page, "enemy-list", "2 Nanobots on D2")
    says(page, "enemy-list", "1 Nanobot on C4")
    expect(by_id(page, "member-Max")).to_have_text("C3")
    context.close()


def test_arcade_game_with_the_offered_enemies_and_a_bad_map_file(browser, server, artifacts, tmp_path):
    context, page = open_page(browser, server)
    # A malformed map file is refused in the import dialog, and no map is added.
    go(page, server["base"] + "g/human_ethos/maps")
    # (again if Flutter dropped the tap while it still laid the editor's map out: a second tap on an
    # open dialog's backdrop does nothing)
    tap_until(page, page.get_by_role("button", name="Import"), page.get_by_role("button", name="Choose a file"))
    bad = tmp_path / "broken.map.json"
    bad.write_text('{"name": "broken", "spaces": [{"q": 0, "r": 0}, {"q": 0, "r": 0}]}')
    with page.expect_file_chooser() as chooser:
        tap(page, page.get_by_role("button", name="Choose a file"))
    chooser.value.set_files(str(bad))
    expect(by_id(page, "dialog-error")).to_contain_text("Not a valid map")
    tap(page, page.get_by_role("button", name="Cancel"))
    expect(page.get_by_role("button", name="broken")).to_have_count(0)

    go(page, server["base"])
    new_campaign(page, "Arcade night")
    tap(page, page.get_by_role("button", name="Arcade game"))
    expect(page.get_by_role("button", name=re.compile(r"^Start arcade \(0 maps\)"))).to_be_visible()
    tap(page, page.get_by_role("button", name=re.compile("Sample")))
    expect(page.get_by_role("button", name=re.compile(r"^Start arcade \(1 map\)"))).to_be_visible()
    tap(page, page.get_by_role("checkbox", name="Rhinos"))
    type_into(page.get_by_label(re.compile("Team members, in turn order")), "Max, Ana")
    settled_screenshot(page, artifacts / "human_ethos-arcade-setup-phone.png")
    tap(page, page.get_by_role("button", name=re.compile(r"^Start arcade")))
    expect(by_id(page, "turn")).to_have_text("Turn 1 · Max's turn")
    expect(by_id(page, "history")).to_contain_text("Arcade enemies: Nanobots, Hosts, Drakens and Alphas")
    context.close()


def test_a_card_moving_threat_takes_its_reason_then_empties_the_field(browser, tmp_path):
    """Threat ±1 with its reason typed, twice in a row: applied, the reason field empty again, and
    never "Something went wrong" (the field is drawn afresh from what was typed, then cleared)."""
    import json

    from tests.helpers import file_store

    store = file_store(tmp_path, "threat.sqlite")
    cid = store.create("human_ethos", "Threat night", {}, seed=3)
    sample = json.loads((Path(__file__).resolve().parents[2] / "assets" / "human_ethos_sample_map.json").read_text())
    store.apply(cid, {"kind": "start_issue", "map": sample, "track": 12, "members": ["Max"]}, expected_cursor=0)
    store.db.close()
    with served(f"sqlite:///{tmp_path / 'threat.sqlite'}") as server:
        context, page = open_app(browser, server)
        page.goto(f"{server['base']}c/{cid}")
        for n, reason in enumerate(("Nanobots swarm", "It's Closing In"), start=1):
            field = page.get_by_label("Reason (the card or effect)")
            type_into(field, reason)
            tap(page, page.get_by_role("button", name="Threat +1", exact=True))
            expect(by_id(page, "history")).to_contain_text(reason)
            expect(page.get_by_label("Reason (the card or effect)")).to_have_value("")
        assert "Something went wrong" not in page.content()
        context.close()
