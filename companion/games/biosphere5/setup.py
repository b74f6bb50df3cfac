"""Biosphere 5 on the table: boards, card sets and markers for the chosen mode (alone against the
Machine, or 2–4 people with The Abyss), and the card handling the app leaves to the players.
Citations are the rulebook's numbered sections (seeds/003_…)."""

from __future__ import annotations

from companion.games.biosphere5.rules import State
from companion.games.table_help import Reminder, SetupStep, rulebook
from companion.i18n import Msg

HAND_LIMIT = 8  # 2.1: "A player can have a maximum of eight cards"
BASIC_SET = 25  # 3.1: "three new cards are added to the 25 basic game cards"
ABYSS_CARDS = 3  # fig. 16: Better Leadership/Shown Strength, "Every player gets three of them"
LEADERS = 4  # 3.1: "the four zero valued fields of the leader's extension board"
GREEN_CUBES, YELLOW_CUBES = 7, 6  # 4.1: seven green, six yellow marker cubes

REMINDER_IDS = ("bio-reshuffle", "bio-hand-limit", "bio-machine-discard", "bio-machine-reshuffle",
                "bio-doom-draw-pile", "bio-doom-biosphere", "bio-catastrophes-all")


def setting_up(state: State) -> bool:
    if state.result is not None:
        return False
    if state.solo is not None:
        solo = state.solo
        return solo.round == 1 and solo.phase == "machine" and solo.reveal is None and solo.decision is None
    return state.abyss is not None and all(p.doom == 0 and not p.out and not any(p.leaders.values())
                                           for p in state.abyss.players)


def table_counts(state: State) -> dict[str, int]:
    """What the table lays out: per player a board, two move markers and a card set (+3 with The Abyss);
    with The Abyss per player two extension boards, four leader cubes, a doom marker, a third move marker."""
    people = 1 if state.solo is not None else state.settings.players
    abyss = state.abyss is not None
    return {"people": people, "boards": people, "move_markers": 2 * people + (people if abyss else 0),
            "cards_each": BASIC_SET + (ABYSS_CARDS if abyss else 0),
            "cards": people * (BASIC_SET + (ABYSS_CARDS if abyss else 0)),
            "leader_cubes": LEADERS * people if abyss else 0}


def setup_steps(state: State) -> list[SetupStep]:
    c = table_counts(state)
    abyss = state.abyss is not None
    steps: list[SetupStep] = []
    if state.solo is not None:
        steps.append(SetupStep("board", Msg("Take a gaming board, two move markers and a set of {cards} cards.",
                                            cards=c["cards_each"]), rulebook("1.4 GAME SET UP AND START")))
    else:
        steps.append(SetupStep("board", Msg("Each of the {n} players takes a gaming board, two move markers and a set of "
                                            "{each} cards: {boards} boards, {markers} move markers, {cards} cards in all.",
                                            n=c["people"], each=c["cards_each"], boards=c["boards"],
                                            markers=2 * c["people"], cards=c["cards"]), rulebook("1.4 GAME SET UP AND START")))
    if abyss:
        steps.append(SetupStep("abyss", Msg(
            "The Abyss: add the 3 Better Leadership/Shown Strength cards to each set; each player puts the Doom "
            "Scale board to the left, The Leaders board to the right, 4 leader cubes on their zero fields ({cubes} "
            "in all), the doom marker on zero and the third move marker right of The Leaders.",
            cubes=c["leader_cubes"]), rulebook("3.1 GAME DESCRIPTION, MATERIALS AND HOW TO START")))
    if state.solo is not None:
        steps += [
            SetupStep("machine-boards", Msg("Put the “hand-cards” board to the left of yours and the “achievements” board "
                                            "to the right."), rulebook("4.1 GAME DESCRIPTION, MATERIALS AND HOW TO START")),
            SetupStep("machine-deck", Msg("Shuffle the Machine's own set of cards and place it on its board as its draw "
                                          "pile."), rulebook("4.1 GAME DESCRIPTION, MATERIALS AND HOW TO START")),
            SetupStep("machine-bits", Msg("Set aside the hand die, {green} green and {yellow} yellow cubes.",
                                          green=GREEN_CUBES, yellow=YELLOW_CUBES),
                      rulebook("4.1 GAME DESCRIPTION, MATERIALS AND HOW TO START")),
            SetupStep("machine-level", Msg("Put the red marker on {level} of the hand-cards scale (the book's start is 2).",
                                           level=state.solo.machine.level),
                      rulebook("4.1 GAME DESCRIPTION, MATERIALS AND HOW TO START")),
            SetupStep("deal", Msg("Shuffle your cards and lay three face up; your hand starts empty."),
                      rulebook("1.4 GAME SET UP AND START")),
            SetupStep("first", Msg("The Machine starts."), rulebook("4.1 GAME DESCRIPTION, MATERIALS AND HOW TO START")),
        ]
        return steps
    steps.append(SetupStep("deal", Msg(
        "Shuffle the cards and lay three face up; hands start empty. Fewest red cards starts (Biosphere 5/Attack counts "
        "as two); on a tie the youngest."), rulebook("1.4 GAME SET UP AND START")))
    if c["people"] == 3:
        steps.append(SetupStep("three", Msg("Three players: Espionage, Sabotage and Attack go only against the player to "
                                            "the left; catastrophes hit everyone."), rulebook("2.5 Three-player version")))
    if c["people"] == 4:
        steps.append(SetupStep("four", Msg(
            "Four players: two teams of two. The team with fewer red cards starts: its first player, then both of the "
            "other team, then its second player."), rulebook("2.5 Four-player version")))
    return steps


def reminders(state: State) -> list[Reminder]:
    if state.result is not None:
        return []
    said: list[Reminder] = []
    solo = state.solo
    your_turn = solo is None or solo.phase == "human"
    if your_turn:
        said.append(Reminder("bio-reshuffle", Msg("Draw pile out of cards? Reshuffle the discard pile into a new draw "
                                                  "pile at once."), rulebook("2.1 THE STAGES OF THE GAME")))
        said.append(Reminder("bio-hand-limit", Msg("At most {n} cards in hand: discard the surplus at the end of the "
                                                   "turn.", n=HAND_LIMIT), rulebook("2.1 THE STAGES OF THE GAME")))
    if solo is not None and solo.phase == "human" and solo.decision is not None:
        said.append(Reminder("bio-machine-discard", Msg("Every card the Machine revealed goes to its discard pile."),
                             rulebook("4 Man against Machine: machine tactics")))
    if solo is not None and solo.phase == "machine":
        said.append(Reminder("bio-machine-reshuffle", Msg("The Machine's draw pile empty? Shuffle its discard pile into "
                                                          "a new draw pile."), rulebook("4 Man against Machine, fig. 27: Note")))
    if state.abyss is not None and your_turn:
        said.append(Reminder("bio-doom-draw-pile", Msg("The Abyss: a draw pile found empty raises that player's doom by "
                                                       "2 (tap it)."), rulebook("3.2 DOOM")))
        said.append(Reminder("bio-doom-biosphere", Msg("The Abyss: Biosphere 5 face up at the end of your turn raises "
                                                       "your doom by 1 (tap it)."), rulebook("3.2 DOOM")))
    if solo is None and state.settings.players >= 3:
        said.append(Reminder("bio-catastrophes-all", Msg("A catastrophe hits every player, not only its target."),
                             rulebook("2.5 GAME VERSIONS WITH THREE OR FOUR PLAYER: Note")))
    return said
