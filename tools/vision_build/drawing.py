"""Decks drawn here: ranks in OpenCV's line fonts or in the typefaces of :mod:`tools.vision_build.typefaces`,
each deck heavier or lighter, narrower or wider, slanted and bent its own way, suit marks cut from the
rendered decks; so the networks learn "a rank over a suit" rather than particular decks.
"""

from __future__ import annotations

import dataclasses
import functools
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

from tools.vision_build.decks import U8, CardArt
from tools.vision_build.options import CARD_W, DEFAULT, Options

_HERSHEY = (
    cv2.FONT_HERSHEY_SIMPLEX,
    cv2.FONT_HERSHEY_DUPLEX,
    cv2.FONT_HERSHEY_COMPLEX,
    cv2.FONT_HERSHEY_TRIPLEX,
    cv2.FONT_HERSHEY_PLAIN,
    cv2.FONT_HERSHEY_COMPLEX_SMALL,
)


@dataclass(frozen=True)
class DeckStyle:
    """How one procedurally drawn deck prints its indices (everything that draws its cards alike)."""

    font: int
    """A Hershey font (OpenCV's own line fonts), used when ``face`` is empty."""
    face: str
    """A typeface file the ranks are printed in (see :data:`TYPEFACES`), or "" for the Hershey font."""
    italic: bool
    rank_h: float  # share of card height
    thick: float  # stroke thickness relative to glyph height (Hershey); weight change (typeface)
    x: float
    y: float
    gap: float
    suit_scale: float
    aspect: float
    paper: tuple[float, float, float]
    red: tuple[float, float, float]
    black: tuple[float, float, float]
    shape: int
    squash: float
    slant: float
    """Horizontal shear of the rank glyph (share of its height), a face drawn slightly oblique."""
    ten_gap: float
    """Space between the "1" and "0" of a ten, as a share of the glyph height (negative: they touch)."""
    bend: float
    """How far the deck's glyphs are bent from their typeface (share of the glyph height; see _bent)."""
    bend_seed: int
    flat_three: bool = False
    """Whether the deck's 3 has a flat top, a bar and a diagonal over its bowl (drawn as the letter ezh,
    "Ʒ", in typefaces that have it)."""
    barred_jack: bool = False
    """Whether the deck's J has a bar across the top of its stem (see :func:`_barred`)."""
    drawn_flat_three: bool = False
    """Whether a flat 3 is drawn (:func:`_flat_topped`) in a face that has no such glyph of its own."""
    court_frame_beside: bool = False
    """Whether the court pictures are framed beside the index (see ``Options.court_frames_beside``)."""


_HERSHEY_SHARE = 0.3
#: Share of drawn decks whose rank glyph touches its suit mark, so that both make one blob (a jumbo "J"
#: over its club does; on a small card many indices run together by a pixel): without them the networks
#: saw joined indices only in one vector deck, and misread its jacks once the drawn decks grew.
_JOINED_SHARE = 0.15
# Why the options that change drawn decks have the defaults they have (see Options):
# - ``flat_threes`` (share of typeface decks whose 3 has a flat top): none of the typefaces prints its 3
#   that way, but some real decks do (a bar, a diagonal, a round bowl), and the networks read such a 3
#   as a 5, the only flat-topped digit they knew. At 0.3 it cut the wrong reports on the deck kept out
#   of training from 7.9 % to 2.7 % (see docs/contributing.md). At 0.6 with court frames beside the
#   index, the unseen deck read better still, but built so with the real deck the networks read the
#   demo deck's red jumbo jacks as sevens, so the default stays. ``drawn_flat_threes``: the faces
#   without that glyph get a flat 3 drawn (:func:`_flat_topped`) rather than keeping their own.
# - ``barred_jacks`` (share of typeface decks whose J has a bar across the top of its stem): many decks
#   print their J so (the demo deck's jumbo index does, in red over its suit), and a bar over a stem is
#   a 7's top: with more flat-topped threes learnt (0.6), networks built without such jacks read the
#   demo deck's red jacks as sevens. Few typefaces draw the bar across the whole top of the stem; their
#   serifs reach out on one side. Built at 0.3 with flat threes at 0.6 and court frames beside, the
#   networks still missed the demo deck's jack of hearts (and once read it as a 6), so it is off by
#   default (docs/contributing.md).
# - ``court_frames_beside``: many real decks start the picture's frame a few pixels right of the index
#   and level with its top, where a frame line beside a "K" looks like the "1" of a 10; the drawn decks
#   always framed the picture well clear of the index (below it, at a fifth of the card across), and the
#   networks read the serif kings of a deck kept out of training as tens. Not the default: see above.
#: Height of a drawn flat-topped 3's head (bar and diagonal), as a share of the glyph's height: the
#: face's own 3 is kept below it. Typefaces' upper bowls end at 0.4-0.5 of the height.
_FLAT_HEAD = 0.44


