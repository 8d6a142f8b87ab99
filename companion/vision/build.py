"""Build the shipped card-index networks from the public-domain vector decks and decks drawn here.

Run ``python -m companion.vision.build``.

Rerunnable and deterministic (fixed seeds). Needs the ``train`` extra (``cairosvg`` over Debian's
libcairo2 to rasterise SVG, Pillow to draw typefaces, PyTorch to train the namer) and the font packages
that :func:`typeface_files` names; running the companion needs none of them.

What it does, and why:

1. Renders every card of the two vector decks in ../shared/datasets/cards/svg, plus extra decks drawn
   here from SVG text in several typefaces (sans, serif, mono; bold, condensed), and draws most scenes'
   decks procedurally: ranks in OpenCV's line fonts or in one of many typefaces from Debian's font
   packages (:data:`TYPEFACES`), each deck heavier or lighter, narrower or wider, slanted and bent its
   own way, so that the networks learn "a rank over a suit" rather than particular decks. Pub decks vary.
2. Finds each card's index marks on the clean render (so the labels come for free).
3. Composites labelled scenes: synthetic light and dark wood, cloth, cork, patterned tops; random
   rotation, scale (a webcam 50-100 cm up to a phone photo), perspective, overlapping pairs, fanned rows,
   face-down cards, hands and chips, shadows, glare, colour casts, blur, noise and JPEG loss.
4. Runs the very candidate finder used at run time on each scene, labels each candidate by the index
   it lies on (or "not an index") and cuts it out twice as at run time, at the finder's resolution and
   at the namer's; then trains the finder (the perceptron of :mod:`companion.vision.mlp`, on gradient
   features of its patches) and the namer (the convolutional network of :mod:`companion.vision.cnn`,
   with PyTorch) on its own.

The real deals in ../shared are never used here, so measuring on them is honest. The real crops (one
photographed deck, MIT) are composited into some scenes as one more deck (:func:`load_real_deck`); pass
``--hold-out-crops`` to keep 13 of them out and measure on those.
"""

from __future__ import annotations

import argparse
import functools
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

from companion.vision import cnn
from companion.vision import index as idx
from companion.vision.mlp import NOT_INDEX, RANK_TEXTS, SUIT_TEXTS, train
from companion.vision.recognise import FINDER_FILE, NAMER_FILE

SHARED = Path(__file__).resolve().parents[3] / "shared" / "datasets" / "cards"
DATA = Path(__file__).resolve().parent / "data"
FINDER = DATA / FINDER_FILE
NAMER = DATA / NAMER_FILE
CARD_W = 240

U8 = npt.NDArray[np.uint8]
Mark = tuple[tuple[float, float], tuple[float, float], tuple[float, float, float, float]]
"""(rank centre, suit centre, box around both) of one index, in card pixels."""

_JUMBO_SUIT = {"c": "club", "d": "diamond", "h": "heart", "s": "spade"}
_JUMBO_RANK = {"A": "Ace", "J": "Jack", "Q": "Queen", "K": "King"}
_SUIT_CHAR = {"c": "\u2663", "d": "\u2666", "h": "\u2665", "s": "\u2660"}


@dataclass
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


_HERSHEY = (
    cv2.FONT_HERSHEY_SIMPLEX,
    cv2.FONT_HERSHEY_DUPLEX,
    cv2.FONT_HERSHEY_COMPLEX,
    cv2.FONT_HERSHEY_TRIPLEX,
    cv2.FONT_HERSHEY_PLAIN,
    cv2.FONT_HERSHEY_COMPLEX_SMALL,
)


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


