"""KLAW: Were-Wars — the rules the companion applies (RULES.md §3, rulebook `004_…`).

The cards stay on the table; the app keeps every host's numbers, rolls the combat and never
forgets a poison tick. Read top to bottom:

1. Ranges and settings.
2. The state: players, hosts (with totems, items, conditions, Protected/Resting markers), the
   combat in progress, and the win tracking.
3. Actions, one class per kind of move, and `legal_actions` (what the buttons may offer now).
4. Derived numbers: dice = clamp(base + active totem modifiers, 0, 6); life capped at 24.
5. `apply`: turn flow, fortifying, instant actions, combat, singularity checks, win detection.

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

from typing import Annotated, Literal, Optional, Union

from pydantic import Field, field_validator

from companion.games.base import Dice, Game, InputError, Model, RuleError, fmt_dice, require_range, roll_many
from companion.games.klaw import combat as cb
from companion.games.klaw import odds as odds_mod

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
STARTING_HAND = 8  # 3 hosts + 5 encounter cards
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
NAME_LENGTH = 40

ConditionKind = Literal["poisoned", "burning", "sleep", "shackled"]
CONDITIONS: tuple[str, ...] = ("poisoned", "burning", "sleep", "shackled")


class Settings(Model):
    players: list[str] = Field(
        default_factory=lambda: ["Player 1", "Player 2"], min_length=2, max_length=8,
        description="Player names in turn order",
    )
    totem_goal: Optional[int] = Field(
        None, ge=1, le=48, description="Win by owning this many totems (off by default)"
    )
    condition_tick: Literal["owner_turn", "every_turn"] = Field(
        "owner_turn", description="Poison/burning tick at the start of the owner's turn, or of every turn"
    )
    shackled_max_dice: int = Field(1, ge=0, le=6, description="Attack dice a shackled host rolls when it strikes back")

    @field_validator("players")
    @classmethod
    def _names(cls, names: list[str]) -> list[str]:
        cleaned = [n.strip() for n in names]
        if any(not n or len(n) > 30 for n in cleaned):
            raise ValueError("each player needs a name of 1 to 30 characters")
        if len({n.casefold() for n in cleaned}) != len(cleaned):
            raise ValueError("player names must differ")
        return cleaned


def deck_guide(players: int) -> str:
    """The book's rule of thumb for the deck size, shown at setup."""
    return (
        f"Deck for {players} players: {6 * players} hosts, {6 * players} totems, "
        f"{30 * players} action and item cards."
    )


# --- 2. State ------------------------------------------------------------------------------------


class Totem(Model):
    name: str
    attack: int = 0
    defense: int = 0
    life: int = 0
    pair: Optional[str] = None  # binomial pair id; the totem's name when not given
    dormant: bool = False  # a dormant totem adds no dice (it still counts for checks and binomials)

    @property
    def key(self) -> str:
        return (self.pair or self.name).strip().casefold()


class Item(Model):
    name: str
    attack_plus: int = 0  # "+3 to two dice": attack_plus=3, attack_dice=2
    attack_dice: int = 0
    defense_plus: int = 0
    defense_dice: int = 0
    life: int = 0  # added to current life when the item is attached
    check_bonus: int = 0  # added to this host's singularity checks
    vessel: bool = False  # a won totem goes to the hand instead of onto the host

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

    name: str
    attack: int
    defense: int
    life: int
    check_bonus: int = 0
    free_totems: int = 0


class Deploy(Model):
    kind: Literal["deploy"] = "deploy"
    card: HostCard
    support: bool = False


class AttachTotem(Model):
    kind: Literal["attach_totem"] = "attach_totem"
    host: int
    totem: Totem
    from_hand: bool = True


class RemoveTotem(Model):
    kind: Literal["remove_totem"] = "remove_totem"
    host: int
    totem: int  # index on the host


class AddItem(Model):
    kind: Literal["add_item"] = "add_item"
    host: int
    item: Item
    replace: Optional[int] = None  # index of the item it replaces (to the discard pile)


class Instant(Model):
    """An instant action card (or a support talent used as one) on any host."""

    kind: Literal["instant"] = "instant"
    target: int
    damage: int = 0
    heal: int = 0
    condition: Optional[Literal["poisoned", "burning", "sleep", "shackled", "protected"]] = None
    duration: Optional[int] = None  # ticks; burning defaults to 3, the others last until cured
    cure: Optional[ConditionKind] = None
    remove_item: Optional[int] = None
    totem: Optional[int] = None  # index of a totem to make dormant or wake
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
    heal: int = 0
    flee: bool = False
    use_item: Optional[int] = None  # index of an item on the striking host (then discarded)
    from_hand: bool = False  # an item card played from the hand
    support_host: Optional[HostCard] = None  # a support host played from the hand


class EndTurn(Model):
    kind: Literal["end_turn"] = "end_turn"
    draw: bool = True  # draw one card (skipped anyway after a combat)


class AdjustLife(Model):
    kind: Literal["adjust_life"] = "adjust_life"
    host: int
    delta: int


class EditHost(Model):
    """Correct a host's printed numbers or talents (not its current life: use adjust_life)."""

    kind: Literal["edit_host"] = "edit_host"
    host: int
    name: Optional[str] = None
    attack: Optional[int] = None
    defense: Optional[int] = None
    base_life: Optional[int] = None
    check_bonus: Optional[int] = None
    free_totems: Optional[int] = None


