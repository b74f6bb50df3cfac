"""KLAW: Were-Wars on the table: dealing the decks for this many players, and the card handling the
app can't see (draws, the discard pile, markers). Citations are the rulebook's headings (seeds/004_…)."""

from __future__ import annotations

from companion.games.klaw.rules import HAND_LIMIT as MAX_HAND, State, current_player, is_protected
from companion.games.table_help import Reminder, SetupStep, rulebook
from companion.i18n import Msg

# GAMEPLAY SEQUENCE, "A good rule of thumb would be": per player …
HOSTS_PER_PLAYER = 6
TOTEMS_PER_PLAYER = 6
ACTIONS_ITEMS_PER_PLAYER = 30
HOSTS_DEALT = 3  # GAME SETUP 2) "Players draw 3 Hosts at random"
MORE_DEALT = 5  # GAME SETUP 3) "draw 5 more cards … for a total of 8"

REMINDER_IDS = ("klaw-draw", "klaw-no-draw-after-combat", "klaw-defeated-host", "klaw-protected", "klaw-full-hand")


def setting_up(state: State) -> bool:
    return state.turn_no == 0 and not state.hosts and state.played is None


def deck_counts(players: int) -> dict[str, int]:
    """The cards of a game for this many players, and what is left after dealing."""
    hosts, totems, others = HOSTS_PER_PLAYER * players, TOTEMS_PER_PLAYER * players, ACTIONS_ITEMS_PER_PLAYER * players
    hosts_dealt = HOSTS_DEALT * players
    encounter = totems + others + (hosts - hosts_dealt)  # the Hosts left over are shuffled in (2))
    return {"hosts": hosts, "totems": totems, "others": others, "hosts_dealt": hosts_dealt,
            "hosts_left": hosts - hosts_dealt, "encounter": encounter,
            "encounter_after": encounter - MORE_DEALT * players}


def setup_steps(state: State) -> list[SetupStep]:
    n = len(state.players)
    c = deck_counts(n)
    order = ", ".join(p.name for p in state.players)
    return [
        SetupStep("deck", Msg("For {n} players take {hosts} Host cards, {totems} Totem cards and {others} Action and "
                              "Item cards (the full core deck suits 4 players).", n=n, hosts=c["hosts"],
                              totems=c["totems"], others=c["others"]), rulebook("GAMEPLAY SEQUENCE: a good rule of thumb")),
        SetupStep("hosts", Msg("Shuffle the {hosts} Hosts into a mini-deck; each player draws 3 at random ({dealt} in "
                               "all), then shuffle the other {left} into the Encounter Deck.", hosts=c["hosts"],
                               dealt=c["hosts_dealt"], left=c["hosts_left"]), rulebook("GAME SETUP 1) and 2)")),
        SetupStep("hands", Msg("Each player draws 5 cards from the Encounter Deck: 8 in each hidden hand, never more. "
                               "The Encounter Deck keeps {left} cards.", left=c["encounter_after"]), rulebook("GAME SETUP 3)")),
        SetupStep("order", Msg("Turn order, as agreed (say clockwise from the highest die roll): {order}.", order=order),
                  rulebook("STARTING ROUND")),
        SetupStep("reveal", Msg("In that order each player reveals one Host from hand, then may fortify it with a Totem "
                                "or an Item."), rulebook("STARTING ROUND")),
    ]


def reminders(state: State) -> list[Reminder]:
    if state.winner is not None:
        return []
    said: list[Reminder] = []
    if state.played is not None and state.played != "attack":
        said.append(Reminder("klaw-draw", Msg("End the turn by drawing one card from the Encounter Deck."),
                             rulebook("ENDING A TURN")))
    if state.played == "attack" and state.combat is None:
        said.append(Reminder("klaw-no-draw-after-combat", Msg("No card from the Encounter Deck after a combat."),
                             rulebook("ENDING A TURN")))
        said.append(Reminder("klaw-defeated-host", Msg(
            "A defeated Host goes to the Discard Pile, not back into the Encounter Deck; its Items go to the "
            "winner's hand, who discards above {n}.", n=MAX_HAND), rulebook("DEFEAT IS NOT THE END!")))
    protected = [h.name for h in state.hosts if is_protected(state, h)]
    if protected:
        said.append(Reminder("klaw-protected", Msg("PROTECTED marker on {hosts} until a full round has passed.",
                                                   hosts=", ".join(protected)), rulebook("FORTIFYING")))
    if state.played is None and state.combat is None and state.players:
        player = state.players[current_player(state)]
        if player.hand >= MAX_HAND:
            said.append(Reminder("klaw-full-hand", Msg(
                "{name} holds {n} cards: passing draws a ninth, and one must then be discarded.", name=player.name,
                n=MAX_HAND), rulebook("ENDING A TURN")))
    return said
