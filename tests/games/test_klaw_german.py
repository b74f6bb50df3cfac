"""KLAW on a German phone (#15): a campaign played through the real store at a table rolling physical
dice — deploys, a totem and its singularity check, a fight with a wild die, a refusal, a fight to a
fall and the absorbed totems' failed check, the history and undo — shows no English a translation
exists for, says the rules' sentences (events, roll reasons, odds, refusals) in German, and the very
same stored events read in English on an English phone."""

from __future__ import annotations

import pytest

from companion.games.base import Event, RuleError
from companion.games.klaw import rules as R
from companion.games.klaw import view
from companion.i18n import lang, render, speaking
from companion.table import GiveDice, SetPhysicalDice
from companion.ui.widgets import history_line
from tests.games.test_klaw_view import FakeFrame, field, fill, tap, tagged, texts
from tests.helpers import DE_PERCENT, memory_store
from tests.test_i18n import english_words, shown_words


def _frame() -> FakeFrame:
    store = memory_store()
    cid = store.create("klaw", "Werwolfnacht", {"players": ["Ana", "Ben"]}, seed=7)
    store.apply(cid, SetPhysicalDice(on=True), expected_cursor=0)
    return FakeFrame(store, cid)


def _deploy(frame: FakeFrame, name: str, attack: int, defense: int, life: int) -> None:
    """Deploy from the German form (its fields are labelled in German) and end the turn."""
    tap(frame.panel(), "Wirt einsetzen")
    dialog = frame.dialogs.pop()
    for label, value in (("Name des Wirts", name), ("Angriffswürfel", attack), ("Verteidigungswürfel", defense),
                         ("Leben", life)):
        field(dialog, label).value = str(value)
    tap(dialog, "Einsetzen")
    tap(frame.panel(), "Zug beenden und 1 Karte ziehen")


def english_leftovers(words: list[str]) -> set[str]:
    """The shown words that are messages German says otherwise (an unsure, fuzzy catalog entry isn't
    used, so it doesn't count)."""
    german = lang("de").translations
    return {w for w in english_words() & set(words) if german.gettext(w) != w}


class Seen:
    """Everything the German phone showed along the way."""

    def __init__(self):
        self.words: list[str] = []

    def add(self, control) -> str:
        self.words += shown_words(control)
        return texts(control)


@pytest.fixture(scope="module")
def played():
    """One campaign played in German up to the end of a fight, with what the phone showed."""
    seen = Seen()
    with speaking("de"):
        frame = _frame()
        seen.add(frame.panel())
        _deploy(frame, "Wolfmother", 3, 2, 10)
        _deploy(frame, "Raven", 2, 3, 12)
        # Fortify: a totem gives Wolfmother six attack dice (3 + 3): the wild die.
        tap(frame.panel(), "Totem")
        dialog = frame.dialogs.pop()
        seen.add(dialog)
        fill(dialog, Name_des_Totems="Ox")
        field(dialog, "Angriff ±").value = "3"
        tap(dialog, "Binden")
        chance = frame.loaded.state.pending.chance
        frame.give(4)
        seen.add(frame.panel())
        for _ in range(2):
            tap(frame.panel(), render(R.end_turn_label(frame.loaded.game_state)))
        # A refusal, said in German: Ana's host can't attack its own side (the rules' reason).
        refused = None
        try:
            frame.dispatch(R.Attack(attacker=1, defender=1))
        except RuleError as exc:
            refused = str(exc)
        tap(frame.panel(), "Angreifen…")
        dialog = frame.dialogs.pop()
        seen.add(dialog)
        tap(dialog, "Raven angreifen")
        panel = frame.panel()
        seen.add(panel)
        tap(panel, "Schlagabtausch 1 würfeln: 6 gegen 3 Würfel")
        wild_chance = frame.loaded.state.pending.chance
        frame.give(6, 1, 1, 1, 1, 1)  # a wild 6: all six count as 6
        frame.give(5, 5, 5)  # Raven −6: 12 → 6
        fight = frame.panel()
        seen.add(fight)
        view.support_dialog(frame)  # instead of rolling: heal or flee
        seen.add(frame.dialogs.pop())
        # Raven strikes back; then Wolfmother strikes Raven down (Raven carries no totem to absorb).
        tap(frame.panel(), "Schlagabtausch 2 würfeln: 2 gegen 2 Würfel")
        frame.give(6, 6)
        frame.give(1, 1)  # Wolfmother −2
        tap(frame.panel(), "Schlagabtausch 3 würfeln: 6 gegen 3 Würfel")
        frame.give(6, 2, 2, 2, 2, 2)
        frame.give(1, 1, 1)  # Raven −6: falls
        after = frame.panel()
        seen.add(after)
        history = [history_line(row) for row in frame.history(100)]
        for line in history:
            seen.add(line)
        undo = render(frame.loaded.undo_label)
    return dict(frame=frame, seen=seen, chance=chance, wild_chance=wild_chance, refused=refused, fight=fight,
                after=after, undo=undo)


