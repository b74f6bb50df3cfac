"""The Biosphere 5 panel without a browser, on a real store: its buttons come from the game's moves
and play through the store, the Machine's rescue check waits for hand dice at a physical-dice table
(the view counts no dice), the last move is read from typed events, the catastrophe dialog shows the
odds the rules declare, and The Abyss offers every usable tier of a leader."""

from __future__ import annotations

from types import SimpleNamespace

import flet as ft
from test_biosphere5_cards import DECK, TEST_DECK
from test_biosphere5_machine import solo

from companion.dice import ScriptedDice
from companion.games.base import Event
from companion.games.biosphere5 import view
from companion.games.biosphere5.cards import Catalog, dump_catalog
from companion.games.biosphere5.rules import LeaderPromote, apply, reveal_action
from companion.games.biosphere5.screens import import_text, load_cards
from companion.table import GiveDice, SetPhysicalDice
from companion.ui.style import Sizes
from tests.helpers import memory_store
from tests.views import BUTTONS, StoreFrame, all_controls, words


class FakeFrame(StoreFrame):
    view = view


def walk(control):
    return all_controls(control, ("controls", "content", "actions", "title"))


def texts(control) -> str:
    out = []
    for c in walk(control):
        for attr in ("value", "label", "content", "tooltip"):
            v = getattr(c, attr, None)
            if isinstance(v, str):
                out.append(v)
    return "\n".join(out)


def button(control, text: str, nth: int | None = None):
    """The one control whose words (content, or a screen reader's label) are `text`; with `nth`, the
    nth of several (one per player)."""
    found = [c for c in walk(control) if getattr(c, "content", None) == text or
             (isinstance(c, ft.Semantics) and c.label == text) or
             (isinstance(c, BUTTONS) and words(c) == text)]
    if nth is None:
        assert len(found) == 1, f"{len(found)} controls read {text!r}"
    c = found[nth or 0]
    return c.content if isinstance(c, ft.Semantics) else c


def tap(control, text: str, nth: int | None = None) -> None:
    b = button(control, text, nth)
    assert not b.disabled, f"{text!r} is disabled: {b.tooltip}"
    b.on_click(None)


def campaign(settings: dict, physical: bool = True) -> FakeFrame:
    store = memory_store()
    import_text(store, dump_catalog(Catalog(complete=True, cards=TEST_DECK)), replace=True)
    cid = store.create("biosphere5", "t", settings, seed=7)
    if physical:
        store.apply(cid, SetPhysicalDice(on=True), expected_cursor=0)
    return FakeFrame(store, cid)


def test_a_machine_round_with_its_rescue_check_asked_as_hand_die_faces():
    frame = campaign({})
    tap(frame.panel(), "Reveal 2 cards")
    view._input(frame).picked = ["deep-well", "shack"]
    tap(frame.panel(), "Let the Machine decide")
    assert frame.loaded.game_state.solo.machine.achievements == {"water": "green"}
    for _ in range(3):
        button(frame.panel(), "Your hand cards +1").on_click(None)
    panel = frame.panel()
    assert button(panel, "Espionage").disabled  # level II isn't reached: the game's reason is its tooltip
    assert "level II needs both level I achievements" in button(panel, "Espionage").tooltip

    tap(panel, "Catastrophe")
    dialog = frame.dialogs.pop()
    shown = texts(dialog)
    # The odds come from the chance the rules declare: 2 hand dice, 1 black face of 6 → 1 − (5/6)² = 31%.
    assert "Rescue check: 2 hand dice; any black hand saves the Machine: 31%" in shown
    assert "Machine's protection: none · yours: none" in shown
    assert button(dialog, "Nature catastrophe").disabled
    next(c for c in walk(dialog) if isinstance(c, ft.Switch)).value = True  # with a rescue card
    tap(dialog, "Housing catastrophe")
    assert frame.dispatched[-1][1] is True  # pulsed: it may roll
    pending = frame.loaded.state.pending
    assert pending is not None and pending.chance.count == 2  # the table rolls the Machine's hand dice
    assert [label for label, _ in pending.chance.die.choices()] == ["black hand", "blank"]
    assert frame.loaded.game_state.solo.human.hand == 3  # the action waits for its dice

    frame.dispatch(GiveDice(faces=[2, 1]))  # blank, black hand (what the frame's DicePad sends)
    panel = frame.panel()
    last = next(c for c in walk(panel) if isinstance(c, ft.Semantics) and c.identifier == "last-move")
    assert "Rescue check: 2 hand dice show blank, black hand → a black hand" in texts(last)
    assert frame.loaded.game_state.solo.machine.level == 1
    rows = frame.store.log_rows(frame.campaign_id)
    assert all(d[2] for r in rows for d in r.dice)  # every die was entered at the table
    tap(panel, "End my turn")
    assert "Reveal 1 card" in texts(frame.panel())


