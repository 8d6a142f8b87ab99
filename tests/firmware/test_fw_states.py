"""The real firmware in the simulator, driven over its serial port with a minimal client of our own.

Each STATE must latch exactly the LEDs the layout and the drawing rules call for, in the right colours,
with every other LED dark, within the current cap, with WS2812B timing inside the datasheet, and with
no received byte lost while the host keeps to request/response.
"""

from __future__ import annotations

import itertools
import json
import random

from companion.board.protocol import FIRMWARE_VERSION
from companion.board.sim import SimulatedBoard

from .conftest import (
    CAP_MA,
    LAYOUT,
    LAYOUT_PATH,
    LED_COUNT,
    PegState,
    Track,
    Wire,
    crc8,
    expected_leds,
    frame,
    frame_current_ma,
    open_port,
    parse_reply,
    random_state,
    scaled,
)


def show(board: SimulatedBoard, wire: Wire, command: str) -> list[tuple[int, int, int]]:
    """Send a STATE, check it is answered OK, and return the frame latched for it."""
    before = board.frame_count
    reply = wire.request(command)
    assert reply.ok, (command, reply)
    # the board answers only after the frame is latched: it must already be on its way to us
    return list(board.wait_frame(after=before, timeout=2.0).leds)


FIXED_STATES = [
    PegState((Track(0, 0, "00C0FF"), Track(0, 0, "FF6000"))),
    PegState((Track(0, 2, "00C0FF"), Track(0, 0, "FF6000"))),
    PegState((Track(2, 7, "00C0FF"), Track(5, 12, "FF6000"))),
    PegState((Track(60, 61, "FFFFFF"), Track(59, 60, "FF0000")), brightness=255),
    PegState((Track(115, 121, "00FF00"), Track(100, 119, "0000FF")), brightness=128),
    PegState((Track(121, 121, "123456"), Track(0, 121, "ABCDEF")), brightness=200),
    PegState((Track(1, 1, "FFFFFF"), Track(1, 1, "FFFFFF")), brightness=1),
]


def test_hello_reports_the_geometry_of_the_layout(sim: tuple[SimulatedBoard, Wire]) -> None:
    _board, wire = sim
    reply = wire.request("HELLO")
    layout = json.loads(LAYOUT_PATH.read_text(encoding="utf-8"))
    assert reply.ok
    assert reply.options() == {
        "proto": "1",
        "fw": FIRMWARE_VERSION,
        "tracks": str(layout["tracks"]),
        "holes": str(layout["holes_per_track"]),
        "leds": str(layout["led_count"]),
        "cap": str(CAP_MA),
    }


def test_fixed_peg_states_light_exactly_the_right_leds(sim: tuple[SimulatedBoard, Wire]) -> None:
    board, wire = sim
    for state in FIXED_STATES:
        assert show(board, wire, state.command()) == expected_leds(state), state


def test_random_peg_states_light_exactly_the_right_leds(sim: tuple[SimulatedBoard, Wire]) -> None:
    board, wire = sim
    rng = random.Random(20261123)
    lost_before = board.lost_count
    for _ in range(60):
        state = random_state(rng)
        assert show(board, wire, state.command()) == expected_leds(state), state
    assert board.lost_count == lost_before, "a byte was lost in plain request/response operation"
    assert board.violations == []


