"""Fitting the table's plane (:class:`~companion.vision.plane.TablePlane`) from the cards' outlines.

How (:func:`fit_plane`, once, at calibration): a playing card is a rectangle of known shape, so the
outline of one card seen at a slant -- four corners where a rectangle's should be -- tells how the
table's plane is distorted, up to where the view from above is placed, turned and scaled (which the
straightening leaves free). Several cards say it more surely: the fit asks for one homography that
makes every card's outline the same rectangle, each at a place and turn of its own. That all of them
come out the same size is what tells the far side from the near. The outline of each card read is
found from its white (:func:`card_outlines`): the face's white runs unbroken round its pips and inside
its border, and its outer edge is the card's edge, whatever the table is.

The card's shape is fitted too, held near :data:`ASPECT`: decks differ (poker cards are 88 x 63 mm,
1.40; bridge cards 88 x 57 mm, 1.54; the project's real deck photos 1.54, its demo deck 1.50). Cards
lying at different turns settle it, and so do the far side's cards looking smaller than the near
side's; where nothing does (cards all lying one way under a camera straight above) the fit keeps near
the middle value, wrong by a few per cent at most: a view the recogniser reads as well as from above.

A camera straight above (or nearly: see :data:`FLAT`) needs no warp, and :func:`fit_plane` then says so
(None): every frame is read as it comes.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Final, NamedTuple

import cv2
import numpy as np
import numpy.typing as npt

from companion.vision.index import PATCH_LENGTH
from companion.vision.plane import Detector, TablePlane, TopDown, stretch_at
from companion.vision.recognise import INDEX_SHARE
from companion.vision.types import Frame, Sighting

__all__ = [
    "ASPECT",
    "FLAT",
    "Fit",
    "Levelled",
    "Levelling",
    "Outline",
    "card_outline",
    "card_outlines",
    "fit_of",
    "fit_plane",
    "fitted",
    "rectifying",
]

F64 = npt.NDArray[np.float64]
Quad = tuple[tuple[float, float], tuple[float, float], tuple[float, float], tuple[float, float]]


class Outline(NamedTuple):
    """A card's outline: its four corners, clockwise on the screen, and whether the side from the first
    to the second is known to run across the card (its index said which way the card lies)."""

    corners: Quad
    across: bool


#: A card's length over its width the fit is held near when the cards cannot settle it (between a
#: poker deck's 1.40 and a bridge deck's 1.54), and the range it may take.
ASPECT: Final = 1.47
ASPECT_RANGE: Final = (1.3, 1.65)
#: How firmly the aspect is held near ASPECT (per unit of aspect, in card widths of a corner's
#: distance): a change of 0.1 weighs as much as one corner 0.004 card widths out of place, a quarter
#: of a pixel on a card 60 pixels wide; the hold only decides where the cards cannot.
ASPECT_HOLD: Final = 0.04
#: A view is taken as straight from above when the plane stretches no part of the frame by more than
#: this share more in one direction than in another, and no part of it is this share larger than
#: another: a camera within about 4 degrees of straight down (a 60-degree lens; at 5 degrees the
#: frame's corners are stretched 6 % and 9 %). Fits to straight-down tables stretch at most 1.1 %.
FLAT: Final = 0.06
#: A card's outline whose corners lie this far (root mean square, in card widths) from the rectangle
#: fitted to all the cards is no card's (or another's is not: corners are found to about a hundredth of
#: a card's width).
ODD_CARD: Final = 0.04
#: How much wider a card is in the view from above than the middle one of those fitted was in the
#: frame: the far side's indices, shrunk by the slant, gain pixels back (at 45 degrees, on the tables
#: of seeds 0-5, 60 of 63 cards found so, where cards kept at the middle one's width gave 54).
GROW: Final = 1.25
#: The view from above is at most this many times the frame's area (the far side of a steep view
#: would otherwise grow without end): cards are shrunk to fit, down to LEAST_GROW, and past that the
#: view's far side is cut off.
MOST_AREA: Final = 3.0
#: How much wider a card is in the view from above, at the least, than the middle one of those fitted
#: was in the frame. Why: at 60 degrees, shrunk to fit the whole frame in MOST_AREA, cards were 37-47
#: pixels wide in the view and 6 of 153 were found on the tuning tables (seeds 0-14), where the frame
#: as it came gave 65; the far side cut off is where a card shows fewer pixels than anywhere else.
LEAST_GROW: Final = 1.0
#: A card's outline is taken when its white's outer edge fills this share of the quadrilateral fitted
#: to it (two cards overlapping, or a card under a hand, do not).
FILL: Final = 0.93


# ------------------------------------------------------------------------------------- outlines
def card_outlines(frame: Frame, sightings: Iterable[Sighting]) -> list[Outline]:
    """The outlines of the cards named in ``sightings`` whose white stands clear in ``frame``: each
    alone on its stretch of card white, and that white's outer edge a quadrilateral (see :data:`FILL`)
    clear of the frame's edge. Where the card was named by an index, the outline starts with a side
    across the card: an index is read along the card's length (see :func:`_across`).

    Why from the white: it is the card's own, whatever the table is; where cards overlap their white
    runs together and no quadrilateral fits it, so such cards are left out rather than misread. The
    white is the card's own as seen round its index (a lamp tints it, a shadow greys it), looked for
    near the card only: the table elsewhere may be as pale.
    """
    named = [s for s in sightings if s.card is not None]
    quads: list[Outline] = []
    for s in named:
        quad = card_outline(frame, s, named)
        if quad is None:
            continue
        if any(cv2.pointPolygonTest(np.array(q.corners, np.float32), s.center, False) >= 0 for q in quads):
            continue  # this card's outline is taken already (both its corners were read)
        quads.append(quad)
    return quads


def card_outline(frame: Frame, s: Sighting, named: Sequence[Sighting]) -> Outline | None:
    """The outline of the card named by ``s`` in ``frame`` where its white stands clear (see
    :func:`card_outlines`; ``named``: every card named in the frame, whose indices must not lie on it),
    else None."""
    h, w = frame.shape[:2]
    found = _white_around(frame, s)
    if found is None:
        return None
    mask, (x0, y0) = found
    ys, xs = np.nonzero(mask)
    if xs.min() + x0 <= 1 or ys.min() + y0 <= 1 or xs.max() + x0 >= w - 2 or ys.max() + y0 >= h - 2:
        return None  # cut by the frame's edge
    quad = _outer_quad(mask, (x0, y0))
    if quad is None:
        return None
    edge = np.array(quad, np.float32)
    if any(cv2.pointPolygonTest(edge, o.center, False) >= 0 for o in named if o.label != s.label):
        return None  # another card's index on this white: cards run together, whatever its shape
    return _across(quad, s)


def _across(quad: Quad, s: Sighting) -> Outline:
    """``quad``, the outline of the card named by ``s``, started with a side across the card where
    ``s`` says which way the card lies.

    Why: a card's outline alone does not say which of its sides are the long ones. Seen at a slant, a
    card lying along the line of sight looks wider than long; and where every card lies one way, a plane
    squashing the table sideways fits their outlines as well as the true one, each card taken to lie
    across (two cards side by side under a camera straight above were fitted so, as if from a slant of
    60 degrees). The index settles it: a sighting of an index is a rectangle drawn along the card's
    length (its second side runs down the index, from rank to suit: see :attr:`Sighting.corners`),
    and lines along the card stay near parallel to its long sides in any view.
    """
    corners = np.array(quad, np.float64)
    mark = np.array(s.corners, np.float64)
    if len(mark) != 4:
        return Outline(quad, False)
    down = mark[2] - mark[1]
    down /= max(float(np.hypot(*down)), 1e-9)
    sides = np.roll(corners, -1, axis=0) - corners
    along = np.abs(sides @ down) / np.maximum(np.hypot(sides[:, 0], sides[:, 1]), 1e-9)
    first = 1 if along[0] > along[1] else 0  # the first side runs along the card: start one later
    rolled = np.roll(corners, -first, axis=0)
    return Outline(tuple((float(x), float(y)) for x, y in rolled), True)  # type: ignore[arg-type]


#: How far round a sighting its card's white is looked for, in lengths of the sighting's outline, and
#: how near (in Lab units) a pixel's colour must be to the card's white to be taken for it.
REACH: Final = 6.0
NEAR_WHITE: Final = 28.0
#: How far round it the white is looked for first (see :func:`_white_around`).
SNUG: Final = 0.5


def _white_around(frame: Frame, s: Sighting) -> tuple[npt.NDArray[np.uint8], tuple[int, int]] | None:
    """The stretch of card white under ``s`` (a mask of the part of ``frame`` round it, and where that
    part begins), or None where it is not a card's alone (it runs to the edge of the part).

    Looked for first close round the sighting (:data:`SNUG`), then as far as :data:`REACH`: a card read
    at both corners has a sighting nearly its own size, and its white ends within half of it, while
    one read at a corner has a sighting of an index, and its white runs on for a card's length. A
    stretch of white ending inside the near part is the same seen in the far one, at a small part of
    the cost (a 13-card table's outlines and fit, 1280x720, one core: 0.27 s looked for so far at once,
    now 0.16 s).
    """
    poly = np.array(s.corners, np.float64)
    lo, hi = poly.min(axis=0), poly.max(axis=0)
    extent = float(np.max(hi - lo))
    far = max(40.0, REACH * extent)
    near = min(far, max(40.0, SNUG * extent))
    found = _white_within(frame, poly, lo, hi, near)
    if found is None and near < far:  # the white runs on past the near part
        found = _white_within(frame, poly, lo, hi, far)
    return found if isinstance(found, tuple) else None


def _white_within(
    frame: Frame, poly: F64, lo: F64, hi: F64, reach: float
) -> tuple[npt.NDArray[np.uint8], tuple[int, int]] | bool | None:
    """The stretch of card white under the sighting ``poly`` (bounds ``lo``, ``hi``) in the part of
    ``frame`` ``reach`` round it, as :func:`_white_around` gives it; False where none is under it, None
    where the white runs to a side of the part that is not the frame's edge."""
    h, w = frame.shape[:2]
    x0, y0 = max(0, int(lo[0] - reach)), max(0, int(lo[1] - reach))
    x1, y1 = min(w, int(hi[0] + reach) + 1), min(h, int(hi[1] + reach) + 1)
    part = np.asarray(cv2.cvtColor(frame[y0:y1, x0:x1], cv2.COLOR_BGR2LAB), np.float32)
    inside = np.zeros(part.shape[:2], np.uint8)
    cv2.fillConvexPoly(inside, np.round(poly - (x0, y0)).astype(np.int32), 1)
    under = part[inside.astype(bool)]
    if len(under) < 10:
        return False
    bright = under[under[:, 0] >= np.percentile(under[:, 0], 80)]
    white = np.median(bright, axis=0)
    near = _near_white(part, white)
    _, labels = cv2.connectedComponents(near, connectivity=4)
    on = labels[inside.astype(bool) & near.astype(bool)]
    if on.size == 0:
        return False
    mask = (labels == int(np.bincount(on).argmax())).astype(np.uint8)
    # Running to a side of the part that is not the frame's edge: the table's own pale, not a card.
    if (
        (x0 > 0 and mask[:, 0].any())
        or (y0 > 0 and mask[0].any())
        or (x1 < w and mask[:, -1].any())
        or (y1 < h and mask[-1].any())
    ):
        return None
    return mask, (x0, y0)


