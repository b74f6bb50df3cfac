"""The KLAW panel without a browser, on a real store at a table rolling physical dice: its buttons
come from the game's moves and play through the store; a roll and the singularity check after an
absorbed totem wait for the table's dice (the view counts none); the check's odds shown in the totem
form come from the chance the rules declare; the fields' ranges come from the models; what just
happened is read from typed events; the + on a life is greyed out at the host's maximum."""

from __future__ import annotations

import re
from pathlib import Path
from random import Random

import flet as ft

from companion.games.base import InputError, RuleError
from companion.games.klaw import rules as R
from companion.games.klaw import view
from companion.table import GiveDice, SetPhysicalDice
from tests.games.test_klaw_property import choose
from tests.helpers import memory_store
from tests.views import BUTTONS, StoreFrame, all_controls, words


class FakeFrame(StoreFrame):
    view = view

    def give(self, *faces: int) -> None:
        """The table's dice for the roll the campaign waits for (what the frame's DicePad sends)."""
        self.dispatch(GiveDice(faces=list(faces)))


def walk(control):
    return all_controls(control, ("controls", "content", "actions", "title"))


def texts(control) -> str:
    out = []
    for c in walk(control):
        for attr in ("value", "label", "content", "tooltip", "helper"):
            v = getattr(c, attr, None)
            if isinstance(v, str):
                out.append(v)
    return "\n".join(out)


def tagged(control, identifier: str):
    return next(c for c in walk(control) if isinstance(c, ft.Semantics) and c.identifier == identifier)


def button(control, text: str):
    """The one control whose words (a button's, or a screen reader's label) are `text`."""
    found = [c for c in walk(control) if (isinstance(c, BUTTONS) and words(c) == text) or
             (isinstance(c, ft.Semantics) and c.label == text)]
    assert len(found) == 1, f"{len(found)} controls read {text!r}"
    c = found[0]
    return c.content if isinstance(c, ft.Semantics) else c


def tap(control, text: str) -> None:
    b = button(control, text)
    assert not b.disabled, f"{text!r} is disabled: {b.tooltip}"
    b.on_click(None)


def field(dialog, label: str) -> ft.TextField:
    return next(c for c in walk(dialog) if isinstance(c, ft.TextField) and c.label == label)


def fill(dialog, **values) -> None:
    for label, value in values.items():
        field(dialog, label.replace("_", " ")).value = str(value)


def campaign() -> FakeFrame:
    store = memory_store()
    cid = store.create("klaw", "t", {"players": ["Ana", "Ben"]}, seed=7)
    store.apply(cid, SetPhysicalDice(on=True), expected_cursor=0)
    return FakeFrame(store, cid)


def deploy(frame: FakeFrame, name: str, attack: int, defense: int, life: int) -> None:
    tap(frame.panel(), "Deploy a host")
    dialog = frame.dialogs.pop()
    # The fields' labels and ranges are the card model's.
    assert field(dialog, "Attack dice").helper == "1–3" and field(dialog, "Life").helper == "6–12"
    assert field(dialog, "Check bonus (talent)").helper == "−3 to +3"
    fill(dialog, Host_name=name, Attack_dice=attack, Defense_dice=defense, Life=life)
    tap(dialog, "Deploy")
    tap(frame.panel(), "End turn and draw 1 card")


