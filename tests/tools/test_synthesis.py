"""The camera troubles the benchmarks and the build put pictures through do what they are named for."""

from __future__ import annotations

import math

import cv2
import numpy as np
import pytest

from tools.synthesis import hard_shadow, motion_blur, tilt_view, warp


def _moved(m: np.ndarray, x: float, y: float) -> tuple[float, float]:
    px, py = cv2.perspectiveTransform(np.array([[[x, y]]], np.float64), m)[0, 0]
    return float(px), float(py)


def test_a_camera_straight_down_sees_the_table_as_it_is() -> None:
    assert np.allclose(tilt_view(1280, 720, 0.0, turn=70.0), np.eye(3))


@pytest.mark.parametrize("degrees", [15.0, 30.0, 45.0])
def test_a_tilted_camera_keeps_the_middle_foreshortens_and_shrinks_the_far_side(degrees: float) -> None:
    w, h = 1280, 720
    m = tilt_view(w, h, degrees)  # leaning towards the bottom edge: the top is the far side
    assert _moved(m, w / 2, h / 2) == pytest.approx((w / 2, h / 2))
    top = math.dist(_moved(m, w / 2 - 100, h / 2 - 200), _moved(m, w / 2 + 100, h / 2 - 200))
    bottom = math.dist(_moved(m, w / 2 - 100, h / 2 + 200), _moved(m, w / 2 + 100, h / 2 + 200))
    assert top != pytest.approx(bottom)
    # Across the lean, near the middle, lengths shrink by about the cosine of the tilt.
    down = math.dist(_moved(m, w / 2, h / 2 - 1), _moved(m, w / 2, h / 2 + 1)) / 2
    assert down == pytest.approx(math.cos(math.radians(degrees)), rel=1e-3)
    # Tilted further, the far side is smaller still.
    more = tilt_view(w, h, degrees + 5)
    top_more = math.dist(_moved(more, w / 2 - 100, h / 2 - 200), _moved(more, w / 2 + 100, h / 2 - 200))
    assert min(top, bottom) > min(
        top_more, math.dist(_moved(more, w / 2 - 100, h / 2 + 200), _moved(more, w / 2 + 100, h / 2 + 200))
    )


def test_a_warp_fills_its_gaps_with_the_colour_asked_for() -> None:
    frame = np.full((100, 100, 3), 200, np.uint8)
    out = warp(frame, tilt_view(100, 100, 45.0), fill=(10.0, 20.0, 30.0))
    assert (out == (10, 20, 30)).all(axis=2).any()
    assert (out == 200).all(axis=2).any()


def test_a_hard_shadow_darkens_one_side_of_its_edge_by_its_depth_and_leaves_the_other() -> None:
    frame = np.full((60, 80, 3), 200, np.uint8)
    out = hard_shadow(frame, (40.0, 30.0), 90.0, depth=0.5)  # an upright edge through the middle
    left, right = out[:, :38], out[:, 42:]
    assert len(np.unique(left)) == 1 and len(np.unique(right)) == 1  # each side evenly lit
    assert sorted([int(left[0, 0, 0]), int(right[0, 0, 0])]) == [100, 200]
    # Hard: the step is within two pixels.
    row = out[30, :, 0].astype(int)
    assert np.count_nonzero((row > 100) & (row < 200)) <= 2


@pytest.mark.parametrize(("length", "turn"), [(8.0, 0.0), (12.0, 90.0), (10.0, 45.0)])
def test_motion_blur_smears_a_dot_along_a_line_of_its_length(length: float, turn: float) -> None:
    frame = np.zeros((61, 61, 3), np.uint8)
    frame[30, 30] = 255
    out = motion_blur(frame, length, turn)[..., 0].astype(float)
    assert out.sum() == pytest.approx(255, rel=0.05)  # the light is spread, not lost
    ys, xs = np.nonzero(out > 0)
    extent = math.hypot(xs.max() - xs.min(), ys.max() - ys.min())
    assert length - 2 <= extent <= length + 3
    a = math.radians(turn)
    # Along the turn (y grows downwards, a turn anticlockwise): every smeared pixel near that line.
    across = np.abs((xs - 30) * math.sin(a) + (ys - 30) * math.cos(a))
    assert across.max() <= 1.5
