"""Reviews of finished games: every decision of a seat valued, classified and summed up."""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import Executor
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from ..actions import Action
from ..match import Match
from ..record import dumps
from ..round import Round
from ..view import PlayerView
from .analyse import Entry, Hint, analyse, hint_of
from .jobs import run_jobs
from .luck import DEFAULT_PLAYOUTS, LUCK_BOT, LUCK_ITERATIONS, DealWorth, deal_worth

__all__ = [
    "ACCURACY_PER_POINT",
    "KINDS",
    "THRESHOLDS",
    "Decision",
    "Review",
    "cache_path",
    "classify",
    "deal_worth_cached",
    "decisions_of",
    "hint_as_reviewed",
    "move_accuracy",
    "review",
    "review_cached",
    "review_seed",
]

THRESHOLDS: Final = (("best", 1.0), ("good", 2.5), ("inaccuracy", 5.0), ("mistake", 10.0))
"""A choice's class by the expected points it gave away this round (``Decision.loss``):
less than 1 is ``best`` (as is the search's first choice), less than 2.5 ``good``, less
than 5 an ``inaccuracy``, less than 10 a ``mistake``, and 10 or more a ``blunder``. The
steps are wider than the analysis's own noise (about a point from seed to seed)."""
KINDS: Final = ("forced", "best", "good", "inaccuracy", "mistake", "blunder")
"""Every class, ``forced`` (the only legal action) first, then best to worst."""
ACCURACY_PER_POINT: Final = 5.0
"""Accuracy lost for each expected point given away (see ``move_accuracy``)."""
FORMAT: Final = "draw-dominoes-review"
VERSION: Final = 1


def classify(loss: float, first: bool = False) -> str:
    """The class of a choice that gave away ``loss`` expected points (``THRESHOLDS``);
    ``first``: it was the search's own first choice."""
    if first:
        return "best"
    for kind, limit in THRESHOLDS:
        if loss < limit:
            return kind
    return "blunder"


def move_accuracy(loss: float) -> float:
    """A choice's accuracy in percent: 100 less ``ACCURACY_PER_POINT`` for every expected
    point it gave away, never below 0 (a 20-point loss counts as nothing right)."""
    return max(0.0, 100.0 - ACCURACY_PER_POINT * loss)


@dataclass(frozen=True, slots=True)
class Decision:
    """One choice of a seat: where it was (round and move, counted from 0), what was
    played, and every legal action's analysis there, best first."""

    round: int
    move: int
    seat: int
    played: Action
    entries: tuple[Entry, ...]

    @property
    def best(self) -> Entry:
        return self.entries[0]

    @property
    def chosen(self) -> Entry:
        for entry in self.entries:
            if entry.action == self.played:
                return entry
        raise ValueError(f"{self.played} was not a legal action here")

    @property
    def forced(self) -> bool:
        return self.best.forced

    @property
    def loss(self) -> float:
        """Expected points this round the choice gave away against the best action (0 when
        it was the best, or forced)."""
        best, chosen = self.best.points, self.chosen.points
        if best is None or chosen is None:
            return 0.0
        return max(0.0, best - chosen)

    @property
    def kind(self) -> str:
        if self.forced:
            return "forced"
        return classify(self.loss, self.chosen is self.best)

    @property
    def accuracy(self) -> float | None:
        """``move_accuracy`` of the choice; ``None`` for a forced one."""
        return None if self.forced else move_accuracy(self.loss)

    def to_dict(self) -> dict[str, Any]:
        return {
            "round": self.round,
            "move": self.move,
            "seat": self.seat,
            "played": str(self.played),
            "kind": self.kind,
            "loss": round(self.loss, 2),
            "entries": [e.to_dict() for e in self.entries],
        }


