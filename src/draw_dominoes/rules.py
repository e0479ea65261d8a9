"""Rules: the game's fixed parameters as one frozen value, asked instead of repeated numbers."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TypeGuard

from .tiles import TILE_COUNT

__all__ = ["RULES", "Rules"]


@dataclass(frozen=True, slots=True)
class Rules:
    """What varies with the table (R2, R20), in the spirit of a static ``Game`` apart from
    the state: the player counts, and by player count the hand size and the target.

    Everything that checks a player count, sizes a hand or names the target asks this
    value; the set's fixed numbers are named once in ``tiles`` (``TILE_COUNT``,
    ``UNDRAWN``). Only the standard rules are played today (``RULES``).
    """

    min_players: int = 2
    max_players: int = 4
    hand_sizes: tuple[tuple[int, int], ...] = ((2, 7), (3, 7), (4, 6))
    """Tiles dealt to each hand, by player count (R2)."""
    targets: tuple[tuple[int, int], ...] = ((2, 100), (3, 61), (4, 61))
    """The score that ends a match, by player count (R20)."""

    @property
    def player_counts(self) -> range:
        return range(self.min_players, self.max_players + 1)

    def allows(self, players: object) -> TypeGuard[int]:
        """Whether ``players`` (an ``int``, not a ``bool``) is a legal player count."""
        return type(players) is int and self.min_players <= players <= self.max_players

    def check_players(self, players: object) -> int:
        """``players``, or ValueError when the rules have no such player count."""
        if not self.allows(players):
            raise ValueError(
                f"Draw is for {self.min_players} to {self.max_players} players, not {players!r}"
            )
        return players

    def hand_size(self, players: int) -> int:
        """Tiles in each hand at the deal (R2)."""
        return dict(self.hand_sizes)[self.check_players(players)]

    def target(self, players: int) -> int:
        """The score that ends the match (R20)."""
        return dict(self.targets)[self.check_players(players)]

    def boneyard_size(self, players: int) -> int:
        """Tiles left after the deal (R2)."""
        return TILE_COUNT - players * self.hand_size(players)


RULES = Rules()
"""The rules of Draw as the rulings decide them."""
