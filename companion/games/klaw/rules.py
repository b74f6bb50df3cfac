"""KLAW: Were-Wars — the rules the companion applies (RULES.md §3, rulebook `004_…`).

The cards stay on the table; the app keeps every host's numbers, rolls the combat and never
forgets a poison tick. Read top to bottom:

1. Ranges and settings.
2. The state: players, hosts (with totems, items, conditions, Protected/Resting markers), the
   combat in progress, and the win tracking.
3. Actions, one class per kind of move, their ranges on the models (`Field(ge=…, le=…)`, read by
   forms through `field_specs`), and `moves` (what may be done now, built on `legal_actions`).
4. Derived numbers: dice = clamp(base + active totem modifiers, 0, 6); life capped at 24; the
   chance nodes (the exchange's attack and defense dice, the singularity check).
5. `apply`: turn flow, fortifying, instant actions, combat, singularity checks, win detection.
   Every event is typed (`event(kind, text, **data)`); the kinds are listed above `apply`.

Turns. Turn k (0, 1, 2, …) belongs to player k mod n; a round is n turns. Round 1 is the book's
starting round (reveal a host), round 2 the fortify round (no attacks yet), then regular play.
A player plays one card a turn (deploy, totem, item, remove a totem, instant action, attack) or
passes, then ends the turn: a card is drawn unless the turn's play was a combat.

Markers. Protected and Resting last "one full round": a marker placed during turn t lasts the
rest of turn t and the next n turns (it is gone when turn t+n+1 starts). A newly deployed host on
turn t can't be attacked until every other player has had a turn and its owner has had one more
turn to fortify it; a host that won a combat on its owner's turn skips its owner's next turn of
combat.
"""

from __future__ import annotations

import typing
from typing import Annotated, Any, Literal, Optional, TypeVar, Union

from pydantic import BaseModel, Field, ValidationError, field_validator, model_serializer

from companion.games.base import (D6, Chance, Dice, Event, FieldSpec, Game, InputError, Model, Move, Outcome,
                                  RuleError, asks_the_table, event, field_specs, fmt_dice, threshold_outcomes)
from companion.games.klaw import combat as cb
from companion.games.klaw import odds as odds_mod
from companion.games.klaw.combat import joined
from companion.i18n import N_, REWORDED, Msg, NMsg, _

# Every sentence a player reads is a Msg (companion/i18n.py): kept in the log as its message id and
# values, said in each phone's language. Names (players', hosts', totems', items') are the table's
# own and stay as typed; the game's own words are translated (German: Wirt, Totem, Gegenstand,
# Singularitätsprobe, Wilder Würfel, ...).

# --- 1. Ranges (the book's) and settings ----------------------------------------------------------

HOST_ATTACK = (1, 3)
HOST_DEFENSE = (1, 3)
HOST_LIFE = (6, 12)
TOTEM_DICE_MOD = (-3, 3)
TOTEM_LIFE_MOD = (-6, 6)
LIFE_CAP = 24
MAX_DICE = 6
MAX_ITEMS = 2
HAND_LIMIT = 8
MIN_PLAYERS = 2
MAX_PLAYERS = 8
STARTING_HOSTS = 3
STARTING_ENCOUNTER_CARDS = 5
STARTING_HAND = STARTING_HOSTS + STARTING_ENCOUNTER_CARDS
BURNING_TICKS = 3
POISON_DAMAGE = 1
BURNING_DAMAGE = 2
# Ranges the book doesn't give (Decisions): an item bonus adds up to +6 to up to 6 dice; an item
# heals up to 12; talents and items shift a singularity check by up to ±3; a talent lets a host
# carry up to 6 totems without a check; a card's condition lasts 1 to 10 ticks.
ITEM_PLUS = (0, 6)
ITEM_DICE = (0, 6)
ITEM_LIFE = (0, 12)
CHECK_BONUS = (-3, 3)
FREE_TOTEMS = (0, 6)
DURATION = (1, 10)
LIFE_CHANGE = (-LIFE_CAP, LIFE_CAP)
NAME_LENGTH = 40

ConditionKind = Literal["poisoned", "burning", "sleep", "shackled"]
CONDITIONS: tuple[str, ...] = ("poisoned", "burning", "sleep", "shackled")
# A condition (or the Protected marker an instant action gives) in a sentence ("Kai is cured of
# poisoned", "instant: 2 damage, burning") and as a name on its own (a badge, a radio button).
CONDITION_WORDS = {"poisoned": Msg("poisoned"), "burning": Msg("burning"), "sleep": Msg("sleep"),
                   "shackled": Msg("shackled"), "protected": Msg("protected")}
CONDITION_NAMES = {"poisoned": Msg("Poisoned"), "burning": Msg("Burning"), "sleep": Msg("Sleep"),
                   "shackled": Msg("Shackled"), "protected": Msg("Protected")}
# The settings form's choices (the frame shows a Literal's value through the catalog).
TICK_CHOICES = (N_("owner turn"), N_("every turn"))
WILD = "wild"  # what the first die of a six-dice roll is (Chance.first): the golden die

# Words saved by older versions, read as today's ("attacks" everywhere, as the panel says).
REWORDED.update({
    "Exchange {number}: {striker} strikes, {target} defends.": N_("Exchange {number}: {striker} attacks, {target} defends."),
    "Round {round} · {attacker} vs {defender} · {striker} strikes":
        N_("Round {round} · {attacker} vs {defender} · {striker} attacks"),
    "{host} used the strike to support instead of rolling; the tables turn: {next} strikes next.":
        N_("{host} used the attack to support instead of rolling; the tables turn: {next} attacks next."),
    "{host} now strikes back ({attack} attack vs {defense} defense), or heals/flees instead.":
        N_("{host} now attacks ({attack} attack vs {defense} defense), or heals/flees instead."),
})


def ranged(bounds: tuple[int, int], description: str, default: Any = ...) -> Any:
    """A whole-number field with the book's range: forms read it (`field_specs`), pydantic keeps it.
    `description` is marked N_() where it is written: the forms say it in the phone's language."""
    return Field(default, ge=bounds[0], le=bounds[1], description=description)


def _default_players() -> list[str]:
    return [_("Player {n}", n=n) for n in range(1, MIN_PLAYERS + 1)]


class Settings(Model):
    players: list[str] = Field(
        default_factory=_default_players, min_length=MIN_PLAYERS, max_length=MAX_PLAYERS,
        description=N_("Player names in turn order"),
    )
    totem_goal: Optional[int] = Field(
        None, ge=1, le=48, description=N_("Win by owning this many totems (off by default)")
    )
    condition_tick: Literal["owner_turn", "every_turn"] = Field(
        "owner_turn", description=N_("Poison/burning tick at the start of the owner's turn, or of every turn")
    )
    shackled_max_dice: int = Field(1, ge=0, le=6, description=N_("Attack dice a shackled host rolls when it attacks"))
    # A singularity check no face can fail (a first totem: any roll reaches 1) passes at a physical table
    # without asking for a die (issue #30). Off in every campaign made before it existed (their saved
    # settings lack it): their logs hold that die, asked for and given, and replay as they were played.
    # The setup form turns it on for new campaigns. The app's own dice roll it either way, as before, so
    # the seeded dice after it keep their places.
    sure_checks_pass: bool = Field(False, description=N_("A singularity check no roll can fail passes without "
                                                         "asking a physical table for a die"))

    @model_serializer(mode="wrap")
    def _written_only_when_on(self, handler: Any) -> Any:
        # Off, it is left out: an old campaign's settings and states are saved byte for byte as before.
        data = handler(self)
        if isinstance(data, dict) and not self.sure_checks_pass:
            data.pop("sure_checks_pass", None)
        return data

    @field_validator("players")
    @classmethod
    def _names(cls, names: list[str]) -> list[str]:
        cleaned = [n.strip() for n in names]
        if any(not n or len(n) > 30 for n in cleaned):
            raise ValueError(Msg("each player needs a name of 1 to 30 characters"))
        if len({n.casefold() for n in cleaned}) != len(cleaned):
            raise ValueError(Msg("player names must differ"))
        return cleaned


def deck_guide(players: int) -> Msg:
    """The book's rule of thumb for the deck size, shown at setup."""
    return Msg("Deck for {players} players: {hosts} hosts, {totems} totems, {cards} action and item cards.",
               players=players, hosts=6 * players, totems=6 * players, cards=30 * players)


# --- 2. State ------------------------------------------------------------------------------------


class Totem(Model):
    name: str = Field(description=N_("Totem name"))
    attack: int = ranged(TOTEM_DICE_MOD, N_("Attack modifier"), 0)
    defense: int = ranged(TOTEM_DICE_MOD, N_("Defense modifier"), 0)
    life: int = ranged(TOTEM_LIFE_MOD, N_("Life modifier"), 0)
    pair: Optional[str] = Field(None, description=N_("Binomial pair (the pair's name, if any)"))  # the name when not given
    dormant: bool = Field(False, description=N_("Dormant (adds no dice)"))  # still counts for checks and binomials

    @property
    def key(self) -> str:
        return (self.pair or self.name).strip().casefold()


class Item(Model):
    name: str = Field(description=N_("Item name"))
    # "+3 to two dice": attack_plus=3, attack_dice=2
    attack_plus: int = ranged(ITEM_PLUS, N_("Attack +"), 0)
    attack_dice: int = ranged(ITEM_DICE, N_("on attack dice"), 0)
    defense_plus: int = ranged(ITEM_PLUS, N_("Defense +"), 0)
    defense_dice: int = ranged(ITEM_DICE, N_("on defense dice"), 0)
    life: int = ranged(ITEM_LIFE, N_("Life +"), 0)  # added to current life when the item is attached
    check_bonus: int = ranged(CHECK_BONUS, N_("Singularity check bonus"), 0)
    vessel: bool = Field(False, description=N_("Vessel (a won totem goes to the hand, no check)"))

    def attack_bonus(self) -> Optional[cb.Bonus]:
        return cb.Bonus(self.attack_plus, self.attack_dice) if self.attack_plus and self.attack_dice else None

    def defense_bonus(self) -> Optional[cb.Bonus]:
        return cb.Bonus(self.defense_plus, self.defense_dice) if self.defense_plus and self.defense_dice else None


class Condition(Model):
    kind: ConditionKind
    ticks_left: Optional[int] = None  # None: until cured


class Host(Model):
    id: int
    owner: int
    name: str
    attack: int
    defense: int
    base_life: int
    life: int
    check_bonus: int = 0  # talent: added to singularity checks
    free_totems: int = 0  # talent: carries this many totems without a check
    support: bool = False  # a support host: items only, no totems (basic rules)
    totems: list[Totem] = Field(default_factory=list)
    items: list[Item] = Field(default_factory=list)
    conditions: list[Condition] = Field(default_factory=list)
    protected_until: Optional[int] = None  # gone when this turn number starts
    resting_until: Optional[int] = None


class Player(Model):
    name: str
    hand: int = STARTING_HAND  # cards in the hidden hand (0..8)
    totems_in_hand: int = 0  # for a totem-count goal


