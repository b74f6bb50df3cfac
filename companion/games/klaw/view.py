"""KLAW: Were-Wars at the table: whose turn it is and the next action on top, the fight (odds, each
exchange as hit / tie / block pairs), then each player's battle fan of hosts as cards.

The view decides nothing a rule decides: what may be played comes from `legal_actions`, why an
attack is refused from `attack_refusal`, the odds from `combat_odds`, every number on a card from
the rules' helpers. Forms open as dialogs; what they send is checked by the rules (ranges, the
binomial pair, the item limit), and a refusal shows its message and changes nothing."""

from __future__ import annotations

import re
from typing import Callable, Optional

import flet as ft

from companion.games.base import InputError, RuleError
from companion.games.klaw import combat as cb
from companion.games.klaw import rules as R
from companion.games.klaw.odds import most_likely, win_chance_text
from companion.ui.forms import whole_number
from companion.ui.style import GAP, TAP
from companion.ui.widgets import big_button, icon_button, section, switch_row, tagged

ATTACK_COLOR = ft.Colors.RED_700
DEFENSE_COLOR = ft.Colors.BLUE_700
PHASE_HINT = {
    "reveal": "Round 1, the starting round: each player reveals one host (deploy it) or passes.",
    "fortify": "Round 2, the fortify round: add a totem or an item to a host, or pass. No attacks yet.",
    "play": "Regular play: play one card (deploy, totem, item, instant action, attack) or pass, then end the turn.",
}
REMINDER = ("At the end of the turn draw 1 card (not after a combat). Hand limit 8: over it, "
            "discard down to 8.")


# --- small helpers -------------------------------------------------------------------------------


def _txt(value: str, style=ft.TextThemeStyle.BODY_MEDIUM, **kw) -> ft.Text:
    return ft.Text(value, theme_style=style, **kw)


def _num_field(label: str, value: int | str = "", *, helper: str = "", width: Optional[int] = None) -> ft.TextField:
    return ft.TextField(label=label, value=str(value), helper=helper or None, width=width,
                        keyboard_type=ft.KeyboardType.NUMBER, expand=width is None)


def _dialog(frame, title: str, controls: list[ft.Control], actions: list[tuple]) -> None:
    """A form as a dialog. `actions` are (text, fn, icon) — fn dispatches; a refusal is shown inside
    the dialog (a snack bar would sit behind its barrier) and the dialog stays open to correct it."""
    page = frame.app.page
    error = ft.Text("", color=ft.Colors.ERROR, weight=ft.FontWeight.BOLD, theme_style=ft.TextThemeStyle.BODY_LARGE)

    def button(text, fn, icon=None):
        def go(e):
            try:
                closed = fn()
            except (RuleError, InputError) as exc:
                error.value = str(exc)
                error.update()
                return
            if closed:  # fn closed the dialog itself (to ask for physical dice)
                return
            try:
                page.pop_dialog()
            except Exception:
                pass
        return ft.FilledButton(content=text, icon=icon, height=TAP, on_click=frame.app.guard(go))

    page.show_dialog(ft.AlertDialog(
        title=ft.Text(title),
        content=ft.Column([*controls, tagged("klaw-form-error", error)], tight=True, scroll=ft.ScrollMode.AUTO,
                          width=380, spacing=GAP),
        actions=[ft.TextButton(content="Cancel", on_click=lambda e: page.pop_dialog()),
                 *[button(*a) for a in actions]],
        scrollable=True,
    ))


def _submit(text: str, fn: Callable[[], None], *, icon=None) -> tuple:
    return (text, fn, icon)


def _badge(text: str, color, icon=None) -> ft.Control:
    row = [ft.Icon(icon, size=18, color=ft.Colors.WHITE)] if icon else []
    return ft.Container(
        ft.Row(row + [ft.Text(text, color=ft.Colors.WHITE, size=14, weight=ft.FontWeight.W_600)],
               spacing=4, tight=True),
        bgcolor=color, border_radius=14, padding=ft.Padding.symmetric(horizontal=10, vertical=4))


def dice_icons(n: int, color, label: str) -> ft.Control:
    """A side's dice as die icons (max 6), with the count for readers at arm's length."""
    icons = [ft.Icon(ft.Icons.CASINO, color=color, size=26) for _ in range(n)] or [_txt("no dice", italic=True)]
    return ft.Row([ft.Container(_txt(label, ft.TextThemeStyle.TITLE_SMALL), width=70),
                   ft.Text(str(n), size=22, weight=ft.FontWeight.BOLD, color=color, width=22), *icons],
                  spacing=2, vertical_alignment=ft.CrossAxisAlignment.CENTER, wrap=True)


def die_square(value: Optional[int], color, *, faded: bool = False) -> ft.Control:
    return ft.Container(
        ft.Text("–" if value is None else str(value), size=22, weight=ft.FontWeight.BOLD,
                color=ft.Colors.WHITE if value is not None else ft.Colors.ON_SURFACE_VARIANT),
        width=44, height=44, alignment=ft.Alignment.CENTER, border_radius=8,
        bgcolor=ft.Colors.SURFACE_CONTAINER_HIGHEST if value is None or faded else color)


def _pct(x) -> str:
    return f"{float(x):.0%}"


def _host_line(s: R.State, h: R.Host) -> str:
    return (f"{h.name} ({s.players[h.owner].name}) · life {h.life}/{R.full_life(h)} · "
            f"{R.attack_dice(h)} attack, {R.defense_dice(h)} defense")


def _item_text(it: R.Item) -> str:
    bits = []
    if it.attack_plus and it.attack_dice:
        bits.append(f"+{it.attack_plus} to {it.attack_dice} attack {'die' if it.attack_dice == 1 else 'dice'}")
    if it.defense_plus and it.defense_dice:
        bits.append(f"+{it.defense_plus} to {it.defense_dice} defense {'die' if it.defense_dice == 1 else 'dice'}")
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