def random_style(
    rng: np.random.Generator,
    faces: list[Path] | None = None,
    joined: bool = False,
    options: Options = DEFAULT,
) -> DeckStyle:
    """A deck's look drawn at random; ``joined`` makes its rank glyphs touch their suit marks."""
    paper = (255.0, 255.0, 255.0) if rng.random() < 0.5 else tuple(float(v) for v in rng.uniform(225, 250, 3))
    face = ""
    if faces and rng.random() >= _HERSHEY_SHARE:
        face = str(faces[int(rng.integers(0, len(faces)))])
    style = DeckStyle(
        font=int(rng.choice(_HERSHEY)),
        face=face,
        italic=bool(rng.random() < 0.1),
        rank_h=float(rng.uniform(0.065, 0.14)),
        thick=float(rng.uniform(0.025, 0.11)) if not face else float(rng.uniform(-0.035, 0.05)),
        x=float(rng.uniform(0.07, 0.13)),
        y=float(rng.uniform(0.03, 0.07)),
        gap=float(rng.uniform(0.08, 0.45))
        if rng.random() >= _JOINED_SHARE and not joined
        else float(rng.uniform(-0.1, 0.0)),
        suit_scale=float(rng.uniform(0.55, 1.05)),
        aspect=float(rng.uniform(1.38, 1.56)),
        paper=paper,  # type: ignore[arg-type]
        red=(float(rng.uniform(0, 60)), float(rng.uniform(0, 50)), float(rng.uniform(150, 230))),
        black=(float(rng.uniform(0, 60)), float(rng.uniform(0, 40)), float(rng.uniform(0, 40))),
        shape=int(rng.integers(0, 1000)),
        squash=float(np.exp(rng.uniform(np.log(0.55), np.log(1.3)))),
        slant=float(rng.normal(0, 0.06)),
        ten_gap=float(rng.uniform(-0.06, 0.12)),
        bend=float(rng.uniform(0.0, 0.05)) if rng.random() < 0.6 else 0.0,
        bend_seed=int(rng.integers(0, 2**31)),
    )
    # Decided from a number already drawn, so that every other deck stays as it was drawn before.
    return dataclasses.replace(
        style,
        flat_three=bool(face) and (style.bend_seed >> 8) % 1000 < options.flat_threes * 1000,
        barred_jack=bool(face) and (style.bend_seed >> 18) % 1000 < options.barred_jacks * 1000,
        drawn_flat_three=options.drawn_flat_threes,
        court_frame_beside=options.court_frames_beside,
    )


def _glyph(text: str, style: DeckStyle, height: float) -> U8:
    """A tight mask of ``text`` in the style's font, ``height`` pixels tall."""
    if style.face:
        canvas = _face_glyph(text, style)
    else:
        font = style.font | (cv2.FONT_ITALIC if style.italic else 0)
        scale = 4.0
        thick = max(1, round(style.thick * 100))
        (tw, th), base = cv2.getTextSize(text, font, scale, thick)
        canvas = np.zeros((th + base + 2 * thick + 10, tw + 2 * thick + 10), np.uint8)
        cv2.putText(canvas, text, (thick + 5, th + thick + 5), font, scale, 255, thick, cv2.LINE_AA)
    ys, xs = np.nonzero(canvas > 100)
    canvas = canvas[ys.min() : ys.max() + 1, xs.min() : xs.max() + 1]
    if style.bend > 0:
        canvas = _bent(canvas, style)
        ys, xs = np.nonzero(canvas > 100)
        canvas = canvas[ys.min() : ys.max() + 1, xs.min() : xs.max() + 1]
    h = max(4, round(height))
    w = max(2, round(canvas.shape[1] * h / canvas.shape[0] * style.squash))
    out: U8 = np.asarray(cv2.resize(canvas, (w, h), interpolation=cv2.INTER_AREA), np.uint8)
    return out


