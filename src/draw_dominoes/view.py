"""PlayerView: exactly what one seat may see of a round (R21), as a value and as JSON."""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Any

from .actions import Action, Draw, Pass, Place
from .line import Line
from .rules import RULES
from .tiles import UNDRAWN, Tile

__all__ = ["Outcome", "PlayerView", "Termination", "target_for"]


def target_for(players: int) -> int:
    """The match target: 100 with two players, 61 with three or four (R20)."""
    return RULES.target(players)


class Termination(enum.StrEnum):
    """How a round ended: a player went out (R13) or every player passed (R14)."""

    DOMINO = "domino"
    BLOCKED = "blocked"

    def __str__(self) -> str:
        return self.value


@dataclass(frozen=True, slots=True)
class Outcome:
    """A settled round (R15–R18).

    ``winner`` is the seat credited (``None`` after a blocked round with a tie for
    lowest), ``points`` what it scores, ``pip_totals`` every hand's total, and
    ``credits`` the points added to each seat's score.
    """

    kind: Termination
    winner: int | None
    points: int
    pip_totals: tuple[int, ...]

    @property
    def credits(self) -> tuple[int, ...]:
        return tuple(
            self.points if seat == self.winner else 0 for seat in range(len(self.pip_totals))
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "kind": self.kind.value,
            "winner": self.winner,
            "points": self.points,
            "pip_totals": list(self.pip_totals),
        }


@dataclass(frozen=True, slots=True)
class PlayerView:
    """What seat ``player`` may see (R21): nothing of other hands or the boneyard order.
    The public view (``player`` is ``None``, a spectator's) has no hand and no legal
    actions.

    ``scores`` are the match scores as they stand: once the round is over, with its
    credits added. ``history`` is the public record of the round: ``(seat, action)`` pairs, where a
    draw never names its tile. ``revealed_hands`` is empty until the round is over;
    then every hand is shown.
    """

    player: int | None
    players: int
    leader: int
    current_player: int
    hand: tuple[Tile, ...]
    line: Line
    boneyard_size: int
    hand_sizes: tuple[int, ...]
    scores: tuple[int, ...]
    target: int
    history: tuple[tuple[int, Action], ...]
    legal_actions: tuple[Action, ...]
    outcome: Outcome | None
    revealed_hands: tuple[tuple[Tile, ...], ...]

    @property
    def is_over(self) -> bool:
        return self.outcome is not None

    @property
    def is_my_turn(self) -> bool:
        return self.outcome is None and self.current_player == self.player

    @property
    def drawable(self) -> int:
        """Tiles that can still be drawn: the last two never are (R2)."""
        return max(0, self.boneyard_size - UNDRAWN)

    @property
    def lacking(self) -> tuple[frozenset[int], ...]:
        """Per seat, the values it is known not to hold: the ends it passed on (R5).

        Derived from the public history; a draw proves nothing (R5 lets a player draw
        with a playable tile), and a player who has passed can never draw again.
        """
        lacks: list[set[int]] = [set() for _ in range(self.players)]
        ends: list[int] = []
        for seat, action in self.history:
            if isinstance(action, Place):
                tile = action.tile
                if action.end is None:
                    ends = [tile.low, tile.high]
                else:
                    ends[action.end] = tile.other(ends[action.end])
            elif isinstance(action, Pass):
                lacks[seat].update(ends)
        return tuple(frozenset(values) for values in lacks)

    @property
    def draws(self) -> tuple[int, ...]:
        """How many tiles each seat has drawn this round (public, R21)."""
        counts = [0] * self.players
        for seat, action in self.history:
            if isinstance(action, Draw):
                counts[seat] += 1
        return tuple(counts)

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-ready data: tiles and actions in their text notation."""
        return {
            "player": self.player,
            "players": self.players,
            "leader": self.leader,
            "current_player": self.current_player,
            "hand": [str(t) for t in self.hand],
            "line": {
                "placements": [
                    {"tile": str(tile), "end": end} for tile, end in self.line.placements
                ],
                "ends": [
                    {"end": e.index, "value": e.value, "tile": str(e.tile), "port": e.port.value}
                    for e in self.line.ends
                ],
            },
            "boneyard_size": self.boneyard_size,
            "drawable": self.drawable,
            "hand_sizes": list(self.hand_sizes),
            "scores": list(self.scores),
            "target": self.target,
            "history": [{"player": seat, "action": str(a)} for seat, a in self.history],
            "legal_actions": [str(a) for a in self.legal_actions],
            "outcome": None if self.outcome is None else self.outcome.to_dict(),
            "revealed_hands": [[str(t) for t in hand] for hand in self.revealed_hands],
        }
