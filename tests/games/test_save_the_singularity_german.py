"""Save the Singularity on a German phone and an English phone at the same table (#15): one campaign
played through the real store, every phase's panel, a refusal, the odds' explanation, the history and
the undo label in German, with no English message left over; the same stored events read in English
on an English phone."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from companion.games.base import RuleError
from companion.games.save_the_singularity import rules, view
from companion.games.save_the_singularity.rules import (
    Player, Programmer, Roll, RollD12, Settings, Stop, TakeBust, VentureCapitalist,
)
from companion.i18n import _, as_text, render, speaking
from companion.table import TABLE_KINDS, SetPhysicalDice
from companion.ui.widgets import history_line
from tests.helpers import memory_store
from tests.test_i18n import english_words, shown_words
from tests.views import StoreFrame


class Frame(StoreFrame):
    view = view

    def play(self, action, *faces: int) -> None:
        """Apply an action with the dice the table rolled (all of them entered with it)."""
        self.store.apply(self.campaign_id, action, expected_cursor=self.loaded.cursor, entered=list(faces))
        self.refresh()


def table(*players: tuple[str, str]) -> Frame:
    store = memory_store()
    settings = Settings(players=[Player(name=n, role=r) for n, r in players]).model_dump(mode="json")
    frame = Frame(store, store.create("save_the_singularity", "Singularity night", settings, seed=3))
    frame.dispatch(SetPhysicalDice(on=True))
    return frame


def seen_in(language: str, frame: Frame) -> list[str]:
    """Everything the panel, the title bar's headline and undo, and the history of the game's own
    actions show on a phone (the table's own action, switching to physical dice, is the frame's)."""
    with speaking(language):
        loaded = frame.loaded
        shown = shown_words(frame.panel())
        shown.append(render(as_text(loaded.campaign.headline)))
        rows = [row for row in frame.history() if row.action.get("kind") not in TABLE_KINDS]
        if rows and rows[0].seq == loaded.cursor:
            shown.append(_("Undo: {action}", action=loaded.undo_label))
        for row in rows:
            shown += shown_words(history_line(row))
    return shown


@pytest.fixture(scope="module")
def played() -> list[tuple[str, Frame, list[str]]]:
    """A three-player campaign through a start, a throw with its hint, a bust the powers may still
    undo (and a refused move there), the Programmer's reroll, the world phase and the next turn; and
    a one-player campaign the world wins. What a German phone sees at each step."""
    steps: list[tuple[str, Frame, list[str]]] = []

    def look(name: str, frame: Frame) -> None:
        steps.append((name, frame, seen_in("de", frame)))

    trio = table(("Ada", "venture_capitalist"), ("Bo", "programmer"), ("Cy", "rationalist"))
    look("start", trio)
    trio.play(Roll(), 2, 4, 5)
    look("throw", trio)
    trio.play(rules.PressOn(), 1, 1, 4, 4)
    look("bust", trio)
    with speaking("de"):  # a refusal is said on the phone that tried
        with pytest.raises(RuleError) as refused:
            trio.play(Stop())
        steps.append(("refusal", trio, [str(refused.value)]))
    trio.play(Programmer(by=1), 4, 5)
    trio.play(Stop())
    look("world", trio)
    trio.play(RollD12(), 11)
    look("world roll", trio)
    trio.play(RollD12(), 1)
    look("next turn", trio)
    trio.play(VentureCapitalist(by=0), 1, 2, 4, 4, 1, 3, 5, 5)
    look("venture", trio)

    solo = table(("Ada", "media_liaison"))
    solo.play(Roll(), 1, 1, 4)  # a bust no power can undo: the world phase at once
    for face in (4, 5, 11, 12):
        solo.play(RollD12(), face)
    assert solo.loaded.game_state.phase == "over"
    look("over", solo)
    return steps


def test_no_english_is_left_on_a_german_phone(played):
    english = english_words()
    for name, _frame, shown in played:
        assert english & set(shown) == set(), name


def test_the_german_phone_reads_the_game_in_german(played):
    shown = {name: "\n".join(words) for name, _frame, words in played}
    expected = {
        "start": ["Zug 1", "Wirf 3 Würfel", "Vorrat: 3 zum Start.", "Live-Chancen", "Spieler und Fähigkeiten",
                  "Der Zug beginnt mit einem Wurf von 3 Würfeln;", "Jetzt nicht: "],
        "throw": ["Ada wirft 3 Würfel: 0 Bugs, 1 Idee, 2 Fortschritte; +2 auf dem Spiel (2 in diesem Zug).",
                  "Weiter mit 4 Würfeln", "Stopp und 2 sichern", "Gewinnchance, wenn du stoppst", "Tipp: ",
                  "Cy (Rationalist): alle 3 Würfel neu werfen", "Rückgängig: würfeln",
                  "Zug 1 · Ada · 2 auf dem Spiel"],
        "bust": ["2 Bugs: Dieser Wurf stürzt ab, wenn kein Neuwurf das ändert – Cy (Rationalist), Bo (Programmierer).",
                 "Absturz hinnehmen (2 verlieren)", "Bo (Programmierer): die 2 Bug-Würfel neu werfen",
                 "Zug 1 · Ada · Absturz!"],
        "refusal": ["Dieser Wurf stürzt ab: Nimm den Absturz hin (oder nutze eine Fähigkeit zum Neuwerfen)."],
        "world": ["Bo (Programmierer): die 2 Bug-Würfel neu werfen.", "Die Welt ist dran (nach Ada)",
                  "Wirf den W12", "Die Weltphase: Wirf den W12 bis zu einem Stopp.", "Noch kein W12 geworfen.",
                  "Rückgängig: stoppen und sichern", "Verbraucht"],
        "world roll": ["W12 zeigt 11: Unheil, +Würfel → Welt +1 → 1 (Ziel 12); nächster Spieler +1 Würfel "
                       "(1 geschuldet); kein Stopp – nochmal würfeln.", "Welt 1 · +1 Würfel für den nächsten Spieler"],
        "next turn": ["Zug 2: Bo beginnt mit 3 + 1 geschuldeten = 4 Würfeln.", "Letzte Weltphase (nach dem Zug von Ada)",
                      "Vorrat: 3 + 1 von der Welt geschuldet."],
        "venture": ["Ada (Investor): finanziert den Wurf: 4 Würfel mit ignorierten Bugs", "Wurf 1 · 4 Würfel, Bugs ignoriert", "Ignoriert", "Rückgängig: Investor-Fähigkeit von Ada"],
        "over": ["Endstand", "Die letzte Weltphase", "Die Welt erreicht 4 Punkte: Die Welt gewinnt.",
                 "Zug 1 · Spiel vorbei", "Team 0/25", "Welt 4/4"],
    }
    for name, parts in expected.items():
        for part in parts:
            assert part in shown[name], (name, part)


def test_the_same_campaign_reads_in_english_on_an_english_phone(played):
    """The events stored while the German phone looked on are messages: an English phone reads them,
    the undo label and the headline in English, word for word as the game said them before."""
    by_name = {name: frame for name, frame, _shown in played}
    trio = by_name["venture"]
    english = "\n".join(seen_in("en", trio))
    for said in ("Ada throws 3 dice: 0 Bugs, 1 Idea, 2 Progress; +2 at risk (2 this turn).",
                 "2 Bugs: this throw busts unless a reroll changes it — Cy (Rationalist), Bo (Programmer).",
                 "Bo (Programmer): reroll the 2 Bug dice.",
                 "d12 shows 11: Bad, +Dice → world +1 → 1 (target 12); next player +1 die (1 owed); no Stop — roll again.",
                 "Turn 2: Bo starts with 3 + 1 owed = 4 dice.",
                 "Undo: Ada's Venture Capitalist power", "Throw 1 · 4 dice, Bugs ignored", "Players and powers"):
        assert said in english, said
    assert "Würfel" not in english and "Absturz" not in english
    # ... and the German phone, at the same moment, in German.
    assert "Ada wirft 3 Würfel" in "\n".join(seen_in("de", trio))


def test_the_setup_form_speaks_german():
    with speaking("de"):
        form = view.SetupForm(SimpleNamespace(guard=lambda fn: fn))
        form.list.update = form.targets.update = lambda: None
        form._add(None)
        shown = shown_words(form.controls())
    assert {"Name von Spieler 1", "Rolle von Spieler 2", "Spieler hinzufügen", "Tischregeln",
            "Ziele für 2 Spieler: Team 50, Welt 8", "Pressesprecher sagt an", "Mathematiker",
            "Höchstzahl Würfel pro Wurf (die Schachtel enthält 12 W6): 3–12", "Max. Würfel pro Wurf",
            "vor dem Wurf"} <= set(shown)
    assert english_words() & set(shown) == set()


def test_a_refused_setting_says_why_in_german():
    from pydantic import ValidationError

    with speaking("de"):  # the reason is said when the refusal is read, on the phone that made it
        with pytest.raises(ValidationError) as refused:
            Settings(players=[Player(name="Ada", role="programmer"), Player(name="Bo", role="programmer")])
        said = str(refused.value)
    assert "Bei 2 Spielern braucht jeder eine andere Rolle (Programmierer ist doppelt vergeben)." in said
