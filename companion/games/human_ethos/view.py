"""The Human Ethos play screen: the board's twin drawn as a hex map, threat and awareness closing on
each other, the player's turn (move, reveal and place, cache, attack, manual ±), the enemy phase
explained step by step, ties as tappable options, the win/loss banner, issue setup and story
progress. Everything a rule decides comes from `rules.py`; this module only draws and dispatches:
its buttons and number ranges come from the game's legal moves (`rules.moves` and their FieldSpecs),
and what just happened is read from the events' data, never from their sentences.

Extra screens (`GAME_SCREENS`): the map editor ("maps") and the enemy cards ("enemies"), both
catalog data entered once and shared by every campaign (see `screens.py`).

Every word is said in the phone's language as the panel is drawn: its own through `_()`, the
rules' (events, refusals, reasons, move labels) as the `Msg`s they are, with `render`."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Optional

import flet as ft
from pydantic import ValidationError

from companion import catalog
from companion.games.base import Event, FieldSpec, InputError, Move as LegalMove, Words, field_specs, said_error
from companion.i18n import _, current, ngettext, pgettext, render
from companion.ui.forms import whole_number
from companion.ui.style import GAP
from companion.ui.widgets import (FormDialog, icon_button, keyed, roomy, section, switch_row, tagged, track, two_columns,
                                  wide_button)

# Drawn afresh from the state and the screen's choices (`Ui`, typed text included) on every redraw,
# and never changed in place: the frame reconciles it with what the phone shows.
RECONCILED = True
WIDE = True  # on a desktop the map stands beside the track and the next step (see panel)
WIDE_FROM = 992  # px: Flet's "lg" breakpoint, where two columns fit

from . import rules as R
from .enemies import EnemyType, face_words, setup_words, token_faces
from .hexmap import SPECIAL_NAMES, Board, Coord, Hex, HexMap, check_map, map_name, parse_map_json
from .mapdraw import (MEMBER_COLOURS, Layout, MapView, Marks, map_canvas, map_window, short_names, touch_screen,
                      zoom_buttons)

MAP_KIND = "human_ethos_map"
ENEMY_KIND = "human_ethos_enemy"
SAMPLE_PATH = Path(__file__).resolve().parents[3] / "assets" / "human_ethos_sample_map.json"


# --- catalog helpers (maps and enemy cards entered once) ---------------------------------------


def seed_catalog(store) -> None:
    """The sample map ships once; afterwards the table's own edits are left alone."""
    try:
        sample = parse_map_json(SAMPLE_PATH.read_text(encoding="utf-8"))
    except (OSError, InputError):
        return
    catalog.seed_once(store, MAP_KIND, [("sample", sample.name, sample.model_dump(mode="json"))])


def saved_maps(store) -> list[tuple[str, HexMap]]:
    seed_catalog(store)
    out = []
    for row in catalog.entries(store, MAP_KIND):
        try:
            out.append((row.key, HexMap.model_validate(row.data)))
        except ValidationError:
            continue
    return out


def saved_enemies(store) -> list[EnemyType]:
    out = []
    for row in catalog.entries(store, ENEMY_KIND):
        try:
            out.append(EnemyType.model_validate(row.data))
        except ValidationError:
            continue
    return out


def build(cls, **kw):
    """An action from its fields; a value out of range becomes a message for the player."""
    try:
        return cls(**kw)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first.get("loc", ()))
        problem = said_error(first)
        raise InputError(where + ": " + problem if where else problem) from None


# --- transient inputs, kept on the frame between redraws ----------------------------------------


@dataclass
class Ui(MapView):
    """The screen's inputs, and (as a MapView) the map's zoom on this phone."""

    selected: Optional[str] = None  # team member picked for a move / attack
    along: set = field(default_factory=set)
    move_value: int = 2
    waive_hazard: bool = False
    damage: int = 1
    reach: int = 1
    ignore_walls: bool = False
    reason: str = ""
    # spawn form
    spawn_token: int = -1
    face: str = ""
    spawn_enemy: str = ""
    spawn_count: int = 1
    placements: list = field(default_factory=list)  # (enemy, coord, count)
    # setup form
    number: Optional[int] = None
    number_for: int = 0  # the campaign's unlocked issue when `number` was set: a win moves it on
    title: str = ""
    map_key: str = "sample"
    track: int = 20
    threat: int = 0
    awareness: int = 0
    team: str = ""
    unlock_text: str = ""
    cleared: int = 0  # how many times a used field was emptied: its key, so the redraw makes it anew
    arcade: Optional[bool] = None  # setup: an arcade game (None: the campaign's mode setting)
    run_maps: list = field(default_factory=list)  # arcade: map keys in playing order
    left_out: set = field(default_factory=set)  # arcade: offered enemy types the table leaves out
    # enemy phase order chosen by the players: group keys (enemy, coord); None = closest first
    order: Optional[list] = None
    order_open: bool = False
    target: Optional[Coord] = None  # the space an attack is aimed at (an enemy tapped on the map)
    show_aim: bool = False  # an enemy was just tapped: scroll its attack card into view once it is laid out
    attacker: Optional[str] = None  # who attacks it (None: chosen when aiming)
    map_memo: Optional[tuple] = None  # (what was drawn, the canvas, its layout): see _map_canvas


def _ui(frame) -> Ui:
    return frame.screen_state(Ui)  # this phone's own inputs, kept across redraws


def spec_stepper(frame, label: str, spec: FieldSpec, value: int, on_change: Callable[[int], None], *,
                 identifier: str) -> ft.Control:
    """The kit's track (− and + named "<label> -1" / "<label> +1") for a value the screen holds,
    ranged as an action field's FieldSpec from the game's legal moves: a tap sets the screen's value
    (`on_change`) and redraws the panel from it (no change in place, so a quick double tap meets the
    redrawn track)."""
    def bump(delta):
        def handler(e):
            on_change(max(spec.low, min(spec.high, value + delta)))
            frame.refresh()
        return handler

    return track(label, value, identifier=identifier, on_minus=bump(-1), on_plus=bump(1), low=spec.low,
                 high=spec.high, sizes=_sizes(frame))


def _sizes(frame):
    sizes = getattr(frame.app, "sizes", None)
    return sizes if callable(sizes) else None


def _scale(frame) -> float:
    """This phone's text size (1: normal, 1.7: the largest)."""
    return float(getattr(getattr(frame.app, "sizes", None), "scale", 1.0))


def _room(frame, width: float) -> bool:
    """Whether something `width` px wide at the normal text size fits this screen at its text size."""
    return (_page_width(frame) or 412) / _scale(frame) >= width


def pair(frame, first: ft.Control, second: ft.Control, *, width: float = 300) -> ft.Control:
    """Two buttons side by side when their words fit, else one above the other (a phone at a large
    text size: a word broken in two is worse than a taller screen)."""
    if _room(frame, width):
        first.expand = second.expand = True
        return ft.Row([first, second], spacing=8)
    return ft.Column([first, second], spacing=8, horizontal_alignment=ft.CrossAxisAlignment.STRETCH)


def link(words: str, on_click, *, icon=None) -> ft.Control:
    """A text button whose words wrap rather than being cut off."""
    return ft.TextButton(content=roomy(words), icon=icon, on_click=on_click)


def tied_to(words: Words, more: Words) -> Words:
    """One refusal after another, as one text (each in the phone's language)."""
    return words + " " + more if words else more


def legal(state: R.State) -> dict[str, list[LegalMove]]:
    """The game's legal moves now, by kind."""
    out: dict[str, list[LegalMove]] = {}
    for m in R.GAME.legal_moves(state):
        out.setdefault(m.kind, []).append(m)
    return out


def spec_of(moves: dict[str, list[LegalMove]], kind: str, name: str) -> FieldSpec:
    """One field of a move template (its range or choices narrowed by the state)."""
    return next(f for f in moves[kind][0].fields if f.name == name)


def choice_buttons(options: list[tuple[str, str]], chosen, on_pick: Callable[[str], None]) -> ft.Control:
    """A wrap of big buttons; the chosen one (or ones: `chosen` a set) is filled. Long words wrap."""
    picked = chosen if isinstance(chosen, (set, frozenset)) else {chosen}
    return ft.Row([wide_button(words, lambda e, k=key: on_pick(k), filled=key in picked) for key, words in options],
                  wrap=True, spacing=8, run_spacing=8)


def _page_width(frame) -> Optional[float]:
    """The phone's screen width (None before the page is laid out, or in a test's frame without one)."""
    return getattr(frame.app.page, "width", None)


def _wide(frame) -> bool:
    return (_page_width(frame) or 0) >= WIDE_FROM


def _map_width(frame) -> float:
    width = _page_width(frame) or 412
    if _wide(frame):  # the map's column: 7 of 12 of the body (11 of 12 of the page)
        return max(280, min(width * 11 / 12 * 7 / 12 - 64, 760))
    return max(280, min(width - 56, 680))  # (the page and its card each pad 12 and 16 px a side)


