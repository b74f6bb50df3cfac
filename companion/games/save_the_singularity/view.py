"""Save the Singularity on the phone: the setup (players and roles), the turn, the world phase, the
role powers, live odds and the end of the game.

The view decides nothing a rule decides: the buttons and their words come from the game's legal
moves (`GAME.legal_moves`, with the reason a power can't act now), the numbers from the rules'
helpers and `odds.odds`. Actions are dispatched as they are: at a table rolling physical dice the
frame asks for every throw the rules declare (Bug / Idea / Progress buttons, the d12's faces).

Widgets made here (game-specific, not shared): `die_tile` (a d6 marked Bug / Idea / Progress),
`d12_row` (a world result with its symbols), `score_chart` (team vs world over turns, drawn with
flet.canvas because flet-charts isn't installed; its points come from the campaign's logged events,
`logged_scores`, not from the state).
"""

from __future__ import annotations

from typing import Optional

import flet as ft
import flet.canvas as cv

from companion.games.base import Move, field_specs
from companion.games.save_the_singularity import odds as odds_mod
from companion.games.save_the_singularity import rules
from companion.games.save_the_singularity.rules import (
    GAME, ROLE_NAMES, ROLE_POWERS, ROLES, TEAM_POINTS_PER_PLAYER, WORLD_POINTS_PER_PLAYER, Settings, State,
)
from companion.i18n import _, fmt_number, fmt_percent, ngettext, render
from companion.ui.forms import whole_number
from companion.ui.style import GAP
from companion.ui.widgets import icon_button, keyed, section, tagged, text, wide_button

# Drawn from the state on every redraw (dialogs live apart): the frame reconciles it with what the
# phone shows, so its controls keep their identity. The sections a tap mostly leaves alone (the scores,
# the roster, the odds, the dice, the d12 rows, the powers) are kept while what they show is unchanged
# (frame.kept, see CampaignScreen.kept): each one's inputs are everything it shows.
RECONCILED = True

COUNT_MARK = "\x00"  # where a count goes in a sentence split around it
CLOSE = 1  # percent's digits for the odds here: close chances are compared side by side (24.8% vs 25.1%)

SYMBOL_STYLE = {  # symbol -> (icon, background, foreground)
    "Bug": (ft.Icons.BUG_REPORT, ft.Colors.ERROR_CONTAINER, ft.Colors.ON_ERROR_CONTAINER),
    "Bug (ignored)": (ft.Icons.BUG_REPORT_OUTLINED, ft.Colors.SURFACE_CONTAINER_HIGHEST, ft.Colors.OUTLINE),
    "Idea": (ft.Icons.LIGHTBULB, ft.Colors.TERTIARY_CONTAINER, ft.Colors.ON_TERTIARY_CONTAINER),
    "Progress": (ft.Icons.TRENDING_UP, ft.Colors.PRIMARY_CONTAINER, ft.Colors.ON_PRIMARY_CONTAINER),
}
D12_STYLE = {  # world symbol -> (icon, colour)
    "Bad": (ft.Icons.WARNING_AMBER, ft.Colors.ERROR),
    "+Dice": (ft.Icons.ADD_BOX, ft.Colors.TERTIARY),
    "Stop": (ft.Icons.PAN_TOOL, ft.Colors.PRIMARY),
}


# --- The setup form -------------------------------------------------------------------------------


