"""Biosphere 5: The Abyss's doom and leaders, and the automated Machine ("Man against Machine").

RULES.md §4 is the source; the rulebook is `seeds/003_…` (§3 The Abyss, §4 Man against Machine).
Read top to bottom: settings → The Abyss → the Machine's state → the Machine's tactics
(`machine_decide`, a pure function of the state and the revealed cards) → catastrophes against the
Machine (its rescue check, the one roll of the game) → actions and `apply` → what the app asks
(`moves`, and helpers such as `reveal_count`, `usable_tiers`, `ability_targets`).

The rescue check is a declared chance node: as many hand dice as the hand card level, each showing
a black hand on `hand_die_black_faces` of its 6 faces (named faces, so a table rolling physical dice
enters "black hand" / "blank"), with the exact odds. Every event is typed (`event(kind, text, …)`):
the Machine's reveal and decision, what a catastrophe cost whom, doom and leader changes.

Two ways to play, chosen in the settings:
- against the Machine (one human): the human reveals cards from the Machine's physical draw pile and
  taps which came up; the app decides what the Machine plays and why. Optionally with The Abyss's
  doom and leaders for the human.
- against people: the app tracks The Abyss (doom 0–8 and leader tiers 0–3 for 2–4 players).

Cards live in the catalog (`cards.py`). The state refers to cards by catalog id; the actions that
reveal cards carry the full card objects (looked up by the app), so the rules stay pure and a
replay uses the cards as they were when played, even if the catalog is corrected later.
"""

from __future__ import annotations

import re
from collections import Counter
from fractions import Fraction
from typing import Annotated, Any, Literal, Mapping, Optional, Sequence, Union

from pydantic import Field, field_validator, model_validator

from companion.games.base import (
    Dice,
    DieSpec,
    Event,
    FieldSpec,
    Game,
    InputError,
    Model,
    Move,
    Outcome,
    RuleError,
    event,
    field_specs,
    require_range,
    throw,
)
from companion.games.biosphere5.cards import (
    CATEGORY_LEVEL,
    CATEGORY_ORDER,
    CUBE_OF,
    KIND_OF_CUBE,
    Card,
    Category,
    Cube,
    Lower,
    Upper,
    achievement_block,
    achievement_label,
    achievement_value,
    card_value,
    cards_due,
    cube_label,
    level_block,
    lower_block,
    protection,
    require_complete,
    upper_block,
    value_label,
)

MAX_LEVEL = 8  # the Machine's hand card level runs 0–8; so does doom
MAX_DOOM = 8
MAX_HAND = 25  # a hand can't hold more than the deck
HAND_LIMIT = 8  # surplus cards are discarded at the end of the turn (§2.1)
NEW_HOPE_EXTRA = 3
BIO_NAME = "Biosphere 5/Attack"
# Cards revealed per hand card level 0..8 (RULES.md Decision from fig. 27).
DEFAULT_REVEAL = (0, 1, 2, 2, 3, 3, 4, 4, 5)
PROTECTION_NAME = {0: "none", 1: "makeshift", 2: "perfect"}


class Settings(Model):
    opponent: Literal["machine", "people"] = Field(
        "machine", description="Play alone against the Machine, or against people (The Abyss tracker)"
    )
    abyss: bool = Field(False, description="The Abyss extension: doom and leaders")
    players: int = Field(2, ge=2, le=4, description="Players at the table (against people)")
    names: list[Annotated[str, Field(min_length=1, max_length=20)]] = Field(
        default_factory=list, max_length=4, description="Player names (optional)"
    )
    difficulty: int = Field(2, ge=0, le=MAX_LEVEL, description="The Machine's starting hand card level")
    hand_die_black_faces: int = Field(
        1, ge=0, le=6, description="Faces of the hand die showing the black hand (a roll of 1..this counts)"
    )
    reveal_table: list[Annotated[int, Field(ge=0, le=MAX_LEVEL)]] = Field(
        default_factory=lambda: list(DEFAULT_REVEAL), min_length=9, max_length=9,
        description="Cards the Machine reveals at hand card level 0..8",
    )

    @model_validator(mode="after")
    def _something_to_track(self) -> "Settings":
        if self.opponent == "people" and not self.abyss:
            raise ValueError("against people the app tracks The Abyss: switch The Abyss on")
        return self


# --- The Abyss: doom and leaders (§3) -------------------------------------------------------------

Leader = Literal["strategist", "commander", "fighter", "true_believer"]
LEADERS: tuple[Leader, ...] = ("strategist", "commander", "fighter", "true_believer")
LEADER_NAMES = {"strategist": "Strategist", "commander": "Commander", "fighter": "Fighter",
                "true_believer": "True Believer"}
_FIGHTER_NOTE = " The player concerned picks the cards; missing hand cards are compensated."
# Each leader's abilities by tier (§3.5). A player may use the ability of their tier or a lower one.
LEADER_ABILITIES: dict[str, dict[int, tuple[str, str]]] = {
    "strategist": {
        1: ("Tactical Meeting", "Draw 4 new cards and discard 3 cards afterwards."),
        2: ("The Trap", "Search your draw pile for a card and put it in your hand; shuffle the draw pile "
                        "afterwards. You can't pick up a card from the discard pile."),
        3: ("The great Plan", "Draw up to 8 cards, one by one; you may stop drawing at any time."),
    },
    "commander": {
        1: ("Raising the Flag", "Use the second option of one of your achievements already built; the "
                                "achievement card stays on the board."),
        2: ("Concentrate Troops", "Cards you play further this turn are not discarded: put them back in "
                                  "your hand instead."),
        3: ("Victory is near!", "Increase the tier of all of your leaders to 3."),
    },
    "fighter": {
        1: ("Never give up!", "One opponent has to discard 2 cards." + _FIGHTER_NOTE),
        2: ("Scorched Earth", "Discard 1 to 3 hand cards; one opponent must discard twice as many."
                              + _FIGHTER_NOTE),
        3: ("Beat them all!", "One opponent has to discard cards equal to your doom level." + _FIGHTER_NOTE),
    },
    "true_believer": {
        1: ("Glimmer of Hope", "Decrease your doom level by one."),
        2: ("Without Hesitation", "Set your doom level to 4. Increase the doom level of all other players by 1."),
        3: ("Finally true", "Increase the doom level of one player by 2."),
    },
}


def ability_text(leader: str, tier: int) -> str:
    """'Tier 2 – Without Hesitation: Set your doom level to 4. …' (tier 0: no ability)."""
    if tier == 0:
        return "Tier 0 – no ability yet."
    title, text = LEADER_ABILITIES[leader][tier]
    return f"Tier {tier} – {title}: {text}"


MAX_TIER = 3
Tier = Annotated[int, Field(ge=0, le=MAX_TIER)]


class AbyssPlayer(Model):
    name: str
    doom: int = Field(0, ge=0, le=MAX_DOOM)
    out: bool = False  # reached doom 8: out of the game at once
    leaders: dict[Leader, Tier] = Field(default_factory=lambda: {lead: 0 for lead in LEADERS})


class Abyss(Model):
    players: list[AbyssPlayer]


def usable_tiers(player: AbyssPlayer, leader: str) -> list[int]:
    """The abilities a leader at tier N may use: tier N's, or any lower tier's instead (RULES.md §4,
    book §3.3: "abilities available from the lower tiers can be activated instead")."""
    return list(range(1, player.leaders[leader] + 1))


def ability_targets(abyss: Abyss, index: int, leader: str, tier: int) -> Optional[list[Optional[int]]]:
    """Whom an ability names: None when it names nobody. Finally true: one player still in (required).
    The Fighter's: an opponent still in, or None (the Machine, or not recorded)."""
    live = [i for i, p in enumerate(abyss.players) if not p.out]
    if (leader, tier) == ("true_believer", 3):
        return live
    if leader == "fighter":
        return [None] + [i for i in live if i != index]
    return None


# --- The Machine's state ("Man against Machine", §4) ----------------------------------------------


class MachineBoard(Model):
    level: int = Field(ge=0, le=MAX_LEVEL)  # hand card level (its "hand" is this number)
    achievements: dict[Category, Cube] = Field(default_factory=dict)  # one cube per category
    stored: Optional[str] = None  # catalog id of the Biosphere 5/Attack card on its board


class HumanBoard(Model):
    hand: int = Field(0, ge=0, le=MAX_HAND)  # entered by the player, kept up to date by the app
    achievements: dict[Category, Cube] = Field(default_factory=dict)
    achievement_this_turn: bool = False  # at most one achievement per turn


class Due(Model):
    """Cards the human must discard now (the app waits for `HumanDiscard`)."""

    cards: int = Field(ge=1, le=MAX_DOOM)
    why: str  # the instruction shown to the human
    rescue: Optional[Category] = None  # a rescue card of this category may be discarded instead
    then_machine: Optional[Category] = None  # the Machine's own catastrophe hits the Machine after you
    then_machine_name: str = ""


class Reveal(Model):
    """The Machine's turn in progress: what came up (catalog ids, in the order tapped)."""

    revealed: list[str] = Field(default_factory=list)
    new_hope_index: Optional[int] = None  # which revealed card was played as New Hope


Play = Literal["biosphere", "attack", "store", "achievement", "sabotage", "espionage", "new_hope",
               "catastrophe", "level_up", "nothing"]


# The Machine's Attack in older saves' words (see Decision._todays_words).
_LEGACY_ATTACK = re.compile(r"remove your (perfect|makeshift) (\w+) \((?:green|yellow) cube\), "
                            r"your highest-value achievement\.")