#: Typefaces that procedurally drawn decks print their ranks in, with the Debian packages that hold them.
#: Pub decks print indices in faces of every kind -- condensed sans, bold slab, old-style serif, narrow
#: grotesque -- and a network that has seen a few faces learns those faces' glyphs, not "a 3" (a deck it
#: never saw: a thin condensed 3 read as a 5). So the build draws decks from many faces, each thickened,
#: thinned, narrowed, widened and slanted at random. Upright cuts only: card indices are not italic.
TYPEFACES: dict[str, tuple[str, ...]] = {
    "fonts-dejavu-core": (
        "truetype/dejavu/DejaVuSans.ttf",
        "truetype/dejavu/DejaVuSans-Bold.ttf",
        "truetype/dejavu/DejaVuSerif.ttf",
        "truetype/dejavu/DejaVuSerif-Bold.ttf",
        "truetype/dejavu/DejaVuSansMono-Bold.ttf",
    ),
    "fonts-dejavu-extra": (
        "truetype/dejavu/DejaVuSansCondensed-Bold.ttf",
        "truetype/dejavu/DejaVuSerifCondensed.ttf",
        "truetype/dejavu/DejaVuSans-ExtraLight.ttf",
    ),
    "fonts-urw-base35": (
        "opentype/urw-base35/NimbusSans-Regular.otf",
        "opentype/urw-base35/NimbusSans-Bold.otf",
        "opentype/urw-base35/NimbusSansNarrow-Regular.otf",
        "opentype/urw-base35/NimbusSansNarrow-Bold.otf",
        "opentype/urw-base35/NimbusRoman-Regular.otf",
        "opentype/urw-base35/NimbusRoman-Bold.otf",
        "opentype/urw-base35/C059-Roman.otf",
        "opentype/urw-base35/C059-Bold.otf",
        "opentype/urw-base35/P052-Roman.otf",
        "opentype/urw-base35/P052-Bold.otf",
        "opentype/urw-base35/URWBookman-Light.otf",
        "opentype/urw-base35/URWBookman-Demi.otf",
        "opentype/urw-base35/URWGothic-Book.otf",
        "opentype/urw-base35/URWGothic-Demi.otf",
        "opentype/urw-base35/NimbusMonoPS-Bold.otf",
    ),
    "fonts-liberation": (
        "truetype/liberation/LiberationSans-Regular.ttf",
        "truetype/liberation/LiberationSans-Bold.ttf",
        "truetype/liberation/LiberationSansNarrow-Regular.ttf",
        "truetype/liberation/LiberationSansNarrow-Bold.ttf",
        "truetype/liberation/LiberationSerif-Regular.ttf",
        "truetype/liberation/LiberationSerif-Bold.ttf",
    ),
    "fonts-freefont-ttf": (
        "truetype/freefont/FreeSans.ttf",
        "truetype/freefont/FreeSansBold.ttf",
        "truetype/freefont/FreeSerif.ttf",
        "truetype/freefont/FreeSerifBold.ttf",
    ),
    "fonts-roboto-unhinted": (
        "truetype/roboto/unhinted/RobotoTTF/Roboto-Thin.ttf",
        "truetype/roboto/unhinted/RobotoTTF/Roboto-Light.ttf",
        "truetype/roboto/unhinted/RobotoTTF/Roboto-Regular.ttf",
        "truetype/roboto/unhinted/RobotoTTF/Roboto-Medium.ttf",
        "truetype/roboto/unhinted/RobotoTTF/Roboto-Bold.ttf",
        "truetype/roboto/unhinted/RobotoTTF/Roboto-Black.ttf",
    ),
    "fonts-open-sans": (
        "truetype/open-sans/OpenSans-Regular.ttf",
        "truetype/open-sans/OpenSans-Bold.ttf",
        "truetype/open-sans/OpenSans-ExtraBold.ttf",
    ),
    "fonts-lato": (
        "truetype/lato/Lato-Light.ttf",
        "truetype/lato/Lato-Regular.ttf",
        "truetype/lato/Lato-Bold.ttf",
        "truetype/lato/Lato-Black.ttf",
    ),
    "fonts-noto-core": (
        "truetype/noto/NotoSans-Regular.ttf",
        "truetype/noto/NotoSans-Bold.ttf",
        "truetype/noto/NotoSerif-Regular.ttf",
        "truetype/noto/NotoSerif-Bold.ttf",
        "truetype/noto/NotoSerifDisplay-Regular.ttf",
        "truetype/noto/NotoSansDisplay-Bold.ttf",
    ),
    "fonts-crosextra-caladea": (
        "truetype/crosextra/Caladea-Regular.ttf",
        "truetype/crosextra/Caladea-Bold.ttf",
    ),
    "fonts-crosextra-carlito": (
        "truetype/crosextra/Carlito-Regular.ttf",
        "truetype/crosextra/Carlito-Bold.ttf",
    ),
    "fonts-linuxlibertine": (
        "opentype/linux-libertine/LinLibertine_R.otf",
        "opentype/linux-libertine/LinLibertine_RB.otf",
        "opentype/linux-libertine/LinBiolinum_R.otf",
        "opentype/linux-libertine/LinBiolinum_RB.otf",
    ),
    "fonts-ebgaramond": ("opentype/ebgaramond/EBGaramond12-Regular.otf",),
    "fonts-bebas-neue": (
        "opentype/bebas-neue/BebasNeue-Light.otf",
        "opentype/bebas-neue/BebasNeue-Regular.otf",
        "opentype/bebas-neue/BebasNeue-Bold.otf",
    ),
    "fonts-cantarell": ("opentype/cantarell/Cantarell-Regular.otf", "opentype/cantarell/Cantarell-Bold.otf"),
}
_FONT_ROOTS = (Path("/usr/share/fonts"), Path("/usr/share/texmf/fonts"))


def typeface_files() -> list[Path]:
    """Every file of :data:`TYPEFACES`, in a fixed order; exits with the install line if any is missing.

    All or nothing, so two builds on two machines draw the same decks (a missing face would silently
    change every seeded choice after it).
    """
    found: list[Path] = []
    missing: set[str] = set()
    for package, files in TYPEFACES.items():
        for rel in files:
            path = next((root / rel for root in _FONT_ROOTS if (root / rel).is_file()), None)
            if path is None:
                missing.add(package)
            else:
                found.append(path)
    if missing:
        raise SystemExit(
            "build: the typefaces the decks are drawn in are missing; install them with:\n"
            f"  sudo apt-get install -y {' '.join(sorted(missing))}"
        )
    return found


