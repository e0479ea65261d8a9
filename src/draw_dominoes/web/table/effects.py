"""What a table's step asks the runtime to do, as values: store, publish, ask, wake."""

from __future__ import annotations

from dataclasses import dataclass

from ..stores.base import Write
from .state import TableState

__all__ = ["AskBot", "AskHint", "Effect", "Publish", "Store", "Transition", "WakeAt"]


@dataclass(frozen=True, slots=True)
class Store:
    """Commit ``writes`` in one transaction, moving the stored version on by one. Done
    first: nothing is published, and the new state is not taken, unless it succeeds."""

    writes: tuple[Write, ...]


@dataclass(frozen=True, slots=True)
class Publish:
    """Every connection gets the new state once; ``announce`` says the last move aloud."""

    announce: bool = False


@dataclass(frozen=True, slots=True)
class AskBot:
    """A bot (or the away bot) is to choose for ``seat`` at this position."""

    seat: int
    level: str
    number: int
    seq: int


@dataclass(frozen=True, slots=True)
class AskHint:
    """Work out a hint for ``seat`` at this position, for the connection that asked."""

    seat: int
    number: int
    seq: int


@dataclass(frozen=True, slots=True)
class WakeAt:
    """Call ``due`` at ``when`` (wall-clock seconds); ``None``: no deadline now."""

    when: float | None


Effect = Store | Publish | AskBot | AskHint | WakeAt


@dataclass(frozen=True, slots=True)
class Transition:
    """A step's result: the state to take once ``effects``' store has succeeded."""

    state: TableState
    effects: tuple[Effect, ...] = ()

    @property
    def writes(self) -> tuple[Write, ...]:
        for effect in self.effects:
            if isinstance(effect, Store):
                return effect.writes
        return ()
