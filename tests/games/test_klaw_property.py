"""KLAW: random legal play keeps the invariants, and replaying the log gives the same states; random
games at a physical-dice table, drawn from the game's own moves, never get a die the table didn't
enter (tests/contract.py)."""

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.dice import SeededDice
from companion.games.base import Event, InputError, Move, RuleError
from companion.games.klaw import rules as k
from tests.contract import physical_playout, store_playout
from tests.helpers import memory_store

TOTEM_NAMES = ["Tiger", "Ox", "Rat", "Crane", "Boar", "Snake", "Monkey"]
SEED = 4242


def host_card(data):
    return k.HostCard(
        name=data.draw(st.sampled_from(["Kai", "Rex", "Max", "Ivy", "Zed"])),
        attack=data.draw(st.integers(1, 3)), defense=data.draw(st.integers(1, 3)), life=data.draw(st.integers(6, 12)),
        check_bonus=data.draw(st.integers(-1, 1)), free_totems=data.draw(st.sampled_from([0, 0, 0, 2])),
    )


def random_action(s: k.State, data):
    kinds = k.legal_actions(s)
    # Favour the moves that drive the game forward, so combats and falls happen often.
    weights = {"attack": 6, "roll": 8, "place_dice": 4, "deploy": 3, "attach_totem": 3, "end_turn": 3}
    pool = [kind for kind in kinds for _ in range(weights.get(kind, 1))]
    kind = data.draw(st.sampled_from(pool))
    me = k.current_player(s)
    mine = k.hosts_of(s, me)
    ids = [h.id for h in s.hosts]
    if kind == "deploy":
        return k.Deploy(card=host_card(data), support=data.draw(st.sampled_from([False, False, False, True])))
    if kind == "attach_totem":
        h = data.draw(st.sampled_from([h for h in mine if not h.support]))
        totem = k.Totem(
            name=data.draw(st.sampled_from(TOTEM_NAMES)), attack=data.draw(st.integers(-3, 3)),
            defense=data.draw(st.integers(-3, 3)), life=data.draw(st.integers(-6, 6)),
            dormant=data.draw(st.sampled_from([False, False, True])),
        )
        return k.AttachTotem(host=h.id, totem=totem, from_hand=data.draw(st.booleans()))
    if kind == "remove_totem":
        h = data.draw(st.sampled_from([h for h in mine if h.totems]))
        return k.RemoveTotem(host=h.id, totem=data.draw(st.integers(0, len(h.totems) - 1)))
    if kind == "add_item":
        h = data.draw(st.sampled_from(mine))
        item = k.Item(
            name="Thing", attack_plus=data.draw(st.integers(0, 3)), attack_dice=data.draw(st.integers(0, 2)),
            defense_plus=data.draw(st.integers(0, 3)), defense_dice=data.draw(st.integers(0, 2)),
            life=data.draw(st.integers(0, 12)), check_bonus=data.draw(st.integers(-1, 1)),
            vessel=data.draw(st.sampled_from([False, False, True])),
        )
        replace = data.draw(st.integers(0, len(h.items) - 1)) if len(h.items) == 2 else None
        return k.AddItem(host=h.id, item=item, replace=replace)
    if kind == "instant":
        target = data.draw(st.sampled_from(s.hosts))
        return k.Instant(
            target=target.id, damage=data.draw(st.integers(0, 6)), heal=data.draw(st.integers(0, 4)),
            condition=data.draw(st.sampled_from([None, "poisoned", "burning", "sleep", "shackled", "protected"])),
            cure=data.draw(st.sampled_from([None, None, "poisoned", "burning", "sleep", "shackled"])),
        )
    if kind == "attack":
        pairs = [(a.id, d) for a in mine for d in k.attack_targets(s, a.id)]
        attacker, defender = data.draw(st.sampled_from(pairs))
        return k.Attack(attacker=attacker, defender=defender)
    if kind == "roll":
        return k.Roll()
    if kind == "place_dice":
        return k.PlaceDice()
    if kind == "support":
        striker = k.find_host(s, s.combat.striker)
        use_item = data.draw(st.integers(0, len(striker.items) - 1)) if striker.items and data.draw(st.booleans()) else None
        return k.Support(heal=data.draw(st.integers(1, 5)), flee=data.draw(st.booleans()), use_item=use_item)
    if kind == "end_turn":
        return k.EndTurn(draw=data.draw(st.booleans()))
    if kind == "adjust_life":
        h = data.draw(st.sampled_from(s.hosts))
        return k.AdjustLife(host=h.id, delta=data.draw(st.integers(-6, max(-6, k.LIFE_CAP - h.life)).filter(lambda d: d != 0)))
    if kind == "edit_host":
        return k.EditHost(host=data.draw(st.sampled_from(ids)), attack=data.draw(st.integers(1, 3)))
    if kind == "set_hand":
        hand = data.draw(st.integers(0, 8))
        return k.SetHand(player=data.draw(st.integers(0, len(s.players) - 1)), hand=hand,
                         totems_in_hand=data.draw(st.integers(0, hand)))
    raise AssertionError(kind)


