"""Runs the benchmarks and writes their key figures to ``docs/figures.md``.

Figures quoted by hand drift from what the code does, so the docs quote none: they link to
``docs/figures.md``, which only this script writes.  Each benchmark, run with ``--json``, ends with one
line of JSON holding its figures; this script runs it, keeps that line and writes one table per
benchmark with the date, the machine, the versions that matter for speed and the exact command.  The
line is kept in the file too (an HTML comment under each table), so rerunning one benchmark leaves the
others' tables as they were measured, and the test suite can check that the tables are what the
parser makes of it.

    .venv/bin/python benchmarks/figures.py                # each benchmark that takes under ~5 minutes
    .venv/bin/python benchmarks/figures.py --quick        # fewer repetitions: a few minutes in all
    .venv/bin/python benchmarks/figures.py vision board   # only these; the other tables are kept
    .venv/bin/python benchmarks/figures.py --all          # the long ones too
    .venv/bin/python benchmarks/figures.py --list         # the benchmarks, their commands and times
    .venv/bin/python benchmarks/figures.py --rewrite      # the page again from its records, running nothing
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import re
import subprocess
import sys
import textwrap
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "docs" / "figures.md"
LONG_MINUTES = 5.0


@dataclass(frozen=True)
class Bench:
    """One benchmark: its script, what it measures, and its arguments for a full and a quick run."""

    name: str
    script: str
    about: str
    args: tuple[str, ...]
    quick: tuple[str, ...]
    minutes: float  # about how long ``args`` take on two quiet cores
    quick_minutes: float

    def command(self, quick: bool) -> list[str]:
        return [f"benchmarks/{self.script}", *(self.quick if quick else self.args), "--json"]


BENCHES = (
    Bench(
        "show",
        "bench_show.py",
        "Scoring every hand and crib: all 12,994,800 hands of four cards and a starter, twice.",
        ("--runs", "5"),
        ("--runs", "2"),
        0.5,
        0.3,
    ),
    Bench(
        "games",
        "bench_games.py",
        "Whole random games of six-card cribbage played through the rules engine, every action checked.",
        ("--games", "10000", "--runs", "3"),
        ("--games", "1000", "--runs", "3"),
        10.0,
        1.0,
    ),
    Bench(
        "board",
        "bench_board.py",
        "A full-state update to the board's real firmware running in the simulator (target: under 15 ms).",
        ("--runs", "5", "--updates", "200"),
        ("--runs", "3", "--updates", "100"),
        0.5,
        0.3,
    ),
    Bench(
        "offline",
        "bench_board_offline.py",
        "Table events handled a minute with no board, and with a board plugged in that never answers (the "
        "game's pace must not change).",
        ("--seconds", "30"),
        ("--seconds", "10"),
        1.5,
        0.5,
    ),
    Bench(
        "app",
        "bench_app.py",
        "Start-up of `crib play`, and a card landing on the table to the board and the scoreboard.",
        (),
        ("--quick",),
        3.0,
        1.0,
    ),
    Bench(
        "vision",
        "bench_vision.py",
        "Reading a filmed 1280x720 table of 13 real cards (overlaps, backs, chips, a hand) on one core: a "
        "frame where nothing moved (target: under 5 ms), one where a card landed (under 30 ms), the first "
        "read of the whole table (under 60 ms), and a card landing to its event at 30 frames a second "
        "(under 300 ms); a real deal photo read whole as `crib detect` reads it, and the memory that took; "
        "processor time.",
        ("--runs", "5"),
        ("--runs", "2", "--tables", "2"),
        1.0,
        0.5,
    ),
    Bench(
        "degrade",
        "bench_degrade.py",
        "A held-out real deal and generated scenes read at measured levels of defocus and motion blur, "
        "under a hard shadow and tilted 15-45 degrees, the tilts also levelled by their own cards (as "
        "`crib detect` reads a photo) and read with the table's plane: found, named wrong and reported "
        "twice per level.",
        ("--plane",),
        ("--quick", "--plane"),
        15.0,
        4.0,
    ),
    Bench(
        "live",
        "bench_live.py",
        "The demo game filmed and read through the camera feed the Pi runs, clean and with blur, glare, "
        "noise, JPEG, a tilted camera, the table bumped now and then and a player leaning over it, and "
        "with every spade reported unread (a deck the camera cannot name): cards decided right, wrong "
        "and asked about, and a card landing to the board (target: no wrong decision, at most one "
        "question a game but for the unread spades, under 300 ms).",
        (),
        ("--deals", "3", "--only", "clean,tilt"),
        20.0,
        4.0,
    ),
    Bench(
        "scoreboard",
        "bench_scoreboard.py",
        "The scoreboard probed as a stranger on the pub's Wi-Fi would: the right PIN under a flood of wrong "
        "ones from another address (target: 90 of 90), and the server's memory under a 1 GiB upload with a "
        "wrong PIN (target: under 100 MB).",
        ("--runs", "3"),
        ("--runs", "1"),
        2.0,
        1.0,
    ),
    Bench(
        "webcam",
        "bench_webcam.py",
        "Single cards of two decks under a webcam 40-100 cm up: soft lens, noise, JPEG, colour casts, dim "
        "light, glare, read as `crib detect` reads a photo.",
        ("--passes", "2"),
        ("--passes", "1"),
        2.0,
        1.0,
    ),
    Bench(
        "table",
        "bench_table.py",
        "Top-down 6000x4000 photos of a table with cards face up, overlapping and face down, two decks, "
        "chips (target: 98 % found, at most 1 % of reports wrong).",
        ("--scenes", "12"),
        ("--scenes", "4"),
        6.0,
        2.0,
    ),
)


@dataclass(frozen=True)
class Record:
    """What one run of a benchmark measured, and when, where and how."""

    bench: str
    command: str
    date: str
    machine: str
    versions: str
    figures: dict[str, object] = field(default_factory=dict)

    def to_json(self) -> str:
        return json.dumps(
            {
                "bench": self.bench,
                "command": self.command,
                "date": self.date,
                "machine": self.machine,
                "versions": self.versions,
                "figures": self.figures,
            },
            ensure_ascii=False,
        )

    @classmethod
    def from_json(cls, text: str) -> Record:
        data = json.loads(text)
        return cls(
            data["bench"], data["command"], data["date"], data["machine"], data["versions"], data["figures"]
        )


def parse_output(stdout: str) -> dict[str, object]:
    """The figures a benchmark printed: its last line that is a JSON object.

    A benchmark that prints no such line (one not yet given ``--json``) keeps its last line of text,
    so its table still says what it measured.
    """
    lines = [line.strip() for line in stdout.splitlines() if line.strip()]
    for line in reversed(lines):
        if line.startswith("{"):
            try:
                figures = json.loads(line)
            except json.JSONDecodeError:
                continue
            if isinstance(figures, dict):
                return figures
    if not lines:
        raise ValueError("the benchmark printed nothing")
    return {"last line printed": lines[-1]}


def _cell(value: object) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value).replace("|", "\\|")


def render_record(record: Record) -> str:
    bench = next((b for b in BENCHES if b.name == record.bench), None)
    lines = [f"## {record.bench}", ""]
    if bench is not None:
        lines += [textwrap.fill(bench.about, 105), ""]
    lines += [
        "| | |",
        "|---|---|",
        f"| measured | {record.date} |",
        f"| machine | {_cell(record.machine)} |",
        f"| Python, NumPy, OpenCV | {_cell(record.versions)} |",
        f"| command | `{record.command}` |",
    ]
    lines += [f"| {_cell(key)} | {_cell(value)} |" for key, value in record.figures.items()]
    lines += ["", f"<!-- record {record.to_json()} -->", ""]
    return "\n".join(lines)


HEADER = """# Figures

