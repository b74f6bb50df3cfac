"""A screenshot tour of the app's screens at three sizes (#16): a small phone at its largest text size
(360×740, "Huge"), a phone (412×915) and a desktop (1280×800), for a person to look at.

    python -m tests.perf.screens_tour [OUTDIR]          # default artifacts/tour/
    TOUR_SIZES=412 TOUR_ONLY=klaw python -m tests.perf.screens_tour

For each size the app is served on a fresh save holding campaigns made through the store (played to
interesting states by the rules' own actions): home, the new-campaign form, the app's settings, the
dice screen; Save the Singularity (new, a throw, the end), KLAW (new, a fight, a card dialog, the
end), Shadowrun (setup, a turn's phases, legwork, game over), Biosphere 5 (against the Machine with
The Abyss: the Machine's turn, the reveal grid, its decision and the human's turn; The Abyss with 3
people), and the recap and luck of a finished game. Human Ethos has its own tour
(tests/e2e/test_human_ethos_screens.py).

The phones' browsers say they run Android (a desktop browser's Flutter gives controls a mouse's
smaller tap targets); the desktop's is Chromium's own. Flutter draws only the viewport: a long page is photographed in several shots, scrolled with the
mouse wheel between them (`<game>-<screen>-<size>-<n>.png`). Beside the shots, `small-targets.txt`
lists, per shot, the buttons, switches and fields on screen smaller than 48 px either way (from
the semantics tree, which gives each control's box; one cut by the edge of the scrolling part is
left to the shot where it is whole). A radio or switch inside a row that is tapped as a whole
(radio_row, switch_row) is listed though the row is the target."""

from __future__ import annotations

import os
import re
import sys
import tempfile
from pathlib import Path

from tests.browser import DESKTOP, ENABLE_SEMANTICS, OPEN_PAGES, PHONE, ROOT, SMALL_PHONE, launch, served, settle, tap, wheel

SIZES = {"360-huge": SMALL_PHONE, "412": PHONE, "1280": DESKTOP}
# A tablet upright, between the phone and desktop layouts (768-1023 px: the phone's one column,
# the desktop's title and undo bars): looked at on request, TOUR_SIZES=800.
EXTRA_SIZES = {"800": {"width": 800, "height": 1280}}
DRAWN = 15_000  # bytes: a drawn screen's PNG is bigger (a blank one, or "Working...", ~5 kB)
MAX_SHOTS = 8  # per page

# A phone's browser says it runs Android: Flutter then gives its controls a finger's tap targets
# (a desktop browser's are a mouse's, smaller).
ANDROID = ("Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) "
           "Chrome/126.0.0.0 Mobile Safari/537.36")
SMALL_TARGETS = """() => {
  const out = [];
  const sel = '[role=button],[role=switch],[role=checkbox],[role=radio],[role=slider],[role=tab],input,textarea,a';
  for (const e of document.querySelectorAll(sel)) {
    const r = e.getBoundingClientRect();
    if (r.width === 0 || r.height === 0) continue;
    if (r.bottom <= 0 || r.top >= innerHeight || r.right <= 0 || r.left >= innerWidth) continue;
    // a control cut by the edge of the scrolling part (under the title bar, over the bottom bar) has a
    // clipped box: left to the shot where it is whole
    if (r.bottom > 100 && r.top < 110) continue;
    if (r.top < innerHeight - 60 && r.bottom > innerHeight - 110) continue;
    if (r.width < 47.5 || r.height < 47.5) {
      const named = e.getAttribute('aria-label') ? e : (e.closest('[aria-label]') || e.querySelector('[aria-label]') || e);
      const name = (named.getAttribute('aria-label') || e.textContent || '(no name)').trim().replace(/\\s+/g, ' ').slice(0, 60);
      out.push(`${Math.round(r.width)}x${Math.round(r.height)} ${e.getAttribute('role') || e.tagName.toLowerCase()} "${name}"`);
    }
  }
  return out;
}"""


# --- the campaigns ------------------------------------------------------------------------------------


