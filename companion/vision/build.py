"""Build the shipped card-index network from the public-domain vector decks.

Run ``python -m companion.vision.build``.

Rerunnable and deterministic (fixed seeds). Needs the ``train`` extra (``cairosvg``, over Debian's
libcairo2) to rasterise SVG; running the companion needs neither.

What it does, and why:

1. Renders every card of the two vector decks in ../shared/datasets/cards/svg, plus extra decks drawn
   here from SVG text in several typefaces (sans, serif, mono; bold, condensed) so that the network
   learns "a rank over a suit" rather than two particular decks. Pub decks vary.
2. Finds each card's index marks on the clean render (so the labels come for free).
3. Composites labelled scenes: synthetic light and dark wood, cloth, cork, patterned tops; random
   rotation, scale (a webcam 50-100 cm up to a phone photo), perspective, overlapping pairs, fanned rows,
   face-down cards, hands and chips, shadows, glare, colour casts, blur, noise and JPEG loss.
4. Runs the very candidate finder used at run time on each scene and labels each candidate by the
   index it lies on (or "not an index"), then trains the two-headed network on those features.

The real photos in ../shared are never used here: they stay out so that measuring on them is honest.
"""

from __future__ import annotations

import argparse
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

from companion.vision import index as idx
from companion.vision.mlp import NOT_INDEX, RANK_TEXTS, SUIT_TEXTS, train

SHARED = Path(__file__).resolve().parents[3] / "shared" / "datasets" / "cards"
DATA = Path(__file__).resolve().parent / "data"
MODEL = DATA / "index_net.npz"
CARD_W = 240

U8 = npt.NDArray[np.uint8]

_JUMBO_SUIT = {"c": "club", "d": "diamond", "h": "heart", "s": "spade"}
_JUMBO_RANK = {"A": "Ace", "J": "Jack", "Q": "Queen", "K": "King"}
_SUIT_CHAR = {"c": "\u2663", "d": "\u2666", "h": "\u2665", "s": "\u2660"}


@dataclass
class CardArt:
    """A rendered card face (BGRA) with its label and its index marks in card pixels."""

    image: U8
    label: str | None  # None for a back
    marks: list[tuple[tuple[float, float], tuple[float, float], tuple[float, float, float, float]]]
    """(rank centre, suit centre, box around both) for each index on the face."""


def _rasterise(svg: bytes | str, width: int) -> U8:
    import cairosvg  # type: ignore[import-untyped]  # the train extra; not needed to run the companion

    kw: dict[str, Any] = {"output_width": width}
    png = cairosvg.svg2png(url=svg, **kw) if isinstance(svg, str) else cairosvg.svg2png(bytestring=svg, **kw)
    img = np.asarray(cv2.imdecode(np.frombuffer(png, np.uint8), cv2.IMREAD_UNCHANGED), np.uint8)
    if img.shape[2] == 3:
        img = np.dstack([img, np.full(img.shape[:2], 255, np.uint8)])
    return img


def _find_marks(
    img: U8,
) -> list[tuple[tuple[float, float], tuple[float, float], tuple[float, float, float, float]]]:
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
    region = gray[: int(h * 0.33), : int(w * 0.26)]
    ink = (region < 170).astype(np.uint8)
    count, _, stats, _ = cv2.connectedComponentsWithStats(ink, connectivity=8)
    blobs = [stats[i] for i in range(1, count) if stats[i][cv2.CC_STAT_AREA] > (w / 120) ** 2]
    if len(blobs) < 2:
        raise RuntimeError("index marks not found on a render")
    blobs.sort(key=lambda s: s[cv2.CC_STAT_TOP])
    top = blobs[0]
    rank = [b for b in blobs if b[cv2.CC_STAT_TOP] < top[cv2.CC_STAT_TOP] + top[cv2.CC_STAT_HEIGHT] * 0.5]
    rest = [b for b in blobs if not any(b is r for r in rank)]
    if not rest:
        raise RuntimeError("suit mark not found on a render")
    ry = top[cv2.CC_STAT_TOP] + top[cv2.CC_STAT_HEIGHT] / 2
    rx = top[cv2.CC_STAT_LEFT] + top[cv2.CC_STAT_WIDTH] / 2
    below = [b for b in rest if b[cv2.CC_STAT_TOP] + b[cv2.CC_STAT_HEIGHT] / 2 > ry]
    if not below:
        raise RuntimeError("suit mark not found on a render")
    suit = min(below, key=lambda b: np.hypot(b[0] + b[2] / 2 - rx, b[1] + b[3] / 2 - ry))
    x0 = min(b[0] for b in rank)
    y0 = min(b[1] for b in rank)
    x1 = max(b[0] + b[2] for b in rank)
    y1 = max(b[1] + b[3] for b in rank)
    rc = ((x0 + x1) / 2, (y0 + y1) / 2)
    sc = (suit[0] + suit[2] / 2, suit[1] + suit[3] / 2)
    box = (float(min(x0, suit[0])), float(y0), float(max(x1, suit[0] + suit[2])), float(suit[1] + suit[3]))
    first = (rc, sc, box)
    second = (
        (w - rc[0], h - rc[1]),
        (w - sc[0], h - sc[1]),
        (w - box[2], h - box[3], w - box[0], h - box[1]),
    )
    return [first, second]


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


