"""The ledger screen of Shadowrun: Singularis (route /c/<id>/ledger): every change of loan, cash,
interest and reputation as a line (turn, phase, amount, reason, balance after), a filter by account,
and a chart of total debt and reputation at the end of each turn, drawn with flet.canvas.

The lines are not in the state (it keeps only the balances): they are read from the campaign's log,
the events of the actions in effect (`campaign_ledger`). Every word in the phone's language: the
lines' reasons are the rules' messages (an old save's plain sentences shown as they are)."""

from __future__ import annotations

from typing import Any, Optional

import flet as ft
import flet.canvas as cv

from companion.games.shadowrun import rules as R
from companion.games.shadowrun.ledger import ACCOUNT_TITLES, ACCOUNTS, Line, balances_by_turn, lines_for, reconciles, totals
from companion.i18n import _, fmt_number, render
from companion.log import Loaded, NotFound, replay
from companion.ui.style import GAP
from companion.ui.widgets import fit_title, section, tagged, title_room, wide_button

DEBT_COLOR = ft.Colors.DEEP_ORANGE_700
REP_COLOR = ft.Colors.INDIGO_600
CHART_HEIGHT = 220


def signed(amount: int) -> str:
    """A change with its sign, in the phone's numbers: +3, -2."""
    return ("+" if amount > 0 else "") + fmt_number(amount)


