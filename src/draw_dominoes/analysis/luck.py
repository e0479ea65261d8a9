"""The luck of the deal: what each round's tiles were worth to each seat, played by equal bots."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from concurrent.futures import Executor
from dataclasses import dataclass
from typing import Any, Final

from .. import bots
from ..bots.expert import relative_points
from ..game import play
from ..match import Match
from ..round import Round
from ..tiles import Tile
from ..view import Outcome
from .jobs import run_jobs

__all__ = [
    "DEFAULT_PLAYOUTS",
    "LUCK_BOT",
    "LUCK_ITERATIONS",
    "DealWorth",
    "RoundWorth",
    "deal_worth",
    "margins",
    "playout_seed",
]

LUCK_BOT: Final = "ismcts"
"""The bot that plays every seat of the play-outs: the strong level's search."""
LUCK_ITERATIONS: Final = 100
"""Its iterations a move: a twelfth of its own (about 3 ms a move). A round's result
from one deal spreads as widely (about 20 points) under the full search as under this
one, so the budget goes into more play-outs rather than deeper ones."""
DEFAULT_PLAYOUTS: Final = 24
"""Play-outs a round: the figure of a round is then good to about ±5 points."""


def margins(outcome: Outcome) -> tuple[float, ...]:
    """Each seat's margin in a settled round: its credit less the others' average (the
    ``points`` of the analysis). They add up to 0."""
    return tuple(relative_points(outcome, seat) for seat in range(len(outcome.pip_totals)))


@dataclass(frozen=True, slots=True)
class RoundWorth:
    """One round, every seat: ``worth`` the mean margin of the play-outs, ``error`` its
    standard error, ``scored`` the margin the seat really got."""

    worth: tuple[float, ...]
    error: tuple[float, ...]
    scored: tuple[float, ...]


@dataclass(frozen=True, slots=True)
class DealWorth:
    """What the deals of a game were worth to each seat, round by round, beside what each
    seat scored; ``play(seat)`` is the difference, what the play itself made of the tiles."""

    players: int
    rounds: tuple[RoundWorth, ...]
    playouts: int
    seed: int
    iterations: int

    def worth(self, seat: int) -> float:
        return sum(r.worth[seat] for r in self.rounds)

    def error(self, seat: int) -> float:
        """The standard error of ``worth(seat)`` (the rounds' errors are independent)."""
        return math.sqrt(sum(r.error[seat] ** 2 for r in self.rounds))

    def scored(self, seat: int) -> float:
        return sum(r.scored[seat] for r in self.rounds)

    def play(self, seat: int) -> float:
        """What the seat scored beyond what its deals were worth: everyone's play, its own
        and the others', and how the draws fell in this very game."""
        return self.scored(seat) - self.worth(seat)

    def to_dict(self) -> dict[str, Any]:
        return {
            "players": self.players,
            "playouts": self.playouts,
            "seed": self.seed,
            "iterations": self.iterations,
            "rounds": [
                {"worth": list(r.worth), "error": list(r.error), "scored": list(r.scored)}
                for r in self.rounds
            ],
        }

    @classmethod
    def from_dict(cls, data: Any) -> DealWorth:
        """What ``to_dict`` wrote; ValueError on anything else."""
        try:
            players, playouts = data["players"], data["playouts"]
            seed, iterations = data["seed"], data["iterations"]
            rounds = [
                RoundWorth(*(_figures(r[key], players) for key in ("worth", "error", "scored")))
                for r in data["rounds"]
            ]
        except (KeyError, TypeError) as exc:
            raise ValueError(f"not the worth of a game's deals: {data!r}") from exc
        if not all(type(n) is int for n in (players, playouts, seed, iterations)):
            raise ValueError(f"not the worth of a game's deals: {data!r}")
        return cls(players, tuple(rounds), playouts, seed, iterations)


def _figures(values: Any, players: int) -> tuple[float, ...]:
    if not isinstance(values, list) or len(values) != players:
        raise ValueError(f"one figure a seat, not {values!r}")
    if not all(isinstance(v, int | float) and not isinstance(v, bool) for v in values):
        raise ValueError(f"figures are numbers, not {values!r}")
    return tuple(float(v) for v in values)


