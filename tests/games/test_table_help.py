"""Set-up checklists and reminders (#32 items 1-2): counts for 1, 2 and the most players, checked
against the rulebooks (seeds/) by hand in the comments; each reminder at its step and nowhere else;
a dismissal is a table action in the log."""

from __future__ import annotations

import pytest

from companion.dice import SeededDice
from companion.games import get_game
from companion.games.base import InputError, RuleError
from companion.games.table_help import reminder_ids, reminders_for, setting_up, setup_for
from companion.i18n import render, speaking
from companion.table import DismissReminder
from tests.helpers import memory_store


def said(steps) -> dict[str, str]:
    return {s.key: render(s.text) for s in steps}


def ids(state, key) -> set[str]:
    return {r.id for r in reminders_for(key, state)}


# --- Save the Singularity -------------------------------------------------------------------------

from companion.games.save_the_singularity import rules as sts  # noqa: E402

STS_ROLES = sts.ROLES


def sts_state(n: int):
    roles = [STS_ROLES[i % 6] for i in range(n)]
    return sts.GAME.new_state(sts.Settings(players=[sts.Player(name=f"P{i + 1}", role=r) for i, r in enumerate(roles)]))


@pytest.mark.parametrize("n, team, world", [
    # "You're trying to get to 25 points per player before the rest of the world gets to 4 points per player":
    (1, 25, 4),  # 25 × 1, 4 × 1
    (2, 50, 8),  # 25 × 2, 4 × 2
    (6, 150, 24),  # 6 roles, one each (the most before roles repeat): 25 × 6, 4 × 6
    (7, 175, 28),  # "1 to infinity players": 25 × 7, 4 × 7
])
def test_save_the_singularity_setup(n, team, world):
    steps = said(setup_for("save_the_singularity", sts_state(n)))
    assert steps["targets"].startswith(f"The team plays to {team} points (25 × {n}), the world to {world} (4 × {n})")
    assert "12 six-sided dice and one twelve-sided die" in steps["dice"]  # "What you'll need: 12d6, 1d12"
    assert steps["first"].startswith("P1 starts with 3 dice")  # "They start by rolling 3d6"
    assert steps["roles"].count(" the ") == n  # one role card per player


def test_save_the_singularity_setup_ends_with_the_first_throw():
    state = sts_state(2)
    thrown = state.model_copy(update={"phase": "throw", "throw": [sts.Die(face=4)] * 3})
    assert setting_up("save_the_singularity", state) and not setting_up("save_the_singularity", thrown)
    # The checklist itself is still there to look up mid-game, the same as before the throw.
    assert said(setup_for("save_the_singularity", thrown)) == said(setup_for("save_the_singularity", state))


def test_save_the_singularity_reminders_at_their_step():
    key, state = "save_the_singularity", sts_state(6)
    start = ids(state, key)
    assert start == {"sts-mathematician", "sts-venture-capitalist"}
    bust = state.model_copy(update={"phase": "throw", "throw": [sts.Die(face=1), sts.Die(face=1), sts.Die(face=5)]})
    assert ids(bust, key) == {"sts-rationalist", "sts-programmer"}
    ideas = state.model_copy(update={"phase": "throw", "throw": [sts.Die(face=2), sts.Die(face=5), sts.Die(face=6)]})
    assert ids(ideas, key) == {"sts-computer-scientist"}
    one_bug = state.model_copy(update={"phase": "throw", "throw": [sts.Die(face=1), sts.Die(face=5), sts.Die(face=6)]})
    assert ids(one_bug, key) == {"sts-programmer"}  # one Bug is no bust: the Rationalist isn't called
    assert ids(state.model_copy(update={"phase": "world"}), key) == {"sts-media-liaison"}
    assert ids(state.model_copy(update={"phase": "over"}), key) == set()
    # a power spent is no longer called out: the Programmer (index 3) used theirs
    spent = bust.model_copy(update={"powers_used": [False, False, False, True, False, False]})
    assert ids(spent, key) == {"sts-rationalist"}
    # a role nobody holds is never called out
    assert ids(sts_state(1).model_copy(update={"phase": "world"}), key) == set()


