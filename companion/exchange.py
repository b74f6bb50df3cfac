"""Export and import of campaigns and catalogs: versioned JSON files, and QR text for small ones.

Import validates everything before writing anything: size, format, version, game, settings, every
logged action (replayed through the rules with its recorded dice); then it is written in short
transactions under a campaign that shows only once whole (see `import_campaign`).
Whatever a file holds, the answer is an import or an `ImportRefused` with a plain sentence: JSON
nested too deep, numbers too long for a save, wrong types ("3" for a number, `true` for a version:
no coercion), text that isn't UTF-8 (a UTF-8 byte-order mark is fine), control characters in names.
"""

from __future__ import annotations

import base64
import gzip
import json
import logging
import math
import re
import unicodedata
from itertools import accumulate
import zlib
from datetime import datetime, timezone
from typing import Annotated, Any, Callable, Literal, Optional

from pydantic import BaseModel, ConfigDict, Field, StrictInt, ValidationError, PrivateAttr, field_validator

from companion import __version__
from companion.games import get_game, is_known
from companion.games.base import Event, InputError
from companion.i18n import Msg, Text, stored_text
from companion.log import (SETUP_LABEL, SNAPSHOT_EVERY, pack_state, unpack_state, NAME_MAX, Store, clean_name, created_event, format_errors,
                           headline_and_status, reason, replay)
from models.tables import ActionRow, Campaign, CatalogEntry

FORMAT = "table-companion/campaign"
CATALOG_FORMAT = "table-companion/catalog"
# Format 2 (compact) holds each action and its dice; the rules rebuild states, events and labels on
# import, and the app's dice are rolled again from the seed. Format 1 files (with every state) still import.
VERSION = 2
# The size limit follows from the longest campaign a file may hold at the most an action costs in
# JSON (its action, dice and time: ~100–300 bytes in practice). It bounds the file as given and the
# JSON a gzip file unpacks to (an export packs 10–20×).
MAX_ACTIONS = 50_000
ACTION_JSON_MAX = 1_000
MAX_BYTES = MAX_ACTIONS * ACTION_JSON_MAX
GZIP_FROM = 256 * 1024  # an export this big is gzipped (a phone's upload, a chat message, a mail)
GZIP_MAGIC = b"\x1f\x8b"
QR_PREFIX = "TC1:"
QR_MAX_CHARS = 2000  # what a phone camera still reads reliably from a screen
MAX_DEPTH = 64  # nesting of a file's JSON: a whole save needs ~10; deeper is refused, not recursed into
MAX_DIGITS = 19  # an integer in a file: a seed (< 2**63) is the biggest a save holds

# A long import or export tells how far it is: progress(stage, done, total); it may raise (a cancel).
Progress = Callable[[Text, int, int], None]
READING = Msg("Reading the file")
CHECKING = Msg("Checking every action against the rules")
SAVING = Msg("Saving")
# Log rows written a transaction: a tap from another phone waits for one such write at most (a few
# tens of ms), and the phone that imports is told how far it is after each.
IMPORT_CHUNK = 100

log = logging.getLogger(__name__)

# C0/C1 controls and the bidirectional overrides that make a name read as something else.
_CONTROLS = re.compile("[\x00-\x1f\x7f-\x9f\u200e\u200f\u202a-\u202e\u2066-\u2069]")


def strip_controls(text: str) -> str:
    """A name or label without control characters (a tab or newline becomes a space)."""
    return _CONTROLS.sub(lambda m: " " if m.group() in "\t\n\r" else "", unicodedata.normalize("NFC", text))


# One recorded die: [sides, value, physical (0 or 1)].
Die = Annotated[list[StrictInt], Field(min_length=3, max_length=3)]
# Datetimes come as ISO text in JSON: the only field where text stands for another type.
When = Annotated[Optional[datetime], Field(strict=False)]


class _Strict(BaseModel):
    # No coercion: "3" is not a number, true is not a version, a missing field is missing.
    model_config = ConfigDict(strict=True)