def _field(frame, attr: str, **kw) -> ft.TextField:
    """A text field bound to `Ui.<attr>`: drawn afresh with what was typed so far, so a reconciling
    redraw finds nothing to change in it while a player types. Its key changes when it is emptied
    (`_clear`): the phone gets a new, empty field (a field it is typing into keeps its own text)."""
    ui = _ui(frame)
    return ft.TextField(value=getattr(ui, attr), on_change=lambda e: setattr(ui, attr, e.control.value or ""),
                        key=f"{attr}-{ui.cleared}", **kw)


def _clear(frame, field: ft.TextField, attr: str) -> None:
    """Empty a field after its text was used: the redraw puts a new, empty one in its place."""
    ui = _ui(frame)
    setattr(ui, attr, "")
    ui.cleared += 1
    frame.refresh()


def _say(text: Words, *, style=ft.TextThemeStyle.BODY_LARGE, **kw) -> ft.Text:
    """Words in a theme style: the screen's own (already said with `_()`) or the rules' (a Msg, said here)."""
    return ft.Text(render(text), theme_style=style, **kw)


_BOARD: tuple = (None, None)  # (the map, its Board): the one the last redraw drew


def _board(m: HexMap) -> Board:
    """`Board.of(m)`, worked out once for the map a redraw draws (its sections each ask for it).
    Maps are never changed in place: one that is the very same object has the same board."""
    global _BOARD
    memo = _BOARD
    if memo[0] is not m:
        memo = _BOARD = (m, Board.of(m))
    return memo[1]


def _kept(frame, key: str, inputs, build: Callable[[], ft.Control]) -> ft.Control:
    """`frame.kept` (CampaignScreen.kept): the section drawn at the last redraw while `inputs` (all it
    shows: the frame adds the text size, language and narrowness) are unchanged, so a tap elsewhere
    costs the phone neither building it nor diffing it. Its handlers read the state when tapped, or
    act on what `inputs` hold. A frame without `kept` (a test's) draws every section afresh."""
    kept = getattr(frame, "kept", None)
    return kept(key, inputs, build) if kept is not None else build()


# =============================================================================================
# The panel
# =============================================================================================


def panel(frame) -> ft.Control:
    state: R.State = frame.loaded.game_state
    ui = _ui(frame)
    issue = state.issue
    wide = _wide(frame)  # a desktop: two columns, using its width
    if issue is None or not any(t.status == "revealed" for t in issue.tokens):
        # No token waits (placed from this phone or another, or undone): the next one's form starts afresh.
        ui.spawn_token, ui.placements = -1, []
    if issue is None:
        setup = setup_sections(frame, state, ui)
        more = [progress_section(frame, state, ui), enemy_cards_section(frame, state)]
        return ft.Column([two_columns(setup, more, split=7)] if wide else [*setup, *more], spacing=GAP)
    if issue.over:
        ended = [banner(frame, state), last_section(frame, state)]
        board = map_section(frame, state, ui, Marks(members=[(m.name, m.at.c) for m in issue.members],
                                                    enemies=[(g.enemy, g.count, g.at.c) for g in issue.groups]))
        setup = setup_sections(frame, state, ui)
        more = [progress_section(frame, state, ui), enemy_cards_section(frame, state)]
        return ft.Column([two_columns([*ended, *setup], [board, *more])] if wide else [*ended, board, *setup, *more],
                         spacing=GAP)
    marks = base_marks(frame, state, ui)
    steps = [status_section(frame, state), next_step_section(frame, state, ui, marks)]
    named = issue.named
    abandon = _kept(frame, "abandon", render(named), lambda: wide_button(_("Abandon this issue"), lambda e: frame.app.confirm(
        _("Abandon {issue}?", issue=named), _("It ends without counting as a win or a loss. Undo brings it back."),
        _("Abandon"), lambda: frame.dispatch(R.AbandonIssue())), icon=ft.Icons.FLAG, filled=False))
    cards = [attack_section(frame, state, ui), adjust_section(frame, state, ui)]
    lists = [board_section(frame, state), enemy_cards_section(frame, state), progress_section(frame, state, ui)]
    if wide:  # the track, the next step and what just happened beside the map: no scrolling between them
        # (what just happened before the next step: the enemy phase's explanation in sight beside its moves)
        status, step = steps
        return ft.Column([two_columns([status, last_section(frame, state), step], [map_section(frame, state, ui, marks)]),
                          two_columns([*cards, abandon], lists)], spacing=GAP)
    # A phone: the map right under the next step, what it did right under the map, then the map's key.
    return ft.Column([*steps, map_section(frame, state, ui, marks, legend=False), last_section(frame, state),
                      _legend(frame, state, padded=True), *cards, *lists, abandon], spacing=GAP)


# --- threat and awareness, whose turn ----------------------------------------------------------


def track_bar(issue: R.Issue) -> ft.Control:
    """Threat fills from the left, awareness from the right: they meet = the issue is lost."""
    cells = []
    for i in range(issue.track):
        if i < issue.threat:
            colour = ft.Colors.RED_600
        elif i >= issue.track - issue.awareness:
            colour = ft.Colors.INDIGO_500
        else:
            colour = ft.Colors.SURFACE_CONTAINER_HIGHEST
        cells.append(ft.Container(bgcolor=colour, height=30, expand=1, border_radius=3))
    return ft.Row(cells, spacing=2)


def status_section(frame, state: R.State) -> ft.Control:
    issue = state.issue
    gap = issue.track - issue.threat - issue.awareness
    if issue.phase == "enemies":
        turn = _("Turn {turn} · Enemy phase", turn=issue.turn)
    else:
        turn = _("Turn {turn} · {member}'s turn", turn=issue.turn, member=issue.members[issue.active].name)
    title = (_("Issue #{number}", number=str(issue.number)) if issue.mode == "story"
             else _("Arcade · {map}", map=map_name(issue.map)))
    if issue.title:
        title += f" · {issue.title}"
    if issue.more_maps:
        title += " · " + ngettext("then {n} more map", "then {n} more maps", len(issue.more_maps))
    # (kept while the words, the track and the screen's room for the tracks' words are the same)
    return _kept(frame, "status", (title, turn, issue.track, issue.threat, issue.awareness, _tracks_room(frame)),
                 lambda: section(
        title,
        tagged("turn", _say(turn, style=ft.TextThemeStyle.HEADLINE_SMALL, weight=ft.FontWeight.BOLD)),
        *_tracks(frame, issue),
        tagged("gap", ft.Text(spans=[
            ft.TextSpan(_("{n} apart", n=gap), ft.TextStyle(weight=ft.FontWeight.BOLD)),
            ft.TextSpan(" · " + _("lost when they meet: threat + awareness = {length}.", length=issue.track)),
        ], theme_style=ft.TextThemeStyle.BODY_MEDIUM)),
    ))


def _tracks_room(frame) -> tuple[bool, bool, bool]:
    """What of the screen's width `_tracks` reads: room for the larger words, for the arrows, a desktop."""
    return _room(frame, 330), _room(frame, 260), _wide(frame)


def _tracks(frame, issue: R.Issue) -> list[ft.Control]:
    """Threat on the left, awareness on the right, as on the bar. A desktop has them beside the bar
    (a shorter card: what just happened shows under it without scrolling); a phone above it, in a
    smaller style where "← Awareness" would not fit on one line (a large text size); on the narrowest
    (a small phone at the largest text size) without the arrows, so a long word ("Wachsamkeit") is
    not broken in two: the bar under them shows which way each fills."""
    big = frame.app.sizes(40)
    label = ft.TextThemeStyle.LABEL_LARGE if _room(frame, 330) else ft.TextThemeStyle.LABEL_MEDIUM
    arrows = _room(frame, 260) or _wide(frame)
    threat_words = _("Threat →") if arrows else render(R.TRACK_WORDS["threat"])
    awareness_words = _("← Awareness") if arrows else render(R.TRACK_WORDS["awareness"])
    threat = ft.Column([_say(threat_words, style=label, color=ft.Colors.RED_700, weight=ft.FontWeight.BOLD),
                        tagged("threat", ft.Text(str(issue.threat), size=big, weight=ft.FontWeight.BOLD,
                                                 color=ft.Colors.RED_700))], spacing=0)
    awareness = ft.Column([_say(awareness_words, style=label, color=ft.Colors.INDIGO_700, weight=ft.FontWeight.BOLD,
                                text_align=ft.TextAlign.RIGHT),
                           tagged("awareness", ft.Text(str(issue.awareness), size=big, weight=ft.FontWeight.BOLD,
                                                       color=ft.Colors.INDIGO_700))],
                          spacing=0, horizontal_alignment=ft.CrossAxisAlignment.END)
    if _wide(frame):
        bar = track_bar(issue)
        bar.expand = True
        return [ft.Row([threat, bar, awareness], spacing=GAP, vertical_alignment=ft.CrossAxisAlignment.END)]
    awareness.expand = True  # (the rest of the width: "← Awareness" is the longer)
    return [ft.Row([threat, awareness], vertical_alignment=ft.CrossAxisAlignment.END), track_bar(issue)]


