"""One live session per open campaign: the server holds its state, and every screen follows it.

tap → screen.dispatch(action) → LiveCampaign.apply → Store.apply (rules + one transaction)
    → the live campaign takes the new state, cursor, labels and history line from the result
    → every screen showing the campaign is handed that snapshot and redraws from it.

An action says which state it was made on (`expected_cursor`: the log position the tapping phone
showed, see TableSession.mark_shown); one made on an older state is refused (StaleAction), in words
that name the change which got there first ("Another phone tapped “press on” just before you").

No screen reads the save for a change it was sent: the save is read once when the first screen opens
a campaign (and again only for a change the live campaign didn't make itself — a rename, an import,
a restored backup). The history is kept as words and dice (`HistoryLine`), never as state blobs.
"""

from __future__ import annotations

import logging
import threading
from collections import deque
from contextlib import contextmanager
from dataclasses import dataclass, replace
from typing import Any, Callable, Optional

from companion.games.base import Event
from companion.i18n import Msg, Text
from companion.log import Applied, HistoryLine, Loaded, NotFound, StaleAction, Store, not_found
from companion.sync import Hub
from models.tables import Campaign

log = logging.getLogger(__name__)
HISTORY_SHOWN = 100  # rows the campaign screen lists; the live campaign keeps every line (words only)


@dataclass
class Snapshot(Loaded):
    """What every screen of a campaign draws from: `Loaded` plus the history in words."""

    lines: tuple[HistoryLine, ...] = ()  # rows 1..head, oldest first (the undone tail included)

    def history(self, limit: int = HISTORY_SHOWN) -> list[HistoryLine]:
        """The actions in effect, newest first (the undone tail is not history)."""
        return list(self.lines[: self.cursor][::-1][:limit])

    @property
    def latest(self) -> Optional[HistoryLine]:
        """The row at the cursor: what just happened."""
        return self.lines[self.cursor - 1] if 0 < self.cursor <= len(self.lines) else None

    @property
    def latest_events(self) -> list[Event]:
        return [Event.coerce(e) for e in self.latest.events] if self.latest else []


Listener = Callable[[Optional[Snapshot]], None]  # None: the campaign is gone (deleted)
CHANGES_KEPT = 64  # the latest changes made here, to name the one a late tap lost to


@dataclass(frozen=True)
class Change:
    """One change made through the live campaign: from which log position to which, what it was
    (an action, an undo, a redo, with its words) and who made it (the acting screen's token)."""

    before: int
    after: int
    kind: str  # "did", "undid" or "redid"
    label: Text
    by: Optional[int] = None


def lost_to(change: Optional[Change], by: Optional[int]) -> Msg:
    """Why a tap made on an older state wasn't applied: the change that got there first, in words."""
    if change is None:  # made elsewhere (a rename, an import, another program) or long ago
        return Msg("The campaign changed just before your tap: your tap wasn't applied. Check the screen and tap again.")
    if by is not None and change.by == by:  # this phone's own earlier tap (a double tap)
        what = {"did": change.label, "undid": Msg("Undo: {action}", action=change.label),
                "redid": Msg("Redo: {action}", action=change.label)}[change.kind]
        return Msg("Your tap before this one (“{action}”) had just changed the screen: this tap wasn't applied.",
                   action=what)
    if change.kind == "undid":
        return Msg("Another phone undid “{action}” just before you: your tap wasn't applied.", action=change.label)
    if change.kind == "redid":
        return Msg("Another phone redid “{action}” just before you: your tap wasn't applied.", action=change.label)
    return Msg("Another phone tapped “{action}” just before you: your tap wasn't applied.", action=change.label)


def _copy(campaign: Campaign, **changes: Any) -> Campaign:
    """A detached copy of a campaign row with some fields changed (screens share snapshots)."""
    values = {name: getattr(campaign, name) for name in Campaign.model_fields}
    values.update(changes)
    return Campaign(**values)


def _know_game_state(snapshot: Snapshot, applied: Applied) -> None:
    """Hand the snapshot the game state the store already validated (`Loaded.game_state` is cached)."""
    if applied.game_state is not None:
        snapshot.__dict__["game_state"] = applied.game_state