class Decision(Model):
    """What the Machine plays and why: the rule that fired and why the higher rules didn't."""

    rule: int = Field(ge=1, le=8)  # RULES.md §4 tactics 1–8 (New Hope's follow-up counts as 6)
    play: Play
    card_id: Optional[str] = None
    card_name: Optional[str] = None
    option: Optional[Literal["upper", "lower"]] = None
    option_name: Optional[str] = None  # the option played: "Deep Well", "New Hope", "Hurricane"
    category: Optional[Category] = None  # achievement placed, catastrophe played, or your achievement attacked
    cube: Optional[Cube] = None
    store_id: Optional[str] = None  # Biosphere 5/Attack card put on the Machine's board
    instruction: str  # one clear sentence for the table
    why: str
    not_fired: list[str] = Field(default_factory=list)
    cards: str  # what to do with the revealed cards

    @field_validator("instruction")
    @classmethod
    def _todays_words(cls, text: str) -> str:
        """Saves from before the human's achievements stopped being called cubes read in today's
        words, so they show them and still replay to the state today's rules make."""
        return _LEGACY_ATTACK.sub(r"remove your \1 \2 achievement, your highest-value one.", text)


Phase = Literal["machine", "new_hope", "discard", "human"]


class Solo(Model):
    round: int = Field(1, ge=1)  # a round: the Machine's turn, then the human's
    phase: Phase = "machine"  # the Machine always starts
    machine: MachineBoard
    human: HumanBoard = Field(default_factory=HumanBoard)
    catastrophes: int = 0  # catastrophes that hit the Machine this round (rescue check: first only)
    reveal: Optional[Reveal] = None
    due: Optional[Due] = None
    decision: Optional[Decision] = None  # the Machine's last decision, for the screen


class State(Model):
    settings: Settings
    solo: Optional[Solo] = None
    abyss: Optional[Abyss] = None
    result: Optional[str] = None  # "Won" / "Lost" / a short result; None while the game goes on
    reason: Optional[str] = None  # why it ended, in words


def new_state(settings: Settings) -> State:
    solo = None
    if settings.opponent == "machine":
        solo = Solo(machine=MachineBoard(level=settings.difficulty))
    abyss = None
    if settings.abyss:
        count = 1 if solo else settings.players
        abyss = Abyss(players=[AbyssPlayer(name=_player_name(settings, i)) for i in range(count)])
    return State(settings=settings.model_copy(deep=True), solo=solo, abyss=abyss)


def _player_name(settings: Settings, index: int) -> str:
    if index < len(settings.names):
        return settings.names[index]
    return "You" if settings.opponent == "machine" else f"Player {index + 1}"


# --- Revealing cards ------------------------------------------------------------------------------


def reveal_count(state: State) -> int:
    """How many cards the human reveals for the Machine now.

    0 when the stored Biosphere 5/Attack card can be played (rule 1: checked before revealing);
    3 after New Hope; else the reveal table at the hand card level (default 0,1,2,2,3,3,4,4,5).
    """
    solo = _solo(state)
    if solo.phase == "new_hope":
        return NEW_HOPE_EXTRA
    m = solo.machine
    if m.stored and (_biosphere_block(m) is None or _attack_block(solo) is None):
        return 0
    return state.settings.reveal_table[m.level]


def _check_reveal(state: State, cards: Sequence[Card], earlier: Sequence[Card] = ()) -> None:
    solo = _solo(state)
    expected = reveal_count(state)
    if len(cards) != expected:
        where = "for New Hope" if solo.phase == "new_hope" else f"at hand card level {solo.machine.level}"
        raise InputError(f"The Machine reveals {expected} card{'s' if expected != 1 else ''} {where}; "
                         f"{len(cards)} were tapped.")
    seen: dict[str, Card] = {}
    for card in [*earlier, *cards]:
        require_complete(card)
        if card.id in seen and seen[card.id] != card:
            raise InputError(f"Two different cards carry the id {card.id}.")
        seen[card.id] = card
    counts = Counter(c.id for c in [*earlier, *cards])
    for cid, n in counts.items():
        if n > seen[cid].copies:
            raise InputError(f"The deck has {seen[cid].copies} {seen[cid].name}; it was tapped {n} times this turn.")
    bios = [c for c in [*earlier, *cards] if c.is_biosphere]
    if bios and solo.machine.stored:
        raise InputError(f"{BIO_NAME} is stored on the Machine's board; it can't be revealed from the draw pile.")
    if len(bios) > 1:
        raise InputError(f"The deck has one {BIO_NAME} card; {len(bios)} were tapped.")


def reveal_action(catalog: Mapping[str, Card], ids: Sequence[str]) -> "MachineReveal":
    """Build the reveal action from tapped catalog ids (refuses an id not in the catalog yet)."""
    return MachineReveal(cards=[_lookup(catalog, i) for i in ids])


def reveal_more_action(state: State, catalog: Mapping[str, Card], ids: Sequence[str]) -> "MachineRevealMore":
    """Build New Hope's follow-up: the 3 new cards plus the ones revealed before (from the state)."""
    solo = _solo(state)
    earlier = solo.reveal.revealed if solo.reveal else []
    return MachineRevealMore(cards=[_lookup(catalog, i) for i in ids],
                             earlier=[_lookup(catalog, i) for i in earlier])


def _lookup(catalog: Mapping[str, Card], card_id: str) -> Card:
    if card_id not in catalog:
        raise InputError(f"The card {card_id} is not in the catalog yet: add it first.")
    return catalog[card_id]


# --- The Machine's tactics (RULES.md §4, book §4.3): first rule that applies ----------------------


def _biosphere_block(m: MachineBoard) -> Optional[str]:
    blocked = level_block(m.achievements, 4)
    if blocked:
        return f"Biosphere 5 {blocked.replace('level IV needs', 'needs')}"
    if m.level < 5:
        return f"Biosphere 5 needs hand card level 5 (the Machine has {m.level})"
    return None


def _attack_block(solo: Solo) -> Optional[str]:
    mine, theirs = len(solo.machine.achievements), len(solo.human.achievements)
    if theirs > mine:
        return None
    return f"Attack needs you to hold more achievements than the Machine (you {theirs}, the Machine {mine})"


def _catastrophe_block(solo: Solo, card: Card) -> Optional[str]:
    """Rule 7's condition for the Machine to play this card's catastrophe, or why not."""
    m, h, cat = solo.machine, solo.human, card.lower.category or ""
    blocked = level_block(m.achievements, card.lower.level or 1)
    if blocked:
        return blocked
    mine, yours = protection(m.achievements.get(cat)), protection(h.achievements.get(cat))
    if mine > yours:
        return None
    if mine == yours == 1:
        if m.level > h.hand:
            return None
        return (f"both have a makeshift {cat} achievement and the Machine's hand card level {m.level} "
                f"doesn't exceed your {h.hand} hand cards")
    return f"the Machine's {cat} protection ({PROTECTION_NAME[mine]}) doesn't beat yours ({PROTECTION_NAME[yours]})"


def _catastrophe_fires(solo: Solo, card: Card) -> str:
    m, h, cat = solo.machine, solo.human, card.lower.category or ""
    mine, yours = protection(m.achievements.get(cat)), protection(h.achievements.get(cat))
    if mine > yours:
        return f"the Machine's {cat} protection ({PROTECTION_NAME[mine]}) beats yours ({PROTECTION_NAME[yours]})"
    return (f"both have a makeshift {cat} achievement and the Machine's hand card level {m.level} "
            f"exceeds your {h.hand} hand cards")


def _best(cards: Sequence[Card]) -> Card:
    """The highest-value card; among equals the one revealed first."""
    return max(enumerate(cards), key=lambda ic: (card_value(ic[1]), -ic[0]))[1]


def _ranking(cards: Sequence[Card], best: Card) -> str:
    others = [c for c in cards if c is not best]
    if not others:
        return ""
    return (f" It has the highest card value ({value_label(best)}), above "
            + ", ".join(f"{c.name} ({value_label(c)})" for c in others) + ".")


def _option_label(card: Card, upper: bool) -> str:
    """'Shack' for an upper option; 'Drought (Shack)' for a lower one named apart from its card."""
    if upper:
        return card.upper_label
    return card.lower_label if card.lower_label == card.name else f"{card.lower_label} ({card.name})"


def _grouped(items: Sequence[tuple[str, str]]) -> str:
    """'Greenhouse, Garden: level III needs …; Shack: housing is held already' — one reason once."""
    groups: dict[str, list[str]] = {}
    for what, why in items:
        groups.setdefault(why, []).append(what)
    return "; ".join(f"{', '.join(whats)}: {why}" for why, whats in groups.items())


def _highest_human_achievement(solo: Solo) -> Category:
    return max(solo.human.achievements.items(), key=lambda kv: achievement_value(*kv))[0]


def _level_after_gain(level: int) -> str:
    new = min(MAX_LEVEL, level + 2)
    return f"{level} → {new}" if new != level else f"stays {level} (max {MAX_LEVEL})"


def _discard_all(cards: Sequence[Card], keep: Optional[Card] = None) -> str:
    if not cards:
        return "No cards were revealed."
    if keep is not None:
        return f"Put {keep.name} on the Machine's board; discard the other revealed cards."
    return "Discard all revealed cards."


