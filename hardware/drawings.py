#!/usr/bin/env python3
"""Generate the board's drawings and tables from the layout file and the firmware's sources.

Why one file of about 1,100 lines: it is a stand-alone generator (standard library only, run from a
checkout), one function a drawing or table, all derived from the same layout; splitting it would only
spread one script over several.

Everything a builder measures, drills or wires by is derived here, so it can never disagree with the
firmware (whose hole -> LED table comes from the same layout file, ``companion/board/layout.json``) or
with the companion (which reads its default GPIO pins from that file's ``gpio`` entry; the data pin and
current cap come from the firmware's sources).  Standard library only, and nothing imported from the
companion; the output is byte-for-byte deterministic, and a test asserts that the committed files are
exactly what this script writes.

Written to ``hardware/generated/``:

* ``board.svg`` -- the board at 1:1 in millimetres: every hole with its diameter and a centre mark, the
  hole number every five, the LED index under each hole, the LED chain as a polyline, the start holes,
  a scale bar.  Print at 100 % as a drilling template.
* ``board-a4-1.svg`` .. ``board-a4-3.svg`` -- the same drawing cut into three A4 pages (the board is 500 mm
  long) that overlap by 20 mm, with registration crosses to tape them together.
* ``wiring.svg`` -- the wiring: Pi, Nano, LED supply, the chain's feed points and every control's pin.
* ``holes.csv`` (track, hole -> LED and position), ``chain.csv`` (LED order with the wire length from
  each LED to the next), ``gpio.csv`` (each control's BCM pin and header pin).
* ``figures.md`` -- the worked power budget and camera geometry, with their assumptions.

Usage: ``python3 hardware/drawings.py`` (write) or ``python3 hardware/drawings.py --check`` (exit 1 and
name the stale files if the committed ones differ from what would be written).
"""

from __future__ import annotations

import argparse
import itertools
import json
import math
import re
import sys
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
LAYOUT = ROOT / "companion" / "board" / "layout.json"
OUT = HERE / "generated"
FIRMWARE = ROOT / "firmware"

#: Diameter of the scoring holes and the start holes.  A choice of this drawing, not of the layout: a
#: 1/8 inch bit, the size of a traditional peg, and small enough that a 5 mm LED package lights it evenly.
HOLE_DIAMETER_MM = 3.2
#: The series resistor in the data line and the reservoir capacitor across the LED supply.
DATA_RESISTOR_OHM = 330
RESERVOIR_UF = 1000

FONT = "DejaVu Sans, Arial, Helvetica, sans-serif"
TRACK_COLOURS = ("#0086b3", "#c85000")  # darker versions of the firmware's default peg colours
CHAIN_COLOUR = "#2a9d2a"

# The 40-pin header of every Raspberry Pi since the B+: physical pin -> BCM GPIO number.
HEADER_BCM = {
    3: 2,
    5: 3,
    7: 4,
    8: 14,
    10: 15,
    11: 17,
    12: 18,
    13: 27,
    15: 22,
    16: 23,
    18: 24,
    19: 10,
    21: 9,
    22: 25,
    23: 11,
    24: 8,
    26: 7,
    27: 0,
    28: 1,
    29: 5,
    31: 6,
    32: 12,
    33: 13,
    35: 19,
    36: 16,
    37: 26,
    38: 20,
    40: 21,
}
HEADER_GROUND = (6, 9, 14, 20, 25, 30, 34, 39)
BCM_HEADER = {bcm: pin for pin, bcm in HEADER_BCM.items()}


class DrawingError(RuntimeError):
    """A source the drawings are made from is missing or says something impossible."""


# --------------------------------------------------------------------------------------------- sources


@dataclass(frozen=True)
class Hole:
    track: int
    hole: int
    x: float
    y: float
    led: int


@dataclass(frozen=True)
class StartHole:
    track: int
    peg: str
    x: float
    y: float


@dataclass(frozen=True)
class PlayerPins:
    """One player's knob (A, B, press) and muggins button, as BCM GPIO numbers."""

    knob_a: int
    knob_b: int
    knob_press: int
    muggins: int


@dataclass(frozen=True)
class ControlPins:
    """The ``gpio`` entry of the layout: every knob's and button's pin."""

    players: tuple[PlayerPins, ...]
    undo: int


@dataclass(frozen=True)
class Layout:
    name: str
    version: int
    width: float
    height: float
    holes: tuple[Hole, ...]
    start_holes: tuple[StartHole, ...]
    led_count: int
    pins: ControlPins

    def by_led(self) -> list[Hole]:
        return sorted(self.holes, key=lambda h: h.led)


def load_layout(path: Path = LAYOUT) -> Layout:
    """Read the layout file (the board engineer's generator checks it; the chain must be complete here)."""
    try:
        data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as error:
        raise DrawingError(f"cannot read the layout {path}: {error}") from None
    holes = tuple(
        Hole(int(h["track"]), int(h["hole"]), float(h["x_mm"]), float(h["y_mm"]), int(h["led"]))
        for h in data["holes"]
    )
    starts = tuple(
        StartHole(int(s["track"]), str(s["peg"]), float(s["x_mm"]), float(s["y_mm"]))
        for s in data["start_holes"]
    )
    led_count = int(data["led_count"])
    if sorted(h.led for h in holes) != list(range(led_count)):
        raise DrawingError(f"the layout {path} does not give each of its {led_count} LEDs exactly one hole")
    width, height = (float(v) for v in data["size_mm"])
    pins = read_pins(data.get("gpio"), path)
    return Layout(str(data["name"]), int(data["version"]), width, height, holes, starts, led_count, pins)


