"""``crib board``: drive the peg board from the terminal (the virtual one unless ``--port`` says otherwise).

``crib board show 0 37 45 1 80 88`` puts track 0's pegs in holes 37 and 45 and track 1's in 80 and 88;
``crib board test`` runs the board's self-test and checks the link; ``crib board demo`` plays a game's
worth of scores on it; ``crib board serve`` puts the virtual board behind a pseudo-terminal for another
program to open.  With the virtual board the result is drawn in the terminal, and ``--svg FILE``
writes a drawing of any board's state.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

from companion.board.link import VIRTUAL_URL, BoardLink
from companion.board.state import GAME_HOLE, BoardState, Mode, Tentative
from companion.board.virtual import PtyServer, VirtualBoard, draw, render_svg, render_text


def register(subparsers: Any) -> None:
    """Add ``crib board`` and its actions."""
    board = subparsers.add_parser(
        "board",
        help="drive the LED peg board (the virtual board unless --port is given)",
        description="Drive the LED peg board over its USB serial port, or the virtual board, which is "
        "drawn in the terminal.",
    )
    actions = board.add_subparsers(dest="board_action", metavar="ACTION", required=True)

    common = argparse.ArgumentParser(add_help=False)
    common.add_argument(
        "--port",
        default=VIRTUAL_URL,
        help="the board: a device (/dev/ttyUSB0), a pty path, socket://HOST:PORT, or virtual:// "
        "(the default: a board in this process, drawn in the terminal)",
    )
    common.add_argument("--svg", type=Path, metavar="FILE", help="also write a drawing of the board as SVG")

    show = actions.add_parser(
        "show",
        parents=[common],
        help="put the pegs in given holes",
        description="Show the pegs: for each track, its number then the rear and forward peg's holes "
        "(0 = the start holes). A track not given keeps its pegs at the start.",
    )
    show.add_argument(
        "pegs", nargs="+", metavar="N", help="TRACK REAR FORWARD, repeated: e.g. 0 37 45 1 80 88"
    )
    show.add_argument("--brightness", type=int, default=64, help="0..255 (default 64)")
    show.add_argument("--tentative", metavar="TRACK,HOLE", help="a claimed hole that blinks")
    show.add_argument(
        "--question", action="store_true", help="a question waits: hole 1 and the forward pegs flash white"
    )
    show.set_defaults(func=run_show)

    test = actions.add_parser(
        "test",
        parents=[common],
        help="check the link and run the board's self-test",
        description="Handshake, time a few round trips, run the self-test (every LED in turn) and read "
        "the state back.",
    )
    test.set_defaults(func=run_test)

    demo = actions.add_parser(
        "demo",
        parents=[common],
        help="play a game's worth of scores on the board",
        description="Peg a made-up game to 121: each score is first shown as a blinking claim, then "
        "pegged; the winner's animation ends it.",
    )
    demo.add_argument("--delay", type=float, default=0.4, help="seconds between moves (default 0.4)")
    demo.add_argument("--seed", type=int, default=None, help="seed for the made-up scores")
    demo.set_defaults(func=run_demo)

    serve = actions.add_parser(
        "serve",
        help="serve the virtual board on a pseudo-terminal",
        description="Put the virtual board behind a pseudo-terminal and print its path, so another "
        "program (the companion, picocom, a test) can open it like a real board; every frame is printed.",
    )
    serve.add_argument("--draw", action="store_true", help="draw the board after every state it latches")
    serve.add_argument("--seconds", type=float, default=None, help="stop after this long (default: Ctrl-C)")
    serve.set_defaults(func=run_serve)


# --- parsing ---------------------------------------------------------------------------------------


def _integer(text: str, what: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise ValueError(f"{what} {text!r} is not a whole number") from None


def parse_pegs(
    words: list[str], brightness: int = 64, tentative: str | None = None, *, question: bool = False
) -> BoardState:
    """``["0", "37", "45", "1", "80", "88"]`` as a game state; ValueError with one sentence if wrong."""
    if len(words) % 3:
        raise ValueError(
            f"give the pegs as TRACK REAR FORWARD, repeated; {len(words)} numbers do not split so"
        )
    state = BoardState.playing((0, 0), (0, 0), brightness=brightness)
    seen: set[int] = set()
    for index in range(0, len(words), 3):
        track = _integer(words[index], "track")
        rear = _integer(words[index + 1], "rear peg")
        forward = _integer(words[index + 2], "forward peg")
        if track not in (0, 1):
            raise ValueError(f"track {track} does not exist: the board has tracks 0 and 1")
        if track in seen:
            raise ValueError(f"track {track} is given twice")
        seen.add(track)
        for what, hole in (("rear", rear), ("forward", forward)):
            if not 0 <= hole <= GAME_HOLE:
                raise ValueError(f"the {what} peg of track {track} at {hole} is not a hole 0..{GAME_HOLE}")
        if rear > forward:
            raise ValueError(
                f"the rear peg of track {track} at {rear} is ahead of its forward peg at {forward}"
            )
        state = state.with_pegs(track, rear, forward)
    if tentative is not None:
        parts = tentative.split(",")
        if len(parts) != 2:
            raise ValueError(f"--tentative {tentative!r} is not TRACK,HOLE")
        claim = Tentative(_integer(parts[0], "track"), _integer(parts[1], "hole"))
        state = BoardState(state.mode, state.brightness, state.pegs, claim, None)
    return replace(state, question=question)


# --- output ----------------------------------------------------------------------------------------


def _colour_terminal() -> bool:
    return sys.stdout.isatty() and not os.environ.get("NO_COLOR")


def _picture(link: BoardLink, state: BoardState) -> str:
    """The board as the terminal shows it: the virtual board's own LEDs, else the state drawn alike."""
    board = link.virtual_board
    if board is not None:
        return board.render_text(colour=_colour_terminal(), phase_s=0.0)
    return render_text(link.layout, draw(state, link.layout), colour=_colour_terminal())


