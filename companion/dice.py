"""Seeded, recorded dice.

The dice for action n of a campaign derive from (campaign seed, n): a redo or a replay rolls the
same, and undoing a roll then rolling again gives the same faces, so undo can't fish for a better
roll. A player may type a physical die's result instead; that value is used and recorded as such.
"""

from __future__ import annotations

import hashlib
import os
import random
import secrets
from dataclasses import dataclass, field
from typing import ClassVar, Iterable

from companion.games.base import Chance, DieSpec, InputError, NeedDice, d
from companion.i18n import Msg

MAX_SIDES = 100
MAX_DICE = 100


def new_seed() -> int:
    """A new campaign's seed. COMPANION_SEED fixes it, for demos and end-to-end tests."""
    fixed = os.environ.get("COMPANION_SEED")
    return int(fixed) if fixed else secrets.randbits(63)


def _stream(seed: int, n: int) -> random.Random:
    # A private generator per (seed, n); hashing keeps nearby seeds/ns unrelated.
    digest = hashlib.sha256(f"companion-dice:{seed}:{n}".encode()).digest()
    return random.Random(int.from_bytes(digest[:16], "big"))


@dataclass
class RolledDie:
    sides: int
    value: int
    physical: bool = False

    def to_json(self) -> list:
        return [self.sides, self.value, 1 if self.physical else 0]

    @classmethod
    def from_json(cls, data: list) -> RolledDie:
        return cls(int(data[0]), int(data[1]), bool(data[2]))


@dataclass
class SeededDice:
    """Dice for action `n` of a campaign with `seed`. `entered` are physical results, used first."""

    seed: int
    n: int
    entered: list[int] = field(default_factory=list)
    rolled: list[RolledDie] = field(default_factory=list)

    def __post_init__(self) -> None:
        self._rng = _stream(self.seed, self.n)
        self._entered = list(self.entered)

    def throw(self, chance: Chance) -> list[int]:
        return [self.roll(chance.die.sides) for _ in range(chance.count)]

    def roll(self, sides: int) -> int:
        if not 2 <= sides <= MAX_SIDES:
            raise InputError(Msg("A die has between 2 and {max} sides (got {sides}).", max=MAX_SIDES, sides=sides))
        # Always advance the stream, so a typed result doesn't shift the later seeded dice.
        seeded = self._rng.randint(1, sides)
        if self._entered:
            value = self._entered.pop(0)
            if not isinstance(value, int) or not 1 <= value <= sides:
                raise InputError(Msg("A {die} shows 1 to {sides} (you entered {value}).", die=f"d{sides}", sides=sides,
                                     value=str(value)))
            self.rolled.append(RolledDie(sides, value, True))
            return value
        self.rolled.append(RolledDie(sides, seeded, False))
        return seeded

    def unused_entries(self) -> list[int]:
        return list(self._entered)


@dataclass
class RecordedDice:
    """Replays exactly the dice recorded with a log entry; refuses a different request."""

    recorded: list[RolledDie]
    position: int = 0

    def throw(self, chance: Chance) -> list[int]:
        return [self.roll(chance.die.sides) for _ in range(chance.count)]

    def roll(self, sides: int) -> int:
        if self.position >= len(self.recorded):
            raise ReplayMismatch(Msg("the action asked for more dice than were recorded ({count}).",
                                     count=len(self.recorded)))
        die = self.recorded[self.position]
        if die.sides != sides:
            raise ReplayMismatch(Msg("die {number} was a {recorded}, the replay asked for a {asked}.",
                                     number=self.position + 1, recorded=f"d{die.sides}", asked=f"d{sides}"))
        self.position += 1
        return die.value

    @property
    def rolled(self) -> list[RolledDie]:
        return self.recorded[: self.position]

    def all_used(self) -> bool:
        return self.position == len(self.recorded)


class ReplayMismatch(Exception):
    """A replayed action did not use the recorded dice in the same way."""


@dataclass
class PhysicalDice:
    """The dice of a table that rolls its own: only what was entered, never one of the app's.

    Each chance node takes its dice from `entered`, in order; when they run out the rules stop
    with NeedDice(chance), and the store keeps the action waiting for the table to roll."""

    entered: list[int] = field(default_factory=list)
    rolled: list[RolledDie] = field(default_factory=list)
    asks_the_table: ClassVar[bool] = True  # see base.asks_the_table

    def throw(self, chance: Chance) -> list[int]:
        start = len(self.rolled)
        if len(self.entered) - start < chance.count:
            if len(self.entered) > start:  # some dice left, but not a whole throw
                raise InputError(Msg("{reason}: enter {count} {die} at once (got {got}).", reason=chance.why,
                                     count=chance.count, die=chance.die.label, got=len(self.entered) - start))
            raise NeedDice(chance)
        faces = chance.check_faces(self.entered[start:start + chance.count])
        self.rolled.extend(RolledDie(chance.die.sides, f, True) for f in faces)
        return faces

    def roll(self, sides: int) -> int:
        return self.throw(Chance(count=1, die=d(sides), why=Msg("a {die}", die=f"d{sides}")))[0]

    def unused_entries(self) -> list[int]:
        return self.entered[len(self.rolled):]


class ScriptedDice:
    """For tests: returns the given faces in order (checked against the die's sides)."""

    def __init__(self, faces: Iterable[int]):
        self.faces = list(faces)
        self.rolled: list[RolledDie] = []
        self.chances: list[Chance] = []  # every roll the rules declared, for tests

    def throw(self, chance: Chance) -> list[int]:
        self.chances.append(chance)
        return [self.roll(chance.die.sides) for _ in range(chance.count)]

    def roll(self, sides: int) -> int:
        if not self.faces:
            raise AssertionError("{} ran out of faces".format(type(self).__name__))  # a test's mistake: never shown
        value = self.faces.pop(0)
        if not 1 <= value <= sides:
            raise AssertionError("{}: face {} is not on a d{}".format(type(self).__name__, value, sides))  # never shown
        self.rolled.append(RolledDie(sides, value, False))
        return value


# --- The dice tray: NdX notation and custom dice with named faces ---------------------------------


def hand_die(black_faces: int = 1) -> DieSpec:
    """Biosphere 5's hand die for the tray: `black_faces` of its 6 faces show the black hand (the
    campaign's setting). The die itself is the game's (one definition, in its rules)."""
    from companion.games.biosphere5.rules import hand_die as biosphere_hand_die

    if not 0 <= black_faces <= 6:
        raise InputError(Msg("The hand die has 0 to 6 black-hand faces (got {got}).", got=black_faces))
    return biosphere_hand_die(black_faces)


def parse_notation(text: str) -> tuple[int, DieSpec]:
    """'2d6' → (2, d6); 'd12' → (1, d12). Refuses anything else with the allowed form and ranges."""
    cleaned = text.strip().lower().replace(" ", "")
    count_text, sep, sides_text = cleaned.partition("d")
    if not sep or not sides_text.isdigit() or (count_text and not count_text.isdigit()):
        raise InputError(Msg("Write dice as NdX, like 2d6 or d12 (got {got}).", got=repr(text[:20])))
    count = int(count_text) if count_text else 1
    sides = int(sides_text)
    if not 1 <= count <= MAX_DICE:
        raise InputError(Msg("Roll 1 to {max} dice at a time (got {count}).", max=MAX_DICE, count=count))
    if not 2 <= sides <= MAX_SIDES:
        raise InputError(Msg("A die has 2 to {max} sides (got {sides}).", max=MAX_SIDES, sides=sides))
    return count, DieSpec(sides=sides)
