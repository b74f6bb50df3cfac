"""The Flet entry point: one `TableSession` per connected screen, routing, errors, sync.

Routes: /  (campaigns) · /new · /c/<id> (a campaign) · /dice · /settings · /backups
        /c/<id>/<name>  a game's extra screen for a campaign (its view module's SCREENS[name])
        /g/<game>/<name>  a game's screen outside any campaign (catalogs, maps: GAME_SCREENS[name])
"""

from __future__ import annotations

import asyncio
import json
import logging
import weakref
from collections import deque
from contextvars import ContextVar
import threading
import time
from typing import Any, Callable, Optional

import flet as ft

from companion import i18n
from companion.i18n import N_, _, render
from companion.context import AppContext
from companion.games.base import InputError, RuleError
from companion.jobs import TABLE
from companion.log import NotFound, StaleAction
from companion.ui.style import FONTS, Sizes, theme
from models.db import is_busy, is_database_error, plain_db_error, tap_patience

log = logging.getLogger(__name__)
BUSY_RETRY_EVERY = 1.0  # seconds between tries of a tap that met a save another program holds
BUSY_RETRY_FOR = 60.0

# What belongs to each phone, not to the table: kept in the phone's browser (Flet's SharedPreferences,
# i.e. its localStorage "flutter.companion.<name>"), so two phones can differ. assets/companion.js
# reads keep_awake there too, and takes the app's requests to copy ("copy"), to vibrate ("buzz"), to
# speak ("say") and to stop speaking ("hush").
PHONE_PREFIX = "companion."
PHONE_DEFAULTS: dict[str, Any] = {"text_scale": 1.0, "theme": "system", "keep_awake": True, "speech": False}
THEMES = {"system": ft.ThemeMode.SYSTEM, "light": ft.ThemeMode.LIGHT, "dark": ft.ThemeMode.DARK}
PHONE_SETTINGS_WAIT = 3.0  # seconds a new screen waits for its phone's settings before drawing with defaults

# Said where shown, in each phone's language: _(GONE_TAP).
GONE_TAP = N_("The screen changed as you tapped (another phone acted), so that tap did nothing. Check it and tap again.")
CRASHED = N_("Something went wrong on the table's computer. If this screen looks wrong, go back and open it again.")
TITLE = N_("Table Companion")  # the browser tab's title (the app's name, the same in most languages)
MARKS_KEPT = 200  # redraws awaiting the phone's word (a phone that stopped laying out says nothing)

# What the phone showed when the event being handled left it: the mark (see TableSession.mark_shown)
# of the newest redraw it had laid out before it sent the event. Set for each event's task.
TAPPED_ON: ContextVar[Optional[tuple[Any, Any]]] = ContextVar("tapped_on", default=None)


