"""What changed in a filmed frame since the table last lay still: regions of change, at low resolution.

Why: a camera over a card table sees the same table in most frames; a card is laid, a hand passes, and
the rest lies still. Reading a whole 1280x720 frame of a dozen cards costs a hundred milliseconds on one
core; finding that nothing moved costs about one. So :class:`Motion` keeps a small grey picture of the
table as it was last read (the *settled* picture) and compares each new frame with it, and the
recogniser reads only the regions that differ, keeping what it read everywhere else
(see :meth:`companion.vision.recognise.Recogniser.detect`).

How: the frame is shrunk to cells of CELL pixels (an area average, which also averages away most of a
sensor's noise), and each cell's grey level is compared with the settled picture's. The median
difference over the whole frame is taken off first, so that a camera's exposure or a lamp dimming a
little does not count as change everywhere; a cell differing by more than ``threshold`` grey levels is
changed. Changed cells are grown by one cell and grouped into boxes (connected regions), returned in
frame pixels. A frame whose size differs from the settled picture's, or with no settled picture, has no
comparison (None), and is read whole.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

import cv2
import numpy as np
import numpy.typing as npt

from companion.cards import Card
from companion.vision.settings import MotionSettings
from companion.vision.types import UNKNOWN, Frame, Sighting

__all__ = [
    "Box",
    "Change",
    "Motion",
    "MotionSettings",
    "box_in",
    "covered",
    "grown",
    "merged",
    "moved",
    "still_named",
    "touches",
    "within",
]

Box = tuple[int, int, int, int]
"""x0, y0, x1, y1 in frame pixels, the end exclusive."""


@dataclass(frozen=True, slots=True)
class Change:
    """The regions of a frame that differ from the settled picture, and the share of the frame they
    cover (changed cells over all cells)."""

    boxes: tuple[Box, ...]
    share: float
    shaken: bool = False
    """Whether the change is the settled picture smeared (see :meth:`Motion.change`): the camera shook
    or lost its focus, and nothing on the table moved."""


class Motion:
    """The settled picture of the table, and the comparison of new frames with it."""

    def __init__(self, settings: MotionSettings | None = None) -> None:
        self.settings = settings or MotionSettings()
        self._settled: npt.NDArray[np.float32] | None = None
        self._size: tuple[int, int] | None = None

    def small(self, frame: Frame) -> npt.NDArray[np.float32]:
        """``frame`` as grey cells (see :class:`MotionSettings`), each ``cell`` pixels square; what is
        left over at the right and bottom edges, under a cell, is not compared (see :meth:`change`).

        Why whole cells: shrinking by a whole factor is OpenCV's quick way, and a levelled camera's
        view from above (2237 by 1237 pixels at 45 degrees) took 8.8 ms shrunk by 279.6 to 279 cells,
        1.0 ms cut to whole cells first; each cell is then also just where :meth:`change` says it is.
        """
        gray = frame if frame.ndim == 2 else cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
        h, w = gray.shape[:2]
        c = self.settings.cell
        cells = (max(1, w // c), max(1, h // c))
        whole = gray[: cells[1] * c, : cells[0] * c] if w >= c and h >= c else gray
        out: npt.NDArray[np.float32] = np.asarray(
            cv2.resize(whole, cells, interpolation=cv2.INTER_AREA), np.float32
        )
        return out

    def change(self, frame: Frame, small: npt.NDArray[np.float32]) -> Change | None:
        """Where ``frame`` (``small``: its cells) differs from the settled picture, or None if there is
        nothing to compare with."""
        size = (frame.shape[1], frame.shape[0])
        if self._settled is None or self._size != size or self._settled.shape != small.shape:
            return None
        diff = small - self._settled
        diff -= float(np.median(diff))
        changed = (np.abs(diff) > self.settings.threshold).astype(np.uint8)
        share = float(changed.mean())
        if share == 0.0:
            return Change((), 0.0)
        changed = np.asarray(cv2.dilate(changed, np.ones((3, 3), np.uint8)), np.uint8)
        n, labels, stats, _ = cv2.connectedComponentsWithStats(changed, connectivity=8)
        smeared = self._smeared(small, diff, np.asarray(labels, np.int32), n)
        c = self.settings.cell
        # Cells cover the frame to within a cell at its right and bottom edges: those go with the last.
        boxes = []
        for k, (x, y, bw, bh, _) in enumerate(stats[1:n].tolist(), start=1):
            if k in smeared:
                continue
            x1 = size[0] if x + bw >= small.shape[1] else (x + bw) * c
            y1 = size[1] if y + bh >= small.shape[0] else (y + bh) * c
            boxes.append((x * c, y * c, x1, y1))
        return Change(tuple(boxes), share, bool(smeared))

    def _smeared(
        self,
        small: npt.NDArray[np.float32],
        diff: npt.NDArray[np.float32],
        labels: npt.NDArray[np.int32],
        n: int,
    ) -> set[int]:
        """The regions of change (``labels`` 1 to ``n - 1``) that are the settled picture smeared.

        Why: a table bumped, or a camera's focus hunting, blurs a frame or a few; every card's edge then
        shows as changed, and the networks, never trained on a smear, read some of those cards as other
        cards, surely (the demo film bumped every second and a half: ten wrong cards). Nothing there
        moved, though, and a smear only spreads each cell a little into its neighbours: such a region
        lies much nearer the settled picture partly blurred across three cells than the settled picture
        itself. A card laid, or a hand, brings what was not there, near neither.
        """
        settings = self.settings
        assert self._settled is not None
        blurred = np.asarray(cv2.blur(self._settled, (3, 3)), np.float32)
        offsets = []
        for share in settings.smear_shares:
            offset = small - ((1.0 - share) * self._settled + share * blurred)
            offsets.append(np.abs(offset - float(np.median(offset))))
        moved = np.abs(diff) > settings.threshold
        sizes = np.bincount(labels[moved], minlength=n)
        # Regions too small to judge alone (a smear shows as a few cells along each card's edges) are
        # judged together.
        groups = [[k] for k in range(1, n) if sizes[k] >= settings.smear_cells]
        groups.append([k for k in range(1, n) if sizes[k] < settings.smear_cells])
        out: set[int] = set()
        for group in groups:
            cells = moved & np.isin(labels, group)
            if cells.sum() < settings.smear_cells:
                continue
            before = float(np.median(np.abs(diff[cells])))
            after = min(float(np.median(o[cells])) for o in offsets)
            if after < settings.smear_nearer * before:
                out.update(group)
        return out

    def settle(
        self, frame: Frame, small: npt.NDArray[np.float32], boxes: tuple[Box, ...] | None = None
    ) -> None:
        """Take ``frame`` (its cells ``small``) as the settled picture: all of it, or within ``boxes``."""
        size = (frame.shape[1], frame.shape[0])
        if boxes is None or self._settled is None or self._size != size:
            self._settled = small.copy()
            self._size = size
            return
        c = self.settings.cell
        for x0, y0, x1, y1 in boxes:
            cx0, cy0 = x0 // c, y0 // c
            cx1, cy1 = -(-x1 // c), -(-y1 // c)
            self._settled[cy0:cy1, cx0:cx1] = small[cy0:cy1, cx0:cx1]

    def forget(self) -> None:
        """Drop the settled picture: the next frame is read whole."""
        self._settled = None
        self._size = None


def grown(box: Box, by: float, size: tuple[int, int]) -> Box:
    """``box`` grown by ``by`` pixels each way, kept inside a frame of ``size`` (width, height)."""
    x0, y0, x1, y1 = box
    d = round(by)
    return max(0, x0 - d), max(0, y0 - d), min(size[0], x1 + d), min(size[1], y1 + d)


def merged(boxes: list[Box]) -> list[Box]:
    """``boxes`` with every two that overlap replaced by the box spanning both, until none overlap."""
    out = list(boxes)
    joined = True
    while joined:
        joined = False
        for i in range(len(out)):
            for j in range(i + 1, len(out)):
                a, b = out[i], out[j]
                if a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]:
                    out[i] = (min(a[0], b[0]), min(a[1], b[1]), max(a[2], b[2]), max(a[3], b[3]))
                    del out[j]
                    joined = True
                    break
            if joined:
                break
    return out


def moved(s: Sighting, dx: float, dy: float) -> Sighting:
    """``s`` moved by ``dx``, ``dy`` pixels (from a region's pixels to its frame's)."""
    middle = None if s.middle is None else (round(s.middle[0] + dx, 1), round(s.middle[1] + dy, 1))
    return replace(
        s, corners=tuple((round(x + dx, 1), round(y + dy, 1)) for x, y in s.corners), middle=middle
    )


def box_in(inner: Box, outer: Box) -> bool:
    return inner[0] >= outer[0] and inner[1] >= outer[1] and inner[2] <= outer[2] and inner[3] <= outer[3]


def within(s: Sighting, box: tuple[float, float, float, float] | Box) -> bool:
    """Whether all of ``s`` lies inside ``box``."""
    return all(box[0] <= x <= box[2] and box[1] <= y <= box[3] for x, y in s.corners)


def covered(s: Sighting, seen: Sequence[Sighting]) -> bool:
    """Whether one of ``seen`` lies where ``s`` does (either's centre inside the box round the other):
    a card read before, perhaps more of it (a card cut by a region's edge shows one corner there)."""

    def inside(p: tuple[float, float], t: Sighting) -> bool:
        xs, ys = [x for x, _ in t.corners], [y for _, y in t.corners]
        return min(xs) <= p[0] <= max(xs) and min(ys) <= p[1] <= max(ys)

    return any(inside(t.center, s) or inside(s.center, t) for t in seen)


def touches(s: Sighting, boxes: Sequence[Box]) -> bool:
    """Whether the box round ``s`` overlaps any of ``boxes``."""
    xs, ys = [x for x, _ in s.corners], [y for _, y in s.corners]
    return any(min(xs) < b[2] and b[0] < max(xs) and min(ys) < b[3] and b[1] < max(ys) for b in boxes)


def still_named(before: list[Sighting], now: list[Sighting], changed: Sequence[Box]) -> list[Sighting]:
    """``now`` (a whole frame read again) with each card ``before`` named that ``now`` names nothing
    at (or only an unread index), where nothing ``changed``, kept as it was."""
    out = list(now)
    for s in before:
        if not isinstance(s.seen, Card) or touches(s, changed):
            continue
        there = [t for t in out if covered(t, [s])]
        if any(t.seen != UNKNOWN for t in there):  # named there now, or turned face down
            continue
        out = [t for t in out if not any(t is u for u in there)] + [s]
    return out