@dataclass
class DeckStyle:
    """How one procedurally drawn deck prints its indices."""

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


_HERSHEY_SHARE = 0.3
#: Share of drawn decks whose rank glyph touches its suit mark, so that both make one blob (a jumbo "J"
#: over its club does; on a small card many indices run together by a pixel): without them the networks
#: saw joined indices only in one vector deck, and misread its jacks once the drawn decks grew.
_JOINED_SHARE = 0.15
#: Share of typeface decks whose 3 has a flat top (``--flat-threes``). Why: none of the typefaces
#: prints its 3 that way, but some real decks do (a bar, a diagonal, a round bowl), and the networks read
#: such a 3 as a 5, the only flat-topped digit they knew. At 0.3 it cut the wrong reports on the deck
#: kept out of training from 7.9 % to 2.7 % (see docs/contributing.md). At 0.6 with court frames beside
#: the index, the unseen deck read better still, but built so with the real deck the networks read the
#: demo deck's red jumbo jacks as sevens, so the default stays. ``drawn`` (``--drawn-flat-threes``):
#: the faces without that glyph get a flat 3 drawn (:func:`_flat_topped`) rather than keeping their own.
FLAT_THREES = {"share": 0.3, "drawn": False}
#: Share of typeface decks whose J has a bar across the top of its stem (``--barred-jacks``). Why: many
#: decks print their J so (the demo deck's jumbo index does, in red over its suit), and a bar over a
#: stem is a 7's top: with more flat-topped threes learnt (``FLAT_THREES`` at 0.6), networks built
#: without such jacks read the demo deck's red jacks as sevens. Few typefaces draw the bar across the
#: whole top of the stem; their serifs reach out on one side. Built at 0.3 with flat threes at 0.6 and
#: court frames beside, the networks still missed the demo deck's jack of hearts (and once read it as
#: a 6), so it is off by default (docs/contributing.md).
BARRED_JACKS = {"share": 0.0}
#: Height of a drawn flat-topped 3's head (bar and diagonal), as a share of the glyph's height: the
#: face's own 3 is kept below it. Typefaces' upper bowls end at 0.4-0.5 of the height.
_FLAT_HEAD = 0.44


def random_style(
    rng: np.random.Generator, faces: list[Path] | None = None, joined: bool = False
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
    style.flat_three = bool(face) and (style.bend_seed >> 8) % 1000 < FLAT_THREES["share"] * 1000
    style.barred_jack = bool(face) and (style.bend_seed >> 18) % 1000 < BARRED_JACKS["share"] * 1000
    return style


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
_FONTS: dict[str, Any] = {}
_FLAT_THREE = "\u01b7"
_HAS_FLAT_THREE: dict[str, bool] = {}


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
    from PIL import ImageFont  # the train extra

    font = _FONTS.get(style.face)
    if font is None:
        font = _FONTS[style.face] = ImageFont.truetype(style.face, _FACE_PX)
    if text == "3" and style.flat_three:
        if style.face not in _HAS_FLAT_THREE:
            _HAS_FLAT_THREE[style.face] = _has_glyph(font, _FLAT_THREE)
        if _HAS_FLAT_THREE[style.face]:
            text = _FLAT_THREE
        elif FLAT_THREES["drawn"]:
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

    Why: the typefaces that have the ezh ("Ʒ") give that shape of 3 (``FLAT_THREES``), but only about
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
    about two thirds of the glyph's stroke (the shape of a jumbo index's J; see ``BARRED_JACKS``).

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


#: Whether drawn decks frame their court pictures close beside the index (``--court-frames-beside``),
#: each deck at its own place, with blocks of colour inside. Why: many real decks start the picture's
#: frame a few pixels right of the index and level with its top, where a frame line beside a "K" looks
#: like the "1" of a 10; the drawn decks always framed the picture well clear of the index (below it,
#: at a fifth of the card across), and the networks read the serif kings of a deck kept out of training
#: as tens. Not the default: see FLAT_THREES.
COURT_FRAMES = {"beside": False}


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
        if COURT_FRAMES["beside"]:
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


#: Real crops that ``--hold-out-crops`` keeps out of training (one per rank, suits in turn), to measure
#: how the network does on photos of cards it has never seen. The shipped model uses all 52; the real
#: deals are never used.
HELD_OUT_CROPS = tuple(f"{r}{'cdhs'[k % 4]}" for k, r in enumerate(RANK_TEXTS))
_HOLD_OUT = {"crops": False}


def load_real_deck() -> list[CardArt]:
    """Photos of a real deck (../shared real-crops, MIT) as card faces (less :data:`HELD_OUT_CROPS` if asked).

    Rendered decks alone leave a gap to photographed print (ink spread, paper texture, camera
    sharpening); one real deck in the mix closes much of it. The real deals stay wholly out of training.
    """
    faces = []
    for path in sorted((SHARED / "real-crops").glob("*.jpg")):
        if _HOLD_OUT["crops"] and path.stem in HELD_OUT_CROPS:
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


