"""Face-down cards (backs) and faces whose index is hidden: card-shaped outlines with no index on them.

Why apart from :mod:`companion.vision.recognise`: this works on outlines and the card's white, not on
index readings, which it only consults to know where faces are.
"""

from __future__ import annotations

from collections.abc import Sequence

import cv2
import numpy as np
import numpy.typing as npt

from companion.vision import pips
from companion.vision.reading import Reading
from companion.vision.settings import SHIPPED, BackSettings
from companion.vision.types import Frame

__all__ = ["backs"]

_Quad = list[tuple[float, float]]


def backs(
    image: Frame, readings: Sequence[Reading], scale: float, settings: BackSettings = SHIPPED.backs
) -> tuple[list[tuple[_Quad, float]], list[_Quad]]:
    """Card-shaped outlines with no index inside: face-down cards (with a confidence), and face-up ones
    whose white face shows (see :func:`_backs_at`), in the pixels of ``image``.

    Outlines are found on the image halved until it is at most 1000 pixels across (a card is still
    tens of pixels long there, and halving is ten times cheaper than any other shrinking, which
    matters on every frame).
    """
    factor = 1.0
    while max(image.shape[:2]) > 1000:
        image = np.asarray(cv2.resize(image, None, fx=0.5, fy=0.5, interpolation=cv2.INTER_AREA), np.uint8)
        factor *= 0.5
    backs, faces = _backs_at(image, readings, factor * scale, settings)
    return (
        [([(x / factor, y / factor) for x, y in quad], conf) for quad, conf in backs],
        [[(x / factor, y / factor) for x, y in quad] for quad in faces],
    )