#: Card white, where no card was read to show it, is a colour this near grey (Lab chroma)...
NEUTRAL: Final = 12.0
#: ... as bright as the brightest tenth of the frame's near-grey pixels.
BRIGHTEST: Final = 90.0
#: Frames are searched for card white no larger than this on their longer side (a phone's 12
#: megapixels would cost a second; a card's outline needs no more).
WHITE_SIDE: Final = 1280


def white_outlines(frame: Frame, taken: Sequence[Outline] = ()) -> list[Outline]:
    """The outlines of stretches of card white standing clear in ``frame`` with nothing read on them:
    the frame's brightest near-grey colour (:data:`NEUTRAL`, :data:`BRIGHTEST`), each stretch of it
    clear of the frame's edge whose outer edge is a quadrilateral (:data:`FILL`), except where one of
    ``taken`` (outlines already measured round cards read) lies.

    Why: seen low, a table's cards are shortened so far that hardly any index reads as the camera
    sees it (at 72 degrees, cards 200 pixels wide on the tuning tables: one or none of 8), so no card
    read says where the white is; but the white itself stands out, and every card is a rectangle of
    one shape whichever is not read. Not knowing which way a card lies, the fit takes either.
    """
    h, w = frame.shape[:2]
    shrink = min(1.0, WHITE_SIDE / max(h, w))
    small = (
        frame
        if shrink == 1.0
        else cv2.resize(frame, None, fx=shrink, fy=shrink, interpolation=cv2.INTER_AREA)
    )
    sh, sw = small.shape[:2]
    lab = np.asarray(cv2.cvtColor(small, cv2.COLOR_BGR2LAB), np.float32)
    neutral = np.hypot(lab[..., 1] - 128, lab[..., 2] - 128) < NEUTRAL
    if neutral.sum() < 100:
        return []
    greys = lab[neutral]
    white = np.median(greys[greys[:, 0] >= np.percentile(greys[:, 0], BRIGHTEST)], axis=0)
    count, labels, stats, _ = cv2.connectedComponentsWithStats(_near_white(lab, white), connectivity=4)
    found: list[Outline] = []
    for k in range(1, count):
        x, y, bw, bh, _ = stats[k]
        if x <= 1 or y <= 1 or x + bw >= sw - 2 or y + bh >= sh - 2:
            continue  # cut by the frame's edge, or the table's own pale running off it
        quad = _outer_quad((labels[y : y + bh, x : x + bw] == k).astype(np.uint8), (x, y), shrink)
        if quad is None:
            continue
        middle = np.mean(quad, axis=0)
        mid = (float(middle[0]), float(middle[1]))
        if any(cv2.pointPolygonTest(np.array(q.corners, np.float32), mid, False) >= 0 for q in taken):
            continue
        found.append(Outline(quad, False))
    return found


