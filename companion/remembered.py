"""Cards a table enters once and then picks from a list (issue #30): Shadowrun's deployed cards, KLAW's
hosts, totems and items. Each card the table plays is kept by its name in the catalog (`catalog.py`,
beside Biosphere 5's cards and Human Ethos' maps), on this table's database, for every campaign of
that game; exported and imported as a catalog file or QR text, like the Biosphere 5 card catalog.

A card is kept as the dict its game's model takes (`Kind.model`): picking it sends the same action a
typed form would, so the log holds what it always held and replays as before. Kept by name, case and
spaces aside: entering "Decker" again with other numbers corrects the kept one.
"""

from __future__ import annotations

import dataclasses
from typing import Any, Optional

from pydantic import BaseModel, ValidationError

from companion import catalog, exchange
from companion.games import part_of
from companion.games.base import InputError, said_error
from companion.i18n import Msg, Text, data_word


@dataclasses.dataclass(frozen=True)
class Kind:
    """One kind of remembered card: its catalog kind, its game, its model and its title. Each game
    declares its kinds in its own folder (`kept_cards.py`: `KINDS`, and `TITLE` for its cards screen)."""

    key: str  # the catalog's kind ("klaw_totem")
    game: str  # the game it belongs to
    model: type[BaseModel]  # what a card's data must be (the game's own model: its ranges are the rules')
    title: str = ""  # the list's heading, a message id ("Totems")


@dataclasses.dataclass(frozen=True)
class Card:
    """A remembered card: its name as typed first, and its data (valid for its kind's model)."""

    kind: str
    name: str
    data: dict[str, Any]


def kinds_of(game: str) -> list[Kind]:
    """The kinds of card a game remembers (none for a game whose folder declares none)."""
    return list(getattr(part_of(game, "kept_cards"), "KINDS", ()))


def cards_title(game: str) -> str:
    """The game's cards screen title, a message id ("KLAW cards")."""
    return getattr(part_of(game, "kept_cards"), "TITLE", "")


def key_of(name: str) -> str:
    """A card's key: its name, case and spacing aside ("Street  samurai" is "street samurai")."""
    return " ".join(name.split()).casefold()


def _checked(kind: Kind, data: dict[str, Any]) -> dict[str, Any]:
    try:
        # (an action's own "kind" field is the action's, not the card's: left out)
        return kind.model.model_validate(data).model_dump(mode="json", exclude={"kind"})
    except ValidationError as exc:
        err = exc.errors()[0]
        loc = err.get("loc", ())
        field = kind.model.model_fields.get(str(loc[0])) if loc else None
        # The field as its form labels it ("Attack dice"), in the phone's language
        where: Text = data_word(field.description) if field is not None and field.description else ".".join(map(str, loc))
        raise InputError(Msg("{field} {problem}", field=where, problem=said_error(err))) from None


def cards(store, kind: Kind) -> list[Card]:
    """A kind's remembered cards, by name (an entry its model no longer takes is left out, not shown broken)."""
    out = []
    for row in catalog.entries(store, kind.key):
        try:
            out.append(Card(kind.key, row.name, _checked(kind, row.data)))
        except InputError:
            continue
    return sorted(out, key=lambda c: c.name.casefold())


def remember(store, kind: Kind, data: dict[str, Any]) -> Card:
    """Keep (or correct) the card `data` describes, under its name. Refused with words, writing nothing,
    when it has no name or isn't a valid card of its kind."""
    name = " ".join(str(data.get("name") or "").split())
    if not name:
        raise InputError(Msg("A card to remember needs its name."))
    data = _checked(kind, {**data, "name": name})
    catalog.put(store, kind.key, key_of(name), name, data)
    return Card(kind.key, name, data)


def forget(store, kind: Kind, name: str) -> None:
    catalog.remove(store, kind.key, key_of(name))


def find(store, kind: Kind, name: str) -> Optional[Card]:
    return next((c for c in cards(store, kind) if key_of(c.name) == key_of(name)), None)


# --- sharing --------------------------------------------------------------------------------------------


def export_payload(store, game: str) -> dict:
    """Every remembered card of a game, as one catalog export (the format Biosphere 5's cards use)."""
    entries: list = []
    for kind in kinds_of(game):
        entries += exchange.export_catalog(store, kind.key)["entries"]
    return {"format": exchange.CATALOG_FORMAT, "version": exchange.VERSION, "entries": entries}


def _entry_problem(game: str):
    def problem(entry) -> Optional[Text]:
        kind = next((k for k in kinds_of(game) if k.key == entry.kind), None)
        if kind is None:
            return Msg("not a card this game remembers")
        if entry.key != key_of(entry.name):
            return Msg("its key doesn't match its name")
        try:
            _checked(kind, entry.data)
        except InputError as exc:
            return exc.args[0]
        return None
    return problem


def import_text(store, game: str, text: str) -> int:
    """Add or correct the cards of a catalog export (file text, or QR text "TC1:…", several parts
    pasted together); all or nothing, refused with words. Returns how many cards."""
    text = (text or "").strip()
    if not text:
        raise InputError(Msg("Paste the text of a catalog export or QR code first."))
    if text.startswith(exchange.QR_PREFIX) and text.count(exchange.QR_PREFIX) > 1:
        text = exchange.merge_qr_parts(text)
    return exchange.import_catalog(store, text, validate_entry=_entry_problem(game))
