"""One tap, one action (#16, #28): two phones tap at the same moment, 30 times, the same button (and, in
another run, two different buttons). Each tap is applied against what its phone showed: in every round
exactly one is applied, and the other phone is told in words that it lost and to whom. The messages
are counted in what the server sent each phone (its websocket frames) and seen on the losing phone;
the applied taps are counted in the save's log."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from companion.games.counter.rules import Add
from tests.browser import by_id, open_app, served, settle, wait_steady
from tests.helpers import file_store

ROUNDS = 30
# The words of a tap refused because its phone showed an older state (companion.live.lost_to), and of
# one on a control a redraw had replaced (companion.app.GONE_TAP).
REFUSALS = (b"just before you", b"had just changed the screen", b"changed just before your tap",
            b"changed as you tapped")
SHOWN = re.compile("just before you|had just changed the screen|changed just before your tap|changed as you tapped")


@pytest.fixture
def campaign(tmp_path):
    store = file_store(tmp_path, "taps.sqlite")
    cid = store.create("counter", "Both at once", {"cap": 1000}, seed=2)
    store.apply(cid, Add(amount=1), expected_cursor=0)
    store.db.close()
    with served(f"sqlite:///{tmp_path / 'taps.sqlite'}") as server:
        def saved() -> tuple[int, int]:  # (actions in the log after the first, the counter's value)
            loaded = file_store(tmp_path, "taps.sqlite").load(cid)
            return loaded.cursor - 1, loaded.game_state.value
        server["saved"] = saved
        yield server, cid


def phone(browser, server, cid, refusals: list):
    context, page = open_app(browser, server)

    def frame(payload):
        data = payload if isinstance(payload, bytes) else payload.encode()
        refusals.extend(m for m in REFUSALS if m in data)
    page.on("websocket", lambda ws: ws.on("framereceived", frame))
    page.goto(f"{server['base']}c/{cid}")
    expect(by_id(page, "counter-value")).to_have_text("1")
    settle(page)
    return context, page


def value(page) -> int:
    return int(re.search(r"\d+", by_id(page, "counter-value").text_content()).group())


def centre(page, name: str) -> tuple[float, float]:
    """Where a finger taps a button (the same place all along: a tap redraws only the track)."""
    box = wait_steady(page, page.get_by_role("button", name=name))
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def fingers_only(page) -> None:
    """From now on a click reaches Flutter as a finger's does on a phone (no screen reader): the
    semantics tree laid over the page (for the locators) would otherwise take it as a screen reader's
    tap, which Flutter's web engine holds back while it waits to tell the two apart, and delivers late,
    against whatever the screen shows by then."""
    page.evaluate("""() => { const s = document.createElement('style');
        s.textContent = 'flt-semantics { pointer-events: none !important; }'; document.head.appendChild(s); }""")


TAP_AT = """([x, y, at]) => setTimeout(() => {
    const target = document.elementFromPoint(x, y);
    const fire = (type, buttons) => target.dispatchEvent(new PointerEvent(type, {
        bubbles: true, cancelable: true, composed: true, pointerId: 1, pointerType: 'mouse', isPrimary: true,
        button: 0, buttons, clientX: x, clientY: y, view: window}));
    fire('pointerdown', 1);
    fire('pointerup', 0);
}, at - Date.now())"""


def at_once(taps, *, lead_ms: int = 300) -> None:
    """Each phone taps at one wall-clock moment, `lead_ms` from now (both pages share this machine's
    clock): the two taps leave within a millisecond or two of each other, before either phone can have
    been told of the other's. (Clicks sent one after the other from here reach the second phone after
    the first phone's tap has already redrawn it: the server answers faster than a browser is driven.)"""
    when = taps[0][0].evaluate("lead => Date.now() + lead", lead_ms)
    for page, (x, y) in taps:
        page.evaluate(TAP_AT, [x, y, when])
    taps[0][0].wait_for_timeout(max(0, when - taps[0][0].evaluate("Date.now()")))


def play_rounds(server, a, b, spots, refused_a: list, refused_b: list) -> tuple[int, int]:
    """ROUNDS rounds of two taps at once; after each, wait until the save, both phones and the message
    agree, and check that exactly one tap was applied and the other phone told. Returns (applied, refused)."""
    for n in range(1, ROUNDS + 1):
        lost_before = len(refused_a)
        at_once([(a, spots[0]), (b, spots[1])])
        for _ in range(100):  # the round is over when the loser's message has come and both show the save
            applied, now = server["saved"]()
            if len(refused_a) + len(refused_b) >= n and applied >= n and value(a) == now and value(b) == now:
                break
            a.wait_for_timeout(100)
        applied, refused = server["saved"]()[0], len(refused_a) + len(refused_b)
        assert (applied, refused) == (n, n), f"round {n}: {applied} applied, {refused} refused so far"
        if n in (1, ROUNDS):  # the words are on the losing phone's screen, not only sent to it
            loser = a if len(refused_a) > lost_before else b
            expect(loser.get_by_text(SHOWN).or_(loser.get_by_role("group", name=SHOWN)).first).to_be_visible(timeout=5_000)
    a.wait_for_timeout(1_500)  # nothing comes late: the save stays put and no further message arrives
    return server["saved"]()[0], len(refused_a) + len(refused_b)


@pytest.mark.parametrize("buttons", [("Value +1", "Value +1"), ("Value +1", "Roll a d6 onto it")],
                         ids=["same button", "two buttons"])
def test_two_phones_tapping_at_once_apply_exactly_one_tap_and_tell_the_other(browser, campaign, buttons):
    server, cid = campaign
    refused_a, refused_b = [], []
    (ca, a), (cb, b) = phone(browser, server, cid, refused_a), phone(browser, server, cid, refused_b)
    spots = centre(a, buttons[0]), centre(b, buttons[1])
    for p in (a, b):
        fingers_only(p)
    applied, refused = play_rounds(server, a, b, spots, refused_a, refused_b)
    print(f"{buttons}: {applied} applied, {refused} refused with a message "
          f"(phone a lost {len(refused_a)}, phone b {len(refused_b)})")
    assert (applied, refused) == (ROUNDS, ROUNDS)
    saved = server["saved"]()[1]
    for p in (a, b):
        expect(by_id(p, "counter-value")).to_have_text(str(saved), timeout=10_000)
    for c in (ca, cb):
        c.close()


def test_a_double_tap_on_a_stepper_counts_twice_or_says_why_and_never_errs(browser, campaign):
    server, cid = campaign
    refused: list = []
    errors: list = []
    context, page = phone(browser, server, cid, refused)
    page.on("websocket", lambda ws: ws.on("framereceived", lambda p: errors.extend(
        m for m in (b"Something went wrong", b"Error running app", b"Traceback")
        if m in (p if isinstance(p, bytes) else p.encode()))))
    page.reload()
    expect(by_id(page, "counter-value")).to_have_text("1")
    settle(page)
    for name in ("Value +1", "Value -1"):
        box = wait_steady(page, page.get_by_role("button", name=name))
        for _ in range(5):
            before, seen = value(page), len(refused)
            page.mouse.dblclick(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
            expect(by_id(page, "counter-value")).not_to_have_text(str(before))
            page.wait_for_timeout(300)
            moved = abs(value(page) - before)
            assert moved == 2 or (moved == 1 and len(refused) > seen), f"{name}: moved {moved}, no message"
    assert not errors
    context.close()
