"""KLAW: Were-Wars, spoken (#33): a singularity check's result, a fight's rolls and its end, a win."""

from __future__ import annotations

from typing import Any, Optional

from companion.games.base import Event
from companion.i18n import Msg, NMsg, Text


def _host(state: Any, host_id: Any, e: Event, param: str = "host") -> Any:
    """A host's name: from the state after the row, else as the event's own words name it (a host
    taken off the table is no longer in the state)."""
    for h in getattr(state, "hosts", None) or []:
        if h.id == host_id:
            return h.name
    return getattr(e.text, "params", {}).get(param, "")


def _one(e: Event, state: Any) -> Optional[Text]:
    d = e.data
    if e.kind == "singularity_check":
        host = _host(state, d.get("host"), e)
        if d.get("face") is None:
            return Msg("{host}: no singularity check needed.", host=host)
        if d.get("passed"):
            return Msg("{host}'s singularity check: {total}. Passed.", host=host, total=d["total"])
        return Msg("{host}'s singularity check: {total}, needed {totems}. Failed!", host=host, total=d["total"],
                   totems=d["totems"])
    if e.kind == "singularity_event":
        return Msg("Singularity event: every totem on the table goes back into the encounter deck.")
    if e.kind == "rolled":
        return Msg("{striker} rolls {attack} against {defense}.", striker=_host(state, d.get("striker"), e, "striker"),
                   attack=" ".join(str(x) for x in d.get("attack_rolled") or []),
                   defense=" ".join(str(x) for x in d.get("defense_rolled") or []))
    if e.kind == "exchange_result":
        return Msg("{target} now has {target_life} life, {striker} {striker_life}.",
                   target=_host(state, d.get("target"), e, "target"), target_life=d["target_life"],
                   striker=_host(state, d.get("striker"), e, "striker"), striker_life=d["striker_life"])
    if e.kind == "fight_won":
        return Msg("{winner} wins the fight.", winner=d.get("winner_name", ""))
    if e.kind == "both_fall":
        return Msg("Both hosts fall. No victor.")
    if e.kind == "win":
        players = getattr(state, "players", None) or []
        p = d.get("player")
        name = players[p].name if isinstance(p, int) and 0 <= p < len(players) else ""
        return Msg("{player} wins the game!", player=name)
    if e.kind == "totems_absorbed":
        n = len(d.get("totems") or []) if isinstance(d.get("totems"), list) else d.get("count")
        if isinstance(n, int):
            return NMsg("{host} absorbs {n} totem.", "{host} absorbs {n} totems.", n,
                        host=_host(state, d.get("host"), e))
    return None


def sentences(events: list[Event], state: Any = None) -> list[Text]:
    return [s for s in (_one(e, state) for e in events) if s is not None]
