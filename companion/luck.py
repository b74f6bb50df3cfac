"""Luck, measured: every die a campaign rolled against the distribution its chance node declared, and
what the dice meant in each game, each with where the table stands among all the ways the same
rolls could have come out.

Which die was which. The log keeps each action's dice as [sides, value, physical]. `trace` replays
the actions through the pure rules with exactly those dice and notes, for each die, the chance node
that asked for it: which die (named faces or plain), who rolled and why. A die the table entered
by name (a Save the Singularity "Idea", a Biosphere 5 "black hand") is recorded as the lowest face
with that name, so its distribution is that of the *recorded* value (Bug 1/6, Idea 2/6 at 2,
Progress 3/6 at 4), not a plain d6's.

How exact. A distribution is kept as whole-number weights (P(low + i) = weights[i] / total), and the
distribution of a sum of independent rolls is the convolution of theirs, so every expectation and
share below is a fraction — no sampling, no normal curve. Sums of plain dice use the closed form of
that convolution (inclusion–exclusion), which stays instant for thousands of dice.

"Where the table stands": the share of tables rolling the same dice that would come out higher, the
same, or lower. For plain dice a high face is not always good (a payment-due roll wants a high one,
a Bug is a 1), so their averages say "higher/lower than"; the game's own numbers (`meanings`) know
which way is lucky and say "luckier/unluckier than".

The words are said in the current phone's language: a report is made when the Luck screen is drawn.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from fractions import Fraction
from math import comb, lcm
from typing import Any, Callable, Iterable, Iterator, Optional, Sequence

from pydantic import BaseModel

from companion.dice import PhysicalDice, RecordedDice, ReplayMismatch, RolledDie
from companion.games import reports_of
from companion.games.base import Chance, DieSpec, Event, Game, d
from companion.i18n import _, fmt_number, fmt_percent, ngettext
from companion.log import parse_action, step
from companion.table import CampaignState, GiveDice

MIN_DICE = 10  # fewer dice of a kind: too few to tell luck from chance
MIN_TRIALS = 5  # the same for the game's own numbers (busts, hits, rescue rolls …)


# --- Exact distributions -------------------------------------------------------------------------


@dataclass(frozen=True)
class Dist:
    """A distribution over whole numbers as whole-number weights: P(low + i) = weights[i] / total.

    >>> two_d6 = Dist.uniform(6) + Dist.uniform(6)
    >>> two_d6.low, two_d6.weights[5], two_d6.total, two_d6.mean
    (2, 6, 36, Fraction(7, 1))
    """

    low: int
    weights: tuple[int, ...]

    @classmethod
    def uniform(cls, sides: int) -> Dist:
        return cls(1, (1,) * sides)

    @classmethod
    def of(cls, probabilities: dict[int, Fraction]) -> Dist:
        """From exact probabilities ({outcome: Fraction}), over their common denominator."""
        kept = {v: Fraction(p) for v, p in probabilities.items() if p}
        low, high = min(kept), max(kept)
        denominator = lcm(*(p.denominator for p in kept.values()))
        return cls(low, tuple(int(kept.get(v, 0) * denominator) for v in range(low, high + 1)))

    @classmethod
    def bernoulli(cls, p: Fraction) -> Dist:
        """1 with probability p, else 0 (a bust, a save, a payment due …)."""
        return cls.of({0: 1 - Fraction(p), 1: Fraction(p)})

    @property
    def total(self) -> int:
        return sum(self.weights)

    @property
    def mean(self) -> Fraction:
        return Fraction(sum((self.low + i) * w for i, w in enumerate(self.weights)), self.total)

    def __add__(self, other: Dist) -> Dist:
        """The distribution of the sum of two independent rolls: the convolution of the two."""
        return Dist(self.low + other.low, tuple(_convolve(self.weights, other.weights)))

    def standing(self, observed: int, count: int) -> Standing:
        """Where `observed` stands in this distribution (of a sum of `count` rolls)."""
        i = observed - self.low
        below = sum(self.weights[:max(0, min(i, len(self.weights)))])
        same = self.weights[i] if 0 <= i < len(self.weights) else 0
        total = self.total
        return Standing(count, observed, self.mean, Fraction(below, total), Fraction(same, total))


def _convolve(a: Sequence[int], b: Sequence[int]) -> list[int]:
    """Multiply two weight lists as polynomials, as one product of big integers with each weight in
    its own slot of bytes (Kronecker substitution): Python multiplies big integers far faster than a
    double loop adds up the products."""
    slot = (max(a).bit_length() + max(b).bit_length() + min(len(a), len(b)).bit_length()) // 8 + 1

    def pack(weights: Sequence[int]) -> int:
        return int.from_bytes(b"".join(w.to_bytes(slot, "little") for w in weights), "little")

    raw = (pack(a) * pack(b)).to_bytes(slot * (len(a) + len(b) - 1), "little")
    return [int.from_bytes(raw[i:i + slot], "little") for i in range(0, len(raw), slot)]


def sum_of(dists: Iterable[Dist]) -> Dist:
    """The distribution of the sum of independent rolls. Identical distributions (the same die
    thrown many times) are added by doubling, so 300 d6 take nine convolutions, not 300."""
    counts: dict[Dist, int] = {}
    for one in dists:
        counts[one] = counts.get(one, 0) + 1
    result = Dist(0, (1,))
    for one, n in counts.items():
        result = result + _times(one, n)
    return result


def _times(one: Dist, n: int) -> Dist:
    result, power = Dist(0, (1,)), one
    while n:
        if n & 1:
            result = result + power
        n >>= 1
        if n:
            power = power + power
    return result


def uniform_sum_standing(count: int, sides: int, observed: int) -> Standing:
    """Where a sum of `count` plain dice (faces 1..sides) stands: the closed form of their
    convolution. The rolls summing to at most s number Σ_j (−1)^j C(n, j) C(s − j·sides, n).

    >>> st = uniform_sum_standing(2, 6, 7)
    >>> st.below, st.same, st.expected
    (Fraction(5, 12), Fraction(1, 6), Fraction(7, 1))
    """
    def at_most(s: int) -> int:
        if s < count:
            return 0
        if s >= count * sides:
            return sides ** count
        return sum((-1) ** j * comb(count, j) * comb(s - j * sides, count) for j in range((s - count) // sides + 1))

    total = sides ** count
    below = at_most(observed - 1)
    return Standing(count, observed, Fraction(count * (sides + 1), 2), Fraction(below, total),
                    Fraction(at_most(observed) - below, total))


@dataclass(frozen=True)
class Standing:
    """An observed sum of `count` rolls among all the ways they could have come out."""

    count: int
    observed: int
    expected: Fraction  # of the sum
    below: Fraction  # P(sum < observed)
    same: Fraction  # P(sum = observed)

    @property
    def above(self) -> Fraction:
        return 1 - self.below - self.same

    @property
    def at_most(self) -> Fraction:
        """The percentile: P(sum ≤ observed)."""
        return self.below + self.same


def verdict(st: Standing, good: Optional[str] = None) -> str:
    """Where the table stands, in words. `good`: "high" when more is luckier (hits dealt), "low" when
    less is (busts), None for plain dice (a high face is not always good).

    >>> verdict(Standing(10, 25, Fraction(35), Fraction(1, 10), Fraction(1, 20)))
    'lower than 85% of tables would roll'
    """
    if st.above > Fraction(1, 2):  # most tables would have come out higher
        share, high = st.above, False
    elif st.below > Fraction(1, 2):
        share, high = st.below, True
    else:
        return _("right where most tables would be") if good else _("right in the middle of what tables would roll")
    share = fmt_percent(float(share))
    if good is None:
        return (_("higher than {share} of tables would roll", share=share) if high
                else _("lower than {share} of tables would roll", share=share))
    lucky = high == (good == "high")
    return (_("luckier than {share} of tables would be", share=share) if lucky
            else _("unluckier than {share} of tables would be", share=share))


# --- Which chance node each die answered -------------------------------------------------------


@dataclass(frozen=True)
class TracedDie:
    seq: int
    sides: int
    value: int
    physical: bool
    die: DieSpec  # as the chance node declared it (its named faces), or a plain die of its size
    who: str  # who rolled, as the rules named them; "" for the table (the dice tray)
    why: str

    @property
    def dist(self) -> Dist:
        """The distribution of the recorded value: a plain die's faces, except that a die entered
        by its name records the lowest face with that name (see the module's docstring)."""
        if not (self.physical and self.die.faces and len(set(self.die.faces)) < self.sides):
            return Dist.uniform(self.sides)
        lowest: dict[str, int] = {}
        weight: dict[int, int] = {}
        for v, name in enumerate(self.die.faces, start=1):
            at = lowest.setdefault(name, v)
            weight[at] = weight.get(at, 0) + 1
        return Dist(1, tuple(weight.get(v, 0) for v in range(1, self.sides + 1)))

    @property
    def by_name(self) -> bool:
        return self.dist != Dist.uniform(self.sides)


@dataclass
class Step:
    """One action in effect as the luck needs it: its events and its dice (each with its chance
    node); whether the rules could replay it; and, for the few actions a game's reader needs it
    for (its `LUCK_STATE_BEFORE`), the game state before it."""

    seq: int
    at: Optional[datetime]
    action: dict
    events: list[Event]
    dice: list[TracedDie]
    replayed: bool = True
    before: Optional[BaseModel] = None




@dataclass
class _Tracing(PhysicalDice):
    """Replays one action's recorded dice (in order, as the table entered them) and notes the
    chance node each die answered. A physical-dice source, so the store's step keeps it."""

    chances: list[Chance] = field(default_factory=list)

    def throw(self, chance: Chance) -> list[int]:
        faces = super().throw(chance)
        self.chances.extend([chance] * len(faces))
        return faces


def trace(game: Game, start: CampaignState, rows: Iterable[Any]) -> Iterator[Step]:
    """The actions in effect (`rows`: seq, action, dice, events, created_at — the log's rows after
    setup, up to the cursor), each with its dice traced to their chance nodes.

    An action the rules can't replay any more (an old save whose rules changed since) stops the
    replay: from there on each die counts as a plain die of its size, rolled by the table."""
    state: Optional[CampaignState] = start
    # The actions whose state before them the game's reader needs (the rest aren't kept: a long
    # campaign's states would fill the memory).
    wanted = getattr(reports_of(game.key), "LUCK_STATE_BEFORE", frozenset())
    for row in rows:
        recorded = [RolledDie.from_json(x) for x in row.dice or []]
        events = [Event.coerce(e) for e in row.events or []]
        action = dict(row.action or {})
        chances: list[Optional[Chance]] = [None] * len(recorded)
        before = None
        if state is not None:
            try:
                if action.get("kind") in wanted:
                    before = game.State.model_validate(state.game)
                typed = parse_action(game, action)
                if isinstance(typed, GiveDice):  # the dice of the roll the campaign waited for
                    if state.pending is None:
                        raise ReplayMismatch  # dice given while nothing waited for them (caught below)
                    found = [state.pending.chance] * len(recorded)
                    state = step(game, state, typed, RecordedDice(recorded)).state
                else:
                    source = _Tracing(entered=[x.value for x in recorded])
                    state = step(game, state, typed, source).state
                    found = source.chances
                if len(found) != len(recorded):
                    raise ReplayMismatch  # the replay used other dice than the recorded ones (caught below)
                chances = list(found)
            except Exception:  # any failure to replay (rules changed, a foreign save): stop, never fail the screen
                state, before = None, None
        dice = [TracedDie(row.seq, x.sides, x.value, x.physical,
                          c.die if c is not None and c.die.sides == x.sides else d(x.sides),
                          c.who if c is not None else "", c.why if c is not None else "")
                for x, c in zip(recorded, chances)]
        yield Step(row.seq, row.created_at, action, events, dice, replayed=state is not None, before=before)


# --- What the dice meant, game by game -----------------------------------------------------------


@dataclass(frozen=True)
class Trial:
    """One roll read for what it meant: its outcome as a whole number (1 for a bust, the hits
    dealt) and the exact distribution the chance node gave that outcome."""

    seq: int
    who: str
    value: int
    dist: Dist


@dataclass
class Meaning:
    """One of the game's own numbers: `label` names what is counted, `unit` the rolls it rests on."""

    label: str  # "Throws that busted (2 or more Bugs)"
    unit: Callable[[int], str]  # n → "3 throws"
    none: str  # "No throws yet."
    good: str  # "high": more is luckier; "low": less is
    trials: list[Trial] = field(default_factory=list)


def meanings(game_key: str, settings: dict, steps: Sequence[Step]) -> tuple[list[Meaning], str]:
    """The game's own numbers from its typed events, and a sentence on what the data supports."""
    reader = getattr(reports_of(game_key), "luck", None)
    if reader is None:
        return [], _("This game's events carry no rolls to read for meaning: only the dice themselves count.")
    return reader(settings, steps)


# --- The report the Luck screen shows -------------------------------------------------------------


@dataclass(frozen=True)
class Line:
    """One figure: a group of dice or one of the game's numbers, with its sentence."""

    label: str
    sentence: str
    standing: Optional[Standing]  # None: too few to say


@dataclass
class Part:
    """The table, or one player: their dice and their share of the game's numbers."""

    who: str
    dice: list[Line]
    meanings: list[Line]


@dataclass
class Report:
    parts: list[Part]
    chart: list[tuple[float, bool]]  # after each die: pips above (+) or below (−) the average so far; physical?
    notes: list[str]
    dice: int
    physical: int
    trials: int  # rolls read for the game's own numbers

    @property
    def empty(self) -> bool:
        return not self.dice and not self.trials


def _avg(x: Fraction) -> str:
    return fmt_number(float(x), 1)


def counted_face(die: DieSpec) -> Optional[str]:
    """The face a die of two named faces is read for — the rarer one (Biosphere 5's black hand), else
    its first — or None: an average of face numbers means nothing for such a die (issue #30)."""
    if not die.faces or len(set(die.faces)) != 2:
        return None
    names = list(dict.fromkeys(die.faces))
    return min(names, key=die.faces.count)


def _face_line(dice: Sequence[TracedDie], face: str) -> Line:
    """Dice of two named faces: how often `face` came up against the number expected."""
    first = dice[0]
    die = _(first.die.label)
    label = _("{die} (physical)", die=die) if first.physical else _("{die} (app)", die=die)
    n = len(dice)
    observed = sum(1 for x in dice if x.die.face_name(x.value) == face)
    st = _times(Dist.bernoulli(Fraction(first.die.faces.count(face), first.sides)), n).standing(observed, n)
    words = ngettext("{face}: {observed} against {expected} expected, over {n} die",
                     "{face}: {observed} against {expected} expected, over {n} dice", n,
                     face=_(face), observed=observed, expected=_avg(st.expected))
    if n < MIN_DICE:
        return Line(label, _("{figures}: too few to tell luck from chance (a verdict comes at {least}).", figures=words,
                             least=MIN_DICE), None)
    return Line(label, _("{figures} — {verdict}.", figures=words, verdict=verdict(st)), st)


def dice_line(dice: Sequence[TracedDie]) -> Line:
    """One group of alike dice: their average against the expected, and where that stands; dice of
    two named faces (a hand die): how often the rarer face came up against the number expected."""
    first = dice[0]
    face = counted_face(first.die)
    if face is not None:
        return _face_line(dice, face)
    die = first.die.label if first.by_name else f"d{first.sides}"
    if first.by_name:
        label = _("{die} (physical, by name)", die=die) if first.physical else _("{die} (app, by name)", die=die)
    else:
        label = _("{die} (physical)", die=die) if first.physical else _("{die} (app)", die=die)
    n = len(dice)
    observed = sum(x.value for x in dice)
    if first.by_name:
        st = _times(first.dist, n).standing(observed, n)
    else:
        st = uniform_sum_standing(n, first.sides, observed)
    words = ngettext("{average} on average against {expected} expected, over {n} die",
                     "{average} on average against {expected} expected, over {n} dice", n,
                     average=_avg(Fraction(observed, n)), expected=_avg(st.expected / n))
    if n < MIN_DICE:
        return Line(label, _("{figures}: too few to tell luck from chance (a verdict comes at {least}).", figures=words,
                             least=MIN_DICE), None)
    return Line(label, _("{figures} — {verdict}.", figures=words, verdict=verdict(st)), st)


def meaning_line(meaning: Meaning, trials: Sequence[Trial]) -> Line:
    n = len(trials)
    if not n:
        return Line(meaning.label, meaning.none, None)
    observed = sum(t.value for t in trials)
    st = sum_of(t.dist for t in trials).standing(observed, n)
    words = _("{observed} against {expected} expected, over {rolls}", observed=observed, expected=_avg(st.expected),
              rolls=meaning.unit(n))
    if n < MIN_TRIALS:
        return Line(meaning.label, _("{figures}: too few to tell luck from chance (a verdict comes at {least}).",
                                     figures=words, least=MIN_TRIALS), None)
    return Line(meaning.label, _("{figures} — {verdict}.", figures=words, verdict=verdict(st, meaning.good)), st)


def _groups(dice: Sequence[TracedDie]) -> list[list[TracedDie]]:
    """Alike dice together (size, app or physical, entered by name or not): the app's first, then
    the physical ones, each by size."""
    groups: dict[tuple, list[TracedDie]] = {}
    for x in dice:
        groups.setdefault((x.physical, x.sides, x.dist.weights, counted_face(x.die) or "", x.die.faces or ()),
                          []).append(x)
    return [groups[key] for key in sorted(groups)]


def report(game_key: str, settings: dict, steps: Sequence[Step], seqs: Optional[tuple[int, int]] = None) -> Report:
    """The luck of the actions in `seqs` (first, last; all when None): the table, then each player."""
    steps = list(steps)
    found, note = meanings(game_key, settings, steps)  # read over the whole log: a trial may span actions
    inside = (lambda seq: seqs[0] <= seq <= seqs[1]) if seqs else (lambda seq: True)  # noqa: E731
    dice = [x for st in steps if inside(st.seq) for x in st.dice]
    trials = {id(m): [t for t in m.trials if inside(t.seq)] for m in found}
    players = list(dict.fromkeys([x.who for x in dice if x.who] +
                                 [t.who for m in found for t in trials[id(m)] if t.who]))
    parts = [Part(_("The table"), [dice_line(g) for g in _groups(dice)],
                  [meaning_line(m, trials[id(m)]) for m in found])]
    for who in players:
        mine = [x for x in dice if x.who == who]
        lines = [meaning_line(m, [t for t in trials[id(m)] if t.who == who]) for m in found
                 if any(t.who == who for t in trials[id(m)])]
        parts.append(Part(who, [dice_line(g) for g in _groups(mine)], lines))
    chart, pips = [], Fraction(0)
    for x in dice:
        pips += x.value - x.dist.mean
        chart.append((float(pips), x.physical))
    notes = [note] if note else []
    if any(x.by_name for x in dice):
        notes.append(_("Dice entered by name (Bug / Idea / Progress, black hand / blank) count as the lowest face with "
                       "that name, and are measured against exactly that."))
    untraced = sum(1 for st in steps if inside(st.seq) and not st.replayed)
    if untraced:
        notes.append(ngettext("{n} action from an older save can't be replayed by today's rules: its dice count as plain "
                              "dice of their size, rolled by the table.",
                              "{n} actions from an older save can't be replayed by today's rules: their dice count as "
                              "plain dice of their size, rolled by the table.", untraced))
    return Report(parts, chart, notes, len(dice), sum(x.physical for x in dice), sum(map(len, trials.values())))
