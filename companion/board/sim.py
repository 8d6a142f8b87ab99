"""The real board firmware, running in the simulator, as a board you can plug the link into.

``SimulatedBoard`` starts the simavr harness (``firmware/build/crib-sim``, built by ``make -C firmware
all``; it builds nothing itself) on the unmodified firmware ``.elf`` and exposes its pseudo-terminal as
the board's serial port: open ``board.port`` with pyserial (or the companion's link) exactly as you would
``/dev/ttyUSB0``. The harness reports what the LEDs show and what a real chip would have got wrong, and
this class collects those reports:

- every latched LED frame (``wait_frame``, ``frames``), decoded from the data pin by pulse width;
- every pulse outside the WS2812B datasheet timing (``violations``);
- every received byte a real ATmega328P would have lost while its interrupts were off (``lost``).

The chip starts when the port is first opened (as a Nano does), resets when it is reopened, and
``reset()`` resets it on demand, as a brown-out or a pressed reset button would mid-game.

The harness links libsimavr (GPL-3) and is a separate test tool; this module only starts it as a
process and reads its JSON-line reports, and imports nothing outside the standard library.
"""

from __future__ import annotations

import collections
import json
import os
import select
import signal
import subprocess
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType
from typing import Literal

_REPO = Path(__file__).resolve().parents[2]
#: Where ``make -C firmware all`` puts the harness and the firmware.
DEFAULT_HARNESS = _REPO / "firmware" / "build" / "crib-sim"
DEFAULT_FIRMWARE = _REPO / "firmware" / "build" / "crib-board.elf"

#: Per LED, the estimate the firmware's current cap uses: 1 mA dark plus 20 mA per channel at full.
IDLE_MA_PER_LED = 1.0
FULL_MA_PER_CHANNEL = 20.0


class SimulatorError(RuntimeError):
    """The simulator harness failed, exited or did not report in time."""


class HarnessNotBuilt(SimulatorError, FileNotFoundError):
    """The harness or the firmware has not been built (``make -C firmware all``)."""


@dataclass(frozen=True)
class LedFrame:
    """One frame as the LEDs latched it, in chain order (the ``led`` index of companion/board/layout.json)."""

    number: int  # 1 for the first frame since the harness started, counting across chip resets
    sim_us: float  # simulated time of the latch, microseconds since the harness started
    start_us: float  # simulated time of the frame's first edge (interrupts are off from about here)
    received: float  # time.monotonic() when the harness reported it
    bits: int  # bits clocked out (24 per LED)
    rgb: bytes  # R, G, B per LED

    @property
    def led_count(self) -> int:
        return len(self.rgb) // 3

    def led(self, index: int) -> tuple[int, int, int]:
        """The colour of LED ``index`` as (red, green, blue)."""
        r, g, b = self.rgb[3 * index : 3 * index + 3]
        return (r, g, b)

    @property
    def leds(self) -> tuple[tuple[int, int, int], ...]:
        return tuple(self.led(i) for i in range(self.led_count))

    def lit(self) -> dict[int, tuple[int, int, int]]:
        """Every LED that is not dark, by chain index."""
        return {i: self.led(i) for i in range(self.led_count) if any(self.rgb[3 * i : 3 * i + 3])}

    def current_ma(self) -> float:
        """The frame's current by the same estimate the firmware's cap uses."""
        return self.led_count * IDLE_MA_PER_LED + FULL_MA_PER_CHANNEL * sum(self.rgb) / 255.0


@dataclass(frozen=True)
class TimingViolation:
    """A pulse on the LED data line outside the WS2812B datasheet timing."""

    kind: str  # high (T0H/T1H out of range), low, gap (mid-frame low a LED may take as reset), latch, partial
    ns: float
    frame: int
    bit: int
    sim_us: float


@dataclass(frozen=True)
class LostByte:
    """A byte the host sent that a real chip would have lost (it arrived while the UART was full)."""

    total: int
    byte: int
    sim_us: float


