"""The index network: training learns a separable problem, and an ensemble averages its members."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from companion.vision.mlp import NOT_INDEX, Ensemble, Network, train


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


def test_an_ensemble_is_the_mean_of_its_members_and_survives_saving(tmp_path: Path) -> None:
    x, rank, suit = _samples(2)
    members = tuple(
        train(x, rank, suit, seed=seed, epochs=1, hidden=(16, 8), progress=False) for seed in (1, 2, 3)
    )
    ensemble = Ensemble(members)
    path = tmp_path / "net.npz"
    ensemble.save(path)
    loaded = Ensemble.load(path)
    assert len(loaded.members) == 3
    pr, ps = loaded.predict(x[:50])
    singles = [m.predict(x[:50]) for m in members]
    assert np.allclose(pr, np.mean([s[0] for s in singles], axis=0), atol=1e-6)
    assert np.allclose(ps, np.mean([s[1] for s in singles], axis=0), atol=1e-6)
    assert np.allclose(pr.sum(axis=1), 1.0, atol=1e-5)
    # The members differ (different seeds), so the mean is not any one of them.
    assert not np.allclose(pr, singles[0][0], atol=1e-3)


def test_a_file_of_one_network_loads_as_an_ensemble_of_one(tmp_path: Path) -> None:
    x, rank, suit = _samples(3)
    net = train(x, rank, suit, seed=5, epochs=1, hidden=(16, 8), progress=False)
    path = tmp_path / "one.npz"
    net.save(path)
    loaded = Ensemble.load(path)
    assert len(loaded.members) == 1
    assert isinstance(loaded.members[0], Network)
    assert np.array_equal(loaded.predict(x[:20])[0], net.predict(x[:20])[0])
