"""Shadowrun: Singularis rules (RULES.md §2): one test per rule, the book's examples verbatim."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from companion.dice import ScriptedDice, SeededDice
from companion.games.base import Chance, Event, InputError, RuleError, field_specs
from companion.games.shadowrun import rules as R
from companion.games.shadowrun.ledger import Journal, Line, balances_by_turn, lines_for, lines_in, post, reconciles, totals
from companion.games.shadowrun.rules import (
    GAME, AddObjective, Adjust, Advance, Card, ChargeInterest, CheckVictory, CompleteObjective, Deploy,
    DiscardObjective, DrawEvent, EndRun, GetPaid, Heal, Objective, PayInterest, PayOff, Payroll, PickRandom,
    Pump, RefreshChallenges, RefusePayment, RemoveCard, RollLuck, RollPaymentDue, RollTwo, RunErrand,
    SecondaryIncome, SellCards, Settings, Spend, StartDamage, StartRun, State, TakeHit, TakeNuyen, TakeSix,
    TrashChallenge, apply, legal_actions, new_state,
)


# --- helpers --------------------------------------------------------------------------------------------


# The ledger is not in the state: it is the campaign's opening lines and then the lines its events
# carry, in order (as the log keeps them). The helpers keep each state's lines beside it.
_LINES: dict[int, tuple[State, list[Line]]] = {}


def lines_of(s: State) -> list[Line]:
    """The ledger up to `s` (the opening lines for a state no helper made)."""
    kept = _LINES.get(id(s))
    return kept[1] if kept is not None and kept[0] is s else R.opening_lines(s.settings)


def _keep(s: State, lines: list[Line]) -> State:
    _LINES[id(s)] = (s, lines)
    return s


def act(state: State, action, *faces: int) -> tuple[State, list[Event]]:
    """Apply with exactly these die faces (all must be used)."""
    dice = ScriptedDice(faces)
    new, events = apply(state, action, dice)
    assert dice.faces == [], f"unused faces {dice.faces}"
    assert all(isinstance(e, Event) and e.kind != "text" for e in events), "every event has a kind"
    return _keep(new, lines_of(state) + lines_in(events)), events


def chances(state: State, action, *faces: int) -> list[Chance]:
    """The rolls the action declares, in order, when the dice show these faces."""
    dice = ScriptedDice(faces)
    apply(state, action, dice)
    return dice.chances


def kinds(events: list[Event]) -> list[str]:
    return [e.kind for e in events]


def out_of_range(cls, **fields) -> None:
    """The action model itself refuses the value: the form's range (`field_specs`) says so first."""
    with pytest.raises(ValidationError):
        cls(**fields)


def ok(state: State, action, *faces: int) -> State:
    return act(state, action, *faces)[0]


def refused(state: State, action, error=RuleError, *faces: int, match: str | None = None) -> str:
    """The action is refused and the state is untouched."""
    before = state.model_dump_json()
    with pytest.raises(error, match=match) as info:
        apply(state, action, ScriptedDice(faces))
    assert state.model_dump_json() == before
    return str(info.value)


def started(**settings) -> State:
    """Setup done with the usual three objectives (5, 20, 25 rep): turn 1, Objective phase."""
    s = new_state(Settings(**settings))
    for name, rep in (("Courier", 5), ("Extraction", 20), ("Heist", 25)):
        s = ok(s, AddObjective(name=name, rep=rep))
    return ok(s, Advance())


def at(state: State, phase: str, **changes) -> State:
    """The same state moved to a phase (for testing one phase's rule on its own). Balances given
    here are set through the ledger, so the books still balance."""
    s = state.model_copy(update={"phase": phase, "step_done": False, "payment_due": None}, deep=True)
    journal = Journal()
    for account in ("loan", "cash", "interest", "reputation"):
        if account in changes:
            post(s, journal, account, changes.pop(account) - getattr(s, account), "test setup")
    return _keep(s.model_copy(update=changes, deep=True), lines_of(state) + journal.unlogged)


def with_cards(state: State, *cards: Card) -> State:
    next_id = max([c.id for c in cards] + [state.next_id - 1]) + 1
    return _keep(state.model_copy(update={"cards": list(cards), "next_id": next_id}, deep=True), lines_of(state))


def runner(cid: int, name: str = "", cost: int = 3, body: int = 4, **kw) -> Card:
    return Card(id=cid, name=name or f"Runner{cid}", cost=cost, body=body, **kw)


def books_balance(s: State) -> None:
    lines = lines_of(s)
    sums = totals(lines)
    assert (s.loan, s.cash, s.interest, s.reputation) == (
        sums["loan"], sums["cash"], sums["interest"], sums["reputation"]
    )
    assert reconciles(lines, {"loan": s.loan, "cash": s.cash, "interest": s.interest, "reputation": s.reputation})


# --- settings and setup ---------------------------------------------------------------------------------


def test_game_contract():
    assert GAME.key == "shadowrun" and GAME.title == "Shadowrun: Singularis"
    assert GAME.Settings is Settings and GAME.State is State


def test_settings_defaults():
    s = Settings()
    assert (s.loan, s.target_reputation, s.difficulty) == (20, 25, "normal")
    assert s.luck_of_the_draw and s.chipjacks
    assert len(s.deck_table) == 6


@pytest.mark.parametrize("loan", [0, 21, -5])
def test_loan_out_of_range_refused(loan):
    with pytest.raises(ValidationError):
        Settings(loan=loan)


@pytest.mark.parametrize("loan", [1, 20])
def test_loan_edges_allowed_and_cash_starts_equal(loan):
    s = new_state(Settings(loan=loan))
    assert (s.loan, s.cash, s.interest, s.reputation) == (loan, loan, 0, 0)
    books_balance(s)


