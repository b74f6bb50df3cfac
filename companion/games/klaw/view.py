"""KLAW: Were-Wars at the table: whose turn it is and the next action on top, the fight (odds, each
exchange as hit / tie / block pairs), then each player's battle fan of hosts as cards.

The view decides nothing a rule decides. Its buttons, their labels and disabled reasons come from
the game's moves (`GAME.legal_moves`); the rolls and their odds from the chance nodes
(`GAME.chance_for`, `R.singularity_chance`); the labels and ranges of every form field from the
models (`field_specs`); the fight odds from the odds module; what just happened from the typed
events in the history. Forms build their action with `R.build` (a value out of its range is refused
with the range) and dispatch it as it is: at a table rolling physical dice the frame asks for each
die the rules reach, the singularity check after a fight too."""

from __future__ import annotations

from typing import Any, Callable, Optional

import flet as ft

from companion.games.base import Event, FieldSpec, InputError, Move, field_specs
from companion.games.klaw import combat as cb
from companion.games.klaw import rules as R
from companion.games.klaw.odds import first_exchange_summary, win_chance_text
from companion.ui.forms import whole_number
from companion.ui.style import GAP, TAP
from companion.ui.widgets import FormDialog, icon_button, section, switch_row, tagged, text, track, wide_button

# Drawn afresh from the state on every redraw (no control kept across redraws; dialogs live apart):
# the frame reconciles it with what the phone shows, so its controls keep their identity.
RECONCILED = True
WIDE = True  # a desktop puts the players (and their hosts) side by side

ATTACK_COLOR = ft.Colors.RED_700
DEFENSE_COLOR = ft.Colors.BLUE_700
WILD_COLOR = ft.Colors.AMBER_800  # the wild die is the golden one
PHASE_HINT = {
    "reveal": "Round 1, the starting round: each player reveals one host (deploy it) or passes.",
    "fortify": "Round 2, the fortify round: add a totem or an item to a host, or pass. No attacks yet.",
    "play": "Regular play: play one card (deploy, totem, item, instant action, attack) or pass, then end the turn.",
}
REMINDER = (f"At the end of the turn draw 1 card (not after a combat). Hand limit {R.HAND_LIMIT}: over it, "
            f"discard down to {R.HAND_LIMIT}.")


# --- small helpers -------------------------------------------------------------------------------


def _specs(model) -> dict[str, FieldSpec]:
    """A model's fields (labels and ranges), by name."""
    return {f.name: f for f in field_specs(model)}


def _range_text(spec: FieldSpec) -> str:
    """A field's range as a hint: '1–3', or '−3 to +3' when it reaches below zero."""
    if spec.low is not None and spec.high is not None and spec.low < 0:
        return f"−{-spec.low} to +{spec.high}"
    return spec.hint


def _num_field(spec: FieldSpec, value: int | str = "", *, label: str = "", note: str = "",
               width: Optional[int] = None) -> ft.TextField:
    """A number field for one model field: its label and its range from the model."""
    helper = ", ".join(x for x in (note, _range_text(spec)) if x)
    return ft.TextField(label=label or spec.label, value=str(value), helper=helper or None, width=width,
                        keyboard_type=ft.KeyboardType.NUMBER, expand=width is None)


def _name_field(spec: FieldSpec, value: str = "", *, label: str = "") -> ft.TextField:
    return ft.TextField(label=label or spec.label, value=value, max_length=R.NAME_LENGTH)


def _read(field: ft.TextField, spec: FieldSpec, default: Optional[int] = None) -> int:
    return whole_number(field, spec.label, default)


def _find(moves: list[Move], kind: str, **match: Any) -> Optional[Move]:
    """The move of this kind for these values: a ready action with them, or a template whose fields
    offer them (`host=3` finds the template whose host field offers host #3)."""
    for m in moves:
        if m.kind != kind:
            continue
        if m.ready and all(getattr(m.action, k, None) == v for k, v in match.items()):
            return m
        fields = {f.name: f for f in m.fields}
        if not m.ready and all(k in fields and v in fields[k].choices for k, v in match.items()):
            return m
    return None


def _open(move: Optional[Move]) -> bool:
    return move is not None and move.why_not is None


def _step(frame, move: Optional[Move]) -> Optional[Callable]:
    """A track's − or +: the move's ready action, or none (greyed out) when it may not be made now."""
    return frame.app.guard(lambda e: frame.dispatch(move.action)) if _open(move) else None


def _dialog(frame, title: str, controls: list[ft.Control], actions: list[tuple]) -> FormDialog:
    """A form as a dialog, shown. `actions` are (words, fn, icon): fn dispatches; a refusal shows in
    the dialog, which stays open to correct it."""
    form = FormDialog(frame.app, title, controls, error_id="klaw-form-error", modal=False)
    form.actions(*[form.button(words, fn, icon=icon) for words, fn, icon in actions])
    form.show()
    return form


def _badge(text: str, color, icon=None) -> ft.Control:
    row = [ft.Icon(icon, size=18, color=ft.Colors.WHITE)] if icon else []
    # expand_loose: the text takes what it needs up to the width left, and wraps beyond it (a plain
    # Text in a Row never wraps: "Protected until the end of Ana's turn in round 2" was cut off).
    return ft.Container(
        ft.Row(row + [ft.Text(text, color=ft.Colors.WHITE, size=14, weight=ft.FontWeight.W_600, expand=True,
                              expand_loose=True)],
               spacing=4, tight=True),
        bgcolor=color, border_radius=14, padding=ft.Padding.symmetric(horizontal=10, vertical=4))


def dice_icons(n: int, color, label: str) -> ft.Control:
    """A side's dice as die icons (max 6), with the count for readers at arm's length."""
    icons = [ft.Icon(ft.Icons.CASINO, color=color, size=26) for _ in range(n)] or [text("no dice", italic=True)]
    return ft.Row([ft.Container(text(label, ft.TextThemeStyle.TITLE_SMALL), width=70),
                   ft.Text(str(n), size=22, weight=ft.FontWeight.BOLD, color=color, width=22), *icons],
                  spacing=2, vertical_alignment=ft.CrossAxisAlignment.CENTER, wrap=True)


def rolled_dice(label: str, rolled: list[int], color) -> ft.Control:
    """A side's dice in the order they were rolled, the wild die (the golden one) marked, with what
    it did when it showed 6 or 1."""
    wild = cb.wild_index(rolled)
    dice: list[ft.Control] = []
    size = 36  # six in a row on a 360 px phone
    for i, v in enumerate(rolled):
        if i == wild:
            dice.append(tagged("klaw-wild", ft.Column([
                ft.Container(die_square(v, color, size=size), border=ft.Border.all(3, WILD_COLOR), border_radius=10),
                ft.Text("wild", size=12, weight=ft.FontWeight.BOLD, color=WILD_COLOR),
            ], spacing=0, tight=True, horizontal_alignment=ft.CrossAxisAlignment.CENTER)))
        else:
            dice.append(die_square(v, color, size=size))
    rows = [text(label, ft.TextThemeStyle.TITLE_SMALL),
            ft.Row(dice or [text("no dice", italic=True)], wrap=True, spacing=6, run_spacing=6,
                   vertical_alignment=ft.CrossAxisAlignment.START)]
    effect = cb.apply_wild(rolled)[1]
    if effect:
        rows.append(tagged("klaw-wild-effect", text(effect, bold=True, color=WILD_COLOR)))
    return ft.Column(rows, spacing=4)


