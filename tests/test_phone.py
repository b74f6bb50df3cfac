"""What a phone's browser gets beyond Flet's web client (no browser needed): the page with our script,
the manifest and icons (public, so "Add to home screen" can fetch them), each phone's own settings."""

import json
import re
from pathlib import Path

import png
import pytest

from companion.app import PHONE_DEFAULTS, _valid_phone_setting
from companion.share import JoinGate
from tests.test_share import call, http, inner_app, status

ROOT = Path(__file__).resolve().parent.parent
ASSETS = ROOT / "assets"
FLET_WEB = Path(__import__("flet_web").__file__).parent / "web"


def test_our_index_html_is_flets_own_plus_the_app_s_lines():
    """assets/index.html replaces the web client's page: if a new flet changes its page, this fails
    and ours must be made again from it (the same lines added)."""
    ours = (ASSETS / "index.html").read_text(encoding="utf-8")
    theirs = (FLET_WEB / "index.html").read_text(encoding="utf-8")
    changed = {"Flet application.", "Flet", "<title>Flet</title>", "#222222"}
    kept = [line for line in theirs.splitlines() if not any(c in line for c in changed)]
    for line in kept:
        assert line in ours, f"flet's index.html line missing from ours: {line!r}"
    assert '<script src="companion.js"></script>' in ours and "<title>Table Companion</title>" in ours
    assert '<meta name="theme-color"' in ours and '<link rel="manifest" href="manifest.json">' in ours


def test_the_manifest_names_the_app_and_its_icons_exist():
    manifest = json.loads((ASSETS / "manifest.json").read_text(encoding="utf-8"))
    # short_name is the home-screen label: the whole name, not "Table" (issue #30)
    assert manifest["name"] == "Table Companion" and manifest["short_name"] == "Table Companion"
    assert re.fullmatch(r"#[0-9A-F]{6}", manifest["theme_color"])
    purposes = set()
    for icon in manifest["icons"]:
        width, height, _, _ = png.Reader(filename=str(ASSETS / icon["src"])).read()
        assert f"{width}x{height}" == icon["sizes"]
        purposes.add(icon["purpose"])
    assert purposes == {"any", "maskable"}
    assert png.Reader(filename=str(ASSETS / "favicon.png")).read()[0] == 64


@pytest.mark.parametrize("path", ["/manifest.json", "/favicon.png", "/icons/icon-512.png",
                                  "/icons/icon-maskable-192.png"])
def test_the_install_files_need_no_token(path):
    gate = JoinGate(inner_app, "s3cret")
    assert call(gate, http(path))[1]["body"] == b"THE APP"


@pytest.mark.parametrize("path", ["/", "/index.html", "/companion.js", "/icons/../main.dart.js",
                                  "/icons/x.png/../../c/1", "/manifest.json/x"])
def test_everything_else_still_needs_it(path):
    assert status(call(JoinGate(inner_app, "s3cret"), http(path))) == 403


def test_a_phone_setting_from_the_browser_is_checked():
    assert _valid_phone_setting("text_scale", 1.2, 1.0) == 1.2
    assert _valid_phone_setting("text_scale", 99, 1.0) == 1.0
    assert _valid_phone_setting("text_scale", "1.2", 1.0) == 1.0
    assert _valid_phone_setting("theme", "dark", "system") == "dark"
    assert _valid_phone_setting("theme", "purple", "system") == "system"
    assert _valid_phone_setting("keep_awake", False, True) is False
    assert _valid_phone_setting("keep_awake", None, True) is True
    assert _valid_phone_setting("speech", True, False) is True
    assert _valid_phone_setting("speech", "yes", False) is False
    assert set(PHONE_DEFAULTS) == {"text_scale", "theme", "keep_awake", "speech"}
    assert PHONE_DEFAULTS["speech"] is False  # spoken turns: off until the phone's player asks


def test_the_page_script_reads_what_the_app_writes():
    """The script and the app agree on the keys (Flet's SharedPreferences keeps "flutter.<key>")."""
    script = (ASSETS / "companion.js").read_text(encoding="utf-8")
    assert 'var PREFIX = "flutter.companion.";' in script
    for name in ("keep_awake", "copy", "buzz", "say", "hush", "speech"):
        assert f'"{name}"' in script
    assert "navigator.wakeLock" in script and "execCommand(\"copy\")" in script and "navigator.vibrate" in script
    assert "speechSynthesis" in script and ".cancel()" in script
