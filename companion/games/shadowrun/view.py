"""Shadowrun: Singularis at the table: the money and reputation always on top, then the phase
stepper (what to do at the table, then exactly this phase's actions), the runners in play, the
objectives, and card effects. The ledger (every line, filter, chart) is its own screen. A desktop
(from 992 px) uses its width (WIDE): the stepper in the wider column, the money and reputation, the
objectives, the runners and the card effects beside it, so the next action and the ledger are both in
sight; a phone shows them one under the other, money first.

The view decides nothing a rule decides. Its buttons, their disabled reasons and the ranges of what
a player types come from the game's moves (`GAME.legal_moves`, each template's `FieldSpec`s); the
odds it shows come from the rolls' chance nodes (`GAME.chance_for`) and the rules' outcome helpers;
the rule texts from `R.HOW`; what just happened from the typed events in the history. Every action
is dispatched as it is: the rules declare its rolls, and at a table rolling physical dice the frame
asks for each die as it comes.

Every word is said in the phone's language at draw time: the view's own through `_()`, the rules'
(move labels, reasons, events, odds) as the messages they are (`render`); numbers and chances in the
phone's locale."""

from __future__ import annotations

import dataclasses
import threading
from typing import Any, Callable, Optional

import flet as ft

from companion.games.base import Event, FieldSpec, Outcome, field_specs
from companion.games.shadowrun import rules as R
from companion.games.shadowrun.screens import LedgerScreen
from companion.i18n import N_, _, fmt_percent, ngettext, pgettext, render
from companion.games.shadowrun.kept_cards import SHADOWRUN_CARD
from companion.remembered import cards as known_cards, remember
from companion.ui.forms import whole_number
from companion.ui.home import radio_row
from companion.ui.remembered import RememberedScreen, pick_list
from companion.ui.style import GAP, ICON_PADDING
from companion.ui.widgets import (icon_button, keyed, scroll_into_view, section, switch_row, tagged, text, tick_row,
                                  two_columns, wide_button)

# Drawn afresh from the state (and what was typed, kept in `_BUILD.memo`, and which folds are open, both kept
# per phone in its `Screen`, frame.screen_state) on every redraw, and never changed in place: the frame
# reconciles it with what the phone shows, so its controls keep their identity. A section whose inputs (all it shows) are
# unchanged is the one drawn last time (frame.kept, see CampaignScreen.kept; `Ui.keep`): the ledger on
# top, the stepper's parts, the objectives, the runners, the card effects.
RECONCILED = True

SCREENS = {"ledger": LedgerScreen}
GAME_SCREENS = {"cards": RememberedScreen.of("shadowrun")}

WIDE = True  # a desktop's width (CampaignScreen.view): the stepper beside the ledger and what is in play
WIDE_FROM = 992  # px: Flet's "lg" breakpoint, where two columns fit (as the other games)
STEPPER_SPLIT = 7  # twelfths of a desktop's width for the stepper; the rest beside it

# The seven phases of the book's turn, for the stepper strip (Credstick's five steps are one).
STRIP = [
    ("objective", N_("1 Objective"), ("objective",)),
    ("refresh", N_("2 Refresh"), ("refresh",)),
    ("credstick", N_("3 Credstick"), ("paid", "income", "payroll", "interest", "payment")),
    ("legwork", N_("4 Legwork"), ("legwork",)),
    ("shadowrun", N_("5 Shadowrun"), ("shadowrun",)),
    ("victory", N_("6 Victory"), ("victory",)),
    ("end", N_("7 End"), ("end",)),
]
NEGATIVE = ft.Colors.RED_700
RECENT = 12  # history rows read for "Just now" and this turn's interest sums


# --- small helpers -------------------------------------------------------------------------------------


class _Build(threading.local):
    """What the panel's build under way reads besides the state, set by `Ui` for the phone it draws
    for. Per thread: two phones' panels may be drawn at the same moment (a tap's handler in a worker
    thread, another phone's redraw on the event loop), and neither may read the other's."""

    def __init__(self) -> None:
        # What the player has typed but not yet sent, per screen: the panel is rebuilt on every refresh
        # (and the frame may refresh once more just after an action), so a rebuilt field gets it back.
        self.memo: dict = {}
        # How often each field (by label) was typed into or picked from, per screen, and the fields the
        # section under way has drawn: a kept section is drawn again once one of them was touched.
        self.touched: dict = {}
        self.used: set = set()
        self.scale = 1.0  # the phone's text size: a field's width grows with its words


_BUILD = _Build()
RUN_TARGET = "run-target"  # the run form's objective picker, as `_touch` notes it


def _touch(name: str, then: Optional[Callable] = None) -> Callable:
    """A field's change handler: notes the change (`touched`), then does `then`."""
    touched = _BUILD.touched
    _BUILD.used.add(name)

    def changed(e) -> None:
        touched[name] = touched.get(name, 0) + 1
        if then is not None:
            then(e)
    return changed


def _field(label: str, **kw) -> ft.TextField:
    memo = _BUILD.memo
    if label in memo:
        kw["value"] = memo[label]

    def keep(e) -> None:  # also makes the typed value reach the server as it is typed
        memo[label] = e.control.value
    return ft.TextField(label=label, on_change=_touch(label, keep), **kw)


def _tick(label: str, value: bool) -> tuple[ft.Control, ft.Checkbox]:
    """tick_row, its ticks noted (`_touch`): a kept section is drawn again, unticked as afresh."""
    row, box = tick_row(label, value)
    box.on_change = _touch(label, box.on_change)
    row.content.on_click = _touch(label, row.content.on_click)
    return row, box


LARGE_TEXT = 1.3  # from this text size on, a field that shares a row with an expanding one gets its own row
WIDEST = 280  # no fixed width beyond this: it fits a 360 px phone's card


def _w(width: int) -> int:
    """A field's width at this phone's text size (its label and number grow with it)."""
    return min(round(width * _BUILD.scale), WIDEST)


def _num(label: str, value: int | str = "", *, width: Optional[int] = 110, helper: str = "") -> ft.TextField:
    """A number field (its label and helper already in the phone's language), at least as wide as its
    label needs on one line (German words are long: "Konstitution" for "Body")."""
    if width:
        width = max(width, 11 * len(label))
    field = _field(label, value=str(value), width=_w(width) if width else None, helper=helper or None,
                   keyboard_type=ft.KeyboardType.NUMBER)  # the theme's size: it grows with the phone's text size
    if width is None:  # (an explicit expand=False would still wrap it in Expanded: never inside a Wrap)
        field.expand = True
    return field


def _row(*controls: ft.Control) -> ft.Control:
    # A wrapping row gives its children unbounded width, so a row with an expanding field never wraps.
    wrap = not any(getattr(c, "expand", False) for c in controls)
    if not wrap and _BUILD.scale >= LARGE_TEXT:
        # At a large text size the fixed-width ones leave the expanding one no room (its label broke
        # mid-word): one under the other, the expanding one across the card (a row lets it expand).
        return ft.Column([ft.Row([c]) if getattr(c, "expand", False) else c for c in controls], spacing=8)
    return ft.Row(list(controls), spacing=8, run_spacing=8, wrap=wrap,
                  vertical_alignment=ft.CrossAxisAlignment.CENTER)


def _box(*controls: ft.Control, color=ft.Colors.SURFACE_CONTAINER_HIGHEST) -> ft.Container:
    return ft.Container(ft.Column(list(controls), spacing=6, horizontal_alignment=ft.CrossAxisAlignment.STRETCH),
                        bgcolor=color, border_radius=12, padding=12)


