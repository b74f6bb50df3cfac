"""`companion desktop`: Flet's desktop window, from the desktop extra (#27 item 5).

With the client at hand (cached in ~/.flet/client, or FLET_VIEW_PATH) the window opens under Xvfb and
shows the home screen, screenshotted to artifacts/screenshots/desktop-window.png. Without it, and with
no way to download it, the command refuses in one line instead of a traceback."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SHOTS = ROOT / "artifacts" / "screenshots"


def client_at_hand() -> str | None:
    """Why the desktop window can't open here without a download, or None."""
    try:
        import flet_desktop
    except ImportError:
        return "the desktop extra is not installed (pip install -e '.[desktop]')"
    view_path = os.environ.get("FLET_VIEW_PATH")
    if view_path and (Path(view_path) / "flet").is_file():
        return None
    cached = getattr(flet_desktop, "__get_client_storage_dir")()
    if cached.exists():
        return None
    return (f"Flet's desktop client {flet_desktop.version.version} is not on this machine (flet-desktop "
            f"{flet_desktop.version.version} ships none; it is downloaded on first use into {cached})")


def test_without_the_client_and_offline_the_window_refuses_in_one_line(tmp_path):
    pytest.importorskip("flet_desktop", reason="the desktop extra is not installed (pip install -e '.[desktop]')")
    env = dict(os.environ, HOME=str(tmp_path), FLET_CLIENT_URL="http://127.0.0.1:9/flet-client.tar.gz")
    env.pop("FLET_VIEW_PATH", None)
    done = subprocess.run([sys.executable, "-m", "companion", "--db", f"sqlite:///{tmp_path / 'd.sqlite'}", "desktop"],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr
    refusal = [line for line in done.stderr.splitlines() if line.startswith("companion:")]
    assert len(refusal) == 1 and "could not be downloaded" in refusal[0] and "companion serve" in refusal[0], done.stderr


@pytest.mark.e2e
def test_the_desktop_window_opens_under_xvfb_and_shows_the_home_screen(tmp_path):
    if not shutil.which("Xvfb"):
        pytest.skip("Xvfb is not installed (apt-get install xvfb)")
    if not shutil.which("import") or not shutil.which("xwininfo"):
        pytest.skip("imagemagick's import or x11-utils' xwininfo is not installed (apt-get install imagemagick x11-utils)")
    missing = client_at_hand()
    if missing:
        pytest.skip(missing)
    read, write = os.pipe()
    xvfb = subprocess.Popen(["Xvfb", "-displayfd", str(write), "-screen", "0", "1280x800x24", "-nolisten", "tcp"],
                            pass_fds=(write,), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    os.close(write)
    display = ":" + os.read(read, 16).decode().strip()
    os.close(read)
    env = dict(os.environ, DISPLAY=display)
    app = subprocess.Popen([sys.executable, "-m", "companion", "--db", f"sqlite:///{tmp_path / 'd.sqlite'}", "desktop"],
                           cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        deadline = time.monotonic() + 90
        windows = ""
        while time.monotonic() < deadline and app.poll() is None:
            windows = subprocess.run(["xwininfo", "-root", "-tree"], env=env, capture_output=True, text=True).stdout
            if '"Table Companion"' in windows:  # the page's title: the app has drawn its first screen
                break
            time.sleep(0.5)
        assert '"Table Companion"' in windows, (app.poll(), windows[-2000:])
        SHOTS.mkdir(parents=True, exist_ok=True)
        shot = SHOTS / "desktop-window.png"
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:  # until the loading spinner has given way to the home screen
            subprocess.run(["import", "-window", "root", str(shot)], env=env, check=True)
            spread = subprocess.run(["convert", str(shot), "-format", "%[fx:standard_deviation]", "info:"],
                                    capture_output=True, text=True).stdout
            if float(spread or 0) > 0.05:
                break
            time.sleep(1)
        assert float(spread) > 0.05, f"the window stayed blank: {shot}"
    finally:
        app.terminate()
        try:
            app.wait(timeout=10)
        except subprocess.TimeoutExpired:
            app.kill()
        xvfb.terminate()
        xvfb.wait()