def chart_shapes(rows: list[dict], width: float, height: float = CHART_HEIGHT) -> list[cv.Shape]:
    """Debt and reputation per turn as two polylines, with a zero line and the axis values."""
    if not rows:
        return [cv.Text(width / 2, height / 2, _("No turns yet"), alignment=ft.Alignment.CENTER)]
    left, right, top, bottom = 34, 12, 12, 26
    w, h = max(40.0, width - left - right), height - top - bottom
    values = [r["debt"] for r in rows] + [r["reputation"] for r in rows]
    low, high = min(0, *values), max(1, *values)
    first, last = rows[0]["turn"], rows[-1]["turn"]
    span = max(1, last - first)

    def x(turn: int) -> float:
        return left + (turn - first) / span * w if last > first else left + w / 2

    def y(value: int) -> float:
        return top + (high - value) / (high - low) * h

    axis = ft.Paint(color=ft.Colors.OUTLINE, stroke_width=1)
    small = ft.TextStyle(size=12, color=ft.Colors.ON_SURFACE_VARIANT)
    shapes: list[cv.Shape] = [
        cv.Line(left, top, left, top + h, paint=axis),
        cv.Line(left, y(0), left + w, y(0), paint=axis),
        cv.Text(left - 6, y(high), fmt_number(high), style=small, alignment=ft.Alignment.CENTER_RIGHT),
        cv.Text(left - 6, y(0), "0", style=small, alignment=ft.Alignment.CENTER_RIGHT),
    ]
    if low < 0:
        shapes.append(cv.Text(left - 6, y(low), fmt_number(low), style=small, alignment=ft.Alignment.CENTER_RIGHT))
    step = max(1, len(rows) // 8)
    for r in rows[::step]:
        # Under the chart, short: "setup", then T1, T2… (the turn, abbreviated in each language).
        label = _("setup") if r["turn"] == 0 else _("T{turn}", turn=r["turn"])
        shapes.append(cv.Text(x(r["turn"]), top + h + 4, label, style=small, alignment=ft.Alignment.TOP_CENTER))
    for key, color in (("debt", DEBT_COLOR), ("reputation", REP_COLOR)):
        paint = ft.Paint(color=color, stroke_width=3, style=ft.PaintingStyle.STROKE)
        points = [(x(r["turn"]), y(r[key])) for r in rows]
        for (x1, y1), (x2, y2) in zip(points, points[1:]):
            shapes.append(cv.Line(x1, y1, x2, y2, paint=paint))
        for px, py in points:
            shapes.append(cv.Circle(px, py, 4, paint=ft.Paint(color=color)))
    return shapes


def campaign_ledger(store: Any, loaded: Loaded, replayed: Optional[dict[int, list]] = None) -> list[Line]:
    """The ledger of a campaign at its cursor: the opening lines, then the lines carried by the
    logged events of the actions in effect (seq 1..cursor), oldest first.

    A campaign saved before the lines were logged with the events (its old states kept the ledger)
    has actions whose events carry none, so the lines don't account for the balances. Its actions are
    then replayed through today's rules with their recorded dice, which give each action's events
    with their lines. `replayed` (log row id → events) keeps those between calls: a row's events
    never change, and the actions taken since carry their lines."""
    state: R.State = loaded.game_state
    balances = {a: getattr(state, a) for a in ACCOUNTS}
    rows = list(reversed(store.history(loaded.campaign.id, limit=max(1, loaded.cursor)))) if loaded.cursor else []
    replayed = {} if replayed is None else replayed

    def lines() -> list[Line]:
        return R.ledger(state.settings, (e for r in rows for e in replayed.get(r.id, r.events)))

    logged = lines()
    if reconciles(logged, balances) or all(r.id in replayed for r in rows):
        return logged
    log = [{"seq": 0, "action": {}, "dice": []}] + [{"seq": r.seq, "action": r.action, "dice": r.dice} for r in rows]
    report = replay(loaded.game, loaded.campaign.settings, log)
    for r in rows:  # (a row the replay didn't reach keeps its logged events)
        replayed[r.id] = [e.model_dump(mode="json") for e in report.events.get(r.seq, [])] or r.events
    return lines()


class LedgerScreen:
    def __init__(self, app, campaign_id: int):
        self.app = app
        self.campaign_id = campaign_id
        self.account: Optional[str] = None  # the filter (None = every account)
        self.width = 340.0
        self.rows: list[dict] = []
        self.replayed: dict[int, list] = {}  # an old save's actions, replayed for their lines (campaign_ledger)
        self.body = ft.Column(spacing=GAP)
        # Two lines at most: "Kassenbuch · <the campaign's name>" outgrew one at a large text size.
        self.title = ft.Text(_("Ledger"), theme_style=ft.TextThemeStyle.TITLE_LARGE, max_lines=2,
                             overflow=ft.TextOverflow.ELLIPSIS)
        self.appbar = ft.AppBar(title=self.title)
        self.canvas = cv.Canvas(shapes=[], expand=True, on_resize=self._resized)
        self._unsubscribe = None

    def view(self) -> ft.View:
        self._draw()
        return ft.View(
            route=f"/c/{self.campaign_id}/ledger",
            appbar=self.appbar,
            controls=[self.body],
            scroll=ft.ScrollMode.AUTO,
            padding=12,
        )

    def entered(self) -> None:
        self._unsubscribe = self.app.ctx.hub.subscribe(self.campaign_id, lambda cid, cursor: self.app.later(self.refresh))

    def left(self) -> None:
        if self._unsubscribe:
            self._unsubscribe()
            self._unsubscribe = None

    def refresh(self) -> None:
        self._draw()
        self.app.page.update()

    def _resized(self, e) -> None:
        if abs(e.width - self.width) > 1:
            self.width = e.width
            self.canvas.shapes = chart_shapes(self.rows, self.width)
            self.canvas.update()

    def _pick(self, account: Optional[str]) -> None:
        self.account = account
        self.refresh()

    def _draw(self) -> None:
        back = wide_button(_("Back to the table"), lambda e: self.app.go(f"/c/{self.campaign_id}"),
                           icon=ft.Icons.ARROW_BACK, filled=False)
        try:
            loaded = self.app.store.load(self.campaign_id)
        except NotFound:
            self.body.controls = [ft.Text(_("Campaign not found.")), back]
            return
        state: R.State = loaded.game_state
        self.title.value = _("Ledger · {name}", name=loaded.campaign.name)
        sizes = getattr(self.app, "sizes", None)
        if sizes is not None:  # the title whole at any text size, as every title bar (widgets.app_bar)
            self.appbar.toolbar_height = max(56, round(fit_title(sizes, self.title, title_room(self.app))) + 16)
        lines = campaign_ledger(self.app.store, loaded, self.replayed)
        self.rows = balances_by_turn(lines)
        self.canvas.shapes = chart_shapes(self.rows, self.width)
        sums = totals(lines)
        check = all(sums[a] == getattr(state, a) for a in ACCOUNTS)
        # One line each, its words wrapping beside the swatch (in a wrapping row they were cut off).
        legend = ft.Column([
            ft.Row([ft.Container(width=18, height=6, bgcolor=colour, border_radius=3), ft.Text(words, expand=True)],
                   spacing=6)
            for colour, words in ((DEBT_COLOR, _("Total debt (loan + interest)")), (REP_COLOR, _("Reputation")))
        ], spacing=4)
        chips = []
        for account in (None, *ACCOUNTS):
            name = _("All") if account is None else render(ACCOUNT_TITLES[account])
            chips.append(wide_button(name, lambda e, a=account: self._pick(a), filled=account == self.account))
        shown = lines if self.account is None else lines_for(lines, self.account)
        self.body.controls = [
            back,
            section(_("Debt and reputation by turn"),
                    ft.Container(self.canvas, height=CHART_HEIGHT),
                    legend,
                    ft.Text((_("Now: loan {loan} · cash {cash} · interest {interest} · reputation {reputation}",
                               loan=state.loan, cash=state.cash, interest=state.interest, reputation=state.reputation)
                             if check else
                             _("Now: loan {loan} · cash {cash} · interest {interest} · reputation {reputation} · "
                               "WARNING: balances differ from the lines", loan=state.loan, cash=state.cash,
                               interest=state.interest, reputation=state.reputation)),
                            theme_style=ft.TextThemeStyle.BODY_MEDIUM)),
            section(_("Lines ({shown} of {all})", shown=len(shown), all=len(lines)),
                    ft.Row(chips, wrap=True, spacing=8, run_spacing=8),
                    tagged("sr-ledger", self._table(shown))),
        ]

    def _table(self, lines) -> ft.Control:
        if not lines:
            return ft.Text(_("No lines."), italic=True)
        items = []
        for line in reversed(lines):  # newest first
            where = render(R.phase_title("setup")) if line.turn == 0 else _("Turn {turn}", turn=line.turn)
            color = ft.Colors.RED_700 if line.amount < 0 else ft.Colors.GREEN_800
            items.append(ft.Container(ft.Row([
                ft.Column([
                    ft.Text(render(line.reason), theme_style=ft.TextThemeStyle.BODY_LARGE),
                    ft.Text(f"{where} · {render(R.phase_title(line.phase))} · {_(line.account)}",
                            theme_style=ft.TextThemeStyle.BODY_SMALL),
                ], spacing=0, expand=True),
                ft.Column([
                    ft.Text(signed(line.amount), theme_style=ft.TextThemeStyle.TITLE_MEDIUM, color=color,
                            weight=ft.FontWeight.BOLD),
                    ft.Text(f"→ {fmt_number(line.balance)}", theme_style=ft.TextThemeStyle.BODY_MEDIUM),
                ], spacing=0, horizontal_alignment=ft.CrossAxisAlignment.END),
            ], vertical_alignment=ft.CrossAxisAlignment.CENTER),
                padding=ft.Padding.symmetric(vertical=6), border=ft.Border.only(bottom=ft.BorderSide(1, ft.Colors.OUTLINE_VARIANT))))
        return ft.Column(items, spacing=0)
