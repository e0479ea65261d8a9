"""A web table's state as plain data: seats, matches, host, round's end, votes, away seats."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from ... import record
from ...actions import parse_action
from ...match import Match
from ...rules import RULES
from ..stores.base import SaveAction, SaveMatch, SaveSeat, SaveTable, SeatRow, TableRow, Write
from .intents import CHAT_PHRASES

__all__ = [
    "AWAY_LEVEL",
    "HOST_SEAT",
    "MOVE_SECONDS",
    "Seat",
    "TableState",
    "Timing",
    "action_count",
    "bot_label",
    "from_row",
    "replay",
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


def action_count(match: Match) -> int:
    """How many actions the match has seen: the sequence number clients see."""
    return sum(len(r.history) for r in match.rounds) + (
        0 if match.is_over else len(match.current_round.history)
    )


@dataclass(frozen=True, slots=True)
class Seat:
    seat: int
    kind: str  # "open", "human" or "bot"
    name: str = ""
    level: str | None = None
    token_hash: str | None = None

    def row(self) -> SeatRow:
        return SeatRow(self.seat, self.kind, self.name, self.level, self.token_hash)


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
    seats: tuple[Seat, ...]
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
        match = self.match
        if match is None:
            return "lobby"
        return "over" if match.is_over else "playing"

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
        return self.seats[seat].kind == "bot" or seat in self.away or seat == self.timed_out

    def level_of(self, seat: int) -> str:
        level = self.seats[seat].level
        return level if level is not None and self.seats[seat].kind == "bot" else AWAY_LEVEL

    def waiting_at_round_end(self) -> list[int]:
        """Connected people who have not yet continued after the round just finished."""
        match = self.match
        if match is None or match.is_over:
            return []
        finished = len(match.rounds)
        return sorted(s for s in self.present if self.seen[s] < finished)

    def rematch_needed(self) -> list[int]:
        """The people whose yes a rematch needs: everyone seated who is here (bots agree)."""
        return sorted(self.present | self.rematch_votes)

    def bots_only_opponents(self) -> bool:
        """Every seat but the host's is a bot: one person keeps the server's bots busy."""
        return all(s.kind == "bot" for s in self.seats if s.seat != self.host)

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
        if match is None or match.is_over or self.pause_until is not None:
            return None
        seat = match.current_player
        return seat if self.plays_itself(seat) else None

    def away_due(self) -> float | None:
        """When the medium bot takes over for the person to move who is gone."""
        match = self.match
        if match is None or match.is_over or self.pause_until is not None:
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
        if not self.move_seconds or match is None or match.is_over:
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


def _seats_of(row: TableRow) -> tuple[Seat, ...]:
    if not RULES.allows(row.players):
        raise ValueError(f"bad player count {row.players!r}")
    if [s.seat for s in row.seats] != list(range(row.players)):
        raise ValueError("the seats do not match the player count")
    return tuple(Seat(s.seat, s.kind, s.name, s.level, s.token_hash) for s in row.seats)


def _matches_of(row: TableRow) -> tuple[Match, ...]:
    matches = []
    for expected, match_row in enumerate(row.matches):
        if match_row.number != expected:
            raise ValueError(f"match {expected} is missing")
        game = record.loads(match_row.record)
        if not isinstance(game, Match):
            raise record.RecordError("a stored record is not a match")
        if game.players != row.players:
            raise record.RecordError("a stored record has another player count")
        done = action_count(game)
        for seq, text in match_row.actions:
            if seq < done:
                continue  # already in the record
            if seq != done:
                raise record.RecordError(f"match {expected}: action {done} is missing")
            game.apply(parse_action(text))
            done += 1
        matches.append(game)
    return tuple(matches)


def _chat_of(value: Any, players: int) -> tuple[tuple[int, str, float], ...]:
    """The stored phrases that are well formed (seat, phrase, time); the rest dropped."""
    kept = []
    for item in value if isinstance(value, list) else ():
        if isinstance(item, list) and len(item) == 3:
            seat, phrase, at = item
            timed = isinstance(at, int | float) and not isinstance(at, bool)
            if type(seat) is int and 0 <= seat < players and phrase in CHAT_PHRASES and timed:
                kept.append((seat, str(phrase), float(at)))
    return tuple(kept)


def _number_list(value: Any, players: int, kind: type, default: Any) -> tuple[Any, ...]:
    if not isinstance(value, list) or len(value) != players:
        return (default,) * players
    return tuple(v if isinstance(v, kind) and not isinstance(v, bool) else default for v in value)


def _saved(
    text: str | None,
    seats: tuple[Seat, ...],
    matches: tuple[Match, ...],
    base_seed: int,
    address: str | None,
    now: float,
) -> dict[str, Any]:
    """The fields kept as the table's JSON; what is missing or malformed gets the value a
    table stored before its state was kept starts with."""
    try:
        saved = json.loads(text) if text else {}
    except ValueError:
        saved = {}
    if not isinstance(saved, dict):
        saved = {}
    players = len(seats)
    match = matches[-1] if matches else None
    seen_default = len(match.rounds) if match is not None else 0
    pause = saved.get("pause_until")
    clock, timed_out = saved.get("move_seconds"), saved.get("timed_out")
    turn_since = saved.get("turn_since")
    next_seed = saved.get("next_seed")
    if not isinstance(next_seed, int) or isinstance(next_seed, bool):
        next_seed = base_seed if not matches else None
    numbers = range(players)
    humans = {s.seat for s in seats if s.kind == "human"}
    addresses = _number_list(saved.get("addresses"), players, str, None)
    if address is not None and addresses[HOST_SEAT] is None:
        addresses = (address, *addresses[1:])
    return {
        "seen": _number_list(saved.get("seen"), players, int, seen_default),
        "pause_until": float(pause) if isinstance(pause, int | float) else None,
        "rematch_votes": frozenset(s for s in saved.get("rematch_votes", ()) if s in numbers),
        "next_seed": next_seed,
        "away": frozenset(s for s in saved.get("away", ()) if s in humans),
        "left_at": _number_list(saved.get("left_at"), players, float, None),
        "turn_since": float(turn_since) if isinstance(turn_since, int | float) else now,
        "addresses": addresses,
        "rated": saved.get("rated") is True,
        "move_seconds": clock if clock in MOVE_SECONDS else 0,
        "timed_out": timed_out if timed_out in humans else None,
        "clock_moves": _number_list(saved.get("clock_moves"), players, int, 0),
        "away_moves": _number_list(saved.get("away_moves"), players, int, 0),
        "chat": _chat_of(saved.get("chat"), players),
    }


def from_row(row: TableRow, timing: Timing, now: float) -> TableState:
    """The table as stored; raises (a ``ValueError`` or ``RecordError``) for a damaged row.

    A table stored before its state was kept starts afresh: nobody has seen a round's
    end, nobody is away, and the turn's clock starts now."""
    seats = _seats_of(row)
    matches = _matches_of(row)
    host = row.host
    if not (type(host) is int and 0 <= host < row.players and seats[host].kind == "human"):
        host = HOST_SEAT
    match = matches[-1] if matches else None
    return TableState(
        id=row.id,
        players=row.players,
        first_seed=row.base_seed,
        created=row.created,
        seats=seats,
        matches=matches,
        host=host,
        public=bool(row.public),
        hints=bool(row.hints),
        seq=action_count(match) if match is not None else 0,
        version=row.version,
        timing=timing,
        **_saved(row.state, seats, matches, row.base_seed, row.address, now),
    )