def odds(outcomes: list[Outcome]) -> str:
    """A roll's outcomes as the rules describe them, with their chances, in the phone's language:
    "due on 1–4 (67%) · …"."""
    return " · ".join(f"{render(o.label)} ({fmt_percent(o.probability)})" for o in outcomes)


def label(spec: FieldSpec) -> str:
    """A field's name as the action model's description gives it, in the phone's language."""
    return _(spec.label)


def choice(value: str) -> str:
    """A dropdown's choice (a card type, an item, an account), in the phone's language."""
    return _(value)


def _dropdown(spec: FieldSpec, first: str) -> ft.Dropdown:
    """A choice among the field's choices, `first` picked to start with (if it is one of them); as wide
    as its longest choice needs in the phone's language ("Ausrüstung" is longer than "gear")."""
    said = {k: choice(k) for k in spec.choices}
    width = max(150, 72 + 10 * max(len(words) for words in said.values()))
    return ft.Dropdown(label=label(spec), value=first if first in spec.choices else spec.choices[0], width=_w(width),
                       options=[ft.DropdownOption(key=k, text=words) for k, words in said.items()],
                       on_select=_touch(label(spec)))


@dataclasses.dataclass
class Screen:
    """This phone's own state of the panel, kept across redraws (frame.screen_state): what it has typed
    but not sent (`memo`, by label), how often each field was typed into or picked from (`touched`),
    per kept section the fields it drew, what they held then and how often it was drawn for them
    (`fields`, see `Ui.keep`), and which folds are open (`folds`)."""

    memo: dict = dataclasses.field(default_factory=dict)
    touched: dict = dataclasses.field(default_factory=dict)
    fields: dict = dataclasses.field(default_factory=dict)
    folds: dict = dataclasses.field(default_factory=dict)


class Ui:
    """What one build of the panel needs: the frame, the state, the game's moves, and action makers."""

    def __init__(self, frame):
        self.frame = frame
        self.screen = frame.screen_state(Screen)  # this phone's own: what it typed, which folds are open
        self.memo = _BUILD.memo = self.screen.memo
        self.touched = _BUILD.touched = self.screen.touched
        self.fields = self.screen.fields
        sizes = getattr(frame.app, "sizes", None)
        self.scale = _BUILD.scale = getattr(sizes, "scale", 1.0)
        self.s: R.State = frame.loaded.game_state
        self.moves = R.GAME.legal_moves(self.s)
        self.guard = frame.app.guard
        self.recent = frame.history(RECENT)
        # A desktop's two columns (WIDE_FROM); one column while the page's width is unknown (not yet laid
        # out, or a test's frame without a page).
        self.wide = (getattr(getattr(frame.app, "page", None), "width", None) or 0) >= WIDE_FROM

    def keep(self, key: str, inputs: Any, build: Callable[[], ft.Control]) -> ft.Control:
        """The section drawn for `key` last time while `inputs` (all it shows, read from the state) are
        unchanged, and nothing was typed into or picked from its fields since (frame.kept)."""
        kept = getattr(self.frame, "kept", None)
        if kept is None:
            return build()

        def typed(names: tuple) -> tuple:
            return tuple((name, self.memo.get(name), self.touched.get(name, 0)) for name in names)
        names, then, drawn = self.fields.get(key, ((), (), 0))
        if typed(names) != then:
            drawn += 1  # typed into, picked from or emptied (sent) since: drawn again

        def built() -> ft.Control:
            outer, _BUILD.used = _BUILD.used, set()
            try:
                control = build()
                used = tuple(sorted(_BUILD.used))
                self.fields[key] = (used, typed(used), drawn)
            finally:
                _BUILD.used = outer
            return control
        # (the columns too: a section is drawn anew rather than moved into the other layout's column)
        return kept(key, (inputs, drawn, self.wide), built)

    def kinds(self, *kinds: str) -> tuple:
        """The moves of these kinds, allowed or greyed (what a section reads of the moves)."""
        return tuple(m for m in self.moves if m.kind in kinds)

    def of(self, kind: str) -> list:
        """The moves of this kind that may be made now (ready actions and templates)."""
        return [m for m in self.moves if m.kind == kind and m.why_not is None]

    def ok(self, kind: str) -> bool:
        return bool(self.of(kind))

    def why(self, kind: str) -> Optional[str]:
        """Why this kind may not be made now, in the phone's language (None: it may)."""
        if self.ok(kind):
            return None
        return render(next(m.why_not for m in self.moves if m.kind == kind and m.why_not))  # every kind is listed

    def spec(self, kind: str, name: str) -> FieldSpec:
        """A field of this kind's template (listed even while greyed), with what the state allows now."""
        return next(f for m in self.moves if m.kind == kind for f in m.fields if f.name == name)

    def number(self, field: ft.TextField, kind: str, name: str, default: Optional[int] = None) -> int:
        """The whole number typed into `field`, refused outside the range its move offers."""
        spec = self.spec(kind, name)
        value = whole_number(field, label(spec), default)
        if spec.low is not None and spec.high is not None:
            R.require_range(label(spec), value, spec.low, spec.high)
        return value

    def num(self, kind: str, name: str, value: int | str = "", *, width: Optional[int] = 110) -> ft.TextField:
        """A number field labelled as the move names it, with its range as the hint."""
        spec = self.spec(kind, name)
        return _num(label(spec), value, width=width, helper=spec.hint)

    def send(self, make: Callable[[], Any], then: Optional[Callable[[Any], None]] = None) -> Callable:
        """A tap handler dispatching the action `make()` builds (reading the form at tap time). A roll
        pulses; at a physical-dice table the frame then asks for its dice. Whether it rolls is read
        when tapped: the button may be a kept section's, drawn for an older state. `then(action)`
        runs once the action is in the log."""
        def go(e):
            action = make()
            # Sent: the form starts empty again. Emptied before the dispatch, whose redraw would put the
            # typed text back; kept when the action is refused, to be corrected.
            typed = dict(self.memo)
            self.memo.clear()
            try:
                now = self.frame.loaded.game_state
                self.frame.dispatch(action, pulse=R.GAME.chance_for(now, action) is not None)
            except Exception:
                self.memo.update(typed)
                raise
            if then is not None:
                then(action)
        return self.guard(go)

    def button(self, words: Any, kind: str, on_click, *, icon=None, primary: bool = False,
               expand: bool = False) -> ft.Control:
        """A big button, live only when the rules allow `kind` now (the reason shows as its tooltip)."""
        reason = self.why(kind)
        button = wide_button(render(words), on_click, icon=icon, tonal=not primary, expand=expand,
                             disabled=reason is not None, tooltip=reason)
        required = R.required_now(self.s)
        if primary and reason is None and required is not None and required.kind == kind:
            button.key = ft.ScrollKey(f"sr-do-{kind}")  # the step's one required action: scrolled to (step_key)
        return button

    def move_button(self, move, *, icon=None, primary: bool = False, expand: bool = False) -> ft.Control:
        """The button of one move, labelled as the move says (greyed with its reason if it may not be made)."""
        return self.button(move.label, move.kind, self.send(lambda: move.action), icon=icon, primary=primary,
                           expand=expand)

    def first(self, kind: str):
        """This kind's first ready move, or the greyed one that says why not."""
        return next(m for m in self.moves if m.kind == kind and (m.ready or m.why_not))

    def just_now(self, *kinds: str) -> Optional[Event]:
        """The event of one of these kinds the latest action made, if it made one."""
        row = self.recent[0] if self.recent else None
        return next((e for e in map(Event.coerce, row.events) if e.kind in kinds), None) if row else None

    def latest(self, kind: str) -> Optional[Event]:
        """The newest event of this kind among the recent history (typed data, never sentences)."""
        for row in self.recent:
            for e in reversed(row.events):
                event = Event.coerce(e)
                if event.kind == kind:
                    return event
        return None


