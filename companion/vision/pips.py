"""Counting the pips on a face-up card: a check on the index's rank that no deck design can fool.

Why one module of about 600 lines: finding a card's white, cutting out its marks and judging whether
they are plainly pips is one measurement, and each step's thresholds only make sense beside the others.

Why: the networks read the small index in the corner, and a deck never seen in training can print a
glyph they read wrong with full confidence (a flat-topped 3 read as a 5: no average of networks and no
second opinion of the finder catches it, since both are sure). The middle of a number card says its
rank a second way, in any design: a three shows three pips, a five five.

Where both of a card's indices are read (a card lying alone, or on top of another), they say where the
card lies and how large it is; where none is read, the card's outline does (see :func:`pips_of`), and
the pips' colour and outline then name the suit as well. The card's white is found about its middle,
and the marks on it are counted; a count that is plain (every mark of one size, laid out as pips are
laid, nothing else printed on the card but its indices, no pip washed pale by glare) is offered. A
court card's picture, a card partly covered or run together with another, or a card too small to part
its pips gives no count, and the index's reading stands as it was.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Final

import cv2
import numpy as np
import numpy.typing as npt

from companion.vision.index import CARD_ASPECT, Candidate, suit_notches
from companion.vision.settings import SHIPPED, PipGeometry, PipSettings
from companion.vision.types import Frame

__all__ = [
    "Corner",
    "Counted",
    "Middle",
    "Pips",
    "count_pips",
    "picture_share",
    "pips_between",
    "pips_of",
    "shows_picture",
]

Point = tuple[float, float]
Corner = tuple[Point, Point]
"""One index corner read: the middles of its rank and of its suit mark, in image pixels."""
Vector = npt.NDArray[np.float64]


def count_pips(
    image: Frame, first: Corner, second: Corner, settings: PipSettings = SHIPPED.pips
) -> int | None:
    """The number of pips on the card whose two opposite index corners are ``first`` and ``second``,
    or None when the card's middle shows no plain count.

    ``first`` and ``second`` must be the two corners of one card, each printed turned half round from
    the other: the card's middle is the midpoint of their middles.
    """
    found = pips_between(image, first, second, settings)
    return None if found is None else found.count


def pips_between(
    image: Frame, first: Corner, second: Corner, settings: PipSettings = SHIPPED.pips
) -> Pips | None:
    """The pips of the card whose two opposite index corners are ``first`` and ``second`` (see
    :func:`count_pips`), their count and, as :func:`pips_of` gives them, their colour and shape; None
    when the card's middle shows no plain count."""
    found = Middle(image, first, second, settings).counted()
    return None if found is None else found.shape()


def shows_picture(image: Frame, first: Corner, second: Corner, settings: PipSettings = SHIPPED.pips) -> bool:
    """Whether the card whose opposite index corners are ``first`` and ``second`` shows a picture in
    its middle, as a court card does: one mark there covering more than ``settings.picture`` of it (see
    :func:`picture_share`).

    Why: two corners of one card read as a court and as a number (a jumbo "J" read as a 7, a serif "K"
    as a 10) are told apart by the card's middle, and where the pips cannot be counted (a court's
    picture gives no count) the picture itself says which.
    """
    share = picture_share(image, first, second, settings)
    return share is not None and share > settings.picture


def picture_share(
    image: Frame, first: Corner, second: Corner, settings: PipSettings = SHIPPED.pips
) -> float | None:
    """The share of the middle of the card whose opposite index corners are ``first`` and ``second``
    (its four corners, where indices are printed, left out) that its largest mark covers; None where no
    card of a card's shape lies whole there, or it is not the card both corners were read on."""
    return Middle(image, first, second, settings).picture()


