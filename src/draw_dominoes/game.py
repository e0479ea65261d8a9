"""Game: what a Round and a Match share, and the one turn loop that drives either."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Protocol, runtime_checkable

from .actions import Action, IllegalActionError
from .view import PlayerView

__all__ = ["Game", "Player", "play", "take_turn"]


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

    def check(self, action: object) -> IllegalActionError | None: ...

    def apply(self, action: Action) -> None: ...

    def undo(self) -> Action: ...

    def view(self, player: int | None) -> PlayerView: ...


class Player(Protocol):
    """Whoever chooses a seat's moves from that seat's view alone (a bot, or a person
    behind an interface)."""

    def choose(self, view: PlayerView) -> Action: ...


def take_turn(game: Game, player: Player) -> tuple[int, Action]:
    """One turn: the seat to move chooses from its own view (R21) and the game applies
    the choice (an illegal one raises and changes nothing, R8)."""
    seat = game.current_player
    action = player.choose(game.view(seat))
    game.apply(action)
    return seat, action


def play(
    game: Game, players: Mapping[int, Player] | Sequence[Player]
) -> Iterator[tuple[int, Action]]:
    """Take turns while the game goes on and the seat to move has a player in
    ``players``, yielding each ``(seat, action)`` as it is taken: the one turn loop,
    whether every seat is a bot (to the end) or people hold some (up to their turn)."""
    seats = players if isinstance(players, Mapping) else dict(enumerate(players))
    while not game.is_over and game.current_player in seats:
        yield take_turn(game, seats[game.current_player])