def _near_white(lab: npt.NDArray[np.float32], white: npt.NDArray[np.float32]) -> npt.NDArray[np.uint8]:
    """Where the Lab picture ``lab`` is within :data:`NEAR_WHITE` of the card white ``white``.

    Squared distances against the squared bar: the same pixels as the distance itself, at a third of
    the cost (a photo is levelled by this, not only a calibration: see Levelled)."""
    apart = lab - white.astype(np.float32)
    near: npt.NDArray[np.uint8] = (np.einsum("ijk,ijk->ij", apart, apart) < NEAR_WHITE**2).astype(np.uint8)
    return near


def _outer_quad(mask: npt.NDArray[np.uint8], origin: tuple[int, int], scale: float = 1.0) -> Quad | None:
    """The quadrilateral of the outer edge of the largest stretch in ``mask`` (a part of a picture
    beginning at ``origin``, that picture ``scale`` times the frame's size), in the frame's pixels."""
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    outline = np.asarray(max(contours, key=cv2.contourArea), np.float64).reshape(-1, 2)
    return _quad((outline + np.array(origin, np.float64)) / scale)


def _quad(outline: F64) -> Quad | None:
    """The four corners of a card's outer edge (``outline``, its points in order), or None where it is
    no quadrilateral.

    The corners are where lines fitted to the middles of the four sides meet, not the outline's own
    corners: a card's corners are rounded, its sides straight.
    """
    area = cv2.contourArea(outline.astype(np.float32))
    if area < 400:
        return None
    hull = cv2.convexHull(outline.astype(np.float32)).reshape(-1, 2)
    perimeter = cv2.arcLength(hull, True)
    rough = None
    for share in (0.02, 0.03, 0.04, 0.06):
        approx = cv2.approxPolyDP(hull, share * perimeter, True).reshape(-1, 2)
        if len(approx) == 4:
            rough = approx.astype(np.float64)
            break
    if rough is None:
        return None
    rough = _clockwise(rough)
    lines = []
    for k in range(4):
        a, b = rough[k], rough[(k + 1) % 4]
        side = b - a
        length = float(np.hypot(*side))
        if length < 8:
            return None
        along = (outline - a) @ side / length**2
        rel = outline - a
        off = np.abs(side[0] * rel[:, 1] - side[1] * rel[:, 0]) / length
        near = outline[(along > 0.15) & (along < 0.85) & (off < max(3.0, 0.04 * length))]
        if len(near) < 5:
            return None
        vx, vy, x, y = cv2.fitLine(near.astype(np.float32), cv2.DIST_HUBER, 0, 0.01, 0.01).ravel()
        lines.append(np.cross([x, y, 1.0], [x + vx, y + vy, 1.0]))
    corners = []
    for k in range(4):
        p = np.cross(lines[k - 1], lines[k])
        if abs(p[2]) < 1e-9:
            return None
        corners.append((float(p[0] / p[2]), float(p[1] / p[2])))
    quad = np.array(corners)
    if (
        cv2.contourArea(quad.astype(np.float32)) <= 0
        or area / cv2.contourArea(quad.astype(np.float32)) < FILL
    ):
        return None
    if not cv2.isContourConvex(quad.astype(np.float32)):
        return None
    return tuple(corners)  # type: ignore[return-value]


def _clockwise(points: F64) -> F64:
    """``points`` ordered by their angle round their middle: clockwise on the screen (y down)."""
    centre = points.mean(axis=0)
    order = np.argsort(np.arctan2(points[:, 1] - centre[1], points[:, 0] - centre[0]))
    return points[order]


# ------------------------------------------------------------------------------------------ fit
def _card(aspect: float, shift: int) -> F64:
    """A card one unit wide and ``aspect`` long about its middle, its corners clockwise, from ``shift``."""
    half = aspect / 2
    corners = np.array([[-0.5, -half], [0.5, -half], [0.5, half], [-0.5, half]], np.float64)
    return np.roll(corners, -shift, axis=0)


def _apply(m: F64, points: F64) -> F64:
    moved = np.c_[points, np.ones(len(points))] @ m.T
    out: F64 = moved[:, :2] / moved[:, 2:3]
    return out


def _placed(card: F64, target: F64) -> tuple[float, float, float, float]:
    """The turn and move best laying ``card`` onto ``target`` (a rigid Procrustes fit), and the
    mean square distance left."""
    a, b = card - card.mean(axis=0), target - target.mean(axis=0)
    angle = math.atan2(float(np.sum(a[:, 0] * b[:, 1] - a[:, 1] * b[:, 0])), float(np.sum(a * b)))
    turn = np.array([[math.cos(angle), -math.sin(angle)], [math.sin(angle), math.cos(angle)]])
    move = target.mean(axis=0) - card.mean(axis=0) @ turn.T
    left = float(np.mean(np.sum((card @ turn.T + move - target) ** 2, axis=1)))
    return angle, float(move[0]), float(move[1]), left


def _residuals(p: F64, quads: list[F64], shifts: list[int], hold: float) -> F64:
    """Each corner's distance from its card's rectangle (x and y, card by card), then the aspect's
    distance from ``hold`` weighted by :data:`ASPECT_HOLD`: what :func:`_least_squares` makes small."""
    out: F64 = _Rectangles(quads, shifts, hold, ASPECT_HOLD)(p[None, :])[0]
    return out


