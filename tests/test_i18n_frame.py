"""The app's shared parts speak German too (#15): the story screens (Luck, Recap, the end card, the BG
Stats dialog), the store's refusals and the table's events and labels, export and import refusals, a
recap and standings — and what the store keeps (events, labels, refusals made once) reads in English
on an English phone all the same."""

from __future__ import annotations

import re
from datetime import timedelta
from types import SimpleNamespace

import pytest
from sqlalchemy import update

from companion import exchange, i18n
from companion.games.base import InputError, RuleError
from companion.games.counter.rules import Add, Roll
from companion.i18n import as_text, render, speaking
from companion.live import LiveCampaign
from companion.log import NotFound, StaleAction
from companion.recap import recap
from companion.sessions import split
from companion.standings import standings
from companion.table import GiveDice, SetPhysicalDice, TableNote, TrayRoll
from companion.ui import story
from models.tables import ActionRow
from tests.test_i18n import english_words, german_app, shown_words  # noqa: F401 (german_app: a fixture)


def _apply(store, cid, action):
    return store.apply(cid, action, expected_cursor=store.get(cid).cursor)


def played(store) -> int:
    """A counter campaign over two nights: the dice tray (enough dice for a verdict), a note, a roll the
    table entered by hand (waiting for its die first), then rolls to the cap (a finished game)."""
    cid = store.create("counter", "Freitag", {"start": 0, "cap": 12}, seed=7)
    _apply(store, cid, TrayRoll(count=12, sides=6))
    _apply(store, cid, TableNote(text="Pizza kam"))
    _apply(store, cid, SetPhysicalDice(on=True))
    _apply(store, cid, Roll())  # waits for its die
    _apply(store, cid, GiveDice(faces=[5]))
    _apply(store, cid, SetPhysicalDice(on=False))
    second_night = store.get(cid).cursor + 1
    while store.load(cid).game.outcome(store.load(cid).game_state) is None:
        _apply(store, cid, Roll())
    with store.db.session() as s:  # the second half was played three hours later: two sessions
        for row in store.log_rows(cid):
            if row.seq >= second_night:
                s.exec(update(ActionRow).where(ActionRow.id == row.id)
                       .values(created_at=row.created_at + timedelta(hours=3)))
    return cid


def story_app(app):
    """The German app as the story screens meet it: a page with a width and an update."""
    app.page.width = 400
    app.later = lambda fn: fn()
    return app


def leftovers(shown) -> set:
    return english_words() & set(shown)


def test_the_story_screens_speak_german(german_app):
    app = story_app(german_app)
    cid = played(app.store)
    shown = shown_words(story.LuckScreen(app, cid).view())  # the latest session, as first drawn
    whole = story.RecapScreen(app, cid)
    whole.scope = 0  # the whole campaign
    shown += shown_words(whole.view())
    frame = SimpleNamespace(app=app, campaign_id=cid, loaded=LiveCampaign(app.store, cid).snapshot)
    for card in story.end_card(frame):
        shown += shown_words(card)
    story.bgstats_dialog(app, cid)
    for dialog in app.dialogs:
        shown += shown_words(dialog)
    assert {"Glück", "Rückblick", "Wo der Tisch steht", "Worauf diese Zahlen beruhen", "Sitzung 1", "Ganze Kampagne",
            "Zurück zum Spiel", "Text kopieren", "Datei speichern", "Spiel vorbei · Obergrenze erreicht",
            "In BG Stats eintragen", "Nochmal mit denselben Einstellungen", "BoardGameGeek-ID", "ID speichern",
            "Link kopieren", "In BG Stats öffnen"} <= set(shown)
    assert any(s.startswith("d6 (App)") for s in shown) and any(" Würfel" in s and "im Schnitt" in s for s in shown)
    assert any(re.fullmatch(r"Sitzung 2 von 2: \w\w\.?, \d+\. \w+\.?, \d\d:\d\d–\d\d:\d\d", s) for s in shown)
    assert "„Freitag“: Counter (test game), die ganze Kampagne" in shown  # the recap's title
    assert any(re.fullmatch(r"Der Tisch: Counter \(test game\) in 2 Sitzungen (am|vom) .+, insgesamt .+: 8 Aktionen, "
                            r"15 Würfel \(davon 1 echte\)\.", s) for s in shown)
    assert any("Der Tisch notierte: „Pizza kam“." == s for s in shown)
    assert any(re.fullmatch(r"Gespielt: .+ in 2 Sitzungen · \d+ Aktionen · \d+ Würfel", s) for s in shown)
    assert any(re.fullmatch(r"Counter \(test game\), \d+\. \w+\.? \d{4}, \d\d:\d\d, 1 min\.", s) for s in shown)
    assert leftovers(shown) == set()


