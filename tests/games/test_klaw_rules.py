"""KLAW: Were-Wars rules (RULES.md §3): hosts, totems, items, conditions, combat, singularity, wins."""

import pytest
from pydantic import ValidationError

from companion.dice import PhysicalDice, ScriptedDice, SeededDice
from companion.games.base import Event, InputError, RuleError
from companion.games.klaw import combat as cb
from companion.games.klaw import rules as k
from companion.log import step
from companion.table import CampaignState, GiveDice, SetPhysicalDice
from companion.games.klaw.rules import (
    GAME, AddItem, AdjustLife, AttachTotem, Attack, Deploy, EditHost, EndTurn, HostCard, Instant,
    Item, PlaceDice, RemoveTotem, Roll, SetHand, Settings, State, Support, Totem, apply,
)

KAI = HostCard(name="Kai", attack=2, defense=2, life=8)
REX = HostCard(name="Rex", attack=2, defense=2, life=10)
MAX = HostCard(name="Max", attack=1, defense=1, life=6)


def act(s, action, faces=()):
    """Apply with scripted dice; every scripted face must be used. Every event is typed."""
    dice = ScriptedDice(list(faces))
    s2, ev = apply(s, action, dice)
    assert not dice.faces, f"unused dice {dice.faces}"
    assert all(isinstance(e, Event) and e.kind in EVENT_KINDS for e in ev), [e.kind for e in ev]
    return s2, ev


def text(events):
    """The sentences for people (what a player reads in the history), in English."""
    return [str(e.text) for e in events]


def of_kind(events, kind):
    return [e.data for e in events if e.kind == kind]


# Every kind the rules emit (listed above `apply` in the rules module).
EVENT_KINDS = {
    "deployed", "deploy_again", "turn_ended", "turn", "marker_ended", "condition_tick", "condition_ended",
    "host_removed", "totem_attached", "singularity_check", "singularity_event", "totems_returned", "totem_removed",
    "cards_gained", "item_added", "life", "cured", "protected", "condition", "item_lost", "totem_dormant",
    "host_edited", "hand", "attack", "rolled", "place_bonuses", "exchange", "exchange_detail", "exchange_result",
    "strike_back", "item_used", "card_played", "support_host", "fled", "roles_swap", "both_fall", "fight_won",
    "totems_absorbed", "resting", "binomial_rest", "win",
}


def refused(s, action, error, match=None, faces=()):
    """The action is refused with `error` and the state is unchanged."""
    before = s.model_dump_json()
    with pytest.raises(error, match=match):
        apply(s, action, ScriptedDice(list(faces)))
    assert s.model_dump_json() == before


def started(*cards, **settings):
    """Every player deploys one host in round 1 and passes round 2: regular play, first player's turn.

    Host ids follow the cards: #1 for the first player's, #2 for the second's, …"""
    names = ["Ana", "Ben", "Cid", "Dee"][: len(cards)]
    s = k.new_state(Settings(players=names, **settings))
    for card in cards:
        s = act(s, Deploy(card=card))[0]
        s = act(s, EndTurn())[0]
    for _ in cards:
        s = act(s, EndTurn())[0]
    assert k.phase(s) == "play" and k.current_player(s) == 0
    return s


def put(s, host_id, **changes):
    """A copy of the state with one host's fields set (to stage a situation directly)."""
    s = s.model_copy(deep=True)
    h = k.find_host(s, host_id)
    for key, value in changes.items():
        setattr(h, key, value)
    return s


def end_turns(s, n):
    events = []
    for _ in range(n):
        s, ev = act(s, EndTurn())
        events += ev
    return s, events


def tiger(**kw):
    return Totem(**{"name": "Tiger", "attack": 2, "defense": 0, "life": 3, **kw})


# --- Contract, settings, round trip ---------------------------------------------------------------


def test_game_contract_and_defaults():
    assert GAME.key == "klaw" and GAME.title == "KLAW: Were-Wars"
    st = Settings()
    assert st.totem_goal is None
    assert st.condition_tick == "owner_turn"
    assert st.shackled_max_dice == 1
    assert len(st.players) == 2
    s = GAME.new_state(st)
    assert GAME.outcome(s) is None
    assert GAME.headline(s) == "Round 1 · Reveal · Player 1"
    assert [p.hand for p in s.players] == [8, 8]


@pytest.mark.parametrize("bad", [
    {"players": ["Solo"]},
    {"players": ["Ana", "ana"]},
    {"players": ["Ana", " "]},
    {"totem_goal": 0},
    {"shackled_max_dice": 7},
    {"condition_tick": "sometimes"},
])
def test_bad_settings_refused(bad):
    with pytest.raises(ValidationError):
        Settings(**bad)


def test_deck_guide_per_player_count():
    assert k.deck_guide(3) == "Deck for 3 players: 18 hosts, 18 totems, 90 action and item cards."


def test_state_and_actions_round_trip_through_json():
    s = started(KAI, REX)
    s = put(s, 1, totems=[tiger()], items=[Item(name="Grenade", attack_plus=3, attack_dice=2)],
            conditions=[k.Condition(kind="burning", ticks_left=2)])
    s, _ = act(s, Attack(attacker=1, defender=2))
    s, _ = act(s, Roll(), [1, 3, 5, 1, 1, 1])  # Kai: 2 + Tiger 2 = 4 dice; Rex: 2
    assert s.combat.pending is not None
    assert State.model_validate_json(s.model_dump_json()) == s
    for action in [Deploy(card=KAI, support=True), AttachTotem(host=1, totem=tiger()), RemoveTotem(host=1, totem=0),
                   AddItem(host=1, item=Item(name="Vessel", vessel=True), replace=1), Instant(target=2, condition="burning"),
                   Attack(attacker=1, defender=2), Roll(), PlaceDice(attack=[[1, 2]]), Support(heal=3, flee=True),
                   EndTurn(draw=False), AdjustLife(host=1, delta=-2), EditHost(host=1, attack=3), SetHand(player=0, hand=5)]:
        assert GAME.parse_action(GAME.dump_action(action)) == action
        assert GAME.describe(action)


def test_apply_never_mutates_its_input():
    s = started(KAI, REX)
    before = s.model_dump_json()
    act(s, Attack(attacker=1, defender=2))
    act(s, AttachTotem(host=1, totem=tiger()), [6])
    assert s.model_dump_json() == before


# --- Hosts ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("card,match", [
    ({"attack": 0}, r"Attack dice must be between 1 and 3 \(got 0\)"),
    ({"attack": 4}, "Attack dice must be between 1 and 3"),
    ({"defense": 0}, "Defense dice must be between 1 and 3"),
    ({"life": 5}, r"Life must be between 6 and 12 \(got 5\)"),
    ({"life": 13}, "Life must be between 6 and 12"),
    ({"check_bonus": 4}, r"Check bonus \(talent\) must be between -3 and 3"),
])
def test_host_numbers_outside_the_book_ranges_are_refused(card, match):
    # The ranges live on the card model: a form's values are refused with the range in words …
    values = {"name": "Kai", "attack": 2, "defense": 2, "life": 8, **card}
    with pytest.raises(InputError, match=match):
        k.build(HostCard, **values)
    with pytest.raises(InputError, match=match):
        k.build(Deploy, card=values)
    # … and a stored or sent action with such a card never reaches the rules.
    with pytest.raises(ValidationError):
        GAME.parse_action({"kind": "deploy", "card": values})


