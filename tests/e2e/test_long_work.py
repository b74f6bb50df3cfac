"""Long work off the table's path (#28), end to end at phone size: one phone imports a long campaign
(8,000 actions: seconds of checking and saving here) and sees its progress dialog, the stage and how
far, while another phone taps and sees its tap applied; a second import, cancelled while it is
checked, leaves nothing. (The 50,000-action figures are tests/perf/long_work_bench.py's.)"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.browser import by_id, open_app, served, settled_screenshot, tap, tap_until
from tests.helpers import file_store

pytestmark = pytest.mark.e2e

ACTIONS = 8_000


@pytest.fixture(scope="module")
def long_export(tmp_path_factory):
    from companion import exchange
    from tests.perf.run_all import build_long_campaign

    folder = tmp_path_factory.mktemp("long")
    store = file_store(folder, "source.sqlite")
    data, name = exchange.export_file(exchange.export_campaign(store, build_long_campaign(store, ACTIONS)))
    store.db.close()
    path = folder / name
    path.write_bytes(data)
    return path


def start_import(page, path) -> None:
    tap_until(page, page.get_by_role("button", name="Import"), page.get_by_role("button", name="Choose a file"))
    with page.expect_file_chooser() as chooser:
        tap(page, page.get_by_role("button", name="Choose a file"))
    chooser.value.set_files(str(path))


def counted(store) -> tuple[int, int]:
    """Every campaign row and log row in the save, hidden ones too."""
    from sqlmodel import func, select

    from models.tables import ActionRow, Campaign

    with store.db.read() as s:
        return (s.exec(select(func.count()).select_from(Campaign)).one(),
                s.exec(select(func.count()).select_from(ActionRow)).one())


def test_a_phone_imports_a_long_campaign_while_another_plays_and_a_cancel_leaves_nothing(
        browser, tmp_path, long_export, artifacts):
    store = file_store(tmp_path, "table.sqlite")
    cid = store.create("counter", "Table night", {"cap": 1000}, seed=2)
    store.db.close()
    with served(f"sqlite:///{tmp_path / 'table.sqlite'}") as server:
        importing, importer = open_app(browser, server)
        playing, player = open_app(browser, server)
        player.goto(f"{server['base']}c/{cid}")
        expect(by_id(player, "counter-value")).to_have_text("0")

        start_import(importer, long_export)
        stage = by_id(importer, "progress-stage")
        expect(stage).to_contain_text(re.compile(rf"Checking every action against the rules: [\d,]+ of {ACTIONS:,}|"
                                                 rf"Checking every action against the rules: [\d]+ of {ACTIONS}"),
                                      timeout=60_000)
        settled_screenshot(importer, artifacts / "import-progress-phone.png", quiet_ms=150)
        tap(player, player.get_by_role("button", name="Value +1"))
        expect(by_id(player, "counter-value")).to_have_text("1")
        expect(stage).to_be_visible()  # applied while the import still runs
        expect(stage).to_contain_text("Saving", timeout=120_000)
        tap(player, player.get_by_role("button", name="Value +1"))
        expect(by_id(player, "counter-value")).to_have_text("2")
        expect(by_id(importer, "counter-value")).to_have_text(re.compile(r"^\d+$"), timeout=120_000)  # opened when done
        imported = int(re.search(r"/c/(\d+)$", importer.url).group(1))
        assert imported != cid

        # Again, cancelled while checking: nothing of it anywhere.
        store = file_store(tmp_path, "table.sqlite")
        before = counted(store)
        importer.goto(server["base"])
        start_import(importer, long_export)
        expect(stage).to_contain_text("Checking every action against the rules", timeout=60_000)
        tap(importer, importer.get_by_role("button", name="Cancel"))
        said = "Import cancelled: nothing was imported."
        expect(importer.get_by_text(said).or_(importer.get_by_label(said)).first).to_be_visible(timeout=60_000)  # a snack bar
        expect(stage).to_have_count(0)
        assert counted(store) == before
        expect(importer.get_by_role("group", name=re.compile("Long campaign"))).to_have_count(1)  # the first import only
        store.db.close()
        importing.close()
        playing.close()