class SetHand(Model):
    kind: Literal["set_hand"] = "set_hand"
    player: int
    hand: int
    totems_in_hand: Optional[int] = None


Action = Annotated[
    Union[
        Deploy, AttachTotem, RemoveTotem, AddItem, Instant, Attack, Roll, PlaceDice, Support,
        EndTurn, AdjustLife, EditHost, SetHand,
    ],
    Field(discriminator="kind"),
]

# The cards a player may play as the turn's one play.
PLAYS = ("deploy", "attach_totem", "remove_totem", "add_item", "instant", "attack")


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
    raise InputError(f"There is no host #{host_id} on the table (hosts: {', '.join(f'#{h.id}' for h in state.hosts) or 'none'}).")


def hosts_of(state: State, player: int) -> list[Host]:
    return [h for h in state.hosts if h.owner == player]


def _clamp_dice(n: int) -> int:
    return max(0, min(MAX_DICE, n))


def attack_dice(host: Host) -> int:
    """Attack dice = base + active totem modifiers, 0..6 (a dormant totem adds nothing)."""
    return _clamp_dice(host.attack + sum(t.attack for t in host.totems if not t.dormant))


def defense_dice(host: Host) -> int:
    return _clamp_dice(host.defense + sum(t.defense for t in host.totems if not t.dormant))


def strike_dice(state: State, host: Host) -> int:
    """Dice the host rolls when it strikes in a combat: a shackled host rolls at most the setting."""
    n = attack_dice(host)
    if has_condition(host, "shackled"):
        n = min(n, state.settings.shackled_max_dice)
    return n


def full_life(host: Host) -> int:
    """Base life plus totem life modifiers, capped at 24: the length of the life bar."""
    return max(0, min(LIFE_CAP, host.base_life + sum(t.life for t in host.totems)))


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


def marker_end(state: State, until: int) -> str:
    """When a marker placed with `until` ends, in the table's words."""
    last = until - 1
    n = len(state.players)
    return f"the end of {state.players[last % n].name}'s turn in round {last // n + 1}"


def _marker_until(state: State) -> int:
    # Placed now: lasts the rest of this turn and one full round of n turns.
    return state.turn_no + len(state.players) + 1


def item_bonuses(host: Host, side: Literal["attack", "defense"]) -> list[cb.Bonus]:
    out = []
    for item in host.items:
        b = item.attack_bonus() if side == "attack" else item.defense_bonus()
        if b:
            out.append(b)
    return out


def attack_refusal(state: State, attacker_id: int, defender_id: int) -> Optional[str]:
    """Why this attack can't start now, or None if it can (the UI greys out targets with this)."""
    if state.winner is not None:
        return "The game is over."
    if state.combat is not None:
        return "A combat is already under way."
    if phase(state) != "play":
        return "No attacks in the starting rounds (round 1: reveal hosts, round 2: fortify)."
    if state.played is not None:
        return f"{state.players[current_player(state)].name} already played a card this turn ({state.played})."
    try:
        a = find_host(state, attacker_id)
        d = find_host(state, defender_id)
    except InputError as e:
        return str(e)
    if a.owner != current_player(state):
        return f"{a.name} belongs to {state.players[a.owner].name}; only the player whose turn it is attacks."
    if d.owner == a.owner:
        return f"{d.name} is {state.players[a.owner].name}'s own host."
    if is_resting(state, a):
        return f"{a.name} is Resting until {marker_end(state, a.resting_until)}: a resting host can't start a combat."
    if has_condition(a, "sleep"):
        return f"{a.name} is asleep and can't act."
    if has_condition(a, "shackled"):
        return f"{a.name} is shackled and can't attack."
    if is_protected(state, d):
        return f"{d.name} is Protected until {marker_end(state, d.protected_until)}: it can't be attacked."
    shared = binomial_keys(a) & binomial_keys(d)
    if shared:
        names = ", ".join(sorted(t.name for t in a.totems if t.key in shared))
        return f"{a.name} and {d.name} share the binomial totem {names}: binomial partners can't fight each other."
    return None


def attack_targets(state: State, attacker_id: int) -> list[int]:
    return [h.id for h in state.hosts if attack_refusal(state, attacker_id, h.id) is None]


def legal_actions(state: State) -> list[str]:
    """The action kinds allowed now (a specific attack may still be refused: see attack_refusal)."""
    if state.winner is not None:
        return []
    if state.combat is not None:
        if state.combat.pending is not None:
            return ["place_dice"]
        return ["roll", "support", "adjust_life", "set_hand"]
    me = current_player(state)
    mine = hosts_of(state, me)
    kinds: list[str] = []
    if state.played is None or not mine:
        kinds.append("deploy")
    if state.played is None and phase(state) != "reveal":
        if any(not h.support for h in mine):
            kinds.append("attach_totem")
        if any(h.totems for h in mine):
            kinds.append("remove_totem")
        if mine:
            kinds.append("add_item")
    if state.played is None and phase(state) == "play":
        if state.hosts:
            kinds.append("instant")
        if any(attack_targets(state, h.id) for h in mine):
            kinds.append("attack")
    kinds.append("end_turn")
    if state.hosts:
        kinds += ["adjust_life", "edit_host"]
    kinds.append("set_hand")
    return kinds


