"""A settings form drawn from a pydantic model: the game's Settings fields, defaults and ranges
become inputs; `collect()` returns a dict the model validates (errors are shown by the caller)."""

from __future__ import annotations

import json
import typing
from enum import Enum
from typing import Any, Literal, Optional

import flet as ft
from pydantic import BaseModel
from pydantic.fields import FieldInfo

from companion.games.base import InputError
from companion.i18n import Msg, _


def _bounds(info: FieldInfo) -> tuple[Any, Any]:
    low = high = None
    for meta in info.metadata:
        low = getattr(meta, "ge", low) if getattr(meta, "ge", None) is not None else low
        high = getattr(meta, "le", high) if getattr(meta, "le", None) is not None else high
    return low, high


def _label(name: str, info: FieldInfo) -> str:
    # A game marks its field descriptions with N_() so they reach the catalog; they are said here.
    return _(info.description or info.title or name.replace("_", " ").capitalize())


def _choices(annotation) -> list[str] | None:
    origin = typing.get_origin(annotation)
    if origin is Literal:
        return [str(a) for a in typing.get_args(annotation)]
    if isinstance(annotation, type) and issubclass(annotation, Enum):
        return [str(m.value) for m in annotation]
    if origin in (typing.Union, getattr(__import__("types"), "UnionType", None)):
        inner = [a for a in typing.get_args(annotation) if a is not type(None)]
        if len(inner) == 1:
            return _choices(inner[0])
    return None


class SettingsForm:
    def __init__(self, model: type[BaseModel], values: dict | None = None, *, read_only: bool = False):
        self.model = model
        self.inputs: dict[str, tuple[str, ft.Control]] = {}
        values = values or {}
        for name, info in model.model_fields.items():
            default = values.get(name, info.get_default(call_default_factory=True))
            self.inputs[name] = self._input(name, info, default, read_only)

    def _input(self, name: str, info: FieldInfo, default: Any, read_only: bool) -> tuple[str, ft.Control]:
        ann = info.annotation
        label = _label(name, info)
        choices = _choices(ann)
        if ann is bool:
            return "bool", ft.Switch(label=label, value=bool(default), disabled=read_only)
        if choices:
            return "choice", ft.Dropdown(label=label, value=str(default.value if isinstance(default, Enum) else default),
                                         options=[ft.DropdownOption(key=c, text=_(c.replace("_", " "))) for c in choices],
                                         disabled=read_only, expand=True)
        if ann is int:
            low, high = _bounds(info)
            hint = f"{low}–{high}" if low is not None and high is not None else ""
            return "int", ft.TextField(label=label, value=str(default), helper=hint or None,
                                       keyboard_type=ft.KeyboardType.NUMBER, read_only=read_only)
        if ann is str:
            return "str", ft.TextField(label=label, value=str(default or ""), read_only=read_only)
        if typing.get_origin(ann) is list and typing.get_args(ann) and typing.get_args(ann)[0] is str:
            return "lines", ft.TextField(label=_("{field} (one per line)", field=label), value="\n".join(default or []),
                                         multiline=True, min_lines=2, read_only=read_only)
        # Anything richer (a table, a list of records) is edited as JSON until its game has its own form.
        dumped = json.dumps(_plain(default), ensure_ascii=False)
        return "json", ft.TextField(label=_("{field} (JSON)", field=label), value=dumped, multiline=True, read_only=read_only)

    def controls(self) -> list[ft.Control]:
        return [c for _kind, c in self.inputs.values()]

    def collect(self) -> dict:
        out: dict[str, Any] = {}
        for name, (kind, control) in self.inputs.items():
            value = control.value
            if kind == "int":
                text = (value or "").strip()
                try:
                    out[name] = int(text)
                except ValueError:
                    raise InputError(_("{field}: a whole number, please (got “{got}”).", field=_label(name, self.model.model_fields[name]),
                                         got=text[:20])) from None
            elif kind == "lines":
                out[name] = [line.strip() for line in (value or "").splitlines() if line.strip()]
            elif kind == "json":
                from companion.exchange import ImportRefused, load_json

                field = _label(name, self.model.model_fields[name])
                try:  # nesting checked before parsing: never a RecursionError
                    out[name] = load_json(value or "null")
                except ImportRefused as exc:
                    raise InputError(Msg("{field}: {problem}", field=field, problem=exc.args[0])) from None
                except ValueError as exc:
                    raise InputError(_("{field}: not valid JSON (near character {pos}).", field=field,
                                       pos=str(getattr(exc, "pos", 0)))) from None
            else:
                out[name] = value
        return out


def _plain(value: Any) -> Any:
    if isinstance(value, BaseModel):
        return value.model_dump(mode="json")
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, Enum):
        return value.value
    return value


def whole_number(field, label: str, default: Optional[int] = None) -> int:
    """A TextField's whole number (a typographic minus allowed); `default` when left empty."""
    raw = (field.value or "").strip().replace("−", "-")
    if not raw and default is not None:
        return default
    try:
        return int(raw)
    except ValueError:
        raise InputError(_("{field}: type a whole number (got “{got}”).", field=label, got=raw)) from None


def _words(value: Any) -> str:
    """A setting's value as a player reads it (no JSON): lists joined, yes/no, names unslugged."""
    value = _plain(value)
    if isinstance(value, bool):
        return _("yes") if value else _("no")
    if value is None or value == "" or value == [] or value == {}:
        return "—"
    if isinstance(value, list):
        return ", ".join(_words(v) for v in value)
    if isinstance(value, dict):
        return "; ".join(f"{str(k).replace('_', ' ')}: {_words(v)}" for k, v in value.items())
    return str(value).replace("_", " ")


def settings_summary(model: type[BaseModel], values: dict | None = None) -> list[ft.Control]:
    """A campaign's settings as plain lines to read ("Highest value: 1000"), for where they can't be
    changed any more: nothing on it looks like it could be typed into."""
    values = values or {}
    lines = []
    for name, info in model.model_fields.items():
        value = values.get(name, info.get_default(call_default_factory=True))
        lines.append(ft.Text(spans=[ft.TextSpan(f"{_label(name, info)}: ", style=ft.TextStyle(weight=ft.FontWeight.BOLD)),
                                    ft.TextSpan(_words(value))], theme_style=ft.TextThemeStyle.BODY_LARGE))
    return lines
