"""The games. Each lives in its own package (a folder): a pure `rules.py` exposing `GAME`, its `view.py`,
and a `reports.py` with what the shared Luck, Recap and standings read from its events and state.
Adding a game is its folder plus its key in `PLAYABLE`; no shared module names a game."""

from __future__ import annotations

import importlib
import os
from functools import lru_cache
from types import ModuleType
from typing import Optional

from companion.games.base import Game
from companion.i18n import Msg

# The five games at the table, in the order the home screen offers them.
PLAYABLE = ("save_the_singularity", "shadowrun", "klaw", "biosphere5", "human_ethos")
# Used only by tests (and shown in the app only when COMPANION_TEST_GAMES=1).
TEST_ONLY = ("counter",)


@lru_cache(maxsize=None)
def get_game(key: str) -> Game:
    if key not in PLAYABLE + TEST_ONLY:
        raise KeyError(Msg("Unknown game {key}; known games: {known}.", key=repr(key), known=", ".join(PLAYABLE)))
    return importlib.import_module(f"companion.games.{key}.rules").GAME


def available_games() -> list[Game]:
    keys = PLAYABLE + (TEST_ONLY if os.environ.get("COMPANION_TEST_GAMES") == "1" else ())
    return [get_game(k) for k in keys]


def is_known(key: str) -> bool:
    return key in PLAYABLE + TEST_ONLY


def reports_of(key: str) -> Optional[ModuleType]:
    """The game's `reports.py` (its luck, recap moments and standings), or None for a game without one."""
    return part_of(key, "reports")


@lru_cache(maxsize=None)
def part_of(key: str, part: str) -> Optional[ModuleType]:
    """A module of the game's folder that shared code reads (`reports`, `kept_cards` …), or None."""
    name = f"companion.games.{key}.{part}"
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as missing:
        if missing.name != name:
            raise
        return None
