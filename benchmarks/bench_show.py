"""Benchmark: score all 12,994,800 hand-and-starter combinations twice, as hands and as cribs.

Runs :func:`companion.rules.bulk.show_totals` (the NumPy path whose rank combinations come from the very
function ``score_hand`` uses; tests/rules/test_show_exhaustive.py proves the two agree on every
combination).  Each run is a fresh process so the figure includes building the tables; the median of
the runs is printed.  For comparison it also times ``score_hand`` itself on a sample and extrapolates.

    .venv/bin/python benchmarks/bench_show.py [--runs 5]
"""

from __future__ import annotations

import argparse
import json
import platform
import statistics
import subprocess
import sys
import time
from itertools import combinations, islice

ONE_RUN = """
import time
t = time.perf_counter()
from companion.rules.bulk import show_totals
hands = show_totals(crib=False)
cribs = show_totals(crib=True)
assert hands.size == cribs.size == 12_994_800
print(time.perf_counter() - t)
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--json", action="store_true", help="end with one line of JSON holding the figures")
    args = parser.parse_args()
    times = []
    for run in range(args.runs):
        out = subprocess.run([sys.executable, "-c", ONE_RUN], capture_output=True, text=True, check=True)
        times.append(float(out.stdout.strip()))
        print(f"run {run + 1}: {times[-1]:.3f} s", flush=True)
    print(
        f"all 12,994,800 combinations as hands and as cribs: median {statistics.median(times):.3f} s "
        f"over {args.runs} fresh processes ({platform.machine()}, {platform.python_version()})"
    )

    from companion.cards import full_deck
    from companion.rules import score_hand

    deck = full_deck()
    sample = 0
    start = time.perf_counter()
    for hand in islice(combinations(deck, 4), 5000):
        for starter in deck:
            if starter not in hand:
                score_hand(hand, starter)
                sample += 1
    per_call = (time.perf_counter() - start) / sample
    print(
        f"score_hand one at a time: {per_call * 1e6:.2f} us per hand, so about "
        f"{per_call * 2 * 12_994_800:.0f} s for both passes"
    )
    if args.json:
        figures = {
            "every hand and crib scored (12,994,800 each), s, median": round(statistics.median(times), 2),
            "score_hand one at a time, us per hand": round(per_call * 1e6, 1),
            "runs": args.runs,
        }
        print(json.dumps(figures))


if __name__ == "__main__":
    main()