def die_square(value: Optional[int], color, *, faded: bool = False, size: int = 44) -> ft.Control:
    return ft.Container(
        ft.Text("–" if value is None else str(value), size=size / 2, weight=ft.FontWeight.BOLD,
                color=ft.Colors.WHITE if value is not None else ft.Colors.ON_SURFACE_VARIANT),
        width=size, height=size, alignment=ft.Alignment.CENTER, border_radius=8,
        bgcolor=ft.Colors.SURFACE_CONTAINER_HIGHEST if value is None or faded else color)


def _host_line(s: R.State, h: R.Host) -> str:
    return (f"{h.name} ({R.owner_name(s, h)}) · life {h.life}/{R.full_life(h)} · "
            f"{R.attack_dice(h)} attack, {R.defense_dice(h)} defense")


def _item_text(it: R.Item) -> str:
    bits = []
    for side, bonus in (("attack", it.attack_bonus()), ("defense", it.defense_bonus())):
        if bonus:
            bits.append(f"+{bonus.plus} to {bonus.dice} {side} {'die' if bonus.dice == 1 else 'dice'}")
    if it.life:
        bits.append(f"+{it.life} life")
    if it.check_bonus:
        bits.append(f"check {it.check_bonus:+d}")
    if it.vessel:
        bits.append("vessel")
    return f"{it.name}" + (f" ({', '.join(bits)})" if bits else "")


def _totem_text(t: R.Totem) -> str:
    pair = f", pair {t.pair}" if t.pair and t.pair.strip().casefold() != t.name.strip().casefold() else ""
    return f"{t.name} ({t.attack:+d} att, {t.defense:+d} def, {t.life:+d} life{pair}){' · dormant' if t.dormant else ''}"


# --- the panel -----------------------------------------------------------------------------------


def panel(frame) -> ft.Control:
    s: R.State = frame.loaded.game_state
    moves = R.GAME.legal_moves(s)
    last = _last_events(frame)
    kept = frame.kept  # a section is drawn again only when what it shows changed (see CampaignScreen.kept)
    told: list[ft.Control] = []  # what just happened: beside "Now" on a wide screen, under it on a phone
    wiped = _singularity_events(last)
    if wiped:
        told.append(kept("singularity", wiped, lambda: tagged("klaw-singularity", section(
            "Singularity event: take these off the table",
            *[text(e.text, ft.TextThemeStyle.BODY_LARGE) for e in wiped]))))
    if last:
        told.append(kept("last", last, lambda: tagged("klaw-last", section("Just happened", *[text(e.text) for e in last]))))
    now = kept("now", (_table(s), _of_kinds(moves, NOW_MOVES)), lambda: _now(frame, s, moves))
    parts: list[ft.Control] = [ft.ResponsiveRow(
        [ft.Container(now, col={"xs": 12, "lg": 7}),
         *([ft.Column(told, spacing=GAP, col={"xs": 12, "lg": 5})] if told else [])],
        spacing=GAP, run_spacing=GAP, vertical_alignment=ft.CrossAxisAlignment.START)]
    if s.combat is not None or s.last_exchange is not None:
        parts.append(kept("combat", (s.combat, s.last_exchange, s.hosts, s.turn_no, last, _of_kinds(moves, NOW_MOVES)),
                          lambda: _combat(frame, s, last, moves)))
    # One column on a phone; on a wider screen two or three players (with their hosts) side by side.
    players = [_player(frame, s, p, moves) for p in range(len(s.players))]
    for player in players:
        player.col = {"xs": 12, "lg": 6, "xxl": 4}
    parts.append(ft.ResponsiveRow(players, spacing=GAP, run_spacing=GAP, vertical_alignment=ft.CrossAxisAlignment.START))
    return ft.Column(parts, spacing=GAP, horizontal_alignment=ft.CrossAxisAlignment.STRETCH)


# What each kept section reads of the moves (a hand tap changes the hand moves, not a host card's).
NOW_MOVES = frozenset({"deploy", "attack", "end_turn", "place_dice", "roll", "support"})
HOST_MOVES = frozenset({"adjust_life", "attach_totem", "add_item", "instant", "edit_host", "remove_totem"})


def _of_kinds(moves: list[Move], kinds: frozenset) -> tuple[Move, ...]:
    return tuple(m for m in moves if m.kind in kinds)


def _table(s: R.State) -> tuple:
    """What the turn section reads of the state: all of it but the hosts' life, items and conditions
    (outside a fight, where it shows both fighters whole)."""
    hosts = s.hosts if s.combat is not None else tuple(
        (h.id, h.owner, h.name, len(h.totems), h.protected_until, h.resting_until) for h in s.hosts)
    return (s.settings, s.players, hosts, s.turn_no, s.played, s.combat, s.lone_player, s.lone_since, s.winner,
            s.win_reason)


def _last_events(frame) -> list[Event]:
    if frame.loaded.cursor <= 0:
        return []
    rows = frame.history(1)
    return [Event.coerce(e) for e in rows[0].events] if rows else []


def _singularity_events(events: list[Event]) -> list[Event]:
    """A singularity event and what the table takes off because of it: the totems of every host,
    and the hosts that fell when their totems' life left them."""
    start = next((i for i, e in enumerate(events) if e.kind == "singularity_event"), None)
    if start is None:
        return []
    return [events[start]] + [e for e in events[start + 1:] if e.kind in ("totems_returned", "host_removed")]