# --- the one next step ---------------------------------------------------------------------------


def next_step_section(frame, state: R.State, ui: Ui, marks: Marks) -> ft.Control:
    issue = state.issue
    guard = frame.app.guard
    moves = legal(state)
    if issue.pending is not None:
        question = render(R.pending_words(state)[0])
        options = [(render(m.label), m.action) for m in moves["choose"]]
        return _kept(frame, "next-step", ("tie", question, options), lambda: tagged("next-step", section(
            _("Enemy phase: your choice"),
            tagged("hint", _say(_("Your choice: {question}", question=question), weight=ft.FontWeight.BOLD)),
            _say(_("The rules leave this tie to the players: tap a button, or tap on the map the space the "
                   "option's number marks."), style=ft.TextThemeStyle.BODY_MEDIUM),
            *[wide_button(label, guard(lambda e, a=action: frame.dispatch(a))) for label, action in options],
        )))
    waiting = [i for i, t in enumerate(issue.tokens) if t.status == "revealed"]
    if waiting:
        return tagged("next-step", spawn_section(frame, state, ui, waiting[0]))
    if _aiming(state, ui):
        hint = _("Aiming at {space}: under the map, set the damage card and tap Hit (or tap another enemy, or the "
                 "cross to stop).", space=_board(issue.map).label(ui.target))
    elif ui.selected:
        hint = _("{member} is picked: tap a green space to move there (card's move {move}), or tap them again to let "
                 "go.", member=ui.selected, move=ui.move_value)
    else:
        hint = _("Play your cards: tap a team member on the map (or above it), then the space they move to; tap an "
                 "enemy on the map to attack it.")
    phase = moves["enemy_phase"][0]
    why_not = render(phase.why_not) if phase.why_not is not None else None
    order = enemy_order(state, ui)
    return _kept(frame, "next-step", ("next", hint, why_not, order), lambda: tagged("next-step", section(
        # Translators: the heading over what the team does next (not a "next page" button).
        pgettext("what comes next", "Next"),
        tagged("hint", _say(hint)),
        wide_button(_("Cards played: run the enemy phase"), guard(lambda e: _enemy_phase(frame)), icon=ft.Icons.SMART_TOY,
                    disabled=why_not is not None, tooltip=why_not),
        order_controls(frame, ui, order),
    )))


def _group_name(state: R.State, g: R.EnemyGroup, board: Board) -> str:
    t = next((t for t in state.enemy_types if t.name == g.enemy), None)
    return _("{enemies} on {space}", enemies=t.count_name(g.count) if t else f"{g.count} {g.enemy}",
             space=board.label(g.at.c))


def current_order(state: R.State, ui: Ui) -> list[int]:
    """The enemy order the next phase uses: the players' one while it still names exactly the
    groups on the board (an action that changes the groups drops it), else closest first."""
    groups = state.issue.groups
    keys = [(g.enemy, g.at.c) for g in groups]
    if ui.order is not None and sorted(ui.order) == sorted(keys):
        return [keys.index(k) for k in ui.order]
    ui.order = None
    return R.default_order(state)


@dataclass(frozen=True)
class EnemyOrder:
    """The enemy order as the next step shows it: the groups in order (their names, and their keys
    (enemy, space) that a swap rearranges), whether it is the players' own, whether it is open to change."""

    names: tuple[str, ...]
    keys: tuple[tuple[str, Coord], ...]
    mine: bool
    open: bool


def enemy_order(state: R.State, ui: Ui) -> EnemyOrder:
    issue = state.issue
    board = _board(issue.map)
    order = current_order(state, ui)
    groups = [issue.groups[i] for i in order]
    return EnemyOrder(tuple(_group_name(state, g, board) for g in groups), tuple((g.enemy, g.at.c) for g in groups),
                      ui.order is not None, ui.order_open)


def order_controls(frame, ui: Ui, order: EnemyOrder) -> ft.Control:
    names = order.names
    if not names:
        return _say(_("No enemies on the board."), style=ft.TextThemeStyle.BODY_MEDIUM)
    if not order.open or len(names) < 2:
        listing = "; ".join(f"{n + 1}. {name}" for n, name in enumerate(names))
        said = (_("Enemy order (your order): {groups}.", groups=listing) if order.mine
                else _("Enemy order (closest to the team first): {groups}.", groups=listing))
        row: list[ft.Control] = [tagged("enemy-order", _say(said, style=ft.TextThemeStyle.BODY_MEDIUM))]
        if len(names) > 1:
            row.append(link(_("Change the order"), lambda e: _open_order(frame, True), icon=ft.Icons.SWAP_VERT))
        return ft.Column(row, spacing=4)

    def swap(n: int, m: int):
        def handler(e):
            keys = list(order.keys)
            keys[n], keys[m] = keys[m], keys[n]
            ui.order = keys
            frame.refresh()
        return handler

    said = (_("Enemy order (your order): the first acts first.") if order.mine
            else _("Enemy order (closest to the team first): the first acts first."))
    rows: list[ft.Control] = [_say(said, weight=ft.FontWeight.BOLD)]
    for n, name in enumerate(names):
        rows.append(ft.Row([
            _say(f"{n + 1}. {name}", expand=True),
            icon_button(ft.Icons.ARROW_UPWARD, _("Earlier: {group}", group=name), swap(n, n - 1), disabled=n == 0),
            icon_button(ft.Icons.ARROW_DOWNWARD, _("Later: {group}", group=name), swap(n, min(n + 1, len(names) - 1)),
                        disabled=n == len(names) - 1),
        ], spacing=4))

    def reset(e):
        ui.order = None
        frame.refresh()

    rows.append(ft.Row([
        link(_("Closest first again"), reset),
        link(_("Done"), lambda e: _open_order(frame, False)),
    ], wrap=True))
    return tagged("enemy-order", ft.Column(rows, spacing=4))


def _open_order(frame, value: bool) -> None:
    _ui(frame).order_open = value
    frame.refresh()


def _enemy_phase(frame) -> None:
    ui = _ui(frame)
    state: R.State = frame.loaded.game_state
    order = current_order(state, ui) if ui.order is not None else []
    ui.selected = None
    frame.dispatch(R.EnemyPhase(order=order))
    ui.order, ui.order_open = None, False


# --- revealed tokens: what they show, where their enemies go -----------------------------------------

# How many of one type a placement puts on a space (a field of the spawn template's nested groups).
_placement_count = next(f for f in field_specs(R.Placement) if f.name == "count")


def _spawn_types(state: R.State) -> list[str]:
    """The types the spawn form offers: an arcade game's pool, else every enemy card."""
    return state.issue.pool or [t.name for t in state.enemy_types]


def _type_for_face(state: R.State, face: str) -> str:
    names = _spawn_types(state)
    head = face.split("+")[0].strip()
    for n in names:
        if n.lower() == head.lower() or n.lower().startswith(head.lower()) or head.lower().startswith(n.lower()):
            return n
    return names[0] if names else ""


def spawn_section(frame, state: R.State, ui: Ui, token_index: int) -> ft.Control:
    issue = state.issue
    token = issue.tokens[token_index]
    board = _board(issue.map)
    if ui.spawn_token != token_index:
        ui.spawn_token, ui.placements = token_index, []
        ui.face = token_faces(token.tier)[0]
        ui.spawn_enemy, ui.spawn_count = _type_for_face(state, ui.face), 1
    guard = frame.app.guard

    def pick_face(face):
        ui.face = face
        ui.spawn_enemy = _type_for_face(state, face)
        frame.refresh()

    def pick_enemy(name):
        ui.spawn_enemy = name
        frame.refresh()

    def drop(k):
        ui.placements.pop(k)
        frame.refresh()

    def place(e):
        groups = [build(R.Placement, enemy=en, at=Hex.of(c), count=n) for en, c, n in ui.placements]
        action = build(R.Spawn, token=token_index, face=ui.face, groups=groups)
        kept = (ui.spawn_token, list(ui.placements))
        ui.spawn_token, ui.placements = -1, []  # the redraw sets up the next token's form
        try:
            frame.dispatch(action)
        except Exception:
            ui.spawn_token, ui.placements = kept
            raise

    etype = next((t for t in state.enemy_types if t.name == ui.spawn_enemy), None)
    where = _("area {area}", area=token.area) if token.area else _("space {space}", space=board.label(token.at.c))
    placed = [ft.Row([_say(_("{n} {enemies} on {space}", n=n, enemies=en, space=board.label(c)), expand=True),
                      icon_button(ft.Icons.CLOSE, _("Remove {n} {enemies} on {space}", n=n, enemies=en,
                                                    space=board.label(c)), lambda e, k=k: drop(k))])
              for k, (en, c, n) in enumerate(ui.placements)]
    said = dict(member=token.encountered_by, where=where, space=board.label(token.at.c))
    if token.from_elite:
        hint = _("The elite token at {space} brings a common encounter: draw a common encounter token (one not on the "
                 "map) and turn it face up. What does it show?", **said)
    elif token.tier == "elite":
        hint = _("{member} entered {where}: turn the elite token at {space} face up. What does it show?", **said)
    else:
        hint = _("{member} entered {where}: turn the common token at {space} face up. What does it show?", **said)
    count = sum(n for _en, _c, n in ui.placements)
    return section(
        _("Encounter at {space}", space=board.label(token.at.c)),
        tagged("hint", _say(hint, weight=ft.FontWeight.BOLD)),
        choice_buttons([(f, render(face_words(f))) for f in token_faces(token.tier)], ui.face, pick_face),
        _say(_("Then place its enemies as the enemy card's setup says: pick the type and how many, and tap a "
               "highlighted space of {where}.", where=where), style=ft.TextThemeStyle.BODY_MEDIUM),
        choice_buttons([(n, n) for n in _spawn_types(state)], ui.spawn_enemy, pick_enemy),
        *([_say(_("{enemy} setup: {setup}", enemy=etype.name, setup=setup_words(etype)),
                style=ft.TextThemeStyle.BODY_SMALL, italic=True)]
          if etype and etype.setup else []),
        spec_stepper(frame, _("How many"), _placement_count, ui.spawn_count, lambda v: setattr(ui, "spawn_count", v),
                     identifier="spawn-count"),
        *placed,
        wide_button(ngettext("Done: place {n} enemy", "Done: place {n} enemies", count), guard(place),
                    icon=ft.Icons.CHECK),
    )


