"""The night's recap in words: who played, when and for how long, how it stands or ended, and the
moments that mattered — read from the typed events of a session or of the whole campaign.

Pure: it takes the log's lines (seq, events, dice, created_at: `companion.log.HistoryLine`) and the
standings of the game now, and returns paragraphs. Each game reads its own events for its
moments (`moments` in its `reports.py`); a reader picks a handful, never the log.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Optional, Sequence

from companion.games import reports_of
from companion.games.base import Event
from companion.i18n import _, fmt_date, fmt_datetime, ngettext, pgettext
from companion.sessions import Session, duration
from companion.standings import Standings

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


def dice_words(n: int) -> str:
    return ngettext("{n} die", "{n} dice", n)


def times_words(n: int) -> str:
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
    counts = (_("{actions}, {dice} ({physical} of them physical).", actions=actions, dice=dice_words(dice), physical=physical)
              if physical else _("{actions}, {dice}.", actions=actions, dice=dice_words(dice)))
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
    reader = getattr(reports_of(game_key), "moments", None)
    moments = reader(events, settings or {})[:MOST_MOMENTS] if reader else []
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


def more_words(shown: list[str], total: int) -> str:
    """'a; b; c.' or 'a; b; c; and 2 more.'"""
    listed = "; ".join(shown)
    return (_("{listed}; and {more} more.", listed=listed, more=total - len(shown)) if total > len(shown)
            else _("{listed}.", listed=listed))
