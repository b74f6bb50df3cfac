"""The frame every game screen lives in: title with turn/phase, undo/redo that say what they do,
the game's own panel, the dice tray, table notes, the history in words, share and settings.

Data flow: tap → `dispatch(action)` → the campaign's LiveCampaign (companion.live) → Store.apply
(rules + one transaction) → the live campaign hands its new snapshot to every screen showing it, which
redraws from it without reading the save. The frame's own parts keep their identity across
redraws (kept objects, or keyed so Flet patches what changed); a tap on a control that a redraw has
replaced is answered with a message (TableSession), never dropped.

A tap is applied against what its phone showed: each redraw is marked (TableSession.mark_shown), and
an action, undo or redo goes with the log position of the redraw the phone had confirmed when the tap
left it (TAPPED_ON), not the one the server has drawn since. One made on an older state is refused
with words naming what got there first, and the phone shows the current state."""

from __future__ import annotations

import importlib
import threading
from contextlib import contextmanager
import logging
from typing import Any, Callable, Optional, TypeVar

import flet as ft

from companion import i18n, speech
from companion.app import TAPPED_ON, shown_probe
from companion.i18n import _, ngettext

from companion.games import get_game
from companion.live import Snapshot
from companion.log import IN_PROGRESS, NotFound
from companion.table import GiveDice, SetPhysicalDice, TableNote, TrayRoll
from companion.ui import story, table_help
from companion.ui.forms import settings_summary
from companion.ui.style import GAP, TAP
from companion.ui.widgets import (DicePad, DiceTray, big_button, changed_since_sent, dialog_frame, dice_faces, HistoryList, OwnColumn, OwnContainer, icon_button, keyed,
                                  readable_width, said_once, scroll_into_view, section, side_by_side, switch_row, tagged, fit_title, title_room)

log = logging.getLogger(__name__)
T = TypeVar("T")
ONE_COLUMN_BELOW = 992  # px: narrower, a game's sections stand one under the other (widgets.two_columns)
# The history lists the newest lines, then earlier ones a tap at a time on that phone: each line
# shown costs every phone with every change (150 actions in, a counter's tap took 57 ms with 100
# lines shown and 35 with 20; with 6 phones following, the server's CPU per tap was 77 against 45 ms).
HISTORY_FIRST = 20
HISTORY_MORE = 50


def _text_fields(root: ft.Control, skip: frozenset = frozenset()):
    """Every TextField in a tree of controls, but not under a control whose id is in `skip`."""
    stack = [root]
    while stack:
        c = stack.pop()
        if id(c) in skip:
            continue
        if isinstance(c, ft.TextField):
            yield c
        for attr in ("controls", "content", "title", "subtitle", "leading", "trailing"):
            value = getattr(c, attr, None)
            if isinstance(value, ft.Control):
                stack.append(value)
            elif isinstance(value, list):
                stack.extend(x for x in value if isinstance(x, ft.Control))


def game_panel_module(game_key: str):
    """The game's own view module (`companion/games/<key>/view.py`), if it has one yet."""
    try:
        return importlib.import_module(f"companion.games.{game_key}.view")
    except ModuleNotFoundError as exc:
        if exc.name and exc.name.endswith(".view"):
            return None
        raise


