"""A web table's data: seats, matches and who is connected; the engine decides every move (R8)."""

from __future__ import annotations

import asyncio
import secrets
import time
from dataclasses import dataclass, field
from typing import Any, Protocol

from ..actions import IllegalActionError
from ..i18n import explain_refusal, translate
from ..match import Match
from .encoding import GrowingList
from .store import SeatRow, hash_token

__all__ = [
    "AWAY_LEVEL",
    "HOST_SEAT",
    "Connection",
    "ConnectionGone",
    "Seat",
    "Table",
    "UserError",
    "action_count",
    "bot_label",
    "fresh_seed",
]

HOST_SEAT = 0
"""The creator's seat, and the host's until the host leaves the lobby."""
AWAY_LEVEL = "heuristic"
"""The medium bot: it plays for a person who is away on their turn."""


class UserError(Exception):
    """A refused request; ``code`` names the ``web.error_<code>`` message shown to the user."""

    def __init__(self, code: str, **values: Any) -> None:
        super().__init__(code)
        self.code = code
        self.values = values

    def message(self, lang: str) -> str:
        values = {
            key: explain_refusal(value, lang) if isinstance(value, IllegalActionError) else value
            for key, value in self.values.items()
        }
        return translate(f"web.error_{self.code}", lang, **values)


class ConnectionGone(ConnectionError):
    """The browser closed its socket while we were sending to it."""


def fresh_seed() -> int:
    """An independent, unpredictable seed for one match: no record gives away another's."""
    return secrets.randbits(63)


def bot_label(seat: int, level: str) -> str:
    """The name a bot seat shows; people's names may not look like it."""
    return f"Bot {seat + 1} ({level})"


class Connection(Protocol):
    """One open WebSocket: who it is (a seat or a spectator), how it wants text drawn, and
    a non-blocking way to hand it encoded messages."""

    seat: int | None
    lang: str
    width: int
    height: int | None

    def deliver(self, text: str, slot: str | None = None) -> None:
        """Queue ``text``; a message with a ``slot`` replaces an unsent one of the same slot."""


@dataclass
class Seat:
    seat: int
    kind: str  # "open", "human" or "bot"
    name: str = ""
    level: str | None = None
    token_hash: str | None = None

    def row(self) -> SeatRow:
        return SeatRow(self.seat, self.kind, self.name, self.level, self.token_hash)


@dataclass(eq=False)
class Table:
    """A table: its seats and its matches (the last one is current; rematches append)."""

    id: str
    players: int
    first_seed: int
    """The seed of match 0 (fresh, or chosen by a test client); later matches get fresh ones."""
    created: float
    seats: list[Seat]
    matches: list[Match] = field(default_factory=list)
    owner: str | None = None
    """The client address that created the table (in memory only: for per-client limits)."""
    connections: set[Connection] = field(default_factory=set)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    bot_task: asyncio.Task[None] | None = None
    seq: int = 0
    """Actions played in the current match."""
    version: int = 0
    """Bumped by every change a client could see; encoded states are cached per version."""
    touched: float = field(default_factory=time.monotonic)
    """When the table was last used; idle tables leave memory."""
    encoded: dict[tuple[Any, ...], str] = field(default_factory=dict)
    presence_due: bool = False
    growing: dict[str, GrowingList] = field(
        default_factory=lambda: {"history": GrowingList(), "placements": GrowingList()}
    )
    """The encoded history and placements of the current round, shared by every state."""
    host: int = HOST_SEAT
    """Who may start the match and set the seats; passes on if the host leaves the lobby."""
    public: bool = False
    """Listed on the start page while it waits for players."""
    hints: bool = False
    """The host allows hints: the seat to move may ask what the analysis would play."""
    hinting: set[int] = field(default_factory=set)
    """Seats whose hint is being worked out (one at a time per seat)."""
    hinted: dict[int, tuple[int, int, list[dict[str, Any]]]] = field(default_factory=dict)
    """Per seat, the last hint's analysis and where it was asked (match number and
    action count): asking again at the same position costs nothing."""
    seen: list[int] = field(default_factory=list)
    """Per seat: the finished rounds of this match it has continued past."""
    pause_until: float | None = None
    """While set, the round just ended is being shown and nobody moves (until this time)."""
    rematch_votes: set[int] = field(default_factory=set)
    rematch_seed: object = None
    left_at: dict[int, float] = field(default_factory=dict)
    """Seated people without a connection, and since when."""
    away: set[int] = field(default_factory=set)
    """Seats of people who stayed away on their turn: the medium bot plays for them."""
    turn_since: float = 0.0
    """When the seat to move got its turn."""
    timers: dict[str, asyncio.TimerHandle] = field(default_factory=dict)
    """Pending checks by name (``pause``, ``away``, ``host``): one of each at a time."""
    pause_seconds: float = 30.0
    away_seconds: float = 60.0

    def __post_init__(self) -> None:
        if not self.seen:
            self.seen = [0] * self.players

    @property
    def match(self) -> Match | None:
        return self.matches[-1] if self.matches else None

    @property
    def status(self) -> str:
        match = self.match
        if match is None:
            return "lobby"
        return "over" if match.is_over else "playing"

    def seed_of(self, number: int) -> int:
        """The seed match ``number`` was dealt from (each match has its own, R21)."""
        seed = self.matches[number].seed
        assert seed is not None
        return seed

    def names(self) -> list[str]:
        return [s.name for s in self.seats]

    def seat_of_token(self, token: str | None) -> int | None:
        if not token:
            return None
        digest = hash_token(token)
        for seat in self.seats:
            if seat.token_hash is not None and secrets.compare_digest(seat.token_hash, digest):
                return seat.seat
        return None

    def connected_seats(self) -> tuple[bool, ...]:
        """Per seat: is someone there (a bot always is)."""
        present = self.present_people()
        return tuple(s.kind == "bot" or s.seat in present for s in self.seats)

    def present_people(self) -> set[int]:
        """The seats of people with at least one open connection."""
        return {c.seat for c in self.connections if c.seat is not None}

    def plays_itself(self, seat: int) -> bool:
        """A bot seat, or a person's seat the medium bot plays for while they are away."""
        return self.seats[seat].kind == "bot" or seat in self.away

    def level_of(self, seat: int) -> str:
        level = self.seats[seat].level
        return level if level is not None and self.seats[seat].kind == "bot" else AWAY_LEVEL

    def waiting_at_round_end(self) -> list[int]:
        """Connected people who have not yet continued after the round just finished."""
        match = self.match
        if match is None or match.is_over:
            return []
        finished = len(match.rounds)
        return sorted(s for s in self.present_people() if self.seen[s] < finished)

    def rematch_needed(self) -> list[int]:
        """The people whose yes a rematch needs: everyone seated who is here (bots agree)."""
        return sorted(self.present_people() | self.rematch_votes)

    def spectators(self) -> int:
        return sum(1 for c in self.connections if c.seat is None)

    def changed(self) -> None:
        """Something every client may see changed: drop the encoded states."""
        self.version += 1
        self.encoded.clear()

    def bots_only_opponents(self) -> bool:
        """Every seat but the host's is a bot: one person keeps the server's bots busy."""
        return all(s.kind == "bot" for s in self.seats if s.seat != self.host)


def action_count(match: Match) -> int:
    """How many actions the match has seen: the sequence number clients see."""
    return sum(len(r.history) for r in match.rounds) + (
        0 if match.is_over else len(match.current_round.history)
    )
