"""The live campaign (companion.live): every screen follows one in-memory campaign; what it hands
them is exactly what a fresh read of the save would give, and no screen reads the save for a change."""

from __future__ import annotations

from hypothesis import given, strategies as st

from companion.i18n import as_text
from companion.context import AppContext
from companion.games.counter.rules import Add, Roll
from companion.live import LiveCampaign
from companion.log import RuleError, StaleAction
from tests.helpers import memory_store


def same_as_the_save(live: LiveCampaign) -> None:
    """The live snapshot agrees with a fresh load of the save, field by field."""
    store, snap = live.store, live.snapshot
    fresh = store.load(live.campaign_id)
    assert snap.cursor == fresh.cursor and snap.campaign.head == fresh.campaign.head
    assert snap.state == fresh.state
    assert (snap.undo_label, snap.redo_label) == (fresh.undo_label, fresh.redo_label)
    assert (snap.campaign.headline, snap.campaign.status) == (fresh.campaign.headline, fresh.campaign.status)
    assert [(r.seq, r.label, r.events, r.dice) for r in snap.history(1000)] == \
        [(r.seq, as_text(r.label), r.events, r.dice) for r in store.history(live.campaign_id, limit=1000)]


def test_every_follower_gets_the_change_and_nobody_reads_the_save():
    store = memory_store()
    cid = store.create("counter", "Live", {}, seed=1)
    live = LiveCampaign(store, cid)
    seen_a, seen_b = [], []
    live.subscribe(seen_a.append)
    live.subscribe(seen_b.append)
    reads = []
    store.load = lambda *a, **k: reads.append("load")  # any read from here on would be recorded
    store.lines = lambda *a, **k: reads.append("lines")
    live.apply(Add(amount=2), expected_cursor=0)
    live.apply(Roll(), expected_cursor=1)
    live.undo(expected_cursor=2)
    assert reads == []
    assert seen_a == seen_b and len(seen_a) == 3
    assert seen_a[-1] is live.snapshot and live.snapshot.cursor == 1
    assert live.snapshot.redo_label and live.snapshot.latest_events[0].kind


def test_the_acting_screen_redraws_before_the_others_are_told_and_they_hear_even_if_it_fails():
    """The phone that tapped goes first (its redraw isn't kept waiting behind every other phone's);
    the change is saved, so the others hear of it whatever became of that redraw."""
    import pytest

    store = memory_store()
    cid = store.create("counter", "Live", {}, seed=1)
    live = LiveCampaign(store, cid)
    order = []
    live.subscribe(lambda snapshot: order.append(("told", snapshot.cursor)))
    live.apply(Add(amount=1), expected_cursor=0, first=lambda: order.append(("first", live.snapshot.cursor)))
    live.undo(expected_cursor=1, first=lambda: order.append(("first", live.snapshot.cursor)))
    assert order == [("first", 1), ("told", 1), ("first", 0), ("told", 0)]

    def broken():
        raise RuntimeError("the acting phone went away mid-redraw")
    with pytest.raises(RuntimeError):
        live.redo(expected_cursor=0, first=broken)
    assert order[-1] == ("told", 1) and live.snapshot.cursor == 1


def test_a_stale_or_refused_action_changes_nothing():
    store = memory_store()
    cid = store.create("counter", "Live", {}, seed=1)
    live = LiveCampaign(store, cid)
    live.apply(Add(amount=1), expected_cursor=0)
    before = live.snapshot
    for attempt in (lambda: live.apply(Add(amount=1), expected_cursor=0), lambda: live.redo(expected_cursor=1)):
        try:
            attempt()
        except (StaleAction, RuleError):
            pass
        else:
            raise AssertionError("accepted")
    assert live.snapshot is before
    same_as_the_save(live)


