"""The engine against the independent list-based simulator: same deals, same moves, same scores."""

from __future__ import annotations

import copy
import random
from typing import Any

import pytest

from draw_dominoes import ALL_TILES, DRAW, PASS, Action, Place, Round
from reference_simulator import Move, Simulator
from test_perft import CASES

TILE_OF = {(t.low, t.high): t for t in ALL_TILES}


def as_action(move: Move) -> Action:
    if isinstance(move, str):
        return DRAW if move == "draw" else PASS
    tile, end = move
    return Place(TILE_OF[tile], end)


def dealt_twice(players: int, seed: int) -> tuple[Round, Simulator]:
    """One deal from ``seed``, given to both: the engine's own shuffle, copied over."""
    game = Round.new(players, seed=seed)
    hands, boneyard = game.deal
    pairs = [[(t.low, t.high) for t in hand] for hand in hands]
    return game, Simulator(pairs, [(t.low, t.high) for t in boneyard], game.leader)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_position_of_random_rounds_agrees(players: int) -> None:
    """R2–R17 as the simulator reads them: legal moves at every turn, then the settlement."""
    rng = random.Random(players)
    for seed in range(300):
        game, sim = dealt_twice(players, seed)
        while not game.is_over:
            moves = sim.legal_moves()
            expected = sorted(str(as_action(m)) for m in moves)
            assert sorted(map(str, game.legal_actions())) == expected
            move = moves[rng.randrange(len(moves))]
            game.apply(as_action(move))
            sim.play(move)
            assert game.current_player == sim.current
        assert sim.over
        outcome = game.outcome
        assert outcome is not None
        assert (outcome.winner, outcome.points) == (sim.winner, sim.points)
        assert list(outcome.pip_totals) == sim.totals


def simulator_perft(sim: Simulator, depth: int) -> int:
    if depth == 0 or sim.over:
        return 1
    total = 0
    for move in sim.legal_moves():
        child = copy.deepcopy(sim)
        child.play(move)
        total += simulator_perft(child, depth - 1)
    return total


@pytest.mark.parametrize("case", CASES, ids=lambda c: f"{c['players']}p-seed{c['seed']}")
def test_perft_counts_agree_with_the_simulator(case: dict[str, Any]) -> None:
    game = Round.new(case["players"], seed=case["seed"], leader=0)
    hands, boneyard = game.deal
    sim = Simulator(
        [[(t.low, t.high) for t in hand] for hand in hands], [(t.low, t.high) for t in boneyard], 0
    )
    assert [simulator_perft(sim, d) for d in range(1, 4)] == case["counts"][:3]


def test_the_simulator_deals_as_documented() -> None:
    """Its own deal: 7 tiles a hand (6 with four players), the rest in the boneyard (R2)."""
    for players, size in ((2, 7), (3, 7), (4, 6)):
        sim = Simulator.new(players, seed=5)
        assert [len(h) for h in sim.hands] == [size] * players
        every = sorted([t for h in sim.hands for t in h] + sim.boneyard)
        assert every == sorted(TILE_OF)
