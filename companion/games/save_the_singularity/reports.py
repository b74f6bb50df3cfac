"""What the shared screens read from Save the Singularity: its own numbers for Luck (each with the exact
odds its rolls had), the moments a recap tells, and who sat at the table and how it ended."""

from __future__ import annotations

from fractions import Fraction
from typing import Sequence

from companion.games.base import Event
from companion.games.save_the_singularity.odds import bust_chance
from companion.games.save_the_singularity.rules import D12_CHART, ROLE_NAMES, team_target, world_target
from companion.i18n import _, fmt_percent, ngettext, render
from companion.luck import Dist, Meaning, Step, Trial
from companion.recap import dice_words, more_words
from companion.standings import Seat, Standings, said


def luck(settings: dict, steps: Sequence[Step]) -> tuple[list[Meaning], str]:

    busts = Meaning(_("Throws that busted (2 or more Bugs)"), lambda n: ngettext("{n} throw", "{n} throws", n),
                    _("No throws yet."), "low")
    bads = Meaning(_("Bad on the world's d12"), lambda n: ngettext("{n} d12 roll", "{n} d12 rolls", n),
                   _("No d12 rolls yet."), "low")
    bad = Dist.bernoulli(Fraction(sum("Bad" in faces for faces in D12_CHART.values()), len(D12_CHART)))
    world_player = ""
    for st in steps:
        for e in st.events:
            if e.kind == "throw" and "busts" in e.data:
                counting = len(e.data.get("thrown", [])) - e.data.get("ignoring", 0)  # dice whose Bugs count
                p = bust_chance(counting)
                if p:
                    busts.trials.append(Trial(st.seq, e.data.get("player", ""), int(bool(e.data["busts"])),
                                              Dist.bernoulli(p)))
            elif e.kind == "world_phase":
                world_player = e.data.get("player", "")
            elif e.kind == "world_roll":
                bads.trials.append(Trial(st.seq, world_player, int(bool(e.data.get("bad"))), bad))
    return [busts, bads], _("A throw counts as busting when it showed two or more Bugs that count, even if a "
                            "power then rerolled it; each has the exact bust chance of its dice.")


def moments(events, settings) -> list[str]:
    out = []
    pushes = [e for _seq, e in events if e.kind == "throw" and e.data.get("cause") in ("press_on", "venture_capitalist")
              and not e.data.get("busts") and e.data.get("bust_chance", 0) > 0]
    if pushes:
        e = max(pushes, key=lambda e: e.data["bust_chance"])
        out.append(_("The boldest push: {player} pressed on with {dice} at a {chance} chance of busting, and it paid "
                     "off ({at_risk} at risk).", player=e.data["player"], dice=dice_words(len(e.data.get("thrown", []))),
                     chance=fmt_percent(e.data["bust_chance"]), at_risk=e.data["at_risk"]))
    busts = [e for _seq, e in events if e.kind == "bust" and e.data.get("lost", 0) > 0]
    if busts:
        e = max(busts, key=lambda e: e.data["lost"])
        out.append(ngettext("The bust that hurt most: {player} lost {n} point at risk to {bugs} Bugs (that throw had a "
                            "{chance} chance of busting).",
                            "The bust that hurt most: {player} lost {n} points at risk to {bugs} Bugs (that throw had a "
                            "{chance} chance of busting).", e.data["lost"], player=e.data["player"], bugs=e.data["bugs"],
                            chance=fmt_percent(e.data.get("chance", 0))))
    banks = [e for _seq, e in events if e.kind == "bank" and e.data.get("points", 0) > 0]
    if banks:
        e = max(banks, key=lambda e: e.data["points"])
        out.append(ngettext("The biggest haul: {player} banked {n} point.", "The biggest haul: {player} banked {n} points.",
                            e.data["points"], player=e.data["player"]))
    worst, phase, player = None, None, ""
    for _seq, e in events + [(0, Event(kind="turn", text=""))]:  # a last "turn" closes the last phase
        if e.kind == "world_phase":
            phase, player = [0, 0], e.data.get("player", "")
        elif e.kind == "world_roll" and phase is not None:
            phase[0] += bool(e.data.get("bad"))
            phase[1] += 1
        elif e.kind in ("turn", "game_end") and phase is not None:
            if phase[0] >= 2 and (worst is None or phase[0] > worst[0]):
                worst = (phase[0], phase[1], player)
            phase = None
    if worst:
        out.append(ngettext("The world's worst phase came after {player}'s turn: {bad} Bad in {n} roll of the d12.",
                            "The world's worst phase came after {player}'s turn: {bad} Bad in {n} rolls of the d12.",
                            worst[1], player=worst[2], bad=worst[0]))
    powers = [render(e.text).rstrip(".") for _seq, e in events if e.kind == "power"]
    if powers:
        out.append(_("Powers played: {powers}", powers=more_words(powers[:3], len(powers))))
    return out


def standings(game, s) -> Standings:

    won = game.outcome(s) == "Won"
    over = s.phase == "over"
    turns = ngettext("{n} turn", "{n} turns", s.turn)
    points = dict(team=s.team, team_target=team_target(s), world=s.world, world_target=world_target(s))
    if not over:
        result = _("Still going, turn {turn}: the team has {team} of {team_target} points, the world {world} of "
                   "{world_target}.", turn=s.turn, **points)
    elif won:
        result = _("The team won: {team} of {team_target} points, the world held to {world} of {world_target}, in "
                   "{turns}.", turns=turns, **points)
    else:
        result = _("The world won with {world} Bad of {world_target}; the team had {team} of {team_target} points, in "
                   "{turns}.", turns=turns, **points)
    seats = [Seat(p.name, said(ROLE_NAMES[p.role]), s.team, over and won, i == 0) for i, p in enumerate(s.settings.players)]
    return Standings(seats, over, result, cooperative=True, points=True, opponent=_("the world"))
