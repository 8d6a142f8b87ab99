"""The virtual board is a faithful stand-in: it answers and lights exactly as the real firmware does.

The firmware runs unmodified in the simulator (``companion.board.sim``, built by ``make -C firmware
all``, which the test script runs first); the link shows the same states to it, and every latched frame
the simulator decodes from the LED data pin must equal the virtual board's drawing of that state.
"""

from __future__ import annotations

import random
import time
from collections.abc import Iterator

import pytest
import serial

from companion.board.layout import Layout
from companion.board.link import BoardLink
from companion.board.protocol import Frame, FrameDecoder
from companion.board.sim import DEFAULT_FIRMWARE, DEFAULT_HARNESS, LedFrame, SimulatedBoard, SimulatorError
from companion.board.state import BoardState, Colour, Mode, Pegs, Tentative
from companion.board.virtual import VirtualBoard, current_ma, draw

LAYOUT = Layout.load()


def _show(link: BoardLink, firmware: SimulatedBoard, state: BoardState, phase_s: float = 0.0) -> LedFrame:
    """Show ``state``; return the frame the firmware latched for it, which must be the virtual board's
    drawing of it at ``phase_s``.

    The frame is found by what it shows, among those latched after the request: on a busy machine the
    harness reports frames of an earlier animation late, so "the next frame reported" may not be it.
    """
    before = firmware.frame_count
    link.show(state)
    expected = [(c.red, c.green, c.blue) for c in draw(state, LAYOUT, phase_s=phase_s)]
    try:
        return firmware.wait_for_frame(
            lambda frame: frame.number > before and list(frame.leds) == expected, timeout=10.0
        )
    except SimulatorError:
        latest = firmware.latest_frame
        shown = [] if latest is None else [Colour(*rgb) for rgb in latest.leds]
        assert shown == [Colour(*rgb) for rgb in expected], "the firmware never latched the drawing"
        raise


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
            _show(link, firmware, state)


def test_a_full_white_win_is_capped_alike(firmware: SimulatedBoard) -> None:
    white = Colour(255, 255, 255)
    state = BoardState(Mode.WIN, 255, (Pegs(100, 121, white), Pegs(80, 90, white)), None, 0)
    with BoardLink(firmware.port, heartbeat=None) as link:
        assert current_ma(draw(state, LAYOUT, phase_s=0.0)) <= 1500
        _show(link, firmware, state)
        link.show(BoardState.playing((0, 0), (0, 0)))


@pytest.mark.parametrize(
    "state",
    [
        BoardState(),  # the idle pattern
        BoardState(Mode.TEST, 200, BoardState.playing((1, 2), (3, 4)).pegs),
        BoardState(Mode.WIN, 90, BoardState.playing((100, 112), (115, 121)).pegs, None, 1),
    ],
    ids=["idle", "test", "win"],
)
def test_the_first_frame_of_each_animation_is_drawn_alike(
    firmware: SimulatedBoard, state: BoardState
) -> None:
    with BoardLink(firmware.port, heartbeat=None) as link:
        _show(link, firmware, state)
        link.show(BoardState.playing((0, 0), (0, 0)))


def test_the_first_frame_of_a_claim_shows_the_claimed_hole(firmware: SimulatedBoard) -> None:
    state = BoardState.playing((10, 20), (30, 40), tentative=Tentative(1, 47))
    with BoardLink(firmware.port, heartbeat=None) as link:
        _show(link, firmware, state)
        link.show(BoardState.playing((0, 0), (0, 0)))


def test_a_waiting_question_flashes_alike(firmware: SimulatedBoard) -> None:
    """The board steps its animations every 250 ms: step k is drawn as the virtual board at k / 4 s."""
    state = BoardState.playing((10, 20), (0, 0), tentative=Tentative(1, 47), question=True)
    with BoardLink(firmware.port, heartbeat=None) as link:
        first = _show(link, firmware, state, phase_s=0.1)
        frames = [first] + [firmware.wait_frame(after=first.number + k - 1, timeout=5.0) for k in range(1, 4)]
        for k, frame in enumerate(frames):
            expected = draw(state, LAYOUT, phase_s=k * 0.25 + 0.1)
            assert [Colour(*rgb) for rgb in frame.leds] == list(expected), k
        assert link.read_state() == state
        link.show(BoardState.playing((0, 0), (0, 0)))


