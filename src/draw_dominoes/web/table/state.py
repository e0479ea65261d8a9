"""A web table's state as plain data: seats, matches, host, round's end, votes, away seats."""

from __future__ import annotations

import json
from dataclasses import dataclass, field

from ...match import Match
from ..stores.base import SaveTable, SeatRow, TableRow

__all__ = [
    "AWAY_LEVEL",
    "HOST_SEAT",
    "MOVE_SECONDS",
    "TableSeat",
    "TableState",
    "Timing",
    "bot_label",
    "rewound",
]

HOST_SEAT = 0
"""The creator's seat, and the host's until the host leaves the lobby."""
AWAY_LEVEL = "heuristic"
"""The medium bot: it plays for a person who is away on their turn."""


MOVE_SECONDS = (0, 15, 30, 60)
"""The times a move a table may have (0: no clock)."""


def bot_label(seat: int, level: str) -> str:
    """The name a bot seat shows; people's names may not look like it."""
    return f"Bot {seat + 1} ({level})"


def rewound(match: Match, seq: int) -> Match:
    """The match as it stood after its first ``seq`` actions (a take-back, W7): a copy
    with the later actions undone (a round they dealt is undealt, so its seed deals it
    again the same); ``match`` itself, a table's value, stays as it was."""
    again = match.clone()
    for _ in range(match.ply() - seq):
        again.undo()
    return again


@dataclass(frozen=True, slots=True)
class TableSeat:
    seat: int
    kind: str  # "open", "human" or "bot"
    name: str = ""
    level: str | None = None
    token_hash: str | None = None

    def row(self) -> SeatRow:
        return SeatRow(self.seat, self.kind, self.name, self.level, self.token_hash)

    @classmethod
    def of(cls, row: SeatRow) -> TableSeat:
        """The seat a stored row describes."""
        return cls(row.seat, row.kind, row.name, row.level, row.token_hash)


@dataclass(frozen=True, slots=True)
class Timing:
    """How long a table waits for its people; the server's settings, not stored."""

    round_pause: float = 30.0
    """At most this long a round's end is shown before the next round starts (0: not)."""
    away_seconds: float = 60.0
    """A person away this long on their turn is played for by the medium bot."""
    host_grace: float = 10.0
    """A host gone this long from the lobby hands it to the next person there."""


