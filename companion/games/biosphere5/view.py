"""Biosphere 5's panel: Man against Machine (the Machine's board, its turn as "Reveal N cards" → tap the
cards on a grid of the catalog → "Let the Machine decide" → one instruction with the rule that fired and
why the higher ones didn't; the human's turn helpers) and The Abyss (an overview of everyone's doom and
leaders, then per player doom 0–8 with one button per cause, and leader tiers 0–3 with their abilities).
A desktop uses its width (WIDE): the turn beside the boards, the players side by side. The catalog
screen is in screens.py (GAME_SCREENS["catalog"]).

The view decides nothing. Its buttons, their disabled reasons (shown in words under them: a phone has no
tooltips), ranges and labels come from the game's answers (`GAME.legal_moves`, `GAME.why_not`,
`GAME.chance_for`) and rules.py's helpers (reveal_count, usable_tiers, ability_targets, …); cards.py
checks cards. The Machine's rescue dice are the frame's
business: at a physical-dice table the action waits and the frame asks for hand-die faces. Only
transient input (the cards tapped so far, the filter text, the achievements chosen to give up) lives
here, on the frame."""

from __future__ import annotations

from typing import Optional

import flet as ft

from companion.games.base import Event, InputError, Move, field_specs
from companion.games.biosphere5.cards import (
    CATEGORY_LEVEL,
    CATEGORY_TITLES,
    KIND_WORDS,
    ROMAN,
    Card,
    achievement_label,
    category_word,
    protection,
)
from companion.games.biosphere5.rules import (
    ABYSS_LABELS,
    ACHIEVEMENTS,
    BIO_WORDS,
    DEFAULT_REVEAL,
    GAME,
    HAND_LIMIT,
    LEADER_ABILITIES,
    LEADER_NAMES,
    LEADERS,
    MAX_DOOM,
    MAX_LEVEL,
    PROTECTION_WORDS,
    DeclareBiosphere,
    DoomAttack,
    DoomDecrease,
    DoomDrawPile,
    DoomFaceUp,
    DoomMissing,
    DoomSpy,
    HumanCatastrophe,
    LeaderAbility,
    LeaderPromote,
    SetHand,
    Settings,
    State,
    ability_targets,
    ability_text,
    hand_die,
    hand_limit_excess,
    human_can_play,
    player_words,
    rescue_words,
    reveal_action,
    reveal_count,
    reveal_more_action,
    usable_tiers,
)
from companion.games.biosphere5.screens import (CatalogScreen, card_dialog, card_lines, load_cards, lower_text,
                                                 upper_text)
from companion.i18n import N_, _, fmt_percent, ngettext, render
from companion.ui.style import GAP
from companion.ui.widgets import (FormDialog, icon_button, scroll_into_view, scroll_keyed, section, switch_row, tagged, text, track, two_columns,
                                  wide_button)

WIDE = True  # a desktop's full width: the turn beside the boards, The Abyss's players side by side

# Drawn afresh from the state and the screen's choices (`_ui`) on every redraw, and never changed in
# place: the frame reconciles it with what the phone shows, so its controls keep their identity.
RECONCILED = True

GAME_SCREENS = {"catalog": CatalogScreen}

# A desktop (≥ 992 px) puts the turn beside the boards (7/12 of the width); a phone stacks them (turn first).
TURN_SPLIT = 7
LARGE_TEXT = 1.4  # from this text scale on, fewer things side by side, or their words break mid-way
ONE_COLUMN_BELOW = 992  # px: narrower, the sections stand one under another (widgets.two_columns)

CUBE_COLOR = {"green": ft.Colors.GREEN_600, "yellow": ft.Colors.AMBER_400}
MACHINE_KINDS = {"machine_reveal", "machine_reveal_more"}
MACHINE_EVENTS = {"machine_reveal", "new_hope_reveal"}  # a Machine's turn's first event
# A row of the history whose first event is one of these is a move of yours, shown again on your turn.
YOUR_MOVES = {"human_discard", "human_rescue", "human_achievement", "human_catastrophe", "human_espionage",
              "human_sabotage", "human_attack", "doom", "doom_discard", "machine_no_doom", "leader_promote",
              "leader_ability"}


class _Input:
    """Transient input of one screen: the reveal being tapped, the filter, achievements to give up."""

    def __init__(self) -> None:
        self.picking = False
        self.picked: list[str] = []
        self.query = ""
        self.give_up: list[str] = []
        self.at = -1  # the log position this input was made against
        self.open_player = 0  # The Abyss on a phone: whose board is open (the others are their overview rows)


def _input(frame) -> _Input:
    ui = frame.screen_state(_Input)  # this phone's own, kept across redraws
    if ui.at != frame.loaded.cursor:  # undo, redo or another phone moved on: start the input afresh
        ui.picked, ui.give_up, ui.picking = [], [], False
        ui.at = frame.loaded.cursor
    return ui


# --- the panel ------------------------------------------------------------------------------------------


def panel(frame) -> ft.Control:
    """Man against Machine: the turn (the Machine's reveal and decision, or yours) beside the boards on
    a desktop, above them on a phone. The Abyss: everyone's doom and leaders at a glance, then each
    player's buttons (side by side on a desktop). A finished game's result is the frame's end card."""
    state: State = frame.loaded.game_state
    _input(frame)  # forget input made against another log position (after an action, undo or redo)
    moves = GAME.legal_moves(state)
    parts: list[ft.Control] = []
    if state.solo is not None:
        parts.append(_solo_layout(frame, state, moves))
    elif state.abyss is not None:
        parts += _abyss_parts(frame, state)
    catalog = f"/g/biosphere5/catalog?from={frame.campaign_id}"
    parts.append(wide_button(_catalog_label(frame), lambda e: frame.app.go(catalog), icon=ft.Icons.STYLE, filled=False))
    return ft.Column(parts, spacing=GAP, horizontal_alignment=ft.CrossAxisAlignment.STRETCH)


def _catalog_label(frame) -> str:
    from companion.games.biosphere5.cards import check_catalog

    return _("Card catalog · {summary}", summary=check_catalog(load_cards(frame.app.store)).summary())


def _now(frame) -> State:
    """The state when a button is tapped (a kept section's button may have been drawn for an older one)."""
    return frame.loaded.game_state


def _of_kind(moves: list[Move], *kinds: str) -> list[Move]:
    return [m for m in moves if m.kind in kinds]


def _solo_layout(frame, state: State, moves: list[Move]) -> ft.Control:
    """The turn in the wider column, the boards (and your Abyss) beside it; one column on a phone."""
    turn, boards = _solo_parts(frame, state, moves)
    if state.abyss is not None:
        boards.append(_abyss_overview(frame, state) if state.result else _abyss_player(frame, state, 0))
    if not turn:
        return ft.Column(boards, spacing=GAP, horizontal_alignment=ft.CrossAxisAlignment.STRETCH)
    return two_columns(turn, boards, split=TURN_SPLIT, stretch=True)


def _solo_parts(frame, state: State, moves: list[Move]) -> tuple[list[ft.Control], list[ft.Control]]:
    """(the turn's parts, the boards)."""
    solo = state.solo
    parts: list[ft.Control] = []
    if state.result is None:
        if solo.phase in ("machine", "new_hope"):
            parts.append(scroll_keyed(MACHINE_TURN_KEY, _machine_turn(frame, state, _of_kind(moves, *MACHINE_KINDS)[0])))
        elif solo.phase == "discard":
            parts.append(scroll_keyed(DISCARD_KEY, _discard_section(frame, state, _of_kind(moves, "human_discard"))))
    if solo.decision is not None and solo.phase != "machine":
        parts.append(frame.kept("decision", solo.decision, lambda: _decision_section(state)))
    if state.result is None and solo.phase == "human":
        parts.append(scroll_keyed(HUMAN_TURN_KEY, _human_turn(frame, state, moves)))
    kept, set_hand = frame.kept, _of_kind(moves, "set_hand")
    hand_shown = not (solo.phase == "human" and state.result is None)
    boards = [kept("machine-board", (solo.machine, reveal_count(state), solo.phase in ("machine", "new_hope")),
                   lambda: _machine_board(frame, state)),
              kept("human-board", (solo.human, hand_shown, set_hand), lambda: _human_board(frame, state, set_hand))]
    if solo.phase in ("human", "discard"):
        boards.reverse()  # your own board first on your turn: the hand size is what you enter most
    return parts, boards


