"""Counting the pips on a face-up card: a check on the index's rank that no deck design can fool.

Why: the networks read the small index in the corner, and a deck never seen in training can print a
glyph they read wrong with full confidence (a flat-topped 3 read as a 5: no average of networks and no
second opinion of the finder catches it, since both are sure). The middle of a number card says its
rank a second way, in any design: a three shows three pips, a five five.

Where both of a card's indices are read (a card lying alone, or on top of another), they say where the
card lies and how large it is. The card's white is found about its middle, and the marks on it are
counted; a count that is plain (every mark of one size, laid out as pips are laid, nothing else
printed on the card but its indices) is offered. A court card's picture, a card partly covered or run
together with another, glare, or a card too small to part its pips gives no count, and the index's
reading stands as it was.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

import cv2
import numpy as np
import numpy.typing as npt

from companion.vision.types import Frame

__all__ = ["DIAGONAL", "Corner", "count_pips", "shows_picture"]

Point = tuple[float, float]
Corner = tuple[Point, Point]
"""One index corner read: the middles of its rank and of its suit mark, in image pixels."""
Vector = npt.NDArray[np.float64]

#: The card is looked at with its two index corners this many pixels apart. Why: pips of a ten are
#: about a tenth of that across, ten pixels, still apart and clear of the 3x3 opening that takes thin
#: lines away; a count then costs about 0.9 ms (at 160 apart it cost twice that, and counted no more).
DIAGONAL: Final = 100
#: Marks whose area is within this factor of the pips' median area are pips. A pip's area varies with
#: its suit's shape only a little within one card; two pips run together (too small a card, blur) make
#: a mark of twice the area, which is then "something else" and spoils the count.
PIP_SPREAD: Final = 1.6
#: A mark smaller than this share of the pips' median area is dust or print noise and is passed over;
#: one larger, and outside the pips' spread, is something else printed in the middle: no plain count.
SPECK: Final = 0.2
#: The smallest pip counted, as a share of the distance between the index corners (a real ten's pips
#: are about 0.1 of it).
MIN_PIP: Final = 0.03
#: The largest pip of a number card, across, as a share of the distance between the index corners
#: (the real deck's two of clubs: 0.16). A mark larger is no pip: a court card's picture (whose two
#: halves, turned half round from each other, would otherwise pass for a pair of pips), an ace's great
#: pip, a chip lying on the card.
MAX_PIP: Final = 0.25
#: Marks this hollow (area over their box's area) or this long and thin, and longer than LINE, are
#: lines (a frame round the pips, a card's edge, a shadow), not pips. Every suit's pip fills half its box.
HOLLOW: Final = 0.3
LINE: Final = 0.12
#: Marks centred within this many rank-to-suit distances of an index glyph's middle are that glyph
#: (a "10" is two marks, each about a third of that distance from the rank's middle).
GLYPH_REACH: Final = 0.6
#: Where a card prints its index corners, as shares of its width and height from each corner. Marks in
#: the two corners read are their indices (a "10" is three marks); a mark in either other corner is an
#: index not read (a deck printing its index in all four corners) and spoils the count. Pips stand
#: farther in: the real deck's ten 0.27 across, the demo deck's 0.3.
CORNER: Final = (0.2, 0.22)
#: The window looked in, as a share of the distance between the index corners: a whole card fits.
WINDOW: Final = 1.5
#: A card shows a picture when one mark in its middle covers more than this share of it. Measured on
#: the real deck and the demo deck alone on the table, 110-220 pixels wide: a number card's largest
#: mark covers at most 0.054 (the demo deck's nines, pips run together), a court's picture 0.078-0.36
#: but for the demo deck's king of hearts (0.044: its picture breaks into small pieces, and is missed),
#: an ace's pip 0.002-0.08.
PICTURE: Final = 0.065
#: How far a pip turned half round about the card's middle may land from the pip opposite it, and an
#: odd pip (a seven's) from the card's middle line, as a share of the distance between the
#: index corners.
SYMMETRY: Final = 0.05


def count_pips(image: Frame, first: Corner, second: Corner) -> int | None:
    """The number of pips on the card whose two opposite index corners are ``first`` and ``second``,
    or None when the card's middle shows no plain count.

    ``first`` and ``second`` must be the two corners of one card, each printed turned half round from
    the other: the card's middle is the midpoint of their middles.
    """
    window = _window(image, first, second)
    if window is None:
        return None
    card, glyphs, reach = window
    found = _marks(card, glyphs, reach)
    if found is None:
        return None
    marks, (centre, along) = found
    return _plain(marks, centre, along)


def shows_picture(image: Frame, first: Corner, second: Corner) -> bool:
    """Whether the card whose opposite index corners are ``first`` and ``second`` shows a picture in
    its middle, as a court card does: one mark there covering more than PICTURE of it (its four
    corners, where indices are printed, left out). False where no card of a card's shape lies whole.

    Why: two corners of one card read as a court and as a number (a jumbo "J" read as a 7, a serif "K"
    as a 10) are told apart by the card's middle, and where the pips cannot be counted (a court's
    picture gives no count) the picture itself says which.
    """
    window = _window(image, first, second)
    if window is None:
        return False
    card, glyphs, _ = window
    seen = _card_white(card)
    if seen is None:
        return False
    hsv, paper, (face, centre, across, along) = seen
    size = card.shape[0]
    # The card found must be the one both corners were read on: each index on it, in a corner of it,
    # the two in opposite corners (a card in a row lies between one card's bottom corner and the
    # next's top).
    ends = []
    for (gx, gy), (sx, sy) in (glyphs[:2], glyphs[2:]):
        point = np.array([(gx + sx) / 2, (gy + sy) / 2])
        if max(abs(float((point - centre) @ axis)) for axis in (across, along)) > 0.5:
            return False
        ends.append(_corner((float(point[0]), float(point[1])), centre, across, along))
    first_end, second_end = ends
    if (
        first_end is None
        or second_end is None
        or any(p == q for p, q in zip(first_end, second_end, strict=True))
    ):
        return False
    yy, xx = np.mgrid[0:size, 0:size].astype(np.float64)
    u = (xx - centre[0]) * across[0] + (yy - centre[1]) * across[1]
    v = (xx - centre[0]) * along[0] + (yy - centre[1]) * along[1]
    middle = face & ~((np.abs(u) > 0.5 - CORNER[0]) & (np.abs(v) > 0.5 - CORNER[1]))
    ink = (_ink(hsv, paper) & middle).astype(np.uint8)
    n, _, stats, _ = cv2.connectedComponentsWithStats(ink, connectivity=8)
    largest = max((int(stats[k, cv2.CC_STAT_AREA]) for k in range(1, n)), default=0)
    return largest > PICTURE * int(middle.sum())


def _window(image: Frame, first: Corner, second: Corner) -> tuple[Frame, list[Point], float] | None:
    """A square window on the card's middle, scaled so its two index corners are DIAGONAL apart and
    wide enough to hold the whole card however it is turned (a card's diagonal is about 1.2-1.4 of
    its index corners' distance); the index glyphs' middles in it; how far about each a mark is part of
    the glyph. None unless the corners are placed as two corners of one card."""
    (r1, s1), (r2, s2) = (np.array(first, np.float64), np.array(second, np.float64))
    c1, c2 = (r1 + s1) / 2, (r2 + s2) / 2
    diagonal = float(np.hypot(*(c2 - c1)))
    length = (float(np.hypot(*(s1 - r1))) + float(np.hypot(*(s2 - r2)))) / 2
    if diagonal < 4 * length:
        return None
    scale = DIAGONAL / diagonal
    half = round(WINDOW * DIAGONAL / 2)
    middle = (c1 + c2) / 2
    warp = np.array([[scale, 0, half - scale * middle[0]], [0, scale, half - scale * middle[1]]], np.float32)
    card = np.asarray(cv2.warpAffine(image, warp, (2 * half, 2 * half), flags=cv2.INTER_LINEAR), np.uint8)
    glyphs = [(float(x), float(y)) for x, y in (scale * (p - middle) + half for p in (r1, s1, r2, s2))]
    return card, glyphs, GLYPH_REACH * length * scale


def _card_white(
    card: Frame,
) -> tuple[npt.NDArray[np.uint8], float, tuple[npt.NDArray[np.bool_], Vector, Vector, Vector]] | None:
    """The window ``card`` in HSV, how bright its card white is, and the card found in it (see
    :func:`_face`); None where there is no card white to see marks against (a dark face) or no card of
    a card's shape."""
    size = card.shape[0]
    hsv = np.asarray(cv2.cvtColor(card, cv2.COLOR_BGR2HSV), np.uint8)
    quarter = size // 4
    paper = float(np.percentile(hsv[quarter : size - quarter, quarter : size - quarter, 2], 90))
    if paper < 60:
        return None
    found = _face(hsv, paper)
    if found is None:
        return None
    return hsv, paper, found


def _ink(hsv: npt.NDArray[np.uint8], paper: float) -> npt.NDArray[np.bool_]:
    """What is printed on card white ``paper`` bright: dark, or coloured (red pips), thin lines taken
    away (a frame round the pips, as the demo deck prints, would otherwise join the pips it touches)."""
    value = hsv[..., 2].astype(np.float32)
    ink = ((value < 0.6 * paper) | ((hsv[..., 1] > 90) & (value < 0.97 * paper + 8))).astype(np.uint8)
    return np.asarray(cv2.morphologyEx(ink, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8)), np.uint8) > 0