def test_giving_up_achievements_is_chosen_from_the_moves_field():
    held = {"water": "green", "housing": "green", "security": "green", "production": "green"}
    state = solo(level=2, machine=held, hand=1, human={"water": "yellow", "housing": "green", "security": "yellow"})
    state, _ = apply(state, reveal_action(DECK, ["barter", "tent"]), ScriptedDice([]))  # the Machine's Sabotage
    frame = campaign({}, physical=False)
    frame.loaded = SimpleNamespace(game_state=state, cursor=frame.loaded.cursor)  # the panel as it shows `state`
    panel = frame.panel()
    assert "You are 2 cards short: choose 2 achievements to give up." in texts(panel)
    go = button(panel, "I discarded 1 card and give up 2 achievements")
    assert go.disabled  # nothing chosen yet
    boxes = [c for c in walk(panel) if isinstance(c, ft.Semantics) and c.checked is not None]
    # lowest value first; the human's achievements are cards on display, never "cubes" (those are the Machine's);
    # each label is a Text beside its checkbox, free to wrap (a Checkbox's own label is cut off at 360 px)
    assert [b.label for b in boxes] == ["Give up your perfect housing achievement",
                                        "Give up your makeshift water achievement",
                                        "Give up your makeshift security achievement"]
    view._input(frame).give_up = ["water", "security"]
    assert not button(frame.panel(), "I discarded 1 card and give up 2 achievements").disabled


def test_abyss_offers_every_usable_tier_and_greys_out_what_the_rules_refuse():
    frame = campaign({"opponent": "people", "abyss": True, "players": 2, "names": ["Ann", "Bo"]}, physical=False)
    panel = frame.panel()
    lower = "Lower doom −1 (discard as many cards as your doom)"
    assert button(panel, lower, 0).disabled and button(panel, lower, 0).tooltip == "Ann's doom is already 0."
    assert texts(tagged_part(panel, "doom-reasons-0")) == f"{lower}: Ann's doom is already 0."  # shown, not only hovered
    tap(panel, "Draw pile empty +2", 0)
    promote = "Promote True Believer (Ann)"
    button(frame.panel(), promote).on_click(None)
    button(frame.panel(), promote).on_click(None)
    panel = frame.panel()
    # At tier 2 the True Believer may use tier 2's ability or tier 1's instead (RULES.md §4).
    assert button(panel, "Use tier 2 – Without Hesitation") and button(panel, "Use tier 1 – Glimmer of Hope")
    tap(panel, "Use tier 1 – Glimmer of Hope")
    assert [p.doom for p in frame.loaded.game_state.abyss.players] == [1, 0]
    event = frame.store.history(frame.campaign_id, limit=1)[0].events[0]
    assert event["kind"] == "leader_ability" and "instead of tier 2's" in str(Event.coerce(event).text)
    # Finally true names a player: a dialog lists whom.
    frame.dispatch(LeaderPromote(player=0, leader="true_believer"))
    tap(frame.panel(), "Use tier 3 – Finally true")
    dialog = frame.dialogs.pop()
    tap(dialog, "Bo")
    assert [p.doom for p in frame.loaded.game_state.abyss.players] == [1, 2]
    # Attack: both sides from the template's choices.
    tap(frame.panel(), "Attack: attacker +1, attacked +2", 0)
    dialog = frame.dialogs.pop()
    tap(dialog, "Ann played it on Bo")
    assert [p.doom for p in frame.loaded.game_state.abyss.players] == [2, 4]


# --- the first human turn, the reveal grid, the catalog dialogs ---------------------------------------


def tagged_part(control, identifier: str):
    found = [c for c in walk(control) if isinstance(c, ft.Semantics) and c.identifier == identifier]
    assert len(found) == 1, f"{len(found)} parts tagged {identifier!r}"
    return found[0]