def test_a_fight_at_a_physical_table_asks_for_every_die_and_the_singularity_check():
    frame = campaign()
    deploy(frame, "Wolfmother", 3, 2, 10)
    deploy(frame, "Raven", 2, 2, 6)
    # Fortify: the totem form says what check attaching makes, with the odds the rules declare.
    tap(frame.panel(), "Totem")
    dialog = frame.dialogs.pop()
    check = texts(tagged(dialog, "klaw-check"))
    assert check.startswith("Wolfmother will carry 1 totem. Singularity check: Ana rolls 1 d6 for Wolfmother's "
                            "singularity check: any face passes 100%.")
    assert field(dialog, "Attack modifier").helper == "−3 to +3" and field(dialog, "Life modifier").helper == "−6 to +6"
    fill(dialog, Totem_name="Moon", Attack_modifier=1)
    tap(dialog, "Attach")
    assert frame.dispatched[-1][1] is True  # pulsed: it rolls
    assert frame.loaded.state.pending.chance.why == "Wolfmother's singularity check"  # waits for the table's die
    frame.give(4)
    tap(frame.panel(), "End turn and draw 1 card")
    # Ben gives Raven a totem, so the winner of the coming fight absorbs one.
    tap(frame.panel(), "Totem")
    dialog = frame.dialogs.pop()
    fill(dialog, Totem_name="Crow", Defense_modifier=1)
    tap(dialog, "Attach")
    frame.give(3)
    tap(frame.panel(), "End turn and draw 1 card")

    # Round 3: Ana attacks from the dialog; the roll's button is the roll move's label.
    tap(frame.panel(), "Attack…")
    tap(frame.dialogs.pop(), "Attack Raven")
    panel = frame.panel()
    assert "Next: Ana rolls 4 d6 for Wolfmother's attack on Raven, exchange 1" in texts(panel)
    tap(panel, "Roll exchange 1: 4 vs 3 dice")
    assert frame.loaded.state.pending.chance.count == 4  # nothing rolled by the app: the table's dice
    frame.give(6, 6, 6, 6)
    assert frame.loaded.state.pending.chance.who == "Ben"
    frame.give(1, 1, 1)  # Raven −4: 6 → 2
    tap(frame.panel(), "Roll exchange 2: 2 vs 2 dice")
    frame.give(1, 1)
    frame.give(6, 6)  # Raven −2: falls; Wolfmother absorbs Crow and checks for 2 totems
    pending = frame.loaded.state.pending
    assert pending.chance.text == "1 d6 for Wolfmother's singularity check: 2 or more passes; fails"
    assert R.find_host(frame.loaded.game_state, 2).life == 2  # the fight waits for the die
    frame.give(1)  # fails: every totem leaves the table
    panel = frame.panel()
    wiped = texts(tagged(panel, "klaw-singularity"))
    assert "SINGULARITY EVENT" in wiped and "Take Moon, Crow off Wolfmother (Ana)" in wiped
    # Raven struck and fell: its name comes from the exchange's event data.
    assert texts(tagged(panel, "klaw-exchange")) == "Wolfmother takes 0, Raven takes 2."
    assert all(d[2] for r in frame.store.log_rows(frame.campaign_id) for d in r.dice)  # every die entered


def test_the_plus_on_a_life_is_greyed_out_at_the_hosts_maximum():
    frame = campaign()
    deploy(frame, "Wolfmother", 3, 2, 10)
    panel = frame.panel()
    assert button(panel, "Wolfmother life +1").disabled
    tap(panel, "Wolfmother life -1")
    assert frame.loaded.game_state.hosts[0].life == 9
    tap(frame.panel(), "Wolfmother life +1")
    assert frame.loaded.game_state.hosts[0].life == 10


def test_the_view_restates_no_rule():
    source = Path(view.__file__).read_text(encoding="utf-8")
    assert "import re" not in source and ".startswith(\"SINGULARITY" not in source  # events are read as data
    assert "frame.physical" not in source and "frame.roll(" not in source  # the frame asks for dice
    assert not re.search(r"\"\d+–\d+\"|helper=\"[−-]?\d", source)  # ranges come from the models
    assert "7 - need" not in source and "count=" not in source  # no odds, no dice counted


def test_the_panel_and_every_form_build_in_random_games():
    """Random games through the store (the app's dice), drawing from the moves: the panel and every
    form that may be opened build in each situation (fights, item bonuses to place, wins)."""
    for seed in range(3):
        store = memory_store()
        cid = store.create("klaw", "t", {"players": ["Ana", "Ben", "Cid"][: 2 + seed % 2]}, seed=seed)
        frame, rng = FakeFrame(store, cid), Random(seed)
        for _ in range(70):
            s = frame.loaded.game_state
            frame.panel()
            if R.outcome(s) is not None:
                break
            me = R.current_player(s)
            for p in range(len(s.players)):
                view.hand_dialog(frame, p)
            if s.combat is None:
                view.deploy_dialog(frame)
                for h in s.hosts:
                    view.instant_dialog(frame, h.id)
                    view.edit_dialog(frame, h.id)
                    if h.owner == me:
                        view.totem_dialog(frame, h.id)
                        view.item_dialog(frame, h.id)
                if R.hosts_of(s, me):
                    view.attack_dialog(frame)
            elif s.combat.pending is not None:
                view.placement_dialog(frame)
            else:
                view.support_dialog(frame)
            frame.dialogs.clear()
            action = choose(s, R.GAME.legal_moves(s), rng)
            try:
                frame.dispatch(action)
            except (RuleError, InputError):
                continue


