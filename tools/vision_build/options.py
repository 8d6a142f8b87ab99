"""What a build is asked to do beyond its defaults, as one frozen value, and where it reads and writes.

Why one value: the scenes are made in forked worker processes, and options kept in module-level dicts
set by the command line reached them only because ``fork`` copies the parent's memory (a ``spawn``
start, or a test that forgot to undo a change, silently built something else). Every function that
draws decks or scenes takes the options as an argument instead, and the workers get them in their job.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from companion.vision.recognise import FINDER_FILE, NAMER_FILE

__all__ = ["CARD_W", "DATA", "DEFAULT", "FINDER", "NAMER", "SHARED", "Options"]

REPO = Path(__file__).resolve().parents[2]
#: The card data set beside the repository (vector decks, real crops and deals with their licences).
SHARED = REPO.parent / "shared" / "datasets" / "cards"
#: Where the shipped networks live in the package.
DATA = REPO / "companion" / "vision" / "data"
FINDER = DATA / FINDER_FILE
NAMER = DATA / NAMER_FILE
#: Width (pixels) every deck's faces are rendered and drawn at.
CARD_W = 240


@dataclass(frozen=True, slots=True)
class Options:
    """How the drawn decks look and which real crops are used; the defaults build the shipped networks.

    The reasons behind each default, and what other values measured, are in :mod:`tools.vision_build.drawing`
    (``flat_threes``, ``barred_jacks``, ``court_frames_beside``) and docs/contributing.md.
    """

    flat_threes: float = 0.3
    """Share of typeface decks whose 3 has a flat top (``--flat-threes``)."""
    drawn_flat_threes: bool = False
    """Whether faces without a flat-topped 3 glyph get one drawn (``--drawn-flat-threes``)."""
    barred_jacks: float = 0.0
    """Share of typeface decks whose J has a bar across the top of its stem (``--barred-jacks``)."""
    court_frames_beside: bool = False
    """Whether drawn decks frame their court pictures beside the index (``--court-frames-beside``)."""
    hold_out_crops: bool = False
    """Whether 13 real crops are kept out of training, to measure on them (``--hold-out-crops``)."""


DEFAULT = Options()
