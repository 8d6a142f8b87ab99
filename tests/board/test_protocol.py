"""Frames, the CRC and the resynchronising decoder (docs/protocol.md, "Frames" and "The receiver")."""

from __future__ import annotations

from hypothesis import assume, given
from hypothesis import strategies as st

from companion.board.protocol import (
    MAX_FRAME,
    BadFrame,
    Frame,
    FrameDecoder,
    NakReason,
    crc8,
    key_values,
    parse_body,
)


def _crc8_by_polynomial_division(data: bytes) -> int:
    """An independent oracle: the remainder of data(x) * x^8 divided by x^8 + x^2 + x + 1 over GF(2)."""
    dividend = int.from_bytes(data, "big") << 8 if data else 0
    generator = 0x107
    for shift in range(dividend.bit_length() - 9, -1, -1):
        if dividend >> (shift + 8) & 1:
            dividend ^= generator << shift
    return dividend


# --- CRC-8/SMBUS -------------------------------------------------------------------------------------


def test_crc8_catalogue_check_value() -> None:
    # The standard check value of CRC-8/SMBUS over the ASCII digits 1..9.
    assert crc8(b"123456789") == 0xF4


def test_crc8_small_vectors() -> None:
    assert crc8(b"") == 0x00
    assert crc8(b"\x00") == 0x00
    assert crc8(b"\x01") == 0x07
    assert crc8(b"\xff") == 0xF3
    assert crc8(b"01 PING") == 0x85


@given(st.binary(max_size=200))
def test_crc8_is_the_polynomial_remainder(data: bytes) -> None:
    assert crc8(data) == _crc8_by_polynomial_division(data)


@given(st.binary(max_size=200))
def test_crc8_of_data_followed_by_its_crc_is_zero(data: bytes) -> None:
    assert crc8(data + bytes([crc8(data)])) == 0


@given(st.binary(min_size=1, max_size=100), st.binary(max_size=100))
def test_crc8_can_be_computed_in_pieces(head: bytes, tail: bytes) -> None:
    assert crc8(tail, crc8(head)) == crc8(head + tail)


# --- frames ------------------------------------------------------------------------------------------

commands = st.text(alphabet="ABCDEFGHIJKLMNOPQRSTUVWXYZ", min_size=1, max_size=8)
arg_chars = "".join(chr(c) for c in range(0x21, 0x7F) if chr(c) not in "@*")
arguments = st.lists(st.text(alphabet=arg_chars, min_size=1, max_size=12), max_size=5)
frames = st.builds(Frame, st.one_of(st.none(), st.integers(0, 255)), commands, arguments.map(tuple))


def test_encoding_a_request() -> None:
    frame = Frame(2, "STATE", ("m=game", "p0=37,45,00C0FF", "p1=80,88,FF6000"))
    assert frame.encode() == b"@02 STATE m=game p0=37,45,00C0FF p1=80,88,FF6000*BD\n"
    assert Frame(None, "NAK", ("crc",)).encode() == b"@?? NAK crc*F3\n"


@given(frames)
def test_frames_round_trip(frame: Frame) -> None:
    encoded = frame.encode()
    assert encoded.startswith(b"@") and encoded.endswith(b"\n") and len(encoded) <= MAX_FRAME
    assert FrameDecoder().feed(encoded) == [frame]
    assert parse_body(encoded[1:-1]) == frame


def test_frames_refuse_what_cannot_go_on_the_wire() -> None:
    for bad in (
        lambda: Frame(256, "PING"),
        lambda: Frame(1, "ping"),
        lambda: Frame(1, "PING", ("two words",)),
        lambda: Frame(1, "PING", ("a*b",)),
        lambda: Frame(1, "PING", ("",)),
        lambda: Frame(1, "STATE", ("x" * 120,)).encode(),
    ):
        try:
            bad()
        except ValueError:
            continue
        raise AssertionError("accepted a frame that cannot be sent")


def test_key_values() -> None:
    assert key_values(("m=game", "b=64")) == {"m": "game", "b": "64"}
    for bad in (("m",), ("=1",), ("m=",), ("m=1", "m=2")):
        try:
            key_values(bad)
        except ValueError:
            continue
        raise AssertionError(f"accepted {bad}")


# --- the decoder -------------------------------------------------------------------------------------

PING = Frame(1, "PING")
STATE = Frame(0x2A, "STATE", ("m=game", "p0=37,45,00C0FF", "p1=80,88,FF6000", "t=1,90"))


def test_bytes_outside_frames_are_ignored_and_carriage_returns_too() -> None:
    decoder = FrameDecoder()
    stream = b"noise\n\x00\xff" + PING.encode().replace(b"\n", b"\r\n") + b"more noise" + STATE.encode()
    assert decoder.feed(stream) == [PING, STATE]
    assert not decoder.in_frame


def test_an_at_sign_inside_a_frame_starts_a_new_one() -> None:
    assert FrameDecoder().feed(b"@01 PIN" + STATE.encode()) == [STATE]


