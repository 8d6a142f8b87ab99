"""Recognition of the cards in one frame: ``Recogniser().detect(frame) -> list[Sighting]``.

How a frame is read, and why:

0. A filmed frame is first compared with the table as last read, at low resolution
   (:mod:`companion.vision.motion`), and only the regions that changed are read as below; what was read
   where nothing moved stands (see :meth:`Recogniser._detect_changed`).
1. The frame is scaled so its longer side is at most ``max_side`` pixels (a 6000x4000 phone photo and a
   1280x720 webcam frame then show index glyphs of similar size; nothing is ever scaled up). It is
   read once more at half that scale, so that a card close under the camera is read as well (filmed
   frames skip this when every index read is small: see ScaleSettings.coarse_unless_under). Where the
   indices first read measure out of focus, the working scale is read again sharpened to that blur
   (see ScaleSettings.soft_over): soft glyphs run into their suit marks and are never paired.
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
   (top-left and, turned half round, bottom-right) are merged into one sighting of that card, by where
   they lie (:mod:`companion.vision.reading`) or, seen at a slant, by lying on one card's white. Where
   both corners of a card are read, its pips are counted (:mod:`companion.vision.pips`), and a plain
   count that differs from the rank read names the card: a deck never seen in training can print a
   rank glyph the networks misread with full confidence, but not a three with five pips. A number
   read on a card showing a court's picture is reported unread (:mod:`companion.vision.arbitration`).
4. Card-shaped outlines with no index on them are face-down cards (``"back"``): a deck, a crib
   (:mod:`companion.vision.backs`).
5. A reading the network is not sure of is reported as ``"unknown"`` rather than guessed: a misread
   card is a wrong score, an unknown one is only a prompt to look again. An index smeared past its
   rank glyph's strokes must be read surer still (:func:`index.smear`, ReadingSettings.smear_strokes).

:func:`one_of_each` keeps a card named at one place only: a pack holds it once.

The module is under 700 lines: the reading of a frame, the merging of its corners into cards
and the keeping of a filmed table share the recogniser's state, and the parts that need none of it
live apart (reading, arbitration, backs, geometry, motion, soft).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Final, TypeVar

import cv2
import numpy as np
import numpy.typing as npt

from companion.vision import cnn, pips
from companion.vision import index as idx
from companion.vision.arbitration import (
    agree,
    by_pips,
    corner_of_named,
    counted,
    spades_by_the_pack,
    unsure_pairs,
)
from companion.vision.backs import backs
from companion.vision.cnn import load_namer
from companion.vision.geometry import inside, joined_by_white, twins_joined, unnamed_white
from companion.vision.heap import keep_freed_memory
from companion.vision.mlp import NOT_INDEX, RANK_TEXTS, SUIT_TEXTS, Network
from companion.vision.motion import (
    Box,
    Motion,
    box_in,
    covered,
    grown,
    merged,
    moved,
    still_named,
    touches,
    within,
)
from companion.vision.pips import Counted, Middle
from companion.vision.reading import Reading, beside, card_middle, facing, lie, opposite
from companion.vision.settings import (
    SHIPPED,
    PipSettings,
    ReadingSettings,
    RecognitionSettings,
)
from companion.vision.soft import by_marks_beside, sharpened, smeared, soft_spades, suits_by_shape
from companion.vision.types import BACK, UNKNOWN, Frame, Sighting, seen_from_text

__all__ = ["DEFAULT_MODEL", "FINDER_FILE", "NAMER_FILE", "NAMER_GRAPH", "Recogniser", "one_of_each"]

#: The folder the shipped networks lie in, and their file names there.
DEFAULT_MODEL: Final = Path(__file__).resolve().parent / "data"
FINDER_FILE: Final = "index_net.npz"
NAMER_FILE: Final = "index_cnn.npz"
#: The namer as an ONNX graph, written from NAMER_FILE by the build: run by OpenCV, twice as fast.
NAMER_GRAPH: Final = "index_cnn.onnx"
#: An index's rank-to-suit distance as a share of its card's width (0.14-0.25 on the real deck and the
#: demo deck).
INDEX_SHARE: Final = 0.18
#: Candidates a sharpened picture is judged by (see Recogniser._sureness) are from this share of the
#: given index's length to this: the same index, its glyphs run apart or together.
_LIKE_LENGTH: Final = (0.6, 1.6)
#: The rank network's class of an ace.
_ACE_INDEX: Final = RANK_TEXTS.index("A")

#: Two corners read: their names, and their places in frame pixels divided by TrackingSettings.still.
_Still = tuple[str, str, int, int, int, int]
_Look = TypeVar("_Look")


class Recogniser:
    """Reads every visible card in a frame. Loads the shipped networks once; cheap to call per frame.

    ``model`` is a folder holding the two networks (``index_net.npz``, the finder, and
    ``index_cnn.npz``, the namer), as ``python -m tools.vision_build --out`` writes them. ``filmed``:
    the frames come from a camera or a film, which sees each card in frame after frame, so speed counts
    for more than the last index read in any one frame (see ScaleSettings.coarse_unless_under). A still
    photo (``crib detect``) is read as thoroughly as can be. ``pips``: a number card whose two opposite
    corners are read has its pips counted, and a plain count overrules its index (see :mod:`pips`); off
    only to measure what the count adds. ``enlarge``: a small still photo is read enlarged as well (see
    ScaleSettings.fine); off only to measure what that adds. ``settings``: every measured threshold
    recognition decides by (see :mod:`companion.vision.settings`; the shipped ones unless measuring
    another). ``motion``: filmed frames are read only where they changed since the table was last read
    (see :mod:`companion.vision.motion`); off only to measure what that saves. Such a recogniser keeps
    the table it read: one camera each, and :meth:`forget` when the camera moves to another table.
    ``closer``: card white that nothing was named on is read again enlarged whenever a frame is read
    whole (see :meth:`_closer`); for a view whose far cards were magnified from few pixels (a camera
    at a slant: :class:`companion.vision.plane.TopDown` turns it on).
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
        motion: bool = True,
        closer: bool = False,
        settings: RecognitionSettings = SHIPPED,
    ) -> None:
        folder = model or DEFAULT_MODEL
        for name in (FINDER_FILE, NAMER_FILE):
            if not (folder / name).is_file():
                raise FileNotFoundError(
                    f"card model {folder / name} is missing: rebuild it with python -m tools.vision_build"
                )
        # Each frame's arrays reuse the last frame's memory rather than fault in fresh pages.
        keep_freed_memory()
        self.network = Network.load(folder / FINDER_FILE)
        self.namer = load_namer(folder / NAMER_FILE, folder / NAMER_GRAPH)
        self.max_side = max_side
        self.backs = backs
        self.filmed = filmed
        self.pips = pips
        self.enlarge = enlarge
        self.closer = closer
        self.settings = settings
        #: Filmed frames: the pip counts (also at the pips' cores) and pictures of the last frame, by
        #: the two corners' names and places (see :meth:`_kept`).
        self._counts: dict[_Still, Counted | None] = {}
        self._pictures: dict[_Still, float | None] = {}
        self._cores: dict[_Still, int | None] = {}
        #: Filmed frames with ``motion``: the table as last read (see :meth:`_detect_changed`).
        self._motion = Motion(settings.motion) if filmed and motion else None
        self._seen: list[Sighting] = []
        self._since_whole = 0
        self._shaken = 0
        self._index_length: float | None = None
        self._last_length: float | None = None
        #: The blur of the frame being read, measured before any sharpening, and whether it was
        #: sharpened (see :func:`soft.sharpened`).
        self._softness = 0.0
        self._sharp = False

    # ------------------------------------------------------------------------------------ readings
    def _read(
        self, image: Frame, scale: float, outlines: bool = True, gray: Frame | None = None
    ) -> list[Reading]:
        """Readings of the candidates in ``image`` (the frame scaled by ``scale``), in frame pixels.

        With ``outlines``, outlines with nothing read inside them (see :func:`index.outlines`) are then
        searched for a glyph run into a line, and what is freed from them is read as well: only those,
        because the search costs several times what plain pairing does, and on a face-up card already
        read there is nothing more to find. Not at the coarse scale: glyphs run into lines on small
        cards, which the coarse reading is not for.
        """
        if gray is None:
            gray = np.asarray(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY), np.uint8)
        blobs = idx.ink(gray, share=self.settings.reading.ink_share)
        readings = self._name(image, gray, idx.candidates(blobs), scale)
        settings = self.settings
        hidden = _unread_outlines(blobs, readings, scale, settings.reading, settings.pips) if outlines else []
        if hidden:
            readings += self._name(image, gray, idx.freed_candidates(blobs, hidden), scale)
        return _mark_cut(readings, blobs, gray.shape, scale)

    def _name(self, image: Frame, gray: Frame, cands: list[idx.Candidate], scale: float) -> list[Reading]:
        """Readings of ``cands`` (found in ``image``, the frame scaled by ``scale``), in frame pixels."""
        if not cands:
            return []
        patches = idx.patches(image, cands)
        pr, ps = self.network.predict(idx.patch_features(patches))
        # The finder throws out only what it is all but certain is no index (see
        # ReadingSettings.finder_reject).
        finder_reject = self.settings.reading.finder_reject
        rejected = pr[:, NOT_INDEX] > finder_reject
        # What it throws out is looked at again with the light on it made even (see idx.evened): an
        # index a shadow's edge crosses. Only that: what reads as it is keeps its reading, since
        # evening also lifts the dark of any mark wider than the reach of the paper's light.
        flat = np.zeros(len(cands), bool)
        again = np.flatnonzero(rejected)
        shaded, looked = idx.evened_where_uneven(patches[again])
        again = again[shaded]
        if again.size:
            pa, sa = self.network.predict(idx.patch_features(looked))
            taken = pa[:, NOT_INDEX] <= finder_reject
            flat[again[taken]] = True
            pr[again[taken]], ps[again[taken]] = pa[taken], sa[taken]
            rejected[again[taken]] = False
        live = np.flatnonzero(~rejected)
        # What the finder keeps, the namer reads (evened where the finder's look was); its own "not
        # an index" rejects as well, and what it rejects as read plainly it reads again evened.
        fine = cnn.cut(image, [cands[n] for n in live.tolist()])
        fine[flat[live]] = idx.evened(fine[flat[live]], idx.shading(fine[flat[live]]))
        pr[live], ps[live] = self.namer.predict(cnn.inputs(fine))
        no = _not_index(pr[live], self.settings.reading)
        again = np.flatnonzero(no & ~flat[live])
        shaded, looked = idx.evened_where_uneven(fine[again])
        again = again[shaded]
        if again.size:
            pa, sa = self.namer.predict(cnn.inputs(looked))
            read = ~_not_index(pa, self.settings.reading)
            pr[live[again[read]]], ps[live[again[read]]] = pa[read], sa[read]
            no[again[read]] = False
        rejected[live] = no
        live = np.flatnonzero(~rejected)
        settled = np.zeros(len(cands), np.float32)  # see Reading.black
        # The suit mark's outline settles what the network's few pixels of suit leave in doubt.
        notch = idx.suit_notches(gray, [cands[n] for n in live.tolist()])
        joined = np.array([cands[n].joined for n in live.tolist()], bool)
        ps[live] = suits_by_shape(ps[live], notch, joined, self.settings.suits)
        # A suit mark run into its rank glyph whose outline cannot be had has nothing to tell a club
        # from a spade, and the network alone confuses them there (a jumbo "J" of clubs read as spades):
        # not read at all.
        black = np.argmax(ps[live], axis=1) % 3 == 0  # club (0) or spade (3)
        rejected[live[joined & black & np.isnan(notch)]] = True
        # A spade read where blur fills a club's notches has its black suit in doubt (Reading.black).
        # A still photo has no later frame and no game to settle it: unread, not guessed. The camera's
        # path keeps the network's suit: there the watch decides over frames and the game, and
        # splitting soft spades left the demo film under blur (sigma 1.6) with two and a half times
        # the questions and its deals out of step (decisions, 36); the card's pips are asked there
        # (see arbitration._counted_name). A frame read deblurred (see :func:`soft.sharpened`) is
        # judged by the blur it was taken at: a photo has nothing else to check a name by, and past
        # about 3 pixels deblurring gives a club back only part of its notches (judged as deblurred,
        # the tuning tables at 3 pixels named 4 % wrong; at 2.5 pixels none, but 74 % were found
        # where 99 % could be).
        floor = self._softness if self._sharp else 0.0
        spade = np.argmax(ps[live], axis=1) == 3
        live_cands = [cands[n] for n in live.tolist()]
        even = soft_spades(ps[live], gray, live_cands, self.settings.suits, floor)
        if not self.filmed:
            # A photo's soft spade is named by the large suit mark beside its index: a court's frame
            # mark, a number card's nearest pip (see by_marks_beside).
            beside_marks = np.argmax(pr[live, :NOT_INDEX], axis=1) != _ACE_INDEX
            pipping = self.settings.pips
            even = by_marks_beside(
                ps[live],
                even,
                beside_marks,
                gray,
                live_cands,
                self.settings.suits,
                pipping.club_notch,
                pipping.spade_notch,
            )
        doubted = live[spade & (even[:, 0] == even[:, 3])]
        settled[doubted] = pr[doubted, :NOT_INDEX].max(axis=1) * (ps[doubted, 0] + ps[doubted, 3])
        if not self.filmed:
            ps[live] = even
        confidence = pr[:, :NOT_INDEX].max(axis=1) * ps.max(axis=1)
        if not self.filmed:  # as with soft spades: on the camera's path the watch decides over frames
            confidence[live] = smeared(confidence[live], gray, live_cands, self.settings)
        out: list[Reading] = []
        kept = np.flatnonzero(~rejected)
        ranks = np.argmax(pr[kept, :NOT_INDEX], axis=1).tolist()
        suits = np.argmax(ps[kept], axis=1).tolist()
        not_indices = pr[kept, NOT_INDEX].tolist()
        for n, r, s, not_index, conf, either in zip(
            kept.tolist(),
            ranks,
            suits,
            not_indices,
            confidence[kept].tolist(),
            settled[kept].tolist(),
            strict=True,
        ):
            c = cands[n]
            frame_cand = idx.Candidate(
                (c.rank[0] / scale, c.rank[1] / scale),
                (c.suit[0] / scale, c.suit[1] / scale),
                c.size / scale,
                c.joined,
                c.freed,
            )
            out.append(Reading(frame_cand, f"{RANK_TEXTS[r]}{SUIT_TEXTS[s]}", conf, not_index, black=either))
        return out

    def _sureness(self, seen: Sequence[tuple[Frame, idx.Candidate]]) -> float:
        """How surely the namer names the indices ``seen`` (each a picture and a candidate in it): the
        mean log-odds of each picture's likeliest name, so that among pictures read nearly surely the
        surer still counts (see :func:`soft.sharpened`).

        Why the index is found again in each picture: the candidates were found in the frame as it
        was, smeared or soft, where glyphs run together and a pair of marks found may be half of one
        glyph and half of the next. Read only there, a picture sharpened right reads worse than the
        blurred one those marks were found in (a deal smeared 11 pixels: the picture as it was judged
        surer than every smear tried, and 1 of 45 indices was found, where the smear taken out finds
        42). So the index is found again in each picture (marks standing apart only, the cheap half of
        the search), the pair of about its length whose rank and suit lie nearest the given one's is
        read too, and the surer of the two counts. (Reading every pair near it as well found no more,
        at twice the namer's cost.)
        """
        owners: list[int] = []
        cut: list[npt.NDArray[np.uint8]] = []
        for k, (picture, c) in enumerate(seen):
            middle = (c.rank[0] + c.suit[0]) / 2, (c.rank[1] + c.suit[1]) / 2
            # Only the middle of the picture is searched: a mark of the index lies within a length of
            # it, and the whole picture (a power of two wide) costs the finding about twice over.
            reach = 2.5 * c.length
            x0, y0 = max(round(middle[0] - reach), 0), max(round(middle[1] - reach), 0)
            x1, y1 = round(middle[0] + reach), round(middle[1] + reach)
            part = picture[y0:y1, x0:x1]
            gray = part if part.ndim == 2 else cv2.cvtColor(part, cv2.COLOR_BGR2GRAY)
            found = [
                idx.Candidate((f.rank[0] + x0, f.rank[1] + y0), (f.suit[0] + x0, f.suit[1] + y0), f.size)
                for f in idx.find_candidates(np.asarray(gray, np.uint8), joined=False)
                if _LIKE_LENGTH[0] * c.length < f.length < _LIKE_LENGTH[1] * c.length
            ]
            gaps = [math.dist(f.rank, c.rank) + math.dist(f.suit, c.suit) for f in found]
            near = [c] if not gaps or min(gaps) >= c.length else [c, found[int(np.argmin(gaps))]]
            cut.append(cnn.cut(picture, near))
            owners += [k] * len(near)
        pr, ps = self.namer.predict(cnn.inputs(np.concatenate(cut)))
        best = np.zeros(len(seen))
        np.maximum.at(best, np.array(owners), pr[:, :NOT_INDEX].max(axis=1) * ps.max(axis=1))
        sure = np.clip(best, 1e-6, 1 - 1e-6)
        return float(np.mean(np.log(sure) - np.log1p(-sure)))

    def _readings(
        self, frame: Frame, changed: Sequence[Box] = (), known: frozenset[str] | None = None
    ) -> tuple[Frame, float, list[Reading]]:
        """The working image, its scale, and one reading per index found (frame pixels).

        The image is also read at ``coarse`` of the working scale (see :class:`ScaleSettings`), so
        that big index prints (a close-up photo, a card right under the camera) are seen as well as
        small ones, unless every index named is small (``coarse_unless_under``); a small still photo is
        read enlarged by ``fine`` too, and so is each part of a filmed region where something changed
        (``changed``, boxes in ``frame``'s pixels: see ScaleSettings.fine_regions), unless ``known``
        (the cards named in the frame before) is given and the working scale named a card there not
        known and all else there all but certainly (see ScaleSettings.fine_unless_named); the
        readings of all scales are merged.
        """
        at = self.settings.scales
        accepting = self.settings.reading
        image, scale = self._work_image(frame)
        gray = np.asarray(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY), np.uint8)
        readings = self._read(image, scale, gray=gray)
        # Out of focus, the working scale is read again with the lens's blur taken out and that reading
        # kept (see ScaleSettings.soft_over); the other scales are read as they were.
        sharper, self._softness = sharpened(image, gray, scale, readings, at, self._sureness)
        self._sharp = sharper is not None
        if sharper is not None:
            readings = self._read(sharper, scale)
        named = [r.cand.length * scale for r in readings if r.accepted(accepting)]
        small = self.filmed and bool(named) and max(named) <= at.coarse_unless_under
        if min(image.shape[:2]) * at.coarse >= at.coarse_from and not small:
            coarse = np.asarray(
                cv2.resize(image, None, fx=at.coarse, fy=at.coarse, interpolation=cv2.INTER_AREA), np.uint8
            )
            readings += self._read(coarse, scale * at.coarse, outlines=False)
        if self.enlarge and max(image.shape[:2]) <= at.fine_under:
            if not self.filmed:
                readings += self._enlarged(image, scale, (0, 0, image.shape[1], image.shape[0]))
            elif at.fine_regions:
                # One reading per index is judged: a coarser scale's less sure echo of an index read
                # surely is the same index, not another left unread.
                working = self._suppress(readings) if known is not None else []
                for x0, y0, x1, y1 in changed:
                    whole = known is not None and self._named_whole(working, (x0, y0, x1, y1), known)
                    if at.fine_unless_named and whole:
                        continue
                    box = (
                        math.floor(x0 * scale),
                        math.floor(y0 * scale),
                        math.ceil(x1 * scale),
                        math.ceil(y1 * scale),
                    )
                    readings += self._enlarged(image, scale, box)
        kept = _whole(self._suppress(readings))
        return image, scale, _off_middles(kept, accepting, self.settings.pips)

    def _named_whole(self, readings: Sequence[Reading], box: Box, known: frozenset[str]) -> bool:
        """Whether ``readings`` (frame pixels, one per index: see :meth:`_suppress`) named every index
        found in ``box`` all but certainly (PipSettings.sure_index), one of them a card not ``known``
        (named in the frame before): the part needs no enlarged read (see
        ScaleSettings.fine_unless_named). Why a card not known: a pack holds one of each, so an index
        of a known card says nothing of what came, and a soft card that came and went unread beside a
        card read surely must still be read enlarged."""
        sure = self.settings.pips.sure_index
        within = [r for r in readings if inside((float(r.centre[0]), float(r.centre[1])), box)]
        fresh = any(r.label not in known for r in within)
        return fresh and all(r.confidence >= sure for r in within)

    def _enlarged(self, image: Frame, scale: float, box: Box) -> list[Reading]:
        """Readings (frame pixels) of the part ``box`` (x0, y0, x1, y1) of ``image`` (the frame scaled by
        ``scale``), enlarged by ScaleSettings.fine."""
        fine = self.settings.scales.fine
        x0, y0, x1, y1 = box
        part = np.ascontiguousarray(image[y0:y1, x0:x1])
        if min(part.shape[:2]) < 2:
            return []
        large = np.asarray(cv2.resize(part, None, fx=fine, fy=fine, interpolation=cv2.INTER_CUBIC), np.uint8)
        found = self._read(large, scale * fine, outlines=False)
        if not (x0 or y0):
            return found
        return [replace(r, cand=_shifted(r.cand, x0 / scale, y0 / scale)) for r in found]

    def _suppress(self, readings: list[Reading]) -> list[Reading]:
        """One reading per index: the most confident among those that overlap it, by where they lie
        along and across it and which way they are turned (see ReadingSettings.same_index_reach,
        same_index_across and same_index_turn)."""
        reading = self.settings.reading
        parallel = math.cos(math.radians(reading.same_index_turn))
        kept: list[Reading] = []
        # The centres, lengths and directions of those kept, as arrays: each reading is weighed against
        # all kept at once, in the kept one's own frame.
        centres = np.zeros((len(readings), 2))
        lengths = np.zeros(len(readings))
        downs = np.zeros((len(readings), 2))
        for rd in sorted(readings, key=lambda r: (r.not_index > 0.5, -r.confidence)):
            n = len(kept)
            off = rd.centre - centres[:n]
            reach = reading.same_index_reach * np.maximum(lengths[:n], rd.cand.length)
            along = (off[:, 0] * downs[:n, 0] + off[:, 1] * downs[:n, 1]) / reach
            across = (off[:, 0] * downs[:n, 1] - off[:, 1] * downs[:n, 0]) / reach
            # Across, an index turned the kept one's way (or half round from it) reaches only so far;
            # one turned aslant of it, as far as along.
            side_by_side = np.abs(downs[:n] @ rd.down) >= parallel
            across[side_by_side] *= reading.same_index_reach / reading.same_index_across
            if (along * along + across * across < 1.0).any():
                continue
            centres[n], lengths[n], downs[n] = rd.centre, rd.cand.length, rd.down
            kept.append(rd)
        return kept

    @staticmethod
    def _same_card(a: Reading, b: Reading) -> bool:
        """Whether two readings are indices of one card: same name, and placed as two corners of one card.

        Each index sees the other diagonally ahead: "down" the card and across it, no farther across
        than down (a card is taller than it is wide, and its indices sit in from the edges alike). The
        distance is kept loose, at most 16 rank-to-suit distances (measured 8-9 on the real deck's
        photos), because decks differ in where and how large they print indices. Two copies of one card
        lying head to tail within that are rare (and a pack holds one: see :func:`one_of_each`).
        """
        if a.label != b.label:
            return False
        if facing(a, b):
            return True
        along, across, length, turn = lie(a, b)
        # Four-index decks also print an index upright in the top right corner: the same way up, level
        # with the first, a card's width across (at most ~14 index heights).
        return turn > 0.9 and abs(along) < 1.2 * length and 3 * length < across < 14 * length

    def _kept(
        self,
        kept: dict[_Still, _Look],
        fresh: dict[_Still, _Look],
        a: Reading,
        b: Reading,
        look: Callable[[], _Look],
        at: tuple[int, int] = (0, 0),
    ) -> _Look:
        """What the middle between two opposite corners shows (``look``: its pips counted, or whether
        it shows a picture), looked at once for as long as a filmed card lies still.

        Why: a camera sees a card lying on the table in frame after frame, and a look costs about a
        millisecond a card, a tenth of the frame's budget with a few number cards in sight. A card is
        taken to lie still while both its corners are read, with the same names, in the same
        TrackingSettings.still
        pixels as in the frame before (``kept``, the last frame's looks); anything else is looked at
        again. Each look is kept in ``fresh``, this frame's. Places are the camera frame's: ``at`` is
        where the picture read lies in it (a region of change's top left corner), so that a card read
        whole and then in a region, or the other way round, is the same card.
        """
        still = self.settings.tracking.still
        dx, dy = at
        ax, ay, bx, by = (
            round(v / still) for v in (a.centre[0] + dx, a.centre[1] + dy, b.centre[0] + dx, b.centre[1] + dy)
        )
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
        accepting = self.settings.reading
        return [
            Sighting(
                seen_from_text(r.label) if r.accepted(accepting) else UNKNOWN,
                round(r.confidence, 3),
                _scaled(idx.patch_polygon(r.cand), 1.0, size),
            )
            for r in readings
            if r.accepted(accepting) or r.not_index < accepting.unknown_below
        ]

    # --------------------------------------------------------------------------------------- detect
    def detect(self, frame: Frame) -> list[Sighting]:
        """Every card visible in ``frame`` (BGR, any size), as sightings in the frame's own pixels.

        Filmed frames (with ``motion``) are compared with the table as last read, and only the regions
        that changed are read again (see :meth:`_detect_changed`).
        """
        if self._motion is None:
            return one_of_each(self._detect_whole(frame))
        return one_of_each(self._detect_changed(frame, self._motion))

    def _detect_whole(self, frame: Frame) -> list[Sighting]:
        """Every card visible in ``frame``, read whole, and closer where asked (see ``closer``)."""
        seen = self._detect(frame)
        return self._closer(frame, seen) if self.closer else seen

    def _closer(self, frame: Frame, seen: list[Sighting]) -> list[Sighting]:
        """``seen`` (``frame`` read whole) with each stretch of card white about one card large that no
        card named lies on (:func:`geometry.unnamed_white`) read again, enlarged as a region of change
        is (ScaleSettings.fine_regions), and any card named there put in place of what was said of
        that stretch (a back, an unread index).

        Why: a camera at a slant sees its far cards with few pixels, and the view from above
        magnifies them (:class:`companion.vision.plane.TopDown`), soft. A court's index so seen runs
        into its picture's frame, and the card went unread or was taken for a back. Enlarged once
        more, the glyphs stand apart: on the tuning tables at 45 degrees, 9 of the 10 face-up cards
        lost in the far half and not covered by another card were read from their crop enlarged.
        Looking only at unnamed white keeps the cost to a region read for each such card (and each
        back's white border): a read for drift, one frame in MotionSettings.reread, not every frame.
        """
        length = self._last_length
        if length is None:
            return seen
        width = length / INDEX_SHARE
        named = [s.center for s in seen if s.card is not None]
        boxes = unnamed_white(frame, named, width)
        if not boxes:
            return seen
        # A region read is this frame's too: what the whole read left (the index length, the looks at
        # cards' middles, the blur measured) stands for the next frames.
        kept = (self._last_length, self._counts, self._pictures, self._cores, self._softness, self._sharp)
        h, w = frame.shape[:2]
        reach = self.settings.motion.margin * idx.CARD_ASPECT * width
        fine_reach = self.settings.scales.fine_reach * idx.CARD_ASPECT * width
        out = list(seen)
        for box in boxes:
            x0, y0, x1, y1 = box
            gx0, gy0 = max(0, round(x0 - reach)), max(0, round(y0 - reach))
            gx1, gy1 = min(w, round(x1 + reach)), min(h, round(y1 + reach))
            crop_box = (gx0, gy0, gx1, gy1)
            crop = np.ascontiguousarray(frame[gy0:gy1, gx0:gx1])
            names = {s.label for s in out if s.card is not None}
            fresh = [
                s
                for s in (
                    moved(t, gx0, gy0)
                    for t in self._detect(crop, _parts([box], fine_reach, crop_box), crop_box)
                )
                if s.card is not None and s.label not in names and inside(s.center, box)
            ]
            if fresh:
                out = [s for s in out if not inside(s.center, box)] + fresh
        (self._last_length, self._counts, self._pictures, self._cores, self._softness, self._sharp) = kept
        return out

    def forget(self) -> None:
        """Forget the frames read so far: the next is read whole, as if it were the first."""
        if self._motion is not None:
            self._motion.forget()
        self._seen = []
        self._counts, self._pictures, self._cores = {}, {}, {}

    def _detect_changed(self, frame: Frame, motion: Motion) -> list[Sighting]:
        """The sightings of a filmed ``frame``, read only where it differs from the table as last read.

        Why: at a card table most frames show what the last did, and a whole 1280x720 frame of a dozen
        cards costs about a hundred milliseconds on one core, where comparing it costs about one. Where
        nothing changed, what was read stands. A region of change is read again with a margin round it
        (MotionSettings.margin card lengths), so that a card it touches lies whole in what is read; what
        was read there before is dropped, and what is read now kept, except where nothing changed on a
        card read before (what was read of it whole stands; the region's edge may cut it). The whole
        frame is read when there is nothing to compare with, when most of it changed (the camera moved,
        the light changed) and every MotionSettings.reread frames, so a slow drift is caught. A card a
        region's enlarged reading named (ScaleSettings.fine_regions) that such a re-read, unenlarged,
        leaves unnamed where nothing changed is kept as named: the re-read is for drift, and a soft
        camera's card must not fall unread once a second.
        """
        small = motion.small(frame)
        change = motion.change(frame, small)
        settings = motion.settings
        shaken = change is not None and change.shaken
        if shaken and self._shaken < settings.reread:
            # The settled table smeared (a bump, focus hunting: see Motion.change): the camera shook
            # the whole picture, not only where the smear shows, so the frame is passed over and what
            # was read stands. A smear lasting past a re-read's interval is read whole, as it is (the
            # camera has gone soft), and settled.
            self._shaken += 1
            return list(self._seen)
        self._shaken = 0
        if change is None or shaken or change.share > settings.whole or self._since_whole >= settings.reread:
            whole = self._detect_whole(frame)
            if change is not None and not shaken and change.share <= settings.whole:  # a re-read for drift
                whole = still_named(self._seen, whole, change.boxes)
            self._seen = whole
            self._index_length = self._last_length or self._index_length
            motion.settle(frame, small)
            self._since_whole = 0
            return list(self._seen)
        self._since_whole += 1
        if not change.boxes:
            return list(self._seen)
        size = (frame.shape[1], frame.shape[0])
        reach = settings.margin * self._card_length(size)
        seen = list(self._seen)
        known = frozenset(s.label for s in seen if s.card is not None)
        for box in merged([grown(b, reach, size) for b in change.boxes]):
            changed = [b for b in change.boxes if box_in(b, box)]
            x0, y0, x1, y1 = box
            crop = np.ascontiguousarray(frame[y0:y1, x0:x1])
            parts = _parts(changed, self.settings.scales.fine_reach * self._card_length(size), box)
            fresh = [moved(s, x0, y0) for s in self._detect(crop, parts, box, known)]
            inner = (
                x0 + (1 if x0 > 0 else -1),
                y0 + (1 if y0 > 0 else -1),
                x1 - (1 if x1 < size[0] else -1),
                y1 - (1 if y1 < size[1] else -1),
            )
            stale = [s for s in seen if touches(s, changed) or within(s, box)]
            seen = [s for s in seen if not any(s is t for t in stale)]
            seen += [s for s in fresh if touches(s, changed) or (within(s, inner) and not covered(s, seen))]
        motion.settle(frame, small, change.boxes)
        self._seen = seen
        return list(seen)

    def _card_length(self, size: tuple[int, int]) -> float:
        """A card's length in the frame, from the indices of the last whole reading (an index's
        rank-to-suit distance is 0.14-0.25 of its card's width, a card 1.4 times as long as it is wide),
        or a quarter of the frame's shorter side before any index is read."""
        if self._index_length is None:
            return 0.25 * min(size)
        return idx.CARD_ASPECT * self._index_length / INDEX_SHARE

    def _detect(
        self,
        frame: Frame,
        changed: Sequence[Box] = (),
        region: Box | None = None,
        known: frozenset[str] | None = None,
    ) -> list[Sighting]:
        """Every card visible in ``frame``, read whole (and enlarged where it ``changed``: see
        :meth:`_readings`). ``region``: where ``frame`` lies in the camera's frame when it is a part of
        it (the looks at cards' middles are kept by the camera frame's places: see :meth:`_kept`).
        ``known``: the cards named in the frame before, where a part of ``changed`` may go unenlarged
        (see :meth:`_readings`)."""
        accepting, counting = self.settings.reading, self.settings.pips
        image, scale, readings = self._readings(frame, changed, known)
        lengths = [r.cand.length for r in readings if r.accepted(accepting)]
        self._last_length = float(np.median(lengths)) if lengths else None
        size = (frame.shape[1], frame.shape[0])
        sightings: list[Sighting] = []
        used: set[int] = set()
        named = [r for r in readings if r.accepted(accepting)]
        groups: list[list[Reading]] = []
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
        groups = joined_by_white(image, scale, groups)
        cards = [(group, *agree(group)) for group in groups]
        if self.pips:
            at = (0, 0) if region is None else (region[0], region[1])
            counts: dict[_Still, Counted | None] = {}
            pictures: dict[_Still, float | None] = {}
            cores: dict[_Still, int | None] = {}
            # One look at each card's middle serves its count and its picture (see Middle).
            middles: dict[tuple[int, int], Middle] = {}

            def middle(a: Reading, b: Reading) -> Middle:
                key = (id(a), id(b))
                if key not in middles:
                    middles[key] = Middle(image, _corner(a, scale), _corner(b, scale), counting)
                return middles[key]

            unsure = [
                r for r in readings if not r.accepted(accepting) and r.not_index < accepting.unknown_below
            ]
            cards = counted(
                cards,
                lambda a, b: self._kept(self._counts, counts, a, b, lambda: middle(a, b).counted(), at),
                lambda a, b: self._kept(self._pictures, pictures, a, b, lambda: middle(a, b).picture(), at),
                unsure,
                counting,
                lambda a, b: self._kept(self._cores, cores, a, b, lambda: middle(a, b).cores(), at),
                lambda a, b: middle(a, b).lone(),
                lambda a, b: middle(a, b).outlined(),
            )
            taken = {id(r) for group, _, _ in cards for r in group}
            alone = [r for r in unsure if id(r) not in taken and not beside(r, named)]
            cards += unsure_pairs(
                alone,
                lambda a, b: self._kept(self._counts, counts, a, b, lambda: middle(a, b).counted(), at),
                counting,
                lambda a, b: middle(a, b).counted_by_corners(),
                lambda a, b: middle(a, b).lone(),
                named,
            )
            if region is None:
                self._counts, self._pictures, self._cores = counts, pictures, cores
            else:
                # A region's looks replace only what was looked at inside it: the cards elsewhere lie
                # as they did, and the next whole reading finds them still.
                still = self.settings.tracking.still
                self._counts = _outside(self._counts, region, still) | counts
                self._pictures = _outside(self._pictures, region, still) | pictures
                self._cores = _outside(self._cores, region, still) | cores
        cards += spades_by_the_pack(cards, readings, named, self._same_card, counting)
        cards = twins_joined(image, scale, cards)
        geometry = counting.geometry
        for group, label, conf in cards:
            pts = [p for r in group for p in idx.patch_polygon(r.cand)]
            # A card read at one corner says where it lies by that index; one read at both, by its
            # outline round them (see Sighting.where).
            lone = card_middle(group[0], geometry) if len(group) == 1 else None
            sightings.append(
                Sighting(
                    seen_from_text(label), round(conf, 3), _scaled(_outline(group, pts), 1.0, size), lone
                )
            )
        in_cards = {id(r) for group, _, _ in cards for r in group}
        for r in readings:
            if not r.accepted(accepting) and r.not_index < accepting.unknown_below and id(r) not in in_cards:
                # Unsure: say so, unless a confident reading of the same spot already names it, or
                # it is the other corner of a card named by its rank.
                if beside(r, named) or corner_of_named(r, cards):
                    continue

                sightings.append(
                    Sighting(
                        UNKNOWN,
                        round(1.0 - r.confidence, 3),
                        _scaled(idx.patch_polygon(r.cand), 1.0, size),
                        card_middle(r, geometry),
                    )
                )
        if self.backs:
            downs, faces = backs(image, readings, scale, self.settings.backs)
            sightings += [Sighting(BACK, conf, _scaled(quad, scale, size)) for quad, conf in downs]
            for quad in faces:
                # A face-up card with no index found on it: named by its pips where they say plainly
                # what it is, else reported as a card that could not be read.
                shown = by_pips(pips.pips_of(image, quad, counting), counting) if self.pips else None
                sightings.append(
                    Sighting(
                        seen_from_text(shown) if shown else UNKNOWN,
                        counting.pips_alone_confidence if shown else counting.unread_face_confidence,
                        _scaled(quad, scale, size),
                    )
                )
        return sightings