# --- the map ----------------------------------------------------------------------------------------


def moved_arrows(events: list, board: Board) -> list[tuple[Coord, Coord]]:
    """The steps the last action moved a member or an enemy group, from its events' data."""
    spaces = {board.label(c): c for c in board.spaces}
    steps: list[tuple[str, str]] = []
    for e in map(Event.coerce, events):
        if e.kind == "move":
            steps += zip(e.data["path"], e.data["path"][1:])
        elif e.kind == "enemy_move":
            steps += [(e.data["frm"], p["to"]) for p in e.data["parts"]]
    return [(spaces[a], spaces[b]) for a, b in steps if a in spaces and b in spaces and a != b]


def _last_row(frame):
    rows = frame.history(1)
    return rows[0] if rows else None


def base_marks(frame, state: R.State, ui: Ui) -> Marks:
    issue = state.issue
    board = _board(issue.map)
    marks = Marks(
        members=[(m.name, m.at.c) for m in issue.members],
        enemies=[(g.enemy, g.count, g.at.c) for g in issue.groups],
        tokens={t.at.c: ("?" if t.status == "face_down" else "!") for t in issue.tokens if t.status != "resolved"},
        used={h.c for h in issue.used_caches},
    )
    types = {t.name: t for t in state.enemy_types}
    for g in issue.groups:
        t = types.get(g.enemy)
        said = t.count_name(g.count) if t else f"{g.count} {g.enemy}"
        marks.enemy_words[g.at.c] = ", ".join(filter(None, [marks.enemy_words.get(g.at.c), said]))
    names = {m.name for m in issue.members}
    if ui.selected not in names:
        ui.selected = None
    row = _last_row(frame)
    if row is not None:
        marks.moved = moved_arrows(row.events, board)
    if issue.pending is not None:
        for o in issue.pending.options:
            for p in o.parts:
                try:  # the number a tap on this space picks; a space shared alike by options stays blank
                    marks.targets[p.at.c] = str(R.option_at(issue.pending, p.at.c) + 1)
                except InputError:
                    marks.targets[p.at.c] = ""
    elif any(t.status == "revealed" for t in issue.tokens):
        k = next(i for i, t in enumerate(issue.tokens) if t.status == "revealed")
        for h in R.placement_spaces(state, k):
            marks.targets[h.c] = ""
        for en, c, n in ui.placements if ui.spawn_token == k else []:
            marks.enemies.append((en, n, c))
    elif _aiming(state, ui):
        marks.aimed = ui.target
        marks.attackable = {issue.groups[i].at.c for i in R.attack_targets(state, ui.attacker, ui.reach, ui.ignore_walls)}
    elif ui.selected:
        member = next(m for m in issue.members if m.name == ui.selected)
        marks.selected = member.at.c
        marks.reachable = {h.c for h in R.move_targets(state, ui.selected, ui.move_value)}
    return marks


def map_section(frame, state: R.State, ui: Ui, marks: Marks, *, legend: bool = True) -> ft.Control:
    issue = state.issue
    board = _board(issue.map)
    moves = legal(state)
    moving = "move" in moves and moves["move"][0].why_not is None  # a movement card may be played now
    aiming = _aiming(state, ui)
    # The map keeps its place in this list (an empty slot when no member can be picked), so the
    # redraw matches it with the one the phone shows, viewer and pan included. The members' buttons,
    # the map's window and the zoom buttons are kept while what they show is the same (the window:
    # while its canvas is, see _map_canvas, and it looks at the same space).
    roster = tuple((m.name, board.label(m.at.c)) for m in issue.members)
    controls: list[ft.Control] = [_kept(frame, "map-members", (roster, ui.selected), lambda: member_row(frame, state, ui))
                                  if moving else ft.Container()]
    fit = _map_width(frame)
    focus, touch = _focus(state, ui), touch_screen(frame.app.page)

    drawn = _canvas_key(ui, issue.map, fit, marks)

    def window() -> ft.Control:
        canvas, lay = _map_canvas(frame, ui, issue.map, fit, marks, key=drawn)
        return ft.Row([map_window(ui, canvas, lay, fit, focus=focus, touch=touch)], alignment=ft.MainAxisAlignment.CENTER)

    controls.append(_kept(frame, "map-window", (drawn, fit, focus, touch), window))
    controls.append(_kept(frame, "map-zoom", ui.zoom, lambda: zoom_buttons(ui, frame.refresh)))
    if aiming:
        controls.extend(aim_controls(frame, state, ui, board, moves))
    elif moving and ui.selected:
        controls.extend(move_controls(frame, state, ui, board, spec_of(moves, "move", "move")))
    if legend:
        controls.append(_legend(frame, state))
    return section(_("Board"), *controls)


def _legend(frame, state: R.State, *, padded: bool = False) -> ft.Control:
    """The map's key (`map_legend`), kept while the map's name and the enemy types on it are the same;
    `padded`: a phone's, under what just happened, in line with the cards' words."""
    issue = state.issue
    reads = (render(map_name(issue.map)), issue.map.name, issue.map.sample, tuple(sorted({g.enemy for g in issue.groups})),
             padded)
    if padded:
        return _kept(frame, "legend", reads, lambda: ft.Container(map_legend(state),
                                                                  padding=ft.Padding.symmetric(horizontal=16)))
    return _kept(frame, "legend", reads, lambda: map_legend(state))


def map_legend(state: R.State) -> ft.Control:
    """What the map shows: its name, the enemies' short names, the colours."""
    issue = state.issue
    name = render(map_name(issue.map))
    if issue.map.sample and "sample" not in issue.map.name.lower():
        name = _("{map} · SAMPLE map, not from the box", map=name)
    short = short_names(g.enemy for g in issue.groups)
    tags = [f"{t} = {name}" for name, t in short.items() if t != name]
    tap = (_("Tap an enemy's red tag to attack it ({tags}).", tags=", ".join(tags)) if tags
           else _("Tap an enemy's red tag to attack it."))
    rest = _("Drag a zoomed map to see the rest. Green: reachable. Orange: highlighted spaces and the last moves. ?: "
             "face-down token.")
    return _say(f"{name}. {tap} {rest}", style=ft.TextThemeStyle.BODY_SMALL)


def _focus(state: R.State, ui: Ui) -> Optional[Coord]:
    """Where a zoom button looks: the aimed-at enemy, else the picked member, else whose turn it is."""
    issue = state.issue
    if ui.target is not None:
        return ui.target
    who = ui.selected or (issue.members[issue.active].name if issue.members else None)
    return next((m.at.c for m in issue.members if m.name == who), None)


def _map_canvas(frame, ui: Ui, hex_map: HexMap, width: float, marks: Marks, *,
                key: Optional[tuple] = None) -> tuple[ft.Control, Layout]:
    """The map's canvas, the same control while nothing drawn on it changed: the panel's diff skips
    a control it already sent (Flet compares a kept object with itself in no time), so a tap that
    leaves the map alone (threat +1, a stepper) neither redraws nor re-sends ~1,700 shapes. A zoom
    button draws it anew, for the new viewer it goes in; so does another language (its words)."""
    key = key or _canvas_key(ui, hex_map, width, marks)  # (`key`: the caller's, already worked out)
    if ui.map_memo is None or ui.map_memo[0] != key:
        ui.map_memo = (key, *map_canvas(hex_map, width, marks, _guarded_tap(frame), zoom=ui.zoom))
    return ui.map_memo[1], ui.map_memo[2]