def tiles(control) -> dict:
    """The reveal grid's tiles by card name: big buttons laid out in a ResponsiveRow."""
    grid = next(c for c in walk(control) if isinstance(c, ft.ResponsiveRow) and c.controls
                and all(isinstance(b, ft.OutlinedButton) for b in c.controls))
    return {b.content.content.controls[0].value: b for b in grid.controls}


def test_the_first_human_turn_asks_for_the_hand_size_and_says_why_each_play_is_greyed():
    frame = campaign({}, physical=False)
    tap(frame.panel(), "Reveal 2 cards")
    tiles(frame.panel())["Deep Well"].on_click(None)
    tiles(frame.panel())["Shack"].on_click(None)
    tap(frame.panel(), "Let the Machine decide")
    panel = frame.panel()
    plays = ("Achievement", "Catastrophe", "Espionage", "Sabotage", "Attack", "Biosphere 5")
    assert all(button(panel, p).disabled for p in plays)
    # One reason greys them all: said once, in words on the screen (a tooltip needs a mouse).
    assert texts(tagged_part(panel, "play-reasons")) == "Enter your hand size first: the app counts 0 cards in your hand."
    turn = next(c for c in walk(panel) if isinstance(c, ft.Card) and "Round 1: your turn" in texts(c))
    assert "Your hand cards +1" in [c.label for c in walk(turn) if isinstance(c, ft.Semantics)]  # entered right there
    assert not button(panel, "End my turn").disabled

    button(panel, "Your hand cards +1").on_click(None)
    panel = frame.panel()
    assert not button(panel, "Achievement").disabled
    reasons = texts(tagged_part(panel, "play-reasons"))
    assert "Catastrophe: You can't play a housing catastrophe without housing protection" in reasons
    assert "Espionage: You can't play Espionage (level II): level II needs both level I achievements" in reasons
    assert "Attack: Attack needs a target: the Machine holds no achievement." not in reasons  # it holds Deep Well
    assert "Biosphere 5: You can't play Biosphere 5: it needs both level III achievements" in reasons
    assert not any(line.startswith("Achievement") for line in reasons.splitlines())  # playable now


def test_revealed_cards_are_tapped_on_a_grid_of_every_catalog_card():
    frame = campaign({}, physical=False)
    tap(frame.panel(), "Reveal 2 cards")
    grid = tiles(frame.panel())
    assert sorted(grid) == sorted(c.name for c in TEST_DECK)  # every card, no typing needed
    shack = grid["Shack"]
    assert shack.col == {"xs": 6, "md": 4}  # two columns on a phone, three on a tablet or a desktop's turn column
    assert "makeshift · housing · I" in texts(shack) and "water catastrophe · I" in texts(shack)

    shack.on_click(None)
    tiles(frame.panel())["Shack"].on_click(None)  # a second Shack: the deck holds one
    panel = frame.panel()
    assert texts(tagged_part(panel, "reveal-status")) == "2 of 2 tapped"
    assert texts(tagged_part(panel, "reveal-refusal")) == "The deck has 1 Shack; it was tapped 2 times this turn."
    assert button(panel, "Let the Machine decide").disabled
    assert "Tapped ×2" in texts(tiles(panel)["Shack"])
    tap(panel, "Remove Shack", 1)
    tiles(frame.panel())["Deep Well"].on_click(None)
    panel = frame.panel()
    assert texts(tagged_part(panel, "reveal-status")) == "2 of 2 tapped — ready"
    assert not button(panel, "Let the Machine decide").disabled

    view._input(frame).query = "bunker"  # the optional filter narrows the grid
    assert sorted(tiles(frame.panel())) == ["Destructive Bunker", "Protection Bunker"]
    frame.app.sizes = Sizes(1.7)  # this phone's largest text: one tile a row, so no name breaks mid-word
    assert tiles(frame.panel())["Protection Bunker"].col["xs"] == 12


def test_the_catastrophe_dialogs_rescue_switch_wraps_its_label():
    frame = campaign({}, physical=False)
    tap(frame.panel(), "Reveal 2 cards")
    view._input(frame).picked = ["deep-well", "shack"]
    tap(frame.panel(), "Let the Machine decide")
    for _ in range(3):
        button(frame.panel(), "Your hand cards +1").on_click(None)
    tap(frame.panel(), "Catastrophe")
    dialog = frame.dialogs.pop()
    label = next(c for c in walk(dialog) if isinstance(c, ft.Text) and c.value == "I discard a matching rescue card with it")
    assert label.expand  # a Text beside the switch, free to wrap (a Switch's own label is cut off at 360 px)


