"""The Shadowrun panel builds in every phase and pending choice (no browser): a walk through two
turns with a run, damage and an errand, building the panel after each action; the ledger screen
reads its lines from a real store's log (also an old save's, whose events carry no lines)."""

from __future__ import annotations

from types import SimpleNamespace

import flet as ft
import pytest
from pydantic import ValidationError

from companion.dice import SeededDice
from companion.games.base import InputError
from companion.games.shadowrun import rules as R
from companion.games.shadowrun.ledger import ACCOUNTS, balances_by_turn, reconciles
from companion.games.shadowrun import view
from companion.games.shadowrun.screens import LedgerScreen, campaign_ledger, chart_shapes
from companion.log import replay
from models.tables import ActionRow, NewestState
from tests.helpers import memory_store
from tests.views import BUTTONS, all_controls, words


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
        self.history = lambda limit=1: rows[:limit]
        self.screen = view.Screen()  # this phone's own state of the panel (frame.screen_state)

    def screen_state(self, kind):
        assert kind is view.Screen
        return self.screen


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
    """The buttons whose words are exactly `text`."""
    return [c for c in all_controls(control) if isinstance(c, BUTTONS) and words(c) == text]


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
    lines = R.ledger(s.settings, [e for _, events in reversed(history) for e in events])
    assert reconciles(lines, {a: getattr(s, a) for a in ACCOUNTS})
    rows = balances_by_turn(lines)
    assert chart_shapes(rows, 340)


# --- the ledger screen, on a real store ---------------------------------------------------------------

FIRST_TURN = [R.AddObjective(name="Low", rep=5), R.AddObjective(name="Mid", rep=15), R.AddObjective(name="High", rep=25),
              R.Advance(), R.RefreshChallenges(), R.Advance(), R.TakeNuyen(count=2), R.Advance(), R.GetPaid(),
              R.Advance(), R.SecondaryIncome(amount=3, source="Fame"), R.Advance(), R.Payroll(), R.Advance(),
              R.ChargeInterest()]


def played(store, actions=FIRST_TURN) -> int:
    cid = store.create("shadowrun", "ledger", {})
    for action in actions:
        store.apply(cid, action, expected_cursor=store.load(cid).cursor)
    return cid


def ledger_screen(store, cid: int) -> LedgerScreen:
    app = SimpleNamespace(store=store, go=lambda route: None, page=SimpleNamespace(update=lambda: None))
    screen = LedgerScreen(app, cid)
    screen.view()
    return screen


def test_the_ledger_screen_lists_the_lines_logged_with_the_events():
    store = memory_store()
    cid = played(store)
    loaded = store.load(cid)
    state = loaded.game_state
    lines = campaign_ledger(store, loaded)
    assert [l.reason for l in lines] == [
        "Starting loan from the loan shark", "Starting cash: the loan paid out",
        "Refresh: 2 Nuyen taken instead of drawing", "Secondary income: Fame", "Interest: 10% of 20 = 2"]
    assert reconciles(lines, {a: getattr(state, a) for a in ACCOUNTS})
    screen = ledger_screen(store, cid)
    shown = texts(screen.body)
    assert "Lines (5 of 5)" in shown and "WARNING" not in shown and "Secondary income: Fame" in shown
    assert [r["turn"] for r in screen.rows] == [0, 1] and screen.rows[-1]["debt"] == 22
    screen._pick("cash")  # the filter
    assert "Lines (3 of 5)" in texts(screen.body) and "Interest: 10% of 20 = 2" not in texts(screen.body)
    # Undo takes its lines with it: only the actions in effect count.
    store.undo(cid, expected_cursor=loaded.cursor)
    screen._pick(None)
    assert "Lines (4 of 4)" in texts(screen.body) and "Interest: 10% of 20" not in texts(screen.body)