def distribution_summary(dist, struck: str, striker: str) -> list[str]:
    """The first exchange in words: chance of any damage each way, the expected hits, the likeliest
    outcomes."""
    if not dist:
        return ["No dice on either side: nothing can happen."]
    hit = sum(p for (to_s, _), p in dist.items() if to_s > 0)
    back = sum(p for (_, to_k), p in dist.items() if to_k > 0)
    e_s = sum(p * k[0] for k, p in dist.items())
    e_k = sum(p * k[1] for k, p in dist.items())
    top = sorted(dist.items(), key=lambda kv: -kv[1])[:4]
    likely = "; ".join(f"{struck} −{a} and {striker} −{b}: {_pct(p)}" for (a, b), p in top)
    return [
        f"First exchange: {struck} takes at least 1: {_pct(hit)} (average {float(e_s):.1f}); {striker} takes at least 1 back: "
        f"{_pct(back)} (average {float(e_k):.1f}).",
        f"Likeliest: {likely}.",
    ]


# --- the panel -----------------------------------------------------------------------------------


def panel(frame) -> ft.Control:
    s: R.State = frame.loaded.game_state
    parts: list[ft.Control] = [_now(frame, s)]
    last = _last_events(frame)
    singular = [e for e in last if e.startswith("SINGULARITY EVENT") or (e.startswith("Take ") and " off " in e)]
    if any(e.startswith("SINGULARITY EVENT") for e in last):
        parts.append(tagged("klaw-singularity", section(
            "Singularity event: take these off the table",
            *[_txt(e, ft.TextThemeStyle.BODY_LARGE) for e in singular])))
    if s.combat is not None or s.last_exchange is not None:
        parts.append(_combat(frame, s, last))
    if last:
        parts.append(tagged("klaw-last", section("Just happened", *[_txt(e) for e in last])))
    for p in range(len(s.players)):
        parts.append(_player(frame, s, p))
    return ft.Column(parts, spacing=GAP, horizontal_alignment=ft.CrossAxisAlignment.STRETCH)


def _last_events(frame) -> list[str]:
    if frame.loaded.cursor <= 0:
        return []
    rows = frame.app.store.history(frame.campaign_id, limit=1)
    return list(rows[0].events) if rows else []


def _now(frame, s: R.State) -> ft.Control:
    """Whose turn, the round, the one obvious next action, the reminder, and what just happened."""
    guard = frame.app.guard
    me = R.current_player(s)
    name = s.players[me].name
    legal = R.legal_actions(s)
    ph = R.phase(s)
    title = f"Round {R.round_no(s)}{ {'reveal': ' · Reveal', 'fortify': ' · Fortify'}.get(ph, '')} · {name}'s turn"
    rows: list[ft.Control] = []
    buttons: list[ft.Control] = []
    if s.winner is not None:
        title = f"{s.players[s.winner].name} wins"
        rows.append(_txt(R.outcome(s) or "", ft.TextThemeStyle.HEADLINE_SMALL, weight=ft.FontWeight.BOLD))
    elif s.combat is not None:
        c = s.combat
        striker = R.find_host(s, c.striker)
        target = R.find_host(s, c.defender if c.striker == c.attacker else c.attacker)
        rows.append(_txt(f"A fight is on: {R.find_host(s, c.attacker).name} against {R.find_host(s, c.defender).name}. "
                         "It goes on until a host falls; the roles swap after each exchange.", ft.TextThemeStyle.BODY_LARGE))
        if c.pending is not None:
            rows.append(_txt("Place the item bonuses of the roll (below) first.", weight=ft.FontWeight.BOLD))
            rows.append(big_button("Accept the suggested placement", guard(lambda e: frame.dispatch(R.PlaceDice())),
                                   icon=ft.Icons.CHECK))
        else:
            n_a, n_d = R.strike_dice(s, striker), R.defense_dice(target)
            rows.append(tagged("klaw-roll", big_button(f"Roll exchange {c.exchanges + 1}: {striker.name} {n_a} vs {target.name} {n_d}",
                                                       guard(lambda e: _roll(frame, s)), icon=ft.Icons.CASINO)))
            rows.append(big_button(f"{striker.name}: flee or heal instead…", guard(lambda e: support_dialog(frame)),
                                   icon=ft.Icons.DIRECTIONS_RUN, filled=False))
    else:
        rows.append(_txt(PHASE_HINT[ph], ft.TextThemeStyle.BODY_LARGE))
        mine = R.hosts_of(s, me)
        end_label = ("End turn (no card drawn after a combat)" if s.played == "attack"
                     else ("Pass and draw 1 card" if s.played is None else "End turn and draw 1 card"))
        if s.played != "attack" and s.players[me].hand + 1 > R.HAND_LIMIT:
            end_label += " (then discard 1)"
        end = lambda e: frame.dispatch(R.EndTurn())  # noqa: E731
        if s.played is not None:
            rows.append(_txt(f"{name} has played this turn ({s.played}).", ft.TextThemeStyle.BODY_MEDIUM,
                             weight=ft.FontWeight.BOLD))
        primary = None
        if "deploy" in legal and not mine:
            primary = big_button("Deploy a host", guard(lambda e: deploy_dialog(frame)), icon=ft.Icons.PERSON_ADD)
        elif s.played is None and "attack" in legal:
            primary = big_button("Attack…", guard(lambda e: attack_dialog(frame)), icon=ft.Icons.FLASH_ON)
        else:
            primary = big_button(end_label, guard(end), icon=ft.Icons.SKIP_NEXT)
        rows.append(tagged("klaw-primary", primary))
        if "deploy" in legal and mine:
            buttons.append(big_button("Deploy a host", guard(lambda e: deploy_dialog(frame)), icon=ft.Icons.PERSON_ADD, filled=False))
        if "deploy" in legal and not mine or (s.played is None and "attack" in legal):
            buttons.append(big_button(end_label, guard(end), icon=ft.Icons.SKIP_NEXT, filled=False))
        if "attack" not in legal and ph == "play" and s.played is None and mine:
            why = _why_no_attack(s, me)
            if why:
                rows.append(_txt(f"No attack possible now: {why}", italic=True))
        if s.played != "attack":
            buttons.append(tagged("klaw-no-draw", big_button(
                "End turn without drawing", guard(lambda e: frame.dispatch(R.EndTurn(draw=False))),
                icon=ft.Icons.NOT_INTERESTED, filled=False)))
        if buttons:  # (big_button sets expand, which a wrapping Row can't hold: a column of full-width buttons)
            rows.append(ft.Column(buttons, spacing=8, horizontal_alignment=ft.CrossAxisAlignment.STRETCH))
        rows.append(_txt(REMINDER, ft.TextThemeStyle.BODY_SMALL, italic=True))
        if s.lone_player is not None and s.winner is None:
            rows.append(_txt(f"Only {s.players[s.lone_player].name} has hosts on the table: they win after one more "
                             "full round unless another player deploys a host.", weight=ft.FontWeight.BOLD))
    if s.settings.totem_goal:
        owned = ", ".join(f"{p.name} {R.totems_owned(s, i)}" for i, p in enumerate(s.players))
        rows.append(_txt(f"Totem goal {s.settings.totem_goal}: {owned}.", ft.TextThemeStyle.BODY_SMALL))
    return section("Now", tagged("klaw-turn", _txt(title, ft.TextThemeStyle.HEADLINE_SMALL, weight=ft.FontWeight.BOLD)),
                   *rows)


