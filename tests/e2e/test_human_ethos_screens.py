"""Every Human Ethos screen, looked at on a small phone at its largest text size (360×740, "Huge"),
a phone (412×915) and a desktop (1280×800): the setup (story and arcade) with the campaign's
progress, play with enemies on the map, the attack card a tap on an enemy opens (scrolled into
view by the app), a dialog's refusal, a member picked to move (the spaces they reach), tokens
revealed and their enemies placed, the enemy phase's tie with its explanation beside the map, what
the enemy phase did right under the map, the end of an issue (won: the next one set up; lost), the
recap, the map editor with an import refused, the enemy cards. Screenshots go to
artifacts/screenshots (`human_ethos-screen-<name>-<size>.png`), or to the folder $HE_SHOTS names.

Each shot also checks that no red "Semantics.content must be provided" box shows; the maps' windows
stay within the screen's width, and a desktop has the map beside the track."""

import json
import os
import re
from pathlib import Path

import pytest
from playwright.sync_api import expect

from companion.games.human_ethos.hexmap import from_label
from tests.browser import (DESKTOP, PHONE, SMALL_PHONE, by_id, open_app, scroll_to, served, settled_screenshot, tap,
                           tap_until, type_into, wait_steady)
from tests.e2e.test_human_ethos_map import in_view, tap_enemy

SAMPLE = json.loads((Path(__file__).resolve().parents[2] / "assets" / "human_ethos_sample_map.json").read_text())
SIZES = {"360-huge": SMALL_PHONE, "412": PHONE, "1280": DESKTOP}  # 360-huge: at the largest text size
DRAWN = 15_000  # bytes: a PNG of a drawn screen is bigger (a blank one, or Flet's "Working...", ~5 kB)
NANO = {"name": "Nanobots", "threat": 1, "range": 1, "health": 1, "move": 1}
HOST = {"name": "Hosts", "threat": 2, "range": 0, "health": 2, "move": 2}


def H(label: str) -> dict:
    q, r = from_label(label)
    return {"q": q, "r": r}


def _play(store, cid: int, *actions) -> None:
    for action in actions:
        store.apply(cid, action, expected_cursor=store.get(cid).cursor)


def campaigns(store) -> dict[str, int]:
    """The campaigns the screens show, made through the store."""
    out = {"fresh": store.create("human_ethos", "Fresh night", {}, seed=3)}
    cid = out["play"] = store.create("human_ethos", "Enemies night", {}, seed=3)
    _play(store, cid, {"kind": "set_enemy_type", "enemy": NANO}, {"kind": "set_enemy_type", "enemy": HOST},
          {"kind": "start_issue", "map": SAMPLE, "track": 20, "members": ["Max", "Ana"]},
          {"kind": "move", "member": "Max", "to": H("C3"), "move": 2},
          {"kind": "spawn", "token": 0, "face": "Drakens", "groups": [
              {"enemy": "Drakens", "at": H("D4"), "count": 2}, {"enemy": "Nanobots", "at": H("D4"), "count": 1},
              {"enemy": "Nanobots", "at": H("D3"), "count": 1}]},
          {"kind": "spawn", "token": 1, "face": "Hosts", "groups": [{"enemy": "Hosts", "at": H("C3"), "count": 1}]})
    cid = out["reveal"] = store.create("human_ethos", "Reveal night", {}, seed=3)
    _play(store, cid, {"kind": "set_enemy_type", "enemy": NANO},
          {"kind": "start_issue", "map": SAMPLE, "track": 20, "members": ["Max", "Ana"]},
          {"kind": "move", "member": "Max", "to": H("C3"), "move": 2})
    cid = out["tie"] = store.create("human_ethos", "Tie night", {}, seed=3)
    _play(store, cid, {"kind": "set_enemy_type", "enemy": NANO},
          {"kind": "start_issue", "map": SAMPLE, "track": 20, "members": ["Max", "Ana"]},
          {"kind": "move", "member": "Max", "to": H("C3"), "move": 2},
          {"kind": "spawn", "token": 0, "face": "Nanobots", "groups": [{"enemy": "Nanobots", "at": H("D4"), "count": 1}]},
          {"kind": "spawn", "token": 1, "face": "Hosts", "groups": []},
          {"kind": "enemy_phase"})
    corridor = {"name": "Corridor", "spaces": [{"q": 0, "r": 0, "special": "start"}, {"q": 1, "r": 0},
                                               {"q": 2, "r": 0}, {"q": 3, "r": 0, "special": "end"}]}
    cid = out["won"] = store.create("human_ethos", "Won night", {}, seed=3)
    _play(store, cid, {"kind": "start_issue", "map": corridor, "track": 12, "members": ["Max"]},
          {"kind": "move", "member": "Max", "to": {"q": 3, "r": 0}, "move": 3})
    cid = out["lost"] = store.create("human_ethos", "Lost night", {}, seed=3)
    _play(store, cid, {"kind": "start_issue", "map": SAMPLE, "track": 12, "members": ["Max", "Ana"]},
          {"kind": "adjust", "track": "threat", "delta": 12, "reason": "It's Closing In"})
    return out


