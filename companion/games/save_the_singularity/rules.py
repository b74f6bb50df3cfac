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

The turn as explicit steps (`State.phase`), and what `moves` offers in each:

    start  roll · mathematician · venture_capitalist           (before the turn's first throw)
    throw  stop · press_on · venture_capitalist                 (the throw did not bust)
           take_bust                                            (the throw busts: 2+ Bugs)
           rationalist · programmer · computer_scientist        (reroll the throw; the Computer
                                                                Scientist only if it didn't bust)
    world  roll_d12 · media_liaison                             (until a Stop)
    over   nothing

A bust is applied at once when no reroll power is left to change it; otherwise the table sees the
powers first and taps "take the bust" to go on (RULES.md: powers are offered before a bust).

Every throw is a declared chance node (`throw`): the pool of d6 (faces named Bug / Idea / Progress,
entered with three buttons at a physical-dice table), each reroll power, the Venture Capitalist's
two throws (first the dice that ignore Bugs, then the dice that count them) and the world's d12
(twelve faces, each named with its number and symbols). A throw's outcomes carry its exact bust
chance from `odds.bust_chance`. Events are typed (see `apply`); `moves` lists what may be done now.
"""

from __future__ import annotations

from typing import Annotated, Any, Iterable, Literal, NamedTuple, Optional, Union, get_args

from pydantic import Field, field_validator, model_validator

from companion.games.base import Dice, DieSpec, Event, Game, InputError, Model, Move, Outcome, RuleError, event, throw
from companion.i18n import N_, Msg, NMsg, _

TEAM_POINTS_PER_PLAYER = 25
WORLD_POINTS_PER_PLAYER = 4
START_POOL = 3

# --- The dice, as data (odds.py derives its probabilities from these same tables) -----------------

Symbol = Literal["Bug", "Idea", "Progress"]
BUG, IDEA, PROGRESS = get_args(Symbol)
D6_SYMBOLS: tuple[Symbol, ...] = (BUG, IDEA, IDEA, PROGRESS, PROGRESS, PROGRESS)  # faces 1..6


def d6_symbol(face: int) -> Symbol:
    """1 = Bug, 2–3 = Idea, 4–6 = Progress."""
    return D6_SYMBOLS[face - 1]


# The world's d12: which of Bad, +Dice and Stop each face shows (rulebook chart).
WorldSymbol = Literal["Bad", "+Dice", "Stop"]
BAD, PLUS_DICE, STOP = get_args(WorldSymbol)
D12_CHART: dict[int, tuple[str, ...]] = {
    1: (STOP,), 2: (STOP,), 3: (STOP,),
    4: (BAD,), 5: (BAD,),
    6: (PLUS_DICE, STOP), 7: (PLUS_DICE, STOP),
    8: (PLUS_DICE,),
    9: (BAD, STOP), 10: (BAD, STOP),
    11: (BAD, PLUS_DICE),
    12: (BAD, PLUS_DICE, STOP),
}


# The symbols by name, for the catalog: the view says them with `_(symbol)`; the rules' sentences
# hold them as messages (`SYMBOL_WORDS`).
SYMBOL_WORDS: dict[str, Msg] = {
    "Bug": Msg("Bug"), "Idea": Msg("Idea"), "Progress": Msg("Progress"),
    "Bad": Msg("Bad"), "+Dice": Msg("+Dice"), "Stop": Msg("Stop"),
}


def _numbers_showing(symbol: str) -> str:
    """The numbers of a plain d6 that mean `symbol`: "1", "2–3", "4–6"."""
    faces = [f for f in range(1, 7) if d6_symbol(f) == symbol]
    return str(faces[0]) if len(faces) == 1 else f"{faces[0]}–{faces[-1]}"


NO_STOP = Msg("no Stop — roll again")  # what a d12 result without Stop means for the world phase

# The d12's faces as the table reads them: the number and symbols, and "no Stop" when it has none, so
# a face that keeps the world phase going says so (`d12_face_name` checks them against the chart).
D12_FACE_NAMES: tuple[str, ...] = (
    N_("1 Stop"), N_("2 Stop"), N_("3 Stop"), N_("4 Bad, no Stop"), N_("5 Bad, no Stop"),
    N_("6 +Dice Stop"), N_("7 +Dice Stop"), N_("8 +Dice, no Stop"), N_("9 Bad Stop"), N_("10 Bad Stop"),
    N_("11 Bad +Dice, no Stop"), N_("12 Bad +Dice Stop"),
)
# The d6's faces as the table enters them (a symbol and the numbers that show it).
D6_FACE_NAMES: dict[str, str] = {"Bug": N_("Bug (1)"), "Idea": N_("Idea (2–3)"), "Progress": N_("Progress (4–6)")}


def d12_face_name(face: int) -> str:
    """A d12 face as the table reads it: its number and symbols, and "no Stop" when it has none
    ("11 Bad +Dice, no Stop"), so a face that keeps the world phase going says so. The names agree
    with the chart (and the d6's with its table):

    >>> all(d12_face_name(f) == " ".join([str(f), *D12_CHART[f]]) + ("" if "Stop" in D12_CHART[f] else ", no Stop")
    ...     for f in D12_CHART)
    True
    >>> all(D6_FACE_NAMES[s] == f"{s} ({_numbers_showing(s)})" for s in D6_SYMBOLS)
    True
    """
    return D12_FACE_NAMES[face - 1]


# The dice as a table enters them. The book plays with plain numbered dice, but on the d6 only the
# symbol matters: three big buttons ("Idea (2–3)") are quicker than six for a throw of up to 24 dice,
# and a face is recorded as the lowest number with its symbol. On the d12 every face is its own
# button, named with its number and symbols ("11 Bad +Dice, no Stop"): the table taps the number it
# sees and reads what it means, rather than looking a number up in the chart.
D6 = DieSpec(sides=6, faces=tuple(D6_FACE_NAMES[s] for s in D6_SYMBOLS), name="d6")
D12 = DieSpec(sides=12, faces=tuple(d12_face_name(face) for face in range(1, 13)), name="d12")

# --- Roles -----------------------------------------------------------------------------------------

Role = Literal[
    "rationalist", "mathematician", "computer_scientist",
    "programmer", "venture_capitalist", "media_liaison",
]
ROLES: tuple[str, ...] = (
    "rationalist", "mathematician", "computer_scientist",
    "programmer", "venture_capitalist", "media_liaison",
)
# A role's name as a message (in the rules' sentences: said in each phone's language) ...
ROLE_WORDS: dict[str, Msg] = {
    "rationalist": Msg("Rationalist"),
    "mathematician": Msg("Mathematician"),
    "computer_scientist": Msg("Computer Scientist"),
    "programmer": Msg("Programmer"),
    "venture_capitalist": Msg("Venture Capitalist"),
    "media_liaison": Msg("Media Liaison"),
}
# ... and as its English words (what standings and exports keep; a view says it with `_(name)`).
ROLE_NAMES: dict[str, str] = {role: word.msgid for role, word in ROLE_WORDS.items()}
ROLE_POWERS: dict[str, Msg] = {
    "rationalist": Msg("Reroll all dice of the current throw."),
    "mathematician": Msg("A player starts their turn with only 1 die (+Dice owed are forfeited)."),
    "computer_scientist": Msg("Reroll the current throw's Idea dice; Bugs among them are ignored."),
    "programmer": Msg("Reroll the current throw's Bug dice."),
    "venture_capitalist": Msg("Before a throw of X dice: roll X ignoring Bugs, then X more not ignoring "
                              "Bugs. Both score; Ideas from both grow the pool."),
    "media_liaison": Msg("A d12 result also counts as Stop."),
}
# Powers that act on a throw already made (offered after every throw, before a bust is applied).
THROW_POWERS = ("rationalist", "computer_scientist", "programmer")


def free_roles(others: Iterable[str]) -> tuple[str, ...]:
    """The roles a player may take beside the other players' (`Settings` checks the same): a role
    nobody else has, or any role once all six are in play (only then do roles repeat).

    >>> free_roles(["rationalist", "programmer"])
    ('mathematician', 'computer_scientist', 'venture_capitalist', 'media_liaison')
    >>> free_roles(ROLES) == ROLES
    True
    """
    taken = set(others)
    if taken >= set(ROLES):
        return ROLES
    return tuple(r for r in ROLES if r not in taken)


# --- Settings ----------------------------------------------------------------------------------------


class Player(Model):
    name: str = Field(min_length=1, max_length=40)
    role: Role

    @field_validator("name")
    @classmethod
    def _name_not_blank(cls, name: str) -> str:
        name = name.strip()
        if not name:
            raise ValueError(Msg("A player's name must have 1 to 40 characters (got a blank name)."))
        return name


TIMINGS = (N_("before roll"), N_("after roll"))  # the Media Liaison's timings as a settings form says them


class Settings(Model):
    players: list[Player] = Field(
        # a name typed for the table: the default is said in the language of the phone that sets up
        default_factory=lambda: [Player(name=_("Player {n}", n=1), role="rationalist")],
        description=N_("Players in turn order, each with a role"),
    )
    max_pool: int = Field(12, ge=START_POOL, le=12, description=N_("Most dice in one throw (the box has 12d6)"))
    media_liaison_timing: Literal["before_roll", "after_roll"] = Field(
        "before_roll", description=N_("Media Liaison declared before the d12 is rolled, or after seeing it")
    )

    @field_validator("players")
    @classmethod
    def _players_ok(cls, players: list[Player]) -> list[Player]:
        if not players:
            raise ValueError(Msg("Save the Singularity needs 1 or more players (got 0)."))
        names = [p.name.casefold() for p in players]
        for p in players:
            if names.count(p.name.casefold()) > 1:
                raise ValueError(Msg("Each player needs a different name ({name} appears twice).", name=repr(p.name)))
        # Roles repeat only when players outnumber the six roles: then all six must be in play.
        roles = [p.role for p in players]
        needed = min(len(players), len(ROLES))
        if len(set(roles)) < needed:
            if len(players) <= len(ROLES):
                twice = next(r for r in roles if roles.count(r) > 1)
                raise ValueError(Msg("With {n} players each needs a different role ({role} is taken twice).",
                                     n=len(players), role=ROLE_WORDS[twice]))
            missing = _listed([ROLE_WORDS[r] for r in ROLES if r not in roles])
            raise ValueError(Msg("With {n} players all six roles must be taken before any repeats (missing: {missing}).",
                                 n=len(players), missing=missing))
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
    """Team and world at the end of a turn (turn 0: the start), for the end-of-game chart."""

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
    throw_bust_chance: float = 0.0  # the chance the current throw (or its last reroll) had of busting
    owed: int = 0  # +Dice the world phase has given the next player so far
    world_rolls: list[WorldRoll] = Field(default_factory=list)  # this (or the last) world phase
    powers_used: list[bool] = Field(default_factory=list)  # per player, in the order of settings.players

    @model_validator(mode="before")
    @classmethod
    def _drop_the_old_history(cls, data: Any) -> Any:
        # Saves made before the score history left the state (it grew by a point every turn, and the
        # state is saved after each action) still hold it: drop it on load, so they load and replay
        # as they did. The chart's points come from the logged events instead (`score_history`).
        if isinstance(data, dict) and "history" in data:
            data = {k: v for k, v in data.items() if k != "history"}
        return data


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
    )


def score_history(events: Iterable[Any]) -> list[ScorePoint]:
    """Team and world at the end of each turn, from the logged events in order (oldest first): the
    start, then a point at each `turn` event (the turn before it ended) and at `game_end`. Events are
    typed `Event`s or stored dicts ({kind, text, data}). A `turn` event from an older save has no scores: the running
    scores from `bank` (team) and `world_roll` (world) stand in.

    >>> score_history([
    ...     {"kind": "bank", "text": "", "data": {"team": 5}},
    ...     {"kind": "turn", "text": "", "data": {"turn": 2, "team": 5, "world": 0}},
    ...     {"kind": "world_roll", "text": "", "data": {"world": 4}},
    ...     {"kind": "game_end", "text": "", "data": {"turn": 2, "team": 5, "world": 4}},
    ... ])  # doctest: +NORMALIZE_WHITESPACE
    [ScorePoint(turn=0, team=0, world=0), ScorePoint(turn=1, team=5, world=0),
     ScorePoint(turn=2, team=5, world=4)]
    """
    points = [ScorePoint(turn=0, team=0, world=0)]
    team = world = 0
    for e in events:
        if not isinstance(e, (Event, dict)):
            continue  # a plain sentence (a save from before events had kinds) carries no scores
        kind, data = (e.kind, e.data) if isinstance(e, Event) else (e.get("kind"), e.get("data") or {})
        if kind == "bank":
            team = data.get("team", team)
        elif kind == "world_roll":
            world = data.get("world", world)
        elif kind == "turn":
            team, world = data.get("team", team), data.get("world", world)
            points.append(ScorePoint(turn=data["turn"] - 1, team=team, world=world))
        elif kind == "game_end":
            team, world = data["team"], data["world"]
            points.append(ScorePoint(turn=data["turn"], team=team, world=world))
    return points


def team_target(state: State) -> int:
    return TEAM_POINTS_PER_PLAYER * len(state.settings.players)


def world_target(state: State) -> int:
    return WORLD_POINTS_PER_PLAYER * len(state.settings.players)


def player_name(state: State, index: int) -> str:
    return state.settings.players[index].name


IGNORED_BUG = N_("Bug (ignored)")  # die_symbol's word for a Bug whose Bugs don't count


def die_symbol(die: Die) -> str:
    """What the view writes under a die: Bug / Idea / Progress, or 'Bug (ignored)'."""
    symbol = d6_symbol(die.face)
    return IGNORED_BUG if symbol == "Bug" and die.bugs_ignored else symbol


def throw_parts(state: State) -> list[tuple[Msg, list[Die]]]:
    """The current (or last) throw as the table made it, each part with its caption: one throw, or
    the Venture Capitalist's two apart — throw 1 ignoring Bugs, then throw 2 counting them."""
    half, n = state.vc_half, len(state.throw)
    if not half:
        return [(NMsg("This throw ({n} die)", "This throw ({n} dice)", n), list(state.throw))]
    rest = n - half
    return [(NMsg("Throw 1 · {n} die, Bugs ignored", "Throw 1 · {n} dice, Bugs ignored", half), state.throw[:half]),
            (NMsg("Throw 2 · {n} die, Bugs count", "Throw 2 · {n} dice, Bugs count", rest), state.throw[half:])]


def throw_tally(state: State) -> Msg:
    """The current throw in words, the Venture Capitalist's two throws apart:
    "throw 1: 0 Bugs, 1 Idea, 2 Progress (1 Bug ignored); throw 2: 1 Bug, 2 Ideas, 0 Progress"."""
    if not state.vc_half:
        return tally(state.throw)
    (_, first), (_, second) = throw_parts(state)
    return Msg("throw 1: {first}; throw 2: {second}", first=tally(first), second=tally(second))


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


def outcome(state: State) -> Optional[Msg]:
    if state.team >= team_target(state):
        return Msg("Won")
    if state.world >= world_target(state):
        return Msg("Lost")
    return None


def headline(state: State) -> Msg:
    turn = state.turn
    if state.phase == "over":
        return Msg("Turn {turn} · game over", turn=turn)  # the campaign status adds Won or Lost
    name = player_name(state, state.current)
    if state.phase == "start":
        return NMsg("Turn {turn} · {name} · {n} die to roll", "Turn {turn} · {name} · {n} dice to roll", state.pool,
                    turn=turn, name=name)
    if state.phase == "throw" and is_bust(state):
        return Msg("Turn {turn} · {name} · bust!", turn=turn, name=name)
    if state.phase == "throw":
        return Msg("Turn {turn} · {name} · {at_risk} at risk", turn=turn, name=name, at_risk=at_risk(state))
    return Msg("Turn {turn} · {name} · the world rolls", turn=turn, name=name)


def start_pool_words(state: State) -> Msg:
    """Why the turn starts with this many dice: "3 + 2 owed by the world", "the Mathematician's 1 die"."""
    owed = state.pool - START_POOL
    if owed > 0:
        return Msg("{start} + {owed} owed by the world", start=START_POOL, owed=owed)
    if state.pool < START_POOL:
        return Msg("the Mathematician's 1 die")
    return Msg("{start} to start", start=START_POOL)


def throw_help(state: State) -> Msg:
    return Msg("Progress adds to the points at risk; each Idea adds a die to the next throw (at most {max}); "
               "two or more Bugs in one throw bust.", max=state.settings.max_pool)


WORLD_HELP = Msg("The d12 is rolled until a face with Stop. Bad: world +1. +Dice: the next player rolls one more die.")


def researcher_result(state: State) -> tuple[bool, int]:
    """In the world phase, how the researcher's throws ended: (busted, points lost or banked)."""
    if count_bugs(state.throw) >= 2:
        return True, state.risk_before_throw
    return False, state.risk_before_throw + count_progress(state.throw)


class WorldRow(NamedTuple):
    roll: WorldRoll
    symbols: tuple[str, ...]
    world: int  # the world's score after this roll
    extra: int  # +Dice given to the next player so far
    again: bool  # no Stop (nor the Media Liaison's) and the world hasn't won: the d12 is rolled again


def world_rows(state: State) -> list[WorldRow]:
    """Each d12 of the (last) world phase with its symbols, the world's score after it, the +Dice
    given so far and whether it left the world phase going (`NO_STOP`)."""
    bads = sum(1 for r in state.world_rolls if "Bad" in D12_CHART[r.face])
    world, extra = state.world - bads, 0
    rows = []
    for r in state.world_rolls:
        symbols = D12_CHART[r.face]
        world += "Bad" in symbols
        extra += "+Dice" in symbols and world < world_target(state)
        again = "Stop" not in symbols and not r.liaison and world < world_target(state)
        rows.append(WorldRow(r, symbols, world, extra, again))
    return rows


def describe(action: Action) -> Msg:
    plain = {
        "roll": Msg("roll the dice"),
        "press_on": Msg("press on"),
        "stop": Msg("stop and bank"),
        "take_bust": Msg("take the bust"),
        "roll_d12": Msg("roll the d12"),
    }
    if action.kind in plain:
        return plain[action.kind]
    return Msg("{role} power (player {number})", role=ROLE_WORDS[action.kind], number=action.by + 1)


def label(state: State, action: Action) -> Msg:
    """`describe` with the player who uses a power named ("Ada's Venture Capitalist power"), for undo
    and the history."""
    if isinstance(action, POWER_ACTIONS):
        return Msg("{player}'s {role} power", player=player_name(state, action.by), role=ROLE_WORDS[action.kind])
    return describe(action)


# --- What is allowed now ---------------------------------------------------------------------------


def _candidates(state: State) -> list:
    everyone = range(len(state.settings.players))
    return [Roll(), PressOn(), Stop(), TakeBust(), RollD12()] + [
        cls(by=i) for cls in POWER_ACTIONS for i in everyone
    ]


def legal_actions(state: State) -> list:
    """Every action allowed now, powers with the player who would use them (`moves` builds on it)."""
    return [a for a in _candidates(state) if why_not(state, a) is None]


def why_not(state: State, action: Action) -> Optional[Msg]:
    """None if the action is allowed now, else the reason in words."""
    if state.phase == "over":
        return Msg("The game is over ({outcome}).", outcome=outcome(state))
    kind = action.kind
    if isinstance(action, POWER_ACTIONS):
        last = len(state.settings.players) - 1
        if not 0 <= action.by <= last:
            return Msg("The player using a power is numbered 0 to {last} (got {got}).", last=last,
                       got=str(action.by))
        player = state.settings.players[action.by]
        if player.role != kind:
            return Msg("{player} is the {role}, not the {power}.", player=player.name, role=ROLE_WORDS[player.role],
                       power=ROLE_WORDS[kind])
        if state.powers_used[action.by]:
            return Msg("{player} has already used the {role} power (once per game).", player=player.name,
                       role=ROLE_WORDS[kind])
    phase = state.phase
    bust = is_bust(state)
    if kind == "roll":
        return None if phase == "start" else Msg("The turn's first throw has been made.")
    if kind in ("press_on", "stop"):
        if phase != "throw":
            return Msg("Stop or press on after a throw.")
        return Msg("This throw busts: take the bust (or use a reroll power).") if bust else None
    if kind == "take_bust":
        return None if bust else Msg("Only a throw with two or more Bugs busts.")
    if kind == "roll_d12":
        return None if phase == "world" else Msg("The d12 is rolled in the world phase.")
    if kind == "mathematician":
        if phase != "start":
            return Msg("The Mathematician acts before a turn's first throw.")
        return Msg("The pool is already 1 die.") if state.pool <= 1 else None
    if kind == "venture_capitalist":
        if phase == "start" or (phase == "throw" and not bust):
            return None
        return Msg("The Venture Capitalist acts right before a throw (the first, or pressing on).")
    if kind in THROW_POWERS:
        if phase != "throw":
            return Msg("The {role} acts on a throw just made.", role=ROLE_WORDS[kind])
        if kind == "computer_scientist" and count_ideas(state.throw) == 0:
            return Msg("This throw has no Idea dice to reroll.")
        if kind == "computer_scientist" and bust:
            # Its reroll leaves the Bugs that bust in place, so it can't change the outcome.
            return Msg("Rerolling the Ideas can't undo a bust: the Bugs stay.")
        if kind == "programmer" and count_bugs(state.throw) == 0:
            return Msg("This throw has no Bugs to reroll.")
        return None
    if kind == "media_liaison":
        if phase != "world":
            return Msg("The Media Liaison acts on the world's d12.")
        if state.settings.media_liaison_timing == "after_roll" and not state.world_rolls:
            return Msg("Roll the d12 first: the Media Liaison then makes that result count as Stop.")
        return None
    return Msg("Unknown action {kind}.", kind=repr(kind))  # pragma: no cover - the union admits no other kinds


def moves(state: State) -> list[Move]:
    """What may be done now, each with the words of its button; every unspent power that can't act
    now is listed greyed out with the reason (the roster says when it will)."""
    if state.phase == "over":
        return []
    out = []
    for action in _candidates(state):
        reason = why_not(state, action)
        if reason is None:
            out.append(Move(kind=action.kind, label=move_label(state, action), action=action))
        elif isinstance(action, POWER_ACTIONS) and state.settings.players[action.by].role == action.kind \
                and not state.powers_used[action.by]:
            out.append(Move(kind=action.kind, label=_owner(state, action), action=action, why_not=reason))
    return out


def move_label(state: State, action: Action) -> Msg:
    """The words on an action's button now ("Press on with 5 dice", "Bea (Programmer): reroll the 2 Bug dice")."""
    kind = action.kind
    if kind == "roll":
        return NMsg("Roll {n} die", "Roll {n} dice", state.pool)
    if kind == "press_on":
        return NMsg("Press on with {n} die", "Press on with {n} dice", next_pool(state))
    if kind == "stop":
        return Msg("Stop and bank {points}", points=at_risk(state))
    if kind == "take_bust":
        return Msg("Take the bust (lose {points})", points=state.risk_before_throw)
    if kind == "roll_d12":
        return Msg("Roll the d12")
    who = _who(state, action)
    if kind == "rationalist":
        return Msg("{player} ({role}): reroll all {n} dice", n=len(state.throw), **who)
    if kind == "programmer":
        return NMsg("{player} ({role}): reroll the {n} Bug die", "{player} ({role}): reroll the {n} Bug dice",
                    count_bugs(state.throw), **who)
    if kind == "computer_scientist":
        return NMsg("{player} ({role}): reroll the {n} Idea die, Bugs ignored",
                    "{player} ({role}): reroll the {n} Idea dice, Bugs ignored", count_ideas(state.throw), **who)
    if kind == "venture_capitalist":
        n = next_pool(state)
        if state.phase == "start":
            return NMsg("{player} ({role}): roll {n} die ignoring Bugs + {n} more",
                        "{player} ({role}): roll {n} dice ignoring Bugs + {n} more", n, **who)
        return NMsg("{player} ({role}): press on with {n} die ignoring Bugs + {n} more",
                    "{player} ({role}): press on with {n} dice ignoring Bugs + {n} more", n, **who)
    if kind == "mathematician":
        return Msg("{player} ({role}): {current} starts with only 1 die", current=player_name(state, state.current),
                   **who)
    if state.settings.media_liaison_timing == "before_roll" or not state.world_rolls:
        return Msg("{player} ({role}): roll the d12, it counts as Stop", **who)
    return Msg("{player} ({role}): the {face} counts as Stop", face=state.world_rolls[-1].face, **who)


def _who(state: State, action) -> dict[str, Any]:
    """The `player` and `role` of a power's user, for a message: "{player} ({role}): ..."."""
    return {"player": player_name(state, action.by), "role": ROLE_WORDS[action.kind]}


def _owner(state: State, action) -> Msg:
    return Msg("{player} ({role})", **_who(state, action))


def _listed(items: list, separator: str = ", ") -> Any:
    """Texts one after another, separated by commas ("Ada (Programmer), Bo (Rationalist)"), each said
    in the phone's language; "" for none."""
    out: Any = ""
    for i, item in enumerate(items):
        out = item if i == 0 else out + separator + item
    return out


# --- Applying an action ----------------------------------------------------------------------------


def apply(state: State, action: Action, dice: Dice) -> tuple[State, list[Event]]:
    """The next state and the typed events explaining it. Refuses (changing nothing) what isn't allowed.

    Event kinds and their data (`player` is a name, `by` a player's number from 0):

    - power: a role's power is used — role, by, player; the Mathematician adds pool_before, forfeited
    - press_on: player, at_risk, pool, ideas, next_pool, capped
    - throw: dice the researcher threw — player, cause (roll, press_on, venture_capitalist,
      rationalist, computer_scientist, programmer), thrown (the faces just thrown), replaced (the
      faces a reroll replaced), ignoring (how many of the thrown ignore Bugs), faces (the whole
      throw now), bugs, ideas, progress, ignored_bugs, busts, gained (Progress the throw puts at
      risk, 0 if it busts), at_risk, bust_chance (the chance it had of busting, as declared)
    - bust_pending: a bust a reroll power may still undo — bugs, lost, powers [{by, role, player}]
    - bust: player, bugs, lost, chance (the bust chance the busting throw had)
    - bank: player, points, team, target
    - world_phase: player (whose turn it is)
    - world_roll: face, symbols, bad, plus_dice, stop, liaison, world, owed, target
    - turn: turn (the one beginning), by, player, owed, pool, capped, team, world (the scores as the
      turn before it ended: `score_history` charts them)
    - game_end: winner ("team" or "world"), team, world, team_target, world_target, turn
    """
    if isinstance(action, POWER_ACTIONS):
        count = len(state.settings.players)
        if not 0 <= action.by < count:
            raise InputError(Msg("The player using a power is numbered 0 to {last} (got {got}).", last=count - 1,
                                 got=str(action.by)))
    reason = why_not(state, action)
    if reason is not None:
        raise RuleError(reason)
    s = _copy(state)  # the input stays untouched, even if a die is refused midway
    events: list[Event] = []
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
    })


def _roll(s: State, action: Roll, dice: Dice, events: list[Event]) -> None:
    _throw(s, dice, events, "roll")


def _press_on(s: State, action: PressOn, dice: Dice, events: list[Event]) -> None:
    events.append(_press_on_event(s))
    _keep_throw_and_grow(s)
    _throw(s, dice, events, "press_on")


def _stop(s: State, action: Stop, dice: Dice, events: list[Event]) -> None:
    points = at_risk(s)
    before = s.team
    s.team += points
    name = player_name(s, s.current)
    events.append(event(
        "bank", NMsg("{player} stops and banks {n} point: team {before} → {team} (target {target}).",
                     "{player} stops and banks {n} points: team {before} → {team} (target {target}).", points,
                     player=name, before=before, team=s.team, target=team_target(s)),
        player=name, points=points, team=s.team, target=team_target(s)))
    if s.team >= team_target(s):
        _game_over(s, events, "team", Msg("The team reaches {target} points: the team wins.", target=team_target(s)))
    else:
        _start_world_phase(s, events)


def _take_bust(s: State, action: TakeBust, dice: Dice, events: list[Event]) -> None:
    _bust(s, events)


def _roll_d12(s: State, action: RollD12, dice: Dice, events: list[Event]) -> None:
    _world_roll(s, dice, False, events)


def _rationalist(s: State, action: Rationalist, dice: Dice, events: list[Event]) -> None:
    n, half = len(s.throw), s.vc_half
    events.append(_power_event(s, action, Msg("{player} ({role}): reroll all {n} dice of the throw.", n=n,
                                              **_who(s, action))))
    before = [d.face for d in s.throw]
    # A reroll of the whole throw is the throw made again: only the Venture Capitalist's first
    # half ignores Bugs (a Computer Scientist's earlier reroll no longer applies to the new dice),
    # so the table rerolls that half apart from the rest.
    if half:
        faces = (_throw_d6(s, dice, half, Msg("the Rationalist reroll of all {n} dice: throw 1, the {half} that "
                                              "ignore Bugs", n=n, half=half), lost=None)
                 + _throw_d6(s, dice, n - half, Msg("the Rationalist reroll of all {n} dice: throw 2, the {rest} that "
                                                    "count Bugs", n=n, rest=n - half), lost=s.risk_before_throw))
    else:
        faces = _throw_d6(s, dice, n, Msg("the Rationalist reroll of all {n} dice", n=n), lost=s.risk_before_throw)
    s.throw = [Die(face=f, bugs_ignored=i < half) for i, f in enumerate(faces)]
    s.throw_bust_chance = _bust_chance(n - half)
    _throw_event(s, events, "rationalist", list(range(n)), before)
    _after_throw(s, events)


def _computer_scientist(s: State, action: ComputerScientist, dice: Dice, events: list[Event]) -> None:
    picks = [i for i, d in enumerate(s.throw) if d6_symbol(d.face) == "Idea"]
    k = len(picks)
    events.append(_power_event(s, action, NMsg(
        "{player} ({role}): reroll the {n} Idea die, Bugs among them ignored.",
        "{player} ({role}): reroll the {n} Idea dice, Bugs among them ignored.", k, **_who(s, action))))
    before = [s.throw[i].face for i in picks]
    faces = _throw_d6(s, dice, k, NMsg("the Computer Scientist reroll of {n} Idea die (Bugs ignored)",
                                       "the Computer Scientist reroll of {n} Idea dice (Bugs ignored)", k), lost=None)
    for i, face in zip(picks, faces):
        s.throw[i] = Die(face=face, bugs_ignored=True)
    s.throw_bust_chance = 0.0  # the new dice's Bugs are ignored, and the throw didn't bust
    _throw_event(s, events, "computer_scientist", picks, before)
    _after_throw(s, events)


def _programmer(s: State, action: Programmer, dice: Dice, events: list[Event]) -> None:
    picks = [i for i, d in enumerate(s.throw) if d.face == 1 and not d.bugs_ignored]
    k = len(picks)
    events.append(_power_event(s, action, NMsg("{player} ({role}): reroll the {n} Bug die.",
                                               "{player} ({role}): reroll the {n} Bug dice.", k, **_who(s, action))))
    before = [s.throw[i].face for i in picks]
    faces = _throw_d6(s, dice, k, NMsg("the Programmer reroll of {n} Bug die", "the Programmer reroll of {n} Bug dice", k),
                      lost=s.risk_before_throw)
    for i, face in zip(picks, faces):
        s.throw[i] = Die(face=face, bugs_ignored=False)
    s.throw_bust_chance = _bust_chance(k)  # every Bug that counted is rerolled: only the new dice can bust
    _throw_event(s, events, "programmer", picks, before)
    _after_throw(s, events)


def _mathematician(s: State, action: Mathematician, dice: Dice, events: list[Event]) -> None:
    before = s.pool
    events.append(_power_event(
        s, action, Msg("{player} ({role}): {current} starts with only 1 die instead of {before} (any +Dice owed are "
                       "forfeited).", current=player_name(s, s.current), before=before, **_who(s, action)),
        pool_before=before, forfeited=max(0, before - START_POOL)))
    s.pool = 1


def _venture_capitalist(s: State, action: VentureCapitalist, dice: Dice, events: list[Event]) -> None:
    if s.phase == "throw":
        events.append(_press_on_event(s))
        _keep_throw_and_grow(s)
    events.append(_power_event(s, action, NMsg(
        "{player} ({role}): back the throw: {n} die ignoring Bugs, then {n} more counting Bugs.",
        "{player} ({role}): back the throw: {n} dice ignoring Bugs, then {n} more counting Bugs.", s.pool,
        **_who(s, action))))
    _throw(s, dice, events, "venture_capitalist")


def _media_liaison(s: State, action: MediaLiaison, dice: Dice, events: list[Event]) -> None:
    if s.settings.media_liaison_timing == "before_roll":
        events.append(_power_event(s, action, Msg("{player} ({role}): this d12 result also counts as Stop.",
                                                  **_who(s, action))))
        _world_roll(s, dice, True, events)
        return
    last = s.world_rolls[-1]
    s.world_rolls[-1] = WorldRoll(face=last.face, liaison=True)
    events.append(_power_event(s, action, Msg("{player} ({role}): the d12's {face} also counts as Stop.",
                                              face=last.face, **_who(s, action)), face=last.face))
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


# --- The chance nodes --------------------------------------------------------------------------------


def _bust_chance(counting: int) -> float:
    """The exact chance that `counting` dice that count Bugs show two or more (`odds.bust_chance`)."""
    from companion.games.save_the_singularity import odds  # odds reads this module's tables: imported late

    return float(odds.bust_chance(counting))


def _throw_d6(s: State, dice: Dice, count: int, why: Msg, *, lost: Optional[int]) -> list[int]:
    """One throw of `count` d6 by the researcher. `lost`: the points at risk a bust would lose, or
    None for dice whose Bugs are ignored (they can't bust)."""
    if lost is None:
        outcomes = [Outcome(label=Msg("can't bust (Bugs ignored)"), probability=1.0)]
    else:
        p = _bust_chance(count)
        busts = Msg("2 or more Bugs bust, losing {lost} at risk", lost=lost) if lost else Msg("2 or more Bugs bust")
        outcomes = [Outcome(label=busts, probability=p),
                    Outcome(label=Msg("0 or 1 Bug: no bust"), probability=1.0 - p)]
    return throw(dice, count, why, die=D6, who=player_name(s, s.current), outcomes=outcomes)


def _world_outcomes(s: State, liaison: bool) -> list[Outcome]:
    """One d12 of the world phase: a Bad; a Stop without Bad; neither (roll again)."""
    faces = D12_CHART.values()
    bad = sum(1 for symbols in faces if "Bad" in symbols)
    stop = sum(1 for symbols in faces if "Bad" not in symbols and ("Stop" in symbols or liaison))
    again = len(D12_CHART) - bad - stop
    target = world_target(s)
    bad_label = (Msg("Bad: the world wins") if s.world + 1 >= target
                 else Msg("Bad: world {world} of {target}", world=s.world + 1, target=target))
    outcomes = [Outcome(label=bad_label, probability=bad / len(D12_CHART)),
                Outcome(label=Msg("Stop, no Bad: the world phase ends"), probability=stop / len(D12_CHART))]
    if again:
        outcomes.append(Outcome(label=Msg("+Dice only, no Stop — roll again"), probability=again / len(D12_CHART)))
    return outcomes


# --- Steps shared by the handlers ------------------------------------------------------------------


def _press_on_event(s: State) -> Event:
    ideas = count_ideas(s.throw)
    grown = s.pool + ideas
    capped = grown > s.settings.max_pool
    name = player_name(s, s.current)
    words = dict(player=name, at_risk=at_risk(s), pool=NMsg("{n} die", "{n} dice", s.pool),
                 ideas=NMsg("{n} Idea", "{n} Ideas", ideas), next=min(grown, s.settings.max_pool))
    return event(
        "press_on",
        Msg("{player} presses on with {at_risk} at risk: {pool} + {ideas} = {next} dice, capped at {max}.",
            max=s.settings.max_pool, **words) if capped
        else Msg("{player} presses on with {at_risk} at risk: {pool} + {ideas} = {next} dice.", **words),
        player=name, at_risk=at_risk(s), pool=s.pool, ideas=ideas, next_pool=min(grown, s.settings.max_pool),
        capped=capped)


def _keep_throw_and_grow(s: State) -> None:
    """Pressing on: the current throw's Progress joins the points at risk; Ideas grow the pool."""
    grown = next_pool(s)
    s.risk_before_throw = at_risk(s)
    s.pool = grown


def _throw(s: State, dice: Dice, events: list[Event], cause: str) -> None:
    """A new throw of the pool: the turn's first, pressing on, or the Venture Capitalist's two."""
    n, name, lost = s.pool, player_name(s, s.current), s.risk_before_throw
    if cause == "venture_capitalist":
        # Two throws, each asked for and shown apart: throw 1 ignores Bugs, throw 2 counts them.
        ignoring = _throw_d6(s, dice, n, Msg("{player}'s Venture Capitalist throw 1 of 2, ignoring Bugs", player=name),
                             lost=None)
        counting = _throw_d6(s, dice, n, Msg("{player}'s Venture Capitalist throw 2 of 2, counting Bugs", player=name),
                             lost=lost)
        s.throw = [Die(face=f, bugs_ignored=True) for f in ignoring] + [Die(face=f) for f in counting]
        s.vc_half = n
    else:
        why = (Msg("{player}'s first throw", player=name) if cause == "roll"
               else Msg("{player}'s throw, pressing on", player=name))
        s.throw = [Die(face=f) for f in _throw_d6(s, dice, n, why, lost=lost)]
        s.vc_half = 0
    s.phase = "throw"
    s.throw_bust_chance = _bust_chance(n)
    _throw_event(s, events, cause, list(range(len(s.throw))), [])
    _after_throw(s, events)


def _throw_event(s: State, events: list[Event], cause: str, picks: list[int], replaced: list[int]) -> None:
    """What a throw or a reroll left on the table (`picks`: the dice just thrown)."""
    name = player_name(s, s.current)
    throw_now = s.throw
    thrown = [throw_now[i].face for i in picks]
    busts = count_bugs(throw_now) >= 2
    gained = 0 if busts else count_progress(throw_now)
    shows = throw_tally(s)  # a Venture Capitalist's two throws stay apart in words too
    if replaced:
        words = dict(before=_symbols(replaced), after=_symbols(thrown), shows=shows)
        text = (Msg("Rerolled {before} → {after}: the throw shows {shows}.", **words) if busts
                else Msg("Rerolled {before} → {after}: the throw shows {shows}; {at_risk} at risk this turn.",
                         at_risk=at_risk(s), **words))
    elif cause == "venture_capitalist":
        text = (NMsg("{player} throws twice, {n} die each (Venture Capitalist): {shows}.",
                     "{player} throws twice, {n} dice each (Venture Capitalist): {shows}.", s.pool,
                     player=name, shows=shows) if busts
                else NMsg("{player} throws twice, {n} die each (Venture Capitalist): {shows}; +{gained} at risk "
                          "({at_risk} this turn).",
                          "{player} throws twice, {n} dice each (Venture Capitalist): {shows}; +{gained} at risk "
                          "({at_risk} this turn).", s.pool, player=name, shows=shows, gained=gained,
                          at_risk=at_risk(s)))
    else:
        text = (NMsg("{player} throws {n} die: {shows}.", "{player} throws {n} dice: {shows}.", s.pool,
                     player=name, shows=shows) if busts
                else NMsg("{player} throws {n} die: {shows}; +{gained} at risk ({at_risk} this turn).",
                          "{player} throws {n} dice: {shows}; +{gained} at risk ({at_risk} this turn).", s.pool,
                          player=name, shows=shows, gained=gained, at_risk=at_risk(s)))
    events.append(event(
        "throw", text, player=name, cause=cause, thrown=thrown, replaced=replaced,
        ignoring=sum(1 for i in picks if throw_now[i].bugs_ignored), faces=[d.face for d in throw_now],
        bugs=count_bugs(throw_now), ideas=count_ideas(throw_now), progress=count_progress(throw_now),
        ignored_bugs=_ignored_bugs(throw_now), busts=busts, gained=gained, at_risk=at_risk(s),
        bust_chance=s.throw_bust_chance))


def _after_throw(s: State, events: list[Event]) -> None:
    """A bust waits while a reroll power could still change it; otherwise it is applied now."""
    if not is_bust(s):
        return
    holders = [a for a in legal_actions(s) if a.kind in THROW_POWERS]
    if not holders:
        _bust(s, events)
        return
    offers = _listed([_owner(s, a) for a in holders])
    events.append(event(
        "bust_pending", Msg("{bugs} Bugs: this throw busts unless a reroll changes it — {offers}.",
                            bugs=count_bugs(s.throw), offers=offers),
        bugs=count_bugs(s.throw), lost=s.risk_before_throw,
        powers=[{"by": a.by, "role": a.kind, "player": player_name(s, a.by)} for a in holders]))


def _bust(s: State, events: list[Event]) -> None:
    lost, bugs = s.risk_before_throw, count_bugs(s.throw)
    events.append(event(
        "bust", NMsg("Bust: {bugs} Bugs in one throw (two or more bust); {n} point at risk lost.",
                     "Bust: {bugs} Bugs in one throw (two or more bust); {n} points at risk lost.", lost, bugs=bugs),
        player=player_name(s, s.current), bugs=bugs, lost=lost, chance=s.throw_bust_chance))
    _start_world_phase(s, events)


def _start_world_phase(s: State, events: list[Event]) -> None:
    s.phase = "world"
    s.world_rolls = []
    events.append(event("world_phase", Msg("The world phase: roll the d12 until a Stop."),
                        player=player_name(s, s.current)))


def _world_roll(s: State, dice: Dice, liaison: bool, events: list[Event]) -> None:
    why = Msg("the world's roll (the Media Liaison makes it a Stop)") if liaison else Msg("the world's roll")
    [face] = throw(dice, 1, why, die=D12, who=player_name(s, s.current), outcomes=_world_outcomes(s, liaison))
    symbols = D12_CHART[face]
    s.world_rolls.append(WorldRoll(face=face, liaison=liaison))
    parts = []
    bad = "Bad" in symbols
    if bad:
        s.world += 1
        parts.append(Msg("world +1 → {world} (target {target})", world=s.world, target=world_target(s)))
    plus_dice = "+Dice" in symbols and s.world < world_target(s)
    if plus_dice:
        s.owed += 1
        parts.append(Msg("next player +1 die ({owed} owed)", owed=s.owed))
    stops = "Stop" in symbols or liaison
    if stops:
        parts.append(Msg("stop (Media Liaison)") if liaison and "Stop" not in symbols else Msg("stop"))
    elif s.world < world_target(s):
        parts.append(NO_STOP)
    events.append(event(
        "world_roll", Msg("d12 shows {face}: {symbols} → {parts}.", face=face,
                          symbols=_listed([SYMBOL_WORDS[x] for x in symbols]), parts=_listed(parts, "; ")),
        face=face, symbols=list(symbols), bad=bad, plus_dice=plus_dice, stop=stops, liaison=liaison,
        world=s.world, owed=s.owed, target=world_target(s)))
    if s.world >= world_target(s):
        _game_over(s, events, "world", Msg("The world reaches {target} points: the world wins.",
                                           target=world_target(s)))
    elif stops:
        _end_turn(s, events)


def _end_turn(s: State, events: list[Event]) -> None:
    s.current = (s.current + 1) % len(s.settings.players)
    s.turn += 1
    owed = s.owed
    s.pool = min(s.settings.max_pool, START_POOL + owed)
    capped = START_POOL + owed > s.settings.max_pool
    s.owed = 0
    s.risk_before_throw = 0
    s.throw = []
    s.vc_half = 0
    s.throw_bust_chance = 0.0
    s.phase = "start"
    name = player_name(s, s.current)
    words = dict(turn=s.turn, player=name, start=START_POOL, owed=owed, pool=s.pool)
    events.append(event(
        "turn", Msg("Turn {turn}: {player} starts with {start} + {owed} owed = {pool} dice, capped at {max}.",
                    max=s.settings.max_pool, **words) if capped
        else Msg("Turn {turn}: {player} starts with {start} + {owed} owed = {pool} dice.", **words),
        turn=s.turn, by=s.current, player=name, owed=owed, pool=s.pool, capped=capped, team=s.team, world=s.world))


def _game_over(s: State, events: list[Event], winner: str, why: Msg) -> None:
    s.phase = "over"
    events.append(event("game_end", why, winner=winner, team=s.team, world=s.world,
                        team_target=team_target(s), world_target=world_target(s), turn=s.turn))


def _power_event(s: State, action, text: Msg, **data) -> Event:
    """A role's power used: "Bea (Programmer): reroll the 2 Bug dice." (`text`, the whole sentence)."""
    return event("power", text, role=action.kind, by=action.by, player=player_name(s, action.by), **data)


def _ignored_bugs(throw_now: list[Die]) -> int:
    return sum(1 for d in throw_now if d.face == 1 and d.bugs_ignored)


def tally(throw_now: list[Die]) -> Msg:
    """A throw in words: "1 Bug, 2 Ideas, 3 Progress (1 Bug ignored)"."""
    ignored = _ignored_bugs(throw_now)
    counts = dict(bugs=NMsg("{n} Bug", "{n} Bugs", count_bugs(throw_now)),
                  ideas=NMsg("{n} Idea", "{n} Ideas", count_ideas(throw_now)),
                  progress=NMsg("{n} Progress", "{n} Progress", count_progress(throw_now)))
    if ignored:
        return Msg("{bugs}, {ideas}, {progress} ({ignored} ignored)", ignored=NMsg("{n} Bug", "{n} Bugs", ignored),
                   **counts)
    return Msg("{bugs}, {ideas}, {progress}", **counts)


def _symbols(faces: list[int]) -> Any:
    """The symbols of some d6 faces in words: "Bug, Idea"."""
    return _listed([SYMBOL_WORDS[d6_symbol(f)] for f in faces])


GAME = Game(
    key="save_the_singularity",
    title="Save the Singularity",
    summary=Msg("Cooperative push-your-luck dice: build a friendly AI before the world builds a bad one."),
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
    refusal=why_not,
)