def test_an_old_save_without_lines_in_its_events_gets_its_ledger_by_replay():
    """A campaign saved before the ledger left the state: its events carry no lines and its stored
    states still hold the ledger. It loads, and the ledger screen replays its actions for the lines."""
    store = memory_store()
    cid = played(store)
    expected = campaign_ledger(store, store.load(cid))
    with store.db.session() as session:  # make it an old save (its newest state on its row, as before 0004)
        newest = session.get(NewestState, cid)
        for row in session.exec(ActionRow.__table__.select().where(ActionRow.campaign_id == cid)).all():
            events = [{**e, "data": {k: v for k, v in e["data"].items() if k != "lines"}} for e in row.events]
            state = newest.state if row.seq == newest.seq else row.state
            if state is not None:
                state = {**state, "game": {**state["game"], "ledger": [l.model_dump(mode="json") for l in expected]}}
            session.execute(ActionRow.__table__.update().where(ActionRow.id == row.id).values(events=events, state=state))
        session.delete(newest)
    assert not any("lines" in e["data"] for r in store.log_rows(cid) for e in r.events)
    loaded = store.load(cid)  # the old state's ledger is dropped on load
    assert campaign_ledger(store, loaded) == expected
    entries = [{"seq": r.seq, "action": r.action, "dice": r.dice, "state": r.state} for r in store.log_rows(cid)]
    assert replay(R.GAME, loaded.campaign.settings, entries).ok  # it replays, its old states compared as today's
    screen = ledger_screen(store, cid)
    assert f"Lines ({len(expected)} of {len(expected)})" in texts(screen.body) and "WARNING" not in texts(screen.body)
    # Playing on: the new actions' events carry their lines; the old ones stay replayed.
    store.apply(cid, R.Advance(), expected_cursor=loaded.cursor)
    store.apply(cid, R.Adjust(account="cash", amount=2, reason="Found a credstick"), expected_cursor=loaded.cursor + 1)
    screen.refresh()
    assert f"Lines ({len(expected) + 1} of {len(expected) + 1})" in texts(screen.body)
    assert "Card effect: Found a credstick" in texts(screen.body) and "WARNING" not in texts(screen.body)
    # The old row's stored state kept its ledger; it is dropped when the state is read, and the newest
    # row (written by today's rules) has none.
    assert "ledger" in loaded.state.game and "ledger" not in loaded.game_state.model_dump()
    assert "ledger" not in store.load(cid).state.game


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
    ui = view.Ui(frame)
    field = ft.TextField(value="-3")
    with pytest.raises(InputError, match="Off the loan must be between 0 and 20"):
        ui.number(field, "pay_off", "loan")


# --- steps that pass by themselves; the answer where it was asked; the end said once --------------------


def quiet(**update) -> R.State:
    s = R.new_state(R.Settings(auto_pass=True))
    for name, rep in (("Low", 5), ("Mid", 15), ("High", 25)):
        s, _ = R.apply(s, R.AddObjective(name=name, rep=rep), SeededDice(1, 1))
    return s.model_copy(update=update, deep=True)


def controls_tagged(control, identifier: str) -> list:
    return [c for c in all_controls(control, ("controls", "content", "title", "leading"))
            if isinstance(c, ft.Semantics) and c.identifier == identifier]


def test_the_advance_button_names_where_the_turn_stops_past_the_steps_that_pass():
    s = quiet()
    assert find(view.panel(FakeFrame(s)), "Start turn 1: Refresh")
    s, events = R.apply(s, R.Advance(), SeededDice(1, 1))
    assert find(view.panel(FakeFrame(s)), "Advance to Credstick 3b · Secondary income")
    old = R.new_state(R.Settings()).model_copy(update={"phase": "refresh", "turn": 1})
    assert find(view.panel(FakeFrame(old)), "Advance to Credstick 3a · Getting paid")  # off: one step at a time