# ---------------------------------------------------------------------------------------------- scenes


def _noise(rng: np.random.Generator, h: int, w: int, scale: float) -> npt.NDArray[np.float32]:
    small = rng.standard_normal((max(2, int(h / scale)), max(2, int(w / scale)))).astype(np.float32)
    out = np.asarray(cv2.resize(small, (w, h), interpolation=cv2.INTER_CUBIC), np.float32)
    return out


def _background(rng: np.random.Generator, h: int, w: int) -> npt.NDArray[np.float32]:
    kind = rng.choice(["light_wood", "light_wood", "dark_wood", "cloth", "cork", "pattern", "plain"])
    if kind in ("light_wood", "dark_wood"):
        # Grain: noise stretched along one axis, bent by low-frequency noise, then rotated.
        big = int(np.hypot(h, w)) + 4
        grain = _noise(rng, big, big, 1.0)
        grain = np.asarray(cv2.resize(cv2.resize(grain, (big // 40 + 2, big)), (big, big)), np.float32)
        warp = _noise(rng, big, big, 60.0) * 6
        lines = np.sin((np.arange(big)[None, :] + warp) / rng.uniform(3, 12)) * 0.5
        tex = grain * 0.5 + lines + _noise(rng, big, big, 30.0) * 0.4
        m = cv2.getRotationMatrix2D((big / 2, big / 2), float(rng.uniform(0, 180)), 1.0)
        tex = cv2.warpAffine(tex, m, (big, big))[
            (big - h) // 2 : (big - h) // 2 + h, (big - w) // 2 : (big - w) // 2 + w
        ]
        if kind == "light_wood":
            base = np.array([rng.uniform(120, 190), rng.uniform(160, 215), rng.uniform(190, 240)])
        else:
            base = np.array([rng.uniform(20, 60), rng.uniform(40, 90), rng.uniform(70, 130)])
        amp = rng.uniform(6, 22)
        img = base[None, None, :] + tex[..., None] * amp * np.array([0.8, 0.9, 1.0])
    elif kind == "cloth":
        base = rng.uniform(20, 200, 3)
        img = base[None, None, :] + _noise(rng, h, w, 1.5)[..., None] * rng.uniform(2, 10)
    elif kind == "cork":
        base = np.array([rng.uniform(60, 110), rng.uniform(110, 150), rng.uniform(150, 200)])
        img = base[None, None, :] + (_noise(rng, h, w, 2.0) * 14 + _noise(rng, h, w, 6.0) * 8)[..., None]
    elif kind == "pattern":
        img = np.zeros((h, w, 3), np.float32) + rng.uniform(60, 220, 3)
        for _ in range(int(rng.integers(10, 60))):
            colour = tuple(float(c) for c in rng.uniform(0, 255, 3))
            centre = (int(rng.integers(0, w)), int(rng.integers(0, h)))
            if rng.random() < 0.5:
                cv2.circle(img, centre, int(rng.integers(3, 40)), colour, -1)
            else:
                size = (int(rng.integers(3, 60)), int(rng.integers(3, 60)))
                cv2.ellipse(
                    img, centre, size, float(rng.uniform(0, 180)), 0, 360, colour, int(rng.integers(1, 6))
                )
        img += _noise(rng, h, w, 2.0)[..., None] * 5
    else:
        img = np.zeros((h, w, 3), np.float32) + rng.uniform(30, 235, 3)
        img += _noise(rng, h, w, 3.0)[..., None] * 6
    out: npt.NDArray[np.float32] = np.asarray(img, np.float32)
    return out


@dataclass
class Placed:
    art: CardArt
    matrix: npt.NDArray[np.float64]  # 2x3, card pixels -> scene pixels
    ident: int


def _placements(
    rng: np.random.Generator, h: int, w: int, card_w: float, n: int
) -> list[tuple[float, float, float]]:
    """Card centres and angles: singles, overlapping pairs and fanned rows."""
    out: list[tuple[float, float, float]] = []
    while len(out) < n:
        cx, cy = rng.uniform(0.05 * w, 0.95 * w), rng.uniform(0.05 * h, 0.95 * h)
        ang = rng.uniform(0, 360)
        style = rng.random()
        if style < 0.35:
            out.append((cx, cy, ang))
        elif style < 0.7:
            out.append((cx, cy, ang))
            off = rng.uniform(0.15, 0.6) * card_w
            a2 = ang + rng.normal(0, 25)
            t = np.deg2rad(rng.uniform(0, 360))
            out.append((cx + off * np.cos(t), cy + off * np.sin(t), a2))
        else:
            k = int(rng.integers(3, 7))
            step = rng.uniform(0.18, 0.45) * card_w
            t = np.deg2rad(ang + rng.choice([0, 90, 180, 270]) + rng.normal(0, 8))
            spread = rng.uniform(-8, 8)
            for j in range(k):
                out.append((cx + j * step * np.cos(t), cy + j * step * np.sin(t), ang + j * spread))
    return out[:n]


#: Share of rendered-deck scenes whose cards come from one procedurally drawn deck (the rest mix the
#: vector decks and the decks drawn as SVG text): drawn decks are where the variety of glyphs lies.
_DRAWN_SHARE = 0.7


def make_scene(
    rng: np.random.Generator,
    faces: list[CardArt],
    backs: list[CardArt],
    shapes: dict[str, list[U8]] | None = None,
    typefaces: list[Path] | None = None,
    joined: bool = False,
) -> tuple[U8, list[tuple[str, npt.NDArray[np.float64], npt.NDArray[np.float64], bool]]]:
    """A labelled scene: the image and, per index, (label, rank centre, suit centre, visible).

    With ``joined`` (and ``shapes``), the scene's cards all come from one drawn deck whose ranks touch
    their suit marks.
    """
    h, w = (720, 960) if rng.random() < 0.7 else (600, 800)
    card_w = float(np.exp(rng.uniform(np.log(52), np.log(230))))
    scene: Any = _background(rng, h, w)
    ids = np.full((h, w), -1, np.int32)
    n = int(rng.integers(4, 16))
    deck_bias = rng.integers(0, len(faces))
    drawn = shapes is not None and (joined or rng.random() < _DRAWN_SHARE)
    style = random_style(rng, typefaces, joined) if drawn else None
    placed: list[Placed] = []
    for k, (cx, cy, ang) in enumerate(_placements(rng, h, w, card_w, n)):
        if rng.random() < 0.12:
            art = backs[int(rng.integers(0, len(backs)))]
        elif style is not None and shapes is not None:
            label = RANK_TEXTS[int(rng.integers(0, 13))] + SUIT_TEXTS[int(rng.integers(0, 4))]
            try:
                art = draw_card(rng, label, style, shapes)
            except RuntimeError:
                style = random_style(rng, typefaces, joined)
                continue
        elif rng.random() < 0.5:
            # Scenes mostly hold one deck, as at a real table.
            j = int((deck_bias + rng.integers(0, 52) * 9) % len(faces))
            art = faces[j]
        else:
            art = faces[int(rng.integers(0, len(faces)))]
        ah, aw = art.image.shape[:2]
        s = card_w / aw * rng.uniform(0.95, 1.05)
        m = cv2.getRotationMatrix2D((aw / 2, ah / 2), float(ang), s)
        m[:, 2] += np.array([cx - aw / 2, cy - ah / 2])
        # Soft shadow first, then the card.
        alpha = cv2.warpAffine(art.image[..., 3], m, (w, h), flags=cv2.INTER_LINEAR).astype(np.float32) / 255
        if rng.random() < 0.6:
            sh = cv2.GaussianBlur(alpha, (0, 0), max(1.0, card_w / 40))
            sh = np.roll(sh, (int(card_w * 0.02) + 1, int(card_w * 0.02) + 1), axis=(0, 1))
            scene *= (1 - 0.35 * sh)[..., None]
        face = cv2.warpAffine(art.image[..., :3], m, (w, h), flags=cv2.INTER_LINEAR).astype(np.float32)
        scene = scene * (1 - alpha[..., None]) + face * alpha[..., None]
        ids[alpha > 0.5] = k
        placed.append(Placed(art, np.asarray(m, np.float64), k))
    # Chips and hands on top of some scenes.
    for _ in range(int(rng.integers(0, 3))):
        c = (int(rng.integers(0, w)), int(rng.integers(0, h)))
        r = int(card_w * rng.uniform(0.15, 0.3))
        col = tuple(float(v) for v in rng.uniform(0, 255, 3))
        cv2.circle(scene, c, r, col, -1)
        cv2.circle(scene, c, int(r * 0.7), (235.0, 235.0, 235.0), 2)
        cv2.circle(ids, c, r, -2, -1)
    if rng.random() < 0.3:
        skin = np.array([rng.uniform(60, 170), rng.uniform(90, 190), rng.uniform(140, 235)])
        pts = np.array([(rng.uniform(0, w), rng.uniform(0, h)) for _ in range(5)], np.float32)
        hull = cv2.convexHull(pts).astype(np.int32)
        hm = np.zeros((h, w), np.uint8)
        cv2.fillConvexPoly(hm, hull, 1)
        hm_f = cv2.GaussianBlur(hm.astype(np.float32), (0, 0), 3)
        tex = skin[None, None, :] + _noise(rng, h, w, 8.0)[..., None] * 10
        scene = scene * (1 - hm_f[..., None]) + tex * hm_f[..., None]
        ids[hm_f > 0.3] = -2
    if rng.random() < 0.3:
        # Heavier or lighter print: grey morphology on the whole scene.
        op = cv2.erode if rng.random() < 0.5 else cv2.dilate
        scene = op(np.asarray(scene, np.float32), np.ones((2, 2), np.uint8))
    # Lighting: gradient, glare, colour cast.
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    gx, gy = rng.normal(0, 1, 2)
    grad = 1 + rng.uniform(0, 0.35) * ((xx / w - 0.5) * gx + (yy / h - 0.5) * gy)
    scene *= grad[..., None]
    if rng.random() < 0.35:
        cx, cy = rng.uniform(0, w), rng.uniform(0, h)
        rad = rng.uniform(0.05, 0.3) * w
        glare = np.exp(-((xx - cx) ** 2 + (yy - cy) ** 2) / (2 * rad**2)) * rng.uniform(30, 120)
        scene += glare[..., None]
    scene *= rng.uniform(0.8, 1.15, 3)[None, None, :] * rng.uniform(0.6, 1.2)
    scene += _noise(rng, h, w, 1.0)[..., None] * rng.uniform(0, 6)
    img: Any = np.clip(scene, 0, 255).astype(np.uint8)
    if rng.random() < 0.5:
        img = cv2.GaussianBlur(img, (0, 0), rng.uniform(0.3, 1.2))
    # Mild perspective (a camera not quite overhead).
    src = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32)
    jit = (rng.uniform(-0.06, 0.06, (4, 2)) * [w, h]).astype(np.float32)
    persp = cv2.getPerspectiveTransform(src, src + jit)
    img = cv2.warpPerspective(img, persp, (w, h), borderMode=cv2.BORDER_REFLECT)
    _, enc = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(55, 95))])
    img = cv2.imdecode(enc, cv2.IMREAD_COLOR)
    truth: list[tuple[str, npt.NDArray[np.float64], npt.NDArray[np.float64], bool]] = []
    for p in placed:
        if p.art.label is None:
            continue
        for rank_c, suit_c, box in p.art.marks:
            pts = np.array([rank_c, suit_c], np.float64)
            scene_pts = pts @ p.matrix[:, :2].T + p.matrix[:, 2]
            # Visible when the index box is (almost) all this card's own pixels, or at least both marks
            # are; hidden when either mark is mostly covered (by another card, a chip, a hand) or off
            # the picture. A candidate on a hidden index is taught as "not an index", so the network
            # learns to leave a rank without its suit (or a suit without its rank) unread rather than
            # guess the rest; anything between is left out of training.
            own = _own(box, p, ids)
            reach = 0.35 * float(np.hypot(suit_c[0] - rank_c[0], suit_c[1] - rank_c[1]))
            own_marks = min(_own(_around(rank_c, reach), p, ids), _own(_around(suit_c, reach), p, ids))
            visible = own >= 0.97 or own_marks >= 0.97
            hidden = own_marks < 0.6
            warped = cv2.perspectiveTransform(scene_pts[None].astype(np.float32), persp)[0].astype(np.float64)
            truth.append((p.art.label, warped[0], warped[1], bool(visible)))
            truth.append(("partial", warped[0], warped[1], bool(not visible and not hidden and own > 0.3)))
    return img, truth


