"""Shadowrun: Singularis at the table: the money and reputation always on top, then the phase
stepper (what to do at the table, then exactly this phase's actions), the runners in play, the
objectives, and card effects. The ledger (every line, filter, chart) is its own screen.

The view decides nothing a rule decides: which buttons are live comes from `legal_actions`, why
not from `why_not`, numbers from the rules' formulas and helpers; every rolling action goes
through `frame.roll` so "I roll physical dice" works everywhere."""

from __future__ import annotations

from typing import Callable, Optional

import flet as ft

from companion.games.shadowrun import rules as R
from companion.games.shadowrun.screens import LedgerScreen
from companion.ui.forms import whole_number
from companion.ui.style import GAP, TAP
from companion.ui.widgets import big_button, icon_button, section, tagged

SCREENS = {"ledger": LedgerScreen}

# The seven phases of the book's turn, for the stepper strip (Credstick's five steps are one).
STRIP = [
    ("objective", "1 Objective", ("objective",)),
    ("refresh", "2 Refresh", ("refresh",)),
    ("credstick", "3 Credstick", ("paid", "income", "payroll", "interest", "payment")),
    ("legwork", "4 Legwork", ("legwork",)),
    ("shadowrun", "5 Shadowrun", ("shadowrun",)),
    ("victory", "6 Victory", ("victory",)),
    ("end", "7 End", ("end",)),
]
NEGATIVE = ft.Colors.RED_700


# --- small helpers -------------------------------------------------------------------------------------


def _txt(value: str, style=ft.TextThemeStyle.BODY_LARGE, **kw) -> ft.Text:
    return ft.Text(value, theme_style=style, **kw)


def _small(value: str, **kw) -> ft.Text:
    return ft.Text(value, theme_style=ft.TextThemeStyle.BODY_MEDIUM, **kw)


# What the player has typed but not yet sent, per screen: the panel is rebuilt on every refresh (and the
# frame may refresh once more just after an action), so a rebuilt field gets back what was typed.
_MEMO: dict = {}


def _field(label: str, **kw) -> ft.TextField:
    memo = _MEMO
    if label in memo:
        kw["value"] = memo[label]

    def keep(e) -> None:  # also makes the typed value reach the server as it is typed
        memo[label] = e.control.value
    return ft.TextField(label=label, on_change=keep, **kw)


def _num(label: str, value: int | str = "", *, width: Optional[int] = 110, helper: str = "") -> ft.TextField:
    field = _field(label, value=str(value), width=width, helper=helper or None,
                   keyboard_type=ft.KeyboardType.NUMBER, text_size=18)
    if width is None:  # (an explicit expand=False would still wrap it in Expanded: never inside a Wrap)
        field.expand = True
    return field


def _row(*controls: ft.Control) -> ft.Row:
    # A wrapping row gives its children unbounded width, so a row with an expanding field never wraps.
    wrap = not any(getattr(c, "expand", False) for c in controls)
    return ft.Row(list(controls), spacing=8, run_spacing=8, wrap=wrap,
                  vertical_alignment=ft.CrossAxisAlignment.CENTER)


def _box(*controls: ft.Control, color=ft.Colors.SURFACE_CONTAINER_HIGHEST) -> ft.Container:
    return ft.Container(ft.Column(list(controls), spacing=6, horizontal_alignment=ft.CrossAxisAlignment.STRETCH),
                        bgcolor=color, border_radius=12, padding=12)


def _sub(title: str) -> ft.Text:
    return ft.Text(title, theme_style=ft.TextThemeStyle.TITLE_SMALL, weight=ft.FontWeight.BOLD)


def _pct(fraction) -> str:
    """A d6 chance in sixths, as a table says it: "4 in 6"."""
    sixths = fraction * 6
    return f"{sixths.numerator} in 6" if sixths.denominator == 1 else f"{round(100 * fraction)}%"


class Ui:
    """What one build of the panel needs: the frame, the state, the legal kinds, and action makers."""

    def __init__(self, frame):
        global _MEMO
        self.frame = frame
        self.memo = _MEMO = frame.__dict__.setdefault("_shadowrun_typed", {})
        self.s: R.State = frame.loaded.game_state
        self.legal = set(R.legal_actions(self.s))
        self.guard = frame.app.guard

    def ok(self, kind: str) -> bool:
        return kind in self.legal

    def why(self, kind: str) -> Optional[str]:
        return R.why_not(self.s, kind)

    def send(self, make: Callable[[], object]) -> Callable:
        """A tap handler dispatching the action `make()` builds (reading the form at tap time)."""
        def go(e):
            self.frame.dispatch(make())
            self.memo.clear()  # sent: the form starts empty again
        return self.guard(go)

    def roll(self, make: Callable[[], object], count: Callable[[], int] | int, what: str, sides: int = 6) -> Callable:
        """A tap handler for an action that rolls `count` d6 (0 dice: just dispatch)."""
        def go(e):
            action = make()
            n = count() if callable(count) else count
            if n <= 0:
                self.frame.dispatch(action, pulse=True)
            else:
                self.frame.roll(action, count=n, sides=sides, what=what)
            self.memo.clear()
        return self.guard(go)

    def button(self, text: str, kind: str, on_click, *, icon=None, primary: bool = False,
               expand: bool = False) -> ft.Control:
        """A big button, live only when the rules allow `kind` now (the reason shows as its tooltip)."""
        reason = self.why(kind)
        cls = ft.FilledButton if primary else ft.FilledTonalButton
        button = cls(content=text, icon=icon, height=TAP, disabled=reason is not None, tooltip=reason,
                     on_click=on_click)
        if expand:  # only when wanted: an explicit expand=False wraps it in Expanded, which a Wrap refuses
            button.expand = True
        return button


