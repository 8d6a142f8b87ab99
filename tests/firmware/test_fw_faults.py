"""Faults on the line and on the board: whatever happens, the board ends showing the right state.

Garbage, a damaged byte, a dropped byte, a burst sent while the LEDs refresh (when the real chip's UART
drops bytes, which the harness reproduces and reports), the port closed and reopened (which resets a
Nano), and the chip reset in the middle of a game.
"""

from __future__ import annotations

import random
import time
from collections.abc import Iterator

import pytest

from companion.board.sim import SimulatedBoard

from .conftest import PegState, Track, Wire, expected_leds, frame, open_port, parse_reply

GAME = PegState((Track(14, 22, "00C0FF"), Track(30, 31, "FF6000")))
LATER = PegState((Track(22, 29, "00C0FF"), Track(31, 40, "FF6000")), brightness=90)


@pytest.fixture
def fresh(built: None) -> Iterator[tuple[SimulatedBoard, Wire]]:
    with SimulatedBoard() as board:
        port = open_port(board)
        wire = Wire(port)
        wire.request_until_ok("PING")
        yield board, wire
        port.close()


def shows(board: SimulatedBoard, state: PegState) -> bool:
    latest = board.latest_frame
    return latest is not None and list(latest.leds) == expected_leds(state)


def settle(board: SimulatedBoard, wire: Wire, state: PegState) -> None:
    """What a careful host does after any doubt: send the full state until it is acknowledged."""
    before = board.frame_count
    wire.request_until_ok(state.command())
    board.wait_frame(after=before, timeout=2.0)
    assert shows(board, state)
    assert board.violations == []


def test_garbage_before_a_request_is_skipped(fresh: tuple[SimulatedBoard, Wire]) -> None:
    board, wire = fresh
    settle(board, wire, GAME)
    rng = random.Random(7)
    garbage = bytes(rng.choice(b"xyz 0123*=,\r\t\x00\xff") for _ in range(300))
    seq = wire.next_seq()
    wire.port.write(garbage + frame(seq, LATER.command()))
    assert wire.reply_to(seq).ok
    board.wait_for_frame(lambda f: list(f.leds) == expected_leds(LATER), timeout=1.0)
    assert shows(board, LATER)
    assert board.lost_count == 0


def test_garbage_holding_frame_marks_is_answered_and_survived(fresh: tuple[SimulatedBoard, Wire]) -> None:
    board, wire = fresh
    settle(board, wire, GAME)
    rng = random.Random(11)
    garbage = bytes(rng.choice(b"@\n*AB 0=,") for _ in range(400))
    wire.port.write(garbage)
    time.sleep(0.2)
    wire.port.reset_input_buffer()
    assert shows(board, GAME), "garbage must never change what the board shows"
    settle(board, wire, LATER)


def test_a_damaged_byte_is_refused_then_the_resend_is_taken(fresh: tuple[SimulatedBoard, Wire]) -> None:
    board, wire = fresh
    settle(board, wire, GAME)
    for position in (5, 12, 20, 30):
        seq = wire.next_seq()
        damaged = bytearray(frame(seq, LATER.command()))
        damaged[position] ^= 0x04
        frames = board.frame_count
        wire.port.write(bytes(damaged))
        assert wire.reply_to(seq).words in (("NAK", "crc"), ("NAK", "syntax"))
        assert board.frame_count == frames and shows(board, GAME)
    settle(board, wire, LATER)


