"""Value types shared by card recognition, frame sources, the tracker and the table.

The marks a sighting may show instead of a card (:class:`~companion.cards.Mark`, :data:`BACK`,
:data:`UNKNOWN`), the ``Seen`` alias, :func:`seen_from_text` and the table's zones (:class:`Zone`) live in
:mod:`companion.cards`, so the table's events can carry them; they are re-exported here.

A ``Sighting`` is one thing recognised in one frame: a named :class:`~companion.cards.Card`, a face-down
card (:data:`BACK`) or a card-like object that could not be read with confidence (:data:`UNKNOWN`).  An
unreadable card is an explicit value with a confidence rather than ``None`` or a string, so the tracker
can tell "nothing there" from "something there I could not name", and nothing downstream parses text.

A ``Zone`` is a part of the table, named once for the vision (which finds it in the picture), the table
(which knows what may be laid there) and the scoreboard (which says where a card lay).  Its values are
the words the journal and recorded games have always used (``player0``, ``starter``, ``crib``), so a
``Zone`` is also the text those files hold.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, TypeAlias

from companion.cards import BACK, UNKNOWN, Card, Mark, Seen, Zone, seen_from_text

if TYPE_CHECKING:  # NumPy only for the type checker: the scoring commands import this and start light
    import numpy as np
    import numpy.typing as npt

__all__ = ["BACK", "UNKNOWN", "Frame", "Mark", "Seen", "Sighting", "Zone", "seen_from_text"]


Frame: TypeAlias = "npt.NDArray[np.uint8]"
"""An image as OpenCV holds it: H x W x 3, uint8, BGR."""


@dataclass(frozen=True, slots=True)
class Sighting:
    """One thing recognised in one frame."""

    seen: Seen
    """The card named, or :data:`BACK`, or :data:`UNKNOWN`."""
    confidence: float
    """How sure the recogniser is, 0..1."""
    corners: tuple[tuple[float, float], ...]
    """Polygon (image pixels) around what was recognised. A named card's is four corners drawn in the
    card's own lie: the side from the second to the third runs along the card's length (down its
    index, or, for a card named by its pips, its outline's longer side)."""
    middle: tuple[float, float] | None = None
    """Where the card's middle lies (image pixels) when ``corners`` go round a part of it only: one
    index read, its card's other corner unread; None where they go round all of it."""

    def __post_init__(self) -> None:
        if not isinstance(self.seen, Card | Mark):
            raise TypeError(f"a sighting shows a Card, BACK or UNKNOWN, not {self.seen!r}")
        if not 0.0 <= self.confidence <= 1.0:
            raise ValueError(f"sighting confidence {self.confidence} is outside 0..1")
        if not self.corners:
            raise ValueError("a sighting needs at least one corner point")

    @property
    def label(self) -> str:
        """The text of what was seen (``"5h"``, ``"back"``, ``"unknown"``), for drawings and JSON."""
        return str(self.seen)

    @property
    def card(self) -> Card | None:
        """The card named, or None for a back or an unknown."""
        return self.seen if isinstance(self.seen, Card) else None

    @property
    def center(self) -> tuple[float, float]:
        """Mean of the corner points, in image pixels."""
        n = len(self.corners)
        return (sum(p[0] for p in self.corners) / n, sum(p[1] for p in self.corners) / n)

    @property
    def where(self) -> tuple[float, float]:
        """Where the thing seen lies: its card's middle (``middle``, else the corners' mean).

        Why not the corners' mean alone: a card read at one corner has the index's outline, about
        two thirds of a card's width from its middle, and where the camera looks at a slant the zones
        lie closer than that (the demo game filmed at 40 degrees gave the play's cards to the starter
        spot).
        """
        return self.middle if self.middle is not None else self.center
