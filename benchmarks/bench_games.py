"""Benchmark: simulate 10,000 random full games of six-card cribbage and print games per second.

Each game is played out by :mod:`companion.rules.simulate` from its own seed, through the public
verify / do actions of :class:`companion.rules.game.Game` (every action verified, every score recorded
with its explanation), counted automatically.  Each run is a fresh process; the median of the runs is
printed, with actions per second for scale.

    .venv/bin/python benchmarks/bench_games.py [--games 10000] [--runs 3] [--counting auto|claims]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys

ONE_RUN = """
import json, random, sys, time
from companion.rules.game import Counting, Settings
from companion.rules.simulate import random_game
games, counting = int(sys.argv[1]), Counting(sys.argv[2])
settings = Settings(counting=counting, match_games=1)
actions = 0
start = time.perf_counter()
for seed in range(games):
    game = random_game(random.Random(seed), settings)
    assert game.over
    actions += len(game.log)
print(json.dumps({"seconds": time.perf_counter() - start, "actions": actions}))
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--counting", choices=("auto", "claims"), default="auto")
    parser.add_argument("--json", action="store_true", help="end with one line of JSON holding the figures")
    args = parser.parse_args()
    rates, action_rates = [], []
    for run in range(args.runs):
        out = subprocess.run(
            [sys.executable, "-c", ONE_RUN, str(args.games), args.counting],
            capture_output=True,
            text=True,
            check=True,
        )
        result = json.loads(out.stdout)
        rates.append(args.games / result["seconds"])
        action_rates.append(result["actions"] / result["seconds"])
        print(
            f"run {run + 1}: {args.games} games in {result['seconds']:.1f} s = {rates[-1]:.0f} games/s "
            f"({action_rates[-1]:.0f} actions/s)",
            flush=True,
        )
    print(
        f"median over {args.runs} runs: {statistics.median(rates):.0f} games/s, "
        f"{statistics.median(action_rates):.0f} actions/s ({args.counting} counting; "
        f"{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()})"
    )
    if args.json:
        figures = {
            "games a second, median": round(statistics.median(rates)),
            "actions a second, median": round(statistics.median(action_rates)),
            "counting": args.counting,
            "runs x games": f"{args.runs} x {args.games}",
        }
        print(json.dumps(figures))


if __name__ == "__main__":
    main()
