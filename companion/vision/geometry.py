"""Which corners read belong to one card when the camera looks at the table at a slant, and where card
white lies that nothing was read on.

Why apart: :mod:`companion.vision.reading` places two corners of a card by the index's own lie, which a
slanting camera skews; this looks at the picture itself (the card's white) to settle what that leaves
open: two cards of one name, or of one rank in the two suits of a colour, that may be one card's two
corners; and stretches of card white no card was named on, to be read again closer.
"""

from __future__ import annotations

from collections.abc import Sequence

import cv2
import numpy as np
import numpy.typing as npt

from companion.vision import pips
from companion.vision.arbitration import Card, agree
from companion.vision.reading import Reading, lie
from companion.vision.types import Frame

__all__ = ["inside", "joined_by_white", "twins_joined", "unnamed_white"]


def joined_by_white(image: Frame, scale: float, groups: list[list[Reading]]) -> list[list[Reading]]:
    """``groups`` (the readings of each card) with two cards of one name joined where both lie on one
    card's white: two corners of one card seen at a slant.

    Why: the recogniser (``Recogniser._same_card``) places two corners by the index's own "down",
    which a camera looking at the table at a slant skews (a card 45 degrees off straight down is
    shortened along the line of sight by a third, and its index's rank-to-suit line turned by up to 20
    degrees), so the two corners of one card were reported as two cards. What the slant leaves alone
    is that both lie on one stretch of card white: the white around a card's pips and inside its
    border runs unbroken from one corner to the other, and the table, a chip or a back is no card
    white. Only cards of one name are joined (two copies of one card in one frame are a second deck),
    turned half round from each other, and at most 16 rank-to-suit distances apart, as corners are at
    any slant up to about 60 degrees.

    The white is only looked for when there are such cards.
    """
    pairs = [
        (i, j)
        for i in range(len(groups))
        for j in range(i + 1, len(groups))
        if groups[i][0].label == groups[j][0].label
        and any(facing(a, b) for a in groups[i] for b in groups[j])
    ]
    if not pairs:
        return groups
    white = white_regions(image)
    joined = list(groups)
    for i, j in pairs:
        if joined[i] and joined[j] and on_one_white(white, scale, joined[i][0], joined[j][0]):
            joined[i] = joined[i] + joined[j]
            joined[j] = []
    return [g for g in joined if g]


def twins_joined(image: Frame, scale: float, cards: list[Card]) -> list[Card]:
    """``cards`` (each card's readings, name and confidence, as arbitration left them) with two cards
    read at one corner each, of one rank in the two suits of a colour (a club and a spade, a heart and
    a diamond), joined where they face as a card's two corners do and lie on one card's white: one
    card, named by its corners between them (:func:`companion.vision.arbitration.agree`: the clearly
    surer, else unknown).

    Why: a small club or heart far from a slanting camera is a few pixels, read as a spade or a
    diamond as surely as the near corner reads it right (on tables at 45 degrees: a king of clubs read
    Kc and Ks, an ace of clubs Ac and As, each at 0.99-1.0), and two cards reported where one lies is
    one named wrong. Why after arbitration: a number card whose middle can be counted has its suit
    named by its pips there (:func:`companion.vision.arbitration.counted`); only what that leaves as
    two cards is joined. The white is only looked for when there are such cards.
    """
    pairs = [
        (i, j)
        for i in range(len(cards))
        for j in range(i + 1, len(cards))
        if twins(cards[i], cards[j])
        and (facing(cards[i][0][0], cards[j][0][0]) or facing(cards[j][0][0], cards[i][0][0]))
    ]
    if not pairs:
        return cards
    white = white_regions(image)
    joined: list[Card | None] = list(cards)
    for i, j in pairs:
        first, second = joined[i], joined[j]
        if first is None or second is None or not on_one_white(white, scale, first[0][0], second[0][0]):
            continue
        both = first[0] + second[0]
        label, conf = agree(both)
        joined[i], joined[j] = (both, label, conf), None
    return [card for card in joined if card is not None]


#: The suit each suit may be read as at a few pixels: the other of its colour.
TWIN_SUITS = {"c": "s", "s": "c", "d": "h", "h": "d"}