def _decision_for(solo: Solo, play: str, card: Card, rule: int, why: str, not_fired: list[str],
                  cards_text: str, store: Optional[Card] = None) -> Decision:
    """The decision for playing `play` from `card`, with its one-line instruction."""
    m = solo.machine
    upper = play in ("biosphere", "achievement")
    common = dict(rule=rule, play=play, card_id=card.id, card_name=card.name, why=why,
                  option_name=card.upper_label if upper else card.lower_label,
                  not_fired=not_fired, cards=cards_text, store_id=store.id if store else None)
    if play == "biosphere":
        return Decision(**common, option="upper", category="salvation",
                        instruction=f"The Machine plays Biosphere 5 ({card.name}) and wins.")
    if play == "attack":
        target = _highest_human_achievement(solo)
        return Decision(**common, option="lower", category=target,
                        instruction=f"The Machine plays Attack ({card.name}): remove your "
                                    f"{achievement_label(target, solo.human.achievements[target])}, your "
                                    f"highest-value one.")
    if play == "achievement":
        cat, kind = card.upper.category, card.upper.kind or "perfect"
        cube = CUBE_OF[kind]
        return Decision(**common, option="upper", category=cat, cube=cube,
                        instruction=f"The Machine plays {card.upper_label} — {kind} {cat} achievement: "
                                    f"place a {cube} cube on {cat}.")
    if play == "sabotage":
        return Decision(**common, option="lower",
                        instruction=f"The Machine plays Sabotage ({card.name}): shuffle your hand and "
                                    f"discard the top three cards.")
    if play == "espionage":
        return Decision(**common, option="lower",
                        instruction=f"The Machine plays Espionage ({card.name}): discard your hand card "
                                    f"with the highest level.")
    if play == "new_hope":
        return Decision(**common, option="lower",
                        instruction=f"The Machine plays New Hope ({card.name}): hand card level "
                                    f"{_level_after_gain(m.level)}; reveal {NEW_HOPE_EXTRA} more cards.")
    if play == "catastrophe":
        cat = card.lower.category
        return Decision(**common, option="lower", category=cat,
                        instruction=f"The Machine plays {card.lower_label} ({cat} catastrophe, from "
                                    f"{card.name}): it hits you first, then the Machine.")
    raise AssertionError(play)  # pragma: no cover


def machine_decide(state: State, revealed: Sequence[Card]) -> Decision:
    """What the Machine plays with these revealed cards, and why (pure).

    On the Machine's turn `revealed` is the cards that came up (`reveal_count(state)` of them).
    After New Hope it is all the cards revealed this turn: the earlier ones, then the 3 new ones.
    """
    solo = _solo(state)
    if solo.phase == "new_hope":
        earlier = solo.reveal.revealed if solo.reveal else []
        if [c.id for c in revealed[: len(earlier)]] != earlier:
            raise InputError("After New Hope, pass the cards revealed before first, in the same order.")
        _check_reveal(state, revealed[len(earlier):], revealed[: len(earlier)])
        return _follow_up(solo, revealed)
    if solo.phase != "machine":
        raise RuleError("It is not the Machine's turn.")
    _check_reveal(state, revealed)
    return _tactics(solo, revealed)


def _tactics(solo: Solo, cards: Sequence[Card]) -> Decision:
    m = solo.machine
    held = set(m.achievements)
    skipped: list[str] = []

    # 1. The stored Biosphere 5/Attack card is checked at once; if playable nothing else is allowed.
    if m.stored:
        stored = Card(id=m.stored, name=BIO_NAME, upper=Upper(name="Biosphere 5", kind="biosphere"),
                      lower=Lower(name="Attack", kind="attack"))
        bio_no, attack_no = _biosphere_block(m), _attack_block(solo)
        if bio_no is None:
            return _decision_for(solo, "biosphere", stored, 1,
                                 f"Rule 1: the stored {BIO_NAME} card is checked first, and the Machine holds "
                                 f"nature and community with hand card level {m.level} ≥ 5.",
                                 [], "No cards are revealed.")
        if attack_no is None:
            return _decision_for(solo, "attack", stored, 1,
                                 f"Rule 1: the stored {BIO_NAME} card is checked first; {bio_no}, but you "
                                 f"hold {len(solo.human.achievements)} achievements, "
                                 f"more than the Machine's {len(m.achievements)}.",
                                 [], "No cards are revealed.")
        skipped.append(f"Rule 1 (stored card) did not apply: the stored {BIO_NAME} card can't be played "
                       f"({bio_no}; {attack_no}).")
    else:
        skipped.append(f"Rule 1 (stored card) did not apply: no {BIO_NAME} card is stored.")

    # 2–4. A revealed Biosphere 5/Attack card: win, attack, or store it.
    bio = next((c for c in cards if c.is_biosphere), None)
    if bio is None:
        skipped.append(f"Rules 2–4 (Biosphere 5, Attack, store) did not apply: the {BIO_NAME} card was not revealed.")
    else:
        bio_no = _biosphere_block(m)
        if bio_no is None:
            return _decision_for(solo, "biosphere", bio, 2,
                                 f"Rule 2: Biosphere 5 was revealed, the Machine holds nature and community and "
                                 f"its hand card level {m.level} ≥ 5.", skipped, "The game is over.")
        skipped.append(f"Rule 2 (Biosphere 5) did not apply: {bio_no}.")
        attack_no = _attack_block(solo)
        if attack_no is None:
            return _decision_for(solo, "attack", bio, 3,
                                 f"Rule 3: Attack was revealed and you hold more achievements "
                                 f"({len(solo.human.achievements)}) than the Machine ({len(m.achievements)}).",
                                 skipped, _discard_all(cards))
        skipped.append(f"Rule 3 (Attack) did not apply: {attack_no}.")
        return Decision(rule=4, play="store", card_id=bio.id, card_name=bio.name, store_id=bio.id,
                        instruction=f"Put {bio.name} on the Machine's board; hand card level "
                                    f"{_level_after_gain(m.level)}. The Machine's turn is over.",
                        why=f"Rule 4: {BIO_NAME} was revealed but neither option can be played.",
                        not_fired=skipped, cards=_discard_all(cards, keep=bio))

    # 5. The highest-value playable achievement.
    achievements = [c for c in cards if c.upper.kind in ("perfect", "makeshift")]
    playable = [c for c in achievements if upper_block(c, held) is None]
    if playable:
        best = _best(playable)
        return _decision_for(solo, "achievement", best, 5,
                             "Rule 5: a playable achievement; the Machine plays the highest-value one."
                             + _ranking(playable, best), skipped, _discard_all(cards))
    if achievements:
        skipped.append("Rule 5 (achievement) did not apply: none is playable — "
                       + _grouped([(c.upper_label, upper_block(c, held) or "") for c in achievements]) + ".")
    else:
        skipped.append("Rule 5 (achievement) did not apply: no achievement was revealed.")

    # 6. Sabotage, then Espionage, then New Hope.
    blocked_lowers: list[str] = []
    for kind, label in (("sabotage", "Sabotage"), ("espionage", "Espionage"), ("new_hope", "New Hope")):
        options = [c for c in cards if c.lower.kind == kind]
        ok = [c for c in options if lower_block(c, held) is None]
        if ok:
            best = _best(ok)
            before = (" " + " ".join(blocked_lowers)) if blocked_lowers else ""
            return _decision_for(solo, kind, best, 6,
                                 f"Rule 6: {label} is playable (Sabotage, Espionage and New Hope come in that "
                                 f"order).{before}" + _ranking(ok, best), skipped,
                                 "Keep the revealed cards out; reveal 3 more." if kind == "new_hope"
                                 else _discard_all(cards))
        if options:
            blocked_lowers.append(f"{label} can't be played: {lower_block(options[0], held)}.")
    skipped.append("Rule 6 (Sabotage, Espionage, New Hope) did not apply: "
                   + (" ".join(blocked_lowers) if blocked_lowers else "none was revealed."))

    # 7. A catastrophe where the Machine is better protected than you.
    catastrophes = [c for c in cards if c.lower.kind == "catastrophe"]
    ok = [c for c in catastrophes if _catastrophe_block(solo, c) is None]
    if ok:
        best = _best(ok)
        return _decision_for(solo, "catastrophe", best, 7,
                             f"Rule 7: {best.lower_label} — {_catastrophe_fires(solo, best)}." + _ranking(ok, best),
                             skipped, _discard_all(cards))
    if catastrophes:
        skipped.append("Rule 7 (catastrophe) did not apply: "
                       + _grouped([(_option_label(c, False), _catastrophe_block(solo, c) or "")
                                   for c in catastrophes]) + ".")
    else:
        skipped.append("Rule 7 (catastrophe) did not apply: no catastrophe was revealed.")

    # 8. Nothing fits.
    return Decision(rule=8, play="level_up",
                    instruction=f"Nothing fits: the Machine's hand card level {_level_after_gain(m.level)}.",
                    why="Rule 8: no higher rule applies" + ("" if cards else " (no cards were revealed)") + ".",
                    not_fired=skipped, cards=_discard_all(cards))


def _machine_options(solo: Solo, card: Card) -> tuple[list[str], list[tuple[str, str]]]:
    """The plays this card offers the Machine now, in tactics order, and (option, why not) for the rest."""
    m, held = solo.machine, set(solo.machine.achievements)
    blocks: list[tuple[str, Optional[str]]] = []  # (play, reason or None when playable)
    if card.upper.kind == "biosphere":
        blocks.append(("biosphere", _biosphere_block(m)))
    elif card.upper.kind in ("perfect", "makeshift"):
        blocks.append(("achievement", upper_block(card, held)))
    kind = card.lower.kind or ""
    if kind == "attack":
        blocks.append(("attack", _attack_block(solo)))
    elif kind == "new_hope":
        blocks.append(("new_hope", "a second New Hope can't be chosen"))
    elif kind in ("sabotage", "espionage"):
        blocks.append((kind, lower_block(card, held)))
    elif kind == "catastrophe":
        blocks.append(("catastrophe", _catastrophe_block(solo, card)))
    plays = [play for play, why in blocks if why is None]
    nots = [(_option_label(card, play in ("biosphere", "achievement")), why) for play, why in blocks if why]
    return plays, nots