def no_hidden_tagged_content(control) -> None:
    """A tagged part hides as a whole: Flet's client draws a red "Semantics.content must be provided
    and visible" box for a Semantics whose content is hidden."""
    for c in walk(control):
        if isinstance(c, ft.Semantics) and c.content is not None:
            assert c.content.visible is not False, f"{c.identifier or c.label}: its content is hidden, not the part"


def test_the_card_and_import_dialogs_hide_their_error_as_a_whole_and_import_a_chosen_file(monkeypatch):
    import asyncio

    from companion.games.biosphere5.screens import CatalogScreen, card_dialog

    monkeypatch.setattr(ft.BaseControl, "update", lambda self: None)  # no page in this test
    frame = campaign({}, physical=False)
    app = frame.app
    card_dialog(app, None, lambda c: None)
    dialog = frame.dialogs.pop()
    no_hidden_tagged_content(dialog)
    error = tagged_part(dialog, "card-error")
    assert error.visible is False
    dialog.actions[-1].on_click(None)  # "Save card" without a name
    assert error.visible and error.content.value == "Give the card its name, as printed on it."
    no_hidden_tagged_content(dialog)

    chosen = SimpleNamespace(name="biosphere5-catalog.json", size=None,
                             bytes=dump_catalog(Catalog(complete=True, cards=TEST_DECK[:3])).encode("utf-8"))

    async def pick_files(**kw):
        assert kw["with_data"] and "json" in kw["allowed_extensions"]
        return [chosen]

    app.file_picker = SimpleNamespace(pick_files=pick_files)
    app.toast = lambda text, error=False: None
    app.page.route = "/g/biosphere5/catalog"
    screen = CatalogScreen(app)
    screen._import(None)
    dialog = frame.dialogs.pop()
    no_hidden_tagged_content(dialog)
    assert tagged_part(dialog, "import-error").visible is False
    choose = button(dialog, "Choose a file")
    asyncio.run(choose.on_click(None))
    assert "biosphere5-catalog.json is read" in texts(dialog)
    dialog.actions[-1].on_click(None)  # "Replace my catalog" with the file's cards
    assert sorted(c.name for c in load_cards(frame.store)) == sorted(c.name for c in TEST_DECK[:3])

    chosen.bytes = b"\xff\xfe not text"
    screen._import(None)
    dialog = frame.dialogs.pop()
    asyncio.run(button(dialog, "Choose a file").on_click(None))
    assert tagged_part(dialog, "import-error").content.value == "biosphere5-catalog.json is not a text file."


def test_a_greyed_out_leader_ability_says_why_under_it():
    frame = campaign({"opponent": "people", "abyss": True, "players": 2, "names": ["Ann", "Bo"]}, physical=False)
    frame.dispatch(LeaderPromote(player=0, leader="true_believer"))
    panel = frame.panel()
    assert button(panel, "Use tier 1 – Glimmer of Hope").disabled
    assert texts(tagged_part(panel, "leader-reasons-0-true_believer")) == \
        "Use tier 1 – Glimmer of Hope: Glimmer of Hope would do nothing: Ann's doom is already 0."


# --- the desktop's width, The Abyss's overview, large text -------------------------------------------------