# --- 5. apply ------------------------------------------------------------------------------------


def apply(state: State, action: Action, dice: Dice) -> tuple[State, list[str]]:
    """The next state and what happened. Raises RuleError/InputError, changing nothing."""
    if state.winner is not None:
        raise RuleError(f"The game is over: {outcome(state)}.")
    kind = action.kind
    if state.combat is not None and state.combat.pending is not None and kind != "place_dice":
        raise RuleError("Place the item bonuses of the roll first (or take the suggestion).")
    if state.combat is not None and kind not in ("roll", "place_dice", "support", "adjust_life", "set_hand"):
        raise RuleError("A combat is under way: roll, or use an item/support host to heal or flee.")
    if state.combat is None and kind in ("roll", "place_dice", "support"):
        raise RuleError("There is no combat under way.")
    if kind in PLAYS and kind != "deploy":
        _require_play(state, kind)
    s = state.model_copy(deep=True)
    ev: list[str] = []
    handler = _HANDLERS[kind]
    handler(s, action, dice, ev)
    _update_lone(s, at_turn_start=False)
    _check_totem_goal(s, ev)
    return s, ev


def _require_play(state: State, kind: str) -> None:
    name = state.players[current_player(state)].name
    if state.played is not None:
        raise RuleError(f"{name} already played a card this turn ({state.played}); end the turn.")
    if phase(state) == "reveal":
        raise RuleError("Round 1 is the starting round: each player reveals a host (deploy) or passes.")
    if phase(state) == "fortify" and kind in ("instant", "attack"):
        raise RuleError("Round 2 is the fortify round: add totems or items; attacks and instant actions start in round 3.")


def _own_host(state: State, host_id: int) -> Host:
    h = find_host(state, host_id)
    if h.owner != current_player(state):
        raise RuleError(f"{h.name} belongs to {state.players[h.owner].name}; it isn't their turn.")
    return h


def _check_name(what: str, name: str) -> str:
    name = name.strip()
    if not 1 <= len(name) <= NAME_LENGTH:
        raise InputError(f"A {what} name has 1 to {NAME_LENGTH} characters (got {len(name)}).")
    return name


def _check_card(card: HostCard) -> None:
    _check_name("host", card.name)
    require_range("Host attack", card.attack, *HOST_ATTACK)
    require_range("Host defense", card.defense, *HOST_DEFENSE)
    require_range("Host life", card.life, *HOST_LIFE)
    require_range("Singularity check bonus (talent)", card.check_bonus, *CHECK_BONUS)
    require_range("Totems carried without a check (talent)", card.free_totems, *FREE_TOTEMS)


def _check_index(what: str, index: int, length: int, holder: str) -> None:
    if length == 0:
        raise RuleError(f"{holder} has no {what}s.")
    if not 0 <= index < length:
        raise InputError(f"{holder}'s {what} index must be between 0 and {length - 1} (got {index}).")


def _change_life(host: Host, delta: int) -> int:
    """Add delta to current life, never above 24. Falling at 0 or less is handled by the caller."""
    host.life = min(LIFE_CAP, host.life + delta)
    return host.life


def _gain_cards(s: State, player: int, count: int, ev: list[str], what: str) -> None:
    p = s.players[player]
    total = p.hand + count
    p.hand = min(HAND_LIMIT, total)
    if total > HAND_LIMIT:
        ev.append(
            f"{p.name} takes {what} into hand: {total} cards, over the limit of {HAND_LIMIT}: "
            f"discard {total - HAND_LIMIT} of your choice (hand stays {HAND_LIMIT})."
        )
    elif count:
        ev.append(f"{p.name} takes {what} into hand ({p.hand} cards).")


def _play_card(s: State, player: int) -> None:
    p = s.players[player]
    p.hand = max(0, p.hand - 1)
    p.totems_in_hand = min(p.totems_in_hand, p.hand)


def _dice_text(host: Host) -> str:
    return f"attack {attack_dice(host)} {_dice_word(attack_dice(host))}, defense {defense_dice(host)} {_dice_word(defense_dice(host))}"


def _dice_word(n: int) -> str:
    return "die" if n == 1 else "dice"


def _who(s: State, host: Host) -> str:
    return f"{host.name} ({s.players[host.owner].name})"


# --- Turn flow ---


def _deploy(s: State, a: Deploy, dice: Dice, ev: list[str]) -> None:
    _check_card(a.card)
    me = current_player(s)
    first_play = s.played is None
    if not first_play and hosts_of(s, me):
        raise RuleError(f"{s.players[me].name} already played a card this turn ({s.played}); end the turn.")
    h = _new_host(s, me, a.card, a.support)
    _play_card(s, me)
    if first_play:
        s.played = "deploy"
    ev.append(
        f"{_who(s, h)} {'joins as a support host' if a.support else 'is deployed'}: "
        f"{_dice_text(h)}, life {h.life}. Protected until {marker_end(s, h.protected_until)} (one full round)."
    )
    if not first_play:
        ev.append("A host-less player may deploy a host at once, even after playing a card.")


