"""Shadowrun: Singularis under random play.

- 200 games at a physical-dice table (`tests.contract.physical_playout`), every action drawn from the
  game's own moves and every pause answered with dice: no die is invented, a listed move is never
  refused, the log replays; and on every state the books balance (each balance is the sum of the
  ledger lines rebuilt from the events logged so far) and money never goes negative.
- A few through a real Store with undo and redo (`store_playout`).
- Hypothesis: random (also out-of-range) actions with seeded dice: refused actions change nothing,
  every event is typed, and replaying the log gives the same states.
"""

from __future__ import annotations

import random
import typing
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

from companion.dice import SeededDice
from companion.games.base import Event, FieldSpec, InputError, Move, RuleError
from companion.games.shadowrun import rules as R
from companion.games.shadowrun.ledger import Line, lines_in, reconciles, totals
from companion.games.shadowrun.rules import GAME, Settings, State, apply, legal_actions, new_state
from companion.log import replay
from tests.contract import physical_playout, store_playout
from tests.helpers import memory_store

# The state keeps no ledger and nothing else that grows with the log: after any number of actions it
# stays this small (the settings, the balances, three objectives, the cards in play).
STATE_BYTES_MAX = 4000


def check_invariants(s: State, lines: list[Line]) -> None:
    """`lines`: the ledger rebuilt from the events logged up to `s` (`R.ledger`)."""
    sums = totals(lines)
    assert {a: getattr(s, a) for a in sums} == sums, "a balance differs from the sum of its ledger lines"
    assert reconciles(lines, sums), "a line's balance is not the one before it plus its amount"
    assert s.loan >= 0 and s.cash >= 0 and s.interest >= 0
    assert len([c for c in s.cards if c.card_type == "runner"]) <= R.MAX_RUNNERS
    assert all(o.challenges >= 0 for o in s.objectives) and len(s.objectives) <= 3
    assert all(0 <= c.damage < c.body for c in s.cards if c.card_type != "other")
    assert State.model_validate_json(s.model_dump_json()) == s
    assert len(s.model_dump_json()) < STATE_BYTES_MAX
    if s.phase == "over":
        assert R.outcome(s) in ("Won", "Lost") and legal_actions(s) == []


# --- a chooser that plays from the game's own moves ---------------------------------------------------

BANDS = {"≤10": (1, 10), "11–20": (11, 20), "21+": (21, 35)}
CARD_EFFECTS = {"adjust", "set_turned", "remove_card", "pick_random", "roll_luck", "discard_objective"}


def field_value(state: State, kind: str, spec: FieldSpec, rng: random.Random):
    """A value for one field of a template, within what the move offers (the game-specific part:
    setup's objective ranges, and amounts a table could pay)."""
    annotation = R.ACTION_OF[kind].model_fields[spec.name].annotation
    if kind == "add_objective" and spec.name == "rep":
        low, high = BANDS[rng.choice(R.missing_ranges(state))] if state.phase == "setup" else (1, 35)
        return rng.randint(low, high)
    if typing.get_origin(annotation) is list:
        if typing.get_args(annotation) == (str,):  # the options of a random pick
            return [f"Option {i}" for i in range(1, rng.randint(2, 4))]
        return rng.sample(list(spec.choices), rng.randint(1 if kind == "start_run" else 0, len(spec.choices)))
    if kind == "deploy" and spec.name == "card_type" and "runner" in spec.choices and rng.random() < 0.7:
        return "runner"
    if spec.choices:
        return rng.choice(list(spec.choices))
    if annotation is str:
        return f"{spec.label} {rng.randint(1, 9)}"
    low, high = spec.low, spec.high
    if kind == "pay_off" and rng.random() < 0.5:  # all that cash allows, the loan first
        return min(high, state.cash if spec.name == "loan" else max(0, state.cash - state.loan))
    if kind in ("deploy", "spend", "pay_off") and spec.name in ("cost", "amount", "loan", "interest"):
        high = min(high, max(low, state.cash))  # mostly what the table can pay
    return rng.randint(low, min(high, low + 12))


def fill(state: State, move: Move, rng: random.Random):
    data = {"kind": move.kind, **{f.name: field_value(state, move.kind, f, rng) for f in move.fields}}
    try:
        return GAME.parse_action(data)
    except ValidationError:  # (a rare unreadable mix: a table would correct the form)
        return None


# How often a random table picks each kind of move open to it: runs, errands and paying off often, the
# repeatable free actions (income, Nuyen instead of cards, buying) seldom, card effects rarely.
WEIGHTS = {"start_run": 6, "complete_objective": 8, "trash_challenge": 4, "draw_event": 3, "start_damage": 1,
           "run_errand": 3, "deploy": 2, "pay_off": 4, "advance": 2, "secondary_income": 0.3, "take_nuyen": 0.5,
           "spend": 0.3, "sell_cards": 0.3, "end_run": 0.5, "refuse_payment": 0.3, **{k: 0.05 for k in CARD_EFFECTS}}


