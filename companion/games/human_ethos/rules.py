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

Every sentence a player reads (events, refusals, move labels, the enemies' reasons, the headline)
is a `Msg`: kept as its message id and values, said in each phone's language when shown. What the
state itself keeps in words (a paused tie's question and options) stays English, as saves have
always held it; `pending_words` says it again as messages. Names (team members, enemy types, maps,
cards) are the players' and the box's own, never translated; event data keeps plain values.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import combinations
from typing import Annotated, Literal, Optional, Union

from pydantic import Field

from companion.games.base import Dice, Event, Game, InputError, Model, RuleError, Words, event, field_specs
from companion.games.base import Move as LegalMove
from companion.i18n import N_, Msg, NMsg

from .enemies import BRINGS_A_COMMON_ENCOUNTER, DEFAULT_ENEMY_TYPES, EnemyType, face_words
from .hexmap import Board, Coord, Hex, HexMap, LineOfSight, joined, map_name, require_playable

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
        "story", description=N_("Story: issues #1, #2, … in order, a win unlocks the next. Arcade: any map.")
    )
    leave_threat: Literal["per_move", "per_member"] = Field(
        "per_move", description=N_("Leaving a space with enemies: +2 per enemy type once per move, or per member moving")
    )
    hazard_trigger: Literal["end_of_turn", "on_enter", "both"] = Field(
        "end_of_turn", description=N_("Hazard +4 when members end the turn there (map key), on entering (Moving), or both")
    )
    tie_break: Literal["players_choose", "generous", "smart"] = Field(
        "players_choose", description=N_("Enemy ties the rules leave: the players pick, or the app picks kindly / harshly")
    )
    cache_reveal: Literal["3", "per_player"] = Field(
        "3", description=N_("Cards a supply cache reveals: 3 (rules section) or one per player (quick reference)")
    )
    # Left out of saved states while it has its default, so campaigns saved before the setting
    # existed still replay to exactly their recorded states.
    line_of_sight: LineOfSight = Field(
        "generous", exclude_if=lambda v: v == "generous",
        description=N_("Range along an edge or through a corner: blocked only if both sides are (generous), or either (strict)"),
    )


# The settings' choices as the settings form shows them (`_(value.replace("_", " "))`).
CHOICE_WORDS = (N_("story"), N_("arcade"), N_("per move"), N_("per member"), N_("end of turn"), N_("on enter"),
                N_("both"), N_("players choose"), N_("generous"), N_("smart"), N_("per player"), N_("strict"))

# A changed setting as the history says it: its name and value, as the code spells them in English.
SETTING_WORDS = {
    "mode": Msg("mode"), "leave_threat": Msg("leave_threat"), "hazard_trigger": Msg("hazard_trigger"),
    "tie_break": Msg("tie_break"), "cache_reveal": Msg("cache_reveal"), "line_of_sight": Msg("line_of_sight"),
    "story": Msg("story"), "arcade": Msg("arcade"), "per_move": Msg("per_move"), "per_member": Msg("per_member"),
    "end_of_turn": Msg("end_of_turn"), "on_enter": Msg("on_enter"), "both": Msg("both"),
    "players_choose": Msg("players_choose"), "generous": Msg("generous"), "smart": Msg("smart"),
    "per_player": Msg("per_player"), "strict": Msg("strict"),
}


class Member(Model):
    name: str = Field(min_length=1, max_length=20)
    at: Hex
    hazard_waived: bool = False  # moved this turn by a card that waives the hazard


class EnemyGroup(Model):
    """Miniatures of one type in one space. `damage` is damage taken this turn toward the next kill."""

    enemy: str
    at: Hex
    count: int = Field(ge=1, le=999)
    damage: int = Field(0, ge=0)
    acted: bool = False  # already attacked and moved in this enemy phase


class Token(Model):
    """An encounter token on a Common/Elite space: face down until a member enters its area."""

    at: Hex
    tier: Literal["common", "elite"]
    area: str
    status: Literal["face_down", "revealed", "resolved"] = "face_down"
    face: str = ""
    encountered_by: str = ""
    from_elite: bool = False  # drawn for an elite token that brings a common encounter (not on a space of its own)


class Part(Model):
    at: Hex
    count: int = Field(ge=1)


class ChoiceOption(Model):
    """One way a tied group may go. Its words are English as saves keep them (`pending_words` says
    them in each phone's language)."""

    label: str
    parts: list[Part]
    step: str  # the move in words, as the history shows it


class PendingChoice(Model):
    """The enemy phase is paused on a tie the rules leave to the players (its words in English, as
    saves have always kept them: see `pending_words`)."""

    group: int
    question: str
    options: list[ChoiceOption]


class Issue(Model):
    number: int = Field(ge=1, le=MAX_ISSUE)
    title: str = ""
    mode: Literal["story", "arcade"] = "story"
    pool: list[str] = Field(default_factory=list)  # arcade: the enemy types this game uses
    more_maps: list[HexMap] = Field(default_factory=list)  # arcade: maps still to play after this one
    start_threat: int = Field(0, ge=0)  # arcade: the next map starts the track here again
    start_awareness: int = Field(0, ge=0)
    map: HexMap
    track: int = Field(ge=2, le=MAX_TRACK)
    threat: int = Field(ge=0)
    awareness: int = Field(ge=0)
    members: list[Member]
    active: int = Field(0, ge=0)  # index of the member whose player takes this turn
    turn: int = 1
    phase: Literal["players", "enemies", "won", "lost"] = "players"
    groups: list[EnemyGroup] = Field(default_factory=list)
    tokens: list[Token] = Field(default_factory=list)
    used_caches: list[Hex] = Field(default_factory=list)
    queue: list[int] = Field(default_factory=list)  # enemy phase: groups still to act, in order
    pending: Optional[PendingChoice] = None

    @property
    def over(self) -> bool:
        return self.phase in ("won", "lost")

    @property
    def called(self) -> str:
        """How the events' data name it: 'issue #3' in story mode, 'arcade map Plaza' in arcade (the
        same in words: `named`)."""
        return self.named.english

    @property
    def named(self) -> Msg:
        """The issue in words, in each phone's language: 'issue #3', 'arcade map Plaza'."""
        return Msg("issue #{number}", number=str(self.number)) if self.mode == "story" else \
            Msg("arcade map {map}", map=map_name(self.map))

    @property
    def named_at_start(self) -> Msg:
        """The same at the start of a sentence: 'Issue #3', 'Arcade map Plaza'."""
        return Msg("Issue #{number}", number=str(self.number)) if self.mode == "story" else \
            Msg("Arcade map {map}", map=map_name(self.map))


class IssueRecord(Model):
    issue: int
    wins: int = 0
    losses: int = 0


class Campaign(Model):
    unlocked_issue: int = Field(1, ge=1)  # the highest story issue that may be played
    records: list[IssueRecord] = Field(default_factory=list)
    arcade_wins: int = 0  # arcade maps won
    arcade_losses: int = 0  # arcade maps lost
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
    track: int = Field(ge=2, le=MAX_TRACK, description=N_("Spaces on the threat/awareness track"))
    threat: int = Field(0, ge=0, le=MAX_TRACK)
    awareness: int = Field(0, ge=0, le=MAX_TRACK)
    members: list[str] = Field(min_length=1, max_length=MAX_MEMBERS, description=N_("Team members in turn order"))
    mode: Optional[Literal["story", "arcade"]] = Field(None, description=N_("Empty: the campaign's mode setting"))
    enemies: list[str] = Field(
        default_factory=list, max_length=40,
        description=N_("Arcade: the enemy types in play (the box's and the unlocked ones); empty: every known type"),
    )
    more_maps: list[HexMap] = Field(default_factory=list, max_length=9,
                                    description=N_("Arcade: maps to play next, in order"))


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
    move: int = Field(ge=1, le=20, description=N_("The card's movement value"))
    via: list[Hex] = Field(default_factory=list, max_length=20)
    with_members: list[str] = Field(default_factory=list, max_length=MAX_MEMBERS)
    waive_hazard: bool = Field(False, description=N_("The card says hazards don't raise the threat"))


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
    "start_issue": Msg("Start an issue"), "next_map": Msg("Next arcade map"), "move": Msg("Move (a movement card)"),
    "spawn": Msg("Place a revealed token's enemies"), "attack": Msg("Attack (a damage card)"),
    "adjust": Msg("Threat or awareness ± (a card)"), "enemy_phase": Msg("Run the enemy phase"),
    "choose": Msg("Pick the enemies' way"), "set_enemy_type": Msg("Enter an enemy card"),
    "unlock": Msg("Unlock a card or enemy"), "change_settings": Msg("Change the settings"),
    "abandon_issue": Msg("Abandon the issue"),
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
        return [LegalMove(kind=kind, label=Msg("Next map: {map}", map=map_name(issue.more_maps[0])), action=NextMap())]
    if kind == "abandon_issue":
        return [LegalMove(kind=kind, label=label, action=AbandonIssue())]
    if kind == "enemy_phase":
        return [LegalMove(kind=kind, label=label, action=EnemyPhase())]
    if kind == "choose":
        labels = pending_words(state)[1]
        return [LegalMove(kind=kind, label=Msg("{number}: {option}", number=i + 1, option=labels[i]),
                          action=Choose(option=i))
                for i in range(len(issue.pending.options))]
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


def refusal(state: State, action: Action) -> Optional[Msg]:
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


def _not_now(state: State, kind: str) -> Msg:
    issue = state.issue
    if kind == "next_map":
        return Msg("Only after winning an arcade map with more maps to play.")
    if issue is None or issue.over:
        return Msg("No issue is being played: start one first.")
    if issue.pending is not None:
        return Msg("The enemy phase is waiting for the players to pick one of the options.")
    if any(t.status == "revealed" for t in issue.tokens):
        return Msg("Place the enemies of the revealed encounter tokens first.")
    if kind == "start_issue":
        return Msg("{issue} is still being played: finish or abandon it first.", issue=issue.named_at_start)
    if kind == "choose":
        return Msg("There is no tie to choose for.")
    if kind == "spawn":
        return Msg("No encounter token is waiting to be placed.")
    if kind == "attack":
        return Msg("There are no enemies on the board to attack.")
    return Msg("'{kind}' is not allowed now.", kind=kind)


# --- small helpers -----------------------------------------------------------------------------


def _issue(state: State) -> Issue:
    assert state.issue is not None
    return state.issue


def _etype(state: State, name: str) -> EnemyType:
    for t in state.enemy_types:
        if t.name == name:
            return t
    known = ", ".join(t.name for t in state.enemy_types)
    raise InputError(Msg("Unknown enemy type {name}; known types: {known}.", name=repr(name), known=known))


def _member(issue: Issue, name: str) -> Member:
    for m in issue.members:
        if m.name == name:
            return m
    raise InputError(Msg("No team member is called {name}; the team is {team}.", name=repr(name),
                         team=_names(m.name for m in issue.members)))


def _names(names) -> Words:
    """'Max', 'Max and Ana', 'Max, Ana and Kim' (the names may be messages themselves)."""
    names = list(names)
    if not names:
        return ""
    if len(names) == 1:
        return names[0]
    return Msg("{names} and {last}", names=joined(names[:-1]), last=names[-1])


# "two equally short routes", … in words as far as ten (a plain number beyond).
_ROUTES = {2: Msg("two equally short routes"), 3: Msg("three equally short routes"),
           4: Msg("four equally short routes"), 5: Msg("five equally short routes"),
           6: Msg("six equally short routes"), 7: Msg("seven equally short routes"),
           8: Msg("eight equally short routes"), 9: Msg("nine equally short routes"),
           10: Msg("ten equally short routes")}


def _routes(n: int) -> Msg:
    return _ROUTES.get(n) or Msg("{n} equally short routes", n=n)


def _track_text(issue: Issue) -> Msg:
    return Msg("threat {threat} + awareness {awareness} of {length}", threat=issue.threat, awareness=issue.awareness,
               length=issue.track)


TRACK_WORDS = {"threat": Msg("Threat"), "awareness": Msg("Awareness")}


def _move_marker(issue: Issue, track: str, amount: int, why: Words, events: list[Event], cause: str, **data) -> None:
    """Move threat or awareness. The markers stop where they meet (the loss) and never go below 0.

    The event says why (`cause`: leave, hazard, in_range or card, and its data: the group, the
    space, the members, the card), the amount asked, the amount applied, and where both markers are."""
    old = getattr(issue, track)
    room = issue.track - issue.threat - issue.awareness
    applied = min(amount, room) if amount > 0 else max(amount, -old)
    setattr(issue, track, old + applied)
    said = dict(track=TRACK_WORDS[track], amount=f"{amount:+d}", why=why, now=_track_text(issue))
    if applied == amount:
        text = Msg("{track} {amount}: {why}. Now {now}.", **said)
    elif amount > 0:
        text = Msg("{track} {amount}: {why} (stopped where the markers meet). Now {now}.", **said)
    else:
        text = Msg("{track} {amount}: {why} (stopped at 0). Now {now}.", **said)
    events.append(event(
        "track", text,
        track=track, amount=amount, applied=applied, cause=cause, **data,
        threat=issue.threat, awareness=issue.awareness, length=issue.track,
    ))


def _group_data(board: Board, g: EnemyGroup) -> dict:
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
        events.append(event("lost", Msg("Threat and awareness meet ({track}): {issue} is lost.", track=_track_text(issue),
                                        issue=issue.named),
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
        if board.area(end):
            text = Msg("Every team member is on End {end} and its area {area} is clear of enemies: {issue} is won.",
                       end=board.label(end), area=board.area(end), issue=issue.named)
        else:
            text = Msg("Every team member is on End {end} and its space is clear of enemies: {issue} is won.",
                       end=board.label(end), issue=issue.named)
        events.append(event(
            "won", text,
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
                events.append(event("progress", Msg("Arcade: next map {map} ({n} to go).", map=map_name(issue.more_maps[0]),
                                                    n=len(issue.more_maps)),
                                    mode="arcade", won=True, next_map=nxt, maps_left=len(issue.more_maps)))
            else:
                events.append(event("progress", Msg("Arcade: the run is complete."), mode="arcade", won=True, maps_left=0))
        else:
            camp.arcade_losses += 1
            events.append(event("progress", Msg("Arcade: the run ends here."), mode="arcade", won=False))
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
            events.append(event("progress", Msg("Story: issue #{number} is unlocked (same team and decks).",
                                                number=str(camp.unlocked_issue)),
                                mode="story", won=True, issue=issue.number, unlocked=camp.unlocked_issue))
    else:
        rec.losses += 1
        events.append(event("progress", Msg("Story: try issue #{number} again to move on.", number=str(issue.number)),
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
        raise RuleError(Msg("Issue #{number} is locked: story mode plays issues in order (#{next} is next).",
                            number=str(a.number), next=str(camp.unlocked_issue)))
    pool: list[str] = []
    if mode == "arcade":
        offered = arcade_offer(state)
        missing = [n for n in camp.unlocked_enemies if n not in {t.name for t in state.enemy_types}]
        for name in a.enemies:
            if name not in offered:
                if name in missing:
                    raise InputError(Msg("{name} is not offered in arcade (enter its enemy card first); offered: "
                                         "{offered}.", name=name, offered=_names(offered)))
                raise InputError(Msg("{name} is not offered in arcade; offered: {offered}.", name=name,
                                     offered=_names(offered)))
        pool = list(dict.fromkeys(a.enemies)) or offered
        for m in a.more_maps:
            require_playable(m)
    elif a.enemies or a.more_maps:
        raise InputError(Msg("Story issues use the setup card's enemies and one map; enemy pools and map runs are "
                             "arcade."))
    if a.threat + a.awareness >= a.track:
        raise InputError(Msg("Starting threat + awareness must be below the track length {length} (got {threat} + "
                             "{awareness}).", length=a.track, threat=a.threat, awareness=a.awareness))
    names = [n.strip() for n in a.members]
    if any(not n or len(n) > 20 for n in names) or len(set(names)) != len(names):
        raise InputError(Msg("Team members need distinct names of 1 to 20 characters."))
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
    if mode == "story":
        what = (Msg("Issue #{number} “{title}”", number=str(a.number), title=a.title) if a.title
                else Msg("Issue #{number}", number=str(a.number)))
    else:
        what = Msg("Arcade map “{title}”", title=a.title) if a.title else Msg("Arcade map")
    events.append(event(
        "issue_started",
        NMsg("{what} begins on {map}: {track} (they meet at {length}). Team on Start {start}: {team}; {n} encounter "
             "token(s) face down.",
             "{what} begins on {map}: {track} (they meet at {length}). Team on Start {start}: {team}; {n} encounter "
             "token(s) face down.", len(tokens),
             what=what, map=map_name(a.map), track=_track_text(issue), length=a.track, start=board.label(start),
             team=_names(names)),
        issue=issue.called, mode=mode, number=a.number, title=a.title, map=a.map.name, length=a.track,
        threat=a.threat, awareness=a.awareness, start=board.label(start), members=names, tokens=len(tokens),
    ))
    if mode == "arcade":
        cards = camp.unlocked_cards
        more = [m.name for m in a.more_maps]
        events.append(event(
            "arcade_pool",
            Msg("Arcade enemies: {enemies}. Unlocked cards to shuffle in: {cards}.", enemies=_names(pool),
                cards=_names(cards) if cards else Msg("none yet"))
            + (" " + NMsg("Then {n} more map(s): {maps}.", "Then {n} more map(s): {maps}.", len(more),
                          maps=_names(map_name(m) for m in a.more_maps))
               if more else ""),
            enemies=pool, cards=list(cards), more_maps=more,
        ))
    if a.map.sample:
        events.append(event("sample_map", Msg("This is the sample map that ships with the app, not a map from the box."),
                            map=a.map.name))
    placeholders = [t.name for t in state.enemy_types if t.placeholder]
    if placeholders:
        events.append(event("placeholders", Msg("Enemy stats still placeholders, enter them from the cards: {enemies}.",
                                                enemies=_names(placeholders)),
                            enemies=placeholders))
    # The team starts inside Start's area, so that area's tokens are revealed at once.
    _reveal(issue, board, start, names[0], events)
    events.append(event("turn", Msg("Turn {turn}: {member}'s turn.", turn=1, member=names[0]), turn=1, member=names[0]))


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
            raise InputError(Msg("{name} is listed twice in the move.", name=name))
        if other.at.c != start:
            raise RuleError(Msg("{name} is not in {member}'s space {space}, so can't come along.", name=name,
                                member=a.member, space=board.label(start)))
        group.append(other)
    for h in [*a.via, a.to]:
        if h.c not in board.spaces:
            raise InputError(Msg("{space} is not a space of the map.", space=str(h.c)))
    if a.to.c == start and not a.via:
        raise RuleError(Msg("{member} is already on {space}.", member=a.member, space=board.label(start)))
    if a.via:
        path = [h.c for h in a.via] + [a.to.c]
        prev = start
        for c in path:
            if c not in board.adj[prev]:
                if board.wall_between(prev, c):
                    raise RuleError(Msg("Can't step from {frm} to {to}: a wall is in the way.", frm=board.label(prev),
                                        to=board.label(c)))
                raise RuleError(Msg("Can't step from {frm} to {to}: they are not adjacent.", frm=board.label(prev),
                                    to=board.label(c)))
            prev = c
    else:
        waived = a.waive_hazard

        def cost(x: Coord, y: Coord) -> int:
            return _leave_cost(state, len(group), x) + (
                HAZARD_THREAT if board.special(y) == "hazard" and _hazard_on_enter(state, waived) else 0
            )

        route = board.shortest_route(start, a.to.c, cost)
        if route is None:
            raise RuleError(Msg("No wall-free route leads from {frm} to {to}.", frm=board.label(start),
                                to=board.label(a.to.c)))
        path = route
    if len(path) > a.move:
        raise RuleError(Msg("{space} is {n} spaces away by that route; the card moves at most {card}.",
                            space=board.label(a.to.c), n=len(path), card=a.move))

    # Walk the route: leaving spaces with enemies, hazards, caches and new areas as they come.
    names = [m.name for m in group]
    on_the_way: list[Event] = []
    walked, prev = [], start
    for i, c in enumerate(path):
        types = _types_at(issue, prev)
        if types:
            amount = _leave_cost(state, len(group), prev)
            if state.settings.leave_threat == "per_member" and len(group) > 1:
                why = Msg("leaving {space} with {enemies} there (+{amount} per enemy type × {n} members)",
                          space=board.label(prev), enemies=_names(types), amount=LEAVE_THREAT, n=len(group))
            else:
                why = Msg("leaving {space} with {enemies} there (+{amount} per enemy type)", space=board.label(prev),
                          enemies=_names(types), amount=LEAVE_THREAT)
            _move_marker(issue, "threat", amount, why, on_the_way, "leave", space=board.label(prev), enemies=types,
                         members=names)
        walked.append(c)
        if board.special(c) == "hazard":
            if _hazard_on_enter(state, a.waive_hazard):
                _move_marker(issue, "threat", HAZARD_THREAT, Msg("moving into the hazard at {space}", space=board.label(c)),
                             on_the_way, "hazard", space=board.label(c), members=names, when="on_enter")
            elif a.waive_hazard:
                on_the_way.append(event("hazard_waived", Msg("Hazard at {space}: the card waives it.", space=board.label(c)),
                                        space=board.label(c), members=names))
        if board.special(c) == "cache" and Hex.of(c) not in issue.used_caches:
            issue.used_caches.append(Hex.of(c))
            on_the_way.append(_cache_reminder(state, board, c, a.member))
        revealed = _reveal(issue, board, c, a.member, on_the_way)
        prev = c
        if revealed and i < len(path) - 1:
            left = a.move - len(walked)
            on_the_way.append(event(
                "stop", NMsg("{who} stop at {space} to place the enemies; move on with a new move of the remaining {n} "
                             "space(s).",
                             "{who} stop at {space} to place the enemies; move on with a new move of the remaining {n} "
                             "space(s).", left, who=_names(names), space=board.label(c)),
                members=names, at=board.label(c), remaining=left,
            ))
            break
    for m in group:
        m.at = Hex.of(prev)
        m.hazard_waived = a.waive_hazard
    route = [board.label(c) for c in [start, *walked]]
    events.append(event(
        "move", NMsg("{who} moves {route} ({steps} of {card}).", "{who} move {route} ({steps} of {card}).", len(names),
                     who=_names(names), route=" → ".join(route), steps=len(walked), card=a.move),
        member=a.member, members=names, frm=route[0], to=route[-1], path=route, steps=len(walked), card=a.move,
    ))
    events.extend(on_the_way)


def _cache_reminder(state: State, board: Board, c: Coord, who: str) -> Event:
    players = len(_issue(state).members)
    per_player = state.settings.cache_reveal == "per_player"
    n = (NMsg("{n} upgrade card (one per player)", "{n} upgrade cards (one per player)", players) if per_player
         else Msg("the top 3 upgrade cards"))
    return event(
        "cache",
        Msg("Supply cache at {space} (first entered by {member}): reveal {cards}, plus any revealed by recon; each "
            "player takes one, replacing it from the top of the deck; put the rest on the bottom. The cache is now used.",
            space=board.label(c), member=who, cards=n),
        space=board.label(c), member=who, reveal=players if per_player else 3,
    )


def _reveal(issue: Issue, board: Board, c: Coord, who: str, events: list[Event]) -> bool:
    """Entering a space of an area turns up that area's face-down tokens (tokens in no area: their own space)."""
    area = board.area(c)
    hits = [t for t in issue.tokens if t.status == "face_down" and ((area and t.area == area) or _in_zone(t, c))]
    for t in hits:
        t.status, t.encountered_by = "revealed", who
    if hits:
        where = joined(_tiered(board.label(t.at.c), t.tier) for t in hits)
        place = Msg("area {area}", area=area) if area else Msg("space {space}", space=board.label(c))
        events.append(event(
            "reveal",
            NMsg("{member} enters {place}: reveal its token(s) at {where} and place their enemies within the area as "
                 "each enemy card's setup says ({member} is the encountering player).",
                 "{member} enters {place}: reveal its token(s) at {where} and place their enemies within the area as "
                 "each enemy card's setup says ({member} is the encountering player).", len(hits),
                 member=who, place=place, where=where),
            member=who, area=area, space=board.label(c),
            tokens=[{"token": issue.tokens.index(t), "at": board.label(t.at.c), "tier": t.tier} for t in hits],
        ))
    return bool(hits)


def _tiered(space: str, tier: str) -> Msg:
    """A token's space and tier: 'C3 (common)', 'E5 (elite)'."""
    return Msg("{space} (elite)", space=space) if tier == "elite" else Msg("{space} (common)", space=space)


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
        raise InputError(Msg("Token {token} is not waiting to be placed; waiting: {waiting}.", token=str(a.token),
                             waiting=", ".join(map(str, waiting))))
    token = issue.tokens[a.token]
    if not a.face.strip():
        raise InputError(Msg("Say what the token shows (1 to 40 characters)."))
    zone = set(board.area_spaces(token.area)) if token.area else {token.at.c}
    for p in a.groups:
        _etype(state, p.enemy)  # refuses an unknown type
        if issue.pool and p.enemy not in issue.pool:
            raise RuleError(Msg("{enemy} are not in this arcade game; its enemies are {pool}.", enemy=p.enemy,
                                pool=_names(issue.pool)))
        if p.at.c not in zone:
            where = (Msg("area {area}", area=token.area) if token.area
                     else Msg("space {space}", space=board.label(token.at.c)))
            raise RuleError(Msg("Setup places enemies within the token's {where}; {space} is outside it.", where=where,
                                space=_label(board, p.at.c)))
    for p in a.groups:
        _add_group(issue, p.enemy, p.at.c, p.count)
    token.status, token.face = "resolved", a.face.strip()
    brings = token.tier == "elite" and token.face in BRINGS_A_COMMON_ENCOUNTER
    placed = joined(Msg("{enemies} on {space}", enemies=_etype(state, p.enemy).count_name(p.count),
                        space=board.label(p.at.c)) for p in a.groups)
    events.append(event(
        "spawn",
        Msg("Token at {token} shows {face}: {placed} (encountering player {member}).",
            token=_tiered(board.label(token.at.c), token.tier), face=face_words(token.face),
            placed=placed or Msg("nothing placed"), member=token.encountered_by),
        token=a.token, at=board.label(token.at.c), tier=token.tier, face=token.face, member=token.encountered_by,
        placed=[{"enemy": p.enemy, "at": board.label(p.at.c), "count": p.count} for p in a.groups],
    ))
    if brings:
        # Its common encounter waits like a revealed token, in the same area, for the same player.
        issue.tokens.append(Token(at=token.at, tier="common", area=token.area, status="revealed",
                                  encountered_by=token.encountered_by, from_elite=True))
        events.append(event(
            "common_encounter",
            Msg("The token also brings a common encounter: draw a common encounter token (one not on the map), turn it "
                "face up and place its enemies within the same area ({member} is the encountering player).",
                member=token.encountered_by),
            token=len(issue.tokens) - 1, at=board.label(token.at.c), member=token.encountered_by,
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
        raise RuleError(Msg("There are no {enemy} on {space}.", enemy=a.enemy, space=_label(board, a.at.c)))
    dist = board.range_between(attacker.at.c, a.at.c, a.ignore_walls, state.settings.line_of_sight)
    if dist is None:
        raise RuleError(Msg("{space} is not in a straight line from {member} on {at} without crossing a wall or leaving "
                            "the map.", space=board.label(a.at.c), member=a.member, at=board.label(attacker.at.c)))
    if dist > a.range:
        raise RuleError(Msg("{space} is range {range} from {member}; the card reaches {reach}.", space=board.label(a.at.c),
                            range=dist, member=a.member, reach=a.range))
    total = group.damage + a.damage
    killed = min(group.count, total // etype.health)
    said = dict(member=a.member, damage=a.damage, enemy=a.enemy, space=board.label(a.at.c), range=dist, reach=a.range,
                health=etype.health, removed=etype.count_name(killed))
    if group.damage:
        dealt = Msg("{member} deals {damage} to {enemy} on {space} (range {range} of {reach}; health {health}, {taken} "
                    "already taken this turn): {removed} removed", taken=group.damage, **said)
    else:
        dealt = Msg("{member} deals {damage} to {enemy} on {space} (range {range} of {reach}; health {health}): "
                    "{removed} removed", **said)
    target = _group_data(board, group)
    if killed == group.count:
        issue.groups.remove(group)
        text = Msg("{attack}; the group is gone.", attack=dealt)
    else:
        group.count -= killed
        group.damage = total - killed * etype.health
        text = (Msg("{attack}; {damage} damage stays on the next until the turn ends.", attack=dealt, damage=group.damage)
                if group.damage else dealt + ".")
    events.append(event(
        "attack", text, member=a.member, group=target, damage=a.damage, range=dist, reach=a.range,
        killed=killed, left=target["count"] - killed, damage_left=group.damage if killed < target["count"] else 0,
    ))


def _adjust(state: State, a: Adjust, events: list[Event]) -> None:
    issue = _issue(state)
    if a.delta == 0:
        raise InputError(Msg("Change the threat by -{max} to +{max}, not 0.", max=MAX_TRACK) if a.track == "threat"
                         else Msg("Change the awareness by -{max} to +{max}, not 0.", max=MAX_TRACK))
    if not a.reason.strip():
        raise InputError(Msg("Give a reason of 1 to 80 characters (the card or effect)."))
    _move_marker(issue, a.track, a.delta, a.reason.strip(), events, "card", reason=a.reason.strip())


# --- The enemy phase --------------------------------------------------------------------------------


@dataclass
class Team:
    """Where the team stands and how far every space is from each of them (walls respected)."""

    names: list[str]
    at: list[Coord]
    dist: dict[Coord, dict[Coord, int]]  # member space → (space → steps)

    @classmethod
    def of(cls, issue: Issue, board: Board) -> Team:
        at = [m.at.c for m in issue.members]
        return cls([m.name for m in issue.members], at, {c: board.distances(c) for c in set(at)})

    def nearest(self, c: Coord) -> Optional[int]:
        ds = [d[c] for d in self.dist.values() if c in d]
        return min(ds) if ds else None

    def names_at(self, c: Coord) -> Words:
        return _names([n for n, p in zip(self.names, self.at) if p == c])


@dataclass
class MovePlan:
    """A group's move: `options` (one = decided, several = a tie the rules leave), or none: it stays.
    The options' words are English, as the state keeps them; `labels` and `steps` say the same for
    every phone."""

    reason: Words
    options: list[ChoiceOption]
    question: Words = ""
    labels: list[Words] = field(default_factory=list)
    steps: list[Words] = field(default_factory=list)


def _english(words: Words) -> str:
    return words.english if isinstance(words, Msg) else words


def plan_move(board: Board, team: Team, group: EnemyGroup, etype: EnemyType) -> MovePlan:
    """Where a group goes: up to `move` steps along shortest wall-free routes toward the closest
    team member, split as evenly as possible over the distinct spaces those routes reach."""
    here = group.at.c
    if etype.move_rule == "stays":
        return MovePlan(Msg("its card says it does not move"), [])
    if etype.move == 0:
        return MovePlan(Msg("its move is 0"), [])
    closest = team.nearest(here)
    if closest is None:
        return MovePlan(Msg("no wall-free route leads to any team member"), [])
    if closest == 0:
        return MovePlan(Msg("already in {who}'s space", who=team.names_at(here)), [])
    steps = min(etype.move, closest)
    reach = board.distances(here, limit=steps)
    targets = sorted(t for t, d in team.dist.items() if d.get(here) == closest)
    options: list[ChoiceOption] = []
    labels: list[Words] = []
    said: list[Words] = []
    moved: list[str] = []  # each option's moves ("2 Hosts D5 → C4"): names and spaces, the same in every language
    seen: dict[tuple, int] = {}
    why: Words = ""
    for t in targets:
        from_t = team.dist[t]
        dests = sorted(c for c, d in reach.items() if d == steps and from_t.get(c) == closest - steps)
        base, extra = divmod(group.count, len(dests))
        routes = _routes(len(dests)) if len(dests) > 1 else Msg("the shortest route")
        why = NMsg("{routes} to {who} ({n} space away)", "{routes} to {who} ({n} spaces away)", closest, routes=routes,
                   who=team.names_at(t))
        for lucky in combinations(dests, extra):
            parts = [(c, base + (c in lucky)) for c in dests if base + (c in lucky) > 0]
            key = tuple(parts)
            if key in seen:  # two members behind the same routes: one option
                continue
            seen[key] = len(options)
            moves = ", ".join(f"{etype.count_name(n)} {board.label(here)} → {board.label(c)}" for c, n in parts)
            label = joined(Msg("{n} to {space}", n=n, space=board.label(c)) for c, n in parts)
            if len(targets) > 1:
                label = Msg("{options} (toward {who})", options=label, who=team.names_at(t))
            step = Msg("{moves}: {why}", moves=moves, why=why)
            moved.append(moves)
            labels.append(label)
            said.append(step)
            options.append(ChoiceOption(label=_english(label), parts=[Part(at=Hex.of(c), count=n) for c, n in parts],
                                        step=_english(step)))
    question: Words = ""
    moving = Msg("{enemies} on {space}", enemies=etype.count_name(group.count), space=board.label(here))
    if len(targets) > 1:
        who = _names([team.names_at(t) for t in targets])
        question = NMsg("{who} are equally close to {moving} ({n} space): which way do they go?",
                        "{who} are equally close to {moving} ({n} spaces): which way do they go?", closest,
                        who=who, moving=moving)
        if len(options) == 1:
            said[0] = Msg("{moves}: {why}", moves=moved[0],
                          why=NMsg("toward {who}, equally close ({n} space away)",
                                   "toward {who}, equally close ({n} spaces away)", closest, who=who))
            options[0].step = _english(said[0])
    elif len(options) > 1:
        n = len(options[0].parts)  # spaces that get miniatures
        if group.count < len(dests):
            ask = Msg("which space does it take?") if group.count == 1 else Msg("which {n} spaces get one each?", n=n)
        else:
            extra = group.count % len(dests)
            ask = Msg("which space gets one more?") if extra == 1 else Msg("which {n} spaces get one more?", n=extra)
        question = Msg("{moving}: {why}; {ask}", moving=moving, why=why, ask=ask)
    return MovePlan(why, options, question, labels, said)


def pending_words(state: State) -> tuple[Words, list[Words], list[Words]]:
    """The paused tie in words for every phone: its question, its options' labels and their moves.
    Worked out again from the board, which stands as it did while the tie waits; should that no
    longer give the very words kept in the state (an enemy card edited meanwhile), the kept ones."""
    issue = _issue(state)
    pending = issue.pending
    kept = (pending.question, [o.label for o in pending.options], [o.step for o in pending.options])
    group = issue.groups[pending.group] if pending.group < len(issue.groups) else None
    etype = next((t for t in state.enemy_types if group is not None and t.name == group.enemy), None)
    if etype is None:
        return kept
    board = Board.of(issue.map)
    plan = plan_move(board, Team.of(issue, board), group, etype)
    if (_english(plan.question), [_english(w) for w in plan.labels], [_english(w) for w in plan.steps]) != kept:
        return kept
    return plan.question, plan.labels, plan.steps


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
            raise InputError(Msg("The order must list each group number 0 to {last} once (got {order}).", last=n - 1,
                                 order=str(a.order)))
        order = list(a.order)
        players = order != default_order(state, board)
    else:
        order, players = default_order(state, board), False
    for g in issue.groups:
        if g.damage:
            events.append(event(
                "damage_wears_off",
                Msg("The {damage} damage on {enemy} at {space} wears off: damage must come within one turn.",
                    damage=g.damage, enemy=g.enemy, space=board.label(g.at.c)),
                enemy=g.enemy, at=board.label(g.at.c), damage=g.damage,
            ))
            g.damage = 0
    issue.phase, issue.queue = "enemies", order
    listed = [_group_data(board, issue.groups[i]) for i in order]
    if order:
        listing = ", ".join(f"{_etype(state, g['enemy']).count_name(g['count'])} {g['at']}" for g in listed)
        text = (Msg("Enemy phase, in the players' order: {groups}.", groups=listing) if players
                else Msg("Enemy phase, in this order: {groups}.", groups=listing))
        events.append(event("enemy_phase", text, order=listed, players_order=players))
    else:
        events.append(event("enemy_phase", Msg("Enemy phase: no enemies on the board."), order=[], players_order=False))
    _run_phase(state, board, events)


def _choose(state: State, a: Choose, events: list[Event]) -> None:
    issue = _issue(state)
    pending = issue.pending
    assert pending is not None
    if a.option >= len(pending.options):
        raise InputError(Msg("Pick one of the {n} options, 1 to {n} (got {got}).", n=len(pending.options),
                             got=a.option + 1))
    board = Board.of(issue.map)
    option = pending.options[a.option]
    _question, labels, steps = pending_words(state)
    events.append(event("choice", Msg("Players' choice {number}: {option}.", number=a.option + 1, option=labels[a.option]),
                        option=a.option, number=a.option + 1, label=option.label, by="players"))
    _take_option(board, issue, a.option, events, steps[a.option])
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
            why = NMsg("{enemies} on {space} has {members} in range {range} (once per group)",
                       "{enemies} on {space} have {members} in range {range} (once per group)", g.count,
                       enemies=etype.count_name(g.count), space=board.label(g.at.c), members=_names(who),
                       range=etype.range)
            _move_marker(issue, "threat", etype.threat, why, events, "in_range", group=_group_data(board, g),
                         members=who, range=etype.range)
            if issue.threat + issue.awareness >= issue.track:
                return  # lost: _settle ends the issue
        plan = plan_move(board, team, g, etype)
        if not plan.options:
            g.acted = True
            events.append(event("enemy_stays", NMsg("{enemies} on {space} stays put: {reason}.",
                                                    "{enemies} on {space} stay put: {reason}.", g.count,
                                                    enemies=etype.count_name(g.count), space=board.label(g.at.c),
                                                    reason=plan.reason),
                                group=_group_data(board, g), reason=_english(plan.reason)))
            issue.queue.pop(0)
            continue
        if len(plan.options) == 1:
            _place_move(board, issue, gi, plan.options[0], events, plan.steps[0])
            issue.queue.pop(0)
            continue
        issue.pending = PendingChoice(group=gi, question=_english(plan.question), options=plan.options)
        if state.settings.tie_break == "players_choose":
            listing = joined((Msg("{number}: {option}", number=i + 1, option=label) for i, label in enumerate(plan.labels)),
                             "; ")
            events.append(event(
                "tie", Msg("Players decide: {question} Options: {options}.", question=plan.question, options=listing),
                group=_group_data(board, g), question=_english(plan.question), options=[o.label for o in plan.options],
            ))
            return
        pick, how = tie_pick(state, board, team)
        option = plan.options[pick.option]
        events.append(event(
            "choice", Msg("Tie ({setting} setting): of {n} options, {option} leaves {how}.",
                          setting=SETTING_WORDS[state.settings.tie_break], n=len(plan.options),
                          option=plan.labels[pick.option], how=how),
            option=pick.option, number=pick.option + 1, label=option.label, by=state.settings.tie_break,
            options=len(plan.options),
        ))
        _take_option(board, issue, pick.option, events, plan.steps[pick.option])
    _end_phase(state, board, events)


def tie_pick(state: State, board: Board, team: Team) -> tuple[Choose, Msg]:
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
        return best, Msg("the fewest groups left in range of the team, then the farthest from it")
    best = min(offered, key=lambda c: (tuple(-x for x in scores[c.option]), c.option))
    return best, Msg("the most groups left in range of the team, then the closest to it")


def _take_option(board: Board, issue: Issue, index: int, events: list[Event], step: Words) -> None:
    """The paused group goes the chosen way (`step`: that way in words); the phase goes on with the next group."""
    pending = issue.pending
    issue.pending = None
    _place_move(board, issue, pending.group, pending.options[index], events, step)
    issue.queue.pop(0)


def _place_move(board: Board, issue: Issue, gi: int, option: ChoiceOption, events: list[Event], step: Words) -> None:
    """Move a group's miniatures to the option's spaces: the group keeps the first part; the other
    parts become new groups (they have moved, so they don't act again this phase). `step` is the
    move in words."""
    g = issue.groups[gi]
    before = _group_data(board, g)
    first, *rest = option.parts
    g.at, g.count, g.acted, g.damage = first.at, first.count, True, 0
    for p in rest:
        issue.groups.append(EnemyGroup(enemy=g.enemy, at=p.at, count=p.count, acted=True))
    events.append(event(
        "enemy_move", step + ".", group=before, frm=before["at"],
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
            events.append(event("merge", Msg("{enemy} on {space} merge into one group of {count}.", enemy=g.enemy,
                                             space=board.label(g.at.c), count=same.count + g.count),
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
                why = NMsg("{members} ends the turn on the hazard at {space} (once for the space)",
                           "{members} end the turn on the hazard at {space} (once for the space)", len(counted),
                           members=_names(counted), space=board.label(c))
                _move_marker(issue, "threat", HAZARD_THREAT, why, events, "hazard", space=board.label(c),
                             members=counted, when="end_of_turn")
            elif here:
                names = [m.name for m in here]
                events.append(event("hazard_waived", Msg("Hazard at {space}: the card that moved {members} there waives it.",
                                                         space=board.label(c), members=_names(names)),
                                    space=board.label(c), members=names))
    if issue.threat + issue.awareness >= issue.track:
        return
    for m in issue.members:
        m.hazard_waived = False
    issue.turn += 1
    issue.active = (issue.active + 1) % len(issue.members)
    member = issue.members[issue.active].name
    events.append(event(
        "turn", Msg("Refill your hand to 3 cards (enter any awareness change, e.g. It's Closing In).") + " "
        + Msg("Turn {turn}: {member}'s turn.", turn=issue.turn, member=member), turn=issue.turn, member=member,
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
    said = dict(enemy=new.name, threat=new.threat, range=new.range, health=new.health, move=new.move)
    events.append(event(
        "enemy_card",
        Msg("{enemy}: threat {threat}, range {range}, health {health}, move {move} (stays put).", **said)
        if new.move_rule == "stays" else
        Msg("{enemy}: threat {threat}, range {range}, health {health}, move {move} (toward the closest team member).",
            **said),
        enemy=new.name, threat=new.threat, range=new.range, health=new.health, move=new.move, move_rule=new.move_rule,
    ))


def _unlock(state: State, a: Unlock, events: list[Event]) -> None:
    bucket = state.campaign.unlocked_cards if a.what == "card" else state.campaign.unlocked_enemies
    name = a.name.strip()
    if name in bucket:
        raise RuleError(Msg("{name} is already unlocked.", name=name))
    bucket.append(name)
    text = (Msg("Unlocked card {name}: arcade mode now offers it.", name=name) if a.what == "card"
            else Msg("Unlocked enemy {name}: arcade mode now offers it.", name=name))
    events.append(event("unlock", text, what=a.what, name=name))


def _change_settings(state: State, a: ChangeSettings, events: list[Event]) -> None:
    changed = {k: getattr(a.settings, k) for k in Settings.model_fields if getattr(state.settings, k) != getattr(a.settings, k)}
    if not changed:
        raise RuleError(Msg("The settings are unchanged."))
    state.settings = a.settings
    said = joined(SETTING_WORDS[k] + " = " + SETTING_WORDS.get(str(v), str(v)) for k, v in changed.items())
    events.append(event("settings", Msg("Settings: {changes}.", changes=said), changed=changed))


def _abandon(state: State, a: AbandonIssue, events: list[Event]) -> None:
    issue = _issue(state)
    events.append(event("abandoned", Msg("{issue} abandoned: not counted as a win or a loss.",
                                         issue=issue.named_at_start), issue=issue.called))
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
        raise InputError(Msg("No option sends enemies there: tap a numbered space, or a numbered button."))
    picks = [i for i, n in enumerate(counts) if n == best]
    if len(picks) > 1:
        raise InputError(Msg("That space is in options {options} alike: tap another of their spaces, or a numbered "
                             "button.", options=_names([str(i + 1) for i in picks])))
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


def describe(action: Action) -> Msg:
    k = action.kind
    if k == "start_issue":
        return (Msg("start issue #{number}", number=str(action.number)) if action.mode != "arcade"
                else Msg("start arcade on {map}", map=map_name(action.map)))
    if k == "next_map":
        return Msg("next arcade map")
    if k == "move":
        return Msg("move {member}", member=action.member)
    if k == "spawn":
        return Msg("place {face}", face=face_words(action.face))
    if k == "attack":
        return Msg("attack {enemy} ({damage})", enemy=action.enemy, damage=action.damage)
    if k == "adjust":
        said = dict(delta=f"{action.delta:+d}", reason=action.reason)
        return (Msg("threat {delta} ({reason})", **said) if action.track == "threat"
                else Msg("awareness {delta} ({reason})", **said))
    if k == "enemy_phase":
        return Msg("enemy phase")
    if k == "choose":
        return Msg("enemy tie: option {number}", number=action.option + 1)
    if k == "set_enemy_type":
        return Msg("enemy card {enemy}", enemy=action.enemy.name)
    if k == "unlock":
        return Msg("unlock {name}", name=action.name)
    if k == "change_settings":
        return Msg("change settings")
    return Msg("abandon issue")


# The headline and the outcome are kept in the campaign's row, in columns of 200 and 80 characters
# (a message as its JSON): each is one flat message with short parameter names, to fit.


def headline(state: State) -> Msg:
    issue = state.issue
    if issue is None:
        if state.settings.mode == "story":
            return Msg("Story mode · issue #{n} next", n=str(state.campaign.unlocked_issue))
        return Msg("Arcade mode · pick a map")
    story = issue.mode == "story"
    said = dict(n=str(issue.number), turn=issue.turn) if story else dict(turn=issue.turn)
    if issue.over:
        if issue.phase == "won":
            return Msg("Issue #{n} · Turn {turn} · won", **said) if story else Msg("Arcade · Turn {turn} · won", **said)
        return Msg("Issue #{n} · Turn {turn} · lost", **said) if story else Msg("Arcade · Turn {turn} · lost", **said)
    said.update(t=issue.threat, a=issue.awareness, of=issue.track)
    if issue.phase == "enemies":
        return (Msg("Issue #{n} · Turn {turn} · enemies · threat {t} / awareness {a} of {of}", **said) if story
                else Msg("Arcade · Turn {turn} · enemies · threat {t} / awareness {a} of {of}", **said))
    said["who"] = issue.members[issue.active].name
    return (Msg("Issue #{n} · Turn {turn} · {who} · threat {t} / awareness {a} of {of}", **said) if story
            else Msg("Arcade · Turn {turn} · {who} · threat {t} / awareness {a} of {of}", **said))


def outcome(state: State) -> Optional[Msg]:
    """The finished issue's result until the next one starts (the campaign itself goes on)."""
    issue = state.issue
    if issue is None or not issue.over:
        return None
    won = issue.phase == "won"
    if issue.mode == "story":
        return Msg("Won issue #{n}", n=str(issue.number)) if won else Msg("Lost issue #{n}", n=str(issue.number))
    m = map_name(issue.map)  # (a map's name of more than about 35 characters leaves the column English)
    return Msg("Won arcade map {m}", m=m) if won else Msg("Lost arcade map {m}", m=m)


GAME = Game(
    key="human_ethos",
    title="The Singularity War: Human Ethos",
    summary=Msg("Threat and awareness, a twin of the hex map, and the automated enemy phase, in story-mode campaigns."),
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