# Where the parts the game waits for are (ft.ScrollKey): brought into view after a phone's own action.
MACHINE_TURN_KEY, DISCARD_KEY, DECISION_KEY, HUMAN_TURN_KEY = "bio-machine-turn", "bio-discard", "bio-decision", "bio-human-turn"


def next_key(frame) -> Optional[str]:
    """What Man against Machine waits for after this phone's action (the frame scrolls to it): the
    Machine's reveal, the cards you discard, the Machine's fresh instruction (read it, then your turn
    under it), else your turn. The Abyss waits for nobody in particular: None (the screen stays)."""
    state: State = frame.loaded.game_state
    solo = state.solo
    if solo is None or state.result is not None:
        return None
    if solo.phase in ("machine", "new_hope"):
        return MACHINE_TURN_KEY
    if solo.phase == "discard":
        return DISCARD_KEY
    rows = frame.history(1)
    first = Event.coerce(rows[0].events[0]).kind if rows and rows[0].events else None
    if solo.decision is not None and first in MACHINE_EVENTS:
        return DECISION_KEY  # the Machine just moved: its instruction at the top, your turn under it
    return HUMAN_TURN_KEY


def _scroll_to(frame, key: str) -> None:
    """Scroll the screen to the part keyed `key` (ft.ScrollKey), e.g. from an overview to its details."""
    view = frame.app.page.views[-1] if frame.app.page.views else None
    if view is None:
        return

    async def go():
        try:
            await view.scroll_to(scroll_key=key, duration=300)
        except Exception:  # the screen was left, or redrawn without that part
            pass
    frame.app.page.run_task(go)


# --- the Machine's turn ---------------------------------------------------------------------------------


def _machine_turn(frame, state: State, reveal: Move) -> ft.Control:
    """The Machine's turn: `reveal` is the move — ready when no card is revealed, else a template
    whose one field says how many cards came up."""
    solo, ui, app = state.solo, _input(frame), frame.app
    new_hope = solo.phase == "new_hope"
    title = _("New Hope: reveal 3 more") if new_hope else _("Round {round}: the Machine's turn", round=solo.round)
    if reveal.ready:
        why = (_("The stored {card} card is checked before revealing.", card=BIO_WORDS) if solo.machine.stored
               else _("At hand card level {level} the Machine reveals no cards.", level=solo.machine.level))
        return section(title, text(why, ft.TextThemeStyle.BODY_LARGE),
                       wide_button(render(reveal.label), app.guard(lambda e: _decide(frame, state, [])),
                                   icon=ft.Icons.SMART_TOY))
    n = reveal.fields[0].low
    earlier = []
    if new_hope and solo.reveal:
        by_id = {c.id: c for c in load_cards(app.store)}
        earlier = [text(_("Revealed before: {cards}", cards=", ".join(by_id[i].name if i in by_id else i
                                                                        for i in solo.reveal.revealed)), italic=True)]
    if not ui.picking:
        return section(
            title, *earlier,
            text(ngettext("Turn over the top card of the Machine's draw pile, then tap which came up.",
                          "Turn over the top {n} cards of the Machine's draw pile, then tap which came up.", n),
                 ft.TextThemeStyle.BODY_LARGE),
            wide_button(render(reveal.label), lambda e: _start_picking(frame), icon=ft.Icons.STYLE),
        )
    return section(title, *earlier, *_picker(frame, state, n))


def _start_picking(frame) -> None:
    ui = _input(frame)
    ui.picking, ui.picked, ui.query = True, [], ""
    frame.refresh()


def _picker(frame, state: State, n: int) -> list[ft.Control]:
    """Tap each card that came up on a grid of the whole catalog (a filter narrows it, if wanted);
    "Let the Machine decide" is greyed out, with the game's reason, until the tapped cards fit."""
    app, ui = frame.app, _input(frame)
    cards = load_cards(app.store)
    by_id = {c.id: c for c in cards}
    count = len(ui.picked)
    chips = []
    for i, cid in enumerate(ui.picked):
        name = by_id[cid].name if cid in by_id else cid
        chips.append(ft.Container(
            ft.Row([text(name, ft.TextThemeStyle.TITLE_SMALL),
                    icon_button(ft.Icons.CLOSE, _("Remove {card}", card=name), lambda e, i=i: _unpick(frame, i),
                                size=22)],
                   spacing=0, tight=True, vertical_alignment=ft.CrossAxisAlignment.CENTER),
            padding=ft.Padding.only(left=12), border_radius=24, bgcolor=ft.Colors.PRIMARY_CONTAINER))
    q = ui.query.strip().lower()
    shown = [c for c in sorted(cards, key=lambda c: c.name.lower()) if not q or q in " ".join(card_lines(c)).lower()]
    # Two tiles a row on a phone, three on a tablet or in a desktop's turn column (TURN_SPLIT); at the
    # larger text sizes half as many, or long names ("Surveillance Technology") break mid-word.
    cols = {"xs": 12, "sm": 6} if app.sizes.scale >= LARGE_TEXT else {"xs": 6, "md": 4}
    kept = frame.kept
    tiles = [kept(f"tile-{c.id}", (c, ui.picked.count(c.id), cols), lambda c=c: _tile(frame, c, ui.picked.count(c.id), cols))
             for c in shown]
    grid = (ft.ResponsiveRow(tiles, spacing=8, run_spacing=8)
            if shown else text(_("No card matches “{query}”. Add it below.", query=ui.query), italic=True))

    def searched(e) -> None:
        ui.query = e.control.value or ""
        frame.refresh()  # drawn again with the filter; the field itself is matched, so typing goes on

    search = ft.TextField(label=_("Filter cards"), hint_text=_("optional"), value=ui.query,
                          prefix_icon=ft.Icons.SEARCH, on_change=searched)
    refusal = None
    if count == n:  # the rules' own check (a card tapped more often than the deck holds it, say)
        try:
            refusal = GAME.why_not(state, _reveal(state, by_id, ui.picked))
        except InputError as exc:
            refusal = str(exc)
    status = (_("{count} of {n} tapped — tap {more} more", count=count, n=n, more=n - count) if count < n
              else _("{count} tapped, but only {n} came up", count=count, n=n) if count > n
              else _("{count} of {n} tapped", count=count, n=n) if refusal
              else _("{count} of {n} tapped — ready", count=count, n=n))
    return [
        ft.Container(tagged("reveal-status", text(status, ft.TextThemeStyle.TITLE_MEDIUM,
                                                  color=ft.Colors.ERROR if count > n else None)),
                     key=ft.ScrollKey("reveal-top")),
        ft.Row(chips, wrap=True, spacing=8, run_spacing=8) if chips else text(_("No card tapped yet."), italic=True),
        wide_button(_("Let the Machine decide"), app.guard(lambda e: _decide(frame, state, list(ui.picked))),
                    icon=ft.Icons.SMART_TOY, disabled=count != n or refusal is not None, tooltip=refusal),
        *([tagged("reveal-refusal", text(refusal, color=ft.Colors.ERROR))] if refusal else []),
        text(_("Tap each card that came up:"), ft.TextThemeStyle.TITLE_SMALL),
        search,
        grid,
        ft.Row([
            wide_button(_("Add a card"), app.guard(lambda e: card_dialog(app, None, lambda c: _picked_new(frame, c),
                                                                        title=_("Add the revealed card"))),
                        icon=ft.Icons.ADD, filled=False),
            wide_button(_("Cancel"), lambda e: _cancel_picking(frame), filled=False),
        ], spacing=GAP, run_spacing=8, wrap=True),
    ]