class ExportedAction(_Strict):
    seq: int = Field(ge=0)
    action: dict[str, Any]
    dice: list[Die] = []
    events: list[Any] = []  # format 1 only: ignored, the rules say what happened
    state: Optional[dict[str, Any]] = None  # format 1 only: checked against the replay
    label: str = Field("", max_length=500)
    context: str = Field("", max_length=500)
    created_at: When = None

    @field_validator("label", "context")
    @classmethod
    def _no_controls(cls, value: str) -> str:
        return strip_controls(value)

    @field_validator("dice")
    @classmethod
    def _dice(cls, dice: list[list[int]]) -> list[list[int]]:
        for sides, value, physical in dice:
            if sides < 1 or physical not in (0, 1):  # the faces themselves are checked by the replay
                raise ValueError(Msg("the die {die} is not [sides, value, physical 0 or 1]", die=str([sides, value, physical])))
        return dice


class ExportedCampaign(_Strict):
    format: Literal["table-companion/campaign"]
    version: int
    app_version: str = ""
    exported_at: When = None
    game: str
    name: str = Field(max_length=NAME_MAX * 4)  # checked again (clean_name) once controls are gone
    seed: int = Field(ge=0, lt=2**63)
    settings: dict[str, Any]
    cursor: int = Field(ge=0)
    # Written for older apps, which let it decide whether dice entered at the table on any action
    # were allowed: read, never trusted (the replay decides from the log alone: see log.replay).
    legacy_entered_dice: bool = False
    log: list[ExportedAction]
    _states: dict = PrivateAttr(default_factory=dict)  # seq → the replayed state (those a save keeps)
    _recorded: set = PrivateAttr(default_factory=set)  # seqs whose recorded state the save keeps (see replay)

    @field_validator("name")
    @classmethod
    def _no_controls(cls, value: str) -> str:
        return strip_controls(value)


class ExportedCatalogEntry(_Strict):
    kind: str = Field(min_length=1, max_length=40, pattern=r"^[a-z0-9_]+$")
    key: str = Field(min_length=1, max_length=80)
    name: str = Field(min_length=1, max_length=120)
    data: dict[str, Any]

    @field_validator("key")
    @classmethod
    def _plain_key(cls, value: str) -> str:
        if _CONTROLS.search(value):
            raise ValueError(Msg("a key can't hold control characters"))
        return value

    @field_validator("name")
    @classmethod
    def _no_controls(cls, value: str) -> str:
        value = " ".join(strip_controls(value).split())
        if not value:
            raise ValueError(Msg("a name can't be empty"))
        return value


class ExportedCatalog(_Strict):
    format: Literal["table-companion/catalog"]
    version: int
    entries: list[ExportedCatalogEntry]


_LIBRARY_NOTE = re.compile(r"\s*\(?For\sfurther\sinformation\svisit\shttps?://\S+\)?|\s*https?://errors\.pydantic\.dev\S*")


class ImportRefused(InputError):
    """The file can't be imported; the message (a Msg, said in the phone's language) says what is
    wrong. Nothing was written."""

    def __init__(self, message: Text):
        # A player reads this: no library's help links (pydantic appends one to its errors).
        super().__init__(message if isinstance(message, Msg) else _plain(message))


def _plain(text: Any) -> str:
    """A library's words without its help links."""
    return _LIBRARY_NOTE.sub("", str(text)).strip()


def _refuse_invalid(exc: ValidationError, what: Msg) -> ImportRefused:
    return ImportRefused(Msg("{what} — {problems}.", what=what, problems=format_errors(exc)))


# --- campaigns -----------------------------------------------------------------------------------


def export_campaign(store: Store, campaign_id: int) -> dict:
    campaign = store.get(campaign_id)
    rows = store.log_rows(campaign_id)
    legacy = _entered_before_physical_dice(rows)
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
        **({"legacy_entered_dice": True} if legacy else {}),
        "log": [
            {"seq": r.seq, "action": r.action, "dice": r.dice, "created_at": _iso(r.created_at),
             **({"state": _recorded_state(r)} if r.seq in legacy else {})}
            for r in rows
        ],
    }