def check_invariants(s: k.State) -> None:
    for h in s.hosts:
        assert 1 <= h.life <= k.LIFE_CAP, h  # hosts at 0 or less have left the table
        assert 0 <= k.attack_dice(h) <= 6 and 0 <= k.defense_dice(h) <= 6
        assert 0 <= k.strike_dice(s, h) <= 6
        assert len(h.items) <= k.MAX_ITEMS
        assert len(k.binomial_keys(h)) == len(h.totems), "a host carries both halves of a binomial"
        assert not (h.support and h.totems)
    for p in s.players:
        assert 0 <= p.hand <= k.HAND_LIMIT and 0 <= p.totems_in_hand <= p.hand
    if s.combat is not None:
        ids = {h.id for h in s.hosts}
        assert s.combat.attacker in ids and s.combat.defender in ids
        assert s.combat.striker in (s.combat.attacker, s.combat.defender)
    assert len({h.id for h in s.hosts}) == len(s.hosts)
    assert k.State.model_validate_json(s.model_dump_json()) == s


@settings(max_examples=30)
@given(st.data(), st.integers(2, 3), st.sampled_from(["owner_turn", "every_turn"]))
def test_random_legal_play_keeps_the_invariants_and_replays(data, players, tick):
    s = k.new_state(k.Settings(players=["Ana", "Ben", "Cid"][:players], condition_tick=tick, totem_goal=data.draw(st.sampled_from([None, 6]))))
    log = []  # (action, state after) for the actions that were applied
    states = [s]
    for n in range(70):
        if k.outcome(s) is not None:
            break
        action = random_action(s, data)
        before = s.model_dump_json()
        try:
            s2, events = k.apply(s, action, SeededDice(SEED, n))
        except (RuleError, InputError):
            assert s.model_dump_json() == before  # refused: nothing changed
            continue
        assert s.model_dump_json() == before  # apply never mutates its input
        assert all(isinstance(e, Event) and e.kind != "text" and e.text for e in events)
        check_invariants(s2)
        log.append((n, action))
        s = s2
        states.append(s)
    # Replay: the same actions with the same dice give the same states.
    r = k.new_state(states[0].settings)
    for (n, action), expected in zip(log, states[1:]):
        parsed = k.GAME.parse_action(k.GAME.dump_action(action))
        r, _ = k.apply(r, parsed, SeededDice(SEED, n))
        assert r == expected


# --- Physical-dice playouts, drawn from `moves` ----------------------------------------------------

# How often a chooser takes each kind of move: the moves that drive a game forward come first, so
# fights, falls, singularity checks and wins happen within a few dozen actions.
WEIGHTS = {"attack": 8, "roll": 12, "place_dice": 4, "deploy": 4, "attach_totem": 4, "end_turn": 3, "support": 1,
           "add_item": 2, "remove_totem": 1, "instant": 1, "adjust_life": 1, "edit_host": 0.3, "set_hand": 0.3}