# --- the panel -----------------------------------------------------------------------------------------


def panel(frame) -> ft.Control:
    ui = Ui(frame)
    s = ui.s
    if getattr(frame, "drawing_own_action", False) and not ui.wide:
        # After this phone's action, what the turn waits for now in view: on a phone the phase's section
        # sits under the money, and a step's button was often a few swipes away. Dice asked for: the
        # frame's card at the screen's top.
        if frame.loaded.state.pending is not None:
            scroll_into_view(frame, None)
        elif (key := step_key(s)) is not None:
            scroll_into_view(frame, key)
    # Once over, the frame's end card says how the game ended: the panel keeps the final balances and
    # what was in play, and says it no second time. Each section is kept while what it shows is unchanged.
    money = ui.keep("dashboard", (s.loan, s.cash, s.interest, s.debt, s.reputation, s.settings.target_reputation,
                                  s.phase, s.turn), lambda: dashboard(ui))
    steps = stepper(ui) if s.phase != "over" else None
    in_play: list[ft.Control] = []
    if s.phase not in ("setup", "objective"):
        in_play.append(ui.keep("objectives", (s.objectives, ui.ok("discard_objective")),
                               lambda: objectives_section(ui, with_form=False)))
    in_play.append(runners_section(ui))
    if s.phase != "over":
        in_play.append(ui.keep("effects", (ui.kinds("adjust", "pick_random"), ui.just_now("random_pick"),
                                           ui.screen.folds.get("effects", False)), lambda: effects_section(ui)))
    if not ui.wide:  # a phone: the money on top, then the stepper, then what is in play
        return ft.Column([money, *([steps] if steps else []), *in_play], spacing=GAP)
    # A desktop: the stepper (the next action) in the wider column, the money and what is in play beside
    # it; once over, what was in play beside the final balances (the money on the right, as in play).
    left, right = ([steps], [money, *in_play]) if steps else (in_play, [money])
    return two_columns(left, right, split=STEPPER_SPLIT)


def _part(controls: list[ft.Control]) -> ft.Control:
    """A kept part of a section's column: spaced and stretched as the section's own rows."""
    return ft.Column(controls, spacing=GAP, horizontal_alignment=ft.CrossAxisAlignment.STRETCH)


def _tile(words: str, value: int, identifier: str, *, color=None) -> ft.Control:
    # As wide as the words need at the phone's text size (two to a row on a small phone at the largest),
    # a label too long for one line wrapping onto a second rather than being cut off.
    return ft.Container(ft.Column([
        ft.Text(words, theme_style=ft.TextThemeStyle.LABEL_MEDIUM, text_align=ft.TextAlign.CENTER),
        tagged(identifier, ft.Text(render(value), size=round(26 * _BUILD.scale), weight=ft.FontWeight.BOLD, color=color)),
    ], spacing=0, horizontal_alignment=ft.CrossAxisAlignment.CENTER),
        width=max(104, round(88 * _BUILD.scale)), padding=ft.Padding.symmetric(vertical=2, horizontal=4), border_radius=10,
        bgcolor=ft.Colors.SURFACE_CONTAINER_HIGHEST)


def dashboard(ui: Ui) -> ft.Control:
    s = ui.s
    rep_color = NEGATIVE if s.reputation < 0 else None
    where = render(R.phase_title("setup")) if s.phase == "setup" else _("Turn {turn}", turn=s.turn)
    cells = [
        _tile(_("Loan"), s.loan, "sr-loan"),
        _tile(_("Cash"), s.cash, "sr-cash"),
        _tile(_("Interest owed"), s.interest, "sr-interest"),
        _tile(_("Total debt"), s.debt, "sr-debt"),
        _tile(_("Reputation"), s.reputation, "sr-rep", color=rep_color),
        _tile(pgettext("reputation to reach", "Target"), s.settings.target_reputation, "sr-target"),
    ]
    tiles: ft.Control
    if ui.wide:  # the desktop's side column: two even rows of three (a wrap left four and two)
        for cell in cells:
            cell.width, cell.col = None, {"xs": 4}
        tiles = ft.ResponsiveRow(cells, spacing=8, run_spacing=8)
    else:
        tiles = ft.Row(cells, wrap=True, spacing=8, run_spacing=8, alignment=ft.MainAxisAlignment.CENTER)
    titles = ft.Column([
        tagged("sr-turn", ft.Text(where, theme_style=ft.TextThemeStyle.TITLE_LARGE, weight=ft.FontWeight.BOLD)),
        # Once over, the frame's end card says the result (the phase would only repeat it); in setup
        # the phase is "Setup", said just above.
        *([] if s.phase in ("over", "setup") else [tagged("sr-phase", ft.Text(
            render(R.phase_title(s.phase)), theme_style=ft.TextThemeStyle.TITLE_MEDIUM, color=ft.Colors.PRIMARY))]),
    ], spacing=0, expand=True)
    ledger = wide_button(_("Ledger"), lambda e: ui.frame.app.go(f"/c/{ui.frame.campaign_id}/ledger"),
                         icon=ft.Icons.RECEIPT_LONG, filled=False)
    # At a large text size the button ("Kassenbuch") left the phase's words a sliver: they broke mid-word.
    head: ft.Control = (ft.Column([ft.Row([titles]), ledger], spacing=8, horizontal_alignment=ft.CrossAxisAlignment.START)
                        if _BUILD.scale >= LARGE_TEXT else
                        ft.Row([titles, ledger], vertical_alignment=ft.CrossAxisAlignment.CENTER))
    rows: list[ft.Control] = [head, tiles]
    survival = R.survival_outcomes(s.reputation)
    if survival and s.phase != "over":
        rows.append(text(_("Reputation is negative: interest is {rate}%, and the Victory/Failure roll: {odds}.",
                           rate=R.interest_rate(s.reputation), odds=odds(survival)), color=NEGATIVE))
    return ft.Card(content=ft.Container(ft.Column(rows, spacing=10), padding=12), margin=ft.Margin.only(bottom=4))


def _strip(ui: Ui) -> ft.Control:
    phase = ui.s.phase
    chips = []
    for key, words, phases in STRIP:
        current = phase in phases
        chips.append(ft.Container(
            ft.Text(_(words), theme_style=ft.TextThemeStyle.LABEL_MEDIUM, weight=ft.FontWeight.BOLD if current else None,
                    color=ft.Colors.ON_PRIMARY if current else None),
            bgcolor=ft.Colors.PRIMARY if current else ft.Colors.SURFACE_CONTAINER_HIGHEST,
            # (a desktop's stepper column fits the seven on one line with a little less padding)
            border_radius=16, padding=ft.Padding.symmetric(horizontal=8 if ui.wide else 10, vertical=6)))
    return ft.Row(chips, wrap=True, spacing=6, run_spacing=6)


def _last_events(ui: Ui) -> Optional[ft.Control]:
    if not ui.recent or not ui.recent[0].events:
        return None
    row = ui.recent[0]
    events = [Event.coerce(e) for e in row.events]
    # A step that passed by itself says so (naming the step): the line announcing it would say it twice.
    passed = {e.data.get("phase") for e in events if e.kind == "step_passed"}
    shown = [e for e in events if not (e.kind == "phase" and e.data.get("phase") in passed)]
    return tagged("sr-last", _box(
        text(_("Just now · {action}", action=row.label), bold=True),
        *[text(e.text, italic=e.kind == "step_passed") for e in shown], color=ft.Colors.SECONDARY_CONTAINER))