# --- the panel -----------------------------------------------------------------------------------------


def panel(frame) -> ft.Control:
    ui = Ui(frame)
    s = ui.s
    parts: list[ft.Control] = [dashboard(ui), stepper(ui)]
    if s.phase not in ("setup", "objective"):
        parts.append(objectives_section(ui, with_form=False))
    parts.append(runners_section(ui))
    if s.phase != "over":
        parts.append(effects_section(ui))
    return ft.Column(parts, spacing=GAP)


def _tile(label: str, value: int | str, identifier: str, *, color=None, width: int = 104) -> ft.Control:
    return ft.Container(ft.Column([
        ft.Text(label, theme_style=ft.TextThemeStyle.LABEL_MEDIUM, no_wrap=True),
        tagged(identifier, ft.Text(str(value), size=26, weight=ft.FontWeight.BOLD, color=color)),
    ], spacing=0, horizontal_alignment=ft.CrossAxisAlignment.CENTER),
        width=width, padding=ft.Padding.symmetric(vertical=2, horizontal=4), border_radius=10,
        bgcolor=ft.Colors.SURFACE_CONTAINER_HIGHEST)


def dashboard(ui: Ui) -> ft.Control:
    s = ui.s
    rep_color = NEGATIVE if s.reputation < 0 else None
    where = "Setup" if s.phase == "setup" else (f"Game over · {s.result}" if s.phase == "over" else f"Turn {s.turn}")
    tiles = ft.Row([
        _tile("Loan", s.loan, "sr-loan"),
        _tile("Cash", s.cash, "sr-cash"),
        _tile("Interest owed", s.interest, "sr-interest"),
        _tile("Total debt", s.debt, "sr-debt"),
        _tile("Reputation", s.reputation, "sr-rep", color=rep_color),
        _tile("Target", s.settings.target_reputation, "sr-target"),
    ], wrap=True, spacing=8, run_spacing=8, alignment=ft.MainAxisAlignment.CENTER)
    head = ft.Row([
        ft.Column([
            tagged("sr-turn", ft.Text(where, theme_style=ft.TextThemeStyle.TITLE_LARGE, weight=ft.FontWeight.BOLD)),
            tagged("sr-phase", ft.Text(R.phase_title(s.phase), theme_style=ft.TextThemeStyle.TITLE_MEDIUM,
                                       color=ft.Colors.PRIMARY)),
        ], spacing=0, expand=True),
        ft.OutlinedButton(content="Ledger", icon=ft.Icons.RECEIPT_LONG, height=TAP,
                          on_click=lambda e: ui.frame.app.go(f"/c/{ui.frame.campaign_id}/ledger")),
    ], vertical_alignment=ft.CrossAxisAlignment.CENTER)
    rows: list[ft.Control] = [head, tiles]
    if s.reputation < 0:
        rows.append(_small(f"Reputation is negative: interest stays at 10%, and the Victory/Failure roll loses "
                           f"the game on a d6 ≤ {-s.reputation} ({_pct(R.survival_loss_odds(s.reputation))}).",
                           color=NEGATIVE))
    return ft.Card(content=ft.Container(ft.Column(rows, spacing=10), padding=12), margin=ft.Margin.only(bottom=4))


def _strip(ui: Ui) -> ft.Control:
    phase = ui.s.phase
    chips = []
    for key, label, phases in STRIP:
        current = phase in phases
        chips.append(ft.Container(
            ft.Text(label, theme_style=ft.TextThemeStyle.LABEL_MEDIUM, weight=ft.FontWeight.BOLD if current else None,
                    color=ft.Colors.ON_PRIMARY if current else None),
            bgcolor=ft.Colors.PRIMARY if current else ft.Colors.SURFACE_CONTAINER_HIGHEST,
            border_radius=16, padding=ft.Padding.symmetric(horizontal=10, vertical=6)))
    return ft.Row(chips, wrap=True, spacing=6, run_spacing=6)


def _last_events(ui: Ui) -> Optional[ft.Control]:
    rows = ui.frame.app.store.history(ui.frame.campaign_id, limit=1)
    if not rows or not rows[0].events:
        return None
    row = rows[0]
    return tagged("sr-last", _box(
        _small(f"Just now · {row.label}", weight=ft.FontWeight.BOLD),
        *[_small(e) for e in row.events], color=ft.Colors.SECONDARY_CONTAINER))


