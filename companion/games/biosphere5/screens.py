"""Biosphere 5's card catalog in the app: stored once per database (companion/catalog.py, seeded from
the shipped incomplete catalog), the "Add / correct a card" dialog (also used right in the Machine's
reveal flow), and the catalog screen (/g/biosphere5/catalog): the cards with their two options, how
many of 25 are entered, the problems flagged, export as a file or QR text, import from a file or pasted text.

Every check is in cards.py (pure); this module only reads and writes and draws."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Callable, Optional

import flet as ft
from pydantic import ValidationError
from sqlmodel import select

from companion import catalog, exchange
from companion.games.base import InputError, said_error
from companion.games.biosphere5.cards import (
    CATALOG_KIND,
    CATEGORY_LEVEL,
    CATEGORY_TITLES,
    CATEGORY_ORDER,
    DECK_SIZE,
    KIND_WORDS,
    LOWER_LABEL,
    LOWER_LEVEL,
    ROMAN,
    Card,
    Lower,
    Upper,
    card_from_data,
    card_problems,
    category_word,
    check_catalog,
    deck_change_problem,
    joined,
    parse_catalog,
    slug,
    validate_entry,
)
from companion.i18n import N_, Msg, _, ngettext, render
from companion.ui.style import GAP, TAP
from companion.ui.screen import DrawnScreen
from companion.ui.widgets import (FormDialog, close_dialog, icon_button, qr_code, qr_dialog, qr_shapes, roomy,
                                  section, tagged, text, wide_button)
from models.tables import CatalogEntry

log = logging.getLogger(__name__)

ASSET = Path(__file__).resolve().parents[3] / "assets" / "biosphere5_catalog.json"
# A card's classes and lower options in the card dialog (said through `_()` there).
UPPER_KINDS = {"perfect": N_("perfect achievement (green)"), "makeshift": N_("makeshift achievement (yellow)"),
               "rescue": N_("rescue card"), "biosphere": N_("Biosphere 5")}
LOWER_KINDS = {"catastrophe": N_("catastrophe"), "new_hope": N_("New Hope"), "espionage": N_("Espionage"),
               "sabotage": N_("Sabotage"), "attack": N_("Attack")}
UNKNOWN = "?"


# --- the stored catalog -----------------------------------------------------------------------------


def load_cards(store) -> list[Card]:
    """The catalog's cards (seeded once from the shipped starting catalog), by name."""
    rows = catalog.entries(store, CATALOG_KIND)
    if not rows:
        shipped = parse_catalog(ASSET.read_text(encoding="utf-8"))
        catalog.seed_once(store, CATALOG_KIND, [(c.id, c.name, c.model_dump(mode="json")) for c in shipped.cards])
        rows = catalog.entries(store, CATALOG_KIND)
    cards = []
    for row in rows:
        try:
            cards.append(card_from_data(row.data))
        except InputError:
            log.warning("skipping an unreadable Biosphere 5 card %s", row.key)
    return cards


def save_card(store, card: Card, *, replacing: Optional[str] = None) -> None:
    """Add or correct one card; refused (nothing written) when it is impossible or the deck overflows."""
    problems = card_problems(card)
    if problems:
        raise InputError(problems[0])
    before = load_cards(store)
    after = [c for c in before if c.id not in (card.id, replacing)] + [card]
    problem = deck_change_problem(before, after)
    if problem:
        raise InputError(problem)
    if replacing and replacing != card.id:
        catalog.remove(store, CATALOG_KIND, replacing)
    catalog.put(store, CATALOG_KIND, card.id, card.name, card.model_dump(mode="json"))


def delete_card(store, card_id: str) -> None:
    """Remove one card kind from the catalog (games already played keep their copies: actions hold
    the cards themselves)."""
    catalog.remove(store, CATALOG_KIND, card_id)


def export_payload(store) -> dict:
    load_cards(store)
    return exchange.export_catalog(store, CATALOG_KIND)


