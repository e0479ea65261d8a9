"""What one connection is shown of a table: its state message, encoded once for all alike."""

from __future__ import annotations

import functools
import time
from typing import Any

from .. import bots
from ..actions import Action, Draw, Pass, Place
from ..analysis import KINDS
from ..i18n import describe_line, explain_outcome, translate
from ..line import Line
from ..match import Match
from ..render import svg
from ..round import Round
from .encoding import encode
from .runtime.live import LiveTable, Socket
from .table import TableSeat, TableState, UserError
from .table_facts import chat_entries, clock_entry, leaving_entry, result_entry

__all__ = [
    "LINE_HEIGHTS",
    "LINE_WIDTHS",
    "describe_action",
    "encode",
    "encoded_state",
    "line_svg",
    "presence_text",
    "replay_step",
    "seat_name",
    "seat_names",
    "sentence",
    "snap_height",
    "snap_width",
    "state_message",
]

LINE_WIDTHS = (320, 360, 400, 480, 560, 640, 720, 800, 960, 1120)
LINE_HEIGHTS = (160, 200, 240, 280, 320, 360, 400, 480, 560, 640, 800)
TILE_SIZES = (64, 56, 48, 42, 36, 32, 28, 24)
"""The tile sizes a line may be drawn at: the largest that fits the client's room."""


def _snap(value: object, sizes: tuple[int, ...], default: int | None) -> int | None:
    if not isinstance(value, int) or isinstance(value, bool):
        return default
    fitting = [size for size in sizes if size <= value]
    return fitting[-1] if fitting else sizes[0]


def sentence(text: str) -> str:
    """A settlement shown on its own begins like a sentence (``Domino: …``)."""
    return text[:1].upper() + text[1:]


def snap_width(width: object) -> int:
    """Clients ask for a line width; a few sizes keep the render cache small."""
    snapped = _snap(width, LINE_WIDTHS, 800)
    assert snapped is not None
    return snapped


def snap_height(height: object) -> int | None:
    """The height the line may take, snapped like widths; ``None``: draw at the usual size."""
    return _snap(height, LINE_HEIGHTS, None)


@functools.lru_cache(maxsize=4096)
def line_svg(
    line: Line,
    lang: str,
    width: int,
    element_id: str,
    height: int | None = None,
    *,
    markers: bool = True,
    role: str = "img",
) -> str:
    """The line drawn once per line, language and room: lines are immutable values.

    With a ``height``, the tiles are as large as fits (up to twice the usual size)."""
    size = svg.DEFAULT_TILE_SIZE
    if height is not None:
        size = svg.fitting_tile_size(line, width, height, TILE_SIZES, markers=markers)
    return svg.line_svg(
        line,
        lang,
        width=width,
        markers=markers,
        element_id=element_id,
        tile_size=size,
        role=role,
    )


@functools.cache
def level_messages(lang: str) -> dict[str, str]:
    """The client's names of the offered bots: a level's bot by its level ("strong"),
    another by its own name, and the level's description; made from the one mapping."""
    level_of = {bot: level for level, bot in bots.LEVELS.items()}
    out = {}
    for bot in bots.OFFERED:
        name = translate(f"common.bot_level_{bot}", lang)
        level = level_of.get(bot)
        if level is None:
            out[f"web.level_{bot}"] = name
            continue
        level_name = translate(f"common.level_{level}", lang)
        out[f"web.level_{bot}"] = level_name
        out[f"web.level_about_{bot}"] = translate(f"common.level_{level}_about", lang)
    return out


@functools.cache
def review_messages(lang: str) -> dict[str, str]:
    """The client's names of the review's classes (``best``, ``mistake``...), the same
    words the terminal's review uses."""
    return {f"web.kind_{kind}": translate(f"common.kind_{kind}", lang) for kind in KINDS}


