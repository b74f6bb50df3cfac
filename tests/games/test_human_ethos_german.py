"""Human Ethos on a German phone and an English phone at one table (#15): one seeded campaign played
through the real store into the phases that matter (the setup, a move that reveals tokens, placing
them, the enemy phase and its explanations, a tie the players choose, a tie the app picks, a
refusal, the history and the undo label). Each screen is built on a German phone: it shows no
message the catalog has German for in English, and says the key sentences in German; the very same
stored events and history read in English on an English phone."""

from __future__ import annotations

import re

import flet as ft
import pytest

from companion.games.base import RuleError
from companion.games.human_ethos import rules as R
from companion.games.human_ethos import view
from companion.games.human_ethos.hexmap import Hex, from_label
from companion.i18n import render, speaking
from companion.ui.forms import SettingsForm
from companion.ui.widgets import history_line
from tests.games.human_ethos_fixtures import HOST, NANO
from tests.helpers import memory_store
from tests.test_i18n import english_words, shown_words
from tests.views import StoreFrame


class Frame(StoreFrame):
    view = view

    def __init__(self, store, cid: int):
        super().__init__(store, cid)
        self.app.page.width = 412
        self.app.toast = lambda text, **kw: None


def at(label: str) -> Hex:
    return Hex.of(from_label(label))


def campaign(tie_break: str = "players_choose") -> tuple[Frame, int]:
    """Enemy cards entered, issue #1 started on the sample map, Max into the tokens' area, both
    tokens placed: the next action is the enemy phase, which meets a tie."""
    store = memory_store()
    cid = store.create("human_ethos", "Ethos", {"tie_break": tie_break}, seed=7)
    frame = Frame(store, cid)
    for et in (NANO, HOST):
        frame.dispatch(R.SetEnemyType(enemy=et))
    frame.dispatch(R.StartIssue(map=view.parse_map_json(view.SAMPLE_PATH.read_text()), track=20,
                                members=["Max", "Ana"]))
    frame.dispatch(R.Move(member="Max", to=at("C3"), move=3))
    frame.dispatch(R.Spawn(token=0, face="Nanobots", groups=[R.Placement(enemy="Nanobots", at=at("D4"), count=1)]))
    frame.dispatch(R.Spawn(token=1, face="Hosts"))
    return frame, cid


def seen(frame: Frame, language: str) -> list[str]:
    """Everything the panel and the history show, built on a phone speaking `language`."""
    with speaking(language):
        shown = shown_words(frame.panel())
        for row in frame.history(100):
            shown += shown_words(history_line(row))
    return shown


def no_english(shown: list[str]) -> None:
    assert english_words() & set(shown) == set()


def sentences(shown: list[str]) -> set[str]:
    """The texts that are words (two at least), not a name, a space or a number."""
    return {s for s in shown if re.search(r"[A-Za-zÄÖÜäöüß]{2,}\W+[A-Za-zÄÖÜäöüß]{2,}", s)
            and not re.fullmatch(r"(Max|Ana)(, (Max|Ana))*", s)}  # (the team, as the setup's field holds it)


@pytest.fixture(scope="module")
def tied():
    """The players' tie: the enemy phase waits for them."""
    frame, cid = campaign()
    frame.dispatch(R.EnemyPhase())
    assert frame.loaded.game_state.issue.pending is not None
    return frame, cid


def test_the_setup_and_the_settings_speak_german():
    store = memory_store()
    cid = store.create("human_ethos", "Ethos", {})
    frame = Frame(store, cid)
    shown = seen(frame, "de")
    with speaking("de"):
        form = SettingsForm(R.Settings).controls()  # the frame's settings form: labels and choices
        shown += [c.label for c in form] + [o.text for c in form if isinstance(c, ft.Dropdown) for o in c.options]
        headline = render(R.headline(frame.loaded.game_state))
    no_english(shown)
    assert {"Das nächste Spiel aufbauen", "Ausgabe #1 beginnen", "Arcade-Spiel", "Länge der Leiste",
            "Gegnerkarten", "Fortschritt der Kampagne"} <= set(shown)
    assert any(s.startswith("Gleichstände der Gegner, die die Regeln offen lassen") for s in shown)
    assert {"Spieler wählen", "großzügig", "schlau", "pro Bewegung", "Beispielplan (nicht aus der Schachtel)"} <= set(shown)
    assert headline == "Story · als Nächstes Ausgabe #1"


def test_a_tie_the_players_choose_in_german_and_in_english(tied):
    frame, cid = tied
    german = seen(frame, "de")
    no_english(german)
    assert "Gegnerphase: eure Wahl" in german
    assert ("Eure Wahl: 1 Nanobot auf D4: zwei gleich kurze Wege zu Max (2 Felder entfernt); welches Feld nimmt er?"
            in german)
    assert "1: 1 nach C4" in german and "2: 1 nach D3" in german  # the options, as buttons
    assert any(s.startswith("Die Spieler entscheiden:") for s in german)  # the event, in the history
    assert any(s.startswith("Max betritt Bereich Plaza: Deck die Marker auf C2 (normal), D5 (normal) auf") for s in german)
    assert any(s.startswith("Gegnerphase, in dieser Reihenfolge:") for s in german)
    english = seen(frame, "en")
    assert "Enemy phase: your choice" in english and "2: 1 to D3" in english
    assert ("Players decide: 1 Nanobot on D4: two equally short routes to Max (2 spaces away); which space does it "
            "take? Options: 1: 1 to C4; 2: 1 to D3.") in english
    assert sentences(german) & sentences(english) == set()  # what both phones show alike: names, spaces, numbers


