"""Finding index corners (the small rank-over-suit print in a card's corner) and turning each into features.

Why one module of about 870 lines: finding candidates and cutting their features must stay exactly what
the network build trained on (the shipped networks learnt from these very features), so it is kept whole
and changed only together with a rebuild. The measures of an index's print (a suit mark's notches and
blur, a smear) share its geometry and stay beside it.

Why index corners rather than whole cards: at a pub table cards overlap (a row of played cards, a pile,
a pair laid across each other) and a hand may cover most of a card, but the index corner is what players
themselves read, and it is usually the last thing covered. So recognition never needs a whole card
outline: it looks for *two marks of ink on card white, one above the other* -- a rank glyph and a suit
symbol -- in any direction. The direction from the rank to the suit is the card's "down", which fixes
the rotation; the distance between them fixes the scale. Every candidate pair is then cut out upright
and normalised, so the classifier sees the same picture whatever the rotation, distance and deck.

The same code runs in the build script on rendered scenes (to make training samples) and at run time,
so the classifier is trained on exactly the candidates it will be asked about, wrong pairs included.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Final

import cv2
import numpy as np
import numpy.typing as npt

__all__ = [
    "CARD_ASPECT",
    "FEATURE_SIZE",
    "PATCH_H",
    "PATCH_LENGTH",
    "PATCH_W",
    "UNEVEN",
    "Candidate",
    "Ink",
    "candidates",
    "court_pip_notches",
    "evened",
    "evened_where_uneven",
    "features",
    "find_candidates",
    "freed_candidates",
    "in_boxes",
    "ink",
    "outlines",
    "patch_features",
    "patch_polygon",
    "patches",
    "shading",
    "smear",
    "split_joined",
    "spread_ratio",
    "stretch",
    "suit_blur",
    "suit_notches",
    "uneven",
]

#: A card's length over its width (63 by 88 mm): where a read index says its card lies.
CARD_ASPECT: Final = 1.4
#: Size (pixels) of the upright patch each candidate is normalised to.
PATCH_W: Final = 24
PATCH_H: Final = 32
#: Half-extent of the patch in units of the rank-to-suit distance (across, along).
_HALF_ACROSS: Final = 0.95
_HALF_ALONG: Final = 1.35
#: The patch's length along its index (:func:`patch_polygon`'s second side), in rank-to-suit distances.
PATCH_LENGTH: Final = 2 * _HALF_ALONG
#: How far the light on a patch's paper is looked for around each pixel, in rank-to-suit distances:
#: wider than any stroke or suit mark of an index, so that no mark is taken for paper in shadow (see
#: :func:`evened`; from 0.55 to 0.8 the shadowed tuning deals read within 2 indices of each other).
_PAPER_REACH: Final = 0.65
#: A patch whose paper is somewhere lit at under this share of its brightest is read again with its
#: light made even, if it was thrown out as read (see :func:`uneven`): under a shadow at half the
#: light, and not where the light only falls off a little across the patch.
UNEVEN: Final = 0.7
_ORIENT_BINS: Final = 8
_CELL: Final = 4
FEATURE_SIZE: Final = (
    (PATCH_W // _CELL) * (PATCH_H // _CELL) * _ORIENT_BINS + (PATCH_W // 2) * (PATCH_H // 2) + 12
)

FloatArray = npt.NDArray[np.float32]
Point = tuple[float, float]


@dataclass(frozen=True, slots=True)
class Candidate:
    """A possible index: the centre of a rank mark and of a suit mark below it (image pixels)."""

    rank: tuple[float, float]
    suit: tuple[float, float]
    size: float
    """Height of the rank mark in pixels (used to merge detections of one index)."""
    joined: bool = False
    """Rank and suit taken from one blob (see :func:`_joined_pairs`): the suit mark is not seen alone."""
    freed: bool = False
    """Rank or suit mark split from a line it ran into (see :func:`_off_the_lines`)."""

    @property
    def length(self) -> float:
        """The rank-to-suit distance (pixels). Plain numbers, not NumPy's: it is asked thousands of
        times a frame, and a NumPy call on two numbers costs several times the sum."""
        return math.hypot(self.suit[0] - self.rank[0], self.suit[1] - self.rank[1])


#: Ink is at least this many grey levels darker than the mean around it (see :func:`_ink_mask`).
INK_CONTRAST: Final = 18
#: ... and, where a share of the mean is asked instead (dim surroundings), never fewer than these:
#: camera noise in a deep shadow is a level or two.
INK_LEAST: Final = 3


def _ink_floor(share: float | None) -> npt.NDArray[np.uint8]:
    """For each local mean grey level, the darkest grey that is not ink (see :func:`_ink_mask`)."""
    mean = np.arange(256)
    step = np.full(256, INK_CONTRAST)
    if share is not None:
        step = np.clip(np.floor(share * mean), INK_LEAST, INK_CONTRAST)
    # Ink is darker than the floor: a floor of 0 (a mean under the contrast asked) has none.
    return np.asarray(np.maximum(mean - step + 1, 0), np.uint8)


def _ink_mask(gray: npt.NDArray[np.uint8], block: int, share: float | None) -> npt.NDArray[np.uint8]:
    """Pixels clearly darker than the mean of the ``block`` around them: print on card white.

    Clearly means by ``INK_CONTRAST`` grey levels. With ``share``, where the surroundings are dim, a
    ``share`` of their mean is enough (at least ``INK_LEAST``): under a player's shadow the whole
    print is dimmed in proportion, and light cut to 0.15 leaves a card's white at about 35 and the
    thin strokes of its print less than 18 under their surroundings. Where the mean is at least
    ``INK_CONTRAST / share`` the two agree, so a lit table's mask is unchanged.
    """
    mean = cv2.boxFilter(gray, -1, (block, block), borderType=cv2.BORDER_REPLICATE | cv2.BORDER_ISOLATED)
    floor = _ink_floor(share)
    mask = np.asarray(cv2.compare(gray, cv2.LUT(mean, floor), cv2.CMP_LT), np.uint8)
    if share is None:
        return mask
    # Where a shadow's sharp edge crosses the block, the mean takes in the lit side, and a band of
    # plain paper along the dark side reads as ink; it runs into every glyph it touches, and no index
    # there is found. So where the paper is dim (where the share is in force), ink must also be darker
    # than the paper's own light: the brightest level within a block of it (a closing, which keeps a
    # shadow's edge where it is but fills every stroke), taken at half size since it is smooth. With
    # half-lit patches read evened (see ``Recogniser._name``), the tuning deals under a shadow at 0.25
    # of the light lost 9 of the 149 indices read lit; with this, 4.
    h, w = gray.shape[:2]
    half = cv2.resize(gray, ((w + 1) // 2, (h + 1) // 2), interpolation=cv2.INTER_AREA)
    kernel = cv2.getStructuringElement(cv2.MORPH_RECT, (block // 2 | 1, block // 2 | 1))
    closed = cv2.morphologyEx(half, cv2.MORPH_CLOSE, kernel)
    paper = cv2.resize(closed, (w, h), interpolation=cv2.INTER_LINEAR)
    # Not where the paper is lit: a table darker than a lit card is such a band as well, the card's
    # outline, as the networks' samples had it. (Asked of lit paper too, a 40-degree film read a 4 of
    # hearts in the crib where none lay.)
    dim = np.arange(256) * share < INK_CONTRAST
    paper_floor = np.where(dim, floor, 255).astype(np.uint8)
    under = cv2.compare(gray, cv2.LUT(paper, paper_floor), cv2.CMP_LT)
    return np.asarray(cv2.bitwise_and(mask, under), np.uint8)


@dataclass(frozen=True)
class Ink:
    """The blobs of ink in one grey image, from which candidates are paired (see :func:`ink`)."""

    labels: npt.NDArray[np.int32]
    """Blob number of every pixel (0: no ink; blob ``k`` is row ``k - 1`` of ``stats``)."""
    stats: npt.NDArray[np.int32]
    """Box (left, top, width, height) and area of each blob, as OpenCV's connected components give."""
    centroids: npt.NDArray[np.float64]
    glyphs: npt.NDArray[np.bool_]
    """Which blobs are of a glyph's size and shape (see :func:`_glyph_blobs`)."""
    min_size: float
    max_size: float