# --- Shadowrun ------------------------------------------------------------------------------------

from companion.games.shadowrun import rules as sr  # noqa: E402


def test_shadowrun_setup_solo():
    # Solitaire: one player always. Setup 5): "Draw a total of seven cards"; 6): "up to 20 Nuyen", cash "should
    # match this"; 1b: Normal 1, Hard 2 extra Challenges.
    steps = said(setup_for("shadowrun", sr.GAME.new_state(sr.Settings(loan=15, difficulty="hard"))))
    assert "Draw 7 cards" in steps["hand"]
    assert steps["loan"].startswith("Put 15 Nuyen in the loan pile and 15 in your cash pile")
    assert steps["difficulty"].startswith("Hard: extra Challenge cards in each turn's Objective phase: 2.")
    assert "1 Magic, 2 Rigger, 3 Decker, 4 Info, 5 Runners, 6 Gear" in steps["player-decks"]
    plain = said(setup_for("shadowrun", sr.GAME.new_state(sr.Settings(luck_of_the_draw=False, chipjacks=False))))
    assert "chipjacks" not in plain and plain["player-decks"] == "Shuffle the Player deck(s)."


def test_shadowrun_reminders_at_their_step():
    key, state = "shadowrun", sr.GAME.new_state(sr.Settings())
    at = lambda phase, **kw: ids(state.model_copy(update={"phase": phase, "turn": 1}), key)  # noqa: E731
    assert ids(state, key) == set()  # setting up: the checklist says it
    assert at("objective") == {"sr-new-objectives", "sr-extra-challenges"}
    assert at("refresh") == {"sr-luck-of-the-draw"}
    assert at("legwork") == {"sr-chipjacks"}
    assert at("end") == {"sr-hand-limit", "sr-empty-deck"}
    assert at("shadowrun") == set() and at("interest") == set()
    easy = state.model_copy(update={"phase": "objective", "settings": state.settings.model_copy(update={"difficulty": "easy"})})
    assert ids(easy, key) == {"sr-new-objectives"}  # Easy: no additional Challenge cards


# --- KLAW -----------------------------------------------------------------------------------------

from companion.games.klaw import rules as kl  # noqa: E402


@pytest.mark.parametrize("n, hosts, dealt, left, encounter_after", [
    # "6 Host Cards per number of Players", "6 Totem Cards …", "30 Action and Item cards … per number of Players";
    # 2) each draws 3 Hosts, the rest into the Encounter Deck; 3) each draws 5 more.
    (2, 12, 6, 6, 68),  # 12 totems + 60 others + 6 hosts = 78, less 5 × 2 = 68
    (8, 48, 24, 24, 272),  # 48 + 240 + 24 = 312, less 5 × 8 = 272
])
def test_klaw_setup(n, hosts, dealt, left, encounter_after):
    state = kl.GAME.new_state(kl.Settings(players=[f"P{i}" for i in range(1, n + 1)]))
    steps = said(setup_for("klaw", state))
    assert steps["deck"].startswith(f"For {n} players take {hosts} Host cards, {hosts} Totem cards and {30 * n} Action")
    assert f"({dealt} in all), then shuffle the other {left} into the Encounter Deck" in steps["hosts"]
    assert f"The Encounter Deck keeps {encounter_after} cards." in steps["hands"]
    assert steps["order"].endswith(", ".join(f"P{i}" for i in range(1, n + 1)) + ".")


def test_klaw_has_no_one_player_game():
    with pytest.raises(ValueError):
        kl.Settings(players=["Solo"])  # KLAW is a battle between players: 2 to 8


def test_klaw_reminders_at_their_step():
    key = "klaw"
    state = kl.GAME.new_state(kl.Settings())
    assert ids(state, key) == {"klaw-full-hand"}  # 8 cards from the deal: a pass would draw a ninth
    lower = state.model_copy(update={"players": [p.model_copy(update={"hand": 7}) for p in state.players]})
    assert ids(lower, key) == set()
    assert ids(lower.model_copy(update={"played": "totem"}), key) == {"klaw-draw"}
    assert ids(lower.model_copy(update={"played": "attack"}), key) == {"klaw-no-draw-after-combat", "klaw-defeated-host"}
    host = kl.Host(id=1, owner=0, name="Kai", attack=2, defense=2, base_life=8, life=8, protected_until=2)
    protected = lower.model_copy(update={"hosts": [host], "turn_no": 1, "played": "deploy"})
    assert ids(protected, key) == {"klaw-draw", "klaw-protected"}
    assert ids(protected.model_copy(update={"turn_no": 2, "played": None}), key) == set()


