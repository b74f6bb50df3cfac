"""How fast the automated decisions answer (part of `make bench`): each figure is the time a tap
waits for the rules. Cold = first call (caches empty), warm = the same decision again."""

from __future__ import annotations

import statistics
import time
from typing import Callable


def timed(fn: Callable[[], object], runs: int = 20) -> float:
    samples = []
    for _ in range(runs):
        t = time.perf_counter()
        fn()
        samples.append((time.perf_counter() - t) * 1000)
    return statistics.median(samples)


def save_the_singularity() -> list[str]:
    from companion.dice import ScriptedDice
    from companion.games.save_the_singularity import odds, rules

    lines = []
    for players in (2, 5):
        names = [f"P{i}" for i in range(players)]
        roles = list(rules.ROLE_NAMES)[:players]
        state = rules.new_state(rules.Settings(players=[{"name": n, "role": r} for n, r in zip(names, roles)]))
        # 3 Ideas → 6 dice, 6 Ideas → 12 dice, then 12 Progress: the decision before a 12-dice throw.
        state, _ = rules.apply(state, rules.Roll(), ScriptedDice([2, 2, 2]))
        state, _ = rules.apply(state, rules.PressOn(), ScriptedDice([2] * 6))
        state, _ = rules.apply(state, rules.PressOn(), ScriptedDice([4] * 12))

        def cold():
            for fn in (odds.future_table, odds._turn_profile, odds.world_phase_outcomes):
                fn.cache_clear()
            odds._TURNS.clear()
            odds.odds(state)

        result = odds.odds(state)
        lines.append(f"Save the Singularity odds, {players} players, {result.pool}-dice pool: "
                     f"cold {timed(cold, 5):.1f} ms · warm {timed(lambda: odds.odds(state)):.2f} ms   (target < 50 ms)")
    return lines


def klaw() -> list[str]:
    from companion.games.klaw import odds

    def cold():
        odds.exchange_odds.cache_clear() if hasattr(odds.exchange_odds, "cache_clear") else None
        for name in dir(odds):
            fn = getattr(odds, name)
            if hasattr(fn, "cache_clear"):
                fn.cache_clear()
        odds.fight_odds(odds.Fighter(life=24, attack=6, defense=6), odds.Fighter(life=24, attack=6, defense=6))

    warm = lambda: odds.fight_odds(odds.Fighter(life=24, attack=6, defense=6), odds.Fighter(life=24, attack=6, defense=6))  # noqa: E731
    return [f"KLAW fight odds, 6 vs 6 dice, life 24 each: cold {timed(cold, 5):.1f} ms · warm {timed(warm):.2f} ms"
            "   (target < 100 ms)"]


def biosphere5() -> list[str]:
    from companion.games.biosphere5 import rules
    from tests.games.test_biosphere5_cards import TEST_DECK

    state = rules.new_state(rules.Settings(difficulty=8))  # level 8: the most cards revealed (5)
    revealed = TEST_DECK[: rules.reveal_count(state)]
    return [f"Biosphere 5 Machine decision, {len(revealed)} revealed cards at level 8: "
            f"{timed(lambda: rules.machine_decide(state, revealed), 50):.2f} ms"]


def human_ethos() -> list[str]:
    """The issue's bench: a 150-hex map (15 × 10), 20 enemy groups, 4 team members, smart ties."""
    from companion.dice import SeededDice
    from companion.games.human_ethos import rules
    from companion.games.human_ethos.hexmap import Hex, rectangle, set_space

    board = rectangle("Bench", 15, 10)
    spaces = [Hex(q=s.q, r=s.r) for s in board.spaces]
    board = set_space(board, spaces[0], special="start")
    board = set_space(board, spaces[-1], special="end")
    state = rules.new_state(rules.Settings(tie_break="smart"))
    state, _ = rules.apply(state, rules.StartIssue(number=1, title="Bench", map=board, track=60,
                                                   members=["Max", "Ada", "Kim", "Lu"]), SeededDice(1, 1))
    kinds = [t.name for t in state.enemy_types][:5] if getattr(state, "enemy_types", None) else ["Nanobots"]
    groups = [rules.EnemyGroup(enemy=kinds[i % len(kinds)], at=spaces[40 + i * 5], count=1 + i % 3) for i in range(20)]
    state = state.model_copy(update={"issue": state.issue.model_copy(update={"groups": groups})})
    return [f"Human Ethos enemy phase, 150-hex map, 20 groups, 4 members: "
            f"{timed(lambda: rules.apply(state, rules.EnemyPhase(), SeededDice(1, 2)), 10):.1f} ms   (target < 20 ms)"]


def main() -> list[str]:
    lines = []
    for bench in (save_the_singularity, klaw, biosphere5, human_ethos):
        try:
            lines += bench()
        except Exception as exc:  # a bench that can't set up says so instead of hiding the others
            lines.append(f"{bench.__name__}: could not run ({type(exc).__name__}: {exc})")
    return lines


if __name__ == "__main__":
    print("\n".join(main()))