def _parts(boxes: Sequence[Box], reach: float, crop: Box) -> list[Box]:
    """``boxes`` (frame pixels) grown by ``reach`` pixels each way and cut to ``crop`` (a part of the
    frame), in ``crop``'s own pixels, those that overlap merged."""
    x0, y0, x1, y1 = crop
    out: list[Box] = []
    for b in boxes:
        g = grown(b, reach, (x1, y1))
        part = (max(g[0], x0) - x0, max(g[1], y0) - y0, g[2] - x0, g[3] - y0)
        if part[0] < part[2] and part[1] < part[3]:
            out.append(part)
    return merged(out)


def _outside(looks: dict[_Still, _Look], region: Box, still: float) -> dict[_Still, _Look]:
    """The ``looks`` (see :meth:`Recogniser._kept`) at cards whose first corner lies outside ``region``
    (frame pixels; a look's places are in ``still`` pixels)."""
    x0, y0, x1, y1 = region
    return {
        key: look
        for key, look in looks.items()
        if not (x0 <= key[2] * still < x1 and y0 <= key[3] * still < y1)
    }


def _shifted(c: idx.Candidate, dx: float, dy: float) -> idx.Candidate:
    """``c`` moved by (``dx``, ``dy``) pixels."""
    return replace(c, rank=(c.rank[0] + dx, c.rank[1] + dy), suit=(c.suit[0] + dx, c.suit[1] + dy))