def test_a_host_needs_a_name():
    refused(k.new_state(Settings()), Deploy(card=HostCard(name=" ", attack=2, defense=2, life=8)), InputError,
            "1 to 40 characters")


def test_forms_read_the_ranges_from_the_models():
    specs = {f.name: f for f in k.field_specs(HostCard)}
    assert (specs["attack"].low, specs["attack"].high, specs["attack"].label) == (1, 3, "Attack dice")
    assert (specs["life"].low, specs["life"].high) == k.HOST_LIFE
    deploy = next(m for m in GAME.legal_moves(k.new_state(Settings())) if m.kind == "deploy")
    assert [f.name for f in deploy.fields] == ["name", "attack", "defense", "life", "check_bonus", "free_totems", "support"]


def test_deploy_plays_a_card_and_marks_protected():
    s = k.new_state(Settings(players=["Ana", "Ben"]))
    s, ev = act(s, Deploy(card=KAI))
    h = k.find_host(s, 1)
    assert (h.life, k.attack_dice(h), k.defense_dice(h)) == (8, 2, 2)
    assert s.players[0].hand == 7
    assert "Protected until the end of Ana's turn in round 2" in ev[0].text
    assert ev[0].kind == "deployed" and ev[0].data["host"] == 1 and ev[0].data["protected_until"] == 3
    s, ev = act(s, EndTurn())
    assert s.players[0].hand == 8 and "draws 1 card" in ev[0].text


def test_starting_rounds_reveal_then_fortify():
    s = k.new_state(Settings(players=["Ana", "Ben"]))
    s, _ = act(s, Deploy(card=KAI))
    refused(s, Deploy(card=REX), RuleError, "already played")
    s, _ = act(s, EndTurn())
    s, _ = act(s, Deploy(card=REX))
    s, _ = end_turns(s, 1)
    # Round 1 is reveal only; round 2 fortifies but doesn't fight.
    assert k.phase(s) == "fortify"
    assert "attack" not in k.legal_actions(s) and "attach_totem" in k.legal_actions(s)
    refused(s, Attack(attacker=1, defender=2), RuleError, "fortify round")
    assert "Round 2 is the fortify round" in k.attack_refusal(s, 1, 2)
    refused(s, Instant(target=2, damage=1), RuleError, "fortify round")


def test_one_card_per_turn_but_a_hostless_player_may_deploy():
    s = started(KAI, REX)
    s, _ = act(s, AddItem(host=1, item=Item(name="Knife")))
    refused(s, AttachTotem(host=1, totem=tiger()), RuleError, "already played a card this turn")
    assert k.legal_actions(s)[:1] == ["end_turn"]
    # Ana loses Kai to an instant action later; a host-less player may still deploy after playing.
    s, _ = end_turns(s, 1)
    s, _ = act(s, Instant(target=1, damage=8))
    assert k.hosts_of(s, 0) == []
    s, _ = end_turns(s, 1)
    s, _ = act(s, Instant(target=2, heal=0, cure="poisoned"))
    s, ev = act(s, Deploy(card=MAX))
    assert ev[-1].kind == "deploy_again" and "may deploy a host at once" in ev[-1].text


def test_protected_lasts_exactly_one_full_round():
    s = started(KAI, REX)  # turn 4: Ana
    s, _ = end_turns(s, 1)
    s, _ = act(s, Deploy(card=MAX))  # turn 5, Ben deploys Max (#3)
    s, _ = end_turns(s, 1)  # turn 6: Ana
    assert k.attack_refusal(s, 1, 3) == "Max is Protected until the end of Ben's turn in round 4: it can't be attacked."
    refused(s, Attack(attacker=1, defender=3), RuleError, "Protected")
    s, _ = end_turns(s, 1)  # turn 7: Ben's own turn, still marked
    assert k.is_protected(s, k.find_host(s, 3))
    s, ev = end_turns(s, 1)  # turn 8: Ana
    assert "Max (Ben) is no longer Protected." in text(ev)
    assert k.attack_refusal(s, 1, 3) is None
    assert 3 in k.attack_targets(s, 1)


def test_edit_host_and_adjust_life():
    s = started(KAI, REX)
    s, ev = act(s, EditHost(host=1, attack=3, name="Kai II"))
    assert k.attack_dice(k.find_host(s, 1)) == 3 and "Kai II" in ev[0].text
    assert ev[0].data["changes"] == {"name": "Kai II", "attack": 3}
    with pytest.raises(InputError, match="Defense dice must be between 1 and 3"):
        k.build(EditHost, host=1, defense=4)
    refused(s, EditHost(host=1), InputError, "Nothing to change")
    s, ev = act(s, AdjustLife(host=2, delta=-3))
    assert k.find_host(s, 2).life == 7
    assert ev[0].kind == "life" and ev[0].data == {"host": 2, "before": 10, "life": 7, "change": -3, "cause": "adjust"}
    refused(s, AdjustLife(host=9, delta=-3), InputError, "no host #9")
    refused(s, AdjustLife(host=2, delta=18), InputError, "between -24 and 3")


def test_the_plus_on_a_hosts_life_stops_at_its_current_maximum():
    """RULES.md §3 (issue 11): + stops at the host's current maximum (base life + totem life, at most
    24). Decision: a + beyond it is refused with the allowed range (as every out-of-range input is),
    and the + button is greyed out with the reason at the maximum; nothing is silently capped."""
    s = put(started(KAI, REX), 1, life=6, totems=[Totem(name="Ox", life=2)])  # Kai: maximum 8 + 2 = 10
    refused(s, AdjustLife(host=1, delta=5), InputError,
            r"Life stops at Kai's current maximum of 10: it is at 6, so the change must be between -24 and 4 \(got \+5\)")
    s, _ = act(s, AdjustLife(host=1, delta=4))
    assert k.find_host(s, 1).life == 10
    refused(s, AdjustLife(host=1, delta=1), InputError, "Kai is at its current maximum life")
    plus = next(m for m in GAME.legal_moves(s) if m.action == AdjustLife(host=1, delta=1))
    assert plus.why_not == GAME.why_not(s, plus.action) and "current maximum" in plus.why_not
    minus = next(m for m in GAME.legal_moves(s) if m.action == AdjustLife(host=1, delta=-1))
    assert minus.why_not is None
    # An item's life may have lifted a host above its maximum: the − still works, the + doesn't.
    s = put(s, 1, life=12)
    refused(s, AdjustLife(host=1, delta=1), InputError, "current maximum")
    s, _ = act(s, AdjustLife(host=1, delta=-1))
    assert k.find_host(s, 1).life == 11