def test_settings_reject_bad_difficulty_and_deck_table():
    with pytest.raises(ValidationError):
        Settings(difficulty="nightmare")
    with pytest.raises(ValidationError):
        Settings(deck_table=["a", "b", "c", "d", "e"])


@pytest.mark.parametrize("rep,challenges", [(1, 1), (5, 1), (10, 1), (11, 2), (20, 2), (21, 3), (25, 3), (30, 3), (31, 4)])
def test_challenges_are_rep_over_ten_rounded_up(rep, challenges):
    assert R.challenges_for(rep) == challenges


def test_new_objective_gets_its_challenges():
    s, events = act(new_state(Settings()), AddObjective(name="Heist", rep=25))
    assert s.objectives[0].challenges == 3
    assert "3 challenge" in events[0].text


def test_setup_needs_one_objective_per_range():
    s = ok(new_state(Settings()), AddObjective(name="A", rep=8))
    refused(s, AddObjective(name="B", rep=10), match="already has an objective worth ≤10")
    refused(s, Advance(), match="missing: 11–20, 21")
    s = ok(s, AddObjective(name="B", rep=11))
    s = ok(s, AddObjective(name="C", rep=21))
    s = ok(s, Advance())
    assert (s.turn, s.phase) == (1, "objective")


def test_luck_of_the_draw_names_the_decks():
    s = new_state(Settings(deck_table=["Magic", "Rigger", "Decker", "Info", "Runners", "Gear"]))
    _, events = act(s, RollLuck(), 3, 5)
    assert "Decker" in events[0].text and "Runners" in events[0].text
    _, events = act(s, RollLuck(), 4, 4)
    assert "doubles" in events[0].text and "any deck" in events[0].text


def test_luck_of_the_draw_off_is_refused():
    refused(new_state(Settings(luck_of_the_draw=False)), RollLuck(), match="off")


# --- the phase stepper ----------------------------------------------------------------------------------


def test_phases_run_in_the_numbered_order_and_need_their_steps():
    s = started()
    seen = [s.phase]
    refused(s, Advance(), match="Refresh the challenges")
    s = ok(s, RefreshChallenges())
    for required, faces in [(None, ()), (GetPaid(), ()), (None, ()), (Payroll(), ()), (ChargeInterest(), ()),
                            (RollPaymentDue(), (6,)), (None, ()), (None, ()), (CheckVictory(), ()), (None, ())]:
        s = ok(s, Advance())
        seen.append(s.phase)
        if required is not None:
            refused(s, Advance())
            s = ok(s, required, *faces)
    s = ok(s, Advance())
    seen.append(s.phase)
    assert seen == ["objective", "refresh", "paid", "income", "payroll", "interest", "payment",
                    "legwork", "shadowrun", "victory", "end", "objective"]
    assert s.turn == 2


def test_actions_are_legal_only_in_their_phase():
    s = started()
    msg = refused(s, ChargeInterest(), match="Not in Objective")
    assert "Credstick 3d" in msg
    refused(s, SellCards(count=1), match="Legwork")
    refused(at(s, "legwork"), RefreshChallenges(), match="Objective")
    assert "charge_interest" in legal_actions(at(s, "interest"))
    assert "charge_interest" not in legal_actions(at(s, "legwork"))
    assert "advance" not in legal_actions(s)


def test_each_phase_offers_its_actions():
    s = started()
    assert {"add_objective", "refresh_challenges"} <= set(legal_actions(at(s, "objective", objectives=s.objectives[:2])))
    assert "take_nuyen" in legal_actions(at(s, "refresh"))
    assert "get_paid" in legal_actions(at(s, "paid"))
    assert "secondary_income" in legal_actions(at(s, "income"))
    assert "payroll" in legal_actions(at(s, "payroll"))
    assert "roll_payment_due" in legal_actions(at(s, "payment"))
    assert {"deploy", "spend", "sell_cards", "pay_off"} <= set(legal_actions(at(s, "legwork")))
    assert "check_victory" in legal_actions(at(s, "victory"))


def test_headline_and_describe():
    s = started()
    assert R.headline(s) == "Turn 1 · Objective"
    assert R.headline(at(s, "interest")) == "Turn 1 · Credstick 3d · Interest"
    assert R.headline(new_state(Settings())) == "Setup"
    assert R.describe(PayOff(loan=3, interest=2)) == "pay off 5"
    assert R.describe(Adjust(account="cash", amount=-2, reason="x")) == "cash -2"
    assert R.outcome(s) is None


# --- 1 Objective ----------------------------------------------------------------------------------------


def test_new_objectives_come_before_the_refresh():
    s = started()
    s = ok(s, DiscardObjective(objective_id=s.objectives[0].id))
    s = ok(s, AddObjective(name="New", rep=14))
    assert s.objectives[-1].challenges == 2
    refused(s, AddObjective(name="Fourth", rep=5), match="Three objectives")
    s2 = ok(at(s, "objective", objectives=s.objectives[:2]), RefreshChallenges())
    refused(s2, AddObjective(name="Late", rep=5), match="1a before 1b")


def test_refresh_tops_up_one_per_short_objective_then_extra_on_highest():
    s = started()  # Courier 5 (1), Extraction 20 (2), Heist 25 (3)
    s = at(s, "objective", objectives=[
        Objective(id=1, name="Courier", rep=5, challenges=0),
        Objective(id=2, name="Extraction", rep=20, challenges=0),
        Objective(id=3, name="Heist", rep=25, challenges=1),
    ])
    s, events = act(s, RefreshChallenges())
    # one each toward the full complement, then normal's one extra on the highest value
    assert [o.challenges for o in s.objectives] == [1, 1, 3]
    assert kinds(events) == ["challenge_topped_up"] * 3 + ["extra_challenge"]
    assert events[-1].data["name"] == "Heist" and events[-1].data["challenges"] == 3
    assert any("Extra challenge 1 of 1" in e.text and "Heist" in e.text and "highest" in e.text for e in events)