def test_just_now_says_each_passed_step_once():
    s = quiet(phase="refresh", turn=1)
    s, events = R.apply(s, R.Advance(), SeededDice(1, 1))
    [box] = controls_tagged(view.panel(FakeFrame(s, [("next phase", events)])), "sr-last")
    shown = texts(box)
    assert "Credstick 3a · Getting paid: +0, nothing to collect — passed." in shown
    assert "Turn 1: Credstick 3a · Getting paid." not in shown  # the passed step is named once
    assert "Turn 1: Credstick 3b · Secondary income." in shown  # where the turn stopped


def effects_tile(built) -> ft.ExpansionTile:
    [tile] = [c for c in built.controls if isinstance(c, ft.ExpansionTile)]
    return tile


def fold(tile: ft.ExpansionTile, opened: bool) -> None:
    """What a phone does when its player taps the fold: it patches the tile's `expanded` on the
    server's copy of the control (as Flet applies a phone's patch), then sends the change event."""
    from flet.utils.object_model import patch_dataclass

    patch_dataclass(tile, {"expanded": opened})
    tile.on_change(SimpleNamespace(data=opened, control=tile))


def redraw(frame: FakeFrame, state: R.State, history: list) -> ft.Control:
    """The same phone's screen drawn again for a new state (its own action or another phone's)."""
    rows = [SimpleNamespace(label=label, events=[e.model_dump() for e in events]) for label, events in history]
    frame.loaded = SimpleNamespace(game_state=state)
    frame.history = lambda limit=1: rows[:limit]
    return view.panel(frame)


def test_a_random_pick_answers_in_the_fold_where_it_was_asked():
    s = quiet(phase="legwork", turn=1)
    frame = FakeFrame(s)
    fold(effects_tile(view.panel(frame)), True)  # the player opens it to ask
    s, events = R.apply(s, R.PickRandom(options=["Ghost", "Dodger", "Sam"]), SeededDice(1, 1))
    tile = effects_tile(redraw(frame, s, [("random target", events)]))
    assert tile.expanded  # still open, the answer in it, under its button
    [answer] = controls_tagged(tile, "sr-picked")
    picked = events[0].data["picked"]
    assert f"Picked: {picked}" in texts(answer) and "Among Ghost, Dodger, Sam" in texts(answer)
    assert tile.controls[0].controls[-1] is answer and find(tile, "Pick one at random")  # under its button
    # One action later (this phone's or another's), the answer has moved to the history only; the
    # fold stays open, as its player left it.
    s, more = R.apply(s, R.SellCards(count=1), SeededDice(1, 2))
    tile = effects_tile(redraw(frame, s, [("sell", more), ("random target", events)]))
    assert tile.expanded and not controls_tagged(tile, "sr-picked")
    # Another phone never had it open: the pick shows there in "Just now", its fold stays closed.
    other = FakeFrame(s)
    built = redraw(other, s.model_copy(), [("random target", events)])
    assert not effects_tile(built).expanded
    assert f"Random target among Ghost, Dodger, Sam: {picked}." in texts(controls_tagged(built, "sr-last")[0])


def test_the_effects_fold_stays_as_the_player_left_it_through_redraws():
    """The phone's tile is matched by its key and keeps its state: a redraw for a new state sends no
    change of `expanded` and doesn't replace it (either would fold it back on the phone), whether
    the parts above it changed (the objectives section appears after step 1) or not."""
    from flet.controls.object_patch import ObjectPatch

    def sent(before: ft.Control, after: ft.Control) -> list:
        """What a redraw sends the phone about the fold, diffed as the frame diffs its keyed panel."""
        patch, _, _ = ObjectPatch.from_diff(ft.Container(before, key="panel"), ft.Container(after, key="panel"),
                                            ft.BaseControl, frozen=True)
        return [op for op in patch.patch
                if "expanded" in op["path"] or isinstance(op.get("value"), ft.ExpansionTile)]

    s = quiet(phase="objective", turn=1)
    frame = FakeFrame(s)
    before = view.panel(frame)
    assert effects_tile(before).key == "sr-effects" and not effects_tile(before).expanded  # folded to start
    fold(effects_tile(before), True)
    s, events = R.apply(s, R.RefreshChallenges(), SeededDice(1, 1))
    after = redraw(frame, s, [("refresh challenges", events)])
    assert s.phase == "refresh" and len(after.controls) == len(before.controls) + 1  # the objectives came in
    assert effects_tile(after).expanded and sent(before, after) == []
    before = after
    s, events = R.apply(s, R.TakeNuyen(count=1), SeededDice(1, 2))
    after = redraw(frame, s, [("take 1 Nuyen", events)])
    assert effects_tile(after).expanded and sent(before, after) == []
    fold(effects_tile(after), False)  # folded again: it stays folded
    before = after
    s, events = R.apply(s, R.Advance(), SeededDice(1, 3))
    after = redraw(frame, s, [("next phase", events)])
    assert not effects_tile(after).expanded and sent(before, after) == []


