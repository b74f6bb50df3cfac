"""KLAW combat: one exchange of dice, as a pure function of the two rolls and the item bonuses.

The book's procedure (RULES.md §3):
1. Each side rolls its dice. A side rolling 6 dice has one wild die (the first die rolled, the
   golden one): a wild 6 makes all six count as 6, a wild 1 makes all six count as 1.
2. Item bonuses ("+3 to two dice") are added to dice the player chooses; a die may go above 6.
   The app suggests the placement that scores the most hits (`suggest_placement`).
3. Each side is sorted high to low and compared pair by pair: the higher die is a hit on the other
   side, a tie is nothing. Dice without a partner (the side with more dice) hit automatically.

>>> ex = resolve([5, 3, 2, 1], [4, 3, 3])   # the book's example (the 4th attack die is any value)
>>> ex.damage_to_defender, ex.damage_to_attacker
(2, 1)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import combinations, product
from typing import Any, Literal, Optional, Sequence, get_args

from companion.games.base import InputError
from companion.i18n import Msg, NMsg, joined

MAX_DICE = 6
WILD_AT = 6  # a side rolling this many dice has a wild die

Outcome = Literal["hit", "tie", "block", "uncontested attack", "uncontested defense"]
HIT, TIE, BLOCK, UNCONTESTED_ATTACK, UNCONTESTED_DEFENSE = get_args(Outcome)
# One tuple of die positions per bonus; positions index the side's dice sorted high to low
# (after the wild die), e.g. ((1, 2),) = "the bonus goes on the 2nd and 3rd highest dice".
Placement = tuple[tuple[int, ...], ...]


@dataclass(frozen=True)
class Bonus:
    """An item's die modifier: add `plus` to `dice` of this side's dice."""

    plus: int
    dice: int

    def words(self) -> Msg:
        """"+3 to 2 dice", in each phone's language."""
        return NMsg("+{plus} to {n} die", "+{plus} to {n} dice", self.dice, plus=self.plus)

    def __str__(self) -> str:
        return str(self.words())


@dataclass(frozen=True)
class PairResult:
    attack: Optional[int]
    defense: Optional[int]
    outcome: Outcome

    def text(self) -> Msg:
        if self.outcome == "hit":
            return Msg("{attack} > {defense}: hit", attack=self.attack, defense=self.defense)
        if self.outcome == "tie":
            return Msg("{attack} = {defense}: tie", attack=self.attack, defense=self.defense)
        if self.outcome == "block":
            return Msg("{attack} < {defense}: blocked, hit back", attack=self.attack, defense=self.defense)
        if self.outcome == "uncontested attack":
            return Msg("{attack} uncontested: hit", attack=self.attack)
        return Msg("{defense} uncontested: hit back", defense=self.defense)


@dataclass(frozen=True)
class Exchange:
    """Everything the table needs to check one exchange against the book."""

    attack_rolled: tuple[int, ...]
    defense_rolled: tuple[int, ...]
    attack_values: tuple[int, ...]  # final, sorted high to low
    defense_values: tuple[int, ...]
    attack_placement: Placement
    defense_placement: Placement
    pairs: tuple[PairResult, ...]
    damage_to_defender: int
    damage_to_attacker: int
    notes: tuple[Msg, ...] = field(default=())  # wild die and item bonus explanations

    def lines(self) -> list[Msg]:
        out = [
            Msg("Attack rolled {attack}, defense rolled {defense}.", attack=fmt_rolled(self.attack_rolled),
                defense=fmt_rolled(self.defense_rolled)),
            *self.notes,
            Msg("Sorted: attack {attack} vs defense {defense}.", attack=_fmt(self.attack_values),
                defense=_fmt(self.defense_values)),
        ]
        if self.pairs:
            out.append(joined([p.text() for p in self.pairs], "; ") + ".")
        out.append(Msg("Defender takes {defender}, attacker takes {attacker}.", defender=self.damage_to_defender,
                       attacker=self.damage_to_attacker))
        return out


def _fmt(values: Sequence[Any]) -> Any:
    return joined([str(v) if isinstance(v, int) else v for v in values]) if values else Msg("no dice")


def wild_index(rolled: Sequence[int]) -> Optional[int]:
    """Which die of a side's roll (in roll order) is the wild die: the first of six, else none."""
    return 0 if len(rolled) == WILD_AT else None


