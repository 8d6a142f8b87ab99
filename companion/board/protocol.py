"""Wire protocol v1 between the companion and the board: frames, the CRC and a resynchronising decoder.

A frame is one line of ASCII so the board can be driven and debugged from a terminal::

    @SS COMMAND ARG ARG*CC\\n

``SS`` is the sequence number (two upper-case hex digits, echoed by the reply), ``CC`` the CRC-8/SMBUS of
every byte between ``@`` and ``*``.  The decoder takes bytes one at a time, as the board's UART delivers
them, and never needs to see a frame whole to find the next one: anything before ``@`` is skipped, an
``@`` inside a frame starts a new one, and an overlong frame is dropped at its newline.  That is what lets
both ends recover from garbage, a dropped byte or a cable pulled mid-frame.  ``docs/protocol.md`` is the
specification; this module is its reference implementation and does no I/O.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from enum import StrEnum

#: Protocol version reported by HELLO (``proto=1``).  The one place it is written: firmware/Makefile
#: reads it (and FIRMWARE_VERSION) from this file and builds both into the firmware.
PROTOCOL_VERSION = 1
#: The firmware release this companion ships in ``firmware/`` (``fw=1.1.0``); the virtual board reports it.
FIRMWARE_VERSION = "1.1.0"
#: Longest frame, counted from ``@`` to ``\n`` inclusive (``\r`` is not counted: it is ignored).
MAX_FRAME = 120
#: Longest body, the bytes between ``@`` and ``\n``.
MAX_BODY = MAX_FRAME - 2

START = ord("@")
END = ord("\n")
CR = ord("\r")
CRC_MARK = ord("*")

_HEX = "0123456789ABCDEF"
_COMMAND_CHARS = frozenset(b"ABCDEFGHIJKLMNOPQRSTUVWXYZ")
#: Bytes allowed inside an argument: printable ASCII except the framing characters and the space.
_ARG_CHARS = frozenset(range(0x21, 0x7F)) - {START, CRC_MARK}


class NakReason(StrEnum):
    """Why the board refused a frame (the word after ``NAK``)."""

    CRC = "crc"  # the checksum is missing, unreadable or wrong: the frame was damaged on the wire
    SYNTAX = "syntax"  # intact, but not a well-formed request (bad sequence number, key or value)
    RANGE = "range"  # well formed, but a value is outside what the board allows
    UNKNOWN = "unknown"  # a command the board does not know
    OVERFLOW = "overflow"  # longer than MAX_FRAME: dropped unread


def crc8(data: bytes | bytearray, crc: int = 0) -> int:
    """CRC-8/SMBUS: polynomial 0x07, initial value 0, not reflected, no final xor.

    Chosen because it is eight shift-and-xor steps per byte on the AVR (no table in flash) and still
    catches every single-bit error, every odd number of bit errors and every burst up to eight bits.
    """
    for byte in data:
        crc ^= byte
        for _ in range(8):
            crc = ((crc << 1) ^ 0x07) & 0xFF if crc & 0x80 else (crc << 1) & 0xFF
    return crc


def _hex2(value: int) -> str:
    return _HEX[value >> 4] + _HEX[value & 0x0F]


def _read_hex2(text: bytes) -> int | None:
    """Two upper-case hex digits as a number, or None (lower case is not accepted on the wire)."""
    if len(text) != 2 or any(c not in b"0123456789ABCDEF" for c in text):
        return None
    return int(text, 16)


@dataclass(frozen=True)
class Frame:
    """One well-formed frame: a request from the host or a reply from the board.

    ``seq`` is None for a reply that could not be tied to a request (``??`` on the wire).
    """

    seq: int | None
    command: str
    args: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if self.seq is not None and not 0 <= self.seq <= 0xFF:
            raise ValueError(f"sequence number {self.seq} is not in 0..255")
        if not self.command or any(ord(c) not in _COMMAND_CHARS for c in self.command):
            raise ValueError(f"command {self.command!r} is not one upper-case word")
        for arg in self.args:
            if not arg or any(ord(c) not in _ARG_CHARS for c in arg):
                raise ValueError(f"argument {arg!r} is empty or holds a space, '@', '*' or non-ASCII byte")

    @property
    def body(self) -> bytes:
        """The bytes the CRC covers: everything between ``@`` and ``*``."""
        seq = "??" if self.seq is None else _hex2(self.seq)
        return " ".join((seq, self.command, *self.args)).encode("ascii")

    def encode(self) -> bytes:
        """The frame as it goes on the wire, newline included."""
        body = self.body
        encoded = b"@" + body + b"*" + _hex2(crc8(body)).encode("ascii") + b"\n"
        if len(encoded) > MAX_FRAME:
            raise ValueError(f"a frame of {len(encoded)} bytes is longer than the {MAX_FRAME} allowed")
        return encoded

    @property
    def is_ok(self) -> bool:
        return self.command == "OK"

    @property
    def is_nak(self) -> bool:
        return self.command == "NAK"

    def options(self) -> dict[str, str]:
        """The ``key=value`` arguments as a mapping (see :func:`key_values`)."""
        return key_values(self.args)

    def __str__(self) -> str:
        return self.encode().decode("ascii").rstrip("\n")


@dataclass(frozen=True)
class BadFrame:
    """A frame the decoder had to refuse, and why: the board answers it with ``NAK reason``."""

    reason: NakReason
    seq: int | None  # the sequence number if it could still be read, else None ("??")

    def nak(self) -> Frame:
        """The board's reply to this frame."""
        return Frame(self.seq, "NAK", (self.reason.value,))