def _follow_up(solo: Solo, cards: Sequence[Card]) -> Decision:
    """New Hope's follow-up: the highest-value playable option among all revealed (no second New Hope)."""
    used = solo.reveal.new_hope_index if solo.reveal else None
    candidates: list[tuple[Card, str]] = []
    unplayable: list[tuple[str, str]] = []
    for i, card in enumerate(cards):
        if i == used:
            continue
        plays, nots = _machine_options(solo, card)
        if plays:
            candidates.append((card, plays[0]))
        else:
            unplayable += nots
    bio = next((c for i, c in enumerate(cards) if c.is_biosphere and i != used), None)
    not_fired = ["Not playable: " + _grouped(unplayable) + "."] if unplayable else []
    if not candidates:
        store = bio
        return Decision(rule=6, play="nothing", store_id=store.id if store else None,
                        instruction="No revealed card is playable: the Machine plays nothing more this turn"
                                    + (f"; put {store.name} on its board." if store else "."),
                        why=f"New Hope: none of the {len(cards)} revealed cards has a playable option "
                            f"(New Hope was the Machine's move).",
                        not_fired=not_fired, cards=_discard_all(cards, keep=store))
    best = _best([c for c, _ in candidates])
    play = next(p for c, p in candidates if c is best)
    store = bio if bio is not None and bio is not best else None
    why = (f"New Hope: the highest-value playable option among all {len(cards)} revealed cards (a second "
           f"New Hope can't be chosen)." + _ranking([c for c, _ in candidates], best))
    return _decision_for(solo, play, best, 6, why, not_fired, _discard_all(cards, keep=store), store)


# --- Catastrophes against the Machine (RULES.md Decision from the book's examples #3 and #4) -----


def hand_die(black_faces: int, count: int = 1) -> DieSpec:
    """The Machine's hand die: `black_faces` of its 6 faces show the black hand (the setting), the
    others are blank. Face value v shows faces[v - 1], so a roll of 1..black_faces is a black hand.

    >>> die = hand_die(1, count=3)
    >>> die.label, die.face_name(1), die.face_name(4), die.choices()
    ('hand dice', 'black hand', 'blank', [('black hand', 1), ('blank', 2)])
    """
    return DieSpec(sides=6, faces=("black hand",) * black_faces + ("blank",) * (6 - black_faces),
                   name="hand die" if count == 1 else "hand dice")


def rescue_outcomes(black_faces: int, count: int, due: int) -> list[Outcome]:
    """The rescue check's two outcomes, exactly: any black hand among `count` dice, or none.

    >>> [f"{o.label}: {o.percent}" for o in rescue_outcomes(1, 2, due=4)]  # 1 − (5/6)² = 11/36
    ['any black hand saves the Machine: 31%', 'no black hand: it pays the 4 cards due: 69%']
    """
    saved = 1 - Fraction(6 - black_faces, 6) ** count
    return [Outcome(label="any black hand saves the Machine", probability=float(saved)),
            Outcome(label=f"no black hand: it pays the {due} cards due", probability=float(1 - saved))]


def _set_machine_level(state: State, new: int, events: list[Event]) -> None:
    m = _solo(state).machine
    m.level = max(0, min(MAX_LEVEL, new))
    if m.level == 0 and m.stored:
        events.append(event("stored_discarded", f"Hand card level 0: discard the stored {BIO_NAME} card from the "
                                                f"Machine's board.", card=m.stored))
        m.stored = None


def _machine_suffers(state: State, category: Category, name: str, dice: Dice, events: list[Event]) -> None:
    """A catastrophe of `category` hits the Machine (changes `state`, a copy owned by `apply`).

    Cards due: 4 unprotected, 2 with a makeshift, 0 with a perfect achievement. For the first
    catastrophe of the round the Machine rolls as many hand dice as its level: any black hand → it
    loses only 1 level. Otherwise the level pays what it can and achievements pay the rest, lowest
    value first (yellow before green); if even that is not enough the Machine is out.
    """
    solo = _solo(state)
    m = solo.machine
    cube = m.achievements.get(category)
    due = cards_due(cube)
    first = solo.catastrophes == 0
    solo.catastrophes += 1
    shield = PROTECTION_NAME[protection(cube)]
    hit = dict(category=category, name=name, due=due, protection=shield)
    if due == 0:
        events.append(event("machine_hit", f"{name} against the Machine: its perfect {category} achievement "
                                           f"protects it; nothing to discard.", **hit))
        return
    said = f"makeshift {category} achievement" if cube else f"no {category} protection"
    events.append(event("machine_hit", f"{name} against the Machine: {said} → {due} cards due.", **hit))
    if not first:
        events.append(event("rescue_check", "No rescue check: this is not the first catastrophe this round.",
                            rolled=False, reason="not the first catastrophe this round"))
    elif m.level == 0:
        events.append(event("rescue_check", "Rescue check: hand card level 0, so no hand dice to roll.",
                            rolled=False, reason="hand card level 0"))
    else:
        black = state.settings.hand_die_black_faces
        die = hand_die(black, m.level)
        faces = throw(dice, m.level, f"the Machine's rescue check against {name}", die=die, who="The Machine",
                      outcomes=rescue_outcomes(black, m.level, due))
        shown = [die.face_name(f) for f in faces]
        saved = "black hand" in shown
        told = f"Rescue check: {m.level} {die.label} {'shows' if m.level == 1 else 'show'} {', '.join(shown)}"
        check = dict(rolled=True, faces=faces, shown=shown, saved=saved)
        if saved:
            events.append(event("rescue_check", f"{told} → a black hand: the Machine loses only 1 level, "
                                                f"{m.level} → {m.level - 1}.",
                                level_from=m.level, level_to=m.level - 1, **check))
            _set_machine_level(state, m.level - 1, events)
            return
        events.append(event("rescue_check", f"{told} → no black hand.", **check))
    paid = min(m.level, due)
    rest = due - paid
    if paid:
        events.append(event("machine_pays", f"The Machine's hand card level pays {paid}: {m.level} → {m.level - paid}.",
                            paid=paid, level_from=m.level, level_to=m.level - paid))
    _set_machine_level(state, m.level - paid, events)
    if rest == 0:
        return
    order = sorted(m.achievements.items(), key=lambda kv: achievement_value(*kv))
    lost = order[:rest]
    for cat, c in lost:
        del m.achievements[cat]
    if lost:
        events.append(event("achievement_lost", f"{rest} more due: the Machine loses its lowest-value achievement"
                                                f"{'s' if len(lost) > 1 else ''}: "
                                                + ", ".join(cube_label(*kv) for kv in lost) + ".",
                            side="machine", lost=dict(lost)))
    if rest > len(lost):
        _finish(state, "Won", f"The Machine couldn't cover {rest - len(lost)} more card"
                              f"{'s' if rest - len(lost) > 1 else ''} with its level and achievements: it is out.",
                events)


# --- Actions --------------------------------------------------------------------------------------


class MachineReveal(Model):
    """The cards that came up from the Machine's draw pile (full catalog cards, in order)."""

    kind: Literal["machine_reveal"] = "machine_reveal"
    cards: list[Card] = Field(default_factory=list, max_length=8, description="The cards that came up")


class MachineRevealMore(Model):
    """New Hope's 3 extra cards; `earlier` repeats the cards revealed before (see reveal_more_action)."""

    kind: Literal["machine_reveal_more"] = "machine_reveal_more"
    cards: list[Card] = Field(default_factory=list, max_length=8, description="The cards that came up")
    earlier: list[Card] = Field(default_factory=list, max_length=8, description="The cards revealed before")


class HumanDiscard(Model):
    """The human pays what is due: hand cards first, then `give_up` achievements for missing cards;
    or, against a catastrophe, one matching rescue card instead (`rescue`)."""

    kind: Literal["human_discard"] = "human_discard"
    rescue: bool = Field(False, description="A rescue card instead")
    give_up: list[Category] = Field(default_factory=list, max_length=7, description="Achievements to give up")


class HumanAchievement(Model):
    kind: Literal["human_achievement"] = "human_achievement"
    category: Category
    cube: Cube = Field(description="Green (perfect) or yellow (makeshift)")


class HumanCatastrophe(Model):
    """The human plays a catastrophe; `rescue`: a matching rescue card is discarded with it (§2.3.3)."""

    kind: Literal["human_catastrophe"] = "human_catastrophe"
    category: Category
    rescue: bool = False
    name: str = Field("", max_length=40)  # e.g. "Hurricane", for the history


class HumanEspionage(Model):
    kind: Literal["human_espionage"] = "human_espionage"


class HumanSabotage(Model):
    kind: Literal["human_sabotage"] = "human_sabotage"


class HumanAttack(Model):
    kind: Literal["human_attack"] = "human_attack"
    category: Category  # the Machine's cube to remove (the attacker chooses)


class HumanBiosphere(Model):
    kind: Literal["human_biosphere"] = "human_biosphere"


class SetHand(Model):
    """Correct the human's hand size (after drawing cards, say)."""

    kind: Literal["set_hand"] = "set_hand"
    cards: int = Field(ge=0, le=MAX_HAND, description="Your hand cards")


class EndTurn(Model):
    kind: Literal["end_turn"] = "end_turn"


class DoomDrawPile(Model):
    """Doom cause 1: your draw pile is empty (+2)."""

    kind: Literal["doom_draw_pile"] = "doom_draw_pile"
    player: int = Field(description="Player")


class DoomMissing(Model):
    """Doom cause 2: achievements missing when compensating discards (+1 each)."""

    kind: Literal["doom_missing"] = "doom_missing"
    player: int = Field(description="Player")
    count: int = Field(1, ge=1, le=MAX_DOOM, description="Achievements missing")


class DoomAttack(Model):
    """Doom cause 3: Attack (attacker +1, attacked +2). None = the Machine (it has no doom)."""

    kind: Literal["doom_attack"] = "doom_attack"
    attacker: Optional[int] = Field(None, description="Played by")
    target: Optional[int] = Field(None, description="Played on")