def _describe(state: BoardState) -> str:
    words = []
    for track, pegs in enumerate(state.pegs):
        words.append(f"track {track}: rear {pegs.rear}, forward {pegs.forward}")
    if state.tentative is not None:
        words.append(f"claim on track {state.tentative.track} at {state.tentative.hole}")
    if state.question:
        words.append("a question is waiting")
    return "; ".join(words)


def _write_svg(path: Path | None, link: BoardLink, state: BoardState) -> None:
    if path is None:
        return
    path.write_text(
        render_svg(link.layout, draw(state, link.layout), title=_describe(state)), encoding="utf-8"
    )
    print(f"drawing written to {path}")


def _is_virtual(link: BoardLink) -> bool:
    return link.url.lower().startswith("virtual://")


# --- actions ---------------------------------------------------------------------------------------


def run_show(args: argparse.Namespace) -> int:
    """Put the pegs where the command line says."""
    if not 0 <= args.brightness <= 255:
        raise ValueError(f"brightness {args.brightness} is not in 0..255")
    state = parse_pegs(args.pegs, args.brightness, args.tentative, question=args.question)
    with BoardLink(args.port, heartbeat=None) as link:
        link.show(state)
        if _is_virtual(link):
            print(_picture(link, state), end="")
        print(f"{link.url}: {_describe(state)}")
        _write_svg(args.svg, link, state)
    return 0


def run_test(args: argparse.Namespace) -> int:
    """Handshake, round trips, a read-back of a still state, then the self-test."""
    with BoardLink(args.port, heartbeat=None) as link:
        info = link.connect()
        print(
            f"board at {link.url}: firmware {info.firmware}, protocol {info.protocol}, {info.tracks} tracks "
            f"of {info.holes} holes, {info.leds} LEDs, current cap {info.cap_ma} mA"
        )
        trips = [link.ping() for _ in range(10)]
        print(f"round trip (PING, median of 10): {statistics.median(trips) * 1000:.2f} ms")
        state = BoardState.playing((0, 0), (0, 0))
        link.show(state)
        back = link.read_state()
        if back != state:
            print(f"read-back: the board reports {' '.join(back.to_command(full=True))}, not the state sent")
            return 1
        print("read-back: the board reports exactly the state sent")
        stats = link.stats
        print(f"link: {stats.requests} requests, {stats.timeouts} timeouts, {stats.naks} NAKs")
        # While the self-test animates, a request can collide with a refresh and be sent again: poll
        # gently, and do not count those resends against the link.
        started = time.perf_counter()
        link.show(BoardState(mode=Mode.TEST))
        print(f"self-test: lighting all {info.leds} LEDs in turn ...", flush=True)
        deadline = time.monotonic() + 20.0
        while True:
            time.sleep(0.5)
            if link.read_state().mode is not Mode.TEST:
                print(f"self-test: done in {time.perf_counter() - started:.1f} s")
                break
            if time.monotonic() > deadline:
                print("self-test: still running after 20 s; not waiting for it")
                break
        link.show(state)
        _write_svg(args.svg, link, state)
    return 0


