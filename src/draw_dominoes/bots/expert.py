"""The ``expert`` bot: ISMCTS over determinizations weighted by what the opponents' play reveals,
with closed-boneyard endgames solved exactly instead of played out."""

from __future__ import annotations

import bisect
import itertools
import math
import random
import time
from collections.abc import Callable
from typing import Any, Final

from ..actions import Action, Draw, Place
from ..round import Round, ViewSampler, hand_size_for
from ..tiles import ALL_TILES, VALUE_MASKS
from ..view import Outcome, PlayerView
from . import _rng, register, turn_actions
from .endgame import Solver
from .ismcts import DEFAULT_EXPLORATION, search, search_options, settings_for
from .search import match_rewards, point_rewards, rewards

__all__ = [
    "DEFAULT_EXPLOIT",
    "DEFAULT_HEAVY",
    "DEFAULT_POOL",
    "DEFAULT_SOLVE",
    "EXPLORATION",
    "HEAVIES",
    "POOLS",
    "REWARDS",
    "SOLVES",
    "ExpertBot",
    "Inference",
    "relative_points",
]

DEFAULT_SOLVE: Final = 8
"""With two players, solve a determinization exactly once the boneyard is closed and at
most this many tiles are left in all hands together."""
SOLVES: Final[dict[int, int]] = {2: DEFAULT_SOLVE, 3: 0, 4: 0}
"""``solve`` by default, by number of players. With two players a closed boneyard leaves
little hidden, so a determinization's exact solution is close to the real endgame; with
two or three opponents whose hands are still shuffled among themselves, each solution
plays as if every hand were known (strategy fusion) and every opponent perfectly, and
three-player rounds measured better without it."""
PLAYOUT_KINDS: Final = ("greedy", "learned")
"""How the expert finishes the rounds it looks at (option ``playout``): ``greedy``, its tree
search with ``ismcts``'s ε-greedy playouts; ``learned``, no tree: every legal action
played out by the learned network in the same ``worlds`` determinizations, weighted by
the opponent model (``learned.playouts``), up to the ``horizon``."""
PLAYOUTS: Final[dict[int, str]] = {2: "learned", 3: "greedy", 4: "greedy"}
"""``playout`` by default, by number of players. With two players the learned playouts
scored more points a round than ``ismcts`` and than the learned bot alone (docs/learned.md);
with three and four they were level with ``ismcts`` in single rounds, where the tree
search, which won more of the matches measured, stays."""
HORIZONS: Final = ("turn", "end")
"""How far a learned playout goes (option ``horizon``): to the seat's next ``turn``, where
the network's value of its best action there stands for the rest (the default: less
noise, measured stronger), or to the round's ``end``. Once the boneyard is closed the
tree search plays instead, whatever ``playout`` says: little is hidden then, and its
endgames are solved exactly."""
_CLOSED: Final = 2
"""Tiles left in a boneyard that can no longer be drawn from (R2)."""
WORLDS: Final = 96
"""Determinizations a move with learned playouts (option ``worlds``): with two players about
``ismcts``'s time a move."""
DEFAULT_INFERENCE: Final = 1.0
"""How strongly the opponents' choices weight the determinizations (0: not at all)."""
REWARDS: Final = {"match": match_rewards, "round": rewards, "points": point_rewards}
"""How a finished round is scored: ``match``, by how much it moves the chance of winning
a two-player match (the score and the target decide what a round is worth); ``round``,
as ``ismcts`` does; ``points``, by the round's points alone (``point_rewards``)."""
EXPLORATION: Final = 0.4
"""The expert's UCB constant with the match-aware rewards (two players): lower than
``ismcts``'s 0.7, since those rewards are smaller for the same round (measured best of
0.25, 0.4 and 0.7). With the round rewards (``reward="round"``, and always at three or
four players, where the match-aware rewards are ``ismcts``'s own) it is ``ismcts``'s."""
DEFAULT_POOL: Final = 256
"""Determinizations drawn and weighted a move with two players; the search draws from
them by weight."""
POOLS: Final[dict[int, int]] = {2: DEFAULT_POOL, 3: 1000, 4: 1000}
"""Determinizations drawn a move by default, by number of players: with two or three
hidden hands, 256 worlds shared by 2000 iterations leave too few distinct deals."""
DEFAULT_HEAVY: Final = 1.0
"""The opponent model (option ``heavy``): a placement's odds fall by exp(-heavy) for every
pip it is lighter than the heaviest one it could have made (players shed heavy tiles,
R15–R17) ..."""
HEAVIES: Final[dict[int, float]] = {2: DEFAULT_HEAVY, 3: 0.1, 4: DEFAULT_HEAVY}
"""``heavy`` by default, by number of players. Three-player ``ismcts`` takes the heaviest
fitting tile little more often than chance, so the fall that fits its choices best is
about 0.1 a pip (``benchmarks/bench_inference.py``). 501 matches went a little better
with it, inside the intervals. Two players keep 1 until measured; four players were no
better with 0.1."""
DEFAULT_EXPLOIT: Final = 1.0
"""An opponent whose chance of being a random player (``Inference.random_odds``) is above
``exploit`` is searched and played out as one; 1 (the default) turns it off, since
against random play it gained nothing measurable and two-player ``ismcts`` was taken for
a random player at 8% of the expert's choices (0.5 tells them apart best)."""
_UNIFORM: Final = 0.05
"""... mixed with this much uniform choice, since nobody plays by pips alone."""
_VOLUNTARY: Final = 0.005
"""The odds that a player draws while it holds a tile that fits (R7 allows it)."""
_SENSIBLE: Final = 0.95
"""The prior that an opponent plays by the model rather than at random."""
_LOG_VOLUNTARY: Final = math.log(_VOLUNTARY)
_RANDOM_ODDS: Final = 1 / 3
"""In the weights, a random player's odds for each choice it made, against the model's
1 for the choice it expects (about three legal actions a turn). Telling a random player
apart (``random_odds``) reckons its odds from each sample's hand instead."""