@pytest.mark.parametrize("size", list(SIZES))
def test_every_human_ethos_screen_at_phone_and_desktop_sizes(browser, tmp_path, artifacts, size):
    from tests.helpers import file_store

    folder = Path(os.environ["HE_SHOTS"]) if os.environ.get("HE_SHOTS") else artifacts
    store = file_store(tmp_path, "screens.sqlite")
    cids = campaigns(store)
    store.db.close()
    viewport = SIZES[size]
    wide = viewport["width"] >= 992

    def shot(name: str) -> None:
        expect(page.get_by_text(re.compile("must be provided"))).to_have_count(0)
        for _ in range(20):  # a page just opened may show a blank canvas (or "Working...") for a while
            if len(settled_screenshot(page, folder / f"human_ethos-screen-{name}-{size}.png")) > DRAWN:
                return
        raise AssertionError(f"{name}: the screen stayed blank")

    def within_width(identifier: str = "hexmap") -> dict:
        box = wait_steady(page, by_id(page, identifier))
        assert box["x"] >= 0 and box["x"] + box["width"] <= viewport["width"] + 1
        return box

    def at(cid: int, route: str = "") -> None:
        page.goto(f"{server['base']}c/{cid}{route}")

    with served(f"sqlite:///{tmp_path / 'screens.sqlite'}", token="human-ethos-screens-token") as server:
        context, page = open_app(browser, server, viewport=viewport)
        if size.endswith("huge"):  # this phone's largest text size, chosen as a player does
            page.goto(f"{server['base']}settings")
            tap(page, page.get_by_role("button", name="Huge", exact=True))
            page.wait_for_function("localStorage.getItem('flutter.companion.text_scale') === '1.7'")

        # Setting up: story mode, then the campaign's progress, then an arcade game.
        at(cids["fresh"])
        expect(page.get_by_role("button", name="Story: issue #1")).to_be_visible()
        # At the largest text the start button is below the fold, where Flutter doesn't describe it yet.
        scroll_to(page, page.get_by_role("button", name="Start issue #1"))
        expect(page.get_by_role("button", name="Start issue #1")).to_be_visible()
        shot("setup")
        scroll_to(page, page.get_by_role("button", name="Unlock card"))
        shot("progress")
        tap(page, page.get_by_role("button", name="Arcade game"))
        expect(page.get_by_role("button", name=re.compile(r"^Start arcade \(0 maps\)"))).to_be_visible()
        shot("arcade-setup")

        # Playing, enemies on the map (D4 holds two types: its name stays readable).
        at(cids["play"])
        expect(by_id(page, "turn")).to_have_text("Turn 1 · Max's turn")
        shot("play")
        scroll_to(page, by_id(page, "hexmap"))
        board = within_width()
        if wide:
            assert board["x"] > by_id(page, "threat").bounding_box()["x"] + 200  # beside the track
        shot("map")

        # The attack card: tapping an enemy opens it under the map, scrolled into view.
        tap_enemy(page, "D3")
        expect(by_id(page, "aim")).to_have_text("Attack on D3 with Max")
        in_view(page, by_id(page, "aim-card"))  # scrolled to by the app
        shot("attack")
        in_view(page, by_id(page, "aim-card"))  # (and it stays there)

        # A dialog's refusal: said under its title, the dialog stays open.
        tap_until(page, page.get_by_role("button", name="Edit Nanobots"), page.get_by_role("button", name="Save card"))
        type_into(page.get_by_label("Threat", exact=True), "-1")
        tap(page, page.get_by_role("button", name="Save card"))
        expect(by_id(page, "dialog-error")).to_contain_text("must be 0 or more")
        expect(page.get_by_role("button", name="Save card")).to_be_visible()
        shot("dialog-refusal")
        tap(page, page.get_by_role("button", name="Cancel"))
        expect(page.get_by_role("button", name="Save card")).to_have_count(0)

        # A member picked to move: the spaces they reach in green, the move card's value under the map.
        tap(page, page.get_by_role("button", name="Stop aiming"))
        tap(page, page.get_by_role("button", name="Ana · A3"))
        expect(by_id(page, "hint")).to_contain_text("Ana is picked")
        scroll_to(page, by_id(page, "hexmap"))
        shot("move")

        # Tokens revealed: what they show, and where their enemies go.
        at(cids["reveal"])
        expect(by_id(page, "hint")).to_contain_text("face up")
        shot("spawn")
        scroll_to(page, page.get_by_role("button", name=re.compile("^Done: place")))
        shot("spawn-done")

        # The enemy phase waits for the players' tie: its explanation beside the map (desktop) or
        # right above it (phone), then what it did right under the map.
        at(cids["tie"])
        expect(by_id(page, "hint")).to_contain_text("Your choice")
        shot("enemy-phase")
        scroll_to(page, by_id(page, "hexmap"))
        within_width()
        shot("enemy-phase-map")
        tap(page, page.get_by_role("button", name=re.compile(r"^1: ")))
        expect(by_id(page, "turn")).to_have_text("Turn 2 · Ana's turn")
        expect(by_id(page, "last-events")).to_contain_text("Players' choice 1")
        scroll_to(page, by_id(page, "hexmap"))
        shot("after-enemies")

        # The end of an issue: won (the next one set up, the same team), lost.
        at(cids["won"])
        expect(by_id(page, "banner")).to_contain_text("Issue #1 won!")
        shot("won")
        scroll_to(page, by_id(page, "banner"))
        expect(page.get_by_role("button", name="Start issue #2")).to_be_visible()
        shot("won-next")
        at(cids["lost"])
        expect(by_id(page, "banner")).to_contain_text("lost")
        shot("lost")
        at(cids["lost"], "/recap")
        page.get_by_role("button").first.wait_for()
        shot("recap")

        # The catalog screens: the map editor (zoomable like the play map), an import refused, the
        # enemy cards.
        page.goto(f"{server['base']}g/human_ethos/maps")
        expect(by_id(page, "map-check")).to_be_visible()
        shot("editor")
        scroll_to(page, by_id(page, "editor-map"))
        within_width("editor-map")
        shot("editor-map")
        tap_until(page, page.get_by_role("button", name="Import"), page.get_by_role("button", name="Import text"))
        type_into(page.get_by_label(re.compile("paste the map's JSON")), "{not a map")
        tap(page, page.get_by_role("button", name="Import text"))
        expect(by_id(page, "dialog-error")).to_be_visible()
        expect(page.get_by_role("button", name="Import text")).to_be_visible()
        shot("import-refusal")
        tap(page, page.get_by_role("button", name="Cancel"))
        page.goto(f"{server['base']}g/human_ethos/enemies")
        expect(page.get_by_role("button", name="Add a type")).to_be_visible()
        shot("enemies")
        context.close()