# --- Totems and dice -----------------------------------------------------------------------------


def test_totem_adds_dice_and_life_at_once_even_when_wounded():
    s = put(started(KAI, REX), 1, life=5)
    s, ev = act(s, AttachTotem(host=1, totem=tiger()), [4])
    h = k.find_host(s, 1)
    assert (k.attack_dice(h), k.defense_dice(h), h.life) == (4, 2, 8)
    assert "life 5 → 8" in ev[0].text
    assert ev[0].kind == "totem_attached" and (ev[0].data["life_before"], ev[0].data["life"]) == (5, 8)
    assert ev[0].data["totem"]["name"] == "Tiger" and ev[0].data["attack_dice"] == 4
    assert k.full_life(h) == 11


def test_dice_are_capped_at_six_with_several_totems():
    s = put(started(HostCard(name="Kai", attack=3, defense=3, life=8), REX), 1,
            totems=[Totem(name="Tiger", attack=2, defense=3), Totem(name="Ox", attack=3, defense=3)])
    h = k.find_host(s, 1)
    assert (k.attack_dice(h), k.defense_dice(h)) == (6, 6)


def test_negative_totem_modifiers_and_dormant_totems():
    s = put(started(HostCard(name="Kai", attack=1, defense=2, life=8), REX), 1,
            totems=[Totem(name="Sloth", attack=-3, defense=-1, life=-2)])
    h = k.find_host(s, 1)
    assert (k.attack_dice(h), k.defense_dice(h)) == (0, 1)
    s = put(s, 1, totems=[Totem(name="Ox", attack=3, defense=2, dormant=True)])
    h = k.find_host(s, 1)
    assert (k.attack_dice(h), k.defense_dice(h)) == (1, 2)


def test_negative_life_totem_costs_life_and_gives_it_back_when_removed():
    s = started(KAI, REX)
    s, _ = act(s, AttachTotem(host=1, totem=Totem(name="Sloth", life=-6)), [3])
    assert k.find_host(s, 1).life == 2
    s, _ = end_turns(s, 2)
    s, ev = act(s, RemoveTotem(host=1, totem=0))
    assert k.find_host(s, 1).life == 8
    assert s.players[0].totems_in_hand == 1


def test_life_is_capped_at_24():
    s = put(started(HostCard(name="Kai", attack=2, defense=2, life=12), REX), 1,
            totems=[Totem(name="Ox", life=6), Totem(name="Rat", life=6)], life=24)
    s, ev = act(s, AttachTotem(host=1, totem=Totem(name="Crane", life=6), from_hand=True), [6])
    h = k.find_host(s, 1)
    assert h.life == 24 and k.full_life(h) == 24
    assert "(capped at 24)" in ev[0].text
    refused(s, AdjustLife(host=1, delta=1), InputError, "Kai is at its current maximum life")


@pytest.mark.parametrize("totem,match", [
    ({"attack": 4}, "Attack modifier must be between -3 and 3"),
    ({"defense": -4}, "Defense modifier must be between -3 and 3"),
    ({"life": 7}, "Life modifier must be between -6 and 6"),
    ({"life": -7}, r"Life modifier must be between -6 and 6 \(got -7\)"),
])
def test_totem_modifiers_outside_the_book_ranges_are_refused(totem, match):
    with pytest.raises(InputError, match=match):
        k.build(AttachTotem, host=1, totem={"name": "Tiger", **totem})


def test_removing_a_totem_is_a_damage_and_can_remove_the_host():
    s = put(started(KAI, REX), 1, totems=[tiger(life=6)], life=5)
    s, ev = act(s, RemoveTotem(host=1, totem=0))
    assert k.hosts_of(s, 0) == []
    assert "a damage of 6" in ev[0].text
    assert ev[0].kind == "totem_removed" and ev[0].data["life"] == -1
    assert of_kind(ev, "host_removed")[0]["host"] == 1
    assert any("take the host card off the table" in e for e in text(ev))
    assert s.players[0].hand == 8  # the totem went back to the hand


def test_a_host_cannot_carry_both_cards_of_a_binomial():
    s = put(started(KAI, REX), 1, totems=[tiger()])
    refused(s, AttachTotem(host=1, totem=tiger()), RuleError, "both cards of one binomial totem")
    # The pair id, not the card's title, decides.
    refused(s, AttachTotem(host=1, totem=Totem(name="White Tiger", pair="tiger")), RuleError, "binomial")


def test_binomial_partners_cannot_fight_each_other():
    s = put(put(started(KAI, REX), 1, totems=[tiger()]), 2, totems=[tiger(name="TIGER ")])
    assert "share the binomial totem Tiger" in k.attack_refusal(s, 1, 2)
    refused(s, Attack(attacker=1, defender=2), RuleError, "binomial partners can't fight")


def test_support_hosts_carry_items_not_totems():
    s = k.new_state(Settings(players=["Ana", "Ben"]))
    s, _ = act(s, Deploy(card=KAI, support=True))
    s, _ = end_turns(s, 2)
    refused(s, AttachTotem(host=1, totem=tiger()), RuleError, "support host")
    s, _ = act(s, AddItem(host=1, item=Item(name="Knife")))


# --- Singularity ---------------------------------------------------------------------------------


@pytest.mark.parametrize("count,roll,bonus,passes", [
    (1, 1, 0, True),
    (3, 2, 0, False),
    (3, 3, 0, True),
    (3, 2, 1, True),  # talent "+1 to all singularity checks"
    (6, 6, 0, True),
    (6, 5, 0, False),
    (2, 2, -1, False),
])
def test_singularity_check(count, roll, bonus, passes):
    names = ["Ox", "Rat", "Crane", "Boar", "Snake"][: count - 1]
    s = put(started(KAI, REX), 1, totems=[Totem(name=n) for n in names], check_bonus=bonus)
    s, ev = act(s, AttachTotem(host=1, totem=tiger()), [roll])
    assert f"Singularity check for Kai ({count} totem" in ev[1].text
    assert ev[1].kind == "singularity_check"
    assert (ev[1].data["face"], ev[1].data["bonus"], ev[1].data["passed"]) == (roll, bonus, passes)
    assert len(k.find_host(s, 1).totems) == (count if passes else 0)


def test_item_check_bonus_counts():
    s = put(started(KAI, REX), 1, totems=[Totem(name="Ox")], items=[Item(name="Charm", check_bonus=1)])
    s, ev = act(s, AttachTotem(host=1, totem=tiger()), [1])
    assert "rolled 1 + 1 = 2 ≥ 2, passed" in ev[1].text


def test_talent_carries_totems_without_a_check():
    s = put(started(KAI, REX), 1, totems=[Totem(name="Ox"), Totem(name="Rat")], free_totems=3)
    s, ev = act(s, AttachTotem(host=1, totem=tiger()))  # no die is rolled
    assert "no singularity check" in ev[1].text
    assert ev[1].data["face"] is None and ev[1].data["passed"]


