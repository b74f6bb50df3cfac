"""Shadowrun: Singularis (solitaire rules for Shadowrun: The Trading Card Game), RULES.md §2.

The cards stay on the table. The app keeps the loan, cash, interest and reputation right (every
change is a ledger line, logged with the action's events: see `ledger.post`; the state keeps only
the balances, and `ledger(settings, events)` rebuilds the lines), walks the turn phase by phase,
and declares every roll the book asks for as a chance node (how many dice, which die, why, the odds
of each outcome): Luck of the Draw, tie-breaks, payment due, errands, events, pumped costs, random
picks, damage, survival. In new campaigns (`Settings.auto_pass`), a step with nothing to choose and
no die to roll passes by itself within the action that reached it, and says so (`_carry_on`).

Every sentence a player reads (events, refusals, move labels, the odds' outcomes, why a step passed,
ledger reasons, headline) is a `Msg`: a message id and its values, said in each phone's language
when shown (companion/i18n.py). Names the player typed (objectives, cards, options) go in as they are.
An event's `data` stays plain values for code (its `sums`, `reason` and `why` in English, as before).

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
from companion.games.shadowrun.ledger import ACCOUNT_TITLES, ACCOUNTS, Account, Journal, Line, lines_in, post
from companion.i18n import N_, Msg, NMsg, Text, joined

# --- Words ----------------------------------------------------------------------------------------------


def marked(msgid: str) -> Msg:
    """The message of a constant marked `N_` for the catalog (a field's description), said in each
    phone's language when shown."""
    return Msg.from_json({"msgid": msgid})


def _names(names: list[str]) -> Text:
    """'A', 'A and B', 'A, B and C'."""
    if len(names) == 1:
        return names[0]
    return Msg("{names} and {last}", names=", ".join(names[:-1]), last=names[-1])


# --- The numbers of the game ------------------------------------------------------------------------

Difficulty = Literal["easy", "normal", "hard", "extreme"]
DIFFICULTY_NAMES = (N_("easy"), N_("normal"), N_("hard"), N_("extreme"))  # the settings form's choices
DIFFICULTY_TITLES: dict[str, Msg] = {"easy": Msg("Easy"), "normal": Msg("Normal"), "hard": Msg("Hard"),
                                     "extreme": Msg("Extreme")}
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


def interest_sums(rate: int, debt: int) -> Msg:
    """The interest sum as the table checks it (the exact sum in the phone's way: 4.4, 4,4).

    >>> str(interest_sums(20, 22)), interest_sums(20, 22).render("de")
    ('20% of 22 = 4.4 → 5', '20 % von 22 = 4,4 → 5')
    >>> str(interest_sums(10, 20))
    '10% of 20 = 2'
    """
    exact = rate * debt  # in hundredths of a Nuyen
    if exact % 100 == 0:
        return Msg("{rate}% of {debt} = {exact}", rate=rate, debt=debt, exact=exact // 100)
    return Msg("{rate}% of {debt} = {exact} → {charge}", rate=rate, debt=debt,
               exact=exact / 100, charge=interest_charge(rate, debt))


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


def _split(p: Fraction, yes: Text, no: Text) -> list[Outcome]:
    return [Outcome(label=yes, probability=float(p)), Outcome(label=no, probability=float(1 - p))]


def face_chance(faces: int) -> Fraction:
    """The exact chance that a d6 shows one of `faces` faces (1 to `faces`: a payment band, a lost
    survival roll): the one source of the payment and survival odds, shown and read by Luck."""
    return Fraction(max(0, min(6, faces)), 6)


def survival_losing_faces(reputation: int) -> int:
    """How many faces lose the survival roll at this reputation (a d6 ≤ |reputation| loses)."""
    return max(0, min(6, -reputation))


def payment_due_outcomes(debt: int) -> list[Outcome]:
    """The payment-due roll against the debt band ("due on 1–4"); 40 or more is always due."""
    due = payment_due_faces(debt)
    if due == 6:
        return [Outcome(label=Msg("always due (total debt 40 or more)"), probability=1.0)]
    return _split(face_chance(due), Msg("due on {faces}", faces=_faces(1, due)),
                  Msg("not due on {faces}", faces=_faces(due + 1, 6)))


def payment_table() -> Msg:
    """The payment-due table in one line.

    >>> str(payment_table())
    '0–9 → 1–2 · 10–19 → 1–3 · 20–29 → 1–4 · 30–39 → 1–5 · 40+ → always'
    """
    bands = " · ".join(f"{low}–{low + 9} → {_faces(1, payment_due_faces(low))}" for low in range(0, 40, 10))
    return Msg("{bands} · {low}+ → always", bands=bands, low="40")


def event_outcomes(cost: int) -> list[Outcome]:
    """An event is played on a d6 ≥ its Nuyen cost: cost 0 or 1 always, above 6 never (no die either way)."""
    if cost <= 1:
        return [Outcome(label=Msg("always played (cost 0 or 1)"), probability=1.0)]
    if cost > 6:
        return [Outcome(label=Msg("never played (no die reaches its cost)"), probability=1.0)]
    return _split(Fraction(7 - cost, 6), Msg("played on {faces}", faces=_faces(cost, 6)),
                  Msg("not played on {faces}", faces=_faces(1, cost - 1)))


def survival_outcomes(reputation: int) -> list[Outcome]:
    """The Victory/Failure roll below 0 reputation: a d6 ≤ |reputation| loses (none at 0 or more)."""
    if reputation >= 0:
        return []
    lose = survival_losing_faces(reputation)
    if lose == 6:
        return [Outcome(label=Msg("always lost (reputation −6 or lower)"), probability=1.0)]
    return _split(face_chance(lose), Msg("game lost on {faces}", faces=_faces(1, lose)),
                  Msg("you survive on {faces}", faces=_faces(lose + 1, 6)))


ERRAND_OUTCOMES = [
    Outcome(label=Msg("1: nothing"), probability=1 / 6),
    Outcome(label=Msg("2–5: that many Nuyen"), probability=4 / 6),
    Outcome(label=Msg("6: take 6, or roll two more dice"), probability=1 / 6),
]
TWO_MORE_OUTCOMES = _split(_sum_at_least(2, 7), Msg("more than 6: better than taking the 6"), Msg("6 or less"))
LUCK_OUTCOMES = _split(Fraction(1, 6), Msg("doubles: draw from any deck"), Msg("two faces: draw from either deck"))
PUMP_OUTCOMES = [Outcome(label=Msg("1–5: that many Nuyen"), probability=5 / 6),
                 Outcome(label=Msg("6: roll again and add"), probability=1 / 6)]
PUMP_AGAIN_OUTCOMES = [Outcome(label=Msg("7–12 Nuyen in all"), probability=1.0)]


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
# The phases' names as the book has them ("Shadowrun", "Legwork", "Credstick" are its own words).
PHASE_TITLES: dict[str, Msg] = {
    "setup": Msg("Setup"),
    "objective": Msg("Objective"),
    "refresh": Msg("Refresh"),
    "paid": Msg("Credstick 3a · Getting paid"),
    "income": Msg("Credstick 3b · Secondary income"),
    "payroll": Msg("Credstick 3c · Payroll"),
    "interest": Msg("Credstick 3d · Interest"),
    "payment": Msg("Credstick 3e · Payment due"),
    "legwork": Msg("Legwork"),
    "shadowrun": Msg("Shadowrun"),
    "victory": Msg("Victory/Failure"),
    "end": Msg("End"),
    "over": Msg("Game over"),
}
PHASE_GUIDE: dict[str, Msg] = {
    "setup": Msg("Shuffle the Objective, Challenge, Event and Player decks. Draw 7 cards (Luck of the Draw "
                 "if on). Draw objectives until you have one worth ≤10, one 11–20 and one 21+ (discard duplicates) "
                 "and enter them; each gets its challenges face down."),
    "objective": Msg("1a: while fewer than three objectives are in play, draw one and enter it (it gets its "
                     "challenges). 1b: refresh the challenges; the app says where each card goes."),
    "refresh": Msg("Untap your cards. Draw up to 7 cards; for any card you don't draw you may take 1 Nuyen."),
    "paid": Msg("Mr Johnson pays half the reputation you gained from objectives last turn."),
    "income": Msg("Enter Nuyen from cards in play (Fame, Contacts…)."),
    "payroll": Msg("Pay every card's upkeep. A card you can't pay is trashed."),
    "interest": Msg("The loan shark charges interest on loan + interest owed."),
    "payment": Msg("Roll to see if the loan shark wants the interest now; pay it or lose that much reputation."),
    "legwork": Msg("Deploy cards, buy gear, run errands, sell cards, pay off debt, heal — any order, any number."),
    "shadowrun": Msg("Optionally run one objective: pick it and up to 6 unturned runners, draw events, face "
                     "the challenges (bottom to top) and take the objective."),
    "victory": Msg("Check for a win (reputation ≥ target, no loan, no interest) and, on negative reputation, "
                   "roll to survive."),
    "end": Msg("Trash cards you don't want, discard down to 7, reshuffle any empty player deck."),
    "over": Msg("The game is over."),
}
Result = Literal["Won", "Lost"]  # the state keeps the result as these words; a phone reads `RESULTS`
WON, LOST = typing.get_args(Result)
RESULTS: dict[str, Msg] = {"Won": Msg("Won"), "Lost": Msg("Lost")}

# --- Settings ------------------------------------------------------------------------------------------

DeckName = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=30)]
# Decision: the book lists Magic, Rigger, Decker, Info, Skillsofts, Runners and Gear but speaks of six
# player decks; the default table leaves Skillsofts in with Gear. The player edits it once. The decks
# keep the names the cards print (English): they are the campaign's settings, not the app's words.
DEFAULT_DECK_TABLE = "Magic Rigger Decker Info Runners Gear".split()