class _Rectangles:
    """:func:`_residuals` of ``quads``, each card's corners counted from its ``shift``, for many rows
    of unknowns at once.

    Why at once: the derivatives are taken numerically, a nudged copy of the unknowns each, and
    evaluated one at a time in Python a fit of four cards took one and a half seconds of one core (a
    Pi's five) while the camera levelled itself, every frame stalled behind it.
    """

    def __init__(self, quads: list[F64], shifts: Sequence[int], hold: float, weight: float) -> None:
        n = len(quads)
        self.hold, self.weight = hold, weight
        self.quads = np.concatenate([np.stack(quads), np.ones((n, 4, 1))], axis=2)  # homogeneous
        turn = (np.arange(4)[None, :] + np.asarray(shifts)[:, None]) % 4
        self.x = np.array([-0.5, 0.5, 0.5, -0.5])[turn]
        self.y = np.array([-0.5, -0.5, 0.5, 0.5])[turn]  # times the aspect

    def __call__(self, ps: F64) -> F64:
        rows, n = len(ps), len(self.quads)
        m = np.concatenate([ps[:, :8], np.ones((rows, 1))], axis=1).reshape(rows, 1, 3, 3)
        y = self.y * ps[:, 8, None, None]
        # The first card lies as the homography puts it; each other turned and moved on the plane.
        poses = np.zeros((rows, n, 1, 3))
        poses[:, 1:, 0, :] = ps[:, 9:].reshape(rows, n - 1, 3)
        c, s = np.cos(poses[..., 0]), np.sin(poses[..., 0])
        card = np.stack([c * self.x - s * y + poses[..., 1], s * self.x + c * y + poses[..., 2]], axis=-1)
        seen = self.quads @ m.transpose(0, 1, 3, 2)
        off = seen[..., :2] / seen[..., 2:3] - card
        held = (ps[:, 8:9] - self.hold) * self.weight
        return np.concatenate([off.reshape(rows, n * 8), held], axis=1)


def _least_squares(
    p: F64, quads: list[F64], shifts: list[int], hold: float, weight: float, rounds: int = 60
) -> tuple[F64, float]:
    """Levenberg-Marquardt on :func:`_residuals` (a few dozen unknowns: numeric derivatives do).

    An aspect at an end of its range that would go on past it is held there while the rest is
    fitted: a step pushed back to the range would be no step downhill, and the fit stalled at the
    first such, far from the best fit with that aspect."""
    lo, hi = ASPECT_RANGE

    def free(p: F64, grad: F64) -> npt.NDArray[np.bool_]:
        out = np.ones(len(p), bool)
        out[8] = not ((p[8] <= lo and grad[8] > 0) or (p[8] >= hi and grad[8] < 0))
        return out

    def kept(q: F64) -> F64 | None:
        q[8] = min(max(q[8], lo), hi)
        return q

    return _damped(p, _Rectangles(quads, shifts, hold, weight), kept, free, rounds)


def _damped(
    p: F64,
    residuals: Callable[[F64], F64],
    kept: Callable[[F64], F64 | None],
    free: Callable[[F64, F64], npt.NDArray[np.bool_]] | None = None,
    rounds: int = 60,
) -> tuple[F64, float]:
    """Levenberg-Marquardt from ``p``: the unknowns making ``residuals`` least, and that least sum of
    squares. ``residuals`` takes rows of unknowns at once (the derivatives are taken numerically, a
    nudged copy each); ``kept`` takes a step's unknowns to those tried (None: not to be tried, a
    larger damping is); ``free`` says which unknowns a step may change (by default all)."""
    lam = 1e-3
    r = residuals(p[None, :])[0]
    cost = float(r @ r)
    for _ in range(rounds):
        steps = 1e-7 * np.maximum(1.0, np.abs(p))
        nudged = residuals(p + np.diag(steps))
        jac = ((nudged - r) / steps[:, None]).T
        normal = jac.T @ jac
        grad = jac.T @ r
        moving = np.ones(len(p), bool) if free is None else free(p, grad)
        improved = False
        delta = np.zeros(len(p))
        while lam < 1e8:
            delta = np.zeros(len(p))
            sub = normal[np.ix_(moving, moving)]
            try:
                delta[moving] = np.linalg.solve(sub + lam * np.diag(np.diag(sub) + 1e-12), -grad[moving])
            except np.linalg.LinAlgError:
                lam *= 10
                continue
            q = kept(p + delta)
            if q is None:
                lam *= 10
                continue
            rq = residuals(q[None, :])[0]
            new = float(rq @ rq)
            if new < cost:
                p, r, cost, improved = q, rq, new, True
                lam = max(lam / 10, 1e-9)
                break
            lam *= 10
        if not improved or float(np.abs(delta).max()) < 1e-10:
            break
    return p, cost


def rectifying(quads: Sequence[Quad | Outline]) -> tuple[F64, float, float] | None:
    """The homography taking the picture's pixels to the plane the cards ``quads`` lie on, in which
    each is a rectangle one unit wide (up to a turn and move of the whole), with the card's aspect and
    the root mean square distance of a corner from its rectangle's (in card widths); None without
    cards.

    Where a card's outline lies :data:`ODD_CARD` card widths off its rectangle, the card whose leaving
    out lets the others fit best is left out, one at a time while three or more are left: a card whose
    white ran into something pale is not a card's outline, and would bend the plane. An
    :class:`Outline` known to start across its card is fitted only lying so.
    """
    found = _rectified(quads)
    if found is None:
        return None
    m, aspect, errors, _, _ = found
    return m, aspect, float(np.sqrt(np.mean(errors**2)))


def _rectified(quads: Sequence[Quad | Outline]) -> tuple[F64, float, F64, list[F64], list[bool]] | None:
    """:func:`rectifying`'s fit, each card's distance from its rectangle, and the outlines kept (with
    whether each is known to start across its card)."""
    outlines = [q if isinstance(q, Outline) else Outline(q, False) for q in quads]
    kept = [np.array(q.corners, np.float64) for q in outlines]
    across = [q.across for q in outlines]
    if not kept:
        return None
    m, aspect, errors = _fit(kept, across)
    while len(kept) >= 3 and float(errors.max()) > ODD_CARD:
        # Which one card, left out, lets the others fit best.
        tries = [(_fit(kept[:k] + kept[k + 1 :], across[:k] + across[k + 1 :]), k) for k in range(len(kept))]
        (m, aspect, errors), k = min(tries, key=lambda t: float(t[0][2].max()))
        del kept[k], across[k]
    return m, aspect, errors, kept, across


#: The outlines say the cards' shape by themselves (and with it how much the table is shortened along
#: them) where, held at either end of ASPECT_RANGE, the cards fit them at least this share worse (root
#: mean square) than with the shape that fits best. (Not swept: exact outlines of cards lying one way
#: fit both ends alike, and a card lying another way among them makes both ends fit several times
#: worse.)
SETTLED: Final = 0.25
#: How firmly a card's shape is held where it is tried fixed (see :data:`ASPECT_HOLD`).
FIXED: Final = 100.0


def _settled(quads: list[F64], across: list[bool]) -> bool:
    """Whether the outlines ``quads`` (of cards all fitting one plane) say the cards' shape by
    themselves, not only as held near :func:`_held_near`'s: fitted with the shape left free, it comes
    out inside ASPECT_RANGE, and held at either end of it they fit worse by :data:`SETTLED`.

    Why: cards lying one way fit a table shortened along them as well as a longer deck; the fit then
    takes its shape from the hold, and the slant it finds may be far off. On the demo film at 40
    degrees the first four cards' outlines fitted a plane within 0.01 card widths that saw the table
    26 degrees off straight down under the lens, its far side less steep than its near; the six
    lying there 26 frames later settled 35 (the camera's slant there: 37).
    """
    if len(quads) < 2:
        return False
    _, aspect, errors = _fit(quads, across, weight=0.0)
    if not ASPECT_RANGE[0] < aspect < ASPECT_RANGE[1]:
        return False
    best = float(np.sqrt(np.mean(errors**2)))
    ends = [float(np.sqrt(np.mean(_fit(quads, across, end, FIXED)[2] ** 2))) for end in ASPECT_RANGE]
    return min(ends) >= (1 + SETTLED) * best


