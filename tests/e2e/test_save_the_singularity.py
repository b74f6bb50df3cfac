"""Save the Singularity end to end in headless Chromium at phone size, with a fixed dice seed.

New campaign → two players with roles → play (roll, a power, press on, stop, busts, the world's d12)
→ undo a roll and roll again (the same dice: undo can't fish) → reload mid-game → physical dice: the
d12 entered by its face, a throw entered as Bug / Idea / Progress → play on to the end → the result
with its chart → "Play again with the same players"."""

import re
import time

import pytest
from playwright.sync_api import expect

from companion.games.base import percent
from companion.games.save_the_singularity import odds
from tests.browser import SMALL_PHONE, OPEN_PAGES, by_id, new_context, served, settled_screenshot, tap, tap_until, type_into
from tests.browser import both_phones as shared_both_phones


MAIN = re.compile(r"^(Roll \d+ (die|dice)|Stop and bank \d+|Take the bust.*|Roll the d12)$")


@pytest.fixture
def server(tmp_path):
    with served(f"sqlite:///{tmp_path / 'sts.sqlite'}", token="e2e-singularity-token", extra_env={"COMPANION_SEED": "7"}) as s:
        yield s


T0 = [time.monotonic()]


def shot(page, artifacts, name: str) -> None:
    started = time.monotonic()
    settled_screenshot(page, artifacts / f"save_the_singularity-{name}.png")
    print(f"screenshot {name}: {time.monotonic() - started:.1f}s (at {time.monotonic() - T0[0]:.1f}s)")


def move(page) -> int:
    return int(by_id(page, "sts-move").inner_text())


def step(page, name) -> None:
    """Tap a button and wait for the action to land in the log."""
    before = move(page)
    tap(page, name if hasattr(name, "click") else page.get_by_role("button", name=name))
    try:
        expect(by_id(page, "sts-move")).to_have_text(str(before + 1), timeout=4000)
    except AssertionError:  # a tap Flutter dropped while redrawing: tap again if nothing happened
        assert move(page) == before
        tap(page, name if hasattr(name, "click") else page.get_by_role("button", name=name))
        expect(by_id(page, "sts-move")).to_have_text(str(before + 1))


def enter_dice(page, faces: list[str], *, more: bool = False) -> None:
    """The frame's "Waiting for dice" card: tap each face (Bug / Idea / Progress, or a d12 face with
    its symbols), then use them; the action goes on and lands in the log (`more`: the action then
    waits for another throw, as the Venture Capitalist's first does)."""
    expect(by_id(page, "pending-dice")).to_be_visible()
    n = len(faces)

    def entered(count: int):  # the card's count: "2 of 5 entered"
        return by_id(page, "pending-count").get_by_text(f"{count} of {n} entered", exact=True)

    for i, face in enumerate(faces):
        button = page.get_by_role("button", name=f"face {face}", exact=True)
        tap(page, button)
        try:
            expect(entered(i + 1)).to_have_count(1, timeout=4000)
        except AssertionError:  # a tap Flutter dropped while redrawing: tap again if nothing was entered
            expect(entered(i)).to_have_count(1)
            tap(page, button)
            expect(entered(i + 1)).to_have_count(1)
    step(page, "Use these dice")
    if not more:
        expect(by_id(page, "pending-dice")).to_have_count(0)


def count_tap(page, name: str, counter: str, then: str) -> None:
    """Tap one of the dice pad's counting buttons until its face's count shows `then` (a tap Flutter
    dropped while redrawing is tapped again, once)."""
    for attempt in range(2):
        # (an icon button's name also holds its tooltip: the − is found by its words within it)
        tap(page, page.get_by_role("button", name=name, exact=not name.startswith("one ")))
        try:
            expect(by_id(page, counter)).to_have_text(then, timeout=4000)
            return
        except AssertionError:
            if attempt:
                raise


def main_button(page) -> str:
    """The name of the one main action now (the game plays 'stop at once' after every throw)."""
    button = page.get_by_role("button", name=MAIN).first
    button.wait_for()
    return button.get_attribute("aria-label") or button.inner_text()