def test_the_game_over_screen_says_the_result_once():
    s = quiet(phase="victory", turn=3, loan=0, interest=0, reputation=30, cash=4)
    s, events = R.apply(s, R.CheckVictory(), SeededDice(1, 1))
    assert s.result == "Won"
    shown = texts(view.panel(FakeFrame(s, [("victory check", events)])))
    # The frame's end card says how it ended; the panel keeps the final balances and says it no second time.
    assert "Turn 3" in shown and "Ledger" in shown
    for said in ("Won", "Victory", "Game over", "The game is over.", "Just now"):
        assert said not in shown


def test_payroll_labels_wrap_and_the_ticks_are_read_when_paying():
    cards = [R.Card(id=9, name="Street Samurai with a long name", cost=2, upkeep=3, body=4),
             R.Card(id=10, name="Decker", cost=1, upkeep=1, body=3)]
    s = quiet(phase="payroll", turn=1, cards=cards, next_id=11, cash=2)
    frame = FakeFrame(s)
    built = view.panel(frame)
    rows = []

    def walk(c):
        if isinstance(c, (list, tuple)):
            for x in c:
                walk(x)
        elif isinstance(c, ft.Semantics) and c.checked is not None:
            rows.append(c)
        elif isinstance(c, ft.BaseControl):
            for attr in ("controls", "content"):
                walk(getattr(c, attr, None))
    walk(built)
    # The label is a Text that wraps beside the box (a checkbox's own label would be cut off).
    assert [r.label for r in rows] == ["Leave Street Samurai with a long name unpaid (upkeep 3): trashed",
                                       "Leave Decker unpaid (upkeep 1): trashed"]
    boxes = [r.content.content.controls[0].content for r in rows]  # (left out of the reader's tree: the row is the checkbox)
    labels = [r.content.content.controls[1] for r in rows]
    assert all(isinstance(b, ft.Checkbox) and l.expand for b, l in zip(boxes, labels))
    assert [b.value for b in boxes] == [True, False]  # what cash can't cover, ticked to start with
    boxes[1].value = True  # the table ticks the Decker too
    find(built, "Pay the payroll")[0].on_click(None)
    assert frame.dispatched[-1][0] == R.Payroll(unpaid=[9, 10])


def test_typed_text_is_gone_once_its_action_is_sent_and_kept_when_refused():
    s = quiet(phase="income", turn=1)
    frame = FakeFrame(s)
    redrawn: list = []

    def dispatch(action, pulse=False):  # the frame redraws at once, as the real one does
        frame.dispatched.append(action)
        redrawn.append(view.panel(frame))
    frame.dispatch = dispatch
    built = view.panel(frame)
    memo = frame.screen.memo
    memo.update({"Nuyen": "2", "From (card)": "Fame"})  # what the phone typed (on_change keeps it)
    built = view.panel(frame)
    fields = {f.label: f for f in view_fields(built)}
    assert (fields["Nuyen"].value, fields["From (card)"].value) == ("2", "Fame")
    find(built, "Add secondary income")[0].on_click(None)
    assert frame.dispatched == [R.SecondaryIncome(amount=2, source="Fame")]
    fields = {f.label: f for f in view_fields(redrawn[-1])}
    assert (fields["Nuyen"].value, fields["From (card)"].value) == ("", "")  # the redraw after sending
    assert memo == {}

    def refuse(action, pulse=False):
        raise R.RuleError("no")
    frame.dispatch = refuse
    memo.update({"Nuyen": "5"})
    built = view.panel(frame)
    with pytest.raises(R.RuleError):
        find(built, "Add secondary income")[0].on_click(None)
    assert memo == {"Nuyen": "5"}  # refused: kept, to be corrected