def _marks(
    card: Frame, glyphs: Sequence[Point], reach: float
) -> tuple[list[tuple[float, float, float]], tuple[Point, Vector]] | None:
    """The marks on the card (area, x, y), its index glyphs left out, and the card's middle and long
    axis; None where the window shows no plain card: a dark face, card white of no card's shape (two
    cards run together), a mark too large for a pip, a mark where an index is printed.

    Every mark on the card's face counts, wherever it lies: a pip passed over for where it lies (near
    an edge, far out along the card as some decks print the ends of a nine) would leave a count short
    by a pip and its opposite, which turned half round still looks like pips.
    """
    size = card.shape[0]
    seen = _card_white(card)
    if seen is None:
        return None
    hsv, paper, (face, centre, across, along) = seen
    read = {_corner(glyph, centre, across, along) for glyph in glyphs} - {None}
    ink = _ink(hsv, paper).astype(np.uint8)
    n, _, stats, centres = cv2.connectedComponentsWithStats(ink, connectivity=8)
    marks: list[tuple[float, float, float]] = []
    for k in range(1, n):
        x, y, w, h, area = (int(v) for v in stats[k])
        cx, cy = (float(v) for v in centres[k])
        if not face[min(round(cy), size - 1), min(round(cx), size - 1)]:
            continue  # off the card: the table, a card beneath
        if any(np.hypot(cx - gx, cy - gy) < reach for gx, gy in glyphs):
            continue  # an index glyph
        if area < (0.25 * MIN_PIP * DIAGONAL) ** 2:
            continue  # print noise
        if max(w, h) > LINE * DIAGONAL and (area < HOLLOW * w * h or max(w, h) > 4 * min(w, h)):
            continue  # a line
        if x == 0 or y == 0 or x + w == size or y + h == size:
            return None  # a mark on the card running out of the window: more than one card
        if max(w, h) > MAX_PIP * DIAGONAL:
            return None  # no pip: a court's picture, an ace's pip, a chip
        corner = _corner((cx, cy), centre, across, along)
        if corner in read:
            continue  # part of an index read
        if corner is not None:
            return None  # an index not read: a deck printing four
        marks.append((float(area), cx, cy))
    return marks, ((float(centre[0]), float(centre[1])), along / float(np.hypot(*along)))