def _mark_cut(readings: list[Reading], blobs: idx.Ink, shape: tuple[int, ...], scale: float) -> list[Reading]:
    """``readings`` (frame pixels) of an image (``shape``, the frame scaled by ``scale``; its ink
    ``blobs``), those whose rank or suit mark lies in a glyph the edge of the image cuts marked so."""
    x, y, w, h = (blobs.stats[:, k] for k in range(4))
    edge = blobs.glyphs & ((x == 0) | (y == 0) | (x + w >= shape[1]) | (y + h >= shape[0]))
    boxes = [(x[k], y[k], x[k] + w[k], y[k] + h[k]) for k in np.flatnonzero(edge).tolist()]
    if not boxes:
        return readings

    def cut(r: Reading) -> bool:
        marks = ((px * scale, py * scale) for px, py in (r.cand.rank, r.cand.suit))
        return any(x0 <= px <= x1 and y0 <= py <= y1 for px, py in marks for x0, y0, x1, y1 in boxes)

    return [replace(r, cut=True) if cut(r) else r for r in readings]


def _whole(readings: list[Reading]) -> list[Reading]:
    """``readings`` less those of an index cut by the edge of the picture that no other index of their
    card confirms.

    Why: a cut mark reads as another (a king's "K" cut to a stroke is the "1" of a ten, or an "A"),
    named beside the card's whole index as a second card, wrongly; yet a card close under a webcam can
    fill the frame, both its indices touching its edges and both read right.
    """

    def confirmed(r: Reading) -> bool:
        return any(o is not r and Recogniser._same_card(r, o) for o in readings)

    return [r for r in readings if not r.cut or confirmed(r)]


