"""Luck, measured (companion.luck): exact distributions checked against hand-computed numbers, every
die traced to the chance node that asked for it, and each game's own numbers."""

import doctest
from fractions import Fraction

import pytest

import companion.luck as luck_module
from companion.games import get_game
from companion.games.base import Event
from companion.games.klaw import odds as klaw_odds
from companion.games.klaw.rules import Attack, Deploy, EndTurn, HostCard, Roll
from companion.games.save_the_singularity import rules as sts
from companion.games.save_the_singularity.odds import bust_chance
from companion.luck import Dist, Standing, Step, report, sum_of, trace, uniform_sum_standing, verdict
from companion.table import GiveDice, SetPhysicalDice
from tests.helpers import memory_store


def test_doctests():
    assert doctest.testmod(luck_module).failed == 0


# --- Exact numbers, by hand ------------------------------------------------------------------------


def ways_to_roll(count: int, sides: int) -> list[int]:
    """ways[s] = how many of the sides**count rolls sum to s: counted one die at a time, the long way."""
    ways = [1]
    for _ in range(count):
        longer = [0] * (len(ways) + sides)
        for total, n in enumerate(ways):
            for face in range(1, sides + 1):
                longer[total + face] += n
        ways = longer
    return ways


def test_ten_d6_summing_25():
    """The issue's example: 10 d6 summing 25 (an average of 2.5). Expected 35; P(sum ≤ 25) exactly:
    2,357,850 of the 60,466,176 ways of rolling 10 d6 sum to 25 or less (831,204 to exactly 25)."""
    ways = ways_to_roll(10, 6)
    assert sum(ways) == 6 ** 10 == 60_466_176
    assert sum(ways[:26]) == 2_357_850 and ways[25] == 831_204  # counted the long way

    st = uniform_sum_standing(10, 6, 25)
    assert st.expected == 35
    assert st.at_most == Fraction(2_357_850, 60_466_176) == Fraction(392_975, 10_077_696)  # ≈ 3.9%
    assert st.same == Fraction(831_204, 6 ** 10)
    assert st.above == 1 - Fraction(2_357_850, 60_466_176)  # ≈ 96.1% of tables would roll more
    assert verdict(st) == "lower than 96% of tables would roll"


@pytest.mark.parametrize("count,sides", [(1, 6), (3, 6), (7, 6), (4, 12), (5, 2)])
def test_the_closed_form_is_the_convolution(count, sides):
    """Inclusion–exclusion (plain dice) and the big-integer convolution agree with counting by hand."""
    ways = ways_to_roll(count, sides)
    summed = sum_of([Dist.uniform(sides)] * count)
    assert summed.low == count and summed.total == sides ** count
    for s in range(count - 1, count * sides + 2):
        closed = uniform_sum_standing(count, sides, s)
        by_hand = Fraction(sum(ways[: min(s + 1, len(ways))]), sides ** count)
        assert closed.at_most == by_hand == summed.standing(s, count).at_most


def test_a_thousand_dice_are_exact_and_quick():
    st = uniform_sum_standing(1000, 6, 3450)
    assert st.expected == 3500
    assert Fraction(1, 10) < st.at_most < Fraction(1, 2)  # 50 pips short over 1000 dice: well within chance


def test_bernoulli_trials_add_up_exactly():
    """Three throws with bust chances 1/2, 1/3, 1/6: no bust 5/18; exactly one 10/36 + 5/36 + 2/36 = 17/36."""
    total = sum_of(Dist.bernoulli(Fraction(1, n)) for n in (2, 3, 6))
    assert total.mean == Fraction(1, 2) + Fraction(1, 3) + Fraction(1, 6)
    no_bust = Fraction(1, 2) * Fraction(2, 3) * Fraction(5, 6)
    assert total.standing(0, 3).same == no_bust == Fraction(5, 18)
    one = (Fraction(1, 2) * Fraction(2, 3) * Fraction(5, 6) + Fraction(1, 2) * Fraction(1, 3) * Fraction(5, 6)
           + Fraction(1, 2) * Fraction(2, 3) * Fraction(1, 6))
    assert total.standing(1, 3).same == one == Fraction(17, 36)


def test_verdicts_say_which_way_is_lucky():
    low = Standing(10, 1, Fraction(3), Fraction(1, 20), Fraction(1, 10))  # few: 85% of tables had more
    assert verdict(low, "low") == "luckier than 85% of tables would be"  # few busts
    assert verdict(low, "high") == "unluckier than 85% of tables would be"  # few hits
    assert verdict(low) == "lower than 85% of tables would roll"
    middle = Standing(10, 3, Fraction(3), Fraction(2, 5), Fraction(1, 5))
    assert verdict(middle, "low") == "right where most tables would be"