def view_fields(control) -> list:
    return [c for c in all_controls(control) if isinstance(c, ft.TextField)]


def test_the_run_form_wraps_its_choices_and_sends_what_was_picked():
    """The target objective and the team are rows whose words wrap (a Radio's or Checkbox's own label
    is cut off on a phone); a tap on an objective's words picks it, the ticks choose the team."""
    cards = [R.Card(id=7, name="Street Samurai with a long name", cost=4, body=6),
             R.Card(id=8, name="Decker", cost=2, body=3), R.Card(id=9, name="Watcher", card_type="spirit", cost=1, body=3)]
    s = quiet(phase="shadowrun", turn=1, cards=cards, next_id=10)
    frame = FakeFrame(s)
    built = view.panel(frame)
    [group] = [c for c in all_controls(built) if isinstance(c, ft.RadioGroup)]
    group.update = lambda: None  # (off the page)
    rows = group.content.controls
    assert [r.content.controls[0].content.label for r in rows] == [
        f"{o.name} · {o.rep} rep · {o.challenges} challenge{'' if o.challenges == 1 else 's'}" for o in s.objectives]
    assert any(o.challenges == 1 for o in s.objectives)  # issue #30: "1 challenge", never "1 challenge(s)"
    assert all(isinstance(r.content.controls[1].content, ft.Text) and r.content.controls[1].expand for r in rows)
    rows[2].on_click(None)  # a tap on the third objective's words
    ticks = [c for c in all_controls(built) if isinstance(c, ft.Semantics) and c.checked is not None]
    assert [t.label for t in ticks] == ["Street Samurai with a long name (runner, body 6 of 6)",
                                        "Decker (runner, body 3 of 3)", "Watcher (spirit, body 3 of 3)"]
    assert [t.checked for t in ticks] == [True, True, False]  # the runners, to start with
    ticks[1].content.content.controls[0].content.value = False  # the Decker stays home; the spirit goes
    ticks[2].content.content.controls[0].content.value = True
    find(built, "Start the Shadowrun")[0].on_click(None)
    assert frame.dispatched[-1][0] == R.StartRun(objective_id=s.objectives[2].id, team=[7, 9])


def test_at_the_largest_text_size_fields_grow_and_a_crowded_row_stacks():
    """A field's width grows with the phone's text size (its label and number with it); a row where a
    fixed-width field sits beside an expanding one gives each its own line (the label broke mid-word);
    the dashboard's labels wrap instead of being cut off."""
    from companion.ui.style import Sizes

    def objective_form(scale: float):
        frame = FakeFrame(R.new_state(R.Settings()))
        frame.app.sizes = Sizes(scale)
        built = view.panel(frame)
        [rep] = [f for f in view_fields(built) if f.label == "Reputation"]
        [name] = [f for f in view_fields(built) if f.label == "Objective name"]
        [holder] = [c for c in all_controls(built) if isinstance(c, (ft.Row, ft.Column))
                    and (rep in c.controls or any(getattr(x, "controls", None) == [name] for x in c.controls))]
        labels = [c for c in all_controls(built) if isinstance(c, ft.Text) and c.value in ("Interest owed", "Reputation")]
        return rep, holder, labels

    rep, holder, labels = objective_form(1.0)
    assert rep.width == 130 and isinstance(holder, ft.Row) and holder.controls[1] is rep
    rep, holder, labels = objective_form(1.7)
    assert rep.width == 221 and isinstance(holder, ft.Column)
    assert holder.controls[0].controls[0].label == "Objective name" and holder.controls[1] is rep
    assert labels and not any(t.no_wrap for t in labels)


