"""One index read: where its rank and suit marks lie, what the networks named it and how surely, and how
two readings lie from each other (the geometry that says two corners belong to one card).

Kept apart from :mod:`companion.vision.recognise`, which reads frames, so that the arbitration of a
card's name by its pips (:mod:`companion.vision.arbitration`) and the search for face-down cards
(:mod:`companion.vision.backs`) can work on readings without reading anything themselves.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from companion.vision import index as idx
from companion.vision.settings import PipGeometry, ReadingSettings

__all__ = ["Reading", "beside", "card_middle", "facing", "lie", "opposite"]


@dataclass(frozen=True, slots=True)
class Reading:
    """One candidate index as the networks read it, in frame pixels."""

    cand: idx.Candidate
    label: str
    confidence: float
    not_index: float
    cut: bool = False
    """Whether a mark of the index is cut by the edge of the picture (see ``recognise._whole``)."""
    black: float = 0.0
    """How sure the reading would be were its black suit known, where blur left it an even chance
    between club and spade (see :func:`companion.vision.soft.soft_spades`); 0 otherwise."""

    def accepted(self, settings: ReadingSettings) -> bool:
        """Whether the reading is sure enough to name its card (see :class:`ReadingSettings`)."""
        return self.confidence >= settings.needed(self.cand.freed)

    @property
    def down(self) -> npt.NDArray[np.float64]:
        """The unit vector from rank to suit (see :func:`_placed`)."""
        return np.array(_placed(self)[1])

    @property
    def centre(self) -> npt.NDArray[np.float64]:
        """The middle between rank and suit (see :func:`_placed`)."""
        return np.array(_placed(self)[0])


def card_middle(r: Reading, g: PipGeometry) -> tuple[float, float]:
    """Where the card of the index ``r`` lies: its middle, ``g.index_to_middle`` across and down from
    the index (a card's body lies to the right of and below an index read upright)."""
    d = r.down
    right = np.array([d[1], -d[0]])
    across, down = g.index_to_middle
    p = r.centre + r.cand.length * (across * right + down * d)
    return (float(p[0]), float(p[1]))


def opposite(a: Reading, b: Reading) -> bool:
    """Whether two readings lie as the two index corners of one card, each turned half round from the
    other (see :meth:`companion.vision.recognise.Recogniser._same_card`), whatever they say.

    ``b`` must not lie off to ``a``'s left by more than an index length: a card's body lies to the
    right of an index read upright (see :func:`card_middle`), and so does its other corner, seen from
    either. (A deck printing four indices has one more turned corner straight below, across nothing.)
    Why: a card's corner to the left and below is the corner of the card beside it in a row; taken
    for this card's other corner, the pips between the two were counted as this card's (a nine of
    clubs' top corner paired so with the two of clubs' bottom corner beside it, seen at 45 degrees,
    was named the two, and its own bottom corner, read as a nine of spades, stood as a second card).
    """
    along, across, length, turn = lie(a, b)
    (ax, ay), (dx, dy) = _placed(a)
    bx, by = _placed(b)[0]
    side = (bx - ax) * dy - (by - ay) * dx
    return (
        turn < -0.8
        and 1.5 * length < along < 16 * length
        and across < along + length
        and side > -length
        and math.hypot(along, across) < 16 * length
    )


def facing(a: Reading, b: Reading) -> bool:
    """Whether two readings lie as the two index corners of one card (see :func:`opposite`), seen from
    either: a slant shortens one index's view, and the other's then says it better."""
    return opposite(a, b) or opposite(b, a)


def beside(r: Reading, named: Iterable[Reading]) -> bool:
    """Whether ``r`` lies on the spot of one of the ``named`` readings (within one and a half of its
    index lengths): the same corner read twice, by another candidate or scale, so ``r`` says nothing
    of a card of its own, whatever it reads."""
    return any(float(np.hypot(*(r.centre - n.centre))) < 1.5 * r.cand.length for n in named)


def lie(a: Reading, b: Reading) -> tuple[float, float, float, float]:
    """How ``b`` lies from ``a`` in ``a``'s own frame: how far down ``a``'s index and how far across it,
    their mean rank-to-suit distance, and how ``b`` is turned against ``a`` (1 the same way up, -1 half
    round)."""
    (ax, ay), (dx, dy) = _placed(a)
    (bx, by), (ex, ey) = _placed(b)
    vx, vy = bx - ax, by - ay
    along = vx * dx + vy * dy
    across = abs(vx * dy - vy * dx)
    return along, across, (a.cand.length + b.cand.length) / 2, dx * ex + dy * ey


def _placed(r: Reading) -> tuple[tuple[float, float], tuple[float, float]]:
    """``r``'s centre and its unit vector from rank to suit as plain numbers (:attr:`Reading.centre`
    and :attr:`Reading.down` give them as arrays). Why: the corners of a table's readings are weighed two by
    two, some hundreds of pairs a frame, and arrays that small cost more to make than to use."""
    (rx, ry), (sx, sy) = r.cand.rank, r.cand.suit
    length = max(r.cand.length, 1e-6)
    return ((rx + sx) / 2, (ry + sy) / 2), ((sx - rx) / length, (sy - ry) / length)
