"""Spoken turns (#33): for a typical automated turn of each game, the sentences a phone reads aloud,
in English and in German (the words, not the audio). Each turn is played through the real rules (and,
where the table rolls physical dice, through the store), and spoken from the events it logged."""

from __future__ import annotations

import pytest

from companion import speech
from companion.games.base import Chance, Outcome, d
from companion.i18n import render
from tests.helpers import memory_store


def said(key: str, events, state=None) -> dict[str, list[str]]:
    return {lang: speech.spoken(key, [events], state, lang) for lang in ("en", "de")}


def test_the_dice_the_app_waits_for_are_said_with_who_rolls_and_what_passes():
    chance = Chance(count=1, die=d(6), who="Ann", why="Wolfmother's singularity check",
                    outcomes=[Outcome(label="3 or more passes", probability=4 / 6)])
    assert render(speech.waiting_for(chance), "en") == "Ann, roll 1 d6 for Wolfmother's singularity check: 3 or more passes."
    assert render(speech.waiting_for(Chance(count=2, die=d(6), why="the dice tray")), "de") == "Würfle 2 W6 für the dice tray."


def test_a_game_without_words_of_its_own_still_says_the_tray_roll():
    from companion.games.base import event

    roll = event("tray_roll", "Rolled 2d6: 3, 5 (total 8).", label="2d6", values=[3, 5], shown=["3", "5"])
    assert said("counter", [roll]) == {"en": ["Dice: 3 and 5. Total 8."], "de": ["Würfel: 3 und 5. Summe 8."]}


def test_klaw_singularity_check_waits_for_its_die_then_fails():
    from companion.games.klaw.rules import AttachTotem, Deploy, EndTurn, Totem
    from companion.table import GiveDice, SetPhysicalDice
    from tests.games.test_klaw_rules import KAI, REX, tiger

    store = memory_store()
    cid = store.create("klaw", "Night", {"players": ["Ana", "Ben"]}, seed=7)
    cursor = 0
    for action in (Deploy(card=KAI), EndTurn(), Deploy(card=REX), EndTurn(), EndTurn(), EndTurn(),
                   SetPhysicalDice(on=True), AttachTotem(host=1, totem=tiger()), GiveDice(faces=[4]), EndTurn(),
                   EndTurn(), AttachTotem(host=1, totem=Totem(name="Ox", attack=1)), GiveDice(faces=[1])):
        cursor = store.apply(cid, action, expected_cursor=cursor).cursor
    *_, waiting, rolled = store.lines(cid)
    assert said("klaw", waiting.events) == {
        "en": ["Ana, roll 1 d6 for Kai's singularity check: 2 or more passes."],
        "de": ["Ana, würfle 1 W6 für die Singularitätsprobe von Kai: ab 2 bestanden."],
    }
    assert said("klaw", rolled.events, store.load(cid).game_state) == {
        "en": ["Kai's singularity check: 1, needed 2. Failed!",
               "Singularity event: every totem on the table goes back into the encounter deck."],
        "de": ["Singularitätsprobe von Kai: 1, nötig 2. Nicht bestanden!",
               "Singularitätsereignis: Alle Totems auf dem Tisch kommen zurück ins Begegnungsdeck."],
    }


def test_save_the_singularity_bust_and_the_world_phase():
    from companion.games.save_the_singularity.rules import PressOn, RollD12
    from tests.games.test_save_the_singularity import after_throw, game, go

    s = after_throw(game("mathematician"), [4, 5, 2], risk_before_throw=2)
    s, events = go(s, PressOn(), 1, 1, 6, 6)
    assert said("save_the_singularity", events, s) == {
        "en": ["Ada throws: 2 Bugs, 0 Ideas, 2 Progress.", "Bust! Ada loses 4 points.",
               "The world's turn: roll the d12 until a Stop."],
        "de": ["Ada wirft: 2 Bugs, 0 Ideen, 2 Fortschritte.", "Absturz! Ada verliert 4 Punkte.",
               "Die Welt ist dran: Würfelt den W12 bis zu einem Stopp."],
    }
    s, events = go(s, RollD12(), 12)
    assert said("save_the_singularity", events, s) == {
        "en": ["The d12 shows 12. The world gains a point: 1 of 4. The next player gets one more die. Stop.",
               "Ada's turn, with 4 dice."],
        "de": ["Der W12 zeigt 12. Die Welt bekommt einen Punkt: 1 von 4. Der nächste Spieler bekommt einen Würfel "
               "mehr. Stopp.", "Ada ist dran, mit 4 Würfeln."],
    }