def test_two_players_play_undo_reload_to_the_end(browser, server, artifacts):
    T0[0] = time.monotonic()
    context = new_context(browser)
    context.route(re.compile(r"^(?!http://127\.0\.0\.1).*"), lambda route: route.abort())
    page = context.new_page()
    OPEN_PAGES.append(page)
    page.goto(server["join"])
    tap(page, page.get_by_role("button", name="New campaign"))
    tap(page, page.get_by_role("radio", name="Save the Singularity"))
    expect(by_id(page, "sts-targets")).to_have_text(re.compile("team 25, world 4"))
    type_into(page.get_by_label("Campaign name"), "Singularity night")
    type_into(page.get_by_label("Player 1 name"), "Ada")
    expect(page.get_by_text("37 characters remaining").last).to_be_visible()
    tap(page, page.get_by_role("button", name="Add player"))
    expect(by_id(page, "sts-targets")).to_have_text(re.compile("team 50, world 8"))
    field = page.get_by_label("Player 2 name")
    tap(page, field)
    type_into(field, "Bo")
    expect(page.get_by_text("38 characters remaining").last).to_be_visible()  # Flutter has it
    page.evaluate("document.activeElement && document.activeElement.blur()")  # no blinking cursor
    shot(page, artifacts, "setup-phone")
    tap(page, page.get_by_role("button", name="Create and open"))

    expect(by_id(page, "sts-turn")).to_have_text(re.compile("Ada · Rationalist"))
    expect(by_id(page, "sts-team")).to_have_text("0")
    expect(by_id(page, "sts-bust")).to_have_text(re.compile(r"\d+\.\d%"))  # live odds before the first roll
    shot(page, artifacts, "start-phone")

    # The first roll, undone and rolled again: the seeded dice come back the same.
    step(page, "Roll 3 dice")
    expect(by_id(page, "sts-dice")).to_be_visible()
    dice = by_id(page, "sts-dice").inner_text()
    tap(page, page.get_by_role("button", name="Undo: roll the dice"))
    expect(by_id(page, "sts-move")).to_have_text("0")
    expect(by_id(page, "sts-pool")).to_have_text("3")
    step(page, "Roll 3 dice")
    assert by_id(page, "sts-dice").inner_text() == dice
    expect(by_id(page, "sts-hint")).to_have_text(re.compile("Hint: (Stop and bank|Press on)"))
    shot(page, artifacts, "throw-phone")

    # The Rationalist's power, once: afterwards it is shown as spent and offered no more.
    rationalist = page.get_by_role("button", name=re.compile(r"Ada \(Rationalist\): reroll all"))
    if rationalist.count():
        step(page, rationalist)
        expect(by_id(page, "sts-power-0")).to_have_text("Spent")

    # Seeded play, stopping after every throw, through busts and world phases; a reload mid-game.
    seen_world = reloaded = False
    while not (move(page) >= 10 and main_button(page) == "Roll the d12"):
        name = main_button(page)
        if name == "Roll the d12" and not seen_world:
            seen_world = True
            shot(page, artifacts, "world-phone")
        if move(page) >= 6 and not reloaded:  # mid-game: a reload keeps everything
            reloaded = True
            at, team, world = move(page), by_id(page, "sts-team").inner_text(), by_id(page, "sts-world").inner_text()
            page.reload()
            expect(by_id(page, "sts-move")).to_have_text(str(at))
            expect(by_id(page, "sts-team")).to_have_text(team)
            expect(by_id(page, "sts-world")).to_have_text(world)
            continue
        step(page, re.compile("^" + re.escape(name) + "$"))

    # Physical dice from here: the switch is an action in the log, and every throw waits for the table.
    switch = page.get_by_role("switch", name=re.compile("I roll physical dice"))
    tap(page, switch)
    expect(switch).to_be_checked()
    # The world's d12 is entered by its face: twelve buttons, each with its number and symbols.
    step(page, re.compile("^Roll the d12$"))
    expect(by_id(page, "pending-why")).to_contain_text("the world's roll")
    expect(page.get_by_role("button", name=re.compile(r"^face \d+ "))).to_have_count(12)
    expect(page.get_by_role("button", name="Roll the d12", exact=True)).to_be_disabled()  # the table rolls first
    shot(page, artifacts, "d12-pad-phone")
    enter_dice(page, ["1 Stop"])
    expect(by_id(page, "history")).to_contain_text("d12 shows 1: Stop")

    # A throw is entered as Bug / Idea / Progress; the pad shows the bust chance the odds give.
    pool = int(by_id(page, "sts-pool").inner_text())
    step(page, re.compile(f"^Roll {pool} dice$"))
    expect(by_id(page, "pending-why")).to_contain_text("first throw")
    bust = f"2 or more Bugs bust: {percent(float(odds.bust_chance(pool)))}"  # one of the card's odds lines
    expect(by_id(page, "pending-odds").filter(has_text=bust)).to_have_count(1)
    expect(page.get_by_role("button", name=re.compile(r"^face "))).to_have_count(3)
    # …by count (#30 item 8): one Bug, one Idea, "the rest" Progress, whatever the pool; a − takes one back.
    count_tap(page, "face Bug (1)", "pending-face-1", "1")
    count_tap(page, "face Idea (2–3)", "pending-face-2", "1")
    count_tap(page, "face Idea (2–3)", "pending-face-2", "2")
    count_tap(page, "one Idea (2–3) less", "pending-face-2", "1")
    count_tap(page, "the rest Progress (4–6)", "pending-face-4", str(pool - 2))
    expect(by_id(page, "pending-count")).to_have_text(f"{pool} of {pool} entered")
    expect(by_id(page, "pending-face-4")).to_have_text(str(pool - 2))
    shot(page, artifacts, "physical-throw-by-count-phone")
    step(page, "Use these dice")
    expect(by_id(page, "pending-dice")).to_have_count(0)
    expect(by_id(page, "sts-risk")).to_have_text(str(pool - 2))
    expect(by_id(page, "sts-dice")).to_contain_text("Bug")
    expect(by_id(page, "sts-dice")).to_contain_text("Idea")
    shot(page, artifacts, "physical-throw-phone")
    step(page, re.compile(f"^Stop and bank {pool - 2}$"))

    # Then 11s (Bad, +Dice, roll again) until the world wins.
    for _ in range(8):
        if by_id(page, "end-card").count():
            break
        step(page, re.compile("^Roll the d12$"))
        enter_dice(page, ["11 Bad +Dice, no Stop"])
    assert reloaded and seen_world
    expect(by_id(page, "end-result")).to_have_text(re.compile("^The (team|world) won"))  # said once, on the end card
    expect(page.get_by_text(re.compile("The (team|world) wins"))).to_have_count(0)
    expect(by_id(page, "sts-chart")).to_be_visible()
    expect(by_id(page, "history")).to_contain_text("d12 shows")
    shot(page, artifacts, "over-phone")

    tap(page, page.get_by_role("button", name="Play again with the same players"))
    expect(page.get_by_role("banner", name="Singularity night · game 2")).to_be_visible()
    expect(by_id(page, "sts-move")).to_have_text("1")  # its first action: physical dice kept on (#30 item 3)
    expect(by_id(page, "sts-turn")).to_have_text(re.compile("Ada · Rationalist"))
    expect(by_id(page, "sts-world")).to_have_text("0")
    context.close()


