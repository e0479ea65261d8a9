"""Research environments: PettingZoo, Gymnasium and OpenSpiel adapters (the ``rl`` extra).

Importing this package registers the Gymnasium environment ``DrawDominoes-v0`` (where
Gymnasium is installed: the encoding and the batched rules need numpy alone, which the
learned bot relies on). The PettingZoo environment is ``draw_dominoes.envs.draw_v0``; importing
``draw_dominoes.envs.openspiel`` registers the OpenSpiel game ``python_draw_dominoes``;
``draw_dominoes.envs.sb3`` adapts the vector env to Stable-Baselines3. ``batched(policy)``
marks an opponent that answers many games at once.
"""

from __future__ import annotations

import importlib.util


def _missing(name: str) -> bool:
    try:
        return importlib.util.find_spec(name) is None
    except ImportError:
        return True


if _missing("numpy"):  # one line that says what to install, not a traceback deep in numpy
    raise ImportError(
        "draw_dominoes.envs needs the rl extra (numpy is missing): pip install 'draw-dominoes[rl]'"
    )

from ._table import BatchedPolicy, OpponentError, batched  # noqa: E402
from .encoding import (  # noqa: E402 (after the check above)
    ACTION_SPACE_VERSION,
    DRAW_ID,
    NUM_ACTIONS,
    OBSERVATION_FIELDS,
    OBSERVATION_SIZE,
    OBSERVATION_VERSION,
    PASS_ID,
    STATE_SIZE,
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
    "STATE_SIZE",
    "BatchedPolicy",
    "OpponentError",
    "action_id",
    "action_mask",
    "batched",
    "id_to_action",
    "observation",
]

GYM_ID = "DrawDominoes-v0"


def _register_gymnasium() -> None:
    import gymnasium

    if GYM_ID not in gymnasium.registry:
        # The environment enforces reset-before-step itself and passes check_env (tested),
        # so ``gymnasium.make`` hands it out unwrapped: ``env.action_masks()`` and the
        # other methods are reachable as SB3 and sb3-contrib expect.
        gymnasium.register(
            id=GYM_ID,
            entry_point="draw_dominoes.envs.gym_env:DrawDominoesEnv",
            vector_entry_point="draw_dominoes.envs.gym_env:DrawDominoesVectorEnv",
            order_enforce=False,
            disable_env_checker=True,
        )


if not _missing("gymnasium"):  # the encoding and the batched rules need numpy alone
    _register_gymnasium()
