"""The KLAW cards a table enters once and then picks from a list (companion.remembered): hosts, totems
and items, each kept as the rules' own model takes it."""

from __future__ import annotations

from companion.games.klaw import rules as R
from companion.i18n import N_
from companion.remembered import Kind

TITLE = N_("KLAW cards")
KLAW_HOST = Kind("klaw_host", "klaw", R.HostCard, N_("Hosts"))
KLAW_TOTEM = Kind("klaw_totem", "klaw", R.Totem, N_("Totems"))
KLAW_ITEM = Kind("klaw_item", "klaw", R.Item, N_("Items"))
KINDS = (KLAW_HOST, KLAW_TOTEM, KLAW_ITEM)