def test_the_abyss_shows_everyone_at_a_glance_then_each_players_buttons():
    import asyncio

    from companion.games.biosphere5.rules import DoomDrawPile

    frame = campaign({"opponent": "people", "abyss": True, "players": 3, "names": ["Ann", "Bo", "Cy"]}, physical=False)
    frame.dispatch(DoomDrawPile(player=1))
    frame.dispatch(LeaderPromote(player=2, leader="fighter"))
    panel = frame.panel()
    assert view.WIDE  # the campaign frame gives it a desktop's width
    overview = tagged_part(panel, "abyss-overview")
    # first on the screen: the doom and the leaders' tiers of everyone, side by side on a desktop
    assert walk(panel).index(overview) < walk(panel).index(tagged_part(panel, "abyss-player-0"))
    assert [texts(tagged_part(overview, f"overview-doom-{i}")) for i in range(3)] == ["0", "2", "0"]
    assert texts(tagged_part(overview, "overview-tier-2-fighter")) == "1"
    # only the leaders promoted: one line for most of a game
    assert "Leaders all at tier 0" in texts(tagged_part(overview, "overview-0"))
    assert "Strategist" not in texts(tagged_part(overview, "overview-2"))
    tiles = [tagged_part(overview, f"overview-{i}") for i in range(3)]
    assert all(t.col == {"xs": 12, "md": 6, "lg": 4} for t in tiles)
    # said once for everyone, not under each player
    assert texts(panel).count("At doom 8") == 1
    # each player's buttons below, three columns on a desktop
    cards = [tagged_part(panel, f"abyss-player-{i}") for i in range(3)]
    assert all(c.col == {"xs": 12, "lg": 6, "xl": 4} for c in cards)
    assert cards[1].content.key.value == "abyss-player-1"

    # a tap on a player's tile scrolls to their buttons (the phone's view)
    scrolled = []

    async def scroll_to(**kw):
        scrolled.append(kw["scroll_key"])

    frame.app.page.views = [SimpleNamespace(scroll_to=scroll_to)]
    frame.app.page.run_task = lambda fn: asyncio.run(fn())
    tiles[1].content.on_click(None)
    assert scrolled == ["abyss-player-1"]


def test_the_abyss_is_shorter_a_leader_without_ability_in_two_lines():
    frame = campaign({"opponent": "people", "abyss": True, "players": 2, "names": ["Ann", "Bo"]}, physical=False)
    card = tagged_part(frame.panel(), "abyss-player-0")
    shown = texts(card)
    assert "Tier 0 – no ability yet." not in shown  # the tier says it
    assert "Next: tier 1 – Tactical Meeting" in shown and "Draw 4 new cards" not in shown  # its name, not its text
    assert "At doom 8" not in shown  # the overview says it once for everyone
    frame.dispatch(LeaderPromote(player=0, leader="strategist"))
    assert "Tier 1 – Tactical Meeting: Draw 4 new cards" in texts(tagged_part(frame.panel(), "abyss-player-0"))


def test_a_finished_abyss_shows_the_standings_without_greyed_buttons():
    from companion.games.biosphere5.rules import DeclareBiosphere

    frame = campaign({"opponent": "people", "abyss": True, "players": 3}, physical=False)
    frame.dispatch(DeclareBiosphere(player=0))
    panel = frame.panel()
    assert tagged_part(panel, "abyss-overview")
    assert "Draw pile empty +2" not in texts(panel)  # the frame's end card says who won; nothing to tap here
    assert not [c for c in walk(panel) if isinstance(c, ft.Semantics)
                and (c.identifier or "").startswith("abyss-player")]
    assert tagged_part(panel, "overview-0").content.on_click is None


def test_man_against_machine_puts_the_turn_beside_the_boards_on_a_desktop():
    frame = campaign({}, physical=False)
    row = next(c for c in walk(frame.panel()) if isinstance(c, ft.ResponsiveRow))
    turn, boards = row.controls
    assert (turn.col, boards.col) == ({"xs": 12, "lg": 7}, {"xs": 12, "lg": 5})  # stacked on a phone, turn first
    assert "Round 1: the Machine's turn" in texts(turn) and "The Machine's board" in texts(boards)
    tap(frame.panel(), "Reveal 2 cards")
    # in the turn's column the grid has three tiles a row on a desktop (four would squeeze the names)
    assert tiles(frame.panel())["Shack"].col == {"xs": 6, "md": 4}


def test_achievement_cells_and_buttons_keep_their_words_whole_at_the_largest_text():
    frame = campaign({}, physical=False)
    frame.app.sizes = Sizes(1.7)
    tap(frame.panel(), "Reveal 2 cards")
    view._input(frame).picked = ["deep-well", "shack"]
    tap(frame.panel(), "Let the Machine decide")
    panel = frame.panel()
    cell = tagged_part(panel, "machine-community")
    assert cell.col == {"xs": 6} and cell.content.height is None  # two a row, as tall as their words
    button(panel, "Your hand cards +1").on_click(None)
    tap(frame.panel(), "Achievement")
    dialog = frame.dialogs.pop()
    perfect, makeshift = button(dialog, "Perfect", 0), button(dialog, "Makeshift", 0)
    pair = next(c for c in walk(dialog) if isinstance(c, ft.Row) and perfect in c.controls)
    assert pair.wrap and not makeshift.expand  # "Makeshift" moves under "Perfect" rather than breaking


