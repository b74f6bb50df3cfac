"""Biosphere 5's panel: Man against Machine (the Machine's board, its turn as "Reveal N cards" → tap the
cards → "Let the Machine decide" → one instruction with the rule that fired and why the higher ones
didn't; the human's turn helpers) and The Abyss (doom 0–8 per player, one button per cause, leader
tiers 0–3 with their abilities). The catalog screen is in screens.py (GAME_SCREENS["catalog"]).

The view decides nothing: rules.py decides (legal_actions, reveal_count, machine_decide via the
actions, human_can_play, dice_needed) and cards.py checks cards. Only transient input (the cards
tapped so far, the search text, the achievements chosen to give up) lives here, on the frame."""

from __future__ import annotations

from typing import Optional

import flet as ft

from companion.games.base import InputError
from companion.games.biosphere5.cards import (
    CATEGORY_LEVEL,
    CATEGORY_ORDER,
    KIND_OF_CUBE,
    ROMAN,
    Card,
    achievement_block,
)
from companion.games.biosphere5.rules import (
    BIO_NAME,
    HAND_LIMIT,
    LEADER_NAMES,
    LEADERS,
    MAX_DOOM,
    MAX_HAND,
    MAX_LEVEL,
    DeclareBiosphere,
    DoomAttack,
    DoomDecrease,
    DoomDrawPile,
    DoomFaceUp,
    DoomMissing,
    DoomSpy,
    EndTurn,
    HumanAchievement,
    HumanAttack,
    HumanBiosphere,
    HumanCatastrophe,
    HumanDiscard,
    HumanEspionage,
    HumanSabotage,
    LeaderAbility,
    LeaderPromote,
    SetHand,
    State,
    ability_text,
    dice_needed,
    human_can_play,
    legal_actions,
    reveal_action,
    reveal_count,
    reveal_more_action,
)
from companion.games.biosphere5.screens import CatalogScreen, _close, card_dialog, card_lines, load_cards
from companion.ui.style import GAP, TAP
from companion.ui.widgets import big_button, icon_button, section, tagged, track

GAME_SCREENS = {"catalog": CatalogScreen}

BOARD = CATEGORY_ORDER[:-1]  # the six achievement categories, in value order (lowest first)
CUBE_COLOR = {"green": ft.Colors.GREEN_600, "yellow": ft.Colors.AMBER_400}
MACHINE_KINDS = {"machine_reveal", "machine_reveal_more"}


class _Input:
    """Transient input of one screen: the reveal being tapped, the search, achievements to give up."""

    def __init__(self) -> None:
        self.picking = False
        self.picked: list[str] = []
        self.query = ""
        self.give_up: list[str] = []
        self.at = -1  # the log position this input was made against


def _input(frame) -> _Input:
    ui = getattr(frame, "_biosphere5_input", None)
    if ui is None:
        ui = _Input()
        frame._biosphere5_input = ui
    if ui.at != frame.loaded.cursor:  # undo, redo or another phone moved on: start the input afresh
        ui.picked, ui.give_up, ui.picking = [], [], False
        ui.at = frame.loaded.cursor
    return ui


def _text(value: str, style=ft.TextThemeStyle.BODY_MEDIUM, **kw) -> ft.Text:
    return ft.Text(value, theme_style=style, **kw)


