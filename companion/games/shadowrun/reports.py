"""What the shared screens read from Shadowrun: Singularis: its own numbers for Luck (each with the exact
odds its rolls had), the moments a recap tells, and who sat at the table and how it ended."""

from __future__ import annotations

from typing import Sequence

from companion.games.shadowrun.rules import face_chance, survival_losing_faces
from companion.i18n import _, ngettext
from companion.luck import Dist, Meaning, Step, Trial
from companion.recap import names_in_words, times_words
from companion.standings import SOLO, Seat, Standings


def luck(settings: dict, steps: Sequence[Step]) -> tuple[list[Meaning], str]:
    due = Meaning(_("Payment-due rolls that came up due"),
                  lambda n: ngettext("{n} payment roll", "{n} payment rolls", n), _("No payment rolls yet."), "low")
    lost = Meaning(_("Survival rolls lost"), lambda n: ngettext("{n} survival roll", "{n} survival rolls", n),
                   _("No survival rolls yet."), "low")
    for st in steps:
        for e in st.events:
            data = e.data
            if e.kind == "payment_roll" and data.get("face") is not None:
                due.trials.append(Trial(st.seq, "", int(bool(data["due"])), Dist.bernoulli(face_chance(data["due_on"]))))
            elif e.kind == "survival" and data.get("face") is not None:
                losing = face_chance(survival_losing_faces(data["reputation"]))
                lost.trials.append(Trial(st.seq, "", int(bool(data["lost"])), Dist.bernoulli(losing)))
    return [due, lost], _("Errands, events, pumped costs and hits are in the dice above; what they were worth "
                          "depends on choices and cards the app doesn't see, so they get no verdict of their own.")


def moments(events, settings) -> list[str]:
    out = []
    taken = [e for _seq, e in events if e.kind == "objective_taken"]
    if taken:
        out.append(_("Objectives taken: {objectives}.", objectives=", ".join(
            _("{name} (+{rep})", name=e.data["name"], rep=e.data["rep"]) for e in taken)))
    died = [e.data["name"] for _seq, e in events if e.kind == "died"]
    if died:
        out.append(_("Lost on the streets: {names}.", names=names_in_words(died)))
    rolls = [e for _seq, e in events if e.kind == "payment_roll"]
    if rolls:
        due = sum(bool(e.data.get("due")) for e in rolls)
        out.append(_("The loan shark called in the interest {times} in {rolls}.", times=times_words(due),
                     rolls=ngettext("{n} payment roll", "{n} payment rolls", len(rolls))))
    refused = [e for _seq, e in events if e.kind == "payment_refused"]
    if refused:
        out.append(_("Payments refused: {count}, costing {owed} reputation.", count=len(refused),
                     owed=sum(e.data.get("owed", 0) for e in refused)))
    for _seq, e in events:
        if e.kind == "paid_off" and e.data.get("debt") == 0:
            out.append(_("The whole debt was paid off."))
            break
    survived = sum(1 for _seq, e in events if e.kind == "survival" and e.data.get("face") is not None
                   and not e.data.get("lost"))
    if survived:
        out.append(ngettext("Survived {n} survival roll with reputation below zero.",
                            "Survived {n} survival rolls with reputation below zero.", survived))
    return out


def standings(game, s) -> Standings:
    over = s.result is not None
    target = s.settings.target_reputation
    if not over:
        result = _("Still going: {headline}, reputation {reputation} of {target}.", headline=game.headline(s),
                   reputation=s.reputation, target=target)
    elif s.result == "Won":
        result = _("Won on turn {turn}: reputation {reputation} of {target}, the loan and its interest paid off.",
                   turn=s.turn, reputation=s.reputation, target=target)
    else:
        result = _("Lost on turn {turn}: reputation {reputation}, the loan shark's enforcer ended the career.",
                   turn=s.turn, reputation=s.reputation)
    return Standings([Seat(_(SOLO), score=s.reputation, winner=s.result == "Won", start=True)], over, result,
                     points=True, opponent=_("the loan shark"), named=False)