def choose(state: State, moves: list[Move], rng: random.Random):
    """A kind of move by its weight, then one of its moves (a ready one, or a template filled in)."""
    live = [m for m in moves if m.why_not is None]
    if not live:
        return None
    kinds = sorted({m.kind for m in live})
    kind = rng.choices(kinds, weights=[WEIGHTS.get(k, 1) for k in kinds])[0]
    move = rng.choice([m for m in live if m.kind == kind])
    if move.ready:
        return move.action
    return fill(state, move, rng) or next((m.action for m in live if m.kind == "advance"), None)


def random_settings(rng: random.Random) -> dict:
    return {"loan": rng.randint(1, 20), "target_reputation": rng.randint(1, 20),
            "difficulty": rng.choice(["easy", "normal", "hard", "extreme"]),
            "luck_of_the_draw": rng.random() < 0.7}


def test_two_hundred_games_at_a_physical_dice_table():
    outcomes: Counter = Counter()
    pauses = 0
    for seed in range(200):
        rng = random.Random(seed)
        settings = {**random_settings(rng), "auto_pass": seed % 2 == 0}  # half with steps passing by themselves
        out = physical_playout(GAME, settings, seed=seed, choose=choose, steps=60)
        # The events the playout's actions produced (its log keeps actions, dice and states): the
        # rules give them again on a replay of that log.
        events = replay(GAME, Settings.model_validate(settings).model_dump(mode="json"), out.entries).events
        logged: list = []
        for entry in out.entries:
            logged += events.get(entry["seq"], [])
            state = State.model_validate(entry["state"]["game"])
            check_invariants(state, R.ledger(state.settings, logged))
        outcomes[out.outcome] += 1
        pauses += out.pauses
    assert pauses > 1000  # the table was asked for its dice again and again
    assert outcomes["Lost"] and outcomes["Won"], outcomes


def test_store_playouts_keep_the_entered_dice_through_undo_and_redo():
    store = memory_store()
    for seed in range(4):
        settings = {**random_settings(random.Random(seed)), "auto_pass": seed % 2 == 0}
        store_playout(store, GAME, settings, seed=seed, choose=choose, steps=60)


# --- hypothesis: any action, also out of range, with the app's seeded dice -----------------------------


def _pick_id(data, ids: list[int]) -> int:
    # Mostly a real card, sometimes one that isn't there (must be refused, changing nothing).
    return data.draw(st.sampled_from(ids)) if ids and data.draw(st.integers(0, 9)) else 999


def make_action(data, s: State, kind: str):
    """A concrete action of `kind` with plausible (and now and then out-of-range) parameters; None
    when the action model itself refuses them (the form never sends those)."""
    d = lambda strat: data.draw(strat)  # noqa: E731
    small = st.integers(-1, 6)
    card_ids = [c.id for c in s.cards]
    obj_ids = [o.id for o in s.objectives]
    params: dict = {}
    if kind == "add_objective":
        params = {"name": "Objective", "rep": d(st.integers(0, 35))}
    elif kind == "discard_objective":
        params = {"objective_id": _pick_id(data, obj_ids)}
    elif kind in ("take_nuyen", "sell_cards"):
        params = {"count": d(small)}
    elif kind == "secondary_income":
        params = {"amount": d(small), "source": "Fame"}
    elif kind == "payroll":
        bill = [c.id for c in R.payroll_bill(s)]
        params = {"unpaid": d(st.lists(st.sampled_from(bill), unique=True)) if bill else []}
    elif kind == "pay_interest":
        params = {"cash_in": d(st.integers(-1, 4)), "cash_in_ids": d(st.lists(st.sampled_from(card_ids), max_size=2, unique=True)) if card_ids else []}
    elif kind == "deploy":
        params = {"name": "Card", "card_type": d(st.sampled_from(["runner", "runner", "spirit", "drone", "other"])),
                  "cost": d(st.integers(-1, 8)), "upkeep": d(st.integers(0, 3)), "body": d(st.integers(0, 6)),
                  "armor": d(st.integers(0, 2))}
    elif kind == "spend":
        params = {"amount": d(small), "item": d(st.sampled_from(["gear", "skillsoft", "chipjack", "special", "other"]))}
    elif kind in ("run_errand", "heal", "take_hit"):
        ids = [c.id for c in R.hit_candidates(s)] if kind == "take_hit" else card_ids
        params = {"card_id": _pick_id(data, ids)}
    elif kind == "pay_off":
        params = {"loan": d(st.integers(-1, min(s.loan, s.cash) + 1)),
                  "interest": d(st.integers(-1, min(s.interest, s.cash) + 1))}
    elif kind == "start_run":
        team = [c.id for c in R.team_candidates(s)]
        params = {"objective_id": _pick_id(data, obj_ids),
                  "team": d(st.lists(st.sampled_from(team), min_size=1, unique=True)) if team else []}
    elif kind == "draw_event":
        params = {"cost": d(st.integers(-1, 7))}
    elif kind == "pick_random":
        params = {"options": ["a", "b", "c"][: d(st.integers(0, 3))]}
    elif kind == "start_damage":
        params = {"amount": d(st.integers(0, 20)), "armor_piercing": d(st.booleans())}
    elif kind == "adjust":
        params = {"account": d(st.sampled_from(["loan", "cash", "interest", "reputation"])),
                  "amount": d(st.integers(-6, 6)), "reason": "card"}
    elif kind == "set_turned":
        params = {"card_id": _pick_id(data, card_ids), "turned": d(st.booleans())}
    elif kind == "remove_card":
        params = {"card_id": _pick_id(data, card_ids), "died": d(st.booleans())}
    try:
        return GAME.parse_action({"kind": kind, **params})
    except ValidationError:
        return None


