"""Live odds for Save the Singularity: bust chance, expected points, and a stop / press-on hint.

Everything is computed exactly from the rules' own dice tables (`rules.d6_symbol`, `rules.D12_CHART`),
so the odds and the game can't disagree about a die. No randomness is used.

- Bust chance and expected points: exact fractions over every result of the next throw.
- The hint compares the team's chance to win if it stops now with its chance if it presses on.
  Win chances are exact for this model of play:
  * for the rest of this turn the team makes the best choice at every decision (dynamic
    programming over points at risk × next pool);
  * later turns play "the usual way": press on while one more throw's expected gain beats its
    expected loss (points at risk × bust chance < expected Progress kept), and stop as soon as
    banking reaches the target;
  * role powers are left out (unspent powers can only help the team; the hint doesn't plan them).
  The world phase (d12 until Stop, Bad and +Dice) is modelled exactly, including the +Dice it gives
  the next player's pool.

The table of later-turn win chances depends only on the targets and `max_pool`; it is built once
per game set-up and cached, so each call afterwards only solves the current turn.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from math import factorial
from operator import mul
from typing import Literal, Optional

from companion.games.save_the_singularity import rules
from companion.games.save_the_singularity.rules import State

# --- One throw of n dice: a chance node with exact outcomes ----------------------------------------

_FACES = range(1, 7)
P_BUG = Fraction(sum(1 for f in _FACES if rules.d6_symbol(f) == "Bug"), 6)
P_IDEA = Fraction(sum(1 for f in _FACES if rules.d6_symbol(f) == "Idea"), 6)
P_PROGRESS = Fraction(sum(1 for f in _FACES if rules.d6_symbol(f) == "Progress"), 6)


@lru_cache(maxsize=None)
def throw_outcomes(n: int) -> tuple[tuple[Fraction, int, int], ...]:
    """Every non-bust result of throwing n dice as (probability, Ideas, Progress); 0 or 1 Bug."""
    results = []
    for bugs in (0, 1):
        for ideas in range(n - bugs + 1):
            progress = n - bugs - ideas
            ways = factorial(n) // (factorial(bugs) * factorial(ideas) * factorial(progress))
            results.append((ways * P_BUG**bugs * P_IDEA**ideas * P_PROGRESS**progress, ideas, progress))
    return tuple(results)


@lru_cache(maxsize=None)
def bust_chance(n: int) -> Fraction:
    """Exact probability that a throw of n dice shows two or more Bugs."""
    return 1 - sum(p for p, _, _ in throw_outcomes(n))


@lru_cache(maxsize=None)
def expected_kept(n: int) -> Fraction:
    """Expected Progress a throw of n dice adds to the points at risk (nothing when it busts)."""
    return sum((p * g for p, _, g in throw_outcomes(n)), Fraction(0))


def expected_points(at_risk: int, n: int) -> Fraction:
    """Expected points at risk after throwing n dice with `at_risk` already at risk (0 on a bust)."""
    return (1 - bust_chance(n)) * at_risk + expected_kept(n)


@lru_cache(maxsize=None)
def usual_stop_from(pool: int) -> int:
    """The least points at risk at which the usual play stops before throwing `pool` dice.

    Pressing on gains `expected_kept(pool)` on average and loses the points at risk with chance
    `bust_chance(pool)`; the usual play presses on while at_risk × bust_chance < expected_kept.
    """
    chance, gain = bust_chance(pool), expected_kept(pool)
    if chance == 0:
        return 10**9  # a throw that can't bust is always worth making
    ratio = gain / chance
    return -(-ratio.numerator // ratio.denominator)  # the least integer >= ratio


def usual_presses(at_risk: int, pool: int, remaining: int) -> bool:
    """The model of later turns: press on while the expected gain beats the expected loss.

    Stop as soon as banking reaches the team's target (`remaining` = points still needed).
    """
    return at_risk < remaining and at_risk * bust_chance(pool) < expected_kept(pool)


@lru_cache(maxsize=None)
def _float_outcomes(n: int) -> tuple[float, tuple[tuple[float, int, int], ...]]:
    return float(bust_chance(n)), tuple((float(p), i, g) for p, i, g in throw_outcomes(n))


# --- The world phase: d12 until Stop --------------------------------------------------------------


@lru_cache(maxsize=None)
def world_phase_outcomes(max_extra: int) -> tuple[tuple[int, int, float], ...]:
    """Distribution of one world phase as (Bad count, +Dice capped at max_extra, probability).

    The d12 is rolled until a Stop, so the chain is summed until what is still rolling is
    negligible (each roll goes on with chance 1/3).
    """
    # Faces grouped by what they do: (Bad?, +Dice?, Stop?) -> chance of such a face.
    kinds: dict[tuple[bool, bool, bool], float] = {}
    for symbols in rules.D12_CHART.values():
        key = ("Bad" in symbols, "+Dice" in symbols, "Stop" in symbols)
        kinds[key] = kinds.get(key, 0.0) + 1 / len(rules.D12_CHART)
    rolling = {(0, 0): 1.0}
    done: dict[tuple[int, int], float] = {}
    while sum(rolling.values()) > 1e-17:
        nxt: dict[tuple[int, int], float] = {}
        for (bad, extra), p in rolling.items():
            for (is_bad, is_dice, stops), q in kinds.items():
                key = (bad + is_bad, min(max_extra, extra + is_dice))
                target = done if stops else nxt
                target[key] = target.get(key, 0.0) + p * q
        rolling = nxt
    return tuple(sorted((b, d, p) for (b, d), p in done.items() if p > 1e-16))


# --- Later turns, played the usual way -------------------------------------------------------------


@lru_cache(maxsize=None)
def _turn_profile(start_pool: int, max_pool: int) -> tuple[tuple[float, ...], tuple[float, ...]]:
    """One whole turn from `start_pool` dice played the usual way (no target in sight).

    Returns (stopped, busted): the probability that the highest points at risk reached at a
    decision is `a` and the player then stopped / later busted. A target R close by is handled
    exactly from this: every path that reached R at a decision stops there and wins.
    """
    stopped: dict[int, float] = {}
    busted: dict[int, float] = {}
    frontier = {(0, start_pool): 1.0}  # about to throw: (points at risk, dice)
    while frontier and sum(frontier.values()) > 1e-16:
        nxt: dict[tuple[int, int], float] = {}
        for (risk, pool), mass in frontier.items():
            p_bust, outs = _float_outcomes(pool)
            busted[risk] = busted.get(risk, 0.0) + mass * p_bust
            for p, ideas, progress in outs:
                key = (risk + progress, min(max_pool, pool + ideas))
                if key[0] < usual_stop_from(key[1]):
                    nxt[key] = nxt.get(key, 0.0) + mass * p
                else:
                    stopped[key[0]] = stopped.get(key[0], 0.0) + mass * p
        frontier = nxt
    top = max(list(stopped) + list(busted))
    return (
        tuple(stopped.get(a, 0.0) for a in range(top + 1)),
        tuple(busted.get(a, 0.0) for a in range(top + 1)),
    )


class _FutureTable:
    """win[W][T]: the team's chance to win when it has just banked to T, the world has W and the
    world phase is about to start, with later turns played the usual way."""

    def __init__(self, team_target: int, world_target: int, max_pool: int):
        self.team_target, self.world_target, self.max_pool = team_target, world_target, max_pool
        max_extra = max_pool - rules.START_POOL
        self.world = world_phase_outcomes(max_extra)
        self.profiles = {p: _turn_profile(p, max_pool) for p in range(rules.START_POOL, max_pool + 1)}
        self.longest = max(len(s) for s, _ in self.profiles.values())  # most points one turn banks
        self._by_bad = self._mix_by_bad()
        self._kernels: dict[int, list[tuple[float, float, int, list[float]]]] = {}
        self.win = self._solve()

    def _kernel(self, remaining: int) -> list[tuple[float, float, int, list[float]]]:
        """One world phase then one usual turn, per Bad count b (rows of negligible chance dropped):
        (P(b, the turn reaches the target), P(b, it banks 0), first g, [P(b, it banks g), ...])
        for the amounts g of 1 to remaining - 1 that have any chance."""
        remaining = min(remaining, self.longest)  # beyond this no turn reaches the target
        if remaining in self._kernels:
            return self._kernels[remaining]
        kernel = []
        for stopped, busted in self._by_bad:
            reach = sum(stopped[remaining:]) + sum(busted[remaining:])
            zero = sum(busted[:remaining]) + stopped[0]
            used = [g for g in range(1, remaining) if stopped[g] > 1e-16]
            first = used[0] if used else 1
            kernel.append((reach, zero, first, list(stopped[first : used[-1] + 1]) if used else []))
        self._kernels[remaining] = kernel
        return kernel

    def _mix_by_bad(self) -> list[tuple[list[float], list[float]]]:
        """Per Bad count b of a world phase: P(b, the next usual turn's highest decision is a and it
        stopped / busted), mixing the start pools the phase's +Dice give."""
        rows: dict[int, tuple[list[float], list[float]]] = {}
        for bad, extra, p in self.world:
            stopped, busted = self.profiles[min(self.max_pool, rules.START_POOL + extra)]
            row = rows.setdefault(bad, ([0.0] * self.longest, [0.0] * self.longest))
            for a, q in enumerate(stopped):
                row[0][a] += p * q
            for a, q in enumerate(busted):
                row[1][a] += p * q
        mixed = []
        for bad in range(max(rows) + 1):
            row = rows.get(bad, ([0.0] * self.longest, [0.0] * self.longest))
            if sum(row[0]) + sum(row[1]) < 1e-13:
                break  # more Bad is rarer still; what is left can't move a percentage
            mixed.append(row)
        return mixed

    def _solve(self) -> list[list[float]]:
        rt, rw = self.team_target, self.world_target
        win: list[list[float]] = [[] for _ in range(rw)]
        for w in range(rw - 1, -1, -1):
            row = [0.0] * rt
            win[w] = row
            for t in range(rt - 1, -1, -1):
                total = 0.0
                stay = 0.0  # no Bad and nothing banked: back to this very cell
                for bad, (reach, zero, first, banks) in enumerate(self._kernel(rt - t)):
                    if w + bad >= rw:
                        break  # the world reaches its target in this world phase
                    source = win[w + bad]
                    if bad == 0:
                        stay = zero
                    else:
                        total += zero * source[t]
                    start = t + first
                    total += reach + sum(map(mul, banks, source[start : start + len(banks)]))
                row[t] = total / (1.0 - stay)
        return win

    def after_banking(self, team: int, world: int) -> float:
        """Chance to win once the team stands at `team` and the world phase is next."""
        if team >= self.team_target:
            return 1.0
        if world >= self.world_target:
            return 0.0
        return self.win[world][team]


