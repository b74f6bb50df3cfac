"""Biosphere 5's cards as data: the catalog types, card value, playability by level, deck checks.

Every card has two options (rulebook §2.3, fig. 6):
- the upper option: a perfect achievement (green cube), a makeshift achievement (yellow cube), a
  rescue card, or Biosphere 5; with a category and a level I–IV;
- the lower option: a catastrophe of a category, New Hope, Espionage, Sabotage or Attack; with a level.

The rulebook names only some cards, so a catalog may hold unknown fields (None) until the player
completes it from their box. The Machine's decisions need complete cards (`require_complete`).
Pure: no I/O. The app reads and writes catalog files; `parse_catalog` checks their text.
"""

from __future__ import annotations

from typing import Annotated, Any, Iterable, Literal, Optional, Sequence

from pydantic import BeforeValidator, Field, ValidationError, model_validator

from companion.games.base import InputError, Model, Words
from companion.i18n import Msg, NMsg, joined

DECK_SIZE = 25  # "a deck of 25 cards" (§1.2)
MAX_CATALOG_TEXT = 64_000  # characters; a 25-card catalog is far smaller (refuses oversized imports)

Category = Literal["housing", "water", "production", "security", "nature", "community", "salvation"]
UpperKind = Literal["perfect", "makeshift", "rescue", "biosphere"]
LowerKind = Literal["catastrophe", "new_hope", "espionage", "sabotage", "attack"]
Cube = Literal["green", "yellow"]  # green = perfect achievement, yellow = makeshift (§4.1)

# Card value, lowest first (§4.4): categories in this order within each class.
CATEGORY_ORDER: tuple[Category, ...] = (
    "housing", "water", "production", "security", "nature", "community", "salvation",
)
# The class counts first: perfect (incl. Biosphere) > makeshift > rescue.
CLASS_RANK: dict[str, int] = {"rescue": 0, "makeshift": 1, "perfect": 2, "biosphere": 2}

# The level of each problem (RULES.md §4): I water, housing · II security, production ·
# III nature, community. Salvation (Biosphere 5) is level IV.
CATEGORY_LEVEL: dict[str, int] = {
    "water": 1, "housing": 1, "security": 2, "production": 2, "nature": 3, "community": 3,
    "salvation": 4,
}
LEVEL_CATEGORIES: dict[int, tuple[Category, Category]] = {
    1: ("water", "housing"), 2: ("security", "production"), 3: ("nature", "community"),
}
# The lower options other than catastrophes have fixed levels (fig. 6: I New Hope, II Espionage,
# III Sabotage, IV Attack).
LOWER_LEVEL: dict[str, int] = {"new_hope": 1, "espionage": 2, "sabotage": 3, "attack": 4}
CUBE_OF: dict[str, Cube] = {"perfect": "green", "makeshift": "yellow"}
KIND_OF_CUBE: dict[str, str] = {"green": "perfect", "yellow": "makeshift"}
ROMAN = {1: "I", 2: "II", 3: "III", 4: "IV"}
LOWER_LABEL = {
    "catastrophe": Msg("catastrophe"), "new_hope": Msg("New Hope"), "espionage": Msg("Espionage"),
    "sabotage": Msg("Sabotage"), "attack": Msg("Attack"),
}
# The words a player reads for a category, a card class and a cube (said in each phone's language; the
# game's data keeps the English keys).
CATEGORY_WORDS: dict[str, Msg] = {
    "housing": Msg("housing"), "water": Msg("water"), "production": Msg("production"),
    "security": Msg("security"), "nature": Msg("nature"), "community": Msg("community"),
    "salvation": Msg("salvation"),
}
# The same at the start of a label ("Water catastrophe").
CATEGORY_TITLES: dict[str, Msg] = {
    "housing": Msg("Housing"), "water": Msg("Water"), "production": Msg("Production"),
    "security": Msg("Security"), "nature": Msg("Nature"), "community": Msg("Community"),
    "salvation": Msg("Salvation"),
}
KIND_WORDS: dict[str, Msg] = {
    "perfect": Msg("perfect"), "makeshift": Msg("makeshift"), "rescue": Msg("rescue"),
    "biosphere": Msg("Biosphere 5"),
}
_MISSING_WORDS: dict[str, Msg] = {
    "upper kind": Msg("upper kind"), "upper category": Msg("upper category"), "upper level": Msg("upper level"),
    "lower kind": Msg("lower kind"), "lower level": Msg("lower level"), "lower category": Msg("lower category"),
}


