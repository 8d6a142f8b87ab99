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
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Final

import cv2
import numpy as np
import numpy.typing as npt

from companion.vision.index import Candidate, suit_notches
from companion.vision.settings import SHIPPED, PipSettings
from companion.vision.types import Frame

__all__ = [
    "DIAGONAL",
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
#: Corners as large as the largest indices printed (the demo deck's reaches 0.22 across and 0.3 along).
#: Where no index was read, a card's pips are counted twice, with corners of either size, and the count
#: stands only if the two agree. Why: a deck whose index reaches past CORNER has its index suit marks
#: counted as pips (pip-sized, and turned half round about the middle as pips are: the demo deck's
#: fives counted seven), while one whose outer pips stand in WIDE_CORNER loses them, again in pairs.
WIDE_CORNER: Final = (0.25, 0.32)
#: Card white darker than this share of its brightness, and away from anything printed, is a pale
#: mark (see :func:`_washed_out`); one of PALE_MARK pixels or more (in the window: a ten's pip is about
#: 80) spoils the count. At 0.8 the real deck's photos lost a third of their counts to their own
#: shading; at 0.7 none, and a glare's grey pip (0.6-0.67 of the card white) is still seen.
FAINT: Final = 0.7
PALE_MARK: Final = 25
#: A mark darker than DIMMER of the brightest card white within AROUND pixels of it (in the window, a
#: pip is 9-12 wide; both smoothed a little first) is pale too, however bright the glare has made it:
#: glare lifted a three's middle pip to 0.63-0.78 of the card white beside it, FAINT alone saw too
#: little of it, and the three was counted a two. The card's own shading changes too slowly to dim
#: anything by a quarter over a pip's width; at 0.78 and above the blur and noise round a small card's
#: pips in dim light did (0.7-0.75 keep every frame tried).
DIMMER: Final = 0.72
AROUND: Final = 15
#: Red ink is solid above SOLID_RED of the saturation of the card's deepest red (the real deck's red
#: pips: 170 or so; a small card's, through a webcam's JPEG, much less), and a mark redder than card
#: white (PALE_RED; card white is below 40, tinted more it is balanced) but not solid is a red pip
#: washed pink by glare (60-107 seen): one a five lost, counted four.
SOLID_RED: Final = 0.75
PALE_RED: Final = 55
#: The window looked in, as a share of the distance between the index corners: a whole card fits.
WINDOW: Final = 1.5
#: The distance between a card's two index middles, as a share of the card's width: the window on a
#: card found by its outline is scaled as one found by its indices (the real deck 1.2, the demo deck 1.25).
INDEX_DIAGONAL: Final = 1.24
#: Ink whose saturation is over this is coloured (a red suit's).
RED_INK: Final = 90
#: A pip is cut out for its outline as an index's suit mark is, the rank-to-suit distance this many
#: times the square root of the pip's area (a suit mark is about 0.6 of that distance tall).
PIP_TO_LENGTH: Final = 2.2
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
    found = pips_between(image, first, second)
    return None if found is None else found.count


def pips_between(image: Frame, first: Corner, second: Corner) -> Pips | None:
    """The pips of the card whose two opposite index corners are ``first`` and ``second`` (see
    :func:`count_pips`), their count and, as :func:`pips_of` gives them, their colour and shape; None
    when the card's middle shows no plain count."""
    found = Middle(image, first, second).counted()
    return None if found is None else found.shape()


def shows_picture(image: Frame, first: Corner, second: Corner, settings: PipSettings = SHIPPED.pips) -> bool:
    """Whether the card whose opposite index corners are ``first`` and ``second`` shows a picture in
    its middle, as a court card does: one mark there covering more than ``settings.picture`` of it (see
    :func:`picture_share`).

    Why: two corners of one card read as a court and as a number (a jumbo "J" read as a 7, a serif "K"
    as a 10) are told apart by the card's middle, and where the pips cannot be counted (a court's
    picture gives no count) the picture itself says which.
    """
    share = picture_share(image, first, second)
    return share is not None and share > settings.picture


def picture_share(image: Frame, first: Corner, second: Corner) -> float | None:
    """The share of the middle of the card whose opposite index corners are ``first`` and ``second``
    (its four corners, where indices are printed, left out) that its largest mark covers; None where no
    card of a card's shape lies whole there, or it is not the card both corners were read on."""
    return Middle(image, first, second).picture()


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

    def __init__(self, image: Frame, first: Corner, second: Corner) -> None:
        window = _window(image, first, second)
        self._window = window
        self._seen = None if window is None else _card_white(window[0], window[1])
        self._counted: Counted | None = None
        self._count_asked = False
        self._shape: Pips | None = None
        self._picture: float | None = None
        self._picture_asked = False

    def counted(self) -> Counted | None:
        """The plain count of the card's pips (see :func:`count_pips`), or None."""
        if not self._count_asked:
            self._count_asked = True
            self._counted = self._count()
        return self._counted

    def _count(self) -> Counted | None:
        if self._window is None or self._seen is None:
            return None
        card, glyphs, reach = self._window
        seen = self._seen
        found = _marks(seen, glyphs, reach)
        if found is None:
            return None
        marks, (centre, along) = found
        count = _plain(marks, centre, along)
        if count is None or _washed_out(seen):
            return None

        def shape() -> Pips:
            if self._shape is None:
                self._shape = _suit_shape(card, seen[:2], count, marks, centre, along)
            return self._shape

        return Counted(count, shape)

    def picture(self) -> float | None:
        """The share of the card's middle its largest mark covers (see :func:`picture_share`), or
        None."""
        if not self._picture_asked:
            self._picture_asked = True
            self._picture = self._share()
        return self._picture

    def _share(self) -> float | None:
        if self._window is None or self._seen is None:
            return None
        hsv, paper, (face, centre, across, along) = self._seen
        # The card found must be the one both corners were read on (a card in a row lies between one
        # card's bottom corner and the next's top).
        if not _read_on(self._window[1], centre, across, along):
            return None
        middle = _middle(face, centre, across, along)
        ink = (_ink(hsv, paper) & middle).astype(np.uint8)
        n, _, stats, _ = _components(ink)
        largest = max((int(stats[k, cv2.CC_STAT_AREA]) for k in range(1, n)), default=0)
        return largest / max(int(middle.sum()), 1)


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


def pips_of(image: Frame, outline: Sequence[Point]) -> Pips | None:
    """The pips of the face-up card whose outline (four corners, image pixels) is ``outline``, when
    their count is plain, with their colour and shape; None otherwise.

    Why: an index can be unreadable where the card's middle is not. A webcam high over the table sees
    a card 70-90 pixels wide, its rank glyph a few soft pixels, while its pips, three times the size,
    still stand apart; a lamp's glare can wash out one corner. The count names the rank, and the pips'
    colour and outline (a heart's cleft and a club's lobes against a diamond's and a spade's plain
    sides) the suit. Whatever lies in the card's four corners is taken for its indices.
    """
    (cx, cy), size, _ = cv2.minAreaRect(np.asarray(outline, np.float32))
    if min(size) < 1:
        return None
    scale = DIAGONAL / (INDEX_DIAGONAL * min(size))
    half = round(WINDOW * DIAGONAL / 2)
    warp = np.array([[scale, 0, half - scale * cx], [0, scale, half - scale * cy]], np.float32)
    card = np.asarray(cv2.warpAffine(image, warp, (2 * half, 2 * half), flags=cv2.INTER_CUBIC), np.uint8)
    seen = _card_white(card)
    if seen is None:
        return None
    counts = []
    for corners in (CORNER, WIDE_CORNER):
        found = _marks(seen, None, 0.0, corners)
        if found is None:
            return None
        marks, (middle, along) = found
        counts.append(_plain(marks, middle, along))
    count = counts[0]
    if count is None or counts[1] != count:
        return None  # the count depends on where the indices are taken to end: not plain
    if _washed_out(seen):
        return None
    return _suit_shape(card, seen[:2], count, marks, middle, along)


def _suit_shape(
    card: Frame,
    white: tuple[npt.NDArray[np.uint8], float],
    count: int,
    marks: Sequence[tuple[float, float, float]],
    middle: Point,
    along: Vector,
) -> Pips:
    """The colour and shape of the pips ``marks`` (area, x, y) of the card in the window ``card``
    (``white``: the window in HSV and how bright its card white is, see :func:`_card_white`), whose
    middle and long axis are ``middle`` and ``along`` (a unit vector)."""
    hsv, paper = white
    ink = _ink(hsv, paper).astype(np.uint8)
    _, labels = cv2.connectedComponents(ink, connectivity=8)
    coloured = hsv[..., 1] > RED_INK
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
        if abs(off) < SYMMETRY * DIAGONAL:
            continue  # on the middle line: either way up
        up = along * np.sign(off)
        if k:
            ys, xs = np.nonzero(labels == k)
            depth = -(np.stack([xs, ys], axis=1).astype(np.float64) @ up)
            tall = float(depth.max() - depth.min())
            if tall >= 4:
                heights.append(float(depth.mean() - depth.min()) / tall)
        length = PIP_TO_LENGTH * float(np.sqrt(area))
        rank = (x + up[0] * length, y + up[1] * length)
        pips.append(Candidate(rank, (x, y), length))
    gray = np.asarray(cv2.cvtColor(card, cv2.COLOR_BGR2GRAY), np.uint8)
    notches = suit_notches(gray, pips) if pips else np.zeros(0, np.float32)
    measured = notches[~np.isnan(notches)]
    notch = float(np.median(measured)) if measured.size else float("nan")
    height = float(np.median(heights)) if heights else float("nan")
    return Pips(count, sum(red) > len(red) / 2, notch, height)


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


#: How far a lamp's or a camera's colour tips card white, as the saturation (0-255) of the whitest
#: pixels, before it is taken out (TINTED), and the most it is taken to tip it (CAST). Below TINTED card
#: white still passes for white (a saturation under 50-60), and the pale yellows of a court's picture
#: stay darker than it, which evening them out would undo (a real deck photographed slightly blue,
#: 26, lost three courts' pictures). A webcam's drifting white balance under a warm or a cool lamp tips
#: it up to about 85; whitest pixels more coloured than CAST are a tinted print (a back), not a light.
TINTED: Final = 40
CAST: Final = 100
#: Card white's saturation is under this (0-255), whatever its brightness.
PALE: Final = 60


def balanced(picture: Frame) -> Frame:
    """``picture`` with its colours scaled so that the whitest of its pixels are grey.

    Why: card white under a warm lamp or a webcam's drifting white balance is tinted past what is taken
    for white (a saturation under 50-60), so a face showed no white and was taken for a back, and red
    ink's saturation drifts with the tint. The whitest pixels round a card are mostly its white (the
    median of them: a court's picture has pale yellows as bright). Only a tint between TINTED and CAST
    is taken out.
    """
    # The brightest channel of each pixel, compared pairwise: a reduction along the three channels
    # costs twenty times as much.
    brightest = np.maximum(np.maximum(picture[..., 0], picture[..., 1]), picture[..., 2])
    whitest = brightest >= np.percentile(brightest, 95)
    white = np.median(picture[whitest], axis=0).astype(np.float32)
    top = float(white.max())
    if top < 1 or not TINTED / 255 <= 1.0 - float(white.min()) / top <= CAST / 255:
        return picture  # no white, white enough, or a print's own colour
    gains = top / np.maximum(white, 1.0)
    out: Frame = np.asarray(np.clip(picture.astype(np.float32) * gains, 0, 255), np.uint8)
    return out


#: A card found in a window: where it lies, its middle, its axes across and along (see :func:`_face`).
_Found = tuple[npt.NDArray[np.bool_], Vector, Vector, Vector]
#: A window's card white: the window in HSV, how bright its card white is, and the card found in it.
_White = tuple[npt.NDArray[np.uint8], float, _Found]


def _card_white(card: Frame, glyphs: Sequence[Point] = ()) -> _White | None:
    """The window ``card`` in HSV, how bright its card white is, and the card found in it (see
    :func:`_face`; ``glyphs``: the middles of the rank and suit of its two index corners read, if any);
    None where there is no card white to see marks against (a dark face) or no card of a card's shape."""
    size = card.shape[0]
    quarter = size // 4
    hsv = np.asarray(cv2.cvtColor(balanced(card), cv2.COLOR_BGR2HSV), np.uint8)
    middle = hsv[quarter : size - quarter, quarter : size - quarter]
    brightest = float(np.percentile(middle[..., 2], 90))
    if brightest < 60:
        return None
    # A lamp's glare on the card can set the brightest tenth, and the rest of its white, dimmer than
    # three quarters of that, is then not seen as white: the pale pixels' median is card white then.
    pale = middle[..., 1] < PALE
    papers = [brightest] if pale.mean() < 0.5 else [brightest, float(np.median(middle[..., 2][pale]))]
    for paper in papers:
        found = _face(hsv, paper) or (_face_apart(card, hsv, paper, glyphs) if glyphs else None)
        if found is not None:
            return hsv, paper, found
    return None


def _ink(hsv: npt.NDArray[np.uint8], paper: float) -> npt.NDArray[np.bool_]:
    """What is printed on card white ``paper`` bright: dark, or coloured (red pips), thin lines taken
    away (a frame round the pips, as the demo deck prints, would otherwise join the pips it touches)."""
    printed = _printed(hsv, paper).astype(np.uint8)
    return np.asarray(cv2.morphologyEx(printed, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8)), np.uint8) > 0


