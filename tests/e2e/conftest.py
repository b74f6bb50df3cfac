import os

import pytest
from playwright.sync_api import expect

from tests.browser import CHROMIUM, OPEN_PAGES, SERVERS, cpu_seconds, launch

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


@pytest.fixture(autouse=True)
def say_where_a_stuck_test_is(request):
    """Shortly before pytest-timeout stops a stuck test, say straight to the terminal (CI's log: a
    rerun's report isn't printed) where the test is waiting and what its served apps are doing: each
    one's CPU time, how much it used in the last 2 s, and its output's end. A busy server points at
    the app, an idle one at the browser. From a timer thread: it reads the test's stack, /proc and
    the servers' logs, never the browser."""
    import sys
    import threading
    import time

    def cpu(pid: int) -> float:
        try:
            return cpu_seconds(pid)
        except OSError:  # gone
            return -1.0

    def say() -> None:
        import traceback

        lines = [f"\n=== stuck for {limit - 20:.0f} s: {request.node.nodeid}; {len(OPEN_PAGES)} page(s) open; the test is at:"]
        test_frame = sys._current_frames().get(test_thread)
        if test_frame:  # the tests' own lines, then what they wait in
            stack = traceback.extract_stack(test_frame)
            ours = [f for f in stack if "/tests/" in f.filename and "site-packages" not in f.filename]
            lines += [line.rstrip() for line in traceback.format_list(ours + [f for f in stack[-3:] if f not in ours])]
        for server in list(SERVERS):
            proc = server["proc"]
            before = cpu(proc.pid)
            time.sleep(2)
            state = "running" if proc.poll() is None else f"exited with {proc.returncode}"
            lines.append(f"server on port {server['port']}: {state}, CPU {before:.1f} s, "
                         f"+{max(0.0, cpu(proc.pid) - before):.2f} s in the last 2 s; the end of its output:")
            lines.append(server["output"]()[-1500:])
        capture = request.config.pluginmanager.getplugin("capturemanager")
        with capture.global_and_fixture_disabled():  # else pytest would keep it with the test's output
            print("\n".join(lines), file=sys.stderr, flush=True)

    test_thread = threading.get_ident()
    marker = request.node.get_closest_marker("timeout")
    limit = float(marker.args[0]) if marker and marker.args else float(request.config.getini("timeout") or 0)
    timer = threading.Timer(max(1.0, limit - 20), say) if limit else None
    if timer:
        timer.daemon = True
        timer.start()
    yield
    if timer:
        timer.cancel()