def _why_no_attack(s: R.State, me: int) -> Optional[str]:
    reasons = []
    for a in R.hosts_of(s, me):
        for d in s.hosts:
            if d.owner != me:
                why = R.attack_refusal(s, a.id, d.id)
                if why:
                    reasons.append(why)
    if not any(d.owner != me for d in s.hosts):
        return "no opposing host on the table."
    return reasons[0] if reasons else None


# --- combat ----------------------------------------------------------------------------------------


def _combat(frame, s: R.State, last: list[str]) -> ft.Control:
    guard = frame.app.guard
    rows: list[ft.Control] = []
    c = s.combat
    if c is not None:
        att, dfn = R.find_host(s, c.attacker), R.find_host(s, c.defender)
        striker = R.find_host(s, c.striker)
        target = dfn if striker.id == att.id else att
        rows.append(ft.Row([_fighter(s, att, "Attacker", striker.id == att.id),
                            _fighter(s, dfn, "Defender", striker.id == dfn.id)], spacing=8,
                           vertical_alignment=ft.CrossAxisAlignment.START))
        odds = R.combat_odds(s, att.id, dfn.id)
        rows.append(tagged("klaw-odds", ft.Column([
            _txt(f"Chance from here ({att.name} attacker, {dfn.name} defender): {win_chance_text(odds)}.",
                 ft.TextThemeStyle.BODY_LARGE, weight=ft.FontWeight.BOLD),
            *[_txt(line) for line in distribution_summary(odds.first_exchange, target.name, striker.name)],
        ], spacing=2)))
        if c.pending is not None:
            rows.append(_pending(frame, s))
        else:
            n_a, n_d = R.strike_dice(s, striker), R.defense_dice(target)
            shackled = " (shackled)" if R.has_condition(striker, "shackled") and n_a < R.attack_dice(striker) else ""
            rows.append(_txt(f"Next: {striker.name} strikes with {n_a} attack {'die' if n_a == 1 else 'dice'}{shackled}; "
                             f"{target.name} defends with {n_d}. A side rolling 6 dice: its first die is wild "
                             "(6: all count 6; 1: all count 1). Roll with the button at the top.", ft.TextThemeStyle.BODY_SMALL))
    if s.last_exchange is not None:
        rows.append(_exchange_view(s, s.last_exchange, last))
    title = "Fight" if c is not None else "The fight is over"
    return tagged("klaw-combat", section(title, *rows))


def _fighter(s: R.State, h: R.Host, role: str, striking: bool) -> ft.Control:
    return ft.Container(ft.Column([
        _txt(role + (" · strikes now" if striking else ""), ft.TextThemeStyle.LABEL_MEDIUM),
        _txt(h.name, ft.TextThemeStyle.TITLE_MEDIUM, weight=ft.FontWeight.BOLD),
        tagged(f"klaw-fight-life-{h.id}", ft.Text(f"{h.life}", size=34, weight=ft.FontWeight.BOLD)),
        _txt(f"of {R.full_life(h)} · {R.strike_dice(s, h)} att · {R.defense_dice(h)} def", ft.TextThemeStyle.BODY_SMALL),
    ], spacing=0), expand=True, padding=10, border_radius=10,
        border=ft.Border.all(3 if striking else 1, ft.Colors.PRIMARY if striking else ft.Colors.OUTLINE_VARIANT))


def _roll(frame, s: R.State) -> None:
    c = s.combat
    striker = R.find_host(s, c.striker)
    target = R.find_host(s, c.defender if c.striker == c.attacker else c.attacker)
    n_a, n_d = R.strike_dice(s, striker), R.defense_dice(target)
    if n_a + n_d == 0:
        frame.dispatch(R.Roll(), pulse=True)
        return
    frame.roll(R.Roll(), count=n_a + n_d, sides=6,
               what=f"({n_a} attack {'die' if n_a == 1 else 'dice'} for {striker.name} first, then {n_d} defense "
                    f"{'die' if n_d == 1 else 'dice'} for {target.name})")


OUTCOME_WORDS = {
    "hit": ("HIT", ft.Colors.GREEN_700),
    "tie": ("tie", ft.Colors.GREY_600),
    "block": ("BLOCK: hit back", ft.Colors.ORANGE_800),
    "uncontested attack": ("uncontested HIT", ft.Colors.GREEN_700),
    "uncontested defense": ("uncontested: hit back", ft.Colors.ORANGE_800),
}


