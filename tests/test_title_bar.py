"""A title bar keeps its words whole at the largest text on a 360 px phone (#34): a title of wide
letters that wraps there ("Neue Kampagne", "Nowa kampania") gets the bar's second line instead of
being cut off, while one that fits on a line keeps a one-line bar."""

from __future__ import annotations

import flet as ft

from companion.ui.style import Sizes
from companion.ui.widgets import fit_title

BESIDE_BACK = 360 - 56 - 16  # a 360 px phone's title bar beside the back arrow
HUGE = 1.7  # the largest text size


def lines(words: str, room: float = BESIDE_BACK, scale: float = HUGE, style: str = "title_large") -> float:
    title = ft.Text(words)
    height = fit_title(Sizes(scale), title, room, style)
    return height / (title.size * 1.25)


def test_a_title_that_wraps_in_the_browser_gets_two_lines():
    for words in ("Neue Kampagne", "Nowa kampania"):  # both drawn on two lines at 360 px, largest text
        assert lines(words) == 2


def test_a_title_that_fits_keeps_one_line():
    assert lines("New campaign") == 1
    assert lines("Ustawienia") == 1
    assert lines("Neue Kampagne", scale=1.0) == 1  # at the normal size it fits


def test_a_campaign_headline_that_wraps_gets_its_second_line():
    beside_two_icons = 360 - 56 - 2 * (56 + 8) - 16  # the campaign bar: back arrow, QR and settings
    assert lines("Round 3 · Ana", room=beside_two_icons, style="body_medium") == 2