def test_giving_up_an_achievement_is_a_tap_anywhere_on_its_row():
    held = {"water": "green", "housing": "green", "security": "green", "production": "green"}
    state = solo(level=2, machine=held, hand=1, human={"water": "yellow", "housing": "green", "security": "yellow"})
    state, _ = apply(state, reveal_action(DECK, ["barter", "tent"]), ScriptedDice([]))
    frame = campaign({}, physical=False)
    frame.loaded = SimpleNamespace(game_state=state, cursor=frame.loaded.cursor)
    frame.refresh = lambda: None  # the panel is drawn again below, from the input

    def water_row():
        return next(c for c in walk(frame.panel()) if isinstance(c, ft.Semantics) and "makeshift water" in (c.label or ""))

    row = water_row()
    row.content.on_click(None)
    assert view._input(frame).give_up == ["water"]
    row = water_row()
    assert row.checked is True
    row.content.on_click(None)
    assert view._input(frame).give_up == []


def test_the_setup_form_offers_the_opponent_as_two_big_buttons_and_short_field_labels(monkeypatch):
    monkeypatch.setattr(ft.BaseControl, "update", lambda self: None)
    frame = campaign({}, physical=False)
    form = view.SetupForm(frame.app)
    row = form.controls()[0]
    machine, people = [b for b in walk(row) if isinstance(b, BUTTONS)]
    assert words(machine) == "Man against Machine (alone)" and isinstance(people, ft.OutlinedButton)
    assert form.collect()["opponent"] == "machine"
    people.on_click(None)
    assert form.players_part.visible and not form.difficulty_part.visible and not form.abyss_row.visible
    assert not form.black_part.visible  # nothing is rolled against people
    assert form.collect()["opponent"] == "people" and form.collect()["abyss"] is True
    # a label inside a field stays short (a long one breaks over the value at a large text size);
    # the long words are above the field, wrapping
    fields = [c for c in walk(form.controls()) if isinstance(c, (ft.Dropdown, ft.TextField))]
    assert all(len(f.label) <= 24 and f.text_size is None for f in fields)


def test_the_catalog_screen_lays_its_cards_out_in_columns_on_a_wider_screen():
    from companion.games.biosphere5.screens import CatalogScreen

    frame = campaign({}, physical=False)
    frame.app.page.route = "/g/biosphere5/catalog?from=1"
    screen = CatalogScreen(frame.app)
    screen._draw()
    grid = next(c for c in walk(screen.body) if isinstance(c, ft.ResponsiveRow) and len(c.controls) == len(TEST_DECK))
    assert all(row.col == {"xs": 12, "md": 6, "xl": 4} for row in grid.controls)
    top = next(c for c in walk(screen.body) if isinstance(c, ft.ResponsiveRow))
    assert "Import" in texts(top)  # importing (from a file too) is above the long list of cards


