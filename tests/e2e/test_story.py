"""End to end in headless Chromium: the story of a campaign. From every game's campaign screen, Luck
and Recap are one tap away; a finished game ends on a card (result, Play again, Luck, Recap, Log to
BG Stats) whose BG Stats link and file carry the play; screenshots of the luck chart and the recap
at 360×740 and 412×915.

The campaigns are played through the store before the server starts (tests/story_games.py), the
Save the Singularity one over two nights (its first actions moved a day back) with a stretch of
physical dice."""

import json
import re
from datetime import timedelta
from urllib.parse import parse_qs, urlsplit

import pytest
from playwright.sync_api import expect
from sqlmodel import select

from models.tables import ActionRow, Campaign
from tests.browser import PHONE, by_id, go, open_app, scroll_to, served, settled_screenshot, tap
from tests.helpers import file_store
from tests.story_games import FINISHED, save_the_singularity

SMALL_PHONE = {"width": 360, "height": 740}


def a_night_earlier(store, cid: int, last_seq: int) -> None:
    """Move the campaign's creation and its actions up to `last_seq` one day back: two sessions."""
    with store.db.session() as s:
        campaign = s.get(Campaign, cid)
        campaign.created_at -= timedelta(days=1)
        s.add(campaign)
        for row in s.exec(select(ActionRow).where(ActionRow.campaign_id == cid, ActionRow.seq <= last_seq)):
            row.created_at -= timedelta(days=1)
            s.add(row)


@pytest.fixture(scope="module")
def table(tmp_path_factory):
    """A served save with a campaign of each game: all finished but KLAW, which is mid-game. The
    Save the Singularity one rolls physical dice from its 10th to its 21st action, and its first
    20 actions were a night earlier."""
    folder = tmp_path_factory.mktemp("story")
    store = file_store(folder, "story.sqlite")
    ids = {key: play(store) for key, play in FINISHED.items() if key not in ("klaw", "save_the_singularity")}
    ids["klaw"] = FINISHED["klaw"](store, to_the_end=False)
    ids["save_the_singularity"] = save_the_singularity(store, physical=set(range(10, 22)))
    a_night_earlier(store, ids["save_the_singularity"], 20)
    store.db.close()
    with served(f"sqlite:///{folder / 'story.sqlite'}", token="e2e-story-token-000001") as server:
        yield server, ids


def story_buttons(page):
    """Where Luck and Recap are: under the game's panel, or on the end card once the game is over."""
    return by_id(page, "story-links").or_(by_id(page, "end-card"))


def campaign_page(browser, server, cid, viewport=PHONE):
    context, page = open_app(browser, server, viewport=viewport)
    go(page, f"{server['base']}c/{cid}")
    expect(story_buttons(page)).to_have_count(1)
    return context, page


def reach(page, locator) -> None:
    """Scroll Flutter's view until the control is on screen (of a tall one, its first part)."""
    scroll_to(page, locator, near_top=False, bottom=40, step=200)


@pytest.mark.parametrize("game_key", list(FINISHED))
def test_luck_and_recap_are_one_tap_from_every_game(browser, table, game_key, artifacts):
    server, ids = table
    context, page = campaign_page(browser, server, ids[game_key], viewport=SMALL_PHONE)
    if game_key == "klaw":  # a game going on: the two buttons under its panel
        expect(by_id(page, "end-card")).to_have_count(0)
        reach(page, by_id(page, "story-links"))
        settled_screenshot(page, artifacts / "story-links-360.png")
    else:  # a finished game: on its end card, and only there
        expect(by_id(page, "story-links")).to_have_count(0)
    tap(page, story_buttons(page).get_by_role("button", name="Luck"))
    expect(page.get_by_role("heading", name="Luck")).to_be_visible()
    if game_key == "human_ethos":  # no dice in the game, none on the tray
        expect(by_id(page, "luck-empty")).to_contain_text("This game rolls no dice")
    elif game_key == "biosphere5":  # against people: doom and leaders, no dice
        expect(by_id(page, "luck-empty")).to_contain_text("No dice were rolled in the whole campaign.")
        expect(page.get_by_role("group", name=re.compile("Against people Biosphere 5 rolls no dice"))).to_be_visible()
    else:
        expect(page.get_by_role("group", name=re.compile("^Where the table stands"))).to_be_visible()
        expect(by_id(page, "luck-line").first).to_contain_text(re.compile(r"expected, over \d+"))
    tap(page, page.get_by_role("button", name="Back to the game"))
    tap(page, story_buttons(page).get_by_role("button", name="Recap"))
    expect(page.get_by_role("heading", name="Recap")).to_be_visible()
    expect(by_id(page, "recap-text")).to_contain_text(" played ")
    assert "Something went wrong" not in page.content()
    context.close()