def _off_middles(readings: list[Reading], accepting: ReadingSettings, settings: PipSettings) -> list[Reading]:
    """``readings`` less those lying in the middle of a card whose two index corners are both read, by
    the same name: nothing printed there is an index.

    Why: a pip washed pale by a lamp's glare, with the stem of a club beside it, was read as a "10h"
    in the middle of a three of clubs read at both its corners: a second card that is not there. A
    card lying on top could show its index there only if laid across the middle of the one beneath,
    leaving both its ends bare, which a game does not do. The middle reaches along the card as far as
    its index middles, and across it ``settings.middle`` of the way to them: every pip is in it, no
    index.
    """
    if not readings:
        return readings
    inside = _in_middles(np.array([r.centre for r in readings]), readings, accepting, settings)
    return [r for r, off in zip(readings, inside.tolist(), strict=True) if not off]


def _in_middles(
    points: npt.NDArray[np.float64],
    readings: Sequence[Reading],
    accepting: ReadingSettings,
    settings: PipSettings,
) -> npt.NDArray[np.bool_]:
    """Which of ``points`` (n, 2; frame pixels) lie in the middle of a card whose two index corners are
    both among ``readings``, read by the same name (the middle as :func:`_off_middles` takes it)."""
    by_name: dict[str, list[Reading]] = {}
    for r in readings:
        if r.accepted(accepting):
            by_name.setdefault(r.label, []).append(r)
    faces = [
        (a, b)
        for same in by_name.values()
        for k, a in enumerate(same)
        for b in same[k + 1 :]
        if opposite(a, b)
    ]
    inside = np.zeros(len(points), bool)
    for a, b in faces:
        down, corner = a.down, a.centre
        middle = (corner + b.centre) / 2
        axes = np.array([down, [down[1], -down[0]]])  # along the card, across it
        reach = np.abs(axes @ (corner - middle)) * (1.0, settings.middle)
        inside |= (np.abs((points - middle) @ axes.T) < reach).all(axis=1)
    return inside


