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
    Words,
    event,
    field_specs,
    throw,
)
from companion.games.biosphere5.cards import (
    CATEGORY_LEVEL,
    CATEGORY_ORDER,
    CUBE_OF,
    CATEGORY_TITLES,
    KIND_WORDS,
    LEVEL_CATEGORIES,
    LOWER_LABEL,
    Card,
    Category,
    Cube,
    Lower,
    Upper,
    achievement_block,
    achievement_label,
    achievement_value,
    both,
    card_value,
    cards_due,
    category_word,
    cube_label,
    joined,
    kind_achievement,
    level_block,
    lower_block,
    protection,
    require_complete,
    upper_block,
    value_label,
)
from companion.i18n import N_, Msg, NMsg

MAX_LEVEL = 8  # the Machine's hand card level runs 0–8; so does doom
MAX_DOOM = 8
MAX_HAND = 25  # a hand can't hold more than the deck
HAND_LIMIT = 8  # surplus cards are discarded at the end of the turn (§2.1)
NEW_HOPE_EXTRA = 3
# The Biosphere 5/Attack card by its two options, as the Machine's board keeps it (a card's name in the
# state: English) and as a phone says it.
BIO_WORDS = Msg("Biosphere 5/Attack")
BIO_NAME = BIO_WORDS.english
# Cards revealed per hand card level 0..8 (RULES.md Decision from fig. 27).
DEFAULT_REVEAL = (0, 1, 2, 2, 3, 3, 4, 4, 5)
PROTECTION_NAME = {0: "none", 1: "makeshift", 2: "perfect"}  # in the events' data (English, for code)
PROTECTION_WORDS = {0: Msg("none"), 1: Msg("makeshift"), 2: Msg("perfect")}  # the same, for people
# The hand die's name and faces: kept in the log in English (DieSpec), said through the catalog where shown.
HAND_DIE_WORDS = (N_("hand dice"), N_("black hand"), N_("blank"))
FACE_WORDS = {"black hand": Msg("black hand"), "blank": Msg("blank")}
BLACK_HAND, BLANK = FACE_WORDS  # the faces' names (kept in the log)
THE_MACHINE = Msg("The Machine")  # who rolls the rescue check (a Chance's `who`: kept in English)
# The settings' choices, as the campaign's settings show them.
CHOICE_WORDS = (N_("machine"), N_("people"))


def _en(words: Any) -> Any:
    """Words as the events' data keep them: English (the data is for code; the text is for people)."""
    return words.english if isinstance(words, Msg) else words


class Settings(Model):
    opponent: Literal["machine", "people"] = Field(
        "machine", description=N_("Play alone against the Machine, or against people (The Abyss tracker)")
    )
    abyss: bool = Field(False, description=N_("The Abyss extension: doom and leaders"))
    players: int = Field(2, ge=2, le=4, description=N_("Players at the table (against people)"))
    names: list[Annotated[str, Field(min_length=1, max_length=20)]] = Field(
        default_factory=list, max_length=4, description=N_("Player names (optional)")
    )
    difficulty: int = Field(2, ge=0, le=MAX_LEVEL, description=N_("The Machine's starting hand card level"))
    hand_die_black_faces: int = Field(
        1, ge=0, le=6, description=N_("Faces of the hand die showing the black hand (a roll of 1..this counts)")
    )
    reveal_table: list[Annotated[int, Field(ge=0, le=MAX_LEVEL)]] = Field(
        default_factory=lambda: list(DEFAULT_REVEAL), min_length=9, max_length=9,
        description=N_("Cards the Machine reveals at hand card level 0..8"),
    )

    @model_validator(mode="after")
    def _something_to_track(self) -> Settings:
        if self.opponent == "people" and not self.abyss:
            raise ValueError(Msg("against people the app tracks The Abyss: switch The Abyss on"))
        return self


# --- The Abyss: doom and leaders (§3) -------------------------------------------------------------

Leader = Literal["strategist", "commander", "fighter", "true_believer"]
LEADERS: tuple[Leader, ...] = ("strategist", "commander", "fighter", "true_believer")
LEADER_NAMES = {"strategist": Msg("Strategist"), "commander": Msg("Commander"), "fighter": Msg("Fighter"),
                "true_believer": Msg("True Believer")}
# Each leader's abilities by tier (§3.5): (title, what it does). A player may use the ability of their
# tier or a lower one. The Fighter's say who picks the cards (a second sentence, in every language).
LEADER_ABILITIES: dict[str, dict[int, tuple[Msg, Msg]]] = {
    "strategist": {
        1: (Msg("Tactical Meeting"), Msg("Draw 4 new cards and discard 3 cards afterwards.")),
        2: (Msg("The Trap"), Msg("Search your draw pile for a card and put it in your hand; shuffle the draw pile "
                                 "afterwards. You can't pick up a card from the discard pile.")),
        3: (Msg("The great Plan"), Msg("Draw up to 8 cards, one by one; you may stop drawing at any time.")),
    },
    "commander": {
        1: (Msg("Raising the Flag"), Msg("Use the second option of one of your achievements already built; the "
                                         "achievement card stays on the board.")),
        2: (Msg("Concentrate Troops"), Msg("Cards you play further this turn are not discarded: put them back in "
                                           "your hand instead.")),
        3: (Msg("Victory is near!"), Msg("Increase the tier of all of your leaders to 3.")),
    },
    "fighter": {
        1: (Msg("Never give up!"), Msg("One opponent has to discard 2 cards. The player concerned picks the cards; "
                                       "missing hand cards are compensated.")),
        2: (Msg("Scorched Earth"), Msg("Discard 1 to 3 hand cards; one opponent must discard twice as many. The "
                                       "player concerned picks the cards; missing hand cards are compensated.")),
        3: (Msg("Beat them all!"), Msg("One opponent has to discard cards equal to your doom level. The player "
                                       "concerned picks the cards; missing hand cards are compensated.")),
    },
    "true_believer": {
        1: (Msg("Glimmer of Hope"), Msg("Decrease your doom level by one.")),
        2: (Msg("Without Hesitation"), Msg("Set your doom level to 4. Increase the doom level of all other players "
                                           "by 1.")),
        3: (Msg("Finally true"), Msg("Increase the doom level of one player by 2.")),
    },
}


def ability_text(leader: str, tier: int) -> Msg:
    """'Tier 2 – Without Hesitation: Set your doom level to 4. …' (tier 0: no ability)."""
    if tier == 0:
        return Msg("Tier 0 – no ability yet.")
    title, text = LEADER_ABILITIES[leader][tier]
    return Msg("Tier {tier} – {title}: {text}", tier=tier, title=title, text=text)


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
    why: Words  # the instruction shown to the human
    rescue: Optional[Category] = None  # a rescue card of this category may be discarded instead
    then_machine: Optional[Category] = None  # the Machine's own catastrophe hits the Machine after you
    then_machine_name: Words = ""


class Reveal(Model):
    """The Machine's turn in progress: what came up (catalog ids, in the order tapped)."""

    revealed: list[str] = Field(default_factory=list)
    new_hope_index: Optional[int] = None  # which revealed card was played as New Hope


Play = Literal["biosphere", "attack", "store", "achievement", "sabotage", "espionage", "new_hope",
               "catastrophe", "level_up", "nothing"]


# The Machine's Attack in older saves' words (see Decision._todays_words).
# (\s for each space: a pattern, not words for people)
_LEGACY_ATTACK = re.compile(r"[T]he\sMachine\splays\sAttack\s\((?P<card>.+)\):\sremove\syour\s(?P<kind>perfect|makeshift)\s"
                            r"(?P<category>\w+)\s\((?:green|yellow)\scube\),\syour\shighest-value\sachievement\.")


class Decision(Model):
    """What the Machine plays and why: the rule that fired and why the higher rules didn't."""

    rule: int = Field(ge=1, le=8)  # RULES.md §4 tactics 1–8 (New Hope's follow-up counts as 6)
    play: Play
    card_id: Optional[str] = None
    card_name: Optional[str] = None
    option: Optional[Literal["upper", "lower"]] = None
    option_name: Optional[Words] = None  # the option played: "Deep Well", "New Hope", "Hurricane"
    category: Optional[Category] = None  # achievement placed, catastrophe played, or your achievement attacked
    cube: Optional[Cube] = None
    store_id: Optional[str] = None  # Biosphere 5/Attack card put on the Machine's board
    instruction: Words  # one clear sentence for the table
    why: Words
    not_fired: list[Words] = Field(default_factory=list)
    cards: Words  # what to do with the revealed cards

    @field_validator("instruction")
    @classmethod
    def _todays_words(cls, text: Words) -> Words:
        """Saves from before the human's achievements stopped being called cubes read in today's
        words, so they show them and still replay to the state today's rules make."""
        old = _LEGACY_ATTACK.fullmatch(text) if isinstance(text, str) else None
        if old is None or old["category"] not in CATEGORY_LEVEL:
            return text  # a message (today's words), or a sentence an older save kept
        card = BIO_WORDS if old["card"] == BIO_NAME else old["card"]
        return _attack_instruction(card, old["category"], CUBE_OF[old["kind"]])


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
    # "Won" / "Lost" / "No winner" / "<name> wins" / "<name> is the last one in" (English, for code: see
    # `result_words` for people); None while the game goes on.
    result: Optional[str] = None
    reason: Optional[Words] = None  # why it ended, in words


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
    """The name kept in the state: one typed in, else the default in English (`player_words` says it in
    each phone's language)."""
    if index < len(settings.names):
        return settings.names[index]
    return _default_name(settings, index).english


def _default_name(settings: Settings, index: int) -> Msg:
    return Msg("You") if settings.opponent == "machine" else Msg("Player {number}", number=index + 1)


def _is_you(state: State, index: int) -> bool:
    """The player is the solo game's 'You' (no name typed): sentences say 'your', not "You's"."""
    return index >= len(state.settings.names) and state.settings.opponent == "machine"


