"""The night's recap in words: who played, when and for how long, how it stands or ended, and the
moments that mattered — read from the typed events of a session or of the whole campaign.

Pure: it takes the log's lines (seq, events, dice, created_at: `companion.log.HistoryLine`) and the
standings of the game now, and returns paragraphs. Each game has a reader of its own events for
its moments (`_MOMENTS`); a reader picks a handful, never the log.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Callable, Optional, Sequence

from companion.games.base import Event, percent
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
    return f"{', '.join(names[:-1])} and {names[-1]}"


def _plural(n: int, one: str, many: Optional[str] = None) -> str:
    return f"{n} {one if n == 1 else (many or one + 's')}"


def _day(moment: datetime) -> str:
    """'Thursday 12 March 2026', in the table's (the server's) time zone."""
    local = moment.astimezone()
    return f"{local.strftime('%A')} {local.day} {local.strftime('%B %Y')}"


def _days(first: datetime, last: datetime) -> str:
    """'on Thursday 12 March 2026', 'from 12 to 19 March 2026', 'from 28 February to 7 March 2026'."""
    a, b = first.astimezone(), last.astimezone()
    if a.date() == b.date():
        return f"on {_day(a)}"
    if (a.year, a.month) == (b.year, b.month):
        return f"from {a.day} to {b.day} {b.strftime('%B %Y')}"
    if a.year == b.year:
        return f"from {a.day} {a.strftime('%B')} to {b.day} {b.strftime('%B %Y')}"
    return f"from {a.day} {a.strftime('%B %Y')} to {b.day} {b.strftime('%B %Y')}"


def _clock(moment: datetime) -> str:
    return moment.astimezone().strftime("%H:%M")


def recap(*, game_key: str, title: str, name: str, lines: Sequence, sessions: Sequence[Session],
          standings: Standings, scope: Optional[Session] = None, settings: Optional[dict] = None) -> Recap:
    """The recap of `scope` (one of `sessions`), or of the whole campaign when None.

    `lines` are the actions in effect, oldest first; `standings` describe the game as it is now."""
    shown = list(scope.lines) if scope is not None else list(lines)
    if not shown:
        return Recap(f"“{name}”: {title}", ["Nothing has been played yet: the recap starts with the first action."])
    events = [(line.seq, Event.coerce(e)) for line in shown for e in line.events]
    played = names_in_words(standings.names or _names_from_events(events)) or "The table"
    game = f"{title} against {standings.opponent}" if standings.opponent else title
    dice = sum(len(line.dice) for line in shown)
    physical = sum(1 for line in shown for x in line.dice if x[2])
    counts = f"{_plural(len(shown), 'action')}, {_plural(dice, 'die', 'dice')}" + (
        f" ({physical} of them physical)" if physical else "") + "."
    if scope is not None:
        part = f" (session {scope.number} of {len(sessions)})" if len(sessions) > 1 else ""
        opening = (f"From {_clock(scope.start)} to {_clock(scope.end)} ({duration(scope.minutes)}), {played} played "
                   f"{game}{part}: {counts}")
        heading = f"“{name}”: {title}, {_day(scope.start)}"
    else:
        total = sum(s.minutes for s in sessions)
        spread = f"over {_plural(len(sessions), 'session')} " if len(sessions) > 1 else ""
        opening = (f"{played} played {game} {spread}{_days(sessions[0].start, sessions[-1].end)}, "
                   f"{duration(total)} in all: {counts}")
        heading = f"“{name}”: {title}, the whole campaign"
    paragraphs = [opening, _where_it_ended(sessions, standings, scope)]
    moments = _MOMENTS.get(game_key, lambda ev, st: [])(events, settings or {})[:MOST_MOMENTS]
    if moments:
        paragraphs.append(" ".join(moments))
    notes = [e.data.get("note", "") for _, e in events if e.kind == "note" and e.data.get("note")]
    if notes:
        quoted = "; ".join(f"“{n}”" for n in notes[:MOST_NOTES])
        more = f" (and {_plural(len(notes) - MOST_NOTES, 'more note')})" if len(notes) > MOST_NOTES else ""
        paragraphs.append(f"The table noted: {quoted}{more}.")
    return Recap(heading, paragraphs)


def _names_from_events(events) -> list[str]:
    """Players named by the events, where the settings name none (Human Ethos' team members)."""
    for _, e in reversed(events):
        if e.kind == "issue_started" and e.data.get("members"):
            return list(e.data["members"])
    return []


def _where_it_ended(sessions: Sequence[Session], standings: Standings, scope: Optional[Session]) -> str:
    """The result, or where the game stood when the session ended (the headline the next session
    began with: each logged action keeps the turn and phase it was made in)."""
    if scope is None or scope.number == len(sessions):
        return standings.result
    following = sessions[scope.number].lines[0]
    return f"The session ended at “{following.context}”." if following.context else "The session ended mid-game."


# --- The moments that mattered, game by game -------------------------------------------------------

Moments = Callable[[list[tuple[int, Event]], dict], list[str]]


def _sts(events, settings) -> list[str]:
    out = []
    pushes = [e for _, e in events if e.kind == "throw" and e.data.get("cause") in ("press_on", "venture_capitalist")
              and not e.data.get("busts") and e.data.get("bust_chance", 0) > 0]
    if pushes:
        e = max(pushes, key=lambda e: e.data["bust_chance"])
        n = len(e.data.get("thrown", []))
        out.append(f"The boldest push: {e.data['player']} pressed on with {_plural(n, 'die', 'dice')} at a "
                   f"{percent(e.data['bust_chance'])} chance of busting, and it paid off ({e.data['at_risk']} at risk).")
    busts = [e for _, e in events if e.kind == "bust" and e.data.get("lost", 0) > 0]
    if busts:
        e = max(busts, key=lambda e: e.data["lost"])
        out.append(f"The bust that hurt most: {e.data['player']} lost {_plural(e.data['lost'], 'point')} at risk to "
                   f"{e.data['bugs']} Bugs (that throw had a {percent(e.data.get('chance', 0))} chance of busting).")
    banks = [e for _, e in events if e.kind == "bank" and e.data.get("points", 0) > 0]
    if banks:
        e = max(banks, key=lambda e: e.data["points"])
        out.append(f"The biggest haul: {e.data['player']} banked {_plural(e.data['points'], 'point')}.")
    worst, phase, player = None, None, ""
    for _, e in events + [(0, Event(kind="turn", text=""))]:  # a last "turn" closes the last phase
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
        out.append(f"The world's worst phase came after {worst[2]}'s turn: {worst[0]} Bad in "
                   f"{_plural(worst[1], 'roll')} of the d12.")
    powers = [e.text.rstrip(".") for _, e in events if e.kind == "power"]
    if powers:
        out.append(f"Powers played: {'; '.join(powers[:3])}" + (f"; and {len(powers) - 3} more." if len(powers) > 3 else "."))
    return out


def _klaw(events, settings) -> list[str]:
    names = list(settings.get("players") or [])
    out = []
    fights = [e for _, e in events if e.kind == "fight_won"]
    if fights:
        beat = "; ".join(f"{e.data['winner_name']} beat {e.data['loser_name']}" for e in fights[:3])
        out.append(f"{_plural(len(fights), 'fight')}: {beat}" + (f"; and {len(fights) - 3} more." if len(fights) > 3 else "."))
    blows = [e for _, e in events if e.kind == "exchange"]
    if blows:
        e = max(blows, key=lambda e: e.data.get("damage_to_target", 0))
        if e.data.get("damage_to_target", 0) >= 2:
            out.append(f"The hardest blow: {e.data['striker_name']} hit {e.data['target_name']} "
                       f"{_plural(e.data['damage_to_target'], 'time')} in one exchange.")
    for _, e in events:
        if e.kind == "host_removed" and e.data.get("cause") != "lost the fight":
            owner = names[e.data["player"]] if isinstance(e.data.get("player"), int) and e.data["player"] < len(names) else ""
            whose = f"{owner}'s " if owner else ""
            out.append(f"A host's fall: {whose}{e.data['name']} left the table ({e.data['cause']}).")
            break
    for _, e in events:
        if e.kind == "singularity_event":
            removed = e.data.get("removed", [])
            totems = sum(len(r.get("totems", [])) for r in removed)
            out.append(f"A singularity event swept {_plural(totems, 'totem')} off {_plural(len(removed), 'host')}.")
            break
    failed = sum(1 for _, e in events if e.kind == "singularity_check" and e.data.get("face") is not None
                 and not e.data.get("passed"))
    passed = sum(1 for _, e in events if e.kind == "singularity_check" and e.data.get("face") is not None
                 and e.data.get("passed"))
    if passed or failed:
        out.append(f"Singularity checks: {passed} passed, {failed} failed.")
    return out


_MACHINE_BEST = {"biosphere": 7, "attack": 6, "catastrophe": 5, "sabotage": 4, "espionage": 3, "achievement": 2,
                 "new_hope": 1}


def _biosphere5(events, settings) -> list[str]:
    out = []
    best, best_round, round_no = None, 0, 1
    for _, e in events:
        if e.kind == "round":
            round_no = e.data.get("round", round_no)
        elif e.kind == "machine_decision" and _MACHINE_BEST.get(e.data.get("play"), 0) > \
                (_MACHINE_BEST.get(best.data.get("play"), 0) if best else 0):
            best, best_round = e, round_no
    if best:
        out.append(f"The Machine's best move, in round {best_round}: {best.text}")
    checks = [e for _, e in events if e.kind == "rescue_check" and e.data.get("rolled")]
    if checks:
        saved = sum(bool(e.data.get("saved")) for e in checks)
        out.append(f"Its hand dice saved the Machine {_plural(saved, 'time')} in {_plural(len(checks), 'rescue roll')}.")
    built = sum(1 for _, e in events if e.kind == "human_achievement")
    hits = sum(1 for _, e in events if e.kind in ("human_catastrophe", "human_attack"))
    if built or hits:
        out.append(f"You built {_plural(built, 'achievement')} and struck the Machine {_plural(hits, 'time')}.")
    for _, e in events:
        if e.kind == "player_out":
            out.append(f"{e.data['name']} reached doom 8 and was out.")
    return out


def _shadowrun(events, settings) -> list[str]:
    out = []
    taken = [e for _, e in events if e.kind == "objective_taken"]
    if taken:
        out.append("Objectives taken: " + ", ".join(f"{e.data['name']} (+{e.data['rep']})" for e in taken) + ".")
    died = [e.data["name"] for _, e in events if e.kind == "died"]
    if died:
        out.append(f"Lost on the streets: {names_in_words(died)}.")
    rolls = [e for _, e in events if e.kind == "payment_roll"]
    if rolls:
        due = sum(bool(e.data.get("due")) for e in rolls)
        out.append(f"The loan shark called in the interest {_plural(due, 'time')} in {_plural(len(rolls), 'payment roll')}.")
    refused = [e for _, e in events if e.kind == "payment_refused"]
    if refused:
        out.append(f"Payments refused: {len(refused)}, costing {sum(e.data.get('owed', 0) for e in refused)} reputation.")
    for _, e in events:
        if e.kind == "paid_off" and e.data.get("debt") == 0:
            out.append("The whole debt was paid off.")
            break
    survived = sum(1 for _, e in events if e.kind == "survival" and e.data.get("face") is not None and not e.data.get("lost"))
    if survived:
        out.append(f"Survived {_plural(survived, 'survival roll')} with reputation below zero.")
    return out


def _human_ethos(events, settings) -> list[str]:
    out = []
    for _, e in events:
        if e.kind == "won":
            out.append(f"{e.data['issue'].capitalize()} was won: the team reached End {e.data.get('end', '')}.")
        elif e.kind == "lost":
            out.append(f"{e.data['issue'].capitalize()} was lost: threat {e.data['threat']} and awareness "
                       f"{e.data['awareness']} met on a track of {e.data['length']}.")
    turn, closest = 1, None
    for _, e in events:
        if e.kind in ("turn", "issue_started"):
            turn = e.data.get("turn", 1)
        elif e.kind == "track" and e.data.get("cause") == "in_range":
            margin = e.data["length"] - e.data["threat"] - e.data["awareness"]
            if margin > 0 and (closest is None or margin < closest[0]):
                closest = (margin, turn, e.data)
    if closest:
        margin, turn, data = closest
        out.append(f"The enemy phase that nearly ended it: on turn {turn} the enemies' attacks brought threat to "
                   f"{data['threat']}, with awareness at {data['awareness']}, {_plural(margin, 'space')} from "
                   f"meeting on a track of {data['length']}.")
    killed = sum(e.data.get("killed", 0) for _, e in events if e.kind == "attack")
    if killed:
        out.append(f"The team took down {_plural(killed, 'enemy', 'enemies')}.")
    caches = sum(1 for _, e in events if e.kind == "cache")
    if caches:
        out.append(f"{_plural(caches, 'supply cache')} opened.")
    return out


_MOMENTS: dict[str, Moments] = {"save_the_singularity": _sts, "klaw": _klaw, "biosphere5": _biosphere5,
                                "shadowrun": _shadowrun, "human_ethos": _human_ethos}
