"""The story of a campaign, for every game: Luck (the dice against their odds, with a chart over the
session), the Recap (the night in words, to copy or save), the end card a finished game shows
(its result, Play again, Luck, Recap, Log to BG Stats) and the BG Stats dialog.

The numbers and words come from pure modules (companion.luck, .recap, .bgstats, .standings,
.sessions), said in the phone's language as they are drawn; this module only draws them. Every screen
and card is drawn afresh from the campaign each time (no control is kept across redraws), so Flet's
reconciliation keeps them straight.
"""

from __future__ import annotations

import json
import re
from typing import Optional

import flet as ft
import flet.canvas as cv

from companion import bgstats, luck, sessions
from companion.games import get_game
from companion.i18n import ENGLISH, N_, Msg, _, current, fmt_date, fmt_datetime, fmt_number, ngettext, pgettext
from companion.log import NAME_MAX, NotFound
from companion.recap import recap
from companion.standings import standings
from companion.table import SetPhysicalDice
from companion.ui.style import GAP
from companion.ui.widgets import FormDialog, app_bar, big_button, keyed, OwnContainer, readable_width, roomy, section, tagged, wide_button


def _text(value: str, style=ft.TextThemeStyle.BODY_LARGE, **kw) -> ft.Text:
    return ft.Text(value, theme_style=style, **kw)


def _go(app, campaign_id: int, name: str):
    return lambda e: app.go(f"/c/{campaign_id}/{name}")


def _story_buttons(app, campaign_id: int) -> ft.Control:
    """Luck and Recap side by side: one tap from a campaign's screen."""
    # Each as wide as its words (half the width each broke "Recap" in two at the largest text size), the
    # second under the first when both don't fit; no fixed height, which cut the words off at the bottom.
    return ft.Row([
        wide_button(_("Luck"), _go(app, campaign_id, "luck"), icon=ft.Icons.INSIGHTS, tonal=True),
        wide_button(_("Recap"), _go(app, campaign_id, "recap"), icon=ft.Icons.AUTO_STORIES, tonal=True),
    ], spacing=GAP, run_spacing=GAP, wrap=True)


def links(frame) -> ft.Control:
    """The campaign screen's way to the story, under the game's panel (kept: the same two buttons on
    every redraw); once the game is over, the end card at the top has them instead."""
    if _finished(frame):
        return keyed("story-links", ft.Container())
    # Isolated: the same two buttons on every redraw, so the redraw's diff doesn't walk into them.
    return frame.kept("story-links", (), lambda: keyed("story-links", OwnContainer(tagged("story-links", _story_buttons(
        frame.app, frame.campaign_id)))))


def _finished(frame) -> bool:
    return frame.loaded.game.outcome(frame.loaded.game_state) is not None


# --- The end of a game ---------------------------------------------------------------------------


def end_card(frame) -> list[ft.Control]:
    """A finished game's card (empty while it goes on): how it ended, how long it took, and what
    comes next — Play again, Luck, Recap, Log to BG Stats."""
    if not _finished(frame):
        return []
    loaded = frame.loaded
    game = loaded.game
    state = loaded.game_state
    app, campaign = frame.app, loaded.campaign
    table = standings(campaign.game, state)
    lines = bgstats.play_lines(campaign.game, loaded.lines[: loaded.cursor])  # Human Ethos: the issue that ended
    nights = sessions.split(lines, created=campaign.created_at if lines and lines[0].seq == 1 else None)
    minutes = sum(s.minutes for s in nights)
    dice = sum(len(line.dice) for line in lines)
    took = sessions.duration(minutes)
    time = (ngettext("Played for {duration} over {n} session", "Played for {duration} over {n} sessions", len(nights),
                     duration=took) if len(nights) > 1 else _("Played for {duration}", duration=took))
    played = _("{time} · {actions} · {dice}", time=time, actions=ngettext("{n} action", "{n} actions", len(lines)),
               dice=ngettext("{n} die", "{n} dice", dice))
    again = _("Play again with the same players") if table.named else _("Play again with the same settings")
    card = section(
        _("Game over · {outcome}", outcome=game.outcome(state)),
        tagged("end-result", _text(table.result, ft.TextThemeStyle.TITLE_MEDIUM, weight=ft.FontWeight.BOLD)),
        _text(played, ft.TextThemeStyle.BODY_MEDIUM),
        # No fixed height: on a narrow phone the words wrap onto a second line and the button grows.
        ft.Row([wide_button(again, app.guard(lambda e: play_again(app, campaign.id)), icon=ft.Icons.REPLAY,
                            expand=True)]),
        _story_buttons(app, campaign.id),
        ft.Row([wide_button(_("Log to BG Stats"), app.guard(lambda e: bgstats_dialog(app, campaign.id)),
                            icon=ft.Icons.LEADERBOARD, filled=False, expand=True)]),
    )
    return [keyed("end-card", tagged("end-card", card))]


