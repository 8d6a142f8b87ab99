"""The index namer: its NumPy forward pass is the convolutional network PyTorch defines, its input
planes say what they claim (contrast-stretched grey, redness), and the graph OpenCV runs in its place
is the same network."""

from __future__ import annotations

import shutil
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.vision import index as idx
from companion.vision.cnn import (
    CHANNELS,
    PATCH_H,
    PATCH_W,
    CompiledNamer,
    Namer,
    _conv3,
    cut,
    inputs,
    load_namer,
)
from companion.vision.mlp import NOT_INDEX
from companion.vision.recognise import DEFAULT_MODEL, NAMER_FILE, NAMER_GRAPH

from .conftest import crop, random_namer


def _reference_conv(x: np.ndarray, w: np.ndarray, b: np.ndarray) -> np.ndarray:
    """A 3x3 convolution as PyTorch's Conv2d(padding=1) defines it, written out term by term:
    out[n, o, y, x] = b[o] + sum over c, i, j of w[o, c, i, j] * in[n, c, y + i - 1, x + j - 1]."""
    n, c, h, wd = x.shape
    out = np.zeros((n, w.shape[0], h, wd))
    for o in range(w.shape[0]):
        out[:, o] = b[o]
        for ch in range(c):
            for i in range(3):
                for j in range(3):
                    for y in range(h):
                        for xx in range(wd):
                            yy, xs = y + i - 1, xx + j - 1
                            if 0 <= yy < h and 0 <= xs < wd:
                                out[:, o, y, xx] += w[o, ch, i, j] * x[:, ch, yy, xs]
    return out


def test_the_convolution_is_the_one_pytorch_defines() -> None:
    rng = np.random.default_rng(1)
    x = rng.normal(size=(2, 3, 6, 5)).astype(np.float32)
    w = rng.normal(size=(4, 3, 3, 3)).astype(np.float32)
    b = rng.normal(size=4).astype(np.float32)
    got = _conv3(x.transpose(1, 0, 2, 3), w, b).transpose(1, 0, 2, 3)
    assert np.allclose(got, _reference_conv(x, w, b), atol=1e-4)


def test_predictions_are_probabilities_whatever_the_batch(tmp_path: Path) -> None:
    namer = random_namer(2)
    rng = np.random.default_rng(3)
    patches = rng.integers(0, 256, (7, PATCH_H, PATCH_W, 3), np.uint8)
    pr, ps = namer.predict(inputs(patches))
    assert pr.shape == (7, NOT_INDEX + 1) and ps.shape == (7, 4)
    assert np.allclose(pr.sum(axis=1), 1.0, atol=1e-5) and np.allclose(ps.sum(axis=1), 1.0, atol=1e-5)
    small_r, small_s = namer.predict(inputs(patches), batch=2)
    assert np.allclose(small_r, pr, atol=1e-6) and np.allclose(small_s, ps, atol=1e-6)
    empty_r, empty_s = namer.predict(inputs(patches[:0]))
    assert empty_r.shape == (0, NOT_INDEX + 1) and empty_s.shape == (0, 4)
    path = tmp_path / "namer.npz"
    namer.save(path)
    again = Namer.load(path).predict(inputs(patches))
    assert np.array_equal(again[0], pr) and np.array_equal(again[1], ps)


def test_input_planes_are_stretched_grey_and_redness() -> None:
    patch = np.full((1, PATCH_H, PATCH_W, 3), 200, np.uint8)  # grey-white paper, dimly lit
    patch[0, 4:12, 4:12] = (40, 40, 40)  # black ink
    patch[0, 18:28, 6:18] = (40, 40, 190)  # red ink (BGR)
    x = inputs(patch)
    assert x.shape == (1, CHANNELS, PATCH_H, PATCH_W)
    grey, red = x[0]
    assert grey[0, 0] == pytest.approx(0.5)  # paper is the brightest: stretched to the top
    assert grey[8, 8] == pytest.approx(-0.5)  # black ink the darkest: to the bottom
    assert red[20, 10] > 0.5  # red ink is red
    assert abs(red[8, 8]) < 0.01 and abs(red[0, 0]) < 0.01  # black ink and paper are not


