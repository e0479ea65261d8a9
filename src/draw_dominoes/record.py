"""JSON game records: every deal and action of a round or match, replayed and validated."""

from __future__ import annotations

import json
from typing import Any, Final

from .actions import IllegalActionError, parse_action
from .match import Match
from .round import Round
from .rules import RULES
from .tiles import Tile

__all__ = [
    "FORMAT",
    "VERSION",
    "RecordError",
    "dumps",
    "loads",
    "match_from_record",
    "match_to_record",
    "round_from_record",
    "round_to_record",
]

FORMAT: Final = "draw-dominoes"
VERSION: Final = 1


class RecordError(ValueError):
    """A game record that cannot be read or does not replay; the message says where."""


def _deal_dict(round_: Round) -> dict[str, Any]:
    hands, boneyard = round_.deal
    return {
        "hands": [[str(t) for t in hand] for hand in hands],
        "boneyard": [str(t) for t in boneyard],
    }


def _round_body(round_: Round) -> dict[str, Any]:
    return {
        "leader": round_.leader,
        "deal": _deal_dict(round_),
        "actions": [str(action) for _, action in round_.history],
    }


def round_to_record(round_: Round) -> dict[str, Any]:
    """A round as a JSON-ready record (format, version, seed, deal, every action)."""
    return {
        "format": FORMAT,
        "version": VERSION,
        "kind": "round",
        "players": round_.players,
        "seed": round_.seed,
        "scores": list(round_.scores),
        **_round_body(round_),
    }


def match_to_record(match: Match) -> dict[str, Any]:
    """A match as a JSON-ready record: its seed, first leader, and each round's deal and actions."""
    rounds = list(match.rounds)
    if not match.is_over:
        rounds.append(match.current_round)
    return {
        "format": FORMAT,
        "version": VERSION,
        "kind": "match",
        "players": match.players,
        "seed": match.seed,
        "first_leader": match.first_leader,
        "rounds": [_round_body(r) for r in rounds],
    }


def dumps(game: Round | Match) -> str:
    """The game's record as JSON text."""
    record = match_to_record(game) if isinstance(game, Match) else round_to_record(game)
    return json.dumps(record, ensure_ascii=False, indent=1)


def loads(text: str | bytes) -> Round | Match:
    """Replay a record read from JSON text; RecordError on anything wrong with it."""
    try:
        record = json.loads(text)
    except (ValueError, UnicodeDecodeError) as exc:
        raise RecordError(f"the record is not valid JSON: {exc}") from None
    except RecursionError:
        raise RecordError("the record is not valid JSON: nested too deeply") from None
    kind = _field(record, "kind", str, "record")
    if kind == "match":
        return match_from_record(record)
    if kind == "round":
        return round_from_record(record)
    raise RecordError(f"record kind must be 'round' or 'match', not {kind!r}")


def _field(obj: object, key: str, kind: type, where: str) -> Any:
    if not isinstance(obj, dict):
        raise RecordError(f"{where}: expected a JSON object, got {type(obj).__name__}")
    if key not in obj:
        raise RecordError(f"{where}: the field {key!r} is missing")
    value = obj[key]
    if not isinstance(value, kind) or (isinstance(value, bool) and kind is not bool):
        raise RecordError(f"{where}: the field {key!r} has the wrong type ({value!r})")
    return value


def _check_header(record: object, kind: str) -> dict[str, Any]:
    fmt = _field(record, "format", str, "record")
    if fmt != FORMAT:
        raise RecordError(f"record: format must be {FORMAT!r}, not {fmt!r}")
    version = _field(record, "version", int, "record")
    if version != VERSION:
        raise RecordError(
            f"record: version {version} is not supported (this program reads {VERSION})"
        )
    if _field(record, "kind", str, "record") != kind:
        raise RecordError(f"record: expected a {kind} record")
    players = _field(record, "players", int, "record")
    if not RULES.allows(players):
        raise RecordError(
            f"record: players must be {RULES.min_players} to {RULES.max_players}, not {players}"
        )
    assert isinstance(record, dict)
    return record