def _canvas_key(ui: Ui, hex_map: HexMap, width: float, marks: Marks) -> tuple:
    """All that the map's canvas shows (see _map_canvas)."""
    return hex_map.model_dump_json(), repr(marks), round(width), ui.zoom, ui.view_epoch, current().code


def _guarded_tap(frame):
    def on_tap(c, lay, x, y):
        frame.app.guard(lambda e: _tapped(frame, c))(None)
    return on_tap


def member_row(frame, state: R.State, ui: Ui) -> ft.Control:
    issue = state.issue
    board = _board(issue.map)
    buttons = []
    for i, m in enumerate(issue.members):
        chosen = m.name == ui.selected
        button = wide_button(f"{m.name} · {board.label(m.at.c)}", lambda e, n=m.name: _select(frame, n),
                             icon=ft.Icons.PERSON, filled=chosen)
        if not chosen:  # the member's colour on the map
            button.icon_color = MEMBER_COLOURS[i % len(MEMBER_COLOURS)]
        buttons.append(button)
    return ft.Row(buttons, wrap=True, spacing=8, run_spacing=8)


def _select(frame, name: str) -> None:
    ui = _ui(frame)
    ui.selected = None if ui.selected == name else name
    ui.along = set()
    ui.target = ui.attacker = None  # picking who moves ends aiming at an enemy
    ui.show_aim = False
    frame.refresh()


def move_controls(frame, state: R.State, ui: Ui, board: Board, card: FieldSpec) -> list[ft.Control]:
    issue = state.issue
    me = next(m for m in issue.members if m.name == ui.selected)
    others = [m.name for m in issue.members if m.at == me.at and m.name != me.name]

    def set_move(v):
        ui.move_value = v

    out: list[ft.Control] = [spec_stepper(frame, _("Card's move value"), card, ui.move_value, set_move,
                                          identifier="move-value")]
    if others:
        def toggle(name, value):
            (ui.along.add if value else ui.along.discard)(name)
        out.append(_say(_("Also moving with {member} from {space}:", member=me.name, space=board.label(me.at.c)),
                        style=ft.TextThemeStyle.BODY_MEDIUM))
        out.append(ft.Row([ft.Checkbox(label=n, value=n in ui.along, on_change=lambda e, n=n: toggle(n, e.control.value))
                           for n in others], wrap=True))
    out.append(switch_row(_("The card waives hazards"), ui.waive_hazard,
                          lambda e: setattr(ui, "waive_hazard", bool(e.control.value)))[0])
    return out


def _tapped(frame, c: Coord) -> None:
    state: R.State = frame.loaded.game_state
    ui = _ui(frame)
    issue = state.issue
    if issue is None:
        return
    enemies = [g for g in issue.groups if g.at.c == c]
    if issue.over:
        if enemies:  # an enemy tapped after the end: say why nothing happens
            raise InputError(_why_no_attack(state, enemies[0]))
        return
    board = _board(issue.map)
    if c not in board.spaces:
        raise InputError(_("That is not a space of this map."))
    if issue.pending is not None:
        try:
            option = R.option_at(issue.pending, c)
        except InputError as exc:
            raise InputError(tied_to(_why_no_attack(state, enemies[0]), exc.args[0]) if enemies else exc.args[0]) from None
        frame.dispatch(R.Choose(option=option))
        return
    waiting = [i for i, t in enumerate(issue.tokens) if t.status == "revealed"]
    if waiting:
        k = waiting[0]
        allowed = {h.c for h in R.placement_spaces(state, k)}
        if c not in allowed:
            token = issue.tokens[k]
            where = _("Place these enemies within area {area}: tap a space outlined in orange.",
                      area=token.area or board.label(token.at.c))
            raise InputError(tied_to(_why_no_attack(state, enemies[0]), where) if enemies else where)
        if ui.spawn_token != k:
            return
        for idx, (en, at, n) in enumerate(ui.placements):
            if en == ui.spawn_enemy and at == c:
                ui.placements[idx] = (en, at, n + ui.spawn_count)
                break
        else:
            ui.placements.append((ui.spawn_enemy, c, ui.spawn_count))
        frame.refresh()
        return
    if enemies:  # aim at them: the attack waits under the map for the damage card, scrolled into view
        why = _why_no_attack(state, enemies[0])
        if why:
            raise InputError(why)
        ui.target, ui.attacker = c, _default_attacker(state, ui, c)
        ui.show_aim = True
        frame.refresh()
        return
    if ui.target is not None:  # a tap elsewhere stops aiming, and does what it does
        ui.target = ui.attacker = None
    here = [m.name for m in issue.members if m.at.c == c]
    if ui.selected is None:
        if not here:
            raise InputError(_("Nobody is on {space}. Tap a team member first (their initials on the map).",
                               space=board.label(c)))
        ui.selected, ui.along = here[0], set()
        frame.refresh()
        return
    me = next(m for m in issue.members if m.name == ui.selected)
    if me.at.c == c:
        ui.selected = None
        frame.refresh()
        return
    action = build(R.Move, member=ui.selected, to=Hex.of(c), move=ui.move_value,
                   with_members=sorted(ui.along), waive_hazard=ui.waive_hazard)
    frame.dispatch(action)
    ui.selected, ui.along = None, set()


# --- what just happened --------------------------------------------------------------------------


def last_section(frame, state: R.State) -> ft.Control:
    row = _last_row(frame)
    if row is None:
        return ft.Container()
    label, events = render(row.label), row.events
    return _kept(frame, "last", (label, events), lambda: tagged("last-events", section(
        _("What just happened: {action}", action=label),
        *[_say(Event.coerce(e).text, style=ft.TextThemeStyle.BODY_MEDIUM) for e in events])))


# --- attacks and manual ± -----------------------------------------------------------------------------


def _why_no_attack(state: R.State, group: R.EnemyGroup) -> Optional[Words]:
    """Why an attack can't be made now (None: it can), in the rules' words."""
    attack = legal(state).get("attack")
    if attack:
        return attack[0].why_not
    issue = state.issue
    return R.refusal(state, R.Attack(member=issue.members[issue.active].name, at=group.at, enemy=group.enemy,
                                     damage=1, range=0))


def _aiming(state: R.State, ui: Ui) -> bool:
    """An enemy was tapped and can still be attacked: the attack waits under the map. Forgotten when
    its enemies are gone (killed, moved), attacks are not allowed now, or the attacker left."""
    issue = state.issue
    if ui.target is None:
        return False
    names = [m.name for m in issue.members]
    if (issue.over or not any(g.at.c == ui.target for g in issue.groups) or ui.attacker not in names
            or _why_no_attack(state, next(g for g in issue.groups if g.at.c == ui.target))):
        ui.target = ui.attacker = None
        ui.show_aim = False
        return False
    return True


def _default_attacker(state: R.State, ui: Ui, c: Coord) -> str:
    """Who attacks a tapped enemy: the picked member; else whose turn it is if they reach it with the
    card's range as entered; else the only member who does; else whose turn it is (the card under
    the map lets the players pick another)."""
    issue = state.issue
    if ui.selected in {m.name for m in issue.members}:
        return ui.selected
    active = issue.members[issue.active].name
    reach = [m.name for m in issue.members
             if any(issue.groups[i].at.c == c for i in R.attack_targets(state, m.name, ui.reach, ui.ignore_walls))]
    return reach[0] if len(reach) == 1 and active not in reach else active


def _attack_inputs(frame, moves, ui: Ui, prefix: str) -> list[ft.Control]:
    """The damage card's numbers (ranges from the attack's legal move) and its wall switch."""
    return [
        spec_stepper(frame, _("Damage"), spec_of(moves, "attack", "damage"), ui.damage,
                     lambda v: setattr(ui, "damage", v), identifier=f"{prefix}-damage"),
        spec_stepper(frame, _("Range"), spec_of(moves, "attack", "range"), ui.reach, lambda v: setattr(ui, "reach", v),
                     identifier=f"{prefix}-range"),
        switch_row(_("The card ignores walls"), ui.ignore_walls,
                   lambda e: (setattr(ui, "ignore_walls", bool(e.control.value)), frame.refresh()))[0],
    ]


def _hit_button(frame, state: R.State, ui: Ui, attacker: str, i: int, board: Board, *, filled: bool = False) -> ft.Control:
    """Attack group i with the damage card as entered: the same action from the map or the list."""
    issue = state.issue
    g = issue.groups[i]
    et = _card_of(state, g)
    said = dict(enemies=et.count_name(g.count) if et else f"{g.count} {g.enemy}", space=board.label(g.at.c))
    if et is None:
        text = _("Hit {enemies} on {space}", **said)
    elif g.damage:
        text = _("Hit {enemies} on {space} (health {health}, {taken} taken)", health=et.health, taken=g.damage, **said)
    else:
        text = _("Hit {enemies} on {space} (health {health})", health=et.health, **said)

    def hit(e):
        _unaimed(frame, build(R.Attack, member=attacker, at=g.at, enemy=g.enemy, damage=ui.damage, range=ui.reach,
                              ignore_walls=ui.ignore_walls))

    cls = ft.FilledButton if filled else ft.FilledTonalButton
    # no fixed height: on a narrow phone the words wrap onto a second line instead of being cut off
    words = ft.Container(ft.Text(text, text_align=ft.TextAlign.CENTER),
                         padding=ft.Padding.symmetric(vertical=8))
    return cls(content=words, icon=ft.Icons.GPS_FIXED, on_click=frame.app.guard(hit))