def _printed(hsv: npt.NDArray[np.uint8], paper: float) -> npt.NDArray[np.bool_]:
    """Everything dark or coloured on card white ``paper`` bright, thin lines and all."""
    value = hsv[..., 2].astype(np.float32)
    coloured = (hsv[..., 1] > RED_INK) & (value < 0.97 * paper + 8)
    printed: npt.NDArray[np.bool_] = (value < 0.6 * paper) | coloured
    return printed


def _marks(
    seen: _White, glyphs: Sequence[Point] | None, reach: float, corners: tuple[float, float] = CORNER
) -> tuple[list[tuple[float, float, float]], tuple[Point, Vector]] | None:
    """The marks on the card whose white is ``seen`` in its window (see :func:`_card_white`) (area,
    x, y), its index glyphs left out, and the card's middle and long axis; None where the window shows
    no plain card: a mark too large for a pip, a mark where an index is printed. (Whether a pip is
    washed pale, :func:`_washed_out`, is asked only of marks that make a plain count: it costs as much
    as finding them.)

    Every mark on the card's face counts, wherever it lies: a pip passed over for where it lies (near
    an edge, far out along the card as some decks print the ends of a nine) would leave a count short
    by a pip and its opposite, which turned half round still looks like pips. With ``glyphs`` None (no
    index read), whatever lies in any of the four corners (``corners`` large, as CORNER) is taken for
    an index.
    """
    hsv, paper, (face, centre, across, along) = seen
    size = hsv.shape[0]
    read: set[tuple[bool, bool] | None]
    if glyphs is None:
        read, glyphs = set(_EVERY_CORNER), []
    else:
        read = {_corner(glyph, centre, across, along) for glyph in glyphs} - {None}
    ink = _ink(hsv, paper).astype(np.uint8)
    n, labels, stats, centres = _components(ink)
    # How much of each mark lies on the card. Why not where its centre lies: a dark table is all one
    # mark round the card, centred on it.
    on_card = np.bincount(labels[face], minlength=n) / np.maximum(stats[:, cv2.CC_STAT_AREA], 1)
    marks: list[tuple[float, float, float]] = []
    for k in range(1, n):
        x, y, w, h, area = (int(v) for v in stats[k])
        cx, cy = (float(v) for v in centres[k])
        if on_card[k] < 0.5:
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
        corner = _corner((cx, cy), centre, across, along, CORNER if glyphs else corners)
        if corner in read:
            continue  # part of an index read
        if corner is not None:
            return None  # an index not read: a deck printing four
        marks.append((float(area), cx, cy))
    return marks, ((float(centre[0]), float(centre[1])), along / float(np.hypot(*along)))