def _numbered(name: str) -> tuple[str, int]:
    """A campaign's name without its game number, and the next number: ("Friday", 3) for "Friday · game 2"
    (as this phone says it, or in English)."""
    for language in dict.fromkeys([current(), ENGLISH]):
        said = Msg("{name} · game {number}", name="{name}", number="{number}").render(language)
        pattern = re.escape(said).replace(re.escape("{name}"), "(?P<name>.+)").replace(re.escape("{number}"),
                                                                                       r"(?P<number>\d+)")
        match = re.fullmatch(pattern, name)
        if match:
            return match.group("name"), int(match.group("number")) + 1
    return name, 2


def play_again(app, campaign_id: int) -> None:
    """A new campaign of the same game with the same settings and players, opened at once; named
    after this one with its number ("Friday · game 2"). A table that rolls physical dice still does."""
    loaded = app.store.load(campaign_id)
    campaign = loaded.campaign
    base, number = _numbered(campaign.name)
    room = NAME_MAX - len(_("{name} · game {number}", name="", number=str(number)))
    name = _("{name} · game {number}", name=base[:max(1, room)], number=str(number))
    # Every setting as it stood at the end: a game whose settings change in play keeps them in its state.
    now = getattr(loaded.game_state, "settings", None)
    settings = now.model_dump(mode="json") if isinstance(now, loaded.game.Settings) else dict(campaign.settings)
    new_id = app.store.create(campaign.game, name, settings)
    if loaded.state.physical_dice:  # the table's dice mode is an action in the log: the new game's first
        app.store.apply(new_id, SetPhysicalDice(on=True), expected_cursor=0)
    app.go(f"/c/{new_id}")


# --- Log to BG Stats ---------------------------------------------------------------------------------


def _bgg_id(app, game_key: str) -> Optional[int]:
    value = app.ctx.setting(bgstats.bgg_setting(game_key))
    return value if isinstance(value, int) else None