class CampaignScreen:
    def __init__(self, app, campaign_id: int):
        self.app = app
        self.campaign_id = campaign_id
        self.loaded: Optional[Snapshot] = None
        self.shown_cursor = -2  # the log position last drawn (sent to the phone)
        self._first_cursor = -2  # the one first drawn: a phone can tap nothing of this screen before it
        self._marked: Optional[int] = None  # the log position last marked for the phone to confirm
        self.probe = shown_probe()  # tells which redraw the phone has laid out (TableSession.mark_shown)
        self.live = None  # the LiveCampaign this screen follows (from view() until left())
        self._unfollow = None
        self._acting_thread: Optional[int] = None
        # A long name takes two lines, then ends in "…", rather than running under the share and settings icons.
        self.title = ft.Text("", theme_style=ft.TextThemeStyle.TITLE_LARGE, max_lines=2,
                             overflow=ft.TextOverflow.ELLIPSIS)
        self.headline = tagged("headline", ft.Text("", theme_style=ft.TextThemeStyle.BODY_MEDIUM, max_lines=2,
                                                    overflow=ft.TextOverflow.ELLIPSIS))
        self.body = ft.Column(spacing=GAP)
        # Both say what they would do; a long label ends in "…" on the button (its full words are
        # still its name for screen readers, and the history has them).
        self.undo_text = ft.Text(_("Undo"), max_lines=1, overflow=ft.TextOverflow.ELLIPSIS)
        self.redo_text = ft.Text(_("Redo"), max_lines=1, overflow=ft.TextOverflow.ELLIPSIS)
        self.undo_button = ft.FilledTonalButton(content=self.undo_text, icon=ft.Icons.UNDO, height=TAP, expand=True,
                                                on_click=app.guard(self._undo))
        self.redo_button = ft.OutlinedButton(content=self.redo_text, icon=ft.Icons.REDO, height=TAP, expand=True,
                                             on_click=app.guard(self._redo))
        # Undo and redo side by side on a wide screen; on a phone, redo (when there is one) gets a row
        # of its own under undo, so each can say what it would do.
        self.undo_redo = ft.ResponsiveRow([
            ft.Container(ft.Row([self.undo_button]), col={"xs": 12, "md": 7}),
            ft.Container(ft.Row([self.redo_button]), col={"xs": 12, "md": 5}),
        ], spacing=GAP, run_spacing=6)
        # The title's and undo bar's controls are kept and updated in place; isolated, so a redraw's
        # diff doesn't walk them on every phone: refresh sends them only when they changed.
        self.title_part = OwnColumn([self.title, self.headline], spacing=0, tight=True)
        self.undo_part = OwnContainer(self.undo_redo)
        self.bottom_bar = ft.BottomAppBar(content=self.undo_part, height=TAP + 32,
                                          padding=ft.Padding.symmetric(horizontal=12, vertical=8))
        self.tray_results = ft.Container()
        self.note = ft.TextField(label=_("Add a note to the history"), expand=True, max_length=500)
        # The table's physical-dice mode is an action in the campaign's log (the same on every phone).
        self.physical_row, self.physical = switch_row(_("I roll physical dice (the app asks for every die)"), False,
                                                      app.guard(self._toggle_physical))
        self.pad: Optional[DicePad] = None
        self.tray: Optional[DiceTray] = None  # made once, so what a player typed survives redraws
        self._typing: Optional[ft.TextField] = None  # the panel's field a player is typing into
        self._held = False  # another phone acted while they typed: redraw when they're done
        self._tray_shown = None  # the tray rolls last drawn
        self._own_changes: list[ft.Control] = []  # isolated parts to send after a redraw (see refresh)
        self._view: Optional[ft.View] = None
        self.appbar: Optional[ft.AppBar] = None
        self._two_rows = False  # undo and redo each on a row of its own (a phone with something to redo)
        self._kept: dict[str, tuple[Any, ft.Control]] = {}  # sections drawn last time, by key (see kept)
        self._kept_now: dict[str, tuple[Any, ft.Control]] = {}
        self._reused: set[int] = set()  # ids of the kept sections this redraw reused as they were
        self._screen_states: dict[type, Any] = {}  # see screen_state
        self._pending_drawn: Optional[tuple[str, ft.Control]] = None  # the roll awaited, and its dice pad's section
        self._history_shown = HISTORY_FIRST  # lines of history listed on this phone (see _more_history)
        # Spoken turns (#33): the log position last spoken on this phone, and what was said (Repeat).
        self._said_cursor: Optional[int] = None
        self._last_said: list[str] = []

    # --- lifecycle ---

    def view(self) -> ft.View:
        self._follow()
        self._load()
        speaking = self._speaking()
        self.appbar = ft.AppBar(
                title=self.title_part,
                actions=[OwnContainer(ft.Row([  # made once, never changed: isolated, so never walked again
                    # with spoken turns on (a setting redraws the screen): say the last turn again
                    *([tagged("repeat-speech", icon_button(ft.Icons.RECORD_VOICE_OVER, _("Say the last turn again"),
                                                            self.app.guard(self._repeat)))] if speaking else []),
                    icon_button(ft.Icons.QR_CODE_2, _("Share this table"), self._share),
                    icon_button(ft.Icons.TUNE, _("Campaign settings"), self._settings),
                ], spacing=0))],
            )
        self._size_bars()
        self._view = ft.View(
            route=f"/c/{self.campaign_id}",
            appbar=self.appbar,
            # A game with a board beside its tracks (WIDE = True in its view) uses a desktop's width.
            controls=[readable_width(self.body, wide=getattr(game_panel_module(self.loaded.campaign.game), "WIDE", False)),
                      self.probe],  # last: under the page's end, where its 10 px of spacing goes unseen
            bottom_appbar=self.bottom_bar,
            scroll=ft.ScrollMode.AUTO,
            padding=12,
        )
        return self._view

    def _follow(self) -> None:
        if self._unfollow is None:
            self.live, self._unfollow = self.app.ctx.live.follow(self.campaign_id, self._changed_elsewhere)

    def entered(self) -> None:
        self.app.keep_awake(True)

    def left(self) -> None:
        if self._unfollow:
            self._unfollow()
            self._unfollow = None
        self.app.keep_awake(False)

    def asleep(self) -> None:
        """The phone went away (locked, tab closed, Wi-Fi lost): stop following until it's back, so a
        phone nobody looks at costs the server nothing (on_connect redraws it with what it missed)."""
        self.left()
        self._marked = None  # the redraw on its return is marked again

    def _changed_elsewhere(self, snapshot: Optional[Snapshot]) -> None:
        # The live campaign hands its change over synchronously, in the thread that made it: this
        # screen's own actions are redrawn by their handler, so skip them here.
        if threading.get_ident() == self._acting_thread:
            return
        if snapshot is not self.loaded:  # not already shown (this screen's own redraw got there first)
            self.app.later(self._redraw_for_elsewhere)

    def _redraw_for_elsewhere(self) -> None:
        """Another phone acted. While a player types into this screen's panel the redraw waits (it
        would replace the field under their fingers and close the keyboard); the title says so, and
        the redraw follows as soon as the field loses focus."""
        if self._typing is not None:
            self._held = True
            # short enough for a phone's title bar
            self.headline.content.value = _("Update held while typing")
            self.headline.update()
            return
        self.refresh()

    def resized(self) -> None:
        """The phone turned or the window was resized (TableSession._resized): lay out again, but not
        under a player's fingers; then once the field loses focus."""
        if self._typing is not None:
            self._held = True
            return
        self.refresh()

    def _watch_typing(self, root: ft.Control, skip: tuple = ()) -> None:
        """Note which of the panel's text fields has the focus (see `_redraw_for_elsewhere`)."""
        # A kept section reused as it was was walked when it was built: its fields are watched already.
        for field in _text_fields(root, frozenset(self._reused | {id(c) for c in skip})):
            if getattr(field, "_watched", False):
                continue
            field._watched = True
            focus, blur = field.on_focus, field.on_blur

            def on_focus(e, field=field, focus=focus):
                self._typing = field
                if focus:
                    focus(e)

            def on_blur(e, field=field, blur=blur):
                if self._typing is field:
                    self._typing = None
                if blur:
                    blur(e)
                if self._held and self._typing is None:
                    self._held = False
                    self.refresh()

            field.on_focus, field.on_blur = on_focus, on_blur

    @contextmanager
    def _acting(self):
        self._acting_thread = threading.get_ident()
        try:
            yield
        finally:
            self._acting_thread = None

    @property
    def drawing_own_action(self) -> bool:
        """Whether the redraw under way is for an action this phone made (its dice, undo and redo too):
        a panel then brings what comes next into view; other phones stay where their players are."""
        return self._acting_thread == threading.get_ident()

    def refresh(self) -> None:
        """Redraw from the live campaign (no read of the save)."""
        self._follow()  # back from asleep()
        self._load()
        # Only this screen's view is diffed, not the whole page (its theme, services and overlay don't
        # change with an action); isolated parts (OwnColumn) that changed are sent in the same call.
        view = self._view if self._view is not None and self._view.parent is not None else None
        if view is not None:
            self._own_changes += [part for part in (self.title_part, self.undo_part) if changed_since_sent(part)]
        if view is None:
            self.app.page.update()
            for part in self._own_changes:
                part.update()
        else:
            self.app.page.update(view, *self._own_changes)

    def history(self, limit: int = 100) -> list:
        """The actions in effect in words, newest first (no state blobs)."""
        return self.loaded.history(limit) if self.loaded else []

    # --- building ---

    def _load(self) -> None:
        self.loaded = self.live.snapshot if self.live else None
        if self.loaded is None:
            self.title.value = _("Campaign not found")
            self.headline.content.value = _("It may have been deleted on another screen.")
            self.body.controls = [big_button(_("Back to campaigns"), lambda e: self.app.go("/"), icon=ft.Icons.HOME)]
            self.undo_button.disabled = self.redo_button.disabled = True
            self.shown_cursor = -1
            return
        loaded = self.loaded
        self.shown_cursor = loaded.cursor
        if self._first_cursor == -2:
            self._first_cursor = loaded.cursor
        if loaded.cursor != self._marked:  # sent by the caller with this redraw, then reported by the phone
            self._marked = loaded.cursor
            self.app.mark_shown(self, loaded.cursor, self.probe)
        self._speak_new_rows(loaded)
        self.title.value = loaded.campaign.name
        status, headline = i18n.render(i18n.as_text(loaded.campaign.status)), i18n.render(i18n.as_text(loaded.campaign.headline))
        # the status once: not "Lost · Round 8 · Lost" when the game's headline already says it
        going = i18n.as_text(loaded.campaign.status) == IN_PROGRESS
        self.headline.content.value = headline if going else said_once(headline, status)
        self.undo_button.disabled = loaded.undo_label is None
        self.undo_text.value = (_("Undo: {action}", action=loaded.undo_label) if loaded.undo_label
                                else _("Nothing to undo"))
        self.redo_button.disabled = loaded.redo_label is None
        self.redo_text.value = _("Redo: {action}", action=loaded.redo_label) if loaded.redo_label else _("Redo")
        narrow = self._narrow()
        two_rows = narrow and loaded.redo_label is not None
        self.undo_redo.controls[1].visible = not narrow or two_rows  # a phone shows redo only when there is one
        self._two_rows = two_rows
        self._size_bars()
        if self.tray is None:
            # Made once and kept (not rebuilt): their own changes reach the phone as they happen. A
            # control kept inside a part that *is* rebuilt would be skipped by Flet's reconciliation.
            # Isolated (OwnContainer): a redraw's diff doesn't walk into them; they send their own changes.
            self.tray = DiceTray(self._tray_roll, black_faces=self._black_faces(), sizes=self.app.sizes)
            self.history_list = HistoryList(on_more=self.app.guard(self._more_history))
            self.history_section = keyed("history", OwnContainer(section(_("History"), tagged("history", self.history_list.column),
                                                                         self.history_list.more)))
            self.tray_part = OwnColumn([self.tray_results, self.tray.control(self.app.guard)], spacing=GAP,
                                       horizontal_alignment=ft.CrossAxisAlignment.STRETCH)
            self.tray_section = keyed("tray", OwnContainer(section(_("Dice tray"), self.tray_part)))
            self.note_section = keyed("note", OwnContainer(section(_("Table note"), ft.Row([
                self.note, icon_button(ft.Icons.SEND, _("Add note"), self.app.guard(self._add_note))]))))
            self.physical_part = keyed("physical", OwnContainer(self.physical_row))
            # On a desktop the history stands beside the tray and the note (a line as wide as the
            # page is hard to read); on a phone the three are one under the other.
            self.tools = keyed("tools", side_by_side([self.tray_section, self.note_section], [self.history_section]))
        self._own_changes = self._show_history()
        if self._draw_tray_results():
            self._own_changes.append(self.tray_part)
        physical_shown = get_game(loaded.campaign.game).rolls_dice or loaded.state.physical_dice
        on = loaded.state.physical_dice
        if self.physical.value != on or self.physical_row.toggled != on:  # (what it holds: the phone's)
            self.physical.value = self.physical_row.toggled = on
            if physical_shown:
                self._own_changes.append(self.physical_part)
        # Keys give a part a stable identity: the tray, note and switch are kept objects updated in
        # place; the history is drawn afresh and diffed against what the phone shows (keyed), so a
        # change sends the new line, not the whole list.
        self._kept_now, self._reused = {}, set()  # what this redraw keeps (see kept): a part left out is forgotten
        if loaded.state.pending is None:
            self._pending_drawn = None
        self.body.controls = [
            *([self.physical_part] if physical_shown else []),
            *([self._pending_panel()] if loaded.state.pending else []),  # (see _pending_drawn)
            *story.end_card(self),  # a finished game: its result, Play again, Luck, Recap, Log to BG Stats
            # The set-up checklist, open or folded by this phone alone (a move never changes its height).
            *table_help.checklist(self),
            # While the table rolls, the game waits: its buttons are greyed until the dice are in.
            # A view that keeps no control across redraws says so (RECONCILED = True in its module):
            # its panel is keyed, so each redraw is diffed against the phone's and every control keeps
            # its identity (Flet would skip a kept control inside it). Other panels are replaced
            # whole; a tap on a control a redraw replaced is answered with a message (TableSession).
            ft.Container(self._game_panel(), disabled=loaded.state.pending is not None, key=self._panel_key()),
            # The rulebook's reminders at their step: below the panel, so coming and going they move nothing above.
            *table_help.reminders(self),
            story.links(self),  # Luck and Recap, one tap from every game
            self.tools,
        ]
        self._kept = self._kept_now
        self._typing, self._held = None, False  # the fields were just rebuilt
        if self.drawing_own_action and (self.app.page.width or 0) < ONE_COLUMN_BELOW:
            self._bring_next_into_view()
        # The tray's and note's fields are never replaced by a redraw: typing there holds nothing.
        self._watch_typing(self.body, skip=(self.tray_section, self.note_section, self.history_section))

    # --- spoken turns (#33) ---

    def _speaking(self) -> bool:
        return bool(self.app.phone.get("speech")) and bool(getattr(self.app.page, "web", False))

    def _speak_new_rows(self, loaded: Snapshot) -> None:
        """Say what the rows this phone hasn't heard yet did (any phone's action: the Machine's turn
        comes from a tap anywhere); an undo stops the talk. The first draw says nothing: it is the
        state the player opened, not news."""
        said_up_to, self._said_cursor = self._said_cursor, loaded.cursor
        if said_up_to is None or loaded.cursor == said_up_to:
            return
        if loaded.cursor < said_up_to or not self._speaking():
            if loaded.cursor < said_up_to:
                self.app.hush()
            return
        rows = [line.events for line in loaded.lines[said_up_to:loaded.cursor]]
        sentences = speech.spoken(loaded.campaign.game, rows, loaded.game_state)
        if sentences:
            self._last_said = sentences
            self.app.say(sentences)

    def last_turn_words(self) -> list[str]:
        """What Repeat says: the last sentences spoken here, else those of the newest row that has any."""
        if self._last_said or self.loaded is None:
            return self._last_said
        loaded = self.loaded
        for i in range(loaded.cursor, max(0, loaded.cursor - speech.SPOKEN_ROWS * 4), -1):
            said = speech.spoken(loaded.campaign.game, [loaded.lines[i - 1].events],
                                 loaded.game_state if i == loaded.cursor else None)
            if said:
                return said
        return []

    def _repeat(self, e) -> None:
        said = self.last_turn_words()
        if said:
            self.app.say(said)
        else:
            self.app.toast(_("Nothing has been said yet in this campaign."))

    def _show_history(self) -> list[ft.Control]:
        """The newest `_history_shown` lines; the history's parts that changed (to send)."""
        lines = self.history(self._history_shown)
        return self.history_list.show(lines, earlier=self.loaded.cursor - len(lines), more=HISTORY_MORE)

    def _more_history(self, e) -> None:
        """Earlier lines, on this phone only (another phone's list stays as short as it was)."""
        self._history_shown += HISTORY_MORE
        if self.loaded is not None:
            for part in self._show_history():
                part.update()

    def kept(self, key: str, inputs: Any, build: Callable[[], ft.Control]) -> ft.Control:
        """The control `build()` made for `key` at the last redraw, while `inputs` are unchanged.

        In a reconciled panel (RECONCILED = True) Flet's diff passes over a control that is the very
        object it sent before, so an unchanged section costs this phone neither building nor diffing
        (a tap elsewhere on the screen redraws only what it changed). `inputs` must hold everything
        the section shows; this phone's text size, language and width are added here. Its handlers
        read what they act on when tapped, or take it from `inputs`. tests/games check, for random
        plays, that a panel drawn with kept sections reads the same as one drawn afresh."""
        inputs = (inputs, self.app.scale, i18n.current().code, self._narrow())
        entry = self._kept.get(key)
        if entry is None or entry[0] != inputs:
            entry = (inputs, build())
        else:
            self._reused.add(id(entry[1]))
        self._kept_now[key] = entry
        return entry[1]

    def screen_state(self, kind: type[T]) -> T:
        """This phone's own state of the game's screen (a pick, a form's typed values, an open part):
        one `kind()` per screen, kept across redraws and never shared with another phone. The one
        place a view keeps what isn't in the campaign's log."""
        state = self._screen_states.get(kind)
        if state is None:
            state = self._screen_states[kind] = kind()
        return state

    def _size_bars(self) -> None:
        """The title and undo bars grow with the phone's text size, and the title bar takes a second
        headline line where the headline won't fit beside the two icons: nothing clipped."""
        sizes = self.app.sizes
        for button in (self.undo_button, self.redo_button):
            button.height = sizes.tap
        self.bottom_bar.height = sizes.tap * 2 + 38 if self._two_rows else sizes.tap + 32
        if self.appbar is not None:
            # beside the back arrow, share and settings (and Repeat, with spoken turns on)
            room = title_room(self.app, icons=3 if self._speaking() else 2)
            # At a large text size on a narrow phone the name and the headline are made smaller, as
            # far as the normal size, rather than cut to a word and "…"; each may take two lines.
            height = 16 + fit_title(sizes, self.title, room, "title_large", 1.2) \
                + fit_title(sizes, self.headline.content, room, "body_medium")
            self.appbar.toolbar_height = max(72, round(height))

    def _narrow(self) -> bool:
        return (self.app.page.width or 0) < 768

    def _bring_next_into_view(self) -> None:
        """After this phone's action, what the game now waits for on screen without a swipe (issue #30):
        dice asked for are the card at the screen's top; else the part the game's view names
        (`next_key(frame)` in its module: the pending choice, the next step's button). None there: the
        screen stays where the player is (a form being filled in, a count being tapped up)."""
        if self.loaded.state.pending is not None:
            scroll_into_view(self, None)
            return
        next_key = getattr(game_panel_module(self.loaded.campaign.game), "next_key", None)
        key = next_key(self) if next_key is not None else None
        if key is not None:
            scroll_into_view(self, key)

    def _pending_panel(self) -> ft.Control:
        """The roll the campaign waits for (every phone shows it): its dice are entered here."""
        pending = self.loaded.state.pending
        # The same roll still awaited (another phone added a note, the window was resized): keep the
        # pad, with the faces tapped so far, rather than start it empty under the player's fingers.
        waits_for = pending.model_dump_json()
        if self._pending_drawn is not None and self._pending_drawn[0] == waits_for:
            return self._pending_drawn[1]
        self.pad = DicePad(pending.chance, self._give_dice, sizes=self.app.sizes)
        self._pending_drawn = (waits_for, self._pending_section(pending))
        return self._pending_drawn[1]

    def _pending_section(self, pending) -> ft.Control:
        return tagged("pending-dice", section(_("Waiting for dice: {roll}", roll=pending.label), self.pad.control(self.app.guard),
                                              ft.Text(_("Undo takes the action back."), italic=True,
                                                      theme_style=ft.TextThemeStyle.BODY_SMALL)))

    def _give_dice(self, faces: list[int]) -> None:
        self.dispatch(GiveDice(faces=faces), pulse=True)

    def _toggle_physical(self, e) -> None:
        want = bool(self.physical.value)
        if self.loaded is None or want == self.loaded.state.physical_dice:
            return
        try:
            self.dispatch(SetPhysicalDice(on=want))
        except Exception:
            self.refresh()  # the switch shows the campaign's mode again
            raise

    def _panel_key(self) -> Optional[str]:
        module = game_panel_module(self.loaded.campaign.game)
        return f"panel-{self.loaded.campaign.game}" if getattr(module, "RECONCILED", False) else None

    def _game_panel(self) -> ft.Control:
        module = game_panel_module(self.loaded.campaign.game)
        if module is not None:
            return module.panel(self)
        game = self.loaded.game
        return section(game.title, ft.Text(i18n.render(game.summary), theme_style=ft.TextThemeStyle.BODY_LARGE),
                       ft.Text(_("This game's own controls arrive with its screen; the dice tray, notes, undo/redo, "
                                 "history and sharing below already work for it."),
                               theme_style=ft.TextThemeStyle.BODY_MEDIUM, italic=True))

    def _draw_tray_results(self) -> bool:
        """Draw the tray's last rolls; True if they changed since the last draw."""
        tray = self.loaded.state.tray
        if tray == self._tray_shown and self.tray_results.content is not None:
            return False
        self._tray_shown = tray
        if not tray:
            self.tray_results.content = ft.Text(_("No rolls yet."), italic=True)
            return True
        last = tray[0]
        numeric = all(s.isdigit() for s in last.shown)
        total = (_("{roll}  total {sum}", roll=_(last.label), sum=sum(last.values)) if numeric and len(last.values) > 1
                 else _(last.label))  # a die's name the catalog knows (the hand die), or NdX as it is
        earlier = ", ".join(f"{_(r.label)}: {' '.join(r.shown)}" for r in tray[1:4])
        self.tray_results.content = ft.Column([
            ft.Text(total, theme_style=ft.TextThemeStyle.TITLE_MEDIUM),
            tagged("tray-last", dice_faces(last.shown, sizes=self.app.sizes, highlight=True)),
            *([ft.Text(_("Before: {rolls}", rolls=earlier), theme_style=ft.TextThemeStyle.BODY_SMALL)] if earlier else []),
        ], spacing=8)
        return True

    def _black_faces(self) -> int:
        value = (self.loaded.campaign.settings or {}).get("hand_die_black_faces", 1)
        return value if isinstance(value, int) and 0 <= value <= 6 else 1

    # --- actions ---

    def tapped_cursor(self) -> int:
        """The log position this phone showed when the tap being handled left it."""
        tapped = TAPPED_ON.get()
        if tapped is None:  # not a phone's event (a test, a task): what was drawn last
            return self.shown_cursor
        if tapped[0] is self:
            return tapped[1]
        return self._first_cursor  # no redraw of this screen confirmed yet: it shows the first

    def _made(self, applied) -> None:
        """This tap's change is made: a second action in the same handler goes on from it."""
        if TAPPED_ON.get() is not None:
            TAPPED_ON.set((self, applied.cursor))

    def why_tap_lost(self) -> Optional[i18n.Text]:
        """For a tap on a control a redraw replaced: the change it lost to, if the state moved on."""
        live = self.live
        snapshot = live.snapshot if live else None
        if snapshot is None or TAPPED_ON.get() is None:
            return None
        shown = self.tapped_cursor()
        return live.why_stale(shown, id(self)) if shown != snapshot.cursor else None

    def dispatch(self, action: Any, *, entered: Optional[list[int]] = None, pulse: bool = False) -> None:
        """Apply an action made against what this phone showed. Errors reach the guard's message."""
        self.app.hush()  # the next action has started: stop reading out the last one
        with self._acting():  # this phone's redraw first, then the other phones' (LiveCampaign.apply)
            applied = self._live().apply(action, expected_cursor=self.tapped_cursor(), entered=entered,
                                         first=self.refresh, by=id(self))
        self._made(applied)
        if pulse or applied.dice:
            self._pulse()

    def roll(self, action: Any, **_ignored) -> None:
        """Dispatch an action that rolls. The app's dice are rolled at once; at a table rolling
        physical dice the action waits at each roll, and the frame asks for its dice (DicePad)."""
        self.dispatch(action, pulse=True)

    def _tray_roll(self, count, sides, faces, name, entered) -> None:
        self.dispatch(TrayRoll(count=count, sides=sides, faces=faces, name=name), entered=entered)

    def _add_note(self, e) -> None:
        text = (self.note.value or "").strip()
        self.dispatch(TableNote(text=text))
        self.note.value = ""
        self.note.update()

    def _undo(self, e) -> None:
        self.app.hush()
        with self._acting():
            self._made(self._live().undo(expected_cursor=self.tapped_cursor(), first=self.refresh, by=id(self)))

    def _redo(self, e) -> None:
        self.app.hush()
        with self._acting():
            self._made(self._live().redo(expected_cursor=self.tapped_cursor(), first=self.refresh, by=id(self)))

    def _live(self):
        self._follow()
        if self.live is None or self.live.snapshot is None:
            raise NotFound(_("Campaign {number} does not exist (it may have been deleted).", number=str(self.campaign_id)))
        return self.live

    def _pulse(self) -> None:
        self.app.pulse()

    def _share(self, e) -> None:
        from companion.ui.home import share_table

        share_table(self.app, self.campaign_id)

    def _settings(self, e) -> None:
        from companion.ui.home import export_dialog, rename_dialog

        if not self.loaded:
            return
        campaign = self.loaded.campaign
        close = lambda e: self.app.page.pop_dialog()  # noqa: E731
        self.app.page.show_dialog(dialog_frame(
            _("Campaign settings"),
            content=ft.Column([
                ft.Text(_("Chosen when the campaign was created; they hold for its whole log."),
                        theme_style=ft.TextThemeStyle.BODY_SMALL, italic=True),
                *settings_summary(get_game(campaign.game).Settings, campaign.settings),
                ft.Text(ngettext("{n} action logged", "{n} actions logged", campaign.head), theme_style=ft.TextThemeStyle.BODY_SMALL),
            ], tight=True, scroll=ft.ScrollMode.AUTO, width=360),
            actions=[
                ft.TextButton(content=_("Rename"), on_click=lambda e: (close(e), rename_dialog(self.app, campaign))),
                ft.TextButton(content=_("Export"), on_click=lambda e: (close(e), export_dialog(self.app, campaign.id))),
                ft.FilledButton(content=_("Close"), on_click=close),
            ],
        ))
