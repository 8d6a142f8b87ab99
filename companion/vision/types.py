"""Value types shared by card recognition, frame sources and the tracker.

A ``Sighting`` is one thing recognised in one frame: a named card, a face-down card (``"back"``) or a
card-like object that could not be read with confidence (``"unknown"``).  An unreadable card is an
explicit value with a confidence rather than ``None``, so the tracker can tell "nothing there" from
"something there I could not name".
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Final, TypeAlias

from companion.cards import Card

if TYPE_CHECKING:  # NumPy only for the type checker: the scoring commands import this and start light
    import numpy as np
    import numpy.typing as npt

__all__ = ["BACK", "UNKNOWN", "Frame", "Sighting"]

BACK: Final = "back"
UNKNOWN: Final = "unknown"

Frame: TypeAlias = "npt.NDArray[np.uint8]"
"""An image as OpenCV holds it: H x W x 3, uint8, BGR."""


@dataclass(frozen=True, slots=True)
class Sighting:
    """One thing recognised in one frame."""

    label: str
    """Canonical card text (``"5h"``, ``"10d"``, ``"Qs"``), ``"back"`` or ``"unknown"``."""
    confidence: float
    """How sure the recogniser is, 0..1."""
    corners: tuple[tuple[float, float], ...]
    """Polygon (image pixels) around what was recognised."""

    def __post_init__(self) -> None:
        if self.label not in (BACK, UNKNOWN) and str(Card.parse(self.label)) != self.label:
            raise ValueError(f"sighting label {self.label!r} is not in canonical card form")
        if not 0.0 <= self.confidence <= 1.0:
            raise ValueError(f"sighting confidence {self.confidence} is outside 0..1")
        if not self.corners:
            raise ValueError("a sighting needs at least one corner point")

    @property
    def card(self) -> Card | None:
        """The card named, or None for a back or an unknown."""
        if self.label in (BACK, UNKNOWN):
            return None
        return Card.parse(self.label)

    @property
    def center(self) -> tuple[float, float]:
        """Mean of the corner points, in image pixels."""
        n = len(self.corners)
        return (sum(p[0] for p in self.corners) / n, sum(p[1] for p in self.corners) / n)