#: Cards whose long sides run within this many degrees of one another in the picture lie one way, as
#: far as the fit can tell (a camera at 45 degrees bends parallel cards' sides by a few degrees).
ONE_WAY: Final = 12.0


def _held_near(quads: list[F64], across: list[bool]) -> float:
    """The aspect the fit holds the card's shape near: :data:`ASPECT`, but where the cards all lie one
    way, their own shape as they look, within ``ASPECT_RANGE``.

    Why: cards lying one way cannot tell a table squashed along them from a deck of another shape,
    and held near the middle value the fit took two bridge cards (1.54) side by side under a camera
    straight above for a poker deck seen 19 degrees off (the view stretched 6 %). Taking the deck as
    it looks takes the camera for as near straight above as the outlines allow: a slant along the
    cards is then underrated, never one made up; the far cards' shrinking still shows a slant across
    them.
    """
    axes, shapes = [], []
    for quad, known in zip(quads, across, strict=True):
        sides = np.roll(quad, -1, axis=0) - quad
        lengths = np.hypot(sides[:, 0], sides[:, 1])
        short, long = (lengths[0] + lengths[2]) / 2, (lengths[1] + lengths[3]) / 2
        first = 1 if known or long >= short else 0
        if not known and short > long:
            short, long = long, short
        along = sides[first] - sides[first + 2]
        axes.append(math.atan2(float(along[1]), float(along[0])))
        shapes.append(long / max(short, 1e-9))
    turns = np.array(axes)
    apart = np.abs((turns[:, None] - turns[None, :] + math.pi / 2) % math.pi - math.pi / 2)
    if float(apart.max()) > math.radians(ONE_WAY):
        return ASPECT
    return float(np.clip(np.median(shapes), *ASPECT_RANGE))


