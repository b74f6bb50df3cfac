"""KLAW: Were-Wars at the table: whose turn it is and the next action on top, the fight (odds, each
exchange as hit / tie / block pairs), then each player's battle fan of hosts as cards.

The view decides nothing a rule decides. Its buttons, their labels and disabled reasons come from
the game's moves (`GAME.legal_moves`); the rolls and their odds from the chance nodes
(`GAME.chance_for`, `R.singularity_chance`); the labels and ranges of every form field from the
models (`field_specs`); the fight odds from the odds module; what just happened from the typed
events in the history. Forms build their action with `R.build` (a value out of its range is refused
with the range) and dispatch it as it is: at a table rolling physical dice the frame asks for each
die the rules reach, the singularity check after a fight too.

Every word is said in the phone's language at draw time: the view's own through `_()`/`ngettext`,
the rules' (events, move labels, refusals, roll reasons, odds) as the Msgs they are (`render`, or
`text`, which renders one). Names the table typed (players, hosts, totems, items) stay as typed."""

from __future__ import annotations

from typing import Any, Callable, Optional

import flet as ft

from companion.games.base import Event, FieldSpec, InputError, Move, field_specs
from companion.games.klaw import combat as cb
from companion.games.klaw import rules as R
from companion.games.klaw.odds import first_exchange_summary, win_chance_text
from companion.i18n import N_, _, fmt_percent, ngettext, render
from companion.games.klaw.kept_cards import KLAW_HOST, KLAW_ITEM, KLAW_TOTEM
from companion.remembered import Kind, cards as known_cards, remember
from companion.ui.forms import whole_number
from companion.ui.remembered import RememberedScreen, pick_list
from companion.ui.style import GAP, TAP
from companion.ui.widgets import (FormDialog, badge, icon_button, radio_row, scroll_keyed, section, switch_row, tagged, text, track,
                                  wide_button)

# Drawn afresh from the state on every redraw (no control kept across redraws; dialogs live apart):
# the frame reconciles it with what the phone shows, so its controls keep their identity.
RECONCILED = True
WIDE = True  # a desktop puts the players (and their hosts) side by side
LARGE_TEXT = 1.3  # from this text size on, the two fighters stand one above the other

ATTACK_COLOR = ft.Colors.RED_700
DEFENSE_COLOR = ft.Colors.BLUE_700
WILD_COLOR = ft.Colors.AMBER_800  # the wild die is the golden one
NONE = "none"  # a choice's value for "none" (never shown)
INSTANT_CONDITIONS = (NONE, *R.CONDITIONS, "protected")  # the instant form's radio values
OWNER_TURN, EVERY_TURN = "owner_turn", "every_turn"  # Settings.condition_tick's values
PHASE_HINT = {  # said with _() where shown
    "reveal": N_("Round 1, the starting round: each player reveals one host (deploy it) or passes."),
    "fortify": N_("Round 2, the fortify round: add a totem or an item to a host, or pass. No attacks yet."),
    "play": N_("Regular play: play one card (deploy, totem, item, instant action, attack) or pass, then end the turn."),
}


def _reminder() -> str:
    return _("At the end of the turn draw 1 card (not after a combat). Hand limit {limit}: over it, discard down to "
             "{limit}.", limit=R.HAND_LIMIT)


# --- small helpers -------------------------------------------------------------------------------


def _specs(model) -> dict[str, FieldSpec]:
    """A model's fields (labels and ranges), by name."""
    return {f.name: f for f in field_specs(model)}


def _range_text(spec: FieldSpec) -> str:
    """A field's range as a hint: '1–3', or '−3 to +3' when it reaches below zero."""
    if spec.low is not None and spec.high is not None and spec.low < 0:
        return _("−{low} to +{high}", low=-spec.low, high=spec.high)
    return spec.hint


def _label(spec: FieldSpec) -> str:
    """A model field's label (its description, marked N_() in the rules) in the phone's language."""
    return _(spec.label)


def _num_field(spec: FieldSpec, value: int | str = "", *, label: str = "", note: str = "",
               width: Optional[int] = None) -> ft.TextField:
    """A number field for one model field: its label and its range from the model."""
    helper = ", ".join(x for x in (note, _range_text(spec)) if x)
    return ft.TextField(label=label or _label(spec), value=str(value), helper=helper or None, helper_max_lines=3,
                        width=width, keyboard_type=ft.KeyboardType.NUMBER, expand=width is None)


FORM_WIDTH = 288  # a dialog's fields on a 360 px phone


def _side_by_side(frame, fields: list[ft.TextField]) -> ft.Control:
    """Number fields in one row when each one's label fits its share of a phone's dialog at this
    phone's text size; else one under another (a label too long for its field breaks mid-word and
    runs over the field: German labels are long, and the largest text size triples a word)."""
    share = FORM_WIDTH / len(fields) - 40  # a field's own padding, and the gap
    if all(frame.app.sizes.fits(f.label or "", share, "body_large") for f in fields):
        return ft.Row(fields, spacing=8, vertical_alignment=ft.CrossAxisAlignment.START)
    for f in fields:
        f.expand = False  # in a scrolling column, a field that expands would ask for endless height
    return ft.Column(fields, spacing=8, horizontal_alignment=ft.CrossAxisAlignment.STRETCH)


def _name_field(spec: FieldSpec, value: str = "", *, label: str = "") -> ft.TextField:
    return ft.TextField(label=label or _label(spec), value=value, max_length=R.NAME_LENGTH)


def _read(field: ft.TextField, spec: FieldSpec, default: Optional[int] = None) -> int:
    return whole_number(field, _label(spec), default)


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


def _known_dialog(frame, title: str, kind: Kind, describe: Callable[[Any], str], play: Callable[[dict], None], *,
                  verb: str, controls: list[ft.Control], actions: list[tuple],
                  lead: Optional[list[ft.Control]] = None) -> FormDialog:
    """_dialog led by the cards of `kind` this table entered before (companion.remembered, in any
    campaign): a tap on one plays it (`play(its data)`) as the form's button would, refusals shown in the
    dialog. What the form's buttons send is remembered by its card's name (`_remembering`)."""
    form = FormDialog(frame.app, title, [], error_id="klaw-form-error", modal=False)
    store = getattr(frame.app, "store", None)
    cards = known_cards(store, kind) if hasattr(store, "catalog_kept") else []
    known = pick_list(kind, cards, describe, lambda card: form.acting(lambda: play(card.data))(), verb=verb)
    def share(e) -> None:
        form.close()
        frame.app.go("/g/klaw/cards")

    head = [text(_("Entered before: one tap plays it."), bold=True), known,
            ft.TextButton(content=_("Share or forget these cards"), icon=ft.Icons.SHARE, on_click=share),
            text(_("…or a new card:"), ft.TextThemeStyle.BODY_SMALL)] if known is not None else []
    form.fields.controls = list(lead or []) + head + list(controls)  # `lead`: what a tap on either way does
    form.actions(*[form.button(words, fn, icon=icon) for words, fn, icon in actions])
    form.show()
    return form


def _remembering(frame, kind: Kind, data: dict) -> None:
    """Keep a card just played from a form by its name, for one tap next time."""
    store = getattr(frame.app, "store", None)
    if hasattr(store, "catalog_kept"):
        remember(store, kind, data)


