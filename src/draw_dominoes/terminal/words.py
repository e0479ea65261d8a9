"""The terminal's words in the player's language, and the names shown for seats and moves."""

from __future__ import annotations

from typing import Any

from ..actions import Action, Draw, Pass, Place
from ..i18n import translate
from ..tiles import Tile
from .saves import SavedSeat
from .shell import invocation

__all__ = ["Words"]


class Words:
    """``words("key", ...)`` is the message ``terminal.key`` in this language; ``{command}`` in
    a message is how to run this program from a shell (see ``shell.invocation``)."""

    def __init__(self, lang: str) -> None:
        self.lang = lang

    def __call__(self, name: str, /, **values: Any) -> str:
        return translate(f"terminal.{name}", self.lang, **{"command": invocation(), **values})

    def bot_label(self, bot: str) -> str:
        """A bot's name for people: the level it plays (as offered), else its own name."""
        from .. import bots

        for level, name in bots.LEVELS.items():
            if name == bot:
                return translate(f"common.level_{level}", self.lang)
        try:
            return self(f"bot_{bot}")
        except KeyError:
            return bot

    def seat_name(self, seat: SavedSeat, number: int) -> str:
        """The chosen name, else "Player 1" for people and "Bot 2 (greedy)" for bots."""
        if seat.name:
            return seat.name
        if seat.is_human:
            return self("human_name", number=number + 1)
        return self("bot_name", number=number + 1, bot=self.bot_label(seat.player))

    def tiles(self, tiles: tuple[Tile, ...] | list[Tile]) -> str:
        return " ".join(str(tile) for tile in tiles) if tiles else self("no_tiles")

    def scores(self, names: list[str], scores: tuple[int, ...], sep: str = ", ") -> str:
        """``Anna: 12, Bot 2 (greedy): 30``: a name and a score read apart."""
        return sep.join(self("score_entry", name=n, score=s) for n, s in zip(names, scores))

    def names(self, names: list[str]) -> str:
        """``A``, ``A and B``, ``A, B and C``."""
        if len(names) <= 1:
            return "".join(names)
        return self("and", first=", ".join(names[:-1]), last=names[-1])

    def end_name(self, end: int) -> str:
        return self("left") if end == 0 else self("right")

    def action(self, name: str, action: Action, drawn: Tile | None = None) -> str:
        """One public move in words; a drawn tile is named only when ``drawn`` is given."""
        if isinstance(action, Place):
            if action.end is None:
                return self("did_open", name=name, tile=action.tile)
            key = "did_place_left" if action.end == 0 else "did_place_right"
            return self(key, name=name, tile=action.tile)
        if isinstance(action, Draw):
            if drawn is not None:
                return self("did_draw_tile", name=name, tile=drawn)
            return self("did_draw", name=name)
        assert isinstance(action, Pass)
        return self("did_pass", name=name)

    def own_action(self, action: Action, drawn: Tile | None) -> str:
        """The player's own move, told to them (a draw names the tile only they can see)."""
        if isinstance(action, Place):
            if action.end is None:
                return self("you_open", tile=action.tile)
            key = "you_place_left" if action.end == 0 else "you_place_right"
            return self(key, tile=action.tile)
        if isinstance(action, Draw):
            return self("you_draw", tile=drawn)
        return self("you_pass")
