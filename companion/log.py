"""The campaign store: applying actions through a game's pure rules, undo/redo, and replay.

tap → Store.apply(campaign, action, expected_cursor) → rules.apply(state, action, dice)
    → one transaction appends (action, dice, events) and moves the cursor; the state after it
      is kept as the campaign's newest (a log row is written once: see NewestState).

Undo/redo only move the cursor; redo shows the stored state, so it rolls the same dice. A new
action after an undo drops the undone tail. An action made against a stale cursor (another
screen acted first) is refused with StaleAction, so two phones never double or lose an action.
"""

from __future__ import annotations

import json
import threading
import typing
import zlib
from dataclasses import dataclass, field
from datetime import datetime, timezone
from functools import cached_property
from typing import Any, Callable, NamedTuple, Optional

from pydantic import BaseModel, TypeAdapter, ValidationError
from sqlalchemy import bindparam, delete, false, func, insert, or_, true, update
from sqlmodel import select

from companion.dice import PhysicalDice, RecordedDice, ReplayMismatch, RolledDie, SeededDice, new_seed
from companion.games import get_game, is_known
from companion.games.base import Event, Game, InputError, NeedDice, RuleError, as_events, event, said_error
from companion.i18n import N_, Msg, _, NMsg, Text, as_text, data_word, stored_text
from companion.table import (TABLE_KINDS, CampaignState, DismissReminder, GiveDice, Pending, SetPhysicalDice, TableAction, TableNote, TrayRoll,
                             apply_table, describe_table, roll_words)
from models.db import Database, DatabaseError
from models.tables import ActionRow, Campaign, NewestState

NAME_MAX = 60
# Every this many log rows a compressed snapshot of the state is kept; any other state is replayed
# from the nearest snapshot before it (at most SNAPSHOT_EVERY - 1 actions through the pure rules).
SNAPSHOT_EVERY = 32
_TABLE_ADAPTER = TypeAdapter(TableAction)


class StaleAction(RuleError):
    """The screen was behind the log: someone else acted first. Nothing was applied."""


class NotFound(LookupError):
    pass


def clean_name(name: str) -> str:
    """Trimmed campaign name; refuses empty and over-long names with a clear message."""
    if not isinstance(name, str):
        raise InputError(Msg("A name must be text."))
    name = " ".join(name.split())
    if not name:
        raise InputError(Msg("Give the campaign a name (1 to {max} characters).", max=NAME_MAX))
    if len(name) > NAME_MAX:
        raise InputError(Msg("A name has at most {max} characters (this one has {count}).", max=NAME_MAX,
                             count=len(name)))
    return name


def format_errors(exc: ValidationError, model: Any = None) -> Text:
    """A pydantic error as one line a player reads in their language: 'Highest value: must be at most
    1,000' (games.base.said_error says each kind of error). Given the model that refused (a Settings
    class, a game's Action union), a field is named by its description, as the form labels it."""
    said: Text = ""
    for err in exc.errors():
        loc = [p for p in err.get("loc", ()) if p != "__root__"]
        where = _field_words(model, loc) if loc else ""
        part = Msg("{where}: {problem}", where=where, problem=said_error(err)) if where else said_error(err)
        said = part if not said else said + "; " + part
    return said


def _models_in(annotation: Any) -> list[type[BaseModel]]:
    """The pydantic models an annotation holds (through unions, Optional, lists and Annotated)."""
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return [annotation]
    return [m for arg in typing.get_args(annotation) for m in _models_in(arg)]


def _field_words(model: Any, loc: list) -> Text:
    """The words for where an error is: the innermost field's description (a game marks it N_(), so
    the phone's language says it), else the location as pydantic gives it ("card.attack")."""
    candidates, named = _models_in(model), None
    for part in loc:
        if not isinstance(part, str):
            continue  # a list index
        fields = next((m.model_fields[part] for m in candidates if part in m.model_fields), None)
        if fields is not None:
            named = fields.description or fields.title
            candidates = _models_in(fields.annotation)
            continue
        tagged = [m for m in candidates if getattr(m.model_fields.get("kind"), "default", None) == part]
        if not tagged:  # a location this walk doesn't follow: say it as it is
            return ".".join(str(p) for p in loc)
        candidates = tagged  # a union's tag: the action kind the error is in
    return data_word(named) if named else ".".join(str(p) for p in loc)


def parse_settings(game: Game, data: dict) -> BaseModel:
    try:
        return game.Settings.model_validate(data or {})
    except ValidationError as exc:
        raise InputError(Msg("Settings refused — {problems}.", problems=format_errors(exc, game.Settings))) from exc


def parse_action(game: Game, data: dict) -> Any:
    """A stored/received action dict → the typed action (table or game)."""
    try:
        if isinstance(data, dict) and data.get("kind") in TABLE_KINDS:
            return _TABLE_ADAPTER.validate_python(data)
        return game.parse_action(data)
    except ValidationError as exc:
        raise InputError(Msg("Action refused — {problems}.", problems=format_errors(exc, game.Action))) from exc


def dump_action(game: Game, action: Any) -> dict:
    if getattr(action, "kind", None) in TABLE_KINDS:
        return _TABLE_ADAPTER.dump_python(action, mode="json")
    return game.dump_action(action)


def describe(game: Game, action: Any, state: Optional[CampaignState] = None) -> Text:
    """The action in a few words (for undo and the history)."""
    if isinstance(action, GiveDice) and state is not None and state.pending is not None:
        die = state.pending.chance.die
        shown = ", ".join(die.face_name(f) if 1 <= f <= die.sides else str(f) for f in action.faces)
        return Msg("dice for {action}: {faces}", action=state.pending.label, faces=shown)
    if getattr(action, "kind", None) in TABLE_KINDS:
        return describe_table(action)
    if game.label is not None and state is not None:
        try:
            return game.label(game.State.model_validate(state.game), action)
        except (LookupError, ValueError):  # an action the rules will refuse anyway
            pass
    return game.describe(action)


