"""The index namer: a small convolutional network, run in NumPy, that names rank and suit of an index patch.

Why a second network: the perceptron in :mod:`companion.vision.mlp` reads hand-made gradient cells, and
those cells, a few pixels wide, blur what tells one typeface's digit from another's (a thin condensed 3
from a 5, a 9 from an 8). Deck designs never seen in training were read poorly. Convolutions learn their
own strokes and corners from the same training scenes, and on table photos of a deck kept out of
training they report fewer wrong names than the perceptron trained on the very same scenes (9-12 % of
reports against 14 %; found 81-91 % against 88 %, by training seed), and name more of that deck's
photographed cards (38 of 52 against 28).

Why it reads its own, finer cut-out of each candidate (:data:`PATCH_W` x :data:`PATCH_H`, twice the
finder's resolution over the same region): at the finder's 32x24 pixels a rank glyph is about ten
pixels tall, and on the deck kept out of training a serif king was read as a 10 at that size, never
at twice it (crops of that deck named right: 42 of 52 at the finder's size, 46 at twice it; found on
its table photos 92 % and 94 %, reports wrong 8.0 % and 7.1 %).

Why it runs second: it costs several thousand times more per candidate than the perceptron, and a busy
frame has a few hundred candidates, nearly all of them wood grain, pips and court-card detail. So the
perceptron first throws out what is plainly no index (its "not an index" class), and this network names
the dozen or so that are left. The forward pass is a handful of matrix products, so the companion still
needs nothing beyond NumPy; the weights are written by the build (``python -m tools.vision_build`` from
the checkout), which trains them with PyTorch (the ``train`` extra).

Why the same network also ships as an ONNX graph, run by OpenCV's DNN module (:class:`CompiledNamer`):
OpenCV's own convolutions take half the time of the NumPy matrix products for a table's two dozen
indices (a first read's namer: 13 -> 6 ms with the Pi's OpenCV 4.10 and with OpenCV 5's classic
engine, one thread). The graph is written from the ``.npz`` by the build (:mod:`tools.vision_build.graph`);
the NumPy pass stays the reference: a graph that does not give its probabilities is not used
(:func:`load_namer`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Final, Protocol

import cv2
import numpy as np
import numpy.typing as npt

from companion.vision.index import Candidate, patches, stretch
from companion.vision.mlp import NOT_INDEX, SUIT_TEXTS
from companion.vision.weights import Weights, softmax

__all__ = [
    "CHANNELS",
    "HIDDEN",
    "LAYERS",
    "PATCH_H",
    "PATCH_W",
    "CompiledNamer",
    "Namer",
    "Naming",
    "cut",
    "inputs",
    "load_namer",
]

F32 = npt.NDArray[np.float32]

#: The namer's own cut-out of a candidate, in pixels: the finder's region (:func:`index.patch_polygon`)
#: at twice the finder's resolution. At the finder's 32x24 a rank glyph is ten pixels tall, which is
#: where one typeface's king turns into another's 10; at table-photo scale this is about the glyph's
#: own resolution.
PATCH_W: Final = 48
PATCH_H: Final = 64
#: Input planes: the patch's grey level, contrast-stretched, and its redness (hearts and diamonds).
CHANNELS: Final = 2
#: Output channels of the three 3x3 convolutions (each followed by ReLU and 2x2 max pooling).
LAYERS: Final = (16, 32, 64)
#: Width of the fully connected layer before the two heads.
HIDDEN: Final = 128


def inputs(patches: npt.NDArray[np.uint8]) -> F32:
    """Network input (n, CHANNELS, H, W) from upright BGR patches (n, H, W, 3).

    Grey is stretched as for the finder (:func:`companion.vision.index.stretch`); redness is measured
    on the same scale, since ink colour tells the suit's colour
    where its shape is only a few pixels.
    """
    n, h, w, _ = patches.shape
    if n == 0:
        return np.zeros((0, CHANNELS, h, w), np.float32)
    p = patches.astype(np.float32)
    norm, _, _, span = stretch(p)
    red = np.clip((p[..., 2] - np.maximum(p[..., 1], p[..., 0])) / span, -1.0, 1.0)
    out: F32 = np.stack([norm - 0.5, red], axis=1).astype(np.float32)
    return out


def cut(image: npt.NDArray[np.uint8], cands: list[Candidate]) -> npt.NDArray[np.uint8]:
    """The namer's patches of ``cands`` (n, PATCH_H, PATCH_W, 3): what :func:`inputs` takes."""
    return patches(image, cands, (PATCH_W, PATCH_H))


def _conv3(x: F32, w: F32, b: F32) -> F32:
    """A 3x3 convolution with zero padding: (C, n, H, W) by (out, C, 3, 3) to (out, n, H, W).

    The nine shifted copies of the input are stacked and multiplied by the kernel once: one large
    matrix product is far faster in NumPy than nine small ones or a sliding window view. Channels
    lead, so that every copy moves whole rows of a patch and the product lands in the same layout.
    Each copy is written straight into the stack, its border left zero (the padding), and the bias is
    added in place: a padded copy of the input and a second output cost a tenth of the product.
    """
    c, n, h, wd = x.shape
    cols = np.zeros((c, 9, n, h, wd), np.float32)
    for dy in range(3):
        for dx in range(3):
            # Output row y reads input row y + dy - 1, zero where that falls outside.
            y0, y1 = max(0, 1 - dy), h - max(0, dy - 1)
            x0, x1 = max(0, 1 - dx), wd - max(0, dx - 1)
            source = x[:, :, y0 + dy - 1 : y1 + dy - 1, x0 + dx - 1 : x1 + dx - 1]
            cols[:, dy * 3 + dx, :, y0:y1, x0:x1] = source
    out: F32 = w.reshape(len(w), 9 * c) @ cols.reshape(9 * c, n * h * wd)
    out += b[:, None]
    return out.reshape(-1, n, h, wd)