def bgstats_dialog(app, campaign_id: int) -> FormDialog:
    """The finished game as a BG Stats play: open the link (on a phone with BG Stats), copy it, or
    save the file. The game's BoardGameGeek id, unknown to the app, is the table's setting here: a
    refusal shows under the title and leaves the dialog open to correct it."""
    campaign = app.store.get(campaign_id)
    live = app.ctx.live.get(campaign_id)
    snapshot = live.snapshot if live is not None else None
    loaded = snapshot or app.store.load(campaign_id)
    lines = list(snapshot.lines[: snapshot.cursor]) if snapshot else app.store.lines(campaign_id)[: campaign.cursor]
    table = standings(campaign.game, loaded.game_state)
    bgg = _bgg_id(app, campaign.game)
    data = bgstats.play(game_key=campaign.game, campaign=campaign, lines=lines, standings=table, bgg_id=bgg)
    url = bgstats.link(data)
    filename = bgstats.filename(data, campaign.name)
    bgg_field = ft.TextField(label=_("BoardGameGeek id"), value=str(bgg or ""), keyboard_type=ft.KeyboardType.NUMBER,
                             helper=_("Optional: the number in the game's BoardGameGeek address"), helper_max_lines=5)
    form = FormDialog(app, _("Log to BG Stats"), modal=False)
    form.dialog.actions[0] = ft.TextButton(content=roomy(_("Close")), on_click=lambda e: form.close())

    def save_id() -> None:
        value = bgstats.parse_bgg_id(bgg_field.value or "")
        app.ctx.set_setting(bgstats.bgg_setting(campaign.game), value)
        form.close()
        bgstats_dialog(app, campaign_id)  # drawn again with the id in the link and the file
        app.toast(_("BoardGameGeek id saved for every play of this game.") if value else _("BoardGameGeek id cleared."))

    copy, by_hand = _copier(app, url, copied_word=_("Link copied"), max_lines=3, size=12)

    async def save_file(e) -> None:
        await app.file_picker.save_file(file_name=filename, src_bytes=json.dumps(data, ensure_ascii=False, indent=2)
                                        .encode("utf-8"))

    players = ", ".join(_("{name} (won)", name=p["name"]) if p["winner"] else p["name"] for p in data["players"])
    # Translators: a CLDR pattern for when a play began: "12 Mar 2026, 20:05" (German: "d. MMM y, HH:mm").
    started = fmt_datetime(bgstats.started(data), pgettext("date pattern", "d MMM y, HH:mm"))
    play = dict(game=data["game"]["name"], when=started, duration=_("{minutes} min", minutes=data["durationMin"]))
    open_in = wide_button(_("Open in BG Stats"), None, icon=ft.Icons.OPEN_IN_NEW)
    open_in.url = url
    form.fields.controls = [
        _text(_("{game}, {when}, {duration}: {players}.", players=players, **play) if players else
              _("{game}, {when}, {duration}.", **play), ft.TextThemeStyle.BODY_MEDIUM),
        _text(_("Open the link on a phone with BG Stats to add this play there, or save the file."),
              ft.TextThemeStyle.BODY_SMALL),
        open_in,
        wide_button(_("Copy link"), copy, icon=ft.Icons.COPY, filled=False),
        wide_button(_("Save file"), save_file, icon=ft.Icons.DOWNLOAD, filled=False),
        tagged("bgstats-link", ft.Text(url, max_lines=2, overflow=ft.TextOverflow.ELLIPSIS,
                                       theme_style=ft.TextThemeStyle.BODY_SMALL, color=ft.Colors.ON_SURFACE_VARIANT)),
        by_hand,
        bgg_field,
        form.button(_("Save the id"), save_id, close=False, tonal=True),
    ]
    form.show()
    return form


def _copier(app, text: str, *, copied_word: str, max_lines: int, size: int, identifier: str = ""):
    """A Copy button's handler and the field it falls back on: should the phone refuse to copy (a page
    on the LAN is no secure context), the whole text shows in a field to select and copy by hand.
    A tagged field is hidden by its wrapper (a Semantics with hidden content draws Flutter's red box)."""
    by_hand = ft.TextField(value=text, read_only=True, multiline=True, max_lines=max_lines, label=_("Select and copy"),
                           text_style=ft.TextStyle(size=size))
    if identifier:
        by_hand = tagged(identifier, by_hand)
    by_hand.visible = False

    async def copy(e) -> None:
        copied = await app.copy(text)
        said = copied_word if copied else _("Copy again")
        words = e.control.content
        if isinstance(words, ft.Container) and isinstance(words.content, ft.Text):  # a wide_button's padded words
            words.content.value = said
        else:
            e.control.content = said
        e.control.update()
        if not copied:
            by_hand.visible = True
            by_hand.update()
    return copy, by_hand


# --- The Luck and Recap screens ---------------------------------------------------------------------


def _when(session: sessions.Session) -> str:
    """'Thu 12 Mar, 20:05–21:40' (the table's time zone)."""
    start, end = session.start.astimezone(), session.end.astimezone()
    # Translators: a CLDR pattern for the day of a session: "Thu 12 Mar" (German: "EEE, d. MMM").
    day = fmt_date(start, pgettext("date pattern", "EEE d MMM"))
    return _("{day}, {start}–{end}", day=day, start=fmt_datetime(start, "HH:mm"), end=fmt_datetime(end, "HH:mm"))