def logged_words(game: Game, before: CampaignState, action: Any, after: CampaignState) -> tuple[Text, Text]:
    """The label (for undo and the history) and the context (turn and phase) a log row keeps."""
    label = describe(game, action, before)
    if after.pending is not None and not isinstance(action, GiveDice):
        label = Msg("{action} (waiting for dice)", action=label)
    return label, game.headline(game.State.model_validate(before.game))


@dataclass
class Stepped:
    """What one action did: the campaign state after it, its events, and the dice it used."""

    state: CampaignState
    events: list[Event]
    dice: list[RolledDie]


def step(game: Game, state: CampaignState, action: Any, dice) -> Stepped:
    """Apply one action (table or game) to a campaign state. Pure.

    `dice` is the app's source (seeded, or the recorded dice on a replay). A table that rolls
    physical dice never gets one of the app's dice: its actions run on the dice it entered, and one
    that reaches a roll nobody entered stops there — the state then holds it as `pending`, with
    the roll it waits for, and a GiveDice action carries it on from its start with every die given.
    """
    kind = getattr(action, "kind", None)
    if isinstance(action, SetPhysicalDice):
        if state.pending is not None:
            raise RuleError(Msg("The table is waiting for {roll}. Enter those dice, or undo, before switching.",
                                roll=roll_words(state.pending.chance)))
        if action.on == state.physical_dice:
            raise RuleError(Msg("The table already rolls physical dice.") if action.on
                            else Msg("The app already rolls the dice."))
        text = (Msg("From now on the table rolls physical dice: the app asks for every die.")
                if action.on else Msg("From now on the app rolls the dice."))
        return Stepped(state.model_copy(update={"physical_dice": action.on}),
                       [event("physical_dice", text, on=action.on)], [])
    if isinstance(action, DismissReminder):
        return Stepped(dismiss_reminder(game, state, action), [event("dismiss_reminder", Msg(
            "The table dismissed a reminder for the rest of the campaign."), reminder=action.reminder)], [])
    if isinstance(action, GiveDice):
        pending = state.pending
        if pending is None:
            raise RuleError(Msg("No roll is waiting for dice."))
        faces = pending.chance.check_faces(action.faces)
        resumed = parse_action(game, pending.action)
        source = PhysicalDice(pending.given + faces)
        given = [RolledDie(pending.chance.die.sides, f, True) for f in faces]
        return _run(game, state.model_copy(update={"pending": None}), resumed, source, given, pending.label)
    if state.pending is not None and not isinstance(action, TableNote):
        raise RuleError(Msg("The table is waiting for {roll}. Enter those dice first, or undo.",
                            roll=roll_words(state.pending.chance)))
    if state.physical_dice and not isinstance(dice, (PhysicalDice, RecordedDice)):
        dice = PhysicalDice(list(getattr(dice, "entered", []) or []))
    if state.physical_dice and isinstance(dice, RecordedDice):  # a replay: the entered dice are the recorded ones
        dice = PhysicalDice([d.value for d in dice.recorded])
    return _run(game, state, action, dice, None, None if kind in TABLE_KINDS else describe(game, action, state))


def dismiss_reminder(game: Game, state: CampaignState, action: DismissReminder) -> CampaignState:
    """The campaign state with one of the game's reminders dismissed (allowed while dice are awaited:
    it changes nothing of the game)."""
    from companion.games.table_help import reminder_ids

    if action.reminder not in reminder_ids(game.key):
        raise InputError(Msg("This game has no such reminder."))
    if action.reminder in state.dismissed:
        raise RuleError(Msg("That reminder is already dismissed."))
    return state.model_copy(update={"dismissed": [*state.dismissed, action.reminder]})


def _run(game: Game, state: CampaignState, action: Any, dice, given: Optional[list[RolledDie]],
         label: Optional[Text]) -> Stepped:
    try:
        if getattr(action, "kind", None) in TABLE_KINDS:
            tray, events = apply_table(state.tray, action, dice)
            after = state.model_copy(update={"tray": tray})
        else:
            game_state = game.State.model_validate(state.game)
            new_game_state, events = game.apply(game_state, action, dice)
            after = state.model_copy(update={"game": new_game_state.model_dump(mode="json")})
    except NeedDice as need:
        so_far = [d.value for d in dice.rolled] if isinstance(dice, PhysicalDice) else []
        label = label or describe(game, action, state)
        waiting = Pending(action=dump_action(game, action), label=label, given=so_far, chance=need.chance)
        roll = roll_words(need.chance)
        said = (Msg("Waiting for {roll} ({who} rolls).", roll=roll, who=need.chance.who) if need.chance.who
                else Msg("Waiting for {roll}.", roll=roll))
        return Stepped(state.model_copy(update={"pending": waiting}),
                       [event("waiting", said, chance=need.chance.model_dump(mode="json"))],
                       given if given is not None else list(getattr(dice, "rolled", [])))
    if isinstance(dice, PhysicalDice) and dice.unused_entries():
        unused = len(dice.unused_entries())
        raise InputError(NMsg("{n} entered die was not needed; nothing was changed.",
                              "{n} entered dice were not needed; nothing was changed.", unused))
    used = given if given is not None else list(getattr(dice, "rolled", []))
    return Stepped(after, as_events(events), used)


# A tap's writes are plain SQLAlchemy Core statements, made once and run with each action's values
# on the session's connection, not ORM objects put through the unit of work: building and flushing
# those took more of a tap than SQLite's commit did (#16).
CAMPAIGNS, LOG, NEWEST = Campaign.__table__, ActionRow.__table__, NewestState.__table__
# A campaign an import is still writing (Campaign.importing) is no player's yet: no read finds it.
VISIBLE = CAMPAIGNS.c.importing == false()
_READ_CAMPAIGN = (select(CAMPAIGNS.c.game, CAMPAIGNS.c.seed, CAMPAIGNS.c.cursor, CAMPAIGNS.c.head, CAMPAIGNS.c.updated_at)
                  .where(CAMPAIGNS.c.id == bindparam("cid"), VISIBLE).with_for_update())
