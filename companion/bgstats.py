"""A finished game as a play for BG Stats (the app many players log every game in): its JSON, and
the link that opens BG Stats' "create play" page with it, `createPlay.html?data=<url-encoded JSON>`.

The fields BG Stats reads: sourceName, sourcePlayId (the same for the same play, however often it
is logged, so BG Stats can tell a repeat), playDate (UTC, "yyyy-MM-dd HH:mm:ss"), durationMin, the
game {name, sourceGameId, bggId where known, highestWins, noPoints, cooperative} and the players
[{name, sourcePlayerId (the same for a name across plays), score, winner (always there, true or
false), startPlayer, role}].

BoardGameGeek ids: the app doesn't know any of the five games' ids for sure, so none is built in;
a table enters its box's id once (a setting, `bgg_setting`) and every play carries it.
"""

from __future__ import annotations

import hashlib
import json
import re
from datetime import datetime, timezone
from typing import Any, Optional, Sequence
from urllib.parse import quote

from companion.games import get_game, reports_of
from companion.games.base import InputError
from companion.i18n import N_, Msg
from companion.sessions import split
from companion.standings import Standings

# The app's name, as BG Stats knows the plays it logs: the same in every language (never translated,
# or one play logged from two phones would come from two apps).
SOURCE_NAME = N_("Table Companion")
CREATE_PLAY = "https://app.bgstatsapp.com/createPlay.html"
MAX_BGG_ID = 10_000_000


def bgg_setting(game_key: str) -> str:
    """The app-wide setting that keeps a game's BoardGameGeek id, entered by the table."""
    return f"bgg_id.{game_key}"


def parse_bgg_id(text: str) -> Optional[int]:
    """A BoardGameGeek id as typed ("" clears it); refuses anything but a whole number in range.
    The id is the number in the game's address: boardgamegeek.com/boardgame/<id>/…"""
    text = (text or "").strip()
    if not text:
        return None
    found = re.fullmatch(r"(?:https?://)?(?:www\.)?boardgamegeek\.com/boardgame/(\d+)(?:/.*)?|(\d+)", text)
    number = int(found.group(1) or found.group(2)) if found else 0
    if not 1 <= number <= MAX_BGG_ID:
        raise InputError(Msg("A BoardGameGeek id is a whole number from 1 to {max} (the number in the game's "
                             "BoardGameGeek address); got “{got}”.", max=MAX_BGG_ID, got=text[:30]))
    return number


def _stable_id(*parts: Any) -> str:
    """A short id that is the same whenever the same parts are given (and gives nothing away)."""
    return hashlib.sha256(":".join(str(p) for p in parts).encode()).hexdigest()[:20]


def player_id(name: str) -> str:
    """The same person (by name, ignoring case and spacing) is the same player in every play."""
    return "tc-player-" + _stable_id("player", " ".join(name.casefold().split()))


def play_lines(game_key: str, lines: Sequence) -> list:
    """The lines of the play to log: all of a campaign's, or, for a game whose campaign is a story of
    plays (its reports' `PLAY_STARTS`: Human Ethos' issues), those of the play that ended, from its start."""
    starts_with = getattr(reports_of(game_key), "PLAY_STARTS", None)
    if starts_with is None:
        return list(lines)
    starts = [i for i, line in enumerate(lines)
              if any((e.get("kind") if isinstance(e, dict) else getattr(e, "kind", "")) == starts_with
                     for e in line.events)]
    return list(lines[starts[-1]:]) if starts else list(lines)


def play(*, game_key: str, campaign: Any, lines: Sequence, standings: Standings,
         bgg_id: Optional[int] = None) -> dict:
    """The BG Stats play of a finished game (`campaign`: its row; `lines`: the actions in effect)."""
    if not standings.finished:
        raise InputError(Msg("Only a finished game can be logged to BG Stats."))
    game = get_game(game_key)
    mine = play_lines(game_key, lines)
    if not mine:
        raise InputError(Msg("Nothing was played in this game yet."))
    sessions = split(mine, created=campaign.created_at if mine[0].seq == 1 else None)
    entry: dict[str, Any] = {
        "name": game.title,
        "sourceGameId": f"table-companion/{game_key}",
        "highestWins": True,
        "noPoints": not standings.points,
        "cooperative": standings.cooperative,
    }
    if bgg_id is not None:
        entry["bggId"] = bgg_id
    players = []
    for seat in standings.seats:
        player: dict[str, Any] = {"name": seat.name, "sourcePlayerId": player_id(seat.name),
                                  "winner": bool(seat.winner), "startPlayer": bool(seat.start)}
        if standings.points and seat.score is not None:
            player["score"] = seat.score
        if seat.role:
            player["role"] = seat.role
        players.append(player)
    return {
        "sourceName": SOURCE_NAME,
        # the campaign's seed (never shown: it would tell its dice) and where the play began in its log
        "sourcePlayId": "tc-play-" + _stable_id("play", game_key, campaign.seed, mine[0].seq),
        "playDate": play_date(sessions[0].start),
        "durationMin": max(1, sum(s.minutes for s in sessions)),
        "game": entry,
        "players": players,
    }


def play_date(moment: datetime) -> str:
    """A moment as BG Stats' playDate: yyyy-MM-dd HH:mm:ss, in UTC (a moment without a zone is UTC)."""
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=timezone.utc)
    return moment.astimezone(timezone.utc).replace(tzinfo=None, microsecond=0).isoformat(sep=" ")


def started(data: dict) -> datetime:
    """When a play began (its playDate), in UTC."""
    return datetime.fromisoformat(data["playDate"]).replace(tzinfo=timezone.utc)


def dumps(data: dict) -> str:
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"))


def link(data: dict) -> str:
    """The link that opens BG Stats' "create play" page with this play filled in."""
    return f"{CREATE_PLAY}?data={quote(dumps(data), safe='')}"


def filename(data: dict, campaign_name: str) -> str:
    slug = re.sub(r"[^A-Za-z0-9]+", "-", campaign_name).strip("-")[:40] or "play"
    return f"bgstats-{slug}-{data['playDate'][:10]}.json"
