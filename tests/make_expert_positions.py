"""Find the positions of tests/data/expert_positions.json: one action best in every deal.

Run ``python tests/make_expert_positions.py 0 80 tests/data/expert_positions.json``. It
plays two-player rounds between ``ismcts`` bots (seeded, leader 0) and keeps positions
of three kinds where the seat to move can be shown the right choice exactly: every deal
of the hidden tiles it cannot rule out is solved to the end (``Solver``), and one action
is at least as good as every other in each deal and better on average.
"""

from __future__ import annotations

import itertools
import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from draw_dominoes import ALL_TILES, Action, Draw, Place, Round, bots
from draw_dominoes.bots.endgame import Solver
from draw_dominoes.bots.search import rewards
from draw_dominoes.view import PlayerView

WANTED = 4
"""Positions kept of each kind."""


def deals(view: PlayerView) -> Iterator[Round]:
    """Every full round the two-player ``view`` cannot rule out (the boneyard's order
    only as far as it can still be drawn)."""
    me = view.player
    assert me is not None  # a seat's view
    other = 1 - me
    known = set(view.hand) | set(view.line.tiles)
    hidden = [t for t in ALL_TILES if t not in known]
    lacking = view.lacking[other]
    hands = [0, 0]
    hands[me] = sum(t.bit for t in view.hand)
    template = Round.template_from_view(view, hands)
    for hand in itertools.combinations(hidden, view.hand_sizes[other]):
        if any(t.low in lacking or t.high in lacking for t in hand):
            continue
        rest = [t for t in hidden if t not in hand]
        for top in itertools.permutations(rest, view.drawable):
            order = list(top) + [t for t in rest if t not in top]
            yield template.with_hidden({other: sum(t.bit for t in hand)}, order)


def solved_values(view: PlayerView, most: int = 400) -> dict[Action, list[float]] | None:
    """Each legal action's reward for the seat in every deal, or None if there are too many."""
    assert view.player is not None  # a seat's view
    solver = Solver(view.scores, view.target, 28, drawable=1)
    table: dict[Action, list[float]] = {a: [] for a in view.legal_actions}
    for count, game in enumerate(deals(view)):
        if count >= most:
            return None
        for action in view.legal_actions:
            child = game.clone()
            child.apply(action)
            if child.outcome is not None:
                values = rewards(child.outcome, view.scores, view.target)
            else:
                found = solver.value(child)
                if found is None:
                    return None
                values = found
            table[action].append(values[view.player])
    return table


def kind_of(view: PlayerView) -> str | None:
    assert view.player is not None  # a seat's view
    legal = view.legal_actions
    if len(legal) < 2 or view.drawable > 1:
        return None
    if view.hand_sizes[view.player] == 1 and any(isinstance(a, Place) for a in legal):
        return "domino"
    if view.drawable == 1 and any(isinstance(a, Draw) for a in legal):
        return "no_draw"
    if view.drawable == 0 and view.lacking[1 - view.player]:
        return "lacking"
    return None


def main(first: int, last: int, out: Path) -> None:
    found: dict[str, list[dict[str, Any]]] = {"domino": [], "lacking": [], "no_draw": []}
    for seed in range(first, last):
        game = Round.new(2, seed=seed, leader=0)
        players = [bots.create("ismcts", seed=seed * 2 + s, iterations=200) for s in range(2)]
        while not game.is_over:
            seat = game.current_player
            view = game.view(seat)
            kind = kind_of(view)
            case: dict[str, Any] = {"kind": kind, "seed": seed, "leader": 0, "player": seat}
            case |= {"actions": [str(a) for a in game.actions]}
            case |= {"legal": [str(a) for a in view.legal_actions]}
            if kind == "domino" and len(found[kind]) < WANTED:
                case["best"] = str(next(a for a in view.legal_actions if isinstance(a, Place)))
                found[kind].append(case)
            elif kind is not None and len(found[kind]) < WANTED:
                table = solved_values(view)
                if table:
                    means = {a: sum(v) / len(v) for a, v in table.items()}
                    best = max(means, key=means.__getitem__)
                    dominant = all(
                        all(b >= o for b, o in zip(table[best], values, strict=True))
                        for values in table.values()
                    )
                    margin = min(means[best] - m for a, m in means.items() if a != best)
                    if dominant and margin > 0.05 and not isinstance(best, Draw):
                        case |= {"best": str(best), "margin": round(margin, 3)}
                        case["deals"] = len(table[best])
                        found[kind].append(case)
            legal = view.legal_actions
            game.apply(legal[0] if len(legal) == 1 else players[seat].choose(view))
        if all(len(cases) >= WANTED for cases in found.values()):
            break
    cases = [case for kind in found.values() for case in kind]
    out.write_text(json.dumps(cases, indent=1) + "\n")


if __name__ == "__main__":
    main(int(sys.argv[1]), int(sys.argv[2]), Path(sys.argv[3]))
