"""Biosphere 5 catalog: card value, playability by level, deck checks, import refusals.

Also defines TEST_DECK, a complete 25-card deck made up for the tests (the real deck's unnamed cards
are unknown); the other Biosphere 5 test files import it from here.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion.games.base import InputError
from companion.games.biosphere5.cards import (
    CATEGORY_ORDER,
    DECK_SIZE,
    Card,
    Catalog,
    Lower,
    Upper,
    achievement_block,
    can_play_level,
    card_value,
    cards_due,
    check_catalog,
    dump_catalog,
    level_block,
    parse_catalog,
    require_complete,
)

ASSET = Path(__file__).resolve().parents[2] / "assets" / "biosphere5_catalog.json"


def mk(id: str, upper: tuple, lower: tuple, name: str | None = None, copies: int = 1) -> Card:
    """mk("shack", ("makeshift", "housing"), ("catastrophe", "water", "Drought"))."""
    ukind, ucat = upper
    ulevel = 1 if ukind == "rescue" else {"housing": 1, "water": 1, "security": 2, "production": 2,
                                          "nature": 3, "community": 3, "salvation": 4}[ucat]
    lkind = lower[0]
    lcat = lower[1] if lkind == "catastrophe" else None
    lname = lower[2] if len(lower) > 2 else None
    llevel = ({"housing": 1, "water": 1, "security": 2, "production": 2, "nature": 3, "community": 3}[lcat]
              if lcat else {"new_hope": 1, "espionage": 2, "sabotage": 3, "attack": 4}[lkind])
    return Card(id=id, name=name or id.replace("-", " ").title(), copies=copies,
                upper=Upper(kind=ukind, category=ucat, level=ulevel),
                lower=Lower(name=lname, kind=lkind, category=lcat, level=llevel))


C = "catastrophe"
TEST_DECK: list[Card] = [
    mk("biosphere-5-attack", ("biosphere", "salvation"), ("attack",), name="Biosphere 5 / Attack"),
    # perfect achievements
    mk("deep-well", ("perfect", "water"), ("new_hope",)),
    mk("protection-bunker", ("perfect", "housing"), (C, "water", "Drought")),
    mk("destructive-bunker", ("perfect", "security"), ("new_hope",)),
    mk("factory", ("perfect", "production"), ("espionage",)),
    mk("greenhouse", ("perfect", "nature"), ("sabotage",)),
    mk("council", ("perfect", "community"), (C, "community", "Feud")),
    # makeshift achievements
    mk("catching-basin", ("makeshift", "water"), (C, "production", "Inpoverishment")),
    mk("shack", ("makeshift", "housing"), (C, "water", "Drought")),
    mk("surveillance-technology", ("makeshift", "security"), ("espionage",)),
    mk("workshop", ("makeshift", "production"), (C, "security", "Riot")),
    mk("garden", ("makeshift", "nature"), (C, "nature", "Blight")),
    mk("assembly", ("makeshift", "community"), ("sabotage",)),
    # rescue cards
    mk("water-canister", ("rescue", "water"), (C, "housing", "Hurricane")),
    mk("rain-barrel", ("rescue", "water"), (C, "housing", "Hurricane")),
    mk("tent", ("rescue", "housing"), (C, "water", "Drought")),
    mk("ruins", ("rescue", "housing"), ("espionage",)),
    mk("guards", ("rescue", "security"), (C, "production", "Inpoverishment")),
    mk("powerful-friends", ("rescue", "security"), (C, "security", "Riot")),
    mk("barter", ("rescue", "production"), ("sabotage",)),
    mk("scrap", ("rescue", "production"), (C, "nature", "Blight")),
    mk("seeds", ("rescue", "nature"), (C, "community", "Feud")),
    mk("herbs", ("rescue", "nature"), (C, "housing", "Hurricane")),
    mk("elders", ("rescue", "community"), (C, "nature", "Blight")),
    mk("festival", ("rescue", "community"), (C, "water", "Drought")),
]


def deck_with_notes() -> list[Card]:
    """TEST_DECK with a long, poorly compressible note on every card: too big for one QR code."""
    import hashlib

    return [c.model_copy(update={"note": " ".join(hashlib.sha256(f"{c.id}{i}".encode()).hexdigest()
                                                   for i in range(4))}) for c in TEST_DECK]


DECK = {c.id: c for c in TEST_DECK}


# --- the test deck itself -------------------------------------------------------------------------


def test_test_deck_is_a_complete_possible_deck():
    report = check_catalog(TEST_DECK)
    assert report.entered == DECK_SIZE == 25
    assert report.problems == [] and report.missing == []
    assert report.complete


# --- card value (§4.4) ----------------------------------------------------------------------------


def test_card_value_class_first_then_category_across_all_classes_and_categories():
    cards = [mk(f"{k}-{c}", (k, c), ("new_hope",)) for k in ("rescue", "makeshift", "perfect")
             for c in CATEGORY_ORDER[:-1]]
    cards.append(DECK["biosphere-5-attack"])
    ranked = sorted(cards, key=card_value)
    assert ranked == cards  # built lowest first: rescue < makeshift < perfect, housing < … < community
    assert [c.upper.category for c in ranked[:6]] == ["housing", "water", "production", "security",
                                                      "nature", "community"]
    assert ranked[-1].is_biosphere  # perfect incl. Biosphere, salvation on top


def test_a_makeshift_housing_beats_any_rescue_card():
    assert card_value(DECK["shack"]) > card_value(DECK["festival"])  # makeshift housing > rescue community


def test_value_needs_the_upper_option():
    with pytest.raises(InputError, match="upper option"):
        card_value(Card(id="x", name="Hurricane", lower=Lower(kind="catastrophe", category="housing", level=1)))


# --- playability by level (§2.3) ------------------------------------------------------------------


def test_level_one_always_playable():
    assert can_play_level([], 1)


def test_level_two_needs_both_level_one_achievements():
    assert not can_play_level(["water"], 2)
    assert "missing housing" in level_block(["water"], 2)
    assert can_play_level(["water", "housing"], 2)


def test_level_three_needs_both_level_two_not_level_one():
    assert can_play_level(["security", "production"], 3)
    assert not can_play_level(["water", "housing", "security"], 3)


def test_exception_an_achievement_of_that_level_on_display():
    # e.g. the level I achievements were destroyed later, but a level II one is still on display
    assert can_play_level(["security"], 2)
    assert can_play_level(["nature"], 3)


def test_level_four_biosphere_needs_nature_and_community():
    assert not can_play_level(["nature"], 4)
    assert can_play_level(["nature", "community"], 4)


def test_one_achievement_per_category():
    assert "held already" in achievement_block(["water"], "water", 1)
    assert achievement_block(["water"], "housing", 1) is None


def test_cards_due_by_protection():
    assert (cards_due(None), cards_due("yellow"), cards_due("green")) == (4, 2, 0)


# --- deck checks ----------------------------------------------------------------------------------


def test_two_biosphere_cards_are_flagged():
    second = DECK["biosphere-5-attack"].model_copy(update={"id": "another-bio"})
    report = check_catalog([DECK["biosphere-5-attack"], second])
    assert any("Biosphere 5 cards" in p for p in report.problems)
    assert any("Attack options" in p for p in report.problems)


def test_an_achievement_with_no_category_is_incomplete_not_wrong():
    # The shipped Deep Well is such a card: the table completes it; it must still import and export.
    card = Card(id="x", name="Mystery", upper=Upper(kind="perfect", level=1))
    assert "upper category" in card.missing() and not card.is_complete
    assert not check_catalog([card]).problems


def test_wrong_levels_and_mismatches_are_flagged():
    cards = [
        Card(id="a", name="A", upper=Upper(kind="makeshift", category="nature", level=1)),
        Card(id="b", name="B", upper=Upper(kind="rescue", category="water", level=2)),
        Card(id="c", name="C", upper=Upper(kind="perfect", category="water", level=1),
             lower=Lower(kind="attack", level=4)),
        Card(id="d", name="D", lower=Lower(kind="espionage", level=3)),
        Card(id="e", name="E", lower=Lower(kind="catastrophe", category="salvation", level=4)),
    ]
    problems = " ".join(map(str, check_catalog(cards).problems))
    for text in ("nature achievement is level III", "rescue cards are level I", "Attack is the other option",
                 "Espionage is level II", "no catastrophe against salvation"):
        assert text in problems


def test_counts_entered_cards_with_copies():
    card = DECK["herbs"].model_copy(update={"copies": 3})
    assert check_catalog([card, DECK["shack"]]).entered == 4
    assert str(check_catalog([card]).summary()).startswith("3 of 25 cards entered")


def test_incomplete_card_refused_for_decisions():
    with pytest.raises(InputError, match="incomplete"):
        require_complete(Card(id="h", name="Hurricane", lower=Lower(kind="catastrophe", category="housing", level=1)))


# --- import and export ----------------------------------------------------------------------------


def _catalog_text(cards: list[dict]) -> str:
    return json.dumps({"format": "biosphere5-catalog", "version": 1, "cards": cards})


def test_export_import_round_trip():
    catalog = Catalog(complete=True, cards=TEST_DECK)
    assert parse_catalog(dump_catalog(catalog)) == catalog


def test_more_than_25_cards_refused():
    cards = [c.model_dump() for c in TEST_DECK] + [{"id": "extra", "name": "Extra"}]
    with pytest.raises(InputError, match="at most 25"):
        parse_catalog(_catalog_text(cards))
    herbs = DECK["herbs"].model_dump() | {"copies": 26}
    with pytest.raises(InputError):
        parse_catalog(_catalog_text([herbs]))


def test_unknown_category_refused():
    with pytest.raises(InputError, match="categories: housing"):
        parse_catalog(_catalog_text([{"id": "x", "name": "X", "upper": {"kind": "perfect", "category": "fire"}}]))


@pytest.mark.parametrize("level", [0, 5, "V", "two"])
def test_level_outside_one_to_four_refused(level):
    with pytest.raises(InputError, match="I–IV"):
        parse_catalog(_catalog_text([{"id": "x", "name": "X", "upper": {"level": level}}]))


def test_roman_levels_accepted():
    catalog = parse_catalog(_catalog_text([{"id": "x", "name": "X", "upper": {"level": "III"}}]))
    assert catalog.cards[0].upper.level == 3


@pytest.mark.parametrize("text, message", [
    ("{not json", "damaged or cut short near character 1"),
    ('{"format": "something-else"}', "not a Biosphere 5 catalog"),
    ("[1, 2]", "not a Biosphere 5 catalog"),
    ("x" * 70_000, "at most"),
    (_catalog_text([{"id": "Bad Id!", "name": "X"}]), "id"),
    (_catalog_text([{"id": "x", "name": "X"}, {"id": "x", "name": "Y"}]), "unique"),
    (_catalog_text([{"id": "x", "name": "X", "colour": "red"}]), r"card 1 \(“X”\), colour: is not expected here"),
])
def test_malformed_or_oversized_import_refused(text, message):
    with pytest.raises(InputError, match=message):
        parse_catalog(text)


# --- the shipped starting catalog -----------------------------------------------------------------


def test_starting_catalog_is_marked_incomplete_and_names_the_books_cards():
    catalog = parse_catalog(ASSET.read_text(encoding="utf-8"))
    assert catalog.complete is False
    names = {c.name for c in catalog.cards}
    for named in ("Catching Basin", "Deep Well", "Destructive Bunker", "Protection Bunker", "Shack",
                  "Surveillance Technology", "Water Canister", "Powerful Friends", "Hurricane", "Drought",
                  "Inpoverishment", "Biosphere 5 / Attack"):
        assert named in names
    assert all(c.note for c in catalog.cards)  # each says what the book shows and what it leaves open
    assert sum(c.lower.kind == "new_hope" for c in catalog.cards) == 2  # New Hope ×2
    report = check_catalog(catalog.cards)
    assert report.entered < 25 and not report.complete


def test_starting_catalog_holds_what_the_book_states():
    cards = parse_catalog(ASSET.read_text(encoding="utf-8")).by_id()
    assert cards["shack"].upper.kind == "makeshift" and cards["shack"].upper.category == "housing"
    assert cards["protection-bunker"].upper.kind == "perfect"
    assert cards["hurricane"].lower.category == "housing"
    assert cards["drought"].lower.category == "water"
    assert cards["water-canister"].upper.kind == "rescue" and cards["water-canister"].upper.category == "water"
    assert cards["deep-well"].upper.kind == "perfect" and cards["deep-well"].upper.category is None
    assert cards["biosphere-5-attack"].is_complete