def load_decks(rng: np.random.Generator, progress: bool = True) -> tuple[list[CardArt], list[CardArt]]:
    """Every rendered face (all decks) and every back."""
    faces: list[CardArt] = []
    for rank in RANK_TEXTS:
        for suit in SUIT_TEXTS:
            label = f"{rank}{suit}"
            byron = SHARED / "svg" / "byron-knoll" / f"{rank}{suit.upper()}.svg"
            jumbo_name = f"{_JUMBO_SUIT[suit]}{_JUMBO_RANK.get(rank, rank)}.svg"
            jumbo = SHARED / "svg" / "saulspatz-jumbo" / jumbo_name
            for path in (byron, jumbo):
                img = _rasterise(str(path), CARD_W)
                try:
                    faces.append(CardArt(img, label, _find_marks(img)))
                except RuntimeError:
                    # A few court cards join their index to the picture frame: leave them out.
                    continue
            for style in _FONT_STYLES:
                paper = "#ffffff" if rng.random() < 0.6 else "#f4f1e6"
                img = _rasterise(_font_deck_svg(rank, suit, style | {"paper": paper}).encode(), CARD_W)
                faces.append(CardArt(img, label, _find_marks(img)))
        if progress:
            print(f"  rendered rank {rank}", flush=True)
    return faces, _backs(rng)


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


def make_scene(
    rng: np.random.Generator, faces: list[CardArt], backs: list[CardArt]
) -> tuple[U8, list[tuple[str, npt.NDArray[np.float64], npt.NDArray[np.float64], bool]]]:
    """A labelled scene: the image and, per index, (label, rank centre, suit centre, visible)."""
    h, w = (720, 960) if rng.random() < 0.7 else (600, 800)
    card_w = float(np.exp(rng.uniform(np.log(52), np.log(230))))
    scene: Any = _background(rng, h, w)
    ids = np.full((h, w), -1, np.int32)
    n = int(rng.integers(4, 16))
    deck_bias = rng.integers(0, len(faces))
    placed: list[Placed] = []
    for k, (cx, cy, ang) in enumerate(_placements(rng, h, w, card_w, n)):
        if rng.random() < 0.12:
            art = backs[int(rng.integers(0, len(backs)))]
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
            # Visible when the index box is (almost) all this card's own pixels.
            bx = np.linspace(box[0], box[2], 5)
            by = np.linspace(box[1], box[3], 6)
            grid = np.array([(a, b) for a in bx for b in by], np.float64) @ p.matrix[:, :2].T + p.matrix[:, 2]
            gi = np.clip(grid.round().astype(int), 0, [w - 1, h - 1])
            inside = ((grid[:, 0] >= 0) & (grid[:, 0] < w) & (grid[:, 1] >= 0) & (grid[:, 1] < h)).mean()
            own = (ids[gi[:, 1], gi[:, 0]] == p.ident).mean() if inside == 1.0 else 0.0
            warped = cv2.perspectiveTransform(scene_pts[None].astype(np.float32), persp)[0].astype(np.float64)
            truth.append((p.art.label, warped[0], warped[1], bool(own >= 0.97)))
            truth.append(("partial", warped[0], warped[1], bool(own < 0.97 and own > 0.3)))
    return img, truth


