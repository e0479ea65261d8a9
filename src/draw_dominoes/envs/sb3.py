"""Stable-Baselines3 ``VecEnv`` over the native vector env, with ``action_masks()`` for MaskablePPO.

``sb3_vec_env(num_envs=8, opponents=[...], ...)`` makes a ``DrawDominoesVectorEnv`` (every
option of it applies) and hands it to SB3 as one ``VecEnv``: the games are stepped as
numpy batches, where ``make_vec_env`` would wrap ``num_envs`` single environments in SB3's
``DummyVecEnv`` and step them one by one. Stable-Baselines3 is imported when the first
adapter is made (``pip install stable-baselines3 sb3-contrib``), not with this module.

A finished game is reset in the same step, as SB3 expects: its last observation is in
``infos[i]["terminal_observation"]``. ``action_masks()`` (and ``env_method("action_masks")``,
which sb3-contrib's MaskablePPO calls) gives the N × 58 boolean masks. The games share
one environment, so ``get_attr``, ``set_attr`` and ``env_method`` reach the vector env's
own attributes and methods, the same for every index.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable
from typing import Any

import numpy as np
import numpy.typing as npt

from .gym_env import DrawDominoesVectorEnv

__all__ = ["adapter_class", "sb3_vec_env"]


def sb3_vec_env(num_envs: int = 8, **options: Any) -> Any:
    """A Stable-Baselines3 ``VecEnv`` of ``num_envs`` games of ``DrawDominoesVectorEnv``
    made with ``options`` (opponents, seat, reward, observation, ...)."""
    return adapter_class()(DrawDominoesVectorEnv(num_envs=num_envs, **options))


@functools.cache
def adapter_class() -> type[Any]:
    """The adapter class, made on first use so that importing this module needs no SB3."""
    try:
        from stable_baselines3.common.vec_env import VecEnv
    except ImportError as error:  # one line that says what to install
        raise ImportError(
            "draw_dominoes.envs.sb3 needs Stable-Baselines3: pip install stable-baselines3"
        ) from error

    class DrawDominoesSB3VecEnv(VecEnv):  # type: ignore[misc, valid-type, unused-ignore]
        """``DrawDominoesVectorEnv`` seen through SB3's ``VecEnv`` interface."""

        def __init__(self, env: DrawDominoesVectorEnv) -> None:
            self.env = env
            super().__init__(env.num_envs, env.single_observation_space, env.single_action_space)
            self._actions: npt.NDArray[np.int64] | None = None

        def reset(self) -> Any:
            seeds = getattr(self, "_seeds", None) or []
            chosen = list(seeds) if any(s is not None for s in seeds) else None
            observations, info = self.env.reset(seed=chosen)
            self._reset_seeds()
            self.reset_infos = self._infos(info, np.zeros(self.num_envs, dtype=bool))
            return observations

        def step_async(self, actions: npt.NDArray[Any]) -> None:
            self._actions = np.asarray(actions, dtype=np.int64).reshape(self.num_envs)

        def step_wait(self) -> tuple[Any, npt.NDArray[np.float32], npt.NDArray[np.bool_], Any]:
            if self._actions is None:
                raise RuntimeError("step_async() comes before step_wait()")
            observations, rewards, terminated, truncated, info = self.env.step(self._actions)
            self._actions = None
            dones = terminated | truncated
            infos = self._infos(info, dones)
            final = info.get("final_obs")
            for index in np.flatnonzero(dones).tolist():
                infos[index]["terminal_observation"] = final[index] if final is not None else None
                infos[index]["TimeLimit.truncated"] = bool(
                    truncated[index] and not terminated[index]
                )
            return observations, rewards.astype(np.float32), dones, infos

        def _infos(
            self, info: dict[str, Any], dones: npt.NDArray[np.bool_]
        ) -> list[dict[str, Any]]:
            """SB3's list of per-game dicts: each game's seat (and illegal-action reason)."""
            seats = info["seat"].tolist()
            infos: list[dict[str, Any]] = [{"seat": seat} for seat in seats]
            reasons = info.get("illegal_action")
            if reasons is not None:
                for index, reason in enumerate(reasons.tolist()):
                    if reason is not None:
                        infos[index]["illegal_action"] = reason
            return infos

        def action_masks(self) -> npt.NDArray[np.bool_]:
            """The legal-action masks as booleans (N × 58), for sb3-contrib's MaskablePPO."""
            return self.env.action_masks()

        def _count(self, indices: int | Iterable[int] | None) -> int:
            return len(list(self._get_indices(indices)))

        def get_attr(self, attr_name: str, indices: int | Iterable[int] | None = None) -> list[Any]:
            value = getattr(self, attr_name) if attr_name == "action_masks" else None
            if value is None:
                value = getattr(self.env, attr_name)
            return [value] * self._count(indices)

        def set_attr(
            self, attr_name: str, value: Any, indices: int | Iterable[int] | None = None
        ) -> None:
            setattr(self.env, attr_name, value)

        def env_method(
            self,
            method_name: str,
            *method_args: Any,
            indices: int | Iterable[int] | None = None,
            **method_kwargs: Any,
        ) -> list[Any]:
            chosen = list(self._get_indices(indices))
            if method_name == "action_masks":
                masks = self.action_masks()
                return [masks[index] for index in chosen]
            result = getattr(self.env, method_name)(*method_args, **method_kwargs)
            return [result] * len(chosen)

        def env_is_wrapped(
            self, wrapper_class: type[Any], indices: int | Iterable[int] | None = None
        ) -> list[bool]:
            return [False] * self._count(indices)

        def close(self) -> None:
            self.env.close()

    return DrawDominoesSB3VecEnv
