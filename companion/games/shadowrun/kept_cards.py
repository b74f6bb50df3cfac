"""The Shadowrun cards a table enters once and then deploys from a list (companion.remembered), each
kept as the Deploy action takes it."""

from __future__ import annotations

from companion.games.shadowrun import rules as R
from companion.i18n import N_
from companion.remembered import Kind

TITLE = N_("Shadowrun cards")
SHADOWRUN_CARD = Kind("shadowrun_card", "shadowrun", R.Deploy, N_("Cards deployed"))
KINDS = (SHADOWRUN_CARD,)