def stepper(ui: Ui) -> ft.Control:
    s = ui.s
    body: list[ft.Control] = []
    if s.phase not in ("setup", "over"):
        body.append(_strip(ui))
    body.append(tagged("sr-guide", _small(R.PHASE_GUIDE[s.phase], italic=True)))
    last = _last_events(ui)
    if last is not None:
        body.append(last)
    if s.pending_errand is not None:
        body += errand_choice(ui)
    elif s.damage is not None:
        body += damage_allocator(ui)
    else:
        body += PHASES.get(s.phase, lambda ui: [])(ui)
    if s.phase != "over":
        body.append(advance_button(ui))
    title = "Setup" if s.phase == "setup" else R.phase_title(s.phase)
    return section(title, *body)


def advance_button(ui: Ui) -> ft.Control:
    s = ui.s
    nxt = R.NEXT_PHASE[s.phase]
    label = f"Advance to {R.phase_title(nxt)}"
    if s.phase == "setup":
        label = "Start turn 1: Objective"
    elif s.phase == "end":
        label = f"Advance to turn {s.turn + 1}: Objective"
    reason = ui.why("advance")
    # The advance is THE next action once the phase's own step is done (or it has none).
    required_done = reason is None and (s.step_done or s.phase in ("setup", "refresh", "income", "legwork",
                                                                     "shadowrun", "end", "payment"))
    cls = ft.FilledButton if required_done else ft.OutlinedButton
    button = cls(content=label, icon=ft.Icons.ARROW_FORWARD, height=TAP, disabled=reason is not None,
                 on_click=ui.send(R.Advance))
    rows: list[ft.Control] = [ft.Divider(), button]
    if reason:
        rows.append(_small(reason, italic=True))
    return ft.Column(rows, spacing=6, horizontal_alignment=ft.CrossAxisAlignment.STRETCH)


# --- phase by phase ------------------------------------------------------------------------------------


def phase_setup(ui: Ui) -> list[ft.Control]:
    out = objectives_block(ui, with_form=True)
    if ui.s.settings.luck_of_the_draw:
        out += luck_block(ui, "Draw your 7 cards")
    return out


def phase_objective(ui: Ui) -> list[ft.Control]:
    s = ui.s
    out = objectives_block(ui, with_form=True)
    extras = R.EXTRA_CHALLENGES[s.settings.difficulty]
    where = ("no extra challenges" if extras == 0 else
             f"{extras} extra challenge(s): the first on the highest-value objective, the next on the next highest; "
             "equal values go to the one with fewest challenges, then the app rolls and says so")
    out.append(_small(f"1b · Each objective short of its challenges gets one. {s.settings.difficulty.capitalize()}: {where}."))
    ties = R.tie_break_dice(s)  # known in advance, so physical dice can be typed too
    what = "tie-break: " + ", then ".join(f"a d{n}" for n in ties)
    if ties:
        out.append(_small(f"Full ties to break: the app rolls {what.removeprefix('tie-break: ')} "
                          "(1 = the first tied objective in the list order)."))
    out.append(ui.button("Refresh the challenges (1b)", "refresh_challenges", ui.roll(R.RefreshChallenges, len(ties), what,
                                                       sides=max(ties, default=6)),
                         icon=ft.Icons.STYLE, primary=True))
    return out


def luck_block(ui: Ui, what: str) -> list[ft.Control]:
    table = " · ".join(f"{i} {d}" for i, d in enumerate(ui.s.settings.deck_table, start=1))
    return [_sub("Luck of the Draw"),
            _small(f"{what}: roll 2d6 for each card; each face names a deck ({table}); doubles: any deck."),
            ui.button("Roll Luck of the Draw (2d6)", "roll_luck",
                      ui.roll(R.RollLuck, 2, "Luck of the Draw"), icon=ft.Icons.CASINO)]


def phase_refresh(ui: Ui) -> list[ft.Control]:
    s = ui.s
    out: list[ft.Control] = [
        _small(f"Nuyen taken instead of cards this phase: {s.nuyen_taken} of {R.HAND_SIZE} (each counts toward your 7)."),
        ui.button("Take 1 Nuyen instead of a card", "take_nuyen", ui.send(lambda: R.TakeNuyen(count=1)),
                  icon=ft.Icons.PAYMENTS),
    ]
    if s.settings.luck_of_the_draw:
        out += luck_block(ui, "Draw up to 7")
    return out


def phase_paid(ui: Ui) -> list[ft.Control]:
    s = ui.s
    gained = s.rep_from_objectives_last_turn
    return [_small(f"3a · Reputation from objectives last turn: {gained} → Mr Johnson pays {gained} ÷ 2 = "
                   f"{gained // 2} (rounded down)."),
            ui.button(f"Collect Mr Johnson's payment (+{gained // 2})", "get_paid", ui.send(R.GetPaid),
                      icon=ft.Icons.PAYMENTS, primary=True)]