class PendingRoll(Model):
    """A rolled exchange waiting for the players to place item bonuses."""

    attack_rolled: list[int]
    defense_rolled: list[int]
    attack_bonuses: list[tuple[int, int]]  # (plus, dice) per item
    defense_bonuses: list[tuple[int, int]]
    suggested_attack: list[list[int]]  # positions in the side's dice sorted high to low
    suggested_defense: list[list[int]]


class ExchangeRecord(Model):
    """The last exchange, for the combat screen (pairs as hit / tie / block / uncontested)."""

    striker: int
    target: int
    attack_rolled: list[int]
    defense_rolled: list[int]
    attack_values: list[int]
    defense_values: list[int]
    outcomes: list[str]
    damage_to_target: int
    damage_to_striker: int


class Combat(Model):
    attacker: int  # host ids
    defender: int
    striker: int  # the host whose turn it is to attack in this exchange
    exchanges: int = 0
    pending: Optional[PendingRoll] = None


class State(Model):
    settings: Settings
    players: list[Player]
    hosts: list[Host] = Field(default_factory=list)
    next_host_id: int = 1
    turn_no: int = 0
    played: Optional[str] = None  # the card played this turn ("deploy", "totem", …, "attack")
    combat: Optional[Combat] = None
    last_exchange: Optional[ExchangeRecord] = None
    lone_player: Optional[int] = None  # the only player with a host on the table …
    lone_since: Optional[int] = None  # … from this turn on (the extra round runs from here)
    winner: Optional[int] = None
    win_reason: Optional[str] = None


def new_state(settings: Settings) -> State:
    return State(settings=settings, players=[Player(name=n) for n in settings.players])


# --- 3. Actions ----------------------------------------------------------------------------------


class HostCard(Model):
    """A host card's printed numbers and the talents the player enters as modifiers."""

    name: str = Field(description=N_("Host name"))
    attack: int = ranged(HOST_ATTACK, N_("Attack dice"))
    defense: int = ranged(HOST_DEFENSE, N_("Defense dice"))
    life: int = ranged(HOST_LIFE, N_("Life"))
    check_bonus: int = ranged(CHECK_BONUS, N_("Check bonus (talent)"), 0)
    free_totems: int = ranged(FREE_TOTEMS, N_("Free totems (talent, no check)"), 0)


class Deploy(Model):
    kind: Literal["deploy"] = "deploy"
    card: HostCard
    support: bool = Field(False, description=N_("Support host (items only)"))


class AttachTotem(Model):
    kind: Literal["attach_totem"] = "attach_totem"
    host: int
    totem: Totem
    from_hand: bool = Field(True, description=N_("Played from the hand"))


class RemoveTotem(Model):
    kind: Literal["remove_totem"] = "remove_totem"
    host: int
    totem: int = Field(ge=0, description=N_("Totem (its place on the host)"))


class AddItem(Model):
    kind: Literal["add_item"] = "add_item"
    host: int
    item: Item
    replace: Optional[int] = Field(None, ge=0, description=N_("Item it replaces (to the discard pile)"))


class Instant(Model):
    """An instant action card (or a support talent used as one) on any host."""

    kind: Literal["instant"] = "instant"
    target: int
    damage: int = ranged((0, LIFE_CAP), N_("Damage"), 0)
    heal: int = ranged((0, LIFE_CAP), N_("Heal"), 0)
    condition: Optional[Literal["poisoned", "burning", "sleep", "shackled", "protected"]] = None
    # (BURNING_TICKS is 3)
    duration: Optional[int] = ranged(DURATION, N_("Turns (blank: burning 3, the others until cured)"), None)
    cure: Optional[ConditionKind] = None
    remove_item: Optional[int] = Field(None, ge=0, description=N_("Item to remove (to the discard pile)"))
    totem: Optional[int] = Field(None, ge=0, description=N_("Totem to make dormant or wake"))
    totem_dormant: Optional[bool] = None
    from_hand: bool = True


class Attack(Model):
    kind: Literal["attack"] = "attack"
    attacker: int
    defender: int


class Roll(Model):
    """The striker rolls its attack dice against the other host's defense dice."""

    kind: Literal["roll"] = "roll"


class PlaceDice(Model):
    """Place the item bonuses of a pending roll; None takes the app's suggestion."""

    kind: Literal["place_dice"] = "place_dice"
    attack: Optional[list[list[int]]] = None
    defense: Optional[list[list[int]]] = None


class Support(Model):
    """Instead of rolling, the striker's side uses an item or a support host: heal and/or flee."""

    kind: Literal["support"] = "support"
    heal: int = ranged((0, LIFE_CAP), N_("Heal by (life)"), 0)
    flee: bool = False
    use_item: Optional[int] = Field(None, ge=0, description=N_("Item used (then discarded)"))  # on the striking host
    from_hand: bool = False  # an item card played from the hand
    support_host: Optional[HostCard] = None  # a support host played from the hand


class EndTurn(Model):
    kind: Literal["end_turn"] = "end_turn"
    draw: bool = True  # draw one card (skipped anyway after a combat)


class AdjustLife(Model):
    kind: Literal["adjust_life"] = "adjust_life"
    host: int
    delta: int = ranged(LIFE_CHANGE, N_("Life change"))


class EditHost(Model):
    """Correct a host's printed numbers or talents (not its current life: use adjust_life)."""

    kind: Literal["edit_host"] = "edit_host"
    host: int
    name: Optional[str] = Field(None, description=N_("Host name"))
    attack: Optional[int] = ranged(HOST_ATTACK, N_("Attack dice"), None)
    defense: Optional[int] = ranged(HOST_DEFENSE, N_("Defense dice"), None)
    base_life: Optional[int] = ranged(HOST_LIFE, N_("Base life"), None)
    check_bonus: Optional[int] = ranged(CHECK_BONUS, N_("Check bonus (talent)"), None)
    free_totems: Optional[int] = ranged(FREE_TOTEMS, N_("Free totems (talent, no check)"), None)


class SetHand(Model):
    kind: Literal["set_hand"] = "set_hand"
    player: int = Field(ge=0, le=MAX_PLAYERS - 1)
    hand: int = ranged((0, HAND_LIMIT), N_("Cards in hand"))
    totems_in_hand: Optional[int] = ranged((0, HAND_LIMIT), N_("Of which totem cards"), None)


Action = Annotated[
    Union[
        Deploy, AttachTotem, RemoveTotem, AddItem, Instant, Attack, Roll, PlaceDice, Support,
        EndTurn, AdjustLife, EditHost, SetHand,
    ],
    Field(discriminator="kind"),
]

# The cards a player may play as the turn's one play.
PLAYS = ("deploy", "attach_totem", "remove_totem", "add_item", "instant", "attack")

M = TypeVar("M", bound=BaseModel)


def build(model: type[M], **values: Any) -> M:
    """A card or an action from a form's values. A value out of its range is refused with the
    range, in the field's own words: "Attack dice must be between 1 and 3 (got 5)."."""
    try:
        return model.model_validate(values)
    except ValidationError as exc:
        raise InputError(_refusal_text(model, exc)) from None


def marked(msgid: str) -> Msg:
    """A message marked N_() where it is written (a field's description), as a Msg to say it."""
    return Msg.from_json({"msgid": msgid})


def _refusal_text(model: type[BaseModel], exc: ValidationError) -> Any:
    err = exc.errors()[0]
    cls: Optional[type[BaseModel]] = model
    spec = None
    for part in err.get("loc", ()):
        if cls is None or not isinstance(part, str) or part not in cls.model_fields:
            continue
        spec = next(f for f in field_specs(cls) if f.name == part)
        cls = _model_in(cls.model_fields[part].annotation)
    message = err.get("msg", "invalid").replace("Value error, ", "")
    if spec is None:
        return message
    if err.get("type") in ("greater_than_equal", "less_than_equal") and spec.low is not None and spec.high is not None:
        return Msg("{field} must be between {low} and {high} (got {got}).", field=marked(spec.label), low=spec.low,
                   high=spec.high, got=str(err.get("input")))
    return Msg("{field}: {problem}.", field=marked(spec.label), problem=message.replace("Input should be", "must be"))


def _model_in(annotation: Any) -> Optional[type[BaseModel]]:
    """The model a field holds (directly or as Optional[...]), to follow a nested error."""
    for tp in (annotation, *typing.get_args(annotation)):
        if isinstance(tp, type) and issubclass(tp, BaseModel):
            return tp
    return None


# --- 4. Derived numbers and predicates -----------------------------------------------------------


def current_player(state: State) -> int:
    return state.turn_no % len(state.players)


def round_no(state: State) -> int:
    return state.turn_no // len(state.players) + 1


def phase(state: State) -> Literal["reveal", "fortify", "play"]:
    r = round_no(state)
    return "reveal" if r == 1 else "fortify" if r == 2 else "play"


def find_host(state: State, host_id: int) -> Host:
    for h in state.hosts:
        if h.id == host_id:
            return h
    hosts = ", ".join(f"#{h.id}" for h in state.hosts) or Msg("none")
    raise InputError(Msg("There is no host #{id} on the table (hosts: {hosts}).", id=str(host_id), hosts=hosts))


def hosts_of(state: State, player: int) -> list[Host]:
    return [h for h in state.hosts if h.owner == player]


def owner_name(state: State, host: Host) -> str:
    return state.players[host.owner].name


def _clamp_dice(n: int) -> int:
    return max(0, min(MAX_DICE, n))


def totem_dice(host: Host) -> tuple[int, int]:
    """The active totems' (attack, defense) modifiers: a dormant totem adds nothing."""
    active = [t for t in host.totems if not t.dormant]
    return sum(t.attack for t in active), sum(t.defense for t in active)


def attack_dice(host: Host) -> int:
    """Attack dice = base + active totem modifiers, 0..6."""
    return _clamp_dice(host.attack + totem_dice(host)[0])


def defense_dice(host: Host) -> int:
    return _clamp_dice(host.defense + totem_dice(host)[1])


def strike_dice(state: State, host: Host) -> int:
    """Dice the host rolls when it strikes in a combat: a shackled host rolls at most the setting."""
    n = attack_dice(host)
    if has_condition(host, "shackled"):
        n = min(n, state.settings.shackled_max_dice)
    return n


def full_life(host: Host) -> int:
    """Base life plus totem life modifiers, capped at 24: the length of the life bar, and the
    current maximum the + on a host's life stops at."""
    return max(0, min(LIFE_CAP, host.base_life + sum(t.life for t in host.totems)))


def life_change_refusal(host: Host, delta: int) -> Optional[Msg]:
    """Why this change of a host's current life is refused (None: it may be made). The + stops at
    the host's current maximum (`full_life`); a − is always allowed (at 0 or less the host falls)."""
    if delta == 0:
        return Msg("Life change must be between {low} and {high} and not 0 (got 0).", low=LIFE_CHANGE[0],
                   high=LIFE_CHANGE[1])
    top = full_life(host)
    if delta > 0 and host.life + delta > top:
        if host.life >= top:
            return Msg("{host} is at its current maximum life ({life}, maximum {top}): the + stops there.",
                       host=host.name, life=host.life, top=top)
        return Msg("Life stops at {host}'s current maximum of {top}: it is at {life}, so the change must be between "
                   "{low} and {high} (got {got}).", host=host.name, top=top, life=host.life, low=LIFE_CHANGE[0],
                   high=top - host.life, got=f"{delta:+d}")
    return None