def _entered_before_physical_dice(rows: list[ActionRow] | list[dict]) -> set[int]:
    """The rows holding dice the table entered on a game action before the log ever switched
    physical dice (saves of the app's first version, where any action took a typed die). Each is
    exported with the state its save recorded after it, and an import keeps that state: a replay
    takes such a die only with it (see log.replay)."""
    found = set()
    for row in rows:
        action, dice, seq = (row["action"], row["dice"], row["seq"]) if isinstance(row, dict) else (row.action, row.dice, row.seq)
        kind = (action or {}).get("kind")
        if kind in ("physical_dice", "dice"):
            break
        if kind != "tray_roll" and any(len(d) == 3 and d[2] for d in dice or []):
            found.add(seq)
    return found


def _recorded_state(row: ActionRow) -> Optional[dict]:
    """The state a row's save recorded after it (kept whole on the row, or as its snapshot)."""
    if row.state is not None:
        return row.state
    return unpack_state(row.snapshot).model_dump(mode="json") if row.snapshot else None


def _iso(value: Optional[datetime]) -> Optional[str]:
    return value.isoformat() if value else None


def dumps(payload: dict) -> str:
    return json.dumps(payload, ensure_ascii=False, separators=(",", ":"))


def export_filename(name: str, game: str, *, packed: bool = False) -> str:
    safe = "".join(c if c.isalnum() or c in "-_" else "-" for c in name).strip("-")[:40] or "campaign"
    return f"{game}-{safe}.json" + (".gz" if packed else "")


def export_file(payload: dict) -> tuple[bytes, str]:
    """The export as a file: its bytes and name. JSON, gzipped once it is big (a long campaign
    packs 10–20×); import reads either."""
    data = dumps(payload).encode("utf-8")
    packed = len(data) >= GZIP_FROM
    if packed:
        data = gzip.compress(data, compresslevel=6, mtime=0)  # mtime 0: the same campaign, the same bytes
    return data, export_filename(payload.get("name", ""), payload.get("game", "campaign"), packed=packed)


def _gunzip(raw: bytes) -> bytes:
    """A gzip file's contents, refusing one that unpacks beyond what an import may hold (a "zip bomb")."""
    inflater = zlib.decompressobj(wbits=31)
    try:
        data = inflater.decompress(raw, MAX_BYTES + 1)
        if len(data) > MAX_BYTES:
            raise ImportRefused(Msg("The file unpacks to more than an import may hold ({mb} MB, about {actions} actions).",
                                    mb=round(MAX_BYTES / 1e6), actions=MAX_ACTIONS))
        if not inflater.eof or inflater.unused_data:
            raise ImportRefused(Msg("The gzip file is damaged or cut short."))
    except zlib.error:
        log.info("import refused: gzip", exc_info=True)
        raise ImportRefused(Msg("The file is damaged: it is packed (gzip), and what it unpacks to fails its own check. "
                                "Export it again, or copy it again if it came over a network.")) from None
    return data


def _not_an_export(expect: str, text: str | bytes = "") -> ImportRefused:
    """Text that is no export at all (not JSON, not even text): pasted by mistake, or the wrong file.
    One that starts as an export but doesn't parse was damaged or cut short on its way."""
    head = text[:300] if isinstance(text, bytes) else text[:300].encode("utf-8", "replace")
    if head.lstrip(b"\xef\xbb\xbf \t\r\n").startswith(b"{") and (
            b"table-companion/" in head or b'"format"' in head or b'"entries"' in head or b'"log"' in head):
        return ImportRefused(Msg("The file is damaged or cut short: it starts as a Table Companion export but "
                                 "doesn't read to its end. Export it again, or copy the whole of it."))
    if expect == CATALOG_FORMAT:
        return ImportRefused(Msg("This is not a catalog export: paste the whole text of an export, or choose its file."))
    return ImportRefused(Msg("This is not a campaign export: paste the whole text of an export, or choose its file."))