@lru_cache(maxsize=4)
def future_table(team_target: int, world_target: int, max_pool: int) -> _FutureTable:
    return _FutureTable(team_target, world_target, max_pool)


# --- This turn, played as well as possible ----------------------------------------------------------


class _ThisTurn:
    """Best play for the rest of a turn, the team at `team` and the world at `world`.

    best[m][a] / press[m][a]: win chance at a decision with `a` at risk and `m` dice for the next
    throw, choosing the better of stopping and pressing on / pressing on once then choosing well.
    Points at risk and the pool only grow within a turn, so only a >= lowest_risk and
    m >= lowest_pool are needed, filled from the top down.
    """

    def __init__(self, table: _FutureTable, team: int, world: int, lowest_risk: int, lowest_pool: int):
        self.table, self.team, self.world = table, team, world
        self.lowest_risk, self.lowest_pool = lowest_risk, lowest_pool
        self.needed = size = table.team_target - team
        on_bust = table.after_banking(team, world)
        top = table.max_pool
        # Rows padded with 1.0: at `size` or more at risk, stopping wins the game.
        self.best = {m: [0.0] * size + [1.0] * (top + 1) for m in range(lowest_pool, top + 1)}
        self.press = {m: [0.0] * size for m in range(lowest_pool, top + 1)}
        moves = {}  # per pool: (chance, the row it leads to, Progress gained), and the chance of a loop
        for m in range(lowest_pool, top + 1):
            p_bust, outs = _float_outcomes(m)
            # All Ideas at the cap (or a lone Bug on 1 die) lead back to the very same decision.
            loop = sum(p for p, ideas, progress in outs if progress == 0 and min(top, m + ideas) == m)
            steps = [(p, self.best[min(top, m + ideas)], progress) for p, ideas, progress in outs
                     if not (progress == 0 and min(top, m + ideas) == m)]
            moves[m] = (p_bust * on_bust, loop, steps)
        for a in range(size - 1, lowest_risk - 1, -1):
            stop = table.after_banking(team + a, world)
            for m in range(top, lowest_pool - 1, -1):
                total, loop, steps = moves[m]
                for p, row, progress in steps:
                    total += p * row[a + progress]
                keep_pressing = total / (1.0 - loop)
                if keep_pressing > stop:
                    self.press[m][a] = self.best[m][a] = keep_pressing
                else:
                    self.press[m][a] = total + loop * stop
                    self.best[m][a] = stop

    def covers(self, at_risk: int, pool: int) -> bool:
        return at_risk >= self.lowest_risk and pool >= self.lowest_pool

    def stop_value(self, at_risk: int) -> float:
        return self.table.after_banking(self.team + at_risk, self.world)

    def press_value(self, at_risk: int, pool: int) -> float:
        return 1.0 if at_risk >= self.needed else self.press[pool][at_risk]