def qr_parts(payload: dict, *, limit: int = exchange.QR_MAX_CHARS) -> list[str]:
    """The catalog as QR texts: one when it fits, otherwise several, each a normal catalog export of
    whole cards. Import merges by card id, so importing every part (one by one, or all pasted at
    once) rebuilds the whole catalog."""
    limit = min(limit, exchange.QR_MAX_CHARS)

    def packed(entries: list) -> Optional[str]:
        text = exchange.to_qr_text({**payload, "entries": entries})
        return text if text is not None and len(text) <= limit else None

    whole = packed(list(payload["entries"]))
    if whole is not None:
        return [whole]
    parts: list[str] = []
    current: list = []
    for entry in payload["entries"]:
        if packed(current + [entry]) is not None:
            current.append(entry)
            continue
        if not current:
            raise InputError(Msg("{card} alone is too big for a QR code; use “Save file”.",
                                 card=entry.get("name") or Msg("A card")))
        parts.append(packed(current))
        current = [entry]
    if current:
        parts.append(packed(current))
    return parts


def import_text(store, text: str, *, replace: bool) -> int:
    """Import pasted text: a Table Companion catalog export (JSON or QR text "TC1:…") or a Biosphere 5
    catalog file (format "biosphere5-catalog", like the shipped one). All or nothing. `replace` drops
    the cards not in the import; otherwise they are added to / correct the cards by id."""
    text = (text or "").strip()
    if not text:
        raise InputError(Msg("Paste the text of a catalog export or QR code first."))
    if len(text) > exchange.MAX_BYTES:
        raise InputError(Msg("That text is too long for a catalog ({n} characters).", n=len(text)))
    if text.startswith(exchange.QR_PREFIX) and text.count(exchange.QR_PREFIX) > 1:
        text = exchange.merge_qr_parts(text)
    native = None
    if text.startswith("{"):
        try:
            native = exchange.load_json(text).get("format") == "biosphere5-catalog"
        except exchange.ImportRefused:
            raise  # nested too deep (or numbers too long): said in words
        except (ValueError, AttributeError):
            native = False
    if native:
        incoming = parse_catalog(text).cards
    else:
        data = exchange.parse_payload(text, expect=exchange.CATALOG_FORMAT)
        try:
            exported = exchange.ExportedCatalog.model_validate(data)
        except ValidationError as exc:
            raise InputError(Msg("The catalog is not valid — {problem}.",
                                 problem=said_error(exc.errors()[0]))) from None
        for entry in exported.entries:
            problem = validate_entry(entry)
            if problem:
                raise InputError(Msg("{card}: {problem}", card=entry.name, problem=problem))
        incoming = [card_from_data(e.data) for e in exported.entries]
    for card in incoming:
        problems = card_problems(card)
        if problems:
            raise InputError(Msg("Not imported: {problem}", problem=problems[0]))
    if not incoming:
        raise InputError(Msg("The catalog holds no cards."))
    before = load_cards(store)
    ids = {c.id for c in incoming}
    after = list(incoming) if replace else [c for c in before if c.id not in ids] + list(incoming)
    problem = deck_change_problem([] if replace else before, after)
    if problem:
        raise InputError(Msg("Not imported: {problem}", problem=problem) if replace else
                         Msg("Not imported: {problem} (or choose “Replace my catalog”).", problem=problem))
    if not replace and not native:
        return exchange.import_catalog(store, text, validate_entry=validate_entry)
    with catalog.writing(store) as s:  # one transaction: the old cards go and the new come, or nothing
        if replace:
            for row in s.exec(select(CatalogEntry).where(CatalogEntry.kind == CATALOG_KIND)):
                s.delete(row)
            s.flush()
        for card in incoming:
            row = s.exec(select(CatalogEntry).where(CatalogEntry.kind == CATALOG_KIND,
                                                    CatalogEntry.key == card.id)).first()
            row = row or CatalogEntry(kind=CATALOG_KIND, key=card.id, name=card.name)
            row.name, row.data = card.name, card.model_dump(mode="json")
            s.add(row)
    return len(incoming)


# --- words for a card ---------------------------------------------------------------------------------


def _lv(level: Optional[int]) -> str:
    return ROMAN.get(level or 0, UNKNOWN)


