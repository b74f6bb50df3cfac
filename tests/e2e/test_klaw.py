"""KLAW: Were-Wars end to end at phone size: set up two players, deploy a host each (a bad number
refused first, with the range the card model gives), pass the starting and fortify rounds, attack with
the odds shown, roll an exchange, undo it, reload: the fight is still waiting for its first roll; then
a support host is played instead of rolling. At a table rolling physical dice every die is asked for
on the frame's dice pad, the singularity check after a fight's absorbed totem too."""

import re
import time

import pytest
from playwright.sync_api import expect

from tests.browser import SMALL_PHONE, PHONE, by_id, served, settled_screenshot, tap, tap_until, type_into, open_app
from tests.browser import both_phones as shared_both_phones



@pytest.fixture
def server(tmp_path):
    with served(f"sqlite:///{tmp_path / 'klaw.sqlite'}", token="klaw-e2e-table-token", extra_env={"COMPANION_SEED": "7"}) as s:
        yield s


def open_phone(browser, server, viewport=PHONE):
    return open_app(browser, server, viewport=viewport or PHONE)


def fill(page, field, text: str) -> None:
    """type_into, after scrolling Flutter's view to the field (a bare click could hit what covers it)."""
    tap(page, field)
    type_into(field, text)


def button(page, name: str):
    return page.get_by_role("button", name=name, exact=True)


def open_deploy(page) -> None:
    """Open the deploy dialog; a tap Flutter drops right after a redraw is tapped again (harmless:
    the first tap either opened the dialog within seconds or did nothing)."""
    tap_until(page, button(page, "Deploy a host"), page.get_by_label("Host name"))


def deploy(page, name: str, attack: str, defense: str, life: str) -> None:
    open_deploy(page)
    fill(page, page.get_by_label("Host name"), name)
    fill(page, page.get_by_label("Attack dice"), attack)
    fill(page, page.get_by_label("Defense dice"), defense)
    fill(page, page.get_by_label("Life", exact=True), life)
    tap(page, button(page, "Deploy"))