def _tile(frame, card: Card, tapped: int, cols: dict) -> ft.Control:
    """One catalog card as a big tile: its name and both options; highlighted once tapped."""
    def line(icon, words: str) -> ft.Control:
        return ft.Row([ft.Icon(icon, size=14), text(words, ft.TextThemeStyle.BODY_SMALL, expand=True)],
                      spacing=4, vertical_alignment=ft.CrossAxisAlignment.START)

    texts = [text(card_lines(card)[0], ft.TextThemeStyle.TITLE_SMALL, bold=True),
             line(ft.Icons.NORTH, upper_text(card)), line(ft.Icons.SOUTH, lower_text(card))]
    if not card.is_complete:
        texts.append(text(_("Incomplete: tap to complete it"), ft.TextThemeStyle.BODY_SMALL, italic=True,
                          color=ft.Colors.TERTIARY))
    if tapped:
        texts.append(text(_("Tapped ×{n}", n=tapped) if tapped > 1 else _("Tapped"), ft.TextThemeStyle.LABEL_LARGE,
                          bold=True, color=ft.Colors.PRIMARY))
    return ft.OutlinedButton(
        content=ft.Container(ft.Column(texts, spacing=2), padding=ft.Padding.symmetric(vertical=8)),
        style=ft.ButtonStyle(shape=ft.RoundedRectangleBorder(radius=12), alignment=ft.Alignment.TOP_LEFT,
                             padding=ft.Padding.symmetric(horizontal=10),
                             bgcolor=ft.Colors.PRIMARY_CONTAINER if tapped else None,
                             side=ft.BorderSide(2, ft.Colors.PRIMARY) if tapped else None),
        col=dict(cols),
        on_click=frame.app.guard(lambda e: _pick(frame, card)),
    )


def _pick(frame, card: Card) -> None:
    if not card.is_complete:
        card_dialog(frame.app, card, lambda c: _picked_new(frame, c),
                    title=_("Complete {card} (the Machine needs it)", card=card.name))
        return
    _add_pick(frame, card)


def _picked_new(frame, card: Card) -> None:
    if card.is_complete:
        _add_pick(frame, card)
    else:
        frame.refresh()


def _add_pick(frame, card: Card) -> None:
    """Tap one revealed card; the filter clears, and once all have been tapped the screen scrolls back
    up to "Let the Machine decide" (the grid of 25 cards is long on a phone)."""
    ui = _input(frame)
    ui.picked.append(card.id)
    ui.query = ""
    frame.refresh()
    if len(ui.picked) >= reveal_count(frame.loaded.game_state):
        _scroll_to(frame, "reveal-top")


def _unpick(frame, index: int) -> None:
    ui = _input(frame)
    if 0 <= index < len(ui.picked):
        ui.picked.pop(index)
    frame.refresh()


def _cancel_picking(frame) -> None:
    ui = _input(frame)
    ui.picking, ui.picked = False, []
    frame.refresh()


def _reveal(state: State, catalog: dict, ids: list[str]):
    return reveal_more_action(state, catalog, ids) if state.solo.phase == "new_hope" else reveal_action(catalog, ids)


def _decide(frame, state: State, ids: list[str]) -> None:
    action = _reveal(state, {c.id: c for c in load_cards(frame.app.store)}, ids)
    frame.dispatch(action, pulse=True)  # a catastrophe the Machine plays may roll its rescue dice


def _decision_section(state: State) -> ft.Control:
    d = state.solo.decision
    controls: list[ft.Control] = [
        tagged("machine-instruction", scroll_keyed(DECISION_KEY, ft.Container(
            text(d.instruction, ft.TextThemeStyle.HEADLINE_SMALL, bold=True),
            padding=14, border_radius=12, bgcolor=ft.Colors.SECONDARY_CONTAINER))),
        ft.Row([ft.Icon(ft.Icons.RULE), text(_("Rule {rule} fired", rule=d.rule), ft.TextThemeStyle.TITLE_MEDIUM,
                                             expand=True)]),
        tagged("machine-why", text(d.why, ft.TextThemeStyle.BODY_LARGE)),
        ft.Row([ft.Icon(ft.Icons.STYLE), text(d.cards, ft.TextThemeStyle.BODY_LARGE, expand=True)]),
    ]
    if d.not_fired:
        # Folded: on a phone the list pushed your turn (what the game waits for now) off the screen.
        controls.append(ft.ExpansionTile(
            title=text(_("Why the higher rules didn't fire"), ft.TextThemeStyle.TITLE_SMALL),
            controls_padding=ft.Padding.only(bottom=8), tile_padding=ft.Padding.all(0),
            expanded_cross_axis_alignment=ft.CrossAxisAlignment.STRETCH,
            controls=[text("• " + render(x), ft.TextThemeStyle.BODY_MEDIUM) for x in d.not_fired]))
    return section(_("The Machine's move"), *controls)


# --- what the human owes ----------------------------------------------------------------------------------


def _discard_section(frame, state: State, options: list[Move]) -> ft.Control:
    """Paying what is due: `options` are the discard moves — paying with hand cards (a template when
    you choose which achievements to give up), and a rescue card instead against a catastrophe."""
    solo, app, ui = state.solo, frame.app, _input(frame)
    h = solo.human
    rescue = [m for m in options if m.ready and m.action.rescue]
    pay = [m for m in options if m not in rescue]
    rows: list[ft.Control] = [
        tagged("due", text(solo.due.why, ft.TextThemeStyle.TITLE_MEDIUM, bold=True)),
        text(ngettext("You hold {n} hand card (correct it below if that's wrong).",
                      "You hold {n} hand cards (correct it below if that's wrong).", h.hand),
             ft.TextThemeStyle.BODY_LARGE),
    ]
    for move in pay:
        if move.ready:
            rows.append(_move_button(frame, move, ft.Icons.CHECK))
            continue
        give_up = move.fields[0]
        rows.append(text(render(give_up.label) + ".", ft.TextThemeStyle.BODY_LARGE, color=ft.Colors.ERROR))
        for cat in give_up.choices:
            def toggle(e, cat=cat):
                (ui.give_up.remove if cat in ui.give_up else ui.give_up.append)(cat)
                frame.refresh()
            rows.append(_tick(_("Give up your {achievement}", achievement=achievement_label(cat, h.achievements[cat])),
                              cat in ui.give_up, toggle))
        chosen = len(ui.give_up)
        rows.append(wide_button(render(move.label), app.guard(lambda e: frame.dispatch(
            GAME.parse_action({"kind": move.kind, "give_up": list(ui.give_up)}), pulse=True)),
            icon=ft.Icons.CHECK, disabled=not give_up.low <= chosen <= give_up.high))
    for move in rescue:
        rows.append(_move_button(frame, move, ft.Icons.HEALTH_AND_SAFETY, filled=False))
    return section(_("You discard"), *rows)


def _tick(label: str, value: bool, on_toggle) -> ft.Control:
    """A checkbox with its words wrapping beside it (a Checkbox's own label is cut off on a narrow
    phone); a tap anywhere on the row toggles it. The screen is drawn again from the input."""
    return ft.Semantics(label=label, checked=value, container=True, content=ft.Container(
        ft.Row([ft.Checkbox(value=value, on_change=on_toggle), text(label, ft.TextThemeStyle.BODY_LARGE, expand=True)],
               vertical_alignment=ft.CrossAxisAlignment.CENTER),
        on_click=on_toggle, border_radius=8, padding=ft.Padding.symmetric(vertical=4)))


def _move_button(frame, move: Move, icon, *, filled: bool = True) -> ft.Control:
    """A big button for a ready move: greyed out with the game's reason, shown under it, when it isn't
    allowed now. A move may roll (the Machine's rescue check): the frame asks a physical-dice table
    for the dice."""
    button = wide_button(render(move.label), frame.app.guard(lambda e: frame.dispatch(move.action, pulse=True)),
                         icon=icon,
                         filled=filled, disabled=move.why_not is not None, tooltip=move.why_not)
    if move.why_not is None:
        return button
    return ft.Column([button, text(move.why_not, ft.TextThemeStyle.BODY_SMALL)], spacing=4,
                     horizontal_alignment=ft.CrossAxisAlignment.STRETCH)