def player_words(state: State, index: int) -> Words:
    """A player as a phone says them: the name typed in, or 'You' / 'Player 2' in its language."""
    if index < len(state.settings.names) or state.abyss is None:
        return state.abyss.players[index].name if state.abyss else ""
    return _default_name(state.settings, index)


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
        if solo.phase == "new_hope":
            raise InputError(NMsg("The Machine reveals {n} card for New Hope; {tapped} were tapped.",
                                  "The Machine reveals {n} cards for New Hope; {tapped} were tapped.", expected,
                                  tapped=len(cards)))
        raise InputError(NMsg("The Machine reveals {n} card at hand card level {level}; {tapped} were tapped.",
                              "The Machine reveals {n} cards at hand card level {level}; {tapped} were tapped.",
                              expected, level=solo.machine.level, tapped=len(cards)))
    seen: dict[str, Card] = {}
    for card in [*earlier, *cards]:
        require_complete(card)
        if card.id in seen and seen[card.id] != card:
            raise InputError(Msg("Two different cards carry the id {id}.", id=card.id))
        seen[card.id] = card
    counts = Counter(c.id for c in [*earlier, *cards])
    for cid, n in counts.items():
        if n > seen[cid].copies:
            raise InputError(Msg("The deck has {copies} {card}; it was tapped {n} times this turn.",
                                 copies=seen[cid].copies, card=seen[cid].name, n=n))
    bios = [c for c in [*earlier, *cards] if c.is_biosphere]
    if bios and solo.machine.stored:
        raise InputError(Msg("{card} is stored on the Machine's board; it can't be revealed from the draw pile.",
                             card=BIO_WORDS))
    if len(bios) > 1:
        raise InputError(Msg("The deck has one {card} card; {n} were tapped.", card=BIO_WORDS, n=len(bios)))


def reveal_action(catalog: Mapping[str, Card], ids: Sequence[str]) -> MachineReveal:
    """Build the reveal action from tapped catalog ids (refuses an id not in the catalog yet)."""
    return MachineReveal(cards=[_lookup(catalog, i) for i in ids])


def reveal_more_action(state: State, catalog: Mapping[str, Card], ids: Sequence[str]) -> MachineRevealMore:
    """Build New Hope's follow-up: the 3 new cards plus the ones revealed before (from the state)."""
    solo = _solo(state)
    earlier = solo.reveal.revealed if solo.reveal else []
    return MachineRevealMore(cards=[_lookup(catalog, i) for i in ids],
                             earlier=[_lookup(catalog, i) for i in earlier])


def _lookup(catalog: Mapping[str, Card], card_id: str) -> Card:
    if card_id not in catalog:
        raise InputError(Msg("The card {id} is not in the catalog yet: add it first.", id=card_id))
    return catalog[card_id]


# --- The Machine's tactics (RULES.md §4, book §4.3): first rule that applies ----------------------


def _biosphere_block(m: MachineBoard) -> Optional[Msg]:
    lacking = [c for c in LEVEL_CATEGORIES[3] if c not in m.achievements]
    if lacking:
        return Msg("Biosphere 5 needs both level III achievements; missing {missing}",
                   missing=both([category_word(c) for c in lacking]))
    if m.level < 5:
        return Msg("Biosphere 5 needs hand card level 5 (the Machine has {level})", level=m.level)
    return None


def _attack_block(solo: Solo) -> Optional[Msg]:
    mine, theirs = len(solo.machine.achievements), len(solo.human.achievements)
    if theirs > mine:
        return None
    return Msg("Attack needs you to hold more achievements than the Machine (you {yours}, the Machine {mine})",
               yours=theirs, mine=mine)


def _catastrophe_block(solo: Solo, card: Card) -> Optional[Msg]:
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
        return Msg("both have a makeshift {category} achievement and the Machine's hand card level {level} "
                   "doesn't exceed your {hand} hand cards", category=category_word(cat), level=m.level, hand=h.hand)
    return Msg("the Machine's {category} protection ({mine}) doesn't beat yours ({yours})",
               category=category_word(cat), mine=PROTECTION_WORDS[mine], yours=PROTECTION_WORDS[yours])


def _catastrophe_fires(solo: Solo, card: Card) -> Msg:
    m, h, cat = solo.machine, solo.human, card.lower.category or ""
    mine, yours = protection(m.achievements.get(cat)), protection(h.achievements.get(cat))
    if mine > yours:
        return Msg("the Machine's {category} protection ({mine}) beats yours ({yours})",
                   category=category_word(cat), mine=PROTECTION_WORDS[mine], yours=PROTECTION_WORDS[yours])
    return Msg("both have a makeshift {category} achievement and the Machine's hand card level {level} "
               "exceeds your {hand} hand cards", category=category_word(cat), level=m.level, hand=h.hand)


def _best(cards: Sequence[Card]) -> Card:
    """The highest-value card; among equals the one revealed first."""
    return max(enumerate(cards), key=lambda ic: (card_value(ic[1]), -ic[0]))[1]


def _ranking(cards: Sequence[Card], best: Card) -> Optional[Msg]:
    """Why `best` of these: a sentence of its own, or None when it was the only one."""
    others = [c for c in cards if c is not best]
    if not others:
        return None
    return Msg("It has the highest card value ({value}), above {others}.", value=value_label(best),
               others=joined([Msg("{card} ({value})", card=c.name, value=value_label(c)) for c in others]))


def _then(*sentences: Optional[Words]) -> Words:
    """Sentences one after another (each said in the phone's language); None and empty ones left out."""
    return joined([x for x in sentences if x], " ")


def _option_label(card: Card, upper: bool) -> Words:
    """'Shack' for an upper option; 'Drought (Shack)' for a lower one named apart from its card."""
    if upper:
        return card.upper_label
    if card.lower_label == card.name:
        return card.lower_label
    return Msg("{option} ({card})", option=card.lower_label, card=card.name)


def _grouped(items: Sequence[tuple[Words, Words]]) -> Words:
    """'Greenhouse, Garden: level III needs …; Shack: housing is held already' — one reason once."""
    groups: dict[Any, list[Words]] = {}
    for what, why in items:
        groups.setdefault(why, []).append(what)
    return joined([Msg("{options}: {reason}", options=joined(whats), reason=why) for why, whats in groups.items()],
                  "; ")


def _highest_human_achievement(solo: Solo) -> Category:
    return max(solo.human.achievements.items(), key=lambda kv: achievement_value(*kv))[0]


def _level_after_gain(level: int) -> Msg:
    new = min(MAX_LEVEL, level + 2)
    return Msg("{old} → {new}", old=level, new=new) if new != level else Msg("stays {level} (max {max})", level=level,
                                                                             max=MAX_LEVEL)


def _discard_all(cards: Sequence[Card], keep: Optional[Card] = None) -> Msg:
    if not cards:
        return Msg("No cards were revealed.")
    if keep is not None:
        return Msg("Put {card} on the Machine's board; discard the other revealed cards.", card=keep.name)
    return Msg("Discard all revealed cards.")


def _card_words(card: Card) -> Words:
    """A card's name; the stored Biosphere 5/Attack card in the phone's words."""
    return BIO_WORDS if card.name == BIO_NAME else card.name


def _attack_instruction(card: Words, category: str, cube: str) -> Msg:
    return Msg("The Machine plays Attack ({card}): remove your {achievement}, your highest-value one.", card=card,
               achievement=achievement_label(category, cube))


def _decision_for(solo: Solo, play: str, card: Card, rule: int, why: Words, not_fired: list[Words],
                  cards_text: Words, store: Optional[Card] = None) -> Decision:
    """The decision for playing `play` from `card`, with its one-line instruction."""
    m = solo.machine
    upper = play in ("biosphere", "achievement")
    common = dict(rule=rule, play=play, card_id=card.id, card_name=card.name, why=why,
                  option_name=card.upper_label if upper else card.lower_label,
                  not_fired=not_fired, cards=cards_text, store_id=store.id if store else None)
    if play == "biosphere":
        return Decision(**common, option="upper", category="salvation",
                        instruction=Msg("The Machine plays Biosphere 5 ({card}) and wins.", card=_card_words(card)))
    if play == "attack":
        target = _highest_human_achievement(solo)
        return Decision(**common, option="lower", category=target,
                        instruction=_attack_instruction(_card_words(card), target, solo.human.achievements[target]))
    if play == "achievement":
        cat, kind = card.upper.category, card.upper.kind or "perfect"
        cube = CUBE_OF[kind]
        placed = dict(option=card.upper_label, achievement=kind_achievement(cat or "", kind),
                      category=category_word(cat))
        return Decision(**common, option="upper", category=cat, cube=cube,
                        instruction=Msg("The Machine plays {option} — {achievement}: place a green cube on "
                                        "{category}.", **placed) if cube == "green" else
                        Msg("The Machine plays {option} — {achievement}: place a yellow cube on {category}.",
                            **placed))
    if play == "sabotage":
        return Decision(**common, option="lower",
                        instruction=Msg("The Machine plays Sabotage ({card}): shuffle your hand and discard the top "
                                        "three cards.", card=card.name))
    if play == "espionage":
        return Decision(**common, option="lower",
                        instruction=Msg("The Machine plays Espionage ({card}): discard your hand card with the "
                                        "highest level.", card=card.name))
    if play == "new_hope":
        return Decision(**common, option="lower",
                        instruction=Msg("The Machine plays New Hope ({card}): hand card level {change}; reveal {n} "
                                        "more cards.", card=card.name, change=_level_after_gain(m.level),
                                        n=NEW_HOPE_EXTRA))
    if play == "catastrophe":
        cat = card.lower.category
        return Decision(**common, option="lower", category=cat,
                        instruction=Msg("The Machine plays {option} ({category} catastrophe, from {card}): it hits "
                                        "you first, then the Machine.", option=card.lower_label,
                                        category=category_word(cat), card=card.name))
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
            raise InputError(Msg("After New Hope, pass the cards revealed before first, in the same order."))
        _check_reveal(state, revealed[len(earlier):], revealed[: len(earlier)])
        return _follow_up(solo, revealed)
    if solo.phase != "machine":
        raise RuleError(Msg("It is not the Machine's turn."))
    _check_reveal(state, revealed)
    return _tactics(solo, revealed)


