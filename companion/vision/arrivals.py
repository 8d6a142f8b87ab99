"""Something new lies still where nothing lay, and nothing was read on it: a card the recogniser missed.

Why: the recogniser can fail to find any index at all on a card (a blurred glyph run into the card's
edge, a glare over both corners), and then reports nothing -- not even an unread card.  The tracker
follows only what is reported, so such a card never reaches the table: the game thinks the player still
holds it, takes the next card for the next turn, and the deal goes out of step.  A card the camera
cannot read is only a question to the players; a card it never noticed is a wrong game.

How: each frame is shrunk to cells (an area average, as :mod:`companion.vision.motion` does), and each
cell's share of *paper* -- bright, colourless pixels, as a card's face is and a wooden table, a hand or a
back is not -- is compared with the table as it was last settled.  Cells that became paper and have
stopped changing are fresh paper; their connected groups are judged once they have lain still for
``grace`` seconds:

* a group with something new recognised on it (named, unread, a back; not a card seen there before
  it began), in the frames since it began, is explained -- the tracker follows that card -- and
  becomes part of the settled table;
* a group smaller than ``least`` of a card (a nudge, a sleeve) becomes part of the settled table;
* any other is an :class:`Arrival`: a card-sized new thing at rest that nothing read.  It is reported
  in every frame while its paper lies there, so the watch (:mod:`companion.app.seen`) can ask about it
  in its turn.  It is judged once, when it comes: a card laid later over part of it, read, does not
  explain it away.

A card laid on another card's face shows no fresh paper and is not seen here; a card removed shows
none either.  A change over most of the frame (the camera knocked, the light switched) settles the whole
table again and says nothing.  The work is a few small array operations a frame (about a millisecond).
"""

from __future__ import annotations

import itertools
from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

import cv2
import numpy as np
import numpy.typing as npt

from companion.vision.types import Frame, Sighting

__all__ = ["Arrival", "Arrivals"]

_Cells = npt.NDArray[np.float32]
#: A card's width in a frame's pixels where it lies (a point of the frame).
CardWidth = Callable[[tuple[float, float]], float]


@dataclass(frozen=True, slots=True)
class Arrival:
    """A card-sized new thing lying still that nothing was read on (see the module notes)."""

    number: int
    """Which arrival this is: the same number in every frame it is reported in."""
    since: float
    """When its paper first showed (the shots' clock, seconds)."""
    corners: tuple[tuple[float, float], ...]
    """The box round its fresh paper, in frame pixels."""

    @property
    def centre(self) -> tuple[float, float]:
        (x0, y0), _, (x1, y1), _ = self.corners
        return ((x0 + x1) / 2, (y0 + y1) / 2)


@dataclass
class _Standing:
    arrival: Arrival
    cells: npt.NDArray[np.bool_]
    missing: int = 0