def _exchange_view(s: R.State, ex: R.ExchangeRecord, last: list[str]) -> ft.Control:
    names = {h.id: h.name for h in s.hosts}
    # A host that fell has left the table: take its name from the exchange's own report.
    said = next((re.match(r"Exchange \d+: (.+) strikes, (.+) defends\.$", e) for e in last
                 if re.match(r"Exchange \d+: (.+) strikes, (.+) defends\.$", e)), None)
    striker = names.get(ex.striker) or (said.group(1) if said else "the striker")
    target = names.get(ex.target) or (said.group(2) if said else "the struck host")
    rows = [
        _txt(f"Last exchange: {striker} struck {target}", ft.TextThemeStyle.TITLE_SMALL, weight=ft.FontWeight.BOLD),
        _txt(f"Rolled: attack {', '.join(map(str, ex.attack_rolled)) or 'none'} · defense "
             f"{', '.join(map(str, ex.defense_rolled)) or 'none'}. Sorted high to low and paired:",
             ft.TextThemeStyle.BODY_SMALL),
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
    rows.append(tagged("klaw-exchange", _txt(f"{target} takes {ex.damage_to_target}, {striker} takes {ex.damage_to_striker}.",
                                             ft.TextThemeStyle.TITLE_MEDIUM, weight=ft.FontWeight.BOLD)))
    return ft.Container(ft.Column(rows, spacing=6), padding=10, border_radius=10,
                        border=ft.Border.all(1, ft.Colors.OUTLINE_VARIANT))


def _pending(frame, s: R.State) -> ft.Control:
    p = s.combat.pending
    a_sorted = sorted(cb.apply_wild(p.attack_rolled)[0], reverse=True)
    d_sorted = sorted(cb.apply_wild(p.defense_rolled)[0], reverse=True)

    def describe(side: str, values, bonuses, placement) -> list[ft.Control]:
        out = []
        for (plus, n), pos in zip(bonuses, placement):
            on = ", ".join(f"{values[i]} (#{i + 1})" for i in pos) or "no die"
            out.append(_txt(f"{side} item +{plus} to {n} {'die' if n == 1 else 'dice'}: suggested on {on}."))
        return out

    pa = tuple(tuple(x) for x in p.suggested_attack)
    pd = tuple(tuple(x) for x in p.suggested_defense)
    ab = [cb.Bonus(x, y) for x, y in p.attack_bonuses]
    db = [cb.Bonus(x, y) for x, y in p.defense_bonuses]
    preview = cb.resolve(p.attack_rolled, p.defense_rolled, ab, db, pa, pd)
    striker = R.find_host(s, s.combat.striker).name
    struck = R.find_host(s, s.combat.defender if s.combat.striker == s.combat.attacker else s.combat.attacker).name
    return ft.Container(ft.Column([
        _txt("Item bonuses to place", ft.TextThemeStyle.TITLE_SMALL, weight=ft.FontWeight.BOLD),
        _txt(f"Attack rolled {', '.join(map(str, a_sorted)) or 'none'} · defense {', '.join(map(str, d_sorted)) or 'none'} "
             "(sorted, #1 = highest)."),
        *describe("Attack", a_sorted, p.attack_bonuses, pa),
        *describe("Defense", d_sorted, p.defense_bonuses, pd),
        _txt(f"With the suggestion (most hits): attack {', '.join(map(str, preview.attack_values))} vs defense "
             f"{', '.join(map(str, preview.defense_values))}: {struck} −{preview.damage_to_defender}, "
             f"{striker} −{preview.damage_to_attacker}.", weight=ft.FontWeight.BOLD),
        big_button("Accept the suggested placement", frame.app.guard(lambda e: frame.dispatch(R.PlaceDice())),
                   icon=ft.Icons.CHECK),
        big_button("Place them differently…", frame.app.guard(lambda e: placement_dialog(frame)), filled=False),
    ], spacing=6), padding=10, border_radius=10, border=ft.Border.all(2, ft.Colors.PRIMARY))


def placement_dialog(frame) -> None:
    s: R.State = frame.loaded.game_state
    p = s.combat.pending
    a_sorted = sorted(cb.apply_wild(p.attack_rolled)[0], reverse=True)
    d_sorted = sorted(cb.apply_wild(p.defense_rolled)[0], reverse=True)
    fields: list[tuple[str, ft.TextField]] = []
    controls: list[ft.Control] = [
        _txt(f"Attack dice, high to low: {', '.join(f'#{i + 1}={v}' for i, v in enumerate(a_sorted)) or 'none'}"),
        _txt(f"Defense dice, high to low: {', '.join(f'#{i + 1}={v}' for i, v in enumerate(d_sorted)) or 'none'}"),
        _txt("For each item, type the die numbers (#) it goes on, e.g. “2 3”.", ft.TextThemeStyle.BODY_SMALL),
    ]
    for side, bonuses, sugg in (("attack", p.attack_bonuses, p.suggested_attack), ("defense", p.defense_bonuses, p.suggested_defense)):
        for (plus, n), pos in zip(bonuses, sugg):
            f = ft.TextField(label=f"{side.capitalize()} item +{plus} to {n}: dice #", value=" ".join(str(i + 1) for i in pos))
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

    _dialog(frame, "Place the item bonuses", controls, [_submit("Use this placement", apply)])


def support_dialog(frame) -> None:
    s: R.State = frame.loaded.game_state
    h = R.find_host(s, s.combat.striker)
    heal = _num_field("Heal by (life)", 0, helper=f"0–24; life now {h.life}, at most 24")
    flee_row, flee = switch_row("Flee the fight (both survive; the fleeing host is Protected a full round)", False)
    hand_row, from_hand = switch_row("Play an item or action card from the hand", False)
    item = ft.Dropdown(label="Use an item on this host (then discarded)", value="none",
                       options=[ft.DropdownOption(key="none", text="No item")] +
                               [ft.DropdownOption(key=str(i), text=it.name) for i, it in enumerate(h.items)])

    # A support host played from the hand: its card's numbers, asked for only when switched on.
    sh_name = ft.TextField(label="Support host name", max_length=R.NAME_LENGTH)
    sh_att = _num_field("Support attack", 1, helper="1–3")
    sh_def = _num_field("Support defense", 1, helper="1–3")
    sh_life = _num_field("Support life", 6, helper="6–12")
    sh_fields = ft.Column([_txt("It joins the table as a support host (items only, Protected a full round)."),
                           sh_name, ft.Row([sh_att, sh_def], spacing=8), sh_life], spacing=8, visible=False)

    def toggle_support(e):
        sh_fields.visible = bool(sh_on.value)
        sh_fields.update()

    sh_row, sh_on = switch_row("Play a support host from the hand", False, toggle_support)

    def apply():
        use = None if item.value in (None, "none") else int(item.value)
        card = None
        if sh_on.value:
            card = R.HostCard(name=sh_name.value or "", attack=whole_number(sh_att, "Support attack"),
                              defense=whole_number(sh_def, "Support defense"), life=whole_number(sh_life, "Support life"))
        frame.dispatch(R.Support(heal=whole_number(heal, "Healing", 0), flee=bool(flee.value), use_item=use,
                                 from_hand=bool(from_hand.value), support_host=card))

    _dialog(frame, f"{h.name}: support instead of rolling", [
        _txt("Instead of rolling this exchange, the striking side uses an item or a support host: heal, flee, or both. "
             "If it doesn't flee, the other host strikes next."),
        heal, flee_row, hand_row, *([item] if h.items else []), sh_row, sh_fields,
    ], [_submit("Do it", apply)])


def _start_attack(frame, attacker: int, defender: int) -> None:
    frame.app.page.pop_dialog()
    frame.dispatch(R.Attack(attacker=attacker, defender=defender))


def attack_dialog(frame) -> None:
    """Pick the attacker, then a target: each target shows why it is refused, or the odds."""
    s: R.State = frame.loaded.game_state
    me = R.current_player(s)
    mine = R.hosts_of(s, me)
    able = [h for h in mine if R.attack_targets(s, h.id)]
    chosen = {"id": (able or mine)[0].id}
    targets = ft.Column(spacing=GAP)

    def draw(update: bool = True) -> None:
        a = R.find_host(s, chosen["id"])
        rows: list[ft.Control] = []
        for d in s.hosts:
            if d.owner == me:
                continue
            why = R.attack_refusal(s, a.id, d.id)
            head = _txt(_host_line(s, d), ft.TextThemeStyle.BODY_LARGE, weight=ft.FontWeight.BOLD)
            if why:
                rows.append(ft.Container(ft.Column([head, _txt(f"Can't: {why}", color=ft.Colors.ERROR)], spacing=2),
                                         padding=8, border_radius=8, border=ft.Border.all(1, ft.Colors.OUTLINE_VARIANT)))
                continue
            odds = R.combat_odds(s, a.id, d.id)
            rows.append(ft.Container(ft.Column([
                head,
                _txt(f"Win chance: {win_chance_text(odds)}.", weight=ft.FontWeight.BOLD),
                *[_txt(x, ft.TextThemeStyle.BODY_SMALL) for x in distribution_summary(odds.first_exchange, d.name, a.name)],
                ft.FilledButton(content=f"Attack {d.name}", icon=ft.Icons.FLASH_ON, height=TAP,
                                on_click=frame.app.guard(lambda e, d=d: _start_attack(frame, a.id, d.id))),
            ], spacing=4), padding=8, border_radius=8, border=ft.Border.all(2, ft.Colors.PRIMARY)))
        if not rows:
            rows.append(_txt("No opposing host on the table."))
        targets.controls = rows
        if update:
            targets.update()

    def picked(e):
        chosen["id"] = int(group.value)
        draw()

    group = ft.RadioGroup(value=str(chosen["id"]), on_change=picked, content=ft.Column([
        ft.Container(ft.Radio(value=str(h.id), label=f"{h.name}: {R.strike_dice(s, h)} attack dice, life {h.life}"
                              + ("" if R.attack_targets(s, h.id) else " (can't attack now)")), height=TAP)
        for h in mine], spacing=0))
    draw(update=False)
    _dialog(frame, "Attack", [_txt("Attacker", ft.TextThemeStyle.TITLE_SMALL), group,
                              _txt("Target", ft.TextThemeStyle.TITLE_SMALL), targets], [])


# --- players and hosts ---------------------------------------------------------------------------


def _player(frame, s: R.State, p: int) -> ft.Control:
    guard = frame.app.guard
    pl = s.players[p]
    now = p == R.current_player(s) and s.winner is None
    hosts = R.hosts_of(s, p)
    hand_row = ft.Row([
        _txt("Hand", ft.TextThemeStyle.TITLE_SMALL),
        icon_button(ft.Icons.REMOVE, f"{pl.name} hand -1", guard(lambda e: frame.dispatch(R.SetHand(player=p, hand=pl.hand - 1))),
                    disabled=pl.hand <= 0, round_=True),
        tagged(f"klaw-hand-{p}", ft.Text(str(pl.hand), size=26, weight=ft.FontWeight.BOLD)),
        icon_button(ft.Icons.ADD, f"{pl.name} hand +1", guard(lambda e: frame.dispatch(R.SetHand(player=p, hand=pl.hand + 1))),
                    disabled=pl.hand >= R.HAND_LIMIT, round_=True),
        _txt(f"cards (limit {R.HAND_LIMIT})", ft.TextThemeStyle.BODY_SMALL),
    ], spacing=2, vertical_alignment=ft.CrossAxisAlignment.CENTER)
    totem_row = ft.Row([
        _txt(f"Totems owned: {R.totems_owned(s, p)} ({pl.totems_in_hand} of them in hand)", expand=True),
        icon_button(ft.Icons.EDIT_NOTE, f"{pl.name} totem cards in hand", guard(lambda e: hand_dialog(frame, p))),
    ], vertical_alignment=ft.CrossAxisAlignment.CENTER)
    cards = [_host_card(frame, s, h) for h in hosts] or [_txt("No host on the table.", italic=True)]
    title = f"{pl.name}{' · playing now' if now else ''}"
    return tagged(f"klaw-player-{p}", section(title, hand_row, totem_row, *cards))


def hand_dialog(frame, p: int) -> None:
    s: R.State = frame.loaded.game_state
    pl = s.players[p]
    hand = _num_field("Cards in hand", pl.hand, helper="0–8")
    totems = _num_field("Of which totem cards", pl.totems_in_hand, helper="for a totem-count goal")
    _dialog(frame, f"{pl.name}'s hand", [hand, totems], [_submit("Save", lambda: frame.dispatch(
        R.SetHand(player=p, hand=whole_number(hand, "Cards in hand"), totems_in_hand=whole_number(totems, "Totem cards"))))])


def _host_card(frame, s: R.State, h: R.Host) -> ft.Control:
    guard = frame.app.guard
    legal = R.legal_actions(s)
    mine_now = h.owner == R.current_player(s) and s.combat is None
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
    full = R.full_life(h)
    life = ft.Row([
        icon_button(ft.Icons.REMOVE, f"{h.name} life -1", guard(lambda e: frame.dispatch(R.AdjustLife(host=h.id, delta=-1))),
                    size=34, round_=True),
        ft.Column([
            ft.Row([tagged(f"klaw-life-{h.id}", ft.Text(str(h.life), size=frame.app.sizes(34), weight=ft.FontWeight.BOLD)),
                    _txt(f"/ {full} life", ft.TextThemeStyle.TITLE_SMALL)],
                   vertical_alignment=ft.CrossAxisAlignment.END, spacing=6),
            ft.ProgressBar(value=max(0.0, min(1.0, h.life / full)) if full else 0, bar_height=12, border_radius=6,
                           color=ft.Colors.GREEN_600 if h.life * 2 > full else ft.Colors.RED_600),
        ], spacing=2, expand=True),
        icon_button(ft.Icons.ADD, f"{h.name} life +1", guard(lambda e: frame.dispatch(R.AdjustLife(host=h.id, delta=1))),
                    size=34, round_=True, disabled=h.life >= R.LIFE_CAP),
    ], vertical_alignment=ft.CrossAxisAlignment.CENTER)
    t_att = sum(t.attack for t in h.totems if not t.dormant)
    t_def = sum(t.defense for t in h.totems if not t.dormant)
    dice_note = f"base {h.attack} att / {h.defense} def" + (f", totems {t_att:+d} / {t_def:+d}" if h.totems else "") + ", max 6"
    rows: list[ft.Control] = [
        ft.Row([_txt(h.name, ft.TextThemeStyle.TITLE_LARGE, weight=ft.FontWeight.BOLD, expand=True)]),
    ]
    if badges:
        rows.append(tagged(f"klaw-badges-{h.id}", ft.Row(badges, wrap=True, spacing=6, run_spacing=6)))
    rows += [
        tagged(f"klaw-attack-{h.id}", dice_icons(R.attack_dice(h), ATTACK_COLOR, "Attack")),
        tagged(f"klaw-defense-{h.id}", dice_icons(R.defense_dice(h), DEFENSE_COLOR, "Defense")),
        _txt(dice_note, ft.TextThemeStyle.BODY_SMALL),
        life,
    ]
    can_remove = mine_now and "remove_totem" in legal
    if h.totems:
        rows.append(tagged(f"klaw-totems-{h.id}", _txt(
            f"Totems ({len(h.totems)}): " + ", ".join(t.name for t in h.totems), ft.TextThemeStyle.TITLE_SMALL)))
        for i, t in enumerate(h.totems):
            line: list[ft.Control] = [_txt(_totem_text(t), expand=True)]
            if can_remove:
                line.append(icon_button(ft.Icons.CLOSE, f"Remove {t.name} from {h.name}",
                                        guard(lambda e, i=i: frame.dispatch(R.RemoveTotem(host=h.id, totem=i)))))
            rows.append(ft.Row(line, vertical_alignment=ft.CrossAxisAlignment.CENTER))
    if h.items:
        rows.append(tagged(f"klaw-items-{h.id}", ft.Column(
            [_txt(f"Items ({len(h.items)} of {R.MAX_ITEMS})", ft.TextThemeStyle.TITLE_SMALL),
             *[_txt(_item_text(it)) for it in h.items]], spacing=4)))
    if h.check_bonus or h.free_totems:
        rows.append(_txt(f"Talents: singularity check {h.check_bonus:+d}, {h.free_totems} totems without a check",
                         ft.TextThemeStyle.BODY_SMALL))
    acts: list[ft.Control] = []

    def small(text, icon, fn, enabled=True):
        return ft.OutlinedButton(content=text, icon=icon, height=48, disabled=not enabled, on_click=guard(fn))

    if mine_now and not h.support:
        acts.append(small("Totem", ft.Icons.PETS, lambda e: totem_dialog(frame, h.id), "attach_totem" in legal))
    if mine_now:
        acts.append(small("Item", ft.Icons.SHIELD_MOON, lambda e: item_dialog(frame, h.id), "add_item" in legal))
    if "instant" in legal and s.combat is None:
        acts.append(small("Instant", ft.Icons.BOLT, lambda e: instant_dialog(frame, h.id)))
    acts.append(small("Edit", ft.Icons.EDIT, lambda e: edit_dialog(frame, h.id), s.winner is None))
    rows.append(ft.Row(acts, wrap=True, spacing=8, run_spacing=8))
    border = ft.Colors.PRIMARY if mine_now else ft.Colors.OUTLINE_VARIANT
    return tagged(f"klaw-host-{h.id}", ft.Container(ft.Column(rows, spacing=8), padding=12, border_radius=12,
                                                     border=ft.Border.all(2, border),
                                                     bgcolor=ft.Colors.SURFACE_CONTAINER_LOW))


# --- forms ---------------------------------------------------------------------------------------


def deploy_dialog(frame) -> None:
    s: R.State = frame.loaded.game_state
    me = R.current_player(s)
    name = ft.TextField(label="Host name", max_length=R.NAME_LENGTH)
    att = _num_field("Attack dice", 2, helper="1–3")
    dfn = _num_field("Defense dice", 2, helper="1–3")
    life = _num_field("Life", 9, helper="6–12")
    check = _num_field("Check bonus", 0, helper="talent, −3 to +3")
    free = _num_field("Free totems", 0, helper="talent, 0–6 w/o check")
    support_row, support = switch_row("Support host (items only)", False)

    def apply():
        card = R.HostCard(name=name.value or "", attack=whole_number(att, "Attack dice"), defense=whole_number(dfn, "Defense dice"),
                          life=whole_number(life, "Life"), check_bonus=whole_number(check, "Check bonus", 0),
                          free_totems=whole_number(free, "Totems without a check", 0))
        frame.dispatch(R.Deploy(card=card, support=bool(support.value)))

    _dialog(frame, f"{s.players[me].name} deploys a host", [
        _txt("Copy the host card's numbers. It is Protected for one full round (it can't be attacked)."),
        name, ft.Row([att, dfn], spacing=8), life, ft.Row([check, free], spacing=8), support_row,
    ], [_submit("Deploy", apply, icon=ft.Icons.PERSON_ADD)])


def _check_text(h: R.Host) -> str:
    count = len(h.totems) + 1
    if count <= h.free_totems:
        return f"{h.name} will carry {count} totem(s): no singularity check (talent: up to {h.free_totems} without one)."
    bonus = h.check_bonus + sum(i.check_bonus for i in h.items)
    need = count - bonus
    ways = max(0, min(6, 7 - need))
    bonus_text = f" {bonus:+d} (talents/items)" if bonus else ""
    return (f"Singularity check: {h.name} will carry {count} totem{'s' if count != 1 else ''}, so the app rolls 1d6{bonus_text} "
            f"and it must reach {count}: passes {ways} in 6. On a fail EVERY totem leaves EVERY host on the table.")


def totem_dialog(frame, host_id: int) -> None:
    s: R.State = frame.loaded.game_state
    h = R.find_host(s, host_id)
    name = ft.TextField(label="Totem name", max_length=R.NAME_LENGTH)
    att = _num_field("Attack", 0, helper="−3 to +3")
    dfn = _num_field("Defense", 0, helper="−3 to +3")
    life = _num_field("Life", 0, helper="−6 to +6")
    pair = ft.TextField(label="Binomial pair (the pair's name, if any)")
    dormant_row, dormant = switch_row("Dormant (adds no dice)", False)
    hand_row, from_hand = switch_row("Played from the hand", True)
    held = ", ".join(t.name for t in h.totems)

    def apply():
        t = R.Totem(name=name.value or "", attack=whole_number(att, "Totem attack"), defense=whole_number(dfn, "Totem defense"),
                    life=whole_number(life, "Totem life"), pair=(pair.value or "").strip() or None, dormant=bool(dormant.value))
        action = R.AttachTotem(host=h.id, totem=t, from_hand=bool(from_hand.value))
        if len(h.totems) + 1 > h.free_totems and frame.physical.value:
            frame.app.page.pop_dialog()
            frame.roll(action, count=1, sides=6, what="(the singularity check)")
            return True
        frame.roll(action, count=1, sides=6, what="(the singularity check)") if len(h.totems) + 1 > h.free_totems \
            else frame.dispatch(action)

    _dialog(frame, f"Attach a totem to {h.name}", [
        _txt(_check_text(h), weight=ft.FontWeight.BOLD),
        _txt(f"Already carries: {held}. A host can't carry both cards of one binomial totem." if held else
             "A host can't carry both cards of one binomial totem.", ft.TextThemeStyle.BODY_SMALL),
        name, ft.Row([att, dfn, life], spacing=8), pair, dormant_row, hand_row,
    ], [_submit("Attach", apply, icon=ft.Icons.PETS)])


def item_dialog(frame, host_id: int) -> None:
    s: R.State = frame.loaded.game_state
    h = R.find_host(s, host_id)
    name = ft.TextField(label="Item name", max_length=R.NAME_LENGTH)
    ap = _num_field("Attack +", 0, helper="0–6")
    an = _num_field("on attack dice", 0, helper="0–6")
    dp = _num_field("Defense +", 0, helper="0–6")
    dn = _num_field("on defense dice", 0, helper="0–6")
    life = _num_field("Life +", 0, helper="0–12")
    check = _num_field("Check bonus", 0, helper="−3 to +3")
    vessel_row, vessel = switch_row("Vessel (a won totem goes to the hand, no check)", False)

    def make(replace: Optional[int]) -> Callable[[], None]:
        def apply():
            it = R.Item(name=name.value or "", attack_plus=whole_number(ap, "Attack +", 0), attack_dice=whole_number(an, "Attack dice", 0),
                        defense_plus=whole_number(dp, "Defense +", 0), defense_dice=whole_number(dn, "Defense dice", 0),
                        life=whole_number(life, "Life", 0), check_bonus=whole_number(check, "Check bonus", 0), vessel=bool(vessel.value))
            frame.dispatch(R.AddItem(host=h.id, item=it, replace=replace))
        return apply

    if len(h.items) >= R.MAX_ITEMS:
        note = _txt(f"{h.name} already carries {R.MAX_ITEMS} items, the most a host can: choose the one this replaces "
                    "(it goes to the discard pile).", weight=ft.FontWeight.BOLD)
        actions = [_submit(f"Replace {it.name}", make(i)) for i, it in enumerate(h.items)]
    else:
        note = _txt(f"Items: {len(h.items)} of {R.MAX_ITEMS}. “+3 to two dice”: Attack + 3 on attack dice 2.")
        actions = [_submit("Add item", make(None), icon=ft.Icons.ADD)]
    _dialog(frame, f"Item for {h.name}", [note, name, ft.Row([ap, an], spacing=8), ft.Row([dp, dn], spacing=8),
                                          ft.Row([life, check], spacing=8), vessel_row], actions)


def instant_dialog(frame, host_id: int) -> None:
    s: R.State = frame.loaded.game_state
    h = R.find_host(s, host_id)
    damage = _num_field("Damage", 0, helper="0–24")
    heal = _num_field("Heal", 0, helper="0–24")
    # Radios, not a drop-down: one tap each, all choices visible at arm's length.
    cond = ft.RadioGroup(value="none", content=ft.Row([
        ft.Container(ft.Radio(value=c, label=c.capitalize() if c != "none" else "No condition"), height=TAP)
        for c in ("none", "poisoned", "burning", "sleep", "shackled", "protected")], wrap=True, spacing=4, run_spacing=0))
    duration = _num_field("Turns (blank: burning 3, others until cured)", "", helper="1–10")
    cure = ft.Dropdown(label="Cure a condition", value="none", options=[
        ft.DropdownOption(key="none", text="None"), *[ft.DropdownOption(key=c.kind, text=c.kind.capitalize()) for c in h.conditions]])
    item = ft.Dropdown(label="Remove an item (to the discard pile)", value="none", options=[
        ft.DropdownOption(key="none", text="None"), *[ft.DropdownOption(key=str(i), text=it.name) for i, it in enumerate(h.items)]])
    totem = ft.Dropdown(label="Make a totem dormant / wake it", value="none", options=[
        ft.DropdownOption(key="none", text="None"), *[ft.DropdownOption(key=str(i), text=f"{t.name} ({'wake' if t.dormant else 'make dormant'})")
                                                      for i, t in enumerate(h.totems)]])

    def apply():
        c = None if cond.value in (None, "none") else cond.value
        dur = None if not (duration.value or "").strip() else whole_number(duration, "Turns")
        ti = None if totem.value in (None, "none") else int(totem.value)
        frame.dispatch(R.Instant(
            target=h.id, damage=whole_number(damage, "Damage", 0), heal=whole_number(heal, "Heal", 0), condition=c, duration=dur,
            cure=None if cure.value in (None, "none") else cure.value,
            remove_item=None if item.value in (None, "none") else int(item.value),
            totem=ti, totem_dormant=None if ti is None else not h.totems[ti].dormant))

    _dialog(frame, f"Instant action on {h.name}", [
        _txt(f"{_host_line(s, h)}. Poisoned: −1 a turn until cured. Burning: −2 a turn for 3 turns."),
        ft.Row([damage, heal], spacing=8), _txt("Give a condition", ft.TextThemeStyle.TITLE_SMALL), cond, duration, *([cure] if h.conditions else []),
        *([item] if h.items else []), *([totem] if h.totems else []),
    ], [_submit("Apply", apply, icon=ft.Icons.BOLT)])


def edit_dialog(frame, host_id: int) -> None:
    s: R.State = frame.loaded.game_state
    h = R.find_host(s, host_id)
    name = ft.TextField(label="Host name", value=h.name, max_length=R.NAME_LENGTH)
    att = _num_field("Attack dice", h.attack, helper="1–3")
    dfn = _num_field("Defense dice", h.defense, helper="1–3")
    life = _num_field("Base life", h.base_life, helper="6–12")
    check = _num_field("Check bonus", h.check_bonus, helper="−3 to +3")
    free = _num_field("Totems w/o check", h.free_totems, helper="0–6")

    def apply():
        changes = {}
        for key, field, label, old in (("attack", att, "Attack dice", h.attack), ("defense", dfn, "Defense dice", h.defense),
                                       ("base_life", life, "Base life", h.base_life),
                                       ("check_bonus", check, "Check bonus", h.check_bonus),
                                       ("free_totems", free, "Totems without a check", h.free_totems)):
            v = whole_number(field, label)
            if v != old:
                changes[key] = v
        if (name.value or "").strip() != h.name:
            changes["name"] = name.value or ""
        frame.dispatch(R.EditHost(host=h.id, **changes))

    _dialog(frame, f"Correct {h.name}", [
        _txt("Fix a host card's printed numbers or talents. Current life changes with − / + on the card."),
        name, ft.Row([att, dfn], spacing=8), life, ft.Row([check, free], spacing=8),
    ], [_submit("Save", apply, icon=ft.Icons.SAVE)])


# --- setup ---------------------------------------------------------------------------------------


class SetupForm:
    """Players by name in turn order (2–8), an optional totem goal, the deck-size guide."""

    def __init__(self, app):
        self.app = app
        self.names: list[ft.TextField] = [self._name_field(i, f"Player {i + 1}") for i in range(2)]
        self.rows = ft.Column(spacing=8)
        self.guide = tagged("klaw-deck-guide", ft.Text(R.deck_guide(2), theme_style=ft.TextThemeStyle.BODY_MEDIUM,
                                                       weight=ft.FontWeight.BOLD))
        self.add = ft.OutlinedButton(content="Add a player", icon=ft.Icons.PERSON_ADD, height=TAP,
                                     on_click=self._add)
        self.goal_on = ft.Switch(label="Also win by owning a number of totems", value=False, on_change=self._goal)
        self.goal = ft.TextField(label="Totem goal", value="6", helper="1–48 totems owned (on hosts and in hand)",
                                 keyboard_type=ft.KeyboardType.NUMBER, visible=False)
        self.tick = ft.RadioGroup(value="owner_turn", content=ft.Column([
            ft.Container(ft.Radio(value="owner_turn", label="Poison/burning tick on the owner's turn (book)"), height=TAP),
            ft.Container(ft.Radio(value="every_turn", label="… on every player's turn"), height=TAP),
        ], spacing=0))
        self.shackled = ft.TextField(label="Attack dice of a shackled host striking back", value="1", helper="0–6",
                                     keyboard_type=ft.KeyboardType.NUMBER)
        self._draw_rows()

    def _name_field(self, i: int, value: str = "") -> ft.TextField:
        return ft.TextField(label=f"Player {i + 1} name", value=value, max_length=30, expand=True)

    def _draw_rows(self) -> None:
        rows = []
        for i, f in enumerate(self.names):
            f.label = f"Player {i + 1} name"
            remove = icon_button(ft.Icons.DELETE_OUTLINE, f"Remove player {i + 1}", lambda e, i=i: self._remove(i),
                                 disabled=len(self.names) <= 2)
            rows.append(ft.Row([f, remove], vertical_alignment=ft.CrossAxisAlignment.CENTER))
        self.rows.controls = rows
        self.guide.content.value = R.deck_guide(len(self.names)) + " (6 hosts, 6 totems, 30 action and item cards per player.)"
        self.add.disabled = len(self.names) >= 8

    def _refresh(self) -> None:
        self._draw_rows()
        for c in (self.rows, self.guide, self.add):
            c.update()

    def _add(self, e) -> None:
        if len(self.names) < 8:
            self.names.append(self._name_field(len(self.names), f"Player {len(self.names) + 1}"))
            self._refresh()

    def _remove(self, i: int) -> None:
        if len(self.names) > 2:
            self.names.pop(i)
            self._refresh()

    def _goal(self, e) -> None:
        self.goal.visible = bool(self.goal_on.value)
        self.goal.update()

    def controls(self) -> list[ft.Control]:
        return [
            ft.Text("Players, in turn order", theme_style=ft.TextThemeStyle.TITLE_SMALL),
            self.rows, self.add, self.guide,
            ft.Text("Each player starts with 3 hosts and 5 encounter cards in hand (8).", theme_style=ft.TextThemeStyle.BODY_SMALL),
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
            "shackled_max_dice": whole_number(self.shackled, "Shackled attack dice", 1),
        }