def _tactics(solo: Solo, cards: Sequence[Card]) -> Decision:
    m = solo.machine
    held = set(m.achievements)
    skipped: list[Words] = []

    # 1. The stored Biosphere 5/Attack card is checked at once; if playable nothing else is allowed.
    if m.stored:
        stored = Card(id=m.stored, name=BIO_NAME, upper=Upper(name="Biosphere 5", kind="biosphere"),
                      lower=Lower(name="Attack", kind="attack"))
        bio_no, attack_no = _biosphere_block(m), _attack_block(solo)
        if bio_no is None:
            return _decision_for(solo, "biosphere", stored, 1,
                                 Msg("Rule 1: the stored {card} card is checked first, and the Machine holds nature "
                                     "and community with hand card level {level} ≥ 5.", card=BIO_WORDS, level=m.level),
                                 [], Msg("No cards are revealed."))
        if attack_no is None:
            return _decision_for(solo, "attack", stored, 1,
                                 NMsg("Rule 1: the stored {card} card is checked first; {reason}, but you hold {n} "
                                      "achievement, more than the Machine's {mine}.",
                                      "Rule 1: the stored {card} card is checked first; {reason}, but you hold {n} "
                                      "achievements, more than the Machine's {mine}.", len(solo.human.achievements),
                                      card=BIO_WORDS, reason=bio_no, mine=len(m.achievements)),
                                 [], Msg("No cards are revealed."))
        skipped.append(Msg("Rule 1 (stored card) did not apply: the stored {card} card can't be played ({biosphere}; "
                           "{attack}).", card=BIO_WORDS, biosphere=bio_no, attack=attack_no))
    else:
        skipped.append(Msg("Rule 1 (stored card) did not apply: no {card} card is stored.", card=BIO_WORDS))

    # 2–4. A revealed Biosphere 5/Attack card: win, attack, or store it.
    bio = next((c for c in cards if c.is_biosphere), None)
    if bio is None:
        skipped.append(Msg("Rules 2–4 (Biosphere 5, Attack, store) did not apply: the {card} card was not revealed.",
                           card=BIO_WORDS))
    else:
        bio_no = _biosphere_block(m)
        if bio_no is None:
            return _decision_for(solo, "biosphere", bio, 2,
                                 Msg("Rule 2: Biosphere 5 was revealed, the Machine holds nature and community and "
                                     "its hand card level {level} ≥ 5.", level=m.level), skipped,
                                 Msg("The game is over."))
        skipped.append(Msg("Rule 2 (Biosphere 5) did not apply: {reason}.", reason=bio_no))
        attack_no = _attack_block(solo)
        if attack_no is None:
            return _decision_for(solo, "attack", bio, 3,
                                 Msg("Rule 3: Attack was revealed and you hold more achievements ({yours}) than the "
                                     "Machine ({mine}).", yours=len(solo.human.achievements),
                                     mine=len(m.achievements)),
                                 skipped, _discard_all(cards))
        skipped.append(Msg("Rule 3 (Attack) did not apply: {reason}.", reason=attack_no))
        return Decision(rule=4, play="store", card_id=bio.id, card_name=bio.name, store_id=bio.id,
                        instruction=Msg("Put {card} on the Machine's board; hand card level {change}. The Machine's "
                                        "turn is over.", card=bio.name, change=_level_after_gain(m.level)),
                        why=Msg("Rule 4: {card} was revealed but neither option can be played.", card=BIO_WORDS),
                        not_fired=skipped, cards=_discard_all(cards, keep=bio))

    # 5. The highest-value playable achievement.
    achievements = [c for c in cards if c.upper.kind in ("perfect", "makeshift")]
    playable = [c for c in achievements if upper_block(c, held) is None]
    if playable:
        best = _best(playable)
        return _decision_for(solo, "achievement", best, 5,
                             _then(Msg("Rule 5: a playable achievement; the Machine plays the highest-value one."),
                                   _ranking(playable, best)), skipped, _discard_all(cards))
    if achievements:
        skipped.append(Msg("Rule 5 (achievement) did not apply: none is playable — {reasons}.",
                           reasons=_grouped([(c.upper_label, upper_block(c, held) or "") for c in achievements])))
    else:
        skipped.append(Msg("Rule 5 (achievement) did not apply: no achievement was revealed."))

    # 6. Sabotage, then Espionage, then New Hope.
    blocked_lowers: list[Words] = []
    for kind in ("sabotage", "espionage", "new_hope"):
        label = LOWER_LABEL[kind]
        options = [c for c in cards if c.lower.kind == kind]
        ok = [c for c in options if lower_block(c, held) is None]
        if ok:
            best = _best(ok)
            return _decision_for(solo, kind, best, 6,
                                 _then(Msg("Rule 6: {option} is playable (Sabotage, Espionage and New Hope come in "
                                           "that order).", option=label), *blocked_lowers, _ranking(ok, best)),
                                 skipped,
                                 Msg("Keep the revealed cards out; reveal 3 more.") if kind == "new_hope"
                                 else _discard_all(cards))
        if options:
            blocked_lowers.append(Msg("{option} can't be played: {reason}.", option=label,
                                      reason=lower_block(options[0], held)))
    skipped.append(Msg("Rule 6 (Sabotage, Espionage, New Hope) did not apply: {reasons}",
                       reasons=joined(blocked_lowers, " ")) if blocked_lowers else
                   Msg("Rule 6 (Sabotage, Espionage, New Hope) did not apply: none was revealed."))

    # 7. A catastrophe where the Machine is better protected than you.
    catastrophes = [c for c in cards if c.lower.kind == "catastrophe"]
    ok = [c for c in catastrophes if _catastrophe_block(solo, c) is None]
    if ok:
        best = _best(ok)
        return _decision_for(solo, "catastrophe", best, 7,
                             _then(Msg("Rule 7: {option} — {reason}.", option=best.lower_label,
                                       reason=_catastrophe_fires(solo, best)), _ranking(ok, best)),
                             skipped, _discard_all(cards))
    if catastrophes:
        skipped.append(Msg("Rule 7 (catastrophe) did not apply: {reasons}.",
                           reasons=_grouped([(_option_label(c, False), _catastrophe_block(solo, c) or "")
                                             for c in catastrophes])))
    else:
        skipped.append(Msg("Rule 7 (catastrophe) did not apply: no catastrophe was revealed."))

    # 8. Nothing fits.
    return Decision(rule=8, play="level_up",
                    instruction=Msg("Nothing fits: the Machine's hand card level {change}.",
                                    change=_level_after_gain(m.level)),
                    why=Msg("Rule 8: no higher rule applies.") if cards else
                    Msg("Rule 8: no higher rule applies (no cards were revealed)."),
                    not_fired=skipped, cards=_discard_all(cards))


def _machine_options(solo: Solo, card: Card) -> tuple[list[str], list[tuple[Words, Words]]]:
    """The plays this card offers the Machine now, in tactics order, and (option, why not) for the rest."""
    m, held = solo.machine, set(solo.machine.achievements)
    blocks: list[tuple[str, Optional[Words]]] = []  # (play, reason or None when playable)
    if card.upper.kind == "biosphere":
        blocks.append(("biosphere", _biosphere_block(m)))
    elif card.upper.kind in ("perfect", "makeshift"):
        blocks.append(("achievement", upper_block(card, held)))
    kind = card.lower.kind or ""
    if kind == "attack":
        blocks.append(("attack", _attack_block(solo)))
    elif kind == "new_hope":
        blocks.append(("new_hope", Msg("a second New Hope can't be chosen")))
    elif kind in ("sabotage", "espionage"):
        blocks.append((kind, lower_block(card, held)))
    elif kind == "catastrophe":
        blocks.append(("catastrophe", _catastrophe_block(solo, card)))
    plays = [play for play, why in blocks if why is None]
    nots = [(_option_label(card, play in ("biosphere", "achievement")), why) for play, why in blocks if why]
    return plays, nots


def _follow_up(solo: Solo, cards: Sequence[Card]) -> Decision:
    """New Hope's follow-up: the highest-value playable option among all revealed (no second New Hope)."""
    # Decision (RULES.md §4, rule 1 and New Hope's "among all revealed"): a Biosphere 5/Attack card stored
    # on the Machine's board is not among the follow-up's cards, even when New Hope's +2 brings the hand
    # card level to where Biosphere 5 could be played: the stored card is checked at once at the start
    # of the Machine's next turn (rule 1), and wins then, not in this turn (issue #30 item 17).
    used = solo.reveal.new_hope_index if solo.reveal else None
    candidates: list[tuple[Card, str]] = []
    unplayable: list[tuple[Words, Words]] = []
    for i, card in enumerate(cards):
        if i == used:
            continue
        plays, nots = _machine_options(solo, card)
        if plays:
            candidates.append((card, plays[0]))
        else:
            unplayable += nots
    bio = next((c for i, c in enumerate(cards) if c.is_biosphere and i != used), None)
    not_fired: list[Words] = [Msg("Not playable: {reasons}.", reasons=_grouped(unplayable))] if unplayable else []
    if not candidates:
        store = bio
        return Decision(rule=6, play="nothing", store_id=store.id if store else None,
                        instruction=Msg("No revealed card is playable: the Machine plays nothing more this turn; put "
                                        "{card} on its board.", card=store.name) if store else
                        Msg("No revealed card is playable: the Machine plays nothing more this turn."),
                        why=Msg("New Hope: none of the {n} revealed cards has a playable option (New Hope was the "
                                "Machine's move).", n=len(cards)),
                        not_fired=not_fired, cards=_discard_all(cards, keep=store))
    best = _best([c for c, _ in candidates])
    play = next(p for c, p in candidates if c is best)
    store = bio if bio is not None and bio is not best else None
    why = _then(Msg("New Hope: the highest-value playable option among all {n} revealed cards (a second New Hope "
                    "can't be chosen).", n=len(cards)), _ranking([c for c, _ in candidates], best))
    return _decision_for(solo, play, best, 6, why, not_fired, _discard_all(cards, keep=store), store)