class Settings(Model):
    loan: int = Field(20, ge=1, le=20, description=N_("Starting loan in Nuyen (cash starts equal to it)"))
    target_reputation: int = Field(25, ge=1, le=200, description=N_("Reputation needed to win"))
    difficulty: Difficulty = Field("normal", description=N_("Extra challenges each turn: easy 0 … extreme 3"))
    luck_of_the_draw: bool = Field(True, description=N_("Roll 2d6 to choose the player deck to draw from"))
    chipjacks: bool = Field(True, description=N_("Chipjacks can be bought with any Skillsoft"))
    deck_table: list[DeckName] = Field(
        default_factory=lambda: list(DEFAULT_DECK_TABLE), min_length=6, max_length=6,
        description=N_("Luck of the Draw: the player deck named by die faces 1–6"),
    )
    # Off in every campaign made before it existed (their saved settings lack it), so their logs replay
    # as they were played, one step per action; the setup form turns it on for new campaigns.
    auto_pass: bool = Field(False, description=N_("Steps with nothing to choose and no die to roll pass by themselves"))

    @model_serializer(mode="wrap")
    def _written_only_when_on(self, handler: Any) -> Any:
        # Off, it is left out: an old campaign's settings and states are saved byte for byte as before.
        data = handler(self)
        if isinstance(data, dict) and not self.auto_pass:
            data.pop("auto_pass", None)
        return data


# --- State ---------------------------------------------------------------------------------------------

CardType = Literal["runner", "spirit", "drone", "other"]
CARD_TYPE_NAMES = (N_("runner"), N_("spirit"), N_("drone"), N_("other"))  # as the deploy form lists them


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
    result: Optional[Result] = None

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
    post(state, journal, "loan", settings.loan, Msg("Starting loan from the loan shark"))
    post(state, journal, "cash", settings.loan, Msg("Starting cash: the loan paid out"))
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
        return [Outcome(label=Msg("{name} survives: only {left} damage is left", name=card.name, left=damage.left),
                        probability=1.0)]
    p = _sum_at_least(damage.dice, kills)
    if p == 1:
        return [Outcome(label=Msg("any roll kills {name}", name=card.name), probability=1.0)]
    return _split(p, Msg("{kills} or more kills {name}", kills=kills, name=card.name),
                  Msg("less: {name} survives", name=card.name))


# --- Actions -------------------------------------------------------------------------------------------
# Each number a player types has its range on the model (`Field(ge=…, le=…)`; `moves` narrows it by
# the state) and the words the form shows (`description`), which also name it in a refusal.


class Advance(Model):
    """Go on to the next phase (or step of the Credstick phase)."""

    kind: Literal["advance"] = "advance"


class AddObjective(Model):
    kind: Literal["add_objective"] = "add_objective"
    name: str = Field(description=N_("Objective name"))
    rep: int = Field(ge=1, le=100, description=N_("Reputation"))


class DiscardObjective(Model):
    kind: Literal["discard_objective"] = "discard_objective"
    objective_id: int = Field(description=N_("Objective"))


class RefreshChallenges(Model):
    kind: Literal["refresh_challenges"] = "refresh_challenges"


class TakeNuyen(Model):
    kind: Literal["take_nuyen"] = "take_nuyen"
    count: int = Field(1, ge=1, le=HAND_SIZE, description=N_("Nuyen taken instead of cards"))


class RollLuck(Model):
    kind: Literal["roll_luck"] = "roll_luck"


class GetPaid(Model):
    kind: Literal["get_paid"] = "get_paid"


class SecondaryIncome(Model):
    kind: Literal["secondary_income"] = "secondary_income"
    amount: int = Field(ge=1, le=100, description=N_("Nuyen"))
    source: str = Field("", description=N_("From (card)"))


class Payroll(Model):
    """Pay all upkeep; `unpaid` names the cards the player leaves unpaid when cash runs short."""

    kind: Literal["payroll"] = "payroll"
    unpaid: list[int] = Field(default_factory=list, description=N_("Cards left unpaid (trashed)"))


class ChargeInterest(Model):
    kind: Literal["charge_interest"] = "charge_interest"


class RollPaymentDue(Model):
    kind: Literal["roll_payment_due"] = "roll_payment_due"


class PayInterest(Model):
    """Pay the interest due; cards may be cashed in at 1 Nuyen each (untracked ones by count)."""

    kind: Literal["pay_interest"] = "pay_interest"
    cash_in: int = Field(0, ge=0, description=N_("Cards cashed in"))
    cash_in_ids: list[int] = Field(default_factory=list, description=N_("Cards in play cashed in"))


class RefusePayment(Model):
    kind: Literal["refuse_payment"] = "refuse_payment"


class Deploy(Model):
    kind: Literal["deploy"] = "deploy"
    name: str = Field(description=N_("Card name"))
    card_type: CardType = Field("runner", description=N_("Type"))
    cost: int = Field(ge=0, le=50, description=N_("Cost"))
    upkeep: int = Field(0, ge=0, le=20, description=N_("Upkeep"))
    body: int = Field(1, ge=0, le=30, description=N_("Body"))  # 1 or more for a runner, spirit or drone
    armor: int = Field(0, ge=0, le=20, description=N_("Armor"))


SpendItem = Literal["gear", "skillsoft", "chipjack", "special", "other"]
SPEND_ITEM_NAMES = (N_("gear"), N_("skillsoft"), N_("chipjack"), N_("special"), N_("other"))  # the buy form's list


class Spend(Model):
    """Pay for gear, a skillsoft (and a chipjack with it), a special card, or anything else."""

    kind: Literal["spend"] = "spend"
    amount: int = Field(ge=1, le=100, description=N_("Price"))
    item: SpendItem = Field("gear", description=N_("Buying"))
    what: str = Field("", description=N_("What"))


class RunErrand(Model):
    kind: Literal["run_errand"] = "run_errand"
    card_id: int = Field(description=N_("Runner"))


class TakeSix(Model):
    kind: Literal["take_six"] = "take_six"


class RollTwo(Model):
    kind: Literal["roll_two"] = "roll_two"


class SellCards(Model):
    kind: Literal["sell_cards"] = "sell_cards"
    count: int = Field(1, ge=1, le=60, description=N_("Cards sold"))


class PayOff(Model):
    kind: Literal["pay_off"] = "pay_off"
    loan: int = Field(0, ge=0, description=N_("Off the loan"))
    interest: int = Field(0, ge=0, description=N_("Off the interest"))


class Heal(Model):
    kind: Literal["heal"] = "heal"
    card_id: int = Field(description=N_("Card"))


class StartRun(Model):
    kind: Literal["start_run"] = "start_run"
    objective_id: int = Field(description=N_("Target objective"))
    team: list[int] = Field(description=N_("The team"))


class DrawEvent(Model):
    kind: Literal["draw_event"] = "draw_event"
    cost: int = Field(ge=0, le=20, description=N_("Event's Nuyen cost"))


class Pump(Model):
    kind: Literal["pump"] = "pump"


class PickRandom(Model):
    kind: Literal["pick_random"] = "pick_random"
    options: list[str] = Field(description=N_("Options"))


class TrashChallenge(Model):
    """A challenge on the target objective is sleazed, defeated or a bluff: it leaves the stack."""

    # Decision (the book's play guide, RULES.md's Step 5): the challenges are faced from the bottom of the
    # stack to the top, as the Shadowrun step's guide says. The app counts them, not which card is which
    # (the cards stay on the table), so the order is the table's, told in words (issue #30 item 17).

    kind: Literal["trash_challenge"] = "trash_challenge"


class StartDamage(Model):
    kind: Literal["start_damage"] = "start_damage"
    amount: int = Field(ge=1, le=99, description=N_("Challenge damage"))
    armor_piercing: bool = Field(False, description=N_("Armor-piercing"))


class TakeHit(Model):
    kind: Literal["take_hit"] = "take_hit"
    card_id: int = Field(description=N_("Who takes the hit"))


class CompleteObjective(Model):
    kind: Literal["complete_objective"] = "complete_objective"


class EndRun(Model):
    kind: Literal["end_run"] = "end_run"


class CheckVictory(Model):
    kind: Literal["check_victory"] = "check_victory"


class Adjust(Model):
    """A card's effect on loan, cash, interest or reputation the rules don't know (with a reason)."""

    kind: Literal["adjust"] = "adjust"
    account: Account = Field(description=N_("Account"))
    amount: int = Field(ge=-100, le=100, description=N_("Change (±)"))
    reason: str = Field(description=N_("Card / reason"))


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
    raise RuleError(Msg("No card #{id} is in play.", id=str(card_id)))


def _objective(state: State, objective_id: int) -> Objective:
    for objective in state.objectives:
        if objective.id == objective_id:
            return objective
    raise RuleError(Msg("No objective #{id} is in play.", id=str(objective_id)))


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


