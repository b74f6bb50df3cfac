"""Spoken turns (#33): short sentences made for listening, from a log row's typed events.

A phone whose player switched on "Read turns aloud" hears what the app did by itself — the Machine's
decision, the enemy phase, a check's result, a bust — and the dice it waits for, in that phone's
language, with the browser's own speech synthesis (assets/companion.js; offline, on a phone alone too).

Each game says its own events in its folder's `speech.py`: `sentences(events, state) -> list[Text]`
(`state`: the game state after the row, for names the events keep as ids; may be None). What every
game shares — the roll the table waits for, a dice-tray roll — is said here. Nothing here names a game.
"""

from __future__ import annotations

from types import ModuleType
from typing import Any, Iterable, Optional, Sequence

from companion.games import part_of
from companion.games.base import Chance, Event
from companion.i18n import Msg, NMsg, Text, data_word, joined, render

SPOKEN_ROWS = 3  # at most this many new rows are spoken at once (a phone back from sleep hears the latest)


def speech_of(key: str) -> Optional[ModuleType]:
    """The game's `speech.py`, or None for a game that says nothing of its own."""
    return part_of(key, "speech")


def waiting_for(chance: Chance) -> Msg:
    """The dice the app waits for: "Ann, roll 1 d6 for Wolfmother's singularity check: 3 or more passes."."""
    words = dict(count=chance.count, die=data_word(chance.die.label), reason=chance.why)
    first = chance.outcomes[0].label if chance.outcomes else None
    if chance.who and first is not None:
        return Msg("{who}, roll {count} {die} for {reason}: {outcome}.", who=data_word(chance.who), outcome=first,
                   **words)
    if chance.who:
        return Msg("{who}, roll {count} {die} for {reason}.", who=data_word(chance.who), **words)
    if first is not None:
        return Msg("Roll {count} {die} for {reason}: {outcome}.", outcome=first, **words)
    return Msg("Roll {count} {die} for {reason}.", **words)


def shared(e: Event) -> Optional[Text]:
    """What every game's rows may hold: the roll awaited, a roll of the dice tray."""
    if e.kind == "waiting" and e.data.get("chance"):
        return waiting_for(Chance.model_validate(e.data["chance"]))
    if e.kind == "tray_roll":
        shown = [str(x) for x in e.data.get("shown") or []]
        values = e.data.get("values") or []
        numbers = all(s.isdigit() for s in shown)
        if numbers and len(values) > 1:
            return Msg("Dice: {faces}. Total {total}.", faces=said_list(shown), total=sum(values))
        return NMsg("Die: {faces}.", "Dice: {faces}.", len(shown), faces=said_list(shown))
    return None


def said_list(items: Sequence[Any]) -> Text:
    """Items to listen to: "3, 5 and 6" (in the phone's language)."""
    items = list(items)
    if len(items) <= 1:
        return items[0] if items else ""
    return Msg("{items} and {last}", items=joined(items[:-1]), last=items[-1])


def sentences(game_key: str, events: Iterable[Any], state: Any = None) -> list[Text]:
    """A row's events as sentences to speak (in whichever language renders them)."""
    events = [Event.coerce(e) for e in events]
    module = speech_of(game_key)
    said: list[Text] = list(module.sentences(events, state)) if module is not None else []
    for e in events:
        common = shared(e)
        if common is not None:
            said.append(common)
    return said


def spoken(game_key: str, rows: Iterable[Sequence[Any]], state: Any = None, language: Any = None) -> list[str]:
    """The sentences of some log rows (each its events, oldest first), rendered for one phone."""
    rows = list(rows)[-SPOKEN_ROWS:]
    out: list[str] = []
    for i, events in enumerate(rows):
        last = i == len(rows) - 1  # the state given is the one after the newest row
        for text in sentences(game_key, events, state if last else None):
            words = render(text, language).strip()
            if words:
                out.append(words)
    return out