def test_deploy_attack_roll_undo_reload(browser, server, artifacts):
    context, page = open_phone(browser, server)
    tap(page, page.get_by_role("button", name="New campaign"))
    tap(page, page.get_by_role("radio", name="KLAW: Were-Wars"))
    expect(by_id(page, "klaw-deck-guide")).to_contain_text("12 hosts, 12 totems, 60 action")
    fill(page, page.get_by_label("Campaign name"), "Were night")
    fill(page, page.get_by_label("Player 1 name"), "Ana")
    fill(page, page.get_by_label("Player 2 name"), "Bo")
    settled_screenshot(page, artifacts / "klaw-setup-phone.png")
    tap(page, page.get_by_role("button", name="Create and open"))
    expect(by_id(page, "klaw-turn")).to_have_text("Round 1 · Reveal · Ana's turn")

    # A number outside the book's range is refused with the range, and nothing is deployed.
    open_deploy(page)
    fill(page, page.get_by_label("Host name"), "Wolfmother")
    fill(page, page.get_by_label("Attack dice"), "5")
    tap(page, button(page, "Deploy"))
    expect(by_id(page, "klaw-form-error")).to_contain_text("Attack dice must be between 1 and 3 (got 5)")
    fill(page, page.get_by_label("Attack dice"), "3")
    fill(page, page.get_by_label("Defense dice"), "2")
    fill(page, page.get_by_label("Life", exact=True), "10")
    tap(page, button(page, "Deploy"))
    expect(by_id(page, "klaw-life-1")).to_have_text("10")
    expect(by_id(page, "klaw-badges-1")).to_contain_text("Protected until the end of Ana's turn in round 2")
    tap(page, button(page, "End turn and draw 1 card"))
    expect(by_id(page, "klaw-turn")).to_have_text("Round 1 · Reveal · Bo's turn")
    deploy(page, "Raven", "2", "2", "8")
    expect(by_id(page, "klaw-life-2")).to_have_text("8")
    settled_screenshot(page, artifacts / "klaw-deployed-phone.png")
    tap(page, button(page, "End turn and draw 1 card"))

    # Round 2, fortify: both pass; round 3 is regular play.
    expect(by_id(page, "klaw-turn")).to_have_text("Round 2 · Fortify · Ana's turn")
    tap(page, page.get_by_role("button", name=re.compile(r"^Pass and draw 1 card")))
    expect(by_id(page, "klaw-turn")).to_have_text("Round 2 · Fortify · Bo's turn")
    tap(page, page.get_by_role("button", name=re.compile(r"^Pass and draw 1 card")))
    expect(by_id(page, "klaw-turn")).to_have_text("Round 3 · Ana's turn")

    # Attack: the odds are shown for the pair before committing.
    tap(page, button(page, "Attack…"))
    expect(page.get_by_text(re.compile(r"Win chance: attacker wins \d+%"))).to_be_visible()
    settled_screenshot(page, artifacts / "klaw-attack-dialog-phone.png")
    tap(page, button(page, "Attack Raven"))
    expect(by_id(page, "klaw-odds")).to_contain_text(re.compile(r"Chance from here: Wolfmother wins \d+%, Raven wins"))
    # The panel says who attacks in this exchange; the roles swap after it.
    expect(by_id(page, "klaw-attacks-now")).to_have_text("Exchange 1: Wolfmother (Ana) attacks, Raven (Bo) defends.")
    roll = page.get_by_role("button", name=re.compile(r"^Roll exchange 1: 3 vs 2 dice"))
    tap(page, roll)
    expect(by_id(page, "klaw-exchange")).to_contain_text(re.compile(r"Raven takes \d, Wolfmother takes \d"))
    expect(page.get_by_role("button", name=re.compile(r"^Roll exchange 2: 2 vs 2 dice"))).to_be_visible()
    expect(by_id(page, "klaw-attacks-now")).to_have_text("Exchange 2: Raven (Bo) attacks, Wolfmother (Ana) defends.")
    expect(by_id(page, "history")).to_contain_text("Exchange 1: Wolfmother attacks")
    settled_screenshot(page, artifacts / "klaw-exchange-phone.png")

    # Undo the roll: the fight waits for exchange 1 again, the life is back.
    tap(page, page.get_by_role("button", name="Undo: combat roll, Wolfmother attacks Raven", exact=True))
    expect(roll).to_be_visible()
    expect(by_id(page, "klaw-exchange")).to_have_count(0)
    expect(by_id(page, "klaw-life-2")).to_have_text("8")

    page.reload()
    expect(page.get_by_role("button", name=re.compile(r"^Roll exchange 1: 3 vs 2 dice"))).to_be_visible()
    expect(by_id(page, "klaw-attacks-now")).to_have_text("Exchange 1: Wolfmother (Ana) attacks, Raven (Bo) defends.")
    expect(by_id(page, "klaw-life-2")).to_have_text("8")
    expect(by_id(page, "klaw-turn")).to_have_text("Round 3 · Ana's turn")
    expect(by_id(page, "history")).to_contain_text("attacks Raven (Bo)")

    # Instead of rolling, Wolfmother's side plays a support host from the hand: the tables turn.
    # (opening a dialog: a tap Flutter drops right after the reload's redraw is tapped again)
    tap_until(page, page.get_by_role("button", name="Flee or heal instead…"),
              page.get_by_role("switch", name="Play a support host from the hand"))
    tap(page, page.get_by_role("switch", name="Play a support host from the hand"))
    fill(page, page.get_by_label("Support host name"), "Cub")
    settled_screenshot(page, artifacts / "klaw-support-dialog-phone.png")
    tap(page, button(page, "Do it"))
    expect(by_id(page, "klaw-life-3")).to_have_text("6")
    expect(by_id(page, "klaw-badges-3")).to_contain_text("Support host")
    expect(page.get_by_role("button", name=re.compile(r"^Roll exchange 1: 2 vs 2 dice"))).to_be_visible()
    expect(by_id(page, "klaw-attacks-now")).to_have_text("Exchange 1: Raven (Bo) attacks, Wolfmother (Ana) defends.")
    context.close()


