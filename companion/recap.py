"""The night's recap in words: who played, when and for how long, how it stands or ended, and the
moments that mattered — read from the typed events of a session or of the whole campaign.

Pure: it takes the log's lines (seq, events, dice, created_at: `companion.log.HistoryLine`) and the
standings of the game now, and returns paragraphs. Each game has a reader of its own events for
its moments (`_MOMENTS`); a reader picks a handful, never the log.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime
from typing import Callable, Optional, Sequence

from companion.games.base import Event
from companion.i18n import _, fmt_date, fmt_datetime, fmt_percent, ngettext, pgettext, render
from companion.sessions import Session, duration
from companion.standings import Standings, said

MOST_MOMENTS = 5
MOST_NOTES = 3


@dataclass(frozen=True)
class Recap:
    title: str
    paragraphs: list[str]

    @property
    def text(self) -> str:
        """The recap as plain text to copy or save."""
        return "\n\n".join([self.title, *self.paragraphs]) + "\n"


def names_in_words(names: Sequence[str]) -> str:
    """'Ada', 'Ada and Bea', 'Ada, Bea and Cy'."""
    names = list(names)
    if len(names) <= 1:
        return "".join(names)
    return _("{names} and {last}", names=", ".join(names[:-1]), last=names[-1])


def _dice(n: int) -> str:
    return ngettext("{n} die", "{n} dice", n)


def _times(n: int) -> str:
    return ngettext("{n} time", "{n} times", n)


def _day(moment: datetime) -> str:
    """'Thursday 12 March 2026', in the table's (the server's) time zone."""
    # Translators: a CLDR date pattern for a day in a recap's title: "Thursday 12 March 2026" (German: "EEEE, d. MMMM y").
    return fmt_date(moment.astimezone(), pgettext("date pattern", "EEEE d MMMM y"))


def _days(first: datetime, last: datetime) -> str:
    """'on Thursday 12 March 2026', 'from 12 to 19 March 2026', 'from 28 February to 7 March 2026'."""
    a, b = first.astimezone(), last.astimezone()
    if a.date() == b.date():
        return _("on {day}", day=_day(a))
    # Translators: CLDR date patterns for a span of days: "12 March 2026" (German: "d. MMMM y").
    whole = pgettext("date pattern", "d MMMM y")
    if (a.year, a.month) == (b.year, b.month):
        # Translators: a CLDR date pattern for the first day of a span within a month: "12" (German: "d.").
        start = fmt_date(a, pgettext("date pattern", "d"))
    elif a.year == b.year:
        # Translators: a CLDR date pattern for the first day of a span within a year: "28 February" (German: "d. MMMM").
        start = fmt_date(a, pgettext("date pattern", "d MMMM"))
    else:
        start = fmt_date(a, whole)
    return _("from {first} to {last}", first=start, last=fmt_date(b, whole))


def _clock(moment: datetime) -> str:
    return fmt_datetime(moment.astimezone(), "HH:mm")


def recap(*, game_key: str, title: str, name: str, lines: Sequence, sessions: Sequence[Session],
          standings: Standings, scope: Optional[Session] = None, settings: Optional[dict] = None) -> Recap:
    """The recap of `scope` (one of `sessions`), or of the whole campaign when None, in the current
    phone's language.

    `lines` are the actions in effect, oldest first; `standings` describe the game as it is now."""
    shown = list(scope.lines) if scope is not None else list(lines)
    if not shown:
        return Recap(_("“{name}”: {title}", name=name, title=title),
                     [_("Nothing has been played yet: the recap starts with the first action.")])
    events = [(line.seq, Event.coerce(e)) for line in shown for e in line.events]
    played = names_in_words(standings.names or _names_from_events(events)) or _("The table")
    game = _("{title} against {opponent}", title=title, opponent=standings.opponent) if standings.opponent else title
    dice = sum(len(line.dice) for line in shown)
    physical = sum(1 for line in shown for x in line.dice if x[2])
    actions = ngettext("{n} action", "{n} actions", len(shown))
    counts = (_("{actions}, {dice} ({physical} of them physical).", actions=actions, dice=_dice(dice), physical=physical)
              if physical else _("{actions}, {dice}.", actions=actions, dice=_dice(dice)))
    if scope is not None:
        when = dict(start=_clock(scope.start), end=_clock(scope.end), duration=duration(scope.minutes), players=played,
                    game=game, counts=counts)
        opening = (_("From {start} to {end} ({duration}), {players} played {game} (session {number} of {count}): "
                     "{counts}", number=scope.number, count=len(sessions), **when) if len(sessions) > 1 else
                   _("From {start} to {end} ({duration}), {players} played {game}: {counts}", **when))
        heading = _("“{name}”: {title}, {day}", name=name, title=title, day=_day(scope.start))
    else:
        total = dict(players=played, game=game, days=_days(sessions[0].start, sessions[-1].end),
                     duration=duration(sum(s.minutes for s in sessions)), counts=counts)
        opening = (_("{players} played {game} over {sessions} {days}, {duration} in all: {counts}",
                     sessions=ngettext("{n} session", "{n} sessions", len(sessions)), **total) if len(sessions) > 1 else
                   _("{players} played {game} {days}, {duration} in all: {counts}", **total))
        heading = _("“{name}”: {title}, the whole campaign", name=name, title=title)
    paragraphs = [opening, _where_it_ended(sessions, standings, scope)]
    moments = _MOMENTS.get(game_key, lambda ev, st: [])(events, settings or {})[:MOST_MOMENTS]
    if moments:
        paragraphs.append(" ".join(moments))
    notes = [e.data.get("note", "") for _seq, e in events if e.kind == "note" and e.data.get("note")]
    if notes:
        quoted = "; ".join(_("“{note}”", note=n) for n in notes[:MOST_NOTES])
        more = len(notes) - MOST_NOTES
        paragraphs.append(ngettext("The table noted: {notes} (and {n} more note).",
                                   "The table noted: {notes} (and {n} more notes).", more, notes=quoted)
                          if more > 0 else _("The table noted: {notes}.", notes=quoted))
    return Recap(heading, paragraphs)


def _names_from_events(events) -> list[str]:
    """Players named by the events, where the settings name none (Human Ethos' team members)."""
    for _seq, e in reversed(events):
        if e.kind == "issue_started" and e.data.get("members"):
            return list(e.data["members"])
    return []


def _where_it_ended(sessions: Sequence[Session], standings: Standings, scope: Optional[Session]) -> str:
    """The result, or where the game stood when the session ended (the headline the next session
    began with: each logged action keeps the turn and phase it was made in)."""
    if scope is None or scope.number == len(sessions):
        return standings.result
    following = sessions[scope.number].lines[0]
    return (_("The session ended at “{headline}”.", headline=following.context) if following.context
            else _("The session ended mid-game."))


def _more(shown: list[str], total: int) -> str:
    """'a; b; c.' or 'a; b; c; and 2 more.'"""
    listed = "; ".join(shown)
    return (_("{listed}; and {more} more.", listed=listed, more=total - len(shown)) if total > len(shown)
            else _("{listed}.", listed=listed))


def _first_upper(text: str) -> str:
    return text[:1].upper() + text[1:]


def _issue(called: str) -> str:
    """An issue as Human Ethos' events name it ('issue #3', 'arcade map Plaza'), in the phone's words."""
    story = re.fullmatch(r"issue\s#(\d+)", called or "")
    if story:
        return _("issue #{number}", number=story.group(1))
    arcade = re.fullmatch(r"arcade\smap\s(.+)", called or "")
    if arcade:
        return _("arcade map {map}", map=arcade.group(1))
    return said(called)


# --- The moments that mattered, game by game -------------------------------------------------------

Moments = Callable[[list[tuple[int, Event]], dict], list[str]]


def _sts(events, settings) -> list[str]:
    out = []
    pushes = [e for _seq, e in events if e.kind == "throw" and e.data.get("cause") in ("press_on", "venture_capitalist")
              and not e.data.get("busts") and e.data.get("bust_chance", 0) > 0]
    if pushes:
        e = max(pushes, key=lambda e: e.data["bust_chance"])
        out.append(_("The boldest push: {player} pressed on with {dice} at a {chance} chance of busting, and it paid "
                     "off ({at_risk} at risk).", player=e.data["player"], dice=_dice(len(e.data.get("thrown", []))),
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
        out.append(_("Powers played: {powers}", powers=_more(powers[:3], len(powers))))
    return out


def _klaw(events, settings) -> list[str]:
    names = list(settings.get("players") or [])
    out = []
    fights = [e for _seq, e in events if e.kind == "fight_won"]
    if fights:
        beat = [_("{winner} beat {loser}", winner=e.data["winner_name"], loser=e.data["loser_name"]) for e in fights[:3]]
        out.append(_("{fights}: {beaten}", fights=ngettext("{n} fight", "{n} fights", len(fights)),
                     beaten=_more(beat, len(fights))))
    blows = [e for _seq, e in events if e.kind == "exchange"]
    if blows:
        e = max(blows, key=lambda e: e.data.get("damage_to_target", 0))
        if e.data.get("damage_to_target", 0) >= 2:
            out.append(_("The hardest blow: {striker} hit {target} {times} in one exchange.",
                         striker=e.data["striker_name"], target=e.data["target_name"],
                         times=_times(e.data["damage_to_target"])))
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


_MACHINE_BEST = {"biosphere": 7, "attack": 6, "catastrophe": 5, "sabotage": 4, "espionage": 3, "achievement": 2,
                 "new_hope": 1}


def _biosphere5(events, settings) -> list[str]:
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
        out.append(_("Its hand dice saved the Machine {times} in {rolls}.", times=_times(saved),
                     rolls=ngettext("{n} rescue roll", "{n} rescue rolls", len(checks))))
    built = sum(1 for _seq, e in events if e.kind == "human_achievement")
    hits = sum(1 for _seq, e in events if e.kind in ("human_catastrophe", "human_attack"))
    if built or hits:
        out.append(_("You built {achievements} and struck the Machine {times}.",
                     achievements=ngettext("{n} achievement", "{n} achievements", built), times=_times(hits)))
    for _seq, e in events:
        if e.kind == "player_out":
            out.append(_("{name} reached doom 8 and was out.", name=e.data["name"]))
    return out


def _shadowrun(events, settings) -> list[str]:
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
        out.append(_("The loan shark called in the interest {times} in {rolls}.", times=_times(due),
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


def _human_ethos(events, settings) -> list[str]:
    out = []
    for _seq, e in events:
        if e.kind == "won":
            out.append(_first_upper(_("{issue} was won: the team reached End {end}.", issue=_issue(e.data["issue"]),
                                      end=e.data.get("end", ""))))
        elif e.kind == "lost":
            out.append(_first_upper(_("{issue} was lost: threat {threat} and awareness {awareness} met on a track of "
                                      "{length}.", issue=_issue(e.data["issue"]), threat=e.data["threat"],
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


_MOMENTS: dict[str, Moments] = {"save_the_singularity": _sts, "klaw": _klaw, "biosphere5": _biosphere5,
                                "shadowrun": _shadowrun, "human_ethos": _human_ethos}
