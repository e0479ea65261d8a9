"""The bot levels' fixed ratings for rated web matches: a ladder of two-player matches.

Each pair of levels below plays its matches to 100 in the duplicate format through the
tournament runner (every deal in both seat orders), one results file a pair in
``--out-dir``, so a stopped run resumes and a second run only reads the files back. Then
one rating a level is fitted to every pairwise result by maximum likelihood under the
logistic (Bradley–Terry) model on the Glicko scale:

    P(i beats j) = 1 / (1 + 10 ** ((R_j - R_i) / 400))

(Glicko-2's expected score against an opponent whose deviation is zero), a drawn match
counting half a win to each. The fit is anchored with ``beginner`` at ``--anchor``. Its
standard errors come from the inverse of the likelihood's information matrix (games
taken as independent), relative to ``beginner`` and relative to the mean of the levels;
the latter is a level's deviation. The ratings and deviations printed at the end,
rounded, are what ``src/draw_dominoes/web/ratings/levels.py`` records.

    .venv/bin/python benchmarks/bot_ladder.py --out-dir ladder --seed 1 --workers 2
"""

from __future__ import annotations

import argparse
import math
import time
from collections.abc import Sequence
from pathlib import Path

from draw_dominoes import bots
from draw_dominoes.tournament import Tournament, run_tournament
from draw_dominoes.tournament.runner import GameResult

LEVELS = list(bots.LEVELS)

# (row, column, matches): every adjacent pair, and a few wider ones that tie the ladder
# together. A match with a search level (strong, expert) costs 4 to 9 s of one core, one
# between the others a few milliseconds.
PAIRS: list[tuple[str, str, int]] = [
    ("easy", "beginner", 400),
    ("medium", "easy", 400),
    ("strong", "medium", 300),
    ("expert", "strong", 300),
    ("medium", "beginner", 200),
    ("strong", "easy", 200),
    ("expert", "medium", 200),
]

SCALE = 400 / math.log(10)
"""Rating points a unit of the logistic's log-odds (Elo's and Glicko's 400/ln 10)."""


def play(
    pairs: Sequence[tuple[str, str, int]], out_dir: Path, seed: int, workers: int, progress: bool
) -> dict[tuple[str, str], list[GameResult]]:
    """Every pair's matches, played or read back from its results file."""
    out_dir.mkdir(parents=True, exist_ok=True)
    results = {}
    for row, column, matches in pairs:
        tournament = Tournament(
            players=2, tables=((row, column),), deals=(matches + 1) // 2, seed=seed
        )
        started = time.perf_counter()
        games = run_tournament(
            tournament, out_dir / f"{row}-{column}.jsonl", workers=workers, progress=progress
        )
        print(
            f"{row} v {column}: {len(games)} matches, {time.perf_counter() - started:.0f} s",
            flush=True,
        )
        results[(row, column)] = games
    return results


def tally(games: Sequence[GameResult], row: str) -> tuple[float, int]:
    """``row``'s match score (a drawn match counts half) and the number of matches."""
    score = 0.0
    for game in games:
        seat = game["seats"].index(row)
        if seat in game["winners"]:
            score += 1 / len(game["winners"])
    return score, len(games)


def fit(
    scores: dict[tuple[str, str], tuple[float, int]],
    names: Sequence[str],
    anchor: str,
    anchor_rating: float,
) -> dict[str, tuple[float, float, float]]:
    """Maximum-likelihood ratings, each with two standard errors: relative to ``anchor``,
    and relative to the mean of all ``names`` (the levels' deviations).

    Newton's method on the log-likelihood in log-odds units, with the anchor held at 0;
    the logistic model's observed and expected information are the same matrix, whose
    inverse is the covariance of the free ratings. Centring that covariance on the mean
    rating gives the second error, which does not grow along the ladder away from the
    anchor: where the scale sits is a convention, how the levels lie apart is measured.
    """
    free = [n for n in names if n != anchor]
    index = {n: i for i, n in enumerate(free)}
    theta = dict.fromkeys(names, 0.0)
    for _ in range(100):
        gradient = [0.0] * len(free)
        information = [[0.0] * len(free) for _ in free]
        for (a, b), (won, played) in scores.items():
            p = 1 / (1 + math.exp(theta[b] - theta[a]))
            residual = won - played * p
            weight = played * p * (1 - p)
            for name, sign in ((a, 1.0), (b, -1.0)):
                if name in index:
                    gradient[index[name]] += sign * residual
            for x in (a, b):
                for y in (a, b):
                    if x in index and y in index:
                        information[index[x]][index[y]] += weight if x == y else -weight
        step = solve(information, gradient)
        for name, delta in zip(free, step):
            theta[name] += delta
        if max(abs(d) for d in step) < 1e-12:
            break
    else:
        raise RuntimeError("the fit did not converge (a level won or lost every match?)")
    free_covariance = invert(information)
    n = len(names)

    def covariance(x: str, y: str) -> float:
        return free_covariance[index[x]][index[y]] if x in index and y in index else 0.0

    def centred(x: str) -> float:
        """Var(θx - mean θ) = Var θx - 2 Cov(θx, mean) + Var(mean)."""
        with_mean = sum(covariance(x, y) for y in names) / n
        of_mean = sum(covariance(y, z) for y in names for z in names) / (n * n)
        return covariance(x, x) - 2 * with_mean + of_mean

    return {
        name: (
            anchor_rating + SCALE * theta[name],
            SCALE * math.sqrt(covariance(name, name)),
            SCALE * math.sqrt(centred(name)),
        )
        for name in names
    }


