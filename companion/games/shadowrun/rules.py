"""Shadowrun: Singularis (solitaire rules for Shadowrun: The Trading Card Game), RULES.md §2.

The cards stay on the table. The app keeps the loan, cash, interest and reputation right (every
change is a ledger line, logged with the action's events: see `ledger.post`; the state keeps only
the balances, and `ledger(settings, events)` rebuilds the lines), walks the turn phase by phase,
and declares every roll the book asks for as a chance node (how many dice, which die, why, the odds
of each outcome): Luck of the Draw, tie-breaks, payment due, errands, events, pumped costs, random
picks, damage, survival. In new campaigns (`Settings.auto_pass`), a step with nothing to choose and
no die to roll passes by itself within the action that reached it, and says so (`_carry_on`).

Read top to bottom: the numbers of the game (pure formulas and the odds of each roll), settings,
state, actions, which actions each phase allows (`why_not`) and what may be done now (`moves`),
then one handler per action, then `apply`.
"""

from __future__ import annotations

import typing
from fractions import Fraction
from typing import Annotated, Any, Callable, Iterable, Literal, Optional, Union

from pydantic import Field, StringConstraints, model_serializer, model_validator

from companion.games.base import (
    Chance, DieSpec, Dice, Event, FieldSpec, Game, InputError, Model, Move, NeedDice, Outcome, RuleError, ceil_div, d,
    event, field_specs, fmt_dice, require_range, throw, throw_one,
)
from companion.games.shadowrun.ledger import ACCOUNTS, Account, Journal, Line, lines_in, post

# --- The numbers of the game ------------------------------------------------------------------------

Difficulty = Literal["easy", "normal", "hard", "extreme"]
EXTRA_CHALLENGES: dict[str, int] = {"easy": 0, "normal": 1, "hard": 2, "extreme": 3}
MAX_RUNNERS = 6  # in play at any time, and on one Shadowrun (spirits and drones don't count)
HAND_SIZE = 7
OBJECTIVES_IN_PLAY = 3
OBJECTIVE_RANGES = ("≤10", "11–20", "21+")


def challenges_for(rep: int) -> int:
    """Challenges an objective gets: one per 10 reputation, rounded up (25 rep → 3)."""
    return ceil_div(rep, 10)


def objective_range(rep: int) -> str:
    """The three setup ranges of objective value."""
    return "≤10" if rep <= 10 else "11–20" if rep <= 20 else "21+"


def interest_rate(reputation: int) -> int:
    """Percent: the greater of 10% and 1% per point of reputation (negative reputation → 10%)."""
    return max(10, reputation)


def interest_charge(rate: int, debt: int) -> int:
    """ceil(rate% × debt), in integers."""
    return ceil_div(rate * debt, 100)


def interest_sums(rate: int, debt: int) -> str:
    """The interest sum as the table checks it.

    >>> interest_sums(20, 22)
    '20% of 22 = 4.4 → 5'
    >>> interest_sums(10, 20)
    '10% of 20 = 2'
    """
    exact = rate * debt  # in hundredths of a Nuyen
    return f"{rate}% of {debt} = {_decimal(exact)}" + ("" if exact % 100 == 0 else f" → {interest_charge(rate, debt)}")


def johnson_pay(rep_gained: int) -> int:
    """Mr Johnson pays half the reputation gained from objectives, rounded down."""
    return rep_gained // 2


def payment_due_faces(debt: int) -> int:
    """Payment is due on a d6 roll of 1..this: 0–9 → 2, 10–19 → 3, 20–29 → 4, 30–39 → 5, 40+ → 6."""
    return min(6, 2 + debt // 10)


def event_draws(reputation: int) -> int:
    """Events drawn on a Shadowrun: 1 + one per full 10 reputation (below 0 counts as 0)."""
    return 1 + max(0, reputation) // 10


def hit_dice(total_damage: int) -> int:
    """Dice per hit: one per complete 6 of the challenge's damage, at least one (1–11 → 1, 12–17 → 2)."""
    return max(1, total_damage // 6)


def _decimal(hundredths: int) -> str:
    """4.4 from 440, exactly, without floats."""
    whole, frac = divmod(hundredths, 100)
    return str(whole) if frac == 0 else f"{whole}.{frac:02d}".rstrip("0")


# --- The odds of each roll (the chance nodes' outcomes; the view shows these, never its own) ----------


def _faces(low: int, high: int) -> str:
    return str(low) if low == high else f"{low}–{high}"


def _sum_at_least(dice: int, total: int) -> Fraction:
    """Chance that `dice` d6 add up to `total` or more, exactly.

    >>> _sum_at_least(2, 7)
    Fraction(7, 12)
    >>> _sum_at_least(1, 1), _sum_at_least(1, 7)
    (Fraction(1, 1), Fraction(0, 1))
    """
    ways = {0: 1}
    for _ in range(dice):
        nxt: dict[int, int] = {}
        for s, w in ways.items():
            for face in range(1, 7):
                nxt[s + face] = nxt.get(s + face, 0) + w
        ways = nxt
    return Fraction(sum(w for s, w in ways.items() if s >= total), 6 ** dice)


def _split(p: Fraction, yes: str, no: str) -> list[Outcome]:
    return [Outcome(label=yes, probability=float(p)), Outcome(label=no, probability=float(1 - p))]


def payment_due_outcomes(debt: int) -> list[Outcome]:
    """The payment-due roll against the debt band ("due on 1–4"); 40 or more is always due."""
    due = payment_due_faces(debt)
    if due == 6:
        return [Outcome(label="always due (total debt 40 or more)", probability=1.0)]
    return _split(Fraction(due, 6), f"due on {_faces(1, due)}", f"not due on {_faces(due + 1, 6)}")


def payment_table() -> str:
    """The payment-due table in one line.

    >>> payment_table()
    '0–9 → 1–2 · 10–19 → 1–3 · 20–29 → 1–4 · 30–39 → 1–5 · 40+ → always'
    """
    bands = []
    for low in range(0, 50, 10):
        due = payment_due_faces(low)
        bands.append(f"{low}+ → always" if due == 6 else f"{low}–{low + 9} → {_faces(1, due)}")
    return " · ".join(bands)


def event_outcomes(cost: int) -> list[Outcome]:
    """An event is played on a d6 ≥ its Nuyen cost: cost 0 or 1 always, above 6 never (no die either way)."""
    if cost <= 1:
        return [Outcome(label="always played (cost 0 or 1)", probability=1.0)]
    if cost > 6:
        return [Outcome(label="never played (no die reaches its cost)", probability=1.0)]
    return _split(Fraction(7 - cost, 6), f"played on {_faces(cost, 6)}", f"not played on {_faces(1, cost - 1)}")


def survival_outcomes(reputation: int) -> list[Outcome]:
    """The Victory/Failure roll below 0 reputation: a d6 ≤ |reputation| loses (none at 0 or more)."""
    if reputation >= 0:
        return []
    lose = min(6, -reputation)
    if lose == 6:
        return [Outcome(label="always lost (reputation −6 or lower)", probability=1.0)]
    return _split(Fraction(lose, 6), f"game lost on {_faces(1, lose)}", f"you survive on {_faces(lose + 1, 6)}")


ERRAND_OUTCOMES = [
    Outcome(label="1: nothing", probability=1 / 6),
    Outcome(label="2–5: that many Nuyen", probability=4 / 6),
    Outcome(label="6: take 6, or roll two more dice", probability=1 / 6),
]
TWO_MORE_OUTCOMES = _split(_sum_at_least(2, 7), "more than 6: better than taking the 6", "6 or less")
LUCK_OUTCOMES = _split(Fraction(1, 6), "doubles: draw from any deck", "two faces: draw from either deck")
PUMP_OUTCOMES = [Outcome(label="1–5: that many Nuyen", probability=5 / 6),
                 Outcome(label="6: roll again and add", probability=1 / 6)]
PUMP_AGAIN_OUTCOMES = [Outcome(label="7–12 Nuyen in all", probability=1.0)]


def pick_die(options: list[str]) -> DieSpec:
    """A die with one face per option, named by it (a physical table picks any fair way and taps it)."""
    return DieSpec(sides=len(options), faces=tuple(options))


def pick_outcomes(die: DieSpec) -> list[Outcome]:
    return [Outcome(label=name, probability=float(die.probability(name))) for name, _ in die.choices()]


# --- Phases: the order of the turn and what the table does in each -----------------------------------

Phase = Literal[
    "setup", "objective", "refresh", "paid", "income", "payroll", "interest", "payment",
    "legwork", "shadowrun", "victory", "end", "over",
]
# Decision (RULES.md): the book's numbered order, so Nuyen taken in Refresh can pay the Payroll.
NEXT_PHASE: dict[str, str] = {
    "setup": "objective", "objective": "refresh", "refresh": "paid", "paid": "income",
    "income": "payroll", "payroll": "interest", "interest": "payment", "payment": "legwork",
    "legwork": "shadowrun", "shadowrun": "victory", "victory": "end", "end": "objective",
}
PHASE_TITLES: dict[str, str] = {
    "setup": "Setup",
    "objective": "Objective",
    "refresh": "Refresh",
    "paid": "Credstick 3a · Getting paid",
    "income": "Credstick 3b · Secondary income",
    "payroll": "Credstick 3c · Payroll",
    "interest": "Credstick 3d · Interest",
    "payment": "Credstick 3e · Payment due",
    "legwork": "Legwork",
    "shadowrun": "Shadowrun",
    "victory": "Victory/Failure",
    "end": "End",
    "over": "Game over",
}
PHASE_GUIDE: dict[str, str] = {
    "setup": "Shuffle the Objective, Challenge, Event and Player decks. Draw 7 cards (Luck of the Draw "
    "if on). Draw objectives until you have one worth ≤10, one 11–20 and one 21+ (discard duplicates) "
    "and enter them; each gets its challenges face down.",
    "objective": "1a: while fewer than three objectives are in play, draw one and enter it (it gets its "
    "challenges). 1b: refresh the challenges; the app says where each card goes.",
    "refresh": "Untap your cards. Draw up to 7 cards; for any card you don't draw you may take 1 Nuyen.",
    "paid": "Mr Johnson pays half the reputation you gained from objectives last turn.",
    "income": "Enter Nuyen from cards in play (Fame, Contacts…).",
    "payroll": "Pay every card's upkeep. A card you can't pay is trashed.",
    "interest": "The loan shark charges interest on loan + interest owed.",
    "payment": "Roll to see if the loan shark wants the interest now; pay it or lose that much reputation.",
    "legwork": "Deploy cards, buy gear, run errands, sell cards, pay off debt, heal — any order, any number.",
    "shadowrun": "Optionally run one objective: pick it and up to 6 unturned runners, draw events, face "
    "the challenges (bottom to top) and take the objective.",
    "victory": "Check for a win (reputation ≥ target, no loan, no interest) and, on negative reputation, "
    "roll to survive.",
    "end": "Trash cards you don't want, discard down to 7, reshuffle any empty player deck.",
    "over": "The game is over.",
}

# --- Settings ------------------------------------------------------------------------------------------

DeckName = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=30)]
# Decision: the book lists Magic, Rigger, Decker, Info, Skillsofts, Runners and Gear but speaks of six
# player decks; the default table leaves Skillsofts in with Gear. The player edits it once.
DEFAULT_DECK_TABLE = ["Magic", "Rigger", "Decker", "Info", "Runners", "Gear"]