def ink(
    gray: npt.NDArray[np.uint8], min_size: float = 6.0, max_size: float = 90.0, share: float | None = None
) -> Ink:
    """The ink blobs of a grey image; glyphs are ``min_size`` to ``max_size`` pixels across.

    ``share``: how much darker than its surroundings ink must be where they are dim (see
    :func:`_ink_mask`); without it, a fixed contrast, as the shipped networks' samples were found.
    """
    mask = _ink_mask(gray, 31, share)
    # Block-based labelling (BBDT) gives the same labels as the default in under half the time on one
    # thread, where the default's parallel algorithm has nothing to gain.
    _, labels, all_stats, centroids = cv2.connectedComponentsWithStatsWithAlgorithm(
        mask, 8, cv2.CV_32S, cv2.CCL_BBDT
    )
    stats: npt.NDArray[np.int32] = np.asarray(all_stats[1:], np.int32)
    return Ink(
        np.asarray(labels, np.int32),
        stats,
        np.asarray(centroids[1:], np.float64),
        _glyph_blobs(stats, min_size, max_size),
        min_size,
        max_size,
    )


def find_candidates(
    gray: npt.NDArray[np.uint8], min_size: float = 6.0, max_size: float = 90.0, joined: bool = True
) -> list[Candidate]:
    """Every plausible (rank mark, suit mark) pair in a grey image (see :func:`candidates`)."""
    return candidates(ink(gray, min_size, max_size), joined)


def candidates(blobs: Ink, joined: bool = True) -> list[Candidate]:
    """Every plausible (rank mark, suit mark) pair among an image's ink blobs.

    Marks are connected blobs of ink of glyph size; blobs of similar height side by side (the "1" and
    "0" of a ten) are also joined into one mark. A suit mark must be of comparable size and lie about one
    glyph height from the rank mark, in any direction. Without ``joined``, only the marks that stand
    apart are paired, not those split from one blob (the cheap half of the search).
    """
    out = _pairs(blobs.stats, blobs.centroids, blobs.glyphs, np.zeros(len(blobs.stats), bool))
    if joined:
        out += _joined_pairs(blobs.labels, blobs.stats, blobs.glyphs, blobs.min_size)
    return out


def _pairs(
    stats: npt.NDArray[np.int32],
    centroids: npt.NDArray[np.float64],
    keep: npt.NDArray[np.bool_],
    freed: npt.NDArray[np.bool_],
    only_freed: bool = False,
) -> list[Candidate]:
    """Candidates from the blobs marked ``keep``; ``freed`` marks blobs split from a line. With
    ``only_freed``, only the candidates with a freed mark (the rest are read already)."""
    found = _pair_arrays(stats, centroids, keep, freed, only_freed)
    return [] if found is None else _paired(found)


def _paired(found: _Pairs, chosen: npt.NDArray[np.bool_] | None = None) -> list[Candidate]:
    """The candidates of the pairs ``found`` (those ``chosen``, if told)."""
    rank, suit, size, marked = found
    if chosen is not None:
        rank, suit, size, marked = rank[chosen], suit[chosen], size[chosen], marked[chosen]
    return [
        Candidate((r[0], r[1]), (s[0], s[1]), e, freed=f)
        for r, s, e, f in zip(rank.tolist(), suit.tolist(), size.tolist(), marked.tolist(), strict=True)
    ]


_Pairs = tuple[
    npt.NDArray[np.float64], npt.NDArray[np.float64], npt.NDArray[np.float64], npt.NDArray[np.bool_]
]
"""Pairs as arrays: rank middles (n, 2), suit middles (n, 2), rank sizes and freed marks (n)."""


def _within(
    px: FloatArray,
    py: FloatArray,
    qx: FloatArray,
    qy: FloatArray,
    window: npt.NDArray[np.floating[Any]],
    reach: Callable[[npt.NDArray[np.intp], npt.NDArray[np.intp]], npt.NDArray[np.floating[Any]]],
) -> tuple[npt.NDArray[np.intp], npt.NDArray[np.intp], npt.NDArray[np.floating[Any]]]:
    """The pairs (row ``i`` of the points ``p``, column ``j`` of the points ``q``) lying less than
    ``reach(i, j)`` apart, in row-major order, and their distances. ``window[i]`` bounds row ``i``'s
    reach to every column it may pair with.

    Why a sweep rather than every offset at once: a busy table cloth or a mat's weave makes thousands of
    glyph-sized blobs (11,506 on one real deal photo), and the offsets of every pair of them took
    gigabytes and seconds; a glyph's neighbours lie within a few glyph widths. So the columns are sorted
    by x and each row takes only those within its window there. The test itself is as exact as before:
    the distance is never less than either offset (float32's ``hypot`` rounds a value that is not
    less, and the offset itself is a float32), so a pair with an offset at or past the reach is never
    within it, and the distance is taken only where both offsets are within.
    """
    order = np.argsort(qx, kind="stable")
    xs = qx[order].astype(np.float64)
    # The window is widened by a pixel: the bounds are float64, the offsets float32.
    lo = np.searchsorted(xs, px.astype(np.float64) - window - 1.0, side="left")
    hi = np.searchsorted(xs, px.astype(np.float64) + window + 1.0, side="right")
    counts = hi - lo
    rows = np.repeat(np.arange(len(px)), counts)
    starts = np.repeat(lo - (np.cumsum(counts) - counts), counts)
    cols = order[np.arange(len(rows)) + starts]
    dx = px[rows] - qx[cols]
    dy = py[rows] - qy[cols]
    limit = reach(rows, cols)
    close = (np.abs(dx) < limit) & (np.abs(dy) < limit)
    rows, cols, dx, dy, limit = rows[close], cols[close], dx[close], dy[close], limit[close]
    dist = np.hypot(dx, dy)
    near = dist < limit
    rows, cols, dist = rows[near], cols[near], dist[near]
    ranked = np.lexsort((cols, rows))
    return rows[ranked], cols[ranked], dist[ranked]


def _pair_arrays(
    stats: npt.NDArray[np.int32],
    centroids: npt.NDArray[np.float64],
    keep: npt.NDArray[np.bool_],
    freed: npt.NDArray[np.bool_],
    only_freed: bool = False,
) -> _Pairs | None:
    """The pairs :func:`_pairs` makes, as arrays (see _Pairs), in the same order; None if none."""
    idx = np.flatnonzero(keep)
    if idx.size == 0:
        return None
    x = stats[idx, cv2.CC_STAT_LEFT].astype(np.float32)
    y = stats[idx, cv2.CC_STAT_TOP].astype(np.float32)
    w = stats[idx, cv2.CC_STAT_WIDTH].astype(np.float32)
    h = stats[idx, cv2.CC_STAT_HEIGHT].astype(np.float32)
    cx = centroids[idx, 0].astype(np.float32)
    cy = centroids[idx, 1].astype(np.float32)
    fr = freed[idx]
    # Box centres are steadier than ink centroids for glyphs such as "7" or "J".
    bx = x + w / 2
    by = y + h / 2
    ext = np.maximum(w, h)
    marks_x = [bx]
    marks_y = [by]
    marks_e = [ext]
    marks_f = [fr]
    # Join blobs of similar size that sit side by side (the two digits of a ten).
    # Two marks joined are within 0.6 to 1.67 of each other's size, so within 1.59 of a mark's own.
    ii, jj, dist = _within(bx, by, bx, by, 1.6 * ext, lambda i, j: 0.95 * np.maximum(ext[i], ext[j]))
    ratio = ext[ii] / ext[jj]
    near = (jj > ii) & (dist > 0.25 * ext[ii]) & (ratio > 0.6) & (ratio < 1.67)
    ii, jj = ii[near], jj[near]
    if ii.size:
        marks_x.append((bx[ii] + bx[jj]) / 2)
        marks_y.append((by[ii] + by[jj]) / 2)
        marks_e.append(np.maximum(ext[ii], ext[jj]))
        marks_f.append(fr[ii] | fr[jj])
    rx = np.concatenate(marks_x)
    ry = np.concatenate(marks_y)
    re = np.concatenate(marks_e)
    rf = np.concatenate(marks_f)
    # Pair every mark (as a rank) with a single blob (as a suit) at about one glyph's distance.
    reach = 1.6 * re
    ri, si, dd = _within(rx, ry, cx, cy, reach, lambda i, _: reach[i])
    sr = ext[si] / re[ri]
    ok = (dd > 0.55 * re[ri]) & (sr > 0.35) & (sr < 1.5)
    if only_freed:
        ok &= rf[ri] | fr[si]
    ri, si = ri[ok], si[ok]
    rank = np.stack([rx[ri], ry[ri]], axis=1).astype(np.float64)
    suit = np.stack([cx[si], cy[si]], axis=1).astype(np.float64)
    return rank, suit, re[ri].astype(np.float64), rf[ri] | fr[si]