# --- the human's turn -----------------------------------------------------------------------------------


def _human_turn(frame, state: State, moves: list[Move]) -> ft.Control:
    """Your turn: your hand size first (every play costs a card, and a new game counts none), the
    plays, and under them, in words, why each greyed-out one can't be played now."""
    solo = state.solo
    rows: list[ft.Control] = []
    last = _last_human_move(frame)
    if last:
        rows.append(last)
    at = len(rows)  # where a reason greying every play goes: first, above the hand size it may ask for
    kept, set_hand = frame.kept, _of_kind(moves, "set_hand")
    rows.append(kept("hand-track", (solo.human.hand, set_hand), lambda: _hand_track(frame, state, set_hand)))
    rows.append(text(_("Play from your hand, then end your turn."), ft.TextThemeStyle.BODY_MEDIUM))
    blocks = tuple(human_can_play(state, level) for level in (1, 2, 3, 4))
    rows.append(kept("levels", blocks, lambda: _levels(blocks)))
    kinds = ("human_achievement", "human_catastrophe", "human_espionage", "human_sabotage", "human_attack",
             "human_biosphere")
    options = {kind: tuple(_of_kind(moves, kind)) for kind in kinds}
    greyed: list[tuple[str, Optional[str]]] = []
    for label, kind in zip(_play_labels(), kinds):
        allowed = any(m.why_not is None for m in options[kind])
        greyed.append((label, None if allowed else next((m.why_not for m in options[kind] if m.why_not), None)))
    rows.append(kept("plays", options, lambda: _plays(frame, options, greyed)))
    reasons = _reasons(greyed, "play-reasons")
    if _one_reason(greyed):
        rows[at:at] = reasons
    else:
        rows += reasons
    excess = hand_limit_excess(state)
    if excess:
        rows.append(text(_("Hand limit {limit}: ending the turn discards {n}.", limit=HAND_LIMIT, n=excess),
                         ft.TextThemeStyle.BODY_SMALL))
    for end in _of_kind(moves, "end_turn"):
        rows.append(_move_button(frame, end, ft.Icons.SKIP_NEXT))
    return section(_("Round {round}: your turn", round=solo.round), *rows)


def _levels(blocks: tuple) -> ft.Control:
    """The levels you can play (✓) or not (✗, the reason in its tooltip)."""
    levels = []
    for level, block in zip((1, 2, 3, 4), blocks):
        levels.append(ft.Container(
            text(f"{ROMAN[level]} {'✓' if block is None else '✗'}", ft.TextThemeStyle.TITLE_MEDIUM,
                 tooltip=render(block) if block else _("Level {level} options are playable", level=ROMAN[level])),
            padding=ft.Padding.symmetric(horizontal=12, vertical=6), border_radius=8,
            bgcolor=ft.Colors.GREEN_100 if block is None else ft.Colors.SURFACE_CONTAINER_HIGHEST))
    return ft.Row([text(_("You can play levels:"), ft.TextThemeStyle.TITLE_SMALL), *levels], wrap=True, spacing=6)


def _play_labels() -> tuple[str, ...]:
    """The words of the play buttons, in the order of _plays."""
    return (_("Achievement"), _("Catastrophe"), _("Espionage"), _("Sabotage"), _("Attack"),
            render(KIND_WORDS["biosphere"]))


def _plays(frame, options: dict, greyed: list[tuple[str, Optional[str]]]) -> ft.Control:
    """One button for each kind of play (`options`: its moves): enabled when any of its moves is
    allowed, else greyed out with the reason of its first move (`greyed`: (label, reason))."""
    app = frame.app
    actions = (
        (lambda ms: _achievement_dialog(frame, ms), ft.Icons.ADD_BOX),
        (lambda ms: _catastrophe_dialog(frame, _now(frame), ms), ft.Icons.THUNDERSTORM),
        (lambda ms: frame.dispatch(ms[0].action), ft.Icons.VISIBILITY),
        (lambda ms: frame.dispatch(ms[0].action), ft.Icons.CONTENT_CUT),
        (lambda ms: _attack_dialog(frame, ms), ft.Icons.GPS_FIXED),
        (lambda ms: app.confirm(_("Play Biosphere 5?"), _("You play Biosphere 5 and win the game."),
                                _("Play it"), lambda: frame.dispatch(ms[0].action), danger=False), ft.Icons.PUBLIC),
    )
    buttons = []
    for (label, reason), ms, (on_click, icon) in zip(greyed, options.values(), actions):
        allowed = any(m.why_not is None for m in ms)
        buttons.append(wide_button(label, app.guard(lambda e, on_click=on_click, ms=list(ms): on_click(ms)), icon=icon,
                                   tonal=True, disabled=not allowed, tooltip=reason))
    return ft.Row(buttons, wrap=True, spacing=8, run_spacing=8)


def _one_reason(buttons: list[tuple[str, Optional[str]]]) -> Optional[str]:
    """The reason that greys out every one of several buttons, if one does."""
    reasons = {reason for _, reason in buttons}
    return next(iter(reasons)) if len(buttons) > 1 and len(reasons) == 1 else None


def _reasons(buttons: list[tuple[str, Optional[str]]], identifier: str) -> list[ft.Control]:
    """Why greyed-out buttons are greyed out, in words a phone shows (a tooltip needs a mouse): one
    line per reason naming its buttons, or the reason alone, standing out, when it greys them all."""
    grouped: dict[str, list[str]] = {}
    for label, reason in buttons:
        if reason:
            grouped.setdefault(reason, []).append(label)
    if not grouped:
        return []
    reason = _one_reason(buttons)
    if reason:
        return [tagged(identifier, ft.Container(
            ft.Row([ft.Icon(ft.Icons.INFO_OUTLINE, color=ft.Colors.ON_TERTIARY_CONTAINER),
                    text(reason, ft.TextThemeStyle.TITLE_SMALL, bold=True, expand=True,
                         color=ft.Colors.ON_TERTIARY_CONTAINER)],
                   vertical_alignment=ft.CrossAxisAlignment.START),
            padding=12, border_radius=10, bgcolor=ft.Colors.TERTIARY_CONTAINER))]
    return [tagged(identifier, ft.Column(
        [text(f"{', '.join(labels)}: {reason}", ft.TextThemeStyle.BODY_SMALL) for reason, labels in grouped.items()],
        spacing=4))]


def _last_human_move(frame) -> Optional[ft.Control]:
    """Your last move and what came of it (the Machine's rescue check, say), read from its events."""
    rows = frame.history(1)
    if not rows:
        return None
    row = rows[0]
    events = [Event.coerce(e) for e in row.events]
    if not events or events[0].kind not in YOUR_MOVES:
        return None
    return tagged("last-move", ft.Container(
        ft.Column([text(row.label, ft.TextThemeStyle.TITLE_SMALL, bold=True),
                   *[text(e.text, ft.TextThemeStyle.BODY_MEDIUM) for e in events]], spacing=2),
        padding=12, border_radius=10, bgcolor=ft.Colors.SURFACE_CONTAINER_HIGH))