def category_word(category: Optional[str]) -> Words:
    """A category as a player reads it ('water' → Msg, 'Wasser' on a German phone)."""
    return CATEGORY_WORDS.get(category or "", str(category))


def both(items: Sequence[Words]) -> Words:
    """'housing and water' (one or two items)."""
    return items[0] if len(items) == 1 else Msg("{first} and {second}", first=items[0], second=items[1])


def _roman_level(value: Any) -> Any:
    # Accept "I".."IV" as well as 1..4 in catalog files; always stored as an integer.
    if isinstance(value, str):
        roman = {v: k for k, v in ROMAN.items()}
        text = value.strip().upper()
        if text in roman:
            return roman[text]
        if text.isdigit():
            return int(text)
    return value


Level = Annotated[int, BeforeValidator(_roman_level), Field(ge=1, le=4)]


class Upper(Model):
    """The upper option. `kind` is the card class; None marks a field not known yet."""

    name: Optional[str] = Field(None, max_length=40)
    kind: Optional[UpperKind] = None
    category: Optional[Category] = None
    level: Optional[Level] = None


class Lower(Model):
    """The lower option. `category` is used by catastrophes only."""

    name: Optional[str] = Field(None, max_length=40)
    kind: Optional[LowerKind] = None
    category: Optional[Category] = None
    level: Optional[Level] = None


class Card(Model):
    id: str = Field(pattern=r"^[a-z0-9][a-z0-9-]{0,47}$")
    name: str = Field(min_length=1, max_length=60)
    copies: int = Field(1, ge=1, le=DECK_SIZE)
    upper: Upper = Field(default_factory=Upper)
    lower: Lower = Field(default_factory=Lower)
    note: str = Field("", max_length=500)

    def missing(self) -> list[Msg]:
        """The fields still unknown, e.g. ['upper kind', 'lower level'] (in each phone's words)."""
        out = [_MISSING_WORDS[f"upper {f}"] for f in ("kind", "category", "level") if getattr(self.upper, f) is None]
        out += [_MISSING_WORDS[f"lower {f}"] for f in ("kind", "level") if getattr(self.lower, f) is None]
        if self.lower.kind == "catastrophe" and self.lower.category is None:
            out.append(_MISSING_WORDS["lower category"])
        return out

    @property
    def is_complete(self) -> bool:
        return not self.missing()

    @property
    def is_biosphere(self) -> bool:
        return self.upper.kind == "biosphere"

    @property
    def upper_label(self) -> str:
        return self.upper.name or self.name

    @property
    def lower_label(self) -> Words:
        """The lower option's printed name, or its kind in words ('New Hope')."""
        if self.lower.name:
            return self.lower.name
        return LOWER_LABEL.get(self.lower.kind or "", Msg("lower option"))


class Catalog(Model):
    """A deck as saved and shared. `complete` says the player has checked all 25 cards."""

    format: Literal["biosphere5-catalog"] = "biosphere5-catalog"
    version: Literal[1] = 1
    complete: bool = False
    source: str = Field("", max_length=500)
    cards: list[Card] = Field(default_factory=list, max_length=DECK_SIZE)

    @model_validator(mode="after")
    def _fits_one_deck(self) -> Catalog:
        total = sum(c.copies for c in self.cards)
        if total > DECK_SIZE:
            raise ValueError(Msg("a deck has at most {size} cards; this catalog has {total}", size=DECK_SIZE,
                                 total=total))
        ids = [c.id for c in self.cards]
        doubled = sorted({i for i in ids if ids.count(i) > 1})
        if doubled:
            raise ValueError(Msg("each card id must be unique; repeated: {ids}", ids=", ".join(doubled)))
        return self

    def by_id(self) -> dict[str, Card]:
        return {c.id: c for c in self.cards}


