"""The training example runs end to end (a tiny run; the full result is in the README)."""

from __future__ import annotations

import importlib.util
import math
from pathlib import Path

import pytest

pytest.importorskip("gymnasium")

EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "train_policy.py"


def test_train_policy_smoke(capsys: pytest.CaptureFixture[str]) -> None:
    spec = importlib.util.spec_from_file_location("train_policy", EXAMPLE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    result = module.main(["--episodes", "32", "--eval-episodes", "10", "--seed", "3"])
    assert math.isfinite(result["learned"]) and math.isfinite(result["random"])
    assert "learned policy" in capsys.readouterr().out
    # Same seed, same numbers: training and evaluation are seeded end to end.
    again = module.main(["--episodes", "32", "--eval-episodes", "10", "--seed", "3"])
    assert (again["learned"], again["random"]) == (result["learned"], result["random"])


def load_example(name: str) -> object:
    path = EXAMPLE.parent / f"{name}.py"
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_openspiel_ismcts_baseline_runs_end_to_end(capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("pyspiel")
    module = load_example("openspiel_ismcts_baseline")
    results = module.main(["--rounds", "2", "--simulations", "8"])  # type: ignore[attr-defined]
    assert set(results) == {"random", "greedy"}
    assert all(math.isfinite(mean) for mean, _ in results.values())
    assert "against greedy" in capsys.readouterr().out


def test_the_maskable_ppo_example_trains_and_measures(capsys: pytest.CaptureFixture[str]) -> None:
    """Runs where the train extra is installed (torch); make test and CI do without it."""
    pytest.importorskip("sb3_contrib")
    module = load_example("train_maskable_ppo")
    argv = ["--timesteps", "512", "--envs", "2", "--eval-rounds", "4"]
    results = module.main(argv)  # type: ignore[attr-defined]
    assert math.isfinite(results["random"]) and math.isfinite(results["greedy"])
    assert "against random" in capsys.readouterr().out


def test_the_tianshou_dqn_example_trains_and_measures(capsys: pytest.CaptureFixture[str]) -> None:
    """Runs where Tianshou is installed (torch); make test and CI do without it."""
    pytest.importorskip("tianshou")
    module = load_example("train_tianshou_dqn")
    argv = ["--steps", "400", "--envs", "2", "--rounds", "4"]
    results = module.main(argv)  # type: ignore[attr-defined]
    assert math.isfinite(results["random"]) and math.isfinite(results["greedy"])
    assert "against greedy" in capsys.readouterr().out


def test_the_self_play_league_runs_batched_and_game_by_game(
    capsys: pytest.CaptureFixture[str],
) -> None:
    module = load_example("self_play_league")
    results = module.main(["--mode", "both", "--steps", "600", "--envs", "8", "--snapshot", "5"])  # type: ignore[attr-defined]
    for mode in ("vector", "single"):
        assert results[mode]["steps"] >= 600 and results[mode]["episodes"] > 5
        assert results[mode]["snapshots"] > 1  # the league grew and was drawn from
    assert "as many steps a second as single envs" in capsys.readouterr().out
