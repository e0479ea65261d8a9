"""The ``learned`` bot's options and its factory, which loads the bot only when one is made."""

from __future__ import annotations

import importlib
import random
from dataclasses import dataclass
from typing import Any

from .options import Options, options_of
from .registry import Bot

__all__ = ["LearnedOptions", "make_learned"]

IMPLEMENTATION = "draw_dominoes.learned.bot"
"""Where the bot lives: above the bots (it needs numpy and the environments' encoding), so
it is loaded by name when one is made, and imports still run one way."""


@dataclass(frozen=True)
class LearnedOptions(Options):
    """The ``learned`` bot's options."""

    weights: str | None = None
    """Another weights file than the shipped one."""


def make_learned(
    seed: int | random.Random = 0, *, options: LearnedOptions | None = None, **given: Any
) -> Bot:
    """A ``learned`` bot, its options checked before numpy is needed."""
    options = options_of("learned", LearnedOptions, given, options)
    try:
        implementation = importlib.import_module(IMPLEMENTATION)
    except ImportError as error:
        raise ValueError(
            f"the learned bot needs numpy ({error}): pip install 'draw-dominoes[rl]'"
        ) from None
    bot: Bot = implementation.LearnedBot(seed, options=options)
    return bot
