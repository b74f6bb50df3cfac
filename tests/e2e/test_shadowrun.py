"""End to end, phone size: a Shadowrun: Singularis campaign — setup objectives, turn 1 from Objective
through the Credstick phase (interest +2 shown with its arithmetic), undo once, reload: the dashboard
is kept. Then Legwork (deploy, errand), a Shadowrun with damage allocated hit by hit, and the ledger."""

import re

import pytest
from playwright.sync_api import expect

from tests.browser import DESKTOP, OPEN_PAGES, by_id, new_context, served, settled_screenshot, tap, type_into

GAME = "Shadowrun: Singularis"


@pytest.fixture
def server(tmp_path):
    with served(f"sqlite:///{tmp_path / 'e2e.sqlite'}", token="e2e-token", extra_env={"COMPANION_SEED": "7"}) as s:
        yield s


def open_page(browser, server, viewport=None):
    context = new_context(browser, **({"viewport": viewport} if viewport else {}))
    context.route(re.compile(r"^(?!http://127\.0\.0\.1).*"), lambda route: route.abort())
    page = context.new_page()
    OPEN_PAGES.append(page)
    page.goto(server["join"])
    expect(page.get_by_text("Table Companion").first).to_be_visible()
    return context, page


def tap(page, locator):  # noqa: F811  (the shared tap, then a click only once the view stops moving)
    shared_tap_scroll(page, locator)
    last = None
    for _ in range(20):
        box = locator.bounding_box()
        if box and box == last:
            break
        last = box
        page.wait_for_timeout(100)
    locator.click()


def shared_tap_scroll(page, locator, bottom_margin: int = 100):
    locator.wait_for()
    viewport = page.viewport_size
    for _ in range(30):
        box = locator.bounding_box()
        if box and box["y"] >= 60 and box["y"] + box["height"] <= viewport["height"] - bottom_margin:
            return
        page.mouse.move(viewport["width"] / 2, viewport["height"] / 2)
        page.mouse.wheel(0, 250 if (box is None or box["y"] > 60) else -250)
        page.wait_for_timeout(120)


def button(page, name: str, exact: bool = False):
    return page.get_by_role("button", name=name, exact=exact)


def advance(page, to: str) -> None:
    target = button(page, f"Advance to {to}")
    expect(target).to_be_enabled()
    tap(page, target)
    expect(by_id(page, "sr-phase")).to_have_text(to)


def dashboard(page, **values) -> None:
    for key, value in values.items():
        expect(by_id(page, f"sr-{key}")).to_have_text(str(value))


def reach(page, locator):
    """Scroll Flutter's view until the control exists in the semantics tree (off-screen ones may not)."""
    for i in range(40):
        if locator.count():
            return locator
        page.mouse.move(page.viewport_size["width"] / 2, page.viewport_size["height"] / 2)
        page.mouse.wheel(0, 250 if i < 12 else -250)  # down first, then back up
        page.wait_for_timeout(120)
    return locator


def fill(page, label: str, text: str) -> None:
    # Flutter may merge the texts around a lone field into its name: match the label as one line of it.
    named = page.get_by_label(re.compile(rf"(^|\n){re.escape(label)}($|\n)"))
    field = reach(page, named.and_(page.locator("input, textarea")))
    tap(page, field)
    type_into(field, text)
    page.keyboard.press("Tab")  # leave the field, as a finger tapping the button does: its value is sent


def add_objective(page, name: str, rep: int) -> None:
    fill(page, "Objective name", name)
    fill(page, "Reputation", str(rep))
    tap(page, button(page, "Add objective"))
    expect(by_id(page, "sr-last")).to_contain_text(f"Objective {name} ({rep} rep)")


def test_turn_one_through_credstick_undo_reload(browser, server, artifacts):
    context, page = open_page(browser, server)
    tap(page, button(page, "New campaign"))
    tap(page, page.get_by_role("radio", name=GAME))
    type_into(page.get_by_label("Campaign name"), "Sprawl")
    expect(page.get_by_label("Die face 1: deck")).to_be_visible()
    settled_screenshot(page, artifacts / "shadowrun-setup-form-phone.png")
    tap(page, button(page, "Create and open"))

    # Setup: the loan paid out, one objective of each range.
    dashboard(page, loan=20, cash=20, interest=0, debt=20, rep=0, target=25, turn="Setup")
    add_objective(page, "Data steal", 5)
    add_objective(page, "Extraction", 15)
    add_objective(page, "Wetwork", 25)
    tap(page, button(page, "Start turn 1: Objective"))
    dashboard(page, turn="Turn 1", phase="Objective")

    # 1b: normal difficulty puts its one extra challenge on the highest value (25 → 3 + 1).
    tap(page, button(page, "Refresh the challenges (1b)"))
    expect(by_id(page, "sr-last")).to_contain_text("Extra challenge 1 of 1 (normal) → Wetwork")
    settled_screenshot(page, artifacts / "shadowrun-objective-phone.png")
    advance(page, "Refresh")
    tap(page, button(page, "Roll Luck of the Draw (2d6)"))
    expect(by_id(page, "sr-last")).to_contain_text("Luck of the Draw")
    advance(page, "Credstick 3a · Getting paid")
    tap(page, button(page, "Collect Mr Johnson's payment (+0)"))
    expect(by_id(page, "sr-last")).to_contain_text("Getting paid: nothing")
    advance(page, "Credstick 3b · Secondary income")
    advance(page, "Credstick 3c · Payroll")
    tap(page, button(page, "Pay the payroll (nothing due)"))
    advance(page, "Credstick 3d · Interest")
    tap(page, button(page, "Charge interest (+2)"))
    expect(by_id(page, "sr-interest-sums")).to_have_text("Interest +2: 10% of 20 = 2")
    dashboard(page, interest=2, debt=22, cash=20)
    advance(page, "Credstick 3e · Payment due")
    expect(by_id(page, "sr-payment-odds")).to_contain_text("Total debt 22: due on a d6 of 1–4")
    tap(page, button(page, "Roll: is payment due? (d6)"))
    expect(by_id(page, "sr-last")).to_contain_text("Payment due? Total debt 22 (20–29): due on 1–4.")
    settled_screenshot(page, artifacts / "shadowrun-payment-phone.png")

    # Undo the roll: back before it, the interest kept; reload: still there.
    tap(page, button(page, "Undo: payment-due roll"))
    expect(button(page, "Roll: is payment due? (d6)")).to_be_enabled()
    dashboard(page, interest=2, debt=22, cash=20, loan=20, phase="Credstick 3e · Payment due")
    page.reload()
    dashboard(page, loan=20, cash=20, interest=2, debt=22, rep=0, target=25, turn="Turn 1",
              phase="Credstick 3e · Payment due")
    expect(button(page, "Roll: is payment due? (d6)")).to_be_enabled()
    context.close()