def physical_dice(page, why: str, faces: list[int]) -> None:
    """The frame's "Waiting for dice" card asks for the roll the rules reached (`why` names it): tap
    each face on its dice pad (`face N`), then use them."""
    expect(by_id(page, "pending-dice")).to_be_visible()
    expect(by_id(page, "pending-why")).to_contain_text(why)
    for face in faces:
        tap(page, button(page, f"face {face}"))
    expect(page.get_by_text(f"{len(faces)} of {len(faces)} entered")).to_be_visible()
    tap(page, button(page, "Use these dice"))
    expect(by_id(page, "pending-why").filter(has_text=why)).to_have_count(0)  # the action went on


def test_fight_to_a_fall_totems_items_poison_reload(browser, server, artifacts):
    """Two players deploy, a totem is attached (a first totem's check can't fail: no die is asked for,
    issue #30), a fight with physical dice ends in a fall, the totem and the item move to the winner,
    whose singularity check (one totem) passes without a die too; a poison ticks on the next turn and
    wins; reload keeps it. (A check that can fail waits for the table's die: tests/games.)"""
    context, page = open_phone(browser, server)
    tap(page, page.get_by_role("button", name="New campaign"))
    tap(page, page.get_by_role("radio", name="KLAW: Were-Wars"))
    fill(page, page.get_by_label("Campaign name"), "Were fall")
    fill(page, page.get_by_label("Player 1 name"), "Ana")
    fill(page, page.get_by_label("Player 2 name"), "Bo")
    tap(page, page.get_by_role("button", name="Create and open"))
    expect(by_id(page, "klaw-turn")).to_have_text("Round 1 · Reveal · Ana's turn")

    # Bad input: a life outside 6–12 is refused with the range, nothing is deployed.
    open_deploy(page)
    fill(page, page.get_by_label("Host name"), "Wolfmother")
    fill(page, page.get_by_label("Attack dice"), "3")
    fill(page, page.get_by_label("Defense dice"), "1")
    fill(page, page.get_by_label("Life", exact=True), "13")
    tap(page, button(page, "Deploy"))
    expect(by_id(page, "klaw-form-error")).to_contain_text("Life must be between 6 and 12 (got 13)")
    fill(page, page.get_by_label("Life", exact=True), "6")
    tap(page, button(page, "Deploy"))
    expect(by_id(page, "klaw-life-1")).to_have_text("6")
    tap(page, button(page, "End turn and draw 1 card"))
    expect(by_id(page, "klaw-turn")).to_have_text("Round 1 · Reveal · Bo's turn")
    deploy(page, "Raven", "3", "3", "12")
    expect(by_id(page, "klaw-life-2")).to_have_text("12")
    tap(page, button(page, "End turn and draw 1 card"))
    expect(by_id(page, "klaw-turn")).to_have_text("Round 2 · Fortify · Ana's turn")

    # From here the table rolls physical dice: the app asks for the faces.
    tap(page, page.get_by_role("switch", name=re.compile("I roll physical dice")))

    # Fortify: Ana attaches a totem; the form says its check can't fail, so the table rolls no die.
    tap(page, button(page, "Totem"))
    expect(by_id(page, "klaw-check")).to_contain_text(
        "Wolfmother will carry 1 totem: its singularity check passes without a die (the lowest roll already "
        "reaches 1).")
    fill(page, page.get_by_label("Totem name"), "Moon")
    fill(page, page.get_by_label("Attack modifier"), "1")
    tap(page, button(page, "Attach"))
    expect(by_id(page, "klaw-attack-1")).to_contain_text("4")
    expect(by_id(page, "pending-dice")).to_have_count(0)
    expect(by_id(page, "klaw-last")).to_contain_text(
        "Singularity check for Wolfmother (1 totem): passed without a die — the lowest roll, 1, already reaches 1.")
    tap(page, button(page, "End turn and draw 1 card"))
    expect(by_id(page, "klaw-turn")).to_have_text("Round 2 · Fortify · Bo's turn")
    tap(page, page.get_by_role("button", name=re.compile(r"^Pass and draw 1 card")))
    expect(by_id(page, "klaw-turn")).to_have_text("Round 3 · Ana's turn")

    # Round 3: Ana gives Wolfmother an item; Bo attacks it.
    tap(page, button(page, "Item"))
    fill(page, page.get_by_label("Item name"), "Claw")
    tap(page, button(page, "Add item"))
    expect(by_id(page, "klaw-items-1")).to_contain_text("Items (1 of 2)")
    tap(page, button(page, "End turn and draw 1 card"))
    expect(by_id(page, "klaw-turn")).to_have_text("Round 3 · Bo's turn")
    tap(page, button(page, "Attack…"))
    tap(page, button(page, "Attack Wolfmother"))
    tap(page, page.get_by_role("button", name=re.compile(r"^Roll exchange 1: 3 vs 1 dice")))
    # Each side's owner rolls its own dice: Bo's three attack dice, then Ana's defense die.
    expect(by_id(page, "pending-why")).to_contain_text("Bo rolls. For Raven's attack on Wolfmother, exchange 1.")
    settled_screenshot(page, artifacts / "klaw-attack-dice-phone.png")
    physical_dice(page, "Raven's attack on Wolfmother, exchange 1", [6, 6, 6])
    expect(by_id(page, "pending-why")).to_contain_text("Ana rolls. For Wolfmother's defense against Raven, exchange 1.")
    physical_dice(page, "Wolfmother's defense against Raven, exchange 1", [1])
    expect(by_id(page, "klaw-exchange")).to_have_text("Wolfmother takes 3, Raven takes 0.")
    expect(by_id(page, "klaw-life-1")).to_have_text("3")
    settled_screenshot(page, artifacts / "klaw-fight-phone.png")
    # Wolfmother strikes back with 4 dice (3 + Moon): three 1s blocked by three 6s: it falls at 0.
    tap(page, page.get_by_role("button", name=re.compile(r"^Roll exchange 2: 4 vs 3 dice")))
    physical_dice(page, "Wolfmother's attack on Raven, exchange 2", [1, 1, 1, 1])
    physical_dice(page, "Raven's defense against Wolfmother, exchange 2", [6, 6, 6])
    # Raven wins and absorbs Moon: one totem, a check no face can fail: no die asked of Bo.
    expect(by_id(page, "pending-dice")).to_have_count(0)
    expect(by_id(page, "klaw-exchange")).to_have_text("Raven takes 1, Wolfmother takes 3.")
    last = by_id(page, "klaw-last")
    expect(last).to_contain_text("Wolfmother (Ana) falls at 0 life: Raven (Bo) wins the fight.")
    expect(last).to_contain_text("Bo takes Wolfmother's items (Claw) into hand: 9 cards, over the limit of 8")
    expect(last).to_contain_text("Raven absorbs Moon")
    expect(last).to_contain_text("Singularity check for Raven (1 totem): passed without a die")
    expect(by_id(page, "klaw-life-1")).to_have_count(0)
    expect(by_id(page, "klaw-life-2")).to_have_text("11")
    expect(by_id(page, "klaw-attack-2")).to_contain_text("4")
    expect(by_id(page, "klaw-totems-2")).to_have_text("Totems (1): Moon")
    expect(by_id(page, "klaw-badges-2")).to_contain_text("Resting until")
    expect(by_id(page, "klaw-hand-1")).to_have_text("8")
    settled_screenshot(page, artifacts / "klaw-fall-phone.png")
    tap(page, button(page, "End turn (no card drawn after a combat)"))
    expect(by_id(page, "klaw-turn")).to_have_text("Round 4 · Ana's turn")

    # Ana, host-less, poisons Raven and ends the turn without drawing; at the start of Bo's turn the
    # poison ticks (−1), and Bo wins: a full round passed with no new host for Ana.
    tap(page, button(page, "Instant"))
    tap(page, page.get_by_role("radio", name="Poisoned"))
    tap(page, button(page, "Apply"))
    expect(by_id(page, "klaw-badges-2")).to_contain_text("Poisoned · until cured")
    expect(by_id(page, "klaw-life-2")).to_have_text("11")
    tap(page, by_id(page, "klaw-no-draw"))
    expect(by_id(page, "klaw-last")).to_contain_text("Ana ends the turn without drawing.")
    expect(by_id(page, "klaw-last")).to_contain_text("Raven (Bo) is Poisoned: −1 life → 10")
    expect(by_id(page, "klaw-life-2")).to_have_text("10")
    expect(by_id(page, "klaw-turn")).to_have_text("Bo wins")
    settled_screenshot(page, artifacts / "klaw-poison-win-phone.png")

    page.reload()
    expect(by_id(page, "klaw-turn")).to_have_text("Bo wins")
    expect(by_id(page, "klaw-life-2")).to_have_text("10")
    expect(by_id(page, "klaw-totems-2")).to_have_text("Totems (1): Moon")
    expect(by_id(page, "klaw-badges-2")).to_contain_text("Poisoned")
    expect(by_id(page, "history")).to_contain_text("Wolfmother (Ana) falls at 0 life")
    expect(by_id(page, "history")).to_contain_text("Singularity check for Raven (1 totem): passed without a die")
    context.close()