def _box_shape(
    stats: npt.NDArray[np.int32],
) -> tuple[FloatArray, FloatArray, FloatArray, npt.NDArray[np.float64]]:
    """Width, height, extent (the larger of the two) and fill (ink over box area) of each blob."""
    w = stats[:, cv2.CC_STAT_WIDTH].astype(np.float32)
    h = stats[:, cv2.CC_STAT_HEIGHT].astype(np.float32)
    fill: npt.NDArray[np.float64] = stats[:, cv2.CC_STAT_AREA] / np.maximum(w * h, 1.0)
    return w, h, np.maximum(w, h), fill


def in_boxes(
    points: npt.NDArray[np.float64], stats: npt.NDArray[np.int32], margin: float = 0.0
) -> npt.NDArray[np.bool_]:
    """Which of ``points`` (n, 2) lie inside which blob boxes (rows of ``stats``), each box grown by
    ``margin`` on every side: shape (n, boxes)."""
    x0, y0, bw, bh = (stats[None, :, k] for k in range(4))
    px, py = points[:, 0, None], points[:, 1, None]
    inside: npt.NDArray[np.bool_] = (
        (px > x0 - margin) & (px < x0 + bw + margin) & (py > y0 - margin) & (py < y0 + bh + margin)
    )
    return inside


def _glyph_blobs(stats: npt.NDArray[np.int32], min_size: float, max_size: float) -> npt.NDArray[np.bool_]:
    """Which blobs (rows of connected-component stats) are of glyph size and shape: neither a speck nor
    a long streak, and not so hollow that they are an outline."""
    w, h, extent, fill = _box_shape(stats)
    keep: npt.NDArray[np.bool_] = (
        (extent >= min_size) & (extent <= max_size) & (fill > 0.12) & (np.minimum(w, h) >= 2)
    )
    keep &= (w / np.maximum(h, 1) < 4.0) & (h / np.maximum(w, 1) < 4.0)
    return keep


#: Outline-like blobs up to this many times the largest glyph may hold a glyph run into a line.
_OUTLINE_MAX: Final = 3.0
#: A line is a run of ink along one side of the blob's bounding rectangle at least this share of the
#: blob's extent (and three of the smallest glyphs) long.
_LINE_SHARE: Final = 0.3
#: What is left once the lines are gone counts only within this share of the rectangle's shorter side
#: from one of its corners: an index sits at a card's corner, and beside the top corner of a court
#: frame; the rest of what hangs on a frame is the court picture.
_CORNER_REACH: Final = 0.3
#: A freed candidate's rank-to-suit direction must lie within about 25 degrees of its outline's long
#: axis (the cosine).
_ALONG_OUTLINE: Final = 0.9


def outlines(blobs: Ink) -> npt.NDArray[np.intp]:
    """Blobs (rows of ``blobs.stats``) that look like outlines: larger than a glyph or too hollow for
    one, but not beyond a few glyphs across. A court frame, a card's edge against the table, a back."""
    _, _, extent, fill = _box_shape(blobs.stats)
    return np.flatnonzero(
        (extent > 3 * blobs.min_size)
        & (extent <= _OUTLINE_MAX * blobs.max_size)
        & ((extent > blobs.max_size) | (fill <= 0.12))
    )


def freed_candidates(blobs: Ink, which: Sequence[int]) -> list[Candidate]:
    """Candidates with a mark split from the straight lines of the outlines ``which`` (see
    :func:`outlines`), paired with each other and with the glyph blobs around them.

    Why: many decks frame the court picture a hair's breadth right of the index, and print the index
    close to the card's edge; on a small or slightly soft card the rank glyph's ink runs into the frame
    line, or into the dark line where the card's edge meets the table. Glyph and line are then one blob,
    far too large and hollow for a glyph, and the card was never read (a quarter of one real deck's
    court cards 110 pixels wide, in any rotation but square to the frame). This costs more than the
    plain pairing, so the recogniser asks it only of outlines that nothing was read inside.
    """
    freed_stats, freed_centroids, axes = _off_the_lines(blobs, which)
    if len(freed_stats) == 0:
        return []
    # The glyph blobs near the outlines (a suit mark clear of the line, below a freed rank).
    around = in_boxes(blobs.centroids, blobs.stats[list(which)], blobs.max_size).any(axis=1) & blobs.glyphs
    stats = np.concatenate([blobs.stats[around], freed_stats])
    centroids = np.concatenate([blobs.centroids[around], freed_centroids])
    freed = np.concatenate([np.zeros(int(around.sum()), bool), np.ones(len(freed_stats), bool)])
    keep = np.concatenate(
        [np.ones(int(around.sum()), bool), _glyph_blobs(freed_stats, blobs.min_size, blobs.max_size)]
    )
    found = _pair_arrays(stats, centroids, keep, freed, only_freed=True)
    if found is None:
        return []
    rank, suit, _, _ = found
    # An index runs down its card, along the outline (a card's edge, its picture's frame): pairs
    # of scraps of court picture point every which way. The outline is the one whose middle lies
    # nearest the rank (the first of equals).
    middles = np.array([middle for middle, _ in axes], np.float64)
    length = np.hypot(suit[:, 0] - rank[:, 0], suit[:, 1] - rank[:, 1])
    down = (suit - rank) / np.maximum(length, 1e-6)[:, None]
    nearest = np.argmin(
        np.hypot(rank[:, None, 0] - middles[None, :, 0], rank[:, None, 1] - middles[None, :, 1]), axis=1
    )
    axis = np.array([side for _, side in axes], np.float64)[nearest]
    along = np.abs(down[:, 0] * axis[:, 0] + down[:, 1] * axis[:, 1])
    # The cosine as one candidate at a time had it (``down @ axis``), where the product's rounding
    # could tip it over the bound.
    for k in np.flatnonzero(np.abs(along - _ALONG_OUTLINE) < 1e-9).tolist():
        along[k] = abs(float(down[k] @ axis[k]))
    return _paired(found, along >= _ALONG_OUTLINE)


def _line_points(
    along: npt.NDArray[np.float32], across: npt.NDArray[np.float32], length: float
) -> npt.NDArray[np.bool_]:
    """Which points lie on a thin straight run, parallel to the ``along`` or to the ``across`` axis, at
    least ``length`` long.

    The points are drawn on a grid in these coordinates, thickened by a pixel across the run (a line a
    little off the axis, or two pixels thick) and closed over gaps of two pixels along it; an opening
    by a ``length``-long bar then keeps the runs. Ink five pixels deep across a run is no line (a solid
    shape, or a glyph's stroke crossing the line) and is left where it is. Why one grid for both axes:
    the runs along the second are those along the first on the grid turned a quarter, which is the
    grid itself with every shape turned, and drawing the grid costs as much as two of the openings.
    """
    u = np.round(along - along.min()).astype(np.intp)
    v = np.round(across - across.min()).astype(np.intp)
    grid = np.zeros((int(v.max()) + 1, int(u.max()) + 1), np.uint8)
    grid[v, u] = 1
    bar = max(1, round(length))
    on = np.zeros(grid.shape, bool)
    for deep_k, wide_k, close_k, bar_k in (
        ((5, 1), (3, 1), (1, 3), (1, bar)),  # runs along ``along`` (the grid's rows)
        ((1, 5), (1, 3), (3, 1), (bar, 1)),  # runs along ``across`` (its columns)
    ):
        deep = np.asarray(cv2.morphologyEx(grid, cv2.MORPH_OPEN, np.ones(deep_k, np.uint8)), np.uint8)
        wide = np.asarray(cv2.dilate(grid, np.ones(wide_k, np.uint8)), np.uint8)
        wide = np.asarray(cv2.morphologyEx(wide, cv2.MORPH_CLOSE, np.ones(close_k, np.uint8)), np.uint8)
        runs = np.asarray(cv2.morphologyEx(wide, cv2.MORPH_OPEN, np.ones(bar_k, np.uint8)), np.uint8)
        on |= (runs > 0) & (deep == 0)
    found: npt.NDArray[np.bool_] = on[v, u]
    return found