#: Scores a made-up game pegs: mostly small pegging points, now and then a hand's count.
_SCORES = (1, 1, 2, 2, 2, 3, 4, 4, 5, 6, 6, 7, 8, 8, 9, 10, 12, 14, 16)


def run_demo(args: argparse.Namespace) -> int:
    """Peg a made-up game, claims blinking first, to the winner's animation."""
    if args.delay < 0:
        raise ValueError(f"--delay {args.delay} is negative")
    rng = random.Random(args.seed)
    scores = [0, 0]
    rears = [0, 0]
    with BoardLink(args.port, heartbeat=None) as link:
        virtual = _is_virtual(link)
        state = BoardState.playing((0, 0), (0, 0))
        link.show(state)
        player = 0
        move = 0
        while max(scores) < GAME_HOLE:
            move += 1
            points = rng.choice(_SCORES)
            target = min(GAME_HOLE, scores[player] + points)
            claim = BoardState(state.mode, state.brightness, state.pegs, Tentative(player, target), None)
            link.show(claim)
            time.sleep(args.delay / 2)
            rears[player], scores[player] = scores[player], target
            state = state.with_pegs(player, rears[player], scores[player])
            link.show(state)
            line = (
                f"move {move:>2}: track {player} pegs {points:>2}, {rears[player]:>3} -> {scores[player]:>3}"
            )
            if virtual and _colour_terminal():
                print("\x1b[H\x1b[2J" + _picture(link, state) + line, flush=True)
            else:
                print(line, flush=True)
            time.sleep(args.delay / 2)
            player = 1 - player
        winner = 0 if scores[0] >= GAME_HOLE else 1
        pegs = state.pegs
        state = BoardState(Mode.WIN, state.brightness, (pegs[0], pegs[1]), None, winner)
        link.show(state)
        print(f"track {winner} wins, {scores[winner]} to {scores[1 - winner]}")
        if virtual and not _colour_terminal():
            print(_picture(link, state), end="")
        _write_svg(args.svg, link, state)
    return 0


def run_serve(args: argparse.Namespace) -> int:
    """Serve the virtual board on a pty until Ctrl-C (or ``--seconds``), printing the conversation."""
    if args.seconds is not None and args.seconds <= 0:
        raise ValueError(f"--seconds {args.seconds} is not a positive number of seconds")
    pending = bytearray()
    board = VirtualBoard()
    latched = board.latched

    def traffic(sent: bytes, reply: bytes) -> None:
        nonlocal latched
        pending.extend(sent)
        while b"\n" in pending:
            line, _, rest = bytes(pending).partition(b"\n")
            pending[:] = rest
            print("> " + line.decode("ascii", "replace").strip("\r"), flush=True)
        for answer in reply.decode("ascii", "replace").splitlines():
            print("< " + answer, flush=True)
        if args.draw and board.latched != latched:
            latched = board.latched
            print(board.render_text(colour=_colour_terminal(), phase_s=0.0), end="", flush=True)

    with PtyServer(board, on_traffic=traffic) as server:
        print(f"virtual board on {server.path} (115200 8N1); Ctrl-C stops", flush=True)
        deadline = None if args.seconds is None else time.monotonic() + args.seconds
        while deadline is None or time.monotonic() < deadline:
            time.sleep(0.05)
    return 0
