"""A small two-headed perceptron in NumPy: index features in, rank and suit probabilities out.

Inference is three matrix products, so the companion needs nothing beyond NumPy to read cards; the
weights ship as one ``.npz`` file written by the build (``python -m tools.vision_build``). The rank head
has one extra class, "not an index", so a wrong pair of ink marks (two pips, a court figure's detail,
wood grain) is rejected by the same network that names real indices.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

import numpy as np
import numpy.typing as npt

from companion.vision.weights import Weights, softmax

__all__ = ["NOT_INDEX", "RANK_TEXTS", "SUIT_TEXTS", "Network", "train"]

RANK_TEXTS: Final = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SUIT_TEXTS: Final = ("c", "d", "h", "s")
#: Index of the "not an index" class in the rank head.
NOT_INDEX: Final = len(RANK_TEXTS)

F32 = npt.NDArray[np.float32]


@dataclass(frozen=True)
class Network(Weights):
    """Weights of the network; ``predict`` gives rank (with not-an-index) and suit probabilities."""

    mean: F32
    scale: F32
    w1: F32
    b1: F32
    w2: F32
    b2: F32
    wr: F32
    br: F32
    ws: F32
    bs: F32

    def hidden(self, x: F32) -> F32:
        h = np.maximum((x - self.mean) * self.scale @ self.w1 + self.b1, 0.0)
        out: F32 = np.maximum(h @ self.w2 + self.b2, 0.0).astype(np.float32)
        return out

    def predict(self, x: F32) -> tuple[F32, F32]:
        h = self.hidden(x)
        return softmax(h @ self.wr + self.br), softmax(h @ self.ws + self.bs)


def train(
    x: F32,
    rank: npt.NDArray[np.int64],
    suit: npt.NDArray[np.int64],
    *,
    seed: int,
    epochs: int = 12,
    hidden: tuple[int, int] = (256, 128),
    batch: int = 256,
    lr: float = 2e-3,
    progress: bool = True,
) -> Network:
    """Fit the network with Adam; ``suit`` is ignored where ``rank`` is :data:`NOT_INDEX`."""
    rng = np.random.default_rng(seed)
    n, d = x.shape
    mean = x.mean(axis=0).astype(np.float32)
    scale = (1.0 / (x.std(axis=0) + 1e-3)).astype(np.float32)
    xs = ((x - mean) * scale).astype(np.float32)

    def init(a: int, b: int) -> F32:
        w: F32 = (rng.standard_normal((a, b)) * np.sqrt(2.0 / a)).astype(np.float32)
        return w

    params: dict[str, F32] = {
        "w1": init(d, hidden[0]),
        "b1": np.zeros(hidden[0], np.float32),
        "w2": init(hidden[0], hidden[1]),
        "b2": np.zeros(hidden[1], np.float32),
        "wr": init(hidden[1], NOT_INDEX + 1) * 0.5,
        "br": np.zeros(NOT_INDEX + 1, np.float32),
        "ws": init(hidden[1], len(SUIT_TEXTS)) * 0.5,
        "bs": np.zeros(len(SUIT_TEXTS), np.float32),
    }
    m1 = {k: np.zeros_like(v) for k, v in params.items()}
    m2 = {k: np.zeros_like(v) for k, v in params.items()}
    step = 0
    b1c, b2c = 0.9, 0.999
    steps_total = epochs * ((n + batch - 1) // batch)
    for epoch in range(epochs):
        order = rng.permutation(n)
        total = 0.0
        for start in range(0, n, batch):
            sel = order[start : start + batch]
            xb, rb, sb = xs[sel], rank[sel], suit[sel]
            # Light input noise: a cheap guard against memorising the rendered decks.
            xb = xb + rng.standard_normal(xb.shape).astype(np.float32) * 0.1
            z1 = xb @ params["w1"] + params["b1"]
            h1 = np.maximum(z1, 0)
            z2 = h1 @ params["w2"] + params["b2"]
            h2 = np.maximum(z2, 0)
            pr = softmax(h2 @ params["wr"] + params["br"])
            ps = softmax(h2 @ params["ws"] + params["bs"])
            m = len(sel)
            is_index = (rb != NOT_INDEX).astype(np.float32)
            total += float(-np.log(pr[np.arange(m), rb] + 1e-9).sum())
            gr = pr.copy()
            gr[np.arange(m), rb] -= 1
            gr /= m
            gs = ps.copy()
            gs[np.arange(m), sb] -= 1
            gs *= is_index[:, None] / m
            grads = {
                "wr": h2.T @ gr,
                "br": gr.sum(0),
                "ws": h2.T @ gs,
                "bs": gs.sum(0),
            }
            gh2 = (gr @ params["wr"].T + gs @ params["ws"].T) * (z2 > 0)
            grads["w2"] = h1.T @ gh2
            grads["b2"] = gh2.sum(0)
            gh1 = (gh2 @ params["w2"].T) * (z1 > 0)
            grads["w1"] = xb.T @ gh1
            grads["b1"] = gh1.sum(0)
            step += 1
            rate = lr * 0.5 * (1 + np.cos(np.pi * step / steps_total))
            for k, g in grads.items():
                if k.startswith("w"):
                    g = g + 1e-4 * params[k]
                m1[k] = b1c * m1[k] + (1 - b1c) * g
                m2[k] = b2c * m2[k] + (1 - b2c) * g * g
                mh = m1[k] / (1 - b1c**step)
                vh = m2[k] / (1 - b2c**step)
                params[k] = (params[k] - rate * mh / (np.sqrt(vh) + 1e-8)).astype(np.float32)
        if progress:
            print(f"  epoch {epoch + 1}/{epochs}: loss {total / n:.4f}", flush=True)
    # Fold the input scaling into the saved weights' companions so inference repeats it exactly.
    return Network(mean=mean, scale=scale, **params)
