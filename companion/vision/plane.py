"""The table's plane: the homography taking a slanting camera's frame to the table seen from straight above.

Why: a camera on a shelf or a tripod looks at the table at up to about 45 degrees. The far cards are
then smaller, every card is shortened along the line of sight and its index's glyphs are squashed and
sheared, so the recogniser (trained and tuned on cards seen from above) finds fewer of them and the
two corners of one card no longer lie as two corners of one card. The table is a plane, and the
picture of a plane from any camera is one homography away from its picture from straight above; once
that homography is known (fitted at calibration from the cards' own outlines: see
:mod:`companion.vision.rectify`), every frame can be warped to the view from above, read there, and
the cards found mapped back into the frame (:class:`TopDown`).

:class:`TablePlane` is a small frozen value kept in the table's layout (and its JSON file). This module
loads neither NumPy nor OpenCV until a frame is warped: the layout, and with it this, is imported by
parts that never see a picture.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Final, Protocol

from companion.vision.types import UNKNOWN, Frame, Sighting

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

__all__ = ["TablePlane", "TopDown", "edge_colour"]

_Row = tuple[float, float, float]


@dataclass(frozen=True, slots=True)
class TablePlane:
    """The homography taking frame pixels to the view of the table from straight above.

    ``to_top`` is the 3x3 matrix, row by row; ``size`` the view's (width, height) in pixels, in which a
    card is about as many pixels wide as the frame showed it; ``frame_size`` the (width, height) of the
    frames it was fitted on (frames of another size from the same camera are scaled to it); ``card`` a
    card's width in the view, in pixels (0 where it is not known: a plane saved before it was kept).
    """

    to_top: tuple[_Row, _Row, _Row]
    size: tuple[int, int]
    frame_size: tuple[int, int]
    card: float = 0.0

    def __post_init__(self) -> None:
        rows = self.to_top
        if len(rows) != 3 or any(len(row) != 3 for row in rows):
            raise ValueError("a table plane needs a 3x3 homography")
        (a, b, c), (d, e, f), (g, h, i) = rows
        det = a * (e * i - f * h) - b * (d * i - f * g) + c * (d * h - e * g)
        if not abs(det) > 1e-12 or det != det or any(abs(v) == float("inf") for row in rows for v in row):
            raise ValueError("a table plane needs an invertible 3x3 homography")
        if min(self.size) < 1 or min(self.frame_size) < 1:
            raise ValueError("a table plane's sizes must be positive")
        if not self.card >= 0:
            raise ValueError("a table plane's card width must not be negative")

    @classmethod
    def of(
        cls,
        matrix: Sequence[Sequence[float]] | npt.NDArray[np.float64],
        size: tuple[int, int],
        frame_size: tuple[int, int],
        card: float = 0.0,
    ) -> TablePlane:
        """A plane from a 3x3 matrix (scaled so its last entry is 1)."""
        last = float(matrix[2][2])
        if not last:
            raise ValueError("a table plane's homography must not send the frame's origin to infinity")
        r = [tuple(float(v) / last for v in matrix[k][:3]) for k in range(3)]
        return cls(
            ((r[0][0], r[0][1], r[0][2]), (r[1][0], r[1][1], r[1][2]), (r[2][0], r[2][1], r[2][2])),
            size,
            frame_size,
            card,
        )

    def matrix(self, frame_size: tuple[int, int] | None = None) -> npt.NDArray[np.float64]:
        """The homography for frames of ``frame_size`` (default: the size it was fitted on)."""
        import numpy as np

        m = np.array(self.to_top, np.float64)
        if frame_size is not None and frame_size != self.frame_size:
            sx, sy = self.frame_size[0] / frame_size[0], self.frame_size[1] / frame_size[1]
            m = m @ np.diag([sx, sy, 1.0])
        return m

    def top_down(self, frame: Frame, fill: tuple[float, float, float] | None = None) -> Frame:
        """``frame`` as seen from straight above, the parts of the view beyond the frame filled with
        ``fill`` (default: :func:`edge_colour` of the frame; a mirrored card there would be a second
        card)."""
        import cv2

        h, w = frame.shape[:2]
        out = cv2.warpPerspective(
            frame,
            self.matrix((w, h)),
            self.size,
            flags=cv2.INTER_LINEAR,
            borderMode=cv2.BORDER_CONSTANT,
            borderValue=fill if fill is not None else edge_colour(frame),
        )
        result: Frame = out.astype("uint8", copy=False)
        return result

    def to_frame(
        self, points: Sequence[tuple[float, float]], frame_size: tuple[int, int]
    ) -> tuple[tuple[float, float], ...]:
        """Points of the view from above in the pixels of a frame of ``frame_size``, kept inside it."""
        import cv2
        import numpy as np

        back = np.linalg.inv(self.matrix(frame_size))
        moved = cv2.perspectiveTransform(np.array([points], np.float64), back)[0]
        w, h = frame_size
        return tuple(
            (round(min(max(float(x), 0.0), w - 1.0), 1), round(min(max(float(y), 0.0), h - 1.0), 1))
            for x, y in moved
        )

    def from_frame(
        self, points: Sequence[tuple[float, float]], frame_size: tuple[int, int]
    ) -> list[tuple[float, float]]:
        """Points of a frame of ``frame_size`` in the view from above (the inverse of :meth:`to_frame`,
        not kept inside the view)."""
        import numpy as np

        m = self.matrix(frame_size)
        seen = np.c_[np.asarray(points, np.float64), np.ones(len(points))] @ m.T
        return [(float(u / w), float(v / w)) for u, v, w in seen]

    def card_at(self, point: tuple[float, float], frame_size: tuple[int, int]) -> float | None:
        """How wide a card lying at ``point`` of a frame of ``frame_size`` is in that frame's pixels, or
        None where the card's width in the view is not known.

        Why: at a slant a far card is a good deal smaller than a near one (at 40 degrees, 60 pixels
        against 100), and a measure of "a card's size" fitted to the near ones passes over the far
        ones. The view from above shows every card at one width; the homography's local scale at the
        point (its Jacobian's determinant, ``det(H) / w**3`` for the point's ``w``) takes it back.
        """
        if not self.card:
            return None
        import numpy as np

        m = self.matrix(frame_size)
        w = float(m[2] @ np.array([point[0], point[1], 1.0]))
        stretch = abs(float(np.linalg.det(m))) / max(abs(w), 1e-12) ** 3
        return self.card / math.sqrt(max(stretch, 1e-12))

    def slant_at(self, point: tuple[float, float], frame_size: tuple[int, int]) -> float:
        """How steeply a frame of ``frame_size`` shows the table at ``point``, in degrees: a mark lying
        there is shortened one way to the cosine of this of its length the other way (0 where the
        camera looks straight down at it; about the camera's slant under the lens's middle, more on
        the far side, less on the near).

        The homography's local stretch (its Jacobian at the point) is greatest where the frame
        shortened the table most and least across that; their ratio is that shortening."""
        most, least = stretch_at(self.matrix(frame_size), point)
        return math.degrees(math.acos(min(1.0, float(least / max(most, 1e-12)))))

    def to_dict(self) -> dict[str, object]:
        data: dict[str, object] = {
            "to_top": [list(row) for row in self.to_top],
            "size": list(self.size),
            "frame_size": list(self.frame_size),
        }
        if self.card:
            data["card"] = self.card
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, object]) -> TablePlane:
        """A plane as :meth:`to_dict` wrote it; ValueError (one sentence) for anything else."""
        try:
            rows = data["to_top"]
            size = data["size"]
            frame_size = data["frame_size"]
            assert isinstance(rows, list) and isinstance(size, list) and isinstance(frame_size, list)
            m = [[float(v) for v in row] for row in rows]
            card = data.get("card", 0.0)
            assert isinstance(card, int | float)
            return cls.of(
                m, (int(size[0]), int(size[1])), (int(frame_size[0]), int(frame_size[1])), float(card)
            )
        except (KeyError, IndexError, TypeError, ValueError, AssertionError) as error:
            raise ValueError(f"not a table plane: {error}") from error


def stretch_at(m: npt.NDArray[np.float64], point: tuple[float, float]) -> tuple[float, float]:
    """How much the homography ``m`` stretches the picture about ``point``: most and least (the
    singular values of its Jacobian there)."""
    import numpy as np

    x, y = point
    w = m[2, 0] * x + m[2, 1] * y + m[2, 2]
    u = (m[0, 0] * x + m[0, 1] * y + m[0, 2]) / w
    v = (m[1, 0] * x + m[1, 1] * y + m[1, 2]) / w
    jac = np.array(
        [
            [(m[0, 0] - u * m[2, 0]) / w, (m[0, 1] - u * m[2, 1]) / w],
            [(m[1, 0] - v * m[2, 0]) / w, (m[1, 1] - v * m[2, 1]) / w],
        ]
    )
    most, least = np.linalg.svd(jac, compute_uv=False)
    return float(most), float(least)


def edge_colour(frame: Frame) -> tuple[float, float, float]:
    """The median colour of ``frame``'s edges: the table's, most often."""
    import numpy as np

    edges = np.concatenate([frame[0], frame[-1], frame[:, 0], frame[:, -1]])
    b, g, r = (float(v) for v in np.median(edges, axis=0))
    return b, g, r


#: Beyond this many degrees from straight on (an index shortened to under half its height), a card is
#: named in the view from above only where both its corners read it. Why: the view magnifies such a
#: far index from a few rows of pixels, and one corner alone then reads a 3 as a 5 or an 8, a queen as
#: a 10, surely. Levelled 60 degrees off straight down, the tuning tables (seeds 0-14) named 10 cards
#: wrong of 119, all by one corner, 9 of them where the table was seen at 62-67 degrees; cards named
#: by both corners there were all right. At 55 degrees none was wrong.
STEEPEST_ONE_CORNER: Final = 60.0


class Detector(Protocol):
    """Anything that names the cards in a frame (the recogniser)."""

    def detect(self, frame: Frame) -> list[Sighting]: ...


class TopDown:
    """A detector reading every frame as if from straight above: ``TopDown(recogniser, plane)``.

    Each frame is warped to the table's view from above (:meth:`TablePlane.top_down`), read there by
    ``recogniser``, and every sighting's outline mapped back to the frame's pixels, so zones, the
    tracker and drawings see frame pixels as ever. A filmed recogniser compares the warped frames with
    each other, so its reading only where something moved works as before; for that the parts of the
    view beyond the frame keep one colour (the first frame's edges'), or a hand reaching in at the
    frame's edge would change them all.

    Why frames where nothing moved are not warped at all: the warp costs far more than the comparison
    that finds nothing moved (at 45 degrees, 25 ms for a 1280x720 frame against under one), and at a
    card table most frames show what the last did. So each frame is first compared with the last one
    read, as the recogniser compares (:class:`~companion.vision.motion.Motion`), and where nothing
    changed what was read stands; one frame in ``MotionSettings.reread`` is warped whole and read all
    the same, so the recogniser's own re-reading for slow drift goes on. Where something changed, only
    the part of the view showing it is warped anew (see :meth:`_patch`).
    """

    def __init__(self, recogniser: Detector, plane: TablePlane) -> None:
        from companion.vision.motion import Motion

        self.recogniser = recogniser
        self.plane = plane
        # The view is read at its own size, never shrunk: its scale was chosen for the cards' indices
        # (see companion.vision.rectify.GROW), and a recogniser shrinks what is larger than its max_side.
        longest = max(plane.size)
        if getattr(recogniser, "max_side", longest) < longest:
            recogniser.max_side = longest  # type: ignore[attr-defined]
        # The far cards are magnified from few pixels, soft: card white left unnamed on a whole read
        # is read again enlarged (see Recogniser._closer).
        if hasattr(recogniser, "closer"):
            recogniser.closer = True
        self._fill: tuple[float, float, float] | None = None
        self._motion = Motion()
        self._seen: list[Sighting] = []
        self._stood = 0
        #: The last view read, and the size of the frames it was warped from.
        self._view: Frame | None = None
        self._view_of: tuple[int, int] | None = None

    def detect(self, frame: Frame) -> list[Sighting]:
        size = (frame.shape[1], frame.shape[0])
        small = self._motion.small(frame)
        change = self._motion.change(frame, small)
        if change is not None and not change.boxes and self._stood < self._motion.settings.reread:
            self._stood += 1
            return list(self._seen)
        if self._fill is None:
            self._fill = edge_colour(frame)
        if (
            change is None
            or not change.boxes
            or change.share > self._motion.settings.whole
            or self._view is None
            or self._view_of != size
        ):
            self._view, self._view_of = self.plane.top_down(frame, self._fill), size
        else:
            # A copy: the last view was handed to the recogniser, which may keep it.
            self._view = self._view.copy()
            self._patch(frame, self._view, change.boxes, self._fill)
        seen = self.recogniser.detect(self._view)
        self._seen = self._in_frame(seen, size)
        self._motion.settle(frame, small)
        self._stood = 0
        return list(self._seen)

    def _in_frame(self, seen: Sequence[Sighting], size: tuple[int, int]) -> list[Sighting]:
        """``seen``, read in the view from above, in the pixels of a frame of ``size``; a card named by
        one index where the table is seen more steeply than :data:`STEEPEST_ONE_CORNER`, unread.

        All their points are mapped at once: one by one, the homography was inverted for each of a
        dozen cards, every frame a card is laid."""
        points = [p for s in seen for p in s.corners] + [s.middle for s in seen if s.middle is not None]
        mapped = iter(self.plane.to_frame(points, size) if points else ())
        corners = [tuple(next(mapped) for _ in s.corners) for s in seen]
        out = []
        for s, around in zip(seen, corners, strict=True):
            middle = None if s.middle is None else next(mapped)
            s = replace(s, corners=around, middle=middle)
            if (
                s.card is not None
                and middle is not None
                and self.plane.slant_at(s.center, size) > STEEPEST_ONE_CORNER
            ):
                s = replace(s, seen=UNKNOWN, confidence=round(1.0 - s.confidence, 3))
            out.append(s)
        return out

    def _patch(
        self,
        frame: Frame,
        view: Frame,
        boxes: Sequence[tuple[int, int, int, int]],
        fill: tuple[float, float, float],
    ) -> None:
        """``view`` (the last frame's) with the parts showing ``boxes`` of ``frame`` warped anew.

        Why: warping the whole frame costs tens of milliseconds, warping what changed (a card laid, a
        hand) a few; the rest of the view is the last frame's, which the comparison found unchanged.
        Each box is grown by two of the comparison's cells, so its blended edge is warped too.
        """
        import cv2
        import numpy as np

        h, w = frame.shape[:2]
        m = self.plane.matrix((w, h))
        vw, vh = self.plane.size
        reach = 2 * self._motion.settings.cell
        for x0, y0, x1, y1 in boxes:
            x0, y0, x1, y1 = max(0, x0 - reach), max(0, y0 - reach), min(w, x1 + reach), min(h, y1 + reach)
            corners = np.array([[[x0, y0], [x1, y0], [x1, y1], [x0, y1]]], np.float64)
            seen = cv2.perspectiveTransform(corners, m)[0]
            left, top = (max(0, int(np.floor(v))) for v in seen.min(axis=0))
            right, bottom = (
                min(vw, int(np.ceil(seen[:, 0].max())) + 1),
                min(vh, int(np.ceil(seen[:, 1].max())) + 1),
            )
            if right <= left or bottom <= top:
                continue
            moved = np.array([[1.0, 0.0, -left], [0.0, 1.0, -top], [0.0, 0.0, 1.0]]) @ m
            view[top:bottom, left:right] = cv2.warpPerspective(
                frame,
                moved,
                (right - left, bottom - top),
                flags=cv2.INTER_LINEAR,
                borderMode=cv2.BORDER_CONSTANT,
                borderValue=fill,
            )

    def forget(self) -> None:
        """Forget the frames read so far (see ``Recogniser.forget``): the next is read whole."""
        self._fill = None
        self._motion.forget()
        self._seen = []
        self._view = None
        forget = getattr(self.recogniser, "forget", None)
        if forget is not None:
            forget()
