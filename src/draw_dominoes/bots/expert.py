"""The ``expert`` bot: ISMCTS over determinizations weighted by what the opponents' play reveals,
with closed-boneyard endgames solved exactly instead of played out."""

from __future__ import annotations

import bisect
import itertools
import math
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Final, Literal, get_args

from ..actions import Action, Draw, Place
from ..round import Round, ViewSampler, hand_size_for
from ..tiles import ALL_TILES, VALUE_MASKS
from ..view import Outcome, PlayerView
from .endgame import Solver
from .ismcts import DEFAULT_EXPLORATION, TreeOptions, search
from .learned_levers import LEAF_SCALE, leaf_value, playout_values, prior_of
from .options import limits
from .registry import turn_actions
from .search import SearchBot, match_rewards, point_rewards, rewards

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
    "ExpertOptions",
    "Inference",
    "relative_points",
]

DEFAULT_SOLVE: Final = 8
"""With two players, solve a determinization exactly once the boneyard is closed and at
most this many tiles are left in all hands together."""
SOLVES: Final[dict[int, int]] = {2: DEFAULT_SOLVE, 3: 0, 4: 0}
"""``solve`` by default, by number of players: only two players gain by it (docs/bots.md)."""
Playout = Literal["greedy", "learned"]
PLAYOUT_KINDS: Final = get_args(Playout)
"""How the expert finishes the rounds it looks at (option ``playout``): ``greedy``, its tree
search; ``learned``, every action played out by the network (docs/bots.md)."""
PLAYOUTS: Final[dict[int, Playout]] = {2: "learned", 3: "greedy", 4: "greedy"}
"""``playout`` by default, by number of players, as measured best (docs/bots.md)."""
Horizon = Literal["turn", "end"]
HORIZONS: Final = get_args(Horizon)
"""How far a learned playout goes (option ``horizon``): to the seat's next ``turn`` (the
default, measured stronger) or to the round's ``end`` (docs/bots.md)."""
Reward = Callable[[Outcome, tuple[int, ...], int], list[float]]
"""How a finished round is scored for every seat, given the scores and the target."""
_CLOSED: Final = 2
"""Tiles left in a boneyard that can no longer be drawn from (R2)."""
WORLDS: Final = 96
"""Determinizations a move with learned playouts (option ``worlds``): with two players about
``ismcts``'s time a move."""
DEFAULT_INFERENCE: Final = 1.0
"""How strongly the opponents' choices weight the determinizations (0: not at all)."""
RewardKind = Literal["match", "round", "points"]
REWARDS: Final[dict[RewardKind, Reward]] = {
    "match": match_rewards,
    "round": rewards,
    "points": point_rewards,
}
"""How a finished round is scored (option ``reward``): by what it does to the match, as
``ismcts`` does, or by its points alone (docs/bots.md)."""
EXPLORATION: Final = 0.4
"""The expert's UCB constant with the match-aware rewards (two players), which are smaller
than ``ismcts``'s; otherwise it is ``ismcts``'s (docs/bots.md)."""
DEFAULT_POOL: Final = 256
"""Determinizations drawn and weighted a move with two players; the search draws from
them by weight."""
POOLS: Final[dict[int, int]] = {2: DEFAULT_POOL, 3: 1000, 4: 1000}
"""Determinizations drawn a move by default, by number of players: more hidden hands need
more distinct deals (docs/bots.md)."""
DEFAULT_HEAVY: Final = 1.0
"""The opponent model (option ``heavy``): a placement's odds fall by exp(-heavy) for every
pip it is lighter than the heaviest one it could have made (players shed heavy tiles,
R15–R17) ..."""
HEAVIES: Final[dict[int, float]] = {2: DEFAULT_HEAVY, 3: 0.1, 4: DEFAULT_HEAVY}
"""``heavy`` by default, by number of players: 0.1 with three, the fall that fits how
``ismcts`` plays there (docs/bots.md)."""
DEFAULT_EXPLOIT: Final = 1.0
"""An opponent whose chance of being a random player (``Inference.random_odds``) is above
``exploit`` is searched and played out as one; 1, off, since it gained nothing measurable
(docs/bots.md)."""
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

    def weight(self, round_: Round, random_seats: frozenset[int] = frozenset()) -> float:
        """The sample's likelihood, each opponent either sensible (the model above) or
        playing at random: a seat that keeps doing what the model calls unlikely is soon
        taken for a random player, whose choices say nothing. The seats in
        ``random_seats`` are taken for random players outright."""
        weight = 1.0
        for seat, sensible, _, events in self.likelihoods(round_):
            if seat not in random_seats:
                weight *= _SENSIBLE * sensible + (1 - _SENSIBLE) * _RANDOM_ODDS**events
        return weight

    def likelihoods(self, round_: Round) -> list[tuple[int, float, float, int]]:
        """Per opponent: its seat, how likely its observed choices were with this sample's
        hands if it plays by the model and if it plays at random, and how many choices
        were counted."""
        heavy, strength = self.heavy, self.strength
        log, exp = math.log, math.exp
        out = []
        for (seat, places), (_, draws) in zip(self.places, self.draws, strict=True):
            held = round_.hand_mask(seat)
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
        for round_ in pool:
            for seat, s, r, _ in self.likelihoods(round_):
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