class Settings(Model):
    loan: int = Field(20, ge=1, le=20, description="Starting loan in Nuyen (cash starts equal to it)")
    target_reputation: int = Field(25, ge=1, le=200, description="Reputation needed to win")
    difficulty: Difficulty = Field("normal", description="Extra challenges each turn: easy 0 … extreme 3")
    luck_of_the_draw: bool = Field(True, description="Roll 2d6 to choose the player deck to draw from")
    chipjacks: bool = Field(True, description="Chipjacks can be bought with any Skillsoft")
    deck_table: list[DeckName] = Field(
        default_factory=lambda: list(DEFAULT_DECK_TABLE), min_length=6, max_length=6,
        description="Luck of the Draw: the player deck named by die faces 1–6",
    )
    # Off in every campaign made before it existed (their saved settings lack it), so their logs replay
    # as they were played, one step per action; the setup form turns it on for new campaigns.
    auto_pass: bool = Field(False, description="Steps with nothing to choose and no die to roll pass by themselves")

    @model_serializer(mode="wrap")
    def _written_only_when_on(self, handler: Any) -> Any:
        # Off, it is left out: an old campaign's settings and states are saved byte for byte as before.
        data = handler(self)
        if isinstance(data, dict) and not self.auto_pass:
            data.pop("auto_pass", None)
        return data


# --- State ---------------------------------------------------------------------------------------------

CardType = Literal["runner", "spirit", "drone", "other"]


class Card(Model):
    """A card in play the app tracks: a runner, spirit or drone (combatants), or another upkeep card."""

    id: int
    name: str
    card_type: CardType = "runner"
    cost: int
    upkeep: int = 0
    body: int = 0
    armor: int = 0
    damage: int = 0
    turned: bool = False


class Objective(Model):
    id: int
    name: str
    rep: int
    challenges: int


class Run(Model):
    """The Shadowrun in progress."""

    objective_id: int
    team: list[int]
    events_to_draw: int
    events_drawn: int = 0


class Damage(Model):
    """A challenge's damage being allocated hit by hit."""

    total: int
    left: int
    dice: int
    armor_piercing: bool = False
    hit_this_pass: list[int] = Field(default_factory=list)


class State(Model):
    settings: Settings
    turn: int = 0  # 0 = setup
    phase: Phase = "setup"
    loan: int = 0
    cash: int = 0
    interest: int = 0
    reputation: int = 0
    objectives: list[Objective] = Field(default_factory=list)
    cards: list[Card] = Field(default_factory=list)
    next_id: int = 1
    step_done: bool = False  # the current phase's one required step is done
    payment_due: Optional[bool] = None  # 3e: None before the roll
    nuyen_taken: int = 0  # Refresh: Nuyen taken instead of cards
    skillsofts_bought: int = 0  # Legwork: a chipjack comes with a skillsoft
    chipjacks_bought: int = 0
    run_taken: bool = False
    run: Optional[Run] = None
    damage: Optional[Damage] = None
    pending_errand: Optional[int] = None  # a runner whose errand rolled a 6, awaiting the choice
    rep_from_objectives_this_turn: int = 0
    rep_from_objectives_last_turn: int = 0
    result: Optional[Literal["Won", "Lost"]] = None

    @model_validator(mode="before")
    @classmethod
    def _drop_the_old_ledger(cls, data: Any) -> Any:
        # Saves made before the ledger left the state (it grew with every action, and the state is
        # saved after each one) still hold it: drop it on load, so they load and replay as they
        # did. The lines are rebuilt from the logged events instead (`ledger`).
        if isinstance(data, dict) and "ledger" in data:
            data = {k: v for k, v in data.items() if k != "ledger"}
        return data

    @property
    def debt(self) -> int:
        return self.loan + self.interest


def _opened(settings: Settings) -> tuple[State, list[Line]]:
    """A new campaign's state and its opening ledger lines (the loan, and the cash it pays out)."""
    state, journal = State(settings=settings), Journal()
    post(state, journal, "loan", settings.loan, "Starting loan from the loan shark")
    post(state, journal, "cash", settings.loan, "Starting cash: the loan paid out")
    return state, journal.unlogged


def new_state(settings: Settings) -> State:
    return _opened(settings)[0]


def opening_lines(settings: Settings) -> list[Line]:
    """The ledger's first lines, written when the campaign starts (before any action or event)."""
    return _opened(settings)[1]


def ledger(settings: Settings, events: Iterable[Any]) -> list[Line]:
    """The campaign's whole ledger: its opening lines, then the lines the logged events carry, in
    the order of the log (the events of the actions in effect, oldest first). Pure: a test can give
    it the events of a playout; the ledger screen gives it the store's log."""
    return opening_lines(settings) + lines_in(events)


def hit_outcomes(damage: Damage, card: Card) -> list[Outcome]:
    """Whether this hit kills `card`: the dice must deal its body left plus its armor (unless
    armor-piercing), and a hit never deals more than the damage left."""
    armor = 0 if damage.armor_piercing else card.armor
    kills = card.body - card.damage + armor  # the dice total that kills
    if kills > damage.left:
        return [Outcome(label=f"{card.name} survives: only {damage.left} damage is left", probability=1.0)]
    p = _sum_at_least(damage.dice, kills)
    if p == 1:
        return [Outcome(label=f"any roll kills {card.name}", probability=1.0)]
    return _split(p, f"{kills} or more kills {card.name}", f"less: {card.name} survives")


# --- Actions -------------------------------------------------------------------------------------------
# Each number a player types has its range on the model (`Field(ge=…, le=…)`; `moves` narrows it by
# the state) and the words the form shows (`description`), which also name it in a refusal.


class Advance(Model):
    """Go on to the next phase (or step of the Credstick phase)."""

    kind: Literal["advance"] = "advance"


class AddObjective(Model):
    kind: Literal["add_objective"] = "add_objective"
    name: str = Field(description="Objective name")
    rep: int = Field(ge=1, le=100, description="Reputation")


class DiscardObjective(Model):
    kind: Literal["discard_objective"] = "discard_objective"
    objective_id: int = Field(description="Objective")


class RefreshChallenges(Model):
    kind: Literal["refresh_challenges"] = "refresh_challenges"


class TakeNuyen(Model):
    kind: Literal["take_nuyen"] = "take_nuyen"
    count: int = Field(1, ge=1, le=HAND_SIZE, description="Nuyen taken instead of cards")


class RollLuck(Model):
    kind: Literal["roll_luck"] = "roll_luck"


class GetPaid(Model):
    kind: Literal["get_paid"] = "get_paid"


class SecondaryIncome(Model):
    kind: Literal["secondary_income"] = "secondary_income"
    amount: int = Field(ge=1, le=100, description="Nuyen")
    source: str = Field("", description="From (card)")


class Payroll(Model):
    """Pay all upkeep; `unpaid` names the cards the player leaves unpaid when cash runs short."""

    kind: Literal["payroll"] = "payroll"
    unpaid: list[int] = Field(default_factory=list, description="Cards left unpaid (trashed)")


class ChargeInterest(Model):
    kind: Literal["charge_interest"] = "charge_interest"


class RollPaymentDue(Model):
    kind: Literal["roll_payment_due"] = "roll_payment_due"


class PayInterest(Model):
    """Pay the interest due; cards may be cashed in at 1 Nuyen each (untracked ones by count)."""

    kind: Literal["pay_interest"] = "pay_interest"
    cash_in: int = Field(0, ge=0, description="Cards cashed in")
    cash_in_ids: list[int] = Field(default_factory=list, description="Cards in play cashed in")


class RefusePayment(Model):
    kind: Literal["refuse_payment"] = "refuse_payment"


class Deploy(Model):
    kind: Literal["deploy"] = "deploy"
    name: str = Field(description="Card name")
    card_type: CardType = Field("runner", description="Type")
    cost: int = Field(ge=0, le=50, description="Cost")
    upkeep: int = Field(0, ge=0, le=20, description="Upkeep")
    body: int = Field(1, ge=0, le=30, description="Body")  # 1 or more for a runner, spirit or drone
    armor: int = Field(0, ge=0, le=20, description="Armor")


SpendItem = Literal["gear", "skillsoft", "chipjack", "special", "other"]


class Spend(Model):
    """Pay for gear, a skillsoft (and a chipjack with it), a special card, or anything else."""

    kind: Literal["spend"] = "spend"
    amount: int = Field(ge=1, le=100, description="Price")
    item: SpendItem = Field("gear", description="Buying")
    what: str = Field("", description="What")


class RunErrand(Model):
    kind: Literal["run_errand"] = "run_errand"
    card_id: int = Field(description="Runner")


class TakeSix(Model):
    kind: Literal["take_six"] = "take_six"


class RollTwo(Model):
    kind: Literal["roll_two"] = "roll_two"


class SellCards(Model):
    kind: Literal["sell_cards"] = "sell_cards"
    count: int = Field(1, ge=1, le=60, description="Cards sold")


class PayOff(Model):
    kind: Literal["pay_off"] = "pay_off"
    loan: int = Field(0, ge=0, description="Off the loan")
    interest: int = Field(0, ge=0, description="Off the interest")


class Heal(Model):
    kind: Literal["heal"] = "heal"
    card_id: int = Field(description="Card")


