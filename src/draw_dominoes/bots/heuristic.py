"""The ``heuristic`` bot: a hand-written expert policy, no search, scored placement by placement."""

from __future__ import annotations

from ..actions import Action, Draw, Pass, Place
from ..tiles import Tile
from ..view import PlayerView
from .registry import turn_actions
from .simple import OptionlessBot

__all__ = ["HeuristicBot"]


def _ends_after(ends: tuple[int, ...], tile: Tile, end: int | None) -> tuple[int, int]:
    if end is None:
        return tile.low, tile.high
    new = list(ends)
    new[end] = tile.other(new[end])
    return new[0], new[1]


class HeuristicBot(OptionlessBot):
    """An expert's rules of thumb, each a term of a placement's score.

    - keep a variety of values in hand, so that later ends can be followed;
    - leave ends it holds more tiles of, and ends that opponents are known to lack (R5:
      they passed on them), which blocks them;
    - get rid of doubles early (they fit only one value) and of heavy tiles, the more
      so when a block or an opponent's domino is near (the hand's total counts, R15–R17);
    - draw voluntarily only when every placement would strand it (no tile left for
      either new end) while the boneyard is deep and no opponent is about to go out:
      it would have to draw next turn anyway, and drawing now widens today's choice.
    Deterministic: ties go to the first placement in the engine's order.
    """

    name = "heuristic"

    def choose(self, view: PlayerView) -> Action:
        legal = turn_actions(view)
        places = [a for a in legal if isinstance(a, Place)]
        if not places:
            return next(a for a in legal if isinstance(a, Draw | Pass))
        me = view.player
        opponents = [s for s in range(view.players) if s != me]
        lacking = view.lacking
        smallest_opponent = min(view.hand_sizes[s] for s in opponents)
        danger = view.drawable == 0 or smallest_opponent <= 2
        ends = view.line.end_values

        def score(place: Place) -> tuple[float, bool]:
            tile = place.tile
            rest = [t for t in view.hand if t is not tile]
            new_ends = _ends_after(ends, tile, place.end)
            followers = sum(1 for t in rest if t.low in new_ends or t.high in new_ends)
            variety = len({v for t in rest for v in (t.low, t.high)})
            blocked = sum(1 for s in opponents for v in set(new_ends) if v in lacking[s])
            value = (
                tile.pips * (1.0 if danger else 0.4)
                + 2.0 * variety
                + 1.5 * min(followers, 3)
                + 3.0 * blocked
                + (4.0 if tile.is_double else 0.0)
            )
            stranded = bool(rest) and followers == 0
            return value, stranded

        scored = [(score(p), p) for p in places]
        best_value = max(v for (v, _), _ in scored)
        best = next(p for (v, _), p in scored if v == best_value)
        all_stranded = all(stranded for (_, stranded), _ in scored)
        if (
            all_stranded
            and any(isinstance(a, Draw) for a in legal)
            and view.drawable >= 3
            and smallest_opponent > 2
        ):
            return legal[-1]
        return best
