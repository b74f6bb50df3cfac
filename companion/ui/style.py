"""Sizes and colours in one place. Text sizes scale with each phone's text-size setting."""

from __future__ import annotations

import flet as ft

TAP = 56  # minimum height of anything tapped at the table
ICON_PADDING = 12  # around a 24 px icon: a 48 px icon button (a menu's ⋮ sets it itself: it has its own 8)
GAP = 12
SEED_COLOR = ft.Colors.TEAL

# Material's text styles, a little larger than stock: read at arm's length.
_BASE = {
    "display_large": 57, "display_medium": 45, "display_small": 38,
    "headline_large": 34, "headline_medium": 30, "headline_small": 26,
    "title_large": 24, "title_medium": 19, "title_small": 16,
    "body_large": 18, "body_medium": 17, "body_small": 14,
    "label_large": 17, "label_medium": 14, "label_small": 13,
}


# Roboto (the web client's font) lacks arrows and math signs ("4.4 → 5", "−1", "≥"); the web client
# would fetch them from a CDN a table may not reach, so a small subset of DejaVu Sans ships in assets/.
SYMBOLS_FONT = "DejaVu Sans Symbols"
FONTS = {SYMBOLS_FONT: "/fonts/DejaVuSans-symbols.ttf"}


# Text on the dark theme's surfaces. A text theme that sets sizes also fixes the colour: without one,
# Flutter's dark theme would draw dark text on its dark surfaces.
DARK_TEXT = "#E2E3E0"


def theme(scale: float, dark: bool = False) -> ft.Theme:
    """The app's theme at a text scale; `dark` for the dark one (page.dark_theme: a phone picks)."""
    text = ft.TextTheme(**{name: ft.TextStyle(size=round(size * scale), font_family_fallback=[SYMBOLS_FONT],
                                              color=DARK_TEXT if dark else None)
                           for name, size in _BASE.items()})
    # Buttons without a height of their own (a dialog's Cancel / Save) are still ≥ 48 px tall: Flet
    # has no minimum size here, so the padding makes it (text + 2 × 16).
    roomy = ft.ButtonStyle(padding=ft.Padding.symmetric(horizontal=20, vertical=16))
    return ft.Theme(color_scheme_seed=SEED_COLOR, text_theme=text, primary_text_theme=text,
                    visual_density=ft.VisualDensity.COMFORTABLE,
                    # but an icon button (a title bar's back arrow) keeps a finger's 48 px on a phone:
                    # the comfortable density would take it down to 44, and Material 3 draws it (and
                    # describes it) at 40 unless the padding around its 24 px icon is 12
                    icon_button_theme=ft.IconButtonTheme(style=ft.ButtonStyle(
                        visual_density=ft.VisualDensity.STANDARD, padding=ft.Padding.all(ICON_PADDING))),
                    text_button_theme=ft.TextButtonTheme(style=roomy),
                    filled_button_theme=ft.FilledButtonTheme(style=roomy),
                    outlined_button_theme=ft.OutlinedButtonTheme(style=roomy))


class Sizes:
    """Explicit sizes for numbers and dice, scaled like the theme."""

    def __init__(self, scale: float):
        self.scale = scale

    def __call__(self, size: float) -> int:
        return round(size * self.scale)

    @property
    def tap(self) -> int:
        """A fixed-height button's height: TAP at normal text, taller as its words grow (a line of
        label text is ~20 px at normal size), so the words are never clipped."""
        return max(TAP, round(TAP + (self.scale - 1) * 20))

    def fitted(self, words: str, width: float, style: str = "title_large", lines: int = 2) -> int:
        """A font size for `words` in a title bar `width` px wide: this phone's size, made smaller where
        they would not fit (a bar can't grow as a page can) — on one line if they fit there at the
        normal text size or larger, else on up to `lines` lines — but never below the normal size
        (there a long name ends in "…")."""
        normal = _BASE[style]
        size = normal * self.scale
        longest = max((len(w) for w in words.split()), default=0)
        if longest and width / (len(words) * 0.52) >= normal:  # one line, at the normal size or larger
            return int(min(size, width / (len(words) * 0.52)))
        if longest:
            size = min(size, width * 0.8 / (longest * 0.58))  # a long word whole on a line, wide letters and all
            size = min(size, lines * width * 0.85 / (len(words) * 0.52))  # wrapping leaves ends of lines empty
        return round(max(size, normal))

    def lines(self, words: str, width: float, size: float) -> int:
        """How many lines `words` likely take at a font size (see `fits`), at least 1."""
        return max(1, -(-round(len(words) * size * 0.52) // max(1, round(width))))

    def fits(self, words: str, width: float, style: str = "body_medium") -> bool:
        """Whether `words` likely fit on one line `width` px wide (a Roboto character is about half
        its font size wide): a guess good enough to give a line room before it is drawn."""
        return len(words) * _BASE[style] * self.scale * 0.52 <= width
