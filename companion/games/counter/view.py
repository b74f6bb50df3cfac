"""The counter test game's panel: one shared track widget, so the e2e tests drive real UI."""

import flet as ft

from companion.games.counter.rules import Add, Roll
from companion.i18n import _
from companion.ui.widgets import section, track, wide_button

# Reconciled with what the phone shows (see CampaignScreen); the track and the button are kept while
# what they show is unchanged (frame.kept), so a tap redraws only the track.
RECONCILED = True


def panel(frame) -> ft.Control:
    state = frame.loaded.game_state
    guard = frame.app.guard
    return section(
        _("Counter"),
        frame.kept("value", (state.value, state.cap), lambda: track(
            _("Value"), state.value, identifier="counter-value", low=0, high=state.cap, sizes=frame.app.sizes,
            on_minus=guard(lambda e: frame.dispatch(Add(amount=-1))),
            on_plus=guard(lambda e: frame.dispatch(Add(amount=1))))),
        frame.kept("roll", (), lambda: wide_button(_("Roll a d6 onto it"), guard(lambda e: frame.dispatch(Roll(), pulse=True)),
                                                   icon=ft.Icons.CASINO)),
    )