@pytest.mark.parametrize("difficulty,expected", [
    ("easy", [1, 2, 3]), ("normal", [1, 2, 4]), ("hard", [1, 3, 4]), ("extreme", [2, 3, 4]),
])
def test_difficulty_extras_go_down_by_value(difficulty, expected):
    s = ok(started(difficulty=difficulty), RefreshChallenges())
    assert [o.challenges for o in s.objectives] == expected


def test_equal_values_take_fewest_challenges_first():
    s = at(started(difficulty="hard"), "objective", objectives=[
        Objective(id=1, name="A", rep=20, challenges=3),
        Objective(id=2, name="B", rep=20, challenges=2),
        Objective(id=3, name="C", rep=5, challenges=1),
    ])
    s, events = act(s, RefreshChallenges())  # no die needed
    assert [o.challenges for o in s.objectives] == [4, 3, 1]
    assert "B" in events[0].text and "fewest challenges" in events[0].text


def test_full_tie_is_broken_by_a_die_and_the_event_says_so():
    s = at(started(difficulty="normal"), "objective", objectives=[
        Objective(id=1, name="A", rep=20, challenges=2),
        Objective(id=2, name="B", rep=20, challenges=2),
        Objective(id=3, name="C", rep=5, challenges=1),
    ])
    s, events = act(s, RefreshChallenges(), 2)
    assert [o.challenges for o in s.objectives] == [2, 3, 1]
    assert "tie-break die picked it" in events[0].text and events[0].data["name"] == "B"
    two = [Objective(id=1, name="A", rep=20, challenges=2), Objective(id=2, name="B", rep=20, challenges=2)]
    [tie] = chances(at(started(difficulty="normal"), "objective", objectives=two), RefreshChallenges(), 1)
    # A die with one face per tied objective, named by them; each is as likely.
    assert tie.count == 1 and tie.die.faces == ("A", "B")
    assert [(o.label, o.probability) for o in tie.outcomes] == [("A", 0.5), ("B", 0.5)]
    assert tie.text == "1 d2 for the tie for extra challenge 1 among A and B: A; B"


def test_three_way_tie_on_extreme_rolls_twice():
    s = at(started(difficulty="extreme"), "objective", objectives=[
        Objective(id=1, name="A", rep=15, challenges=2),
        Objective(id=2, name="B", rep=15, challenges=2),
        Objective(id=3, name="C", rep=15, challenges=2),
    ])
    s, events = act(s, RefreshChallenges(), 3, 1)  # d3 → C first, then d2 → A, then B
    assert [o.challenges for o in s.objectives] == [3, 3, 3]
    assert "→ C" in events[0].text and "→ A" in events[1].text and "→ B" in events[2].text


# --- 2 Refresh -------------------------------------------------------------------------------------------


def test_refresh_untaps_and_nuyen_instead_of_cards():
    s = ok(started(), RefreshChallenges())
    s = with_cards(s, runner(10, turned=True))
    s, events = act(s, Advance())
    assert not s.cards[0].turned and "Untapped Runner10" in events[1].text
    s = ok(s, TakeNuyen(count=3))
    assert s.cash == 23
    refused(s, TakeNuyen(count=5), InputError, match="between 1 and 4")
    s = ok(s, TakeNuyen(count=4))
    assert "take_nuyen" not in legal_actions(s)


# --- 3 Credstick -----------------------------------------------------------------------------------------


def test_getting_paid_is_half_of_last_turns_objective_rep_rounded_down():
    s = at(started(), "paid", rep_from_objectives_last_turn=25)
    s, events = act(s, GetPaid())
    assert s.cash == 32 and "+12" in events[0].text
    refused(s, GetPaid(), match="Already")


def test_secondary_income():
    s = ok(at(started(), "income"), SecondaryIncome(amount=2, source="Fame"))
    assert s.cash == 22 and lines_of(s)[-1].reason == "Secondary income: Fame"
    out_of_range(SecondaryIncome, amount=0)
    out_of_range(SecondaryIncome, amount=-3)
    assert field_specs(SecondaryIncome)[0].hint == "1–100"


def test_payroll_pays_every_upkeep():
    s = with_cards(at(started(), "payroll"), runner(1, upkeep=2), runner(2, upkeep=0), runner(3, upkeep=1))
    s = ok(s, Payroll())
    assert s.cash == 17 and len(s.cards) == 3


def test_payroll_short_cash_trashes_the_named_unpaid_card():
    s = with_cards(at(started(), "payroll", cash=4), runner(1, "Decker", upkeep=3), runner(2, "Shaman", upkeep=2))
    msg = refused(s, Payroll(), match="can't cover upkeep 5")
    assert "Decker (3)" in msg and "Shaman (2)" in msg
    refused(s, Payroll(unpaid=[1, 2]), match="still pay")  # you may not trash a card you can pay
    s, events = act(s, Payroll(unpaid=[1]))
    assert s.cash == 2 and [c.name for c in s.cards] == ["Shaman"]
    assert any("Decker unpaid" in e.text and "trashed" in e.text for e in events)
    books_balance(s)


def test_interest_example_turn_one():
    s = ok(at(started(), "interest"), ChargeInterest())
    assert (s.interest, s.debt) == (2, 22)


def test_interest_rounds_up_in_integers():
    # 14% of 50 is exactly 7 (a float ceil would say 8)
    s = at(started(), "interest", loan=50, cash=0, reputation=14)
    assert R.interest_charge(14, 50) == 7
    assert R.interest_charge(10, 21) == 3
    s2 = s.model_copy(update={"loan": 21, "reputation": 0})
    new, events = act(s2, ChargeInterest())
    assert new.interest == 3 and "10% of 21 = 2.1 → 3" in events[0].text


def test_negative_reputation_uses_ten_percent():
    assert R.interest_rate(-7) == 10
    assert R.interest_rate(9) == 10 and R.interest_rate(11) == 11


