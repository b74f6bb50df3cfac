"""Save the Singularity on the table: its set-up and the once-per-game powers to call out.

The app rolls every die and keeps the score, so what is left to the table is the box's dice, the
role cards and the players themselves: each power is used by whoever holds it, on anybody's turn,
and a group forgets them. The reminders say, at the moment a power can act, who still holds it.
Citations are the rulebook's own words (seeds/002_…: a single page without numbered sections)."""

from __future__ import annotations

from copy import copy

from companion.games.save_the_singularity.rules import ROLE_WORDS, START_POOL, State
from companion.games.table_help import Reminder, SetupStep, rulebook
from companion.i18n import Msg

TEAM_PER_PLAYER = 25  # "You're trying to get to 25 points per player …"
WORLD_PER_PLAYER = 4  # "… before the rest of the world gets to 4 points per player."

CITE_NEED = rulebook("What you’ll need: 12d6, 1d12, a bunch of cards to represent the roles")
CITE_GOAL = rulebook("You’re trying to get to 25 points per player before the rest of the world gets to 4 points per player.")
CITE_TURN = rulebook("The game works like this: … They start by rolling 3d6.")
CITE_ROLE = rulebook("You also have a role! … a unique, once per game power, that they can use during anybody’s turn")

REMINDER_IDS = ("sts-mathematician", "sts-venture-capitalist", "sts-programmer", "sts-computer-scientist",
                "sts-rationalist", "sts-media-liaison")


def setting_up(state: State) -> bool:
    """Before the first throw of the game."""
    return state.turn == 1 and state.phase == "start" and state.current == 0 and not state.world_rolls


def setup_steps(state: State) -> list[SetupStep]:
    players = state.settings.players
    n = len(players)
    order = ", ".join(p.name for p in players)
    return [
        SetupStep("dice", Msg("Put out 12 six-sided dice and one twelve-sided die."), CITE_NEED),
        SetupStep("roles", Msg("Deal each player their role card: {roles}.", roles=_roles_said(state)), CITE_ROLE),
        SetupStep("targets", Msg("The team plays to {team} points (25 × {n}), the world to {world} (4 × {n}); "
                                 "the app keeps the score, no paper needed.",
                                 team=TEAM_PER_PLAYER * n, world=WORLD_PER_PLAYER * n, n=n), CITE_GOAL),
        SetupStep("first", Msg("{first} starts with {dice} dice; then in this order: {order}.",
                               first=players[0].name, dice=START_POOL, order=order), CITE_TURN),
    ]


def _roles_said(state: State) -> Msg:
    said: Msg | str = ""
    for p in state.settings.players:
        one = Msg("{name} the {role}", name=p.name, role=ROLE_WORDS[p.role])
        said = one if not said else Msg("{earlier}, {next}", earlier=said, next=one)
    return said  # type: ignore[return-value]


def _holders(state: State, role: str) -> list[str]:
    """The players whose power of `role` is still unused."""
    used = state.powers_used
    return [p.name for i, p in enumerate(state.settings.players)
            if p.role == role and not (i < len(used) and used[i])]


def _power(state: State, rid: str, role: str, text: Msg, cite: str) -> list[Reminder]:
    """The reminder `text` (a Msg written out where it is used, so `make messages` finds it) said
    with who holds the power, while someone does."""
    holders = _holders(state, role)
    if not holders:
        return []
    words = copy(text)  # the same message, with who holds the power and whose turn it is
    words.params = {**text.params, "holder": ", ".join(holders), "role": ROLE_WORDS[role],
                    "player": state.settings.players[state.current].name}
    return [Reminder(rid, words, cite)]


def reminders(state: State) -> list[Reminder]:
    if state.phase == "over":
        return []
    said: list[Reminder] = []
    throw = [d for d in state.throw if not d.bugs_ignored]
    bugs = sum(1 for d in throw if d.face == 1)
    ideas = sum(1 for d in state.throw if d.face in (2, 3))
    if state.phase == "start":
        said += _power(state, "sts-mathematician", "mathematician",
                       Msg("Before {player} throws: {holder} ({role}) may, once per game, have them start with only 1 die."),
                       rulebook("Mathematician: Once per game, a player may start with only 1 die."))
        said += _power(state, "sts-venture-capitalist", "venture_capitalist",
                       Msg("Before {player} throws: {holder} ({role}) may, once per game, call the double throw "
                       "(first ignoring Bugs)."),
                       rulebook("Venture Capitalist: Once per game, right before someone rolls X dice …"))
    if state.phase == "throw":
        if bugs >= 2:
            said += _power(state, "sts-rationalist", "rationalist",
                           Msg("Two Bugs: before the points are lost, {holder} ({role}) may reroll all dice, once per game."),
                           rulebook("Rationalist: Once per game, reroll all dice."))
        if bugs >= 1:
            said += _power(state, "sts-programmer", "programmer",
                           Msg("Bugs showing: {holder} ({role}) may reroll all Bugs, once per game."),
                           rulebook("Programmer: Once per game, reroll all Bugs."))
        if ideas >= 1:
            said += _power(state, "sts-computer-scientist", "computer_scientist",
                           Msg("Ideas showing: {holder} ({role}) may reroll them, ignoring new Bugs, once per game."),
                           rulebook("Computer Scientist: Once per game, reroll all +Dice (ignore new Bugs)."))
    if state.phase == "world":
        said += _power(state, "sts-media-liaison", "media_liaison",
                       Msg("The world's d12: {holder} ({role}) may make this roll count as Stop, once per game."),
                       rulebook("Media Liaison: Once per game, treat the d12 as though it has a “stop” on its face"))
    return said