def test_a_die_entered_by_name_is_measured_as_recorded():
    """A Save the Singularity d6 entered as Bug / Idea / Progress records 1, 2 or 4."""
    die = luck_module.TracedDie(1, 6, 2, True, sts.D6, "Ada", "a throw")
    assert die.dist == Dist(1, (1, 2, 0, 3, 0, 0)) and die.dist.mean == Fraction(17, 6)
    assert die.by_name
    app = luck_module.TracedDie(1, 6, 5, False, sts.D6, "Ada", "a throw")
    assert app.dist == Dist.uniform(6) and not app.by_name  # the app rolls a real number


# --- Every die traced to its chance node -------------------------------------------------------------


def played_sts(store, *, physical_from: int = 0, actions: int = 40, seed: int = 11):
    """A Save the Singularity campaign of Ada and Bea, played by always taking the first main move;
    from action `physical_from` (if any) the table rolls physical dice and enters every Progress."""
    game = get_game("save_the_singularity")
    cid = store.create("save_the_singularity", "Luck night", {"players": [{"name": "Ada", "role": "rationalist"},
                                                                          {"name": "Bea", "role": "programmer"}]},
                       seed=seed)
    for n in range(actions):
        loaded = store.load(cid)
        if game.outcome(loaded.game_state):
            break
        if physical_from and n == physical_from:
            store.apply(cid, SetPhysicalDice(on=True), expected_cursor=loaded.cursor)
            continue
        pending = loaded.state.pending
        if pending is not None:
            store.apply(cid, GiveDice(faces=[pending.chance.die.sides if pending.chance.die.sides == 12 else 4]
                                      * pending.chance.count), expected_cursor=loaded.cursor)
            continue
        main = [m for m in game.legal_moves(loaded.game_state) if m.ready and m.why_not is None
                and m.kind in ("roll", "press_on", "stop", "take_bust", "roll_d12")]
        move = next((m for m in main if m.kind == "stop"), main[0])
        store.apply(cid, move.action, expected_cursor=loaded.cursor)
    return cid


def traced(store, cid):
    campaign = store.get(cid)
    rows = [r for r in store.log_rows(cid) if 0 < r.seq <= campaign.cursor]
    return list(trace(get_game(campaign.game), store.state_at(cid, 0), rows)), rows


def test_every_die_is_traced_to_who_rolled_it_and_why():
    store = memory_store()
    cid = played_sts(store)
    steps, rows = traced(store, cid)
    dice = [x for st in steps for x in st.dice]
    assert len(dice) == sum(len(r.dice) for r in rows) > 20
    assert [(x.sides, x.value) for x in dice] == [(d[0], d[1]) for r in rows for d in r.dice]
    assert {x.who for x in dice} == {"Ada", "Bea"}  # the researcher rolls the d6 and the world's d12
    assert {x.die.label for x in dice} == {"d6", "d12"}
    assert all(st.replayed for st in steps)  # the whole log replays
    assert all(st.before is None for st in steps)  # (no reader needs its states)
    assert any("first throw" in x.why for x in dice)


def test_the_report_for_save_the_singularity():
    store = memory_store()
    cid = played_sts(store)
    steps, _ = traced(store, cid)
    settings = store.get(cid).settings
    found = report("save_the_singularity", settings, steps)
    table = found.parts[0]
    assert table.who == "The table" and [p.who for p in found.parts[1:]] == ["Ada", "Bea"]
    d6 = next(line for line in table.dice if line.label == "d6 (app)")
    faces = [x.value for st in steps for x in st.dice if x.sides == 6]
    assert d6.standing == uniform_sum_standing(len(faces), 6, sum(faces))
    assert d6.sentence.startswith(f"{sum(faces) / len(faces):.1f} on average against 3.5 expected, over {len(faces)} dice")

    throws = [e for st in steps for e in st.events if e.kind == "throw"]
    expected = sum(bust_chance(len(e.data["thrown"]) - e.data["ignoring"]) for e in throws)
    busts = next(line for line in table.meanings if line.label.startswith("Throws that busted"))
    assert busts.standing.expected == expected  # each throw's exact chance, added up
    assert busts.standing.observed == sum(e.data["busts"] for e in throws)
    for e in throws:  # the chance the luck uses is the one the rules declared
        assert float(bust_chance(len(e.data["thrown"]) - e.data["ignoring"])) == pytest.approx(e.data["bust_chance"])
    bads = next(line for line in table.meanings if line.label == "Bad on the world's d12")
    rolls = [e for st in steps for e in st.events if e.kind == "world_roll"]
    assert bads.standing.expected == Fraction(len(rolls), 2)  # 6 of the 12 faces show Bad
    assert len(found.chart) == found.dice and found.physical == 0
    assert found.chart[-1][0] == pytest.approx(sum(x.value - (x.sides + 1) / 2 for st in steps for x in st.dice))


