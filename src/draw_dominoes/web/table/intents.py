"""Every intent a table understands, as typed values, and the one parse of a client's JSON."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ...actions import Action, parse_action
from .errors import UserError

__all__ = [
    "CHAT_PHRASES",
    "Act",
    "AllowHints",
    "Arrive",
    "AskHint",
    "BotMove",
    "Chat",
    "ClientIntent",
    "ConfigureSeat",
    "Continue",
    "Hello",
    "Intent",
    "Join",
    "Leave",
    "Ping",
    "Rematch",
    "Rename",
    "Resign",
    "SetVisibility",
    "Start",
    "TakeBack",
    "from_json",
    "parse",
    "to_json",
]

MAX_ACTION_TEXT = 16


# ---------------------------------------------------------------- from a client


@dataclass(frozen=True, slots=True)
class Hello:
    """A connection's new language or size (answered with a state; no table change)."""

    lang: object = None
    width: object = None
    height: object = None
    has_width: bool = False
    has_height: bool = False


@dataclass(frozen=True, slots=True)
class Ping:
    pass


@dataclass(frozen=True, slots=True)
class Act:
    action: Action


@dataclass(frozen=True, slots=True)
class Start:
    pass


@dataclass(frozen=True, slots=True)
class Continue:
    pass


@dataclass(frozen=True, slots=True)
class Rematch:
    seed: object = None
    """Only on a server started to allow it (tests): the next match's seed."""


@dataclass(frozen=True, slots=True)
class SetVisibility:
    public: bool


@dataclass(frozen=True, slots=True)
class AllowHints:
    allowed: bool


@dataclass(frozen=True, slots=True)
class AskHint:
    pass


@dataclass(frozen=True, slots=True)
class ConfigureSeat:
    seat: object
    level: object


@dataclass(frozen=True, slots=True)
class Rename:
    name: object


@dataclass(frozen=True, slots=True)
class Resign:
    """The sender gives the current match up (asked for after a confirmation)."""


@dataclass(frozen=True, slots=True)
class TakeBack:
    """The sender's last move of the round is taken back (a match against bots only)."""


CHAT_PHRASES = ("hello", "good_game", "well_played", "thanks", "oops", "one_moment")
"""Quick chat is these phrases only, translated for each reader: nothing to moderate."""


@dataclass(frozen=True, slots=True)
class Chat:
    phrase: str


ClientIntent = (
    Hello
    | Ping
    | Act
    | Start
    | Continue
    | Rematch
    | SetVisibility
    | AllowHints
    | AskHint
    | ConfigureSeat
    | Rename
    | Chat
    | Resign
    | TakeBack
)


# ---------------------------------------------------------------- from the server


@dataclass(frozen=True, slots=True)
class Join:
    """A person takes an open seat (the first, or the one asked for)."""

    name: object
    seat: object
    token_hash: str
    address: str | None


@dataclass(frozen=True, slots=True)
class Arrive:
    """A seat's first connection (or a spectator's) opened somewhere."""


@dataclass(frozen=True, slots=True)
class Leave:
    """A seat's last connection (or a spectator's) closed."""


@dataclass(frozen=True, slots=True)
class BotMove:
    """A bot's (or the away bot's) choice for match ``number`` at position ``seq``,
    asked for after ``takebacks`` take-backs in that match."""

    number: int
    seq: int
    action: Action
    takebacks: int = 0


Intent = ClientIntent | Join | Arrive | Leave | BotMove


def _boolean(message: dict[str, Any], key: str, code: str) -> bool:
    value = message.get(key)
    if not isinstance(value, bool):
        raise UserError(code)
    return value


def parse(message: dict[str, Any]) -> ClientIntent:
    """A client's JSON object as an intent, or the ``UserError`` that refuses it."""
    kind = message.get("type")
    if kind == "hello":
        return Hello(
            message.get("lang"),
            message.get("width"),
            message.get("height"),
            "width" in message,
            "height" in message,
        )
    if kind == "ping":
        return Ping()
    if kind == "action":
        text = message.get("action")
        if not isinstance(text, str) or len(text) > MAX_ACTION_TEXT:
            raise UserError("bad_action")
        try:
            return Act(parse_action(text))
        except ValueError:
            raise UserError("bad_action") from None
    if kind == "start":
        return Start()
    if kind == "continue":
        return Continue()
    if kind == "rematch":
        return Rematch(message.get("seed"))
    if kind == "visibility":
        return SetVisibility(_boolean(message, "public", "bad_visibility"))
    if kind == "hints":
        return AllowHints(_boolean(message, "allowed", "bad_hints"))
    if kind == "hint":
        return AskHint()
    if kind == "seat":
        return ConfigureSeat(message.get("seat"), message.get("level"))
    if kind == "rename":
        return Rename(message.get("name"))
    if kind == "chat":
        phrase = message.get("phrase")
        if phrase not in CHAT_PHRASES:
            raise UserError("bad_phrase")
        return Chat(str(phrase))
    if kind == "resign":
        return Resign()
    if kind == "take_back":
        return TakeBack()
    raise UserError("unknown_type")


# ---------------------------------------------------------------- between processes

_KINDS: dict[str, type[Any]] = {
    cls.__name__: cls
    for cls in (
        Act,
        Start,
        Continue,
        Rematch,
        SetVisibility,
        AllowHints,
        AskHint,
        ConfigureSeat,
        Rename,
        Chat,
        Resign,
        TakeBack,
        Join,
        Arrive,
        Leave,
        BotMove,
    )
}


def to_json(intent: Intent) -> dict[str, Any]:
    """An intent as JSON data, to hand it to the table's owner in another process."""
    data: dict[str, Any] = {"kind": type(intent).__name__}
    for name in intent.__slots__:
        value = getattr(intent, name)
        data[name] = str(value) if name == "action" else value
    return data


def from_json(data: dict[str, Any]) -> Intent:
    """The intent ``to_json`` wrote (only ever from another of this server's processes)."""
    cls = _KINDS[data["kind"]]
    values = {k: v for k, v in data.items() if k != "kind"}
    if "action" in values:
        values["action"] = parse_action(values["action"])
    intent: Intent = cls(**values)
    return intent
