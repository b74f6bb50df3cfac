"""Shadowrun: Singularis on a German phone and an English phone at the same table (#15): one campaign
played through the real store — setup, a tie the die breaks, the Credstick steps that pass by
themselves (and say why), the payment roll, errands, a run with damage — every step's panel, a
refusal, the roll odds' explanations, the history, the undo label and the ledger in German, with no
English message left over; the same stored events read in English on an English phone."""

from __future__ import annotations

from types import SimpleNamespace

import flet as ft
import pytest

from companion.games.base import RuleError
from companion.games.shadowrun import rules as R
from companion.games.shadowrun import view
from companion.games.shadowrun.screens import LedgerScreen
from companion.i18n import _, as_text, render, speaking
from companion.ui.widgets import history_line
from tests.helpers import DE_PERCENT, memory_store
from tests.test_i18n import english_words, shown_words
from tests.views import StoreFrame, all_controls


class Frame(StoreFrame):
    view = view


def seen_in(language: str, frame: Frame) -> list[str]:
    """Everything the panel, the title bar's headline and undo, the history and the ledger screen show
    on a phone."""
    with speaking(language):
        loaded = frame.loaded
        panel = frame.panel()
        shown = shown_words(panel)
        for dropdown in all_controls(panel, ("controls", "content", "title")):
            if isinstance(dropdown, ft.Dropdown):  # its value is the chosen key: the phone shows the option's words
                shown.remove(dropdown.value)
        shown.append(render(as_text(loaded.campaign.headline)))
        if loaded.undo_label is not None:
            shown.append(_("Undo: {action}", action=loaded.undo_label))
        for row in frame.history():
            shown += shown_words(history_line(row))
        ledger = LedgerScreen(SimpleNamespace(store=frame.store, go=lambda route: None,
                                              page=SimpleNamespace(update=lambda: None)), frame.campaign_id)
        shown += shown_words(ledger.view())
    return shown


@pytest.fixture(scope="module")
def played() -> list[tuple[str, Frame, list[str]]]:
    """A new campaign (steps pass by themselves) from setup through a run with damage into turn 2,
    where two objectives worth 25 tie for the extra challenge; what a German phone sees at each step."""
    steps: list[tuple[str, Frame, list[str]]] = []
    store = memory_store()
    frame = Frame(store, store.create("shadowrun", "Sprawl night", R.Settings(auto_pass=True).model_dump(mode="json"),
                                      seed=5))

    def look(name: str) -> None:
        steps.append((name, frame, seen_in("de", frame)))

    def do(action) -> None:
        frame.dispatch(action)

    def card(name: str) -> int:
        return next(c.id for c in frame.loaded.game_state.cards if c.name == name)

    look("setup")
    do(R.AddObjective(name="Heist", rep=5))
    with speaking("de"):  # a refusal is said on the phone that tried
        with pytest.raises(RuleError) as refused:
            do(R.AddObjective(name="Twin", rep=7))
        steps.append(("refusal", frame, [str(refused.value)]))
    do(R.AddObjective(name="Extraction", rep=15))
    do(R.AddObjective(name="Wetwork", rep=25))
    do(R.Advance())  # the challenges are refreshed by themselves (no tie): on to Refresh
    look("refresh")
    do(R.TakeNuyen(count=1))
    do(R.RollLuck())
    do(R.Advance())  # 3a passes by itself (nothing to collect): secondary income waits for the table
    look("income")
    do(R.SecondaryIncome(amount=2, source="Fame"))
    do(R.Advance())  # payroll and interest pass by themselves; the payment roll waits for its die
    look("payment")
    do(R.RollPaymentDue())
    state = frame.loaded.game_state
    if state.phase == "payment" and state.payment_due and not state.step_done:
        do(R.PayInterest())
    if frame.loaded.game_state.phase == "payment":
        do(R.Advance())
    assert frame.loaded.game_state.phase == "legwork"
    do(R.Deploy(name="Dodger", card_type="runner", cost=3, upkeep=1, body=8, armor=1))
    do(R.Deploy(name="Ghost", card_type="spirit", cost=2, body=7))
    do(R.Deploy(name="Kid", card_type="runner", cost=1, body=2))
    do(R.RunErrand(card_id=card("Kid")))
    if frame.loaded.game_state.pending_errand is not None:
        look("errand six")
        do(R.TakeSix())
    look("legwork")
    do(R.DiscardObjective(objective_id=1))
    do(R.Advance())
    wetwork = next(o.id for o in frame.loaded.game_state.objectives if o.name == "Wetwork")
    do(R.StartRun(objective_id=wetwork, team=[card("Dodger"), card("Ghost")]))
    do(R.DrawEvent(cost=3))
    look("run")
    do(R.TrashChallenge())
    do(R.StartDamage(amount=7, armor_piercing=False))  # nobody dies: the turn goes on to End
    look("damage")
    while frame.loaded.game_state.damage is not None:
        do(R.TakeHit(card_id=R.hit_candidates(frame.loaded.game_state)[0].id))
    look("after damage")
    do(R.EndRun())  # the rest of the turn passes by itself up to End
    look("end")
    do(R.Advance())  # turn 2: two objectives in play, the table draws a third
    do(R.AddObjective(name="Smuggling", rep=25))
    look("tie")  # Wetwork and Smuggling: 25 rep and 3 challenges each, a die breaks the tie
    do(R.RefreshChallenges())
    look("tie broken")
    return steps