def phase_income(ui: Ui) -> list[ft.Control]:
    amount = _num("Nuyen", width=120)
    source = _field("From (card)", expand=True, max_length=40)
    return [_small("3b · Enter each card's income (Fame, Contacts…), or go on if none."),
            _row(amount, source),
            ui.button("Add secondary income", "secondary_income",
                      ui.send(lambda: R.SecondaryIncome(amount=whole_number(amount, "Income"), source=source.value or "")),
                      icon=ft.Icons.ADD)]


def phase_payroll(ui: Ui) -> list[ft.Control]:
    s = ui.s
    bill = R.payroll_bill(s)
    if not bill:
        return [_small("3c · No card in play charges upkeep."),
                ui.button("Pay the payroll (nothing due)", "payroll", ui.send(lambda: R.Payroll(unpaid=[])),
                          icon=ft.Icons.GROUPS, primary=True)]
    total = sum(c.upkeep for c in bill)
    boxes = {c.id: ft.Checkbox(label=f"Leave {c.name} unpaid (upkeep {c.upkeep}): trashed", value=False)
             for c in bill}
    lines = [_small(f"3c · Upkeep due: {', '.join(f'{c.name} {c.upkeep}' for c in bill)} = {total}; cash {s.cash}.")]
    if total > s.cash:
        lines.append(_small(f"Cash is {total - s.cash} short: tick the cards you can't pay; they are trashed.",
                            color=NEGATIVE))
    return [*lines, *boxes.values(),
            ui.button(f"Pay the payroll", "payroll",
                      ui.send(lambda: R.Payroll(unpaid=[cid for cid, b in boxes.items() if b.value])),
                      icon=ft.Icons.GROUPS, primary=True)]


def _interest_line(s: R.State) -> Optional[str]:
    for line in reversed(s.ledger):
        if line.account == "interest" and line.phase == "interest" and line.turn == s.turn:
            return f"Interest +{line.amount}: {line.reason.removeprefix('Interest: ')}"
    return None


def phase_interest(ui: Ui) -> list[ft.Control]:
    s = ui.s
    if s.step_done:
        line = _interest_line(s)
        return [tagged("sr-interest-sums", _txt(line or "No debt left: no interest this turn.",
                                                ft.TextThemeStyle.TITLE_MEDIUM, weight=ft.FontWeight.BOLD)),
                _small(f"Interest owed {s.interest}; total debt {s.debt}.")]
    rate = R.interest_rate(s.reputation)
    why = "1% per reputation point" if s.reputation > 10 else f"the minimum, as reputation is {s.reputation}"
    charge = R.interest_charge(rate, s.debt)
    return [_small(f"3d · Rate {rate}% ({why}) of loan + interest owed = {s.loan} + {s.interest} = {s.debt}, "
                   f"rounded up: +{charge}."),
            ui.button(f"Charge interest (+{charge})", "charge_interest", ui.send(R.ChargeInterest),
                      icon=ft.Icons.PERCENT, primary=True)]


def phase_payment(ui: Ui) -> list[ft.Control]:
    s = ui.s
    faces = R.payment_due_faces(s.debt)
    odds = "always due (40 or more)" if faces == 6 else f"due on a d6 of 1–{faces} ({_pct(R.payment_due_odds(s.debt))})"
    out: list[ft.Control] = [tagged("sr-payment-odds", _small(f"3e · Total debt {s.debt}: {odds}. "
                                                              "Table: 0–9 → 1–2 · 10–19 → 1–3 · 20–29 → 1–4 · "
                                                              "30–39 → 1–5 · 40+ → always."))]
    if s.payment_due is None:
        out.append(ui.button("Roll: is payment due? (d6)", "roll_payment_due",
                             ui.roll(R.RollPaymentDue, 0 if faces == 6 else 1, "payment due"),
                             icon=ft.Icons.CASINO, primary=True))
        return out
    if not s.payment_due:
        out.append(_txt("Not due this turn: the interest stays owed.", weight=ft.FontWeight.BOLD))
        return out
    if s.step_done:
        out.append(_txt("The payment is settled for this turn.", weight=ft.FontWeight.BOLD))
        return out
    need = max(0, s.interest - s.cash)
    out.append(_txt(f"Payment due: {s.interest} interest. Cash {s.cash}.", weight=ft.FontWeight.BOLD))
    cash_in = _num("Cards cashed in", 0, width=170, helper=f"at 1 Nuyen each, up to {need}")
    if need:
        out.append(_small(f"Cash is {need} short: cash in cards from hand or play at 1 Nuyen each; "
                          f"whatever stays unpaid is lost as reputation (and stays owed)."))
        out.append(cash_in)
    out.append(_row(
        ui.button(f"Pay the interest", "pay_interest",
                  ui.send(lambda: R.PayInterest(cash_in=whole_number(cash_in, "Cards cashed in", 0))),
                  icon=ft.Icons.PAYMENTS, primary=True),
        ui.button(f"Refuse (reputation −{s.interest})", "refuse_payment", ui.send(R.RefusePayment),
                  icon=ft.Icons.BLOCK),
    ))
    return out


