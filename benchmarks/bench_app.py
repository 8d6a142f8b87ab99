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
from companion.app.loop import GameLoop
from companion.app.simulate import script_game
from companion.app.store import Journal
from companion.app.table import Table
from companion.board.link import BoardLink
from companion.board.state import BoardState
from companion.events import CardLanded
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


def frame_to_outputs(frames_limit: int, figures: dict[str, object] | None = None) -> str:
    """The demo film through the real recognition and tracker into the loop (virtual board, scoreboard hub).

    For each card reported: the tracker's debounce (film time from the first frame showing the card at
    rest to the frame that reports it) plus the wall time of reading that frame and the loop showing the
    result on the board and the scoreboard.  Its medians go into ``figures`` when one is given.
    """
    try:
        from companion.vision.recognise import Recogniser

        recogniser = Recogniser(filmed=True)
    except (ImportError, OSError) as error:
        return f"not measured: {error}"
    from companion.app.camera import table_zone
    from companion.app.frames import HEIGHT, WIDTH, TableFilm
    from companion.app.simulate import demo_recording
    from companion.vision.tracker import CardAppeared, Tracker

    film = TableFilm(demo_recording())
    tracker = Tracker(film.layout, frame_size=(WIDTH, HEIGHT))
    hub = ScoreboardHub()
    table = Table(Journal(":memory:"), TableConfig(players=("Ann", "Bob"), games_to_win=1, pin="1234"))
    link = BoardLink("virtual://bench-film", heartbeat=None)
    loop = GameLoop(table, board=link, hub=hub)
    first_seen: dict[str, float] = {}
    detect_ms: list[float] = []
    totals: list[float] = []
    debounces: list[float] = []
    frames = 0
    for shot in film:
        if shot.frame is None:
            if shot.event is not None:
                loop.step(shot.event)
            continue
        frames += 1
        if frames > frames_limit:
            break
        for card, _ in shot.truth:
            first_seen.setdefault(card, shot.time)
        began = time.perf_counter()
        sightings = recogniser.detect(shot.frame)
        detect_ms.append((time.perf_counter() - began) * 1000)
        for event in tracker.update(sightings, shot.time):
            if isinstance(event, CardAppeared):
                loop.step(CardLanded(str(event.card), table_zone(event.zone)))
                debounce = shot.time - first_seen.get(str(event.card), shot.time)
                debounces.append(debounce)
                totals.append(debounce + time.perf_counter() - began)
        first_seen = {card: t for card, t in first_seen.items() if any(card == c for c, _ in shot.truth)}
    link.close()
    if not totals:
        return f"no card was reported in {frames} frames"
    debounce_ms = statistics.median(debounces) * 1000
    if figures is not None:
        figures["filmed frame read, ms, median"] = round(statistics.median(detect_ms), 1)
        figures["filmed card landed to outputs, ms, median"] = round(statistics.median(totals) * 1000)
        figures["of that, the tracker's wait for a card at rest, ms"] = round(debounce_ms)
    return (
        f"{frames} frames of the demo film: recognition median {statistics.median(detect_ms):.1f} ms per "
        f"1280x720 frame (worst {max(detect_ms):.1f}); {len(totals)} cards reported\n"
        f"  landed to outputs        {_summary(totals)}\n"
        f"  (the tracker's debounce, in film time, median {debounce_ms:.0f} ms of that)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--json", action="store_true", help="end with one line of JSON holding the figures")
    args = parser.parse_args()
    runs, games = (3, 1) if args.quick else (7, 3)
    figures: dict[str, object] = {}

    def median_ms(values: list[float]) -> float:
        return round(statistics.median(values) * 1000, 1)

    print(f"machine: {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}")
    print("start-up of crib play to ready:")
    alone, serving = startup(runs, serve=False), startup(runs, serve=True)
    print("  without the scoreboard  ", _summary(alone))
    print("  serving the scoreboard  ", _summary(serving))
    figures["start-up to ready, ms, median"] = median_ms(alone)
    figures["start-up to ready serving the scoreboard, ms, median"] = median_ms(serving)
    print("a landed card to the outputs (virtual board, scoreboard over HTTP):")
    board, web, both = card_to_outputs(None, games)
    figures["landed card to virtual board and scoreboard, ms, median"] = median_ms(both)
    print("  board latched           ", _summary(board))
    print("  scoreboard received     ", _summary(web))
    print("  both                    ", _summary(both))
    harness = REPO / "firmware" / "build" / "crib-sim"
    if harness.is_file():
        from companion.board.sim import SimulatedBoard

        print("a landed card to the outputs (the real firmware in simavr, at 115200 baud on the wire):")
        with SimulatedBoard() as sim:
            board, web, both = card_to_outputs(sim.port, 1)
        figures["landed card to board in the simulator and scoreboard, ms, median"] = median_ms(both)
        print("  board latched           ", _summary(board))
        print("  scoreboard received     ", _summary(web))
        print("  both                    ", _summary(both))
    else:
        print(f"(firmware simulator not built: {harness}; run make -C firmware all)")
    print("a card landing, filmed, to the outputs (real recognition, tracker, loop, board, scoreboard):")
    print("  " + frame_to_outputs(150 if args.quick else 600, figures))
    if args.json:
        print(json.dumps(figures))


if __name__ == "__main__":
    main()