_MOVE_CAMPAIGN = update(CAMPAIGNS).where(CAMPAIGNS.c.id == bindparam("cid")).values(
    cursor=bindparam("to_cursor"), head=bindparam("to_head"), headline=bindparam("to_headline"),
    status=bindparam("to_status"), updated_at=bindparam("at"))
_ADD_ROW = insert(LOG)
_DROP_TAIL = delete(LOG).where(LOG.c.campaign_id == bindparam("cid"), LOG.c.seq >= bindparam("from_seq"))
_KEEP_NEWEST = update(NEWEST).where(NEWEST.c.campaign_id == bindparam("cid")).values(
    seq=bindparam("to_seq"), state=bindparam("to_state", type_=NEWEST.c.state.type))
_ADD_NEWEST = insert(NEWEST)
_READ_LABEL = select(LOG.c.label).where(LOG.c.campaign_id == bindparam("cid"), LOG.c.seq == bindparam("at_seq"))


def keep_newest(conn, campaign_id: int, seq: int, state: CampaignState) -> None:
    """Keep `state` as the campaign's newest (after row `seq`), in the transaction of `conn` (a
    session's connection): its one NewestState row rewritten in place (made where there is none yet:
    an imported campaign, a save from before 0004)."""
    dumped = state.model_dump(mode="json")
    if conn.execute(_KEEP_NEWEST, {"cid": campaign_id, "to_seq": seq, "to_state": dumped}).rowcount == 0:
        conn.execute(_ADD_NEWEST, {"campaign_id": campaign_id, "seq": seq, "state": dumped})


def pack_state(state: CampaignState) -> bytes:
    return zlib.compress(json.dumps(state.model_dump(mode="json"), separators=(",", ":")).encode(), 6)


def unpack_state(blob: bytes) -> CampaignState:
    return CampaignState.model_validate(json.loads(zlib.decompress(blob)))


@dataclass
class Loaded:
    """A campaign as a screen needs it: the row, its game, and the state at the cursor."""

    campaign: Campaign
    game: Game
    state: CampaignState
    undo_label: Optional[Text]  # what undo would take back, None if nothing
    redo_label: Optional[Text]

    @cached_property
    def game_state(self):
        # Validated once per Loaded: a live campaign's snapshot is shared by every screen showing it,
        # and views and the frame read it several times a redraw (views must not change it).
        return self.game.State.model_validate(self.state.game)

    @property
    def cursor(self) -> int:
        return self.campaign.cursor


class KeptNewest(NamedTuple):
    """The state a Store's last apply (or undo/redo) left on a campaign, while its row is unchanged."""

    cursor: int
    updated_at: datetime  # the campaign row's time stamp then (`_instant`)
    state: CampaignState
    before: Optional[CampaignState]  # the state one action before it (after an apply), else None


@dataclass
class Applied:
    cursor: int
    label: Text
    events: list[Event]
    dice: list[RolledDie] = field(default_factory=list)
    # What a live campaign (companion.live) needs to follow without reading the save again:
    state: Optional[CampaignState] = None  # the state at the new cursor
    headline: str = ""
    status: str = ""
    line: Optional["HistoryLine"] = None  # the new log row in words (apply only)
    game_state: Any = None  # `state.game` validated (the store needed it for the headline)


@dataclass(frozen=True)
class HistoryLine:
    """One log row as the history shows it: words and dice, never the state (reads stay small)."""

    seq: int
    label: Any  # words (a Msg, or a str): read from the save's JSON by __post_init__
    context: Any
    events: list
    dice: list
    created_at: Optional[datetime] = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "label", as_text(self.label))
        object.__setattr__(self, "context", as_text(self.context))


class KeptCatalog:
    """The catalog's rows by kind, as last read (companion.catalog.entries). `generation` counts the
    writes since the store opened, so that a read a write overtook isn't kept."""

    def __init__(self) -> None:
        self.rows: dict[str, tuple] = {}
        self.generation = 0
        self._guard = threading.Lock()

    def keep(self, kind: str, rows: tuple, read_at: int) -> None:
        """Keep rows read while the generation was `read_at`, unless a write has come since."""
        with self._guard:
            if self.generation == read_at:
                self.rows[kind] = rows

    def forget(self) -> None:
        """A write committed (or failed): every kind is read again."""
        with self._guard:
            self.generation += 1
            self.rows = {}