def test_physical_dice_are_shown_apart_and_measured_by_name():
    store = memory_store()
    cid = played_sts(store, physical_from=6, actions=30)
    steps, _ = traced(store, cid)
    found = report("save_the_singularity", store.get(cid).settings, steps)
    labels = [line.label for line in found.parts[0].dice]
    assert "d6 (app)" in labels and "d6 (physical, by name)" in labels
    by_name = [x for st in steps for x in st.dice if x.physical and x.sides == 6]
    assert by_name and all(x.value == 4 and x.who for x in by_name)  # every Progress, entered for its player
    line = next(line for line in found.parts[0].dice if line.label == "d6 (physical, by name)")
    assert f"against {float(Fraction(17, 6)):.1f} expected" in line.sentence
    assert found.physical == len([x for st in steps for x in st.dice if x.physical])
    assert any("entered by name" in note for note in found.notes)


def test_a_session_is_measured_alone():
    store = memory_store()
    cid = played_sts(store)
    steps, _ = traced(store, cid)
    settings = store.get(cid).settings
    whole = report("save_the_singularity", settings, steps)
    part = report("save_the_singularity", settings, steps, (1, 5))
    assert part.dice == sum(len(st.dice) for st in steps if st.seq <= 5) < whole.dice


def test_too_few_dice_say_so():
    line = luck_module.dice_line([luck_module.TracedDie(1, 6, 6, False, sts.D6, "", "") for _ in range(3)])
    assert line.standing is None
    assert line.sentence == ("6.0 on average against 3.5 expected, over 3 dice: too few to tell luck from chance "
                             "(a verdict comes at 10).")


def test_an_action_the_rules_cant_replay_counts_its_dice_as_plain():
    store = memory_store()
    cid = played_sts(store, actions=6)
    campaign = store.get(cid)
    rows = [r for r in store.log_rows(cid) if 0 < r.seq <= campaign.cursor]
    rows[1].action = {"kind": "mathematician", "by": 0}  # as if the rules had changed: Ada is no Mathematician
    steps = list(trace(get_game("save_the_singularity"), store.state_at(cid, 0), rows))
    assert steps[0].replayed and not steps[1].replayed and not steps[-1].replayed
    assert all(x.who == "" and x.die.faces is None for st in steps[1:] for x in st.dice)
    found = report("save_the_singularity", campaign.settings, steps)
    assert any("can't be replayed" in note for note in found.notes)


# --- Each game's own numbers ---------------------------------------------------------------------------


def step_with(*events, seq=1, action=None):
    return Step(seq, None, action or {}, [Event(kind=k, text="", data=d) for k, d in events], [])


def test_klaw_hits_dealt_against_the_exact_exchange_odds():
    store = memory_store()
    cid = store.create("klaw", "Fight night", {"players": ["Ana", "Ben"]}, seed=5)
    for action in (Deploy(card=HostCard(name="Kai", attack=2, defense=2, life=8)), EndTurn(),
                   Deploy(card=HostCard(name="Rex", attack=3, defense=1, life=10)), EndTurn(), EndTurn(), EndTurn(),
                   Attack(attacker=1, defender=2), Roll(), Roll()):
        store.apply(cid, action, expected_cursor=store.get(cid).cursor)
    steps, _ = traced(store, cid)
    assert [st.before is not None for st in steps] == [st.action["kind"] == "roll" for st in steps]  # kept for those
    [hits, _checks], note = luck_module.meanings("klaw", store.get(cid).settings, steps)
    first, second = klaw_odds.exchange_odds(2, 1), klaw_odds.exchange_odds(3, 2)  # Kai strikes, then Rex back
    assert [t.dist.mean for t in hits.trials] == [sum(p * a for (a, b), p in first.items()),  # Kai's hits on Rex
                                                  sum(p * b for (a, b), p in first.items()),  # Rex's back
                                                  sum(p * a for (a, b), p in second.items()),
                                                  sum(p * b for (a, b), p in second.items())]
    assert [t.who for t in hits.trials] == ["Ana", "Ben", "Ben", "Ana"]
    exchanges = [e.data for st in steps for e in st.events if e.kind == "exchange"]
    assert [t.value for t in hits.trials] == [x[k] for x in exchanges for k in ("damage_to_target", "damage_to_striker")]
    assert "Hits count both ways" in note
    found = report("klaw", store.get(cid).settings, steps)
    line = next(line for line in found.parts[0].meanings if line.label == "Hits dealt in combat")
    assert "over 4 exchange sides: too few" in line.sentence  # 4 < 5: no verdict yet
    assert [p.who for p in found.parts] == ["The table", "Ana", "Ben"]