def parse_payload(raw: bytes | str, *, expect: str = FORMAT) -> dict:
    """Bytes/text of a file or QR text → a dict, refusing oversized, malformed or foreign input."""
    if len(raw) > MAX_BYTES * (1 if isinstance(raw, bytes) else 4) or (
            isinstance(raw, str) and len(raw.encode("utf-8", "surrogatepass")) > MAX_BYTES):
        raise ImportRefused(Msg("The file is over {mb} MB; an import may be at most {mb} MB (about {actions} actions).",
                                mb=round(MAX_BYTES / 1e6), actions=MAX_ACTIONS))
    if isinstance(raw, (bytes, bytearray)) and bytes(raw[:2]) == GZIP_MAGIC:
        raw = _gunzip(bytes(raw))
    if isinstance(raw, (bytes, bytearray)):
        try:
            text = bytes(raw).decode("utf-8-sig")  # a byte-order mark, as some editors write, is fine
        except UnicodeDecodeError:
            raise _not_an_export(expect, bytes(raw)) from None  # not text at all (a photo), or a damaged export
    else:
        text = raw
    text = text.lstrip("\ufeff").strip()
    try:
        text.encode("utf-8")  # pasted text can carry lone surrogates, which no save can store
    except UnicodeEncodeError:
        raise _not_an_export(expect) from None
    if text.startswith(QR_PREFIX):
        text = from_qr_text(text)
    if not text:
        raise ImportRefused(Msg("The file is empty."))
    data = _loads(text, expect)
    if isinstance(data, dict) and data.get("format") == "biosphere5-catalog":  # a card catalog file
        raise ImportRefused(Msg("This is a Biosphere 5 card catalog, not a campaign: open a Biosphere 5 campaign, "
                                "then Card catalog → Import.") if expect == FORMAT else
                            Msg("This is a Biosphere 5 card catalog: import it in a Biosphere 5 campaign, under "
                                "Card catalog → Import."))
    if not isinstance(data, dict) or data.get("format") not in (FORMAT, CATALOG_FORMAT):
        raise ImportRefused(Msg("This is not a Table Companion export (its “format” field is missing or different)."))
    if data["format"] != expect:
        raise ImportRefused(Msg("This file is a catalog, not what was asked for.") if data["format"] == CATALOG_FORMAT
                            else Msg("This file is a campaign, not what was asked for."))
    version = data.get("version")
    if type(version) is not int:  # not "1", not true (a bool is an int to Python)
        raise ImportRefused(Msg("The file has no format version (a whole number)."))
    if version > VERSION:
        raise ImportRefused(Msg("The file was made by a newer version of the app (format {version}; this app reads up "
                                "to {newest}). Update the app.", version=version, newest=VERSION))
    if version < 1:
        raise ImportRefused(Msg("Unknown format version {version}.", version=version))
    return data


class _TooBig(ValueError):
    pass


def _int(digits: str) -> int:
    # Checked before int(): Python refuses 4,300+ digits with a ValueError of its own, and a save
    # never holds more than a 63-bit seed.
    if len(digits.lstrip("-")) > MAX_DIGITS:
        raise _TooBig(Msg("it holds a number of {digits} digits (at most {max})", digits=str(len(digits.lstrip("-"))),
                          max=MAX_DIGITS))
    return int(digits)


def _float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise _TooBig(Msg("it holds a number too big to use ({number})", number=text[:20]))
    return value


def _not_a_number(name: str) -> None:
    raise _TooBig(Msg("it holds {name}, which JSON does not allow", name=name))