class Store:
    """All reads and writes of campaigns. One transaction per call."""

    def __init__(self, db: Database, *, on_change: Optional[Callable[[int, int], None]] = None):
        self.db = db
        self.on_change = on_change  # (campaign_id, cursor) after every committed change
        self._locks: dict[int, threading.Lock] = {}
        self._locks_guard = threading.Lock()
        # The state this store's last apply (or undo/redo) left, per campaign. The next action on that
        # campaign starts from it instead of reading and validating the row again, and an undo of
        # that action lands on the state before without replaying up to SNAPSHOT_EVERY actions, as
        # long as the campaign row is still the one that was left (same cursor and time stamp).
        self._newest: dict[int, KeptNewest] = {}
        self.catalog_kept = KeptCatalog()  # the catalog's rows as last read (companion.catalog.entries)

    def forget(self) -> None:
        """Drop what this store remembers (the save was replaced under it: a restore)."""
        self._newest.clear()
        self.catalog_kept.forget()

    def _lock(self, campaign_id: int) -> threading.Lock:
        with self._locks_guard:
            return self._locks.setdefault(campaign_id, threading.Lock())

    def _changed(self, campaign_id: int, cursor: int) -> None:
        if self.on_change:
            self.on_change(campaign_id, cursor)

    # --- campaigns -------------------------------------------------------------------------------

    def create(self, game_key: str, name: str, settings: Optional[dict] = None, *, seed: Optional[int] = None) -> int:
        if not is_known(game_key):
            raise InputError(Msg("Unknown game {game}.", game=repr(game_key)))
        game = get_game(game_key)
        name = clean_name(name)
        parsed = parse_settings(game, settings or {})
        try:
            start = game.new_state(parsed)
        except ValidationError as exc:
            raise InputError(Msg("Settings refused — {problems}.", problems=format_errors(exc, game.Settings))) from exc
        state = CampaignState(game=start.model_dump(mode="json"))
        with self.db.session() as s:
            campaign = Campaign(
                game=game_key,
                name=name,
                seed=seed if seed is not None else new_seed(),
                settings=parsed.model_dump(mode="json"),
                headline=headline_and_status(game, start)[0],
                status=headline_and_status(game, start)[1],
            )
            s.add(campaign)
            s.flush()
            s.add(ActionRow(campaign_id=campaign.id, seq=0, action={}, snapshot=pack_state(state),
                            label=SETUP_LABEL, events=[created_event(name).model_dump(mode="json")]))
            s.add(NewestState(campaign_id=campaign.id, seq=0, state=state.model_dump(mode="json")))
            return campaign.id

    def list_campaigns(self) -> list[Campaign]:
        with self.db.read() as s:
            return list(s.exec(select(Campaign).where(VISIBLE).order_by(Campaign.updated_at.desc(), Campaign.id.desc())))

    def get(self, campaign_id: int) -> Campaign:
        with self.db.read() as s:
            return self._campaign(s, campaign_id)

    def rename(self, campaign_id: int, name: str) -> None:
        name = clean_name(name)
        with self.db.session() as s:
            campaign = self._campaign(s, campaign_id)
            campaign.name = name
            s.add(campaign)
        self._changed(campaign_id, campaign.cursor)

    def delete(self, campaign_id: int) -> None:
        self._newest.pop(campaign_id, None)
        with self.db.session() as s:
            campaign = self._campaign(s, campaign_id)
            s.exec(delete(ActionRow).where(ActionRow.campaign_id == campaign_id))
            s.exec(delete(NewestState).where(NewestState.campaign_id == campaign_id))
            s.delete(campaign)
        self._changed(campaign_id, -1)

    def duplicate(self, campaign_id: int, name: Optional[str] = None) -> int:
        """A copy with the whole log (and the same seed, so its dice continue the same way), named in
        the language of the phone that copies it ("Friday (copy)")."""
        with self.db.session() as s:
            source = self._campaign(s, campaign_id)
            copy = Campaign(
                game=source.game, name=clean_name(name or _("{name} (copy)", name=source.name)[:NAME_MAX]),
                seed=source.seed, settings=source.settings, cursor=source.cursor, head=source.head,
                status=source.status, headline=source.headline,
            )
            s.add(copy)
            s.flush()
            rows = s.exec(select(ActionRow).where(ActionRow.campaign_id == campaign_id).order_by(ActionRow.seq))
            for row in rows:
                s.add(ActionRow(campaign_id=copy.id, seq=row.seq, action=row.action, dice=row.dice,
                                events=row.events, state=row.state, snapshot=row.snapshot, label=row.label,
                                context=row.context,
                                created_at=row.created_at))
            newest = s.get(NewestState, campaign_id)
            if newest is not None:
                s.add(NewestState(campaign_id=copy.id, seq=newest.seq, state=newest.state))
            copy_id, cursor = copy.id, copy.cursor
        self._changed(copy_id, cursor)  # every home screen lists the copy at once
        return copy_id

    # --- imports: a long log written in short transactions, under a hidden campaign -------------
    # Each of these is a background write (Database.session): it lets this process's taps, waiting
    # or about to begin, have SQLite's write lock first, so a tap waits for one chunk at most.

    def begin_import(self, campaign: Campaign) -> int:
        """Add `campaign` hidden (`importing`: no list shows it, nothing opens it) until
        `finish_import`; its log goes in with `import_rows`. Returns its id."""
        campaign.importing = True
        with self.db.session(background=True) as s:
            s.add(campaign)
            s.flush()
            return campaign.id

    def import_rows(self, rows: list[dict]) -> None:
        """Log rows of a hidden campaign (the `action_log` columns), in one short transaction."""
        with self.db.session(background=True) as s:
            s.connection().execute(_ADD_ROW, rows)

    def finish_import(self, campaign_id: int, head: int, newest: CampaignState) -> None:
        """The last transaction of an import: the newest state kept, and the campaign shown whole."""
        with self.db.session(background=True) as s:
            conn = s.connection()
            keep_newest(conn, campaign_id, head, newest)
            shown = conn.execute(update(CAMPAIGNS).where(CAMPAIGNS.c.id == campaign_id, CAMPAIGNS.c.importing == true())
                                 .values(importing=False, updated_at=datetime.now(timezone.utc))).rowcount
            if shown != 1:  # swept away meanwhile (a restore): nothing of it is left to show
                raise NotFound(not_found(campaign_id))
            cursor = conn.execute(select(CAMPAIGNS.c.cursor).where(CAMPAIGNS.c.id == campaign_id)).scalar_one()
        self._changed(campaign_id, cursor)

    def drop_import(self, campaign_id: int, *, chunk: int = 2000) -> None:
        """Delete a hidden campaign and what was written of it, `chunk` rows a transaction (a
        campaign already shown is left alone)."""
        while True:
            with self.db.session(background=True) as s:
                conn = s.connection()
                hidden = conn.execute(select(CAMPAIGNS.c.id).where(CAMPAIGNS.c.id == campaign_id,
                                                                   CAMPAIGNS.c.importing == true())).first()
                if hidden is None:
                    return
                ids = conn.execute(select(LOG.c.id).where(LOG.c.campaign_id == campaign_id).limit(chunk)).scalars().all()
                if ids:
                    conn.execute(delete(LOG).where(LOG.c.id.in_(ids)))
                    continue
                conn.execute(delete(NEWEST).where(NEWEST.c.campaign_id == campaign_id))
                conn.execute(delete(CAMPAIGNS).where(CAMPAIGNS.c.id == campaign_id))
                return

    def sweep_imports(self) -> int:
        """Delete every hidden campaign: imports a crash (or a restore) stopped halfway. Only while no
        import runs: at start, and after a restore. Returns how many."""
        with self.db.read() as s:
            stopped = list(s.exec(select(Campaign.id).where(Campaign.importing == true())))
        for campaign_id in stopped:
            self.drop_import(campaign_id)
        return len(stopped)

    # --- playing ---------------------------------------------------------------------------------

    def load(self, campaign_id: int) -> Loaded:
        with self.db.read() as s:
            campaign = self._campaign(s, campaign_id)
            rows = {
                r.seq: r
                for r in s.exec(
                    select(ActionRow).where(
                        ActionRow.campaign_id == campaign_id,
                        ActionRow.seq.in_([campaign.cursor, campaign.cursor + 1]),
                    )
                )
            }
            current = rows.get(campaign.cursor)
            if current is None:  # a save changed by another program, or damaged: words, not a KeyError
                last = s.exec(select(func.max(ActionRow.seq)).where(ActionRow.campaign_id == campaign_id)).one()
                raise DatabaseError(Msg("The campaign “{name}” is damaged: it is set at action {cursor}, but its log "
                                        "ends at action {last}. Restore a backup (Settings → Backups), or delete it.",
                                        name=campaign.name, cursor=str(campaign.cursor),
                                        last=str(last if last is not None else 0)))
            nxt = rows.get(campaign.cursor + 1) if campaign.cursor < campaign.head else None
            game = get_game(campaign.game)
            return Loaded(
                campaign=campaign,
                game=game,
                state=self._state_at(s, game, current),
                undo_label=as_text(current.label) if campaign.cursor > 0 else None,
                redo_label=as_text(nxt.label) if nxt else None,
            )

    def apply(self, campaign_id: int, action: Any, *, expected_cursor: int, entered: Optional[list[int]] = None) -> Applied:
        """Apply one action made against `expected_cursor`. Raises StaleAction, RuleError, InputError."""
        with self._lock(campaign_id), self.db.session() as s:
            conn = s.connection()
            campaign = self._campaign_row(conn, campaign_id)
            self._check_cursor(campaign, expected_cursor)
            game = get_game(campaign.game)
            if isinstance(action, dict):
                action = parse_action(game, action)
            newest = self._kept_newest(campaign_id, campaign)
            if newest is not None:
                current, state = None, newest.state  # the row this store wrote last: it holds its state
            else:
                current = s.exec(select(ActionRow).where(ActionRow.campaign_id == campaign_id,
                                                         ActionRow.seq == campaign.cursor)).one()
                state = self._state_at(s, game, current)
            seq = campaign.cursor + 1
            if entered and not state.physical_dice and not isinstance(action, TrayRoll):
                raise InputError(Msg("The app rolls this campaign's dice: turn on “I roll physical dice” to enter "
                                     "your own (the dice tray takes them either way). Nothing was changed."))
            dice = (PhysicalDice(list(entered or [])) if state.physical_dice
                    else SeededDice(campaign.seed, seq, entered=list(entered or [])))
            try:
                done = step(game, state, action, dice)
            except ValidationError as exc:
                raise InputError(format_errors(exc, game.Action)) from exc
            if isinstance(dice, SeededDice) and dice.unused_entries():
                raise InputError(NMsg("You entered {entered} dice but this action rolls {n} die; nothing was changed.",
                                      "You entered {entered} dice but this action rolls {n} dice; nothing was changed.",
                                      len(dice.rolled), entered=len(entered)))
            new_state, events = done.state, done.events
            if campaign.head >= seq:  # a new action after an undo drops the undone tail
                conn.execute(_DROP_TAIL, {"cid": campaign_id, "from_seq": seq})
            # A row is written once, with a compressed snapshot every few rows; the newest state is
            # kept apart (NewestState). Only a save from before 0004 has its newest state on its row:
            # it is cleared here, and kept as a snapshot where it must be.
            if current is not None and current.state is not None:
                keep = current.snapshot
                if keep is None and (current.seq % SNAPSHOT_EVERY == 0 or self._written_before_snapshots(s, current)):
                    keep = pack_state(state)
                conn.execute(update(LOG).where(LOG.c.id == current.id).values(state=None, snapshot=keep))
            label, context = logged_words(game, state, action, new_state)
            line_events, line_dice = [e.model_dump(mode="json") for e in events], [d.to_json() for d in done.dice]
            now = datetime.now(timezone.utc)
            conn.execute(_ADD_ROW, {
                "campaign_id": campaign_id, "seq": seq, "action": dump_action(game, action), "dice": line_dice,
                "events": line_events, "label": stored_text(label), "context": stored_text(context), "created_at": now,
                "snapshot": pack_state(new_state) if seq % SNAPSHOT_EVERY == 0 else None, "state": None,
            })
            keep_newest(conn, campaign_id, seq, new_state)
            game_state = game.State.model_validate(new_state.game)
            headline, status = headline_and_status(game, game_state)
            conn.execute(_MOVE_CAMPAIGN, {"cid": campaign_id, "to_cursor": seq, "to_head": seq, "to_headline": headline,
                                          "to_status": status, "at": now})
            result = Applied(cursor=seq, label=label, events=events, dice=done.dice, state=new_state,
                             headline=headline, status=status,
                             line=HistoryLine(seq, label, context, line_events, line_dice, now),
                             game_state=game_state)
        # committed: the next action on this campaign may start from here
        self._newest[campaign_id] = KeptNewest(seq, _instant(now), new_state, before=state)
        self._changed(campaign_id, seq)
        return result

    def undo(self, campaign_id: int, *, expected_cursor: int) -> Applied:
        return self._move(campaign_id, expected_cursor, -1)

    def redo(self, campaign_id: int, *, expected_cursor: int) -> Applied:
        return self._move(campaign_id, expected_cursor, +1)

    def _move(self, campaign_id: int, expected_cursor: int, delta: int) -> Applied:
        with self._lock(campaign_id), self.db.session() as s:
            conn = s.connection()
            campaign = self._campaign_row(conn, campaign_id)
            newest = self._kept_newest(campaign_id, campaign)
            self._newest.pop(campaign_id, None)
            self._check_cursor(campaign, expected_cursor)
            target = campaign.cursor + delta
            if target < 0 or delta < 0 and campaign.cursor == 0:
                raise RuleError(Msg("Nothing to undo."))
            if target > campaign.head:
                raise RuleError(Msg("Nothing to redo."))
            moved_label = conn.execute(_READ_LABEL, {"cid": campaign_id, "at_seq": max(campaign.cursor, target)}).scalar_one()
            game = get_game(campaign.game)
            if delta < 0 and newest is not None and newest.before is not None:  # the undo of the last action made here
                # (that apply wrote its row without a state and cleared the one it started from)
                state, tidy = newest.before, False
            else:
                landed = s.exec(select(ActionRow).where(ActionRow.campaign_id == campaign_id,
                                                        ActionRow.seq == target)).one()
                state, tidy = self._state_at(s, game, landed), landed.state is not None
            game_state = game.State.model_validate(state.game)
            headline, status = headline_and_status(game, game_state)
            now = datetime.now(timezone.utc)
            conn.execute(_MOVE_CAMPAIGN, {"cid": campaign_id, "to_cursor": target, "to_head": campaign.head,
                                          "to_headline": headline, "to_status": status, "at": now})
            label = as_text(moved_label)
            said = Msg("Undid: {action}.", action=label) if delta < 0 else Msg("Redid: {action}.", action=label)
            result = Applied(cursor=target, label=label,
                             events=[event("undo" if delta < 0 else "redo", said, label=moved_label)],
                             state=state, headline=headline, status=status, game_state=game_state)
        if not tidy:  # the next action starts from here (a row of an older save holding its state: apply tidies it)
            self._newest[campaign_id] = KeptNewest(target, _instant(now), state, before=None)
        self._changed(campaign_id, target)
        return result

    def history(self, campaign_id: int, *, limit: int = 200) -> list[ActionRow]:
        """The actions in effect, newest first (the undone tail is not history). A row's label and
        context are read back as they were made (`i18n.as_text`: a Msg, said in each phone's language)."""
        with self.db.read() as s:
            campaign = self._campaign(s, campaign_id)
            rows = list(s.exec(
                select(ActionRow)
                .where(ActionRow.campaign_id == campaign_id, ActionRow.seq <= campaign.cursor, ActionRow.seq > 0)
                .order_by(ActionRow.seq.desc())
                .limit(limit)
            ))
        for row in rows:  # the session is closed: the rows are copies, nothing is written back
            row.label, row.context = as_text(row.label), as_text(row.context)
        return rows

    def lines(self, campaign_id: int) -> list[HistoryLine]:
        """Every row after setup (the undone tail too), oldest first, without their states."""
        with self.db.read() as s:
            self._campaign(s, campaign_id)
            rows = s.exec(select(ActionRow.seq, ActionRow.label, ActionRow.context, ActionRow.events, ActionRow.dice,
                                 ActionRow.created_at)
                          .where(ActionRow.campaign_id == campaign_id, ActionRow.seq > 0).order_by(ActionRow.seq))
            return [HistoryLine(*row) for row in rows]

    def log_rows(self, campaign_id: int) -> list[ActionRow]:
        """Every row, oldest first, the newest with its state (as an export or a replay reads a log;
        the save keeps that state apart, in NewestState)."""
        with self.db.read() as s:
            rows = list(s.exec(select(ActionRow).where(ActionRow.campaign_id == campaign_id).order_by(ActionRow.seq)))
            newest = s.get(NewestState, campaign_id)
        # (the session is closed: the rows are detached copies, what is filled in is never written back)
        if newest is not None and rows and rows[-1].seq == newest.seq:
            rows[-1].state = newest.state
        return rows

    def count(self) -> int:
        with self.db.read() as s:
            return s.exec(select(func.count()).select_from(Campaign).where(VISIBLE)).one()

    def state_at(self, campaign_id: int, seq: int) -> CampaignState:
        """The campaign's state after action `seq` (replayed from the nearest kept state)."""
        with self.db.read() as s:
            campaign = self._campaign(s, campaign_id)
            row = s.exec(select(ActionRow).where(ActionRow.campaign_id == campaign_id, ActionRow.seq == seq)).one()
            return self._state_at(s, get_game(campaign.game), row)

    # --- helpers ---------------------------------------------------------------------------------

    @staticmethod
    def _written_before_snapshots(s, row: ActionRow) -> bool:
        """A row of a save made before migration 0003 (every row kept its state). Its state is kept
        as a snapshot when it stops being the newest: it may come from rules that have changed since,
        so it can't always be replayed from the row before it."""
        return row.seq > 0 and s.exec(select(ActionRow.id).where(
            ActionRow.campaign_id == row.campaign_id, ActionRow.seq == row.seq - 1,
            ActionRow.state.is_not(None))).first() is not None

    @staticmethod
    def _state_at(s, game: Game, row: ActionRow) -> CampaignState:
        """The state after `row`: kept whole on the row, or replayed from the nearest kept one before
        it through the pure rules with each action's recorded dice (at most SNAPSHOT_EVERY - 1)."""
        newest = s.get(NewestState, row.campaign_id)
        if newest is not None and newest.seq == row.seq:
            return CampaignState.model_validate(newest.state)
        if row.state is not None:
            return CampaignState.model_validate(row.state)
        if row.snapshot is not None:
            return unpack_state(row.snapshot)
        base = s.exec(select(ActionRow).where(
            ActionRow.campaign_id == row.campaign_id, ActionRow.seq < row.seq,
            or_(ActionRow.state.is_not(None), ActionRow.snapshot.is_not(None)),
        ).order_by(ActionRow.seq.desc()).limit(1)).one()
        state = CampaignState.model_validate(base.state) if base.state is not None else unpack_state(base.snapshot)
        between = s.exec(select(ActionRow.action, ActionRow.dice).where(
            ActionRow.campaign_id == row.campaign_id, ActionRow.seq > base.seq, ActionRow.seq <= row.seq,
        ).order_by(ActionRow.seq))
        for action, dice in between:
            recorded = RecordedDice([RolledDie.from_json(d) for d in dice])
            state = step(game, state, parse_action(game, action), recorded).state
        return state


    @staticmethod
    def _campaign(s, campaign_id: int) -> Campaign:
        campaign = s.exec(select(Campaign).where(Campaign.id == campaign_id, VISIBLE)).first()
        if campaign is None:
            raise NotFound(not_found(campaign_id))
        return campaign

    def _kept_newest(self, campaign_id: int, campaign) -> Optional[KeptNewest]:
        """What `_newest` keeps of the campaign, if its row is still as this store left it."""
        newest = self._newest.get(campaign_id)
        if newest is not None and (newest.cursor, newest.updated_at) == (campaign.cursor, _instant(campaign.updated_at)):
            return newest
        return None

    @staticmethod
    def _campaign_row(conn, campaign_id: int):
        """What an action, an undo or a redo reads of a campaign's row (a Core row, for update)."""
        row = conn.execute(_READ_CAMPAIGN, {"cid": campaign_id}).first()
        if row is None:
            raise NotFound(not_found(campaign_id))
        return row

    @staticmethod
    def _check_cursor(campaign, expected: int) -> None:  # (a Campaign, or a row of _READ_CAMPAIGN)
        if campaign.cursor != expected:
            raise StaleAction(Msg("Another screen acted first; the table has been refreshed. Check and try again."))


