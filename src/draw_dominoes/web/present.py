"""What one connection is shown of a table: its state message, encoded once for all alike."""

from __future__ import annotations

import functools
from typing import Any

from .. import bots
from ..actions import Action, Draw, Pass, Place
from ..i18n import explain_outcome, translate
from ..line import Line
from ..match import Match
from ..render import svg
from ..round import Round
from .encoding import encode
from .tables import HOST_SEAT, Connection, Table, UserError

__all__ = [
    "LINE_WIDTHS",
    "describe_action",
    "encode",
    "encoded_state",
    "line_svg",
    "presence_text",
    "replay_step",
    "snap_width",
    "state_message",
]

LINE_WIDTHS = (320, 400, 480, 560, 640, 720, 800, 960, 1120)


def snap_width(width: object) -> int:
    """Clients ask for a line width; a few sizes keep the render cache small."""
    if not isinstance(width, int) or isinstance(width, bool):
        return 800
    fitting = [w for w in LINE_WIDTHS if w <= width]
    return fitting[-1] if fitting else LINE_WIDTHS[0]


@functools.lru_cache(maxsize=4096)
def line_svg(line: Line, lang: str, width: int, element_id: str) -> str:
    """The line drawn once per line, language and width: lines are immutable values."""
    return svg.line_svg(line, lang, width=width, markers=True, element_id=element_id)


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


def last_announcement(table: Table, lang: str) -> str | None:
    """The latest move in words, announced with the state it produced."""
    match = table.match
    if match is None:
        return None
    if table.seq == 0:
        key = "web.announce_start" if len(table.matches) == 1 else "web.announce_rematch"
        return translate(key, lang)
    # The move that ended a round is the last of the finished round: the next is dealt.
    history = match.current_round.history
    if not history and match.rounds:
        history = match.rounds[-1].history
    if not history:
        return None
    seat, action = history[-1]
    return describe_action(table.seats[seat].name, action, lang)


def encoded_state(table: Table, conn: Connection, *, announce: bool) -> str:
    """The state text for ``conn``, built once per table version for every connection
    with the same seat, language and width (spectators share theirs)."""
    connected = table.connected_seats()
    key = (conn.seat, conn.lang, conn.width, connected, announce)
    text = table.encoded.get(key)
    if text is None:
        message = state_message(table, conn.seat, conn.lang, conn.width, connected)
        if announce:
            spoken = last_announcement(table, conn.lang)
            if spoken is not None:
                message["announce"] = spoken
        text = table.encoded[key] = encode_state(message, table)
    return text


@functools.lru_cache(maxsize=4096)
def _encoded_svg(svg_text: str | None) -> str:
    return encode(svg_text)


def encode_state(message: dict[str, Any], table: Table | None = None) -> str:
    """``encode(message)``, with what repeats encoded once: a line's SVG is most of a
    state's bytes, the last round's stays the same for a whole round, and the round's
    history and placements only grow (their prefixes are kept with ``table``)."""
    rest = dict(message)
    line = _encoded_svg(rest.pop("line_svg"))
    last = rest.pop("last_round")
    if last is None:
        last_text = "null"
    else:
        others = dict(last)
        last_svg = _encoded_svg(others.pop("line_svg"))
        last_text = encode(others)[:-1] + ',"line_svg":' + last_svg + "}"
    view = rest.pop("view")
    if view is None or table is None or table.match is None:
        view_text = encode(view)
    else:
        owner = table.match.current_round
        view = dict(view)
        history = table.growing["history"].encode(owner, view.pop("history"))
        drawn = dict(view.pop("line"))
        placements = table.growing["placements"].encode(owner, drawn.pop("placements"))
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
        + "}"
    )


def presence_text(table: Table) -> str:
    """Who is at the table, small and the same for everyone: sent when people come and go."""
    return encode(
        {
            "type": "presence",
            "connected": list(table.connected_seats()),
            "spectators": table.spectators(),
        }
    )


def state_message(
    table: Table, seat: int | None, lang: str, width: int, connected: tuple[bool, ...]
) -> dict[str, Any]:
    """The whole picture for one seat (or a spectator): public table info plus its view."""
    match = table.match
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
                    "connected": connected[s.seat],
                }
                for s in table.seats
            ],
            "bots_offered": list(bots.OFFERED),
            "finished_matches": [n for n, m in enumerate(table.matches) if m.is_over],
            "spectators": table.spectators(),
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
    message["line_svg"] = line_svg(view.line, lang, width, "line-svg")
    message["line_description"] = view.line.describe(lang)
    names = tuple(table.names())
    message["rounds"] = score_sheet(match.rounds, names, lang)
    if match.rounds:
        last = match.rounds[-1]
        message["last_round"] = round_summary(last, len(match.rounds), names, lang, width)
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
                "explanation": explain_outcome(outcome, list(names), lang),
            }
        )
    return sheet


@functools.lru_cache(maxsize=1024)
def round_summary(
    finished: Round, number: int, names: tuple[str, ...], lang: str, width: int
) -> dict[str, Any]:
    """A finished round, all hands revealed (R21 allows it once the round is over)."""
    outcome = finished.outcome
    assert outcome is not None
    return {
        "number": number,
        "revealed_hands": [[str(t) for t in finished.hand(s)] for s in range(finished.players)],
        "line_svg": line_svg(finished.line, lang, width, "last-line-svg"),
        "line_description": finished.line.describe(lang),
        "explanation": explain_outcome(outcome, list(names), lang),
        "pip_totals": list(outcome.pip_totals),
    }


def replay_step(
    match: Match, names: list[str], step: int, lang: str, width: int
) -> dict[str, Any]:
    """The position after ``step`` actions of a finished match, every hand shown."""
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
