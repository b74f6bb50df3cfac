"""The Singularity War: Human Ethos — threat, awareness and the enemy phase (RULES.md §5).

The players move the miniatures on the real board; this module keeps a twin of the board and
runs the enemies: who raises the threat, and where every group moves, with the reason in words.

Read top to bottom:
  1. Settings (the Decisions a table may play differently) and the state: the story campaign, the
     enemy cards, and the issue being played (map, track, team, enemy groups, tokens, caches).
  2. Actions, one class per thing a player does; `legal_actions` and `moves` (what may be done now).
  3. `apply`: issue setup; the player's turn (move, reveal and spawn, cache, attack, manual ±);
     the enemy phase (attack check, then moves split over equally short routes, ties, merging);
     the end of the turn (hazard, next player); win and loss; campaign progress.
  4. describe / headline / outcome and GAME.

Threat and awareness are two markers closing on one track of length N: threat counts up from one
end, awareness from the other, and the issue is lost when threat + awareness ≥ N (they meet).
No dice: every enemy decision is fixed by the rules, and the ties the rules leave are the players'.
Every event is typed (`event(kind, text, **data)`); spaces in the data are board names ("C4").
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations
from typing import Annotated, Literal, Optional, Union

from pydantic import Field

from companion.games.base import Dice, Event, Game, InputError, Model, RuleError, event, field_specs
from companion.games.base import Move as LegalMove

from .enemies import DEFAULT_ENEMY_TYPES, EnemyType
from .hexmap import Board, Coord, Hex, HexMap, LineOfSight, require_playable

# =============================================================================================
# 1. Settings and state
# =============================================================================================

LEAVE_THREAT = 2  # per enemy type in a space a move leaves
HAZARD_THREAT = 4
MAX_MEMBERS = 6
MAX_TRACK = 60
MAX_ISSUE = 99


class Settings(Model):
    mode: Literal["story", "arcade"] = Field(
        "story", description="Story: issues #1, #2, … in order, a win unlocks the next. Arcade: any map."
    )
    leave_threat: Literal["per_move", "per_member"] = Field(
        "per_move", description="Leaving a space with enemies: +2 per enemy type once per move, or per member moving"
    )
    hazard_trigger: Literal["end_of_turn", "on_enter", "both"] = Field(
        "end_of_turn", description="Hazard +4 when members end the turn there (map key), on entering (Moving), or both"
    )
    tie_break: Literal["players_choose", "generous", "smart"] = Field(
        "players_choose", description="Enemy ties the rules leave: the players pick, or the app picks kindly / harshly"
    )
    cache_reveal: Literal["3", "per_player"] = Field(
        "3", description="Cards a supply cache reveals: 3 (rules section) or one per player (quick reference)"
    )
    # Left out of saved states while it has its default, so campaigns saved before the setting
    # existed still replay to exactly their recorded states.
    line_of_sight: LineOfSight = Field(
        "generous", exclude_if=lambda v: v == "generous",
        description="Range along an edge or through a corner: blocked only if both sides are (generous), or either (strict)",
    )


class Member(Model):
    name: str = Field(min_length=1, max_length=20)
    at: Hex
    hazard_waived: bool = Field(False, description="Moved this turn by a card that waives the hazard")


class EnemyGroup(Model):
    """Miniatures of one type in one space. `damage` is damage taken this turn toward the next kill."""

    enemy: str
    at: Hex
    count: int = Field(ge=1, le=999)
    damage: int = Field(0, ge=0)
    acted: bool = Field(False, description="Already attacked and moved in this enemy phase")


class Token(Model):
    """An encounter token on a Common/Elite space: face down until a member enters its area."""

    at: Hex
    tier: Literal["common", "elite"]
    area: str
    status: Literal["face_down", "revealed", "resolved"] = "face_down"
    face: str = ""
    encountered_by: str = ""


class Part(Model):
    at: Hex
    count: int = Field(ge=1)


class ChoiceOption(Model):
    label: str
    parts: list[Part]
    step: str = Field(description="The move in words, as the history shows it")


class PendingChoice(Model):
    """The enemy phase is paused on a tie the rules leave to the players."""

    group: int
    question: str
    options: list[ChoiceOption]


class Issue(Model):
    number: int = Field(ge=1, le=MAX_ISSUE)
    title: str = ""
    mode: Literal["story", "arcade"] = "story"
    pool: list[str] = Field(default_factory=list, description="Arcade: the enemy types this game uses")
    more_maps: list[HexMap] = Field(default_factory=list, description="Arcade: maps still to play after this one")
    start_threat: int = Field(0, ge=0, description="Arcade: the next map starts the track here again")
    start_awareness: int = Field(0, ge=0)
    map: HexMap
    track: int = Field(ge=2, le=MAX_TRACK)
    threat: int = Field(ge=0)
    awareness: int = Field(ge=0)
    members: list[Member]
    active: int = Field(0, ge=0, description="Index of the member whose player takes this turn")
    turn: int = 1
    phase: Literal["players", "enemies", "won", "lost"] = "players"
    groups: list[EnemyGroup] = Field(default_factory=list)
    tokens: list[Token] = Field(default_factory=list)
    used_caches: list[Hex] = Field(default_factory=list)
    queue: list[int] = Field(default_factory=list, description="Enemy phase: groups still to act, in order")
    pending: Optional[PendingChoice] = None

    @property
    def over(self) -> bool:
        return self.phase in ("won", "lost")

    @property
    def called(self) -> str:
        """How the events name it: 'issue #3' in story mode, 'arcade map Plaza' in arcade."""
        return f"issue #{self.number}" if self.mode == "story" else f"arcade map {self.map.name}"


class IssueRecord(Model):
    issue: int
    wins: int = 0
    losses: int = 0


class Campaign(Model):
    unlocked_issue: int = Field(1, ge=1, description="Highest story issue that may be played")
    records: list[IssueRecord] = Field(default_factory=list)
    arcade_wins: int = Field(0, description="Arcade maps won")
    arcade_losses: int = Field(0, description="Arcade maps lost")
    unlocked_cards: list[str] = Field(default_factory=list)
    unlocked_enemies: list[str] = Field(default_factory=list)


class State(Model):
    settings: Settings
    campaign: Campaign = Field(default_factory=Campaign)
    enemy_types: list[EnemyType] = Field(default_factory=lambda: list(DEFAULT_ENEMY_TYPES))
    issue: Optional[Issue] = None


# =============================================================================================
# 2. Actions
# =============================================================================================


class StartIssue(Model):
    """Set up an issue from its setup card: map, track length N, starting threat and awareness."""

    kind: Literal["start_issue"] = "start_issue"
    number: int = Field(1, ge=1, le=MAX_ISSUE)
    title: str = Field("", max_length=60)
    map: HexMap
    track: int = Field(ge=2, le=MAX_TRACK, description="Spaces on the threat/awareness track")
    threat: int = Field(0, ge=0, le=MAX_TRACK)
    awareness: int = Field(0, ge=0, le=MAX_TRACK)
    members: list[str] = Field(min_length=1, max_length=MAX_MEMBERS, description="Team members in turn order")
    mode: Optional[Literal["story", "arcade"]] = Field(None, description="Empty: the campaign's mode setting")
    enemies: list[str] = Field(
        default_factory=list, max_length=40,
        description="Arcade: the enemy types in play (the box's and the unlocked ones); empty: every known type",
    )
    more_maps: list[HexMap] = Field(default_factory=list, max_length=9, description="Arcade: maps to play next, in order")


class NextMap(Model):
    """Arcade: the map just won leads to the next one of the run (same team, same track)."""

    kind: Literal["next_map"] = "next_map"


class Move(Model):
    """A movement card: `member` (and others in its space) move up to `move` spaces.

    `via` lists the spaces passed on the way (empty: the app takes a shortest route, the one
    costing the least threat)."""

    kind: Literal["move"] = "move"
    member: str
    to: Hex
    move: int = Field(ge=1, le=20, description="The card's movement value")
    via: list[Hex] = Field(default_factory=list, max_length=20)
    with_members: list[str] = Field(default_factory=list, max_length=MAX_MEMBERS)
    waive_hazard: bool = Field(False, description="The card says hazards don't raise the threat")


class Placement(Model):
    enemy: str
    at: Hex
    count: int = Field(ge=1, le=30)


class Spawn(Model):
    """Resolve one revealed token: what it showed and where its enemies went (within its area)."""

    kind: Literal["spawn"] = "spawn"
    token: int = Field(ge=0)
    face: str = Field(min_length=1, max_length=40)
    groups: list[Placement] = Field(default_factory=list, max_length=12)


class Attack(Model):
    """A damage card: `damage` against one enemy type in one space within the card's range."""

    kind: Literal["attack"] = "attack"
    member: str
    at: Hex
    enemy: str
    damage: int = Field(ge=1, le=30)
    range: int = Field(ge=0, le=20)
    ignore_walls: bool = False


