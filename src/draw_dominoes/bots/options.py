"""Bot options as frozen dataclasses, and the one parser from text or keywords into them."""

from __future__ import annotations

import json
import math
import re
import types
from collections.abc import Mapping
from dataclasses import MISSING, dataclass, fields
from typing import Any, Literal, TypeVar, Union, get_args, get_origin, get_type_hints

__all__ = [
    "NoOptions",
    "OptionError",
    "Options",
    "OptionsT",
    "check_options",
    "format_options",
    "limits",
    "options_of",
    "parse_options",
    "split_options",
]


class OptionError(ValueError):
    """An option a bot does not take, or a value of the wrong type or out of range."""


def limits(
    *,
    minimum: float | None = None,
    maximum: float | None = None,
    above: float | None = None,
    noun: str | None = None,
) -> dict[str, Any]:
    """A field's ``metadata``: the range its value must lie in, and what to call it in an
    error (``probability``, ``number of seconds``; by default after the field's type)."""
    return {"minimum": minimum, "maximum": maximum, "above": above, "noun": noun}


@dataclass(frozen=True)
class Options:
    """The base of every bot's options: each field is an option, typed and with its default.

    Ranges are checked here from each field's ``limits``, so that no bot checks by hand.
    """

    def __post_init__(self) -> None:
        hints = _hints(type(self))
        for f in fields(self):
            value = getattr(self, f.name)
            if not _in_range(value, f.metadata):
                raise OptionError(_wrong(f.name, hints[f.name], f.metadata, value))


@dataclass(frozen=True)
class NoOptions(Options):
    """The options of a bot that takes none."""


OptionsT = TypeVar("OptionsT", bound=Options)


def check_options(name: str, options: Mapping[str, object], allowed: set[str]) -> None:
    """Refuse options a bot does not know, naming them and the ones it does."""
    unknown = sorted(set(options) - allowed)
    if unknown:
        known = ", ".join(sorted(allowed)) or "none"
        raise OptionError(f"the {name} bot has no option {', '.join(unknown)} (it takes: {known})")


def parse_options(bot: str, kind: type[OptionsT], given: Mapping[str, object]) -> OptionsT:
    """``given`` (text as in a spec, or Python values) as the ``kind`` of options of ``bot``:
    each value converted to its field's type, then its range checked; an error names the
    bot and the key."""
    known = {f.name: f for f in fields(kind)}
    check_options(bot, given, set(known))
    hints = _hints(kind)
    values: dict[str, object] = {}
    for key, value in given.items():
        metadata = known[key].metadata
        try:
            values[key] = _convert(hints[key], value)
            fits = _in_range(values[key], metadata)
        except ValueError:
            fits = False
        if not fits:
            # The value as given, not as converted, so that the error shows what was written.
            raise OptionError(f"the {bot} bot's {_wrong(key, hints[key], metadata, value)}")
    try:
        return kind(**values)
    except OptionError as error:
        raise OptionError(f"the {bot} bot's {error}") from None


def options_of(
    bot: str, kind: type[OptionsT], given: Mapping[str, object], ready: OptionsT | None = None
) -> OptionsT:
    """A bot's options: ``ready`` (already parsed) or else ``given`` keywords, parsed."""
    if ready is None:
        return parse_options(bot, kind, given)
    if given:
        raise TypeError(f"give the {bot} bot options or keyword options, not both")
    if not isinstance(ready, kind):
        raise TypeError(f"the {bot} bot takes {kind.__name__}, not {type(ready).__name__}")
    return ready


def split_options(text: str) -> dict[str, str]:
    """``iterations=300,epsilon=0.2`` -> {"iterations": "300", "epsilon": "0.2"}; a key
    given twice keeps its last value."""
    pairs: dict[str, str] = {}
    for pair in filter(None, (p.strip() for p in text.split(","))):
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise OptionError(f"not a bot option: {pair!r} (expected KEY=VALUE)")
        pairs[key.strip()] = value.strip()
    return pairs