def upper_text(card: Card) -> str:
    """The upper option in this phone's words: 'perfect · water · I' (its own name first, if it has one)."""
    u = card.upper
    kind = render(KIND_WORDS[u.kind]) if u.kind else _("? class")
    category = render(category_word(u.category)) if u.category else _("? category")
    line = f"{kind} · {category} · {_lv(u.level)}"
    return f"{u.name}: {line}" if u.name and u.name not in card.name else line


def lower_text(card: Card) -> str:
    """The lower option in this phone's words: 'Drought: water catastrophe · I'."""
    lo = card.lower
    if lo.kind is None:
        return _("? (lower option unknown)")
    if lo.kind == "catastrophe":
        what = _("{category} catastrophe", category=category_word(lo.category) if lo.category else UNKNOWN)
    else:
        what = render(LOWER_LABEL[lo.kind])
    line = f"{what} · {_lv(lo.level)}"
    return f"{lo.name}: {line}" if lo.name and lo.name != LOWER_LABEL.get(lo.kind) else line


def card_lines(card: Card) -> list[str]:
    copies = f"  ×{card.copies}" if card.copies > 1 else ""
    return [f"{card.name}{copies}", _("Upper: {option}", option=upper_text(card)),
            _("Lower: {option}", option=lower_text(card))]


# --- the card dialog ----------------------------------------------------------------------------------


# The upper option's categories, by level (I water, housing · II security, production · III nature, community).
ACHIEVEMENT_CATEGORIES = ("water", "housing", "security", "production", "nature", "community")
CHOSEN = "chosen"  # a chip's semantics value when it is the one picked


def _chip(group: str, words: str, chosen: bool, pick: Callable[[], None]) -> ft.Control:
    """One tap-to-choose chip: a button the height of a finger, filled with a tick when chosen. Its
    name for screen readers (and tests) is "<group>: <words>"."""
    look = ft.FilledButton if chosen else ft.OutlinedButton
    return ft.Semantics(label=f"{group}: {words}", button=True, container=True, selected=chosen, content=look(
        content=roomy(words), icon=ft.Icons.CHECK if chosen else None, on_click=lambda e: pick()))


def _chips(group: str, options: dict[str, str], chosen: Optional[str], pick: Callable[[str], None]) -> list[ft.Control]:
    return [text(group, ft.TextThemeStyle.TITLE_SMALL),
            ft.Row([_chip(group, words, key == chosen, lambda key=key: pick(key)) for key, words in options.items()],
                   wrap=True, spacing=8, run_spacing=8)]


