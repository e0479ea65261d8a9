"""Tournament statistics: Wilson intervals of win rates, Bradley–Terry/Elo ratings, head to head."""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .runner import GameResult

__all__ = ["BotSummary", "Report", "bradley_terry", "summarize", "wilson"]

Z95 = 1.959963984540054
"""The normal quantile of a two-sided 95% interval."""


def wilson(successes: float, trials: float, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion; (0, 1) when there are no trials.

    Half-successes (drawn matches) are allowed: the interval is then an approximation.
    """
    if trials <= 0:
        return 0.0, 1.0
    p = successes / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    return max(0.0, centre - half), min(1.0, centre + half)


def bradley_terry(
    wins: dict[tuple[str, str], float],
    names: Sequence[str],
    *,
    prior: float = 0.0,
    iterations: int = 10_000,
    tolerance: float = 1e-12,
) -> dict[str, float]:
    """Bradley–Terry strengths on the Elo scale (400·log10), mean 1500.

    ``wins[(a, b)]`` is how often ``a`` beat ``b`` (a draw counts half to each). ``prior``
    adds that many virtual draws to every pair that met, which keeps the ratings finite
    when one bot won every game. Fitted by the minorization–maximization iteration
    (Hunter 2004).
    """
    games: dict[tuple[str, str], float] = {}
    total_wins = dict.fromkeys(names, 0.0)
    for (a, b), count in wins.items():
        if a == b:
            continue
        pair = (a, b) if a < b else (b, a)
        games[pair] = games.get(pair, 0.0) + count
        total_wins[a] += count
    for pair in games:
        games[pair] += 2 * prior
        total_wins[pair[0]] += prior
        total_wins[pair[1]] += prior
    strength = dict.fromkeys(names, 1.0)
    for _ in range(iterations):
        updated = {}
        for name in names:
            denominator = 0.0
            for (a, b), count in games.items():
                if name in (a, b):
                    other = b if name == a else a
                    denominator += count / (strength[name] + strength[other])
            if denominator == 0.0:
                updated[name] = strength[name]
            else:
                updated[name] = max(total_wins[name], 1e-300) / denominator
        scale = math.exp(sum(math.log(v) for v in updated.values()) / len(names))
        updated = {k: v / scale for k, v in updated.items()}
        change = max(abs(math.log(updated[k] / strength[k])) for k in names)
        strength = updated
        if change < tolerance:
            break
    return {name: 1500 + 400 * math.log10(strength[name]) for name in names}


@dataclass
class BotSummary:
    """One bot's results over all its seats in all games."""

    name: str
    games: int = 0
    match_wins: float = 0.0
    rounds: int = 0
    round_wins: int = 0
    points: int = 0
    points_squared: int = 0
    decisions: int = 0
    seconds: float = 0.0
    fair_share: float = 0.0
    rating: float = 1500.0

    @property
    def win_rate(self) -> float:
        return self.match_wins / self.games if self.games else 0.0

    @property
    def win_interval(self) -> tuple[float, float]:
        return wilson(self.match_wins, self.games)

    @property
    def round_win_rate(self) -> float:
        return self.round_wins / self.rounds if self.rounds else 0.0

    @property
    def round_win_interval(self) -> tuple[float, float]:
        return wilson(self.round_wins, self.rounds)

    @property
    def points_per_round(self) -> float:
        return self.points / self.rounds if self.rounds else 0.0

    @property
    def points_interval(self) -> tuple[float, float]:
        """A normal 95% interval of the mean points a round."""
        if self.rounds < 2:
            return 0.0, math.inf
        mean = self.points_per_round
        variance = (self.points_squared - self.rounds * mean * mean) / (self.rounds - 1)
        half = Z95 * math.sqrt(max(variance, 0.0) / self.rounds)
        return mean - half, mean + half

    @property
    def ms_per_decision(self) -> float:
        return 1000 * self.seconds / self.decisions if self.decisions else 0.0

    def to_dict(self) -> dict[str, Any]:
        return {
            "bot": self.name,
            "games": self.games,
            "match_wins": self.match_wins,
            "match_win_rate": self.win_rate,
            "match_win_ci95": list(self.win_interval),
            "fair_share": self.fair_share,
            "rounds": self.rounds,
            "round_wins": self.round_wins,
            "round_win_rate": self.round_win_rate,
            "round_win_ci95": list(self.round_win_interval),
            "points_per_round": self.points_per_round,
            "points_per_round_ci95": list(self.points_interval),
            "rating": self.rating,
            "ms_per_decision": self.ms_per_decision,
        }


@dataclass
class Report:
    """Everything the tournament measured, ready for the terminal, JSON and the chart."""

    players: int
    unit: str
    games: int
    bots: list[BotSummary]
    head_to_head: dict[str, dict[str, dict[str, float]]] = field(default_factory=dict)
    margins: dict[str, dict[str, dict[str, float]]] = field(default_factory=dict)
    """Two-player games only: per pair of bots, the row bot's points less the column
    bot's a round, averaged over each deal's seatings (duplicate format), with a normal
    95% interval over the deals; luck of the deal cancels within a deal."""

    def to_dict(self) -> dict[str, Any]:
        return {
            "players": self.players,
            "unit": self.unit,
            "games": self.games,
            "bots": [b.to_dict() for b in self.bots],
            "head_to_head": self.head_to_head,
            "margins": self.margins,
        }


def summarize(records: Iterable[GameResult], players: int, unit: str = "match") -> Report:
    """Per bot: match (or round) wins, round wins, points, ratings; and the head-to-head matrix.

    A game won by several seats together (a drawn match, R20) gives each a share.
    Ratings and the matrix compare every two seats of a game held by different bots:
    the higher final score wins that pair, equal scores are half each.
    """
    summaries: dict[str, BotSummary] = {}
    pair_wins: dict[tuple[str, str], float] = {}
    meetings: dict[tuple[str, str], int] = {}
    by_deal: dict[tuple[str, str], dict[object, list[float]]] = {}
    games = 0
    for record in records:
        games += 1
        seats: list[str] = record["seats"]
        if len(seats) == 2 and seats[0] != seats[1] and record["rounds"]:
            got = [0, 0]
            for r in record["rounds"]:
                if r["winner"] is not None:
                    got[r["winner"]] += r["points"]
            per_round = (got[0] - got[1]) / len(record["rounds"])
            deal = (record.get("table"), record.get("deal", record.get("key")))
            for me, them, sign in ((0, 1, 1.0), (1, 0, -1.0)):
                pair = (seats[me], seats[them])
                by_deal.setdefault(pair, {}).setdefault(deal, []).append(sign * per_round)
        scores: list[int] = record["scores"]
        winners: list[int] = record["winners"]
        for seat, name in enumerate(seats):
            s = summaries.setdefault(name, BotSummary(name, fair_share=1 / players))
            s.games += 1
            if seat in winners:
                s.match_wins += 1 / len(winners)
            s.decisions += record["decisions"][seat]
            s.seconds += record["seconds"][seat]
            for r in record["rounds"]:
                credit = r["points"] if r["winner"] == seat else 0
                s.rounds += 1
                s.round_wins += r["winner"] == seat
                s.points += credit
                s.points_squared += credit * credit
        for i in range(len(seats)):
            for j in range(len(seats)):
                a, b = seats[i], seats[j]
                if i == j or a == b:
                    continue
                meetings[(a, b)] = meetings.get((a, b), 0) + 1
                if scores[i] > scores[j]:
                    share = 1.0
                elif scores[i] == scores[j]:
                    share = 0.5
                else:
                    share = 0.0
                pair_wins[(a, b)] = pair_wins.get((a, b), 0.0) + share
    names = list(summaries)
    if len(names) > 1 and pair_wins:
        met = [n for n in names if any(n in pair for pair in meetings)]
        ratings = bradley_terry(pair_wins, met, prior=0.5)
        for name, rating in ratings.items():
            summaries[name].rating = rating
    matrix: dict[str, dict[str, dict[str, float]]] = {}
    for (a, b), count in meetings.items():
        won = pair_wins.get((a, b), 0.0)
        low, high = wilson(won, count)
        matrix.setdefault(a, {})[b] = {
            "games": count,
            "score": won / count,
            "ci95_low": low,
            "ci95_high": high,
        }
    margins: dict[str, dict[str, dict[str, float]]] = {}
    for (a, b), deals in by_deal.items():
        values = [sum(v) / len(v) for v in deals.values()]
        mean = sum(values) / len(values)
        spread = 0.0
        if len(values) > 1:
            variance = sum((v - mean) ** 2 for v in values) / (len(values) - 1)
            spread = 1.96 * math.sqrt(variance / len(values))
        margins.setdefault(a, {})[b] = {
            "deals": len(values),
            "points_per_round": mean,
            "ci95_low": mean - spread,
            "ci95_high": mean + spread,
        }
    ordered = sorted(summaries.values(), key=lambda s: -s.rating)
    return Report(
        players=players,
        unit=unit,
        games=games,
        bots=ordered,
        head_to_head=matrix,
        margins=margins,
    )
