"""Cards a table enters once (companion.remembered, issue #30): kept by name in the catalog, picked
again from a list, exported and imported like Biosphere 5's cards, refused with words when wrong."""

from __future__ import annotations

import json

import pytest

from companion import exchange, remembered
from companion.games.base import InputError
from companion.games.klaw.kept_cards import KLAW_HOST, KLAW_ITEM, KLAW_TOTEM
from companion.games.shadowrun.kept_cards import SHADOWRUN_CARD
from tests.helpers import file_store

DECKER = {"name": "Decker", "card_type": "runner", "cost": 6, "upkeep": 1, "body": 3, "armor": 0}


def test_a_card_is_kept_by_its_name_and_corrected_when_entered_again(tmp_path):
    store = file_store(tmp_path)
    remembered.remember(store, SHADOWRUN_CARD, DECKER)
    remembered.remember(store, SHADOWRUN_CARD, {**DECKER, "name": "  street   samurai ", "cost": 8, "body": 5})
    assert [c.name for c in remembered.cards(store, SHADOWRUN_CARD)] == ["Decker", "street samurai"]
    kept = remembered.find(store, SHADOWRUN_CARD, "DECKER")
    assert kept is not None and kept.data == DECKER  # the action's fields, without the action's own "kind"
    remembered.remember(store, SHADOWRUN_CARD, {**DECKER, "name": "decker", "cost": 7})  # the same card, corrected
    cards = remembered.cards(store, SHADOWRUN_CARD)
    assert [(c.name, c.data["cost"]) for c in cards] == [("decker", 7), ("street samurai", 8)]
    remembered.forget(store, SHADOWRUN_CARD, "Street Samurai")
    assert [c.name for c in remembered.cards(store, SHADOWRUN_CARD)] == ["decker"]
    assert remembered.cards(store, KLAW_TOTEM) == []  # kinds are apart


def test_a_card_without_a_name_or_out_of_range_is_refused_and_nothing_kept(tmp_path):
    store = file_store(tmp_path)
    with pytest.raises(InputError, match="needs its name"):
        remembered.remember(store, KLAW_TOTEM, {"name": "  ", "attack": 1})
    with pytest.raises(InputError):
        remembered.remember(store, KLAW_HOST, {"name": "Giant", "attack": 99, "defense": 2, "life": 9})
    assert remembered.cards(store, KLAW_TOTEM) == [] and remembered.cards(store, KLAW_HOST) == []


def test_a_games_cards_export_and_import_on_another_table(tmp_path):
    here, there = file_store(tmp_path / "a"), file_store(tmp_path / "b")
    remembered.remember(here, KLAW_TOTEM, {"name": "Wolfmother", "attack": 1, "defense": 0, "life": 2})
    remembered.remember(here, KLAW_ITEM, {"name": "Claw", "attack_plus": 3, "attack_dice": 2})
    remembered.remember(here, KLAW_HOST, {"name": "Brute", "attack": 3, "defense": 2, "life": 10})
    remembered.remember(here, SHADOWRUN_CARD, DECKER)
    payload = remembered.export_payload(here, "klaw")
    assert payload["format"] == exchange.CATALOG_FORMAT
    assert sorted(e["kind"] for e in payload["entries"]) == ["klaw_host", "klaw_item", "klaw_totem"]  # not Shadowrun's

    remembered.remember(there, KLAW_TOTEM, {"name": "wolfmother", "attack": 0})  # corrected by the import
    assert remembered.import_text(there, "klaw", exchange.dumps(payload)) == 3
    assert [(c.name, c.data["attack"]) for c in remembered.cards(there, KLAW_TOTEM)] == [("Wolfmother", 1)]
    assert [c.name for c in remembered.cards(there, KLAW_ITEM)] == ["Claw"]
    # …and as QR text, the way a phone shows it
    qr = exchange.to_qr_text(remembered.export_payload(here, "shadowrun"))
    assert qr is not None and remembered.import_text(there, "shadowrun", qr) == 1
    assert remembered.find(there, SHADOWRUN_CARD, "decker").data == DECKER


def test_an_import_that_doesnt_fit_is_refused_whole(tmp_path):
    here, there = file_store(tmp_path / "a"), file_store(tmp_path / "b")
    remembered.remember(here, SHADOWRUN_CARD, DECKER)
    shadowrun = remembered.export_payload(here, "shadowrun")
    with pytest.raises(InputError) as refused:
        remembered.import_text(there, "klaw", exchange.dumps(shadowrun))  # another game's cards
    assert "not a card this game remembers" in str(refused.value.args[0])
    good = {"kind": "klaw_totem", "key": "owl", "name": "Owl", "data": {"name": "Owl", "attack": 1}}
    bad = {"kind": "klaw_totem", "key": "bear", "name": "Bear", "data": {"name": "Bear", "attack": 40}}
    mixed = {**shadowrun, "entries": [good, bad]}
    with pytest.raises(InputError):
        remembered.import_text(there, "klaw", json.dumps(mixed))
    assert remembered.cards(there, KLAW_TOTEM) == []  # the good one wasn't half-imported
    with pytest.raises(InputError, match="Paste the text"):
        remembered.import_text(there, "klaw", "   ")


def test_a_refusal_names_the_field_as_the_form_labels_it(tmp_path):
    store = file_store(tmp_path)
    with pytest.raises(InputError) as refused:
        remembered.remember(store, KLAW_HOST, {"name": "Giant", "attack": 9, "defense": 2, "life": 9})
    assert str(refused.value.args[0]) == "Attack dice must be at most 3"
