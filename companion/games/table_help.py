"""What the rulebooks ask of the table itself: the set-up checklist and reminders at the step.

Each game may have `companion/games/<key>/setup.py` beside its rules, pure like them (no Flet, no
database), with:

- `setup_steps(state) -> list[SetupStep]`: its physical set-up, computed for this campaign's
  players and options (cards and counts, who starts, what goes where), each step citing the
  rulebook section it comes from;
- `setting_up(state) -> bool`: whether the table is still setting up (before the game's first move):
  a phone that opens the campaign then shows the checklist open, else folded to its one-line entry.
  It decides only how a phone first shows it: a move never takes the checklist away (the screen
  would jump under the player's finger), only the phone that closes it;
- `reminders(state) -> list[Reminder]`: the rules the app can't do itself because they happen on
  the table (a card to draw, a deck to reshuffle, an effect to apply), those that apply at the step
  the state is at — never a list to read first.

The shared frame asks `setup_for` / `reminders_for` by game key; it holds no game's key itself.
A reminder's `id` is what a table's `DismissReminder` action names (see companion.table): the table
dismisses one for the rest of its campaign.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from functools import lru_cache
from types import ModuleType
from typing import Any, Iterable, Optional

from companion.i18n import Msg


def rulebook(section: str) -> str:
    """A rulebook section's name or line as printed, for a citation. The rulebooks exist in English
    only, so a citation quotes them as they are (a German player finds the same words in the book);
    the words around it ("Rulebook: …") are translated where shown."""
    return section


@dataclass(frozen=True)
class SetupStep:
    """One thing to do on the table before the first move: its words (a `Msg` with its counts)
    and where the rulebook says so (`cite`: the rulebook's own section name, as printed)."""

    key: str  # stable within a game (a phone's ticks are kept by it)
    text: Msg
    cite: str


@dataclass(frozen=True)
class Reminder:
    """A rule the table applies itself, shown at the step it applies to."""

    id: str  # stable across versions: a dismissal in a save names it
    text: Msg
    cite: str


@lru_cache(maxsize=None)
def help_module(game_key: str) -> Optional[ModuleType]:
    """The game's `setup.py`, or None for a game that has none (the test-only counter)."""
    try:
        return importlib.import_module(f"companion.games.{game_key}.setup")
    except ModuleNotFoundError as exc:
        if exc.name and exc.name.endswith(".setup"):
            return None
        raise


def setup_for(game_key: str, state: Any) -> list[SetupStep]:
    """The game's set-up checklist for this campaign ([] for a game that has none); offered at any
    time (a table may look it up again mid-game)."""
    module = help_module(game_key)
    return [] if module is None else list(module.setup_steps(state))


def setting_up(game_key: str, state: Any) -> bool:
    """Whether the table is still setting up: before the game's first move (False for a game with
    no checklist)."""
    module = help_module(game_key)
    return module is not None and bool(module.setting_up(state))


def reminders_for(game_key: str, state: Any, dismissed: Iterable[str] = ()) -> list[Reminder]:
    """The reminders that apply now, less those the table dismissed for this campaign."""
    module = help_module(game_key)
    if module is None:
        return []
    gone = set(dismissed)
    return [r for r in module.reminders(state) if r.id not in gone]


def reminder_ids(game_key: str) -> frozenset[str]:
    """Every reminder a game has (a DismissReminder must name one of them)."""
    module = help_module(game_key)
    return frozenset(getattr(module, "REMINDER_IDS", ())) if module else frozenset()
