"""The link to the board: one call, ``show(state)``, that returns once the board has latched the state.

Why one module of about 600 lines: the connection, the handshake, the retries and the sender thread are
one state machine sharing one lock; cut in two, each half would reach into the other's state.

Everything that can go wrong between the Pi and the board is handled here, so the game never sees it:

* The port is opened by URL through pyserial (``/dev/ttyUSB0``, a pty path, ``socket://host:port``,
  ``loop://``, ``virtual://``), so the same code drives the board, the firmware in the simulator and the
  virtual board.
* Opening a Nano's port resets it; the link says ``HELLO`` (and again, every quarter second) until the
  board answers, for up to ``connect_timeout`` seconds, and checks the board's geometry against the
  layout.  A ``READY`` banner from a board that has just started cuts the wait short.
* Every request waits for its reply (the board answers a ``STATE`` only after the LEDs are latched, so
  the host never sends during a refresh, when the chip's UART drops bytes).  A timeout, a ``NAK`` or a
  reply that does not echo the request's sequence number means doubt, and doubt means sending the full
  state again, which is harmless because a ``STATE`` is idempotent.
* If the port fails (the cable pulled, the board's USB chip re-enumerating) the link reopens it for up
  to ``reconnect_timeout`` seconds, handshakes and restores the last state before going on.  A heartbeat
  (``GET`` every ``heartbeat`` seconds, from a background thread) notices a board that reset or lost its
  state on its own and restores it the same way.
* When all of that fails, ``show`` raises :class:`BoardError` (an ``OSError``) with one sentence saying
  why; the next call starts over, so a board plugged back in later is picked up again.
* The game loop never calls ``show``: it hands the latest state to ``post``, which returns at once.  A
  thread owned by the link (the *sender*) shows it; while the board does not answer, ``trouble`` says so
  from the first timeout on (the scoreboard shows "board offline"), the sender tries again every
  ``retry_interval`` seconds with whatever state is latest by then, and the game goes on meanwhile.
  ``listeners`` hear each change of ``trouble`` (on the sender's thread).

Usage::

    with BoardLink("/dev/ttyUSB0") as link:
        link.show(BoardState.playing((37, 45), (80, 88)))

All methods are thread-safe; a request holds the link's lock from its first byte to its reply.
"""

from __future__ import annotations

import contextlib
import logging
import re
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from types import TracebackType
from typing import Any

import serial

from companion.board import virtual
from companion.board.layout import Layout, default_layout
from companion.board.protocol import PROTOCOL_VERSION, BadFrame, Frame, FrameDecoder
from companion.board.state import BoardState, Mode

log = logging.getLogger(__name__)

#: The port used when none is given: the virtual board, in this process.
VIRTUAL_URL = "virtual://"
BAUD = 115200
_READ_SLICE_S = 0.01  # how long one read waits for a byte before the link checks its deadlines
_HELLO_INTERVAL_S = 0.25
_MAX_RECONNECTIONS = 3  # within one request
#: NAK reasons that refuse the request itself: resending may be a retry, reopening the port will not help.
_REFUSALS = frozenset({"syntax", "range", "unknown"})


class BoardError(OSError):
    """The board cannot be reached, or would not take a state after every retry."""


@dataclass(frozen=True)
class BoardInfo:
    """What the board said about itself in reply to HELLO."""

    protocol: int
    firmware: str
    tracks: int
    holes: int
    leds: int
    cap_ma: int

    @classmethod
    def from_reply(cls, reply: Frame) -> BoardInfo:
        options = reply.options()
        try:
            return cls(
                protocol=int(options["proto"]),
                firmware=options["fw"],
                tracks=int(options["tracks"]),
                holes=int(options["holes"]),
                leds=int(options["leds"]),
                cap_ma=int(options["cap"]),
            )
        except (KeyError, ValueError) as error:
            raise BoardError(f"the board's reply to HELLO ({reply}) lacks or mangles {error}") from None


@dataclass
class LinkStats:
    """Counters of what the link had to do, for the benchmark, the logs and the tests."""

    requests: int = 0  # frames sent
    timeouts: int = 0  # requests that got no reply in time
    naks: int = 0  # requests the board refused (and were sent again)
    stale: int = 0  # replies discarded because they did not echo the request's sequence number
    connects: int = 0  # successful handshakes, the first one included
    restores: int = 0  # times the state was sent again because the board had lost it
    resets_seen: int = 0  # READY banners seen (the board started up)


