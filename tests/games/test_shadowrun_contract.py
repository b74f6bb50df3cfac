"""Shadowrun: Singularis on the game contract: every roll a declared chance node (with its odds), a
physical-dice table asked for every die (also the one after a pumped 6), typed events, the moves
the view draws from, and the objective rule (taken only once every challenge on it is beaten)."""

from __future__ import annotations

import inspect

import pytest

from companion.dice import PhysicalDice, ScriptedDice
from companion.games.base import Chance
from companion.games.shadowrun import rules as R
from companion.games.shadowrun.rules import GAME
from companion.log import step
from companion.table import CampaignState, GiveDice, SetPhysicalDice
from tests.helpers import memory_store


def runner(cid: int, name: str, **kw) -> R.Card:
    return R.Card(id=cid, name=name, cost=kw.pop("cost", 3), body=kw.pop("body", 4), **kw)


def state(phase: str, **update) -> R.State:
    """Turn 1 in `phase` with the usual three objectives (Courier 5, Extraction 20, Heist 25)."""
    s = R.new_state(R.Settings())
    for name, rep in (("Courier", 5), ("Extraction", 20), ("Heist", 25)):
        s, _ = R.apply(s, R.AddObjective(name=name, rep=rep), ScriptedDice([]))
    return s.model_copy(update={"phase": phase, "turn": 1, **update}, deep=True)


def on_a_run(*cards: R.Card, objective: int = 1, **update) -> R.State:
    s = state("shadowrun", cards=list(cards), next_id=10, **update)
    s, _ = R.apply(s, R.StartRun(objective_id=objective, team=[c.id for c in cards]), ScriptedDice([]))
    return s


def declared(s: R.State, action, *faces: int) -> list[Chance]:
    dice = ScriptedDice(faces)
    R.apply(s, action, dice)
    assert dice.faces == []
    return dice.chances


def odds(chance: Chance) -> list[tuple[str, float]]:
    return [(o.label, round(o.probability, 4)) for o in chance.outcomes]


# --- the objective rule (RULES.md §2: every challenge sleazed, defeated or otherwise completed) --------


def test_the_objective_is_taken_only_once_every_challenge_on_it_is_beaten():
    s = on_a_run(runner(1, "Face"), objective=2)  # Extraction: 20 rep, 2 challenges
    message = "Beat or sleaze every challenge on Extraction first: 2 left."
    with pytest.raises(R.RuleError, match=message):
        R.apply(s, R.CompleteObjective(), ScriptedDice([]))
    assert GAME.why_not(s, R.CompleteObjective()) == message
    [greyed] = [m for m in GAME.legal_moves(s) if m.kind == "complete_objective"]
    assert greyed.why_not == message and not greyed.ready
    s, _ = R.apply(s, R.TrashChallenge(), ScriptedDice([]))
    assert GAME.why_not(s, R.CompleteObjective()) == "Beat or sleaze every challenge on Extraction first: 1 left."
    s, _ = R.apply(s, R.TrashChallenge(), ScriptedDice([]))
    assert GAME.why_not(s, R.CompleteObjective()) is None
    assert any(m.ready and m.action == R.CompleteObjective() for m in GAME.legal_moves(s))
    s, events = R.apply(s, R.CompleteObjective(), ScriptedDice([]))
    assert s.reputation == 20 and events[0].kind == "objective_taken"


def test_a_run_that_fails_a_challenge_ends_and_the_objective_stays_in_play():
    s = on_a_run(runner(1, "Face"), objective=3)
    s, events = R.apply(s, R.EndRun(), ScriptedDice([]))
    assert events[0].kind == "run_ended" and s.run is None
    assert [o.name for o in s.objectives] == ["Courier", "Extraction", "Heist"] and s.reputation == 0


# --- every roll a chance node -------------------------------------------------------------------------


def test_the_rules_never_roll_an_undeclared_die():
    source = inspect.getsource(R)
    assert "dice.roll(" not in source and "roll_many(" not in source