class Adjust(Model):
    """A card or effect that moves threat or awareness (e.g. It's Closing In: awareness +1)."""

    kind: Literal["adjust"] = "adjust"
    track: Literal["threat", "awareness"]
    delta: int = Field(ge=-MAX_TRACK, le=MAX_TRACK)
    reason: str = Field(min_length=1, max_length=80)


class EnemyPhase(Model):
    """Run the enemies: `order` lists group indices (empty: the default order, closest first)."""

    kind: Literal["enemy_phase"] = "enemy_phase"
    order: list[int] = Field(default_factory=list, max_length=200)


class Choose(Model):
    """Answer the paused enemy phase's tie: `option` indexes the options (shown to players from 1)."""

    kind: Literal["choose"] = "choose"
    option: int = Field(ge=0)


class SetEnemyType(Model):
    """Enter or edit an enemy card's stats (a new name adds a type)."""

    kind: Literal["set_enemy_type"] = "set_enemy_type"
    enemy: EnemyType


class Unlock(Model):
    kind: Literal["unlock"] = "unlock"
    what: Literal["card", "enemy"]
    name: str = Field(min_length=1, max_length=40)


class ChangeSettings(Model):
    kind: Literal["change_settings"] = "change_settings"
    settings: Settings


class AbandonIssue(Model):
    """Stop the issue without a result (set up wrongly, or the table calls it a night)."""

    kind: Literal["abandon_issue"] = "abandon_issue"


Action = Annotated[
    Union[StartIssue, NextMap, Move, Spawn, Attack, Adjust, EnemyPhase, Choose, SetEnemyType, Unlock, ChangeSettings,
          AbandonIssue],
    Field(discriminator="kind"),
]


def legal_actions(state: State) -> list[str]:
    """Which action kinds are allowed now (`moves` builds on it; `apply` refuses the others)."""
    always = ["set_enemy_type", "unlock", "change_settings"]
    issue = state.issue
    if issue is None or issue.over:
        more = ["next_map"] if issue is not None and issue.phase == "won" and issue.more_maps else []
        return [*more, "start_issue", *always]
    if issue.pending is not None:
        return ["choose", *always, "abandon_issue"]
    if any(t.status == "revealed" for t in issue.tokens):
        return ["spawn", "adjust", *always, "abandon_issue"]
    kinds = ["move", "adjust", "enemy_phase"]
    if issue.groups:
        kinds.insert(1, "attack")
    return [*kinds, *always, "abandon_issue"]


LABELS = {
    "start_issue": "Start an issue", "next_map": "Next arcade map", "move": "Move (a movement card)",
    "spawn": "Place a revealed token's enemies", "attack": "Attack (a damage card)",
    "adjust": "Threat or awareness ± (a card)", "enemy_phase": "Run the enemy phase",
    "choose": "Pick the enemies' way", "set_enemy_type": "Enter an enemy card", "unlock": "Unlock a card or enemy",
    "change_settings": "Change the settings", "abandon_issue": "Abandon the issue",
}


def moves(state: State) -> list[LegalMove]:
    """What may be done now, built on `legal_actions`: the enemy phase, a tie's options, the next
    arcade map and abandoning as ready actions; the cards (move, attack, ±), placing a revealed
    token's enemies and the campaign's entries as templates whose fields the state narrows. While
    an issue is played, the player's moves not allowed now are listed greyed out with the reason."""
    allowed = legal_actions(state)
    out = [m for kind in allowed for m in _moves_of(state, kind)]
    issue = state.issue
    if issue is not None and not issue.over:
        out += [LegalMove(kind=k, label=LABELS[k], why_not=_not_now(state, k))
                for k in ("move", "attack", "enemy_phase") if k not in allowed]
    return out


def _moves_of(state: State, kind: str) -> list[LegalMove]:
    issue, camp = state.issue, state.campaign
    label = LABELS[kind]
    if kind == "next_map":
        return [LegalMove(kind=kind, label=f"Next map: {issue.more_maps[0].name}", action=NextMap())]
    if kind == "abandon_issue":
        return [LegalMove(kind=kind, label=label, action=AbandonIssue())]
    if kind == "enemy_phase":
        return [LegalMove(kind=kind, label=label, action=EnemyPhase())]
    if kind == "choose":
        return [LegalMove(kind=kind, label=f"{i + 1}: {o.label}", action=Choose(option=i))
                for i, o in enumerate(issue.pending.options)]
    if kind == "start_issue":  # story issues are played in order (an arcade game's number is not shown)
        return [LegalMove(kind=kind, label=label, fields=field_specs(
            StartIssue, number=(1, camp.unlocked_issue), mode=["story", "arcade"], enemies=arcade_offer(state)))]
    if kind == "spawn":
        waiting = [i for i, t in enumerate(issue.tokens) if t.status == "revealed"]
        return [LegalMove(kind=kind, label=label, fields=field_specs(Spawn, token=waiting))]
    names = [m.name for m in issue.members] if issue is not None else []
    if kind == "move":
        return [LegalMove(kind=kind, label=label, fields=field_specs(
            Move, member=names, to=[s.hex for s in issue.map.spaces], with_members=names, waive_hazard=[False, True]))]
    if kind == "attack":
        return [LegalMove(kind=kind, label=label, fields=field_specs(
            Attack, member=names, at=sorted({g.at for g in issue.groups}, key=lambda h: h.c),
            enemy=sorted({g.enemy for g in issue.groups}), ignore_walls=[False, True]))]
    if kind == "adjust":
        return [LegalMove(kind=kind, label=label, fields=field_specs(Adjust, track=["threat", "awareness"]))]
    if kind == "unlock":
        return [LegalMove(kind=kind, label=label, fields=field_specs(Unlock, what=["card", "enemy"]))]
    entry = {"set_enemy_type": SetEnemyType, "change_settings": ChangeSettings}[kind]
    return [LegalMove(kind=kind, label=label, fields=field_specs(entry))]