class StartRun(Model):
    kind: Literal["start_run"] = "start_run"
    objective_id: int = Field(description="Target objective")
    team: list[int] = Field(description="The team")


class DrawEvent(Model):
    kind: Literal["draw_event"] = "draw_event"
    cost: int = Field(ge=0, le=20, description="Event's Nuyen cost")


class Pump(Model):
    kind: Literal["pump"] = "pump"


class PickRandom(Model):
    kind: Literal["pick_random"] = "pick_random"
    options: list[str] = Field(description="Options")


class TrashChallenge(Model):
    """A challenge on the target objective is sleazed, defeated or a bluff: it leaves the stack."""

    kind: Literal["trash_challenge"] = "trash_challenge"


class StartDamage(Model):
    kind: Literal["start_damage"] = "start_damage"
    amount: int = Field(ge=1, le=99, description="Challenge damage")
    armor_piercing: bool = Field(False, description="Armor-piercing")


class TakeHit(Model):
    kind: Literal["take_hit"] = "take_hit"
    card_id: int = Field(description="Who takes the hit")


class CompleteObjective(Model):
    kind: Literal["complete_objective"] = "complete_objective"


class EndRun(Model):
    kind: Literal["end_run"] = "end_run"


class CheckVictory(Model):
    kind: Literal["check_victory"] = "check_victory"


class Adjust(Model):
    """A card's effect on loan, cash, interest or reputation the rules don't know (with a reason)."""

    kind: Literal["adjust"] = "adjust"
    account: Account = Field(description="Account")
    amount: int = Field(ge=-100, le=100, description="Change (±)")
    reason: str = Field(description="Card / reason")


class SetTurned(Model):
    kind: Literal["set_turned"] = "set_turned"
    card_id: int
    turned: bool


class RemoveCard(Model):
    """Trash a tracked card; `died` = killed outside the allocator (reputation loss = its cost)."""

    kind: Literal["remove_card"] = "remove_card"
    card_id: int
    died: bool = False


ACTION_CLASSES = (
    Advance, AddObjective, DiscardObjective, RefreshChallenges, TakeNuyen, RollLuck, GetPaid,
    SecondaryIncome, Payroll, ChargeInterest, RollPaymentDue, PayInterest, RefusePayment, Deploy,
    Spend, RunErrand, TakeSix, RollTwo, SellCards, PayOff, Heal, StartRun, DrawEvent, Pump,
    PickRandom, TrashChallenge, StartDamage, TakeHit, CompleteObjective, EndRun, CheckVictory,
    Adjust, SetTurned, RemoveCard,
)
Action = Annotated[Union[ACTION_CLASSES], Field(discriminator="kind")]  # type: ignore[valid-type]
ACTION_OF: dict[str, type[Model]] = {cls.model_fields["kind"].default: cls for cls in ACTION_CLASSES}

# --- Which actions each phase offers -------------------------------------------------------------------

PHASE_ACTIONS: dict[str, tuple[str, ...]] = {
    "setup": ("add_objective",),
    "objective": ("add_objective", "refresh_challenges"),
    "refresh": ("take_nuyen",),
    "paid": ("get_paid",),
    "income": ("secondary_income",),
    "payroll": ("payroll",),
    "interest": ("charge_interest",),
    "payment": ("roll_payment_due", "pay_interest", "refuse_payment"),
    "legwork": ("deploy", "spend", "run_errand", "sell_cards", "pay_off", "heal"),
    "shadowrun": (
        "start_run", "draw_event", "pump", "trash_challenge", "start_damage", "complete_objective",
        "end_run", "spend",
    ),
    "victory": ("check_victory",),
    "end": (),
    "over": (),
}
# Card effects can strike at any time: these stay available in every phase of a running game.
ANYTIME = ("advance", "roll_luck", "pick_random", "adjust", "set_turned", "remove_card", "discard_objective")
ALL_KINDS: tuple[str, ...] = tuple(
    dict.fromkeys(k for kinds in PHASE_ACTIONS.values() for k in kinds)
) + ANYTIME + ("take_six", "roll_two", "take_hit")


def _card(state: State, card_id: int) -> Card:
    for card in state.cards:
        if card.id == card_id:
            return card
    raise RuleError(f"No card #{card_id} is in play.")


def _objective(state: State, objective_id: int) -> Objective:
    for objective in state.objectives:
        if objective.id == objective_id:
            return objective
    raise RuleError(f"No objective #{objective_id} is in play.")


def _runners(state: State) -> list[Card]:
    return [c for c in state.cards if c.card_type == "runner"]


def _living_team(state: State) -> list[Card]:
    if state.run is None:
        return []
    return [c for c in state.cards if c.id in state.run.team]


def missing_ranges(state: State) -> list[str]:
    """The setup ranges of objective value still without an objective."""
    have = {objective_range(o.rep) for o in state.objectives}
    return [r for r in OBJECTIVE_RANGES if r not in have]


def why_not(state: State, kind: str) -> Optional[str]:
    """None if an action of this kind is allowed now, else the reason it is not."""
    if kind not in ALL_KINDS:
        return f"Unknown action {kind!r}."
    if state.phase == "over":
        return f"The game is over ({state.result})."
    # A pending choice must be settled before anything else happens.
    if state.pending_errand is not None:
        if kind in ("take_six", "roll_two"):
            return None
        return "The errand rolled a 6: first choose to take 6 or roll two more dice."
    if kind in ("take_six", "roll_two"):
        return "No errand is waiting on a 6."
    if state.damage is not None:
        if kind == "take_hit":
            return None
        return f"{state.damage.left} damage is still to be allocated: pick who takes the next hit."
    if kind == "take_hit":
        return "There is no damage to allocate."
    if state.phase == "payment" and state.payment_due and not state.step_done:
        if kind in ("pay_interest", "refuse_payment"):
            return None
        return "The interest payment is due: pay it or refuse (and lose that much reputation)."
    if kind not in PHASE_ACTIONS[state.phase] and kind not in ANYTIME:
        homes = [PHASE_TITLES[p] for p, kinds in PHASE_ACTIONS.items() if kind in kinds]
        return f"Not in {PHASE_TITLES[state.phase]}: that belongs to {' / '.join(homes)}."
    return _why_not_now(state, kind)


def _why_not_now(state: State, kind: str) -> Optional[str]:
    """The conditions within the phase (the phase itself is already right)."""
    done = state.step_done
    if kind == "advance":
        return _why_not_advance(state)
    if kind == "add_objective":
        if len(state.objectives) >= OBJECTIVES_IN_PLAY:
            return "Three objectives are already in play."
        if state.phase == "objective" and done:
            return "New objectives come before the challenges are refreshed (1a before 1b)."
        return None
    if kind in ("refresh_challenges", "get_paid", "payroll", "charge_interest", "check_victory"):
        return "Already done this turn." if done else None
    if kind == "take_nuyen":
        return f"You have taken {HAND_SIZE} Nuyen this phase, a full hand's worth." if state.nuyen_taken >= HAND_SIZE else None
    if kind == "roll_luck":
        return None if state.settings.luck_of_the_draw else "Luck of the Draw is off in this campaign's settings."
    if kind == "roll_payment_due":
        return "The payment roll is made." if state.payment_due is not None else None
    if kind in ("pay_interest", "refuse_payment"):
        if done and state.payment_due:
            return "The payment is settled for this turn."
        return None if state.payment_due else "No payment is due."
    if kind == "run_errand":
        return None if any(not c.turned for c in _runners(state)) else "No unturned runner can run an errand."
    if kind == "heal":
        ok = any(not c.turned and c.damage > 0 for c in state.cards)
        return None if ok else "No unturned card has damage to heal."
    if kind == "pay_off":
        if state.debt == 0:
            return "There is no loan or interest left to pay."
        return None if state.cash > 0 else "You have no cash to pay with."
    if kind == "start_run":
        if state.run_taken:
            return "One Shadowrun per turn: you have already run this turn."
        if not state.objectives:
            return "No objective is in play."
        return None if any(not c.turned for c in _runners(state)) else "No unturned runner can go on a run."
    if kind in ("draw_event", "trash_challenge", "start_damage", "complete_objective", "end_run"):
        if state.run is None:
            return "No Shadowrun is in progress."
        if kind == "draw_event" and state.run.events_drawn >= state.run.events_to_draw:
            return f"All {state.run.events_to_draw} event(s) for this run are drawn."
        if kind == "trash_challenge" and _objective(state, state.run.objective_id).challenges == 0:
            return "No challenge is left under the target objective."
        if kind == "start_damage" and not _living_team(state):
            return "Nobody on the run is left to take damage."
        if kind == "complete_objective":
            # RULES.md §2: taken only once every challenge on it is sleazed, defeated or otherwise done.
            objective = _objective(state, state.run.objective_id)
            if objective.challenges:
                return (f"Beat or sleaze every challenge on {objective.name} first: "
                        f"{objective.challenges} left.")
            if not any(c.card_type == "runner" for c in _living_team(state)):
                return "At least one runner must survive the run to take the objective."
        return None
    if kind in ("set_turned", "remove_card"):
        return None if state.cards else "No tracked card is in play."
    if kind == "discard_objective":
        return None if state.objectives else "No objective is in play."
    return None


def _why_not_advance(state: State) -> Optional[str]:
    phase = state.phase
    if phase == "setup":
        missing = missing_ranges(state)
        return f"Play one objective from each range first; missing: {', '.join(missing)}." if missing else None
    required = {
        "objective": "Refresh the challenges first (1b).",
        "paid": "Collect Mr Johnson's payment first.",
        "payroll": "Pay the payroll first.",
        "interest": "Charge this turn's interest first.",
        "victory": "Check for victory and failure first.",
    }
    if phase in required and not state.step_done:
        return required[phase]
    if phase == "payment" and state.payment_due is None:
        return "Roll to see whether payment is due first."
    if phase == "shadowrun" and state.run is not None:
        return "Finish the Shadowrun first: take the objective or end the run."
    return None


# --- Helpers the UI shows -------------------------------------------------------------------------------


def payroll_bill(state: State) -> list[Card]:
    """The cards that charge upkeep, in play order (what 3c lists)."""
    return [c for c in state.cards if c.upkeep > 0]


def payroll_unpayable(state: State) -> list[int]:
    """Paying upkeep in play order while cash lasts, the cards left over: a choice 3c accepts (each of
    them costs more than the cash left), offered first when cash runs short."""
    left, unpaid = state.cash, []
    for c in payroll_bill(state):
        if c.upkeep <= left:
            left -= c.upkeep
        else:
            unpaid.append(c.id)
    return unpaid


