"""Bots: a registry of players that choose an action from a seat's view (R21) and nothing else."""

from __future__ import annotations

from .expert import ExpertBot, ExpertOptions
from .heuristic import HeuristicBot
from .ismcts import ISMCTSBot, IsmctsOptions, OmniscientBot, OmniscientOptions
from .learned import LearnedOptions, make_learned
from .options import NoOptions, OptionError, Options, check_options
from .pimc import PIMCBot, PimcOptions
from .registry import (
    _REGISTRY as _REGISTRY,
)
from .registry import (
    LEVELS,
    NAMES,
    OFFERED,
    PLAY_SECONDS,
    Bot,
    BotFactory,
    create,
    create_for_play,
    decision_seed,
    format_spec,
    options_for,
    options_type,
    parse_spec,
    register,
    resolve,
    split_spec,
    turn_actions,
    typed_options,
)
from .simple import GreedyBot, RandomBot

__all__ = [
    "LEVELS",
    "NAMES",
    "OFFERED",
    "PLAY_SECONDS",
    "Bot",
    "BotFactory",
    "ExpertOptions",
    "IsmctsOptions",
    "LearnedOptions",
    "NoOptions",
    "OmniscientOptions",
    "OptionError",
    "Options",
    "PimcOptions",
    "check_options",
    "create",
    "create_for_play",
    "decision_seed",
    "format_spec",
    "options_for",
    "options_type",
    "parse_spec",
    "register",
    "resolve",
    "split_spec",
    "turn_actions",
    "typed_options",
]

# The built-in bots, weakest first: the order of NAMES and OFFERED, which the menus keep.
register("random", RandomBot)
register("greedy", GreedyBot)
register("heuristic", HeuristicBot)
register("pimc", PIMCBot, options=PimcOptions, timed=True)
register("ismcts", ISMCTSBot, options=IsmctsOptions, timed=True)
register("omniscient", OmniscientBot, options=OmniscientOptions, offered=False)
register("learned", make_learned, options=LearnedOptions)
register("expert", ExpertBot, options=ExpertOptions, timed=True)