def test_no_debt_no_interest():
    s = at(started(), "interest", loan=0, interest=0)
    new, events = act(s, ChargeInterest())
    assert new.interest == 0 and "no interest" in events[0].text


@pytest.mark.parametrize("debt,faces", [
    (0, 2), (9, 2), (10, 3), (19, 3), (20, 4), (29, 4), (30, 5), (39, 5), (40, 6), (100, 6),
])
def test_payment_table_edges(debt, faces):
    assert R.payment_due_faces(debt) == faces


@pytest.mark.parametrize("debt,due_face,safe_face", [(9, 2, 3), (10, 3, 4), (19, 3, 4), (20, 4, 5), (29, 4, 5), (30, 5, 6), (39, 5, 6)])
def test_payment_roll_against_the_table(debt, due_face, safe_face):
    s = at(started(), "payment", loan=debt - 1, interest=1)
    due, events = act(s, RollPaymentDue(), due_face)
    assert due.payment_due and f"due on 1–{due_face}" in events[0].text
    safe, _ = act(s, RollPaymentDue(), safe_face)
    assert safe.payment_due is False and safe.step_done


def test_payment_always_due_at_forty():
    s = at(started(), "payment", loan=38, interest=2)
    s, events = act(s, RollPaymentDue())  # no die
    assert s.payment_due and "always due" in events[0].text
    assert set(legal_actions(s)) == {"pay_interest", "refuse_payment"}


def test_book_payment_example_pay_or_lose_two_rep():
    s = at(started(), "payment", interest=2)  # loan 20 + interest 2 = 22: due on 1–4
    s, events = act(s, RollPaymentDue(), 4)
    assert "due on 1–4" in events[0].text and s.payment_due
    paid = ok(s, PayInterest())
    assert (paid.cash, paid.interest, paid.reputation) == (18, 0, 0)
    refusedpay = ok(s, RefusePayment())
    assert (refusedpay.cash, refusedpay.interest, refusedpay.reputation) == (20, 2, -2)
    books_balance(paid)
    books_balance(refusedpay)
    for settled in (paid, refusedpay):  # settled once: the step is done, no second payment
        assert "advance" in legal_actions(settled)
        assert not {"pay_interest", "refuse_payment", "roll_payment_due"} & set(legal_actions(settled))
        refused(settled, RefusePayment(), match="settled")


def test_shortfall_is_lost_as_reputation_and_stays_owed():
    s = at(started(), "payment", cash=3, interest=7, reputation=5)
    s = ok(s, RollPaymentDue(), 1)
    s, events = act(s, PayInterest(cash_in=2))  # 3 cash + 2 cards = 5 of 7
    assert (s.cash, s.interest, s.reputation) == (0, 2, 3)
    assert "2 short" in events[-1].text and "stays owed" in events[-1].text


def test_cash_in_tracked_cards_and_not_more_than_needed():
    s = with_cards(at(started(), "payment", cash=1, interest=3), runner(1, "Face"), runner(2, "Rigger"))
    s = ok(s, RollPaymentDue(), 1)
    refused(s, PayInterest(cash_in=3), InputError, match="between 0 and 2")
    refused(s, PayInterest(cash_in=1, cash_in_ids=[1, 2]), match="at most 2")
    out_of_range(PayInterest, cash_in=-1)
    cash_in = next(m for m in GAME.legal_moves(s) if m.kind == "pay_interest" and not m.ready)
    assert [(f.name, f.low, f.high) for f in cash_in.fields][0] == ("cash_in", 0, 2)  # what the form offers
    s = ok(s, PayInterest(cash_in=1, cash_in_ids=[1]))
    assert (s.cash, s.interest, [c.name for c in s.cards]) == (0, 0, ["Rigger"])


def test_payment_not_due_moves_on():
    s = ok(at(started(), "payment", interest=2), RollPaymentDue(), 5)
    assert s.step_done and "pay_interest" not in legal_actions(s)
    assert "advance" in legal_actions(s)


# --- the book's Credstick example, verbatim ---------------------------------------------------------------


def test_book_credstick_example():
    """Loan 20, rep 0 → turn 1 interest +2 (10% of 20), debt 22, payment due on 1–4.
    Turn 2 after a 20-rep objective: paid +10 cash; rate 20%; 20% of 22 = 4.4 → +5; interest 7; debt 27."""
    s = started(loan=20)
    assert (s.loan, s.cash, s.reputation) == (20, 20, 0)
    s = ok(s, RefreshChallenges())
    for _ in range(5):  # refresh, 3a, 3b, 3c, 3d
        if s.phase == "paid":
            s = ok(s, GetPaid())
        if s.phase == "payroll":
            s = ok(s, Payroll())
        s = ok(s, Advance())
    s, events = act(s, ChargeInterest())
    assert (s.interest, s.debt) == (2, 22)
    assert "Interest +2: 10% of 20 = 2" in events[0].text
    s = ok(s, Advance())
    s, events = act(s, RollPaymentDue(), 5)
    assert "due on 1–4" in events[0].text and "not due" in events[0].text
    s = ok(s, Advance())  # Legwork
    s = ok(s, Deploy(name="Street Samurai", cost=3, body=5))
    s = ok(s, Advance())  # Shadowrun
    extraction = next(o for o in s.objectives if o.rep == 20)
    s, events = act(s, StartRun(objective_id=extraction.id, team=[s.cards[0].id]))
    assert "Draw 1 event" in events[1].text
    s = ok(s, DrawEvent(cost=0))
    for _ in range(extraction.challenges):
        s = ok(s, TrashChallenge())
    s = ok(s, CompleteObjective())
    assert s.reputation == 20
    s = ok(s, Advance())
    s = ok(s, CheckVictory())
    s = ok(s, Advance())
    s = ok(s, Advance())  # turn 2
    assert s.turn == 2
    s = ok(s, AddObjective(name="Replacement", rep=12))
    s = ok(s, RefreshChallenges())
    s = ok(s, Advance())
    s = ok(s, Advance())
    s, events = act(s, GetPaid())
    assert s.cash == 17 + 10 and "+10" in events[0].text
    s = ok(s, Advance())
    s = ok(s, Advance())
    s = ok(s, Payroll())
    s = ok(s, Advance())
    s, events = act(s, ChargeInterest())
    assert "Interest +5: 20% of 22 = 4.4 → 5" in events[0].text
    assert (s.interest, s.debt) == (7, 27)
    assert lines_of(s)[-1].reason == "Interest: 20% of 22 = 4.4 → 5" and lines_of(s)[-1].balance == 7
    books_balance(s)


