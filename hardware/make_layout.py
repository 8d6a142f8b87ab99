#!/usr/bin/env python3
"""Generate ``companion/board/layout.json``: the one description of the board every other part reads.

The firmware build turns it into its hole -> LED table, the companion draws the virtual board from it and
the drawings are made from it, so the geometry is written down once, here, as arithmetic a reviewer can
check, rather than as 242 hand-typed entries.  Only the standard library is used and the output is
byte-for-byte deterministic, so ``python3 hardware/make_layout.py`` after an edit shows a clean diff and a
test can assert that the committed file is exactly what this script writes.  The file lives inside the
package (``companion/board/``) because the installed companion reads it at run time; the firmware build
and the drawings read it from there too, so there is still one copy.

The layout also names the Raspberry Pi's GPIO pin of every knob and button (``gpio``): the wiring is
hardware, drawn in ``hardware/generated/wiring.svg`` and read by :mod:`companion.controls` as its default.

The board (portrait, the players sit at the bottom edge):

* four columns of 60 holes: track 0 (player 0) uses the left pair, track 1 (player 1) the right pair;
  in each pair the *outside* column is the one nearer the board's edge.
* A track is read up the outside column (holes 1..60, bottom to top), across the top and back down the
  inside column (61..120, top to bottom), ending in its own game hole (121) at the bottom, between the
  tracks.  Score 0 is the pair of start holes below the outside column, which have no LED.
* Each column is twelve streets of five holes; the holes of a street are one pitch apart and the streets
  are separated by a wider gap, so fives can be counted at a glance, as on a wooden board.
* The LED strip is one serpentine chain: it enters at the bottom left, runs up track 0's outside column,
  down its inside column, through the two game holes, up track 1's inside column and down its outside
  column, so every step of the strip is short and the wire never doubles back across the board.

Usage: ``python3 hardware/make_layout.py [OUTPUT]`` (default: ``companion/board/layout.json``).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

TRACKS = 2
HOLES_PER_TRACK = 121
STREET = 5  # holes in a street
STREETS_PER_COLUMN = 12  # 60 holes up the outside, 60 down the inside

PITCH_MM = 6.35  # centre to centre within a street (a quarter inch, as on traditional boards)
STREET_GAP_MM = 12.7  # centre to centre from the last hole of a street to the first of the next

BOARD_W_MM = 90.0
BOARD_H_MM = 500.0
TOP_Y_MM = 25.0  # the top hole of every column (holes 60 and 61)

#: x of each track's (outside, inside) column; track 0 is on the left as the players see the board.
COLUMN_X_MM = {0: (20.0, 30.0), 1: (70.0, 60.0)}
#: x of each track's game hole (121), side by side at the bottom between the tracks.
GAME_HOLE_X_MM = {0: 40.0, 1: 50.0}
START_OFFSET_MM = 4.0  # start holes sit either side of the outside column's line
FOOT_GAP_MM = 15.0  # from the bottom row of holes down to the row of start and game holes

#: The Pi's BCM GPIO pins of each player's knob (A, B, press) and muggins button, and the undo button.
#: Every switch goes between its pin and ground (the Pi's internal pull-ups); none of these pins has a
#: second job on the header (not I2C, SPI, UART or the camera), so they stay free for the add-ons.
GPIO: dict[str, Any] = {"player0": [17, 18, 27, 22], "player1": [23, 24, 25, 5], "undo": 6}

#: Where the companion reads the layout at run time; the firmware build and the drawings read it there too.
DEFAULT_OUTPUT = Path(__file__).resolve().parents[1] / "companion" / "board" / "layout.json"


def _round(value: float) -> float:
    """Millimetres to a hundredth: far finer than a drill, and stable text in the JSON."""
    return round(value + 0.0, 2)


def column_offsets() -> list[float]:
    """Distance from the top hole of a column to each of its 60 holes, top first."""
    offsets = []
    for index in range(STREET * STREETS_PER_COLUMN):
        street, within = divmod(index, STREET)
        offsets.append(street * ((STREET - 1) * PITCH_MM + STREET_GAP_MM) + within * PITCH_MM)
    return offsets


def bottom_y() -> float:
    """y of the bottom hole of every column (holes 1 and 120)."""
    return TOP_Y_MM + column_offsets()[-1]


def hole_position(track: int, hole: int) -> tuple[float, float]:
    """Where hole ``hole`` (1..121) of ``track`` is drilled, in mm from the top-left corner, y down."""
    outside_x, inside_x = COLUMN_X_MM[track]
    offsets = column_offsets()
    per_column = len(offsets)
    if 1 <= hole <= per_column:  # up the outside: hole 1 at the bottom
        return outside_x, TOP_Y_MM + offsets[per_column - hole]
    if per_column < hole <= 2 * per_column:  # down the inside: hole 61 at the top
        return inside_x, TOP_Y_MM + offsets[hole - per_column - 1]
    if hole == HOLES_PER_TRACK:
        return GAME_HOLE_X_MM[track], bottom_y() + FOOT_GAP_MM
    raise ValueError(f"hole {hole} is not on a {HOLES_PER_TRACK}-hole track")


def chain_order() -> list[tuple[int, int]]:
    """The (track, hole) under each LED, in strip order: the serpentine described above."""
    per_column = STREET * STREETS_PER_COLUMN
    order = [(0, hole) for hole in range(1, 2 * per_column + 1)]  # up outside, down inside
    order += [(0, HOLES_PER_TRACK), (1, HOLES_PER_TRACK)]  # across the game holes
    order += [(1, hole) for hole in range(2 * per_column, 0, -1)]  # up inside, down outside
    return order


def start_holes() -> list[dict[str, Any]]:
    """The two start holes per track (score 0): rear peg nearer the edge, forward peg nearer the middle."""
    holes = []
    y = _round(bottom_y() + FOOT_GAP_MM)
    for track in range(TRACKS):
        outside_x, inside_x = COLUMN_X_MM[track]
        inward = 1.0 if inside_x > outside_x else -1.0
        for peg, side in (("rear", -1.0), ("forward", 1.0)):
            x = _round(outside_x + side * inward * START_OFFSET_MM)
            holes.append({"track": track, "peg": peg, "x_mm": x, "y_mm": y})
    return holes


NOTES = (
    "Origin at the top-left corner as the players see the board from its bottom edge; x to the right, "
    "y down, millimetres (as in the drawings). Track 0 (left pair of columns) is player 0, the first "
    "player of the game; track 1 (right pair) is player 1. Each track is read up its outside column "
    "(holes 1-60, bottom to top), across the top, back down its inside column (61-120) and into its own "
    "game hole (121) at the bottom between the tracks. Each column is twelve streets of five holes "
    f"({PITCH_MM} mm apart within a street, {STREET_GAP_MM} mm from street to street). Score 0 is the "
    "pair of start holes below the outside column (rear peg nearer the edge); they have no LED. The LED "
    "strip is one serpentine: up track 0 outside, down track 0 inside, through both game holes, up "
    "track 1 inside, down track 1 outside; 'led' is the index along it. 'gpio' names the Raspberry "
    "Pi's BCM pin of each player's knob (A, B, press) and muggins button and of the undo button, every "
    "switch between its pin and ground. Generated by hardware/make_layout.py; do not edit by hand."
)


def build() -> dict[str, Any]:
    """The layout as plain data, in the key order of the agreed schema."""
    led_of = {where: led for led, where in enumerate(chain_order())}
    holes = []
    for track in range(TRACKS):
        for hole in range(1, HOLES_PER_TRACK + 1):
            x, y = hole_position(track, hole)
            led = led_of[track, hole]
            holes.append({"track": track, "hole": hole, "x_mm": _round(x), "y_mm": _round(y), "led": led})
    return {
        "version": 1,
        "name": "two-track 121 board",
        "tracks": TRACKS,
        "holes_per_track": HOLES_PER_TRACK,
        "led_count": len(led_of),
        "size_mm": [BOARD_W_MM, BOARD_H_MM],
        "notes": NOTES,
        "holes": holes,
        "start_holes": start_holes(),
        "gpio": GPIO,
    }


def render(layout: dict[str, Any]) -> str:
    """The JSON text: indented, but one line per hole so a diff shows exactly which hole moved."""
    lines = ["{"]
    items = list(layout.items())
    for position, (key, value) in enumerate(items):
        comma = "," if position < len(items) - 1 else ""
        if isinstance(value, list) and value and isinstance(value[0], dict):
            lines.append(f"  {json.dumps(key)}: [")
            for index, entry in enumerate(value):
                inner = "," if index < len(value) - 1 else ""
                lines.append(f"    {json.dumps(entry)}{inner}")
            lines.append(f"  ]{comma}")
        else:
            lines.append(f"  {json.dumps(key)}: {json.dumps(value)}{comma}")
    lines.append("}")
    return "\n".join(lines) + "\n"


def main(argv: list[str]) -> int:
    target = Path(argv[1]) if len(argv) > 1 else DEFAULT_OUTPUT
    target.write_text(render(build()), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