def _off_the_lines(
    blobs: Ink, which: Sequence[int]
) -> tuple[npt.NDArray[np.int32], npt.NDArray[np.float64], list[tuple[Point, npt.NDArray[np.float64]]]]:
    """Stats and centroids (image pixels) of the ink left near the corners of the outlines ``which``
    once their straight lines are taken away; and the centre and long axis of each outline that left
    any.

    Frames and card edges are rectangles, so their lines run along the two axes of the blob's bounding
    rectangle: the blob's pixels are projected onto those axes and long runs taken away, which costs far
    less than a general line search.
    """
    found_stats: list[npt.NDArray[np.int32]] = []
    found_centroids: list[npt.NDArray[np.float64]] = []
    axes: list[tuple[Point, npt.NDArray[np.float64]]] = []
    for i in which:
        x0, y0, bw, bh = (int(v) for v in blobs.stats[i, :4])
        blob = np.asarray(blobs.labels[y0 : y0 + bh, x0 : x0 + bw] == i + 1, np.uint8)
        ys, xs = np.nonzero(blob)
        pts = np.stack([xs, ys], axis=1).astype(np.float32)
        # The rectangle from the outer contour's few points: from every pixel it costs ten times more.
        contours, _ = cv2.findContours(blob, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
        rect = cv2.minAreaRect(np.concatenate(contours))
        a = np.deg2rad(rect[2])
        u = pts @ np.array([np.cos(a), np.sin(a)], np.float32)
        v = pts @ np.array([-np.sin(a), np.cos(a)], np.float32)
        length = max(3.0 * blobs.min_size, _LINE_SHARE * float(max(bw, bh)))
        on = _line_points(u, v, length)
        if not on.any():
            continue
        corners = cv2.boxPoints(rect)
        reach = _CORNER_REACH * min(rect[1])
        # Only what is left of the lines is measured against the corners (most of a frame is line).
        off = np.flatnonzero(~on)
        dx = pts[off, None, 0] - corners[None, :, 0]
        dy = pts[off, None, 1] - corners[None, :, 1]
        # The distance only where both offsets are within reach of a corner: it is never less than
        # either, and costs several times the test.
        near = ((np.abs(dx) <= reach) & (np.abs(dy) <= reach)).any(axis=1)
        left = off[near][np.min(np.hypot(dx[near], dy[near]), 1) <= reach]
        if not left.size:
            continue
        rest = np.zeros((bh, bw), np.uint8)
        rest[ys[left], xs[left]] = 1
        count, _, parts, centres = cv2.connectedComponentsWithStatsWithAlgorithm(
            rest, 8, cv2.CV_32S, cv2.CCL_BBDT
        )
        if count <= 1:
            continue
        parts = parts[1:].copy()
        parts[:, cv2.CC_STAT_LEFT] += x0
        parts[:, cv2.CC_STAT_TOP] += y0
        found_stats.append(parts.astype(np.int32))
        shift = np.array([x0, y0], np.float64)
        found_centroids.append(np.asarray(centres[1:], np.float64) + shift)
        side = (
            np.array([np.cos(a), np.sin(a)])
            if rect[1][0] >= rect[1][1]
            else np.array([-np.sin(a), np.cos(a)])
        )
        axes.append(((rect[0][0] + x0, rect[0][1] + y0), side))
    if not found_stats:
        return np.zeros((0, 5), np.int32), np.zeros((0, 2), np.float64), axes
    return np.concatenate(found_stats), np.concatenate(found_centroids), axes


#: A 3x3 square, the neighbours of a pixel.
_SQUARE: Final = np.ones((3, 3), np.uint8)

#: A blob this elongated (ratio of its principal axes) and this full of its box may be a rank and suit
#: run together (a jumbo "J" over its suit measures 2.0-3.3 and 0.33-0.41 at 80-130 px wide cards; a
#: "Q" whose tail runs into its heart is rounder).
_JOINED_ELONGATION: Final = (1.5, 4.0)
_JOINED_FILL: Final = (0.2, 0.6)


def split_joined(blob: npt.NDArray[np.uint8]) -> tuple[Point, Point, float] | None:
    """Rank centre, suit centre and rank size of one blob that holds a rank glyph run into its suit mark.

    Why this way: a suit mark is a solid shape, while a rank glyph is drawn in strokes. So the blob's
    thickest part (where the distance to its edge is greatest) lies in the suit; everything the suit's
    solid body does not reach is the rank. The rank's centre is its box centre and the suit's its ink
    centroid, as for separate marks, so the network sees the same picture either way. Used both at run
    time and by the build script (on the clean renders), so the two agree on where such an index is.
    None if the blob does not split into a rank and a suit of index proportions.
    """
    pad = np.asarray(
        cv2.copyMakeBorder(blob.astype(np.uint8), 1, 1, 1, 1, cv2.BORDER_CONSTANT, value=0), np.uint8
    )
    dist = cv2.distanceTransform(pad, cv2.DIST_L2, 3)
    deepest = int(np.argmax(dist))
    radius = float(dist.flat[deepest])
    if radius < 1.5:
        return None
    _, cores = cv2.connectedComponents((dist > 0.5 * radius).astype(np.uint8), connectivity=8)
    peak = int(cores.flat[deepest])
    grow = 2 * round(0.5 * radius) + 3
    ellipse = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (grow, grow))
    body = np.asarray(cv2.dilate((cores == peak).astype(np.uint8), ellipse), np.uint8) & pad
    near = np.asarray(cv2.dilate(body, _SQUARE), np.uint8)
    rest = pad & (1 - near)
    parts, _, stats, _ = cv2.connectedComponentsWithStats(rest, connectivity=8)
    if parts <= 1:
        return None
    j = 1 + int(np.argmax(stats[1:, cv2.CC_STAT_AREA]))
    rx, ry, rw, rh, area = (int(v) for v in stats[j].tolist())
    m = cv2.moments(body, binaryImage=True)
    _, _, sw, sh = cv2.boundingRect(body)
    rank_size, suit_size = float(max(rw, rh)), float(max(sw, sh))
    rank = (rx + rw / 2 - 1, ry + rh / 2 - 1)
    suit = (m["m10"] / m["m00"] - 1, m["m01"] / m["m00"] - 1)
    apart = float(np.hypot(suit[0] - rank[0], suit[1] - rank[1]))
    if not (0.55 * rank_size < apart < 1.6 * rank_size and 0.35 < suit_size / rank_size < 1.5):
        return None
    if area < 0.1 * m["m00"]:
        return None  # a stray tip, not a glyph
    return rank, suit, rank_size


def _joined_pairs(
    labels: npt.NDArray[np.int32], stats: npt.NDArray[np.int32], keep: npt.NDArray[np.bool_], min_size: float
) -> list[Candidate]:
    """Candidates from single blobs (rows of ``stats``, blob ``k + 1`` in ``labels``) that may hold a
    rank *and* its suit mark, touching.

    Why: some decks print a rank glyph that touches its suit mark (a jumbo "J" whose hook curls down to
    the club below it, a "Q" whose tail runs into its heart), and on a small card many more run together
    by a pixel, so the pair test above never sees two marks. Long, part-filled blobs are split by
    :func:`split_joined`; the network rejects the many such blobs that are no index at all.
    """
    out: list[Candidate] = []
    w = stats[:, cv2.CC_STAT_WIDTH]
    h = stats[:, cv2.CC_STAT_HEIGHT]
    fill = stats[:, cv2.CC_STAT_AREA] / np.maximum(w * h, 1)
    sel = np.flatnonzero(
        keep & (np.maximum(w, h) >= 1.5 * min_size) & (fill >= _JOINED_FILL[0]) & (fill <= _JOINED_FILL[1])
    )
    lo, hi = _JOINED_ELONGATION
    for i, (x0, y0, bw, bh) in zip(sel.tolist(), stats[sel, :4].tolist(), strict=True):
        blob = (labels[y0 : y0 + bh, x0 : x0 + bw] == i + 1).view(np.uint8)
        m = cv2.moments(blob, binaryImage=True)
        if m["m00"] <= 0:
            continue
        a, b, c = m["mu20"] / m["m00"], m["mu02"] / m["m00"], m["mu11"] / m["m00"]
        spread = float(np.hypot((a - b) / 2, c))
        major, minor = (a + b) / 2 + spread, (a + b) / 2 - spread
        if minor <= 0 or not lo**2 * minor <= major <= hi**2 * minor:
            continue
        split = split_joined(blob)
        if split is None:
            continue
        (rx, ry), (sx, sy), size = split
        out.append(Candidate((x0 + rx, y0 + ry), (x0 + sx, y0 + sy), size, joined=True))
    return out


def _frame(c: Candidate) -> tuple[np.ndarray, np.ndarray, np.ndarray, float]:
    r = np.array(c.rank, np.float64)
    s = np.array(c.suit, np.float64)
    length = max(float(np.hypot(*(s - r))), 1e-6)
    down = (s - r) / length
    right = np.array([down[1], -down[0]])
    centre = (r + s) / 2
    return centre, down, right, length


def patch_polygon(c: Candidate) -> list[tuple[float, float]]:
    """The four corners (image pixels) of the region a candidate's patch covers: TL, TR, BR, BL."""
    centre, down, right, length = _frame(c)
    a = _HALF_ACROSS * length
    b = _HALF_ALONG * length
    pts = [centre - a * right - b * down, centre + a * right - b * down]
    pts += [centre + a * right + b * down, centre - a * right + b * down]
    return [(float(p[0]), float(p[1])) for p in pts]


