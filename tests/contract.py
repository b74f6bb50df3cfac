"""Random games played the way a physical-dice table plays them, for every game's property test.

`physical_playout` starts a campaign with physical dice on and plays it through the pure store
step (`companion.log.step`): each action is drawn from the game's own legal moves (`Game.moves`),
each roll it stops at is answered with dice drawn from a seeded generator — as a table would enter
them — and the whole log is replayed at the end. It checks, for every game alike:

- no die in the log was invented: every recorded die is physical and was given by the table;
- a move the game lists as ready is never refused;
- every state replays from the log (`companion.log.replay`);
- the game answers its own questions: `why_not` is None for every listed move.

`store_playout` plays through a real Store (SQLite in memory) and also undoes and redoes along the
way, checking that undo/redo keep the dice that were entered.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any, Callable, Optional

from companion.dice import PhysicalDice
from companion.games.base import Game, InputError, Move, RuleError
from companion.log import Store, dump_action, replay, step
from companion.table import CampaignState, GiveDice, SetPhysicalDice

# choose(game_state, moves, rng) → an action (from a ready move, or a template it fills in), or None to stop.
Chooser = Callable[[Any, list[Move], random.Random], Optional[Any]]


def pick_ready(state: Any, moves: list[Move], rng: random.Random) -> Optional[Any]:
    """The simplest chooser: a random ready move (games add their own for templates)."""
    ready = [m for m in moves if m.ready and m.why_not is None]
    return rng.choice(ready).action if ready else None


def table_dice(chance, rng: random.Random) -> list[int]:
    """What a table rolls for a chance node: faces drawn with the die's own probabilities."""
    return [rng.randint(1, chance.die.sides) for _ in range(chance.count)]


@dataclass
class Playout:
    entries: list[dict] = field(default_factory=list)
    given: list[int] = field(default_factory=list)  # every die the table entered, in order
    pauses: int = 0
    refused: int = 0
    final: Optional[CampaignState] = None
    outcome: Optional[str] = None


def physical_playout(game: Game, settings: Any, *, seed: int, choose: Chooser, steps: int = 80) -> Playout:
    rng = random.Random(seed)
    parsed = game.Settings.model_validate(settings) if isinstance(settings, dict) else settings
    start = CampaignState(game=game.new_state(parsed).model_dump(mode="json"))
    state = start
    out = Playout(entries=[{"seq": 0, "action": {}, "dice": [], "state": start.model_dump(mode="json")}])

    def log(action, done) -> None:
        out.entries.append({"seq": len(out.entries), "action": dump_action(game, action),
                            "dice": [d.to_json() for d in done.dice], "state": done.state.model_dump(mode="json")})

    on = SetPhysicalDice(on=True)
    done = step(game, state, on, PhysicalDice())
    log(on, done)
    state = done.state
    for _ in range(steps):
        if state.pending is not None:
            faces = table_dice(state.pending.chance, rng)
            action, ready = GiveDice(faces=faces), True
            out.given += faces
        else:
            game_state = game.State.model_validate(state.game)
            if game.outcome(game_state) is not None:
                break
            moves = game.legal_moves(game_state)
            for m in moves:
                if m.ready and m.why_not is None:
                    reason = game.why_not(game_state, m.action)
                    assert reason is None, f"{game.key}: listed move {m.label!r} is refused by why_not: {reason}"
            action = choose(game_state, moves, rng)
            if action is None:
                break
            ready = any(m.ready and m.action == action for m in moves)
        try:
            done = step(game, state, action, PhysicalDice())
        except (RuleError, InputError) as exc:
            assert not ready, f"{game.key}: a listed move was refused: {action!r}: {exc}"
            out.refused += 1
            continue
        assert all(d.physical for d in done.dice), f"{game.key}: the app invented a die for {action!r}"
        if isinstance(action, GiveDice):
            assert [d.value for d in done.dice] == action.faces
        else:
            assert done.dice == [], f"{game.key}: {action!r} recorded dice nobody entered"
        if done.state.pending is not None:
            out.pauses += 1
        log(action, done)
        state = done.state
    recorded = [d[1] for e in out.entries for d in e["dice"]]
    assert recorded == out.given, f"{game.key}: the log's dice differ from the dice the table entered"
    report = replay(game, parsed.model_dump(mode="json"), out.entries)
    assert report.ok, f"{game.key}: replay failed: {report.mismatches[:3]}"
    out.final = state
    out.outcome = game.outcome(game.State.model_validate(state.game))
    return out


def store_playout(store: Store, game: Game, settings: dict, *, seed: int, choose: Chooser, steps: int = 40) -> int:
    """The same through a real Store, undoing and redoing along the way: redo brings back the very
    dice that were entered, and an undone roll asks for its dice again. Returns the campaign id."""
    rng = random.Random(seed)
    cid = store.create(game.key, "playout", settings, seed=seed)
    store.apply(cid, SetPhysicalDice(on=True), expected_cursor=0)
    for _ in range(steps):
        loaded = store.load(cid)
        state = loaded.state
        if state.pending is not None:
            action = GiveDice(faces=table_dice(state.pending.chance, rng))
        else:
            game_state = loaded.game_state
            if game.outcome(game_state) is not None:
                break
            action = choose(game_state, game.legal_moves(game_state), rng)
            if action is None:
                break
        try:
            applied = store.apply(cid, action, expected_cursor=loaded.cursor)
        except (RuleError, InputError):
            continue
        if rng.random() < 0.3:
            after = store.load(cid).state
            row = store.log_rows(cid)[-1]
            store.undo(cid, expected_cursor=applied.cursor)
            undone = store.load(cid).state
            assert undone == state, "undo did not bring back the state before the action"
            store.redo(cid, expected_cursor=applied.cursor - 1)
            assert store.load(cid).state == after, "redo did not bring back the same state"
            assert store.log_rows(cid)[-1].dice == row.dice, "redo changed the entered dice"
    rows = store.log_rows(cid)
    assert all(d[2] for r in rows for d in r.dice), "a die in the log was not entered by the table"
    report = replay(game, store.get(cid).settings, [{"seq": r.seq, "action": r.action, "dice": r.dice,
                                                     "state": r.state} for r in rows])
    assert report.ok, report.mismatches[:3]
    return cid