def _now(frame, s: R.State, moves: list[Move]) -> ft.Control:
    """Whose turn, the round, the one obvious next action, the reminder, and what just happened."""
    guard = frame.app.guard
    me = R.current_player(s)
    name = s.players[me].name
    ph = R.phase(s)
    title = f"Round {R.round_no(s)}{ {'reveal': ' · Reveal', 'fortify': ' · Fortify'}.get(ph, '')} · {name}'s turn"
    rows: list[ft.Control] = []
    if s.winner is not None:
        title = f"{s.players[s.winner].name} wins"
        rows.append(text(R.outcome(s) or "", ft.TextThemeStyle.HEADLINE_SMALL, bold=True))
    elif s.combat is not None:
        c = s.combat
        rows.append(tagged("klaw-attacks-now", text(R.attacks_now(s), ft.TextThemeStyle.TITLE_MEDIUM,
                                                    bold=True)))
        rows.append(text(f"A fight is on: {R.find_host(s, c.attacker).name} against {R.find_host(s, c.defender).name}. "
                         "It goes on until a host falls; the roles swap after each exchange.", ft.TextThemeStyle.BODY_LARGE))
        accept = _find(moves, "place_dice", attack=None, defense=None)
        roll, support = _find(moves, "roll"), next((m for m in moves if m.kind == "support" and not m.ready), None)
        if accept is not None:
            rows.append(text("Place the item bonuses of the roll (below) first.", bold=True))
            rows.append(wide_button(accept.label, guard(lambda e: frame.dispatch(accept.action)), icon=ft.Icons.CHECK))
        if roll is not None:
            rows.append(tagged("klaw-roll", wide_button(roll.label, guard(lambda e: frame.dispatch(roll.action, pulse=True)),
                                                       icon=ft.Icons.CASINO)))
        if support is not None:
            rows.append(wide_button(support.label, guard(lambda e: support_dialog(frame)),
                                   icon=ft.Icons.DIRECTIONS_RUN, filled=False))
    else:
        rows.append(text(PHASE_HINT[ph], ft.TextThemeStyle.BODY_LARGE))
        rows += _turn_buttons(frame, s, moves)
        rows.append(text(REMINDER, ft.TextThemeStyle.BODY_SMALL, italic=True))
        if s.lone_player is not None and s.winner is None:
            rows.append(text(f"Only {s.players[s.lone_player].name} has hosts on the table: they win after one more "
                             "full round unless another player deploys a host.", bold=True))
    if s.settings.totem_goal:
        owned = ", ".join(f"{p.name} {R.totems_owned(s, i)}" for i, p in enumerate(s.players))
        rows.append(text(f"Totem goal {s.settings.totem_goal}: {owned}.", ft.TextThemeStyle.BODY_SMALL))
    return section("Now", tagged("klaw-turn", text(title, ft.TextThemeStyle.HEADLINE_SMALL, bold=True)),
                   *rows)


def _turn_buttons(frame, s: R.State, moves: list[Move]) -> list[ft.Control]:
    """The one obvious next action (deploy a first host, attack, or end the turn) and the others."""
    guard = frame.app.guard
    mine = R.hosts_of(s, R.current_player(s))
    deploy = _find(moves, "deploy")
    attacks = [m for m in moves if m.kind == "attack"]
    end, no_draw = _find(moves, "end_turn", draw=True), _find(moves, "end_turn", draw=False)
    can_attack = any(_open(m) and m.ready for m in attacks)
    rows: list[ft.Control] = []
    if s.played is not None:
        rows.append(text(f"{s.players[R.current_player(s)].name} has played this turn ({s.played}).",
                         bold=True))
    deploy_button = lambda filled: wide_button(deploy.label, guard(lambda e: deploy_dialog(frame)),  # noqa: E731
                                              icon=ft.Icons.PERSON_ADD, filled=filled)
    end_button = lambda filled: wide_button(end.label, guard(lambda e: frame.dispatch(end.action)),  # noqa: E731
                                           icon=ft.Icons.SKIP_NEXT, filled=filled)
    others: list[ft.Control] = []
    if _open(deploy) and not mine:
        rows.append(tagged("klaw-primary", deploy_button(True)))
        others.append(end_button(False))
    elif can_attack:
        rows.append(tagged("klaw-primary", wide_button("Attack…", guard(lambda e: attack_dialog(frame)),
                                                      icon=ft.Icons.FLASH_ON)))
        others.append(end_button(False))
    else:
        rows.append(tagged("klaw-primary", end_button(True)))
    if _open(deploy) and mine:
        others.insert(0, deploy_button(False))
    blocked = [m.why_not for m in attacks if m.why_not]
    if not can_attack and mine and blocked and R.play_refusal(s, "attack") is None:
        rows.append(text(f"No attack possible now: {blocked[0]}", italic=True))
    if no_draw is not None:
        others.append(tagged("klaw-no-draw", wide_button(
            no_draw.label, guard(lambda e: frame.dispatch(no_draw.action)), icon=ft.Icons.NOT_INTERESTED, filled=False)))
    if others:  # (big_button sets expand, which a wrapping Row can't hold: a column of full-width buttons)
        rows.append(ft.Column(others, spacing=8, horizontal_alignment=ft.CrossAxisAlignment.STRETCH))
    return rows


# --- combat ----------------------------------------------------------------------------------------


def _combat(frame, s: R.State, last: list[Event], moves: list[Move]) -> ft.Control:
    rows: list[ft.Control] = []
    c = s.combat
    if c is not None:
        att, dfn = R.find_host(s, c.attacker), R.find_host(s, c.defender)
        striker, target = R.exchange_roles(s)
        rows.append(ft.Row([_fighter(s, att, striker.id == att.id), _fighter(s, dfn, striker.id == dfn.id)], spacing=8,
                           vertical_alignment=ft.CrossAxisAlignment.START))
        odds = R.combat_odds(s, att.id, dfn.id)
        rows.append(tagged("klaw-odds", ft.Column([
            text(f"Chance from here: {win_chance_text(odds, att.name, dfn.name)}.",
                 ft.TextThemeStyle.BODY_LARGE, bold=True),
            *[text(line) for line in first_exchange_summary(odds.first_exchange, target.name, striker.name)],
        ], spacing=2)))
        if c.pending is not None:
            rows.append(_pending(frame, s))
        else:
            rows.append(_next_roll(s, striker))
    if s.last_exchange is not None:
        rows.append(_exchange_view(s, s.last_exchange, last))
    title = "Fight" if c is not None else "The fight is over"
    return tagged("klaw-combat", section(title, *rows))


def _next_roll(s: R.State, striker: R.Host) -> ft.Control:
    """What the next exchange rolls first, as the rules declare it: who rolls how many dice, and why
    (its odds are the first exchange's, above)."""
    chance = R.GAME.chance_for(s, R.Roll())
    shackled = (" Shackled: it strikes with fewer dice." if R.has_condition(striker, "shackled")
                and R.strike_dice(s, striker) < R.attack_dice(striker) else "")
    said = ("Neither side has dice: nothing can happen in an exchange." if chance is None else
            f"Next: {chance.who} rolls {chance.count} {chance.die.label} for {chance.why}. Each side's owner rolls "
            "its own dice. Roll with the button at the top.")
    return text(said + shackled, ft.TextThemeStyle.BODY_SMALL)


def _fighter(s: R.State, h: R.Host, striking: bool) -> ft.Control:
    """One side of the fight: whether it attacks or defends in the coming exchange, its life and dice."""
    role = "Attacks now" if striking else "Defends now"
    box = ft.Container(ft.Column([
        text(role, ft.TextThemeStyle.LABEL_LARGE, bold=True,
             color=ATTACK_COLOR if striking else DEFENSE_COLOR),
        text(h.name, ft.TextThemeStyle.TITLE_MEDIUM, bold=True),
        tagged(f"klaw-fight-life-{h.id}", ft.Text(f"{h.life}", size=34, weight=ft.FontWeight.BOLD)),
        text(f"of {R.full_life(h)} · {R.strike_dice(s, h)} att · {R.defense_dice(h)} def", ft.TextThemeStyle.BODY_SMALL),
    ], spacing=0), padding=10, border_radius=10,
        border=ft.Border.all(3 if striking else 1, ATTACK_COLOR if striking else ft.Colors.OUTLINE_VARIANT))
    side = tagged(f"klaw-fighter-{h.id}", box)
    side.expand = True  # the Row's child is the Semantics: it takes the half
    return side


