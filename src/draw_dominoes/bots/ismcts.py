"""ISMCTS (Cowling, Powley & Whitehouse 2012); ``omniscient``: the same search on the true round.

Single-observer ISMCTS: every iteration draws a determinization of the bot's view
(``ViewSampler``: other hands re-dealt respecting what each seat is known to lack,
the boneyard order shuffled), walks one shared tree keyed by action sequences with
UCB1 corrected by availability counts, expands one node, finishes the round with a
greedy playout and backs up each seat's match-aware reward (max-n: a node is scored
for the seat that chose it). With ``opponents="model"`` the other seats' moves in the
tree follow the playout policy instead, and only the bot's own choices are searched.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Final, Literal

from ..actions import Action
from ..round import Round, ViewSampler
from ..view import Outcome, PlayerView
from .options import limits
from .registry import turn_actions
from .search import GREEDY_KEY, BudgetOptions, SearchBot, play_out, rewards

__all__ = [
    "DEFAULT_ITERATIONS",
    "DEFAULT_OPPONENTS",
    "ISMCTSBot",
    "IsmctsOptions",
    "OmniscientBot",
    "OmniscientOptions",
    "TreeOptions",
    "search",
]

DEFAULT_ITERATIONS: Final[dict[int, int]] = {2: 1200, 3: 2000, 4: 2000}
"""Iterations a move by default, by number of players: about a tenth of a second each way
(modelled opponents make an iteration cheaper)."""
Opponents = Literal["search", "model"]
DEFAULT_OPPONENTS: Final[dict[int, Opponents]] = {2: "search", 3: "model", 4: "model"}
"""How the tree treats the other seats' moves by default, by number of players: searched
against one opponent, modelled against more, as measured best (docs/bots.md)."""
DEFAULT_EXPLORATION = 0.7
"""The UCB constant, for rewards in [-1, 1]."""
DEFAULT_EPSILON = 0.1
"""The share of random moves in the greedy playouts and in modelled opponents."""
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
    opponents: str = "search",
    clock: Callable[[], float] = time.perf_counter,
    evaluate: Callable[[Round], list[float] | None] | None = None,
    reward_of: Callable[[Outcome, tuple[int, ...], int], list[float]] = rewards,
    stats: dict[Action, tuple[int, float, float]] | None = None,
    root_floor: int = 0,
    uniform: frozenset[int] = frozenset(),
    root_bias: dict[Action, float] | None = None,
) -> tuple[Action, int]:
    """The most visited root action after the search, and the number of iterations run.

    ``determinize()`` returns a fresh full round in the position to search; the search
    stops after ``iterations`` or once ``time_per_move`` seconds have passed, whichever
    comes first (at least one iteration always runs). ``opponents`` is ``search`` or
    ``model`` (see ``DEFAULT_OPPONENTS``); ``clock`` tells the time. ``evaluate``, when
    given, may return every seat's reward for the position left after expansion (an
    exact solution, say), which then replaces the playout; ``None`` means play it out.
    ``reward_of`` scores a finished round for every seat (``rewards`` by default).

    For analysis: ``stats``, when given, receives every root action's visits, mean
    reward and the mean of one more number ``reward_of`` may append after the seats'
    rewards (0 if it does not); ``root_floor`` tries each root action at least that
    many times before UCB picks at the root, so that every action's mean means something.
    ``uniform`` names seats taken for random players: in the tree and the playouts they
    choose uniformly at random, whatever ``opponents`` says. ``root_bias`` (a prior of
    the root's actions, in reward units) is tried first, best first, and added to each
    root action's UCB value divided by its visits plus one (progressive bias).
    """
    first = determinize()
    legal = first.legal_actions()
    if len(legal) == 1:
        return legal[0], 0
    scores, target = first.scores, first.target
    me = first.current_player
    root = _Node(me)
    modelled = opponents == "model"
    greedy_key = GREEDY_KEY.__getitem__
    deadline = None if time_per_move is None else clock() + time_per_move
    limit = iterations if iterations is not None else math.inf
    log = math.log
    sqrt = math.sqrt
    done = 0
    extra = first.players
    extras: dict[int, float] = {}
    round_: Round | None = first
    while done < limit:
        if deadline is not None and done and done % _CLOCK_EVERY == 0 and clock() >= deadline:
            break
        if round_ is None:
            round_ = determinize()
        node = root
        path = []
        while not round_.is_over:
            actions = round_.legal_actions()
            children = node.children
            mover = round_.current_player
            if mover != me and (modelled or mover in uniform):
                # An opponent moves as in the playouts; its move is an edge, not a choice.
                if len(actions) == 1:
                    action = actions[0]
                elif mover in uniform or (epsilon and rng.random() < epsilon):
                    action = actions[int(rng.random() * len(actions))]
                else:
                    action = max(actions, key=greedy_key)
                child = children.get(action)
                if child is None:
                    child = children[action] = _Node(mover)
                node = child
                round_.apply(action)
                continue
            untried = [a for a in actions if a not in children]
            if untried:
                if root_bias is not None and node is root:
                    action = max(untried, key=root_bias.__getitem__)
                else:
                    action = (
                        untried[int(rng.random() * len(untried))]
                        if len(untried) > 1
                        else untried[0]
                    )
                child = _Node(round_.current_player)
                children[action] = child
                for a in actions:
                    known = children.get(a)
                    if known is not None:
                        known.available += 1
                round_.apply(action)
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
                if root_bias is not None and node is root:
                    value += root_bias[a] / (child.visits + 1)
                if value > best_value:
                    best_value, best = value, a
            if root_floor and node is root:
                fewest = min(actions, key=lambda a: children[a].visits)
                if children[fewest].visits < root_floor:
                    best = fewest
            assert best is not None
            node = children[best]
            round_.apply(best)
            path.append(node)
        exact = None if evaluate is None or round_.is_over else evaluate(round_)
        if exact is None:
            outcome = round_.outcome if round_.is_over else play_out(round_, rng, epsilon, uniform)
            assert outcome is not None
            reward = reward_of(outcome, scores, target)
        else:
            reward = exact
        for child in path:
            child.visits += 1
            child.total += reward[child.seat]
        if stats is not None and len(reward) > extra:
            key = id(path[0])
            extras[key] = extras.get(key, 0.0) + reward[extra]
        done += 1
        round_ = None
    if stats is not None:
        for a, child in root.children.items():
            if child.visits:
                mean_extra = extras.get(id(child), 0.0) / child.visits
                stats[a] = (child.visits, child.total / child.visits, mean_extra)
    best_action = max(legal, key=lambda a: root.children[a].visits if a in root.children else -1)
    return best_action, done


@dataclass(frozen=True)
class TreeOptions(BudgetOptions):
    """The options of a tree search besides its UCB constant: budget, playouts, opponents."""

    epsilon: float = field(
        default=DEFAULT_EPSILON, metadata=limits(minimum=0, maximum=1, noun="probability")
    )
    """Random moves in the greedy playouts and in modelled opponents."""
    opponents: Opponents | None = None
    """``search`` or ``model``; by default ``DEFAULT_OPPONENTS`` by table size."""

    def tree_settings(self, players: int, exploration: float) -> dict[str, Any]:
        """The keywords of ``search`` at a table of ``players``, with the defaults for that
        size filled in."""
        iterations, seconds = self.budget(DEFAULT_ITERATIONS[players])
        return {
            "iterations": iterations,
            "time_per_move": seconds,
            "exploration": exploration,
            "epsilon": self.epsilon,
            "opponents": self.opponents or DEFAULT_OPPONENTS[players],
        }


@dataclass(frozen=True)
class IsmctsOptions(TreeOptions):
    """The ``ismcts`` bot's options."""

    exploration: float = field(default=DEFAULT_EXPLORATION, metadata=limits(minimum=0))
    """The UCB constant, for rewards in [-1, 1]."""

    def settings_at(self, players: int) -> dict[str, Any]:
        """The keywords of ``search`` at a table of ``players``."""
        return self.tree_settings(players, self.exploration)


@dataclass(frozen=True)
class OmniscientOptions(IsmctsOptions):
    """The ``omniscient`` bot's options: ``ismcts``'s, and what it sees."""

    sees: Literal["all", "hands"] = "all"
    """``all``, or ``hands``: every hand, with the boneyard shuffled in each iteration."""


class ISMCTSBot(SearchBot[IsmctsOptions]):
    """Information Set MCTS over determinizations of its own view, never the true round.

    Options: ``IsmctsOptions`` (defaults by table size: ``DEFAULT_ITERATIONS``,
    ``DEFAULT_OPPONENTS``). ``clock`` (a keyword) tells the time.
    """

    name = "ismcts"
    options_type = IsmctsOptions

    def choose(self, view: PlayerView) -> Action:
        legal = turn_actions(view)
        if len(legal) == 1:
            self.last_iterations = 0
            return legal[0]
        rng = self.rng
        sample = ViewSampler(view).sample
        settings = self.options.settings_at(view.players)
        action, self.last_iterations = search(
            lambda: sample(rng), rng, clock=self.clock, **settings
        )
        return action


class OmniscientBot(SearchBot[OmniscientOptions]):
    """Sees every hand and the boneyard order: the same search on the true round (plain UCT).

    Only for measuring the ceiling; it cannot play from a view. The tournament runner
    calls ``choose_with_round(round)``; nobody else is given the round. Option ``sees``:
    ``all`` (default) or ``hands``, which searches every hand as it is with the boneyard
    shuffled in each iteration, to tell what the hands are worth from what the
    boneyard's order is.
    """

    name = "omniscient"
    options_type = OmniscientOptions
    needs_round = True

    def choose(self, view: PlayerView) -> Action:
        raise TypeError("the omniscient bot needs the whole round: call choose_with_round(round)")

    def choose_with_round(self, round_: Round) -> Action:
        legal = round_.legal_actions()
        if not legal:
            raise ValueError("the round is over: there is nothing to choose")
        if len(legal) == 1:
            self.last_iterations = 0
            return legal[0]
        settings = self.options.settings_at(round_.players)
        determinize = round_.clone
        if self.options.sees == "hands":
            rng = self.rng
            boneyard = list(round_.boneyard)

            def determinize() -> Round:
                rng.shuffle(boneyard)
                return round_.with_hidden({}, boneyard)

        action, self.last_iterations = search(determinize, self.rng, clock=self.clock, **settings)
        return action
