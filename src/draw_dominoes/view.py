"""PlayerView: exactly what one seat may see of a round (R21), as a value and as JSON."""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Any

from .actions import Action, Draw, Pass, Place
from .legal import EMPTY, ends_code, legal_actions
from .line import Line
from .notation import (
    NONE,
    PositionError,
    integer,
    integers,
    line_text,
    moves_text,
    parse_moves,
    parse_tiles,
    tiles_text,
)
from .rules import RULES
from .tiles import TILE_COUNT, UNDRAWN, Tile

__all__ = ["Outcome", "PlayerView", "Termination", "settle", "target_for"]


def target_for(players: int) -> int:
    """The match target: 100 with two players, 61 with three or four (R20)."""
    return RULES.target(players)


class Termination(enum.StrEnum):
    """How a round ended: a player went out (R13) or every player passed (R14)."""

    DOMINO = "domino"
    BLOCKED = "blocked"

    def __str__(self) -> str:
        return self.value


@dataclass(frozen=True, slots=True)
class Outcome:
    """A settled round (R15–R18).

    ``winner`` is the seat credited (``None`` after a blocked round with a tie for
    lowest), ``points`` what it scores, ``pip_totals`` every hand's total, and
    ``credits`` the points added to each seat's score.
    """

    kind: Termination
    winner: int | None
    points: int
    pip_totals: tuple[int, ...]

    @property
    def credits(self) -> tuple[int, ...]:
        return tuple(
            self.points if seat == self.winner else 0 for seat in range(len(self.pip_totals))
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "kind": self.kind.value,
            "winner": self.winner,
            "points": self.points,
            "pip_totals": list(self.pip_totals),
        }


def settle(kind: Termination, pip_totals: tuple[int, ...], mover: int) -> Outcome:
    """How a round that ended as ``kind`` scores (R15–R17): the dominoer (``mover``) takes
    every pip left, its own total being 0; in a block the single lowest total takes the
    others' less its own, and a tie for lowest scores nothing."""
    everyone = sum(pip_totals)
    if kind is Termination.DOMINO:
        return Outcome(kind, mover, everyone, pip_totals)  # R16
    lowest = min(pip_totals)
    if pip_totals.count(lowest) == 1:  # R17
        return Outcome(kind, pip_totals.index(lowest), everyone - 2 * lowest, pip_totals)
    return Outcome(kind, None, 0, pip_totals)