def test_the_luck_of_a_night_with_its_chart(browser, table, artifacts):
    server, ids = table
    cid = ids["save_the_singularity"]
    for viewport, size in ((SMALL_PHONE, "360"), (PHONE, "412")):
        context, page = open_app(browser, server, viewport=viewport)
        go(page, f"{server['base']}c/{cid}/luck")
        expect(page.get_by_role("heading", name="Luck")).to_be_visible()
        # Two nights: the latest is shown first, and the whole campaign is one tap away.
        expect(page.get_by_role("button", name="Session 2")).to_be_visible()
        expect(by_id(page, "luck-scope")).to_contain_text("Session 2 of 2: ")
        expect(by_id(page, "luck-table")).to_contain_text("d6 (app)")
        expect(by_id(page, "luck-table")).to_contain_text("Throws that busted")
        chart = by_id(page, "luck-chart")
        expect(chart).to_have_count(1)
        settled_screenshot(page, artifacts / f"story-luck-{size}.png")
        reach(page, chart)
        settled_screenshot(page, artifacts / f"story-luck-chart-{size}.png")
        tap(page, page.get_by_role("button", name="Whole campaign"))
        expect(by_id(page, "luck-table")).to_contain_text("d6 (physical, by name)")  # shown apart from the app's
        reach(page, by_id(page, "luck-chart"))
        settled_screenshot(page, artifacts / f"story-luck-campaign-chart-{size}.png")
        reach(page, by_id(page, "luck-player-1"))
        expect(page.get_by_role("group", name=re.compile("^Ada's dice"))).to_be_visible()
        settled_screenshot(page, artifacts / f"story-luck-player-{size}.png")
        context.close()


def test_the_recap_reads_as_words_and_is_saved_as_a_file(browser, table, artifacts):
    server, ids = table
    cid = ids["save_the_singularity"]
    for viewport, size in ((SMALL_PHONE, "360"), (PHONE, "412")):
        context, page = open_app(browser, server, viewport=viewport)
        go(page, f"{server['base']}c/{cid}/recap")
        recap = by_id(page, "recap-text")
        expect(recap).to_contain_text("Ada, Bea and Cy played Save the Singularity against the world (session 2 of 2)")
        expect(recap).to_contain_text("The world won with")
        settled_screenshot(page, artifacts / f"story-recap-{size}.png")
        tap(page, page.get_by_role("button", name="Whole campaign"))
        expect(by_id(page, "recap-text")).to_contain_text("over 2 sessions")
        settled_screenshot(page, artifacts / f"story-recap-campaign-{size}.png")
        if size == "412":
            with page.expect_download() as download:
                tap(page, page.get_by_role("button", name="Save file"))
            text = open(download.value.path(), encoding="utf-8").read()
            assert text.startswith("“Singularity night”: Save the Singularity, the whole campaign\n\n")
            assert "Ada, Bea and Cy played" in text and "The world won with" in text
            tap(page, page.get_by_role("button", name="Copy text"))
            expect(page.get_by_role("button", name=re.compile("^(Copied|Copy again)$"))).to_be_visible()
        context.close()