def playout_seed(seed: int, round_number: int, playout: int, seat: int) -> int:
    """The seed of ``seat``'s bot in play-out ``playout`` of round ``round_number``."""
    return ((seed * 1_000_003 + round_number * 1_009 + playout) * 4 + seat) % 2**63


_Deal = tuple[tuple[tuple[Tile, ...], ...], tuple[Tile, ...], int, tuple[int, ...]]


def _play_out(deal: _Deal, seeds: Sequence[int], iterations: int) -> tuple[float, ...]:
    """One play-out of a deal (hands, boneyard, leader, scores before it), every seat
    played by its own ``LUCK_BOT``; each seat's margin."""
    hands, boneyard, leader, scores = deal
    round_ = Round.from_deal(hands, boneyard, leader, scores=scores)
    seats = [bots.create(LUCK_BOT, seed=s, iterations=iterations) for s in seeds]
    for _ in play(round_, seats):
        pass
    assert round_.outcome is not None
    return margins(round_.outcome)


def deal_worth(
    game: Round | Match,
    *,
    playouts: int = DEFAULT_PLAYOUTS,
    seed: int = 0,
    iterations: int = LUCK_ITERATIONS,
    workers: int | None = 1,
    executor: Executor | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> DealWorth:
    """How many points each settled round's deal was worth to each seat: the mean margin
    of ``playouts`` games from the same deal (the same hands, boneyard order, leader and
    scores), every seat played by the same bot, ``LUCK_BOT``.

    Why this measure: with equal players at every seat, what remains of a seat's margin
    is what its tiles and its place in the turn gave it, as a backgammon program's luck
    rating weighs the dice. The search plays differently from seed to seed, and one
    other choice sends a drawn tile to another hand, so a single game from a deal says
    little (its margin spreads by about 20 points): the figure is a mean over play-outs,
    each with seeds of its own (``playout_seed``), and ``error`` says how far it can be
    off. Every seat's figure comes from the same play-outs, so they add up to 0, as the
    margins do. Unfinished rounds are left out.

    Repeatable for a ``seed``: the figures do not depend on ``workers`` (processes; 1: in
    this process; ``None``: every core) or ``executor``. ``progress(done, total)`` is
    called as play-outs finish.
    """
    if type(playouts) is not int or playouts < 2:
        raise ValueError(f"playouts must be a whole number of at least 2, not {playouts!r}")
    played = [r for r in (game.rounds if isinstance(game, Match) else (game,)) if r.is_over]
    deals: list[_Deal] = []
    for r in played:
        hands, boneyard = r.deal
        deals.append((hands, boneyard, r.leader, r.scores))
    jobs = {
        (number, playout): (
            deals[number],
            [playout_seed(seed, number, playout, s) for s in range(game.players)],
            iterations,
        )
        for number in range(len(deals))
        for playout in range(playouts)
    }
    results: dict[tuple[int, int], tuple[float, ...]] = {}

    def finished(key: tuple[int, int], margins_: tuple[float, ...]) -> None:
        results[key] = margins_
        if progress is not None:
            progress(len(results), len(jobs))

    if progress is not None:
        progress(0, len(jobs))
    run_jobs(_play_out, jobs, workers=workers, executor=executor, done=finished)
    rounds = []
    for number, r in enumerate(played):
        samples = [results[number, playout] for playout in range(playouts)]
        worth, error = [], []
        for seat in range(game.players):
            values = [sample[seat] for sample in samples]
            mean = sum(values) / playouts
            spread = sum((v - mean) ** 2 for v in values) / (playouts - 1)
            worth.append(mean)
            error.append(math.sqrt(spread / playouts))
        assert r.outcome is not None
        rounds.append(RoundWorth(tuple(worth), tuple(error), margins(r.outcome)))
    return DealWorth(game.players, tuple(rounds), playouts, seed, iterations)