def both_phones(page, artifacts, name: str, locator) -> None:
    shared_both_phones(page, locator, lambda tag: shot(page, artifacts, f"{name}-{tag}"))


def pick_role(page, player: int, role: str) -> None:
    tap(page, by_id(page, f"sts-role-{player}"))
    tap(page, page.get_by_role("button", name=role, exact=True))
    expect(page.get_by_role("button", name=role, exact=True)).to_have_count(0)  # the menu closed


def test_free_roles_venture_throws_apart_and_a_d12_without_stop(browser, server, artifacts):
    """On a small phone: setup offers a player only the roles nobody else took; the Venture
    Capitalist's two throws are asked for and shown apart; a d12 face without Stop says to roll again."""
    context = new_context(browser, viewport=SMALL_PHONE)
    context.route(re.compile(r"^(?!http://127\.0\.0\.1).*"), lambda route: route.abort())
    page = context.new_page()
    OPEN_PAGES.append(page)
    page.goto(server["join"])
    tap(page, page.get_by_role("button", name="New campaign"))
    tap(page, page.get_by_role("radio", name="Save the Singularity"))
    type_into(page.get_by_label("Campaign name"), "Venture night")
    type_into(page.get_by_label("Player 1 name"), "Ada")
    pick_role(page, 1, "Venture Capitalist")
    tap(page, page.get_by_role("button", name="Add player"))
    type_into(page.get_by_label("Player 2 name"), "Bo")
    page.evaluate("document.activeElement && document.activeElement.blur()")
    # Bo is offered every role but Ada's.
    # A menu opened again if Flutter dropped the tap (the form was just redrawn): opening it is harmless.
    tap_until(page, by_id(page, "sts-role-2"), page.get_by_role("button", name="Mathematician", exact=True))
    expect(page.get_by_role("button", name="Venture Capitalist", exact=True)).to_have_count(0)
    shot(page, artifacts, "setup-roles-360")
    tap(page, page.get_by_role("button", name="Programmer", exact=True))
    # ... and Ada every role but Bo's.
    tap_until(page, by_id(page, "sts-role-1"), page.get_by_role("button", name="Rationalist", exact=True))
    expect(page.get_by_role("button", name="Programmer", exact=True)).to_have_count(0)
    page.keyboard.press("Escape")
    expect(page.get_by_role("button", name="Rationalist", exact=True)).to_have_count(0)
    tap(page, page.get_by_role("button", name="Create and open"))
    expect(by_id(page, "sts-turn")).to_have_text(re.compile("Ada · Venture Capitalist"))

    # Physical dice: the Venture Capitalist's two throws are asked for one after the other.
    switch = page.get_by_role("switch", name=re.compile("I roll physical dice"))
    tap(page, switch)
    expect(switch).to_be_checked()
    step(page, re.compile(r"^Ada \(Venture Capitalist\): roll 3 dice ignoring Bugs"))
    expect(by_id(page, "pending-why")).to_contain_text("Venture Capitalist throw 1 of 2, ignoring Bugs")
    enter_dice(page, ["Bug (1)", "Idea (2–3)", "Progress (4–6)"], more=True)
    expect(by_id(page, "pending-why")).to_contain_text("Venture Capitalist throw 2 of 2, counting Bugs")
    enter_dice(page, ["Bug (1)", "Progress (4–6)", "Progress (4–6)"])
    # Shown apart: each throw in its own frame with its own tally.
    expect(by_id(page, "sts-throw-1")).to_contain_text("Throw 1 · 3 dice, Bugs ignored")
    expect(by_id(page, "sts-throw-1")).to_contain_text("0 Bugs, 1 Idea, 1 Progress (1 Bug ignored)")
    expect(by_id(page, "sts-throw-2")).to_contain_text("Throw 2 · 3 dice, Bugs count")
    expect(by_id(page, "sts-throw-2")).to_contain_text("1 Bug, 0 Ideas, 2 Progress")
    expect(by_id(page, "history")).to_contain_text(
        "throw 1: 0 Bugs, 1 Idea, 1 Progress (1 Bug ignored); throw 2: 1 Bug, 0 Ideas, 2 Progress")
    expect(by_id(page, "sts-risk")).to_have_text("3")
    both_phones(page, artifacts, "venture-throws", by_id(page, "sts-turn"))

    # Keep their places: press on above, stop below, whatever the hint says.
    press = page.get_by_role("button", name=re.compile(r"^Press on with"))
    stop = page.get_by_role("button", name="Stop and bank 3")
    assert press.bounding_box()["y"] < stop.bounding_box()["y"]
    step(page, "Stop and bank 3")

    # The world's d12: a face without Stop says so on its button, on its row and in the history.
    step(page, re.compile("^Roll the d12$"))
    expect(page.get_by_role("button", name="face 8 +Dice, no Stop", exact=True)).to_be_visible()
    expect(page.get_by_role("button", name="face 1 Stop", exact=True)).to_be_visible()
    shot(page, artifacts, "d12-pad-no-stop-360")
    enter_dice(page, ["8 +Dice, no Stop"])
    expect(by_id(page, "sts-no-stop")).to_have_text("no Stop — roll again")
    expect(by_id(page, "history")).to_contain_text("d12 shows 8: +Dice → next player +1 die (1 owed); no Stop — roll again.")
    both_phones(page, artifacts, "d12-no-stop", by_id(page, "sts-turn"))
    step(page, re.compile("^Roll the d12$"))
    enter_dice(page, ["1 Stop"])
    expect(by_id(page, "sts-turn")).to_have_text(re.compile("Bo · Programmer"))
    expect(by_id(page, "sts-no-stop")).to_have_count(1)  # the last world phase, the 8's row
    context.close()