def test_singularity_event_clears_every_totem_and_drops_fallen_hosts():
    s = started(KAI, HostCard(name="Rex", attack=1, defense=1, life=6))
    s = put(s, 1, totems=[Totem(name="Ox", life=2), Totem(name="Rat", life=-2)], life=8)
    s = put(s, 2, totems=[Totem(name="Crane", life=6)], life=5)  # wounded: 5 − 6 → −1
    s.players[1].totems_in_hand = 1
    s, ev = act(s, AttachTotem(host=1, totem=tiger(life=3)), [2])  # 3 totems, rolled 2: fail
    assert "failed" in ev[1].text and str(ev[2].text).startswith("SINGULARITY EVENT")
    assert ev[2].kind == "singularity_event"
    assert [(r["name"], r["totems"]) for r in ev[2].data["removed"]] == [("Kai", ["Ox", "Rat", "Tiger"]), ("Rex", ["Crane"])]
    kai = k.find_host(s, 1)
    assert kai.totems == [] and kai.life == 8 + 3 - 2 + 2 - 3  # bonuses taken away, the −2 given back
    assert any(e.startswith("Take Ox, Rat, Tiger off Kai (Ana)") for e in text(ev))
    assert any(e.startswith("Take Crane off Rex (Ben): life 5 → -1") for e in text(ev))
    assert any("Rex (Ben) is at -1 life: take the host card off the table" in e for e in text(ev))
    assert k.hosts_of(s, 1) == []
    assert s.players[1].totems_in_hand == 1  # totems in hands are untouched


# --- Items ---------------------------------------------------------------------------------------


def test_items_max_two_and_replacing():
    s = put(started(KAI, REX), 1, items=[Item(name="Knife"), Item(name="Rope")])
    refused(s, AddItem(host=1, item=Item(name="Grenade")), RuleError, "already carries 2 items")
    s, ev = act(s, AddItem(host=1, item=Item(name="Grenade"), replace=0))
    assert [i.name for i in k.find_host(s, 1).items] == ["Rope", "Grenade"]
    assert "replacing Knife, which goes to the discard pile" in ev[0].text
    assert (ev[0].data["item"], ev[0].data["replaced"]) == ("Grenade", "Knife")


@pytest.mark.parametrize("item,match", [
    ({"name": "Grenade", "attack_plus": 7, "attack_dice": 2}, "Attack \\+ must be between 0 and 6"),
    ({"name": "Grenade", "defense_dice": -1}, "on defense dice must be between 0 and 6"),
    ({"name": "Potion", "life": 13}, "between 0 and 12"),
    ({"name": "Charm", "check_bonus": -4}, "between -3 and 3"),
])
def test_item_values_out_of_range_are_refused(item, match):
    with pytest.raises(InputError, match=match):
        k.build(AddItem, host=1, item=item)


def test_item_life_heals_up_to_24():
    s = put(started(KAI, REX), 1, life=20)
    s, ev = act(s, AddItem(host=1, item=Item(name="Elixir", life=8)))
    assert k.find_host(s, 1).life == 24 and "capped at 24" in ev[0].text


# --- Conditions ----------------------------------------------------------------------------------


def test_poison_ticks_at_the_start_of_the_owners_turn_until_cured():
    s = started(KAI, REX)
    s, _ = end_turns(s, 1)  # Ben's turn
    s, _ = act(s, Instant(target=1, condition="poisoned"))
    s, ev = end_turns(s, 1)  # Ana's turn starts: poison ticks before she acts
    assert k.find_host(s, 1).life == 7
    assert "Kai (Ana) is Poisoned: −1 life → 7 (at the start of its owner's turn, until cured)." in text(ev)
    s, ev = end_turns(s, 1)  # Ben's turn: no tick for Ana's host
    assert k.find_host(s, 1).life == 7
    s, _ = end_turns(s, 1)
    assert k.find_host(s, 1).life == 6
    s, ev = act(s, Instant(target=1, cure="poisoned"))
    assert "cured of poisoned" in ev[0].text
    s, _ = end_turns(s, 2)
    assert k.find_host(s, 1).life == 6


def test_burning_deals_two_for_three_turns_then_ends():
    s = started(KAI, REX)
    s, _ = end_turns(s, 1)
    s, _ = act(s, Instant(target=1, condition="burning"))
    lives = []
    for _ in range(4):
        s, ev = end_turns(s, 2)
        lives.append(k.find_host(s, 1).life)
    assert lives == [6, 4, 2, 2]
    assert k.find_host(s, 1).conditions == []


def test_condition_tick_every_turn_setting():
    s = started(KAI, REX, condition_tick="every_turn")
    s, _ = act(s, Instant(target=2, condition="poisoned"))
    s, _ = end_turns(s, 1)  # Ben's turn
    assert k.find_host(s, 2).life == 9
    s, _ = end_turns(s, 1)  # Ana's turn: ticks too
    assert k.find_host(s, 2).life == 8


def test_poison_can_remove_a_host():
    s = put(started(KAI, REX), 2, life=1, conditions=[k.Condition(kind="poisoned")])
    s, ev = end_turns(s, 1)
    assert k.hosts_of(s, 1) == []
    assert any("Rex (Ben) is at 0 life: take the host card off the table" in e for e in text(ev))


def test_sleeping_and_shackled_hosts_cannot_start_a_combat():
    s = put(started(KAI, REX), 1, conditions=[k.Condition(kind="sleep")])
    assert "asleep" in k.attack_refusal(s, 1, 2)
    s = put(s, 1, conditions=[k.Condition(kind="shackled")])
    refused(s, Attack(attacker=1, defender=2), RuleError, "shackled and can't attack")


def test_shackled_host_strikes_back_with_limited_dice():
    s = started(KAI, HostCard(name="Rex", attack=3, defense=1, life=10))
    s = put(s, 2, conditions=[k.Condition(kind="shackled")])
    assert k.strike_dice(s, k.find_host(s, 2)) == 1
    s, _ = act(s, Attack(attacker=1, defender=2))
    s, _ = act(s, Roll(), [1, 1, 6])  # Kai 2 dice, Rex defends with 1
    s, ev = act(s, Roll(), [6, 1, 1])  # Rex strikes back with only 1 die against Kai's 2
    assert any("Attack rolled 6, defense rolled 1, 1." in e for e in text(ev))


def test_conditions_with_a_duration_run_out():
    s = started(KAI, REX)
    s, _ = act(s, Instant(target=2, condition="sleep", duration=1))
    s, ev = end_turns(s, 1)
    assert "Sleep on Rex has run its course and ends." in text(ev)
    assert k.find_host(s, 2).conditions == []


def test_instant_refuses_duration_out_of_range_and_empty_effects():
    s = started(KAI, REX)
    with pytest.raises(InputError, match="Turns .* must be between 1 and 10"):
        k.build(Instant, target=2, condition="sleep", duration=11)
    refused(s, Instant(target=2), InputError, "needs an effect")
    with pytest.raises(InputError, match="Damage must be between 0 and 24"):
        k.build(Instant, target=2, damage=25)