class LiveCampaign:
    """One campaign as it is now, shared by every screen that shows it."""

    def __init__(self, store: Store, campaign_id: int):
        self.store = store
        self.campaign_id = campaign_id
        self._lock = threading.RLock()
        self._listeners: list[Listener] = []
        self._writer: Optional[int] = None  # the thread applying an action through this live campaign
        self._changes: deque[Change] = deque(maxlen=CHANGES_KEPT)
        self.snapshot: Optional[Snapshot] = None
        self.reload()

    # --- reading ---

    def reload(self) -> Optional[Snapshot]:
        """Read the campaign from the save (first open, or a change made elsewhere)."""
        with self._lock:
            try:
                loaded = self.store.load(self.campaign_id)
                lines = tuple(self.store.lines(self.campaign_id))
            except NotFound:
                self.snapshot = None
                return None
            self.snapshot = Snapshot(**{f: getattr(loaded, f) for f in Loaded.__dataclass_fields__}, lines=lines)
            return self.snapshot

    # --- writing (each is one transaction in the store) ---

    def apply(self, action: Any, *, expected_cursor: int, entered: Optional[list[int]] = None,
              first: Optional[Callable[[], None]] = None, by: Optional[int] = None) -> Applied:
        """Apply an action made on the state at `expected_cursor` (else StaleAction, nothing changed);
        `first` (the acting screen's redraw) runs before the other screens are told, so that the phone
        that tapped isn't kept waiting behind every other phone's redraw. `by` names the acting screen
        (any token), so that its own next late tap is told apart from another phone's."""
        with self._writing(expected_cursor, by):
            applied = self.store.apply(self.campaign_id, action, expected_cursor=expected_cursor, entered=entered)
            self._changes.append(Change(expected_cursor, applied.cursor, "did", applied.label, by))
            old = self.snapshot
            lines = old.lines[: applied.cursor - 1] + (applied.line,)
            self.snapshot = replace(
                old, state=applied.state, lines=lines, undo_label=applied.label, redo_label=None,
                campaign=_copy(old.campaign, cursor=applied.cursor, head=applied.cursor, headline=applied.headline,
                               status=applied.status, updated_at=applied.line.created_at))
            _know_game_state(self.snapshot, applied)
            snapshot = self.snapshot
        self._push(snapshot, first)
        return applied

    def undo(self, *, expected_cursor: int, first: Optional[Callable[[], None]] = None,
             by: Optional[int] = None) -> Applied:
        return self._move(expected_cursor, -1, first, by)

    def redo(self, *, expected_cursor: int, first: Optional[Callable[[], None]] = None,
             by: Optional[int] = None) -> Applied:
        return self._move(expected_cursor, +1, first, by)

    def _move(self, expected_cursor: int, delta: int, first: Optional[Callable[[], None]], by: Optional[int]) -> Applied:
        with self._writing(expected_cursor, by):
            move = self.store.undo if delta < 0 else self.store.redo
            applied = move(self.campaign_id, expected_cursor=expected_cursor)
            self._changes.append(Change(expected_cursor, applied.cursor, "undid" if delta < 0 else "redid", applied.label, by))
            old = self.snapshot
            cursor = applied.cursor
            label_at = lambda seq: old.lines[seq - 1].label if 0 < seq <= len(old.lines) else None  # noqa: E731
            self.snapshot = replace(
                old, state=applied.state, undo_label=label_at(cursor), redo_label=label_at(cursor + 1),
                campaign=_copy(old.campaign, cursor=cursor, headline=applied.headline, status=applied.status))
            _know_game_state(self.snapshot, applied)
            snapshot = self.snapshot
        self._push(snapshot, first)
        return applied

    @contextmanager
    def _writing(self, expected_cursor: int, by: Optional[int]):
        """Hold the campaign while one action goes through the store; note who writes, so the
        store's own notice of this change (changed_elsewhere) isn't read back. A change made on a
        state older than this one is refused here, in words; the store checks again (a change made
        by another program reaches this live campaign only when the hub tells it)."""
        with self._lock:
            if self.snapshot is None:
                raise NotFound(not_found(self.campaign_id))
            if expected_cursor != self.snapshot.cursor:
                raise StaleAction(self.why_stale(expected_cursor, by))
            self._writer = threading.get_ident()
            try:
                yield
            except StaleAction:  # the save moved on without this live campaign (another program)
                raise StaleAction(lost_to(None, by)) from None
            finally:
                self._writer = None

    def why_stale(self, shown_cursor: int, by: Optional[int] = None) -> Msg:
        """What a tap made on the state at `shown_cursor` lost to: the newest change made from it."""
        with self._lock:
            change = next((c for c in reversed(self._changes) if c.before == shown_cursor), None)
        return lost_to(change, by)

    # --- following ---

    def subscribe(self, listener: Listener) -> Callable[[], None]:
        with self._lock:
            self._listeners.append(listener)

        def unsubscribe() -> None:
            with self._lock:
                if listener in self._listeners:
                    self._listeners.remove(listener)
        return unsubscribe

    @property
    def followers(self) -> int:
        with self._lock:
            return len(self._listeners)

    def changed_elsewhere(self, cursor: int) -> None:
        """The store says the campaign changed: unless this live campaign made that change, read it
        again (once, for every screen) and hand it on."""
        if self._writer == threading.get_ident():
            return  # our own write: apply/_move push the result themselves
        self._push(self.reload())

    def _push(self, snapshot: Optional[Snapshot], first: Optional[Callable[[], None]] = None) -> None:
        try:
            if first is not None:
                first()
        finally:  # the change is saved: every other screen hears of it, whatever became of `first`
            self._tell(snapshot)

    def _tell(self, snapshot: Optional[Snapshot]) -> None:
        with self._lock:
            listeners = list(self._listeners)
        for listener in listeners:
            try:
                listener(snapshot)
            except Exception:  # one closed screen must not stop the others
                log.debug("a screen could not take a change", exc_info=True)


class LiveCampaigns:
    """The live campaigns of one running app: made when a screen opens one, dropped when the last
    screen leaves it. The hub tells them about changes made around them (renames, imports, restores)."""

    def __init__(self, store: Store, hub: Hub):
        self.store = store
        self._live: dict[int, LiveCampaign] = {}
        self._guard = threading.Lock()
        hub.subscribe(0, self._changed)

    def follow(self, campaign_id: int, listener: Listener) -> tuple[LiveCampaign, Callable[[], None]]:
        """The live campaign and a function that stops following it."""
        with self._guard:
            live = self._live.get(campaign_id)
            if live is None:
                live = self._live[campaign_id] = LiveCampaign(self.store, campaign_id)
            unsubscribe = live.subscribe(listener)

        def leave() -> None:
            unsubscribe()
            with self._guard:
                if live.followers == 0 and self._live.get(campaign_id) is live:
                    del self._live[campaign_id]
        return live, leave

    def get(self, campaign_id: int) -> Optional[LiveCampaign]:
        with self._guard:
            return self._live.get(campaign_id)

    def _changed(self, campaign_id: int, cursor: int) -> None:
        if campaign_id == 0:  # the table's settings changed or a backup was restored: read all again
            with self._guard:
                targets = list(self._live.values())
        else:
            live = self.get(campaign_id)
            targets = [live] if live else []
        for live in targets:
            live.changed_elsewhere(cursor)
