"""Biosphere 5 on a German phone (#15): a campaign played through the real store reads in German —
the Machine's reveal, its decision with the rule that fired and why the higher ones didn't, its rescue
check, a refusal, your discard and your turn, The Abyss's doom and leaders, the card catalog, the
setup — and the very same stored events, undo labels and history read in English on an English phone."""

from __future__ import annotations

import flet as ft
import pytest
from test_biosphere5_view import campaign, tagged_part, tap, walk

from companion.games.base import Event, RuleError
from companion.games.biosphere5 import view
from companion.games.biosphere5.rules import (
    DoomDrawPile,
    EndTurn,
    HumanAchievement,
    HumanCatastrophe,
    LeaderAbility,
    LeaderPromote,
    SetHand,
    headline,
    outcome,
)
from companion.games.biosphere5.rules import reveal_action
from companion.games.biosphere5.screens import CatalogScreen, card_dialog, load_cards
from companion.i18n import render, speaking
from companion.ui.widgets import history_line
from tests.test_i18n import english_words, shown_words


def german(control) -> list[str]:
    """What a German phone shows of a control, with no English message left that German says otherwise."""
    shown = shown_words(control)
    assert english_words() & set(shown) == set()
    return shown


def history(frame) -> list[str]:
    return [w for row in frame.history() for w in shown_words(history_line(row))]


def test_man_against_machine_reads_in_german_and_the_same_log_in_english():
    frame = campaign({"difficulty": 4}, physical=False)  # 3 cards, and 4 hand dice to save the Machine
    with speaking("de"):
        shown = german(frame.panel())
        assert {"Runde 1: Die Maschine ist am Zug", "3 Karten aufdecken", "Tableau der Maschine",
                "Handkartenstufe", "Deckt in diesem Zug 3 Karten auf"} <= set(shown)
        assert any(s.startswith("Kartenkatalog · ") and "Karten eingetragen" in s for s in shown)
        tap(frame.panel(), "3 Karten aufdecken")
        view._input(frame).picked = ["deep-well"]
        shown = german(frame.panel())
        assert "1 von 3 angetippt — tippe noch 2 an" in shown and "Tippe jede aufgedeckte Karte an:" in shown
        view._input(frame).picked = ["deep-well", "shack", "herbs"]
        tap(frame.panel(), "Die Maschine entscheiden lassen")
        shown = german(frame.panel())
    # the Machine's decision: the instruction, the rule that fired, why, and why the higher rules didn't
    assert "Die Maschine spielt Deep Well — perfekte Errungenschaft (Wasser): Leg einen grünen Stein auf Wasser." in shown
    assert "Regel 5 greift" in shown and "Warum die höheren Regeln nicht griffen" in shown
    assert ("Regel 5: eine spielbare Errungenschaft; die Maschine spielt die wertvollste. Sie hat den höchsten "
            "Kartenwert (perfekt · Wasser), vor Shack (notdürftig · Wohnraum).") in shown
    assert "• Regel 1 (abgelegte Karte) griff nicht: Es liegt keine Karte Biosphere 5/Angriff ab." in shown
    assert "Wirf alle aufgedeckten Karten ab." in shown
    # with no hand cards every play is greyed out with the rules' reason, in German
    assert "Gib zuerst deine Handkarten ein: Die App zählt 0 Karten auf deiner Hand." in shown
    # a refusal raised by the rules reads in the phone's language
    state = frame.loaded.game_state
    with pytest.raises(RuleError) as refused:
        frame.dispatch(HumanAchievement(category="security", cube="green"))
    with speaking("de"):
        assert str(refused.value) == "Gib zuerst deine Handkarten ein: Die App zählt 0 Karten auf deiner Hand."
    assert str(refused.value) == "Enter your hand size first: the app counts 0 cards in your hand."

    frame.dispatch(SetHand(cards=4))
    frame.dispatch(HumanCatastrophe(category="housing", rescue=True, name="Hurricane"))  # the Machine's rescue check
    with speaking("de"):
        shown = german(frame.panel())
        assert any(s.startswith("Rettungswurf: 4 Handwürfel zeigen ") for s in shown)
        assert "Du spielst Hurricane und wirfst eine Rettungskarte (Wohnraum) mit ab." in shown
        assert "Hurricane gegen die Maschine: kein Schutz bei Wohnraum → 4 Karten fällig." in shown
        tap(frame.panel(), "Zug beenden")
        shown = german(frame.panel())
        assert any(s.startswith("Runde 2: Die Maschine ist am Zug") for s in shown)
        said_history = history(frame)
        assert english_words() & set(said_history) == set()
        undo = render(frame.store.load(frame.campaign_id).undo_label)
        said_headline = render(headline(frame.loaded.game_state))
    assert "Die Maschine spielt Deep Well — perfekte Errungenschaft (Wasser): Leg einen grünen Stein auf Wasser." \
        in said_history
    assert any(s.startswith("Warum: Regel 5: eine spielbare Errungenschaft") for s in said_history)
    assert "Deine Hand: 0 → 4 Karten." in said_history
    assert undo == "Zug beenden" and said_headline.startswith("Runde 2 · Zug der Maschine · ")
    assert state.solo.decision.instruction.render("de").startswith("Die Maschine spielt Deep Well")

    # the same stored events and labels on an English phone
    with speaking("en"):
        said = history(frame)
        assert render(frame.store.load(frame.campaign_id).undo_label) == "end your turn"
        assert "Your hand: 0 → 4 cards." in said
        assert ("The Machine plays Deep Well — perfect water achievement: place a green cube on water." in said)
        assert any(s.startswith("Rescue check: 4 hand dice show ") for s in said)
        assert "Runde" not in " ".join(said)