@dataclass
class Arrivals:
    """Finds :class:`Arrival` values frame by frame (see the module notes); one per camera."""

    cell: int = 8
    """Cell size in frame pixels."""
    grace: float = 0.15
    """How long fresh paper lies still before it is judged: time for the recogniser to read it."""
    least: float = 0.3
    """The share of a card's area that fresh paper must cover to be a card."""
    whole: float = 0.5
    """A change over more than this share of the frame settles the whole table."""
    _settled: _Cells = field(default_factory=lambda: np.zeros((0, 0), np.float32))
    """The paper share of each cell of the table as last settled (none before the first frame)."""
    _last: _Cells = field(default_factory=lambda: np.zeros((0, 0, 3), np.float32))
    _since: npt.NDArray[np.float64] = field(default_factory=lambda: np.zeros((0, 0)))
    """When each cell of fresh paper first showed (infinity where there is none)."""
    _standing: list[_Standing] = field(default_factory=list)
    _seen: deque[tuple[float, tuple[tuple[str, float, float], ...]]] = field(
        default_factory=lambda: deque(maxlen=90)
    )
    """The last three seconds' sightings: what, and where."""
    _numbers: itertools.count[int] = field(default_factory=lambda: itertools.count(1))

    def see(
        self, frame: Frame, sightings: Iterable[Sighting], time: float, card: float | CardWidth
    ) -> list[Arrival]:
        """The arrivals lying in ``frame`` (taken at ``time``), given what was recognised in it and a
        card's width in the frame's pixels (``card``): one for the whole frame, or where a camera
        looks at a slant, the width of a card lying at a point (see ``TablePlane.card_at``)."""
        colour, paper = self._cells(frame)
        self._seen.append((time, tuple((s.label, *s.center) for s in sightings)))
        if paper.shape != self._settled.shape:  # the first frame, or the camera's size changed
            self._settled, self._last = paper, colour
            self._since = np.full(paper.shape, np.inf)
            self._standing = []
            return []
        moving = np.abs(colour - self._last).max(axis=2) > 8.0
        self._last = colour
        if moving.mean() > self.whole:
            self._settled = paper
            self._since[:] = np.inf
            self._standing = []
            return []
        fresh = (paper >= 0.5) & (self._settled <= 0.15)
        self._since = np.where(fresh, np.minimum(self._since, time), np.inf)
        ready = fresh & ~moving
        # Everything else that lies still is the table as it now is (a card taken away, ink on paper).
        still = ~moving & ~fresh
        self._settled = np.where(still, paper, self._settled)
        self._judge(ready, paper, time, card)
        return self._lying(paper, moving)

    def _cells(self, frame: Frame) -> tuple[_Cells, _Cells]:
        """The frame's cells: mean colour, and the share of paper pixels in each."""
        h, w = frame.shape[:2]
        size = (max(1, w // self.cell), max(1, h // self.cell))
        # Paper is judged at half size (a quarter of the pixels; card faces are far larger than that).
        half = np.asarray(cv2.resize(frame, (max(1, w // 2), max(1, h // 2)), interpolation=cv2.INTER_AREA))
        b, g, r = cv2.split(half)
        low = cv2.min(cv2.min(b, g), r)
        high = cv2.max(cv2.max(b, g), r)
        spread = np.asarray(cv2.subtract(high, low), np.uint8)
        paper = ((np.asarray(low) >= 190) & (spread <= 40)).astype(np.float32)
        share = np.asarray(cv2.resize(paper, size, interpolation=cv2.INTER_AREA), np.float32)
        colour = np.asarray(cv2.resize(half, size, interpolation=cv2.INTER_AREA), np.float32)
        return colour, share

    def _judge(
        self, ready: npt.NDArray[np.bool_], paper: _Cells, time: float, width: float | CardWidth
    ) -> None:
        count, labels, stats, centroids = cv2.connectedComponentsWithStats(
            ready.astype(np.uint8), connectivity=8
        )
        for k in range(1, count):
            cells = labels == k
            since = float(self._since[cells].min())
            if time - since < self.grace:
                continue  # still the recogniser's turn
            middle = (float(centroids[k][0] + 0.5) * self.cell, float(centroids[k][1] + 0.5) * self.cell)
            card = width(middle) if callable(width) else width
            area = 1.4 * (card / self.cell) ** 2
            x, y, w, h = (int(v) * self.cell for v in stats[k, :4])
            box = ((x, y), (x + w, y), (x + w, y + h), (x, y + h))
            if stats[k, cv2.CC_STAT_AREA] >= self.least * area and not self._explained(box, since, card):
                arrival = Arrival(next(self._numbers), since, tuple((float(a), float(b)) for a, b in box))
                self._standing.append(_Standing(arrival, cells))
            self._settled = np.where(cells, paper, self._settled)
            self._since[cells] = np.inf

    def _explained(self, box: tuple[tuple[int, int], ...], since: float, card: float) -> bool:
        """Whether something new was recognised on the box (grown by a fifth of a card) since its paper
        showed.  Not a card seen there before: the corner of one it lies beside, or the index of one it
        now covers, is no reading of it."""
        (x0, y0), _, (x1, y1), _ = box
        m = 0.2 * card
        # Before means well before (the card itself may have been read under the hand that laid it),
        # and lately: the same card gathered up at the end of the last deal may be dealt to the spot.
        before = [seen for t, frame in self._seen if since - 1.0 <= t < since - 0.5 for seen in frame]

        def new(label: str, x: float, y: float) -> bool:
            return not any(b == label and abs(bx - x) + abs(by - y) < 0.3 * card for b, bx, by in before)

        return any(
            x0 - m <= x <= x1 + m and y0 - m <= y <= y1 + m and new(label, x, y)
            for t, frame in self._seen
            if t >= since
            for label, x, y in frame
        )

    def _lying(self, paper: _Cells, moving: npt.NDArray[np.bool_]) -> list[Arrival]:
        """The arrivals still lying there: most of their paper in view, or hidden by something moving (a
        hand passing over).  One gone for half a second is forgotten."""
        out: list[Arrival] = []
        for standing in list(self._standing):
            cells = standing.cells
            shown = float((paper[cells] >= 0.5).mean())
            passing = float(moving[cells].mean())
            if shown >= 0.5 or passing >= 0.2:
                standing.missing = 0
                if shown >= 0.5:
                    out.append(standing.arrival)
                continue
            standing.missing += 1
            if standing.missing > 15:
                self._standing.remove(standing)
        return out