def patches(
    image: npt.NDArray[np.uint8], cands: list[Candidate], size: tuple[int, int] = (PATCH_W, PATCH_H)
) -> npt.NDArray[np.uint8]:
    """Every candidate cut out upright as a ``size`` (width, height) patch, PATCH_W x PATCH_H unless
    told: shape (n, H, W, channels). The region cut out is the same at any size (:func:`patch_polygon`).

    Why one ``cv2.remap`` for all: a busy table gives a few hundred candidates, and one warp call each
    cost more than all the arithmetic on the patches. Each patch pixel's source point is the patch's
    centre plus its offsets across and along the index, so the whole map is three broadcast sums.
    """
    n = len(cands)
    width, height = size
    if n == 0:
        return np.zeros((0, height, width, image.shape[2] if image.ndim == 3 else 1), np.uint8)
    r = np.array([c.rank for c in cands], np.float64)
    s = np.array([c.suit for c in cands], np.float64)
    centre = (r + s) / 2
    # The unnormalised rank-to-suit vector already carries the length: (s - r) = length * down.
    along = s - r
    across = np.stack([along[:, 1], -along[:, 0]], axis=1)
    too_short = np.hypot(along[:, 0], along[:, 1]) < 1e-6
    along[too_short] = (0.0, 1e-6)
    across[too_short] = (1e-6, 0.0)
    # Patch pixel u (across) and v (along) as shares of the rank-to-suit distance, pixel centres as
    # cv2.warpAffine places them.
    u = (np.arange(width) - width / 2) * (2 * _HALF_ACROSS / width)
    v = (np.arange(height) - height / 2) * (2 * _HALF_ALONG / height)
    # remap takes maps of under 32767 rows: some hundreds of patches at a time, their maps made for
    # each lot alone (a mat's weave gives tens of thousands of candidates, and all their maps at once
    # took hundreds of megabytes).
    lot = 32000 // height
    out = []
    for k in range(0, n, lot):
        part = slice(k, k + lot)
        maps = [
            (
                centre[part, a, None, None]
                + across[part, a, None, None] * u[None, None, :]
                + along[part, a, None, None] * v[None, :, None]
            )
            .astype(np.float32)
            .reshape(-1, width)
            for a in (0, 1)
        ]
        out.append(
            np.asarray(
                cv2.remap(image, maps[0], maps[1], cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE),
                np.uint8,
            )
        )
    return np.concatenate(out).reshape(n, height, width, -1)


def shading(patches: npt.NDArray[np.uint8]) -> npt.NDArray[np.uint8]:
    """The light on the paper of each of ``patches`` (n, H, W, 3, as :func:`patches` cuts them at any
    size), pixel by pixel, as a share of the patch's brightest paper (255: as bright as that): shape
    (n, H, W). :func:`evened` divides by it.

    The light on the paper is the brightest level within ``_PAPER_REACH`` of a pixel (a closing: it
    fills every stroke and mark of an index but keeps a shadow's edge sharp). It is measured in each
    pixel's brightest colour, in which red print is as bright as paper: in grey, a heart pip wider
    than the reach passes for a patch of shadow.
    """
    n, h, w, _ = patches.shape
    if n == 0:
        return np.zeros((0, h, w), np.uint8)
    value = np.maximum(np.maximum(patches[..., 0], patches[..., 1]), patches[..., 2])
    # The brightest paper of a patch is its brightest pixel: the closing never goes above that.
    top = np.maximum(value.reshape(n, -1).max(axis=1), 1)
    size = round(_PAPER_REACH * w / (2 * _HALF_ACROSS)) | 1
    kernel = cv2.getStructuringElement(cv2.MORPH_RECT, (size, size))
    # All patches at once, side by side with a gap between them so that none borrows light from the
    # next: the gap is dark for the dilation (which takes the brightest) and white for the erosion.
    # Side by side rather than one under the next, since OpenCV's morphology costs by the row: a strip
    # a patch high takes a tenth of the time of a column of patches. The sums are OpenCV's, in whole
    # grey levels: the same in NumPy's floating point cost several times as much, over the hundreds
    # of patches of a busy table.
    span = w + size // 2 + 1
    strip = np.zeros((h, n, span), np.uint8)
    strip[:, :, :w] = value.transpose(1, 0, 2)
    bright = np.asarray(cv2.dilate(strip.reshape(h, -1), kernel), np.uint8).reshape(h, n, span)
    bright[:, :, w:] = 255
    paper = cv2.erode(bright.reshape(h, -1), kernel)
    tops = np.ascontiguousarray(np.broadcast_to(top[None, :, None], (h, n, span))).reshape(h, -1)
    shade = np.asarray(cv2.divide(paper, tops, scale=255), np.uint8).reshape(h, n, span)
    return np.ascontiguousarray(shade[:, :, :w].transpose(1, 0, 2))


def uneven(shade: npt.NDArray[np.uint8]) -> npt.NDArray[np.bool_]:
    """Which patches (by their :func:`shading`) have paper somewhere lit at under ``UNEVEN`` of their
    brightest: a shadow's edge, or a table darker than the card, crosses them."""
    n = len(shade)
    dimmest = shade.reshape(n, -1).min(axis=1) if n else np.zeros(0, np.uint8)
    out: npt.NDArray[np.bool_] = dimmest < UNEVEN * 255
    return out


def evened(patches: npt.NDArray[np.uint8], shade: npt.NDArray[np.uint8]) -> npt.NDArray[np.uint8]:
    """``patches`` (n, H, W, 3) with the light on each made even: divided by their ``shade`` (see
    :func:`shading`), so that paper in a shadow reads as paper, as bright as the patch's brightest.

    Why: a player's shadow has a sharp edge, and where it crosses an index the patch is half lit. Both
    networks stretch a patch's grey between its darkest and brightest levels (:func:`stretch`), so
    the shadowed paper came out mid-grey, like print, and the index was taken for none (7 of the 8
    indices a shadow at half the light cost the tuning deals). A patch wholly in shadow is left as it
    was: the stretch copes with that, and scaling to the brightest paper keeps its noise as small.
    """
    n, h, w, _ = patches.shape
    if n == 0:
        return patches
    # Where the share is 0, so is the pixel, and OpenCV's division by 0 gives 0.
    shade3 = cv2.cvtColor(shade.reshape(n * h, w), cv2.COLOR_GRAY2BGR)
    flat = cv2.divide(patches.reshape(n * h, w, 3), shade3, scale=255)
    return np.asarray(flat, np.uint8).reshape(n, h, w, 3)


def evened_where_uneven(patches: npt.NDArray[np.uint8]) -> tuple[npt.NDArray[np.intp], npt.NDArray[np.uint8]]:
    """Which of ``patches`` are lit unevenly (see :func:`uneven`), and those patches evened (see
    :func:`evened`): elsewhere evening changes little, and the second look it is for is wasted."""
    shade = shading(patches)
    which = np.flatnonzero(uneven(shade))
    return which, evened(patches[which], shade[which])


#: Sector by (upper half, sign of the across component: none, right or left, steeper than 45 degrees),
#: at 6 * upper + 2 * sign + steeper: see _orientation_bins.
_SECTOR: Final = np.array([3, 2, 3, 2, 0, 1, 7, 6, 4, 5, 7, 6], np.int8)
#: The same as a full table of 256 codes, for OpenCV's table look-up (codes past 11 never occur).
_SECTOR_TABLE: Final = np.concatenate([_SECTOR, np.zeros(256 - len(_SECTOR), np.int8)])


