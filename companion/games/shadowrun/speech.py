"""Shadowrun: Singularis, spoken (#33): the solitaire turn's rolls — payment due, Luck of the Draw, an
errand, an event — the interest charged, a runner lost, the end."""

from __future__ import annotations

from typing import Any, Optional

from companion.games.base import Event
from companion.i18n import Msg, Text


def _one(e: Event) -> Optional[Text]:
    d = e.data
    if e.kind == "payment_roll":
        return (Msg("Payment roll: {face}. A payment is due.", face=d.get("face", 0)) if d.get("due")
                else Msg("Payment roll: {face}. No payment due.", face=d.get("face", 0)))
    if e.kind == "interest" and d.get("charge"):
        return Msg("Interest: {charge} nuyen.", charge=d["charge"])
    if e.kind == "luck_of_the_draw":
        faces = d.get("faces") or [0, 0]
        return (Msg("Luck of the Draw: double {face}.", face=faces[0]) if d.get("doubles")
                else Msg("Luck of the Draw: {first} and {second}.", first=faces[0], second=faces[1]))
    if e.kind == "errand":
        return Msg("{card}'s errand: {face}, {earned} nuyen earned.", card=d.get("name", ""), face=d.get("face", 0),
                   earned=d.get("earned", 0))
    if e.kind == "event_drawn":
        return Msg("Event {number} of {of}.", number=d.get("number", 0), of=d.get("of", 0))
    if e.kind == "died":
        return Msg("{name} dies. Reputation {reputation}.", name=d.get("name", ""), reputation=d.get("reputation", 0))
    if e.kind == "victory":
        return Msg("Victory! Your runners retire.")
    return None


def sentences(events: list[Event], state: Any = None) -> list[Text]:
    return [s for s in (_one(e) for e in events) if s is not None]