ADVANCE_KEY = "sr-advance"  # the Advance button: scrolled into view once open, after an action on a phone


def step_key(s: R.State) -> Optional[str]:
    """(Not the frame's `next_key` hook: this panel scrolls to it itself, as it is drawn.) Where the
    control the turn waits for is: the step's required action, else the open Advance
    button; None while the phase leaves the table a choice (a form being filled in stays where it is)."""
    required = R.required_now(s)
    if required is not None:
        return f"sr-do-{required.kind}"
    return ADVANCE_KEY if R.GAME.why_not(s, R.Advance()) is None else None


def stepper(ui: Ui) -> ft.Control:
    """The phase's section, each part kept while what it shows is unchanged: the phase's own actions
    while the state is (a roll at the dice tray or a table note leaves them as they were), the
    Legwork's part by part."""
    s = ui.s
    body: list[ft.Control] = []
    if s.phase != "setup":
        body.append(ui.keep("strip", s.phase, lambda: _strip(ui)))
    body.append(ui.keep("guide", s.phase, lambda: tagged("sr-guide", text(R.PHASE_GUIDE[s.phase], italic=True))))
    row = ui.recent[0] if ui.recent else None
    if row is not None and row.events:
        body.append(ui.keep("last", (row.label, row.events), lambda: _last_events(ui)))
    if s.pending_errand is not None:
        body.append(ui.keep("phase", s, lambda: _part(errand_choice(ui))))
    elif s.damage is not None:
        body.append(ui.keep("phase", s, lambda: _part(damage_allocator(ui))))
    elif s.phase == "legwork":
        body += phase_legwork(ui)  # kept part by part: a tap changes one or two of them
    else:
        charged = ui.latest("interest") if s.phase == "interest" and s.step_done else None
        body.append(ui.keep("phase", (s, charged), lambda: _part(PHASES[s.phase](ui))))
    body.append(ui.keep("advance", (s.phase, s.turn, R.advance_to(s), ui.kinds("advance")), lambda: advance_button(ui)))
    return section(render(R.phase_title(s.phase)), *body)


def advance_button(ui: Ui) -> ft.Control:
    s = ui.s
    to = R.phase_title(R.advance_to(s))  # past the steps that will pass by themselves
    words = _("Advance to {phase}", phase=to)
    if s.phase == "setup":
        words = _("Start turn 1: {phase}", phase=to)
    elif s.phase == "end":
        words = _("Advance to turn {turn}: {phase}", turn=s.turn + 1, phase=to)
    reason = ui.why("advance")
    # A phase's required step keeps the advance closed until it is done: once open, it is THE next action.
    button = wide_button(words, ui.send(R.Advance), icon=ft.Icons.ARROW_FORWARD, filled=reason is None,
                         disabled=reason is not None)
    button.key = ft.ScrollKey(ADVANCE_KEY)
    rows: list[ft.Control] = [ft.Divider(), button]
    if reason:
        rows.append(text(reason, italic=True))
    return ft.Column(rows, spacing=6, horizontal_alignment=ft.CrossAxisAlignment.STRETCH)


# --- phase by phase ------------------------------------------------------------------------------------


def phase_setup(ui: Ui) -> list[ft.Control]:
    out = objectives_block(ui, with_form=True)
    if ui.s.settings.luck_of_the_draw:
        out += luck_block(ui, _("Draw your {n} cards.", n=R.HAND_SIZE))
    return out


def phase_objective(ui: Ui) -> list[ft.Control]:
    s = ui.s
    out = objectives_block(ui, with_form=True)
    extras = R.EXTRA_CHALLENGES[s.settings.difficulty]
    out.append(text(ngettext("1b · {how} {difficulty}: {n} extra challenge this turn.",
                               "1b · {how} {difficulty}: {n} extra challenges this turn.", extras,
                               how=R.HOW["refresh_challenges"], difficulty=R.DIFFICULTY_TITLES[s.settings.difficulty])))
    tie = R.GAME.chance_for(s, R.RefreshChallenges())
    if tie is not None:
        out.append(text(_("A full tie to break: {count} {die} for {why}: {odds}.", count=tie.count, die=tie.die.label,
                          why=tie.why, odds=odds(tie.outcomes))))
    out.append(ui.button(R.LABELS["refresh_challenges"], "refresh_challenges", ui.send(R.RefreshChallenges),
                         icon=ft.Icons.STYLE, primary=True))
    return out


def luck_block(ui: Ui, what: str) -> list[ft.Control]:
    table = " · ".join(f"{i} {d}" for i, d in enumerate(ui.s.settings.deck_table, start=1))
    return [text(_("Luck of the Draw"), ft.TextThemeStyle.TITLE_SMALL, bold=True),
            text(_("{what} {how} Decks: {decks}.", what=what, how=R.HOW["roll_luck"], decks=table)),
            ui.move_button(ui.first("roll_luck"), icon=ft.Icons.CASINO)]


def phase_refresh(ui: Ui) -> list[ft.Control]:
    s = ui.s
    out: list[ft.Control] = [
        text(_("Nuyen taken instead of cards this phase: {taken} of {hand}. {how}", taken=s.nuyen_taken,
               hand=R.HAND_SIZE, how=R.HOW["take_nuyen"])),
        ui.move_button(ui.first("take_nuyen"), icon=ft.Icons.PAYMENTS),
    ]
    if s.settings.luck_of_the_draw:
        out += luck_block(ui, _("Draw up to {n}.", n=R.HAND_SIZE))
    return out


def phase_paid(ui: Ui) -> list[ft.Control]:
    gained = ui.s.rep_from_objectives_last_turn
    pay = R.johnson_pay(gained)
    return [text(_("3a · {how} Reputation from objectives last turn: {gained} → +{pay}.", how=R.HOW["get_paid"],
                   gained=gained, pay=pay)),
            ui.button(_("Collect Mr Johnson's payment (+{pay})", pay=pay), "get_paid", ui.send(R.GetPaid),
                      icon=ft.Icons.PAYMENTS, primary=True)]


def phase_income(ui: Ui) -> list[ft.Control]:
    amount = ui.num("secondary_income", "amount", width=120)
    source = _field(label(ui.spec("secondary_income", "source")), expand=True, max_length=40)
    return [text(_("3b · Enter each card's income (Fame, Contacts…), or go on if none.")),
            _row(amount, source),
            ui.button(R.LABELS["secondary_income"], "secondary_income",
                      ui.send(lambda: R.SecondaryIncome(amount=ui.number(amount, "secondary_income", "amount"),
                                                        source=source.value or "")),
                      icon=ft.Icons.ADD)]


def phase_payroll(ui: Ui) -> list[ft.Control]:
    s = ui.s
    bill = R.payroll_bill(s)
    if not bill:
        return [text(_("3c · No card in play charges upkeep.")),
                ui.button(_("Pay the payroll (nothing due)"), "payroll", ui.send(R.Payroll),
                          icon=ft.Icons.GROUPS, primary=True)]
    due = R.upkeep_due(s)
    unpayable = R.payroll_unpayable(s)  # a choice the rules accept, ticked to start with
    ticks = {c.id: _tick(_("Leave {name} unpaid (upkeep {upkeep}): trashed", name=c.name, upkeep=c.upkeep),
                         c.id in unpayable) for c in bill}
    rows = [row for row, _ in ticks.values()]
    boxes = {cid: box for cid, (_, box) in ticks.items()}
    lines = [text(_("3c · Upkeep due: {cards} = {due}; cash {cash}.",
                    cards=", ".join(f"{c.name} {c.upkeep}" for c in bill), due=due, cash=s.cash))]
    if unpayable:
        lines.append(text(_("Cash is {short} short: tick the cards you can't pay; they are trashed.", short=due - s.cash),
                          color=NEGATIVE))
    return [*lines, *rows,
            ui.button(R.LABELS["payroll"], "payroll",
                      ui.send(lambda: R.Payroll(unpaid=[cid for cid, b in boxes.items() if b.value])),
                      icon=ft.Icons.GROUPS, primary=True)]


