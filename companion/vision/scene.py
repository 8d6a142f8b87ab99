"""Laying card pictures onto a table picture: scenes with known answers for tests, benchmarks and demos.

Photos of real cards (such as ../shared/datasets/cards/real-crops) are placed at chosen positions and
angles on a synthetic table top, so a check knows exactly which card lies where without hand labelling.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np

from companion.vision.types import Frame

__all__ = ["Placement", "compose", "wood"]


@dataclass(frozen=True, slots=True)
class Placement:
    """A card picture's centre (pixels), turn (degrees, anticlockwise) and width (pixels) on the table."""

    x: float
    y: float
    angle: float
    width: float


def wood(width: int, height: int, seed: int = 0, light: bool = True) -> Frame:
    """A wooden table top: grain lines bent by slow noise, light (pale oak) or dark (stained)."""
    rng = np.random.default_rng(seed)
    slow = cv2.resize(
        rng.standard_normal((8, 8)).astype(np.float32), (width, height), interpolation=cv2.INTER_CUBIC
    )
    fine = cv2.resize(
        rng.standard_normal((height, max(2, width // 30))).astype(np.float32),
        (width, height),
        interpolation=cv2.INTER_LINEAR,
    )
    y = np.arange(height, dtype=np.float32)[:, None]
    grain = np.sin((y + slow * 25.0) / 4.0) * 0.6 + fine * 0.5
    base = np.array([150.0, 190.0, 222.0]) if light else np.array([40.0, 65.0, 100.0])
    img = base[None, None, :] + grain[..., None] * np.array([10.0, 12.0, 14.0])
    out: Frame = np.clip(img, 0, 255).astype(np.uint8)
    return out


def compose(table: Frame, cards: Sequence[Frame], placements: Sequence[Placement]) -> Frame:
    """``table`` with each card picture laid in order (later cards on top), with a soft shadow."""
    out = table.astype(np.float32)
    h, w = table.shape[:2]
    for card, p in zip(cards, placements, strict=True):
        ch, cw = card.shape[:2]
        scale = p.width / cw
        m = cv2.getRotationMatrix2D((cw / 2, ch / 2), p.angle, scale)
        m[:, 2] += np.array([p.x - cw / 2, p.y - ch / 2])
        mask = np.zeros((ch, cw), np.float32)
        radius = max(2, int(cw * 0.05))
        cv2.rectangle(mask, (radius, 0), (cw - radius, ch), 1.0, -1)
        cv2.rectangle(mask, (0, radius), (cw, ch - radius), 1.0, -1)
        for cx, cy in (
            (radius, radius),
            (cw - radius, radius),
            (radius, ch - radius),
            (cw - radius, ch - radius),
        ):
            cv2.circle(mask, (cx, cy), radius, 1.0, -1)
        alpha = np.asarray(cv2.warpAffine(mask, m, (w, h), flags=cv2.INTER_LINEAR), np.float32)
        shadow = cv2.GaussianBlur(np.roll(alpha, (3, 3), axis=(0, 1)), (0, 0), 3.0)
        out *= (1.0 - 0.3 * shadow)[..., None]
        face = cv2.warpAffine(card, m, (w, h), flags=cv2.INTER_LINEAR).astype(np.float32)
        out = out * (1.0 - alpha[..., None]) + face * alpha[..., None]
    return np.clip(out, 0, 255).astype(np.uint8)
