"""KLAW: Were-Wars end to end at phone size: set up two players, deploy a host each (a bad number
refused first), pass the starting and fortify rounds, attack with the odds shown, roll an exchange,
undo it, reload: the fight is still waiting for its first roll; then a support host is played instead
of rolling."""

import re

import pytest
from playwright.sync_api import expect

from tests.browser import PHONE, by_id, served, settled_screenshot, tap, tap_until, type_into, open_app


@pytest.fixture
def server(tmp_path):
    with served(f"sqlite:///{tmp_path / 'klaw.sqlite'}", token="klaw-token", extra_env={"COMPANION_SEED": "7"}) as s:
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
    expect(by_id(page, "klaw-form-error")).to_contain_text("Host attack must be between 1 and 3")
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
    expect(by_id(page, "klaw-odds")).to_contain_text("Chance from here")
    roll = page.get_by_role("button", name=re.compile(r"^Roll exchange 1: Wolfmother 3 vs Raven 2"))
    tap(page, roll)
    expect(by_id(page, "klaw-exchange")).to_contain_text(re.compile(r"Raven takes \d, Wolfmother takes \d"))
    expect(page.get_by_role("button", name=re.compile(r"^Roll exchange 2: Raven 2 vs Wolfmother 2"))).to_be_visible()
    expect(by_id(page, "history")).to_contain_text("Exchange 1: Wolfmother strikes")
    settled_screenshot(page, artifacts / "klaw-exchange-phone.png")

    # Undo the roll: the fight waits for exchange 1 again, the life is back.
    tap(page, page.get_by_role("button", name="Undo: combat roll"))
    expect(roll).to_be_visible()
    expect(by_id(page, "klaw-exchange")).to_have_count(0)
    expect(by_id(page, "klaw-life-2")).to_have_text("8")

    page.reload()
    expect(page.get_by_role("button", name=re.compile(r"^Roll exchange 1: Wolfmother 3 vs Raven 2"))).to_be_visible()
    expect(by_id(page, "klaw-life-2")).to_have_text("8")
    expect(by_id(page, "klaw-turn")).to_have_text("Round 3 · Ana's turn")
    expect(by_id(page, "history")).to_contain_text("attacks Raven (Bo)")

    # Instead of rolling, Wolfmother's side plays a support host from the hand: the tables turn.
    tap(page, page.get_by_role("button", name="Wolfmother: flee or heal instead…"))
    tap(page, page.get_by_role("switch", name="Play a support host from the hand"))
    fill(page, page.get_by_label("Support host name"), "Cub")
    settled_screenshot(page, artifacts / "klaw-support-dialog-phone.png")
    tap(page, button(page, "Do it"))
    expect(by_id(page, "klaw-life-3")).to_have_text("6")
    expect(by_id(page, "klaw-badges-3")).to_contain_text("Support host")
    expect(page.get_by_role("button", name=re.compile(r"^Roll exchange 1: Raven 2 vs Wolfmother 2"))).to_be_visible()
    context.close()


def physical_dice(page, count: int, faces: str) -> None:
    """The app asks for the faces of physical dice: type them and use them."""
    field = page.get_by_label(re.compile(rf"^{count} × d6: the faces you rolled"))
    fill(page, field, faces)
    expect(field).to_have_value(faces)
    tap(page, button(page, "Use these dice"))


def test_fight_to_a_fall_totems_items_poison_reload(browser, server, artifacts):
    """Two players deploy, a totem is attached (check rolled), a fight with typed dice ends in a fall,
    the totem and the item move to the winner, a poison ticks on the next turn and wins; reload keeps it."""
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
    expect(by_id(page, "klaw-form-error")).to_contain_text("Host life must be between 6 and 12 (got 13)")
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

    # Fortify: Ana attaches a totem; the singularity check (1 totem) is rolled: a 4.
    tap(page, button(page, "Totem"))
    expect(page.get_by_text(re.compile(r"Singularity check: Wolfmother will carry 1 totem"))).to_be_visible()
    fill(page, page.get_by_label("Totem name"), "Moon")
    fill(page, page.get_by_label("Attack", exact=True), "1")
    tap(page, button(page, "Attach"))
    physical_dice(page, 1, "4")
    expect(by_id(page, "klaw-attack-1")).to_contain_text("4")
    expect(by_id(page, "klaw-last")).to_contain_text("Singularity check for Wolfmother (1 totem): rolled 4 ≥ 1, passed.")
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
    tap(page, page.get_by_role("button", name=re.compile(r"^Roll exchange 1: Raven 3 vs Wolfmother 1")))
    # A face off the die is refused in the dice dialog; then 6 6 6 against a 1: Wolfmother −3.
    field = page.get_by_label(re.compile(r"^4 × d6: the faces you rolled"))
    fill(page, field, "6 6 6 7")
    tap(page, button(page, "Use these dice"))
    expect(by_id(page, "dialog-error")).to_contain_text("Type 4 whole numbers from 1 to 6")
    fill(page, field, "6 6 6 1")
    expect(field).to_have_value("6 6 6 1")
    tap(page, button(page, "Use these dice"))
    expect(by_id(page, "klaw-exchange")).to_have_text("Wolfmother takes 3, Raven takes 0.")
    expect(by_id(page, "klaw-life-1")).to_have_text("3")
    settled_screenshot(page, artifacts / "klaw-fight-phone.png")
    # Wolfmother strikes back with 4 dice (3 + Moon): three 1s blocked by three 6s: it falls at 0.
    tap(page, page.get_by_role("button", name=re.compile(r"^Roll exchange 2: Wolfmother 4 vs Raven 3")))
    physical_dice(page, 7, "1 1 1 1 6 6 6")
    expect(by_id(page, "klaw-exchange")).to_have_text("Raven takes 1, Wolfmother takes 3.")
    last = by_id(page, "klaw-last")
    expect(last).to_contain_text("Wolfmother (Ana) falls at 0 life: Raven (Bo) wins the fight.")
    expect(last).to_contain_text("Bo takes Wolfmother's items (Claw) into hand: 9 cards, over the limit of 8")
    expect(last).to_contain_text("Raven absorbs Moon")
    expect(last).to_contain_text("Singularity check for Raven (1 totem)")
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
    context.close()
