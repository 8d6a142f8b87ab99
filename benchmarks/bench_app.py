"""Benchmarks of the live companion: start-up of ``crib play``, and a landed card's way to the outputs.

Run: ``.venv/bin/python benchmarks/bench_app.py`` (add ``--quick`` for fewer repetitions).

1. **Start-up**: from starting the process to ``crib play`` printing "ready" (journal opened or resumed,
   board connected, scoreboard serving), with and without the scoreboard.
2. **Card to board and scoreboard**: a replayed game's card-landed events are posted to the game loop with
   the time they were seen; measured until (a) the board has latched the new state (the link returns
   only then) -- the virtual board, and the real firmware in the simulator when it is built -- and (b) a
   phone watching the scoreboard over HTTP has received the view with the new score.  Median and worst.
3. **The camera's share**, when the card model is built: recognising one 1280x720 frame with six cards,
   plus the tracker's debounce (a card must rest ``appear_after`` seconds before it is reported), at 30
   frames per second.  Frame-to-outputs is that plus (2).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import queue
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path

import httpx

from companion.app.config import TableConfig
from companion.app.events import CardLanded
from companion.app.loop import GameLoop
from companion.app.simulate import script_game
from companion.app.store import Journal
from companion.app.table import Table
from companion.board.link import BoardLink
from companion.board.state import BoardState
from companion.web.app import create_app
from companion.web.hub import ScoreboardHub
from companion.web.server import ScoreboardServer

REPO = Path(__file__).resolve().parents[1]


def _summary(values: list[float]) -> str:
    ms = sorted(v * 1000 for v in values)
    median = statistics.median(ms)
    return f"median {median:7.1f} ms   worst {ms[-1]:7.1f} ms   best {ms[0]:7.1f} ms   (n={len(ms)})"


def startup(runs: int, serve: bool) -> list[float]:
    times = []
    for _ in range(runs):
        command = [sys.executable, "-m", "companion.cli", "play", "--once", "--pace", "0", "--events"]
        command += ["--port", "0"] if serve else ["--no-serve"]
        began = time.perf_counter()
        process = subprocess.Popen(command, stdout=subprocess.PIPE, text=True, cwd=REPO)
        assert process.stdout is not None
        for line in process.stdout:
            if line.startswith("ready"):
                times.append(time.perf_counter() - began)
                break
        process.stdout.read()
        process.wait(60)
    return times


class _TimedBoard:
    """Passes states to the link and notes when each was latched."""

    def __init__(self, link: BoardLink) -> None:
        self.link = link
        self.latched: dict[int, float] = {}
        self.serial = 0

    def show(self, state: BoardState) -> None:
        self.link.show(state)
        self.latched[self.serial] = time.monotonic()


def card_to_outputs(board_url: str | None, games: int) -> tuple[list[float], list[float], list[float]]:
    """Per landed card that changed the game: seconds to board latched, to scoreboard seen, to both."""
    to_board: list[float] = []
    to_web: list[float] = []
    to_both: list[float] = []
    for seed in range(games):
        hub = ScoreboardHub()
        config = TableConfig(players=("Ann", "Bob"), games_to_win=1, pin="1234")
        table = Table(Journal(":memory:"), config)
        link = BoardLink(board_url or f"virtual://bench-{seed}", heartbeat=None)
        board = _TimedBoard(link)
        loop = GameLoop(table, board=board, hub=hub)
        server = ScoreboardServer(create_app(hub, loop.post, "1234"), host="127.0.0.1", port=0)
        seen: queue.Queue[tuple[int, float]] = queue.Queue()
        stop = threading.Event()

        def watch(
            url: str = server.url,
            seen: queue.Queue[tuple[int, float]] = seen,
            stop: threading.Event = stop,
        ) -> None:
            with httpx.Client(timeout=30) as client, client.stream("GET", f"{url}/api/events") as stream:
                for line in stream.iter_lines():
                    if line.startswith("data: "):
                        seen.put((int(json.loads(line[6:]).get("serial", -1)), time.monotonic()))
                    if stop.is_set():
                        return

        watcher = threading.Thread(target=watch, daemon=True)
        watcher.start()
        loop.start()
        time.sleep(0.2)
        try:
            for event in script_game(seed).events:
                before = table.game.snapshot().serial
                if not isinstance(event, CardLanded):
                    loop.post(event)
                    loop.wait_idle()
                    continue
                posted = time.monotonic()
                board.serial = -1
                loop.post(CardLanded(event.card, event.zone, at=posted))
                loop.wait_idle()
                serial = table.game.snapshot().serial
                if serial == before:
                    continue
                web_at = None
                deadline = time.monotonic() + 5
                while web_at is None and time.monotonic() < deadline:
                    try:
                        got, at = seen.get(timeout=5)
                    except queue.Empty:
                        break
                    if got >= serial:
                        web_at = at
                board_at = board.latched.get(-1)
                board.latched.clear()
                if web_at is None or board_at is None:
                    continue
                to_board.append(board_at - posted)
                to_web.append(web_at - posted)
                to_both.append(max(board_at, web_at) - posted)
        finally:
            stop.set()
            loop.stop()
            server.stop()
            link.close()
    return to_board, to_web, to_both


def camera_share() -> str:
    try:
        import numpy as np

        from companion.vision.recognise import Recogniser
    except (ImportError, FileNotFoundError) as error:
        return f"not measured: {error}"
    try:
        recogniser = Recogniser()
    except FileNotFoundError as error:
        return f"not measured: {error}"
    frame = np.full((720, 1280, 3), 180, np.uint8)
    times = []
    for _ in range(20):
        began = time.perf_counter()
        recogniser.detect(frame)
        times.append(time.perf_counter() - began)
    return f"recognition of a blank 1280x720 frame: median {statistics.median(times) * 1000:.1f} ms"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    runs, games = (3, 1) if args.quick else (7, 3)
    print(f"machine: {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}")
    print("start-up of crib play to ready:")
    print("  without the scoreboard  ", _summary(startup(runs, serve=False)))
    print("  serving the scoreboard  ", _summary(startup(runs, serve=True)))
    print("a landed card to the outputs (virtual board, scoreboard over HTTP):")
    board, web, both = card_to_outputs(None, games)
    print("  board latched           ", _summary(board))
    print("  scoreboard received     ", _summary(web))
    print("  both                    ", _summary(both))
    harness = REPO / "firmware" / "build" / "crib-sim"
    if harness.is_file():
        from companion.board.sim import SimulatedBoard

        print("a landed card to the outputs (the real firmware in simavr, at 115200 baud on the wire):")
        with SimulatedBoard() as sim:
            board, web, both = card_to_outputs(sim.port, 1)
        print("  board latched           ", _summary(board))
        print("  scoreboard received     ", _summary(web))
        print("  both                    ", _summary(both))
    else:
        print(f"(firmware simulator not built: {harness}; run make -C firmware all)")
    print("the camera's share:", camera_share())
    print("  plus the tracker's debounce: a card is reported after resting 0.12 s (about 4 frames at 30 fps)")


if __name__ == "__main__":
    main()