def test_a_fight_says_who_attacks_now_and_marks_the_wild_die():
    frame = campaign()
    deploy(frame, "Wolfmother", 3, 2, 10)
    deploy(frame, "Raven", 2, 3, 12)
    # Fortify: a totem gives Wolfmother six attack dice (3 + 3): a wild die.
    tap(frame.panel(), "Totem")
    dialog = frame.dialogs.pop()
    fill(dialog, Totem_name="Ox", Attack_modifier=3)
    tap(dialog, "Attach")
    frame.give(4)
    for _ in range(2):
        tap(frame.panel(), R.end_turn_label(frame.loaded.game_state))
    tap(frame.panel(), "Attack…")
    tap(frame.dialogs.pop(), "Attack Raven")
    panel = frame.panel()
    assert texts(tagged(panel, "klaw-attacks-now")) == "Exchange 1: Wolfmother (Ana) attacks, Raven (Ben) defends."
    assert texts(tagged(panel, "klaw-fighter-1")).startswith("Attacks now\nWolfmother")
    assert texts(tagged(panel, "klaw-fighter-2")).startswith("Defends now\nRaven")
    # The table is told which die to enter first: the golden one.
    tap(panel, "Roll exchange 1: 6 vs 3 dice")
    assert str(frame.loaded.state.pending.chance.why).endswith("with a wild die (enter the golden die first)")
    frame.give(6, 1, 1, 1, 1, 1)  # a wild 6: all six count as 6
    frame.give(5, 5, 5)  # Raven −6: 12 → 6
    panel = frame.panel()
    # The roles have swapped; the last exchange shows the dice as rolled, the wild one marked.
    assert texts(tagged(panel, "klaw-attacks-now")) == "Exchange 2: Raven (Ben) attacks, Wolfmother (Ana) defends."
    assert texts(tagged(panel, "klaw-fighter-1")).startswith("Defends now")
    assert texts(tagged(tagged(panel, "klaw-combat"), "klaw-wild")) == "6\nwild"
    words = texts(tagged(panel, "klaw-combat"))
    assert "Wild die 6: exceptional success, all six dice count as 6." in words
    # Undo says what it takes back, by the hosts' names.
    assert frame.loaded.undo_label == "dice for combat roll, Wolfmother attacks Raven: 5, 5, 5"


def test_a_badge_wraps_its_words_on_a_narrow_phone():
    frame = campaign()
    deploy(frame, "Wolfmother", 3, 2, 10)
    badge = tagged(frame.panel(), "klaw-badges-1")
    [words] = [c for c in walk(badge) if isinstance(c, ft.Text) and c.value.startswith("Protected until")]
    assert words.expand and words.expand_loose  # takes the width left in its pill, and wraps beyond it


def test_a_refused_form_says_why_in_the_dialog_changes_nothing_and_stays_open():
    frame = campaign()
    tap(frame.panel(), "Deploy a host")
    dialog = frame.dialogs[-1]
    fill(dialog, Host_name="Wolfmother", Attack_dice=5, Defense_dice=2, Life=10)
    dialog.open = True
    tap(dialog, "Deploy")
    error = tagged(dialog, "klaw-form-error")
    assert error.visible and "Attack dice must be between 1 and 3 (got 5)" in error.content.value
    assert dialog.open and frame.loaded.game_state.hosts == [] and frame.dispatched == []
    fill(dialog, Attack_dice=3)
    tap(dialog, "Deploy")
    assert not error.visible and not dialog.open  # done: the refusal is gone and the dialog closed
    assert [h.name for h in frame.loaded.game_state.hosts] == ["Wolfmother"]