class TableSession:
    """Everything one screen (browser tab, phone, desktop window) needs; screens get it as `app`."""

    # Every session not yet collected: a phone that left must not be kept by anything of ours
    # (tests/test_sessions.py counts them).
    alive: "weakref.WeakSet[TableSession]" = weakref.WeakSet()

    def __init__(self, page: ft.Page, ctx: AppContext):
        TableSession.alive.add(self)
        self.page = page
        self.ctx = ctx
        self.store = ctx.store
        self.screen: Any = None
        self.phone: dict[str, Any] = dict(PHONE_DEFAULTS)  # this phone's own settings (see PHONE_PREFIX)
        self.scale = float(self.phone["text_scale"])
        self.sizes = Sizes(self.scale)
        self.haptics = ft.HapticFeedback()
        self.wakelock = ft.Wakelock()
        self.file_picker = ft.FilePicker()
        self.prefs = ft.SharedPreferences()
        self.language = i18n.PhoneLanguage(self.prefs, PHONE_PREFIX + "language")  # kept like the settings above
        self._awake = False
        self.connected = True  # False while the phone's connection is down (see _asleep)
        self._requests = 0  # numbers each copy/buzz request, so every one is a new write the page sees
        self._drawn_width: Optional[float] = None  # the page's width when the screen was last laid out
        self._resizes = 0  # numbers resize events, so only the last of a burst redraws
        # What this phone shows (see mark_shown): the redraws sent and not yet laid out there, oldest
        # first, each (number, screen, mark); the newest laid out (screen, mark); the probe that tells.
        self._unconfirmed: deque = deque(maxlen=MARKS_KEPT)
        self._marks = 0
        self.shown: Optional[tuple[Any, Any]] = None
        self._probe: Optional[ft.Container] = None  # the shown screen's (see shown_probe)

    # --- start and routing ---

    def _setting(self, key: str, fallback: Any) -> Any:
        try:
            return self.ctx.setting(key) or fallback
        except Exception as exc:
            if not is_database_error(exc):
                raise
            return fallback  # an unreadable save still gets a screen that says so

    def start(self) -> None:
        page = self.page
        # Flet sends any unhandled error to the phone as "Error running app" with the server's
        # traceback. Handlers in games and widgets aren't all guarded, so the last word is ours:
        # the details go to the server's log, the phone gets a sentence. (flet is pinned: 1.0.5.)
        page.session.error = self._crashed
        page.title = _(TITLE)  # said again in the phone's language with every screen (show)
        page.data = self  # copy_text() finds the session from a control's page
        page.fonts = FONTS
        self._apply_theme()
        page.on_route_change = self._on_route_change
        page.on_view_pop = self._on_view_pop
        page.on_connect = lambda e: self._awake_again()  # a phone woke up or Wi-Fi came back
        page.on_disconnect = lambda e: self._asleep()
        page.on_close = lambda e: self._closed()
        page.on_resize = self._resized
        self._report_taps_on_gone_controls()
        self._follow_what_the_phone_shows()
        self._unsubscribe_all = self.ctx.hub.subscribe(0, self._on_any_change)

        async def first_draw():
            await self._load_phone_settings()
            self.show(page.route or "/")
        page.run_task(first_draw)

    # --- this phone's own settings ---

    async def _load_phone_settings(self) -> None:
        """Read this phone's settings from its browser; a missing or odd value keeps the default."""
        # Its language: its choice, or its browser's (told late by a busy phone: then it redraws).
        await self.language.load(self.page, PHONE_SETTINGS_WAIT, on_late=lambda: self.later(self.apply_settings))
        for key, default in PHONE_DEFAULTS.items():
            try:
                value = await asyncio.wait_for(self.prefs.get(PHONE_PREFIX + key), PHONE_SETTINGS_WAIT)
            except Exception:
                log.debug("phone setting %s unreadable", key, exc_info=True)
                continue
            self.phone[key] = _valid_phone_setting(key, value, default)
        self.scale = float(self.phone["text_scale"])
        self.sizes = Sizes(self.scale)
        self._apply_theme()

    def _apply_theme(self) -> None:
        self.page.theme = theme(self.scale)
        self.page.dark_theme = theme(self.scale, dark=True)
        self.page.theme_mode = THEMES.get(self.phone["theme"], ft.ThemeMode.SYSTEM)
        self.page.locale_configuration = self.language.locale_configuration()

    def speak(self) -> None:
        """What runs now for this phone speaks its language (a ContextVar: each Flet event and task
        has its own context, so phones in two languages at one table never mix)."""
        i18n.use(self.language.lang)

    def set_phone_setting(self, key: str, value: Any) -> None:
        """Change one of this phone's settings: kept in its browser, applied to this screen only."""
        self.phone[key] = _valid_phone_setting(key, value, PHONE_DEFAULTS[key])

        async def keep():
            try:
                await self.prefs.set(PHONE_PREFIX + key, self.phone[key])
            except Exception:
                log.warning("a phone setting could not be kept in the browser", exc_info=True)
        self.page.run_task(keep)
        self.apply_settings()

    def go(self, route: str) -> None:
        asyncio.run_coroutine_threadsafe(self.page.push_route(route), self.page.loop)

    def _on_route_change(self, e) -> None:
        self.show(self.page.route)

    def _on_view_pop(self, e) -> None:
        route = self.page.route.split("?")[0]
        parts = [p for p in route.split("/") if p]
        if route == "/backups":
            self.go("/settings")
        elif len(parts) == 3 and parts[0] == "c":
            self.go(f"/c/{parts[1]}")  # a game's extra screen goes back to its campaign
        else:
            self.go("/")

    def _crashed(self, message: str) -> None:
        log.error("unhandled error in a screen: %s", message)
        try:
            self.toast(_(CRASHED), error=True)
        except Exception:
            log.debug("could not report the error to the screen", exc_info=True)

    def show(self, route: str) -> None:
        """Draw the screen for a route. A save that can't be read shows a screen that says so (with
        "Try again"), not a traceback; a read-only save adds its banner to every screen."""
        self.speak()
        self.page.title = _(TITLE)
        try:
            self._show(route)
        except Exception as exc:
            if not is_database_error(exc):
                raise
            log.warning("a screen could not be drawn", exc_info=True)
            self._show_unreadable(route, plain_db_error(exc, self.ctx.db.path))

    def _show_unreadable(self, route: str, message: str) -> None:
        from companion.ui.widgets import big_button

        self.screen = None
        view = ft.View(route=route, appbar=ft.AppBar(title=ft.Text(_(TITLE))), padding=16, controls=[
            ft.Semantics(identifier="db-error", content=ft.Text(message, theme_style=ft.TextThemeStyle.BODY_LARGE)),
            big_button(_("Try again"), lambda e: self.show(self.page.route), icon=ft.Icons.REFRESH),
        ])
        self.page.views.clear()
        self.page.views.append(view)
        self.page.update()

    def read_only_banner(self) -> Optional[ft.Control]:
        reason = self.ctx.read_only_reason
        if not reason:
            return None
        return ft.Semantics(identifier="read-only-banner", content=ft.Container(
            ft.Row([ft.Icon(ft.Icons.LOCK_OUTLINE, color=ft.Colors.ON_ERROR_CONTAINER),
                    ft.Text(_("Read-only: {reason} Campaigns can be seen and exported, not played.", reason=reason),
                            color=ft.Colors.ON_ERROR_CONTAINER, expand=True)]),
            bgcolor=ft.Colors.ERROR_CONTAINER, padding=12, border_radius=8))

    def _show(self, route: str) -> None:
        from companion.ui.campaign import CampaignScreen
        from companion.ui.dice_screen import DiceScreen
        from companion.ui.home import HomeScreen, NewCampaignScreen
        from companion.ui.settings import BackupsScreen, SettingsScreen

        self._leave_screen()
        path = (route or "/").split("?")[0]
        parts = [p for p in path.split("/") if p]
        screen: Any
        if path.startswith("/c/") and path[3:].isdigit():
            screen = CampaignScreen(self, int(path[3:]))
        elif len(parts) == 3 and parts[0] in ("c", "g"):
            screen = self._game_screen(parts) or HomeScreen(self)
        elif path == "/new":
            screen = NewCampaignScreen(self)
        elif path == "/dice":
            screen = DiceScreen(self)
        elif path == "/settings":
            screen = SettingsScreen(self)
        elif path == "/backups":
            screen = BackupsScreen(self)
        else:
            screen = HomeScreen(self)
        self.screen = screen
        self._drawn_width = self.page.width
        views = [screen.view()]
        banner = self.read_only_banner()
        if banner is not None:
            views[0].controls.insert(0, banner)  # on every screen, above its content
        if not isinstance(screen, HomeScreen):
            views.insert(0, ft.View(route="/", controls=[]))  # gives the back arrow (see _on_view_pop)
        self.page.views.clear()
        self.page.views.extend(views)
        self.page.update()
        screen.entered()

    def _game_screen(self, parts: list[str]):
        """/c/<id>/<name> or /g/<game>/<name>: a screen a game's view module provides."""
        from companion.games import is_known
        from companion.ui.campaign import game_panel_module

        kind, owner, name = parts
        if kind == "c":
            if not owner.isdigit():
                return None
            try:
                game_key = self.store.get(int(owner)).game
            except NotFound:
                return None
            from companion.ui.story import SCREENS as STORY_SCREENS  # every game's Luck and Recap

            if name in STORY_SCREENS:
                return STORY_SCREENS[name](self, int(owner))
            module = game_panel_module(game_key)
            factory = getattr(module, "SCREENS", {}).get(name) if module else None
            return factory(self, int(owner)) if factory else None
        if not is_known(owner):
            return None
        module = game_panel_module(owner)
        factory = getattr(module, "GAME_SCREENS", {}).get(name) if module else None
        return factory(self) if factory else None

    def _asleep(self) -> None:
        """The phone's connection dropped (locked, tab closed): its screen stops following changes
        until it connects again (then `refresh` draws what it missed)."""
        self.connected = False
        self._unconfirmed.clear()  # their reports won't come: the screen marks its next redraw again
        self._tell_screen("asleep")

    def _awake_again(self) -> None:
        self.connected = True
        self.refresh()  # what it missed while asleep (refresh is safe)

    # --- what the phone shows ---

    def mark_shown(self, screen: Any, mark: Any, probe: ft.Container) -> None:
        """Call while building a redraw of a screen that shows `probe` (see shown_probe), before sending
        it: once the phone has laid out that redraw, its events carry `(screen, mark)` (TAPPED_ON)
        until a newer one.

        The server can't tell from a tap which redraw the phone had: a redraw sent as the player
        tapped reaches the server's handler first. So each redraw gives the probe (an empty strip
        0 px high) a width of its own; the phone reports the probe's new width once it has laid the
        redraw out, and Flet's messages keep their order both ways: an event that arrives before
        that report was sent before the phone drew the redraw, on the older screen."""
        if not self.connected:
            return
        self._marks += 1
        self._unconfirmed.append((self._marks, screen, mark))
        self._probe = probe
        probe.width = _probe_width(self._marks)

    def _laid_out(self, event_data: Any) -> None:
        """The probe's new width arrived: the phone shows the redraw of that number (and every earlier one)."""
        try:
            number = round((float(event_data["w"]) - 1) * PROBE_STEPS)
        except (TypeError, KeyError, ValueError):
            return
        while self._unconfirmed:
            if self._unconfirmed[0][0] % PROBE_STEPS == number:
                _, screen, mark = self._unconfirmed.popleft()
                self.shown = (screen, mark)
                return
            if not any(n % PROBE_STEPS == number for n, _, _ in self._unconfirmed):
                return  # a width this phone was not sent lately (a layout of its own): no news
            self._unconfirmed.popleft()

    def _follow_what_the_phone_shows(self) -> None:
        """Note, in the order the phone's messages arrive, which redraw it laid out (mark_shown) and
        what it had laid out when it sent each event: an event's task starts later, after reports
        that arrived behind it, so what it was made on is taken as it arrives."""
        session = self.page.session
        dispatch = session.dispatch_event

        def dispatch_event(control_id: int, event_name: str, event_data: Any):
            shown = self.shown
            if event_name == "size_change" and self._probe is not None and control_id == self._probe._i:
                self._laid_out(event_data)

            async def run():
                TAPPED_ON.set(shown or (None, None))
                await dispatch(control_id, event_name, event_data)
            return run()
        session.dispatch_event = dispatch_event

    def _report_taps_on_gone_controls(self) -> None:
        """A tap can arrive for a control that a change from another phone has just taken off the
        screen. Flet drops such an event without a word; the player is told instead, so no tap is
        lost silently (nothing was done, and the screen shows what changed)."""
        session = self.page.session
        dispatch = session.dispatch_event
        resolve = getattr(session, "_Session__resolve_event_control", None)
        if resolve is None:  # flet is pinned (1.0.5); a newer one may name it differently
            return

        async def dispatch_event(control_id: int, event_name: str, event_data: Any):
            self.speak()  # each event runs in a task of its own: the language lasts for this event
            if event_name in ("click", "tap", "submit", "long_press") and not resolve(control_id):
                log.info("a %s reached a control that was just replaced (id %s)", event_name, control_id)
                # the change that replaced it, named where the screen knows it (a campaign's)
                why = getattr(self.screen, "why_tap_lost", lambda: None)()
                self.toast(why or _(GONE_TAP))
                return
            with TABLE.handling():  # long work (an import) steps aside meanwhile: companion.jobs
                await dispatch(control_id, event_name, event_data)
        session.dispatch_event = dispatch_event

    def _closed(self) -> None:
        """The session expired (the browser went away for good): stop listening."""
        self._leave_screen()
        self._unsubscribe_all()

    def _leave_screen(self) -> None:
        self._tell_screen("left")

    def _tell_screen(self, hook: str) -> None:
        """Call the screen's `left` or `asleep`, if it has one; a failure there mustn't stop the caller."""
        method = getattr(self.screen, hook, None)
        if method is not None:
            try:
                method()
            except Exception:
                log.debug("screen.%s() failed", hook, exc_info=True)

    def refresh(self) -> None:
        self.speak()
        if self.screen is None:
            self.show(self.page.route)  # the last draw failed: try again
            return
        self._drawn_width = self.page.width
        try:
            self.screen.refresh()
        except Exception as exc:
            if not is_database_error(exc):
                raise
            log.warning("a screen could not be refreshed", exc_info=True)
            self.toast(plain_db_error(exc, self.ctx.db.path), error=True)

    def _resized(self, e) -> None:
        """A phone turned or a window was resized. Layouts are chosen from the width when drawn (two
        columns from 992 px, redo beside undo from 768, the map's and charts' widths), so redraw once
        the resizing stops. Only a change of width counts: a phone's keyboard changes the height."""
        self._resizes += 1
        burst = self._resizes

        async def settled():
            await asyncio.sleep(0.3)
            width = self.page.width
            if burst != self._resizes or not width or self._drawn_width is None \
                    or abs(width - self._drawn_width) < 1:
                return
            self._drawn_width = width
            self.speak()
            on_screen = getattr(self.screen, "resized", None)  # a campaign waits while a field is typed in
            (on_screen or self.refresh)()

        self.page.run_task(settled)

    def _on_any_change(self, campaign_id: int, cursor: int) -> None:
        # Settings changes (campaign_id 0) and the home list follow every change.
        if campaign_id == 0:
            self.later(self.apply_settings)
        elif self.connected and getattr(self.screen, "follows_all", False):
            self.later(self.refresh)

    def later(self, fn: Callable[[], None]) -> None:
        """Run fn on this session's loop (safe from any thread, e.g. another screen's action)."""
        async def run():
            self.speak()  # this phone's language, whichever phone's action asked for the redraw
            try:
                fn()
            except Exception:
                log.debug("deferred update failed", exc_info=True)
        try:
            self.page.run_task(run)
        except RuntimeError:
            pass  # session closed

    def apply_settings(self) -> None:
        self.scale = float(self.phone["text_scale"])
        self.sizes = Sizes(self.scale)
        self._apply_theme()
        self.show(self.page.route)

    # --- feedback ---

    def toast(self, message: i18n.Text, *, error: bool = False) -> None:
        """A message at the foot of this screen: words, or a Msg (said in this phone's language)."""
        bar = ft.SnackBar(ft.Text(render(message), size=self.sizes(17)), bgcolor=ft.Colors.ERROR if error else None,
                          show_close_icon=True, duration=ft.Duration(seconds=6 if error else 3))
        self.page.show_dialog(bar)

    def guard(self, fn: Callable, *, show_in: Optional[ft.Text] = None) -> Callable:
        """Wrap a tap handler: refused input shows its message and changes nothing. Inside a dialog,
        pass `show_in` (a Text in the dialog): a snack bar would sit hidden behind the dialog.
        A database error (locked, full, read-only) shows as a sentence too: the transaction was
        rolled back, so nothing changed."""
        def report(message: str) -> None:
            if show_in is not None:
                show_in.value = message
                show_in.visible = True
                show_in.update()
            else:
                self.toast(message, error=True)

        def refused(exc: Exception) -> None:
            if isinstance(exc, StaleAction):
                self.refresh()
                report(str(exc))
            elif isinstance(exc, (RuleError, InputError, NotFound)):
                report(str(exc))
            elif is_database_error(exc):
                log.warning("a tap met a database error", exc_info=True)
                reason = self.ctx.read_only_reason  # say why it's read-only, not just that it is
                report(_("Nothing can be changed: {reason}", reason=reason) if reason
                       else _("{problem} Nothing was changed.", problem=plain_db_error(exc, self.ctx.db.path)))
            else:
                raise exc

        def again_later(e) -> None:
            """Another program holds the save: the tap waited under a second (`tap_patience`); it is
            tried again every second, by itself, until the save is free (the newest tap only)."""
            mine = object()
            self._busy_retry = mine
            shown = self._shown()
            report(_("The save is busy: another program is writing to it. Trying again by itself…"))

            def retry() -> None:
                deadline = time.monotonic() + BUSY_RETRY_FOR
                while time.monotonic() < deadline:
                    time.sleep(BUSY_RETRY_EVERY)
                    if getattr(self, "_busy_retry", None) is not mine:
                        return  # a newer tap took its place
                    if self._shown() != shown:  # the tap was made on what the phone showed then
                        self._busy_retry = None
                        report(_("The table changed while the save was busy: your tap wasn't applied."))
                        return
                    try:
                        with tap_patience():
                            fn(e)
                    except Exception as exc:
                        if is_busy(exc):
                            continue
                        self._busy_retry = None
                        refused(exc)
                        return
                    self._busy_retry = None
                    report(_("The save was free again: done."))
                    return
                self._busy_retry = None
                report(_("The save is still busy: another program keeps writing to it. Nothing was changed; "
                         "close that program, then try again."))
            page = getattr(self, "page", None)
            if page is not None:
                page.run_thread(retry)  # bound to this phone's session, as a handler is
            else:
                threading.Thread(target=retry, name="busy-save-retry", daemon=True).start()

        def handler(e=None):
            try:
                with tap_patience():
                    return fn(e)
            except Exception as exc:
                if is_busy(exc) and not self.ctx.read_only_reason:
                    log.info("a tap met a busy save: trying again", exc_info=True)
                    again_later(e)
                else:
                    refused(exc)
        return handler

    def _shown(self) -> tuple:
        """What this phone shows: its screen and the log position drawn on it."""
        screen = getattr(self, "screen", None)
        return id(screen), getattr(screen, "shown_cursor", None)

    def confirm(self, title: str, text: str, yes: str, on_yes: Callable[[], None], *, danger: bool = True) -> None:
        def close(e=None):
            self.page.pop_dialog()

        def accept(e):
            close()
            self.guard(lambda _: on_yes())(None)

        dialog = ft.AlertDialog(
            modal=True, title=ft.Text(title), content=ft.Text(text),
            actions=[ft.TextButton(content=_("Cancel"), on_click=close),
                     ft.FilledButton(content=yes, on_click=accept,
                                     style=ft.ButtonStyle(bgcolor=ft.Colors.ERROR) if danger else None)],
        )
        self.page.show_dialog(dialog)

    def pulse(self) -> None:
        """A light haptic tap on phones and a flash of the title bar, so nobody wonders whether the
        roll happened (the bar is always in view, wherever the dice are on the page). In a browser the
        page's script vibrates (navigator.vibrate, Android Chrome; harmless elsewhere)."""
        bar = self.page.views[-1].appbar if self.page.views else None

        async def buzz():
            try:
                if self.page.web:
                    await self._request("buzz", self._requests)
                else:
                    await self.haptics.medium_impact()
            except Exception:
                pass
            if bar is not None:
                bar.bgcolor = ft.Colors.PRIMARY_CONTAINER
                bar.update()
                await asyncio.sleep(0.25)
                bar.bgcolor = None
                bar.update()
        try:
            self.page.run_task(buzz)
        except RuntimeError:
            pass

    async def _request(self, name: str, payload: Any) -> None:
        """Ask the page's script (assets/companion.js) for something, through the phone's storage."""
        self._requests += 1
        await self.prefs.set(PHONE_PREFIX + name, json.dumps({"n": self._requests, "text": payload}))

    async def copy(self, text: str) -> bool:
        """Copy text on this screen. True: copied (the desktop app's clipboard). False: handed to the
        page's script, which copies it (the Clipboard API where the origin allows it, else select and
        copy) and says on the page whether it could; show the text selectable as well."""
        if not self.page.web:
            try:
                await asyncio.wait_for(ft.Clipboard().set(text), 3)
                return True
            except Exception:
                log.debug("clipboard unavailable", exc_info=True)
                return False
        await self._request("copy", text)
        return False

    def say(self, sentences: list[str]) -> None:
        """Read sentences aloud on this phone, in its language, when its player asked for spoken turns:
        the page's script stops what it was saying and speaks these (the browser's speechSynthesis)."""
        if not sentences or not self.phone["speech"] or not self.page.web:
            return
        payload = {"lang": self.language.lang.code, "sentences": list(sentences)}
        self._ask_page("say", payload)

    def hush(self) -> None:
        """Stop speaking: the next action is under way (its own words follow, if it has any)."""
        if self.phone["speech"] and self.page.web:
            self._ask_page("hush", None)

    def _ask_page(self, name: str, payload: Any) -> None:
        async def ask():
            try:
                await self._request(name, payload)
            except Exception:
                log.debug("the page's script was not reached (%s)", name, exc_info=True)
        try:
            self.page.run_task(ask)
        except RuntimeError:
            pass  # the phone's connection is closing

    def keep_awake(self, on: bool) -> None:
        """A campaign opened (on) or left. In a browser the page's script keeps the screen on by
        itself (it follows the route and this phone's setting, and needs a tap on an insecure
        origin); the desktop app uses Flet's wake lock."""
        if self.page.web:
            return
        want = on and bool(self.phone["keep_awake"])
        if want == self._awake:
            return
        self._awake = want

        async def toggle():
            try:
                await (self.wakelock.enable() if want else self.wakelock.disable())
            except Exception:
                log.debug("wakelock unavailable", exc_info=True)
        self.page.run_task(toggle)


