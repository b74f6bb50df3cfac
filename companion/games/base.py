"""The contract every game's rules module follows, and the errors rules raise.

A rules module is pure: it takes a state, an action and a dice source and returns the next state
and a list of typed events (a kind, its data, and a sentence for people). It imports no Flet, no
database, no clock and no global random; dice come only from the `Dice` passed in.

Every game answers the same questions (see `Game`): what may be done now (`moves`), why not this
action (`why_not`, the same check `apply` makes first), and what dice an action needs
(`chance_for`: the first chance node it reaches). A roll is a *chance node*: the rules declare it
(`Chance`: how many dice, which die, who rolls, why, and the outcomes with their probabilities)
and the dice source answers it — with the campaign's seeded dice at once, or, at a table rolling
physical dice, by pausing the action until the table enters what the dice show.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Callable, Iterable, Optional, Protocol, Sequence

from pydantic import BaseModel, BeforeValidator, ConfigDict, PlainSerializer, TypeAdapter, ValidationError, model_serializer
from typing_extensions import Annotated

from companion.i18n import N_, Msg, NMsg, _, as_text, data_word


class RuleError(ValueError):
    """The action is well formed but not allowed now (an illegal move). Says why."""


class InputError(ValueError):
    """A value is out of its range or malformed. The message names the allowed range."""


class Model(BaseModel):
    """Base for states, settings and actions: strict about unknown fields, JSON round-trips."""

    model_config = ConfigDict(extra="forbid", validate_assignment=True)


# --- words for people ----------------------------------------------------------------------------


def _words_in(value: Any) -> Any:
    value = as_text(value)
    if isinstance(value, (str, Msg)):
        return value
    raise ValueError(Msg("Words must be a text or a message."))


def _words_out(value: Any) -> Any:
    return value.to_json() if isinstance(value, Msg) else value


# Words a player reads, made by the rules: a `Msg` (rendered in each phone's language when shown; kept
# in the log as its JSON) or a plain str (a name; a sentence from a save made before). Compares equal
# to its English, so `event.text == "Ann C4 → D5."` holds either way.
Words = Annotated[Any, BeforeValidator(_words_in), PlainSerializer(_words_out, when_used="json")]


# --- typed events --------------------------------------------------------------------------------


class Event(Model):
    """Something that happened: a `kind` and its `data` for code (views, history, recaps) and a
    sentence for people. Nothing reads the sentence to learn what happened: it reads the data."""

    kind: str
    text: Words
    data: dict[str, Any] = {}

    @classmethod
    def coerce(cls, value: Any) -> Event:
        """A stored event: a dict, or a plain sentence from a save made before events had kinds."""
        if isinstance(value, Event):
            return value
        if isinstance(value, str):
            return cls(kind="text", text=value)
        return cls.model_validate(value)


def event(kind: str, text: Any, **data: Any) -> Event:
    """`event("move", "Ann C4 → D5.", member="Ann", frm="C4", to="D5")`."""
    return Event(kind=kind, text=text, data=data)


def as_events(items: Iterable[Any]) -> list[Event]:
    """Events from a rules module (typed, or plain sentences: kind "text")."""
    return [Event.coerce(x) for x in items]


Events = list  # of Event (plain sentences are accepted and read as kind "text")


# --- chance nodes --------------------------------------------------------------------------------


class DieSpec(Model):
    """Which die: `sides`, and the names its faces show when they aren't numbers.

    Face value v (1..sides) shows `faces[v - 1]`. Several faces may share a name (Save the
    Singularity's d6: one Bug, two Ideas, three Progress): entering a named face records the
    lowest value with that name."""

    sides: int
    faces: Optional[tuple[str, ...]] = None
    name: str = ""

    @property
    def label(self) -> str:
        return self.name or f"d{self.sides}"

    def face_name(self, value: int) -> str:
        return self.faces[value - 1] if self.faces else str(value)

    def choices(self) -> list[tuple[str, int]]:
        """What a player taps to enter one die: (label, value), one per distinct face."""
        if not self.faces:
            return [(str(v), v) for v in range(1, self.sides + 1)]
        seen: dict[str, int] = {}
        for v, name in enumerate(self.faces, start=1):
            seen.setdefault(name, v)
        return list(seen.items())

    def probability(self, name_or_value: Any) -> Fraction:
        """Chance that one die shows this face (a value, or a face name)."""
        if isinstance(name_or_value, int) and not isinstance(name_or_value, bool):
            return Fraction(1, self.sides) if 1 <= name_or_value <= self.sides else Fraction(0)
        hits = sum(1 for v in range(1, self.sides + 1) if self.face_name(v) == name_or_value)
        return Fraction(hits, self.sides)


# The names of plain dice, for the catalog: a screen says a die's name in the phone's language ("W6").
DIE_NAMES = (N_("d2"), N_("d3"), N_("d4"), N_("d6"), N_("d8"), N_("d10"), N_("d12"), N_("d20"), N_("d100"))


def d(sides: int) -> DieSpec:
    """A plain numbered die."""
    return DieSpec(sides=sides)


D6 = d(6)


class Outcome(Model):
    """One outcome of a chance node and its exact probability ("3 or more: pass", 2/3)."""

    label: Words
    probability: float

    @property
    def percent(self) -> str:
        return percent(self.probability)


def percent(p: float, digits: int = 0) -> str:
    """The one way the app writes a probability: '67%', '<1%', '>99%'; `digits=1` where two close
    chances are compared (Save the Singularity's press-on or stop: '24.8%' against '25.1%')."""
    p = float(p)
    if p <= 0:
        return "0%"
    if p >= 1:
        return "100%"
    edge = 0.5 / 10 ** (digits + 2)
    if p < edge:
        return f"<{1 / 10 ** digits:g}%"
    if p > 1 - edge:
        return f">{100 - 1 / 10 ** digits:g}%"
    return f"{p * 100:.{digits}f}%"


class Chance(Model):
    """A roll the rules need: how many dice, which die, who rolls, why, and what can come of it.

    >>> c = Chance(count=1, die=d(6), who="Ann", why="Wolfmother's singularity check",
    ...            outcomes=[Outcome(label="3 or more passes", probability=4/6)])
    >>> c.text
    "1 d6 for Wolfmother's singularity check: 3 or more passes"
    """

    count: int
    die: DieSpec
    why: Words
    who: str = ""
    outcomes: list[Outcome] = []
    first: str = ""  # what the first die is, when one die of the roll differs ("wild": KLAW's golden die)

    @model_serializer(mode="wrap")
    def _without_empty_first(self, handler):
        # Saves and events made before `first` existed hold the same JSON as before.
        data = handler(self)
        if isinstance(data, dict) and not data.get("first"):
            data.pop("first", None)
        return data

    @property
    def text(self) -> str:
        dice = f"{self.count} {self.die.label}"
        said = "; ".join(str(o.label) for o in self.outcomes[:2])
        return f"{dice} for {self.why}" + (f": {said}" if said else "")

    def check_faces(self, faces: Sequence[int]) -> list[int]:
        """Entered faces, refused unless there are `count` of them, each on the die."""
        if len(faces) != self.count:
            raise InputError(Msg("{why}: enter {count} {die} (got {got}).", why=self.why, count=self.count,
                                 die=data_word(self.die.label), got=len(faces)))
        for f in faces:
            if isinstance(f, bool) or not isinstance(f, int) or not 1 <= f <= self.die.sides:
                raise InputError(Msg("A {die} shows 1 to {sides} (you entered {got}).", die=data_word(self.die.label),
                                     sides=self.die.sides, got=repr(f)))
        return list(faces)


def said_error(err: dict) -> Words:
    """One of pydantic's errors (`ValidationError.errors()`) in words a player reads in their own
    language: the common kinds as messages; a rule's own refusal raised in a validator as it is; the
    rest in pydantic's (English) words."""
    kind, ctx = err.get("type", ""), err.get("ctx") or {}
    if kind in ("int_type", "int_parsing", "int_from_float"):
        return Msg("must be a whole number")
    if kind in ("float_type", "float_parsing", "decimal_parsing"):
        return Msg("must be a number")
    if kind in ("bool_type", "bool_parsing"):
        return Msg("must be yes or no")
    if kind in ("string_type",):
        return Msg("must be a text")
    if kind == "missing":
        return Msg("is missing")
    if kind == "greater_than_equal":
        return Msg("must be {low} or more", low=ctx.get("ge"))
    if kind == "less_than_equal":
        return Msg("must be at most {high}", high=ctx.get("le"))
    if kind == "greater_than":
        return Msg("must be more than {low}", low=ctx.get("gt"))
    if kind == "less_than":
        return Msg("must be less than {high}", high=ctx.get("lt"))
    if kind == "string_too_long":
        return NMsg("must have at most {n} character", "must have at most {n} characters", ctx.get("max_length", 0))
    if kind == "string_too_short":
        return NMsg("must have at least {n} character", "must have at least {n} characters", ctx.get("min_length", 0))
    if kind in ("too_long", "too_short"):
        return NMsg("must have at most {n} entry", "must have at most {n} entries", ctx.get("max_length", 0)) \
            if kind == "too_long" else NMsg("must have at least {n} entry", "must have at least {n} entries",
                                             ctx.get("min_length", 0))
    if kind == "literal_error":
        return Msg("must be one of {choices}", choices=str(ctx.get("expected", "")))
    if kind == "extra_forbidden":
        return Msg("is not expected here")
    if kind in ("dict_type", "model_type", "model_attributes_type"):
        return Msg("must be a group of named values ({…})")
    if kind in ("list_type", "tuple_type", "set_type"):
        return Msg("must be a list ([…])")
    if kind in ("enum", "union_tag_invalid", "union_tag_not_found"):
        expected = ctx.get("expected") or ctx.get("expected_tags") or ""
        return Msg("must be one of {choices}", choices=str(expected)) if expected else Msg("is not one of the choices")
    if kind == "string_pattern_mismatch":
        return Msg("has characters it can't hold")
    if kind == "json_invalid":
        return Msg("is damaged or cut short (not valid JSON)")
    if kind == "none_required":
        return Msg("must be empty")
    error = ctx.get("error")
    if kind in ("value_error", "assertion_error") and isinstance(error, BaseException) and error.args \
            and isinstance(error.args[0], Msg):
        return error.args[0]  # a rule's refusal, raised inside a validator
    if kind in ("value_error", "assertion_error"):  # a validator's own sentence
        return str(err.get("msg", "")).replace("Value error, ", "").replace("Assertion failed, ", "")
    return Msg("is not a value it can take")  # the rarer kinds: pydantic's words are a developer's


def threshold_chance(target: int, sides: int = 6, *, bonus: int = 0) -> Fraction:
    """The exact chance that one die + bonus reaches `target` (the one source of it: the outcomes
    below, and Luck's reading of the checks).

    >>> threshold_chance(4), threshold_chance(4, bonus=1), threshold_chance(9), threshold_chance(1)
    (Fraction(1, 2), Fraction(2, 3), Fraction(0, 1), Fraction(1, 1))
    """
    need = target - bonus  # the face needed
    return Fraction(min(max(sides - need + 1, 0), sides), sides)


def threshold_outcomes(target: int, sides: int = 6, *, bonus: int = 0) -> list[Outcome]:
    """One die + bonus must reach `target`: the two outcomes with their exact probabilities."""
    need = target - bonus  # the face needed
    p = float(threshold_chance(target, sides, bonus=bonus))
    if need <= 1:
        label = Msg("any face passes")
    elif need > sides:
        label = Msg("no face passes")
    else:
        label = Msg("{need} or more passes", need=need) if need < sides else Msg("a {face} passes", face=sides)
    return [Outcome(label=label, probability=p), Outcome(label=Msg("fails"), probability=1 - p)]


class NeedDice(Exception):
    """Raised by a physical-dice source when the rules reach a chance node the table hasn't rolled
    yet. The store keeps the action waiting (see `companion.table.Pending`)."""

    def __init__(self, chance: Chance):
        super().__init__(chance.text)
        self.chance = chance


def asks_the_table(dice) -> bool:
    """Whether `dice` are a physical table's (each die asked of the players), not the app's seeded ones:
    a throw whose every face gives the same outcome is then not asked for (where the game says so)."""
    return bool(getattr(dice, "asks_the_table", False))


class Dice(Protocol):
    """Where rules get their dice. The log hands in a seeded or a physical (entered) source.

    `throw(chance)` returns `chance.count` faces 1..sides. `roll(6)` is a bare one-die throw for
    rules that haven't described the roll (it still pauses a physical-dice table)."""

    def throw(self, chance: Chance) -> list[int]: ...

    def roll(self, sides: int) -> int: ...


def throw(dice: Dice, count: int, why: str, *, die: Optional[DieSpec] = None, who: str = "",
          outcomes: Optional[list[Outcome]] = None) -> list[int]:
    """Declare and take a roll: `throw(dice, 2, "Luck of the Draw")` → two d6 faces."""
    if count <= 0:
        return []
    return dice.throw(Chance(count=count, die=die or D6, why=why, who=who, outcomes=outcomes or []))


def throw_one(dice: Dice, why: str, **kw: Any) -> int:
    return throw(dice, 1, why, **kw)[0]


# --- legal moves ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class FieldSpec:
    """One value a player fills in for an action template, with its allowed range or choices."""

    name: str
    label: str
    low: Optional[int] = None
    high: Optional[int] = None
    choices: tuple[Any, ...] = ()

    @property
    def hint(self) -> str:
        if self.choices:
            return ", ".join(str(c) for c in self.choices)
        if self.low is not None and self.high is not None:
            return f"{self.low}–{self.high}"
        if self.low is not None:
            return _("{low} or more", low=self.low)
        if self.high is not None:
            return _("at most {high}", high=self.high)
        return ""


@dataclass(frozen=True)
class Move:
    """One thing that may be done now: a concrete `action` ready to apply, or a template (`kind`
    and the `fields` the player fills in, ranges from the action model, narrowed by the state)."""

    kind: str
    label: str
    action: Any = None
    fields: tuple[FieldSpec, ...] = ()
    why_not: Optional[str] = None  # set on moves listed greyed out, with the reason

    @property
    def ready(self) -> bool:
        return self.action is not None


def field_specs(action_cls: type[BaseModel], **narrow: Any) -> tuple[FieldSpec, ...]:
    """The fields of an action model as FieldSpecs: ranges from its `Field(ge=…, le=…)`, labels
    from its descriptions; `narrow={"amount": (1, 5)}` or `{"target": [choices]}` applies the state.

    Every field but `kind` is listed, in the model's order."""
    specs = []
    for name, info in action_cls.model_fields.items():
        if name == "kind":
            continue
        low = high = None
        for m in info.metadata:
            low = getattr(m, "ge", low) if getattr(m, "ge", None) is not None else low
            high = getattr(m, "le", high) if getattr(m, "le", None) is not None else high
        choices: tuple = ()
        if name in narrow:
            value = narrow[name]
            if isinstance(value, tuple) and len(value) == 2:
                nl, nh = value
                low = nl if low is None else max(low, nl)
                high = nh if high is None else min(high, nh)
            else:
                choices = tuple(value)
        specs.append(FieldSpec(name=name, label=info.description or name.replace("_", " ").capitalize(),
                               low=low, high=high, choices=choices))
    return tuple(specs)


# --- the game ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Game:
    """What the app needs to know about one game. Each `companion/games/<key>/rules.py` makes one.

    - `Settings`: the campaign's settings (pydantic model with defaults and ranges, from RULES.md).
    - `State`: the whole game state, a pydantic model that serialises to JSON and back exactly.
    - `Action`: a pydantic discriminated union of the action classes (field `kind`).
    - `new_state(settings)`: the state at the start of a campaign.
    - `apply(state, action, dice)`: (new state, events). Must not mutate `state`. Raises RuleError
      or InputError, changing nothing, when the action is not allowed or out of range; raises
      NeedDice (from the dice source) when a physical-dice table still has to roll.
    - `moves(state)`: what may be done now, as `Move`s (concrete actions or templates).
    - `why_not(state, action)`: None, or the reason in words (by default: the check `apply` makes,
      run without dice).
    - `describe(action)`: a few words for the undo button and history ("interest +5"); `label(state,
      action)`, when given, says the same with the names the state knows ("attack Raven").
    - `headline(state)`: turn and phase for the title bar ("Turn 2 · Credstick").
    - `outcome(state)`: None while the game goes on, else a short result ("Won", "Lost").
    """

    key: str
    title: str  # the game's published name, the same in every language
    summary: Any  # str or Msg: a sentence on the new-campaign screen
    Settings: type[BaseModel]
    State: type[BaseModel]
    Action: Any
    new_state: Callable[[Any], BaseModel]
    apply: Callable[[Any, Any, Dice], tuple[Any, list]]
    describe: Callable[[Any], str]
    headline: Callable[[Any], str]
    outcome: Callable[[Any], Optional[str]]
    moves: Optional[Callable[[Any], list[Move]]] = None
    # (state, action) → the action in words naming what it acts on ("attack Raven"), for undo and
    # the history; games whose actions carry only ids give one. Default: `describe(action)`.
    label: Optional[Callable[[Any, Any], str]] = None
    rolls_dice: bool = True  # False: the game has no dice, so the frame hides "I roll physical dice"
    refusal: Optional[Callable[[Any, Any], Optional[str]]] = None  # a quicker check of its own, tried first

    @property
    def action_adapter(self) -> TypeAdapter:
        return _adapter(self.Action)

    def parse_action(self, data: Any) -> Any:
        return self.action_adapter.validate_python(data)

    def dump_action(self, action: Any) -> dict:
        return self.action_adapter.dump_python(action, mode="json")

    def legal_moves(self, state: Any) -> list[Move]:
        return list(self.moves(state)) if self.moves else []

    def why_not(self, state: Any, action: Any) -> Optional[str]:
        """None if `action` may be applied now, else why not — the very check `apply` makes."""
        if self.refusal is not None:
            reason = self.refusal(state, action)
            if reason:
                return reason
        try:
            self.apply(state, action, _ProbeDice())
        except NeedDice:
            return None
        except (RuleError, InputError) as exc:
            return str(exc)
        except ValidationError as exc:
            return str(said_error(exc.errors()[0]))
        return None

    def chance_for(self, state: Any, action: Any) -> Optional[Chance]:
        """The first roll `action` needs from this state (None if it rolls nothing, or is refused)."""
        try:
            self.apply(state, action, _ProbeDice())
        except NeedDice as need:
            return need.chance
        except (RuleError, InputError, ValidationError):
            return None
        return None


class _ProbeDice:
    """A source that has no dice: the first throw stops the action and tells what it needed."""

    def throw(self, chance: Chance) -> list[int]:
        raise NeedDice(chance)

    def roll(self, sides: int) -> int:
        raise NeedDice(Chance(count=1, die=d(sides), why=Msg("a roll")))


_ADAPTERS: dict[int, TypeAdapter] = {}


def _adapter(tp: Any) -> TypeAdapter:
    key = id(tp)
    if key not in _ADAPTERS:
        _ADAPTERS[key] = TypeAdapter(tp)
    return _ADAPTERS[key]


def require_range(name: Words, value: int, low: int, high: int) -> int:
    """Refuse an integer outside low..high with a message naming the allowed range."""
    if not low <= value <= high:
        raise InputError(Msg("{name} must be between {low} and {high} (got {value}).", name=name, low=low, high=high,
                             value=value))
    return value


def ceil_div(numerator: int, denominator: int) -> int:
    """Integer ceiling of numerator / denominator (never a float ceil; see RULES.md)."""
    return -(-numerator // denominator)


def roll_many(dice: Dice, count: int, sides: int = 6, why: str = "", who: str = "") -> list[int]:
    """`count` d`sides` as one declared roll (one pause at a physical-dice table)."""
    if count <= 0:
        return []
    return dice.throw(Chance(count=count, die=d(sides), why=why or f"{count} d{sides}", who=who))


def fmt_dice(values: Sequence[int]) -> str:
    return ", ".join(str(v) for v in values)
