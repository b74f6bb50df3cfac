"""The counter test game's panel: one shared track widget, so the e2e tests drive real UI."""

import flet as ft

from companion.games.counter.rules import Add, Roll
from companion.i18n import _
from companion.ui.widgets import section, track, wide_button

# Drawn afresh from the state every time, keeping no control across redraws: the frame may reconcile
# it with what the phone shows (see CampaignScreen).
RECONCILED = True


def panel(frame) -> ft.Control:
    state = frame.loaded.game_state
    guard = frame.app.guard
    return section(
        _("Counter"),
        track(_("Value"), state.value, identifier="counter-value", low=0, high=state.cap, sizes=frame.app.sizes,
              on_minus=guard(lambda e: frame.dispatch(Add(amount=-1))),
              on_plus=guard(lambda e: frame.dispatch(Add(amount=1)))),
        wide_button(_("Roll a d6 onto it"), guard(lambda e: frame.dispatch(Roll(), pulse=True)), icon=ft.Icons.CASINO),
    )
