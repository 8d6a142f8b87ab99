"""The board's drawings and tables agree with the layout file, the firmware and the companion's pins.

A builder drills by ``board.svg``, solders by ``chain.csv`` and wires by ``wiring.svg``/``gpio.csv``; if
any of them disagreed with the layout file (``companion/board/layout.json``) or with the firmware's table,
a hole would light the wrong LED on a finished board. So each check here reads the generated file back as
a builder would (the SVG's circles and labels, the CSV's rows) and compares it with the sources,
independently of the generator's own code.
"""

from __future__ import annotations

import csv
import importlib.util
import io
import itertools
import json
import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
HARDWARE = ROOT / "hardware"
LAYOUT_FILE = ROOT / "companion" / "board" / "layout.json"
GENERATED = HARDWARE / "generated"
FIRMWARE = ROOT / "firmware"
SVG = "{http://www.w3.org/2000/svg}"


def _drawings() -> ModuleType:
    spec = importlib.util.spec_from_file_location("hardware_drawings", HARDWARE / "drawings.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up while the file runs
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def drawings() -> ModuleType:
    return _drawings()


@pytest.fixture(scope="module")
def layout() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(LAYOUT_FILE.read_text(encoding="utf-8"))
    return data


@pytest.fixture(scope="module")
def board_svg() -> ET.Element:
    return ET.parse(GENERATED / "board.svg").getroot()


def _read_csv(name: str) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO((GENERATED / name).read_text(encoding="utf-8"))))


def _firmware_table() -> list[list[int]]:
    """LAYOUT_TABLE[track][hole - 1] as the firmware is built with it.

    ``scripts/test.sh`` builds ``firmware/build/layout_table.h`` before the tests; when this file runs on
    its own the header is produced the same way, by the firmware's generator.
    """
    header = FIRMWARE / "build" / "layout_table.h"
    if header.is_file():
        text = header.read_text(encoding="utf-8")
    else:
        text = subprocess.run(
            [sys.executable, str(FIRMWARE / "tools" / "gen_layout.py"), str(LAYOUT_FILE)],
            check=True,
            capture_output=True,
            text=True,
        ).stdout
    body = text[text.index("#define LAYOUT_TABLE {") :]
    rows = re.findall(r"\{([^{}]*)\}", body.replace("\\\n", "\n"))
    return [[int(v) for v in re.findall(r"\d+", row)] for row in rows]


# -------------------------------------------------------------------------------- regeneration


def test_committed_files_are_exactly_what_the_generator_writes(drawings: ModuleType) -> None:
    files = drawings.outputs()
    assert set(files) == {p.name for p in GENERATED.iterdir()}, (
        "hardware/generated holds a stray or missing file"
    )
    for name, text in files.items():
        assert (GENERATED / name).read_text(encoding="utf-8") == text, (
            f"hardware/generated/{name} is stale: run python3 hardware/drawings.py"
        )


def test_check_mode_passes_now_and_names_a_stale_file(tmp_path: Path) -> None:
    script = str(HARDWARE / "drawings.py")
    ok = subprocess.run([sys.executable, script, "--check"], capture_output=True, text=True)
    assert ok.returncode == 0, ok.stderr
    subprocess.run([sys.executable, script, "--out", str(tmp_path)], check=True, capture_output=True)
    (tmp_path / "holes.csv").write_text("track,hole,led\n", encoding="utf-8")
    stale = subprocess.run(
        [sys.executable, script, "--check", "--out", str(tmp_path)], capture_output=True, text=True
    )
    assert stale.returncode == 1
    assert "holes.csv is out of date" in stale.stderr
    assert "Traceback" not in stale.stderr


def test_a_broken_layout_is_one_sentence_not_a_traceback(
    drawings: ModuleType, tmp_path: Path, layout: dict[str, Any]
) -> None:
    broken = dict(layout)
    broken["holes"] = [dict(h) for h in layout["holes"]]
    broken["holes"][1]["led"] = broken["holes"][0]["led"]  # one LED under two holes
    path = tmp_path / "layout.json"
    path.write_text(json.dumps(broken), encoding="utf-8")
    with pytest.raises(drawings.DrawingError, match="exactly one hole"):
        drawings.load_layout(path)


# ------------------------------------------------------------------------------- the drawing


def test_the_drawing_is_in_millimetres_at_full_size(board_svg: ET.Element) -> None:
    width, height = board_svg.get("width", ""), board_svg.get("height", "")
    assert width.endswith("mm") and height.endswith("mm")
    _, _, view_w, view_h = (float(v) for v in board_svg.get("viewBox", "").split())
    assert float(width[:-2]) == pytest.approx(view_w)
    assert float(height[:-2]) == pytest.approx(view_h)


