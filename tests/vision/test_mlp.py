"""The index network: training learns a separable problem, and what is saved loads back the same (less
weights too small to matter that would make it slow)."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import numpy as np

from companion.vision.cnn import Namer
from companion.vision.mlp import NOT_INDEX, Network, train
from companion.vision.recognise import DEFAULT_MODEL, FINDER_FILE, NAMER_FILE


def _samples(seed: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Points around one centre per (rank, suit) class, and "not an index" around the origin."""
    rng = np.random.default_rng(seed)
    centres = rng.normal(0, 4, (NOT_INDEX + 1, 4, 12)).astype(np.float32)
    rank = rng.integers(0, NOT_INDEX + 1, 3000)
    suit = rng.integers(0, 4, 3000)
    x = centres[rank, suit] + rng.normal(0, 0.3, (3000, 12)).astype(np.float32)
    return x.astype(np.float32), rank, suit


def test_a_trained_network_names_held_out_samples() -> None:
    x, rank, suit = _samples(1)
    net = train(x[:2500], rank[:2500], suit[:2500], seed=3, epochs=40, hidden=(64, 32), progress=False)
    pr, ps = net.predict(x[2500:])
    assert (pr.argmax(axis=1) == rank[2500:]).mean() > 0.95
    real = rank[2500:] != NOT_INDEX
    assert (ps.argmax(axis=1)[real] == suit[2500:][real]).mean() > 0.95


def test_a_saved_network_loads_back_the_same(tmp_path: Path) -> None:
    x, rank, suit = _samples(3)
    net = train(x, rank, suit, seed=5, epochs=1, hidden=(16, 8), progress=False)
    path = tmp_path / "net.npz"
    net.save(path)
    loaded = Network.load(path)
    assert np.array_equal(loaded.predict(x[:20])[0], net.predict(x[:20])[0])
    assert np.array_equal(loaded.predict(x[:20])[1], net.predict(x[:20])[1])


def test_weights_too_small_for_float32s_normal_range_load_as_zero(tmp_path: Path) -> None:
    """Products with subnormal weights take a slow path on CPUs without flush-to-zero (the shipped
    finder's first layer cost 30 ms a frame with them); zero changes no output."""
    tiny = np.finfo(np.float32).smallest_normal
    x, rank, suit = _samples(3)
    net = train(x, rank, suit, seed=5, epochs=1, hidden=(16, 8), progress=False)
    w1 = net.w1.copy()
    w1[0, :4] = [tiny / 4, -tiny / 1000, tiny, -2 * tiny]
    path = tmp_path / "net.npz"
    dataclasses.replace(net, w1=w1).save(path)
    loaded = Network.load(path)
    assert loaded.w1[0, :4].tolist() == [0.0, 0.0, tiny, -2 * tiny]
    assert np.array_equal(loaded.w1[1:], w1[1:])


def test_the_shipped_networks_load_without_subnormal_weights() -> None:
    tiny = np.finfo(np.float32).smallest_normal
    for net in (Network.load(DEFAULT_MODEL / FINDER_FILE), Namer.load(DEFAULT_MODEL / NAMER_FILE)):
        for field in dataclasses.fields(net):
            a = getattr(net, field.name)
            assert not ((a != 0) & (np.abs(a) < tiny)).any(), field.name