def _middle(
    face: npt.NDArray[np.bool_], centre: Vector, across: Vector, along: Vector
) -> npt.NDArray[np.bool_]:
    """The card ``face`` without its four corners (CORNER large), where indices are printed."""
    yy, xx = _grid(face.shape[0])
    u = (xx - centre[0]) * across[0] + (yy - centre[1]) * across[1]
    v = (xx - centre[0]) * along[0] + (yy - centre[1]) * along[1]
    middle: npt.NDArray[np.bool_] = face & ~((np.abs(u) > 0.5 - CORNER[0]) & (np.abs(v) > 0.5 - CORNER[1]))
    return middle


def _washed_out(seen: _White) -> bool:
    """Whether a mark too pale to be ink lies on the card whose white is ``seen`` (see
    :func:`_card_white`): a pip under a lamp's glare, lifted to grey or pink.

    Why: glare can wash one pip out of the count and leave a count that is plain but wrong (a three's
    middle pip gone leaves a two). Solid ink is well under 0.6 of the card white's brightness, or
    deeply red; a mark short of that but darker than FAINT of the card white, dimmer than the white
    round it (DIMMER) or pinker than card white (PALE_RED), of a pip's size or so and clear of solid
    ink's edge, is none of print, paper or noise. The corners of the card (:func:`_middle` leaves them
    out) are not looked at: a small card's index strokes, blurred, are as pale.
    """
    hsv, paper, (face, centre, across, along) = seen
    middle = _middle(face, centre, across, along)
    value = hsv[..., 2].astype(np.float32)
    inner = cv2.erode(middle.astype(np.uint8), np.ones((5, 5), np.uint8)) > 0
    saturation = hsv[..., 1]
    red = saturation[inner & (saturation > RED_INK)]
    deepest = float(np.percentile(red, 90)) if red.size > PALE_MARK else 255.0
    solid = (value < 0.6 * paper) | (saturation > max(RED_INK, SOLID_RED * deepest))
    near_ink = cv2.dilate(solid.astype(np.uint8), np.ones((5, 5), np.uint8)) > 0
    smooth = cv2.GaussianBlur(value, (0, 0), 1.0)  # sensor noise would lift the brightest white near by
    around = cv2.dilate(smooth, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (AROUND, AROUND)))
    faint = (value < FAINT * paper) | (smooth < DIMMER * around) | (saturation > PALE_RED)
    pale = (inner & ~near_ink & faint).astype(np.uint8)
    n, _, stats, _ = _components(pale)
    return bool(n > 1 and stats[1:, cv2.CC_STAT_AREA].max() >= PALE_MARK)


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
def _grid(size: int) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
    """Row and column of every pixel of a ``size`` square window (made once: every window is one
    size)."""
    yy, xx = np.mgrid[0:size, 0:size].astype(np.float64)
    yy.flags.writeable = False
    xx.flags.writeable = False
    return yy, xx


