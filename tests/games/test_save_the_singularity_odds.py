"""Live odds for Save the Singularity: exact values against brute force and Monte-Carlo play of the
real rules (rules.apply with seeded dice)."""

from __future__ import annotations

from fractions import Fraction
from itertools import product

import pytest

from companion.dice import SeededDice
from companion.games.save_the_singularity import odds, rules
from companion.games.save_the_singularity.rules import Die, Player, PressOn, Roll, RollD12, Settings, Stop, TakeBust


def game(players: int = 1, **update) -> rules.State:
    roles = ["mathematician", "media_liaison", "rationalist", "programmer", "venture_capitalist", "computer_scientist"]
    table = Settings(players=[Player(name=f"P{i}", role=roles[i]) for i in range(players)])
    return rules.new_state(table).model_copy(update=update, deep=True)


def brute_force(n: int, at_risk: int) -> tuple[Fraction, Fraction]:
    """Every one of the 6^n throws, judged by the rules' own Die counting."""
    busts, points = 0, 0
    for faces in product(range(1, 7), repeat=n):
        throw = [Die(face=f) for f in faces]
        if rules.count_bugs(throw) >= 2:
            busts += 1
        else:
            points += at_risk + rules.count_progress(throw)
    return Fraction(busts, 6**n), Fraction(points, 6**n)


@pytest.mark.parametrize("n", range(1, 7))
def test_bust_chance_and_expected_points_match_brute_force(n):
    chance, expected = brute_force(n, at_risk=4)
    assert odds.bust_chance(n) == chance
    assert odds.expected_points(4, n) == expected


@pytest.mark.parametrize("n", range(1, 13))
def test_bust_chance_closed_form(n):
    assert odds.bust_chance(n) == 1 - Fraction(5, 6) ** n - n * Fraction(1, 6) * Fraction(5, 6) ** (n - 1)


def test_twelve_dice_throw_matches_monte_carlo_of_the_rules():
    # Pressing on from 11 dice with 3 Ideas: the real rules throw 12 dice.
    start = game(phase="throw", pool=11, risk_before_throw=2,
                 throw=[Die(face=f) for f in (2, 2, 3, 4, 4, 4, 4, 5, 5, 6, 6)])
    o = odds.odds(start)
    assert o.pool == 12 and o.at_risk == 2 + 8
    trials, busts, total = 6000, 0, 0
    for n in range(trials):
        after, _ = rules.apply(start, PressOn(), SeededDice(12, n))
        if after.phase == "world":
            busts += 1
        else:
            total += rules.at_risk(after)
    assert abs(busts / trials - float(o.bust_chance)) < 0.02  # standard error 0.0063
    assert abs(total / trials - float(o.expected_points)) < 0.35  # standard error about 0.11


def test_world_phase_distribution():
    dist = odds.world_phase_outcomes(9)
    assert abs(sum(p for _, _, p in dist) - 1) < 1e-12
    # Each roll goes on with chance 4/12 and shows a Bad with chance 6/12: 1.5 rolls, 0.75 Bad.
    assert abs(sum(b * p for b, _, p in dist) - 0.75) < 1e-9
    # Nothing at all happens only when the first roll is a bare Stop (faces 1–3).
    assert abs(sum(p for b, d, p in dist if b == 0 and d == 0) - 3 / 12) < 1e-12


def test_usual_play_threshold_agrees_with_its_definition():
    for pool in range(2, 13):
        stop_from = odds.usual_stop_from(pool)
        assert odds.usual_presses(stop_from - 1, pool, 100) and not odds.usual_presses(stop_from, pool, 100)
    assert not odds.usual_presses(5, 3, 5)  # banking reaches the target: stop


def test_no_odds_without_a_roll_decision():
    assert odds.odds(game(phase="world")) is None
    assert odds.odds(game(2, phase="throw", throw=[Die(face=1), Die(face=1), Die(face=4)])) is None
    assert odds.odds(game(phase="over", team=25)) is None


def test_start_of_turn_has_odds_but_no_hint():
    o = odds.odds(game())
    assert o.pool == 3 and o.hint is None and o.win_if_stop is None
    assert o.bust_chance == Fraction(2, 27) and 0 < o.win_if_press < 1


def test_stop_when_banking_wins():
    o = odds.odds(game(team=20, phase="throw", risk_before_throw=3, throw=[Die(face=f) for f in (4, 5, 2)]))
    assert o.hint == "stop" and o.win_if_stop == 1.0 and "the team wins now" in o.reason


def test_hint_follows_the_better_chance():
    near_loss = game(team=5, world=3, phase="throw", risk_before_throw=1, throw=[Die(face=f) for f in (4, 2, 6)])
    o = odds.odds(near_loss)  # the world is one Bad away: banking 3 of 20 is hardly worth it
    assert o.hint == "press_on" and o.win_if_press > o.win_if_stop and str(o.reason).startswith("Press on")
    greedy = game(team=10, phase="throw", pool=10, risk_before_throw=9,
                  throw=[Die(face=f) for f in (4, 4, 5, 5, 6, 2, 2, 3, 3, 1)])
    o = odds.odds(greedy)
    assert o.hint == "stop" and o.win_if_stop > o.win_if_press and str(o.reason).startswith("Stop")


def play_out(state: rules.State, first_turn: int, seed: int) -> bool:
    """Play to the end with the real rules: this turn as the hint says, later turns the usual way."""
    n = 0
    while state.phase != "over":
        if state.phase == "start":
            action = Roll()
        elif state.phase == "world":
            action = RollD12()
        elif rules.is_bust(state):
            action = TakeBust()
        elif state.turn == first_turn:
            action = PressOn() if odds.odds(state).hint == "press_on" else Stop()
        else:
            remaining = rules.team_target(state) - state.team
            action = PressOn() if odds.usual_presses(rules.at_risk(state), rules.next_pool(state), remaining) else Stop()
        state, _ = rules.apply(state, action, SeededDice(seed, n))
        n += 1
    return rules.outcome(state) == "Won"