_TURNS: dict[tuple[int, int, int, int, int], _ThisTurn] = {}


def _this_turn(state: State, at_risk: int, pool: int) -> _ThisTurn:
    """The solved turn for this state, reused for the turn's later decisions (cached, small)."""
    key = (rules.team_target(state), rules.world_target(state), state.settings.max_pool, state.team, state.world)
    turn = _TURNS.get(key)
    if turn is None or not turn.covers(at_risk, pool):
        if len(_TURNS) >= 16:
            _TURNS.pop(next(iter(_TURNS)))
        turn = _TURNS[key] = _ThisTurn(future_table(*key[:3]), state.team, state.world, at_risk, pool)
    return turn


# --- What the view shows -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Odds:
    pool: int  # dice in the next throw
    bust_chance: Fraction  # exact chance that throw busts
    at_risk: int  # points at risk now
    expected_points: Fraction  # expected points at risk after that throw (0 if it busts)
    win_if_stop: Optional[float]  # None before the turn's first throw (it can't be skipped)
    win_if_press: float
    hint: Optional[Literal["stop", "press_on"]]
    reason: str


def odds(state: State) -> Optional[Odds]:
    """The odds before a roll decision: at the start of a turn, or after a throw that didn't bust.

    None when there is no such decision (a bust waiting for powers, the world phase, game over).
    """
    if state.phase not in ("start", "throw") or rules.is_bust(state):
        return None
    risk, pool = rules.at_risk(state), rules.next_pool(state)
    turn = _this_turn(state, risk, pool)
    chance, gain = bust_chance(pool), expected_points(risk, pool)
    press = turn.press_value(risk, pool)
    if state.phase == "start":
        return Odds(pool, chance, risk, gain, None, press, None,
                    f"The turn starts with a throw of {pool} {'die' if pool == 1 else 'dice'}; "
                    f"{_pct(chance)} chance it busts. The team's chance to win: {_pct(press)}.")
    stop = turn.stop_value(risk)
    if state.team + risk >= rules.team_target(state):
        return Odds(pool, chance, risk, gain, 1.0, press, "stop",
                    f"Stop: banking {risk} reaches the target of {rules.team_target(state)} — the team wins now.")
    hint: Literal["stop", "press_on"] = "press_on" if press > stop else "stop"
    odds_words = (
        f"{_pct(press)} chance to win if you press on, {_pct(stop)} if you stop now; "
        f"the next {pool} dice bust {_pct(chance)} of the time, losing the {risk} at risk, "
        f"and leave {float(gain):.1f} at risk on average."
    )
    close = abs(press - stop) < 0.005
    lead = {"press_on": "Press on", "stop": "Stop"}[hint] + (" (it's close)" if close else "")
    return Odds(pool, chance, risk, gain, stop, press, hint, f"{lead}: {odds_words}")


def prepare(state: State) -> None:
    """Build the game's table of later-turn chances now (e.g. while the game screen opens), so the
    first decision's odds come as fast as the rest. Optional: `odds` builds it when first needed."""
    future_table(rules.team_target(state), rules.world_target(state), state.settings.max_pool)


def _pct(x) -> str:
    return f"{float(x) * 100:.1f}%"
