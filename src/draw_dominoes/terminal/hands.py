"""What a seat may be told of its own hand, read from its view alone (R21): its tiles in a
stable order and the tiles it drew."""

from __future__ import annotations

from ..tiles import Tile
from ..view import PlayerView

__all__ = ["hand_order", "last_drawn"]


def hand_order(view: PlayerView) -> list[Tile]:
    """The seat's hand in the order its numbers are shown: as dealt (sorted), then each
    drawn tile in the order drawn, so a draw never moves a number the player has read.
    It follows from the view alone, so a resumed match numbers the hand as before."""
    held = set(view.hand)
    return [tile for tile in (*view.dealt_hand, *view.drawn_tiles) if tile in held]


def last_drawn(view: PlayerView) -> Tile | None:
    """The tile the seat drew last: what its own draw, just made, is told with."""
    return view.drawn_tiles[-1] if view.drawn_tiles else None
