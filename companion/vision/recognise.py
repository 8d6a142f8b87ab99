"""Recognition of the cards in one frame: ``Recogniser().detect(frame) -> list[Sighting]``.

How a frame is read, and why:

1. The frame is scaled so its longer side is at most ``max_side`` pixels (a 6000x4000 phone photo and a
   1280x720 webcam frame then show index glyphs of similar size; nothing is ever scaled up). It is
   read once more at half that scale, so that a card close under the camera is read as well (filmed
   frames skip this when every index read is small: see COARSE_UNLESS_UNDER).
2. :mod:`companion.vision.index` finds every pair of ink marks that could be an index (rank over suit)
   and cuts each out upright. Working from index corners is what lets a card under another card, or
   under a hand, still be read. Two shipped networks then read the candidates: the finder, a cheap
   perceptron on gradient cells (:mod:`companion.vision.mlp`), throws out the hundreds that are plainly
   no index (wood grain, pips, court-card detail); the namer, a small convolutional network
   (:mod:`companion.vision.cnn`), names rank and suit of the dozen or so left from a finer cut-out of
   its own, or says "not an index" too. The namer reads deck designs it never saw far better than the
   finder could alone, and costs too much to run on every candidate. The suit mark's outline is then
   weighed in (:func:`index.suit_notches`): a network sees the suit at a few pixels and can mix spades
   with clubs, where the notches between a club's lobes are plain at full resolution. It costs about
   half a millisecond a frame. Outlines nothing was read in (a court card's picture frame, a card's
   edge) are then searched for a glyph run into their lines (:func:`index.freed_candidates`), and
   what is freed is read the same way.
3. Overlapping guesses of one index are merged (the best is kept); the two indices printed on one card
   (top-left and, turned half round, bottom-right) are merged into one sighting of that card. Where
   both corners of a card are read, its pips are counted (:mod:`companion.vision.pips`), and a plain
   count that differs from the rank read names the card: a deck never seen in training can print a
   rank glyph the networks misread with full confidence, but not a three with five pips. A number
   read on a card showing a court's picture is reported unread.
4. Card-shaped outlines with no index on them are face-down cards (``"back"``): a deck, a crib.
5. A reading the network is not sure of is reported as ``"unknown"`` rather than guessed: a misread
   card is a wrong score, an unknown one is only a prompt to look again.

:func:`duplicates` names cards seen more than once (a misread, or a second deck on the table).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Final, TypeVar

import cv2
import numpy as np
import numpy.typing as npt

from companion.vision import cnn, pips
from companion.vision import index as idx
from companion.vision.cnn import Namer
from companion.vision.mlp import NOT_INDEX, RANK_TEXTS, SUIT_TEXTS, Network
from companion.vision.pips import Pips
from companion.vision.types import BACK, UNKNOWN, Frame, Sighting, seen_from_text

__all__ = ["DEFAULT_MODEL", "FINDER_FILE", "NAMER_FILE", "Recogniser", "duplicates"]

#: The folder the shipped networks lie in, and their file names there.
DEFAULT_MODEL: Final = Path(__file__).resolve().parent / "data"
FINDER_FILE: Final = "index_net.npz"
NAMER_FILE: Final = "index_cnn.npz"

#: A card is named when rank and suit together are at least this likely.
ACCEPT: Final = 0.7
#: The bar for an index whose rank or suit mark had to be split from a line it ran into (a court
#: frame, the card's own edge): such a glyph may have lost a stroke to the line, and a king cut by a
#: card's edge was read as a ten at 0.74. Glyphs freed whole are read at 0.95 and over.
FREED_ACCEPT: Final = 0.9
#: Below ACCEPT, a candidate still counts as an unreadable index when "not an index" is this unlikely.
UNKNOWN_BELOW: Final = 0.15
#: The finder passes a candidate on to the namer unless it is at least this sure it is no index.
#: Why so strict: the finder (a perceptron) is the weaker reader of decks never seen in training, and at
#: 0.85, the namer's own bar, it threw out indices the namer reads right (the unseen deck's ten of clubs,
#: on the table photos and as a crop). At 0.99 a sixth more candidates reach the namer (the filmed demo
#: game's frames); at 0.999 two fifths more, about 5 ms a frame, and no card more was read.
FINDER_REJECT: Final = 0.99
#: Every frame is read twice, as it is and scaled by COARSE, unless the scaled frame's shorter side
#: would be under COARSE_FROM pixels. Why: the networks learnt indices of cards 52 to 230 pixels
#: wide; a card filling a close webcam frame or a photo of one card is wider, and there the finder
#: threw out indices the namer would have read (the unseen deck's nines and tens, at 228 pixels). At
#: half scale such cards fall in the range learnt, and the two ranges overlap. (A third reading, at a
#: quarter, found no more cards on the table photos and made one more wrong report.)
COARSE: Final = 0.5
COARSE_FROM: Final = 100
#: ... except, in filmed frames, when every index named at the working scale is at most this many
#: pixels from rank to suit. Why: the second reading cost about 9 of a 1280x720 frame's 32 ms, and it is
#: mostly for cards too large for the networks. An index's rank-to-suit distance is 0.14-0.25 of its
#: card's width (the real deck and the demo deck, 60-160 pixels wide), so at 30 pixels the largest card
#: read is at most 210 pixels wide, inside the learnt range, and a camera over a table sees every card
#: at about one size. Not for still photos: on the real deals (indices 20-30 pixels) the second look
#: still read 3 more of 212 indices, which a camera gets from the next frames instead.
COARSE_UNLESS_UNDER: Final = 30.0
#: A still photo whose working image is at most FINE_UNDER pixels on its longer side (a webcam's
#: 1280x720 or 640x480) is read a third time, enlarged by FINE. Why: a webcam high over a card sees it
#: 70-110 pixels wide, its index glyphs under ten pixels tall, and a soft lens on a dark cloth runs the
#: glyph into the card's dark edge, so no glyph-sized blob is left to pair; enlarged, the same
#: softness spans whole pixels and the glyph stands clear (see benchmarks/bench_webcam.py). Not for
#: filmed frames, where it would cost twice a frame's time; a camera over a table is set up to see
#: its cards larger.
FINE: Final = 2.0
FINE_UNDER: Final = 1280
#: The pips each rank prints, for the ranks whose reading a count of pips checks (see :func:`_counted`).
PIP_RANKS: Final = {"2": 2, "3": 3, "4": 4, "5": 5, "6": 6, "7": 7, "8": 8, "9": 9, "10": 10}
PIP_NAMES: Final = {count: rank for rank, count in PIP_RANKS.items()}
COURT_RANKS: Final = ("J", "Q", "K")
#: The red suits.
RED: Final = ("d", "h")
#: The confidence of a card named by its pips over its index's reading.
PIP_CONFIDENCE: Final = 0.9
#: An index at least this sure keeps its suit whatever its pips' outline looks like. Why: in dim light
#: with a noisy sensor every pip's outline is ragged, notched as a club's or a heart's are (a spade's
#: pips measured 0.14, a diamond's 0.25, where clean they measure under 0.045 and 0.06), while the
#: networks read those cards' indices all but certainly (0.9999-1.0), and right.
SURE_INDEX: Final = 0.99


#: A filmed card counted is taken to lie still while its corners' places, in frame pixels divided by
#: this, stay the same (see :meth:`Recogniser._kept`).
STILL: Final = 4
#: Two corners read: their names, and their places in frame pixels divided by STILL.
_Still = tuple[str, str, int, int, int, int]
_Look = TypeVar("_Look")


@dataclass(frozen=True, slots=True)
class _Reading:
    cand: idx.Candidate
    label: str
    confidence: float
    not_index: float
    cut: bool = False
    """Whether a mark of the index is cut by the edge of the picture (see :func:`_whole`)."""

    @property
    def accepted(self) -> bool:
        """Whether the reading is sure enough to name its card (see ACCEPT and FREED_ACCEPT)."""
        return self.confidence >= (FREED_ACCEPT if self.cand.freed else ACCEPT)

    @property
    def down(self) -> npt.NDArray[np.float64]:
        r = np.array(self.cand.rank)
        s = np.array(self.cand.suit)
        d: npt.NDArray[np.float64] = (s - r) / max(self.cand.length, 1e-6)
        return d

    @property
    def centre(self) -> npt.NDArray[np.float64]:
        c: npt.NDArray[np.float64] = (np.array(self.cand.rank) + np.array(self.cand.suit)) / 2
        return c


class Recogniser:
    """Reads every visible card in a frame. Loads the shipped networks once; cheap to call per frame.

    ``model`` is a folder holding the two networks (``index_net.npz``, the finder, and
    ``index_cnn.npz``, the namer), as ``python -m companion.vision.build --out`` writes them.
    ``filmed``: the frames come from a camera or a film, which sees each card in frame after frame, so
    speed counts for more than the last index read in any one frame (see COARSE_UNLESS_UNDER). A still
    photo (``crib detect``) is read as thoroughly as can be. ``pips``: a number card whose two
    opposite corners are read has its pips counted, and a plain count overrules its index (see
    :mod:`pips`); off only to measure what the count adds. ``enlarge``: a small still photo is read
    enlarged as well (see FINE_UNDER); off only to measure what that adds.
    """

    def __init__(
        self,
        model: Path | None = None,
        *,
        max_side: int = 2000,
        backs: bool = True,
        filmed: bool = False,
        pips: bool = True,
        enlarge: bool = True,
    ) -> None:
        folder = model or DEFAULT_MODEL
        for name in (FINDER_FILE, NAMER_FILE):
            if not (folder / name).is_file():
                raise FileNotFoundError(
                    f"card model {folder / name} is missing: rebuild it with python -m companion.vision.build"
                )
        self.network = Network.load(folder / FINDER_FILE)
        self.namer = Namer.load(folder / NAMER_FILE)
        self.max_side = max_side
        self.backs = backs
        self.filmed = filmed
        self.pips = pips
        self.enlarge = enlarge
        #: Filmed frames: the pip counts and pictures of the last frame, by the two corners' names and
        #: places (see :meth:`_kept`).
        self._counts: dict[_Still, Pips | None] = {}
        self._pictures: dict[_Still, float | None] = {}

    # ------------------------------------------------------------------------------------ readings
    def _read(self, image: Frame, scale: float, outlines: bool = True) -> list[_Reading]:
        """Readings of the candidates in ``image`` (the frame scaled by ``scale``), in frame pixels.

        With ``outlines``, outlines with nothing read inside them (see :func:`index.outlines`) are then
        searched for a glyph run into a line, and what is freed from them is read as well: only those,
        because the search costs several times what plain pairing does, and on a face-up card already
        read there is nothing more to find. Not at the coarse scale: glyphs run into lines on small
        cards, which the coarse reading is not for.
        """
        gray = np.asarray(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY), np.uint8)
        blobs = idx.ink(gray)
        readings = self._name(image, gray, idx.candidates(blobs), scale)
        hidden = _unread_outlines(blobs, readings, scale) if outlines else []
        if hidden:
            readings += self._name(image, gray, idx.freed_candidates(blobs, hidden), scale)
        return _mark_cut(readings, blobs, gray.shape, scale)

    def _name(self, image: Frame, gray: Frame, cands: list[idx.Candidate], scale: float) -> list[_Reading]:
        """Readings of ``cands`` (found in ``image``, the frame scaled by ``scale``), in frame pixels."""
        if not cands:
            return []
        patches = idx.patches(image, cands)
        pr, ps = self.network.predict(idx.patch_features(patches))
        # The finder throws out only what it is all but certain is no index (see FINDER_REJECT).
        rejected = pr[:, NOT_INDEX] > FINDER_REJECT
        live = np.flatnonzero(~rejected)
        # What the finder keeps, the namer reads; its own "not an index" rejects as well.
        fine = cnn.cut(image, [cands[n] for n in live.tolist()])
        pr[live], ps[live] = self.namer.predict(cnn.inputs(fine))
        rejected[live] = _not_index(pr[live])
        live = np.flatnonzero(~rejected)
        # The suit mark's outline settles what the network's few pixels of suit leave in doubt.
        notch = idx.suit_notches(gray, [cands[n] for n in live.tolist()])
        joined = np.array([cands[n].joined for n in live.tolist()], bool)
        ps[live] = _check_suits(ps[live], notch, joined)
        # A suit mark run into its rank glyph whose outline cannot be had has nothing to tell a club
        # from a spade, and the network alone confuses them there (a jumbo "J" of clubs read as spades):
        # not read at all.
        black = np.argmax(ps[live], axis=1) % 3 == 0  # club (0) or spade (3)
        rejected[live[joined & black & np.isnan(notch)]] = True
        out: list[_Reading] = []
        for n, c in enumerate(cands):
            if rejected[n]:
                continue
            not_index = float(pr[n, NOT_INDEX])
            r = int(np.argmax(pr[n, :NOT_INDEX]))
            s = int(np.argmax(ps[n]))
            conf = float(pr[n, r] * ps[n, s])
            frame_cand = idx.Candidate(
                (c.rank[0] / scale, c.rank[1] / scale),
                (c.suit[0] / scale, c.suit[1] / scale),
                c.size / scale,
                c.joined,
                c.freed,
            )
            out.append(_Reading(frame_cand, f"{RANK_TEXTS[r]}{SUIT_TEXTS[s]}", conf, not_index))
        return out

    def _readings(self, frame: Frame) -> tuple[Frame, float, list[_Reading]]:
        """The working image, its scale, and one reading per index found (frame pixels).

        The image is also read at COARSE of the working scale, so that big index prints (a close-up
        photo, a card right under the camera) are seen as well as small ones, unless every index named
        is small (see COARSE_UNLESS_UNDER); a small still photo is read enlarged by FINE too (see
        FINE_UNDER); the readings of all scales are merged.
        """
        image, scale = self._work_image(frame)
        readings = self._read(image, scale)
        named = [r.cand.length * scale for r in readings if r.accepted]
        small = self.filmed and bool(named) and max(named) <= COARSE_UNLESS_UNDER
        if min(image.shape[:2]) * COARSE >= COARSE_FROM and not small:
            coarse = np.asarray(
                cv2.resize(image, None, fx=COARSE, fy=COARSE, interpolation=cv2.INTER_AREA), np.uint8
            )
            readings += self._read(coarse, scale * COARSE, outlines=False)
        if self.enlarge and not self.filmed and max(image.shape[:2]) <= FINE_UNDER:
            fine = np.asarray(
                cv2.resize(image, None, fx=FINE, fy=FINE, interpolation=cv2.INTER_CUBIC), np.uint8
            )
            readings += self._read(fine, scale * FINE, outlines=False)
        return image, scale, _off_middles(_whole(self._suppress(readings)))

    @staticmethod
    def _suppress(readings: list[_Reading]) -> list[_Reading]:
        """One reading per index: the most confident among those that overlap it."""
        kept: list[_Reading] = []
        for rd in sorted(readings, key=lambda r: (r.not_index > 0.5, -r.confidence)):
            c = rd.centre
            if any(np.hypot(*(c - k.centre)) < 0.9 * max(k.cand.length, rd.cand.length) for k in kept):
                continue
            kept.append(rd)
        return kept

    @staticmethod
    def _same_card(a: _Reading, b: _Reading) -> bool:
        """Whether two readings are indices of one card: same name, and placed as two corners of one card.

        Each index sees the other diagonally ahead: "down" the card and across it, no farther across
        than down (a card is taller than it is wide, and its indices sit in from the edges alike). The
        distance is kept loose, at most 16 rank-to-suit distances (measured 8-9 on the real deck's
        photos), because decks differ in where and how large they print indices. Two copies of one card
        lying head to tail within that are rare, and :func:`duplicates` still names a card seen twice
        farther apart.
        """
        if a.label != b.label:
            return False
        if _opposite(a, b):
            return True
        along, across, length, turn = _lie(a, b)
        # Four-index decks also print an index upright in the top right corner: the same way up, level
        # with the first, a card's width across (at most ~14 index heights).
        return turn > 0.9 and abs(along) < 1.2 * length and 3 * length < across < 14 * length

    def _kept(
        self,
        kept: dict[_Still, _Look],
        fresh: dict[_Still, _Look],
        a: _Reading,
        b: _Reading,
        look: Callable[[], _Look],
    ) -> _Look:
        """What the middle between two opposite corners shows (``look``: its pips counted, or whether
        it shows a picture), looked at once for as long as a filmed card lies still.

        Why: a camera sees a card lying on the table in frame after frame, and a look costs about a
        millisecond a card, a tenth of the frame's budget with a few number cards in sight. A card is
        taken to lie still while both its corners are read, with the same names, in the same STILL
        pixels as in the frame before (``kept``, the last frame's looks); anything else is looked at
        again. Each look is kept in ``fresh``, this frame's.
        """
        ax, ay, bx, by = (round(v / STILL) for v in (*a.centre, *b.centre))
        key = (a.label, b.label, ax, ay, bx, by)
        fresh[key] = kept[key] if self.filmed and key in kept else look()
        return fresh[key]

    def _work_image(self, frame: Frame) -> tuple[Frame, float]:
        if frame.ndim == 2:
            frame = np.asarray(cv2.cvtColor(frame, cv2.COLOR_GRAY2BGR), np.uint8)
        elif frame.shape[2] == 4:
            frame = np.asarray(cv2.cvtColor(frame, cv2.COLOR_BGRA2BGR), np.uint8)
        h, w = frame.shape[:2]
        scale = min(1.0, self.max_side / max(h, w))
        if scale == 1.0:
            return frame, scale
        size = (round(w * scale), round(h * scale))
        return np.asarray(cv2.resize(frame, size, interpolation=cv2.INTER_AREA), np.uint8), scale

    def indices(self, frame: Frame) -> list[Sighting]:
        """Every index corner read in ``frame`` (two per fully visible card), before cards are formed."""
        _, _, readings = self._readings(frame)
        size = (frame.shape[1], frame.shape[0])
        return [
            Sighting(
                seen_from_text(r.label) if r.accepted else UNKNOWN,
                round(r.confidence, 3),
                _scaled(idx.patch_polygon(r.cand), 1.0, size),
            )
            for r in readings
            if r.accepted or r.not_index < UNKNOWN_BELOW
        ]

    # --------------------------------------------------------------------------------------- detect
    def detect(self, frame: Frame) -> list[Sighting]:
        """Every card visible in ``frame`` (BGR, any size), as sightings in the frame's own pixels."""
        image, scale, readings = self._readings(frame)
        size = (frame.shape[1], frame.shape[0])
        sightings: list[Sighting] = []
        used: set[int] = set()
        named = [r for r in readings if r.accepted]
        groups: list[list[_Reading]] = []
        for i, a in enumerate(named):
            if i in used:
                continue
            group = [a]
            used.add(i)
            for j in range(i + 1, len(named)):
                b = named[j]
                if j not in used and any(self._same_card(g, b) for g in group):
                    group.append(b)
                    used.add(j)
            groups.append(group)
        cards = [(group, *_agree(group)) for group in groups]
        if self.pips:
            counts: dict[_Still, Pips | None] = {}
            pictures: dict[_Still, float | None] = {}
            unsure = [r for r in readings if not r.accepted and r.not_index < UNKNOWN_BELOW]
            cards = _counted(
                cards,
                lambda a, b: self._kept(
                    self._counts,
                    counts,
                    a,
                    b,
                    lambda: pips.pips_between(image, _corner(a, scale), _corner(b, scale)),
                ),
                lambda a, b: self._kept(
                    self._pictures,
                    pictures,
                    a,
                    b,
                    lambda: pips.picture_share(image, _corner(a, scale), _corner(b, scale)),
                ),
                unsure,
            )
            self._counts, self._pictures = counts, pictures
        for group, label, conf in cards:
            pts = [p for r in group for p in idx.patch_polygon(r.cand)]
            sightings.append(
                Sighting(seen_from_text(label), round(conf, 3), _scaled(_outline(group, pts), 1.0, size))
            )
        counted = {id(r) for group, _, _ in cards for r in group}
        for r in readings:
            if not r.accepted and r.not_index < UNKNOWN_BELOW and id(r) not in counted:
                # Unsure: say so, unless a confident reading of the same spot already names it.
                if any(np.hypot(*(r.centre - n.centre)) < 1.5 * r.cand.length for n in named):
                    continue
                sightings.append(
                    Sighting(
                        UNKNOWN, round(1.0 - r.confidence, 3), _scaled(idx.patch_polygon(r.cand), 1.0, size)
                    )
                )
        if self.backs:
            backs, faces = _backs(image, readings, scale)
            sightings += [Sighting(BACK, conf, _scaled(quad, scale, size)) for quad, conf in backs]
            for quad in faces:
                # A face-up card with no index found on it: named by its pips where they say plainly
                # what it is, else reported as a card that could not be read.
                by_pips = _by_pips(pips.pips_of(image, quad)) if self.pips else None
                sightings.append(
                    Sighting(
                        seen_from_text(by_pips) if by_pips else UNKNOWN,
                        PIPS_ALONE_CONFIDENCE if by_pips else UNREAD_FACE_CONFIDENCE,
                        _scaled(quad, scale, size),
                    )
                )
        return sightings


_Card = tuple[list[_Reading], str, float]


def _mark_cut(
    readings: list[_Reading], blobs: idx.Ink, shape: tuple[int, ...], scale: float
) -> list[_Reading]:
    """``readings`` (frame pixels) of an image (``shape``, the frame scaled by ``scale``; its ink
    ``blobs``), those whose rank or suit mark lies in a glyph the edge of the image cuts marked so."""
    x, y, w, h = (blobs.stats[:, k] for k in range(4))
    edge = blobs.glyphs & ((x == 0) | (y == 0) | (x + w >= shape[1]) | (y + h >= shape[0]))
    boxes = [(x[k], y[k], x[k] + w[k], y[k] + h[k]) for k in np.flatnonzero(edge).tolist()]
    if not boxes:
        return readings

    def cut(r: _Reading) -> bool:
        marks = ((px * scale, py * scale) for px, py in (r.cand.rank, r.cand.suit))
        return any(x0 <= px <= x1 and y0 <= py <= y1 for px, py in marks for x0, y0, x1, y1 in boxes)

    return [replace(r, cut=True) if cut(r) else r for r in readings]


def _whole(readings: list[_Reading]) -> list[_Reading]:
    """``readings`` less those of an index cut by the edge of the picture that no other index of their
    card confirms.

    Why: a cut mark reads as another (a king's "K" cut to a stroke is the "1" of a ten, or an "A"),
    named beside the card's whole index as a second card, wrongly; yet a card close under a webcam can
    fill the frame, both its indices touching its edges and both read right.
    """

    def confirmed(r: _Reading) -> bool:
        return any(o is not r and Recogniser._same_card(r, o) for o in readings)

    return [r for r in readings if not r.cut or confirmed(r)]


def _off_middles(readings: list[_Reading]) -> list[_Reading]:
    """``readings`` less those lying in the middle of a card whose two index corners are both read, by
    the same name: nothing printed there is an index.

    Why: a pip washed pale by a lamp's glare, with the stem of a club beside it, was read as a "10h"
    in the middle of a three of clubs read at both its corners: a second card that is not there. A
    card lying on top could show its index there only if laid across the middle of the one beneath,
    leaving both its ends bare, which a game does not do. The middle reaches along the card as far as
    its index middles, and across it MIDDLE of the way to them: every pip is in it, no index.
    """
    by_name: dict[str, list[_Reading]] = {}
    for r in readings:
        if r.accepted:
            by_name.setdefault(r.label, []).append(r)
    faces = [
        (a, b)
        for same in by_name.values()
        for k, a in enumerate(same)
        for b in same[k + 1 :]
        if _opposite(a, b)
    ]
    if not faces:
        return readings
    centres = np.array([r.centre for r in readings])
    inside = np.zeros(len(readings), bool)
    for a, b in faces:
        down, corner = a.down, a.centre
        middle = (corner + b.centre) / 2
        axes = np.array([down, [down[1], -down[0]]])  # along the card, across it
        reach = np.abs(axes @ (corner - middle)) * (1.0, MIDDLE)
        inside |= (np.abs((centres - middle) @ axes.T) < reach).all(axis=1)
    return [r for r, off in zip(readings, inside.tolist(), strict=True) if not off]


#: How far across a card from its centre its middle reaches (see :func:`_off_middles`), as a share of
#: the way to its index middles. The real deck's pips lie at most 0.57 of the way across (a four's),
#: and up to 0.98 of the way along (a nine's outer pips), so the middle reaches along to the indices.
MIDDLE: Final = 0.75


def _counted(
    cards: list[_Card],
    pips_between: Callable[[_Reading, _Reading], Pips | None],
    pictured: Callable[[_Reading, _Reading], float | None],
    unsure: Sequence[_Reading] = (),
) -> list[_Card]:
    """``cards`` (the indices read of each, its name and confidence) checked by the middle of every
    card whose two opposite corners are read, whatever rank they read: its pips counted where the count
    is plain (``pips_between`` the two corners: see :func:`pips.pips_between`), else how much of it
    its largest mark covers (``pictured``: see :func:`pips.picture_share`), a court's picture.

    A count that differs from the rank read names the card instead, in the suit each index read: the
    suit mark is the part of an index the networks and the notches read surely, and the rank glyph the
    part a new typeface changes. But where the index is in doubt (a corner less than SURE_INDEX sure,
    or its two corners reading two suits) and the pips' outline plainly shows the other suit of its
    colour (see :func:`_by_pips`), that suit names the card (see :func:`_counted_name`): a small
    card's index suit mark is a few pixels, its pips three times the size (the real eight of clubs 87
    pixels wide, its indices read as spades, 0.97 sure, by networks that had not seen that deck, its
    pips plainly clubs). The colour is left to the index, which the networks and the ink's saturation
    rarely mistake. A picture names it by the corner that reads a court. Corners are paired by where
    they lie, not by what they say, so a card whose two corners read two ranks (a 3 and a 5, a J and a
    7) becomes one card; lying whole, with no count and no picture, it is reported unread. A card read
    as a court at both corners whose pips are plainly counted is that number card (a glyph read as a
    court's letter); one read as a number at both whose middle shows a picture is reported unread (a
    serif "K" read as a "10": which court it is, nothing read says). That picture must be larger than
    where a corner reads a court (OVERRULING_PICTURE): the pips of a small number card run together
    into marks as large as some pictures' pieces.
    """
    out = list(cards)
    k = 0
    while k < len(out):
        group, label, _ = out[k]
        rank = label[:-1]
        partner = (
            _opposite_corner(k, out)
            if rank in PIP_RANKS
            else _own_corners(group, k)
            if rank in COURT_RANKS
            else None
        )
        if partner is None:
            out[k] = _counted_with_unsure(out[k], unsure, pips_between)
            k += 1
            continue
        (a, b), j = partner
        pair = (out[k], out[j]) if j != k else (out[k],)
        court = next((card for card in pair if card[1][:-1] in COURT_RANKS), None)
        found = pips_between(a, b)
        count = None if found is None else found.count
        shown = _by_pips(found)
        picture = None if count is not None or (court is not None and j == k) else pictured(a, b)
        shows = picture is not None and picture > (OVERRULING_PICTURE if court is None else pips.PICTURE)
        # Two names on the corners of one card lying whole, and its middle says neither.
        torn = count is None and not shows and picture is not None and j != k
        if count is None and not shows and not torn:
            # No plain count, no picture, no card whole: a card too small or too covered to count
            # stands as read, as does a court read at both corners whose middle is no number card's.
            k += 1
            continue
        two_suits = len({card[1][-1] for card in pair}) > 1
        merged: dict[str, _Card] = {}
        for group, label, conf in pair:
            if count is None and (court is None or torn):
                # Read as a number at both corners, or as two numbers, it shows a court's picture: a
                # court whose rank glyph was misread (a serif "K" as a "10"). Which court is not known,
                # nor which of two names is right where its middle says neither.
                label, conf = UNKNOWN, PIP_CONFIDENCE
            elif count is None and court is not None:
                label, conf = court[1], court[2]
            elif count is not None:
                named = _counted_name(label, group, count, shown, two_suits)
                if named != label:
                    label, conf = named, PIP_CONFIDENCE
            before = merged.get(label)
            merged[label] = (
                (group, label, conf) if before is None else (before[0] + group, label, max(before[2], conf))
            )
        rest = [card for n, card in enumerate(out) if n not in (j, k)]
        k = min(j, k)
        out = rest[:k] + list(merged.values()) + rest[k:]
        k += len(merged)
    return out


#: A card read as a number at both corners (or whose two corners read two numbers) and not counted is
#: taken for a court whose rank glyph was misread when one mark covers more than this share of its
#: middle (see :func:`pips.picture_share`); a card with a corner read as a court needs only
#: pips.PICTURE. Why higher: nothing read says "court" then, and a number card whose pips run together
#: makes a large mark too. Measured on cards alone on the table, 70-200 pixels wide, at three turns
#: each: the demo deck's nines up to 0.071 (a 9 of spades at 90 pixels and a 9 of clubs at 140 were
#: otherwise reported unread); the real deck's courts printed with a number's index, kings 0.22-0.26,
#: jacks 0.09-0.35, queens (a picture in small pieces) 0.05-0.13.
OVERRULING_PICTURE: Final = 0.1


def _counted_with_unsure(
    card: _Card, unsure: Sequence[_Reading], pips_between: Callable[[_Reading, _Reading], Pips | None]
) -> _Card:
    """``card``, read at one corner only, counted against an index read unsurely (``unsure``: too
    unsure to name anything) at its opposite corner, where there is one and the count is plain; that
    reading then belongs to the card.

    Why: an unfamiliar typeface can be read wrongly at one corner and not at all at the other (a real
    three of clubs lying alone, read "5c" at 0.997 and at its other corner nothing over 0.44 sure, by
    networks that had not seen its deck). An unsure reading still says where an index lies, and so
    where the card's middle is.
    """
    group, label, conf = card
    if len(group) != 1 or not unsure:
        return card
    a = group[0]
    other = next((u for u in unsure if _opposite(a, u)), None)
    found = None if other is None else pips_between(a, other)
    if other is None or found is None:
        return card
    named = _counted_name(label, group, found.count, _by_pips(found), False)
    return ([a, other], named, conf if named == label else PIP_CONFIDENCE)


def _counted_name(label: str, group: list[_Reading], count: int, shown: str | None, two_suits: bool) -> str:
    """The name of a card read as ``label`` (by the readings ``group``) whose pips are plainly ``count``
    (and, if ``shown``, plainly of that card's suit: see :func:`_by_pips`), where its corners read
    ``two_suits`` or one.

    The count names the rank. The suit is the index's unless the pips plainly show the other of its
    colour and the index is in doubt: its least sure corner under SURE_INDEX, or its two corners
    reading two suits, when without the pips' word the card is not named at all.
    """
    suit = label[-1]
    in_doubt = two_suits or min(r.confidence for r in group) < SURE_INDEX
    if shown is not None and (shown[-1] in RED) == (suit in RED) and in_doubt:
        suit = shown[-1]
    elif two_suits:
        return UNKNOWN
    return f"{PIP_NAMES[count]}{suit}"


def _own_corners(group: list[_Reading], k: int) -> tuple[tuple[_Reading, _Reading], int] | None:
    """Two readings of card ``k`` (its readings ``group``) at opposite corners of it, or None."""
    own = [(a, b) for a in group for b in group if b is not a and _opposite(a, b)]
    return (own[0], k) if own else None


def _opposite_corner(k: int, cards: Sequence[_Card]) -> tuple[tuple[_Reading, _Reading], int] | None:
    """Two readings at opposite corners of one card, the first of card ``k``'s, and which of ``cards``
    holds the second, or None.

    The card's own two corners first. Failing those, a lone corner of another number card or of a
    court card of the same suit, or else of the other suit of its colour, itself with no opposite
    corner of its own name: one card whose corners read two ranks, or two suits (a small club's few
    pixels read as a spade's). (Any corner lying opposite would not do: the bottom corner of one card
    in a row and the top corner of the next lie so too.)
    """
    group = cards[k][0]
    own = _own_corners(group, k)
    if own is not None:
        return own
    if len(group) != 1:
        return None
    a = group[0]
    # Corners of the same suit first, then of the other suit of its colour.
    for n in sorted(range(len(cards)), key=lambda n: cards[n][1][-1] != a.label[-1]):
        other, label = cards[n][0], cards[n][1]
        if n == k or len(other) != 1 or (label[-1] in RED) != (a.label[-1] in RED):
            continue
        if label[:-1] not in PIP_RANKS and label[:-1] not in COURT_RANKS:
            continue
        if _opposite(a, other[0]):
            return (a, other[0]), n
    return None


def _corner(reading: _Reading, scale: float) -> pips.Corner:
    """A reading's rank and suit middles, in the working image (scaled by ``scale`` from the frame)."""
    (rx, ry), (sx, sy) = reading.cand.rank, reading.cand.suit
    return (rx * scale, ry * scale), (sx * scale, sy * scale)


def _opposite(a: _Reading, b: _Reading) -> bool:
    """Whether two readings lie as the two index corners of one card, each turned half round from the
    other (see :meth:`Recogniser._same_card`), whatever they say."""
    along, across, length, turn = _lie(a, b)
    return (
        turn < -0.8
        and 1.5 * length < along < 16 * length
        and across < along + length
        and float(np.hypot(along, across)) < 16 * length
    )


def _lie(a: _Reading, b: _Reading) -> tuple[float, float, float, float]:
    """How ``b`` lies from ``a`` in ``a``'s own frame: how far down ``a``'s index and how far across it,
    their mean rank-to-suit distance, and how ``b`` is turned against ``a`` (1 the same way up, -1 half
    round)."""
    v = b.centre - a.centre
    along = float(v @ a.down)
    across = abs(float(v @ np.array([a.down[1], -a.down[0]])))
    return along, across, (a.cand.length + b.cand.length) / 2, float(a.down @ b.down)


def _unread_outlines(blobs: idx.Ink, readings: Sequence[_Reading], scale: float) -> list[int]:
    """The outlines among ``blobs`` with no accepted reading inside their box (readings in frame
    pixels, blobs in those scaled by ``scale``): a card read already, by an index inside its edge, is
    not searched again."""
    found = idx.outlines(blobs)
    named = [r for r in readings if r.accepted]
    if not named or found.size == 0:
        return [int(i) for i in found]
    centres = np.array([r.centre for r in named]) * scale
    inside = idx.in_boxes(centres, blobs.stats[found]).any(axis=0)
    return [int(i) for i in found[~inside]]


def _not_index(pr: npt.NDArray[np.float32]) -> npt.NDArray[np.bool_]:
    """Candidates a network is sure are no index (see UNKNOWN_BELOW)."""
    sure: npt.NDArray[np.bool_] = (pr[:, NOT_INDEX] > 1.0 - UNKNOWN_BELOW) & (pr[:, NOT_INDEX] > 0.5)
    return sure


#: Suit-mark notch depth (share of the mark's height) that divides spades from clubs and diamonds
#: from hearts, and how sharply: see :func:`companion.vision.index.suit_notches`.
NOTCH_SPLIT: Final = 0.058
NOTCH_SCALE: Final = 0.004
#: The same for a suit mark cut from its rank glyph by an opening (see :func:`~companion.vision.index.
#: suit_notches`), which rounds a spade's point and shoulders into shallow hollows (up to 0.06 measured)
#: while a club keeps its deep ones (0.2 and over) and a heart its cleft (0.14).
JOINED_NOTCH_SPLIT: Final = 0.1
JOINED_NOTCH_SCALE: Final = 0.01
#: Most the notch evidence may move the log-odds of one black suit (spade or club) against the other.
#: Strong, since the network's black-suit split is its weakest part and the outlines differ plainly.
BLACK_SWAY: Final = 5.0
#: The same for red suits, weaker: the network rarely mixes hearts and diamonds, and a small heart's
#: notch can fill in, so the shape only settles a red suit the network is unsure of.
RED_SWAY: Final = 2.5


def _check_suits(
    ps: npt.NDArray[np.float32], notch: npt.NDArray[np.float32], joined: npt.NDArray[np.bool_]
) -> npt.NDArray[np.float32]:
    """Suit probabilities with the suit mark's shape weighed in (its notch depth; NaN: no evidence).

    The network's split between the two suits of one colour is shifted in log-odds by the shape's
    evidence (clipped), leaving the share given to each colour as it was. ``joined`` marks candidates
    whose suit mark was cut from its rank glyph, measured against their own split.
    """
    out = ps.astype(np.float64)
    ok = ~np.isnan(notch)
    split = np.where(joined, JOINED_NOTCH_SPLIT, NOTCH_SPLIT)
    scale = np.where(joined, JOINED_NOTCH_SCALE, NOTCH_SCALE)
    z = np.where(ok, (np.nan_to_num(notch) - split) / scale, 0.0)
    for notched, plain, sway in ((0, 3, BLACK_SWAY), (2, 1, RED_SWAY)):  # club/spade, heart/diamond
        pair = out[:, notched] + out[:, plain]
        logit = np.log(out[:, notched] + 1e-9) - np.log(out[:, plain] + 1e-9) + np.clip(z, -sway, sway)
        share = 1.0 / (1.0 + np.exp(-logit))
        out[:, notched] = pair * share
        out[:, plain] = pair * (1.0 - share)
    result: npt.NDArray[np.float32] = out.astype(np.float32)
    return result


def _agree(group: list[_Reading]) -> tuple[str, float]:
    """One name for the indices of one card. When its two corners disagree, the clearly surer reading
    wins; if neither is clearly surer the card is unknown (a wrong name costs more than a question)."""
    score: dict[str, float] = {}
    for r in group:
        score[r.label] = max(score.get(r.label, 0.0), r.confidence)
    ranked = sorted(score.items(), key=lambda kv: -kv[1])
    if len(ranked) == 1:
        return ranked[0]
    (best, p1), (_, p2) = ranked[0], ranked[1]
    if p1 - p2 >= 0.15:
        return best, p1 - p2
    return UNKNOWN, 1.0 - p1 + p2


def _outline(group: list[_Reading], pts: list[tuple[float, float]]) -> list[tuple[float, float]]:
    """A rectangle, in the card's own orientation, around the indices read on it."""
    d = group[0].down
    right = np.array([d[1], -d[0]])
    arr = np.array(pts)
    along = arr @ d
    across = arr @ right
    a0, a1, c0, c1 = along.min(), along.max(), across.min(), across.max()
    corners = [(c0, a0), (c1, a0), (c1, a1), (c0, a1)]
    return [(float(c * right[0] + a * d[0]), float(c * right[1] + a * d[1])) for c, a in corners]


def _scaled(
    poly: Iterable[tuple[float, float]], scale: float, size: tuple[int, int]
) -> tuple[tuple[float, float], ...]:
    """A polygon in the frame's own pixels, kept inside the frame (an index at the edge of a photo)."""
    w, h = size
    return tuple(
        (round(min(max(x / scale, 0.0), w - 1.0), 1), round(min(max(y / scale, 0.0), h - 1.0), 1))
        for x, y in poly
    )


def _by_pips(found: Pips | None) -> str | None:
    """The card a face's pips name (see :func:`pips.pips_of`), or None unless its suit is plain too.

    The colour halves the suits; the pips' outline tells the two of a colour apart. A club's lobes
    leave deep notches where a spade's sides run straight. A heart's cleft is as plain, but a soft lens
    fills it in on a small card, while its weight stays high (two lobes over a point) where a diamond's
    lies in its middle: a heart shows either, a diamond must show neither.
    """
    if found is None:
        return None
    rank = PIP_NAMES[found.count]
    if found.red:
        if found.notch >= HEART_NOTCH or found.centre <= HEART_CENTRE:
            return f"{rank}h"
        if found.notch <= DIAMOND_NOTCH and found.centre >= DIAMOND_CENTRE:
            return f"{rank}d"
        return None
    if found.notch >= CLUB_NOTCH:
        return f"{rank}c"
    if found.notch <= SPADE_NOTCH:
        return f"{rank}s"
    return None  # between the two, or not measured (NaN)


#: Pips' notch depths (see :func:`companion.vision.index.suit_notches`) and how far down their ink's
#: centre lies (see :class:`pips.Pips`) that name each suit. Measured on both decks alone on the table,
#: 70-180 pixels wide, sharp and soft (blur 1.2): clubs' notches 0.069-0.28 and spades' 0.023-0.043;
#: diamonds' 0.026-0.060 with their centre 0.476-0.526 down, hearts' 0.048-0.164 with theirs 0.40-0.52,
#: and every heart either notched 0.097 or more or centred 0.438 down or higher.
CLUB_NOTCH: Final = 0.06
SPADE_NOTCH: Final = 0.045
HEART_NOTCH: Final = 0.08
HEART_CENTRE: Final = 0.455
DIAMOND_NOTCH: Final = 0.06
DIAMOND_CENTRE: Final = 0.47
#: The confidence of a card named by its pips alone: its rank is counted, but its suit is read from
#: the pips' outline, which a soft lens blunts.
PIPS_ALONE_CONFIDENCE: Final = 0.85
#: The confidence of a face-up card reported as unread: how sure it is a face, not what it is.
UNREAD_FACE_CONFIDENCE: Final = 0.5

_Quad = list[tuple[float, float]]


def _backs(
    image: Frame, readings: Sequence[_Reading], scale: float
) -> tuple[list[tuple[_Quad, float]], list[_Quad]]:
    """Card-shaped outlines with no index inside: face-down cards (with a confidence), and face-up ones
    whose white face shows (see :func:`_backs_at`), in the pixels of ``image``.

    Outlines are found on the image halved until it is at most 1000 pixels across (a card is still
    tens of pixels long there, and halving is ten times cheaper than any other shrinking, which
    matters on every frame).
    """
    factor = 1.0
    while max(image.shape[:2]) > 1000:
        image = np.asarray(cv2.resize(image, None, fx=0.5, fy=0.5, interpolation=cv2.INTER_AREA), np.uint8)
        factor *= 0.5
    backs, faces = _backs_at(image, readings, factor * scale)
    return (
        [([(x / factor, y / factor) for x, y in quad], conf) for quad, conf in backs],
        [[(x / factor, y / factor) for x, y in quad] for quad in faces],
    )


def _median(gray: npt.NDArray[np.uint8]) -> float:
    """The median grey level, as ``np.median`` gives it, from a histogram (a fifth of the time)."""
    counts = np.cumsum(np.bincount(gray.ravel(), minlength=256))
    n = int(counts[-1])
    # The values at sorted positions (n - 1) // 2 and n // 2, averaged.
    lower = int(np.searchsorted(counts, (n - 1) // 2 + 1))
    upper = int(np.searchsorted(counts, n // 2 + 1))
    return (lower + upper) / 2


def _backs_at(
    image: Frame, readings: Sequence[_Reading], factor: float
) -> tuple[list[tuple[_Quad, float]], list[_Quad]]:
    gray = np.asarray(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY), np.uint8)
    blurred = np.asarray(cv2.GaussianBlur(gray, (5, 5), 0), np.uint8)
    med = _median(blurred)
    edges = cv2.Canny(blurred, max(10.0, 0.4 * med), max(30.0, 0.9 * med))
    edges = cv2.dilate(edges, np.ones((3, 3), np.uint8))
    contours, _ = cv2.findContours(edges, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    h, w = gray.shape
    lengths = [r.cand.length * factor for r in readings if r.not_index < 0.5]
    min_area = (0.0004 * h * w) if not lengths else (4.0 * float(np.median(lengths))) ** 2 * 1.4
    out: list[tuple[_Quad, float]] = []
    faces: list[_Quad] = []
    for cnt in contours:
        area = cv2.contourArea(cnt)
        if area < min_area or area > 0.5 * h * w:
            continue
        points = np.asarray(cnt, np.int32)
        # Where an index makes it a face: anywhere in the outline's rectangle, which is the card's when
        # the outline is card-shaped, and when it is not, the outline a card may be cut from. Why the
        # latter: an outline of no card shape can be a face's picture frame run into what is left of its
        # edge on a light table, and the card cut from it is then the picture alone, its indices outside.
        # Looked at first, as it is cheaper than cutting a card from an outline.
        reach = np.asarray(cv2.boxPoints(cv2.minAreaRect(points)), np.float32)
        if any(
            cv2.pointPolygonTest(reach, (float(r.centre[0] * factor), float(r.centre[1] * factor)), False)
            >= 0
            for r in readings
            if r.not_index < 0.5
        ):
            continue  # an index on it, read or not: a face
        found = _card_shape(points, area) or _card_shape_under(points, min_area)
        if found is None:
            continue
        rect, fill = found
        _, (rw, rh), _ = rect
        box = np.asarray(cv2.boxPoints(rect), np.float32)
        paper, open_paper = _paper(image, box, min(rw, rh))
        quad = [(float(x), float(y)) for x, y in box]
        if paper > 0.4 and open_paper > OPEN_PAPER:
            faces.append(quad)  # mostly open card white: a face whose index is hidden or unreadable
            continue
        out.append((quad, round(min(0.99, 0.6 + 0.4 * fill), 3)))
    return out, faces


Rect = tuple[tuple[float, float], tuple[float, float], float]


def _card_shape(cnt: npt.NDArray[np.int32], area: float) -> tuple[Rect, float] | None:
    """The rectangle of an outline shaped like a card (and how fully the outline fills it), or None."""
    (cx, cy), (rw, rh), angle = cv2.minAreaRect(cnt)
    if min(rw, rh) < 8:
        return None
    aspect = max(rw, rh) / min(rw, rh)
    fill = area / (rw * rh)
    if not (1.25 < aspect < 1.75 and fill > 0.85):
        return None
    return ((float(cx), float(cy)), (float(rw), float(rh)), float(angle)), fill


def _card_shape_under(cnt: npt.NDArray[np.int32], min_area: float) -> tuple[Rect, float] | None:
    """The card in an outline that is a card with something small run into its edge, or None.

    Why: a chip (or a coin, a cork) put down against the pack joins its outline to the card's, and the
    two together are no card shape. Opening the outline's area with a disc a quarter of its width wide
    takes off anything narrower than half of that width and leaves the card, its corners rounded.
    """
    x, y, bw, bh = cv2.boundingRect(cnt)
    _, size, _ = cv2.minAreaRect(cnt)
    reach = max(2, round(0.25 * min(size)))
    area = np.zeros((bh + 2, bw + 2), np.uint8)
    cv2.drawContours(area, [cnt - np.array([x - 1, y - 1], np.int32)], -1, 1, -1)
    disc = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * reach + 1, 2 * reach + 1))
    opened = np.asarray(cv2.morphologyEx(area, cv2.MORPH_OPEN, disc), np.uint8)
    parts, _ = cv2.findContours(opened, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    if not parts:
        return None
    part = np.asarray(max(parts, key=cv2.contourArea), np.int32)
    left = cv2.contourArea(part)
    if left < min_area:
        return None
    found = _card_shape(part, left)
    if found is None:
        return None
    (cx, cy), wh, angle = found[0]
    return ((cx + x - 1, cy + y - 1), wh, angle), found[1]


#: A card-shaped outline that is mostly white is a face (its index hidden or unreadable) unless its white
#: is only the gaps of a fine pattern: less than OPEN_PAPER of its middle is white OPEN_REACH of the
#: card's width from any ink. Why: a face's white lies in open fields between its pips and around its
#: picture, while a back printed as a fine lattice or dots on white has no such field, and was taken for
#: a face. Faces of two decks, 110-220 pixels wide, keep at least 0.062 (the real ten of clubs); such
#: backs at most 0.019.
OPEN_PAPER: Final = 0.04
OPEN_REACH: Final = 0.07


def _paper(image: Frame, box: npt.NDArray[np.float32], short: float) -> tuple[float, float]:
    """The share of a card outline's middle (``box`` shrunk to 0.7) that is card white, and the share
    that is card white at least OPEN_REACH of the card's width (``short``) from anything else; white as
    seen once the light's tint is taken out (see :func:`pips.balanced`)."""
    x0, y0 = np.floor(box.min(axis=0)).astype(int)
    x1, y1 = np.ceil(box.max(axis=0)).astype(int) + 1
    x0, y0 = max(x0, 0), max(y0, 0)
    centre = box.mean(axis=0)
    crop = image[y0:y1, x0:x1]
    mask = np.zeros(crop.shape[:2], np.uint8)
    inner = ((box - centre) * 0.7 + centre - (x0, y0)).astype(np.int32)
    cv2.fillConvexPoly(mask, inner, 1)
    sel = mask.astype(bool)
    if not sel.any():
        return 0.0, 0.0
    part = np.asarray(cv2.cvtColor(pips.balanced(crop), cv2.COLOR_BGR2HSV), np.uint8)
    v = part[..., 2].astype(np.float32)
    white = (v > 0.8 * float(np.percentile(v[sel], 95))) & (part[..., 1] < 50)
    reach = max(1, round(OPEN_REACH * short))
    disc = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * reach + 1, 2 * reach + 1))
    open_white = cv2.erode(white.astype(np.uint8), disc, borderValue=1).astype(bool)
    return float(white[sel].mean()), float(open_white[sel].mean())


def duplicates(sightings: Iterable[Sighting]) -> set[str]:
    """Card labels seen more than once in one frame (a misread, or cards from a second deck)."""
    counts = Counter(s.label for s in sightings if s.label not in (BACK, UNKNOWN))
    return {label for label, n in counts.items() if n > 1}