@dataclass(frozen=True, slots=True)
class PlayerView:
    """What seat ``player`` may see (R21): nothing of other hands or the boneyard order.
    The public view (``player`` is ``None``, a spectator's) has no hand and no legal
    actions.

    ``scores`` are the match scores as they stand: once the round is over, with its
    credits added. ``history`` is the public record of the round: ``(seat, action)`` pairs, where a
    draw never names its tile; ``drawn_tiles`` are the tiles this seat drew, in order (its
    own to know; empty in the public view). ``revealed_hands`` is empty until the round
    is over; then every hand is shown.
    """

    player: int | None
    players: int
    leader: int
    current_player: int
    hand: tuple[Tile, ...]
    line: Line
    boneyard_size: int
    hand_sizes: tuple[int, ...]
    scores: tuple[int, ...]
    target: int
    history: tuple[tuple[int, Action], ...]
    legal_actions: tuple[Action, ...]
    outcome: Outcome | None
    revealed_hands: tuple[tuple[Tile, ...], ...]
    drawn_tiles: tuple[Tile, ...] = ()

    @property
    def is_over(self) -> bool:
        return self.outcome is not None

    @property
    def drawable(self) -> int:
        """Tiles that can still be drawn: the last two never are (R2)."""
        return max(0, self.boneyard_size - UNDRAWN)

    @property
    def lacking(self) -> tuple[frozenset[int], ...]:
        """Per seat, the values it is known not to hold: the ends it passed on (R5).

        Derived from the public history; a draw proves nothing (R5 lets a player draw
        with a playable tile), and a player who has passed can never draw again.
        """
        lacks: list[set[int]] = [set() for _ in range(self.players)]
        ends: list[int] = []
        for seat, action in self.history:
            if isinstance(action, Place):
                tile = action.tile
                if action.end is None:
                    ends = [tile.low, tile.high]
                else:
                    ends[action.end] = tile.other(ends[action.end])
            elif isinstance(action, Pass):
                lacks[seat].update(ends)
        return tuple(frozenset(values) for values in lacks)

    @property
    def own_draws(self) -> dict[int, Tile]:
        """This seat's drawn tiles by their place in ``history``."""
        numbers = [
            number
            for number, (seat, action) in enumerate(self.history)
            if seat == self.player and isinstance(action, Draw)
        ]
        return dict(zip(numbers, self.drawn_tiles))

    @property
    def dealt_hand(self) -> tuple[Tile, ...]:
        """The hand this seat was dealt: what it holds and has placed, less what it drew."""
        placed = {
            a.tile for seat, a in self.history if seat == self.player and isinstance(a, Place)
        }
        return tuple(sorted((set(self.hand) | placed) - set(self.drawn_tiles)))

    @property
    def draws(self) -> tuple[int, ...]:
        """How many tiles each seat has drawn this round (public, R21)."""
        counts = [0] * self.players
        for seat, action in self.history:
            if isinstance(action, Draw):
                counts[seat] += 1
        return tuple(counts)

    def to_text(self) -> str:
        """What this seat knows as one line of text (``Round.to_text`` cut down to a seat):
        players, seat (``-`` for the public view), leader, scores, its hand, every hand's
        size, the boneyard's size, the line, the moves (its own draws with their tile),
        the seat to move, and every hand once the round is over."""
        own = self.own_draws
        moves = [(a, own.get(i)) for i, (_, a) in enumerate(self.history)]
        return " ".join(
            (
                str(self.players),
                NONE if self.player is None else str(self.player),
                str(self.leader),
                ",".join(map(str, self.scores)),
                tiles_text(self.hand),
                ",".join(map(str, self.hand_sizes)),
                str(self.boneyard_size),
                line_text(self.line),
                moves_text(moves),
                str(self.current_player),
                "/".join(map(tiles_text, self.revealed_hands)) or NONE,
            )
        )

    @classmethod
    def from_text(cls, text: str) -> PlayerView:
        """The view of a ``to_text`` line; what follows from it (the line, the legal
        actions, the outcome) is worked out again, and a text that does not hold together
        is a ``PositionError`` naming the part."""
        fields = text.split() if isinstance(text, str) else []
        if len(fields) != 11:
            raise PositionError(
                "fields",
                "a view has 11 fields (players, seat, leader, scores, hand, hand sizes,"
                " boneyard size, line, moves, seat to move, revealed hands),"
                f" not {len(fields)}",
            )
        n = integer(fields[0], "players", RULES.min_players, RULES.max_players)
        player = None if fields[1] == NONE else integer(fields[1], "seat", 0, n - 1)
        leader = integer(fields[2], "leader", 0, n - 1)
        scores = integers(fields[3], "scores", n)
        hand = parse_tiles(fields[4], "hand")
        sizes = integers(fields[5], "hand sizes", n)
        boneyard = integer(fields[6], "boneyard size", 0, TILE_COUNT)
        current = integer(fields[9], "seat to move", 0, n - 1)
        history, drawn, line, seat = [], [], Line(), leader
        for number, (action, tile) in enumerate(parse_moves(fields[8]), 1):
            part = f"moves (move {number})"
            history.append((seat, action))
            if isinstance(action, Draw):
                if (tile is not None) != (seat == player):
                    raise PositionError(part, "a view names the tiles of its own draws only")
                drawn.extend([tile] if tile else [])
                continue
            if isinstance(action, Place):
                if not line.accepts(action.tile, action.end):
                    raise PositionError(part, f"{action} does not fit the line {line}")
                line = line.place(action.tile, action.end)
            seat = (seat + 1) % n
        if line_text(line) != fields[7]:
            raise PositionError("line", f"the moves lay out {line_text(line)}, not {fields[7]}")
        if (player is None and hand) or (player is not None and len(hand) != sizes[player]):
            raise PositionError("hand", "its size is not the seat's hand size")
        if len(set(hand)) != len(hand) or not set(drawn) <= set(hand) | set(line.tiles):
            raise PositionError("moves", "a tile the seat drew is neither held nor placed")
        counts = [RULES.hand_size(n)] * n
        for seat, action in history:
            counts[seat] += 1 if isinstance(action, Draw) else -isinstance(action, Place)
        if tuple(counts) != sizes:
            raise PositionError("hand sizes", f"the moves leave hands of {counts}, not {sizes}")
        if sum(sizes) + len(line) + boneyard != TILE_COUNT or set(hand) & set(line.tiles):
            raise PositionError(
                "hand sizes", f"hands, line and boneyard are not the {TILE_COUNT} tiles"
            )
        revealed: tuple[tuple[Tile, ...], ...] = ()
        outcome = None
        if fields[10] != NONE:
            revealed = tuple(parse_tiles(t, "revealed hands") for t in fields[10].split("/"))
            if len(revealed) != n:
                raise PositionError("revealed hands", f"{len(revealed)} hands for {n} players")
            last = history[-1][1] if history else None
            kind = Termination.BLOCKED if isinstance(last, Pass) else Termination.DOMINO
            outcome = settle(kind, tuple(sum(t.pips for t in h) for h in revealed), current)
        legal: tuple[Action, ...] = ()
        if outcome is None and player == current:
            ends = line.end_values
            code = ends_code(ends[0], ends[1]) if ends else EMPTY
            mask = sum(t.bit for t in hand)
            legal = tuple(legal_actions(mask, code, TILE_COUNT - boneyard))
        return cls(
            player=player,
            players=n,
            leader=leader,
            current_player=current,
            hand=hand,
            line=line,
            boneyard_size=boneyard,
            hand_sizes=sizes,
            scores=scores,
            target=target_for(n),
            history=tuple(history),
            legal_actions=legal,
            outcome=outcome,
            revealed_hands=revealed,
            drawn_tiles=tuple(drawn),
        )

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-ready data: tiles and actions in their text notation; the seat's own
        draws carry the tile drawn."""
        own = self.own_draws
        return {
            "player": self.player,
            "players": self.players,
            "leader": self.leader,
            "current_player": self.current_player,
            "hand": [str(t) for t in self.hand],
            "line": {
                "placements": [
                    {"tile": str(tile), "end": end} for tile, end in self.line.placements
                ],
                "ends": [
                    {"end": e.index, "value": e.value, "tile": str(e.tile), "port": e.port.value}
                    for e in self.line.ends
                ],
            },
            "boneyard_size": self.boneyard_size,
            "drawable": self.drawable,
            "hand_sizes": list(self.hand_sizes),
            "scores": list(self.scores),
            "target": self.target,
            "history": [
                {"player": seat, "action": str(a), **({"tile": str(own[i])} if i in own else {})}
                for i, (seat, a) in enumerate(self.history)
            ],
            "legal_actions": [str(a) for a in self.legal_actions],
            "outcome": None if self.outcome is None else self.outcome.to_dict(),
            "revealed_hands": [[str(t) for t in hand] for hand in self.revealed_hands],
        }