# --- Catastrophes against the Machine (RULES.md Decision from the book's examples #3 and #4) -----


def hand_die(black_faces: int, count: int = 1) -> DieSpec:
    """The Machine's hand die: `black_faces` of its 6 faces show the black hand (the setting), the
    others are blank. Face value v shows faces[v - 1], so a roll of 1..black_faces is a black hand.

    >>> die = hand_die(1, count=3)
    >>> die.label, die.face_name(1), die.face_name(4), die.choices()
    ('hand dice', 'black hand', 'blank', [('black hand', 1), ('blank', 2)])
    """
    return DieSpec(sides=6, faces=(BLACK_HAND,) * black_faces + (BLANK,) * (6 - black_faces),
                   name="hand die" if count == 1 else "hand dice")


def rescue_saved_chance(black_faces: int, count: int) -> Fraction:
    """The exact chance that `count` hand dice show at least one black hand (the one source of it:
    the rescue check's outcomes, and Luck's reading of the rescue rolls)."""
    return 1 - Fraction(6 - black_faces, 6) ** count


def rescue_outcomes(black_faces: int, count: int, due: int) -> list[Outcome]:
    """The rescue check's two outcomes, exactly: any black hand among `count` dice, or none.

    >>> [f"{o.label}: {o.percent}" for o in rescue_outcomes(1, 2, due=4)]  # 1 − (5/6)² = 11/36
    ['any black hand saves the Machine: 31%', 'no black hand: it pays the 4 cards due: 69%']
    """
    saved = rescue_saved_chance(black_faces, count)
    return [Outcome(label=rescue_words(0, due), probability=float(saved)),
            Outcome(label=rescue_words(1, due), probability=float(1 - saved))]


def rescue_words(outcome: int, due: int) -> Msg:
    """The rescue check's outcomes in words: 0 the Machine is saved, 1 it pays."""
    if outcome == 0:
        return Msg("any black hand saves the Machine")
    return Msg("no black hand: it pays the {due} cards due", due=due)


def _set_machine_level(state: State, new: int, events: list[Event]) -> None:
    m = _solo(state).machine
    m.level = max(0, min(MAX_LEVEL, new))
    if m.level == 0 and m.stored:
        events.append(event("stored_discarded", Msg("Hand card level 0: discard the stored {card} card from the "
                                                    "Machine's board.", card=BIO_WORDS), card=m.stored))
        m.stored = None


def _machine_suffers(state: State, category: Category, name: Words, dice: Dice, events: list[Event]) -> None:
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
    hit = dict(category=category, name=_en(name), due=due, protection=shield)
    cat = category_word(category)
    if due == 0:
        events.append(event("machine_hit", Msg("{catastrophe} against the Machine: its perfect {category} achievement "
                                               "protects it; nothing to discard.", catastrophe=name, category=cat),
                            **hit))
        return
    if cube:
        said = Msg("{catastrophe} against the Machine: makeshift {category} achievement → {due} cards due.",
                   catastrophe=name, category=cat, due=due)
    else:
        said = Msg("{catastrophe} against the Machine: no {category} protection → {due} cards due.",
                   catastrophe=name, category=cat, due=due)
    events.append(event("machine_hit", said, **hit))
    if not first:
        events.append(event("rescue_check", Msg("No rescue check: this is not the first catastrophe this round."),
                            rolled=False, reason=Msg("not the first catastrophe this round").english))
    elif m.level == 0:
        events.append(event("rescue_check", Msg("Rescue check: hand card level 0, so no hand dice to roll."),
                            rolled=False, reason=Msg("hand card level 0").english))
    else:
        black = state.settings.hand_die_black_faces
        die = hand_die(black, m.level)
        faces = throw(dice, m.level, Msg("the Machine's rescue check against {catastrophe}", catastrophe=name),
                      die=die, who=THE_MACHINE.english, outcomes=rescue_outcomes(black, m.level, due))
        shown = [die.face_name(f) for f in faces]
        saved = BLACK_HAND in shown
        rolled = dict(n=m.level, faces=joined([FACE_WORDS.get(x, x) for x in shown]))
        check = dict(rolled=True, faces=faces, shown=shown, saved=saved)
        if saved:
            events.append(event("rescue_check", NMsg(
                "Rescue check: {n} hand die shows {faces} → a black hand: the Machine loses only 1 level, {old} → "
                "{new}.",
                "Rescue check: {n} hand dice show {faces} → a black hand: the Machine loses only 1 level, {old} → "
                "{new}.", m.level, old=m.level, new=m.level - 1, faces=rolled["faces"]),
                level_from=m.level, level_to=m.level - 1, **check))
            _set_machine_level(state, m.level - 1, events)
            return
        events.append(event("rescue_check", NMsg("Rescue check: {n} hand die shows {faces} → no black hand.",
                                                 "Rescue check: {n} hand dice show {faces} → no black hand.", m.level,
                                                 faces=rolled["faces"]), **check))
    paid = min(m.level, due)
    rest = due - paid
    if paid:
        events.append(event("machine_pays", Msg("The Machine's hand card level pays {paid}: {old} → {new}.",
                                                paid=paid, old=m.level, new=m.level - paid),
                            paid=paid, level_from=m.level, level_to=m.level - paid))
    _set_machine_level(state, m.level - paid, events)
    if rest == 0:
        return
    order = sorted(m.achievements.items(), key=lambda kv: achievement_value(*kv))
    lost = order[:rest]
    for cat_lost, c in lost:
        del m.achievements[cat_lost]
    if lost:
        events.append(event("achievement_lost", NMsg(
            "{rest} more due: the Machine loses its lowest-value achievement: {lost}.",
            "{rest} more due: the Machine loses its lowest-value achievements: {lost}.", len(lost), rest=rest,
            lost=joined([cube_label(*kv) for kv in lost])),
            side="machine", lost=dict(lost)))
    if rest > len(lost):
        _finish(state, WON, NMsg("The Machine couldn't cover {n} more card with its level and achievements: it is "
                                   "out.",
                                   "The Machine couldn't cover {n} more cards with its level and achievements: it is "
                                   "out.", rest - len(lost)),
                events)


# --- Actions --------------------------------------------------------------------------------------


class MachineReveal(Model):
    """The cards that came up from the Machine's draw pile (full catalog cards, in order)."""

    kind: Literal["machine_reveal"] = "machine_reveal"
    cards: list[Card] = Field(default_factory=list, max_length=8, description=N_("The cards that came up"))


class MachineRevealMore(Model):
    """New Hope's 3 extra cards; `earlier` repeats the cards revealed before (see reveal_more_action)."""

    kind: Literal["machine_reveal_more"] = "machine_reveal_more"
    cards: list[Card] = Field(default_factory=list, max_length=8, description=N_("The cards that came up"))
    earlier: list[Card] = Field(default_factory=list, max_length=8, description=N_("The cards revealed before"))


class HumanDiscard(Model):
    """The human pays what is due: hand cards first, then `give_up` achievements for missing cards;
    or, against a catastrophe, one matching rescue card instead (`rescue`)."""

    kind: Literal["human_discard"] = "human_discard"
    rescue: bool = Field(False, description=N_("A rescue card instead"))
    give_up: list[Category] = Field(default_factory=list, max_length=7, description=N_("Achievements to give up"))


class HumanAchievement(Model):
    kind: Literal["human_achievement"] = "human_achievement"
    category: Category
    cube: Cube = Field(description=N_("Green (perfect) or yellow (makeshift)"))


class HumanCatastrophe(Model):
    """The human plays a catastrophe; `rescue`: a matching rescue card is discarded with it (§2.3.3)."""

    kind: Literal["human_catastrophe"] = "human_catastrophe"
    category: Category
    rescue: bool = False
    name: str = Field("", max_length=40)  # e.g. Hurricane (the name printed on the card), for the history


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
    cards: int = Field(ge=0, le=MAX_HAND, description=N_("Your hand cards"))


class EndTurn(Model):
    kind: Literal["end_turn"] = "end_turn"


class DoomDrawPile(Model):
    """Doom cause 1: your draw pile is empty (+2)."""

    kind: Literal["doom_draw_pile"] = "doom_draw_pile"
    player: int = Field(description=N_("Player"))


class DoomMissing(Model):
    """Doom cause 2: achievements missing when compensating discards (+1 each)."""

    kind: Literal["doom_missing"] = "doom_missing"
    player: int = Field(description=N_("Player"))
    count: int = Field(1, ge=1, le=MAX_DOOM, description=N_("Achievements missing"))


class DoomAttack(Model):
    """Doom cause 3: Attack (attacker +1, attacked +2). None = the Machine (it has no doom)."""

    kind: Literal["doom_attack"] = "doom_attack"
    attacker: Optional[int] = Field(None, description=N_("Played by"))
    target: Optional[int] = Field(None, description=N_("Played on"))


class DoomSpy(Model):
    """Doom cause 4: Espionage or Sabotage (both +1). None = the Machine."""

    kind: Literal["doom_spy"] = "doom_spy"
    by: Optional[int] = Field(None, description=N_("Played by"))
    target: Optional[int] = Field(None, description=N_("Played on"))


class DoomFaceUp(Model):
    """Doom cause 5: Biosphere 5 is one of the face-up cards at the end of your turn (+1)."""

    kind: Literal["doom_face_up"] = "doom_face_up"
    player: int = Field(description=N_("Player"))