@dataclass(frozen=True, slots=True)
class Review:
    """The analysed decisions of some seats of one game, in the order they were made."""

    players: int
    seats: tuple[int, ...]
    decisions: tuple[Decision, ...]
    iterations: int | None
    seed: int

    def of(self, seat: int) -> list[Decision]:
        return [d for d in self.decisions if d.seat == seat]

    def accuracy(self, seat: int) -> float | None:
        """The seat's accuracy: the mean ``move_accuracy`` of its choices, forced ones left
        out; ``None`` when it never had a choice."""
        figures = [a for d in self.of(seat) if (a := d.accuracy) is not None]
        return sum(figures) / len(figures) if figures else None

    def given_away(self, seat: int) -> float:
        """The expected points the seat's choices gave away in all, against the best
        action each time (the sum of ``Decision.loss``)."""
        return sum(d.loss for d in self.of(seat))

    def counts(self, seat: int) -> dict[str, int]:
        """How many of the seat's decisions fell in each class (``KINDS``)."""
        counts = dict.fromkeys(KINDS, 0)
        for decision in self.of(seat):
            counts[decision.kind] += 1
        return counts

    def mistakes(self, seat: int, limit: int = 5) -> list[Decision]:
        """The seat's costliest inaccuracies, mistakes and blunders, worst first."""
        bad = [d for d in self.of(seat) if d.kind in ("inaccuracy", "mistake", "blunder")]
        bad.sort(key=lambda d: (-d.loss, d.round, d.move))
        return bad[:limit]

    def to_dict(self) -> dict[str, Any]:
        return {
            "players": self.players,
            "seats": list(self.seats),
            "iterations": self.iterations,
            "seed": self.seed,
            "summary": {
                str(seat): {
                    "accuracy": None if (a := self.accuracy(seat)) is None else round(a, 1),
                    "counts": self.counts(seat),
                    "mistakes": [[d.round, d.move] for d in self.mistakes(seat)],
                }
                for seat in self.seats
            },
            "decisions": [d.to_dict() for d in self.decisions],
        }


@dataclass(frozen=True, slots=True)
class _Position:
    round: int
    move: int
    seat: int
    view: PlayerView
    played: Action


def decisions_of(game: Round | Match, seats: Iterable[int] | None = None) -> Iterator[_Position]:
    """Every decision the ``seats`` (all by default) made in ``game``, with the view each
    had then: the game is replayed from its deals, and only the views are kept."""
    rounds = list(game.rounds) if isinstance(game, Match) else [game]
    if isinstance(game, Match) and not game.is_over:
        rounds.append(game.current_round)
    wanted = set(range(game.players) if seats is None else seats)
    for number, played in enumerate(rounds):
        hands, boneyard = played.deal
        replay = Round.from_deal(hands, boneyard, played.leader, scores=played.scores)
        for move, action in enumerate(played.actions):
            seat = replay.current_player
            if seat in wanted:
                yield _Position(number, move, seat, replay.view(seat), action)
            replay.apply(action)


def _analyse_one(view: PlayerView, iterations: int | None, seed: int) -> list[dict[str, Any]]:
    return [entry.to_dict() for entry in analyse(view, iterations=iterations, seed=seed)]


def review_seed(seed: int, round_number: int, move: int) -> int:
    """The seed a review with ``seed`` analyses the decision at ``move`` (counting every
    action of the round) of round ``round_number`` (from 0) with."""
    return (seed * 1_000_003 + round_number * 1_009 + move) % 2**63


def hint_as_reviewed(
    view: PlayerView, round_number: int, *, seed: int = 0, iterations: int | None = None
) -> Hint:
    """The hint at ``view``, worked out as ``review`` (with the same ``seed`` and
    ``iterations``) will value that very decision: same budget, same seed, so the same
    analysis. A player who follows the hints is never marked down for it."""
    move_seed = review_seed(seed, round_number, len(view.history))
    return hint_of(analyse(view, iterations=iterations, seed=move_seed), view.line)


def _position_seed(seed: int, position: _Position) -> int:
    return review_seed(seed, position.round, position.move)


def _key(position: _Position) -> str:
    return f"{position.round}.{position.move}"


def review(
    game: Round | Match,
    seats: int | Sequence[int] | None = None,
    *,
    iterations: int | None = None,
    seed: int = 0,
    workers: int | None = None,
    executor: Executor | None = None,
    progress: Callable[[int, int], None] | None = None,
    known: dict[str, list[dict[str, Any]]] | None = None,
) -> Review:
    """Analyse every decision ``seats`` (one, several or all) made in a finished or
    saved game, each from that seat's view alone.

    The work runs on ``executor`` if given, else on ``workers`` processes (every core
    by default; 1: in this process); the results do not depend on either, since each
    decision has its own seed. ``progress(done, total)`` is called as decisions finish.
    ``known`` maps decisions already analysed with these settings (``round.move``) to
    their entries, and gets the new ones: the cache of ``review_file``.
    """
    chosen = (
        tuple(range(game.players))
        if seats is None
        else (seats,)
        if isinstance(seats, int)
        else tuple(sorted(set(seats)))
    )
    for seat in chosen:
        if type(seat) is not int or not 0 <= seat < game.players:
            raise ValueError(f"a seat is a number from 0 to {game.players - 1}, not {seat!r}")
    positions = list(decisions_of(game, chosen))
    results: dict[str, list[dict[str, Any]]] = {} if known is None else known
    todo = [p for p in positions if _key(p) not in results]
    total, done = len(positions), len(positions) - len(todo)
    if progress is not None:
        progress(done, total)
    jobs = {_key(p): (p.view, iterations, _position_seed(seed, p)) for p in todo}

    def finished(key: str, entries: list[dict[str, Any]]) -> None:
        nonlocal done
        results[key] = entries
        done += 1
        if progress is not None:
            progress(done, total)

    run_jobs(_analyse_one, jobs, workers=workers, executor=executor, done=finished)
    decisions = tuple(
        Decision(
            p.round,
            p.move,
            p.seat,
            p.played,
            tuple(Entry.from_dict(e) for e in results[_key(p)]),
        )
        for p in positions
    )
    return Review(game.players, chosen, decisions, iterations, seed)


