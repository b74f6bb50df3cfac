"""Shadowrun: Singularis (solitaire rules for Shadowrun: The Trading Card Game), RULES.md §2.

The cards stay on the table. The app keeps the loan, cash, interest and reputation right (every
change is a ledger line: see `ledger.post`), walks the turn phase by phase, and makes the rolls the
book asks for: Luck of the Draw, tie-breaks, payment due, errands, events, damage, survival.

Read top to bottom: the numbers of the game (pure formulas), settings, state, actions, which actions
each phase allows (`legal_actions`), then one handler per action, then `apply`.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Annotated, Any, Callable, Literal, Optional, Union

from pydantic import Field, StringConstraints

from companion.games.base import Dice, Game, InputError, Model, RuleError, ceil_div, fmt_dice, require_range
from companion.games.shadowrun.ledger import Account, Line, post

# --- The numbers of the game ------------------------------------------------------------------------

Difficulty = Literal["easy", "normal", "hard", "extreme"]
EXTRA_CHALLENGES: dict[str, int] = {"easy": 0, "normal": 1, "hard": 2, "extreme": 3}
MAX_RUNNERS = 6  # in play at any time, and on one Shadowrun (spirits and drones don't count)
HAND_SIZE = 7
OBJECTIVES_IN_PLAY = 3


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


def payment_due_faces(debt: int) -> int:
    """Payment is due on a d6 roll of 1..this: 0–9 → 2, 10–19 → 3, 20–29 → 4, 30–39 → 5, 40+ → 6."""
    return min(6, 2 + debt // 10)


def payment_due_odds(debt: int) -> Fraction:
    return Fraction(payment_due_faces(debt), 6)


def event_draws(reputation: int) -> int:
    """Events drawn on a Shadowrun: 1 + one per full 10 reputation (below 0 counts as 0)."""
    return 1 + max(0, reputation) // 10


def event_played_odds(cost: int) -> Fraction:
    """An event is played on a d6 ≥ its Nuyen cost; cost 0 or 1 always."""
    return Fraction(max(0, min(6, 7 - max(cost, 1))), 6)


def hit_dice(total_damage: int) -> int:
    """Dice per hit: one per complete 6 of the challenge's damage, at least one (1–11 → 1, 12–17 → 2)."""
    return max(1, total_damage // 6)


def survival_loss_odds(reputation: int) -> Fraction:
    """Chance the Victory/Failure roll ends the game: a d6 ≤ |reputation| when reputation < 0."""
    return Fraction(min(6, -reputation), 6) if reputation < 0 else Fraction(0)


def _decimal(hundredths: int) -> str:
    """4.4 from 440, exactly, without floats."""
    whole, frac = divmod(hundredths, 100)
    return str(whole) if frac == 0 else f"{whole}.{frac:02d}".rstrip("0")


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
    ledger: list[Line] = Field(default_factory=list)
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

    @property
    def debt(self) -> int:
        return self.loan + self.interest


def new_state(settings: Settings) -> State:
    state = State(settings=settings)
    post(state, "loan", settings.loan, "Starting loan from the loan shark")
    post(state, "cash", settings.loan, "Starting cash: the loan paid out")
    return state


# --- Actions -------------------------------------------------------------------------------------------


class Advance(Model):
    """Go on to the next phase (or step of the Credstick phase)."""

    kind: Literal["advance"] = "advance"


class AddObjective(Model):
    kind: Literal["add_objective"] = "add_objective"
    name: str
    rep: int


class DiscardObjective(Model):
    kind: Literal["discard_objective"] = "discard_objective"
    objective_id: int


class RefreshChallenges(Model):
    kind: Literal["refresh_challenges"] = "refresh_challenges"


class TakeNuyen(Model):
    kind: Literal["take_nuyen"] = "take_nuyen"
    count: int = 1


class RollLuck(Model):
    kind: Literal["roll_luck"] = "roll_luck"


class GetPaid(Model):
    kind: Literal["get_paid"] = "get_paid"


class SecondaryIncome(Model):
    kind: Literal["secondary_income"] = "secondary_income"
    amount: int
    source: str = ""


class Payroll(Model):
    """Pay all upkeep; `unpaid` names the cards the player leaves unpaid when cash runs short."""

    kind: Literal["payroll"] = "payroll"
    unpaid: list[int] = Field(default_factory=list)


class ChargeInterest(Model):
    kind: Literal["charge_interest"] = "charge_interest"


class RollPaymentDue(Model):
    kind: Literal["roll_payment_due"] = "roll_payment_due"


class PayInterest(Model):
    """Pay the interest due; cards may be cashed in at 1 Nuyen each (untracked ones by count)."""

    kind: Literal["pay_interest"] = "pay_interest"
    cash_in: int = 0
    cash_in_ids: list[int] = Field(default_factory=list)


class RefusePayment(Model):
    kind: Literal["refuse_payment"] = "refuse_payment"


class Deploy(Model):
    kind: Literal["deploy"] = "deploy"
    name: str
    card_type: CardType = "runner"
    cost: int
    upkeep: int = 0
    body: int = 1
    armor: int = 0


class Spend(Model):
    """Pay for gear, a skillsoft (and a chipjack with it), a special card, or anything else."""

    kind: Literal["spend"] = "spend"
    amount: int
    item: Literal["gear", "skillsoft", "chipjack", "special", "other"] = "gear"
    what: str = ""


class RunErrand(Model):
    kind: Literal["run_errand"] = "run_errand"
    card_id: int


class TakeSix(Model):
    kind: Literal["take_six"] = "take_six"


class RollTwo(Model):
    kind: Literal["roll_two"] = "roll_two"


class SellCards(Model):
    kind: Literal["sell_cards"] = "sell_cards"
    count: int = 1


class PayOff(Model):
    kind: Literal["pay_off"] = "pay_off"
    loan: int = 0
    interest: int = 0


class Heal(Model):
    kind: Literal["heal"] = "heal"
    card_id: int


class StartRun(Model):
    kind: Literal["start_run"] = "start_run"
    objective_id: int
    team: list[int]


class DrawEvent(Model):
    kind: Literal["draw_event"] = "draw_event"
    cost: int


class Pump(Model):
    kind: Literal["pump"] = "pump"


class PickRandom(Model):
    kind: Literal["pick_random"] = "pick_random"
    options: list[str]


class TrashChallenge(Model):
    """A challenge on the target objective is sleazed, defeated or a bluff: it leaves the stack."""

    kind: Literal["trash_challenge"] = "trash_challenge"


class StartDamage(Model):
    kind: Literal["start_damage"] = "start_damage"
    amount: int
    armor_piercing: bool = False


class TakeHit(Model):
    kind: Literal["take_hit"] = "take_hit"
    card_id: int


class CompleteObjective(Model):
    kind: Literal["complete_objective"] = "complete_objective"


class EndRun(Model):
    kind: Literal["end_run"] = "end_run"


class CheckVictory(Model):
    kind: Literal["check_victory"] = "check_victory"


class Adjust(Model):
    """A card's effect on loan, cash, interest or reputation the rules don't know (with a reason)."""

    kind: Literal["adjust"] = "adjust"
    account: Account
    amount: int
    reason: str


class SetTurned(Model):
    kind: Literal["set_turned"] = "set_turned"
    card_id: int
    turned: bool


class RemoveCard(Model):
    """Trash a tracked card; `died` = killed outside the allocator (reputation loss = its cost)."""

    kind: Literal["remove_card"] = "remove_card"
    card_id: int
    died: bool = False


Action = Annotated[
    Union[
        Advance, AddObjective, DiscardObjective, RefreshChallenges, TakeNuyen, RollLuck, GetPaid,
        SecondaryIncome, Payroll, ChargeInterest, RollPaymentDue, PayInterest, RefusePayment, Deploy,
        Spend, RunErrand, TakeSix, RollTwo, SellCards, PayOff, Heal, StartRun, DrawEvent, Pump,
        PickRandom, TrashChallenge, StartDamage, TakeHit, CompleteObjective, EndRun, CheckVictory,
        Adjust, SetTurned, RemoveCard,
    ],
    Field(discriminator="kind"),
]

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


def _missing_ranges(state: State) -> list[str]:
    have = {objective_range(o.rep) for o in state.objectives}
    return [r for r in ("≤10", "11–20", "21+") if r not in have]


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
        if kind == "complete_objective" and not any(c.card_type == "runner" for c in _living_team(state)):
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
        missing = _missing_ranges(state)
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


def legal_actions(state: State) -> list[str]:
    """The action kinds allowed now (the UI enables exactly these buttons)."""
    return [kind for kind in ALL_KINDS if why_not(state, kind) is None]


def is_legal(state: State, kind: str) -> bool:
    return why_not(state, kind) is None


# --- Helpers the UI shows -------------------------------------------------------------------------------


def payroll_bill(state: State) -> list[Card]:
    """The cards that charge upkeep, in play order (what 3c lists)."""
    return [c for c in state.cards if c.upkeep > 0]


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


def deck_for(settings: Settings, face: int) -> str:
    return settings.deck_table[face - 1]


def phase_title(phase: str) -> str:
    return PHASE_TITLES[phase]


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


# --- Handlers: one per action, each changing the copied state and saying why --------------------------

Events = list[str]


def _advance(s: State, a: Advance, dice: Dice, ev: Events) -> None:
    leaving = s.phase
    s.phase = NEXT_PHASE[leaving]  # type: ignore[assignment]
    s.step_done = False
    s.payment_due = None
    if leaving in ("setup", "end"):
        s.turn += 1
        s.rep_from_objectives_last_turn = s.rep_from_objectives_this_turn if leaving == "end" else 0
        s.rep_from_objectives_this_turn = 0
        s.run_taken = False
        ev.append(f"Turn {s.turn} begins: {PHASE_TITLES[s.phase]}.")
    else:
        ev.append(f"Turn {s.turn}: {PHASE_TITLES[s.phase]}.")
    if s.phase == "refresh":
        s.nuyen_taken = 0
        untapped = [c.name for c in s.cards if c.turned]
        for c in s.cards:
            c.turned = False
        ev.append(f"Untapped {', '.join(untapped)}." if untapped else "Nothing to untap.")
    if s.phase == "legwork":
        s.skillsofts_bought = s.chipjacks_bought = 0


def _add_objective(s: State, a: AddObjective, dice: Dice, ev: Events) -> None:
    name = _name(a.name, "An objective's name")
    require_range("An objective's reputation value", a.rep, 1, 100)
    band = objective_range(a.rep)
    if s.phase == "setup" and band not in _missing_ranges(s):
        raise RuleError(f"Setup already has an objective worth {band}: discard this one and draw again.")
    count = challenges_for(a.rep)
    s.objectives.append(Objective(id=s.next_id, name=name, rep=a.rep, challenges=count))
    s.next_id += 1
    ev.append(f"Objective {name} ({a.rep} rep): place {count} challenge(s) under it, face down "
              f"(one per 10 rep, rounded up).")


def _discard_objective(s: State, a: DiscardObjective, dice: Dice, ev: Events) -> None:
    objective = _objective(s, a.objective_id)
    if s.run is not None and s.run.objective_id == objective.id:
        raise RuleError("That objective is the target of the run in progress.")
    s.objectives.remove(objective)
    ev.append(f"Objective {objective.name} discarded with its {objective.challenges} challenge(s).")


def _topped_up(o: Objective) -> bool:
    return o.challenges < challenges_for(o.rep)


def _extra_order(objectives: list[Objective], extras: int, roll: Callable[[int], int]) -> list[tuple[Objective, str]]:
    """Where the difficulty's extra challenges go, in order: highest value first; equal values: fewest
    challenges first, then a die (`roll(n)` gives 1..n) among the still-tied ones."""
    order: list[tuple[Objective, str]] = []
    remaining = list(objectives)
    while len(order) < min(extras, len(objectives)):
        top = min(remaining, key=lambda o: (-o.rep, o.challenges))
        same_rep = [o for o in remaining if o.rep == top.rep and o is not top]
        tied = [o for o in remaining if (o.rep, o.challenges) == (top.rep, top.challenges)]
        if len(tied) > 1:
            face = roll(len(tied))
            top = tied[face - 1]
            others = ", ".join(o.name for o in tied if o is not top)
            why = (f"tied with {others} on {top.rep} rep and {top.challenges} challenge(s), so the app rolled "
                   f"a d{len(tied)}: {face} picks it")
        elif same_rep:
            why = f"same {top.rep} rep as {', '.join(o.name for o in same_rep)} but fewest challenges ({top.challenges})"
        else:
            why = "highest value left" if order else "highest value"
        order.append((top, why))
        remaining.remove(top)
    return order


def tie_break_dice(state: State) -> list[int]:
    """The sides of each die "Refresh the challenges" will roll to break full ties, in order (empty:
    no die). Known in advance: a tie's size doesn't depend on which tied objective the die picks."""
    objectives = [o.model_copy(update={"challenges": o.challenges + 1}) if _topped_up(o) else o.model_copy()
                  for o in state.objectives]
    sides: list[int] = []

    def record(n: int) -> int:
        sides.append(n)
        return 1
    _extra_order(objectives, EXTRA_CHALLENGES[state.settings.difficulty], record)
    return sides


def _refresh_challenges(s: State, a: RefreshChallenges, dice: Dice, ev: Events) -> None:
    s.step_done = True
    for o in s.objectives:  # top up: one per objective short of its full complement
        if _topped_up(o):
            o.challenges += 1
            ev.append(f"{o.name} is short of its {challenges_for(o.rep)} challenges: add 1 (now {o.challenges}).")
    extras = EXTRA_CHALLENGES[s.settings.difficulty]
    if extras == 0 or not s.objectives:
        ev.append(f"{s.settings.difficulty.capitalize()}: no extra challenges.")
        return
    # Going down the objectives by value; equal values: fewest challenges first, then a die roll.
    order = _extra_order(s.objectives, extras, dice.roll)
    for k in range(extras):
        target, why = order[k % len(order)]
        target.challenges += 1
        ev.append(f"Extra challenge {k + 1} of {extras} ({s.settings.difficulty}) → {target.name} "
                  f"({target.rep} rep, {why}); now {target.challenges}.")


def _take_nuyen(s: State, a: TakeNuyen, dice: Dice, ev: Events) -> None:
    require_range("Nuyen taken instead of cards", a.count, 1, HAND_SIZE - s.nuyen_taken)
    s.nuyen_taken += a.count
    post(s, "cash", a.count, f"Refresh: {a.count} Nuyen taken instead of drawing")
    ev.append(f"Took {a.count} Nuyen instead of drawing (counts toward your 7 this phase): cash {s.cash}.")


def _roll_luck(s: State, a: RollLuck, dice: Dice, ev: Events) -> None:
    first, second = dice.roll(6), dice.roll(6)
    if first == second:
        ev.append(f"Luck of the Draw: {first} and {second}, doubles: draw from any deck you choose.")
    else:
        ev.append(f"Luck of the Draw: {first} and {second}: draw from {deck_for(s.settings, first)} "
                  f"or {deck_for(s.settings, second)}.")


def _get_paid(s: State, a: GetPaid, dice: Dice, ev: Events) -> None:
    s.step_done = True
    gained = s.rep_from_objectives_last_turn
    pay = gained // 2
    if pay == 0:
        ev.append(f"Getting paid: nothing ({gained} reputation from objectives last turn ÷ 2).")
        return
    post(s, "cash", pay, f"Paid by Mr Johnson: {gained} rep from objectives ÷ 2")
    ev.append(f"Getting paid: +{pay} cash ({gained} reputation from objectives last turn ÷ 2, "
              f"rounded down): cash {s.cash}.")


def _secondary_income(s: State, a: SecondaryIncome, dice: Dice, ev: Events) -> None:
    require_range("Secondary income", a.amount, 1, 100)
    source = a.source.strip()[:40] or "cards in play"
    post(s, "cash", a.amount, f"Secondary income: {source}")
    ev.append(f"Secondary income from {source}: +{a.amount} cash: cash {s.cash}.")


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
        ev.append("Payroll: no card in play charges upkeep.")
        return
    for c in paid:
        post(s, "cash", -c.upkeep, f"Upkeep: {c.name}")
    if paid:
        ev.append(f"Payroll: paid {total} upkeep ({', '.join(f'{c.name} {c.upkeep}' for c in paid)}): cash {s.cash}.")
    for c in unpaid:
        s.cards.remove(c)
        ev.append(f"{c.name} unpaid (upkeep {c.upkeep}, cash {s.cash}): trashed.")


def _charge_interest(s: State, a: ChargeInterest, dice: Dice, ev: Events) -> None:
    s.step_done = True
    debt = s.debt
    rate = interest_rate(s.reputation)
    why_rate = (f"rate {rate}% = 1% per reputation point" if s.reputation > 10 else
                f"rate 10%, the minimum, as reputation is {s.reputation}")
    charge = interest_charge(rate, debt)
    if charge == 0:
        ev.append("No debt left: no interest this turn.")
        return
    exact = rate * debt  # in hundredths of a Nuyen
    sums = f"{rate}% of {debt} = {_decimal(exact)}" + ("" if exact % 100 == 0 else f" → {charge}")
    post(s, "interest", charge, f"Interest: {sums}")
    ev.append(f"Interest +{charge}: {sums} ({why_rate}). "
              f"Interest owed {s.interest}; total debt {s.debt}.")


def _roll_payment_due(s: State, a: RollPaymentDue, dice: Dice, ev: Events) -> None:
    debt = s.debt
    faces = payment_due_faces(debt)
    band = f"{debt // 10 * 10}–{debt // 10 * 10 + 9}"
    if faces == 6:
        s.payment_due = True
        ev.append(f"Payment due: total debt {debt} is 40 or more, so payment is always due.")
    else:
        face = dice.roll(6)
        s.payment_due = face <= faces
        ev.append(f"Payment due? Total debt {debt} ({band}): due on 1–{faces}. Rolled {face}: "
                  + ("due." if s.payment_due else "not due."))
    if not s.payment_due:
        s.step_done = True
    elif s.interest == 0:
        s.step_done = True
        ev.append("No interest is owed, so there is nothing to pay.")
    else:
        ev.append(f"Pay the {s.interest} interest now, or lose reputation for what you don't pay.")


def _pay_interest(s: State, a: PayInterest, dice: Dice, ev: Events) -> None:
    need = max(0, s.interest - s.cash)
    require_range("Cards cashed in", a.cash_in, 0, need)
    ids = _ids(a.cash_in_ids, "The cashed-in cards")
    cards = [_card(s, cid) for cid in ids]
    if a.cash_in + len(cards) > need:
        raise RuleError(f"Only {need} more Nuyen is needed: cash in at most {need} card(s).")
    cashed = a.cash_in + len(cards)
    if cashed:
        names = [c.name for c in cards] + ([f"{a.cash_in} card(s)"] if a.cash_in else [])
        post(s, "cash", cashed, f"Cashed in {', '.join(names)} at 1 Nuyen each")
        for c in cards:
            s.cards.remove(c)
        ev.append(f"Cashed in {', '.join(names)}: +{cashed} cash.")
    owed = s.interest
    paid = min(owed, s.cash)
    post(s, "cash", -paid, "Interest paid to the loan shark")
    post(s, "interest", -paid, "Interest paid")
    short = owed - paid
    s.step_done = True
    if short:
        post(s, "reputation", -short, f"Interest payment {short} short (still owed)")
        ev.append(f"Paid {paid} of {owed} interest; {short} short: reputation −{short} "
                  f"(now {s.reputation}), and the {short} stays owed.")
    else:
        ev.append(f"Paid all {paid} interest: cash {s.cash}, interest 0.")


def _refuse_payment(s: State, a: RefusePayment, dice: Dice, ev: Events) -> None:
    owed = s.interest
    s.step_done = True
    post(s, "reputation", -owed, f"Refused to pay {owed} interest (still owed)")
    ev.append(f"Refused to pay {owed} interest: reputation −{owed} (now {s.reputation}); "
              f"the {owed} stays owed and keeps compounding.")


def _deploy(s: State, a: Deploy, dice: Dice, ev: Events) -> None:
    name = _name(a.name, "A card's name")
    require_range("Deployment cost", a.cost, 0, 50)
    require_range("Upkeep", a.upkeep, 0, 20)
    require_range("Armor", a.armor, 0, 20)
    if a.card_type == "other":
        require_range("Body", a.body, 0, 30)
    else:
        require_range("Body", a.body, 1, 30)
    if a.card_type == "runner" and len(_runners(s)) >= MAX_RUNNERS:
        raise RuleError(f"At most {MAX_RUNNERS} runners may be in play.")
    if a.cost > s.cash:
        raise RuleError(f"{name} costs {a.cost} but you have {s.cash} cash.")
    post(s, "cash", -a.cost, f"Deployed {name}")
    s.cards.append(Card(id=s.next_id, name=name, card_type=a.card_type, cost=a.cost, upkeep=a.upkeep,
                        body=a.body, armor=a.armor))
    s.next_id += 1
    ev.append(f"Deployed {name} ({a.card_type}) for {a.cost}: cash {s.cash}.")


def _spend(s: State, a: Spend, dice: Dice, ev: Events) -> None:
    require_range("Amount", a.amount, 1, 100)
    if a.item == "chipjack":
        if not s.settings.chipjacks:
            raise RuleError("The Chipjacks optional rule is off in this campaign's settings.")
        if s.chipjacks_bought >= s.skillsofts_bought:
            raise RuleError("A chipjack is bought together with a Skillsoft played this Legwork phase.")
    if a.amount > s.cash:
        raise RuleError(f"That costs {a.amount} but you have {s.cash} cash.")
    what = a.what.strip()[:40] or a.item
    post(s, "cash", -a.amount, f"Bought {what}")
    if a.item == "skillsoft":
        s.skillsofts_bought += 1
    if a.item == "chipjack":
        s.chipjacks_bought += 1
    ev.append(f"Paid {a.amount} for {what}: cash {s.cash}.")


def _run_errand(s: State, a: RunErrand, dice: Dice, ev: Events) -> None:
    card = _card(s, a.card_id)
    if card.card_type != "runner":
        raise RuleError(f"{card.name} is not a runner; only runners run errands.")
    if card.turned:
        raise RuleError(f"{card.name} is turned; only an unturned runner can run an errand.")
    card.turned = True
    face = dice.roll(6)
    if face == 1:
        ev.append(f"{card.name} runs an errand: rolled 1, nothing earned.")
    elif face < 6:
        post(s, "cash", face, f"Errand by {card.name}: rolled {face}")
        ev.append(f"{card.name} runs an errand: rolled {face}, +{face} cash: cash {s.cash}.")
    else:
        s.pending_errand = card.id
        ev.append(f"{card.name} runs an errand: rolled 6! Take 6 Nuyen, or roll two more dice and take their total.")


def _take_six(s: State, a: TakeSix, dice: Dice, ev: Events) -> None:
    name = _card(s, s.pending_errand).name  # type: ignore[arg-type]
    s.pending_errand = None
    post(s, "cash", 6, f"Errand by {name}: took the 6")
    ev.append(f"{name} takes the 6: +6 cash: cash {s.cash}.")


def _roll_two(s: State, a: RollTwo, dice: Dice, ev: Events) -> None:
    name = _card(s, s.pending_errand).name  # type: ignore[arg-type]
    s.pending_errand = None
    faces = [dice.roll(6), dice.roll(6)]
    post(s, "cash", sum(faces), f"Errand by {name}: rolled 6, then {faces[0]} + {faces[1]}")
    ev.append(f"{name} rolls two more: {faces[0]} + {faces[1]} = {sum(faces)}: +{sum(faces)} cash: cash {s.cash}.")


def _sell_cards(s: State, a: SellCards, dice: Dice, ev: Events) -> None:
    require_range("Cards sold", a.count, 1, 60)
    post(s, "cash", a.count, f"Sold {a.count} card(s) at 1 Nuyen each")
    ev.append(f"Sold {a.count} card(s) at 1 Nuyen each: +{a.count} cash: cash {s.cash}.")


def _pay_off(s: State, a: PayOff, dice: Dice, ev: Events) -> None:
    require_range("Loan payment", a.loan, 0, s.loan)
    require_range("Interest payment", a.interest, 0, s.interest)
    total = a.loan + a.interest
    if total == 0:
        raise InputError("Pay at least 1 Nuyen off the loan or the interest.")
    if total > s.cash:
        raise RuleError(f"Paying {total} needs {total} cash; you have {s.cash}.")
    post(s, "cash", -total, "Paid off debt")
    post(s, "loan", -a.loan, "Paid off loan")
    post(s, "interest", -a.interest, "Paid off interest")
    parts = [f"{a.loan} off the loan" if a.loan else "", f"{a.interest} off the interest" if a.interest else ""]
    ev.append(f"Paid {' and '.join(p for p in parts if p)}: cash {s.cash}, loan {s.loan}, "
              f"interest {s.interest}, total debt {s.debt}.")


def _heal(s: State, a: Heal, dice: Dice, ev: Events) -> None:
    card = _card(s, a.card_id)
    if card.turned:
        raise RuleError(f"{card.name} is turned; healing turns an unturned card.")
    if card.damage == 0:
        raise RuleError(f"{card.name} has no damage to heal.")
    healed, card.damage, card.turned = card.damage, 0, True
    ev.append(f"{card.name} turns to heal: all {healed} damage removed.")


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
    ev.append(f"Shadowrun on {objective.name} ({objective.rep} rep, {objective.challenges} challenge(s)) with "
              f"{', '.join(c.name for c in team)}.")
    ev.append(f"Draw {draws} event card(s): 1 + 1 per full 10 reputation ({rep_note}).")


def _draw_event(s: State, a: DrawEvent, dice: Dice, ev: Events) -> None:
    require_range("An event's Nuyen cost", a.cost, 0, 20)
    run = s.run
    assert run is not None
    run.events_drawn += 1
    label = f"Event {run.events_drawn} of {run.events_to_draw} (cost {a.cost})"
    if a.cost <= 1:
        ev.append(f"{label}: cost 0 or 1, played automatically.")
        return
    face = dice.roll(6)
    played = face >= a.cost
    ev.append(f"{label}: rolled {face}, " + (f"≥ {a.cost}: played." if played else f"below {a.cost}: not played."))


def _pump(s: State, a: Pump, dice: Dice, ev: Events) -> None:
    # Decision: "on a 6 roll again and add" is read literally: one extra die, not an open-ended chain.
    first = dice.roll(6)
    if first < 6:
        ev.append(f"Pumped: rolled {first}: {first} Nuyen.")
        return
    second = dice.roll(6)
    ev.append(f"Pumped: rolled 6, rolled again {second}: {6 + second} Nuyen.")


def _pick_random(s: State, a: PickRandom, dice: Dice, ev: Events) -> None:
    options = [_name(o, "An option") for o in a.options]
    require_range("Number of options", len(options), 1, 20)
    if len(options) == 1:
        ev.append(f"Random target: {options[0]} is the only option.")
        return
    face = dice.roll(len(options))
    ev.append(f"Random target among {', '.join(options)}: rolled {face} on a d{len(options)} → {options[face - 1]}.")


def _trash_challenge(s: State, a: TrashChallenge, dice: Dice, ev: Events) -> None:
    objective = _objective(s, s.run.objective_id)  # type: ignore[union-attr]
    objective.challenges -= 1
    ev.append(f"Challenge trashed from {objective.name}: {objective.challenges} left.")


def _start_damage(s: State, a: StartDamage, dice: Dice, ev: Events) -> None:
    require_range("Damage", a.amount, 1, 99)
    n = hit_dice(a.amount)
    s.damage = Damage(total=a.amount, left=a.amount, dice=n, armor_piercing=a.armor_piercing)
    ap = " armor-piercing" if a.armor_piercing else ""
    ev.append(f"{a.amount}{ap} damage to allocate: each hit is {n}d6 (one die per full 6 of damage, at least one). "
              f"Pick who takes the first hit.")


def _take_hit(s: State, a: TakeHit, dice: Dice, ev: Events) -> None:
    dmg = s.damage
    assert dmg is not None
    card = _card(s, a.card_id)
    candidates = hit_candidates(s)
    if card not in candidates:
        names = ", ".join(c.name for c in candidates)
        raise RuleError(f"{card.name} can't take this hit; choose one of: {names} (each takes a hit per pass).")
    if all(c.id in dmg.hit_this_pass for c in _living_team(s)):
        dmg.hit_this_pass = []  # everyone left has taken a hit and damage remains: a new pass
    faces = [dice.roll(6) for _ in range(dmg.dice)]
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
    ev.append(f"{card.name} takes the hit: {sums}{capped}{armored}: {taken} damage (now {card.damage} of body {card.body}).")
    if card.damage >= card.body:
        _dies(s, card, ev, f"{card.damage} damage ≥ body {card.body}")
    if dmg.left == 0:
        s.damage = None
        ev.append("All the damage is allocated.")
    elif not _living_team(s):
        s.damage = None
        ev.append(f"Nobody on the run is left; the last {dmg.left} damage falls on no one.")
    else:
        ev.append(f"{dmg.left} damage left: pick who takes the next hit.")


def _dies(s: State, card: Card, ev: Events, why: str) -> None:
    """A runner, spirit or drone dies (with its gear): lose reputation equal to its Nuyen cost."""
    s.cards.remove(card)
    if s.run is not None and card.id in s.run.team:
        s.run.team.remove(card.id)
    post(s, "reputation", -card.cost, f"{card.name} died (cost {card.cost})")
    ev.append(f"{card.name} dies ({why}) and is trashed with its gear: reputation −{card.cost} "
              f"(its Nuyen cost), now {s.reputation}.")


def _complete_objective(s: State, a: CompleteObjective, dice: Dice, ev: Events) -> None:
    objective = _objective(s, s.run.objective_id)  # type: ignore[union-attr]
    s.objectives.remove(objective)
    s.run = None
    s.rep_from_objectives_this_turn += objective.rep
    post(s, "reputation", objective.rep, f"Completed {objective.name}")
    leftover = f" Its {objective.challenges} remaining challenge(s) go with it." if objective.challenges else ""
    ev.append(f"Objective {objective.name} taken: reputation +{objective.rep} (now {s.reputation}).{leftover} "
              f"The team returns to the safehouse; Mr Johnson pays {objective.rep // 2} next Credstick phase "
              f"(half of the reputation, rounded down).")


def _end_run(s: State, a: EndRun, dice: Dice, ev: Events) -> None:
    objective = _objective(s, s.run.objective_id)  # type: ignore[union-attr]
    s.run = None
    ev.append(f"The run on {objective.name} is over; the team returns to the safehouse, still turned.")


def _check_victory(s: State, a: CheckVictory, dice: Dice, ev: Events) -> None:
    s.step_done = True
    target = s.settings.target_reputation
    if s.reputation >= target and s.loan == 0 and s.interest == 0:
        s.result, s.phase = "Won", "over"
        ev.append(f"Victory: reputation {s.reputation} ≥ target {target}, loan 0, interest 0. "
                  f"Your runners retire outside the sprawl.")
        return
    missing = []
    if s.reputation < target:
        missing.append(f"reputation {s.reputation} of {target}")
    if s.loan:
        missing.append(f"loan {s.loan} left")
    if s.interest:
        missing.append(f"interest {s.interest} owed")
    ev.append(f"Not won yet: {', '.join(missing)}.")
    if s.reputation < 0:
        face = dice.roll(6)
        if face <= -s.reputation:
            s.result, s.phase = "Lost", "over"
            ev.append(f"Reputation {s.reputation} is below 0: rolled {face} ≤ {-s.reputation}. "
                      f"The loan shark's enforcer ends your career: game lost.")
        else:
            ev.append(f"Reputation {s.reputation} is below 0: rolled {face} > {-s.reputation}: you survive this turn.")


def _adjust(s: State, a: Adjust, dice: Dice, ev: Events) -> None:
    reason = _name(a.reason, "The reason")
    require_range("Adjustment", a.amount, -100, 100)
    if a.amount == 0:
        raise InputError("An adjustment must be between -100 and 100 and not 0.")
    post(s, a.account, a.amount, f"Card effect: {reason}")
    ev.append(f"{a.account.capitalize()} {a.amount:+d} ({reason}): now {getattr(s, a.account)}.")


def _set_turned(s: State, a: SetTurned, dice: Dice, ev: Events) -> None:
    card = _card(s, a.card_id)
    card.turned = a.turned
    ev.append(f"{card.name} is now {'turned' if a.turned else 'unturned'}.")


def _remove_card(s: State, a: RemoveCard, dice: Dice, ev: Events) -> None:
    card = _card(s, a.card_id)
    if a.died:
        _dies(s, card, ev, "killed")
        return
    s.cards.remove(card)
    if s.run is not None and card.id in s.run.team:
        s.run.team.remove(card.id)
    ev.append(f"{card.name} is trashed.")


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


def apply(state: State, action: Action, dice: Dice) -> tuple[State, list[str]]:
    """The next state and what happened. Refuses (RuleError/InputError) without changing anything."""
    reason = why_not(state, action.kind)
    if reason is not None:
        raise RuleError(reason)
    new = state.model_copy(deep=True)
    events: list[str] = []
    HANDLERS[action.kind](new, action, dice, events)
    return new, events


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
)
