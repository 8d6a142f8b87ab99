"""The card faces scenes are made of: vector decks rendered, decks written as SVG text in a few typefaces,
the backs, and the photographed real deck; each face with its index marks found, so labels come free.

The procedurally drawn decks, where most of the variety of glyphs lies, are in
:mod:`tools.vision_build.drawing`.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

from companion.vision import index as idx
from companion.vision.mlp import RANK_TEXTS, SUIT_TEXTS
from tools.vision_build.options import CARD_W, SHARED

U8 = npt.NDArray[np.uint8]
Mark = tuple[tuple[float, float], tuple[float, float], tuple[float, float, float, float]]
"""(rank centre, suit centre, box around both) of one index, in card pixels."""

_JUMBO_SUIT = {"c": "club", "d": "diamond", "h": "heart", "s": "spade"}
_JUMBO_RANK = {"A": "Ace", "J": "Jack", "Q": "Queen", "K": "King"}
_SUIT_CHAR = {"c": "\u2663", "d": "\u2666", "h": "\u2665", "s": "\u2660"}


@dataclass(frozen=True)
class CardArt:
    """A rendered card face (BGRA) with its label and its index marks in card pixels."""

    image: U8
    label: str | None  # None for a back
    marks: list[Mark]
    """Each index on the face."""


def _rasterise(svg: bytes | str, width: int) -> U8:
    import cairosvg  # the train extra; not needed to run the companion

    kw: dict[str, Any] = {"output_width": width}
    png = cairosvg.svg2png(url=svg, **kw) if isinstance(svg, str) else cairosvg.svg2png(bytestring=svg, **kw)
    img = np.asarray(cv2.imdecode(np.frombuffer(png, np.uint8), cv2.IMREAD_UNCHANGED), np.uint8)
    if img.shape[2] == 3:
        img = np.dstack([img, np.full(img.shape[:2], 255, np.uint8)])
    return img


def _find_marks(img: U8, width: float = 0.26, clip: bool = False) -> list[Mark]:
    """Rank and suit mark centres of the top-left index of an upright render, and of its rotated twin."""
    h, w = img.shape[:2]
    alpha = img[..., 3]
    bgr = img[..., :3].copy()
    # Blank everything within a few pixels of the card's edge: the printed outline is not ink of the index.
    inner = cv2.erode(
        (alpha > 128).astype(np.uint8),
        np.ones((3, 3), np.uint8),
        iterations=max(3, w // 50),
        borderType=cv2.BORDER_CONSTANT,
        borderValue=0,
    )
    bgr[inner == 0] = 255
    gray = cv2.cvtColor(bgr, cv2.COLOR_BGR2GRAY)
    region = gray[: int(h * 0.33), : int(w * width)]
    ink = (region < 170).astype(np.uint8)
    count, labels, stats, _ = cv2.connectedComponentsWithStats(ink, connectivity=8)
    ids = [i for i in range(1, count) if stats[i][cv2.CC_STAT_AREA] > (w / 120) ** 2]
    if clip:
        # Leave out blobs cut by the region's edge: big pips and pictures, not the index.
        rh, rw = region.shape
        ids = [i for i in ids if stats[i][0] + stats[i][2] < rw - 1 and stats[i][1] + stats[i][3] < rh - 1]
    if not ids:
        raise RuntimeError("index marks not found on a render")
    ids.sort(key=lambda i: int(stats[i][cv2.CC_STAT_TOP]))
    found = _paired_marks([stats[i] for i in ids])
    if found is None:
        # A rank glyph run into its suit mark (some decks' "J" and "Q"): one blob, split as at run time.
        x, y, bw, bh = (int(v) for v in stats[ids[0]][:4])
        joined = idx.split_joined((labels[y : y + bh, x : x + bw] == ids[0]).astype(np.uint8))
        if joined is None:
            raise RuntimeError("index marks not found on a render")
        (rx, ry), (sx, sy), size = joined
        if not (sy - ry > 0.5 * size and abs(sx - rx) < 0.5 * size):
            raise RuntimeError("index marks not found on a render")
        found = ((x + rx, y + ry), (x + sx, y + sy), (float(x), float(y), float(x + bw), float(y + bh)))
    rc, sc, box = found
    second = (
        (w - rc[0], h - rc[1]),
        (w - sc[0], h - sc[1]),
        (w - box[2], h - box[3], w - box[0], h - box[1]),
    )
    return [found, second]


def _paired_marks(blobs: list[Any]) -> Mark | None:
    """Rank centre, suit centre and box of an index whose rank and suit are separate blobs (top first).

    None unless the nearest blob below the rank lies where an index's suit does: about a glyph below,
    not off to the side (a rank run into its suit mark, or into a court card's picture frame, fails it).
    """
    top = blobs[0]
    rank = [b for b in blobs if b[cv2.CC_STAT_TOP] < top[cv2.CC_STAT_TOP] + top[cv2.CC_STAT_HEIGHT] * 0.5]
    rest = [b for b in blobs if not any(b is r for r in rank)]
    x0 = min(b[0] for b in rank)
    y0 = min(b[1] for b in rank)
    x1 = max(b[0] + b[2] for b in rank)
    y1 = max(b[1] + b[3] for b in rank)
    rc = ((x0 + x1) / 2, (y0 + y1) / 2)
    size = float(max(x1 - x0, y1 - y0))
    below = [
        b
        for b in rest
        if 0.5 * size < b[1] + b[3] / 2 - rc[1] < 1.8 * size and abs(b[0] + b[2] / 2 - rc[0]) < 0.5 * size
    ]
    if not below:
        return None
    suit = min(below, key=lambda b: np.hypot(b[0] + b[2] / 2 - rc[0], b[1] + b[3] / 2 - rc[1]))
    sc = (suit[0] + suit[2] / 2, suit[1] + suit[3] / 2)
    box = (float(min(x0, suit[0])), float(y0), float(max(x1, suit[0] + suit[2])), float(suit[1] + suit[3]))
    return (rc, sc, box)


def _font_deck_svg(rank: str, suit: str, style: dict[str, Any]) -> str:
    colour = "#c8102e" if suit in "dh" else "#111111"
    if style.get("colour_shift"):
        colour = "#b01020" if suit in "dh" else "#1a1a3a"
    w, h = 250, 350
    fs = style["size"]
    x = style["x"]
    y = style["y"] + fs * 0.8
    sy = y + fs * style["gap"]
    family = style["family"]
    weight = style["weight"]
    stretch = style.get("stretch", "normal")
    ss = fs * style["suit_scale"]
    spacing = ' letter-spacing="-3"' if rank == "10" else ""
    text = (
        f'<text x="{x}" y="{y}" font-family="{family}" font-weight="{weight}" font-stretch="{stretch}" '
        f'font-size="{fs}" fill="{colour}" text-anchor="middle"{spacing}>{rank}</text>'
        f'<text x="{x}" y="{sy}" font-family="DejaVu Sans" font-size="{ss}" fill="{colour}" '
        f'text-anchor="middle">{_SUIT_CHAR[suit]}</text>'
    )
    centre = ""
    if rank in "JQK":
        centre = (
            f'<rect x="55" y="60" width="140" height="230" fill="none" stroke="{colour}" stroke-width="2"/>'
            f'<rect x="70" y="80" width="110" height="190" fill="#e8c040" opacity="0.7"/>'
            f'<text x="125" y="200" font-family="{family}" font-size="90" fill="{colour}" '
            f'text-anchor="middle">{rank}</text>'
        )
    else:
        n = 1 if rank == "A" else int(rank)
        cols = 1 if n < 4 else 2 if n < 9 else 3
        rows = (n + cols - 1) // cols
        k = 0
        size = 90 if n == 1 else 44
        for r in range(rows):
            for c in range(cols):
                if k >= n:
                    break
                px = 125 + (c - (cols - 1) / 2) * 55
                py = 175 + (r - (rows - 1) / 2) * (200 / max(rows, 1)) + size * 0.35
                centre += (
                    f'<text x="{px}" y="{py}" font-family="DejaVu Sans" font-size="{size}" '
                    f'fill="{colour}" text-anchor="middle">{_SUIT_CHAR[suit]}</text>'
                )
                k += 1
    corner = f'<g>{text}</g><g transform="rotate(180 {w / 2} {h / 2})">{text}</g>'
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}">'
        f'<rect x="1" y="1" width="{w - 2}" height="{h - 2}" rx="14" fill="{style["paper"]}" '
        f'stroke="#888" stroke-width="1"/>{centre}{corner}</svg>'
    )


_FONT_STYLES: list[dict[str, Any]] = [
    {
        "family": "DejaVu Serif",
        "weight": "normal",
        "size": 40,
        "x": 26,
        "y": 10,
        "gap": 0.95,
        "suit_scale": 0.85,
    },
    {
        "family": "DejaVu Serif",
        "weight": "bold",
        "size": 34,
        "x": 24,
        "y": 12,
        "gap": 1.05,
        "suit_scale": 0.9,
    },
    {"family": "DejaVu Sans", "weight": "bold", "size": 36, "x": 25, "y": 10, "gap": 1.0, "suit_scale": 0.8},
    {
        "family": "DejaVu Sans",
        "weight": "normal",
        "size": 44,
        "x": 28,
        "y": 8,
        "gap": 0.9,
        "suit_scale": 0.75,
    },
    {
        "family": "DejaVu Sans",
        "weight": "bold",
        "size": 40,
        "x": 26,
        "y": 10,
        "gap": 1.0,
        "suit_scale": 0.95,
        "stretch": "condensed",
    },
    {
        "family": "DejaVu Sans Mono",
        "weight": "bold",
        "size": 38,
        "x": 26,
        "y": 10,
        "gap": 1.0,
        "suit_scale": 0.85,
    },
    {
        "family": "DejaVu Serif",
        "weight": "normal",
        "size": 30,
        "x": 20,
        "y": 14,
        "gap": 1.1,
        "suit_scale": 0.9,
        "colour_shift": True,
        "stretch": "condensed",
    },
]


def _backs(rng: np.random.Generator) -> list[CardArt]:
    arts = []
    for name in ("blueBack", "redBack"):
        arts.append(
            CardArt(_rasterise(str(SHARED / "svg" / "saulspatz-jumbo" / f"{name}.svg"), CARD_W), None, [])
        )
    h = int(CARD_W * 1.4)
    for k in range(6):
        img = np.zeros((h, CARD_W, 4), np.uint8)
        img[..., 3] = 255
        base = rng.integers(0, 200, 3)
        img[..., :3] = base
        pat = k % 3
        yy, xx = np.mgrid[0:h, 0:CARD_W]
        if pat == 0:
            stripe = ((xx + yy) // 6 % 2).astype(bool)
        elif pat == 1:
            stripe = ((xx // 10 + yy // 10) % 2).astype(bool)
        else:
            stripe = np.sin(xx / 5.0) * np.sin(yy / 5.0) > 0.3
        img[stripe, :3] = rng.integers(0, 255, 3)
        border = 10 if k % 2 == 0 else 0
        if border:
            img[:border] = img[-border:] = 255
            img[:, :border] = img[:, -border:] = 255
        arts.append(CardArt(img, None, []))
    return arts


def _jumbo_path(label: str) -> Path:
    """The jumbo-index vector deck's picture of a card ("10h")."""
    rank, suit = label[:-1], label[-1]
    return SHARED / "svg" / "saulspatz-jumbo" / f"{_JUMBO_SUIT[suit]}{_JUMBO_RANK.get(rank, rank)}.svg"


def _vector_face(path: Path, label: str) -> list[CardArt]:
    """One vector deck's card face, or none where its index cannot be found on the render."""
    img = _rasterise(str(path), CARD_W)
    try:
        return [CardArt(img, label, _find_marks(img))]
    except RuntimeError:
        # A few court cards join their index to the picture frame: leave them out.
        return []


@functools.cache
def load_jumbo_deck() -> list[CardArt]:
    """The jumbo-index vector deck alone, for scenes of its own (see ``--jumbo-scenes``).

    Why: its ranks are printed large and close over their suit marks, so on a card under about a
    hundred pixels wide a red "J"'s hook runs into the heart or diamond below it, a shape no other deck
    prints. As one deck among many the scenes showed it too seldom at those sizes to be learnt: builds
    that taught more flat-topped threes read that jack as a 6 or a 7. Jumbo indices are common on pub
    decks, and this is the deck the demo is played with.
    """
    return [face for r in RANK_TEXTS for u in SUIT_TEXTS for face in _vector_face(_jumbo_path(r + u), r + u)]


def load_decks(rng: np.random.Generator, progress: bool = True) -> tuple[list[CardArt], list[CardArt]]:
    """Every rendered face (all decks) and every back."""
    faces: list[CardArt] = []
    for rank in RANK_TEXTS:
        for suit in SUIT_TEXTS:
            label = f"{rank}{suit}"
            byron = SHARED / "svg" / "byron-knoll" / f"{rank}{suit.upper()}.svg"
            faces += _vector_face(byron, label) + _vector_face(_jumbo_path(label), label)
            for style in _FONT_STYLES:
                paper = "#ffffff" if rng.random() < 0.6 else "#f4f1e6"
                img = _rasterise(_font_deck_svg(rank, suit, style | {"paper": paper}).encode(), CARD_W)
                faces.append(CardArt(img, label, _find_marks(img)))
        if progress:
            print(f"  rendered rank {rank}", flush=True)
    return faces, _backs(rng)


def suit_shapes(faces: list[CardArt]) -> dict[str, list[U8]]:
    """Masks of suit symbols cut from the rendered decks' indices, to draw new decks with."""
    shapes: dict[str, list[U8]] = {s: [] for s in SUIT_TEXTS}
    for art in faces:
        if art.label is None or not art.marks:
            continue
        _, (sx, sy), _ = art.marks[0]
        bgr = art.image[..., :3]
        gray = cv2.cvtColor(bgr, cv2.COLOR_BGR2GRAY)
        ink = (gray < 170).astype(np.uint8)
        _, labels, stats, _ = cv2.connectedComponentsWithStats(ink, connectivity=8)
        lab = labels[round(sy), round(sx)]
        if lab == 0:
            continue
        x, y, w, h = stats[lab][:4]
        mask = (labels[y : y + h, x : x + w] == lab).astype(np.uint8) * 255
        if w >= 6 and h >= 6 and len(shapes[art.label[-1]]) < 40:
            shapes[art.label[-1]].append(mask)
    return shapes


#: Real crops that ``--hold-out-crops`` keeps out of training (one per rank, suits in turn), to measure
#: how the network does on photos of cards it has never seen. The shipped model uses all 52; the real
#: deals are never used.
HELD_OUT_CROPS = tuple(f"{r}{'cdhs'[k % 4]}" for k, r in enumerate(RANK_TEXTS))


def load_real_deck(hold_out: bool = False) -> list[CardArt]:
    """Photos of a real deck (../shared real-crops, MIT) as card faces, less :data:`HELD_OUT_CROPS` with
    ``hold_out``.

    Rendered decks alone leave a gap to photographed print (ink spread, paper texture, camera
    sharpening); one real deck in the mix closes much of it. The real deals stay wholly out of training.
    """
    faces = []
    for path in sorted((SHARED / "real-crops").glob("*.jpg")):
        if hold_out and path.stem in HELD_OUT_CROPS:
            continue
        bgr = cv2.imread(str(path))
        if bgr is None:
            continue
        h, w = bgr.shape[:2]
        alpha = np.zeros((h, w), np.uint8)
        radius = w // 16
        cv2.rectangle(alpha, (radius, 0), (w - radius, h), 255, -1)
        cv2.rectangle(alpha, (0, radius), (w, h - radius), 255, -1)
        for x, y in ((radius, radius), (w - radius, radius), (radius, h - radius), (w - radius, h - radius)):
            cv2.circle(alpha, (x, y), radius, 255, -1, cv2.LINE_AA)
        img = np.dstack([bgr, alpha])
        try:
            faces.append(CardArt(img, path.stem, _find_marks(img, width=0.19, clip=True)))
        except RuntimeError:
            continue
    return faces
