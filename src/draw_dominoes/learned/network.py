"""The learned bot's network: a small multilayer perceptron in numpy, saved as one ``.npz``.

It maps a (position, action) row of ``features.pair_features`` to the points the acting
seat can expect from the round (its credit less the others' mean), as Deep Monte-Carlo
learns it. Play needs ``value`` only; training also uses ``gradients``.
"""

from __future__ import annotations

import io
import itertools
import zipfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from .features import FEATURES, FEATURES_VERSION

__all__ = ["POINTS_SCALE", "Network", "WeightsError"]

Floats = npt.NDArray[np.float32]

POINTS_SCALE = 32.0
"""The network's outputs are points divided by this (targets of order one learn best)."""


class WeightsError(ValueError):
    """A weights file that is missing, damaged or made for other features; names the file."""


class Network:
    """Layers of ``weights[i]`` (inputs × outputs) and ``biases[i]``: ReLU between them,
    one linear output."""

    def __init__(self, weights: Sequence[Floats], biases: Sequence[Floats]) -> None:
        self.weights = [np.asarray(w, dtype=np.float32) for w in weights]
        self.biases = [np.asarray(b, dtype=np.float32) for b in biases]

    @classmethod
    def new(cls, hidden: Sequence[int], rng: np.random.Generator) -> Network:
        """Fresh weights (He initialisation) for ``FEATURES`` inputs and one output."""
        sizes = [FEATURES, *hidden, 1]
        weights = [
            (rng.standard_normal((a, b)) * np.sqrt(2.0 / a)).astype(np.float32)
            for a, b in itertools.pairwise(sizes)
        ]
        biases = [np.zeros(b, dtype=np.float32) for b in sizes[1:]]
        return cls(weights, biases)

    @property
    def hidden(self) -> list[int]:
        return [w.shape[1] for w in self.weights[:-1]]

    def value(self, rows: Floats) -> Floats:
        """The expected points of each feature row."""
        x = rows
        for w, b in zip(self.weights[:-1], self.biases[:-1], strict=True):
            x = np.maximum(x @ w + b, 0)
        out: Floats = (x @ self.weights[-1] + self.biases[-1])[:, 0] * POINTS_SCALE
        return out

    def gradients(self, rows: Floats, targets: Floats) -> tuple[float, list[Floats]]:
        """The mean squared error against ``targets`` (points) and its gradient for every
        weight and bias, in the order of ``parameters``."""
        layers = [rows]
        x = rows
        for w, b in zip(self.weights[:-1], self.biases[:-1], strict=True):
            x = np.maximum(x @ w + b, 0)
            layers.append(x)
        out = (x @ self.weights[-1] + self.biases[-1])[:, 0]
        error = out - targets / POINTS_SCALE
        loss = float(np.mean(error**2))
        grad = (2 / len(rows)) * error[:, None].astype(np.float32)
        grads: list[Floats] = []
        for i in range(len(self.weights) - 1, -1, -1):
            grads.append(grad.sum(axis=0))
            grads.append(layers[i].T @ grad)
            if i:
                grad = (grad @ self.weights[i].T) * (layers[i] > 0)
        grads.reverse()  # weight 0, bias 0, weight 1, ...
        return loss, grads

    @property
    def parameters(self) -> list[Floats]:
        """Weight 0, bias 0, weight 1, bias 1, …: the arrays training changes in place."""
        return [p for pair in zip(self.weights, self.biases, strict=True) for p in pair]

    # ------------------------------------------------------------ files

    def save(self, path: Path) -> None:
        """One ``.npz``: the layers and the features' version they were trained on."""
        arrays: dict[str, Any] = {f"w{i}": w for i, w in enumerate(self.weights)}
        arrays |= {f"b{i}": b for i, b in enumerate(self.biases)}
        arrays["features_version"] = np.int64(FEATURES_VERSION)
        buffer = io.BytesIO()
        np.savez_compressed(buffer, **arrays)
        path.parent.mkdir(parents=True, exist_ok=True)
        temporary = path.with_suffix(".tmp")
        temporary.write_bytes(buffer.getvalue())
        temporary.replace(path)

    @classmethod
    def load(cls, path: Path) -> Network:
        """The network saved at ``path``; ``WeightsError`` naming the file if it is missing,
        damaged or was trained on other features."""
        try:
            with np.load(path, allow_pickle=False) as data:
                version = int(data["features_version"])
                layers = sum(1 for name in data.files if name.startswith("w"))
                weights = [data[f"w{i}"] for i in range(layers)]
                biases = [data[f"b{i}"] for i in range(layers)]
        except FileNotFoundError:
            raise WeightsError(f"{path}: no such weights file") from None
        except (OSError, KeyError, ValueError, zipfile.BadZipFile, EOFError) as exc:
            raise WeightsError(f"{path}: not a weights file of the learned bot ({exc})") from None
        if version != FEATURES_VERSION:
            raise WeightsError(
                f"{path}: trained on features version {version}, this is {FEATURES_VERSION}"
            )
        network = cls(weights, biases)
        sizes = [FEATURES, *network.hidden, 1]
        for i, (w, b) in enumerate(zip(network.weights, network.biases, strict=True)):
            if w.ndim != 2 or w.shape != (sizes[i], sizes[i + 1]) or b.shape != (sizes[i + 1],):
                raise WeightsError(f"{path}: layer {i} has the wrong shape {w.shape}")
            if not (np.isfinite(w).all() and np.isfinite(b).all()):
                raise WeightsError(f"{path}: layer {i} holds a value that is not finite")
        return network