@dataclass(frozen=True)
class ExpertOptions(TreeOptions):
    """The ``expert`` bot's options: ``ismcts``'s, and its own levers. ``None`` means the
    default for the table size (``POOLS``, ``SOLVES``, ``HEAVIES``, ``PLAYOUTS``)."""

    exploration: float | None = field(default=None, metadata=limits(minimum=0))
    """The UCB constant; by default ``EXPLORATION`` with the match-aware rewards of two
    players, else ``ismcts``'s."""
    inference: float = field(default=DEFAULT_INFERENCE, metadata=limits(minimum=0))
    """How strongly the opponents' choices weight the determinizations (0: not at all)."""
    heavy: float | None = field(default=None, metadata=limits(minimum=0))
    """The opponent model's fall in odds a pip (``Inference``)."""
    solve: int | None = field(
        default=None, metadata=limits(minimum=0, noun="whole number of tiles")
    )
    """Most tiles in all hands solved exactly once the boneyard is closed; 0: never."""
    reward: RewardKind = "match"
    """How a finished round is scored (``REWARDS``)."""
    pool: int | None = field(default=None, metadata=limits(minimum=1))
    """Determinizations drawn and weighted a move."""
    exploit: float = field(
        default=DEFAULT_EXPLOIT, metadata=limits(minimum=0, maximum=1, noun="probability")
    )
    """The chance of being a random player above which an opponent is searched as one."""
    prior: float = field(default=0.0, metadata=limits(minimum=0))
    """The weight of the learned network's values of the root's actions (0: none)."""
    leaf: bool = False
    """Whether the learned network values the position after expansion, not a playout."""
    playout: Playout | None = None
    """``greedy`` (the tree search) or ``learned`` (the network plays every action out)."""
    worlds: int | None = field(default=None, metadata=limits(minimum=1))
    """Determinizations a move with learned playouts; by default ``WORLDS``."""
    horizon: Horizon = "turn"
    """How far a learned playout goes (``HORIZONS``)."""

    def settings_at(self, players: int) -> dict[str, Any]:
        """The search settings at a table of ``players``: ``ismcts``'s defaults for that size
        (iterations, opponents), the exploration that suits the reward in use, and the
        expert's own ``pool``, ``solve`` and ``heavy``."""
        exploration = self.exploration
        if exploration is None:
            matched = self.reward == "match" and players == 2
            exploration = EXPLORATION if matched else DEFAULT_EXPLORATION
        return {
            **self.tree_settings(players, exploration),
            "pool": POOLS[players] if self.pool is None else self.pool,
            "solve": SOLVES[players] if self.solve is None else self.solve,
            "heavy": HEAVIES[players] if self.heavy is None else self.heavy,
        }


class ExpertBot(SearchBot[ExpertOptions]):
    """The ``expert`` level's bot: ISMCTS whose determinizations are drawn in proportion to how
    likely the opponents' observed choices were (``Inference``), and whose closed-boneyard
    endgames are solved exactly (``Solver``) rather than played out greedily (by default
    with two players only, see ``SOLVES``).

    Options: ``ExpertOptions``, each field documented there; the search options (as
    ``ismcts``'s) apply to the tree only, not to learned playouts.
    ``clock`` (a keyword, not an option) tells the time.
    """

    name = "expert"
    options_type = ExpertOptions
    last_solved = 0
    """Determinizations the last search solved exactly."""
    last_random: frozenset[int] = frozenset()
    """The seats the last search took for random players."""

    def settings_at(self, players: int) -> dict[str, Any]:
        """The search settings at a table of ``players`` (``ExpertOptions.settings_at``)."""
        return self.options.settings_at(players)

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
        options = self.options
        playout = PLAYOUTS[view.players] if options.playout is None else options.playout
        if playout == "learned" and view.boneyard_size > _CLOSED:
            # Once the boneyard is closed, the tree (its endgames solved exactly) plays on.
            return self._learned_playouts(view, heavy, stats)
        if options.inference > 0 and not view.is_over:
            # A pool of determinizations drawn once and weighted by the opponent model;
            # each iteration searches a copy of one, picked in proportion to its weight.
            inference = Inference(view, options.inference, heavy)
            pool = [sample(rng) for _ in range(size)]
            if options.exploit < 1:
                # Seats likelier to play at random than by the model are taken for random
                # players: their choices no longer weight the deals, and the search plays
                # them as they play, which is the best reply to them.
                odds = inference.random_odds(pool)
                random_seats = frozenset(seat for seat, p in odds.items() if p > options.exploit)
            totals = list(
                itertools.accumulate(inference.weight(round_, random_seats) for round_ in pool)
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
        base: Reward = REWARDS[options.reward]
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
        if options.prior:
            root_bias = prior_of(view, options.prior)
        if options.leaf:
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
        rng, options = self.rng, self.options
        count = WORLDS if options.worlds is None else options.worlds
        sample = ViewSampler(view).sample
        worlds = [sample(rng) for _ in range(count)]
        if options.inference > 0:
            inference = Inference(view, options.inference, heavy)
            weights = [inference.weight(world) for world in worlds]
        else:
            weights = [1.0] * count
        legal = turn_actions(view)
        seat = view.player
        assert seat is not None  # a view with legal actions is a seat's
        values = playout_values(worlds, weights, legal, seat, options.horizon == "turn")
        best = max(values)
        if stats is not None:
            for action, value in zip(legal, values, strict=True):
                stats[action] = (count, value / LEAF_SCALE, value)
        self.last_iterations = count * len(legal)
        return legal[values.index(best)]


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