def _fit(
    quads: list[F64], across: list[bool], hold: float | None = None, weight: float = ASPECT_HOLD
) -> tuple[F64, float, F64]:
    """The homography and aspect fitting ``quads`` best, and each card's root mean square corner
    distance from its rectangle (card widths); the aspect held near ``hold`` (by default
    :func:`_held_near`'s) as firmly as ``weight`` says.

    Fitted by least squares from each way round the middle-sized card may lie (its longer sides its
    long ones, or its shorter: at 45 degrees a card lying along the line of sight looks wider than
    long), the other cards' ways round taken as fit best once it is straightened; but a card known to
    lie ``across`` (its first side across it: see :class:`Outline`) only that way round. The
    middle-sized, as an outline that is no card's is most often two cards' white run together: the
    largest.
    """
    everything = np.concatenate(quads)
    centre = everything.mean(axis=0)
    spread = float(np.abs(everything - centre).max()) or 1.0
    norm = np.array([[1 / spread, 0, -centre[0] / spread], [0, 1 / spread, -centre[1] / spread], [0, 0, 1]])
    by_area = sorted(range(len(quads)), key=lambda i: cv2.contourArea(quads[i].astype(np.float32)))
    middle = by_area[len(by_area) // 2]
    order = [middle, *(i for i in range(len(quads)) if i != middle)]
    scaled = [_apply(norm, quads[i]) for i in order]
    hold = _held_near(quads, across) if hold is None else hold
    best: tuple[F64, float] | None = None
    shifts_best: list[int] = []
    for first in (0,) if across[middle] else (0, 1):
        start = cv2.getPerspectiveTransform(
            scaled[0].astype(np.float32), _card(hold, first).astype(np.float32)
        ).astype(np.float64)
        start /= start[2, 2]
        p = [*start.ravel()[:8], hold]
        shifts = [first]
        for quad, known in zip(scaled[1:], [across[i] for i in order[1:]], strict=True):
            straight = _apply(start, quad)
            fits = [(_placed(_card(hold, k), straight), k) for k in ((0, 2) if known else range(4))]
            (angle, tx, ty, _), k = min(fits, key=lambda f: f[0][3])
            shifts.append(k)
            p += [angle, tx, ty]
        fitted, cost = _least_squares(np.array(p, np.float64), scaled, shifts, hold, weight)
        if best is None or cost < best[1]:
            best, shifts_best = (fitted, cost), shifts
    assert best is not None
    fitted, _ = best
    corners = _residuals(fitted, scaled, shifts_best, hold)[:-1].reshape(len(scaled), 4, 2)
    by_card = np.sqrt(np.mean(np.sum(corners**2, axis=2), axis=1))
    errors = np.empty(len(quads))
    errors[order] = by_card
    m = np.append(fitted[:8], 1.0).reshape(3, 3) @ norm
    return m / m[2, 2], float(fitted[8]), errors


def _local(m: F64, point: tuple[float, float]) -> tuple[float, float]:
    """How ``m`` stretches the picture about ``point``: (longest over shortest stretch, area scale)."""
    most, least = stretch_at(m, point)
    return most / max(least, 1e-12), most * least


def fit_plane(frame: Frame, sightings: Iterable[Sighting]) -> TablePlane | None:
    """The table's plane from the outlines of the cards read in ``frame`` (marker cards at
    calibration), or None where the camera looks from (nearly) straight above (see :data:`FLAT`), or
    where the fit is not to be trusted: fewer than two cards' outlines stand clear (one card's outline
    says little of how the far side shrinks), or the outlines fit no one plane (:data:`ODD_CARD`), or
    only a deck no one plays with (outside ``ASPECT_RANGE``).

    The view from above is placed so that the frame's middle keeps its up and down, turned no more
    than the straightening needs, and scaled so that a card is as wide as the middle card of those
    fitted showed in the frame.
    """
    return fitted(frame, sightings).plane


@dataclass(frozen=True, slots=True)
class Fit:
    """What the cards' outlines in one frame say of the table's plane: the plane where they find a
    slant, whether they find the camera straight above, and how many outlines stood clear to say so."""

    plane: TablePlane | None
    flat: bool
    outlines: int
    settled: bool = False
    """Whether the outlines said the cards' shape by themselves (see :func:`_settled`)."""


def fitted(frame: Frame, sightings: Iterable[Sighting]) -> Fit:
    """The fit :func:`fit_plane` gives, with whether the outlines found the view flat (rather than
    left it unsettled) and how many there were."""
    return fit_of(card_outlines(frame, sightings), (frame.shape[1], frame.shape[0]))


def fit_of(quads: Sequence[Outline], size: tuple[int, int], settle: bool = False) -> Fit:
    """What the card outlines ``quads`` in a frame ``size`` (width, height) say of the table's plane
    (see :func:`fitted`); with ``settle``, whether they settle the cards' shape too (see
    :func:`_settled`: three fits more, which only a camera levelling itself over frames needs)."""
    found = _rectified(quads) if len(quads) >= 2 else None
    unsure = Fit(None, False, len(quads))
    if found is None:
        return unsure
    m, aspect, errors, kept, across = found
    rms = float(np.sqrt(np.mean(errors**2)))
    if rms > ODD_CARD or not ASPECT_RANGE[0] < aspect < ASPECT_RANGE[1]:
        return unsure  # no one plane fits the outlines: reading as the frames come is the safer
    widths = sorted(math.sqrt(cv2.contourArea(np.array(q.corners, np.float32)) / aspect) for q in quads)
    anchor = np.mean([q.corners for q in quads], axis=(0, 1))
    plane = _viewed(m, widths[len(widths) // 2], size, anchor)
    if plane is None:
        return Fit(None, True, len(quads))
    return Fit(plane, False, len(quads), settle and _settled(kept, across))


def _viewed(m: F64, width: float, size: tuple[int, int], anchor: F64) -> TablePlane | None:
    """The view from above of a frame ``size`` (width, height) by ``m`` (frame pixels to the table's
    plane in card widths), a card ``width`` pixels wide in the frame's middle; None where ``m`` finds
    the frame seen from straight above (see :data:`FLAT`). ``anchor`` is where the cards lie, kept up
    and down as the frame has it where the frame shows the table's horizon."""
    w, h = size
    probes = [(0.0, 0.0), (w - 1.0, 0.0), (w - 1.0, h - 1.0), (0.0, h - 1.0), (w / 2, h / 2)]
    corners = np.array(probes[:4])
    # Which side of the table's horizon the cards lie on (the homography's last row, positive there).
    side = float(np.sign(np.array([*anchor, 1.0]) @ m[2]))
    depth = (np.c_[corners, np.ones(4)] @ m[2]) * side
    beyond = bool(depth.min() <= 0)  # the frame shows the horizon: the wall past a table seen low
    if not beyond:
        stretch = [_local(m, p) for p in probes]
        areas = [a for _, a in stretch]
        if max(s for s, _ in stretch) < 1 + FLAT and math.sqrt(max(areas) / min(areas)) < 1 + FLAT:
            return None
    # The view keeps up and down as the frame has them where the cards lie.
    anchor = anchor if beyond else np.array([w / 2, h / 2])
    middle = _apply(m, np.array([anchor, anchor + np.array([0.0, 1.0])]))
    down = middle[1] - middle[0]
    turn = math.atan2(float(down[0]), float(down[1]))  # the turn taking "down" there to +y
    c, s = math.cos(turn), math.sin(turn)
    top = np.array([[c, -s, 0], [s, c, 0], [0, 0, 1]]) @ m
    most = MOST_AREA * w * h
    if beyond:
        scale = width * LEAST_GROW
        lo, hi = _nearest_part(top, depth, corners, most / scale**2)
    else:
        seen = _apply(top, corners)
        lo, hi = seen.min(axis=0), seen.max(axis=0)
        whole = float(np.prod(hi - lo))  # the whole frame's view, in squared card widths
        scale = max(min(width * GROW, math.sqrt(most / whole)), width * LEAST_GROW)
        if whole * scale**2 > most:
            lo, hi = _nearest_part(top, depth, corners, most / scale**2)
    place = np.array([[scale, 0, -lo[0] * scale], [0, scale, -lo[1] * scale], [0, 0, 1]])
    view = (math.ceil((hi[0] - lo[0]) * scale), math.ceil((hi[1] - lo[1]) * scale))
    return TablePlane.of(place @ top, view, (w, h), scale)


def _nearest_part(top: F64, depth: F64, corners: F64, most: float) -> tuple[F64, F64]:
    """The corners (least, greatest) of the box in ``top``'s view holding as much of the frame (its
    ``corners``) as fits in ``most`` of the view's area, taken from the near side: the frame cut along
    a line parallel to the table's horizon, where a card shows fewer pixels than anywhere nearer.
    ``depth`` is the homography's last row at each corner, positive on the cards' side of the horizon
    and falling to nothing at it (a frame may show the horizon: it is never reached)."""

    def box(cut: float) -> tuple[F64, F64]:
        # The frame's convex outline clipped to where the depth is at least ``cut``.
        kept: list[F64] = []
        for k in range(len(corners)):
            a, b, da, db = corners[k - 1], corners[k], depth[k - 1] - cut, depth[k] - cut
            if da >= 0:
                kept.append(a)
            if da * db < 0:
                kept.append(a + (b - a) * (da / (da - db)))
        seen = _apply(top, np.array(kept))
        return seen.min(axis=0), seen.max(axis=0)

    near, far = float(depth.max()), max(float(depth.min()), 0.0)
    for _ in range(30):  # halving the depth's range: the cut found to a billionth of it
        cut = (near + far) / 2
        lo, hi = box(cut)
        if float(np.prod(hi - lo)) > most:
            far = cut
        else:
            near = cut
    return box(near)


#: Cards read at one index each needed to fit the table's plane by their indices' lengths (see
#: :func:`index_plane`): each length is measured to 5-10 per cent on a real deal photo.
INDEX_LEAST: Final = 8
#: The indices' lengths are taken to say the slant only where it explains their spread better than
#: chance would by the fit's three unknowns: ``n * ln(spread before / spread after)`` (their log
#: lengths' variances) over this, chi-squared's with three degrees at one in a thousand. Why: lengths
#: measured to 5-10 per cent make up a slant on any photo. On the tuning deal photos (1-3) as taken
#: the figure is 1-13; tilted as ``bench_degrade.py`` tilts them (three ways each) 15 degrees 21-79,
#: 30 degrees 41-125, 45 degrees 46-130.
INDEX_CHANCE: Final = 16.3
#: The lens's width of view across the frame's diagonal, in degrees, the index fit starts from and
#: holds near (loosely): phones' and webcams' are 65-80 degrees.
INDEX_LENS: Final = 70.0
#: How firmly the index fit holds each unknown near its start (a camera straight above, the lens of
#: INDEX_LENS): the ways the indices do not lie say nothing of the table's shortening along them.
INDEX_HOLD: Final = 0.02


def index_plane(sightings: Sequence[Sighting], size: tuple[int, int]) -> TablePlane | None:
    """The table's plane from the lengths of the indices of the cards read at one corner each, in a
    frame ``size`` (width, height); None where fewer than :data:`INDEX_LEAST` were read, or the slant
    they find explains their lengths no better than chance would (:data:`INDEX_CHANCE`).

    Why: a fan of cards shows no card's outline, and a photo of a deal at a slant had none to level it
    by; but every index of a deck is one length on the table, and the slant shortens those lying along
    the line of sight and the far ones most. The fit asks for the camera's turn under which the
    indices' lengths are most alike (:func:`_index_fit`), leaves out those far off the rest (a misread,
    an index of another size), and fits again.
    """
    indices = [
        np.array(s.corners, np.float64)
        for s in sightings
        if s.card is not None and s.middle is not None and len(s.corners) == 4
    ]
    if len(indices) < INDEX_LEAST:
        return None
    # A card read at one index is outlined by the index's patch, its second side along the index.
    middles = np.array([quad.mean(axis=0) for quad in indices])
    along = np.array([quad[2] - quad[1] for quad in indices]) / PATCH_LENGTH
    m, off = _index_fit(middles, along, size)
    # A misread index (or one of another size) lies far off the rest, with the slant fitted or none:
    # left out, each by the median's spread.
    logs = np.log(np.hypot(along[:, 0], along[:, 1]))
    logs -= np.median(logs)
    kept = _near(off) & _near(logs)
    count = int(kept.sum())
    if count < INDEX_LEAST:
        return None
    m, off = _index_fit(middles[kept], along[kept], size)
    if count * math.log(float(np.var(logs[kept])) / max(float(np.var(off)), 1e-12)) <= INDEX_CHANCE:
        return None
    ends = _apply(m, np.concatenate([middles[kept] - along[kept] / 2, middles[kept] + along[kept] / 2]))
    length = float(np.median(np.hypot(*(ends[count:] - ends[:count]).T)))
    # In card widths: an index is INDEX_SHARE of its card's width.
    m = np.diag([INDEX_SHARE / length, INDEX_SHARE / length, 1.0]) @ m
    frame_length = float(np.median(np.hypot(along[:, 0], along[:, 1])))
    return _viewed(m, frame_length / INDEX_SHARE, size, middles.mean(axis=0))


def _near(values: F64) -> npt.NDArray[np.bool_]:
    """Which ``values`` (about nought) lie within three standard deviations of it, the deviation
    taken as the median's (1.4826 times the median distance): robust to the few far off."""
    out: npt.NDArray[np.bool_] = np.abs(values) <= 3 * 1.4826 * np.median(np.abs(values))
    return out


def _index_fit(middles: F64, along: F64, size: tuple[int, int]) -> tuple[F64, F64]:
    """The homography taking a frame ``size`` (width, height) to the view from above under which the
    index vectors ``along`` (lying at ``middles``) are most alike in length, and each one's log
    length off their mean.

    Why a camera's turn, not any homography: a pinhole camera sees the table's plane from above, up
    to a turn, move and scale of the view, by ``K R K^-1``: its lens (``K``, the frame's middle on its
    axis) and the turn ``R`` taking its axis to straight down. Three unknowns (the turn's two, the
    lens's width of view) where any homography has four beyond those of the view; the indices of a
    deal lie in two to four ways only, and on the tuning deal photos tilted 45 degrees any homography
    fitted to their lengths levelled 324 of 414 cards and named 2 wrong, the camera's turn 355 and
    none. Fitted by Levenberg-Marquardt from a camera straight above (numeric derivatives do), each
    unknown held near its start by :data:`INDEX_HOLD`.
    """
    w, h = size
    start = math.hypot(w, h) / 2 / math.tan(math.radians(INDEX_LENS) / 2)
    ends = np.concatenate([middles - along / 2, middles + along / 2])
    n = len(middles)

    def turned(p: F64) -> F64:
        focal = start * math.exp(float(p[2]))
        lens = np.array([[focal, 0.0, w / 2], [0.0, focal, h / 2], [0.0, 0.0, 1.0]])
        axis = np.array([p[0], p[1], 0.0])
        angle = float(np.hypot(p[0], p[1]))
        cross = np.zeros((3, 3))
        if angle > 0:
            x, y, _ = axis / angle
            cross = np.array([[0.0, 0.0, y], [0.0, 0.0, -x], [-y, x, 0.0]])
        turn = np.eye(3) + math.sin(angle) * cross + (1 - math.cos(angle)) * cross @ cross
        m: F64 = lens @ turn @ np.linalg.inv(lens)
        return m

    def off(ps: F64) -> F64:
        rows = []
        for p in ps:
            seen = _apply(turned(p), ends)
            logs = np.log(np.maximum(np.hypot(*(seen[n:] - seen[:n]).T), 1e-12))
            rows.append(np.concatenate([logs - logs.mean(), INDEX_HOLD * p]))
        return np.array(rows)

    def in_front(q: F64) -> F64 | None:
        # Past the horizon the view turns inside out: every index must lie before it.
        return q if bool((np.c_[middles, np.ones(n)] @ turned(q)[2] > 0).all()) else None

    p, _ = _damped(np.zeros(3), off, in_front, rounds=100)
    m = turned(p)
    return m / m[2, 2], off(p[None, :])[0][:n]


class Levelled:
    """A detector for photos taken at a slant with no table calibrated: each photo is read as it is,
    the table's plane fitted from the outlines of the cards read in it (:func:`fit_of`; where too few
    stand clear, with the outlines of unread card white too: :func:`white_outlines`; where that finds
    nothing either, from the lengths of the indices read: :func:`index_plane`), and where that finds a
    slant, the photo read again as if from above by ``upright`` (see
    :class:`~companion.vision.plane.TopDown`), its outlines given in the photo's pixels. A slant found
    by white or indices alone is taken only where the photo so levelled names no fewer cards.

    Why: a phone held over a table looks at it at a slant, and nothing calibrates a photo; but its own
    cards are rectangles of one shape, and their outlines say the slant as marker cards do at
    calibration. Read as it is at 45 degrees, a far club's notches fill in and it reads as a spade;
    levelled, the tuning tables (seeds 0-29, 8-13 cards) named 6 cards wrong of 296 and then 1 of 297,
    and found 92.1 % and then 94.0 %; at 55 degrees (seeds 0-14) 5 wrong and 60.1 % found, then 2 and
    69.3 %, and none and 75.8 % once the view's far side was cut rather than its cards shrunk (see
    :data:`LEAST_GROW`); at 15 and 30 degrees the same within two cards. A photo from above fits no
    plane and is read once. ``upright`` is a reader of its own: the view from above is read at its own
    size and its far cards enlarged, which would not suit the next photo's first reading.
    """

    def __init__(self, recogniser: Detector, upright: Detector) -> None:
        self.recogniser = recogniser
        self.upright = upright
        self.plane: TablePlane | None = None
        """The plane the last photo was levelled by; None where it was read as it was."""

    def detect(self, frame: Frame) -> list[Sighting]:
        first = self.recogniser.detect(frame)
        size = (frame.shape[1], frame.shape[0])
        read = card_outlines(frame, first)
        fit = fit_of(read, size)
        self.plane = fit.plane
        guessed = fit.plane is None and not fit.flat
        if guessed:
            # Too few cards read clear to say the slant: the white of those not read says it, or
            # else the lengths of the indices read (a fan of cards shows no outline).
            self.plane = fit_of(read + white_outlines(frame, read), size).plane or index_plane(first, size)
        if self.plane is None:
            return first
        forget = getattr(self.upright, "forget", None)
        if forget is not None:
            forget()
        level = TopDown(self.upright, self.plane).detect(frame)
        if guessed and _named(level) < _named(first):
            # White that is no card's (a beer mat, a note) can bend the plane, and indices measured
            # roughly make up a slant: a levelling that reads less than the photo as taken is not
            # taken.
            self.plane = None
            return first
        return level


def _named(sightings: Sequence[Sighting]) -> int:
    return sum(1 for s in sightings if s.card is not None)


#: Clear card outlines that must find the view flat before a camera is taken to look straight down for
#: good (two cards say less of the far side's shrinking than three).
FLAT_SURE: Final = 3
#: A card named this many pixels from where its outline was measured has moved (a sighting's middle
#: wavers by a pixel or two between frames of a card at rest).
MOVED: Final = 6.0
#: A settled plane that sees the table within this many degrees as steeply as the one read by, at the
#: frame's corners and middle, is taken as the settling of it (the view is not changed).
ALIKE: Final = 1.0


def _alike(a: TablePlane, b: TablePlane, size: tuple[int, int]) -> bool:
    """Whether planes ``a`` and ``b`` see a frame of ``size`` alike (see :data:`ALIKE`).

    Why: changing the view costs a whole frame's warp and read (a few hundred milliseconds on a
    Pi), the camera's next frames waiting, and a plane found first from cards lying several ways is
    often already the one they settle later."""
    w, h = size
    probes = [(0.0, 0.0), (w - 1.0, 0.0), (w - 1.0, h - 1.0), (0.0, h - 1.0), (w / 2, h / 2)]
    return all(abs(a.slant_at(p, size) - b.slant_at(p, size)) <= ALIKE for p in probes)


#: The most outlines, the newest, a camera levelled by a plane not yet settled fits again at once: a
#: fit's cost grows with the square of the outlines it weighs against each other (leaving out an odd
#: one tries each in turn), and the camera's next frames wait for it.
REFIT_OUTLINES: Final = 6


class Levelling:
    """A filmed detector for a camera whose slant no marker cards calibrated: frames are read as they
    come until the cards read fit the table's plane (:func:`fit_of`), and from that frame on read as if
    from above (:class:`~companion.vision.plane.TopDown`) by the same ``recogniser``; while the cards'
    outlines have not said their shape by themselves (see :func:`_settled`), the cards lying there are
    fitted again each time a new outline stands clear, and the first plane that settles it replaces
    the one found first, for good.

    Why: a camera on a shelf looks at the table at a slant, and a table started without the marker
    cards has no plane; but every card laid is a rectangle of one shape, and once two stand clear
    their outlines say the slant as the markers would. Read as they come at 45 degrees, the tuning
    tables (seeds 0-59) found 87.1 % and named 13 cards wrong of 562, most of them far clubs whose
    notches the slant filled in; through the plane, 97.1 % and 3 wrong. Cards lying one way say the
    slant across them but not along them: a plane fitted to them is better than none (zones, card
    sizes) but may see the table 10 degrees less steep than it is, its far cards then read shrunk;
    the cards laid later (a crib, a hand shown) lie other ways. On the demo film at 40 degrees the
    plane found first saw the table 26 degrees off straight down under the lens's middle; the cards
    of frame 100 settled 35 (the camera's slant there is 37), and the game's far jacks were read, not
    asked about (133 cards right and 2 questions, where it was 128 and 6). The outlines of cards
    since taken away are not fitted with those lying there: fitted so, they settled later (frame
    143) and no better. Each card's outline is measured once, in the frame that first names it,
    and kept while it lies where it was (a card at rest does not change shape; measuring a dozen
    cards' white costs a sixth of a second on one core), and a fit is tried only when a new outline
    stands clear, until a settled slant is found or :data:`FLAT_SURE` outlines find the camera
    straight above, after which frames are read with nothing more to pay.
    """

    def __init__(self, recogniser: Detector) -> None:
        self.recogniser = recogniser
        self.plane: TablePlane | None = None
        """The plane found; None until the cards say it (or for good, once they say it is flat)."""
        self.flat = False
        """Whether the cards found the camera straight above."""
        self.settled = False
        """Whether the plane found is the one the cards' outlines settled (see :func:`_settled`)."""
        self._view: TopDown | None = None
        #: Each card named so far: where it lay and its outline (None where its white stood unclear).
        self._outlines: dict[str, tuple[tuple[float, float], Outline | None]] = {}

    def detect(self, frame: Frame) -> list[Sighting]:
        if self._view is not None and self.settled:
            return self._view.detect(frame)
        seen = self.recogniser.detect(frame) if self._view is None else self._view.detect(frame)
        if self.flat:
            return seen
        named = [s for s in seen if s.card is not None]
        lying = {s.label: s.center for s in named}
        # A card gone, or moved, is measured again where it next lies.
        self._outlines = {
            label: kept
            for label, kept in self._outlines.items()
            if label in lying and math.dist(lying[label], kept[0]) <= MOVED
        }
        new = [s for s in named if s.label not in self._outlines]
        for s in new:
            self._outlines[s.label] = (s.center, card_outline(frame, s, named))
        if not any(self._outlines[s.label][1] is not None for s in new):
            return seen
        quads = [quad for _, quad in self._outlines.values() if quad is not None]
        if self._view is not None:  # a plane is had: the search is for one the outlines settle
            quads = quads[-REFIT_OUTLINES:]
        fit = fit_of(quads, (frame.shape[1], frame.shape[0]), settle=True)
        if fit.plane is None:
            if self._view is None:
                self.flat = fit.flat and fit.outlines >= FLAT_SURE
            return seen
        if self._view is not None and not fit.settled:
            return seen
        if self.plane is not None and _alike(self.plane, fit.plane, frame.shape[1::-1]):
            # The plane settled is the one read by already: no view to warp and read anew.
            self.settled = True
            return seen
        self.plane, self.settled = fit.plane, fit.settled
        self._view = TopDown(self.recogniser, fit.plane)
        self._view.forget()  # what was read of the frames as they came is no view from above
        return self._view.detect(frame)

    def levelled(self) -> Detector:
        """The reader from above, once the plane is found and settled (else this): a caller that has
        seen it settled may read through it directly."""
        return self._view if self._view is not None and self.settled else self

    def forget(self) -> None:
        """Forget the frames read so far (the plane found stays: the camera has not moved)."""
        if self._view is not None:
            self._view.forget()
            return
        forget = getattr(self.recogniser, "forget", None)
        if forget is not None:
            forget()
