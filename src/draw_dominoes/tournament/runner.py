"""Plays a tournament's games (serially, on local processes or on Ray) into a resumable file."""

from __future__ import annotations

import itertools
import json
import os
import random
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, TypedDict

from .. import bots
from ..actions import Action
from ..game import Game, play
from ..match import Match
from ..round import Round
from ..rules import RULES
from ..view import PlayerView

__all__ = [
    "FORMAT",
    "Fixture",
    "ResultsFileError",
    "Tournament",
    "load_results",
    "play_game",
    "run_tournament",
]

FORMAT = "draw-dominoes-tournament"
VERSION = 1


class ResultsFileError(ValueError):
    """The results file belongs to another tournament or is damaged beyond its last line."""


@dataclass(frozen=True)
class Tournament:
    """What to play: tables of bots (one name a seat), deals per table, all seeded.

    Every deal of a table is played once in each distinct seat permutation of its
    lineup (duplicate format), so each bot meets the same hands from every seat.
    """

    players: int
    tables: tuple[tuple[str, ...], ...]
    deals: int
    seed: int = 0
    unit: str = "match"
    options: dict[str, dict[str, Any]] = field(default_factory=dict)
    variants: dict[str, str] = field(default_factory=dict)
    """Seat names that stand for a registered bot: a named variant (``fast`` for
    ``ismcts`` with its own ``options``) or a level (``strong``). Other names are bots."""

    def __post_init__(self) -> None:
        if not RULES.allows(self.players):
            raise ValueError(f"a table seats 2 to 4 players, not {self.players!r}")
        if self.unit not in ("match", "round"):
            raise ValueError(f"the unit is 'match' or 'round', not {self.unit!r}")
        if type(self.deals) is not int or self.deals < 1:
            raise ValueError(f"deals must be a positive whole number, not {self.deals!r}")
        if not self.tables:
            raise ValueError("a tournament needs at least one table")
        for table in self.tables:
            if len(table) != self.players:
                raise ValueError(
                    f"table {', '.join(table)} has {len(table)} seats, not {self.players}"
                )
            for name in table:
                if name not in self.variants:
                    bots.resolve(name)  # a bot or a level, else a ValueError naming both
        for base in self.variants.values():
            bots.resolve(base)
        for name, opts in self.options.items():
            bots.create(self.variants.get(name, name), 0, **opts)  # refuses bad options now

    @property
    def bots(self) -> list[str]:
        """The distinct bots, in order of first appearance."""
        return list(dict.fromkeys(name for table in self.tables for name in table))

    def settings(self) -> dict[str, Any]:
        """Everything that decides the games except how many deals: the results file's header."""
        return {
            "players": self.players,
            "tables": [list(t) for t in self.tables],
            "seed": self.seed,
            "unit": self.unit,
            "options": self.options,
            **({"variants": self.variants} if self.variants else {}),
        }

    def games(self) -> Iterator[Fixture]:
        """Every game, deal by deal: for each table, each deal in each seat permutation."""
        for deal in range(self.deals):
            for number, table in enumerate(self.tables):
                deal_seed = random.Random(f"{self.seed}/{number}/{deal}").randrange(2**63)
                for seats in seat_permutations(table):
                    yield Fixture(
                        key=f"t{number}-d{deal}-{'-'.join(seats)}",
                        table=number,
                        deal=deal,
                        seats=seats,
                        seed=deal_seed,
                        unit=self.unit,
                        options={name: self.options.get(name, {}) for name in set(seats)},
                        variants={n: self.variants[n] for n in set(seats) if n in self.variants},
                    )


def seat_permutations(table: Sequence[str]) -> list[tuple[str, ...]]:
    """The distinct orders of a lineup: 2 for two bots, 3 for one bot and two alike, 24 for four."""
    return sorted(set(itertools.permutations(table)))


@dataclass(frozen=True)
class Fixture:
    """One game to play: its seats, its deal seed and the bots' options. Plain data, picklable."""

    key: str
    table: int
    deal: int
    seats: tuple[str, ...]
    seed: int
    unit: str
    options: dict[str, dict[str, Any]]
    variants: dict[str, str] = field(default_factory=dict)


