"""KLAW combat resolver and exact odds (RULES.md §3: combat exchange, wild die, item modifiers)."""

import random
from collections import Counter
from fractions import Fraction
from itertools import combinations, product

import pytest

from companion.games.base import InputError
from companion.games.klaw import odds
from companion.games.klaw.combat import (
    Bonus, apply_wild, best_reply, compare, lowest_placement, place, resolve, suggest_placement,
)

# --- The exchange ----------------------------------------------------------------------------------


@pytest.mark.parametrize("x", [1, 2])
def test_book_example_attack_5_3_2_x_vs_defense_4_3_3(x):
    # **Example** (book): attack 5,3,2,x vs defense 4,3,3 → defender takes 2 (5>4 and the
    # uncontested die), attacker takes 1 (2<3). Sorted high to low, x is the lowest die (≤ 2).
    ex = resolve([5, 3, 2, x], [4, 3, 3])
    assert ex.damage_to_defender == 2
    assert ex.damage_to_attacker == 1


def test_book_example_pairs_verbatim():
    ex = resolve([5, 3, 2, 1], [4, 3, 3])
    assert [p.outcome for p in ex.pairs] == ["hit", "tie", "block", "uncontested attack"]
    assert [(p.attack, p.defense) for p in ex.pairs] == [(5, 4), (3, 3), (2, 3), (1, None)]
    assert ex.damage_to_defender == 2 and ex.damage_to_attacker == 1
    assert "Defender takes 2, attacker takes 1." in ex.lines()


def test_dice_are_sorted_high_to_low_before_pairing():
    ex = resolve([2, 5, 3], [3, 4, 1])
    assert ex.attack_values == (5, 3, 2) and ex.defense_values == (4, 3, 1)
    assert [p.outcome for p in ex.pairs] == ["hit", "tie", "hit"]


def test_defender_with_more_dice_hits_back_with_uncontested_dice():
    # Decision (RULES.md): uncontested dice hit whether attacking or defending.
    ex = resolve([6], [1, 1, 1])
    assert ex.damage_to_defender == 1 and ex.damage_to_attacker == 2
    assert [p.outcome for p in ex.pairs][1:] == ["uncontested defense"] * 2


def test_six_attack_dice_against_three_hit_at_least_three_times():
    # Book: "Player A has 6d6 to Attack while Player B has only 3d6 ... at least 3 of Player A's
    # dice will automatically Hit regardless of their rolled value."
    for roll in ([2, 1, 1, 1, 1, 1], [3, 2, 2, 2, 2, 2]):
        assert resolve(roll, [6, 6, 6]).damage_to_defender >= 3


def test_zero_dice_side():
    ex = resolve([], [3, 2])
    assert (ex.damage_to_defender, ex.damage_to_attacker) == (0, 2)
    assert resolve([], []).pairs == ()


def test_wild_six_makes_all_six_count_as_six():
    ex = resolve([6, 1, 1, 2, 2, 3], [5, 5, 5, 5, 5, 5])
    assert ex.attack_values == (6,) * 6
    assert ex.damage_to_defender == 6 and ex.damage_to_attacker == 0
    assert any("Wild die 6" in n for n in ex.notes)


def test_wild_one_makes_all_six_count_as_one():
    ex = resolve([4, 4, 4, 4, 4, 4], [1, 6, 6, 6, 6, 6])
    assert ex.defense_values == (1,) * 6
    assert ex.damage_to_defender == 6 and ex.damage_to_attacker == 0
    assert any("Wild die 1" in n for n in ex.notes)


def test_wild_die_is_the_first_die_and_only_at_six_dice():
    # A 6 that isn't the wild (first) die is an ordinary 6.
    assert apply_wild([2, 6, 1, 1, 1, 1])[0] == [2, 6, 1, 1, 1, 1]
    # Five dice have no wild die.
    assert apply_wild([6, 1, 1, 1, 1])[0] == [6, 1, 1, 1, 1]
    # A wild die showing 2..5 is an ordinary die.
    assert apply_wild([3, 6, 6, 1, 1, 1]) == ([3, 6, 6, 1, 1, 1], None)


def test_grenade_example_plus_three_on_the_two_lowest_dice():
    # Book: natural 1, 3 and 5 with "+3 to two dice": the lower two become 4 and 6.
    values = sorted([1, 3, 5], reverse=True)
    grenade = [Bonus(3, 2)]
    assert place(values, grenade, lowest_placement(3, grenade)) == [6, 5, 4]


def test_a_modified_die_may_count_above_six():
    ex = resolve([6, 2], [6, 6], [Bonus(3, 1)], attack_placement=((0,),))
    assert ex.attack_values == (9, 2)
    assert ex.damage_to_defender == 1 and ex.damage_to_attacker == 1