def test_a_state_key_left_out_takes_its_default(sim: tuple[SimulatedBoard, Wire]) -> None:
    board, wire = sim
    leds = show(board, wire, "STATE m=game p1=3,9,FF6000")
    expected = [(0, 0, 0)] * LED_COUNT
    expected[LAYOUT[(1, 3)]] = scaled("FF6000", (64 + 3) // 4)
    expected[LAYOUT[(1, 9)]] = scaled("FF6000", 64)
    assert leds == expected
    assert wire.request("GET").words == (
        "OK",
        "m=game",
        "b=64",
        "p0=0,0,00C0FF",
        "p1=3,9,FF6000",
        "t=-",
        "w=-",
        "q=-",
    )


def test_the_same_state_twice_is_harmless(sim: tuple[SimulatedBoard, Wire]) -> None:
    board, wire = sim
    state = FIXED_STATES[2]
    first = show(board, wire, state.command())
    second = show(board, wire, state.command())
    assert first == second == expected_leds(state)


def test_get_reads_back_every_key(sim: tuple[SimulatedBoard, Wire]) -> None:
    _board, wire = sim
    assert wire.request("STATE m=game b=99 p0=4,10,0A0B0C p1=0,0,FF6000 t=0,15 w=- q=1").ok
    assert wire.request("GET").words == (
        "OK",
        "m=game",
        "b=99",
        "p0=4,10,0A0B0C",
        "p1=0,0,FF6000",
        "t=0,15",
        "w=-",
        "q=1",
    )
    assert wire.request("STATE m=game q=-").ok
    assert wire.request("GET").words[-1] == "q=-"


def test_bad_requests_are_refused_and_leave_the_state(sim: tuple[SimulatedBoard, Wire]) -> None:
    board, wire = sim
    good = FIXED_STATES[2]
    show(board, wire, good.command())
    frames = board.frame_count
    cases = {
        "STATE m=game p0=9,3,00C0FF": "range",  # rear ahead of forward
        "STATE m=game p0=0,122,00C0FF": "range",
        "STATE m=game b=256": "range",
        "STATE m=game t=2,5": "range",
        "STATE m=game t=0,0": "range",
        "STATE m=party": "syntax",
        "STATE m=game b=0064": "syntax",
        "STATE m=game b=-1": "syntax",
        "PING now": "syntax",
        "GET m": "syntax",
        "STATE m=game x=1": "syntax",
        "STATE m=game p0=1,2": "syntax",
        "STATE m=game p0=1,2,GGGGGG": "syntax",
        "STATE m=game b=12a": "syntax",
        "STATE m=game m=idle": "syntax",
        "STATE m=game  b=1": "syntax",
        "STATE m=game q=0": "syntax",
        "STATE m=game q=yes": "syntax",
        "STATE m=game q=1 q=1": "syntax",
        "JUMP": "unknown",
        "ping": "syntax",
    }
    for body, reason in cases.items():
        reply = wire.request(body)
        assert reply.words == ("NAK", reason), body
    # a damaged checksum, a frame with no checksum, an unreadable sequence number, an overlong frame
    wire.port.write(b"@41 PING*00\n")
    assert wire.reply_to(0x41).words == ("NAK", "crc")
    wire.port.write(b"@42 PING\n")
    assert wire.reply_to(0x42).words == ("NAK", "crc")
    body = b"zz PING"
    wire.port.write(b"@" + body + b"*" + f"{crc8(body):02X}".encode() + b"\n")
    assert wire.reply_to("??").words == ("NAK", "syntax")
    wire.port.write(b"@43 STATE " + b"b=1 " * 40 + b"*00\n")
    assert wire.reply_to(0x43).words == ("NAK", "overflow")
    assert board.frame_count == frames, "a refused request redrew the LEDs"
    assert board.latest_frame is not None and list(board.latest_frame.leds) == expected_leds(good)


def test_the_tentative_peg_blinks_at_about_two_hertz(sim: tuple[SimulatedBoard, Wire]) -> None:
    board, wire = sim
    base = PegState((Track(2, 7, "00C0FF"), Track(5, 12, "FF6000")))
    before = board.frame_count
    assert wire.request(base.command() + " t=0,13").ok
    frames = [board.wait_frame(after=before + i, timeout=2.0) for i in range(5)]
    on = expected_leds(base)
    on[LAYOUT[(0, 13)]] = scaled("00C0FF", 64)
    off = expected_leds(base)
    assert [list(f.leds) for f in frames] == [on, off, on, off, on]
    periods = [(b.sim_us - a.sim_us) / 1000 for a, b in itertools.pairwise(frames)]
    assert all(230 <= p <= 290 for p in periods), periods
    # the claim settled: the blinking stops and the board goes quiet
    assert show(board, wire, base.command()) == expected_leds(base)


def test_a_waiting_question_flashes_hole_one_and_the_forward_pegs_white_once_a_second(
    sim: tuple[SimulatedBoard, Wire],
) -> None:
    board, wire = sim
    base = PegState((Track(2, 7, "00C0FF"), Track(0, 0, "FF6000")), brightness=80)
    before = board.frame_count
    assert wire.request(base.command() + " q=1").ok
    frames = [board.wait_frame(after=before + i, timeout=2.0) for i in range(6)]
    plain = expected_leds(base)
    asking = expected_leds(base)
    for hole in ((0, 1), (1, 1), (0, 7)):  # track 1's pegs are in the start holes: only its hole 1
        asking[LAYOUT[hole]] = (80, 80, 80)
    assert [list(f.leds) for f in frames] == [asking, asking, plain, plain, asking, asking]
    periods = [(b.sim_us - a.sim_us) / 1000 for a, b in itertools.pairwise(frames)]
    assert all(230 <= p <= 290 for p in periods), periods
    assert wire.request("GET").options()["q"] == "1"
    # with a claim dialled as well, the claim's hole is drawn over the question
    before = board.frame_count
    assert wire.request(base.command() + " t=0,1 q=1").ok
    first = list(board.wait_frame(after=before, timeout=2.0).leds)
    asking[LAYOUT[(0, 1)]] = scaled("00C0FF", 80)
    assert first == asking
    # the question answered: the flashing stops and the board goes quiet
    assert show(board, wire, base.command()) == plain
    quiet = board.frame_count
    board.wait_event("load", after=len(board.events), timeout=3.0)
    board.wait_event("load", after=len(board.events), timeout=3.0)  # a whole simulated second later
    assert board.frame_count == quiet


def test_the_current_cap_holds_on_every_frame_of_the_winner_animation(
    sim: tuple[SimulatedBoard, Wire],
) -> None:
    board, wire = sim
    before = board.frame_count
    assert wire.request("STATE m=win w=0 b=255 p0=100,121,FFFFFF p1=80,90,FFFFFF").ok
    frames = [board.wait_frame(after=before + i, timeout=2.0) for i in range(15)]
    currents = [f.current_ma() for f in frames]
    assert max(currents) <= CAP_MA
    assert min(currents) > 0.9 * CAP_MA, "the cap should be what limits a full-white winner track"
    # the other track's forward peg asked for full white: the cap scaled it (and everything) down
    for f in frames:
        r, g, b = f.led(LAYOUT[(1, 90)])
        assert r == g == b and 100 < r < 255
    assert len({f.rgb for f in frames}) > 3, "the winner animation should move"
    show(board, wire, FIXED_STATES[0].command())
    assert board.violations == []


def test_the_self_test_lights_every_led_in_chain_order_then_shows_the_pegs(
    sim: tuple[SimulatedBoard, Wire],
) -> None:
    board, wire = sim
    pegs = "p0=3,8,00C0FF p1=0,20,FF6000"
    before = board.frame_count
    assert wire.request(f"STATE m=test b=50 {pegs}").ok
    seen = []
    for i in range(LED_COUNT + 1):
        f = board.wait_frame(after=before + i, timeout=2.0)
        seen.append(f.lit())
    for index in range(LED_COUNT):
        assert seen[index] == {index: (50, 50, 50)}, index
    after = PegState((Track(3, 8, "00C0FF"), Track(0, 20, "FF6000")), brightness=50)
    expected = {i: rgb for i, rgb in enumerate(expected_leds(after)) if rgb != (0, 0, 0)}
    assert seen[LED_COUNT] == expected
    assert wire.request("GET").words[1] == "m=game"


def test_a_state_is_answered_only_after_its_frame_is_latched(sim: tuple[SimulatedBoard, Wire]) -> None:
    board, wire = sim
    for state in FIXED_STATES:
        marker, before = len(board.events), board.frame_count
        assert wire.request(state.command()).ok
        latched = board.wait_frame(after=before)
        answer = board.wait_event("reply", after=marker)
        # the last bit left at latched.sim_us - 50; newer WS2812B need 280 us of low to latch
        assert float(str(answer["us"])) - (latched.sim_us - 50) >= 280


def test_every_frame_meets_the_ws2812b_timing_and_the_cap(sim: tuple[SimulatedBoard, Wire]) -> None:
    board, _wire = sim
    assert board.violations == []
    assert board.frames, "no frame was seen"
    for f in board.frames:
        assert f.bits == 24 * LED_COUNT
        assert frame_current_ma(f.rgb) <= CAP_MA


def test_the_board_starts_with_a_ready_banner_and_a_gentle_idle_pattern(built: None) -> None:
    with SimulatedBoard(boot_ms=100) as board:
        port = open_port(board)
        try:
            wire = Wire(port)
            banner = wire.read_line(timeout=3.0)
            assert banner is not None
            reply = parse_reply(banner)
            assert (reply.seq, reply.words) == ("00", ("READY", "proto=1", f"fw={FIRMWARE_VERSION}"))
            frames = [board.wait_frame(after=i, timeout=2.0) for i in range(6)]
            assert len({f.rgb for f in frames}) == 6, "the idle pattern should move"
            for f in frames:
                lit = f.lit()
                assert 1 <= len(lit) <= 8
                assert max(max(rgb) for rgb in lit.values()) <= 64 // 2 + 1
            assert wire.request("GET").words[1] == "m=idle"
        finally:
            port.close()


def test_framing_limits_carriage_returns_and_restarts(sim: tuple[SimulatedBoard, Wire]) -> None:
    _board, wire = sim
    # exactly 120 bytes from '@' to '\n' is read whole (an unknown command, so NAK unknown)
    longest = frame(0x51, "XYZ " + "a" * 108)
    assert len(longest) == 120
    wire.port.write(longest)
    assert wire.reply_to(0x51).words == ("NAK", "unknown")
    one_more = frame(0x52, "XYZ " + "a" * 109)
    wire.port.write(one_more)
    assert wire.reply_to(0x52).words == ("NAK", "overflow")
    # '\r' is ignored anywhere; an '@' inside a frame drops what came before it
    wire.port.write(frame(0x53, "PING").replace(b"\n", b"\r\n").replace(b"PI", b"P\rI"))
    assert wire.reply_to(0x53).ok
    wire.port.write(b"@54 STA" + frame(0x55, "PING"))
    assert wire.reply_to(0x55).ok


def test_the_firmware_sleeps_when_it_has_nothing_to_do(sim: tuple[SimulatedBoard, Wire]) -> None:
    board, wire = sim
    show(board, wire, FIXED_STATES[2].command())
    marker = len(board.events)
    board.wait_event("load", after=marker, timeout=3.0)
    quiet = board.wait_event("load", after=len(board.events), timeout=3.0)  # a whole second static
    assert float(str(quiet["awake_pct"])) < 2.0
    assert wire.request("GET").words[1:3] == ("m=game", "b=64"), "the board restarted on its own"
    assert wire.request("STATE").ok  # idle: the pattern moves, so the chip works more
    board.wait_event("load", after=len(board.events), timeout=3.0)
    busy = board.wait_event("load", after=len(board.events), timeout=3.0)
    assert 5.0 < float(str(busy["awake_pct"])) < 40.0


def test_the_frame_is_reported_by_the_time_its_reply_is_read(sim: tuple[SimulatedBoard, Wire]) -> None:
    """What a caller of the link relies on: once ``show`` returns, ``latest_frame`` is the new frame."""
    board, wire = sim
    rng = random.Random(99)
    for _ in range(20):
        state = random_state(rng)
        assert wire.request(state.command()).ok
        latest = board.latest_frame  # no waiting
        assert latest is not None and list(latest.leds) == expected_leds(state)