def test_hosts_totems_and_items_entered_once_are_one_tap_in_the_next_game():
    """Issue #30: what the forms send is kept in the table's catalog by the card's name; in another
    campaign the deploy, totem and item forms list those cards, and one tap plays one (the same
    action the form sends, so the log is what it always was)."""
    from companion import remembered
    from companion.games.klaw import kept_cards

    first = campaign()
    deploy(first, "Wolfmother", 3, 2, 10)
    deploy(first, "Raven", 2, 2, 6)
    tap(first.panel(), "Totem")
    dialog = first.dialogs.pop()
    fill(dialog, Totem_name="Moon", Attack_modifier=1, Life_modifier=2)
    tap(dialog, "Attach")
    first.give(4)
    tap(first.panel(), "End turn and draw 1 card")
    tap(first.panel(), "Item")
    dialog = first.dialogs.pop()
    field(dialog, "Attack +").value = "3"
    fill(dialog, Item_name="Claw", on_attack_dice=2)
    tap(dialog, "Add item")
    store = first.store
    assert [c.name for c in remembered.cards(store, kept_cards.KLAW_HOST)] == ["Raven", "Wolfmother"]
    assert remembered.find(store, kept_cards.KLAW_TOTEM, "moon").data["life"] == 2
    assert remembered.find(store, kept_cards.KLAW_ITEM, "claw").data["attack_plus"] == 3

    cid = store.create("klaw", "next", {"players": ["Ana", "Ben"]}, seed=8)
    store.apply(cid, SetPhysicalDice(on=True), expected_cursor=0)
    frame = FakeFrame(store, cid)
    tap(frame.panel(), "Deploy a host")
    dialog = frame.dialogs.pop()
    assert "Wolfmother · 3 att / 2 def · life 10" in texts(dialog)
    tap(dialog, "Deploy Wolfmother")  # one tap
    [host] = frame.loaded.game_state.hosts
    assert (host.name, host.attack, host.defense, host.life) == ("Wolfmother", 3, 2, 10)
    tap(frame.panel(), "End turn and draw 1 card")
    tap(frame.panel(), "Deploy a host")
    tap(frame.dialogs.pop(), "Deploy Raven")
    tap(frame.panel(), "End turn and draw 1 card")
    tap(frame.panel(), "Totem")
    tap(frame.dialogs.pop(), "Attach Moon")  # one tap: then the singularity check, as the form's button would
    assert frame.dispatched[-1] == (R.AttachTotem(host=host.id, totem=R.Totem(name="Moon", attack=1, life=2)), True)
    frame.give(5)
    assert [t.name for t in R.find_host(frame.loaded.game_state, host.id).totems] == ["Moon"]


def test_a_new_campaign_passes_a_first_totems_check_without_asking_the_table():
    """Issue #30 item 10: the setup form makes campaigns whose physical table isn't asked for a die no
    face can fail; the totem form says so before it is attached, and nothing then waits for dice."""
    settings = view.SetupForm(None).collect()
    assert settings["sure_checks_pass"] is True
    store = memory_store()
    cid = store.create("klaw", "t", {**settings, "players": ["Ana", "Ben"]}, seed=7)
    store.apply(cid, SetPhysicalDice(on=True), expected_cursor=0)
    frame = FakeFrame(store, cid)
    deploy(frame, "Wolfmother", 3, 2, 10)
    deploy(frame, "Raven", 2, 2, 6)
    tap(frame.panel(), "Totem")
    dialog = frame.dialogs.pop()
    assert texts(tagged(dialog, "klaw-check")) == ("Wolfmother will carry 1 totem: its singularity check passes without "
                                                   "a die (the lowest roll already reaches 1).")
    fill(dialog, Totem_name="Moon", Attack_modifier=1)
    tap(dialog, "Attach")
    assert frame.loaded.state.pending is None
    assert frame.store.log_rows(frame.campaign_id)[-1].dice == []
    assert len(R.find_host(frame.loaded.game_state, 1).totems) == 1