def test_the_board_outline_is_the_layout_size(board_svg: ET.Element, layout: dict[str, Any]) -> None:
    outline = board_svg.find(f"{SVG}rect")
    assert outline is not None
    assert (float(outline.get("width", "0")), float(outline.get("height", "0"))) == tuple(layout["size_mm"])


def _circles(root: ET.Element) -> list[tuple[float, float, float]]:
    return [
        (float(c.get("cx", "nan")), float(c.get("cy", "nan")), float(c.get("r", "nan")))
        for c in root.iter(f"{SVG}circle")
    ]


def _texts(root: ET.Element) -> list[tuple[float, float, str]]:
    return [
        (float(t.get("x", "nan")), float(t.get("y", "nan")), t.text or "") for t in root.iter(f"{SVG}text")
    ]


def test_every_hole_and_start_hole_is_drilled_where_the_layout_says(
    board_svg: ET.Element, layout: dict[str, Any]
) -> None:
    circles = {(round(x, 2), round(y, 2)): r for x, y, r in _circles(board_svg)}
    wanted = [(h["x_mm"], h["y_mm"]) for h in layout["holes"]] + [
        (s["x_mm"], s["y_mm"]) for s in layout["start_holes"]
    ]
    for x, y in wanted:
        assert (round(x, 2), round(y, 2)) in circles, f"no hole drawn at ({x}, {y})"
        assert 2 * circles[round(x, 2), round(y, 2)] == pytest.approx(3.2)
    assert len(circles) == len(wanted), "the drawing has holes the layout does not"


def test_each_hole_is_labelled_with_its_own_led(board_svg: ET.Element, layout: dict[str, Any]) -> None:
    texts = _texts(board_svg)
    for hole in layout["holes"]:
        # The nearest label below the hole's centre, on its vertical line.
        below = [
            (y - hole["y_mm"], label)
            for x, y, label in texts
            if abs(x - hole["x_mm"]) < 0.01 and 0 < y - hole["y_mm"] < 4
        ]
        assert below, f"track {hole['track']} hole {hole['hole']} has no LED label"
        assert min(below)[1] == str(hole["led"]), f"track {hole['track']} hole {hole['hole']}"


def test_hole_numbers_every_five_sit_beside_their_holes(
    board_svg: ET.Element, layout: dict[str, Any]
) -> None:
    texts = _texts(board_svg)
    for hole in layout["holes"]:
        if hole["hole"] % 5:
            continue
        near = [
            label
            for x, y, label in texts
            if abs(y - hole["y_mm"]) < 3 and 0 < abs(x - hole["x_mm"]) < 4 and label == str(hole["hole"])
        ]
        assert near, f"track {hole['track']} hole {hole['hole']} has no hole number beside it"


def test_the_chain_polyline_visits_the_holes_in_led_order(
    board_svg: ET.Element, layout: dict[str, Any]
) -> None:
    polylines = list(board_svg.iter(f"{SVG}polyline"))
    assert len(polylines) == 1
    points = [tuple(float(v) for v in p.split(",")) for p in polylines[0].get("points", "").split()]
    by_led = sorted(layout["holes"], key=lambda h: h["led"])
    assert points == [(h["x_mm"], h["y_mm"]) for h in by_led]


def test_the_scale_bar_is_fifty_millimetres(board_svg: ET.Element) -> None:
    blocks = [r for r in board_svg.iter(f"{SVG}rect") if r.get("height") == "2"]
    assert len(blocks) == 5
    left = min(float(r.get("x", "0")) for r in blocks)
    right = max(float(r.get("x", "0")) + float(r.get("width", "0")) for r in blocks)
    assert right - left == pytest.approx(50.0)


def test_the_a4_pages_are_full_size_and_cover_the_whole_drawing(drawings: ModuleType) -> None:
    pages = sorted(GENERATED.glob("board-a4-*.svg"))
    assert len(pages) >= 2
    for page in pages:
        root = ET.parse(page).getroot()
        assert (root.get("width"), root.get("height")) == ("210mm", "297mm")
        assert root.get("viewBox") == "0 0 210 297"
    windows = drawings.tile_windows(drawings.load_layout())
    _, top, _, height = drawings.SHEET
    assert windows[0][0] <= top and windows[-1][1] >= top + height
    for (_, bottom), (next_top, _) in itertools.pairwise(windows):
        assert next_top < bottom, "consecutive pages must overlap"
        assert bottom - next_top >= 10


# ------------------------------------------------------------------------------------ tables


def test_holes_csv_is_the_layout(layout: dict[str, Any]) -> None:
    rows = _read_csv("holes.csv")
    assert len(rows) == len(layout["holes"]) == 242
    by_key = {(int(r["track"]), int(r["hole"])): r for r in rows}
    for hole in layout["holes"]:
        row = by_key[hole["track"], hole["hole"]]
        assert int(row["led"]) == hole["led"]
        assert float(row["x_mm"]) == pytest.approx(hole["x_mm"])
        assert float(row["y_mm"]) == pytest.approx(hole["y_mm"])


