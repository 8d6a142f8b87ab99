"""Recall of labelled index corners on the real bridge deals (fanned, heavily overlapping hands).

The networks are trained on rendered decks and the real crops; these deal photos are never used to fit
them. The suit-shape thresholds (:func:`companion.vision.index.suit_notches`) were read off the real
crops and deals 1-3 only, so deal 4 stays wholly held out. Run with ``-s`` to see the figures.

Measured (recall, misreads): deal 1 48/50 = 0.960, 0; deal 2 52/54 = 0.963, 0; deal 3 48/52 = 0.923, 0;
deal 4 49/56 = 0.875, 2 -- with the finder and the convolutional namer built with flat-topped threes
and the namer taught nine passes, every frame read at half scale as well (197 of 212 in all; 198 with
the namer taught six passes, 199 before the flat threes, 193 before that second reading). The namer at
the finder's 32x24 before: 48/50, 49/54, 47/52, 51/56 (195) with none misread; the perceptron alone:
48/50, 51/54, 44/52, 47/56 (190) with 1. Each deal keeps a floor a little under its own figure, so a
real loss fails.
"""

from __future__ import annotations

import json
import math

import cv2
import pytest

from companion.vision.recognise import Recogniser
from companion.vision.types import UNKNOWN

from .conftest import DEALS

#: Recall each deal must keep (a little under what was measured; see the module docstring).
FLOOR = {1: 0.94, 2: 0.94, 3: 0.9, 4: 0.86}
#: Named indices that sit on a labelled index of another card: misreads. At most this share.
MISREAD_CEILING = 0.05


def score(recogniser: Recogniser, deal: int) -> tuple[int, int, int, int]:
    """(labelled indices, found and named right, named, misread) for one deal."""
    image = cv2.imread(str(DEALS / f"deal{deal}-md-sq.jpg"))
    assert image is not None
    h, w = image.shape[:2]
    labels = json.loads((DEALS / f"deal{deal}-md-sq-net1280-labels.json").read_text())
    boxes = []
    for item in labels:
        rc = item["relative_coordinates"]
        size = max(rc["width"] * w, rc["height"] * h)
        boxes.append((item["name"], rc["center_x"] * w, rc["center_y"] * h, size))
    readings = [s for s in recogniser.indices(image) if s.label != UNKNOWN]
    found = 0
    used: set[int] = set()
    for name, x, y, size in boxes:
        for i, s in enumerate(readings):
            if i not in used and s.label == name and math.dist(s.center, (x, y)) < 0.9 * size:
                found += 1
                used.add(i)
                break
    misread = 0
    for i, s in enumerate(readings):
        if i in used:
            continue
        near = [name for name, x, y, size in boxes if math.dist(s.center, (x, y)) < 0.9 * size]
        if near and s.label not in near:
            misread += 1
    return len(boxes), found, len(readings), misread


@pytest.mark.parametrize("deal", [1, 2, 3, 4])
def test_deal_index_recall(recogniser: Recogniser, deal: int) -> None:
    total, found, named, misread = score(recogniser, deal)
    print(f"\ndeal{deal}: recall {found}/{total} = {found / total:.3f}, named {named}, misread {misread}")
    assert found / total >= FLOOR[deal]
    assert misread <= max(1, MISREAD_CEILING * named)
