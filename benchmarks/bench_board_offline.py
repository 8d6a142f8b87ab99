"""Benchmark: the game's pace with a board that is plugged in but silent.

Run: ``.venv/bin/python benchmarks/bench_board_offline.py [--seconds 30]``.

A replayed game's events are posted to the game loop one at a time, each awaited as ``crib play``'s replay
does, for ``--seconds``: once with no board at all, once with a board on a pseudo-terminal that never
answers (a hung Nano, or the wrong firmware).  Prints events handled per minute for both: a board that
does not answer must not slow the game (it did: each event waited for a full handshake, about 3 s).
"""

from __future__ import annotations

import argparse
import json
import time

from companion.app.config import TableConfig
from companion.app.loop import GameLoop
from companion.app.simulate import script_game
from companion.app.store import Journal
from companion.app.table import Table
from companion.board.link import BoardLink
from companion.board.virtual import PtyServer, VirtualBoard


class _SilentBoard(VirtualBoard):
    def receive(self, data: bytes) -> bytes:
        return b""


def events_per_minute(board: object | None, seconds: float) -> tuple[int, float]:
    """Events handled within ``seconds`` (games replayed one after another), and the rate per minute."""
    handled = 0
    started = time.monotonic()
    seed = 0
    while time.monotonic() - started < seconds:
        config = TableConfig(players=("Ann", "Bob"), games_to_win=1, pin="1234")
        loop = GameLoop(Table(Journal(":memory:"), config), board=board)  # type: ignore[arg-type]
        loop.start()
        try:
            for event in script_game(seed).events:
                if time.monotonic() - started >= seconds:
                    break
                loop.post(event)
                if not loop.wait_idle(timeout=120):
                    raise SystemExit("an event took over two minutes")
                handled += 1
        finally:
            loop.stop()
        seed += 1
    took = time.monotonic() - started
    return handled, handled * 60 / took


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--seconds", type=float, default=30.0, help="how long each case runs (default 30)")
    parser.add_argument("--json", action="store_true", help="end with one line of JSON holding the figures")
    args = parser.parse_args()
    handled, rate = events_per_minute(None, args.seconds)
    alone = rate
    print(f"no board:     {handled:5d} events in {args.seconds:g} s = {rate:8.0f} per minute")
    with PtyServer(_SilentBoard()) as server:
        link = BoardLink(server.path, heartbeat=1.0)
        try:
            handled, rate = events_per_minute(link, args.seconds)
        finally:
            link.close()
    print(f"silent board: {handled:5d} events in {args.seconds:g} s = {rate:8.0f} per minute")
    if args.json:
        figures = {
            "events a minute, no board": round(alone),
            "events a minute, a board plugged in but silent": round(rate),
            "seconds a case": args.seconds,
        }
        print(json.dumps(figures))


if __name__ == "__main__":
    main()