def label_candidates(
    cands: list[idx.Candidate],
    truth: list[tuple[str, npt.NDArray[np.float64], npt.NDArray[np.float64], bool]],
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64], npt.NDArray[np.bool_]]:
    """Rank class, suit class and a use-for-training flag for each candidate."""
    rank = np.full(len(cands), NOT_INDEX, np.int64)
    suit = np.zeros(len(cands), np.int64)
    use = np.ones(len(cands), bool)
    for n, c in enumerate(cands):
        r = np.array(c.rank)
        s = np.array(c.suit)
        for label, tr, ts, flag in truth:
            length = float(np.hypot(*(ts - tr)))
            near = np.hypot(*(r - tr)) < 0.3 * length and np.hypot(*(s - ts)) < 0.3 * length
            loose = np.hypot(*(r - tr)) < 0.8 * length and np.hypot(*(s - ts)) < 0.8 * length
            if label == "partial":
                if flag and loose:
                    use[n] = False
                continue
            if near and flag:
                rank[n] = RANK_TEXTS.index(label[:-1])
                suit[n] = SUIT_TEXTS.index(label[-1])
                break
            if loose and flag:
                use[n] = False
    return rank, suit, use


def collect(
    scenes: int, seed: int, progress: bool = True
) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    rng = np.random.default_rng(seed)
    faces, backs = load_decks(rng, progress)
    xs, rs, ss = [], [], []
    t0 = time.monotonic()
    for k in range(scenes):
        img, truth = make_scene(rng, faces, backs)
        gray = cv2.cvtColor(img, cv2.COLOR_BGR2GRAY)
        cands = idx.find_candidates(np.asarray(gray, np.uint8))
        rank, suit, use = label_candidates(cands, truth)
        keep = np.flatnonzero(use)
        neg = keep[rank[keep] == NOT_INDEX]
        pos = keep[rank[keep] != NOT_INDEX]
        if neg.size > 6 * max(pos.size, 10):
            neg = rng.choice(neg, 6 * max(pos.size, 10), replace=False)
        chosen = np.concatenate([pos, neg])
        feats = idx.features(img, [cands[i] for i in chosen])
        xs.append(feats)
        rs.append(rank[chosen])
        ss.append(suit[chosen])
        if progress and (k + 1) % 100 == 0:
            npos = sum(int((r != NOT_INDEX).sum()) for r in rs)
            print(
                f"  scenes {k + 1}/{scenes}: {sum(len(r) for r in rs)} samples, {npos} indices, "
                f"{time.monotonic() - t0:.0f}s",
                flush=True,
            )
    return np.concatenate(xs), np.concatenate(rs), np.concatenate(ss)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m companion.vision.build", description=__doc__)
    parser.add_argument("--scenes", type=int, default=2500)
    parser.add_argument("--epochs", type=int, default=14)
    parser.add_argument("--seed", type=int, default=20261123)
    parser.add_argument("--cache", type=Path, help="keep the samples in this .npz (reused when present)")
    parser.add_argument("--out", type=Path, default=MODEL)
    args = parser.parse_args(argv)
    if not SHARED.is_dir():
        print(f"build: {SHARED} is missing (the card data set beside the repository)", file=sys.stderr)
        return 1
    if args.cache is not None and args.cache.exists():
        with np.load(args.cache) as d:
            x, r, s = d["x"], d["r"], d["s"]
    else:
        print(f"build: rendering decks and {args.scenes} scenes")
        x, r, s = collect(args.scenes, args.seed)
        if args.cache is not None:
            np.savez(args.cache, x=x, r=r, s=s)
    print(f"build: training on {len(x)} samples ({int((r != NOT_INDEX).sum())} indices)")
    net = train(x.astype(np.float32), r, s, seed=args.seed, epochs=args.epochs)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    net.save(args.out)
    print(f"build: wrote {args.out} ({args.out.stat().st_size // 1024} KiB)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