@pytest.mark.parametrize("players, team, world, earlier, faces", [
    (1, 19, 2, 2, (5, 2, 3, 1)),  # close to both targets
    (2, 42, 6, 4, (2, 3, 3, 4, 4, 1)),  # two players, a bigger pool next
])
def test_win_chances_match_monte_carlo_of_the_rules(players, team, world, earlier, faces):
    start = game(players, team=team, world=world, phase="throw", pool=len(faces),
                 risk_before_throw=earlier, throw=[Die(face=f) for f in faces])
    o = odds.odds(start)
    trials = 4000
    for choice, expected in ((Stop(), o.win_if_stop), (PressOn(), o.win_if_press)):
        wins = 0
        for k in range(trials):
            after, _ = rules.apply(start, choice, SeededDice(7, 10**6 + k))
            wins += play_out(after, start.turn, seed=k)
        # 6000 games: standard error at most 0.0065; allow about 3 of them.
        assert abs(wins / trials - expected) < 0.02, (choice.kind, wins / trials, expected)


def test_mathematician_pool_of_one_has_no_bust_risk():
    o = odds.odds(game(2, pool=1))
    assert o.bust_chance == 0 and o.expected_points == Fraction(1, 2)


# --- The cached table against the model solved the plain way ------------------------------------------


def plain_turn_profile(start_pool: int, max_pool: int) -> tuple[list[float], list[float]]:
    """A usual turn followed throw by throw until what is still going is negligible."""
    stopped, busted = [0.0] * 64, [0.0] * 64
    going = {(0, start_pool): 1.0}  # (points at risk, dice) -> chance
    while sum(going.values()) > 1e-18:
        after: dict[tuple[int, int], float] = {}
        for (risk, pool), chance in going.items():
            bust, outs = odds._float_outcomes(pool)
            busted[risk] += chance * bust
            for p, ideas, progress in outs:
                key = (risk + progress, min(max_pool, pool + ideas))
                if odds.usual_presses(key[0], key[1], remaining=10**9):
                    after[key] = after.get(key, 0.0) + chance * p
                else:
                    stopped[key[0]] += chance * p
        going = after
    return stopped, busted


@pytest.mark.parametrize("start_pool, max_pool", [(3, 12), (7, 12), (12, 12), (3, 3), (3, 5)])
def test_turn_profile_matches_throw_by_throw(start_pool, max_pool):
    stopped, busted = odds._turn_profile(start_pool, max_pool)
    plain_stopped, plain_busted = plain_turn_profile(start_pool, max_pool)
    assert abs(sum(stopped) + sum(busted) - 1) < 1e-12
    for a in range(64):
        assert abs((stopped[a] if a < len(stopped) else 0.0) - plain_stopped[a]) < 1e-15
        assert abs((busted[a] if a < len(busted) else 0.0) - plain_busted[a]) < 1e-15


def plain_table(team_target: int, world_target: int, max_pool: int) -> dict[tuple[int, int], float]:
    """win[W, T] cell by cell, straight from the definition in `_FutureTable._solve`."""
    by_bad = odds.future_table(team_target, world_target, max_pool)._mix_by_bad()
    win: dict[tuple[int, int], float] = {}

    def value(w: int, t: int) -> float:
        return 1.0 if t >= team_target else 0.0 if w >= world_target else win[w, t]

    for w in reversed(range(world_target)):
        for t in reversed(range(team_target)):
            total = again = 0.0
            for bad, (stopped, busted) in enumerate(by_bad):
                if w + bad >= world_target:
                    break
                for a, (s, b) in enumerate(zip(stopped, busted)):
                    if a >= team_target - t:
                        total += s + b  # the target was at risk at a decision: the turn wins
                        continue
                    if a:
                        total += s * value(w + bad, t + a)
                    stays = b + (s if a == 0 else 0.0)  # banks nothing
                    if bad:
                        total += stays * value(w + bad, t)
                    else:
                        again += stays
            win[w, t] = total / (1.0 - again)
    return win


@pytest.mark.parametrize("team_target, world_target, max_pool", [(25, 4, 12), (50, 8, 12), (50, 8, 3), (75, 12, 6)])
def test_future_table_matches_the_plain_solution(team_target, world_target, max_pool):
    table = odds.future_table(team_target, world_target, max_pool)
    for (w, t), expected in plain_table(team_target, world_target, max_pool).items():
        assert abs(table.after_banking(t, w) - expected) < 1e-12


def test_pressing_on_with_the_target_at_risk_can_still_bust():
    """Issue #30: at 43 of 50 with 7 at risk the next throw of 6 dice busts 26% of the time; pressing
    on wins only when it doesn't bust (stopping after it wins) or when the team wins later anyway."""
    start = game(2, team=43, world=3, phase="throw", pool=4, risk_before_throw=5,
                 throw=[Die(face=f) for f in (4, 5, 2, 3)])
    o = odds.odds(start)
    assert o.at_risk == 7 and o.pool == 6 and rules.team_target(start) == 50
    assert round(float(o.bust_chance), 2) == 0.26
    after_a_bust = odds.future_table(50, rules.world_target(start), start.settings.max_pool).after_banking(43, 3)
    assert 0 < after_a_bust < 1
    assert o.win_if_press == pytest.approx(1 - float(o.bust_chance) * (1 - after_a_bust))
    assert o.win_if_press < 1.0 and o.win_if_stop == 1.0 and o.hint == "stop"