def seat_name(seat: TableSeat, lang: str) -> str:
    """A seat's name as shown: a person's own, a bot's label in the reader's language,
    named by the level it plays ("Bot 2 (medium)"): an algorithm's name means nothing to
    a player."""
    if seat.kind == "bot" and seat.level is not None:
        level_of = {bot: level for level, bot in bots.LEVELS.items()}
        try:
            if seat.level in level_of:
                level = translate(f"common.level_{level_of[seat.level]}", lang)
            else:
                level = translate(f"common.bot_level_{seat.level}", lang)
        except KeyError:  # a bot without a translated name (tests register such)
            return seat.name
        return translate("common.bot_label", lang, number=seat.seat + 1, level=level)
    return seat.name


def seat_names(state: TableState, lang: str) -> tuple[str, ...]:
    return tuple(seat_name(s, lang) for s in state.seats)


def describe_action(seat_name: str, action: Action, lang: str, line: Line) -> str:
    """One move in words, for the aria-live announcements; ``line`` is the line after it.

    A placement names the value it matched, never "left" or "right": on a wrapped line
    the right end may be drawn on the left."""
    if isinstance(action, Draw):
        return translate("web.announce_draw", lang, name=seat_name)
    if isinstance(action, Pass):
        return translate("web.announce_pass", lang, name=seat_name)
    assert isinstance(action, Place)
    tile = str(action.tile)
    if action.end is None:
        return translate("web.announce_open", lang, name=seat_name, tile=tile)
    matched = action.tile.other(line.ends[action.end].value)
    return translate("web.log_place", lang, name=seat_name, tile=tile, value=matched)


def last_announcement(table: TableState, lang: str) -> str | None:
    """The latest move in words, announced with the state it produced."""
    match = table.match
    if match is None:
        return None
    if table.seq == 0:
        key = "web.announce_start" if len(table.matches) == 1 else "web.announce_rematch"
        return translate(key, lang)
    # The move that ended a round is the last of the finished round: the next is dealt.
    showing = match.current_round
    if not showing.history and match.rounds:
        showing = match.rounds[-1]
    if not showing.history:
        return None
    seat, action = showing.history[-1]
    return describe_action(seat_name(table.seats[seat], lang), action, lang, showing.line)


def encoded_state(
    live: LiveTable, conn: Socket, *, announce: bool, now: float | None = None
) -> str:
    """The state text for ``conn``, built once per table state for every connection
    with the same seat, language and size (spectators share theirs). While a round's end
    is shown the countdown changes, so those states are built afresh."""
    table = live.state
    connected = table.connected_seats()
    key = (conn.seat, conn.lang, conn.width, conn.height, connected, announce)
    text = live.cached(key)
    if text is None:
        clock = time.time() if now is None else now
        message = state_message(
            table, conn.seat, conn.lang, conn.width, connected, conn.height, clock
        )
        if announce:
            spoken = last_announcement(table, conn.lang)
            if spoken is not None:
                message["announce"] = spoken
        sheet = None
        if table.match is not None:
            names = seat_names(table, conn.lang)
            sheet = encoded_score_sheet(table.match.rounds, names, conn.lang)
        text = encode_state(message, live, sheet)
        if table.pause_until is None:
            live.encoded[key] = text
    return text


@functools.lru_cache(maxsize=4096)
def _encoded_svg(svg_text: str | None) -> str:
    return encode(svg_text)


def encode_state(
    message: dict[str, Any], live: LiveTable | None = None, sheet: str | None = None
) -> str:
    """``encode(message)``, with what repeats encoded once: a line's SVG is most of a
    state's bytes, the last round's stays the same for a whole round, the score sheet
    (``sheet``, the encoded ``rounds`` with their histories) until a round ends, and the
    round's history and placements only grow (their prefixes are kept with ``table``)."""
    rest = dict(message)
    rounds = rest.pop("rounds")
    rounds_text = encode(rounds) if sheet is None else sheet
    line = _encoded_svg(rest.pop("line_svg"))
    last = rest.pop("last_round")
    if last is None:
        last_text = "null"
    else:
        others = dict(last)
        last_svg = _encoded_svg(others.pop("line_svg"))
        last_text = encode(others)[:-1] + ',"line_svg":' + last_svg + "}"
    view = rest.pop("view")
    match = None if live is None else live.state.match
    if view is None or live is None or match is None:
        view_text = encode(view)
    else:
        owner = match.current_round
        view = dict(view)
        history = live.grown("history", view["player"]).encode(owner, view.pop("history"))
        drawn = dict(view.pop("line"))
        placements = live.grown("placements").encode(owner, drawn.pop("placements"))
        line_text = encode(drawn)[:-1] + ',"placements":' + placements + "}"
        view_text = encode(view)[:-1] + ',"history":' + history + ',"line":' + line_text + "}"
    return (
        encode(rest)[:-1]
        + ',"view":'
        + view_text
        + ',"line_svg":'
        + line
        + ',"last_round":'
        + last_text
        + ',"rounds":'
        + rounds_text
        + "}"
    )


