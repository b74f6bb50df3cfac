"""KLAW: Were-Wars end to end at phone size: set up two players, deploy a host each (a bad number
refused first), pass the starting and fortify rounds, attack with the odds shown, roll an exchange,
undo it, reload: the fight is still waiting for its first roll."""

import re

import pytest
from playwright.sync_api import expect

from tests.browser import OPEN_PAGES, PHONE, by_id, new_context, served, settled_screenshot, tap, type_into


@pytest.fixture
def server(tmp_path):
    with served(f"sqlite:///{tmp_path / 'klaw.sqlite'}", token="klaw-token", extra_env={"COMPANION_SEED": "7"}) as s:
        yield s


def open_phone(browser, server, viewport=PHONE):
    context = new_context(browser, viewport=viewport)
    context.route(re.compile(r"^(?!http://127\.0\.0\.1).*"), lambda route: route.abort())
    page = context.new_page()
    OPEN_PAGES.append(page)
    page.goto(server["join"])
    expect(page.get_by_text("Table Companion").first).to_be_visible()
    return context, page


def fill(page, field, text: str) -> None:
    """type_into, after scrolling Flutter's view to the field (a bare click could hit what covers it)."""
    tap(page, field)
    type_into(field, text)


def button(page, name: str):
    return page.get_by_role("button", name=name, exact=True)


def deploy(page, name: str, attack: str, defense: str, life: str) -> None:
    tap(page, button(page, "Deploy a host"))
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
    tap(page, button(page, "Deploy a host"))
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
    context.close()
