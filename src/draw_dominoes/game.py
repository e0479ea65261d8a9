"""Game: what a Round and a Match share, so that an interface drives either the same way."""

from __future__ import annotations

from typing import Protocol, runtime_checkable

from .actions import Action
from .view import PlayerView

__all__ = ["Game"]


@runtime_checkable
class Game(Protocol):
    """A position people or bots play through: whose turn, whether it is over, a move,
    and what one seat may see (R21). ``Round`` and ``Match`` both are one."""

    @property
    def players(self) -> int: ...

    @property
    def current_player(self) -> int: ...

    @property
    def is_over(self) -> bool: ...

    def legal_actions(self) -> list[Action]: ...

    def apply(self, action: Action) -> None: ...

    def view(self, player: int) -> PlayerView: ...