def test_instant_cannot_harm_a_protected_host_but_may_help_it():
    s = started(KAI, REX)
    s, _ = end_turns(s, 1)
    s, _ = act(s, Deploy(card=MAX))
    s, _ = end_turns(s, 1)
    refused(s, Instant(target=3, damage=2), RuleError, "Protected")
    s, ev = act(s, Instant(target=3, heal=1))  # not harmful: allowed (and capped at 24 only)
    assert k.find_host(s, 3).life == 7


def test_instant_removes_an_item_and_makes_a_totem_dormant():
    s = put(started(KAI, REX), 2, items=[Item(name="Knife")], totems=[Totem(name="Ox", attack=2)])
    s, ev = act(s, Instant(target=2, remove_item=0, totem=0, totem_dormant=True))
    rex = k.find_host(s, 2)
    assert rex.items == [] and rex.totems[0].dormant and k.attack_dice(rex) == 2


# --- Combat --------------------------------------------------------------------------------------


def test_book_example_through_the_rules():
    # 4 attack dice vs 3 defense: 5>4 hit, 3=3 tie, 2<3 hit back, uncontested hit.
    s = started(HostCard(name="Kai", attack=3, defense=2, life=8), HostCard(name="Rex", attack=1, defense=3, life=10))
    s = put(s, 1, totems=[Totem(name="Buffalo", attack=1)])
    s, _ = act(s, Attack(attacker=1, defender=2))
    s, ev = act(s, Roll(), [5, 3, 2, 1, 4, 3, 3])
    assert (k.find_host(s, 2).life, k.find_host(s, 1).life) == (8, 7)
    assert "5 > 4: hit; 3 = 3: tie; 2 < 3: blocked, hit back; 1 uncontested: hit." in text(ev)
    assert "Defender takes 2, attacker takes 1." in text(ev)
    assert s.last_exchange.outcomes == ["hit", "tie", "block", "uncontested attack"]
    # The tables turn: Rex counter-attacks.
    assert s.combat.striker == 2
    assert k.legal_actions(s) == ["roll", "support", "adjust_life", "set_hand"]


def test_wild_die_through_the_rules():
    s = started(HostCard(name="Kai", attack=3, defense=2, life=8), REX)
    s = put(s, 1, totems=[Totem(name="Ox", attack=3)])
    s, _ = act(s, Attack(attacker=1, defender=2))
    s, ev = act(s, Roll(), [6, 1, 1, 1, 1, 1, 5, 5])
    assert "Attack: Wild die 6: exceptional success, all six dice count as 6." in text(ev)
    assert k.find_host(s, 2).life == 4


def test_fight_to_a_fall_moves_totems_and_items():
    s = started(KAI, REX)
    s = put(s, 2, life=2, totems=[tiger()], items=[Item(name="Knife"), Item(name="Rope")])
    s.players[0].hand = 7
    s, _ = act(s, Attack(attacker=1, defender=2))
    s, ev = act(s, Roll(), [6, 6, 1, 1, 4])  # Rex takes 2, life 2 → 0: falls; Kai absorbs Tiger, checks 4
    assert "Rex (Ben) falls at 0 life: Kai (Ana) wins the fight." in text(ev)
    assert k.hosts_of(s, 1) == []
    kai = k.find_host(s, 1)
    assert [t.name for t in kai.totems] == ["Tiger"] and kai.life == 11
    assert any("Singularity check for Kai (1 totem): rolled 4" in e for e in text(ev))
    assert s.players[0].hand == 8
    assert any("discard 1 of your choice" in e for e in text(ev))
    assert s.combat is None and s.played == "attack"
    # No card is drawn after a combat.
    s, ev = act(s, EndTurn())
    assert "no card is drawn after a combat" in ev[0].text


def test_winner_rests_a_full_round_and_can_still_be_attacked():
    s = started(KAI, REX, MAX)  # turn 6: Ana
    s = put(s, 2, life=1)
    s, _ = act(s, Attack(attacker=1, defender=2))
    s, ev = act(s, Roll(), [6, 6, 1, 1])
    assert "Kai rests until the end of Ana's turn in round 4: it can't start a combat (it can still be attacked)." in text(ev)
    s, _ = end_turns(s, 2)  # Cid's turn
    assert k.attack_refusal(s, 3, 1) is None  # a resting host can be attacked
    s, _ = end_turns(s, 1)  # Ana's next turn: still resting
    assert str(k.attack_refusal(s, 1, 3)).startswith("Kai is Resting until the end of Ana's turn in round 4")
    s, ev = end_turns(s, 3)  # Ana again, a full round later
    assert "Kai (Ana) is no longer Resting." in text(ev)
    assert k.attack_refusal(s, 1, 3) is None


def test_binomial_partners_of_a_totem_that_fought_rest_too():
    s = started(KAI, REX, MAX)
    s = put(s, 2, life=1, totems=[tiger()])
    s = put(s, 3, totems=[tiger()])  # Max holds the other Tiger card
    s, _ = act(s, Attack(attacker=1, defender=2))
    s, ev = act(s, Roll(), [6, 6, 1, 1, 5])
    assert k.is_resting(s, k.find_host(s, 3))
    assert any("Max (Cid) holds a Tiger card, a binomial totem that fought" in e for e in text(ev))


def test_vessel_takes_the_totems_into_the_hand_without_a_check():
    s = started(KAI, REX)
    s = put(s, 1, items=[Item(name="Containment Unit", vessel=True)])
    s = put(s, 2, life=1, totems=[tiger(), Totem(name="Ox")])
    s.players[0].hand = 5
    s, _ = act(s, Attack(attacker=1, defender=2))
    s, ev = act(s, Roll(), [6, 6, 1, 1])  # no singularity die
    assert k.find_host(s, 1).totems == []
    assert s.players[0].hand == 7 and s.players[0].totems_in_hand == 2
    assert any("captured by the vessel Containment Unit" in e for e in text(ev))


def test_both_hosts_falling_together():
    s = put(put(started(KAI, REX), 1, life=1), 2, life=1)
    s, _ = act(s, Attack(attacker=1, defender=2))
    s, ev = act(s, Roll(), [6, 1, 5, 2])
    assert "Both hosts fall in the same exchange: no victor." in text(ev)
    assert s.hosts == [] and s.combat is None


def test_heal_instead_of_rolling_then_the_tables_turn():
    s = put(started(KAI, REX), 1, life=22)
    s, _ = act(s, Attack(attacker=1, defender=2))
    s, ev = act(s, Support(heal=5, from_hand=True))
    assert k.find_host(s, 1).life == 24 and "capped at 24" in ev[-2].text
    assert s.combat.striker == 2
    assert s.players[0].hand == 7