class Inference:
    """What a view's public history says of each opponent's hand, as a weight of a sample.

    Passing already rules values out (``ViewSampler``); here two softer signs count:
    a seat that drew probably held nothing that fitted, and a seat that placed a light
    tile probably held no heavier one that fitted. Only what can be checked in a
    determinization is used: for a placement after the seat's last draw, its hand then
    was its sampled hand plus what it placed since; for a draw, at most as many of the
    tiles it has held since can fit as it has drawn since. Each sign is also reckoned
    for a random player, who picks each legal action alike, so that a seat whose play
    fits that better can be told apart (``random_odds``).
    """

    __slots__ = ("draws", "heavy", "places", "strength")

    def __init__(
        self, view: PlayerView, strength: float = DEFAULT_INFERENCE, heavy: float = DEFAULT_HEAVY
    ) -> None:
        self.strength = strength
        self.heavy = heavy
        """How fast a placement's odds fall a pip lighter than the heaviest that fitted."""
        n, me = view.players, view.player
        # Per opponent: (mask of tiles fitting end 0 or None for the opening, the same
        # for end 1, chosen tile's pips, mask of tiles it placed from then on, 1 if it
        # could have drawn instead) for placements after its last draw, and (mask of
        # tiles fitting end 0, end 1, mask of tiles placed since, draws since) for its
        # draws after the opening.
        self.places: list[tuple[int, list[tuple[int | None, int, int, int, int]]]] = []
        self.draws: list[tuple[int, list[tuple[int, int, int, int]]]] = []
        history = view.history
        ends: tuple[int, ...] = ()
        drawable = len(ALL_TILES) - n * hand_size_for(n) - 2
        before: list[tuple[int, Action, tuple[int, ...], int]] = []
        for seat, action in history:
            before.append((seat, action, ends, 1 if drawable > 0 else 0))
            if isinstance(action, Place):
                if action.end is None:
                    ends = (action.tile.low, action.tile.high)
                else:
                    new = list(ends)
                    new[action.end] = action.tile.other(new[action.end])
                    ends = (new[0], new[1])
            elif isinstance(action, Draw):
                drawable -= 1
        for seat in range(n):
            if seat == me:
                continue
            placed_since = 0
            drawn_since = 0
            places: list[tuple[int | None, int, int, int, int]] = []
            draws: list[tuple[int, int, int, int]] = []
            for who, action, at, could_draw in reversed(before):
                if who != seat:
                    continue
                if isinstance(action, Place):
                    placed_since |= action.tile.bit
                    if drawn_since == 0:
                        if at:
                            fits0, fits1 = VALUE_MASKS[at[0]], VALUE_MASKS[at[1]]
                            places.append(
                                (fits0, fits1, action.tile.pips, placed_since, could_draw)
                            )
                        else:
                            places.append((None, 0, action.tile.pips, placed_since, could_draw))
                elif isinstance(action, Draw):
                    drawn_since += 1
                    if at:
                        draws.append(
                            (VALUE_MASKS[at[0]], VALUE_MASKS[at[1]], placed_since, drawn_since)
                        )
            self.places.append((seat, places))
            self.draws.append((seat, draws))

    def weight(self, game: Round, random_seats: frozenset[int] = frozenset()) -> float:
        """The sample's likelihood, each opponent either sensible (the model above) or
        playing at random: a seat that keeps doing what the model calls unlikely is soon
        taken for a random player, whose choices say nothing. The seats in
        ``random_seats`` are taken for random players outright."""
        weight = 1.0
        for seat, sensible, _, events in self.likelihoods(game):
            if seat not in random_seats:
                weight *= _SENSIBLE * sensible + (1 - _SENSIBLE) * _RANDOM_ODDS**events
        return weight

    def likelihoods(self, game: Round) -> list[tuple[int, float, float, int]]:
        """Per opponent: its seat, how likely its observed choices were with this sample's
        hands if it plays by the model and if it plays at random, and how many choices
        were counted."""
        heavy, strength = self.heavy, self.strength
        log, exp = math.log, math.exp
        out = []
        for (seat, places), (_, draws) in zip(self.places, self.draws, strict=True):
            held = game.hand_mask(seat)
            log_sensible = log_random = 0.0
            for fits0, fits1, pips, since, could_draw in places:
                hand = held | since
                if fits0 is None:
                    options = hand
                    choices = hand.bit_count()
                else:
                    options = hand & (fits0 | fits1)
                    choices = (hand & fits0).bit_count() + (hand & fits1).bit_count()
                log_random -= log(choices + could_draw)
                heaviest = _heaviest(options)
                if heaviest > pips:
                    odds = (1 - _UNIFORM) * exp(-heavy * (heaviest - pips)) + _UNIFORM
                    log_sensible += log(odds)
            for fits0, fits1, since, drawn in draws:
                hand = held | since
                if (hand & (fits0 | fits1)).bit_count() > drawn:
                    # It held a tile that fitted: drawing was one of its choices, not the only one.
                    log_sensible += _LOG_VOLUNTARY
                    placements = (hand & fits0).bit_count() + (hand & fits1).bit_count()
                    log_random -= log(1 + max(1, placements - drawn))
            events = len(places) + len(draws)
            out.append((seat, exp(strength * log_sensible), exp(log_random), events))
        return out

    def random_odds(self, pool: list[Round]) -> dict[int, float]:
        """Each opponent's posterior chance of being a random player, given its observed
        choices, with ``pool`` (deals drawn from the view) standing for its possible hands."""
        sensible: dict[int, float] = {}
        at_random: dict[int, float] = {}
        for game in pool:
            for seat, s, r, _ in self.likelihoods(game):
                sensible[seat] = sensible.get(seat, 0.0) + s
                at_random[seat] = at_random.get(seat, 0.0) + r
        odds = {}
        for seat, total in sensible.items():
            s, r = _SENSIBLE * total, (1 - _SENSIBLE) * at_random[seat]
            odds[seat] = r / (s + r) if s + r > 0 else 0.0
        return odds