def errand_choice(ui: Ui) -> list[ft.Control]:
    name = next((c.name for c in ui.s.cards if c.id == ui.s.pending_errand), "The runner")
    return [_txt(f"{name}'s errand rolled a 6: take 6 Nuyen, or roll two more dice and take their total "
                 f"(average 7).", weight=ft.FontWeight.BOLD),
            _row(ui.button("Take 6", "take_six", ui.send(R.TakeSix), primary=True),
                 ui.button("Roll two more (2d6)", "roll_two", ui.roll(R.RollTwo, 2, "errand: two more dice"),
                           icon=ft.Icons.CASINO))]


def phase_legwork(ui: Ui) -> list[ft.Control]:
    s = ui.s
    out: list[ft.Control] = []
    runners = [c for c in s.cards if c.card_type == "runner"]
    # Errands
    out.append(_sub("Run errands"))
    fresh = [c for c in runners if not c.turned]
    if fresh:
        out.append(_small("Turn a runner, roll 1d6: 1 nothing · 2–5 that much · 6 take 6 or roll two more."))
        out.append(_row(*[ui.button(f"Errand: {c.name}", "run_errand",
                                    ui.roll(lambda c=c: R.RunErrand(card_id=c.id), 1, f"errand by {c.name}"),
                                    icon=ft.Icons.CASINO) for c in fresh]))
    else:
        out.append(_small("No unturned runner to send on an errand." if runners else "Deploy a runner first."))
    # Heal
    hurt = [c for c in s.cards if c.damage > 0 and not c.turned]
    if hurt:
        out.append(_sub("Heal"))
        out.append(_row(*[ui.button(f"Heal {c.name} ({c.damage} damage)", "heal",
                                    ui.send(lambda c=c: R.Heal(card_id=c.id)), icon=ft.Icons.HEALING)
                          for c in hurt]))
    # Deploy
    out.append(_sub(f"Deploy a card · runners in play {len(runners)} of {R.MAX_RUNNERS}"))
    name = _field("Card name", expand=True, max_length=40)
    kind = ft.Dropdown(label="Type", value="runner", width=150,
                       options=[ft.DropdownOption(key=k, text=k) for k in ("runner", "spirit", "drone", "other")])
    cost, upkeep, body, armor = _num("Cost", width=80), _num("Upkeep", 0, width=80), _num("Body", width=80), \
        _num("Armor", 0, width=80)
    out += [_row(name, kind), _row(cost, upkeep, body, armor),
            ui.button("Deploy (pay its cost)", "deploy", ui.send(lambda: R.Deploy(
                name=name.value or "", card_type=kind.value or "runner", cost=whole_number(cost, "Cost"),
                upkeep=whole_number(upkeep, "Upkeep", 0), body=whole_number(body, "Body", 0 if kind.value == "other" else 1),
                armor=whole_number(armor, "Armor", 0))), icon=ft.Icons.PERSON_ADD)]
    # Sell, buy
    out.append(_sub("Sell cards · buy gear"))
    sold = _num("Cards sold", 1, width=120)
    spend = _num("Price", width=100)
    item = ft.Dropdown(label="Buying", value="gear", width=150,
                       options=[ft.DropdownOption(key=k, text=k) for k in ("gear", "skillsoft", "chipjack", "special", "other")])
    out += [_row(sold, ui.button("Sell (+1 each)", "sell_cards",
                                 ui.send(lambda: R.SellCards(count=whole_number(sold, "Cards sold"))), icon=ft.Icons.SELL)),
            _row(spend, item, ui.button("Buy", "spend", ui.send(lambda: R.Spend(
                amount=whole_number(spend, "Price"), item=item.value or "gear")), icon=ft.Icons.SHOPPING_CART))]
    # Pay off
    out.append(_sub(f"Pay off debt · loan {s.loan}, interest {s.interest}, cash {s.cash}"))
    loan, interest = _num("Off the loan", 0, width=140), _num("Off the interest", 0, width=150)
    out += [_row(loan, interest),
            ui.button("Pay off", "pay_off", ui.send(lambda: R.PayOff(loan=whole_number(loan, "Loan payment", 0),
                                                                     interest=whole_number(interest, "Interest payment", 0))),
                      icon=ft.Icons.ACCOUNT_BALANCE)]
    return out


def phase_shadowrun(ui: Ui) -> list[ft.Control]:
    s = ui.s
    if s.run is None:
        if s.run_taken:
            return [_small("You have run this turn (one Shadowrun per turn).")]
        return start_run_block(ui)
    return run_block(ui)


