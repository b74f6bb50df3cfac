"""The night's recap in words (companion.recap), the sessions it is cut into (companion.sessions) and
who sat at the table (companion.standings)."""

import doctest
from datetime import datetime, timedelta, timezone

import pytest

import companion.sessions as sessions_module
from companion.games import PLAYABLE, get_game
from companion.log import HistoryLine
from companion.recap import names_in_words, recap
from companion.sessions import duration, split
from companion.standings import standings
from tests.helpers import memory_store
from tests.story_games import FINISHED

NIGHT = datetime(2026, 3, 12, 19, 0, tzinfo=timezone.utc)


def test_doctests():
    assert doctest.testmod(sessions_module).failed == 0


def line(seq, minutes, *events, context="", dice=()):
    """A logged action `minutes` after 19:00 UTC on 12 March 2026, with events (kind, data)."""
    return HistoryLine(seq, f"action {seq}", context, [{"kind": k, "text": t, "data": d} for k, t, d in events],
                       list(dice), NIGHT + timedelta(minutes=minutes))


# --- Sessions --------------------------------------------------------------------------------------


def test_a_gap_of_more_than_two_hours_starts_a_new_session():
    lines = [line(1, 0), line(2, 60), line(3, 179), line(4, 179 + 121), line(5, 60 * 24)]
    found = split(lines, created=NIGHT - timedelta(minutes=10))
    assert [(s.number, s.seqs) for s in found] == [(1, (1, 3)), (2, (4, 4)), (3, (5, 5))]
    assert found[0].start == NIGHT - timedelta(minutes=10)  # set up just before: the night began then
    assert found[0].minutes == 189 and found[1].minutes == 0
    assert split([line(1, 0)], created=NIGHT - timedelta(days=2))[0].start == NIGHT  # set up days before
    assert split([]) == []


def test_durations_in_words():
    assert [duration(m) for m in (0, 2, 45, 60, 95, 600)] == [
        "a few minutes", "a few minutes", "45 min", "1 h", "1 h 35 min", "10 h"]
    assert names_in_words(["Ada"]) == "Ada" and names_in_words(["Ada", "Bea", "Cy"]) == "Ada, Bea and Cy"


# --- Who sat at the table, and how it ended ---------------------------------------------------------


@pytest.mark.parametrize("game_key", PLAYABLE)
def test_every_game_says_who_played_and_how_it_ended(game_key):
    store = memory_store()
    cid = FINISHED[game_key](store)
    table = standings(game_key, store.load(cid).game_state)
    assert table.finished and table.names
    assert table.result.endswith(".") and not table.result.startswith("Still going")


def test_results_in_words():
    store = memory_store()
    results = {k: standings(k, store.load(FINISHED[k](store)).game_state).result for k in PLAYABLE}
    assert results["klaw"].startswith("Ana won (last host standing) in round ")
    assert results["biosphere5"] == ("Bea is the last one in: The others reached doom 8 (§2.2 says who wins when "
                                     "the last rival drops out).")
    # −10 for the botched job, −2 for the interest the runner refused to pay: no d6 survives that
    assert results["shadowrun"] == "Lost on turn 1: reputation -12, the loan shark's enforcer ended the career."
    assert results["human_ethos"] == "Issue #1 lost on turn 1, threat 12 and awareness 0 of 12."
    assert results["save_the_singularity"].startswith("The world won with ")


def test_a_new_game_is_still_going():
    for key in PLAYABLE:
        game = get_game(key)
        table = standings(key, game.new_state(game.Settings()))
        assert not table.finished and not any(s.winner for s in table.seats)
        assert table.result.startswith(("Still going", "Between issues"))


# --- The recap -----------------------------------------------------------------------------------------


STS_EVENTS = [
    line(1, 0, ("throw", "", {"player": "Ada", "cause": "roll", "thrown": [4, 5, 2], "busts": False,
                               "bust_chance": 0.074, "at_risk": 2}), dice=[[6, 4, 0], [6, 5, 0], [6, 2, 0]]),
    line(2, 5, ("press_on", "", {}), ("throw", "", {"player": "Ada", "cause": "press_on", "thrown": [4] * 9,
                                                    "busts": False, "bust_chance": 0.4573, "at_risk": 11}),
         dice=[[6, 4, 1]] * 9),
    line(3, 9, ("bank", "", {"player": "Ada", "points": 11, "team": 11}), ("world_phase", "", {"player": "Ada"})),
    line(4, 10, ("world_roll", "", {"bad": True}), ("world_roll", "", {"bad": True}),
         ("world_roll", "", {"bad": True}), ("turn", "", {"turn": 2}), dice=[[12, 11, 0], [12, 4, 0], [12, 9, 0]]),
    line(5, 60 * 5, ("throw", "", {"player": "Bea", "cause": "roll", "thrown": [1, 1, 6], "busts": True,
                                   "bust_chance": 0.074, "at_risk": 0}),
         ("bust", "", {"player": "Bea", "bugs": 2, "lost": 4, "chance": 0.074}),
         ("power", "Bea (Programmer): reroll the 2 Bug dice.", {}), ("note", "", {"note": "Pizza arrived"}),
         context="Turn 2 · Bea · 3 dice to roll"),
]


def sts_recap(scope=None):
    store = memory_store()
    game = get_game("save_the_singularity")
    cid = FINISHED["save_the_singularity"](store, actions=0)  # the players, and a game still going
    table = standings("save_the_singularity", store.load(cid).game_state)
    nights = split(STS_EVENTS, created=NIGHT - timedelta(minutes=5))
    return recap(game_key="save_the_singularity", title=game.title, name="Singularity night", lines=STS_EVENTS,
                 sessions=nights, standings=table, scope=nights[scope] if scope is not None else None), nights


