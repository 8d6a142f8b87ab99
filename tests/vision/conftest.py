"""Shared fixtures for the vision tests: the real card photos in ../shared, one loaded recogniser, and
namers of random weights."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.vision.cnn import CHANNELS, HIDDEN, LAYERS, PATCH_H, PATCH_W, Namer
from companion.vision.mlp import NOT_INDEX
from companion.vision.recognise import Recogniser

CARDS = Path(__file__).parents[2].parent / "shared" / "datasets" / "cards"
CROPS = CARDS / "real-crops"
DEALS = CARDS / "real-deals"


@pytest.fixture(scope="session")
def recogniser() -> Recogniser:
    return Recogniser()


def crop(name: str) -> np.ndarray:
    img = cv2.imread(str(CROPS / f"{name}.jpg"))
    assert img is not None, f"missing real crop {name}"
    return img


def random_namer(seed: int) -> Namer:
    """A namer of the shipped shape with random weights (scaled so its activations stay moderate)."""
    rng = np.random.default_rng(seed)
    c = (CHANNELS, *LAYERS)
    cells = (PATCH_H // 8) * (PATCH_W // 8)

    def w(*shape: int) -> np.ndarray:
        return (rng.normal(size=shape) * 0.3).astype(np.float32)

    return Namer(
        c0w=w(c[1], c[0], 3, 3),
        c0b=w(c[1]),
        c1w=w(c[2], c[1], 3, 3),
        c1b=w(c[2]),
        c2w=w(c[3], c[2], 3, 3),
        c2b=w(c[3]),
        f1w=w(HIDDEN, c[3] * cells),
        f1b=w(HIDDEN),
        rw=w(NOT_INDEX + 1, HIDDEN),
        rb=w(NOT_INDEX + 1),
        sw=w(4, HIDDEN),
        sb=w(4),
    )