def test_klaw_singularity_checks():
    steps = [step_with(("deployed", {"host": 1, "player": 0}), ("singularity_check",
                       {"host": 1, "totems": 3, "bonus": 1, "face": 2, "passed": True}))]
    found, _ = luck_module.meanings("klaw", {"players": ["Ana", "Ben"]}, steps)
    checks = next(m for m in found if m.label == "Singularity checks passed")
    assert checks.trials[0].who == "Ana" and checks.trials[0].dist == Dist.bernoulli(Fraction(5, 6))  # 2+ on a d6


def test_biosphere_rescue_rolls():
    """One black face of six, three hand dice: a save 1 − (5/6)³ = 91/216."""
    steps = [step_with(("rescue_check", {"rolled": True, "faces": [4, 5, 1], "saved": True})),
             step_with(("rescue_check", {"rolled": False}), seq=2)]
    found, note = luck_module.meanings("biosphere5", {"hand_die_black_faces": 1}, steps)
    [saves] = found
    assert [t.dist for t in saves.trials] == [Dist.bernoulli(Fraction(91, 216))] and saves.good == "low"
    assert "bad luck for you" in note


def test_shadowrun_payment_and_survival_rolls():
    steps = [step_with(("payment_roll", {"debt": 22, "due_on": 4, "face": 3, "due": True}),
                       ("payment_roll", {"debt": 45, "due_on": 6, "face": None, "due": True}),  # always due: no roll
                       ("survival", {"reputation": -2, "face": 5, "lost": False}))]
    due, lost = luck_module.meanings("shadowrun", {}, steps)[0]
    assert [t.dist for t in due.trials] == [Dist.bernoulli(Fraction(4, 6))]
    assert [(t.value, t.dist) for t in lost.trials] == [(0, Dist.bernoulli(Fraction(2, 6)))]


def test_human_ethos_says_it_has_no_dice():
    found, note = luck_module.meanings("human_ethos", {}, [])
    assert found == [] and "no dice" in note
    empty = report("human_ethos", {}, [])
    assert empty.empty and empty.parts[0].dice == []


@pytest.mark.parametrize("physical", [True, False])
def test_the_hand_die_counts_black_hands_against_the_number_expected(physical):
    """Issue #30 item 13: Biosphere 5's hand die read as "1.8 on average against 1.8 expected" (an
    average of face numbers). It counts black hands: 3 of 12 dice with one black face of six, 2 expected."""
    from companion.games.biosphere5.rules import hand_die

    die = hand_die(1, count=2)
    values = [1, 2, 2, 1, 2, 2, 2, 2, 1, 2, 2, 2] if physical else [1, 4, 6, 1, 3, 2, 5, 2, 1, 6, 3, 4]
    line = luck_module.dice_line([luck_module.TracedDie(1, 6, v, physical, die, "The Machine", "") for v in values])
    assert line.label == ("hand dice (physical)" if physical else "hand dice (app)")
    assert line.standing.observed == 3 and line.standing.expected == 2
    assert line.sentence.startswith("black hand: 3 against 2.0 expected, over 12 dice — ")
    two_black = hand_die(2)
    few = luck_module.dice_line([luck_module.TracedDie(1, 6, 3, physical, two_black, "", "") for _ in range(4)])
    assert few.sentence.startswith("black hand: 0 against 1.3 expected, over 4 dice: too few")


def test_german_counts_are_declined():
    """Issue #30 item 12: "bei 32 Würfe" (a dative wants "Würfen") and "mit 10 Würfel" in German."""
    from companion.i18n import _, ngettext, speaking

    with speaking("de"):
        rolls = ngettext("{n} throw", "{n} throws", 32)
        assert _("{observed} against {expected} expected, over {rolls}", observed=3, expected="2,0", rolls=rolls) \
            == "3 gegenüber 2,0 erwartet, über 32 Würfe hinweg"
        dice = ngettext("{n} die", "{n} dice", 10)
        said = _("The boldest push: {player} pressed on with {dice} at a {chance} chance of busting, and it paid off "
                 "({at_risk} at risk).", player="Ada", dice=dice, chance="40 %", at_risk=7)
        assert "warf weiter 10 Würfel bei 40 % Absturzchance" in said
