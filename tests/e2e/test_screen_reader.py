"""A screen reader's view (#33 item 2): Chromium's accessibility tree — what TalkBack or VoiceOver
reads — of the home screen and of a campaign screen has no control without a name (icon buttons
included), and a value is read with its meaning."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.browser import by_id, open_app, served, settle, tap, type_into

# The roles a player acts on: each must say what it does.
CONTROLS = {"button", "switch", "checkbox", "radio", "textbox", "slider", "link", "menuitem", "combobox",
            "spinbutton", "tab", "searchbox"}


@pytest.fixture
def server(tmp_path):
    with served(f"sqlite:///{tmp_path / 'reader.sqlite'}", token="e2e-reader-token-0001",
                extra_env={"COMPANION_SEED": "7"}) as s:
        yield s


def controls(page) -> list[dict]:
    """Every control in the page's accessibility tree: its role and name (empty: unnamed)."""
    session = page.context.new_cdp_session(page)
    try:
        nodes = session.send("Accessibility.getFullAXTree")["nodes"]
    finally:
        session.detach()
    found = []
    for node in nodes:
        if node.get("ignored"):
            continue
        role = (node.get("role") or {}).get("value", "")
        if role in CONTROLS:
            found.append({"role": role, "name": ((node.get("name") or {}).get("value") or "").strip()})
    return found


def unnamed(page) -> list[dict]:
    return [c for c in controls(page) if not c["name"]]


def test_home_and_a_campaign_name_every_control(browser, server):
    context, page = open_app(browser, server)

    # A campaign of Save the Singularity, played a step: its screen has dice, powers, tracks.
    tap(page, page.get_by_role("button", name="New campaign"))
    tap(page, page.get_by_role("radio", name="Save the Singularity"))
    type_into(page.get_by_label("Campaign name"), "Read aloud")
    type_into(page.get_by_label("Player 1 name"), "Ada")
    settle(page)
    form = controls(page)
    assert unnamed(page) == [], "\n".join(f"{c['role']}: {c['name']!r}" for c in form)  # the new-campaign form
    tap(page, page.get_by_role("button", name="Create and open"))
    expect(by_id(page, "sts-team")).to_have_text("0")
    tap(page, page.get_by_role("button", name=re.compile(r"^Roll 3 dice$")))
    expect(by_id(page, "sts-dice")).to_be_visible()
    settle(page)
    found = controls(page)
    assert unnamed(page) == [], found
    names = {c["name"] for c in found}
    # The icon buttons say what they do.
    assert {"Back", "Share this table", "Campaign settings"} <= names, names

    # Home, with the campaign in its list.
    tap(page, page.get_by_role("button", name="Back", exact=True))
    expect(page.get_by_role("button", name="New campaign")).to_be_visible()
    settle(page)
    found = controls(page)
    assert unnamed(page) == [], found
    assert {"Settings", "New campaign"} <= {c["name"] for c in found}, found
    context.close()