class _StoryScreen:
    """A campaign's story screen: a scope chooser (the whole campaign, or one of its sessions) and
    the content for it, all drawn afresh on every redraw."""

    name = ""
    title = ""  # N_(): said in the phone's language when drawn

    def __init__(self, app, campaign_id: int):
        self.app = app
        self.campaign_id = campaign_id
        self.route = f"/c/{campaign_id}/{self.name}"
        self.body = ft.Column(spacing=GAP, horizontal_alignment=ft.CrossAxisAlignment.STRETCH)
        self.scope: Optional[int] = None  # a session's number; None: chosen when first drawn
        self._read_at = None  # the campaign's cursor, head and last change, as last read

    def view(self) -> ft.View:
        self._draw()
        return ft.View(route=self.route, appbar=app_bar(self.app, _(self.title)),
                       controls=[readable_width(self.body)], scroll=ft.ScrollMode.AUTO, padding=12)

    def entered(self) -> None:
        self._follow()

    def _follow(self) -> None:
        """Follow live play: an action on any phone redraws this screen (read only when it changed)."""
        if getattr(self, "_unfollow", None) is None:
            _first, self._unfollow = self.app.ctx.live.follow(self.campaign_id,
                                                              lambda snapshot: self.app.later(self._changed_live))

    def _changed_live(self) -> None:
        if getattr(self, "_unfollow", None) is not None:  # not after the screen was left
            self.refresh()

    def left(self) -> None:
        if getattr(self, "_unfollow", None) is not None:
            self._unfollow()
            self._unfollow = None

    asleep = left  # a phone nobody looks at costs nothing; on_connect redraws it (refresh follows again)

    def refresh(self) -> None:
        self._follow()
        self._draw()
        self.app.page.update()

    def _read(self) -> None:
        """The campaign as the store has it (read again only when it changed)."""
        campaign = self.app.store.get(self.campaign_id)
        if self._read_at == (campaign.cursor, campaign.head, campaign.updated_at):
            return
        self._read_at = (campaign.cursor, campaign.head, campaign.updated_at)
        self.campaign = campaign
        self.game = get_game(campaign.game)
        self.lines = self.app.store.lines(self.campaign_id)[: campaign.cursor]
        self.sessions = sessions.split(self.lines, created=campaign.created_at)
        self._changed()

    def _changed(self) -> None:
        """What a screen computes once per change of the campaign."""

    def _pick(self, number: Optional[int]) -> None:
        self.scope = number
        self.refresh()

    def _scopes(self) -> list[ft.Control]:
        """One button per session and one for the whole campaign (only when there are several)."""
        if len(self.sessions) < 2:
            return []
        options = [(s.number, _("Session {number}", number=s.number)) for s in self.sessions] + [(0, _("Whole campaign"))]
        chosen = self.scope or 0
        return [tagged("story-scope", ft.Row([
            wide_button(label, lambda e, n=number: self._pick(n), filled=number == chosen,
                        icon=ft.Icons.CHECK if number == chosen else None)
            for number, label in options
        ], wrap=True, spacing=8, run_spacing=8))]

    def _session(self) -> Optional[sessions.Session]:
        if self.scope is None:  # first drawn: the latest night
            self.scope = self.sessions[-1].number if len(self.sessions) > 1 else 0
        return self.sessions[self.scope - 1] if self.scope and self.scope <= len(self.sessions) else None

    def _draw(self) -> None:
        try:
            self._read()
        except NotFound:  # deleted on another screen meanwhile
            self.body.controls = [_text(_("This campaign no longer exists (it may have been deleted on another screen).")),
                                  big_button(_("Back to campaigns"), lambda e: self.app.go("/"), icon=ft.Icons.HOME)]
            return
        scope = self._session()
        self.body.controls = [
            _text(f"{self.campaign.name} · {self.game.title}", ft.TextThemeStyle.TITLE_MEDIUM, weight=ft.FontWeight.BOLD),
            *self._scopes(),
            *self._content(scope),
            big_button(_("Back to the game"), lambda e: self.app.go(f"/c/{self.campaign_id}"), icon=ft.Icons.ARROW_BACK,
                       filled=False),
        ]

    def _content(self, scope: Optional[sessions.Session]) -> list[ft.Control]:
        raise NotImplementedError