def _around(centre: tuple[float, float], reach: float) -> tuple[float, float, float, float]:
    return (centre[0] - reach, centre[1] - reach, centre[0] + reach, centre[1] + reach)


def _own(box: tuple[float, float, float, float], p: Placed, ids: npt.NDArray[np.int32]) -> float:
    """Share of a card-pixel box (sampled on a 5x6 grid) that shows this card in the scene (0 if any of
    it is off the picture)."""
    h, w = ids.shape
    bx = np.linspace(box[0], box[2], 5)
    by = np.linspace(box[1], box[3], 6)
    grid = np.array([(a, b) for a in bx for b in by], np.float64) @ p.matrix[:, :2].T + p.matrix[:, 2]
    if not ((grid[:, 0] >= 0) & (grid[:, 0] < w) & (grid[:, 1] >= 0) & (grid[:, 1] < h)).all():
        return 0.0
    gi = np.clip(grid.round().astype(int), 0, [w - 1, h - 1])
    return float((ids[gi[:, 1], gi[:, 0]] == p.ident).mean())


def label_candidates(
    cands: list[idx.Candidate],
    truth: list[tuple[str, npt.NDArray[np.float64], npt.NDArray[np.float64], bool]],
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64], npt.NDArray[np.bool_]]:
    """Rank class, suit class and a use-for-training flag for each candidate.

    A candidate on a visible index (the suit mark within 0.25 of the rank-suit distance, the rank within
    0.45) is that card; one roughly there but not quite, or on a partly covered index, is left out of
    training as ambiguous; everything else is "not an index".
    """
    n = len(cands)
    rank = np.full(n, NOT_INDEX, np.int64)
    suit = np.zeros(n, np.int64)
    use = np.ones(n, bool)
    if n == 0 or not truth:
        return rank, suit, use
    r = np.array([c.rank for c in cands])
    s = np.array([c.suit for c in cands])
    tr = np.array([t[1] for t in truth])
    ts = np.array([t[2] for t in truth])
    length = np.hypot(*(ts - tr).T)
    dr = np.hypot(r[:, None, 0] - tr[None, :, 0], r[:, None, 1] - tr[None, :, 1]) / length
    ds = np.hypot(s[:, None, 0] - ts[None, :, 0], s[:, None, 1] - ts[None, :, 1]) / length
    partial = np.array([t[0] == "partial" for t in truth])
    flag = np.array([t[3] for t in truth])
    # The rank point may sit on one digit of a two-digit rank (the "0" of a 10, paired alone with the
    # suit), about a third of the distance off the pair's centre: still that card's index, and read at
    # run time, so it is taught as that card rather than left to chance.
    near = (dr < 0.45) & (ds < 0.25) & flag & ~partial
    loose = (dr < 0.8) & (ds < 0.8) & flag
    for i in range(n):
        hits = np.flatnonzero(near[i])
        if hits.size:
            label = truth[int(hits[0])][0]
            rank[i] = RANK_TEXTS.index(label[:-1])
            suit[i] = SUIT_TEXTS.index(label[-1])
        elif loose[i].any():
            use[i] = False
    return rank, suit, use