def test_suggested_placement_scores_the_most_hits():
    rng = random.Random(5)
    for _ in range(300):
        a = sorted((rng.randint(1, 6) for _ in range(rng.randint(1, 5))), reverse=True)
        d = sorted((rng.randint(1, 6) for _ in range(rng.randint(1, 5))), reverse=True)
        bonuses = [Bonus(rng.randint(1, 4), rng.randint(1, 3))]
        pa = best_reply(a, bonuses, d, attacking=True)
        final = place(a, bonuses, pa)
        _, dealt, taken = compare(final, d)
        # No other placement does better (net, then hits dealt).
        for combo in combinations(range(len(a)), min(bonuses[0].dice, len(a))):
            _, dd, tt = compare(place(a, bonuses, (combo,)), d)
            assert (dd - tt, dd) <= (dealt - taken, dealt)


def test_suggestion_beats_the_lowest_dice_when_it_matters():
    # Attack 4, 1 with "+1 to one die" against 5, 3: on the 1 → 4,2 (two blocks); on the 4 → 5,1
    # (a tie and one block). The suggestion takes the better one.
    pa, _ = suggest_placement([4, 1], [5, 3], [Bonus(1, 1)])
    assert pa == ((0,),)
    ex = resolve([4, 1], [5, 3], [Bonus(1, 1)])
    assert ex.damage_to_attacker == 1


def test_suggestion_prefers_the_lowest_dice_among_equals():
    # Any placement wins every pair here; the book puts the bonus on the lowest dice.
    pa, _ = suggest_placement([6, 5, 4], [1, 1, 1], [Bonus(2, 1)])
    assert pa == ((2,),)


def test_both_sides_with_items():
    ex = resolve([5, 3, 2], [4, 4, 1], [Bonus(2, 1)], [Bonus(3, 1)])
    assert len(ex.attack_placement) == 1 and len(ex.defense_placement) == 1
    assert sum(ex.attack_values) == 5 + 3 + 2 + 2 and sum(ex.defense_values) == 4 + 4 + 1 + 3


def test_player_placement_overrides_the_suggestion():
    ex = resolve([1, 3, 5], [6, 6, 6], [Bonus(3, 2)], attack_placement=((0, 1),))
    assert ex.attack_values == (8, 6, 1)


@pytest.mark.parametrize("placement", [((0,),), ((0, 0),), ((0, 5),), ((0, 1), (2,))])
def test_bad_placement_refused(placement):
    with pytest.raises(InputError):
        resolve([1, 3, 5], [6], [Bonus(3, 2)], attack_placement=placement)


@pytest.mark.parametrize("attack,defense", [([7], [1]), ([0], [1]), ([1], [1, 1, 1, 1, 1, 1, 1])])
def test_bad_die_refused(attack, defense):
    with pytest.raises(InputError, match="1 to 6|0 to 6"):
        resolve(attack, defense)


# --- Exact odds -------------------------------------------------------------------------------------


def brute_force(a, d, ab=(), db=()):
    """Every ordered roll, resolved by the resolver (bonuses on the lowest dice)."""
    counts = {}
    for rolled in product(range(1, 7), repeat=a + d):
        ar, dr = list(rolled[:a]), list(rolled[a:])
        if ab or db:
            ex = resolve(ar, dr, ab, db, lowest_placement(a, ab), lowest_placement(d, db))
            key = (ex.damage_to_defender, ex.damage_to_attacker)
        else:  # the resolver's own steps, without its explanations (much faster)
            _, to_d, to_a = compare(apply_wild(ar)[0], apply_wild(dr)[0])
            key = (to_d, to_a)
        counts[key] = counts.get(key, 0) + 1
    total = 6 ** (a + d)
    return {k: Fraction(v, total) for k, v in counts.items()}


@pytest.mark.parametrize("a,d", [(a, d) for a in range(4) for d in range(4)] + [(4, 2), (2, 4)])
def test_exchange_odds_match_brute_force_enumeration(a, d):
    assert odds.exchange_odds(a, d) == brute_force(a, d)


def test_exchange_odds_with_the_wild_die_match_brute_force():
    # 6 attack dice (a wild die) against 1 and 2 defense dice: all ordered rolls of the six attack
    # dice through the wild-die rule, each against every defense roll.
    sorted_attack = Counter(tuple(sorted(apply_wild(r)[0], reverse=True)) for r in product(range(1, 7), repeat=6))
    for d in (1, 2):
        counts = Counter()
        for av, ways in sorted_attack.items():
            for dr in product(range(1, 7), repeat=d):
                _, to_d, to_a = compare(av, dr)
                counts[(to_d, to_a)] += ways
        assert odds.exchange_odds(6, d) == {k: Fraction(v, 6 ** (6 + d)) for k, v in counts.items()}
        assert odds.exchange_odds(d, 6) == {(y, x): Fraction(v, 6 ** (6 + d)) for (x, y), v in counts.items()}


@pytest.mark.parametrize("a,d", [(a, d) for a in range(7) for d in range(7)])
def test_fast_programme_matches_the_multiset_enumeration(a, d):
    dist = odds.exchange_odds(a, d)
    assert dist == odds.enumerate_exchange(a, d)
    assert sum(dist.values()) == 1


@pytest.mark.parametrize("a,d,ab,db", [
    (2, 2, (Bonus(3, 1),), ()),
    (3, 1, (), (Bonus(2, 1),)),
    (2, 3, (Bonus(1, 2),), (Bonus(2, 1),)),
])
def test_odds_with_item_bonuses_match_brute_force(a, d, ab, db):
    assert odds.exchange_odds(a, d, ab, db) == brute_force(a, d, ab, db)


