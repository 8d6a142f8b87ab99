"""``crib detect``: read the cards in photos or camera frames from the terminal; ``crib calibrate``: the
table's zones (and plane) from a photo of the marker cards, saved for ``crib detect --layout``.

OpenCV and the network are loaded only when the command runs, so ``crib score`` and friends start fast.
Each image is handled on its own: a missing or unreadable file, a folder or an image too large to read
safely (see :mod:`companion.vision.images`) is one line on stderr naming it, the other images still run,
and the exit status is 1 if any failed. ``--filmed`` reads the images as consecutive frames of one
camera, as the companion reads its camera: each compared with the table as last read and read only
where it changed. ``--layout`` reads them with a table layout's plane (a camera at a slant, calibrated
from the marker cards): each warped to the view from above, read there, the outlines given in the
image's own pixels. Without it, a photo taken at a slant is levelled by its own cards' outlines (see
:class:`companion.vision.rectify.Levelled`) and said to be ("levelled" in ``--json``); frames read
``--filmed`` are levelled once the cards read in them say the camera's slant (see
:class:`companion.vision.rectify.Levelling`), each frame from then on said to be.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any


def register(subparsers: Any) -> None:
    """Add ``crib detect`` and ``crib calibrate``."""
    calibrate = subparsers.add_parser(
        "calibrate",
        help="the table's zones from a photo of the marker cards, and whether the camera looks at a slant",
        description="Read a photo or camera frame of the table with the marker cards laid out (ace of "
        "spades: player 1, ace of hearts: player 2, ace of clubs and ace of diamonds: players 3 and 4, king "
        "of diamonds: the deck, king of clubs: the crib), as the companion calibrates at the start, and say "
        "what it makes of it: the zones found and, for a camera at a slant, the table's plane.",
    )
    calibrate.add_argument("image", metavar="IMAGE", type=Path, help="a photo or frame of the table")
    calibrate.add_argument("--players", type=int, choices=(2, 3, 4), default=2, help="seats at the table")
    calibrate.add_argument(
        "--out", type=Path, metavar="TABLE.json", help="save the layout (for crib detect --layout)"
    )
    calibrate.set_defaults(func=run_calibrate)

    detect = subparsers.add_parser(
        "detect",
        help="name the playing cards in photos or camera frames",
        description="Find every card in each image and name it by its index corner (rank and suit): "
        "'back' for a face-down card, 'unknown' where a card is seen but cannot be read with confidence.",
    )
    detect.add_argument("images", nargs="+", metavar="IMAGE", type=Path, help="image files (any size)")
    detect.add_argument("--json", action="store_true", help="print one JSON object per image per line")
    detect.add_argument(
        "--filmed",
        action="store_true",
        help="take the images as consecutive frames of one camera over the table: each is read only where "
        "it changed since the one before (the time each frame took is its 'ms')",
    )
    detect.add_argument(
        "--layout",
        type=Path,
        metavar="TABLE.json",
        help="a table layout saved at calibration: a camera at a slant has its images read as if from above",
    )
    detect.add_argument(
        "--draw",
        type=Path,
        metavar="OUT.png",
        help="write the image with every recognition outlined and labelled (with several images, "
        "OUT-<image name>.png for each)",
    )
    detect.set_defaults(func=run_detect)


def _draw_path(out: Path, image: Path, many: bool) -> Path:
    if not many:
        return out
    return out.with_name(f"{out.stem}-{image.stem}{out.suffix or '.png'}")


def run_detect(args: argparse.Namespace) -> int:
    """Detect and print; returns 1 if any image could not be read."""
    # The image reader first: it sets OpenCV's own pixel limit, which OpenCV reads when it is loaded.
    from companion.vision.images import ImageError, read_image  # noqa: I001

    import cv2

    from companion.vision.recognise import Recogniser
    from companion.vision.render import draw_sightings

    from companion.vision.plane import TopDown
    from companion.vision.rectify import Levelled, Levelling
    from companion.vision.zones import TableLayout

    reader: Recogniser | TopDown | Levelled | Levelling = Recogniser(filmed=args.filmed)
    if args.layout is None:
        # With no calibrated table, the cards' own outlines say the slant: a photo's in each photo, a
        # camera's once, from the cards it has read.
        reader = Levelling(reader) if args.filmed else Levelled(reader, Recogniser())
    if args.layout is not None:
        try:
            layout = TableLayout.load(args.layout)
        except OSError as error:
            print(
                f"crib detect: cannot read the table layout {args.layout} ({error.strerror})", file=sys.stderr
            )
            return 1
        except ValueError as error:
            print(f"crib detect: {error}", file=sys.stderr)
            return 1
        if layout.plane is not None:
            reader = TopDown(reader, layout.plane)
    failed = 0
    images: list[Path] = args.images
    for path in images:
        try:
            frame = read_image(path)
        except ImageError as error:
            print(f"crib detect: {error}", file=sys.stderr)
            failed += 1
            continue
        start = time.perf_counter()
        sightings = reader.detect(frame)
        ms = (time.perf_counter() - start) * 1000
        levelled = isinstance(reader, Levelled | Levelling) and reader.plane is not None
        if args.json:
            cards = []
            for s in sightings:
                item: dict[str, Any] = {
                    "card": s.label,
                    "confidence": s.confidence,
                    "corners": [[x, y] for x, y in s.corners],
                    "middle": [round(v, 1) for v in s.where],
                }
                cards.append(item)
            line = {"image": str(path), "cards": cards, "ms": round(ms, 1)}
            if isinstance(reader, Levelled | Levelling):
                line["levelled"] = levelled
            print(json.dumps(line), flush=True)
        else:
            names = [s.label for s in sightings]
            slant = ", read as if from above" if levelled else ""
            print(f"{path}: {' '.join(names) if names else 'no cards'} ({ms:.0f} ms{slant})", flush=True)
        if args.draw is not None:
            out = _draw_path(args.draw, path, len(images) > 1)
            if not cv2.imwrite(str(out), draw_sightings(frame, sightings)):
                print(f"crib detect: cannot write {out}", file=sys.stderr)
                failed += 1
    return 1 if failed else 0


def run_calibrate(args: argparse.Namespace) -> int:
    """Calibrate from one image, say what was found, and save it with ``--out``."""
    from companion.vision.images import ImageError, read_image  # noqa: I001

    from companion.vision.recognise import Recogniser
    from companion.vision.zones import calibrate

    try:
        frame = read_image(args.image)
    except ImageError as error:
        print(f"crib calibrate: {error}", file=sys.stderr)
        return 1
    try:
        layout = calibrate(frame, Recogniser().detect(frame), args.players)
    except ValueError as error:
        print(f"crib calibrate: {error}", file=sys.stderr)
        return 1
    zones = ", ".join(f"{zone} at ({x:.0f}, {y:.0f})" for zone, (x, y) in layout.anchors)
    print(f"{args.image}: zones {zones}")
    if layout.plane is None:
        print("frames are read as they come (the camera looks straight down, or no marker card stood clear)")
    else:
        w, h = layout.plane.size
        print(f"the camera looks at the table at a slant: frames are read as if from above ({w}x{h} pixels)")
    if args.out is not None:
        try:
            layout.save(args.out)
        except OSError as error:
            print(f"crib calibrate: cannot write {args.out} ({error.strerror})", file=sys.stderr)
            return 1
        print(f"saved to {args.out}")
    return 0