def _bent(canvas: U8, style: DeckStyle) -> U8:
    """A glyph bent by a smooth displacement field, the same field for every glyph of one deck.

    Why: a few dozen typefaces are still a few dozen shapes of each digit, and a deck drawn in none of
    them (a thin condensed 3 whose top curls more than any training 3) was read as the nearest shape.
    Bending each deck's glyphs a little, consistently across its cards, makes shapes between and around
    the typefaces' (the elastic distortion known from handwritten-digit training).
    """
    pad = max(4, round(style.bend * canvas.shape[0] * 3))
    canvas = np.asarray(
        cv2.copyMakeBorder(canvas, pad, pad, pad, pad, cv2.BORDER_CONSTANT, value=0), np.uint8
    )
    h, w = canvas.shape
    coarse = np.random.default_rng(style.bend_seed).standard_normal((2, 4, 4)).astype(np.float32)
    shift = [
        np.asarray(cv2.resize(c, (w, h), interpolation=cv2.INTER_CUBIC), np.float32) * style.bend * h
        for c in coarse
    ]
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    out = cv2.remap(canvas, xx + shift[0], yy + shift[1], cv2.INTER_LINEAR, borderValue=0)
    return np.asarray(out, np.uint8)


#: Size (pixels) typeface glyphs are drawn at before they are shaped and shrunk to the card.
_FACE_PX = 160
_FLAT_THREE = "\u01b7"


@functools.cache
def _font(face: str) -> Any:
    """A typeface file opened at :data:`_FACE_PX` (once per process: opening is slow)."""
    from PIL import ImageFont  # the train extra

    return ImageFont.truetype(face, _FACE_PX)


@functools.cache
def _has_flat_three(face: str) -> bool:
    return _has_glyph(_font(face), _FLAT_THREE)


def _has_glyph(font: Any, char: str) -> bool:
    """Whether ``font`` draws ``char`` itself rather than its missing-glyph box."""
    from PIL import Image, ImageDraw

    def drawn(text: str) -> bytes:
        img = Image.new("L", (2 * _FACE_PX, 2 * _FACE_PX), 0)
        ImageDraw.Draw(img).text((_FACE_PX // 2, _FACE_PX // 4), text, font=font, fill=255)
        return bytes(img.tobytes())

    ink = drawn(char)
    return any(ink) and ink != drawn("\ue000")  # a private-use point: no face here has a glyph for it


def _face_glyph(text: str, style: DeckStyle) -> U8:
    """``text`` drawn large in the style's typeface: heavier or lighter, slanted, a ten's digits spaced."""
    font = _font(style.face)
    if text == "3" and style.flat_three:
        if _has_flat_three(style.face):
            text = _FLAT_THREE
        elif style.drawn_flat_three:
            return _face_glyph_shaped(_flat_topped(_face_glyph_drawn("3", font, style)), style)
    if text == "J" and style.barred_jack:
        return _face_glyph_shaped(_barred(_face_glyph_drawn("J", font, style)), style)
    return _face_glyph_shaped(_face_glyph_drawn(text, font, style), style)


def _face_glyph_drawn(text: str, font: Any, style: DeckStyle) -> U8:
    """``text`` in ``font`` as drawn, before the deck's weight and slant (a ten's digits spaced)."""
    from PIL import Image, ImageDraw

    pad = _FACE_PX // 2
    parts = ["1", "0"] if text == "10" else [text]
    widths = [int(font.getlength(p)) for p in parts]
    gap = round(style.ten_gap * _FACE_PX)
    img = Image.new("L", (sum(widths) + gap + 2 * pad, int(_FACE_PX * 1.6) + 2 * pad), 0)
    draw = ImageDraw.Draw(img)
    x = pad
    for part in parts:
        box = font.getbbox(part)
        draw.text((x - box[0], pad), part, font=font, fill=255)
        x += round(box[2] - box[0]) + gap
    return np.asarray(img, np.uint8)


def _face_glyph_shaped(canvas: U8, style: DeckStyle) -> U8:
    """A drawn glyph made heavier or lighter and slanted as the deck's style says."""
    # Weight: a disc as wide as the change grows or eats every stroke alike.
    change = round(abs(style.thick) * _FACE_PX)
    if change >= 1:
        disc = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * change + 1, 2 * change + 1))
        op = cv2.dilate if style.thick > 0 else cv2.erode
        thinner = np.asarray(op(canvas, disc), np.uint8)
        if (thinner > 100).sum() > 0.2 * (canvas > 100).sum():
            canvas = thinner  # never thinned away to nothing (a hairline face)
    if abs(style.slant) > 0.005:
        h, w = canvas.shape
        m = np.array([[1.0, -style.slant, style.slant * h / 2], [0.0, 1.0, 0.0]], np.float32)
        canvas = np.asarray(cv2.warpAffine(canvas, m, (w, h)), np.uint8)
    return canvas