def test_the_numpy_namer_matches_pytorch_where_the_train_extra_is_installed() -> None:
    """Only where PyTorch is installed (the build's extra): the trained weights, run here, give what
    PyTorch's own forward pass gives, so the layouts and the flattening order agree."""
    torch = pytest.importorskip("torch")
    from tools.vision_build.training import train_namer as train

    rng = np.random.default_rng(4)
    patches = rng.integers(0, 256, (600, PATCH_H, PATCH_W, 3), np.uint8)
    rank = rng.integers(0, NOT_INDEX + 1, 600)
    suit = rng.integers(0, 4, 600)
    x = inputs(patches)
    namer = train(x, rank, suit, seed=1, epochs=1, batch=64, progress=False)
    t = torch.from_numpy(x[:20])
    for k in range(3):
        conv = torch.nn.functional.conv2d(
            t,
            torch.from_numpy(getattr(namer, f"c{k}w")),
            torch.from_numpy(getattr(namer, f"c{k}b")),
            padding=1,
        )
        t = torch.nn.functional.max_pool2d(torch.relu(conv), 2)
    hidden = torch.relu(t.flatten(1) @ torch.from_numpy(namer.f1w).T + torch.from_numpy(namer.f1b))
    want = torch.softmax(hidden @ torch.from_numpy(namer.rw).T + torch.from_numpy(namer.rb), dim=1).numpy()
    assert np.allclose(namer.predict(x[:20])[0], want, atol=1e-5)


def _card_patches(names: tuple[str, ...]) -> np.ndarray:
    """The namer's patches of every index-like mark found on photos of real cards: indices, pips,
    court detail, as a table gives them."""
    out = []
    for name in names:
        image = crop(name)
        gray = np.asarray(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY), np.uint8)
        out.append(cut(image, idx.candidates(idx.ink(gray))))
    return np.concatenate(out)


def test_the_shipped_graph_gives_the_shipped_weights_probabilities_on_real_cards() -> None:
    numpy_namer = Namer.load(DEFAULT_MODEL / NAMER_FILE)
    graph = CompiledNamer(DEFAULT_MODEL / NAMER_GRAPH)
    x = inputs(_card_patches(("As", "10h", "Qc", "7d", "Kh")))
    assert len(x) > 40
    want = numpy_namer.predict(x)
    for batch in (1, 7, 256):
        got = graph.predict(x, batch=batch)
        for g, w in zip(got, want, strict=True):
            assert g.shape == w.shape and np.abs(g - w).max() < 1e-4
            assert np.array_equal(g.argmax(axis=1), w.argmax(axis=1))
    empty = graph.predict(x[:0])
    assert empty[0].shape == (0, NOT_INDEX + 1) and empty[1].shape == (0, 4)


def test_the_recogniser_runs_the_graph_only_where_it_is_the_weights_network(tmp_path: Path) -> None:
    assert isinstance(load_namer(DEFAULT_MODEL / NAMER_FILE, DEFAULT_MODEL / NAMER_GRAPH), CompiledNamer)
    other = tmp_path / NAMER_FILE
    random_namer(5).save(other)
    assert isinstance(load_namer(other, tmp_path / NAMER_GRAPH), Namer)  # no graph
    shutil.copy(DEFAULT_MODEL / NAMER_GRAPH, tmp_path / NAMER_GRAPH)  # left from other weights
    assert isinstance(load_namer(other, tmp_path / NAMER_GRAPH), Namer)
    (tmp_path / NAMER_GRAPH).write_bytes(b"not a graph")
    assert isinstance(load_namer(other, tmp_path / NAMER_GRAPH), Namer)
