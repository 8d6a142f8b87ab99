"""A board in pure Python: the same protocol as the firmware, drawn in the terminal and as SVG.

Why one module of about 700 lines: it is the firmware's whole behaviour in Python (parser, modes,
drawing, the current cap, the pty server), kept in one file so it reads side by side with
``firmware/src`` and ``tests/board/test_virtual_matches_firmware.py`` holds the two together.

It is the board the companion uses when none is attached, and the peer the link's tests talk to.  Open
it like any port, by URL, through pyserial's ``serial_for_url``: ``virtual://`` is a board of that port's
own; ``virtual://NAME`` is the process's board of that name, which outlives the port as a physical board
outlives its cable (and, like a serial device, can be open only once at a time).  Options in
the query string model the real thing: ``?boot=1.5`` makes it ignore bytes for 1.5 s after the port is
opened (a Nano's bootloader after the DTR reset), ``?reset=0`` keeps its state across reopening (a board
without auto-reset), ``?latch=0.008`` delays each reply like a 242-LED refresh.

It draws as the firmware does (docs/protocol.md, "Modes" and "The current cap"): a forward peg in the
track's colour at the brightness, the rear peg at a quarter of it, a waiting question flashing white on
hole 1 and the forward peg of each track, the same integer rounding, and the current cap scaling every
channel down when the frame would draw more than the cap.
"""

from __future__ import annotations

import contextlib
import itertools
import os
import select
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any
from urllib.parse import parse_qs, urlsplit
from xml.sax.saxutils import escape

import serial
from serial.serialutil import PortNotOpenError, SerialBase, SerialException, Timeout

from companion.board.layout import Layout, default_layout
from companion.board.protocol import (
    FIRMWARE_VERSION,
    PROTOCOL_VERSION,
    BadFrame,
    Frame,
    FrameDecoder,
    NakReason,
    ok,
    pairs,
)
from companion.board.state import (
    DARK,
    BoardState,
    Colour,
    Mode,
    StateRangeError,
    StateSyntaxError,
)

DEFAULT_CAP_MA = 1500
IDLE_MA_PER_LED = 1.0
MA_PER_FULL_CHANNEL = 20.0
BLINK_PERIOD_S = 0.5  # the tentative peg blinks at 2 Hz: lit for the first half of each period
QUESTION_PERIOD_S = 1.0  # a waiting question flashes white once a second: the first half of each period
#: The colour of a question: white, which neither track's default colour is, and no peg blink uses.
QUESTION_COLOUR = Colour(255, 255, 255)
TEST_STEP_S = 0.015  # the self-test lights each LED for this long, in chain order
WIN_STEP_S = 0.05  # the winner's wave moves one hole this often
WIN_WAVE = 10  # holes from one crest of the wave to the next
IDLE_STEP_S = 0.06  # the idle pattern's comets move one hole this often
IDLE_TAIL = 4  # holes in a comet, each half as bright as the one before


# --- drawing ---------------------------------------------------------------------------------------


def level(channel: int, k: int) -> int:
    """A channel at level ``k`` (0..255): round(channel * k / 255), in integers as the firmware does."""
    return (channel * k + 127) // 255


def at_level(colour: Colour, k: int) -> Colour:
    return Colour(level(colour.red, k), level(colour.green, k), level(colour.blue, k))


def current_ma(leds: Sequence[Colour]) -> float:
    """The estimated current of a frame, as the firmware estimates it before sending it."""
    channels = sum(c.red + c.green + c.blue for c in leds)
    return IDLE_MA_PER_LED * len(leds) + MA_PER_FULL_CHANNEL * channels / 255