class RoundResult(TypedDict):
    """How one round of a game ended."""

    kind: str
    winner: int | None
    points: int


class GameResult(TypedDict):
    """One finished game as the results file keeps it (one JSON line)."""

    key: str
    table: int
    deal: int
    seats: list[str]
    seed: int
    scores: list[int]
    winners: list[int]
    rounds: list[RoundResult]
    decisions: list[int]
    seconds: list[float]


def play_game(fixture: Fixture) -> GameResult:
    """Play one game and return its result as plain JSON data.

    Bots get their seat's view only; a bot that needs the whole round (``omniscient``)
    is the one exception, and is given it through ``choose_with_round``.
    """
    n = len(fixture.seats)
    playing: Game = (
        Match.new(n, seed=fixture.seed)
        if fixture.unit == "match"
        else Round.new(n, seed=fixture.seed)
    )
    seats = [
        _TimedSeat(
            bots.create(
                fixture.variants.get(name, name),
                random.Random(f"{fixture.seed}/{seat}/{name}").randrange(2**63),
                **fixture.options.get(name, {}),
            ),
            playing,
        )
        for seat, name in enumerate(fixture.seats)
    ]
    for _ in play(playing, seats):  # a match and a round are played alike (both are Games)
        pass
    if isinstance(playing, Match):
        finished = list(playing.rounds)
        scores = list(playing.scores)
        winners = playing.winners
    else:
        assert isinstance(playing, Round) and playing.outcome is not None
        finished = [playing]
        scores = list(playing.outcome.credits)
        winners = [s for s in range(n) if scores[s] == max(scores)]
    rounds: list[RoundResult] = []
    for r in finished:
        outcome = r.outcome
        assert outcome is not None
        rounds.append(
            {"kind": str(outcome.kind), "winner": outcome.winner, "points": outcome.points}
        )
    return {
        "key": fixture.key,
        "table": fixture.table,
        "deal": fixture.deal,
        "seats": list(fixture.seats),
        "seed": fixture.seed,
        "scores": scores,
        "winners": winners,
        "rounds": rounds,
        "decisions": [seat.decisions for seat in seats],
        "seconds": [round(seat.seconds, 4) for seat in seats],
    }


class _TimedSeat:
    """A seat's bot as the turn loop's player (``game.play``), its decisions counted and
    timed; only a bot that needs the whole round (``omniscient``) is given the round
    itself rather than the view."""

    def __init__(self, bot: Any, playing: Game) -> None:
        self.bot, self.playing = bot, playing
        self.decisions = 0
        self.seconds = 0.0

    def choose(self, view: PlayerView) -> Action:
        start = time.perf_counter()
        bot, playing = self.bot, self.playing
        if getattr(bot, "needs_round", False):
            round_ = playing.current_round if isinstance(playing, Match) else playing
            action: Action = bot.choose_with_round(round_)
        else:
            action = bot.choose(view)
        self.seconds += time.perf_counter() - start
        self.decisions += 1
        return action


# ------------------------------------------------------------------ results file


def load_results(path: Path, tournament: Tournament) -> dict[str, GameResult]:
    """The finished games in ``path`` by key; creates the file with its header when absent.

    A half-written last line (a run stopped mid-write) is cut off; a header for other
    settings is refused, so results of different tournaments never mix.
    """
    header = {"format": FORMAT, "version": VERSION, "settings": tournament.settings()}
    header = json.loads(json.dumps(header))
    if not path.exists() or path.stat().st_size == 0:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(header) + "\n", encoding="utf-8")
        return {}
    data = path.read_bytes()
    lines = data.split(b"\n")
    try:
        found = json.loads(lines[0])
    except ValueError as exc:
        raise ResultsFileError(f"{path}: line 1 is not a tournament header") from exc
    if not isinstance(found, dict) or found.get("format") != FORMAT:
        raise ResultsFileError(f"{path} is not a {FORMAT} results file")
    if found != header:
        raise ResultsFileError(
            f"{path} holds results of a tournament with other settings "
            f"({json.dumps(found.get('settings'))}); choose another file or remove it"
        )
    results: dict[str, GameResult] = {}
    good_end = len(lines[0]) + 1
    for number, line in enumerate(lines[1:], start=2):
        if not line.strip():
            good_end += len(line) + 1
            continue
        try:
            record = json.loads(line)
            key = record["key"]
        except (ValueError, KeyError, TypeError) as exc:
            if number == len(lines) or (number == len(lines) - 1 and not lines[-1]):
                break  # cut off mid-write: drop it and play that game again
            raise ResultsFileError(f"{path}: line {number} is damaged") from exc
        results[key] = record
        good_end += len(line) + 1
    if good_end < len(data):
        with path.open("r+b") as handle:
            handle.truncate(good_end)
    elif data and not data.endswith(b"\n"):
        with path.open("ab") as handle:
            handle.write(b"\n")
    return results