def both_phones(page, artifacts, name: str, locator) -> None:
    shared_both_phones(page, locator, lambda tag: settled_screenshot(page, artifacts / f"klaw-{name}-{tag}.png"))


def says(page, locator, pattern: str, timeout: float = 10.0) -> None:
    """The control's words match `pattern`, whether Flutter put them in its node's label (a merged
    group, as a Column of Texts is) or in its text."""
    deadline = time.monotonic() + timeout
    while True:
        words = f"{locator.get_attribute('aria-label') or ''} {locator.inner_text()}"
        if re.search(pattern, words):
            return
        assert time.monotonic() < deadline, f"{words!r} doesn't match {pattern!r}"
        page.wait_for_timeout(150)


def inside(page, locator) -> None:
    """The control lies within the phone's width (nothing of it cut off at the right edge)."""
    box = locator.bounding_box()
    assert box and box["x"] >= 0 and box["x"] + box["width"] <= page.viewport_size["width"], box


def test_who_attacks_now_and_the_wild_die_on_a_small_phone(browser, server, artifacts):
    """At 360×740: the Protected badge wraps instead of being cut off; in a fight the panel says which
    host attacks now (the roles swap each exchange); six attack dice are entered with the golden
    (wild) die first, and the exchange shows it marked; undo names the hosts."""
    context, page = open_phone(browser, server, viewport=SMALL_PHONE)
    tap(page, page.get_by_role("button", name="New campaign"))
    tap(page, page.get_by_role("radio", name="KLAW: Were-Wars"))
    fill(page, page.get_by_label("Campaign name"), "Were narrow")
    fill(page, page.get_by_label("Player 1 name"), "Ana")
    fill(page, page.get_by_label("Player 2 name"), "Bo")
    tap(page, page.get_by_role("button", name="Create and open"))
    deploy(page, "Wolfmother", "3", "2", "10")
    badge = by_id(page, "klaw-badges-1")
    expect(badge).to_contain_text("Protected until the end of Ana's turn in round 2")
    inside(page, badge)
    inside(page, badge.get_by_text(re.compile("^Protected until")))
    both_phones(page, artifacts, "badge", by_id(page, "klaw-player-0"))
    tap(page, button(page, "End turn and draw 1 card"))
    deploy(page, "Raven", "2", "3", "12")
    expect(by_id(page, "klaw-life-2")).to_have_text("12")
    tap(page, button(page, "End turn and draw 1 card"))

    # Fortify, at a table rolling physical dice: Ox gives Wolfmother six attack dice.
    expect(by_id(page, "klaw-turn")).to_have_text("Round 2 · Fortify · Ana's turn")
    tap(page, page.get_by_role("switch", name=re.compile("I roll physical dice")))
    tap(page, button(page, "Totem"))
    fill(page, page.get_by_label("Totem name"), "Ox")
    fill(page, page.get_by_label("Attack modifier"), "3")
    tap(page, button(page, "Attach"))  # a first totem: no die asked for
    expect(by_id(page, "klaw-attack-1")).to_contain_text("6")
    tap(page, button(page, "End turn and draw 1 card"))
    tap(page, page.get_by_role("button", name=re.compile(r"^Pass and draw 1 card")))
    expect(by_id(page, "klaw-turn")).to_have_text("Round 3 · Ana's turn")

    tap(page, button(page, "Attack…"))
    tap(page, button(page, "Attack Raven"))
    expect(by_id(page, "klaw-attacks-now")).to_have_text("Exchange 1: Wolfmother (Ana) attacks, Raven (Bo) defends.")
    says(page, by_id(page, "klaw-fighter-1"), r"^Attacks now\s+Wolfmother")
    says(page, by_id(page, "klaw-fighter-2"), r"^Defends now\s+Raven")
    both_phones(page, artifacts, "attacks-now", by_id(page, "klaw-turn"))

    # The dice pad says which die to enter first: the golden one, the wild die.
    tap(page, page.get_by_role("button", name=re.compile(r"^Roll exchange 1: 6 vs 3 dice")))
    expect(by_id(page, "pending-why")).to_contain_text("with a wild die (enter the golden die first)")
    both_phones(page, artifacts, "wild-die-pad", by_id(page, "pending-dice"))
    physical_dice(page, "Wolfmother's attack on Raven, exchange 1", [6, 1, 1, 1, 1, 1])
    physical_dice(page, "Raven's defense against Wolfmother, exchange 1", [5, 5, 5])
    # A wild 6: all six count as 6. The exchange shows the dice as rolled, the wild one marked.
    expect(by_id(page, "klaw-exchange")).to_have_text("Raven takes 6, Wolfmother takes 0.")
    says(page, by_id(page, "klaw-wild"), r"6\s+wild")
    expect(by_id(page, "klaw-wild-effect")).to_have_text("Wild die 6: exceptional success, all six dice count as 6.")
    expect(by_id(page, "history")).to_contain_text("Attack rolled 6 (wild), 1, 1, 1, 1, 1, defense rolled 5, 5, 5.")
    # The roles have swapped, and undo names the hosts.
    expect(by_id(page, "klaw-attacks-now")).to_have_text("Exchange 2: Raven (Bo) attacks, Wolfmother (Ana) defends.")
    says(page, by_id(page, "klaw-fighter-2"), r"^Attacks now\s+Raven")
    expect(page.get_by_role("button", name="Undo: dice for combat roll, Wolfmother attacks Raven: 5, 5, 5",
                            exact=True)).to_be_visible()
    both_phones(page, artifacts, "wild-die-exchange", by_id(page, "klaw-wild"))
    context.close()