def _check_tree(data: Any) -> None:
    """Refuse nesting deeper than MAX_DEPTH and text no save can hold (a lone surrogate, written
    as a \\udc80 escape), walking the tree without recursion."""
    stack = [(data, 1)]
    while stack:
        value, depth = stack.pop()
        if isinstance(value, str):
            try:
                value.encode("utf-8")
            except UnicodeEncodeError:
                raise ImportRefused(Msg("The file is not valid JSON (it holds text that is not UTF-8).")) from None
        elif isinstance(value, (dict, list)):
            if depth > MAX_DEPTH:
                raise _too_deep()
            if isinstance(value, dict):
                stack.extend((k, depth) for k in value)
            stack.extend((v, depth + 1) for v in (value.values() if isinstance(value, dict) else value))


def _too_deep() -> ImportRefused:
    return ImportRefused(Msg("The file is not a Table Companion export (it nests more than {levels} levels deep).",
                             levels=MAX_DEPTH))


_NOT_A_BRACKET = re.compile(r"[^\[\]{}]+")
_STEP = {"[": 1, "{": 1, "]": -1, "}": -1}


def nesting_beyond(text: str, levels: int = MAX_DEPTH) -> bool:
    """Whether JSON text nests deeper than `levels`, found before it is parsed (a parser recurses
    into it): its strings set aside (escapes first), its brackets counted, in C loops (a
    50,000-action file: well under a second, a small part of its import).

    >>> nesting_beyond('{"a": [[1]], "b": "[[[[[\\\\"}', 3), nesting_beyond('[[[[1]]]]', 3)
    (False, True)
    """
    outside = "".join(text.replace("\\\\", "").replace('\\"', "").split('"')[::2])
    brackets = _NOT_A_BRACKET.sub("", outside)
    return max(accumulate(map(_STEP.__getitem__, brackets)), default=0) > levels


def load_json(text: str, *, levels: int = MAX_DEPTH) -> Any:
    """JSON text a player gave (a file, a paste), parsed only once its nesting is known to be within
    `levels`: json.loads as such recurses, and raises RecursionError past Python's limit. Raises
    ImportRefused for too deep a nesting, ValueError for text that isn't JSON."""
    if nesting_beyond(text, levels):
        raise _too_deep()
    return json.loads(text, parse_int=_int, parse_float=_float, parse_constant=_not_a_number)


def _loads(text: str, expect: str = FORMAT) -> Any:
    try:
        data = load_json(text)
    except ImportRefused:
        raise
    except RecursionError:
        raise _too_deep() from None
    except _TooBig as exc:
        raise ImportRefused(Msg("The file is not a Table Companion export ({problem}).", problem=reason(exc))) from None
    except ValueError:  # JSONDecodeError, and anything else the parser refuses: not an export, or a damaged one
        log.info("import refused: not JSON", exc_info=True)
        raise _not_an_export(expect, text) from None
    _check_tree(data)
    return data


def check_structure(data: dict) -> ExportedCampaign:
    """Everything but the replay: types (strict), game, name, settings, numbering, position."""
    try:
        exported = ExportedCampaign.model_validate(data)
    except ValidationError as exc:
        raise _refuse_invalid(exc, Msg("The file's contents are not valid")) from None
    if not is_known(exported.game):
        raise ImportRefused(Msg("The file is for an unknown game {game}.", game=repr(exported.game)))
    try:
        exported.name = clean_name(exported.name)
    except InputError as exc:
        raise ImportRefused(reason(exc)) from None
    game = get_game(exported.game)
    try:  # the settings as JSON, strictly: "3" is not a number here either
        game.Settings.model_validate_json(json.dumps(exported.settings), strict=True)
    except ValidationError as exc:
        raise _refuse_invalid(exc, Msg("Settings refused")) from None
    if len(exported.log) > MAX_ACTIONS + 1:
        raise ImportRefused(Msg("The campaign has {count} actions; an import may hold at most {max}.",
                                count=len(exported.log) - 1, max=MAX_ACTIONS))
    seqs = [e.seq for e in exported.log]
    if seqs != list(range(len(seqs))):
        raise ImportRefused(Msg("The log's actions are not numbered 0, 1, 2, … without gaps."))
    if exported.cursor > len(seqs) - 1:
        raise ImportRefused(Msg("The file's position ({position}) is beyond its last action ({last}).",
                                position=exported.cursor, last=len(seqs) - 1))
    return exported