def _unaimed(frame, action) -> None:
    """Dispatch an attack or move made from the aim: the redraw after it no longer aims (unless the
    rules refuse it: then the aim stays for another try)."""
    ui = _ui(frame)
    kept = (ui.target, ui.attacker)
    ui.target = ui.attacker = None
    try:
        frame.dispatch(action)
    except Exception:
        ui.target, ui.attacker = kept
        raise


def aim_controls(frame, state: R.State, ui: Ui, board: Board, moves) -> list[ft.Control]:
    """The attack on the enemy tapped on the map, right under it: who attacks (the picked member, or
    the players choose), the damage card, and a Hit button per enemy type on that space."""
    issue = state.issue
    c = ui.target
    here = [i for i, g in enumerate(issue.groups) if g.at.c == c]
    reached = set(R.attack_targets(state, ui.attacker, ui.reach, ui.ignore_walls))

    def pick(name):
        ui.attacker = name
        frame.refresh()

    def stop(e):
        ui.target = ui.attacker = None
        frame.refresh()

    said = tagged("aim", _say(_("Attack on {space} with {member}", space=board.label(c), member=ui.attacker),
                              weight=ft.FontWeight.BOLD))
    said.expand = True  # (the Row sizes the Semantics: expanded, its words wrap)
    out: list[ft.Control] = [ft.Row([said, icon_button(ft.Icons.CLOSE, _("Stop aiming"), stop)],
                                    vertical_alignment=ft.CrossAxisAlignment.CENTER)]
    damage, reach, walls = _attack_inputs(frame, moves, ui, "aim")
    out += [damage, reach, *[_hit_button(frame, state, ui, ui.attacker, i, board, filled=True) for i in here]]
    if not reached & set(here):
        out.append(_say(_("{space} is not within range {range} of {member} in a straight line: set the card's range, "
                          "or pick who attacks.", space=board.label(c), range=ui.reach, member=ui.attacker),
                        style=ft.TextThemeStyle.BODY_MEDIUM, italic=True))
    if len(issue.members) > 1:
        out.append(_say(_("Who attacks:"), style=ft.TextThemeStyle.BODY_MEDIUM))
        out.append(choice_buttons([(m.name, m.name) for m in issue.members], ui.attacker, pick))
    out.append(walls)
    if ui.selected and ui.selected in {m.name for m in issue.members} \
            and Hex.of(c) in R.move_targets(state, ui.selected, ui.move_value):
        def move_there(e):
            _unaimed(frame, build(R.Move, member=ui.selected, to=Hex.of(c), move=ui.move_value,
                                  with_members=sorted(ui.along), waive_hazard=ui.waive_hazard))
            ui.selected, ui.along = None, set()
        out.append(wide_button(_("Move {member} to {space} instead", member=ui.selected, space=board.label(c)),
                               frame.app.guard(move_there),
                               icon=ft.Icons.DIRECTIONS_RUN, filled=False))
    return [tagged("aim-card", aim_card(frame, ui, board.label(c), out))]


def aim_card(frame, ui: Ui, label: str, controls: list[ft.Control]) -> ft.Control:
    """The attack's card under the map. Right after an enemy was tapped (`ui.show_aim`) the screen
    scrolls to it once the phone has laid it out: under a phone's map it would open out of sight.
    Its key names the space, so aiming at another one makes a new card (laid out, so scrolled to)."""
    key = f"aim-card-{label}"

    async def laid_out(e):
        if not ui.show_aim:
            return
        ui.show_aim = False
        try:
            await frame.app.page.views[-1].scroll_to(scroll_key=key, duration=300)
        except (RuntimeError, TimeoutError, IndexError):  # the phone left or redrew meanwhile: no scroll
            pass

    return ft.Container(ft.Column(controls, spacing=GAP, horizontal_alignment=ft.CrossAxisAlignment.STRETCH),
                        key=ft.ScrollKey(key), on_size_change=laid_out,
                        border=ft.Border.all(2, "#B71C1C"), border_radius=12, padding=12)


def attack_section(frame, state: R.State, ui: Ui) -> ft.Control:
    issue = state.issue
    moves = legal(state)
    if "attack" not in moves or moves["attack"][0].why_not is not None or _aiming(state, ui):
        return ft.Container()  # (while aiming from the map, the attack is under the map)
    board = _board(issue.map)
    attacker = ui.selected or issue.members[issue.active].name
    targets = R.attack_targets(state, attacker, ui.reach, ui.ignore_walls)
    # Kept while the attacker, the groups in reach (each with its card and space), the card's numbers
    # and their ranges are the same.
    reads = (attacker, tuple((issue.groups[i], _card_of(state, issue.groups[i]), board.label(issue.groups[i].at.c))
                             for i in targets),
             spec_of(moves, "attack", "damage"), spec_of(moves, "attack", "range"), ui.damage, ui.reach, ui.ignore_walls)

    def build() -> ft.Control:
        buttons = [_hit_button(frame, state, ui, attacker, i, board) for i in targets]
        if not buttons:
            buttons = [_say(_("No enemy group is within range {range} of {member} in a straight line.", range=ui.reach,
                              member=attacker), style=ft.TextThemeStyle.BODY_MEDIUM, italic=True)]
        return section(
            _("Attack with {member}", member=attacker),
            _say(_("Enter the damage card; pick another attacker by tapping them above the map, or tap an enemy on the "
                   "map."), style=ft.TextThemeStyle.BODY_SMALL),
            *_attack_inputs(frame, moves, ui, "attack"),
            *buttons,
        )
    return _kept(frame, "attack", reads, build)


def _card_of(state: R.State, g: R.EnemyGroup) -> Optional[EnemyType]:
    """A group's enemy card (None: not entered)."""
    return next((t for t in state.enemy_types if t.name == g.enemy), None)


def adjust_section(frame, state: R.State, ui: Ui) -> ft.Control:
    # (kept while the reason typed, the field's generation and the room for the buttons side by side are the same)
    return _kept(frame, "adjust", (ui.reason, ui.cleared, _room(frame, 300)), lambda: _adjust(frame, ui))


def _adjust(frame, ui: Ui) -> ft.Control:
    reason = _field(frame, "reason", label=_("Reason (the card or effect)"), max_length=80)

    def adjust(track, delta):
        def handler(e):
            text = (ui.reason or "").strip()
            if not text:
                raise InputError(_("Say why first: type the card or effect in “Reason” (1 to 80 characters)."))
            frame.dispatch(build(R.Adjust, track=track, delta=delta, reason=text))
            _clear(frame, reason, "reason")
        return frame.app.guard(handler)

    def buttons(track, colour):
        named = render(R.TRACK_WORDS[track])
        up = wide_button(f"{named} +1", adjust(track, 1))
        up.style = ft.ButtonStyle(bgcolor=colour)
        return pair(frame, wide_button(f"{named} −1", adjust(track, -1), filled=False), up)

    return section(_("Cards that move threat or awareness"),
                   keyed(f"reason-{ui.cleared}", tagged("adjust-reason", reason)),
                   buttons("threat", ft.Colors.RED_600),
                   buttons("awareness", ft.Colors.INDIGO_500),
                   _say(_("E.g. It's Closing In: awareness +1."), style=ft.TextThemeStyle.BODY_SMALL))


# --- lists -------------------------------------------------------------------------------------------


def board_section(frame, state: R.State) -> ft.Control:
    """The team and the enemies in a list: kept while who stands where (and the enemies' cards), the
    face-down tokens and the used caches are the same."""
    issue = state.issue
    board = _board(issue.map)
    types = {t.name: t for t in state.enemy_types}
    reads = (tuple((m.name, board.label(m.at.c), board.special(m.at.c)) for m in issue.members),
             tuple((g.enemy, g.count, board.label(g.at.c), types.get(g.enemy)) for g in issue.groups),
             sum(1 for t in issue.tokens if t.status == "face_down"), tuple(board.label(h.c) for h in issue.used_caches))
    return _kept(frame, "team-and-enemies", reads, lambda: _board_list(state, board, types))


