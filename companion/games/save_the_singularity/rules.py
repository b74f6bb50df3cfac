"""Save the Singularity, played whole in the app (RULES.md §1; rulebook seeds/002_…).

A cooperative push-your-luck dice game. Each player's turn has two phases:

1. The researcher rolls a pool of d6 (3, plus any +Dice owed). 1 = Bug, 2–3 = Idea, 4–6 = Progress
   (+1 point at risk). Two or more Bugs in one throw is a bust: the turn's points at risk are lost.
   Otherwise the player stops (banks the points at risk) or presses on: the next throw has the
   previous pool plus one die per Idea, at most `max_pool` (12: the box has 12d6).
2. The rest of the world rolls the d12 until a face with Stop: each Bad scores the world a point,
   each +Dice gives the next player one more die.

The team wins on reaching 25 points per player, the world on 4 per player; the first to reach its
target ends the game. Each player has a role with a once-per-game power, usable on anybody's turn.

The turn as explicit steps (`State.phase`), and what `legal_actions` offers in each:

    start  roll · mathematician · venture_capitalist           (before the turn's first throw)
    throw  stop · press_on · venture_capitalist                 (the throw did not bust)
           take_bust                                            (the throw busts: 2+ Bugs)
           rationalist · programmer · computer_scientist        (reroll the throw; the Computer
                                                                Scientist only if it didn't bust)
    world  roll_d12 · media_liaison                             (until a Stop)
    over   nothing

A bust is applied at once when no reroll power is left to change it; otherwise the table sees the
powers first and taps "take the bust" to go on (RULES.md: powers are offered before a bust).
"""

from __future__ import annotations

from typing import Annotated, Literal, Optional, Union

from pydantic import Field, field_validator

from companion.games.base import Dice, Game, InputError, Model, RuleError, fmt_dice

TEAM_POINTS_PER_PLAYER = 25
WORLD_POINTS_PER_PLAYER = 4
START_POOL = 3

# --- The dice, as data (odds.py derives its probabilities from these same tables) -----------------

Symbol = Literal["Bug", "Idea", "Progress"]


def d6_symbol(face: int) -> Symbol:
    """1 = Bug, 2–3 = Idea, 4–6 = Progress."""
    if face == 1:
        return "Bug"
    return "Idea" if face <= 3 else "Progress"


# The world's d12: which of Bad, +Dice and Stop each face shows (rulebook chart).
D12_CHART: dict[int, tuple[str, ...]] = {
    1: ("Stop",), 2: ("Stop",), 3: ("Stop",),
    4: ("Bad",), 5: ("Bad",),
    6: ("+Dice", "Stop"), 7: ("+Dice", "Stop"),
    8: ("+Dice",),
    9: ("Bad", "Stop"), 10: ("Bad", "Stop"),
    11: ("Bad", "+Dice"),
    12: ("Bad", "+Dice", "Stop"),
}

# --- Roles -----------------------------------------------------------------------------------------

Role = Literal[
    "rationalist", "mathematician", "computer_scientist",
    "programmer", "venture_capitalist", "media_liaison",
]
ROLES: tuple[str, ...] = (
    "rationalist", "mathematician", "computer_scientist",
    "programmer", "venture_capitalist", "media_liaison",
)
ROLE_NAMES: dict[str, str] = {
    "rationalist": "Rationalist",
    "mathematician": "Mathematician",
    "computer_scientist": "Computer Scientist",
    "programmer": "Programmer",
    "venture_capitalist": "Venture Capitalist",
    "media_liaison": "Media Liaison",
}
ROLE_POWERS: dict[str, str] = {
    "rationalist": "Reroll all dice of the current throw.",
    "mathematician": "A player starts their turn with only 1 die (+Dice owed are forfeited).",
    "computer_scientist": "Reroll the current throw's Idea dice; Bugs among them are ignored.",
    "programmer": "Reroll the current throw's Bug dice.",
    "venture_capitalist": "Before a throw of X dice: roll X ignoring Bugs, then X more not ignoring "
    "Bugs. Both score; Ideas from both grow the pool.",
    "media_liaison": "A d12 result also counts as Stop.",
}
# Powers that act on a throw already made (offered after every throw, before a bust is applied).
THROW_POWERS = ("rationalist", "computer_scientist", "programmer")


