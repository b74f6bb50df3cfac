"""A panel drawn with kept sections (CampaignScreen.kept) reads exactly as one drawn afresh.

A kept section is reused while its inputs are unchanged, so inputs that miss something the section
shows would leave a phone showing the past. Here each game is played at random (seeded), and after
every action the panel one screen has been redrawing all along is compared with a panel drawn from
nothing: every word, value, colour and greyed-out button must be the same."""

from __future__ import annotations

import random

import pytest

from test_biosphere5_property import choose as _biosphere5_choose
from test_biosphere5_property import fill as _biosphere5_fill
from test_human_ethos_playout import choose as _human_ethos_choose
from test_human_ethos_playout import fill as _human_ethos_fill
from test_shadowrun_property import choose as _shadowrun_choose
from test_shadowrun_property import fill as _shadowrun_fill

from companion.games import get_game
from tests.helpers import memory_store
from tests.views import StoreFrame, signature

KLAW_CARD = {"name": "Wolfmother", "attack": 3, "defense": 2, "life": 6}


def _klaw_template(state, move, rng):
    """A KLAW form filled in as a player would: a host, a totem, an item, an instant or a fix."""
    field = {f.name: f for f in move.fields}
    one = lambda name: rng.choice(field[name].choices)  # noqa: E731
    if move.kind == "deploy":
        return {"kind": "deploy", "card": dict(KLAW_CARD, name=f"Host {state.next_host_id}")}
    if move.kind == "attach_totem":
        return {"kind": "attach_totem", "host": one("host"), "totem": {"name": "Bear", "attack": 1, "life": 1}}
    if move.kind == "add_item":
        return {"kind": "add_item", "host": one("host"), "item": {"name": "Blade", "attack_plus": 1, "attack_dice": 1}}
    if move.kind == "instant":
        return {"kind": "instant", "target": one("target"), "damage": rng.choice([0, 1]),
                "condition": rng.choice([None, *field["condition"].choices])}
    return None


def _same_team(state, action):
    """Human Ethos: a next issue played by the same team. The setup's team field holds what the
    table typed (the screen's own input, as the first issue's team fills it in), which an action
    dispatched around the form leaves alone: a fresh screen would fill in the new team instead."""
    if action is not None and action.kind == "start_issue" and state.issue is not None:
        return action.model_copy(update={"members": [m.name for m in state.issue.members]})
    return action


def _shadowrun_runs(state, moves, rng):
    """Shadowrun at a table out for runs: it deploys two runners, sends none on errands and runs
    whenever it may (the run's form, its challenges and the damage allocator get drawn)."""
    aside = {"run_errand", "discard_objective", "remove_card", "sell_cards", "set_turned"}
    if state.phase == "shadowrun" and not state.run_taken or state.run is not None:
        aside |= {"advance", "adjust", "pick_random", "roll_luck", "spend"}
    if state.phase == "legwork" and sum(c.card_type == "runner" for c in state.cards) < 2:
        aside.add("advance")
    return _shadowrun_choose(state, [m for m in moves if m.kind not in aside] or moves, rng)


# game (":" and a name for a second set of settings): (settings, fill a template move or None[, choose]);
# `choose(state, moves, rng)`, if given, picks the action as a table would (the Machine's turns more often
# than a catastrophe that ends the game), else one of the moves at random.
GAMES = {
    "klaw": ({"players": ["Ana", "Bo"]}, _klaw_template),
    "save_the_singularity": ({"players": [{"name": "Ada", "role": "rationalist"}, {"name": "Bea", "role": "programmer"},
                                          {"name": "Cy", "role": "media_liaison"}]}, lambda state, move, rng: None),
    "biosphere5": ({"opponent": "machine", "abyss": True, "difficulty": 2}, _biosphere5_fill, _biosphere5_choose),
    "biosphere5:people": ({"opponent": "people", "abyss": True, "players": 3}, _biosphere5_fill, _biosphere5_choose),
    "human_ethos": ({"tie_break": "players_choose"}, _human_ethos_fill, lambda state, moves, rng: _same_team(
        state, _human_ethos_choose(state, moves, rng))),
    "shadowrun": ({"loan": 12, "target_reputation": 10, "luck_of_the_draw": True}, _shadowrun_fill, _shadowrun_choose),
    "shadowrun:runs": ({"loan": 12, "target_reputation": 10}, _shadowrun_fill, _shadowrun_runs),
}


def _play(game_key: str, seed: int, store, steps: int = 45):
    settings, fill, *choose = GAMES[game_key]
    game_key = game_key.partition(":")[0]
    game = get_game(game_key)
    view = __import__(f"companion.games.{game_key}.view", fromlist=["panel"])
    cid = store.create(game_key, f"kept {seed}", settings, seed=seed)

    class Frame(StoreFrame):
        pass
    Frame.view = view
    kept = Frame(store, cid)
    rng = random.Random(seed)
    for _ in range(steps):
        kept.panel()  # the screen redraws after every action, keeping what it may
        state = kept.loaded.game_state
        if choose:
            action = choose[0](state, game.legal_moves(state), rng)
            if action is None:
                break
        else:
            moves = [m for m in game.legal_moves(state) if m.why_not is None]
            choices = [m.action for m in moves if m.ready] + [a for a in (fill(state, m, rng) for m in moves if not m.ready) if a]
            if not choices:
                break
            action = rng.choice(choices)
        try:
            kept.dispatch(action)
        except Exception as exc:  # a refused action changes nothing: the panel must still read the same
            if type(exc).__name__ not in ("RuleError", "InputError"):
                raise
        fresh = Frame(store, cid)
        fresh.memo = False
        yield signature(kept.panel()), signature(fresh.panel()), action


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("game_key", sorted(GAMES))
def test_kept_sections_read_as_drawn_afresh(game_key, seed):
    store = memory_store()
    played = 0
    for drawn, afresh, action in _play(game_key, seed, store):
        assert drawn == afresh, f"after {action!r} a kept section shows the past"
        played += 1
    assert played >= 5  # the game went on long enough to say something


@pytest.mark.parametrize("game_key", sorted(GAMES))
def test_a_redraw_reads_nothing_from_the_save(game_key, monkeypatch):
    """Every phone redraws for every change: a panel is drawn from the campaign it is handed and
    from what the app keeps (the catalog once read), never with a read of the save (#16)."""
    from sqlalchemy import event

    store = memory_store()
    drawing, read = [], []
    draw = StoreFrame.panel

    def panel(frame):
        drawing.append(frame)
        try:
            return draw(frame)
        finally:
            drawing.pop()
    monkeypatch.setattr(StoreFrame, "panel", panel)
    history = StoreFrame.history

    def history_as_the_app_has_it(frame, limit: int = 100):  # the app's is the live campaign's (no read)
        held = drawing[:]
        drawing.clear()
        try:
            return history(frame, limit)
        finally:
            drawing.extend(held)
    monkeypatch.setattr(StoreFrame, "history", history_as_the_app_has_it)
    event.listen(store.db.engine, "before_cursor_execute",
                 lambda conn, cursor, statement, *args: read.append(statement) if drawing else None)
    draws = 0
    for draws, _drawn in enumerate(_play(game_key, 0, store, steps=15), start=1):
        if draws == 1:
            read.clear()  # the very first draw may read the catalog (and seed it with the shipped one)
    assert draws >= 5 and read == []