def _board_list(state: R.State, board: Board, types: dict[str, EnemyType]) -> ft.Control:
    issue = state.issue
    rows: list[ft.Control] = []
    for m in issue.members:
        special = board.special(m.at.c)
        extra = f" ({_(SPECIAL_NAMES[special])})" if special else ""
        rows.append(ft.Row([ft.Icon(ft.Icons.PERSON), _say(f"{m.name}", weight=ft.FontWeight.BOLD),
                            tagged(f"member-{m.name}", _say(board.label(m.at.c))), _say(extra)], spacing=6))
    for g in issue.groups:
        et = types.get(g.enemy)
        said = _("{enemies} on {space}", enemies=et.count_name(g.count) if et else g.enemy, space=board.label(g.at.c))
        if et:
            said += " · " + _("threat {threat}, range {range}, health {health}, move {move}", threat=et.threat,
                              range=et.range, health=et.health, move=et.move)
        rows.append(_say(said, style=ft.TextThemeStyle.BODY_MEDIUM))
    down = sum(1 for t in issue.tokens if t.status == "face_down")
    caches = ", ".join(board.label(h.c) for h in issue.used_caches) or _("none")
    rows.append(_say(ngettext("{n} encounter token(s) face down; caches used: {caches}.",
                              "{n} encounter token(s) face down; caches used: {caches}.", down, caches=caches),
                     style=ft.TextThemeStyle.BODY_MEDIUM))
    return section(_("Team and enemies"), tagged("enemy-list", ft.Column(rows, spacing=4)))


def card_words(t: EnemyType) -> str:
    """An enemy card's stats in words: 'Nanobots: threat 1, range 1, health 1, move 2'."""
    said = _("{enemy}: threat {threat}, range {range}, health {health}, move {move}", enemy=t.name, threat=t.threat,
             range=t.range, health=t.health, move=t.move)
    return _("{stats} (stays put)", stats=said) if t.move_rule == "stays" else said


def enemy_cards_section(frame, state: R.State) -> ft.Control:
    """The campaign's enemy cards: kept while they and the table's saved cards are the same."""
    saved = saved_enemies(frame.app.store)
    return _kept(frame, "enemy-cards", (tuple(state.enemy_types), tuple(saved)), lambda: _enemy_cards(frame, state, saved))


def _enemy_cards(frame, state: R.State, saved: list[EnemyType]) -> ft.Control:
    rows: list[ft.Control] = []
    for t in state.enemy_types:
        said = card_words(t)
        if t.placeholder:
            said += " · " + _("PLACEHOLDER: enter from the card")
        rows.append(ft.Row([
            _say(said, style=ft.TextThemeStyle.BODY_MEDIUM, expand=True),
            icon_button(ft.Icons.EDIT, _("Edit {enemy}", enemy=t.name), lambda e, t=t: enemy_dialog(
                frame.app, t, lambda et: frame.dispatch(R.SetEnemyType(enemy=et)))),
        ]))

    def load(e):
        changed = 0
        for et in saved:
            current = next((t for t in frame.loaded.game_state.enemy_types if t.name == et.name), None)
            if current is None or current.model_dump(exclude={"placeholder"}) != et.model_dump(exclude={"placeholder"}) \
                    or current.placeholder:
                frame.dispatch(R.SetEnemyType(enemy=et))
                changed += 1
        frame.app.toast(ngettext("{n} enemy card taken from the saved cards.", "{n} enemy cards taken from the saved cards.",
                                 changed) if changed else _("Already up to date."))

    # Stats entered in this campaign that the table's saved cards don't have yet (or have otherwise).
    by_name = {et.name: et for et in saved}
    unsaved = [t for t in state.enemy_types if not t.placeholder and (
        t.name not in by_name or by_name[t.name].model_dump(exclude={"placeholder"}) != t.model_dump(exclude={"placeholder"}))]

    def keep(e):
        for t in unsaved:
            catalog.put(frame.app.store, ENEMY_KIND, t.name, t.name, t.model_dump(mode="json"))
        frame.app.toast(_("Saved to the table's cards: {enemies}.", enemies=", ".join(t.name for t in unsaved)))
        frame.refresh()

    return section(
        _("Enemy cards"),
        *rows,
        ft.Row([
            wide_button(_("Add a type"), lambda e: enemy_dialog(frame.app, None, lambda et: frame.dispatch(
                R.SetEnemyType(enemy=et))), icon=ft.Icons.ADD, filled=False),
            *([wide_button(_("Use saved cards ({n})", n=len(saved)), frame.app.guard(load), icon=ft.Icons.DOWNLOAD,
                           filled=False)] if saved else []),
            *([tagged("save-enemy-cards", wide_button(
                _("Save to the table's cards ({n})", n=len(unsaved)), frame.app.guard(keep), icon=ft.Icons.SAVE,
                filled=False, tooltip=_("Other campaigns on this table can then use these stats")))] if unsaved else []),
            link(_("Saved cards and maps"), lambda e: frame.app.go("/g/human_ethos/enemies"), icon=ft.Icons.MAP),
        ], wrap=True, spacing=8, run_spacing=8),
    )


def enemy_dialog(app, current: Optional[EnemyType], on_save: Callable[[EnemyType], None], *, name: str = "") -> FormDialog:
    """Enter or edit one enemy card's stats. A refused value (out of its range, not a number) or a
    refused card says why under the title; the dialog stays open to correct it."""
    cur = current or EnemyType(name=name or "?", threat=1, range=1, health=1, move=1)
    name_field = ft.TextField(label=_("Name (plural, as on the card)"), value=cur.name if current or name else "",
                              read_only=current is not None, max_length=30)
    labels = {"threat": _("Threat"), "range": _("Range"), "health": _("Health"), "move": _("Move")}
    nums = {k: ft.TextField(label=label, value=str(getattr(cur, k)), keyboard_type=ft.KeyboardType.NUMBER, width=130)
            for k, label in labels.items()}
    stays_row, stays = switch_row(_("Stays put (does not move)"), cur.move_rule == "stays")
    setup = ft.TextField(label=_("Setup text"), value="" if cur.placeholder else cur.setup, multiline=True, max_length=400)

    def save() -> None:
        values = {k: whole_number(f, labels[k]) for k, f in nums.items()}
        on_save(build(EnemyType, name=(name_field.value or "").strip(),
                      move_rule="stays" if stays.value else "toward_closest",
                      setup=(setup.value or "").strip(), singular=cur.singular, **values))

    form = FormDialog(app, _("Enemy card: {enemy}", enemy=cur.name) if current else _("New enemy type"),
                      [name_field, ft.Row(list(nums.values()), wrap=True, spacing=8, run_spacing=8), stays_row, setup])
    form.actions(form.button(_("Save card"), save, icon=ft.Icons.SAVE))
    form.show()
    return form


# --- end of the issue, setup, story progress -------------------------------------------------------------


def banner(frame, state: R.State) -> ft.Control:
    issue = state.issue
    won = issue.phase == "won"
    text = (_("{issue} won!", issue=issue.named_at_start) if won
            else _("{issue} lost", issue=issue.named_at_start))
    nxt = (_("Next map: {map} ({n} to go)", map=map_name(issue.more_maps[0]), n=len(issue.more_maps))
           if won and issue.more_maps else None)
    return _kept(frame, "banner", (won, text, nxt), lambda: _banner(frame, won, text, nxt))


def _banner(frame, won: bool, text: str, nxt: Optional[str]) -> ft.Control:
    why = (_("Every team member stands on End and its area is clear.") if won
           else _("Threat and awareness met on the track."))
    shown = tagged("banner", ft.Container(
        ft.Column([ft.Text(text, size=frame.app.sizes(34), weight=ft.FontWeight.BOLD, color=ft.Colors.WHITE),
                   ft.Text(why, size=frame.app.sizes(18), color=ft.Colors.WHITE)], spacing=4),
        bgcolor=ft.Colors.GREEN_700 if won else ft.Colors.RED_800, padding=20, border_radius=12,
    ))
    if nxt is not None:
        return ft.Column([shown, wide_button(nxt, frame.app.guard(lambda e: frame.dispatch(R.NextMap())),
                                             icon=ft.Icons.ARROW_FORWARD)], spacing=GAP)
    return shown