def presence_text(table: TableState) -> str:
    """Who is at the table, small and the same for everyone: sent when people come and go."""
    return encode(
        {
            "type": "presence",
            "connected": list(table.connected_seats()),
            "away": [s.seat in table.away for s in table.seats],
            "spectators": table.spectators,
        }
    )


def seat_entry(
    table: TableState, seat: TableSeat, lang: str, connected: tuple[bool, ...]
) -> dict[str, Any]:
    return {
        "seat": seat.seat,
        "kind": seat.kind,
        "name": seat_name(seat, lang),
        "level": seat.level,
        "connected": connected[seat.seat],
        "away": seat.seat in table.away,
    }


def state_message(
    table: TableState,
    seat: int | None,
    lang: str,
    width: int,
    connected: tuple[bool, ...],
    height: int | None = None,
    now: float = 0.0,
) -> dict[str, Any]:
    """The whole picture for one seat (or a spectator): public table info plus its view."""
    match = table.match
    message: dict[str, Any] = {
        "type": "state",
        "table": {
            "id": table.id,
            "players": table.players,
            "status": table.status,
            "host_seat": table.host,
            "public": table.public,
            "hints": table.hints,
            "rated": table.rated,
            "move_seconds": table.move_seconds,
            "clock": clock_entry(table, now),
            "away_moves": list(table.away_moves),
            "chat": chat_entries(table, now),
            "leaving": leaving_entry(table, seat),
            "match_number": len(table.matches),
            "seats": [seat_entry(table, s, lang, connected) for s in table.seats],
            "bots_offered": list(bots.OFFERED),
            "finished_matches": [n for n, m in enumerate(table.matches) if m.is_over],
            "spectators": table.spectators,
            "away_seconds": table.timing.away_seconds,
            "round_pause_seconds": table.timing.round_pause,
            "waiting": table.waiting_at_round_end() if table.pause_until is not None else [],
            "waiting_seconds_left": round(max(0.0, (table.pause_until or now) - now), 1),
        },
        "you": seat,
        "seq": 0,
        "view": None,
        "line_svg": None,
        "line_description": None,
        "rounds": [],
        "last_round": None,
        "round_end": None,
        "result": None,
        "rematch": None,
    }
    if match is None:
        return message
    message["seq"] = table.seq
    view = match.view(seat)  # a spectator's is the public view: no hand, no legal actions
    message["view"] = view.to_dict()
    message["line_svg"] = line_svg(view.line, lang, width, "line-svg", height, role="group")
    message["line_description"] = describe_line(view.line, lang)
    names = seat_names(table, lang)
    message["rounds"] = score_sheet(match.rounds, names, lang)
    if match.rounds:
        last = match.rounds[-1]
        summary = round_summary(last, len(match.rounds), names, lang, width, height)
        message["last_round"] = dict(summary, scores=message["rounds"][-1]["scores"])
        message["round_end"] = round_end(table, seat, now)
    if table.status == "over":
        message["result"] = result_entry(table, names, lang)
        message["rematch"] = {
            "accepted": sorted(table.rematch_votes),
            "needed": table.rematch_needed(),
        }
    return message


def round_end(table: TableState, seat: int | None, now: float) -> dict[str, Any] | None:
    """The round's end while this seat has not continued past it (spectators: while the
    table waits); the next deal stays unseen until then."""
    match = table.match
    assert match is not None and match.rounds
    if not table.playing:
        return None  # the match's end shows the last round
    finished = len(match.rounds)
    paused = table.pause_until is not None
    if seat is None and not paused:
        return None
    if seat is not None and table.seen[seat] >= finished:
        return None
    return {
        "number": finished,
        "waiting": table.waiting_at_round_end() if paused else [],
        "seconds_left": round(max(0.0, (table.pause_until or now) - now), 1),
    }


