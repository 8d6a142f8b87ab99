"""Benchmark: a full-state update through the companion's link to the real firmware in the simulator.

Measures, for each ``BoardLink.show(state)`` call with new peg positions:
- call -> latched: from the call until the harness reports the new LED frame latched (the LEDs show it);
- call -> return: until ``show`` returns (the board's OK comes after the latch, then travels back);
- on the simulated clock, which runs as the real chip would: from the request's first byte on the line
  to the latch (the wall-clock figures run a little fast, as simavr outpaces real time while the chip
  is busy sending to the LEDs, and a little slow from the pty and process hops);
and the updates per second one link sustains back to back. Target: under 15 ms per full-state update.
Also prints the firmware's flash and RAM use (avr-size).

Needs ``make -C firmware all``. Run: ``.venv/bin/python benchmarks/bench_board.py [--runs 5] [--updates 200]``
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import statistics
import subprocess
import sys
import time

from companion.board.link import BoardLink
from companion.board.sim import DEFAULT_FIRMWARE, SimulatedBoard, SimulatorError
from companion.board.state import BoardState

TARGET_MS = 15.0


def one_run(updates: int, seed: int) -> tuple[list[float], list[float], list[float], float]:
    rng = random.Random(seed)
    latched: list[float] = []
    returned: list[float] = []
    on_chip: list[float] = []
    with SimulatedBoard() as board, BoardLink(board.port, heartbeat=None) as link:
        link.connect()
        link.show(BoardState.playing((0, 0), (0, 0)))
        a = b = 0
        started = time.monotonic()
        for _ in range(updates):
            # a game's worth of pegging: each update moves one track's pegs forward
            a, b = (b, min(121, b + rng.randint(1, 12))) if b < 121 else (0, rng.randint(1, 12))
            state = BoardState.playing((a, b), (max(0, b - 9), b))
            before = board.frame_count
            marker = len(board.events)
            t0 = time.monotonic()
            link.show(state)
            t1 = time.monotonic()
            frame = board.wait_frame(after=before, timeout=2.0)
            latched.append((frame.received - t0) * 1000)
            returned.append((t1 - t0) * 1000)
            first_byte = board.wait_event("sof", after=marker)
            on_chip.append((frame.sim_us - float(str(first_byte["us"]))) / 1000)
        elapsed = time.monotonic() - started
        if board.lost_count or board.violations:
            raise SimulatorError(f"{board.lost_count} bytes lost, {len(board.violations)} timing violations")
    return latched, returned, on_chip, updates / elapsed


def firmware_size() -> tuple[int, int]:
    out = subprocess.run(
        ["avr-size", "-A", str(DEFAULT_FIRMWARE)], capture_output=True, text=True, check=True
    )
    sections = {m[1]: int(m[2]) for m in re.finditer(r"^\.(\w+)\s+(\d+)", out.stdout, re.M)}
    return sections["text"] + sections.get("data", 0), sections.get("data", 0) + sections.get("bss", 0)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--updates", type=int, default=200)
    parser.add_argument("--json", action="store_true", help="end with one line of JSON holding the figures")
    args = parser.parse_args()
    try:
        flash, ram = firmware_size()
    except (OSError, subprocess.CalledProcessError):
        print("bench_board: the firmware is not built: run `make -C firmware all` first.", file=sys.stderr)
        return 1
    print(
        f"machine: {os.cpu_count()} cores; firmware: flash {flash} B of 32768 ({flash / 327.68:.1f} %), "
        f"RAM {ram} B of 2048 ({ram / 20.48:.1f} %, {2048 - ram} B free for the stack)"
    )
    medians_latched, medians_returned, medians_chip, p95s, rates = [], [], [], [], []
    for run in range(args.runs):
        try:
            latched, returned, on_chip, rate = one_run(args.updates, seed=run)
        except SimulatorError as error:
            print(f"bench_board: {error}", file=sys.stderr)
            return 1
        medians_latched.append(statistics.median(latched))
        medians_returned.append(statistics.median(returned))
        medians_chip.append(statistics.median(on_chip))
        p95s.append(statistics.quantiles(latched, n=20)[-1])
        rates.append(rate)
        print(
            f"run {run + 1}: call->latched median {medians_latched[-1]:.2f} ms (p95 {p95s[-1]:.2f}), "
            f"call->return median {medians_returned[-1]:.2f} ms, first byte->latched (simulated clock) "
            f"{medians_chip[-1]:.2f} ms, {rate:.1f} updates/s"
        )
    latched_ms = statistics.median(medians_latched)
    chip_ms = statistics.median(medians_chip)
    print(
        f"median of {args.runs} runs x {args.updates} updates: call->latched {latched_ms:.2f} ms "
        f"(p95 {statistics.median(p95s):.2f} ms), call->return {statistics.median(medians_returned):.2f} ms, "
        f"first byte->latched on the simulated clock {chip_ms:.2f} ms, "
        f"{statistics.median(rates):.1f} updates/s sustained; target < {TARGET_MS:g} ms: "
        f"{'met' if max(latched_ms, chip_ms) < TARGET_MS else 'NOT met'}"
    )
    if args.json:
        figures = {
            "state update, call to LEDs latched, ms, median": round(latched_ms, 2),
            "call to latched, ms, 95th percentile": round(statistics.median(p95s), 2),
            "first byte to latched on the chip's clock, ms": round(chip_ms, 2),
            "updates a second, sustained": round(statistics.median(rates), 1),
            "firmware flash, bytes of 32768": flash,
            "firmware RAM, bytes of 2048": ram,
            "runs x updates": f"{args.runs} x {args.updates}",
        }
        print(json.dumps(figures))
    return 0


if __name__ == "__main__":
    sys.exit(main())