def headline_and_status(game: Game, game_state: Any) -> tuple[str, str]:
    """A campaign row's headline and status as the save keeps them (`i18n.as_text` reads them back)."""
    return (stored_text(game.headline(game_state), HEADLINE_MAX),
            stored_text(game.outcome(game_state) or IN_PROGRESS, STATUS_MAX))


HEADLINE_MAX, STATUS_MAX = 600, 400  # the campaign table's columns (migration 0006)
IN_PROGRESS = N_("In progress")  # a campaign's status while its game goes on (each phone says it in its language)
SETUP_LABEL = N_("campaign created")  # the label of a campaign's first row (seq 0: never undone, never listed)


def created_event(name: str) -> Event:
    """The event of a campaign's first row."""
    return event("created", Msg("Campaign “{name}” created.", name=name), name=name)


def not_found(campaign_id: int) -> Msg:
    return Msg("Campaign {number} does not exist (it may have been deleted).", number=str(campaign_id))


def reason(exc: BaseException) -> Text:
    """What a refusal says: its Msg (said in each phone's language) or its words."""
    said = exc.args[0] if len(exc.args) == 1 else None
    return said if isinstance(said, Msg) else str(exc)


def _instant(moment: Optional[datetime]) -> Optional[datetime]:
    """A time stamp as the save gives it back (SQLite keeps no time zone): naive UTC."""
    if moment is not None and moment.tzinfo is not None:
        moment = moment.astimezone(timezone.utc).replace(tzinfo=None)
    return moment