def phase_interest(ui: Ui) -> list[ft.Control]:
    s = ui.s
    if s.step_done:
        charged = ui.latest("interest")
        data = charged.data if charged else {}
        # The sums from the event's numbers (its `sums` are English): said in this phone's way.
        line = (_("Interest +{charge}: {sums}", charge=data["charge"], sums=R.interest_sums(data["rate"], data["debt"]))
                if data.get("charge") else _("No interest this turn.") if charged else _("Interest charged."))
        return [tagged("sr-interest-sums", text(line, ft.TextThemeStyle.TITLE_MEDIUM, bold=True)),
                text(_("Interest owed {interest}; total debt {debt}.", interest=s.interest, debt=s.debt))]
    rate = R.interest_rate(s.reputation)
    charge = R.interest_charge(rate, s.debt)
    return [text(_("3d · Rate {rate}% (reputation {reputation}) of loan + interest owed = {loan} + {interest} = "
                   "{debt}: {sums}.", rate=rate, reputation=s.reputation, loan=s.loan, interest=s.interest, debt=s.debt,
                   sums=R.interest_sums(rate, s.debt))),
            ui.button(_("Charge interest (+{charge})", charge=charge), "charge_interest", ui.send(R.ChargeInterest),
                      icon=ft.Icons.PERCENT, primary=True)]


def phase_payment(ui: Ui) -> list[ft.Control]:
    s = ui.s
    out: list[ft.Control] = [tagged("sr-payment-odds", text(_(
        "3e · Total debt {debt}: {odds}. Table: {table}.", debt=s.debt, odds=odds(R.payment_due_outcomes(s.debt)),
        table=R.payment_table())))]
    if s.payment_due is None:
        out.append(ui.move_button(ui.first("roll_payment_due"), icon=ft.Icons.CASINO, primary=True))
        return out
    if not s.payment_due:
        out.append(text(_("Not due this turn: the interest stays owed."), ft.TextThemeStyle.BODY_LARGE, bold=True))
        return out
    if s.step_done:
        out.append(text(_("The payment is settled for this turn."), ft.TextThemeStyle.BODY_LARGE, bold=True))
        return out
    out.append(text(_("Payment due: {interest} interest. Cash {cash}.", interest=s.interest, cash=s.cash),
                    ft.TextThemeStyle.BODY_LARGE, bold=True))
    short = ui.spec("pay_interest", "cash_in").high or 0  # cards that may be cashed in: what cash lacks
    cash_in = ui.num("pay_interest", "cash_in", 0, width=170)
    if short:
        out.append(text(_("Cash is {short} short. {how}", short=short, how=R.HOW["pay_interest"])))
        out.append(cash_in)
    out.append(_row(
        ui.button(R.LABELS["pay_interest"], "pay_interest",
                  ui.send(lambda: R.PayInterest(cash_in=ui.number(cash_in, "pay_interest", "cash_in", 0))),
                  icon=ft.Icons.PAYMENTS, primary=True),
        ui.button(_("Refuse (reputation −{interest})", interest=s.interest), "refuse_payment", ui.send(R.RefusePayment),
                  icon=ft.Icons.BLOCK),
    ))
    return out


def errand_choice(ui: Ui) -> list[ft.Control]:
    name = next((c.name for c in ui.s.cards if c.id == ui.s.pending_errand), None)
    two = R.GAME.chance_for(ui.s, R.RollTwo())
    said = (_("{name}'s errand rolled a 6. {how}", name=name, how=R.HOW["roll_two"]) if name
            else _("The runner's errand rolled a 6. {how}", how=R.HOW["roll_two"]))
    return [text(said, ft.TextThemeStyle.BODY_LARGE, bold=True),
            *([text(_("Two more dice: {odds}.", odds=odds(two.outcomes)))] if two else []),
            _row(ui.move_button(ui.first("take_six"), primary=True),
                 ui.move_button(ui.first("roll_two"), icon=ft.Icons.CASINO))]


def phase_legwork(ui: Ui) -> list[ft.Control]:
    """Errands and healing, deploying, selling and buying, paying off: each part kept while what it
    shows is unchanged."""
    s = ui.s
    runners = [c for c in s.cards if c.card_type == "runner"]
    return [ui.keep("legwork-errands", (ui.kinds("run_errand", "heal"), bool(runners)), lambda: _part(_errands(ui))),
            ui.keep("legwork-deploy", (len(runners), ui.kinds("deploy"), _known(ui)), lambda: _part(_deploy(ui))),
            ui.keep("legwork-trade", ui.kinds("sell_cards", "spend"), lambda: _part(_trade(ui))),
            ui.keep("legwork-pay-off", (s.loan, s.interest, s.cash, ui.kinds("pay_off")), lambda: _part(_pay_off(ui)))]


def _errands(ui: Ui) -> list[ft.Control]:
    s = ui.s
    out: list[ft.Control] = []
    runners = [c for c in s.cards if c.card_type == "runner"]
    # Errands
    out.append(text(_("Run errands"), ft.TextThemeStyle.TITLE_SMALL, bold=True))
    errands = ui.of("run_errand")
    if errands:
        out.append(text(R.HOW["run_errand"]))
        out.append(_row(*[ui.move_button(m, icon=ft.Icons.CASINO) for m in errands]))
    else:
        out.append(text(_("No unturned runner to send on an errand.") if runners else _("Deploy a runner first.")))
    # Heal
    heals = ui.of("heal")
    if heals:
        out.append(text(_("Heal"), ft.TextThemeStyle.TITLE_SMALL, bold=True))
        out.append(_row(*[ui.move_button(m, icon=ft.Icons.HEALING) for m in heals]))
    return out


def _deploy(ui: Ui) -> list[ft.Control]:
    runners = [c for c in ui.s.cards if c.card_type == "runner"]
    out: list[ft.Control] = []
    out.append(text(_("Deploy a card · runners in play {n} of {max}", n=len(runners), max=R.MAX_RUNNERS),
                    ft.TextThemeStyle.TITLE_SMALL, bold=True))
    known = pick_list(SHADOWRUN_CARD, list(_known(ui)), _known_words,
                      ui.guard(lambda card: _deploy_known(ui, card)), verb=_("Deploy {card}"), disabled=ui.why("deploy"))
    if known is not None:
        # Cards the table typed once (in any campaign): one tap deploys one again (#30).
        out += [text(_("Deployed before: one tap deploys it again.")), known,
                ft.TextButton(content=_("Share or forget these cards"), icon=ft.Icons.SHARE,
                              on_click=lambda e: ui.frame.app.go("/g/shadowrun/cards")),
                text(_("…or a new card:"), ft.TextThemeStyle.BODY_SMALL)]
    name = _field(label(ui.spec("deploy", "name")), expand=True, max_length=40)
    types = ui.spec("deploy", "card_type")
    kind = _dropdown(types, "runner")
    cost, upkeep, body, armor = (ui.num("deploy", "cost", width=80), ui.num("deploy", "upkeep", 0, width=80),
                                 ui.num("deploy", "body", width=80), ui.num("deploy", "armor", 0, width=80))

    def typed() -> R.Deploy:
        return R.Deploy(
            name=name.value or "", card_type=kind.value or "runner", cost=ui.number(cost, "deploy", "cost"),
            upkeep=ui.number(upkeep, "deploy", "upkeep", 0), body=ui.number(body, "deploy", "body"),
            armor=ui.number(armor, "deploy", "armor", 0))

    out += [_row(name, kind), _row(cost, upkeep, body, armor),
            ui.button(R.LABELS["deploy"], "deploy", ui.send(typed, then=lambda action: _remember(ui, action)),
                      icon=ft.Icons.PERSON_ADD)]
    return out