def _requests(rng: random.Random) -> list[bytes]:
    """Requests of every kind: good ones, refused ones and ones damaged on the way."""
    fixed = [
        Frame(1, "HELLO"),
        Frame(2, "PING", ("now",)),
        Frame(None, "PING"),
        Frame(3, "STATE", ("t=0,0",)),
        Frame(4, "STATE", ("b=0064",)),
        Frame(5, "STATE", ("p0=5,0,00C0FF", "m=game")),
        Frame(6, "STATE", ("b=-1",)),
        Frame(7, "STATE", ("p0=1,2,00c0ff", "m=game")),
        Frame(8, "STATE", ("t=-1,5",)),
        Frame(9, "STATE", ("p1=0,0,FF6000", "p1=0,0,FF6000")),
        Frame(10, "STATE", ("x",)),
        Frame(11, "STATE", ("w=2",)),
        Frame(12, "BLINK"),
        Frame(13, "GET"),
        Frame(14, "STATE", ("m=game", "q=0")),
        Frame(15, "STATE", ("q=1", "m=game", "q=-")),
    ]
    out = [frame.encode() for frame in fixed]
    out += [b"@0E*00\n", b"@0F PING  *C0\n", b"@10 STATE " + b"a" * 120 + b"\n", b"noise @11 PING*8B\n"]
    for seq in range(0x20, 0x20 + 60):
        state = _random_state(rng)  # game mode, no claim: the board stays still between requests
        frame = bytearray(Frame(seq, "STATE", state.to_command()).encode())
        roll = rng.random()
        if roll < 0.3:  # a byte changed
            frame[rng.randrange(1, len(frame) - 1)] = rng.randrange(256)
        elif roll < 0.4:  # a byte lost
            del frame[rng.randrange(1, len(frame) - 1)]
        out.append(bytes(frame))
        if rng.random() < 0.2:
            out.append(Frame(seq, "GET").encode())
    return out


def test_every_request_is_answered_exactly_as_the_firmware_answers_it(firmware: SimulatedBoard) -> None:
    rng = random.Random(7)
    # Generous timeouts: a request the board ignores costs one, and a loaded CI machine is slow to answer.
    with serial.Serial(firmware.port, 115200, timeout=0.6) as port:
        # Opening the port reset the chip. Its READY banner may go out before pyserial's open has
        # flushed the input, so ask, as the link does, until it answers.
        deadline = time.monotonic() + 15.0
        while True:
            port.write(Frame(0x1D, "PING").encode())
            if port.readline() == Frame(0x1D, "OK").encode():
                break
            assert time.monotonic() < deadline, "the simulated chip did not start"
        still = Frame(0x1F, "STATE", ("m=game",)).encode()  # not the idle animation: no refresh races
        before = firmware.frame_count
        port.write(still)
        # A late banner or answers to PINGs sent while it booted may come first: read past them.
        while (line := port.readline()) != Frame(0x1F, "OK").encode():
            assert line.startswith((b"@00 READY", b"@1D OK")) or not line, line
            assert time.monotonic() < deadline, "the simulated chip did not take the first STATE"
            if not line:  # lost in the idle animation's refresh, as a real chip loses it: send it again
                port.write(still)
        # PINGs sent while the chip ran its idle animation may have been lost (that is why the host waits
        # for replies). Once the harness reports the dark frame of m=game, it has reported those losses
        # too (one stream, in order); from then on the host waits for each reply, so none may be lost.
        firmware.wait_for_frame(lambda frame: frame.number > before and not any(frame.rgb), timeout=10.0)
        lost = firmware.lost_count
        port.write(Frame(0x1E, "HELLO").encode())
        (hello,) = FrameDecoder().feed(port.readline())
        assert isinstance(hello, Frame)
        virtual = VirtualBoard(firmware=hello.options()["fw"])  # the one answer that may differ
        port.write(still)
        assert port.readline() == virtual.receive(still)
        for request in _requests(rng):
            port.write(request)
            answer = port.readline() if request.endswith(b"\n") and b"@" in request else port.read(100)
            assert answer == virtual.receive(request), request
        assert firmware.lost_count == lost
