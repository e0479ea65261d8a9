"""ISMCTS (Cowling, Powley & Whitehouse 2012); ``omniscient``: the same search on the true round.

Single-observer ISMCTS: every iteration draws a determinization of the bot's view
(``sample_from_view``: other hands re-dealt respecting what each seat is known to lack,
the boneyard order shuffled), walks one shared tree keyed by action sequences with
UCB1 corrected by availability counts, expands one node, finishes the round with a
greedy playout and backs up each seat's match-aware reward (max-n: a node is scored
for the seat that chose it).
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable
from typing import Any

from ..actions import Action
from ..round import Round, sample_from_view
from ..view import PlayerView
from . import _rng, check_options, register, turn_actions
from .search import play_out, positive_float, positive_int, rewards

__all__ = ["DEFAULT_ITERATIONS", "ISMCTSBot", "OmniscientBot", "search"]

DEFAULT_ITERATIONS = 1200
"""Iterations a move by default: a few tenths of a second at most on a small machine."""
DEFAULT_EXPLORATION = 0.7
DEFAULT_EPSILON = 0.1
_CLOCK_EVERY = 16
"""Iterations between two looks at the clock when searching against a time budget."""


class _Node:
    """Statistics of one action in one information set: visits, availability, reward sum."""

    __slots__ = ("available", "children", "seat", "total", "visits")

    def __init__(self, seat: int) -> None:
        self.seat = seat
        self.visits = 0
        self.available = 0
        self.total = 0.0
        self.children: dict[Action, _Node] = {}


def search(
    determinize: Callable[[], Round],
    rng: random.Random,
    *,
    iterations: int | None,
    time_per_move: float | None,
    exploration: float = DEFAULT_EXPLORATION,
    epsilon: float = DEFAULT_EPSILON,
    clock: Callable[[], float] = time.perf_counter,
) -> tuple[Action, int]:
    """The most visited root action after the search, and the number of iterations run.

    ``determinize()`` returns a fresh full round in the position to search; the search
    stops after ``iterations`` or once ``time_per_move`` seconds have passed, whichever
    comes first (at least one iteration always runs). ``clock`` tells the time.
    """
    first = determinize()
    legal = first.legal_actions()
    if len(legal) == 1:
        return legal[0], 0
    scores, target = first.scores, first.target
    root = _Node(first.current_player)
    deadline = None if time_per_move is None else clock() + time_per_move
    limit = iterations if iterations is not None else math.inf
    log = math.log
    sqrt = math.sqrt
    done = 0
    game: Round | None = first
    while done < limit:
        if deadline is not None and done and done % _CLOCK_EVERY == 0 and clock() >= deadline:
            break
        if game is None:
            game = determinize()
        node = root
        path = []
        while not game.is_over:
            actions = game.legal_actions()
            children = node.children
            untried = [a for a in actions if a not in children]
            if untried:
                action = (
                    untried[int(rng.random() * len(untried))] if len(untried) > 1 else untried[0]
                )
                child = _Node(game.current_player)
                children[action] = child
                for a in actions:
                    known = children.get(a)
                    if known is not None:
                        known.available += 1
                game.apply(action)
                path.append(child)
                break
            best = None
            best_value = -math.inf
            for a in actions:
                child = children[a]
                child.available += 1
                value = child.total / child.visits + exploration * sqrt(
                    log(child.available) / child.visits
                )
                if value > best_value:
                    best_value, best = value, a
            assert best is not None
            node = children[best]
            game.apply(best)
            path.append(node)
        outcome = game.outcome if game.is_over else play_out(game, rng, epsilon)
        assert outcome is not None
        reward = rewards(outcome, scores, target)
        for child in path:
            child.visits += 1
            child.total += reward[child.seat]
        done += 1
        game = None
    best_action = max(legal, key=lambda a: root.children[a].visits if a in root.children else -1)
    return best_action, done


def _search_options(name: str, options: dict[str, Any]) -> dict[str, Any]:
    check_options(name, options, {"iterations", "time_per_move", "exploration", "epsilon"})
    iterations = options.get("iterations")
    time_per_move = options.get("time_per_move")
    if iterations is not None:
        positive_int("iterations", iterations)
    if time_per_move is not None:
        positive_float("time_per_move", time_per_move)
    if iterations is None and time_per_move is None:
        iterations = DEFAULT_ITERATIONS
    exploration = options.get("exploration", DEFAULT_EXPLORATION)
    epsilon = options.get("epsilon", DEFAULT_EPSILON)
    if isinstance(exploration, bool) or not isinstance(exploration, int | float) or exploration < 0:
        raise ValueError(f"exploration must be a number of at least 0, not {exploration!r}")
    if isinstance(epsilon, bool) or not isinstance(epsilon, int | float) or not 0 <= epsilon <= 1:
        raise ValueError(f"epsilon must be a probability from 0 to 1, not {epsilon!r}")
    return {
        "iterations": iterations,
        "time_per_move": None if time_per_move is None else float(time_per_move),
        "exploration": float(exploration),
        "epsilon": float(epsilon),
    }


class ISMCTSBot:
    """Information Set MCTS over determinizations of its own view, never the true round.

    Options: ``iterations`` (default 1200) and/or ``time_per_move`` in seconds (the
    first limit reached stops the search), ``exploration`` (UCB constant, rewards in
    [-1, 1]) and ``epsilon`` (random moves in the greedy playouts).
    """

    name = "ismcts"

    def __init__(self, seed: int | random.Random = 0, **options: Any) -> None:
        self.settings = _search_options(self.name, options)
        self.rng = _rng(seed)
        self.last_iterations = 0

    def choose(self, view: PlayerView) -> Action:
        legal = turn_actions(view)
        if len(legal) == 1:
            self.last_iterations = 0
            return legal[0]
        rng = self.rng
        action, self.last_iterations = search(
            lambda: sample_from_view(view, rng), rng, **self.settings
        )
        return action


class OmniscientBot:
    """Sees every hand and the boneyard order: the same search on the true round (plain UCT).

    Only for measuring the ceiling; it cannot play from a view. The tournament runner
    calls ``choose_with_round(round)``; nobody else is given the round.
    """

    name = "omniscient"
    needs_round = True

    def __init__(self, seed: int | random.Random = 0, **options: Any) -> None:
        self.settings = _search_options(self.name, options)
        self.rng = _rng(seed)
        self.last_iterations = 0

    def choose(self, view: PlayerView) -> Action:
        raise TypeError("the omniscient bot needs the whole round: call choose_with_round(round)")

    def choose_with_round(self, round_: Round) -> Action:
        legal = round_.legal_actions()
        if not legal:
            raise ValueError("the round is over: there is nothing to choose")
        if len(legal) == 1:
            self.last_iterations = 0
            return legal[0]
        action, self.last_iterations = search(round_.clone, self.rng, **self.settings)
        return action


register("ismcts", ISMCTSBot)
register("omniscient", OmniscientBot, offered=False)
