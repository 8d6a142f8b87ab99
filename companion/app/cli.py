"""``crib play``: the companion at the table -- or, with no camera, a replay of a recorded game.

With no camera (the default on a laptop) it replays the recording of a whole game bundled with the
package (the cuts, the starter, every card laid, the crib turned up, and one misread taken back with
undo), filmed as camera frames (a public-domain deck on a wooden table, hands passing over) and read
by the real card recognition and tracker, into the same table logic the camera feeds, against the
virtual board; it serves the scoreboard and prints the score after every deal.  ``--events`` feeds the
recording's table events instead, skipping the camera (quicker, and what the tests of the table use).
On the Pi::

    crib play --camera pi --board /dev/ttyUSB0 --gpio      # or: crib play --config /etc/crib/crib.toml

Everything the game does is journalled in ``--db`` before it takes effect; started again after a power
cut, ``crib play`` resumes the same game (and a replay resumes after the last card that took effect).
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import socket
import sys
import threading
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from companion.app.config import TableConfig, load_config
from companion.events import Event

if TYPE_CHECKING:
    from companion.vision.zones import TableLayout

__all__ = ["register", "run_play"]

_DEFAULT_DB = Path.home() / ".local" / "share" / "crib" / "crib.db"
_FAULT_LINGER_S = 30


def register(subparsers: Any) -> None:
    """Add ``crib play``."""
    play = subparsers.add_parser(
        "play",
        help="run the companion at the table (with no camera: replay a recorded game)",
        description="Run the companion: follow the game from the camera, peg it on the board, serve the "
        "scoreboard and keep every action in a database. With no --camera it replays a recorded game "
        "(the bundled one unless --recording is given) against the virtual board.",
    )
    play.add_argument(
        "--camera",
        nargs="?",
        const="pi",
        metavar="SOURCE",
        help="follow the table camera: 'pi' (default), camera:N, a video file or a folder of frames",
    )
    play.add_argument(
        "--layout",
        metavar="FILE",
        help="the table's zones and plane from 'crib calibrate --out FILE' (default: the first frame's)",
    )
    play.add_argument("--board", metavar="URL", help="the board's port: /dev/ttyUSB0, socket://..., a pty")
    play.add_argument("--gpio", action="store_true", help="read the knobs and buttons on the Pi's GPIO pins")
    play.add_argument("--config", metavar="FILE", help="a TOML settings file (see companion/app/config.py)")
    play.add_argument("--db", metavar="FILE", help="the game database (a replay without --db keeps nothing)")
    play.add_argument("--host", help="address to serve the scoreboard on (default 0.0.0.0)")
    play.add_argument("--port", type=int, help="port of the scoreboard (default 8121; 0: any free port)")
    play.add_argument(
        "--pin",
        help="the table's PIN for changes on the scoreboard (default: the one `crib pin` shows)",
    )
    play.add_argument(
        "--players",
        nargs="+",
        metavar="NAME",
        help="the players' names in seat order, by spaces or commas (four for four-player)",
    )
    play.add_argument(
        "--variant",
        metavar="{six-card,five-card,four-player}",
        help="the game (the settings file's variant): six cards to 121, five cards to 61, or four players "
        "in partnership; with no camera, a recorded game of it is replayed",
    )
    play.add_argument("--mode", choices=("auto", "claims"), help="the companion counts, or players claim")
    play.add_argument("--recording", metavar="FILE", help="replay this recording instead of the bundled one")
    replay = play.add_mutually_exclusive_group()
    replay.add_argument(
        "--events",
        dest="frames",
        action="store_false",
        help="replay the recording as the table's events, without the camera's frames",
    )
    replay.add_argument(
        "--frames",
        dest="frames",
        action="store_true",
        help="replay the recording filmed as camera frames, through the card recognition and the tracker "
        "(the default)",
    )
    play.add_argument(
        "--pace", type=float, metavar="SECONDS", help="pause between replayed events (default 0.02)"
    )
    play.add_argument("--speak", action="store_true", help="say every score aloud (needs espeak-ng)")
    play.add_argument("--no-serve", action="store_true", help="do not serve the scoreboard")
    play.add_argument("--once", action="store_true", help="stop when the replay (or the camera) ends")
    play.add_argument("--json", action="store_true", help="print the deals and the result as JSON lines")
    play.add_argument(
        "--quiet", action="store_true", help="print only each deal's totals and the result, not every score"
    )
    play.set_defaults(func=run_play, frames=True)


def _names(given: list[str] | None) -> tuple[str, ...] | None:
    """The names typed after ``--players``: ``Ann Bob`` or ``Ann,Bob`` (or both) read the same."""
    if not given:
        return None
    return tuple(name.strip() for text in given for name in text.split(",") if name.strip())


def _config(args: argparse.Namespace, *, names: bool = True) -> TableConfig:
    """The settings file with the command line's overrides (``names=False``: the players' names left
    for later, once the game a replay plays is known: four names need the four-player game)."""
    config = load_config(args.config)
    if args.variant is not None:
        config = _with_variant(config, args.variant.strip().lower(), _names(args.players))
    return config.with_changes(
        players=_names(args.players) if names else None,
        mode=args.mode,
        pin=args.pin,
        web_host=args.host,
        web_port=args.port,
        board_port=args.board,
        camera=args.camera,
        camera_layout=args.layout,
    )


def _table_layout(path: str | None, seats: int) -> TableLayout | None:
    """The layout file ``crib calibrate`` wrote, read before the game starts so a wrong one is said at
    once (None: the camera's first frame calibrates the table)."""
    if path is None:
        return None
    from companion.vision.zones import TableLayout, play_zone

    target = Path(path)
    hint = f"make it with crib calibrate PHOTO --players {seats} --out {target}"
    if not target.is_file():
        raise ValueError(f"there is no table layout {target}: {hint}")
    try:
        layout = TableLayout.load(target)
    except ValueError as error:
        raise ValueError(f"{target}: {error}") from None
    if any(play_zone(seat) not in layout.zones for seat in range(1, seats + 1)):
        raise ValueError(f"the table layout {target} has no play zone for each of {seats} players: {hint}")
    return layout


def _with_variant(config: TableConfig, variant: str, players: tuple[str, ...] | None) -> TableConfig:
    """The settings with the game ``--variant`` asks for; the file's names are kept if they fit it,
    else the seats are numbered until ``--players`` names them (a three-player game is refused by the
    settings in one sentence: the board has two tracks)."""
    from companion.app.config import DEFAULT_PLAYERS
    from companion.rules.variants import VARIANTS

    seats = VARIANTS[variant].players if variant in VARIANTS else len(config.players)
    if players is not None and len(players) == seats:
        names = players
    elif len(config.players) == seats:
        names = config.players
    else:
        names = DEFAULT_PLAYERS[:seats]
    return config.with_changes(variant=variant, players=names)


class _Printer:
    """Prints each deal's score as it completes, and the result."""

    def __init__(
        self, as_json: bool, *, quiet: bool = False, colour: bool = False, before: Any = None
    ) -> None:
        self.as_json = as_json
        self.quiet = quiet
        self.colour = colour
        self.before = before or (lambda: None)
        self.printed = 0
        self.finished = False
        self.lock = threading.Lock()

    def __call__(self, table: Any, event: Event | None) -> None:
        try:
            self._print(table)
        except BrokenPipeError:  # the output was closed (piped into head): the game goes on quietly
            self.as_json = True
            sys.stdout = open(os.devnull, "w")  # noqa: SIM115 - replaces stdout for the rest of the run

    def _print(self, table: Any) -> None:
        from companion.app.table import side_names
        from companion.app.view import deal_rows
        from companion.rules.game import Phase

        game = table.game
        rows = deal_rows(game)
        over = game.phase is Phase.GAME_OVER
        done = rows if over else rows[:-1]  # the last row is the deal in progress
        names = table.players
        sides = side_names(game, names)  # partners share a track: "Ann & Cal"
        with self.lock:
            self.before()
            if table.notice and not self.as_json and not self.quiet:
                print(f"  {table.notice}", flush=True)
            if len(done) < self.printed:  # an undo took a deal back
                self.printed = len(done)
            for row in done[self.printed :]:
                self._deal(row, names, sides)
            self.printed = len(done)
            if over and not self.finished:
                self.finished = True
                self._result(game, sides)
            elif not over:
                self.finished = False

    def _deal(self, row: dict[str, Any], names: tuple[str, ...], sides: tuple[str, ...]) -> None:
        if self.as_json:
            keys = ("deal", "dealer", "points", "scores")
            print(json.dumps({key: row[key] for key in keys}), flush=True)
            return
        from companion.app.terminal import painted

        dealer = "" if row["dealer"] is None else f" ({names[row['dealer']]} deals)"
        pairs = zip(row["points"], row["scores"], strict=True)
        parts = [
            f"{painted(sides[i], i, self.colour)} +{points} = {score}"
            for i, (points, score) in enumerate(pairs)
        ]
        print(f"deal {row['deal']:>2}{dealer}: " + ", ".join(parts), flush=True)

    def _result(self, game: Any, sides: tuple[str, ...]) -> None:
        snapshot = game.snapshot()
        winner = snapshot.winner
        scores = list(snapshot.scores)
        if self.as_json:
            print(json.dumps({"winner": winner, "scores": scores, "skunk": snapshot.skunk}), flush=True)
            return
        loser = max(s for i, s in enumerate(scores) if i != winner)
        skunk = {"skunk": " -- a skunk", "double-skunk": " -- a double skunk"}.get(snapshot.skunk or "", "")
        print(f"{sides[winner]} {_verb(sides[winner])} {scores[winner]} to {loser}{skunk}", flush=True)


def run_play(args: argparse.Namespace) -> int:
    """Start the companion and run until the replay ends (``--once``) or Ctrl-C."""
    started = time.perf_counter()
    config = _config(args, names=False)
    from companion.app.loop import GameLoop, resume_table
    from companion.app.store import Journal
    from companion.board.link import VIRTUAL_URL, BoardLink
    from companion.web.hub import ScoreboardHub

    replaying = config.camera is None
    if args.db:
        db_path = Path(args.db)
    elif replaying:
        db_path = Path(":memory:")
    else:
        db_path = Path(config.db_path) if config.db_path != "crib.db" else _DEFAULT_DB
        db_path.parent.mkdir(parents=True, exist_ok=True)
    recording = None
    scripted = False
    if replaying:
        from companion.app.simulate import DEMO_PATH, Recording

        recording = Recording.load(args.recording or DEMO_PATH)
        if args.variant is not None and config.variant != recording.variant:
            if args.recording:
                raise ValueError(f"{args.recording} is a game of {recording.variant}, not {config.variant}")
            from companion.app.simulate import DEMO_SEED, script_game

            # No recording of this game is bundled: a scripted one, dealt from the demo's seed.
            recording = script_game(DEMO_SEED, mode=config.mode, variant=config.variant)
            scripted = True
        from companion.app.config import DEFAULT_PLAYERS
        from companion.rules.variants import variant_named

        # The recording's game decides how many play; the file's names are kept if they fit it.
        seats = variant_named(recording.variant).players
        names = config.players if len(config.players) == seats else DEFAULT_PLAYERS[:seats]
        config = config.with_changes(mode=recording.mode, variant=recording.variant, players=names)
    if args.players:
        config = config.with_changes(players=_names(args.players))
    seats = len(config.players)
    table_layout = _table_layout(config.camera_layout, seats) if config.camera is not None else None
    journal = Journal(db_path)
    try:
        table = resume_table(journal, config)
    except OSError:
        journal.close()
        raise
    hub = ScoreboardHub()
    link = BoardLink(config.board_port or VIRTUAL_URL, heartbeat=1.0 if config.board_port else None)
    loop = GameLoop(table, board=link, hub=hub, brightness=config.brightness)
    from companion.app.terminal import Caller, Progress, colour_for, ending, waiting

    colour = colour_for(sys.stdout) and not args.json
    progress = Progress(sys.stdout, what=lambda: waiting(table)) if not args.json else None

    def out(text: str) -> None:
        if progress is not None:
            progress.clear()
        _say(args, text)

    printer = _Printer(
        args.json, quiet=args.quiet, colour=colour, before=progress.clear if progress else None
    )
    caller = Caller(out, quiet=args.quiet, colour=colour)
    if not args.json:
        loop.listeners.append(caller)
    loop.listeners.append(printer)
    seen = None if args.quiet else (lambda text: out(f"  camera: {text}"))
    server = None
    controls = None
    camera = None
    speaker = None
    if args.speak:
        from companion.app.speech import Speaker, espeak_command

        command = espeak_command()
        if command is None:
            print("crib: --speak needs espeak-ng (apt-get install espeak-ng); no speech", file=sys.stderr)
        else:
            speaker = Speaker(command)
            loop.listeners.append(speaker)
    stop = threading.Event()
    loop.fault_listeners.append(lambda _fault: stop.set())  # the journal failed: the table has stopped
    terminated = threading.Event()

    def on_sigterm(*_: Any) -> None:
        stop.set()
        terminated.set()

    previous = signal.signal(signal.SIGTERM, on_sigterm)
    try:
        if not args.no_serve:
            server, pin = _serve(hub, loop, config, journal, db_path)
        if args.gpio:
            from companion.controls import TableControls

            controls = TableControls(loop.post, config.gpio)
        loop.start()
        if table.resumed:
            _say(args, f"resumed the game in {db_path}: {table.game.waiting_for()}")
        ready = time.perf_counter() - started
        where = ""
        if server is not None:
            where = f"; scoreboard at {server.url}"
            if config.web_host in ("0.0.0.0", "::", ""):
                where += f" and {server.scheme}://{socket.gethostname()}.local:{server.port} on the network"
            where += f" (PIN {pin})"
        _say(args, f"ready in {ready * 1000:.0f} ms{where}")
        if recording is not None:
            source = "the bundled recording" if not args.recording else args.recording
            if scripted:
                source = f"a scripted {recording.variant} game"
            counting = "counted by the companion" if recording.mode == "auto" else "players claiming"
            detect, why = _recogniser() if args.frames else (None, "as asked by --events")
            if detect is None:
                _say(args, f"replaying {source} ({counting}) as table events ({why})")
                _replay(loop, recording, table.cursor + 1, args.pace if args.pace is not None else 0.02, stop)
            else:
                from companion.app.frames import TableFilm, play_film

                _say(args, f"replaying {source} ({counting}) as camera frames through the card recognition")
                answers: list[str] = []
                film = TableFilm(recording, start=table.cursor + 1)
                frames = play_film(
                    film, loop, detect, stop=stop, answers=answers, say=seen, progress=progress
                )
                loop.wait_idle(30)
                out(ending(table, frames, len(answers), replay=True))
        else:
            from companion.app.camera import CameraFeed

            assert config.camera is not None

            def read_so_far(_: Any) -> None:
                if progress is not None and camera is not None:
                    progress(camera.frames)

            camera = CameraFeed(
                config.camera,
                lambda event, _: loop.post(event),
                layout=table_layout,
                say=seen,
                after=read_so_far,
                players=len(config.players),
            )
            loop.listeners.append(camera.watch.follow)
            camera.watch.follow(table, None)
            if table_layout is not None:
                slant = "; the camera looks at a slant: frames are read as if from above"
                _say(
                    args,
                    f"the table's zones from {config.camera_layout}{slant if table_layout.plane else ''}",
                )
            _say(args, f"watching the table through {config.camera}")
            camera.start()
            while camera.running and not stop.is_set():
                stop.wait(0.2)
            loop.wait_idle(30)
            if camera.error:
                print(f"crib: {camera.error}", file=sys.stderr)
            out(ending(table, camera.frames, caller.asked, replay=False))
        loop.wait_idle(30)
        if args.once and server is not None:
            out(f"the scoreboard at {server.url} stops now, with the game (--once)")
        if not args.once and server is not None and not stop.is_set():
            _say(args, f"the scoreboard stays up at {server.url}; Ctrl-C to stop")
            while not stop.is_set():
                stop.wait(0.5)
        if loop.fault and not args.once and server is not None:
            # Leave the scoreboard's banner up a while, so the players read why the game stopped.
            print(f"crib: {loop.fault}; the scoreboard says so for {_FAULT_LINGER_S} s", file=sys.stderr)
            terminated.wait(_FAULT_LINGER_S)
    finally:
        signal.signal(signal.SIGTERM, previous)
        if camera is not None:
            camera.stop()
        loop.stop()
        if controls is not None:
            controls.close()
        if speaker is not None:
            speaker.close()
        if server is not None:
            server.stop()
        link.wait_shown(2.0)  # the last state (or the fault's flashing) reaches a board that answers
        link.close()
        journal.close()
    if loop.fault:
        print(f"crib: {loop.fault}", file=sys.stderr)
        return 1
    return 0


def _say(args: argparse.Namespace, text: str) -> None:
    if not args.json:
        print(text, flush=True)


def _replay(loop: Any, recording: Any, start: int, pace: float, stop: threading.Event) -> None:
    """Feed the recording's events from ``start`` to the loop, waiting for each to take effect."""
    for index in range(start, len(recording.events)):
        if stop.is_set():
            return
        event = recording.events[index]
        loop.post_at(event, index)
        loop.wait_idle(30)
        if pace > 0:
            time.sleep(pace)


def _recogniser() -> tuple[Any, str]:
    """The real card recognition for the film, or None and why it cannot be used here."""
    try:
        from companion.vision.recognise import Recogniser

        recogniser = Recogniser(filmed=True)
    except (ImportError, OSError):
        return None, "the card model is not built here: python -m tools.vision_build"

    def detect(shot: Any) -> Any:
        return recogniser.detect(shot.frame)

    return detect, ""


def _serve(hub: Any, loop: Any, config: TableConfig, journal: Any, db_path: Path) -> tuple[Any, str]:
    """The scoreboard's server and its PIN (the settings', else the one kept beside the database)."""
    from companion.app.view import layout_dict, statistics
    from companion.web.app import create_app
    from companion.web.pin import PinFile
    from companion.web.server import ScoreboardServer

    state = _DEFAULT_DB.parent if str(db_path) == ":memory:" else db_path.parent
    pin = config.pin if config.pin is not None else PinFile(state)
    app = create_app(
        hub,
        loop.post,
        pin,
        layout=layout_dict(),
        stats=lambda: statistics(journal),
        hosts=config.web_hosts or None,
    )
    server = ScoreboardServer(
        app,
        host=config.web_host,
        port=config.web_port,
        certfile=config.web_certfile,
        keyfile=config.web_keyfile,
    )
    return server, pin if isinstance(pin, str) else pin.current()


def _verb(side: str) -> str:
    """Partners win together: "Ann wins", but "Ann & Cal win"."""
    return "win" if " & " in side else "wins"