def new_game(page, name: str) -> None:
    tap(page, page.get_by_role("button", name="New campaign"))
    tap(page, page.get_by_role("radio", name="KLAW: Were-Wars"))
    fill(page, page.get_by_label("Campaign name"), name)
    fill(page, page.get_by_label("Player 1 name"), "Ana")
    fill(page, page.get_by_label("Player 2 name"), "Bo")
    tap(page, page.get_by_role("button", name="Create and open"))
    expect(by_id(page, "klaw-turn")).to_have_text("Round 1 · Reveal · Ana's turn")


def test_hosts_and_totems_entered_once_are_one_tap_in_the_next_game(browser, server, artifacts):
    """Issue #30 item 7: the hosts and the totem typed in one game are kept in the table's catalog by
    name; in the next game each is one tap from the form's list, and the cards screen lists them."""
    context, page = open_phone(browser, server)
    new_game(page, "First night")
    deploy(page, "Wolfmother", "3", "1", "6")
    expect(by_id(page, "klaw-life-1")).to_have_text("6")
    tap(page, button(page, "End turn and draw 1 card"))
    deploy(page, "Raven", "3", "3", "12")
    expect(by_id(page, "klaw-life-2")).to_have_text("12")
    tap(page, button(page, "End turn and draw 1 card"))
    tap(page, button(page, "Totem"))
    fill(page, page.get_by_label("Totem name"), "Moon")
    fill(page, page.get_by_label("Attack modifier"), "1")
    tap(page, button(page, "Attach"))
    expect(by_id(page, "klaw-totems-1")).to_have_text("Totems (1): Moon")

    page.goto(server["base"])  # home: the next game at the same table
    new_game(page, "Second night")
    open_deploy(page)
    pick = page.get_by_role("button", name=re.compile("^Deploy Wolfmother"))
    expect(pick).to_contain_text("Wolfmother · 3 att / 1 def · life 6")
    settled_screenshot(page, artifacts / "klaw-remembered-hosts-phone.png")
    tap(page, pick)  # one tap deploys it
    expect(by_id(page, "klaw-life-1")).to_have_text("6")
    tap(page, button(page, "End turn and draw 1 card"))
    open_deploy(page)
    tap(page, page.get_by_role("button", name=re.compile("^Deploy Raven")))
    expect(by_id(page, "klaw-life-2")).to_have_text("12")
    tap(page, button(page, "End turn and draw 1 card"))
    expect(by_id(page, "klaw-turn")).to_have_text("Round 2 · Fortify · Ana's turn")
    tap(page, button(page, "Totem"))
    attach = page.get_by_role("button", name=re.compile("^Attach Moon"))
    expect(attach).to_contain_text("Moon (+1 att, +0 def, +0 life)")
    shots = []
    shared_both_phones(page, attach, lambda tag: shots.append(
        settled_screenshot(page, artifacts / f"klaw-remembered-totem-{tag}.png")))
    tap(page, attach)  # one tap attaches it (the check: one totem, any face passes)
    expect(by_id(page, "klaw-totems-1")).to_have_text("Totems (1): Moon")
    expect(by_id(page, "klaw-attack-1")).to_contain_text("4")

    # The cards screen lists what the table entered, to share or forget.
    page.goto(f"{server['base']}g/klaw/cards")
    expect(page.get_by_role("group", name=re.compile(r"^Hosts \(2\) Raven Wolfmother"))).to_be_visible()
    expect(page.get_by_role("group", name=re.compile(r"^Totems \(1\) Moon"))).to_be_visible()
    settled_screenshot(page, artifacts / "klaw-cards-screen-phone.png")
    context.close()


