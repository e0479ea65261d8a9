"""The one interface every table store implements (SQLite and PostgreSQL), and its rows."""

from __future__ import annotations

import dataclasses
import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from .ratings_sql import RatingChange, RatingRow, SeatAccount
    from .seeking_sql import SeekRow

__all__ = [
    "ANONYMOUS",
    "AccountRow",
    "DropActions",
    "GameRow",
    "LobbyRow",
    "MatchRow",
    "SaveAction",
    "SaveMatch",
    "SaveSeat",
    "SaveTable",
    "SeatRow",
    "StaleWrite",
    "Store",
    "StoreError",
    "StoreUnavailable",
    "TableRow",
    "Write",
    "hash_token",
    "write_from_json",
    "write_to_json",
]


class StoreError(Exception):
    """A database that cannot be used at all (damaged, of another application, a wrong
    URL): the user gets one clear line, not a traceback, and the server does not start."""

    def __init__(self, where: str, reason: str) -> None:
        self.where = where
        self.reason = reason
        super().__init__(f"{where} is not a usable draw-dominoes database ({reason})")


class StoreUnavailable(Exception):
    """The database went away or timed out during a request: the request fails with a
    clear error (``unavailable``), nothing is changed, and later requests try again."""


ANONYMOUS = "—"
"""The name a deleted account's seats keep."""


class StaleWrite(Exception):
    """A compare-and-set refused a write: another process has moved the table on (or
    holds its lease). The writer's copy of the table is stale and must be dropped."""


def hash_token(token: str) -> str:
    """Seat tokens are kept only as hashes: a copy of the database gives away no seat."""
    return hashlib.sha256(token.encode()).hexdigest()


@dataclass(frozen=True, slots=True)
class SeatRow:
    seat: int
    kind: str  # "open", "human" or "bot"
    name: str
    level: str | None
    token_hash: str | None


@dataclass(frozen=True, slots=True)
class MatchRow:
    """A match as stored: its record when it was written, then the actions played since
    (``(seq, action)`` in order; ``seq`` counts from the match's first action)."""

    number: int
    seed: int
    record: str
    actions: tuple[tuple[int, str], ...] = ()


@dataclass(frozen=True, slots=True)
class TableRow:
    """A table as stored. ``state`` is the table's JSON (round's end, rematch votes, away
    seats, deadlines...), ``None`` for a table written before it was kept; ``version``
    counts the table's commits and is the compare-and-set's key."""

    id: str
    players: int
    base_seed: int
    created: float
    seats: tuple[SeatRow, ...]
    matches: tuple[MatchRow, ...]
    public: bool = False
    host: int = 0
    hints: bool = False
    state: str | None = None
    version: int = 0
    address: str | None = None
    """The client address that created the table (per-address limits)."""


@dataclass(frozen=True, slots=True)
class LobbyRow:
    """A listed table for the start page, read from the database by any process."""

    id: str
    players: int
    created: float
    seats: tuple[SeatRow, ...]
    host: int
    address: str | None = None
    """The creator's client address (``None``: unknown), so that the list can show only
    a few tables of each address."""


@dataclass(frozen=True, slots=True)
class AccountRow:
    """A signed-up player. ``password_hash`` is ``accounts.PasswordHash``'s text."""

    id: str
    username: str
    password_hash: str
    created: float


@dataclass(frozen=True, slots=True)
class GameRow:
    """A table where an account holds a seat, for its list of games (newest first), with
    its seats' names, kinds and bots (a bot's name is shown by its level)."""

    table_id: str
    seat: int
    players: int
    status: str
    created: float
    names: tuple[str, ...]
    kinds: tuple[str, ...] = ()
    levels: tuple[str | None, ...] = ()


# ---------------------------------------------------------------- writes of a commit


@dataclass(frozen=True, slots=True)
class SaveAction:
    """One action of match ``number`` at position ``seq``: the one write per move."""

    number: int
    seq: int
    action: str


@dataclass(frozen=True, slots=True)
class DropActions:
    """A take-back: the actions of match ``number`` from position ``seq`` on are gone."""

    number: int
    seq: int


@dataclass(frozen=True, slots=True)
class SaveSeat:
    seat: SeatRow


@dataclass(frozen=True, slots=True)
class SaveMatch:
    """A match's record: inserted when it is dealt, replaced when it is over."""

    number: int
    seed: int
    record: str


@dataclass(frozen=True, slots=True)
class SaveTable:
    """The table's own fields; ``listed`` says the start page shows it now (public, in
    the lobby, an open seat, someone there); ``status`` is lobby, playing or over."""

    public: bool
    host: int
    hints: bool
    listed: bool
    status: str
    state: str
    solo_address: str | None = None
    """The one client address every person at the table came from (``None``: several):
    such a table counts towards that address's limit of matches against bots."""


Write = SaveAction | DropActions | SaveSeat | SaveMatch | SaveTable

_WRITES: dict[str, type[Any]] = {
    cls.__name__: cls for cls in (SaveAction, DropActions, SaveSeat, SaveMatch, SaveTable)
}


def write_to_json(write: Write) -> dict[str, Any]:
    """A write as JSON data: the owner of a table tells the other processes its commits."""
    data: dict[str, Any] = {"kind": type(write).__name__}
    for name in write.__slots__:
        value = getattr(write, name)
        data[name] = dataclasses.asdict(value) if isinstance(value, SeatRow) else value
    return data


def write_from_json(data: dict[str, Any]) -> Write:
    """The write ``write_to_json`` made (only ever from another of this server's processes)."""
    values = {key: value for key, value in data.items() if key != "kind"}
    if "seat" in values and isinstance(values["seat"], dict):
        values["seat"] = SeatRow(**values["seat"])
    write: Write = _WRITES[data["kind"]](**values)
    return write