# --- Settings ----------------------------------------------------------------------------------------


class Player(Model):
    name: str = Field(min_length=1, max_length=40)
    role: Role

    @field_validator("name")
    @classmethod
    def _name_not_blank(cls, name: str) -> str:
        name = name.strip()
        if not name:
            raise ValueError("A player's name must have 1 to 40 characters (got a blank name).")
        return name


class Settings(Model):
    players: list[Player] = Field(
        default_factory=lambda: [Player(name="Player 1", role="rationalist")],
        description="Players in turn order, each with a role",
    )
    max_pool: int = Field(12, ge=START_POOL, le=12, description="Most dice in one throw (the box has 12d6)")
    media_liaison_timing: Literal["before_roll", "after_roll"] = Field(
        "before_roll", description="Media Liaison declared before the d12 is rolled, or after seeing it"
    )

    @field_validator("players")
    @classmethod
    def _players_ok(cls, players: list[Player]) -> list[Player]:
        if not players:
            raise ValueError("Save the Singularity needs 1 or more players (got 0).")
        names = [p.name.casefold() for p in players]
        for p in players:
            if names.count(p.name.casefold()) > 1:
                raise ValueError(f"Each player needs a different name ({p.name!r} appears twice).")
        # Roles repeat only when players outnumber the six roles: then all six must be in play.
        roles = [p.role for p in players]
        needed = min(len(players), len(ROLES))
        if len(set(roles)) < needed:
            if len(players) <= len(ROLES):
                twice = next(r for r in roles if roles.count(r) > 1)
                raise ValueError(
                    f"With {len(players)} players each needs a different role "
                    f"({ROLE_NAMES[twice]} is taken twice)."
                )
            missing = ", ".join(ROLE_NAMES[r] for r in ROLES if r not in roles)
            raise ValueError(
                f"With {len(players)} players all six roles must be taken before any repeats "
                f"(missing: {missing})."
            )
        return players


# --- State -------------------------------------------------------------------------------------------

Phase = Literal["start", "throw", "world", "over"]


class Die(Model):
    face: int = Field(ge=1, le=6)
    bugs_ignored: bool = False  # Venture Capitalist's first half, or rerolled by the Computer Scientist


class WorldRoll(Model):
    face: int = Field(ge=1, le=12)
    liaison: bool = False  # the Media Liaison made this result count as Stop


class ScorePoint(Model):
    turn: int
    team: int
    world: int


class State(Model):
    settings: Settings
    team: int = 0
    world: int = 0
    turn: int = 1
    current: int = 0  # index of the player whose turn it is
    phase: Phase = "start"
    pool: int = START_POOL  # dice in the next throw (start) or in the current throw (throw)
    risk_before_throw: int = 0  # points at risk from this turn's earlier throws
    throw: list[Die] = Field(default_factory=list)  # the current throw, after any rerolls
    vc_half: int = 0  # how many leading dice of the throw the Venture Capitalist rolled ignoring Bugs
    owed: int = 0  # +Dice the world phase has given the next player so far
    world_rolls: list[WorldRoll] = Field(default_factory=list)  # this (or the last) world phase
    powers_used: list[bool] = Field(default_factory=list)  # per player, in the order of settings.players
    history: list[ScorePoint] = Field(default_factory=list)  # team vs world at the end of each turn


# --- Actions -----------------------------------------------------------------------------------------


class Roll(Model):
    """The turn's first throw."""

    kind: Literal["roll"] = "roll"


class PressOn(Model):
    """Keep the points at risk and throw again, with one extra die per Idea."""

    kind: Literal["press_on"] = "press_on"


class Stop(Model):
    """Bank the points at risk; the world phase follows."""

    kind: Literal["stop"] = "stop"