def test_save_the_singularity_stop_banks_the_points():
    from companion.games.save_the_singularity.rules import Stop
    from tests.games.test_save_the_singularity import after_throw, game, go

    s, events = go(after_throw(game("mathematician"), [4, 5, 2]), Stop())
    assert said("save_the_singularity", events, s)["en"][0] == "Ada stops and banks 2 points. Team 2 of 25."
    assert said("save_the_singularity", events, s)["de"][0] == "Ada hört auf und sichert 2 Punkte. Team 2 von 25."


def test_biosphere5_the_machine_decides_and_says_why():
    from tests.games.test_biosphere5_machine import reveal, solo

    state = solo(level=8, machine={"water": "green", "housing": "yellow", "production": "yellow"},
                 human={"housing": "green"}, hand=3)
    after, events = reveal(state, "greenhouse", "garden", "deep-well", "shack", "catching-basin")
    words = said("biosphere5", events, after)
    assert words["en"] == [
        "The Machine plays New Hope (Deep Well): hand card level stays 8 (max 8); reveal 3 more cards.",
        "Because: Rule 6: New Hope is playable (Sabotage, Espionage and New Hope come in that order). Sabotage "
        "can't be played: level III needs both level II achievements (missing security) or a level III achievement "
        "on display.",
    ]
    assert words["de"][0] == ("Die Maschine spielt Neue Hoffnung (Deep Well): Handkartenstufe bleibt bei 8 (höchstens "
                              "8); deck 3 weitere Karten auf.")
    assert words["de"][1].startswith("Weil: Regel 6: Neue Hoffnung ist spielbar")


def test_human_ethos_enemy_phase_attack_move_and_threat():
    from companion.games.human_ethos.rules import EnemyPhase
    from tests.games.test_human_ethos_rules import act, axial_map, setup

    s = setup(axial_map(), at={"Max": (4, 3)}, groups=[("Nanobots", (3, 3), 2)])
    s, events = act(s, EnemyPhase())
    assert said("human_ethos", events, s) == {
        "en": ["Enemy phase.", "2 Nanobots on D5 attack Max. Threat +1. Threat now 1 of 20, awareness 0.",
               "2 Nanobots move from D5 to E6.", "Max's turn."],
        "de": ["Gegnerphase.", "2 Nanobots auf D5 greifen Max an. Bedrohung +1. Bedrohung jetzt 1 von 20, "
               "Wachsamkeit 0.", "2 Nanobots ziehen von D5 nach E6.", "Max ist dran."],
    }


def test_shadowrun_payment_roll():
    from tests.games.test_shadowrun import RollPaymentDue, act, at, started

    s = at(started(), "payment", loan=19, interest=1)
    s, events = act(s, RollPaymentDue(), 3)
    assert said("shadowrun", events, s) == {
        "en": ["Payment roll: 3. A payment is due."],
        "de": ["Zahlungswurf: 3. Eine Zahlung ist fällig."],
    }


@pytest.mark.parametrize("key", ["save_the_singularity", "shadowrun", "klaw", "biosphere5", "human_ethos"])
def test_every_game_has_its_own_words(key):
    assert speech.speech_of(key) is not None and callable(speech.speech_of(key).sentences)


def test_only_the_newest_rows_are_spoken_at_once():
    from companion.games.base import event

    rows = [[event("tray_roll", "", label="d6", values=[v], shown=[str(v)])] for v in range(1, 7)]
    assert speech.spoken("counter", rows, None, "en") == ["Die: 4.", "Die: 5.", "Die: 6."]