def validate_campaign(data: dict, *, progress: Optional[Progress] = None) -> ExportedCampaign:
    """Everything checked; raises ImportRefused with what is wrong. `progress` (see Progress) is
    told how far the replay is; it may raise (a cancel) to stop it. Each entry's events are the
    rules' (Event objects, as they come: an import writes them a chunk at a time)."""
    exported = check_structure(data)
    del data  # the parsed file (when the caller let go of it): the checked copy is all that is needed now
    game = get_game(exported.game)
    try:
        last = len(exported.log) - 1
        entries = [e.model_dump() for e in exported.log]
        exported._recorded = _entered_before_physical_dice(entries)  # their states are the evidence: kept
        report = replay(game, exported.settings, entries, seed=exported.seed,
                        keep=lambda seq: seq % SNAPSHOT_EVERY == 0 or seq in (exported.cursor, last, *exported._recorded),
                        progress=None if progress is None else lambda done, total: progress(CHECKING, done, total))
    except InputError as exc:
        raise ImportRefused(reason(exc)) from exc
    except ValidationError as exc:  # a state the file recorded that isn't one of this game's
        log.info("import refused: a recorded state", exc_info=True)
        raise _refuse_invalid(exc, Msg("A state recorded in the file doesn't fit the game")) from None
    except (ValueError, TypeError, KeyError, IndexError, AttributeError, ArithmeticError, RecursionError) as exc:
        # The rules met an action no screen could have sent: a refusal, not a crash.
        log.info("import refused: the replay raised", exc_info=True)
        said = reason(exc)
        raise ImportRefused(Msg("The log can't be replayed: an action doesn't fit the game ({problem}).",
                                problem=said if isinstance(said, Msg) else _plain(said))) from None
    if not report.ok:
        found: Text = ""
        for mismatch in report.mismatches[:3]:
            found = mismatch if not found else found + "; " + mismatch
        raise ImportRefused(Msg("The campaign in this file doesn't replay as it was recorded: {problems}.", problems=found))
    # What happened is what the rules say happened, not what the file says.
    for e in exported.log[1:]:
        e.events = report.events.get(e.seq, [])
        e.label, e.context = (stored_text(words) for words in report.labels.get(e.seq, ("", "")))
    exported._states = report.states
    return exported


def unused_name(taken: set[str], name: str) -> str:
    """`name`, or "name (2)", "name (3)", … when a campaign already has it (`taken`): an imported
    copy of a campaign is told apart from the one it was exported from."""
    if name not in taken:
        return name
    base = re.sub(r" \((\d+)\)$", "", name)
    number = 2
    while True:
        suffix = f" ({number})"
        candidate = base[:NAME_MAX - len(suffix)].rstrip() + suffix
        if candidate not in taken:
            return candidate
        number += 1