def start_run_block(ui: Ui) -> list[ft.Control]:
    s = ui.s
    if not s.objectives:
        return [_small("No objective is in play: no run this turn.")]
    target = ft.RadioGroup(value=str(s.objectives[0].id), content=ft.Column([
        ft.Container(ft.Radio(value=str(o.id), label=f"{o.name} · {o.rep} rep · {o.challenges} challenge(s)"),
                     height=TAP) for o in s.objectives], spacing=0))
    candidates = R.team_candidates(s)
    picked = [c for c in candidates if c.card_type == "runner"][:R.MAX_RUNNERS]
    boxes = {c.id: ft.Checkbox(label=f"{c.name} ({c.card_type}, body {c.body - c.damage} of {c.body})",
                               value=c in picked) for c in candidates}
    draws = R.event_draws(s.reputation)
    note = " (negative counts as 0)" if s.reputation < 0 else ""
    out: list[ft.Control] = [
        _sub("Target objective"), target,
        _sub("The team (up to 6 unturned runners; spirits and drones don't count)"),
        *(boxes.values() or [_small("No unturned runner, spirit or drone.")]),
        _small(f"Events to draw: 1 + 1 per full 10 reputation{note} = {draws}."),
        ui.button("Start the Shadowrun", "start_run", ui.send(lambda: R.StartRun(
            objective_id=int(target.value), team=[cid for cid, b in boxes.items() if b.value])),
            icon=ft.Icons.DIRECTIONS_RUN, primary=True),
        _small("Or skip the run this turn: advance below."),
    ]
    return out


def run_block(ui: Ui) -> list[ft.Control]:
    s = ui.s
    run = s.run
    objective = next(o for o in s.objectives if o.id == run.objective_id)
    team = [c for c in s.cards if c.id in run.team]
    out: list[ft.Control] = [
        tagged("sr-run", _box(
            _txt(f"Run on {objective.name} · {objective.rep} rep · {objective.challenges} challenge(s) left",
                 weight=ft.FontWeight.BOLD),
            _small("Team: " + (", ".join(f"{c.name} ({c.damage}/{c.body})" for c in team) or "nobody left")),
            _small(f"Events drawn {run.events_drawn} of {run.events_to_draw}."),
        )),
    ]
    if run.events_drawn < run.events_to_draw:
        cost = _num("Event's Nuyen cost", 0, width=200)

        def dice_for_event() -> int:
            return 1 if whole_number(cost, "Event cost") > 1 else 0
        out += [_sub(f"Draw event {run.events_drawn + 1} of {run.events_to_draw}"),
                _small("Played if a d6 ≥ its cost (cost 0 or 1: always). Stop drawing if a played event ends the run."),
                _row(cost, ui.button("Roll for the event", "draw_event",
                                     ui.roll(lambda: R.DrawEvent(cost=whole_number(cost, "Event cost")), dice_for_event,
                                             "event"), icon=ft.Icons.CASINO, primary=True))]
    out.append(_sub("Challenges (bottom to top)"))
    amount = _num("Challenge damage", width=190)
    ap = ft.Checkbox(label="Armor-piercing", value=False)
    out += [_row(amount, ap),
            ui.button("Allocate this damage", "start_damage", ui.send(lambda: R.StartDamage(
                amount=whole_number(amount, "Damage"), armor_piercing=bool(ap.value))), icon=ft.Icons.BOLT),
            _row(ui.button("Challenge beaten / sleazed", "trash_challenge", ui.send(R.TrashChallenge),
                           icon=ft.Icons.CHECK),
                 ui.button("Pump a cost (d6)", "pump", ui.roll(R.Pump, 1, "pump (a 6: the app rolls once more)"),
                           icon=ft.Icons.CASINO)),
            _row(ui.button(f"Take the objective (+{objective.rep} rep)", "complete_objective",
                           ui.send(R.CompleteObjective), icon=ft.Icons.EMOJI_EVENTS, primary=objective.challenges == 0),
                 ui.button("End the run without it", "end_run", ui.send(R.EndRun), icon=ft.Icons.LOGOUT))]
    return out


def damage_allocator(ui: Ui) -> list[ft.Control]:
    s = ui.s
    dmg = s.damage
    ap = " armor-piercing" if dmg.armor_piercing else ""
    out: list[ft.Control] = [
        tagged("sr-damage", _box(
            _txt(f"{dmg.left} of {dmg.total}{ap} damage left", ft.TextThemeStyle.TITLE_MEDIUM, weight=ft.FontWeight.BOLD),
            _small(f"Each hit is {dmg.dice}d6 (one die per full 6 of damage, at least one). A hit never deals more "
                   f"than is left, but the runner takes all of it; damage ≥ body kills (reputation − its cost)."),
            color=ft.Colors.ERROR_CONTAINER)),
        _sub("Who takes the next hit?"),
    ]
    for c in R.hit_candidates(s):
        armor = f", armor {c.armor}" if c.armor and not dmg.armor_piercing else ""
        out.append(ui.button(f"Hit {c.name} ({c.damage}/{c.body}{armor})", "take_hit",
                             ui.roll(lambda c=c: R.TakeHit(card_id=c.id), dmg.dice, f"hit on {c.name}"),
                             icon=ft.Icons.CASINO, primary=True, expand=True))
    return out