def cap_current(leds: Sequence[Colour], cap_ma: int) -> tuple[Colour, ...]:
    """The frame scaled down, every channel alike, so that its estimated current fits under the cap.

    In integers, as an 8-bit MCU does it: the channel budget is (cap - 1 mA per LED) * 255 / 20, the
    scale a fraction of 256 rounded down, so the scaled frame never exceeds the budget.
    """
    if cap_ma <= len(leds):
        return tuple(DARK for _ in leds)
    total = sum(c.red + c.green + c.blue for c in leds)
    budget = (cap_ma - len(leds)) * 255 // int(MA_PER_FULL_CHANNEL)
    if total <= budget:
        return tuple(leds)
    scale = budget * 256 // total
    return tuple(Colour(c.red * scale >> 8, c.green * scale >> 8, c.blue * scale >> 8) for c in leds)


def draw(
    state: BoardState, layout: Layout, *, phase_s: float = 0.0, cap_ma: int = DEFAULT_CAP_MA
) -> tuple[Colour, ...]:
    """Every LED's colour, in chain order, ``phase_s`` seconds after the state was latched.

    A forward peg is its colour at level b (the brightness), a rear peg at level (b + 3) / 4, so the two
    pegs of a track are told apart; a rear peg in the forward peg's hole is not drawn twice.  A question
    (``q=1``) turns hole 1 and the forward peg of both tracks white for the first half of every second:
    four holes flashing together in a colour no peg has, so it is not read as a claim's blink (one hole,
    in its track's colour, twice a second) nor as the winner's wave.
    """
    leds = [DARK] * layout.led_count
    b = state.brightness
    mode = state.mode

    def pegs_of(track: int) -> None:
        pegs = state.pegs[track]
        if pegs.rear and pegs.rear != pegs.forward:
            leds[layout.led(track, pegs.rear)] = at_level(pegs.colour, (b + 3) // 4)
        if pegs.forward:
            leds[layout.led(track, pegs.forward)] = at_level(pegs.colour, b)

    if mode is Mode.TEST:
        step = int(phase_s / TEST_STEP_S)
        if step < layout.led_count:
            leds[step] = at_level(Colour(255, 255, 255), b)
            return cap_current(leds, cap_ma)
        mode = Mode.GAME  # the self-test is over: back to the pegs
    holes = layout.holes_per_track
    if mode is Mode.IDLE:  # a comet per track, half a lap apart, running up the holes
        step = int(phase_s / IDLE_STEP_S)
        lap = holes + IDLE_TAIL
        for track in range(layout.tracks):
            head = (step + track * (lap // 2)) % lap + 1
            for behind in range(IDLE_TAIL):
                if 1 <= head - behind <= holes:
                    leds[layout.led(track, head - behind)] = at_level(
                        state.pegs[track].colour, b >> (behind + 1)
                    )
        return cap_current(leds, cap_ma)
    if mode is Mode.WIN and state.winner is not None:  # a wave along the winner's track
        shift = int(phase_s / WIN_STEP_S) % WIN_WAVE
        for track in range(layout.tracks):
            if track != state.winner:
                pegs_of(track)
                continue
            for hole in range(1, holes + 1):
                crest = (hole + WIN_WAVE - shift) % WIN_WAVE < 3 or hole == holes
                leds[layout.led(track, hole)] = at_level(
                    state.pegs[track].colour, b if crest else (b + 7) // 8
                )
        return cap_current(leds, cap_ma)
    for track in range(layout.tracks):
        pegs_of(track)
    if mode is Mode.GAME and state.question and phase_s % QUESTION_PERIOD_S < QUESTION_PERIOD_S / 2:
        white = at_level(QUESTION_COLOUR, b)
        for track in range(layout.tracks):
            leds[layout.led(track, 1)] = white
            if state.pegs[track].forward:
                leds[layout.led(track, state.pegs[track].forward)] = white
    claim = state.tentative
    if mode is Mode.GAME and claim is not None and phase_s % BLINK_PERIOD_S < BLINK_PERIOD_S / 2:
        leds[layout.led(claim.track, claim.hole)] = at_level(state.pegs[claim.track].colour, b)
    return cap_current(leds, cap_ma)


def _after_self_test(state: BoardState) -> BoardState:
    """A state as the board reports it once a self-test has finished."""
    return replace(state, mode=Mode.GAME) if state.mode is Mode.TEST else state


# --- rendering -------------------------------------------------------------------------------------


def render_text(layout: Layout, leds: Sequence[Colour], *, colour: bool = False) -> str:
    """The board drawn in characters, turned on its side: the players' edge on the left.

    ``#`` is a lit hole, ``+`` a hole lit dimly (a rear peg, at a quarter of its forward peg's level),
    ``.`` a dark one, ``o`` a start hole; gaps between columns show the streets.  Each line is labelled
    with what it holds (``0: 1-60`` is track 0, holes 1 to 60).  With ``colour`` the lit holes are drawn
    in their LED colour (24-bit ANSI, for a terminal), a dim one dimmer, so the pegs are told apart.
    """
    points: list[tuple[float, float, str]] = []
    names: dict[float, list[tuple[int, int]]] = {}
    brightest = max((max(c.red, c.green, c.blue) for c in leds), default=0)
    for hole in layout.holes:
        lit = leds[hole.led] != DARK
        dim = lit and 2 * max(leds[hole.led].red, leds[hole.led].green, leds[hole.led].blue) < brightest
        mark = ("+" if dim else "#") if lit else "."
        if lit and colour:
            c = _visible(leds[hole.led])
            if dim:
                c = c.scaled(1, 2)
            mark = f"\x1b[38;2;{c.red};{c.green};{c.blue}m{mark}\x1b[0m"
        points.append((hole.x_mm, hole.y_mm, mark))
        names.setdefault(hole.x_mm, []).append((hole.track, hole.hole))
    starts: dict[float, list[str]] = {}
    for start in layout.start_holes:
        points.append((start.x_mm, start.y_mm, "o"))
        starts.setdefault(start.x_mm, []).append(f"{start.track}: start")
    ys = sorted({y for _, y, _ in points}, reverse=True)  # the players' edge (largest y) first
    steps = [a - b for a, b in itertools.pairwise(ys)]
    pitch = min(steps) if steps else 1.0
    column: dict[float, int] = {}
    position = 0
    for index, y in enumerate(ys):
        if index and steps[index - 1] > 1.5 * pitch:
            position += 1  # a street gap
        column[y] = position
        position += 1
    xs = sorted({x for x, _, _ in points})
    labels = [_row_label(names.get(x, []), starts.get(x, [])) for x in xs]
    width = max(len(label) for label in labels) + 2
    grid = [[" "] * position for _ in xs]
    row = {x: index for index, x in enumerate(xs)}
    for x, y, mark in points:
        grid[row[x]][column[y]] = mark
    lines = [
        (label.ljust(width) + "".join(cells)).rstrip() for label, cells in zip(labels, grid, strict=True)
    ]
    return "\n".join(lines) + "\n"


def _row_label(holes: list[tuple[int, int]], starts: list[str]) -> str:
    """``0: 1-60`` for a row holding holes 1..60 of track 0; ``0: start`` for a start hole."""
    parts = list(starts)
    for track in sorted({track for track, _ in holes}):
        numbers = sorted(hole for t, hole in holes if t == track)
        span = str(numbers[0]) if len(numbers) == 1 else f"{numbers[0]}-{numbers[-1]}"
        parts.append(f"{track}: {span}")
    return ", ".join(parts)


def _visible(c: Colour) -> Colour:
    """A lit LED's hue at a brightness a screen can show (a dim LED is still plainly lit in a room)."""
    top = max(c.red, c.green, c.blue)
    return c if top == 0 else c.scaled(255, top)


def render_svg(layout: Layout, leds: Sequence[Colour], *, title: str = "") -> str:
    """The board as an SVG drawing in millimetres: wood, holes, and the lit holes in their colours.

    Lit holes carry ``class="hole lit"`` and ``data-track``/``data-hole``/``data-led``/``data-rgb`` so a
    page or a test can find them.
    """
    width, height = layout.size_mm
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width:g} {height:g}" '
        f'width="{width:g}mm" height="{height:g}mm">',
        f"<title>{escape(title or layout.name)}</title>",
        f'<rect class="board" x="0" y="0" width="{width:g}" height="{height:g}" rx="6" fill="#b5834a"/>',
    ]
    out += _svg_labels(layout)
    for start in layout.start_holes:
        out.append(
            f'<circle class="start" data-track="{start.track}" data-peg="{start.peg}" '
            f'cx="{start.x_mm:g}" cy="{start.y_mm:g}" r="1.6" fill="#3a2614"/>'
        )
    for hole in layout.holes:
        led = leds[hole.led]
        where = f'data-track="{hole.track}" data-hole="{hole.hole}" data-led="{hole.led}"'
        if led == DARK:
            centre = f'cx="{hole.x_mm:g}" cy="{hole.y_mm:g}"'
            out.append(f'<circle class="hole" {where} {centre} r="1.6" fill="#3a2614"/>')
            continue
        level = max(led.red, led.green, led.blue) / 255
        out.append(
            f'<circle class="hole lit" {where} data-rgb="{led.hex}" cx="{hole.x_mm:g}" cy="{hole.y_mm:g}" '
            f'r="2.2" fill="#{_visible(led).hex}" fill-opacity="{0.35 + 0.65 * level:.2f}"/>'
        )
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _svg_labels(layout: Layout) -> list[str]:
    """Hole numbers every ten holes, on the side of each column away from its track's other column."""
    labels = []
    for hole in layout.holes:
        if hole.hole % 10 and hole.hole != layout.holes_per_track:
            continue
        half = layout.holes_per_track // 2
        partner = layout.hole(hole.track, hole.hole + half if hole.hole <= half else max(1, hole.hole - half))
        side = 1.0 if hole.x_mm >= partner.x_mm else -1.0
        if hole.hole == layout.holes_per_track:  # the game hole: its number below it
            x, y, anchor = hole.x_mm, hole.y_mm + 6.5, "middle"
        else:
            x, y, anchor = hole.x_mm + side * 3.5, hole.y_mm + 1.1, "start" if side > 0 else "end"
        labels.append(
            f'<text class="label" x="{x:g}" y="{y:g}" font-size="3" text-anchor="{anchor}" '
            f'font-family="sans-serif" fill="#3a2614">{hole.hole}</text>'
        )
    return labels


# --- the board -------------------------------------------------------------------------------------


class VirtualBoard:
    """A board that answers the protocol exactly as the firmware does, and remembers what it showed.

    Thread-safe: the link may talk to it from one thread while a test or the terminal reads it.
    """

    _registry: dict[str, VirtualBoard] = {}  # noqa: RUF012 - the boards of the process, by name
    _registry_lock = threading.Lock()

    def __init__(
        self,
        layout: Layout | None = None,
        *,
        firmware: str = FIRMWARE_VERSION,
        cap_ma: int = DEFAULT_CAP_MA,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.layout = layout or default_layout()
        self.firmware = firmware
        self.cap_ma = cap_ma
        self._clock = clock
        self._lock = threading.RLock()
        self._decoder = FrameDecoder()
        self._state = BoardState()
        self._latched_at = clock()
        self._awake_at = clock()
        self._mute = 0
        self._naks: list[NakReason] = []
        self.plugged = True
        self.latched = 0  # frames latched in response to STATE
        self.boots = 0
        self.received: list[Frame | BadFrame] = []  # every frame it was sent, as decoded
        self._port: VirtualSerial | None = None

    # -- registry, for virtual://NAME
    @classmethod
    def named(cls, name: str) -> VirtualBoard:
        """The board called ``name`` in this process, made on first use."""
        with cls._registry_lock:
            board = cls._registry.get(name)
            if board is None:
                board = cls._registry[name] = cls()
            return board

    @classmethod
    def forget(cls, name: str) -> None:
        """Drop a named board (the next ``virtual://NAME`` makes a fresh one)."""
        with cls._registry_lock:
            cls._registry.pop(name, None)

    # -- what it shows
    @property
    def state(self) -> BoardState:
        """The state the board is showing (a finished self-test reads as the game it returned to)."""
        with self._lock:
            if self._state.mode is Mode.TEST and self._phase() >= TEST_STEP_S * self.layout.led_count:
                self._state = _after_self_test(self._state)
                self._latched_at = self._clock() - 1.0  # keep the blink phase of a tentative peg as it was
            return self._state

    def _phase(self) -> float:
        return self._clock() - self._latched_at

    def leds(self, *, phase_s: float | None = None) -> tuple[Colour, ...]:
        """Every LED's colour now (or ``phase_s`` after the last STATE), in chain order."""
        with self._lock:
            state = self._state
            phase = self._phase() if phase_s is None else phase_s
        return draw(state, self.layout, phase_s=phase, cap_ma=self.cap_ma)

    def lit(self, *, phase_s: float | None = None) -> dict[int, Colour]:
        """The lit LEDs only: ``{led: colour}``."""
        return {i: c for i, c in enumerate(self.leds(phase_s=phase_s)) if c != DARK}

    def render_text(self, *, colour: bool = False, phase_s: float | None = None) -> str:
        return render_text(self.layout, self.leds(phase_s=phase_s), colour=colour)

    def render_svg(self, *, phase_s: float | None = None) -> str:
        return render_svg(self.layout, self.leds(phase_s=phase_s))

    # -- power and faults
    def reset(self, *, boot_s: float = 0.0) -> bytes:
        """Power-up or reset: defaults, a partial frame forgotten; deaf for ``boot_s`` (the bootloader).

        Returns the READY banner the firmware sends once it runs.
        """
        with self._lock:
            self._state = BoardState()
            self._latched_at = self._clock()
            self._awake_at = self._clock() + boot_s
            self._decoder.reset()
            self.boots += 1
            banner = Frame(0, "READY", (f"proto={PROTOCOL_VERSION}", f"fw={self.firmware}"))
            return banner.encode()

    @property
    def awake_at(self) -> float:
        return self._awake_at

    def unplug(self) -> None:
        """Pull the cable: the open port fails from now on and the port cannot be opened."""
        with self._lock:
            self.plugged = False
            port, self._port = self._port, None
        if port is not None:
            port._lose()

    def plug(self) -> None:
        """Put the cable back: the board powers up afresh (its state is lost, as on the real board)."""
        with self._lock:
            self.plugged = True
            self.reset()

    def mute(self, frames: int = 1) -> None:
        """Ignore the next ``frames`` frames (as if they were lost on the wire)."""
        with self._lock:
            self._mute += frames

    def refuse(self, reason: NakReason, frames: int = 1) -> None:
        """Answer the next ``frames`` frames with ``NAK reason`` whatever they hold."""
        with self._lock:
            self._naks += [reason] * frames

    # -- the protocol
    def receive(self, data: bytes) -> bytes:
        """Bytes from the host; returns the board's replies (empty while booting or muted)."""
        with self._lock:
            if self._clock() < self._awake_at:
                return b""  # the bootloader swallows them
            replies = bytearray()
            for item in self._decoder.feed(data):
                self.received.append(item)
                reply = self._answer(item)
                if reply is not None:
                    replies += reply.encode()
            return bytes(replies)

    def _answer(self, item: Frame | BadFrame) -> Frame | None:
        if self._mute:
            self._mute -= 1
            return None
        if self._naks:
            return Frame(item.seq, "NAK", (self._naks.pop(0).value,))
        if isinstance(item, BadFrame):
            return item.nak()
        seq = item.seq
        if seq is None:  # "??" is for replies: a request must be numbered
            return BadFrame(NakReason.SYNTAX, None).nak()
        if item.command == "STATE":
            try:
                state = BoardState.from_command(item.args)
            except StateSyntaxError:
                return BadFrame(NakReason.SYNTAX, seq).nak()
            except StateRangeError:
                return BadFrame(NakReason.RANGE, seq).nak()
            self._state = state
            self._latched_at = self._clock()
            self.latched += 1
            return ok(seq)
        if item.command not in ("HELLO", "PING", "GET"):
            return BadFrame(NakReason.UNKNOWN, seq).nak()
        if item.args:
            return BadFrame(NakReason.SYNTAX, seq).nak()
        if item.command == "HELLO":
            return ok(
                seq,
                f"proto={PROTOCOL_VERSION}",
                f"fw={self.firmware}",
                f"tracks={self.layout.tracks}",
                f"holes={self.layout.holes_per_track}",
                f"leds={self.layout.led_count}",
                f"cap={self.cap_ma}",
            )
        if item.command == "PING":
            return ok(seq)
        return ok(seq, *pairs(self.state.options(full=True)))

    # -- the port it is attached to
    def _attach(self, port: VirtualSerial) -> None:
        with self._lock:
            if not self.plugged:
                raise SerialException(f"could not open port {port.portstr}: the board is unplugged")
            if self._port is not None and self._port is not port:
                # As a serial device opened for exclusive use: a second program gets a clear refusal
                # instead of the two fighting over the board.
                raise SerialException(f"could not open port {port.portstr}: it is already open")
            self._port = port

    def _detach(self, port: VirtualSerial) -> None:
        with self._lock:
            if self._port is port:
                self._port = None


class VirtualSerial(SerialBase):  # type: ignore[misc]  # pyserial has no type hints
    """A pyserial port whose far end is a :class:`VirtualBoard` (the ``virtual://`` URL handler)."""

    is_open: bool

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self.board: VirtualBoard | None = None
        self._inbox = bytearray()
        self._pending: list[tuple[float, bytes]] = []  # replies not yet "on the wire"
        self._cond = threading.Condition()
        self._lost = False
        self._latch_s = 0.0
        super().__init__(*args, **kwargs)

    def open(self) -> None:
        if self._port is None:
            raise SerialException("port must be configured before it can be used")
        if self.is_open:
            raise SerialException("port already open")
        parts = urlsplit(self._port)
        if parts.scheme != "virtual":
            raise SerialException(f"{self._port!r} is not a virtual:// URL")
        try:
            options = {key: values[-1] for key, values in parse_qs(parts.query, strict_parsing=False).items()}
            boot_s = float(options.pop("boot", "0"))
            reset = options.pop("reset", "1") not in ("0", "no", "false")
            self._latch_s = float(options.pop("latch", "0"))
        except ValueError as error:
            raise SerialException(f"{self._port!r}: {error}") from None
        if options:
            raise SerialException(f"{self._port!r}: unknown option {sorted(options)[0]!r}")
        # virtual://NAME is one board for the whole process, found again when the port is reopened;
        # plain virtual:// is a board of this port's own, so unrelated users never meet.
        board = VirtualBoard.named(parts.netloc) if parts.netloc else VirtualBoard()
        board._attach(self)
        self.board = board
        with self._cond:
            self._inbox.clear()
            self._pending.clear()
            self._lost = False
        self.is_open = True
        if reset:  # opening the port pulses DTR, which resets a Nano
            banner = board.reset(boot_s=boot_s)
            self._post(banner, board.awake_at)

    def close(self) -> None:
        if self.board is not None:
            self.board._detach(self)
        self.is_open = False
        with self._cond:
            self._cond.notify_all()

    def _reconfigure_port(self) -> None:
        """Nothing to configure: the virtual wire has no baud rate."""

    def _update_dtr_state(self) -> None:
        """DTR is not modelled beyond the reset at open."""

    def _update_rts_state(self) -> None:
        """RTS is not modelled."""

    def _update_break_state(self) -> None:
        """Break is not modelled."""

    def _lose(self) -> None:
        """The cable was pulled: every later read or write fails."""
        with self._cond:
            self._lost = True
            self._cond.notify_all()

    def _check(self) -> None:
        if not self.is_open:
            raise PortNotOpenError()
        if self._lost:
            raise SerialException("device disconnected: the virtual board was unplugged")

    def _post(self, data: bytes, at: float) -> None:
        with self._cond:
            self._pending.append((at, data))
            self._cond.notify_all()

    def _release(self) -> None:
        """Move the replies whose time has come into the input buffer (call with the lock held)."""
        now = time.monotonic()
        due = [item for item in self._pending if item[0] <= now]
        if due:
            self._pending = [item for item in self._pending if item[0] > now]
            for _, data in sorted(due, key=lambda item: item[0]):
                self._inbox += data

    @property
    def in_waiting(self) -> int:
        self._check()
        with self._cond:
            self._release()
            return len(self._inbox)

    def read(self, size: int = 1) -> bytes:
        self._check()
        timeout = Timeout(self._timeout)
        with self._cond:
            while True:
                self._release()
                if len(self._inbox) >= size or timeout.expired():
                    break
                if self._lost or not self.is_open:
                    break
                waits = [at - time.monotonic() for at, _ in self._pending]
                left = timeout.time_left() if self._timeout is not None else None
                wait = min([w for w in [*waits, left] if w is not None], default=None)
                self._cond.wait(None if wait is None else max(wait, 0.0005))
            data = bytes(self._inbox[:size])
            del self._inbox[:size]
        if not data:
            self._check()
        return data

    def write(self, data: bytes | bytearray | memoryview) -> int:
        self._check()
        assert self.board is not None
        chunk = bytes(data)
        replies = self.board.receive(chunk)
        if replies:
            self._post(replies, time.monotonic() + self._latch_s)
        return len(chunk)

    def reset_input_buffer(self) -> None:
        self._check()
        with self._cond:
            self._release()
            self._inbox.clear()

    def reset_output_buffer(self) -> None:
        self._check()

    @property
    def out_waiting(self) -> int:
        return 0

    def flush(self) -> None:
        self._check()

    # The modem lines of a Nano's USB bridge, as seen by the host: present while plugged in.
    @property
    def cts(self) -> bool:
        return True

    @property
    def dsr(self) -> bool:
        return True

    @property
    def ri(self) -> bool:
        return False

    @property
    def cd(self) -> bool:
        return False


class PtyServer:
    """A virtual board behind a pseudo-terminal, so another process (or picocom) can open it by path.

    ``path`` names the terminal to open, as ``/dev/ttyUSB0`` names a real board.  ``on_traffic`` is
    called with each chunk the host sent and the board's reply, from the serving thread.
    """

    def __init__(
        self,
        board: VirtualBoard | None = None,
        *,
        on_traffic: Callable[[bytes, bytes], None] | None = None,
    ) -> None:
        import tty  # POSIX only: imported here so the virtual:// board works everywhere

        self.board = board or VirtualBoard()
        self._on_traffic = on_traffic
        self._master, self._slave = os.openpty()
        tty.setraw(self._slave)  # no echo, no newline translation: the bytes as they are
        self.path = os.ttyname(self._slave)
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._serve, name=f"virtual board on {self.path}", daemon=True)

    def start(self) -> PtyServer:
        os.write(self._master, self.board.reset())
        self._thread.start()
        return self

    def _serve(self) -> None:
        while not self._stop.is_set():
            ready, _, _ = select.select([self._master], [], [], 0.05)
            if not ready:
                continue
            try:
                data = os.read(self._master, 512)
            except OSError:  # the terminal was closed under us
                return
            reply = self.board.receive(data)
            if reply:
                os.write(self._master, reply)
            if self._on_traffic is not None:
                self._on_traffic(data, reply)

    def stop(self) -> None:
        """Stop serving and close the terminal.  Safe to call more than once."""
        self._stop.set()
        if self._thread.is_alive():
            self._thread.join(timeout=2.0)
        for fd in (self._master, self._slave):
            with contextlib.suppress(OSError):
                os.close(fd)
        self._master = self._slave = -1

    def __enter__(self) -> PtyServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


def register_url_handler() -> None:
    """Make ``virtual://`` known to ``serial.serial_for_url`` (see companion/board/protocol_virtual.py)."""
    if "companion.board" not in serial.protocol_handler_packages:
        serial.protocol_handler_packages.append("companion.board")


register_url_handler()
