"""The value of every legal action of one seat's view, from the expert bot's search."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Final

from ..actions import Action, Place, parse_action
from ..bots.expert import DEFAULT_POOL, ExpertBot
from ..bots.ismcts import DEFAULT_ITERATIONS
from ..line import Line
from ..view import PlayerView

__all__ = ["ANALYSIS_BOT", "Entry", "Hint", "analyse", "hint_of", "same_game"]

ANALYSIS_BOT: Final = "expert"
"""The bot whose search values the actions: the strongest one the project has."""
_FLOOR_SHARE: Final = 4
"""Each action gets at least 1/(this × actions) of the iterations, so that a bad
action's value is measured rather than guessed from a handful of tries."""


@dataclass(frozen=True, slots=True)
class Entry:
    """One legal action and what the search thinks of it.

    ``points``: the expected points this round for the seat to move, its credit less
    the others' average; ``value``: the match-aware reward the bots play by, from -1 to
    1 (the order follows it); ``visits``: how many searched continuations the figures
    rest on. A ``forced`` action (the only legal one) is not searched: its ``points``
    and ``value`` are ``None`` and it gives nothing away, since there is nothing to weigh.
    """

    action: Action
    points: float | None
    value: float | None
    visits: int
    forced: bool = False

    def to_dict(self) -> dict[str, Any]:
        return {
            "action": str(self.action),
            "points": None if self.points is None else round(self.points, 2),
            "value": None if self.value is None else round(self.value, 4),
            "visits": self.visits,
            "forced": self.forced,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Entry:
        """The entry ``to_dict`` wrote; ValueError on anything else."""
        try:
            action = parse_action(data["action"])
            points, value, visits = data["points"], data["value"], data["visits"]
            forced = data.get("forced", False)
        except (KeyError, TypeError) as exc:
            raise ValueError(f"not an analysis entry: {data!r}") from exc
        if type(visits) is not int or visits < 0 or type(forced) is not bool:
            raise ValueError(f"an entry's visits are a whole number, not {visits!r}")
        for number in (points, value):
            if number is not None and (
                isinstance(number, bool) or not isinstance(number, int | float)
            ):
                raise ValueError(f"an entry's points and value are numbers, not {number!r}")
        return cls(
            action,
            None if points is None else float(points),
            None if value is None else float(value),
            visits,
            forced,
        )


def analyse(
    view: PlayerView,
    *,
    iterations: int | None = None,
    time_per_move: float | None = None,
    seed: int = 0,
    clock: Callable[[], float] = time.perf_counter,
) -> list[Entry]:
    """Every legal action of ``view``, best first, valued by the expert bot's search.

    Only the view is used (R21): two views that differ only in hidden tiles give the
    same analysis for the same ``seed``. ``iterations`` defaults to four times what
    the bot searches a move (it is spread over every action); ``time_per_move`` stops
    the search sooner. A ValueError when it is not the view's seat's turn.
    """
    legal = view.legal_actions
    if not legal:
        raise ValueError(
            "the round is over: there is nothing to analyse"
            if view.is_over
            else f"it is not player {view.player}'s turn"
        )
    if len(legal) == 1:
        return [Entry(legal[0], None, None, 0, forced=True)]
    if iterations is None:
        iterations = 4 * DEFAULT_ITERATIONS[view.players]
    # A determinization for every few iterations: the analysis is to be steady from
    # one seed to the next, where a move in play can live with a small pool.
    # The tree search, whose visits and match-aware values every action gets (the
    # learned playouts value actions in points only).
    options: dict[str, Any] = {
        "iterations": iterations,
        "pool": max(DEFAULT_POOL, iterations // 4),
        "playout": "greedy",
    }
    if time_per_move is not None:
        options["time_per_move"] = time_per_move
    bot = ExpertBot(seed, clock=clock, **options)
    floor = max(1, iterations // (_FLOOR_SHARE * len(legal)))
    stats = _merge_twins(bot.action_values(view, root_floor=floor), view)
    entries = [
        Entry(action, stats[action][2], stats[action][1], stats[action][0])
        if action in stats
        else Entry(action, None, None, 0)
        for action in legal
    ]
    order = {action: index for index, action in enumerate(legal)}
    entries.sort(
        key=lambda e: (
            e.value is None,
            -(e.value if e.value is not None else 0.0),
            -e.visits,
            order[e.action],
        )
    )
    return entries


def same_game(first: Action, second: Action, line: Line) -> bool:
    """Whether two actions lead to the same game: one tile at either end of a ``line``
    whose ends show the same value."""
    values = line.end_values
    return (
        isinstance(first, Place)
        and isinstance(second, Place)
        and first.tile == second.tile
        and len(values) == 2
        and values[0] == values[1]
    )


def _merge_twins(
    stats: dict[Action, tuple[int, float, float]], view: PlayerView
) -> dict[Action, tuple[int, float, float]]:
    """One tile at either of two ends showing the same value is one choice: both get the
    figures of all their searches together, so noise never ranks one above its twin."""
    merged = dict(stats)
    for action in stats:
        if isinstance(action, Place) and action.end == 0:
            twin = Place(action.tile, 1)
            if twin in stats and same_game(action, twin, view.line):
                (n0, v0, p0), (n1, v1, p1) = stats[action], stats[twin]
                total = n0 + n1
                both = (total, (n0 * v0 + n1 * v1) / total, (n0 * p0 + n1 * p1) / total)
                merged[action] = merged[twin] = both
    return merged


@dataclass(frozen=True, slots=True)
class Hint:
    """What a hint says: the best action, the next best that is a different choice
    (``None`` when the move is forced) and how many expected points the best is worth
    more (``None`` when not known)."""

    best: Action
    alternative: Action | None
    gain: float | None


def hint_of(entries: list[Entry], line: Line) -> Hint:
    """The hint an analysis gives on ``line``, comparing the best action with the next
    best one that is not the same game (the same tile at the twin end)."""
    best = entries[0]
    others = [e for e in entries[1:] if not same_game(e.action, best.action, line)]
    if not others:
        return Hint(best.action, None, None)
    second = others[0]
    gain = None if best.points is None or second.points is None else best.points - second.points
    return Hint(best.action, second.action, gain)
