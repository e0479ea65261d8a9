"""Bots: a registry of players that choose an action from a seat's view (R21) and nothing else."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any, Protocol

from ..actions import Action
from ..view import PlayerView

__all__ = [
    "LEVELS",
    "NAMES",
    "OFFERED",
    "PLAY_SECONDS",
    "Bot",
    "check_options",
    "create",
    "create_for_play",
    "decision_seed",
    "register",
    "resolve",
    "turn_actions",
]


class Bot(Protocol):
    """A player: ``choose`` gets only the seat's view, never hidden tiles."""

    name: str

    def choose(self, view: PlayerView) -> Action: ...


BotFactory = Callable[..., Bot]

_REGISTRY: dict[str, BotFactory] = {}
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


def register(name: str, factory: BotFactory, *, offered: bool = True, timed: bool = False) -> None:
    """Add a bot to the registry; ``factory(seed=..., **options)`` builds one. A ``timed``
    bot takes a ``time_per_move`` option."""
    if name in _REGISTRY:
        raise ValueError(f"a bot named {name!r} is already registered")
    _REGISTRY[name] = factory
    if timed:
        _TIMED.add(name)
    NAMES.append(name)
    if offered:
        OFFERED.append(name)


def create(name: str, seed: int = 0, **options: Any) -> Bot:
    """A new bot ``name`` (a bot or a level) with its own ``random.Random(seed)``; unknown
    names are a ValueError."""
    return _REGISTRY[resolve(name)](seed=seed, **options)


def create_for_play(name: str, seed: int = 0) -> Bot:
    """``create(name, seed)`` for a table of people: a search bot stops after its usual
    iterations or after ``PLAY_SECONDS``, whichever comes first, so nobody waits long.
    (On a slow machine the cap can cut a search short, and then a replayed decision
    may differ.)"""
    bot = resolve(name)
    options = {"max_seconds": PLAY_SECONDS} if bot in _TIMED else {}
    return _REGISTRY[bot](seed=seed, **options)


def _rng(seed: int | random.Random) -> random.Random:
    return seed if isinstance(seed, random.Random) else random.Random(seed)


def check_options(name: str, options: dict[str, Any], allowed: set[str]) -> None:
    """Refuse options a bot does not know, naming them and the ones it does."""
    unknown = sorted(set(options) - allowed)
    if unknown:
        known = ", ".join(sorted(allowed)) or "none"
        raise ValueError(f"the {name} bot has no option {', '.join(unknown)} (it takes: {known})")


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


from . import simple as _simple  # noqa: E402  (registers the built-in bots)

del _simple


def _learned(seed: int | random.Random = 0, **options: Any) -> Bot:
    """The ``learned`` bot; numpy (the ``rl`` extra) is imported only when one is made."""
    try:
        from ..learned.bot import LearnedBot
    except ImportError as error:
        raise ValueError(
            f"the learned bot needs numpy ({error}): pip install 'draw-dominoes[rl]'"
        ) from None
    return LearnedBot(seed, **options)


# Registration order is the order of NAMES and OFFERED, weakest first: the menus list them so.
from . import heuristic as _heuristic  # noqa: E402, I001
from . import pimc as _pimc  # noqa: E402
from . import ismcts as _ismcts  # noqa: E402  (registers ismcts, then omniscient)

register("learned", _learned)
from . import expert as _expert  # noqa: E402

del _heuristic, _pimc, _ismcts, _expert
