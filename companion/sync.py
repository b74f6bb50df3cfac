"""Pushing a campaign's changes to every open screen.

The store calls `hub.publish(campaign_id, cursor)` after each commit; each screen showing that
campaign subscribed a callback that reloads and redraws its own page (on its own event loop).
"""

from __future__ import annotations

import logging
import threading
from typing import Callable

log = logging.getLogger(__name__)
Listener = Callable[[int, int], None]


class Hub:
    def __init__(self) -> None:
        self._listeners: dict[int, list[Listener]] = {}
        self._all: list[Listener] = []
        self._guard = threading.Lock()

    def subscribe(self, campaign_id: int, listener: Listener) -> Callable[[], None]:
        """Listen to one campaign (campaign_id) — or to every change with campaign_id 0."""
        with self._guard:
            bucket = self._all if campaign_id == 0 else self._listeners.setdefault(campaign_id, [])
            bucket.append(listener)

        def unsubscribe() -> None:
            with self._guard:
                if listener in bucket:
                    bucket.remove(listener)

        return unsubscribe

    def publish(self, campaign_id: int, cursor: int) -> None:
        with self._guard:
            targets = list(self._listeners.get(campaign_id, ())) + list(self._all)
        for listener in targets:
            try:
                listener(campaign_id, cursor)
            except Exception:  # a closed screen must not break the writer
                log.debug("listener failed", exc_info=True)

    def count(self, campaign_id: int) -> int:
        with self._guard:
            return len(self._listeners.get(campaign_id, ()))
