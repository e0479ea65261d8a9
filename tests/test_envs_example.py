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