def upkeep_due(state: State) -> int:
    return sum(c.upkeep for c in payroll_bill(state))


def victory_checks(state: State) -> list[tuple[str, bool]]:
    """The three conditions of a win, each in words and whether it holds now."""
    target = state.settings.target_reputation
    return [(f"reputation {state.reputation} of {target}", state.reputation >= target),
            (f"loan {state.loan} left", state.loan == 0), (f"interest {state.interest} owed", state.interest == 0)]


def hit_candidates(state: State) -> list[Card]:
    """Who may take the next hit: those on the run, alive, not yet hit in this pass."""
    if state.damage is None:
        return []
    team = _living_team(state)
    fresh = [c for c in team if c.id not in state.damage.hit_this_pass]
    return fresh or team


def team_candidates(state: State) -> list[Card]:
    """Who may go on a run: unturned runners, spirits and drones."""
    return [c for c in state.cards if not c.turned and c.card_type != "other"]


def run_target(state: State) -> Optional[Objective]:
    return None if state.run is None else _objective(state, state.run.objective_id)


def deck_for(settings: Settings, face: int) -> str:
    return settings.deck_table[face - 1]


def phase_title(phase: str) -> str:
    return PHASE_TITLES[phase]


# How a step works, in the book's words, for the table to read next to its buttons.
HOW: dict[str, str] = {
    "add_objective": "It gets one challenge per 10 reputation, rounded up (25 → 3).",
    "refresh_challenges": "Each objective short of its challenges gets one. Then the difficulty's extra "
    "challenges go one at a time down the objectives by value; equal values go to the one with fewest "
    "challenges, then a die picks among those still tied.",
    "take_nuyen": f"Each Nuyen taken instead of a card counts toward your {HAND_SIZE} this phase.",
    "roll_luck": "Roll 2d6 for each card: each face names a player deck; doubles: any deck.",
    "get_paid": "Mr Johnson pays half the reputation gained from objectives last turn, rounded down.",
    "run_errand": "Turn a runner and roll 1d6: " + " · ".join(o.label for o in ERRAND_OUTCOMES) + ".",
    "roll_two": "Take 6 Nuyen, or roll two more dice and take their total.",
    "pay_interest": "Cards in hand or play may be cashed in at 1 Nuyen each; whatever stays unpaid is lost "
    "as reputation, and stays owed.",
    "start_run": f"Up to {MAX_RUNNERS} unturned runners (spirits and drones don't count). Events to draw: "
    "1 + 1 per full 10 reputation (below 0 counts as 0).",
    "draw_event": "Played if a d6 ≥ its Nuyen cost (cost 0 or 1: always). Stop drawing if a played event "
    "ends the run.",
    "take_hit": "Each hit is one d6 per full 6 of the challenge's damage (at least one). A hit never deals "
    "more than is left, but the character takes all of it; damage ≥ body kills (reputation − its cost).",
    "complete_objective": "Taken once every challenge on it is beaten or sleazed; a failed challenge ends "
    "the run and the objective stays in play.",
    "pick_random": "List the options: a die with one face per option picks one.",
    "check_victory": "Win with reputation ≥ target, no loan and no interest. Below 0 reputation, a d6 ≤ "
    "|reputation| ends the game.",
}


# --- What may be done now --------------------------------------------------------------------------------

LABELS: dict[str, str] = {
    "advance": "Next phase", "add_objective": "Add objective", "discard_objective": "Discard an objective",
    "refresh_challenges": "Refresh the challenges (1b)", "take_nuyen": "Take Nuyen instead of cards",
    "roll_luck": "Roll Luck of the Draw (2d6)", "get_paid": "Collect Mr Johnson's payment",
    "secondary_income": "Add secondary income", "payroll": "Pay the payroll", "charge_interest": "Charge interest",
    "roll_payment_due": "Roll: is payment due? (d6)", "pay_interest": "Pay the interest",
    "refuse_payment": "Refuse the payment", "deploy": "Deploy (pay its cost)", "spend": "Buy",
    "run_errand": "Run an errand", "take_six": "Take 6", "roll_two": "Roll two more (2d6)",
    "sell_cards": "Sell (+1 each)", "pay_off": "Pay off", "heal": "Heal", "start_run": "Start the Shadowrun",
    "draw_event": "Roll for the event", "pump": "Pump a cost (d6)", "pick_random": "Pick one at random",
    "trash_challenge": "Challenge beaten / sleazed", "start_damage": "Allocate this damage",
    "take_hit": "Take the hit", "complete_objective": "Take the objective", "end_run": "End the run without it",
    "check_victory": "Check victory", "adjust": "Apply the card effect", "set_turned": "Turn or untap a card",
    "remove_card": "Trash a card",
}


def field_ranges(state: State, kind: str) -> dict[str, tuple[int, int]]:
    """The state's bounds on an action's numbers: `moves` offers them and the handler checks them."""
    if kind == "take_nuyen":
        return {"count": (1, HAND_SIZE - state.nuyen_taken)}
    if kind == "pay_interest":
        return {"cash_in": (0, max(0, state.interest - state.cash))}
    if kind == "pay_off":
        return {"loan": (0, state.loan), "interest": (0, state.interest)}
    return {}


def _check_ranges(state: State, action: Any) -> None:
    for name, (low, high) in field_ranges(state, action.kind).items():
        label = type(action).model_fields[name].description or name
        require_range(label, getattr(action, name), low, high)


TEMPLATES = ("add_objective", "take_nuyen", "secondary_income", "payroll", "pay_interest", "deploy", "spend",
             "sell_cards", "pay_off", "start_run", "draw_event", "pick_random", "start_damage", "adjust")


def _fields(s: State, kind: str) -> tuple[FieldSpec, ...]:
    """A template's fields: ranges from the action model narrowed by the state, and the choices now."""
    choices: dict[str, Any] = {}
    if kind == "payroll":
        choices["unpaid"] = [c.id for c in payroll_bill(s)]
    elif kind == "pay_interest":
        choices["cash_in_ids"] = [c.id for c in s.cards]
    elif kind == "deploy":
        choices["card_type"] = [t for t in typing.get_args(CardType) if t != "runner" or len(_runners(s)) < MAX_RUNNERS]
    elif kind == "spend":
        chipjack = s.settings.chipjacks and s.chipjacks_bought < s.skillsofts_bought
        choices["item"] = [i for i in typing.get_args(SpendItem) if i != "chipjack" or chipjack]
    elif kind == "start_run":
        choices.update(objective_id=[o.id for o in s.objectives], team=[c.id for c in team_candidates(s)])
    elif kind == "start_damage":
        choices["armor_piercing"] = [False, True]
    elif kind == "adjust":
        choices["account"] = list(ACCOUNTS)
    return field_specs(ACTION_OF[kind], **field_ranges(s, kind), **choices)


def _ready(kind: str, action: Any, label: str = "") -> Move:
    return Move(kind=kind, label=label or LABELS[kind], action=action)


SIMPLE: dict[str, Callable[[], Any]] = {
    "advance": Advance, "refresh_challenges": RefreshChallenges, "roll_luck": RollLuck, "get_paid": GetPaid,
    "charge_interest": ChargeInterest, "roll_payment_due": RollPaymentDue, "refuse_payment": RefusePayment,
    "take_six": TakeSix, "roll_two": RollTwo, "pump": Pump, "trash_challenge": TrashChallenge,
    "complete_objective": CompleteObjective, "end_run": EndRun, "check_victory": CheckVictory,
}


def _ready_moves(s: State, kind: str) -> list[Move]:
    """The ready actions of a kind `why_not` allows now (besides its template, if it has one)."""
    if kind in SIMPLE:
        return [_ready(kind, SIMPLE[kind]())]
    if kind == "take_nuyen":
        return [_ready(kind, TakeNuyen(count=1), "Take 1 Nuyen instead of a card")]
    if kind == "payroll":
        unpaid = payroll_unpayable(s)
        label = LABELS[kind] + (", trashing what cash can't cover" if unpaid else "")
        return [_ready(kind, Payroll(unpaid=unpaid), label)]
    if kind == "pay_interest":
        return [_ready(kind, PayInterest(), LABELS[kind] if s.cash >= s.interest else "Pay what cash covers")]
    if kind == "run_errand":
        return [_ready(kind, RunErrand(card_id=c.id), f"Errand: {c.name}") for c in _runners(s) if not c.turned]
    if kind == "heal":
        return [_ready(kind, Heal(card_id=c.id), f"Heal {c.name} ({c.damage} damage)")
                for c in s.cards if c.damage > 0 and not c.turned]
    if kind == "take_hit":
        ap = s.damage is not None and s.damage.armor_piercing
        return [_ready(kind, TakeHit(card_id=c.id), f"Hit {c.name} ({c.damage}/{c.body}"
                       + (f", armor {c.armor})" if c.armor and not ap else ")")) for c in hit_candidates(s)]
    if kind == "set_turned":
        return [_ready(kind, SetTurned(card_id=c.id, turned=not c.turned),
                       f"{'Untap' if c.turned else 'Turn'} {c.name}") for c in s.cards]
    if kind == "remove_card":
        return [m for c in s.cards for m in (
            _ready(kind, RemoveCard(card_id=c.id), f"Trash {c.name}"),
            _ready(kind, RemoveCard(card_id=c.id, died=True), f"{c.name} died (reputation −{c.cost})"))]
    if kind == "discard_objective":
        return [_ready(kind, DiscardObjective(objective_id=o.id), f"Discard {o.name}")
                for o in s.objectives if o is not run_target(s)]
    return []


def moves(state: State) -> list[Move]:
    """Everything the table may do now (ready actions, and templates for what it types), and each
    thing it may not, greyed with the reason."""
    out: list[Move] = []
    for kind in ALL_KINDS:
        reason = why_not(state, kind)
        ready = _ready_moves(state, kind) if reason is None else []
        if kind == "discard_objective" and reason is None and not ready:
            reason = "That objective is the target of the run in progress."
        fields = _fields(state, kind) if kind in TEMPLATES else ()
        if reason is not None:
            out.append(Move(kind=kind, label=LABELS[kind], fields=fields, why_not=reason))
            continue
        out += ready + ([Move(kind=kind, label=LABELS[kind], fields=fields)] if fields else [])
    return out


