"""The board layout file is consistent and is exactly what its generator writes.

The firmware's hole -> LED table, the virtual board and the drawings all come from this one file, so a
mistake here would light the wrong hole everywhere at once; these checks are the board's wiring check.
"""

from __future__ import annotations

import importlib.util
import itertools
import json
import math
from collections import Counter
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

HARDWARE = Path(__file__).resolve().parents[2] / "hardware"
LAYOUT_FILE = Path(__file__).resolve().parents[2] / "companion" / "board" / "layout.json"


def _generator() -> ModuleType:
    spec = importlib.util.spec_from_file_location("make_layout", HARDWARE / "make_layout.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def layout() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(LAYOUT_FILE.read_text(encoding="utf-8"))
    return data


def test_schema_header(layout: dict[str, Any]) -> None:
    assert list(layout) == [
        "version",
        "name",
        "tracks",
        "holes_per_track",
        "led_count",
        "size_mm",
        "notes",
        "holes",
        "start_holes",
        "gpio",
    ]
    assert layout["version"] == 1
    assert layout["tracks"] == 2
    assert layout["holes_per_track"] == 121
    assert layout["led_count"] == 242
    assert len(layout["holes"]) == 242


def test_every_hole_of_every_track_has_exactly_one_entry(layout: dict[str, Any]) -> None:
    seen = Counter((entry["track"], entry["hole"]) for entry in layout["holes"])
    assert set(seen) == {(track, hole) for track in (0, 1) for hole in range(1, 122)}
    assert max(seen.values()) == 1


def test_every_led_is_used_once(layout: dict[str, Any]) -> None:
    leds = [entry["led"] for entry in layout["holes"]]
    assert sorted(leds) == list(range(242))


def test_positions_are_distinct_and_on_the_board(layout: dict[str, Any]) -> None:
    width, height = layout["size_mm"]
    points = [(e["x_mm"], e["y_mm"]) for e in layout["holes"]]
    points += [(s["x_mm"], s["y_mm"]) for s in layout["start_holes"]]
    assert len(set(points)) == len(points)
    margin = 3.0  # no hole closer than this to the board's edge
    for x, y in points:
        assert margin <= x <= width - margin and margin <= y <= height - margin
    closest = min(math.dist(a, b) for i, a in enumerate(points) for b in points[i + 1 :])
    assert closest >= 5.0  # room for a 5 mm LED under every hole


def test_start_holes_are_a_rear_and_forward_pair_per_track(layout: dict[str, Any]) -> None:
    pairs = sorted((s["track"], s["peg"]) for s in layout["start_holes"])
    assert pairs == [(0, "forward"), (0, "rear"), (1, "forward"), (1, "rear")]


def _at(layout: dict[str, Any], track: int, hole: int) -> tuple[float, float]:
    (entry,) = [e for e in layout["holes"] if e["track"] == track and e["hole"] == hole]
    return entry["x_mm"], entry["y_mm"]


@pytest.mark.parametrize("track", [0, 1])
def test_read_up_the_outside_and_down_the_inside(layout: dict[str, Any], track: int) -> None:
    width = layout["size_mm"][0]
    up = [_at(layout, track, hole) for hole in range(1, 61)]
    down = [_at(layout, track, hole) for hole in range(61, 121)]
    assert len({x for x, _ in up}) == 1 and len({x for x, _ in down}) == 1
    outside_x, inside_x = up[0][0], down[0][0]
    # The outside column is nearer the board's edge than the inside one.
    assert min(outside_x, width - outside_x) < min(inside_x, width - inside_x)
    assert all(b[1] < a[1] for a, b in itertools.pairwise(up))  # y shrinks going up
    assert all(b[1] > a[1] for a, b in itertools.pairwise(down))
    assert up[-1][1] == down[0][1]  # 60 and 61 face each other across the top
    game = _at(layout, track, 121)
    assert game[1] > down[-1][1]  # the game hole lies beyond hole 120


@pytest.mark.parametrize("track", [0, 1])
def test_streets_of_five_show_as_gaps(layout: dict[str, Any], track: int) -> None:
    for start in (1, 61):
        column = [_at(layout, track, hole) for hole in range(start, start + 60)]
        steps = [round(abs(b[1] - a[1]), 2) for a, b in itertools.pairwise(column)]
        within = {step for index, step in enumerate(steps) if (index + 1) % 5}
        between = {step for index, step in enumerate(steps) if (index + 1) % 5 == 0}
        assert len(within) == 1 and len(between) == 1
        assert min(between) > 1.5 * max(within)


def test_led_chain_is_a_serpentine_of_short_steps(layout: dict[str, Any]) -> None:
    by_led = sorted(layout["holes"], key=lambda e: e["led"])
    steps = [math.dist((a["x_mm"], a["y_mm"]), (b["x_mm"], b["y_mm"])) for a, b in itertools.pairwise(by_led)]
    assert max(steps) <= 20.0  # no long jumps: the strip can be wired hole to hole
    assert (by_led[0]["track"], by_led[0]["hole"]) == (0, 1)


def test_generator_reproduces_the_committed_file(tmp_path: Path) -> None:
    generator = _generator()
    committed = LAYOUT_FILE.read_text(encoding="utf-8")
    assert generator.render(generator.build()) == committed
    out = tmp_path / "layout.json"
    assert generator.main(["make_layout.py", str(out)]) == 0
    assert out.read_text(encoding="utf-8") == committed


# --- the companion's reader ---------------------------------------------------------------------------


def test_the_reader_loads_the_layout_and_looks_holes_up_both_ways() -> None:
    from companion.board.layout import Layout

    board = Layout.load()
    assert (board.tracks, board.holes_per_track, board.led_count) == (2, 121, 242)
    assert board.size_mm == (90.0, 500.0)
    for hole in board.holes:
        assert board.at_led(hole.led) == hole
        assert board.hole(hole.track, hole.hole) == hole
    with pytest.raises(LookupError, match="no hole 122 on track 0"):
        board.hole(0, 122)
    with pytest.raises(LookupError, match="no LED 242"):
        board.at_led(242)


def test_the_reader_refuses_an_inconsistent_layout(tmp_path: Path, layout: dict[str, Any]) -> None:
    from companion.board.layout import Layout, LayoutError

    twice = json.loads(json.dumps(layout))
    twice["holes"][1]["led"] = twice["holes"][0]["led"]
    missing = json.loads(json.dumps(layout))
    del missing["holes"][5]
    for broken, message in ((twice, "each LED"), (missing, "every hole")):
        path = tmp_path / "layout.json"
        path.write_text(json.dumps(broken), encoding="utf-8")
        with pytest.raises(LayoutError, match=message):
            Layout.load(path)
    (tmp_path / "bad.json").write_text("{", encoding="utf-8")
    with pytest.raises(LayoutError, match="not valid JSON"):
        Layout.load(tmp_path / "bad.json")
    (tmp_path / "short.json").write_text('{"version": 1}', encoding="utf-8")
    with pytest.raises(LayoutError, match="name"):
        Layout.load(tmp_path / "short.json")