def refusal(state: State, action: Action) -> Optional[str]:
    """The quick check `apply` makes first: is this kind of action allowed now?"""
    return None if action.kind in legal_actions(state) else _not_now(state, action.kind)


# =============================================================================================
# 3. apply
# =============================================================================================


def new_state(settings: Settings) -> State:
    return State(settings=settings)


def apply(state: State, action: Action, dice: Dice) -> tuple[State, list[Event]]:
    """The next state and the events explaining it. No dice are used: the enemies are rules-driven."""
    refused = refusal(state, action)
    if refused:
        raise RuleError(refused)
    new = _copy(state)
    events: list[Event] = []
    HANDLERS[action.kind](new, action, events)
    _settle(new, events)
    return new, events


def _copy(state: State) -> State:
    """A copy of everything an action may change in place; what no rule changes in place is shared
    (the map, the enemy cards, the settings, the frozen Hexes, a pending choice). Copying a
    150-space map on every action would cost more than the action. The property test checks that
    `apply` never mutates its input."""
    camp = state.campaign
    camp = camp.model_copy(update={
        "records": [r.model_copy() for r in camp.records],
        "unlocked_cards": list(camp.unlocked_cards),
        "unlocked_enemies": list(camp.unlocked_enemies),
    })
    issue = state.issue
    if issue is not None:
        issue = issue.model_copy(update={
            "members": [m.model_copy() for m in issue.members],
            "groups": [g.model_copy() for g in issue.groups],
            "tokens": [t.model_copy() for t in issue.tokens],
            "used_caches": list(issue.used_caches),
            "queue": list(issue.queue),
        })
    return state.model_copy(update={"campaign": camp, "enemy_types": list(state.enemy_types), "issue": issue})


def _not_now(state: State, kind: str) -> str:
    issue = state.issue
    if kind == "next_map":
        return "Only after winning an arcade map with more maps to play."
    if issue is None or issue.over:
        return "No issue is being played: start one first."
    if issue.pending is not None:
        return "The enemy phase is waiting for the players to pick one of the options."
    if any(t.status == "revealed" for t in issue.tokens):
        return "Place the enemies of the revealed encounter tokens first."
    if kind == "start_issue":
        return f"{issue.called.capitalize()} is still being played: finish or abandon it first."
    if kind == "choose":
        return "There is no tie to choose for."
    if kind == "spawn":
        return "No encounter token is waiting to be placed."
    if kind == "attack":
        return "There are no enemies on the board to attack."
    return f"'{kind}' is not allowed now."


# --- small helpers -----------------------------------------------------------------------------


def _issue(state: State) -> Issue:
    assert state.issue is not None
    return state.issue


def _etype(state: State, name: str) -> EnemyType:
    for t in state.enemy_types:
        if t.name == name:
            return t
    known = ", ".join(t.name for t in state.enemy_types)
    raise InputError(f"Unknown enemy type {name!r}; known types: {known}.")


def _member(issue: Issue, name: str) -> Member:
    for m in issue.members:
        if m.name == name:
            return m
    raise InputError(f"No team member is called {name!r}; the team is {_names(m.name for m in issue.members)}.")


def _names(names) -> str:
    names = list(names)
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


_WORDS = ["no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"]


def _word(n: int) -> str:
    return _WORDS[n] if 0 <= n < len(_WORDS) else str(n)


def _track_text(issue: Issue) -> str:
    return f"threat {issue.threat} + awareness {issue.awareness} of {issue.track}"


def _move_marker(issue: Issue, track: str, amount: int, why: str, events: list[Event], cause: str, **data) -> None:
    """Move threat or awareness. The markers stop where they meet (the loss) and never go below 0.

    The event says why (`cause`: leave, hazard, in_range or card, and its data: the group, the
    space, the members, the card), the amount asked, the amount applied, and where both markers are."""
    old = getattr(issue, track)
    room = issue.track - issue.threat - issue.awareness
    applied = min(amount, room) if amount > 0 else max(amount, -old)
    setattr(issue, track, old + applied)
    note = ""
    if applied != amount:
        note = " (stopped where the markers meet)" if amount > 0 else " (stopped at 0)"
    events.append(event(
        "track", f"{track.capitalize()} {amount:+d}: {why}{note}. Now {_track_text(issue)}.",
        track=track, amount=amount, applied=applied, cause=cause, **data,
        threat=issue.threat, awareness=issue.awareness, length=issue.track,
    ))


def _group_data(board: Board, g: "EnemyGroup") -> dict:
    """A group as events carry it: its type, its space's board name and how many miniatures."""
    return {"enemy": g.enemy, "at": board.label(g.at.c), "count": g.count}


def _in_zone(token: Token, c: Coord) -> bool:
    """A token belongs to its area; a token in no area belongs to its own space."""
    return not token.area and token.at.c == c


def _is_clear(state: State, board: Board, end: Coord) -> bool:
    area = board.area(end)
    zone = set(board.area_spaces(area)) if area else {end}
    return not any(g.at.c in zone for g in _issue(state).groups)


def _settle(state: State, events: list[Event]) -> None:
    """After every action: the issue is lost when the markers meet, won when the team stands on
    End and End's area is clear (loss first: it happened on the way)."""
    issue = state.issue
    if issue is None or issue.over:
        return
    if issue.threat + issue.awareness >= issue.track:
        issue.phase, issue.queue, issue.pending = "lost", [], None
        events.append(event("lost", f"Threat and awareness meet ({_track_text(issue)}): {issue.called} is lost.",
                            issue=issue.called, threat=issue.threat, awareness=issue.awareness, length=issue.track))
        _record(state, won=False, events=events)
        return
    board = Board.of(issue.map)
    end = board.with_special("end")[0]
    if (
        all(m.at.c == end for m in issue.members)
        and _is_clear(state, board, end)
        and not any(t.status == "revealed" for t in issue.tokens)
    ):
        issue.phase = "won"
        where = f"area {board.area(end)}" if board.area(end) else "space"
        events.append(event(
            "won", f"Every team member is on End {board.label(end)} and its {where} is clear of enemies: {issue.called} is won.",
            issue=issue.called, end=board.label(end), members=[m.name for m in issue.members],
        ))
        _record(state, won=True, events=events)