class TakeBust(Model):
    """Accept a bust the powers did not (or could not) undo."""

    kind: Literal["take_bust"] = "take_bust"


class RollD12(Model):
    """The world phase: one roll of the d12."""

    kind: Literal["roll_d12"] = "roll_d12"


class Rationalist(Model):
    kind: Literal["rationalist"] = "rationalist"
    by: int  # index of the player using the power


class Mathematician(Model):
    kind: Literal["mathematician"] = "mathematician"
    by: int


class ComputerScientist(Model):
    kind: Literal["computer_scientist"] = "computer_scientist"
    by: int


class Programmer(Model):
    kind: Literal["programmer"] = "programmer"
    by: int


class VentureCapitalist(Model):
    """Makes the next throw (the turn's first, or pressing on) a Venture Capitalist throw."""

    kind: Literal["venture_capitalist"] = "venture_capitalist"
    by: int


class MediaLiaison(Model):
    """before_roll: roll the d12, the result also counts as Stop. after_roll: the last result does."""

    kind: Literal["media_liaison"] = "media_liaison"
    by: int


PowerAction = Union[Rationalist, Mathematician, ComputerScientist, Programmer, VentureCapitalist, MediaLiaison]
POWER_ACTIONS: tuple[type, ...] = (Rationalist, Mathematician, ComputerScientist, Programmer, VentureCapitalist, MediaLiaison)

Action = Annotated[
    Union[Roll, PressOn, Stop, TakeBust, RollD12,
          Rationalist, Mathematician, ComputerScientist, Programmer, VentureCapitalist, MediaLiaison],
    Field(discriminator="kind"),
]


# --- Reading the state (also what the view shows) -------------------------------------------------


def new_state(settings: Settings) -> State:
    return State(
        settings=settings,
        pool=min(settings.max_pool, START_POOL),
        powers_used=[False] * len(settings.players),
        history=[ScorePoint(turn=0, team=0, world=0)],
    )


def team_target(state: State) -> int:
    return TEAM_POINTS_PER_PLAYER * len(state.settings.players)


def world_target(state: State) -> int:
    return WORLD_POINTS_PER_PLAYER * len(state.settings.players)


def player_name(state: State, index: int) -> str:
    return state.settings.players[index].name


def die_symbol(die: Die) -> str:
    """What the view writes under a die: Bug / Idea / Progress, or 'Bug (ignored)'."""
    symbol = d6_symbol(die.face)
    return "Bug (ignored)" if symbol == "Bug" and die.bugs_ignored else symbol


def count_bugs(throw: list[Die]) -> int:
    return sum(1 for d in throw if d.face == 1 and not d.bugs_ignored)


def count_ideas(throw: list[Die]) -> int:
    return sum(1 for d in throw if d6_symbol(d.face) == "Idea")


def count_progress(throw: list[Die]) -> int:
    return sum(1 for d in throw if d6_symbol(d.face) == "Progress")


def is_bust(state: State) -> bool:
    """The current throw has two or more Bugs (that count): it busts unless a power changes it."""
    return state.phase == "throw" and count_bugs(state.throw) >= 2


def at_risk(state: State) -> int:
    """Points at risk this turn, counting the current throw unless it busts."""
    if state.phase != "throw":
        return state.risk_before_throw
    if is_bust(state):
        return state.risk_before_throw
    return state.risk_before_throw + count_progress(state.throw)


def next_pool(state: State) -> int:
    """Dice for the next throw: at the start the pool; after a throw the pool plus one per Idea, capped."""
    if state.phase == "throw":
        return min(state.settings.max_pool, state.pool + count_ideas(state.throw))
    return state.pool


def outcome(state: State) -> Optional[str]:
    if state.team >= team_target(state):
        return "Won"
    if state.world >= world_target(state):
        return "Lost"
    return None