def _known(ui: Ui) -> tuple:
    """The cards this table has deployed before (companion.remembered), as the deploy section shows them."""
    store = getattr(ui.frame.app, "store", None)
    return tuple(known_cards(store, SHADOWRUN_CARD)) if hasattr(store, "catalog_kept") else ()


def _known_words(card) -> str:
    d = card.data
    return _("{card} · {type} · cost {cost}", card=card.name, type=choice(d["card_type"]), cost=d["cost"])


def _deploy_known(ui: Ui, card) -> None:
    ui.memo.clear()
    ui.frame.dispatch(R.Deploy(**card.data))


def _remember(ui: Ui, action: R.Deploy) -> None:
    """Keep the card just deployed by its name, for a tap next time (in this campaign or another); the
    deploy section then offers it (drawn again: what it shows changed)."""
    store = getattr(ui.frame.app, "store", None)
    if hasattr(store, "catalog_kept"):
        remember(store, SHADOWRUN_CARD, action.model_dump(mode="json"))
        ui.frame.refresh()


def _trade(ui: Ui) -> list[ft.Control]:
    out: list[ft.Control] = []
    out.append(text(_("Sell cards · buy gear"), ft.TextThemeStyle.TITLE_SMALL, bold=True))
    sold = ui.num("sell_cards", "count", 1, width=120)
    spend = ui.num("spend", "amount", width=100)
    items = ui.spec("spend", "item")
    item = _dropdown(items, "gear")
    out += [_row(sold, ui.button(R.LABELS["sell_cards"], "sell_cards",
                                 ui.send(lambda: R.SellCards(count=ui.number(sold, "sell_cards", "count"))),
                                 icon=ft.Icons.SELL)),
            _row(spend, item, ui.button(R.LABELS["spend"], "spend", ui.send(lambda: R.Spend(
                amount=ui.number(spend, "spend", "amount"), item=item.value or "gear")), icon=ft.Icons.SHOPPING_CART))]
    return out


def _pay_off(ui: Ui) -> list[ft.Control]:
    s = ui.s
    out: list[ft.Control] = []
    out.append(text(_("Pay off debt · loan {loan}, interest {interest}, cash {cash}", loan=s.loan, interest=s.interest,
                      cash=s.cash), ft.TextThemeStyle.TITLE_SMALL, bold=True))
    loan, interest = ui.num("pay_off", "loan", 0, width=140), ui.num("pay_off", "interest", 0, width=150)
    out += [_row(loan, interest),
            ui.button(R.LABELS["pay_off"], "pay_off", ui.send(lambda: R.PayOff(
                loan=ui.number(loan, "pay_off", "loan", 0), interest=ui.number(interest, "pay_off", "interest", 0))),
                icon=ft.Icons.ACCOUNT_BALANCE)]
    return out


def phase_shadowrun(ui: Ui) -> list[ft.Control]:
    s = ui.s
    if s.run is None:
        if s.run_taken:
            return [text(_("You have run this turn (one Shadowrun per turn)."))]
        return start_run_block(ui)
    return run_block(ui)


def start_run_block(ui: Ui) -> list[ft.Control]:
    s = ui.s
    if not s.objectives:
        return [text(_("No objective is in play: no run this turn."))]

    def pick(key: str) -> None:
        target.value = key
        target.update()

    # Rows whose words wrap (a Radio's or Checkbox's own label is cut off on a phone).
    target = ft.RadioGroup(value=str(s.objectives[0].id), on_change=_touch(RUN_TARGET), content=ft.Column([
        radio_row(str(o.id), ngettext("{name} · {rep} rep · {n} challenge", "{name} · {rep} rep · {n} challenges", o.challenges,
                           name=o.name, rep=o.rep),
                  _touch(RUN_TARGET, pick)) for o in s.objectives],
        spacing=0))
    candidates = R.team_candidates(s)
    picked = [c for c in candidates if c.card_type == "runner"][:R.MAX_RUNNERS]
    ticks = {c.id: _tick(_("{name} ({type}, body {left} of {body})", name=c.name, type=choice(c.card_type),
                           left=c.body - c.damage, body=c.body), c in picked)
             for c in candidates}
    boxes = {cid: box for cid, (_, box) in ticks.items()}
    out: list[ft.Control] = [
        text(_("Target objective"), ft.TextThemeStyle.TITLE_SMALL, bold=True), target,
        text(_("The team"), ft.TextThemeStyle.TITLE_SMALL, bold=True),
        *([row for row, _box in ticks.values()] or [text(_("No unturned runner, spirit or drone."))]),
        text(_("{how} Now: {draws}.", how=R.HOW["start_run"], draws=R.event_draws(s.reputation))),
        ui.button(R.LABELS["start_run"], "start_run", ui.send(lambda: R.StartRun(
            objective_id=int(target.value), team=[cid for cid, b in boxes.items() if b.value])),
            icon=ft.Icons.DIRECTIONS_RUN, primary=True),
        text(_("Or skip the run this turn: advance below.")),
    ]
    return out


def run_block(ui: Ui) -> list[ft.Control]:
    s = ui.s
    run = s.run
    objective = R.run_target(s)
    team = [c for c in s.cards if c.id in run.team]
    out: list[ft.Control] = [
        tagged("sr-run", _box(
            text(ngettext("Run on {name} · {rep} rep · {n} challenge left", "Run on {name} · {rep} rep · {n} challenges left",
                          objective.challenges, name=objective.name, rep=objective.rep), ft.TextThemeStyle.BODY_LARGE, bold=True),
            text(_("Team: {team}", team=", ".join(f"{c.name} ({c.damage}/{c.body})" for c in team)) if team
                 else _("Team: nobody left")),
            text(_("Events drawn {drawn} of {of}.", drawn=run.events_drawn, of=run.events_to_draw)),
        )),
    ]
    if ui.ok("draw_event"):
        cost = ui.num("draw_event", "cost", 0, width=200)
        out += [text(_("Draw event {number} of {of}", number=run.events_drawn + 1, of=run.events_to_draw),
                     ft.TextThemeStyle.TITLE_SMALL, bold=True),
                text(R.HOW["draw_event"]),
                _row(cost, ui.button(R.LABELS["draw_event"], "draw_event",
                                     ui.send(lambda: R.DrawEvent(cost=ui.number(cost, "draw_event", "cost"))),
                                     icon=ft.Icons.CASINO, primary=True))]
    out.append(text(_("Challenges (bottom to top)"), ft.TextThemeStyle.TITLE_SMALL, bold=True))
    amount = ui.num("start_damage", "amount", width=190)
    piercing = ui.spec("start_damage", "armor_piercing")
    ap = ft.Checkbox(label=label(piercing), value=False, on_change=_touch(label(piercing)))
    take = ui.button(_("Take the objective (+{rep} rep)", rep=objective.rep), "complete_objective", ui.send(R.CompleteObjective),
                     icon=ft.Icons.EMOJI_EVENTS, primary=ui.ok("complete_objective"))
    out += [_row(amount, ap),
            ui.button(R.LABELS["start_damage"], "start_damage", ui.send(lambda: R.StartDamage(
                amount=ui.number(amount, "start_damage", "amount"), armor_piercing=bool(ap.value))), icon=ft.Icons.BOLT),
            _row(ui.button(R.LABELS["trash_challenge"], "trash_challenge", ui.send(R.TrashChallenge),
                           icon=ft.Icons.CHECK),
                 ui.move_button(ui.first("pump"), icon=ft.Icons.CASINO)),
            text(_("{how} Pumping: {odds}.", how=R.HOW["complete_objective"], odds=odds(R.PUMP_OUTCOMES))),
            _row(take, ui.button(R.LABELS["end_run"], "end_run", ui.send(R.EndRun), icon=ft.Icons.LOGOUT))]
    if not ui.ok("complete_objective"):
        out.append(text(ui.why("complete_objective"), italic=True))
    return out