def format_options(options: Options) -> str:
    """The text ``split_options`` reads back into ``options``: the fields that differ from
    their defaults, as ``key=value,...``."""
    parts = []
    for f in fields(options):
        value = getattr(options, f.name)
        if f.default is MISSING or value != f.default:
            parts.append(f"{f.name}={_text_of(value)}")
    return ",".join(parts)


# ----------------------------------------------------------------- conversion


_HINTS: dict[type[Options], dict[str, Any]] = {}


def _hints(kind: type[Options]) -> dict[str, Any]:
    """The fields' types, resolved once a class (the annotations are text)."""
    hints = _HINTS.get(kind)
    if hints is None:
        hints = _HINTS[kind] = get_type_hints(kind)
    return hints


def _optional(hint: Any) -> tuple[Any, bool]:
    """The type inside ``X | None``, and whether None is allowed."""
    if get_origin(hint) in (Union, types.UnionType):
        inner = [a for a in get_args(hint) if a is not type(None)]
        if len(inner) != 1:
            raise TypeError(f"an option's type is one type or None, not {hint}")
        return inner[0], True
    return hint, False


_WHOLE = re.compile(r"[+-]?\d+")


def _convert(hint: Any, value: object) -> object:
    """``value`` as the type ``hint``; text is read as a spec spells it (JSON spellings too:
    ``true``, ``null``, ``"model"``). A ValueError when it is not one; a TypeError when
    ``hint`` is no type an option may have."""
    kind, optional = _optional(hint)
    text = value.strip() if isinstance(value, str) else None
    if optional and (value is None or text == "null"):
        return None
    if text is not None and len(text) >= 2 and text[0] == text[-1] == '"':
        text = json.loads(text)  # a JSON string: its text
        assert isinstance(text, str)
    if get_origin(kind) is Literal:
        choice = value if text is None else text
        if choice in get_args(kind):
            return choice
    elif kind is bool:
        if isinstance(value, bool):
            return value
        if text in ("true", "false"):
            return text == "true"
    elif kind is int:
        if type(value) is int:
            return value
        if text is not None and _WHOLE.fullmatch(text):
            return int(text)
    elif kind is float:
        number = value if text is None else float(text)
        if (
            isinstance(number, int | float)
            and not isinstance(number, bool)
            and math.isfinite(number)
        ):
            return float(number)
    elif kind is str:
        if text is not None:
            return text
    else:
        raise TypeError(f"an option's type is bool, int, float, str or a Literal, not {kind}")
    raise ValueError(value)


def _in_range(value: object, metadata: Mapping[str, Any]) -> bool:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return True
    low, high, above = metadata.get("minimum"), metadata.get("maximum"), metadata.get("above")
    # Written so that NaN is out of every range.
    return (
        (low is None or value >= low)
        and (high is None or value <= high)
        and (above is None or value > above)
    )


def _wrong(key: str, hint: Any, metadata: Mapping[str, Any], value: object) -> str:
    return f"{key} must be {_describe(hint, metadata)}, not {value!r}"


def _describe(hint: Any, metadata: Mapping[str, Any]) -> str:
    """What a field takes, in words: ``a positive whole number``, ``'search' or 'model'``."""
    kind, _ = _optional(hint)
    if get_origin(kind) is Literal:
        choices = [repr(c) for c in get_args(kind)]
        return " or ".join([", ".join(choices[:-1]), choices[-1]] if len(choices) > 1 else choices)
    if kind is bool:
        return "true or false"
    if kind is str:
        return "text"
    noun = metadata.get("noun") or ("whole number" if kind is int else "number")
    low, high, above = metadata.get("minimum"), metadata.get("maximum"), metadata.get("above")
    if above == 0 or (kind is int and low == 1 and high is None):
        return f"a positive {noun}"
    if above is not None:
        return f"a {noun} above {above}"
    if low is not None and high is not None:
        return f"a {noun} from {low} to {high}"
    if low is not None:
        return f"a {noun}, {low} or more"
    if high is not None:
        return f"a {noun}, {high} or less"
    return f"a {noun}"


def _text_of(value: object) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)