class SetupForm:
    """Players in turn order (1 to any number), each with a name and one of the six roles."""

    def __init__(self, app):
        self.app = app
        self.rows: list[tuple[ft.TextField, ft.Dropdown, ft.Text]] = []
        self.list = ft.Column(spacing=GAP)
        self.targets = ft.Text("", theme_style=ft.TextThemeStyle.TITLE_MEDIUM, weight=ft.FontWeight.BOLD)
        spec = next(f for f in field_specs(Settings) if f.name == "max_pool")
        self.max_pool_label = spec.label  # English, as the settings declare it: said with _() where shown
        # The field's own label is short (a floating label has one line, cut at the largest text); the
        # whole description and the range above it, wrapping.
        self.max_pool_about = ft.Text(_("{field}: {range}", field=_(spec.label), range=spec.hint),
                                      theme_style=ft.TextThemeStyle.BODY_MEDIUM)
        self.max_pool = ft.TextField(label=_("Most dice in one throw"),
                                     value=str(Settings.model_fields["max_pool"].default),
                                     keyboard_type=ft.KeyboardType.NUMBER)
        self.timing = ft.Dropdown(
            label=_("Media Liaison declares"), value=Settings.model_fields["media_liaison_timing"].default, expand=True,
            options=[ft.DropdownOption(key="before_roll", text=_("before the d12 is rolled")),
                     ft.DropdownOption(key="after_roll", text=_("after seeing the d12"))])
        self._add_row()
        self._draw(update=False)

    def controls(self) -> list[ft.Control]:
        return [
            tagged("sts-targets", self.targets),
            ft.Text(_("Players in turn order. With up to six players each takes a different role."),
                    theme_style=ft.TextThemeStyle.BODY_MEDIUM),
            self.list,
            wide_button(_("Add player"), self.app.guard(self._add), icon=ft.Icons.PERSON_ADD, tonal=True),
            ft.ExpansionTile(title=ft.Text(_("Table rules")), controls=[
                ft.Container(ft.Column([self.max_pool_about, self.max_pool, ft.Row([self.timing])], spacing=GAP),
                             padding=ft.Padding.only(top=8, bottom=8)),
            ]),
        ]

    def _roles_free_for(self, row: int) -> tuple[str, ...]:
        """The roles player `row` may pick: the rules' answer given everyone else's role."""
        return rules.free_roles(dropdown.value for i, (_name, dropdown, _power) in enumerate(self.rows) if i != row)

    def _add_row(self) -> None:
        n = len(self.rows) + 1
        name = ft.TextField(label=_("Player {n} name", n=n), max_length=40, expand=True)
        role = ft.Dropdown(label=_("Player {n} role", n=n),
                           value=rules.free_roles(d.value for _name, d, _power in self.rows)[0], expand=True)
        power = ft.Text(render(ROLE_POWERS[role.value]), theme_style=ft.TextThemeStyle.BODY_SMALL)
        role.on_select = self._picked
        self.rows.append((name, role, power))

    def _picked(self, e) -> None:
        # A role taken here leaves the other players' lists (and one given up comes back to them).
        self._draw()

    def _add(self, e) -> None:
        self._add_row()
        self._draw()

    def _remove(self, index: int) -> None:
        del self.rows[index]
        for i, (name, role, _power) in enumerate(self.rows, start=1):
            name.label, role.label = _("Player {n} name", n=i), _("Player {n} role", n=i)
        self._draw()

    def _draw(self, update: bool = True) -> None:
        n = len(self.rows)
        for i, (_name, role, power) in enumerate(self.rows):
            free = self._roles_free_for(i)
            # A role made a repeat by removing a player stays listed, so the field never goes blank;
            # creating the campaign then says which role is taken twice.
            shown = free if role.value in free else (role.value, *free)
            role.options = [ft.DropdownOption(key=r, text=_(ROLE_NAMES[r])) for r in shown]
            power.value = render(ROLE_POWERS[role.value]) if role.value in ROLE_POWERS else ""
        self.targets.value = (ngettext("Targets for {n} player: team {team}, world {world}",
                                       "Targets for {n} players: team {team}, world {world}", n,
                                       team=TEAM_POINTS_PER_PLAYER * n, world=WORLD_POINTS_PER_PLAYER * n) if n else
                              _("Add at least one player (targets: team {team}, world {world} per player)",
                                team=TEAM_POINTS_PER_PLAYER, world=WORLD_POINTS_PER_PLAYER))
        self.list.controls = [
            ft.Container(ft.Column([
                ft.Row([name, icon_button(ft.Icons.PERSON_REMOVE, _("Remove player {n}", n=i + 1),
                                          self.app.guard(lambda e, i=i: self._remove(i)))],
                       vertical_alignment=ft.CrossAxisAlignment.START),
                ft.Row([self._tagged_role(i, role)]),
                power,
            ], spacing=6), padding=ft.Padding.only(bottom=8),
                border=ft.Border.only(bottom=ft.BorderSide(1, ft.Colors.OUTLINE_VARIANT)))
            for i, (name, role, power) in enumerate(self.rows)
        ]
        if update:
            self.list.update()
            self.targets.update()

    @staticmethod
    def _tagged_role(i: int, role: ft.Dropdown) -> ft.Control:
        """The role field with a stable locator (a drop-down has no label a test or reader can find)."""
        field = tagged(f"sts-role-{i + 1}", role)
        field.label = role.label  # its name for a screen reader: the drop-down's own label isn't read (#33)
        field.expand = True  # the Row's child is the Semantics: it takes the row's width
        return field

    def collect(self) -> dict:
        return {
            "players": [{"name": (name.value or "").strip(), "role": role.value} for name, role, _power in self.rows],
            "max_pool": whole_number(self.max_pool, _(self.max_pool_label)),  # its range is the Settings' own
            "media_liaison_timing": self.timing.value or "before_roll",
        }