def test_a_kept_section_shows_what_was_typed_and_picked_as_a_fresh_one_would():
    """A section kept across redraws (frame.kept) holds the phone's own fields: once something was
    typed into or picked from them, the next redraw draws it again, as a panel drawn afresh would."""
    from tests.views import StoreFrame, signature

    class Frame(StoreFrame):
        pass
    Frame.view = view
    store = memory_store()
    cid = played(store, FIRST_TURN + [R.Advance(), R.RollPaymentDue()])
    frame = Frame(store, cid)
    while frame.loaded.game_state.phase != "legwork":
        frame.dispatch(next(m.action for m in R.GAME.legal_moves(frame.loaded.game_state)
                            if m.ready and m.why_not is None and m.kind in ("pay_interest", "advance")))
    frame.dispatch(R.Deploy(name="Ace", card_type="runner", cost=1, body=3))

    def afresh():  # the same phone's panel drawn from nothing (what it has typed is its own)
        fresh = Frame(store, cid)
        fresh.memo = False
        fresh.screen_state(view.Screen).memo.update(frame.screen_state(view.Screen).memo)
        return signature(fresh.panel())

    def typed(field, value):  # the phone types (Flet sets the value, then calls on_change)
        field.value = value
        field.on_change(SimpleNamespace(control=field, data=value))

    built = frame.panel()
    loan = next(f for f in view_fields(built) if f.label == "Off the loan")
    typed(loan, "1")
    kind = next(c for c in all_controls(built) if isinstance(c, ft.Dropdown) and c.value == "runner")
    kind.value = "gear"
    kind.on_select(SimpleNamespace(control=kind, data="gear"))
    again = frame.panel()
    assert signature(again) == afresh() and next(f for f in view_fields(again) if f.label == "Off the loan").value == "1"
    # Sent elsewhere on the panel (turning the runner): the typed loan and the pick are gone, as afresh.
    card = frame.loaded.game_state.cards[0]
    next(c for c in all_controls(again) if isinstance(c, ft.IconButton) and c.tooltip == "Turn Ace").on_click(None)
    assert frame.dispatched[-1][0] == R.SetTurned(card_id=card.id, turned=True)
    drawn = frame.panel()
    assert signature(drawn) == afresh() and next(f for f in view_fields(drawn) if f.label == "Off the loan").value == "0"
    assert frame.panel().controls[0] is drawn.controls[0]  # the ledger on top was kept: nothing it shows changed


def _tagged(control, identifier: str) -> bool:
    return any(getattr(c, "identifier", None) == identifier for c in all_controls(control))


def test_a_desktop_shows_the_stepper_beside_the_ledger_and_a_phone_one_under_the_other():
    """From 992 px (WIDE_FROM) the stepper has the wider column and the money, objectives, runners and
    card effects stand beside it; a phone keeps one column, the money first. Once over, what was in play
    stands beside the final balances."""
    s = quiet(phase="paid", turn=1, objectives=[R.Objective(id=1, name="Heist", rep=15, challenges=2)])
    frame = FakeFrame(s)
    phone = view.panel(frame)
    assert isinstance(phone, ft.Column) and _tagged(phone.controls[0], "sr-cash")
    assert _tagged(phone.controls[1], "sr-guide")
    frame.app.page = SimpleNamespace(width=1280)
    desk = view.panel(frame)
    assert isinstance(desk, ft.ResponsiveRow)
    left, right = desk.controls
    assert (left.col, right.col) == ({"xs": 12, "lg": 7}, {"xs": 12, "lg": 5})  # one under the other below 992 px
    assert _tagged(left, "sr-guide") and not _tagged(left, "sr-cash")
    assert _tagged(right, "sr-cash") and _tagged(right, "sr-objective-1") and "Card effects" in texts(right)
    assert texts(left).count("Collect Mr Johnson's payment (+0)") == 1  # the phase's action, in the wider column
    frame.app.page = SimpleNamespace(width=991)
    assert isinstance(view.panel(frame), ft.Column)
    frame.app.page = SimpleNamespace(width=1280)
    frame.loaded = SimpleNamespace(game_state=s.model_copy(update={"phase": "over"}))
    left, right = view.panel(frame).controls
    assert _tagged(left, "sr-objective-1") and _tagged(right, "sr-cash") and not _tagged(left, "sr-cash")