def _host_card_text(card: dict) -> str:
    return _("{host} · {attack} att / {defense} def · life {life}", host=card["name"], attack=card["attack"],
             defense=card["defense"], life=card["life"])


def _side_label_width(sizes) -> int:
    """The width the dice rows' labels share ("Attack", "Defense"), so their dice line up: wide enough
    for the longer one in this phone's language and text size (German "Verteidigung" at the largest
    text is three times "Attack" at normal size; a fixed width broke it mid-word)."""
    longest = max(len(_("Attack")), len(_("Defense")))
    return max(70, round(longest * sizes(14) * 0.62) + 4)


def dice_icons(n: int, color, label: str, width: int = 70) -> ft.Control:
    """A side's dice as die icons (max 6), with the count for readers at arm's length; the icons wrap
    under the label when the row is full."""
    icons = [ft.Icon(ft.Icons.CASINO, color=color, size=26) for _i in range(n)] or [text(_("no dice"), italic=True)]
    return ft.Row([ft.Container(text(label, ft.TextThemeStyle.TITLE_SMALL), width=width),
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
                ft.Text(_("wild"), size=12, weight=ft.FontWeight.BOLD, color=WILD_COLOR),
            ], spacing=0, tight=True, horizontal_alignment=ft.CrossAxisAlignment.CENTER)))
        else:
            dice.append(die_square(v, color, size=size))
    rows = [text(label, ft.TextThemeStyle.TITLE_SMALL),
            ft.Row(dice or [text(_("no dice"), italic=True)], wrap=True, spacing=6, run_spacing=6,
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
    return _("{host} ({player}) · life {life}/{full} · {attack} attack, {defense} defense", host=h.name,
             player=R.owner_name(s, h), life=h.life, full=R.full_life(h), attack=R.attack_dice(h),
             defense=R.defense_dice(h))


def _item_text(it: R.Item) -> str:
    bits = []
    attack, defense = it.attack_bonus(), it.defense_bonus()
    if attack:
        bits.append(ngettext("+{plus} to {n} attack die", "+{plus} to {n} attack dice", attack.dice, plus=attack.plus))
    if defense:
        bits.append(ngettext("+{plus} to {n} defense die", "+{plus} to {n} defense dice", defense.dice,
                             plus=defense.plus))
    if it.life:
        bits.append(_("+{life} life", life=it.life))
    if it.check_bonus:
        bits.append(_("check {bonus}", bonus=f"{it.check_bonus:+d}"))
    if it.vessel:
        bits.append(_("vessel"))
    return f"{it.name}" + (f" ({', '.join(bits)})" if bits else "")


def _totem_text(t: R.Totem) -> str:
    mods = dict(totem=t.name, attack=f"{t.attack:+d}", defense=f"{t.defense:+d}", life=f"{t.life:+d}")
    if t.pair and t.pair.strip().casefold() != t.name.strip().casefold():
        said = _("{totem} ({attack} att, {defense} def, {life} life, pair {pair})", pair=t.pair, **mods)
    else:
        said = _("{totem} ({attack} att, {defense} def, {life} life)", **mods)
    return _("{totem} · dormant", totem=said) if t.dormant else said


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
            _("Singularity event: take these off the table"),
            *[text(e.text, ft.TextThemeStyle.BODY_LARGE) for e in wiped]))))
    if last:
        told.append(kept("last", last, lambda: tagged("klaw-last", section(_("Just happened"),
                                                                            *[text(e.text) for e in last]))))
    now = scroll_keyed(NOW_KEY, kept("now", (_table(s), _of_kinds(moves, NOW_MOVES)), lambda: _now(frame, s, moves)))
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


NOW_KEY = "klaw-now"  # the turn's section: the one obvious next action (a fight's roll, End turn), at the top
# A host card's own corrections (life ±1, an edit, the hand count): tapped again and again where they are.
IN_PLACE_EVENTS = frozenset({"life", "host_edited", "hand"})