class SimulatedBoard:
    """The firmware in simavr behind a pseudo-terminal; a context manager.

    ``feed="wire"`` (the default) delivers the host's bytes at the line rate and reports the bytes a
    real chip would lose; ``feed="fifo"`` hands them over as fast as the simulator takes them.
    ``boot_ms`` is how long after the port is opened the chip starts (a Nano's bootloader takes 1-2 s;
    the default keeps tests quick). ``reset_on_open=False`` models a board whose reset is not wired to
    the serial chip's DTR line.
    """

    def __init__(
        self,
        *,
        harness: Path | None = None,
        firmware: Path | None = None,
        feed: Literal["wire", "fifo"] = "wire",
        boot_ms: int = 50,
        reset_on_open: bool = True,
        keep_frames: int = 4000,
        startup_timeout: float = 10.0,
    ) -> None:
        if feed not in ("wire", "fifo"):
            raise ValueError(f"feed must be 'wire' or 'fifo', not {feed!r}")
        from_env = os.environ.get("CRIB_SIM_HARNESS")
        self.harness = harness or (Path(from_env) if from_env else DEFAULT_HARNESS)
        self.firmware = DEFAULT_FIRMWARE if firmware is None else firmware
        self._args = ["--feed", feed, "--boot-ms", str(boot_ms)]
        if not reset_on_open:
            self._args.append("--no-reset-on-open")
        self._startup_timeout = startup_timeout
        self._cond = threading.Condition()
        self._frames: collections.deque[LedFrame] = collections.deque(maxlen=keep_frames)
        self._frame_count = 0
        self._violations: list[TimingViolation] = []
        self._lost: list[LostByte] = []
        self._events: list[dict[str, object]] = []
        self._proc: subprocess.Popen[bytes] | None = None
        self._reader: threading.Thread | None = None
        self._stderr_reader: threading.Thread | None = None
        self._stderr: collections.deque[str] = collections.deque(maxlen=50)
        self._port: str | None = None
        self._ended = False
        self._fd: int | None = None  # the harness's stdout, read without blocking
        self._pump_lock = threading.Lock()
        self._partial = b""
        self._eof = False

    # ---- lifecycle

    def __enter__(self) -> SimulatedBoard:
        self.start()
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    def start(self) -> None:
        """Start the harness and wait for its pseudo-terminal. The chip starts when the port is opened."""
        if self._proc is not None:
            return
        for path, what in ((self.harness, "simulator harness"), (self.firmware, "board firmware")):
            if not path.is_file():
                raise HarnessNotBuilt(f"The {what} {path} is not built: run `make -C firmware all` first.")
        self._proc = subprocess.Popen(
            [str(self.harness), *self._args, str(self.firmware)],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        assert self._proc.stdout is not None
        self._fd = self._proc.stdout.fileno()
        os.set_blocking(self._fd, False)
        self._reader = threading.Thread(target=self._read_reports, name="crib-sim-reports", daemon=True)
        self._stderr_reader = threading.Thread(target=self._read_stderr, name="crib-sim-stderr", daemon=True)
        self._reader.start()
        self._stderr_reader.start()
        try:
            event = self.wait_event("pty", timeout=self._startup_timeout)
        except BaseException:
            self.close()
            raise
        self._port = str(event["path"])

    def close(self) -> None:
        """Stop the harness (idempotent)."""
        proc = self._proc
        if proc is None:
            return
        if proc.poll() is None:
            proc.send_signal(signal.SIGTERM)
            try:
                proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
        for thread in (self._reader, self._stderr_reader):
            if thread is not None:
                thread.join(timeout=5)
        with self._pump_lock:
            self._fd = None
        if proc.stdout is not None:
            proc.stdout.close()
        if proc.stderr is not None:
            proc.stderr.close()

    # ---- what the board reports

    @property
    def port(self) -> str:
        """The pseudo-terminal to open as the board's serial port."""
        if self._port is None:
            raise SimulatorError("the simulated board has not been started")
        return self._port

    @property
    def frame_count(self) -> int:
        self._pump()
        with self._cond:
            return self._frame_count

    @property
    def frames(self) -> list[LedFrame]:
        """The latest frames (up to ``keep_frames``), oldest first."""
        self._pump()
        with self._cond:
            return list(self._frames)

    @property
    def latest_frame(self) -> LedFrame | None:
        self._pump()
        with self._cond:
            return self._frames[-1] if self._frames else None

    @property
    def violations(self) -> list[TimingViolation]:
        self._pump()
        with self._cond:
            return list(self._violations)

    @property
    def lost(self) -> list[LostByte]:
        self._pump()
        with self._cond:
            return list(self._lost)

    @property
    def lost_count(self) -> int:
        self._pump()
        with self._cond:
            return len(self._lost)

    @property
    def events(self) -> list[dict[str, object]]:
        """Every report so far (frames included), as decoded JSON objects."""
        self._pump()
        with self._cond:
            return list(self._events)

    # ---- waiting

    def wait_frame(self, after: int | None = None, timeout: float = 5.0) -> LedFrame:
        """The first frame numbered above ``after`` (default: the next frame from now)."""
        self._pump()
        with self._cond:
            floor = self._frame_count if after is None else after
        return self.wait_for_frame(lambda frame: frame.number > floor, timeout=timeout)

    def wait_for_frame(self, predicate: Callable[[LedFrame], bool], timeout: float = 5.0) -> LedFrame:
        """The first frame, among those kept and those to come, for which ``predicate`` is true."""
        deadline = time.monotonic() + timeout
        checked = 0  # frames numbered up to this one have been tried
        while True:
            self._pump()
            with self._cond:
                for frame in list(self._frames):
                    if frame.number > checked and predicate(frame):
                        return frame
                checked = self._frame_count
                self._wait(deadline, "a matching LED frame")

    def wait_event(self, name: str, after: int = 0, timeout: float = 5.0) -> dict[str, object]:
        """The first report called ``name`` at index ``after`` or later in ``events``."""
        deadline = time.monotonic() + timeout
        while True:
            self._pump()
            with self._cond:
                for event in self._events[after:]:
                    if event.get("event") == name:
                        return event
                self._wait(deadline, f"the harness to report {name!r}")

    def reset(self, timeout: float = 5.0) -> None:
        """Reset the chip now, as its reset button would; returns once it has restarted."""
        proc = self._require_running()
        self._pump()
        with self._cond:
            mark = len(self._events)
        proc.send_signal(signal.SIGUSR1)
        deadline = time.monotonic() + timeout
        while True:
            self._pump()
            with self._cond:
                if any(
                    e.get("event") == "start" and e.get("reason") == "signal" for e in self._events[mark:]
                ):
                    return
                self._wait(deadline, "the chip to restart")

    # ---- internals

    def _require_running(self) -> subprocess.Popen[bytes]:
        if self._proc is None or self._proc.poll() is not None:
            raise SimulatorError(f"the simulator harness is not running{self._stderr_tail()}")
        return self._proc

    def _wait(self, deadline: float, what: str) -> None:
        """Wait on the condition (held) until notified; raise if past the deadline or the harness ended."""
        if self._ended:
            if self._stderr_reader is not None:
                self._stderr_reader.join(timeout=1.0)  # its last words explain why it ended
            tail = self._stderr_tail()
            raise SimulatorError(f"the simulator harness exited while waiting for {what}{tail}")
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            raise SimulatorError(f"timed out waiting for {what}")
        self._cond.wait(min(remaining, 0.5))

    def _stderr_tail(self) -> str:
        tail = " ".join(line.strip() for line in list(self._stderr)[-3:])
        return f": {tail}" if tail else ""

    def _read_stderr(self) -> None:
        proc = self._proc
        assert proc is not None and proc.stderr is not None
        for line in proc.stderr:
            self._stderr.append(line.decode("utf-8", "replace"))

    def _pump(self) -> None:
        """Record whatever the harness has reported so far, without blocking.

        Every accessor pumps first. The harness writes a frame's report before the chip's reply to the
        request that caused it reaches the pty, so a caller holding that reply always sees the frame,
        however far behind the background reader is.
        """
        with self._pump_lock:
            while self._fd is not None and not self._eof:
                try:
                    chunk = os.read(self._fd, 1 << 16)
                except BlockingIOError:
                    return
                except OSError:
                    chunk = b""
                if not chunk:
                    self._eof = True
                    with self._cond:
                        self._ended = True
                        self._cond.notify_all()
                    return
                received = time.monotonic()
                *lines, self._partial = (self._partial + chunk).split(b"\n")
                for line in lines:
                    try:
                        event = json.loads(line)
                    except (json.JSONDecodeError, UnicodeDecodeError):
                        continue
                    if isinstance(event, dict):
                        self._record(event, received)

    def _read_reports(self) -> None:
        """Keep the harness's pipe drained (a full pipe would stall the simulated chip) and wake waiters."""
        while not self._eof:
            fd = self._fd
            if fd is None:
                return
            try:
                select.select([fd], [], [], 0.1)
            except (OSError, ValueError):
                return
            self._pump()

    def _record(self, event: dict[str, object], received: float) -> None:
        kind = event.get("event")
        with self._cond:
            if kind == "frame":
                frame = LedFrame(
                    number=int(str(event["n"])),
                    sim_us=float(str(event["us"])),
                    start_us=float(str(event["start_us"])),
                    received=received,
                    bits=int(str(event["bits"])),
                    rgb=bytes.fromhex(str(event["rgb"])),
                )
                self._frames.append(frame)
                self._frame_count = frame.number
                event = {k: v for k, v in event.items() if k != "rgb"}
            elif kind == "violation":
                self._violations.append(
                    TimingViolation(
                        kind=str(event["kind"]),
                        ns=float(str(event["ns"])),
                        frame=int(str(event["frame"])),
                        bit=int(str(event["bit"])),
                        sim_us=float(str(event["us"])),
                    )
                )
            elif kind == "lost":
                self._lost.append(
                    LostByte(
                        total=int(str(event["total"])),
                        byte=int(str(event["byte"])),
                        sim_us=float(str(event["us"])),
                    )
                )
            self._events.append(event)
            self._cond.notify_all()