Written by `benchmarks/figures.py` from what the benchmarks print; not edited by hand. Each table says
when, on which machine and with which command it was measured. The load average is the machine's
one-minute load when the benchmark started: above the number of cores, other work was running
alongside and times read slower than on a quiet machine. To measure again:

```sh
.venv/bin/python benchmarks/figures.py --quick          # or name benchmarks: ... figures.py vision table
```

"""


def render(records: list[Record]) -> str:
    order = {b.name: i for i, b in enumerate(BENCHES)}
    ordered = sorted(records, key=lambda r: order.get(r.bench, len(order)))
    return HEADER + "\n".join(render_record(r) for r in ordered)


RECORD = re.compile(r"^<!-- record (\{.*\}) -->$", re.MULTILINE)


def read_records(text: str) -> list[Record]:
    return [Record.from_json(m.group(1)) for m in RECORD.finditer(text)]


def machine() -> str:
    model = platform.processor() or platform.machine()
    try:
        cpuinfo = Path("/proc/cpuinfo").read_text(encoding="utf-8")
        found = re.search(r"^model name\s*:\s*(.+)$", cpuinfo, re.MULTILINE)
        if found:
            model = found.group(1).strip()
    except OSError:
        pass
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    return f"{model}, {os.cpu_count()} cores, load average {load:.1f} at the start"


def versions() -> str:
    import cv2
    import numpy

    return f"{platform.python_version()}, {numpy.__version__}, {cv2.__version__}"


def accepts_json(script: Path) -> bool:
    return '"--json"' in script.read_text(encoding="utf-8")


def run(bench: Bench, quick: bool) -> Record:
    """Runs one benchmark, its output passing through, and returns what it measured."""
    command = bench.command(quick)
    if not accepts_json(ROOT / command[0]):
        command = command[:-1]
    shown = " ".join([".venv/bin/python", *command])
    print(f"figures: {shown}", flush=True)
    date = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    where = machine()
    process = subprocess.Popen(
        [sys.executable, *command],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        text=True,
        bufsize=1,
        env={**os.environ, "OMP_NUM_THREADS": "1"},
    )
    assert process.stdout is not None
    captured = []
    for line in process.stdout:
        captured.append(line)
        if not line.startswith("{"):
            print("  " + line, end="", flush=True)
    if process.wait() != 0:
        raise RuntimeError(f"{bench.script} stopped with exit code {process.returncode}")
    return Record(bench.name, shown, date, where, versions(), parse_output("".join(captured)))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("names", nargs="*", help="benchmarks to run (default: all but the long ones)")
    parser.add_argument("--quick", action="store_true", help="fewer repetitions")
    parser.add_argument("--all", action="store_true", help=f"the ones over ~{LONG_MINUTES:g} minutes too")
    parser.add_argument("--list", action="store_true", help="list the benchmarks and stop")
    parser.add_argument(
        "--rewrite", action="store_true", help="rewrite the page from the records it holds, running nothing"
    )
    parser.add_argument("--out", type=Path, default=OUT, help="the file to write (default docs/figures.md)")
    args = parser.parse_args(argv)
    known = {b.name: b for b in BENCHES}
    if args.list:
        for b in BENCHES:
            minutes = b.quick_minutes if args.quick else b.minutes
            print(f"{b.name:<7} about {minutes:g} min  .venv/bin/python {' '.join(b.command(args.quick))}")
        return 0
    unknown = [n for n in args.names if n not in known]
    if unknown:
        names = ", ".join(known)
        print(f"figures: no benchmark named {', '.join(unknown)} (known: {names})", file=sys.stderr)
        return 2
    chosen = [known[n] for n in args.names] or [
        b for b in BENCHES if args.all or (b.quick_minutes if args.quick else b.minutes) <= LONG_MINUTES
    ]
    before = args.out.read_text(encoding="utf-8") if args.out.exists() else ""
    records = {r.bench: r for r in read_records(before)}
    if args.rewrite:
        args.out.write_text(render(list(records.values())), encoding="utf-8")
        return 0
    failed = []
    for bench in chosen:
        try:
            records[bench.name] = run(bench, args.quick)
        except (RuntimeError, ValueError, OSError) as error:
            print(f"figures: {bench.name} not measured: {error}", file=sys.stderr)
            failed.append(bench.name)
            continue
        args.out.write_text(render(list(records.values())), encoding="utf-8")
    left_out = [b.name for b in BENCHES if b not in chosen]
    if left_out:
        print(f"figures: not run this time: {', '.join(left_out)} (name them, or --all)")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