def card_dialog(app, card: Optional[Card], on_saved: Callable[[Card], None], *, title: str = "") -> None:
    """Add a card (card=None) or correct one: its name, then its two options as tap-to-choose chips,
    only those its class has, each with its level (which follows from it: cards.py's tables), beside
    what the book says of the card (its note). A new card is its name and four taps: the class, the
    category, the lower option (a catastrophe with its category in one chip), Save; Biosphere 5 is
    one tap, its other option (Attack) following from it."""
    c = card or Card(id="new", name="New card")
    name = ft.TextField(label=_("Card name (as printed)"), value="" if card is None else card.name, max_length=60,
                        autofocus=card is None)
    l_name = ft.TextField(label=_("Lower option's name"), hint_text=_("optional, e.g. Hurricane"),
                          value=c.lower.name or "", max_length=40)
    v = {"u_kind": c.upper.kind, "u_cat": c.upper.category, "u_level": c.upper.level, "l_kind": c.lower.kind,
         "l_cat": c.lower.category, "l_level": c.lower.level, "copies": c.copies}
    chips = ft.Column(spacing=8, horizontal_alignment=ft.CrossAxisAlignment.STRETCH)
    shown = {"yet": False}

    def lv(level: int) -> str:
        return ROMAN[level]

    def set_upper(kind: str) -> None:
        v["u_kind"] = kind
        if kind == "biosphere":
            v.update(u_cat="salvation", u_level=4, l_kind="attack", l_cat=None, l_level=4)
            return
        if v["u_cat"] == "salvation":
            v.update(u_cat=None, u_level=None)
        if v["l_kind"] == "attack":
            v.update(l_kind=None, l_level=None)
        v["u_level"] = 1 if kind == "rescue" else CATEGORY_LEVEL[v["u_cat"]] if v["u_cat"] else None

    def set_category(category: str) -> None:
        v["u_cat"] = category
        v["u_level"] = 1 if v["u_kind"] == "rescue" else CATEGORY_LEVEL[category]

    def set_lower(key: str) -> None:
        kind, _sep, category = key.partition(":")
        if kind == "catastrophe":
            v.update(l_kind="catastrophe", l_cat=category, l_level=CATEGORY_LEVEL[category])
        else:
            v.update(l_kind=kind, l_cat=None, l_level=LOWER_LEVEL[kind])

    def picking(change: Callable[[str], None]) -> Callable[[str], None]:
        def pick(key: str) -> None:
            change(key)
            draw()
        return pick

    def draw() -> None:
        kind = v["u_kind"]
        rows: list[ft.Control] = _chips(_("Upper option: class"), {k: _(w) for k, w in UPPER_KINDS.items()}, kind,
                                        picking(set_upper))
        if kind in ("perfect", "makeshift", "rescue"):
            rows += _chips(_("Upper option: category"),
                           {k: f"{render(CATEGORY_TITLES[k])} · {lv(1 if kind == 'rescue' else CATEGORY_LEVEL[k])}"
                            for k in ACHIEVEMENT_CATEGORIES}, v["u_cat"], picking(set_category))
        if kind == "biosphere":
            rows.append(text(_("Biosphere 5: salvation, level IV; its other option is Attack (IV)."),
                             ft.TextThemeStyle.BODY_MEDIUM))
        else:
            lower = {f"catastrophe:{k}": _("{category} catastrophe · {level}", category=render(CATEGORY_TITLES[k]),
                                                 level=lv(CATEGORY_LEVEL[k])) for k in ACHIEVEMENT_CATEGORIES}
            lower.update({k: f"{_(LOWER_KINDS[k])} · {lv(LOWER_LEVEL[k])}" for k in ("new_hope", "espionage", "sabotage")})
            now = f"catastrophe:{v['l_cat']}" if v["l_kind"] == "catastrophe" and v["l_cat"] else v["l_kind"]
            rows += _chips(_("Lower option"), lower, now, picking(set_lower))
        rows += _chips(_("Copies in the deck"), {str(n): str(n) for n in range(1, 6)}, str(v["copies"]),
                       picking(lambda n: v.update(copies=int(n))))
        chips.controls = rows
        if shown["yet"]:
            form.dialog.update()

    def save():
        typed = (name.value or "").strip()
        if not typed:
            raise InputError(_("Give the card its name, as printed on it."))
        existing = {x.id: x for x in load_cards(app.store)}
        new_id = card.id if card is not None else slug(typed)
        if card is None:
            base, n = new_id, 2
            while new_id in existing:
                new_id, n = f"{base}-{n}", n + 1
        try:
            made = Card(
                id=new_id, name=typed, copies=v["copies"], note=c.note if card else _("Entered at the table."),
                upper=Upper(name=c.upper.name if card and c.upper.name != c.name else None, kind=v["u_kind"],
                            category=v["u_cat"], level=v["u_level"]),
                lower=Lower(name=(l_name.value or "").strip() or None, kind=v["l_kind"],
                            category=v["l_cat"] if v["l_kind"] == "catastrophe" else None, level=v["l_level"]),
            )
        except ValidationError as exc:
            raise InputError(said_error(exc.errors()[0])) from None
        save_card(app.store, made, replacing=card.id if card else None)
        app.toast(_("{card} saved to the catalog.", card=made.name) if made.is_complete else
                  _("{card} saved to the catalog (still unknown: {fields}).", card=made.name,
                    fields=joined(made.missing())))
        on_saved(made)

    # What the book says of this card (the shipped catalog's note), beside the choices it settles.
    evidence = [tagged("card-evidence", ft.Container(ft.Row([
        ft.Icon(ft.Icons.MENU_BOOK, color=ft.Colors.TERTIARY),
        text(card.note, ft.TextThemeStyle.BODY_SMALL, italic=True, expand=True)],
        vertical_alignment=ft.CrossAxisAlignment.START), bgcolor=ft.Colors.SURFACE_CONTAINER_HIGHEST, border_radius=8,
        padding=8))] if card and card.note else []
    draw()
    form = FormDialog(app, title or (_("Add a card") if card is None else _("Correct {card}", card=card.name)),
                      [name, *evidence, chips, l_name], error_id="card-error")
    form.actions(form.button(_("Save card"), save, icon=ft.Icons.SAVE))
    shown["yet"] = True
    form.show()


