"""Plays logged to BG Stats (companion.bgstats): a finished game of each of the five becomes a play
in BG Stats' format, as a link to its "create play" page and as a file; the JSON is read back from
the link and checked field by field. Also the end card a finished game shows, and who sat where."""

import json
import re
from types import SimpleNamespace
from urllib.parse import parse_qs, urlsplit

import flet as ft
import pytest

from companion import bgstats
from companion.games import PLAYABLE, get_game
from companion.games.base import InputError
from companion.live import LiveCampaign
from companion.standings import standings
from companion.ui import story
from tests.helpers import memory_store
from tests.story_games import FINISHED, SAMPLE_MAP


def finished(store, game_key):
    cid = FINISHED[game_key](store)
    loaded = store.load(cid)
    table = standings(game_key, loaded.game_state)
    assert table.finished, game_key
    return cid, loaded, table


def logged(store, game_key, **kw):
    cid, loaded, table = finished(store, game_key)
    lines = store.lines(cid)[: loaded.cursor]
    return bgstats.play(game_key=game_key, campaign=store.get(cid), lines=lines, standings=table, **kw), cid


def from_link(url: str) -> dict:
    """What BG Stats reads: the `data` parameter of createPlay.html, URL-decoded, as JSON."""
    parts = urlsplit(url)
    assert f"{parts.scheme}://{parts.netloc}{parts.path}" == "https://app.bgstatsapp.com/createPlay.html"
    [data] = parse_qs(parts.query, strict_parsing=True)["data"]
    return json.loads(data)