def _new_host(s: State, owner: int, card: HostCard, support: bool) -> Host:
    h = Host(
        id=s.next_host_id, owner=owner, name=card.name.strip(), attack=card.attack, defense=card.defense,
        base_life=card.life, life=card.life, check_bonus=card.check_bonus, free_totems=card.free_totems,
        support=support, protected_until=_marker_until(s),
    )
    s.next_host_id += 1
    s.hosts.append(h)
    return h


def _end_turn(s: State, a: EndTurn, dice: Dice, ev: list[str]) -> None:
    me = current_player(s)
    name = s.players[me].name
    if s.played == "attack":
        ev.append(f"{name} ends the turn (no card is drawn after a combat).")
    elif a.draw:
        total = s.players[me].hand + 1
        if total > HAND_LIMIT:
            ev.append(f"{name} draws 1 card: that is {total}, so discard 1 of your choice (hand limit {HAND_LIMIT}).")
        else:
            ev.append(f"{name} {'passes and ' if s.played is None else 'ends the turn and '}draws 1 card ({total} in hand).")
        s.players[me].hand = min(HAND_LIMIT, total)
    else:
        ev.append(f"{name} ends the turn without drawing.")
    s.turn_no += 1
    s.played = None
    s.last_exchange = None
    _start_turn(s, ev)


def _start_turn(s: State, ev: list[str]) -> None:
    """Start of a turn: markers end, conditions tick (before the player acts), wins are checked."""
    me = current_player(s)
    ev.append(f"Round {round_no(s)}: {s.players[me].name}'s turn.")
    for h in s.hosts:
        if h.protected_until is not None and s.turn_no >= h.protected_until:
            h.protected_until = None
            ev.append(f"{_who(s, h)} is no longer Protected.")
        if h.resting_until is not None and s.turn_no >= h.resting_until:
            h.resting_until = None
            ev.append(f"{_who(s, h)} is no longer Resting.")
    every = s.settings.condition_tick == "every_turn"
    for h in list(s.hosts):
        if every or h.owner == me:
            _tick(s, h, ev)
    _remove_fallen(s, ev)
    _update_lone(s, at_turn_start=True)
    _check_lone_win(s, ev)


def _tick(s: State, h: Host, ev: list[str]) -> None:
    when = "every turn" if s.settings.condition_tick == "every_turn" else "its owner's turn"
    kept: list[Condition] = []
    for c in h.conditions:
        if c.kind == "poisoned":
            _change_life(h, -POISON_DAMAGE)
            ev.append(f"{_who(s, h)} is Poisoned: −{POISON_DAMAGE} life → {h.life} (at the start of {when}, until cured).")
        elif c.kind == "burning":
            _change_life(h, -BURNING_DAMAGE)
            left = "" if c.ticks_left is None else f", {c.ticks_left - 1} more"
            ev.append(f"{_who(s, h)} is Burning: −{BURNING_DAMAGE} life → {h.life}{left}.")
        if c.ticks_left is not None:
            c.ticks_left -= 1
            if c.ticks_left <= 0:
                ev.append(f"{c.kind.capitalize()} on {h.name} has run its course and ends.")
                continue
        kept.append(c)
    h.conditions = kept


def _remove_fallen(s: State, ev: list[str]) -> None:
    """Hosts at 0 life or less outside a combat leave the table (RULES.md: one threshold)."""
    for h in [h for h in s.hosts if h.life <= 0]:
        _take_off_table(s, h, ev, f"is at {h.life} life")


def _take_off_table(s: State, h: Host, ev: list[str], why: str) -> None:
    # Decision: with no victor, the totems go back into the encounter deck (as in a singularity
    # event) and the items to the discard pile.
    s.hosts = [x for x in s.hosts if x.id != h.id]
    parts = [f"{_who(s, h)} {why}: take the host card off the table to the discard pile"]
    if h.items:
        parts.append(f"its items ({', '.join(i.name for i in h.items)}) to the discard pile")
    if h.totems:
        parts.append(f"shuffle its totems ({', '.join(t.name for t in h.totems)}) back into the encounter deck")
    ev.append(", ".join(parts) + ".")


# --- Fortifying ---


def _attach_totem(s: State, a: AttachTotem, dice: Dice, ev: list[str]) -> None:
    t = a.totem
    _check_name("totem", t.name)
    require_range("Totem attack modifier", t.attack, *TOTEM_DICE_MOD)
    require_range("Totem defense modifier", t.defense, *TOTEM_DICE_MOD)
    require_range("Totem life modifier", t.life, *TOTEM_LIFE_MOD)
    h = _own_host(s, a.host)
    if h.support:
        raise RuleError(f"{h.name} is a support host: it can carry items but not totems.")
    if t.key in binomial_keys(h):
        raise RuleError(f"{h.name} already carries a {t.name} card: a host can't carry both cards of one binomial totem.")
    me = current_player(s)
    if a.from_hand:
        if s.players[me].totems_in_hand:
            s.players[me].totems_in_hand -= 1
        _play_card(s, me)
    s.played = "totem"
    h.totems.append(Totem(name=t.name.strip(), attack=t.attack, defense=t.defense, life=t.life, pair=t.pair, dormant=t.dormant))
    before = h.life
    _change_life(h, t.life)
    ev.append(
        f"{_who(s, h)} bonds with {t.name} ({t.attack:+d} attack, {t.defense:+d} defense, {t.life:+d} life"
        f"{', dormant' if t.dormant else ''}): {_dice_text(h)}; life {before} → {h.life}"
        f"{' (capped at 24)' if before + t.life > LIFE_CAP else ''}."
    )
    _singularity_check(s, h, dice, ev)
    _remove_fallen(s, ev)


