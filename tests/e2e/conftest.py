import pytest
from playwright.sync_api import expect

from tests.browser import CHROMIUM, OPEN_PAGES, SERVERS, launch

pytestmark = pytest.mark.e2e
expect.set_options(timeout=10_000)


def pytest_collection_modifyitems(items):
    for item in items:
        if "/e2e/" in str(item.fspath):
            item.add_marker(pytest.mark.e2e)


@pytest.fixture(scope="session")
def playwright():
    """One Playwright for the whole run: the sync API can't be started twice in one process."""
    import os

    from playwright.sync_api import sync_playwright

    if not os.path.exists(CHROMIUM):
        pytest.fail(f"Chromium not found at {CHROMIUM}: install Debian's chromium (see .ci/run).")
    with sync_playwright() as p:
        yield p


@pytest.fixture(scope="module")
def browser(playwright):
    """A fresh Chromium for each test file, so one wedged browser can't stall every test after it."""
    b = launch(playwright)
    yield b
    b.close()


@pytest.fixture
def artifacts(tmp_path_factory):
    from pathlib import Path

    import os

    folder = Path(__file__).resolve().parent.parent.parent / "artifacts" / "screenshots" / os.environ.get("E2E_THEME", "")
    folder.mkdir(parents=True, exist_ok=True)
    return folder


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    if report.when == "call" and report.failed:  # keep what each open page showed, for the failure report
        from pathlib import Path

        folder = Path(__file__).resolve().parent.parent.parent / "artifacts" / "failures"
        folder.mkdir(parents=True, exist_ok=True)
        for i, page in enumerate(OPEN_PAGES):
            try:
                page.screenshot(path=str(folder / f"{item.name}-{i}.png"))
            except Exception:
                pass
        for server in SERVERS:  # what each served app printed (a traceback, say), last lines first to go
            report.sections.append((f"server on port {server['port']}", server["output"]()[-6000:]))
    if report.when == "teardown":
        OPEN_PAGES.clear()
        SERVERS.clear()
