"""Widgets every game uses: words, big buttons, a track with − and +, switch and tick rows, form
dialogs, the dice tray, the history list, the QR sheet. Each takes plain values and callbacks; none
decides a rule."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace
from typing import Any, Callable, Optional, Sequence

import flet as ft
import flet.canvas as cv

from companion.dice import hand_die, parse_notation
from companion.games.base import Chance, Event, InputError
from companion.share import qr_modules
from companion.i18n import N_, _, fmt_percent, ngettext, render
from companion.ui.style import GAP, TAP, Sizes

# The tray's name for Biosphere 5's hand die: kept in the log in English, shown in each phone's language.
HAND_DIE = N_("hand die")


def text(value: Any, style: ft.TextThemeStyle = ft.TextThemeStyle.BODY_MEDIUM, *, bold: bool = False,
         **kw) -> ft.Text:
    """Words in one of the theme's styles (they scale with each phone's text size). They wrap at the
    width they are given; in a Row give them `expand=True`, or a Row leaves them none and cuts them off.
    A `Msg` (the rules' words: events, reasons) is said in this phone's language."""
    if bold:
        kw["weight"] = ft.FontWeight.BOLD
    return ft.Text(None if value is None else render(value), theme_style=style, **kw)


def said_once(first: str, second: str) -> str:
    """Two parts of a status line joined by " · ", but what one part already says is said once (not
    "Lost · Turn 8 · Lost", nor "Ana wins · Ana wins (last host standing)")."""
    if not second or second in first:
        return first
    if not first or first in second:
        return second
    return f"{first} · {second}"


def tagged(identifier: str, control: ft.Control) -> ft.Control:
    """A stable locator for tests and screen readers: [flt-semantics-identifier=identifier]."""
    return ft.Semantics(identifier=identifier, content=control)


def keyed(key: str, control: ft.Control) -> ft.Control:
    """Give a part of a screen a stable identity: when the screen is drawn again, Flet matches the new
    part to the old one by this key and patches only what changed inside it (positionally), so the
    phone keeps its controls and a tap on one still reaches it."""
    control.key = key
    return control


def section(title: str, *controls: ft.Control, trailing: Optional[ft.Control] = None) -> ft.Control:
    header = ft.Row([ft.Text(title, theme_style=ft.TextThemeStyle.TITLE_MEDIUM, weight=ft.FontWeight.BOLD, expand=True)]
                    + ([trailing] if trailing else []), vertical_alignment=ft.CrossAxisAlignment.CENTER)
    return ft.Card(
        content=ft.Container(ft.Column([header, *controls], spacing=GAP,
                                       horizontal_alignment=ft.CrossAxisAlignment.STRETCH), padding=16),
        margin=ft.Margin.only(bottom=4),
    )


def roomy(words: str, *, centred: bool = False, size: Optional[int] = None, bold: bool = False) -> ft.Control:
    """A button's words, padded so the button is 56 px tall (TAP) at normal text, in place of a fixed
    height: the button grows and its words wrap instead of being cut off (a long label, or a phone at
    its largest text size). Padding the words, not the button's style: a given style greys a button
    out darker."""
    return ft.Container(ft.Text(words, size=size, weight=ft.FontWeight.BOLD if bold else None,
                                text_align=ft.TextAlign.CENTER if centred else None),
                        padding=ft.Padding.symmetric(vertical=4))


def wide_button(words: str, on_click, *, icon=None, filled: bool = True, tonal: bool = False, expand: bool = False,
                disabled: bool = False, tooltip: Optional[str] = None, size: Optional[int] = None,
                bold: bool = False) -> ft.Control:
    """The big button: filled (`tonal`: in the lighter fill; `filled=False`: outlined), its words
    centred and wrapping onto more lines rather than cut off."""
    cls = ft.FilledTonalButton if tonal else ft.FilledButton if filled else ft.OutlinedButton
    button = cls(content=roomy(words, centred=True, size=size, bold=bold), icon=icon, on_click=on_click,
                 disabled=disabled, tooltip=tooltip)
    if expand:  # only when wanted: an explicit expand=False still wraps it in Expanded, which a wrapping Row refuses
        button.expand = True
    return button


def big_button(text: str, on_click, **kw) -> ft.Control:
    """wide_button under its old name, for the screens not moved to it yet (home, settings,
    the campaign and story screens): their words stay a plain string, as Human Ethos' tests read them."""
    button = wide_button(text, on_click, **kw)
    button.content = text
    return button


def readable_width(content: ft.Control, *, wide: bool = False) -> ft.Control:
    """Full width on a phone; a centred column of comfortable width on a tablet or desktop (`wide`:
    nearly all of it, for a screen laid out in two columns there)."""
    content.col = {"xs": 12, "xl": 11} if wide else {"xs": 12, "md": 10, "lg": 8, "xl": 7}
    return ft.ResponsiveRow([content], alignment=ft.MainAxisAlignment.CENTER)


def badge(words: str, color, icon=None) -> ft.Control:
    """A coloured pill saying a state in white ("Protected until …"), an icon before its words."""
    row = [ft.Icon(icon, size=18, color=ft.Colors.WHITE)] if icon else []
    # expand_loose: the words take what they need up to the width left, and wrap beyond it (a plain
    # Text in a Row never wraps: "Protected until the end of Ana's turn in round 2" was cut off).
    return ft.Container(
        ft.Row(row + [ft.Text(words, color=ft.Colors.WHITE, size=14, weight=ft.FontWeight.W_600, expand=True,
                              expand_loose=True)],
               spacing=4, tight=True),
        bgcolor=color, border_radius=14, padding=ft.Padding.symmetric(horizontal=10, vertical=4))


def side_by_side(*columns: Sequence[ft.Control]) -> ft.Control:
    """Columns of sections: one under the other on a phone, side by side on a desktop's width (from
    992 px) rather than each section stretched across all of it."""
    return ft.ResponsiveRow([ft.Column(list(c), spacing=GAP, col={"xs": 12, "lg": 12 // len(columns)}) for c in columns],
                            spacing=GAP, run_spacing=GAP, vertical_alignment=ft.CrossAxisAlignment.START)


def two_columns(left: Sequence[ft.Control], right: Sequence[ft.Control], *, split: int = 5,
                stretch: bool = False) -> ft.Control:
    """A desktop's two columns of sections: `split` twelfths of the width on the left, the rest on the
    right (from 992 px; one under the other below). For a screen that lays out by the page's width
    itself; side_by_side splits evenly. `stretch`: each section takes its column's whole width."""
    more = {"horizontal_alignment": ft.CrossAxisAlignment.STRETCH} if stretch else {}
    return ft.ResponsiveRow([ft.Column(list(left), spacing=GAP, col={"xs": 12, "lg": split}, **more),
                             ft.Column(list(right), spacing=GAP, col={"xs": 12, "lg": 12 - split}, **more)],
                            spacing=GAP, run_spacing=GAP, vertical_alignment=ft.CrossAxisAlignment.START)


def icon_button(icon, label: str, on_click, *, size: int = 28, disabled: bool = False, round_: bool = False) -> ft.Control:
    """An icon button whose label screen readers (and tests) see as its name, and that shows as a tooltip.

    The name is the icon's own label: the button is the node a screen reader focuses and taps, and the
    tooltip's words go to the node around it, not to the button (#33: it was read as an unnamed button
    inside a named one). The wrapper keeps the label for the app's own lookups, as a group, not a
    second button."""
    button = ft.IconButton(ft.Icon(icon, size=size, semantics_label=label), on_click=on_click, icon_size=size,
                           width=TAP + 8, height=TAP + 8, disabled=disabled, tooltip=label,
                           style=ft.ButtonStyle(shape=ft.CircleBorder()) if round_ else None)
    return ft.Semantics(label=label, container=True, content=button)


def title_room(app, *, icons: int = 0, back: bool = True) -> float:
    """The width a title bar leaves its title: the page's, less the back arrow and `icons` icon_button's."""
    return (getattr(getattr(app, "page", None), "width", None) or 412) - (56 if back else 16) - icons * (TAP + 8) - 16


def fit_title(sizes, line: ft.Text, room: float, style: str = "title_large", factor: float = 1.25) -> float:
    """Give a title bar's line the font size that keeps it whole in `room` (Sizes.fitted: smaller where
    needed, as far as the normal size, up to two lines); the height its lines take, in px."""
    words = line.value or ""
    line.size = sizes.fitted(words, room, style)
    # Its lines counted with room to spare: the 0.52-em average misses lines of wide letters (m, w, K:
    # "Nowa kampania", "Neue Kampagne" wrap at 360 px, largest text) by ~10%, and a bar too short for
    # the second line cuts it off.
    return min(2, sizes.lines(words, room * 0.9, line.size)) * line.size * factor


def app_bar(app, words: str, *, actions: Sequence[ft.Control] = (), back: bool = True) -> ft.AppBar:
    """A screen's title bar whose title stays whole at any text size: made smaller where it would not
    fit beside the back arrow and the icons (`actions`, icon_button's), and on two lines if need be."""
    title = ft.Text(words, max_lines=2, overflow=ft.TextOverflow.ELLIPSIS)
    height = fit_title(getattr(app, "sizes", None) or Sizes(1.0), title, title_room(app, icons=len(actions), back=back))
    return ft.AppBar(title=title, actions=list(actions) or None, toolbar_height=max(56, round(height) + 16))


def switch_row(label: str, value: bool, on_change=None) -> tuple[ft.Control, ft.Switch]:
    """A switch with its label wrapping beside it (a Switch's own label never wraps and gets cut off);
    a tap anywhere on the row flips it."""
    def changed(e):
        wrapper.toggled = bool(switch.value)
        wrapper.update()
        if on_change:
            on_change(e)

    def flip(e):
        switch.value = not switch.value
        switch.update()
        changed(SimpleNamespace(control=switch))

    switch = ft.Switch(value=value, on_change=changed)
    row = ft.Container(
        # The row is the switch a screen reader reads and taps (named, toggled): the Switch inside is
        # left out of the reader's tree, where it was a second switch without a name (#33).
        ft.Row([ft.Text(label, expand=True, theme_style=ft.TextThemeStyle.BODY_LARGE),
                ft.Semantics(content=switch, exclude_semantics=True)],
               vertical_alignment=ft.CrossAxisAlignment.CENTER),
        on_click=flip, border_radius=8, padding=ft.Padding.symmetric(vertical=4),
    )
    wrapper = ft.Semantics(label=label, toggled=value, container=True, content=row)
    return wrapper, switch


def tick_row(label: str, value: bool) -> tuple[ft.Control, ft.Checkbox]:
    """A checkbox with its label wrapping beside it (a Checkbox's own label never wraps and is cut off
    at phone width); a tap anywhere on the row ticks it. Returns (the row, the checkbox to read)."""
    def changed(e):
        row.checked = bool(box.value)
        row.update()

    def flip(e):
        box.value = not box.value
        box.update()
        changed(e)

    box = ft.Checkbox(value=value, on_change=changed)
    row = ft.Semantics(label=label, checked=value, container=True, content=ft.Container(
        # the row is the checkbox a screen reader reads and taps: the box inside isn't a second, nameless one
        ft.Row([ft.Semantics(content=box, exclude_semantics=True),
                ft.Text(label, expand=True, theme_style=ft.TextThemeStyle.BODY_LARGE)],
               vertical_alignment=ft.CrossAxisAlignment.CENTER),
        on_click=flip, border_radius=8, padding=ft.Padding.symmetric(vertical=4)))
    return row, box


def track(label: str, value: int, *, identifier: str, on_minus=None, on_plus=None, low: Optional[int] = None,
          high: Optional[int] = None, name: str = "", unit: str = "", caption: str = "",
          under: Optional[ft.Control] = None, sizes=None) -> ft.Control:
    """A number with big − and + buttons, named "<name> -1" / "<name> +1" (`name`: the label's by
    default). A button is greyed out without its handler or at the end of the range [low, high]. The
    label (may be empty), the `unit` after the number and the `caption` wrap on a narrow phone;
    `under` goes under the number (a bar). Each tap is a separate action through the caller's guard,
    so a double tap counts twice or is refused with a message, never an error."""
    name = name or label
    minus = icon_button(ft.Icons.REMOVE, f"{name} -1", on_minus, size=32, round_=True,
                        disabled=on_minus is None or (low is not None and value <= low))
    plus = icon_button(ft.Icons.ADD, f"{name} +1", on_plus, size=32, round_=True,
                       disabled=on_plus is None or (high is not None and value >= high))
    number = tagged(identifier, ft.Text(str(value), size=sizes(40) if sizes else 40, weight=ft.FontWeight.BOLD))
    shown = ft.Row([number, *([text(unit, ft.TextThemeStyle.TITLE_SMALL)] if unit else [])], spacing=6, wrap=True,
                   alignment=ft.MainAxisAlignment.CENTER, vertical_alignment=ft.CrossAxisAlignment.END)
    middle = ft.Column([shown, *([under] if under else [])], spacing=2, expand=True,
                       horizontal_alignment=ft.CrossAxisAlignment.STRETCH)
    rows = [
        *([text(label, ft.TextThemeStyle.TITLE_SMALL)] if label else []),
        ft.Row([minus, middle, plus], vertical_alignment=ft.CrossAxisAlignment.CENTER),
    ]
    if caption:
        rows.append(text(caption, ft.TextThemeStyle.BODY_SMALL))
    return ft.Column(rows, spacing=4, horizontal_alignment=ft.CrossAxisAlignment.STRETCH)


# --- dialogs ---------------------------------------------------------------------------------------


def _send(control: ft.Control) -> None:
    """Send a control's change to the phone, unless it is no longer shown (its dialog just closed)."""
    try:
        control.update()
    except RuntimeError:
        pass


def error_box(identifier: str = "dialog-error") -> ft.Control:
    """Where a dialog says why it refused, hidden until then. The tagged wrapper is what hides: a
    Semantics whose content is hidden makes the phone draw a red "Semantics.content must be
    provided and visible" box instead."""
    box = tagged(identifier, text("", ft.TextThemeStyle.BODY_LARGE, bold=True, color=ft.Colors.ERROR))
    box.visible = False
    return box


def dialog_frame(title: str, *, error: Optional[ft.Control] = None, **kw) -> ft.AlertDialog:
    """An AlertDialog that leaves a 360 px phone its width (the default margins take 80 px), whose
    title doesn't break a word at the largest text size, and whose refusal (`error`, an error_box)
    shows under the title: always in sight, however far its fields are scrolled."""
    head = ft.Text(title, theme_style=ft.TextThemeStyle.TITLE_LARGE)
    return ft.AlertDialog(title=ft.Column([head, error], tight=True, spacing=8) if error else head,
                          inset_padding=ft.Padding.symmetric(horizontal=12, vertical=24), **kw)


def close_dialog(app, dialog: ft.AlertDialog) -> None:
    """Close this dialog (not whatever is on top: a message may be showing above it)."""
    dialog.open = False
    _send(dialog)
    app.page.update()


def radio_row(value: str, words: str, pick) -> ft.Control:
    """A radio button whose words wrap onto more lines (a Radio's own label never wraps: a long game
    name was cut off at the largest text size), a tap tall; a tap on the words picks it too.
    The radio keeps the words as its name, in a label too small to see, for screen readers and
    tests; the words shown are left out of the screen reader's reading, which would say them twice."""
    radio = ft.Radio(value=value, label=words, label_style=ft.TextStyle(size=0.01, color=ft.Colors.TRANSPARENT))
    shown = ft.Semantics(exclude_semantics=True, content=ft.Text(words, theme_style=ft.TextThemeStyle.BODY_LARGE))
    shown.expand = True
    box = ft.Container(radio, width=48, clip_behavior=ft.ClipBehavior.HARD_EDGE)  # the words line up, however long
    return ft.Container(ft.Row([box, shown], spacing=0, vertical_alignment=ft.CrossAxisAlignment.CENTER),
                        padding=ft.Padding.symmetric(vertical=4), on_click=lambda e: pick(value), border_radius=8)


class FormDialog:
    """The app's one dialog that asks and then acts. Its buttons act through the app's guard: a refusal
    (the rules', a value out of its range, another phone acting first) shows under the title, in
    sight (a message bar would sit behind the dialog), changes nothing, and leaves the dialog open to
    correct; done, the dialog closes. `error_id` tags that line for tests and screen readers.

    `form.fields` holds the controls; `form.button(...)` makes a button that acts (in the fields, or
    among `form.dialog.actions` after Cancel); `form.acting(fn)` wraps any other handler the same way."""

    def __init__(self, app, title: str, controls: Sequence[ft.Control] = (), *, error_id: str = "dialog-error",
                 modal: bool = True, width: int = 380):
        self.app = app
        self.error = error_box(error_id)
        self.fields = ft.Column(list(controls), tight=True, scroll=ft.ScrollMode.AUTO, width=width, spacing=10,
                                horizontal_alignment=ft.CrossAxisAlignment.STRETCH)
        cancel = ft.TextButton(content=roomy(_("Cancel")), on_click=lambda e: self.close())
        self.dialog = dialog_frame(title, error=self.error, modal=modal, content=self.fields, actions=[cancel])

    def acting(self, fn: Callable[[], Any], *, close: bool = True) -> Callable:
        """A handler running `fn()` (synchronous); unless refused, it then closes the dialog (`close`)."""
        said = self.error.content

        def act(e=None) -> None:
            said.value = ""
            done = []
            self.app.guard(lambda _event: done.append(fn()), show_in=said)(e)
            if self.error.visible != bool(said.value):
                self.error.visible = bool(said.value)
                _send(self.error)
            if done and close:
                self.close()
        return act

    def button(self, words: str, fn: Callable[[], Any], *, close: bool = True, **look) -> ft.Control:
        """A wide_button (`look`: its icon, filled, tonal, disabled, …) acting as `acting` says."""
        return wide_button(words, self.acting(fn, close=close), **look)

    def actions(self, *buttons: ft.Control) -> None:
        """Buttons after Cancel, at the dialog's foot."""
        self.dialog.actions += list(buttons)

    def show(self) -> None:
        self.app.page.show_dialog(self.dialog)

    def close(self) -> None:
        close_dialog(self.app, self.dialog)


def history_line(row) -> ft.Control:
    """One action in words: '#seq · context · label', its events, and whether its dice were entered."""
    head = f"#{row.seq} · " + (f"{render(row.context)} · " if row.context else "") + render(row.label)
    physical = any(d[2] for d in row.dice) if row.dice else False
    # A line never changes once made: frozen, so a redraw's diff passes over it whole.
    return frozen(ft.Container(ft.Column([
        ft.Text(head, weight=ft.FontWeight.BOLD, theme_style=ft.TextThemeStyle.BODY_MEDIUM),
        *[ft.Text(render(Event.coerce(e).text), theme_style=ft.TextThemeStyle.BODY_MEDIUM) for e in row.events],
        *([ft.Text(_("Physical dice entered."), theme_style=ft.TextThemeStyle.BODY_SMALL, italic=True)] if physical else []),
    ], spacing=2), padding=ft.Padding.symmetric(vertical=6)))


def frozen(control: ft.Control) -> ft.Control:
    """Mark a control that never changes once made (a history line) as Flet marks what a component
    renders: a diff that meets it again where it was passes over it at once, instead of walking it
    (as it walks any other control, changed or not: ~50 µs per control, on every phone, with every
    change). Setting a property of it afterwards raises. Flet's own mark (`_frozen`; flet is pinned:
    1.0.5), set before it is first sent, so that Flet marks its children too."""
    object.__setattr__(control, "_frozen", True)
    return control


@ft.control("Column", isolated=True)
class OwnColumn(ft.Column):
    """A Column that a page-wide update passes over: it sends its own changes with `.update()`.
    For long parts of a screen that change rarely (the history, the dice tray), so each redraw
    doesn't diff them on every phone."""


@ft.control("Container", isolated=True)
class OwnContainer(ft.Container):
    """A Container that a page-wide update passes over, as OwnColumn: for a part of a screen that
    changes rarely and then sends its own changes (`.update()`), or never changes once made."""


def changed_since_sent(root: ft.Control) -> bool:
    """True when a property of `root`, or of a control inside it, was set to a new value since Flet
    last sent it (Flet marks those in `_dirty`; flet is pinned: 1.0.5). For an isolated part kept
    across redraws whose controls are updated in place: send it (`.update()`) only when this says so,
    since even an update that finds nothing walks the whole part. A list of controls replaced or
    reordered isn't noticed: such a part must be sent whenever its lists change."""
    stack = [root]
    while stack:
        control = stack.pop()
        if getattr(control, "_dirty", None):
            return True
        stack.extend(v for v in getattr(control, "_values", {}).values() if isinstance(v, ft.BaseControl))
        for name in ("controls", "actions"):
            stack.extend(c for c in getattr(control, name, None) or () if isinstance(c, ft.BaseControl))
    return False


class HistoryList:
    """The history of a screen that follows a campaign: one Column kept for the screen's life, whose
    lines are made once per action and reused, so a change adds a line (and drops the oldest shown)
    instead of redrawing and diffing the whole list on every phone. It lists the newest lines only
    (see CampaignScreen): every line shown costs each phone with every change, on the table's
    computer and in the phone's browser. `more` (put it under the lines) shows earlier ones: its
    tap calls `on_more`."""

    def __init__(self, *, empty: str = N_("Nothing has happened yet."), on_more: Optional[Callable] = None):
        self.empty = ft.Text(_(empty), italic=True)
        self.column = OwnColumn([self.empty], spacing=0)
        self._lines: dict[tuple, ft.Control] = {}
        self._on_more = on_more
        self.more = OwnContainer(visible=False)
        self._earlier = 0  # how many earlier lines the button offers (0: no button)

    def show(self, rows: Sequence, *, earlier: int = 0, more: int = 0) -> list[ft.Control]:
        """Show these rows, and a button for `more` of the `earlier` lines not shown (when there are
        any); the isolated parts whose look that changed (send each with `.update()`)."""
        changed: list[ft.Control] = []
        keys = [(row.seq, row.label, row.created_at) for row in rows]  # a redone or new row differs
        if keys != list(self._lines):
            lines = {key: self._lines.get(key) or history_line(row) for key, row in zip(keys, rows)}
            self._lines = lines
            self.column.controls = list(lines.values()) or [self.empty]
            changed.append(self.column)
        offered = min(more, earlier)  # what the button says: the same with each change once there are many
        if offered != self._earlier:
            self._earlier = offered
            self.more.visible = offered > 0
            # the kit's big button: its words wrap at the largest text size rather than being cut off
            self.more.content = tagged("history-more", wide_button(
                ngettext("Show {n} earlier action", "Show {n} earlier actions", offered), self._on_more,
                filled=False))
            changed.append(self.more)
        return changed


class DiceTray:
    """Quick dice, any NdX, custom named-face dice, and "I rolled …" entry of physical dice.

    `on_roll(count, sides, faces, name, entered)` does the rolling (it is an action in a campaign,
    or a local roll on the Dice screen) and returns nothing; errors are shown by the caller."""

    QUICK = ("d6", "2d6", "3d6", "d12")

    def __init__(self, on_roll: Callable[..., None], *, black_faces: int = 1, sizes=None):
        self.on_roll = on_roll
        self.black_faces = black_faces
        self.sizes = sizes
        # As wide as its label at the phone's text size ("Würfel (NdX)" wrapped into the border at 150 px).
        self.notation = ft.TextField(label=_("Dice (NdX)"), value=self.QUICK[1], width=max(150, sizes(130)) if sizes else 150,
                                     text_size=sizes(18) if sizes else 18)
        self.entered = ft.TextField(label=_("I rolled … (faces, e.g. 3 5)"), expand=True, visible=False)
        self.physical_row, self.physical = switch_row(_("I rolled physical dice"), False, self._toggle)

    def _toggle(self, e) -> None:
        self.entered.visible = bool(self.physical.value)
        self.entered.update()

    def _faces_entered(self) -> list[int]:
        if not self.physical.value:
            return []
        text = (self.entered.value or "").replace(",", " ").split()
        if not text:
            raise InputError(_("Type the faces you rolled, e.g. “3 5”, or switch off “I rolled physical dice”."))
        try:
            return [int(t) for t in text]
        except ValueError:
            raise InputError(_("Faces are whole numbers, like “3 5”.")) from None

    def _roll_notation(self, text: str) -> None:
        count, kind = parse_notation(text)
        entered = self._faces_entered()
        if entered and len(entered) != count:
            raise InputError(ngettext("{dice} needs {n} face; you typed {typed}.", "{dice} needs {n} faces; you typed {typed}.",
                                       count, dice=f"{count}d{kind.sides}", typed=str(len(entered))))
        self.on_roll(count, kind.sides, None, "", entered)

    def _roll_hand_die(self) -> None:
        die = hand_die(self.black_faces)
        entered = self._faces_entered()
        self.on_roll(1, 6, list(die.faces), HAND_DIE, entered)

    def control(self, guard: Callable) -> ft.Control:
        quick = [ft.FilledTonalButton(content=q, height=TAP, on_click=guard(lambda e, q=q: self._roll_notation(q)))
                 for q in self.QUICK]
        hand = ft.FilledTonalButton(content=_("Hand die"), icon=ft.Icons.BACK_HAND, height=TAP,
                                    tooltip=_("Biosphere 5 hand die: {black} of 6 faces show the black hand",
                                              black=self.black_faces),
                                    on_click=guard(lambda e: self._roll_hand_die()))
        custom = ft.Row([self.notation, ft.FilledButton(content=_("Roll"), icon=ft.Icons.CASINO, height=TAP,
                                                        on_click=guard(lambda e: self._roll_notation(self.notation.value or "")))],
                        vertical_alignment=ft.CrossAxisAlignment.CENTER, wrap=True)
        return ft.Column([ft.Row(quick + [hand], wrap=True, spacing=8, run_spacing=8), custom,
                          self.physical_row, self.entered], spacing=GAP)


class DicePad:
    """Entering the dice a physical-dice table rolled, for the roll the campaign waits for: one big
    button per face (numbers, or the die's named faces such as Bug / Idea / Progress or black hand
    / blank) — never a text field with the letter keyboard. `on_done(faces)` gets the values.

    Dice with a few named faces, none set apart, are entered by count (issue #30): a row per face
    with its count, − and "the rest", so "2 Bugs, 1 Idea, the rest Progress" is four taps whatever
    the pool. The faces go to the log as the same list of values, in the order entered."""

    MAX_BUTTONS = 20  # dice with more sides take a number field (number keyboard)
    MAX_COUNTED = 4  # named faces entered by count: a row each (more would push "Use these dice" off a phone)

    def __init__(self, chance: Chance, on_done: Callable[[list[int]], None], *, sizes=None):
        self.chance = chance
        self.on_done = on_done
        self.sizes = sizes or (lambda x: x)
        self.faces: list[int] = []
        self.shown = ft.Container()
        self.count_text = ft.Text("", theme_style=ft.TextThemeStyle.BODY_LARGE)
        self.use = wide_button(_("Use these dice"), None, icon=ft.Icons.CHECK)
        self.back = wide_button(_("Remove last"), None, icon=ft.Icons.BACKSPACE, filled=False)
        self.number = ft.TextField(label=_("Face (1–{sides})", sides=chance.die.sides), keyboard_type=ft.KeyboardType.NUMBER,
                                   width=160, height=TAP + 8)
        self.counted: dict[int, tuple[ft.Text, ft.Control]] = {}  # face value → its count and its − button

    @property
    def by_count(self) -> bool:
        """Entered by count: several dice alike (no golden die to enter first), with a few named faces."""
        die = self.chance.die
        return self.chance.count > 1 and not self.chance.first and bool(die.faces) \
            and len(die.choices()) <= self.MAX_COUNTED

    def _show(self) -> None:
        die = self.chance.die
        self.shown.content = (dice_faces([_(die.face_name(f)) for f in self.faces], sizes=self.sizes, highlight=True,
                                         first=self.chance.first)
                              if self.faces else ft.Text(_("No dice entered yet."), italic=True))
        self.count_text.value = _("{entered} of {count} entered", entered=len(self.faces), count=self.chance.count)
        self.use.disabled = len(self.faces) != self.chance.count
        self.back.disabled = not self.faces
        for value, (count, minus) in self.counted.items():
            count.value = str(self.faces.count(value))
            minus.content.disabled = value not in self.faces

    def _full(self) -> InputError:
        return InputError(_("All {count} dice are entered: use them, or remove the last one.", count=self.chance.count))

    def _add(self, value: int) -> None:
        if len(self.faces) >= self.chance.count:
            raise self._full()
        self.faces.append(value)
        self._refresh()

    def _rest(self, value: int) -> None:
        """Every die not entered yet shows this face."""
        left = self.chance.count - len(self.faces)
        if left <= 0:
            raise self._full()
        self.faces.extend([value] * left)
        self._refresh()

    def _less(self, value: int) -> None:
        if value in self.faces:
            del self.faces[len(self.faces) - 1 - self.faces[::-1].index(value)]
        self._refresh()

    def _use(self) -> None:
        # The button is greyed out until the count is right; a tap that reaches it anyway changes nothing.
        if len(self.faces) != self.chance.count:
            raise InputError(_("{entered} of {count} dice entered: enter each die the table threw, no more.",
                                 entered=len(self.faces), count=self.chance.count))
        self.on_done(list(self.faces))

    def _add_number(self) -> None:
        text = (self.number.value or "").strip()
        if not text.isdigit() or not 1 <= int(text) <= self.chance.die.sides:
            raise InputError(_("A {die} shows 1 to {sides} (got “{got}”).", die=_(self.chance.die.label),
                                 sides=self.chance.die.sides, got=text[:8]))
        self.number.value = ""
        self._add(int(text))

    def _remove(self) -> None:
        if self.faces:
            self.faces.pop()
        self._refresh()

    def _refresh(self) -> None:
        self._show()
        for c in (self.shown, self.count_text, self.use, self.back, self.number,
                  *(part for pair in self.counted.values() for part in pair)):
            try:
                c.update()
            except Exception:  # not on the page yet (a redraw replaced the pad)
                pass

    def _counter(self, label: str, value: int, guard: Callable) -> ft.Control:
        """One face's row: − · its count · the face (a tap adds one die) · the rest show it."""
        face = _(label)
        count = tagged(f"pending-face-{value}", ft.Text("0", size=self.sizes(26), weight=ft.FontWeight.BOLD,
                                                        text_align=ft.TextAlign.CENTER, width=self.sizes(34)))
        minus = icon_button(ft.Icons.REMOVE, _("one {face} less", face=face), guard(lambda e: self._less(value)),
                            size=24, round_=True)
        self.counted[value] = (count.content, minus)
        add = ft.Semantics(label=_("face {face}", face=face), button=True, container=True, content=ft.FilledTonalButton(
            content=roomy(face, centred=True, size=self.sizes(18), bold=True), expand=True,
            on_click=guard(lambda e: self._add(value))))
        add.expand = True
        rest = ft.Semantics(label=_("the rest {face}", face=face), button=True, container=True, content=ft.OutlinedButton(
            content=roomy(_("The rest"), centred=True), on_click=guard(lambda e: self._rest(value))))
        return ft.Row([minus, count, add, rest], spacing=4, vertical_alignment=ft.CrossAxisAlignment.CENTER)

    def control(self, guard: Callable) -> ft.Control:
        die = self.chance.die
        self.counted = {}
        self.use.on_click = guard(lambda e: self._use())
        self.back.on_click = guard(lambda e: self._remove())
        if self.by_count:
            pad = ft.Column([self._counter(label, value, guard) for label, value in die.choices()], spacing=8,
                            horizontal_alignment=ft.CrossAxisAlignment.STRETCH)
        elif die.sides <= self.MAX_BUTTONS or die.faces:
            width = 72 if not die.faces else None
            pad = ft.Row([
                ft.Semantics(label=_("face {face}", face=_(label)), button=True, container=True, content=ft.FilledTonalButton(
                    content=ft.Text(_(label), size=self.sizes(22 if not die.faces else 18), weight=ft.FontWeight.BOLD),
                    height=TAP + 8, width=width, on_click=guard(lambda e, v=value: self._add(v))))
                for label, value in die.choices()
            ], wrap=True, spacing=8, run_spacing=8)
        else:
            pad = ft.Row([self.number, ft.FilledTonalButton(content=_("Add"), height=TAP,
                                                            on_click=guard(lambda e: self._add_number()))])
        self._show()
        odds = [tagged("pending-odds", ft.Text(f"{render(o.label)}: {fmt_percent(o.probability)}", theme_style=ft.TextThemeStyle.BODY_MEDIUM))
                for o in self.chance.outcomes]
        # A die's and a face's name, and who rolls ("The Machine"), are the rules' words: said here.
        who = _("{who} rolls.", who=_(self.chance.who)) + " " if self.chance.who else ""
        if self.by_count:
            how = _("How many dice show each face? “The rest” gives a face to every die not counted yet:")
        elif self.chance.first:
            how = _("Tap what each die shows — the {first} die first:", first=_(self.chance.first))
        else:
            how = _("Tap what each die shows:")
        return ft.Column([
            ft.Text(_("Roll {count} {die}", count=self.chance.count, die=_(die.label)), theme_style=ft.TextThemeStyle.HEADLINE_SMALL,
                    weight=ft.FontWeight.BOLD),
            tagged("pending-why", ft.Text(who + _("For {reason}.", reason=self.chance.why), theme_style=ft.TextThemeStyle.BODY_LARGE)),
            *odds,
            ft.Text(how, theme_style=ft.TextThemeStyle.BODY_MEDIUM),
            pad,
            tagged("pending-count", self.count_text),
            # Counted faces show their counts in their rows: the dice drawn again would only add height.
            *([] if self.by_count else [tagged("pending-entered", self.shown)]),
            # One above the other, each the pad's width: side by side, large words squeezed "Use these
            # dice" into a column of letters on a small phone.
            self.use,
            *([] if self.by_count else [self.back]),
        ], spacing=GAP, horizontal_alignment=ft.CrossAxisAlignment.STRETCH)


WILD_GOLD = "#C9A227"


def dice_faces(values: Sequence[str], *, sizes=None, highlight: bool = False, first: str = "") -> ft.Control:
    """Dice drawn as rounded squares with their face (a number or a face name). `first`: the first
    die is a different one (KLAW's golden wild die): a gold frame and its name under it."""
    size = sizes(52) if sizes else 52

    def die(i: int, v: str) -> ft.Control:
        special = bool(first) and i == 0
        square = ft.Container(ft.Text(v, size=size * (0.45 if len(v) < 3 else 0.22), weight=ft.FontWeight.BOLD,
                                      text_align=ft.TextAlign.CENTER),
                              width=size, height=size, alignment=ft.Alignment.CENTER, border_radius=10,
                              bgcolor=ft.Colors.PRIMARY_CONTAINER if highlight else ft.Colors.SURFACE_CONTAINER_HIGHEST,
                              border=ft.Border.all(4, WILD_GOLD) if special else ft.Border.all(2, ft.Colors.PRIMARY))
        if not special:
            return square
        return ft.Column([square, ft.Text(first, theme_style=ft.TextThemeStyle.LABEL_MEDIUM, weight=ft.FontWeight.BOLD)],
                         spacing=2, tight=True, horizontal_alignment=ft.CrossAxisAlignment.CENTER)

    return ft.Row([die(i, v) for i, v in enumerate(values)], wrap=True, spacing=8, run_spacing=8)


def scroll_keyed(key: str, control: ft.Control) -> ft.Control:
    """Mark a part of a screen as a place to scroll to (scroll_into_view): `control` itself, keyed."""
    control.key = ft.ScrollKey(key)
    return control


def scroll_into_view(frame, key: Optional[str]) -> None:
    """Scroll this phone's screen so the part keyed `key` (its `ft.ScrollKey`) starts at the top: after
    a tap, what the game now waits for (the next step's button, a choice) is in view without a swipe.
    `key` None: the screen's top, where the frame asks for the dice a roll waits for. Nothing happens
    where the part isn't on the screen (left, or redrawn without it)."""
    page = getattr(getattr(frame, "app", None), "page", None)
    views = getattr(page, "views", None)
    if not views:
        return
    view = views[-1]

    async def go():
        # The client carries out a scroll as soon as it gets it, against the layout it has then: give it
        # the redraw's frame first, or it scrolls to where the part was before the tap.
        await asyncio.sleep(0.15)
        try:
            if key is None:
                await view.scroll_to(offset=0)
            else:
                await view.scroll_to(scroll_key=key)
        except Exception:  # the screen was left meanwhile: nothing to scroll
            pass
    page.run_task(go)


QR_SIZE = 300  # px: big enough to scan across a table, small enough for a 360 px phone's dialog


def qr_shapes(text: str, size: float = QR_SIZE) -> list:
    """A QR code as canvas shapes: a white square, then one rectangle per run of dark modules in a
    row. Drawn, not decoded: an image given as bytes shows as nothing on a LAN page (see qr_modules)."""
    rows = qr_modules(text)
    cell = size / len(rows)
    runs = []
    for y, row in enumerate(rows):
        x = 0
        while x < len(row):
            if not row[x]:
                x += 1
                continue
            start = x
            while x < len(row) and row[x]:
                x += 1
            runs.append(cv.Path.Rect(start * cell, y * cell, (x - start) * cell, cell))
    # Without anti-aliasing the runs of neighbouring rows meet with no faint seam between them.
    return [cv.Rect(0, 0, size, size, paint=ft.Paint(color=ft.Colors.WHITE, style=ft.PaintingStyle.FILL)),
            cv.Path(runs, paint=ft.Paint(color=ft.Colors.BLACK, style=ft.PaintingStyle.FILL, anti_alias=False))]


def qr_code(text: str, size: float = QR_SIZE) -> cv.Canvas:
    """The QR code of `text`, drawn (dark on white whatever the theme)."""
    return cv.Canvas(qr_shapes(text, size), width=size, height=size)


def qr_dialog(title: str, text: str, *, caption: str = "") -> ft.AlertDialog:
    """A QR code big enough to scan across a table, with its text underneath and a copy button.
    A phone's browser may refuse to copy (a page on the LAN is not a secure context): the page then
    says so, and the whole text shows here, selectable, to copy by hand."""
    full = tagged("qr-full-text", ft.TextField(value=text, read_only=True, multiline=True, max_lines=4,
                                                label=_("Select and copy"), text_style=ft.TextStyle(size=13)))
    full.visible = False

    async def copy(e):
        from companion.app import copy_text

        copied = await copy_text(e.control.page, text)
        e.control.content = _("Copied") if copied else _("Copy again")
        e.control.update()
        if not copied:
            full.visible = True
            full.update()

    return dialog_frame(
        title,
        content=ft.Column([
            ft.Semantics(identifier="qr-image", label=_("QR code"), content=qr_code(text)),
            ft.Text(caption, theme_style=ft.TextThemeStyle.BODY_MEDIUM) if caption else ft.Container(),
            tagged("qr-text", ft.Text(text if len(text) < 120 else text[:117] + "…",
                                      theme_style=ft.TextThemeStyle.BODY_SMALL)),
            full,
        ], tight=True, horizontal_alignment=ft.CrossAxisAlignment.CENTER, width=320,
            scroll=ft.ScrollMode.AUTO),  # at the largest text the caption and the link outgrow a phone
        actions=[ft.TextButton(content=_("Copy text"), icon=ft.Icons.COPY, on_click=copy)],
    )