def test_legwork_shadowrun_damage_and_the_ledger(browser, tmp_path, artifacts):
    """From a saved campaign at Legwork: deploy a runner through the form, a refused 7th-runner-style
    bad input, an errand, a Shadowrun whose damage is allocated hit by hit, then the ledger screen."""
    from companion.games.shadowrun import rules as R
    from tests.helpers import file_store

    store = file_store(tmp_path, "run.sqlite")
    cid = store.create("shadowrun", "Run night", {}, seed=7)
    setup = [R.AddObjective(name="Data steal", rep=5), R.AddObjective(name="Extraction", rep=15),
             R.AddObjective(name="Wetwork", rep=25), R.Advance(), R.RefreshChallenges()]
    setup += [R.Advance()] * 2 + [R.GetPaid(), R.Advance(), R.Advance(), R.Payroll(), R.Advance(),
                                  R.ChargeInterest(), R.Advance()]
    for n, action in enumerate(setup):
        store.apply(cid, action, expected_cursor=n)
    store.apply(cid, R.RollPaymentDue(), expected_cursor=len(setup), entered=[6])  # not due
    store.apply(cid, R.Advance(), expected_cursor=len(setup) + 1)
    store.apply(cid, R.Deploy(name="Ghost", cost=2, body=3), expected_cursor=len(setup) + 2)
    store.db.close()

    with served(f"sqlite:///{tmp_path / 'run.sqlite'}", token="e2e-token") as server:
        context, page = open_page(browser, server)
        page.goto(f"{server['base']}c/{cid}")
        dashboard(page, phase="Legwork", cash=18, interest=2, debt=22)

        # Deploy through the form; a bad cost is refused with its message and nothing changes.
        fill(page, "Card name", "Dodger")
        fill(page, "Cost", "30")
        fill(page, "Body", "4")
        tap(page, button(page, "Deploy (pay its cost)"))
        refusal = re.compile("Dodger costs 30 but you have 18 cash")
        expect(page.get_by_text(refusal).or_(page.get_by_label(refusal)).first).to_be_visible()
        dashboard(page, cash=18)
        fill(page, "Cost", "3")
        tap(page, button(page, "Deploy (pay its cost)"))
        expect(by_id(page, "sr-last")).to_contain_text("Deployed Dodger (runner) for 3: cash 15.")
        dashboard(page, cash=15)

        # An errand: Ghost turns and rolls.
        tap(page, button(page, "Errand: Ghost"))
        expect(by_id(page, "sr-last")).to_contain_text("Ghost runs an errand")
        if page.get_by_role("button", name="Take 6").count():
            tap(page, button(page, "Take 6"))
        advance(page, "Shadowrun")

        # The run: Dodger alone (Ghost is turned), one event, 13 damage allocated hit by hit.
        tap(page, button(page, "Start the Shadowrun"))
        expect(by_id(page, "sr-run")).to_contain_text("Events drawn 0 of 1")
        tap(page, button(page, "Roll for the event"))  # cost 0: always played
        expect(by_id(page, "sr-last")).to_contain_text("cost 0 or 1, played automatically")
        fill(page, "Challenge damage", "13")
        tap(page, button(page, "Allocate this damage"))
        expect(by_id(page, "sr-last")).to_contain_text("13 damage to allocate: each hit is 2d6")
        expect(by_id(page, "sr-damage")).to_contain_text("13 of 13 damage left")
        settled_screenshot(page, artifacts / "shadowrun-damage-phone.png")
        tap(page, button(page, "Hit Dodger (0/4)"))
        expect(by_id(page, "sr-last")).to_contain_text("Dodger takes the hit")
        expect(by_id(page, "sr-last")).to_contain_text("Dodger dies")
        dashboard(page, rep=-3)
        settled_screenshot(page, artifacts / "shadowrun-after-hit-phone.png")

        # The ledger: every line, a filter, the chart.
        tap(page, button(page, "Ledger"))
        expect(page.get_by_text("Debt and reputation by turn")).to_be_visible()
        expect(by_id(page, "sr-ledger")).to_contain_text("Interest: 10% of 20 = 2")
        expect(by_id(page, "sr-ledger")).to_contain_text("Dodger died (cost 3)")
        settled_screenshot(page, artifacts / "shadowrun-ledger-phone.png")
        tap(page, button(page, "Interest", exact=True))
        expect(by_id(page, "sr-ledger")).not_to_contain_text("Dodger died")
        expect(by_id(page, "sr-ledger")).to_contain_text("Interest: 10% of 20 = 2")
        tap(page, button(page, "Back to the table"))
        dashboard(page, rep=-3, phase="Shadowrun")
        context.close()