# --- Card value (the Machine's ranking, §4.4) -----------------------------------------------------


def card_value(card: Card) -> tuple[int, int]:
    """The card's value from its upper option: (class rank, category rank); higher is worth more.

    >>> deep_well = Card(id="dw", name="Deep Well", upper=Upper(kind="perfect", category="water", level=1))
    >>> shack = Card(id="sh", name="Shack", upper=Upper(kind="makeshift", category="housing", level=1))
    >>> card_value(deep_well) > card_value(shack)
    True
    """
    if card.upper.kind is None or card.upper.category is None:
        raise InputError(Msg("{card}: its upper option's class and category are needed for its value.",
                             card=card.name))
    return CLASS_RANK[card.upper.kind], CATEGORY_ORDER.index(card.upper.category)


def achievement_value(category: str, cube: str) -> tuple[int, int]:
    """The value of an achievement on display (a cube): same order as card value."""
    return CLASS_RANK[KIND_OF_CUBE[cube]], CATEGORY_ORDER.index(category)  # type: ignore[arg-type]


def value_label(card: Card) -> Msg:
    """'perfect · water' — the two parts of a card's value, for reasons shown to players."""
    kind = KIND_WORDS.get(card.upper.kind or "", str(card.upper.kind))
    return Msg("{kind} · {category}", kind=kind, category=category_word(card.upper.category))


def cube_label(category: str, cube: str) -> Msg:
    """One of the Machine's achievements, as its board shows it: a coloured cube (§4.1)."""
    if cube == "green":
        return Msg("perfect {category} (green cube)", category=category_word(category))
    return Msg("makeshift {category} (yellow cube)", category=category_word(category))


def achievement_label(category: str, cube: str) -> Msg:
    """One of the human's achievements: a card on display, never a cube (the cubes are the Machine's)."""
    if cube == "green":
        return Msg("perfect {category} achievement", category=category_word(category))
    return Msg("makeshift {category} achievement", category=category_word(category))


def kind_achievement(category: str, kind: str) -> Msg:
    """'perfect water achievement' from a card's class (perfect or makeshift)."""
    return achievement_label(category, CUBE_OF.get(kind, "green"))


# --- Playability by level (§2.3) ------------------------------------------------------------------


def level_block(held: Iterable[str], level: int) -> Optional[Msg]:
    """Why an option of `level` can't be played with these achievements on display, or None.

    Level I is always playable. Level II/III: both achievements of the level below, or an
    achievement of the option's own level still on display (after others were destroyed).
    Level IV (Biosphere 5): both level III achievements.
    """
    have = set(held)
    if level <= 1:
        return None
    if level >= 4:
        lacking = [c for c in LEVEL_CATEGORIES[3] if c not in have]
        return None if not lacking else Msg("level IV needs both level III achievements; missing {missing}",
                                            missing=both([category_word(c) for c in lacking]))
    below = LEVEL_CATEGORIES[level - 1]
    if all(c in have for c in below) or any(c in have for c in LEVEL_CATEGORIES[level]):
        return None
    lacking = [c for c in below if c not in have]
    return Msg("level {level} needs both level {below} achievements (missing {missing}) or a level {level} "
               "achievement on display", level=ROMAN[level], below=ROMAN[level - 1],
               missing=both([category_word(c) for c in lacking]))


def can_play_level(held: Iterable[str], level: int) -> bool:
    return level_block(held, level) is None


def achievement_block(held: Iterable[str], category: str, level: int) -> Optional[Msg]:
    """Why an achievement can't be placed, or None: one per category, and the level rule."""
    have = set(held)
    if category in have:
        return Msg("{category} is held already (one achievement per category)", category=category_word(category))
    return level_block(have, level)