class DoomDecrease(Model):
    """The 5th move option: discard cards equal to your doom level, then doom −1."""

    kind: Literal["doom_decrease"] = "doom_decrease"
    player: int = Field(description=N_("Player"))


class LeaderPromote(Model):
    """Better Leadership: one leader up one tier (max 3)."""

    kind: Literal["leader_promote"] = "leader_promote"
    player: int = Field(description=N_("Player"))
    leader: Leader


class LeaderAbility(Model):
    """Shown Strength: use an ability of `tier` (up to the leader's tier). `target` for Finally true
    (required) and the Fighter's abilities (optional, for the history)."""

    kind: Literal["leader_ability"] = "leader_ability"
    player: int = Field(description=N_("Player"))
    leader: Leader
    tier: int = Field(ge=1, le=MAX_TIER, description=N_("Tier of the ability"))
    target: Optional[int] = Field(None, description=N_("On whom"))


class DeclareBiosphere(Model):
    """Against people: this player established Biosphere 5 and wins."""

    kind: Literal["declare_biosphere"] = "declare_biosphere"
    player: int = Field(description=N_("Player"))


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
        raise RuleError(Msg("The game is over: {result}.", result=result_words(state.result)))
    if action.kind in SOLO_KINDS and state.solo is None:
        raise RuleError(Msg("That move is for a game against the Machine."))
    if action.kind in ABYSS_KINDS and state.abyss is None:
        raise RuleError(Msg("That move belongs to The Abyss, which is off in this game."))
    if action.kind == "declare_biosphere" and state.solo is not None:
        raise RuleError(Msg("Against the Machine, play Biosphere 5 with the human Biosphere 5 move."))
    # A copy through plain data: several times quicker than a deep copy, and `moves` runs apply often.
    new = State.model_validate(state.model_dump())
    events: list[Event] = []
    _HANDLERS[action.kind](new, action, dice, events)
    if new.abyss is not None:
        _check_abyss_end(new, events)  # once, after all of the move's doom changes: several may go out at once
    return new, events


def _solo(state: State) -> Solo:
    if state.solo is None:
        raise RuleError(Msg("This game has no Machine."))
    return state.solo


RESULT_WORDS = {"Won": Msg("Won"), "Lost": Msg("Lost"), "No winner": Msg("No winner")}
WON, LOST, NO_WINNER = RESULT_WORDS  # the results as the state keeps them
# The endings of a named result ("Ada wins"), as the state keeps it: the English of its message.
_WINS, _LAST_IN = (Msg("{name} wins", name="").english, Msg("{name} is the last one in", name="").english)


def result_words(result: Optional[str]) -> Optional[Words]:
    """A game's result as a phone says it: 'Won', 'Lost', 'No winner', '<name> wins', '<name> is the
    last one in' (the state keeps them in English, for code)."""
    if result is None or result in RESULT_WORDS:
        return RESULT_WORDS.get(result or "")
    if result.endswith(_WINS):
        return Msg("{name} wins", name=result[: -len(_WINS)])
    if result.endswith(_LAST_IN):
        return Msg("{name} is the last one in", name=result[: -len(_LAST_IN)])
    return result


def _finish(state: State, result: str, reason: Words, events: list[Event]) -> None:
    if state.result is None:
        state.result, state.reason = result, reason
        events.append(event("game_over", Msg("{result}: {reason}", result=result_words(result), reason=reason),
                            result=result, reason=_en(reason)))


def _need_phase(solo: Solo, *phases: str) -> None:
    if solo.phase not in phases:
        raise RuleError({"machine": Msg("Not now: it is the Machine's turn: reveal its cards."),
                         "new_hope": Msg("Not now: the Machine played New Hope: reveal 3 more cards."),
                         "discard": Msg("Not now: you must discard first."),
                         "human": Msg("Not now: it is your turn.")}[solo.phase])


# Machine's turn --------------------------------------------------------------------------------


def _machine_reveal(state: State, a: MachineReveal, dice: Dice, events: list[Event]) -> None:
    solo = _solo(state)
    _need_phase(solo, "machine")
    decision = machine_decide(state, a.cards)
    level = solo.machine.level
    shown = dict(cards=[c.id for c in a.cards], level=level)
    if a.cards:
        events.append(event("machine_reveal", Msg("The Machine reveals {n} (hand card level {level}): {cards}.",
                                                  n=len(a.cards), level=level,
                                                  cards=", ".join(c.name for c in a.cards)), **shown))
    elif decision.rule == 1:
        events.append(event("machine_reveal", Msg("The stored {card} card is checked before revealing.", card=BIO_WORDS),
                            stored_checked=True, **shown))
    else:
        events.append(event("machine_reveal", Msg("The Machine reveals no cards (hand card level {level}).",
                                                  level=level), **shown))
    solo.reveal = Reveal(revealed=[c.id for c in a.cards])
    if decision.play == "new_hope":
        solo.reveal.new_hope_index = next(i for i, c in enumerate(a.cards) if c.id == decision.card_id
                                          and c.lower.kind == "new_hope")
    _carry_out(state, decision, dice, events)


def _machine_reveal_more(state: State, a: MachineRevealMore, dice: Dice, events: list[Event]) -> None:
    solo = _solo(state)
    _need_phase(solo, "new_hope")
    decision = machine_decide(state, [*a.earlier, *a.cards])
    events.append(event("new_hope_reveal", Msg("New Hope: {n} more revealed: {cards}.", n=len(a.cards),
                                               cards=", ".join(c.name for c in a.cards)),
                        cards=[c.id for c in a.cards]))
    _carry_out(state, decision, dice, events)