@given(st.lists(st.sampled_from(["add", "roll", "undo", "redo"]), max_size=40))
def test_any_sequence_of_actions_undo_and_redo_leaves_the_live_campaign_as_the_save(steps):
    store = memory_store()
    cid = store.create("counter", "Live", {"cap": 1000}, seed=7)
    live = LiveCampaign(store, cid)
    for name in steps:
        cursor = live.snapshot.cursor
        try:
            if name == "add":
                live.apply(Add(amount=1), expected_cursor=cursor)
            elif name == "roll":
                live.apply(Roll(), expected_cursor=cursor)
            elif name == "undo":
                live.undo(expected_cursor=cursor)
            else:
                live.redo(expected_cursor=cursor)
        except RuleError:
            pass
        same_as_the_save(live)


def test_changes_made_around_it_are_read_once_and_handed_on():
    ctx = AppContext.open("sqlite://", start_backup=False)
    cid = ctx.store.create("counter", "Old name", {}, seed=1)
    seen = []
    live, leave = ctx.live.follow(cid, seen.append)
    assert ctx.live.follow(cid, lambda s: None)[0] is live  # one live campaign per campaign
    ctx.store.rename(cid, "New name")  # not through the live campaign: a rename, an import, a CLI
    assert seen[-1].campaign.name == "New name"
    ctx.store.apply(cid, Add(amount=3), expected_cursor=0)
    assert seen[-1].game_state.value == 3
    same_as_the_save(live)
    ctx.store.delete(cid)
    assert seen[-1] is None  # screens say the campaign is gone
    leave()


def test_a_duplicate_is_announced_so_every_home_screen_lists_it_at_once():
    store = memory_store()
    cid = store.create("counter", "Original", {}, seed=1)
    heard = []
    store.on_change = lambda campaign_id, cursor: heard.append(campaign_id)
    copy = store.duplicate(cid)
    assert heard == [copy]


def test_an_action_made_on_an_older_state_is_refused_in_words_and_changes_nothing():
    """Two phones showed the campaign at 1 and tapped at once: the first tap moves it to 2; the second,
    stamped with 1, is refused whatever it asked for (the same action, another, an undo, a redo),
    names what got there first, and changes neither the save nor what the screens are handed."""
    import pytest

    store = memory_store()
    cid = store.create("counter", "Late", {}, seed=1)
    live = LiveCampaign(store, cid)
    live.apply(Add(amount=1), expected_cursor=0, by=1)
    told = []
    live.subscribe(told.append)
    live.apply(Add(amount=1), expected_cursor=1, by=1)  # phone 1's tap, made on 1, gets there first
    before, saved = live.snapshot, store.load(cid)
    late = [lambda: live.apply(Add(amount=1), expected_cursor=1, by=2), lambda: live.apply(Roll(), expected_cursor=1, by=2),
            lambda: live.undo(expected_cursor=1, by=2), lambda: live.redo(expected_cursor=1, by=2)]
    for tap in late:
        with pytest.raises(StaleAction) as refused:
            tap()
        assert refused.value.args[0].english == "Another phone tapped “counter +1” just before you: your tap wasn't applied."
    # the store refuses it as well, on its own (another program's change, say, not yet heard of)
    with pytest.raises(StaleAction):
        store.apply(cid, Add(amount=1), expected_cursor=1)
    with pytest.raises(StaleAction):
        store.undo(cid, expected_cursor=1)
    assert live.snapshot is before and len(told) == 1
    after = store.load(cid)
    assert (after.cursor, after.campaign.head, after.state) == (saved.cursor, saved.campaign.head, saved.state) == (2, 2, saved.state)
    assert after.game_state.value == 2
    same_as_the_save(live)
    # The phone that made the change, tapping again before it was shown it (a double tap), is told so;
    # an undo that got there first is named as an undo.
    with pytest.raises(StaleAction) as own:
        live.apply(Add(amount=1), expected_cursor=1, by=1)
    assert own.value.args[0].english == "Your tap before this one (“counter +1”) had just changed the screen: this tap wasn't applied."
    live.undo(expected_cursor=2, by=1)
    with pytest.raises(StaleAction) as undone:
        live.apply(Roll(), expected_cursor=2, by=2)
    assert undone.value.args[0].english == "Another phone undid “counter +1” just before you: your tap wasn't applied."
    # a tap on the state now is applied
    live.apply(Add(amount=5), expected_cursor=1, by=2)
    assert store.load(cid).game_state.value == 6
