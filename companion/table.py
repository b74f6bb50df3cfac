"""What every campaign has besides its game: the dice tray and table notes.

A campaign's saved state is `CampaignState`: the game's own state plus the tray's recent rolls.
Table actions are pure like rules: (state, action, dice) → (state, events).
"""

from __future__ import annotations

from typing import Annotated, Any, Literal, Optional, Union

from pydantic import Field, model_validator

from companion.dice import MAX_DICE, MAX_SIDES
from companion.games.base import Dice, Model

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
            raise ValueError(f"a die with {self.sides} sides needs {self.sides} face names (got {len(self.faces)})")
        return self

    @property
    def label(self) -> str:
        die = self.name or f"d{self.sides}"
        return f"{self.count}×{die}" if self.name else f"{self.count}d{self.sides}"


class TableNote(Model):
    kind: Literal["note"] = "note"
    text: str = Field(min_length=1, max_length=500)


TableAction = Annotated[Union[TrayRoll, TableNote], Field(discriminator="kind")]
TABLE_KINDS = {"tray_roll", "note"}


class CampaignState(Model):
    game: dict[str, Any]
    tray: list[TrayResult] = []


def apply_table(tray: list[TrayResult], action: TableAction, dice: Dice) -> tuple[list[TrayResult], list[str]]:
    if isinstance(action, TableNote):
        return tray, [f"Note: {action.text}"]
    values = [dice.roll(action.sides) for _ in range(action.count)]
    shown = [action.faces[v - 1] if action.faces else str(v) for v in values]
    result = TrayResult(label=action.label, values=values, shown=shown)
    total = f" (total {sum(values)})" if action.faces is None and len(values) > 1 else ""
    return [result, *tray][:TRAY_KEEP], [f"Rolled {action.label}: {', '.join(shown)}{total}."]


def describe_table(action: TableAction) -> str:
    if isinstance(action, TableNote):
        return f"note “{action.text[:30]}”"
    return f"roll {action.label}"
