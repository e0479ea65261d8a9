"""Research environments: PettingZoo, Gymnasium and OpenSpiel adapters (the ``rl`` extra).

Importing this package registers the Gymnasium environment ``DrawDominoes-v0``. The
PettingZoo environment is ``draw_dominoes.envs.draw_v0``; importing
``draw_dominoes.envs.openspiel`` registers the OpenSpiel game ``python_draw_dominoes``.
"""

from __future__ import annotations

from .encoding import (
    ACTION_SPACE_VERSION,
    DRAW_ID,
    NUM_ACTIONS,
    OBSERVATION_FIELDS,
    OBSERVATION_SIZE,
    OBSERVATION_VERSION,
    PASS_ID,
    action_id,
    action_mask,
    id_to_action,
    observation,
)

__all__ = [
    "ACTION_SPACE_VERSION",
    "DRAW_ID",
    "GYM_ID",
    "NUM_ACTIONS",
    "OBSERVATION_FIELDS",
    "OBSERVATION_SIZE",
    "OBSERVATION_VERSION",
    "PASS_ID",
    "action_id",
    "action_mask",
    "id_to_action",
    "observation",
]

GYM_ID = "DrawDominoes-v0"


def _register_gymnasium() -> None:
    import gymnasium

    if GYM_ID not in gymnasium.registry:
        gymnasium.register(id=GYM_ID, entry_point="draw_dominoes.envs.gym_env:DrawDominoesEnv")


_register_gymnasium()