def legal_actions(state: State) -> list[str]:
    """The kinds of move open now."""
    return list(dict.fromkeys(m.kind for m in moves(state) if m.why_not is None))


# --- Input checks ---------------------------------------------------------------------------------------


def _name(value: str, what: str) -> str:
    cleaned = value.strip()
    if not 1 <= len(cleaned) <= 40:
        raise InputError(f"{what} must be 1 to 40 characters (got {len(cleaned)}).")
    return cleaned


def _ids(values: list[int], what: str) -> list[int]:
    if len(set(values)) != len(values):
        raise InputError(f"{what} names a card twice.")
    return values


# --- Handlers: one per action, each changing the copied state and saying what happened ----------------
# Every event has a kind and the data a view or a recap needs; the sentence is for people.

Events = Journal  # a list of Event; `post` hands it each ledger line, which rides on the next event


def _advance(s: State, a: Advance, dice: Dice, ev: Events) -> None:
    leaving = s.phase
    s.phase = NEXT_PHASE[leaving]  # type: ignore[assignment]
    s.step_done = False
    s.payment_due = None
    new_turn = leaving in ("setup", "end")
    if new_turn:
        s.turn += 1
        s.rep_from_objectives_last_turn = s.rep_from_objectives_this_turn if leaving == "end" else 0
        s.rep_from_objectives_this_turn = 0
        s.run_taken = False
    text = f"Turn {s.turn} begins: {PHASE_TITLES[s.phase]}." if new_turn else f"Turn {s.turn}: {PHASE_TITLES[s.phase]}."
    ev.append(event("phase", text, turn=s.turn, phase=s.phase, new_turn=new_turn))
    if s.phase == "refresh":
        s.nuyen_taken = 0
        untapped = [c for c in s.cards if c.turned]
        for c in s.cards:
            c.turned = False
        names = [c.name for c in untapped]
        ev.append(event("untapped", f"Untapped {', '.join(names)}." if names else "Nothing to untap.",
                        card_ids=[c.id for c in untapped], names=names))
    if s.phase == "legwork":
        s.skillsofts_bought = s.chipjacks_bought = 0


def _add_objective(s: State, a: AddObjective, dice: Dice, ev: Events) -> None:
    name = _name(a.name, "An objective's name")
    band = objective_range(a.rep)
    if s.phase == "setup" and band not in missing_ranges(s):
        raise RuleError(f"Setup already has an objective worth {band}: discard this one and draw again.")
    count = challenges_for(a.rep)
    s.objectives.append(Objective(id=s.next_id, name=name, rep=a.rep, challenges=count))
    s.next_id += 1
    ev.append(event("objective_added", f"Objective {name} ({a.rep} rep): place {count} challenge(s) under it, "
                    f"face down (one per 10 rep, rounded up).",
                    objective_id=s.next_id - 1, name=name, rep=a.rep, challenges=count))


def _discard_objective(s: State, a: DiscardObjective, dice: Dice, ev: Events) -> None:
    objective = _objective(s, a.objective_id)
    if objective is run_target(s):
        raise RuleError("That objective is the target of the run in progress.")
    s.objectives.remove(objective)
    ev.append(event("objective_discarded", f"Objective {objective.name} discarded with its {objective.challenges} "
                    f"challenge(s).", objective_id=objective.id, name=objective.name, challenges=objective.challenges))


def _topped_up(o: Objective) -> bool:
    return o.challenges < challenges_for(o.rep)


def _names(names: list[str]) -> str:
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


def _extra_order(objectives: list[Objective], extras: int, dice: Dice) -> list[tuple[Objective, str]]:
    """Where the difficulty's extra challenges go, in order: highest value first; equal values: fewest
    challenges first, then a die with one face per still-tied objective."""
    order: list[tuple[Objective, str]] = []
    remaining = list(objectives)
    while len(order) < min(extras, len(objectives)):
        top = min(remaining, key=lambda o: (-o.rep, o.challenges))
        same_rep = [o for o in remaining if o.rep == top.rep and o is not top]
        tied = [o for o in remaining if (o.rep, o.challenges) == (top.rep, top.challenges)]
        if len(tied) > 1:
            names = [o.name for o in tied]
            die = pick_die(names)
            face = throw_one(dice, f"the tie for extra challenge {len(order) + 1} among {_names(names)}", die=die,
                             outcomes=pick_outcomes(die))
            top = tied[face - 1]
            others = ", ".join(o.name for o in tied if o is not top)
            why = (f"tied with {others} on {top.rep} rep and {top.challenges} challenge(s): the tie-break die "
                   f"picked it")
        elif same_rep:
            why = f"same {top.rep} rep as {', '.join(o.name for o in same_rep)} but fewest challenges ({top.challenges})"
        else:
            why = "highest value left" if order else "highest value"
        order.append((top, why))
        remaining.remove(top)
    return order


def _refresh_challenges(s: State, a: RefreshChallenges, dice: Dice, ev: Events) -> None:
    s.step_done = True
    for o in s.objectives:  # top up: one per objective short of its full complement
        if _topped_up(o):
            o.challenges += 1
            ev.append(event("challenge_topped_up", f"{o.name} is short of its {challenges_for(o.rep)} challenges: "
                            f"add 1 (now {o.challenges}).", objective_id=o.id, name=o.name, challenges=o.challenges))
    difficulty = s.settings.difficulty
    extras = EXTRA_CHALLENGES[difficulty]
    if extras == 0 or not s.objectives:
        ev.append(event("no_extra_challenges", f"{difficulty.capitalize()}: no extra challenges.",
                        difficulty=difficulty))
        return
    # Going down the objectives by value; equal values: fewest challenges first, then a die.
    order = _extra_order(s.objectives, extras, dice)
    for k in range(extras):
        target, why = order[k % len(order)]
        target.challenges += 1
        ev.append(event("extra_challenge", f"Extra challenge {k + 1} of {extras} ({difficulty}) → {target.name} "
                        f"({target.rep} rep, {why}); now {target.challenges}.",
                        number=k + 1, extras=extras, objective_id=target.id, name=target.name,
                        challenges=target.challenges, reason=why))


def _take_nuyen(s: State, a: TakeNuyen, dice: Dice, ev: Events) -> None:
    s.nuyen_taken += a.count
    post(s, ev, "cash", a.count, f"Refresh: {a.count} Nuyen taken instead of drawing")
    ev.append(event("nuyen_taken", f"Took {a.count} Nuyen instead of drawing (counts toward your {HAND_SIZE} this "
                    f"phase): cash {s.cash}.", count=a.count, cash=s.cash))


def _roll_luck(s: State, a: RollLuck, dice: Dice, ev: Events) -> None:
    first, second = throw(dice, 2, "Luck of the Draw", outcomes=LUCK_OUTCOMES)
    decks = [deck_for(s.settings, first), deck_for(s.settings, second)]
    if first == second:
        text = f"Luck of the Draw: {first} and {second}, doubles: draw from any deck you choose."
    else:
        text = f"Luck of the Draw: {first} and {second}: draw from {decks[0]} or {decks[1]}."
    ev.append(event("luck_of_the_draw", text, faces=[first, second], doubles=first == second,
                    decks=[] if first == second else decks))


def _get_paid(s: State, a: GetPaid, dice: Dice, ev: Events) -> None:
    s.step_done = True
    gained = s.rep_from_objectives_last_turn
    pay = johnson_pay(gained)
    if pay == 0:
        ev.append(event("paid", f"Getting paid: nothing ({gained} reputation from objectives last turn ÷ 2).",
                        gained=gained, pay=0, cash=s.cash))
        return
    post(s, ev, "cash", pay, f"Paid by Mr Johnson: {gained} rep from objectives ÷ 2")
    ev.append(event("paid", f"Getting paid: +{pay} cash ({gained} reputation from objectives last turn ÷ 2, "
                    f"rounded down): cash {s.cash}.", gained=gained, pay=pay, cash=s.cash))


def _secondary_income(s: State, a: SecondaryIncome, dice: Dice, ev: Events) -> None:
    source = a.source.strip()[:40] or "cards in play"
    post(s, ev, "cash", a.amount, f"Secondary income: {source}")
    ev.append(event("income", f"Secondary income from {source}: +{a.amount} cash: cash {s.cash}.",
                    amount=a.amount, source=source, cash=s.cash))


def _payroll(s: State, a: Payroll, dice: Dice, ev: Events) -> None:
    bill = payroll_bill(s)
    unpaid_ids = _ids(a.unpaid, "The unpaid list")
    for cid in unpaid_ids:
        if _card(s, cid).upkeep == 0:
            raise RuleError(f"{_card(s, cid).name} has no upkeep to leave unpaid.")
    paid = [c for c in bill if c.id not in unpaid_ids]
    unpaid = [c for c in bill if c.id in unpaid_ids]
    total = sum(c.upkeep for c in paid)
    if total > s.cash:
        listing = ", ".join(f"{c.name} ({c.upkeep})" for c in paid)
        raise RuleError(f"Cash {s.cash} can't cover upkeep {total}. Choose which cards go unpaid "
                        f"(they are trashed): {listing}.")
    left = s.cash - total
    for c in unpaid:  # only cards you cannot pay are trashed
        if c.upkeep <= left:
            raise RuleError(f"You can still pay {c.name}'s upkeep {c.upkeep} from the {left} cash left; "
                            f"only cards you can't pay are trashed.")
    s.step_done = True
    if not bill:
        ev.append(event("payroll", "Payroll: no card in play charges upkeep.", total=0, paid=[], cash=s.cash))
        return
    for c in paid:
        post(s, ev, "cash", -c.upkeep, f"Upkeep: {c.name}")
    if paid:
        ev.append(event("payroll", f"Payroll: paid {total} upkeep ({', '.join(f'{c.name} {c.upkeep}' for c in paid)}): "
                        f"cash {s.cash}.", total=total, paid=[c.id for c in paid], cash=s.cash))
    for c in unpaid:
        s.cards.remove(c)
        ev.append(event("unpaid_trashed", f"{c.name} unpaid (upkeep {c.upkeep}, cash {s.cash}): trashed.",
                        card_id=c.id, name=c.name, upkeep=c.upkeep))