# --- 4 Legwork -----------------------------------------------------------------------------------------


def legwork(*cards: Card, **changes) -> State:
    return with_cards(at(started(), "legwork", **changes), *cards)


@pytest.mark.parametrize("face,gain", [(1, 0), (2, 2), (5, 5)])
def test_errand_pays_the_die(face, gain):
    s, events = act(legwork(runner(1, "Face")), RunErrand(card_id=1), face)
    assert s.cash == 20 + gain and s.cards[0].turned
    assert f"rolled {face}" in events[0].text


def test_errand_six_take_six_or_roll_two_more():
    s, events = act(legwork(runner(1, "Face")), RunErrand(card_id=1), 6)
    assert s.pending_errand == 1 and "roll two more" in events[0].text
    assert set(legal_actions(s)) == {"take_six", "roll_two"}
    refused(s, SellCards(count=1), match="take 6 or roll two more")
    assert ok(s, TakeSix()).cash == 26
    rolled, events = act(s, RollTwo(), 1, 2)
    assert rolled.cash == 23 and "1 + 2 = 3" in events[0].text and rolled.pending_errand is None


def test_errand_needs_an_unturned_runner():
    s = legwork(runner(1, turned=True), Card(id=2, name="Spirit", card_type="spirit", cost=2, body=3))
    assert "run_errand" not in legal_actions(s)
    s = legwork(runner(1), Card(id=2, name="Spirit", card_type="spirit", cost=2, body=3))
    refused(s, RunErrand(card_id=2), match="not a runner")
    s = ok(s, RunErrand(card_id=1), 3)
    refused(s, RunErrand(card_id=1))


def test_deploy_costs_cash_and_six_runners_at_most():
    s = legwork(*[runner(i, cost=0) for i in range(1, 7)])
    msg = refused(s, Deploy(name="Seventh", cost=1, body=3), match="At most 6 runners")
    assert msg
    s = ok(s, Deploy(name="Spirit", card_type="spirit", cost=2, body=3))  # spirits don't count
    assert s.cash == 18
    s = legwork()
    refused(s, Deploy(name="Pricey", cost=21, body=3), match="have 20 cash")
    out_of_range(Deploy, name="Bad", cost=-1, body=3)
    assert field_specs(Deploy)[2].hint == "0–50"
    refused(s, Deploy(name="Bad", cost=1, body=0), InputError, match="Body must be between 1 and 30")


def test_sell_cards():
    s = ok(legwork(), SellCards(count=3))
    assert s.cash == 23
    out_of_range(SellCards, count=0)


def test_pay_off_any_split():
    s = legwork(interest=4)
    s = ok(s, PayOff(loan=5, interest=3))
    assert (s.cash, s.loan, s.interest) == (12, 15, 1)
    s = ok(s, PayOff(interest=1))
    assert (s.cash, s.interest) == (11, 0)
    books_balance(s)


def test_pay_off_refusals():
    s = legwork(interest=4, cash=5)
    out_of_range(PayOff, loan=-1)
    refused(s, PayOff(loan=21), InputError, match="Off the loan must be between 0 and 20")
    refused(s, PayOff(interest=5), InputError, match="Off the interest must be between 0 and 4")
    refused(s, PayOff(loan=4, interest=2), match="you have 5")
    refused(s, PayOff(), InputError)


def test_heal_turns_and_clears_damage():
    s = legwork(runner(1, damage=2), runner(2), runner(3, damage=1))
    s, events = act(s, Heal(card_id=1))
    assert s.cards[0].damage == 0 and s.cards[0].turned and "2 damage removed" in events[0].text
    refused(s, Heal(card_id=2), match="no damage")
    refused(s, Heal(card_id=1), match="turned")
    s = ok(s, Heal(card_id=3))
    assert "heal" not in legal_actions(s)


def test_spend_and_chipjacks():
    s = legwork()
    refused(s, Spend(amount=2, item="chipjack"), match="with a Skillsoft")
    s = ok(s, Spend(amount=2, item="skillsoft", what="Skillsoft: Pilot"))
    s = ok(s, Spend(amount=1, item="chipjack"))
    assert s.cash == 17
    refused(legwork(), Spend(amount=21), match="have 20 cash")
    off = with_cards(at(started(chipjacks=False), "legwork", skillsofts_bought=1))
    refused(off, Spend(amount=1, item="chipjack"), match="off")


# --- 5 Shadowrun -----------------------------------------------------------------------------------------


@pytest.mark.parametrize("rep,draws", [(0, 1), (9, 1), (10, 2), (19, 2), (25, 3), (-3, 1)])
def test_event_draws_from_reputation(rep, draws):
    assert R.event_draws(rep) == draws
    s = with_cards(at(started(), "shadowrun", reputation=rep), runner(1))
    s, events = act(s, StartRun(objective_id=s.objectives[0].id, team=[1]))
    assert s.run.events_to_draw == draws and f"Draw {draws} event" in events[1].text