class Store(Protocol):
    """Where tables meet: every process reads and writes tables here.

    Every method may raise ``StoreUnavailable`` when the database is gone; then nothing
    was written. ``commit`` is atomic.
    """

    where: str
    """The file path or the URL without its password (for messages and logs)."""
    remote: bool
    """Whether calls wait on another server (they are then made off the event loop)."""

    def close(self) -> None: ...

    def create_table(self, row: TableRow) -> None:
        """A new table with its seats (version 0, no lease); refused if the id exists."""

    def commit(
        self, table_id: str, version: int, writes: Sequence[Write], owner: str | None = None
    ) -> None:
        """All of ``writes`` in one transaction, and the table's version from ``version``
        to ``version + 1``. Refused with ``StaleWrite`` (and nothing written) if the
        stored version is not ``version``, an action's ``(table, match, seq)`` exists
        already, or ``owner`` is given and does not hold the table's lease."""

    def load_table(self, table_id: str) -> TableRow | None:
        """One table with its seats, matches and actions; ``None`` if there is none."""

    def has_table(self, table_id: str) -> bool: ...

    def count_tables(self) -> int: ...

    def lobby(self, limit: int = 50, per_address: int | None = None) -> list[LobbyRow]:
        """The listed tables, newest first; with ``per_address``, only the newest that
        many of each creator's address (tables without an address each count alone)."""

    def solo_running(self, address: str) -> int:
        """How many tables are ``playing`` whose ``solo_address`` is ``address``."""

    def save_review(self, table_id: str, number: int, review: str, created: float) -> None:
        """The finished review of match ``number`` (JSON text); written once."""

    def load_review(self, table_id: str, number: int) -> str | None: ...

    # ------------------------------------------------------------ accounts

    def create_account(self, row: AccountRow, key: str) -> bool:
        """A new account under ``key`` (``accounts.username_key``); False, and nothing
        written, if that key is taken."""

    def account_by_key(self, key: str) -> AccountRow | None: ...

    def set_password(self, account_id: str, password_hash: str, keep_session: str) -> None:
        """A new password; every session of the account but ``keep_session`` (a token
        hash) ends."""

    def delete_account(self, account_id: str) -> None:
        """The account, its sessions and its sign-in failures go; its seats stay, named
        anew as nobody's (``ANONYMOUS``), so that finished games keep their shape."""

    def add_session(self, token_hash: str, account_id: str, created: float, until: float) -> None:
        """A session, stored by its token's hash only; expired sessions are swept."""

    def session_account(self, token_hash: str, now: float) -> AccountRow | None:
        """The account of an unexpired session."""

    def drop_session(self, token_hash: str) -> None: ...

    def claim_seat(self, table_id: str, token_hash: str, account_id: str) -> bool:
        """The seat of ``table_id`` whose token has ``token_hash`` becomes the account's
        (its games, its ratings), unless it is someone's already; True if it did."""

    def account_seat(self, table_id: str, account_id: str) -> int | None:
        """The account's seat at the table (its first, should it hold several)."""

    def account_games(self, account_id: str, limit: int) -> list[GameRow]: ...

    def sign_in_failed(self, keys: Sequence[str], now: float, window: float) -> None:
        """Count a failed sign-in against each of ``keys`` (the account's, the
        address's), forgetting failures older than ``window`` seconds."""

    def sign_in_failures(self, key: str, since: float) -> tuple[int, float | None]:
        """How many failures ``key`` has had since ``since``, and the oldest of them."""

    # ------------------------------------------------------------ ratings

    def table_accounts(self, table_id: str) -> list[SeatAccount]:
        """The table's seats held by accounts."""

    def ratings_of(self, account_ids: Sequence[str], players: int) -> dict[str, RatingRow]:
        """The ratings at tables of ``players`` (accounts without one are left out)."""

    def record_ratings(
        self, table_id: str, number: int, players: int, changes: Sequence[RatingChange]
    ) -> bool:
        """A rated match's changes and the new ratings, in one transaction, once."""

    def match_ratings(self, table_id: str, number: int) -> list[RatingChange]: ...

    def account_ratings(self, account_id: str) -> list[RatingRow]: ...

    def rating_history(self, account_id: str, players: int, limit: int) -> list[RatingChange]: ...

    def leaderboard(self, players: int, limit: int) -> list[RatingRow]: ...

    # ------------------------------------------------------------ play now

    def seek(self, row: SeekRow) -> None:
        """Wait for a table (a new ticket)."""

    def seeker(self, ticket_hash: str) -> SeekRow | None: ...

    def take_group(
        self, ticket_hash: str, now: float, bot_wait: float, table_id: str
    ) -> list[SeekRow]:
        """Pair the ticket with others waiting for the same table, in one transaction."""

    def cancel_seek(self, ticket_hash: str) -> bool: ...

    # ------------------------------------------------------------ leases

    def take_lease(self, table_id: str, owner: str, seconds: float) -> bool:
        """Hold the table for ``seconds`` if nobody else holds it (or their lease has
        expired, by the database's clock); True if ``owner`` holds it now."""

    def renew_leases(self, owner: str, seconds: float) -> set[str]:
        """Extend every lease ``owner`` holds; the ids of the tables it still holds."""

    def hand_lease(self, table_id: str, owner: str, to: str, seconds: float) -> bool:
        """Give the table from ``owner`` (who must hold it now) to ``to``, for ``seconds``;
        True if it was given. Nobody else can take it in between."""

    def drop_lease(self, table_id: str, owner: str) -> None:
        """Let the table go (a stale copy, an idle table, a clean stop)."""

    def lease_owner(self, table_id: str) -> str | None:
        """Who holds the table's lease now (``None``: nobody, or it has expired)."""
