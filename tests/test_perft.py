"""Perft: the number of distinct action sequences from fixed first positions, as regression data."""

from __future__ import annotations

import json

import pytest

from conftest import DATA
from draw_dominoes import Round


def perft(game: Round, depth: int) -> int:
    """Leaves of the action tree to ``depth`` (a finished round is a leaf)."""
    if depth == 0 or game.is_over:
        return 1
    total = 0
    for action in game.legal_actions():
        child = game.clone()
        child.apply(action)
        total += perft(child, depth - 1)
    return total


CASES = json.loads((DATA / "perft.json").read_text())


@pytest.mark.parametrize("case", CASES, ids=lambda c: f"{c['players']}p-seed{c['seed']}")
def test_perft(case: dict[str, object]) -> None:
    game = Round.new(case["players"], seed=case["seed"], leader=0)  # type: ignore[arg-type]
    assert [perft(game, d) for d in range(1, 5)] == case["counts"]