def damage_allocator(ui: Ui) -> list[ft.Control]:
    s = ui.s
    dmg = s.damage
    left = (_("{left} of {total} armor-piercing damage left", left=dmg.left, total=dmg.total) if dmg.armor_piercing
            else _("{left} of {total} damage left", left=dmg.left, total=dmg.total))
    out: list[ft.Control] = [
        tagged("sr-damage", _box(
            text(left, ft.TextThemeStyle.TITLE_MEDIUM, bold=True),
            text(_("Each hit is {dice}d6. {how}", dice=dmg.dice, how=R.HOW["take_hit"])),
            color=ft.Colors.ERROR_CONTAINER)),
        text(_("Who takes the next hit?"), ft.TextThemeStyle.TITLE_SMALL, bold=True),
    ]
    for m in ui.of("take_hit"):
        chance = R.GAME.chance_for(s, m.action)
        out.append(ui.move_button(m, icon=ft.Icons.CASINO, primary=True, expand=True))
        if chance is not None:
            out.append(text(odds(chance.outcomes)))
    return out


def phase_victory(ui: Ui) -> list[ft.Control]:
    s = ui.s
    checks = " · ".join(f"{render(words)} {'✓' if holds else '✗'}" for words, holds in R.victory_checks(s))
    out: list[ft.Control] = [text(_("Win: {checks}.", checks=checks))]
    survival = R.survival_outcomes(s.reputation)
    if survival:
        out.append(text(_("Reputation {reputation}: {odds}.", reputation=s.reputation, odds=odds(survival)),
                        color=NEGATIVE))
    if s.step_done:
        return out
    roll = R.GAME.chance_for(s, R.CheckVictory())
    out.append(ui.button(_("Check victory and roll to survive ({die})", die=roll.die.label) if roll
                         else R.LABELS["check_victory"], "check_victory",
                         ui.send(R.CheckVictory), icon=ft.Icons.FLAG, primary=True))
    return out


def phase_end(ui: Ui) -> list[ft.Control]:
    return [text(_("Trash cards you don't want (runners below: trash), discard down to {hand}, reshuffle any empty "
                   "deck.", hand=R.HAND_SIZE))]


PHASES: dict[str, Callable[[Ui], list[ft.Control]]] = {
    "setup": phase_setup, "objective": phase_objective, "refresh": phase_refresh, "paid": phase_paid,
    "income": phase_income, "payroll": phase_payroll, "interest": phase_interest, "payment": phase_payment,
    "legwork": phase_legwork, "shadowrun": phase_shadowrun, "victory": phase_victory, "end": phase_end,
}


# --- objectives, runners, card effects -----------------------------------------------------------------


def _objective_rows(ui: Ui) -> list[ft.Control]:
    s = ui.s
    if not s.objectives:
        return [text(_("No objective in play yet."), italic=True)]
    rows = []
    for o in sorted(s.objectives, key=lambda o: -o.rep):
        full = R.challenges_for(o.rep)
        rows.append(tagged(f"sr-objective-{o.id}", ft.Container(ft.Row([
            ft.Column([
                ft.Text(o.name, theme_style=ft.TextThemeStyle.TITLE_MEDIUM, weight=ft.FontWeight.BOLD),
                text(ngettext("{rep} rep ({range}) · {n} challenge (full: {full})", "{rep} rep ({range}) · {n} challenges (full: {full})",
                              o.challenges, rep=o.rep, range=R.objective_range(o.rep), full=full)),
            ], spacing=0, expand=True),
            icon_button(ft.Icons.DELETE_OUTLINE, _("Discard {name}", name=o.name),
                        ui.send(lambda o=o: R.DiscardObjective(objective_id=o.id)),
                        disabled=not ui.ok("discard_objective")),
        ], vertical_alignment=ft.CrossAxisAlignment.CENTER), bgcolor=ft.Colors.SURFACE_CONTAINER_HIGHEST,
            border_radius=10, padding=ft.Padding.only(left=12, right=4, top=4, bottom=4))))
    return rows


def objectives_block(ui: Ui, *, with_form: bool) -> list[ft.Control]:
    s = ui.s
    out: list[ft.Control] = [text(_("Objectives in play ({n} of {max})", n=len(s.objectives), max=R.OBJECTIVES_IN_PLAY),
                                  ft.TextThemeStyle.TITLE_SMALL, bold=True),
                             *_objective_rows(ui)]
    if with_form and ui.ok("add_objective"):
        name = _field(label(ui.spec("add_objective", "name")), expand=True, max_length=40)
        rep = ui.num("add_objective", "rep", width=130)
        missing = R.missing_ranges(s) if s.phase == "setup" else []
        how = (_("Add the objective you drew. {how} Still needed: {ranges}.", how=R.HOW["add_objective"],
                 ranges=", ".join(missing)) if missing
               else _("Add the objective you drew. {how}", how=R.HOW["add_objective"]))
        out += [text(how),
                _row(name, rep),
                ui.button(R.LABELS["add_objective"], "add_objective",
                          ui.send(lambda: R.AddObjective(name=name.value or "",
                                                         rep=ui.number(rep, "add_objective", "rep"))),
                          icon=ft.Icons.ADD, primary=s.phase == "setup" or len(s.objectives) < R.OBJECTIVES_IN_PLAY)]
    return out


def objectives_section(ui: Ui, *, with_form: bool) -> ft.Control:
    return section(_("Objectives"), *objectives_block(ui, with_form=with_form)[1:])


def runners_section(ui: Ui) -> ft.Control:
    """The cards in play, each one's row kept while the card and what may be done to it are unchanged
    (turning a runner draws its row again, not the others)."""
    s = ui.s
    if not s.cards:
        return section(_("Runners in play"), text(_("No card in play yet: deploy runners in Legwork."), italic=True))
    can_trash, can_turn = ui.ok("remove_card"), ui.ok("set_turned")
    rows = [ui.keep(f"runner-{c.id}", (c, can_trash, can_turn), lambda c=c: _runner_row(ui, c, can_trash, can_turn))
            for c in s.cards]
    runners = sum(1 for c in s.cards if c.card_type == "runner")
    return section(_("Runners in play · {n} of {max}", n=runners, max=R.MAX_RUNNERS), *rows)