def ok(seq: int | None, *args: str) -> Frame:
    """An ``OK`` reply."""
    return Frame(seq, "OK", args)


def key_values(args: Iterable[str]) -> dict[str, str]:
    """``("m=game", "b=64")`` as ``{"m": "game", "b": "64"}``.

    Raises ValueError for an argument without ``=``, an empty key or a key given twice: the board
    answers those with ``NAK syntax``.
    """
    result: dict[str, str] = {}
    for arg in args:
        key, equals, value = arg.partition("=")
        if not equals or not key or not value:
            raise ValueError(f"{arg!r} is not key=value")
        if key in result:
            raise ValueError(f"key {key!r} is given twice")
        result[key] = value
    return result


def pairs(options: Mapping[str, str]) -> tuple[str, ...]:
    """The inverse of :func:`key_values`, in the mapping's order."""
    return tuple(f"{key}={value}" for key, value in options.items())


def parse_body(body: bytes) -> Frame | BadFrame:
    """Check and split one frame's body (the bytes between ``@`` and the newline, ``\\r`` removed).

    Checked in the order the board checks: the checksum first (a damaged frame is ``crc`` however it
    looks), then the form (``syntax``).  Whether the command is known is the receiver's business.
    """
    seq = _read_hex2(body[:2]) if len(body) >= 3 and body[2:3] in (b" ", b"*") else None
    if len(body) < 3 or body[-3] != CRC_MARK:
        return BadFrame(NakReason.CRC, seq)
    checked, crc = body[:-3], _read_hex2(body[-2:])
    if crc is None or crc != crc8(checked):
        return BadFrame(NakReason.CRC, seq)
    words = checked.split(b" ")
    if len(words) < 2 or (seq is None and words[0] != b"??"):
        return BadFrame(NakReason.SYNTAX, seq)
    command, args = words[1], words[2:]
    if not command or any(c not in _COMMAND_CHARS for c in command):
        return BadFrame(NakReason.SYNTAX, seq)
    if any(not arg or any(c not in _ARG_CHARS for c in arg) for arg in args):
        return BadFrame(NakReason.SYNTAX, seq)
    return Frame(seq, command.decode("ascii"), tuple(arg.decode("ascii") for arg in args))


class FrameDecoder:
    """Turns a byte stream into frames and refused frames, one byte at a time, resynchronising.

    The same state machine as the firmware's parser (a byte is all it needs to decide), so the host and
    the virtual board behave exactly as the board does on garbage, damaged and overlong frames.
    """

    def __init__(self) -> None:
        self._body = bytearray()
        self._in_frame = False
        self._overflow = False

    @property
    def in_frame(self) -> bool:
        """True between an ``@`` and its newline: part of a frame has been received."""
        return self._in_frame

    def reset(self) -> None:
        """Forget any partial frame (after reopening the port)."""
        self._body.clear()
        self._in_frame = False
        self._overflow = False

    def feed_byte(self, byte: int) -> Frame | BadFrame | None:
        """Take one byte; return a frame (or a refused frame) when this byte completes one."""
        if byte == CR:
            return None
        if byte == START:  # a new frame, even inside one: the partial frame before it is dropped
            self._body.clear()
            self._in_frame = True
            self._overflow = False
            return None
        if not self._in_frame:
            return None
        if byte == END:
            self._in_frame = False
            if self._overflow:
                self._overflow = False
                seq = _read_hex2(bytes(self._body[:2])) if self._body[2:3] == b" " else None
                self._body.clear()
                return BadFrame(NakReason.OVERFLOW, seq)
            body = bytes(self._body)
            self._body.clear()
            return parse_body(body)
        if len(self._body) >= MAX_BODY:
            self._overflow = True  # keep the first bytes (the sequence number), drop the rest
            return None
        self._body.append(byte)
        return None

    def feed(self, data: bytes | bytearray) -> list[Frame | BadFrame]:
        """Take a chunk of bytes; return every frame it completes, in order."""
        out: list[Frame | BadFrame] = []
        for byte in data:
            item = self.feed_byte(byte)
            if item is not None:
                out.append(item)
        return out