def fmt_rolled(rolled: Sequence[int]) -> Any:
    """A side's roll in roll order with the wild die marked: "6 (wild), 3, 2, 5, 1, 4"."""
    wild = wild_index(rolled)
    return _fmt([Msg("{value} (wild)", value=v) if i == wild else v for i, v in enumerate(rolled)])


def apply_wild(rolled: Sequence[int]) -> tuple[list[int], Optional[Msg]]:
    """The wild die rule. The first die of a 6-dice roll is the wild (golden) die."""
    values = list(rolled)
    if len(values) == WILD_AT:
        if values[0] == 6:
            return [6] * WILD_AT, Msg("Wild die 6: exceptional success, all six dice count as 6.")
        if values[0] == 1:
            return [1] * WILD_AT, Msg("Wild die 1: catastrophic failure, all six dice count as 1.")
    return values, None


def compare(attack: Sequence[int], defense: Sequence[int]) -> tuple[tuple[PairResult, ...], int, int]:
    """Pair two sides' dice (each sorted high to low inside): (pairs, to defender, to attacker)."""
    a = sorted(attack, reverse=True)
    d = sorted(defense, reverse=True)
    pairs: list[PairResult] = []
    to_def = to_att = 0
    for i in range(max(len(a), len(d))):
        x = a[i] if i < len(a) else None
        y = d[i] if i < len(d) else None
        if y is None:
            pairs.append(PairResult(x, None, UNCONTESTED_ATTACK))
            to_def += 1
        elif x is None:
            pairs.append(PairResult(None, y, UNCONTESTED_DEFENSE))
            to_att += 1
        elif x > y:
            pairs.append(PairResult(x, y, HIT))
            to_def += 1
        elif x < y:
            pairs.append(PairResult(x, y, BLOCK))
            to_att += 1
        else:
            pairs.append(PairResult(x, y, TIE))
    return tuple(pairs), to_def, to_att


def place(values: Sequence[int], bonuses: Sequence[Bonus], placement: Placement) -> list[int]:
    """Add each bonus to the chosen positions of `values` (sorted high to low); re-sorted."""
    out = list(values)
    for bonus, positions in zip(bonuses, placement):
        for i in positions:
            out[i] += bonus.plus
    return sorted(out, reverse=True)


def check_placement(n: int, bonuses: Sequence[Bonus], placement: Placement) -> None:
    """A placement names, for each bonus, min(bonus dice, n) different dice of this side."""
    if len(placement) != len(bonuses):
        raise InputError(Msg("Give one set of dice for each of the {count} item bonuses (got {got}).",
                             count=len(bonuses), got=len(placement)))
    for bonus, positions in zip(bonuses, placement):
        want = min(bonus.dice, n)
        if len(positions) != want or len(set(positions)) != want:
            raise InputError(Msg("The bonus {bonus} goes on exactly {want} different dice (got {got}).",
                                 bonus=bonus.words(), want=want, got=str(list(positions))))
        for i in positions:
            if not 0 <= i < n:
                raise InputError(Msg("Die positions are 1 to {n} (got {got}).", n=n, got=i + 1))


def _candidates(n: int, bonuses: Sequence[Bonus], values: Sequence[int]) -> list[Placement]:
    # Dice of equal value are interchangeable: keep one placement per distinct set of values hit.
    per_bonus = []
    for bonus in bonuses:
        seen: dict[tuple[int, ...], tuple[int, ...]] = {}
        for combo in combinations(range(n), min(bonus.dice, n)):
            key = tuple(values[i] for i in combo)
            # Prefer the lowest dice among equals (later positions): the book's example.
            seen[key] = combo
        per_bonus.append(list(seen.values()))
    return [tuple(p) for p in product(*per_bonus)]


def best_reply(
    own: Sequence[int], bonuses: Sequence[Bonus], other: Sequence[int], attacking: bool
) -> Placement:
    """The placement of this side's bonuses that does best against the other side's final dice.

    Best = most (hits dealt − hits taken), then most hits dealt, then the lowest dice.
    """
    if not bonuses:
        return ()
    n = len(own)
    best: Optional[tuple] = None
    best_placement: Placement = tuple(() for _ in bonuses)
    for placement in _candidates(n, bonuses, own):
        final = place(own, bonuses, placement)
        _, to_def, to_att = compare(final, other) if attacking else compare(other, final)
        dealt, taken = (to_def, to_att) if attacking else (to_att, to_def)
        low = sorted((i for ps in placement for i in ps), reverse=True)
        key = (dealt - taken, dealt, low)
        if best is None or key > best:
            best, best_placement = key, placement
    return best_placement