def _read_deal(body: object, where: str) -> tuple[list[list[Tile]], list[Tile]]:
    deal = _field(body, "deal", dict, where)
    hands = _field(deal, "hands", list, f"{where} deal")
    boneyard = _field(deal, "boneyard", list, f"{where} deal")
    try:
        return (
            [[Tile.parse(t) for t in _as_list(hand, f"{where} hand")] for hand in hands],
            [Tile.parse(t) for t in boneyard],
        )
    except ValueError as exc:
        raise RecordError(f"{where} deal: {exc}") from None


def _as_list(value: object, where: str) -> list[Any]:
    if not isinstance(value, list):
        raise RecordError(f"{where}: expected a list, got {value!r}")
    return value


def _play(game: Round | Match, round_: Round, actions: list[Any], where: str) -> None:
    """Apply one round's actions to ``game`` (the round itself, or its match)."""
    for number, text in enumerate(actions, 1):
        if round_.is_over:
            raise RecordError(f"{where}, action {number}: the round was already over")
        if not isinstance(text, str):
            raise RecordError(f"{where}, action {number}: expected text, got {text!r}")
        try:
            game.apply(parse_action(text))
        except IllegalActionError as exc:
            raise RecordError(f"{where}, action {number} ({text}) is illegal: {exc}") from None
        except ValueError as exc:
            raise RecordError(f"{where}, action {number}: {exc}") from None


def round_from_record(record: object) -> Round:
    """Rebuild a round from its record; RecordError names what is wrong."""
    record = _check_header(record, "round")
    players = record["players"]
    leader = _field(record, "leader", int, "record")
    hands, boneyard = _read_deal(record, "record")
    if len(hands) != players:
        raise RecordError(f"record: the deal has {len(hands)} hands for {players} players")
    scores = _field(record, "scores", list, "record") if "scores" in record else None
    seed = record.get("seed")
    if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool)):
        raise RecordError(f"record: the seed must be an integer, not {seed!r}")
    try:
        round_ = Round.from_deal(hands, boneyard, leader, scores=scores, seed=seed)
    except ValueError as exc:
        raise RecordError(f"record: {exc}") from None
    if seed is not None and Round.new(players, seed=seed, leader=leader).deal != round_.deal:
        raise RecordError(f"record: the deal is not the one seed {seed} gives")
    _play(round_, round_, _field(record, "actions", list, "record"), "record")
    return round_


def match_from_record(record: object) -> Match:
    """Rebuild a match by replaying every round; RecordError names what is wrong."""
    record = _check_header(record, "match")
    players = record["players"]
    seed = _field(record, "seed", int, "record")
    first_leader = _field(record, "first_leader", int, "record")
    if not 0 <= first_leader < players:
        raise RecordError(f"record: first_leader must be a seat from 0 to {players - 1}")
    rounds = _field(record, "rounds", list, "record")
    if not rounds:
        raise RecordError("record: a match record has at least one round")
    match = Match(players, seed=seed, first_leader=first_leader)
    for number, body in enumerate(rounds, 1):
        where = f"round {number}"
        if match.is_over:
            raise RecordError(f"{where}: the match was already over")
        if len(match.rounds) != number - 1:
            raise RecordError(f"{where}: round {number - 1} did not finish")
        current = match.current_round
        leader = _field(body, "leader", int, where)
        if leader != current.leader:
            raise RecordError(f"{where}: the leader is {current.leader} (R19), not {leader}")
        hands, boneyard = _read_deal(body, where)
        if (tuple(tuple(sorted(h)) for h in hands), tuple(boneyard)) != current.deal:
            raise RecordError(f"{where}: the deal is not the one seed {seed} gives")
        actions = _field(body, "actions", list, where)
        _play(match, current, actions, where)
        if number < len(rounds) and len(match.rounds) != number:
            raise RecordError(f"{where}: the round is not finished, yet another round follows")
    return match