def fill(move: Move, state: k.State, rng: random.Random):
    """An action for a template move: every number from its FieldSpec's range or choices; names,
    switches and the nested card (host card, totem, item) are KLAW's own."""
    spec = {f.name: f for f in move.fields}

    def num(name, top=None):
        f = spec[name]
        return rng.randint(f.low, f.high if top is None else min(f.high, max(f.low, top)))

    def pick(name, none=True):
        options = list(spec[name].choices) + ([None] if none else [])
        return rng.choice(options) if options else None

    if move.kind == "deploy":
        card = {n: num(n) for n in ("attack", "defense", "life", "check_bonus")}
        card["free_totems"] = rng.choice([0, 0, 0, num("free_totems")])
        return k.build(k.Deploy, card={"name": rng.choice(TOTEM_NAMES + ["Kai", "Rex"]), **card},
                       support=rng.random() < 0.15)
    if move.kind == "attach_totem":
        totem = {n: num(n) for n in ("attack", "defense", "life")}
        return k.build(k.AttachTotem, host=pick("host", none=False), from_hand=rng.random() < 0.8,
                       totem={"name": rng.choice(TOTEM_NAMES), "dormant": rng.random() < 0.1, **totem})
    if move.kind == "add_item":
        item = {n: num(n) for n in ("attack_plus", "attack_dice", "defense_plus", "defense_dice", "check_bonus")}
        return k.build(k.AddItem, host=pick("host", none=False), replace=pick("replace", none=False),
                       item={"name": "Thing", "life": num("life", 4), "vessel": rng.random() < 0.1, **item})
    if move.kind == "instant":
        totem = pick("totem")
        return k.build(k.Instant, target=pick("target", none=False), damage=num("damage", 6), heal=num("heal", 3),
                       condition=pick("condition"), cure=pick("cure"), remove_item=pick("remove_item"),
                       totem=totem, totem_dormant=None if totem is None else rng.random() < 0.7)
    if move.kind == "support":
        return k.build(k.Support, heal=num("heal", 5), use_item=pick("use_item"), flee=rng.random() < 0.3)
    if move.kind == "edit_host":
        field = rng.choice(["attack", "defense", "base_life", "check_bonus", "free_totems"])
        return k.build(k.EditHost, host=pick("host", none=False), **{field: num(field)})
    if move.kind == "set_hand":
        hand = num("hand")
        return k.build(k.SetHand, player=pick("player", none=False), hand=hand, totems_in_hand=rng.randint(0, hand))
    return None  # placing item bonuses by hand: the ready move takes the suggestion


def choose(state: k.State, moves: list[Move], rng: random.Random):
    usable = [m for m in moves if m.why_not is None]
    while usable:
        m = rng.choices(usable, weights=[WEIGHTS.get(m.kind, 1) for m in usable])[0]
        action = m.action if m.ready else fill(m, state, rng)
        if action is not None:
            return action
        usable.remove(m)
    return None


def test_moves_agree_with_the_rules_in_every_situation_of_random_games():
    """Every move listed greyed out is refused by the rules (and for the same reason when it is a
    ready action); every move listed as possible is accepted."""
    rng = random.Random(11)
    for game in range(6):
        s = k.new_state(k.Settings(players=["Ana", "Ben", "Cid"][: 2 + game % 2]))
        for n in range(80):
            if k.outcome(s) is not None:
                break
            moves = k.GAME.legal_moves(s)
            for m in moves:
                if m.ready:
                    assert k.GAME.why_not(s, m.action) == m.why_not, m.label
                elif m.why_not is None:
                    assert m.kind in k.legal_actions(s), m.label
            s, _ = k.apply(s, choose(s, moves, rng), SeededDice(game, n))


def test_random_physical_dice_games_from_the_moves():
    """200 games at a table rolling physical dice: no die invented, every listed move accepted, the
    log replays (tests/contract.py). Enough of them pause for dice mid-action (the defense dice,
    a singularity check after a fight) and reach a win."""
    outcomes = pauses = 0
    for seed in range(200):
        players = ["Ana", "Ben", "Cid"][: 2 + seed % 2]
        out = physical_playout(k.GAME, {"players": players, "totem_goal": [None, 5][seed % 2]}, seed=seed,
                               choose=choose, steps=80)
        outcomes += out.outcome is not None
        pauses += out.pauses
    assert outcomes >= 50 and pauses >= 1000


def test_store_playouts_keep_the_entered_dice_through_undo_and_redo():
    for seed in range(3):
        store_playout(memory_store(), k.GAME, {"players": ["Ana", "Ben"]}, seed=seed, choose=choose, steps=80)