def test_six_vs_six_is_symmetric_and_exact():
    dist = odds.exchange_odds(6, 6)
    for (x, y), p in dist.items():
        assert dist[(y, x)] == p
    # Both wild 6 or both wild 1: all ties; plus ties of ordinary rolls.
    assert dist[(0, 0)] > Fraction(2, 36)


def test_exchange_odds_refuse_bad_dice_counts():
    with pytest.raises(InputError, match="between 0 and 6"):
        odds.exchange_odds(7, 1)


def value_iteration(life_a, life_d, fwd, back, rounds=400):
    """An independent check of the fight chain: iterate the equations to convergence."""
    win_a, win_d = {}, {}
    for _ in range(rounds):
        def val(table, la, ld, att_next):
            if ld <= 0 and la > 0:
                return 1.0
            if la <= 0:
                return 0.0
            return table[(la, ld, att_next)]
        table = {**win_a, **win_d}
        new = {}
        for la in range(1, life_a + 1):
            for ld in range(1, life_d + 1):
                new[(la, ld, True)] = sum(float(p) * val(table, la - ta, ld - td, False) for (td, ta), p in fwd.items()) if table else 0.0
                new[(la, ld, False)] = sum(float(p) * val(table, la - ta, ld - td, True) for (ta, td), p in back.items()) if table else 0.0
        win_a = {k: v for k, v in new.items() if k[2]}
        win_d = {k: v for k, v in new.items() if not k[2]}
        if not table:
            win_a = {k: 0.0 for k in win_a}
            win_d = {k: 0.0 for k in win_d}
    return win_a[(life_a, life_d, True)]


def test_fight_odds_match_value_iteration():
    a, d = odds.Fighter(7, 2, 1), odds.Fighter(6, 1, 2)
    result = odds.fight_odds(a, d)
    fwd, back = odds.exchange_odds(2, 2), odds.exchange_odds(1, 1)
    assert result.attacker_wins == pytest.approx(value_iteration(7, 6, fwd, back), abs=1e-9)
    total = result.attacker_wins + result.defender_wins + result.both_fall + result.endless
    assert total == pytest.approx(1.0)


def test_fight_odds_match_monte_carlo_with_the_resolver():
    attacker, defender = odds.Fighter(9, 3, 2), odds.Fighter(8, 2, 3)
    exact = odds.fight_odds(attacker, defender)
    rng = random.Random(2024)
    n = 3000
    wins = both = 0
    for _ in range(n):
        la, ld, striker = attacker.life, defender.life, "a"
        while la > 0 and ld > 0:
            if striker == "a":
                ex = resolve([rng.randint(1, 6) for _ in range(3)], [rng.randint(1, 6) for _ in range(3)])
                ld, la, striker = ld - ex.damage_to_defender, la - ex.damage_to_attacker, "d"
            else:
                ex = resolve([rng.randint(1, 6) for _ in range(2)], [rng.randint(1, 6) for _ in range(2)])
                la, ld, striker = la - ex.damage_to_defender, ld - ex.damage_to_attacker, "a"
        wins += la > 0 and ld <= 0
        both += la <= 0 and ld <= 0
    sigma = (exact.attacker_wins * (1 - exact.attacker_wins) / n) ** 0.5
    assert abs(wins / n - exact.attacker_wins) < 4 * sigma
    assert abs(both / n - exact.both_fall) < 4 * (exact.both_fall / n) ** 0.5 + 0.005


def test_first_exchange_odds_match_monte_carlo_at_six_dice():
    rng = random.Random(77)
    dist = odds.exchange_odds(6, 4)
    n = 8000
    counts = {}
    for _ in range(n):
        ex = resolve([rng.randint(1, 6) for _ in range(6)], [rng.randint(1, 6) for _ in range(4)])
        key = (ex.damage_to_defender, ex.damage_to_attacker)
        counts[key] = counts.get(key, 0) + 1
    for key, p in dist.items():
        sigma = (float(p) * (1 - float(p)) / n) ** 0.5
        assert abs(counts.get(key, 0) / n - float(p)) < 5 * sigma + 1e-3


def test_fight_where_no_one_can_deal_damage_is_endless():
    result = odds.fight_odds(odds.Fighter(5, 0, 0), odds.Fighter(5, 0, 0))
    assert result.endless == 1.0 and result.attacker_wins == 0.0


def test_fight_odds_from_the_defenders_strike():
    a, d = odds.Fighter(5, 3, 1), odds.Fighter(5, 1, 1)
    first, second = odds.fight_odds(a, d, "attacker"), odds.fight_odds(a, d, "defender")
    assert first.first_exchange == odds.exchange_odds(3, 1)
    assert second.first_exchange == odds.exchange_odds(1, 1)
    # The strong attacker does better striking first.
    assert first.attacker_wins > second.attacker_wins
    with pytest.raises(InputError):
        odds.fight_odds(a, d, "nobody")
