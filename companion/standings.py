"""Who sat at the table and how the game ended, for each of the five games: what a recap, an end card
and a BG Stats play need to know, read from a game's settings and state (never from the screen).

A campaign of Human Ethos is a story of issues: its "game" is the issue being played or just ended.
The words are said in the current phone's language (standings are read when a screen is drawn).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Optional

from companion.games import get_game
from companion.i18n import N_, Msg, _, ngettext

SOLO = N_("You")  # the one player of a solitaire game whose settings hold no name


def said(words: Any) -> str:
    """Words from a game, in the current phone's language: a Msg rendered, a message id looked up,
    anything else (a name) as it is."""
    if isinstance(words, Msg):
        return words.render()
    return _(words) if isinstance(words, str) else str(words)


def _first_upper(text: str) -> str:
    return text[:1].upper() + text[1:]


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


def _going(game, state) -> str:
    return _("Still going: {headline}.", headline=game.headline(state))


def _generic(game, state) -> Standings:
    result = game.outcome(state)
    return Standings([], result is not None, said(result) if result is not None else _going(game, state), named=False)


def _sts(game, s) -> Standings:
    from companion.games.save_the_singularity.rules import ROLE_NAMES, team_target, world_target

    won = game.outcome(s) == "Won"
    over = s.phase == "over"
    turns = ngettext("{n} turn", "{n} turns", s.turn)
    points = dict(team=s.team, team_target=team_target(s), world=s.world, world_target=world_target(s))
    if not over:
        result = _("Still going, turn {turn}: the team has {team} of {team_target} points, the world {world} of "
                   "{world_target}.", turn=s.turn, **points)
    elif won:
        result = _("The team won: {team} of {team_target} points, the world held to {world} of {world_target}, in "
                   "{turns}.", turns=turns, **points)
    else:
        result = _("The world won with {world} Bad of {world_target}; the team had {team} of {team_target} points, in "
                   "{turns}.", turns=turns, **points)
    seats = [Seat(p.name, said(ROLE_NAMES[p.role]), s.team, over and won, i == 0) for i, p in enumerate(s.settings.players)]
    return Standings(seats, over, result, cooperative=True, points=True, opponent=_("the world"))


def _klaw(game, s) -> Standings:
    from companion.games.klaw import rules

    over = s.winner is not None
    seats = [Seat(p.name, winner=over and i == s.winner, start=i == 0) for i, p in enumerate(s.players)]
    if over:
        reason = getattr(rules, "win_reason_words", lambda r: r)(s.win_reason)  # the reason in words, where the game has them
        result = _("{name} won ({reason}) in round {round}.", name=s.players[s.winner].name, reason=said(reason),
                   round=rules.round_no(s))
    else:
        result = _going(game, s)
    return Standings(seats, over, result)


def _biosphere5(game, s) -> Standings:
    over = s.result is not None
    reason = said(s.reason) if s.reason else ""
    if s.solo is not None:
        name = s.settings.names[0] if s.settings.names else _(SOLO)
        won = s.result == "Won"
        if not over:
            result = _going(game, s)
        elif won:
            result = (_("{name} won against the Machine in round {round}: {reason}", name=name, round=s.solo.round,
                        reason=reason) if reason else
                      _("{name} won against the Machine in round {round}.", name=name, round=s.solo.round))
        else:
            result = (_("{name} lost against the Machine in round {round}: {reason}", name=name, round=s.solo.round,
                        reason=reason) if reason else
                      _("{name} lost against the Machine in round {round}.", name=name, round=s.solo.round))
        return Standings([Seat(name, winner=over and won)], over, result, opponent=_("the Machine"),
                         named=bool(s.settings.names))
    players = s.abyss.players
    # The result names the winner ("Ada wins", "Ada is the last one in") or nobody ("No winner").
    seats = [Seat(p.name, winner=over and (s.result or "").startswith(p.name), start=i == 0) for i, p in enumerate(players)]
    if over:
        ended = said(game.outcome(s) or s.result)
        result = _("{result}: {reason}", result=ended, reason=reason) if reason else _("{result}.", result=ended)
    else:
        result = _going(game, s)
    return Standings(seats, over, result, named=bool(s.settings.names))


def _shadowrun(game, s) -> Standings:
    over = s.result is not None
    target = s.settings.target_reputation
    if not over:
        result = _("Still going: {headline}, reputation {reputation} of {target}.", headline=game.headline(s),
                   reputation=s.reputation, target=target)
    elif s.result == "Won":
        result = _("Won on turn {turn}: reputation {reputation} of {target}, the loan and its interest paid off.",
                   turn=s.turn, reputation=s.reputation, target=target)
    else:
        result = _("Lost on turn {turn}: reputation {reputation}, the loan shark's enforcer ended the career.",
                   turn=s.turn, reputation=s.reputation)
    return Standings([Seat(_(SOLO), score=s.reputation, winner=s.result == "Won", start=True)], over, result,
                     points=True, opponent=_("the loan shark"), named=False)


def _human_ethos(game, s) -> Standings:
    issue = s.issue
    if issue is None:
        return Standings([], False, _("Between issues: {headline}.", headline=game.headline(s)), cooperative=True,
                         named=False)
    won = issue.phase == "won"
    seats = [Seat(m.name, winner=issue.over and won, start=i == 0) for i, m in enumerate(issue.members)]
    called = said(getattr(issue, "named", issue.called))  # "issue #3", in words where the game has them
    track = dict(threat=issue.threat, awareness=issue.awareness, length=issue.track)
    if not issue.over:
        result = _("Still going: {issue}, turn {turn}, threat {threat} and awareness {awareness} of {length}.",
                   issue=called, turn=issue.turn, **track)
    elif won:
        result = _first_upper(_("{issue} won on turn {turn}, threat {threat} and awareness {awareness} of {length}.",
                                issue=called, turn=issue.turn, **track))
    else:
        result = _first_upper(_("{issue} lost on turn {turn}, threat {threat} and awareness {awareness} of {length}.",
                                issue=called, turn=issue.turn, **track))
    return Standings(seats, issue.over, result, cooperative=True, opponent=_("the enemies"), named=False)


_READERS = {"save_the_singularity": _sts, "klaw": _klaw, "biosphere5": _biosphere5, "shadowrun": _shadowrun,
            "human_ethos": _human_ethos}