def test_flee_ends_the_fight_and_protects():
    s = started(KAI, REX)
    s = put(s, 2, items=[Item(name="Smoke Bomb")])
    s, _ = act(s, Attack(attacker=1, defender=2))
    s, _ = act(s, Roll(), [1, 1, 6, 6])  # Kai takes 2
    s, ev = act(s, Support(flee=True, use_item=0))  # Rex strikes now; Ben flees with Rex instead
    assert s.combat is None
    rex = k.find_host(s, 2)
    assert rex.items == [] and k.is_protected(s, rex)
    assert k.find_host(s, 1).life == 6  # damage taken before fleeing remains
    assert any("flees the fight" in e for e in text(ev))


def test_combat_actions_outside_and_inside_a_combat():
    s = started(KAI, REX)
    refused(s, Roll(), RuleError, "no combat")
    refused(s, Support(heal=1), RuleError, "no combat")
    s, _ = act(s, Attack(attacker=1, defender=2))
    refused(s, EndTurn(), RuleError, "combat is under way")
    refused(s, AddItem(host=1, item=Item(name="Knife")), RuleError, "combat is under way")
    refused(s, Support(), InputError, "Say what the support does")
    with pytest.raises(InputError, match=r"Heal by \(life\) must be between 0 and 24"):
        k.build(Support, heal=25)
    with pytest.raises(InputError, match="Attack dice must be between 1 and 3"):
        k.build(Support, support_host={"name": "Cub", "attack": 9, "defense": 1, "life": 6})


def test_cannot_attack_with_another_players_host_or_your_own():
    s = started(KAI, REX)
    refused(s, Attack(attacker=2, defender=1), RuleError, "belongs to Ben")
    s2, _ = act(s, Deploy(card=MAX))
    s2, _ = end_turns(s2, 2)
    assert "own host" in k.attack_refusal(s2, 1, 3)
    refused(s, Attack(attacker=1, defender=7), RuleError, "no host #7")


def test_item_bonus_placement_pending_then_suggested_or_chosen():
    s = started(HostCard(name="Kai", attack=3, defense=2, life=8), HostCard(name="Rex", attack=1, defense=3, life=10))
    s = put(s, 1, items=[Item(name="Grenade", attack_plus=3, attack_dice=2)])
    s, _ = act(s, Attack(attacker=1, defender=2))
    s, ev = act(s, Roll(), [1, 3, 5, 6, 5, 2])
    assert s.combat.pending is not None and "Suggested (most hits)" in ev[1].text
    assert k.legal_actions(s) == ["place_dice"]
    refused(s, EndTurn(), RuleError, "Place the item bonuses")
    refused(s, PlaceDice(attack=[[0]]), InputError, "exactly 2 different dice")
    refused(s, PlaceDice(attack=[[0, 9]]), InputError, "positions are 1 to 3")
    # The book's placement, on the lowest two dice: 5, 4, 6 vs 6, 5, 2.
    s2, ev = act(s, PlaceDice(attack=[[1, 2]]))
    assert s2.last_exchange.attack_values == [6, 5, 4]
    assert "6 = 6: tie; 5 = 5: tie; 4 > 2: hit." in text(ev)
    s3, _ = act(s, PlaceDice())
    assert s3.combat.pending is None


def test_physical_die_outside_1_to_6_is_refused():
    s = started(KAI, REX)
    s, _ = act(s, Attack(attacker=1, defender=2))
    before = s.model_dump_json()
    with pytest.raises(InputError, match="1 to 6"):
        apply(s, Roll(), SeededDice(1, 0, entered=[7]))
    assert s.model_dump_json() == before


# --- Chance nodes: every roll declared, a physical-dice table asked for each ------------------------


def test_an_exchange_declares_each_sides_dice_who_rolls_them_and_the_odds():
    s, _ = act(started(KAI, REX), Attack(attacker=1, defender=2))
    dice = ScriptedDice([6, 6, 1, 2])
    apply(s, Roll(), dice)
    attack, defense = dice.chances
    assert (attack.count, attack.who, defense.count, defense.who) == (2, "Ana", 2, "Ben")
    assert attack.text == "2 d6 for Kai's attack on Rex, exchange 1: Rex takes at least 1; Kai takes at least 1 back"
    assert GAME.chance_for(s, Roll()) == attack
    first = k.odds_mod.exchange_odds(2, 2)
    assert attack.outcomes[0].probability == pytest.approx(float(sum(p for (a, _), p in first.items() if a)))
    # The defense is declared once the attack shows 6, 6: Rex can only tie, never hit back.
    assert defense.why == "Rex's defense against Kai, exchange 1"
    assert [o.probability for o in defense.outcomes] == pytest.approx([35 / 36, 0])


def test_six_dice_declare_the_wild_die():
    s = put(started(HostCard(name="Kai", attack=3, defense=2, life=8), REX), 1, totems=[Totem(name="Ox", attack=3)])
    s, _ = act(s, Attack(attacker=1, defender=2))
    chance = GAME.chance_for(s, Roll())
    # The dice pad shows the why: a table entering six dice is told which one is the wild die.
    assert chance.count == 6 and chance.why == "Kai's attack on Rex, exchange 1, with a wild die (enter the golden die first)"
    assert [(o.label, o.probability) for o in chance.outcomes[2:]] == [
        ("wild die 6: all 6 count as 6", pytest.approx(1 / 6)), ("wild die 1: all 6 count as 1", pytest.approx(1 / 6))]


def test_the_wild_die_is_marked_where_the_rolled_dice_are_told():
    s = put(started(HostCard(name="Kai", attack=3, defense=2, life=8), REX), 1, totems=[Totem(name="Ox", attack=3)])
    s, _ = act(s, Attack(attacker=1, defender=2))
    s, ev = apply(s, Roll(), ScriptedDice([4, 3, 3, 2, 2, 1, 5, 5]))
    detail = [e.text for e in ev if e.kind == "exchange_detail"]
    assert detail[0] == "Attack rolled 4 (wild), 3, 3, 2, 2, 1, defense rolled 5, 5."
    assert cb.wild_index([4, 3, 3, 2, 2, 1]) == 0 and cb.wild_index([6, 6, 6, 6, 6]) is None
    assert cb.fmt_rolled([1, 2, 3]) == "1, 2, 3" and cb.fmt_rolled([]) == "no dice"


def test_a_side_without_dice_is_not_asked_for_any():
    s = put(started(KAI, REX), 1, totems=[Totem(name="Sloth", attack=-3)])
    s, _ = act(s, Attack(attacker=1, defender=2))
    dice = ScriptedDice([3, 4])
    s, ev = apply(s, Roll(), dice)
    assert [c.why for c in dice.chances] == ["Rex's defense against Kai, exchange 1"]
    assert of_kind(ev, "exchange")[0]["damage_to_striker"] == 2