def _carry_out(state: State, d: Decision, dice: Dice, events: list[Event]) -> None:
    """Apply the Machine's decision to the state and say so."""
    solo = _solo(state)
    m, h = solo.machine, solo.human
    solo.decision = d
    played = dict(card=d.card_id, option=_en(d.option_name), category=d.category, cube=d.cube)
    events.append(event("machine_decision", d.instruction, rule=d.rule, play=d.play,
                        **{k: v for k, v in played.items() if v is not None}))
    events.append(event("machine_why", Msg("Why: {reason}", reason=d.why), rule=d.rule))
    events.extend(event("rule_not_fired", x) for x in d.not_fired)
    if d.play != "new_hope":
        events.append(event("revealed_cards", d.cards, **({"keep": d.store_id} if d.store_id else {})))
    if d.store_id and d.play != "store":
        events.append(event("machine_stores", Msg("{card} is stored on the Machine's board (it wasn't played).",
                                                  card=BIO_WORDS), card=d.store_id))
        m.stored = d.store_id
    if d.play == "biosphere":
        if d.rule == 1:
            m.stored = None
        _finish(state, LOST, Msg("The Machine established Biosphere 5."), events)
    elif d.play == "attack":
        cat = d.category
        assert cat is not None
        events.append(event("achievement_lost", Msg("Your {achievement} is destroyed.",
                                                    achievement=achievement_label(cat, h.achievements[cat])),
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
        solo.due = Due(cards=3, why=Msg("Sabotage: shuffle your hand and discard the top three cards. If you have "
                                        "fewer, give up one achievement for each card missing."))
    elif d.play == "espionage":
        solo.due = Due(cards=1, why=Msg("Espionage: discard your hand card with the highest level. With no cards, "
                                        "give up an achievement."))
    elif d.play == "new_hope":
        _set_machine_level(state, m.level + 2, events)
        solo.phase = "new_hope"
        return
    elif d.play == "catastrophe":
        cat = d.category
        assert cat is not None
        name = d.option_name or category_word(cat)
        mine = h.achievements.get(cat)
        due = cards_due(mine)
        # The catastrophe hits the human first and the Machine last.
        if due:
            words = dict(catastrophe=name, category=category_word(cat), due=due)
            solo.due = Due(cards=due, rescue=cat, then_machine=cat, then_machine_name=name,
                           why=Msg("{catastrophe} hits you first: your makeshift {category} achievement → discard "
                                   "{due} cards, or one {category} rescue card instead. If you have too few cards, "
                                   "give up one achievement for each card missing.", **words) if mine else
                           Msg("{catastrophe} hits you first: you have no {category} protection → discard {due} "
                               "cards, or one {category} rescue card instead. If you have too few cards, give up one "
                               "achievement for each card missing.", **words))
        else:
            events.append(event("human_protected", Msg("Your perfect {category} achievement protects you from "
                                                        "{catastrophe}.", category=category_word(cat),
                                                        catastrophe=name),
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
            raise RuleError(Msg("A rescue card helps only against a catastrophe."))
        if a.give_up:
            raise InputError(Msg("With a rescue card you give up nothing else: leave the achievements empty."))
        if h.hand < 1:
            raise RuleError(Msg("You have no hand card, so no rescue card to discard."))
        h.hand -= 1
        events.append(event("human_rescue", Msg("You discard a {category} rescue card instead of {due} cards.",
                                                category=category_word(due.rescue), due=due.cards),
                            category=due.rescue, instead_of=due.cards))
    else:
        paid, short, need = discard_terms(solo)
        if len(set(a.give_up)) != len(a.give_up):
            raise InputError(Msg("Name each achievement to give up once."))
        for cat in a.give_up:
            if cat not in h.achievements:
                raise RuleError(Msg("You hold no {category} achievement to give up.", category=category_word(cat)))
        if len(a.give_up) != need:
            if short == 0:
                raise RuleError(Msg("Your {hand} hand cards cover the {due} due: give up no achievement.",
                                    hand=h.hand, due=due.cards))
            raise RuleError(Msg("Hand cards go first: {short}, so give up {need} (you named {named}).",
                                short=NMsg("you are {n} card short", "you are {n} cards short", short),
                                need=NMsg("{n} achievement", "{n} achievements", need), named=len(a.give_up)))
        h.hand -= paid
        said = (NMsg("You discard {n} card (hand {old} → {new}).", "You discard {n} cards (hand {old} → {new}).", paid,
                     old=h.hand + paid, new=h.hand) if paid
                else Msg("You have no hand cards to discard."))
        events.append(event("human_discard", said, cards=paid, hand_from=h.hand + paid, hand_to=h.hand))
        for cat in a.give_up:
            events.append(event("achievement_lost", Msg("You give up your {achievement}.",
                                                        achievement=achievement_label(cat, h.achievements[cat])),
                                side="human", lost={cat: h.achievements[cat]}))
            del h.achievements[cat]
        missing = short - need
        if missing:
            if state.abyss is not None:
                # The Abyss (§3.4): no loss for missing cards; doom +1 per achievement missing instead.
                _add_doom(state, 0, missing, Msg("achievements missing to compensate"), events)
                _check_abyss_end(state, events)
            else:
                _finish(state, LOST, NMsg("You couldn't cover {n} card with hand cards and achievements: the Machine "
                                            "wins.",
                                            "You couldn't cover {n} cards with hand cards and achievements: the "
                                            "Machine wins.", missing), events)
    solo.due = None
    if due.then_machine and state.result is None:
        _machine_suffers(state, due.then_machine, due.then_machine_name, dice, events)
    if solo.due is None:
        solo.phase = "human"


# Human's turn ----------------------------------------------------------------------------------


# Every play costs a card, so with none counted this is the first thing the human is told (a new
# game starts at 0: the first turn asks for the hand size rather than for a level).
NO_HAND = Msg("Enter your hand size first: the app counts 0 cards in your hand.")


def _need_hand(h: HumanBoard) -> None:
    if h.hand == 0:
        raise RuleError(NO_HAND)


def _play_card(h: HumanBoard, count: int = 1) -> None:
    _need_hand(h)
    if h.hand < count:
        raise RuleError(NMsg("You need {n} hand card for that; you have {hand} (correct your hand size if it is "
                             "wrong).",
                             "You need {n} hand cards for that; you have {hand} (correct your hand size if it is "
                             "wrong).", count, hand=h.hand))
    h.hand -= count


def _human_achievement(state: State, a: HumanAchievement, dice: Dice, events: list[Event]) -> None:
    solo = _solo(state)
    _need_phase(solo, "human")
    _need_hand(solo.human)
    h = solo.human
    if a.category == "salvation":
        raise InputError(Msg("Achievements are water, housing, security, production, nature or community."))
    if h.achievement_this_turn:
        raise RuleError(Msg("At most one achievement per turn (§2.1)."))
    blocked = achievement_block(h.achievements, a.category, CATEGORY_LEVEL[a.category])
    if blocked:
        raise RuleError(Msg("You can't place a {category} achievement: {reason}.", category=category_word(a.category),
                            reason=blocked))
    _play_card(h)
    h.achievements[a.category] = a.cube
    h.achievement_this_turn = True
    events.append(event("human_achievement", Msg("You play a {achievement}.",
                                                 achievement=achievement_label(a.category, a.cube)),
                        category=a.category, cube=a.cube))


def _human_catastrophe(state: State, a: HumanCatastrophe, dice: Dice, events: list[Event]) -> None:
    solo = _solo(state)
    _need_phase(solo, "human")
    _need_hand(solo.human)
    h, cat = solo.human, a.category
    if cat == "salvation":
        raise InputError(Msg("Catastrophes are of water, housing, security, production, nature or community."))
    word = category_word(cat)
    blocked = level_block(h.achievements, CATEGORY_LEVEL[cat])
    if blocked:
        raise RuleError(Msg("You can't play a {category} catastrophe: {reason}.", category=word, reason=blocked))
    mine = h.achievements.get(cat)
    if mine is None and not a.rescue:
        raise RuleError(Msg("You can't play a {category} catastrophe without {category} protection (you would discard "
                            "4 yourself), unless you discard a {category} rescue card with it.", category=word))
    _play_card(h, 2 if a.rescue else 1)
    name: Words = a.name or Msg("a {category} catastrophe", category=word)
    events.append(event("human_catastrophe",
                        Msg("You play {catastrophe} and discard a {category} rescue card with it.", catastrophe=name,
                            category=word) if a.rescue else Msg("You play {catastrophe}.", catastrophe=name),
                        category=cat, name=a.name, rescue=a.rescue))
    # The Machine is hit first; the player who played the catastrophe is affected last (§2.3.3).
    _machine_suffers(state, cat, name, dice, events)
    if state.result is not None:
        return
    due = cards_due(mine)
    if a.rescue:
        events.append(event("human_protected", Msg("Your {category} rescue card covers you: nothing more to discard.",
                                                   category=word),
                            category=cat, by="rescue"))
    elif due == 0:
        events.append(event("human_protected", Msg("Your perfect {category} achievement protects you.", category=word),
                            category=cat, by="perfect"))
    else:
        solo.due = Due(cards=due, rescue=cat,
                       why=Msg("{catastrophe} hits you last: your makeshift {category} achievement → discard {due} "
                               "cards, or one {category} rescue card instead. If you have too few cards, give up one "
                               "achievement for each card missing.", catastrophe=name, category=word, due=due))
        solo.phase = "discard"
        events.append(_due_event(solo.due))


def _human_espionage(state: State, a: HumanEspionage, dice: Dice, events: list[Event]) -> None:
    solo = _solo(state)
    _need_phase(solo, "human")
    _need_hand(solo.human)
    blocked = level_block(solo.human.achievements, 2)
    if blocked:
        raise RuleError(Msg("You can't play Espionage (level II): {reason}.", reason=blocked))
    _play_card(solo.human)
    m = solo.machine
    new = max(0, m.level - 1)
    events.append(event("human_espionage",
                        NMsg("Espionage: reveal {n} card from the Machine's draw pile (its hand card level), put the "
                             "one you choose on its discard pile and shuffle the rest back; hand card level {old} → "
                             "{new}.",
                             "Espionage: reveal {n} cards from the Machine's draw pile (its hand card level), put the "
                             "one you choose on its discard pile and shuffle the rest back; hand card level {old} → "
                             "{new}.", m.level, old=m.level, new=new),
                        reveal=m.level, level_from=m.level, level_to=new))
    _set_machine_level(state, m.level - 1, events)


def _human_sabotage(state: State, a: HumanSabotage, dice: Dice, events: list[Event]) -> None:
    solo = _solo(state)
    _need_phase(solo, "human")
    _need_hand(solo.human)
    blocked = level_block(solo.human.achievements, 3)
    if blocked:
        raise RuleError(Msg("You can't play Sabotage (level III): {reason}.", reason=blocked))
    _play_card(solo.human)
    m = solo.machine
    new = max(0, m.level - 3)
    events.append(event("human_sabotage",
                        Msg("Sabotage: put the top three cards of the Machine's draw pile on its discard pile; hand "
                            "card level {old} → {new} (never below 0).", old=m.level, new=new) if m.level < 3 else
                        Msg("Sabotage: put the top three cards of the Machine's draw pile on its discard pile; hand "
                            "card level {old} → {new}.", old=m.level, new=new),
                        level_from=m.level, level_to=new))
    _set_machine_level(state, m.level - 3, events)


def _human_attack(state: State, a: HumanAttack, dice: Dice, events: list[Event]) -> None:
    solo = _solo(state)
    _need_phase(solo, "human")
    _need_hand(solo.human)
    m = solo.machine
    if not m.achievements:
        raise RuleError(Msg("Attack needs a target: the Machine holds no achievement."))
    if a.category not in m.achievements:
        raise RuleError(Msg("The Machine holds no {category} achievement (it holds {held}).",
                            category=category_word(a.category), held=joined(category_word(c) for c in m.achievements)))
    _play_card(solo.human)
    cube = m.achievements[a.category]
    events.append(event("human_attack", Msg("Attack: remove the Machine's {cube}.", cube=cube_label(a.category, cube)),
                        category=a.category, cube=cube))
    del m.achievements[a.category]


def _human_biosphere(state: State, a: HumanBiosphere, dice: Dice, events: list[Event]) -> None:
    solo = _solo(state)
    _need_phase(solo, "human")
    _need_hand(solo.human)
    h = solo.human
    lacking = [c for c in LEVEL_CATEGORIES[3] if c not in h.achievements]
    if lacking:
        raise RuleError(Msg("You can't play Biosphere 5: it needs both level III achievements; missing {missing}.",
                            missing=both([category_word(c) for c in lacking])))
    if h.hand < 6:
        raise RuleError(Msg("Biosphere 5 needs 5 more hand cards to discard with it; you have {hand} cards in all.",
                            hand=h.hand))
    h.hand -= 6
    events.append(event("human_biosphere", Msg("You play Biosphere 5 and discard five cards with it.")))
    _finish(state, WON, Msg("You established Biosphere 5."), events)


def _set_hand(state: State, a: SetHand, dice: Dice, events: list[Event]) -> None:
    solo = _solo(state)
    if a.cards == solo.human.hand:
        raise RuleError(Msg("Your hand is already {n} cards.", n=a.cards))
    events.append(event("hand", Msg("Your hand: {old} → {new} cards.", old=solo.human.hand, new=a.cards),
                        hand_from=solo.human.hand, hand_to=a.cards))
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
        events.append(event("hand_limit", Msg("Hand limit {limit}: discard {n} cards ({old} → {new}).",
                                              limit=HAND_LIMIT, n=excess, old=h.hand, new=HAND_LIMIT),
                            discard=excess, hand_from=h.hand, hand_to=HAND_LIMIT))
        h.hand = HAND_LIMIT
    solo.round += 1
    solo.catastrophes = 0
    h.achievement_this_turn = False
    solo.phase = "machine"
    n = reveal_count(state)
    events.append(event("round", NMsg("Round {round}: the Machine's turn, reveal {n} card.",
                                      "Round {round}: the Machine's turn, reveal {n} cards.", n, round=solo.round),
                        round=solo.round, reveal=n))


# The Abyss ---------------------------------------------------------------------------------------


def _player(state: State, index: Optional[int], role: Optional[Msg] = None,
            allow_machine: bool = False) -> Optional[AbyssPlayer]:
    """The player at `index` (0-based), still in; None = the Machine when that is allowed."""
    abyss = state.abyss
    assert abyss is not None
    role = role or Msg("Player")
    if index is None:
        if allow_machine and state.solo is not None:
            return None
        raise InputError(Msg("{role}: choose a player.", role=role))
    if not 0 <= index <= len(abyss.players) - 1:
        raise InputError(Msg("{role} number must be between {low} and {high} (got {value}).", role=role, low=0,
                             high=len(abyss.players) - 1, value=index))
    player = abyss.players[index]
    if player.out:
        raise RuleError(Msg("{name} is out (doom {max}).", name=player_words(state, index), max=MAX_DOOM))
    return player


def _add_doom(state: State, index: int, amount: int, why: Words, events: list[Event]) -> None:
    player = state.abyss.players[index]  # type: ignore[union-attr]
    who = player_words(state, index)
    old = player.doom
    player.doom = max(0, min(MAX_DOOM, old + amount))
    words = dict(name=who, old=old, new=player.doom, why=why)
    said = (Msg("{name}: doom {old} → {new} (max {max}) ({why}).", max=MAX_DOOM, **words) if old + amount > MAX_DOOM
            else Msg("{name}: doom {old} → {new} ({why}).", **words))
    events.append(event("doom", said, player=index, name=player.name, doom_from=old, doom_to=player.doom,
                        why=_en(why)))
    if player.doom == MAX_DOOM and not player.out:
        player.out = True
        events.append(event("player_out", Msg("{name} reached doom {max} and is out at once.", name=who, max=MAX_DOOM),
                            player=index, name=player.name))


def _check_abyss_end(state: State, events: list[Event]) -> None:
    abyss = state.abyss
    assert abyss is not None
    if state.solo is not None:
        if abyss.players[0].out:
            _finish(state, LOST, Msg("Your doom reached {max}.", max=MAX_DOOM), events)
        return
    left = [p for p in abyss.players if not p.out]
    if not left:
        _finish(state, NO_WINNER, Msg("Everyone's doom reached {max}.", max=MAX_DOOM), events)
    elif len(left) == 1:
        _finish(state, left[0].name + _LAST_IN,
                Msg("The others reached doom 8 (§2.2 says who wins when the last rival drops out)."), events)


def _doom_draw_pile(state: State, a: DoomDrawPile, dice: Dice, events: list[Event]) -> None:
    _player(state, a.player)
    _add_doom(state, a.player, 2, Msg("draw pile empty"), events)


def _doom_missing(state: State, a: DoomMissing, dice: Dice, events: list[Event]) -> None:
    _player(state, a.player)
    _add_doom(state, a.player, a.count, NMsg("{n} achievement missing to compensate",
                                             "{n} achievements missing to compensate", a.count), events)


# (played it, hit by it, the Machine played it) for Attack and for Espionage/Sabotage.
TWO_SIDED = {"attack": (Msg("played Attack"), Msg("hit by Attack"), Msg("it played Attack")),
             "spy": (Msg("played Espionage/Sabotage"), Msg("hit by Espionage/Sabotage"),
                                    Msg("it played Espionage/Sabotage"))}


def _two_sided(state: State, by: Optional[int], target: Optional[int], by_up: int, target_up: int, what: str,
               events: list[Event]) -> None:
    """Attack / Espionage / Sabotage doom: both sides rise (None = the Machine, which has no doom)."""
    played, hit, machine_played = TWO_SIDED[what]
    option = LOWER_LABEL["attack"] if what == "attack" else Msg("Espionage/Sabotage")
    if by is None and target is None:
        raise InputError(Msg("{option}: name at least one player.", option=option))
    if by == target:
        raise InputError(Msg("{option}: the player who plays it and the target must differ.", option=option))
    _player(state, by, Msg("Played by"), allow_machine=True)
    _player(state, target, Msg("Target"), allow_machine=True)
    for index, up, role, machine_role in ((by, by_up, played, machine_played), (target, target_up, hit, hit)):
        if index is None:
            events.append(event("machine_no_doom", Msg("The Machine has no doom ({role}).", role=machine_role),
                                role=role.english))
        else:
            _add_doom(state, index, up, role, events)


def _doom_attack(state: State, a: DoomAttack, dice: Dice, events: list[Event]) -> None:
    _two_sided(state, a.attacker, a.target, 1, 2, "attack", events)


def _doom_spy(state: State, a: DoomSpy, dice: Dice, events: list[Event]) -> None:
    _two_sided(state, a.by, a.target, 1, 1, "spy", events)


def _doom_face_up(state: State, a: DoomFaceUp, dice: Dice, events: list[Event]) -> None:
    _player(state, a.player)
    _add_doom(state, a.player, 1, Msg("Biosphere 5 face up at the end of the turn"), events)


def _doom_decrease(state: State, a: DoomDecrease, dice: Dice, events: list[Event]) -> None:
    player = _player(state, a.player)
    assert player is not None
    who = player_words(state, a.player)
    if player.doom == 0:
        raise RuleError(Msg("Your doom is already 0.") if _is_you(state, a.player)
                        else Msg("{name}'s doom is already 0.", name=who))
    if state.solo is not None:
        h = state.solo.human
        if h.hand < player.doom:
            raise RuleError(Msg("Lowering doom {doom} takes {doom} cards; you have {hand}.", doom=player.doom,
                                hand=h.hand))
        h.hand -= player.doom
    events.append(event("doom_discard", NMsg("{name} discards {n} card (equal to the doom level).",
                                             "{name} discards {n} cards (equal to the doom level).", player.doom,
                                             name=who),
                        player=a.player, cards=player.doom))
    _add_doom(state, a.player, -1, Msg("5th move option"), events)


def _leader_promote(state: State, a: LeaderPromote, dice: Dice, events: list[Event]) -> None:
    player = _player(state, a.player)
    assert player is not None
    who, leader = player_words(state, a.player), LEADER_NAMES[a.leader]
    tier = player.leaders[a.leader]
    if tier >= MAX_TIER:
        raise RuleError(Msg("Your {leader} is at tier {max} already.", leader=leader, max=MAX_TIER)
                        if _is_you(state, a.player) else
                        Msg("{name}'s {leader} is at tier {max} already.", name=who, leader=leader, max=MAX_TIER))
    player.leaders[a.leader] = tier + 1
    said = dict(leader=leader, old=tier, new=tier + 1, ability=ability_text(a.leader, tier + 1))
    events.append(event("leader_promote", Msg("Better Leadership: your {leader} tier {old} → {new}. {ability}", **said)
                        if _is_you(state, a.player) else
                        Msg("Better Leadership: {name}'s {leader} tier {old} → {new}. {ability}", name=who, **said),
                        player=a.player, leader=a.leader, tier=tier + 1))


def _leader_ability(state: State, a: LeaderAbility, dice: Dice, events: list[Event]) -> None:
    player = _player(state, a.player)
    assert player is not None and state.abyss is not None
    who, leader = player_words(state, a.player), LEADER_NAMES[a.leader]
    have = player.leaders[a.leader]
    if a.tier not in usable_tiers(player, a.leader):
        said = dict(leader=leader, have=have, tier=a.tier)
        raise RuleError(Msg("Your {leader} is at tier {have}; tier {tier} isn't reached.", **said)
                        if _is_you(state, a.player) else
                        Msg("{name}'s {leader} is at tier {have}; tier {tier} isn't reached.", name=who, **said))
    title, text = LEADER_ABILITIES[a.leader][a.tier]
    key = (a.leader, a.tier)
    targets = ability_targets(state.abyss, a.player, a.leader, a.tier)
    target = None
    if targets is None:
        if a.target is not None:
            raise InputError(Msg("{ability} has no target.", ability=title))
    elif a.target is None:
        if None not in targets:
            raise InputError(Msg("{ability}: choose the player whose doom rises by 2.", ability=title))
    else:
        target = _player(state, a.target, Msg("Target"))
        if a.target not in targets:
            raise InputError(Msg("{ability}: the target is an opponent.", ability=title))
    if key == ("true_believer", 1) and player.doom == 0:
        raise RuleError(Msg("Glimmer of Hope would do nothing: your doom is already 0.") if _is_you(state, a.player)
                        else Msg("Glimmer of Hope would do nothing: {name}'s doom is already 0.", name=who))
    used = dict(name=who, leader=leader, tier=a.tier, ability=title, text=text)
    events.append(event("leader_ability",
                        Msg("Shown Strength: {name} uses {leader} tier {tier} (instead of tier {have}'s) – {ability}: "
                            "{text}", have=have, **used) if a.tier < have else
                        Msg("Shown Strength: {name} uses {leader} tier {tier} – {ability}: {text}", **used),
                        player=a.player, leader=a.leader, tier=a.tier, leader_tier=have, title=title.english,
                        target=a.target))
    if key == ("true_believer", 1):
        _add_doom(state, a.player, -1, title, events)
    elif key == ("true_believer", 2):
        _add_doom(state, a.player, 4 - player.doom, Msg("{ability}: set to 4", ability=title), events)
        for i, other in enumerate(state.abyss.players):
            if i != a.player and not other.out:
                _add_doom(state, i, 1, title, events)
    elif key == ("true_believer", 3):
        _add_doom(state, a.target or 0, 2, title, events)
    elif key == ("commander", 3):
        player.leaders = {lead: MAX_TIER for lead in LEADERS}
        events.append(event("leaders_raised", Msg("All your leaders are at tier {max} now.", max=MAX_TIER)
                            if _is_you(state, a.player) else
                            Msg("All of {name}'s leaders are at tier {max} now.", name=who, max=MAX_TIER),
                            player=a.player))
    elif a.leader == "fighter" and target is not None:
        count = {1: 2, 3: player.doom}.get(a.tier)  # Scorched Earth: twice what the Fighter discards
        whom = player_words(state, a.target or 0)
        said = {1: Msg("{name} discards 2 cards.", name=whom),
                3: NMsg("{name} discards {n} card (your doom level).", "{name} discards {n} cards (your doom level).",
                        player.doom, name=whom)}.get(a.tier, Msg("{name} discards twice what you discard.", name=whom))
        events.append(event("opponent_discards", said, player=a.target, cards=count))


def _declare_biosphere(state: State, a: DeclareBiosphere, dice: Dice, events: list[Event]) -> None:
    if state.abyss is None:
        raise RuleError(Msg("No players are tracked in this game."))
    player = _player(state, a.player)
    assert player is not None
    _finish(state, player.name + _WINS, Msg("{name} established Biosphere 5.", name=player_words(state, a.player)),
            events)


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


def human_can_play(state: State, level: int) -> Optional[Msg]:
    """Why the human can't play an option of this level now (None: playable). Attack: use level 1."""
    return level_block(_solo(state).human.achievements, level)


def is_win(state: State) -> bool:
    """The game ended with a winner at the table: you beat the Machine, or a player won."""
    return state.result is not None and state.result not in (LOST, NO_WINNER)


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


def _ready(state: State, kind: str, label: Words, action: Any) -> Move:
    return Move(kind=kind, label=label, action=action, why_not=GAME.why_not(state, action))


def _cards(n: int) -> Msg:
    return NMsg("{n} card", "{n} cards", n)


def _achievements(n: int) -> Msg:
    return NMsg("{n} achievement", "{n} achievements", n)


def _solo_moves(state: State) -> list[Move]:
    solo = _solo(state)
    found: list[Move] = []
    if solo.phase in ("machine", "new_hope"):
        n = reveal_count(state)
        cards = (FieldSpec(name="cards", label=NMsg("The {n} card that came up", "The {n} cards that came up", n),
                           low=n, high=n),)
        if solo.phase == "new_hope":
            found.append(Move(kind="machine_reveal_more", label=Msg("Reveal {n} more cards", n=n), fields=cards))
        elif n == 0:
            found.append(Move(kind="machine_reveal", label=Msg("Let the Machine decide"), action=MachineReveal()))
        else:
            found.append(Move(kind="machine_reveal", label=NMsg("Reveal {n} card", "Reveal {n} cards", n),
                              fields=cards))
    elif solo.phase == "discard":
        due = solo.due
        assert due is not None
        paid, short, need = discard_terms(solo)
        held = [c for c in ACHIEVEMENTS if c in solo.human.achievements]
        said = (NMsg("I discarded {n} card", "I discarded {n} cards", paid) if paid
                else Msg("I have no cards to discard"))
        if 0 < need < len(held):  # which achievements to give up is the player's choice
            some = _achievements(need)
            found.append(Move(kind="human_discard", label=Msg("{discarded} and give up {some}", discarded=said,
                                                              some=some),
                              fields=(FieldSpec(name="give_up", label=Msg("You are {short} short: choose {some} to "
                                                                          "give up", short=_cards(short), some=some),
                                                low=need, high=need, choices=tuple(held)),)))
        else:
            give_up = held if need else []
            found.append(_ready(state, "human_discard",
                                Msg("{discarded} and give up {achievements}", discarded=said,
                                    achievements=joined(category_word(c) for c in give_up)) if give_up else said,
                                HumanDiscard(give_up=give_up)))
        if due.rescue:
            found.append(_ready(state, "human_discard", Msg("I discarded a {category} rescue card instead",
                                                            category=category_word(due.rescue)),
                                HumanDiscard(rescue=True)))
    else:
        m = solo.machine
        for cat in ACHIEVEMENTS:
            for cube in ("green", "yellow"):
                title = CATEGORY_TITLES[cat]
                found.append(_ready(state, "human_achievement",
                                    Msg("Perfect {category} achievement", category=category_word(cat))
                                    if cube == "green" else
                                    Msg("Makeshift {category} achievement", category=category_word(cat)),
                                    HumanAchievement(category=cat, cube=cube)))
        for cat in ACHIEVEMENTS:
            title = CATEGORY_TITLES[cat]
            for rescue in (False, True):
                found.append(_ready(state, "human_catastrophe",
                                    Msg("{category} catastrophe with a rescue card", category=title) if rescue
                                    else Msg("{category} catastrophe", category=title),
                                    HumanCatastrophe(category=cat, rescue=rescue)))
        found.append(_ready(state, "human_espionage", LOWER_LABEL["espionage"], HumanEspionage()))
        found.append(_ready(state, "human_sabotage", LOWER_LABEL["sabotage"], HumanSabotage()))
        targets = sorted(m.achievements.items(), key=lambda kv: ACHIEVEMENTS.index(kv[0]))
        for cat, cube in targets or [(ACHIEVEMENTS[0], None)]:  # with no target, Attack is listed greyed out
            found.append(_ready(state, "human_attack", Msg("Attack the Machine's {cube}", cube=cube_label(cat, cube))
                                if cube else LOWER_LABEL["attack"], HumanAttack(category=cat)))
        found.append(_ready(state, "human_biosphere", KIND_WORDS["biosphere"], HumanBiosphere()))
        found.append(_ready(state, "end_turn", Msg("End my turn"), EndTurn()))
    found.append(Move(kind="set_hand", label=Msg("Your hand cards"), fields=field_specs(SetHand)))
    return found


# The Abyss's moves in a few words, for their buttons (RULES.md §4: the doom causes and leader moves).
ABYSS_LABELS = {
    "doom_draw_pile": Msg("Draw pile empty +2"),
    "doom_missing": Msg("Achievement missing +1"),
    "doom_attack": Msg("Attack: attacker +1, attacked +2"),
    "doom_spy": Msg("Espionage/Sabotage: both +1"),
    "doom_face_up": Msg("Biosphere 5 face up +1"),
    "doom_decrease": Msg("Lower doom −1 (discard as many cards as your doom)"),
    "leader_promote": Msg("Better Leadership: a leader up one tier"),
    "leader_ability": Msg("Shown Strength: a leader's ability, of its tier or a lower one"),
    "declare_biosphere": Msg("Biosphere 5 established: this player wins"),
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


_DESCRIBED = {
    "human_espionage": Msg("Espionage against the Machine"), "human_sabotage": Msg("Sabotage against the Machine"),
    "human_biosphere": Msg("play Biosphere 5"), "end_turn": Msg("end your turn"),
    "doom_draw_pile": Msg("doom +2 (draw pile empty)"), "doom_attack": Msg("doom: Attack"),
    "doom_spy": Msg("doom: Espionage/Sabotage"), "doom_face_up": Msg("doom +1 (Biosphere face up)"),
    "doom_decrease": Msg("doom −1 (discard)"), "declare_biosphere": Msg("Biosphere 5 established"),
}


def describe(action: Action) -> Msg:
    if isinstance(action, MachineReveal):
        return Msg("Machine reveals {n}", n=len(action.cards))
    if isinstance(action, MachineRevealMore):
        return Msg("New Hope: 3 more revealed")
    if isinstance(action, HumanDiscard):
        if action.rescue:
            return Msg("discard a rescue card")
        return (Msg("discard, give up {achievements}", achievements=joined(category_word(c) for c in action.give_up))
                if action.give_up else Msg("discard"))
    if isinstance(action, HumanAchievement):
        return achievement_label(action.category, action.cube)
    if isinstance(action, HumanCatastrophe):
        if action.name:
            return Msg("{catastrophe} against the Machine", catastrophe=action.name)
        return Msg("{category} catastrophe against the Machine", category=category_word(action.category))
    if isinstance(action, HumanAttack):
        return Msg("Attack the Machine's {category}", category=category_word(action.category))
    if isinstance(action, SetHand):  # (undo says "Undo: hand set to 1 card")
        return NMsg("hand set to {n} card", "hand set to {n} cards", action.cards)
    if isinstance(action, DoomMissing):
        return Msg("doom +{n} (achievements missing)", n=action.count)
    if isinstance(action, LeaderPromote):
        return Msg("promote {leader}", leader=LEADER_NAMES[action.leader])
    if isinstance(action, LeaderAbility):
        title = LEADER_ABILITIES[action.leader].get(action.tier, (Msg("ability"), ""))[0]
        return Msg("{leader}: {ability}", leader=LEADER_NAMES[action.leader], ability=title)
    return _DESCRIBED[action.kind]


# What older saves' rows say, kept in the catalogs so a phone still says them in its language.
EARLIER_LABELS = (N_("hand {n} cards"),)


def headline(state: State) -> Msg:
    if state.solo is not None:
        solo = state.solo
        if state.result:
            return Msg("Round {round} · {result}", round=solo.round, result=result_words(state.result))
        phase = {
            "machine": Msg("Machine's turn · reveal {n}", n=reveal_count(state)),
            "new_hope": Msg("Machine's turn · New Hope: reveal 3 more"),
            "discard": Msg("You discard {n}", n=solo.due.cards if solo.due else 0),
            "human": Msg("Your turn"),
        }[solo.phase]
        return Msg("Round {round} · {phase} · Machine level {level}", round=solo.round, phase=phase,
                   level=solo.machine.level)
    assert state.abyss is not None
    if state.result:
        return Msg("The Abyss · {result}", result=result_words(state.result))
    players = state.abyss.players
    return Msg("The Abyss · {n} of {total} players in", n=sum(not p.out for p in players), total=len(players))


def outcome(state: State) -> Optional[Words]:
    return result_words(state.result)


GAME = Game(
    key="biosphere5",
    title=KIND_WORDS["biosphere"].english,  # the published name, the same in every language
    summary=Msg("The Abyss's doom and leaders, and the automated Machine for the solo game."),
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