def test_the_recap_of_a_night():
    told, nights = sts_recap(scope=0)
    assert len(nights) == 2
    opening, ending, moments = told.paragraphs[:3]
    day = NIGHT.astimezone()
    start, end = (NIGHT - timedelta(minutes=5)).astimezone(), (NIGHT + timedelta(minutes=10)).astimezone()
    assert opening == (f"From {start:%H:%M} to {end:%H:%M} (15 min), Ada, Bea and Cy played Save the Singularity "
                       "against the world (session 1 of 2): 4 actions, 15 dice (9 of them physical).")
    assert ending == "The session ended at “Turn 2 · Bea · 3 dice to roll”."
    assert moments == ("The boldest push: Ada pressed on with 9 dice at a 46% chance of busting, and it paid off "
                       "(11 at risk). The biggest haul: Ada banked 11 points. The world's worst phase came after "
                       "Ada's turn: 3 Bad in 3 rolls of the d12.")
    assert told.title == f"“Singularity night”: Save the Singularity, {day.strftime('%A')} {day.day} March 2026"
    assert told.text.startswith(told.title + "\n\n" + opening + "\n\n")
    assert "Pizza" not in told.text  # that note was made in the second session


def test_the_recap_of_the_whole_campaign():
    told, _ = sts_recap()
    opening, ending, moments, notes = told.paragraphs
    assert opening.startswith("Ada, Bea and Cy played Save the Singularity against the world over 2 sessions ")
    assert opening.endswith(" 2026, 15 min in all: 5 actions, 15 dice (9 of them physical).")
    assert ending.startswith("Still going, turn 1: the team has 0 of 75 points")
    assert "The bust that hurt most: Bea lost 4 points at risk to 2 Bugs (that throw had a 7% chance of busting)." \
        in moments
    assert "Powers played: Bea (Programmer): reroll the 2 Bug dice." in moments
    assert notes == "The table noted: “Pizza arrived”."


def test_nothing_played_yet():
    store = memory_store()
    cid = FINISHED["save_the_singularity"](store, actions=0)
    told = recap(game_key="save_the_singularity", title="Save the Singularity", name="New", lines=[], sessions=[],
                 standings=standings("save_the_singularity", store.load(cid).game_state))
    assert told.paragraphs == ["Nothing has been played yet: the recap starts with the first action."]


@pytest.mark.parametrize("game_key,said", [
    ("save_the_singularity", "The world won with "),
    ("klaw", "fight: Kai beat Rex"),
    ("biosphere5", "Ada reached doom 8 and was out."),
    ("shadowrun", "The loan shark called in the interest"),
    ("human_ethos", "Issue #1 was lost: threat 12 and awareness 0 met on a track of 12."),
])
def test_each_game_tells_its_moments(game_key, said):
    store = memory_store()
    cid = FINISHED[game_key](store)
    campaign, loaded = store.get(cid), store.load(cid)
    lines = store.lines(cid)
    told = recap(game_key=game_key, title=get_game(game_key).title, name=campaign.name, lines=lines,
                 sessions=split(lines, created=campaign.created_at), standings=standings(game_key, loaded.game_state),
                 settings=campaign.settings)
    assert said in told.text
    assert told.title == f"“{campaign.name}”: {get_game(game_key).title}, the whole campaign"
    assert " played " in told.paragraphs[0] and " in all: " in told.paragraphs[0]
    assert len(told.paragraphs) >= 2 and all(p.strip() for p in told.paragraphs)


def test_klaw_moments():
    lines = [line(1, 0, ("deployed", "", {"host": 1, "player": 0}),
                  ("exchange", "", {"striker_name": "Kai", "target_name": "Rex", "damage_to_target": 3}),
                  ("fight_won", "", {"winner_name": "Kai", "loser_name": "Rex"}),
                  ("host_removed", "", {"name": "Max", "player": 1, "cause": "is at 0 life"}),
                  ("singularity_check", "", {"face": 1, "passed": False}),
                  ("singularity_event", "", {"removed": [{"totems": ["Wolf", "Owl"]}, {"totems": ["Bear"]}]}))]
    store = memory_store()
    cid = FINISHED["klaw"](store, to_the_end=False)
    told = recap(game_key="klaw", title="KLAW", name="x", lines=lines, sessions=split(lines),
                 standings=standings("klaw", store.load(cid).game_state), settings={"players": ["Ana", "Ben"]})
    assert told.paragraphs[2] == ("1 fight: Kai beat Rex. The hardest blow: Kai hit Rex 3 times in one exchange. "
                                  "A host's fall: Ben's Max left the table (is at 0 life). A singularity event swept "
                                  "3 totems off 2 hosts. Singularity checks: 0 passed, 1 failed.")


def test_days_in_words():
    from companion.recap import _days

    noon = lambda d, m=3, y=2026: datetime(y, m, d, 12, tzinfo=timezone.utc)  # noqa: E731 (any time zone: same day)
    assert _days(noon(12), noon(12)).startswith("on ") and _days(noon(12), noon(12)).endswith(" 12 March 2026")
    assert _days(noon(12), noon(19)) == "from 12 to 19 March 2026"
    assert _days(noon(28, 2), noon(7)) == "from 28 February to 7 March 2026"
    assert _days(noon(30, 12, 2025), noon(2, 1)) == "from 30 December 2025 to 2 January 2026"
