"""Helpers for driving the real firmware in the simulator: a minimal wire client and the expected LEDs.

Both are written here from the protocol and layout rules, independently of the firmware and of the
companion's link, so a test compares two separate readings of the same specification.

- ``Wire`` frames requests as ``@SS COMMAND args*CC\\n`` with CRC-8/SMBUS and reads replies line by line.
- ``expected_leds`` computes, from the layout file alone, what every LED must show for a peg state:
  the forward peg at the track colour scaled by the brightness b, the rear peg at a quarter level
  ((b + 3) // 4), a channel c at level k being round(c * k / 255); every other LED dark.
"""

from __future__ import annotations

import json
import random
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
import serial

from companion.board.sim import DEFAULT_FIRMWARE, DEFAULT_HARNESS, SimulatedBoard

REPO = Path(__file__).resolve().parents[2]
LAYOUT_PATH = REPO / "companion" / "board" / "layout.json"
CAP_MA = 1500
DEFAULT_COLOURS = ("00C0FF", "FF6000")

RGB = tuple[int, int, int]


def crc8(data: bytes) -> int:
    """CRC-8/SMBUS (poly 0x07, init 0, no reflection, no xor out), written for the tests."""
    crc = 0
    for byte in data:
        crc ^= byte
        for _ in range(8):
            crc = ((crc << 1) ^ 0x07) & 0xFF if crc & 0x80 else (crc << 1) & 0xFF
    return crc


def frame(seq: int, body: str) -> bytes:
    text = f"{seq:02X} {body}".encode("ascii")
    return b"@" + text + b"*" + f"{crc8(text):02X}".encode("ascii") + b"\n"


@dataclass(frozen=True)
class Reply:
    seq: str
    words: tuple[str, ...]

    @property
    def ok(self) -> bool:
        return self.words[:1] == ("OK",)

    def options(self) -> dict[str, str]:
        return dict(word.split("=", 1) for word in self.words[1:] if "=" in word)


def parse_reply(line: bytes) -> Reply:
    """Check one reply line (its CRC included) and split it."""
    assert line.startswith(b"@") and line.endswith(b"\n"), line
    body, star, crc = line[1:-1].rpartition(b"*")
    assert star and crc == f"{crc8(body):02X}".encode("ascii"), f"bad reply CRC: {line!r}"
    seq, *words = body.decode("ascii").split(" ")
    return Reply(seq, tuple(words))


class Wire:
    """A bare protocol client on a pyserial port: one request, then its reply."""

    def __init__(self, port: serial.Serial) -> None:
        self.port = port
        self.seq = 0

    def next_seq(self) -> int:
        self.seq = (self.seq + 1) & 0xFF
        return self.seq

    def send(self, body: str, *, seq: int | None = None) -> int:
        seq = self.next_seq() if seq is None else seq
        self.port.write(frame(seq, body))
        self.port.flush()
        return seq

    def read_line(self, timeout: float = 1.0) -> bytes | None:
        deadline = time.monotonic() + timeout
        buf = b""
        while time.monotonic() < deadline:
            chunk = self.port.read_until(b"\n")
            buf += chunk
            if buf.endswith(b"\n"):
                return buf
        return None

    def reply_to(self, seq: int | str, timeout: float = 1.0) -> Reply:
        """The reply echoing ``seq``, skipping anything else (banners, replies to garbage)."""
        want = seq if isinstance(seq, str) else f"{seq:02X}"
        deadline = time.monotonic() + timeout
        while True:
            line = self.read_line(max(0.01, deadline - time.monotonic()))
            if line is None:
                raise TimeoutError(f"no reply with sequence {want} within {timeout} s")
            if not line.startswith(b"@"):
                continue
            reply = parse_reply(line)
            if reply.seq == want:
                return reply

    def request(self, body: str, timeout: float = 1.0) -> Reply:
        return self.reply_to(self.send(body), timeout)

    def request_until_ok(self, body: str, attempts: int = 5) -> Reply:
        """Resend (a STATE is idempotent) until the board says OK, as a careful host does."""
        last: Reply | None = None
        for _ in range(attempts):
            try:
                last = self.request(body, timeout=0.3)
            except TimeoutError:
                continue
            if last.ok:
                return last
        raise AssertionError(f"the board never accepted {body!r} (last reply {last})")


@dataclass(frozen=True)
class Track:
    rear: int
    forward: int
    colour: str  # RRGGBB


@dataclass(frozen=True)
class PegState:
    """A game-mode STATE as the tests send it."""

    tracks: tuple[Track, Track]
    brightness: int = 64

    def command(self) -> str:
        pegs = " ".join(f"p{t}={tr.rear},{tr.forward},{tr.colour}" for t, tr in enumerate(self.tracks))
        return f"STATE m=game b={self.brightness} {pegs}"


def load_layout() -> dict[tuple[int, int], int]:
    data = json.loads(LAYOUT_PATH.read_text(encoding="utf-8"))
    return {(h["track"], h["hole"]): h["led"] for h in data["holes"]}


LAYOUT = load_layout()
LED_COUNT = 242


def level(channel: int, k: int) -> int:
    return (channel * k + 127) // 255


def scaled(colour: str, k: int) -> RGB:
    r, g, b = (int(colour[i : i + 2], 16) for i in (0, 2, 4))
    return (level(r, k), level(g, k), level(b, k))


def expected_leds(state: PegState) -> list[RGB]:
    leds: list[RGB] = [(0, 0, 0)] * LED_COUNT
    b = state.brightness
    for t, tr in enumerate(state.tracks):
        if tr.rear and tr.rear != tr.forward:
            leds[LAYOUT[(t, tr.rear)]] = scaled(tr.colour, (b + 3) // 4)
        if tr.forward:
            leds[LAYOUT[(t, tr.forward)]] = scaled(tr.colour, b)
    return leds


def random_state(rng: random.Random) -> PegState:
    tracks = []
    for _ in range(2):
        forward = rng.choice([0, rng.randint(1, 121), rng.randint(1, 121), 121])
        rear = 0 if forward == 0 or rng.random() < 0.2 else rng.randint(0, forward)
        colour = "".join(rng.choice("0123456789ABCDEF") for _ in range(6))
        tracks.append(Track(rear, forward, colour))
    return PegState((tracks[0], tracks[1]), brightness=rng.choice([1, 16, 64, 128, 200, 255]))


def frame_current_ma(rgb: bytes) -> float:
    return len(rgb) // 3 * 1.0 + 20.0 * sum(rgb) / 255.0


@pytest.fixture(scope="session")
def built() -> None:
    """The firmware and harness must be built (scripts/test.sh runs make first); fail clearly if not."""
    for path in (DEFAULT_HARNESS, DEFAULT_FIRMWARE):
        assert path.is_file(), f"{path} is missing: run `make -C firmware all`"


def open_port(board: SimulatedBoard) -> serial.Serial:
    return serial.Serial(board.port, 115200, timeout=0.05)


@pytest.fixture(scope="module")
def sim(built: None) -> Iterator[tuple[SimulatedBoard, Wire]]:
    """One simulated board and an open port for a module's tests (each test restores what it needs)."""
    with SimulatedBoard() as board:
        port = open_port(board)
        wire = Wire(port)
        board.wait_event("start")
        wire.request_until_ok("PING")
        yield board, wire
        port.close()