# --- Small widgets -----------------------------------------------------------------------------------


def die_tile(die: rules.Die, sizes) -> ft.Control:
    """A d6 by what it means (Bug / Idea / Progress, or an ignored Bug): only the symbol counts, and a
    table entering its dice records the symbol, not the number."""
    symbol = rules.die_symbol(die)
    icon, bg, fg = SYMBOL_STYLE[symbol]
    return ft.Container(
        ft.Column([
            ft.Icon(icon, size=sizes(30), color=fg),
            ft.Text(_("Ignored") if symbol == rules.IGNORED_BUG else _(symbol), size=sizes(13), color=fg,
                    weight=ft.FontWeight.BOLD, text_align=ft.TextAlign.CENTER),
        ], spacing=2, horizontal_alignment=ft.CrossAxisAlignment.CENTER, tight=True),
        width=sizes(76), height=sizes(70), alignment=ft.Alignment.CENTER, border_radius=12, bgcolor=bg,
        border=ft.Border.all(2, fg),
    )


def dice_row(throw: list[rules.Die], sizes) -> ft.Control:
    return ft.Row([die_tile(d, sizes) for d in throw], wrap=True, spacing=8, run_spacing=8)


def throw_dice(state: State, sizes) -> ft.Control:
    """The current (or last) throw, part by part as the rules give it: the Venture Capitalist's two
    throws each under its own caption with its own tally, never merged into one row."""
    parts = rules.throw_parts(state)
    boxes = []
    for i, (caption, dice) in enumerate(parts, start=1):
        box = ft.Column([
            ft.Column([text(caption, ft.TextThemeStyle.TITLE_SMALL, bold=True),
                       text(rules.tally(dice), ft.TextThemeStyle.BODY_MEDIUM)], spacing=0),
            dice_row(dice, sizes),
        ], spacing=6)
        if len(parts) > 1:  # a frame around each throw keeps the two visibly apart
            box = tagged(f"sts-throw-{i}", ft.Container(box, padding=10, border_radius=12,
                                                         border=ft.Border.all(1, ft.Colors.OUTLINE_VARIANT)))
        boxes.append(box)
    return tagged("sts-dice", ft.Column(boxes, spacing=GAP, horizontal_alignment=ft.CrossAxisAlignment.STRETCH))


def symbol_chip(symbol: str, words: Optional[str] = None) -> ft.Control:
    """A d12 symbol (Bad, +Dice, Stop) with its icon; `words`: what it says, if not the symbol's name."""
    icon, colour = D12_STYLE[symbol]
    return ft.Container(
        ft.Row([ft.Icon(icon, size=18, color=colour),
                # Flexible: words too long for the row (the Media Liaison's Stop at the largest text) wrap
                ft.Text(_(symbol) if words is None else words, color=colour, weight=ft.FontWeight.BOLD,
                        expand=True, expand_loose=True)],
               spacing=4, tight=True),
        padding=ft.Padding.symmetric(horizontal=8, vertical=4), border_radius=16,
        border=ft.Border.all(1.5, colour),
    )


def d12_row(row: rules.WorldRow, sizes) -> ft.Control:
    roll, symbols, world, extra = row.roll, row.symbols, row.world, row.extra
    chips = [symbol_chip(s) for s in symbols]
    if roll.liaison and "Stop" not in symbols:
        chips.append(symbol_chip(rules.STOP, _("Stop (Media Liaison)")))
    if row.again:
        chips.append(tagged("sts-no-stop", ft.Text(render(rules.NO_STOP), weight=ft.FontWeight.BOLD)))
    return ft.Row([
        ft.Container(ft.Text(str(roll.face), size=sizes(24), weight=ft.FontWeight.BOLD),
                     width=sizes(52), height=sizes(52), alignment=ft.Alignment.CENTER, border_radius=26,
                     border=ft.Border.all(2, ft.Colors.OUTLINE), bgcolor=ft.Colors.SURFACE_CONTAINER_HIGHEST),
        ft.Column([ft.Row(chips, wrap=True, spacing=6, run_spacing=4),
                   ft.Text(ngettext("World {world} · +{n} die for the next player",
                                    "World {world} · +{n} dice for the next player", extra, world=world),
                           theme_style=ft.TextThemeStyle.BODY_MEDIUM)], spacing=4, expand=True),
    ], vertical_alignment=ft.CrossAxisAlignment.CENTER)


def logged_scores(frame) -> list[rules.ScorePoint]:
    """Team and world at the end of each turn, from the events of the actions in effect (the log up
    to the cursor, oldest first)."""
    cursor = frame.loaded.cursor
    rows = frame.history(cursor) if cursor else []
    return rules.score_history(e for row in reversed(rows) for e in row.events)