# --- Biosphere 5 ----------------------------------------------------------------------------------

from companion.games.biosphere5 import rules as bio  # noqa: E402


def test_biosphere5_setup_alone_against_the_machine():
    # 1 player: 1.4 "a gaming board, two move markers and one set of cards" (25: 3.1 "the 25 basic game cards");
    # 4.1: seven green, six yellow cubes; the red marker on the two (or the chosen level); the Machine starts.
    steps = said(setup_for("biosphere5", bio.GAME.new_state(bio.Settings(opponent="machine", difficulty=3))))
    assert steps["board"] == "Take a gaming board, two move markers and a set of 25 cards."
    assert steps["machine-bits"] == "Set aside the hand die, 7 green and 6 yellow cubes."
    assert steps["machine-level"].startswith("Put the red marker on 3 ")
    assert steps["first"] == "The Machine starts."
    assert "abyss" not in steps
    with_abyss = said(setup_for("biosphere5", bio.GAME.new_state(bio.Settings(opponent="machine", abyss=True))))
    assert "(4 in all)" in with_abyss["abyss"] and "set of 28 cards" in with_abyss["board"]  # 25 + 3; 4 leader cubes


@pytest.mark.parametrize("n, cards, cubes", [
    # The Abyss (people play only with it): per player a board, 2 move markers, 25 + 3 cards (3.1, fig. 16), 4 leader cubes
    (2, 56, 8),  # 2 × 28, 2 × 4
    (4, 112, 16),  # 4 × 28, 4 × 4 (2.5: at most four players)
])
def test_biosphere5_setup_people(n, cards, cubes):
    steps = said(setup_for("biosphere5", bio.GAME.new_state(bio.Settings(opponent="people", abyss=True, players=n))))
    assert steps["board"].endswith(f"{n} boards, {2 * n} move markers, {cards} cards in all.")
    assert f"({cubes} in all)" in steps["abyss"]
    assert ("four" in steps) == (n == 4) and "three" not in steps


def test_biosphere5_reminders_at_their_step():
    key = "biosphere5"
    solo = bio.GAME.new_state(bio.Settings(opponent="machine"))
    assert ids(solo, key) == {"bio-machine-reshuffle"}  # the Machine's turn: its pile
    human = solo.model_copy(update={"solo": solo.solo.model_copy(update={"phase": "human"})})
    assert ids(human, key) == {"bio-reshuffle", "bio-hand-limit"}
    decided = human.model_copy(update={"solo": human.solo.model_copy(update={"decision": bio.Decision.model_construct()})})
    assert "bio-machine-discard" in ids(decided, key)
    abyss = bio.GAME.new_state(bio.Settings(opponent="people", abyss=True, players=3))
    assert ids(abyss, key) == {"bio-reshuffle", "bio-hand-limit", "bio-doom-draw-pile", "bio-doom-biosphere",
                               "bio-catastrophes-all"}
    two = bio.GAME.new_state(bio.Settings(opponent="people", abyss=True, players=2))
    assert "bio-catastrophes-all" not in ids(two, key)
    assert ids(abyss.model_copy(update={"result": "No winner"}), key) == set()


# --- Human Ethos ----------------------------------------------------------------------------------

from companion.games.human_ethos import rules as he, view as he_view  # noqa: E402


def he_issue(members: list[str]):
    state = he.GAME.new_state(he.Settings())
    sample = he_view.parse_map_json(he_view.SAMPLE_PATH.read_text(encoding="utf-8"))
    state, _ = he.GAME.apply(state, he.StartIssue(map=sample, track=20, threat=2, members=members), SeededDice(1, 1))
    return state


