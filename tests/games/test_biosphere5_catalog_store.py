"""The app's stored Biosphere 5 catalog: seeded once, cards added/corrected, imports all-or-nothing."""

from __future__ import annotations

import pytest
from test_biosphere5_cards import TEST_DECK

from companion import exchange
from companion.games.base import InputError
from companion.games.biosphere5.cards import Card, Catalog, Lower, Upper, check_catalog, dump_catalog
from companion.games.biosphere5.screens import export_payload, import_text, load_cards, save_card
from tests.helpers import memory_store


def test_seeded_once_from_the_shipped_catalog_then_left_alone():
    store = memory_store()
    first = load_cards(store)
    assert len(first) == 12 and check_catalog(first).entered == 12
    save_card(store, Card(id="tent", name="Tent", upper=Upper(kind="rescue", category="housing", level=1),
                          lower=Lower(kind="catastrophe", category="water", level=1)))
    assert len(load_cards(store)) == 13  # not reseeded


def test_impossible_cards_and_a_26th_card_are_refused_and_nothing_changes():
    store = memory_store()
    import_text(store, dump_catalog(Catalog(cards=TEST_DECK)), replace=True)
    before = load_cards(store)
    with pytest.raises(InputError, match="at most|25 cards"):
        save_card(store, Card(id="extra", name="Extra", upper=Upper(kind="rescue", category="water", level=1)))
    with pytest.raises(InputError, match="Attack is the other option of Biosphere 5 only"):
        save_card(store, Card(id="shack", name="Shack", upper=Upper(kind="makeshift", category="housing", level=1),
                              lower=Lower(kind="attack", level=4)))
    assert load_cards(store) == before


@pytest.mark.parametrize("text, message", [
    ("", "Paste"),
    ("not json", "not valid JSON"),
    ('{"format": "biosphere5-catalog", "version": 1, "cards": [{"id": "x", "name": "X", '
     '"upper": {"category": "space"}}]}', "categories"),
    ('{"format": "biosphere5-catalog", "version": 1, "cards": [{"id": "x", "name": "X", '
     '"upper": {"level": 5}}]}', "I–IV"),
    ("TC1:garbage!", "damaged"),
])
def test_malformed_imports_are_refused_whole(text, message):
    store = memory_store()
    before = load_cards(store)
    with pytest.raises(InputError, match=message):
        import_text(store, text, replace=True)
    assert load_cards(store) == before


def test_export_qr_text_round_trips_and_adding_over_25_is_refused():
    source = memory_store()
    import_text(source, dump_catalog(Catalog(cards=TEST_DECK)), replace=True)
    qr = exchange.to_qr_text(export_payload(source))
    assert qr is not None and qr.startswith("TC1:")
    target = memory_store()
    with pytest.raises(InputError, match="Replace"):
        import_text(target, qr, replace=False)  # 12 shipped + 25 would overflow the deck
    assert import_text(target, qr, replace=True) == 25
    assert {c.id for c in load_cards(target)} == {c.id for c in TEST_DECK}