class LuckScreen(_StoryScreen):
    name, title = "luck", N_("Luck")

    def _changed(self) -> None:
        store = self.app.store
        rows = [r for r in store.log_rows(self.campaign_id) if 0 < r.seq <= self.campaign.cursor]
        start = store.state_at(self.campaign_id, 0)
        self.steps = list(luck.trace(self.game, start, rows))

    def _content(self, scope) -> list[ft.Control]:
        found = luck.report(self.campaign.game, self.campaign.settings, self.steps, scope.seqs if scope else None)
        count = len(self.sessions)
        said = (_("Session {number} of {count}: {when}", number=scope.number, count=count, when=_when(scope)) if scope
                else ngettext("The whole campaign: {n} session, {duration} of play",
                              "The whole campaign: {n} sessions, {duration} of play", count,
                              duration=sessions.duration(sum(s.minutes for s in self.sessions))))
        top = [tagged("luck-scope", _text(said, ft.TextThemeStyle.BODY_MEDIUM))]
        if found.empty:
            if not self.game.rolls_dice:
                empty = _("This game rolls no dice, and none were rolled on the dice tray.")
            else:
                empty = _("No dice were rolled in this session.") if scope else _("No dice were rolled in the whole campaign.")
            return [*top, section(_("Luck"), tagged("luck-empty", _text(empty)),
                                  *[_text(n, ft.TextThemeStyle.BODY_MEDIUM, italic=True) for n in found.notes])]
        out = top
        for i, part in enumerate(found.parts):
            title = _("Where the table stands") if i == 0 else _("{name}'s dice", name=part.who)
            rows = [_line(line) for line in part.dice]
            if part.meanings:
                rows += [ft.Divider(height=1), _text(_("What the dice meant") if i == 0 else _("What they meant"),
                                                     ft.TextThemeStyle.TITLE_MEDIUM)]
                rows += [_line(line) for line in part.meanings]
            out.append(tagged("luck-table" if i == 0 else f"luck-player-{i}", section(title, *rows)))
            if i == 0 and found.chart:
                over = _("Over this session") if scope else _("Over the whole campaign")
                out.append(section(over, _chart(found.chart, self.app.page.width, self.app.sizes),
                                   _text(ngettext("{n} die: {app} rolled by the app, {physical} physical.",
                                                  "{n} dice: {app} rolled by the app, {physical} physical.", found.dice,
                                                  app=found.dice - found.physical, physical=found.physical),
                                         ft.TextThemeStyle.BODY_SMALL)))
        out.append(section(_("What these numbers rest on"), *[
            _text(n, ft.TextThemeStyle.BODY_MEDIUM) for n in found.notes + [
                _("Every figure is exact: the sum's distribution is the convolution of each roll's own, from the "
                  "rules' chance nodes (no sampling). “Than X% of tables” compares with every way the same rolls "
                  "could have fallen. Fewer than {dice} dice (or {rolls} rolls of a kind) get no verdict.",
                  dice=luck.MIN_DICE, rolls=luck.MIN_TRIALS)]]))
        return out


def _line(line: luck.Line) -> ft.Control:
    return tagged("luck-line", ft.Column([
        _text(line.label, ft.TextThemeStyle.TITLE_SMALL, weight=ft.FontWeight.BOLD),
        _text(line.sentence, ft.TextThemeStyle.BODY_LARGE if line.standing else ft.TextThemeStyle.BODY_MEDIUM,
              italic=line.standing is None),
    ], spacing=2))