@pytest.mark.parametrize("totems,bonus,free,text,p", [
    (0, 0, 0, "1 d6 for Kai's singularity check: any face passes", 1),
    (2, 0, 0, "1 d6 for Kai's singularity check: 3 or more passes; fails", 4 / 6),
    (2, 1, 0, "1 d6 for Kai's singularity check (+1 from talents and items): 2 or more passes; fails", 5 / 6),
    (5, -1, 0, "1 d6 for Kai's singularity check (-1 from talents and items): no face passes; fails", 0),
    (2, 0, 3, None, None),  # the talent carries three without a check
])
def test_the_singularity_check_is_declared_with_its_odds(totems, bonus, free, text, p):
    names = ["Ox", "Rat", "Crane", "Boar", "Snake"][:totems]
    s = put(started(KAI, REX), 1, totems=[Totem(name=n) for n in names], check_bonus=bonus, free_totems=free)
    chance = GAME.chance_for(s, AttachTotem(host=1, totem=tiger()))
    assert chance == k.singularity_chance(s, k.find_host(s, 1), totems + 1)
    if text is None:
        assert chance is None
        return
    assert chance.text == text and chance.who == "Ana"
    assert chance.outcomes[0].probability == pytest.approx(p)


def physical_table(s):
    """A campaign state at a table rolling physical dice, from this game state."""
    start = CampaignState(game=s.model_dump(mode="json"))
    return step(GAME, start, SetPhysicalDice(on=True), PhysicalDice()).state


def test_a_fight_that_ends_with_an_absorbed_totem_asks_the_table_for_the_singularity_die():
    """Issue 11: with physical dice on, the check after an absorbed totem was rolled by the app and
    wiped every totem unprompted. Now the roll waits for the table's die like every other."""
    s = put(started(KAI, REX), 2, life=2, totems=[tiger(), Totem(name="Ox")])
    table = step(GAME, physical_table(s), Attack(attacker=1, defender=2), PhysicalDice()).state
    done = step(GAME, table, Roll(), PhysicalDice())
    assert done.dice == [] and done.state.pending.chance.why == "Kai's attack on Rex, exchange 1"
    done = step(GAME, done.state, GiveDice(faces=[6, 6]), PhysicalDice())
    assert done.state.pending.chance.who == "Ben"
    done = step(GAME, done.state, GiveDice(faces=[1, 1]), PhysicalDice())
    waiting = done.state.pending
    assert waiting.chance.text == "1 d6 for Kai's singularity check: 2 or more passes; fails"
    assert waiting.chance.who == "Ana" and waiting.given == [6, 6, 1, 1]
    assert done.state.game == table.game  # nothing has happened yet: the fight waits for the die
    done = step(GAME, done.state, GiveDice(faces=[1]), PhysicalDice())
    assert [(d.value, d.physical) for d in done.dice] == [(1, True)]
    game = State.model_validate(done.state.game)
    assert done.state.pending is None and k.find_host(game, 1).totems == []
    assert [e.kind for e in done.events if e.kind.startswith("singularity")] == ["singularity_check", "singularity_event"]


def test_combat_odds_for_the_chosen_pair():
    s = started(HostCard(name="Kai", attack=3, defense=2, life=8), HostCard(name="Rex", attack=3, defense=1, life=10))
    o = k.combat_odds(s, 1, 2)
    assert sum(o.first_exchange.values()) == 1
    assert o.first_exchange == k.odds_mod.exchange_odds(3, 1)
    assert 0 < o.attacker_wins < 1
    shackled = put(s, 2, conditions=[k.Condition(kind="shackled")])
    assert k.combat_odds(shackled, 1, 2).attacker_wins > o.attacker_wins


# --- Win -----------------------------------------------------------------------------------------


def test_last_host_standing_wins_after_one_more_round():
    s = put(started(KAI, REX), 2, life=1)
    s, _ = act(s, Attack(attacker=1, defender=2))
    s, _ = act(s, Roll(), [6, 6, 1, 1])
    assert s.lone_player == 0
    s, ev = end_turns(s, 1)  # Ben's turn: he may reveal a new host
    assert k.outcome(s) is None
    s, ev = end_turns(s, 1)  # a full round without a new opposing host
    assert k.outcome(s) == "Ana wins (last host standing)"
    assert GAME.headline(s) == "Ana wins"
    assert k.legal_actions(s) == []
    refused(s, EndTurn(), RuleError, "The game is over")


def test_a_new_host_in_the_extra_round_keeps_the_game_going():
    s = put(started(KAI, REX), 2, life=1)
    s, _ = act(s, Attack(attacker=1, defender=2))
    s, _ = act(s, Roll(), [6, 6, 1, 1])
    s, _ = end_turns(s, 1)
    s, _ = act(s, Deploy(card=MAX))
    assert s.lone_player is None
    s, _ = end_turns(s, 4)
    assert k.outcome(s) is None


def test_losing_your_last_host_on_your_own_turn_still_gives_you_a_turn():
    s = put(started(KAI, REX), 1, life=1)  # Ana attacks with a 1-life host and loses it
    s, _ = act(s, Attack(attacker=1, defender=2))
    s, _ = act(s, Roll(), [1, 1, 6, 6])
    assert s.lone_player == 1
    s, _ = end_turns(s, 2)  # Ben's turn, then Ana's extra turn
    assert k.outcome(s) is None and k.current_player(s) == 0
    s, _ = end_turns(s, 1)
    assert k.outcome(s) == "Ben wins (last host standing)"


def test_totem_goal():
    s = started(KAI, REX, totem_goal=3)
    s = put(s, 1, totems=[Totem(name="Ox")])
    s.players[0].totems_in_hand = 1
    s, ev = act(s, AttachTotem(host=1, totem=tiger(), from_hand=False), [6])
    assert k.outcome(s) == "Ana wins (3 totems)"


def test_set_hand():
    s = started(KAI, REX)
    s, _ = act(s, SetHand(player=1, hand=3, totems_in_hand=2))
    assert (s.players[1].hand, s.players[1].totems_in_hand) == (3, 2)
    with pytest.raises(InputError, match="Cards in hand must be between 0 and 8"):
        k.build(SetHand, player=1, hand=9)
    refused(s, SetHand(player=2, hand=1), InputError, "between 0 and 1")
    refused(s, SetHand(player=1, hand=2, totems_in_hand=3), InputError, "between 0 and 2")


def test_headline_and_describe():
    s = started(KAI, REX)
    assert GAME.headline(s) == "Round 3 · Ana"
    s, _ = act(s, Attack(attacker=1, defender=2))
    assert GAME.headline(s) == "Round 3 · Kai vs Rex · Kai attacks"
    assert GAME.describe(AdjustLife(host=1, delta=-2)) == "life -2"
    assert GAME.describe(Instant(target=1, damage=2, condition="burning")) == "instant: 2 damage, burning"