def chart_width(page_width: Optional[float]) -> int:
    """The chart's width on this screen: the page less the view's and the card's padding (a fixed 340
    ran off a 360 px phone's card), at most 600."""
    return max(240, min(600, int((page_width or 372) - 24 - 32)))


def score_chart(state: State, points: list[rules.ScorePoint], width: int = 340, height: int = 170,
                sizes=None) -> ft.Control:
    """Team and world after each turn (`points`), each as a share of its target (the first to 100% wins).
    `sizes`: the phone's text size, which the axis labels follow."""
    scale = sizes or (lambda x: x)
    label = ft.TextStyle(size=scale(11), color=ft.Colors.ON_SURFACE_VARIANT)
    left, right, top, bottom = scale(34), scale(12), 8, scale(22)
    w, h = width - left - right, height - top - bottom
    last_turn = max(1, points[-1].turn if points else 1)
    x = lambda turn: left + w * turn / last_turn  # noqa: E731
    y = lambda share: top + h * (1 - min(1.0, share))  # noqa: E731
    grid = ft.Paint(color=ft.Colors.OUTLINE_VARIANT, stroke_width=1, style=ft.PaintingStyle.STROKE)
    shapes: list = []
    for share in (0.0, 0.5, 1.0):
        shapes.append(cv.Line(left, y(share), left + w, y(share), paint=grid))
        shapes.append(cv.Text(2, y(share) - scale(8), fmt_percent(share), style=label))
    step = max(1, last_turn // 6)
    for turn in range(0, last_turn + 1, step):
        shapes.append(cv.Text(x(turn) - 4, top + h + 4, str(turn), style=label))
    for colour, value, target in ((ft.Colors.PRIMARY, lambda p: p.team, rules.team_target(state)),
                                  (ft.Colors.ERROR, lambda p: p.world, rules.world_target(state))):
        elements = []
        for i, p in enumerate(points):
            px, py = x(p.turn), y(value(p) / target)
            elements.append(cv.Path.MoveTo(px, py) if i == 0 else cv.Path.LineTo(px, py))
            shapes.append(cv.Circle(px, py, 3.5, paint=ft.Paint(color=colour)))
        shapes.append(cv.Path(elements, paint=ft.Paint(color=colour, stroke_width=3, style=ft.PaintingStyle.STROKE,
                                                        stroke_join=ft.StrokeJoin.ROUND)))
    legend = ft.Row([
        ft.Row([ft.Container(width=14, height=14, bgcolor=ft.Colors.PRIMARY, border_radius=3),
                ft.Text(_("Team {score}/{target}", score=state.team, target=rules.team_target(state)))],
               spacing=6, tight=True),
        ft.Row([ft.Container(width=14, height=14, bgcolor=ft.Colors.ERROR, border_radius=3),
                ft.Text(_("World {score}/{target}", score=state.world, target=rules.world_target(state)))],
               spacing=6, tight=True),
    ], spacing=16, wrap=True)
    return ft.Column([
        legend,
        tagged("sts-chart", ft.Semantics(
            label=ngettext("Chart of team and world scores over {n} turn, as a share of each target",
                           "Chart of team and world scores over {n} turns, as a share of each target", last_turn),
            content=cv.Canvas(shapes, width=width, height=height))),
        ft.Text(_("Share of each side's target after each turn."), theme_style=ft.TextThemeStyle.BODY_SMALL),
    ], spacing=6)


# --- The panel ---------------------------------------------------------------------------------------


def panel(frame) -> ft.Control:
    state: State = frame.loaded.game_state
    odds_mod.prepare(state)  # cached: only the first call for a set-up builds the table
    turn = _TurnPanel(frame, state)
    powers = tuple((m.action, m.why_not) for m in turn.moves if m.kind in ROLES)
    return ft.Column([scoreboard(frame, state), *turn.controls(),
                      frame.kept("roster", (state.settings.players, state.powers_used, state.current,
                                            state.phase == "over", powers), lambda: roster(frame, state))],
                     spacing=GAP)


def _width(frame) -> Optional[float]:
    """The page's width, which the big numbers and the chart are laid out for."""
    return getattr(getattr(frame.app, "page", None), "width", None)


def scoreboard(frame, state: State) -> ft.Control:
    sizes = frame.app.sizes
    cursor = frame.loaded.cursor
    # One sentence in the phone's language, split where the count goes: the count is a locator of its own.
    before, _mark, after = ngettext("Turn {turn} · {count} action in the log",
                                    "Turn {turn} · {count} actions in the log", cursor, turn=state.turn,
                                    count=COUNT_MARK).partition(COUNT_MARK)

    def side(label: str, value: int, target: int, colour, *, identifier: str) -> ft.Control:
        return ft.Column([
            ft.Text(label, theme_style=ft.TextThemeStyle.TITLE_SMALL),
            ft.Row([tagged(identifier, ft.Text(str(value), size=sizes(40), weight=ft.FontWeight.BOLD, color=colour)),
                    ft.Text(f"/ {target}", size=sizes(20))], spacing=4,
                   vertical_alignment=ft.CrossAxisAlignment.END, tight=True),
            ft.ProgressBar(value=min(1.0, value / target), color=colour, bar_height=8, border_radius=4),
        ], spacing=2, expand=True)

    team, world = rules.team_target(state), rules.world_target(state)
    scores = frame.kept("scores", (state.team, team, state.world, world), lambda: ft.Row([
        side(_("Team"), state.team, team, ft.Colors.PRIMARY, identifier="sts-team"),
        side(_("World"), state.world, world, ft.Colors.ERROR, identifier="sts-world"),
    ], spacing=24))
    return ft.Card(content=ft.Container(ft.Column([
        scores,
        ft.Row([ft.Text(before, theme_style=ft.TextThemeStyle.BODY_SMALL),
                tagged("sts-move", ft.Text(str(cursor), theme_style=ft.TextThemeStyle.BODY_SMALL)),
                ft.Text(after, theme_style=ft.TextThemeStyle.BODY_SMALL)], spacing=0, wrap=True),  # (ran off a small phone)
    ], spacing=8), padding=16), margin=ft.Margin.only(bottom=4))


class _TurnPanel:
    """What the current moment needs: one main action at the top, then the numbers behind it."""

    def __init__(self, frame, state: State):
        self.frame, self.state = frame, state
        self.sizes = frame.app.sizes
        self.guard = frame.app.guard
        self.moves = GAME.legal_moves(state)
        # The main actions by kind (roll, stop, press_on, take_bust, roll_d12); powers come from self.moves.
        self.ready = {m.kind: m for m in self.moves if m.why_not is None}
        self.waiting = frame.loaded.state.pending is not None  # the table is entering dice first

    # --- building blocks ---

    def name(self, index: Optional[int] = None) -> str:
        return rules.player_name(self.state, self.state.current if index is None else index)

    def who(self) -> str:
        s = self.state
        return f"{self.name()} · {_(ROLE_NAMES[s.settings.players[s.current].role])}"

    def button(self, words, on_click, *, filled: bool = True, icon=None) -> ft.Control:
        return wide_button(render(words), self.guard(on_click), icon=icon, filled=filled, expand=True, size=self.sizes(19),
                           bold=True)

    def act(self, move: Move):
        """Dispatch a move's action; one that throws pulses (at a physical table it asks for the dice).
        Whether it throws is read when tapped: the button may be a kept section's, drawn for an older state."""
        frame, action = self.frame, move.action
        return lambda e: frame.dispatch(action, pulse=GAME.chance_for(frame.loaded.game_state, action) is not None)

    def move_button(self, kind: str, *, filled: bool = True, icon=None) -> ft.Control:
        """The button of the ready move of this kind, in the rules' words."""
        move = self.ready[kind]
        button = self.button(move.label, self.act(move), filled=filled, icon=icon)
        button.disabled = self.waiting
        button.key = f"move-{kind}"  # a tap meant for this move never lands on another one after a redraw
        return button

    def title(self, text: str, identifier: str = "sts-turn") -> ft.Control:
        return tagged(identifier, ft.Text(text, theme_style=ft.TextThemeStyle.HEADLINE_SMALL, weight=ft.FontWeight.BOLD))

    def numbers(self, *pairs: tuple[str, str, str]) -> ft.Control:
        """Big live numbers side by side: (label, value, identifier); one under the other when a word of
        theirs would not fit beside the other (German words are long, and the largest text size makes
        them longer still: a word too long for its place is broken mid-word). Keyed by their
        identifiers: the start of a turn and a throw show the same numbers in other places, and a
        locator changed in place on the phone (rather than drawn anew) lost every locator around it."""
        page = getattr(self.frame.app, "page", None)
        room = (chart_width(getattr(page, "width", None)) - 12 * (len(pairs) - 1)) / len(pairs)
        scale = self.sizes(100) / 100

        def fits(words: str, size: float, width: float) -> bool:  # width: a character's, in ems
            return max(len(word) for word in words.split(" ")) * size * width * scale <= room

        beside = all(fits(label, 14, 0.65) and fits(value, 30, 0.66) for label, value, _ident in pairs)
        items = [ft.Column([ft.Text(label, theme_style=ft.TextThemeStyle.BODY_MEDIUM),
                            tagged(ident, ft.Text(value, size=self.sizes(30), weight=ft.FontWeight.BOLD))],
                           spacing=0, expand=beside)
                 for label, value, ident in pairs]
        key = "numbers-" + "-".join(ident for _label, _value, ident in pairs) + ("" if beside else "-stacked")
        if beside:
            return keyed(key, ft.Row(items, spacing=12, vertical_alignment=ft.CrossAxisAlignment.START))
        return keyed(key, ft.Column(items, spacing=8))

    def banner(self, text: str, kind: str, identifier: str = "sts-banner") -> ft.Control:
        bg, fg, icon = {
            "bad": (ft.Colors.ERROR_CONTAINER, ft.Colors.ON_ERROR_CONTAINER, ft.Icons.BUG_REPORT),
            "good": (ft.Colors.PRIMARY_CONTAINER, ft.Colors.ON_PRIMARY_CONTAINER, ft.Icons.SAVINGS),
        }[kind]
        return ft.Container(ft.Row([ft.Icon(icon, color=fg, size=self.sizes(30)),
                                    ft.Container(tagged(identifier, ft.Text(text, color=fg, size=self.sizes(20),
                                                                            weight=ft.FontWeight.BOLD)), expand=True)],
                                   vertical_alignment=ft.CrossAxisAlignment.CENTER),
                            bgcolor=bg, border_radius=12, padding=14)

    def odds_box(self) -> Optional[ft.Control]:
        o = odds_mod.odds(self.state)
        if o is None:
            return None
        first = self.state.phase == "start"
        # The reason's words as this phone says them (a Msg's parameters need not compare equal).
        shown = (o.pool, o.bust_chance, o.expected_points, o.win_if_stop, o.win_if_press, o.hint, render(o.reason))
        return self.frame.kept("odds", (shown, first, _width(self.frame)), lambda: self._odds_box(o, first))

    def _odds_box(self, o: odds_mod.Odds, first: bool) -> ft.Control:
        rows = [self.numbers(
            (ngettext("Bust chance ({n} die)", "Bust chance ({n} dice)", o.pool), fmt_percent(o.bust_chance, CLOSE),
             "sts-bust"),
            (_("Expected at risk after it"), fmt_number(float(o.expected_points), 1), "sts-expected"),
        )]
        if first:
            rows.append(text(_("Team's chance to win from here: {chance}.", chance=fmt_percent(o.win_if_press, CLOSE)),
                             ft.TextThemeStyle.BODY_MEDIUM))
        else:
            rows.append(self.numbers((_("Win chance if you stop"), fmt_percent(o.win_if_stop, CLOSE), "sts-win-stop"),
                                     (_("…if you press on"), fmt_percent(o.win_if_press, CLOSE), "sts-win-press")))
        if o.hint:
            rows.append(ft.Row([ft.Icon(ft.Icons.TIPS_AND_UPDATES, color=ft.Colors.TERTIARY),
                                ft.Text(_("Hint: Stop and bank") if o.hint == "stop" else _("Hint: Press on"),
                                        theme_style=ft.TextThemeStyle.TITLE_MEDIUM, weight=ft.FontWeight.BOLD,
                                        color=ft.Colors.TERTIARY, expand=True)]))
        rows.append(tagged("sts-reason", text(o.reason, ft.TextThemeStyle.BODY_MEDIUM)))
        rows.append(text(_("Exact odds; the hint assumes careful play for the rest of this turn and "
                           "expected-value play later, without powers."), ft.TextThemeStyle.BODY_SMALL, italic=True))
        return section(_("Live odds"), *rows)

    def powers_now(self) -> list[ft.Control]:
        """One button per power usable right now, in the rules' words for what it will do."""
        usable = tuple(m for m in self.moves if m.kind in ROLES and m.why_not is None)
        if not usable:
            return []
        # Kept apart in each phase (a section sits in one place in the panel).
        return [self.frame.kept(f"powers-{self.state.phase}", (usable, self.waiting), lambda: ft.Column(
            self._powers(), spacing=GAP, horizontal_alignment=ft.CrossAxisAlignment.STRETCH))]

    def _powers(self) -> list[ft.Control]:
        out = [wide_button(render(m.label), self.guard(self.act(m)), icon=ft.Icons.AUTO_AWESOME, tonal=True,
                           tooltip=render(ROLE_POWERS[m.kind]), disabled=self.waiting)
               for m in self.moves if m.kind in ROLES and m.why_not is None]
        if out:
            out.insert(0, text(_("Powers usable now (once per game):"), ft.TextThemeStyle.TITLE_SMALL))
        return out

    def last_world(self) -> list[ft.Control]:
        rows = rules.world_rows(self.state)
        if not rows:
            return []
        return [self.frame.kept(f"d12-{self.state.phase}", rows, lambda: ft.Column(
            [d12_row(row, self.sizes) for row in rows], spacing=GAP, horizontal_alignment=ft.CrossAxisAlignment.STRETCH))]

    def dice(self, key: str) -> ft.Control:
        """The throw's dice (throw_dice), kept while the throw is the same."""
        s = self.state
        return self.frame.kept(key, rules.throw_parts(s), lambda: throw_dice(s, self.sizes))

    def turn_result(self) -> tuple[str, str]:
        """How the turn's researcher phase ended (the world phase is on): bust, or banked points."""
        busted, points = rules.researcher_result(self.state)
        who = self.name()
        if busted:
            return (ngettext("Bust! {bugs} Bugs — {who} loses the {n} point at risk.",
                             "Bust! {bugs} Bugs — {who} loses the {n} points at risk.", points,
                             bugs=rules.count_bugs(self.state.throw), who=who), "bad")
        return ngettext("{who} stopped and banked {n} point.", "{who} stopped and banked {n} points.", points,
                        who=who), "good"

    # --- the phases ---

    def controls(self) -> list[ft.Control]:
        return {"start": self.start, "throw": self.throw, "world": self.world, "over": self.over}[self.state.phase]()

    def start(self) -> list[ft.Control]:
        s = self.state
        turn = section(
            _("Turn {turn}", turn=s.turn),
            self.title(self.who()),
            self.numbers((_("Dice to roll"), str(s.pool), "sts-pool"), (_("At risk"), "0", "sts-risk")),
            text(_("Pool: {words}.", words=rules.start_pool_words(s)), ft.TextThemeStyle.BODY_MEDIUM),
            ft.Row([self.move_button("roll", icon=ft.Icons.CASINO)]),
            *self.powers_now(),
        )
        out = [turn]
        odds_box = self.odds_box()
        if odds_box:
            out.append(odds_box)
        if s.world_rolls:
            prev = (s.current - 1) % len(s.settings.players)
            out.append(section(_("Last world phase (after {name}'s turn)", name=self.name(prev)), *self.last_world()))
        return out

    def throw(self) -> list[ft.Control]:
        s = self.state
        risk, pool = rules.at_risk(s), rules.next_pool(s)
        if rules.is_bust(s):
            lost = s.risk_before_throw
            body = [
                self.title(self.who()),
                self.banner(ngettext("Bust: {bugs} Bugs! {n} point at risk will be lost unless a reroll power changes "
                                     "this throw.",
                                     "Bust: {bugs} Bugs! {n} points at risk will be lost unless a reroll power changes "
                                     "this throw.", lost, bugs=rules.count_bugs(s.throw)), "bad"),
                self.dice("bust-throw"),
                *self.powers_now(),
                ft.Row([self.move_button("take_bust", filled=False, icon=ft.Icons.HEART_BROKEN)]),
            ]
            return [section(_("Turn {turn}", turn=s.turn), *body)]
        o = odds_mod.odds(s)
        stop_first = o is not None and o.hint == "stop"
        stop = self.move_button("stop", filled=stop_first, icon=ft.Icons.SAVINGS)
        press = self.move_button("press_on", filled=not stop_first, icon=ft.Icons.CASINO)
        # The decision first, the dice under it: the throw's dice take one to four rows, and the buttons
        # above them stay in the same place from one throw to the next (a thumb learns it).
        body = [
            self.title(self.who()),
            self.numbers((_("At risk"), str(risk), "sts-risk"),
                         (_("Next throw"), ngettext("{n} die", "{n} dice", pool), "sts-pool")),
            *([ft.Row([ft.Icon(ft.Icons.TIPS_AND_UPDATES, color=ft.Colors.TERTIARY),
                       ft.Container(tagged("sts-hint", ft.Text(
                           (_("Hint: Stop and bank — win {stop} if you stop, {press} if you press on",
                              stop=fmt_percent(o.win_if_stop, CLOSE), press=fmt_percent(o.win_if_press, CLOSE))
                            if stop_first else
                            _("Hint: Press on — win {stop} if you stop, {press} if you press on",
                              stop=fmt_percent(o.win_if_stop, CLOSE), press=fmt_percent(o.win_if_press, CLOSE))),
                           theme_style=ft.TextThemeStyle.TITLE_SMALL, color=ft.Colors.TERTIARY,
                           weight=ft.FontWeight.BOLD)), expand=True)],
                      vertical_alignment=ft.CrossAxisAlignment.START)] if o and o.hint else []),
            # Always in the same places, press on above stop; the hint fills the one it favours.
            ft.Row([press]),
            ft.Row([stop]),
            self.dice("throw"),
            text(rules.throw_help(s), ft.TextThemeStyle.BODY_SMALL),
            *self.powers_now(),
        ]
        out = [section(_("Turn {turn}", turn=s.turn), *body)]
        odds_box = self.odds_box()
        if odds_box:
            out.append(odds_box)
        return out

    def world(self) -> list[ft.Control]:
        s = self.state
        said, kind = self.turn_result()
        rows = self.last_world()
        body = [
            self.title(_("The world's turn (after {name})", name=self.name())),
            self.banner(said, kind),
            ft.Row([self.move_button("roll_d12", icon=ft.Icons.PUBLIC)]),
            *self.powers_now(),
            self.numbers((_("World score"), f"{s.world} / {rules.world_target(s)}", "sts-world-now"),
                         (_("+Dice owed"), str(s.owed), "sts-owed")),
            text(rules.WORLD_HELP, ft.TextThemeStyle.BODY_SMALL),
            *(rows or [text(_("No d12 rolled yet."), ft.TextThemeStyle.BODY_MEDIUM, italic=True)]),
        ]
        out = [section(_("Turn {turn} · world phase", turn=s.turn), *body)]
        if s.throw:
            out.append(section(_("{name}'s last throw", name=self.name()), self.dice("last-throw")))
        return out

    def over(self) -> list[ft.Control]:
        s = self.state
        # The frame's end card, above, says how the game ended (and has Play again, Luck, Recap and BG
        # Stats: companion.ui.story); the panel says it no second time: the scores over the game instead.
        page = getattr(self.frame.app, "page", None)
        out = [section(_("Final scores"), score_chart(s, logged_scores(self.frame), width=chart_width(getattr(page, "width", None)),
                                                   sizes=self.sizes))]
        if s.world_rolls:
            out.append(section(_("The last world phase"), *self.last_world()))
        return out


def roster(frame, state: State) -> ft.Control:
    """Everyone's role and power: spent, usable now (the button is in the turn panel), or why not now."""
    powers = {m.action.by: m for m in GAME.legal_moves(state) if m.kind in ROLES}
    rows = []
    for i, p in enumerate(state.settings.players):
        move = powers.get(i)
        if state.powers_used[i]:
            status, colour, icon = _("Spent"), ft.Colors.OUTLINE, ft.Icons.CHECK_CIRCLE
        elif move is not None and move.why_not is None:
            status, colour, icon = _("Usable now"), ft.Colors.TERTIARY, ft.Icons.AUTO_AWESOME
        else:
            status, colour, icon = _("Ready"), ft.Colors.PRIMARY, ft.Icons.HOURGLASS_EMPTY
        current = i == state.current and state.phase != "over"
        waits = [ft.Text(_("Not now: {reason}", reason=move.why_not), theme_style=ft.TextThemeStyle.BODY_SMALL,
                         italic=True)
                 ] if move is not None and move.why_not else []
        # The power's status under the name, not beside it: beside it, a long name and role at the largest
        # text size were squeezed to a few letters a line.
        rows.append(ft.Container(ft.Column([
            ft.Row([
                ft.Icon(ft.Icons.PLAY_ARROW if current else ft.Icons.PERSON, color=ft.Colors.PRIMARY if current else None),
                ft.Text(f"{p.name} · {_(ROLE_NAMES[p.role])}", theme_style=ft.TextThemeStyle.TITLE_SMALL,
                        weight=ft.FontWeight.BOLD, expand=True),
            ], vertical_alignment=ft.CrossAxisAlignment.CENTER),
            tagged(f"sts-power-{i}", ft.Row([ft.Icon(icon, color=colour, size=18),
                                             ft.Text(status, color=colour, weight=ft.FontWeight.BOLD)],
                                            spacing=4, tight=True)),
            ft.Text(render(ROLE_POWERS[p.role]), theme_style=ft.TextThemeStyle.BODY_MEDIUM,
                    color=ft.Colors.OUTLINE if state.powers_used[i] else None),
            *waits,
        ], spacing=2), padding=ft.Padding.symmetric(vertical=4)))
    return section(_("Players and powers"), *rows)
