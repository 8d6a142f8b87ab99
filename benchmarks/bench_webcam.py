"""Single cards under a webcam: ``.venv/bin/python benchmarks/bench_webcam.py [--passes 2]``.

One of the held-out checks is single cards under a webcam, read with ``crib detect``. A webcam is not
a phone camera: small frames (1280x720 or 640x480), a soft lens, sensor noise in dim light, strong JPEG
compression, a white balance that drifts warm or cool, a darker rim, a lamp's glare on the card. This
benchmark lays each card of two decks -- the photos of a real deck in
../shared/datasets/cards/real-crops and the shipped demo deck -- alone on a table (light or dark wood,
green baize, grey cloth) at a size a webcam 40-100 cm up sees, at a turn of its own, puts the frame
through such a camera, and reads it with :meth:`Recogniser.detect` as ``crib detect`` does.

It prints, per deck and per camera trouble, the cards named right, the cards named wrong (any reported
name that is not the card, "back" included) and the cards not named at all, and lists every miss and
misreading with what the frame went through, so a weakness shows where it lies. Each pass draws every
condition afresh from its own seed; the figures are reproducible.
"""

from __future__ import annotations

import argparse
import json
import platform
import statistics
import sys
import time
from collections import Counter
from dataclasses import dataclass, replace
from pathlib import Path

import _checkout  # noqa: F401  (tools, from the checkout)
import cv2
import numpy as np

from companion.app.deck import load_deck
from companion.cards import full_deck
from companion.vision.recognise import Recogniser
from companion.vision.types import UNKNOWN, Frame
from tools.synthesis import (
    Placement,
    compose,
    dim,
    gaussian_blur,
    glare_spot,
    jpeg,
    sensor_noise,
    table_top,
    tilted,
    vignette,
)

CROPS = Path(__file__).resolve().parents[2] / "shared" / "datasets" / "cards" / "real-crops"


@dataclass(frozen=True, slots=True)
class Camera:
    """What one frame goes through: its size, the card's width in it, and the camera's troubles."""

    size: tuple[int, int]
    card_width: float
    table: str
    blur: float  # Gaussian sigma of the soft lens, pixels
    noise: float  # sigma of the sensor noise, grey levels
    quality: int  # JPEG quality
    gains: tuple[float, float, float]  # white balance, per channel (B, G, R)
    light: float  # exposure: 1 is as photographed
    glare: bool  # a lamp's bright spot on the card
    tilt: tuple[int, float] = (0, 0.0)  # the edge of the frame farthest away (0-3), and how much shorter

    def troubles(self) -> list[str]:
        """The named troubles this frame has, to tally misses by."""
        out = []
        if self.size[0] < 1000:
            out.append("640x480")
        if self.card_width < 100:
            out.append("small card")
        if self.blur > 1.0:
            out.append("soft")
        if self.noise > 5:
            out.append("noisy")
        if self.quality < 65:
            out.append("jpeg<65")
        if max(self.gains) / min(self.gains) > 1.2:
            out.append("colour cast")
        if self.light < 0.7:
            out.append("dim")
        if self.glare:
            out.append("glare")
        if self.tilt[1] > 0.1:
            out.append("tilted")
        if self.card_width > 250:
            out.append("near")
        return out or ["clean"]


def draw_camera(rng: np.random.Generator, near: bool = False, tilt: bool = False) -> Camera:
    """One webcam's frame, drawn from ``rng``. ``near``: the webcam 20-40 cm over the card; ``tilt``:
    looking down at a slant rather than straight down. Either draws after all else, so that the frames
    drawn without them stay as they were."""
    small = rng.random() < 0.35
    size = (640, 480) if small else (1280, 720)
    # A 1280x720 webcam 40-100 cm up sees a card 70-190 pixels wide; a 640x480 one about 60-110.
    width = float(rng.uniform(70, 110) if small else rng.uniform(85, 190))
    camera = Camera(
        size=size,
        card_width=width,
        table=str(rng.choice(["light wood", "dark wood", "baize", "grey cloth"])),
        blur=float(rng.uniform(0.0, 1.5)),
        noise=float(rng.uniform(1.0, 8.0)),
        quality=int(rng.integers(50, 92)),
        gains=(float(rng.uniform(0.8, 1.15)), 1.0, float(rng.uniform(0.85, 1.2))),
        light=float(rng.uniform(0.55, 1.15)),
        glare=bool(rng.random() < 0.25),
    )
    if near:
        # 20-40 cm up: the card a third to two thirds of the frame's height long.
        short = min(size)
        camera = replace(camera, card_width=float(rng.uniform(0.25, 0.48) * short))
    if tilt:
        # Up to about 17 degrees off straight down through a 40-degree lens: the far edge of the frame
        # up to a fifth shorter than the near one.
        camera = replace(camera, tilt=(int(rng.integers(0, 4)), float(rng.uniform(0.0, 0.2))))
    return camera


