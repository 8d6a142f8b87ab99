"""docs/figures.md holds what the benchmarks printed, as ``benchmarks/figures.py`` parsed and wrote it.

The figures are measured, never typed: these tests check that the script reads a benchmark's output
the way it says, that the committed page is exactly what the script writes from the records kept in
it (so no table was edited by hand), and that every benchmark is listed and can print its figures.
No timing is asserted.
"""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _figures() -> ModuleType:
    spec = importlib.util.spec_from_file_location("figures", ROOT / "benchmarks" / "figures.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["figures"] = module
    spec.loader.exec_module(module)
    return module


figures = _figures()

# What bench_vision.py --runs 3 --frames 20 --json prints (its text lines, then its figures).
SAMPLE = """\
machine: x86_64, 2 cores, Python 3.11.2, OpenCV 4.12.0, one OpenCV thread, pips counted
frame 1280x720, six cards laid; read as: 10d 5h 7c Ac Kh Qs
ms per frame: median 27.3 over 3 runs of 20 frames (runs: 27.3, 26.9, 28.0); target < 30
card landing -> event at 30 fps: median 205 ms over 3 runs (runs: 205, 205, 206); target < 300
{"ms per 1280x720 frame, median": 27.3, "card landing to its event at 30 fps, ms, median": 205, \
"cards read of six laid": 6, "pips counted": true, "runs x frames": "3 x 20"}
"""


def test_the_figures_are_the_last_json_line_a_benchmark_prints() -> None:
    assert figures.parse_output(SAMPLE) == {
        "ms per 1280x720 frame, median": 27.3,
        "card landing to its event at 30 fps, ms, median": 205,
        "cards read of six laid": 6,
        "pips counted": True,
        "runs x frames": "3 x 20",
    }


def test_a_benchmark_without_a_json_line_keeps_its_last_line() -> None:
    text = SAMPLE.rsplit("{", 1)[0]
    assert figures.parse_output(text) == {
        "last line printed": "card landing -> event at 30 fps: median 205 ms over 3 runs "
        "(runs: 205, 205, 206); target < 300"
    }
    with pytest.raises(ValueError):
        figures.parse_output("\n \n")


def test_a_record_is_rendered_as_a_table_of_its_figures() -> None:
    record = figures.Record(
        "vision",
        ".venv/bin/python benchmarks/bench_vision.py --runs 3 --frames 20 --json",
        "2026-11-26 13:20 UTC",
        "Some CPU, 2 cores, load average 1.0 at the start",
        "3.11.2, 2.4.0, 4.12.0",
        figures.parse_output(SAMPLE),
    )
    text = figures.render_record(record)
    assert "| ms per 1280x720 frame, median | 27.3 |" in text
    assert "| pips counted | yes |" in text
    assert "| command | `.venv/bin/python benchmarks/bench_vision.py --runs 3 --frames 20 --json` |" in text
    assert figures.read_records(text) == [record]


def test_the_figures_page_is_what_the_script_writes_from_its_records() -> None:
    page = (ROOT / "docs" / "figures.md").read_text(encoding="utf-8")
    records = figures.read_records(page)
    assert records, "docs/figures.md holds no measured records"
    assert figures.render(records) == page, "docs/figures.md was edited by hand: run benchmarks/figures.py"


def test_every_benchmark_is_listed_and_can_print_its_figures() -> None:
    scripts = {p.name for p in (ROOT / "benchmarks").glob("bench_*.py")}
    assert {b.script for b in figures.BENCHES} == scripts
    for script in scripts:
        assert figures.accepts_json(ROOT / "benchmarks" / script), f"{script} has no --json"


def test_a_benchmark_run_with_json_prints_what_the_parser_reads() -> None:
    result = subprocess.run(
        [sys.executable, "benchmarks/bench_games.py", "--games", "3", "--runs", "1", "--json"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    found = figures.parse_output(result.stdout)
    assert set(found) == {"games a second, median", "actions a second, median", "counting", "runs x games"}
    assert found["runs x games"] == "1 x 3" and found["counting"] == "auto"