_EVERY_CORNER: Final = frozenset((across, along) for across in (False, True) for along in (False, True))


def _corner(
    point: Point, centre: Vector, across: Vector, along: Vector, reach: tuple[float, float] = CORNER
) -> tuple[bool, bool] | None:
    """Which of the card's corners ``point`` lies in (``reach``: a corner's size, as CORNER), or None
    for none of them."""
    u, v = (float((np.array(point) - centre) @ axis) for axis in (across, along))
    if abs(u) > 0.5 - reach[0] and abs(v) > 0.5 - reach[1]:
        return u > 0, v > 0
    return None


def _face(hsv: npt.NDArray[np.uint8], paper: float) -> _Found | None:
    """Where the card lies in the window (the card white joined to its middle, with all it encloses),
    its middle, and its axes across and along, each scaled so the card spans -0.5..0.5 on it; None
    unless that is a card's shape.

    Why: the window reaches past a card's long edges, and a wooden table there is saturated enough to
    pass for red ink. The table is not card white, and a card's pips and glyphs are enclosed by its
    white. A shape that is no card's is two cards whose white runs together, or a card cut by another.
    """
    return _card_in(_white(hsv, paper))


def _white(hsv: npt.NDArray[np.uint8], paper: float) -> npt.NDArray[np.uint8]:
    """Card white, ``paper`` bright: pale, and at least three quarters as bright."""
    return ((hsv[..., 1] < PALE) & (hsv[..., 2] > 0.75 * paper)).astype(np.uint8)