def test_play_again_numbers_the_game_in_the_phone_s_words(german_app):
    app = german_app
    cid = app.store.create("counter", "Freitag", {})
    went = []
    app.go = went.append
    story.play_again(app, cid)
    again = app.store.list_campaigns()[0]
    assert again.name == "Freitag · Partie 2"
    story.play_again(app, again.id)
    assert app.store.list_campaigns()[0].name == "Freitag · Partie 3"
    with speaking("en"):  # an English name goes on in English words too
        english = app.store.create("counter", "Friday · game 4", {})
        story.play_again(app, english)
    assert app.store.list_campaigns()[0].name == "Friday · game 5"


def test_a_recap_and_standings_in_each_phone_s_language(german_app):
    store = german_app.store
    cid = played(store)
    campaign, loaded = store.get(cid), store.load(cid)
    lines = store.lines(cid)[: campaign.cursor]

    def told(code: str):
        with speaking(code):
            table = standings("counter", loaded.game_state)
            nights = split(lines, created=campaign.created_at)
            return table.result, recap(game_key="counter", title="Counter (test game)", name=campaign.name,
                                       lines=lines, sessions=nights, standings=table, scope=nights[0])
    (de_result, de), (en_result, en) = told("de"), told("en")
    assert de_result == "Obergrenze erreicht" and en_result == "Reached the cap"
    assert re.match(r"Der Tisch: Counter \(test game\), von \d\d:\d\d bis \d\d:\d\d \(.+\), Sitzung 1 von 2: ",
                    de.paragraphs[0])
    assert de.paragraphs[0].endswith("Aktionen, 13 Würfel (davon 1 echte).")
    assert en.paragraphs[0].endswith("actions, 13 dice (1 of them physical).")
    assert de.paragraphs[1].startswith("Die Sitzung endete bei „Zug ") and en.paragraphs[1].startswith(
        "The session ended at “Turn ")
    assert re.search(r"(Montag|Dienstag|Mittwoch|Donnerstag|Freitag|Samstag|Sonntag), \d+\. \w+ \d{4}$", de.title)
    with speaking("de"):
        going = standings("counter", store.load(store.create("counter", "Neu", {})).game_state)
    assert going.result == "Läuft noch: Zug 1 · Wert 0." and not going.finished


def test_the_store_refuses_and_tells_in_each_phone_s_language(german_app):
    store = german_app.store
    cid = store.create("counter", "Freitag", {})
    refusals = []
    for attempt in (lambda: store.create("counter", "   ", {}),
                    lambda: store.undo(cid, expected_cursor=0),
                    lambda: store.apply(cid, Add(amount=1), expected_cursor=5),
                    lambda: store.get(9999),
                    lambda: store.apply(cid, Roll(), expected_cursor=0, entered=[3])):
        with pytest.raises((InputError, RuleError, NotFound)) as refused:
            attempt()
        refusals.append(refused.value)
    _apply(store, cid, SetPhysicalDice(on=True))
    _apply(store, cid, Roll())  # waits for its die
    with pytest.raises(RuleError) as waiting:
        _apply(store, cid, SetPhysicalDice(on=False))
    refusals.append(waiting.value)
    assert isinstance(refusals[2], StaleAction)
    with speaking("de"):
        german = [str(exc) for exc in refusals]
    with speaking("en"):
        english = [str(exc) for exc in refusals]
    assert german == [
        "Gib der Kampagne einen Namen (1 bis 60 Zeichen).",
        "Nichts rückgängig zu machen.",
        "Ein anderes Gerät war schneller; der Tisch wurde aktualisiert. Prüfe ihn und versuch es noch einmal.",
        "Kampagne 9999 gibt es nicht (vielleicht wurde sie gelöscht).",
        "Die App würfelt für diese Kampagne: Schalte „Ich würfle mit echten Würfeln“ ein, um eigene einzugeben "
        "(die Würfelschale nimmt sie so oder so). Nichts wurde geändert.",
        "Der Tisch wartet auf 1 d6 für den Wurf des Zählers. Gib diese Würfel ein oder mach den Schritt rückgängig, "
        "bevor du umschaltest."]
    assert english[0] == "Give the campaign a name (1 to 60 characters)." and english[1] == "Nothing to undo."
    assert english[5] == "The table is waiting for 1 d6 for the counter's roll. Enter those dice, or undo, before switching."
    assert not set(german) & set(english)


