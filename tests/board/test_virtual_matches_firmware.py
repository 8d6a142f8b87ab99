"""The virtual board is a faithful stand-in: it lights exactly what the real firmware lights.

The firmware runs unmodified in the simulator (``companion.board.sim``, built by ``make -C firmware
all``, which the test script runs first); the link shows the same states to it, and every latched frame
the simulator decodes from the LED data pin must equal the virtual board's drawing of that state.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from companion.board.layout import Layout
from companion.board.link import BoardLink
from companion.board.sim import DEFAULT_FIRMWARE, DEFAULT_HARNESS, SimulatedBoard
from companion.board.state import BoardState, Colour, Mode, Pegs, Tentative
from companion.board.virtual import current_ma, draw

LAYOUT = Layout.load()


def _random_state(rng: random.Random) -> BoardState:
    pegs = []
    for _ in range(2):
        forward = rng.choice([0, 121, rng.randint(1, 121), rng.randint(1, 121)])
        rear = rng.randint(0, forward) if forward else 0
        colour = Colour(rng.randrange(256), rng.randrange(256), rng.randrange(256))
        pegs.append(Pegs(rear, forward, colour))
    return BoardState(Mode.GAME, rng.choice([1, 8, 64, 100, 200, 255]), (pegs[0], pegs[1]))


@pytest.fixture(scope="module")
def firmware() -> Iterator[SimulatedBoard]:
    for path in (DEFAULT_HARNESS, DEFAULT_FIRMWARE):
        assert path.is_file(), f"{path} is missing: run `make -C firmware all`"
    with SimulatedBoard() as board:
        yield board


def test_static_states_light_the_same_leds_as_the_firmware(firmware: SimulatedBoard) -> None:
    rng = random.Random(121)
    states = [
        BoardState.playing((0, 0), (0, 0)),
        BoardState.playing((37, 45), (80, 88)),
        BoardState.playing((9, 9), (120, 121)),  # a rear peg in the forward peg's hole
    ]
    states += [_random_state(rng) for _ in range(25)]
    with BoardLink(firmware.port, heartbeat=None) as link:
        for state in states:
            before = firmware.frame_count
            link.show(state)
            frame = firmware.wait_frame(after=before, timeout=2.0)
            expected = draw(state, LAYOUT)
            assert [Colour(*rgb) for rgb in frame.leds] == list(expected), state


def test_a_full_white_win_is_capped_alike(firmware: SimulatedBoard) -> None:
    white = Colour(255, 255, 255)
    state = BoardState(Mode.WIN, 255, (Pegs(100, 121, white), Pegs(80, 90, white)), None, 0)
    with BoardLink(firmware.port, heartbeat=None) as link:
        before = firmware.frame_count
        link.show(state)
        frame = firmware.wait_frame(after=before, timeout=2.0)
        expected = draw(state, LAYOUT, phase_s=0.0)
        assert current_ma(expected) <= 1500
        assert [Colour(*rgb) for rgb in frame.leds] == list(expected)
        link.show(BoardState.playing((0, 0), (0, 0)))


def test_the_first_frame_of_a_claim_shows_the_claimed_hole(firmware: SimulatedBoard) -> None:
    state = BoardState.playing((10, 20), (30, 40), tentative=Tentative(1, 47))
    with BoardLink(firmware.port, heartbeat=None) as link:
        before = firmware.frame_count
        link.show(state)
        frame = firmware.wait_frame(after=before, timeout=2.0)
        assert [Colour(*rgb) for rgb in frame.leds] == list(draw(state, LAYOUT, phase_s=0.0))
        link.show(BoardState.playing((0, 0), (0, 0)))