OUTCOME_WORDS = {
    "hit": ("HIT", ft.Colors.GREEN_700),
    "tie": ("tie", ft.Colors.GREY_600),
    "block": ("BLOCK: hit back", ft.Colors.ORANGE_800),
    "uncontested attack": ("uncontested HIT", ft.Colors.GREEN_700),
    "uncontested defense": ("uncontested: hit back", ft.Colors.ORANGE_800),
}


def _exchange_view(s: R.State, ex: R.ExchangeRecord, last: list[Event]) -> ft.Control:
    names = {h.id: h.name for h in s.hosts}
    # A host that fell has left the table: its name is in the exchange's event.
    said = next((e.data for e in last if e.kind == "exchange"), {})
    striker = names.get(ex.striker) or said.get("striker_name") or "the striker"
    target = names.get(ex.target) or said.get("target_name") or "the struck host"
    rows = [
        text(f"Last exchange: {striker} attacked {target}", ft.TextThemeStyle.TITLE_SMALL, bold=True),
        rolled_dice(f"{striker} rolled (attack)", ex.attack_rolled, ATTACK_COLOR),
        rolled_dice(f"{target} rolled (defense)", ex.defense_rolled, DEFENSE_COLOR),
        text("Sorted high to low and paired:", ft.TextThemeStyle.BODY_SMALL),
    ]
    for i, outcome in enumerate(ex.outcomes):
        a = ex.attack_values[i] if i < len(ex.attack_values) else None
        d = ex.defense_values[i] if i < len(ex.defense_values) else None
        word, color = OUTCOME_WORDS.get(outcome, (outcome, ft.Colors.GREY_600))
        rows.append(ft.Row([
            die_square(a, ATTACK_COLOR), ft.Container(ft.Text(word, color=color, weight=ft.FontWeight.BOLD, size=16,
                                                              text_align=ft.TextAlign.CENTER),
                                                      expand=True, alignment=ft.Alignment.CENTER),
            die_square(d, DEFENSE_COLOR),
        ], vertical_alignment=ft.CrossAxisAlignment.CENTER))
    rows.append(tagged("klaw-exchange", text(f"{target} takes {ex.damage_to_target}, {striker} takes {ex.damage_to_striker}.",
                                             ft.TextThemeStyle.TITLE_MEDIUM, bold=True)))
    return ft.Container(ft.Column(rows, spacing=6), padding=10, border_radius=10,
                        border=ft.Border.all(1, ft.Colors.OUTLINE_VARIANT))


def _sorted_rolls(p: R.PendingRoll) -> tuple[list[int], list[int]]:
    """Each side's rolled dice as the placement numbers them: wild die applied, high to low."""
    return (sorted(cb.apply_wild(p.attack_rolled)[0], reverse=True),
            sorted(cb.apply_wild(p.defense_rolled)[0], reverse=True))


def _pending(frame, s: R.State) -> ft.Control:
    p = s.combat.pending
    a_sorted, d_sorted = _sorted_rolls(p)

    def describe(side: str, values, bonuses, placement) -> list[ft.Control]:
        out = []
        for (plus, n), pos in zip(bonuses, placement):
            on = ", ".join(f"{values[i]} (#{i + 1})" for i in pos) or "no die"
            out.append(text(f"{side} item {cb.Bonus(plus, n)}: suggested on {on}."))
        return out

    pa = tuple(tuple(x) for x in p.suggested_attack)
    pd = tuple(tuple(x) for x in p.suggested_defense)
    ab = [cb.Bonus(x, y) for x, y in p.attack_bonuses]
    db = [cb.Bonus(x, y) for x, y in p.defense_bonuses]
    preview = cb.resolve(p.attack_rolled, p.defense_rolled, ab, db, pa, pd)
    striker, struck = (h.name for h in R.exchange_roles(s))
    return ft.Container(ft.Column([
        text("Item bonuses to place", ft.TextThemeStyle.TITLE_SMALL, bold=True),
        rolled_dice(f"{striker} rolled (attack)", p.attack_rolled, ATTACK_COLOR),
        rolled_dice(f"{struck} rolled (defense)", p.defense_rolled, DEFENSE_COLOR),
        text(f"Attack rolled {', '.join(map(str, a_sorted)) or 'none'} · defense {', '.join(map(str, d_sorted)) or 'none'} "
             "(sorted, #1 = highest)."),
        *describe("Attack", a_sorted, p.attack_bonuses, pa),
        *describe("Defense", d_sorted, p.defense_bonuses, pd),
        text(f"With the suggestion (most hits): attack {', '.join(map(str, preview.attack_values))} vs defense "
             f"{', '.join(map(str, preview.defense_values))}: {struck} −{preview.damage_to_defender}, "
             f"{striker} −{preview.damage_to_attacker}.", bold=True),
        wide_button("Accept the suggested placement", frame.app.guard(lambda e: frame.dispatch(R.PlaceDice())),
                   icon=ft.Icons.CHECK),
        wide_button("Place them differently…", frame.app.guard(lambda e: placement_dialog(frame)), filled=False),
    ], spacing=6), padding=10, border_radius=10, border=ft.Border.all(2, ft.Colors.PRIMARY))


def placement_dialog(frame) -> None:
    s: R.State = frame.loaded.game_state
    p = s.combat.pending
    a_sorted, d_sorted = _sorted_rolls(p)
    fields: list[tuple[str, ft.TextField]] = []
    controls: list[ft.Control] = [
        text(f"Attack dice, high to low: {', '.join(f'#{i + 1}={v}' for i, v in enumerate(a_sorted)) or 'none'}"),
        text(f"Defense dice, high to low: {', '.join(f'#{i + 1}={v}' for i, v in enumerate(d_sorted)) or 'none'}"),
        text("For each item, type the die numbers (#) it goes on, e.g. “2 3”.", ft.TextThemeStyle.BODY_SMALL),
    ]
    for side, bonuses, sugg in (("attack", p.attack_bonuses, p.suggested_attack), ("defense", p.defense_bonuses, p.suggested_defense)):
        for (plus, n), pos in zip(bonuses, sugg):
            f = ft.TextField(label=f"{side.capitalize()} item +{plus} to {n}: dice #", value=" ".join(str(i + 1) for i in pos),
                             keyboard_type=ft.KeyboardType.NUMBER)
            fields.append((side, f))
            controls.append(f)

    def apply():
        out: dict[str, list[list[int]]] = {"attack": [], "defense": []}
        for side, f in fields:
            parts = (f.value or "").replace(",", " ").split()
            if not all(x.isdigit() for x in parts):
                raise InputError("Die numbers are whole numbers like “2 3”.")
            out[side].append([int(x) - 1 for x in parts])
        frame.dispatch(R.PlaceDice(attack=out["attack"], defense=out["defense"]))

    _dialog(frame, "Place the item bonuses", controls, [("Use this placement", apply, None)])


