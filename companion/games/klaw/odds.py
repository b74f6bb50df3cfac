"""Exact combat odds for KLAW: the first exchange's damage distribution and the chance to win the
whole fight from the current life totals.

A roll is a chance event with known outcomes; these functions count them instead of sampling.

First exchange, plain dice (no item bonuses): a dynamic programme over die faces from 6 down to 1.
After handling face v, the state is (how many attack dice are ≥ v, how many defense dice are ≥ v,
hits so far each way). Each side's dice occupy ranks 0, 1, 2, … from the top, so when the attack
side's dice of face v fill ranks [SA, SA') and the defense side has by then filled only the ranks
below SD', every attack rank in [SD', pairs) is paired with a lower defense die: a hit. The number
of ways to pick which free dice show v is a binomial coefficient, so counts stay exact integers.
Once one side has filled every paired rank nothing can change, so those states stop early. The
wild die showing 2..5 is one extra die restricted to those faces; a wild 6 or 1 fixes the side.
6 vs 6 takes about 50 ms the first time (a few hundred microseconds later: results are cached).

With item bonuses the dice are no longer comparable face by face, so the odds enumerate each
side's sorted rolls (with multiplicities) and compare every pair; they assume each bonus goes on
the side's lowest dice (the book's Grenade example), not the app's per-roll suggestion.

The whole fight: a Markov chain over (attacker life, defender life, whose turn to strike). Damage
only ever goes down, except an exchange with no damage, which just swaps roles; that 2-cycle is
solved in closed form, so the chain is evaluated exactly in one pass (floating point).
The fight odds assume both sides roll every exchange (no flee, heal or mid-fight edits).
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from itertools import combinations_with_replacement
from math import comb, factorial
from typing import Sequence

from companion.games.base import InputError, Outcome
from companion.games.klaw.combat import MAX_DICE, WILD_AT, Bonus, apply_wild, joined, lowest_placement, place
from companion.i18n import Msg, Number, Percent

# (damage to defender, damage to attacker) -> probability
Distribution = dict[tuple[int, int], Fraction]


# --- The shape of one side's roll ------------------------------------------------------------------

# A side's roll as a mixture of (weight, free dice, wild die in play, fixed faces): free dice are
# uniform d6s; "wild die in play" is the wild die showing 2..5 (one face each, so it counts as a
# normal die); fixed faces are known. Weights over a side sum to 6**n.
def _side_options(n: int) -> tuple[tuple[int, int, bool, tuple[int, ...]], ...]:
    if n < WILD_AT:
        return ((1, n, False, ()),)
    rest = 6 ** (WILD_AT - 1)  # the other five dice: any faces, all counted as the wild face
    return (
        (rest, 0, False, (6,) * WILD_AT),
        (rest, 0, False, (1,) * WILD_AT),
        (1, WILD_AT - 1, True, ()),
    )


_WILD_FACES = range(2, 6)  # a wild die showing one of these is an ordinary die


@lru_cache(maxsize=None)
def _dp(free_a: int, wild_a: bool, fixed_a: tuple[int, ...], free_d: int, wild_d: bool, fixed_d: tuple[int, ...], m: int) -> dict:
    """Counts of (hits on defense, hits on attack) among the top `m` pairs, for one mixture part.

    State: (attack dice placed, defense dice placed, hits each way, wild die placed each side).
    """
    states: dict[tuple, int] = {(0, 0, 0, 0, not wild_a, not wild_d): 1}
    out: dict[tuple[int, int], int] = defaultdict(int)
    fixed_above_a = fixed_above_d = 0
    for v in range(6, 0, -1):
        ca, cd = fixed_a.count(v), fixed_d.count(v)
        new: dict[tuple, int] = defaultdict(int)
        for (sa, sd, ha, hd, wa_done, wd_done), w in states.items():
            rem_a = free_a - (sa - fixed_above_a - (wild_a and wa_done))
            rem_d = free_d - (sd - fixed_above_d - (wild_d and wd_done))
            opts_a = [(ka, 0, comb(rem_a, ka)) for ka in ((rem_a,) if v == 1 else range(rem_a + 1))]
            if not wa_done and v in _WILD_FACES:
                opts_a += [(ka + 1, 1, c) for ka, _, c in opts_a]
            opts_d = [(kd, 0, comb(rem_d, kd)) for kd in ((rem_d,) if v == 1 else range(rem_d + 1))]
            if not wd_done and v in _WILD_FACES:
                opts_d += [(kd + 1, 1, c) for kd, _, c in opts_d]
            for ka, wa_now, ca_ways in opts_a:
                sa2 = sa + ca + ka
                wa = w * ca_ways
                for kd, wd_now, cd_ways in opts_d:
                    sd2 = sd + cd + kd
                    # Attack dice of face v on ranks the defense fills only lower down: hits.
                    top, bottom = (sa2 if sa2 < m else m), (sa if sa > sd2 else sd2)
                    ha2 = ha + top - bottom if top > bottom else ha
                    top, bottom = (sd2 if sd2 < m else m), (sd if sd > sa2 else sa2)
                    hd2 = hd + top - bottom if top > bottom else hd
                    new[(sa2, sd2, ha2, hd2, wa_done or wa_now == 1, wd_done or wd_now == 1)] += wa * cd_ways
        fixed_above_a += ca
        fixed_above_d += cd
        states = {}
        for key, w in new.items():
            sa, sd, ha, hd, wa_done, wd_done = key
            if v <= _WILD_FACES.start and not (wa_done and wd_done):
                continue  # a wild die in play must show 2..5
            if sa >= m or sd >= m:
                # One side has filled every paired rank: every die still to come is lower than
                # the die it will meet, so no more hits either way. Dice left can show any face
                # below v (a wild die in play: any of 2..5 below v).
                left = (free_a - (sa - fixed_above_a - (wild_a and wa_done))) + (
                    free_d - (sd - fixed_above_d - (wild_d and wd_done))
                )
                ways = (v - 1) ** left
                for done in (wa_done, wd_done):
                    if not done:
                        ways *= len([f for f in _WILD_FACES if f < v])
                out[(ha, hd)] += w * ways
            else:
                states[key] = w
    return dict(out)


def _plain(a: int, d: int) -> Distribution:
    m = min(a, d)
    extra_def, extra_att = max(0, a - d), max(0, d - a)  # uncontested dice always hit
    counts: dict[tuple[int, int], int] = defaultdict(int)
    for wa, fa, ra, xa in _side_options(a):
        for wd, fd, rd, xd in _side_options(d):
            for (ha, hd), w in _dp(fa, ra, xa, fd, rd, xd, m).items():
                counts[(ha + extra_def, hd + extra_att)] += wa * wd * w
    total = 6 ** (a + d)
    return {k: Fraction(v, total) for k, v in sorted(counts.items())}


# --- Enumeration (items, and the reference the tests compare the programme against) ---------------


def _multisets(n: int) -> list[tuple[tuple[int, ...], int]]:
    """Every sorted roll of n d6 (high to low) with the number of ordered rolls giving it."""
    out = []
    for combo in combinations_with_replacement(range(6, 0, -1), n):
        ways = factorial(n)
        for face in set(combo):
            ways //= factorial(combo.count(face))
        out.append((combo, ways))
    return out


@lru_cache(maxsize=None)
def side_distribution(n: int, bonuses: tuple[Bonus, ...] = ()) -> tuple[tuple[tuple[int, ...], int], ...]:
    """Final sorted values of one side (wild die and lowest-dice bonuses applied) with counts out
    of 6**n."""
    counts: dict[tuple[int, ...], int] = defaultdict(int)
    if n == WILD_AT:
        # The wild die is one specific die: enumerate its face, then the other five as a multiset.
        for wild in range(1, 7):
            for rest, ways in _multisets(n - 1):
                values, _ = apply_wild((wild, *rest))
                values.sort(reverse=True)
                counts[tuple(place(values, bonuses, lowest_placement(n, bonuses)))] += ways
    else:
        for values, ways in _multisets(n):
            counts[tuple(place(values, bonuses, lowest_placement(n, bonuses)))] += ways
    return tuple(counts.items())


def enumerate_exchange(
    a: int, d: int, attack_bonuses: tuple[Bonus, ...] = (), defense_bonuses: tuple[Bonus, ...] = ()
) -> Distribution:
    """The first-exchange distribution by comparing every pair of sorted rolls."""
    m = min(a, d)
    extra_def, extra_att = max(0, a - d), max(0, d - a)
    side_a: dict[tuple[int, ...], int] = defaultdict(int)
    side_d: dict[tuple[int, ...], int] = defaultdict(int)
    for values, w in side_distribution(a, attack_bonuses):
        side_a[values[:m]] += w  # only the top m dice meet an opponent
    for values, w in side_distribution(d, defense_bonuses):
        side_d[values[:m]] += w
    counts: dict[tuple[int, int], int] = defaultdict(int)
    for x, wx in side_a.items():
        for y, wy in side_d.items():
            ha = hd = 0
            for i in range(m):
                if x[i] > y[i]:
                    ha += 1
                elif x[i] < y[i]:
                    hd += 1
            counts[(ha + extra_def, hd + extra_att)] += wx * wy
    total = 6 ** (a + d)
    return {k: Fraction(v, total) for k, v in sorted(counts.items())}


def exchange_given_attack(
    attack_rolled: Sequence[int], defense_dice: int, attack_bonuses: Sequence[Bonus] = (),
    defense_bonuses: Sequence[Bonus] = (),
) -> Distribution:
    """The exchange's distribution once the attack dice are known and the defense is still to roll
    (the odds of the defense chance node). Bonuses on the lowest dice, as everywhere in the odds.

    >>> exchange_given_attack([6], 1)[(1, 0)]
    Fraction(5, 6)
    """
    if not 0 <= defense_dice <= MAX_DICE:
        raise InputError(Msg("defense dice must be between 0 and {max} (got {n}).", max=MAX_DICE, n=defense_dice))
    values, _ = apply_wild(attack_rolled)
    values.sort(reverse=True)
    attack = place(values, _bonuses(attack_bonuses), lowest_placement(len(values), _bonuses(attack_bonuses)))
    m = min(len(attack), defense_dice)
    extra_def, extra_att = max(0, len(attack) - defense_dice), max(0, defense_dice - len(attack))
    counts: dict[tuple[int, int], int] = defaultdict(int)
    for defense, ways in side_distribution(defense_dice, _bonuses(defense_bonuses)):
        hits = sum(1 for i in range(m) if attack[i] > defense[i])
        back = sum(1 for i in range(m) if attack[i] < defense[i])
        counts[(hits + extra_def, back + extra_att)] += ways
    total = 6 ** defense_dice
    return {k: Fraction(v, total) for k, v in sorted(counts.items())}


# --- Public API ------------------------------------------------------------------------------------


@lru_cache(maxsize=512)
def _exchange(a: int, d: int, ab: tuple[Bonus, ...], db: tuple[Bonus, ...]) -> tuple:
    dist = _plain(a, d) if not ab and not db else enumerate_exchange(a, d, ab, db)
    return tuple(dist.items())


def _bonuses(bonuses: Sequence[Bonus]) -> tuple[Bonus, ...]:
    # Bonuses of +0 or on 0 dice change nothing; dropping them keeps the fast path and the cache.
    return tuple(b for b in bonuses if b.plus and b.dice)


def exchange_odds(
    attack_dice: int,
    defense_dice: int,
    attack_bonuses: Sequence[Bonus] = (),
    defense_bonuses: Sequence[Bonus] = (),
) -> Distribution:
    """Exact distribution of (damage to defender, damage to attacker) for one exchange.

    >>> exchange_odds(1, 1)[(1, 0)]
    Fraction(5, 12)
    """
    if not 0 <= attack_dice <= MAX_DICE:
        raise InputError(Msg("attack dice must be between 0 and {max} (got {n}).", max=MAX_DICE, n=attack_dice))
    if not 0 <= defense_dice <= MAX_DICE:
        raise InputError(Msg("defense dice must be between 0 and {max} (got {n}).", max=MAX_DICE, n=defense_dice))
    return dict(_exchange(attack_dice, defense_dice, _bonuses(attack_bonuses), _bonuses(defense_bonuses)))


@dataclass(frozen=True)
class Fighter:
    """One side of a fight as the odds need it."""

    life: int
    attack: int
    defense: int
    attack_bonuses: tuple[Bonus, ...] = ()
    defense_bonuses: tuple[Bonus, ...] = ()


@dataclass(frozen=True)
class FightOdds:
    attacker_wins: float
    defender_wins: float
    both_fall: float  # both hosts at 0 or less after the same exchange
    endless: float  # neither side can ever deal damage: the fight only ends by fleeing
    first_exchange: Distribution  # the exchange about to be rolled (by `striker`)

    def expected_damage(self) -> tuple[Fraction, Fraction]:
        """(to the side being struck, to the striking side) in the first exchange."""
        return (
            sum((p * k[0] for k, p in self.first_exchange.items()), Fraction(0)),
            sum((p * k[1] for k, p in self.first_exchange.items()), Fraction(0)),
        )


def fight_odds(attacker: Fighter, defender: Fighter, striker: str = "attacker") -> FightOdds:
    """Chance each side wins the whole fight, strikes alternating from `striker` on.

    The attacker strikes with its attack dice against the defender's defense dice, then the
    defender counter-attacks with its attack dice against the attacker's defense dice, and so on
    until a host is at 0 life or less.
    """
    if striker not in ("attacker", "defender"):
        raise InputError(Msg("striker is 'attacker' or 'defender' (got {got}).", got=repr(striker)))
    if attacker.life < 1:
        raise InputError(Msg("The attacker's life must be at least 1 to fight (got {life}).", life=attacker.life))
    if defender.life < 1:
        raise InputError(Msg("The defender's life must be at least 1 to fight (got {life}).", life=defender.life))
    forward = exchange_odds(attacker.attack, defender.defense, attacker.attack_bonuses, defender.defense_bonuses)
    back = exchange_odds(defender.attack, attacker.defense, defender.attack_bonuses, attacker.defense_bonuses)
    wa, wd, both = _chain(
        attacker.life, defender.life,
        tuple((k, float(p)) for k, p in forward.items()),
        tuple((k, float(p)) for k, p in back.items()),
        striker == "attacker",
    )
    endless = max(0.0, 1.0 - wa - wd - both)
    return FightOdds(wa, wd, both, endless if endless > 1e-12 else 0.0, forward if striker == "attacker" else back)


@lru_cache(maxsize=256)
def _chain(life_a: int, life_d: int, forward: tuple, back: tuple, attacker_strikes: bool) -> tuple[float, float, float]:
    """(attacker wins, defender wins, both fall) from these lives, solved bottom-up.

    For lives (la, ld) let A = the value when the attacker strikes next, D = when the defender
    does. Exchanges that deal damage lead to smaller lives (already solved); an exchange with no
    damage only swaps roles: A = xa + p00·D and D = xd + q00·A, so A = (xa + p00·xd) / (1 − p00·q00).
    Only "attacker wins" and "both fall" are tracked; "defender wins" is the rest.
    """
    p00 = dict(forward).get((0, 0), 0.0)
    q00 = dict(back).get((0, 0), 0.0)
    det = 1.0 - p00 * q00
    if det <= 1e-15:  # neither side can ever deal damage
        return (0.0, 0.0, 0.0)
    # Outcomes as (damage to attacker, damage to defender, p).
    fwd = [(to_a, to_d, p) for (to_d, to_a), p in forward if (to_d, to_a) != (0, 0)]
    bwd = [(to_a, to_d, p) for (to_a, to_d), p in back if (to_a, to_d) != (0, 0)]
    # win_x[la][ld], both_x[la][ld] for x = a (attacker strikes next) and d; index 0 = fallen.
    win_a = [[0.0] * (life_d + 1) for _ in range(life_a + 1)]
    both_a = [[0.0] * (life_d + 1) for _ in range(life_a + 1)]
    win_d = [[0.0] * (life_d + 1) for _ in range(life_a + 1)]
    both_d = [[0.0] * (life_d + 1) for _ in range(life_a + 1)]

    def step(outcomes, la, ld, win_next, both_next):
        win = both = 0.0
        for to_a, to_d, p in outcomes:
            na, nd = la - to_a, ld - to_d
            if nd <= 0:
                if na <= 0:
                    both += p
                else:
                    win += p
            elif na > 0:
                win += p * win_next[na][nd]
                both += p * both_next[na][nd]
        return win, both

    for la in range(1, life_a + 1):
        for ld in range(1, life_d + 1):
            xa_win, xa_both = step(fwd, la, ld, win_d, both_d)
            xd_win, xd_both = step(bwd, la, ld, win_a, both_a)
            win_a[la][ld] = (xa_win + p00 * xd_win) / det
            both_a[la][ld] = (xa_both + p00 * xd_both) / det
            win_d[la][ld] = (xd_win + q00 * xa_win) / det
            both_d[la][ld] = (xd_both + q00 * xa_both) / det
    win = (win_a if attacker_strikes else win_d)[life_a][life_d]
    both = (both_a if attacker_strikes else both_d)[life_a][life_d]
    return (win, max(0.0, 1.0 - win - both), both)


def hit_outcomes(dist: Distribution, struck: str, striker: str) -> list[Outcome]:
    """An exchange's outcomes as a chance node states them: the struck host takes at least one
    hit; the striker takes at least one back (both may happen)."""
    hit = sum((p for (to_struck, _), p in dist.items() if to_struck > 0), Fraction(0))
    back = sum((p for (_, to_striker), p in dist.items() if to_striker > 0), Fraction(0))
    return [Outcome(label=Msg("{host} takes at least 1", host=struck), probability=float(hit)),
            Outcome(label=Msg("{host} takes at least 1 back", host=striker), probability=float(back))]


def first_exchange_summary(dist: Distribution, struck: str, striker: str) -> list[Msg]:
    """The first exchange in words: the chance of any damage each way, the expected hits, the
    likeliest outcomes."""
    if not dist:
        return [Msg("No dice on either side: nothing can happen.")]
    hit, back = hit_outcomes(dist, struck, striker)
    to_struck = sum((p * k[0] for k, p in dist.items()), Fraction(0))
    to_striker = sum((p * k[1] for k, p in dist.items()), Fraction(0))
    top = sorted(dist.items(), key=lambda kv: -kv[1])[:4]
    likely = joined([Msg("{struck} −{hits} and {striker} −{back}: {chance}", struck=struck, hits=a, striker=striker,
                         back=b, chance=Percent(float(p))) for (a, b), p in top], "; ")
    return [
        Msg("First exchange: {struck} takes at least 1: {hit} (average {hits}); {striker} takes at least 1 back: "
            "{back} (average {backs}).", struck=struck, hit=Percent(hit.probability), hits=Number(to_struck),
            striker=striker, back=Percent(back.probability), backs=Number(to_striker)),
        Msg("Likeliest: {outcomes}.", outcomes=likely),
    ]


def win_chance_text(odds: FightOdds, attacker: str | Msg | None = None, defender: str | Msg | None = None) -> Msg:
    """A one-line summary for the attack screen; during a fight, with the hosts' names (the roles
    swap each exchange, so "attacker" would mislead)."""
    attacker = Msg("attacker") if attacker is None else attacker
    defender = Msg("defender") if defender is None else defender
    parts = [Msg("{host} wins {chance}", host=attacker, chance=Percent(odds.attacker_wins)),
             Msg("{host} wins {chance}", host=defender, chance=Percent(odds.defender_wins))]
    if odds.both_fall >= 0.005:
        parts.append(Msg("both fall {chance}", chance=Percent(odds.both_fall)))
    if odds.endless >= 0.005:
        parts.append(Msg("no damage possible {chance}", chance=Percent(odds.endless)))
    return joined(parts)