def _achievement_dialog(frame, options: list[Move]) -> None:
    """One row per category: perfect or makeshift, each greyed out with the game's reason."""
    form = FormDialog(frame.app, _("Play an achievement"), modal=False)
    colors = {"green": ft.Colors.GREEN_700, "yellow": ft.Colors.AMBER_800}

    def cube_button(m: Move) -> ft.Control:
        # Side by side while they fit, one under the other at a large text size ("Makeshift" whole).
        button = form.button(_("Perfect") if m.action.cube == "green" else _("Makeshift"),
                             lambda: frame.dispatch(m.action), disabled=m.why_not is not None)
        button.style = ft.ButtonStyle(bgcolor=colors[m.action.cube])
        return button

    for cat in ACHIEVEMENTS:
        pair = [m for m in options if m.action.category == cat]
        reason = next((m.why_not for m in pair if m.why_not), None)
        form.fields.controls.append(ft.Column([
            text(_("{category} (level {level})", category=CATEGORY_TITLES[cat], level=ROMAN[CATEGORY_LEVEL[cat]]),
                 ft.TextThemeStyle.TITLE_SMALL),
            ft.Row([cube_button(m) for m in pair], spacing=8, run_spacing=8, wrap=True),
            *([text(reason, ft.TextThemeStyle.BODY_SMALL, italic=True)] if reason else []),
        ], spacing=4))
    form.show()


def _catastrophe_dialog(frame, state: State, options: list[Move]) -> None:
    """One button per category, enabled when the catastrophe may be played with or without a rescue
    card; under it the protections and the Machine's rescue odds, from the roll the rules declare."""
    solo = state.solo
    name = ft.TextField(label=_("Its name"), hint_text=_("optional, e.g. Hurricane"), max_length=40, text_size=18)
    # switch_row: a Switch's own label never wraps, and this one is cut off on a 360 px phone.
    rescue_row, rescue = switch_row(_("I discard a matching rescue card with it"), False)
    form = FormDialog(frame.app, _("Catastrophe against the Machine"), [
        name, rescue_row, text(_("Which category? The Machine is hit first, you last."), ft.TextThemeStyle.BODY_SMALL),
    ], modal=False)

    def play(cat):
        return lambda: frame.dispatch(HumanCatastrophe(category=cat, rescue=bool(rescue.value),
                                                       name=(name.value or "").strip()), pulse=True)

    for cat in ACHIEVEMENTS:
        pair = [m for m in options if m.action.category == cat]
        allowed = [m for m in pair if m.why_not is None]
        if allowed:
            shields = _("Machine's protection: {machine} · yours: {yours}",
                        machine=_shield(solo.machine.achievements.get(cat)), yours=_shield(solo.human.achievements.get(cat)))
            chance = GAME.chance_for(state, allowed[0].action)
            # The roll the rules declare: the hand dice, and the first outcome's odds (the Machine saved).
            odds = (ngettext("Rescue check: {n} hand die; {outcome}: {percent}",
                             "Rescue check: {n} hand dice; {outcome}: {percent}", chance.count,
                             outcome=rescue_words(0, 0), percent=fmt_percent(chance.outcomes[0].probability))
                    if chance else _("No rescue check for the Machine."))
            hint = f"{shields}. {odds}"
        else:
            hint = pair[-1].why_not or ""
        form.fields.controls.append(ft.Column([
            form.button(_("{category} catastrophe", category=CATEGORY_TITLES[cat]), play(cat), tonal=True,
                        disabled=not allowed),
            text(hint, ft.TextThemeStyle.BODY_SMALL, italic=not allowed),
        ], spacing=2, horizontal_alignment=ft.CrossAxisAlignment.STRETCH))
    form.show()


def _shield(cube: Optional[str]) -> str:
    return render(PROTECTION_WORDS[protection(cube)])


def _attack_dialog(frame, options: list[Move]) -> None:
    form = FormDialog(frame.app, _("Attack: remove one of the Machine's cubes"), modal=False)
    form.fields.controls = [form.button(render(m.label), lambda m=m: frame.dispatch(m.action), tonal=True)
                            for m in options if m.why_not is None]
    form.show()


# --- the boards -----------------------------------------------------------------------------------------


def _achievement_cells(prefix: str, held: dict, sizes) -> ft.Control:
    """One cell per category, three a row (two at a large text size, so "community" stays whole);
    each grows with its words rather than cutting them off."""
    col = {"xs": 6} if sizes.scale >= LARGE_TEXT else {"xs": 4}
    cells = []
    for cat in ACHIEVEMENTS:
        cube = held.get(cat)
        word = {"green": KIND_WORDS["perfect"], "yellow": KIND_WORDS["makeshift"]}.get(cube or "", "—")
        cells.append(tagged(f"{prefix}-{cat}", ft.Container(
            ft.Column([text(category_word(cat), ft.TextThemeStyle.LABEL_MEDIUM, text_align=ft.TextAlign.CENTER),
                       text(word, ft.TextThemeStyle.TITLE_SMALL, bold=True, text_align=ft.TextAlign.CENTER)],
                      spacing=0, tight=True, horizontal_alignment=ft.CrossAxisAlignment.CENTER),
            padding=ft.Padding.symmetric(horizontal=4, vertical=6), alignment=ft.Alignment.CENTER, border_radius=10,
            bgcolor=CUBE_COLOR.get(cube or "", ft.Colors.SURFACE_CONTAINER_HIGHEST),
            border=ft.Border.all(1, ft.Colors.OUTLINE_VARIANT))))
        cells[-1].col = col
    return ft.ResponsiveRow(cells, spacing=6, run_spacing=6)


def _level_track(level: int, sizes) -> ft.Control:
    boxes = [ft.Container(text(str(i), ft.TextThemeStyle.TITLE_SMALL,
                               color=ft.Colors.ON_PRIMARY if i == level else None,
                               bold=i == level),
                          width=34, height=40, alignment=ft.Alignment.CENTER, border_radius=8,
                          bgcolor=ft.Colors.PRIMARY if i == level else (
                              ft.Colors.PRIMARY_CONTAINER if i < level else ft.Colors.SURFACE_CONTAINER_HIGHEST))
             for i in range(MAX_LEVEL + 1)]
    return ft.Row(boxes, spacing=4, wrap=True, run_spacing=4)


def _machine_board(frame, state: State) -> ft.Control:
    solo = state.solo
    m = solo.machine
    sizes = frame.app.sizes
    n = reveal_count(state)
    stored = (_("Stored: {card} card — checked first each turn.", card=BIO_WORDS) if m.stored
              else _("No card stored on its board."))
    reveals = (ngettext("Reveals {n} card this turn", "Reveals {n} cards this turn", n)
               if solo.phase in ("machine", "new_hope") else
               ngettext("Reveals {n} card next turn", "Reveals {n} cards next turn", n))
    return section(
        _("The Machine's board"),
        ft.Row([text(_("Hand card level"), ft.TextThemeStyle.TITLE_SMALL, expand=True),
                tagged("machine-level", ft.Text(str(m.level), size=sizes(40), weight=ft.FontWeight.BOLD))],
               vertical_alignment=ft.CrossAxisAlignment.CENTER),
        _level_track(m.level, sizes),
        tagged("machine-reveals", text(reveals, ft.TextThemeStyle.TITLE_MEDIUM)),
        text(_("Achievements (lowest value first)"), ft.TextThemeStyle.TITLE_SMALL),
        _achievement_cells("machine", m.achievements, sizes),
        tagged("machine-stored", ft.Row([ft.Icon(ft.Icons.PUBLIC if m.stored else ft.Icons.CHECK_BOX_OUTLINE_BLANK),
                                         text(stored, expand=True)])),
    )


def _hand_track(frame, state: State, set_hand: list[Move]) -> ft.Control:
    """Your hand size; its range is the set-hand move's (none once the game is over)."""
    h, guard = state.solo.human, frame.app.guard
    field = set_hand[0].fields[0] if set_hand else None

    def change(by: int):
        return guard(lambda e: frame.dispatch(SetHand(cards=h.hand + by)))

    return track(_(field.label) if field else _("Your hand cards"), h.hand, identifier="human-hand",
                 low=field.low if field else None, high=field.high if field else None, sizes=frame.app.sizes,
                 on_minus=change(-1) if field else None, on_plus=change(+1) if field else None,
                 caption=_("Enter it after you draw; the Machine's catastrophes compare it."))