def headline(state: State) -> str:
    if state.phase == "over":
        return f"Turn {state.turn} · game over"  # the campaign status adds Won or Lost
    name = player_name(state, state.current)
    step = {
        "start": f"{state.pool} {_dice(state.pool)} to roll",
        "throw": "bust!" if is_bust(state) else f"{at_risk(state)} at risk",
        "world": "the world rolls",
    }[state.phase]
    return f"Turn {state.turn} · {name} · {step}"


def describe(action: Action) -> str:
    plain = {
        "roll": "roll the dice",
        "press_on": "press on",
        "stop": "stop and bank",
        "take_bust": "take the bust",
        "roll_d12": "roll the d12",
    }
    if action.kind in plain:
        return plain[action.kind]
    return f"{ROLE_NAMES[action.kind]} power (player {action.by + 1})"


# --- What is allowed now ---------------------------------------------------------------------------


def _candidates(state: State) -> list:
    everyone = range(len(state.settings.players))
    return [Roll(), PressOn(), Stop(), TakeBust(), RollD12()] + [
        cls(by=i) for cls in POWER_ACTIONS for i in everyone
    ]


def legal_actions(state: State) -> list:
    """Every action allowed now, powers with the player who would use them (the view's buttons)."""
    return [a for a in _candidates(state) if why_not(state, a) is None]


def is_legal(state: State, action: Action) -> bool:
    return why_not(state, action) is None


def why_not(state: State, action: Action) -> Optional[str]:
    """None if the action is allowed now, else the reason in words."""
    if state.phase == "over":
        return f"The game is over ({outcome(state)})."
    kind = action.kind
    if isinstance(action, POWER_ACTIONS):
        last = len(state.settings.players) - 1
        if not 0 <= action.by <= last:
            return f"The player using a power is numbered 0 to {last} (got {action.by})."
        player = state.settings.players[action.by]
        if player.role != kind:
            return f"{player.name} is the {ROLE_NAMES[player.role]}, not the {ROLE_NAMES[kind]}."
        if state.powers_used[action.by]:
            return f"{player.name} has already used the {ROLE_NAMES[kind]} power (once per game)."
    phase = state.phase
    bust = is_bust(state)
    if kind == "roll":
        return None if phase == "start" else "The turn's first throw has been made."
    if kind in ("press_on", "stop"):
        if phase != "throw":
            return "Stop or press on after a throw."
        return "This throw busts: take the bust (or use a reroll power)." if bust else None
    if kind == "take_bust":
        return None if bust else "Only a throw with two or more Bugs busts."
    if kind == "roll_d12":
        return None if phase == "world" else "The d12 is rolled in the world phase."
    if kind == "mathematician":
        if phase != "start":
            return "The Mathematician acts before a turn's first throw."
        return "The pool is already 1 die." if state.pool <= 1 else None
    if kind == "venture_capitalist":
        if phase == "start" or (phase == "throw" and not bust):
            return None
        return "The Venture Capitalist acts right before a throw (the first, or pressing on)."
    if kind in THROW_POWERS:
        if phase != "throw":
            return f"The {ROLE_NAMES[kind]} acts on a throw just made."
        if kind == "computer_scientist" and count_ideas(state.throw) == 0:
            return "This throw has no Idea dice to reroll."
        if kind == "computer_scientist" and bust:
            # Its reroll leaves the Bugs that bust in place, so it can't change the outcome.
            return "Rerolling the Ideas can't undo a bust: the Bugs stay."
        if kind == "programmer" and count_bugs(state.throw) == 0:
            return "This throw has no Bugs to reroll."
        return None
    if kind == "media_liaison":
        if phase != "world":
            return "The Media Liaison acts on the world's d12."
        if state.settings.media_liaison_timing == "after_roll" and not state.world_rolls:
            return "Roll the d12 first: the Media Liaison then makes that result count as Stop."
        return None
    return f"Unknown action {kind!r}."  # pragma: no cover - the union admits no other kinds


# --- Applying an action ----------------------------------------------------------------------------


