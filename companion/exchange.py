"""Export and import of campaigns and catalogs: versioned JSON files, and QR text for small ones.

Import validates everything before writing anything: size, format, version, game, settings, every
logged action (replayed through the rules with its recorded dice), then one transaction writes it.
"""

from __future__ import annotations

import base64
import json
import zlib
from datetime import datetime, timezone
from typing import Any, Literal, Optional

from pydantic import BaseModel, Field, ValidationError

from companion import __version__
from companion.games import get_game, is_known
from companion.games.base import Event, InputError
from companion.log import NAME_MAX, Store, clean_name, format_errors, replay
from models.tables import ActionRow, Campaign, CatalogEntry

FORMAT = "table-companion/campaign"
CATALOG_FORMAT = "table-companion/catalog"
VERSION = 1
MAX_BYTES = 4 * 1024 * 1024  # a campaign of many thousand actions fits; anything bigger is refused
QR_PREFIX = "TC1:"
QR_MAX_CHARS = 2000  # what a phone camera still reads reliably from a screen


class ExportedAction(BaseModel):
    seq: int = Field(ge=0)
    action: dict[str, Any]
    dice: list[list[int]] = []
    events: list[Any] = []  # typed events (older files: sentences); re-derived from the rules on import
    state: dict[str, Any]
    label: str = Field("", max_length=500)
    context: str = Field("", max_length=500)
    created_at: Optional[datetime] = None


class ExportedCampaign(BaseModel):
    format: Literal["table-companion/campaign"]
    version: int
    app_version: str = ""
    exported_at: Optional[datetime] = None
    game: str
    name: str = Field(max_length=NAME_MAX)
    seed: int = Field(ge=0, lt=2**63)
    settings: dict[str, Any]
    cursor: int = Field(ge=0)
    log: list[ExportedAction]


class ExportedCatalogEntry(BaseModel):
    kind: str = Field(min_length=1, max_length=40)
    key: str = Field(min_length=1, max_length=80)
    name: str = Field(min_length=1, max_length=120)
    data: dict[str, Any]


class ExportedCatalog(BaseModel):
    format: Literal["table-companion/catalog"]
    version: int
    entries: list[ExportedCatalogEntry]


class ImportRefused(InputError):
    """The file can't be imported; the message says what is wrong. Nothing was written."""


# --- campaigns -----------------------------------------------------------------------------------


def export_campaign(store: Store, campaign_id: int) -> dict:
    campaign = store.get(campaign_id)
    rows = store.log_rows(campaign_id)
    return {
        "format": FORMAT,
        "version": VERSION,
        "app_version": __version__,
        "exported_at": datetime.now(timezone.utc).isoformat(),
        "game": campaign.game,
        "name": campaign.name,
        "seed": campaign.seed,
        "settings": campaign.settings,
        "cursor": campaign.cursor,
        "log": [
            {"seq": r.seq, "action": r.action, "dice": r.dice, "events": r.events, "state": r.state,
             "label": r.label, "context": r.context, "created_at": _iso(r.created_at)}
            for r in rows
        ],
    }


def _iso(value: Optional[datetime]) -> Optional[str]:
    return value.isoformat() if value else None


def dumps(payload: dict) -> str:
    return json.dumps(payload, ensure_ascii=False, separators=(",", ":"))


def export_filename(name: str, game: str) -> str:
    safe = "".join(c if c.isalnum() or c in "-_" else "-" for c in name).strip("-")[:40] or "campaign"
    return f"{game}-{safe}.json"


def parse_payload(raw: bytes | str, *, expect: str = FORMAT) -> dict:
    """Bytes/text of a file or QR text → a dict, refusing oversized, malformed or foreign input."""
    if isinstance(raw, str):
        text = raw.strip()
        if text.startswith(QR_PREFIX):
            text = from_qr_text(text)
        raw = text.encode("utf-8")
    if len(raw) > MAX_BYTES:
        raise ImportRefused(f"The file is {len(raw) / 1e6:.1f} MB; an import may be at most {MAX_BYTES / 1e6:.0f} MB.")
    if not raw.strip():
        raise ImportRefused("The file is empty.")
    try:
        data = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ImportRefused(f"The file is not valid JSON ({exc}).") from exc
    if not isinstance(data, dict) or data.get("format") not in (FORMAT, CATALOG_FORMAT):
        raise ImportRefused("This is not a Table Companion export (its “format” field is missing or different).")
    if data["format"] != expect:
        kind = "a catalog" if data["format"] == CATALOG_FORMAT else "a campaign"
        raise ImportRefused(f"This file is {kind}, not what was asked for.")
    version = data.get("version")
    if not isinstance(version, int):
        raise ImportRefused("The file has no format version.")
    if version > VERSION:
        raise ImportRefused(f"The file was made by a newer version of the app (format {version}; this app reads up to {VERSION}). Update the app.")
    if version < 1:
        raise ImportRefused(f"Unknown format version {version}.")
    return data