CARD_START = {"attack": 2, "defense": 2, "life": 9, "check_bonus": 0, "free_totems": 0}  # a form's first values


def _card_fields(specs: dict[str, FieldSpec], *, prefix: str = "", lowest: bool = False) -> dict[str, ft.TextField]:
    """The number fields of a host card, labelled and ranged by the card model (`lowest`: filled
    with the smallest card, as a support host usually is)."""
    label = lambda k: prefix + specs[k].label[0].lower() + specs[k].label[1:] if prefix else ""  # noqa: E731
    return {k: _num_field(specs[k], specs[k].low if lowest and specs[k].low is not None else start, label=label(k))
            for k, start in CARD_START.items()}


def _read_card(name: ft.TextField, fields: dict[str, ft.TextField], specs: dict[str, FieldSpec]) -> dict:
    return {"name": name.value or "", **{k: _read(f, specs[k], 0 if k in ("check_bonus", "free_totems") else None)
                                         for k, f in fields.items()}}


def support_dialog(frame) -> None:
    s: R.State = frame.loaded.game_state
    h = R.find_host(s, s.combat.striker)
    specs, card_specs = _specs(R.Support), _specs(R.HostCard)
    heal = _num_field(specs["heal"], 0, note=f"life now {h.life} of {R.full_life(h)}")
    flee_row, flee = switch_row("Flee the fight (both survive; the fleeing host is Protected a full round)", False)
    hand_row, from_hand = switch_row("Play an item or action card from the hand", False)
    item = ft.Dropdown(label="Use an item on this host (then discarded)", value="none",
                       options=[ft.DropdownOption(key="none", text="No item")] +
                               [ft.DropdownOption(key=str(i), text=it.name) for i, it in enumerate(h.items)])

    # A support host played from the hand: its card's numbers, asked for only when switched on.
    sh_name = _name_field(card_specs["name"], label="Support host name")
    sh = _card_fields(card_specs, prefix="Support ", lowest=True)
    sh_fields = ft.Column([text("It joins the table as a support host (items only, Protected a full round)."),
                           sh_name, ft.Row([sh["attack"], sh["defense"]], spacing=8), sh["life"]], spacing=8,
                          visible=False)

    def toggle_support(e):
        sh_fields.visible = bool(sh_on.value)
        sh_fields.update()

    sh_row, sh_on = switch_row("Play a support host from the hand", False, toggle_support)

    def apply():
        use = None if item.value in (None, "none") else int(item.value)
        card = None
        if sh_on.value:
            card = _read_card(sh_name, {k: sh[k] for k in ("attack", "defense", "life")}, card_specs)
        frame.dispatch(R.build(R.Support, heal=_read(heal, specs["heal"], 0), flee=bool(flee.value), use_item=use,
                               from_hand=bool(from_hand.value), support_host=card))

    _dialog(frame, f"{h.name}: support instead of rolling", [
        text("Instead of rolling this exchange, the striking side uses an item or a support host: heal, flee, or both. "
             "If it doesn't flee, the other host strikes next."),
        heal, flee_row, hand_row, *([item] if h.items else []), sh_row, sh_fields,
    ], [("Do it", apply, None)])


def attack_dialog(frame) -> None:
    """Pick the attacker, then a target: each target shows why it is refused, or the odds."""
    s: R.State = frame.loaded.game_state
    attacks = [m for m in R.GAME.legal_moves(s) if m.kind == "attack" and m.ready]
    mine = R.hosts_of(s, R.current_player(s))
    able = [h for h in mine if any(_open(m) and m.action.attacker == h.id for m in attacks)]
    chosen = {"id": (able or mine)[0].id}
    targets = ft.Column(spacing=GAP)
    form = FormDialog(frame.app, "Attack", error_id="klaw-form-error", modal=False)

    def draw(update: bool = True) -> None:
        a = R.find_host(s, chosen["id"])
        rows: list[ft.Control] = []
        for m in (m for m in attacks if m.action.attacker == a.id):
            d = R.find_host(s, m.action.defender)
            head = text(_host_line(s, d), ft.TextThemeStyle.BODY_LARGE, bold=True)
            if m.why_not:
                rows.append(ft.Container(ft.Column([head, text(f"Can't: {m.why_not}", color=ft.Colors.ERROR)], spacing=2),
                                         padding=8, border_radius=8, border=ft.Border.all(1, ft.Colors.OUTLINE_VARIANT)))
                continue
            odds = R.combat_odds(s, a.id, d.id)
            rows.append(ft.Container(ft.Column([
                head,
                text(f"Win chance: {win_chance_text(odds)}.", bold=True),
                *[text(x, ft.TextThemeStyle.BODY_SMALL) for x in first_exchange_summary(odds.first_exchange, d.name, a.name)],
                form.button(f"Attack {d.name}", lambda m=m: frame.dispatch(m.action), icon=ft.Icons.FLASH_ON),
            ], spacing=4), padding=8, border_radius=8, border=ft.Border.all(2, ft.Colors.PRIMARY)))
        if not rows:
            rows.append(text("No opposing host on the table."))
        targets.controls = rows
        if update:
            targets.update()

    def picked(e):
        chosen["id"] = int(group.value)
        draw()

    group = ft.RadioGroup(value=str(chosen["id"]), on_change=picked, content=ft.Column([
        ft.Container(ft.Radio(value=str(h.id), label=f"{h.name}: {R.strike_dice(s, h)} attack dice, life {h.life}"
                              + ("" if h in able else " (can't attack now)")), height=TAP)
        for h in mine], spacing=0))
    draw(update=False)
    form.fields.controls = [text("Attacker", ft.TextThemeStyle.TITLE_SMALL), group,
                            text("Target", ft.TextThemeStyle.TITLE_SMALL), targets]
    form.show()


# --- players and hosts ---------------------------------------------------------------------------


def _player(frame, s: R.State, p: int, moves: list[Move]) -> ft.Control:
    pl = s.players[p]
    now = p == R.current_player(s) and s.winner is None
    hand = frame.kept(f"hand-{p}", (pl, R.totems_owned(s, p), _of_kinds(moves, {"set_hand"})),
                      lambda: _hand(frame, s, p, moves))
    cards = [_host_card(frame, s, h, moves) for h in R.hosts_of(s, p)] or [text("No host on the table.", italic=True)]
    title = f"{pl.name}{' · playing now' if now else ''}"
    return tagged(f"klaw-player-{p}", section(title, hand, *cards))