def upper_block(card: Card, held: Iterable[str]) -> Optional[Msg]:
    """Why this card's upper option can't be played now (as an achievement/Biosphere), or None."""
    u = card.upper
    if u.kind == "rescue":
        return Msg("a rescue card is only discarded against a catastrophe, never played")
    if u.kind == "biosphere":
        return level_block(held, 4)
    return achievement_block(held, u.category or "", u.level or 1)


def lower_block(card: Card, held: Iterable[str]) -> Optional[Msg]:
    """Why the lower option's level isn't reached, or None. Attack: playable at any level."""
    if card.lower.kind == "attack":
        return None  # RULES.md Decision: Attack is playable regardless of level
    return level_block(held, card.lower.level or 1)


def protection(cube: Optional[str]) -> int:
    """0 none, 1 makeshift, 2 perfect — compared in the Machine's catastrophe rule."""
    return {None: 0, "yellow": 1, "green": 2}[cube]


def cards_due(cube: Optional[str]) -> int:
    """Cards a catastrophe makes you discard: 4 unprotected, 2 with a makeshift, 0 with a perfect."""
    return {None: 4, "yellow": 2, "green": 0}[cube]


# --- Deck checks ----------------------------------------------------------------------------------


class CatalogReport(Model):
    entered: int  # cards entered, counting copies
    total: int = DECK_SIZE
    problems: list[Words]  # impossible as entered: fix these
    missing: list[Words]  # fields still unknown, per card

    @property
    def ok(self) -> bool:
        return not self.problems

    @property
    def complete(self) -> bool:
        return self.entered == self.total and not self.problems and not self.missing

    def summary(self) -> Words:
        parts: list[Words] = [Msg("{entered} of {total} cards entered", entered=self.entered, total=self.total)]
        if self.problems:
            parts.append(NMsg("{n} problem", "{n} problems", len(self.problems)))
        if self.missing:
            parts.append(NMsg("{n} card incomplete", "{n} cards incomplete", len(self.missing)))
        return joined(parts, " · ")


def card_problems(card: Card) -> list[Msg]:
    """What can't be true of a real card as entered. Unknown fields are not problems: they are what
    `Card.missing()` lists (the shipped catalog has such cards until the table completes them)."""
    out: list[Msg] = []
    u, lo, n = card.upper, card.lower, card.name
    if u.kind in ("perfect", "makeshift"):
        if u.category == "salvation":
            out.append(Msg("{card}: salvation is Biosphere 5's category, not an achievement's.", card=n))
        elif u.category is not None and u.level is not None and u.level != CATEGORY_LEVEL[u.category]:
            right = ROMAN[CATEGORY_LEVEL[u.category]]
            out.append(Msg("{card}: a {category} achievement is level {right}, not {level}.", card=n,
                           category=category_word(u.category), right=right, level=ROMAN[u.level]))
    if u.kind == "rescue":
        if u.category == "salvation":
            out.append(Msg("{card}: there is no rescue card against salvation.", card=n))
        if u.level is not None and u.level != 1:
            out.append(Msg("{card}: rescue cards are level I (§2.3), not {level}.", card=n, level=ROMAN[u.level]))
    if u.kind == "biosphere":
        if u.category not in (None, "salvation"):
            out.append(Msg("{card}: Biosphere 5's category is salvation, not {category}.", card=n,
                           category=category_word(u.category)))
        if u.level is not None and u.level != 4:
            out.append(Msg("{card}: Biosphere 5 is level IV, not {level}.", card=n, level=ROMAN[u.level]))
        if lo.kind not in (None, "attack"):
            out.append(Msg("{card}: Biosphere 5's other option is Attack, not {option}.", card=n,
                           option=LOWER_LABEL[lo.kind]))
    elif u.kind is not None and u.category == "salvation":
        out.append(Msg("{card}: only Biosphere 5 has the category salvation.", card=n))
    if lo.kind == "attack" and u.kind not in (None, "biosphere"):
        out.append(Msg("{card}: Attack is the other option of Biosphere 5 only.", card=n))
    if lo.kind == "catastrophe":
        if lo.category == "salvation":
            out.append(Msg("{card}: there is no catastrophe against salvation.", card=n))
        elif lo.category is not None and lo.level is not None and lo.level != CATEGORY_LEVEL[lo.category]:
            right = ROMAN[CATEGORY_LEVEL[lo.category]]
            out.append(Msg("{card}: a {category} catastrophe is level {right}, not {level}.", card=n,
                           category=category_word(lo.category), right=right, level=ROMAN[lo.level]))
    elif lo.kind is not None:
        if lo.category is not None:
            out.append(Msg("{card}: only a catastrophe has a category on the lower option.", card=n))
        if lo.level is not None and lo.level != LOWER_LEVEL[lo.kind]:
            out.append(Msg("{card}: {option} is level {right}, not {level}.", card=n, option=LOWER_LABEL[lo.kind],
                           right=ROMAN[LOWER_LEVEL[lo.kind]], level=ROMAN[lo.level]))
    return out