def _s(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


# --- the panel ------------------------------------------------------------------------------------------


def panel(frame) -> ft.Control:
    state: State = frame.loaded.game_state
    _input(frame)  # forget input made against another log position (after an action, undo or redo)
    parts: list[ft.Control] = []
    if state.result:
        parts.append(_result_banner(state))
    if state.solo is not None:
        parts += _solo_parts(frame, state)
    if state.abyss is not None:
        parts.append(_abyss_section(frame, state))
    parts.append(ft.OutlinedButton(content=_catalog_label(frame), icon=ft.Icons.STYLE, height=TAP,
                                   on_click=lambda e: frame.app.go(f"/g/biosphere5/catalog?from={frame.campaign_id}")))
    return ft.Column(parts, spacing=GAP, horizontal_alignment=ft.CrossAxisAlignment.STRETCH)


def _catalog_label(frame) -> str:
    from companion.games.biosphere5.cards import check_catalog

    return f"Card catalog · {check_catalog(load_cards(frame.app.store)).summary()}"


def _result_banner(state: State) -> ft.Control:
    won = (state.result or "").startswith("Won") or "wins" in (state.result or "")
    return tagged("result", ft.Container(
        ft.Column([_text(state.result or "", ft.TextThemeStyle.HEADLINE_MEDIUM, weight=ft.FontWeight.BOLD),
                   _text(state.reason or "", ft.TextThemeStyle.BODY_LARGE)], spacing=4),
        padding=16, border_radius=12,
        bgcolor=ft.Colors.GREEN_100 if won else ft.Colors.RED_100,
    ))


def _solo_parts(frame, state: State) -> list[ft.Control]:
    solo = state.solo
    parts: list[ft.Control] = []
    if state.result is None:
        if solo.phase in ("machine", "new_hope"):
            parts.append(_machine_turn(frame, state))
        elif solo.phase == "discard":
            parts.append(_discard_section(frame, state))
    if solo.decision is not None and solo.phase != "machine":
        parts.append(_decision_section(state))
    if state.result is None and solo.phase == "human":
        parts.append(_human_turn(frame, state))
    boards = [_machine_board(frame, state), _human_board(frame, state)]
    if solo.phase in ("human", "discard"):
        boards.reverse()  # your own board first on your turn: the hand size is what you enter most
    return parts + boards


# --- the Machine's turn ---------------------------------------------------------------------------------


def _machine_turn(frame, state: State) -> ft.Control:
    solo, ui, app = state.solo, _input(frame), frame.app
    n = reveal_count(state)
    new_hope = solo.phase == "new_hope"
    title = "New Hope: reveal 3 more" if new_hope else f"Round {solo.round}: the Machine's turn"
    if n == 0:
        why = (f"The stored {BIO_NAME} card is checked before revealing." if solo.machine.stored
               else f"At hand card level {solo.machine.level} the Machine reveals no cards.")
        return section(title, _text(why, ft.TextThemeStyle.BODY_LARGE),
                       big_button("Let the Machine decide", app.guard(lambda e: _decide(frame, state, [])),
                                  icon=ft.Icons.SMART_TOY))
    earlier = []
    if new_hope and solo.reveal:
        by_id = {c.id: c for c in load_cards(app.store)}
        earlier = [_text("Revealed before: " + ", ".join(by_id[i].name if i in by_id else i
                                                          for i in solo.reveal.revealed), italic=True)]
    if not ui.picking:
        return section(
            title, *earlier,
            _text(f"Turn over the top {_s(n, 'card')} of the Machine's draw pile, then tap which came up.",
                  ft.TextThemeStyle.BODY_LARGE),
            big_button(f"Reveal {_s(n, 'card')}" if not new_hope else f"Reveal {n} more cards",
                       lambda e: _start_picking(frame), icon=ft.Icons.STYLE),
        )
    return section(title, *earlier, *_picker(frame, state, n))


def _start_picking(frame) -> None:
    ui = _input(frame)
    ui.picking, ui.picked, ui.query = True, [], ""
    frame.refresh()


def _picker(frame, state: State, n: int) -> list[ft.Control]:
    app, ui = frame.app, _input(frame)
    cards = load_cards(app.store)
    by_id = {c.id: c for c in cards}
    count = len(ui.picked)
    chips = []
    for i, cid in enumerate(ui.picked):
        name = by_id[cid].name if cid in by_id else cid
        chips.append(ft.Container(
            ft.Row([_text(name, ft.TextThemeStyle.TITLE_SMALL),
                    icon_button(ft.Icons.CLOSE, f"Remove {name}", lambda e, i=i: _unpick(frame, i), size=22)],
                   spacing=0, tight=True, vertical_alignment=ft.CrossAxisAlignment.CENTER),
            padding=ft.Padding.only(left=12), border_radius=24, bgcolor=ft.Colors.PRIMARY_CONTAINER))
    listing = ft.Column(spacing=8, horizontal_alignment=ft.CrossAxisAlignment.STRETCH)
    search = ft.TextField(label="Search the catalog", value=ui.query, prefix_icon=ft.Icons.SEARCH, text_size=18)

    def fill(query: str) -> None:
        q = query.strip().lower()
        shown = [c for c in sorted(cards, key=lambda c: c.name.lower())
                 if not q or q in " ".join(card_lines(c)).lower()]
        listing.controls = [_pick_button(frame, c) for c in shown] or [
            _text(f"No card matches “{query}”. Add it below.", italic=True)]

    def searched(e) -> None:
        ui.query = search.value or ""
        fill(ui.query)
        listing.update()

    search.on_change = searched
    fill(ui.query)
    ready = count == n
    status = (f"{count} of {n} tapped — tap {n - count} more" if count < n
              else f"{count} of {n} tapped — ready" if count == n else f"{count} tapped, but only {n} came up")
    return [
        ft.Container(tagged("reveal-status", _text(status, ft.TextThemeStyle.TITLE_MEDIUM,
                                                   color=ft.Colors.ERROR if count > n else None)),
                     key=ft.ScrollKey("reveal-top")),
        ft.Row(chips, wrap=True, spacing=8, run_spacing=8) if chips else _text("No card tapped yet.", italic=True),
        big_button("Let the Machine decide", app.guard(lambda e: _decide(frame, state, list(ui.picked))),
                   icon=ft.Icons.SMART_TOY, disabled=not ready),
        search,
        listing,
        ft.Row([
            big_button("Add a card", app.guard(lambda e: card_dialog(app, None, lambda c: _picked_new(frame, c),
                                                                    title="Add the revealed card")),
                       icon=ft.Icons.ADD, filled=False, expand=True),
            big_button("Cancel", lambda e: _cancel_picking(frame), filled=False),
        ], spacing=GAP),
    ]


def _pick_button(frame, card: Card) -> ft.Control:
    lines = card_lines(card)
    missing = card.missing()
    texts = [_text(lines[0], ft.TextThemeStyle.TITLE_MEDIUM, weight=ft.FontWeight.BOLD),
             _text(lines[1], ft.TextThemeStyle.BODY_SMALL), _text(lines[2], ft.TextThemeStyle.BODY_SMALL)]
    if missing:
        texts.append(_text("Incomplete: tap to complete it", ft.TextThemeStyle.BODY_SMALL, italic=True,
                           color=ft.Colors.TERTIARY))
    return ft.OutlinedButton(
        content=ft.Container(ft.Column(texts, spacing=0), padding=ft.Padding.symmetric(vertical=8)),
        style=ft.ButtonStyle(shape=ft.RoundedRectangleBorder(radius=12), alignment=ft.Alignment.CENTER_LEFT,
                             padding=ft.Padding.symmetric(horizontal=14)),
        on_click=frame.app.guard(lambda e: _pick(frame, card)),
    )


def _pick(frame, card: Card) -> None:
    if not card.is_complete:
        card_dialog(frame.app, card, lambda c: _picked_new(frame, c),
                    title=f"Complete {card.name} (the Machine needs it)")
        return
    _add_pick(frame, card)


def _picked_new(frame, card: Card) -> None:
    if card.is_complete:
        _add_pick(frame, card)
    else:
        frame.refresh()


def _add_pick(frame, card: Card) -> None:
    """Tap one revealed card; the search clears, and once all have been tapped the screen scrolls back
    up to "Let the Machine decide" (the list of 25 cards is long on a phone)."""
    ui = _input(frame)
    ui.picked.append(card.id)
    ui.query = ""
    frame.refresh()
    if len(ui.picked) >= reveal_count(frame.loaded.game_state):
        view = frame.app.page.views[-1] if frame.app.page.views else None

        async def up():
            try:
                await view.scroll_to(scroll_key="reveal-top", duration=300)
            except Exception:
                pass
        if view is not None:
            frame.app.page.run_task(up)


def _unpick(frame, index: int) -> None:
    ui = _input(frame)
    if 0 <= index < len(ui.picked):
        ui.picked.pop(index)
    frame.refresh()


def _cancel_picking(frame) -> None:
    ui = _input(frame)
    ui.picking, ui.picked = False, []
    frame.refresh()


def _decide(frame, state: State, ids: list[str]) -> None:
    catalog = {c.id: c for c in load_cards(frame.app.store)}
    if state.solo.phase == "new_hope":
        action = reveal_more_action(state, catalog, ids)
    else:
        action = reveal_action(catalog, ids)
    n = dice_needed(state, action)  # a catastrophe the Machine plays may roll its rescue dice
    if n:
        frame.roll(action, count=n, sides=6, what=f"the Machine's rescue check ({n} hand dice)")
    else:
        frame.dispatch(action)


def _decision_section(state: State) -> ft.Control:
    d = state.solo.decision
    controls: list[ft.Control] = [
        tagged("machine-instruction", ft.Container(
            _text(d.instruction, ft.TextThemeStyle.HEADLINE_SMALL, weight=ft.FontWeight.BOLD),
            padding=14, border_radius=12, bgcolor=ft.Colors.SECONDARY_CONTAINER)),
        ft.Row([ft.Icon(ft.Icons.RULE), _text(f"Rule {d.rule} fired", ft.TextThemeStyle.TITLE_MEDIUM)]),
        tagged("machine-why", _text(d.why, ft.TextThemeStyle.BODY_LARGE)),
        ft.Row([ft.Icon(ft.Icons.STYLE), _text(d.cards, ft.TextThemeStyle.BODY_LARGE, expand=True)]),
    ]
    if d.not_fired:
        controls.append(_text("Why the higher rules didn't fire", ft.TextThemeStyle.TITLE_SMALL))
        controls += [_text(f"• {x}", ft.TextThemeStyle.BODY_MEDIUM) for x in d.not_fired]
    return section("The Machine's move", *controls)


# --- what the human owes ----------------------------------------------------------------------------------


def _discard_section(frame, state: State) -> ft.Control:
    solo, app, ui = state.solo, frame.app, _input(frame)
    due, h = solo.due, solo.human
    short = max(0, due.cards - h.hand)
    need = min(short, len(h.achievements))
    rows: list[ft.Control] = [
        tagged("due", _text(due.why, ft.TextThemeStyle.TITLE_MEDIUM, weight=ft.FontWeight.BOLD)),
        _text(f"You hold {_s(h.hand, 'hand card')} (correct it below if that's wrong).",
              ft.TextThemeStyle.BODY_LARGE),
    ]
    if need:
        rows.append(_text(f"You are {_s(short, 'card')} short: choose {_s(need, 'achievement')} to give up.",
                          ft.TextThemeStyle.BODY_LARGE, color=ft.Colors.ERROR))
        for cat, cube in sorted(h.achievements.items(), key=lambda kv: BOARD.index(kv[0])):
            def toggle(e, cat=cat):
                (ui.give_up.remove if cat in ui.give_up else ui.give_up.append)(cat)
                frame.refresh()
            rows.append(ft.Checkbox(label=f"Give up {KIND_OF_CUBE[cube]} {cat} ({cube} cube)",
                                    value=cat in ui.give_up, on_change=toggle))
    paid = min(due.cards, h.hand)
    label = f"I discarded {_s(paid, 'card')}" if paid else "I have no cards to discard"
    if need:
        label += f" and give up {_s(len(ui.give_up), 'achievement')}"
    rows.append(big_button(label, app.guard(lambda e: _roll_or_dispatch(frame, state, HumanDiscard(give_up=list(ui.give_up)))),
                           icon=ft.Icons.CHECK))
    if due.rescue:
        rows.append(big_button(f"I discarded a {due.rescue} rescue card instead",
                               app.guard(lambda e: _roll_or_dispatch(frame, state, HumanDiscard(rescue=True))),
                               icon=ft.Icons.HEALTH_AND_SAFETY, filled=False))
    return section("You discard", *rows)


def _roll_or_dispatch(frame, state: State, action) -> None:
    n = dice_needed(state, action)
    if n:
        frame.roll(action, count=n, sides=6, what=f"the Machine's rescue check ({n} hand dice)")
    else:
        frame.dispatch(action)


# --- the human's turn -----------------------------------------------------------------------------------


def _human_turn(frame, state: State) -> ft.Control:
    app, solo = frame.app, state.solo
    kinds = set(legal_actions(state))
    h, m = solo.human, solo.machine
    guard = app.guard
    rows: list[ft.Control] = []
    last = _last_human_move(frame)
    if last:
        rows.append(last)
    rows.append(_text("Play from your hand, then end your turn. Keep your hand size right (below): the "
                      "Machine compares it.", ft.TextThemeStyle.BODY_MEDIUM))
    levels = []
    for level in (1, 2, 3, 4):
        block = human_can_play(state, level)
        levels.append(ft.Container(
            _text(f"{ROMAN[level]} {'✓' if block is None else '✗'}", ft.TextThemeStyle.TITLE_MEDIUM,
                  tooltip=block or f"Level {ROMAN[level]} options are playable"),
            padding=ft.Padding.symmetric(horizontal=12, vertical=6), border_radius=8,
            bgcolor=ft.Colors.GREEN_100 if block is None else ft.Colors.SURFACE_CONTAINER_HIGHEST))
    rows.append(ft.Row([_text("You can play levels:", ft.TextThemeStyle.TITLE_SMALL), *levels], wrap=True, spacing=6))
    blocks = [human_can_play(state, lv) for lv in (2, 3, 4)]
    first_block = next((b for b in blocks if b), None)
    if first_block:
        rows.append(_text(f"Next level: {first_block}.", ft.TextThemeStyle.BODY_SMALL, italic=True))

    def btn(text, kind, on_click, icon, why_not=""):
        allowed = kind in kinds
        return ft.FilledTonalButton(content=text, icon=icon, height=TAP, disabled=not allowed,
                                    tooltip=None if allowed else why_not, on_click=guard(on_click))

    rows.append(ft.Row([
        btn("Achievement", "human_achievement", lambda e: _achievement_dialog(frame, state), ft.Icons.ADD_BOX,
            "one achievement per turn, and a hand card to play"),
        btn("Catastrophe", "human_catastrophe", lambda e: _catastrophe_dialog(frame, state), ft.Icons.THUNDERSTORM),
        btn("Espionage", "human_espionage", lambda e: frame.dispatch(HumanEspionage()), ft.Icons.VISIBILITY,
            "level II needed"),
        btn("Sabotage", "human_sabotage", lambda e: frame.dispatch(HumanSabotage()), ft.Icons.CONTENT_CUT,
            "level III needed"),
        btn("Attack", "human_attack", lambda e: _attack_dialog(frame, state), ft.Icons.GPS_FIXED,
            "the Machine holds no achievement"),
        btn("Biosphere 5", "human_biosphere",
            lambda e: app.confirm("Play Biosphere 5?", "You discard Biosphere 5 and five more cards, and win.",
                                  "Play it", lambda: frame.dispatch(HumanBiosphere()), danger=False),
            ft.Icons.PUBLIC, "both level III achievements and 6 hand cards needed"),
    ], wrap=True, spacing=8, run_spacing=8))
    hint = []
    if h.hand > HAND_LIMIT:
        hint = [_text(f"Hand limit {HAND_LIMIT}: ending the turn discards {h.hand - HAND_LIMIT}.",
                      ft.TextThemeStyle.BODY_SMALL)]
    rows += hint
    rows.append(big_button("End my turn", guard(lambda e: frame.dispatch(EndTurn())), icon=ft.Icons.SKIP_NEXT))
    return section(f"Round {solo.round}: your turn", *rows)


def _last_human_move(frame) -> Optional[ft.Control]:
    rows = frame.app.store.history(frame.campaign_id, limit=1)
    if not rows:
        return None
    row = rows[0]
    kind = (row.action or {}).get("kind", "")
    if kind in MACHINE_KINDS or kind in ("end_turn", "table_note", "tray_roll", "set_hand") or not row.events:
        return None
    return tagged("last-move", ft.Container(
        ft.Column([_text(row.label, ft.TextThemeStyle.TITLE_SMALL, weight=ft.FontWeight.BOLD),
                   *[_text(e, ft.TextThemeStyle.BODY_MEDIUM) for e in row.events]], spacing=2),
        padding=12, border_radius=10, bgcolor=ft.Colors.SURFACE_CONTAINER_HIGH))


def _dialog(app, title: str, *controls: ft.Control) -> ft.AlertDialog:
    dialog = ft.AlertDialog(title=ft.Text(title), content=ft.Column(list(controls), tight=True, width=380,
                                                                     scroll=ft.ScrollMode.AUTO, spacing=10))
    dialog.actions = [ft.TextButton(content="Cancel", height=TAP, on_click=lambda e: _close(app, dialog))]
    return dialog


def _achievement_dialog(frame, state: State) -> None:
    app, h = frame.app, state.solo.human
    rows = []
    dialog = _dialog(app, "Play an achievement")

    def play(cat, cube):
        def go(e):
            _close(app, dialog)
            frame.dispatch(HumanAchievement(category=cat, cube=cube))
        return app.guard(go)

    for cat in BOARD:
        block = achievement_block(h.achievements, cat, CATEGORY_LEVEL[cat])
        rows.append(ft.Column([
            _text(f"{cat.capitalize()} (level {ROMAN[CATEGORY_LEVEL[cat]]})", ft.TextThemeStyle.TITLE_SMALL),
            ft.Row([ft.FilledButton(content="Perfect", height=TAP, disabled=bool(block), expand=True,
                                    style=ft.ButtonStyle(bgcolor=ft.Colors.GREEN_700), on_click=play(cat, "green")),
                    ft.FilledButton(content="Makeshift", height=TAP, disabled=bool(block), expand=True,
                                    style=ft.ButtonStyle(bgcolor=ft.Colors.AMBER_800), on_click=play(cat, "yellow"))],
                   spacing=8),
            *([_text(block, ft.TextThemeStyle.BODY_SMALL, italic=True)] if block else []),
        ], spacing=4))
    dialog.content.controls = rows
    app.page.show_dialog(dialog)


def _catastrophe_dialog(frame, state: State) -> None:
    app, solo = frame.app, state.solo
    name = ft.TextField(label="Its name (e.g. Hurricane), optional", max_length=40, text_size=18)
    rescue = ft.Switch(label="I discard a matching rescue card with it", value=False)
    dialog = _dialog(app, "Catastrophe against the Machine", name, rescue,
                     _text("Which category? The Machine is hit first (its rescue dice if this is the round's first "
                           "catastrophe), you last.", ft.TextThemeStyle.BODY_SMALL))

    def play(cat):
        def go(e):
            action = HumanCatastrophe(category=cat, rescue=bool(rescue.value), name=(name.value or "").strip())
            n = dice_needed(state, action)
            _close(app, dialog)
            if n:
                frame.roll(action, count=n, sides=6, what=f"the Machine's rescue check ({n} hand dice)")
            else:
                frame.dispatch(action)
        return app.guard(go)

    for cat in BOARD:
        block = human_can_play(state, CATEGORY_LEVEL[cat])
        mine, its = solo.human.achievements.get(cat), solo.machine.achievements.get(cat)
        shield = lambda c: {None: "none", "yellow": "makeshift", "green": "perfect"}[c]  # noqa: E731
        dialog.content.controls.append(ft.Column([
            ft.FilledTonalButton(content=f"{cat.capitalize()} catastrophe", height=TAP, disabled=bool(block),
                                 on_click=play(cat)),
            _text(block or f"Machine's protection: {shield(its)} · yours: {shield(mine)}",
                  ft.TextThemeStyle.BODY_SMALL, italic=bool(block)),
        ], spacing=2, horizontal_alignment=ft.CrossAxisAlignment.STRETCH))
    app.page.show_dialog(dialog)


def _attack_dialog(frame, state: State) -> None:
    app, m = frame.app, state.solo.machine
    dialog = _dialog(app, "Attack: remove one of the Machine's cubes")

    def hit(cat):
        def go(e):
            _close(app, dialog)
            frame.dispatch(HumanAttack(category=cat))
        return app.guard(go)

    for cat, cube in sorted(m.achievements.items(), key=lambda kv: BOARD.index(kv[0])):
        dialog.content.controls.append(ft.FilledTonalButton(
            content=f"{KIND_OF_CUBE[cube].capitalize()} {cat} ({cube} cube)", height=TAP, on_click=hit(cat)))
    app.page.show_dialog(dialog)


# --- the boards -----------------------------------------------------------------------------------------


def _cubes(prefix: str, held: dict, sizes) -> ft.Control:
    cells = []
    for cat in BOARD:
        cube = held.get(cat)
        word = {"green": "perfect", "yellow": "makeshift"}.get(cube or "", "—")
        cells.append(tagged(f"{prefix}-{cat}", ft.Container(
            ft.Column([_text(cat, ft.TextThemeStyle.LABEL_MEDIUM),
                       _text(word, ft.TextThemeStyle.TITLE_SMALL, weight=ft.FontWeight.BOLD)],
                      spacing=0, horizontal_alignment=ft.CrossAxisAlignment.CENTER),
            width=106, height=TAP + 4, alignment=ft.Alignment.CENTER, border_radius=10,
            bgcolor=CUBE_COLOR.get(cube or "", ft.Colors.SURFACE_CONTAINER_HIGHEST),
            border=ft.Border.all(1, ft.Colors.OUTLINE_VARIANT))))
    return ft.Row(cells, wrap=True, spacing=6, run_spacing=6)


def _level_track(level: int, sizes) -> ft.Control:
    boxes = [ft.Container(_text(str(i), ft.TextThemeStyle.TITLE_SMALL,
                                color=ft.Colors.ON_PRIMARY if i == level else None,
                                weight=ft.FontWeight.BOLD if i == level else None),
                          width=34, height=40, alignment=ft.Alignment.CENTER, border_radius=8,
                          bgcolor=ft.Colors.PRIMARY if i == level else (
                              ft.Colors.PRIMARY_CONTAINER if i < level else ft.Colors.SURFACE_CONTAINER_HIGHEST))
             for i in range(MAX_LEVEL + 1)]
    return ft.Row(boxes, spacing=4, wrap=True, run_spacing=4)


def _machine_board(frame, state: State) -> ft.Control:
    solo = state.solo
    m = solo.machine
    sizes = frame.app.sizes
    n = reveal_count(state) if solo.phase in ("machine", "new_hope") else state.settings.reveal_table[m.level]
    stored = f"Stored: {BIO_NAME} card — checked first each turn." if m.stored else "No card stored on its board."
    return section(
        "The Machine's board",
        ft.Row([_text("Hand card level", ft.TextThemeStyle.TITLE_SMALL, expand=True),
                tagged("machine-level", ft.Text(str(m.level), size=sizes(40), weight=ft.FontWeight.BOLD))],
               vertical_alignment=ft.CrossAxisAlignment.CENTER),
        _level_track(m.level, sizes),
        tagged("machine-reveals", _text(f"Reveals {_s(n, 'card')} " + (
            "this turn" if solo.phase in ("machine", "new_hope") else "next turn"), ft.TextThemeStyle.TITLE_MEDIUM)),
        _text("Achievements (lowest value first)", ft.TextThemeStyle.TITLE_SMALL),
        _cubes("machine", m.achievements, sizes),
        tagged("machine-stored", ft.Row([ft.Icon(ft.Icons.PUBLIC if m.stored else ft.Icons.CHECK_BOX_OUTLINE_BLANK),
                                         _text(stored, expand=True)])),
    )


def _human_board(frame, state: State) -> ft.Control:
    solo, guard = state.solo, frame.app.guard
    h = solo.human
    return section(
        "Your board",
        track("Your hand cards", h.hand, identifier="human-hand", low=0, high=MAX_HAND, sizes=frame.app.sizes,
              on_minus=guard(lambda e: frame.dispatch(SetHand(cards=h.hand - 1))),
              on_plus=guard(lambda e: frame.dispatch(SetHand(cards=h.hand + 1))),
              caption="Enter it after you draw; the Machine's catastrophes compare it."),
        _text("Your achievements", ft.TextThemeStyle.TITLE_SMALL),
        _cubes("human", h.achievements, frame.app.sizes),
    )


# --- The Abyss ------------------------------------------------------------------------------------------


def _abyss_section(frame, state: State) -> ft.Control:
    players = state.abyss.players
    return section("The Abyss", *[_abyss_player(frame, state, i) for i in range(len(players))])


def _who(state: State, exclude: int) -> dict[str, str]:
    """Other sides of an Attack / Espionage / Sabotage: the other players, and the Machine."""
    out = {str(i): p.name for i, p in enumerate(state.abyss.players) if i != exclude and not p.out}
    if state.solo is not None:
        out["machine"] = "the Machine"
    return out


def _abyss_player(frame, state: State, index: int) -> ft.Control:
    app, p = frame.app, state.abyss.players[index]
    guard, out = app.guard, p.out or state.result is not None

    def tap(action):
        return guard(lambda e: frame.dispatch(action))

    doom_bar = ft.Row([ft.Container(width=30, height=14, border_radius=4,
                                    bgcolor=ft.Colors.RED_400 if i < p.doom else ft.Colors.SURFACE_CONTAINER_HIGHEST)
                       for i in range(MAX_DOOM)], spacing=3, wrap=True)
    causes = ft.Row([
        ft.FilledTonalButton(content="Draw pile empty +2", height=TAP, disabled=out, on_click=tap(DoomDrawPile(player=index))),
        ft.FilledTonalButton(content="Achievement missing +1", height=TAP, disabled=out,
                             on_click=tap(DoomMissing(player=index, count=1))),
        ft.FilledTonalButton(content="Attack…", height=TAP, disabled=out,
                             on_click=guard(lambda e: _two_sided_dialog(frame, state, index, "attack"))),
        ft.FilledTonalButton(content="Espionage/Sabotage…", height=TAP, disabled=out,
                             on_click=guard(lambda e: _two_sided_dialog(frame, state, index, "spy"))),
        ft.FilledTonalButton(content="Biosphere 5 face up +1", height=TAP, disabled=out,
                             on_click=tap(DoomFaceUp(player=index))),
        ft.OutlinedButton(content=f"Lower doom −1 (discard {_s(p.doom, 'card')})", height=TAP,
                          disabled=out or p.doom == 0, on_click=tap(DoomDecrease(player=index))),
    ], wrap=True, spacing=8, run_spacing=8)
    leaders = [_leader_row(frame, state, index, lead) for lead in LEADERS]
    extra = []
    if state.solo is None and not out:
        extra.append(ft.OutlinedButton(content=f"{p.name} established Biosphere 5", icon=ft.Icons.PUBLIC, height=TAP,
                                       on_click=guard(lambda e: app.confirm(
                                           "Biosphere 5 established?", f"{p.name} wins the game.", "Yes, wins",
                                           lambda: frame.dispatch(DeclareBiosphere(player=index)), danger=False))))
    status = " · OUT" if p.out else ""
    return ft.Container(ft.Column([
        ft.Row([_text(p.name + status, ft.TextThemeStyle.TITLE_LARGE, weight=ft.FontWeight.BOLD, expand=True),
                _text("Doom", ft.TextThemeStyle.TITLE_SMALL),
                tagged(f"doom-{index}", ft.Text(str(p.doom), size=app.sizes(40), weight=ft.FontWeight.BOLD,
                                                color=ft.Colors.RED_700 if p.doom >= 6 else None))],
               vertical_alignment=ft.CrossAxisAlignment.CENTER),
        doom_bar,
        _text(f"At doom {MAX_DOOM} {p.name} is out at once.", ft.TextThemeStyle.BODY_SMALL, italic=True),
        causes,
        _text("Leaders", ft.TextThemeStyle.TITLE_MEDIUM),
        *leaders, *extra,
    ], spacing=8, horizontal_alignment=ft.CrossAxisAlignment.STRETCH),
        padding=12, border_radius=12, border=ft.Border.all(1, ft.Colors.OUTLINE_VARIANT),
        opacity=0.6 if p.out else 1)


def _leader_row(frame, state: State, index: int, leader: str) -> ft.Control:
    app, p = frame.app, state.abyss.players[index]
    tier = p.leaders[leader]
    out = p.out or state.result is not None
    name = LEADER_NAMES[leader]
    use = ft.FilledTonalButton(content=f"Use tier {tier}", height=TAP, disabled=out or tier == 0,
                               on_click=app.guard(lambda e: _use_ability(frame, state, index, leader, tier)))
    nxt = [_text("Next: " + ability_text(leader, tier + 1), ft.TextThemeStyle.BODY_SMALL, italic=True)] if tier < 3 else []
    return ft.Container(ft.Column([
        ft.Row([_text(name, ft.TextThemeStyle.TITLE_SMALL, weight=ft.FontWeight.BOLD, expand=True),
                _text("tier", ft.TextThemeStyle.BODY_SMALL),
                tagged(f"tier-{index}-{leader}", _text(str(tier), ft.TextThemeStyle.HEADLINE_SMALL,
                                                       weight=ft.FontWeight.BOLD)),
                icon_button(ft.Icons.ARROW_UPWARD, f"Promote {name} ({p.name})",
                            app.guard(lambda e: frame.dispatch(LeaderPromote(player=index, leader=leader))),
                            disabled=out or tier >= 3)],
               vertical_alignment=ft.CrossAxisAlignment.CENTER, spacing=4),
        _text(ability_text(leader, tier), ft.TextThemeStyle.BODY_MEDIUM),
        *nxt,
        *([use] if tier else []),
    ], spacing=4, horizontal_alignment=ft.CrossAxisAlignment.STRETCH),
        padding=10, border_radius=10, bgcolor=ft.Colors.SURFACE_CONTAINER_LOW)


def _use_ability(frame, state: State, index: int, leader: str, tier: int) -> None:
    app = frame.app
    if (leader, tier) == ("true_believer", 3) or leader == "fighter":
        players = {str(i): q.name for i, q in enumerate(state.abyss.players) if not q.out
                   and (leader != "fighter" or i != index)}
        dialog = _dialog(app, f"{LEADER_NAMES[leader]} tier {tier}: on whom?",
                         _text(ability_text(leader, tier), ft.TextThemeStyle.BODY_MEDIUM))

        def pick(target):
            def go(e):
                _close(app, dialog)
                frame.dispatch(LeaderAbility(player=index, leader=leader, tier=tier, target=target))
            return app.guard(go)

        for key, pname in players.items():
            dialog.content.controls.append(ft.FilledTonalButton(content=pname, height=TAP, on_click=pick(int(key))))
        if leader == "fighter":
            dialog.content.controls.append(ft.OutlinedButton(
                content="The Machine / not recorded" if state.solo else "Not recorded", height=TAP, on_click=pick(None)))
        app.page.show_dialog(dialog)
        return
    frame.dispatch(LeaderAbility(player=index, leader=leader, tier=tier))


def _two_sided_dialog(frame, state: State, index: int, what: str) -> None:
    app, p = frame.app, state.abyss.players[index]
    label = "Attack" if what == "attack" else "Espionage or Sabotage"
    ups = "the attacker +1, the attacked +2" if what == "attack" else "both +1"
    dialog = _dialog(app, f"{label} — doom: {ups}")
    others = _who(state, index)

    def record(by, target):
        def go(e):
            _close(app, dialog)
            conv = lambda k: None if k == "machine" else int(k)  # noqa: E731
            if what == "attack":
                frame.dispatch(DoomAttack(attacker=conv(by), target=conv(target)))
            else:
                frame.dispatch(DoomSpy(by=conv(by), target=conv(target)))
        return app.guard(go)

    if not others:
        raise InputError("Nobody else is in the game.")
    for key, name in others.items():
        dialog.content.controls += [
            ft.FilledTonalButton(content=f"{p.name} played it on {name}", height=TAP, on_click=record(str(index), key)),
            ft.FilledTonalButton(content=f"{name} played it on {p.name}", height=TAP, on_click=record(key, str(index))),
        ]
    app.page.show_dialog(dialog)


# --- setup ----------------------------------------------------------------------------------------------


class SetupForm:
    """Man against Machine (difficulty = the Machine's starting hand card level) or The Abyss for people."""

    def __init__(self, app):
        from companion.games.biosphere5.rules import DEFAULT_REVEAL

        self.app = app
        self.opponent = ft.RadioGroup(value="machine", on_change=self._changed, content=ft.Column([
            ft.Container(ft.Radio(value="machine", label="Man against Machine (alone)"), height=TAP),
            ft.Container(ft.Radio(value="people", label="Against people (The Abyss tracker)"), height=TAP),
        ], spacing=0))
        self.abyss = ft.Switch(label="The Abyss: doom and leaders", value=False)
        self.difficulty = ft.Dropdown(
            label="Difficulty: the Machine's starting hand card level", value="2", text_size=18,
            options=[ft.DropdownOption(key=str(i), text=f"{i}" + (" (default)" if i == 2 else "")) for i in range(9)])
        self.players = ft.Dropdown(label="Players at the table", value="2", text_size=18,
                                   options=[ft.DropdownOption(key=str(i), text=str(i)) for i in (2, 3, 4)])
        self.names = ft.TextField(label="Player names, one per line (optional)", multiline=True, min_lines=2)
        self.black = ft.Dropdown(label="Hand die: faces showing the black hand", value="1", text_size=18,
                                 options=[ft.DropdownOption(key=str(i), text=f"{i} of 6") for i in range(7)])
        self.reveal = ft.TextField(label="Cards revealed at level 0..8", value=", ".join(map(str, DEFAULT_REVEAL)),
                                   text_size=18)
        self._changed(None)

    def _changed(self, e) -> None:
        people = self.opponent.value == "people"
        if people:
            self.abyss.value = True
        self.abyss.disabled = people
        self.difficulty.visible = not people
        self.reveal.visible = not people
        self.players.visible = people
        if e is not None:
            for c in self.controls():
                c.update()

    def controls(self) -> list[ft.Control]:
        return [self.opponent, self.abyss, self.difficulty, self.players, self.names, self.black, self.reveal]

    def collect(self) -> dict:
        parts = (self.reveal.value or "").replace(",", " ").split()
        if not all(p.isdigit() for p in parts):
            raise InputError("Cards revealed: nine whole numbers 0–8, e.g. 0, 1, 2, 2, 3, 3, 4, 4, 5.")
        return {
            "opponent": self.opponent.value, "abyss": bool(self.abyss.value),
            "players": int(self.players.value or 2), "difficulty": int(self.difficulty.value or 2),
            "names": [n.strip() for n in (self.names.value or "").splitlines() if n.strip()],
            "hand_die_black_faces": int(self.black.value or 1), "reveal_table": [int(p) for p in parts],
        }
