"""The companion's own link (``companion.board.link``) driving the real firmware in the simulator.

The LEDs are checked against the layout with the tests' own rules (conftest), not the companion's, so the
link, the protocol module and the firmware are all held to one specification.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from companion.board.link import BoardLink
from companion.board.protocol import FIRMWARE_VERSION
from companion.board.sim import SimulatedBoard
from companion.board.state import BoardState, Colour, Mode, Pegs

from .conftest import CAP_MA, PegState, Track, expected_leds


def as_peg_state(state: BoardState) -> PegState:
    tracks = [Track(p.rear, p.forward, p.colour.hex) for p in state.pegs]
    return PegState((tracks[0], tracks[1]), brightness=state.brightness)


def random_board_state(rng: random.Random) -> BoardState:
    pegs = []
    for _ in range(2):
        forward = rng.choice([0, rng.randint(1, 121), rng.randint(1, 121), 121])
        rear = 0 if forward == 0 else rng.randint(0, forward)
        pegs.append(Pegs(rear, forward, Colour(rng.randrange(256), rng.randrange(256), rng.randrange(256))))
    return BoardState(Mode.GAME, rng.choice([8, 64, 150, 255]), (pegs[0], pegs[1]))


@pytest.fixture
def linked(built: None) -> Iterator[tuple[SimulatedBoard, BoardLink]]:
    with SimulatedBoard() as board, BoardLink(board.port, heartbeat=None) as link:
        yield board, link


def test_the_link_handshakes_with_the_firmware(linked: tuple[SimulatedBoard, BoardLink]) -> None:
    _board, link = linked
    info = link.connect()
    assert (info.protocol, info.firmware, info.tracks, info.holes, info.leds, info.cap_ma) == (
        1,
        FIRMWARE_VERSION,
        2,
        121,
        242,
        CAP_MA,
    )


def test_states_shown_through_the_link_light_exactly_the_right_leds(
    linked: tuple[SimulatedBoard, BoardLink],
) -> None:
    board, link = linked
    rng = random.Random(4)
    states = [BoardState.playing((0, 0), (0, 0)), BoardState.playing((37, 45), (80, 88))]
    states += [random_board_state(rng) for _ in range(40)]
    for state in states:
        before = board.frame_count
        link.show(state)
        frame = board.wait_frame(after=before, timeout=2.0)
        assert list(frame.leds) == expected_leds(as_peg_state(state)), state
        assert frame.current_ma() <= CAP_MA
    assert link.read_state() == states[-1]
    assert board.lost_count == 0
    assert board.violations == []


def test_the_link_restores_the_state_after_the_chip_resets_mid_game(built: None) -> None:
    with SimulatedBoard() as board, BoardLink(board.port, heartbeat=0.2) as link:
        state = BoardState.playing((14, 22), (30, 31))
        link.show(state)
        wanted = expected_leds(as_peg_state(state))
        frames = board.frame_count
        board.reset()
        # the chip comes back with its idle pattern; the link's heartbeat notices and restores the pegs
        board.wait_frame(after=frames, timeout=2.0)
        restored = board.wait_for_frame(lambda f: f.number > frames and list(f.leds) == wanted, timeout=5.0)
        assert restored.number > frames + 1
        assert link.read_state() == state
        assert board.violations == []
