"""What the shared screens read from the counter (the test game, kept as small as a game can be and
still have every part a game registers): its sixes for Luck, its biggest roll for a recap, and how it
stands."""

from __future__ import annotations

from fractions import Fraction
from typing import Sequence

from companion.i18n import _, ngettext
from companion.luck import Dist, Meaning, Step, Trial
from companion.standings import Standings, said, still_going


def luck(settings: dict, steps: Sequence[Step]) -> tuple[list[Meaning], str]:
    sixes = Meaning(_("Rolls that came up 6"), lambda n: ngettext("{n} roll of the d6", "{n} rolls of the d6", n),
                    _("No rolls yet."), "high")
    for st in steps:
        for e in st.events:
            if e.kind == "counter" and e.data.get("face") is not None:
                sixes.trials.append(Trial(st.seq, "", int(e.data["face"] == 6), Dist.bernoulli(Fraction(1, 6))))
    return [sixes], ""


def moments(events, settings) -> list[str]:
    faces = [e.data["face"] for _seq, e in events if e.kind == "counter" and e.data.get("face") is not None]
    return [_("The biggest roll: {face}.", face=max(faces))] if faces else []


def standings(game, state) -> Standings:
    """Nobody named (a counter has no players): the result, or where it stands."""
    result = game.outcome(state)
    return Standings([], result is not None, said(result) if result is not None else still_going(game, state),
                     named=False)