class DoomSpy(Model):
    """Doom cause 4: Espionage or Sabotage (both +1). None = the Machine."""

    kind: Literal["doom_spy"] = "doom_spy"
    by: Optional[int] = Field(None, description="Played by")
    target: Optional[int] = Field(None, description="Played on")


class DoomFaceUp(Model):
    """Doom cause 5: Biosphere 5 is one of the face-up cards at the end of your turn (+1)."""

    kind: Literal["doom_face_up"] = "doom_face_up"
    player: int = Field(description="Player")


class DoomDecrease(Model):
    """The 5th move option: discard cards equal to your doom level, then doom −1."""

    kind: Literal["doom_decrease"] = "doom_decrease"
    player: int = Field(description="Player")


class LeaderPromote(Model):
    """Better Leadership: one leader up one tier (max 3)."""

    kind: Literal["leader_promote"] = "leader_promote"
    player: int = Field(description="Player")
    leader: Leader


class LeaderAbility(Model):
    """Shown Strength: use an ability of `tier` (up to the leader's tier). `target` for Finally true
    (required) and the Fighter's abilities (optional, for the history)."""

    kind: Literal["leader_ability"] = "leader_ability"
    player: int = Field(description="Player")
    leader: Leader
    tier: int = Field(ge=1, le=MAX_TIER, description="Tier of the ability")
    target: Optional[int] = Field(None, description="On whom")


class DeclareBiosphere(Model):
    """Against people: this player established Biosphere 5 and wins."""

    kind: Literal["declare_biosphere"] = "declare_biosphere"
    player: int = Field(description="Player")


Action = Annotated[
    Union[MachineReveal, MachineRevealMore, HumanDiscard, HumanAchievement, HumanCatastrophe, HumanEspionage,
          HumanSabotage, HumanAttack, HumanBiosphere, SetHand, EndTurn, DoomDrawPile, DoomMissing, DoomAttack,
          DoomSpy, DoomFaceUp, DoomDecrease, LeaderPromote, LeaderAbility, DeclareBiosphere],
    Field(discriminator="kind"),
]

SOLO_KINDS = {"machine_reveal", "machine_reveal_more", "human_discard", "human_achievement", "human_catastrophe",
              "human_espionage", "human_sabotage", "human_attack", "human_biosphere", "set_hand", "end_turn"}
ABYSS_KINDS = {"doom_draw_pile", "doom_missing", "doom_attack", "doom_spy", "doom_face_up", "doom_decrease",
               "leader_promote", "leader_ability"}


# --- apply ----------------------------------------------------------------------------------------


def apply(state: State, action: Action, dice: Dice) -> tuple[State, list[Event]]:
    if state.result is not None:
        raise RuleError(f"The game is over: {state.result}.")
    if action.kind in SOLO_KINDS and state.solo is None:
        raise RuleError("That move is for a game against the Machine.")
    if action.kind in ABYSS_KINDS and state.abyss is None:
        raise RuleError("That move belongs to The Abyss, which is off in this game.")
    if action.kind == "declare_biosphere" and state.solo is not None:
        raise RuleError("Against the Machine, play Biosphere 5 with the human Biosphere 5 move.")
    # A copy through plain data: several times quicker than a deep copy, and `moves` runs apply often.
    new = State.model_validate(state.model_dump())
    events: list[Event] = []
    _HANDLERS[action.kind](new, action, dice, events)
    if new.abyss is not None:
        _check_abyss_end(new, events)  # once, after all of the move's doom changes: several may go out at once
    return new, events


def _solo(state: State) -> Solo:
    if state.solo is None:
        raise RuleError("This game has no Machine.")
    return state.solo


def _finish(state: State, result: str, reason: str, events: list[Event]) -> None:
    if state.result is None:
        state.result, state.reason = result, reason
        events.append(event("game_over", f"{result}: {reason}", result=result, reason=reason))


def _need_phase(solo: Solo, *phases: str) -> None:
    if solo.phase not in phases:
        now = {"machine": "it is the Machine's turn: reveal its cards",
               "new_hope": "the Machine played New Hope: reveal 3 more cards",
               "discard": "you must discard first", "human": "it is your turn"}[solo.phase]
        raise RuleError(f"Not now: {now}.")


# Machine's turn --------------------------------------------------------------------------------


def _machine_reveal(state: State, a: MachineReveal, dice: Dice, events: list[Event]) -> None:
    solo = _solo(state)
    _need_phase(solo, "machine")
    decision = machine_decide(state, a.cards)
    level = solo.machine.level
    shown = dict(cards=[c.id for c in a.cards], level=level)
    if a.cards:
        events.append(event("machine_reveal", f"The Machine reveals {len(a.cards)} (hand card level {level}): "
                                              f"{', '.join(c.name for c in a.cards)}.", **shown))
    elif decision.rule == 1:
        events.append(event("machine_reveal", f"The stored {BIO_NAME} card is checked before revealing.",
                            stored_checked=True, **shown))
    else:
        events.append(event("machine_reveal", f"The Machine reveals no cards (hand card level {level}).", **shown))
    solo.reveal = Reveal(revealed=[c.id for c in a.cards])
    if decision.play == "new_hope":
        solo.reveal.new_hope_index = next(i for i, c in enumerate(a.cards) if c.id == decision.card_id
                                          and c.lower.kind == "new_hope")
    _carry_out(state, decision, dice, events)


def _machine_reveal_more(state: State, a: MachineRevealMore, dice: Dice, events: list[Event]) -> None:
    solo = _solo(state)
    _need_phase(solo, "new_hope")
    decision = machine_decide(state, [*a.earlier, *a.cards])
    events.append(event("new_hope_reveal", f"New Hope: {len(a.cards)} more revealed: "
                                           f"{', '.join(c.name for c in a.cards)}.", cards=[c.id for c in a.cards]))
    _carry_out(state, decision, dice, events)


def _carry_out(state: State, d: Decision, dice: Dice, events: list[Event]) -> None:
    """Apply the Machine's decision to the state and say so."""
    solo = _solo(state)
    m, h = solo.machine, solo.human
    solo.decision = d
    played = dict(card=d.card_id, option=d.option_name, category=d.category, cube=d.cube)
    events.append(event("machine_decision", d.instruction, rule=d.rule, play=d.play,
                        **{k: v for k, v in played.items() if v is not None}))
    events.append(event("machine_why", f"Why: {d.why}", rule=d.rule))
    events.extend(event("rule_not_fired", x) for x in d.not_fired)
    if d.play != "new_hope":
        events.append(event("revealed_cards", d.cards, **({"keep": d.store_id} if d.store_id else {})))
    if d.store_id and d.play != "store":
        events.append(event("machine_stores", f"{BIO_NAME} is stored on the Machine's board (it wasn't played).",
                            card=d.store_id))
        m.stored = d.store_id
    if d.play == "biosphere":
        if d.rule == 1:
            m.stored = None
        _finish(state, "Lost", "The Machine established Biosphere 5.", events)
    elif d.play == "attack":
        cat = d.category
        assert cat is not None
        events.append(event("achievement_lost", f"Your {achievement_label(cat, h.achievements[cat])} is destroyed.",
                            side="human", lost={cat: h.achievements[cat]}))
        del h.achievements[cat]
        if d.rule == 1:
            m.stored = None
    elif d.play == "store":
        m.stored = d.store_id
        _set_machine_level(state, m.level + 2, events)
    elif d.play == "achievement":
        assert d.category is not None and d.cube is not None
        m.achievements[d.category] = d.cube
    elif d.play == "sabotage":
        solo.due = Due(cards=3, why="Sabotage: shuffle your hand and discard the top three cards. If you have "
                                    "fewer, give up one achievement for each card missing.")
    elif d.play == "espionage":
        solo.due = Due(cards=1, why="Espionage: discard your hand card with the highest level. With no cards, "
                                    "give up an achievement.")
    elif d.play == "new_hope":
        _set_machine_level(state, m.level + 2, events)
        solo.phase = "new_hope"
        return
    elif d.play == "catastrophe":
        cat = d.category
        assert cat is not None
        name = d.option_name or cat
        mine = h.achievements.get(cat)
        due = cards_due(mine)
        # The catastrophe hits the human first and the Machine last.
        if due:
            shield = f"your makeshift {cat} achievement" if mine else f"you have no {cat} protection"
            solo.due = Due(cards=due, rescue=cat, then_machine=cat, then_machine_name=name,
                           why=f"{name} hits you first: {shield} → discard {due} cards, or one {cat} rescue "
                               f"card instead. If you have too few cards, give up one achievement for each "
                               f"card missing.")
        else:
            events.append(event("human_protected", f"Your perfect {cat} achievement protects you from {name}.",
                                category=cat, by="perfect"))
            _machine_suffers(state, cat, name, dice, events)
    elif d.play == "level_up":
        _set_machine_level(state, m.level + 2, events)
    solo.reveal = None
    _after_machine(state, events)


def _after_machine(state: State, events: list[Event]) -> None:
    solo = _solo(state)
    if solo.due:
        solo.phase = "discard"
        events.append(_due_event(solo.due))
    else:
        solo.phase = "human"


def _due_event(due: Due) -> Event:
    return event("discard_due", due.why, cards=due.cards, rescue=due.rescue, then_machine=due.then_machine)


# Human's discards ------------------------------------------------------------------------------


def discard_terms(solo: Solo) -> tuple[int, int, int]:
    """What paying the discard due takes: (hand cards discarded, cards short, achievements to give up).
    Hand cards go first; each card missing costs an achievement while there are any."""
    assert solo.due is not None
    h = solo.human
    paid = min(solo.due.cards, h.hand)
    short = solo.due.cards - paid
    return paid, short, min(short, len(h.achievements))