@pytest.mark.parametrize("game_key", PLAYABLE)
def test_a_finished_game_becomes_a_bgstats_play(game_key):
    store = memory_store()
    data, cid = logged(store, game_key)
    assert from_link(bgstats.link(data)) == data  # the link carries exactly the play
    assert set(data) == {"sourceName", "sourcePlayId", "playDate", "durationMin", "game", "players"}
    assert data["sourceName"] == "Table Companion"
    assert re.fullmatch(r"tc-play-[0-9a-f]{20}", data["sourcePlayId"])
    assert re.fullmatch(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d", data["playDate"])  # UTC, yyyy-MM-dd HH:mm:ss
    assert isinstance(data["durationMin"], int) and data["durationMin"] >= 1
    game = data["game"]
    assert game["name"] == get_game(game_key).title and game["sourceGameId"] == f"table-companion/{game_key}"
    assert game["highestWins"] is True and isinstance(game["noPoints"], bool)
    assert game["cooperative"] is (game_key in ("save_the_singularity", "human_ethos"))
    assert "bggId" not in game  # no id is known for sure: the table enters it
    assert data["players"], "a play has its players"
    for player in data["players"]:
        assert isinstance(player["name"], str) and player["name"]
        assert re.fullmatch(r"tc-player-[0-9a-f]{20}", player["sourcePlayerId"])
        assert player["winner"] in (True, False)  # always there
        assert player["startPlayer"] in (True, False)
        assert ("score" in player) is (not game["noPoints"])
    assert sum(p["startPlayer"] for p in data["players"]) == 1
    # The file is the same play, readable.
    assert json.loads(json.dumps(data, indent=2)) == data
    assert bgstats.filename(data, store.get(cid).name).endswith(f"-{data['playDate'][:10]}.json")


def test_who_won_each_game():
    store = memory_store()
    winners = {}
    for game_key in PLAYABLE:
        data, _ = logged(store, game_key)
        winners[game_key] = {p["name"]: p["winner"] for p in data["players"]}
    assert winners["save_the_singularity"] == {"Ada": False, "Bea": False, "Cy": False}  # the world won
    assert winners["klaw"] == {"Ana": True, "Ben": False}
    assert winners["biosphere5"] == {"Ada": False, "Bea": True}  # the last one in
    assert winners["shadowrun"] == {"You": False}
    assert winners["human_ethos"] == {"Max": False, "Ana": False}


def test_roles_scores_and_the_start_player():
    store = memory_store()
    data, cid = logged(store, "save_the_singularity")
    state = store.load(cid).game_state
    assert [(p["name"], p["role"], p["score"], p["startPlayer"]) for p in data["players"]] == [
        ("Ada", "Rationalist", state.team, True), ("Bea", "Programmer", state.team, False),
        ("Cy", "Media Liaison", state.team, False)]
    assert data["game"]["noPoints"] is False


def test_the_ids_are_stable():
    """The same play logged twice has one id; another play another; a player keeps theirs."""
    store = memory_store()
    first, cid = logged(store, "klaw")
    table = standings("klaw", store.load(cid).game_state)
    again = bgstats.play(game_key="klaw", campaign=store.get(cid), lines=store.lines(cid), standings=table)
    assert again["sourcePlayId"] == first["sourcePlayId"]
    other, _ = logged(store, "human_ethos")  # Ana plays there too
    assert other["sourcePlayId"] != first["sourcePlayId"]
    ana = {p["name"]: p["sourcePlayerId"] for p in first["players"]}["Ana"]
    assert {p["name"]: p["sourcePlayerId"] for p in other["players"]}["Ana"] == ana
    assert bgstats.player_id(" ana ") == ana  # case and spacing don't make another player


def test_the_boardgamegeek_id_is_the_tables_setting():
    store = memory_store()
    data, _ = logged(store, "biosphere5", bgg_id=123456)
    assert from_link(bgstats.link(data))["game"]["bggId"] == 123456
    assert bgstats.parse_bgg_id(" 123456 ") == 123456
    assert bgstats.parse_bgg_id("https://boardgamegeek.com/boardgame/123456/some-game") == 123456
    assert bgstats.parse_bgg_id("") is None
    for bad in ("abc", "0", "-5", "12.5", "99999999999"):
        with pytest.raises(InputError, match="whole number from 1"):
            bgstats.parse_bgg_id(bad)
    assert bgstats.bgg_setting("klaw") == "bgg_id.klaw"


def test_a_game_still_going_is_not_logged():
    store = memory_store()
    cid = FINISHED["klaw"](store, to_the_end=False)
    loaded = store.load(cid)
    table = standings("klaw", loaded.game_state)
    assert not table.finished and table.result.startswith("Still going")
    with pytest.raises(InputError, match="Only a finished game"):
        bgstats.play(game_key="klaw", campaign=store.get(cid), lines=store.lines(cid), standings=table)


def test_human_ethos_logs_the_issue_that_ended():
    store = memory_store()
    cid = FINISHED["human_ethos"](store)
    # A second issue, lost too: the play is that issue's, from its start.
    store.apply(cid, {"kind": "start_issue", "map": json.loads(SAMPLE_MAP.read_text()), "track": 10,
                      "members": ["Max"]}, expected_cursor=store.get(cid).cursor)
    store.apply(cid, {"kind": "adjust", "track": "threat", "delta": 10, "reason": "Overrun"},
                expected_cursor=store.get(cid).cursor)
    lines = store.lines(cid)
    assert [line.seq for line in bgstats.play_lines("human_ethos", lines)] == [3, 4]
    table = standings("human_ethos", store.load(cid).game_state)
    data = bgstats.play(game_key="human_ethos", campaign=store.get(cid), lines=lines, standings=table)
    assert [p["name"] for p in data["players"]] == ["Max"]


# --- The end card every finished game shows --------------------------------------------------------


def controls(root):
    stack = [root]
    while stack:
        c = stack.pop()
        yield c
        for attr in ("controls", "content", "actions"):
            value = getattr(c, attr, None)
            if isinstance(value, ft.Control):
                stack.append(value)
            elif isinstance(value, list):
                stack.extend(x for x in value if isinstance(x, ft.Control))


def button_words(control) -> str:
    """A button's words: its content, or the Text in it (a wide button pads it in a Container, to wrap)."""
    words = control.content
    if isinstance(words, ft.Container):
        words = words.content
    return words.value if isinstance(words, ft.Text) else words


def frame_for(store, cid):
    app = SimpleNamespace(store=store, guard=lambda fn, **kw: fn, go=lambda route: None)
    return SimpleNamespace(app=app, campaign_id=cid, loaded=LiveCampaign(store, cid).snapshot,
                           kept=lambda key, inputs, build: build())


@pytest.mark.parametrize("game_key", PLAYABLE)
def test_every_finished_game_ends_on_a_card(game_key):
    store = memory_store()
    cid, loaded, table = finished(store, game_key)
    [card] = story.end_card(frame_for(store, cid))
    assert card.key == "end-card"
    texts = [c.value for c in controls(card) if isinstance(c, ft.Text)]
    buttons = [button_words(c) for c in controls(card) if isinstance(c, (ft.Button, ft.OutlinedButton))]
    assert table.result in texts
    assert any(t.startswith("Played for ") for t in texts)
    assert {"Luck", "Recap", "Log to BG Stats"} <= set(buttons)
    assert any(b.startswith("Play again with the same") for b in buttons)


def test_no_end_card_while_the_game_goes_on():
    store = memory_store()
    cid = FINISHED["klaw"](store, to_the_end=False)
    assert story.end_card(frame_for(store, cid)) == []


def test_play_again_opens_a_new_campaign_with_the_same_settings():
    store = memory_store()
    cid, _, _ = finished(store, "save_the_singularity")
    went = []
    app = SimpleNamespace(store=store, go=went.append)
    story.play_again(app, cid)
    new = store.list_campaigns()[0]
    assert new.name == "Singularity night · game 2" and new.settings == store.get(cid).settings
    assert new.cursor == 0 and went == [f"/c/{new.id}"]
    story.play_again(app, new.id)
    assert store.list_campaigns()[0].name == "Singularity night · game 3"


def test_play_again_keeps_physical_dice_and_settings_changed_in_play():
    """Issue #30: the new game opened with physical dice off, so the app rolled the next rescue check
    itself. Play again keeps every setting: the physical dice first, and settings changed during the
    game (Human Ethos' settings are an action in its log) as they stood at its end."""
    from companion.games.human_ethos.rules import ChangeSettings
    from companion.table import SetPhysicalDice

    store = memory_store()
    app = SimpleNamespace(store=store, go=lambda route: None)
    cid, loaded, _ = finished(store, "save_the_singularity")
    store.apply(cid, SetPhysicalDice(on=True), expected_cursor=loaded.cursor)
    story.play_again(app, cid)
    new = store.list_campaigns()[0]
    assert store.load(new.id).state.physical_dice is True
    assert store.load(new.id).game_state.phase == "start"  # a new game, only the table's mode carried over

    cid, loaded, _ = finished(store, "human_ethos")
    changed = loaded.game_state.settings.model_copy(update={"tie_break": "smart", "hazard_trigger": "both"})
    assert changed != loaded.game_state.settings
    store.apply(cid, ChangeSettings(settings=changed), expected_cursor=loaded.cursor)
    story.play_again(app, cid)
    new = store.list_campaigns()[0]
    kept = store.load(new.id)
    assert kept.game_state.settings == changed and kept.state.physical_dice is False


def test_luck_and_recap_are_under_the_panel_until_the_end_card_has_them():
    store = memory_store()
    going = FINISHED["klaw"](store, to_the_end=False)
    links = story.links(frame_for(store, going))
    assert links.key == "story-links"
    assert sorted(button_words(c) for c in controls(links) if isinstance(c, ft.Button)) == ["Luck", "Recap"]
    over, _, _ = finished(store, "klaw")
    hidden = story.links(frame_for(store, over))
    assert hidden.key == "story-links" and not [c for c in controls(hidden) if isinstance(c, ft.Button)]


# --- The BG Stats dialog ------------------------------------------------------------------------------


def dialog_app(store):
    """The app as the BG Stats dialog meets it: the table's settings, dialogs shown, messages said."""
    from tests.views import guard

    settings: dict = {}
    shown, toasts = [], []

    def show(dialog) -> None:
        dialog.open = True
        shown.append(dialog)
    page = SimpleNamespace(show_dialog=show, pop_dialog=lambda: None, update=lambda: None)
    ctx = SimpleNamespace(setting=settings.get, set_setting=settings.__setitem__,
                          live=SimpleNamespace(get=lambda cid: None))
    return SimpleNamespace(store=store, ctx=ctx, page=page, guard=guard, shown=shown, settings=settings,
                           toast=lambda message, error=False: toasts.append(message), toasts=toasts)


def test_the_bgstats_dialog_refuses_a_bad_id_in_place_and_keeps_a_good_one():
    """A FormDialog: a refused id shows under the title, changes nothing and leaves the dialog open
    to correct it; a good one is saved for the game and the dialog comes back with it in the link.
    Every button is a wide one (56 px at normal text, its words wrapping at the largest size)."""
    import inspect

    from companion.ui import home

    store = memory_store()
    cid, _, _ = finished(store, "save_the_singularity")
    app = dialog_app(store)
    form = story.bgstats_dialog(app, cid)
    assert app.shown == [form.dialog]
    buttons = {button_words(c): c for c in controls(form.dialog)
               if isinstance(c, (ft.Button, ft.OutlinedButton, ft.TextButton))}
    assert set(buttons) == {"Open in BG Stats", "Copy link", "Save file", "Save the id", "Close"}
    assert buttons["Open in BG Stats"].url.startswith("https://app.bgstatsapp.com/createPlay.html?")
    assert all(isinstance(b.content, ft.Container) for b in buttons.values())  # padded words: tall enough
    [field] = [c for c in controls(form.dialog) if isinstance(c, ft.TextField) and c.label == "BoardGameGeek id"]

    field.value = "Gloomhaven"
    buttons["Save the id"].on_click(None)
    assert form.error.visible and form.error.identifier == "dialog-error"
    assert form.error.content.value.startswith("A BoardGameGeek id is a whole number")
    assert form.dialog.open and app.shown == [form.dialog] and app.settings == {}

    field.value = "54321"
    buttons["Save the id"].on_click(None)
    assert app.settings == {"bgg_id.save_the_singularity": 54321} and not form.dialog.open
    [again] = [d for d in app.shown if d is not form.dialog]
    [link] = [c for c in controls(again) if isinstance(c, ft.Semantics) and c.identifier == "bgstats-link"]
    assert from_link(link.content.value)["game"]["bggId"] == 54321
    assert app.toasts == ["BoardGameGeek id saved for every play of this game."]
    for module in (story, home):  # the older error line is gone from both
        assert "dialog_error" not in inspect.getsource(module)