def test_a_desktop_panel_with_kept_sections_reads_as_one_drawn_afresh():
    """The two columns hold the same kept sections: drawn with frame.kept, a desktop's panel reads the
    same as one drawn afresh, and a section is not carried from one layout into the other."""
    from tests.views import StoreFrame, signature

    class Frame(StoreFrame):
        pass
    Frame.view = view
    store = memory_store()
    cid = played(store)
    frame = Frame(store, cid)
    frame.app.page.width = 1280
    kept = frame.panel()

    def afresh():
        fresh = Frame(store, cid)
        fresh.memo, fresh.app.page.width = False, 1280
        return signature(fresh.panel())
    assert isinstance(kept, ft.ResponsiveRow) and signature(kept) == afresh()
    again = frame.panel()
    assert again.controls[1].controls[0] is kept.controls[1].controls[0]  # the ledger, unchanged, was kept
    frame.app.page.width = 412  # the window made narrow: one column, each section drawn for it
    narrow = frame.panel()
    assert isinstance(narrow, ft.Column) and narrow.controls[0] is not kept.controls[1].controls[0]


def test_a_card_deployed_once_is_remembered_and_deployed_again_in_one_tap():
    """Issue #30: the deploy form's five fields are typed once per card; the table's catalog keeps the
    card by name, and in this campaign or the next the card is one tap from the deploy section's list."""
    from companion import remembered
    from companion.games.shadowrun import kept_cards
    from tests.views import StoreFrame

    class Frame(StoreFrame):
        pass
    Frame.view = view
    store = memory_store()

    def at_legwork() -> Frame:
        cid = played(store, FIRST_TURN + [R.Advance(), R.RollPaymentDue()])
        frame = Frame(store, cid)
        while frame.loaded.game_state.phase != "legwork":
            frame.dispatch(next(m.action for m in R.GAME.legal_moves(frame.loaded.game_state)
                                if m.ready and m.why_not is None and m.kind in ("pay_interest", "advance")))
        return frame

    frame = at_legwork()
    built = frame.panel()
    assert not [c for c in all_controls(built) if isinstance(c, ft.Semantics) and (c.label or "").startswith("Deploy ")]
    fields = {f.label: f for f in view_fields(built)}
    for label, value in (("Card name", "Decker"), ("Cost", "2"), ("Upkeep", "1"), ("Body", "3"), ("Armor", "1")):
        fields[label].value = value
    find(built, "Deploy (pay its cost)")[0].on_click(None)
    assert [c.name for c in frame.loaded.game_state.cards] == ["Decker"]
    kept = remembered.find(store, kept_cards.SHADOWRUN_CARD, "decker")
    assert kept is not None and kept.data == {"name": "Decker", "card_type": "runner", "cost": 2, "upkeep": 1,
                                              "body": 3, "armor": 1}

    other = at_legwork()  # another campaign at the same table
    built = other.panel()
    [pick] = [c for c in all_controls(built) if isinstance(c, ft.Semantics) and c.label == "Deploy Decker"]
    assert words(pick.content) == "Decker · runner · cost 2"
    pick.content.on_click(None)  # the one tap
    [card] = other.loaded.game_state.cards
    assert (card.name, card.cost, card.upkeep, card.body, card.armor) == ("Decker", 2, 1, 3, 1)
    assert other.dispatched[-1][0] == R.Deploy(**kept.data)  # the same action the form sends: the log as before