def _human_discard(state: State, a: HumanDiscard, dice: Dice, events: list[Event]) -> None:
    solo = _solo(state)
    _need_phase(solo, "discard")
    due, h = solo.due, solo.human
    assert due is not None
    if a.rescue:
        if due.rescue is None:
            raise RuleError("A rescue card helps only against a catastrophe.")
        if a.give_up:
            raise InputError("With a rescue card you give up nothing else: leave the achievements empty.")
        if h.hand < 1:
            raise RuleError("You have no hand card, so no rescue card to discard.")
        h.hand -= 1
        events.append(event("human_rescue", f"You discard a {due.rescue} rescue card instead of {due.cards} cards.",
                            category=due.rescue, instead_of=due.cards))
    else:
        paid, short, need = discard_terms(solo)
        if len(set(a.give_up)) != len(a.give_up):
            raise InputError("Name each achievement to give up once.")
        for cat in a.give_up:
            if cat not in h.achievements:
                raise RuleError(f"You hold no {cat} achievement to give up.")
        if len(a.give_up) != need:
            if short == 0:
                raise RuleError(f"Your {h.hand} hand cards cover the {due.cards} due: give up no achievement.")
            raise RuleError(f"Hand cards go first: you are {short} card{'s' if short > 1 else ''} short, so give up "
                            f"{need} achievement{'s' if need != 1 else ''} (you named {len(a.give_up)}).")
        h.hand -= paid
        said = (f"You discard {paid} card{'s' if paid != 1 else ''} (hand {h.hand + paid} → {h.hand})." if paid
                else "You have no hand cards to discard.")
        events.append(event("human_discard", said, cards=paid, hand_from=h.hand + paid, hand_to=h.hand))
        for cat in a.give_up:
            events.append(event("achievement_lost", f"You give up your {achievement_label(cat, h.achievements[cat])}.",
                                side="human", lost={cat: h.achievements[cat]}))
            del h.achievements[cat]
        missing = short - need
        if missing:
            if state.abyss is not None:
                # The Abyss (§3.4): no loss for missing cards; doom +1 per achievement missing instead.
                _add_doom(state, 0, missing, "achievements missing to compensate", events)
                _check_abyss_end(state, events)
            else:
                _finish(state, "Lost", f"You couldn't cover {missing} card{'s' if missing > 1 else ''} with hand "
                                       f"cards and achievements: the Machine wins.", events)
    solo.due = None
    if due.then_machine and state.result is None:
        _machine_suffers(state, due.then_machine, due.then_machine_name, dice, events)
    if solo.due is None:
        solo.phase = "human"


# Human's turn ----------------------------------------------------------------------------------


# Every play costs a card, so with none counted this is the first thing the human is told (a new
# game starts at 0: the first turn asks for the hand size rather than for a level).
NO_HAND = "Enter your hand size first: the app counts 0 cards in your hand."


def _need_hand(h: HumanBoard) -> None:
    if h.hand == 0:
        raise RuleError(NO_HAND)


def _play_card(h: HumanBoard, count: int = 1) -> None:
    _need_hand(h)
    if h.hand < count:
        raise RuleError(f"You need {count} hand card{'s' if count > 1 else ''} for that; you have {h.hand} "
                        f"(correct your hand size if it is wrong).")
    h.hand -= count


def _human_achievement(state: State, a: HumanAchievement, dice: Dice, events: list[Event]) -> None:
    solo = _solo(state)
    _need_phase(solo, "human")
    _need_hand(solo.human)
    h = solo.human
    if a.category == "salvation":
        raise InputError("Achievements are water, housing, security, production, nature or community.")
    if h.achievement_this_turn:
        raise RuleError("At most one achievement per turn (§2.1).")
    blocked = achievement_block(h.achievements, a.category, CATEGORY_LEVEL[a.category])
    if blocked:
        raise RuleError(f"You can't place a {a.category} achievement: {blocked}.")
    _play_card(h)
    h.achievements[a.category] = a.cube
    h.achievement_this_turn = True
    events.append(event("human_achievement", f"You play a {achievement_label(a.category, a.cube)}.",
                        category=a.category, cube=a.cube))


def _human_catastrophe(state: State, a: HumanCatastrophe, dice: Dice, events: list[Event]) -> None:
    solo = _solo(state)
    _need_phase(solo, "human")
    _need_hand(solo.human)
    h, cat = solo.human, a.category
    if cat == "salvation":
        raise InputError("Catastrophes are of water, housing, security, production, nature or community.")
    blocked = level_block(h.achievements, CATEGORY_LEVEL[cat])
    if blocked:
        raise RuleError(f"You can't play a {cat} catastrophe: {blocked}.")
    mine = h.achievements.get(cat)
    if mine is None and not a.rescue:
        raise RuleError(f"You can't play a {cat} catastrophe without {cat} protection (you would discard 4 "
                        f"yourself), unless you discard a {cat} rescue card with it.")
    _play_card(h, 2 if a.rescue else 1)
    name = a.name or f"a {cat} catastrophe"
    events.append(event("human_catastrophe",
                        f"You play {name}" + (f" and discard a {cat} rescue card with it." if a.rescue else "."),
                        category=cat, name=a.name, rescue=a.rescue))
    # The Machine is hit first; the player who played the catastrophe is affected last (§2.3.3).
    _machine_suffers(state, cat, name, dice, events)
    if state.result is not None:
        return
    due = cards_due(mine)
    if a.rescue:
        events.append(event("human_protected", f"Your {cat} rescue card covers you: nothing more to discard.",
                            category=cat, by="rescue"))
    elif due == 0:
        events.append(event("human_protected", f"Your perfect {cat} achievement protects you.",
                            category=cat, by="perfect"))
    else:
        solo.due = Due(cards=due, rescue=cat,
                       why=f"{name} hits you last: your makeshift {cat} achievement → discard {due} cards, or one "
                           f"{cat} rescue card instead. If you have too few cards, give up one achievement for "
                           f"each card missing.")
        solo.phase = "discard"
        events.append(_due_event(solo.due))


def _human_espionage(state: State, a: HumanEspionage, dice: Dice, events: list[Event]) -> None:
    solo = _solo(state)
    _need_phase(solo, "human")
    _need_hand(solo.human)
    blocked = level_block(solo.human.achievements, 2)
    if blocked:
        raise RuleError(f"You can't play Espionage (level II): {blocked}.")
    _play_card(solo.human)
    m = solo.machine
    new = max(0, m.level - 1)
    events.append(event("human_espionage",
                        f"Espionage: reveal {m.level} card{'s' if m.level != 1 else ''} from the Machine's draw "
                        f"pile (its hand card level), put the one you choose on its discard pile and shuffle the "
                        f"rest back; hand card level {m.level} → {new}.", reveal=m.level, level_from=m.level,
                        level_to=new))
    _set_machine_level(state, m.level - 1, events)


def _human_sabotage(state: State, a: HumanSabotage, dice: Dice, events: list[Event]) -> None:
    solo = _solo(state)
    _need_phase(solo, "human")
    _need_hand(solo.human)
    blocked = level_block(solo.human.achievements, 3)
    if blocked:
        raise RuleError(f"You can't play Sabotage (level III): {blocked}.")
    _play_card(solo.human)
    m = solo.machine
    new = max(0, m.level - 3)
    events.append(event("human_sabotage",
                        f"Sabotage: put the top three cards of the Machine's draw pile on its discard pile; hand "
                        f"card level {m.level} → {new}" + (" (never below 0)." if m.level < 3 else "."),
                        level_from=m.level, level_to=new))
    _set_machine_level(state, m.level - 3, events)


def _human_attack(state: State, a: HumanAttack, dice: Dice, events: list[Event]) -> None:
    solo = _solo(state)
    _need_phase(solo, "human")
    _need_hand(solo.human)
    m = solo.machine
    if not m.achievements:
        raise RuleError("Attack needs a target: the Machine holds no achievement.")
    if a.category not in m.achievements:
        held = ", ".join(m.achievements)
        raise RuleError(f"The Machine holds no {a.category} achievement (it holds {held}).")
    _play_card(solo.human)
    cube = m.achievements[a.category]
    events.append(event("human_attack", f"Attack: remove the Machine's {cube_label(a.category, cube)}.",
                        category=a.category, cube=cube))
    del m.achievements[a.category]


def _human_biosphere(state: State, a: HumanBiosphere, dice: Dice, events: list[Event]) -> None:
    solo = _solo(state)
    _need_phase(solo, "human")
    _need_hand(solo.human)
    h = solo.human
    blocked = level_block(h.achievements, 4)
    if blocked:
        raise RuleError(f"You can't play Biosphere 5: it {blocked.replace('level IV ', '')}.")
    if h.hand < 6:
        raise RuleError(f"Biosphere 5 needs 5 more hand cards to discard with it; you have {h.hand} cards in all.")
    h.hand -= 6
    events.append(event("human_biosphere", "You play Biosphere 5 and discard five cards with it."))
    _finish(state, "Won", "You established Biosphere 5.", events)


def _set_hand(state: State, a: SetHand, dice: Dice, events: list[Event]) -> None:
    solo = _solo(state)
    if a.cards == solo.human.hand:
        raise RuleError(f"Your hand is already {a.cards} cards.")
    events.append(event("hand", f"Your hand: {solo.human.hand} → {a.cards} cards.", hand_from=solo.human.hand,
                        hand_to=a.cards))
    solo.human.hand = a.cards


def hand_limit_excess(state: State) -> int:
    """Cards ending the turn now discards for the hand limit (§2.1: surplus over 8)."""
    return max(0, _solo(state).human.hand - HAND_LIMIT)