@settings(max_examples=40, derandomize=True)
@given(data=st.data(), seed=st.integers(0, 2**32), difficulty=st.sampled_from(["easy", "normal", "hard", "extreme"]),
       loan=st.integers(1, 20), auto_pass=st.booleans())
def test_random_play_keeps_the_books(data, seed, difficulty, loan, auto_pass):
    state = new_state(Settings(loan=loan, difficulty=difficulty, target_reputation=data.draw(st.integers(1, 30)),
                               auto_pass=auto_pass))
    lines = R.opening_lines(state.settings)
    check_invariants(state, lines)
    log = []  # (action, n) of every applied action
    for _ in range(150):
        kinds = legal_actions(state)
        if not kinds:
            break
        # Mostly the phase's own actions, advancing now and then, card effects (anytime) seldom.
        own = [k for k in kinds if k not in R.ANYTIME]
        roll = data.draw(st.integers(0, 9))
        if "advance" in kinds and (roll < 2 or not own):
            kind = "advance"
        elif own and roll < 9:
            kind = data.draw(st.sampled_from(own))
        else:
            kind = data.draw(st.sampled_from(kinds))
        action = make_action(data, state, kind)
        if action is None:
            continue
        before = state.model_dump_json()
        try:
            new, events = apply(state, action, SeededDice(seed, len(log)))
        except (RuleError, InputError) as refused:
            assert str(refused)
            assert state.model_dump_json() == before, "a refused action changed the state"
            assert GAME.why_not(state, action) == str(refused), "why_not says what apply says"
            continue
        assert state.model_dump_json() == before, "apply mutated its input"
        assert events and all(isinstance(e, Event) and e.kind != "text" and e.text for e in events)
        state = new
        log.append((action, state))
        lines = lines + lines_in(events)
        check_invariants(state, lines)
    # Replay the log with the same dice: the same states, step by step.
    replay = new_state(state.settings)
    for n, (action, stored) in enumerate(log):
        replay, _ = apply(replay, GAME.parse_action(GAME.dump_action(action)), SeededDice(seed, n))
        assert replay == stored


@settings(max_examples=15, derandomize=True)
@given(seed=st.integers(0, 2**32), auto_pass=st.booleans())
def test_a_plain_campaign_reaches_later_turns(seed, auto_pass):
    """Always taking the phase's required step and moving on: turns pass and the books balance."""
    required = {"objective": "refresh_challenges", "paid": "get_paid", "payroll": "payroll",
                "interest": "charge_interest", "payment": "roll_payment_due", "victory": "check_victory"}
    state = new_state(Settings(auto_pass=auto_pass))
    logged = []
    for name, rep in (("A", 5), ("B", 15), ("C", 25)):
        state, events = apply(state, GAME.parse_action({"kind": "add_objective", "name": name, "rep": rep}), SeededDice(seed, 0))
        logged += events
    n = 0
    size = len(state.model_dump_json())
    while state.turn < 6 and state.phase != "over":
        kinds = legal_actions(state)
        if "refuse_payment" in kinds:
            kind = "refuse_payment"
        elif state.phase in required and required[state.phase] in kinds:
            kind = required[state.phase]
        else:
            kind = "advance"
        state, events = apply(state, GAME.parse_action({"kind": kind}), SeededDice(seed, n))
        logged += events
        n += 1
        check_invariants(state, R.ledger(state.settings, logged))
        # Nothing in the state grows with the log: only the numbers in it change.
        assert len(state.model_dump_json()) <= size + 40, "the state grows with the log"
    # Interest compounds on an untouched loan: by turn 6 the debt has grown every turn.
    assert state.debt > 20 or state.phase == "over"