def solve(matrix: list[list[float]], vector: list[float]) -> list[float]:
    """``matrix⁻¹·vector`` by Gauss–Jordan elimination (small and positive definite here)."""
    n = len(vector)
    rows = [list(matrix[i]) + [vector[i]] for i in range(n)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(rows[r][col]))
        rows[col], rows[pivot] = rows[pivot], rows[col]
        for r in range(n):
            if r != col:
                factor = rows[r][col] / rows[col][col]
                rows[r] = [x - factor * y for x, y in zip(rows[r], rows[col])]
    return [rows[i][n] / rows[i][i] for i in range(n)]


def invert(matrix: list[list[float]]) -> list[list[float]]:
    n = len(matrix)
    columns = [solve(matrix, [1.0 if i == j else 0.0 for i in range(n)]) for j in range(n)]
    return [[columns[j][i] for j in range(n)] for i in range(n)]


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--out-dir",
        type=Path,
        default=Path("ladder"),
        help="one results file a pair (resumable; default: ladder)",
    )
    parser.add_argument("--seed", type=int, default=1, help="deals every match (default: 1)")
    parser.add_argument("--workers", type=int, default=2, help="parallel processes (default: 2)")
    parser.add_argument(
        "--scale",
        type=float,
        default=1.0,
        help="multiply every pair's matches by this (default: 1)",
    )
    parser.add_argument(
        "--anchor",
        type=float,
        default=1000.0,
        help="beginner's rating, which fixes the scale (default: 1000)",
    )
    parser.add_argument("--progress", action="store_true", help="show a progress bar")
    args = parser.parse_args(argv)

    pairs = [(a, b, max(2, round(n * args.scale))) for a, b, n in PAIRS]
    started = time.perf_counter()
    results = play(pairs, args.out_dir, args.seed, args.workers, args.progress)
    elapsed = time.perf_counter() - started

    print(f"\n{'pair':<20} {'matches':>7} {'score':>7} {'ms/move':>15}")
    scores = {}
    for (row, column), games in results.items():
        won, played = tally(games, row)
        scores[(row, column)] = (won, played)
        ms = []
        for name in (row, column):
            seconds = sum(g["seconds"][g["seats"].index(name)] for g in games)
            decisions = sum(g["decisions"][g["seats"].index(name)] for g in games)
            ms.append(f"{1000 * seconds / max(decisions, 1):.1f}")
        print(f"{row + ' v ' + column:<20} {played:>7} {won / played:>7.1%} {' v '.join(ms):>15}")

    fitted = fit(scores, LEVELS, "beginner", args.anchor)
    print("\nthe fit (errors: one standard error, relative to beginner and to the levels' mean)")
    print(f"{'level':<10} {'bot':<10} {'rating':>7} {'vs beginner':>12} {'deviation':>10}")
    for name in LEVELS:
        rating, anchored, deviation = fitted[name]
        print(
            f"{name:<10} {bots.LEVELS[name]:<10} {rating:>7.1f} {anchored:>12.1f} "
            f"{deviation:>10.1f}"
        )
    print("\nfitted (model) against measured score of each pair:")
    for (row, column), (won, played) in scores.items():
        expected = 1 / (1 + 10 ** ((fitted[column][0] - fitted[row][0]) / 400))
        print(f"  {row} v {column}: {expected:.1%} against {won / played:.1%}")
    print(f"\nplayed (or read back from --out-dir) and fitted in {elapsed / 60:.1f} minutes")


if __name__ == "__main__":
    main()