def _end_turn(state: State, a: EndTurn, dice: Dice, events: list[Event]) -> None:
    solo = _solo(state)
    _need_phase(solo, "human")
    h = solo.human
    excess = hand_limit_excess(state)
    if excess:
        events.append(event("hand_limit", f"Hand limit {HAND_LIMIT}: discard {excess} cards ({h.hand} → {HAND_LIMIT}).",
                            discard=excess, hand_from=h.hand, hand_to=HAND_LIMIT))
        h.hand = HAND_LIMIT
    solo.round += 1
    solo.catastrophes = 0
    h.achievement_this_turn = False
    solo.phase = "machine"
    n = reveal_count(state)
    events.append(event("round", f"Round {solo.round}: the Machine's turn, reveal {n} card{'s' if n != 1 else ''}.",
                        round=solo.round, reveal=n))


# The Abyss ---------------------------------------------------------------------------------------


def _player(state: State, index: Optional[int], role: str = "Player",
            allow_machine: bool = False) -> Optional[AbyssPlayer]:
    """The player at `index` (0-based), still in; None = the Machine when that is allowed."""
    abyss = state.abyss
    assert abyss is not None
    if index is None:
        if allow_machine and state.solo is not None:
            return None
        raise InputError(f"{role}: choose a player.")
    require_range(f"{role} number", index, 0, len(abyss.players) - 1)
    player = abyss.players[index]
    if player.out:
        raise RuleError(f"{player.name} is out (doom {MAX_DOOM}).")
    return player


def _add_doom(state: State, index: int, amount: int, why: str, events: list[Event]) -> None:
    player = state.abyss.players[index]  # type: ignore[union-attr]
    old = player.doom
    player.doom = max(0, min(MAX_DOOM, old + amount))
    capped = f" (max {MAX_DOOM})" if old + amount > MAX_DOOM else ""
    events.append(event("doom", f"{player.name}: doom {old} → {player.doom}{capped} ({why}).",
                        player=index, name=player.name, doom_from=old, doom_to=player.doom, why=why))
    if player.doom == MAX_DOOM and not player.out:
        player.out = True
        events.append(event("player_out", f"{player.name} reached doom {MAX_DOOM} and is out at once.",
                            player=index, name=player.name))


def _check_abyss_end(state: State, events: list[Event]) -> None:
    abyss = state.abyss
    assert abyss is not None
    if state.solo is not None:
        if abyss.players[0].out:
            _finish(state, "Lost", f"Your doom reached {MAX_DOOM}.", events)
        return
    left = [p for p in abyss.players if not p.out]
    if not left:
        _finish(state, "No winner", f"Everyone's doom reached {MAX_DOOM}.", events)
    elif len(left) == 1:
        _finish(state, f"{left[0].name} is the last one in",
                "The others reached doom 8 (§2.2 says who wins when the last rival drops out).", events)


def _doom_draw_pile(state: State, a: DoomDrawPile, dice: Dice, events: list[Event]) -> None:
    _player(state, a.player)
    _add_doom(state, a.player, 2, "draw pile empty", events)


def _doom_missing(state: State, a: DoomMissing, dice: Dice, events: list[Event]) -> None:
    _player(state, a.player)
    plural = "s" if a.count > 1 else ""
    _add_doom(state, a.player, a.count, f"{a.count} achievement{plural} missing to compensate", events)


def _two_sided(state: State, by: Optional[int], target: Optional[int], by_up: int, target_up: int, what: str,
               events: list[Event]) -> None:
    """Attack / Espionage / Sabotage doom: both sides rise (None = the Machine, which has no doom)."""
    if by is None and target is None:
        raise InputError(f"{what}: name at least one player.")
    if by == target:
        raise InputError(f"{what}: the player who plays it and the target must differ.")
    _player(state, by, "Played by", allow_machine=True)
    _player(state, target, "Target", allow_machine=True)
    for index, up, role in ((by, by_up, f"played {what}"), (target, target_up, f"hit by {what}")):
        if index is None:
            events.append(event("machine_no_doom", f"The Machine has no doom ({role.replace('played', 'it played')}).",
                                role=role))
        else:
            _add_doom(state, index, up, role, events)


def _doom_attack(state: State, a: DoomAttack, dice: Dice, events: list[Event]) -> None:
    _two_sided(state, a.attacker, a.target, 1, 2, "Attack", events)


def _doom_spy(state: State, a: DoomSpy, dice: Dice, events: list[Event]) -> None:
    _two_sided(state, a.by, a.target, 1, 1, "Espionage/Sabotage", events)


def _doom_face_up(state: State, a: DoomFaceUp, dice: Dice, events: list[Event]) -> None:
    _player(state, a.player)
    _add_doom(state, a.player, 1, "Biosphere 5 face up at the end of the turn", events)


def _doom_decrease(state: State, a: DoomDecrease, dice: Dice, events: list[Event]) -> None:
    player = _player(state, a.player)
    assert player is not None
    if player.doom == 0:
        raise RuleError(f"{player.name}'s doom is already 0.")
    if state.solo is not None:
        h = state.solo.human
        if h.hand < player.doom:
            raise RuleError(f"Lowering doom {player.doom} takes {player.doom} cards; you have {h.hand}.")
        h.hand -= player.doom
    plural = "s" if player.doom > 1 else ""
    events.append(event("doom_discard", f"{player.name} discards {player.doom} card{plural} (equal to the doom level).",
                        player=a.player, cards=player.doom))
    _add_doom(state, a.player, -1, "5th move option", events)


def _leader_promote(state: State, a: LeaderPromote, dice: Dice, events: list[Event]) -> None:
    player = _player(state, a.player)
    assert player is not None
    tier = player.leaders[a.leader]
    if tier >= MAX_TIER:
        raise RuleError(f"{player.name}'s {LEADER_NAMES[a.leader]} is at tier {MAX_TIER} already.")
    player.leaders[a.leader] = tier + 1
    events.append(event("leader_promote", f"Better Leadership: {player.name}'s {LEADER_NAMES[a.leader]} tier {tier} → "
                                          f"{tier + 1}. {ability_text(a.leader, tier + 1)}",
                        player=a.player, leader=a.leader, tier=tier + 1))


def _leader_ability(state: State, a: LeaderAbility, dice: Dice, events: list[Event]) -> None:
    player = _player(state, a.player)
    assert player is not None and state.abyss is not None
    have = player.leaders[a.leader]
    if a.tier not in usable_tiers(player, a.leader):
        raise RuleError(f"{player.name}'s {LEADER_NAMES[a.leader]} is at tier {have}; tier {a.tier} isn't reached.")
    title, text = LEADER_ABILITIES[a.leader][a.tier]
    key = (a.leader, a.tier)
    targets = ability_targets(state.abyss, a.player, a.leader, a.tier)
    target = None
    if targets is None:
        if a.target is not None:
            raise InputError(f"{title} has no target.")
    elif a.target is None:
        if None not in targets:
            raise InputError(f"{title}: choose the player whose doom rises by 2.")
    else:
        target = _player(state, a.target, "Target")
        if a.target not in targets:
            raise InputError(f"{title}: the target is an opponent.")
    if key == ("true_believer", 1) and player.doom == 0:
        raise RuleError(f"Glimmer of Hope would do nothing: {player.name}'s doom is already 0.")
    instead = f" (instead of tier {have}'s)" if a.tier < have else ""
    events.append(event("leader_ability", f"Shown Strength: {player.name} uses {LEADER_NAMES[a.leader]} tier "
                                          f"{a.tier}{instead} – {title}: {text}",
                        player=a.player, leader=a.leader, tier=a.tier, leader_tier=have, title=title,
                        target=a.target))
    if key == ("true_believer", 1):
        _add_doom(state, a.player, -1, title, events)
    elif key == ("true_believer", 2):
        _add_doom(state, a.player, 4 - player.doom, f"{title}: set to 4", events)
        for i, other in enumerate(state.abyss.players):
            if i != a.player and not other.out:
                _add_doom(state, i, 1, title, events)
    elif key == ("true_believer", 3):
        _add_doom(state, a.target or 0, 2, title, events)
    elif key == ("commander", 3):
        player.leaders = {lead: MAX_TIER for lead in LEADERS}
        events.append(event("leaders_raised", f"All of {player.name}'s leaders are at tier {MAX_TIER} now.",
                            player=a.player))
    elif a.leader == "fighter" and target is not None:
        count = {1: 2, 3: player.doom}.get(a.tier)  # Scorched Earth: twice what the Fighter discards
        said = {1: "2 cards", 3: f"{player.doom} cards (your doom level)"}.get(a.tier, "twice what you discard")
        events.append(event("opponent_discards", f"{target.name} discards {said}.", player=a.target, cards=count))


def _declare_biosphere(state: State, a: DeclareBiosphere, dice: Dice, events: list[Event]) -> None:
    if state.abyss is None:
        raise RuleError("No players are tracked in this game.")
    player = _player(state, a.player)
    assert player is not None
    _finish(state, f"{player.name} wins", f"{player.name} established Biosphere 5.", events)


_HANDLERS = {
    "machine_reveal": _machine_reveal, "machine_reveal_more": _machine_reveal_more,
    "human_discard": _human_discard, "human_achievement": _human_achievement,
    "human_catastrophe": _human_catastrophe, "human_espionage": _human_espionage,
    "human_sabotage": _human_sabotage, "human_attack": _human_attack, "human_biosphere": _human_biosphere,
    "set_hand": _set_hand, "end_turn": _end_turn,
    "doom_draw_pile": _doom_draw_pile, "doom_missing": _doom_missing, "doom_attack": _doom_attack,
    "doom_spy": _doom_spy, "doom_face_up": _doom_face_up, "doom_decrease": _doom_decrease,
    "leader_promote": _leader_promote, "leader_ability": _leader_ability, "declare_biosphere": _declare_biosphere,
}


