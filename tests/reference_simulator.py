"""A plain list-based simulator of one round of Draw: the engine's independent cross-check.

Written the obvious way (tiles as pairs, hands and the boneyard as lists, moves as
tuples), sharing no code with the engine, so that tests can compare the two on many
deals and ``benchmarks/bench_engine.py`` can measure the engine against it.
"""

from __future__ import annotations

import random

DRAW = "draw"
PASS = "pass"
TILES = [(a, b) for a in range(7) for b in range(a, 7)]
Move = tuple[tuple[int, int], int | None] | str


class Simulator:
    """One round (R2–R17): a move is ``(tile, end)`` (end ``None`` opens), DRAW or PASS."""

    def __init__(
        self,
        hands: list[list[tuple[int, int]]],
        boneyard: list[tuple[int, int]],
        leader: int,
    ) -> None:
        self.players = len(hands)
        self.hands = [list(hand) for hand in hands]
        self.boneyard = list(boneyard)  # boneyard[0] is drawn first
        self.ends: list[int] = []  # the two values the line accepts, once opened
        self.current = leader
        self.passes = 0
        self.over = False
        self.winner: int | None = None
        self.points = 0
        self.totals: list[int] = []

    @classmethod
    def new(cls, players: int, seed: int) -> Simulator:
        """Shuffle with ``random.Random(seed)`` and deal 7 tiles each (6 with four), R2."""
        rng = random.Random(seed)
        tiles = TILES[:]
        rng.shuffle(tiles)
        size = 6 if players == 4 else 7
        hands = [tiles[i * size : (i + 1) * size] for i in range(players)]
        return cls(hands, tiles[players * size :], rng.randrange(players))

    def legal_moves(self) -> list[Move]:
        """Placements (R5, R6), then draw while more than two tiles are left (R2, R7),
        else pass when nothing fits."""
        if self.over:
            return []
        hand = self.hands[self.current]
        moves: list[Move] = []
        if not self.ends:
            moves = [(tile, None) for tile in hand]
        else:
            for end in (0, 1):
                for tile in hand:
                    if self.ends[end] in tile:
                        moves.append((tile, end))
        if len(self.boneyard) > 2:
            moves.append(DRAW)
        elif not moves:
            moves.append(PASS)
        return moves

    def play(self, move: Move) -> None:
        """Make a move from ``legal_moves()``; the player keeps the turn after a draw."""
        hand = self.hands[self.current]
        if move == DRAW:
            hand.append(self.boneyard.pop(0))
            return
        if isinstance(move, str):  # PASS
            self.passes += 1
            if self.passes == self.players:
                self._settle(domino=False)  # blocked: nobody can move (R14)
            else:
                self.current = (self.current + 1) % self.players
            return
        tile, end = move
        hand.remove(tile)
        self.passes = 0
        if end is None:
            self.ends = [tile[0], tile[1]]
        else:
            value = self.ends[end]
            self.ends[end] = tile[1] if tile[0] == value else tile[0]
        if not hand:
            self._settle(domino=True)
        else:
            self.current = (self.current + 1) % self.players

    def _settle(self, domino: bool) -> None:
        """R15–R17: a dominoer takes all pips; in a block the single lowest total takes
        the others' totals less its own, a tie scores nothing."""
        self.over = True
        self.totals = [sum(a + b for a, b in hand) for hand in self.hands]
        if domino:
            self.winner = self.current
            self.points = sum(self.totals)
            return
        lowest = min(self.totals)
        if self.totals.count(lowest) == 1:
            self.winner = self.totals.index(lowest)
            self.points = sum(self.totals) - 2 * lowest