def qr_pages_dialog(app, parts: list[str]) -> ft.AlertDialog:
    """A catalog too big for one QR code: its parts one at a time ("Part 1 of 3", previous / next).
    Each part is a complete catalog export of some cards; importing them all rebuilds the catalog."""
    at = [0]
    image = qr_code(parts[0])
    counter = ft.Text("", theme_style=ft.TextThemeStyle.TITLE_LARGE, weight=ft.FontWeight.BOLD)
    snippet = ft.Text("", theme_style=ft.TextThemeStyle.BODY_SMALL)
    copy = ft.TextButton(content=_("Copy this part"), icon=ft.Icons.COPY, height=TAP)
    prev = ft.OutlinedButton(content=_("Previous"), icon=ft.Icons.CHEVRON_LEFT, height=TAP)
    nxt = ft.FilledButton(content=_("Next"), icon=ft.Icons.CHEVRON_RIGHT, height=TAP)

    def show(i: int, update: bool = True) -> None:
        at[0] = i
        text = parts[i]
        image.shapes = qr_shapes(text)
        counter.value = _("Part {n} of {total}", n=i + 1, total=len(parts))
        snippet.value = text if len(text) < 120 else text[:117] + "…"
        copy.content = _("Copy this part")
        prev.disabled, nxt.disabled = i == 0, i == len(parts) - 1
        if update:
            dialog.update()

    async def copied(e):
        from companion.app import copy_text  # the clipboard, or select-and-copy on a phone's plain-http page

        copy.content = _("Copied") if await copy_text(app.page, parts[at[0]]) else _("Select the text to copy it")
        copy.update()

    copy.on_click = copied
    prev.on_click = lambda e: show(max(0, at[0] - 1))
    nxt.on_click = lambda e: show(min(len(parts) - 1, at[0] + 1))
    dialog = ft.AlertDialog(
        title=ft.Text(_("Scan all {n} codes", n=len(parts))),
        content=ft.Column([
            tagged("qr-part", counter),
            ft.Semantics(identifier="qr-image", label=_("QR code"), content=image),
            ft.Text(_("The catalog is too big for one code. On the other phone: Biosphere 5 cards → Import → "
                      "paste one part → “Add / correct”, then the next part (or paste all parts at once)."),
                    theme_style=ft.TextThemeStyle.BODY_MEDIUM),
            tagged("qr-text", snippet),
            ft.Row([prev, nxt], alignment=ft.MainAxisAlignment.SPACE_BETWEEN),
        ], tight=True, horizontal_alignment=ft.CrossAxisAlignment.CENTER, width=320, scroll=ft.ScrollMode.AUTO),
        actions=[copy, ft.TextButton(content=roomy(_("Close")), on_click=lambda e: close_dialog(app, dialog))],
    )
    show(0, update=False)
    return dialog


# --- the catalog screen -------------------------------------------------------------------------------