def _record(state: State, *, won: bool, events: list[Event]) -> None:
    issue, camp = _issue(state), state.campaign
    if issue.mode == "arcade":
        if won:
            camp.arcade_wins += 1
            if issue.more_maps:
                nxt = issue.more_maps[0].name
                events.append(event("progress", f"Arcade: next map {nxt} ({len(issue.more_maps)} to go).",
                                    mode="arcade", won=True, next_map=nxt, maps_left=len(issue.more_maps)))
            else:
                events.append(event("progress", "Arcade: the run is complete.", mode="arcade", won=True, maps_left=0))
        else:
            camp.arcade_losses += 1
            events.append(event("progress", "Arcade: the run ends here.", mode="arcade", won=False))
        return
    rec = next((r for r in camp.records if r.issue == issue.number), None)
    if rec is None:
        rec = IssueRecord(issue=issue.number)
        camp.records.append(rec)
        camp.records.sort(key=lambda r: r.issue)
    if won:
        rec.wins += 1
        if issue.number == camp.unlocked_issue:
            camp.unlocked_issue += 1
            events.append(event("progress", f"Story: issue #{camp.unlocked_issue} is unlocked (same team and decks).",
                                mode="story", won=True, issue=issue.number, unlocked=camp.unlocked_issue))
    else:
        rec.losses += 1
        events.append(event("progress", f"Story: try issue #{issue.number} again to move on.",
                            mode="story", won=False, issue=issue.number, unlocked=camp.unlocked_issue))


# --- Setting up an issue -------------------------------------------------------------------------


def arcade_offer(state: State) -> list[str]:
    """The enemy types arcade mode offers: the box's types and the ones the story unlocked
    (an unlocked enemy needs its card entered first)."""
    known = {t.name for t in state.enemy_types}
    box = [t.name for t in DEFAULT_ENEMY_TYPES if t.name in known]
    return box + [n for n in state.campaign.unlocked_enemies if n in known and n not in box]


def _start_issue(state: State, a: StartIssue, events: list[Event]) -> None:
    camp = state.campaign
    mode = a.mode or state.settings.mode
    if mode == "story" and a.number > camp.unlocked_issue:
        raise RuleError(f"Issue #{a.number} is locked: story mode plays issues in order (#{camp.unlocked_issue} is next).")
    pool: list[str] = []
    if mode == "arcade":
        offered = arcade_offer(state)
        missing = [n for n in camp.unlocked_enemies if n not in {t.name for t in state.enemy_types}]
        for name in a.enemies:
            if name not in offered:
                hint = " (enter its enemy card first)" if name in missing else ""
                raise InputError(f"{name} is not offered in arcade{hint}; offered: {_names(offered)}.")
        pool = list(dict.fromkeys(a.enemies)) or offered
        for m in a.more_maps:
            require_playable(m)
    elif a.enemies or a.more_maps:
        raise InputError("Story issues use the setup card's enemies and one map; enemy pools and map runs are arcade.")
    if a.threat + a.awareness >= a.track:
        raise InputError(
            f"Starting threat + awareness must be below the track length {a.track} (got {a.threat} + {a.awareness})."
        )
    names = [n.strip() for n in a.members]
    if any(not n or len(n) > 20 for n in names) or len(set(names)) != len(names):
        raise InputError("Team members need distinct names of 1 to 20 characters.")
    board = require_playable(a.map)
    start = board.with_special("start")[0]
    tokens = [
        Token(at=Hex.of(c), tier=board.special(c), area=board.area(c))
        for c in sorted(board.spaces)
        if board.special(c) in ("common", "elite")
    ]
    issue = Issue(
        number=a.number, title=a.title, map=a.map, track=a.track, threat=a.threat, awareness=a.awareness,
        members=[Member(name=n, at=Hex.of(start)) for n in names], tokens=tokens,
        mode=mode, pool=pool, more_maps=list(a.more_maps), start_threat=a.threat, start_awareness=a.awareness,
    )
    state.issue = issue
    title = f" “{a.title}”" if a.title else ""
    what = f"Issue #{a.number}{title}" if mode == "story" else f"Arcade map{title}"
    events.append(event(
        "issue_started",
        f"{what} begins on {a.map.name}: {_track_text(issue)} (they meet at {a.track}). "
        f"Team on Start {board.label(start)}: {_names(names)}; {len(tokens)} encounter token(s) face down.",
        issue=issue.called, mode=mode, number=a.number, title=a.title, map=a.map.name, length=a.track,
        threat=a.threat, awareness=a.awareness, start=board.label(start), members=names, tokens=len(tokens),
    ))
    if mode == "arcade":
        cards = camp.unlocked_cards
        more = [m.name for m in a.more_maps]
        events.append(event(
            "arcade_pool",
            f"Arcade enemies: {_names(pool)}. Unlocked cards to shuffle in: {_names(cards) if cards else 'none yet'}."
            + (f" Then {len(more)} more map(s): {_names(more)}." if more else ""),
            enemies=pool, cards=list(cards), more_maps=more,
        ))
    if a.map.sample:
        events.append(event("sample_map", "This is the sample map that ships with the app, not a map from the box.",
                            map=a.map.name))
    placeholders = [t.name for t in state.enemy_types if t.placeholder]
    if placeholders:
        events.append(event("placeholders", f"Enemy stats still placeholders, enter them from the cards: {_names(placeholders)}.",
                            enemies=placeholders))
    # The team starts inside Start's area, so that area's tokens are revealed at once.
    _reveal(issue, board, start, names[0], events)
    events.append(event("turn", f"Turn 1: {names[0]}'s turn.", turn=1, member=names[0]))


def _next_map(state: State, a: NextMap, events: list[Event]) -> None:
    old = _issue(state)
    following, *rest = old.more_maps
    _start_issue(state, StartIssue(
        number=old.number, title=old.title, map=following, track=old.track, threat=old.start_threat,
        awareness=old.start_awareness, members=[m.name for m in old.members], mode="arcade", enemies=old.pool,
        more_maps=rest,
    ), events)


# --- The player's turn: moving ------------------------------------------------------------------


def _types_at(issue: Issue, c: Coord) -> list[str]:
    return sorted({g.enemy for g in issue.groups if g.at.c == c})


def _leave_cost(state: State, movers: int, c: Coord) -> int:
    per = movers if state.settings.leave_threat == "per_member" else 1
    return LEAVE_THREAT * len(_types_at(_issue(state), c)) * per


def _hazard_on_enter(state: State, waived: bool) -> bool:
    return state.settings.hazard_trigger in ("on_enter", "both") and not waived


