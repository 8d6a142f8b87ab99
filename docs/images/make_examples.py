#!/usr/bin/env python3
"""Make the user guide's pictures of the table: ``python3 docs/images/make_examples.py [OUT_DIR]``.

* ``table-example.jpg`` -- what the camera sees in the middle of a deal, at the frame sources' default
  1280x720 and 1.73 px per mm of table (cards 110 px wide, as in the recognition benchmark): the first
  player's three cards laid in the play (near edge), the second player's two (far edge), the starter on
  the pack, the crib face down. The card faces are
  photos of a real deck (``../shared/datasets/cards/real-crops``, MIT licence, see ``LICENSE-cards.txt``);
  the table top and the card backs are drawn here.
* ``zones.png`` -- the same picture with the zones the companion's calibration sets for an empty table
  (``companion.vision.zones``, its real code), so the guide shows exactly where each card counts.

Fixed seed; NumPy and OpenCV only (both are the companion's own dependencies).
"""

from __future__ import annotations

import sys
from pathlib import Path

import cv2
import numpy as np
import numpy.typing as npt

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
CROPS = ROOT.parent / "shared" / "datasets" / "cards" / "real-crops"
WIDTH, HEIGHT = 1280, 720
CARD_W = 110  # pixels: a 63.5 mm card at 1.73 px per mm, the scale recognition is benchmarked at
CARD_H = round(CARD_W * 352 / 228)

Image = npt.NDArray[np.uint8]

if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))


def wood(rng: np.random.Generator) -> Image:
    """A light wooden table top: long grain along x, a little noise."""
    y = np.arange(HEIGHT, dtype=np.float32)[:, None]
    x = np.arange(WIDTH, dtype=np.float32)[None, :]
    grain = np.zeros((HEIGHT, WIDTH), np.float32)
    for _ in range(6):
        freq = rng.uniform(0.02, 0.12)
        phase = rng.uniform(0, 2 * np.pi)
        wobble = rng.uniform(2, 12) * np.sin(x * rng.uniform(0.002, 0.01) + rng.uniform(0, 6))
        grain += np.sin((y + wobble) * freq + phase) * rng.uniform(3, 9)
    noise = cv2.GaussianBlur(rng.normal(0, 6, (HEIGHT, WIDTH)).astype(np.float32), (31, 3), 0)
    shade = grain + noise
    base = np.array([112, 166, 206], np.float32)  # BGR: pale oak
    table = base[None, None, :] + shade[:, :, None] * np.array([0.8, 0.9, 1.0], np.float32)
    return np.clip(table, 0, 255).astype(np.uint8)


def back() -> Image:
    """A card back: red with a white border and a lattice."""
    card = np.full((CARD_H, CARD_W, 3), 255, np.uint8)
    inner = card[6:-6, 6:-6]
    inner[:] = (40, 40, 170)
    for k in range(-CARD_H, CARD_W + CARD_H, 12):
        cv2.line(inner, (k, 0), (k + CARD_H, CARD_H), (90, 90, 220), 1, cv2.LINE_AA)
        cv2.line(inner, (k, 0), (k - CARD_H, CARD_H), (90, 90, 220), 1, cv2.LINE_AA)
    return card


def face(name: str) -> Image:
    image = cv2.imread(str(CROPS / f"{name}.jpg"), cv2.IMREAD_COLOR)
    if image is None:
        raise SystemExit(f"make_examples: cannot read {CROPS / name}.jpg (the shared card photos are needed)")
    return np.asarray(cv2.resize(image, (CARD_W, CARD_H), interpolation=cv2.INTER_AREA), dtype=np.uint8)


def lay(table: Image, card: Image, centre: tuple[float, float], angle: float) -> None:
    """Put a card on the table, turned by ``angle`` degrees about its centre, with a soft shadow."""
    h, w = card.shape[:2]
    matrix = cv2.getRotationMatrix2D((w / 2, h / 2), angle, 1.0)
    matrix[0, 2] += centre[0] - w / 2
    matrix[1, 2] += centre[1] - h / 2
    size = (table.shape[1], table.shape[0])
    mask = cv2.warpAffine(np.full((h, w), 255, np.uint8), matrix, size, flags=cv2.INTER_LINEAR)
    shadow = cv2.GaussianBlur(np.roll(mask, (4, 3), axis=(0, 1)), (0, 0), 4).astype(np.float32) / 255
    table[:] = (table.astype(np.float32) * (1 - 0.35 * shadow[:, :, None])).astype(np.uint8)
    warped = cv2.warpAffine(card, matrix, size, flags=cv2.INTER_LINEAR)
    alpha = mask.astype(np.float32)[:, :, None] / 255
    table[:] = (warped * alpha + table * (1 - alpha)).astype(np.uint8)