def _remove_totem(s: State, a: RemoveTotem, dice: Dice, ev: list[str]) -> None:
    h = _own_host(s, a.host)
    _check_index("totem", a.totem, len(h.totems), h.name)
    t = h.totems.pop(a.totem)
    s.played = "remove_totem"
    before = h.life
    _change_life(h, -t.life)
    ev.append(
        f"{t.name} leaves {_who(s, h)} for the hand: {_dice_text(h)}; life {before} → {h.life}"
        f" ({'a damage of ' + str(t.life) if t.life > 0 else 'its life modifier taken away'})."
    )
    _gain_cards(s, h.owner, 1, ev, t.name)
    s.players[h.owner].totems_in_hand = min(s.players[h.owner].hand, s.players[h.owner].totems_in_hand + 1)
    _remove_fallen(s, ev)


def _add_item(s: State, a: AddItem, dice: Dice, ev: list[str]) -> None:
    it = a.item
    _check_name("item", it.name)
    require_range("Item attack bonus", it.attack_plus, *ITEM_PLUS)
    require_range("Item attack dice", it.attack_dice, *ITEM_DICE)
    require_range("Item defense bonus", it.defense_plus, *ITEM_PLUS)
    require_range("Item defense dice", it.defense_dice, *ITEM_DICE)
    require_range("Item life", it.life, *ITEM_LIFE)
    require_range("Item singularity check bonus", it.check_bonus, *CHECK_BONUS)
    h = _own_host(s, a.host)
    replaced = None
    if a.replace is not None:
        _check_index("item", a.replace, len(h.items), h.name)
        replaced = h.items.pop(a.replace)
    elif len(h.items) >= MAX_ITEMS:
        raise RuleError(f"{h.name} already carries {MAX_ITEMS} items, the most a host can: choose one to replace.")
    _play_card(s, h.owner)
    s.played = "item"
    h.items.append(it.model_copy(update={"name": it.name.strip()}))
    text = f"{_who(s, h)} takes the item {it.name}"
    if replaced:
        text += f" (replacing {replaced.name}, which goes to the discard pile)"
    if it.life:
        before = h.life
        _change_life(h, it.life)
        text += f"; life {before} → {h.life}{' (capped at 24)' if before + it.life > LIFE_CAP else ''}"
    ev.append(text + ".")


# --- Instant actions and life edits ---


def _instant(s: State, a: Instant, dice: Dice, ev: list[str]) -> None:
    require_range("Damage", a.damage, 0, LIFE_CAP)
    require_range("Healing", a.heal, 0, LIFE_CAP)
    if a.duration is not None:
        require_range("Duration (turns)", a.duration, *DURATION)
    h = find_host(s, a.target)
    if a.remove_item is not None:
        _check_index("item", a.remove_item, len(h.items), h.name)
    if (a.totem is None) != (a.totem_dormant is None):
        raise InputError("To make a totem dormant or wake it, give both the totem index and dormant true/false.")
    if a.totem is not None:
        _check_index("totem", a.totem, len(h.totems), h.name)
    if not (a.damage or a.heal or a.condition or a.cure or a.remove_item is not None or a.totem is not None):
        raise InputError("An instant action needs an effect: damage, healing, a condition, a cure, an item removed or a totem made dormant.")
    harmful = (
        a.damage > 0 or a.condition in CONDITIONS or a.remove_item is not None or bool(a.totem_dormant)
    )
    me = current_player(s)
    if harmful and h.owner != me and is_protected(s, h):
        raise RuleError(f"{h.name} is Protected until {marker_end(s, h.protected_until)}: it can't be attacked, not even by an instant action.")
    if a.from_hand:
        _play_card(s, me)
    s.played = "instant"
    who = _who(s, h)
    if a.damage or a.heal:
        before = h.life
        _change_life(h, a.heal - a.damage)
        ev.append(f"{who}: {'−' + str(a.damage) + ' damage ' if a.damage else ''}{'+' + str(a.heal) + ' healing ' if a.heal else ''}→ life {before} → {h.life}.")
    if a.cure:
        if has_condition(h, a.cure):
            h.conditions = [c for c in h.conditions if c.kind != a.cure]
            ev.append(f"{who} is cured of {a.cure}.")
        else:
            ev.append(f"{who} wasn't {a.cure}; nothing to cure.")
    if a.condition == "protected":
        h.protected_until = _marker_until(s)
        ev.append(f"{who} is Protected until {marker_end(s, h.protected_until)}.")
    elif a.condition:
        ticks = a.duration if a.duration is not None else (BURNING_TICKS if a.condition == "burning" else None)
        h.conditions = [c for c in h.conditions if c.kind != a.condition] + [Condition(kind=a.condition, ticks_left=ticks)]
        ev.append(f"{who} is {a.condition}{'' if ticks is None else f' for {ticks} turns'}{' until cured' if ticks is None else ''}.")
    if a.remove_item is not None:
        it = h.items.pop(a.remove_item)
        ev.append(f"{who} loses the item {it.name}: to the discard pile.")
    if a.totem is not None:
        t = h.totems[a.totem]
        t.dormant = bool(a.totem_dormant)
        ev.append(f"{t.name} on {who} is {'dormant: its dice no longer count' if t.dormant else 'awake again'}; {_dice_text(h)}.")
    _remove_fallen(s, ev)


