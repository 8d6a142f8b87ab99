"""Card recognition speed: ``.venv/bin/python benchmarks/bench_vision.py [--runs 5] [--frames 40]``.

Prints two figures, each the median of several runs, on one core (``cv2.setNumThreads(1)``):

* milliseconds to read one 1280x720 frame with six cards visible (target: under 30 ms here, since the
  Pi 4 is roughly 3-4 times slower and must keep up with its camera);
* the time from a card landing on the table to its ``CardAppeared`` event at 30 frames per second
  (target: under 300 ms), counting the tracker's debouncing plus the time to read the frame.

The frames are photos of a real deck (../shared/datasets/cards/real-crops) laid on a synthetic light
wooden table.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import sys
import time
from pathlib import Path

import cv2
import numpy as np

from companion.vision.recognise import Recogniser
from companion.vision.scene import Placement, compose, wood
from companion.vision.tracker import CardAppeared, Tracker

CROPS = Path(__file__).resolve().parents[1].parent / "shared" / "datasets" / "cards" / "real-crops"
SIX = ("5h", "Qs", "10d", "Ac", "Kh", "7c")


def six_card_frame(seed: int = 1) -> np.ndarray:
    cards = [cv2.imread(str(CROPS / f"{name}.jpg")) for name in SIX]
    places = [Placement(200 + i * 170, 360 + (i % 2) * 60, 15 * i - 30, 110) for i in range(6)]
    return compose(wood(1280, 720, seed), cards, places)


def time_frames(recogniser: Recogniser, frame: np.ndarray, frames: int) -> float:
    """Median milliseconds per frame over ``frames`` reads."""
    times = []
    for _ in range(frames):
        start = time.perf_counter()
        recogniser.detect(frame)
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def landing_latency(recogniser: Recogniser, fps: float = 30.0) -> float:
    """Milliseconds from the first frame showing a newly laid card to its event being returned."""
    table = wood(1280, 720, 3)
    cards = [cv2.imread(str(CROPS / f"{name}.jpg")) for name in SIX[:5]]
    places = [Placement(200 + i * 170, 360 + (i % 2) * 60, 15 * i - 30, 110) for i in range(5)]
    before = compose(table, cards[:4], places[:4])
    after = compose(table, cards, places)
    tracker = Tracker(frame_size=(1280, 720))
    landed_at = None
    for n in range(60):
        t = n / fps
        frame = before if n < 10 else after
        if n == 10:
            landed_at = t
        start = time.perf_counter()
        events = tracker.update(recogniser.detect(frame), t)
        spent = time.perf_counter() - start
        for event in events:
            if isinstance(event, CardAppeared) and str(event.card) == SIX[4] and landed_at is not None:
                return (t - landed_at + spent) * 1000
    raise RuntimeError(f"the laid card {SIX[4]} was never reported")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--frames", type=int, default=40)
    parser.add_argument(
        "--no-pips",
        action="store_true",
        help="name cards by their indices alone, to measure what counting costs",
    )
    parser.add_argument("--json", action="store_true", help="end with one line of JSON holding the figures")
    args = parser.parse_args()
    if not CROPS.is_dir():
        print(f"bench_vision: {CROPS} is missing", file=sys.stderr)
        return 1
    cv2.setNumThreads(1)
    recogniser = Recogniser(filmed=True, pips=not args.no_pips)
    frame = six_card_frame()
    seen = sorted(s.label for s in recogniser.detect(frame) if s.card is not None)
    print(
        f"machine: {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}, "
        f"OpenCV {cv2.__version__}, one OpenCV thread, pips {'not counted' if args.no_pips else 'counted'}"
    )
    print(f"frame 1280x720, six cards laid; read as: {' '.join(seen)}")
    runs = [time_frames(recogniser, frame, args.frames) for _ in range(args.runs)]
    print(
        f"ms per frame: median {statistics.median(runs):.1f} over {args.runs} runs of {args.frames} frames "
        f"(runs: {', '.join(f'{r:.1f}' for r in runs)}); target < 30"
    )
    latencies = [landing_latency(recogniser) for _ in range(args.runs)]
    print(
        f"card landing -> event at 30 fps: median {statistics.median(latencies):.0f} ms "
        f"over {args.runs} runs "
        f"(runs: {', '.join(f'{v:.0f}' for v in latencies)}); target < 300"
    )
    if args.json:
        figures = {
            "ms per 1280x720 frame, median": round(statistics.median(runs), 1),
            "card landing to its event at 30 fps, ms, median": round(statistics.median(latencies)),
            "cards read of six laid": len(seen),
            "pips counted": not args.no_pips,
            "runs x frames": f"{args.runs} x {args.frames}",
        }
        print(json.dumps(figures))
    return 0


if __name__ == "__main__":
    sys.exit(main())