def _corner(point: Point, centre: Vector, across: Vector, along: Vector) -> tuple[bool, bool] | None:
    """Which of the card's corners ``point`` lies in (see CORNER), or None for none of them."""
    u, v = (float((np.array(point) - centre) @ axis) for axis in (across, along))
    if abs(u) > 0.5 - CORNER[0] and abs(v) > 0.5 - CORNER[1]:
        return u > 0, v > 0
    return None


def _face(
    hsv: npt.NDArray[np.uint8], paper: float
) -> tuple[npt.NDArray[np.bool_], Vector, Vector, Vector] | None:
    """Where the card lies in the window (the card white joined to its middle, with all it encloses),
    its middle, and its axes across and along, each scaled so the card spans -0.5..0.5 on it; None
    unless that is a card's shape.

    Why: the window reaches past a card's long edges, and a wooden table there is saturated enough to
    pass for red ink. The table is not card white, and a card's pips and glyphs are enclosed by its
    white. A shape that is no card's is two cards whose white runs together, or a card cut by another.
    """
    size = hsv.shape[0]
    white = ((hsv[..., 1] < 60) & (hsv[..., 2] > 0.75 * paper)).astype(np.uint8)
    n, labels, _, _ = cv2.connectedComponentsWithStats(white, connectivity=8)
    centre = labels[size // 4 : size - size // 4, size // 4 : size - size // 4]
    counts = np.bincount(centre.ravel(), minlength=n)
    counts[0] = 0
    if n < 2 or counts.max() == 0:
        return None
    joined = (labels == int(np.argmax(counts))).astype(np.uint8)
    outline, _ = cv2.findContours(joined, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    shape = max(outline, key=cv2.contourArea)
    (mx, my), (rw, rh), angle = cv2.minAreaRect(shape)
    if min(rw, rh) < 1 or not 1.25 < max(rw, rh) / min(rw, rh) < 1.75:
        return None
    if cv2.contourArea(shape) < 0.85 * rw * rh:
        return None
    a = np.radians(angle)
    first, second = np.array([np.cos(a), np.sin(a)]), np.array([-np.sin(a), np.cos(a)])
    across, along = (second / rh, first / rw) if rw > rh else (first / rw, second / rh)
    face = np.zeros((size, size), np.uint8)
    cv2.drawContours(face, [shape], -1, 1, -1)
    middle = np.array([mx, my])
    return face.astype(bool), middle, across, along


def _plain(
    marks: Sequence[tuple[float, float, float]], middle: Point, along: npt.NDArray[np.float64]
) -> int | None:
    """The pip count the marks make, or None unless they are plainly pips: two to ten marks of a pip's
    size, all of one size, laid out as pips are laid. (An ace is not counted: its one pip, often
    large and ornate, is too like anything else that lies alone in a card's middle.)"""
    largest = max((a for a, _, _ in marks), default=0.0)
    if largest < (MIN_PIP * DIAGONAL) ** 2:
        return None
    big = [a for a, _, _ in marks if a >= largest / PIP_SPREAD**2]
    median = float(np.median(big))
    pips = [(x, y) for a, x, y in marks if median / PIP_SPREAD <= a <= median * PIP_SPREAD]
    others = [
        a for a, _, _ in marks if not median / PIP_SPREAD <= a <= median * PIP_SPREAD and a > SPECK * median
    ]
    if others or not 2 <= len(pips) <= 10 or not _laid_out(pips, middle, along):
        return None
    return len(pips)


def _laid_out(pips: Sequence[Point], middle: Point, along: npt.NDArray[np.float64]) -> bool:
    """Whether ``pips`` stand as a card's pips do: turned half round about the card's ``middle``, every
    pip lands on a pip, but for at most one on the card's middle line (``along`` it: a seven's odd pip).

    Why: a mark of a pip's size that is no pip (a chip's rim, a speck of glare's shadow) has no pip
    opposite it, and counted it would make a four a five.
    """
    reach = SYMMETRY * DIAGONAL
    mx, my = middle
    odd = 0
    for x, y in pips:
        tx, ty = 2 * mx - x, 2 * my - y
        if any(np.hypot(tx - px, ty - py) < reach for px, py in pips):
            continue
        odd += 1
        if abs(float(np.array([x - mx, y - my]) @ np.array([along[1], -along[0]]))) > reach:
            return False
    return odd <= 1
