"""The link against a real board on the bench: ``pytest --hardware tests/board`` with the board attached.

The port is ``$CRIB_BOARD_PORT`` (default ``/dev/ttyUSB0``).  Opening it resets the Nano, so these also
check the wait for the bootloader on real hardware.
"""

from __future__ import annotations

import os
import time

import pytest

from companion.board.link import BoardLink
from companion.board.state import BoardState, Mode, Tentative

PORT = os.environ.get("CRIB_BOARD_PORT", "/dev/ttyUSB0")

pytestmark = pytest.mark.hardware


def test_real_board_handshakes_with_the_layouts_geometry() -> None:
    with BoardLink(PORT, heartbeat=None) as link:
        info = link.connect()
        assert (info.protocol, info.tracks, info.holes, info.leds) == (1, 2, 121, 242)


def test_real_board_shows_and_reports_states() -> None:
    states = [
        BoardState.playing((0, 0), (0, 0)),
        BoardState.playing((37, 45), (80, 88)),
        BoardState.playing((115, 121), (99, 110), tentative=Tentative(1, 112)),
    ]
    with BoardLink(PORT, heartbeat=None) as link:
        for state in states:
            started = time.perf_counter()
            link.show(state)
            assert time.perf_counter() - started < 0.1
            assert link.read_state() == state
        assert (link.stats.timeouts, link.stats.naks) == (0, 0)


def test_real_board_runs_its_self_test() -> None:
    with BoardLink(PORT, heartbeat=None) as link:
        link.show(BoardState(mode=Mode.TEST))
        deadline = time.monotonic() + 20
        while link.read_state().mode is Mode.TEST and time.monotonic() < deadline:
            time.sleep(0.2)
        assert link.read_state().mode is Mode.GAME
