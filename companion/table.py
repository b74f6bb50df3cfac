"""What every campaign has besides its game: the dice tray, table notes, whether the table rolls
physical dice, and a roll the table still has to make.

A campaign's saved state is `CampaignState`: the game's own state plus the tray's recent rolls,
the physical-dice mode (an action in the history, the same on every phone) and `pending`: an
action stopped at a chance node until the table enters its dice (see `companion.log.step`).
Table actions are pure like rules: (state, action, dice) → (state, events).
"""

from __future__ import annotations

from typing import Annotated, Any, Literal, Optional, Union

from pydantic import Field, model_serializer, model_validator

from companion.dice import MAX_DICE, MAX_SIDES
from companion.games.base import Chance, Dice, DieSpec, Event, Model, Words, event
from companion.i18n import Msg

TRAY_KEEP = 20


class TrayResult(Model):
    label: str  # "2d6" or "hand die"
    values: list[int]
    shown: list[str]  # face names, or the numbers as text


class TrayRoll(Model):
    """Roll NdX, or N custom dice with named faces, from the campaign's tray."""

    kind: Literal["tray_roll"] = "tray_roll"
    count: int = Field(1, ge=1, le=MAX_DICE)
    sides: int = Field(6, ge=2, le=MAX_SIDES)
    faces: Optional[list[Annotated[str, Field(max_length=30)]]] = None
    name: str = Field("", max_length=30)

    @model_validator(mode="after")
    def _faces_match(self):
        if self.faces is not None and len(self.faces) != self.sides:
            raise ValueError(Msg("a die with {sides} sides needs {sides} face names (got {count})", sides=self.sides,
                                 count=len(self.faces)))
        return self

    @property
    def label(self) -> str:
        die = self.name or f"d{self.sides}"
        return f"{self.count}×{die}" if self.name else f"{self.count}d{self.sides}"


class TableNote(Model):
    kind: Literal["note"] = "note"
    text: str = Field(min_length=1, max_length=500)


class SetPhysicalDice(Model):
    """The table rolls its own dice (on) or lets the app roll (off). Kept in the campaign's log."""

    kind: Literal["physical_dice"] = "physical_dice"
    on: bool


class GiveDice(Model):
    """The faces the table rolled for the roll the campaign is waiting for (its `pending`)."""

    kind: Literal["dice"] = "dice"
    faces: list[int] = Field(min_length=1, max_length=MAX_DICE)


class DismissReminder(Model):
    """The table has this reminder in hand: it isn't shown again in this campaign (see
    companion.games.table_help). An action in the log, not a phone's setting: every phone at the
    table stops showing it at once, undo brings it back, and an exported campaign keeps it."""

    kind: Literal["dismiss_reminder"] = "dismiss_reminder"
    reminder: str = Field(min_length=1, max_length=60)


TableAction = Annotated[Union[TrayRoll, TableNote, SetPhysicalDice, GiveDice, DismissReminder], Field(discriminator="kind")]
TABLE_KINDS = {"tray_roll", "note", "physical_dice", "dice", "dismiss_reminder"}


class Pending(Model):
    """An action stopped at a roll: it goes on, from its start, with `given` + the next dice."""

    action: dict[str, Any]
    label: Words  # the action in words ("attack Raven")
    given: list[int] = []  # the dice entered so far for this action, in the order asked
    chance: Chance  # what it waits for now


class CampaignState(Model):
    game: dict[str, Any]
    tray: list[TrayResult] = []
    physical_dice: bool = False
    pending: Optional[Pending] = None
    dismissed: list[str] = []  # reminders the table dismissed for this campaign (DismissReminder)

    @model_serializer(mode="wrap")
    def _without_empty_dismissed(self, handler):
        # States saved before reminders existed hold the same JSON as before.
        data = handler(self)
        if isinstance(data, dict) and not data.get("dismissed"):
            data.pop("dismissed", None)
        return data


def apply_table(tray: list[TrayResult], action: TableAction, dice: Dice) -> tuple[list[TrayResult], list[Event]]:
    """The tray and notes (the physical-dice actions are the store's: see `companion.log.step`)."""
    if isinstance(action, TableNote):
        return tray, [event("note", Msg("Note: {note}", note=action.text), note=action.text)]
    die = DieSpec(sides=action.sides, faces=tuple(action.faces) if action.faces else None, name=action.name)
    values = dice.throw(Chance(count=action.count, die=die, why=Msg("the dice tray ({dice})", dice=action.label)))
    shown = [die.face_name(v) for v in values]
    result = TrayResult(label=action.label, values=values, shown=shown)
    faces = ", ".join(shown)
    said = (Msg("Rolled {dice}: {faces} (total {total}).", dice=action.label, faces=faces, total=sum(values))
            if action.faces is None and len(values) > 1 else Msg("Rolled {dice}: {faces}.", dice=action.label, faces=faces))
    return [result, *tray][:TRAY_KEEP], [event("tray_roll", said, label=action.label, values=values, shown=shown)]


def describe_table(action: TableAction) -> Msg:
    if isinstance(action, TableNote):
        return Msg("note “{note}”", note=action.text[:30].strip())
    if isinstance(action, SetPhysicalDice):
        return Msg("physical dice on") if action.on else Msg("physical dice off")
    if isinstance(action, DismissReminder):
        return Msg("reminder dismissed")
    if isinstance(action, GiveDice):
        return Msg("dice {faces}", faces=" ".join(str(f) for f in action.faces))
    return Msg("roll {dice}", dice=action.label)


def roll_words(chance: Chance) -> Msg:
    """A roll the rules wait for, in words: "2 d6 for Ann's throw: 3 or more passes; fails"."""
    said: Words = ""
    for outcome in chance.outcomes[:2]:
        said = outcome.label if not said else said + "; " + outcome.label
    if said:
        return Msg("{count} {die} for {reason}: {outcomes}", count=chance.count, die=chance.die.label,
                   reason=chance.why, outcomes=said)
    return Msg("{count} {die} for {reason}", count=chance.count, die=chance.die.label, reason=chance.why)