def _orientation_bins(gx: FloatArray, gy: FloatArray) -> npt.NDArray[np.int8]:
    """Which of ``_ORIENT_BINS`` (eight) equal sectors of direction each gradient points into.

    Sector k holds the angles from -180 + 45k degrees (inclusive) to -135 + 45k, as
    ``floor((atan2(gy, gx) + pi) / 45 degrees)`` has it, but found by comparing the two components:
    the upper or lower half (sign of gy), the side within it (sign of gx), and whether it is steeper
    than 45 degrees, which is ten times cheaper than the arctangent. At exact ties (|gx| = |gy|) the
    arctangent's own rounding decides, so the sectors are those the network was trained on. (Only a
    gradient within a float's rounding of a sector's edge could differ, and differences of grey
    levels never come that close.)
    """
    ax, ay = np.abs(gx), np.abs(gy)
    # In the lower half the sectors run from the left (-180) to the right; in the upper half from the
    # right (0) to the left. So the sector follows from the half, the side and the steepness, looked up
    # in a table; the side is taken as its sign (none, right, left), which is cheaper than working out
    # whether it is the half's first side.
    code = (gy >= 0).view(np.uint8) * np.uint8(6)
    code += (gx > 0).view(np.uint8) * np.uint8(2)
    code += (gx < 0).view(np.uint8) * np.uint8(4)
    code += (ay > ax).view(np.uint8)
    # One table look-up over the codes, by OpenCV's, which costs a third of NumPy's take.
    bins = np.asarray(cv2.LUT(code.reshape(-1, code.shape[-1]), _SECTOR_TABLE), np.int8).reshape(code.shape)
    tie = (ax == ay) & (ax > 0)
    if tie.any():
        ang = (np.arctan2(gy[tie], gx[tie]) + np.pi) * (_ORIENT_BINS / (2 * np.pi))
        bins[tie] = np.minimum(ang.astype(np.int32), _ORIENT_BINS - 1)
    result: npt.NDArray[np.int8] = bins
    return result


def features(image: npt.NDArray[np.uint8], cands: list[Candidate]) -> FloatArray:
    """One feature row per candidate: gradient-orientation cells, a small grey picture and ink colour.

    Computed for all candidates at once (the patches are stacked), since a busy table gives hundreds.
    """
    if not cands:
        return np.zeros((0, FEATURE_SIZE), np.float32)
    return patch_features(patches(image, cands))


def stretch(p: FloatArray) -> tuple[FloatArray, FloatArray, FloatArray, FloatArray]:
    """Each patch's grey, stretched from its 3rd (0) to its 97th (1) percentile, with those two levels
    and the span between them (at least 12 grey levels, so a blank patch is not blown up into noise),
    each shaped (n, 1, 1). Print under a lamp and in shadow then look alike to both networks.
    ``p``: BGR patches (n, H, W, 3) as float32."""
    n, h, w, _ = p.shape
    gray = p[..., 2] * 0.299 + p[..., 1] * 0.587 + p[..., 0] * 0.114
    # Sorted as the integers their bits spell: for floats of one sign that is the same order (and the
    # grey, a sum of non-negative parts, is never negative), and NumPy sorts integers faster.
    flat = np.sort(gray.astype(np.float32, copy=False).reshape(n, -1).view(np.int32), axis=1).view(np.float32)
    lo = flat[:, int(0.03 * h * w)][:, None, None]
    hi = flat[:, int(0.97 * h * w)][:, None, None]
    span = np.maximum(hi - lo, 12.0)
    norm = np.clip((gray - lo) / span, 0.0, 1.0)
    return norm, lo, hi, span


def patch_features(patches: npt.NDArray[np.uint8]) -> FloatArray:
    """The feature rows of candidate patches already cut out (as :func:`features` cuts them).

    Each row is the patch's alone, so many patches are taken a lot at a time: a mat's weave gives
    tens of thousands of candidates, and the arithmetic on all of them at once took a gigabyte, more
    than a small Pi has.
    """
    if len(patches) > _FEATURE_LOT:
        lots = [_features_of(patches[k : k + _FEATURE_LOT]) for k in range(0, len(patches), _FEATURE_LOT)]
        return np.concatenate(lots)
    return _features_of(patches)


#: Patches whose features are worked out together (about 40 MB of arithmetic).
_FEATURE_LOT: Final = 1024


