"""Spoken turns (#33) in the browser: a phone switches "Read turns aloud" on in its settings, and the
page asks the browser's speechSynthesis (stubbed here: it records each utterance) to say the dice the
game waits for and what the throw did, in the phone's language; Repeat says it again; the next action
stops the talk first."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.browser import OPEN_PAGES, by_id, new_context, served, settled_screenshot, tap, type_into
from tests.e2e.test_save_the_singularity import enter_dice, step

# Before the app's script: a speechSynthesis that records what it is asked to say, and its cancels.
STUB_SPEECH = """
window.__utterances = []; window.__cancels = 0;
window.SpeechSynthesisUtterance = function (text) { this.text = text; this.lang = ''; this.voice = null; };
Object.defineProperty(window, 'speechSynthesis', {configurable: true, value: {
  speak: function (u) { if (u.text) window.__utterances.push({text: u.text, lang: u.lang}); },
  cancel: function () { window.__cancels += 1; },
  getVoices: function () { return []; },
  speaking: false, pending: false,
}});
"""


@pytest.fixture
def server(tmp_path):
    with served(f"sqlite:///{tmp_path / 'speech.sqlite'}", token="e2e-speech-token-0001",
                extra_env={"COMPANION_SEED": "7"}) as s:
        yield s


def said(page) -> list[str]:
    return [u["text"] for u in page.evaluate("window.__utterances")]


def test_a_phone_reads_the_dice_awaited_and_the_throw_aloud(browser, server, artifacts):
    context = new_context(browser)
    context.add_init_script(STUB_SPEECH)
    context.route(re.compile(r"^(?!http://127\.0\.0\.1).*"), lambda route: route.abort())
    page = context.new_page()
    OPEN_PAGES.append(page)
    page.goto(server["join"])

    # Off by default; switched on in this phone's settings (kept in its browser).
    tap(page, page.get_by_role("button", name="Settings"))
    switch = page.get_by_role("switch", name=re.compile("Read turns aloud"))
    expect(switch).not_to_be_checked()
    tap(page, switch)
    expect(switch).to_be_checked()
    page.wait_for_function("localStorage.getItem('flutter.companion.speech') === 'true'")
    settled_screenshot(page, artifacts / "speech-settings-phone.png")
    tap(page, page.get_by_role("button", name="Back", exact=True))

    tap(page, page.get_by_role("button", name="New campaign"))
    tap(page, page.get_by_role("radio", name="Save the Singularity"))
    type_into(page.get_by_label("Campaign name"), "Spoken night")
    type_into(page.get_by_label("Player 1 name"), "Ada")
    tap(page, page.get_by_role("button", name="Create and open"))
    expect(by_id(page, "sts-team")).to_have_text("0")
    assert said(page) == []  # opening a campaign is not news

    # The table rolls its own dice: the roll the game waits for is said, with who rolls and why.
    physical = page.get_by_role("switch", name=re.compile("I roll physical dice"))
    tap(page, physical)
    expect(physical).to_be_checked()
    step(page, re.compile(r"^Roll 3 dice$"))
    page.wait_for_function("window.__utterances.length >= 1")
    assert re.match(r"^Ada, roll 3 d6 for Ada's first throw", said(page)[0]), said(page)
    assert page.evaluate("window.__utterances[0].lang") == "en"

    # The dice entered: the throw's result, said; the action started by stopping the talk.
    cancels = page.evaluate("window.__cancels")
    enter_dice(page, ["Idea (2–3)"] + ["Progress (4–6)"] * 2)
    page.wait_for_function("window.__utterances.length >= 2")
    assert said(page)[1:] == ["Ada throws: 0 Bugs, 1 Idea, 2 Progress. 2 points at risk."]
    assert page.evaluate("window.__cancels") > cancels

    # Repeat: the last turn said again.
    tap(page, page.get_by_role("button", name="Say the last turn again"))
    page.wait_for_function("window.__utterances.length >= 3")
    assert said(page)[2:] == ["Ada throws: 0 Bugs, 1 Idea, 2 Progress. 2 points at risk."]
    settled_screenshot(page, artifacts / "speech-campaign-phone.png")
    context.close()
