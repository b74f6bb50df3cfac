"""Enemy types (the enemy cards) and the encounter tokens in the box.

The enemy cards' stats are not in the rulebook: the defaults below are PLACEHOLDERS, marked
`placeholder=True`, for the table to overwrite once from the real cards (the app asks for it).
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from companion.games.base import Model, Words
from companion.i18n import N_, Msg

MoveRule = Literal["toward_closest", "stays"]


class EnemyType(Model):
    """One enemy card. Health is the damage needed to remove one miniature, dealt within one turn."""

    name: str = Field(min_length=1, max_length=30, description=N_("Plural, as on the card: Nanobots"))
    threat: int = Field(ge=0, le=20, description=N_("Threat raised when a team member is in range"))
    range: int = Field(ge=0, le=20, description=N_("0 = same space, 1 = adjacent"))
    health: int = Field(ge=1, le=20, description=N_("Damage to remove one miniature"))
    move: int = Field(ge=0, le=20, description=N_("Spaces per enemy phase"))
    move_rule: MoveRule = "toward_closest"
    setup: str = Field("", max_length=400, description=N_("Setup text from the card"))
    placeholder: bool = Field(False, description=N_("Stats not yet entered from the card"))
    singular: str = Field("", max_length=30, description=N_("One miniature's name; empty = name minus a final s"))

    def one(self) -> str:
        if self.singular:
            return self.singular
        return self.name[:-1] if self.name.endswith("s") and len(self.name) > 1 else self.name

    def count_name(self, n: int) -> str:
        """'1 Nanobot', '3 Nanobots'."""
        return f"{n} {self.one() if n == 1 else self.name}"


# A placeholder's setup text: kept in English in the state, said in each phone's language (`setup_words`).
_PLACEHOLDER_WORDS = Msg("PLACEHOLDER stats: enter threat, range, health and move from the enemy card.")
PLACEHOLDER_SETUP = _PLACEHOLDER_WORDS.msgid


def _placeholder(name: str, singular: str = "") -> EnemyType:
    return EnemyType(
        name=name, threat=1, range=1, health=1, move=1, setup=PLACEHOLDER_SETUP, placeholder=True, singular=singular
    )


# The types in the box, named as the cards print them (in English, in every language). Every stat
# here is a placeholder until the table enters the card.
DEFAULT_ENEMY_TYPES: tuple[EnemyType, ...] = (
    _placeholder(name="Nanobots"),
    _placeholder(name="Hosts"),
    _placeholder(name="Drakens"),
    _placeholder(name="Alphas"),
    _placeholder(name="Rhinos"),
)

# Encounter token faces in the box (rulebook, "Tokens"): face → number of tokens.
COMMON_TOKENS: dict[str, int] = {"Nanobots": 5, "Hosts": 4, "Drakens": 3, "Alpha": 1, "Rhinos": 1}
ELITE_TOKENS: dict[str, int] = {
    "Alphas": 2,
    "Rhinos": 2,
    "Alphas + common encounter": 1,
    "Rhinos + common encounter": 1,
}


def token_faces(tier: str) -> list[str]:
    """The faces a token of this tier ('common' or 'elite') can show, for the reveal prompt."""
    return list(COMMON_TOKENS if tier == "common" else ELITE_TOKENS)


# The faces with words beyond the enemies' names, said in each phone's language.
_FACE_WORDS = {
    "Alphas + common encounter": Msg("Alphas + common encounter"),
    "Rhinos + common encounter": Msg("Rhinos + common encounter"),
}


# Those faces are the elite ones that also spawn a common encounter (RULES.md §5; the box lists
# "Rhinos + Common En."): the table then draws a common token, revealed and placed like any other.
BRINGS_A_COMMON_ENCOUNTER = frozenset(_FACE_WORDS)


def face_words(face: str) -> Words:
    """What a token shows, as a player reads it: a face with words in their language, a name as it is."""
    return _FACE_WORDS.get(face, face)


def setup_words(enemy: EnemyType) -> Words:
    """An enemy card's setup text: the card's own words as entered, or the placeholder's note."""
    return _PLACEHOLDER_WORDS if enemy.setup == PLACEHOLDER_SETUP else enemy.setup