def _adjust_life(s: State, a: AdjustLife, dice: Dice, ev: list[str]) -> None:
    require_range("Life change", a.delta, -LIFE_CAP, LIFE_CAP)
    h = find_host(s, a.host)
    if a.delta == 0:
        raise InputError("Life change must be between -24 and 24 and not 0 (got 0).")
    if h.life + a.delta > LIFE_CAP:
        raise InputError(f"Life is at most {LIFE_CAP}: {h.name} is at {h.life}, so the change must be between {-LIFE_CAP} and {LIFE_CAP - h.life} (got {a.delta:+d}).")
    before = h.life
    _change_life(h, a.delta)
    ev.append(f"{_who(s, h)}: life {before} → {h.life} ({a.delta:+d}).")
    if s.combat is not None and h.id in (s.combat.attacker, s.combat.defender):
        _check_combat_end(s, dice, ev)
    _remove_fallen(s, ev)


def _edit_host(s: State, a: EditHost, dice: Dice, ev: list[str]) -> None:
    h = find_host(s, a.host)
    changes = []
    if a.name is not None:
        h.name = _check_name("host", a.name)
        changes.append(f"name {h.name}")
    for field, rng, label in (
        ("attack", HOST_ATTACK, "attack"), ("defense", HOST_DEFENSE, "defense"),
        ("check_bonus", CHECK_BONUS, "singularity check bonus"), ("free_totems", FREE_TOTEMS, "totems without a check"),
    ):
        value = getattr(a, field)
        if value is not None:
            require_range(f"Host {label}", value, *rng)
            setattr(h, field, value)
            changes.append(f"{label} {value}")
    if a.base_life is not None:
        require_range("Host life", a.base_life, *HOST_LIFE)
        h.base_life = a.base_life
        changes.append(f"base life {a.base_life}")
    if not changes:
        raise InputError("Nothing to change: give a name, attack (1–3), defense (1–3), base life (6–12) or a talent.")
    ev.append(f"{_who(s, h)} corrected: {', '.join(changes)}; {_dice_text(h)}.")


def _set_hand(s: State, a: SetHand, dice: Dice, ev: list[str]) -> None:
    require_range("Player", a.player, 0, len(s.players) - 1)
    require_range("Hand size", a.hand, 0, HAND_LIMIT)
    p = s.players[a.player]
    p.hand = a.hand
    if a.totems_in_hand is not None:
        require_range("Totems in hand", a.totems_in_hand, 0, a.hand)
        p.totems_in_hand = a.totems_in_hand
    p.totems_in_hand = min(p.totems_in_hand, p.hand)
    ev.append(f"{p.name} has {p.hand} cards in hand ({p.totems_in_hand} of them totems).")


# --- Singularity ---


def _singularity_check(s: State, h: Host, dice: Dice, ev: list[str]) -> None:
    """Whenever a host gains totems: 1d6 + bonuses must reach its new totem count."""
    count = len(h.totems)
    if count <= h.free_totems:
        ev.append(f"{h.name} carries {count} totem{'s' if count != 1 else ''}: no singularity check (talent: up to {h.free_totems} without one).")
        return
    bonus = h.check_bonus + sum(i.check_bonus for i in h.items)
    roll = dice.roll(6)
    total = roll + bonus
    shown = f"{roll} {'+' if bonus >= 0 else '−'} {abs(bonus)} = {total}" if bonus else str(roll)
    if total >= count:
        ev.append(f"Singularity check for {h.name} ({count} totem{'s' if count != 1 else ''}): rolled {shown} ≥ {count}, passed.")
        return
    ev.append(f"Singularity check for {h.name} ({count} totems): rolled {shown} < {count}, failed!")
    _singularity_event(s, ev)


def _singularity_event(s: State, ev: list[str]) -> None:
    ev.append("SINGULARITY EVENT: every totem leaves every host on the table and is shuffled back into the encounter deck (totems in hands stay).")
    for h in s.hosts:
        if not h.totems:
            continue
        before = h.life
        names = ", ".join(t.name for t in h.totems)
        for t in h.totems:
            _change_life(h, -t.life)
        h.totems = []
        ev.append(f"Take {names} off {_who(s, h)}: life {before} → {h.life}; {_dice_text(h)}.")
    _remove_fallen(s, ev)


# --- Combat ---


def _attack(s: State, a: Attack, dice: Dice, ev: list[str]) -> None:
    why = attack_refusal(s, a.attacker, a.defender)
    if why:
        raise RuleError(why)
    att, dfn = find_host(s, a.attacker), find_host(s, a.defender)
    s.combat = Combat(attacker=att.id, defender=dfn.id, striker=att.id)
    s.played = "attack"
    ev.append(
        f"{_who(s, att)} attacks {_who(s, dfn)}: {strike_dice(s, att)} attack {_dice_word(strike_dice(s, att))} "
        f"vs {defense_dice(dfn)} defense {_dice_word(defense_dice(dfn))}. The attacker rolls first."
    )