def test_the_machine_s_catastrophe_and_your_discard_in_german():
    frame = campaign({}, physical=False)
    deck = {c.id: c for c in load_cards(frame.store)}
    frame.dispatch(reveal_action(deck, ["deep-well", "shack"]))  # the Machine: a perfect water achievement
    frame.dispatch(SetHand(cards=2))
    frame.dispatch(EndTurn())
    frame.dispatch(reveal_action(deck, ["tent", "herbs"]))  # rule 7: Drought, better protected than you
    with speaking("de"):
        shown = german(frame.panel())
    assert "Du wirfst ab" in shown and "Regel 7 greift" in shown
    assert ("Drought trifft zuerst dich: Du hast keinen Schutz bei Wasser → wirf 4 Karten ab oder stattdessen eine "
            "Rettungskarte (Wasser). Hast du zu wenige Karten, gib für jede fehlende Karte eine Errungenschaft ab."
            ) in shown
    assert "Du hast 2 Handkarten (korrigiere unten, falls das nicht stimmt)." in shown
    assert "Ich habe stattdessen eine Rettungskarte (Wasser) abgeworfen" in shown
    assert "Regel 7: Drought — der Schutz der Maschine bei Wasser (perfekt) ist besser als deiner (keine)." in shown


def test_the_abyss_reads_in_german():
    frame = campaign({"opponent": "people", "abyss": True, "players": 3, "names": ["Ann", "Bo"]}, physical=False)
    frame.dispatch(DoomDrawPile(player=2))
    frame.dispatch(LeaderPromote(player=0, leader="true_believer"))
    frame.dispatch(LeaderPromote(player=0, leader="true_believer"))
    frame.dispatch(LeaderAbility(player=0, leader="true_believer", tier=2))
    with speaking("de"):
        shown = german(frame.panel())
        said = history(frame)
        assert render(outcome(frame.loaded.game_state) or "") == ""
        assert render(headline(frame.loaded.game_state)) == "Der Abgrund · 3 von 3 Spielern dabei"
    assert "Der Abgrund" in shown and "Anführer" in shown and "Wahrer Gläubiger" in shown
    assert "Nachziehstapel leer +2" in shown and "Spieler 3" in shown  # a player without a name, in German
    assert "Rang 2 – Ohne Zögern: Setz dein Verderben auf 4. Erhöhe das Verderben aller anderen Spieler um 1." in shown
    assert "Spieler 3: Verderben 0 → 2 (Nachziehstapel leer)." in said
    assert "Ann: Verderben 0 → 4 (Ohne Zögern: auf 4 gesetzt)." in said
    with speaking("en"):
        said = history(frame)
    assert "Player 3: doom 0 → 2 (draw pile empty)." in said
    assert "Ann: doom 0 → 4 (Without Hesitation: set to 4)." in said


def test_the_catalog_the_card_dialog_and_the_setup_in_german(monkeypatch):
    monkeypatch.setattr(ft.BaseControl, "update", lambda self: None)
    frame = campaign({}, physical=False)
    frame.app.page.route = "/g/biosphere5/catalog"
    frame.app.toast = lambda *a, **kw: None
    with speaking("de"):
        screen = CatalogScreen(frame.app)
        shown = german(screen.view())
        card_dialog(frame.app, None, lambda c: None)
        dialog = german(frame.dialogs.pop())
        form = view.SetupForm(frame.app)
        setup = german(ft.Column(form.controls()))
    assert "Biosphere-5-Karten" in shown and "Kartenkatalog" in shown and "Katalog teilen" in shown
    assert any(s.startswith("Oben: ") for s in shown) and any(s.startswith("Unten: ") for s in shown)
    assert "Kartenname (wie aufgedruckt)" in dialog and "Obere Option: Klasse" in dialog
    assert "Mensch gegen Maschine (allein)" in setup and "Wer spielt?" in setup
    fields = [c for c in walk(form.controls()) if isinstance(c, (ft.Dropdown, ft.TextField))]
    assert all(len(f.label) <= 24 for f in fields)  # short in German too: a long label breaks over the value


def test_old_saves_plain_english_still_reads():
    """An event stored as a plain English sentence (a save from before #15) still shows, as it was."""
    old = Event.coerce({"kind": "hand", "text": "Your hand: 0 → 5 cards.", "data": {}})
    with speaking("de"):
        assert render(old.text) == "Your hand: 0 → 5 cards."


def test_setting_the_hand_reads_well_on_the_undo_button_in_both_languages():
    """"Undo: hand set to 1 card", not "hand 1 cards"; an older save's row keeps its German words."""
    from companion.games.biosphere5.rules import GAME, SetHand
    from companion.i18n import Msg

    one, three = GAME.describe(SetHand(cards=1)), GAME.describe(SetHand(cards=3))
    assert (render(one), render(three)) == ("hand set to 1 card", "hand set to 3 cards")
    with speaking("de"):
        assert (render(one), render(three)) == ("Hand auf 1 Karte gesetzt", "Hand auf 3 Karten gesetzt")
        assert render(Msg("hand {n} cards", n=2)) == "Hand 2 Karten"
