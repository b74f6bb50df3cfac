"""Who sat at the table and how the game ended: what a recap, an end card
and a BG Stats play need to know, read from a game's settings and state (never from the screen).

A campaign of Human Ethos is a story of issues: its "game" is the issue being played or just ended.
The words are said in the current phone's language (standings are read when a screen is drawn).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Optional

from companion.games import get_game, reports_of
from companion.i18n import N_, Msg, _

SOLO = N_("You")  # the one player of a solitaire game whose settings hold no name


def said(words: Any) -> str:
    """Words from a game, in the current phone's language: a Msg rendered, a message id looked up,
    anything else (a name) as it is."""
    if isinstance(words, Msg):
        return words.render()
    return _(words) if isinstance(words, str) else str(words)


def first_upper(text: str) -> str:
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
    reader = getattr(reports_of(game_key), "standings", None)
    return (reader or _generic)(game, state)


def still_going(game, state) -> str:
    return _("Still going: {headline}.", headline=game.headline(state))


def _generic(game, state) -> Standings:
    result = game.outcome(state)
    return Standings([], result is not None, said(result) if result is not None else still_going(game, state), named=False)