class Middle:
    """The middle of the card whose two opposite index corners are ``first`` and ``second``, looked at
    once for all that is asked of it: its pips counted (:meth:`counted`), how much of it a picture
    covers (:meth:`picture`).

    Why one object: the recogniser asks of a card's middle first its count and, where there is none,
    its picture, and both look through the same window at the same card white, which is most of what
    either costs (some two milliseconds a card on one core, a frame's budget being sixty for a dozen
    cards). The pips' colour and outline are measured only when asked for (:meth:`Counted.shape`): they
    settle only a suit its index is in doubt of, most indices are read all but certainly, and measuring
    them costs as much again as the count. What is asked is worked out the first time and kept.
    """

    def __init__(
        self, image: Frame, first: Corner, second: Corner, settings: PipSettings = SHIPPED.pips
    ) -> None:
        g = self._geometry = settings.geometry
        window = _window(image, first, second, g)
        self._window = window
        self._lit = None if window is None else _lit(window[0], g)
        self._seen = (
            None if window is None or self._lit is None else _card_white(window[0], g, window[1], self._lit)
        )
        self._counted: Counted | None = None
        self._count_asked = False
        self._shape: Pips | None = None
        self._picture: float | None = None
        self._picture_asked = False
        self._placed_count: Counted | None = None
        self._placed_asked = False
        self._corners_found: _Found | None = None
        self._corners_asked = False

    def counted(self) -> Counted | None:
        """The plain count of the card's pips (see :func:`count_pips`), or None."""
        if not self._count_asked:
            self._count_asked = True
            self._counted = self._count(self._seen)
        return self._counted

    def counted_by_corners(self) -> Counted | None:
        """Where no card white of a card's shape is found (so :meth:`counted` is None), the plain
        count of the card taken to lie where its two read corners say (see :func:`_outline`); else
        None.

        Why: a card lying over another runs its white into that card's, and blurred, the edge
        between them is too soft to part them (:func:`_face_apart`); its pips went uncounted (a soft
        photo's four of spades lying over an eight, read unsurely at both corners, was left unread).
        Asked only of two unsure corners reading one rank, with no card read between them (see
        :func:`companion.vision.arbitration.unsure_pairs`): a count that is not that rank names
        nothing, so the marks of a card lying over this one cannot name it.
        """
        if self._seen is not None:
            return None
        if not self._placed_asked:
            self._placed_asked = True
            self._placed_count = self._count(self._placed())
        return self._placed_count

    def _placed(self) -> _White | None:
        """The card as its white shows it, else as its two read corners place it (see
        :func:`_outline`), on its window's brightest white; None where neither is had."""
        if self._seen is not None:
            return self._seen
        found = self._by_corners()
        if found is None or self._lit is None:
            return None
        hsv, paper = self._lit
        # Only the card white in that outline, with all it encloses: a soft card's rim, dimmed by the
        # table beyond it, is no mark on it (taken in, it was a pale mark: see _washed_out).
        white = (_white(hsv, paper, self._geometry) & found[0]).astype(np.uint8)
        outline, _ = cv2.findContours(white, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
        face = np.zeros_like(white)
        cv2.drawContours(face, outline, -1, 1, -1)
        return hsv, paper, (face.astype(bool), *found[1:])

    def _count(self, seen: _White | None) -> Counted | None:
        if self._window is None or seen is None:
            return None
        card, glyphs, reach = self._window
        g = self._geometry
        found = _marks(seen, glyphs, reach, g)
        if found is None:
            return None
        marks, (centre, along) = found
        count = _plain(marks, centre, along, g)
        if count is None or _washed_out(seen, g):
            return None

        def shape() -> Pips:
            if self._shape is None:
                self._shape = _suit_shape(card, seen[:2], count, marks, centre, along, g)
            return self._shape

        return Counted(count, shape)

    def cores(self) -> int | None:
        """The plain count of the card's pips at their dark cores: the same plain count at two deeper
        darkness levels in a row (``PipGeometry.cores``), the first such; or None.

        Why apart from :meth:`counted`: it is asked only of a card with no plain count that its
        corners read as one number at both, to confirm that number (see
        :func:`companion.vision.arbitration.counted`). A soft lens runs close pips into one mark, as
        large as a court's picture; their dark cores still stand apart. Why two levels: a pip is a
        solid shape whose core stands at either, while a picture's fine dark outlines break into
        another set of marks at each (the demo deck's jack of clubs made ten like, symmetric marks at
        a quarter of card white under one OpenCV's resampling, and none at the level above). The
        count at the usual level stays what names a card, since deeper down a pale print's pips may
        break up or vanish.
        """
        if self._window is None or self._seen is None:
            return None
        _, glyphs, reach = self._window
        g = self._geometry
        before: int | None = None
        for depth in g.cores:
            found = _marks(self._seen, glyphs, reach, g, depth=depth)
            count = None if found is None else _plain(found[0], *found[1], g)
            if count is not None and count == before:
                return count
            before = count
        return None

    def lone(self) -> float | None:
        """How deep the notches of the one mark in the card's middle are (an ace's pip: see
        :func:`companion.vision.index.suit_notches`), the shallower of the mark's two ways up; None
        where the middle shows no one mark of a pip's size lying in it.

        Why both ways up: an ace's pip stands as the card's top index does, and nothing on an ace
        says which end is its top (its two indices are each other turned half round). A club is
        notched between its lobes one way up and at its stem the other, so both ways; a spade only at
        its stem, so one way up it is plain. Blur fills notches in but never draws them on a spade:
        on the tuning tables at a 3 pixel disc an ace of clubs' pip was notched 0.10 and more both
        ways, the spades' of the twos and threes at most 0.026 one way. A great ornate ace of spades
        (a hollow outline round a picture) is many marks, or one too large for a pip, and has none.
        Where the ace's white runs into a neighbour's, the card its corners place is looked in (see
        :meth:`counted_by_corners`): the lone pip must still lie in its middle, alone.
        """
        seen = self._placed()
        if self._window is None or seen is None:
            return None
        card, glyphs, _ = self._window
        hsv, paper, (face, centre, across, along) = seen
        g = self._geometry
        if not _read_on(glyphs, centre, across, along, g):
            return None
        ink = (_ink(hsv, paper, g) & _middle(face, centre, across, along, g)).astype(np.uint8)
        n, _, stats, centres = _components(ink)
        if n < 2:
            return None
        areas = stats[1:, cv2.CC_STAT_AREA]
        k = 1 + int(np.argmax(areas))
        if int(np.sum(areas > g.speck * areas[k - 1])) > 1:
            return None  # more than one mark: no lone pip
        _, _, w, h, area = stats[k].tolist()
        if not g.min_pip * g.diagonal <= max(w, h) <= g.max_pip * g.diagonal:
            return None
        mark = centres[k]
        if float(np.hypot(*(mark - centre))) > g.symmetry * g.diagonal:
            return None  # not in the card's middle
        gray = np.asarray(cv2.cvtColor(card, cv2.COLOR_BGR2GRAY), np.uint8)
        up = along / float(np.hypot(*along))
        length = g.pip_to_length * float(np.sqrt(area))
        ways = [
            Candidate(
                (float(mark[0] + u[0] * length), float(mark[1] + u[1] * length)),
                (float(mark[0]), float(mark[1])),
                length,
            )
            for u in (up, -up)
        ]
        notches = suit_notches(gray, ways)
        return None if np.isnan(notches).any() else float(notches.min())

    def picture(self) -> float | None:
        """The share of the card's middle its largest mark covers (see :func:`picture_share`), or
        None."""
        if not self._picture_asked:
            self._picture_asked = True
            self._picture = self._share()
        return self._picture

    def outlined(self) -> float | None:
        """The share of the card's middle its largest mark covers, the card taken to lie where its two
        read corners say (see :func:`_outline`), not where its white is found; None where there is no
        card white to see marks against.

        Why: a card lying against another runs its white into that card's, and a soft edge between
        them may leave no card's shape to find (:func:`_face_apart`): a jack's picture then goes
        unmeasured and its two corners, read as a jack and a seven alike surely, stood as two cards
        (see :func:`companion.vision.arbitration.counted`). Asked only where nothing read lies
        between the corners: two corners of two cards in a row have a third card between them, whose
        picture this would measure as theirs.
        """
        found = self._by_corners()
        if found is None or self._lit is None:
            return None
        hsv, paper = self._lit
        return _largest_share(hsv, paper, found, self._geometry)

    def _by_corners(self) -> _Found | None:
        """The card as its two read corners place it in the window (see :func:`_outline`), or None;
        worked out once, as both :meth:`outlined` and :meth:`counted_by_corners` may ask it."""
        if not self._corners_asked:
            self._corners_asked = True
            if self._window is not None:
                card, glyphs, _ = self._window
                self._corners_found = _outline(glyphs, card.shape[0], self._geometry)
        return self._corners_found

    def _share(self) -> float | None:
        if self._window is None or self._seen is None:
            return None
        hsv, paper, (face, centre, across, along) = self._seen
        g = self._geometry
        # The card found must be the one both corners were read on (a card in a row lies between one
        # card's bottom corner and the next's top).
        if not _read_on(self._window[1], centre, across, along, g):
            return None
        return _largest_share(hsv, paper, (face, centre, across, along), g)


@dataclass(frozen=True, slots=True, eq=False)
class Counted:
    """A plain count of a card's pips, their colour and outline (a :class:`Pips`) measured when first
    asked for (see :class:`Middle`)."""

    count: int
    shape: Callable[[], Pips]
    """The count with the pips' colour and outline."""


@dataclass(frozen=True, slots=True)
class Pips:
    """What the middle of a card whose index was not read says of it (see :func:`pips_of`)."""

    count: int
    red: bool
    notch: float
    """The median depth of the pips' deepest notches (see :func:`companion.vision.index.suit_notches`),
    NaN where no pip's outline could be measured."""
    centre: float
    """How far down a pip its ink's centre lies, as a share of its height (median of the pips; NaN
    where none was measured)."""


def pips_of(image: Frame, outline: Sequence[Point], settings: PipSettings = SHIPPED.pips) -> Pips | None:
    """The pips of the face-up card whose outline (four corners, image pixels) is ``outline``, when
    their count is plain, with their colour and shape; None otherwise.

    Why: an index can be unreadable where the card's middle is not. A webcam high over the table sees
    a card 70-90 pixels wide, its rank glyph a few soft pixels, while its pips, three times the size,
    still stand apart; a lamp's glare can wash out one corner. The count names the rank, and the pips'
    colour and outline (a heart's cleft and a club's lobes against a diamond's and a spade's plain
    sides) the suit. Whatever lies in the card's four corners is taken for its indices.
    """
    g = settings.geometry
    (cx, cy), size, _ = cv2.minAreaRect(np.asarray(outline, np.float32))
    if min(size) < 1:
        return None
    scale = g.diagonal / (g.index_diagonal * min(size))
    half = round(g.window * g.diagonal / 2)
    warp = np.array([[scale, 0, half - scale * cx], [0, scale, half - scale * cy]], np.float32)
    card = np.asarray(cv2.warpAffine(image, warp, (2 * half, 2 * half), flags=cv2.INTER_CUBIC), np.uint8)
    seen = _card_white(card, g)
    if seen is None:
        return None
    counts = []
    for corners in (g.corner, g.wide_corner):
        found = _marks(seen, None, 0.0, g, corners)
        if found is None:
            return None
        marks, (middle, along) = found
        counts.append(_plain(marks, middle, along, g))
    count = counts[0]
    if count is None or counts[1] != count:
        return None  # the count depends on where the indices are taken to end: not plain
    if _washed_out(seen, g):
        return None
    return _suit_shape(card, seen[:2], count, marks, middle, along, g)


def _suit_shape(
    card: Frame,
    white: tuple[npt.NDArray[np.uint8], float],
    count: int,
    marks: Sequence[tuple[float, float, float]],
    middle: Point,
    along: Vector,
    g: PipGeometry,
) -> Pips:
    """The colour and shape of the pips ``marks`` (area, x, y) of the card in the window ``card``
    (``white``: the window in HSV and how bright its card white is, see :func:`_card_white`), whose
    middle and long axis are ``middle`` and ``along`` (a unit vector)."""
    hsv, paper = white
    ink = _ink(hsv, paper, g).astype(np.uint8)
    _, labels = cv2.connectedComponents(ink, connectivity=8)
    coloured = hsv[..., 1] > g.red_ink
    red: list[bool] = []
    heights: list[float] = []
    pips: list[Candidate] = []
    for area, x, y in marks:
        k = labels[round(y), round(x)]
        if k:
            red.append(bool(coloured[labels == k].mean() > 0.5))
        # A pip stands with its top towards the nearer short edge of the card, as the index's suit mark
        # stands under its rank: cut out upright as one, with the rank's place left blank.
        off = float((np.array([x, y]) - np.array(middle)) @ along)
        if abs(off) < g.symmetry * g.diagonal:
            continue  # on the middle line: either way up
        up = along * np.sign(off)
        if k:
            ys, xs = np.nonzero(labels == k)
            depth = -(np.stack([xs, ys], axis=1).astype(np.float64) @ up)
            tall = float(depth.max() - depth.min())
            if tall >= 4:
                heights.append(float(depth.mean() - depth.min()) / tall)
        length = g.pip_to_length * float(np.sqrt(area))
        rank = (x + up[0] * length, y + up[1] * length)
        pips.append(Candidate(rank, (x, y), length))
    gray = np.asarray(cv2.cvtColor(card, cv2.COLOR_BGR2GRAY), np.uint8)
    notches = suit_notches(gray, pips) if pips else np.zeros(0, np.float32)
    measured = notches[~np.isnan(notches)]
    notch = float(np.median(measured)) if measured.size else float("nan")
    height = float(np.median(heights)) if heights else float("nan")
    return Pips(count, sum(red) > len(red) / 2, notch, height)


def _window(
    image: Frame, first: Corner, second: Corner, g: PipGeometry
) -> tuple[Frame, list[Point], float] | None:
    """A square window on the card's middle, scaled so its two index corners are ``g.diagonal`` apart and
    wide enough to hold the whole card however it is turned (a card's diagonal is about 1.2-1.4 of
    its index corners' distance); the index glyphs' middles in it; how far about each a mark is part of
    the glyph. None unless the corners are placed as two corners of one card."""
    (r1, s1), (r2, s2) = (np.array(first, np.float64), np.array(second, np.float64))
    c1, c2 = (r1 + s1) / 2, (r2 + s2) / 2
    diagonal = float(np.hypot(*(c2 - c1)))
    length = (float(np.hypot(*(s1 - r1))) + float(np.hypot(*(s2 - r2)))) / 2
    if diagonal < 4 * length:
        return None
    scale = g.diagonal / diagonal
    half = round(g.window * g.diagonal / 2)
    middle = (c1 + c2) / 2
    warp = np.array([[scale, 0, half - scale * middle[0]], [0, scale, half - scale * middle[1]]], np.float32)
    card = np.asarray(cv2.warpAffine(image, warp, (2 * half, 2 * half), flags=cv2.INTER_LINEAR), np.uint8)
    glyphs = [(float(x), float(y)) for x, y in (scale * (p - middle) + half for p in (r1, s1, r2, s2))]
    return card, glyphs, g.glyph_reach * length * scale


def _ranked(counts: npt.NDArray[np.int64], k: int) -> int:
    """The value at sorted position ``k`` of the pixels whose cumulative histogram is ``counts``."""
    return int(np.searchsorted(counts, k + 1))


def _percentile(values: npt.NDArray[np.uint8], q: float) -> float:
    """``np.percentile(values, q)`` of 8-bit values, to the last bit, from their histogram.

    Why: NumPy's percentile partitions a copy and costs about 0.1 ms a call whatever the size, and a
    first read of a table takes a few dozen. Its linear rule is followed step for step: the virtual
    position (n - 1) q / 100 between two sorted values a and b, a + (b - a) t below half way and
    b - (b - a) (1 - t) from there, in doubles.
    """
    counts = np.cumsum(np.bincount(values.ravel(), minlength=256))
    n = int(counts[-1])
    at = (n - 1) * (q / 100)
    below = math.floor(at)
    if at >= n - 1:
        return float(_ranked(counts, n - 1))
    a, b = _ranked(counts, below), _ranked(counts, below + 1)
    t = at - below
    return a + (b - a) * t if t < 0.5 else b - (b - a) * (1 - t)


def _median(values: npt.NDArray[np.uint8]) -> float:
    """``np.median(values)`` of 8-bit values, from their histogram (see :func:`_percentile`)."""
    counts = np.cumsum(np.bincount(values.ravel(), minlength=256))
    n = int(counts[-1])
    return (_ranked(counts, (n - 1) // 2) + _ranked(counts, n // 2)) / 2


def balanced(picture: Frame, g: PipGeometry = SHIPPED.pips.geometry) -> Frame:
    """``picture`` with its colours scaled so that the whitest of its pixels are grey.

    Why: card white under a warm lamp or a webcam's drifting white balance is tinted past what is taken
    for white (a saturation under 50-60), so a face showed no white and was taken for a back, and red
    ink's saturation drifts with the tint. The whitest pixels round a card are mostly its white (the
    median of them: a court's picture has pale yellows as bright). Only a tint between ``g.tinted``
    and ``g.cast`` is taken out.
    """
    # The brightest channel of each pixel, compared pairwise: a reduction along the three channels
    # costs twenty times as much.
    brightest = np.maximum(np.maximum(picture[..., 0], picture[..., 1]), picture[..., 2])
    whitest = brightest >= _percentile(brightest, 95)
    chosen = picture[whitest]
    white = np.array([_median(chosen[:, k]) for k in range(3)], np.float32)
    top = float(white.max())
    if top < 1 or not g.tinted / 255 <= 1.0 - float(white.min()) / top <= g.cast / 255:
        return picture  # no white, white enough, or a print's own colour
    gains = top / np.maximum(white, 1.0)
    out: Frame = np.asarray(np.clip(picture.astype(np.float32) * gains, 0, 255), np.uint8)
    return out


#: A card found in a window: where it lies, its middle, its axes across and along (see :func:`_face`).
_Found = tuple[npt.NDArray[np.bool_], Vector, Vector, Vector]
#: A window's card white: the window in HSV, how bright its card white is, and the card found in it.
_White = tuple[npt.NDArray[np.uint8], float, _Found]


#: A window lit: the window in HSV, and the brightest tenth of its middle half (see :func:`_lit`).
_Lit = tuple[npt.NDArray[np.uint8], float]


def _lit(card: Frame, g: PipGeometry) -> _Lit | None:
    """The window ``card`` white-balanced in HSV, and how bright the brightest tenth of its middle
    half is: the card white marks are seen against (see :func:`_card_white` and
    :meth:`Middle.outlined`, which both start from it); None where that is too dark for card white (a
    dark face)."""
    size = card.shape[0]
    quarter = size // 4
    hsv = np.asarray(cv2.cvtColor(balanced(card, g), cv2.COLOR_BGR2HSV), np.uint8)
    brightest = _percentile(hsv[quarter : size - quarter, quarter : size - quarter, 2], 90)
    return None if brightest < 60 else (hsv, brightest)


def _card_white(
    card: Frame, g: PipGeometry, glyphs: Sequence[Point] = (), lit: _Lit | None = None
) -> _White | None:
    """The window ``card`` in HSV, how bright its card white is, and the card found in it (see
    :func:`_face`; ``glyphs``: the middles of the rank and suit of its two index corners read, if any;
    ``lit``: :func:`_lit` of it, if already worked out); None where there is no card white to see
    marks against (a dark face) or no card of a card's shape."""
    lit = _lit(card, g) if lit is None else lit
    if lit is None:
        return None
    hsv, brightest = lit
    size = card.shape[0]
    quarter = size // 4
    middle = hsv[quarter : size - quarter, quarter : size - quarter]
    # A lamp's glare on the card can set the brightest tenth, and the rest of its white, dimmer than
    # three quarters of that, is then not seen as white: the pale pixels' median is card white then.
    pale = middle[..., 1] < g.pale
    papers = [brightest] if pale.mean() < 0.5 else [brightest, _median(middle[..., 2][pale])]
    for paper in papers:
        found = _face(hsv, paper, g) or (_face_apart(card, hsv, paper, glyphs, g) if glyphs else None)
        if found is not None:
            return hsv, paper, found
    return None


def _ink(
    hsv: npt.NDArray[np.uint8], paper: float, g: PipGeometry, depth: float | None = None
) -> npt.NDArray[np.bool_]:
    """What is printed on card white ``paper`` bright: dark, or coloured (red pips), thin lines taken
    away (a frame round the pips, as the demo deck prints, would otherwise join the pips it touches).
    ``depth``: only what is darker than this share of the white (``g.ink`` unless told), and red ink
    as much more saturated: the cores of pips a soft lens ran together (see ``PipGeometry.cores``)."""
    printed = _printed(hsv, paper, g, g.ink if depth is None else depth).astype(np.uint8)
    return np.asarray(cv2.morphologyEx(printed, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8)), np.uint8) > 0


def _printed(hsv: npt.NDArray[np.uint8], paper: float, g: PipGeometry, depth: float) -> npt.NDArray[np.bool_]:
    """Everything darker than ``depth`` of card white ``paper`` bright, or coloured, thin lines and all."""
    value = hsv[..., 2].astype(np.float32)
    coloured = (hsv[..., 1] > g.red_ink * g.ink / depth) & (value < 0.97 * paper + 8)
    printed: npt.NDArray[np.bool_] = (value < depth * paper) | coloured
    return printed


def _marks(
    seen: _White,
    glyphs: Sequence[Point] | None,
    reach: float,
    g: PipGeometry,
    corners: tuple[float, float] | None = None,
    depth: float | None = None,
) -> tuple[list[tuple[float, float, float]], tuple[Point, Vector]] | None:
    """The marks on the card whose white is ``seen`` in its window (see :func:`_card_white`) (area,
    x, y), its index glyphs left out, and the card's middle and long axis; None where the window shows
    no plain card: a mark too large for a pip, a mark where an index is printed. (Whether a pip is
    washed pale, :func:`_washed_out`, is asked only of marks that make a plain count: it costs as much
    as finding them.)

    Every mark on the card's face counts, wherever it lies: a pip passed over for where it lies (near
    an edge, far out along the card as some decks print the ends of a nine) would leave a count short
    by a pip and its opposite, which turned half round still looks like pips. With ``glyphs`` None (no
    index read), whatever lies in any of the four corners (``corners`` large, ``g.corner`` unless
    told) is taken for an index. ``depth``: the marks at that darkness (see :func:`_ink`).
    """
    hsv, paper, (face, centre, across, along) = seen
    size = hsv.shape[0]
    read: set[tuple[bool, bool] | None]
    if glyphs is None:
        read, glyphs = set(_EVERY_CORNER), []
    else:
        read = {_corner(glyph, centre, across, along, g.corner) for glyph in glyphs} - {None}
    ink = _ink(hsv, paper, g, depth).astype(np.uint8)
    n, labels, stats, centres = _components(ink)
    # How much of each mark lies on the card. Why not where its centre lies: a dark table is all one
    # mark round the card, centred on it.
    on_card = np.bincount(labels[face], minlength=n) / np.maximum(stats[:, cv2.CC_STAT_AREA], 1)
    # The marks passed over for what they are, all at once: most marks in a window are.
    wide, high, ink_area = (stats[:, k] for k in (cv2.CC_STAT_WIDTH, cv2.CC_STAT_HEIGHT, cv2.CC_STAT_AREA))
    passed = on_card < 0.5  # off the card: the table, a card beneath
    if glyphs:
        gx, gy = np.array(glyphs, np.float64).T
        # an index glyph
        passed |= (np.hypot(centres[:, 0, None] - gx, centres[:, 1, None] - gy) < reach).any(axis=1)
    passed |= ink_area < (0.25 * g.min_pip * g.diagonal) ** 2  # print noise
    longest = np.maximum(wide, high)
    passed |= (longest > g.line * g.diagonal) & (
        (ink_area < g.hollow * wide * high) | (longest > 4 * np.minimum(wide, high))
    )  # a line
    marks: list[tuple[float, float, float]] = []
    for k in np.flatnonzero(~passed[1:]).tolist():
        x, y, w, h, area = stats[k + 1].tolist()
        cx, cy = centres[k + 1].tolist()
        if x == 0 or y == 0 or x + w == size or y + h == size:
            return None  # a mark on the card running out of the window: more than one card
        if max(w, h) > g.max_pip * g.diagonal:
            return None  # no pip: a court's picture, an ace's pip, a chip
        corner = _corner((cx, cy), centre, across, along, g.corner if glyphs or corners is None else corners)
        if corner in read:
            continue  # part of an index read
        if corner is not None:
            return None  # an index not read: a deck printing four
        marks.append((float(area), cx, cy))
    return marks, ((float(centre[0]), float(centre[1])), along / float(np.hypot(*along)))


def _middle(
    face: npt.NDArray[np.bool_], centre: Vector, across: Vector, along: Vector, g: PipGeometry
) -> npt.NDArray[np.bool_]:
    """The card ``face`` without its four corners (``g.corner`` large), where indices are printed."""
    # Each pixel's offsets along the two axes as a column's part plus a row's: the very sums taken
    # over a grid of every pixel's place, with the products worked out once a row and once a column.
    place = np.arange(face.shape[0], dtype=np.float64)
    x, y = place - centre[0], place - centre[1]
    u = (x * across[0])[None, :] + (y * across[1])[:, None]
    v = (x * along[0])[None, :] + (y * along[1])[:, None]
    middle: npt.NDArray[np.bool_] = face & ~(
        (np.abs(u) > 0.5 - g.corner[0]) & (np.abs(v) > 0.5 - g.corner[1])
    )
    return middle


def _washed_out(seen: _White, g: PipGeometry) -> bool:
    """Whether a mark too pale to be ink lies on the card whose white is ``seen`` (see
    :func:`_card_white`): a pip under a lamp's glare, lifted to grey or pink.

    Why: glare can wash one pip out of the count and leave a count that is plain but wrong (a three's
    middle pip gone leaves a two). Solid ink is well under 0.6 of the card white's brightness, or
    deeply red; a mark short of that but darker than ``g.faint`` of the card white, dimmer than the
    white round it (``g.dimmer``) or pinker than card white (``g.pale_red``), of a pip's size or so
    and clear of solid ink's edge, is none of print, paper or noise. The corners of the card
    (:func:`_middle` leaves them out) are not looked at: a small card's index strokes, blurred, are
    as pale.
    """
    hsv, paper, (face, centre, across, along) = seen
    middle = _middle(face, centre, across, along, g)
    value = hsv[..., 2].astype(np.float32)
    inner = cv2.erode(middle.astype(np.uint8), np.ones((5, 5), np.uint8)) > 0
    saturation = hsv[..., 1]
    red = saturation[inner & (saturation > g.red_ink)]
    deepest = _percentile(red, 90) if red.size > g.pale_mark else 255.0
    solid = (value < g.ink * paper) | (saturation > max(g.red_ink, g.solid_red * deepest))
    near_ink = cv2.dilate(solid.astype(np.uint8), np.ones((5, 5), np.uint8)) > 0
    smooth = cv2.GaussianBlur(value, (0, 0), 1.0)  # sensor noise would lift the brightest white near by
    around = _disc_dilated(np.asarray(smooth, np.float32), g.around)
    faint = (value < g.faint * paper) | (smooth < g.dimmer * around) | (saturation > g.pale_red)
    pale = (inner & ~near_ink & faint).astype(np.uint8)
    n, _, stats, _ = _components(pale)
    return bool(n > 1 and stats[1:, cv2.CC_STAT_AREA].max() >= g.pale_mark)


def _components(
    mask: npt.NDArray[np.uint8],
) -> tuple[int, npt.NDArray[np.int32], npt.NDArray[np.int32], npt.NDArray[np.float64]]:
    """The 8-connected components of ``mask`` with their stats and centroids, as
    ``cv2.connectedComponentsWithStats`` gives them. Why block-based labelling (BBDT): the same labels
    in about half the time on one thread, and a card's middle is labelled three or four times."""
    n, labels, stats, centres = cv2.connectedComponentsWithStatsWithAlgorithm(
        mask, 8, cv2.CV_32S, cv2.CCL_BBDT
    )
    return int(n), np.asarray(labels, np.int32), np.asarray(stats, np.int32), np.asarray(centres, np.float64)


@functools.cache
def _disc_rows(size: int) -> tuple[tuple[int, int, int], ...]:
    """The ``size`` disc OpenCV's MORPH_ELLIPSE draws, as rectangles that together cover it: for each
    half-width its rows hold, the rectangle of rows at least that wide, as (half-width, first row,
    last row)."""
    disc = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (size, size))
    middle = size // 2
    halves = [int(np.flatnonzero(row).max()) - middle if row.any() else -1 for row in disc]
    out = []
    for half in sorted(set(halves) - {-1}):
        rows = [i for i, h in enumerate(halves) if h >= half]
        out.append((half, rows[0], rows[-1]))
    return tuple(out)


def _disc_dilated(image: npt.NDArray[np.float32], size: int) -> npt.NDArray[np.float32]:
    """``cv2.dilate(image, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (size, size)))``, to the bit.

    Why: the largest of a disc is the largest of the rectangles that cover it (see :func:`_disc_rows`),
    each placed where it lies in the disc, and OpenCV takes the largest under a rectangle row by row
    and then column by column, where under a disc it weighs every pixel of it: a third less work for
    a 15-pixel disc over a float window.
    """
    middle = size // 2
    parts = [
        np.asarray(
            cv2.dilate(image, np.ones((last - first + 1, 2 * half + 1), np.uint8), anchor=anchor), np.float32
        )
        for half, first, last in _disc_rows(size)
        for anchor in [(half, middle - first)]
    ]
    out = parts[0]
    for part in parts[1:]:
        np.maximum(out, part, out=out)
    return out


_EVERY_CORNER: Final = frozenset((across, along) for across in (False, True) for along in (False, True))


def _corner(
    point: Point, centre: Vector, across: Vector, along: Vector, reach: tuple[float, float]
) -> tuple[bool, bool] | None:
    """Which of the card's corners ``point`` lies in (``reach``: a corner's size, as
    PipGeometry.corner), or None for none of them."""
    u, v = (float((np.array(point) - centre) @ axis) for axis in (across, along))
    if abs(u) > 0.5 - reach[0] and abs(v) > 0.5 - reach[1]:
        return u > 0, v > 0
    return None


def _face(hsv: npt.NDArray[np.uint8], paper: float, g: PipGeometry) -> _Found | None:
    """Where the card lies in the window (the card white joined to its middle, with all it encloses),
    its middle, and its axes across and along, each scaled so the card spans -0.5..0.5 on it; None
    unless that is a card's shape.

    Why: the window reaches past a card's long edges, and a wooden table there is saturated enough to
    pass for red ink. The table is not card white, and a card's pips and glyphs are enclosed by its
    white. A shape that is no card's is two cards whose white runs together, or a card cut by another.
    """
    return _card_in(_white(hsv, paper, g))


def _largest_share(hsv: npt.NDArray[np.uint8], paper: float, card: _Found, g: PipGeometry) -> float:
    """The share of ``card``'s middle (its corners left out) that its largest mark covers, on card
    white ``paper`` bright."""
    middle = _middle(*card, g)
    ink = (_ink(hsv, paper, g) & middle).astype(np.uint8)
    n, _, stats, _ = _components(ink)
    largest = max((int(stats[k, cv2.CC_STAT_AREA]) for k in range(1, n)), default=0)
    return largest / max(int(middle.sum()), 1)


def _outline(glyphs: Sequence[Point], size: int, g: PipGeometry) -> _Found | None:
    """The card whose two opposite index corners have their glyphs' middles at ``glyphs`` (rank and
    suit of each, in a window ``size`` pixels square), as :func:`_face` gives a card: its face, middle
    and axes; None where no such card has the two indices in its opposite corners.

    The card lies between the two index middles, as wide as their distance over ``g.index_diagonal``
    and ``CARD_ASPECT`` times as long, its long side along one index's rank to suit: the first's, the
    second's turned half round, or the mean of the two, the first of those that puts each index in a
    corner, the two in opposite corners (a soft index's glyph middles can be off by a few degrees).
    """
    rank = [np.array(glyphs[0]), np.array(glyphs[2])]
    suit = [np.array(glyphs[1]), np.array(glyphs[3])]
    first, second = (rank[0] + suit[0]) / 2, (rank[1] + suit[1]) / 2
    centre = (first + second) / 2
    width = float(np.hypot(*(second - first))) / g.index_diagonal
    length = CARD_ASPECT * width
    downs = [(suit[0] - rank[0]), (rank[1] - suit[1])]
    downs = [d / max(float(np.hypot(*d)), 1e-6) for d in downs]
    downs.append(downs[0] + downs[1])
    for down in downs:
        down = down / max(float(np.hypot(*down)), 1e-6)
        across = np.array([-down[1], down[0]]) / width
        along = down / length
        if not _read_on(glyphs, centre, across, along, g):
            continue
        angle = math.degrees(math.atan2(down[1], down[0]))
        face = np.zeros((size, size), np.uint8)
        box = cv2.boxPoints(((float(centre[0]), float(centre[1])), (length, width), angle))
        cv2.fillConvexPoly(face, np.round(box).astype(np.int32), 1)
        return face.astype(bool), centre, across, along
    return None


def _white(hsv: npt.NDArray[np.uint8], paper: float, g: PipGeometry) -> npt.NDArray[np.uint8]:
    """Card white, ``paper`` bright: pale, and at least three quarters as bright."""
    return ((hsv[..., 1] < g.pale) & (hsv[..., 2] > 0.75 * paper)).astype(np.uint8)


def _face_apart(
    card: Frame, hsv: npt.NDArray[np.uint8], paper: float, glyphs: Sequence[Point], g: PipGeometry
) -> _Found | None:
    """The card whose two index corners were read (``glyphs``, see :func:`_window`), as :func:`_face`
    finds it, where its white runs into the white of a card it lies on or beside; None unless the card
    found is the one its indices were read on.

    Why: a card lying over another casts only a soft line of shadow on it, too light to part their
    whites at the window's size (a three lying over a nine on a phone photo, its two corners read as 3
    and 5, was left with no count), but an edge still: every edge in the window is cut out of the white.
    """
    gray = cv2.cvtColor(card, cv2.COLOR_BGR2GRAY)
    edges = cv2.Canny(gray, g.edge * paper, 2 * g.edge * paper)
    parted = _white(hsv, paper, g) & (cv2.dilate(edges, np.ones((3, 3), np.uint8)) == 0)
    found = _card_in(parted.astype(np.uint8), pared=True)
    if found is None or not _read_on(glyphs, *found[1:], g):
        return None
    return found


def _card_in(white: npt.NDArray[np.uint8], pared: bool = False) -> _Found | None:
    """The card in the window whose card white (``white``) is joined to the window's middle, as
    :func:`_face` returns it, or None. ``pared``: the white was pared round every edge printed on it,
    so the card is taken to be the rectangle its white spans, not the white itself. Why: pared, the
    white between a pip and the card's edge can part, and the pip with it (a ten counted eight)."""
    size = white.shape[0]
    n, labels = cv2.connectedComponentsWithAlgorithm(white, 8, cv2.CV_32S, cv2.CCL_BBDT)
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
    if pared:
        box = cv2.boxPoints(((mx, my), (rw + 2, rh + 2), angle))  # grown by the pixel pared off
        cv2.fillConvexPoly(face, np.round(box).astype(np.int32), 1)
    else:
        cv2.drawContours(face, [shape], -1, 1, -1)
    middle = np.array([mx, my])
    return face.astype(bool), middle, across, along


def _read_on(glyphs: Sequence[Point], centre: Vector, across: Vector, along: Vector, g: PipGeometry) -> bool:
    """Whether the card found (``centre``, ``across``, ``along``, as :func:`_face` gives them) is the
    one whose two index corners were read (``glyphs``: rank and suit middles of each): each index on
    it, in a corner of it, the two in opposite corners."""
    ends = []
    for (gx, gy), (sx, sy) in (glyphs[:2], glyphs[2:]):
        point = np.array([(gx + sx) / 2, (gy + sy) / 2])
        if max(abs(float((point - centre) @ axis)) for axis in (across, along)) > 0.5:
            return False
        ends.append(_corner((float(point[0]), float(point[1])), centre, across, along, g.corner))
    first_end, second_end = ends
    return (
        first_end is not None
        and second_end is not None
        and all(p != q for p, q in zip(first_end, second_end, strict=True))
    )


def _plain(
    marks: Sequence[tuple[float, float, float]], middle: Point, along: npt.NDArray[np.float64], g: PipGeometry
) -> int | None:
    """The pip count the marks make, or None unless they are plainly pips: two to ten marks of a pip's
    size, all of one size, laid out as pips are laid. (An ace is not counted: its one pip, often
    large and ornate, is too like anything else that lies alone in a card's middle.)"""
    largest = max((a for a, _, _ in marks), default=0.0)
    if largest < (g.min_pip * g.diagonal) ** 2:
        return None
    big = [a for a, _, _ in marks if a >= largest / g.pip_spread**2]
    median = float(np.median(big))
    pips = [(x, y) for a, x, y in marks if median / g.pip_spread <= a <= median * g.pip_spread]
    others = [
        a
        for a, _, _ in marks
        if not median / g.pip_spread <= a <= median * g.pip_spread and a > g.speck * median
    ]
    if others or not 2 <= len(pips) <= 10 or not _laid_out(pips, middle, along, g):
        return None
    return len(pips)


def _laid_out(pips: Sequence[Point], middle: Point, along: npt.NDArray[np.float64], g: PipGeometry) -> bool:
    """Whether ``pips`` stand as a card's pips do: turned half round about the card's ``middle``, every
    pip lands on a pip, but for at most one on the card's middle line (``along`` it: a seven's odd pip).

    Why: a mark of a pip's size that is no pip (a chip's rim, a speck of glare's shadow) has no pip
    opposite it, and counted it would make a four a five.
    """
    reach = g.symmetry * g.diagonal
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