def _move(state: State, a: Move, events: list[Event]) -> None:
    issue = _issue(state)
    board = Board.of(issue.map)
    mover = _member(issue, a.member)
    start = mover.at.c
    group = [mover]
    for name in a.with_members:
        other = _member(issue, name)
        if any(m.name == other.name for m in group):
            raise InputError(f"{name} is listed twice in the move.")
        if other.at.c != start:
            raise RuleError(f"{name} is not in {a.member}'s space {board.label(start)}, so can't come along.")
        group.append(other)
    for h in [*a.via, a.to]:
        if h.c not in board.spaces:
            raise InputError(f"{h.c} is not a space of the map.")
    if a.to.c == start and not a.via:
        raise RuleError(f"{a.member} is already on {board.label(start)}.")
    if a.via:
        path = [h.c for h in a.via] + [a.to.c]
        prev = start
        for c in path:
            if c not in board.adj[prev]:
                why = "a wall is in the way" if board.wall_between(prev, c) else "they are not adjacent"
                raise RuleError(f"Can't step from {board.label(prev)} to {board.label(c)}: {why}.")
            prev = c
    else:
        waived = a.waive_hazard

        def cost(x: Coord, y: Coord) -> int:
            return _leave_cost(state, len(group), x) + (
                HAZARD_THREAT if board.special(y) == "hazard" and _hazard_on_enter(state, waived) else 0
            )

        route = board.shortest_route(start, a.to.c, cost)
        if route is None:
            raise RuleError(f"No wall-free route leads from {board.label(start)} to {board.label(a.to.c)}.")
        path = route
    if len(path) > a.move:
        raise RuleError(
            f"{board.label(a.to.c)} is {len(path)} spaces away by that route; the card moves at most {a.move}."
        )

    # Walk the route: leaving spaces with enemies, hazards, caches and new areas as they come.
    names = [m.name for m in group]
    on_the_way: list[Event] = []
    walked, prev = [], start
    for i, c in enumerate(path):
        types = _types_at(issue, prev)
        if types:
            amount = _leave_cost(state, len(group), prev)
            per = f" × {len(group)} members" if state.settings.leave_threat == "per_member" and len(group) > 1 else ""
            _move_marker(
                issue, "threat", amount,
                f"leaving {board.label(prev)} with {_names(types)} there (+{LEAVE_THREAT} per enemy type{per})",
                on_the_way, "leave", space=board.label(prev), enemies=types, members=names,
            )
        walked.append(c)
        if board.special(c) == "hazard":
            if _hazard_on_enter(state, a.waive_hazard):
                _move_marker(issue, "threat", HAZARD_THREAT, f"moving into the hazard at {board.label(c)}", on_the_way,
                             "hazard", space=board.label(c), members=names, when="on_enter")
            elif a.waive_hazard:
                on_the_way.append(event("hazard_waived", f"Hazard at {board.label(c)}: the card waives it.",
                                        space=board.label(c), members=names))
        if board.special(c) == "cache" and Hex.of(c) not in issue.used_caches:
            issue.used_caches.append(Hex.of(c))
            on_the_way.append(_cache_reminder(state, board, c, a.member))
        revealed = _reveal(issue, board, c, a.member, on_the_way)
        prev = c
        if revealed and i < len(path) - 1:
            left = a.move - len(walked)
            on_the_way.append(event(
                "stop", f"{_names(names)} stop at {board.label(c)} to place the enemies; move on with a new move of "
                f"the remaining {left} space(s).", members=names, at=board.label(c), remaining=left,
            ))
            break
    for m in group:
        m.at = Hex.of(prev)
        m.hazard_waived = a.waive_hazard
    route = [board.label(c) for c in [start, *walked]]
    events.append(event(
        "move", f"{_names(names)} {'moves' if len(names) == 1 else 'move'} {' → '.join(route)} ({len(walked)} of {a.move}).",
        member=a.member, members=names, frm=route[0], to=route[-1], path=route, steps=len(walked), card=a.move,
    ))
    events.extend(on_the_way)


def _cache_reminder(state: State, board: Board, c: Coord, who: str) -> Event:
    players = len(_issue(state).members)
    per_player = state.settings.cache_reveal == "per_player"
    n = f"{players} upgrade cards (one per player)" if per_player else "the top 3 upgrade cards"
    return event(
        "cache",
        f"Supply cache at {board.label(c)} (first entered by {who}): reveal {n}, plus any revealed by recon; each "
        "player takes one, replacing it from the top of the deck; put the rest on the bottom. The cache is now used.",
        space=board.label(c), member=who, reveal=players if per_player else 3,
    )


def _reveal(issue: Issue, board: Board, c: Coord, who: str, events: list[Event]) -> bool:
    """Entering a space of an area turns up that area's face-down tokens (tokens in no area: their own space)."""
    area = board.area(c)
    hits = [t for t in issue.tokens if t.status == "face_down" and ((area and t.area == area) or _in_zone(t, c))]
    for t in hits:
        t.status, t.encountered_by = "revealed", who
    if hits:
        where = ", ".join(f"{board.label(t.at.c)} ({t.tier})" for t in hits)
        place = f"area {area}" if area else f"space {board.label(c)}"
        events.append(event(
            "reveal",
            f"{who} enters {place}: reveal its token(s) at {where} and place their enemies within the area "
            f"as each enemy card's setup says ({who} is the encountering player).",
            member=who, area=area, space=board.label(c),
            tokens=[{"token": issue.tokens.index(t), "at": board.label(t.at.c), "tier": t.tier} for t in hits],
        ))
    return bool(hits)


# --- The player's turn: spawning, attacking, manual ± ---------------------------------------------


def _add_group(issue: Issue, enemy: str, at: Coord, count: int) -> None:
    """Enemies of one type in one space are one group."""
    for g in issue.groups:
        if g.enemy == enemy and g.at.c == at:
            g.count += count
            return
    issue.groups.append(EnemyGroup(enemy=enemy, at=Hex.of(at), count=count))


def _spawn(state: State, a: Spawn, events: list[Event]) -> None:
    issue = _issue(state)
    board = Board.of(issue.map)
    if a.token >= len(issue.tokens) or issue.tokens[a.token].status != "revealed":
        waiting = [i for i, t in enumerate(issue.tokens) if t.status == "revealed"]
        raise InputError(f"Token {a.token} is not waiting to be placed; waiting: {', '.join(map(str, waiting))}.")
    token = issue.tokens[a.token]
    if not a.face.strip():
        raise InputError("Say what the token shows (1 to 40 characters).")
    zone = set(board.area_spaces(token.area)) if token.area else {token.at.c}
    for p in a.groups:
        _etype(state, p.enemy)  # refuses an unknown type
        if issue.pool and p.enemy not in issue.pool:
            raise RuleError(f"{p.enemy} are not in this arcade game; its enemies are {_names(issue.pool)}.")
        if p.at.c not in zone:
            where = f"area {token.area}" if token.area else f"space {board.label(token.at.c)}"
            raise RuleError(f"Setup places enemies within the token's {where}; {_label(board, p.at.c)} is outside it.")
    for p in a.groups:
        _add_group(issue, p.enemy, p.at.c, p.count)
    token.status, token.face = "resolved", a.face.strip()
    placed = ", ".join(f"{_etype(state, p.enemy).count_name(p.count)} on {board.label(p.at.c)}" for p in a.groups)
    events.append(event(
        "spawn",
        f"Token at {board.label(token.at.c)} ({token.tier}) shows {token.face}: {placed or 'nothing placed'} "
        f"(encountering player {token.encountered_by}).",
        token=a.token, at=board.label(token.at.c), tier=token.tier, face=token.face, member=token.encountered_by,
        placed=[{"enemy": p.enemy, "at": board.label(p.at.c), "count": p.count} for p in a.groups],
    ))


def _label(board: Board, c: Coord) -> str:
    return board.label(c) if c in board.spaces else str(c)