def suggest_placement(
    attack: Sequence[int],
    defense: Sequence[int],
    attack_bonuses: Sequence[Bonus] = (),
    defense_bonuses: Sequence[Bonus] = (),
) -> tuple[Placement, Placement]:
    """Suggested placements for both sides (dice sorted high to low, wild die already applied).

    Each side's suggestion is its best reply to the other side's suggestion, found by alternating
    best replies from the unmodified dice until neither changes (a few passes at most).
    """
    if not attack_bonuses and not defense_bonuses:
        return (), ()
    a = sorted(attack, reverse=True)
    d = sorted(defense, reverse=True)
    pa: Placement = ()
    pd: Placement = ()
    for _ in range(4):
        new_pa = best_reply(a, attack_bonuses, place(d, defense_bonuses, pd) if pd else d, True)
        new_pd = best_reply(d, defense_bonuses, place(a, attack_bonuses, new_pa) if new_pa else a, False)
        if (new_pa, new_pd) == (pa, pd):
            break
        pa, pd = new_pa, new_pd
    return pa, pd


def lowest_placement(n: int, bonuses: Sequence[Bonus]) -> Placement:
    """Every bonus on the lowest dice (the book's Grenade example); what the odds assume."""
    return tuple(tuple(range(n - min(b.dice, n), n)) for b in bonuses)


def _check_roll(attacking: bool, rolled: Sequence[int]) -> None:
    if len(rolled) > MAX_DICE:
        raise InputError(Msg("A side rolls 0 to {max} dice (attack has {n}).", max=MAX_DICE, n=len(rolled)) if attacking
                         else Msg("A side rolls 0 to {max} dice (defense has {n}).", max=MAX_DICE, n=len(rolled)))
    for v in rolled:
        if not isinstance(v, int) or not 1 <= v <= 6:
            raise InputError(Msg("A die shows 1 to 6 (attack die shows {value}).", value=str(v)) if attacking
                             else Msg("A die shows 1 to 6 (defense die shows {value}).", value=str(v)))


def resolve(
    attack_rolled: Sequence[int],
    defense_rolled: Sequence[int],
    attack_bonuses: Sequence[Bonus] = (),
    defense_bonuses: Sequence[Bonus] = (),
    attack_placement: Optional[Placement] = None,
    defense_placement: Optional[Placement] = None,
) -> Exchange:
    """Resolve one exchange. Placements index each side's dice sorted high to low after the wild
    die; None takes the suggested placement."""
    _check_roll(True, attack_rolled)
    _check_roll(False, defense_rolled)
    notes: list[Msg] = []
    a, wild_a = apply_wild(attack_rolled)
    d, wild_d = apply_wild(defense_rolled)
    if wild_a:
        notes.append(Msg("Attack: {note}", note=wild_a))
    if wild_d:
        notes.append(Msg("Defense: {note}", note=wild_d))
    a.sort(reverse=True)
    d.sort(reverse=True)
    if attack_placement is None or defense_placement is None:
        suggested_a, suggested_d = suggest_placement(a, d, attack_bonuses, defense_bonuses)
    pa = suggested_a if attack_placement is None else tuple(tuple(p) for p in attack_placement)
    pd = suggested_d if defense_placement is None else tuple(tuple(p) for p in defense_placement)
    check_placement(len(a), attack_bonuses, pa)
    check_placement(len(d), defense_bonuses, pd)
    for attacking, values, bonuses, placement in ((True, a, attack_bonuses, pa), (False, d, defense_bonuses, pd)):
        for bonus, positions in zip(bonuses, placement):
            if positions:
                hit = ", ".join(str(values[i]) for i in positions)
                notes.append(Msg("Attack item {bonus}: on {dice}.", bonus=bonus.words(), dice=hit) if attacking
                             else Msg("Defense item {bonus}: on {dice}.", bonus=bonus.words(), dice=hit))
    fa = place(a, attack_bonuses, pa)
    fd = place(d, defense_bonuses, pd)
    pairs, to_def, to_att = compare(fa, fd)
    return Exchange(
        attack_rolled=tuple(attack_rolled),
        defense_rolled=tuple(defense_rolled),
        attack_values=tuple(fa),
        defense_values=tuple(fd),
        attack_placement=pa,
        defense_placement=pd,
        pairs=pairs,
        damage_to_defender=to_def,
        damage_to_attacker=to_att,
        notes=tuple(notes),
    )