def _heaviest(mask: int) -> int:
    """The most pips of one tile in ``mask`` (0 when empty)."""
    best = 0
    while mask:
        index = (mask & -mask).bit_length() - 1
        pips = _PIPS[index]
        if pips > best:
            best = pips
        mask &= mask - 1
    return best


_PIPS: Final = tuple(t.pips for t in ALL_TILES)


class ExpertBot:
    """The ``expert`` level's bot: ISMCTS whose determinizations are drawn in proportion to how
    likely the opponents' observed choices were (``Inference``), and whose closed-boneyard
    endgames are solved exactly (``Solver``) rather than played out greedily (by default
    with two players only, see ``SOLVES``).

    Options: ``iterations`` and/or ``time_per_move`` (as ``ismcts``; by default the
    same iterations), ``max_seconds`` (a time cap on the default), ``inference`` (0
    turns the weighting off), ``heavy`` (the opponent model's fall in odds a pip;
    default ``HEAVIES`` by table size), ``solve`` (most tiles in all hands solved exactly; 0 turns
    solving off; default ``SOLVES`` by table size), ``reward`` (``match``, ``round`` or ``points``,
    see ``REWARDS``), ``exploration``
    (default ``EXPLORATION`` with the match-aware rewards of two players, else
    ``ismcts``'s), ``pool`` (determinizations drawn a move, default ``POOLS`` by table
    size), ``exploit`` (the chance of being a random player above which an opponent is
    searched as one; default ``DEFAULT_EXPLOIT``, off), ``prior`` (the weight of the
    learned network's values of the root's actions as a progressive bias; 0, the
    default, leaves them out), ``leaf`` (true: the learned network values the position
    after expansion instead of a playout), ``playout`` (``greedy``: the tree search;
    ``learned``: the network plays every action out in ``worlds`` determinizations up to
    the ``horizon``, ``turn`` or ``end``; default ``PLAYOUTS`` by table size; the search
    options above apply to the tree only), ``epsilon`` and ``opponents`` (as ``ismcts``).
    ``clock`` (a keyword, not an option) tells the time.
    """

    name = "expert"

    def __init__(
        self,
        seed: int | random.Random = 0,
        *,
        clock: Callable[[], float] = time.perf_counter,
        **options: Any,
    ) -> None:
        own = frozenset(
            {
                "inference",
                "heavy",
                "solve",
                "reward",
                "pool",
                "exploit",
                "prior",
                "leaf",
                "playout",
                "worlds",
                "horizon",
            }
        )
        self.settings = search_options(self.name, options, own)
        self.exploration: float | None = (
            self.settings["exploration"] if "exploration" in options else None
        )
        inference = options.get("inference", DEFAULT_INFERENCE)
        if isinstance(inference, bool) or not isinstance(inference, int | float) or inference < 0:
            raise ValueError(f"inference must be a number of at least 0, not {inference!r}")
        heavy = options.get("heavy")
        if heavy is not None and (
            isinstance(heavy, bool) or not isinstance(heavy, int | float) or heavy < 0
        ):
            raise ValueError(f"heavy must be a number of at least 0, not {heavy!r}")
        self.heavy: float | None = None if heavy is None else float(heavy)
        solve = options.get("solve")
        if solve is not None and (type(solve) is not int or solve < 0):
            raise ValueError(f"solve must be a whole number of tiles, 0 or more, not {solve!r}")
        pool = options.get("pool")
        if pool is not None and (type(pool) is not int or pool < 1):
            raise ValueError(f"pool must be a positive whole number, not {pool!r}")
        self.pool: int | None = pool
        exploit = options.get("exploit", DEFAULT_EXPLOIT)
        number = not isinstance(exploit, bool) and isinstance(exploit, int | float)
        if not number or not 0 <= exploit <= 1:
            raise ValueError(f"exploit must be a probability from 0 to 1, not {exploit!r}")
        self.exploit = float(exploit)
        self.last_random: frozenset[int] = frozenset()
        reward = options.get("reward", "match")
        if reward not in REWARDS:
            raise ValueError(f"reward must be one of {', '.join(REWARDS)}, not {reward!r}")
        self.reward = reward
        self.reward_of = REWARDS[reward]
        prior = options.get("prior", 0.0)
        if isinstance(prior, bool) or not isinstance(prior, int | float) or prior < 0:
            raise ValueError(f"prior must be a number of at least 0, not {prior!r}")
        self.prior = float(prior)
        leaf = options.get("leaf", False)
        if not isinstance(leaf, bool):
            raise ValueError(f"leaf must be true or false, not {leaf!r}")
        self.leaf = leaf
        playout = options.get("playout")
        if playout is not None and playout not in PLAYOUT_KINDS:
            kinds = ", ".join(PLAYOUT_KINDS)
            raise ValueError(f"playout must be one of {kinds}, not {playout!r}")
        self.playout: str | None = playout
        worlds = options.get("worlds")
        if worlds is not None and (type(worlds) is not int or worlds < 1):
            raise ValueError(f"worlds must be a positive whole number, not {worlds!r}")
        self.worlds: int | None = worlds
        horizon = options.get("horizon", HORIZONS[0])
        if horizon not in HORIZONS:
            raise ValueError(f"horizon must be one of {', '.join(HORIZONS)}, not {horizon!r}")
        self.horizon = horizon == "turn"
        self.inference = float(inference)
        self.solve: int | None = solve
        self.clock = clock
        self.rng = _rng(seed)
        self.last_iterations = 0
        self.last_solved = 0

    def settings_at(self, players: int) -> dict[str, Any]:
        """The search settings at a table of ``players``: ``ismcts``'s defaults for that size
        (iterations, opponents), the exploration that suits the reward in use, and the
        expert's own ``pool``, ``solve`` and ``heavy``."""
        settings = settings_for(self.settings, players)
        if self.exploration is None:
            matched = self.reward == "match" and players == 2
            settings["exploration"] = EXPLORATION if matched else DEFAULT_EXPLORATION
        settings["pool"] = POOLS[players] if self.pool is None else self.pool
        settings["solve"] = SOLVES[players] if self.solve is None else self.solve
        settings["heavy"] = HEAVIES[players] if self.heavy is None else self.heavy
        return settings

    def choose(self, view: PlayerView) -> Action:
        legal = turn_actions(view)
        self.last_iterations = self.last_solved = 0
        self.last_random = frozenset()
        if len(legal) == 1:
            return legal[0]
        return self._search(view)

    def action_values(
        self, view: PlayerView, *, root_floor: int = 0
    ) -> dict[Action, tuple[int, float, float]]:
        """Every legal action's visits, mean reward and mean points this round for the
        seat (its credit less the others' average), from one search of the view; each
        action is tried at least ``root_floor`` times. A forced action is not searched
        (empty result), since there is nothing to weigh."""
        legal = turn_actions(view)
        self.last_iterations = self.last_solved = 0
        self.last_random = frozenset()
        stats: dict[Action, tuple[int, float, float]] = {}
        if len(legal) > 1:
            self._search(view, stats, root_floor, points_for=view.player)
        return stats

    def _search(
        self,
        view: PlayerView,
        stats: dict[Action, tuple[int, float, float]] | None = None,
        root_floor: int = 0,
        points_for: int | None = None,
    ) -> Action:
        rng = self.rng
        settings = self.settings_at(view.players)
        size = settings.pop("pool")
        solve = settings.pop("solve")
        heavy = settings.pop("heavy")
        sample = ViewSampler(view).sample
        determinize: Callable[[], Round]
        random_seats: frozenset[int] = frozenset()
        playout = PLAYOUTS[view.players] if self.playout is None else self.playout
        if playout == "learned" and view.boneyard_size > _CLOSED:
            # Once the boneyard is closed, the tree (its endgames solved exactly) plays on.
            return self._learned_playouts(view, heavy, stats)
        if self.inference > 0 and not view.is_over:
            # A pool of determinizations drawn once and weighted by the opponent model;
            # each iteration searches a copy of one, picked in proportion to its weight.
            inference = Inference(view, self.inference, heavy)
            pool = [sample(rng) for _ in range(size)]
            if self.exploit < 1:
                # Seats likelier to play at random than by the model are taken for random
                # players: their choices no longer weight the deals, and the search plays
                # them as they play, which is the best reply to them.
                odds = inference.random_odds(pool)
                random_seats = frozenset(seat for seat, p in odds.items() if p > self.exploit)
            totals = list(
                itertools.accumulate(inference.weight(game, random_seats) for game in pool)
            )
            top = totals[-1]
            uniform = rng.random

            def determinize() -> Round:
                return pool[bisect.bisect_right(totals, uniform() * top)].clone()

        else:

            def determinize() -> Round:
                return sample(rng)

        # A round's reward depends on its winner and points alone while one move is
        # searched (the scores and the target stay): remember each one reckoned. For an
        # analysis, the seat's points ride along after the seats' rewards.
        base: Reward = self.reward_of
        if points_for is not None:
            base = _with_points(base, points_for)
        known: dict[tuple[int | None, int], list[float]] = {}

        def reward_of(outcome: Outcome, scores: tuple[int, ...], target: int) -> list[float]:
            key = (outcome.winner, outcome.points)
            reward = known.get(key)
            if reward is None:
                reward = known[key] = base(outcome, scores, target)
            return reward

        solver = Solver(view.scores, view.target, solve, reward_of=reward_of) if solve else None
        evaluate: Callable[[Round], list[float] | None] | None = (
            None if solver is None else solver.value
        )
        root_bias = None
        if self.prior or self.leaf:
            from .learned_levers import leaf_value, prior_of

            if self.prior:
                root_bias = prior_of(view, self.prior)
            if self.leaf:
                evaluate = leaf_value(evaluate)
        action, self.last_iterations = search(
            determinize,
            rng,
            clock=self.clock,
            evaluate=evaluate,
            root_bias=root_bias,
            reward_of=reward_of,
            stats=stats,
            root_floor=root_floor,
            uniform=random_seats,
            **settings,
        )
        self.last_random = random_seats
        self.last_solved = 0 if solver is None else solver.solved
        return action

    def _learned_playouts(
        self, view: PlayerView, heavy: float, stats: dict[Action, tuple[int, float, float]] | None
    ) -> Action:
        """Each legal action played out by the learned network in the same determinizations,
        weighted by the opponent model: the action with the most points."""
        from .learned_levers import LEAF_SCALE, playout_values

        rng = self.rng
        count = WORLDS if self.worlds is None else self.worlds
        sample = ViewSampler(view).sample
        worlds = [sample(rng) for _ in range(count)]
        if self.inference > 0:
            inference = Inference(view, self.inference, heavy)
            weights = [inference.weight(world) for world in worlds]
        else:
            weights = [1.0] * count
        legal = turn_actions(view)
        seat = view.player
        assert seat is not None  # a view with legal actions is a seat's
        values = playout_values(worlds, weights, legal, seat, self.horizon)
        best = max(values)
        if stats is not None:
            for action, value in zip(legal, values, strict=True):
                stats[action] = (count, value / LEAF_SCALE, value)
        self.last_iterations = count * len(legal)
        return legal[values.index(best)]


Reward = Callable[[Outcome, tuple[int, ...], int], list[float]]


def relative_points(outcome: Outcome, seat: int) -> float:
    """What a finished round gave ``seat``: its credit less the others' average."""
    winner = outcome.winner
    if winner is None:
        return 0.0
    if winner == seat:
        return float(outcome.points)
    return -outcome.points / (len(outcome.pip_totals) - 1)


def _with_points(reward_of: Reward, seat: int) -> Reward:
    def both(outcome: Outcome, scores: tuple[int, ...], target: int) -> list[float]:
        return [*reward_of(outcome, scores, target), relative_points(outcome, seat)]

    return both


register("expert", ExpertBot, timed=True)
