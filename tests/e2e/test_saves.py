"""Saves a table can trust, end to end at phone size (#12): a joined phone stays joined when the host
restarts (the token is kept with the data); a table whose disk is full opens read-only, says so on
every screen, answers a tap with a sentence (never "Error running app" and a traceback) and still
exports; the Backups screen marks a file it can't restore, without a Restore button."""

from __future__ import annotations

import json
import re
import sys

import pytest
from playwright.sync_api import expect

from companion.games.counter.rules import Add
from tests.browser import by_id, free_port, new_context, open_app, printed_line, served, settled_screenshot, tap
from tests.helpers import file_store
from tests.test_readonly import Disk, disk, save_on  # noqa: F401  (disk: the small-filesystem fixture)


def no_traceback(page) -> None:
    assert "Error running app" not in page.content() and "Traceback" not in page.content()


def served_with_kept_token(db_url: str, port: int):
    """`companion serve` as a host runs it: no --token; yields the server and the join URL it prints."""
    command = [sys.executable, "-m", "companion", "--db", db_url, "serve", "--host", "127.0.0.1", "--port", str(port), "--quiet"]
    return served(db_url, command=command, port=port)


def join_url(server: dict) -> str:
    return re.search(r"http://\S+", printed_line(server)).group()


def test_a_joined_phone_stays_joined_when_the_host_restarts(browser, tmp_path):
    store = file_store(tmp_path, "kept.sqlite")
    cid = store.create("counter", "Restart night", {}, seed=5)
    store.db.close()
    db_url, port = f"sqlite:///{tmp_path / 'kept.sqlite'}", free_port()
    with served_with_kept_token(db_url, port) as server:
        join = join_url(server)
        context = new_context(browser)
        page = context.new_page()
        page.goto(join)
        page.goto(f"http://127.0.0.1:{port}/c/{cid}")
        expect(by_id(page, "counter-value")).to_have_text("0")
    store = file_store(tmp_path, "kept.sqlite")  # meanwhile, the save moves on
    store.apply(cid, Add(amount=3), expected_cursor=0)
    store.db.close()
    with served_with_kept_token(db_url, port) as server:
        assert join_url(server) == join  # the same token: the phone's cookie still opens the table
        expect(by_id(page, "counter-value")).to_have_text("3", timeout=30_000)  # reconnected by itself
        tap(page, page.get_by_role("button", name="Value +1"))
        expect(by_id(page, "counter-value")).to_have_text("4")
        context.close()


def test_a_full_disk_opens_read_only_on_every_screen_and_still_exports(browser, disk, artifacts):  # noqa: F811
    db_url, cid = save_on(disk)
    disk.fill()
    with served(db_url) as server:
        context, page = open_app(browser, server)
        banner = by_id(page, "read-only-banner")
        expect(banner).to_contain_text("Read-only: The disk is full")
        expect(page.get_by_role("group", name=re.compile("Friday"))).to_be_visible()

        page.goto(f"{server['base']}c/{cid}")
        value = by_id(page, "counter-value")
        expect(value).to_have_text(re.compile(r"^\d+$"))
        before = value.text_content()
        expect(banner).to_be_visible()
        tap(page, page.get_by_role("button", name="Value +1"))
        expect(page.get_by_text(re.compile("Nothing can be changed: The disk is full"))).to_be_visible()
        expect(value).to_have_text(before)
        no_traceback(page)
        settled_screenshot(page, artifacts / "read-only-campaign-phone.png")

        tap(page, page.get_by_role("button", name="Campaign settings"))
        tap(page, page.get_by_role("button", name="Export"))
        with page.expect_download() as download:
            tap(page, page.get_by_role("button", name="Save file"))
        exported = json.loads(open(download.value.path(), encoding="utf-8").read())
        assert exported["name"] == "Friday" and len(exported["log"]) == 4

        page.goto(f"{server['base']}settings")
        expect(banner).to_be_visible()
        no_traceback(page)
        context.close()


def test_the_backups_screen_marks_a_file_it_cannot_restore(browser, tmp_path, artifacts):
    store = file_store(tmp_path, "b.sqlite")
    store.create("counter", "Backed up", {})
    store.db.close()
    backups = tmp_path / "b-backups"
    backups.mkdir()
    (backups / "companion-20261122T080000000000Z-000050-start.sqlite").write_bytes(b"")  # a full disk's leftover
    with served(f"sqlite:///{tmp_path / 'b.sqlite'}") as server:  # its start makes one good backup
        context, page = open_app(browser, server)
        page.goto(f"{server['base']}backups")
        expect(page.get_by_text(re.compile(r"Unusable: the file is empty \(0 bytes\)"))).to_be_visible()
        expect(page.get_by_role("group", name=re.compile(r"start · 1 campaign\b"))).to_be_visible()
        expect(page.get_by_role("button", name="Restore")).to_have_count(1)  # the good one only
        no_traceback(page)
        settled_screenshot(page, artifacts / "backups-unusable-phone.png")
        context.close()
