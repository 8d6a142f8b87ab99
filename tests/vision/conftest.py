"""Shared fixtures for the vision tests: the real card photos in ../shared and one loaded recogniser."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

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