PROBE_STEPS = 1000  # the probe's widths: 1 px and a thousandth of a pixel per redraw, round and round


def shown_probe() -> ft.Container:
    """What a screen that marks its redraws (TableSession.mark_shown) shows, once: nothing to see."""
    return ft.Container(width=1, height=0, size_change_interval=0, on_size_change=lambda e: None)


def _probe_width(number: int) -> float:
    return 1 + (number % PROBE_STEPS) / PROBE_STEPS


def _valid_phone_setting(key: str, value: Any, default: Any) -> Any:
    from companion.context import TEXT_SCALES

    if key == "text_scale":
        return float(value) if isinstance(value, (int, float)) and float(value) in TEXT_SCALES else default
    if key == "theme":
        return value if value in THEMES else default
    if key in ("keep_awake", "speech"):
        return value if isinstance(value, bool) else default
    return default


async def copy_text(page: ft.Page, text: str) -> bool:
    """Copy from any control's handler (see TableSession.copy); True when surely copied."""
    session = getattr(page, "data", None)
    if isinstance(session, TableSession):
        return await session.copy(text)
    try:
        await ft.Clipboard().set(text)
        return True
    except Exception:
        return False


def make_main(ctx: AppContext) -> Callable[[ft.Page], None]:
    def main(page: ft.Page) -> None:
        TableSession(page, ctx).start()
    return main