def _features_of(patches: npt.NDArray[np.uint8]) -> FloatArray:
    n = len(patches)
    area = PATCH_H * PATCH_W
    p = patches.astype(np.float32)
    norm, lo, hi, span = stretch(p)
    gx = np.zeros_like(norm)
    gy = np.zeros_like(norm)
    gx[:, :, 1:-1] = norm[:, :, 2:] - norm[:, :, :-2]
    gy[:, 1:-1, :] = norm[:, 2:, :] - norm[:, :-2, :]
    # Plain arithmetic, not np.hypot (five times slower) nor cv2.magnitude, whose vector code gives a
    # last bit that depends on where the array lies in memory: the build must give the same samples
    # every time, or the network it trains is not reproducible.
    mag = np.sqrt(gx * gx + gy * gy)
    bins = _orientation_bins(gx, gy)
    cells_w, cells_h = PATCH_W // _CELL, PATCH_H // _CELL
    # Orientation histogram per cell, by one weighted bincount over every pixel of every patch.
    cell_of = (np.arange(PATCH_H)[:, None] // _CELL) * cells_w + (np.arange(PATCH_W)[None, :] // _CELL)
    slot = (np.arange(n)[:, None, None] * (cells_h * cells_w) + cell_of[None]) * _ORIENT_BINS + bins
    hist = (
        np.bincount(slot.ravel(), weights=mag.ravel(), minlength=n * cells_h * cells_w * _ORIENT_BINS)
        .reshape(n, -1)
        .astype(np.float32)
    )
    hist /= np.linalg.norm(hist, axis=1)[:, None] + 1e-3
    # 2x2 means; the stacked patches have an even height, so no mean crosses from one to the next.
    small = cv2.resize(
        norm.reshape(n * PATCH_H, PATCH_W), (PATCH_W // 2, n * PATCH_H // 2), interpolation=cv2.INTER_AREA
    )
    # Colour of the ink relative to the paper: red suits against black ones, under any colour cast.
    inkw = (1.0 - norm).reshape(n, 1, area)
    paper = (norm > 0.8).astype(np.float32).reshape(n, 1, area)
    pixels = p.reshape(n, area, 3)
    ref = (paper @ pixels)[:, 0] / (paper.sum(axis=2) + 1e-3)
    ink = (inkw @ pixels)[:, 0] / (inkw.sum(axis=2) + 1e-3)
    rel = ink / (ref + 1.0)
    colour = np.stack(
        [
            rel[:, 2] - np.maximum(rel[:, 0], rel[:, 1]),
            rel[:, 2] - rel[:, 1],
            rel[:, 2] - rel[:, 0],
            rel[:, 0],
            rel[:, 1],
            rel[:, 2],
            span[:, 0, 0] / 255.0,
            inkw.mean(axis=(1, 2)),
            lo[:, 0, 0] / 255.0,
            hi[:, 0, 0] / 255.0,
            np.zeros(n, np.float32),
            np.ones(n, np.float32),
        ],
        axis=1,
    )
    out = np.concatenate([hist * 4.0, small.reshape(n, -1) - 0.5, colour], axis=1).astype(np.float32)
    return out


#: Side (pixels) of the upright patch a suit mark is cut to for :func:`suit_notches`, and its half-extent
#: in units of the rank-to-suit distance.
_SUIT_SIDE: Final = 48
_SUIT_HALF: Final = 0.6
#: Shortest rank-to-suit distance (pixels) at which a suit mark's outline is trusted: below it (a suit
#: mark under about 7 pixels) a turned mark's staircase edges make notches of their own. At 12-14
#: pixels the outline still tells clubs from spades, and there the network alone takes a far club for
#: a spade: the view from above shows a camera's far cards at that size (tuning tables at 45 degrees,
#: seeds 0-29, through a plane whose view is 2150 px wide: 6 named wrong with 14, 3 with 12; cards
#: shrunk to 50-60 px and enlarged 1.3-1.6 times: 3 wrong of 174 either way).
_NOTCH_MIN_LENGTH: Final = 12.0


def suit_notches(gray: npt.NDArray[np.uint8], cands: list[Candidate]) -> FloatArray:
    """Depth of the deepest notch in the upper two thirds of each candidate's suit mark (NaN if unclear).

    Why: the network sees the suit at a few pixels and can take a spade for a club (both black, both
    on a stem). Their outlines differ plainly, though: a club's three lobes leave deep notches between
    them above the stem, where a spade's sides run straight from its point to its shoulders. Likewise a
    heart has a notch at its top and a diamond none. The depth is a convexity defect of the upright mark,
    as a share of the mark's height (measured on real photos of two decks: spades and diamonds under
    0.05, clubs over 0.075, hearts mostly over 0.065). The stem's own notches (the lowest third) are left
    out, since a spade has them too.
    """
    out = np.full(len(cands), np.nan, np.float32)
    side = _SUIT_SIDE
    for k, c in enumerate(cands):
        _, down, right, length = _frame(c)
        if length < _NOTCH_MIN_LENGTH:
            continue
        f = side / (2 * _SUIT_HALF * length)
        m = np.array([[f * right[0], f * right[1], 0.0], [f * down[0], f * down[1], 0.0]])
        m[:, 2] = np.array([side / 2, side / 2]) - m[:, :2] @ np.array(c.suit)
        patch = cv2.warpAffine(gray, m, (side, side), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
        _, ink = cv2.threshold(patch, 0, 255, cv2.THRESH_BINARY_INV + cv2.THRESH_OTSU)
        if c.joined:
            # The rank glyph's strokes run into the mark: an opening by a disc half as wide as the mark's
            # thickest part takes them away and keeps the solid mark, whose notches (hollows, not
            # spurs) it leaves as they are.
            ink = _solid(np.asarray(ink, np.uint8))
        count, labels, stats, centroids = cv2.connectedComponentsWithStats(ink, connectivity=8)
        if count <= 1:
            continue
        dist = np.hypot(centroids[1:, 0] - side / 2, centroids[1:, 1] - side / 2)
        i = int(np.argmin(dist)) + 1
        x, y, w, h = (int(v) for v in stats[i, :4])
        # The mark must stand alone in the patch: not cut by its edge, not run into a card's border.
        if x == 0 or y == 0 or x + w >= side or y + h >= side or not 0.25 * side <= h <= 0.8 * side:
            continue
        contours, _ = cv2.findContours(
            (labels == i).astype(np.uint8), cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE
        )
        cnt = max(contours, key=cv2.contourArea)
        if len(cnt) < 8:
            continue
        depth = _upper_notch(cnt, y, h)
        if depth is not None:
            out[k] = depth
    return out


def _solid(ink: npt.NDArray[np.uint8]) -> npt.NDArray[np.uint8]:
    """``ink`` opened by a disc half as wide as its thickest part: thin strokes run into a solid mark
    go, and the mark's hollows (not spurs) stay as they are."""
    radius = float(cv2.distanceTransform(ink, cv2.DIST_L2, 3).max())
    grow = 2 * round(0.5 * radius) + 1
    disc = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (grow, grow))
    return np.asarray(cv2.morphologyEx(ink, cv2.MORPH_OPEN, disc), np.uint8)


def _upper_notch(cnt: npt.NDArray[np.int32], top: int, height: int) -> float | None:
    """Depth of the deepest hollow of an upright mark's outline ``cnt`` (its box ``height`` pixels tall
    from row ``top``) in the upper two thirds of it, as a share of that height: where a club's lobes
    and a heart's cleft leave theirs and a spade's and a diamond's sides run straight; the lowest third
    is left out, as a spade's stem leaves hollows there too. None where the outline touches itself
    (no evidence either way)."""
    try:
        defects = cv2.convexityDefects(cnt, cv2.convexHull(cnt, returnPoints=False))
    except cv2.error:
        return None
    if defects is None:
        return 0.0
    d = defects.reshape(-1, 4)
    upper = (cnt[d[:, 2], 0, 1] - top) < 0.68 * height
    return float(d[upper, 3].max()) / 256.0 / height if upper.any() else 0.0


def _mirrored(labels: npt.NDArray[np.int32], stat: npt.NDArray[np.int32], middle: float, n: int) -> float:
    """How much of the shape ``n`` of ``labels`` (its box ``stat``) its mirror image about the upright
    line through ``middle`` (its ink's centre across) covers: the overlap over the union."""
    x, y, w, h = (int(v) for v in stat[:4])
    shape = labels[y : y + h, x : x + w] == n
    half = math.ceil(max(middle - x, x + w - middle)) + 1
    laid = np.zeros((h, 2 * half + 1), bool)
    left = half - round(middle - x)
    laid[:, left : left + w] = shape
    turned = laid[:, ::-1]
    return float((laid & turned).sum() / max((laid | turned).sum(), 1))


#: Pixels across the region beside an index that :func:`court_pip_notches` looks at.
_COURT_SIDE: Final = 96


def court_pip_notches(
    gray: npt.NDArray[np.uint8],
    cands: list[Candidate],
    across: tuple[float, float],
    down: tuple[float, float],
    inward: float,
    size: tuple[float, float],
    fill: float,
    symmetry: float,
    glyphs: Sequence[tuple[float, float]] = (),
) -> FloatArray:
    """Depth of the notches (see :func:`suit_notches`) of the suit mark a court card prints beside each
    of ``cands`` (indices read as a jack, queen or king), or NaN where none is found. ``glyphs``: the
    rank and suit middles of every index read in the picture; a shape within an index length of one
    that is not the candidate's own is that other index's glyph, never the mark.

    Why: the English pattern that pub decks print frames its court picture with a large suit mark in
    the frame's top corner, beside the index and upright as the index is: about one and a half index
    lengths tall, where the index's own suit mark is half of one. Blur fills in the notches of the
    small mark first, and past about 2.5 pixels a court's index no longer tells a club from a spade,
    while the large mark still does (tuning tables 10-39, cards 110 pixels wide: at a 3 pixel disc
    clubs' large marks notched 0.107 and more, spades' at most 0.028).

    The mark is looked for in the region ``across`` (from the index's middle line, inward: to the
    index's right) and ``down`` (from its rank glyph) given in index lengths (rank to suit), as the
    largest solid dark shape there (Otsu's threshold, at least ``fill`` of its box) ``size`` index
    lengths across, whose middle lies at least ``inward`` lengths in (the index's own marks lie
    nearer) and which the region's edge does not cut. It must be mirror-symmetric about its upright
    middle line, as a suit mark is (its mirror image covering ``symmetry`` of it, overlap over union):
    on a deck that prints the frame's mark small and far off, the largest shape there is a piece of
    the picture (the demo deck's king of spades at a 3 pixel disc: 0.5, deeply notched), and the card
    is left unread rather than named a club. Thin strokes run into it (its stem, the picture
    frame's line) are opened away by a disc half as wide as its thickest part, as a joined suit mark's
    are in :func:`suit_notches`; the stem goes too, so a spade keeps no hollow and a club its lobes'.

    A number card from four up prints its nearest pip where a court prints that mark, as large and
    upright as it, and is asked alike (tuning tables 10-99 at 2 and 3 pixel discs: 737 black number
    indices measured, none on the other suit's side of the bars). In a fanned hand the next card's
    index lies there instead, and its rank glyph can pass for the mark (an "8", two lobes one over the
    other, measured as a club beside a four of spades): hence ``glyphs``.
    """
    points = np.asarray(glyphs, np.float64).reshape(-1, 2)
    out = np.full(len(cands), np.nan, np.float32)
    side = _COURT_SIDE
    for k, c in enumerate(cands):
        _, to_down, to_right, length = _frame(c)
        if length < _NOTCH_MIN_LENGTH:
            continue
        f = side / ((across[1] - across[0]) * length)
        origin = np.array(c.rank) + to_right * across[0] * length + to_down * down[0] * length
        # Region pixel (x, y) lies at origin + (x * to_right + y * to_down) / f in the image.
        m = np.array([[to_right[0], to_down[0], 0.0], [to_right[1], to_down[1], 0.0]]) / f
        m[:, 2] = origin
        rows = round(side * (down[1] - down[0]) / (across[1] - across[0]))
        patch = cv2.warpAffine(
            gray,
            m,
            (side, rows),
            flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
            borderMode=cv2.BORDER_REPLICATE,
        )
        _, ink = cv2.threshold(patch, 0, 255, cv2.THRESH_BINARY_INV + cv2.THRESH_OTSU)
        count, found, stats, centroids = cv2.connectedComponentsWithStats(ink, connectivity=8)
        labels = np.asarray(found, np.int32)
        own = np.minimum(np.hypot(*(points - np.array(c.rank)).T), np.hypot(*(points - np.array(c.suit)).T))
        others = points[own > length]
        best, most = 0, 0
        for n in range(1, count):
            x, y, w, h, area = (int(v) for v in stats[n])
            if x == 0 or y == 0 or x + w >= side or y + h >= rows:
                continue
            if not size[0] <= max(w, h) / (f * length) <= size[1] or area < fill * w * h:
                continue
            if centroids[n, 0] / f < (inward - across[0]) * length or area <= most:
                continue
            at = origin + (centroids[n, 0] * to_right + centroids[n, 1] * to_down) / f
            if others.size and float(np.hypot(*(others - at).T).min()) < length:
                continue  # another index's glyph
            best, most = n, area
        if not best or _mirrored(labels, stats[best], float(centroids[best, 0]), best) < symmetry:
            continue
        mark = _solid((labels == best).astype(np.uint8))
        contours, _ = cv2.findContours(mark, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
        if not contours:
            continue
        cnt = np.asarray(max(contours, key=cv2.contourArea), np.int32)
        if len(cnt) < 8:
            continue
        _, y, _, h = cv2.boundingRect(cnt)
        depth = _upper_notch(cnt, y, h)
        if depth is not None:
            out[k] = depth
    return out


def _suit_patch(gray: npt.NDArray[np.uint8], c: Candidate) -> npt.NDArray[np.uint8]:
    """The candidate's suit mark cut out upright, _SUIT_SIDE pixels square, the rank-to-suit distance
    ``_SUIT_SIDE / (2 * _SUIT_HALF)`` pixels long in it (as :func:`suit_notches` cuts it)."""
    _, down, right, length = _frame(c)
    side = _SUIT_SIDE
    f = side / (2 * _SUIT_HALF * length)
    m = np.array([[f * right[0], f * right[1], 0.0], [f * down[0], f * down[1], 0.0]])
    m[:, 2] = np.array([side / 2, side / 2]) - m[:, :2] @ np.array(c.suit)
    patch = cv2.warpAffine(gray, m, (side, side), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    return np.asarray(patch, np.uint8)


def suit_blur(gray: npt.NDArray[np.uint8], cands: Sequence[Candidate]) -> FloatArray:
    """How blurred each candidate's suit mark is: the radius of the blur, as a share of its rank-to-suit
    distance.

    Why the suit mark: it is the index's one solid shape, so its edge is a plain step from ink to
    card white. A step of contrast C seen through a lens out of focus by a disc of radius r rises
    at most (2 / pi) C / r a pixel, so r is (2 / pi) C over the steepest slope; C is the spread from
    the patch's 3rd to its 97th percentile, the steepest slope its gradients' 99th percentile (the
    mark's edge; a few noisy pixels are passed over). A sharp index on a 1280x720 table measures
    0.04 (the camera's own softness and the resampling), and each pixel of defocus at cards 110 pixels
    wide adds about 0.03.
    """
    if not cands:
        return np.zeros(0, np.float32)
    # All the marks at once: a percentile's call costs more than its sorting on a patch this small.
    patch = np.stack([_suit_patch(gray, c) for c in cands]).astype(np.float32)
    lo, hi = np.percentile(patch.reshape(len(cands), -1), [3, 97], axis=1)
    gx = (patch[:, 1:-1, 2:] - patch[:, 1:-1, :-2]) / 2
    gy = (patch[:, 2:, 1:-1] - patch[:, :-2, 1:-1]) / 2
    steepest = np.percentile(np.sqrt(gx * gx + gy * gy).reshape(len(cands), -1), 99, axis=1)
    radius = (2 / np.pi) * (hi - lo) / np.maximum(steepest, 1e-6)
    out: FloatArray = (radius / (_SUIT_SIDE / (2 * _SUIT_HALF))).astype(np.float32)
    return out


#: The suit mark's square, each side of its centre, as a share of the rank-to-suit distance: the
#: whole mark (about 0.6 of that distance tall) and the card white around it.
_SMEAR_SUIT_HALF: Final = 0.45
#: The suit mark's solid core, each side of its centre, as the same share: ink as printed, since a
#: smear shorter than the mark is wide leaves its middle as dark as it was.
_SUIT_CORE: Final = 0.15
#: The rank glyph's square, each side of its centre, as the same share: the whole glyph (a "10",
#: the widest, is about 0.9 of that distance) and little of the suit mark below.
_RANK_HALF: Final = 0.5
#: The directions edge spread is measured along: half a turn in this many steps, so a smear's own
#: direction is at most 11.25 degrees from one (which understates its length by 2 %).
_SPREAD_DIRECTIONS: Final = 8
_SPREAD_UNITS: Final = np.stack(
    [
        np.cos(np.arange(_SPREAD_DIRECTIONS) * np.pi / _SPREAD_DIRECTIONS),
        np.sin(np.arange(_SPREAD_DIRECTIONS) * np.pi / _SPREAD_DIRECTIONS),
    ]
).astype(np.float32)


def _square(gray: npt.NDArray[np.uint8], at: Point, half: float) -> FloatArray:
    """The pixels within ``half`` of ``at`` along rows and columns, as float (cut by the picture's edge)."""
    h, w = gray.shape[:2]
    x0, y0 = max(int(at[0] - half), 0), max(int(at[1] - half), 0)
    x1, y1 = min(int(at[0] + half) + 1, w), min(int(at[1] + half) + 1, h)
    return np.asarray(gray[y0:y1, x0:x1], np.float32)


def spread_ratio(gray: npt.NDArray[np.uint8], cands: Sequence[Candidate]) -> FloatArray:
    """How much wider each candidate's suit mark is spread one way than another: its edges' widest
    spread over their narrowest, along the directions :func:`smear` measures (1: alike every way, as
    in focus or evenly out of it; NaN where it cannot be measured).

    Why a ratio, not :func:`smear`'s strokes: a smear several strokes long fills a glyph's gaps, the
    ink then measures as one thick stroke, and the smear in strokes falls back under one; the ratio of
    the mark's own spreads does not depend on the glyph.
    """
    out = np.full(len(cands), np.nan, np.float32)
    for k, c in enumerate(cands):
        measured = _suit_spreads(gray, c)
        if measured is not None:
            spreads, _ = measured
            out[k] = float(spreads.max() / max(float(spreads.min()), 1e-6))
    return out


def _suit_spreads(gray: npt.NDArray[np.uint8], c: Candidate) -> tuple[npt.NDArray[np.float64], float] | None:
    """How far ``c``'s suit mark's edges are spread along each of the directions ``_SPREAD_UNITS`` (see
    :func:`smear`), and the ink's own grey level at its core; None where the mark is too small or
    shows no contrast."""
    mark = _square(gray, c.suit, max(_SMEAR_SUIT_HALF * c.length, 3.0))
    core = _square(gray, c.suit, max(_SUIT_CORE * c.length, 1.0))
    if min(mark.shape) < 5 or core.size == 0:
        return None
    ink_level = float(np.percentile(core, 10))
    contrast = float(np.percentile(mark, 97)) - ink_level
    if contrast < 1.0:
        return None
    grads = np.stack(
        [(mark[1:-1, 2:] - mark[1:-1, :-2]).ravel(), (mark[2:, 1:-1] - mark[:-2, 1:-1]).ravel()], 1
    )
    steepest = np.percentile(np.abs(grads @ _SPREAD_UNITS), 99, axis=0) / 2
    spreads: npt.NDArray[np.float64] = contrast / np.maximum(steepest, 1e-6)
    return spreads, ink_level


def smear(gray: npt.NDArray[np.uint8], cands: Sequence[Candidate]) -> FloatArray:
    """How far each candidate's index is smeared one way more than any other, in strokes of its rank
    glyph (0 where it cannot be measured).

    Why one way: a camera bumped, or a card moved, smears every point along one line. An edge lying
    along that line stays sharp and one across it is spread over the smear's length, so the steepest
    edge anywhere (what :func:`suit_blur` measures defocus from) does not see it. Seen along a
    direction u, a step of contrast C spread over w pixels along u rises at most C / w a pixel, and
    of a suit mark's edges (its outline faces every way) the one across u rises steepest along u; so
    C over the steepest slope along u is the spread along u. The suit mark is measured, not the rank
    glyph, since it is solid: its edges stay steps under a smear shorter than the mark, and its core
    keeps the ink's own darkness (C), where a thin stroke smeared loses both. The widest spread less
    the narrowest is the smear (defocus and the lens's softness spread every way alike).

    Why in strokes: where the smear across the glyph passes the gaps between its strokes (about a
    stroke wide in a printed numeral) no gap is left white anywhere, strokes merge, and a 3 reads as
    a 5 or a 2. The stroke width is the rank glyph's ink (darker than half way from the suit's core
    to the card white) over half its outline, the outline counted in steps along rows and columns,
    which overstates a slanted edge by 4 / pi on average (corrected). A smear narrower than twice a
    stroke leaves a stroke's width at half its depth as printed. All in the picture's own pixels,
    so the share holds at any scale.
    """
    out = np.zeros(len(cands), np.float32)
    for k, c in enumerate(cands):
        glyph = _square(gray, c.rank, max(_RANK_HALF * c.length, 3.0))
        measured = _suit_spreads(gray, c) if min(glyph.shape) >= 5 else None
        if measured is None:
            continue
        spreads, ink_level = measured
        inked = glyph < (ink_level + float(np.percentile(glyph, 97))) / 2
        outline = np.count_nonzero(inked[:, 1:] != inked[:, :-1]) + np.count_nonzero(inked[1:] != inked[:-1])
        stroke = 2 * float(inked.sum()) / max(outline * np.pi / 4, 1.0)
        out[k] = float(spreads.max() - spreads.min()) / max(stroke, 0.5)
    return out