def _charge_interest(s: State, a: ChargeInterest, dice: Dice, ev: Events) -> None:
    s.step_done = True
    debt = s.debt
    rate = interest_rate(s.reputation)
    why_rate = (f"rate {rate}% = 1% per reputation point" if s.reputation > 10 else
                f"rate 10%, the minimum, as reputation is {s.reputation}")
    charge = interest_charge(rate, debt)
    if charge == 0:
        ev.append(event("interest", "No debt left: no interest this turn.", rate=rate, debt=debt, charge=0,
                        sums="", interest=s.interest))
        return
    sums = interest_sums(rate, debt)
    post(s, ev, "interest", charge, f"Interest: {sums}")
    ev.append(event("interest", f"Interest +{charge}: {sums} ({why_rate}). Interest owed {s.interest}; "
                    f"total debt {s.debt}.", rate=rate, debt=debt, charge=charge, sums=sums, interest=s.interest))


def _roll_payment_due(s: State, a: RollPaymentDue, dice: Dice, ev: Events) -> None:
    debt = s.debt
    faces = payment_due_faces(debt)
    outcomes = payment_due_outcomes(debt)
    face: Optional[int] = None
    if faces == 6:
        s.payment_due = True
        text = f"Payment due: total debt {debt} is 40 or more, so payment is always due."
    else:
        face = throw_one(dice, f"the payment-due roll (total debt {debt})", outcomes=outcomes)
        s.payment_due = face <= faces
        text = (f"Payment due? Total debt {debt} ({debt // 10 * 10}–{debt // 10 * 10 + 9}): {outcomes[0].label}. "
                f"Rolled {face}: " + ("due." if s.payment_due else "not due."))
    ev.append(event("payment_roll", text, debt=debt, due_on=faces, face=face, due=s.payment_due))
    if not s.payment_due:
        s.step_done = True
    elif s.interest == 0:
        s.step_done = True
        ev.append(event("nothing_owed", "No interest is owed, so there is nothing to pay."))
    else:
        ev.append(event("payment_wanted", f"Pay the {s.interest} interest now, or lose reputation for what you "
                        f"don't pay.", interest=s.interest))


def _pay_interest(s: State, a: PayInterest, dice: Dice, ev: Events) -> None:
    need = max(0, s.interest - s.cash)
    ids = _ids(a.cash_in_ids, "The cashed-in cards")
    cards = [_card(s, cid) for cid in ids]
    if a.cash_in + len(cards) > need:
        raise RuleError(f"Only {need} more Nuyen is needed: cash in at most {need} card(s).")
    cashed = a.cash_in + len(cards)
    if cashed:
        names = [c.name for c in cards] + ([f"{a.cash_in} card(s)"] if a.cash_in else [])
        post(s, ev, "cash", cashed, f"Cashed in {', '.join(names)} at 1 Nuyen each")
        for c in cards:
            s.cards.remove(c)
        ev.append(event("cashed_in", f"Cashed in {', '.join(names)}: +{cashed} cash.", amount=cashed,
                        card_ids=ids, cards_from_hand=a.cash_in))
    owed = s.interest
    paid = min(owed, s.cash)
    post(s, ev, "cash", -paid, "Interest paid to the loan shark")
    post(s, ev, "interest", -paid, "Interest paid")
    short = owed - paid
    s.step_done = True
    if short:
        post(s, ev, "reputation", -short, f"Interest payment {short} short (still owed)")
        text = (f"Paid {paid} of {owed} interest; {short} short: reputation −{short} (now {s.reputation}), "
                f"and the {short} stays owed.")
    else:
        text = f"Paid all {paid} interest: cash {s.cash}, interest 0."
    ev.append(event("interest_paid", text, paid=paid, owed=owed, short=short, cash=s.cash, reputation=s.reputation))


def _refuse_payment(s: State, a: RefusePayment, dice: Dice, ev: Events) -> None:
    owed = s.interest
    s.step_done = True
    post(s, ev, "reputation", -owed, f"Refused to pay {owed} interest (still owed)")
    ev.append(event("payment_refused", f"Refused to pay {owed} interest: reputation −{owed} (now {s.reputation}); "
                    f"the {owed} stays owed and keeps compounding.", owed=owed, reputation=s.reputation))


def _deploy(s: State, a: Deploy, dice: Dice, ev: Events) -> None:
    name = _name(a.name, "A card's name")
    if a.card_type != "other":
        require_range("Body", a.body, 1, 30)  # a runner, spirit or drone has a body
    if a.card_type == "runner" and len(_runners(s)) >= MAX_RUNNERS:
        raise RuleError(f"At most {MAX_RUNNERS} runners may be in play.")
    if a.cost > s.cash:
        raise RuleError(f"{name} costs {a.cost} but you have {s.cash} cash.")
    post(s, ev, "cash", -a.cost, f"Deployed {name}")
    s.cards.append(Card(id=s.next_id, name=name, card_type=a.card_type, cost=a.cost, upkeep=a.upkeep,
                        body=a.body, armor=a.armor))
    s.next_id += 1
    ev.append(event("deployed", f"Deployed {name} ({a.card_type}) for {a.cost}: cash {s.cash}.",
                    card_id=s.next_id - 1, name=name, card_type=a.card_type, cost=a.cost, cash=s.cash))


def _spend(s: State, a: Spend, dice: Dice, ev: Events) -> None:
    if a.item == "chipjack":
        if not s.settings.chipjacks:
            raise RuleError("The Chipjacks optional rule is off in this campaign's settings.")
        if s.chipjacks_bought >= s.skillsofts_bought:
            raise RuleError("A chipjack is bought together with a Skillsoft played this Legwork phase.")
    if a.amount > s.cash:
        raise RuleError(f"That costs {a.amount} but you have {s.cash} cash.")
    what = a.what.strip()[:40] or a.item
    post(s, ev, "cash", -a.amount, f"Bought {what}")
    if a.item == "skillsoft":
        s.skillsofts_bought += 1
    if a.item == "chipjack":
        s.chipjacks_bought += 1
    ev.append(event("spent", f"Paid {a.amount} for {what}: cash {s.cash}.", amount=a.amount, item=a.item,
                    what=what, cash=s.cash))


def _run_errand(s: State, a: RunErrand, dice: Dice, ev: Events) -> None:
    card = _card(s, a.card_id)
    if card.card_type != "runner":
        raise RuleError(f"{card.name} is not a runner; only runners run errands.")
    if card.turned:
        raise RuleError(f"{card.name} is turned; only an unturned runner can run an errand.")
    card.turned = True
    face = throw_one(dice, f"{card.name}'s errand", outcomes=ERRAND_OUTCOMES)
    earned = 0 if face == 1 else face if face < 6 else None  # None: the choice on a 6 is still to make
    if face == 1:
        text = f"{card.name} runs an errand: rolled 1, nothing earned."
    elif face < 6:
        post(s, ev, "cash", face, f"Errand by {card.name}: rolled {face}")
        text = f"{card.name} runs an errand: rolled {face}, +{face} cash: cash {s.cash}."
    else:
        s.pending_errand = card.id
        text = f"{card.name} runs an errand: rolled 6! Take 6 Nuyen, or roll two more dice and take their total."
    ev.append(event("errand", text, card_id=card.id, name=card.name, face=face, earned=earned, cash=s.cash))


def _take_six(s: State, a: TakeSix, dice: Dice, ev: Events) -> None:
    card = _card(s, s.pending_errand)  # type: ignore[arg-type]
    s.pending_errand = None
    post(s, ev, "cash", 6, f"Errand by {card.name}: took the 6")
    ev.append(event("errand_six", f"{card.name} takes the 6: +6 cash: cash {s.cash}.", card_id=card.id,
                    name=card.name, choice="take_six", faces=[], earned=6, cash=s.cash))


def _roll_two(s: State, a: RollTwo, dice: Dice, ev: Events) -> None:
    card = _card(s, s.pending_errand)  # type: ignore[arg-type]
    faces = throw(dice, 2, f"{card.name}'s errand: two more dice after the 6", outcomes=TWO_MORE_OUTCOMES)
    s.pending_errand = None
    total = sum(faces)
    post(s, ev, "cash", total, f"Errand by {card.name}: rolled 6, then {faces[0]} + {faces[1]}")
    ev.append(event("errand_six", f"{card.name} rolls two more: {faces[0]} + {faces[1]} = {total}: +{total} cash: "
                    f"cash {s.cash}.", card_id=card.id, name=card.name, choice="roll_two", faces=faces,
                    earned=total, cash=s.cash))


def _sell_cards(s: State, a: SellCards, dice: Dice, ev: Events) -> None:
    post(s, ev, "cash", a.count, f"Sold {a.count} card(s) at 1 Nuyen each")
    ev.append(event("cards_sold", f"Sold {a.count} card(s) at 1 Nuyen each: +{a.count} cash: cash {s.cash}.",
                    count=a.count, cash=s.cash))


def _pay_off(s: State, a: PayOff, dice: Dice, ev: Events) -> None:
    total = a.loan + a.interest
    if total == 0:
        raise InputError("Pay at least 1 Nuyen off the loan or the interest.")
    if total > s.cash:
        raise RuleError(f"Paying {total} needs {total} cash; you have {s.cash}.")
    post(s, ev, "cash", -total, "Paid off debt")
    post(s, ev, "loan", -a.loan, "Paid off loan")
    post(s, ev, "interest", -a.interest, "Paid off interest")
    parts = [f"{a.loan} off the loan" if a.loan else "", f"{a.interest} off the interest" if a.interest else ""]
    ev.append(event("paid_off", f"Paid {' and '.join(p for p in parts if p)}: cash {s.cash}, loan {s.loan}, "
                    f"interest {s.interest}, total debt {s.debt}.", loan=a.loan, interest=a.interest, cash=s.cash,
                    loan_left=s.loan, interest_left=s.interest, debt=s.debt))


def _heal(s: State, a: Heal, dice: Dice, ev: Events) -> None:
    card = _card(s, a.card_id)
    if card.turned:
        raise RuleError(f"{card.name} is turned; healing turns an unturned card.")
    if card.damage == 0:
        raise RuleError(f"{card.name} has no damage to heal.")
    healed, card.damage, card.turned = card.damage, 0, True
    ev.append(event("healed", f"{card.name} turns to heal: all {healed} damage removed.", card_id=card.id,
                    name=card.name, healed=healed))


