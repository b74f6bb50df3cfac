"""End to end, on a small phone (360×740) and a desktop: the Human Ethos map zoomed with its buttons
(a browser can't pinch), brought to the team, an enemy tapped on the zoomed map to attack it (its
attack card scrolled into view by the app), the attack in the history; another phone's action
leaves this phone's zoom and pan alone.

Where an enemy is on screen comes from its marker's box in the semantics tree (`enemy-D3`), which
Flutter moves with the map's zoom and pan; the expected place comes from the drawing's layout, so
the test checks that the two agree and that a tap there reaches that space."""

import json
import re
from pathlib import Path

import pytest
from playwright.sync_api import expect

from companion.games.human_ethos.hexmap import from_label, parse_map_json
from companion.games.human_ethos.mapdraw import centred, layout
from tests.browser import (DESKTOP, SMALL_PHONE, by_id, finger, open_app, served, settled_screenshot, scroll_to, tap,
                           type_into, wait_steady)

SAMPLE_PATH = Path(__file__).resolve().parents[2] / "assets" / "human_ethos_sample_map.json"
COORDS = [s.c for s in parse_map_json(SAMPLE_PATH.read_text()).spaces]


def H(label: str) -> dict:
    q, r = from_label(label)
    return {"q": q, "r": r}


@pytest.fixture
def campaign(tmp_path):
    """Max on C3 beside a Nanobot (D3), a Host on C3 itself, two Drakens and a Nanobot on D4; Ana
    on Start. Max's turn."""
    from tests.helpers import file_store

    store = file_store(tmp_path, "map.sqlite")
    cid = store.create("human_ethos", "Zoom night", {}, seed=3)
    seq = 0
    for action in (
        {"kind": "start_issue", "map": json.loads(SAMPLE_PATH.read_text()), "track": 20, "members": ["Max", "Ana"]},
        {"kind": "move", "member": "Max", "to": H("C3"), "move": 2},
        {"kind": "spawn", "token": 0, "face": "Drakens", "groups": [
            {"enemy": "Drakens", "at": H("D4"), "count": 2}, {"enemy": "Nanobots", "at": H("D4"), "count": 1},
            {"enemy": "Nanobots", "at": H("D3"), "count": 1}]},
        {"kind": "spawn", "token": 1, "face": "Hosts", "groups": [{"enemy": "Hosts", "at": H("C3"), "count": 1}]},
    ):
        seq = store.apply(cid, action, expected_cursor=seq).cursor
    store.db.close()
    with served(f"sqlite:///{tmp_path / 'map.sqlite'}") as server:
        yield server, cid


def centre_of(box: dict) -> tuple[float, float]:
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def wait_for_box(page, locator, where, *, tries: int = 60) -> dict:
    """Wait until `where(box)` holds for the locator's box (a pan arrives a moment after a redraw)."""
    box = None
    for _ in range(tries):
        box = locator.bounding_box()
        if box is not None and where(box):
            return box
        page.wait_for_timeout(100)
    raise AssertionError(f"{locator} stayed at {box}")


def in_view(page, locator) -> dict:
    """Wait until the app itself has scrolled `locator` into view: its top in the upper half of the
    screen, under the title bar (the test doesn't scroll)."""
    height = page.viewport_size["height"]
    return wait_for_box(page, locator, lambda box: 56 <= box["y"] <= height / 2)


def tap_enemy(page, label: str) -> None:
    """Tap the enemies on a space of the map, where the (zoomed, panned) map shows them: scrolled
    below the title bar and clear of the bottom bar and a snack bar."""
    marker = by_id(page, f"enemy-{label}")
    scroll_to(page, marker, near_top=False, top=110, bottom=220)
    finger(page, *centre_of(wait_steady(page, marker)))