def read_pins(gpio: object, path: Path) -> ControlPins:
    """The knobs' and buttons' pins from the layout's ``gpio`` entry; each must be a header GPIO, once."""
    if not isinstance(gpio, dict) or "undo" not in gpio or "player0" not in gpio:
        raise DrawingError(f"the layout {path} names no GPIO pins (its 'gpio' entry)")
    players = []
    for index in itertools.count():
        value = gpio.get(f"player{index}")
        if value is None:
            break
        if not isinstance(value, list) or len(value) != 4:
            raise DrawingError(f"the layout {path}: gpio player{index} must be four pins")
        players.append(PlayerPins(*(int(pin) for pin in value)))
    pins = ControlPins(tuple(players), int(gpio["undo"]))
    used = [pin for p in pins.players for pin in (p.knob_a, p.knob_b, p.knob_press, p.muggins)] + [pins.undo]
    for pin in used:
        if pin not in BCM_HEADER:
            raise DrawingError(f"the layout {path}: GPIO {pin} is not on the Pi's 40-pin header")
        if used.count(pin) > 1:
            raise DrawingError(f"the layout {path}: GPIO {pin} is given to two controls")
    return pins


@dataclass(frozen=True)
class FirmwareFacts:
    """What the wiring and the power budget need from the firmware's sources."""

    data_port: str  # "D"
    data_bit: int  # 6
    cap_ma: int  # the current cap the Makefile builds in
    idle_ma_per_led: float  # the firmware's current model: per LED when dark
    full_ma_per_channel: float  # and per colour channel at 255
    brightness: int  # default global brightness
    colours: tuple[str, str]  # default peg colours, RRGGBB

    @property
    def nano_pin(self) -> str:
        """The Arduino Nano's silk-screen name of the data pin (PD0..7 are D0..D7, PB0..5 are D8..D13)."""
        if self.data_port == "D":
            return f"D{self.data_bit}"
        if self.data_port == "B":
            return f"D{self.data_bit + 8}"
        return f"P{self.data_port}{self.data_bit}"


def read_firmware(firmware: Path = FIRMWARE) -> FirmwareFacts:
    """Read the data pin, the cap and the drawing defaults from the firmware's sources."""
    try:
        ws = (firmware / "src" / "ws2812.h").read_text(encoding="utf-8")
        make = (firmware / "Makefile").read_text(encoding="utf-8")
        board_c = (firmware / "src" / "board.c").read_text(encoding="utf-8")
    except OSError as error:
        raise DrawingError(
            f"the firmware's sources are needed for the wiring and power figures: {error}"
        ) from None

    def find(pattern: str, text: str, what: str) -> re.Match[str]:
        match = re.search(pattern, text, re.MULTILINE | re.DOTALL)
        if match is None:
            raise DrawingError(f"cannot find {what} in the firmware's sources")
        return match

    port = find(r"^#define WS2812_PORT PORT([A-D])\b", ws, "the LED data port").group(1)
    bit = int(find(r"^#define WS2812_BIT (\d+)", ws, "the LED data bit").group(1))
    cap = int(find(r"^CAP_MA\s*\?=\s*(\d+)", make, "the current cap (CAP_MA)").group(1))
    # The current model, from the arithmetic of board_cap(): the LEDs' dark current is 1 mA each
    # ("cap_ma - leds") and a channel at 255 draws the divisor's milliamps.
    per_channel = find(r"\(cap_ma - leds\)\s*\*\s*255u?\)\s*/\s*(\d+)u?", board_c, "the current model")
    brightness = int(find(r"s->brightness\s*=\s*(\d+)u?;", board_c, "the default brightness").group(1))
    table = find(r"default_rgb\s*\[[^\]]*\]\s*\[3\]\s*=\s*\{(.*?)\};", board_c, "the default colours")
    rgb = re.findall(r"0x([0-9A-Fa-f]{2})", table.group(1))
    if len(rgb) < 6:
        raise DrawingError("the firmware's default colours are not two RGB triples")
    colours = ("".join(rgb[:3]).upper(), "".join(rgb[3:6]).upper())
    return FirmwareFacts(port, bit, cap, 1.0, float(per_channel.group(1)), brightness, colours)


# ------------------------------------------------------------------------------------------ SVG helpers