def validate_campaign(data: dict) -> ExportedCampaign:
    """Everything checked; raises ImportRefused with what is wrong."""
    try:
        exported = ExportedCampaign.model_validate(data)
    except ValidationError as exc:
        raise ImportRefused(f"The file's contents are not valid — {format_errors(exc)}.") from exc
    if not is_known(exported.game):
        raise ImportRefused(f"The file is for an unknown game {exported.game!r}.")
    try:
        clean_name(exported.name)
    except InputError as exc:
        raise ImportRefused(str(exc)) from exc
    seqs = [e.seq for e in exported.log]
    if seqs != list(range(len(seqs))):
        raise ImportRefused("The log's actions are not numbered 0, 1, 2, … without gaps.")
    if exported.cursor > len(seqs) - 1:
        raise ImportRefused(f"The file's position ({exported.cursor}) is beyond its last action ({len(seqs) - 1}).")
    game = get_game(exported.game)
    try:
        report = replay(game, exported.settings, [e.model_dump() for e in exported.log])
    except InputError as exc:
        raise ImportRefused(str(exc)) from exc
    if not report.ok:
        raise ImportRefused("The log does not replay to its recorded states: " + "; ".join(report.mismatches[:3]))
    # What happened is what the rules say happened, not what the file says.
    for e in exported.log[1:]:
        e.events = [ev.model_dump(mode="json") for ev in report.events.get(e.seq, [])]
    return exported


def import_campaign(store: Store, raw: bytes | str, *, name: Optional[str] = None) -> int:
    """Import a campaign file/QR text as a new campaign. All or nothing."""
    exported = validate_campaign(parse_payload(raw))
    game = get_game(exported.game)
    last = exported.log[exported.cursor]
    game_state = game.State.model_validate(last.state["game"])
    with store.db.session() as s:
        campaign = Campaign(
            game=exported.game, name=clean_name(name or exported.name), seed=exported.seed,
            settings=exported.settings, cursor=exported.cursor, head=len(exported.log) - 1,
            headline=game.headline(game_state)[:200], status=(game.outcome(game_state) or "In progress")[:80],
        )
        s.add(campaign)
        s.flush()
        for e in exported.log:
            events = [Event.coerce(x).model_dump(mode="json") for x in e.events]
            row = ActionRow(campaign_id=campaign.id, seq=e.seq, action=e.action, dice=e.dice, events=events,
                            state=e.state, label=e.label, context=e.context)
            if e.created_at:
                row.created_at = e.created_at if e.created_at.tzinfo else e.created_at.replace(tzinfo=timezone.utc)
            s.add(row)
        new_id = campaign.id
    store._changed(new_id, exported.cursor)
    return new_id


# --- catalogs ------------------------------------------------------------------------------------


def export_catalog(store: Store, kind: str) -> dict:
    from sqlmodel import select

    with store.db.session() as s:
        rows = s.exec(select(CatalogEntry).where(CatalogEntry.kind == kind).order_by(CatalogEntry.key))
        entries = [{"kind": r.kind, "key": r.key, "name": r.name, "data": r.data} for r in rows]
    return {"format": CATALOG_FORMAT, "version": VERSION, "entries": entries}


def import_catalog(store: Store, raw: bytes | str, *, validate_entry=None) -> int:
    """Add or replace catalog entries (by kind and key). All or nothing. Returns how many."""
    from sqlmodel import select

    data = parse_payload(raw, expect=CATALOG_FORMAT)
    try:
        catalog = ExportedCatalog.model_validate(data)
    except ValidationError as exc:
        raise ImportRefused(f"The catalog is not valid — {format_errors(exc)}.") from exc
    if validate_entry:
        for entry in catalog.entries:
            problem = validate_entry(entry)
            if problem:
                raise ImportRefused(f"{entry.name}: {problem}")
    with store.db.session() as s:
        for entry in catalog.entries:
            row = s.exec(select(CatalogEntry).where(CatalogEntry.kind == entry.kind, CatalogEntry.key == entry.key)).first()
            row = row or CatalogEntry(kind=entry.kind, key=entry.key, name=entry.name)
            row.name, row.data, row.updated_at = entry.name, entry.data, datetime.now(timezone.utc)
            s.add(row)
    return len(catalog.entries)


# --- QR text -------------------------------------------------------------------------------------


def to_qr_text(payload: dict) -> Optional[str]:
    """Compressed text for a QR code, or None when the payload is too big for one code."""
    packed = base64.urlsafe_b64encode(zlib.compress(dumps(payload).encode("utf-8"), 9)).decode("ascii")
    text = QR_PREFIX + packed
    return text if len(text) <= QR_MAX_CHARS else None


def from_qr_text(text: str) -> str:
    try:
        packed = "".join(text.strip()[len(QR_PREFIX):].split())
        inflater = zlib.decompressobj()
        data = inflater.decompress(base64.b64decode(packed.encode("ascii"), altchars=b"-_", validate=True), MAX_BYTES + 1)
        if not inflater.eof:
            raise ValueError("it is cut short")
    except (ValueError, zlib.error) as exc:
        raise ImportRefused(f"The QR text is damaged ({exc}).") from exc
    if len(data) > MAX_BYTES:
        raise ImportRefused("The QR text unpacks to more than an import may hold.")
    return data.decode("utf-8", errors="strict")
