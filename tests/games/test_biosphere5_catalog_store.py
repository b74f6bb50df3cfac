"""The app's stored Biosphere 5 catalog: seeded once, cards added/corrected, imports all-or-nothing."""

from __future__ import annotations

import pytest
from test_biosphere5_cards import TEST_DECK, deck_with_notes

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
    ("not json", "not valid JSON|not a catalog export"),  # (exchange.py's words, before and after #15)
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


def _by_id(cards):
    return {c.id: c.model_dump(mode="json") for c in cards}


def test_a_small_catalog_is_one_qr_code():
    from companion.games.biosphere5.screens import qr_parts

    source = memory_store()
    import_text(source, dump_catalog(Catalog(cards=TEST_DECK)), replace=True)
    parts = qr_parts(export_payload(source))
    assert len(parts) == 1 and parts[0] == exchange.to_qr_text(export_payload(source))


def test_a_big_catalog_splits_into_qr_codes_of_whole_cards_and_importing_them_rebuilds_it():
    from companion.games.biosphere5.screens import qr_parts

    source = memory_store()
    import_text(source, dump_catalog(Catalog(cards=deck_with_notes())), replace=True)
    payload = export_payload(source)
    assert exchange.to_qr_text(payload) is None  # too big for one code
    parts = qr_parts(payload)
    assert len(parts) >= 2
    seen = []
    for part in parts:
        assert part.startswith(exchange.QR_PREFIX) and len(part) <= exchange.QR_MAX_CHARS
        data = exchange.parse_payload(part, expect=exchange.CATALOG_FORMAT)  # each a normal catalog export
        seen += [e["key"] for e in data["entries"]]
    assert sorted(seen) == sorted(c.id for c in TEST_DECK)  # every card in exactly one part

    # one by one: the first part replaces the shipped catalog, the others add to it (merge by card id)
    target = memory_store()
    assert import_text(target, parts[0], replace=True) == len(exchange.parse_payload(parts[0], expect=exchange.CATALOG_FORMAT)["entries"])
    for part in parts[1:]:
        import_text(target, part, replace=False)
    assert _by_id(load_cards(target)) == _by_id(load_cards(source))
    assert check_catalog(load_cards(target)).entered == 25
    # importing a part again changes nothing
    import_text(target, parts[-1], replace=False)
    assert _by_id(load_cards(target)) == _by_id(load_cards(source))

    # all parts pasted at once, in any order
    other = memory_store()
    assert import_text(other, "\n".join(reversed(parts)), replace=True) == 25
    assert _by_id(load_cards(other)) == _by_id(load_cards(source))


def test_a_smaller_limit_gives_more_parts_and_a_damaged_part_is_refused_whole():
    from companion.games.biosphere5.screens import qr_parts

    source = memory_store()
    import_text(source, dump_catalog(Catalog(cards=TEST_DECK)), replace=True)
    parts = qr_parts(export_payload(source), limit=600)
    assert len(parts) >= 3 and all(len(p) <= 600 for p in parts)
    target = memory_store()
    before = load_cards(target)
    damaged = "\n".join(parts[:-1] + [parts[-1][:-30]])
    with pytest.raises(InputError, match="damaged"):
        import_text(target, damaged, replace=True)
    assert load_cards(target) == before


def test_deleting_a_card():
    from companion.games.biosphere5.screens import delete_card

    store = memory_store()
    import_text(store, dump_catalog(Catalog(cards=TEST_DECK)), replace=True)
    delete_card(store, "shack")
    cards = load_cards(store)
    assert len(cards) == 24 and "shack" not in {c.id for c in cards}
    delete_card(store, "shack")  # already gone: nothing happens
    assert len(load_cards(store)) == 24
