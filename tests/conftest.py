"""Shared helpers for the engine tests: scripted deals and random play."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

from hypothesis import settings

from draw_dominoes import ALL_TILES, Round, Tile

# The same examples on every run: a property test that fails, fails again.
settings.register_profile("repeatable", derandomize=True, print_blob=True)
settings.load_profile("repeatable")

DATA = Path(__file__).parent / "data"
RULES = Path(__file__).parent.parent / "docs" / "rules"


def tiles(*texts: str) -> list[Tile]:
    return [Tile.parse(t) for t in texts]


def deal(hands: list[list[str]], top: list[str] = (), leader: int = 0) -> Round:  # type: ignore[assignment]
    """A round from the given hands; the boneyard starts with ``top`` and then holds every
    other tile in set order."""
    used = {Tile.parse(t) for hand in hands for t in hand} | {Tile.parse(t) for t in top}
    rest = [str(t) for t in ALL_TILES if t not in used]
    return Round.from_deal(hands, list(top) + rest, leader)


def play_randomly(round_: Round, rng: random.Random, steps: int | None = None) -> None:
    while not round_.is_over and (steps is None or steps > 0):
        round_.apply(rng.choice(round_.legal_actions()))
        if steps is not None:
            steps -= 1


def worked_examples() -> dict[str, Any]:
    data: dict[str, Any] = json.loads((DATA / "worked_examples.json").read_text())
    return data


def snapshot(round_: Round) -> tuple[Any, ...]:
    """Everything observable about a round, to prove an action changed nothing."""
    return (
        tuple(round_.hand(p) for p in range(round_.players)),
        round_.boneyard,
        round_.line,
        round_.history,
        round_.current_player,
        round_.outcome,
        tuple(round_.lacking(p) for p in range(round_.players)),
    )