# --- replay ------------------------------------------------------------------------------------


@dataclass
class ReplayReport:
    checked: int
    mismatches: list[Msg]  # what differs, in words (said in each phone's language)
    events: dict[int, list[Event]] = field(default_factory=dict)  # seq → what the rules said happened
    labels: dict[int, tuple[Text, Text]] = field(default_factory=dict)  # seq → (label, context), from the rules
    states: dict[int, CampaignState] = field(default_factory=dict)  # the states asked for with `keep`

    @property
    def ok(self) -> bool:
        return not self.mismatches


def _kept_state(entry: dict) -> Optional[dict]:
    """The state a log entry kept, if any: as JSON, or in its compressed snapshot."""
    if entry.get("state") is not None:
        return entry["state"]
    if entry.get("snapshot"):
        return unpack_state(entry["snapshot"]).model_dump(mode="json")
    return None


def _normal(game: Game, recorded: Any) -> Any:
    """A recorded campaign state as today's code writes it (older saves lack the newer fields,
    which take their defaults)."""
    try:
        state = CampaignState.model_validate(recorded)
        game_state = game.State.model_validate(state.game).model_dump(mode="json")
        return state.model_copy(update={"game": game_state}).model_dump(mode="json")
    except ValidationError:
        return recorded


def _as_english(value: Any) -> Any:
    """A state's JSON with its words in English: a save made before a game spoke languages holds an
    English sentence where today's rules keep the message (its id and values); both read the same."""
    if isinstance(value, dict):
        if "msgid" in value:
            return as_text(value).english
        return {k: _as_english(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_as_english(v) for v in value]
    if isinstance(value, str) and value.startswith('{"msgid":'):
        words = as_text(value)
        return words.english if isinstance(words, Msg) else words
    return value


def _entered_refused(state: CampaignState, kind: Optional[str], recorded: list[RolledDie], entry: dict,
                     physical_dice_an_action: bool) -> bool:
    """Whether a log entry's dice marked as the table's can't be taken as entered. The table rolls
    where the replayed log has it rolling (physical dice switched on); the dice tray takes its dice
    either way. Before physical dice were an action (saves of the first version, which kept a state
    on every row), the table could enter a die on any action: such a die stands where the log has
    never switched physical dice and the entry holds the state the original save recorded after it
    (the replay then compares it). A format version or a flag in the file decides nothing."""
    if state.physical_dice or kind == "tray_roll" or not any(d.physical for d in recorded):
        return False
    return physical_dice_an_action or _kept_state(entry) is None


def dice_difference(seq: int, recorded: list[RolledDie], rolled: list[RolledDie], *, seeded: bool) -> Msg:
    """Which die of an action differs between the log and its replay, in words: the first one."""
    if len(recorded) != len(rolled):
        return Msg("action {seq}: the log records {recorded} dice, the rules rolled {rolled}", seq=str(seq),
                   recorded=str(len(recorded)), rolled=str(len(rolled)))
    number, was, now = next((i, a, b) for i, (a, b) in enumerate(zip(recorded, rolled), start=1) if a != b)
    if was.sides != now.sides:
        return Msg("action {seq}, die {number}: the log has a d{recorded}, the rules rolled a d{rolled}", seq=str(seq),
                   number=str(number), recorded=str(was.sides), rolled=str(now.sides))
    if was.physical != now.physical:
        return (Msg("action {seq}, die {number}: the log marks the app's die as rolled at the table", seq=str(seq),
                    number=str(number)) if was.physical else
                Msg("action {seq}, die {number}: the log marks a die the table rolled as the app's", seq=str(seq),
                    number=str(number)))
    if seeded and not now.physical:
        return Msg("action {seq}, die {number}: the log has {recorded}, but the campaign's seed rolls {rolled} (the "
                   "file was changed)", seq=str(seq), number=str(number), recorded=str(was.value), rolled=str(now.value))
    return Msg("action {seq}, die {number}: the log has {recorded}, the replay used {rolled}", seq=str(seq),
               number=str(number), recorded=str(was.value), rolled=str(now.value))


REPLAY_REPORT_EVERY = 25  # actions between a replay's progress reports (long work steps aside for taps at each)


def replay(game: Game, settings: dict, entries: list[dict], *, seed: Optional[int] = None,
           keep: Callable[[int], bool] = lambda seq: False,
           progress: Optional[Callable[[int, int], None]] = None) -> ReplayReport:
    """Rebuild a campaign from its log (seq, action, dice, state) and compare every state.

    Each action is re-applied through the pure rules with the dice recorded for it. Given the
    campaign's `seed`, the app's dice are rolled again from it instead, and a recorded die the seed
    doesn't give is a mismatch (a log can't be edited to better dice); dice the table entered are
    taken as entered where the log itself has the table rolling (see `_entered_refused`). Events,
    labels and contexts are rebuilt from the rules (see the report). Nothing a file says about
    itself (its format version, a flag) changes what is checked: only its log does.
    `progress(done, total)` is told every REPLAY_REPORT_EVERY actions (it may raise to stop the replay)."""
    mismatches: list[Msg] = []
    events: dict[int, list[Event]] = {}
    labels: dict[int, tuple[Text, Text]] = {}
    ordered = sorted(entries, key=lambda e: e["seq"])
    if not ordered or ordered[0]["seq"] != 0:
        return ReplayReport(0, [Msg("the log has no setup entry (seq 0)")])
    start = CampaignState(game=game.new_state(parse_settings(game, settings)).model_dump(mode="json"))
    kept = _kept_state(ordered[0])
    if kept is not None and _as_english(start.model_dump(mode="json")) != _as_english(_normal(game, kept)):
        mismatches.append(Msg("the starting state differs from what these settings give"))
    state = CampaignState.model_validate(kept) if kept is not None else start
    states: dict[int, CampaignState] = {0: state} if keep(0) else {}
    physical_dice_an_action = False  # the log has switched physical dice on or off (or given dice) so far
    for expected_seq, entry in enumerate(ordered[1:], start=1):
        seq = entry["seq"]
        if progress is not None and seq % REPLAY_REPORT_EVERY == 0:
            progress(seq, len(ordered) - 1)
        if seq != expected_seq:
            mismatches.append(Msg("action {seq}: expected action {expected} (the log has a gap)", seq=str(seq),
                                  expected=str(expected_seq)))
            break
        recorded = [RolledDie.from_json(d) for d in entry.get("dice", [])]
        kind = (entry.get("action") or {}).get("kind")
        physical_dice_an_action = physical_dice_an_action or kind in ("physical_dice", "dice")
        if seed is not None and _entered_refused(state, kind, recorded, entry, physical_dice_an_action):
            mismatches.append(Msg("action {seq}: a die is marked as rolled at the table, but the log has the app rolling "
                                  "this campaign's dice at that point (its “I roll physical dice” is off)", seq=str(seq)))
            break
        dice = RecordedDice(recorded)
        if seed is not None and not state.physical_dice:
            dice = SeededDice(seed, seq, entered=[d.value for d in recorded if d.physical])
        try:
            action = parse_action(game, entry["action"])
            done = step(game, state, action, dice)
        except (RuleError, InputError, ReplayMismatch, ValidationError) as exc:
            mismatches.append(Msg("action {seq}: the action can't be replayed ({problem})", seq=str(seq), problem=reason(exc)))
            break
        events[seq] = done.events
        labels[seq] = logged_words(game, state, action, done.state)
        state = done.state
        if [d.to_json() for d in done.dice] != [d.to_json() for d in recorded]:
            mismatches.append(dice_difference(seq, recorded, done.dice, seeded=seed is not None))
        kept = _kept_state(entry)  # a log keeps only some states (see SNAPSHOT_EVERY)
        if kept is not None and _as_english(state.model_dump(mode="json")) != _as_english(_normal(game, kept)):
            mismatches.append(Msg("action {seq}: the replayed state differs from the recorded one", seq=str(seq)))
            state = CampaignState.model_validate(kept)
        if keep(seq):
            states[seq] = state
    return ReplayReport(len(ordered) - 1, mismatches, events, labels, states)