def test_holes_csv_agrees_with_the_firmware_table() -> None:
    table = _firmware_table()
    rows = _read_csv("holes.csv")
    assert len(table) == 2 and all(len(row) == 121 for row in table)
    for row in rows:
        assert table[int(row["track"])][int(row["hole"]) - 1] == int(row["led"]), row


def test_chain_csv_runs_along_the_strip_without_a_gap() -> None:
    rows = _read_csv("chain.csv")
    assert [int(r["led"]) for r in rows] == list(range(242))
    for here, after in itertools.pairwise(rows):
        length = (
            (float(after["x_mm"]) - float(here["x_mm"])) ** 2
            + (float(after["y_mm"]) - float(here["y_mm"])) ** 2
        ) ** 0.5
        assert float(here["to_next_mm"]) == pytest.approx(length, abs=0.01)
    assert rows[-1]["to_next_mm"] == ""
    # The longest link is the hop across to the game holes: short enough for a strip's own jumper.
    assert max(float(r["to_next_mm"]) for r in rows[:-1]) < 20


def test_gpio_csv_is_the_companion_default_wiring() -> None:
    from companion.controls import ControlPins

    pins = ControlPins()
    rows = _read_csv("gpio.csv")
    expected = [pin for p in pins.players for pin in (p.knob_a, p.knob_b, p.knob_press, p.muggins)] + [
        pins.undo
    ]
    assert [int(r["bcm_gpio"]) for r in rows] == expected
    # The header pin numbers, from the Raspberry Pi's published 40-pin header.
    header = {
        17: 11,
        18: 12,
        27: 13,
        22: 15,
        23: 16,
        24: 18,
        25: 22,
        5: 29,
        6: 31,
        4: 7,
        12: 32,
        13: 33,
        16: 36,
        19: 35,
        20: 38,
        21: 40,
        26: 37,
    }
    for row in rows:
        assert int(row["header_pin"]) == header[int(row["bcm_gpio"])], row


# ----------------------------------------------------------------------- wiring and figures


def test_wiring_names_the_firmware_data_pin_and_cap() -> None:
    ws = (FIRMWARE / "src" / "ws2812.h").read_text(encoding="utf-8")
    bit = re.search(r"#define WS2812_BIT (\d+)", ws)
    port = re.search(r"#define WS2812_PORT PORT([BD])", ws)
    assert bit and port
    pin = f"D{int(bit.group(1)) + (8 if port.group(1) == 'B' else 0)}"
    cap = re.search(r"^CAP_MA\s*\?=\s*(\d+)", (FIRMWARE / "Makefile").read_text(encoding="utf-8"), re.M)
    assert cap
    wiring = (GENERATED / "wiring.svg").read_text(encoding="utf-8")
    assert f"{pin} (P{port.group(1)}{bit.group(1)}): LED data out" in wiring
    assert f"Firmware cap: {cap.group(1)} mA" in wiring
    for row in _read_csv("gpio.csv"):
        assert f"GPIO{row['bcm_gpio']}" in wiring


def test_power_figures_follow_the_current_model() -> None:
    # Contract: about 1 mA per LED dark plus 20 mA x value/255 per channel; 242 LEDs.
    figures = (GENERATED / "figures.md").read_text(encoding="utf-8")
    assert "| all dark (pegs in the start holes) | 242 mA | 242 mA |" in figures
    assert f"| {242 * 61} mA | not capped" in figures
    # Self-test at 255: one LED white.
    assert "(one LED white at a time) | 302 mA | 302 mA |" in figures
    # The win animation in white lights a whole track (121 LEDs): 242 + 121 x 60 = 7502 mA, capped.
    assert "| 7502 mA | 1500 mA |" in figures


def test_the_feed_points_are_marked_under_the_foot_of_every_column(
    board_svg: ET.Element, layout: dict[str, Any]
) -> None:
    bottom = max(h["y_mm"] for h in layout["holes"] if h["hole"] <= 120)
    feet = sorted(h["x_mm"] for h in layout["holes"] if h["y_mm"] == bottom)
    assert len(feet) == 4, "four columns, each with its foot on the bottom row"
    marked = sorted(x for x, _, label in _texts(board_svg) if label == "5V/GND")
    assert marked == feet


def test_the_cutting_list_accounts_for_every_led_and_link(drawings: ModuleType) -> None:
    pieces, links = drawings.strip_plan(drawings.load_layout())
    assert sum(n * count for n, count in pieces.items()) == 242
    assert sum(links.values()) == sum(pieces.values()) - 1
    figures = (GENERATED / "figures.md").read_text(encoding="utf-8")
    for n, count in pieces.items():
        assert f"| {n} LED{'s' if n > 1 else ''} | {count} |" in figures