def test_a_refusal_says_why_in_each_phone_s_language(tied):
    frame, cid = tied
    state = frame.loaded.game_state
    attack = R.Attack(member="Max", at=at("D5"), enemy="Hosts", damage=1, range=1)
    with pytest.raises(RuleError) as refused:
        R.apply(state, attack, None)
    with speaking("de"):
        assert str(refused.value) == ("Die Gegnerphase wartet darauf, dass die Spieler eine der Möglichkeiten "
                                      "wählen.")
        why = R.GAME.why_not(state, attack)
        assert render(why).startswith("Die Gegnerphase wartet")
    assert str(refused.value) == "The enemy phase is waiting for the players to pick one of the options."
    with speaking("de"):
        with pytest.raises(Exception) as tapped:  # a tap on a space no option sends enemies to
            view._tapped(frame, from_label("A1"))
        assert "Keine Möglichkeit schickt Gegner dorthin" in str(tapped.value)


def test_the_players_choice_the_history_and_undo_in_german_and_in_english():
    frame, cid = campaign()
    frame.dispatch(R.EnemyPhase())
    frame.dispatch(R.Choose(option=1))
    german = seen(frame, "de")
    no_english(german)
    assert "Wahl der Spieler 2: 1 nach D3." in german
    assert "1 Nanobot D4 → D3: zwei gleich kurze Wege zu Max (2 Felder entfernt)." in german
    assert any(s.startswith("Was gerade geschah: Gleichstand der Gegner: Möglichkeit 2") for s in german)
    assert any(s.endswith("Gleichstand der Gegner: Möglichkeit 2") for s in german)  # the history's line
    assert "Zug 2 · Ana ist am Zug" in german
    row = frame.history(1)[0]
    with speaking("de"):
        assert render(row.label) == "Gleichstand der Gegner: Möglichkeit 2"
    assert render(row.label, "en") == "enemy tie: option 2"
    english = seen(frame, "en")
    assert "Players' choice 2: 1 to D3." in english and "Turn 2 · Ana's turn" in english
    assert "1 Nanobot D4 → D3: two equally short routes to Max (2 spaces away)." in english
    assert sentences(german) & sentences(english) == set()


def test_a_tie_the_app_picks_explains_itself_in_german():
    frame, cid = campaign("smart")
    frame.dispatch(R.EnemyPhase())
    german = seen(frame, "de")
    no_english(german)
    assert any(s.startswith("Gleichstand (Einstellung „schlau“): Von 2 Möglichkeiten wählt die App 1 nach")
               and s.endswith("am meisten Gruppen in Reichweite des Teams, dann am nächsten an ihm.") for s in german)
    english = seen(frame, "en")
    assert any(s.startswith("Tie (smart setting): of 2 options, 1 to") for s in english)


def test_an_attack_aimed_from_the_map_and_the_map_editor_in_german():
    from companion.games.human_ethos.screens import EnemiesScreen, MapsScreen

    frame, cid = campaign()
    ui = view._ui(frame)
    with speaking("de"):
        view._tapped(frame, from_label("D4"))  # aim at the Nanobot
        shown = shown_words(frame.panel())
        app = frame.app
        app.page.platform = None
        for screen in (MapsScreen(app), EnemiesScreen(app)):
            shown += shown_words(screen.view())
    assert ui.target == from_label("D4")
    no_english(shown)
    assert "Angriff auf D4 mit Max" in shown and "Zielen beenden" in shown
    assert "Bearbeiten · BEISPIELPLAN" in shown and "Human-Ethos-Gegnerkarten" in shown


def test_a_lost_issue_its_banner_and_outcome_in_german_and_in_english():
    frame, cid = campaign()
    frame.dispatch(R.Adjust(track="threat", delta=30, reason="Alarm"))
    german = seen(frame, "de")
    no_english(german)
    assert "Ausgabe #1 verloren" in german and "Bedrohung und Wachsamkeit haben sich auf der Leiste getroffen." in german
    assert ("Bedrohung +30: Alarm (gestoppt, wo sich die Marker treffen). Jetzt Bedrohung 20 + Wachsamkeit 0 von 20."
            in german)
    assert "Story: Versuche Ausgabe #1 noch einmal, um weiterzukommen." in german
    with speaking("de"):
        assert render(R.outcome(frame.loaded.game_state)) == "Verloren: Ausgabe #1"
    assert R.outcome(frame.loaded.game_state) == "Lost issue #1"
    english = seen(frame, "en")
    assert "Issue #1 lost" in english and "Story: try issue #1 again to move on." in english
    assert sentences(german) & sentences(english) == set()