def check_catalog(cards: Iterable[Card]) -> CatalogReport:
    """Count the cards entered (of 25) and flag impossible decks and unknown fields."""
    cards = list(cards)
    entered = sum(c.copies for c in cards)
    problems: list[Msg] = []
    if entered > DECK_SIZE:
        problems.append(Msg("A deck has {size} cards; {entered} are entered.", size=DECK_SIZE, entered=entered))
    bios = sum(c.copies for c in cards if c.upper.kind == "biosphere")
    if bios > 1:
        problems.append(Msg("Two or more Biosphere 5 cards ({count}); the deck has exactly one (§2.3.4).", count=bios))
    attacks = sum(c.copies for c in cards if c.lower.kind == "attack")
    if attacks > 1:
        problems.append(Msg("{count} Attack options; Attack is only on the one Biosphere 5 card.", count=attacks))
    new_hopes = sum(c.copies for c in cards if c.lower.kind == "new_hope")
    if new_hopes > 2:
        problems.append(Msg("{count} New Hope options; the deck has it twice (§2.3.4).", count=new_hopes))
    ids = [c.id for c in cards]
    for dup in sorted({i for i in ids if ids.count(i) > 1}):
        problems.append(Msg("The id {id} is used by more than one card.", id=dup))
    for card in cards:
        problems += card_problems(card)
    missing = [Msg("{card}: {fields} unknown.", card=c.name, fields=joined(c.missing())) for c in cards if c.missing()]
    return CatalogReport(entered=entered, problems=problems, missing=missing)


def require_complete(card: Card) -> Card:
    """Refuse a card the Machine can't reason about (unknown fields or an impossible entry)."""
    if card.missing():
        raise InputError(Msg("{card} is incomplete ({fields} unknown): complete it in the catalog first.",
                             card=card.name, fields=joined(card.missing())))
    problems = card_problems(card)
    if problems:
        raise InputError(problems[0])
    return card


_PART_WORDS: dict[str, Msg] = {
    "upper": Msg("upper option"), "lower": Msg("lower option"), "level": Msg("level"), "kind": Msg("kind"),
    "category": Msg("category"), "name": Msg("name"), "copies": Msg("copies"), "id": Msg("id"), "note": Msg("note"),
    "cards": Msg("cards"), "format": Msg("format"), "version": Msg("version"), "complete": Msg("complete"),
    "source": Msg("source"),
}


def _pydantic_message(err: ValidationError, data: Any = None) -> Words:
    """The first thing wrong with a card or catalog, in a player's words: which card (its number and
    name in `data`, as given), which field, and what it must be (`said_error`), never pydantic's."""
    from companion.games.base import said_error

    first = err.errors()[0]
    loc = list(first.get("loc", ()))
    parts: list[Words] = []
    if len(loc) >= 2 and loc[0] == "cards" and isinstance(loc[1], int):
        cards = data.get("cards") if isinstance(data, dict) else None
        given = cards[loc[1]] if isinstance(cards, list) and loc[1] < len(cards) else None
        name = given.get("name") if isinstance(given, dict) and isinstance(given.get("name"), str) else ""
        parts.append(Msg("card {number} (“{name}”)", number=str(loc[1] + 1), name=name[:60]) if name
                     else Msg("card {number}", number=str(loc[1] + 1)))
        loc = loc[2:]
    parts += [_PART_WORDS.get(p, str(p)) if isinstance(p, str) else str(p + 1) for p in loc]
    msg: Words = said_error(first)
    if loc and loc[-1] == "level":
        msg = Msg("{problem} (levels are I–IV, written 1–4 or I–IV)", problem=msg)
    if loc and loc[-1] == "category":
        msg = Msg("{problem} (categories: {categories})", problem=msg, categories=", ".join(CATEGORY_ORDER))
    where: Words = ""
    for part in parts:
        where = part if not where else Msg("{where}, {part}", where=where, part=part)
    return Msg("{where}: {problem}", where=where, problem=msg) if where else msg