def test_the_table_s_events_and_labels_are_kept_once_and_read_in_each_language(german_app):
    store = german_app.store
    cid = store.create("counter", "Freitag", {})  # made on the German phone (german_app speaks German)
    for action in (TrayRoll(count=2, sides=6), TableNote(text="Pizza kam "), SetPhysicalDice(on=True), Roll()):
        _apply(store, cid, action)
    _apply(store, cid, GiveDice(faces=[4]))
    rows = list(reversed(store.history(cid)))
    kept = [(row.label, [as_text(e["text"]) for e in row.events]) for row in rows]

    def said(code: str):
        return [(render(label, code), [render(text, code) for text in texts]) for label, texts in kept]
    german, english = said("de"), said("en")
    assert german[1] == ("Notiz „Pizza kam“", ["Notiz: Pizza kam "])  # the label without the note's trailing space
    assert english[1] == ("note “Pizza kam”", ["Note: Pizza kam "])
    assert german[2] == ("echte Würfel an", ["Ab jetzt würfelt der Tisch mit echten Würfeln: Die App fragt nach jedem Würfel."])
    assert german[3] == ("einen W6 würfeln (wartet auf Würfel)", ["Warte auf 1 d6 für den Wurf des Zählers."])
    assert english[3] == ("roll a d6 (waiting for dice)", ["Waiting for 1 d6 for the counter's roll."])
    assert german[4][0] == "Würfel für einen W6 würfeln: 4" and english[4][0] == "dice for roll a d6: 4"
    assert re.fullmatch(r"2d6 würfeln", german[0][0]) and re.fullmatch(r"2d6 gewürfelt: \d, \d \(Summe \d+\)\.", german[0][1][0])
    assert re.fullmatch(r"Rolled 2d6: \d, \d \(total \d+\)\.", english[0][1][0])
    assert store.list_campaigns()[0].name == "Freitag"
    with speaking("de"):
        store.duplicate(cid)
    assert {c.name for c in store.list_campaigns()} == {"Freitag", "Freitag (Kopie)"}
    created = store.log_rows(cid)[0].events[0]
    assert render(as_text(created["text"]), "de") == "Kampagne „Freitag“ angelegt."
    assert render(as_text(created["text"]), "en") == "Campaign “Freitag” created."


def test_import_refusals_in_each_phone_s_language(german_app):
    store = german_app.store
    cid = played(store)
    payload = exchange.export_campaign(store, cid)
    tampered = exchange.dumps({**payload, "log": [dict(e) for e in payload["log"]]})
    tampered = tampered.replace('"dice":[[6,', '"dice":[[12,', 1)  # a die of another size: the replay fails
    refusals = []
    for raw in ("Hallo, hier ist mein Spielstand", b"\x89PNG\r\n", exchange.dumps({**payload, "version": 99}),
                exchange.dumps({**payload, "cursor": 500}), tampered):
        with pytest.raises(exchange.ImportRefused) as refused:
            exchange.import_campaign(store, raw)
        refusals.append(refused.value)
    with speaking("de"):
        german = [str(exc) for exc in refusals]
    with speaking("en"):
        english = [str(exc) for exc in refusals]
    assert german[:4] == [
        "Das ist kein Kampagnen-Export: Füge den ganzen Text eines Exports ein oder wähle seine Datei.",
        "Das ist kein Kampagnen-Export: Füge den ganzen Text eines Exports ein oder wähle seine Datei.",
        "Die Datei stammt von einer neueren Version der App (Format 99; diese App liest bis 2). Aktualisiere die App.",
        f"Die Position der Datei (500) liegt hinter ihrer letzten Aktion ({len(payload['log']) - 1})."]
    assert german[4] == ("Die Kampagne in dieser Datei lässt sich nicht so nachspielen, wie sie gespeichert wurde: "
                         "Aktion 1, Würfel 1: Das Protokoll hat einen W12, die Regeln würfelten einen W6.")
    assert english[0] == "This is not a campaign export: paste the whole text of an export, or choose its file."
    assert english[4] == ("The campaign in this file doesn't replay as it was recorded: action 1, die 1: the log has "
                          "a d12, the rules rolled a d6.")
    assert "not valid JSON" not in english[0]


def test_the_join_page_follows_the_browser_s_language():
    from companion.share import accepted_languages, join_page

    assert accepted_languages("sv-SE,de;q=0.8,en;q=0.5") == ["sv-SE", "de", "en"]
    german = join_page(accepted_languages("sv-SE,de;q=0.8,en;q=0.5")).decode()
    assert '<html lang="de">' in german and "Scanne den Code am Tisch" in german
    english = join_page([]).decode()
    assert '<html lang="en">' in english and "Scan the code at the table" in english
    assert i18n.current() is i18n.ENGLISH  # nothing leaked out of the page's language


def test_a_long_result_is_kept_as_its_message_and_said_in_each_language():
    """A finished KLAW game's result ("Ana wins (last host standing)" with its reason, ~110 characters
    as a message) used to outgrow the status column and be kept as its English (migration 0006)."""
    from companion.games import get_game
    from tests import story_games
    from tests.helpers import memory_store

    store = memory_store()
    cid = story_games.klaw(store, "Were night")
    assert get_game("klaw").outcome(store.load(cid).game_state) is not None
    status = as_text(store.get(cid).status)
    assert not isinstance(status, str), "kept as English, not as its message"
    assert render(status, "de") != render(status, "en")