def scene() -> Image:
    rng = np.random.default_rng(20261123)
    table = wood(rng)
    # The deck, with the starter turned on it; the crib beside it, face down.
    for i in range(3):
        lay(table, back(), (0.32 * WIDTH + i, 0.5 * HEIGHT - i), 3.0)
    lay(table, face("Jd"), (0.32 * WIDTH + 6, 0.5 * HEIGHT - 4), -4.0)
    for i in range(4):
        lay(table, back(), (0.68 * WIDTH + 2 * i, 0.5 * HEIGHT - i), -6.0 + 2 * i)
    # The play: each player's cards in a row in front of them, each overlapping the one before.
    for i, name in enumerate(("5h", "10c", "6s")):
        lay(table, face(name), (0.38 * WIDTH + i * 62, 0.8 * HEIGHT), -3.0 + 4 * i)
    for i, name in enumerate(("Qh", "4d")):
        lay(table, face(name), (0.55 * WIDTH - i * 62, 0.2 * HEIGHT), 178.0 - 5 * i)
    return table


ZONE_WORDS = {
    "player0": "Player 1 (track 0) lays here",
    "player1": "Player 2 (track 1) lays here",
    "starter": "deck: the starter",
    "crib": "crib",
}
ZONE_TINT = {
    "player0": (230, 140, 40),
    "player1": (40, 120, 240),
    "starter": (70, 190, 70),
    "crib": (190, 70, 190),
}


def zones_picture(table: Image) -> Image:
    from companion.vision.zones import calibrate

    layout = calibrate(table, [])  # an empty table's calibration: the usual two-player layout
    ys, xs = np.mgrid[0:HEIGHT, 0:WIDTH].astype(np.float32)
    anchors = layout.anchors
    distance = np.stack([(xs - ax) ** 2 + (ys - ay) ** 2 for _, (ax, ay) in anchors])
    nearest = distance.argmin(axis=0)
    tint = np.zeros_like(table)
    for index, (name, _) in enumerate(anchors):
        tint[nearest == index] = ZONE_TINT.get(name, (128, 128, 128))
    out = cv2.addWeighted(table, 0.7, tint, 0.3, 0)
    edges = cv2.Canny((nearest * 60).astype(np.uint8), 10, 30)
    out[edges > 0] = (255, 255, 255)
    for name, (ax, ay) in anchors:
        # Each zone is named at its anchor, as the code has it (a quick check against a real frame).
        assert layout.zone_at((ax, ay)) == name
        text = ZONE_WORDS.get(name, name)
        (tw, th), _ = cv2.getTextSize(text, cv2.FONT_HERSHEY_SIMPLEX, 0.8, 2)
        if name.startswith("player"):  # between the row of cards and the table's edge
            org = (int(ax - tw / 2), int(HEIGHT - 14 if ay > HEIGHT / 2 else th + 14))
        else:  # under the pile
            org = (int(ax - tw / 2), int(ay + 0.75 * CARD_H))
        cv2.rectangle(out, (org[0] - 6, org[1] - th - 8), (org[0] + tw + 6, org[1] + 8), (255, 255, 255), -1)
        cv2.putText(out, text, org, cv2.FONT_HERSHEY_SIMPLEX, 0.8, (30, 30, 30), 2, cv2.LINE_AA)
    return np.asarray(out, dtype=np.uint8)


def main(argv: list[str]) -> int:
    out = Path(argv[1]) if len(argv) > 1 else HERE
    out.mkdir(parents=True, exist_ok=True)
    table = scene()
    cv2.imwrite(str(out / "table-example.jpg"), table, [cv2.IMWRITE_JPEG_QUALITY, 92])
    cv2.imwrite(str(out / "zones.png"), cv2.resize(zones_picture(table), (WIDTH // 2, HEIGHT // 2)))
    print(f"make_examples: wrote table-example.jpg and zones.png to {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