def apply(state: State, action: Action, dice: Dice) -> tuple[State, list[str]]:
    """The next state and the events explaining it. Refuses (changing nothing) what isn't allowed."""
    if isinstance(action, POWER_ACTIONS):
        count = len(state.settings.players)
        if not 0 <= action.by < count:
            raise InputError(f"The player using a power is numbered 0 to {count - 1} (got {action.by}).")
    reason = why_not(state, action)
    if reason is not None:
        raise RuleError(reason)
    s = _copy(state)  # the input stays untouched, even if a die is refused midway
    events: list[str] = []
    if isinstance(action, POWER_ACTIONS):
        s.powers_used[action.by] = True
    _HANDLERS[action.kind](s, action, dice, events)
    return s, events


def _copy(state: State) -> State:
    """A copy safe to change: the lists handlers change are new; dice, rolls and settings are
    never changed in place (handlers replace them), so they can be shared (a deep copy is slow)."""
    return state.model_copy(update={
        "throw": list(state.throw),
        "world_rolls": list(state.world_rolls),
        "powers_used": list(state.powers_used),
        "history": list(state.history),
    })


def _roll(s: State, action: Roll, dice: Dice, events: list[str]) -> None:
    _throw(s, dice, events, venture_by=None)


def _press_on(s: State, action: PressOn, dice: Dice, events: list[str]) -> None:
    events.append(_press_on_words(s))
    _keep_throw_and_grow(s)
    _throw(s, dice, events, venture_by=None)


def _stop(s: State, action: Stop, dice: Dice, events: list[str]) -> None:
    points = at_risk(s)
    before = s.team
    s.team += points
    events.append(
        f"{player_name(s, s.current)} stops and banks {points} {_points(points)}: "
        f"team {before} → {s.team} (target {team_target(s)})."
    )
    if s.team >= team_target(s):
        _game_over(s, events, f"The team reaches {team_target(s)} points: the team wins.")
    else:
        _start_world_phase(s, events)


def _take_bust(s: State, action: TakeBust, dice: Dice, events: list[str]) -> None:
    _bust(s, events)


def _roll_d12(s: State, action: RollD12, dice: Dice, events: list[str]) -> None:
    _world_roll(s, dice.roll(12), False, events)


def _rationalist(s: State, action: Rationalist, dice: Dice, events: list[str]) -> None:
    old = [d.face for d in s.throw]
    # A reroll of the whole throw is the throw made again: only the Venture Capitalist's first
    # half ignores Bugs (a Computer Scientist's earlier reroll no longer applies to the new dice).
    s.throw = [Die(face=dice.roll(6), bugs_ignored=i < s.vc_half) for i in range(len(old))]
    events.append(
        f"{_power_user(s, action)} rerolls all {len(old)} dice: {fmt_dice(old)} → "
        f"{fmt_dice([d.face for d in s.throw])}; {_tally(s.throw)}."
    )
    _after_throw(s, events)


def _computer_scientist(s: State, action: ComputerScientist, dice: Dice, events: list[str]) -> None:
    picks = [i for i, d in enumerate(s.throw) if d6_symbol(d.face) == "Idea"]
    old = [s.throw[i].face for i in picks]
    for i in picks:
        s.throw[i] = Die(face=dice.roll(6), bugs_ignored=True)
    events.append(
        f"{_power_user(s, action)} rerolls the {len(picks)} Idea {_dice(len(picks))}: {fmt_dice(old)} → "
        f"{fmt_dice([s.throw[i].face for i in picks])} (Bugs among them ignored); {_tally(s.throw)}."
    )
    _after_throw(s, events)


def _programmer(s: State, action: Programmer, dice: Dice, events: list[str]) -> None:
    picks = [i for i, d in enumerate(s.throw) if d.face == 1 and not d.bugs_ignored]
    for i in picks:
        s.throw[i] = Die(face=dice.roll(6), bugs_ignored=False)
    events.append(
        f"{_power_user(s, action)} rerolls the {len(picks)} Bug {_dice(len(picks))} → "
        f"{fmt_dice([s.throw[i].face for i in picks])}; {_tally(s.throw)}."
    )
    _after_throw(s, events)


