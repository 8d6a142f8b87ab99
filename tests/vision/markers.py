"""The marker cards laid on a table, as a camera at calibration sees them (straight down or at a slant).

Shared by the plane's tests and ``benchmarks/bench_degrade.py``. Kept free of pytest. The markers are
laid as the user guide tells: the ace of spades where player 1 plays (the near side), the ace of hearts
where player 2 plays (the far side, turned to them), the king of diamonds on the deck spot (left of the
middle) and the king of clubs where the crib goes (right of the middle), each a little off square.
"""

from __future__ import annotations

import math
from typing import Final

import cv2
import numpy as np
import numpy.typing as npt

from companion.vision.scene import Placement, compose, wood

from .tables import SIZE, crop

#: The marker cards, in the order laid.
MARKERS: Final = ("As", "Ah", "Kd", "Kc")
#: The real deck's photos: a card's length over its width.
REAL_ASPECT: Final = 352 / 228

Image = npt.NDArray[np.uint8]


def marker_table(
    seed: int, width: float = 105.0, size: tuple[int, int] = SIZE, turned: bool = False
) -> tuple[Image, tuple[Placement, ...]]:
    """A straight-down frame of a wooden table with the four marker cards (and where each lies).
    ``turned``: the deck's king lies crosswise, as a pack set down sideways."""
    rng = np.random.default_rng(seed)
    w, h = size
    top = np.asarray(
        cv2.resize(wood(w // 2, h // 2, seed=seed), size, interpolation=cv2.INTER_LINEAR), np.uint8
    )
    places = (
        Placement(0.5 * w + rng.normal(0, 20), h - 1.0 * width, float(rng.normal(0, 8)), width),
        Placement(0.5 * w + rng.normal(0, 20), 1.0 * width, float(rng.normal(180, 8)), width),
        Placement(0.32 * w, h / 2, float(rng.normal(90 if turned else 0, 10)), width),
        Placement(0.68 * w, h / 2, float(rng.normal(0, 10)), width),
    )
    return compose(top, [crop(n) for n in MARKERS], list(places)), places


def card_corners(p: Placement, aspect: float = REAL_ASPECT) -> npt.NDArray[np.float64]:
    """The four corners of a card laid at ``p`` (a picture ``aspect`` times as long as wide), clockwise
    on the screen from the top left of the card's own picture."""
    a = math.radians(p.angle)
    half_w, half_l = p.width / 2, p.width * aspect / 2
    own = ((-half_w, -half_l), (half_w, -half_l), (half_w, half_l), (-half_w, half_l))
    return np.array(
        [(p.x + x * math.cos(a) + y * math.sin(a), p.y - x * math.sin(a) + y * math.cos(a)) for x, y in own],
        np.float64,
    )


def seen_at(frame: Image, m: npt.NDArray[np.float64]) -> Image:
    """``frame`` through the camera homography ``m`` (the gaps in the table's median colour)."""
    h, w = frame.shape[:2]
    colour = [float(v) for v in np.median(frame.reshape(-1, 3), axis=0)]
    out = cv2.warpPerspective(
        frame, m, (w, h), flags=cv2.INTER_AREA, borderMode=cv2.BORDER_CONSTANT, borderValue=colour
    )
    return np.asarray(out, np.uint8)
