"""Naming a card by its middle as well as its corners: pips counted, a court's picture, two corners that
disagree.

Why apart from :mod:`companion.vision.recognise`: reading indices is the networks' work, while this is
arbitration between what the corners say and what the middle shows (see :func:`counted`), a separate
idea with its own measured thresholds.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import partial
from typing import Final

import numpy as np

from companion.vision.pips import Counted, Pips
from companion.vision.reading import Reading, beside, facing, opposite
from companion.vision.settings import SHIPPED, PipSettings
from companion.vision.types import UNKNOWN

__all__ = [
    "COURT_RANKS",
    "PIP_RANKS",
    "Card",
    "agree",
    "by_pips",
    "corner_of_named",
    "counted",
    "spades_by_the_pack",
    "unsure_pairs",
]

#: The pips each rank prints, for the ranks whose reading a count of pips checks (see :func:`counted`).
PIP_RANKS: Final = {"2": 2, "3": 3, "4": 4, "5": 5, "6": 6, "7": 7, "8": 8, "9": 9, "10": 10}
PIP_NAMES: Final = {count: rank for rank, count in PIP_RANKS.items()}
COURT_RANKS: Final = ("J", "Q", "K")
#: The red suits.
RED: Final = ("d", "h")

Card = tuple[list[Reading], str, float]
"""A card as read: the readings of its corners, its name and how sure that is."""
Count = Pips | Counted
"""A plain count of a card's pips, with their colour and outline, or with those measured when asked
(see :class:`companion.vision.pips.Middle`)."""


def agree(group: list[Reading]) -> tuple[str, float]:
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


def counted(
    cards: list[Card],
    pips_between: Callable[[Reading, Reading], Count | None],
    pictured: Callable[[Reading, Reading], float | None],
    unsure: Sequence[Reading] = (),
    settings: PipSettings = SHIPPED.pips,
    cores: Callable[[Reading, Reading], int | None] = lambda a, b: None,
    lone: Callable[[Reading, Reading], float | None] = lambda a, b: None,
    outlined: Callable[[Reading, Reading], float | None] = lambda a, b: None,
) -> list[Card]:
    """``cards`` (the indices read of each, its name and confidence) checked by the middle of every
    card whose two opposite corners are read, whatever rank they read: its pips counted where the count
    is plain (``pips_between`` the two corners: see :func:`pips.pips_between`), else how much of it
    its largest mark covers (``pictured``: see :func:`pips.picture_share`), a court's picture.

    A count that differs from the rank read names the card instead, in the suit each index read: the
    suit mark is the part of an index the networks and the notches read surely, and the rank glyph the
    part a new typeface changes. But where the index is in doubt (a corner less than
    ``settings.sure_index`` sure, or its two corners reading two suits) and the pips' outline plainly
    shows the other suit of its colour (see :func:`by_pips`), that suit names the card (see
    :func:`_counted_name`): a small card's index suit mark is a few pixels, its pips three times the
    size (the real eight of clubs 87 pixels wide, its indices read as spades, 0.97 sure, by networks
    that had not seen that deck, its pips plainly clubs). The colour is left to the index, which the
    networks and the ink's saturation rarely mistake. A picture names it by the corner that reads a
    court. Corners are paired by where they lie, not by what they say, so a card whose two corners read
    two ranks (a 3 and a 5, a J and a 7) becomes one card; lying whole, with no count and no picture, it
    is reported unread. A card read as a court at both corners whose pips are plainly counted is that
    number card (a glyph read as a court's letter); one read as a number at both whose middle shows a
    picture is reported unread (a serif "K" read as a "10": which court it is, nothing read says). That
    picture must be larger than where a corner reads a court (``settings.overruling_picture``): the pips
    of a small number card run together into marks as large as some pictures' pieces. A card read as
    one number at both corners whose middle shows such a picture stands as read if its pips, counted
    at their dark cores (``cores``: see :meth:`companion.vision.pips.Middle.cores`), are that number,
    of at least ``settings.cores_from``: a soft lens runs close pips into one mark as large as a
    picture. That count only confirms; it never names a card anything its corners did not read. A
    black ace read at both corners, in doubt, is named by its one pip's notches (``lone``: see
    :func:`_ace`). Two lone corners reading a court and a number alike surely, whose middle shows no
    card whole, are the court where the card their corners outline (``outlined``: see
    :meth:`companion.vision.pips.Middle.outlined`) shows a picture and no card read lies between them.
    """
    out = list(cards)
    k = 0
    while k < len(out):
        group, label, _ = out[k]
        rank = label[:-1]
        if rank == "A" and label[-1] in "cs":
            corners = _own_corners(group, k) or _opposite_ace(k, out)
            if corners is not None:
                (a, b), j = corners
                both = group if j == k else group + out[j][0]
                named = _ace(both, partial(lone, a, b), settings)
                if named is not None and (j != k or named != label):
                    # One card: its own two corners, or two lone corners of black aces lying as one's.
                    rest = [card for n, card in enumerate(out) if n not in (j, k)]
                    k = min(j, k)
                    out = [*rest[:k], (both, named, settings.pip_confidence), *rest[k:]]
        partner = (
            _opposite_corner(k, out)
            if rank in PIP_RANKS
            else _own_corners(group, k)
            if rank in COURT_RANKS
            else None
        )
        if partner is None:
            out[k] = _counted_with_unsure(out[k], unsure, pips_between, settings)
            k += 1
            continue
        (a, b), j = partner
        pair = (out[k], out[j]) if j != k else (out[k],)
        court = next((card for card in pair if card[1][:-1] in COURT_RANKS), None)
        found = pips_between(a, b)
        count = None if found is None else found.count
        shown = _shown(found, settings)
        picture = None if count is not None or (court is not None and j == k) else pictured(a, b)
        bar = settings.overruling_picture if court is None else settings.picture
        shows = picture is not None and picture > bar
        # Two names on the corners of one card lying whole, and its middle says neither.
        torn = count is None and not shows and picture is not None and j != k
        if count is None and not shows and not torn:
            # No plain count, no picture, no card whole: a card too small or too covered to count
            # stands as read, as does a court read at both corners whose middle is no number card's.
            # Two names read on its two corners, one clearly surer (see agree): one card, named by
            # the surer corner, as sure as that corner is. (A card's corner enlarged, a jack's read as
            # a seven at 0.71 beside its other corner's jack at 1.0, would else be a second card in
            # one place.) Alike sure, they may be two cards after all (the bottom corner of one in a
            # row and the top of the one after next lie so), and both stand; but a court and a number
            # with no card read between them whose outlined middle shows a picture are that court
            # (its white run into a card beside it, the middle found no card whole).
            if j != k:
                both = out[k][0] + out[j][0]
                label, _ = agree(both)
                courts = [card for card in pair if card[1][:-1] in COURT_RANKS]
                if label == UNKNOWN and len(courts) == 1:
                    others = [r for n, card in enumerate(out) if n not in (j, k) for r in card[0]]
                    if not any(_between(a, b, r) for r in others):
                        share = outlined(a, b)
                        if share is not None and share > settings.picture:
                            label = courts[0][1]
                if label != UNKNOWN:
                    conf = max(r.confidence for r in both if r.label == label)
                    rest = [card for n, card in enumerate(out) if n not in (j, k)]
                    k = min(j, k)
                    out = [*rest[:k], (both, label, conf), *rest[k:]]
            k += 1
            continue
        confirmable = j == k and all(r.label == label for r in group)
        if (
            count is None
            and court is None
            and shows
            and confirmable
            and PIP_RANKS[rank] >= settings.cores_from
            and cores(a, b) == PIP_RANKS[rank]
        ):
            k += 1  # its pips run together, and counted at their cores are what both corners read
            continue
        two_suits = len({card[1][-1] for card in pair}) > 1
        merged: dict[str, Card] = {}
        for group, label, conf in pair:
            if count is None and (court is None or torn):
                # Read as a number at both corners, or as two numbers, it shows a court's picture: a
                # court whose rank glyph was misread (a serif "K" as a "10"). Which court is not known,
                # nor which of two names is right where its middle says neither.
                label, conf = UNKNOWN, settings.pip_confidence
            elif count is None and court is not None:
                label, conf = court[1], court[2]
            elif count is not None:
                named = _counted_name(label, group, count, shown, two_suits, settings)
                if named != label:
                    label, conf = named, settings.pip_confidence
            before = merged.get(label)
            merged[label] = (
                (group, label, conf) if before is None else (before[0] + group, label, max(before[2], conf))
            )
        rest = [card for n, card in enumerate(out) if n not in (j, k)]
        k = min(j, k)
        out = rest[:k] + list(merged.values()) + rest[k:]
        k += len(merged)
    return out


def unsure_pairs(
    unsure: Sequence[Reading],
    pips_between: Callable[[Reading, Reading], Count | None],
    settings: PipSettings = SHIPPED.pips,
    by_corners: Callable[[Reading, Reading], Count | None] = lambda a, b: None,
    lone: Callable[[Reading, Reading], float | None] = lambda a, b: None,
    named: Sequence[Reading] = (),
) -> list[Card]:
    """Cards read only unsurely, at both their corners, that their middles name: two readings too
    unsure to name anything (``unsure``), lying as one card's opposite corners and reading one number,
    whose pips are plainly that many and plainly of one suit of the colour read (see :func:`by_pips`).
    Where the card's white is not found apart from another's, its pips are counted on the card its
    corners place (``by_corners``: see :meth:`companion.vision.pips.Middle.counted_by_corners`),
    unless a card read (``named``) lies between the corners. Two reading a black ace are named by
    its one pip's notches (``lone``: see :func:`_ace`).

    Why: blur takes a suit mark's detail before its rank's, and a spade is told from a club by detail
    alone (notches a club has and a spade lacks). So a soft photo's spades are read unsurely where
    their ranks are plain (see :func:`companion.vision.soft.soft_spades`), and unread they were half
    of a soft table's black cards. The middle's pips are three times an index's suit mark, and show
    what the blur took from the corners; two corners and a count agreeing on the rank leave the pips
    only the suit to say. An ace has no count, but its one pip is as large and keeps its notches as
    well (the tuning tables at a 3 pixel disc left 6 of their black aces unread so).
    """
    out: list[Card] = []
    used: set[int] = set()
    for i, a in enumerate(unsure):
        ace = a.label in ("Ac", "As")
        if i in used or (a.label[:-1] not in PIP_RANKS and not ace):
            continue
        for j in range(i + 1, len(unsure)):
            b = unsure[j]
            if j in used or b.label[:-1] != a.label[:-1] or (b.label[-1] in RED) != (a.label[-1] in RED):
                continue
            if not opposite(a, b):
                continue
            if ace:
                shown = _ace([a, b], partial(lone, a, b), settings)
            else:
                found = pips_between(a, b)
                if found is None and not any(_between(a, b, r) for r in named):
                    found = by_corners(a, b)
                if found is None or found.count != PIP_RANKS[a.label[:-1]]:
                    continue
                shown = _shown(found, settings)()
            if shown is None or (shown[-1] in RED) != (a.label[-1] in RED):
                continue
            out.append(([a, b], shown, settings.pip_confidence))
            used |= {i, j}
            break
    return out


def spades_by_the_pack(
    cards: Sequence[Card],
    readings: Sequence[Reading],
    named: Sequence[Reading],
    same_card: Callable[[Reading, Reading], bool],
    settings: PipSettings = SHIPPED.pips,
) -> list[Card]:
    """Cards whose corners blur left an even chance between club and spade (see
    :attr:`Reading.black`), named the spade where the club of their rank is named elsewhere in
    ``cards``: a pack holds one. ``readings`` are all the frame's, ``named`` those that name a card, and
    ``same_card`` says whether two readings are corners of one card.

    Why only that way round: blur fills a club's notches and never draws notches on a spade, so a
    club named through it is named right, while a spade named through it may be a club (which is why
    the soft spade was left unread). A corner lying where a named card lies, or as the opposite corner
    of one of its rank, is that card's own and says nothing of another. The rank must be all but
    certain (``settings.sure_index``), as a name found by elimination rests on it alone: blurred past
    3 pixels an eight's corner read as a black ten at 0.93, and the ten of clubs lay named elsewhere.
    """
    labels = {label for _, label, _ in cards}
    taken = {id(r) for group, _, _ in cards for r in group}
    doubtful = [
        r
        for r in readings
        if r.black >= settings.sure_index
        and id(r) not in taken
        and not beside(r, named)
        and not any(n.label[:-1] == r.label[:-1] and facing(r, n) for n in named)
    ]
    out: list[Card] = []
    for r in doubtful:
        spade = f"{r.label[:-1]}s"
        if f"{r.label[:-1]}c" not in labels or spade in labels:
            continue
        both = next((card for card in out if same_card(card[0][0], r)), None)
        if both is None:
            out.append(([r], spade, r.black))
        else:
            both[0].append(r)
    return out


def corner_of_named(r: Reading, cards: Sequence[Card]) -> bool:
    """Whether the unsure reading ``r`` lies as the opposite corner of a card named in ``cards`` whose
    rank and colour it reads: that card's own other corner, no card of its own.

    Why: blur leaves one corner of a black court read surely (its frame's mark named the spade: see
    :func:`companion.vision.soft.by_marks_beside`) and the other an even chance between club and
    spade; reported apart, the other corner stood as a second card, unread (the real deck's queen
    and jack of spades alone on the table at a 3 pixel disc: one card named, one unread, every time).
    """
    return any(
        label[:-1] == r.label[:-1]
        and (label[-1] in RED) == (r.label[-1] in RED)
        and any(facing(g, r) for g in group)
        for group, label, _ in cards
    )


def _counted_with_unsure(
    card: Card,
    unsure: Sequence[Reading],
    pips_between: Callable[[Reading, Reading], Count | None],
    settings: PipSettings,
) -> Card:
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
    other = next((u for u in unsure if opposite(a, u)), None)
    found = None if other is None else pips_between(a, other)
    if other is None or found is None:
        return card
    named = _counted_name(label, group, found.count, _shown(found, settings), False, settings)
    return ([a, other], named, conf if named == label else settings.pip_confidence)


def _shown(found: Count | None, settings: PipSettings) -> Callable[[], str | None]:
    """What the pips ``found`` plainly name (see :func:`by_pips`), to be asked only where it matters:
    their colour and outline are measured then (see :class:`companion.vision.pips.Middle`)."""
    if found is None:
        return lambda: None
    return lambda: by_pips(found if isinstance(found, Pips) else found.shape(), settings)


def _counted_name(
    label: str,
    group: list[Reading],
    count: int,
    shown: Callable[[], str | None],
    two_suits: bool,
    settings: PipSettings,
) -> str:
    """The name of a card read as ``label`` (by the readings ``group``) whose pips are plainly ``count``
    (and, if ``shown()`` says so, plainly of that card's suit: see :func:`by_pips`), where its corners
    read ``two_suits`` or one.

    The count names the rank. The suit is the index's unless the pips plainly show the other of its
    colour and the index is in doubt: its least sure corner under ``settings.sure_index``, or its two corners
    reading two suits, when without the pips' word the card is not named at all. The pips are asked
    only then.
    """
    suit = label[-1]
    in_doubt = (
        two_suits
        or min(r.confidence for r in group) < settings.sure_index
        or any(r.black > 0 for r in group)  # blur left its black suit to the network alone
    )
    plain = shown() if in_doubt else None
    if plain is not None and (plain[-1] in RED) == (suit in RED):
        suit = plain[-1]
    elif two_suits:
        return UNKNOWN
    return f"{PIP_NAMES[count]}{suit}"


def _ace(group: list[Reading], notch: Callable[[], float | None], settings: PipSettings) -> str | None:
    """The black ace whose two corners were read as ``group``, by its pip's notches ``notch()`` deep
    (see :meth:`companion.vision.pips.Middle.lone`), asked only where the index is in doubt: a corner
    under ``settings.sure_index``, blur leaving its black suit to the network, or its corners reading
    two suits. None where the pip does not say (or is not asked).

    Why: an ace has no pips to count, and blurred past 2.5 pixels an ace of clubs' index reads as the
    ace of spades, all but surely (the tuning tables at 3 pixels: 40 of its corners so, against 4
    read right); its one pip is three times the size of the index's suit mark and keeps its notches.
    Notched as a club's is, it is the club; plain, the spade; between, it stands as read.
    """
    in_doubt = (
        min(r.confidence for r in group) < settings.sure_index
        or any(r.black > 0 for r in group)
        or len({r.label for r in group}) > 1
    )
    found = notch() if in_doubt else None
    if found is None:
        return None
    if found >= settings.club_notch:
        return "Ac"
    if found <= settings.spade_notch:
        return "As"
    return None


def _opposite_ace(k: int, cards: Sequence[Card]) -> tuple[tuple[Reading, Reading], int] | None:
    """Where card ``k`` is a black ace read at one corner alone, the lone corner of another black ace
    lying as its opposite corner, and which of ``cards`` holds it; else None. (A soft ace of clubs
    reads as the spade at one corner and the club at the other.)"""
    group = cards[k][0]
    if len(group) != 1:
        return None
    for n, (other, label, _) in enumerate(cards):
        if n != k and len(other) == 1 and label in ("Ac", "As") and opposite(group[0], other[0]):
            return (group[0], other[0]), n
    return None


def _own_corners(group: list[Reading], k: int) -> tuple[tuple[Reading, Reading], int] | None:
    """Two readings of card ``k`` (its readings ``group``) at opposite corners of it, or None."""
    own = [(a, b) for a in group for b in group if b is not a and opposite(a, b)]
    return (own[0], k) if own else None


def _between(a: Reading, b: Reading, r: Reading) -> bool:
    """Whether the index ``r`` lies on the card whose two opposite corners ``a`` and ``b`` would be,
    clear of those corners by an index length: the card in the middle of a row, when ``a`` is the
    bottom corner of the card before it and ``b`` the top corner of the one after."""
    right = np.array([a.down[1], -a.down[0]])
    far, off = b.centre - a.centre, r.centre - a.centre
    along, across = float(far @ a.down), float(far @ right)
    down, side = float(off @ a.down), float(off @ right)
    length = (a.cand.length + b.cand.length) / 2
    return length < down < along - length and min(0.0, across) <= side <= max(0.0, across)


def _opposite_corner(k: int, cards: Sequence[Card]) -> tuple[tuple[Reading, Reading], int] | None:
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
        if opposite(a, other[0]):
            return (a, other[0]), n
    return None


def by_pips(found: Pips | None, settings: PipSettings = SHIPPED.pips) -> str | None:
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
        if found.notch >= settings.heart_notch or found.centre <= settings.heart_centre:
            return f"{rank}h"
        if found.notch <= settings.diamond_notch and found.centre >= settings.diamond_centre:
            return f"{rank}d"
        return None
    if found.notch >= settings.club_notch:
        return f"{rank}c"
    if found.notch <= settings.spade_notch:
        return f"{rank}s"
    return None  # between the two, or not measured (NaN)