@functools.lru_cache(maxsize=1024)
def score_sheet(
    rounds: tuple[Round, ...], names: tuple[str, ...], lang: str
) -> list[dict[str, Any]]:
    """The finished rounds of a match; cached, since they change only when a round ends."""
    sheet = []
    running = [0] * len(names)
    for number, finished in enumerate(rounds, 1):
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
                "explanation": sentence(explain_outcome(outcome, list(names), lang)),
                "history": [
                    {"player": seat, "action": str(action)} for seat, action in finished.history
                ],
            }
        )
    return sheet


@functools.lru_cache(maxsize=1024)
def encoded_score_sheet(rounds: tuple[Round, ...], names: tuple[str, ...], lang: str) -> str:
    """The score sheet as JSON text: with every round's moves it is much of a state."""
    return encode(score_sheet(rounds, names, lang))


@functools.lru_cache(maxsize=1024)
def round_summary(
    finished: Round,
    number: int,
    names: tuple[str, ...],
    lang: str,
    width: int,
    height: int | None = None,
) -> dict[str, Any]:
    """A finished round, all hands revealed (R21 allows it once the round is over)."""
    outcome = finished.outcome
    assert outcome is not None
    placements = finished.line.placements
    return {
        "number": number,
        "revealed_hands": [[str(t) for t in finished.hand(s)] for s in range(finished.players)],
        "line_svg": line_svg(finished.line, lang, width, "last-line-svg", height, markers=False),
        "line_description": describe_line(finished.line, lang),
        "last_placed": str(placements[-1][0]) if placements else None,
        "explanation": sentence(explain_outcome(outcome, list(names), lang)),
        "pip_totals": list(outcome.pip_totals),
        "credits": list(outcome.credits),
    }


def replay_step(
    match: Match,
    names: list[str],
    step: int,
    lang: str,
    width: int,
    height: int | None = None,
    deal: bool = False,
) -> dict[str, Any]:
    """The position after ``step`` actions of a finished match, every hand shown.

    A step that ends a round shows that round's end; with ``deal`` it shows the next
    round's deal instead (where ``round_starts`` points)."""
    actions = [(r, seat, a) for r, fin in enumerate(match.rounds) for seat, a in fin.history]
    if not 0 <= step <= len(actions):
        raise UserError("bad_step")
    round_ends = []
    done = 0
    for finished in match.rounds:
        done += len(finished.history)
        round_ends.append(done)
    replay = Match.new(match.players, seed=match.seed, first_leader=match.first_leader)
    for _, _, action in actions[:step]:
        replay.apply(action)
    # After the last action of a round show that finished round, not the next deal.
    showing: Round = replay.current_round
    round_index = actions[step - 1][0] if step else 0
    dealt = deal and step in round_ends[:-1]
    if dealt:
        round_index += 1
    elif step and len(replay.rounds) > actions[step - 1][0]:
        showing = replay.rounds[actions[step - 1][0]]
    text = None
    if step and not dealt:
        _, seat, action = actions[step - 1]
        text = describe_action(names[seat], action, lang, showing.line)
    outcome = showing.outcome
    return {
        "step": step,
        "total": len(actions),
        "round": round_index + 1,
        "deal": dealt,
        "announce": text,
        "round_starts": [0, *round_ends[:-1]],
        "round_ends": round_ends,
        "line_svg": line_svg(
            showing.line, lang, snap_width(width), "replay-line-svg", snap_height(height)
        ),
        "line_description": describe_line(showing.line, lang),
        "hands": [[str(t) for t in showing.hand(s)] for s in range(showing.players)],
        "boneyard_size": showing.boneyard_size,
        "scores": list(replay.scores),
        "names": names,
        "explanation": None if outcome is None else sentence(explain_outcome(outcome, names, lang)),
    }