def test_no_english_is_left_on_a_german_phone(played):
    english = english_words()
    for name, _frame, shown in played:
        assert english & set(shown) == set(), name


def test_the_german_phone_reads_the_game_in_german(played):
    shown = {name: "\n".join(words) for name, _frame, words in played}
    expected = {
        "setup": ["Aufbau", "Kredit", "Bargeld", "Offene Zinsen", "Gesamtschuld", "Ruf", "Kassenbuch",
                  "Aufträge im Spiel (0 von 3)", "Auftrag hinzufügen", "Zug 1 beginnen: Auftrag",
                  "Spiel zuerst einen Auftrag aus jedem Bereich; es fehlt: ≤10, 11–20, 21+.",
                  "Startkredit vom Kredithai", "Jetzt: Kredit 20 · Bargeld 20 · Zinsen 0 · Ruf 0",
                  "Karteneffekte und zufällige Ziele", "Zieh deine 7 Karten. Wirf für jede Karte 2W6"],
        "refusal": ["Der Aufbau hat schon einen Auftrag mit Wert ≤10: Leg diesen ab und zieh neu."],
        "refresh": ["Zusätzliche Herausforderung 1 von 1 (normal) → Wetwork (25 Ruf, höchster Wert); jetzt 4.",
                    "Auftrag: Herausforderungen wie aufgeführt platziert, nichts zu wählen – übersprungen.",
                    "Nichts zurückzudrehen.", "1 Nuyen statt einer Karte nehmen", "Weiter zu Credstick 3b · Nebeneinkünfte",
                    "25 Ruf (21+) · 4 Herausforderungen (voll: 3)", "Rückgängig: nächste Phase"],
        "income": ["Credstick 3a · Bezahlung: +0, nichts zu kassieren – übersprungen.",
                   "Zug 1 · Credstick 3b · Nebeneinkünfte", "Nebeneinkünfte eintragen", "Von (Karte)"],
        "payment": ["Credstick 3c · Unterhalt: kein Unterhalt fällig – übersprungen.",
                    "Zinsen +2: 10 % von 20 = 2 (Zinssatz 10 %, das Minimum, da der Ruf 0 ist). Offene Zinsen 2; "
                    "Gesamtschuld 22.",
                    f"3e · Gesamtschuld 22: fällig bei 1–4 (67{DE_PERCENT}) · nicht fällig bei 5–6 (33{DE_PERCENT}). Tabelle: "
                    "0–9 → 1–2 · 10–19 → 1–3 · 20–29 → 1–4 · 30–39 → 1–5 · 40+ → immer.",
                    "Würfeln: Ist die Zahlung fällig? (W6)", "Würfle zuerst, ob die Zahlung fällig ist.",
                    "Zinsen: 10 % von 20 = 2", "Nebeneinkünfte: Fame"],
        "legwork": ["Runner im Spiel · 2 von 6", "Ghost (Geist)",
                    "Kosten 3 · Konstitution 8 · Schaden 0 · Unterhalt 1 · Panzerung 1",
                    "Karte ausspielen · Runner im Spiel 2 von 6", "Dodger (Runner) für 3 ausgespielt: Bargeld 18.",
                    "Kid macht einen Botengang", "Schulden tilgen · Kredit 20, Zinsen 0, Bargeld ", "Ausrüstung",
                    "Spezial", "Drohne", "Dodger drehen", "Kid zurückdrehen"],
        "run": ["Run auf Wetwork · 25 Ruf · noch 4 Herausforderungen", "Team: Dodger (0/8), Ghost (0/7)",
                "Ereignis 1 von 1 (Kosten 3): ", "Herausforderung besiegt / umgangen", "Run ohne ihn beenden",
                "Besiege oder umgeh zuerst jede Herausforderung auf Wetwork: noch 4.",
                f"Pumpen: 1–5: so viele Nuyen (83{DE_PERCENT}) · 6: noch einmal würfeln und addieren (17{DE_PERCENT}).",
                "Shadowrun auf Wetwork (25 Ruf, 4 Herausforderungen) mit Dodger, Ghost.",
                "Zieh 1 Ereigniskarte(n): 1 + 1 pro volle 10 Ruf (Ruf 0)."],
        "damage": ["Noch 7 von 7 Schaden", "Jeder Treffer ist 1W6.", "Wer nimmt den nächsten Treffer?",
                   "Dodger treffen (0/8, Panzerung 1)", f"Dodger überlebt: nur noch 7 Schaden übrig (100{DE_PERCENT})",
                   "7 Schaden zu verteilen: Jeder Treffer ist 1W6 (ein Würfel pro volle 6 Schaden, mindestens einer). "
                   "Wähl, wer den ersten Treffer nimmt."],
        "after damage": ["nimmt den Treffer: ", "Der ganze Schaden ist verteilt."],
        "end": ["Shadowrun: der Run dieses Zugs ist vorbei – übersprungen.",
                "Noch nicht gewonnen: Ruf 0 von 25, noch 20 Kredit.",
                "Sieg/Niederlage: noch nicht gewonnen, kein Wurf nötig – übersprungen.", "Weiter zu Zug 2: Auftrag",
                "Rückgängig: Run beenden"],
        "tie": ["Zug 2 · Auftrag", "Ein vollständiger Gleichstand ist aufzulösen: 1 d2 für den Gleichstand um die "
                f"zusätzliche Herausforderung 1 zwischen Wetwork und Smuggling: Wetwork (50{DE_PERCENT}) · Smuggling (50{DE_PERCENT}).",
                "Auftrag Smuggling (25 Ruf): Leg 3 Herausforderungen verdeckt darunter (eine pro 10 Ruf, aufgerundet).",
                "Rückgängig: Auftrag Smuggling (25 Ruf)", "Frisch zuerst die Herausforderungen auf (1b)."],
        "tie broken": ["(25 Ruf, gleichauf mit ", " bei 25 Ruf und 3 Herausforderung(en): Der Entscheidungswürfel hat ihn "
                       "gewählt); jetzt 4.", "Zurückgedreht: Dodger, Ghost, Kid.", "Zug 2 · Auffrischen"],
    }
    for name, parts in expected.items():
        for part in parts:
            assert part in shown[name], (name, part)


