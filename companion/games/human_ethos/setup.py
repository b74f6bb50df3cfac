"""The Singularity War: Human Ethos on the table: laying out an issue's map for its team, and the card
handling of a turn the app doesn't see (hands, discard piles, tokens). Citations are the rulebook's
headings (seeds/000_…). Before an issue is set up in the app, the checklist says how to choose it."""

from __future__ import annotations

from companion.games.human_ethos.hexmap import map_name
from companion.games.human_ethos.rules import State
from companion.games.table_help import Reminder, SetupStep, rulebook
from companion.i18n import Msg

HAND = 3  # ON YOUR TURN 3.: "refill your hand to 3 cards"
# Tokens in the box (Tokens, Encounter Tokens 2.): common 5 Nanobots + 4 Hosts + 3 Drakens + 1 Alpha + 1 Rhinos;
# elite 2 Alphas + 2 Rhinos + 1 Alphas + Common En. + 1 Rhinos + Common En.
COMMON_TOKENS = 5 + 4 + 3 + 1 + 1
ELITE_TOKENS = 2 + 2 + 1 + 1

REMINDER_IDS = ("he-hand", "he-reshuffle", "he-refill", "he-closing-in", "he-tokens", "he-next-issue")


def setting_up(state: State) -> bool:
    issue = state.issue
    if issue is None:
        return True
    return (issue.turn == 1 and issue.active == 0 and issue.phase == "players" and not issue.groups
            and all(t.status == "face_down" for t in issue.tokens))


def setup_steps(state: State) -> list[SetupStep]:
    issue = state.issue
    if issue is None:
        if state.settings.mode == "story":
            return [SetupStep("card", Msg("Story mode: take issue #{n}'s setup card, read the comic on its back and its "
                                          "setup instructions, then set the issue up here.",
                                          n=state.campaign.unlocked_issue), rulebook("To Set Up Story Mode"))]
        return [SetupStep("card", Msg("Arcade mode: take out all unlocked content, choose the maps, then set the game "
                                      "up here."), rulebook("To Set Up Arcade Mode"))]
    specials = {s.special for s in issue.map.spaces}
    count = {kind: sum(1 for s in issue.map.spaces if s.special == kind) for kind in ("common", "elite", "cache", "hazard")}
    n = len(issue.members)
    names = ", ".join(m.name for m in issue.members)
    steps = [SetupStep("map", Msg("Lay out the map “{map}”.", map=map_name(issue.map)), rulebook("SETUP DIAGRAM"))]
    if "common" in specials or "elite" in specials:
        steps.append(SetupStep("tokens", Msg(
            "Shuffle the encounter tokens face down by kind: one common token on each of the {common} common encounter "
            "spaces (of {commons} in the box), one elite token on each of the {elite} elite spaces (of {elites}).",
            common=count["common"], commons=COMMON_TOKENS, elite=count["elite"], elites=ELITE_TOKENS),
            rulebook("Encounter Spaces")))
    if count["cache"]:
        steps.append(SetupStep("caches", Msg("Shuffle the upgrade deck beside the map: {n} supply cache spaces draw "
                                             "from it.", n=count["cache"]), rulebook("Caches")))
    steps += [
        SetupStep("team", Msg("Put the {n} team miniatures ({names}) on the Start space.", n=n, names=names),
                  rulebook("Start and End spaces: The Team … placed on the start space during setup")),
        SetupStep("track", Msg("Threat marker on {threat}, Awareness marker on {awareness}, on a track of {track}: "
                               "they must not meet.", threat=issue.threat, awareness=issue.awareness, track=issue.track),
                  rulebook("Goal (Winning the Game); Awareness & Threat Cards")),
        SetupStep("hands", Msg("Each player shuffles their deck and draws {hand} cards ({cards} in all).", hand=HAND,
                               cards=HAND * n), rulebook("ON YOUR TURN 3.: refill your hand to 3 cards")),
        SetupStep("first", Msg("{first} plays first; then clockwise: {names}.", first=issue.members[0].name, names=names),
               rulebook("ON YOUR TURN: then it's the next player's turn (clockwise)")),
    ]
    return steps


def reminders(state: State) -> list[Reminder]:
    issue = state.issue
    if issue is None:
        return []
    said: list[Reminder] = []
    if issue.phase == "players":
        said.append(Reminder("he-hand", Msg("Play cards in any order, each resolved in full; discard cards to draw one at a "
                                            "time or to trigger your ability. Cards not played are discarded."),
                             rulebook("ON YOUR TURN 1. Play cards")))
        said.append(Reminder("he-reshuffle", Msg("No draw deck left when you must draw? Shuffle your discard pile into a "
                                                 "new one."), rulebook("Discard Pile")))
        if any(t.status == "revealed" for t in issue.tokens):
            said.append(Reminder("he-tokens", Msg("Place each revealed token's enemies as its enemy card's setup says "
                                                  "(spaces within the area), then take the token off the board."),
                                 rulebook("Enemies: Setup")))
    if issue.phase == "enemies":
        said.append(Reminder("he-refill", Msg("After the enemies: refill your hand to {n} cards.", n=HAND),
                             rulebook("ON YOUR TURN 3. Finally, refill your hand to 3 cards.")))
        said.append(Reminder("he-closing-in", Msg("A card that triggers when drawn (It's Closing In raises the Awareness): "
                                                  "resolve it and enter it here."), rulebook("ON YOUR TURN 3.")))
    if issue.phase == "won" and state.settings.mode == "story":
        said.append(Reminder("he-next-issue", Msg("Keep your decks and characters: the next issue starts with them."),
                             rulebook("To Set Up Story Mode")))
    return said