def _runner_row(ui: Ui, c: R.Card, can_trash: bool, can_turn: bool) -> ft.Control:
    """One card in play: its stats, whether it is turned, turn or untap it, trash it."""
    status = _("turned") if c.turned else _("unturned")
    stats = (_("cost {cost} · body {body} · damage {damage} · upkeep {upkeep} · armor {armor}", cost=c.cost,
               body=c.body, damage=c.damage, upkeep=c.upkeep, armor=c.armor) if c.armor else
             _("cost {cost} · body {body} · damage {damage} · upkeep {upkeep}", cost=c.cost, body=c.body,
               damage=c.damage, upkeep=c.upkeep))
    called = c.name if c.card_type == "runner" else _("{name} ({type})", name=c.name, type=choice(c.card_type))
    hurt = c.damage > 0
    menu = ft.PopupMenuButton(icon=ft.Icons.MORE_VERT, padding=ICON_PADDING, tooltip=_("More for {name}", name=c.name),
                              disabled=not can_trash, items=[
        ft.PopupMenuItem(content=_("Trash it"), icon=ft.Icons.DELETE,
                         on_click=ui.send(lambda c=c: R.RemoveCard(card_id=c.id))),
        ft.PopupMenuItem(content=_("It died (reputation −{cost})", cost=c.cost), icon=ft.Icons.HEART_BROKEN,
                         on_click=ui.send(lambda c=c: R.RemoveCard(card_id=c.id, died=True))),
    ])
    return tagged(f"sr-card-{c.id}", ft.Container(ft.Row([
        ft.Column([
            ft.Text(called, theme_style=ft.TextThemeStyle.TITLE_MEDIUM, weight=ft.FontWeight.BOLD),
            text(stats, color=NEGATIVE if hurt else None),
            text(status, italic=c.turned, color=ft.Colors.OUTLINE if c.turned else ft.Colors.PRIMARY),
        ], spacing=0, expand=True),
        icon_button(ft.Icons.REPLAY if c.turned else ft.Icons.ROTATE_90_DEGREES_CW,
                    _("Untap {name}", name=c.name) if c.turned else _("Turn {name}", name=c.name),
                    ui.send(lambda c=c: R.SetTurned(card_id=c.id, turned=not c.turned)),
                    disabled=not can_turn),
        menu,
    ], vertical_alignment=ft.CrossAxisAlignment.CENTER), bgcolor=ft.Colors.SURFACE_CONTAINER_HIGHEST,
        border_radius=10, padding=ft.Padding.only(left=12, right=0, top=4, bottom=4)))


def effects_section(ui: Ui) -> ft.Control:
    accounts = ui.spec("adjust", "account")
    account = _dropdown(accounts, "cash")
    amount = ui.num("adjust", "amount", width=150)
    reason = _field(label(ui.spec("adjust", "reason")), expand=True, max_length=40)
    options = _field(_("Options, separated by commas"), expand=True)

    def picks() -> list[str]:
        return [o.strip() for o in (options.value or "").split(",") if o.strip()]
    picked = ui.just_now("random_pick")
    answer: list[ft.Control] = [] if picked is None else [tagged("sr-picked", _box(
        text(_("Picked: {picked}", picked=picked.data["picked"]), ft.TextThemeStyle.TITLE_MEDIUM, bold=True),
        text(_("Among {options} (die face {face}).", options=", ".join(picked.data["options"]), face=picked.data["face"])
             if picked.data.get("face") else _("Among {options}.", options=", ".join(picked.data["options"]))),
        color=ft.Colors.SECONDARY_CONTAINER))]
    shown = ui.screen.folds  # this phone's screen: open or folded

    def folded(e) -> None:
        shown["effects"] = e.data if isinstance(e.data, bool) else str(e.data).lower() == "true"

    # Keyed, and open or folded as this phone's player left it: a redraw (their own action, another
    # phone's) neither folds it back nor opens it (the phone tells the server when it is tapped open).
    return keyed("sr-effects", ft.ExpansionTile(
        title=ft.Text(_("Card effects and random targets"), theme_style=ft.TextThemeStyle.TITLE_MEDIUM),
        expanded=shown.get("effects", False),
        on_change=folded,
        controls_padding=ft.Padding.all(12),
        expanded_cross_axis_alignment=ft.CrossAxisAlignment.STRETCH,
        controls=[ft.Column([  # spaced and laid out as the sections above it
            text(_("A card changes loan, cash, interest or reputation: enter it with its reason (it goes in the ledger).")),
            _row(account, amount), reason,
            ui.button(R.LABELS["adjust"], "adjust", ui.send(lambda: R.Adjust(
                account=account.value or "cash", amount=ui.number(amount, "adjust", "amount"), reason=reason.value or "")),
                icon=ft.Icons.EDIT_NOTE),
            text(_("A target chosen “at random”. {how}", how=R.HOW["pick_random"])),
            options,
            ui.button(R.LABELS["pick_random"], "pick_random", ui.send(lambda: R.PickRandom(options=picks())),
                      icon=ft.Icons.SHUFFLE),
            *answer,
        ], spacing=GAP, horizontal_alignment=ft.CrossAxisAlignment.STRETCH)],
    ))


# --- setup form ------------------------------------------------------------------------------------------


class SetupForm:
    """Loan, target, difficulty, the optional rules and the Luck of the Draw deck table, filled once."""

    def __init__(self, app):
        d = R.Settings()
        spec = {f.name: f for f in field_specs(R.Settings)}  # labels and ranges from the settings model
        # Short labels, the rest in the helper under the field: a label that wraps (a narrow phone at its
        # largest text size) runs over the field's border. Plain fields, as tall as their text: in the
        # form's column an expanding field was squeezed flat (expand is for a row).
        self.loan = ft.TextField(label=_("Starting loan"), value=str(d.loan), keyboard_type=ft.KeyboardType.NUMBER,
                                 helper=_("{range}; cash starts equal to it. Recommended: {loan}", range=spec["loan"].hint,
                                          loan=d.loan),
                                 helper_max_lines=3)
        self.target = ft.TextField(label=_("Target reputation"), value=str(d.target_reputation),
                                   keyboard_type=ft.KeyboardType.NUMBER)
        self.difficulty = ft.Dropdown(label=_("Difficulty"), value=d.difficulty,
                                      options=[ft.DropdownOption(key=k, text=ngettext(
                                          "{difficulty}: +{n} challenge", "{difficulty}: +{n} challenges", n,
                                          difficulty=_(k))) for k, n in R.EXTRA_CHALLENGES.items()])
        # Switch rows: their labels wrap at phone width (a Switch's own label is cut off).
        self.luck_row, self.luck = switch_row(_("Luck of the Draw: roll 2d6 to choose the player deck to draw from"),
                                              d.luck_of_the_draw)
        self.chipjacks_row, self.chipjacks = switch_row(label(spec["chipjacks"]), d.chipjacks)
        # On for every new campaign (the model's default stays off for campaigns saved before it).
        self.auto_pass_row, self.auto_pass = switch_row(label(spec["auto_pass"]), True)
        self.decks = [ft.TextField(label=_("Die face {face}: deck", face=i), value=name, max_length=30)
                      for i, name in enumerate(d.deck_table, start=1)]

    def controls(self) -> list[ft.Control]:
        def wide(field: ft.Control) -> ft.Control:  # the form's width (a row lets a field expand across)
            field.expand = True
            return ft.Row([field])
        return [wide(self.loan), wide(self.target), wide(self.difficulty), self.luck_row, self.chipjacks_row,
                self.auto_pass_row, text(_("Luck of the Draw: which player deck each die face names.")),
                *map(wide, self.decks)]

    def collect(self) -> dict:
        return {"loan": whole_number(self.loan, _("Starting loan")),
                "target_reputation": whole_number(self.target, _("Target reputation")),
                "difficulty": self.difficulty.value, "luck_of_the_draw": bool(self.luck.value),
                "chipjacks": bool(self.chipjacks.value), "auto_pass": bool(self.auto_pass.value),
                "deck_table": [f.value or "" for f in self.decks]}