@dataclass(frozen=True)
class TableState:
    """Everything a table is, as a value: ``step`` makes a new one for every change.

    Times are wall-clock seconds (``time.time()``), so deadlines survive a restart and
    mean the same on every process. The matches are engine objects that are never
    changed once in a state: a move clones the current one. ``present`` and
    ``spectators`` say who is connected anywhere; they are not stored.
    """

    id: str
    players: int
    first_seed: int
    """The seed of match 0 (fresh, or chosen by a test client)."""
    created: float
    seats: tuple[TableSeat, ...]
    matches: tuple[Match, ...] = ()
    host: int = HOST_SEAT
    public: bool = False
    hints: bool = False
    rated: bool = False
    """Chosen at creation: the match changes its signed-in players' ratings."""
    move_seconds: int = 0
    """Chosen at creation: the time a person has for each move (0: no clock)."""
    timed_out: int | None = None
    """The seat whose time ran out: the medium bot makes that one move for it."""
    clock_moves: tuple[int, ...] = ()
    """Per seat: the moves of this match the bot made because that seat's time ran out."""
    away_moves: tuple[int, ...] = ()
    """Per seat: the moves of this match the bot made while that person was away."""
    chat: tuple[tuple[int, str, float], ...] = ()
    """The latest quick-chat phrases: (seat, phrase, when), oldest first."""
    resignations: tuple[tuple[int, int, int], ...] = ()
    """Every resignation at this table: (match number, seat, actions played before it).
    Kept beside the matches' records, which hold the rules' moves only (W2)."""
    takebacks: int = 0
    """Take-backs at this table so far: a bot's answer asked for before one is void."""
    seq: int = 0
    """Actions played in the current match."""
    version: int = 0
    """The stored version (the compare-and-set's key): commits count it up."""
    seen: tuple[int, ...] = ()
    """Per seat: the finished rounds of this match it has continued past."""
    pause_until: float | None = None
    """While set, the round just ended is shown and nobody moves (until this time)."""
    rematch_votes: frozenset[int] = frozenset()
    next_seed: int | None = None
    """The seed the next match is dealt from (never derived from an earlier one, R21);
    never shown to anyone."""
    away: frozenset[int] = frozenset()
    """Seats of people who stayed away on their turn: the medium bot plays for them."""
    left_at: tuple[float | None, ...] = ()
    """Per seat: since when a seated person has had no connection (``None``: here)."""
    turn_since: float = 0.0
    """When the seat to move got its turn."""
    addresses: tuple[str | None, ...] = ()
    """Per seat: the client address the person took it from (per-address limits)."""
    present: frozenset[int] = frozenset()
    spectators: int = 0
    timing: Timing = field(default_factory=Timing)

    def __post_init__(self) -> None:
        n = self.players
        for name, default in (
            ("seen", 0),
            ("left_at", None),
            ("addresses", None),
            ("clock_moves", 0),
            ("away_moves", 0),
        ):
            if not getattr(self, name):
                object.__setattr__(self, name, (default,) * n)

    # ------------------------------------------------------------ derived

    @property
    def match(self) -> Match | None:
        return self.matches[-1] if self.matches else None

    @property
    def status(self) -> str:
        if not self.matches:
            return "lobby"
        return "over" if self.match_over(len(self.matches) - 1) else "playing"

    @property
    def playing(self) -> bool:
        """A match is under way: dealt, and neither over by the rules nor given up (W3)."""
        return self.status == "playing"

    def resigned_in(self, number: int) -> frozenset[int]:
        """The seats that resigned match ``number``."""
        return frozenset(seat for n, seat, _ in self.resignations if n == number)

    def given_up(self, number: int) -> bool:
        """Match ``number`` ended because every person at it resigned (W3)."""
        people = {s.seat for s in self.seats if s.kind == "human"}
        resigned = self.resigned_in(number)
        return bool(people) and not self.matches[number].is_over and people <= resigned

    def match_over(self, number: int) -> bool:
        """Over by the rules, or given up by everyone who played it."""
        return self.matches[number].is_over or self.given_up(number)

    @property
    def address(self) -> str | None:
        """The creator's address."""
        return self.addresses[HOST_SEAT]

    def seed_of(self, number: int) -> int:
        """The seed match ``number`` was dealt from (each match has its own, R21)."""
        seed = self.matches[number].seed
        assert seed is not None
        return seed

    def connected_seats(self) -> tuple[bool, ...]:
        """Per seat: is someone there (a bot always is)."""
        return tuple(s.kind == "bot" or s.seat in self.present for s in self.seats)

    def plays_itself(self, seat: int) -> bool:
        """A bot seat, or a person's seat the medium bot plays for while they are away."""
        return (
            self.seats[seat].kind == "bot"
            or seat in self.away
            or seat == self.timed_out
            or (bool(self.matches) and seat in self.resigned_in(len(self.matches) - 1))
        )

    def level_of(self, seat: int) -> str:
        level = self.seats[seat].level
        return level if level is not None and self.seats[seat].kind == "bot" else AWAY_LEVEL

    def waiting_at_round_end(self) -> list[int]:
        """Connected people who have not yet continued after the round just finished."""
        match = self.match
        if match is None or not self.playing:
            return []
        finished = len(match.rounds)
        gave_up = self.resigned_in(len(self.matches) - 1)
        return sorted(s for s in self.present - gave_up if self.seen[s] < finished)

    def rematch_needed(self) -> list[int]:
        """The people whose yes a rematch needs: everyone seated who is here (bots agree)."""
        return sorted(self.present | self.rematch_votes)

    def solo_address(self) -> str | None:
        """The one address every person here came from (``None``: several or unknown)."""
        people = {self.addresses[s.seat] for s in self.seats if s.kind == "human"}
        return people.pop() if len(people) == 1 else None

    def listed(self) -> bool:
        """Shown on the start page: public, in the lobby, a seat open, someone here."""
        return (
            self.public
            and self.status == "lobby"
            and bool(self.present)
            and any(s.kind == "open" for s in self.seats)
        )

    def bot_to_move(self) -> int | None:
        """The seat a bot is to play for now, if any."""
        match = self.match
        if match is None or not self.playing or self.pause_until is not None:
            return None
        seat = match.current_player
        return seat if self.plays_itself(seat) else None

    def away_due(self) -> float | None:
        """When the medium bot takes over for the person to move who is gone."""
        match = self.match
        if match is None or not self.playing or self.pause_until is not None:
            return None
        seat = match.current_player
        if self.seats[seat].kind != "human" or self.plays_itself(seat) or seat in self.present:
            return None
        left = self.left_at[seat]
        return max(self.turn_since if left is None else left, self.turn_since) + (
            self.timing.away_seconds
        )

    def clock_due(self) -> float | None:
        """When the time of the person to move runs out (a table with a clock)."""
        match = self.match
        if not self.move_seconds or match is None or not self.playing:
            return None
        seat = match.current_player
        if self.pause_until is not None or self.plays_itself(seat):
            return None
        return self.turn_since + self.move_seconds

    def host_due(self) -> float | None:
        """When a host gone from the lobby hands it on to the next person here."""
        if self.status != "lobby" or self.host in self.present or not self.present:
            return None
        left = self.left_at[self.host]
        return (self.turn_since if left is None else left) + self.timing.host_grace

    def deadline(self) -> float | None:
        """The earliest time at which ``due`` has something to do."""
        times = [
            t
            for t in (self.pause_until, self.away_due(), self.clock_due(), self.host_due())
            if t is not None
        ]
        return min(times) if times else None

    # ------------------------------------------------------------ storage

    def stored_json(self) -> str:
        """The fields the table row does not hold in columns of their own."""
        return json.dumps(
            {
                "seen": list(self.seen),
                "pause_until": self.pause_until,
                "rematch_votes": sorted(self.rematch_votes),
                "next_seed": self.next_seed,
                "away": sorted(self.away),
                "left_at": list(self.left_at),
                "turn_since": self.turn_since,
                "addresses": list(self.addresses),
                "rated": self.rated,
                "move_seconds": self.move_seconds,
                "timed_out": self.timed_out,
                "clock_moves": list(self.clock_moves),
                "away_moves": list(self.away_moves),
                "chat": [list(said) for said in self.chat],
                "resignations": [list(r) for r in self.resignations],
                "takebacks": self.takebacks,
            },
            separators=(",", ":"),
        )

    def table_write(self) -> SaveTable:
        return SaveTable(
            public=self.public,
            host=self.host,
            hints=self.hints,
            listed=self.listed(),
            status=self.status,
            state=self.stored_json(),
            solo_address=self.solo_address(),
        )

    def row(self) -> TableRow:
        """The new table's row (it has no matches yet)."""
        return TableRow(
            id=self.id,
            players=self.players,
            base_seed=self.first_seed,
            created=self.created,
            seats=tuple(s.row() for s in self.seats),
            matches=(),
            public=self.public,
            host=self.host,
            hints=self.hints,
            state=self.stored_json(),
            version=self.version,
            address=self.address,
        )