def test_payment_due_declares_the_debt_band():
    s = state("payment", interest=2)  # debt 22
    [roll] = declared(s, R.RollPaymentDue(), 4)
    assert roll.text == "1 d6 for the payment-due roll (total debt 22): due on 1–4; not due on 5–6"
    assert odds(roll) == [("due on 1–4", 0.6667), ("not due on 5–6", 0.3333)]
    assert declared(state("payment", loan=40), R.RollPaymentDue()) == []  # 40+: always due, no die


def test_errands_declare_their_die_and_the_two_more_after_a_six():
    s = state("legwork", cards=[runner(1, "Ghost")], next_id=2)
    [errand] = declared(s, R.RunErrand(card_id=1), 6)
    assert errand.why == "Ghost's errand" and [o.label for o in errand.outcomes] == [
        "1: nothing", "2–5: that many Nuyen", "6: take 6, or roll two more dice"]
    s, events = R.apply(s, R.RunErrand(card_id=1), ScriptedDice([6]))
    assert events[0].data == {"card_id": 1, "name": "Ghost", "face": 6, "earned": None, "cash": 20}
    [two] = declared(s, R.RollTwo(), 3, 5)
    assert two.count == 2 and odds(two) == [("more than 6: better than taking the 6", 0.5833), ("6 or less", 0.4167)]
    s, events = R.apply(s, R.RollTwo(), ScriptedDice([3, 5]))
    assert events[0].kind == "errand_six" and events[0].data["faces"] == [3, 5] and s.cash == 28


def test_luck_of_the_draw_is_one_throw_of_two_dice():
    [luck] = declared(state("refresh"), R.RollLuck(), 2, 2)
    assert (luck.count, luck.die.sides) == (2, 6) and odds(luck)[0] == ("doubles: draw from any deck", 0.1667)
    _, events = R.apply(state("refresh"), R.RollLuck(), ScriptedDice([1, 4]))
    assert events[0].data == {"faces": [1, 4], "doubles": False, "decks": ["Magic", "Info"]}


def test_hits_declare_their_dice_and_the_chance_to_kill():
    s = on_a_run(runner(1, "Troll", body=6, armor=2), runner(2, "Elf", body=2))
    s, _ = R.apply(s, R.StartDamage(amount=13), ScriptedDice([]))  # 2d6 a hit
    [hit] = declared(s, R.TakeHit(card_id=1), 3, 3)
    assert hit.count == 2 and hit.why == "the hit on Troll (13 damage left)"
    assert odds(hit) == [("8 or more kills Troll", 0.4167), ("less: Troll survives", 0.5833)]  # 6 body + 2 armor
    [hit] = declared(s, R.TakeHit(card_id=2), 1, 1)
    assert odds(hit) == [("any roll kills Elf", 1.0)]
    s, _ = R.apply(s, R.TakeHit(card_id=2), ScriptedDice([6, 6]))  # Elf dies; 1 left
    [hit] = declared(s, R.TakeHit(card_id=1), 1, 1)
    assert odds(hit) == [("Troll survives: only 1 damage is left", 1.0)]


def test_survival_and_events_declare_their_odds():
    [survive] = declared(state("victory", reputation=-2), R.CheckVictory(), 5)
    assert survive.text == "1 d6 for the survival roll (reputation -2): game lost on 1–2; you survive on 3–6"
    s = on_a_run(runner(1, "Face"))
    [event_roll] = declared(s, R.DrawEvent(cost=5), 5)
    assert odds(event_roll) == [("played on 5–6", 0.3333), ("not played on 1–4", 0.6667)]


def test_chance_for_is_the_first_roll_an_action_needs():
    s = on_a_run(runner(1, "Face"))
    assert GAME.chance_for(s, R.Pump()).why == "the pumped cost"
    assert GAME.chance_for(s, R.DrawEvent(cost=1)) is None
    assert GAME.chance_for(s, R.TrashChallenge()) is None


# --- a physical-dice table: the pump's die after a 6 is asked for, never rolled by the app ------------