def _chart(points: list[tuple[float, bool]], page_width: Optional[float], sizes) -> ft.Control:
    """Pips above (+) or below (−) the average, added up die by die: the line ends where the table
    stands. Drawn with flet.canvas (flet-charts isn't installed). Physical dice are dots."""
    width = max(260, min(600, int((page_width or 360) - 24 - 32 - 8)))  # the page, less the view's and card's padding
    scale = sizes if sizes else (lambda x: x)  # the axis labels grow with the phone's text size
    height = 190 + scale(12) - 12
    left, right, top, bottom = scale(40), 10, 10, scale(24)
    w, h = width - left - right, height - top - bottom
    extent = max(3.0, max(abs(v) for v, _ in points))
    x = lambda i: left + w * (i + 1) / len(points)  # noqa: E731
    y = lambda v: top + h / 2 - (h / 2) * v / extent  # noqa: E731
    label = ft.TextStyle(size=scale(12), color=ft.Colors.ON_SURFACE_VARIANT)
    grid = ft.Paint(color=ft.Colors.OUTLINE_VARIANT, stroke_width=1, style=ft.PaintingStyle.STROKE)
    zero = ft.Paint(color=ft.Colors.OUTLINE, stroke_width=1.5, style=ft.PaintingStyle.STROKE, stroke_dash_pattern=[6, 4])
    shapes: list = [cv.Line(left, y(extent), left + w, y(extent), paint=grid),
                    cv.Line(left, y(-extent), left + w, y(-extent), paint=grid),
                    cv.Line(left, y(0), left + w, y(0), paint=zero)]
    for value, text in ((extent, f"+{extent:.0f}"), (0, "0"), (-extent, f"−{extent:.0f}")):
        shapes.append(cv.Text(left - 6, y(value), text, style=label, alignment=ft.Alignment.CENTER_RIGHT))
    shapes.append(cv.Text(left, top + h + 4, "1", style=label))
    dice = ngettext("{n} die", "{n} dice", len(points))
    shapes.append(cv.Text(left + w, top + h + 4, dice, style=label, alignment=ft.Alignment.TOP_RIGHT))
    path = [cv.Path.MoveTo(left, y(0))] + [cv.Path.LineTo(x(i), y(v)) for i, (v, _) in enumerate(points)]
    colour = ft.Colors.PRIMARY if points[-1][0] >= 0 else ft.Colors.ERROR
    shapes.append(cv.Path(path, paint=ft.Paint(color=colour, stroke_width=2.5, style=ft.PaintingStyle.STROKE,
                                                stroke_join=ft.StrokeJoin.ROUND)))
    if len(points) <= 300:  # beyond that the dots would hide the line
        shapes += [cv.Circle(x(i), y(v), 3, paint=ft.Paint(color=ft.Colors.TERTIARY))
                   for i, (v, physical) in enumerate(points) if physical]
    end = points[-1][0]
    said = _("{amount} pips", amount=("+" if end >= 0 else "−") + fmt_number(abs(end), 1))
    ends = (_("Pips above (+) or below (−) the average, added up roll by roll: it ends at {pips}. Dots are physical "
              "dice.", pips=said) if any(p for _v, p in points) else
            _("Pips above (+) or below (−) the average, added up roll by roll: it ends at {pips}.", pips=said))
    return ft.Column([
        tagged("luck-chart", ft.Semantics(
            label=_("Chart of the table's luck over {dice}, ending at {pips} against the average", dice=dice, pips=said),
            content=cv.Canvas(shapes, width=width, height=height))),
        _text(ends, ft.TextThemeStyle.BODY_SMALL),
    ], spacing=6)


class RecapScreen(_StoryScreen):
    name, title = "recap", N_("Recap")

    def _content(self, scope) -> list[ft.Control]:
        campaign = self.campaign
        live = self.app.ctx.live.get(self.campaign_id)
        state = live.snapshot.game_state if live is not None and live.snapshot else self.app.store.load(self.campaign_id).game_state
        told = recap(game_key=campaign.game, title=self.game.title, name=campaign.name, lines=self.lines,
                     sessions=self.sessions, standings=standings(campaign.game, state), scope=scope,
                     settings=campaign.settings)
        text = told.text
        filename = f"recap-{re.sub(r'[^A-Za-z0-9]+', '-', campaign.name).strip('-')[:40] or 'campaign'}" + (
            f"-session-{scope.number}" if scope else "") + ".txt"

        copy, by_hand = _copier(self.app, text, copied_word=_("Copied"), max_lines=8, size=14, identifier="recap-copy")

        async def save(e) -> None:
            await self.app.file_picker.save_file(file_name=filename, src_bytes=text.encode("utf-8"))

        return [
            tagged("recap-text", section(told.title, *[
                ft.Text(p, theme_style=ft.TextThemeStyle.BODY_LARGE) for p in told.paragraphs])),
            ft.Row([
                wide_button(_("Copy text"), copy, icon=ft.Icons.COPY, expand=True),
                wide_button(_("Save file"), save, icon=ft.Icons.DOWNLOAD, filled=False, expand=True),
            ], spacing=GAP),
            by_hand,
        ]


SCREENS = {"luck": LuckScreen, "recap": RecapScreen}