def _mathematician(s: State, action: Mathematician, dice: Dice, events: list[str]) -> None:
    events.append(
        f"{_power_user(s, action)}: {player_name(s, s.current)} starts with only 1 die "
        f"instead of {s.pool} (any +Dice owed are forfeited)."
    )
    s.pool = 1


def _venture_capitalist(s: State, action: VentureCapitalist, dice: Dice, events: list[str]) -> None:
    if s.phase == "throw":
        events.append(_press_on_words(s))
        _keep_throw_and_grow(s)
    events.append(
        f"{_power_user(s, action)} backs the throw: {s.pool} {_dice(s.pool)} ignoring Bugs, "
        f"then {s.pool} more counting Bugs."
    )
    _throw(s, dice, events, venture_by=action.by)


def _media_liaison(s: State, action: MediaLiaison, dice: Dice, events: list[str]) -> None:
    if s.settings.media_liaison_timing == "before_roll":
        events.append(f"{_power_user(s, action)}: this d12 result also counts as Stop.")
        _world_roll(s, dice.roll(12), True, events)
        return
    last = s.world_rolls[-1]
    s.world_rolls[-1] = WorldRoll(face=last.face, liaison=True)
    events.append(f"{_power_user(s, action)}: the d12's {last.face} also counts as Stop.")
    _end_turn(s, events)


_HANDLERS = {
    "roll": _roll,
    "press_on": _press_on,
    "stop": _stop,
    "take_bust": _take_bust,
    "roll_d12": _roll_d12,
    "rationalist": _rationalist,
    "mathematician": _mathematician,
    "computer_scientist": _computer_scientist,
    "programmer": _programmer,
    "venture_capitalist": _venture_capitalist,
    "media_liaison": _media_liaison,
}


# --- Steps shared by the handlers ------------------------------------------------------------------


def _press_on_words(s: State) -> str:
    ideas = count_ideas(s.throw)
    grown = s.pool + ideas
    capped = f", capped at {s.settings.max_pool}" if grown > s.settings.max_pool else ""
    return (
        f"{player_name(s, s.current)} presses on with {at_risk(s)} at risk: {s.pool} {_dice(s.pool)} "
        f"+ {ideas} {_plural(ideas, 'Idea')} = {min(grown, s.settings.max_pool)} dice{capped}."
    )


def _keep_throw_and_grow(s: State) -> None:
    """Pressing on: the current throw's Progress joins the points at risk; Ideas grow the pool."""
    grown = next_pool(s)
    s.risk_before_throw = at_risk(s)
    s.pool = grown


def _throw(s: State, dice: Dice, events: list[str], venture_by: Optional[int]) -> None:
    n = s.pool
    if venture_by is None:
        s.throw = [Die(face=dice.roll(6)) for _ in range(n)]
        s.vc_half = 0
        faces = fmt_dice([d.face for d in s.throw])
    else:
        s.throw = [Die(face=dice.roll(6), bugs_ignored=True) for _ in range(n)]
        s.throw += [Die(face=dice.roll(6)) for _ in range(n)]
        s.vc_half = n
        faces = f"{fmt_dice([d.face for d in s.throw[:n]])} (Bugs ignored) + {fmt_dice([d.face for d in s.throw[n:]])}"
    s.phase = "throw"
    tally = _tally(s.throw)
    if is_bust(s):
        events.append(f"{player_name(s, s.current)}: {n} {_dice(n)} → {faces}; {tally}.")
    else:
        gained = count_progress(s.throw)
        events.append(
            f"{player_name(s, s.current)}: {n} {_dice(n)} → {faces}; {tally}; "
            f"+{gained} at risk ({at_risk(s)} this turn)."
        )
    _after_throw(s, events)