def test_a_pumped_six_waits_for_the_next_die_and_the_total_is_the_sum():
    table = CampaignState(game=on_a_run(runner(1, "Face")).model_dump(mode="json"), physical_dice=True)
    done = step(GAME, table, R.Pump(), PhysicalDice())
    assert done.dice == [] and done.state.pending.chance.why == "the pumped cost"
    done = step(GAME, done.state, GiveDice(faces=[6]), PhysicalDice())
    pending = done.state.pending
    assert pending is not None and pending.given == [6]  # the 6 is kept; the next die is the table's
    assert [(d.value, d.physical) for d in done.dice] == [(6, True)]
    assert pending.chance.text == "1 d6 for the pumped cost: the die after the 6: 7–12 Nuyen in all"
    assert done.events[0].kind == "waiting"
    done = step(GAME, done.state, GiveDice(faces=[4]), PhysicalDice())
    assert done.state.pending is None
    assert [(d.value, d.physical) for d in done.dice] == [(4, True)]  # each entry records the dice it gave
    assert done.events[0].kind == "pumped" and done.events[0].data == {"faces": [6, 4], "total": 10}


def test_a_pumped_six_through_the_store_and_undo_asks_again():
    store = memory_store()
    cid = store.create("shadowrun", "Sprawl", {})

    def go(action) -> None:
        store.apply(cid, action, expected_cursor=store.load(cid).cursor)
    for action in (R.AddObjective(name="Courier", rep=5), R.AddObjective(name="Extraction", rep=15),
                   R.AddObjective(name="Heist", rep=25), R.Advance(), R.RefreshChallenges(), R.Advance(),
                   R.Advance(), R.GetPaid(), R.Advance(), R.Advance(), R.Payroll(), R.Advance(),
                   R.ChargeInterest(), R.Advance(), SetPhysicalDice(on=True), R.RollPaymentDue(),
                   GiveDice(faces=[6]),  # debt 22: not due on a 6
                   R.Advance(), R.Deploy(name="Face", cost=3, body=4), R.Advance(),
                   R.StartRun(objective_id=1, team=[4]), R.Pump(), GiveDice(faces=[6])):
        go(action)
    loaded = store.load(cid)
    assert loaded.state.pending.chance.why == "the pumped cost: the die after the 6"
    go(GiveDice(faces=[5]))
    rows = store.log_rows(cid)
    assert [rows[-2].dice, rows[-1].dice] == [[[6, 6, 1]], [[6, 5, 1]]]  # both entered by the table
    assert rows[-1].events[0]["data"] == {"faces": [6, 5], "total": 11}
    store.undo(cid, expected_cursor=store.load(cid).cursor)
    assert store.load(cid).state.pending.given == [6]  # undo asks for the die after the 6 again


# --- moves: what the view draws ------------------------------------------------------------------------


def test_moves_list_each_kind_ready_or_greyed_with_the_reason_apply_gives():
    s = state("legwork", cards=[runner(1, "Ghost"), runner(2, "Dodger", turned=True, damage=1)], next_id=3,
              interest=3)
    moves = GAME.legal_moves(s)
    assert {m.kind for m in moves} == set(R.ALL_KINDS)
    for m in moves:
        if m.why_not is not None:
            assert m.why_not == R.why_not(s, m.kind)
        elif m.ready:
            assert GAME.why_not(s, m.action) is None, m.label
    assert [m.label for m in moves if m.kind == "run_errand"] == ["Errand: Ghost"]  # Dodger is turned
    [pay_off] = [m for m in moves if m.kind == "pay_off"]
    assert [(f.name, f.label, f.low, f.high) for f in pay_off.fields] == [
        ("loan", "Off the loan", 0, 20), ("interest", "Off the interest", 0, 3)]
    [deploy] = [m for m in moves if m.kind == "deploy"]
    assert deploy.fields[1].choices == ("runner", "spirit", "drone", "other") and deploy.fields[2].hint == "0–50"
    heal = [m for m in moves if m.kind == "heal"]
    assert heal[0].why_not == "No unturned card has damage to heal."


def test_payroll_offers_a_choice_the_rules_accept_when_cash_runs_short():
    s = state("payroll", cards=[runner(1, "Decker", upkeep=3), runner(2, "Shaman", upkeep=2),
                                runner(3, "Rigger", upkeep=4)], next_id=4, cash=5)
    ready = [m for m in GAME.legal_moves(s) if m.kind == "payroll" and m.ready]
    assert ready[0].action == R.Payroll(unpaid=[3])  # Decker 3 + Shaman 2 paid, Rigger's 4 can't be
    assert GAME.why_not(s, ready[0].action) is None
