"""Biosphere 5, spoken (#33): the Machine's decision and why, a catastrophe against it and its rescue
check, doom, the end of the game."""

from __future__ import annotations

from typing import Any, Optional

from companion.games.base import Event
from companion.i18n import Msg, Text


def _one(e: Event) -> Optional[Text]:
    d = e.data
    if e.kind == "machine_decision":
        return e.text  # the decision's own one-sentence instruction, made from its typed parts
    if e.kind == "machine_why":
        reason = getattr(e.text, "params", {}).get("reason")
        return Msg("Because: {reason}", reason=reason) if reason is not None else None
    if e.kind == "machine_hit":
        return (Msg("The Machine is protected: nothing to discard.") if not d.get("due")
                else Msg("The Machine is hit: {due} cards due.", due=d["due"]))
    if e.kind == "rescue_check" and d.get("rolled"):
        return (Msg("Rescue check: a black hand. The Machine loses only 1 level.") if d.get("saved")
                else Msg("Rescue check: no black hand."))
    if e.kind == "machine_pays":
        return Msg("The Machine's hand card level drops to {level}.", level=d.get("level_to", 0))
    if e.kind == "doom":
        return Msg("{name}: doom {doom}.", name=d.get("name", ""), doom=d.get("doom_to", 0))
    if e.kind == "game_over":
        return e.text
    return None


def sentences(events: list[Event], state: Any = None) -> list[Text]:
    return [s for s in (_one(e) for e in events) if s is not None]
