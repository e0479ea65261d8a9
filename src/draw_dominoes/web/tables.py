"""Tables: seats, matches and bots behind the web app; the engine decides every move (R8)."""

from __future__ import annotations

import asyncio
import dataclasses
import functools
import json
import logging
import re
import secrets
import time
from collections.abc import Awaitable, Callable
from concurrent.futures import Executor, ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any, Protocol

from .. import bots, record
from ..actions import Action, Draw, IllegalActionError, Pass, Place, parse_action
from ..i18n import explain_outcome, explain_refusal, translate
from ..line import Line
from ..match import Match
from ..round import Round
from ..view import PlayerView
from .store import SeatRow, Store, TableRow, hash_token

__all__ = ["Connection", "ConnectionGone", "Hub", "Table", "UserError", "fresh_seed"]

log = logging.getLogger(__name__)

HOST_SEAT = 0
NAME_PATTERN = re.compile(r"^[^\x00-\x1f\x7f<>]{1,24}$")
LINE_WIDTHS = (320, 400, 480, 560, 640, 720, 800, 960, 1120)


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


class Connection(Protocol):
    """One open WebSocket: who it is (a seat or a spectator) and how it wants text drawn."""

    seat: int | None
    lang: str
    width: int

    async def send(self, message: dict[str, Any]) -> None: ...


@dataclass
class Seat:
    seat: int
    kind: str  # "open", "human" or "bot"
    name: str = ""
    level: str | None = None
    token_hash: str | None = None

    def row(self) -> SeatRow:
        return SeatRow(self.seat, self.kind, self.name, self.level, self.token_hash)


@dataclass
class Table:
    """A table: its seats and its matches (the last one is current; rematches append)."""

    id: str
    players: int
    first_seed: int
    """The seed of match 0 (fresh, or chosen by a test client); later matches get fresh ones."""
    created: float
    seats: list[Seat]
    matches: list[Match] = field(default_factory=list)
    connections: set[Connection] = field(default_factory=set)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    bot_task: asyncio.Task[None] | None = None
    seq: int = 0
    """Actions played in the current match (matches are replaced, never changed, per action)."""

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

    def connected_seats(self) -> set[int]:
        return {c.seat for c in self.connections if c.seat is not None}


def check_name(name: object) -> str:
    if not isinstance(name, str) or not NAME_PATTERN.match(name.strip()):
        raise UserError("bad_name")
    return name.strip()


def action_count(match: Match) -> int:
    """How many actions the match has seen: the sequence number clients see."""
    return sum(len(r.history) for r in match.rounds) + (
        0 if match.is_over else len(match.current_round.history)
    )


def record_text(match: Match) -> str:
    """The match record (``draw_dominoes.record``) as compact JSON, as it is stored."""
    return json.dumps(record.match_to_record(match), ensure_ascii=False, separators=(",", ":"))


def decide(level: str, seed: int, view: PlayerView) -> Action:
    """Run in a worker thread: a fresh seeded bot chooses from the seat's view alone (R21)."""
    return bots.create(level, seed=seed).choose(view)


def describe_action(seat_name: str, action: Action, lang: str) -> str:
    """One move in words, for the aria-live announcements."""
    if isinstance(action, Draw):
        return translate("web.announce_draw", lang, name=seat_name)
    if isinstance(action, Pass):
        return translate("web.announce_pass", lang, name=seat_name)
    assert isinstance(action, Place)
    if action.end is None:
        return translate("web.announce_open", lang, name=seat_name, tile=str(action.tile))
    where = translate(f"web.end_{action.end}", lang)
    return translate("web.announce_place", lang, name=seat_name, tile=str(action.tile), end=where)


@functools.lru_cache(maxsize=4096)
def line_svg(line: Line, lang: str, width: int, element_id: str) -> str | None:
    """The line drawn by the renderer (imported lazily; ``None`` if it is not installed).

    Lines are immutable values, so each picture is drawn once for all who see it.
    """
    try:
        from ..render import svg
    except ImportError:
        return None
    result: str = svg.line_svg(line, lang, width=width, markers=True, element_id=element_id)
    return result