def _other(c: Combat, host_id: int) -> int:
    return c.defender if host_id == c.attacker else c.attacker


def _roll(s: State, a: Roll, dice: Dice, ev: list[str]) -> None:
    c = s.combat
    striker, target = find_host(s, c.striker), find_host(s, _other(c, c.striker))
    a_rolled = roll_many(dice, strike_dice(s, striker))
    d_rolled = roll_many(dice, defense_dice(target))
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
        ev.append(f"{striker.name} rolls {fmt_dice(a_rolled) or 'no dice'} against {target.name}'s {fmt_dice(d_rolled) or 'no dice'}.")
        ev.append(
            f"Place the item bonuses. Suggested (most hits): attack {fmt_dice(preview.attack_values)} vs "
            f"defense {fmt_dice(preview.defense_values)}, {target.name} would take {preview.damage_to_defender}, "
            f"{striker.name} {preview.damage_to_attacker}."
        )
        return
    _resolve(s, cb.resolve(a_rolled, d_rolled), dice, ev)


def _place_dice(s: State, a: PlaceDice, dice: Dice, ev: list[str]) -> None:
    p = s.combat.pending
    ab = [cb.Bonus(x, y) for x, y in p.attack_bonuses]
    db = [cb.Bonus(x, y) for x, y in p.defense_bonuses]
    pa = tuple(tuple(x) for x in (a.attack if a.attack is not None else p.suggested_attack))
    pd = tuple(tuple(x) for x in (a.defense if a.defense is not None else p.suggested_defense))
    ex = cb.resolve(p.attack_rolled, p.defense_rolled, ab, db, pa, pd)  # validates the placement
    s.combat.pending = None
    _resolve(s, ex, dice, ev)


def _resolve(s: State, ex: cb.Exchange, dice: Dice, ev: list[str]) -> None:
    c = s.combat
    striker, target = find_host(s, c.striker), find_host(s, _other(c, c.striker))
    ev.append(f"Exchange {c.exchanges + 1}: {striker.name} strikes, {target.name} defends.")
    ev.extend(ex.lines())
    _change_life(target, -ex.damage_to_defender)
    _change_life(striker, -ex.damage_to_attacker)
    ev.append(f"{target.name} life → {target.life}, {striker.name} life → {striker.life}.")
    s.last_exchange = ExchangeRecord(
        striker=striker.id, target=target.id,
        attack_rolled=list(ex.attack_rolled), defense_rolled=list(ex.defense_rolled),
        attack_values=list(ex.attack_values), defense_values=list(ex.defense_values),
        outcomes=[p.outcome for p in ex.pairs],
        damage_to_target=ex.damage_to_defender, damage_to_striker=ex.damage_to_attacker,
    )
    c.exchanges += 1
    c.striker = target.id  # the tables turn: the defender counter-attacks
    if not _check_combat_end(s, dice, ev):
        ev.append(f"{target.name} now strikes back ({strike_dice(s, target)} attack vs {defense_dice(striker)} defense), or heals/flees instead.")


def _support(s: State, a: Support, dice: Dice, ev: list[str]) -> None:
    require_range("Healing", a.heal, 0, LIFE_CAP)
    c = s.combat
    h = find_host(s, c.striker)
    if a.use_item is not None:
        _check_index("item", a.use_item, len(h.items), h.name)
    if a.support_host is not None:
        _check_card(a.support_host)
    if not (a.heal or a.flee or a.use_item is not None or a.from_hand or a.support_host):
        raise InputError("Say what the support does: heal, flee, an item used, a card from the hand or a support host.")
    who = _who(s, h)
    if a.use_item is not None:
        it = h.items.pop(a.use_item)
        ev.append(f"{who} uses {it.name}: to the discard pile.")
    if a.from_hand:
        _play_card(s, h.owner)
        ev.append(f"{s.players[h.owner].name} plays a card from the hand.")
    if a.support_host is not None:
        sh = _new_host(s, h.owner, a.support_host, True)
        ev.append(f"{_who(s, sh)} joins as a support host: Protected until {marker_end(s, sh.protected_until)}.")
    if a.heal:
        before = h.life
        _change_life(h, a.heal)
        ev.append(f"{who} heals {a.heal}: life {before} → {h.life}{' (capped at 24)' if before + a.heal > LIFE_CAP else ''}.")
    if a.flee:
        other = find_host(s, _other(c, h.id))
        h.protected_until = _marker_until(s)
        ev.append(f"{who} flees the fight: both hosts survive; {h.name} is Protected until {marker_end(s, h.protected_until)}.")
        pairs = binomial_keys(h) | binomial_keys(other)
        s.combat = None
        _rest_binomials(s, pairs, {h.id, other.id}, ev)
        return
    c.striker = _other(c, h.id)
    nxt = find_host(s, c.striker)
    ev.append(f"{h.name} used the strike to support instead of rolling; the tables turn: {nxt.name} strikes next.")