def _start_run(s: State, a: StartRun, dice: Dice, ev: Events) -> None:
    objective = _objective(s, a.objective_id)
    team = [_card(s, cid) for cid in _ids(a.team, "The team")]
    runners = [c for c in team if c.card_type == "runner"]
    if not runners:
        raise RuleError("Pick at least one runner for the team.")
    if len(runners) > MAX_RUNNERS:
        raise RuleError(f"At most {MAX_RUNNERS} runners go on a run (spirits and drones don't count); you picked {len(runners)}.")
    for c in team:
        if c.card_type == "other":
            raise RuleError(f"{c.name} is not a runner, spirit or drone.")
        if c.turned:
            raise RuleError(f"{c.name} is turned; only unturned cards go on a run.")
        c.turned = True
    draws = event_draws(s.reputation)
    s.run = Run(objective_id=objective.id, team=[c.id for c in team], events_to_draw=draws)
    s.run_taken = True
    rep_note = f"reputation {s.reputation}" + (" counts as 0" if s.reputation < 0 else "")
    ev.append(event("run_started", f"Shadowrun on {objective.name} ({objective.rep} rep, {objective.challenges} "
                    f"challenge(s)) with {', '.join(c.name for c in team)}.", objective_id=objective.id,
                    name=objective.name, team=[c.id for c in team], challenges=objective.challenges))
    ev.append(event("event_draws", f"Draw {draws} event card(s): 1 + 1 per full 10 reputation ({rep_note}).",
                    draws=draws, reputation=s.reputation))


def _draw_event(s: State, a: DrawEvent, dice: Dice, ev: Events) -> None:
    run = s.run
    assert run is not None
    number = run.events_drawn + 1
    label = f"Event {number} of {run.events_to_draw} (cost {a.cost})"
    outcomes = event_outcomes(a.cost)
    face: Optional[int] = None
    if len(outcomes) == 1:  # a cost of 0 or 1, or above 6: no die can change it
        played = a.cost <= 1
        text = f"{label}: {outcomes[0].label}."
    else:
        face = throw_one(dice, f"event {number} of {run.events_to_draw} (cost {a.cost})", outcomes=outcomes)
        played = face >= a.cost
        text = f"{label}: rolled {face}, " + (f"≥ {a.cost}: played." if played else f"below {a.cost}: not played.")
    run.events_drawn = number
    ev.append(event("event_drawn", text, number=number, of=run.events_to_draw, cost=a.cost, face=face, played=played))


def _pump(s: State, a: Pump, dice: Dice, ev: Events) -> None:
    # Decision: "on a 6 roll again and add" is read literally: one extra die, not an open-ended chain.
    # The second die is a roll of its own: a table rolling physical dice is asked for it after the 6.
    first = throw_one(dice, "the pumped cost", outcomes=PUMP_OUTCOMES)
    if first < 6:
        ev.append(event("pumped", f"Pumped: rolled {first}: {first} Nuyen.", faces=[first], total=first))
        return
    second = throw_one(dice, "the pumped cost: the die after the 6", outcomes=PUMP_AGAIN_OUTCOMES)
    ev.append(event("pumped", f"Pumped: rolled 6, rolled again {second}: {6 + second} Nuyen.",
                    faces=[first, second], total=6 + second))


def _pick_random(s: State, a: PickRandom, dice: Dice, ev: Events) -> None:
    options = [_name(o, "An option") for o in a.options]
    require_range("Number of options", len(options), 1, 20)
    if len(options) == 1:
        ev.append(event("random_pick", f"Random target: {options[0]} is the only option.", options=options,
                        face=None, picked=options[0]))
        return
    die = pick_die(options)
    face = throw_one(dice, f"a random target among {_names(options)}", die=die, outcomes=pick_outcomes(die))
    ev.append(event("random_pick", f"Random target among {', '.join(options)}: {options[face - 1]}.",
                    options=options, face=face, picked=options[face - 1]))


def _trash_challenge(s: State, a: TrashChallenge, dice: Dice, ev: Events) -> None:
    objective = run_target(s)
    assert objective is not None
    objective.challenges -= 1
    ev.append(event("challenge_trashed", f"Challenge trashed from {objective.name}: {objective.challenges} left.",
                    objective_id=objective.id, name=objective.name, left=objective.challenges))


def _start_damage(s: State, a: StartDamage, dice: Dice, ev: Events) -> None:
    n = hit_dice(a.amount)
    s.damage = Damage(total=a.amount, left=a.amount, dice=n, armor_piercing=a.armor_piercing)
    ap = " armor-piercing" if a.armor_piercing else ""
    ev.append(event("damage_started", f"{a.amount}{ap} damage to allocate: each hit is {n}d6 (one die per full 6 of "
                    f"damage, at least one). Pick who takes the first hit.", amount=a.amount,
                    armor_piercing=a.armor_piercing, dice=n))


def _take_hit(s: State, a: TakeHit, dice: Dice, ev: Events) -> None:
    dmg = s.damage
    assert dmg is not None
    card = _card(s, a.card_id)
    candidates = hit_candidates(s)
    if card not in candidates:
        names = ", ".join(c.name for c in candidates)
        raise RuleError(f"{card.name} can't take this hit; choose one of: {names} (each takes a hit per pass).")
    faces = throw(dice, dmg.dice, f"the hit on {card.name} ({dmg.left} damage left)", outcomes=hit_outcomes(dmg, card))
    if all(c.id in dmg.hit_this_pass for c in _living_team(s)):
        dmg.hit_this_pass = []  # everyone left has taken a hit and damage remains: a new pass
    rolled = sum(faces)
    hit = min(rolled, dmg.left)  # a hit never deals more than the damage left…
    dmg.left -= hit
    # Decision: armor reduces what the character takes, not what the hit uses up (else an armored
    # character could absorb hits forever).
    armor = 0 if dmg.armor_piercing else card.armor
    taken = max(0, hit - armor)
    card.damage += taken  # …but the character takes the whole hit, even beyond its body
    dmg.hit_this_pass.append(card.id)
    sums = f"rolled {fmt_dice(faces)}" + (f" = {rolled}" if len(faces) > 1 else "")
    capped = f", only {hit} left to deal" if hit < rolled else ""
    armored = f", armor {armor} stops {min(armor, hit)}" if armor else ""
    ev.append(event("hit", f"{card.name} takes the hit: {sums}{capped}{armored}: {taken} damage (now {card.damage} "
                    f"of body {card.body}).", card_id=card.id, name=card.name, faces=faces, hit=hit, armor=armor,
                    taken=taken, damage=card.damage, body=card.body, left=dmg.left))
    if card.damage >= card.body:
        _dies(s, card, ev, f"{card.damage} damage ≥ body {card.body}")
    if dmg.left == 0:
        s.damage = None
        ev.append(event("damage_done", "All the damage is allocated.", lost=0))
    elif not _living_team(s):
        s.damage = None
        ev.append(event("damage_done", f"Nobody on the run is left; the last {dmg.left} damage falls on no one.",
                        lost=dmg.left))
    else:
        ev.append(event("damage_left", f"{dmg.left} damage left: pick who takes the next hit.", left=dmg.left))


def _dies(s: State, card: Card, ev: Events, why: str) -> None:
    """A runner, spirit or drone dies (with its gear): lose reputation equal to its Nuyen cost."""
    s.cards.remove(card)
    if s.run is not None and card.id in s.run.team:
        s.run.team.remove(card.id)
    post(s, ev, "reputation", -card.cost, f"{card.name} died (cost {card.cost})")
    ev.append(event("died", f"{card.name} dies ({why}) and is trashed with its gear: reputation −{card.cost} "
                    f"(its Nuyen cost), now {s.reputation}.", card_id=card.id, name=card.name, cost=card.cost,
                    reputation=s.reputation))


def _complete_objective(s: State, a: CompleteObjective, dice: Dice, ev: Events) -> None:
    objective = run_target(s)
    assert objective is not None
    s.objectives.remove(objective)
    s.run = None
    s.rep_from_objectives_this_turn += objective.rep
    post(s, ev, "reputation", objective.rep, f"Completed {objective.name}")
    pay = johnson_pay(objective.rep)
    ev.append(event("objective_taken", f"Objective {objective.name} taken: reputation +{objective.rep} (now "
                    f"{s.reputation}). The team returns to the safehouse; Mr Johnson pays {pay} next Credstick "
                    f"phase (half of the reputation, rounded down).", objective_id=objective.id,
                    name=objective.name, rep=objective.rep, reputation=s.reputation, pay_next_turn=pay))


def _end_run(s: State, a: EndRun, dice: Dice, ev: Events) -> None:
    objective = run_target(s)
    assert objective is not None
    s.run = None
    ev.append(event("run_ended", f"The run on {objective.name} is over; the team returns to the safehouse, still "
                    f"turned.", objective_id=objective.id, name=objective.name))


def _check_victory(s: State, a: CheckVictory, dice: Dice, ev: Events) -> None:
    s.step_done = True
    target = s.settings.target_reputation
    missing = [words for words, holds in victory_checks(s) if not holds]
    if not missing:
        s.result, s.phase = "Won", "over"
        ev.append(event("victory", f"Victory: reputation {s.reputation} ≥ target {target}, loan 0, interest 0. "
                        f"Your runners retire outside the sprawl.", reputation=s.reputation, target=target))
        return
    ev.append(event("not_won", f"Not won yet: {', '.join(missing)}.", reputation=s.reputation, target=target,
                    loan=s.loan, interest=s.interest))
    outcomes = survival_outcomes(s.reputation)
    if not outcomes:
        return
    lose = min(6, -s.reputation)
    face: Optional[int] = None
    if len(outcomes) == 1:  # −6 or lower: no face survives, no die is rolled
        lost = True
        text = (f"Reputation {s.reputation}: no d6 can beat {lose}. The loan shark's enforcer ends your career: "
                f"game lost.")
    else:
        face = throw_one(dice, f"the survival roll (reputation {s.reputation})", outcomes=outcomes)
        lost = face <= lose
        text = (f"Reputation {s.reputation} is below 0: rolled {face} ≤ {lose}. The loan shark's enforcer ends your "
                f"career: game lost." if lost else
                f"Reputation {s.reputation} is below 0: rolled {face} > {lose}: you survive this turn.")
    if lost:
        s.result, s.phase = "Lost", "over"
    ev.append(event("survival", text, reputation=s.reputation, face=face, lost=lost))


