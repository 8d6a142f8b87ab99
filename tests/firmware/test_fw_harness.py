"""The simulator harness itself: it must be able to fail the firmware's tests.

A test program (firmware/sim/test_pulses.c) sends one correct WS2812B frame and then frames that break
the datasheet in known ways; the harness must decode the first exactly and flag each fault. And in its
"wire" feed the harness must lose what a real ATmega328P loses while its interrupts are off: every
byte beyond the three its receiver holds, for the length of the LED refresh.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
import serial

from companion.board.sim import SimulatedBoard

from .conftest import REPO, Wire, frame, open_port

PULSES = REPO / "firmware" / "build" / "test-pulses.elf"
BYTE_US = 10 / 115200 * 1e6  # one 8N1 byte on the line


@pytest.fixture
def pulses(built: None) -> Iterator[SimulatedBoard]:
    assert PULSES.is_file(), f"{PULSES} is missing: run `make -C firmware all`"
    with SimulatedBoard(firmware=PULSES) as board:
        port = serial.Serial(board.port, 115200)  # the chip starts once the port is open
        try:
            assert board.wait_event("exit", timeout=5.0)["reason"] == "done"
            yield board
        finally:
            port.close()


def test_a_frame_in_spec_is_decoded_in_rgb_order_without_complaint(pulses: SimulatedBoard) -> None:
    first = pulses.frames[0]
    assert (first.number, first.bits, first.led_count) == (1, 24, 1)
    assert first.led(0) == (0xFF, 0x00, 0x0F)  # sent as G=00 R=FF B=0F
    assert [v for v in pulses.violations if v.frame == 1] == []


def test_each_kind_of_timing_fault_is_reported(pulses: SimulatedBoard) -> None:
    found = {(v.kind, v.frame) for v in pulses.violations}
    assert found == {("high", 2), ("gap", 3), ("latch", 4), ("partial", 4)}
    short = next(v for v in pulses.violations if v.kind == "high")
    assert short.ns == pytest.approx(125.0) and short.bit == 8
    gap = next(v for v in pulses.violations if v.kind == "gap")
    assert 10_000 <= gap.ns <= 11_000
    latch = next(v for v in pulses.violations if v.kind == "latch")
    assert 100_000 <= latch.ns <= 102_000  # 100 us: enough for old WS2812B, too short for new ones
    assert [f.bits for f in pulses.frames] == [24, 24, 24, 20]


def test_the_wire_feed_loses_what_a_real_chip_loses_during_a_refresh(built: None) -> None:
    with SimulatedBoard() as board:
        wire = Wire(open_port(board))
        try:
            wire.request_until_ok("STATE m=game p0=1,2,00C0FF")
            assert board.lost_count == 0
            before = board.frame_count
            # a STATE and, at once, 330 bytes more: they keep arriving through the whole refresh
            burst = b"".join(frame(0x80 + i, "PING") for i in range(30))
            wire.port.write(frame(0x70, "STATE m=game p0=3,4,00C0FF") + burst)
            refresh = board.wait_frame(after=before, timeout=2.0)
            board.wait_event("lost", timeout=2.0)
            wire.request_until_ok("PING")
            blackout_us = (refresh.sim_us - 50) - refresh.start_us  # first edge to last bit
            expected = blackout_us / BYTE_US - 3  # two in the receive buffer, one in the shift register
            assert abs(board.lost_count - expected) <= 2, (board.lost_count, expected)
        finally:
            wire.port.close()


def test_without_the_wire_feed_simavr_would_hide_the_loss(built: None) -> None:
    """simavr's own UART buffers 64 bytes and never drops one: the reason the harness has a wire feed."""
    with SimulatedBoard(feed="fifo") as board:
        wire = Wire(open_port(board))
        try:
            wire.request_until_ok("STATE m=game p0=1,2,00C0FF")
            before = board.frame_count
            burst = b"".join(frame(0x80 + i, "PING") for i in range(4))
            wire.port.write(frame(0x70, "STATE m=game p0=3,4,00C0FF") + burst)
            board.wait_frame(after=before, timeout=2.0)
            for i in range(4):  # every PING sent during the refresh got through
                assert wire.reply_to(0x80 + i).ok
            assert board.lost_count == 0
        finally:
            wire.port.close()