def _after_throw(s: State, events: list[str]) -> None:
    """A bust waits while a reroll power could still change it; otherwise it is applied now."""
    if not is_bust(s):
        return
    holders = [a for a in legal_actions(s) if a.kind in THROW_POWERS]
    if not holders:
        _bust(s, events)
        return
    offers = ", ".join(f"{player_name(s, a.by)} ({ROLE_NAMES[a.kind]})" for a in holders)
    events.append(f"{count_bugs(s.throw)} Bugs: this throw busts unless a reroll changes it — {offers}.")


def _bust(s: State, events: list[str]) -> None:
    lost = s.risk_before_throw
    events.append(
        f"Bust: {count_bugs(s.throw)} Bugs in one throw (two or more bust); "
        f"{lost} {_points(lost)} at risk lost."
    )
    _start_world_phase(s, events)


def _start_world_phase(s: State, events: list[str]) -> None:
    s.phase = "world"
    s.world_rolls = []
    events.append("The world phase: roll the d12 until a Stop.")


def _world_roll(s: State, face: int, liaison: bool, events: list[str]) -> None:
    symbols = D12_CHART[face]
    s.world_rolls.append(WorldRoll(face=face, liaison=liaison))
    parts = []
    if "Bad" in symbols:
        s.world += 1
        parts.append(f"world +1 → {s.world} (target {world_target(s)})")
    if "+Dice" in symbols and s.world < world_target(s):
        s.owed += 1
        parts.append(f"next player +1 die ({s.owed} owed)")
    stops = "Stop" in symbols or liaison
    if stops:
        parts.append("stop" + (" (Media Liaison)" if liaison and "Stop" not in symbols else ""))
    else:
        parts.append("roll again")
    events.append(f"d12 shows {face}: {', '.join(symbols)} → {'; '.join(parts)}.")
    if s.world >= world_target(s):
        _game_over(s, events, f"The world reaches {world_target(s)} points: the world wins.")
    elif stops:
        _end_turn(s, events)


def _end_turn(s: State, events: list[str]) -> None:
    s.history.append(ScorePoint(turn=s.turn, team=s.team, world=s.world))
    s.current = (s.current + 1) % len(s.settings.players)
    s.turn += 1
    owed = s.owed
    s.pool = min(s.settings.max_pool, START_POOL + owed)
    capped = f", capped at {s.settings.max_pool}" if START_POOL + owed > s.settings.max_pool else ""
    s.owed = 0
    s.risk_before_throw = 0
    s.throw = []
    s.vc_half = 0
    s.phase = "start"
    events.append(
        f"Turn {s.turn}: {player_name(s, s.current)} starts with {START_POOL} + {owed} owed = "
        f"{s.pool} dice{capped}."
    )


def _game_over(s: State, events: list[str], why: str) -> None:
    s.phase = "over"
    s.history.append(ScorePoint(turn=s.turn, team=s.team, world=s.world))
    events.append(why)


def _power_user(s: State, action) -> str:
    return f"{player_name(s, action.by)} ({ROLE_NAMES[action.kind]})"


def _tally(throw: list[Die]) -> str:
    bugs, ideas, progress = count_bugs(throw), count_ideas(throw), count_progress(throw)
    ignored = sum(1 for d in throw if d.face == 1 and d.bugs_ignored)
    text = f"{bugs} {_plural(bugs, 'Bug')}, {ideas} {_plural(ideas, 'Idea')}, {progress} Progress"
    return text + (f" ({ignored} Bug{'s' if ignored != 1 else ''} ignored)" if ignored else "")


def _plural(n: int, word: str) -> str:
    return word if n == 1 else word + "s"


def _dice(n: int) -> str:
    return "die" if n == 1 else "dice"


def _points(n: int) -> str:
    return "point" if n == 1 else "points"


GAME = Game(
    key="save_the_singularity",
    title="Save the Singularity",
    summary="Cooperative push-your-luck dice: build a friendly AI before the world builds a bad one.",
    Settings=Settings,
    State=State,
    Action=Action,
    new_state=new_state,
    apply=apply,
    describe=describe,
    headline=headline,
    outcome=outcome,
)