def next_key(frame) -> Optional[str]:
    """What the turn waits for after this phone's action (the frame scrolls to it): the "Now" section,
    with the next action's button (the next exchange's roll, End turn); None after a correction made
    on a host card or the hand (the screen stays there) or once the game is over (its end card)."""
    s: R.State = frame.loaded.game_state
    last = _last_events(frame)
    if s.winner is not None or (last and last[0].kind in IN_PLACE_EVENTS):
        return None
    return NOW_KEY


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
    said = dict(round=R.round_no(s), player=name)
    title = (_("Round {round} · Reveal · {player}'s turn", **said) if ph == "reveal" else
             _("Round {round} · Fortify · {player}'s turn", **said) if ph == "fortify" else
             _("Round {round} · {player}'s turn", **said))
    rows: list[ft.Control] = []
    if s.winner is not None:
        title = _("{player} wins", player=s.players[s.winner].name)
        rows.append(text(R.outcome(s) or "", ft.TextThemeStyle.HEADLINE_SMALL, bold=True))
    elif s.combat is not None:
        c = s.combat
        rows.append(tagged("klaw-attacks-now", text(R.attacks_now(s), ft.TextThemeStyle.TITLE_MEDIUM,
                                                    bold=True)))
        rows.append(text(_("A fight is on: {attacker} against {defender}. It goes on until a host falls; the roles swap "
                           "after each exchange.", attacker=R.find_host(s, c.attacker).name,
                           defender=R.find_host(s, c.defender).name), ft.TextThemeStyle.BODY_LARGE))
        accept = _find(moves, "place_dice", attack=None, defense=None)
        roll, support = _find(moves, "roll"), next((m for m in moves if m.kind == "support" and not m.ready), None)
        if accept is not None:
            rows.append(text(_("Place the item bonuses of the roll (below) first."), bold=True))
            rows.append(wide_button(render(accept.label), guard(lambda e: frame.dispatch(accept.action)),
                                    icon=ft.Icons.CHECK))
        if roll is not None:
            rows.append(tagged("klaw-roll", wide_button(render(roll.label),
                                                       guard(lambda e: frame.dispatch(roll.action, pulse=True)),
                                                       icon=ft.Icons.CASINO)))
        if support is not None:
            rows.append(wide_button(render(support.label), guard(lambda e: support_dialog(frame)),
                                   icon=ft.Icons.DIRECTIONS_RUN, filled=False))
    else:
        rows.append(text(_(PHASE_HINT[ph]), ft.TextThemeStyle.BODY_LARGE))
        rows += _turn_buttons(frame, s, moves)
        rows.append(text(_reminder(), ft.TextThemeStyle.BODY_SMALL, italic=True))
        if s.lone_player is not None and s.winner is None:
            rows.append(text(_("Only {player} has hosts on the table: they win after one more full round unless another "
                               "player deploys a host.", player=s.players[s.lone_player].name), bold=True))
    if s.settings.totem_goal:
        owned = ", ".join(f"{p.name} {R.totems_owned(s, i)}" for i, p in enumerate(s.players))
        rows.append(text(_("Totem goal {goal}: {owned}.", goal=s.settings.totem_goal, owned=owned),
                         ft.TextThemeStyle.BODY_SMALL))
    return section(_("Now"), tagged("klaw-turn", text(title, ft.TextThemeStyle.HEADLINE_SMALL, bold=True)),
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
        rows.append(text(_("{player} has played this turn ({card}).", player=s.players[R.current_player(s)].name,
                           card=R.played_words(s.played)), bold=True))
    deploy_button = lambda filled: wide_button(render(deploy.label), guard(lambda e: deploy_dialog(frame)),  # noqa: E731
                                              icon=ft.Icons.PERSON_ADD, filled=filled)
    end_button = lambda filled: wide_button(render(end.label), guard(lambda e: frame.dispatch(end.action)),  # noqa: E731
                                           icon=ft.Icons.SKIP_NEXT, filled=filled)
    others: list[ft.Control] = []
    if _open(deploy) and not mine:
        rows.append(tagged("klaw-primary", deploy_button(True)))
        others.append(end_button(False))
    elif can_attack:
        rows.append(tagged("klaw-primary", wide_button(_("Attack…"), guard(lambda e: attack_dialog(frame)),
                                                      icon=ft.Icons.FLASH_ON)))
        others.append(end_button(False))
    else:
        rows.append(tagged("klaw-primary", end_button(True)))
    if _open(deploy) and mine:
        others.insert(0, deploy_button(False))
    blocked = [m.why_not for m in attacks if m.why_not]
    if not can_attack and mine and blocked and R.play_refusal(s, "attack") is None:
        rows.append(text(_("No attack possible now: {reason}", reason=blocked[0]), italic=True))
    if no_draw is not None:
        others.append(tagged("klaw-no-draw", wide_button(
            render(no_draw.label), guard(lambda e: frame.dispatch(no_draw.action)), icon=ft.Icons.NOT_INTERESTED, filled=False)))
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
        fighters = [_fighter(s, att, striker.id == att.id), _fighter(s, dfn, striker.id == dfn.id)]
        if frame.app.sizes.scale >= LARGE_TEXT:  # side by side, a host's name would break mid-word
            rows.append(ft.Column(fighters, spacing=8, horizontal_alignment=ft.CrossAxisAlignment.STRETCH))
        else:
            for side in fighters:
                side.expand = True  # the Row's child is the Semantics: it takes the half
            rows.append(ft.Row(fighters, spacing=8, vertical_alignment=ft.CrossAxisAlignment.START))
        odds = R.combat_odds(s, att.id, dfn.id)
        rows.append(tagged("klaw-odds", ft.Column([
            text(_("Chance from here: {chances}.", chances=win_chance_text(odds, att.name, dfn.name)),
                 ft.TextThemeStyle.BODY_LARGE, bold=True),
            *[text(line) for line in first_exchange_summary(odds.first_exchange, target.name, striker.name)],
        ], spacing=2)))
        if c.pending is not None:
            rows.append(_pending(frame, s))
        else:
            rows.append(_next_roll(s, striker))
    if s.last_exchange is not None:
        rows.append(_exchange_view(s, s.last_exchange, last))
    title = _("Fight") if c is not None else _("The fight is over")
    return tagged("klaw-combat", section(title, *rows))


def _next_roll(s: R.State, striker: R.Host) -> ft.Control:
    """What the next exchange rolls first, as the rules declare it: who rolls how many dice, and why
    (its odds are the first exchange's, above)."""
    chance = R.GAME.chance_for(s, R.Roll())
    said = [_("Neither side has dice: nothing can happen in an exchange.") if chance is None else
            _("Next: {who} rolls {dice} {die} for {why}. Each side's owner rolls its own dice. Roll with the button at "
              "the top.", who=chance.who, dice=chance.count, die=chance.die.label, why=chance.why)]
    if R.has_condition(striker, "shackled") and R.strike_dice(s, striker) < R.attack_dice(striker):
        said.append(_("Shackled: it attacks with fewer dice."))
    return text(" ".join(said), ft.TextThemeStyle.BODY_SMALL)


def _fighter(s: R.State, h: R.Host, striking: bool) -> ft.Control:
    """One side of the fight: whether it attacks or defends in the coming exchange, its life and dice."""
    role = _("Attacks now") if striking else _("Defends now")
    box = ft.Container(ft.Column([
        text(role, ft.TextThemeStyle.LABEL_LARGE, bold=True,
             color=ATTACK_COLOR if striking else DEFENSE_COLOR),
        text(h.name, ft.TextThemeStyle.TITLE_MEDIUM, bold=True),
        tagged(f"klaw-fight-life-{h.id}", ft.Text(f"{h.life}", size=34, weight=ft.FontWeight.BOLD)),
        text(_("of {full} · {attack} att · {defense} def", full=R.full_life(h), attack=R.strike_dice(s, h),
               defense=R.defense_dice(h)), ft.TextThemeStyle.BODY_SMALL),
    ], spacing=0), padding=10, border_radius=10,
        border=ft.Border.all(3 if striking else 1, ATTACK_COLOR if striking else ft.Colors.OUTLINE_VARIANT))
    return tagged(f"klaw-fighter-{h.id}", box)


OUTCOME_WORDS = {  # said with _() where shown
    cb.HIT: (N_("HIT"), ft.Colors.GREEN_700),
    cb.TIE: (N_("tie"), ft.Colors.GREY_600),
    cb.BLOCK: (N_("BLOCK: hit back"), ft.Colors.ORANGE_800),
    cb.UNCONTESTED_ATTACK: (N_("uncontested HIT"), ft.Colors.GREEN_700),
    cb.UNCONTESTED_DEFENSE: (N_("uncontested: hit back"), ft.Colors.ORANGE_800),
}


def _exchange_view(s: R.State, ex: R.ExchangeRecord, last: list[Event]) -> ft.Control:
    names = {h.id: h.name for h in s.hosts}
    # A host that fell has left the table: its name is in the exchange's event.
    said = next((e.data for e in last if e.kind == "exchange"), {})
    striker = names.get(ex.striker) or said.get("striker_name") or _("the striker")
    target = names.get(ex.target) or said.get("target_name") or _("the struck host")
    rows = [
        text(_("Last exchange: {striker} attacked {target}", striker=striker, target=target), ft.TextThemeStyle.TITLE_SMALL,
             bold=True),
        rolled_dice(_("{host} rolled (attack)", host=striker), ex.attack_rolled, ATTACK_COLOR),
        rolled_dice(_("{host} rolled (defense)", host=target), ex.defense_rolled, DEFENSE_COLOR),
        text(_("Sorted high to low and paired:"), ft.TextThemeStyle.BODY_SMALL),
    ]
    for i, outcome in enumerate(ex.outcomes):
        a = ex.attack_values[i] if i < len(ex.attack_values) else None
        d = ex.defense_values[i] if i < len(ex.defense_values) else None
        word, color = OUTCOME_WORDS.get(outcome, (outcome, ft.Colors.GREY_600))
        rows.append(ft.Row([
            die_square(a, ATTACK_COLOR), ft.Container(ft.Text(_(word), color=color, weight=ft.FontWeight.BOLD, size=16,
                                                              text_align=ft.TextAlign.CENTER),
                                                      expand=True, alignment=ft.Alignment.CENTER),
            die_square(d, DEFENSE_COLOR),
        ], vertical_alignment=ft.CrossAxisAlignment.CENTER))
    rows.append(tagged("klaw-exchange", text(_("{target} takes {damage}, {striker} takes {back}.", target=target,
                                               damage=ex.damage_to_target, striker=striker, back=ex.damage_to_striker),
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

    def describe(attacking: bool, values, bonuses, placement) -> list[ft.Control]:
        out = []
        for (plus, n), pos in zip(bonuses, placement):
            said = dict(bonus=cb.Bonus(plus, n).words(), dice=", ".join(f"{values[i]} (#{i + 1})" for i in pos) or _("no die"))
            out.append(text(_("Attack item {bonus}: suggested on {dice}.", **said) if attacking else
                            _("Defense item {bonus}: suggested on {dice}.", **said)))
        return out

    pa = tuple(tuple(x) for x in p.suggested_attack)
    pd = tuple(tuple(x) for x in p.suggested_defense)
    ab = [cb.Bonus(x, y) for x, y in p.attack_bonuses]
    db = [cb.Bonus(x, y) for x, y in p.defense_bonuses]
    preview = cb.resolve(p.attack_rolled, p.defense_rolled, ab, db, pa, pd)
    striker, struck = (h.name for h in R.exchange_roles(s))
    return ft.Container(ft.Column([
        text(_("Item bonuses to place"), ft.TextThemeStyle.TITLE_SMALL, bold=True),
        rolled_dice(_("{host} rolled (attack)", host=striker), p.attack_rolled, ATTACK_COLOR),
        rolled_dice(_("{host} rolled (defense)", host=struck), p.defense_rolled, DEFENSE_COLOR),
        text(_("Attack rolled {attack} · defense {defense} (sorted, #1 = highest).",
               attack=", ".join(map(str, a_sorted)) or _("none"), defense=", ".join(map(str, d_sorted)) or _("none"))),
        *describe(True, a_sorted, p.attack_bonuses, pa),
        *describe(False, d_sorted, p.defense_bonuses, pd),
        text(_("With the suggestion (most hits): attack {attack} vs defense {defense}: {struck} −{to_struck}, {striker} "
               "−{to_striker}.", attack=", ".join(map(str, preview.attack_values)),
               defense=", ".join(map(str, preview.defense_values)), struck=struck, to_struck=preview.damage_to_defender,
               striker=striker, to_striker=preview.damage_to_attacker), bold=True),
        wide_button(_("Accept the suggested placement"), frame.app.guard(lambda e: frame.dispatch(R.PlaceDice())),
                   icon=ft.Icons.CHECK),
        wide_button(_("Place them differently…"), frame.app.guard(lambda e: placement_dialog(frame)), filled=False),
    ], spacing=6), padding=10, border_radius=10, border=ft.Border.all(2, ft.Colors.PRIMARY))


def placement_dialog(frame) -> None:
    s: R.State = frame.loaded.game_state
    p = s.combat.pending
    a_sorted, d_sorted = _sorted_rolls(p)
    fields: list[tuple[str, ft.TextField]] = []
    controls: list[ft.Control] = [
        text(_("Attack dice, high to low: {dice}",
               dice=", ".join(f"#{i + 1}={v}" for i, v in enumerate(a_sorted)) or _("none"))),
        text(_("Defense dice, high to low: {dice}",
               dice=", ".join(f"#{i + 1}={v}" for i, v in enumerate(d_sorted)) or _("none"))),
        text(_("For each item, type the die numbers (#) it goes on, e.g. “2 3”."), ft.TextThemeStyle.BODY_SMALL),
    ]
    for side, bonuses, sugg in (("attack", p.attack_bonuses, p.suggested_attack), ("defense", p.defense_bonuses, p.suggested_defense)):
        for (plus, n), pos in zip(bonuses, sugg):
            label = (_("Attack item +{plus} to {n}: dice #", plus=plus, n=n) if side == "attack" else
                     _("Defense item +{plus} to {n}: dice #", plus=plus, n=n))
            f = ft.TextField(label=label, value=" ".join(str(i + 1) for i in pos), keyboard_type=ft.KeyboardType.NUMBER)
            fields.append((side, f))
            controls.append(f)

    def apply():
        out: dict[str, list[list[int]]] = {"attack": [], "defense": []}
        for side, f in fields:
            parts = (f.value or "").replace(",", " ").split()
            if not all(x.isdigit() for x in parts):
                raise InputError(_("Die numbers are whole numbers like “2 3”."))
            out[side].append([int(x) - 1 for x in parts])
        frame.dispatch(R.PlaceDice(attack=out["attack"], defense=out["defense"]))

    _dialog(frame, _("Place the item bonuses"), controls, [(_("Use this placement"), apply, None)])


CARD_START = {"attack": 2, "defense": 2, "life": 9, "check_bonus": 0, "free_totems": 0}  # a form's first values
# A support host's card fields (said with _() where shown): the card model's labels, for the support host.
SUPPORT_LABELS = {"attack": N_("Support attack dice"), "defense": N_("Support defense dice"), "life": N_("Support life"),
                  "check_bonus": N_("Support check bonus (talent)"),
                  "free_totems": N_("Support free totems (talent, no check)")}


def _card_fields(specs: dict[str, FieldSpec], *, support: bool = False, lowest: bool = False) -> dict[str, ft.TextField]:
    """The number fields of a host card, labelled and ranged by the card model (`support`: labelled as
    the support host's; `lowest`: filled with the smallest card, as a support host usually is)."""
    return {k: _num_field(specs[k], specs[k].low if lowest and specs[k].low is not None else start,
                          label=_(SUPPORT_LABELS[k]) if support else "")
            for k, start in CARD_START.items()}


def _read_card(name: ft.TextField, fields: dict[str, ft.TextField], specs: dict[str, FieldSpec]) -> dict:
    return {"name": name.value or "", **{k: _read(f, specs[k], 0 if k in ("check_bonus", "free_totems") else None)
                                         for k, f in fields.items()}}


def support_dialog(frame) -> None:
    s: R.State = frame.loaded.game_state
    h = R.find_host(s, s.combat.striker)
    specs, card_specs = _specs(R.Support), _specs(R.HostCard)
    heal = _num_field(specs["heal"], 0, note=_("life now {life} of {full}", life=h.life, full=R.full_life(h)))
    flee_row, flee = switch_row(_("Flee the fight (both survive; the fleeing host is Protected a full round)"), False)
    hand_row, from_hand = switch_row(_("Play an item or action card from the hand"), False)
    item = ft.Dropdown(label=_("Use an item on this host (then discarded)"), value=NONE,
                       options=[ft.DropdownOption(key="none", text=_("No item"))] +
                               [ft.DropdownOption(key=str(i), text=it.name) for i, it in enumerate(h.items)])

    # A support host played from the hand: its card's numbers, asked for only when switched on.
    sh_name = _name_field(card_specs["name"], label=_("Support host name"))
    sh = _card_fields(card_specs, support=True, lowest=True)
    sh_fields = ft.Column([text(_("It joins the table as a support host (items only, Protected a full round).")),
                           sh_name, _side_by_side(frame, [sh["attack"], sh["defense"]]), sh["life"]], spacing=8,
                          visible=False)

    def toggle_support(e):
        sh_fields.visible = bool(sh_on.value)
        sh_fields.update()

    sh_row, sh_on = switch_row(_("Play a support host from the hand"), False, toggle_support)

    def apply():
        use = None if item.value in (None, "none") else int(item.value)
        card = None
        if sh_on.value:
            card = _read_card(sh_name, {k: sh[k] for k in ("attack", "defense", "life")}, card_specs)
        frame.dispatch(R.build(R.Support, heal=_read(heal, specs["heal"], 0), flee=bool(flee.value), use_item=use,
                               from_hand=bool(from_hand.value), support_host=card))

    _dialog(frame, _("{host}: support instead of rolling", host=h.name), [
        text(_("Instead of rolling this exchange, the attacking side uses an item or a support host: heal, flee, or both. "
               "If it doesn't flee, the other host attacks next.")),
        heal, flee_row, hand_row, *([item] if h.items else []), sh_row, sh_fields,
    ], [(_("Do it"), apply, None)])


def attack_dialog(frame) -> None:
    """Pick the attacker, then a target: each target shows why it is refused, or the odds."""
    s: R.State = frame.loaded.game_state
    attacks = [m for m in R.GAME.legal_moves(s) if m.kind == "attack" and m.ready]
    mine = R.hosts_of(s, R.current_player(s))
    able = [h for h in mine if any(_open(m) and m.action.attacker == h.id for m in attacks)]
    chosen = {"id": (able or mine)[0].id}
    targets = ft.Column(spacing=GAP)
    form = FormDialog(frame.app, _("Attack"), error_id="klaw-form-error", modal=False)

    def draw(update: bool = True) -> None:
        a = R.find_host(s, chosen["id"])
        rows: list[ft.Control] = []
        for m in (m for m in attacks if m.action.attacker == a.id):
            d = R.find_host(s, m.action.defender)
            head = text(_host_line(s, d), ft.TextThemeStyle.BODY_LARGE, bold=True)
            if m.why_not:
                rows.append(ft.Container(ft.Column([head, text(_("Can't: {reason}", reason=m.why_not), color=ft.Colors.ERROR)],
                                                   spacing=2),
                                         padding=8, border_radius=8, border=ft.Border.all(1, ft.Colors.OUTLINE_VARIANT)))
                continue
            odds = R.combat_odds(s, a.id, d.id)
            rows.append(ft.Container(ft.Column([
                head,
                text(_("Win chance: {chances}.", chances=win_chance_text(odds)), bold=True),
                *[text(x, ft.TextThemeStyle.BODY_SMALL) for x in first_exchange_summary(odds.first_exchange, d.name, a.name)],
                form.button(_("Attack {host}", host=d.name), lambda m=m: frame.dispatch(m.action), icon=ft.Icons.FLASH_ON),
            ], spacing=4), padding=8, border_radius=8, border=ft.Border.all(2, ft.Colors.PRIMARY)))
        if not rows:
            rows.append(text(_("No opposing host on the table.")))
        targets.controls = rows
        if update:
            targets.update()

    def picked(e):
        chosen["id"] = int(group.value)
        draw()

    def pick(value: str) -> None:  # a tap on an attacker's words, as on its radio
        if value != group.value:
            group.value = value
            group.update()
            picked(None)

    def attacker(h: R.Host) -> str:
        n = R.strike_dice(s, h)
        if h in able:
            return ngettext("{host}: {n} attack die, life {life}", "{host}: {n} attack dice, life {life}", n,
                            host=h.name, life=h.life)
        return ngettext("{host}: {n} attack die, life {life} (can't attack now)",
                        "{host}: {n} attack dice, life {life} (can't attack now)", n, host=h.name, life=h.life)

    group = ft.RadioGroup(value=str(chosen["id"]), on_change=picked, content=ft.Column([
        radio_row(str(h.id), attacker(h), pick) for h in mine], spacing=0))
    draw(update=False)
    form.fields.controls = [text(_("Attacker"), ft.TextThemeStyle.TITLE_SMALL), group,
                            text(_("Target"), ft.TextThemeStyle.TITLE_SMALL), targets]
    form.show()


# --- players and hosts ---------------------------------------------------------------------------


def _player(frame, s: R.State, p: int, moves: list[Move]) -> ft.Control:
    pl = s.players[p]
    now = p == R.current_player(s) and s.winner is None
    hand = frame.kept(f"hand-{p}", (pl, R.totems_owned(s, p), _of_kinds(moves, {"set_hand"})),
                      lambda: _hand(frame, s, p, moves))
    cards = [_host_card(frame, s, h, moves) for h in R.hosts_of(s, p)] or [text(_("No host on the table."), italic=True)]
    title = _("{player} · playing now", player=pl.name) if now else pl.name
    return tagged(f"klaw-player-{p}", section(title, hand, *cards))


def _hand(frame, s: R.State, p: int, moves: list[Move]) -> ft.Control:
    """A player's hand (a stepper) and the totems they own."""
    pl = s.players[p]
    hand_row = track(_("Hand"), pl.hand, identifier=f"klaw-hand-{p}", name=_("{player} hand", player=pl.name),
                     unit=_("cards (limit {limit})", limit=R.HAND_LIMIT), sizes=frame.app.sizes,
                     on_minus=_step(frame, _find(moves, "set_hand", player=p, hand=pl.hand - 1)),
                     on_plus=_step(frame, _find(moves, "set_hand", player=p, hand=pl.hand + 1)))
    totem_row = ft.Row([
        text(_("Totems owned: {owned} ({in_hand} of them in hand)", owned=R.totems_owned(s, p), in_hand=pl.totems_in_hand),
             expand=True),
        icon_button(ft.Icons.EDIT_NOTE, _("{player} totem cards in hand", player=pl.name),
                    frame.app.guard(lambda e: hand_dialog(frame, p))),
    ], vertical_alignment=ft.CrossAxisAlignment.CENTER)
    return ft.Column([hand_row, totem_row], spacing=GAP, horizontal_alignment=ft.CrossAxisAlignment.STRETCH)


def hand_dialog(frame, p: int) -> None:
    s: R.State = frame.loaded.game_state
    pl = s.players[p]
    specs = _specs(R.SetHand)
    hand = _num_field(specs["hand"], pl.hand)
    totems = _num_field(specs["totems_in_hand"], pl.totems_in_hand, note=_("for a totem-count goal"))
    _dialog(frame, _("{player}'s hand", player=pl.name), [hand, totems], [(_("Save"), lambda: frame.dispatch(R.build(
        R.SetHand, player=p, hand=_read(hand, specs["hand"]), totems_in_hand=_read(totems, specs["totems_in_hand"]))), None)])


def _host_card(frame, s: R.State, h: R.Host, moves: list[Move]) -> ft.Control:
    """A host: its name, markers and dice, its life (a stepper), its totems and items, what may be done
    to it. A life tap draws the life part again; the rest is kept (CampaignScreen.kept)."""
    names = tuple(x.name for x in s.players)  # a marker says whose turn it ends on
    others = _of_kinds(moves, HOST_MOVES - {"adjust_life"})
    unlived = h.model_copy(update={"life": 0})
    head = frame.kept(f"host-{h.id}-head", (unlived, s.turn_no, names), lambda: _host_head(s, h, frame.app.sizes))
    life = frame.kept(f"host-{h.id}-life", (h.name, h.life, R.full_life(h), _of_kinds(moves, {"adjust_life"})),
                      lambda: _host_life(frame, h, moves))
    tail = frame.kept(f"host-{h.id}-tail", (unlived, others), lambda: _host_tail(frame, h, moves))
    totem, item = _find(moves, "attach_totem", host=h.id), _find(moves, "add_item", host=h.id)
    border = ft.Colors.PRIMARY if totem is not None or item is not None else ft.Colors.OUTLINE_VARIANT
    return tagged(f"klaw-host-{h.id}", ft.Container(ft.Column([head, life, tail], spacing=8), padding=12,
                                                     border_radius=12, border=ft.Border.all(2, border),
                                                     bgcolor=ft.Colors.SURFACE_CONTAINER_LOW))


def _host_head(s: R.State, h: R.Host, sizes) -> ft.Control:
    badges: list[ft.Control] = []
    if h.support:
        badges.append(badge(_("Support host"), ft.Colors.BLUE_GREY_600))
    if R.is_protected(s, h):
        badges.append(badge(_("Protected until {when}", when=R.marker_end(s, h.protected_until)), ft.Colors.TEAL_700,
                             ft.Icons.SHIELD))
    if R.is_resting(s, h):
        badges.append(badge(_("Resting until {when}", when=R.marker_end(s, h.resting_until)), ft.Colors.INDIGO_600,
                             ft.Icons.HOTEL))
    for c in h.conditions:
        left = _("until cured") if c.ticks_left is None else ngettext("{n} turn left", "{n} turns left", c.ticks_left)
        color = {"poisoned": ft.Colors.GREEN_800, "burning": ft.Colors.DEEP_ORANGE_700}.get(c.kind, ft.Colors.PURPLE_700)
        badges.append(badge(_("{condition} · {left}", condition=R.CONDITION_NAMES[c.kind], left=left), color,
                             ft.Icons.WARNING_AMBER))
    t_att, t_def = R.totem_dice(h)
    dice_note = (_("base {attack} att / {defense} def, totems {totem_attack} / {totem_defense}, max {most}",
                   attack=h.attack, defense=h.defense, totem_attack=f"{t_att:+d}", totem_defense=f"{t_def:+d}",
                   most=R.MAX_DICE) if h.totems else
                 _("base {attack} att / {defense} def, max {most}", attack=h.attack, defense=h.defense, most=R.MAX_DICE))
    rows: list[ft.Control] = [
        ft.Row([text(h.name, ft.TextThemeStyle.TITLE_LARGE, bold=True, expand=True)]),
    ]
    if badges:
        rows.append(tagged(f"klaw-badges-{h.id}", ft.Row(badges, wrap=True, spacing=6, run_spacing=6)))
    rows += [
        tagged(f"klaw-attack-{h.id}", dice_icons(R.attack_dice(h), ATTACK_COLOR, _("Attack"), _side_label_width(sizes))),
        tagged(f"klaw-defense-{h.id}", dice_icons(R.defense_dice(h), DEFENSE_COLOR, _("Defense"), _side_label_width(sizes))),
        text(dice_note, ft.TextThemeStyle.BODY_SMALL),
    ]
    return ft.Column(rows, spacing=8)


def _host_life(frame, h: R.Host, moves: list[Move]) -> ft.Control:
    full = R.full_life(h)
    bar = ft.ProgressBar(value=max(0.0, min(1.0, h.life / full)) if full else 0, bar_height=12, border_radius=6,
                         color=ft.Colors.GREEN_600 if h.life * 2 > full else ft.Colors.RED_600)
    return track("", h.life, identifier=f"klaw-life-{h.id}", name=_("{host} life", host=h.name),
                 unit=_("/ {full} life", full=full), under=bar,
                 sizes=frame.app.sizes, on_minus=_step(frame, _find(moves, "adjust_life", host=h.id, delta=-1)),
                 on_plus=_step(frame, _find(moves, "adjust_life", host=h.id, delta=1)))


def _host_tail(frame, h: R.Host, moves: list[Move]) -> ft.Control:
    """A host's totems, items and talents, and the buttons for what may be done to it."""
    guard = frame.app.guard
    rows: list[ft.Control] = []
    if h.totems:
        rows.append(tagged(f"klaw-totems-{h.id}", text(
            _("Totems ({n}): {names}", n=len(h.totems), names=", ".join(t.name for t in h.totems)),
            ft.TextThemeStyle.TITLE_SMALL)))
        for i, t in enumerate(h.totems):
            line: list[ft.Control] = [text(_totem_text(t), expand=True)]
            remove = _find(moves, "remove_totem", host=h.id, totem=i)
            if _open(remove):
                line.append(icon_button(ft.Icons.CLOSE, render(remove.label),
                                        guard(lambda e, m=remove: frame.dispatch(m.action))))
            rows.append(ft.Row(line, vertical_alignment=ft.CrossAxisAlignment.CENTER))
    if h.items:
        rows.append(tagged(f"klaw-items-{h.id}", ft.Column(
            [text(_("Items ({n} of {most})", n=len(h.items), most=R.MAX_ITEMS), ft.TextThemeStyle.TITLE_SMALL),
             *[text(_item_text(it)) for it in h.items]], spacing=4)))
    if h.check_bonus or h.free_totems:
        rows.append(text(_("Talents: singularity check {bonus}, {free} totems without a check", bonus=f"{h.check_bonus:+d}",
                           free=h.free_totems), ft.TextThemeStyle.BODY_SMALL))
    acts: list[ft.Control] = []

    def small(words, icon, move, fn):
        return wide_button(words, guard(fn), icon=icon, filled=False, disabled=not _open(move),
                           tooltip=None if move.why_not is None else render(move.why_not))

    totem, item = _find(moves, "attach_totem", host=h.id), _find(moves, "add_item", host=h.id)
    instant, edit = _find(moves, "instant", target=h.id), _find(moves, "edit_host", host=h.id)
    if totem is not None:
        acts.append(small(_("Totem"), ft.Icons.PETS, totem, lambda e: totem_dialog(frame, h.id)))
    if item is not None:
        acts.append(small(_("Item"), ft.Icons.SHIELD_MOON, item, lambda e: item_dialog(frame, h.id)))
    if _open(instant):
        acts.append(small(_("Instant"), ft.Icons.BOLT, instant, lambda e: instant_dialog(frame, h.id)))
    if edit is not None:
        acts.append(small(_("Edit"), ft.Icons.EDIT, edit, lambda e: edit_dialog(frame, h.id)))
    rows.append(ft.Row(acts, wrap=True, spacing=8, run_spacing=8))
    return ft.Column(rows, spacing=8)


# --- forms ---------------------------------------------------------------------------------------


def deploy_dialog(frame) -> None:
    s: R.State = frame.loaded.game_state
    specs = _specs(R.HostCard)
    name = _name_field(specs["name"])
    card = _card_fields(specs)
    support_row, support = switch_row(_label(_specs(R.Deploy)["support"]), False)

    def play(data: dict) -> None:
        frame.dispatch(R.build(R.Deploy, card=data, support=bool(support.value)))

    def apply():
        data = _read_card(name, card, specs)
        play(data)
        _remembering(frame, KLAW_HOST, data)

    _known_dialog(frame, _("{player} deploys a host", player=s.players[R.current_player(s)].name), KLAW_HOST,
                  lambda c: _host_card_text(c.data), play, verb=_("Deploy {card}"), controls=[
        text(_("Copy the host card's numbers. It is Protected for one full round (it can't be attacked).")),
        name, _side_by_side(frame, [card["attack"], card["defense"]]), card["life"],
        _side_by_side(frame, [card["check_bonus"], card["free_totems"]]), support_row,
    ], actions=[(_("Deploy"), apply, ft.Icons.PERSON_ADD)])


def _check_text(s: R.State, h: R.Host, *, physical: bool = False) -> str:
    """The singularity check attaching one more totem makes, as the rules declare it (with its odds).
    `physical`: the table rolls its own dice (a check no face can fail asks it for none)."""
    totems = len(h.totems) + 1
    chance = R.singularity_chance(s, h, totems)
    if chance is not None and physical and s.settings.sure_checks_pass and 1 + R.check_bonus(h) >= totems:
        return ngettext("{host} will carry {n} totem: its singularity check passes without a die (the lowest roll "
                        "already reaches {n}).",
                        "{host} will carry {n} totems: its singularity check passes without a die (the lowest roll "
                        "already reaches {n}).", totems, host=h.name)
    if chance is None:
        return ngettext("{host} will carry {n} totem: no singularity check (talent: up to {free} without one).",
                        "{host} will carry {n} totems: no singularity check (talent: up to {free} without one).", totems,
                        host=h.name, free=h.free_totems)
    odds = "; ".join(f"{render(o.label)} {fmt_percent(o.probability)}" for o in chance.outcomes)
    return ngettext("{host} will carry {n} totem. Singularity check: {who} rolls {dice} {die} for {why}: {odds}. On a "
                    "fail EVERY totem leaves EVERY host on the table.",
                    "{host} will carry {n} totems. Singularity check: {who} rolls {dice} {die} for {why}: {odds}. On a "
                    "fail EVERY totem leaves EVERY host on the table.", totems, host=h.name, who=chance.who,
                    dice=chance.count, die=chance.die.label, why=chance.why, odds=odds)


def totem_dialog(frame, host_id: int) -> None:
    s: R.State = frame.loaded.game_state
    h = R.find_host(s, host_id)
    specs = _specs(R.Totem)
    name = _name_field(specs["name"])
    mods = {k: _num_field(specs[k], 0) for k in ("attack", "defense", "life")}
    pair = ft.TextField(label=_label(specs["pair"]))
    dormant_row, dormant = switch_row(_label(specs["dormant"]), False)
    hand_row, from_hand = switch_row(_label(_specs(R.AttachTotem)["from_hand"]), True)
    held = ", ".join(t.name for t in h.totems)

    def play(totem: dict) -> None:
        frame.dispatch(R.build(R.AttachTotem, host=h.id, totem=totem, from_hand=bool(from_hand.value)), pulse=True)

    def apply():
        totem = {"name": name.value or "", **{k: _read(f, specs[k], 0) for k, f in mods.items()},
                 "pair": (pair.value or "").strip() or None, "dormant": bool(dormant.value)}
        play(totem)
        _remembering(frame, KLAW_TOTEM, totem)

    _known_dialog(frame, _("Attach a totem to {host}", host=h.name), KLAW_TOTEM, lambda c: _totem_text(R.Totem(**c.data)),
                  play, verb=_("Attach {card}"),
                  lead=[tagged("klaw-check", text(_check_text(s, h, physical=frame.loaded.state.physical_dice), bold=True))],
                  controls=[
        text(_("Already carries: {totems}. A host can't carry both cards of one binomial totem.", totems=held) if held else
             _("A host can't carry both cards of one binomial totem."), ft.TextThemeStyle.BODY_SMALL),
        name, _side_by_side(frame, list(mods.values())), pair, dormant_row, hand_row,
    ], actions=[(_("Attach"), apply, ft.Icons.PETS)])


def item_dialog(frame, host_id: int) -> None:
    s: R.State = frame.loaded.game_state
    h = R.find_host(s, host_id)
    specs = _specs(R.Item)
    name = _name_field(specs["name"])
    nums = {k: _num_field(specs[k], 0) for k in ("attack_plus", "attack_dice", "defense_plus", "defense_dice", "life",
                                                   "check_bonus")}
    vessel_row, vessel = switch_row(_label(specs["vessel"]), False)

    def make(replace: Optional[int]) -> Callable[[], None]:
        def apply():
            item = {"name": name.value or "", **{k: _read(f, specs[k], 0) for k, f in nums.items()},
                    "vessel": bool(vessel.value)}
            frame.dispatch(R.build(R.AddItem, host=h.id, item=item, replace=replace))
            _remembering(frame, KLAW_ITEM, item)
        return apply

    def play(item: dict) -> None:  # a remembered item, while the host has room for it
        frame.dispatch(R.build(R.AddItem, host=h.id, item=item, replace=None))

    if len(h.items) >= R.MAX_ITEMS:
        note = text(_("{host} already carries {most} items, the most a host can: choose the one this replaces (it goes "
                      "to the discard pile).", host=h.name, most=R.MAX_ITEMS), bold=True)
        actions = [(_("Replace {item}", item=it.name), make(i), None) for i, it in enumerate(h.items)]
    else:
        note = text(_("Items: {n} of {most}. “+3 to two dice”: Attack + 3 on attack dice 2.", n=len(h.items),
                      most=R.MAX_ITEMS))
        actions = [(_("Add item"), make(None), ft.Icons.ADD)]
    controls = [note, name, _side_by_side(frame, [nums["attack_plus"], nums["attack_dice"]]),
                _side_by_side(frame, [nums["defense_plus"], nums["defense_dice"]]),
                _side_by_side(frame, [nums["life"], nums["check_bonus"]]), vessel_row]
    if len(h.items) >= R.MAX_ITEMS:  # a full host: an item replaces one, chosen by the buttons below
        _dialog(frame, _("Item for {host}", host=h.name), controls, actions)
    else:
        _known_dialog(frame, _("Item for {host}", host=h.name), KLAW_ITEM, lambda c: _item_text(R.Item(**c.data)),
                      play, verb=_("Add {card}"), controls=controls, actions=actions)


def instant_dialog(frame, host_id: int) -> None:
    s: R.State = frame.loaded.game_state
    h = R.find_host(s, host_id)
    specs = _specs(R.Instant)
    damage, heal = _num_field(specs["damage"], 0), _num_field(specs["heal"], 0)
    # Radios, not a drop-down: one tap each, all choices visible at arm's length.
    cond = ft.RadioGroup(value=NONE, content=ft.Row([
        ft.Container(ft.Radio(value=c, label=render(R.CONDITION_NAMES[c]) if c != "none" else _("No condition")), height=TAP)
        for c in INSTANT_CONDITIONS], wrap=True, spacing=4, run_spacing=0))
    duration = _num_field(specs["duration"], "")
    cure = ft.Dropdown(label=_("Cure a condition"), value=NONE, options=[
        ft.DropdownOption(key="none", text=_("None")),
        *[ft.DropdownOption(key=c.kind, text=render(R.CONDITION_NAMES[c.kind])) for c in h.conditions]])
    item = ft.Dropdown(label=_("Remove an item (to the discard pile)"), value=NONE, options=[
        ft.DropdownOption(key="none", text=_("None")),
        *[ft.DropdownOption(key=str(i), text=it.name) for i, it in enumerate(h.items)]])
    totem = ft.Dropdown(label=_("Make a totem dormant / wake it"), value=NONE, options=[
        ft.DropdownOption(key="none", text=_("None")),
        *[ft.DropdownOption(key=str(i), text=_("{totem} (wake)", totem=t.name) if t.dormant else
                            _("{totem} (make dormant)", totem=t.name)) for i, t in enumerate(h.totems)]])

    def apply():
        ti = None if totem.value in (None, "none") else int(totem.value)
        frame.dispatch(R.build(
            R.Instant, target=h.id, damage=_read(damage, specs["damage"], 0), heal=_read(heal, specs["heal"], 0),
            condition=None if cond.value in (None, "none") else cond.value,
            duration=None if not (duration.value or "").strip() else _read(duration, specs["duration"]),
            cure=None if cure.value in (None, "none") else cure.value,
            remove_item=None if item.value in (None, "none") else int(item.value),
            totem=ti, totem_dormant=None if ti is None else not h.totems[ti].dormant))

    _dialog(frame, _("Instant action on {host}", host=h.name), [
        text(_("{host}. Poisoned: −{poison} a turn until cured. Burning: −{burning} a turn for {turns} turns.",
               host=_host_line(s, h), poison=R.POISON_DAMAGE, burning=R.BURNING_DAMAGE, turns=R.BURNING_TICKS)),
        _side_by_side(frame, [damage, heal]), text(_("Give a condition"), ft.TextThemeStyle.TITLE_SMALL), cond, duration,
        *([cure] if h.conditions else []), *([item] if h.items else []), *([totem] if h.totems else []),
    ], [(_("Apply"), apply, ft.Icons.BOLT)])


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

    _dialog(frame, _("Correct {host}", host=h.name), [
        text(_("Fix a host card's printed numbers or talents. Current life changes with − / + on the card.")),
        name, _side_by_side(frame, [nums["attack"], nums["defense"]]), nums["base_life"],
        _side_by_side(frame, [nums["check_bonus"], nums["free_totems"]]),
    ], [(_("Save"), apply, ft.Icons.SAVE)])


# --- setup ---------------------------------------------------------------------------------------


class SetupForm:
    """Players by name in turn order, an optional totem goal, the deck-size guide."""

    def __init__(self, app):
        self.app = app
        specs = _specs(R.Settings)
        self.names: list[ft.TextField] = [self._name_field(i, _("Player {n}", n=i + 1)) for i in range(R.MIN_PLAYERS)]
        self.rows = ft.Column(spacing=8)
        self.guide = tagged("klaw-deck-guide", ft.Text(render(R.deck_guide(R.MIN_PLAYERS)),
                                                       theme_style=ft.TextThemeStyle.BODY_MEDIUM, weight=ft.FontWeight.BOLD))
        self.add = wide_button(_("Add a player"), self._add, icon=ft.Icons.PERSON_ADD, filled=False)
        # switch_row, radio_row: their words wrap (a Switch's or a Radio's own label is cut off at the
        # largest text size, in German first); a field's long words stand above it, its label short.
        self.goal_row, self.goal_on = switch_row(_("Also win by owning a number of totems"), False, self._goal)
        self.goal = ft.TextField(label=_("Totem goal"), value="6",
                                 helper=_("{range} totems owned (on hosts and in hand)", range=specs["totem_goal"].hint),
                                 helper_max_lines=3, keyboard_type=ft.KeyboardType.NUMBER, visible=False)
        self.tick = ft.RadioGroup(value=OWNER_TURN, content=ft.Column([
            radio_row(OWNER_TURN, _("Poison/burning tick on the owner's turn (book)"), self._tick),
            radio_row(EVERY_TURN, _("… on every player's turn"), self._tick),
        ], spacing=0))
        self.shackled_words = ft.Text(_("Attack dice of a shackled host"),
                                      theme_style=ft.TextThemeStyle.BODY_LARGE)
        self.shackled = ft.TextField(label=_("Shackled attack dice"), helper_max_lines=3,
                                     value=str(R.Settings().shackled_max_dice),
                                     helper=specs["shackled_max_dice"].hint, keyboard_type=ft.KeyboardType.NUMBER)
        self._draw_rows()

    def _roomy(self, label: str) -> bool:
        """Whether a name field's label fits beside its remove button on a 360 px phone."""
        sizes = getattr(self.app, "sizes", None)
        return sizes is None or sizes.fits(label, FORM_WIDTH - 100, "body_medium")

    def _name_field(self, i: int, value: str = "") -> ft.TextField:
        return ft.TextField(label=_("Player {n} name", n=i + 1), value=value, max_length=30, expand=True)

    def _draw_rows(self) -> None:
        rows = []
        for i, f in enumerate(self.names):
            f.label = _("Player {n} name", n=i + 1)
            remove = icon_button(ft.Icons.DELETE_OUTLINE, _("Remove player {n}", n=i + 1), lambda e, i=i: self._remove(i),
                                 disabled=len(self.names) <= R.MIN_PLAYERS)
            if self._roomy(f.label):
                f.expand = True
                rows.append(ft.Row([f, remove], vertical_alignment=ft.CrossAxisAlignment.CENTER))
            else:  # the name's label takes the whole width, or it breaks and runs over the name
                f.expand = False
                rows.append(ft.Column([f, ft.Row([remove], alignment=ft.MainAxisAlignment.END)], spacing=0,
                                      horizontal_alignment=ft.CrossAxisAlignment.STRETCH))
        self.rows.controls = rows
        self.guide.content.value = render(R.deck_guide(len(self.names)))
        self.add.disabled = len(self.names) >= R.MAX_PLAYERS

    def _refresh(self) -> None:
        self._draw_rows()
        for c in (self.rows, self.guide, self.add):
            c.update()

    def _add(self, e) -> None:
        if len(self.names) < R.MAX_PLAYERS:
            self.names.append(self._name_field(len(self.names), _("Player {n}", n=len(self.names) + 1)))
            self._refresh()

    def _remove(self, i: int) -> None:
        if len(self.names) > R.MIN_PLAYERS:
            self.names.pop(i)
            self._refresh()

    def _tick(self, value: str) -> None:
        """A tap on a tick choice's words picks it, as a tap on its radio does."""
        if value != self.tick.value:
            self.tick.value = value
            self.tick.update()

    def _goal(self, e) -> None:
        self.goal.visible = bool(self.goal_on.value)
        self.goal.update()

    def controls(self) -> list[ft.Control]:
        return [
            ft.Text(_("Players, in turn order"), theme_style=ft.TextThemeStyle.TITLE_SMALL),
            self.rows, self.add, self.guide,
            ft.Text(_("Each player starts with {hosts} hosts and {cards} encounter cards in hand ({total}).",
                      hosts=R.STARTING_HOSTS, cards=R.STARTING_ENCOUNTER_CARDS, total=R.STARTING_HAND),
                    theme_style=ft.TextThemeStyle.BODY_SMALL),
            self.goal_row, self.goal, self.tick, self.shackled_words, self.shackled,
        ]

    def collect(self) -> dict:
        goal = None
        if self.goal_on.value:
            goal = whole_number(self.goal, _("Totem goal"))
        return {
            "players": [f.value or "" for f in self.names],
            "totem_goal": goal,
            "condition_tick": self.tick.value or "owner_turn",
            "shackled_max_dice": whole_number(self.shackled, _("Shackled attack dice"), R.Settings().shackled_max_dice),
            "sure_checks_pass": True,  # every new campaign (see Settings.sure_checks_pass)
        }


GAME_SCREENS = {"cards": RememberedScreen.of("klaw")}  # the hosts, totems and items this table entered: forget, share