def _hand(frame, s: R.State, p: int, moves: list[Move]) -> ft.Control:
    """A player's hand (a stepper) and the totems they own."""
    pl = s.players[p]
    hand_row = track("Hand", pl.hand, identifier=f"klaw-hand-{p}", name=f"{pl.name} hand",
                     unit=f"cards (limit {R.HAND_LIMIT})", sizes=frame.app.sizes,
                     on_minus=_step(frame, _find(moves, "set_hand", player=p, hand=pl.hand - 1)),
                     on_plus=_step(frame, _find(moves, "set_hand", player=p, hand=pl.hand + 1)))
    totem_row = ft.Row([
        text(f"Totems owned: {R.totems_owned(s, p)} ({pl.totems_in_hand} of them in hand)", expand=True),
        icon_button(ft.Icons.EDIT_NOTE, f"{pl.name} totem cards in hand", frame.app.guard(lambda e: hand_dialog(frame, p))),
    ], vertical_alignment=ft.CrossAxisAlignment.CENTER)
    return ft.Column([hand_row, totem_row], spacing=GAP, horizontal_alignment=ft.CrossAxisAlignment.STRETCH)


def hand_dialog(frame, p: int) -> None:
    s: R.State = frame.loaded.game_state
    pl = s.players[p]
    specs = _specs(R.SetHand)
    hand = _num_field(specs["hand"], pl.hand)
    totems = _num_field(specs["totems_in_hand"], pl.totems_in_hand, note="for a totem-count goal")
    _dialog(frame, f"{pl.name}'s hand", [hand, totems], [("Save", lambda: frame.dispatch(R.build(
        R.SetHand, player=p, hand=_read(hand, specs["hand"]), totems_in_hand=_read(totems, specs["totems_in_hand"]))), None)])


def _host_card(frame, s: R.State, h: R.Host, moves: list[Move]) -> ft.Control:
    """A host: its name, markers and dice, its life (a stepper), its totems and items, what may be done
    to it. A life tap draws the life part again; the rest is kept (CampaignScreen.kept)."""
    names = tuple(x.name for x in s.players)  # a marker says whose turn it ends on
    others = _of_kinds(moves, HOST_MOVES - {"adjust_life"})
    unlived = h.model_copy(update={"life": 0})
    head = frame.kept(f"host-{h.id}-head", (unlived, s.turn_no, names), lambda: _host_head(s, h))
    life = frame.kept(f"host-{h.id}-life", (h.name, h.life, R.full_life(h), _of_kinds(moves, {"adjust_life"})),
                      lambda: _host_life(frame, h, moves))
    tail = frame.kept(f"host-{h.id}-tail", (unlived, others), lambda: _host_tail(frame, h, moves))
    totem, item = _find(moves, "attach_totem", host=h.id), _find(moves, "add_item", host=h.id)
    border = ft.Colors.PRIMARY if totem is not None or item is not None else ft.Colors.OUTLINE_VARIANT
    return tagged(f"klaw-host-{h.id}", ft.Container(ft.Column([head, life, tail], spacing=8), padding=12,
                                                     border_radius=12, border=ft.Border.all(2, border),
                                                     bgcolor=ft.Colors.SURFACE_CONTAINER_LOW))


def _host_head(s: R.State, h: R.Host) -> ft.Control:
    badges: list[ft.Control] = []
    if h.support:
        badges.append(_badge("Support host", ft.Colors.BLUE_GREY_600))
    if R.is_protected(s, h):
        badges.append(_badge(f"Protected until {R.marker_end(s, h.protected_until)}", ft.Colors.TEAL_700, ft.Icons.SHIELD))
    if R.is_resting(s, h):
        badges.append(_badge(f"Resting until {R.marker_end(s, h.resting_until)}", ft.Colors.INDIGO_600, ft.Icons.HOTEL))
    for c in h.conditions:
        left = "until cured" if c.ticks_left is None else f"{c.ticks_left} turn{'s' if c.ticks_left != 1 else ''} left"
        color = {"poisoned": ft.Colors.GREEN_800, "burning": ft.Colors.DEEP_ORANGE_700}.get(c.kind, ft.Colors.PURPLE_700)
        badges.append(_badge(f"{c.kind.capitalize()} · {left}", color, ft.Icons.WARNING_AMBER))
    t_att, t_def = R.totem_dice(h)
    dice_note = (f"base {h.attack} att / {h.defense} def" + (f", totems {t_att:+d} / {t_def:+d}" if h.totems else "")
                 + f", max {R.MAX_DICE}")
    rows: list[ft.Control] = [
        ft.Row([text(h.name, ft.TextThemeStyle.TITLE_LARGE, bold=True, expand=True)]),
    ]
    if badges:
        rows.append(tagged(f"klaw-badges-{h.id}", ft.Row(badges, wrap=True, spacing=6, run_spacing=6)))
    rows += [
        tagged(f"klaw-attack-{h.id}", dice_icons(R.attack_dice(h), ATTACK_COLOR, "Attack")),
        tagged(f"klaw-defense-{h.id}", dice_icons(R.defense_dice(h), DEFENSE_COLOR, "Defense")),
        text(dice_note, ft.TextThemeStyle.BODY_SMALL),
    ]
    return ft.Column(rows, spacing=8)


def _host_life(frame, h: R.Host, moves: list[Move]) -> ft.Control:
    full = R.full_life(h)
    bar = ft.ProgressBar(value=max(0.0, min(1.0, h.life / full)) if full else 0, bar_height=12, border_radius=6,
                         color=ft.Colors.GREEN_600 if h.life * 2 > full else ft.Colors.RED_600)
    return track("", h.life, identifier=f"klaw-life-{h.id}", name=f"{h.name} life", unit=f"/ {full} life", under=bar,
                 sizes=frame.app.sizes, on_minus=_step(frame, _find(moves, "adjust_life", host=h.id, delta=-1)),
                 on_plus=_step(frame, _find(moves, "adjust_life", host=h.id, delta=1)))