def why_not(state: State, kind: str) -> Optional[Msg]:
    """None if an action of this kind is allowed now, else the reason it is not."""
    if kind not in ALL_KINDS:
        return Msg("Unknown action {kind}.", kind=repr(kind))
    if state.phase == "over":
        return Msg("The game is over ({result}).", result=RESULTS.get(state.result or "", str(state.result)))
    # A pending choice must be settled before anything else happens.
    if state.pending_errand is not None:
        if kind in ("take_six", "roll_two"):
            return None
        return Msg("The errand rolled a 6: first choose to take 6 or roll two more dice.")
    if kind in ("take_six", "roll_two"):
        return Msg("No errand is waiting on a 6.")
    if state.damage is not None:
        if kind == "take_hit":
            return None
        return Msg("{left} damage is still to be allocated: pick who takes the next hit.", left=state.damage.left)
    if kind == "take_hit":
        return Msg("There is no damage to allocate.")
    if state.phase == "payment" and state.payment_due and not state.step_done:
        if kind in ("pay_interest", "refuse_payment"):
            return None
        return Msg("The interest payment is due: pay it or refuse (and lose that much reputation).")
    if kind not in PHASE_ACTIONS[state.phase] and kind not in ANYTIME:
        homes = [PHASE_TITLES[p] for p, kinds in PHASE_ACTIONS.items() if kind in kinds]
        return Msg("Not in {phase}: that belongs to {homes}.", phase=PHASE_TITLES[state.phase],
                   homes=joined(homes, " / "))
    return _why_not_now(state, kind)


def _why_not_now(state: State, kind: str) -> Optional[Msg]:
    """The conditions within the phase (the phase itself is already right)."""
    done = state.step_done
    if kind == "advance":
        return _why_not_advance(state)
    if kind == "add_objective":
        if len(state.objectives) >= OBJECTIVES_IN_PLAY:
            return Msg("Three objectives are already in play.")
        if state.phase == "objective" and done:
            return Msg("New objectives come before the challenges are refreshed (1a before 1b).")
        return None
    if kind in ("refresh_challenges", "get_paid", "payroll", "charge_interest", "check_victory"):
        return Msg("Already done this turn.") if done else None
    if kind == "take_nuyen":
        if state.nuyen_taken >= HAND_SIZE:
            return Msg("You have taken {n} Nuyen this phase, a full hand's worth.", n=HAND_SIZE)
        return None
    if kind == "roll_luck":
        return None if state.settings.luck_of_the_draw else Msg("Luck of the Draw is off in this campaign's settings.")
    if kind == "roll_payment_due":
        return Msg("The payment roll is made.") if state.payment_due is not None else None
    if kind in ("pay_interest", "refuse_payment"):
        if done and state.payment_due:
            return Msg("The payment is settled for this turn.")
        return None if state.payment_due else Msg("No payment is due.")
    if kind == "run_errand":
        return None if any(not c.turned for c in _runners(state)) else Msg("No unturned runner can run an errand.")
    if kind == "heal":
        ok = any(not c.turned and c.damage > 0 for c in state.cards)
        return None if ok else Msg("No unturned card has damage to heal.")
    if kind == "pay_off":
        if state.debt == 0:
            return Msg("There is no loan or interest left to pay.")
        return None if state.cash > 0 else Msg("You have no cash to pay with.")
    if kind == "start_run":
        if state.run_taken:
            return Msg("One Shadowrun per turn: you have already run this turn.")
        if not state.objectives:
            return Msg("No objective is in play.")
        return None if any(not c.turned for c in _runners(state)) else Msg("No unturned runner can go on a run.")
    if kind in ("draw_event", "trash_challenge", "start_damage", "complete_objective", "end_run"):
        if state.run is None:
            return Msg("No Shadowrun is in progress.")
        if kind == "draw_event" and state.run.events_drawn >= state.run.events_to_draw:
            return Msg("All {n} event(s) for this run are drawn.", n=state.run.events_to_draw)
        if kind == "trash_challenge" and _objective(state, state.run.objective_id).challenges == 0:
            return Msg("No challenge is left under the target objective.")
        if kind == "start_damage" and not _living_team(state):
            return Msg("Nobody on the run is left to take damage.")
        if kind == "complete_objective":
            # RULES.md §2: taken only once every challenge on it is sleazed, defeated or otherwise done.
            objective = _objective(state, state.run.objective_id)
            if objective.challenges:
                return Msg("Beat or sleaze every challenge on {name} first: {left} left.", name=objective.name,
                           left=objective.challenges)
            if not any(c.card_type == "runner" for c in _living_team(state)):
                return Msg("At least one runner must survive the run to take the objective.")
        return None
    if kind in ("set_turned", "remove_card"):
        return None if state.cards else Msg("No tracked card is in play.")
    if kind == "discard_objective":
        return None if state.objectives else Msg("No objective is in play.")
    return None


def _why_not_advance(state: State) -> Optional[Msg]:
    phase = state.phase
    if phase == "setup":
        missing = missing_ranges(state)
        return Msg("Play one objective from each range first; missing: {ranges}.",
                   ranges=", ".join(missing)) if missing else None
    required = {
        "objective": Msg("Refresh the challenges first (1b)."),
        "paid": Msg("Collect Mr Johnson's payment first."),
        "payroll": Msg("Pay the payroll first."),
        "interest": Msg("Charge this turn's interest first."),
        "victory": Msg("Check for victory and failure first."),
    }
    if phase in required and not state.step_done:
        return required[phase]
    if phase == "payment" and state.payment_due is None:
        return Msg("Roll to see whether payment is due first.")
    if phase == "shadowrun" and state.run is not None:
        return Msg("Finish the Shadowrun first: take the objective or end the run.")
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


def victory_checks(state: State) -> list[tuple[Msg, bool]]:
    """The three conditions of a win, each in words and whether it holds now."""
    target = state.settings.target_reputation
    return [(Msg("reputation {reputation} of {target}", reputation=state.reputation, target=target),
             state.reputation >= target),
            (Msg("loan {loan} left", loan=state.loan), state.loan == 0),
            (Msg("interest {interest} owed", interest=state.interest), state.interest == 0)]


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


def phase_title(phase: str) -> Msg:
    return PHASE_TITLES[phase]


# How a step works, in the book's words, for the table to read next to its buttons.
HOW: dict[str, Msg] = {
    "add_objective": Msg("It gets one challenge per 10 reputation, rounded up (25 → 3)."),
    "refresh_challenges": Msg("Each objective short of its challenges gets one. Then the difficulty's extra "
                              "challenges go one at a time down the objectives by value; equal values go to the one "
                              "with fewest challenges, then a die picks among those still tied."),
    "take_nuyen": Msg("Each Nuyen taken instead of a card counts toward your {n} this phase.", n=HAND_SIZE),
    "roll_luck": Msg("Roll 2d6 for each card: each face names a player deck; doubles: any deck."),
    "get_paid": Msg("Mr Johnson pays half the reputation gained from objectives last turn, rounded down."),
    "run_errand": Msg("Turn a runner and roll 1d6: {outcomes}.", outcomes=joined((o.label for o in ERRAND_OUTCOMES),
                                                                                  " · ")),
    "roll_two": Msg("Take 6 Nuyen, or roll two more dice and take their total."),
    "pay_interest": Msg("Cards in hand or play may be cashed in at 1 Nuyen each; whatever stays unpaid is lost "
                        "as reputation, and stays owed."),
    "start_run": Msg("Up to {n} unturned runners (spirits and drones don't count). Events to draw: "
                     "1 + 1 per full 10 reputation (below 0 counts as 0).", n=MAX_RUNNERS),
    "draw_event": Msg("Played if a d6 ≥ its Nuyen cost (cost 0 or 1: always). Stop drawing if a played event "
                      "ends the run."),
    "take_hit": Msg("Each hit is one d6 per full 6 of the challenge's damage (at least one). A hit never deals "
                    "more than is left, but the character takes all of it; damage ≥ body kills (reputation − its "
                    "cost)."),
    "complete_objective": Msg("Taken once every challenge on it is beaten or sleazed; a failed challenge ends "
                              "the run and the objective stays in play."),
    "pick_random": Msg("List the options: a die with one face per option picks one."),
    "check_victory": Msg("Win with reputation ≥ target, no loan and no interest. Below 0 reputation, a d6 ≤ "
                         "|reputation| ends the game."),
}


# --- What may be done now --------------------------------------------------------------------------------