def _pool2(x: F32) -> F32:
    """2x2 max pooling of (C, n, H, W), then ReLU.

    Why ReLU here: the largest of four is the same before or after it, on a quarter of the values.
    The four are taken in turn into one array: the largest of them is exact in any order.
    """
    out: F32 = np.maximum(x[:, :, 0::2, 0::2], x[:, :, 0::2, 1::2])
    np.maximum(out, x[:, :, 1::2, 0::2], out=out)
    np.maximum(out, x[:, :, 1::2, 1::2], out=out)
    np.maximum(out, 0.0, out=out)
    return out


@dataclass(frozen=True)
class Namer(Weights):
    """Weights of the convolutional namer, in PyTorch's layouts (convolutions (out, in, 3, 3), dense
    layers (out, in)); ``predict`` gives rank (with "not an index") and suit probabilities."""

    c0w: F32
    c0b: F32
    c1w: F32
    c1b: F32
    c2w: F32
    c2b: F32
    f1w: F32
    f1b: F32
    rw: F32
    rb: F32
    sw: F32
    sb: F32

    def predict(self, x: F32, batch: int = 256) -> tuple[F32, F32]:
        """Rank probabilities (n, 14; the last is "not an index") and suit probabilities (n, 4)."""
        return _in_batches(x, batch, self._forward)

    def _forward(self, x: F32) -> tuple[F32, F32]:
        h = x.transpose(1, 0, 2, 3)
        for w, b in ((self.c0w, self.c0b), (self.c1w, self.c1b), (self.c2w, self.c2b)):
            h = _pool2(_conv3(h, w, b))
        # Flattened channel-first within each patch, as PyTorch's flatten of (n, C, H, W) orders it.
        flat = h.transpose(1, 0, 2, 3).reshape(h.shape[1], -1)
        hidden = np.maximum(flat @ self.f1w.T + self.f1b, 0.0)
        return softmax(hidden @ self.rw.T + self.rb), softmax(hidden @ self.sw.T + self.sb)


def _in_batches(x: F32, batch: int, forward: Callable[[F32], tuple[F32, F32]]) -> tuple[F32, F32]:
    """``forward`` over ``x`` a ``batch`` at a time (memory stays bounded on a busy frame), joined."""
    if len(x) == 0:
        return np.zeros((0, NOT_INDEX + 1), np.float32), np.zeros((0, len(SUIT_TEXTS)), np.float32)
    parts = [forward(x[start : start + batch]) for start in range(0, len(x), batch)]
    return np.concatenate([r for r, _ in parts]), np.concatenate([s for _, s in parts])


class Naming(Protocol):
    """What the recogniser asks of a namer: rank and suit probabilities of a batch of inputs."""

    def predict(self, x: F32, batch: int = 256) -> tuple[F32, F32]: ...


#: The graph's input and its two outputs, by name (as :mod:`tools.vision_build.graph` writes them).
GRAPH_INPUT: Final = "patches"
GRAPH_OUTPUTS: Final = ("rank", "suit")
#: How far the graph's probabilities may stray from the NumPy pass's and still be the same network:
#: float32 sums taken in another order differ by about 1e-5.
GRAPH_TOLERANCE: Final = 1e-3


class CompiledNamer:
    """The namer's ONNX graph run by OpenCV's DNN module, on the calling thread (as OpenCV is told)."""

    def __init__(self, path: Path) -> None:
        # OpenCV 5 runs ONNX on a new engine by default, slower than its classic one for this network
        # (13 against 6 ms a table); OpenCV 4 has only the classic one, and no engine argument.
        classic = getattr(cv2.dnn, "ENGINE_CLASSIC", None)
        self.net = (
            cv2.dnn.readNetFromONNX(str(path))
            if classic is None
            else cv2.dnn.readNetFromONNX(str(path), classic)
        )
        self.net.setPreferableBackend(cv2.dnn.DNN_BACKEND_OPENCV)
        self.net.setPreferableTarget(cv2.dnn.DNN_TARGET_CPU)

    def predict(self, x: F32, batch: int = 256) -> tuple[F32, F32]:
        """As :meth:`Namer.predict`."""
        return _in_batches(x, batch, self._forward)

    def _forward(self, x: F32) -> tuple[F32, F32]:
        self.net.setInput(np.ascontiguousarray(x), GRAPH_INPUT)
        rank, suit = self.net.forward(list(GRAPH_OUTPUTS))
        return np.asarray(rank, np.float32), np.asarray(suit, np.float32)


def load_namer(weights: Path, graph: Path | None = None) -> Naming:
    """The namer of ``weights`` (``.npz``), run as ``graph`` (its ONNX form) where that is there, OpenCV
    reads it, and it gives the weights' own probabilities on a few fixed random patches; else the
    NumPy pass.  So a graph left behind by a rebuild of the weights is never used in their place."""
    namer = Namer.load(weights)
    if graph is None or not graph.is_file():
        return namer
    try:
        compiled = CompiledNamer(graph)
        probe = inputs(np.random.default_rng(0).integers(0, 256, (3, PATCH_H, PATCH_W, 3), np.uint8))
        got, want = compiled.predict(probe), namer.predict(probe)
    except cv2.error:
        return namer
    pairs = zip(got, want, strict=True)
    same = all(g.shape == w.shape and bool(np.abs(g - w).max() <= GRAPH_TOLERANCE) for g, w in pairs)
    return compiled if same else namer