def _host_tail(frame, h: R.Host, moves: list[Move]) -> ft.Control:
    """A host's totems, items and talents, and the buttons for what may be done to it."""
    guard = frame.app.guard
    rows: list[ft.Control] = []
    if h.totems:
        rows.append(tagged(f"klaw-totems-{h.id}", text(
            f"Totems ({len(h.totems)}): " + ", ".join(t.name for t in h.totems), ft.TextThemeStyle.TITLE_SMALL)))
        for i, t in enumerate(h.totems):
            line: list[ft.Control] = [text(_totem_text(t), expand=True)]
            remove = _find(moves, "remove_totem", host=h.id, totem=i)
            if _open(remove):
                line.append(icon_button(ft.Icons.CLOSE, remove.label, guard(lambda e, m=remove: frame.dispatch(m.action))))
            rows.append(ft.Row(line, vertical_alignment=ft.CrossAxisAlignment.CENTER))
    if h.items:
        rows.append(tagged(f"klaw-items-{h.id}", ft.Column(
            [text(f"Items ({len(h.items)} of {R.MAX_ITEMS})", ft.TextThemeStyle.TITLE_SMALL),
             *[text(_item_text(it)) for it in h.items]], spacing=4)))
    if h.check_bonus or h.free_totems:
        rows.append(text(f"Talents: singularity check {h.check_bonus:+d}, {h.free_totems} totems without a check",
                         ft.TextThemeStyle.BODY_SMALL))
    acts: list[ft.Control] = []

    def small(words, icon, move, fn):
        return wide_button(words, guard(fn), icon=icon, filled=False, disabled=not _open(move), tooltip=move.why_not)

    totem, item = _find(moves, "attach_totem", host=h.id), _find(moves, "add_item", host=h.id)
    instant, edit = _find(moves, "instant", target=h.id), _find(moves, "edit_host", host=h.id)
    if totem is not None:
        acts.append(small("Totem", ft.Icons.PETS, totem, lambda e: totem_dialog(frame, h.id)))
    if item is not None:
        acts.append(small("Item", ft.Icons.SHIELD_MOON, item, lambda e: item_dialog(frame, h.id)))
    if _open(instant):
        acts.append(small("Instant", ft.Icons.BOLT, instant, lambda e: instant_dialog(frame, h.id)))
    if edit is not None:
        acts.append(small("Edit", ft.Icons.EDIT, edit, lambda e: edit_dialog(frame, h.id)))
    rows.append(ft.Row(acts, wrap=True, spacing=8, run_spacing=8))
    return ft.Column(rows, spacing=8)


# --- forms ---------------------------------------------------------------------------------------


def deploy_dialog(frame) -> None:
    s: R.State = frame.loaded.game_state
    specs = _specs(R.HostCard)
    name = _name_field(specs["name"])
    card = _card_fields(specs)
    support_row, support = switch_row(_specs(R.Deploy)["support"].label, False)

    def apply():
        frame.dispatch(R.build(R.Deploy, card=_read_card(name, card, specs), support=bool(support.value)))

    _dialog(frame, f"{s.players[R.current_player(s)].name} deploys a host", [
        text("Copy the host card's numbers. It is Protected for one full round (it can't be attacked)."),
        name, ft.Row([card["attack"], card["defense"]], spacing=8), card["life"],
        ft.Row([card["check_bonus"], card["free_totems"]], spacing=8), support_row,
    ], [("Deploy", apply, ft.Icons.PERSON_ADD)])


def _check_text(s: R.State, h: R.Host) -> str:
    """The singularity check attaching one more totem makes, as the rules declare it (with its odds)."""
    count = len(h.totems) + 1
    carries = f"{h.name} will carry {count} totem{'s' if count != 1 else ''}"
    chance = R.singularity_chance(s, h, count)
    if chance is None:
        return f"{carries}: no singularity check (talent: up to {h.free_totems} without one)."
    odds = "; ".join(f"{o.label} {o.percent}" for o in chance.outcomes)
    return (f"{carries}. Singularity check: {chance.who} rolls {chance.count} {chance.die.label} for {chance.why}: "
            f"{odds}. On a fail EVERY totem leaves EVERY host on the table.")


def totem_dialog(frame, host_id: int) -> None:
    s: R.State = frame.loaded.game_state
    h = R.find_host(s, host_id)
    specs = _specs(R.Totem)
    name = _name_field(specs["name"])
    mods = {k: _num_field(specs[k], 0) for k in ("attack", "defense", "life")}
    pair = ft.TextField(label=specs["pair"].label)
    dormant_row, dormant = switch_row(specs["dormant"].label, False)
    hand_row, from_hand = switch_row(_specs(R.AttachTotem)["from_hand"].label, True)
    held = ", ".join(t.name for t in h.totems)

    def apply():
        totem = {"name": name.value or "", **{k: _read(f, specs[k], 0) for k, f in mods.items()},
                 "pair": (pair.value or "").strip() or None, "dormant": bool(dormant.value)}
        frame.dispatch(R.build(R.AttachTotem, host=h.id, totem=totem, from_hand=bool(from_hand.value)), pulse=True)

    _dialog(frame, f"Attach a totem to {h.name}", [
        tagged("klaw-check", text(_check_text(s, h), bold=True)),
        text(f"Already carries: {held}. A host can't carry both cards of one binomial totem." if held else
             "A host can't carry both cards of one binomial totem.", ft.TextThemeStyle.BODY_SMALL),
        name, ft.Row(list(mods.values()), spacing=8), pair, dormant_row, hand_row,
    ], [("Attach", apply, ft.Icons.PETS)])


def item_dialog(frame, host_id: int) -> None:
    s: R.State = frame.loaded.game_state
    h = R.find_host(s, host_id)
    specs = _specs(R.Item)
    name = _name_field(specs["name"])
    nums = {k: _num_field(specs[k], 0) for k in ("attack_plus", "attack_dice", "defense_plus", "defense_dice", "life",
                                                   "check_bonus")}
    vessel_row, vessel = switch_row(specs["vessel"].label, False)

    def make(replace: Optional[int]) -> Callable[[], None]:
        def apply():
            item = {"name": name.value or "", **{k: _read(f, specs[k], 0) for k, f in nums.items()},
                    "vessel": bool(vessel.value)}
            frame.dispatch(R.build(R.AddItem, host=h.id, item=item, replace=replace))
        return apply

    if len(h.items) >= R.MAX_ITEMS:
        note = text(f"{h.name} already carries {R.MAX_ITEMS} items, the most a host can: choose the one this replaces "
                    "(it goes to the discard pile).", bold=True)
        actions = [(f"Replace {it.name}", make(i), None) for i, it in enumerate(h.items)]
    else:
        note = text(f"Items: {len(h.items)} of {R.MAX_ITEMS}. “+3 to two dice”: Attack + 3 on attack dice 2.")
        actions = [("Add item", make(None), ft.Icons.ADD)]
    _dialog(frame, f"Item for {h.name}", [note, name, ft.Row([nums["attack_plus"], nums["attack_dice"]], spacing=8),
                                          ft.Row([nums["defense_plus"], nums["defense_dice"]], spacing=8),
                                          ft.Row([nums["life"], nums["check_bonus"]], spacing=8), vessel_row], actions)