def _adjust(s: State, a: Adjust, dice: Dice, ev: Events) -> None:
    reason = _name(a.reason, "The reason")
    if a.amount == 0:
        raise InputError("An adjustment must be between -100 and 100 and not 0.")
    post(s, ev, a.account, a.amount, f"Card effect: {reason}")
    ev.append(event("adjusted", f"{a.account.capitalize()} {a.amount:+d} ({reason}): now {getattr(s, a.account)}.",
                    account=a.account, amount=a.amount, reason=reason, balance=getattr(s, a.account)))


def _set_turned(s: State, a: SetTurned, dice: Dice, ev: Events) -> None:
    card = _card(s, a.card_id)
    card.turned = a.turned
    ev.append(event("turned", f"{card.name} is now {'turned' if a.turned else 'unturned'}.", card_id=card.id,
                    name=card.name, turned=a.turned))


def _remove_card(s: State, a: RemoveCard, dice: Dice, ev: Events) -> None:
    card = _card(s, a.card_id)
    if a.died:
        _dies(s, card, ev, "killed")
        return
    s.cards.remove(card)
    if s.run is not None and card.id in s.run.team:
        s.run.team.remove(card.id)
    ev.append(event("trashed", f"{card.name} is trashed.", card_id=card.id, name=card.name))


HANDLERS: dict[str, Callable[[State, Any, Dice, Events], None]] = {
    "advance": _advance,
    "add_objective": _add_objective,
    "discard_objective": _discard_objective,
    "refresh_challenges": _refresh_challenges,
    "take_nuyen": _take_nuyen,
    "roll_luck": _roll_luck,
    "get_paid": _get_paid,
    "secondary_income": _secondary_income,
    "payroll": _payroll,
    "charge_interest": _charge_interest,
    "roll_payment_due": _roll_payment_due,
    "pay_interest": _pay_interest,
    "refuse_payment": _refuse_payment,
    "deploy": _deploy,
    "spend": _spend,
    "run_errand": _run_errand,
    "take_six": _take_six,
    "roll_two": _roll_two,
    "sell_cards": _sell_cards,
    "pay_off": _pay_off,
    "heal": _heal,
    "start_run": _start_run,
    "draw_event": _draw_event,
    "pump": _pump,
    "pick_random": _pick_random,
    "trash_challenge": _trash_challenge,
    "start_damage": _start_damage,
    "take_hit": _take_hit,
    "complete_objective": _complete_objective,
    "end_run": _end_run,
    "check_victory": _check_victory,
    "adjust": _adjust,
    "set_turned": _set_turned,
    "remove_card": _remove_card,
}
assert set(HANDLERS) == set(ALL_KINDS)


def _copy(state: State) -> State:
    """A copy apply may change. Settings are never changed once made: they are shared, not copied."""
    run, damage = state.run, state.damage
    return state.model_copy(update={
        "objectives": [o.model_copy() for o in state.objectives],
        "cards": [c.model_copy() for c in state.cards],
        "run": None if run is None else run.model_copy(update={"team": list(run.team)}),
        "damage": None if damage is None else damage.model_copy(update={"hit_this_pass": list(damage.hit_this_pass)}),
    })


# --- Steps that pass by themselves (settings.auto_pass) ---------------------------------------------------
# When an action leaves the turn at a step the table has nothing to choose in and no die to roll, the
# same action takes the step's one required action (if any), says it passed and why, and moves on: so
# it is logged, undone and replayed with the action that reached it. It never rolls: a step that would
# need a die waits for the table.


class _NoDice:
    """The dice of a step passing by itself: any roll it would need stops the pass (NeedDice)."""

    def throw(self, chance: Chance) -> list[int]:
        raise NeedDice(chance)

    def roll(self, sides: int) -> int:
        raise NeedDice(Chance(count=1, die=d(sides), why="a roll"))


# The one action a step requires, taken for the table when it leaves no choice (the rules may still
# need a die for it: then the step waits). Payroll leaves a choice only when cash runs short.
_REQUIRED: dict[str, Callable[[State], Optional[Any]]] = {
    "objective": lambda s: RefreshChallenges() if len(s.objectives) >= OBJECTIVES_IN_PLAY else None,
    "paid": lambda s: GetPaid(),
    "payroll": lambda s: None if payroll_unpayable(s) else Payroll(),
    "interest": lambda s: ChargeInterest(),
    "payment": lambda s: RollPaymentDue() if s.payment_due is None and s.interest > 0 else None,
    "victory": lambda s: CheckVictory(),
}


def _required_now(s: State) -> Optional[Any]:
    make = _REQUIRED.get(s.phase)
    action = make(s) if make is not None else None
    return action if action is not None and why_not(s, action.kind) is None else None


def _why_it_passes(s: State) -> Optional[str]:
    """Why the turn may leave its current step with nothing for the table to do (None: it may not)."""
    if s.pending_errand is not None or s.damage is not None:
        return None
    phase, done = s.phase, s.step_done
    if phase == "objective" and done:
        return "challenges placed as listed, nothing to choose"
    if phase == "paid" and done:
        pay = johnson_pay(s.rep_from_objectives_last_turn)
        return f"+{pay} collected" if pay else "+0, nothing to collect"
    if phase == "payroll" and done:
        return f"upkeep {upkeep_due(s)} paid, cash covered it" if payroll_bill(s) else "no upkeep due"
    if phase == "interest" and done:
        return "interest charged, nothing to choose"
    if phase == "payment":
        # Decision: with no interest owed the payment-due roll changes nothing, so it isn't asked for.
        if s.payment_due is None and s.interest == 0:
            return "no interest owed, nothing to pay (no roll needed)"
        if s.payment_due is False:
            return "not due this turn"
        return "the payment is settled" if done else None
    if phase == "shadowrun" and s.run is None:
        if s.run_taken:
            return "the run for this turn is over"
        if not s.objectives:
            return "no objective in play, no run"
        return None if any(not c.turned for c in _runners(s)) else "no unturned runner, no run"
    if phase == "victory" and done:
        return "not won yet" + (", and you survive the roll" if s.reputation < 0 else ", no roll to make")
    return None


def _carry_on(s: State, ev: Journal) -> State:
    """Take the turn through the steps that pass by themselves, from wherever the action left it."""
    ev.events()  # the action's own ledger lines ride on its own events, not on a passed step's
    while s.phase != "over":
        action = _required_now(s)
        if action is not None:
            trial, done = _copy(s), Journal()
            try:
                HANDLERS[action.kind](trial, action, _NoDice(), done)
            except NeedDice:
                return s  # this step needs a die: the table rolls it
            s = trial
            for e in done.events():
                ev.append(e)
            continue
        why = _why_it_passes(s)
        if why is None:
            return s
        ev.append(event("step_passed", f"{PHASE_TITLES[s.phase]}: {why} — passed.", phase=s.phase, why=why))
        _advance(s, Advance(), _NoDice(), ev)
    return s


def advance_to(state: State) -> str:
    """The phase an advance now leads to: the next one, or the first step after it the table has to
    act in when steps pass by themselves (the next phase when that ends the game)."""
    nxt = NEXT_PHASE.get(state.phase, state.phase)
    if not state.settings.auto_pass or why_not(state, "advance") is not None:
        return nxt
    landed = apply(state, Advance(), _NoDice())[0].phase
    return nxt if landed == "over" else landed


def apply(state: State, action: Action, dice: Dice) -> tuple[State, list[Event]]:
    """The next state and what happened. Refuses (RuleError/InputError) without changing anything."""
    reason = why_not(state, action.kind)
    if reason is not None:
        raise RuleError(reason)
    _check_ranges(state, action)
    new = _copy(state)
    journal = Journal()
    HANDLERS[action.kind](new, action, dice, journal)
    if new.settings.auto_pass:
        new = _carry_on(new, journal)
    return new, journal.events()


# --- What the app shows ----------------------------------------------------------------------------------


def describe(action: Action) -> str:
    a = action
    words: dict[str, Callable[[], str]] = {
        "advance": lambda: "next phase",
        "add_objective": lambda: f"objective {a.name} ({a.rep} rep)",
        "discard_objective": lambda: "discard an objective",
        "refresh_challenges": lambda: "refresh challenges",
        "take_nuyen": lambda: f"take {a.count} Nuyen",
        "roll_luck": lambda: "Luck of the Draw",
        "get_paid": lambda: "get paid",
        "secondary_income": lambda: f"income +{a.amount}",
        "payroll": lambda: "payroll",
        "charge_interest": lambda: "interest",
        "roll_payment_due": lambda: "payment-due roll",
        "pay_interest": lambda: "pay interest",
        "refuse_payment": lambda: "refuse payment",
        "deploy": lambda: f"deploy {a.name} ({a.cost})",
        "spend": lambda: f"spend {a.amount}",
        "run_errand": lambda: "errand",
        "take_six": lambda: "errand: take 6",
        "roll_two": lambda: "errand: roll two more",
        "sell_cards": lambda: f"sell {a.count} card(s)",
        "pay_off": lambda: f"pay off {a.loan + a.interest}",
        "heal": lambda: "heal",
        "start_run": lambda: "start a Shadowrun",
        "draw_event": lambda: f"event (cost {a.cost})",
        "pump": lambda: "pump",
        "pick_random": lambda: "random target",
        "trash_challenge": lambda: "trash a challenge",
        "start_damage": lambda: f"{a.amount} damage",
        "take_hit": lambda: "take a hit",
        "complete_objective": lambda: "take the objective",
        "end_run": lambda: "end the run",
        "check_victory": lambda: "victory check",
        "adjust": lambda: f"{a.account} {a.amount:+d}",
        "set_turned": lambda: "turn" if a.turned else "untap",
        "remove_card": lambda: "card dies" if a.died else "trash a card",
    }
    return words[a.kind]()


def headline(state: State) -> str:
    if state.phase == "over":
        return f"Turn {state.turn} · {state.result}"
    if state.phase == "setup":
        return "Setup"
    return f"Turn {state.turn} · {PHASE_TITLES[state.phase]}"


def outcome(state: State) -> Optional[str]:
    return state.result


GAME = Game(
    key="shadowrun",
    title="Shadowrun: Singularis",
    summary="Solitaire Shadowrun TCG: the loan, interest, cash and reputation ledger and the turn helper.",
    Settings=Settings,
    State=State,
    Action=Action,
    new_state=new_state,
    apply=apply,
    describe=describe,
    headline=headline,
    outcome=outcome,
    moves=moves,
)
