"""What the shared screens read from The Singularity War: Human Ethos: its own numbers for Luck (each with the exact
odds its rolls had), the moments a recap tells, and who sat at the table and how it ended."""

from __future__ import annotations

import re
from typing import Sequence

from companion.i18n import _, ngettext
from companion.luck import Meaning, Step
from companion.standings import Seat, Standings, first_upper, said

# A play, for BG Stats, is one issue of the story: its lines from the issue's start.
PLAY_STARTS = "issue_started"


def luck(settings: dict, steps: Sequence[Step]) -> tuple[list[Meaning], str]:
    return [], _("Human Ethos has no dice: the enemies follow fixed rules and the cards are drawn, so there is no "
                 "luck to measure. Only rolls made on the dice tray are counted.")


def issue_words(called: str) -> str:
    """An issue as Human Ethos' events name it ('issue #3', 'arcade map Plaza'), in the phone's words."""
    story = re.fullmatch(r"issue\s#(\d+)", called or "")
    if story:
        return _("issue #{number}", number=story.group(1))
    arcade = re.fullmatch(r"arcade\smap\s(.+)", called or "")
    if arcade:
        return _("arcade map {map}", map=arcade.group(1))
    return said(called)


def moments(events, settings) -> list[str]:
    out = []
    for _seq, e in events:
        if e.kind == "won":
            out.append(first_upper(_("{issue} was won: the team reached End {end}.", issue=issue_words(e.data["issue"]),
                                      end=e.data.get("end", ""))))
        elif e.kind == "lost":
            out.append(first_upper(_("{issue} was lost: threat {threat} and awareness {awareness} met on a track of "
                                      "{length}.", issue=issue_words(e.data["issue"]), threat=e.data["threat"],
                                      awareness=e.data["awareness"], length=e.data["length"])))
    turn, closest = 1, None
    for _seq, e in events:
        if e.kind in ("turn", "issue_started"):
            turn = e.data.get("turn", 1)
        elif e.kind == "track" and e.data.get("cause") == "in_range":
            margin = e.data["length"] - e.data["threat"] - e.data["awareness"]
            if margin > 0 and (closest is None or margin < closest[0]):
                closest = (margin, turn, e.data)
    if closest:
        margin, turn, data = closest
        out.append(ngettext("The enemy phase that nearly ended it: on turn {turn} the enemies' attacks brought threat to "
                            "{threat}, with awareness at {awareness}, {n} space from meeting on a track of {length}.",
                            "The enemy phase that nearly ended it: on turn {turn} the enemies' attacks brought threat to "
                            "{threat}, with awareness at {awareness}, {n} spaces from meeting on a track of {length}.",
                            margin, turn=turn, threat=data["threat"], awareness=data["awareness"], length=data["length"]))
    killed = sum(e.data.get("killed", 0) for _seq, e in events if e.kind == "attack")
    if killed:
        out.append(ngettext("The team took down {n} enemy.", "The team took down {n} enemies.", killed))
    caches = sum(1 for _seq, e in events if e.kind == "cache")
    if caches:
        out.append(ngettext("{n} supply cache opened.", "{n} supply caches opened.", caches))
    return out


def standings(game, s) -> Standings:
    issue = s.issue
    if issue is None:
        return Standings([], False, _("Between issues: {headline}.", headline=game.headline(s)), cooperative=True,
                         named=False)
    won = issue.phase == "won"
    seats = [Seat(m.name, winner=issue.over and won, start=i == 0) for i, m in enumerate(issue.members)]
    called = said(getattr(issue, "named", issue.called))  # "issue #3", in words where the game has them
    track = dict(threat=issue.threat, awareness=issue.awareness, length=issue.track)
    if not issue.over:
        result = _("Still going: {issue}, turn {turn}, threat {threat} and awareness {awareness} of {length}.",
                   issue=called, turn=issue.turn, **track)
    elif won:
        result = first_upper(_("{issue} won on turn {turn}, threat {threat} and awareness {awareness} of {length}.",
                                issue=called, turn=issue.turn, **track))
    else:
        result = first_upper(_("{issue} lost on turn {turn}, threat {threat} and awareness {awareness} of {length}.",
                                issue=called, turn=issue.turn, **track))
    return Standings(seats, issue.over, result, cooperative=True, opponent=_("the enemies"), named=False)