def _flat_topped(canvas: U8) -> U8:
    """A typeface's 3 with its upper bowl replaced by a flat top: a bar and a diagonal down to the
    middle, drawn in the glyph's own stroke width, over the face's own lower bowl.

    Why: the typefaces that have the ezh ("Ʒ") give that shape of 3 (``Options.flat_threes``), but only about
    half of them have it, so every flat 3 learnt was in one of those few faces; real decks print it in
    faces of their own.
    """
    ink = canvas > 100
    ys, xs = np.nonzero(ink)
    top, bottom, left, right = int(ys.min()), int(ys.max()), int(xs.min()), int(xs.max())
    height = bottom - top + 1
    dist = cv2.distanceTransform(ink.astype(np.uint8), cv2.DIST_L2, 3)
    stroke = max(2, round(2 * float(np.percentile(dist[ink], 95))))
    cut = top + round(_FLAT_HEAD * height)
    out = canvas.copy()
    out[:cut] = 0
    # The diagonal ends where the kept part's middle arm starts: its leftmost ink just below the cut.
    band = ink[cut : cut + stroke]
    cols = np.nonzero(band.any(axis=0))[0]
    join_x = int(cols.min()) if cols.size else (left + right) // 2
    half = stroke / 2
    bar_y = round(top + half)
    bar = (round(left + half), bar_y), (round(right - half), bar_y)
    cv2.line(out, bar[0], bar[1], 255, stroke, cv2.LINE_AA)
    cv2.line(out, bar[1], (round(join_x + half), round(cut + half)), 255, stroke, cv2.LINE_AA)
    # Kept within the face's own 3, so that the glyph is as tall and wide as that 3.
    flat: U8 = np.zeros_like(out)
    flat[top : bottom + 1, left : right + 1] = out[top : bottom + 1, left : right + 1]
    return flat