def test_a_dropped_byte_is_refused_or_times_out_then_the_resend_is_taken(
    fresh: tuple[SimulatedBoard, Wire],
) -> None:
    board, wire = fresh
    settle(board, wire, GAME)
    whole = frame(0x30, LATER.command())
    for position in (1, 4, 9, len(whole) // 2, len(whole) - 3, len(whole) - 1):
        wire.port.write(whole[:position] + whole[position + 1 :])
        line = wire.read_line(timeout=0.5)
        if line is not None:  # anything but the newline dropped: the board refuses the frame
            assert parse_reply(line).words[0] == "NAK", (position, line)
        else:  # the newline dropped: no reply; the host's next '@' starts afresh
            assert position == len(whole) - 1
        assert shows(board, GAME)
    settle(board, wire, LATER)


def test_a_burst_during_a_refresh_loses_bytes_yet_the_board_recovers(
    fresh: tuple[SimulatedBoard, Wire],
) -> None:
    board, wire = fresh
    settle(board, wire, GAME)
    assert board.lost_count == 0
    # a misbehaving host: a STATE and, without waiting for its reply, a burst that arrives while the
    # board sends the new frame to the LEDs with its interrupts off
    burst = b"".join(frame(0x80 + i, "PING") for i in range(30))
    wire.port.write(frame(0x70, LATER.command()) + burst)
    board.wait_event("lost", timeout=3.0)  # the harness shows the bytes a real chip loses in a refresh
    board.wait_for_frame(lambda f: list(f.leds) == expected_leds(LATER), timeout=3.0)
    time.sleep(0.2)
    wire.port.reset_input_buffer()
    assert board.lost_count > 0
    assert shows(board, LATER)
    lost = board.lost_count
    settle(board, wire, GAME)
    assert wire.request("GET").words[1:4] == ("m=game", "b=64", "p0=14,22,00C0FF")
    assert board.lost_count == lost, "back to request/response: nothing more is lost"


def test_a_request_during_an_animation_is_answered_or_resent(fresh: tuple[SimulatedBoard, Wire]) -> None:
    board, wire = fresh
    blinking = GAME.command() + " t=1,35"
    wire.request_until_ok(blinking)
    rng = random.Random(3)
    for _ in range(20):  # requests at random moments against refreshes every 250 ms
        time.sleep(rng.random() * 0.05)
        wire.request_until_ok("PING")
    settle(board, wire, LATER)


def test_the_port_closed_and_reopened_resets_the_board_and_the_host_restores_it(
    fresh: tuple[SimulatedBoard, Wire],
) -> None:
    board, wire = fresh
    settle(board, wire, GAME)
    marker = len(board.events)  # before closing: the harness may report the close at once
    wire.port.close()
    board.wait_event("close", after=marker)
    wire.port = open_port(board)
    assert board.wait_event("start", after=marker)["reason"] == "open"
    assert wire.request_until_ok("HELLO").options()["holes"] == "121"
    assert wire.request("GET").words[1] == "m=idle", "a Nano forgets its state when its port is opened"
    settle(board, wire, GAME)


def test_without_reset_on_open_the_state_survives_a_reopen(built: None) -> None:
    with SimulatedBoard(reset_on_open=False) as board:
        wire = Wire(open_port(board))
        wire.request_until_ok("PING")
        settle(board, wire, GAME)
        marker = len(board.events)
        wire.port.close()
        board.wait_event("close", after=marker)
        wire.port = open_port(board)
        board.wait_event("open", after=marker)
        assert wire.request_until_ok("GET").words[1:4] == ("m=game", "b=64", "p0=14,22,00C0FF")
        assert shows(board, GAME)
        wire.port.close()


def test_a_chip_reset_mid_game_is_seen_and_the_state_restored(fresh: tuple[SimulatedBoard, Wire]) -> None:
    board, wire = fresh
    settle(board, wire, GAME)
    frames = board.frame_count
    board.reset()
    banner = wire.read_line(timeout=1.0)
    assert banner is not None and parse_reply(banner).words[0] == "READY"
    after_reset = board.wait_frame(after=frames, timeout=2.0)
    assert list(after_reset.leds) != expected_leds(GAME), "a reset chip starts with its idle pattern"
    # The idle pattern animates on the board's own timer, and a request that meets one of its refreshes
    # may be lost (the protocol's "animated modes" rule): the host asks again, as here.
    assert wire.request_until_ok("GET").words[1] == "m=idle"
    settle(board, wire, GAME)
    assert shows(board, GAME)