class BoardLink:
    """A connection to one board, opened by URL, that keeps the board showing the state it was given."""

    def __init__(
        self,
        url: str = VIRTUAL_URL,
        *,
        layout: Layout | None = None,
        reply_timeout: float = 0.1,
        attempts: int = 4,
        connect_timeout: float = 3.0,
        reconnect_timeout: float = 5.0,
        heartbeat: float | None = 1.0,
        baudrate: int = BAUD,
        retry_interval: float = 1.0,
    ) -> None:
        """Nothing is opened until the first request (or ``connect()``, or entering a ``with``)."""
        virtual.register_url_handler()
        self.url = url
        self.layout = layout or default_layout()
        self.reply_timeout = reply_timeout
        self.attempts = attempts
        self.connect_timeout = connect_timeout
        self.reconnect_timeout = reconnect_timeout
        self.heartbeat = heartbeat
        self.baudrate = baudrate
        self.retry_interval = retry_interval
        self.stats = LinkStats()
        self.info: BoardInfo | None = None
        self._lock = threading.RLock()
        self._port: Any = None  # a pyserial port (pyserial is untyped)
        self._decoder = FrameDecoder()
        self._seq = 0
        self._wanted: BoardState | None = None  # the last state asked for: what a restore sends
        self._shown: BoardState | None = None  # the last state the board acknowledged
        self._ever_connected = False
        self._offline_since: float | None = None  # when the board went away and stayed away
        self._state_lost = False  # the board restarted since it last acknowledged a STATE
        self._closed = False
        self._stop = threading.Event()
        self._watcher: threading.Thread | None = None
        # The sender's side (never under ``_lock``, so ``post`` cannot wait on a board that is slow):
        self._posted: BoardState | None = None  # the latest state handed over and not yet taken
        self._posted_at = 0  # how many states have been handed over
        self._done_at = 0  # how many of them the board has latched (or were overtaken by a later one)
        self._post_ready = threading.Condition()
        self._sender: threading.Thread | None = None
        self._trouble = ""
        self.listeners: list[Callable[[str], None]] = []
        """Called with the new ``trouble`` ("" when the board answers again), on the link's threads."""

    # --- the public API ---------------------------------------------------------------------------

    @property
    def connected(self) -> bool:
        return self._port is not None

    @property
    def port(self) -> Any:
        """The open pyserial port, or None (for a ``virtual://`` port, ``port.board`` is the board)."""
        return self._port

    @property
    def virtual_board(self) -> virtual.VirtualBoard | None:
        """The board behind a ``virtual://`` port (to draw it), else None."""
        board = getattr(self._port, "board", None)
        return board if isinstance(board, virtual.VirtualBoard) else None

    @property
    def offline(self) -> bool:
        """True while a board that was connected stays away (calls fail fast; the heartbeat looks for it)."""
        return self._offline_since is not None

    @property
    def trouble(self) -> str:
        """Why the board is not showing the game ("" while it answers): set at the first timeout."""
        return self._trouble

    def post(self, state: BoardState) -> None:
        """Hand the board its next state and return at once; the link's sender shows it when it can.

        Only the latest state matters (each is a full state): one posted while the board is away replaces
        the one before, and is shown when the board answers again.
        """
        self._check_open()
        with self._post_ready:
            self._posted = state
            self._posted_at += 1
            self._post_ready.notify_all()
            if self._sender is None:
                name = f"board sender {self.url}"
                self._sender = threading.Thread(target=self._send, name=name, daemon=True)
                self._sender.start()

    def wait_shown(self, timeout: float = 5.0) -> bool:
        """Block until the board has latched the last posted state (tests, and the last state at exit)."""
        deadline = time.monotonic() + timeout
        with self._post_ready:
            while self._done_at < self._posted_at:
                left = deadline - time.monotonic()
                if left <= 0 or self._stop.is_set():
                    return False
                self._post_ready.wait(left)
        return True

    @property
    def shown(self) -> BoardState | None:
        """The last state the board acknowledged."""
        return self._shown

    def connect(self) -> BoardInfo:
        """Open the port and handshake, if not done yet; return what the board said about itself."""
        with self._lock:
            self._check_open()
            if self._port is None:
                self._connect(first=not self._ever_connected)
            assert self.info is not None
            return self.info

    def show(self, state: BoardState) -> None:
        """Make the board show ``state``; returns once the board has latched it.

        Raises BoardError if the board could not be reached or kept refusing, after every retry and
        reconnection allowed.  The state is still remembered and will be restored once the board is back.
        """
        with self._lock:
            self._check_open()
            self._wanted = state
            self._request("STATE", state.to_command())
            self._shown = state

    def ping(self) -> float:
        """Round trip of one PING, in seconds."""
        with self._lock:
            self._check_open()
            started = time.perf_counter()
            self._request("PING", ())
            return time.perf_counter() - started

    def read_state(self) -> BoardState:
        """The state the board reports it is showing (GET)."""
        with self._lock:
            self._check_open()
            reply = self._request("GET", ())
            try:
                return BoardState.from_command(reply.args)
            except ValueError as error:
                raise BoardError(
                    f"the board's reply to GET ({reply}) does not read as a state: {error}"
                ) from None

    def close(self) -> None:
        """Stop the heartbeat and the sender and close the port.  Safe to call more than once."""
        self._stop.set()
        with self._post_ready:
            self._post_ready.notify_all()
        for thread in (self._watcher, self._sender):
            if thread is not None and thread is not threading.current_thread():
                thread.join(timeout=5.0)
        with self._lock:
            self._closed = True
            self._drop_port()

    def __enter__(self) -> BoardLink:
        self.connect()
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        value: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"BoardLink({self.url!r})"

    # --- connection ---------------------------------------------------------------------------------

    def _check_open(self) -> None:
        if self._closed:
            raise BoardError(f"the link to {self.url} is closed")

    def _open_port(self) -> None:
        # A device path is locked for this link alone (a second program would steal half the replies);
        # URL handlers other than the plain device ignore the flag.
        exclusive = "://" not in self.url
        try:
            port = serial.serial_for_url(
                self.url,
                baudrate=self.baudrate,
                timeout=_READ_SLICE_S,
                write_timeout=1.0,
                exclusive=exclusive,
            )
        except (OSError, ValueError) as error:
            reason = _sentence(error)
            if "exclusively lock" in str(error) or "already open" in str(error):
                reason = "it is in use by another program"
            raise BoardError(f"cannot open the board at {self.url}: {reason}") from None
        self._port = port
        self._decoder.reset()

    def _drop_port(self) -> None:
        port, self._port = self._port, None
        self.info = None
        if port is not None:
            # pyserial's socket:// close() skips closing the socket when shutdown() fails, as it does
            # once the peer has gone; close it here too so a reconnecting link leaks no descriptors.
            sock = getattr(port, "_socket", None)
            with contextlib.suppress(OSError, ValueError):  # a device already gone has nothing to release
                port.close()
            if sock is not None:
                sock.close()

    def _connect(self, *, first: bool, restore: bool = True) -> None:
        """Open the port and handshake; then put back the state the board should be showing.

        On the first connection a port that cannot be opened fails at once (a wrong path is a mistake to
        report, not to wait out).  Once the board has been seen, the port is retried for
        ``reconnect_timeout`` seconds, as a cable plugged back in takes a moment to re-enumerate.  If the
        board stays away longer the link is *offline*: each later call tries the port once and fails at
        once, so the game is not held up, while the heartbeat keeps looking for the board in the
        background and restores the state when it is back.
        """
        patient = not first and self._offline_since is None
        deadline = time.monotonic() + (self.reconnect_timeout if patient else 0.0)
        try:
            while True:
                try:
                    self._open_port()
                    break
                except BoardError:
                    if time.monotonic() >= deadline:
                        raise
                    time.sleep(0.1)
            try:
                self._handshake()
            except OSError as error:
                self._drop_port()
                if isinstance(error, BoardError):
                    raise
                raise BoardError(
                    f"the board at {self.url} went away during the handshake: {_sentence(error)}"
                ) from None
        except BoardError as error:
            self._set_trouble(str(error))
            if self._ever_connected and self._offline_since is None:
                self._offline_since = time.monotonic()
                log.warning(
                    "the board at %s is offline; the state will be restored when it is back", self.url
                )
            raise
        if self._offline_since is not None:
            log.info("the board at %s is back after %.1f s", self.url, time.monotonic() - self._offline_since)
        self._offline_since = None
        self._ever_connected = True
        self.stats.connects += 1
        self._start_watcher()
        self._state_lost = self._wanted is not None
        if restore and self._wanted is not None:
            self._restore()

    def _handshake(self) -> None:
        """HELLO until the board answers (it may still be in its bootloader), then check its geometry."""
        deadline = time.monotonic() + self.connect_timeout
        while time.monotonic() < deadline and not self._stop.is_set():
            timeout = min(_HELLO_INTERVAL_S, max(0.0, deadline - time.monotonic()))
            reply = self._exchange("HELLO", (), timeout, until_ready=True)
            if reply is None or not reply.is_ok:
                continue
            info = BoardInfo.from_reply(reply)
            if info.protocol != PROTOCOL_VERSION:
                raise BoardError(
                    f"the board at {self.url} speaks protocol {info.protocol}, this companion speaks "
                    f"{PROTOCOL_VERSION}: update the firmware"
                )
            layout = self.layout
            if (info.tracks, info.holes, info.leds) != (
                layout.tracks,
                layout.holes_per_track,
                layout.led_count,
            ):
                raise BoardError(
                    f"the board at {self.url} has {info.tracks} tracks of {info.holes} holes and "
                    f"{info.leds} LEDs, but the layout has {layout.tracks} of {layout.holes_per_track} and "
                    f"{layout.led_count}"
                )
            self.info = info
            return
        self._set_trouble(f"no board answered at {self.url}")
        raise BoardError(f"no board answered at {self.url} within {self.connect_timeout:g} s")

    def _restore(self) -> None:
        """Send the wanted state to a board that has lost it (after a reconnection or a reset)."""
        assert self._wanted is not None
        state = self._wanted
        if state.mode is Mode.TEST:  # a self-test already ran: do not run it again on every reconnect
            state = replace(state, mode=Mode.GAME)
        self.stats.restores += 1
        log.info("restoring the board's state after it was lost")
        self._request("STATE", state.to_command(), restoring=True)

    # --- requests -----------------------------------------------------------------------------------

    def _request(self, command: str, args: tuple[str, ...], *, restoring: bool = False) -> Frame:
        """Send a request until it is answered OK: retry on timeout and NAK, reconnect on a dead port.

        A STATE request carries the whole state, so a reconnection on its way needs no separate restore;
        any other request reconnects *and* restores the wanted state before it goes on.
        """
        restore = command != "STATE"
        if self._port is None:
            self._connect(first=not self._ever_connected, restore=restore)
        problem = "no reply"
        reopened = False
        reconnections = 0
        attempt = 0
        while attempt < self.attempts:
            attempt += 1
            try:
                if self._port is None:
                    self._connect(first=False, restore=restore)
                reply = self._exchange(command, args, self.reply_timeout)
            except BoardError:
                raise
            except OSError as error:
                log.warning("the board at %s went away (%s); reconnecting", self.url, _sentence(error))
                self._drop_port()
                reconnections += 1
                if reconnections > _MAX_RECONNECTIONS:  # it comes back and fails again: a bad cable
                    raise BoardError(
                        f"the board at {self.url} keeps going away: {_sentence(error)}"
                    ) from None
                self._connect(first=False, restore=restore)
                attempt = 0  # a fresh board: the attempts start over
                continue
            transient = True  # a timeout or a damaged frame: the line, not the request, is at fault
            if reply is None:
                self.stats.timeouts += 1
                problem = f"no reply within {self.reply_timeout:g} s"
                self._set_trouble(f"the board at {self.url} is not answering")
            elif reply.is_nak:
                self.stats.naks += 1
                problem = f"the board answered NAK {' '.join(reply.args)}"
                if reply.args and reply.args[0] in _REFUSALS:
                    transient = False
            else:
                self._set_trouble("")
                if command == "STATE":
                    self._state_lost = False
                elif self._state_lost and self._wanted is not None and not restoring:
                    self._restore()  # the board restarted while we were asking something else
                return reply
            if attempt == self.attempts and transient and not reopened and not restoring:
                # Still nothing: the board may have hung or reset unseen.  Reopen the port (which resets
                # a Nano), handshake, and try the full round of attempts once more.
                reopened = True
                log.warning("the board at %s is not answering (%s); reopening the port", self.url, problem)
                self._drop_port()
                try:
                    self._connect(first=False, restore=restore)
                except BoardError as error:
                    raise BoardError(f"the board at {self.url} stopped answering: {error}") from None
                attempt = 0
        raise BoardError(
            f"the board at {self.url} did not take {command} after {self.attempts} tries: {problem}"
        )

    def _next_seq(self) -> int:
        self._seq = self._seq % 0xFF + 1  # 1..255: 00 is the board's READY banner
        return self._seq

    def _exchange(
        self, command: str, args: tuple[str, ...], timeout: float, *, until_ready: bool = False
    ) -> Frame | None:
        """Send one frame and wait for the reply that echoes its sequence number.

        Returns the reply (OK or NAK), or None on timeout.  Replies to earlier requests are discarded.
        With ``until_ready`` a READY banner ends the wait early (the board has just started: ask again).
        Port errors propagate as OSError.
        """
        port = self._port
        seq = self._next_seq()
        frame = Frame(seq, command, args).encode()
        port.write(frame)
        self.stats.requests += 1
        deadline = time.monotonic() + timeout
        while True:
            data = port.read(max(1, port.in_waiting))
            for item in self._decoder.feed(data):
                if isinstance(item, BadFrame):
                    continue  # a damaged reply: wait on, the timeout resends
                if item.command == "READY":
                    self.stats.resets_seen += 1
                    self._state_lost = True  # it started afresh: whatever it showed is gone
                    if until_ready:
                        return None
                    continue
                if item.seq == seq or (item.seq is None and item.is_nak):
                    return item
                self.stats.stale += 1
            if time.monotonic() >= deadline:
                return None

    # --- the sender ---------------------------------------------------------------------------------

    def _set_trouble(self, trouble: str) -> None:
        if trouble == self._trouble:
            return
        if self._sender is not None:  # a game is handing states over (a caller of show hears BoardError)
            if trouble and not self._trouble:  # said once when it starts, not at every retry
                log.warning("%s; the game goes on, and the board is shown it once it answers", trouble)
            elif not trouble:
                log.info("the board at %s answers again", self.url)
        self._trouble = trouble
        for listener in list(self.listeners):
            try:
                listener(trouble)
            except Exception:  # a listener's failure must not stop the link
                log.exception("a listener of the board link failed")

    def _send(self) -> None:
        """Show the latest posted state; while the board does not take it, try again every
        ``retry_interval`` seconds (the heartbeat, if any, also looks for a board that went away)."""
        while not self._stop.is_set():
            with self._post_ready:
                while self._done_at == self._posted_at and not self._stop.is_set():
                    self._post_ready.wait()
                state, target = self._posted, self._posted_at
            if state is None or self._stop.is_set():
                return
            try:
                self.show(state)
            except (OSError, ValueError) as error:
                self._set_trouble(_sentence(error))
                self._stop.wait(self.retry_interval)
                continue
            self._set_trouble("")
            with self._post_ready:
                self._done_at = max(self._done_at, target)
                self._post_ready.notify_all()

    # --- the heartbeat ------------------------------------------------------------------------------

    def _start_watcher(self) -> None:
        if self.heartbeat is None or self._watcher is not None:
            return
        self._watcher = threading.Thread(target=self._watch, name=f"board heartbeat {self.url}", daemon=True)
        self._watcher.start()

    def _watch(self) -> None:
        """Every ``heartbeat`` seconds, check that the board shows the wanted state; restore it if not."""
        assert self.heartbeat is not None
        while not self._stop.wait(self.heartbeat):
            with self._lock:
                if self._closed or self._wanted is None:
                    continue
                try:
                    if self._port is None:
                        self._connect(first=False)  # restores the state
                        continue
                    if self._state_lost:
                        self._restore()
                        continue
                    reply = self._request("GET", ())
                    reported = BoardState.from_command(reply.args)
                    if not _same(reported, self._wanted):
                        log.info("the board shows %s instead of %s; restoring", reported, self._wanted)
                        self._restore()
                except (OSError, ValueError) as error:
                    # While offline every beat fails the same way; say it once (on going offline), not
                    # once a second.
                    log.log(
                        logging.DEBUG if self.offline else logging.WARNING,
                        "board heartbeat: %s",
                        _sentence(error),
                    )


def _same(reported: BoardState, wanted: BoardState) -> bool:
    """Whether the board shows what was wanted (a self-test that has run its course counts as shown)."""
    if wanted.mode is Mode.TEST and reported.mode in (Mode.TEST, Mode.GAME):
        return replace(reported, mode=Mode.TEST) == wanted
    return reported == wanted


def _sentence(error: BaseException) -> str:
    """An exception's message as one clause: pyserial's nested ``[Errno 2] ... [Errno 2] ...`` reduced
    to the operating system's own words (``No such file or directory``)."""
    text = str(error).strip() or type(error).__name__
    if "[Errno" in text:
        text = text.rsplit("[Errno", 1)[1].split("]", 1)[-1].strip()
        text = re.sub(r":\s*'[^']*'$", "", text)
    return text.rstrip(".")