def _attack(state: State, a: Attack, events: list[Event]) -> None:
    issue = _issue(state)
    board = Board.of(issue.map)
    attacker = _member(issue, a.member)
    etype = _etype(state, a.enemy)
    group = next((g for g in issue.groups if g.enemy == a.enemy and g.at.c == a.at.c), None)
    if group is None:
        raise RuleError(f"There are no {a.enemy} on {_label(board, a.at.c)}.")
    dist = board.range_between(attacker.at.c, a.at.c, a.ignore_walls, state.settings.line_of_sight)
    if dist is None:
        raise RuleError(
            f"{board.label(a.at.c)} is not in a straight line from {a.member} on {board.label(attacker.at.c)} "
            "without crossing a wall or leaving the map."
        )
    if dist > a.range:
        raise RuleError(f"{board.label(a.at.c)} is range {dist} from {a.member}; the card reaches {a.range}.")
    total = group.damage + a.damage
    killed = min(group.count, total // etype.health)
    before = f", {group.damage} already taken this turn" if group.damage else ""
    text = (
        f"{a.member} deals {a.damage} to {a.enemy} on {board.label(a.at.c)} (range {dist} of {a.range}; "
        f"health {etype.health}{before}): {etype.count_name(killed)} removed"
    )
    target = _group_data(board, group)
    if killed == group.count:
        issue.groups.remove(group)
        text += "; the group is gone."
    else:
        group.count -= killed
        group.damage = total - killed * etype.health
        text += f"; {group.damage} damage stays on the next until the turn ends." if group.damage else "."
    events.append(event(
        "attack", text, member=a.member, group=target, damage=a.damage, range=dist, reach=a.range,
        killed=killed, left=target["count"] - killed, damage_left=group.damage if killed < target["count"] else 0,
    ))


def _adjust(state: State, a: Adjust, events: list[Event]) -> None:
    issue = _issue(state)
    if a.delta == 0:
        raise InputError(f"Change the {a.track} by -{MAX_TRACK} to +{MAX_TRACK}, not 0.")
    if not a.reason.strip():
        raise InputError("Give a reason of 1 to 80 characters (the card or effect).")
    _move_marker(issue, a.track, a.delta, a.reason.strip(), events, "card", reason=a.reason.strip())


# --- The enemy phase --------------------------------------------------------------------------------


@dataclass
class Team:
    """Where the team stands and how far every space is from each of them (walls respected)."""

    names: list[str]
    at: list[Coord]
    dist: dict[Coord, dict[Coord, int]]  # member space → (space → steps)

    @classmethod
    def of(cls, issue: Issue, board: Board) -> "Team":
        at = [m.at.c for m in issue.members]
        return cls([m.name for m in issue.members], at, {c: board.distances(c) for c in set(at)})

    def nearest(self, c: Coord) -> Optional[int]:
        ds = [d[c] for d in self.dist.values() if c in d]
        return min(ds) if ds else None

    def names_at(self, c: Coord) -> str:
        return _names([n for n, p in zip(self.names, self.at) if p == c])


@dataclass
class MovePlan:
    """A group's move: `options` (one = decided, several = a tie the rules leave), or none: it stays."""

    reason: str
    options: list[ChoiceOption]
    question: str = ""


def plan_move(board: Board, team: Team, group: EnemyGroup, etype: EnemyType) -> MovePlan:
    """Where a group goes: up to `move` steps along shortest wall-free routes toward the closest
    team member, split as evenly as possible over the distinct spaces those routes reach."""
    here = group.at.c
    if etype.move_rule == "stays":
        return MovePlan("its card says it does not move", [])
    if etype.move == 0:
        return MovePlan("its move is 0", [])
    closest = team.nearest(here)
    if closest is None:
        return MovePlan("no wall-free route leads to any team member", [])
    if closest == 0:
        return MovePlan(f"already in {team.names_at(here)}'s space", [])
    steps = min(etype.move, closest)
    reach = board.distances(here, limit=steps)
    targets = sorted(t for t, d in team.dist.items() if d.get(here) == closest)
    options: list[ChoiceOption] = []
    seen: dict[tuple, int] = {}
    why = ""
    for t in targets:
        from_t = team.dist[t]
        dests = sorted(c for c, d in reach.items() if d == steps and from_t.get(c) == closest - steps)
        base, extra = divmod(group.count, len(dests))
        routes = f"{_word(len(dests))} equally short routes" if len(dests) > 1 else "the shortest route"
        why = f"{routes} to {team.names_at(t)} ({closest} space{'s' if closest > 1 else ''} away)"
        for lucky in combinations(dests, extra):
            parts = [(c, base + (c in lucky)) for c in dests if base + (c in lucky) > 0]
            key = tuple(parts)
            if key in seen:  # two members behind the same routes: one option
                continue
            seen[key] = len(options)
            step = ", ".join(f"{etype.count_name(n)} {board.label(here)} → {board.label(c)}" for c, n in parts)
            label = ", ".join(f"{n} to {board.label(c)}" for c, n in parts)
            if len(targets) > 1:
                label += f" (toward {team.names_at(t)})"
            options.append(
                ChoiceOption(label=label, parts=[Part(at=Hex.of(c), count=n) for c, n in parts], step=f"{step}: {why}")
            )
    question = ""
    moving = f"{etype.count_name(group.count)} on {board.label(here)}"
    if len(targets) > 1:
        who = _names([team.names_at(t) for t in targets])
        question = f"{who} are equally close to {moving} ({closest} spaces): which way do they go?"
        if len(options) == 1:
            options[0].step = options[0].step.split(": ")[0] + f": toward {who}, equally close ({closest} spaces away)"
    elif len(options) > 1:
        n = len(options[0].parts)  # spaces that get miniatures
        if group.count < len(dests):
            ask = "which space does it take?" if group.count == 1 else f"which {n} spaces get one each?"
        else:
            extra = group.count % len(dests)
            ask = "which space gets one more?" if extra == 1 else f"which {extra} spaces get one more?"
        question = f"{moving}: {why}; {ask}"
    return MovePlan(why, options, question)


def danger(board: Board, team: Team, etype: EnemyType, option: ChoiceOption,
           sight: LineOfSight = "generous") -> tuple[int, int]:
    """How bad an option is for the team: groups it leaves in range of a member, then closeness."""
    in_range = sum(1 for p in option.parts if any(board.in_range(p.at.c, m, etype.range, sight=sight) for m in team.at))
    closeness = -sum(p.count * (team.nearest(p.at.c) or 0) for p in option.parts)
    return in_range, closeness


def default_order(state: State, board: Optional[Board] = None) -> list[int]:
    """The order shown to the players: closest group to the team first, then by type and space."""
    issue = _issue(state)
    board = board or Board.of(issue.map)
    team = Team.of(issue, board)

    def key(i: int):
        g = issue.groups[i]
        d = team.nearest(g.at.c)
        return (d if d is not None else 10**6, g.enemy, g.at.c)

    return sorted(range(len(issue.groups)), key=key)


def _enemy_phase(state: State, a: EnemyPhase, events: list[Event]) -> None:
    issue = _issue(state)
    board = Board.of(issue.map)
    n = len(issue.groups)
    if a.order:
        if sorted(a.order) != list(range(n)):
            raise InputError(f"The order must list each group number 0 to {n - 1} once (got {a.order}).")
        order = list(a.order)
        how = "the players' order" if order != default_order(state, board) else "this order"
    else:
        order, how = default_order(state, board), "this order"
    for g in issue.groups:
        if g.damage:
            events.append(event(
                "damage_wears_off",
                f"The {g.damage} damage on {g.enemy} at {board.label(g.at.c)} wears off: damage must come within one turn.",
                enemy=g.enemy, at=board.label(g.at.c), damage=g.damage,
            ))
            g.damage = 0
    issue.phase, issue.queue = "enemies", order
    listed = [_group_data(board, issue.groups[i]) for i in order]
    players = how == "the players' order"
    if order:
        listing = ", ".join(f"{_etype(state, g['enemy']).count_name(g['count'])} {g['at']}" for g in listed)
        events.append(event("enemy_phase", f"Enemy phase, in {how}: {listing}.", order=listed, players_order=players))
    else:
        events.append(event("enemy_phase", "Enemy phase: no enemies on the board.", order=[], players_order=False))
    _run_phase(state, board, events)


def _choose(state: State, a: Choose, events: list[Event]) -> None:
    issue = _issue(state)
    pending = issue.pending
    assert pending is not None
    if a.option >= len(pending.options):
        raise InputError(f"Pick one of the {len(pending.options)} options, 1 to {len(pending.options)} (got {a.option + 1}).")
    board = Board.of(issue.map)
    option = pending.options[a.option]
    events.append(event("choice", f"Players' choice {a.option + 1}: {option.label}.", option=a.option,
                        number=a.option + 1, label=option.label, by="players"))
    _take_option(board, issue, a.option, events)
    _run_phase(state, board, events)


def _run_phase(state: State, board: Board, events: list[Event]) -> None:
    """Each group in the queue: attack check (+threat once per group), then its move. A tie the
    rules leave becomes the players' choice (the `choose` moves); with the generous or smart
    setting the app picks one of those same options. Ends the phase and the turn when the queue
    is empty."""
    issue = _issue(state)
    team = Team.of(issue, board)
    sight = state.settings.line_of_sight
    while issue.queue:
        gi = issue.queue[0]
        g = issue.groups[gi]
        etype = _etype(state, g.enemy)
        who = sorted(
            {n for n, m in zip(team.names, team.at) if board.in_range(g.at.c, m, etype.range, sight=sight)},
            key=team.names.index,
        )
        if who and etype.threat:
            _move_marker(
                issue, "threat", etype.threat,
                f"{etype.count_name(g.count)} on {board.label(g.at.c)} {'has' if g.count == 1 else 'have'} "
                f"{_names(who)} in range {etype.range} (once per group)",
                events, "in_range", group=_group_data(board, g), members=who, range=etype.range,
            )
            if issue.threat + issue.awareness >= issue.track:
                return  # lost: _settle ends the issue
        plan = plan_move(board, team, g, etype)
        if not plan.options:
            g.acted = True
            stay = "stays" if g.count == 1 else "stay"
            events.append(event("enemy_stays", f"{etype.count_name(g.count)} on {board.label(g.at.c)} {stay} put: {plan.reason}.",
                                group=_group_data(board, g), reason=plan.reason))
            issue.queue.pop(0)
            continue
        if len(plan.options) == 1:
            _place_move(board, issue, gi, plan.options[0], events)
            issue.queue.pop(0)
            continue
        issue.pending = PendingChoice(group=gi, question=plan.question, options=plan.options)
        if state.settings.tie_break == "players_choose":
            events.append(event(
                "tie", f"Players decide: {plan.question} Options: " + "; ".join(
                    f"{i + 1}: {o.label}" for i, o in enumerate(plan.options)) + ".",
                group=_group_data(board, g), question=plan.question, options=[o.label for o in plan.options],
            ))
            return
        pick, how = tie_pick(state, board, team)
        option = plan.options[pick.option]
        events.append(event(
            "choice", f"Tie ({state.settings.tie_break} setting): of {len(plan.options)} options, {option.label} leaves {how}.",
            option=pick.option, number=pick.option + 1, label=option.label, by=state.settings.tie_break,
            options=len(plan.options),
        ))
        _take_option(board, issue, pick.option, events)
    _end_phase(state, board, events)


def tie_pick(state: State, board: Board, team: Team) -> tuple[Choose, str]:
    """The generous and smart settings' pick among the options offered to the players (the same
    `choose` moves): the fewest (most) groups left in range of the team, then the farthest
    (closest) from it; the first such option. Returns the pick and the reason in words."""
    issue = _issue(state)
    pending = issue.pending
    etype = _etype(state, issue.groups[pending.group].enemy)
    offered = [m.action for m in _moves_of(state, "choose")]
    scores = {c.option: danger(board, team, etype, pending.options[c.option], state.settings.line_of_sight)
              for c in offered}
    if state.settings.tie_break == "generous":
        best = min(offered, key=lambda c: (scores[c.option], c.option))
        return best, "the fewest groups left in range of the team, then the farthest from it"
    best = min(offered, key=lambda c: (tuple(-x for x in scores[c.option]), c.option))
    return best, "the most groups left in range of the team, then the closest to it"


def _take_option(board: Board, issue: Issue, index: int, events: list[Event]) -> None:
    """The paused group goes the chosen way; the phase goes on with the next group."""
    pending = issue.pending
    issue.pending = None
    _place_move(board, issue, pending.group, pending.options[index], events)
    issue.queue.pop(0)


def _place_move(board: Board, issue: Issue, gi: int, option: ChoiceOption, events: list[Event]) -> None:
    """Move a group's miniatures to the option's spaces: the group keeps the first part; the other
    parts become new groups (they have moved, so they don't act again this phase)."""
    g = issue.groups[gi]
    before = _group_data(board, g)
    first, *rest = option.parts
    g.at, g.count, g.acted, g.damage = first.at, first.count, True, 0
    for p in rest:
        issue.groups.append(EnemyGroup(enemy=g.enemy, at=p.at, count=p.count, acted=True))
    events.append(event(
        "enemy_move", option.step + ".", group=before, frm=before["at"],
        parts=[{"to": board.label(p.at.c), "count": p.count} for p in option.parts], split=len(option.parts) > 1,
    ))


def _end_phase(state: State, board: Board, events: list[Event]) -> None:
    """Groups of one type in one space merge; then the end of the turn: hazards, next player."""
    issue = _issue(state)
    merged: list[EnemyGroup] = []
    for g in issue.groups:
        same = next((m for m in merged if m.enemy == g.enemy and m.at == g.at), None)
        if same is None:
            merged.append(EnemyGroup(enemy=g.enemy, at=g.at, count=g.count))
        else:
            events.append(event("merge", f"{g.enemy} on {board.label(g.at.c)} merge into one group of {same.count + g.count}.",
                                enemy=g.enemy, at=board.label(g.at.c), count=same.count + g.count))
            same.count += g.count
    issue.groups = merged
    issue.phase, issue.queue = "players", []
    _end_turn(state, board, events)


def _end_turn(state: State, board: Board, events: list[Event]) -> None:
    issue = _issue(state)
    if state.settings.hazard_trigger in ("end_of_turn", "both"):
        for c in board.with_special("hazard"):
            here = [m for m in issue.members if m.at.c == c]
            counted = [m.name for m in here if not m.hazard_waived]
            if counted:
                _move_marker(
                    issue, "threat", HAZARD_THREAT,
                    f"{_names(counted)} {'ends' if len(counted) == 1 else 'end'} the turn on the hazard at "
                    f"{board.label(c)} (once for the space)",
                    events, "hazard", space=board.label(c), members=counted, when="end_of_turn",
                )
            elif here:
                names = [m.name for m in here]
                events.append(event("hazard_waived", f"Hazard at {board.label(c)}: the card that moved {_names(names)} there waives it.",
                                    space=board.label(c), members=names))
    if issue.threat + issue.awareness >= issue.track:
        return
    for m in issue.members:
        m.hazard_waived = False
    issue.turn += 1
    issue.active = (issue.active + 1) % len(issue.members)
    member = issue.members[issue.active].name
    events.append(event(
        "turn", f"Refill your hand to 3 cards (enter any awareness change, e.g. It's Closing In). "
        f"Turn {issue.turn}: {member}'s turn.", turn=issue.turn, member=member,
    ))


# --- Campaign, catalog and settings -----------------------------------------------------------------


def _set_enemy_type(state: State, a: SetEnemyType, events: list[Event]) -> None:
    new = a.enemy.model_copy(update={"placeholder": False})
    for i, t in enumerate(state.enemy_types):
        if t.name == new.name:
            state.enemy_types[i] = new
            break
    else:
        state.enemy_types.append(new)
    events.append(event(
        "enemy_card",
        f"{new.name}: threat {new.threat}, range {new.range}, health {new.health}, move {new.move} "
        f"({'stays put' if new.move_rule == 'stays' else 'toward the closest team member'}).",
        enemy=new.name, threat=new.threat, range=new.range, health=new.health, move=new.move, move_rule=new.move_rule,
    ))


def _unlock(state: State, a: Unlock, events: list[Event]) -> None:
    bucket = state.campaign.unlocked_cards if a.what == "card" else state.campaign.unlocked_enemies
    name = a.name.strip()
    if name in bucket:
        raise RuleError(f"{name} is already unlocked.")
    bucket.append(name)
    events.append(event("unlock", f"Unlocked {a.what} {name}: arcade mode now offers it.", what=a.what, name=name))


def _change_settings(state: State, a: ChangeSettings, events: list[Event]) -> None:
    changed = {k: getattr(a.settings, k) for k in Settings.model_fields if getattr(state.settings, k) != getattr(a.settings, k)}
    if not changed:
        raise RuleError("The settings are unchanged.")
    state.settings = a.settings
    events.append(event("settings", "Settings: " + ", ".join(f"{k} = {v}" for k, v in changed.items()) + ".",
                        changed=changed))


def _abandon(state: State, a: AbandonIssue, events: list[Event]) -> None:
    called = _issue(state).called
    events.append(event("abandoned", f"{called.capitalize()} abandoned: not counted as a win or a loss.", issue=called))
    state.issue = None


HANDLERS = {
    "start_issue": _start_issue,
    "next_map": _next_map,
    "move": _move,
    "spawn": _spawn,
    "attack": _attack,
    "adjust": _adjust,
    "enemy_phase": _enemy_phase,
    "choose": _choose,
    "set_enemy_type": _set_enemy_type,
    "unlock": _unlock,
    "change_settings": _change_settings,
    "abandon_issue": _abandon,
}


# --- Helpers the play screen calls ---------------------------------------------------------------


def move_targets(state: State, member: str, move: int) -> dict[Hex, int]:
    """Spaces `member` can reach with a move card of value `move` (wall-free steps)."""
    issue = _issue(state)
    board = Board.of(issue.map)
    start = _member(issue, member).at.c
    return {Hex.of(c): d for c, d in board.distances(start, limit=move).items() if d > 0}


def attack_targets(state: State, member: str, reach: int, ignore_walls: bool = False) -> list[int]:
    """Indices of enemy groups within `reach` of `member` in a straight line (walls respected)."""
    issue = _issue(state)
    board = Board.of(issue.map)
    at = _member(issue, member).at.c
    sight = state.settings.line_of_sight
    return [i for i, g in enumerate(issue.groups) if board.in_range(at, g.at.c, reach, ignore_walls, sight)]


def option_at(pending: PendingChoice, c: Coord) -> int:
    """The tie option a tap on space `c` picks: the one sending the most miniatures there (the
    players tap where the enemies go, or the space that gets one more). Refused when the space
    doesn't tell the options apart."""
    counts = [sum(p.count for p in o.parts if p.at.c == c) for o in pending.options]
    best = max(counts)
    if best == 0:
        raise InputError("No option sends enemies there: tap a numbered space, or a numbered button.")
    picks = [i for i, n in enumerate(counts) if n == best]
    if len(picks) > 1:
        raise InputError(
            "That space is in options " + _names([str(i + 1) for i in picks]) + " alike: tap another of their "
            "spaces, or a numbered button."
        )
    return picks[0]


def placement_spaces(state: State, token: int) -> list[Hex]:
    """Where a revealed token's enemies may be placed: the spaces of its area."""
    issue = _issue(state)
    board = Board.of(issue.map)
    t = issue.tokens[token]
    return [Hex.of(c) for c in (board.area_spaces(t.area) if t.area else [t.at.c])]


# =============================================================================================
# 4. describe / headline / outcome
# =============================================================================================


def describe(action: Action) -> str:
    k = action.kind
    if k == "start_issue":
        return f"start issue #{action.number}" if action.mode != "arcade" else f"start arcade on {action.map.name}"
    if k == "next_map":
        return "next arcade map"
    if k == "move":
        return f"move {action.member}"
    if k == "spawn":
        return f"place {action.face}"
    if k == "attack":
        return f"attack {action.enemy} ({action.damage})"
    if k == "adjust":
        return f"{action.track} {action.delta:+d} ({action.reason})"
    if k == "enemy_phase":
        return "enemy phase"
    if k == "choose":
        return f"enemy tie: option {action.option + 1}"
    if k == "set_enemy_type":
        return f"enemy card {action.enemy.name}"
    if k == "unlock":
        return f"unlock {action.name}"
    if k == "change_settings":
        return "change settings"
    return "abandon issue"


def headline(state: State) -> str:
    issue = state.issue
    if issue is None:
        if state.settings.mode == "story":
            return f"Story mode · issue #{state.campaign.unlocked_issue} next"
        return "Arcade mode · pick a map"
    head = f"Issue #{issue.number} · Turn {issue.turn}" if issue.mode == "story" else f"Arcade · Turn {issue.turn}"
    if issue.over:
        return f"{head} · {issue.phase}"
    phase = "enemies" if issue.phase == "enemies" else issue.members[issue.active].name
    return f"{head} · {phase} · threat {issue.threat} / awareness {issue.awareness} of {issue.track}"


def outcome(state: State) -> Optional[str]:
    """The finished issue's result until the next one starts (the campaign itself goes on)."""
    issue = state.issue
    if issue is None or not issue.over:
        return None
    return f"{'Won' if issue.phase == 'won' else 'Lost'} {issue.called}"


GAME = Game(
    key="human_ethos",
    title="The Singularity War: Human Ethos",
    summary="Threat and awareness, a twin of the hex map, and the automated enemy phase, in story-mode campaigns.",
    Settings=Settings,
    State=State,
    Action=Action,
    new_state=new_state,
    apply=apply,
    describe=describe,
    headline=headline,
    outcome=outcome,
    moves=moves,
    rolls_dice=False,  # a deckbuilder: the enemies follow rules, the players' cards are drawn, not rolled
    refusal=refusal,
)
