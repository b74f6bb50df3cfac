"""The nights a campaign was played: its logged actions split where the table stopped for a while.

A session is a run of actions with no gap longer than `GAP` between two of them (the log keeps when
each action was made). How long it lasted is its first action to its last; the first session starts
when the campaign was created, if that was just before its first action (the table set it up then).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from typing import Optional, Sequence

from companion.i18n import _

GAP = timedelta(hours=2)  # longer than any pause at a table; shorter than the night between two sessions


def utc(moment: datetime) -> datetime:
    """The log's times are UTC; SQLite hands them back without a zone."""
    return moment.replace(tzinfo=timezone.utc) if moment.tzinfo is None else moment.astimezone(timezone.utc)


@dataclass(frozen=True)
class Session:
    number: int  # 1, 2, … in the campaign
    start: datetime  # UTC
    end: datetime
    lines: tuple  # the log's lines (HistoryLine or rows: seq, created_at, …), oldest first

    @property
    def seqs(self) -> tuple[int, int]:
        return self.lines[0].seq, self.lines[-1].seq

    @property
    def minutes(self) -> int:
        return round((self.end - self.start).total_seconds() / 60)


def split(lines: Sequence, *, created: Optional[datetime] = None, gap: timedelta = GAP) -> list[Session]:
    """The sessions of a campaign's lines (oldest first, each with `seq` and `created_at`).

    >>> from types import SimpleNamespace as L
    >>> at = lambda h, m: datetime(2026, 3, 12, h, m, tzinfo=timezone.utc)
    >>> lines = [L(seq=1, created_at=at(20, 0)), L(seq=2, created_at=at(21, 30)), L(seq=3, created_at=at(23, 45))]
    >>> [(s.number, s.seqs, s.minutes) for s in split(lines, created=at(19, 50))]
    [(1, (1, 2), 100), (2, (3, 3), 0)]
    """
    sessions: list[list] = []
    last: Optional[datetime] = None
    for line in lines:
        at = utc(line.created_at)
        if last is None or at - last > gap:
            sessions.append([])
        sessions[-1].append(line)
        last = at
    out = []
    for number, group in enumerate(sessions, start=1):
        start = utc(group[0].created_at)
        if number == 1 and created is not None and timedelta(0) <= start - utc(created) <= gap:
            start = utc(created)
        out.append(Session(number, start, utc(group[-1].created_at), tuple(group)))
    return out


def duration(minutes: int) -> str:
    """'1 h 35 min', '45 min', 'a few minutes' (in the current phone's language)."""
    if minutes < 3:
        return _("a few minutes")
    hours, rest = divmod(minutes, 60)
    if not hours:
        return _("{minutes} min", minutes=rest)
    return _("{hours} h {minutes} min", hours=hours, minutes=rest) if rest else _("{hours} h", hours=hours)