def _human_board(frame, state: State, set_hand: list[Move]) -> ft.Control:
    """Your board: your hand size (on your turn it sits with your plays instead) and achievements."""
    solo = state.solo
    hand = [] if solo.phase == "human" and state.result is None else [_hand_track(frame, state, set_hand)]
    return section(
        _("Your board"),
        *hand,
        text(_("Your achievements"), ft.TextThemeStyle.TITLE_SMALL),
        _achievement_cells("human", solo.human.achievements, frame.app.sizes),
    )


# --- The Abyss ------------------------------------------------------------------------------------------
# Every button asks the game about its own action (GAME.why_not): greyed out, with the reason, when the
# player is out, the game is over, or the rule says no (doom already 0, a leader at tier 3, …).


def _one_board(frame) -> bool:
    """Whether The Abyss shows one player's board at a time: on a phone (one column) three players'
    boards were about 4,400 px tall; a desktop has them side by side."""
    width = getattr(getattr(frame.app, "page", None), "width", None)
    return width is not None and width < ONE_COLUMN_BELOW


def _abyss_parts(frame, state: State) -> list[ft.Control]:
    """Against people: everyone's doom and leaders at a glance first; then, while the game goes on,
    each player's buttons — side by side on a desktop; on a phone one player's board, the one whose
    overview row was tapped last (the others are their rows in the overview)."""
    players = state.abyss.players
    parts = [_abyss_overview(frame, state)]
    if state.result is None:
        col = {"xs": 12, "lg": 6, "xl": 4} if len(players) == 3 else {"xs": 12, "lg": 6}
        shown = ([min(_input(frame).open_player, len(players) - 1)] if _one_board(frame) and len(players) > 1
                 else range(len(players)))
        cards = [_abyss_player(frame, state, i) for i in shown]
        for card in cards:
            card.col = col
        parts.append(ft.ResponsiveRow(cards, spacing=GAP, run_spacing=GAP,
                                      vertical_alignment=ft.CrossAxisAlignment.START))
    return parts