LABELS: dict[str, Msg] = {
    "advance": Msg("Next phase"), "add_objective": Msg("Add objective"),
    "discard_objective": Msg("Discard an objective"), "refresh_challenges": Msg("Refresh the challenges (1b)"),
    "take_nuyen": Msg("Take Nuyen instead of cards"), "roll_luck": Msg("Roll Luck of the Draw (2d6)"),
    "get_paid": Msg("Collect Mr Johnson's payment"), "secondary_income": Msg("Add secondary income"),
    "payroll": Msg("Pay the payroll"), "charge_interest": Msg("Charge interest"),
    "roll_payment_due": Msg("Roll: is payment due? (d6)"), "pay_interest": Msg("Pay the interest"),
    "refuse_payment": Msg("Refuse the payment"), "deploy": Msg("Deploy (pay its cost)"), "spend": Msg("Buy"),
    "run_errand": Msg("Run an errand"), "take_six": Msg("Take 6"), "roll_two": Msg("Roll two more (2d6)"),
    "sell_cards": Msg("Sell (+1 each)"), "pay_off": Msg("Pay off"), "heal": Msg("Heal"),
    "start_run": Msg("Start the Shadowrun"), "draw_event": Msg("Roll for the event"),
    "pump": Msg("Pump a cost (d6)"), "pick_random": Msg("Pick one at random"),
    "trash_challenge": Msg("Challenge beaten / sleazed"), "start_damage": Msg("Allocate this damage"),
    "take_hit": Msg("Take the hit"), "complete_objective": Msg("Take the objective"),
    "end_run": Msg("End the run without it"), "check_victory": Msg("Check victory"),
    "adjust": Msg("Apply the card effect"), "set_turned": Msg("Turn or untap a card"),
    "remove_card": Msg("Trash a card"),
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
        label = type(action).model_fields[name].description
        require_range(marked(label) if label else name, getattr(action, name), low, high)


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


def _ready(kind: str, action: Any, label: Optional[Msg] = None) -> Move:
    return Move(kind=kind, label=label or LABELS[kind], action=action)


SIMPLE: dict[str, Callable[[], Any]] = {
    "advance": Advance, "refresh_challenges": RefreshChallenges, "roll_luck": RollLuck, "get_paid": GetPaid,
    "charge_interest": ChargeInterest, "roll_payment_due": RollPaymentDue, "refuse_payment": RefusePayment,
    "take_six": TakeSix, "roll_two": RollTwo, "pump": Pump, "trash_challenge": TrashChallenge,
    "complete_objective": CompleteObjective, "end_run": EndRun, "check_victory": CheckVictory,
}


def _hit_label(c: Card, armor_piercing: bool) -> Msg:
    if c.armor and not armor_piercing:
        return Msg("Hit {name} ({damage}/{body}, armor {armor})", name=c.name, damage=c.damage, body=c.body,
                   armor=c.armor)
    return Msg("Hit {name} ({damage}/{body})", name=c.name, damage=c.damage, body=c.body)


def _ready_moves(s: State, kind: str) -> list[Move]:
    """The ready actions of a kind `why_not` allows now (besides its template, if it has one)."""
    if kind in SIMPLE:
        return [_ready(kind, SIMPLE[kind]())]
    if kind == "take_nuyen":
        return [_ready(kind, TakeNuyen(count=1), Msg("Take 1 Nuyen instead of a card"))]
    if kind == "payroll":
        unpaid = payroll_unpayable(s)
        label = Msg("Pay the payroll, trashing what cash can't cover") if unpaid else LABELS[kind]
        return [_ready(kind, Payroll(unpaid=unpaid), label)]
    if kind == "pay_interest":
        return [_ready(kind, PayInterest(), LABELS[kind] if s.cash >= s.interest else Msg("Pay what cash covers"))]
    if kind == "run_errand":
        return [_ready(kind, RunErrand(card_id=c.id), Msg("Errand: {name}", name=c.name))
                for c in _runners(s) if not c.turned]
    if kind == "heal":
        return [_ready(kind, Heal(card_id=c.id), Msg("Heal {name} ({damage} damage)", name=c.name, damage=c.damage))
                for c in s.cards if c.damage > 0 and not c.turned]
    if kind == "take_hit":
        ap = s.damage is not None and s.damage.armor_piercing
        return [_ready(kind, TakeHit(card_id=c.id), _hit_label(c, ap)) for c in hit_candidates(s)]
    if kind == "set_turned":
        return [_ready(kind, SetTurned(card_id=c.id, turned=not c.turned),
                       Msg("Untap {name}", name=c.name) if c.turned else Msg("Turn {name}", name=c.name))
                for c in s.cards]
    if kind == "remove_card":
        return [m for c in s.cards for m in (
            _ready(kind, RemoveCard(card_id=c.id), Msg("Trash {name}", name=c.name)),
            _ready(kind, RemoveCard(card_id=c.id, died=True),
                   Msg("{name} died (reputation −{cost})", name=c.name, cost=c.cost)))]
    if kind == "discard_objective":
        return [_ready(kind, DiscardObjective(objective_id=o.id), Msg("Discard {name}", name=o.name))
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
            reason = Msg("That objective is the target of the run in progress.")
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


def _name(value: str, what: Msg) -> str:
    cleaned = value.strip()
    if not 1 <= len(cleaned) <= 40:
        raise InputError(Msg("{what} must be 1 to 40 characters (got {n}).", what=what, n=len(cleaned)))
    return cleaned


def _ids(values: list[int], what: Msg) -> list[int]:
    if len(set(values)) != len(values):
        raise InputError(Msg("{what} names a card twice.", what=what))
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
    title = PHASE_TITLES[s.phase]
    text = (Msg("Turn {turn} begins: {phase}.", turn=s.turn, phase=title) if new_turn
            else Msg("Turn {turn}: {phase}.", turn=s.turn, phase=title))
    ev.append(event("phase", text, turn=s.turn, phase=s.phase, new_turn=new_turn))
    if s.phase == "refresh":
        s.nuyen_taken = 0
        untapped = [c for c in s.cards if c.turned]
        for c in s.cards:
            c.turned = False
        names = [c.name for c in untapped]
        ev.append(event("untapped", Msg("Untapped {names}.", names=", ".join(names)) if names
                        else Msg("Nothing to untap."), card_ids=[c.id for c in untapped], names=names))
    if s.phase == "legwork":
        s.skillsofts_bought = s.chipjacks_bought = 0


def _add_objective(s: State, a: AddObjective, dice: Dice, ev: Events) -> None:
    name = _name(a.name, Msg("An objective's name"))
    band = objective_range(a.rep)
    if s.phase == "setup" and band not in missing_ranges(s):
        raise RuleError(Msg("Setup already has an objective worth {band}: discard this one and draw again.", band=band))
    count = challenges_for(a.rep)
    s.objectives.append(Objective(id=s.next_id, name=name, rep=a.rep, challenges=count))
    s.next_id += 1
    ev.append(event("objective_added", NMsg("Objective {name} ({rep} rep): place {n} challenge under it, face down (one "
                                            "per 10 rep, rounded up).", "Objective {name} ({rep} rep): place {n} "
                                            "challenges under it, face down (one per 10 rep, rounded up).", count,
                                            name=name, rep=a.rep),
                    objective_id=s.next_id - 1, name=name, rep=a.rep, challenges=count))


def _discard_objective(s: State, a: DiscardObjective, dice: Dice, ev: Events) -> None:
    objective = _objective(s, a.objective_id)
    if objective is run_target(s):
        raise RuleError(Msg("That objective is the target of the run in progress."))
    s.objectives.remove(objective)
    ev.append(event("objective_discarded", NMsg("Objective {name} discarded with its {n} challenge.",
                                                "Objective {name} discarded with its {n} challenges.",
                                                objective.challenges, name=objective.name),
                    objective_id=objective.id, name=objective.name, challenges=objective.challenges))


def _topped_up(o: Objective) -> bool:
    return o.challenges < challenges_for(o.rep)


def _extra_order(objectives: list[Objective], extras: int, dice: Dice) -> list[tuple[Objective, Msg]]:
    """Where the difficulty's extra challenges go, in order: highest value first; equal values: fewest
    challenges first, then a die with one face per still-tied objective."""
    order: list[tuple[Objective, Msg]] = []
    remaining = list(objectives)
    while len(order) < min(extras, len(objectives)):
        top = min(remaining, key=lambda o: (-o.rep, o.challenges))
        same_rep = [o for o in remaining if o.rep == top.rep and o is not top]
        tied = [o for o in remaining if (o.rep, o.challenges) == (top.rep, top.challenges)]
        if len(tied) > 1:
            names = [o.name for o in tied]
            die = pick_die(names)
            face = throw_one(dice, Msg("the tie for extra challenge {number} among {names}", number=len(order) + 1,
                                       names=_names(names)), die=die, outcomes=pick_outcomes(die))
            top = tied[face - 1]
            others = ", ".join(o.name for o in tied if o is not top)
            why = Msg("tied with {others} on {rep} rep and {count} challenge(s): the tie-break die picked it",
                      others=others, rep=top.rep, count=top.challenges)
        elif same_rep:
            why = Msg("same {rep} rep as {others} but fewest challenges ({count})", rep=top.rep,
                      others=", ".join(o.name for o in same_rep), count=top.challenges)
        else:
            why = Msg("highest value left") if order else Msg("highest value")
        order.append((top, why))
        remaining.remove(top)
    return order


def _refresh_challenges(s: State, a: RefreshChallenges, dice: Dice, ev: Events) -> None:
    s.step_done = True
    for o in s.objectives:  # top up: one per objective short of its full complement
        if _topped_up(o):
            o.challenges += 1
            ev.append(event("challenge_topped_up", Msg("{name} is short of its {full} challenges: add 1 (now {count}).",
                                                       name=o.name, full=challenges_for(o.rep), count=o.challenges),
                            objective_id=o.id, name=o.name, challenges=o.challenges))
    difficulty = s.settings.difficulty
    # Decision (RULES.md, Objectives: "each turn: top up missing challenges, then place the difficulty's
    # extra challenges"): the extras are placed every turn and stay until the objective is taken, with
    # no cap. §1a's "a 25 rep Objective can have a maximum of three Challenge cards" is the objective's
    # own complement (the top-up stops there); §1b's extras come on top of it (issue #30 item 17).
    extras = EXTRA_CHALLENGES[difficulty]
    if extras == 0 or not s.objectives:
        ev.append(event("no_extra_challenges", Msg("{difficulty}: no extra challenges.",
                                                   difficulty=DIFFICULTY_TITLES[difficulty]), difficulty=difficulty))
        return
    # Going down the objectives by value; equal values: fewest challenges first, then a die.
    order = _extra_order(s.objectives, extras, dice)
    for k in range(extras):
        target, why = order[k % len(order)]
        target.challenges += 1
        ev.append(event("extra_challenge", Msg("Extra challenge {number} of {extras} ({difficulty}) → {name} ({rep} rep, "
                                               "{why}); now {count}.", number=k + 1, extras=extras,
                                               difficulty=marked(difficulty), name=target.name, rep=target.rep, why=why,
                                               count=target.challenges),
                        number=k + 1, extras=extras, objective_id=target.id, name=target.name,
                        challenges=target.challenges, reason=why.english))


def _take_nuyen(s: State, a: TakeNuyen, dice: Dice, ev: Events) -> None:
    s.nuyen_taken += a.count
    post(s, ev, "cash", a.count, Msg("Refresh: {count} Nuyen taken instead of drawing", count=a.count))
    ev.append(event("nuyen_taken", Msg("Took {count} Nuyen instead of drawing (counts toward your {hand} this phase): "
                                       "cash {cash}.", count=a.count, hand=HAND_SIZE, cash=s.cash),
                    count=a.count, cash=s.cash))


def _roll_luck(s: State, a: RollLuck, dice: Dice, ev: Events) -> None:
    first, second = throw(dice, 2, Msg("Luck of the Draw"), outcomes=LUCK_OUTCOMES)
    decks = [deck_for(s.settings, first), deck_for(s.settings, second)]
    if first == second:
        text = Msg("Luck of the Draw: {first} and {second}, doubles: draw from any deck you choose.", first=first,
                   second=second)
    else:
        text = Msg("Luck of the Draw: {first} and {second}: draw from {deck} or {other}.", first=first, second=second,
                   deck=decks[0], other=decks[1])
    ev.append(event("luck_of_the_draw", text, faces=[first, second], doubles=first == second,
                    decks=[] if first == second else decks))


def _get_paid(s: State, a: GetPaid, dice: Dice, ev: Events) -> None:
    s.step_done = True
    gained = s.rep_from_objectives_last_turn
    pay = johnson_pay(gained)
    if pay == 0:
        ev.append(event("paid", Msg("Getting paid: nothing ({gained} reputation from objectives last turn ÷ 2).",
                                    gained=gained), gained=gained, pay=0, cash=s.cash))
        return
    post(s, ev, "cash", pay, Msg("Paid by Mr Johnson: {gained} rep from objectives ÷ 2", gained=gained))
    ev.append(event("paid", Msg("Getting paid: +{pay} cash ({gained} reputation from objectives last turn ÷ 2, "
                                "rounded down): cash {cash}.", pay=pay, gained=gained, cash=s.cash),
                    gained=gained, pay=pay, cash=s.cash))


def _secondary_income(s: State, a: SecondaryIncome, dice: Dice, ev: Events) -> None:
    typed = a.source.strip()[:40]
    source: Text = typed or Msg("cards in play")
    post(s, ev, "cash", a.amount, Msg("Secondary income: {source}", source=source))
    ev.append(event("income", Msg("Secondary income from {source}: +{amount} cash: cash {cash}.", source=source,
                                  amount=a.amount, cash=s.cash),
                    amount=a.amount, source=typed or source.english, cash=s.cash))


def _upkeeps(cards: list[Card]) -> str:
    return ", ".join(f"{c.name} {c.upkeep}" for c in cards)


def _payroll(s: State, a: Payroll, dice: Dice, ev: Events) -> None:
    bill = payroll_bill(s)
    unpaid_ids = _ids(a.unpaid, Msg("The unpaid list"))
    for cid in unpaid_ids:
        if _card(s, cid).upkeep == 0:
            raise RuleError(Msg("{name} has no upkeep to leave unpaid.", name=_card(s, cid).name))
    paid = [c for c in bill if c.id not in unpaid_ids]
    unpaid = [c for c in bill if c.id in unpaid_ids]
    total = sum(c.upkeep for c in paid)
    if total > s.cash:
        listing = ", ".join(f"{c.name} ({c.upkeep})" for c in paid)
        raise RuleError(Msg("Cash {cash} can't cover upkeep {total}. Choose which cards go unpaid (they are trashed): "
                            "{cards}.", cash=s.cash, total=total, cards=listing))
    left = s.cash - total
    for c in unpaid:  # only cards you cannot pay are trashed
        if c.upkeep <= left:
            raise RuleError(Msg("You can still pay {name}'s upkeep {upkeep} from the {left} cash left; only cards you "
                                "can't pay are trashed.", name=c.name, upkeep=c.upkeep, left=left))
    s.step_done = True
    if not bill:
        ev.append(event("payroll", Msg("Payroll: no card in play charges upkeep."), total=0, paid=[], cash=s.cash))
        return
    for c in paid:
        post(s, ev, "cash", -c.upkeep, Msg("Upkeep: {name}", name=c.name))
    if paid:
        ev.append(event("payroll", Msg("Payroll: paid {total} upkeep ({cards}): cash {cash}.", total=total,
                                       cards=_upkeeps(paid), cash=s.cash),
                        total=total, paid=[c.id for c in paid], cash=s.cash))
    for c in unpaid:
        s.cards.remove(c)
        ev.append(event("unpaid_trashed", Msg("{name} unpaid (upkeep {upkeep}, cash {cash}): trashed.", name=c.name,
                                              upkeep=c.upkeep, cash=s.cash),
                        card_id=c.id, name=c.name, upkeep=c.upkeep))


def _charge_interest(s: State, a: ChargeInterest, dice: Dice, ev: Events) -> None:
    s.step_done = True
    debt = s.debt
    rate = interest_rate(s.reputation)
    why_rate = (Msg("rate {rate}% = 1% per reputation point", rate=rate) if s.reputation > 10 else
                Msg("rate 10%, the minimum, as reputation is {reputation}", reputation=s.reputation))
    charge = interest_charge(rate, debt)
    if charge == 0:
        ev.append(event("interest", Msg("No debt left: no interest this turn."), rate=rate, debt=debt, charge=0,
                        sums="", interest=s.interest))
        return
    sums = interest_sums(rate, debt)
    post(s, ev, "interest", charge, Msg("Interest: {sums}", sums=sums))
    ev.append(event("interest", Msg("Interest +{charge}: {sums} ({why}). Interest owed {interest}; total debt {debt}.",
                                    charge=charge, sums=sums, why=why_rate, interest=s.interest, debt=s.debt),
                    rate=rate, debt=debt, charge=charge, sums=sums.english, interest=s.interest))


def _roll_payment_due(s: State, a: RollPaymentDue, dice: Dice, ev: Events) -> None:
    debt = s.debt
    faces = payment_due_faces(debt)
    outcomes = payment_due_outcomes(debt)
    face: Optional[int] = None
    if faces == 6:
        s.payment_due = True
        text = Msg("Payment due: total debt {debt} is 40 or more, so payment is always due.", debt=debt)
    else:
        face = throw_one(dice, Msg("the payment-due roll (total debt {debt})", debt=debt), outcomes=outcomes)
        s.payment_due = face <= faces
        band = f"{debt // 10 * 10}–{debt // 10 * 10 + 9}"
        text = (Msg("Payment due? Total debt {debt} ({band}): {odds}. Rolled {face}: due.", debt=debt, band=band,
                    odds=outcomes[0].label, face=face) if s.payment_due else
                Msg("Payment due? Total debt {debt} ({band}): {odds}. Rolled {face}: not due.", debt=debt, band=band,
                    odds=outcomes[0].label, face=face))
    ev.append(event("payment_roll", text, debt=debt, due_on=faces, face=face, due=s.payment_due))
    if not s.payment_due:
        s.step_done = True
    elif s.interest == 0:
        s.step_done = True
        ev.append(event("nothing_owed", Msg("No interest is owed, so there is nothing to pay.")))
    else:
        ev.append(event("payment_wanted", Msg("Pay the {interest} interest now, or lose reputation for what you don't "
                                              "pay.", interest=s.interest), interest=s.interest))


def _pay_interest(s: State, a: PayInterest, dice: Dice, ev: Events) -> None:
    need = max(0, s.interest - s.cash)
    ids = _ids(a.cash_in_ids, Msg("The cashed-in cards"))
    cards = [_card(s, cid) for cid in ids]
    if a.cash_in + len(cards) > need:
        raise RuleError(Msg("Only {need} more Nuyen is needed: cash in at most {need} card(s).", need=need))
    cashed = a.cash_in + len(cards)
    if cashed:
        names = joined([c.name for c in cards] + ([Msg("{n} card(s)", n=a.cash_in)] if a.cash_in else []))
        post(s, ev, "cash", cashed, Msg("Cashed in {cards} at 1 Nuyen each", cards=names))
        for c in cards:
            s.cards.remove(c)
        ev.append(event("cashed_in", Msg("Cashed in {cards}: +{amount} cash.", cards=names, amount=cashed),
                        amount=cashed, card_ids=ids, cards_from_hand=a.cash_in))
    owed = s.interest
    paid = min(owed, s.cash)
    post(s, ev, "cash", -paid, Msg("Interest paid to the loan shark"))
    post(s, ev, "interest", -paid, Msg("Interest paid"))
    short = owed - paid
    s.step_done = True
    if short:
        post(s, ev, "reputation", -short, Msg("Interest payment {short} short (still owed)", short=short))
        text = Msg("Paid {paid} of {owed} interest; {short} short: reputation −{short} (now {reputation}), and the "
                   "{short} stays owed.", paid=paid, owed=owed, short=short, reputation=s.reputation)
    else:
        text = Msg("Paid all {paid} interest: cash {cash}, interest 0.", paid=paid, cash=s.cash)
    ev.append(event("interest_paid", text, paid=paid, owed=owed, short=short, cash=s.cash, reputation=s.reputation))


def _refuse_payment(s: State, a: RefusePayment, dice: Dice, ev: Events) -> None:
    owed = s.interest
    s.step_done = True
    post(s, ev, "reputation", -owed, Msg("Refused to pay {owed} interest (still owed)", owed=owed))
    ev.append(event("payment_refused", Msg("Refused to pay {owed} interest: reputation −{owed} (now {reputation}); "
                                           "the {owed} stays owed and keeps compounding.", owed=owed,
                                           reputation=s.reputation), owed=owed, reputation=s.reputation))


def _deploy(s: State, a: Deploy, dice: Dice, ev: Events) -> None:
    name = _name(a.name, Msg("A card's name"))
    if a.card_type != "other":
        require_range(Msg("Body"), a.body, 1, 30)  # a runner, spirit or drone has a body
    if a.card_type == "runner" and len(_runners(s)) >= MAX_RUNNERS:
        raise RuleError(Msg("At most {n} runners may be in play.", n=MAX_RUNNERS))
    if a.cost > s.cash:
        raise RuleError(Msg("{name} costs {cost} but you have {cash} cash.", name=name, cost=a.cost, cash=s.cash))
    post(s, ev, "cash", -a.cost, Msg("Deployed {name}", name=name))
    s.cards.append(Card(id=s.next_id, name=name, card_type=a.card_type, cost=a.cost, upkeep=a.upkeep,
                        body=a.body, armor=a.armor))
    s.next_id += 1
    ev.append(event("deployed", Msg("Deployed {name} ({type}) for {cost}: cash {cash}.", name=name,
                                    type=marked(a.card_type), cost=a.cost, cash=s.cash),
                    card_id=s.next_id - 1, name=name, card_type=a.card_type, cost=a.cost, cash=s.cash))


def _spend(s: State, a: Spend, dice: Dice, ev: Events) -> None:
    if a.item == "chipjack":
        if not s.settings.chipjacks:
            raise RuleError(Msg("The Chipjacks optional rule is off in this campaign's settings."))
        if s.chipjacks_bought >= s.skillsofts_bought:
            raise RuleError(Msg("A chipjack is bought together with a Skillsoft played this Legwork phase."))
    if a.amount > s.cash:
        raise RuleError(Msg("That costs {amount} but you have {cash} cash.", amount=a.amount, cash=s.cash))
    typed = a.what.strip()[:40]
    what: Text = typed or marked(a.item)
    post(s, ev, "cash", -a.amount, Msg("Bought {what}", what=what))
    if a.item == "skillsoft":
        s.skillsofts_bought += 1
    if a.item == "chipjack":
        s.chipjacks_bought += 1
    ev.append(event("spent", Msg("Paid {amount} for {what}: cash {cash}.", amount=a.amount, what=what, cash=s.cash),
                    amount=a.amount, item=a.item, what=typed or a.item, cash=s.cash))


def _run_errand(s: State, a: RunErrand, dice: Dice, ev: Events) -> None:
    card = _card(s, a.card_id)
    if card.card_type != "runner":
        raise RuleError(Msg("{name} is not a runner; only runners run errands.", name=card.name))
    if card.turned:
        raise RuleError(Msg("{name} is turned; only an unturned runner can run an errand.", name=card.name))
    card.turned = True
    face = throw_one(dice, Msg("{name}'s errand", name=card.name), outcomes=ERRAND_OUTCOMES)
    earned = 0 if face == 1 else face if face < 6 else None  # None: the choice on a 6 is still to make
    if face == 1:
        text = Msg("{name} runs an errand: rolled 1, nothing earned.", name=card.name)
    elif face < 6:
        post(s, ev, "cash", face, Msg("Errand by {name}: rolled {face}", name=card.name, face=face))
        text = Msg("{name} runs an errand: rolled {face}, +{face} cash: cash {cash}.", name=card.name, face=face,
                   cash=s.cash)
    else:
        s.pending_errand = card.id
        text = Msg("{name} runs an errand: rolled 6! Take 6 Nuyen, or roll two more dice and take their total.",
                   name=card.name)
    ev.append(event("errand", text, card_id=card.id, name=card.name, face=face, earned=earned, cash=s.cash))


def _take_six(s: State, a: TakeSix, dice: Dice, ev: Events) -> None:
    card = _card(s, s.pending_errand)  # type: ignore[arg-type]
    s.pending_errand = None
    post(s, ev, "cash", 6, Msg("Errand by {name}: took the 6", name=card.name))
    ev.append(event("errand_six", Msg("{name} takes the 6: +6 cash: cash {cash}.", name=card.name, cash=s.cash),
                    card_id=card.id, name=card.name, choice="take_six", faces=[], earned=6, cash=s.cash))


def _roll_two(s: State, a: RollTwo, dice: Dice, ev: Events) -> None:
    card = _card(s, s.pending_errand)  # type: ignore[arg-type]
    faces = throw(dice, 2, Msg("{name}'s errand: two more dice after the 6", name=card.name),
                  outcomes=TWO_MORE_OUTCOMES)
    s.pending_errand = None
    total = sum(faces)
    post(s, ev, "cash", total, Msg("Errand by {name}: rolled 6, then {first} + {second}", name=card.name,
                                   first=faces[0], second=faces[1]))
    ev.append(event("errand_six", Msg("{name} rolls two more: {first} + {second} = {total}: +{total} cash: cash {cash}.",
                                      name=card.name, first=faces[0], second=faces[1], total=total, cash=s.cash),
                    card_id=card.id, name=card.name, choice="roll_two", faces=faces, earned=total, cash=s.cash))


def _sell_cards(s: State, a: SellCards, dice: Dice, ev: Events) -> None:
    post(s, ev, "cash", a.count, Msg("Sold {count} card(s) at 1 Nuyen each", count=a.count))
    ev.append(event("cards_sold", NMsg("Sold {n} card at 1 Nuyen each: +{n} cash: cash {cash}.",
                                       "Sold {n} cards at 1 Nuyen each: +{n} cash: cash {cash}.", a.count, cash=s.cash), count=a.count, cash=s.cash))


def _pay_off(s: State, a: PayOff, dice: Dice, ev: Events) -> None:
    total = a.loan + a.interest
    if total == 0:
        raise InputError(Msg("Pay at least 1 Nuyen off the loan or the interest."))
    if total > s.cash:
        raise RuleError(Msg("Paying {total} needs {total} cash; you have {cash}.", total=total, cash=s.cash))
    post(s, ev, "cash", -total, Msg("Paid off debt"))
    post(s, ev, "loan", -a.loan, Msg("Paid off loan"))
    post(s, ev, "interest", -a.interest, Msg("Paid off interest"))
    if a.loan and a.interest:
        paid = Msg("{loan} off the loan and {interest} off the interest", loan=a.loan, interest=a.interest)
    elif a.loan:
        paid = Msg("{loan} off the loan", loan=a.loan)
    else:
        paid = Msg("{interest} off the interest", interest=a.interest)
    ev.append(event("paid_off", Msg("Paid {paid}: cash {cash}, loan {loan}, interest {interest}, total debt {debt}.",
                                    paid=paid, cash=s.cash, loan=s.loan, interest=s.interest, debt=s.debt),
                    loan=a.loan, interest=a.interest, cash=s.cash, loan_left=s.loan, interest_left=s.interest,
                    debt=s.debt))


def _heal(s: State, a: Heal, dice: Dice, ev: Events) -> None:
    card = _card(s, a.card_id)
    if card.turned:
        raise RuleError(Msg("{name} is turned; healing turns an unturned card.", name=card.name))
    if card.damage == 0:
        raise RuleError(Msg("{name} has no damage to heal.", name=card.name))
    healed, card.damage, card.turned = card.damage, 0, True
    ev.append(event("healed", Msg("{name} turns to heal: all {healed} damage removed.", name=card.name, healed=healed),
                    card_id=card.id, name=card.name, healed=healed))


def _start_run(s: State, a: StartRun, dice: Dice, ev: Events) -> None:
    objective = _objective(s, a.objective_id)
    team = [_card(s, cid) for cid in _ids(a.team, Msg("The team"))]
    runners = [c for c in team if c.card_type == "runner"]
    if not runners:
        raise RuleError(Msg("Pick at least one runner for the team."))
    if len(runners) > MAX_RUNNERS:
        raise RuleError(Msg("At most {n} runners go on a run (spirits and drones don't count); you picked {picked}.",
                            n=MAX_RUNNERS, picked=len(runners)))
    for c in team:
        if c.card_type == "other":
            raise RuleError(Msg("{name} is not a runner, spirit or drone.", name=c.name))
        if c.turned:
            raise RuleError(Msg("{name} is turned; only unturned cards go on a run.", name=c.name))
        c.turned = True
    draws = event_draws(s.reputation)
    s.run = Run(objective_id=objective.id, team=[c.id for c in team], events_to_draw=draws)
    s.run_taken = True
    rep_note = (Msg("reputation {reputation} counts as 0", reputation=s.reputation) if s.reputation < 0
                else Msg("reputation {reputation}", reputation=s.reputation))
    ev.append(event("run_started", NMsg("Shadowrun on {name} ({rep} rep, {n} challenge) with {team}.",
                                        "Shadowrun on {name} ({rep} rep, {n} challenges) with {team}.",
                                        objective.challenges, name=objective.name, rep=objective.rep,
                                        team=", ".join(c.name for c in team)),
                    objective_id=objective.id, name=objective.name, team=[c.id for c in team],
                    challenges=objective.challenges))
    ev.append(event("event_draws", Msg("Draw {draws} event card(s): 1 + 1 per full 10 reputation ({note}).",
                                       draws=draws, note=rep_note), draws=draws, reputation=s.reputation))


def _draw_event(s: State, a: DrawEvent, dice: Dice, ev: Events) -> None:
    run = s.run
    assert run is not None
    number = run.events_drawn + 1
    label = Msg("Event {number} of {of} (cost {cost})", number=number, of=run.events_to_draw, cost=a.cost)
    outcomes = event_outcomes(a.cost)
    face: Optional[int] = None
    if len(outcomes) == 1:  # a cost of 0 or 1, or above 6: no die can change it
        played = a.cost <= 1
        text = Msg("{event}: {outcome}.", event=label, outcome=outcomes[0].label)
    else:
        face = throw_one(dice, Msg("event {number} of {of} (cost {cost})", number=number, of=run.events_to_draw,
                                   cost=a.cost), outcomes=outcomes)
        played = face >= a.cost
        text = (Msg("{event}: rolled {face}, ≥ {cost}: played.", event=label, face=face, cost=a.cost) if played else
                Msg("{event}: rolled {face}, below {cost}: not played.", event=label, face=face, cost=a.cost))
    run.events_drawn = number
    ev.append(event("event_drawn", text, number=number, of=run.events_to_draw, cost=a.cost, face=face, played=played))


def _pump(s: State, a: Pump, dice: Dice, ev: Events) -> None:
    # Decision: "on a 6 roll again and add" is read literally: one extra die, not an open-ended chain.
    # The second die is a roll of its own: a table rolling physical dice is asked for it after the 6.
    first = throw_one(dice, Msg("the pumped cost"), outcomes=PUMP_OUTCOMES)
    if first < 6:
        ev.append(event("pumped", Msg("Pumped: rolled {face}: {face} Nuyen.", face=first), faces=[first], total=first))
        return
    second = throw_one(dice, Msg("the pumped cost: the die after the 6"), outcomes=PUMP_AGAIN_OUTCOMES)
    ev.append(event("pumped", Msg("Pumped: rolled 6, rolled again {face}: {total} Nuyen.", face=second,
                                  total=6 + second), faces=[first, second], total=6 + second))


def _pick_random(s: State, a: PickRandom, dice: Dice, ev: Events) -> None:
    options = [_name(o, Msg("An option")) for o in a.options]
    require_range(Msg("Number of options"), len(options), 1, 20)
    if len(options) == 1:
        ev.append(event("random_pick", Msg("Random target: {picked} is the only option.", picked=options[0]),
                        options=options, face=None, picked=options[0]))
        return
    die = pick_die(options)
    face = throw_one(dice, Msg("a random target among {options}", options=_names(options)), die=die,
                     outcomes=pick_outcomes(die))
    ev.append(event("random_pick", Msg("Random target among {options}: {picked}.", options=", ".join(options),
                                       picked=options[face - 1]),
                    options=options, face=face, picked=options[face - 1]))


def _trash_challenge(s: State, a: TrashChallenge, dice: Dice, ev: Events) -> None:
    objective = run_target(s)
    assert objective is not None
    objective.challenges -= 1
    ev.append(event("challenge_trashed", Msg("Challenge trashed from {name}: {left} left.", name=objective.name,
                                             left=objective.challenges),
                    objective_id=objective.id, name=objective.name, left=objective.challenges))


def _start_damage(s: State, a: StartDamage, dice: Dice, ev: Events) -> None:
    n = hit_dice(a.amount)
    s.damage = Damage(total=a.amount, left=a.amount, dice=n, armor_piercing=a.armor_piercing)
    text = (Msg("{amount} armor-piercing damage to allocate: each hit is {dice}d6 (one die per full 6 of damage, at "
                "least one). Pick who takes the first hit.", amount=a.amount, dice=n) if a.armor_piercing else
            Msg("{amount} damage to allocate: each hit is {dice}d6 (one die per full 6 of damage, at least one). Pick "
                "who takes the first hit.", amount=a.amount, dice=n))
    ev.append(event("damage_started", text, amount=a.amount, armor_piercing=a.armor_piercing, dice=n))


def _take_hit(s: State, a: TakeHit, dice: Dice, ev: Events) -> None:
    dmg = s.damage
    assert dmg is not None
    card = _card(s, a.card_id)
    candidates = hit_candidates(s)
    if card not in candidates:
        names = ", ".join(c.name for c in candidates)
        raise RuleError(Msg("{name} can't take this hit; choose one of: {names} (each takes a hit per pass).",
                            name=card.name, names=names))
    faces = throw(dice, dmg.dice, Msg("the hit on {name} ({left} damage left)", name=card.name, left=dmg.left),
                  outcomes=hit_outcomes(dmg, card))
    if all(c.id in dmg.hit_this_pass for c in _living_team(s)):
        dmg.hit_this_pass = []  # everyone left has taken a hit and damage remains: a new pass
    rolled = sum(faces)
    hit = min(rolled, dmg.left)  # a hit never deals more than the damage left…
    dmg.left -= hit
    # Decision: armor reduces what the character takes, not what the hit uses up (else an armored
    # character could absorb hits forever): damage armor stops still uses up the challenge's damage pool
    # (RULES.md's allocator: "a hit never deals more than the damage left"; issue #30 item 17).
    armor = 0 if dmg.armor_piercing else card.armor
    taken = max(0, hit - armor)
    card.damage += taken  # …but the character takes the whole hit, even beyond its body
    dmg.hit_this_pass.append(card.id)
    sums: Text = (Msg("rolled {faces} = {total}", faces=fmt_dice(faces), total=rolled) if len(faces) > 1
                  else Msg("rolled {faces}", faces=fmt_dice(faces)))
    if hit < rolled:
        sums = Msg("{sums}, only {hit} left to deal", sums=sums, hit=hit)
    if armor:
        sums = Msg("{sums}, armor {armor} stops {stopped}", sums=sums, armor=armor, stopped=min(armor, hit))
    ev.append(event("hit", Msg("{name} takes the hit: {sums}: {taken} damage (now {damage} of body {body}).",
                               name=card.name, sums=sums, taken=taken, damage=card.damage, body=card.body),
                    card_id=card.id, name=card.name, faces=faces, hit=hit, armor=armor,
                    taken=taken, damage=card.damage, body=card.body, left=dmg.left))
    if card.damage >= card.body:
        _dies(s, card, ev, Msg("{damage} damage ≥ body {body}", damage=card.damage, body=card.body))
    if dmg.left == 0:
        s.damage = None
        ev.append(event("damage_done", Msg("All the damage is allocated."), lost=0))
    elif not _living_team(s):
        s.damage = None
        ev.append(event("damage_done", Msg("Nobody on the run is left; the last {left} damage falls on no one.",
                                           left=dmg.left), lost=dmg.left))
    else:
        ev.append(event("damage_left", Msg("{left} damage left: pick who takes the next hit.", left=dmg.left),
                        left=dmg.left))


def _dies(s: State, card: Card, ev: Events, why: Msg) -> None:
    """A runner, spirit or drone dies (with its gear): lose reputation equal to its Nuyen cost."""
    s.cards.remove(card)
    if s.run is not None and card.id in s.run.team:
        s.run.team.remove(card.id)
    post(s, ev, "reputation", -card.cost, Msg("{name} died (cost {cost})", name=card.name, cost=card.cost))
    ev.append(event("died", Msg("{name} dies ({why}) and is trashed with its gear: reputation −{cost} (its Nuyen cost), "
                                "now {reputation}.", name=card.name, why=why, cost=card.cost, reputation=s.reputation),
                    card_id=card.id, name=card.name, cost=card.cost, reputation=s.reputation))


def _complete_objective(s: State, a: CompleteObjective, dice: Dice, ev: Events) -> None:
    objective = run_target(s)
    assert objective is not None
    s.objectives.remove(objective)
    s.run = None
    s.rep_from_objectives_this_turn += objective.rep
    post(s, ev, "reputation", objective.rep, Msg("Completed {name}", name=objective.name))
    pay = johnson_pay(objective.rep)
    ev.append(event("objective_taken", Msg("Objective {name} taken: reputation +{rep} (now {reputation}). The team "
                                           "returns to the safehouse; Mr Johnson pays {pay} next Credstick phase (half "
                                           "of the reputation, rounded down).", name=objective.name, rep=objective.rep,
                                           reputation=s.reputation, pay=pay),
                    objective_id=objective.id, name=objective.name, rep=objective.rep, reputation=s.reputation,
                    pay_next_turn=pay))


def _end_run(s: State, a: EndRun, dice: Dice, ev: Events) -> None:
    objective = run_target(s)
    assert objective is not None
    s.run = None
    ev.append(event("run_ended", Msg("The run on {name} is over; the team returns to the safehouse, still turned.",
                                     name=objective.name), objective_id=objective.id, name=objective.name))


def _check_victory(s: State, a: CheckVictory, dice: Dice, ev: Events) -> None:
    s.step_done = True
    target = s.settings.target_reputation
    missing = [words for words, holds in victory_checks(s) if not holds]
    if not missing:
        s.result, s.phase = WON, "over"
        ev.append(event("victory", Msg("Victory: reputation {reputation} ≥ target {target}, loan 0, interest 0. Your "
                                       "runners retire outside the sprawl.", reputation=s.reputation, target=target),
                        reputation=s.reputation, target=target))
        return
    ev.append(event("not_won", Msg("Not won yet: {missing}.", missing=joined(missing)), reputation=s.reputation,
                    target=target, loan=s.loan, interest=s.interest))
    outcomes = survival_outcomes(s.reputation)
    if not outcomes:
        return
    lose = min(6, -s.reputation)
    face: Optional[int] = None
    if len(outcomes) == 1:  # −6 or lower: no face survives, no die is rolled
        lost = True
        text = Msg("Reputation {reputation}: no d6 can beat {lose}. The loan shark's enforcer ends your career: game "
                   "lost.", reputation=s.reputation, lose=lose)
    else:
        face = throw_one(dice, Msg("the survival roll (reputation {reputation})", reputation=s.reputation),
                         outcomes=outcomes)
        lost = face <= lose
        text = (Msg("Reputation {reputation} is below 0: rolled {face} ≤ {lose}. The loan shark's enforcer ends your "
                    "career: game lost.", reputation=s.reputation, face=face, lose=lose) if lost else
                Msg("Reputation {reputation} is below 0: rolled {face} > {lose}: you survive this turn.",
                    reputation=s.reputation, face=face, lose=lose))
    if lost:
        s.result, s.phase = LOST, "over"
    ev.append(event("survival", text, reputation=s.reputation, face=face, lost=lost))


def _adjust(s: State, a: Adjust, dice: Dice, ev: Events) -> None:
    reason = _name(a.reason, Msg("The reason"))
    if a.amount == 0:
        raise InputError(Msg("An adjustment must be between -100 and 100 and not 0."))
    post(s, ev, a.account, a.amount, Msg("Card effect: {reason}", reason=reason))
    balance = getattr(s, a.account)
    ev.append(event("adjusted", Msg("{account} {amount} ({reason}): now {balance}.", account=ACCOUNT_TITLES[a.account],
                                    amount=f"{a.amount:+d}", reason=reason, balance=balance),
                    account=a.account, amount=a.amount, reason=reason, balance=balance))


def _set_turned(s: State, a: SetTurned, dice: Dice, ev: Events) -> None:
    card = _card(s, a.card_id)
    card.turned = a.turned
    ev.append(event("turned", Msg("{name} is now turned.", name=card.name) if a.turned
                    else Msg("{name} is now unturned.", name=card.name),
                    card_id=card.id, name=card.name, turned=a.turned))


def _remove_card(s: State, a: RemoveCard, dice: Dice, ev: Events) -> None:
    card = _card(s, a.card_id)
    if a.died:
        _dies(s, card, ev, Msg("killed"))
        return
    s.cards.remove(card)
    if s.run is not None and card.id in s.run.team:
        s.run.team.remove(card.id)
    ev.append(event("trashed", Msg("{name} is trashed.", name=card.name), card_id=card.id, name=card.name))


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
        raise NeedDice(Chance(count=1, die=d(sides), why=Msg("a roll")))


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


def required_now(s: State) -> Optional[Any]:
    """The action the current step requires of the table now (None: nothing is required)."""
    return _required_now(s)


def _why_it_passes(s: State) -> Optional[Msg]:
    """Why the turn may leave its current step with nothing for the table to do (None: it may not)."""
    if s.pending_errand is not None or s.damage is not None:
        return None
    phase, done = s.phase, s.step_done
    if phase == "objective" and done:
        return Msg("challenges placed as listed, nothing to choose")
    if phase == "paid" and done:
        pay = johnson_pay(s.rep_from_objectives_last_turn)
        return Msg("+{pay} collected", pay=pay) if pay else Msg("+0, nothing to collect")
    if phase == "payroll" and done:
        return Msg("upkeep {upkeep} paid, cash covered it", upkeep=upkeep_due(s)) if payroll_bill(s) else Msg("no upkeep due")
    if phase == "interest" and done:
        return Msg("interest charged, nothing to choose")
    if phase == "payment":
        # Decision: with no interest owed the payment-due roll changes nothing, so it isn't asked for.
        if s.payment_due is None and s.interest == 0:
            return Msg("no interest owed, nothing to pay (no roll needed)")
        if s.payment_due is False:
            return Msg("not due this turn")
        return Msg("the payment is settled") if done else None
    if phase == "shadowrun" and s.run is None:
        if s.run_taken:
            return Msg("the run for this turn is over")
        if not s.objectives:
            return Msg("no objective in play, no run")
        return None if any(not c.turned for c in _runners(s)) else Msg("no unturned runner, no run")
    if phase == "victory" and done:
        return Msg("not won yet, and you survive the roll") if s.reputation < 0 else Msg("not won yet, no roll to make")
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
        ev.append(event("step_passed", Msg("{phase}: {why} — passed.", phase=PHASE_TITLES[s.phase], why=why),
                        phase=s.phase, why=why.english))
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


def describe(action: Action) -> Msg:
    """A few words for the undo button and the history ("interest", "deploy Dodger (3)")."""
    a = action
    words: dict[str, Callable[[], Msg]] = {
        "advance": lambda: Msg("next phase"),
        "add_objective": lambda: Msg("objective {name} ({rep} rep)", name=a.name, rep=a.rep),
        "discard_objective": lambda: Msg("discard an objective"),
        "refresh_challenges": lambda: Msg("refresh challenges"),
        "take_nuyen": lambda: Msg("take {count} Nuyen", count=a.count),
        "roll_luck": lambda: Msg("Luck of the Draw"),
        "get_paid": lambda: Msg("get paid"),
        "secondary_income": lambda: Msg("income +{amount}", amount=a.amount),
        "payroll": lambda: Msg("payroll"),
        "charge_interest": lambda: Msg("interest"),
        "roll_payment_due": lambda: Msg("payment-due roll"),
        "pay_interest": lambda: Msg("pay interest"),
        "refuse_payment": lambda: Msg("refuse payment"),
        "deploy": lambda: Msg("deploy {name} ({cost})", name=a.name, cost=a.cost),
        "spend": lambda: Msg("spend {amount}", amount=a.amount),
        "run_errand": lambda: Msg("errand"),
        "take_six": lambda: Msg("errand: take 6"),
        "roll_two": lambda: Msg("errand: roll two more"),
        "sell_cards": lambda: NMsg("sell {n} card", "sell {n} cards", a.count),
        "pay_off": lambda: Msg("pay off {amount}", amount=a.loan + a.interest),
        "heal": lambda: Msg("heal"),
        "start_run": lambda: Msg("start a Shadowrun"),
        "draw_event": lambda: Msg("event (cost {cost})", cost=a.cost),
        "pump": lambda: Msg("pump"),
        "pick_random": lambda: Msg("random target"),
        "trash_challenge": lambda: Msg("trash a challenge"),
        "start_damage": lambda: Msg("{amount} damage", amount=a.amount),
        "take_hit": lambda: Msg("take a hit"),
        "complete_objective": lambda: Msg("take the objective"),
        "end_run": lambda: Msg("end the run"),
        "check_victory": lambda: Msg("victory check"),
        "adjust": lambda: Msg("{account} {amount}", account=marked(a.account), amount=f"{a.amount:+d}"),
        "set_turned": lambda: Msg("turn") if a.turned else Msg("untap"),
        "remove_card": lambda: Msg("card dies") if a.died else Msg("trash a card"),
    }
    return words[a.kind]()


def headline(state: State) -> Msg:
    if state.phase == "over":
        return Msg("Turn {turn} · {result}", turn=state.turn, result=RESULTS.get(state.result or "", str(state.result)))
    if state.phase == "setup":
        return PHASE_TITLES["setup"]
    return Msg("Turn {turn} · {phase}", turn=state.turn, phase=PHASE_TITLES[state.phase])


def outcome(state: State) -> Optional[Msg]:
    return None if state.result is None else RESULTS[state.result]


GAME = Game(
    key="shadowrun",
    title="Shadowrun: Singularis",
    summary=Msg("Solitaire Shadowrun TCG: the loan, interest, cash and reputation ledger and the turn helper."),
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