def _median(gray: npt.NDArray[np.uint8]) -> float:
    """The median grey level, as ``np.median`` gives it, from a histogram (a fifth of the time).

    OpenCV's histogram, not NumPy's bincount: the same counts, without a copy of every pixel as a
    64-bit index first."""
    counts = np.cumsum(cv2.calcHist([gray], [0], None, [256], [0, 256]).ravel().astype(np.int64))
    n = int(counts[-1])
    # The values at sorted positions (n - 1) // 2 and n // 2, averaged.
    lower = int(np.searchsorted(counts, (n - 1) // 2 + 1))
    upper = int(np.searchsorted(counts, n // 2 + 1))
    return (lower + upper) / 2


def _backs_at(
    image: Frame, readings: Sequence[Reading], factor: float, settings: BackSettings
) -> tuple[list[tuple[_Quad, float]], list[_Quad]]:
    gray = np.asarray(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY), np.uint8)
    blurred = np.asarray(cv2.GaussianBlur(gray, (5, 5), 0), np.uint8)
    med = _median(blurred)
    edges = cv2.Canny(blurred, max(10.0, 0.4 * med), max(30.0, 0.9 * med))
    edges = cv2.dilate(edges, np.ones((3, 3), np.uint8))
    contours, _ = cv2.findContours(edges, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    h, w = gray.shape
    lengths = [r.cand.length * factor for r in readings if r.not_index < 0.5]
    min_area = (0.0004 * h * w) if not lengths else (4.0 * float(np.median(lengths))) ** 2 * 1.4
    out: list[tuple[_Quad, float]] = []
    faces: list[_Quad] = []
    # The middles of the indices read, sure or not, in this image's pixels.
    points_at = [
        (float(r.centre[0] * factor), float(r.centre[1] * factor)) for r in readings if r.not_index < 0.5
    ]
    indices = np.array(points_at, np.float64).reshape(-1, 2)
    for cnt in contours:
        area = cv2.contourArea(cnt)
        if area < min_area or area > 0.5 * h * w:
            continue
        points = np.asarray(cnt, np.int32)
        # Where an index makes it a face: anywhere in the outline's rectangle, which is the card's when
        # the outline is card-shaped, and when it is not, the outline a card may be cut from. Why the
        # latter: an outline of no card shape can be a face's picture frame run into what is left of its
        # edge on a light table, and the card cut from it is then the picture alone, its indices outside.
        # Looked at first, as it is cheaper than cutting a card from an outline.
        reach = np.asarray(cv2.boxPoints(cv2.minAreaRect(points)), np.float32)
        # Only the indices within the rectangle's upright bounds can lie in it, or on its edge (a
        # thousandth of a pixel round them, far beyond the rounding of the test's cross products).
        low, high = reach.min(axis=0) - 1e-3, reach.max(axis=0) + 1e-3
        near = np.flatnonzero(((indices >= low) & (indices <= high)).all(axis=1)).tolist()
        if any(cv2.pointPolygonTest(reach, points_at[k], False) >= 0 for k in near):
            continue  # an index on it, read or not: a face
        found = _card_shape(points, area) or _card_shape_under(points, min_area)
        if found is None:
            continue
        rect, fill = found
        _, (rw, rh), _ = rect
        box = np.asarray(cv2.boxPoints(rect), np.float32)
        paper, open_paper = _paper(image, box, min(rw, rh), settings.open_reach)
        quad = [(float(x), float(y)) for x, y in box]
        if paper > 0.4 and open_paper > settings.open_paper:
            # Mostly open card white: a face whose index is hidden or unreadable. Its outline starts
            # with a short side, as a named card's outline starts across the card (see Sighting).
            if rw > rh:
                quad = quad[1:] + quad[:1]
            faces.append(quad)
            continue
        out.append((quad, round(min(0.99, 0.6 + 0.4 * fill), 3)))
    return out, faces


Rect = tuple[tuple[float, float], tuple[float, float], float]


def _card_shape(cnt: npt.NDArray[np.int32], area: float) -> tuple[Rect, float] | None:
    """The rectangle of an outline shaped like a card (and how fully the outline fills it), or None."""
    (cx, cy), (rw, rh), angle = cv2.minAreaRect(cnt)
    if min(rw, rh) < 8:
        return None
    aspect = max(rw, rh) / min(rw, rh)
    fill = area / (rw * rh)
    if not (1.25 < aspect < 1.75 and fill > 0.85):
        return None
    return ((float(cx), float(cy)), (float(rw), float(rh)), float(angle)), fill


def _card_shape_under(cnt: npt.NDArray[np.int32], min_area: float) -> tuple[Rect, float] | None:
    """The card in an outline that is a card with something small run into its edge, or None.

    Why: a chip (or a coin, a cork) put down against the pack joins its outline to the card's, and the
    two together are no card shape. Opening the outline's area with a disc a quarter of its width wide
    takes off anything narrower than half of that width and leaves the card, its corners rounded.
    """
    x, y, bw, bh = cv2.boundingRect(cnt)
    _, size, _ = cv2.minAreaRect(cnt)
    reach = max(2, round(0.25 * min(size)))
    area = np.zeros((bh + 2, bw + 2), np.uint8)
    cv2.drawContours(area, [cnt - np.array([x - 1, y - 1], np.int32)], -1, 1, -1)
    disc = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * reach + 1, 2 * reach + 1))
    opened = np.asarray(cv2.morphologyEx(area, cv2.MORPH_OPEN, disc), np.uint8)
    parts, _ = cv2.findContours(opened, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    if not parts:
        return None
    part = np.asarray(max(parts, key=cv2.contourArea), np.int32)
    left = cv2.contourArea(part)
    if left < min_area:
        return None
    found = _card_shape(part, left)
    if found is None:
        return None
    (cx, cy), wh, angle = found[0]
    return ((cx + x - 1, cy + y - 1), wh, angle), found[1]


def _paper(
    image: Frame, box: npt.NDArray[np.float32], short: float, open_reach: float
) -> tuple[float, float]:
    """The share of a card outline's middle (``box`` shrunk to 0.7) that is card white, and the share
    that is card white at least ``open_reach`` of the card's width (``short``) from anything else;
    white as seen once the light's tint is taken out (see :func:`pips.balanced`)."""
    x0, y0 = np.floor(box.min(axis=0)).astype(int)
    x1, y1 = np.ceil(box.max(axis=0)).astype(int) + 1
    x0, y0 = max(x0, 0), max(y0, 0)
    centre = box.mean(axis=0)
    crop = image[y0:y1, x0:x1]
    mask = np.zeros(crop.shape[:2], np.uint8)
    inner = ((box - centre) * 0.7 + centre - (x0, y0)).astype(np.int32)
    cv2.fillConvexPoly(mask, inner, 1)
    sel = mask.astype(bool)
    if not sel.any():
        return 0.0, 0.0
    part = np.asarray(cv2.cvtColor(pips.balanced(crop), cv2.COLOR_BGR2HSV), np.uint8)
    v = part[..., 2].astype(np.float32)
    white = (v > 0.8 * float(np.percentile(v[sel], 95))) & (part[..., 1] < 50)
    reach = max(1, round(open_reach * short))
    disc = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * reach + 1, 2 * reach + 1))
    open_white = cv2.erode(white.astype(np.uint8), disc, borderValue=1).astype(bool)
    return float(white[sel].mean()), float(open_white[sel].mean())