def shadowrun(*cards: Card, team=None, **changes) -> State:
    s = with_cards(at(started(), "shadowrun", **changes), *cards)
    return ok(s, StartRun(objective_id=s.objectives[1].id, team=team or [c.id for c in cards]))


def test_event_roll_against_cost():
    s = shadowrun(runner(1), reputation=12)  # 2 events
    s2, events = act(s, DrawEvent(cost=3), 3)
    assert "played" in events[0].text and "not" not in events[0].text
    assert events[0].data == {"number": 1, "of": 2, "cost": 3, "face": 3, "played": True}
    _, events = act(s, DrawEvent(cost=3), 2)
    assert "not played" in events[0].text and events[0].data["played"] is False
    [roll] = chances(s, DrawEvent(cost=3), 2)
    assert [(o.label, o.probability) for o in roll.outcomes] == [("played on 3–6", 4 / 6), ("not played on 1–2", 2 / 6)]
    s3, events = act(s2, DrawEvent(cost=1))  # no die
    assert "always played" in events[0].text and events[0].data["face"] is None
    refused(s3, DrawEvent(cost=0), match="All 2 event")
    # Decision: above 6 no die can reach the cost, so none is rolled.
    _, events = act(s, DrawEvent(cost=7))
    assert events[0].data["played"] is False and "never played" in events[0].text


def test_one_run_per_turn_with_unturned_runners():
    s = shadowrun(runner(1), runner(2))
    assert all(c.turned for c in s.cards)
    s = ok(s, EndRun())
    assert "start_run" not in legal_actions(s)
    s = with_cards(at(started(), "shadowrun"), runner(1, turned=True), runner(2))
    refused(s, StartRun(objective_id=s.objectives[0].id, team=[1, 2]), match="turned")
    refused(s, StartRun(objective_id=s.objectives[0].id, team=[]), match="at least one runner")


def test_advance_waits_for_the_run_to_end():
    s = shadowrun(runner(1))
    refused(s, Advance(), match="Finish the Shadowrun")


def test_pump_rolls_again_on_six():
    s = shadowrun(runner(1))
    _, events = act(s, Pump(), 6, 4)
    assert "10 Nuyen" in events[0].text
    _, events = act(s, Pump(), 3)
    assert "3 Nuyen" in events[0].text


def test_random_target_is_a_die_roll():
    s = shadowrun(runner(1))
    _, events = act(s, PickRandom(options=["Face", "Decker", "Rigger"]), 2)
    assert events[0].data["picked"] == "Decker" and "Decker" in events[0].text
    [pick] = chances(s, PickRandom(options=["Face", "Decker", "Rigger"]), 2)
    # One face per option, named by it: a physical table taps the option it picked.
    assert pick.die.sides == 3 and pick.die.choices() == [("Face", 1), ("Decker", 2), ("Rigger", 3)]
    assert [o.probability for o in pick.outcomes] == pytest.approx([1 / 3] * 3)
    _, events = act(s, PickRandom(options=["Face"]))  # one option: no die
    assert events[0].data["picked"] == "Face"


def test_complete_objective_adds_rep_and_pays_next_turn():
    s = shadowrun(runner(1))
    target = s.objectives[1]
    for _ in range(target.challenges):
        s = ok(s, TrashChallenge())
    s, events = act(s, CompleteObjective())
    assert events[0].kind == "objective_taken" and events[0].data["pay_next_turn"] == target.rep // 2
    assert s.reputation == target.rep and s.run is None and target not in s.objectives
    assert s.rep_from_objectives_this_turn == target.rep


# --- the damage allocator --------------------------------------------------------------------------------


def test_hit_dice():
    assert [R.hit_dice(d) for d in (1, 5, 6, 11, 12, 17, 18)] == [1, 1, 1, 1, 2, 2, 3]


def test_book_example_overkill_carries_the_whole_hit():
    # A 2/3 Shaman takes the first hit of 10 damage and rolls a 6: takes 6, dies; 4 are left.
    s = shadowrun(runner(1, "Shaman", cost=4, body=3), runner(2, "Samurai", body=8), reputation=5)
    s = ok(s, StartDamage(amount=10))
    s, events = act(s, TakeHit(card_id=1), 6)
    assert "6 damage" in events[0].text and "Shaman dies" in events[1].text
    assert s.damage.left == 4 and s.reputation == 1
    assert [c.name for c in s.cards] == ["Samurai"]
    # the leftover goes to the next runner; a 6 deals only the 4 left
    s, events = act(s, TakeHit(card_id=2), 6)
    assert s.cards[0].damage == 4 and "only 4 left" in events[0].text and s.damage is None
    books_balance(s)


def test_book_example_thirteen_damage_two_dice_per_hit():
    s = shadowrun(runner(1, "A", body=6), runner(2, "B", body=4, cost=2), runner(3, "C", body=5))
    s, events = act(s, StartDamage(amount=13))
    assert "2d6" in events[0].text
    s = ok(s, TakeHit(card_id=1), 2, 3)
    assert s.cards[0].damage == 5  # survives
    s, events = act(s, TakeHit(card_id=2), 3, 4)
    assert "B dies" in events[1].text and s.damage.left == 1
    s = ok(s, TakeHit(card_id=3), 6, 6)
    assert next(c for c in s.cards if c.name == "C").damage == 1 and s.damage is None


def test_everyone_takes_a_hit_before_a_second_pass():
    s = shadowrun(runner(1, "A", body=9), runner(2, "B", body=9))
    s = ok(s, StartDamage(amount=10))
    s = ok(s, TakeHit(card_id=1), 1)
    refused(s, TakeHit(card_id=1), match="choose one of: B")
    refused(s, SellCards(count=1), match="still to be allocated")
    s = ok(s, TakeHit(card_id=2), 1)
    s = ok(s, TakeHit(card_id=1), 2)  # second pass
    assert [c.damage for c in s.cards] == [3, 1] and s.damage.left == 6


