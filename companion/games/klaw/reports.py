"""What the shared screens read from KLAW: Were-Wars: its own numbers for Luck (each with the exact
odds its rolls had), the moments a recap tells, and who sat at the table and how it ended."""

from __future__ import annotations

from fractions import Fraction
from typing import Sequence

from companion.games.base import threshold_chance
from companion.games.klaw import odds, rules
from companion.games.klaw.rules import defense_dice, find_host, item_bonuses, strike_dice
from companion.i18n import _, ngettext
from companion.luck import Dist, Meaning, Step, Trial
from companion.recap import more_words, times_words
from companion.standings import Seat, Standings, said, still_going

# Luck needs the game state before KLAW's combat rolls: the dice and item bonuses of each side.
LUCK_STATE_BEFORE = frozenset({"roll"})


def luck(settings: dict, steps: Sequence[Step]) -> tuple[list[Meaning], str]:

    names = list(settings.get("players") or [])
    hits = Meaning(_("Hits dealt in combat"), lambda n: ngettext("{n} exchange side", "{n} exchange sides", n),
                   _("No exchanges yet."), "high")
    checks = Meaning(_("Singularity checks passed"), lambda n: ngettext("{n} check", "{n} checks", n),
                     _("No checks yet."), "high")
    owners: dict[int, str] = {}
    waiting = None  # the exchange odds of the last roll, until its exchange is resolved
    with_items = 0
    for st in steps:
        if st.action.get("kind") == "roll" and st.before is not None and getattr(st.before, "combat", None):
            combat = st.before.combat
            striker = find_host(st.before, combat.striker)
            target = find_host(st.before, combat.defender if combat.striker == combat.attacker else combat.attacker)
            ab, db = item_bonuses(striker, "attack"), item_bonuses(target, "defense")
            with_items += bool(ab or db)
            waiting = odds.exchange_odds(strike_dice(st.before, striker), defense_dice(target), ab, db)
        for e in st.events:
            data = e.data
            if e.kind in ("deployed", "support_host") and isinstance(data.get("player"), int):
                owners[data["host"]] = names[data["player"]] if data["player"] < len(names) else ""
            elif e.kind == "exchange" and waiting is not None:
                for side, host, dealt in ((0, data["striker"], data["damage_to_target"]),
                                          (1, data["target"], data["damage_to_striker"])):
                    marginal: dict[int, Fraction] = {}
                    for outcome, p in waiting.items():
                        marginal[outcome[side]] = marginal.get(outcome[side], 0) + p
                    hits.trials.append(Trial(st.seq, owners.get(host, ""), dealt, Dist.of(marginal)))
                waiting = None
            elif e.kind == "singularity_check" and data.get("face") is not None:
                p = threshold_chance(data["totems"], bonus=data.get("bonus", 0))
                checks.trials.append(Trial(st.seq, owners.get(data["host"], ""), int(bool(data["passed"])),
                                           Dist.bernoulli(p)))
    note = _("Hits count both ways: the striker's hits and those the defender deals back.")
    if with_items:
        note = ngettext("{note} {n} exchange had item bonuses: expected as the app's odds assume (bonuses on the lowest "
                        "dice), so a better placement shows as luck.",
                        "{note} {n} exchanges had item bonuses: expected as the app's odds assume (bonuses on the lowest "
                        "dice), so a better placement shows as luck.", with_items, note=note)
    return [hits, checks], note


def moments(events, settings) -> list[str]:
    names = list(settings.get("players") or [])
    out = []
    fights = [e for _seq, e in events if e.kind == "fight_won"]
    if fights:
        beat = [_("{winner} beat {loser}", winner=e.data["winner_name"], loser=e.data["loser_name"]) for e in fights[:3]]
        out.append(_("{fights}: {beaten}", fights=ngettext("{n} fight", "{n} fights", len(fights)),
                     beaten=more_words(beat, len(fights))))
    blows = [e for _seq, e in events if e.kind == "exchange"]
    if blows:
        e = max(blows, key=lambda e: e.data.get("damage_to_target", 0))
        if e.data.get("damage_to_target", 0) >= 2:
            out.append(_("The hardest blow: {striker} hit {target} {times} in one exchange.",
                         striker=e.data["striker_name"], target=e.data["target_name"],
                         times=times_words(e.data["damage_to_target"])))
    for _seq, e in events:
        if e.kind == "host_removed" and e.data.get("cause") != "lost the fight":
            owner = names[e.data["player"]] if isinstance(e.data.get("player"), int) and e.data["player"] < len(names) else ""
            fall = dict(host=e.data["name"], cause=said(e.data["cause"]))
            out.append(_("A host's fall: {owner}'s {host} left the table ({cause}).", owner=owner, **fall) if owner
                       else _("A host's fall: {host} left the table ({cause}).", **fall))
            break
    for _seq, e in events:
        if e.kind == "singularity_event":
            removed = e.data.get("removed", [])
            totems = sum(len(r.get("totems", [])) for r in removed)
            out.append(_("A singularity event swept {totems} off {hosts}.",
                         totems=ngettext("{n} totem", "{n} totems", totems),
                         hosts=ngettext("{n} host", "{n} hosts", len(removed))))
            break
    failed = sum(1 for _seq, e in events if e.kind == "singularity_check" and e.data.get("face") is not None
                 and not e.data.get("passed"))
    passed = sum(1 for _seq, e in events if e.kind == "singularity_check" and e.data.get("face") is not None
                 and e.data.get("passed"))
    if passed or failed:
        out.append(_("Singularity checks: {passed} passed, {failed} failed.", passed=passed, failed=failed))
    return out


def standings(game, s) -> Standings:

    over = s.winner is not None
    seats = [Seat(p.name, winner=over and i == s.winner, start=i == 0) for i, p in enumerate(s.players)]
    if over:
        reason = getattr(rules, "win_reason_words", lambda r: r)(s.win_reason)  # the reason in words, where the game has them
        result = _("{name} won ({reason}) in round {round}.", name=s.players[s.winner].name, reason=said(reason),
                   round=rules.round_no(s))
    else:
        result = still_going(game, s)
    return Standings(seats, over, result)