def import_campaign(store: Store, raw: bytes | str, *, name: Optional[str] = None,
                    progress: Optional[Progress] = None) -> int:
    """Import a campaign file/QR text as a new campaign, all or nothing as the players see it.

    The file is checked whole first; then its log is written IMPORT_CHUNK rows a transaction (so
    another phone's tap waits for one of them at most, not for the whole log) under a campaign row
    that no list shows and nothing opens until the last transaction shows it. Whatever stops it on
    the way (a cancel that `progress` raises, a failure) deletes what was written; what a crash
    leaves is deleted when the app next starts (Store.sweep_imports). Hand over `raw` (keep no
    reference to it): the file's bytes are let go once parsed, and each row once written."""
    from sqlmodel import select

    if progress is not None:
        progress(READING, 0, 1)
    exported = validate_campaign(parse_payload(raw), progress=progress)
    del raw
    game = get_game(exported.game)
    states = exported._states
    head = len(exported.log) - 1
    headline, status = headline_and_status(game, game.State.model_validate(states[exported.cursor].game))
    with store.db.session() as s:  # an imported copy is told apart from the campaign it came from
        campaign_name = unused_name(set(s.exec(select(Campaign.name))), clean_name(name or exported.name))
    entries, exported.log = exported.log, []
    campaign_id = store.begin_import(Campaign(
        game=exported.game, name=campaign_name, seed=exported.seed, settings=exported.settings,
        cursor=exported.cursor, head=head, headline=headline, status=status))
    try:
        written = 0
        while entries:
            if progress is not None:
                progress(SAVING, written, head)
            chunk = entries[:IMPORT_CHUNK]
            store.import_rows([_log_row(campaign_id, campaign_name, e, states, exported._recorded) for e in chunk])
            del entries[:IMPORT_CHUNK]  # written: let go of them
            written += len(chunk)
        store.finish_import(campaign_id, head, states[head])
    except BaseException:
        try:
            store.drop_import(campaign_id)
        except Exception:  # (the save can't be written now: the next start deletes it)
            log.warning("a stopped import's rows could not be deleted", exc_info=True)
        raise
    return campaign_id


def _log_row(campaign_id: int, name: str, e: ExportedAction, states: dict, recorded: set[int]) -> dict:
    """One imported log row as the save keeps it: a compressed snapshot every SNAPSHOT_EVERY rows
    and where a first-version save's entered die needs its recorded state as evidence (`recorded`);
    the newest state goes apart, in NewestState; the first row says the campaign was made."""
    events = [created_event(name)] if e.seq == 0 else [Event.coerce(x) for x in e.events]
    created = e.created_at or datetime.now(timezone.utc)
    return {"campaign_id": campaign_id, "seq": e.seq, "action": e.action, "dice": e.dice,
            "events": [ev.model_dump(mode="json") for ev in events],
            "snapshot": pack_state(states[e.seq]) if e.seq % SNAPSHOT_EVERY == 0 or e.seq in recorded else None, "state": None,
            "label": e.label if e.seq else SETUP_LABEL, "context": e.context,
            "created_at": created if created.tzinfo else created.replace(tzinfo=timezone.utc)}


# --- catalogs ------------------------------------------------------------------------------------


def export_catalog(store: Store, kind: str) -> dict:
    from sqlmodel import select

    with store.db.read() as s:
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
        raise _refuse_invalid(exc, Msg("The catalog is not valid")) from None
    if validate_entry:
        for entry in catalog.entries:
            problem = validate_entry(entry)
            if problem:
                raise ImportRefused(Msg("{name}: {problem}", name=entry.name, problem=problem))
    from companion.catalog import writing

    with writing(store) as s:
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
            raise ValueError(Msg("it is cut short"))
    except (ValueError, zlib.error) as exc:
        raise ImportRefused(Msg("The QR text is damaged ({problem}).", problem=reason(exc))) from None
    if len(data) > MAX_BYTES:
        raise ImportRefused(Msg("The QR text unpacks to more than an import may hold."))
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise ImportRefused(Msg("The QR text is damaged (it does not unpack to text).")) from None


def merge_qr_parts(text: str) -> str:
    """Several QR texts pasted together ("TC1:…TC1:…") → one catalog export, later cards winning."""
    merged: dict = {}
    for chunk in text.split(QR_PREFIX)[1:]:
        data = parse_payload(QR_PREFIX + chunk, expect=CATALOG_FORMAT)
        entries = data.get("entries")
        if not isinstance(entries, list):
            raise InputError(Msg("The catalog is not valid — a part has no list of cards."))
        for entry in entries:
            key = (entry.get("kind"), entry.get("key")) if isinstance(entry, dict) else len(merged)
            merged[key] = entry
    return dumps({"format": CATALOG_FORMAT, "version": VERSION, "entries": list(merged.values())})
