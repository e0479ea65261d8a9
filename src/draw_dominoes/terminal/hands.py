"""What a seat may be told of its own hand: its tiles in a stable order and the tiles it drew."""

from __future__ import annotations

from ..actions import Draw
from ..round import Round
from ..tiles import Tile

__all__ = ["drawn_tile", "hand_order", "own_draws"]


def own_draws(game: Round, seat: int) -> dict[int, Tile]:
    """The tiles ``seat`` drew this round, by their place in the history: the caller holds
    the whole round, and tells each seat only its own draws (R21)."""
    boneyard = game.deal[1]
    tiles: dict[int, Tile] = {}
    draws = 0
    for number, (who, action) in enumerate(game.history):
        if isinstance(action, Draw):
            if who == seat:
                tiles[number] = boneyard[draws]
            draws += 1
    return tiles


def hand_order(game: Round, seat: int) -> list[Tile]:
    """The seat's hand in the order its numbers are shown: as dealt (sorted), then each
    drawn tile in the order drawn, so a draw never moves a number the player has read.
    It follows from the round alone, so a resumed match numbers the hand as before."""
    held = set(game.hand(seat))
    dealt = game.deal[0][seat]
    drawn = [tile for _, tile in sorted(own_draws(game, seat).items())]
    return [tile for tile in (*dealt, *drawn) if tile in held]


def drawn_tile(before: tuple[Tile, ...], after: tuple[Tile, ...]) -> Tile | None:
    """The tile a draw added to a hand."""
    added = set(after) - set(before)
    return added.pop() if added else None