def test_who_attacks_now_swaps_each_exchange():
    s = started(KAI, REX)
    assert k.exchange_roles(s) is None and k.attacks_now(s) is None  # no fight
    s, _ = act(s, Attack(attacker=1, defender=2))
    assert [h.name for h in k.exchange_roles(s)] == ["Kai", "Rex"]
    assert k.attacks_now(s) == "Exchange 1: Kai (Ana) attacks, Rex (Ben) defends."
    s, _ = act(s, Roll(), [3, 3, 4, 4])  # Kai −2; the tables turn
    assert k.attacks_now(s) == "Exchange 2: Rex (Ben) attacks, Kai (Ana) defends."
    s, _ = act(s, Support(heal=1))  # Rex heals instead of rolling: Kai attacks next
    assert k.attacks_now(s) == "Exchange 2: Kai (Ana) attacks, Rex (Ben) defends."


def test_undo_labels_name_the_hosts_and_players():
    """Every action's label (undo and the history) names what it acts on, never a host's number."""
    s = started(KAI, REX)
    s = put(s, 1, totems=[Totem(name="Ox", attack=1)], items=[Item(name="Claw"), Item(name="Fang")])
    said = {
        "attack": GAME.label(s, Attack(attacker=1, defender=2)),
        "totem": GAME.label(s, AttachTotem(host=1, totem=Totem(name="Moon"))),
        "remove": GAME.label(s, RemoveTotem(host=1, totem=0)),
        "item": GAME.label(s, AddItem(host=1, item=Item(name="Horn"), replace=1)),
        "instant": GAME.label(s, Instant(target=2, damage=2)),
        "life": GAME.label(s, AdjustLife(host=2, delta=-1)),
        "edit": GAME.label(s, EditHost(host=2, attack=3)),
        "end": GAME.label(s, EndTurn()),
        "hand": GAME.label(s, SetHand(player=1, hand=5)),
        "deploy": GAME.label(s, Deploy(card=MAX)),
    }
    assert said == {
        "attack": "Kai attacks Rex", "totem": "attach Moon to Kai", "remove": "remove Ox from Kai",
        "item": "item Horn for Kai, replacing Fang", "instant": "instant: 2 damage on Rex", "life": "Rex life -1",
        "edit": "correct Rex", "end": "end Ana's turn", "hand": "Ben's hand: 5", "deploy": "deploy Max"}
    s, _ = act(s, Attack(attacker=1, defender=2))
    assert GAME.label(s, Roll()) == "combat roll, Kai attacks Rex"
    assert GAME.label(s, Support(flee=True)) == "Kai flees"
    assert GAME.label(s, Support(heal=2)) == "Kai: heal 2"
    assert not any("#" in words for words in said.values())


# --- A check no face can fail (issue #30 item 10) ---


@pytest.mark.parametrize("others,bonus", [([], 0), (["Ox", "Rat"], 2)])
def test_a_check_no_face_can_fail_asks_a_physical_table_for_no_die(others, bonus):
    """Issue #30: a host's first totem (any face passes) asked a physical table for a die. In a campaign
    made now (sure_checks_pass, set by the setup form) it passes without one, and the event says why."""
    s = put(started(KAI, REX, sure_checks_pass=True), 1, totems=[Totem(name=n) for n in others], check_bonus=bonus)
    done = step(GAME, physical_table(s), AttachTotem(host=1, totem=tiger()), PhysicalDice())
    assert done.state.pending is None and done.dice == []
    check = next(e for e in done.events if e.kind == "singularity_check")
    count = len(others) + 1
    assert check.data["passed"] and check.data["face"] is None and check.data["sure"]
    assert check.text == (f"Singularity check for Kai ({count} totem{'s' if count > 1 else ''}): passed without a die — "
                          f"the lowest roll, 1{f' + {bonus}' if bonus else ''}, already reaches {count}.")
    assert len(k.find_host(State.model_validate(done.state.game), 1).totems) == count


def test_a_check_that_can_fail_still_asks_and_says_why_it_happens():
    """The dice card says why the check happens: the host's new count, and what the die must reach."""
    s = put(started(KAI, REX, sure_checks_pass=True), 1, totems=[Totem(name="Ox")])
    done = step(GAME, physical_table(s), AttachTotem(host=1, totem=tiger()), PhysicalDice())
    assert str(done.state.pending.chance.why) == "Kai's singularity check: it now carries 2 totems, so 1d6 must reach 2"


def test_the_apps_dice_still_roll_a_check_no_face_can_fail():
    """The app's seeded dice roll the sure check as they always did: the dice after it keep their places,
    and an app-rolled log is the same with the setting on or off."""
    for on in (False, True):
        s = started(KAI, REX, sure_checks_pass=on)
        dice = SeededDice(seed=5, n=9)
        s2, ev = apply(s, AttachTotem(host=1, totem=tiger()), dice)
        assert [d.value for d in dice.rolled] == [SeededDice(seed=5, n=9).roll(6)]
        assert "rolled" in next(e for e in ev if e.kind == "singularity_check").text


def test_old_campaigns_keep_asking_and_their_settings_are_saved_as_before():
    """Made before the setting, a campaign's settings lack it: off, its physical table is asked as it was
    (its log holds that die), and its settings are written without it, byte for byte."""
    s = started(KAI, REX)
    assert "sure_checks_pass" not in s.settings.model_dump(mode="json")
    done = step(GAME, physical_table(s), AttachTotem(host=1, totem=tiger()), PhysicalDice())
    assert done.state.pending is not None and str(done.state.pending.chance.why) == "Kai's singularity check"
    assert Settings(sure_checks_pass=True).model_dump(mode="json")["sure_checks_pass"] is True


@pytest.mark.parametrize("dice", ["physical", "app"])
def test_an_export_made_before_sure_checks_replays_as_it_was_played(dice):
    """Exports made by the code before this change (tests/fixtures, one at a physical table where each
    first totem's check asked for a die and got it, one with the app's dice): they import, and every
    action replays with the very dice and states recorded."""
    import json
    from pathlib import Path

    from companion.exchange import export_campaign, import_campaign
    from companion.log import replay
    from tests.helpers import memory_store

    raw = (Path(__file__).resolve().parent.parent / "fixtures" / f"klaw-{dice}-dice-before-sure-checks.json").read_text("utf-8")
    exported = json.loads(raw)
    assert "sure_checks_pass" not in exported["settings"]
    report = replay(GAME, exported["settings"], exported["log"], seed=exported["seed"], keep=lambda seq: True)
    assert report.ok, [str(m) for m in report.mismatches]
    store = memory_store()
    cid = import_campaign(store, raw)
    again = export_campaign(store, cid)
    assert [r["dice"] for r in again["log"]] == [r["dice"] for r in exported["log"]]
    assert [r["action"] for r in again["log"]] == [r["action"] for r in exported["log"]]
    final = store.load(cid).game_state
    assert [t.name for t in k.find_host(final, 1).totems] == ["Moon"]
    assert [t.name for t in k.find_host(final, 2).totems] == ["Crow", "Owl"]
    checks = [e for seq in sorted(report.events) for e in report.events[seq] if e.kind == "singularity_check"]
    assert [c.data["face"] for c in checks] == ([2, 5, 4] if dice == "physical" else [5, 6, 4])