def test_after_each_action_of_a_played_turn_the_next_step_is_on_screen(browser, server, artifacts):
    """Issue #30 item 6: after every action of a played game at 412×915 the next control to tap is
    already on screen (no swipe): End turn after a deploy, the fortify pass, Attack…, each exchange's
    roll, the physical dice asked for, and the next End turn."""
    from tests.browser import on_screen

    context, page = open_phone(browser, server)
    new_game(page, "In view")

    def next_tap(locator, after: str) -> None:
        if not on_screen(page, locator):
            page.screenshot(path=str(artifacts / "klaw-not-in-view.png"))
            raise AssertionError(f"after {after}: {locator} is not on screen")
        tap(page, locator)

    deploy(page, "Wolfmother", "3", "2", "10")
    expect(by_id(page, "klaw-life-1")).to_have_text("10")
    next_tap(button(page, "End turn and draw 1 card"), "a deploy")
    deploy(page, "Raven", "2", "2", "8")
    expect(by_id(page, "klaw-life-2")).to_have_text("8")
    next_tap(button(page, "End turn and draw 1 card"), "the second deploy")
    expect(by_id(page, "klaw-turn")).to_have_text("Round 2 · Fortify · Ana's turn")
    next_tap(page.get_by_role("button", name=re.compile(r"^Pass and draw 1 card")), "the end of round 1")
    expect(by_id(page, "klaw-turn")).to_have_text("Round 2 · Fortify · Bo's turn")
    next_tap(page.get_by_role("button", name=re.compile(r"^Pass and draw 1 card")), "Ana's pass")
    expect(by_id(page, "klaw-turn")).to_have_text("Round 3 · Ana's turn")
    tap(page, page.get_by_role("switch", name=re.compile("I roll physical dice")))
    next_tap(button(page, "Attack…"), "switching physical dice on")
    tap(page, button(page, "Attack Raven"))
    next_tap(page.get_by_role("button", name=re.compile(r"^Roll exchange 1")), "the attack")
    expect(by_id(page, "pending-dice")).to_be_visible()
    next_tap(button(page, "face 6"), "the roll (the attack dice asked for)")
    settled_screenshot(page, artifacts / "klaw-dice-in-view-phone.png")
    context.close()