def has_condition(host: Host, kind: str) -> bool:
    return any(c.kind == kind for c in host.conditions)


def is_protected(state: State, host: Host) -> bool:
    return host.protected_until is not None and state.turn_no < host.protected_until


def is_resting(state: State, host: Host) -> bool:
    return host.resting_until is not None and state.turn_no < host.resting_until


def binomial_keys(host: Host) -> set[str]:
    return {t.key for t in host.totems}


def totems_owned(state: State, player: int) -> int:
    """Totems on the player's hosts plus the totem cards the player says are in hand."""
    return sum(len(h.totems) for h in hosts_of(state, player)) + state.players[player].totems_in_hand


def marker_end(state: State, until: int) -> Msg:
    """When a marker placed with `until` ends, in the table's words."""
    last = until - 1
    n = len(state.players)
    return Msg("the end of {player}'s turn in round {round}", player=state.players[last % n].name, round=last // n + 1)


def _marker_until(state: State) -> int:
    # Placed now: lasts the rest of this turn and one full round of n turns.
    return state.turn_no + len(state.players) + 1


def exchange_roles(state: State) -> Optional[tuple[Host, Host]]:
    """During a fight, (the host attacking in the coming exchange, the host defending): the roles
    swap after each exchange, and after a support used instead of rolling."""
    c = state.combat
    if c is None:
        return None
    return find_host(state, c.striker), find_host(state, _other(c, c.striker))


def attacks_now(state: State) -> Optional[Msg]:
    """Who attacks and who defends in the coming exchange, in the table's words (None outside a fight):
    "Exchange 2: Raven (Bo) attacks, Wolfmother (Ana) defends."."""
    roles = exchange_roles(state)
    if roles is None:
        return None
    striker, target = roles
    return Msg("Exchange {number}: {striker} attacks, {target} defends.", number=state.combat.exchanges + 1,
               striker=_who(state, striker), target=_who(state, target))


def item_bonuses(host: Host, side: Literal["attack", "defense"]) -> list[cb.Bonus]:
    out = []
    for item in host.items:
        b = item.attack_bonus() if side == "attack" else item.defense_bonus()
        if b:
            out.append(b)
    return out


def check_bonus(host: Host) -> int:
    """What talents and items add to the host's singularity checks."""
    return host.check_bonus + sum(i.check_bonus for i in host.items)


def attack_refusal(state: State, attacker_id: int, defender_id: int) -> Optional[Msg]:
    """Why this attack can't start now, or None if it can (the UI greys out targets with this)."""
    why = play_refusal(state, "attack")
    if why:
        return why
    try:
        a = find_host(state, attacker_id)
        d = find_host(state, defender_id)
    except InputError as e:
        return e.args[0]
    if a.owner != current_player(state):
        return Msg("{host} belongs to {player}; only the player whose turn it is attacks.", host=a.name,
                   player=state.players[a.owner].name)
    if d.owner == a.owner:
        return Msg("{host} is {player}'s own host.", host=d.name, player=state.players[a.owner].name)
    if is_resting(state, a):
        return Msg("{host} is Resting until {when}: a resting host can't start a combat.", host=a.name,
                   when=marker_end(state, a.resting_until))
    if has_condition(a, "sleep"):
        return Msg("{host} is asleep and can't act.", host=a.name)
    if has_condition(a, "shackled"):
        return Msg("{host} is shackled and can't attack.", host=a.name)
    if is_protected(state, d):
        return Msg("{host} is Protected until {when}: it can't be attacked.", host=d.name,
                   when=marker_end(state, d.protected_until))
    shared = binomial_keys(a) & binomial_keys(d)
    if shared:
        names = ", ".join(sorted(t.name for t in a.totems if t.key in shared))
        return Msg("{attacker} and {defender} share the binomial totem {totem}: binomial partners can't fight each "
                   "other.", attacker=a.name, defender=d.name, totem=names)
    return None


def attack_targets(state: State, attacker_id: int) -> list[int]:
    return [h.id for h in state.hosts if attack_refusal(state, attacker_id, h.id) is None]


# The card a player played this turn (State.played), in words.
PLAYED_WORDS = {"deploy": Msg("deploy"), "totem": Msg("totem"), "remove_totem": Msg("remove a totem"),
                "item": Msg("item"), "instant": Msg("instant"), "attack": Msg("attack")}


def played_words(played: str) -> Any:
    return PLAYED_WORDS.get(played, played)


def play_refusal(state: State, kind: str) -> Optional[Msg]:
    """Why the current player can't play a card of this kind now (None: they may). One card a
    turn; round 1 only reveals hosts, round 2 fortifies; a host-less player may always deploy."""
    if state.winner is not None:
        return Msg("The game is over: {outcome}.", outcome=outcome(state))
    if state.combat is not None:
        return Msg("A combat is under way: roll, or use an item/support host to heal or flee.")
    me = current_player(state)
    name = state.players[me].name
    if state.played is not None and (kind != "deploy" or hosts_of(state, me)):
        return Msg("{player} already played a card this turn ({card}); end the turn.", player=name,
                   card=played_words(state.played))
    if kind == "deploy":
        return None
    if phase(state) == "reveal":
        return Msg("Round 1 is the starting round: each player reveals a host (deploy) or passes.")
    if phase(state) == "fortify" and kind in ("instant", "attack"):
        return Msg("Round 2 is the fortify round: add totems or items; attacks and instant actions start in round 3.")
    return None


def legal_actions(state: State) -> list[str]:
    """The action kinds allowed now (a specific attack may still be refused: see attack_refusal);
    `moves` spells them out."""
    if state.winner is not None:
        return []
    if state.combat is not None:
        if state.combat.pending is not None:
            return ["place_dice"]
        return ["roll", "support", "adjust_life", "set_hand"]
    mine = hosts_of(state, current_player(state))
    possible = {
        "deploy": True,
        "attach_totem": any(not h.support for h in mine),
        "remove_totem": any(h.totems for h in mine),
        "add_item": bool(mine),
        "instant": bool(state.hosts),
        "attack": any(attack_targets(state, h.id) for h in mine),
    }
    kinds = [kind for kind, can in possible.items() if can and play_refusal(state, kind) is None]
    kinds.append("end_turn")
    if state.hosts:
        kinds += ["adjust_life", "edit_host"]
    kinds.append("set_hand")
    return kinds


def end_turn_label(state: State) -> Msg:
    """What ending the turn does now, in the words of the button."""
    if state.played == "attack":
        return Msg("End turn (no card drawn after a combat)")
    over = state.players[current_player(state)].hand + 1 > HAND_LIMIT
    if state.played is None:
        return Msg("Pass and draw 1 card (then discard 1)") if over else Msg("Pass and draw 1 card")
    return Msg("End turn and draw 1 card (then discard 1)") if over else Msg("End turn and draw 1 card")


def moves(state: State) -> list[Move]:
    """What may be done now. Concrete where nothing is left to choose (a roll, an attack on one
    target, ending the turn, −1/+1 on a life or a hand), templates where the table copies a card's
    numbers (fields and ranges from the models). The plays on the current player's hosts, every
    attack pair and the + at a host's maximum life are listed greyed out with the reason."""
    kinds = legal_actions(state)
    if "place_dice" in kinds:
        return [Move(kind="place_dice", label=Msg("Accept the suggested placement"), action=PlaceDice()),
                Move(kind="place_dice", label=Msg("Place them differently…"), fields=field_specs(PlaceDice))]
    out: list[Move] = []
    c = state.combat
    if "roll" in kinds:
        striker, target = exchange_roles(state)
        # Short enough for a button on a 360 px phone whatever the hosts are called: the names stand
        # just above, in `attacks_now`.
        out += [
            Move(kind="roll", action=Roll(), label=Msg("Roll exchange {number}: {attack} vs {defense} dice",
                                                       number=c.exchanges + 1, attack=strike_dice(state, striker),
                                                       defense=defense_dice(target))),
            Move(kind="support", label=Msg("{host} flees", host=striker.name), action=Support(flee=True)),
            Move(kind="support", label=Msg("Flee or heal instead…"),
                 fields=field_specs(Support, use_item=list(range(len(striker.items))))),
        ]
    if "end_turn" in kinds:
        out += _plays(state)
        out.append(Move(kind="end_turn", label=end_turn_label(state), action=EndTurn()))
        if state.played != "attack":
            out.append(Move(kind="end_turn", label=Msg("End turn without drawing"), action=EndTurn(draw=False)))
    if "edit_host" in kinds:
        out += [Move(kind="edit_host", label=Msg("Correct {host}", host=h.name), fields=field_specs(EditHost, host=[h.id]))
                for h in state.hosts]
    for h in state.hosts if "adjust_life" in kinds else ():
        out.append(Move(kind="adjust_life", label=Msg("{host} life -1", host=h.name), action=AdjustLife(host=h.id, delta=-1)))
        out.append(Move(kind="adjust_life", label=Msg("{host} life +1", host=h.name), action=AdjustLife(host=h.id, delta=1),
                        why_not=life_change_refusal(h, 1)))
    for p, pl in enumerate(state.players if "set_hand" in kinds else ()):
        if pl.hand > 0:
            out.append(Move(kind="set_hand", label=Msg("{player} hand -1", player=pl.name),
                            action=SetHand(player=p, hand=pl.hand - 1)))
        if pl.hand < HAND_LIMIT:
            out.append(Move(kind="set_hand", label=Msg("{player} hand +1", player=pl.name),
                            action=SetHand(player=p, hand=pl.hand + 1)))
        out.append(Move(kind="set_hand", label=Msg("{player}'s hand", player=pl.name),
                        fields=field_specs(SetHand, player=[p])))
    return out


def _plays(state: State) -> list[Move]:
    """The cards the current player may play (greyed out with the reason when not now)."""
    me = current_player(state)
    mine = hosts_of(state, me)
    out = [Move(kind="deploy", label=Msg("Deploy a host"), why_not=play_refusal(state, "deploy"),
                fields=_form(Deploy, "card", HostCard))]
    for h in mine:
        if not h.support:
            out.append(Move(kind="attach_totem", label=Msg("Attach a totem to {host}", host=h.name),
                            why_not=play_refusal(state, "attach_totem"),
                            fields=_form(AttachTotem, "totem", Totem, host=[h.id])))
        replace = list(range(len(h.items))) if len(h.items) >= MAX_ITEMS else [None]
        out.append(Move(kind="add_item", label=Msg("Item for {host}", host=h.name), why_not=play_refusal(state, "add_item"),
                        fields=_form(AddItem, "item", Item, host=[h.id], replace=replace)))
        out += [Move(kind="remove_totem", label=Msg("Remove {totem} from {host}", totem=t.name, host=h.name),
                     action=RemoveTotem(host=h.id, totem=i), why_not=play_refusal(state, "remove_totem"))
                for i, t in enumerate(h.totems)]
    for h in state.hosts:
        out.append(Move(kind="instant", label=Msg("Instant action on {host}", host=h.name),
                        why_not=play_refusal(state, "instant"),
                        fields=field_specs(Instant, target=[h.id], condition=[*CONDITIONS, "protected"],
                                           cure=[c.kind for c in h.conditions], remove_item=list(range(len(h.items))),
                                           totem=list(range(len(h.totems))))))
    others = [d for d in state.hosts if d.owner != me]
    out += [Move(kind="attack", label=Msg("{attacker} attacks {defender}", attacker=a.name, defender=d.name),
                 action=Attack(attacker=a.id, defender=d.id), why_not=attack_refusal(state, a.id, d.id))
            for a in mine for d in others]
    if mine and not others:
        out.append(Move(kind="attack", label=Msg("Attack"), why_not=Msg("There is no opposing host on the table.")))
    return out


def _form(action_cls: type[BaseModel], card: str, card_cls: type[BaseModel], **narrow: Any) -> tuple[FieldSpec, ...]:
    """An action's fields with its card's own fields in place of the card (what a player copies)."""
    own = field_specs(action_cls, **narrow)
    at = next(i for i, f in enumerate(own) if f.name == card)
    return own[:at] + field_specs(card_cls) + own[at + 1:]


# --- Chance nodes ---


def singularity_chance(state: State, host: Host, totems: Optional[int] = None) -> Optional[Chance]:
    """The singularity check of a host carrying `totems` totems (its count now by default): 1d6 +
    talents and items must reach the count. None when its talent carries that many without one."""
    count = len(host.totems) if totems is None else totems
    if count <= host.free_totems:
        return None
    bonus = check_bonus(host)
    if state.settings.sure_checks_pass:  # (a newer campaign: the words of its waiting dice say why it checks)
        why = (NMsg("{host}'s singularity check: it now carries {n} totem, so 1d6 {bonus} must reach {n}",
                    "{host}'s singularity check: it now carries {n} totems, so 1d6 {bonus} must reach {n}", count,
                    host=host.name, bonus=f"{bonus:+d}") if bonus else
               NMsg("{host}'s singularity check: it now carries {n} totem, so 1d6 must reach {n}",
                    "{host}'s singularity check: it now carries {n} totems, so 1d6 must reach {n}", count,
                    host=host.name))
    else:
        why = (Msg("{host}'s singularity check ({bonus} from talents and items)", host=host.name, bonus=f"{bonus:+d}")
               if bonus else Msg("{host}'s singularity check", host=host.name))
    passes, fails = threshold_outcomes(count, bonus=bonus)
    return Chance(count=1, die=D6, why=why, who=owner_name(state, host),
                  outcomes=[passes, fails] if fails.probability > 0 else [passes])


def _wild_outcomes(n: int) -> list[Outcome]:
    """What the wild die adds to a side's roll of six: its two outcomes (the why says which die it
    is, which the dice pad shows: the golden die is the wild one, and it is entered first)."""
    if n != cb.WILD_AT:
        return []
    return [Outcome(label=Msg("wild die 6: all {n} count as 6", n=n), probability=1 / 6),
            Outcome(label=Msg("wild die 1: all {n} count as 1", n=n), probability=1 / 6)]


def attack_chance(state: State, striker: Host, target: Host, number: int) -> Chance:
    """The striker's attack dice for exchange `number`, rolled by its owner; the outcomes are the
    exchange's (hits each way) before any die is rolled."""
    n = strike_dice(state, striker)
    names = dict(striker=striker.name, target=target.name, number=number)
    return _exchange_chance(
        state, striker, n, odds_mod.exchange_odds(n, defense_dice(target), item_bonuses(striker, "attack"),
                                                  item_bonuses(target, "defense")), striker, target,
        Msg("{striker}'s attack on {target}, exchange {number}", **names),
        Msg("{striker}'s attack on {target}, exchange {number}, with a wild die (enter the golden die first)", **names))


def defense_chance(state: State, striker: Host, target: Host, number: int, attack_rolled: list[int]) -> Chance:
    """The struck host's defense dice, rolled by its owner once the attack dice are known."""
    n = defense_dice(target)
    names = dict(striker=striker.name, target=target.name, number=number)
    return _exchange_chance(
        state, target, n, odds_mod.exchange_given_attack(attack_rolled, n, item_bonuses(striker, "attack"),
                                                         item_bonuses(target, "defense")), striker, target,
        Msg("{target}'s defense against {striker}, exchange {number}", **names),
        Msg("{target}'s defense against {striker}, exchange {number}, with a wild die (enter the golden die first)",
            **names))


def _exchange_chance(state: State, roller: Host, n: int, dist, striker: Host, target: Host,
                     why: Msg, why_with_wild_die: Msg) -> Chance:
    """`roller`'s n dice in an exchange (its owner rolls them); the outcomes are the exchange's hits."""
    wild = _wild_outcomes(n)
    return Chance(count=n, die=D6, who=owner_name(state, roller), why=why_with_wild_die if wild else why,
                  outcomes=odds_mod.hit_outcomes(dist, target.name, striker.name) + wild, first=WILD if wild else "")


# --- 5. apply ------------------------------------------------------------------------------------
#
# Event kinds and their data (host, winner, loser … are host ids; player is a player index):
#   deployed {host, name, player, support, attack_dice, defense_dice, life, protected_until}
#   deploy_again {player} · turn_ended {player, drew, hand} · turn {round, player}
#   marker_ended {host, marker} · condition_tick {host, condition, damage, life, ticks_left}
#   condition_ended {host, condition} · host_removed {host, name, player, life, items, totems, cause}
#   totem_attached {host, totem, life_before, life, attack_dice, defense_dice}
#   singularity_check {host, totems, bonus, face, total, passed} (face None: carried without a check, or
#     `sure`: no face could fail, and a physical table was not asked for a die)
#   singularity_event {removed: [{host, name, owner, totems, life_before, life}]} then one totems_returned
#     {host, totems, life_before, life} per host that carried totems
#   totem_removed {host, totem, life_before, life} · cards_gained {player, count, hand, discard, what}
#   item_added {host, item, replaced, life_before, life} · life {host, before, life, change, cause}
#   cured {host, condition, had} · protected {host, until} · condition {host, condition, ticks}
#   item_lost {host, item} · totem_dormant {host, totem, dormant} · host_edited {host, changes}
#   hand {player, hand, totems_in_hand} · attack {attacker, defender, attack_dice, defense_dice}
#   rolled {striker, target, attack_rolled, defense_rolled} · place_bonuses {attack_values,
#     defense_values, damage_to_target, damage_to_striker} (the suggestion)
#   exchange {number, striker, target, striker_name, target_name, attack_rolled, defense_rolled,
#     attack_values, defense_values, outcomes, damage_to_target, damage_to_striker} followed by
#     exchange_detail {number} lines, exchange_result {target, striker, target_life, striker_life}
#     and strike_back {striker, attack_dice, defense_dice} while the fight goes on
#   item_used {host, item} · card_played {player} · support_host {host, name, player, until}
#   fled {host, other, until} · roles_swap {striker} · both_fall {hosts}
#   fight_won {winner, loser, winner_name, loser_name, life} · totems_absorbed {host, totems,
#     life_before, life, attack_dice, defense_dice} · resting {host, until}
#   binomial_rest {host, totem, until} · win {player, reason}


def apply(state: State, action: Action, dice: Dice) -> tuple[State, list[Event]]:
    """The next state and what happened. Raises RuleError/InputError, changing nothing."""
    if state.winner is not None:
        raise RuleError(Msg("The game is over: {outcome}.", outcome=outcome(state)))
    kind = action.kind
    if state.combat is not None and state.combat.pending is not None and kind != "place_dice":
        raise RuleError(Msg("Place the item bonuses of the roll first (or take the suggestion)."))
    if state.combat is not None and kind not in ("roll", "place_dice", "support", "adjust_life", "set_hand"):
        raise RuleError(Msg("A combat is under way: roll, or use an item/support host to heal or flee."))
    if state.combat is None and kind in ("roll", "place_dice", "support"):
        raise RuleError(Msg("There is no combat under way."))
    if kind in PLAYS:
        why = play_refusal(state, kind)
        if why:
            raise RuleError(why)
    s = State.model_validate_json(state.model_dump_json())  # a copy to change (3× quicker than a deep copy)
    ev: list[Event] = []
    handler = _HANDLERS[kind]
    handler(s, action, dice, ev)
    _update_lone(s, at_turn_start=False)
    _check_totem_goal(s, ev)
    return s, ev


def _own_host(state: State, host_id: int) -> Host:
    h = find_host(state, host_id)
    if h.owner != current_player(state):
        raise RuleError(Msg("{host} belongs to {player}; it isn't their turn.", host=h.name,
                            player=state.players[h.owner].name))
    return h


def _check_name(what: Literal["host", "totem", "item"], name: str) -> str:
    name = name.strip()
    if not 1 <= len(name) <= NAME_LENGTH:
        n, most = len(name), NAME_LENGTH
        raise InputError(Msg("A host name has 1 to {most} characters (got {n}).", most=most, n=n) if what == "host" else
                         Msg("A totem name has 1 to {most} characters (got {n}).", most=most, n=n) if what == "totem" else
                         Msg("An item name has 1 to {most} characters (got {n}).", most=most, n=n))
    return name


def _check_index(what: Literal["totem", "item"], index: int, length: int, holder: str) -> None:
    totem = what == "totem"
    if length == 0:
        raise RuleError(Msg("{host} has no totems.", host=holder) if totem else Msg("{host} has no items.", host=holder))
    if not 0 <= index < length:
        raise InputError(
            Msg("{host}'s totem index must be between 0 and {high} (got {got}).", host=holder, high=length - 1, got=index)
            if totem else
            Msg("{host}'s item index must be between 0 and {high} (got {got}).", host=holder, high=length - 1, got=index))


def _change_life(host: Host, delta: int) -> int:
    """Add delta to current life, never above 24. Falling at 0 or less is handled by the caller."""
    host.life = min(LIFE_CAP, host.life + delta)
    return host.life


def _gain_cards(s: State, player: int, count: int, ev: list[Event], what: Any) -> None:
    """`what`: the cards in words (a Msg, or a totem's name); the event's data keeps them in English."""
    p = s.players[player]
    total = p.hand + count
    p.hand = min(HAND_LIMIT, total)
    discard = max(0, total - HAND_LIMIT)
    data = dict(player=player, count=count, hand=p.hand, discard=discard,
                what=what.english if isinstance(what, Msg) else what)
    if discard:
        ev.append(event("cards_gained",
                        Msg("{player} takes {what} into hand: {total} cards, over the limit of {limit}: discard "
                            "{discard} of your choice (hand stays {limit}).", player=p.name, what=what, total=total,
                            limit=HAND_LIMIT, discard=discard), **data))
    elif count:
        ev.append(event("cards_gained", Msg("{player} takes {what} into hand ({hand} cards).", player=p.name, what=what,
                                            hand=p.hand), **data))


def _play_card(s: State, player: int) -> None:
    p = s.players[player]
    p.hand = max(0, p.hand - 1)
    p.totems_in_hand = min(p.totems_in_hand, p.hand)


def _dice_text(host: Host) -> Msg:
    """"attack 3 dice, defense 1 die"."""
    return Msg("attack {attack}, defense {defense}", attack=NMsg("{n} die", "{n} dice", attack_dice(host)),
               defense=NMsg("{n} die", "{n} dice", defense_dice(host)))


def _who(s: State, host: Host) -> str:
    """A host and its owner, as names: "Wolfmother (Ana)"."""
    return f"{host.name} ({s.players[host.owner].name})"


def _life_event(h: Host, before: int, cause: str, text: Msg) -> Event:
    return event("life", text, host=h.id, before=before, life=h.life, change=h.life - before, cause=cause)


# --- Turn flow ---


def _deploy(s: State, a: Deploy, dice: Dice, ev: list[Event]) -> None:
    _check_name("host", a.card.name)
    me = current_player(s)
    first_play = s.played is None
    h = _new_host(s, me, a.card, a.support)
    _play_card(s, me)
    if first_play:
        s.played = "deploy"
    said = dict(host=_who(s, h), dice=_dice_text(h), life=h.life, when=marker_end(s, h.protected_until))
    ev.append(event(
        "deployed",
        Msg("{host} joins as a support host: {dice}, life {life}. Protected until {when} (one full round).", **said)
        if a.support else Msg("{host} is deployed: {dice}, life {life}. Protected until {when} (one full round).", **said),
        host=h.id, name=h.name, player=me, support=a.support, attack_dice=attack_dice(h), defense_dice=defense_dice(h),
        life=h.life, protected_until=h.protected_until,
    ))
    if not first_play:
        ev.append(event("deploy_again", Msg("A host-less player may deploy a host at once, even after playing a card."),
                        player=me))


def _new_host(s: State, owner: int, card: HostCard, support: bool) -> Host:
    h = Host(
        id=s.next_host_id, owner=owner, name=card.name.strip(), attack=card.attack, defense=card.defense,
        base_life=card.life, life=card.life, check_bonus=card.check_bonus, free_totems=card.free_totems,
        support=support, protected_until=_marker_until(s),
    )
    s.next_host_id += 1
    s.hosts.append(h)
    return h


def _end_turn(s: State, a: EndTurn, dice: Dice, ev: list[Event]) -> None:
    me = current_player(s)
    name = s.players[me].name
    drew = s.played != "attack" and a.draw
    if s.played == "attack":
        text = Msg("{player} ends the turn (no card is drawn after a combat).", player=name)
    elif a.draw:
        total = s.players[me].hand + 1
        if total > HAND_LIMIT:
            text = Msg("{player} draws 1 card: that is {total}, so discard 1 of your choice (hand limit {limit}).",
                       player=name, total=total, limit=HAND_LIMIT)
        elif s.played is None:
            text = Msg("{player} passes and draws 1 card ({total} in hand).", player=name, total=total)
        else:
            text = Msg("{player} ends the turn and draws 1 card ({total} in hand).", player=name, total=total)
        s.players[me].hand = min(HAND_LIMIT, total)
    else:
        text = Msg("{player} ends the turn without drawing.", player=name)
    ev.append(event("turn_ended", text, player=me, drew=drew, hand=s.players[me].hand))
    s.turn_no += 1
    s.played = None
    s.last_exchange = None
    _start_turn(s, ev)


def _start_turn(s: State, ev: list[Event]) -> None:
    """Start of a turn: markers end, conditions tick (before the player acts), wins are checked."""
    me = current_player(s)
    ev.append(event("turn", Msg("Round {round}: {player}'s turn.", round=round_no(s), player=s.players[me].name),
                    round=round_no(s), player=me))
    for h in s.hosts:
        if h.protected_until is not None and s.turn_no >= h.protected_until:
            h.protected_until = None
            ev.append(event("marker_ended", Msg("{host} is no longer Protected.", host=_who(s, h)), host=h.id,
                            marker="protected"))
        if h.resting_until is not None and s.turn_no >= h.resting_until:
            h.resting_until = None
            ev.append(event("marker_ended", Msg("{host} is no longer Resting.", host=_who(s, h)), host=h.id,
                            marker="resting"))
    every = s.settings.condition_tick == "every_turn"
    for h in list(s.hosts):
        if every or h.owner == me:
            _tick(s, h, ev)
    _remove_fallen(s, ev)
    _update_lone(s, at_turn_start=True)
    _check_lone_win(s, ev)


def _tick(s: State, h: Host, ev: list[Event]) -> None:
    every = s.settings.condition_tick == "every_turn"
    kept: list[Condition] = []
    for c in h.conditions:
        left = None if c.ticks_left is None else c.ticks_left - 1
        if c.kind == "poisoned":
            _change_life(h, -POISON_DAMAGE)
            said = dict(host=_who(s, h), damage=POISON_DAMAGE, life=h.life)
            ev.append(event("condition_tick",
                            Msg("{host} is Poisoned: −{damage} life → {life} (at the start of every turn, until cured).",
                                **said) if every else
                            Msg("{host} is Poisoned: −{damage} life → {life} (at the start of its owner's turn, until "
                                "cured).", **said),
                            host=h.id, condition=c.kind, damage=POISON_DAMAGE, life=h.life, ticks_left=left))
        elif c.kind == "burning":
            _change_life(h, -BURNING_DAMAGE)
            said = dict(host=_who(s, h), damage=BURNING_DAMAGE, life=h.life)
            ev.append(event("condition_tick",
                            Msg("{host} is Burning: −{damage} life → {life}.", **said) if left is None else
                            Msg("{host} is Burning: −{damage} life → {life}, {left} more.", left=left, **said),
                            host=h.id, condition=c.kind, damage=BURNING_DAMAGE, life=h.life, ticks_left=left))
        if c.ticks_left is not None:
            c.ticks_left -= 1
            if c.ticks_left <= 0:
                ev.append(event("condition_ended", Msg("{condition} on {host} has run its course and ends.",
                                                       condition=CONDITION_NAMES[c.kind], host=h.name),
                                host=h.id, condition=c.kind))
                continue
        kept.append(c)
    h.conditions = kept


def _remove_fallen(s: State, ev: list[Event]) -> None:
    """Hosts at 0 life or less outside a combat leave the table (RULES.md: one threshold)."""
    for h in [h for h in s.hosts if h.life <= 0]:
        _take_off_table(s, h, ev, Msg("is at {life} life", life=h.life))


def _take_off_table(s: State, h: Host, ev: list[Event], why: Msg) -> None:
    """`why`: what the host does or is ("falls at -2 life"): the sentence's verb; the event's data
    keeps it in English as the cause."""
    # Decision: with no victor, the totems go back into the encounter deck (as in a singularity
    # event) and the items to the discard pile.
    s.hosts = [x for x in s.hosts if x.id != h.id]
    parts: list[Msg] = [Msg("{host} {why}: take the host card off the table to the discard pile", host=_who(s, h),
                            why=why)]
    if h.items:
        parts.append(Msg("its items ({items}) to the discard pile", items=", ".join(i.name for i in h.items)))
    if h.totems:
        parts.append(Msg("shuffle its totems ({totems}) back into the encounter deck",
                         totems=", ".join(t.name for t in h.totems)))
    ev.append(event("host_removed", joined(parts) + ".", host=h.id, name=h.name, player=h.owner, life=h.life,
                    items=[i.name for i in h.items], totems=[t.name for t in h.totems], cause=why.english))


# --- Fortifying ---


def _attach_totem(s: State, a: AttachTotem, dice: Dice, ev: list[Event]) -> None:
    t = a.totem
    _check_name("totem", t.name)
    h = _own_host(s, a.host)
    if h.support:
        raise RuleError(Msg("{host} is a support host: it can carry items but not totems.", host=h.name))
    if t.key in binomial_keys(h):
        raise RuleError(Msg("{host} already carries a {totem} card: a host can't carry both cards of one binomial totem.",
                            host=h.name, totem=t.name))
    me = current_player(s)
    if a.from_hand:
        if s.players[me].totems_in_hand:
            s.players[me].totems_in_hand -= 1
        _play_card(s, me)
    s.played = "totem"
    attached = t.model_copy(update={"name": t.name.strip()})
    h.totems.append(attached)
    before = h.life
    _change_life(h, t.life)
    mods = dict(attack=f"{t.attack:+d}", defense=f"{t.defense:+d}", life=f"{t.life:+d}")
    said = dict(host=_who(s, h), totem=t.name, dice=_dice_text(h), before=before, life=h.life,
                mods=Msg("{attack} attack, {defense} defense, {life} life, dormant", **mods) if t.dormant else
                Msg("{attack} attack, {defense} defense, {life} life", **mods))
    ev.append(event(
        "totem_attached",
        Msg("{host} bonds with {totem} ({mods}): {dice}; life {before} → {life} (capped at {cap}).", cap=LIFE_CAP, **said)
        if before + t.life > LIFE_CAP else Msg("{host} bonds with {totem} ({mods}): {dice}; life {before} → {life}.", **said),
        host=h.id, totem=attached.model_dump(mode="json"), life_before=before, life=h.life,
        attack_dice=attack_dice(h), defense_dice=defense_dice(h),
    ))
    _singularity_check(s, h, dice, ev)
    _remove_fallen(s, ev)


def _remove_totem(s: State, a: RemoveTotem, dice: Dice, ev: list[Event]) -> None:
    h = _own_host(s, a.host)
    _check_index("totem", a.totem, len(h.totems), h.name)
    t = h.totems.pop(a.totem)
    s.played = "remove_totem"
    before = h.life
    _change_life(h, -t.life)
    said = dict(totem=t.name, host=_who(s, h), dice=_dice_text(h), before=before, life=h.life)
    ev.append(event(
        "totem_removed",
        Msg("{totem} leaves {host} for the hand: {dice}; life {before} → {life} (a damage of {damage}).", damage=t.life,
            **said) if t.life > 0 else
        Msg("{totem} leaves {host} for the hand: {dice}; life {before} → {life} (its life modifier taken away).", **said),
        host=h.id, totem=t.name, life_before=before, life=h.life,
    ))
    _gain_cards(s, h.owner, 1, ev, t.name)
    s.players[h.owner].totems_in_hand = min(s.players[h.owner].hand, s.players[h.owner].totems_in_hand + 1)
    _remove_fallen(s, ev)


def _add_item(s: State, a: AddItem, dice: Dice, ev: list[Event]) -> None:
    it = a.item
    _check_name("item", it.name)
    h = _own_host(s, a.host)
    replaced = None
    if a.replace is not None:
        _check_index("item", a.replace, len(h.items), h.name)
        replaced = h.items.pop(a.replace)
    elif len(h.items) >= MAX_ITEMS:
        raise RuleError(Msg("{host} already carries {most} items, the most a host can: choose one to replace.",
                            host=h.name, most=MAX_ITEMS))
    _play_card(s, h.owner)
    s.played = "item"
    h.items.append(it.model_copy(update={"name": it.name.strip()}))
    before = h.life
    if it.life:
        _change_life(h, it.life)
    capped = before + it.life > LIFE_CAP
    said = dict(host=_who(s, h), item=it.name, before=before, life=h.life)
    if replaced:
        said["old"] = replaced.name
        text = (Msg("{host} takes the item {item} (replacing {old}, which goes to the discard pile).", **said)
                if not it.life else
                Msg("{host} takes the item {item} (replacing {old}, which goes to the discard pile); life {before} → "
                    "{life} (capped at {cap}).", cap=LIFE_CAP, **said) if capped else
                Msg("{host} takes the item {item} (replacing {old}, which goes to the discard pile); life {before} → "
                    "{life}.", **said))
    else:
        text = (Msg("{host} takes the item {item}.", **said) if not it.life else
                Msg("{host} takes the item {item}; life {before} → {life} (capped at {cap}).", cap=LIFE_CAP, **said)
                if capped else Msg("{host} takes the item {item}; life {before} → {life}.", **said))
    ev.append(event("item_added", text, host=h.id, item=it.name.strip(),
                    replaced=replaced.name if replaced else None, life_before=before, life=h.life))


# --- Instant actions and life edits ---


def _instant(s: State, a: Instant, dice: Dice, ev: list[Event]) -> None:
    h = find_host(s, a.target)
    if a.remove_item is not None:
        _check_index("item", a.remove_item, len(h.items), h.name)
    if (a.totem is None) != (a.totem_dormant is None):
        raise InputError(Msg("To make a totem dormant or wake it, give both the totem index and dormant true/false."))
    if a.totem is not None:
        _check_index("totem", a.totem, len(h.totems), h.name)
    if not (a.damage or a.heal or a.condition or a.cure or a.remove_item is not None or a.totem is not None):
        raise InputError(Msg("An instant action needs an effect: damage, healing, a condition, a cure, an item removed "
                             "or a totem made dormant."))
    harmful = (
        a.damage > 0 or a.condition in CONDITIONS or a.remove_item is not None or bool(a.totem_dormant)
    )
    me = current_player(s)
    if harmful and h.owner != me and is_protected(s, h):
        raise RuleError(Msg("{host} is Protected until {when}: it can't be attacked, not even by an instant action.",
                            host=h.name, when=marker_end(s, h.protected_until)))
    if a.from_hand:
        _play_card(s, me)
    s.played = "instant"
    who = _who(s, h)
    if a.damage or a.heal:
        before = h.life
        _change_life(h, a.heal - a.damage)
        said = dict(host=who, damage=a.damage, heal=a.heal, before=before, life=h.life)
        ev.append(_life_event(h, before, "instant",
                              Msg("{host}: −{damage} damage +{heal} healing → life {before} → {life}.", **said)
                              if a.damage and a.heal else
                              Msg("{host}: −{damage} damage → life {before} → {life}.", **said) if a.damage else
                              Msg("{host}: +{heal} healing → life {before} → {life}.", **said)))
    if a.cure:
        had = has_condition(h, a.cure)
        h.conditions = [c for c in h.conditions if c.kind != a.cure]
        condition = CONDITION_WORDS[a.cure]
        ev.append(event("cured", Msg("{host} is cured of {condition}.", host=who, condition=condition) if had else
                        Msg("{host} wasn't {condition}; nothing to cure.", host=who, condition=condition),
                        host=h.id, condition=a.cure, had=had))
    if a.condition == "protected":
        h.protected_until = _marker_until(s)
        ev.append(event("protected", Msg("{host} is Protected until {when}.", host=who,
                                         when=marker_end(s, h.protected_until)),
                        host=h.id, until=h.protected_until))
    elif a.condition:
        ticks = a.duration if a.duration is not None else (BURNING_TICKS if a.condition == "burning" else None)
        h.conditions = [c for c in h.conditions if c.kind != a.condition] + [Condition(kind=a.condition, ticks_left=ticks)]
        condition = CONDITION_WORDS[a.condition]
        ev.append(event("condition", Msg("{host} is {condition} until cured.", host=who, condition=condition)
                        if ticks is None else
                        NMsg("{host} is {condition} for {n} turn.", "{host} is {condition} for {n} turns.", ticks,
                             host=who, condition=condition),
                        host=h.id, condition=a.condition, ticks=ticks))
    if a.remove_item is not None:
        it = h.items.pop(a.remove_item)
        ev.append(event("item_lost", Msg("{host} loses the item {item}: to the discard pile.", host=who, item=it.name),
                        host=h.id, item=it.name))
    if a.totem is not None:
        t = h.totems[a.totem]
        t.dormant = bool(a.totem_dormant)
        said = dict(totem=t.name, host=who, dice=_dice_text(h))
        ev.append(event("totem_dormant", Msg("{totem} on {host} is dormant: its dice no longer count; {dice}.", **said)
                        if t.dormant else Msg("{totem} on {host} is awake again; {dice}.", **said),
                        host=h.id, totem=t.name, dormant=t.dormant))
    _remove_fallen(s, ev)


def _adjust_life(s: State, a: AdjustLife, dice: Dice, ev: list[Event]) -> None:
    h = find_host(s, a.host)
    why = life_change_refusal(h, a.delta)
    if why:
        raise InputError(why)
    before = h.life
    _change_life(h, a.delta)
    ev.append(_life_event(h, before, "adjust", Msg("{host}: life {before} → {life} ({change}).", host=_who(s, h),
                                                   before=before, life=h.life, change=f"{a.delta:+d}")))
    if s.combat is not None and h.id in (s.combat.attacker, s.combat.defender):
        _check_combat_end(s, dice, ev)
    _remove_fallen(s, ev)


def _edit_host(s: State, a: EditHost, dice: Dice, ev: list[Event]) -> None:
    h = find_host(s, a.host)
    changes: dict[str, Any] = {}
    if a.name is not None:
        h.name = changes["name"] = _check_name("host", a.name)
    for field in ("attack", "defense", "base_life", "check_bonus", "free_totems"):
        value = getattr(a, field)
        if value is not None:
            setattr(h, field, value)
            changes[field] = value
    if not changes:
        raise InputError(Msg("Nothing to change: give a name, attack ({attack}), defense ({defense}), base life ({life}) "
                             "or a talent.", attack=f"{HOST_ATTACK[0]}–{HOST_ATTACK[1]}",
                             defense=f"{HOST_DEFENSE[0]}–{HOST_DEFENSE[1]}", life=f"{HOST_LIFE[0]}–{HOST_LIFE[1]}"))
    said = joined([_change_words(k, v) for k, v in changes.items()])
    ev.append(event("host_edited", Msg("{host} corrected: {changes}; {dice}.", host=_who(s, h), changes=said,
                                       dice=_dice_text(h)), host=h.id, changes=changes))


def _change_words(field: str, value: Any) -> Msg:
    """One corrected number of a host card, in words: "base life 9"."""
    if field == "name":
        return Msg("name {value}", value=value)
    if field == "attack":
        return Msg("attack {value}", value=value)
    if field == "defense":
        return Msg("defense {value}", value=value)
    if field == "base_life":
        return Msg("base life {value}", value=value)
    if field == "check_bonus":
        return Msg("singularity check bonus {value}", value=value)
    return Msg("totems without a check {value}", value=value)


def _set_hand(s: State, a: SetHand, dice: Dice, ev: list[Event]) -> None:
    _in_range(Msg("Player"), a.player, 0, len(s.players) - 1)
    p = s.players[a.player]
    p.hand = a.hand
    if a.totems_in_hand is not None:
        _in_range(Msg("Totems in hand"), a.totems_in_hand, 0, a.hand)
        p.totems_in_hand = a.totems_in_hand
    p.totems_in_hand = min(p.totems_in_hand, p.hand)
    ev.append(event("hand", NMsg("{player} has {n} card in hand ({totems} of them totems).",
                                 "{player} has {n} cards in hand ({totems} of them totems).", p.hand, player=p.name,
                                 totems=p.totems_in_hand),
                    player=a.player, hand=p.hand, totems_in_hand=p.totems_in_hand))


def _in_range(field: Msg, value: int, low: int, high: int) -> None:
    """Refuse a number outside low..high, naming the range (as `base.require_range`, in words)."""
    if not low <= value <= high:
        raise InputError(Msg("{field} must be between {low} and {high} (got {got}).", field=field, low=low, high=high,
                             got=str(value)))


# --- Singularity ---


def _singularity_check(s: State, h: Host, dice: Dice, ev: list[Event]) -> None:
    """Whenever a host gains totems: 1d6 + bonuses must reach its new totem count."""
    count = len(h.totems)
    chance = singularity_chance(s, h)
    if chance is None:
        ev.append(event("singularity_check", NMsg("{host} carries {n} totem: no singularity check (talent: up to {free} "
                                                  "without one).", "{host} carries {n} totems: no singularity check "
                                                  "(talent: up to {free} without one).", count, host=h.name,
                                                  free=h.free_totems),
                        host=h.id, totems=count, bonus=0, face=None, total=None, passed=True))
        return
    bonus = check_bonus(h)
    if 1 + bonus >= count and s.settings.sure_checks_pass and asks_the_table(dice):
        # No face can fail: a physical table isn't asked for a die that can't matter (the app's dice still
        # roll it, below, as they always did).
        lowest = f"1 {'+' if bonus >= 0 else '−'} {abs(bonus)}" if bonus else "1"
        ev.append(event("singularity_check", NMsg(
            "Singularity check for {host} ({n} totem): passed without a die — the lowest roll, {lowest}, already "
            "reaches {n}.", "Singularity check for {host} ({n} totems): passed without a die — the lowest roll, "
            "{lowest}, already reaches {n}.", count, host=h.name, lowest=lowest),
            host=h.id, totems=count, bonus=bonus, face=None, total=None, passed=True, sure=True))
        return
    roll = _throw(dice, chance)[0]
    total = roll + bonus
    shown = f"{roll} {'+' if bonus >= 0 else '−'} {abs(bonus)} = {total}" if bonus else str(roll)
    passed = total >= count
    text = (NMsg("Singularity check for {host} ({n} totem): rolled {roll} ≥ {n}, passed.",
                 "Singularity check for {host} ({n} totems): rolled {roll} ≥ {n}, passed.", count, host=h.name, roll=shown)
            if passed else
            NMsg("Singularity check for {host} ({n} totem): rolled {roll} < {n}, failed!",
                 "Singularity check for {host} ({n} totems): rolled {roll} < {n}, failed!", count, host=h.name, roll=shown))
    ev.append(event("singularity_check", text,
                    host=h.id, totems=count, bonus=bonus, face=roll, total=total, passed=passed))
    if not passed:
        _singularity_event(s, ev)


def _singularity_event(s: State, ev: list[Event]) -> None:
    removed = []
    for h in s.hosts:
        if not h.totems:
            continue
        before = h.life
        names = [t.name for t in h.totems]
        for t in h.totems:
            _change_life(h, -t.life)
        h.totems = []
        removed.append(dict(host=h.id, name=h.name, owner=h.owner, totems=names, life_before=before, life=h.life))
    ev.append(event("singularity_event", Msg("SINGULARITY EVENT: every totem leaves every host on the table and is "
                                             "shuffled back into the encounter deck (totems in hands stay)."),
                    removed=removed))
    for r in removed:
        h = find_host(s, r["host"])
        ev.append(event("totems_returned", Msg("Take {totems} off {host}: life {before} → {life}; {dice}.",
                                               totems=", ".join(r["totems"]), host=_who(s, h), before=r["life_before"],
                                               life=h.life, dice=_dice_text(h)),
                        host=h.id, totems=r["totems"], life_before=r["life_before"], life=h.life))
    _remove_fallen(s, ev)


# --- Combat ---


def _attack(s: State, a: Attack, dice: Dice, ev: list[Event]) -> None:
    why = attack_refusal(s, a.attacker, a.defender)
    if why:
        raise RuleError(why)
    att, dfn = find_host(s, a.attacker), find_host(s, a.defender)
    s.combat = Combat(attacker=att.id, defender=dfn.id, striker=att.id)
    s.played = "attack"
    n_a, n_d = strike_dice(s, att), defense_dice(dfn)
    ev.append(event(
        "attack",
        Msg("{attacker} attacks {defender}: {attack} vs {defense}. The attacker rolls first.", attacker=_who(s, att),
            defender=_who(s, dfn), attack=NMsg("{n} attack die", "{n} attack dice", n_a),
            defense=NMsg("{n} defense die", "{n} defense dice", n_d)),
        attacker=att.id, defender=dfn.id, attack_dice=n_a, defense_dice=n_d,
    ))


def _other(c: Combat, host_id: int) -> int:
    return c.defender if host_id == c.attacker else c.attacker


def _roll(s: State, a: Roll, dice: Dice, ev: list[Event]) -> None:
    """One exchange: two chance nodes (the striker's owner rolls the attack dice, then the struck
    host's owner the defense dice), resolved at once unless item bonuses are to be placed."""
    c = s.combat
    striker, target = find_host(s, c.striker), find_host(s, _other(c, c.striker))
    number = c.exchanges + 1
    a_rolled = _throw(dice, attack_chance(s, striker, target, number))
    d_rolled = _throw(dice, defense_chance(s, striker, target, number, a_rolled))
    ab, db = item_bonuses(striker, "attack"), item_bonuses(target, "defense")
    if ab or db:
        a_vals, _ = cb.apply_wild(a_rolled)
        d_vals, _ = cb.apply_wild(d_rolled)
        pa, pd = cb.suggest_placement(sorted(a_vals, reverse=True), sorted(d_vals, reverse=True), ab, db)
        c.pending = PendingRoll(
            attack_rolled=a_rolled, defense_rolled=d_rolled,
            attack_bonuses=[(b.plus, b.dice) for b in ab], defense_bonuses=[(b.plus, b.dice) for b in db],
            suggested_attack=[list(p) for p in pa], suggested_defense=[list(p) for p in pd],
        )
        preview = cb.resolve(a_rolled, d_rolled, ab, db, pa, pd)
        ev.append(event("rolled", Msg("{striker} rolls {attack} against {target}'s {defense}.", striker=striker.name,
                                      attack=cb.fmt_rolled(a_rolled), target=target.name,
                                      defense=cb.fmt_rolled(d_rolled)),
                        striker=striker.id, target=target.id, attack_rolled=a_rolled, defense_rolled=d_rolled))
        ev.append(event(
            "place_bonuses",
            Msg("Place the item bonuses. Suggested (most hits): attack {attack} vs defense {defense}, {target} would take "
                "{to_target}, {striker} {to_striker}.", attack=fmt_dice(preview.attack_values),
                defense=fmt_dice(preview.defense_values), target=target.name, to_target=preview.damage_to_defender,
                striker=striker.name, to_striker=preview.damage_to_attacker),
            attack_values=list(preview.attack_values), defense_values=list(preview.defense_values),
            damage_to_target=preview.damage_to_defender, damage_to_striker=preview.damage_to_attacker,
        ))
        return
    _resolve(s, cb.resolve(a_rolled, d_rolled), dice, ev)


def _throw(dice: Dice, chance: Chance) -> list[int]:
    """Take a declared roll (as `base.throw` does: no dice, nothing to roll or to ask for)."""
    return dice.throw(chance) if chance.count > 0 else []


def _place_dice(s: State, a: PlaceDice, dice: Dice, ev: list[Event]) -> None:
    p = s.combat.pending
    ab = [cb.Bonus(x, y) for x, y in p.attack_bonuses]
    db = [cb.Bonus(x, y) for x, y in p.defense_bonuses]
    pa = tuple(tuple(x) for x in (a.attack if a.attack is not None else p.suggested_attack))
    pd = tuple(tuple(x) for x in (a.defense if a.defense is not None else p.suggested_defense))
    ex = cb.resolve(p.attack_rolled, p.defense_rolled, ab, db, pa, pd)  # validates the placement
    s.combat.pending = None
    _resolve(s, ex, dice, ev)


def _resolve(s: State, ex: cb.Exchange, dice: Dice, ev: list[Event]) -> None:
    c = s.combat
    striker, target = find_host(s, c.striker), find_host(s, _other(c, c.striker))
    number = c.exchanges + 1
    outcomes = [p.outcome for p in ex.pairs]
    ev.append(event(
        "exchange", Msg("Exchange {number}: {striker} attacks, {target} defends.", number=number, striker=striker.name,
                        target=target.name),
        number=number, striker=striker.id, target=target.id, striker_name=striker.name, target_name=target.name,
        attack_rolled=list(ex.attack_rolled), defense_rolled=list(ex.defense_rolled),
        attack_values=list(ex.attack_values), defense_values=list(ex.defense_values), outcomes=outcomes,
        damage_to_target=ex.damage_to_defender, damage_to_striker=ex.damage_to_attacker,
    ))
    ev.extend(event("exchange_detail", line, number=number) for line in ex.lines())
    _change_life(target, -ex.damage_to_defender)
    _change_life(striker, -ex.damage_to_attacker)
    ev.append(event("exchange_result", Msg("{target} life → {target_life}, {striker} life → {striker_life}.",
                                           target=target.name, target_life=target.life, striker=striker.name,
                                           striker_life=striker.life),
                    target=target.id, striker=striker.id, target_life=target.life, striker_life=striker.life))
    s.last_exchange = ExchangeRecord(
        striker=striker.id, target=target.id,
        attack_rolled=list(ex.attack_rolled), defense_rolled=list(ex.defense_rolled),
        attack_values=list(ex.attack_values), defense_values=list(ex.defense_values),
        outcomes=outcomes, damage_to_target=ex.damage_to_defender, damage_to_striker=ex.damage_to_attacker,
    )
    c.exchanges += 1
    c.striker = target.id  # the tables turn: the defender counter-attacks
    if not _check_combat_end(s, dice, ev):
        n_a, n_d = strike_dice(s, target), defense_dice(striker)
        ev.append(event("strike_back", Msg("{host} now attacks ({attack} attack vs {defense} defense), or heals/flees "
                                           "instead.", host=target.name, attack=n_a, defense=n_d),
                        striker=target.id, attack_dice=n_a, defense_dice=n_d))


def _support(s: State, a: Support, dice: Dice, ev: list[Event]) -> None:
    c = s.combat
    h = find_host(s, c.striker)
    if a.use_item is not None:
        _check_index("item", a.use_item, len(h.items), h.name)
    if a.support_host is not None:
        _check_name("host", a.support_host.name)
    if not (a.heal or a.flee or a.use_item is not None or a.from_hand or a.support_host):
        raise InputError(Msg("Say what the support does: heal, flee, an item used, a card from the hand or a support "
                             "host."))
    who = _who(s, h)
    if a.use_item is not None:
        it = h.items.pop(a.use_item)
        ev.append(event("item_used", Msg("{host} uses {item}: to the discard pile.", host=who, item=it.name), host=h.id,
                        item=it.name))
    if a.from_hand:
        _play_card(s, h.owner)
        ev.append(event("card_played", Msg("{player} plays a card from the hand.", player=s.players[h.owner].name),
                        player=h.owner))
    if a.support_host is not None:
        sh = _new_host(s, h.owner, a.support_host, True)
        ev.append(event("support_host", Msg("{host} joins as a support host: Protected until {when}.", host=_who(s, sh),
                                            when=marker_end(s, sh.protected_until)),
                        host=sh.id, name=sh.name, player=sh.owner, until=sh.protected_until))
    if a.heal:
        before = h.life
        _change_life(h, a.heal)
        said = dict(host=who, heal=a.heal, before=before, life=h.life)
        ev.append(_life_event(h, before, "heal",
                              Msg("{host} heals {heal}: life {before} → {life} (capped at {cap}).", cap=LIFE_CAP, **said)
                              if before + a.heal > LIFE_CAP else Msg("{host} heals {heal}: life {before} → {life}.", **said)))
    if a.flee:
        other = find_host(s, _other(c, h.id))
        h.protected_until = _marker_until(s)
        ev.append(event("fled", Msg("{host} flees the fight: both hosts survive; {name} is Protected until {when}.",
                                    host=who, name=h.name, when=marker_end(s, h.protected_until)),
                        host=h.id, other=other.id, until=h.protected_until))
        pairs = binomial_keys(h) | binomial_keys(other)
        s.combat = None
        _rest_binomials(s, pairs, {h.id, other.id}, ev)
        return
    c.striker = _other(c, h.id)
    nxt = find_host(s, c.striker)
    ev.append(event("roles_swap", Msg("{host} used the attack to support instead of rolling; the tables turn: {next} "
                                      "attacks next.", host=h.name, next=nxt.name),
                    striker=nxt.id))


def _check_combat_end(s: State, dice: Dice, ev: list[Event]) -> bool:
    """If a fighter is at 0 life or less, the fight ends and the spoils move. True if it ended."""
    c = s.combat
    att, dfn = find_host(s, c.attacker), find_host(s, c.defender)
    fallen = [h for h in (att, dfn) if h.life <= 0]
    if not fallen:
        return False
    pairs = binomial_keys(att) | binomial_keys(dfn)
    s.combat = None
    if len(fallen) == 2:
        ev.append(event("both_fall", Msg("Both hosts fall in the same exchange: no victor."), hosts=[att.id, dfn.id]))
        for h in fallen:
            _take_off_table(s, h, ev, Msg("falls at {life} life", life=h.life))
        _rest_binomials(s, pairs, {att.id, dfn.id}, ev)
        return True
    loser = fallen[0]
    winner = dfn if loser is att else att
    ev.append(event("fight_won", Msg("{loser} falls at {life} life: {winner} wins the fight.", loser=_who(s, loser),
                                     life=loser.life, winner=_who(s, winner)),
                    winner=winner.id, loser=loser.id, winner_name=winner.name, loser_name=loser.name, life=loser.life))
    s.hosts = [h for h in s.hosts if h.id != loser.id]
    ev.append(event("host_removed", Msg("Take {host} off the table to the discard pile.", host=loser.name), host=loser.id,
                    name=loser.name, player=loser.owner, life=loser.life, items=[], totems=[],
                    cause=Msg("lost the fight").english))
    if loser.items:
        _gain_cards(s, winner.owner, len(loser.items), ev,
                    Msg("{host}'s items ({items})", host=loser.name, items=", ".join(i.name for i in loser.items)))
    if loser.totems:
        names = ", ".join(t.name for t in loser.totems)
        vessel = next((i for i in winner.items if i.vessel), None)
        if vessel is not None:
            _gain_cards(s, winner.owner, len(loser.totems), ev,
                        Msg("the totems {totems} (captured by the vessel {vessel}; no singularity check)", totems=names,
                            vessel=vessel.name))
            p = s.players[winner.owner]
            p.totems_in_hand = min(p.hand, p.totems_in_hand + len(loser.totems))
        else:
            before = winner.life
            for t in loser.totems:
                winner.totems.append(t)
                _change_life(winner, t.life)
            winner.support = False  # carrying totems, it is a Dizhi now
            ev.append(event("totems_absorbed", Msg("{host} absorbs {totems}: {dice}; life {before} → {life}.",
                                                   host=winner.name, totems=names, dice=_dice_text(winner),
                                                   before=before, life=winner.life),
                            host=winner.id, totems=[t.name for t in loser.totems], life_before=before, life=winner.life,
                            attack_dice=attack_dice(winner), defense_dice=defense_dice(winner)))
            _singularity_check(s, winner, dice, ev)
    if any(h.id == winner.id for h in s.hosts) and winner.life > 0:
        winner.resting_until = _marker_until(s)
        ev.append(event("resting", Msg("{host} rests until {when}: it can't start a combat (it can still be attacked).",
                                       host=winner.name, when=marker_end(s, winner.resting_until)),
                        host=winner.id, until=winner.resting_until))
    _rest_binomials(s, pairs, {att.id, dfn.id}, ev)
    _remove_fallen(s, ev)
    return True


def _rest_binomials(s: State, pairs: set[str], fighters: set[int], ev: list[Event]) -> None:
    """Both holders of a binomial totem that fought rest a full round, whatever the outcome."""
    until = _marker_until(s)
    for key in sorted(pairs):
        holders = [h for h in s.hosts if key in binomial_keys(h)]
        if len(holders) < 2 or not any(h.id not in fighters for h in holders):
            continue
        for h in holders:
            if h.resting_until != until:
                h.resting_until = until
                name = next(t.name for t in h.totems if t.key == key)
                ev.append(event("binomial_rest", Msg("{host} holds a {totem} card, a binomial totem that fought: Resting "
                                                     "until {when}.", host=_who(s, h), totem=name,
                                                     when=marker_end(s, until)),
                                host=h.id, totem=name, until=until))


# --- Win detection ---


def _update_lone(s: State, at_turn_start: bool) -> None:
    """Track the only player with a host on the table (regular play only, from round 3)."""
    if phase(s) != "play":
        return
    owners = {h.owner for h in s.hosts}
    if len(owners) != 1:
        s.lone_player = s.lone_since = None
        return
    (p,) = owners
    if s.lone_player != p:
        s.lone_player = p
        # The extra round counts the turns that start after this moment (this one, at its start).
        s.lone_since = s.turn_no if at_turn_start else s.turn_no + 1


LAST_STANDING = N_("last host standing")  # State.win_reason (the other: "<n> totems")


def win_reason_words(reason: Optional[str]) -> Any:
    """State.win_reason in words: kept in English in the state, said in the phone's language."""
    if reason == LAST_STANDING:
        return Msg("last host standing")
    count = (reason or "").split(" ")[0]
    if count.isdigit() and reason == f"{count} totems":
        return NMsg("{n} totem", "{n} totems", int(count))
    return reason or ""


def _check_lone_win(s: State, ev: list[Event]) -> None:
    """The lone player wins once every other player has had a full turn to deploy a new host."""
    if s.lone_player is None or s.winner is not None:
        return
    n = len(s.players)
    had_turn = {k % n for k in range(s.lone_since, s.turn_no)}
    others = set(range(n)) - {s.lone_player}
    if others <= had_turn:
        s.winner = s.lone_player
        s.win_reason = LAST_STANDING
        ev.append(event("win", Msg("A full round passed with no new opposing host: {player} wins, the last player with a "
                                   "host on the table.", player=s.players[s.winner].name),
                        player=s.winner, reason=s.win_reason))


def _check_totem_goal(s: State, ev: list[Event]) -> None:
    goal = s.settings.totem_goal
    if goal is None or s.winner is not None:
        return
    n = len(s.players)
    for k in range(n):
        p = (current_player(s) + k) % n
        owned = totems_owned(s, p)
        if owned >= goal:
            s.winner = p
            s.win_reason = f"{owned} totems"
            ev.append(event("win", NMsg("{player} owns {n} totem, reaching the goal of {goal}: {player} wins.",
                                        "{player} owns {n} totems, reaching the goal of {goal}: {player} wins.", owned,
                                        player=s.players[p].name, goal=goal),
                            player=p, reason=s.win_reason))
            return


_HANDLERS = {
    "deploy": _deploy, "attach_totem": _attach_totem, "remove_totem": _remove_totem, "add_item": _add_item,
    "instant": _instant, "attack": _attack, "roll": _roll, "place_dice": _place_dice, "support": _support,
    "end_turn": _end_turn, "adjust_life": _adjust_life, "edit_host": _edit_host, "set_hand": _set_hand,
}


# --- Odds for the UI -------------------------------------------------------------------------------


def combat_odds(state: State, attacker_id: int, defender_id: int) -> odds_mod.FightOdds:
    """Exact odds for a fight between these hosts from their current life: the first exchange's
    distribution of (damage to the struck host, damage to the striker) and each side's chance to
    win. During a combat between them, from the exchange about to be rolled."""
    att, dfn = find_host(state, attacker_id), find_host(state, defender_id)

    def fighter(h: Host) -> odds_mod.Fighter:
        return odds_mod.Fighter(
            life=max(1, h.life), attack=strike_dice(state, h), defense=defense_dice(h),
            attack_bonuses=tuple(item_bonuses(h, "attack")), defense_bonuses=tuple(item_bonuses(h, "defense")),
        )

    striker = "attacker"
    c = state.combat
    if c is not None and {c.attacker, c.defender} == {attacker_id, defender_id} and c.striker == defender_id:
        striker = "defender"
    return odds_mod.fight_odds(fighter(att), fighter(dfn), striker)


# --- Describe, headline, outcome -------------------------------------------------------------------


def describe(action: Action) -> Msg:
    k = action.kind
    if k == "deploy":
        name = action.card.name
        return Msg("deploy {host} (support)", host=name) if action.support else Msg("deploy {host}", host=name)
    if k == "attach_totem":
        return Msg("attach {totem}", totem=action.totem.name)
    if k == "remove_totem":
        return Msg("remove a totem")
    if k == "add_item":
        return Msg("item {item}", item=action.item.name)
    if k == "instant":
        bits = [Msg("{n} damage", n=action.damage) if action.damage else None,
                Msg("heal {n}", n=action.heal) if action.heal else None,
                CONDITION_WORDS.get(action.condition) if action.condition else None,
                Msg("cure {condition}", condition=CONDITION_WORDS[action.cure]) if action.cure else None,
                Msg("remove an item") if action.remove_item is not None else None,
                Msg("totem dormant") if action.totem_dormant else Msg("totem awake") if action.totem is not None else None]
        return Msg("instant: {effects}", effects=joined([b for b in bits if b is not None]))
    if k == "attack":
        return Msg("attack host #{id}", id=str(action.defender))
    if k == "roll":
        return Msg("combat roll")
    if k == "place_dice":
        return Msg("place item bonuses")
    if k == "support":
        if action.flee:
            return Msg("flee")
        if action.support_host is not None:
            return Msg("support host {host}", host=action.support_host.name)
        return Msg("heal {n}", n=action.heal) if action.heal else Msg("support")
    if k == "end_turn":
        return Msg("end turn")
    if k == "adjust_life":
        return Msg("life {change}", change=f"{action.delta:+d}")
    if k == "edit_host":
        return Msg("edit host")
    return Msg("set hand size")


def label(state: State, action: Action) -> Msg:
    """`describe` with the hosts and players named, for undo and the history ("Wolfmother attacks
    Raven", "Raven life -1", "Raven flees"): a host's number means nothing at the table. `state` is
    the one the action is applied to."""
    k = action.kind
    name = lambda host_id: find_host(state, host_id).name  # noqa: E731
    if k == "attack":
        return Msg("{attacker} attacks {defender}", attacker=name(action.attacker), defender=name(action.defender))
    if k in ("roll", "place_dice", "support") and state.combat is not None:
        striker, target = exchange_roles(state)
        if k == "roll":
            return Msg("combat roll, {striker} attacks {target}", striker=striker.name, target=target.name)
        if k == "place_dice":
            return Msg("place item bonuses, {striker} attacks {target}", striker=striker.name, target=target.name)
        return (Msg("{host}: {action}", host=striker.name, action=describe(action)) if not action.flee
                else Msg("{host} flees", host=striker.name))
    if k == "attach_totem":
        return Msg("attach {totem} to {host}", totem=action.totem.name, host=name(action.host))
    if k == "remove_totem":
        host = find_host(state, action.host)
        return Msg("remove {totem} from {host}", totem=host.totems[action.totem].name, host=host.name)
    if k == "add_item":
        host = find_host(state, action.host)
        if action.replace is not None:
            return Msg("item {item} for {host}, replacing {old}", item=action.item.name, host=host.name,
                       old=host.items[action.replace].name)
        return Msg("item {item} for {host}", item=action.item.name, host=host.name)
    if k == "instant":
        return Msg("{action} on {host}", action=describe(action), host=name(action.target))
    if k == "adjust_life":
        return Msg("{host} life {change}", host=name(action.host), change=f"{action.delta:+d}")
    if k == "edit_host":
        return Msg("correct {host}", host=name(action.host))
    if k == "end_turn":
        return Msg("end {player}'s turn", player=state.players[current_player(state)].name)
    if k == "set_hand":
        return Msg("{player}'s hand: {n}", player=state.players[action.player].name, n=action.hand)
    return describe(action)


def headline(state: State) -> Msg:
    if state.winner is not None:
        return Msg("{player} wins", player=state.players[state.winner].name)
    r = round_no(state)
    if state.combat is not None:
        c = state.combat
        a, d = find_host(state, c.attacker), find_host(state, c.defender)
        return Msg("Round {round} · {attacker} vs {defender} · {striker} attacks", round=r, attacker=a.name,
                   defender=d.name, striker=find_host(state, c.striker).name)
    player = state.players[current_player(state)].name
    return {"reveal": Msg("Round {round} · Reveal · {player}", round=r, player=player),
            "fortify": Msg("Round {round} · Fortify · {player}", round=r, player=player),
            "play": Msg("Round {round} · {player}", round=r, player=player)}[phase(state)]


def outcome(state: State) -> Optional[Msg]:
    if state.winner is None:
        return None
    return Msg("{player} wins ({reason})", player=state.players[state.winner].name,
               reason=win_reason_words(state.win_reason))


GAME = Game(
    key="klaw",
    # Translators: the game's published name, printed in English on its box: keep it as it is.
    title=N_("KLAW: Were-Wars"),
    summary=Msg("Hosts, totems, items and conditions; rolls and explains every combat and singularity check."),
    Settings=Settings,
    State=State,
    Action=Action,
    new_state=new_state,
    apply=apply,
    describe=describe,
    label=label,
    headline=headline,
    outcome=outcome,
    moves=moves,
)