def twins(first: Card, second: Card) -> bool:
    """Whether two cards, each read at one corner only, read one rank in the two suits of a colour."""
    if len(first[0]) != 1 or len(second[0]) != 1:
        return False  # a card read at two corners has no third
    a, b = first[1], second[1]
    return a[:-1] == b[:-1] and TWIN_SUITS.get(a[-1]) == b[-1]


def facing(a: Reading, b: Reading) -> bool:
    """Whether ``b`` lies as ``a``'s opposite corner may at a slant: turned half round (within 60
    degrees), in front of it and within 16 rank-to-suit distances."""
    along, _, length, turn = lie(a, b)
    return turn < -0.5 and along > 1.5 * length and float(np.hypot(*(b.centre - a.centre))) < 16 * length


def white_regions(image: Frame) -> npt.NDArray[np.int32]:
    """The stretches of card white in ``image`` (once the light's tint is taken out), labelled."""
    _, labels = cv2.connectedComponents(_card_white(image), connectivity=4)
    out: npt.NDArray[np.int32] = np.asarray(labels, np.int32)
    return out


def _card_white(image: Frame) -> npt.NDArray[np.uint8]:
    """1 where ``image`` shows card white: bright against its brightest, and all but grey, once the
    light's tint is taken out (see :func:`pips.balanced`)."""
    hsv = np.asarray(cv2.cvtColor(pips.balanced(image), cv2.COLOR_BGR2HSV), np.uint8)
    v = hsv[..., 2]
    bright = float(np.percentile(v, 99))
    white: npt.NDArray[np.uint8] = ((v > 0.8 * bright) & (hsv[..., 1] < 50)).astype(np.uint8)
    return white


def on_one_white(white: npt.NDArray[np.int32], scale: float, a: Reading, b: Reading) -> bool:
    """Whether the card white round ``a``'s index is the white round ``b``'s: any stretch making up a
    third or more of the white within two rank-to-suit distances of each.

    Why any such stretch and not only the largest: round a court's index lies the card's border, but
    within reach lies the white inside its picture's frame as well, beside the large suit mark some
    decks print there, and at some turns that white is the larger."""

    def around(r: Reading) -> set[int]:
        x, y = r.centre * scale
        reach = max(2, round(2 * r.cand.length * scale))
        h, w = white.shape
        patch = white[
            max(0, round(y) - reach) : min(h, round(y) + reach),
            max(0, round(x) - reach) : min(w, round(x) + reach),
        ]
        found = patch[patch > 0]
        if not found.size:
            return set()
        counts = np.bincount(found)
        return {int(k) for k in np.flatnonzero(counts >= counts.sum() / 3)}

    return bool(around(a) & around(b))


def unnamed_white(
    image: Frame, named: Sequence[tuple[float, float]], card_width: float
) -> list[tuple[int, int, int, int]]:
    """The boxes (x0, y0, x1, y1, in ``image``'s pixels) round each stretch of card white about one
    card large that none of the ``named`` points (the centres of the cards read) lies in: a face-up
    card nothing was read on, or a face-down card's border.

    A stretch counts as about one card where its box is at least half a card's width (``card_width``)
    each way and at most two cards' lengths: smaller is a chip, a sleeve or a glint; larger is a row of
    cards laid over each other, on which some card was read.
    """
    # Looked for at half size: a card's border is still a pixel or two wide there, and the view from
    # above of a slanting camera is up to three frames large (at full size this cost 30-40 ms).
    half = np.asarray(cv2.resize(image, None, fx=0.5, fy=0.5, interpolation=cv2.INTER_AREA), np.uint8)
    _, _, stats, _ = cv2.connectedComponentsWithStats(_card_white(half), connectivity=4)
    least, most = 0.5 * card_width, 2.8 * card_width  # a card is 1.4 times as long as it is wide
    found: list[tuple[int, int, int, int]] = []
    for x0, y0, w, h, _ in (2 * stats[1:]).tolist():
        if min(w, h) < least or max(w, h) > most:
            continue
        box = (x0, y0, x0 + w, y0 + h)
        if not any(inside(point, box) for point in named):
            found.append(box)
    return found


def inside(point: tuple[float, float], box: tuple[int, int, int, int]) -> bool:
    """Whether ``point`` lies in ``box`` (x0, y0, x1, y1), its edges included."""
    return box[0] <= point[0] <= box[2] and box[1] <= point[1] <= box[3]