def _apply(store, cid: int, *actions) -> None:
    for action in actions:
        store.apply(cid, action, expected_cursor=store.get(cid).cursor)


def campaigns(store) -> dict[str, int]:
    """The campaigns the tour shows, made through the store."""
    from companion.games.biosphere5.cards import Catalog, dump_catalog
    from companion.games.biosphere5.screens import import_text
    from companion.games.klaw.rules import Attack, Deploy, EndTurn, HostCard, Roll
    from tests import story_games
    from tests.games.test_biosphere5_cards import TEST_DECK
    from tests.perf.tap_bench import SHADOWRUN_LEGWORK

    out: dict[str, int] = {}
    # Save the Singularity: new, a throw in progress, played to the end.
    out["sts-new"] = store.create("save_the_singularity", "Singularity setup", {"players": story_games.STS_PLAYERS}, seed=11)
    cid = out["sts-throw"] = store.create("save_the_singularity", "Singularity throw", {"players": story_games.STS_PLAYERS},
                                          seed=11)
    _apply(store, cid, {"kind": "roll"})
    out["sts-end"] = story_games.save_the_singularity(store, "Singularity night")
    # KLAW: new, a fight (one roll in), played to the end.
    out["klaw-new"] = store.create("klaw", "Were setup", {"players": ["Ana", "Ben"]}, seed=5)
    cid = out["klaw-fight"] = store.create("klaw", "Were fight", {"players": ["Ana", "Ben"]}, seed=5)
    _apply(store, cid, Deploy(card=HostCard(name="Kai", attack=3, defense=2, life=8)), EndTurn(),
           Deploy(card=HostCard(name="Rex", attack=2, defense=2, life=7)), EndTurn(), EndTurn(), EndTurn(),
           Attack(attacker=1, defender=2))
    cid = out["klaw-rolled"] = store.create("klaw", "Were rolled", {"players": ["Ana", "Ben"]}, seed=5)
    _apply(store, cid, Deploy(card=HostCard(name="Kai", attack=3, defense=2, life=8)), EndTurn(),
           Deploy(card=HostCard(name="Rex", attack=2, defense=2, life=7)), EndTurn(), EndTurn(), EndTurn(),
           Attack(attacker=1, defender=2), Roll())
    out["klaw-end"] = story_games.klaw(store, "Were night")
    # Shadowrun: setup, a turn's first phases, legwork, game over.
    out["sr-setup"] = store.create("shadowrun", "Sprawl setup", {"luck_of_the_draw": False}, seed=1)
    cid = out["sr-phases"] = store.create("shadowrun", "Sprawl phases", {"luck_of_the_draw": False}, seed=1)
    _apply(store, cid, *SHADOWRUN_LEGWORK[:7])
    cid = out["sr-legwork"] = store.create("shadowrun", "Sprawl legwork", {"luck_of_the_draw": False}, seed=1)
    _apply(store, cid, *SHADOWRUN_LEGWORK)
    out["sr-over"] = story_games.shadowrun(store, "Sprawl night")
    # Biosphere 5 against the Machine with The Abyss: the Machine's turn, its decision; 3 people in The Abyss.
    import_text(store, dump_catalog(Catalog(complete=True, cards=TEST_DECK)), replace=True)
    out["bio-machine"] = store.create("biosphere5", "Machine night", {"opponent": "machine", "abyss": True}, seed=7)
    cid = out["bio-decided"] = store.create("biosphere5", "Machine decided", {"opponent": "machine", "abyss": True}, seed=7)
    deck = {c.name: c for c in TEST_DECK}
    _apply(store, cid, {"kind": "machine_reveal",
                        "cards": [deck["Deep Well"].model_dump(mode="json"), deck["Shack"].model_dump(mode="json")]},
           {"kind": "set_hand", "cards": 3}, {"kind": "doom_draw_pile", "player": 0})
    cid = out["bio-abyss3"] = store.create("biosphere5", "Abyss night", {"opponent": "people", "abyss": True, "players": 3,
                                                                       "names": ["Ada", "Bea", "Cy"]}, seed=3)
    _apply(store, cid, {"kind": "doom_draw_pile", "player": 0}, {"kind": "doom_attack", "attacker": 1, "target": 2})
    return out


