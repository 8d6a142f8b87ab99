#!/usr/bin/env python3
"""Generate the firmware's hole -> LED table from companion/board/layout.json.

The layout file is the one source of truth for which LED sits under which hole; the firmware never
assumes a chain order. This script checks the file (every hole of every track exactly one LED, no LED
twice, every index inside the chain) and writes a C header with the table, so a bad layout fails the
build instead of lighting the wrong hole. Standard library only: it runs on any machine with python3.

Usage: gen_layout.py [LAYOUT.json] > firmware/build/layout_table.h (default: the layout the companion
ships, companion/board/layout.json, so the firmware and the installed companion read one file).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path


class LayoutError(ValueError):
    """The layout file is not a consistent description of the board."""


def load_table(path: Path) -> tuple[dict[str, object], list[list[int]]]:
    """Read and check the layout; return its header fields and table[track][hole - 1] = led."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as exc:
        raise LayoutError(f"cannot read the layout {path}: {exc}") from exc
    try:
        tracks = int(data["tracks"])
        holes = int(data["holes_per_track"])
        led_count = int(data["led_count"])
        entries = data["holes"]
    except (KeyError, TypeError, ValueError) as exc:
        raise LayoutError(f"the layout {path} lacks a field or has a bad one: {exc}") from exc
    if not 1 <= tracks <= 4 or not 1 <= holes <= 250 or not 1 <= led_count <= 65535:
        raise LayoutError(f"the layout {path} has an impossible size ({tracks} tracks of {holes} holes)")
    table: list[list[int | None]] = [[None] * holes for _ in range(tracks)]
    used: dict[int, tuple[int, int]] = {}
    for entry in entries:
        track, hole, led = int(entry["track"]), int(entry["hole"]), int(entry["led"])
        if not (0 <= track < tracks and 1 <= hole <= holes):
            raise LayoutError(f"track {track} hole {hole} is outside the board")
        if not 0 <= led < led_count:
            raise LayoutError(f"track {track} hole {hole} has LED {led}, outside 0..{led_count - 1}")
        if table[track][hole - 1] is not None:
            raise LayoutError(f"track {track} hole {hole} is listed twice")
        if led in used:
            raise LayoutError(f"LED {led} sits under two holes: {used[led]} and {(track, hole)}")
        table[track][hole - 1] = led
        used[led] = (track, hole)
    missing = [(t, h + 1) for t in range(tracks) for h in range(holes) if table[t][h] is None]
    if missing:
        raise LayoutError(f"{len(missing)} holes have no LED, the first being track/hole {missing[0]}")
    header = {"tracks": tracks, "holes": holes, "led_count": led_count, "name": str(data.get("name", ""))}
    return header, [[led for led in row if led is not None] for row in table]


def render(source: str, header: dict[str, object], table: list[list[int]]) -> str:
    led_type = "uint8_t" if int(str(header["led_count"])) <= 256 else "uint16_t"
    lines = [
        f"/* Generated from {source} by firmware/tools/gen_layout.py: do not edit. */",
        "#ifndef LAYOUT_TABLE_H",
        "#define LAYOUT_TABLE_H",
        "#include <stdint.h>",
        f"#define LAYOUT_TRACKS {header['tracks']}",
        f"#define LAYOUT_HOLES {header['holes']}",
        f"#define LAYOUT_LED_COUNT {header['led_count']}",
        f"typedef {led_type} layout_led_t;",
        "/* LAYOUT_TABLE[track][hole - 1] is the index along the LED chain of that hole. */",
        "#define LAYOUT_TABLE { \\",
    ]
    for row in table:
        for start in range(0, len(row), 16):
            chunk = ", ".join(str(v) for v in row[start : start + 16])
            opener = "    { " if start == 0 else "      "
            closer = " }, \\" if start + 16 >= len(row) else ", \\"
            lines.append(f"{opener}{chunk}{closer}")
    lines += ["}", "#endif", ""]
    return "\n".join(lines)


#: The layout the companion ships and reads at run time.
DEFAULT_LAYOUT = Path(__file__).resolve().parents[2] / "companion" / "board" / "layout.json"


def main(argv: list[str]) -> int:
    if len(argv) > 2:
        print("usage: gen_layout.py [LAYOUT.json] > layout_table.h", file=sys.stderr)
        return 2
    path = Path(argv[1]) if len(argv) == 2 else DEFAULT_LAYOUT
    try:
        header, table = load_table(path)
    except LayoutError as exc:
        print(f"gen_layout: {exc}", file=sys.stderr)
        return 1
    sys.stdout.write(render(path.name, header, table))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
