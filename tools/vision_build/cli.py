"""The build's command line: ``python -m tools.vision_build [options]`` from the checkout."""

from __future__ import annotations

import argparse
import importlib.util
import sys
from pathlib import Path

import numpy as np

from companion.vision.cnn import Namer
from companion.vision.mlp import NOT_INDEX
from companion.vision.recognise import NAMER_GRAPH
from tools import vision_build
from tools.vision_build.datasets import JOINED_CHUNKS, JUMBO_CHUNKS, REAL_CHUNKS, Samples, collect
from tools.vision_build.options import DATA, DEFAULT, FINDER, NAMER, SHARED, Options
from tools.vision_build.training import namer_inputs, train_finder, train_namer
from tools.vision_build.typefaces import typeface_files


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.vision_build", description=vision_build.__doc__)
    parser.add_argument("--scenes", type=int, default=10000, help="scenes of rendered and drawn decks")
    parser.add_argument("--epochs", type=int, default=14, help="passes of the finder's training")
    parser.add_argument("--namer-epochs", type=int, default=9, help="passes of the namer's training")
    parser.add_argument("--seed", type=int, default=20261123)
    parser.add_argument(
        "--flat-threes",
        type=float,
        default=DEFAULT.flat_threes,
        help="share of typeface decks printing a flat-topped 3",
    )
    parser.add_argument(
        "--drawn-flat-threes",
        action=argparse.BooleanOptionalAction,
        default=DEFAULT.drawn_flat_threes,
        help="typeface decks chosen for a flat-topped 3 whose face has none get one drawn",
    )
    parser.add_argument(
        "--barred-jacks",
        type=float,
        default=DEFAULT.barred_jacks,
        help="share of typeface decks printing a bar across the top of the J's stem",
    )
    parser.add_argument(
        "--court-frames-beside",
        action=argparse.BooleanOptionalAction,
        default=DEFAULT.court_frames_beside,
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
    if max(args.scenes, args.real_scenes, args.joined_scenes, args.jumbo_scenes) <= 0:
        print(
            "build: no scenes asked for (--scenes, --real-scenes, --joined-scenes, --jumbo-scenes)",
            file=sys.stderr,
        )
        return 1
    if not SHARED.is_dir():
        print(f"build: {SHARED} is missing (the card data set beside the repository)", file=sys.stderr)
        return 1
    needed = ("cairosvg", "PIL", "torch", "onnx")
    missing = [name for name in needed if importlib.util.find_spec(name) is None]
    if missing:
        # Said before any work starts: the namer's training, which needs PyTorch, comes last.
        print(
            f"build: {', '.join(missing)} missing; install the train extra: "
            ".venv/bin/pip install -e '.[train]'",
            file=sys.stderr,
        )
        return 1
    options = Options(
        flat_threes=args.flat_threes,
        drawn_flat_threes=args.drawn_flat_threes,
        barred_jacks=args.barred_jacks,
        court_frames_beside=args.court_frames_beside,
        hold_out_crops=args.hold_out_crops,
    )
    typeface_files()  # all there, or say which packages to install before any work starts
    parts = []
    kinds = (
        ("rendered-deck", args.scenes, 0),
        ("real-deck", args.real_scenes, REAL_CHUNKS),
        ("joined-deck", args.joined_scenes, JOINED_CHUNKS),
        ("jumbo-deck", args.jumbo_scenes, JUMBO_CHUNKS),
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
        part = collect(count, args.seed, args.workers, first=first, options=options)
        if cache is not None:
            np.savez(cache, p=part[0], q=part[1], r=part[2], s=part[3])
        parts.append(part)
    samples: Samples = (
        np.concatenate([part[0] for part in parts]),
        np.concatenate([part[1] for part in parts]),
        np.concatenate([part[2] for part in parts]),
        np.concatenate([part[3] for part in parts]),
    )
    del parts  # the pieces, now copied: at the namer's resolution they are gigabytes
    r, s = samples[2], samples[3]
    print(f"build: training on {len(r)} samples ({int((r != NOT_INDEX).sum())} indices)")
    finder = train_finder(samples, seed=args.seed, epochs=args.epochs)
    planes = namer_inputs(samples)
    del samples
    namer = train_namer(planes, r, s, seed=args.seed, epochs=args.namer_epochs)
    args.out.mkdir(parents=True, exist_ok=True)
    for path, net in ((args.out / FINDER.name, finder), (args.out / NAMER.name, namer)):
        net.save(path)
        print(f"build: wrote {path} ({path.stat().st_size // 1024} KiB)")
    # The namer as the recogniser loads it (subnormals flushed), as a graph OpenCV runs.
    from tools.vision_build.graph import write_graph  # onnx: checked for above, with the train extra

    graph = args.out / NAMER_GRAPH
    write_graph(Namer.load(args.out / NAMER.name), graph)
    print(f"build: wrote {graph} ({graph.stat().st_size // 1024} KiB)")
    return 0