# --- the shots ----------------------------------------------------------------------------------------


class Tour:
    def __init__(self, page, server: dict, folder: Path, size: str):
        self.page, self.server, self.folder, self.size = page, server, folder, size
        self.small: list[str] = []

    def at(self, route: str) -> None:
        self.page.goto(f"{self.server['base']}{route.lstrip('/')}")
        if self.page.viewport_size["width"] < 992:
            enable_semantics(self.page)
        self.page.get_by_role("button").first.wait_for()

    def top(self) -> None:
        for _ in range(3):
            if not wheel(self.page, -100_000):
                break

    def one(self, name: str, previous: bytes = b"") -> bytes:
        """One shot of what is on screen now (waited for until drawn, still, and not the `previous`
        shot: the canvas may lag a scroll)."""
        page = self.page
        for i in range(20):
            last = settle(page)
            if len(last) > DRAWN and (last != previous or i >= 3):
                break
        path = self.folder / f"{name}-{self.size}.png"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(last)
        small = page.evaluate(SMALL_TARGETS)
        errors = page.get_by_text(re.compile("must be provided")).count()
        if small or errors:
            self.small.append(f"{path.name}:" + (" RED ERROR BOX" if errors else ""))
            self.small += [f"    {s}" for s in small]
        print(f"  {path.name}", file=sys.stderr, flush=True)
        return last

    def shots(self, name: str, *, from_top: bool = True) -> None:
        """The whole page, from the top, a screen at a time."""
        if from_top:
            self.top()
        height = self.page.viewport_size["height"]
        last = b""
        for n in range(1, MAX_SHOTS + 1):
            last = self.one(f"{name}-{n}", last)
            if not self.down(height - 300):  # a screen less the title and bottom bars, some overlap
                break

    def down(self, dy: int) -> bool:
        """Scroll down by about `dy` px in small turns of the wheel (a big one can be dropped while
        the page is still drawing); False at the end of the page."""
        moved, turns = False, max(1, dy // 150)
        for _ in range(turns):
            if not wheel(self.page, dy / turns):
                break
            moved = True
        return moved

    def button(self, name, **kw):
        pattern = name if isinstance(name, re.Pattern) else re.compile(rf"^{re.escape(name)}")
        return self.page.get_by_role("button", name=pattern, **kw).first

    def try_tap(self, name, what: str) -> bool:
        try:
            tap(self.page, self.button(name))
            return True
        except Exception as exc:  # a tour goes on: the shot is missing, said in the log
            print(f"  ({what}: could not tap {name!r}: {str(exc).splitlines()[0]})", file=sys.stderr)
            self.small.append(f"(no shot: {what}: {name!r} not tapped)")
            return False

    def dialog(self, opener, name: str, close: str = "Cancel") -> None:
        if self.try_tap(opener, name):
            self.page.wait_for_timeout(400)
            self.one(name)
            self.try_tap(close, name)


def open_phone(browser, server: dict, viewport: dict):
    """As tests.browser.open_app, with an Android phone's user agent below a desktop's width."""
    phone = viewport["width"] < 992
    context = browser.new_context(viewport=viewport, service_workers="block", **({"user_agent": ANDROID} if phone else {}))
    context.add_init_script(ENABLE_SEMANTICS)
    context.set_default_timeout(20_000)
    context.route(re.compile(r"^(?!http://127\.0\.0\.1).*"), lambda route: route.abort())
    page = context.new_page()
    OPEN_PAGES.append(page)
    page.goto(server["join"])
    if phone:
        enable_semantics(page)
    page.get_by_text("Table Companion").first.wait_for()
    return context, page


def enable_semantics(page) -> None:
    """A mobile browser's Flutter turns its semantics tree on at a real tap on its placeholder (which
    covers the page), not at a script's click: tapped at the top of the title bar, where a tap that
    got through would do nothing."""
    for _ in range(40):
        if page.locator("flt-semantics[role=button]").count():  # (the placeholder is a button too)
            return
        if page.locator("flt-semantics-placeholder").count():
            page.mouse.click(page.viewport_size["width"] / 2, page.viewport_size["height"] / 2)
        page.wait_for_timeout(500)


def tour_size(browser, db_url: str, cids: dict[str, int], folder: Path, size: str, only: set[str]) -> list[str]:
    viewport = {**SIZES, **EXTRA_SIZES}[size]
    with served(db_url, token="screens-tour-token-0123") as server:
        context, page = open_phone(browser, server, viewport)
        t = Tour(page, server, folder, size)
        want = lambda key: not only or key in only  # noqa: E731
        if size.endswith("huge"):  # this phone's largest text size, chosen as a player does
            t.at("/settings")
            tap(page, page.get_by_role("button", name="Huge", exact=True))  # (a tap gives no placeholder to tap)
            page.wait_for_function("localStorage.getItem('flutter.companion.text_scale') === '1.7'")
        if want("app"):
            t.at("/")
            t.shots("home")
            t.at("/new")
            t.shots("new-campaign")
            t.at("/settings")
            t.shots("settings")
            t.at("/dice")
            t.shots("dice")
        if want("save_the_singularity"):
            for key in ("sts-new", "sts-throw", "sts-end"):
                t.at(f"/c/{cids[key]}")
                t.shots(key)
        if want("klaw"):
            for key in ("klaw-new", "klaw-fight", "klaw-rolled", "klaw-end"):
                t.at(f"/c/{cids[key]}")
                t.shots(key)
            t.at(f"/c/{cids['klaw-new']}")
            t.dialog("Deploy a host", "klaw-deploy-dialog")
        if want("shadowrun"):
            for key in ("sr-setup", "sr-phases", "sr-legwork", "sr-over"):
                t.at(f"/c/{cids[key]}")
                t.shots(key)
        if want("biosphere5"):
            for key in ("bio-machine", "bio-decided", "bio-abyss3"):
                t.at(f"/c/{cids[key]}")
                t.shots(key)
            t.at(f"/c/{cids['bio-machine']}")
            if t.try_tap("Reveal 2 cards", "bio-grid"):
                page.wait_for_timeout(400)
                t.shots("bio-grid", from_top=False)
            t.at(f"/c/{cids['bio-decided']}")
            t.dialog("Catastrophe", "bio-catastrophe-dialog")
        if want("story"):
            for key in ("sts-end", "klaw-end"):
                t.at(f"/c/{cids[key]}/recap")
                t.shots(f"{key}-recap")
                t.at(f"/c/{cids[key]}/luck")
                t.shots(f"{key}-luck")
        context.close()
    return t.small


def main(argv: list[str]) -> None:
    from playwright.sync_api import sync_playwright

    from tests.helpers import file_store

    folder = Path(argv[0]) if argv else ROOT / "artifacts" / "tour"
    folder.mkdir(parents=True, exist_ok=True)
    sizes = [s.strip() for s in os.environ.get("TOUR_SIZES", ",".join(SIZES)).split(",") if s.strip()]
    only = {s.strip() for s in os.environ.get("TOUR_ONLY", "").split(",") if s.strip()}
    report: list[str] = []
    with sync_playwright() as p, tempfile.TemporaryDirectory() as tmp:
        browser = launch(p)
        for size in sizes:
            store = file_store(Path(tmp), f"tour-{size}.sqlite")  # a fresh save for each size
            cids = campaigns(store)
            store.db.close()
            print(f"{size}:", file=sys.stderr, flush=True)
            report += [f"== {size}"] + tour_size(browser, f"sqlite:///{Path(tmp) / f'tour-{size}.sqlite'}", cids, folder,
                                               size, only)
        browser.close()
    (folder / "small-targets.txt").write_text("\n".join(report) + "\n", encoding="utf-8")
    print(f"screenshots and small-targets.txt in {folder}")


if __name__ == "__main__":
    main(sys.argv[1:])