def _abyss_overview(frame, state: State) -> ft.Control:
    """A tile per player: doom, its bar, the tiers of the leaders promoted. On a desktop the tiles sit
    side by side; on a phone one under another, and a tap on one scrolls to that player's buttons."""
    players = state.abyss.players
    n = len(players)
    jump = state.result is None and n > 1
    one_board = jump and _one_board(frame)
    opened = min(_input(frame).open_player, n - 1) if one_board else None
    col = {"xs": 12, "md": 6, "lg": 12 // n} if n > 1 else {"xs": 12}
    kept = frame.kept
    tiles = [kept(f"overview-{i}", (players[i], render(player_words(state, i)), jump, col, opened == i),
                  lambda i=i: _overview_tile(frame, state, i, jump, col, opened == i))
             for i in range(n)]
    words = _("At doom {max} a player is out at once.", max=MAX_DOOM)
    if one_board:
        words += " " + _("Tap a player to open their doom and leader buttons below.")
    elif jump:
        words += " " + _("Tap a player to go to their doom and leader buttons.")
    return tagged("abyss-overview", section(
        _("The Abyss"), text(words, ft.TextThemeStyle.BODY_SMALL, italic=True),
        ft.ResponsiveRow(tiles, spacing=8, run_spacing=8, vertical_alignment=ft.CrossAxisAlignment.START)))


def _overview_tile(frame, state: State, index: int, jump: bool, col: dict, opened: bool = False) -> ft.Control:
    """A player's row: doom and promoted leaders; tapped, their board below (opened on a phone, whose
    board is the one open: its row is outlined)."""
    p, sizes = state.abyss.players[index], frame.app.sizes

    def chip(leader: str) -> ft.Control:
        tier = p.leaders[leader]
        return ft.Container(
            ft.Row([text(LEADER_NAMES[leader], ft.TextThemeStyle.LABEL_LARGE),
                    tagged(f"overview-tier-{index}-{leader}",
                           text(str(tier), ft.TextThemeStyle.TITLE_SMALL, bold=True))],
                   spacing=6, tight=True, vertical_alignment=ft.CrossAxisAlignment.CENTER),
            padding=ft.Padding.symmetric(horizontal=10, vertical=4), border_radius=8,
            bgcolor=ft.Colors.PRIMARY_CONTAINER if tier else ft.Colors.SURFACE_CONTAINER_HIGHEST)

    number = ft.Text(str(p.doom), size=sizes(30), weight=ft.FontWeight.BOLD,
                     color=ft.Colors.RED_700 if p.doom >= 6 else None)
    head = _name_and_doom(state, index, text(_("Doom"), ft.TextThemeStyle.LABEL_LARGE), ft.TextThemeStyle.TITLE_MEDIUM,
                          tagged(f"overview-doom-{index}", number))
    # The leaders above tier 0 (one line, or none, for most of a game; the tier of the others is 0).
    promoted = [lead for lead in LEADERS if p.leaders[lead]]
    leaders = (ft.Row([chip(lead) for lead in promoted], wrap=True, spacing=6, run_spacing=6) if promoted
               else text(_("Leaders all at tier 0"), ft.TextThemeStyle.BODY_SMALL, italic=True))
    tile = ft.Container(
        ft.Column([head, _doom_bar(p.doom, 10), leaders],
                  spacing=8, tight=True, horizontal_alignment=ft.CrossAxisAlignment.STRETCH),
        padding=12, border_radius=12, opacity=0.6 if p.out else 1,
        border=ft.Border.all(3, ft.Colors.PRIMARY) if opened else ft.Border.all(1, ft.Colors.OUTLINE_VARIANT),
        on_click=(lambda e: _open_player(frame, index)) if jump else None, ink=jump)
    tile = tagged(f"overview-{index}", tile)
    tile.col = col
    return tile


def _open_player(frame, index: int) -> None:
    """A tap on a player's overview row: on a phone their board opens in place of the one open (this
    phone's choice, kept across redraws); then the screen goes to it."""
    if _one_board(frame):
        ui = _input(frame)
        if ui.open_player != index:
            ui.open_player = index
            frame.refresh()
    scroll_into_view(frame, f"abyss-player-{index}")  # (after the redraw's layout: the board may be new)


def _name_and_doom(state: State, index: int, label: ft.Control, style: ft.TextThemeStyle,
                   number: ft.Control) -> ft.Control:
    """A player's name, and their doom at the far end; the doom goes under the name when both don't
    fit (a long name at a large text size), rather than the name breaking mid-word."""
    name = render(player_words(state, index))
    return ft.Row([text(_("{name} · OUT", name=name) if state.abyss.players[index].out else name, style, bold=True),
                   ft.Row([label, number], spacing=6, tight=True, vertical_alignment=ft.CrossAxisAlignment.CENTER)],
                  wrap=True, spacing=6, run_spacing=0, alignment=ft.MainAxisAlignment.SPACE_BETWEEN,
                  vertical_alignment=ft.CrossAxisAlignment.CENTER)


def _doom_bar(doom: int, height: int) -> ft.Control:
    """Eight boxes across the width given, the first `doom` of them red."""
    return ft.Row([ft.Container(height=height, expand=True, border_radius=4,
                                bgcolor=ft.Colors.RED_400 if i < doom else ft.Colors.SURFACE_CONTAINER_HIGHEST)
                   for i in range(MAX_DOOM)], spacing=3)


def _side_name(state: State, side: Optional[int]) -> str:
    return _("the Machine") if side is None else render(player_words(state, side))


def _act(frame, state: State, action, label: str, *, outlined: bool = False, icon=None) -> ft.Control:
    """A button for one concrete action, greyed out with the game's reason when it isn't allowed."""
    reason = GAME.why_not(state, action)
    return wide_button(label, frame.app.guard(lambda e: frame.dispatch(action)), icon=icon, filled=not outlined,
                       tonal=not outlined, disabled=reason is not None, tooltip=reason)


def _two_sided_options(state: State, index: int, what: str) -> list[tuple[Optional[int], Optional[int], object]]:
    """(played by, played on, action) for an Attack or Espionage/Sabotage this player took part in,
    allowed now. The sides are the template's choices (the players still in, and the Machine)."""
    kind = "doom_attack" if what == "attack" else "doom_spy"
    template = next((m for m in GAME.legal_moves(state) if m.kind == kind), None)
    if template is None:
        return []
    sides = template.fields[0].choices
    found = []
    for other in sides:
        if other == index:
            continue
        for by, on in ((index, other), (other, index)):
            action = DoomAttack(attacker=by, target=on) if what == "attack" else DoomSpy(by=by, target=on)
            if GAME.why_not(state, action) is None:
                found.append((by, on, action))
    return found


def _doom_reads(state: State, index: int) -> tuple:
    """What a player's doom part shows of the state: name, doom, whether out, the game's answer for
    each of its buttons (the two-sided ones: the plays allowed now)."""
    p = state.abyss.players[index]
    return (render(player_words(state, index)), p.doom, p.out, state.solo is None,
            tuple(GAME.why_not(state, a) for a in (DoomDrawPile(player=index), DoomMissing(player=index, count=1),
                                                    DoomFaceUp(player=index), DoomDecrease(player=index))),
            tuple(_two_sided_options(state, index, "attack")), tuple(_two_sided_options(state, index, "spy")),
            tuple(render(_side_name(state, side)) for side in (None, *range(len(state.abyss.players)))))


def _leader_reads(state: State, index: int, leader: str) -> tuple:
    """What a leader row shows of the state: the player's name, the tier, the game's answer for the
    promotion and for each usable tier (and whom it may name)."""
    p = state.abyss.players[index]
    uses = []
    for t in usable_tiers(p, leader):
        targets = ability_targets(state.abyss, index, leader, t)
        tried = ([LeaderAbility(player=index, leader=leader, tier=t)] if targets is None else
                 [LeaderAbility(player=index, leader=leader, tier=t, target=x) for x in targets])
        uses.append((t, None if targets is None else tuple(targets), tuple(GAME.why_not(state, a) for a in tried)))
    return (render(player_words(state, index)), p.leaders[leader], bool(state.solo),
            GAME.why_not(state, LeaderPromote(player=index, leader=leader)), tuple(uses))


def _abyss_player(frame, state: State, index: int) -> ft.Control:
    """A player's doom buttons (one per cause) and leaders; what greys any of them out is said under
    them. The doom part and each leader row are kept apart (a tap changes one or two of them)."""
    app, p = frame.app, state.abyss.players[index]
    guard = app.guard
    kept = frame.kept
    doom = kept(f"doom-{index}", _doom_reads(state, index), lambda: ft.Column(
        _doom_part(frame, state, index), spacing=8, horizontal_alignment=ft.CrossAxisAlignment.STRETCH))
    leaders = [kept(f"leader-{index}-{lead}", _leader_reads(state, index, lead),
                    lambda lead=lead: _leader_row(frame, state, index, lead)) for lead in LEADERS]
    extra = []
    declare = DeclareBiosphere(player=index)
    if state.solo is None and GAME.why_not(state, declare) is None:
        who = player_words(state, index)
        extra.append(wide_button(_("{name} established Biosphere 5", name=who), guard(lambda e: app.confirm(
            _("Biosphere 5 established?"), _("{name} wins the game.", name=who), _("Yes, wins"),
            lambda: frame.dispatch(declare), danger=False)), icon=ft.Icons.PUBLIC, filled=False))
    card = ft.Card(content=ft.Container(ft.Column([
        doom,
        text(_("Leaders"), ft.TextThemeStyle.TITLE_MEDIUM),
        *leaders, *extra,
    ], spacing=8, horizontal_alignment=ft.CrossAxisAlignment.STRETCH), padding=16),
        margin=ft.Margin.only(bottom=4), opacity=0.6 if p.out else 1, key=ft.ScrollKey(f"abyss-player-{index}"))
    return tagged(f"abyss-player-{index}", card)


def _doom_part(frame, state: State, index: int) -> list[ft.Control]:
    """A player's name and doom, its bar and a button per cause of doom (what _doom_reads reads)."""
    app, p = frame.app, state.abyss.players[index]
    guard = app.guard
    greyed: list[tuple[str, Optional[str]]] = []

    def one(action, label: str, **kw) -> ft.Control:
        greyed.append((label, GAME.why_not(state, action)))
        return _act(frame, state, action, label, **kw)

    def two_sided(what: str, label: str) -> ft.Control:
        options = _two_sided_options(state, index, what)
        # None allowed: why this player can't move at all (out, or the game is over), from the game.
        reason = None if options else GAME.why_not(state, DoomDrawPile(player=index))
        greyed.append((label, reason))
        # The people icon, not a "…" after the label: "+2…" read as words cut off. A dialog asks who.
        return wide_button(label, guard(lambda e: _two_sided_dialog(frame, _now(frame), label, options)),
                           icon=ft.Icons.PEOPLE_ALT_OUTLINED, tonal=True, disabled=not options, tooltip=reason)

    said = {kind: render(words) for kind, words in ABYSS_LABELS.items()}
    buttons = [
        one(DoomDrawPile(player=index), said["doom_draw_pile"]),
        one(DoomMissing(player=index, count=1), said["doom_missing"]),
        two_sided("attack", said["doom_attack"]),
        two_sided("spy", said["doom_spy"]),
        one(DoomFaceUp(player=index), said["doom_face_up"]),
        one(DoomDecrease(player=index), said["doom_decrease"], outlined=True),
    ]
    # Against people the overview says it once for everyone.
    out_at = [] if state.solo is None else [
        text(_("At doom {max} you are out at once.", max=MAX_DOOM), ft.TextThemeStyle.BODY_SMALL, italic=True)]
    return [
        _name_and_doom(state, index, text(_("Doom"), ft.TextThemeStyle.TITLE_SMALL), ft.TextThemeStyle.TITLE_LARGE,
                       tagged(f"doom-{index}", ft.Text(str(p.doom), size=app.sizes(40), weight=ft.FontWeight.BOLD,
                                                       color=ft.Colors.RED_700 if p.doom >= 6 else None))),
        _doom_bar(p.doom, 14),
        *out_at,
        # side by side as they fit (a grid of halves would break each label over three lines)
        ft.Row(buttons, wrap=True, spacing=8, run_spacing=8),
        *_reasons(greyed, identifier=f"doom-reasons-{index}"),
    ]


def _leader_row(frame, state: State, index: int, leader: str) -> ft.Control:
    """A leader's tier, a promote button, the ability of its tier, the next tier's name, and one "Use
    tier k" button for each tier it may use: its own, or any lower one instead (RULES.md §4)."""
    app, p = frame.app, state.abyss.players[index]
    tier = p.leaders[leader]
    name = render(LEADER_NAMES[leader])
    promote = LeaderPromote(player=index, leader=leader)
    now = [text(ability_text(leader, tier), ft.TextThemeStyle.BODY_MEDIUM)] if tier else []
    nxt = [text(_("Next: tier {tier} – {ability}", tier=tier + 1, ability=LEADER_ABILITIES[leader][tier + 1][0]),
                ft.TextThemeStyle.BODY_SMALL, italic=True)] if tier + 1 in LEADER_ABILITIES[leader] else []
    uses = [_use_button(frame, state, index, leader, t) for t in usable_tiers(p, leader)]
    reasons = _reasons([(label, reason) for _, label, reason in uses], f"leader-reasons-{index}-{leader}")
    # without an ability yet, the next tier's name goes under the leader's name: no line of its own
    return ft.Container(ft.Column([
        ft.Row([ft.Column([text(name, ft.TextThemeStyle.TITLE_SMALL, bold=True), *([] if tier else nxt)], spacing=2,
                          expand=True),
                text(_("tier"), ft.TextThemeStyle.BODY_SMALL),
                tagged(f"tier-{index}-{leader}", text(str(tier), ft.TextThemeStyle.HEADLINE_SMALL,
                                                      bold=True)),
                icon_button(ft.Icons.ARROW_UPWARD, _("Promote {leader} ({name})", leader=name,
                                                     name=player_words(state, index)),
                            app.guard(lambda e: frame.dispatch(promote)),
                            disabled=GAME.why_not(state, promote) is not None)],
               vertical_alignment=ft.CrossAxisAlignment.CENTER, spacing=4),
        *now,
        *(nxt if tier else []),  # after the ability of its tier
        *([ft.Row([b for b, _, _ in uses], wrap=True, spacing=8, run_spacing=8)] if uses else []),
        *reasons,
    ], spacing=4, horizontal_alignment=ft.CrossAxisAlignment.STRETCH),
        padding=ft.Padding.only(left=10, right=4, top=2, bottom=2 if tier == 0 else 8), border_radius=10,
        bgcolor=ft.Colors.SURFACE_CONTAINER_LOW)


def _use_button(frame, state: State, index: int, leader: str, tier: int) -> tuple[ft.Control, str, Optional[str]]:
    """"Use tier k – <title>": at once, or first a dialog for whom, when the ability names a player.
    Returns (the button, its label, the game's reason when it is greyed out)."""
    app = frame.app
    title = LEADER_ABILITIES[leader][tier][0]
    label = _("Use tier {tier} – {ability}", tier=tier, ability=title)
    targets = ability_targets(state.abyss, index, leader, tier)
    if targets is None:
        action = LeaderAbility(player=index, leader=leader, tier=tier)
        return _act(frame, state, action, label), label, GAME.why_not(state, action)
    tried = [(t, LeaderAbility(player=index, leader=leader, tier=tier, target=t)) for t in targets]
    reasons = [GAME.why_not(state, a) for _, a in tried]
    options = [(t, a) for (t, a), reason in zip(tried, reasons) if reason is None]
    reason = None if options else next((r for r in reasons if r), None)
    return (wide_button(label, app.guard(lambda e: _target_dialog(frame, _now(frame), leader, tier, options)), tonal=True,
                        disabled=not options, tooltip=render(ability_text(leader, tier))),
            label, reason)


def _target_dialog(frame, state: State, leader: str, tier: int, options: list) -> None:
    form = FormDialog(frame.app, _("{leader} tier {tier}: on whom?", leader=LEADER_NAMES[leader], tier=tier),
                      [text(ability_text(leader, tier), ft.TextThemeStyle.BODY_MEDIUM)], modal=False)
    for target, action in options:
        who = ((_("The Machine / not recorded") if state.solo else _("Not recorded")) if target is None
               else render(player_words(state, target)))
        form.fields.controls.append(form.button(who, lambda a=action: frame.dispatch(a), tonal=True))
    form.show()


def _two_sided_dialog(frame, state: State, label: str, options: list) -> None:
    form = FormDialog(frame.app, label, modal=False)
    form.fields.controls = [form.button(_("{by} played it on {target}", by=_side_name(state, by),
                                          target=_side_name(state, on)),
                                        lambda a=action: frame.dispatch(a), tonal=True)
                            for by, on, action in options]
    form.show()


# --- setup ----------------------------------------------------------------------------------------------


OPPONENTS = {"machine": N_("Man against Machine (alone)"), "people": N_("Against people (The Abyss tracker)")}


def typed_names(typed: str) -> list[str]:
    """The names typed in one field, separated by commas or new lines (blanks between them ignored).

    >>> typed_names("Ann, Ben,Cat\n Dee ,,")
    ['Ann', 'Ben', 'Cat', 'Dee']
    """
    return [n.strip() for line in typed.splitlines() for n in line.split(",") if n.strip()]


def _labelled(words: str, control: ft.Control) -> ft.Control:
    """A field under its words: a long label inside a field breaks over its value at a large text size."""
    return ft.Column([text(words, ft.TextThemeStyle.TITLE_SMALL), control], spacing=6,
                     horizontal_alignment=ft.CrossAxisAlignment.STRETCH)


class SetupForm:
    """Man against Machine (difficulty = the Machine's starting hand card level) or The Abyss for people.
    Ranges and defaults are the Settings model's. The opponent is two big buttons (a radio's label
    never wraps: it was cut off on a phone at a large text size); every label wraps."""

    def __init__(self, app):
        self.app = app
        specs = {f.name: f for f in field_specs(Settings)}
        default = Settings()
        self.reveal_spec = specs["reveal_table"]
        self.chosen = default.opponent

        def numbers(name: str, label: str, shown=str) -> ft.Dropdown:
            spec, value = specs[name], getattr(default, name)
            return ft.Dropdown(label=label, value=str(value), options=[
                ft.DropdownOption(key=str(i), text=_("{value} (default)", value=shown(i)) if i == value else shown(i))
                for i in range(spec.low, spec.high + 1)])

        self.opponent = ft.Row(wrap=True, spacing=8, run_spacing=8)
        self.opponent_part = _labelled(_("Who plays?"), self.opponent)
        self.abyss_row, self.abyss = switch_row(_("The Abyss: doom and leaders"), default.abyss)
        self.difficulty = numbers("difficulty", _("Difficulty"))
        self.difficulty_part = _labelled(_("Difficulty: the Machine's starting hand card level"), self.difficulty)
        self.players = numbers("players", _("Players"))
        self.players_part = _labelled(_("Players at the table"), self.players)
        # "Ann, Ben, Cat" on one line became one player named so, then "Player 2" and "Player 3": commas
        # and new lines both separate names, and the field says so (issue #30).
        self.names = ft.TextField(label=_("Player names (optional)"), hint_text=_("Ann, Ben, Cat"), multiline=True,
                                  min_lines=2, helper=_("In turn order, separated by commas or new lines"),
                                  helper_max_lines=3)
        self.black = numbers("hand_die_black_faces", _("Black hands"),
                             lambda i: _("{n} of {sides}", n=i, sides=hand_die(i).sides))
        self.black_part = _labelled(_("Hand die: faces showing the black hand"), self.black)
        self.reveal = ft.TextField(label=_("Cards revealed"), value=", ".join(map(str, default.reveal_table)),
                                   multiline=True, min_lines=1)  # wraps at a large text size, all of it in sight
        self.reveal_part = _labelled(_("Cards the Machine reveals at hand card level 0..{max}", max=MAX_LEVEL),
                                     self.reveal)
        self._changed(update=False)

    def _choose(self, value: str) -> None:
        self.chosen = value
        self._changed(update=True)

    def _changed(self, *, update: bool) -> None:
        people = self.chosen == "people"
        self.opponent.controls = [
            wide_button(_(words), lambda e, v=value: self._choose(v), filled=value == self.chosen,
                        icon=ft.Icons.CHECK if value == self.chosen else None)
            for value, words in OPPONENTS.items()]
        self.abyss_row.visible = not people  # against people the app always tracks The Abyss
        self.difficulty_part.visible = not people
        self.reveal_part.visible = not people
        self.black_part.visible = not people  # against people nothing is rolled: the hand die is the Machine's
        self.players_part.visible = people
        if update:
            for c in self.controls():
                c.update()

    def controls(self) -> list[ft.Control]:
        return [self.opponent_part, self.abyss_row, self.difficulty_part, self.players_part, self.names,
                self.black_part, self.reveal_part]

    def collect(self) -> dict:
        parts = (self.reveal.value or "").replace(",", " ").split()
        if not all(p.isdigit() for p in parts):
            raise InputError(_("{field}: whole numbers, e.g. {example}.", field=_(self.reveal_spec.label),
                               example=", ".join(map(str, DEFAULT_REVEAL))))
        people = self.chosen == "people"
        return {
            "opponent": self.chosen, "abyss": people or bool(self.abyss.value),
            "players": int(self.players.value), "difficulty": int(self.difficulty.value),
            "names": typed_names(self.names.value or ""),
            "hand_die_black_faces": int(self.black.value), "reveal_table": [int(p) for p in parts],
        }
