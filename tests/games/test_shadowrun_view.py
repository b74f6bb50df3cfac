"""The Shadowrun panel builds in every phase and pending choice (no browser): a walk through two
turns with a run, damage and an errand, building the panel and the ledger screen after each action."""

from __future__ import annotations

from types import SimpleNamespace

import flet as ft
import pytest
from pydantic import ValidationError

from companion.dice import SeededDice
from companion.games.shadowrun import rules as R
from companion.games.shadowrun.ledger import balances_by_turn
from companion.games.shadowrun import view
from companion.games.shadowrun.screens import chart_shapes


class FakeFrame:
    def __init__(self, state: R.State):
        self.campaign_id = 1
        self.loaded = SimpleNamespace(game_state=state)
        self.app = SimpleNamespace(guard=lambda fn: fn, go=lambda route: None,
                                   store=SimpleNamespace(history=lambda cid, limit=1: []))


def texts(control) -> str:
    """Every string in a control tree (labels, values, contents), for loose assertions."""
    out = []

    def walk(c):
        if isinstance(c, str):
            out.append(c)
            return
        if isinstance(c, (list, tuple)):
            for x in c:
                walk(x)
            return
        if not isinstance(c, ft.BaseControl):
            return
        for attr in ("value", "label", "content", "controls", "title", "text", "tooltip", "items"):
            v = getattr(c, attr, None)
            if v is not None:
                walk(v)
    walk(control)
    return "\n".join(out)


def step(state: R.State, action, n: int) -> R.State:
    new, _ = R.apply(state, action, SeededDice(7, n))
    panel = view.panel(FakeFrame(new))
    assert isinstance(panel, ft.Control)
    return new


def test_panel_builds_through_two_turns_with_a_run():
    s = R.new_state(R.Settings())
    view.panel(FakeFrame(s))
    n = 0

    def go(action):
        nonlocal n, s
        n += 1
        s = step(s, action, n)

    for name, rep in (("Low", 5), ("Mid", 15), ("High", 25)):
        go(R.AddObjective(name=name, rep=rep))
    go(R.Advance())
    go(R.RefreshChallenges())
    for _ in range(6):  # refresh, 3a, 3b, 3c, 3d
        if R.why_not(s, "get_paid") is None:
            go(R.GetPaid())
        if R.why_not(s, "payroll") is None:
            go(R.Payroll())
        if R.why_not(s, "charge_interest") is None:
            go(R.ChargeInterest())
            shown = texts(view.panel(FakeFrame(s)))
            assert "Interest +2: 10% of 20 = 2" in shown
        if s.phase == "payment":
            break
        go(R.Advance())
    assert s.phase == "payment"
    assert "due on a d6 of 1–4" in texts(view.panel(FakeFrame(s)))
    go(R.RollPaymentDue())
    if s.payment_due and not s.step_done:
        go(R.PayInterest())
    go(R.Advance())
    assert s.phase == "legwork"
    go(R.Deploy(name="Dodger", cost=3, upkeep=1, body=4))
    go(R.Deploy(name="Ghost", cost=2, body=3))
    go(R.RunErrand(card_id=s.cards[0].id))
    if s.pending_errand is not None:
        assert "Take 6" in texts(view.panel(FakeFrame(s)))
        go(R.TakeSix())
    go(R.Advance())
    go(R.StartRun(objective_id=s.objectives[0].id, team=[c.id for c in s.cards if not c.turned]))
    go(R.DrawEvent(cost=3))
    go(R.StartDamage(amount=7))
    while s.damage is not None:
        shown = texts(view.panel(FakeFrame(s)))
        assert "Who takes the next hit?" in shown
        go(R.TakeHit(card_id=R.hit_candidates(s)[0].id))
    if s.run is not None:
        go(R.EndRun())
    go(R.Advance())
    go(R.CheckVictory())
    go(R.Advance())
    go(R.Advance())
    assert s.turn == 2 and s.phase == "objective"
    rows = balances_by_turn(s.ledger)
    assert chart_shapes(rows, 340)


def test_negative_reputation_is_red_and_named():
    s = R.new_state(R.Settings())
    s, _ = R.apply(s, R.Adjust(account="reputation", amount=-3, reason="Bad press"), SeededDice(1, 1))
    shown = texts(view.panel(FakeFrame(s)))
    assert "d6 ≤ 3" in shown


def test_setup_form_collects_settings():
    form = view.SetupForm(None)
    data = form.collect()
    assert R.Settings.model_validate(data).loan == 20
    form.loan.value = "21"
    with pytest.raises(ValidationError):
        R.Settings.model_validate(form.collect())


def test_a_full_tie_goes_through_frame_roll_with_its_dice():
    """The tie-break dice are known before "Refresh the challenges": the button asks the frame to roll
    exactly them (so physical dice can be typed), a d3 then a d2 sent as two dice of up to 3 sides."""
    s = R.new_state(R.Settings(difficulty="extreme")).model_copy(update={
        "phase": "objective", "turn": 1,
        "objectives": [R.Objective(id=i, name=n, rep=15, challenges=2) for i, n in ((1, "A"), (2, "B"), (3, "C"))]})
    frame = FakeFrame(s)
    rolled = []
    frame.roll = lambda action, count, sides, what: rolled.append((action.kind, count, sides, what))
    frame.dispatch = lambda *a, **k: pytest.fail("a roll must go through frame.roll")
    frame.__dict__["_shadowrun_typed"] = {}
    built = view.panel(frame)
    assert "the app rolls a d3, then a d2" in texts(built)
    found = []

    def walk(c):
        if isinstance(c, (list, tuple)):
            for x in c:
                walk(x)
        elif isinstance(c, ft.BaseControl):
            if getattr(c, "content", None) == "Refresh the challenges (1b)":
                found.append(c)
            for attr in ("controls", "content"):
                walk(getattr(c, attr, None))
    walk(built)
    found[0].on_click(None)
    assert rolled == [("refresh_challenges", 2, 3, "tie-break: a d3, then a d2")]