def test_a_finished_game_ends_on_a_card_that_logs_to_bgstats_and_plays_again(browser, table, artifacts):
    server, ids = table
    context, page = campaign_page(browser, server, ids["save_the_singularity"], viewport=SMALL_PHONE)
    card = by_id(page, "end-card")
    expect(page.get_by_role("group", name=re.compile(
        r"^Game over · Lost Played for .* over 2 sessions · \d+ actions · \d+ dice"))).to_be_visible()
    expect(by_id(page, "end-result")).to_contain_text("The world won with")
    settled_screenshot(page, artifacts / "story-end-card-360.png")

    tap(page, card.get_by_role("button", name="Log to BG Stats"))
    url = by_id(page, "bgstats-link").inner_text()  # shown cut short; its whole text is the link
    parts = urlsplit(url)
    assert parts.netloc == "app.bgstatsapp.com" and parts.path == "/createPlay.html"
    play = json.loads(parse_qs(parts.query)["data"][0])
    assert play["sourceName"] == "Table Companion" and play["game"]["name"] == "Save the Singularity"
    assert [(p["name"], p["winner"], p["startPlayer"]) for p in play["players"]] == [
        ("Ada", False, True), ("Bea", False, False), ("Cy", False, False)]
    expect(page.get_by_role("button", name="Open in BG Stats")).to_be_visible()
    page.wait_for_timeout(500)  # the dialog's opening animation (the canvas lags the semantics)
    settled_screenshot(page, artifacts / "story-bgstats-360.png")
    with page.expect_download() as download:
        tap(page, page.get_by_role("button", name="Save file"))
    assert json.loads(open(download.value.path(), encoding="utf-8").read()) == play

    # The table's BoardGameGeek id goes into every play of the game from now on.
    field = page.get_by_label(re.compile("BoardGameGeek id")).and_(page.locator("input, textarea"))
    tap(page, field)
    field.fill("54321")
    tap(page, page.get_by_role("button", name="Save the id"))
    expect(by_id(page, "bgstats-link")).to_contain_text("bggId")
    again = json.loads(parse_qs(urlsplit(by_id(page, "bgstats-link").inner_text()).query)["data"][0])
    assert again["game"]["bggId"] == 54321 and again["sourcePlayId"] == play["sourcePlayId"]
    tap(page, field)  # (the dialog drawn again, with the id)
    field.fill("Gloomhaven")
    tap(page, page.get_by_role("button", name="Save the id"))
    expect(by_id(page, "dialog-error")).to_contain_text("A BoardGameGeek id is a whole number")
    tap(page, page.get_by_role("button", name="Close"))

    tap(page, page.get_by_role("button", name="Play again with the same players"))
    expect(page.get_by_role("banner", name=re.compile("Singularity night · game 2"))).to_be_visible()
    expect(by_id(page, "end-card")).to_have_count(0)
    expect(by_id(page, "sts-move")).to_have_text("0")
    context.close()


def test_luck_follows_live_play(browser, table):
    """A phone on the Luck screen sees another phone's roll without reopening it (run last: it
    rolls a die in the KLAW campaign)."""
    server, ids = table
    cid = ids["klaw"]
    context, page = open_app(browser, server, viewport=PHONE)
    go(page, f"{server['base']}c/{cid}/luck")
    expect(by_id(page, "luck-table")).to_have_count(1)
    before = by_id(page, "luck-table").text_content()
    other_context, other = campaign_page(browser, server, cid)
    d6 = other.get_by_role("button", name="d6", exact=True)
    reach(other, d6)
    tap(other, d6)
    expect(by_id(other, "tray-last")).to_have_count(1)
    expect(by_id(page, "luck-table")).not_to_have_text(before)
    other_context.close()
    context.close()
