"""Shadowrun: Singularis under random play: the books always balance, money never goes negative, the
state round-trips through JSON, refused actions change nothing, and replaying the log gives the same
states."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.dice import SeededDice
from companion.games.base import InputError, RuleError
from companion.games.shadowrun import rules as R
from companion.games.shadowrun.ledger import totals
from companion.games.shadowrun.rules import GAME, Settings, State, apply, legal_actions, new_state


def _pick_id(data, ids: list[int]) -> int:
    # Mostly a real card, sometimes one that isn't there (must be refused, changing nothing).
    return data.draw(st.sampled_from(ids)) if ids and data.draw(st.integers(0, 9)) else 999


def make_action(data, s: State, kind: str):
    """A concrete action of `kind` with plausible (and now and then out-of-range) parameters."""
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
    return GAME.parse_action({"kind": kind, **params})


def check_invariants(s: State) -> None:
    sums = totals(s.ledger)
    assert {a: getattr(s, a) for a in sums} == sums, "a balance differs from the sum of its ledger lines"
    assert s.loan >= 0 and s.cash >= 0 and s.interest >= 0
    assert len([c for c in s.cards if c.card_type == "runner"]) <= R.MAX_RUNNERS
    assert all(o.challenges >= 0 for o in s.objectives) and len(s.objectives) <= 3
    assert all(0 <= c.damage < c.body for c in s.cards if c.card_type != "other")
    assert State.model_validate_json(s.model_dump_json()) == s
    if s.phase == "over":
        assert R.outcome(s) in ("Won", "Lost") and legal_actions(s) == []


@settings(max_examples=40)
@given(data=st.data(), seed=st.integers(0, 2**32), difficulty=st.sampled_from(["easy", "normal", "hard", "extreme"]),
       loan=st.integers(1, 20))
def test_random_play_keeps_the_books(data, seed, difficulty, loan):
    state = new_state(Settings(loan=loan, difficulty=difficulty, target_reputation=data.draw(st.integers(1, 30))))
    check_invariants(state)
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
        before = state.model_dump_json()
        try:
            new, events = apply(state, action, SeededDice(seed, len(log)))
        except (RuleError, InputError) as refused:
            assert str(refused)
            assert state.model_dump_json() == before, "a refused action changed the state"
            continue
        assert state.model_dump_json() == before, "apply mutated its input"
        assert events and all(isinstance(e, str) and e for e in events)
        state = new
        log.append((action, state))
        check_invariants(state)
    # Replay the log with the same dice: the same states, step by step.
    replay = new_state(Settings(loan=loan, difficulty=difficulty, target_reputation=state.settings.target_reputation))
    for n, (action, stored) in enumerate(log):
        replay, _ = apply(replay, GAME.parse_action(GAME.dump_action(action)), SeededDice(seed, n))
        assert replay == stored


@settings(max_examples=15)
@given(seed=st.integers(0, 2**32))
def test_a_plain_campaign_reaches_later_turns(seed):
    """Always taking the phase's required step and moving on: turns pass and the books balance."""
    required = {"objective": "refresh_challenges", "paid": "get_paid", "payroll": "payroll",
                "interest": "charge_interest", "payment": "roll_payment_due", "victory": "check_victory"}
    state = new_state(Settings())
    for name, rep in (("A", 5), ("B", 15), ("C", 25)):
        state, _ = apply(state, GAME.parse_action({"kind": "add_objective", "name": name, "rep": rep}), SeededDice(seed, 0))
    n = 0
    while state.turn < 6 and state.phase != "over":
        kinds = legal_actions(state)
        if "refuse_payment" in kinds:
            kind = "refuse_payment"
        elif state.phase in required and required[state.phase] in kinds:
            kind = required[state.phase]
        else:
            kind = "advance"
        state, _ = apply(state, GAME.parse_action({"kind": kind}), SeededDice(seed, n))
        n += 1
        check_invariants(state)
    # Interest compounds on an untouched loan: by turn 6 the debt has grown every turn.
    assert state.debt > 20 or state.phase == "over"
