"""The Singularity War: Human Ethos, spoken (#33): the enemy phase's moves and attacks, each threat or
awareness change with where the markers stand, a tie the players decide, the next turn, a loss."""

from __future__ import annotations

from typing import Any, Optional

from companion.games.base import Event
from companion.i18n import Msg, NMsg, Text, data_word, joined


def _group(state: Any, g: Any) -> Text:
    """'3 Nanobots', as the enemy card names them."""
    if not isinstance(g, dict):
        return ""
    for t in getattr(state, "enemy_types", None) or []:
        if t.name == g.get("enemy"):
            return t.count_name(g.get("count", 1))
    return f"{g.get('count', 1)} {g.get('enemy', '')}"


def _count(d: dict) -> int:
    g = d.get("group")
    return g.get("count", 1) if isinstance(g, dict) else 1


def _one(e: Event, state: Any) -> Optional[Text]:
    d = e.data
    if e.kind == "enemy_phase":
        return Msg("Enemy phase.") if d.get("order") else Msg("Enemy phase: no enemies on the board.")
    if e.kind == "enemy_move":
        parts = d.get("parts") or []
        group = _group(state, d.get("group"))
        if len(parts) > 1:
            # Made apart from the sentence: a message inside another's arguments isn't extracted for translation.
            each = [Msg("{count} to {space}", count=p["count"], space=p["to"]) for p in parts]
            return Msg("{enemies} from {space} split: {parts}.", enemies=group, space=d.get("frm", ""), parts=joined(each))
        if parts:
            return NMsg("{enemies} moves from {frm} to {to}.", "{enemies} move from {frm} to {to}.", _count(d),
                        enemies=group, frm=d.get("frm", ""), to=parts[0]["to"])
        return None
    if e.kind == "enemy_stays":
        return NMsg("{enemies} on {space} stays put.", "{enemies} on {space} stay put.", _count(d),
                    enemies=_group(state, d.get("group")),
                   space=(d.get("group") or {}).get("at", ""))
    if e.kind == "track":
        track = Msg("Threat") if d.get("track") == "threat" else Msg("Awareness")
        amount = f"{d.get('applied', 0):+d}"
        change = Msg("{track} {amount}. Threat now {threat} of {length}, awareness {awareness}.", track=track,
                     amount=amount, threat=d.get("threat", 0), length=d.get("length", 0),
                     awareness=d.get("awareness", 0))
        if d.get("cause") == "in_range":
            return NMsg("{enemies} on {space} attacks {members}.", "{enemies} on {space} attack {members}.", _count(d),
                        enemies=_group(state, d.get("group")), space=(d.get("group") or {}).get("at", ""),
                        members=joined(data_word(m) for m in d.get("members") or [])) + " " + change
        if d.get("cause") == "hazard":
            return Msg("Hazard at {space}.", space=d.get("space", "")) + " " + change
        return change
    if e.kind == "tie":
        return Msg("A tie: the players choose where the enemies go.")
    if e.kind == "merge":
        return Msg("{enemy} on {space} merge into one group of {count}.", enemy=d.get("enemy", ""),
                   space=d.get("at", ""), count=d.get("count", 0))
    if e.kind == "turn":
        return Msg("{member}'s turn.", member=d.get("member", ""))
    if e.kind == "lost":
        return Msg("Threat and awareness meet: the issue is lost.")
    return None


def sentences(events: list[Event], state: Any = None) -> list[Text]:
    return [s for s in (_one(e, state) for e in events) if s is not None]