def replay(state: TableState, writes: Sequence[Write], version: int) -> TableState:
    """The table after a commit that another process made: its writes, in order. A
    process that serves clients of a table it does not own follows the owner this way."""
    seats = list(state.seats)
    matches = list(state.matches)
    seq = state.seq
    changes: dict[str, Any] = {}
    for write in writes:
        if isinstance(write, SaveSeat):
            row = write.seat
            seats[row.seat] = Seat(row.seat, row.kind, row.name, row.level, row.token_hash)
        elif isinstance(write, SaveMatch) and write.number == len(matches):
            game = record.loads(write.record)
            if not isinstance(game, Match):
                raise record.RecordError("a match's record is not a match")
            matches.append(game)
            seq = action_count(game)
        elif isinstance(write, SaveAction):
            game = matches[write.number].clone()
            game.apply(parse_action(write.action))
            matches[write.number] = game
            seq = write.seq + 1
        elif isinstance(write, SaveTable):
            changes.update(public=write.public, host=write.host, hints=write.hints)
            changes.update(
                _saved(write.state, tuple(seats), tuple(matches), state.first_seed, None, 0.0)
            )
    return dataclasses.replace(
        state,
        seats=tuple(seats),
        matches=tuple(matches),
        seq=seq,
        version=version,
        **changes,
    )
