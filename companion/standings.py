"""Who sat at the table and how the game ended, for each of the five games: what a recap, an end card
and a BG Stats play need to know, read from a game's settings and state (never from the screen).

A campaign of Human Ethos is a story of issues: its "game" is the issue being played or just ended.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Optional

from companion.games import get_game

SOLO = "You"  # the one player of a solitaire game whose settings hold no name


@dataclass(frozen=True)
class Seat:
    name: str
    role: str = ""
    score: Optional[int] = None
    winner: bool = False
    start: bool = False  # took the first turn


@dataclass(frozen=True)
class Standings:
    seats: list[Seat]
    finished: bool
    result: str  # a sentence: "The team won: 75 of 75 points …", or where the game stands
    cooperative: bool = False  # the players win or lose together
    points: bool = False  # the game keeps a score per player (or per team)
    opponent: str = ""  # an opponent that isn't a player: "the world", "the Machine"
    named: bool = True  # the settings hold the players ("Play again with the same players")

    @property
    def names(self) -> list[str]:
        return [s.name for s in self.seats]


def standings(game_key: str, state: Any) -> Standings:
    """The seats and the result of a game `state` (the game's own State model)."""
    game = get_game(game_key)
    return _READERS.get(game_key, _generic)(game, state)


def _generic(game, state) -> Standings:
    result = game.outcome(state)
    return Standings([], result is not None, result or f"Still going: {game.headline(state)}.", named=False)


def _sts(game, s) -> Standings:
    from companion.games.save_the_singularity.rules import ROLE_NAMES, team_target, world_target

    won = game.outcome(s) == "Won"
    over = s.phase == "over"
    turns = f"{s.turn} turn{'s' if s.turn != 1 else ''}"
    if not over:
        result = f"Still going, turn {s.turn}: the team has {s.team} of {team_target(s)} points, the world {s.world} of {world_target(s)}."
    elif won:
        result = f"The team won: {s.team} of {team_target(s)} points, the world held to {s.world} of {world_target(s)}, in {turns}."
    else:
        result = f"The world won with {s.world} Bad of {world_target(s)}; the team had {s.team} of {team_target(s)} points, in {turns}."
    seats = [Seat(p.name, ROLE_NAMES[p.role], s.team, over and won, i == 0) for i, p in enumerate(s.settings.players)]
    return Standings(seats, over, result, cooperative=True, points=True, opponent="the world")


def _klaw(game, s) -> Standings:
    from companion.games.klaw.rules import round_no

    over = s.winner is not None
    seats = [Seat(p.name, winner=over and i == s.winner, start=i == 0) for i, p in enumerate(s.players)]
    result = (f"{s.players[s.winner].name} won ({s.win_reason}) in round {round_no(s)}." if over
              else f"Still going: {game.headline(s)}.")
    return Standings(seats, over, result)


def _biosphere5(game, s) -> Standings:
    over = s.result is not None
    reason = f" {s.reason}" if s.reason else ""
    if s.solo is not None:
        name = s.settings.names[0] if s.settings.names else SOLO
        won = s.result == "Won"
        result = (f"{name} {'won' if won else 'lost'} against the Machine in round {s.solo.round}:{reason}" if over
                  else f"Still going: {game.headline(s)}.")
        return Standings([Seat(name, winner=over and won)], over, result, opponent="the Machine",
                         named=bool(s.settings.names))
    players = s.abyss.players
    # The result names the winner ("Ada wins", "Ada is the last one in") or nobody ("No winner").
    seats = [Seat(p.name, winner=over and (s.result or "").startswith(p.name), start=i == 0) for i, p in enumerate(players)]
    result = f"{s.result}:{reason}" if over else f"Still going: {game.headline(s)}."
    return Standings(seats, over, result, named=bool(s.settings.names))


def _shadowrun(game, s) -> Standings:
    over = s.result is not None
    target = s.settings.target_reputation
    if not over:
        result = f"Still going: {game.headline(s)}, reputation {s.reputation} of {target}."
    elif s.result == "Won":
        result = f"Won on turn {s.turn}: reputation {s.reputation} of {target}, the loan and its interest paid off."
    else:
        result = f"Lost on turn {s.turn}: reputation {s.reputation}, the loan shark's enforcer ended the career."
    return Standings([Seat(SOLO, score=s.reputation, winner=s.result == "Won", start=True)], over, result,
                     points=True, opponent="the loan shark", named=False)


def _human_ethos(game, s) -> Standings:
    issue = s.issue
    if issue is None:
        return Standings([], False, f"Between issues: {game.headline(s)}.", cooperative=True, named=False)
    won = issue.phase == "won"
    seats = [Seat(m.name, winner=issue.over and won, start=i == 0) for i, m in enumerate(issue.members)]
    track = f"threat {issue.threat} and awareness {issue.awareness} of {issue.track}"
    result = (f"{issue.called.capitalize()} {'won' if won else 'lost'} on turn {issue.turn}, {track}." if issue.over
              else f"Still going: {issue.called}, turn {issue.turn}, {track}.")
    return Standings(seats, issue.over, result, cooperative=True, opponent="the enemies", named=False)


_READERS = {"save_the_singularity": _sts, "klaw": _klaw, "biosphere5": _biosphere5, "shadowrun": _shadowrun,
            "human_ethos": _human_ethos}