class CatalogScreen(DrawnScreen):
    """/g/biosphere5/catalog — the deck as data, completed once from the box and shared."""

    route, title = "/g/biosphere5/catalog", N_("Biosphere 5 cards")

    def __init__(self, app):
        super().__init__(app)
        self.back_to: Optional[str] = None
        query = (app.page.route or "").partition("?")[2]
        for part in query.split("&"):
            key, _sep, value = part.partition("=")
            if key == "from" and value.isdigit():
                self.back_to = f"/c/{value}"

    def _draw(self) -> None:
        app = self.app
        cards = load_cards(app.store)
        report = check_catalog(cards)
        head = [
            tagged("catalog-summary", ft.Text(render(report.summary()), theme_style=ft.TextThemeStyle.TITLE_LARGE)),
            ft.ProgressBar(value=min(1.0, report.entered / DECK_SIZE), bar_height=10, border_radius=5),
            ft.Text(_("The deck has {size} cards. Add and correct them from your box once; the Machine needs a "
                      "card's class, category and levels to play it. A card can also be added right when it is "
                      "revealed.", size=DECK_SIZE), theme_style=ft.TextThemeStyle.BODY_MEDIUM),
        ]
        if report.problems:
            head.append(tagged("catalog-problems", ft.Column(
                [ft.Text(_("Impossible as entered — please fix:"), color=ft.Colors.ERROR, weight=ft.FontWeight.BOLD)]
                + [ft.Row([ft.Icon(ft.Icons.ERROR_OUTLINE, color=ft.Colors.ERROR),
                           ft.Text(render(p), color=ft.Colors.ERROR, expand=True)]) for p in report.problems],
                spacing=4)))
        buttons = [wide_button(_("Add a card"), app.guard(lambda e: card_dialog(app, None, lambda c: self.refresh())),
                               icon=ft.Icons.ADD)]
        if self.back_to:
            buttons.append(wide_button(_("Back to the game"), lambda e: app.go(self.back_to),
                                       icon=ft.Icons.ARROW_BACK, filled=False))
        share = ft.Row([
            ft.OutlinedButton(content=roomy(_("Save file")), icon=ft.Icons.DOWNLOAD, on_click=self._save_file),
            ft.OutlinedButton(content=roomy(_("Show QR")), icon=ft.Icons.QR_CODE_2, on_click=app.guard(self._qr)),
            ft.OutlinedButton(content=roomy(_("Import")), icon=ft.Icons.FILE_OPEN, on_click=app.guard(self._import)),
        ], wrap=True, spacing=8, run_spacing=8)
        rows = [self._card_row(c) for c in sorted(cards, key=lambda c: c.name.lower())]
        for row in rows:  # one card a row on a phone; two on a tablet, three on a desktop
            row.col = {"xs": 12, "md": 6, "xl": 4}
        # wrapping: side by side they squeeze one button to nothing at the largest text size
        top = section(_("Card catalog"), *head, ft.Row(buttons, spacing=GAP, run_spacing=8, wrap=True))
        sharing = section(_("Share the catalog"), ft.Text(_("Pass a completed catalog to another phone: a file, or a "
                                                            "QR code whose text the other phone pastes into Import."),
                                                          theme_style=ft.TextThemeStyle.BODY_MEDIUM), share)
        top.col, sharing.col = {"xs": 12, "lg": 7}, {"xs": 12, "lg": 5}
        self.body.controls = [
            # the summary and the sharing (import, export) side by side on a desktop, one under the
            # other on a phone: both above the long list of cards
            ft.ResponsiveRow([top, sharing], spacing=GAP, run_spacing=0,
                             vertical_alignment=ft.CrossAxisAlignment.START),
            section(ngettext("Cards ({n} kind)", "Cards ({n} kinds)", len(cards)),
                    ft.ResponsiveRow(rows, spacing=8, run_spacing=8))
            if rows else section(_("Cards"), ft.Text(_("No cards yet."))),
        ]

    def _card_row(self, card: Card) -> ft.Control:
        lines = card_lines(card)
        missing = card.missing()
        texts = [ft.Text(lines[0], theme_style=ft.TextThemeStyle.TITLE_MEDIUM, weight=ft.FontWeight.BOLD),
                 ft.Text(lines[1], theme_style=ft.TextThemeStyle.BODY_MEDIUM),
                 ft.Text(lines[2], theme_style=ft.TextThemeStyle.BODY_MEDIUM)]
        if missing:
            texts.append(ft.Text(_("Incomplete: {fields}", fields=joined(missing)),
                                 theme_style=ft.TextThemeStyle.BODY_SMALL, color=ft.Colors.TERTIARY, italic=True))
        edit = lambda e: card_dialog(self.app, card, lambda c: self.refresh())  # noqa: E731
        body = ft.Container(
            ft.Row([ft.Column(texts, spacing=2, expand=True),
                    ft.Icon(ft.Icons.EDIT if not missing else ft.Icons.EDIT_NOTE,
                            color=ft.Colors.PRIMARY if not missing else ft.Colors.TERTIARY)],
                   vertical_alignment=ft.CrossAxisAlignment.CENTER),
            padding=ft.Padding.only(left=10, top=8, bottom=8, right=4), border_radius=10, ink=True,
            on_click=self.app.guard(edit), expand=True,
        )
        return ft.Container(
            ft.Row([body, icon_button(ft.Icons.DELETE_OUTLINE, _("Delete {card}", card=card.name),
                                      self.app.guard(lambda e: self._delete(card)), size=26)],
                   spacing=0, vertical_alignment=ft.CrossAxisAlignment.CENTER),
            border_radius=10, border=ft.Border.all(1, ft.Colors.OUTLINE_VARIANT),
        )

    def _delete(self, card: Card) -> None:
        def gone() -> None:
            delete_card(self.app.store, card.id)
            self.app.toast(_("{card} deleted from the catalog.", card=card.name))
            self.refresh()

        said = dict(card=card.name, copies=card.copies)
        self.app.confirm(_("Delete {card}?", card=card.name),
                         _("This removes all {copies} copies of {card} from the card catalog on this phone. Games "
                           "already played keep it in their history. You can add it again any time.", **said)
                         if card.copies > 1 else
                         _("This removes {card} from the card catalog on this phone. Games already played keep it in "
                           "their history. You can add it again any time.", **said),
                         _("Delete"), gone)

    async def _save_file(self, e) -> None:
        data = exchange.dumps(export_payload(self.app.store)).encode("utf-8")
        await self.app.file_picker.save_file(file_name="biosphere5-catalog.json", src_bytes=data)

    def _qr(self, e) -> None:
        parts = qr_parts(export_payload(self.app.store))
        if len(parts) == 1:
            dialog = qr_dialog(_("Scan to import the cards"), parts[0],
                               caption=_("On the other phone: Biosphere 5 cards → Import → paste this text."))
            # At a large text size the caption runs under the dialog's button unless it scrolls.
            dialog.content.scroll = ft.ScrollMode.AUTO
            self.app.page.show_dialog(dialog)
        else:
            self.app.page.show_dialog(qr_pages_dialog(self.app, parts))

    def _import(self, e) -> None:
        """Import cards from a file (an exported catalog) or from pasted text (a QR code's text)."""
        app = self.app
        pasted = ft.TextField(label=_("…or paste the catalog text (JSON or QR text)"), multiline=True, min_lines=3,
                              max_lines=6, text_size=15)
        loaded = text("", bold=True, visible=False)

        async def pick(e):
            files = await app.file_picker.pick_files(allowed_extensions=["json", "txt"], with_data=True)
            if not files:
                return
            f = files[0]

            def load():
                if f.size and f.size > exchange.MAX_BYTES:  # refuse before decoding it all
                    raise InputError(_("{file} is too big for a catalog.", file=f.name))
                try:
                    read = (f.bytes or b"").decode("utf-8")
                except UnicodeDecodeError:
                    raise InputError(_("{file} is not a text file.", file=f.name)) from None
                # Into the field: the same two buttons import it, and the player sees what was read.
                pasted.value = read
                loaded.value, loaded.visible = _("{file} is read: add its cards or replace yours.", file=f.name), True
                form.dialog.update()

            form.acting(load, close=False)()

        def run(replace: bool):
            def go():
                count = import_text(app.store, pasted.value or "", replace=replace)
                app.toast(ngettext("{n} card imported.", "{n} cards imported.", count))
                self.refresh()
            return go

        form = FormDialog(app, _("Import cards"), [
            wide_button(_("Choose a file"), pick, icon=ft.Icons.FILE_OPEN),
            loaded,
            pasted,
            text(_("“Add / correct” keeps your other cards; “Replace” makes your catalog exactly the imported one. "
                   "Nothing changes if anything in it is wrong."), ft.TextThemeStyle.BODY_SMALL),
        ], error_id="import-error")
        form.actions(form.button(_("Add / correct"), run(False), filled=False),
                     form.button(_("Replace my catalog"), run(True)))
        form.show()