def test_zoom_in_then_tap_an_enemy_on_the_map_to_attack_it(browser, campaign, artifacts):
    server, cid = campaign
    context, page = open_app(browser, server, viewport=SMALL_PHONE)
    page.goto(f"{server['base']}c/{cid}")
    expect(by_id(page, "turn")).to_have_text("Turn 1 · Max's turn")
    expect(by_id(page, "hint")).to_contain_text("tap an enemy on the map to attack it")
    scroll_to(page, by_id(page, "hexmap"))
    fit = wait_steady(page, by_id(page, "hexmap"))
    expect(by_id(page, "map-zoom")).to_have_text("100 %")
    expect(by_id(page, "enemy-D4")).to_have_text("Enemies on D4: 2 Drakens, 1 Nanobot. Tap to attack.")
    settled_screenshot(page, artifacts / "human_ethos-map-360-fit.png")

    # Zoom in: drawn half as big again, in a window as wide as before, panned to Max (whose turn it is).
    tap(page, page.get_by_role("button", name="Zoom in the map"))
    expect(by_id(page, "map-zoom")).to_have_text("150 %")
    lay = layout(COORDS, fit["width"]).scaled(1.5)
    dx, dy = centred(lay, from_label("C3"), fit["width"], lay.height)
    assert dx < 0  # Max's C3 is right of the middle: the map is panned
    expect(by_id(page, "hexmap")).to_have_text("Hex map: tap a space or an enemy, drag to pan")
    viewer = wait_steady(page, by_id(page, "hexmap"))
    assert viewer["width"] == pytest.approx(fit["width"], abs=1) and viewer["height"] == pytest.approx(lay.height, abs=1)
    x, y = lay.centre(from_label("D3"))
    box = wait_for_box(page, by_id(page, "enemy-D3"), lambda b: abs(centre_of(b)[0] - (viewer["x"] + x + dx)) < 2)
    assert centre_of(box)[1] == pytest.approx(viewer["y"] + y + dy - 0.12 * lay.size, abs=2)
    settled_screenshot(page, artifacts / "human_ethos-map-360-zoomed.png")

    # Tap the Nanobot on D3 on the zoomed map: the attack waits under the map, Max attacking; the
    # screen scrolls down to it by itself (under a phone's map it would open out of sight).
    tap_enemy(page, "D3")
    expect(by_id(page, "aim")).to_have_text("Attack on D3 with Max")
    expect(by_id(page, "hint")).to_contain_text("Aiming at D3")
    in_view(page, by_id(page, "aim-card"))
    settled_screenshot(page, artifacts / "human_ethos-map-360-aim.png")
    tap(page, page.get_by_role("button", name="Hit 1 Nanobot on D3 (health 1)"))
    expect(by_id(page, "history")).to_contain_text("Max deals 1 to Nanobots on D3")
    expect(by_id(page, "enemy-D3")).to_have_count(0)
    expect(by_id(page, "aim")).to_have_count(0)
    expect(by_id(page, "map-zoom")).to_have_text("150 %")

    # Another phone acts: this one redraws with the same zoom, its map where it was.
    scroll_to(page, by_id(page, "hexmap"))
    before = wait_steady(page, by_id(page, "enemy-D4"))
    context_b, page_b = open_app(browser, server, viewport=SMALL_PHONE)
    page_b.goto(f"{server['base']}c/{cid}")
    type_into(page_b.get_by_label("Reason (the card or effect)"), "Recon")
    tap(page_b, page_b.get_by_role("button", name="Threat +1", exact=True))
    expect(by_id(page, "history")).to_contain_text("Recon")
    expect(by_id(page, "map-zoom")).to_have_text("150 %")
    after = wait_steady(page, by_id(page, "enemy-D4"))
    assert centre_of(after) == pytest.approx(centre_of(before), abs=1)
    context_b.close()

    # The Host on Max's own space, on the same zoomed map: range 0.
    tap_enemy(page, "C3")
    expect(by_id(page, "aim")).to_have_text("Attack on C3 with Max")
    tap(page, page.get_by_role("button", name="Stop aiming"))
    expect(by_id(page, "aim")).to_have_count(0)

    tap(page, page.get_by_role("button", name="Fit the map to the screen"))
    expect(by_id(page, "map-zoom")).to_have_text("100 %")
    scroll_to(page, by_id(page, "hexmap"))
    expect(by_id(page, "hexmap")).to_have_text("Hex map: tap a space or an enemy")  # (no "drag to pan" at 100 %)
    context.close()


def test_the_desktop_map_beside_the_track_zooms_and_takes_a_tap_on_an_enemy(browser, campaign, artifacts):
    server, cid = campaign
    context, page = open_app(browser, server, viewport=DESKTOP)
    page.goto(f"{server['base']}c/{cid}")
    expect(by_id(page, "turn")).to_have_text("Turn 1 · Max's turn")
    track, board = by_id(page, "threat").bounding_box(), wait_steady(page, by_id(page, "hexmap"))
    assert board["x"] > track["x"] + track["width"]  # two columns: the map beside the track
    settled_screenshot(page, artifacts / "human_ethos-map-desktop.png")
    tap(page, page.get_by_role("button", name="Zoom in the map"))
    expect(by_id(page, "map-zoom")).to_have_text("150 %")
    tap_enemy(page, "D4")
    expect(by_id(page, "aim")).to_have_text("Attack on D4 with Max")
    in_view(page, by_id(page, "aim-card"))
    # (a card's plain texts merge into its accessible name)
    expect(by_id(page, "aim-card")).to_have_accessible_name(re.compile("D4 is not within range 1 of Max in a straight line"))
    settled_screenshot(page, artifacts / "human_ethos-map-desktop-aim.png")
    tap(page, page.get_by_role("button", name="Hit 2 Drakens on D4 (health 1)"))
    refusal = re.compile("D4 is range 2 from Max; the card reaches 1")  # the rules say why, nothing changes
    expect(page.get_by_text(refusal).or_(page.get_by_label(refusal)).first).to_be_visible()
    expect(by_id(page, "aim")).to_have_text("Attack on D4 with Max")
    context.close()
