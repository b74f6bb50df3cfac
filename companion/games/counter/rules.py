"""A tiny counter game used only by the tests: it proves the log, undo, replay and sync.

It speaks through `Msg` as every game's rules do: each sentence a player reads (an event, a refusal,
the undo label, the headline) is a message id and its values, said in each phone's language when
shown (companion/i18n.py); numbers that are the counter's own go in as they are.

One counter with a cap; "add" changes it by an amount; "roll" adds a d6 (so dice are exercised).
"""

from __future__ import annotations

from typing import Annotated, Literal, Optional, Union

from pydantic import Field

from companion.games.base import Dice, Event, Game, InputError, Model, Move, RuleError, event, field_specs, throw_one
from companion.i18n import N_, Msg


class Settings(Model):
    start: int = Field(0, ge=0, le=100, description=N_("Starting value"))
    cap: int = Field(100, ge=1, le=1000, description=N_("Highest value"))


class State(Model):
    value: int
    cap: int
    turn: int = 1


class Add(Model):
    kind: Literal["add"] = "add"
    amount: int = Field(ge=-1000, le=1000, description=N_("Amount"))


class Roll(Model):
    kind: Literal["roll"] = "roll"


Action = Annotated[Union[Add, Roll], Field(discriminator="kind")]


def new_state(settings: Settings) -> State:
    return State(value=settings.start, cap=settings.cap)


def moves(state: State) -> list[Move]:
    """What may be done now: roll, or add an amount that keeps the counter within 0..cap."""
    return [Move(kind="roll", label=Msg("Roll a d6"), action=Roll()),
            Move(kind="add", label=Msg("Add"), fields=field_specs(Add, amount=(-state.value, state.cap - state.value)))]


def apply(state: State, action: Action, dice: Dice) -> tuple[State, list[Event]]:
    if isinstance(action, Add):
        if not -1000 <= action.amount <= 1000:
            raise InputError(Msg("Amount must be between -1000 and 1000 (got {amount}).", amount=str(action.amount)))
        new = state.value + action.amount
        if not 0 <= new <= state.cap:
            raise RuleError(Msg("The counter must stay between 0 and {cap}; {value} {change} = {new}.", cap=str(state.cap),
                                value=str(state.value), change=f"{action.amount:+d}", new=str(new)))
        return state.model_copy(update={"value": new, "turn": state.turn + 1}), [
            event("counter", Msg("Counter {change} → {value}.", change=f"{action.amount:+d}", value=str(new)),
                  change=action.amount, value=new)
        ]
    face = throw_one(dice, Msg("the counter's roll"))
    new = min(state.cap, state.value + face)
    return state.model_copy(update={"value": new, "turn": state.turn + 1}), [
        event("counter", Msg("Rolled {face}: counter → {value} (capped).", face=str(face), value=str(new))
              if new < state.value + face else Msg("Rolled {face}: counter → {value}.", face=str(face), value=str(new)),
              change=new - state.value, value=new, face=face)
    ]


def describe(action: Action) -> Msg:
    return Msg("counter {change}", change=f"{action.amount:+d}") if isinstance(action, Add) else Msg("roll a d6")


def headline(state: State) -> Msg:
    return Msg("Turn {turn} · value {value}", turn=str(state.turn), value=str(state.value))


def outcome(state: State) -> Optional[Msg]:
    return Msg("Reached the cap") if state.value >= state.cap else None


GAME = Game(
    key="counter",
    title="Counter (test game)",
    summary=Msg("A counter for testing the log."),
    Settings=Settings,
    State=State,
    Action=Action,
    new_state=new_state,
    apply=apply,
    describe=describe,
    headline=headline,
    outcome=outcome,
    moves=moves,
)