def test_the_same_campaign_reads_in_english_on_an_english_phone(played):
    """The events stored while the German phone looked on are messages: an English phone reads them,
    the undo label, the headline and the ledger in English, word for word as the game said them before."""
    frame = played[-1][1]
    english = "\n".join(seen_in("en", frame))
    for said in ("Objective Smuggling (25 rep): place 3 challenges under it, face down (one per 10 rep, rounded up).",
                 "Extra challenge 1 of 1 (normal) → Wetwork (25 rep, highest value); now 4.",
                 "Credstick 3a · Getting paid: +0, nothing to collect — passed.",
                 "Interest +2: 10% of 20 = 2 (rate 10%, the minimum, as reputation is 0). Interest owed 2; total debt 22.",
                 "Payment due? Total debt 22 (20–29): due on 1–4. Rolled ",
                 "Deployed Ghost (spirit) for 2: cash ", "Starting loan from the loan shark", "Interest: 10% of 20 = 2",
                 "Secondary income: Fame", "Dodger takes the hit: rolled ", "Turn 2 · Refresh", "Undo: refresh challenges",
                 "Victory/Failure: not won yet, no roll to make — passed.", "tied with "):
        assert said in english, said
    assert "Zinsen" not in english and "Auftrag" not in english and "übersprungen" not in english
    # ... and the German phone, at the same moment, in German.
    assert "Zinsen +2: 10 % von 20 = 2 (Zinssatz 10 %" in "\n".join(seen_in("de", frame))


def test_the_interest_sums_follow_the_phone_s_numbers():
    """A sum with a decimal, stored in the log as a message, reads 4.4 in English and 4,4 in German."""
    said = R.interest_sums(20, 22)
    assert (said.render("en"), said.render("de")) == ("20% of 22 = 4.4 → 5", "20 % von 22 = 4,4 → 5")


def test_the_setup_form_speaks_german():
    with speaking("de"):
        shown = shown_words(view.SetupForm(None).controls())
    assert {"Startkredit", "Ziel-Ruf", "Schwierigkeit", "Würfelseite 1: Stapel", "normal: +1 Herausforderung",
            "extrem: +3 Herausforderungen"} <= set(shown)
    assert english_words() & set(shown) == set()