def _check_combat_end(s: State, dice: Dice, ev: list[str]) -> bool:
    """If a fighter is at 0 life or less, the fight ends and the spoils move. True if it ended."""
    c = s.combat
    att, dfn = find_host(s, c.attacker), find_host(s, c.defender)
    fallen = [h for h in (att, dfn) if h.life <= 0]
    if not fallen:
        return False
    pairs = binomial_keys(att) | binomial_keys(dfn)
    s.combat = None
    if len(fallen) == 2:
        ev.append("Both hosts fall in the same exchange: no victor.")
        for h in fallen:
            _take_off_table(s, h, ev, f"falls at {h.life} life")
        _rest_binomials(s, pairs, {att.id, dfn.id}, ev)
        return True
    loser = fallen[0]
    winner = dfn if loser is att else att
    ev.append(f"{_who(s, loser)} falls at {loser.life} life: {_who(s, winner)} wins the fight.")
    s.hosts = [h for h in s.hosts if h.id != loser.id]
    ev.append(f"Take {loser.name} off the table to the discard pile.")
    if loser.items:
        _gain_cards(s, winner.owner, len(loser.items), ev, f"{loser.name}'s items ({', '.join(i.name for i in loser.items)})")
    if loser.totems:
        names = ", ".join(t.name for t in loser.totems)
        vessel = next((i for i in winner.items if i.vessel), None)
        if vessel is not None:
            _gain_cards(s, winner.owner, len(loser.totems), ev, f"the totems {names} (captured by the vessel {vessel.name}; no singularity check)")
            p = s.players[winner.owner]
            p.totems_in_hand = min(p.hand, p.totems_in_hand + len(loser.totems))
        else:
            before = winner.life
            for t in loser.totems:
                winner.totems.append(t)
                _change_life(winner, t.life)
            winner.support = False  # carrying totems, it is a Dizhi now
            ev.append(f"{winner.name} absorbs {names}: {_dice_text(winner)}; life {before} → {winner.life}.")
            _singularity_check(s, winner, dice, ev)
    if any(h.id == winner.id for h in s.hosts) and winner.life > 0:
        winner.resting_until = _marker_until(s)
        ev.append(f"{winner.name} rests until {marker_end(s, winner.resting_until)}: it can't start a combat (it can still be attacked).")
    _rest_binomials(s, pairs, {att.id, dfn.id}, ev)
    _remove_fallen(s, ev)
    return True


def _rest_binomials(s: State, pairs: set[str], fighters: set[int], ev: list[str]) -> None:
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
                ev.append(f"{_who(s, h)} holds a {name} card, a binomial totem that fought: Resting until {marker_end(s, until)}.")


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


def _check_lone_win(s: State, ev: list[str]) -> None:
    """The lone player wins once every other player has had a full turn to deploy a new host."""
    if s.lone_player is None or s.winner is not None:
        return
    n = len(s.players)
    had_turn = {k % n for k in range(s.lone_since, s.turn_no)}
    others = set(range(n)) - {s.lone_player}
    if others <= had_turn:
        s.winner = s.lone_player
        s.win_reason = "last host standing"
        ev.append(f"A full round passed with no new opposing host: {s.players[s.winner].name} wins, the last player with a host on the table.")


def _check_totem_goal(s: State, ev: list[str]) -> None:
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
            ev.append(f"{s.players[p].name} owns {owned} totems, reaching the goal of {goal}: {s.players[p].name} wins.")
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


def describe(action: Action) -> str:
    k = action.kind
    if k == "deploy":
        return f"deploy {action.card.name}{' (support)' if action.support else ''}"
    if k == "attach_totem":
        return f"attach {action.totem.name}"
    if k == "remove_totem":
        return "remove a totem"
    if k == "add_item":
        return f"item {action.item.name}"
    if k == "instant":
        bits = [f"{action.damage} damage" if action.damage else "", f"heal {action.heal}" if action.heal else "",
                action.condition or "", f"cure {action.cure}" if action.cure else "",
                "remove an item" if action.remove_item is not None else "",
                "totem dormant" if action.totem_dormant else ("totem awake" if action.totem is not None else "")]
        return "instant: " + ", ".join(b for b in bits if b)
    if k == "attack":
        return f"attack host #{action.defender}"
    if k == "roll":
        return "combat roll"
    if k == "place_dice":
        return "place item bonuses"
    if k == "support":
        return "flee" if action.flee else (f"heal {action.heal}" if action.heal else "support")
    if k == "end_turn":
        return "end turn"
    if k == "adjust_life":
        return f"life {action.delta:+d}"
    if k == "edit_host":
        return "edit host"
    return "set hand size"


def headline(state: State) -> str:
    if state.winner is not None:
        return f"{state.players[state.winner].name} wins"
    r = round_no(state)
    if state.combat is not None:
        c = state.combat
        a, d = find_host(state, c.attacker), find_host(state, c.defender)
        return f"Round {r} · {a.name} vs {d.name} · {find_host(state, c.striker).name} strikes"
    label = {"reveal": " · Reveal", "fortify": " · Fortify", "play": ""}[phase(state)]
    return f"Round {r}{label} · {state.players[current_player(state)].name}"


def outcome(state: State) -> Optional[str]:
    if state.winner is None:
        return None
    return f"{state.players[state.winner].name} wins ({state.win_reason})"


GAME = Game(
    key="klaw",
    title="KLAW: Were-Wars",
    summary="Hosts, totems, items and conditions; rolls and explains every combat and singularity check.",
    Settings=Settings,
    State=State,
    Action=Action,
    new_state=new_state,
    apply=apply,
    describe=describe,
    headline=headline,
    outcome=outcome,
)