def film(frame: Frame, camera: Camera, centre: tuple[float, float], seed: int) -> Frame:
    """The frame as this webcam gives it: light, glare, rim, colour, softness, noise, then JPEG."""
    rng = np.random.default_rng(seed)
    h, w = frame.shape[:2]
    if camera.tilt[1] > 0:
        frame = tilted(frame, *camera.tilt)
    img = dim(frame.astype(np.float32) / 255.0, camera.light)
    if camera.glare:
        x = int(centre[0] + rng.uniform(-0.3, 0.3) * camera.card_width)
        y = int(centre[1] + rng.uniform(-0.4, 0.4) * camera.card_width)
        radius = max(4, int(camera.card_width * 0.25))
        img = img + glare_spot(h, w, (x, y), radius, camera.card_width * 0.15)[..., None] * 0.6
    img = vignette(img)
    img = img * np.array(camera.gains, np.float32)[None, None, :]
    if camera.blur > 0.2:
        img = gaussian_blur(img, camera.blur)
    img = sensor_noise(img * 255.0, camera.noise, rng)
    return jpeg(np.clip(img, 0, 255).astype(np.uint8), camera.quality)


def faces(deck: str) -> dict[str, Frame]:
    names = [str(c) for c in full_deck()]
    if deck == "demo":
        demo = load_deck()
        return {n: demo.face(n) for n in names}
    out = {}
    for n in names:
        read = cv2.imread(str(CROPS / f"{n}.jpg"))
        if read is None:
            raise SystemExit(f"bench_webcam: {CROPS} is missing (the card data set beside the repository)")
        out[n] = np.asarray(read, np.uint8)
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--passes", type=int, default=2, help="times every card of each deck is filmed")
    parser.add_argument("--model", type=Path, help="a folder of networks to read with, not the shipped ones")
    parser.add_argument(
        "--no-enlarge",
        action="store_true",
        help="small photos not read enlarged as well, to measure what that adds",
    )
    parser.add_argument("--near", action="store_true", help="the webcam 20-40 cm over the card, not 40-100")
    parser.add_argument(
        "--tilt", action="store_true", help="the webcam looking down at a slant (up to ~17 degrees)"
    )
    parser.add_argument("--json", action="store_true", help="end with one line of JSON holding the figures")
    args = parser.parse_args(argv)
    cv2.setNumThreads(1)
    if args.model is not None and not args.model.is_dir():
        print(f"bench_webcam: no folder of networks at {args.model}", file=sys.stderr)
        return 1
    recogniser = Recogniser(args.model, enlarge=not args.no_enlarge)
    tally: dict[str, Counter[str]] = {}
    times: list[float] = []
    shown = 0
    for deck in ("real", "demo"):
        pictures = faces(deck)
        for run in range(args.passes):
            for k, (name, picture) in enumerate(pictures.items()):
                seed = (run * 1000 + k) * 2 + (deck == "demo")
                rng = np.random.default_rng(seed)
                camera = draw_camera(rng, args.near, args.tilt)
                w, h = camera.size
                centre = (w / 2 + rng.uniform(-0.2, 0.2) * w, h / 2 + rng.uniform(-0.15, 0.15) * h)
                place = Placement(centre[0], centre[1], float(rng.uniform(0, 360)), camera.card_width)
                table = table_top(camera.table, w, h, seed)
                frame = film(compose(table, [picture], [place]), camera, centre, seed)
                start = time.perf_counter()
                sightings = recogniser.detect(frame)
                times.append((time.perf_counter() - start) * 1000)
                # A face-up card reported as a back is as wrong as a wrong name.
                named = {s.label for s in sightings if s.label != UNKNOWN}
                wrong = sorted(named - {name})
                outcome = "right" if name in named else "missed"
                for key in (f"deck {deck}", *(f"  {t}" for t in camera.troubles())):
                    counts = tally.setdefault(key, Counter())
                    counts["frames"] += 1
                    counts[outcome] += 1
                    counts["wrong"] += bool(wrong)
                if outcome == "missed" or wrong:
                    shown += 1
                    print(
                        f"{deck} {name:>3}: {outcome}{', also read ' + ' '.join(wrong) if wrong else ''}"
                        f" ({camera.size[0]}x{camera.size[1]}, card {camera.card_width:.0f} px,"
                        f" {camera.table},"
                        f" blur {camera.blur:.1f}, noise {camera.noise:.0f}, jpeg {camera.quality},"
                        f" light {camera.light:.2f}{', glare' if camera.glare else ''})",
                        flush=True,
                    )
    print(f"{shown} frames with a miss or a wrong name listed above")
    for key in sorted(tally, key=lambda k: (k.strip() != k, k)):
        c = tally[key]
        print(
            f"{key:<16} {c['right']:4d}/{c['frames']:<4d} right  {c['missed']:3d} missed  "
            f"{c['wrong']:3d} with a wrong name"
        )
    total = sum(tally[k]["frames"] for k in tally if k.startswith("deck"))
    right = sum(tally[k]["right"] for k in tally if k.startswith("deck"))
    misread = sum(tally[k]["wrong"] for k in tally if k.startswith("deck"))
    print(
        f"single cards under a webcam: {right}/{total} = {right / total:.3f} named right, "
        f"{misread} frames with a wrong name; small photos {'not ' if args.no_enlarge else ''}read enlarged; "
        f"median {statistics.median(times):.0f} ms a frame "
        f"({platform.machine()}, one OpenCV thread)"
    )
    if args.json:
        figures = {
            "frames named right": f"{right} of {total}",
            "frames with a wrong name": misread,
            "ms a frame, median": round(statistics.median(times)),
            "webcam": "near" if args.near else "tilted" if args.tilt else "40-100 cm, straight down",
            "passes": args.passes,
        }
        print(json.dumps(figures))
    return 0


if __name__ == "__main__":
    sys.exit(main())
