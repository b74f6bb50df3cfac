"""The contract every game's rules module follows, and the errors rules raise.

A rules module is pure: it takes a state, an action and a dice source and returns the next state
and a list of events (short sentences saying what happened and why). It imports no Flet, no
database, no clock and no global random; dice come only from the `Dice` passed in.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Optional, Protocol, Sequence

from pydantic import BaseModel, ConfigDict, TypeAdapter


class RuleError(ValueError):
    """The action is well formed but not allowed now (an illegal move). Says why."""


class InputError(ValueError):
    """A value is out of its range or malformed. The message names the allowed range."""


class Dice(Protocol):
    """Where rules get their dice. The log hands in a seeded, recorded source.

    `roll(6)` returns 1..6. A player may have typed physical results beforehand; the source then
    returns those first (and rejects a face outside 1..sides with an InputError).
    """

    def roll(self, sides: int) -> int: ...


class Model(BaseModel):
    """Base for states, settings and actions: strict about unknown fields, JSON round-trips."""

    model_config = ConfigDict(extra="forbid", validate_assignment=True)


Events = list[str]


@dataclass(frozen=True)
class Game:
    """What the app needs to know about one game. Each `companion/games/<key>/rules.py` makes one.

    - `Settings`: the campaign's settings (pydantic model with defaults and ranges, from RULES.md).
    - `State`: the whole game state, a pydantic model that serialises to JSON and back exactly.
    - `Action`: a pydantic discriminated union of the action classes (field `kind`).
    - `new_state(settings)`: the state at the start of a campaign.
    - `apply(state, action, dice)`: (new state, events). Must not mutate `state`. Raises RuleError
      or InputError, changing nothing, when the action is not allowed or out of range.
    - `describe(action)`: a few words for the undo button and history ("interest +5").
    - `headline(state)`: turn and phase for the title bar ("Turn 2 · Credstick").
    - `outcome(state)`: None while the game goes on, else a short result ("Won", "Lost").
    """

    key: str
    title: str
    summary: str
    Settings: type[BaseModel]
    State: type[BaseModel]
    Action: Any
    new_state: Callable[[Any], BaseModel]
    apply: Callable[[Any, Any, Dice], tuple[Any, Events]]
    describe: Callable[[Any], str]
    headline: Callable[[Any], str]
    outcome: Callable[[Any], Optional[str]]
    rolls_dice: bool = True  # False: the game has no dice, so the frame hides "I roll physical dice"

    @property
    def action_adapter(self) -> TypeAdapter:
        return _adapter(self.Action)

    def parse_action(self, data: Any) -> Any:
        return self.action_adapter.validate_python(data)

    def dump_action(self, action: Any) -> dict:
        return self.action_adapter.dump_python(action, mode="json")


_ADAPTERS: dict[int, TypeAdapter] = {}


def _adapter(tp: Any) -> TypeAdapter:
    key = id(tp)
    if key not in _ADAPTERS:
        _ADAPTERS[key] = TypeAdapter(tp)
    return _ADAPTERS[key]


def require_range(name: str, value: int, low: int, high: int) -> int:
    """Refuse an integer outside low..high with a message naming the allowed range."""
    if not low <= value <= high:
        raise InputError(f"{name} must be between {low} and {high} (got {value}).")
    return value


def ceil_div(numerator: int, denominator: int) -> int:
    """Integer ceiling of numerator / denominator (never a float ceil; see RULES.md)."""
    return -(-numerator // denominator)


def roll_many(dice: Dice, count: int, sides: int = 6) -> list[int]:
    return [dice.roll(sides) for _ in range(count)]


def fmt_dice(values: Sequence[int]) -> str:
    return ", ".join(str(v) for v in values)