def _face_apart(
    card: Frame, hsv: npt.NDArray[np.uint8], paper: float, glyphs: Sequence[Point]
) -> _Found | None:
    """The card whose two index corners were read (``glyphs``, see :func:`_window`), as :func:`_face`
    finds it, where its white runs into the white of a card it lies on or beside; None unless the card
    found is the one its indices were read on.

    Why: a card lying over another casts only a soft line of shadow on it, too light to part their
    whites at the window's size (a three lying over a nine on a phone photo, its two corners read as 3
    and 5, was left with no count), but an edge still: every edge in the window is cut out of the white.
    """
    gray = cv2.cvtColor(card, cv2.COLOR_BGR2GRAY)
    edges = cv2.Canny(gray, EDGE * paper, 2 * EDGE * paper)
    parted = _white(hsv, paper) & (cv2.dilate(edges, np.ones((3, 3), np.uint8)) == 0)
    found = _card_in(parted.astype(np.uint8), pared=True)
    if found is None or not _read_on(glyphs, *found[1:]):
        return None
    return found


#: The weaker of the two edge strengths (shares of card white's brightness) that part a card from
#: another it lies on. On the phone photo that showed the need, 0.06 to 0.1 all parted the two.
EDGE: Final = 0.08


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


def _read_on(glyphs: Sequence[Point], centre: Vector, across: Vector, along: Vector) -> bool:
    """Whether the card found (``centre``, ``across``, ``along``, as :func:`_face` gives them) is the
    one whose two index corners were read (``glyphs``: rank and suit middles of each): each index on
    it, in a corner of it, the two in opposite corners."""
    ends = []
    for (gx, gy), (sx, sy) in (glyphs[:2], glyphs[2:]):
        point = np.array([(gx + sx) / 2, (gy + sy) / 2])
        if max(abs(float((point - centre) @ axis)) for axis in (across, along)) > 0.5:
            return False
        ends.append(_corner((float(point[0]), float(point[1])), centre, across, along))
    first_end, second_end = ends
    return (
        first_end is not None
        and second_end is not None
        and all(p != q for p, q in zip(first_end, second_end, strict=True))
    )


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
