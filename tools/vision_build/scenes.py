"""Labelled training scenes: cards of the rendered, drawn and photographed decks laid on a table top in
singles, overlapping pairs and fanned rows, with chips, hands, shadows, glare, colour casts, blur,
noise, a camera not quite overhead and JPEG loss; and, for every index, where it ended up and whether
it can be seen.

The table tops and the camera's troubles are those of :mod:`tools.synthesis`, shared with the
benchmarks and the tests. The order in which numbers are drawn from the scene's generator is part of
what the shipped networks were built from: change it and a rebuild no longer reproduces them.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

from companion.vision.mlp import RANK_TEXTS, SUIT_TEXTS
from tools.synthesis import gaussian_blur, jpeg, noise_field, random_table, warp
from tools.vision_build.decks import U8, CardArt
from tools.vision_build.drawing import draw_card, random_style
from tools.vision_build.options import DEFAULT, Options

Truth = list[tuple[str, npt.NDArray[np.float64], npt.NDArray[np.float64], bool]]
"""Per index of a scene: (label or "partial", rank centre, suit centre, visible)."""


@dataclass(frozen=True)
class Placed:
    """A card laid in a scene: its face, where it lies and its number in the scene's map of which card
    shows at each pixel."""

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
    options: Options = DEFAULT,
) -> tuple[U8, Truth]:
    """A labelled scene: the image and, per index, (label, rank centre, suit centre, visible).

    With ``joined`` (and ``shapes``), the scene's cards all come from one drawn deck whose ranks touch
    their suit marks.
    """
    h, w = (720, 960) if rng.random() < 0.7 else (600, 800)
    card_w = float(np.exp(rng.uniform(np.log(52), np.log(230))))
    scene: Any = random_table(rng, h, w)
    ids = np.full((h, w), -1, np.int32)
    n = int(rng.integers(4, 16))
    deck_bias = rng.integers(0, len(faces))
    drawn = shapes is not None and (joined or rng.random() < _DRAWN_SHARE)
    style = random_style(rng, typefaces, joined, options) if drawn else None
    placed: list[Placed] = []
    for k, (cx, cy, ang) in enumerate(_placements(rng, h, w, card_w, n)):
        if rng.random() < 0.12:
            art = backs[int(rng.integers(0, len(backs)))]
        elif style is not None and shapes is not None:
            label = RANK_TEXTS[int(rng.integers(0, 13))] + SUIT_TEXTS[int(rng.integers(0, 4))]
            try:
                art = draw_card(rng, label, style, shapes)
            except RuntimeError:
                style = random_style(rng, typefaces, joined, options)
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
        tex = skin[None, None, :] + noise_field(rng, h, w, 8.0)[..., None] * 10
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
    scene += noise_field(rng, h, w, 1.0)[..., None] * rng.uniform(0, 6)
    img: Any = np.clip(scene, 0, 255).astype(np.uint8)
    if rng.random() < 0.5:
        img = gaussian_blur(img, rng.uniform(0.3, 1.2))
    # Mild perspective (a camera not quite overhead).
    src = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32)
    jit = (rng.uniform(-0.06, 0.06, (4, 2)) * [w, h]).astype(np.float32)
    persp = cv2.getPerspectiveTransform(src, src + jit)
    img = jpeg(warp(img, persp), int(rng.integers(55, 95)))
    truth: Truth = []
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
