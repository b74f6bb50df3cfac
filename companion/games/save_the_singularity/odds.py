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

from collections import deque
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from itertools import groupby
from math import factorial
from operator import itemgetter, mul
from typing import Literal, Optional

from companion.games.save_the_singularity import rules
from companion.i18n import Msg, NMsg, Number, Percent
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

    The d12 is rolled until a Stop. Bad and +Dice only ever add up, so each tally (Bad, +Dice) is
    visited once, in that order, after everything that leads to it; a roll that leaves the tally
    as it was (+Dice at the cap) repeats, summed as 1 / (1 - its chance). Bad counts are followed
    until what is still rolling is negligible (< 1e-17).
    """
    # Faces grouped by what they do: (Bad?, +Dice?, Stop?) -> chance of such a face.
    kinds: dict[tuple[bool, bool, bool], float] = {}
    for symbols in rules.D12_CHART.values():
        key = ("Bad" in symbols, "+Dice" in symbols, "Stop" in symbols)
        kinds[key] = kinds.get(key, 0.0) + 1 / len(rules.D12_CHART)
    # Per +Dice tally: the chance a roll repeats it, and the other faces as (Bad?, tally after, Stop?, chance).
    moves = []
    for extra in range(max_extra + 1):
        faces = [(is_bad, min(max_extra, extra + is_dice), stops, q) for (is_bad, is_dice, stops), q in kinds.items()]
        repeat = sum(q for is_bad, after, stops, q in faces if not (is_bad or stops) and after == extra)
        moves.append((repeat, [f for f in faces if f[0] or f[2] or f[1] != extra]))
    # rolling[bad][extra]: chance of a roll being made with that tally (repeats counted).
    rolling = [[1.0] + [0.0] * max_extra]
    done: dict[tuple[int, int], float] = {}
    bad = 0
    while sum(rolling[bad]) > 1e-17:
        rolling.append([0.0] * (max_extra + 1))
        for extra, (repeat, faces) in enumerate(moves):
            p = rolling[bad][extra] / (1.0 - repeat)
            for is_bad, after, stops, q in faces:
                if stops:
                    done[bad + is_bad, after] = done.get((bad + is_bad, after), 0.0) + p * q
                else:
                    rolling[bad + is_bad][after] += p * q
        bad += 1
    return tuple(sorted((b, d, p) for (b, d), p in done.items() if p > 1e-16))


# --- Later turns, played the usual way -------------------------------------------------------------


@lru_cache(maxsize=None)
def _turn_profile(start_pool: int, max_pool: int) -> tuple[tuple[float, ...], tuple[float, ...]]:
    """One whole turn from `start_pool` dice played the usual way (no target in sight).

    Returns (stopped, busted): the probability that the highest points at risk reached at a
    decision is `a` and the player then stopped / later busted. A target R close by is handled
    exactly from this: every path that reached R at a decision stops there and wins.

    Points at risk and the pool never shrink within a turn, so each decision (points at risk, then
    pool, in increasing order) has all its chance before it passes it on; the one way back to the
    same decision (only Ideas with the pool at its cap) repeats, summed as 1 / (1 - chance).
    `start_pool` is at least 2: from 1 die (no bust risk) the usual play never stops.
    """
    pools = range(start_pool, max_pool + 1)
    stop_from = {m: usual_stop_from(m) for m in pools}
    # reach[m][a]: chance of a decision before throwing m dice with a at risk, where usual play presses on.
    reach = {m: [0.0] * stop_from[m] for m in pools}
    reach[start_pool][0] = 1.0
    size = max(stop_from[m] + m for m in pools)  # a throw adds at most m Progress
    stopped, busted = [0.0] * size, [0.0] * size
    throws = {}  # per pool: (bust chance, repeat chance, [(chance, Progress, next pool)])
    for m in pools:
        p_bust, outs = _float_outcomes(m)
        steps = [(p, progress, min(max_pool, m + ideas)) for p, ideas, progress in outs]
        repeat = sum(p for p, progress, pool in steps if progress == 0 and pool == m)
        throws[m] = (p_bust, repeat, [s for s in steps if s[1] or s[2] != m])
    for a in range(max(stop_from.values())):
        for m in pools:
            if a >= stop_from[m] or not reach[m][a]:
                continue
            p_bust, repeat, steps = throws[m]
            mass = reach[m][a] / (1.0 - repeat)
            busted[a] += mass * p_bust
            for p, progress, pool in steps:
                risk = a + progress
                if risk < stop_from[pool]:
                    reach[pool][risk] += mass * p
                else:
                    stopped[risk] += mass * p
    top = max(a for a in range(size) if stopped[a] or busted[a])
    return tuple(stopped[: top + 1]), tuple(busted[: top + 1])


class _FutureTable:
    """win[W][T]: the team's chance to win when it has just banked to T, the world has W and the
    world phase is about to start, with later turns played the usual way."""

    def __init__(self, team_target: int, world_target: int, max_pool: int):
        self.team_target, self.world_target, self.max_pool = team_target, world_target, max_pool
        max_extra = max_pool - rules.START_POOL
        self.world = world_phase_outcomes(max_extra)
        self.profiles = {p: _turn_profile(p, max_pool) for p in range(rules.START_POOL, max_pool + 1)}
        self.longest = max(len(s) for s, _ in self.profiles.values())  # most points one turn banks
        self.win = self._solve()

    def _mix_by_bad(self) -> list[tuple[list[float], list[float]]]:
        """Per Bad count b of a world phase: P(b, the next usual turn's highest decision is a and it
        stopped / busted), mixing the start pools the phase's +Dice give."""
        size = self.longest
        padded = {pool: (list(s) + [0.0] * (size - len(s)), list(b) + [0.0] * (size - len(b)))
                  for pool, (s, b) in self.profiles.items()}
        mixed: list[tuple[list[float], list[float]]] = []
        for bad, outcomes in groupby(self.world, key=itemgetter(0)):  # sorted by Bad count
            if bad != len(mixed):
                break  # no chance at all of this many Bad
            stopped, busted = [0.0] * size, [0.0] * size
            for _, extra, p in outcomes:
                pool_stopped, pool_busted = padded[min(self.max_pool, rules.START_POOL + extra)]
                stopped = [x + p * q for x, q in zip(stopped, pool_stopped)]
                busted = [x + p * q for x, q in zip(busted, pool_busted)]
            if sum(stopped) + sum(busted) < 1e-13:
                break  # more Bad is rarer still; what is left can't move a percentage
            mixed.append((stopped, busted))
        return mixed

    def _solve(self) -> list[list[float]]:
        """Fill the table from the world's target down, each row from the team's target down.

        After a world phase with b Bad the usual turn either banks g, moving the team from cell T
        to T + g (a win at or past the target), or banks nothing and leaves it at T; a turn that
        busts after the target was at risk at a decision wins too (it would have stopped there).
        So win[W][T] adds up, over b, those chances times win[W + b][...] of the cells they lead to.
        """
        rt, rw, size = self.team_target, self.world_target, self.longest
        turns = self._mix_by_bad()  # per Bad count b: (stopped, busted) of the turn that follows
        # The amounts a turn banks with any chance, as one window first <= g < end for every b.
        used = [g for stopped, _ in turns for g in range(1, size) if stopped[g] > 1e-16]
        first, end = (min(used), max(used) + 1) if used else (1, 1)
        # nothing[b]: P(b, the turn banks nothing). With r < size still needed, busts_from[b][r] of
        # that is a win instead: P(b, the turn busts after r or more was at risk at a decision).
        nothing = [stopped[0] + sum(busted) for stopped, busted in turns]
        busts_from = [[sum(busted[r:]) for r in range(size + 1)] for _, busted in turns]
        near = range(max(0, rt - size + 1), rt)  # the cells that close to the target

        # The rows solved so far are kept per cell T in columns[T]: row by row, newest first, the
        # row's cell T then its cells T + first .. end - 1 (where the banks from T lead). `kernel`
        # holds the matching chances for b = 0, 1, 2, ..., so one dot product per cell adds up every
        # world phase (a few long dot products run far faster in Python than many short ones). The
        # deque forgets rows more Bad away than the kernel counts; rows at or past the world's
        # target are never in it (a world phase with that much Bad loses the game).
        kernel = [x for (stopped, _), nothing_b in zip(turns, nothing) for x in [nothing_b, *stopped[first:end]]]
        columns = [deque(maxlen=len(kernel)) for _ in range(rt)]
        # With 0 Bad the turn may come back to the very cell being solved (banking nothing, unless
        # it busts after the target was at risk): that chance is divided out, again[T] = 1 / (1 - it).
        bust_wins = [busts_from[0][min(size, rt - t)] for t in range(rt)]
        again = [1.0 / (1.0 - (nothing[0] - bust_win)) for bust_win in bust_wins]

        padding = [1.0] * end  # cells at or past the team's target: the team has won
        win: list[list[float]] = [[] for _ in range(rw)]
        for w in range(rw - 1, -1, -1):
            # The kernel counts every bust as banking nothing. Near the target some of them win:
            # with 0 Bad that is bust_wins, with b Bad it turns win[w + b][T] into 1 for them.
            row = [0.0] * rt + padding
            with_bad = range(1, min(len(turns), rw - w))
            for t in near:
                row[t] = bust_wins[t] + sum(busts_from[b][rt - t] * (1.0 - win[w + b][t]) for b in with_bad)
            # Banks only move the team up, so fill the row from the top.
            for t in range(rt - 1, -1, -1):
                column = columns[t]
                column.extendleft(reversed(row[t + first : t + end]))
                column.appendleft(0.0)  # cell T itself, not known yet (see `again`)
                row[t] = column[0] = (row[t] + sum(map(mul, kernel, column))) * again[t]
            win[w] = row[:rt]
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
        self.on_bust = on_bust = table.after_banking(team, world)
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
        if at_risk >= self.needed:
            # The target is at risk: a throw that doesn't bust still wins (stop after it), one that
            # busts banks nothing and the game goes on from where it stood.
            chance = float(bust_chance(pool))
            return 1.0 - chance + chance * self.on_bust
        return self.press[pool][at_risk]


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
    reason: Msg  # said in the phone's language


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
        return Odds(pool, chance, risk, gain, None, press, None, NMsg(
            "The turn starts with a throw of {n} die; {chance} chance it busts. The team's chance to win: {win}.",
            "The turn starts with a throw of {n} dice; {chance} chance it busts. The team's chance to win: {win}.",
            pool, chance=_pct(chance), win=_pct(press)))
    stop = turn.stop_value(risk)
    if state.team + risk >= rules.team_target(state):
        return Odds(pool, chance, risk, gain, 1.0, press, "stop",
                    Msg("Stop: banking {risk} reaches the target of {target} — the team wins now.", risk=risk,
                        target=rules.team_target(state)))
    hint: Literal["stop", "press_on"] = "press_on" if press > stop else "stop"
    words = dict(press=_pct(press), stop=_pct(stop), pool=pool, chance=_pct(chance), risk=risk,
                 average=Number(float(gain)))
    close = abs(press - stop) < 0.005
    if hint == "press_on" and close:
        reason = Msg("Press on (it's close): {press} chance to win if you press on, {stop} if you stop now; the next "
                     "{pool} dice bust {chance} of the time, losing the {risk} at risk, and leave {average} at risk on "
                     "average.", **words)
    elif hint == "press_on":
        reason = Msg("Press on: {press} chance to win if you press on, {stop} if you stop now; the next {pool} dice "
                     "bust {chance} of the time, losing the {risk} at risk, and leave {average} at risk on average.",
                     **words)
    elif close:
        reason = Msg("Stop (it's close): {press} chance to win if you press on, {stop} if you stop now; the next "
                     "{pool} dice bust {chance} of the time, losing the {risk} at risk, and leave {average} at risk on "
                     "average.", **words)
    else:
        reason = Msg("Stop: {press} chance to win if you press on, {stop} if you stop now; the next {pool} dice bust "
                     "{chance} of the time, losing the {risk} at risk, and leave {average} at risk on average.", **words)
    return Odds(pool, chance, risk, gain, stop, press, hint, reason)


def prepare(state: State) -> None:
    """Build the game's table of later-turn chances now (e.g. while the game screen opens), so the
    first decision's odds come as fast as the rest. Optional: `odds` builds it when first needed."""
    future_table(rules.team_target(state), rules.world_target(state), state.settings.max_pool)


def _pct(x) -> Percent:
    return Percent(x, 1)  # close chances compared side by side: one decimal