def test_armor_and_armor_piercing():
    s = shadowrun(runner(1, "Troll", body=9, armor=2))
    s2, events = act(ok(s, StartDamage(amount=5)), TakeHit(card_id=1), 4)
    assert s2.cards[0].damage == 2 and "armor 2 stops 2" in events[0].text and s2.damage.left == 1
    s3 = ok(ok(s, StartDamage(amount=5, armor_piercing=True)), TakeHit(card_id=1), 4)
    assert s3.cards[0].damage == 4


def test_damage_left_when_everyone_is_dead_falls_on_no_one():
    s = shadowrun(runner(1, "A", body=2, cost=3))
    s = ok(s, StartDamage(amount=9))
    s, events = act(s, TakeHit(card_id=1), 5)
    assert s.damage is None and "4 damage falls on no one" in events[-1].text
    assert s.reputation == -3
    s = s.model_copy(update={"objectives": [o.model_copy(update={"challenges": 0}) for o in s.objectives]})
    refused(s, CompleteObjective(), match="At least one runner")


def test_wounded_runner_keeps_damage_into_the_next_turn():
    s = shadowrun(runner(1, body=6))
    s = ok(ok(s, StartDamage(amount=3)), TakeHit(card_id=1), 3)
    assert s.cards[0].damage == 3


def test_remove_card_died_loses_its_cost():
    s = legwork(runner(1, cost=5))
    s, events = act(s, RemoveCard(card_id=1, died=True))
    assert s.reputation == -5 and not s.cards and "its Nuyen cost" in events[0].text
    s = ok(legwork(runner(1, cost=5)), RemoveCard(card_id=1))
    assert s.reputation == 0


# --- 6 Victory/Failure ------------------------------------------------------------------------------------


@pytest.mark.parametrize("rep,loan,interest,won", [
    (25, 0, 0, True), (30, 0, 0, True), (24, 0, 0, False), (25, 1, 0, False), (25, 0, 1, False),
])
def test_win_check_edges(rep, loan, interest, won):
    s = at(started(), "victory", reputation=rep, loan=loan, interest=interest)
    s, events = act(s, CheckVictory())
    assert (R.outcome(s) == "Won") is won
    if won:
        assert s.phase == "over" and legal_actions(s) == [] and R.headline(s) == "Turn 1 · Won"
    else:
        assert "Not won yet" in events[0].text


@pytest.mark.parametrize("rep,face,lost", [(-3, 3, True), (-3, 4, False), (-1, 1, True), (-1, 2, False), (-5, 6, False)])
def test_negative_reputation_survival_roll(rep, face, lost):
    s = at(started(), "victory", reputation=rep)
    s, events = act(s, CheckVictory(), face)
    assert (R.outcome(s) == "Lost") is lost
    assert f"rolled {face}" in events[-1].text
    assert events[-1].kind == "survival" and events[-1].data == {"reputation": rep, "face": face, "lost": lost}


def test_survival_at_minus_six_or_lower_is_lost_without_a_die():
    """Decision: no face survives, so no die is asked for (as payment at 40+ debt)."""
    s = at(started(), "victory", reputation=-6)
    assert GAME.chance_for(s, CheckVictory()) is None
    s, events = act(s, CheckVictory())
    assert R.outcome(s) == "Lost" and events[-1].data["face"] is None


def test_zero_reputation_needs_no_survival_roll():
    s = ok(at(started(), "victory", reputation=0), CheckVictory())
    assert R.outcome(s) is None


def test_odds_helpers():
    def odds(outcomes):
        return [(o.label, o.probability) for o in outcomes]
    assert odds(R.payment_due_outcomes(22)) == [("due on 1–4", 4 / 6), ("not due on 5–6", 2 / 6)]
    assert odds(R.payment_due_outcomes(40)) == [("always due (total debt 40 or more)", 1.0)]
    assert odds(R.event_outcomes(0)) == [("always played (cost 0 or 1)", 1.0)]
    assert odds(R.event_outcomes(3))[0] == ("played on 3–6", 4 / 6)
    assert odds(R.survival_outcomes(-2)) == [("game lost on 1–2", 2 / 6), ("you survive on 3–6", 4 / 6)]
    assert R.survival_outcomes(4) == []
    assert R.payment_table() == "0–9 → 1–2 · 10–19 → 1–3 · 20–29 → 1–4 · 30–39 → 1–5 · 40+ → always"


# --- 7 End ----------------------------------------------------------------------------------------------


def test_end_starts_the_next_turn():
    s = at(started(), "end", rep_from_objectives_this_turn=20, run_taken=True)
    s, events = act(s, Advance())
    assert (s.turn, s.phase, s.rep_from_objectives_last_turn, s.run_taken) == (2, "objective", 20, False)
    assert "Turn 2 begins" in events[0].text


# --- bad input, dice and serialisation ------------------------------------------------------------------


def test_a_typed_die_outside_one_to_six_is_refused():
    s = legwork(runner(1))
    before = s.model_dump_json()
    with pytest.raises(InputError, match="1 to 6"):
        apply(s, RunErrand(card_id=1), SeededDice(1, 1, entered=[7]))
    assert s.model_dump_json() == before


def test_adjust_goes_through_the_ledger_and_keeps_money_non_negative():
    s = legwork()
    s = ok(s, Adjust(account="reputation", amount=-4, reason="Food poisoning"))
    assert s.reputation == -4 and lines_of(s)[-1].reason == "Card effect: Food poisoning"
    refused(s, Adjust(account="cash", amount=-21, reason="Mugged"), match="Not enough cash")
    refused(s, Adjust(account="cash", amount=0, reason="x"), InputError)