# ------------------------------------------------------------------ backends


def _serial(games: list[Fixture], workers: int, address: str | None) -> Iterator[GameResult]:
    for game in games:
        yield play_game(game)


def _processes(games: list[Fixture], workers: int, address: str | None) -> Iterator[GameResult]:
    from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait

    with ProcessPoolExecutor(max_workers=workers) as pool:
        pending = iter(games)
        running = {pool.submit(play_game, g) for g in itertools.islice(pending, 4 * workers)}
        try:
            while running:
                done, running = wait(running, return_when=FIRST_COMPLETED)
                for future in done:
                    yield future.result()
                    nxt = next(pending, None)
                    if nxt is not None:
                        running.add(pool.submit(play_game, nxt))
        finally:
            for future in running:
                future.cancel()


def _ray(games: list[Fixture], workers: int, address: str | None) -> Iterator[GameResult]:
    import ray

    started_here = not ray.is_initialized()
    if started_here:
        if address in (None, "", "local"):
            ray.init(num_cpus=workers, include_dashboard=False, log_to_driver=False)
        else:
            ray.init(address=address, log_to_driver=False)
    try:
        remote = ray.remote(play_game)
        pending = iter(games)
        cpus = ray.cluster_resources().get("CPU", 1)  # type: ignore[no-untyped-call]
        window = 8 * max(workers, int(cpus))
        running = [remote.remote(g) for g in itertools.islice(pending, window)]
        while running:
            done, running = ray.wait(running, num_returns=1)
            for ref in done:
                yield ray.get(ref)
                nxt = next(pending, None)
                if nxt is not None:
                    running.append(remote.remote(nxt))
    finally:
        if started_here:
            ray.shutdown()


BACKENDS: dict[str, Callable[[list[Fixture], int, str | None], Iterator[GameResult]]] = {
    "serial": _serial,
    "processes": _processes,
    "ray": _ray,
}


def run_tournament(
    tournament: Tournament,
    path: Path,
    *,
    backend: str = "processes",
    workers: int | None = None,
    address: str | None = None,
    progress: bool = False,
) -> list[GameResult]:
    """Play every game not yet in ``path``, appending each result as it finishes.

    Returns all results (old and new) in the tournament's game order, so serial,
    parallel and resumed runs of the same tournament return the same list.
    """
    if backend not in BACKENDS:
        raise ValueError(f"unknown backend {backend!r}; choose one of {', '.join(BACKENDS)}")
    workers = workers or os.cpu_count() or 1
    done = load_results(path, tournament)
    games = list(tournament.games())
    todo = [g for g in games if g.key not in done]
    bar = _progress_bar(len(games), len(games) - len(todo), progress)
    try:
        with path.open("a", encoding="utf-8") as out:
            for record in BACKENDS[backend](todo, workers, address):
                out.write(json.dumps(record) + "\n")
                out.flush()
                done[record["key"]] = record
                if bar is not None:
                    bar.update(1)
    finally:
        if bar is not None:
            bar.close()
    return [done[g.key] for g in games]


def _progress_bar(total: int, initial: int, enabled: bool) -> Any:
    if not enabled:
        return None
    from tqdm import tqdm  # type: ignore[import-untyped]

    return tqdm(total=total, initial=initial, unit="game", smoothing=0.05, dynamic_ncols=True)


def games_by_key(records: Iterable[GameResult]) -> dict[str, GameResult]:
    return {r["key"]: r for r in records}


def describe(fixture: Fixture) -> dict[str, Any]:
    return asdict(fixture)