def cache_path(record: Path) -> Path:
    """Where the review of the game saved at ``record`` is kept: beside it."""
    return record.with_name(record.name + ".review.json")


def _settings_key(iterations: int | None, seed: int) -> str:
    return f"iterations={iterations or 'default'},seed={seed}"


def _read_kept(cache: Path, digest: str) -> dict[str, Any]:
    """The body of the file ``cache`` kept for the game ``digest`` names: its ``analyses``
    (checked) and its ``deals`` (``deal_worth_cached``); empty when the file is missing,
    unreadable, damaged or another game's (it is then rewritten, never trusted)."""
    try:
        data = json.loads(cache.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    if not (
        isinstance(data, dict)
        and data.get("format") == FORMAT
        and data.get("version") == VERSION
        and data.get("game") == digest
        and isinstance(data.get("analyses"), dict)
        and isinstance(data.get("deals", {}), dict)
    ):
        return {}
    stored: dict[str, Any] = data["analyses"]
    for known in stored.values():
        try:
            if not isinstance(known, dict):
                raise ValueError(known)
            for entries in known.values():
                for entry in entries:
                    Entry.from_dict(entry)
        except (TypeError, ValueError):
            return {}
    return data


def _keep(cache: Path, body: dict[str, Any]) -> None:
    """Write ``body`` to ``cache`` at once (beside, then renamed); where it cannot be
    written, nothing is kept and nothing fails."""
    temporary = cache.with_name(cache.name + ".tmp")
    try:
        cache.parent.mkdir(parents=True, exist_ok=True)
        temporary.write_text(json.dumps(body), encoding="utf-8")
        os.replace(temporary, cache)
    except OSError:  # a folder we may not write to: the review stands, uncached
        temporary.unlink(missing_ok=True)


def _digest(game: Round | Match) -> str:
    return hashlib.sha256(dumps(game).encode()).hexdigest()


def review_cached(
    game: Round | Match,
    cache: Path,
    seats: int | Sequence[int] | None = None,
    *,
    iterations: int | None = None,
    seed: int = 0,
    workers: int | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> Review:
    """``review`` of ``game``, keeping what it analyses in the file ``cache`` (see
    ``cache_path``): a decision analysed once with the same settings is not analysed
    again, so a second look is instant. Where the cache cannot be written, the review
    is returned all the same."""
    digest = _digest(game)
    body = _read_kept(cache, digest)
    stored: dict[str, Any] = body.setdefault("analyses", {})
    key = _settings_key(iterations, seed)
    known: dict[str, list[dict[str, Any]]] = stored.setdefault(key, {})
    before = len(known)
    result = review(
        game,
        seats,
        iterations=iterations,
        seed=seed,
        workers=workers,
        progress=progress,
        known=known,
    )
    if len(known) != before:
        body.update(format=FORMAT, version=VERSION, game=digest)
        _keep(cache, body)
    return result


def deal_worth_cached(
    game: Round | Match,
    cache: Path,
    *,
    playouts: int = DEFAULT_PLAYOUTS,
    seed: int = 0,
    workers: int | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> DealWorth:
    """``deal_worth`` of ``game``, kept in the review's file ``cache`` beside its
    analyses: worked out once for each setting."""
    digest = _digest(game)
    body = _read_kept(cache, digest)
    deals: dict[str, Any] = body.setdefault("deals", {})
    key = f"bot={LUCK_BOT},iterations={LUCK_ITERATIONS},playouts={playouts},seed={seed}"
    try:
        return DealWorth.from_dict(deals[key])
    except (KeyError, ValueError):
        pass
    worth = deal_worth(game, playouts=playouts, seed=seed, workers=workers, progress=progress)
    deals[key] = worth.to_dict()
    body.setdefault("analyses", {})
    body.update(format=FORMAT, version=VERSION, game=digest)
    _keep(cache, body)
    return worth