def _n(value: float) -> str:
    """A coordinate as short, stable text (hundredths of a millimetre)."""
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def _esc(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def _text(x: float, y: float, text: str, size: float, anchor: str = "middle", extra: str = "") -> str:
    return (
        f'<text x="{_n(x)}" y="{_n(y)}" font-size="{_n(size)}" text-anchor="{anchor}"{extra}>'
        f"{_esc(text)}</text>"
    )


def _drill_mark(x: float, y: float, r: float, colour: str, extra: str = "") -> list[str]:
    """A hole to drill: its outline in the track's colour and a centre cross for the drill's point."""
    return [
        f'<circle cx="{_n(x)}" cy="{_n(y)}" r="{_n(r)}" fill="#fff" stroke="{colour}" '
        f'stroke-width="0.18"{extra}/>',
        _line(x - 1, y, x + 1, y, ' stroke="#000" stroke-width="0.08"'),
        _line(x, y - 1, x, y + 1, ' stroke="#000" stroke-width="0.08"'),
    ]


def _line(x1: float, y1: float, x2: float, y2: float, extra: str = "") -> str:
    return f'<line x1="{_n(x1)}" y1="{_n(y1)}" x2="{_n(x2)}" y2="{_n(y2)}"{extra}/>'


def _svg(
    width: float, height: float, view: tuple[float, float, float, float], body: Iterable[str], title: str
) -> str:
    vx, vy, vw, vh = view
    head = (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{_n(width)}mm" height="{_n(height)}mm" '
        f'viewBox="{_n(vx)} {_n(vy)} {_n(vw)} {_n(vh)}" font-family="{FONT}">'
    )
    return (
        "\n".join(
            ['<?xml version="1.0" encoding="UTF-8"?>', head, f"<title>{_esc(title)}</title>", *body, "</svg>"]
        )
        + "\n"
    )


# ------------------------------------------------------------------------------------------ the board

#: Margins of the full drawing around the board (mm): room for the title above and the scale bar below.
SHEET = (-10.0, -24.0, 110.0, 554.0)  # x, y, width, height in board millimetres


def _label_side(layout: Layout, hole: Hole) -> float:
    """+1 to write a hole's number to its right, -1 to its left: always away from the other column."""
    centre = layout.width / 2
    same = [h.x for h in layout.holes if h.track == hole.track and h.hole <= 120]
    outer = min(same) if hole.x < centre else max(same)
    if hole.x < centre:
        return -1.0 if math.isclose(hole.x, outer) else 1.0
    return 1.0 if math.isclose(hole.x, outer) else -1.0


def board_body(layout: Layout, fw: FirmwareFacts) -> list[str]:
    """The drawing's elements in board millimetres (origin at the board's top-left corner, y down)."""
    r = HOLE_DIAMETER_MM / 2
    body: list[str] = []
    body.append(
        f'<rect x="0" y="0" width="{_n(layout.width)}" height="{_n(layout.height)}" fill="none" '
        'stroke="#000" stroke-width="0.3"/>'
    )
    # Title block, above the board: short lines, so it fits the sheet and each A4 page.
    header = [
        f"Board {_n(layout.width)} x {_n(layout.height)} mm, seen from the top, players at the bottom edge.",
        f"All holes \u00d8{_n(HOLE_DIAMETER_MM)} mm: punch at the centre cross. "
        "Print at 100 % (actual size).",
        "Bold: hole numbers (every five). Small green: the LED under the hole (its",
        "index along the chain). Green line: the chain, data in at LED 0 "
        f"(Nano {fw.nano_pin}, {DATA_RESISTOR_OHM} \u03a9).",
    ]
    body.append(
        _text(
            -8,
            -20,
            f"Crib board drilling template ({layout.name}, layout v{layout.version})",
            2.6,
            "start",
            ' font-weight="bold"',
        )
    )
    for index, line in enumerate(header):
        body.append(_text(-8, -16 + 3 * index, line, 1.9, "start"))
    # Track titles.
    for track in sorted({h.track for h in layout.holes}):
        xs = [h.x for h in layout.holes if h.track == track and h.hole <= 120]
        body.append(
            _text(
                (min(xs) + max(xs)) / 2,
                10,
                f"track {track}",
                2.6,
                extra=f' fill="{TRACK_COLOURS[track % 2]}" font-weight="bold"',
            )
        )
        body.append(
            _text(
                (min(xs) + max(xs)) / 2,
                13.5,
                f"player {track}",
                2.0,
                extra=f' fill="{TRACK_COLOURS[track % 2]}"',
            )
        )
    # The chain, under everything else.
    chain = layout.by_led()
    points = " ".join(f"{_n(h.x)},{_n(h.y)}" for h in chain)
    body.append(
        '<defs><marker id="arrow" viewBox="0 0 4 4" refX="2" refY="2" markerWidth="1.6" markerHeight="1.6" '
        f'markerUnits="userSpaceOnUse" orient="auto"><path d="M0,0 L4,2 L0,4 z" fill="{CHAIN_COLOUR}"/>'
        "</marker></defs>"
    )
    body.append(
        f'<polyline points="{points}" fill="none" stroke="{CHAIN_COLOUR}" stroke-width="0.25" '
        'stroke-opacity="0.7" marker-mid="url(#arrow)"/>'
    )
    first = chain[0]
    body.append(
        _line(
            first.x,
            layout.height + 4,
            first.x,
            first.y + r + 2.2,
            f' stroke="{CHAIN_COLOUR}" stroke-width="0.35" marker-end="url(#arrow)"',
        )
    )
    body.append(_text(first.x, layout.height + 7, "DATA IN", 2.0, extra=f' fill="{CHAIN_COLOUR}"'))
    last = chain[-1]
    body.append(
        _text(last.x, layout.height + 7, f"END (LED {last.led})", 2.0, extra=f' fill="{CHAIN_COLOUR}"')
    )
    # Where 5 V and GND are fed in: the foot of each column (see feed_points).
    for hole in feed_holes(layout):
        body.append(_text(hole.x, layout.height + 10, "5V/GND", 1.5, extra=' fill="#d00000"'))
    # The holes.
    for hole in sorted(layout.holes, key=lambda h: (h.track, h.hole)):
        colour = TRACK_COLOURS[hole.track % 2]
        body += _drill_mark(hole.x, hole.y, r, colour)
        body.append(
            _text(
                hole.x,
                hole.y + r + 1.35,
                str(hole.led),
                1.2,
                extra=f' fill="{CHAIN_COLOUR}" stroke="#fff" stroke-width="0.25" paint-order="stroke"',
            )
        )
        if hole.hole == 1 or hole.hole % 5 == 0 or hole.hole == 121:
            if hole.hole == 121:
                body.append(
                    _text(hole.x, hole.y - r - 0.8, "121", 2.0, extra=f' fill="{colour}" font-weight="bold"')
                )
                continue
            side = _label_side(layout, hole)
            body.append(
                _text(
                    hole.x + side * (r + 0.7),
                    hole.y + 0.7,
                    str(hole.hole),
                    2.0,
                    "start" if side > 0 else "end",
                    f' fill="{colour}" font-weight="bold"',
                )
            )
    game = [h for h in layout.holes if h.hole == 121]
    if game:
        body.append(
            _text(
                sum(h.x for h in game) / len(game),
                game[0].y + r + 4.5,
                "GAME",
                2.2,
                extra=' font-weight="bold"',
            )
        )
    # Start holes (score 0, no LED).
    for start in layout.start_holes:
        colour = TRACK_COLOURS[start.track % 2]
        body += _drill_mark(start.x, start.y, r, colour, ' stroke-dasharray="0.6 0.4"')
        body.append(
            _text(
                start.x,
                start.y + r + 1.8,
                "R" if start.peg == "rear" else "F",
                1.6,
                extra=f' fill="{colour}"',
            )
        )
    for track in sorted({s.track for s in layout.start_holes}):
        pegs = [s for s in layout.start_holes if s.track == track]
        body.append(
            _text(
                sum(s.x for s in pegs) / len(pegs),
                pegs[0].y + r + 4.6,
                "START",
                1.8,
                extra=f' fill="{TRACK_COLOURS[track % 2]}"',
            )
        )
    # Scale bar: 50 mm in five 10 mm blocks.
    y0 = layout.height + 14
    for i in range(5):
        fill = "#000" if i % 2 == 0 else "#fff"
        body.append(
            f'<rect x="{_n(i * 10)}" y="{_n(y0)}" width="10" height="2" fill="{fill}" stroke="#000" '
            'stroke-width="0.15"/>'
        )
        body.append(_text(i * 10, y0 + 5, str(i * 10), 1.8))
    body.append(_text(50, y0 + 5, "50 mm", 1.8))
    body.append(
        _text(
            0,
            y0 + 9.5,
            "Check before drilling: this bar measures exactly 50 mm; the board "
            f"outline {_n(layout.width)} mm.",
            2.0,
            "start",
        )
    )
    body.append(
        _text(
            0,
            y0 + 13,
            "Generated from companion/board/layout.json by hardware/drawings.py: do not edit by hand.",
            1.8,
            "start",
            ' fill="#555"',
        )
    )
    return body


def board_svg(layout: Layout, fw: FirmwareFacts) -> str:
    _, _, w, h = SHEET
    return _svg(w, h, SHEET, board_body(layout, fw), f"Crib board drilling template ({layout.name})")


A4 = (210.0, 297.0)
TILE_OVERLAP_MM = 20.0


def tile_windows(layout: Layout, pages: int = 3) -> list[tuple[float, float]]:
    """(top, bottom) of the sheet, in board mm, shown on each page; consecutive pages overlap."""
    top, height = SHEET[1], SHEET[3]
    step = (height - TILE_OVERLAP_MM) / pages
    return [(top + i * step, top + i * step + step + TILE_OVERLAP_MM) for i in range(pages)]


def tile_svgs(layout: Layout, fw: FirmwareFacts) -> list[str]:
    """The full drawing on A4 pages at 1:1, with registration crosses in the overlap of each pair."""
    body = board_body(layout, fw)
    windows = tile_windows(layout)
    page_w, page_h = A4
    margin_x = (page_w - layout.width) / 2
    pages = []
    for index, (top, bottom) in enumerate(windows):
        if bottom - top > page_h - 12:
            raise DrawingError("a tile does not fit on an A4 page; use more pages")
        offset_y = 12.0 - top  # board y -> page y
        crosses = []
        for neighbour in (index - 1, index + 1):
            if not 0 <= neighbour < len(windows):
                continue
            lo = max(top, windows[neighbour][0])
            hi = min(bottom, windows[neighbour][1])
            for y in (lo + 4, hi - 4):
                for x in (-7.0, layout.width + 7):
                    crosses += [
                        _line(x - 3, y, x + 3, y, ' stroke="#000" stroke-width="0.15"'),
                        _line(x, y - 3, x, y + 3, ' stroke="#000" stroke-width="0.15"'),
                        f'<circle cx="{_n(x)}" cy="{_n(y)}" r="1.5" fill="none" stroke="#000" '
                        'stroke-width="0.15"/>',
                    ]
            edge = lo if neighbour > index else hi
            crosses.append(
                _line(
                    -12,
                    edge,
                    layout.width + 12,
                    edge,
                    ' stroke="#999" stroke-width="0.15" stroke-dasharray="1.5 1"',
                )
            )
        clip = (
            f'<clipPath id="page"><rect x="-12" y="{_n(top)}" width="{_n(layout.width + 24)}" '
            f'height="{_n(bottom - top)}"/></clipPath>'
        )
        content = [
            clip,
            f'<g transform="translate({_n(margin_x)} {_n(offset_y)})">',
            '<g clip-path="url(#page)">',
            *body,
            "</g>",
            *crosses,
            "</g>",
            _text(
                page_w / 2,
                page_h - 4,
                f"Page {index + 1} of {len(windows)}: print at 100 % on A4. Lay the "
                "pages so the registration crosses coincide (dashed line: edge of the other page).",
                2.4,
            ),
        ]
        pages.append(
            _svg(
                page_w,
                page_h,
                (0, 0, page_w, page_h),
                content,
                f"Crib board drilling template, page {index + 1} of {len(windows)}",
            )
        )
    return pages


# -------------------------------------------------------------------------------------------- tables


def holes_csv(layout: Layout) -> str:
    rows = ["track,hole,led,x_mm,y_mm"]
    for h in sorted(layout.holes, key=lambda h: (h.track, h.hole)):
        rows.append(f"{h.track},{h.hole},{h.led},{h.x:.2f},{h.y:.2f}")
    return "\n".join(rows) + "\n"


def chain_csv(layout: Layout) -> str:
    """The chain in strip order, with the length of wire from each LED's output to the next LED."""
    rows = ["led,track,hole,x_mm,y_mm,to_next_mm"]
    chain = layout.by_led()
    for here, after in zip(chain, [*chain[1:], None], strict=True):
        gap = "" if after is None else f"{math.hypot(after.x - here.x, after.y - here.y):.2f}"
        rows.append(f"{here.led},{here.track},{here.hole},{here.x:.2f},{here.y:.2f},{gap}")
    return "\n".join(rows) + "\n"


@dataclass(frozen=True)
class Wire:
    control: str
    signal: str
    bcm: int

    @property
    def header_pin(self) -> int:
        return BCM_HEADER[self.bcm]


def gpio_wires(pins: ControlPins) -> list[Wire]:
    wires = []
    for player, p in enumerate(pins.players):
        wires += [
            Wire(f"player {player} knob", "A", p.knob_a),
            Wire(f"player {player} knob", "B", p.knob_b),
            Wire(f"player {player} knob", "push", p.knob_press),
            Wire(f"player {player} muggins", "button", p.muggins),
        ]
    wires.append(Wire("undo (hold: new game)", "button", pins.undo))
    return wires


def gpio_csv(pins: ControlPins) -> str:
    rows = ["control,signal,bcm_gpio,header_pin,other_side"]
    for wire in gpio_wires(pins):
        rows.append(f"{wire.control},{wire.signal},{wire.bcm},{wire.header_pin},GND")
    return "\n".join(rows) + "\n"


# -------------------------------------------------------------------------------------------- wiring


def _box(x: float, y: float, w: float, h: float, title: str, fill: str) -> list[str]:
    return [
        f'<rect x="{_n(x)}" y="{_n(y)}" width="{_n(w)}" height="{_n(h)}" rx="2" fill="{fill}" '
        'stroke="#333" stroke-width="0.4"/>',
        _text(x + w / 2, y + 6, title, 4.0, extra=' font-weight="bold"'),
    ]


def wiring_svg(layout: Layout, fw: FirmwareFacts, pins: ControlPins) -> str:
    """A block wiring diagram (mm units, printable on A4 landscape)."""
    body: list[str] = []
    wire = ' stroke-width="0.6" fill="none"'
    red, black, green, blue = "#d00000", "#222", CHAIN_COLOUR, "#1f5fbf"
    body.append(_text(5, 9, "Crib board wiring", 4.6, "start", ' font-weight="bold"'))
    body.append(
        _text(
            5,
            14,
            "Generated from the firmware's data pin and the layout, with its GPIO pins.",
            2.8,
            "start",
        )
    )
    # Raspberry Pi with the header pins in use.
    wires = gpio_wires(pins)
    pi_h = 24 + 6.5 * (len(wires) + 1)
    body += _box(5, 18, 92, pi_h, "Raspberry Pi (40-pin header)", "#e9f5e9")
    body.append(_text(9, 31, "signal", 3.0, "start", ' font-weight="bold"'))
    body.append(_text(67, 31, "BCM", 3.0, "end", ' font-weight="bold"'))
    body.append(_text(82, 31, "pin", 3.0, "end", ' font-weight="bold"'))
    y = 37.5
    for w in wires:
        body.append(_text(9, y, f"{w.control} {w.signal}", 2.8, "start"))
        body.append(_text(67, y, f"GPIO{w.bcm}", 2.8, "end"))
        body.append(_text(82, y, str(w.header_pin), 2.8, "end"))
        body.append(_line(97, y - 1, 128, y - 1, f' stroke="{blue}"{wire}'))
        y += 6.5
    body.append(
        _text(9, y, "ground (any of pins " + ", ".join(str(p) for p in HEADER_GROUND) + ")", 2.8, "start")
    )
    body.append(_line(97, y - 1, 128, y - 1, f' stroke="{black}"{wire}'))
    # Controls.
    cy = 18
    body += _box(128, cy, 72, pi_h, "Knobs and buttons", "#eef3fb")
    ty = 31.0
    notes = [
        "Every switch: GPIO pin to GND;",
        "the Pi's internal pull-ups are used,",
        "so no resistors and no 3.3 V/5 V wire.",
        "",
        "Knob = rotary encoder with push switch",
        "(EC11 type): A and B to their pins,",
        "C (middle) to GND; the switch: one leg",
        "to 'push', the other to GND.",
        "",
        "Buttons: momentary, normally open.",
        "Hold undo (hold_for_new_game in the settings): a new game.",
        "",
        "A KY-040 style module has its own",
        "pull-ups: feed its + from 3.3 V (pin 1",
        "or 17), never 5 V.",
    ]
    for line in notes:
        body.append(_text(132, ty, line, 2.8, "start"))
        ty += 4.6
    # USB to the Nano.
    ny = 18 + pi_h + 14
    body += _box(5, ny, 92, 44, "Arduino Nano (ATmega328P)", "#eef3fb")
    body.append(_text(9, ny + 14, "USB: to a USB port of the Pi (power, serial)", 2.8, "start"))
    body.append(
        _text(9, ny + 21, f"{fw.nano_pin} (P{fw.data_port}{fw.data_bit}): LED data out", 2.8, "start")
    )
    body.append(_text(9, ny + 28, "GND: to the LED supply's GND (common ground)", 2.8, "start"))
    body.append(_text(9, ny + 35, "5V / VIN: not connected to the LED supply", 2.8, "start"))
    body.append(_line(51, 18 + pi_h, 51, ny, f' stroke="{black}" stroke-width="1.2" stroke-dasharray="2 1"'))
    body.append(_text(53, 18 + pi_h + 8, "USB cable (the Nano's port: /dev/ttyUSB0)", 2.8, "start"))
    # Data line through the resistor to LED 0.
    chain = layout.by_led()
    strip_x = 135
    body.append(_line(97, ny + 20, 112, ny + 20, f' stroke="{green}"{wire}'))
    body.append(
        f'<rect x="112" y="{_n(ny + 18)}" width="10" height="4" fill="#fff" stroke="#333" '
        'stroke-width="0.4"/>'
    )
    body.append(_text(117, ny + 16.5, f"{DATA_RESISTOR_OHM} \u03a9", 2.8))
    body.append(_text(117, ny + 27, "at the LED end", 2.4))
    body.append(_line(122, ny + 20, strip_x, ny + 20, f' stroke="{green}"{wire}'))
    body.append(_line(97, ny + 27, 104, ny + 27, f' stroke="{black}"{wire}'))
    body.append(_line(104, ny + 27, 104, ny + 72, f' stroke="{black}"{wire}'))
    body.append(f'<circle cx="104" cy="{_n(ny + 72)}" r="1" fill="{black}"/>')
    # The LED chain and its feed points.
    sy = ny
    body += _box(strip_x, sy, 65, 78, f"LED chain: {layout.led_count} WS2812B", "#fdf3e6")
    feeds = feed_points(layout)
    ly = sy + 14
    body.append(
        _text(strip_x + 4, ly, f"DIN of LED 0 = track {chain[0].track} hole {chain[0].hole}", 2.8, "start")
    )
    ly += 6
    body.append(_text(strip_x + 4, ly, "5 V and GND fed at (all at the", 2.8, "start"))
    ly += 4.6
    body.append(_text(strip_x + 4, ly, "bottom edge of the board):", 2.8, "start"))
    for feed in feeds:
        ly += 4.6
        body.append(_text(strip_x + 6, ly, f"\u2022 {feed}", 2.6, "start"))
    ly += 7
    body.append(_text(strip_x + 4, ly, "5 V and GND bus wires run along", 2.8, "start"))
    ly += 4.6
    body.append(_text(strip_x + 4, ly, "every column, joined at each street.", 2.8, "start"))
    # The supply.
    py = ny + 52
    body += _box(5, py, 92, 40, "LED supply: 5 V, 3 A", "#fbeaea")
    body.append(_text(9, py + 14, "+5 V \u2192 3 A fuse \u2192 board's 5 V bus", 2.8, "start"))
    body.append(_text(9, py + 21, "GND \u2192 board's GND bus and the Nano's GND", 2.8, "start"))
    body.append(_text(9, py + 28, f"{RESERVOIR_UF} \u00b5F / 10 V across 5 V-GND at LED 0", 2.8, "start"))
    body.append(_text(9, py + 35, f"Firmware cap: {fw.cap_ma} mA for the whole chain", 2.8, "start"))
    body.append(_line(97, py + 13, strip_x, py + 13, f' stroke="{red}" stroke-width="1.0" fill="none"'))
    body.append(_line(97, py + 20, strip_x, py + 20, f' stroke="{black}" stroke-width="1.0" fill="none"'))
    body.append(_text(116, py + 11.5, "18 AWG", 2.6))
    # Capacitor symbol between the two feed lines.
    cx = 126
    body += [
        _line(cx, py + 13, cx, py + 15.6, f' stroke="{black}" stroke-width="0.4"'),
        _line(cx - 2.5, py + 15.6, cx + 2.5, py + 15.6, f' stroke="{black}" stroke-width="0.5"'),
        _line(cx - 2.5, py + 17.2, cx + 2.5, py + 17.2, f' stroke="{black}" stroke-width="0.5"'),
        _line(cx, py + 17.2, cx, py + 20, f' stroke="{black}" stroke-width="0.4"'),
        _text(cx + 3.5, py + 15.4, "+", 2.4, "start"),
    ]
    body.append(
        _text(
            5,
            py + 50,
            "The Pi has its own USB-C supply (5.1 V, 3 A). Power the LED supply and the Pi up together.",
            2.8,
            "start",
        )
    )
    height = py + 56
    return _svg(210, height, (0, 0, 210, height), body, "Crib board wiring")


def feed_holes(layout: Layout) -> list[Hole]:
    """Where 5 V and GND are fed in: the foot of every column, where the chain meets the bottom row."""
    bottom = max(h.y for h in layout.holes if h.hole <= 120)
    return [h for h in layout.by_led() if math.isclose(h.y, bottom)]


def feed_points(layout: Layout) -> list[str]:
    return [f"LED {h.led} (track {h.track} hole {h.hole})" for h in feed_holes(layout)]


def strip_plan(layout: Layout, pitch_mm: float = 6.35) -> tuple[Counter[int], Counter[float]]:
    """Pieces of strip (LEDs in a row at one pitch) and the wire links between them, by length."""
    chain = layout.by_led()
    pieces: Counter[int] = Counter()
    links: Counter[float] = Counter()
    run = 1
    for here, after in itertools.pairwise(chain):
        gap = round(math.hypot(after.x - here.x, after.y - here.y), 2)
        if math.isclose(gap, pitch_mm, abs_tol=0.05):
            run += 1
        else:
            pieces[run] += 1
            links[gap] += 1
            run = 1
    pieces[run] += 1
    return pieces, links


# ------------------------------------------------------------------------------------- power and camera


def level(c: int, k: int) -> int:
    """The firmware's channel value at brightness k: round(c * k / 255) (board.c, board_level)."""
    return (c * k + 127) // 255


def frame_ma(fw: FirmwareFacts, leds: int, lit: Iterable[tuple[str, int]]) -> float:
    """The firmware's current estimate of a frame: ``lit`` is (RRGGBB, brightness level) per lit LED."""
    total = fw.idle_ma_per_led * leds
    for colour, k in lit:
        channels = [int(colour[i : i + 2], 16) for i in (0, 2, 4)]
        total += sum(fw.full_ma_per_channel * level(c, k) / 255 for c in channels)
    return total


@dataclass(frozen=True)
class PowerCase:
    what: str
    estimate_ma: float

    def sent_ma(self, cap: int) -> float:
        return min(self.estimate_ma, float(cap))


def power_cases(layout: Layout, fw: FirmwareFacts) -> list[PowerCase]:
    b = fw.brightness
    rear = (b + 3) // 4
    n = layout.led_count
    holes = len([h for h in layout.holes if h.track == 0])
    c0, c1 = fw.colours
    white = "FFFFFF"
    return [
        PowerCase("all dark (pegs in the start holes)", frame_ma(fw, n, [])),
        PowerCase(
            f"a game, default colours, brightness {b}: two forward and two rear pegs",
            frame_ma(fw, n, [(c0, b), (c0, rear), (c1, b), (c1, rear)]),
        ),
        PowerCase("a game at brightness 255", frame_ma(fw, n, [(c0, 255), (c0, 64), (c1, 255), (c1, 64)])),
        PowerCase("self-test at brightness 255 (one LED white at a time)", frame_ma(fw, n, [(white, 255)])),
        PowerCase(
            f"win animation, track 0's colour at 255 (all {holes} holes lit)",
            frame_ma(fw, n, [(c0, 255)] * holes),
        ),
        PowerCase(
            "win animation in white at 255 (worst frame the firmware can draw)",
            frame_ma(fw, n, [(white, 255)] * holes),
        ),
        PowerCase(
            "every LED full white (no firmware in control, e.g. a bad data line)",
            frame_ma(fw, n, [(white, 255)] * n),
        ),
    ]


#: What each link length of the current layout bridges (for the cutting list's last column).
LINK_WHERE = {
    10.0: "across the top of a track, and between the two game holes",
    12.7: "a street gap",
    18.0: "from the foot of an inside column to its game hole",
}

#: Copper resistance, ohm per metre, of the wire sizes the text recommends.
AWG_OHM_PER_M = {16: 0.0132, 18: 0.0210, 20: 0.0333, 22: 0.0530}


def drop_mv(awg: int, length_m: float, current_a: float) -> float:
    """Voltage lost in a supply cable of this length (out and back) at this current, in millivolts."""
    return 2 * length_m * AWG_OHM_PER_M[awg] * current_a * 1000


@dataclass(frozen=True)
class Camera:
    name: str
    hfov_deg: float
    vfov_deg: float


CAMERAS = (
    Camera("Raspberry Pi Camera Module 3", 66.0, 41.0),
    Camera("Raspberry Pi Camera Module 3 Wide", 102.0, 67.0),
    Camera("USB webcam, 70\u00b0 across (16:9)", 70.0, 43.0),
)
#: The capture sizes the frame sources can ask for (companion.vision.sources defaults to 1280x720).
CAPTURES = ((1280, 720), (1920, 1080), (2304, 1296))
#: Assumptions for the camera's geometry (stated in figures.md).
PLAY_AREA_MM = (800.0, 450.0)  # across the table between the players, and from one player to the other
CARD_WIDTH_MM = 63.5  # a poker-size card (bridge size: 57 mm)
RANK_GLYPH_MM = 6.0  # height of the rank character of a poker-size card's index
#: Card width in pixels in the frames recognition is benchmarked on (benchmarks/bench_vision.py: six
#: cards 110 px wide in a 1280x720 frame); the scale the camera must give at least.
BENCH_CARD_PX = 110.0
MIN_MARK_PX = 6.0  # the smallest ink mark companion/vision/index.py accepts as a rank or suit


def px_per_mm_needed() -> float:
    return BENCH_CARD_PX / CARD_WIDTH_MM


def camera_rows() -> list[tuple[str, ...]]:
    """For each capture size and lens: the height that shows the whole play area, and the scale it gives."""
    rows: list[tuple[str, ...]] = []
    for w_px, h_px in CAPTURES:
        for cam in CAMERAS:
            tan_h = math.tan(math.radians(cam.hfov_deg / 2))
            tan_v = math.tan(math.radians(cam.vfov_deg / 2))
            height = max((PLAY_AREA_MM[0] / 2) / tan_h, (PLAY_AREA_MM[1] / 2) / tan_v)
            seen_w = 2 * height * tan_h
            scale = w_px / seen_w
            card = CARD_WIDTH_MM * scale
            verdict = "as benchmarked or finer" if card >= BENCH_CARD_PX - 0.5 else "coarser than benchmarked"
            rows.append(
                (
                    f"{w_px}x{h_px}",
                    cam.name,
                    f"{height / 10:.0f} cm",
                    f"{seen_w / 10:.0f} cm",
                    f"{card:.0f} px",
                    f"{RANK_GLYPH_MM * scale:.1f} px",
                    verdict,
                )
            )
    return rows


def figures_md(layout: Layout, fw: FirmwareFacts) -> str:
    cases = power_cases(layout, fw)
    cap = fw.cap_ma
    pieces, links = strip_plan(layout)
    lines = [
        "# Worked figures: power and camera",
        "",
        "Generated by `hardware/drawings.py` from `companion/board/layout.json` and the firmware's sources;",
        "do not edit by hand. `hardware/README.md` explains what to do with them.",
        "",
        "## Power budget of the LED chain",
        "",
        "The firmware's current model (`board_cap()` in `firmware/src/board.c`): "
        f"{_n(fw.idle_ma_per_led)} mA per LED when dark, plus {_n(fw.full_ma_per_channel)} mA x value/255",
        "for each of red, green and blue. Before each frame goes out it scales the frame down to fit its cap "
        f"of **{cap} mA**",
        f"(`CAP_MA` in `firmware/Makefile`). Default brightness {fw.brightness}, default colours "
        f"#{fw.colours[0]} (track 0) and #{fw.colours[1]} (track 1);",
        "a rear peg is drawn at a quarter of the brightness.",
        "",
        "| frame | estimate | drawn (after the cap) |",
        "|---|---:|---:|",
    ]
    for case in cases[:-1]:
        lines.append(f"| {case.what} | {case.estimate_ma:.0f} mA | {case.sent_ma(cap):.0f} mA |")
    worst = cases[-1]
    lines += [
        f"| {worst.what} | {worst.estimate_ma:.0f} mA | not capped: the supply must limit it |",
        "",
        f"So the chain draws at most **{cap / 1000:.1f} A** while the firmware runs, and "
        f"{cases[1].estimate_ma:.0f} mA in a normal game.",
        "A **5 V, 3 A** supply (15 W) leaves the cap a 2x margin for LEDs that draw more than the model",
        "says; pick one with short-circuit and over-current protection, and put a **3 A fuse** in its +5 V",
        "lead: with no firmware in control a full-white chain would ask for "
        f"{worst.estimate_ma / 1000:.1f} A.",
        "",
        "Voltage lost in the cable from the supply to the board, out and back, at the cap "
        f"({cap / 1000:.1f} A):",
        "",
        "| wire | 0.5 m | 1 m | 2 m |",
        "|---|---:|---:|---:|",
    ]
    for awg in sorted(AWG_OHM_PER_M, reverse=True):
        drops = " | ".join(f"{drop_mv(awg, m, cap / 1000):.0f} mV" for m in (0.5, 1.0, 2.0))
        lines.append(f"| {awg} AWG ({AWG_OHM_PER_M[awg] * 1000:.1f} m\u03a9/m) | {drops} |")
    lines += [
        "",
        "WS2812B LEDs work from 4.5 V; keep the drop under about 0.3 V: **18 AWG (0.75-1 mm\u00b2)** from",
        "the supply to the board for runs up to 2 m, **20 AWG** for the 5 V and GND buses along the columns,",
        "thin wire (26-28 AWG) for the data jumpers between streets.",
        "",
        "Feed points: the foot of each column, where the chain meets the bottom row (the two game holes",
        "between them take their power through the chain's short link):",
        "",
        *[f"- {p}" for p in feed_points(layout)],
        "",
        "## Cutting the strip",
        "",
        "The chain in pieces of LEDs at the street pitch (6.35 mm), and the wire links between the pieces,",
        "from `chain.csv` (a link carries 5 V, GND and data out -> data in):",
        "",
        "| piece | count |",
        "|---|---:|",
        *[
            f"| {n} LED{'s' if n > 1 else ''} | {count} |"
            for n, count in sorted(pieces.items(), reverse=True)
        ],
        "",
        "| link, centre to centre | count | where |",
        "|---|---:|---|",
        *[
            f"| {length:.1f} mm | {count} | {LINK_WHERE.get(round(length, 1), '')} |"
            for length, count in sorted(links.items())
        ],
        "",
        "## Camera: height and lens",
        "",
        "Assumptions (change them in `hardware/drawings.py` and regenerate):",
        "",
        f"- the camera looks straight down on a play area of {PLAY_AREA_MM[0] / 10:.0f} x "
        f"{PLAY_AREA_MM[1] / 10:.0f} cm (the first across the table, the second from one",
        "  player to the other): both play rows, the deck and the crib;",
        f"- cards are poker size, {_n(CARD_WIDTH_MM)} mm wide, with a rank character about "
        f"{_n(RANK_GLYPH_MM)} mm tall;",
        "- the camera must give at least the scale recognition is benchmarked at: "
        f"`benchmarks/bench_vision.py` reads frames with cards {BENCH_CARD_PX:.0f} px wide,",
        f"  that is **{px_per_mm_needed():.2f} px per mm** of table, which makes the rank character about "
        f"{RANK_GLYPH_MM * px_per_mm_needed():.0f} px tall",
        f"  (the smallest ink mark `companion/vision/index.py` accepts is {MIN_MARK_PX:.0f} px).",
        "",
        "The height is what it takes to see the whole play area with the lens; the card and glyph sizes are",
        "what the capture then gives.",
        "",
        "| capture | camera | height above the table | width seen | card width | rank glyph | scale |",
        "|---|---|---:|---:|---:|---:|---|",
    ]
    for row in camera_rows():
        lines.append("| " + " | ".join(row) + " |")
    need = px_per_mm_needed()
    standard = CAMERAS[0]
    lines += [
        "",
        f"The largest area each capture size covers at {need:.2f} px per mm, and the height that gives it "
        f"with the {standard.name}:",
        "",
        "| capture | largest area | height |",
        "|---|---:|---:|",
    ]
    for w_px, h_px in CAPTURES:
        width, depth = w_px / need, h_px / need
        height = (width / 2) / math.tan(math.radians(standard.hfov_deg / 2))
        lines.append(f"| {w_px}x{h_px} | {width / 10:.0f} x {depth / 10:.0f} cm | {height / 10:.0f} cm |")
    lines += [
        "",
        "At 1280x720 (the frame sources' default) a camera that sees the whole play area gives cards a",
        "little under the benchmarked size; watch the slightly smaller area above, or capture at 1920x1080.",
        f"Bridge-size cards (57 mm) need {BENCH_CARD_PX / 57:.2f} px per mm for the same card width.",
        "",
    ]
    return "\n".join(lines)


# ---------------------------------------------------------------------------------------------- main


def outputs() -> dict[str, str]:
    """Every generated file's name and its full text."""
    layout = load_layout()
    fw = read_firmware()
    pins = layout.pins
    files = {
        "board.svg": board_svg(layout, fw),
        "wiring.svg": wiring_svg(layout, fw, pins),
        "holes.csv": holes_csv(layout),
        "chain.csv": chain_csv(layout),
        "gpio.csv": gpio_csv(pins),
        "figures.md": figures_md(layout, fw),
    }
    for index, page in enumerate(tile_svgs(layout, fw), start=1):
        files[f"board-a4-{index}.svg"] = page
    return files


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument(
        "--check", action="store_true", help="only compare with the files in hardware/generated"
    )
    parser.add_argument(
        "--out", type=Path, default=OUT, help="folder to write to (default: hardware/generated)"
    )
    args = parser.parse_args(argv)
    try:
        files = outputs()
    except (DrawingError, KeyError, ValueError) as error:
        print(f"drawings: {error}", file=sys.stderr)
        return 1
    if args.check:
        stale = [
            name
            for name, text in files.items()
            if not (args.out / name).is_file() or (args.out / name).read_text(encoding="utf-8") != text
        ]
        for name in stale:
            print(
                f"drawings: {args.out / name} is out of date; run python3 hardware/drawings.py",
                file=sys.stderr,
            )
        return 1 if stale else 0
    args.out.mkdir(parents=True, exist_ok=True)
    for name, text in files.items():
        (args.out / name).write_text(text, encoding="utf-8")
    print(f"drawings: wrote {len(files)} files to {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
