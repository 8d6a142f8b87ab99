"""The board's layout, read from ``layout.json`` beside this module: every hole, its LED, the GPIO pins.

The same file generates the firmware's hole -> LED table and the builder's drawings, so the companion
never keeps a copy of the wiring of its own: the virtual board, the SVG, the terminal drawing and the
default pins of the knobs and buttons all come from this one source.  It ships inside the package
because the installed companion reads it at run time; ``hardware/make_layout.py`` writes it.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

#: Environment variable naming another layout file (for an installed package, or another board).
LAYOUT_ENV = "CRIB_LAYOUT"
#: The layout file shipped in the package (written by ``hardware/make_layout.py``).
DEFAULT_PATH = Path(__file__).resolve().with_name("layout.json")


class LayoutError(ValueError):
    """The layout file is missing a field or contradicts itself."""


@dataclass(frozen=True)
class Hole:
    """One scoring hole: ``hole`` 1..121 of ``track``, its centre in mm (y down) and its LED."""

    track: int
    hole: int
    x_mm: float
    y_mm: float
    led: int


@dataclass(frozen=True)
class StartHole:
    """One of the two start holes of a track (score 0); it has no LED."""

    track: int
    peg: str  # "rear" or "forward"
    x_mm: float
    y_mm: float


@dataclass(frozen=True)
class Layout:
    """The whole board.  Load it with :meth:`Layout.load`; look holes up by track and hole or by LED."""

    name: str
    tracks: int
    holes_per_track: int
    led_count: int
    size_mm: tuple[float, float]
    notes: str
    holes: tuple[Hole, ...]
    start_holes: tuple[StartHole, ...]
    gpio: dict[str, Any] = field(default_factory=dict, compare=False)
    """The Pi's BCM pin of every knob and button, as the config file's ``[gpio]`` section writes them
    (``player0 = [A, B, press, muggins]``, ..., ``undo``); empty for a board file that names none."""
    _by_hole: dict[tuple[int, int], Hole] = field(init=False, repr=False, compare=False)
    _by_led: dict[int, Hole] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        expected = {(t, h) for t in range(self.tracks) for h in range(1, self.holes_per_track + 1)}
        found = [(hole.track, hole.hole) for hole in self.holes]
        if len(found) != len(set(found)) or set(found) != expected:
            raise LayoutError("the layout does not list every hole of every track exactly once")
        leds = sorted(hole.led for hole in self.holes)
        if leds != list(range(self.led_count)):
            raise LayoutError(f"the layout does not use each LED 0..{self.led_count - 1} exactly once")
        # Lookup tables, built once (the value stays frozen from the outside).
        object.__setattr__(self, "_by_hole", {(hole.track, hole.hole): hole for hole in self.holes})
        object.__setattr__(self, "_by_led", {hole.led: hole for hole in self.holes})

    def hole(self, track: int, hole: int) -> Hole:
        """Hole ``hole`` (1..121) of ``track``."""
        try:
            return self._by_hole[track, hole]
        except KeyError:
            raise LookupError(f"there is no hole {hole} on track {track}") from None

    def led(self, track: int, hole: int) -> int:
        """The chain index of the LED under a hole."""
        return self.hole(track, hole).led

    def at_led(self, led: int) -> Hole:
        """The hole above LED ``led``."""
        try:
            return self._by_led[led]
        except KeyError:
            raise LookupError(f"there is no LED {led} on this board") from None

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Layout:
        """A layout from the parsed JSON (the schema of ``companion/board/layout.json``)."""
        try:
            if data["version"] != 1:
                raise LayoutError(f"layout version {data['version']} is not 1")
            return cls(
                name=str(data["name"]),
                tracks=int(data["tracks"]),
                holes_per_track=int(data["holes_per_track"]),
                led_count=int(data["led_count"]),
                size_mm=(float(data["size_mm"][0]), float(data["size_mm"][1])),
                notes=str(data.get("notes", "")),
                holes=tuple(
                    Hole(int(h["track"]), int(h["hole"]), float(h["x_mm"]), float(h["y_mm"]), int(h["led"]))
                    for h in data["holes"]
                ),
                start_holes=tuple(
                    StartHole(int(s["track"]), str(s["peg"]), float(s["x_mm"]), float(s["y_mm"]))
                    for s in data["start_holes"]
                ),
                gpio=dict(data.get("gpio", {})),
            )
        except (KeyError, TypeError, IndexError) as error:
            raise LayoutError(f"the layout lacks or mangles the field {error}") from None

    @classmethod
    def load(cls, path: str | os.PathLike[str] | None = None) -> Layout:
        """Read a layout file: ``path``, else ``$CRIB_LAYOUT``, else the layout shipped in the package."""
        if path is None:
            return default_layout()
        target = Path(path)
        try:
            data = json.loads(target.read_text(encoding="utf-8"))
        except json.JSONDecodeError as error:
            raise LayoutError(f"{target} is not valid JSON ({error})") from None
        return cls.from_dict(data)


@cache
def default_layout() -> Layout:
    """The board's layout, read once: ``$CRIB_LAYOUT`` if set, else the package's ``layout.json``."""
    return Layout.load(os.environ.get(LAYOUT_ENV) or DEFAULT_PATH)
