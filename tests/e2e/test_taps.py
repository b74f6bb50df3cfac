"""No tap is lost (#16): two phones tap the same button at the same moment, 30 times. Every tap is
either applied or answered on that phone with a message saying nothing was done; the messages are
counted in what the server sent each phone (its websocket frames), the applied taps on the counter."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from companion.games.counter.rules import Add
from tests.browser import by_id, open_app, served, settle, wait_steady
from tests.helpers import file_store

ROUNDS = 30
REFUSALS = (b"acted first", b"changed as you tapped")


@pytest.fixture
def campaign(tmp_path):
    store = file_store(tmp_path, "taps.sqlite")
    cid = store.create("counter", "Both at once", {"cap": 1000}, seed=2)
    store.apply(cid, Add(amount=1), expected_cursor=0)
    store.db.close()
    with served(f"sqlite:///{tmp_path / 'taps.sqlite'}") as server:
        server["saved"] = lambda: file_store(tmp_path, "taps.sqlite").load(cid).game_state.value
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


def test_two_phones_tapping_the_same_button_at_once_lose_no_tap(browser, campaign):
    server, cid = campaign
    refused_a, refused_b = [], []
    (ca, a), (cb, b) = phone(browser, server, cid, refused_a), phone(browser, server, cid, refused_b)
    spots = []
    for p in (a, b):  # where a finger taps "Value +1" on each phone (the same place all along)
        box = wait_steady(p, p.get_by_role("button", name="Value +1"))
        spots.append((box["x"] + box["width"] / 2, box["y"] + box["height"] / 2))
    for _ in range(ROUNDS):
        before = value(a)
        for p, (x, y) in zip((a, b), spots):  # both taps leave within a few ms of each other
            p.mouse.click(x, y)
        # one of the two always applies: wait for it before the next round
        expect(by_id(a, "counter-value")).not_to_have_text(str(before), timeout=10_000)
    # Settle: the save stops changing, every message arrives, and both phones show what is saved.
    saved = server["saved"]()
    for _ in range(50):
        a.wait_for_timeout(200)
        now = server["saved"]()
        if now == saved and value(a) - 1 + len(refused_a) + len(refused_b) >= 2 * ROUNDS:
            break
        saved = now
    for p in (a, b):
        expect(by_id(p, "counter-value")).to_have_text(str(saved), timeout=10_000)
    applied, refused = saved - 1, len(refused_a) + len(refused_b)
    print(f"{applied} applied, {refused} refused with a message")
    assert applied + refused == 2 * ROUNDS, f"{applied} applied + {refused} refused of {2 * ROUNDS} taps"
    assert applied >= ROUNDS  # at least one tap of each round counts
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