def _barred(canvas: U8) -> U8:
    """A typeface's J with a bar across the top of its stem, reaching past it on both sides, as thick as
    about two thirds of the glyph's stroke (the shape of a jumbo index's J; see ``Options.barred_jacks``).

    The stem is what ink the glyph's top tenth holds: a J with serifs of its own gets its bar over them.
    """
    ink = canvas > 100
    ys = np.nonzero(ink)[0]
    top, bottom = int(ys.min()), int(ys.max())
    height = bottom - top + 1
    dist = cv2.distanceTransform(ink.astype(np.uint8), cv2.DIST_L2, 3)
    stroke = max(2, round(2 * float(np.percentile(dist[ink], 95))))
    head = np.nonzero(ink[top : top + max(1, height // 10)].any(axis=0))[0]
    left, right = int(head.min()), int(head.max())
    thick = max(2, round(0.65 * stroke))
    out = canvas.copy()
    cv2.rectangle(
        out, (left - round(0.9 * stroke), top), (right + round(0.9 * stroke), top + thick - 1), 255, -1
    )
    return out


def _paste(
    layer: npt.NDArray[np.float32], mask: U8, x0: int, y0: int, colour: tuple[float, float, float]
) -> None:
    h, w = mask.shape
    a = mask.astype(np.float32)[..., None] / 255.0
    region = layer[y0 : y0 + h, x0 : x0 + w]
    region[:] = region * (1 - a) + np.array(colour, np.float32) * a


def _court_frame(style: DeckStyle, right: float, bottom: float, w: int, h: int) -> tuple[int, int]:
    """Top-left corner of a drawn deck's court frame, beside its index (``right``: the index's right
    edge; ``bottom``: its suit mark's lower edge), in card pixels.

    Drawn from the deck's own seed, not the scene's generator, so each deck frames all its courts alike
    (as a printed deck does) and every other card of every scene is drawn as it was without the option.
    """
    rng = np.random.default_rng([style.bend_seed, 1])
    gap = rng.uniform(0.015, 0.06) * w
    x0 = max(right + gap, 0.12 * w)
    if x0 > 0.3 * w:
        # An index too wide to have a picture beside it: the frame starts below it instead.
        return int(0.22 * w), int(max(bottom + gap, 0.18 * h))
    return int(x0), int(rng.uniform(0.035, 0.16) * h)


#: Colours of court-card art (yellow, red, blue, black, flesh) in BGR.
_COURT_INKS = ((40, 200, 240), (40, 40, 200), (160, 80, 30), (30, 30, 30), (170, 200, 240))


def _court_picture(
    card: npt.NDArray[np.float32],
    style: DeckStyle,
    label: str,
    corner: tuple[int, int],
    colour: tuple[float, float, float],
) -> None:
    """Blocks of flat colour inside a court frame (top-left ``corner``, mirrored), as printed court
    art is: from the deck's seed and the card's name, leaving the scene's generator untouched."""
    h, w = card.shape[:2]
    x0, y0 = corner
    rng = np.random.default_rng([style.bend_seed, 2, *label.encode()])
    for _ in range(int(rng.integers(4, 10))):
        pts = np.stack([rng.uniform(x0, w - x0, 4), rng.uniform(y0, h - y0, 4)], axis=1).astype(np.int32)
        ink = _COURT_INKS[int(rng.integers(0, len(_COURT_INKS)))] if rng.random() < 0.8 else colour
        cv2.fillConvexPoly(card, cv2.convexHull(pts), tuple(float(v) for v in ink))


def draw_card(rng: np.random.Generator, label: str, style: DeckStyle, shapes: dict[str, list[U8]]) -> CardArt:
    """A face of a procedurally drawn deck: Hershey-font ranks, suit shapes from the vector decks."""
    w = CARD_W
    h = int(w * style.aspect)
    rank, suit = label[:-1], label[-1]
    colour = style.red if suit in "dh" else style.black
    card = np.zeros((h, w, 3), np.float32) + np.array(style.paper, np.float32)
    pool = shapes[suit]
    shape = pool[style.shape % len(pool)]
    rank_h = style.rank_h * h
    glyph = _glyph(rank, style, rank_h)
    suit_h = rank_h * style.suit_scale
    suit_w = max(3, round(shape.shape[1] * suit_h / shape.shape[0]))
    suit_mask = np.asarray(
        cv2.resize(shape, (suit_w, max(3, round(suit_h))), interpolation=cv2.INTER_AREA), np.uint8
    )
    cx = style.x * w + max(glyph.shape[1], suit_w) / 2
    rx0 = int(cx - glyph.shape[1] / 2)
    ry0 = int(style.y * h)
    sx0 = int(cx - suit_w / 2)
    sy0 = int(ry0 + glyph.shape[0] + style.gap * rank_h)
    corner = np.zeros_like(card)
    corner_alpha = np.zeros((h, w), np.float32)
    for mask, (x0, y0) in ((glyph, (rx0, ry0)), (suit_mask, (sx0, sy0))):
        mh, mw = mask.shape
        if x0 < 0 or y0 < 0 or x0 + mw > w or y0 + mh > h // 2:
            raise RuntimeError("index does not fit")
        _paste(corner, mask, x0, y0, colour)
        region = corner_alpha[y0 : y0 + mh, x0 : x0 + mw]
        region[:] = np.maximum(region, mask.astype(np.float32) / 255.0)
    # Centre: pips or a court picture.
    if rank in "JQK":
        x0, y0 = int(w * 0.22), int(h * 0.18)
        if style.court_frame_beside:
            right = max(rx0 + glyph.shape[1], sx0 + suit_w)
            x0, y0 = _court_frame(style, right, sy0 + suit_mask.shape[0], w, h)
            _court_picture(card, style, label, (x0, y0), colour)
        cv2.rectangle(card, (x0, y0), (w - x0, h - y0), colour, 2)
        for _ in range(12):
            c = tuple(float(v) for v in rng.uniform(0, 255, 3))
            p1 = (int(rng.uniform(x0, w - x0)), int(rng.uniform(y0, h - y0)))
            p2 = (int(rng.uniform(x0, w - x0)), int(rng.uniform(y0, h - y0)))
            cv2.line(card, p1, p2, c, int(rng.integers(1, 8)))
    else:
        n = 1 if rank == "A" else int(rank)
        cols = 1 if n < 4 else 2 if n < 9 else 3
        rows = (n + cols - 1) // cols
        pip_h = h * (0.3 if n == 1 else 0.13)
        pw = max(3, round(shape.shape[1] * pip_h / shape.shape[0]))
        pip = np.asarray(cv2.resize(shape, (pw, round(pip_h)), interpolation=cv2.INTER_AREA), np.uint8)
        k = 0
        for r in range(rows):
            for col in range(cols):
                if k >= n:
                    break
                px = w / 2 + (col - (cols - 1) / 2) * w * 0.24 - pw / 2
                py = h / 2 + (r - (rows - 1) / 2) * h * 0.6 / max(rows, 1) - pip_h / 2
                _paste(card, pip, int(px), int(py), colour)
                k += 1
    both = corner_alpha + corner_alpha[::-1, ::-1]
    ink = corner + corner[::-1, ::-1]
    a = np.clip(both, 0, 1)[..., None]
    card = card * (1 - a) + ink * a / np.maximum(np.clip(both, 1e-3, None)[..., None], 1.0)
    img = np.dstack([np.clip(card, 0, 255).astype(np.uint8), np.full((h, w), 255, np.uint8)])
    radius = int(w * rng.uniform(0.03, 0.07))
    alpha = np.zeros((h, w), np.uint8)
    cv2.rectangle(alpha, (radius, 0), (w - radius, h), 255, -1)
    cv2.rectangle(alpha, (0, radius), (w, h - radius), 255, -1)
    for x, y in ((radius, radius), (w - radius, radius), (radius, h - radius), (w - radius, h - radius)):
        cv2.circle(alpha, (x, y), radius, 255, -1, cv2.LINE_AA)
    img[..., 3] = alpha
    rc = (rx0 + glyph.shape[1] / 2, ry0 + glyph.shape[0] / 2)
    sc = (sx0 + suit_w / 2, sy0 + suit_mask.shape[0] / 2)
    box = (
        float(min(rx0, sx0)),
        float(ry0),
        float(max(rx0 + glyph.shape[1], sx0 + suit_w)),
        float(sy0 + suit_mask.shape[0]),
    )
    first = (rc, sc, box)
    second = (
        (w - rc[0], h - rc[1]),
        (w - sc[0], h - sc[1]),
        (w - box[2], h - box[3], w - box[0], h - box[1]),
    )
    return CardArt(img, label, [first, second])