def _corner(reading: Reading, scale: float) -> pips.Corner:
    """A reading's rank and suit middles, in the working image (scaled by ``scale`` from the frame)."""
    (rx, ry), (sx, sy) = reading.cand.rank, reading.cand.suit
    return (rx * scale, ry * scale), (sx * scale, sy * scale)


def _unread_outlines(
    blobs: idx.Ink,
    readings: Sequence[Reading],
    scale: float,
    accepting: ReadingSettings,
    settings: PipSettings,
) -> list[int]:
    """The outlines among ``blobs`` with no accepted reading inside their box (readings in frame
    pixels, blobs in those scaled by ``scale``), nor lying in the middle of a card read at both its
    corners.

    Why: a card read already, by an index inside its edge, is not searched again. Nor is a court's
    picture frame on a card read at both corners (the middle, as :func:`_off_middles` takes it, holds
    the box's centre): any index freed from it is one of that card's own, read already, or lies where
    :func:`_off_middles` would throw its reading out. The search costs a millisecond or two for each
    such frame, a tenth of a 13-card table's budget.
    """
    found = idx.outlines(blobs)
    named = [r for r in readings if r.accepted(accepting)]
    if not named or found.size == 0:
        return [int(i) for i in found]
    centres = np.array([r.centre for r in named]) * scale
    inside = idx.in_boxes(centres, blobs.stats[found]).any(axis=0)
    x, y, w, h = (blobs.stats[found, k].astype(np.float64) for k in range(4))
    middles = np.stack([x + w / 2, y + h / 2], axis=1) / scale
    inside |= _in_middles(middles, named, accepting, settings)
    return [int(i) for i in found[~inside]]