def test_json_round_trip_and_actions_parse():
    s = shadowrun(runner(1, "Face"), runner(2, "Troll", armor=1))
    s = ok(s, StartDamage(amount=7))
    assert State.model_validate_json(s.model_dump_json()) == s
    for action in (Deploy(name="X", cost=1), PayOff(loan=1), TakeHit(card_id=2), Payroll(unpaid=[1])):
        assert GAME.parse_action(GAME.dump_action(action)) == action


def test_apply_never_mutates_its_input():
    s = legwork(runner(1))
    before = s.model_dump_json()
    apply(s, RunErrand(card_id=1), ScriptedDice([4]))
    assert s.model_dump_json() == before


def test_ledger_lines_and_chart():
    s = started()
    s = ok(at(s, "legwork", interest=2), PayOff(loan=2))
    cash_lines = lines_for(lines_of(s), "cash")
    assert [l.amount for l in cash_lines] == [20, -2]
    assert cash_lines[-1].balance == 18 and cash_lines[-1].turn == 1 and cash_lines[-1].phase == "legwork"
    rows = balances_by_turn(lines_of(s))
    assert rows[0]["turn"] == 0 and rows[0]["debt"] == 20
    assert rows[-1]["loan"] == 18


def test_every_ledger_change_is_logged_with_the_event_that_says_so():
    """The state keeps only the balances; each line (turn, phase, account, amount, reason, balance
    after) rides on the event of the action that posted it, and `ledger` rebuilds the lines from them."""
    s = legwork(interest=4)
    s, events = act(s, PayOff(loan=5, interest=3))
    [paid_off] = events
    # (a line's reason is a message, kept as its JSON: the ledger screen says it in each phone's language)
    assert paid_off.kind == "paid_off" and paid_off.data["lines"] == [
        {"turn": 1, "phase": "legwork", "account": "cash", "amount": -8, "reason": {"msgid": "Paid off debt"},
         "balance": 12},
        {"turn": 1, "phase": "legwork", "account": "loan", "amount": -5, "reason": {"msgid": "Paid off loan"},
         "balance": 15},
        {"turn": 1, "phase": "legwork", "account": "interest", "amount": -3, "reason": {"msgid": "Paid off interest"},
         "balance": 1},
    ]
    assert [l.reason.render("de") for l in lines_in(events)] == ["Schulden getilgt", "Kredit getilgt", "Zinsen getilgt"]
    # A line logged before the app spoke languages holds plain English: still read, shown as it is.
    old = {"turn": 1, "phase": "legwork", "account": "cash", "amount": -8, "reason": "Paid off debt", "balance": 12}
    assert lines_in([{"kind": "paid_off", "text": "Paid 8.", "data": {"lines": [old]}}])[0].reason == "Paid off debt"
    assert "ledger" not in State.model_fields and "ledger" not in s.model_dump()
    # The pure rebuild: the opening lines, then every line the events carry, in order.
    lines = R.ledger(s.settings, [e.model_dump(mode="json") for e in events])
    assert [(l.account, l.amount, l.reason) for l in lines[:2]] == [
        ("loan", 20, "Starting loan from the loan shark"), ("cash", 20, "Starting cash: the loan paid out")]
    assert lines[2:] == lines_in(events)
    # A death posts its reputation line on the "died" event, not on the hit before it.
    s = shadowrun(runner(1, "Shaman", cost=4, body=3), reputation=5)
    s, events = act(ok(s, StartDamage(amount=3)), TakeHit(card_id=1), 3)
    assert "lines" not in events[0].data and events[1].kind == "died"
    assert [(l["account"], l["amount"], l["balance"]) for l in events[1].data["lines"]] == [("reputation", -4, 1)]
    books_balance(s)


def test_an_old_save_with_its_ledger_in_the_state_still_loads():
    """States saved before the ledger left the state hold it: it is dropped on load (the log's
    replay compares states as today's code writes them), never refused as an unknown field."""
    s = legwork()
    old = s.model_dump(mode="json") | {"ledger": [l.model_dump(mode="json") for l in lines_of(s)]}
    assert State.model_validate(old) == s
    assert State.model_validate_json(R.State.model_validate(old).model_dump_json()) == s
    with pytest.raises(ValidationError):
        State.model_validate(s.model_dump(mode="json") | {"ledgers": []})  # other unknown fields still refused


def test_tie_break_dice_are_declared_one_tie_at_a_time():
    """Each full tie is its own roll: a die with one face per tied objective (a d3, then a d2 among
    the two still tied); the top-up comes first, so it can make a tie."""
    three = [Objective(id=i, name=n, rep=15, challenges=2) for i, n in ((1, "A"), (2, "B"), (3, "C"))]
    s = at(started(difficulty="extreme"), "objective", objectives=three)
    first, second = chances(s, RefreshChallenges(), 3, 1)
    assert (first.die.faces, second.die.faces) == (("A", "B", "C"), ("A", "B"))
    assert GAME.chance_for(s, RefreshChallenges()) == first
    s2, _ = act(s, RefreshChallenges(), 3, 1)
    assert [o.challenges for o in s2.objectives] == [3, 3, 3]
    two = [Objective(id=1, name="A", rep=20, challenges=2), Objective(id=2, name="B", rep=20, challenges=2),
           Objective(id=3, name="C", rep=5, challenges=1)]
    assert len(chances(at(started(difficulty="normal"), "objective", objectives=two), RefreshChallenges(), 1)) == 1
    assert chances(at(started(difficulty="easy"), "objective", objectives=two), RefreshChallenges()) == []
    short = [Objective(id=1, name="A", rep=20, challenges=2), Objective(id=2, name="B", rep=20, challenges=1)]
    assert len(chances(at(started(difficulty="normal"), "objective", objectives=short), RefreshChallenges(), 2)) == 1
    uneven = [Objective(id=1, name="A", rep=20, challenges=3), Objective(id=2, name="B", rep=20, challenges=1)]
    assert GAME.chance_for(at(started(difficulty="normal"), "objective", objectives=uneven), RefreshChallenges()) is None