def instant_dialog(frame, host_id: int) -> None:
    s: R.State = frame.loaded.game_state
    h = R.find_host(s, host_id)
    specs = _specs(R.Instant)
    damage, heal = _num_field(specs["damage"], 0), _num_field(specs["heal"], 0)
    # Radios, not a drop-down: one tap each, all choices visible at arm's length.
    cond = ft.RadioGroup(value="none", content=ft.Row([
        ft.Container(ft.Radio(value=c, label=c.capitalize() if c != "none" else "No condition"), height=TAP)
        for c in ("none", *R.CONDITIONS, "protected")], wrap=True, spacing=4, run_spacing=0))
    duration = _num_field(specs["duration"], "")
    cure = ft.Dropdown(label="Cure a condition", value="none", options=[
        ft.DropdownOption(key="none", text="None"), *[ft.DropdownOption(key=c.kind, text=c.kind.capitalize()) for c in h.conditions]])
    item = ft.Dropdown(label="Remove an item (to the discard pile)", value="none", options=[
        ft.DropdownOption(key="none", text="None"), *[ft.DropdownOption(key=str(i), text=it.name) for i, it in enumerate(h.items)]])
    totem = ft.Dropdown(label="Make a totem dormant / wake it", value="none", options=[
        ft.DropdownOption(key="none", text="None"), *[ft.DropdownOption(key=str(i), text=f"{t.name} ({'wake' if t.dormant else 'make dormant'})")
                                                      for i, t in enumerate(h.totems)]])

    def apply():
        ti = None if totem.value in (None, "none") else int(totem.value)
        frame.dispatch(R.build(
            R.Instant, target=h.id, damage=_read(damage, specs["damage"], 0), heal=_read(heal, specs["heal"], 0),
            condition=None if cond.value in (None, "none") else cond.value,
            duration=None if not (duration.value or "").strip() else _read(duration, specs["duration"]),
            cure=None if cure.value in (None, "none") else cure.value,
            remove_item=None if item.value in (None, "none") else int(item.value),
            totem=ti, totem_dormant=None if ti is None else not h.totems[ti].dormant))

    _dialog(frame, f"Instant action on {h.name}", [
        text(f"{_host_line(s, h)}. Poisoned: −{R.POISON_DAMAGE} a turn until cured. Burning: −{R.BURNING_DAMAGE} a turn "
             f"for {R.BURNING_TICKS} turns."),
        ft.Row([damage, heal], spacing=8), text("Give a condition", ft.TextThemeStyle.TITLE_SMALL), cond, duration,
        *([cure] if h.conditions else []), *([item] if h.items else []), *([totem] if h.totems else []),
    ], [("Apply", apply, ft.Icons.BOLT)])


def edit_dialog(frame, host_id: int) -> None:
    s: R.State = frame.loaded.game_state
    h = R.find_host(s, host_id)
    specs = _specs(R.EditHost)
    name = _name_field(specs["name"], h.name)
    nums = {k: _num_field(specs[k], getattr(h, k)) for k in ("attack", "defense", "base_life", "check_bonus", "free_totems")}

    def apply():
        changes = {k: v for k, f in nums.items() if (v := _read(f, specs[k])) != getattr(h, k)}
        if (name.value or "").strip() != h.name:
            changes["name"] = name.value or ""
        frame.dispatch(R.build(R.EditHost, host=h.id, **changes))

    _dialog(frame, f"Correct {h.name}", [
        text("Fix a host card's printed numbers or talents. Current life changes with − / + on the card."),
        name, ft.Row([nums["attack"], nums["defense"]], spacing=8), nums["base_life"],
        ft.Row([nums["check_bonus"], nums["free_totems"]], spacing=8),
    ], [("Save", apply, ft.Icons.SAVE)])


# --- setup ---------------------------------------------------------------------------------------


class SetupForm:
    """Players by name in turn order, an optional totem goal, the deck-size guide."""

    def __init__(self, app):
        self.app = app
        specs = _specs(R.Settings)
        self.names: list[ft.TextField] = [self._name_field(i, f"Player {i + 1}") for i in range(R.MIN_PLAYERS)]
        self.rows = ft.Column(spacing=8)
        self.guide = tagged("klaw-deck-guide", ft.Text(R.deck_guide(R.MIN_PLAYERS), theme_style=ft.TextThemeStyle.BODY_MEDIUM,
                                                       weight=ft.FontWeight.BOLD))
        self.add = wide_button("Add a player", self._add, icon=ft.Icons.PERSON_ADD, filled=False)
        self.goal_on = ft.Switch(label="Also win by owning a number of totems", value=False, on_change=self._goal)
        self.goal = ft.TextField(label="Totem goal", value="6", helper=f"{specs['totem_goal'].hint} totems owned (on hosts and in hand)",
                                 keyboard_type=ft.KeyboardType.NUMBER, visible=False)
        self.tick = ft.RadioGroup(value="owner_turn", content=ft.Column([
            ft.Container(ft.Radio(value="owner_turn", label="Poison/burning tick on the owner's turn (book)"), height=TAP),
            ft.Container(ft.Radio(value="every_turn", label="… on every player's turn"), height=TAP),
        ], spacing=0))
        self.shackled = ft.TextField(label="Attack dice of a shackled host striking back",
                                     value=str(R.Settings().shackled_max_dice),
                                     helper=specs["shackled_max_dice"].hint, keyboard_type=ft.KeyboardType.NUMBER)
        self._draw_rows()

    def _name_field(self, i: int, value: str = "") -> ft.TextField:
        return ft.TextField(label=f"Player {i + 1} name", value=value, max_length=30, expand=True)

    def _draw_rows(self) -> None:
        rows = []
        for i, f in enumerate(self.names):
            f.label = f"Player {i + 1} name"
            remove = icon_button(ft.Icons.DELETE_OUTLINE, f"Remove player {i + 1}", lambda e, i=i: self._remove(i),
                                 disabled=len(self.names) <= R.MIN_PLAYERS)
            rows.append(ft.Row([f, remove], vertical_alignment=ft.CrossAxisAlignment.CENTER))
        self.rows.controls = rows
        self.guide.content.value = R.deck_guide(len(self.names))
        self.add.disabled = len(self.names) >= R.MAX_PLAYERS

    def _refresh(self) -> None:
        self._draw_rows()
        for c in (self.rows, self.guide, self.add):
            c.update()

    def _add(self, e) -> None:
        if len(self.names) < R.MAX_PLAYERS:
            self.names.append(self._name_field(len(self.names), f"Player {len(self.names) + 1}"))
            self._refresh()

    def _remove(self, i: int) -> None:
        if len(self.names) > R.MIN_PLAYERS:
            self.names.pop(i)
            self._refresh()

    def _goal(self, e) -> None:
        self.goal.visible = bool(self.goal_on.value)
        self.goal.update()

    def controls(self) -> list[ft.Control]:
        return [
            ft.Text("Players, in turn order", theme_style=ft.TextThemeStyle.TITLE_SMALL),
            self.rows, self.add, self.guide,
            ft.Text(f"Each player starts with {R.STARTING_HOSTS} hosts and {R.STARTING_ENCOUNTER_CARDS} encounter cards "
                    f"in hand ({R.STARTING_HAND}).",
                    theme_style=ft.TextThemeStyle.BODY_SMALL),
            self.goal_on, self.goal, self.tick, self.shackled,
        ]

    def collect(self) -> dict:
        goal = None
        if self.goal_on.value:
            goal = whole_number(self.goal, "Totem goal")
        return {
            "players": [f.value or "" for f in self.names],
            "totem_goal": goal,
            "condition_tick": self.tick.value or "owner_turn",
            "shackled_max_dice": whole_number(self.shackled, "Shackled attack dice", R.Settings().shackled_max_dice),
        }
