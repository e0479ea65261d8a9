"""The Stable-Baselines3 adapter over the native vector env (only where SB3 is installed)."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("stable_baselines3", reason="Stable-Baselines3 is not installed")

from draw_dominoes.envs.sb3 import sb3_vec_env


def test_the_adapter_steps_resets_and_hands_out_masks() -> None:
    env = sb3_vec_env(num_envs=4, opponents=["greedy"])
    env.seed(3)
    obs = env.reset()
    assert obs.shape == (4, 124)
    masks = env.action_masks()
    assert masks.shape == (4, 58) and masks.any(axis=1).all()
    assert np.array_equal(np.stack(env.env_method("action_masks")), masks)
    ended = 0
    rng = np.random.default_rng(0)
    for _ in range(60):
        masks = env.action_masks()
        actions = np.where(masks, rng.random(masks.shape), -1).argmax(axis=1)
        obs, rewards, dones, infos = env.step(actions)
        assert obs.shape == (4, 124) and rewards.shape == (4,) and len(infos) == 4
        for index in np.flatnonzero(dones):
            assert infos[index]["terminal_observation"].shape == (124,)
            ended += 1
    assert ended > 0
    assert env.get_attr("players") == [2] * 4 and env.env_is_wrapped(object) == [False] * 4


def test_maskable_ppo_learns_a_few_steps_on_the_adapter() -> None:
    contrib = pytest.importorskip("sb3_contrib", reason="sb3-contrib is not installed")
    env = sb3_vec_env(num_envs=4, opponents=["random"])
    model = contrib.MaskablePPO("MlpPolicy", env, n_steps=32, batch_size=64, seed=0, device="cpu")
    model.learn(total_timesteps=128)
    obs = env.reset()
    actions, _ = model.predict(obs, action_masks=env.action_masks())
    assert env.action_masks()[np.arange(4), actions].all()