def _not_index(pr: npt.NDArray[np.float32], accepting: ReadingSettings) -> npt.NDArray[np.bool_]:
    """Candidates a network is sure are no index (see ReadingSettings.unknown_below)."""
    sure: npt.NDArray[np.bool_] = (pr[:, NOT_INDEX] > 1.0 - accepting.unknown_below) & (
        pr[:, NOT_INDEX] > 0.5
    )
    return sure


def _outline(group: list[Reading], pts: list[tuple[float, float]]) -> list[tuple[float, float]]:
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


def one_of_each(sightings: list[Sighting]) -> list[Sighting]:
    """``sightings`` with every card named at more than one place named only where it was read surest,
    and reported unread where it was read less surely.

    Why: a pack holds each card once. Two indices of one name that are not one card's two corners
    (those are merged into one sighting by where they lie) are two cards, and one of them is misread:
    at a slant a far club's notches fill in and it reads as the spade lying near the camera; a soft
    court's upturned corner reads as another court. Which one is wrong the frame cannot say for sure,
    but the surer reading is the likelier right, and the other is a card lying there unread: a prompt
    to look again, not a second copy of a card (which the tracker would take for the first one moving).
    Readings as sure as the surest all stay named: nothing tells them apart, and two corners of one
    card a soft frame left unjoined read so (in the demo film under blur, a ten's two corners at 1.0
    each; one made unread became a thing of its own, which a card laid over it later joined, and that
    card was asked about).
    """
    best: dict[str, Sighting] = {}
    for s in sightings:
        if s.card is not None and (s.label not in best or s.confidence > best[s.label].confidence):
            best[s.label] = s
    return [
        s
        if s.card is None or s.confidence >= best[s.label].confidence
        else replace(s, seen=UNKNOWN, confidence=round(1.0 - s.confidence, 3))
        for s in sightings
    ]
