"""Shadowrun: Singularis, steps that pass by themselves (`Settings.auto_pass`, on for new campaigns).

When an action leaves the turn at a step with nothing to choose and no die to roll, the same action
takes it (its one required action, if any), logs a typed `step_passed` event saying why, and moves on.
It never rolls a die; a step that needs one waits. Campaigns made before the setting existed replay
exactly as they were played (their settings lack it: off), byte for byte."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from companion.dice import ScriptedDice, SeededDice
from companion.games.base import Event, RuleError
from companion.games.shadowrun import rules as R
from companion.games.shadowrun.ledger import lines_in, reconciles, totals
from companion.games.shadowrun.rules import GAME, Settings, State, apply, new_state
from companion.log import Store, replay
from models.db import open_database
from tests.helpers import memory_store

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"
OBJECTIVES = (("Courier", 5), ("Extraction", 15), ("Heist", 25))


def act(s: State, action, *faces: int) -> tuple[State, list[Event]]:
    """Apply with exactly these die faces: every roll the action declares is one of them."""
    dice = ScriptedDice(faces)
    new, events = apply(s, action, dice)
    assert dice.faces == [], f"unused faces {dice.faces}"
    return new, events


def kinds(events: list[Event]) -> list[str]:
    return [e.kind for e in events]


def passed(events: list[Event]) -> list[tuple[str, str]]:
    return [(e.data["phase"], e.data["why"]) for e in events if e.kind == "step_passed"]


def set_up(**settings) -> State:
    s = new_state(Settings(auto_pass=True, **settings))
    for name, rep in OBJECTIVES:
        s, _ = act(s, R.AddObjective(name=name, rep=rep))
    return s


def moved(s: State, phase: str, **changes) -> State:
    """The same state at the start of `phase` (for one step's rule on its own)."""
    return s.model_copy(update={"phase": phase, "turn": max(1, s.turn), "step_done": False, "payment_due": None,
                                **changes}, deep=True)


# --- the setting: off for old campaigns, on for new ones ------------------------------------------------


def test_the_setting_is_off_unless_given_and_written_only_when_on():
    assert Settings().auto_pass is False
    assert Settings.model_validate({"loan": 10}).auto_pass is False  # an old campaign's settings
    assert "auto_pass" not in Settings().model_dump(mode="json")  # old saves dump byte for byte as before
    assert "auto_pass" not in new_state(Settings()).model_dump_json()
    on = Settings(auto_pass=True)
    assert on.model_dump(mode="json")["auto_pass"] is True
    assert Settings.model_validate_json(on.model_dump_json()) == on
    assert State.model_validate_json(new_state(on).model_dump_json()) == new_state(on)


def test_the_setup_form_turns_it_on_for_a_new_campaign():
    from companion.games.shadowrun.view import SetupForm

    assert Settings.model_validate(SetupForm(app=None).collect()).auto_pass is True


def test_off_the_turn_goes_one_step_per_action_as_before():
    s = new_state(Settings())
    for name, rep in OBJECTIVES:
        s, _ = act(s, R.AddObjective(name=name, rep=rep))
    s, events = act(s, R.Advance())
    assert (s.phase, kinds(events)) == ("objective", ["phase"])
    assert R.advance_to(s) == "refresh"


# --- a quiet turn ---------------------------------------------------------------------------------------


def test_a_quiet_turn_takes_five_actions_and_every_passed_step_says_why():
    s = set_up()
    # Starting turn 1: 1b needs no choice (three objectives, no tie): placed, passed, on to Refresh.
    assert R.advance_to(s) == "refresh"
    s, events = act(s, R.Advance())
    assert (s.turn, s.phase) == (1, "refresh")
    assert passed(events) == [("objective", "challenges placed as listed, nothing to choose")]
    assert "extra_challenge" in kinds(events)
    taken = 0

    def go(action, *faces):
        nonlocal s, taken
        taken += 1
        s, events = act(s, action, *faces)
        return events

    assert R.advance_to(s) == "income"
    events = go(R.Advance())
    assert s.phase == "income" and passed(events) == [("paid", "+0, nothing to collect")]
    assert R.advance_to(s) == "payment"
    events = go(R.Advance())
    assert s.phase == "payment" and passed(events) == [("payroll", "no upkeep due"),
                                                       ("interest", "interest charged, nothing to choose")]
    assert s.interest == 2 and s.payment_due is None  # the payment roll needs a die: the table rolls it
    events = go(R.RollPaymentDue(), 6)  # debt 22: due on 1–4
    assert s.phase == "legwork" and passed(events) == [("payment", "not due this turn")]
    assert R.advance_to(s) == "end"  # no runner in play: nothing to run with, and no roll to survive
    events = go(R.Advance())
    assert s.phase == "end" and passed(events) == [("shadowrun", "no unturned runner, no run"),
                                                   ("victory", "not won yet, no roll to make")]
    events = go(R.Advance())
    assert (s.turn, s.phase) == (2, "refresh")
    assert taken == 5


def test_a_passed_step_is_one_action_its_ledger_lines_on_its_own_events():
    s = moved(set_up(), "income", cards=[R.Card(id=9, name="Decker", cost=2, upkeep=1, body=3)], next_id=10)
    s, events = act(s, R.Advance())
    assert s.phase == "payment" and (s.cash, s.interest) == (19, 2)
    # Each line rides on the event that says what changed, never on the step_passed event after it.
    carrying = {e.kind: [line["account"] for line in e.data.get("lines", [])] for e in events if e.data.get("lines")}
    assert carrying == {"payroll": ["cash"], "interest": ["interest"]}
    assert ("payroll", "upkeep 1 paid, cash covered it") in passed(events)
    assert [(l.phase, l.amount) for l in lines_in(events)] == [("payroll", -1), ("interest", 2)]


# --- a step that needs a die, or a choice, waits ----------------------------------------------------------


def test_a_tie_break_die_stops_the_pass_and_no_die_is_rolled_for_it():
    s = moved(set_up(), "end")
    s.objectives[1].rep = 25  # Extraction now ties with Heist: 25 rep, challenges 3 and 3
    s.objectives[1].challenges = 3
    s, events = act(s, R.Advance())  # no face given: a throw would fail the test
    assert (s.phase, s.step_done, passed(events)) == ("objective", False, [])
    assert GAME.chance_for(s, R.RefreshChallenges()).die.faces == ("Extraction", "Heist")
    s, events = act(s, R.RefreshChallenges(), 2)  # the table rolls it, then the step passes
    assert s.phase == "refresh" and passed(events)[0][0] == "objective"


def test_fewer_than_three_objectives_waits_for_the_table_to_add_one():
    s = moved(set_up(), "end")
    s = s.model_copy(update={"objectives": s.objectives[:2]}, deep=True)
    s, _ = act(s, R.Advance())
    assert (s.phase, s.step_done) == ("objective", False)
    s, events = act(s, R.AddObjective(name="Wetwork", rep=12))  # the third: 1b passes by itself
    assert s.phase == "refresh" and passed(events)[0][0] == "objective"


def test_payroll_waits_when_cash_runs_short_and_passes_once_paid():
    cards = [R.Card(id=9, name="Samurai", cost=2, upkeep=3, body=4), R.Card(id=10, name="Decker", cost=1, upkeep=1, body=3)]
    s = moved(set_up(), "income", cards=cards, next_id=11, cash=2)
    s, events = act(s, R.Advance())
    assert s.phase == "payroll" and passed(events) == []
    s, events = act(s, R.Payroll(unpaid=[9]))
    assert s.phase == "payment" and [c.name for c in s.cards] == ["Decker"]
    assert passed(events)[0] == ("payroll", "upkeep 1 paid, cash covered it")


def test_payment_due_waits_for_pay_or_refuse_then_passes():
    s = moved(set_up(), "payment", interest=2, loan=20)
    s, events = act(s, R.RollPaymentDue(), 1)
    assert (s.phase, s.payment_due, passed(events)) == ("payment", True, [])
    s, events = act(s, R.PayInterest())
    assert s.phase == "legwork" and passed(events) == [("payment", "the payment is settled")]


def test_no_interest_owed_passes_the_payment_step_without_a_roll():
    s = moved(set_up(), "interest", loan=0, interest=0)
    s = s.model_copy(update={"phase": "income"})
    s, events = act(s, R.Advance())  # no face given: no die is thrown
    assert s.phase == "legwork"
    assert ("payment", "no interest owed, nothing to pay (no roll needed)") in passed(events)


def test_always_due_needs_no_die_so_the_roll_is_taken_and_the_table_chooses():
    s = moved(set_up(), "interest", loan=40, interest=0)
    s, events = act(s, R.ChargeInterest())  # +4: debt 44, always due
    assert (s.phase, s.payment_due, s.step_done) == ("payment", True, False)
    assert "payment_wanted" in kinds(events)


def test_a_survival_roll_stops_the_victory_check():
    s = moved(set_up(), "shadowrun", reputation=-2)
    s, events = act(s, R.Advance())
    assert (s.phase, s.step_done) == ("victory", False)
    s, events = act(s, R.CheckVictory(), 5)
    assert s.phase == "end" and passed(events) == [("victory", "not won yet, and you survive the roll")]


def test_reputation_minus_six_is_lost_without_a_die_when_the_turn_reaches_it():
    s = moved(set_up(), "shadowrun", reputation=-6)
    s, events = act(s, R.Advance())
    assert (s.phase, s.result) == ("over", "Lost")
    assert kinds(events)[-1] == "survival"


def test_taking_the_objective_that_wins_ends_the_game_in_the_same_action():
    s = moved(set_up(target_reputation=5), "legwork", loan=0, interest=0,
              cards=[R.Card(id=9, name="Samurai", cost=2, body=4)], next_id=10)
    s, _ = act(s, R.Advance())
    assert s.phase == "shadowrun"  # a runner and objectives: a run is the table's choice
    s, _ = act(s, R.StartRun(objective_id=1, team=[9]))
    s, _ = act(s, R.DrawEvent(cost=0))
    s, _ = act(s, R.TrashChallenge())
    s, events = act(s, R.CompleteObjective())
    assert (s.phase, s.result) == ("over", "Won")
    assert kinds(events)[-2:] == ["phase", "victory"] and passed(events) == [("shadowrun", "the run for this turn is over")]
    assert R.advance_to(moved(s, "shadowrun", result=None, run_taken=True)) == "victory"  # the label names the check


# --- the log: old step actions, undo, replay ---------------------------------------------------------------


def test_an_explicit_step_action_for_a_passed_step_is_refused_with_a_message():
    s = set_up()
    s, _ = act(s, R.Advance())
    s, _ = act(s, R.Advance())  # 3a passed: at 3b
    with pytest.raises(RuleError, match="Not in Credstick 3b · Secondary income"):
        apply(s, R.GetPaid(), ScriptedDice([]))
    assert GAME.why_not(s, R.GetPaid()).startswith("Not in Credstick 3b")


def test_undo_takes_back_the_action_with_the_steps_it_passed():
    store = memory_store()
    cid = store.create("shadowrun", "Quiet", {"auto_pass": True}, seed=3)
    cursor = 0
    for name, rep in OBJECTIVES:
        cursor = store.apply(cid, R.AddObjective(name=name, rep=rep), expected_cursor=cursor).cursor
    cursor = store.apply(cid, R.Advance(), expected_cursor=cursor).cursor
    before = store.load(cid).state
    cursor = store.apply(cid, R.Advance(), expected_cursor=cursor).cursor
    cursor = store.apply(cid, R.Advance(), expected_cursor=cursor).cursor
    assert store.load(cid).game_state.phase == "payment"
    cursor = store.undo(cid, expected_cursor=cursor).cursor
    assert store.load(cid).game_state.phase == "income"
    store.undo(cid, expected_cursor=cursor)
    assert store.load(cid).state == before
    assert store.load(cid).campaign.settings["auto_pass"] is True


def plain_step(s: State) -> R.Model:
    """What a plain table does: the step's own roll or payment if it waits for one, else advance."""
    kind = next(k for k in ("pay_interest", "roll_payment_due", "refresh_challenges", "payroll", "check_victory",
                            "advance") if R.why_not(s, k) is None)
    return GAME.parse_action({"kind": kind})


def test_a_campaign_with_passes_replays_to_the_same_states():
    s = set_up()
    log = []
    for n in range(20):
        action = plain_step(s)
        s, _ = apply(s, action, SeededDice(11, n))
        log.append((action, s))
    assert s.turn >= 3
    again = set_up()
    for n, (action, stored) in enumerate(log):
        again, _ = apply(again, GAME.parse_action(GAME.dump_action(action)), SeededDice(11, n))
        assert again == stored


def test_the_shipped_old_save_replays_to_its_recorded_states(tmp_path):
    """The newest save fixture was written before steps could pass by themselves: its Shadowrun
    campaign replays through today's rules to exactly the states it recorded."""
    saves = sorted(FIXTURES.glob("save-*.sqlite"))
    path = Path(shutil.copy(saves[-1], tmp_path / saves[-1].name))
    store = Store(open_database(f"sqlite:///{path}"))
    [campaign] = [c for c in store.list_campaigns() if c.game == "shadowrun"]
    assert "auto_pass" not in campaign.settings
    rows = store.log_rows(campaign.id)
    assert len(rows) > 1
    entries = [{"seq": r.seq, "action": r.action, "dice": r.dice, "state": r.state, "snapshot": r.snapshot}
               for r in rows]
    report = replay(GAME, campaign.settings, entries)
    assert report.ok, report.mismatches
    assert report.checked == len(rows) - 1
    store.db.close()


def test_books_balance_through_passed_steps_over_many_turns():
    s = set_up()
    lines = R.opening_lines(s.settings)
    n = 0
    while s.turn < 6 and s.phase != "over":
        s, events = apply(s, plain_step(s), SeededDice(5, n))
        lines += lines_in(events)
        n += 1
        sums = totals(lines)
        assert {a: getattr(s, a) for a in sums} == sums and reconciles(lines, sums)
    assert s.turn == 6 or s.phase == "over"