def snap_width(width: object) -> int:
    """Clients ask for a line width; a few sizes keep the render cache small."""
    if not isinstance(width, int) or isinstance(width, bool):
        return 800
    fitting = [w for w in LINE_WIDTHS if w <= width]
    return fitting[-1] if fitting else LINE_WIDTHS[0]


class Hub:
    """All tables of one server: the only place where moves are validated, stored and sent."""

    def __init__(
        self,
        store: Store,
        *,
        bot_delay: float = 0.5,
        executor: Executor | None = None,
        allow_seeds: bool = False,
        retry_delay: float = 1.0,
        max_retry_delay: float = 60.0,
    ) -> None:
        self.store = store
        self.bot_delay = bot_delay
        self.executor = executor or ThreadPoolExecutor(max_workers=4, thread_name_prefix="bot")
        self.allow_seeds = allow_seeds
        """Testing only: clients may choose the seed of a table's first match (and rematches)."""
        self.retry_delay, self.max_retry_delay = retry_delay, max_retry_delay
        self.tables: dict[str, Table] = {}
        self.unavailable: dict[str, str] = {}
        """Stored tables that could not be rebuilt, with the reason; their rows stay untouched."""

    # ------------------------------------------------------------ loading

    def load(self) -> None:
        """Rebuild every table from the database by replaying its match records.

        A table whose rows cannot be rebuilt is logged and reported as unavailable; the
        others load as usual, and nothing stored is changed or deleted.
        """
        for row in self.store.load_all():
            try:
                table = self._rebuild(row)
            except Exception as exc:  # a damaged row: whatever replaying it raised
                self.unavailable[row.id] = f"{type(exc).__name__}: {exc}"
                log.exception("table %s cannot be loaded; it is left as stored", row.id)
                continue
            self.tables[table.id] = table

    @staticmethod
    def _rebuild(row: TableRow) -> Table:
        if type(row.players) is not int or not 2 <= row.players <= 4:
            raise ValueError(f"bad player count {row.players!r}")
        if [s.seat for s in row.seats] != list(range(row.players)):
            raise ValueError("the seats do not match the player count")
        table = Table(
            id=row.id,
            players=row.players,
            first_seed=row.base_seed,
            created=row.created,
            seats=[Seat(s.seat, s.kind, s.name, s.level, s.token_hash) for s in row.seats],
        )
        for expected, match_row in enumerate(row.matches):
            if match_row.number != expected:
                raise ValueError(f"match {expected} is missing")
            game = record.loads(match_row.record)
            if not isinstance(game, Match):
                raise record.RecordError("a stored record is not a match")
            if game.players != row.players:
                raise record.RecordError("a stored record has another player count")
            table.matches.append(game)
        if table.match is not None:
            table.seq = action_count(table.match)
        return table

    def resume_bots(self) -> None:
        """After a restart, bots whose turn it is move again (needs a running event loop)."""
        for table in self.tables.values():
            self._schedule_bots(table)

    # ------------------------------------------------------------ tables and seats

    def get(self, table_id: str) -> Table:
        table = self.tables.get(table_id)
        if table is None:
            raise UserError("unavailable" if table_id in self.unavailable else "unknown_table")
        return table

    def _seed_from(self, seed: object) -> int:
        """A fresh seed, or (only on a server started to allow it, for tests) the client's."""
        if seed is None:
            return fresh_seed()
        if not self.allow_seeds:
            raise UserError("seeds_disabled")
        if type(seed) is int and 0 <= seed < 2**62:
            return seed
        raise UserError("bad_request")

    def create_table(
        self, players: object, host_name: object, bot_levels: object, seed: object = None
    ) -> tuple[Table, str]:
        """A new table; the creator holds seat 0. ``bot_levels`` maps seats to bot levels."""
        if type(players) is not int or not 2 <= players <= 4:
            raise UserError("bad_players")
        name = check_name(host_name)
        if bot_levels is None:
            bot_levels = {}
        if not isinstance(bot_levels, dict):
            raise UserError("bad_request")
        seats = [Seat(0, "human", name)]
        for number in range(1, players):
            level = bot_levels.get(str(number))
            if level is None:
                seats.append(Seat(number, "open"))
            elif level in bots.OFFERED:
                seats.append(Seat(number, "bot", f"Bot {number + 1} ({level})", level))
            else:
                raise UserError("bad_level", level=str(level)[:20])
        extra = set(bot_levels) - {str(n) for n in range(1, players)}
        if extra:
            raise UserError("bad_seat")
        first_seed = self._seed_from(seed)
        token = secrets.token_urlsafe(18)
        seats[0].token_hash = hash_token(token)
        table_id = secrets.token_urlsafe(6)
        while table_id in self.tables or table_id in self.unavailable:
            table_id = secrets.token_urlsafe(6)
        table = Table(table_id, players, first_seed, time.time(), seats)
        self.store.create_table(
            table.id, players, first_seed, table.created, [s.row() for s in seats]
        )
        self.tables[table.id] = table
        return table, token

    async def join(
        self, table_id: str, name: object, seat_number: object = None
    ) -> tuple[int, str]:
        """Take an open seat (the first, or the one asked for) under a display name."""
        table = self.get(table_id)
        display = check_name(name)
        async with table.lock:
            open_seats = [s for s in table.seats if s.kind == "open"]
            if seat_number is not None:
                open_seats = [s for s in open_seats if s.seat == seat_number]
            if not open_seats:
                raise UserError("no_open_seat")
            seat = open_seats[0]
            token = secrets.token_urlsafe(18)
            taken = dataclasses.replace(
                seat, kind="human", name=display, token_hash=hash_token(token)
            )
            self._save_seat(table, taken)
        await self.broadcast(table)
        return seat.seat, token

    def _save_seat(self, table: Table, seat: Seat) -> None:
        """Store a changed seat, then make it current: a failed write changes nothing."""
        self.store.save_seat(table.id, seat.row())
        table.seats[seat.seat] = seat

    # ------------------------------------------------------------ intents

    async def handle(self, table: Table, conn: Connection, message: dict[str, Any]) -> None:
        """One client intent; UserError if it is refused (and then nothing has changed)."""
        kind = message.get("type")
        if kind == "hello":
            lang = message.get("lang")
            if lang in ("en", "de"):
                conn.lang = lang
            if "width" in message:
                conn.width = snap_width(message.get("width"))
            await conn.send(self.state_for(table, conn))
            return
        if kind == "ping":
            await conn.send({"type": "pong"})
            return
        if kind == "action":
            await self.act(table, conn.seat, message.get("action"))
            return
        if conn.seat is None:
            raise UserError("not_seated")
        if kind == "start":
            await self.start(table, conn.seat)
        elif kind == "rematch":
            await self.rematch(table, conn.seat, message.get("seed"))
        elif kind == "seat":
            await self.configure_seat(table, conn.seat, message)
        elif kind == "rename":
            await self.rename(table, conn.seat, message.get("name"))
        else:
            raise UserError("unknown_type")

    async def act(self, table: Table, seat: int | None, text: object) -> None:
        if seat is None:
            raise UserError("not_seated")
        if not isinstance(text, str) or len(text) > 16:
            raise UserError("bad_action")
        try:
            action = parse_action(text)
        except ValueError:
            raise UserError("bad_action") from None
        async with table.lock:
            self._apply(table, seat, action)
        await self._after_action(table, seat, action)

    def _apply(self, table: Table, seat: int, action: Action) -> None:
        """Validate on a copy, store the record, then make the copy current (R8: a refusal
        changes nothing, and nothing is announced before it is on disk)."""
        match = table.match
        if match is None or match.is_over:
            raise UserError("not_playing")
        if match.current_player != seat:
            raise UserError("not_your_turn")
        trial = match.clone()
        try:
            trial.apply(action)
        except IllegalActionError as exc:
            raise UserError("illegal", reason=exc) from None
        number = len(table.matches) - 1
        self.store.save_match(table.id, number, table.seed_of(number), record_text(trial))
        table.matches[-1] = trial
        table.seq += 1

    async def _after_action(self, table: Table, seat: int, action: Action) -> None:
        name = table.seats[seat].name
        await self.broadcast(table, announce=lambda lang: describe_action(name, action, lang))
        self._schedule_bots(table)

    async def start(self, table: Table, seat: int) -> None:
        async with table.lock:
            if seat != HOST_SEAT:
                raise UserError("host_only")
            if table.status != "lobby":
                raise UserError("already_started")
            if any(s.kind == "open" for s in table.seats):
                raise UserError("seats_open")
            self._new_match(table, table.first_seed)
        await self.broadcast(table, announce=lambda lang: translate("web.announce_start", lang))
        self._schedule_bots(table)

    async def rematch(self, table: Table, seat: int, seed: object = None) -> None:
        async with table.lock:
            if table.status != "over":
                raise UserError("not_over")
            self._new_match(table, self._seed_from(seed))
        await self.broadcast(table, announce=lambda lang: translate("web.announce_rematch", lang))
        self._schedule_bots(table)

    def _new_match(self, table: Table, seed: int) -> None:
        """Deal a new match from its own seed (never derived from an earlier match's, R21)."""
        number = len(table.matches)
        match = Match.new(table.players, seed=seed)
        self.store.save_match(table.id, number, seed, record_text(match))
        table.matches.append(match)
        table.seq = 0

    async def configure_seat(self, table: Table, seat: int, message: dict[str, Any]) -> None:
        """Before the start, the host makes an open seat a bot, or a bot seat open again."""
        target = message.get("seat")
        level = message.get("level")
        async with table.lock:
            if seat != HOST_SEAT:
                raise UserError("host_only")
            if table.status != "lobby":
                raise UserError("already_started")
            if type(target) is not int or not 0 < target < table.players:
                raise UserError("bad_seat")
            chosen = table.seats[target]
            if chosen.kind == "human":
                raise UserError("seat_taken")
            if level is None:
                changed = dataclasses.replace(chosen, kind="open", name="", level=None)
            elif isinstance(level, str) and level in bots.OFFERED:
                name = f"Bot {target + 1} ({level})"
                changed = dataclasses.replace(chosen, kind="bot", name=name, level=level)
            else:
                raise UserError("bad_level", level=str(level)[:20])
            self._save_seat(table, changed)
        await self.broadcast(table)

    async def rename(self, table: Table, seat: int, name: object) -> None:
        display = check_name(name)
        async with table.lock:
            self._save_seat(table, dataclasses.replace(table.seats[seat], name=display))
        await self.broadcast(table)

    # ------------------------------------------------------------ bots

    def _schedule_bots(self, table: Table) -> None:
        match = table.match
        if match is None or match.is_over or table.bot_task is not None:
            return
        if table.seats[match.current_player].kind != "bot":
            return
        task = asyncio.get_running_loop().create_task(self._run_bots(table))
        table.bot_task = task

    async def _run_bots(self, table: Table) -> None:
        """Play bot turns until a human is to move; bots think in worker threads.

        A failing turn (a bot error, a refused database write) is logged, reported to the
        table's clients and tried again after a growing pause: the table never freezes.
        """
        failures = 0
        try:
            while True:
                try:
                    if not await self._bot_turn(table):
                        return
                    failures = 0
                except Exception:  # anything a bot or the database raised: retry below
                    failures += 1
                    log.exception("table %s: bot turn failed (attempt %d)", table.id, failures)
                    await self._report_error(table, "bot_failed")
                    await asyncio.sleep(
                        min(self.max_retry_delay, self.retry_delay * 2 ** (failures - 1))
                    )
        finally:
            table.bot_task = None

    async def _bot_turn(self, table: Table) -> bool:
        """One bot move if a bot is to move; False when it is nobody's or a person's turn."""
        match = table.match
        if match is None or match.is_over:
            return False
        seat = match.current_player
        bot_seat = table.seats[seat]
        if bot_seat.kind != "bot" or bot_seat.level is None:
            return False
        round_start = bool(match.rounds) and not match.current_round.history
        if self.bot_delay:
            await asyncio.sleep(self.bot_delay * (4 if round_start else 1))
        seq = table.seq
        view = match.view(seat)
        seed = bots.decision_seed(table.seed_of(len(table.matches) - 1), seq, seat)
        loop = asyncio.get_running_loop()
        action = await loop.run_in_executor(self.executor, decide, bot_seat.level, seed, view)
        async with table.lock:
            if table.match is not match or table.seq != seq:
                return True
            self._apply(table, seat, action)
        await self._after_action_bot(table, seat, action)
        return True

    async def _report_error(self, table: Table, code: str) -> None:
        """Tell everyone at the table that something went wrong on the server."""
        error = UserError(code)
        sends = [
            self._send_quietly(
                table, conn, {"type": "error", "code": code, "message": error.message(conn.lang)}
            )
            for conn in list(table.connections)
        ]
        await asyncio.gather(*sends, return_exceptions=True)

    async def _after_action_bot(self, table: Table, seat: int, action: Action) -> None:
        name = table.seats[seat].name
        await self.broadcast(table, announce=lambda lang: describe_action(name, action, lang))

    # ------------------------------------------------------------ what clients see

    async def broadcast(self, table: Table, announce: Callable[[str], str] | None = None) -> None:
        """Send every connection of the table its own state (each seat only its view, R21)."""
        cache: dict[tuple[int | None, str, int], dict[str, Any]] = {}
        sends: list[Awaitable[None]] = []
        for conn in list(table.connections):
            key = (conn.seat, conn.lang, conn.width)
            if key not in cache:
                message = self.state_for(table, conn)
                if announce is not None:
                    message["announce"] = announce(conn.lang)
                cache[key] = message
            sends.append(self._send_quietly(table, conn, cache[key]))
        await asyncio.gather(*sends)

    async def _send_quietly(self, table: Table, conn: Connection, message: dict[str, Any]) -> None:
        """A vanished client is dropped without stopping the others; any other error is a
        bug, and it propagates."""
        try:
            await conn.send(message)
        except ConnectionError:
            table.connections.discard(conn)

    def state_for(self, table: Table, conn: Connection) -> dict[str, Any]:
        """The whole picture for one connection: public table info plus that seat's view."""
        seat, lang = conn.seat, conn.lang
        match = table.match
        connected = table.connected_seats()
        message: dict[str, Any] = {
            "type": "state",
            "table": {
                "id": table.id,
                "players": table.players,
                "status": table.status,
                "host_seat": HOST_SEAT,
                "match_number": len(table.matches),
                "seats": [
                    {
                        "seat": s.seat,
                        "kind": s.kind,
                        "name": s.name,
                        "level": s.level,
                        "connected": s.kind == "bot" or s.seat in connected,
                    }
                    for s in table.seats
                ],
                "bots_offered": list(bots.OFFERED),
                "finished_matches": [n for n, m in enumerate(table.matches) if m.is_over],
            },
            "you": seat,
            "seq": 0,
            "view": None,
            "line_svg": None,
            "line_description": None,
            "rounds": [],
            "last_round": None,
            "result": None,
        }
        if match is None:
            return message
        message["seq"] = table.seq
        view = match.view(HOST_SEAT if seat is None else seat)
        data = view.to_dict()
        if seat is None:  # a spectator sees no hand at all
            data["player"] = None
            data["hand"] = []
            data["legal_actions"] = []
        message["view"] = data
        message["line_svg"] = line_svg(view.line, lang, conn.width, "line-svg")
        message["line_description"] = view.line.describe(lang)
        names = table.names()
        message["rounds"] = self._score_sheet(match, names, lang)
        if match.rounds:
            last = match.rounds[-1]
            message["last_round"] = self._round_summary(last, len(match.rounds), names, lang, conn)
        if match.is_over:
            best = max(match.scores)
            winners = ", ".join(names[w] for w in match.winners)
            key = "common.match_drawn" if match.is_draw else "common.match_won"
            message["result"] = {
                "winners": match.winners,
                "is_draw": match.is_draw,
                "text": translate(key, lang, names=winners, score=best),
            }
        return message

    @staticmethod
    def _score_sheet(match: Match, names: list[str], lang: str) -> list[dict[str, Any]]:
        sheet = []
        running = [0] * match.players
        for number, finished in enumerate(match.rounds, 1):
            outcome = finished.outcome
            assert outcome is not None
            running = [a + b for a, b in zip(running, outcome.credits)]
            sheet.append(
                {
                    "number": number,
                    "leader": finished.leader,
                    "kind": outcome.kind.value,
                    "winner": outcome.winner,
                    "points": outcome.points,
                    "credits": list(outcome.credits),
                    "pip_totals": list(outcome.pip_totals),
                    "scores": running,
                    "explanation": explain_outcome(outcome, names, lang),
                }
            )
        return sheet

    @staticmethod
    def _round_summary(
        finished: Round, number: int, names: list[str], lang: str, conn: Connection
    ) -> dict[str, Any]:
        """A finished round, all hands revealed (R21 allows it once the round is over)."""
        outcome = finished.outcome
        assert outcome is not None
        return {
            "number": number,
            "revealed_hands": [[str(t) for t in finished.hand(s)] for s in range(finished.players)],
            "line_svg": line_svg(finished.line, lang, conn.width, "last-line-svg"),
            "line_description": finished.line.describe(lang),
            "explanation": explain_outcome(outcome, names, lang),
            "pip_totals": list(outcome.pip_totals),
        }

    # ------------------------------------------------------------ finished matches

    def finished_match(self, table_id: str, number: int) -> Match:
        """A match that is over (records of running matches would show hidden tiles)."""
        table = self.get(table_id)
        if not 0 <= number < len(table.matches):
            raise UserError("unknown_match")
        match = table.matches[number]
        if not match.is_over:
            raise UserError("match_running")
        return match

    def replay_step(
        self, table_id: str, number: int, step: int, lang: str, width: int
    ) -> dict[str, Any]:
        """The position after ``step`` actions of a finished match, every hand shown."""
        match = self.finished_match(table_id, number)
        table = self.get(table_id)
        actions = [(r, seat, a) for r, fin in enumerate(match.rounds) for seat, a in fin.history]
        if not 0 <= step <= len(actions):
            raise UserError("bad_step")
        replay = Match.new(match.players, seed=match.seed, first_leader=match.first_leader)
        for _, _, action in actions[:step]:
            replay.apply(action)
        # After the last action of a round show that finished round, not the next deal.
        showing: Round = replay.current_round
        if step and len(replay.rounds) > actions[step - 1][0]:
            showing = replay.rounds[actions[step - 1][0]]
        round_index = actions[step - 1][0] if step else 0
        names = table.names()
        text = None
        if step:
            _, seat, action = actions[step - 1]
            text = describe_action(names[seat], action, lang)
        outcome = showing.outcome
        return {
            "step": step,
            "total": len(actions),
            "round": round_index + 1,
            "announce": text,
            "line_svg": line_svg(showing.line, lang, snap_width(width), "replay-line-svg"),
            "line_description": showing.line.describe(lang),
            "hands": [[str(t) for t in showing.hand(s)] for s in range(showing.players)],
            "boneyard_size": showing.boneyard_size,
            "scores": list(replay.scores),
            "names": names,
            "explanation": None if outcome is None else explain_outcome(outcome, names, lang),
        }