# --- What the app asks ----------------------------------------------------------------------------


def human_can_play(state: State, level: int) -> Optional[str]:
    """Why the human can't play an option of this level now (None: playable). Attack: use level 1."""
    return level_block(_solo(state).human.achievements, level)


def is_win(state: State) -> bool:
    """The game ended with a winner at the table: you beat the Machine, or a player won."""
    return state.result is not None and state.result not in ("Lost", "No winner")


ACHIEVEMENTS: tuple[Category, ...] = CATEGORY_ORDER[:-1]  # the six categories on a board, lowest value first


def moves(state: State) -> list[Move]:
    """What may be done now (RULES.md §4).

    Against the Machine: its reveal (a template: the cards that came up), or your discard, or your
    turn's plays, each listed — greyed out with `apply`'s own reason when not allowed — and your
    hand size at any time. The Abyss: one template per doom cause and leader move, its choices
    narrowed to the players still in; a screen asks `GAME.why_not` about one button's action."""
    if state.result is not None:
        return []
    found = _solo_moves(state) if state.solo is not None else []
    if state.abyss is not None:
        found += _abyss_moves(state)
    return found


def _ready(state: State, kind: str, label: str, action: Any) -> Move:
    return Move(kind=kind, label=label, action=action, why_not=GAME.why_not(state, action))


def _cards(n: int) -> str:
    return f"{n} card{'s' if n != 1 else ''}"


def _solo_moves(state: State) -> list[Move]:
    solo = _solo(state)
    found: list[Move] = []
    if solo.phase in ("machine", "new_hope"):
        n = reveal_count(state)
        cards = (FieldSpec(name="cards", label=f"The {_cards(n)} that came up", low=n, high=n),)
        if solo.phase == "new_hope":
            found.append(Move(kind="machine_reveal_more", label=f"Reveal {n} more cards", fields=cards))
        elif n == 0:
            found.append(Move(kind="machine_reveal", label="Let the Machine decide", action=MachineReveal()))
        else:
            found.append(Move(kind="machine_reveal", label=f"Reveal {_cards(n)}", fields=cards))
    elif solo.phase == "discard":
        due = solo.due
        assert due is not None
        paid, short, need = discard_terms(solo)
        held = [c for c in ACHIEVEMENTS if c in solo.human.achievements]
        said = f"I discarded {_cards(paid)}" if paid else "I have no cards to discard"
        if 0 < need < len(held):  # which achievements to give up is the player's choice
            some = f"{need} achievement{'s' if need > 1 else ''}"
            found.append(Move(kind="human_discard", label=f"{said} and give up {some}",
                              fields=(FieldSpec(name="give_up", label=f"You are {_cards(short)} short: choose {some} "
                                                                      f"to give up", low=need, high=need,
                                                choices=tuple(held)),)))
        else:
            give_up = held if need else []
            found.append(_ready(state, "human_discard", said + (f" and give up {', '.join(give_up)}" if give_up else ""),
                                HumanDiscard(give_up=give_up)))
        if due.rescue:
            found.append(_ready(state, "human_discard", f"I discarded a {due.rescue} rescue card instead",
                                HumanDiscard(rescue=True)))
    else:
        m = solo.machine
        for cat in ACHIEVEMENTS:
            for cube in ("green", "yellow"):
                found.append(_ready(state, "human_achievement", f"{KIND_OF_CUBE[cube].capitalize()} {cat} achievement",
                                    HumanAchievement(category=cat, cube=cube)))
        for cat in ACHIEVEMENTS:
            for rescue in (False, True):
                found.append(_ready(state, "human_catastrophe",
                                    f"{cat.capitalize()} catastrophe" + (" with a rescue card" if rescue else ""),
                                    HumanCatastrophe(category=cat, rescue=rescue)))
        found.append(_ready(state, "human_espionage", "Espionage", HumanEspionage()))
        found.append(_ready(state, "human_sabotage", "Sabotage", HumanSabotage()))
        targets = sorted(m.achievements.items(), key=lambda kv: ACHIEVEMENTS.index(kv[0]))
        for cat, cube in targets or [(ACHIEVEMENTS[0], None)]:  # with no target, Attack is listed greyed out
            found.append(_ready(state, "human_attack", f"Attack the Machine's {cube_label(cat, cube)}" if cube
                                else "Attack", HumanAttack(category=cat)))
        found.append(_ready(state, "human_biosphere", "Biosphere 5", HumanBiosphere()))
        found.append(_ready(state, "end_turn", "End my turn", EndTurn()))
    found.append(Move(kind="set_hand", label="Your hand cards", fields=field_specs(SetHand)))
    return found


# The Abyss's moves in a few words, for their buttons (RULES.md §4: the doom causes and leader moves).
ABYSS_LABELS = {
    "doom_draw_pile": "Draw pile empty +2",
    "doom_missing": "Achievement missing +1",
    "doom_attack": "Attack: attacker +1, attacked +2",
    "doom_spy": "Espionage/Sabotage: both +1",
    "doom_face_up": "Biosphere 5 face up +1",
    "doom_decrease": "Lower doom −1 (discard as many cards as your doom)",
    "leader_promote": "Better Leadership: a leader up one tier",
    "leader_ability": "Shown Strength: a leader's ability, of its tier or a lower one",
    "declare_biosphere": "Biosphere 5 established: this player wins",
}


def _abyss_moves(state: State) -> list[Move]:
    abyss = state.abyss
    assert abyss is not None
    players = abyss.players
    live = [i for i, p in enumerate(players) if not p.out]
    sides: list[Optional[int]] = [*live, *([None] if state.solo is not None else [])]  # None: the Machine

    def template(kind: str, cls: type, **narrow: Any) -> Move:
        return Move(kind=kind, label=ABYSS_LABELS[kind], fields=field_specs(cls, **narrow))

    found = [template("doom_draw_pile", DoomDrawPile, player=live),
             template("doom_missing", DoomMissing, player=live),
             template("doom_attack", DoomAttack, attacker=sides, target=sides),
             template("doom_spy", DoomSpy, by=sides, target=sides),
             template("doom_face_up", DoomFaceUp, player=live)]
    lowerable = [i for i in live if players[i].doom > 0]
    if lowerable:
        found.append(template("doom_decrease", DoomDecrease, player=lowerable))
    promotable = [i for i in live if min(players[i].leaders.values()) < MAX_TIER]
    if promotable:
        found.append(template("leader_promote", LeaderPromote, player=promotable, leader=list(LEADERS)))
    leading = [i for i in live if max(players[i].leaders.values()) > 0]
    if leading:
        top = max(max(players[i].leaders.values()) for i in leading)
        found.append(template("leader_ability", LeaderAbility, player=leading, leader=list(LEADERS), tier=(1, top),
                              target=[None, *live]))
    if state.solo is None:
        found.append(template("declare_biosphere", DeclareBiosphere, player=live))
    return found


def describe(action: Action) -> str:
    k = action.kind
    if isinstance(action, MachineReveal):
        return f"Machine reveals {len(action.cards)}"
    if isinstance(action, MachineRevealMore):
        return "New Hope: 3 more revealed"
    if isinstance(action, HumanDiscard):
        return "discard a rescue card" if action.rescue else (
            "discard" + (f", give up {', '.join(action.give_up)}" if action.give_up else ""))
    if isinstance(action, HumanAchievement):
        return f"{KIND_OF_CUBE[action.cube]} {action.category} achievement"
    if isinstance(action, HumanCatastrophe):
        return f"{action.name or action.category + ' catastrophe'} against the Machine"
    if isinstance(action, HumanAttack):
        return f"Attack the Machine's {action.category}"
    if isinstance(action, SetHand):
        return f"hand {action.cards} cards"
    if isinstance(action, DoomMissing):
        return f"doom +{action.count} (achievements missing)"
    if isinstance(action, LeaderPromote):
        return f"promote {LEADER_NAMES[action.leader]}"
    if isinstance(action, LeaderAbility):
        title = LEADER_ABILITIES[action.leader].get(action.tier, ("ability", ""))[0]
        return f"{LEADER_NAMES[action.leader]}: {title}"
    return {
        "human_espionage": "Espionage against the Machine", "human_sabotage": "Sabotage against the Machine",
        "human_biosphere": "play Biosphere 5", "end_turn": "end your turn",
        "doom_draw_pile": "doom +2 (draw pile empty)", "doom_attack": "doom: Attack",
        "doom_spy": "doom: Espionage/Sabotage", "doom_face_up": "doom +1 (Biosphere face up)",
        "doom_decrease": "doom −1 (discard)", "declare_biosphere": "Biosphere 5 established",
    }[k]


def headline(state: State) -> str:
    if state.solo is not None:
        solo = state.solo
        if state.result:
            return f"Round {solo.round} · {state.result}"
        phase = {
            "machine": f"Machine's turn · reveal {reveal_count(state)}",
            "new_hope": "Machine's turn · New Hope: reveal 3 more",
            "discard": f"You discard {solo.due.cards if solo.due else 0}",
            "human": "Your turn",
        }[solo.phase]
        return f"Round {solo.round} · {phase} · Machine level {solo.machine.level}"
    assert state.abyss is not None
    if state.result:
        return f"The Abyss · {state.result}"
    players = state.abyss.players
    return f"The Abyss · {sum(not p.out for p in players)} of {len(players)} players in"


def outcome(state: State) -> Optional[str]:
    return state.result


GAME = Game(
    key="biosphere5",
    title="Biosphere 5",
    summary="The Abyss's doom and leaders, and the automated Machine for the solo game.",
    Settings=Settings,
    State=State,
    Action=Action,
    new_state=new_state,
    apply=apply,
    describe=describe,
    headline=headline,
    outcome=outcome,
    moves=moves,
)
