"""Shadowrun: Singularis on the table: the solitaire set-up and the card handling of each phase.

The app keeps the Nuyen piles, the reputation and the turn's phases; the decks, the hand and the
Challenge cards under each Objective are the player's. Citations are the rulebook's headings
(seeds/001_…). The game is solitaire: one player, always."""

from __future__ import annotations

from companion.games.shadowrun.rules import DIFFICULTY_TITLES, EXTRA_CHALLENGES, State
from companion.games.table_help import Reminder, SetupStep, rulebook
from companion.i18n import Msg

HAND = 7  # "Draw a total of seven cards from any Player Decks into your hand."

REMINDER_IDS = ("sr-new-objectives", "sr-extra-challenges", "sr-luck-of-the-draw", "sr-chipjacks",
                "sr-hand-limit", "sr-empty-deck")


def setting_up(state: State) -> bool:
    return state.phase == "setup"


def setup_steps(state: State) -> list[SetupStep]:
    s = state.settings
    steps = [
        SetupStep("decks", Msg("Shuffle the Objective deck, the Challenges deck and the Event deck, each on its own."),
                  rulebook("Setup 1)–3)")),
    ]
    if s.luck_of_the_draw:
        faces = ", ".join(f"{i} {name}" for i, name in enumerate(s.deck_table, start=1))
        steps.append(SetupStep("player-decks", Msg(
            "Shuffle the six Player decks and lay them out by die face: {faces}.", faces=faces),
            rulebook("Setup 4); Optional Rule: “The Luck of the Draw”")))
    else:
        steps.append(SetupStep("player-decks", Msg("Shuffle the Player deck(s)."), rulebook("Setup 4)")))
    if s.chipjacks:
        steps.append(SetupStep("chipjacks", Msg("Set the Chipjack cards aside: one may be bought with any Skillsoft."),
                               rulebook("Optional Rule: “Chipjacks”")))
    steps += [
        SetupStep("hand", Msg("Draw {n} cards from any Player decks into your hand (you may look at each before "
                              "choosing the next deck).", n=HAND), rulebook("Setup 5) Draw Cards")),
        SetupStep("loan", Msg("Put {loan} Nuyen in the loan pile and {loan} in your cash pile; the interest pile "
                              "starts empty.", loan=s.loan), rulebook("6) Choose your Starting Loan")),
        SetupStep("objectives", Msg(
            "Draw Objectives until you have one of each range (10 or less, 11–20, 21+) and play them face up; "
            "discard duplicates of a range, then shuffle them back into the Objective deck."),
            rulebook("6) Play Starting Objectives")),
        SetupStep("challenges", Msg(
            "Under each Objective, one Challenge card face down per 10 Rep, rounded up (a 25 Rep Objective gets 3)."),
            rulebook("6) Play Starting Objectives")),
        SetupStep("difficulty", Msg("{difficulty}: extra Challenge cards in each turn's Objective phase: {n}. "
                                    "You win at {target} Reputation.", difficulty=DIFFICULTY_TITLES[s.difficulty],
                                    n=EXTRA_CHALLENGES[s.difficulty], target=s.target_reputation),
                  rulebook("1b. Refresh Challenges")),
    ]
    return steps


def reminders(state: State) -> list[Reminder]:
    s, phase, said = state.settings, state.phase, []
    if phase == "objective":
        said.append(Reminder("sr-new-objectives", Msg(
            "Fewer than three Objectives in play? Draw until there are three, each with one hidden Challenge per "
            "10 Rep (rounded up); then one Challenge on each Objective short of its full set."),
            rulebook("1a. New Objectives; 1b. Refresh Challenges")))
        extra = EXTRA_CHALLENGES[s.difficulty]
        if extra:
            said.append(Reminder("sr-extra-challenges", Msg(
                "{difficulty}: place {n} extra Challenge cards, starting with the highest-Rep Objective; on a tie, "
                "the one with the fewest Challenges.", difficulty=DIFFICULTY_TITLES[s.difficulty], n=extra),
                rulebook("1b. Refresh Challenges")))
    if phase == "refresh" and s.luck_of_the_draw:
        said.append(Reminder("sr-luck-of-the-draw", Msg(
            "Drawing up to {n}: for each card roll 2d6 and draw from a deck matching either die; doubles: any deck.",
            n=HAND), rulebook("2. Refresh Phase; Optional Rule: “The Luck of the Draw”")))
    if phase == "legwork" and s.chipjacks:
        said.append(Reminder("sr-chipjacks", Msg("Playing a Skillsoft? A Chipjack may be bought with it."),
                             rulebook("4. Legwork Phase; Optional Rule: “Chipjacks”")))
    if phase == "end":
        said.append(Reminder("sr-hand-limit", Msg("Trash what you like from your hand; above {n} cards, discard down "
                                                  "to {n}.", n=HAND), rulebook("7. End Phase")))
        said.append(Reminder("sr-empty-deck", Msg("A Player deck empty? Shuffle its Trash pile into a new face-down "
                                                  "draw deck."), rulebook("7. End Phase")))
    return said