def test_nothing_translated_shows_in_english(played):
    """No message with a German translation is shown in English anywhere the German phone looked."""
    assert english_leftovers(played["seen"].words) == set()


def test_the_rules_sentences_are_german(played):
    shown = "\n".join(played["seen"].words)
    for german in [
        "Runde 3 · Ana ist am Zug",  # the turn, drawn by the view
        "Wolfmother (Ana) ist eingesetzt: Angriff 3 Würfel, Verteidigung 2 Würfel, Leben 10. Geschützt bis zum Ende "
        "des Zugs von Ana in Runde 2 (eine volle Runde).",  # an event from the log
        "Singularitätsprobe für Wolfmother (1 Totem): 4 gewürfelt ≥ 1, bestanden.",
        "Schlagabtausch 1: Wolfmother (Ana) greift an, Raven (Ben) verteidigt.",
        "Angriff: Wilder Würfel 6: außergewöhnlicher Erfolg, alle sechs Würfel zählen als 6.",
        "Greift jetzt an",
        "Wolfmother erleidet mindestens 1 zurück",  # the first exchange's odds, from the odds module
    ]:
        assert german in shown, german
    # The automated explanations: the chances of the fight, in German with German percentages.
    odds = texts(tagged(played["fight"], "klaw-odds"))
    assert odds.startswith("Chancen von hier aus: Wolfmother gewinnt ") and DE_PERCENT in odds and "Am wahrscheinlichsten:" in odds
    # The roll reasons the dice pad shows, and the refusal.
    with speaking("de"):
        assert str(played["chance"].why) == "die Singularitätsprobe von Wolfmother"
        assert [render(o.label) for o in played["chance"].outcomes] == ["jede Seite besteht"]
        assert str(played["wild_chance"].why) == ("den Angriff von Wolfmother auf Raven, Schlagabtausch 1, mit einem "
                                                  "Wilden Würfel (gib den goldenen Würfel zuerst ein)")
    assert played["refused"] == "Wolfmother ist ein eigener Wirt von Ana."
    # The history and the undo label.
    assert "Kampfwurf, Wolfmother greift Raven an" in shown
    assert "Kampfwurf, Wolfmother greift Raven an" in played["undo"]
    assert "Raven (Ben) fällt mit 0 Leben: Wolfmother (Ana) gewinnt den Kampf." in shown


def test_the_same_stored_history_reads_in_english_on_an_english_phone(played):
    frame = played["frame"]
    rows = frame.history(100)
    events = [Event.coerce(e) for row in rows for e in row.events]
    with speaking("en"):
        said = [render(e.text) for e in events]
        labels = [render(row.label) for row in rows]
        panel = texts(FakeFrame(frame.store, frame.campaign_id).panel())  # another phone: its own kept sections
    assert "Wolfmother (Ana) is deployed: attack 3 dice, defense 2 dice, life 10. Protected until the end of Ana's turn " \
           "in round 2 (one full round)." in said
    assert "Raven (Ben) falls at 0 life: Wolfmother (Ana) wins the fight." in said
    assert "dice for combat roll, Wolfmother attacks Raven: 1, 1, 1" in labels
    assert "The fight is over" in panel and "Kampf" not in panel
    with speaking("de"):
        assert "Raven (Ben) fällt mit 0 Leben: Wolfmother (Ana) gewinnt den Kampf." in [render(e.text) for e in events]


def test_the_setup_form_speaks_german():
    with speaking("de"):
        form = view.SetupForm(None)
        words = [w for c in form.controls() for w in shown_words(c)]
    assert "Deck für 2 Spieler: 12 Wirte, 12 Totems, 60 Aktions- und Gegenstandskarten." in words
    assert "Name von Spieler 1" in words and "Spieler hinzufügen" in words
    assert english_leftovers(words) == set()


def test_an_older_saves_reworded_events_read_as_todays_words_in_both_languages():
    """Older versions said "strikes" where the panel says "attacks"; such a saved sentence reads in
    today's words (REWORDED), so it is translated too rather than left in English."""
    from companion.i18n import as_text

    saved = '{"msgid":"Exchange {number}: {striker} strikes, {target} defends.",' \
            '"params":{"number":2,"striker":"Raven","target":"Wolfmother"}}'
    assert render(as_text(saved), "en") == "Exchange 2: Raven attacks, Wolfmother defends."
    assert render(as_text(saved), "de") == "Schlagabtausch 2: Raven greift an, Wolfmother verteidigt."
    headline = as_text('{"msgid":"Round {round} · {attacker} vs {defender} · {striker} strikes",'
                       '"params":{"round":3,"attacker":"Kai","defender":"Rex","striker":"Kai"}}')
    assert render(headline, "de") == "Runde 3 · Kai gegen Rex · Kai greift an"