def setup_sections(frame, state: R.State, ui: Ui) -> list[ft.Control]:
    """Set up the next game: a story issue (the next one, one map) or an arcade game (any saved
    maps in a row, the enemy types the box and the story's unlocks offer)."""
    camp = state.campaign
    if ui.arcade is None:
        ui.arcade = state.settings.mode == "arcade"
    arcade = ui.arcade
    maps = saved_maps(frame.app.store)
    by_key = dict(maps)
    if ui.map_key not in by_key and maps:
        ui.map_key = maps[0][0]
    ui.run_maps = [k for k in ui.run_maps if k in by_key]
    # The next issue by default, also right after a win unlocked it (the players may pick an earlier one).
    if ui.number is None or ui.number_for != camp.unlocked_issue or (not arcade and ui.number > camp.unlocked_issue):
        ui.number, ui.number_for = camp.unlocked_issue, camp.unlocked_issue
    if not ui.team and state.issue is not None:  # the same team plays on unless the players change it
        ui.team = ", ".join(m.name for m in state.issue.members)
    run = [by_key[k] for k in ui.run_maps] if arcade else [by_key[ui.map_key]] if ui.map_key in by_key else []
    moves = legal(state)

    def spec(name: str) -> FieldSpec:
        return spec_of(moves, "start_issue", name)

    offered = list(spec("enemies").choices)
    pool = [n for n in offered if n not in ui.left_out]

    def redraw(attr, value):
        setattr(ui, attr, value)
        frame.refresh()

    def pick_map(key):
        if arcade:  # tap to add to the run, tap again to take it out
            ui.run_maps = [k for k in ui.run_maps if k != key] if key in ui.run_maps else [*ui.run_maps, key]
        else:
            ui.map_key = key
        frame.refresh()

    def toggle_enemy(name, value):
        (ui.left_out.discard if value else ui.left_out.add)(name)
        frame.refresh()

    def start(e):
        if not run:
            raise InputError(_("Tap the map(s) to play first (or make one with “Edit maps”).")
                             if arcade else _("Pick a map first (or make one with “Edit maps”)."))
        names = [n.strip() for n in re.split(r"[,\n]", ui.team) if n.strip()]
        if not names:
            raise InputError(_("Name the team members, separated by commas, in turn order (e.g. “Max, Ana”)."))
        if arcade and not pool:
            raise InputError(_("Leave at least one enemy type in the arcade game."))
        frame.dispatch(build(R.StartIssue, number=ui.number, title=ui.title.strip(), map=run[0], track=ui.track,
                             threat=ui.threat, awareness=ui.awareness, members=names,
                             mode="arcade" if arcade else "story", enemies=pool if arcade else [],
                             more_maps=run[1:] if arcade else []))

    problems: list[ft.Control] = []
    for m in run:
        check = check_map(m)
        where = f"{render(map_name(m))}: " if arcade else ""
        problems += [_say(where + render(err), color=ft.Colors.ERROR) for err in check.errors]
        problems += [_say(where + render(w), style=ft.TextThemeStyle.BODY_SMALL) for w in check.warnings]

    def map_label(k, m):
        name = (_("{map} (sample)", map=m.name) if m.sample and "sample" not in m.name.lower()
                else render(map_name(m)))
        return f"{ui.run_maps.index(k) + 1}. {name}" if arcade and k in ui.run_maps else name

    # (arcade: several maps may be picked; every picked one is filled)
    map_buttons = choice_buttons([(k, map_label(k, m)) for k, m in maps], set(ui.run_maps) if arcade else ui.map_key,
                                 pick_map)
    kind = choice_buttons([("story", _("Story: issue #{number}", number=str(camp.unlocked_issue))),
                           ("arcade", _("Arcade game"))],
                          "arcade" if arcade else "story", lambda k: redraw("arcade", k == "arcade"))
    if arcade:
        intro = [
            _say(_("Arcade: any saved maps in a row (tap them in playing order), the enemies below, all unlocked "
                   "equipment."), weight=ft.FontWeight.BOLD),
            _say(_("Maps"), style=ft.TextThemeStyle.TITLE_SMALL), map_buttons,
            _say(_("Run: {maps}.", maps=" → ".join(render(map_name(m)) for m in run)) if run else _("Run: no map picked yet."),
                 style=ft.TextThemeStyle.BODY_MEDIUM),
            *problems,
            _say(_("Enemies in this game (the box's and the unlocked ones)"), style=ft.TextThemeStyle.TITLE_SMALL),
            ft.Row([ft.Checkbox(label=n, value=n not in ui.left_out,
                                on_change=lambda e, n=n: toggle_enemy(n, bool(e.control.value))) for n in offered],
                   wrap=True),
            *unlocked_without_card(frame, state),
            _say(_("Unlocked cards to shuffle in: {cards}.",
                   cards=", ".join(camp.unlocked_cards) or _("none yet (play story mode)")),
                 style=ft.TextThemeStyle.BODY_MEDIUM),
        ]
    else:
        intro = [
            _say(_("Story mode: issue #{number} is next (issues are played in order).", number=str(ui.number)),
                 weight=ft.FontWeight.BOLD),
            spec_stepper(frame, _("Issue to play"), spec("number"), ui.number, lambda v: setattr(ui, "number", v),
                         identifier="setup-number") if camp.unlocked_issue > 1 else ft.Container(),
            _say(_("Map"), style=ft.TextThemeStyle.TITLE_SMALL), map_buttons, *problems,
        ]
    team = _field(frame, "team", label=_("Team members, in turn order (e.g. Max, Ana)"), max_length=130)
    title = _field(frame, "title", label=_("Title (optional)"), max_length=60)
    go = (ngettext("Start arcade ({n} map)", "Start arcade ({n} maps)", len(run)) if arcade
          else _("Start issue #{number}", number=str(ui.number)))
    return [section(
        _("Set up the next game"),
        kind, *intro,
        link(_("Edit maps"), lambda e: frame.app.go("/g/human_ethos/maps"), icon=ft.Icons.EDIT_LOCATION_ALT),
        _say(_("From the setup card:") if not arcade else _("The track:"), style=ft.TextThemeStyle.TITLE_SMALL),
        spec_stepper(frame, _("Track length"), spec("track"), ui.track, lambda v: setattr(ui, "track", v),
                     identifier="setup-track"),
        spec_stepper(frame, _("Starting threat"), spec("threat"), ui.threat, lambda v: setattr(ui, "threat", v),
                     identifier="setup-threat"),
        spec_stepper(frame, _("Starting awareness"), spec("awareness"), ui.awareness,
                     lambda v: setattr(ui, "awareness", v), identifier="setup-awareness"),
        title, team,
        wide_button(go, frame.app.guard(start), icon=ft.Icons.PLAY_ARROW),
    )]


def unlocked_without_card(frame, state: R.State) -> list[ft.Control]:
    """Unlocked enemies whose card isn't entered yet: arcade can't offer them until it is."""
    known = {t.name for t in state.enemy_types}
    out: list[ft.Control] = []
    for name in state.campaign.unlocked_enemies:
        if name not in known:
            out.append(ft.Row([
                _say(_("{enemy}: unlocked; enter its card to use it.", enemy=name), style=ft.TextThemeStyle.BODY_MEDIUM,
                     expand=True),
                wide_button(_("Enter card"), lambda e, n=name: enemy_dialog(
                    frame.app, None, lambda et: frame.dispatch(R.SetEnemyType(enemy=et)), name=n), filled=False),
            ]))
    return out


def progress_section(frame, state: R.State, ui: Ui) -> ft.Control:
    """The campaign's progress and its unlocks: kept while they, the mode, the name typed (and the
    field's generation) and the room for the buttons side by side are the same."""
    return _kept(frame, "progress", (state.campaign, state.settings.mode, ui.unlock_text, ui.cleared, _room(frame, 300)),
                 lambda: _progress(frame, state, ui))


def _progress(frame, state: R.State, ui: Ui) -> ft.Control:
    camp = state.campaign
    story = state.settings.mode == "story"
    rows: list[ft.Control] = []
    if story or camp.records:
        rows.append(tagged("story-next", _say(_("Unlocked up to issue #{number}.", number=str(camp.unlocked_issue)),
                                              weight=ft.FontWeight.BOLD)))
        for r in camp.records:
            rows.append(_say(_("Issue #{number}: {wins}, {losses}", number=str(r.issue),
                               wins=ngettext("{n} win", "{n} wins", r.wins),
                               losses=ngettext("{n} loss", "{n} losses", r.losses)), style=ft.TextThemeStyle.BODY_MEDIUM))
    if not story or camp.arcade_wins or camp.arcade_losses:
        rows.append(_say(_("Arcade maps: {won} won, {lost} lost.", won=camp.arcade_wins, lost=camp.arcade_losses),
                         weight=ft.FontWeight.BOLD))
    rows.append(_say(_("Unlocked cards: {cards}", cards=", ".join(camp.unlocked_cards) or _("none yet")),
                     style=ft.TextThemeStyle.BODY_MEDIUM))
    rows.append(_say(_("Unlocked enemies: {enemies}", enemies=", ".join(camp.unlocked_enemies) or _("none yet")),
                     style=ft.TextThemeStyle.BODY_MEDIUM))
    field_ = _field(frame, "unlock_text", label=_("A card or enemy the setup card unlocks"), max_length=40)

    def unlock(what):
        def handler(e):
            name = ui.unlock_text.strip()
            if not name:
                raise InputError(_("Type the name of the card or enemy to unlock."))
            frame.dispatch(build(R.Unlock, what=what, name=name))
            _clear(frame, field_, "unlock_text")
        return frame.app.guard(handler)

    rows += [field_, pair(frame, wide_button(_("Unlock card"), unlock("card"), filled=False),
                          wide_button(_("Unlock enemy"), unlock("enemy"), filled=False))]
    return section(_("Campaign progress"), *rows)


# --- extra screens ------------------------------------------------------------------------------------


def _screens():
    from .screens import EnemiesScreen, MapsScreen

    return {"maps": MapsScreen, "enemies": EnemiesScreen}


class _Lazy(dict):
    def get(self, key, default=None):  # imported on first use, so the panel loads fast
        return _screens().get(key, default)


GAME_SCREENS = _Lazy()