def test_human_ethos_setup_before_an_issue():
    steps = said(setup_for("human_ethos", he.GAME.new_state(he.Settings())))
    assert steps == {"card": "Story mode: take issue #1's setup card, read the comic on its back and its setup "
                             "instructions, then set the issue up here."}


@pytest.mark.parametrize("members", [["Max"], ["Max", "Ana"], ["A", "B", "C", "D", "E", "F"]])
def test_human_ethos_setup_for_the_team(members):
    # The sample map: 2 common, 1 elite, 1 cache space. Tokens in the box: common 5+4+3+1+1 = 14, elite 2+2+1+1 = 6.
    # ON YOUR TURN 3.: hands of 3, so 3 × members cards drawn; the team on Start; the first member plays first.
    n = len(members)
    steps = said(setup_for("human_ethos", he_issue(members)))
    assert "on each of the 2 common encounter spaces (of 14 in the box), one elite token on each of the 1 elite " \
           "spaces (of 6)" in steps["tokens"]
    assert steps["team"] == f"Put the {n} team miniatures ({', '.join(members)}) on the Start space."
    assert steps["hands"] == f"Each player shuffles their deck and draws 3 cards ({3 * n} in all)."
    assert steps["track"].startswith("Threat marker on 2, Awareness marker on 0, on a track of 20")
    assert steps["first"].startswith(f"{members[0]} plays first")
    assert steps["caches"].startswith("Shuffle the upgrade deck beside the map: 1 supply cache")


def test_human_ethos_reminders_at_their_step():
    key, state = "human_ethos", he_issue(["Max", "Ana"])
    assert ids(he.GAME.new_state(he.Settings()), key) == set()
    assert ids(state, key) == {"he-hand", "he-reshuffle"}
    issue = state.issue
    assert ids(state.model_copy(update={"issue": issue.model_copy(update={"phase": "enemies"})}), key) == \
        {"he-refill", "he-closing-in"}
    revealed = [issue.tokens[0].model_copy(update={"status": "revealed"}), *issue.tokens[1:]]
    assert "he-tokens" in ids(state.model_copy(update={"issue": issue.model_copy(update={"tokens": revealed})}), key)
    assert ids(state.model_copy(update={"issue": issue.model_copy(update={"phase": "won"})}), key) == {"he-next-issue"}
    assert ids(state.model_copy(update={"issue": issue.model_copy(update={"phase": "lost"})}), key) == set()


# --- every game -----------------------------------------------------------------------------------

@pytest.mark.parametrize("key", ["save_the_singularity", "shadowrun", "klaw", "biosphere5", "human_ethos"])
def test_each_game_has_five_reminders_or_more_and_its_steps_cite_the_rulebook(key):
    assert len(reminder_ids(key)) >= 5
    game = get_game(key)
    steps = setup_for(key, game.new_state(game.Settings()))
    assert steps and all(s.cite for s in steps)
    assert len({s.key for s in steps}) == len(steps)
    with speaking("de"):
        assert all(render(s.text) != s.text.msgid for s in steps if "{" not in s.text.msgid)


def test_a_dismissed_reminder_is_a_table_action_undone_like_any_other():
    store = memory_store()
    cid = store.create("shadowrun", "Run", {}, seed=3)
    loaded = store.load(cid)
    store.apply(cid, DismissReminder(reminder="sr-hand-limit"), expected_cursor=loaded.cursor)
    loaded = store.load(cid)
    assert loaded.state.dismissed == ["sr-hand-limit"]
    end = sr.GAME.new_state(sr.Settings()).model_copy(update={"phase": "end", "turn": 1})
    assert {r.id for r in reminders_for("shadowrun", end, loaded.state.dismissed)} == {"sr-empty-deck"}
    with pytest.raises(RuleError):
        store.apply(cid, DismissReminder(reminder="sr-hand-limit"), expected_cursor=loaded.cursor)
    with pytest.raises(InputError):
        store.apply(cid, DismissReminder(reminder="klaw-draw"), expected_cursor=loaded.cursor)  # not this game's
    store.undo(cid, expected_cursor=loaded.cursor)
    assert store.load(cid).state.dismissed == []
    assert "dismissed" not in store.load(cid).state.model_dump(mode="json")  # old saves' JSON unchanged