def parse_catalog(text: str) -> Catalog:
    """Check a catalog file's or QR code's text; refuse it whole with a message if anything's off."""
    if len(text) > MAX_CATALOG_TEXT:
        raise InputError(Msg("A catalog is at most {limit} characters; this one has {length}.",
                             limit=MAX_CATALOG_TEXT, length=len(text)))
    from companion.exchange import load_json

    try:
        data = load_json(text)  # its nesting checked first: refused in words, never recursed into
    except ValueError as exc:
        raise InputError(Msg("This is not a catalog: the text is damaged or cut short near character {pos}.",
                             pos=str(getattr(exc, "pos", "?")))) from None
    if not isinstance(data, dict) or data.get("format") != "biosphere5-catalog":
        raise InputError(Msg('This is not a Biosphere 5 catalog (it needs "format": "biosphere5-catalog").'))
    try:
        return Catalog.model_validate(data)
    except ValidationError as exc:
        raise InputError(Msg("The catalog was not imported: {problem}.", problem=_pydantic_message(exc, data))) from None


def dump_catalog(catalog: Catalog) -> str:
    """Compact JSON text for a file or a QR code; `parse_catalog` reads it back."""
    return catalog.model_dump_json(exclude_defaults=False)


# --- The app's stored catalog (one entry per card) ------------------------------------------------

CATALOG_KIND = "biosphere5_card"  # the kind of the app's catalog entries (companion/catalog.py)


def card_from_data(data: Any) -> Card:
    """A stored or imported card's data → Card, refused with a message when it doesn't fit."""
    try:
        return Card.model_validate(data)
    except ValidationError as exc:
        raise InputError(_pydantic_message(exc)) from None


def validate_entry(entry: Any) -> Optional[Words]:
    """For `exchange.import_catalog`: why this entry (kind, key, name, data) can't be a Biosphere 5
    card, or None. An impossible card (Attack on a non-Biosphere card, say) is refused too."""
    if getattr(entry, "kind", None) != CATALOG_KIND:
        return Msg("not a Biosphere 5 card (kind {kind})", kind=repr(getattr(entry, "kind", None)))
    try:
        card = card_from_data(entry.data)
    except InputError as exc:
        return exc.args[0]
    if card.id != entry.key:
        return Msg("its key {key} differs from the card's id {id}", key=repr(entry.key), id=repr(card.id))
    problems = card_problems(card)
    return problems[0] if problems else None


def deck_change_problem(before: Iterable[Card], after: Iterable[Card]) -> Optional[Msg]:
    """Why a change to the catalog (a card added or corrected, an import) can't be kept, or None:
    more than 25 cards, or a problem the deck didn't have before (two Biosphere 5 cards, …)."""
    after = list(after)
    total = sum(c.copies for c in after)
    if total > DECK_SIZE:
        return Msg("A deck has {size} cards; this would make {total}. Remove or correct a card first.",
                   size=DECK_SIZE, total=total)
    old = set(check_catalog(before).problems)
    new = [p for p in check_catalog(after).problems if p not in old]
    return new[0] if new else None


def slug(name: str) -> str:
    """A card id from its name: 'Deep Well' → 'deep-well'."""
    out = "".join(ch if ch.isascii() and ch.isalnum() else "-" for ch in name.lower().strip())
    out = "-".join(p for p in out.split("-") if p)[:40]
    return out or "card"
