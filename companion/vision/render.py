"""Drawing what was recognised onto a frame, for ``crib detect --draw`` and for checking by eye."""

from __future__ import annotations

from collections.abc import Iterable

import cv2
import numpy as np

from companion.vision.types import BACK, UNKNOWN, Frame, Sighting

__all__ = ["draw_sightings"]

_COLOURS: dict[str, tuple[int, int, int]] = {BACK: (200, 120, 0), UNKNOWN: (0, 165, 255)}
_NAMED = (40, 200, 40)


def draw_sightings(frame: Frame, sightings: Iterable[Sighting]) -> Frame:
    """A copy of ``frame`` with each sighting outlined and labelled, sized to be legible at any resolution."""
    out = frame.copy()
    scale = max(out.shape[:2]) / 1000.0
    thick = max(1, round(2 * scale))
    for s in sightings:
        colour = _COLOURS.get(s.label, _NAMED)
        pts = np.array(s.corners, np.float32).round().astype(np.int32).reshape(-1, 1, 2)
        cv2.polylines(out, [pts], True, colour, thick, cv2.LINE_AA)
        text = f"{s.label} {s.confidence:.2f}"
        x, y = (int(v) for v in pts.reshape(-1, 2).min(axis=0))
        size = 0.6 * scale
        (tw, th), base = cv2.getTextSize(text, cv2.FONT_HERSHEY_SIMPLEX, size, thick)
        y = max(th + base, y - 4)
        cv2.rectangle(out, (x, y - th - base), (x + tw, y + base // 2), colour, -1)
        cv2.putText(
            out, text, (x, y - base // 2), cv2.FONT_HERSHEY_SIMPLEX, size, (255, 255, 255), thick, cv2.LINE_AA
        )
    return out
