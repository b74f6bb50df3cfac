"""What the shared screens read from Biosphere 5: its own numbers for Luck (each with the exact
odds its rolls had), the moments a recap tells, and who sat at the table and how it ended."""

from __future__ import annotations

from typing import Sequence

from companion.games.biosphere5.rules import rescue_saved_chance
from companion.i18n import _, ngettext
from companion.luck import Dist, Meaning, Step, Trial
from companion.recap import times_words
from companion.standings import SOLO, Seat, Standings, said, still_going


def luck(settings: dict, steps: Sequence[Step]) -> tuple[list[Meaning], str]:
    if settings.get("opponent") == "people":
        return [], _("Against people Biosphere 5 rolls no dice (doom and the leaders are the cards'): only rolls "
                     "made on the dice tray are counted.")
    black = int(settings.get("hand_die_black_faces", 1))
    saves = Meaning(_("Rescue rolls that saved the Machine"), lambda n: ngettext("{n} rescue roll", "{n} rescue rolls", n),
                    _("No rescue rolls yet."), "low")
    machine = _("The Machine")
    for st in steps:
        for e in st.events:
            if e.kind == "rescue_check" and e.data.get("rolled"):
                n = len(e.data.get("faces", []))
                p = rescue_saved_chance(black, n)  # any black hand among n hand dice
                saves.trials.append(Trial(st.seq, machine, int(bool(e.data.get("saved"))), Dist.bernoulli(p)))
    return [saves], _("The rescue roll is the Machine's: a save is good luck for the Machine, so it counts as bad "
                      "luck for you. It is the game's only roll; the rest is the cards.")


_MACHINE_BEST = {"biosphere": 7, "attack": 6, "catastrophe": 5, "sabotage": 4, "espionage": 3, "achievement": 2,
                 "new_hope": 1}


def moments(events, settings) -> list[str]:
    out = []
    best, best_round, round_no = None, 0, 1
    for _seq, e in events:
        if e.kind == "round":
            round_no = e.data.get("round", round_no)
        elif e.kind == "machine_decision" and _MACHINE_BEST.get(e.data.get("play"), 0) > \
                (_MACHINE_BEST.get(best.data.get("play"), 0) if best else 0):
            best, best_round = e, round_no
    if best:
        out.append(_("The Machine's best move, in round {round}: {move}", round=best_round, move=best.text))
    checks = [e for _seq, e in events if e.kind == "rescue_check" and e.data.get("rolled")]
    if checks:
        saved = sum(bool(e.data.get("saved")) for e in checks)
        out.append(_("Its hand dice saved the Machine {times} in {rolls}.", times=times_words(saved),
                     rolls=ngettext("{n} rescue roll", "{n} rescue rolls", len(checks))))
    built = sum(1 for _seq, e in events if e.kind == "human_achievement")
    hits = sum(1 for _seq, e in events if e.kind in ("human_catastrophe", "human_attack"))
    if built or hits:
        out.append(_("You built {achievements} and struck the Machine {times}.",
                     achievements=ngettext("{n} achievement", "{n} achievements", built), times=times_words(hits)))
    for _seq, e in events:
        if e.kind == "player_out":
            out.append(_("{name} reached doom 8 and was out.", name=e.data["name"]))
    return out


def standings(game, s) -> Standings:
    over = s.result is not None
    reason = said(s.reason) if s.reason else ""
    if s.solo is not None:
        name = s.settings.names[0] if s.settings.names else _(SOLO)
        won = s.result == "Won"
        if not over:
            result = still_going(game, s)
        elif won:
            result = (_("{name} won against the Machine in round {round}: {reason}", name=name, round=s.solo.round,
                        reason=reason) if reason else
                      _("{name} won against the Machine in round {round}.", name=name, round=s.solo.round))
        else:
            result = (_("{name} lost against the Machine in round {round}: {reason}", name=name, round=s.solo.round,
                        reason=reason) if reason else
                      _("{name} lost against the Machine in round {round}.", name=name, round=s.solo.round))
        return Standings([Seat(name, winner=over and won)], over, result, opponent=_("the Machine"),
                         named=bool(s.settings.names))
    players = s.abyss.players
    # The result names the winner ("Ada wins", "Ada is the last one in") or nobody ("No winner").
    seats = [Seat(p.name, winner=over and (s.result or "").startswith(p.name), start=i == 0) for i, p in enumerate(players)]
    if over:
        ended = said(game.outcome(s) or s.result)
        result = _("{result}: {reason}", result=ended, reason=reason) if reason else _("{result}.", result=ended)
    else:
        result = still_going(game, s)
    return Standings(seats, over, result, named=bool(s.settings.names))