def phase_victory(ui: Ui) -> list[ft.Control]:
    s = ui.s
    target = s.settings.target_reputation
    checks = [f"reputation {s.reputation} of {target} {'✓' if s.reputation >= target else '✗'}",
              f"loan {s.loan} {'✓' if s.loan == 0 else '✗'}", f"interest {s.interest} {'✓' if s.interest == 0 else '✗'}"]
    out: list[ft.Control] = [_small("Win: " + " · ".join(checks) + ".")]
    if s.reputation < 0:
        out.append(_small(f"Reputation {s.reputation}: roll a d6; {'1' if s.reputation == -1 else f'1–{min(6, -s.reputation)}'} "
                          f"loses the game ({_pct(R.survival_loss_odds(s.reputation))}).", color=NEGATIVE))
    if s.step_done:
        return out
    dice = 1 if s.reputation < 0 else 0
    out.append(ui.button("Check victory" + (" and roll to survive (d6)" if dice else ""), "check_victory",
                         ui.roll(R.CheckVictory, dice, "survival"), icon=ft.Icons.FLAG, primary=True))
    return out


def phase_end(ui: Ui) -> list[ft.Control]:
    return [_small("Trash cards you don't want (runners below: trash), discard down to 7, reshuffle any empty deck.")]


def phase_over(ui: Ui) -> list[ft.Control]:
    s = ui.s
    word = "You won." if s.result == "Won" else "Game lost."
    return [tagged("sr-result", _txt(f"{word} Reputation {s.reputation}, loan {s.loan}, interest {s.interest}.",
                                     ft.TextThemeStyle.TITLE_LARGE, weight=ft.FontWeight.BOLD))]


PHASES: dict[str, Callable[[Ui], list[ft.Control]]] = {
    "setup": phase_setup, "objective": phase_objective, "refresh": phase_refresh, "paid": phase_paid,
    "income": phase_income, "payroll": phase_payroll, "interest": phase_interest, "payment": phase_payment,
    "legwork": phase_legwork, "shadowrun": phase_shadowrun, "victory": phase_victory, "end": phase_end,
    "over": phase_over,
}


# --- objectives, runners, card effects -----------------------------------------------------------------


def _objective_rows(ui: Ui) -> list[ft.Control]:
    s = ui.s
    if not s.objectives:
        return [_small("No objective in play yet.", italic=True)]
    rows = []
    for o in sorted(s.objectives, key=lambda o: -o.rep):
        full = R.challenges_for(o.rep)
        rows.append(tagged(f"sr-objective-{o.id}", ft.Container(ft.Row([
            ft.Column([
                ft.Text(o.name, theme_style=ft.TextThemeStyle.TITLE_MEDIUM, weight=ft.FontWeight.BOLD),
                _small(f"{o.rep} rep ({R.objective_range(o.rep)}) · {o.challenges} challenge(s) (full: {full})"),
            ], spacing=0, expand=True),
            icon_button(ft.Icons.DELETE_OUTLINE, f"Discard {o.name}",
                        ui.send(lambda o=o: R.DiscardObjective(objective_id=o.id)),
                        disabled=not ui.ok("discard_objective")),
        ], vertical_alignment=ft.CrossAxisAlignment.CENTER), bgcolor=ft.Colors.SURFACE_CONTAINER_HIGHEST,
            border_radius=10, padding=ft.Padding.only(left=12, right=4, top=4, bottom=4))))
    return rows


def objectives_block(ui: Ui, *, with_form: bool) -> list[ft.Control]:
    s = ui.s
    out: list[ft.Control] = [_sub(f"Objectives in play ({len(s.objectives)} of {R.OBJECTIVES_IN_PLAY})"),
                             *_objective_rows(ui)]
    if with_form and ui.ok("add_objective"):
        name = _field("Objective name", expand=True, max_length=40)
        rep = _num("Reputation", width=130)
        hint = "one per 10 reputation, rounded up (25 → 3)"
        if s.phase == "setup":
            have = {R.objective_range(o.rep) for o in s.objectives}
            missing = [r for r in ("≤10", "11–20", "21+") if r not in have]
            hint += f"; still needed: {', '.join(missing)}" if missing else ""
        out += [_small(f"Add the objective you drew; it gets its challenges: {hint}."),
                _row(name, rep),
                ui.button("Add objective", "add_objective",
                          ui.send(lambda: R.AddObjective(name=name.value or "", rep=whole_number(rep, "Reputation"))),
                          icon=ft.Icons.ADD, primary=s.phase == "setup" or len(s.objectives) < R.OBJECTIVES_IN_PLAY)]
    return out


def objectives_section(ui: Ui, *, with_form: bool) -> ft.Control:
    return section("Objectives", *objectives_block(ui, with_form=with_form)[1:])