Samples = tuple[U8, U8, npt.NDArray[np.int64], npt.NDArray[np.int64]]
"""Candidate patches as cut out at run time, for the finder (n, PATCH_H, PATCH_W, 3) and for the namer
(n, cnn.PATCH_H, cnn.PATCH_W, 3), and their rank and suit classes."""


def _collect_chunk(job: tuple[int, int, int]) -> Samples:
    """Samples from ``count`` scenes made with the seed ``(seed, chunk)``: reproducible in any process."""
    seed, chunk, count = job
    # One thread per worker process (they already run side by side): OpenCV's own threads would make
    # nothing faster and leave results open to how work was split between them.
    cv2.setNumThreads(1)
    faces, backs, deck_shapes = _decks(seed)
    shapes: dict[str, list[U8]] | None = deck_shapes
    rng = np.random.default_rng([seed, chunk])
    joined = _JOINED_CHUNKS <= chunk < _JUMBO_CHUNKS
    if _REAL_CHUNKS <= chunk < _JOINED_CHUNKS:
        # Scenes of the real deck only (chunk numbers from _REAL_CHUNKS up).
        faces, shapes = load_real_deck(), None
    elif chunk >= _JUMBO_CHUNKS:
        faces, shapes = load_jumbo_deck(), None
    typefaces = typeface_files()
    xs, qs, rs, ss = [], [], [], []
    for _ in range(count):
        img, truth = make_scene(rng, faces, backs, shapes, typefaces, joined)
        gray = cv2.cvtColor(img, cv2.COLOR_BGR2GRAY)
        cands = idx.find_candidates(np.asarray(gray, np.uint8))
        rank, suit, use = label_candidates(cands, truth)
        keep = np.flatnonzero(use)
        neg = keep[rank[keep] == NOT_INDEX]
        pos = keep[rank[keep] != NOT_INDEX]
        if neg.size > 3 * max(pos.size, 10):
            neg = rng.choice(neg, 3 * max(pos.size, 10), replace=False)
        chosen = np.concatenate([pos, neg])
        picked = [cands[i] for i in chosen]
        xs.append(idx.patches(img, picked))
        qs.append(cnn.cut(img, picked))
        rs.append(rank[chosen])
        ss.append(suit[chosen])
    return np.concatenate(xs), np.concatenate(qs), np.concatenate(rs), np.concatenate(ss)


