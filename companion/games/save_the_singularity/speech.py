"""Save the Singularity, spoken (#33): a throw, a bust or a Stop, the world's d12, the next turn, the end."""

from __future__ import annotations

from typing import Any, Optional

from companion.games.base import Event
from companion.i18n import Msg, NMsg, Text


def _one(e: Event) -> Optional[Text]:
    d = e.data
    if e.kind == "throw":
        said = Msg("{player} throws: {bugs}, {ideas}, {progress}.", player=d.get("player", ""),
                   bugs=NMsg("{n} Bug", "{n} Bugs", d.get("bugs", 0)), ideas=NMsg("{n} Idea", "{n} Ideas", d.get("ideas", 0)),
                   progress=NMsg("{n} Progress", "{n} Progress", d.get("progress", 0)))
        if d.get("busts"):
            return said
        return said + " " + NMsg("{n} point at risk.", "{n} points at risk.", d.get("at_risk", 0))
    if e.kind == "bust_pending":
        return Msg("{bugs} Bugs: a bust, unless someone rerolls.", bugs=d.get("bugs", 2))
    if e.kind == "bust":
        return NMsg("Bust! {player} loses {n} point.", "Bust! {player} loses {n} points.", d.get("lost", 0),
                    player=d.get("player", ""))
    if e.kind == "bank":
        return NMsg("{player} stops and banks {n} point. Team {team} of {target}.",
                    "{player} stops and banks {n} points. Team {team} of {target}.", d.get("points", 0),
                    player=d.get("player", ""), team=d.get("team", 0), target=d.get("target", 0))
    if e.kind == "world_phase":
        return Msg("The world's turn: roll the d12 until a Stop.")
    if e.kind == "world_roll":
        parts = []
        if d.get("bad"):
            parts.append(Msg("The world gains a point: {world} of {target}.", world=d.get("world", 0),
                             target=d.get("target", 0)))
        if d.get("plus_dice"):
            parts.append(Msg("The next player gets one more die."))
        parts.append(Msg("Stop.") if d.get("stop") else Msg("No Stop: roll again."))
        said: Any = Msg("The d12 shows {face}.", face=d.get("face", 0))
        for p in parts:
            said = said + " " + p
        return said
    if e.kind == "turn":
        return NMsg("{player}'s turn, with {n} die.", "{player}'s turn, with {n} dice.", d.get("pool", 0),
                    player=d.get("player", ""))
    if e.kind == "game_end":
        return Msg("The team wins!") if d.get("winner") == "team" else Msg("The world wins.")
    return None


def sentences(events: list[Event], state: Any = None) -> list[Text]:
    return [s for s in (_one(e) for e in events) if s is not None]
