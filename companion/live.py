"""One live session per open campaign: the server holds its state, and every screen follows it.

tap → screen.dispatch(action) → LiveCampaign.apply → Store.apply (rules + one transaction)
    → the live campaign takes the new state, cursor, labels and history line from the result
    → every screen showing the campaign is handed that snapshot and redraws from it.

No screen reads the save for a change it was sent: the save is read once when the first screen opens
a campaign (and again only for a change the live campaign didn't make itself — a rename, an import,
a restored backup). The history is kept as words and dice (`HistoryLine`), never as state blobs.
"""

from __future__ import annotations

import logging
import threading
from contextlib import contextmanager
from dataclasses import dataclass, replace
from typing import Any, Callable, Optional

from companion.games.base import Event
from companion.log import Applied, HistoryLine, Loaded, NotFound, Store, not_found
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
              first: Optional[Callable[[], None]] = None) -> Applied:
        """Apply an action; `first` (the acting screen's redraw) runs before the other screens are
        told, so that the phone that tapped isn't kept waiting behind every other phone's redraw."""
        with self._writing():
            applied = self.store.apply(self.campaign_id, action, expected_cursor=expected_cursor, entered=entered)
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

    def undo(self, *, expected_cursor: int, first: Optional[Callable[[], None]] = None) -> Applied:
        return self._move(expected_cursor, -1, first)

    def redo(self, *, expected_cursor: int, first: Optional[Callable[[], None]] = None) -> Applied:
        return self._move(expected_cursor, +1, first)

    def _move(self, expected_cursor: int, delta: int, first: Optional[Callable[[], None]]) -> Applied:
        with self._writing():
            move = self.store.undo if delta < 0 else self.store.redo
            applied = move(self.campaign_id, expected_cursor=expected_cursor)
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
    def _writing(self):
        """Hold the campaign while one action goes through the store; note who writes, so the
        store's own notice of this change (changed_elsewhere) isn't read back."""
        with self._lock:
            if self.snapshot is None:
                raise NotFound(not_found(self.campaign_id))
            self._writer = threading.get_ident()
            try:
                yield
            finally:
                self._writer = None

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