#: Chunk numbers of the real deck's scenes and of the joined-index scenes start here, so every kind
#: of scene has its own seeds and a cached kind stays valid when another kind's count changes.
_REAL_CHUNKS = 100_000
_JOINED_CHUNKS = 200_000
_JUMBO_CHUNKS = 300_000
_DECK_CACHE: dict[int, tuple[list[CardArt], list[CardArt], dict[str, list[U8]]]] = {}


def _decks(seed: int) -> tuple[list[CardArt], list[CardArt], dict[str, list[U8]]]:
    if seed not in _DECK_CACHE:
        faces, backs = load_decks(np.random.default_rng(seed), progress=False)
        _DECK_CACHE[seed] = (faces, backs, suit_shapes(faces))
    return _DECK_CACHE[seed]


def collect(scenes: int, seed: int, workers: int = 2, progress: bool = True, first: int = 0) -> Samples:
    """Training samples from ``scenes`` scenes, in chunks of 100 spread over ``workers`` processes."""
    import multiprocessing

    jobs = [(seed, k + first, min(100, scenes - k * 100)) for k in range((scenes + 99) // 100)]
    t0 = time.monotonic()
    parts = []
    with multiprocessing.get_context("fork").Pool(workers) as pool:
        for n, part in enumerate(pool.imap(_collect_chunk, jobs)):
            parts.append(part)
            if progress:
                npos = sum(int((p[2] != NOT_INDEX).sum()) for p in parts)
                total = sum(len(p[2]) for p in parts)
                print(
                    f"  scenes {min(scenes, (n + 1) * 100)}/{scenes}: {total} samples, {npos} indices, "
                    f"{time.monotonic() - t0:.0f}s",
                    flush=True,
                )
    return (
        np.concatenate([p[0] for p in parts]),
        np.concatenate([p[1] for p in parts]),
        np.concatenate([p[2] for p in parts]),
        np.concatenate([p[3] for p in parts]),
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m companion.vision.build", description=__doc__)
    parser.add_argument("--scenes", type=int, default=10000, help="scenes of rendered and drawn decks")
    parser.add_argument("--epochs", type=int, default=14, help="passes of the finder's training")
    parser.add_argument("--namer-epochs", type=int, default=9, help="passes of the namer's training")
    parser.add_argument("--seed", type=int, default=20261123)
    parser.add_argument(
        "--flat-threes",
        type=float,
        default=FLAT_THREES["share"],
        help="share of typeface decks printing a flat-topped 3",
    )
    parser.add_argument(
        "--drawn-flat-threes",
        action=argparse.BooleanOptionalAction,
        default=FLAT_THREES["drawn"],
        help="typeface decks chosen for a flat-topped 3 whose face has none get one drawn",
    )
    parser.add_argument(
        "--barred-jacks",
        type=float,
        default=BARRED_JACKS["share"],
        help="share of typeface decks printing a bar across the top of the J's stem",
    )
    parser.add_argument(
        "--court-frames-beside",
        action=argparse.BooleanOptionalAction,
        default=COURT_FRAMES["beside"],
        help="drawn decks frame their court pictures beside the index, each deck at its own place",
    )
    parser.add_argument("--real-scenes", type=int, default=1200, help="scenes of the real deck's photos")
    parser.add_argument(
        "--joined-scenes", type=int, default=1500, help="scenes of drawn decks whose ranks touch their suits"
    )
    parser.add_argument(
        "--jumbo-scenes", type=int, default=0, help="scenes of the jumbo-index vector deck alone"
    )
    parser.add_argument(
        "--hold-out-crops", action="store_true", help="train without 13 of the real crops, to measure on them"
    )
    parser.add_argument("--workers", type=int, default=2, help="processes making scenes")
    parser.add_argument("--cache", type=Path, help="keep the samples in this .npz (reused when present)")
    parser.add_argument(
        "--out", type=Path, default=DATA, help=f"folder to write {FINDER.name} and {NAMER.name} into"
    )
    args = parser.parse_args(argv)
    if not SHARED.is_dir():
        print(f"build: {SHARED} is missing (the card data set beside the repository)", file=sys.stderr)
        return 1
    _HOLD_OUT["crops"] = args.hold_out_crops
    FLAT_THREES["share"] = args.flat_threes
    FLAT_THREES["drawn"] = args.drawn_flat_threes
    COURT_FRAMES["beside"] = args.court_frames_beside
    BARRED_JACKS["share"] = args.barred_jacks
    typeface_files()  # all there, or say which packages to install before any work starts
    parts = []
    kinds = (
        ("rendered-deck", args.scenes, 0),
        ("real-deck", args.real_scenes, _REAL_CHUNKS),
        ("joined-deck", args.joined_scenes, _JOINED_CHUNKS),
        ("jumbo-deck", args.jumbo_scenes, _JUMBO_CHUNKS),
    )
    for what, count, first in kinds:
        if count <= 0:
            continue  # --real-scenes 0: networks that have never seen the real deck, to measure on it
        cache = None if args.cache is None else args.cache.with_name(f"{args.cache.stem}-{what}.npz")
        if cache is not None and cache.exists():
            with np.load(cache) as d:
                parts.append((d["p"], d["q"], d["r"], d["s"]))
            continue
        print(f"build: {count} {what} scenes")
        part = collect(count, args.seed, args.workers, first=first)
        if cache is not None:
            np.savez(cache, p=part[0], q=part[1], r=part[2], s=part[3])
        parts.append(part)
    p = np.concatenate([part[0] for part in parts])
    q = np.concatenate([part[1] for part in parts])
    r = np.concatenate([part[2] for part in parts])
    s = np.concatenate([part[3] for part in parts])
    del parts  # the pieces, now copied: at the namer's resolution they are gigabytes
    print(f"build: training on {len(p)} samples ({int((r != NOT_INDEX).sum())} indices)")
    step = 20_000  # features a slice at a time, to keep memory flat
    x = np.concatenate([idx.patch_features(p[k : k + step]) for k in range(0, len(p), step)])
    finder = train(x, r, s, seed=args.seed, epochs=args.epochs)
    del x, p
    # The namer's inputs as float16: at its resolution, float32 inputs of every sample would not fit
    # in the memory of a small machine.
    planes = np.concatenate([cnn.inputs(q[k : k + step]).astype(np.float16) for k in range(0, len(q), step)])
    del q
    namer = cnn.train(planes, r, s, seed=args.seed, epochs=args.namer_epochs)
    args.out.mkdir(parents=True, exist_ok=True)
    for path, net in ((args.out / FINDER.name, finder), (args.out / NAMER.name, namer)):
        net.save(path)
        print(f"build: wrote {path} ({path.stat().st_size // 1024} KiB)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