def test_a_card_is_its_name_and_four_taps_on_chips_that_its_class_has(monkeypatch):
    """Issue #30: the card dialog's seven dropdowns became tap-to-choose chips, only those the card's
    class has, each with the level that follows from it; a new card is its name and at most 4 taps,
    a shipped card with fields missing shows what the book says of it and is completed in fewer."""
    from companion.games.biosphere5.screens import ASSET, card_dialog, delete_card, save_card
    from companion.games.biosphere5.cards import parse_catalog

    monkeypatch.setattr(ft.BaseControl, "update", lambda self: None)  # no page in this test
    frame = campaign({}, physical=False)
    for card in TEST_DECK[:2]:  # room in the 25-card deck for the cards entered here
        delete_card(frame.store, card.id)
    app = frame.app
    app.toast = lambda *a, **kw: None
    saved: list = []
    taps = [0]

    def chip(dialog, label: str) -> None:
        taps[0] += 1
        tap(dialog, label)

    card_dialog(app, None, saved.append)
    dialog = frame.dialogs.pop()
    shown = texts(dialog)
    assert "Upper option: category" not in shown  # no class yet: no category to choose
    next(c for c in walk(dialog) if isinstance(c, ft.TextField) and c.label == "Card name (as printed)").value = "Well"
    chip(dialog, "Upper option: class: perfect achievement (green)")
    chip(dialog, "Upper option: category: Water · I")
    chip(dialog, "Lower option: Housing catastrophe · I")
    taps[0] += 1
    dialog.actions[-1].on_click(None)  # Save card
    assert taps[0] <= 4
    [well] = saved
    assert well.is_complete and (well.upper.kind, well.upper.category, well.upper.level) == ("perfect", "water", 1)
    assert (well.lower.kind, well.lower.category, well.lower.level) == ("catastrophe", "housing", 1)
    assert [c for c in load_cards(frame.store) if c.name == "Well"] == [well]

    # Biosphere 5 in one tap: its category, level and other option follow; no other chips are shown.
    card_dialog(app, None, saved.append)
    dialog = frame.dialogs.pop()
    tap(dialog, "Upper option: class: Biosphere 5")
    shown = texts(dialog)
    assert "Upper option: category" not in shown and "Lower option" not in shown.split("\n")
    assert "Biosphere 5: salvation, level IV; its other option is Attack (IV)." in shown

    # A shipped card with its category unknown: the book's words beside the chips; two taps finish it.
    deep_well = next(c for c in parse_catalog(ASSET.read_text(encoding="utf-8")).cards if c.id == "deep-well")
    save_card(frame.store, deep_well)
    card_dialog(app, deep_well, saved.append)
    dialog = frame.dialogs.pop()
    assert deep_well.note in texts(tagged_part(dialog, "card-evidence"))
    assert button(dialog, "Upper option: class: perfect achievement (green)").icon == ft.Icons.CHECK  # what it is
    tap(dialog, "Upper option: category: Water · I")
    dialog.actions[-1].on_click(None)
    assert saved[-1].is_complete and saved[-1].lower.kind == "new_hope"


def test_player_names_typed_on_one_line_with_commas_are_three_players(monkeypatch):
    """Issue #30 item 9: "Ann, Ben, Cat" became one player of that name plus "Player 2" and "Player 3"."""
    monkeypatch.setattr(ft.BaseControl, "update", lambda self: None)
    frame = campaign({}, physical=False)
    form = view.SetupForm(frame.app)
    form._choose("people")
    form.players.value = "3"
    form.names.value = "Ann, Ben, Cat"
    assert form.collect()["names"] == ["Ann", "Ben", "Cat"]
    form.names.value = "Ann\nBen,  Cat\n"
    assert form.collect()["names"] == ["Ann", "Ben", "Cat"]
    assert "commas or new lines" in form.names.helper


def test_the_abyss_on_a_phone_opens_one_players_board_at_a_time():
    """Issue #30 item 6: three players' boards one under another were about 4,400 px on a phone. There
    one board is open (the first player's, at first); the overview's rows are the others, and a tap
    on a row opens that player's board instead (this phone's choice, kept after an action)."""
    import asyncio

    from companion.games.biosphere5.rules import DoomDrawPile

    frame = campaign({"opponent": "people", "abyss": True, "players": 3, "names": ["Ann", "Bo", "Cy"]}, physical=False)
    frame.app.page.width = 412
    scrolled = []

    async def scroll_to(**kw):
        scrolled.append(kw["scroll_key"])

    frame.app.page.views = [SimpleNamespace(scroll_to=scroll_to)]
    frame.app.page.run_task = lambda fn: asyncio.run(fn())

    def boards(panel):
        return [i for i in range(3) if any(isinstance(c, ft.Semantics) and c.identifier == f"abyss-player-{i}"
                                          for c in walk(panel))]

    panel = frame.panel()
    assert boards(panel) == [0]
    assert "Tap a player to open their doom and leader buttons below." in texts(tagged_part(panel, "abyss-overview"))
    tagged_part(tagged_part(panel, "abyss-overview"), "overview-2").content.on_click(None)
    assert scrolled == ["abyss-player-2"]
    panel = frame.panel()
    assert boards(panel) == [2]
    frame.dispatch(DoomDrawPile(player=2))
    assert boards(frame.panel()) == [2]  # still Cy's board after Cy's action
    frame.app.page.width = 1280
    assert boards(frame.panel()) == [0, 1, 2]  # a desktop: side by side
