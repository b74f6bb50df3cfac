"""The Shadowrun panel builds in every phase and pending choice (no browser): a walk through two
turns with a run, damage and an errand, building the panel and the ledger screen after each action."""

from __future__ import annotations

from types import SimpleNamespace

import flet as ft
import pytest
from pydantic import ValidationError

from companion.dice import SeededDice
from companion.games.base import InputError
from companion.games.shadowrun import rules as R
from companion.games.shadowrun.ledger import balances_by_turn
from companion.games.shadowrun import view
from companion.games.shadowrun.screens import chart_shapes


class FakeFrame:
    """The frame a panel is built in; `history` holds (label, events) rows, newest first, as the store does."""

    def __init__(self, state: R.State, history: list | None = None):
        self.campaign_id = 1
        self.loaded = SimpleNamespace(game_state=state)
        rows = [SimpleNamespace(label=label, events=[e.model_dump() for e in events]) for label, events in history or []]
        self.app = SimpleNamespace(guard=lambda fn: fn, go=lambda route: None,
                                   store=SimpleNamespace(history=lambda cid, limit=1: rows[:limit]))
        self.dispatched: list = []
        self.dispatch = lambda action, pulse=False: self.dispatched.append((action, pulse))


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


def step(state: R.State, action, n: int, history: list) -> R.State:
    """Apply, note it in `history` (newest first) and build the panel."""
    new, events = R.apply(state, action, SeededDice(7, n))
    history.insert(0, (R.describe(action), events))
    panel = view.panel(FakeFrame(new, history))
    assert isinstance(panel, ft.Control)
    return new


def find(control, text: str) -> list:
    """The controls whose content is exactly `text` (a button's words)."""
    found = []

    def walk(c):
        if isinstance(c, (list, tuple)):
            for x in c:
                walk(x)
        elif isinstance(c, ft.BaseControl):
            if getattr(c, "content", None) == text:
                found.append(c)
            for attr in ("controls", "content"):
                walk(getattr(c, attr, None))
    walk(control)
    return found


def test_panel_builds_through_two_turns_with_a_run():
    s = R.new_state(R.Settings())
    view.panel(FakeFrame(s))
    n = 0
    history: list = []

    def go(action):
        nonlocal n, s
        n += 1
        s = step(s, action, n, history)

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
            shown = texts(view.panel(FakeFrame(s, history)))
            assert "Interest +2: 10% of 20 = 2" in shown  # read from the typed "interest" event
        if s.phase == "payment":
            break
        go(R.Advance())
    assert s.phase == "payment"
    assert "due on 1–4 (67%)" in texts(view.panel(FakeFrame(s)))
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
        assert "Who takes the next hit?" in shown and "survives" in shown  # each hit's odds, from its chance
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
    assert "game lost on 1–3 (50%)" in shown


def test_setup_form_collects_settings():
    form = view.SetupForm(None)
    data = form.collect()
    assert R.Settings.model_validate(data).loan == 20
    form.loan.value = "21"
    with pytest.raises(ValidationError):
        R.Settings.model_validate(form.collect())


def test_a_full_tie_is_shown_from_its_chance_and_the_button_just_dispatches():
    """The view counts no dice: it shows the first roll the refresh declares (a die named by the tied
    objectives) and dispatches the action as it is; the frame asks a physical table for each die."""
    s = R.new_state(R.Settings(difficulty="extreme")).model_copy(update={
        "phase": "objective", "turn": 1,
        "objectives": [R.Objective(id=i, name=n, rep=15, challenges=2) for i, n in ((1, "A"), (2, "B"), (3, "C"))]})
    frame = FakeFrame(s)
    frame.__dict__["_shadowrun_typed"] = {}
    built = view.panel(frame)
    assert "1 d3 for the tie for extra challenge 1 among A, B and C: A (33%) · B (33%) · C (33%)" in texts(built)
    find(built, "Refresh the challenges (1b)")[0].on_click(None)
    assert frame.dispatched == [(R.RefreshChallenges(), True)]


def test_take_the_objective_is_greyed_with_the_rule_until_every_challenge_is_beaten():
    s = R.new_state(R.Settings()).model_copy(update={
        "phase": "shadowrun", "turn": 1, "run_taken": True,
        "objectives": [R.Objective(id=1, name="Heist", rep=25, challenges=1)],
        "cards": [R.Card(id=2, name="Face", cost=3, body=4, turned=True)],
        "run": R.Run(objective_id=1, team=[2], events_to_draw=1)})
    [take] = find(view.panel(FakeFrame(s)), "Take the objective (+25 rep)")
    assert take.disabled and take.tooltip == "Beat or sleaze every challenge on Heist first: 1 left."
    s, _ = R.apply(s, R.TrashChallenge(), SeededDice(1, 1))
    [take] = find(view.panel(FakeFrame(s)), "Take the objective (+25 rep)")
    assert not take.disabled


def test_a_number_out_of_its_range_is_refused_with_the_moves_range():
    s = R.new_state(R.Settings()).model_copy(update={"phase": "legwork", "turn": 1})
    frame = FakeFrame(s)
    frame.__dict__["_shadowrun_typed"] = {}
    ui = view.Ui(frame)
    field = ft.TextField(value="-3")
    with pytest.raises(InputError, match="Off the loan must be between 0 and 20"):
        ui.number(field, "pay_off", "loan")