def runners_section(ui: Ui) -> ft.Control:
    s = ui.s
    if not s.cards:
        return section("Runners in play", _small("No card in play yet: deploy runners in Legwork.", italic=True))
    rows = []
    for c in s.cards:
        status = "turned" if c.turned else "unturned"
        armor = f" · armor {c.armor}" if c.armor else ""
        kind = "" if c.card_type == "runner" else f" ({c.card_type})"
        hurt = c.damage > 0
        menu = ft.PopupMenuButton(icon=ft.Icons.MORE_VERT, tooltip=f"More for {c.name}", items=[
            ft.PopupMenuItem(content="Trash it", icon=ft.Icons.DELETE,
                             on_click=ui.send(lambda c=c: R.RemoveCard(card_id=c.id))),
            ft.PopupMenuItem(content=f"It died (reputation −{c.cost})", icon=ft.Icons.HEART_BROKEN,
                             on_click=ui.send(lambda c=c: R.RemoveCard(card_id=c.id, died=True))),
        ])
        rows.append(tagged(f"sr-card-{c.id}", ft.Container(ft.Row([
            ft.Column([
                ft.Text(f"{c.name}{kind}", theme_style=ft.TextThemeStyle.TITLE_MEDIUM, weight=ft.FontWeight.BOLD),
                _small(f"cost {c.cost} · body {c.body} · damage {c.damage} · upkeep {c.upkeep}{armor}",
                       color=NEGATIVE if hurt else None),
                _small(status, italic=c.turned, color=ft.Colors.OUTLINE if c.turned else ft.Colors.PRIMARY),
            ], spacing=0, expand=True),
            icon_button(ft.Icons.REPLAY if c.turned else ft.Icons.ROTATE_90_DEGREES_CW,
                        f"{'Untap' if c.turned else 'Turn'} {c.name}",
                        ui.send(lambda c=c: R.SetTurned(card_id=c.id, turned=not c.turned)),
                        disabled=not ui.ok("set_turned")),
            menu,
        ], vertical_alignment=ft.CrossAxisAlignment.CENTER), bgcolor=ft.Colors.SURFACE_CONTAINER_HIGHEST,
            border_radius=10, padding=ft.Padding.only(left=12, right=0, top=4, bottom=4))))
    runners = sum(1 for c in s.cards if c.card_type == "runner")
    return section(f"Runners in play · {runners} of {R.MAX_RUNNERS}", *rows)


def effects_section(ui: Ui) -> ft.Control:
    account = ft.Dropdown(label="Account", value="cash", width=150,
                          options=[ft.DropdownOption(key=k, text=k) for k in ("cash", "loan", "interest", "reputation")])
    amount = _num("Change (±)", width=120)
    reason = _field("Card / reason", expand=True, max_length=40)
    options = _field("Options, separated by commas", expand=True)

    def picks() -> list[str]:
        return [o.strip() for o in (options.value or "").split(",") if o.strip()]
    return ft.ExpansionTile(
        title=ft.Text("Card effects and random targets", theme_style=ft.TextThemeStyle.TITLE_MEDIUM),
        controls_padding=ft.Padding.all(12),
        controls=[
            _small("A card changes loan, cash, interest or reputation: enter it with its reason (it goes in the ledger)."),
            _row(account, amount), reason,
            ui.button("Apply the card effect", "adjust", ui.send(lambda: R.Adjust(
                account=account.value or "cash", amount=whole_number(amount, "Change"), reason=reason.value or "")),
                icon=ft.Icons.EDIT_NOTE),
            _small("A target chosen “at random”: list the options; the app rolls among them."),
            options,
            ui.button("Pick one at random", "pick_random",
                      ui.roll(lambda: R.PickRandom(options=picks()), lambda: 1 if len(picks()) > 1 else 0,
                              "random target", sides=max(2, len(picks()))), icon=ft.Icons.SHUFFLE),
        ],
    )


# --- setup form ------------------------------------------------------------------------------------------


class SetupForm:
    """Loan, target, difficulty, the optional rules and the Luck of the Draw deck table, filled once."""

    def __init__(self, app):
        d = R.Settings()
        self.loan = _num("Starting loan (1–20; cash starts equal)", d.loan, width=None, helper="Recommended: 20")
        self.target = _num("Target reputation", d.target_reputation, width=None)
        self.difficulty = ft.Dropdown(label="Difficulty (extra challenges per turn)", value=d.difficulty, expand=True,
                                      options=[ft.DropdownOption(key=k, text=f"{k} (+{n})")
                                               for k, n in R.EXTRA_CHALLENGES.items()])
        self.luck = ft.Switch(label="Luck of the Draw (2d6 picks the decks)", value=d.luck_of_the_draw)
        self.chipjacks = ft.Switch(label="Chipjacks (bought with any Skillsoft)", value=d.chipjacks)
        self.decks = [ft.TextField(label=f"Die face {i}: deck", value=name, max_length=30)
                      for i, name in enumerate(d.deck_table, start=1)]

    def controls(self) -> list[ft.Control]:
        return [self.loan, self.target, self.difficulty, self.luck, self.chipjacks,
                _small("Luck of the Draw: which player deck each die face names."), *self.decks]

    def collect(self) -> dict:
        return {"loan": whole_number(self.loan, "Starting loan"), "target_reputation": whole_number(self.target, "Target reputation"),
                "difficulty": self.difficulty.value, "luck_of_the_draw": bool(self.luck.value),
                "chipjacks": bool(self.chipjacks.value), "deck_table": [f.value or "" for f in self.decks]}
