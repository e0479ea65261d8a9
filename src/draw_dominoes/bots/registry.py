"""The bots' registry: names, levels, each bot's options, and making a bot by name or spec."""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from typing import Any, Protocol

from ..actions import Action
from ..view import PlayerView
from .options import NoOptions, Options, format_options, parse_options, split_options

__all__ = [
    "LEVELS",
    "NAMES",
    "OFFERED",
    "PLAY_SECONDS",
    "Bot",
    "BotFactory",
    "create",
    "create_for_play",
    "decision_seed",
    "format_spec",
    "options_for",
    "options_type",
    "parse_spec",
    "register",
    "resolve",
    "seeded",
    "split_spec",
    "turn_actions",
    "typed_options",
]


class Bot(Protocol):
    """A player: ``choose`` gets only the seat's view, never hidden tiles."""

    name: str

    def choose(self, view: PlayerView) -> Action: ...


BotFactory = Callable[..., Bot]

_REGISTRY: dict[str, BotFactory] = {}
_OPTIONS: dict[str, type[Options]] = {}
NAMES: list[str] = []
"""Every registered bot name, in registration order (weakest first)."""
OFFERED: list[str] = []
"""The bots offered as opponents to people (``omniscient`` and the like are not)."""


LEVELS: dict[str, str] = {
    "beginner": "random",
    "easy": "greedy",
    "medium": "heuristic",
    "strong": "learned",
    "expert": "expert",
}
"""The levels offered to people, weakest first, and the bot that plays each: the one
mapping the terminal, the web app and the docs use. Each has a name and a description
in every language (``common.level_<level>`` and ``common.level_<level>_about``)."""


def resolve(name: str) -> str:
    """The registered bot ``name`` stands for: itself, or the bot of a level."""
    bot = LEVELS.get(name, name)
    if bot not in _REGISTRY:
        raise ValueError(
            f"unknown bot {name!r}; choose a level ({', '.join(LEVELS)})"
            f" or a bot ({', '.join(NAMES)})"
        )
    return bot


PLAY_SECONDS = 1.0
"""The most a search bot thinks a move while people wait for it (terminal and web)."""
_TIMED: set[str] = set()


def register(
    name: str,
    factory: BotFactory,
    *,
    options: type[Options] = NoOptions,
    offered: bool = True,
    timed: bool = False,
) -> None:
    """Add a bot to the registry; ``factory(seed=..., **options)`` builds one, and
    ``options`` is the dataclass of the options it takes. A ``timed`` bot takes a
    ``max_seconds`` option."""
    if name in _REGISTRY:
        raise ValueError(f"a bot named {name!r} is already registered")
    _REGISTRY[name] = factory
    _OPTIONS[name] = options
    if timed:
        _TIMED.add(name)
    NAMES.append(name)
    if offered:
        OFFERED.append(name)


def create(name: str, seed: int = 0, **options: Any) -> Bot:
    """A new bot ``name`` (a bot or a level) with its own ``random.Random(seed)``; unknown
    names are a ValueError. ``options`` are its options as keywords, or ``options=`` its
    options dataclass (``parse_spec``)."""
    return _REGISTRY[resolve(name)](seed=seed, **options)


def create_for_play(name: str, seed: int = 0) -> Bot:
    """``create(name, seed)`` for a table of people: a search bot stops after its usual
    iterations or after ``PLAY_SECONDS``, whichever comes first, so nobody waits long.
    (On a slow machine the cap can cut a search short, and then a replayed decision
    may differ.)"""
    bot = resolve(name)
    options = {"max_seconds": PLAY_SECONDS} if bot in _TIMED else {}
    return _REGISTRY[bot](seed=seed, **options)


def options_type(name: str) -> type[Options]:
    """The dataclass of the options that bot ``name`` (a bot or a level) takes."""
    return _OPTIONS.get(resolve(name), NoOptions)


def options_for(name: str, given: Mapping[str, object]) -> Options:
    """``given`` options (text or values) of bot ``name`` as its options dataclass."""
    bot = resolve(name)
    return parse_options(bot, options_type(bot), given)


def typed_options(name: str, given: Mapping[str, object]) -> dict[str, object]:
    """Just the ``given`` options of bot ``name``, each converted to its type and checked:
    what a tournament keeps in its results file."""
    parsed = options_for(name, given)
    return {key: getattr(parsed, key) for key in given}


def split_spec(text: str) -> tuple[str, dict[str, str]]:
    """``ismcts:iterations=300,epsilon=0.2`` -> ("ismcts", {"iterations": "300", ...}): the
    bot (or level) as written and its options as text, not yet checked."""
    name, _, settings = text.partition(":")
    return name.strip(), split_options(settings)


def parse_spec(text: str) -> tuple[str, Options]:
    """A bot spec ``BOT[:KEY=VALUE,...]`` (the tournament's ``--bot`` spelling; values as
    JSON or plain text) -> the registered bot and its options dataclass, checked once.
    ``create(bot, seed, options=options)`` makes the bot."""
    name, given = split_spec(text)
    bot = resolve(name)
    return bot, options_for(bot, given)


def format_spec(name: str, options: Options) -> str:
    """The spec ``parse_spec`` reads back into ``(name, options)``."""
    settings = format_options(options)
    return f"{name}:{settings}" if settings else name


def seeded(seed: int | random.Random) -> random.Random:
    """A bot's own generator: ``seed`` itself when it is one, else a new one seeded with it."""
    return seed if isinstance(seed, random.Random) else random.Random(seed)


def decision_seed(match_seed: int, move: int, seat: int) -> int:
    """A fresh seed for one bot decision, from the match seed, the move number and the seat.

    Interfaces create a new bot per decision with it, so a match resumed after a crash
    goes on exactly as it would have.
    """
    return ((match_seed * 1_000_003 + move) * 4 + seat) % 2**63


def turn_actions(view: PlayerView) -> tuple[Action, ...]:
    """The legal actions of the view's seat; a ValueError when it is not that seat's turn."""
    if not view.legal_actions:
        raise ValueError(f"it is not player {view.player}'s turn")
    return view.legal_actions