def test_a_frame_can_arrive_one_byte_at_a_time() -> None:
    decoder = FrameDecoder()
    items = [decoder.feed_byte(byte) for byte in STATE.encode()]
    assert items[:-1] == [None] * (len(items) - 1)
    assert items[-1] == STATE


def test_refusals_and_their_sequence_numbers() -> None:
    def one(data: bytes) -> Frame | BadFrame:
        (item,) = FrameDecoder().feed(data)
        return item

    assert one(b"@01 PING*00\n") == BadFrame(NakReason.CRC, 1)
    assert one(b"@01 PING\n") == BadFrame(NakReason.CRC, 1)  # no checksum at all
    assert one(b"@01 PING*8\n") == BadFrame(NakReason.CRC, 1)
    assert one(b"@01 PING*85\n") == PING
    assert one(b"@0a PING*85\n") == BadFrame(NakReason.CRC, None)  # lower-case hex is not a number here
    assert one(b"@\n") == BadFrame(NakReason.CRC, None)
    body = b"1 PING"  # a one-digit sequence number, correctly checksummed: intact but malformed
    assert one(b"@" + body + b"*%02X\n" % crc8(body)) == BadFrame(NakReason.SYNTAX, None)
    for body in (b"01  PING", b"01 Ping", b"01 PING ", b"01", b"01 PING \x7f"):
        assert one(b"@" + body + b"*%02X\n" % crc8(body)) == BadFrame(NakReason.SYNTAX, 1), body
    assert BadFrame(NakReason.SYNTAX, 1).nak() == Frame(1, "NAK", ("syntax",))


def test_longest_frame_is_accepted_and_one_byte_more_overflows() -> None:
    def padded(length: int) -> bytes:
        prefix = "2A STATE x="
        filler = "y" * (length - len(prefix) - 5)  # '@', '*', two CRC digits and '\n'
        body = (prefix + filler).encode()
        return b"@" + body + b"*%02X\n" % crc8(body)

    assert len(padded(MAX_FRAME)) == MAX_FRAME
    (item,) = FrameDecoder().feed(padded(MAX_FRAME))
    assert isinstance(item, Frame) and item.command == "STATE"
    decoder = FrameDecoder()
    assert decoder.feed(padded(MAX_FRAME + 1)) == [BadFrame(NakReason.OVERFLOW, 0x2A)]
    assert decoder.feed(PING.encode()) == [PING]  # and the next frame is read normally
    assert FrameDecoder().feed(b"@" + b"x" * 500 + b"\n") == [BadFrame(NakReason.OVERFLOW, None)]


@given(st.binary(max_size=300), frames)
def test_any_garbage_without_a_newline_then_at_sign_is_recovered_from(garbage: bytes, frame: Frame) -> None:
    # Whatever came before, a frame that starts with '@' is read intact (an '@' always restarts).
    decoder = FrameDecoder()
    decoder.feed(garbage)
    assert decoder.feed(frame.encode()) == [frame]


@given(frames, st.data())
def test_a_corrupted_byte_is_always_caught_as_a_crc_error(frame: Frame, data: st.DataObject) -> None:
    encoded = bytearray(frame.encode())
    position = data.draw(st.integers(1, len(encoded) - 2), label="position")  # not the '@' or the '\n'
    value = data.draw(st.integers(0, 255).filter(lambda v: v not in b"@\n\r"), label="value")
    assume(value != encoded[position])
    encoded[position] = value
    decoder = FrameDecoder()
    (item,) = decoder.feed(bytes(encoded))
    assert isinstance(item, BadFrame) and item.reason is NakReason.CRC
    assert decoder.feed(STATE.encode()) == [STATE]


@given(frames, st.data())
def test_a_dropped_byte_never_swallows_the_next_frame(frame: Frame, data: st.DataObject) -> None:
    encoded = bytearray(frame.encode())
    position = data.draw(st.integers(0, len(encoded) - 1), label="position")
    del encoded[position]
    items = FrameDecoder().feed(bytes(encoded) + STATE.encode())
    assert items[-1] == STATE
    if position in (0, len(encoded)):
        # Without its '@' the frame is never started; without its newline it is cut short by the next
        # frame's '@'.  Either way it vanishes without a reply, and the host's timeout resends it.
        assert items == [STATE]
    else:
        assert len(items) == 2 and items[0] != frame  # the damaged frame gets exactly one answer


@given(st.lists(frames, min_size=1, max_size=8), st.lists(st.binary(max_size=20), min_size=8, max_size=8))
def test_a_stream_of_frames_with_noise_between_them(frames_: list[Frame], noise: list[bytes]) -> None:
    stream = b""
    for frame, junk in zip(frames_, noise, strict=False):
        stream += junk.replace(b"@", b"") + b"\n" + frame.encode()
    assert [item for item in FrameDecoder().feed(stream) if isinstance(item, Frame)] == frames_
