"""The virtual board: what it lights, how it draws that, and that it answers as the firmware does."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from dataclasses import replace

import pytest
import serial
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.board.layout import Layout
from companion.board.protocol import FIRMWARE_VERSION, Frame, FrameDecoder, NakReason
from companion.board.state import DARK, BoardState, Colour, Mode, Pegs, Tentative
from companion.board.virtual import (
    BLINK_PERIOD_S,
    QUESTION_PERIOD_S,
    TEST_STEP_S,
    VirtualBoard,
    cap_current,
    current_ma,
    draw,
    render_svg,
    render_text,
)

LAYOUT = Layout.load()
SVG = "{http://www.w3.org/2000/svg}"


def _lit_holes(state: BoardState, phase_s: float = 0.0) -> dict[tuple[int, int], Colour]:
    leds = draw(state, LAYOUT, phase_s=phase_s)
    return {(h.track, h.hole): leds[h.led] for h in LAYOUT.holes if leds[h.led] != DARK}


# --- what is lit -------------------------------------------------------------------------------------


def test_game_lights_the_four_pegs_the_rear_ones_at_a_quarter() -> None:
    state = BoardState.playing((37, 45), (80, 88), brightness=100)
    lit = _lit_holes(state)
    assert set(lit) == {(0, 37), (0, 45), (1, 80), (1, 88)}
    # A channel c at level k is round(c * k / 255); forward pegs at k = b, rear pegs at (b + 3) // 4.
    assert lit[0, 45] == Colour(0, round(0xC0 * 100 / 255), round(0xFF * 100 / 255)) == Colour(0, 75, 100)
    assert lit[0, 37] == Colour(0, round(0xC0 * 25 / 255), round(0xFF * 25 / 255)) == Colour(0, 19, 25)
    assert lit[1, 88] == Colour(100, 38, 0)
    assert lit[1, 80] == Colour(25, 9, 0)


def test_a_rear_peg_in_the_forward_pegs_hole_is_not_drawn_twice() -> None:
    assert _lit_holes(BoardState.playing((9, 9), (0, 0))) == {(0, 9): Colour(0, 48, 64)}


def test_score_zero_lights_nothing_and_121_lights_the_game_hole() -> None:
    assert _lit_holes(BoardState.playing((0, 0), (0, 0))) == {}
    assert set(_lit_holes(BoardState.playing((0, 7), (115, 121)))) == {(0, 7), (1, 115), (1, 121)}


def test_the_tentative_peg_blinks_at_two_hertz() -> None:
    state = BoardState.playing((10, 20), (0, 0), tentative=Tentative(0, 26))
    on = _lit_holes(state, phase_s=0.0)
    off = _lit_holes(state, phase_s=BLINK_PERIOD_S * 0.75)
    assert set(on) == {(0, 10), (0, 20), (0, 26)}
    assert set(off) == {(0, 10), (0, 20)}
    assert set(_lit_holes(state, phase_s=BLINK_PERIOD_S * 5)) == set(on)


def test_a_question_flashes_hole_one_and_the_forward_pegs_white_once_a_second() -> None:
    state = BoardState.playing((10, 20), (0, 33), question=True, brightness=100)
    white = Colour(100, 100, 100)
    flashed = _lit_holes(state, phase_s=0.0)
    assert flashed == {
        (0, 1): white,
        (1, 1): white,
        (0, 20): white,
        (1, 33): white,
        (0, 10): Colour(0, 19, 25),  # the rear peg stays as it is
    }
    assert _lit_holes(state, phase_s=QUESTION_PERIOD_S * 0.45) == flashed
    between = _lit_holes(state, phase_s=QUESTION_PERIOD_S * 0.75)
    assert between == _lit_holes(replace(state, question=False))
    assert _lit_holes(state, phase_s=QUESTION_PERIOD_S * 7.2) == flashed


def test_a_question_shows_before_the_first_peg_and_under_a_claim() -> None:
    start = BoardState.playing((0, 0), (0, 0), question=True)
    assert set(_lit_holes(start)) == {(0, 1), (1, 1)}
    claimed = BoardState.playing((0, 0), (0, 0), tentative=Tentative(0, 1), question=True)
    assert _lit_holes(claimed)[0, 1] == Colour(0, 48, 64)  # the claim is drawn over the question


def test_a_question_is_drawn_only_in_game_mode() -> None:
    pegs = BoardState.playing((100, 112), (115, 121)).pegs
    win = BoardState(Mode.WIN, 64, pegs, None, 1)
    assert _lit_holes(replace(win, question=True)) == _lit_holes(win)
    idle = BoardState(pegs=pegs)
    assert _lit_holes(replace(idle, question=True), phase_s=0.3) == _lit_holes(idle, phase_s=0.3)
    test = BoardState(Mode.TEST, 64, pegs, question=True)
    assert len(_lit_holes(test, phase_s=TEST_STEP_S * 2.5)) == 1
    assert TEST_STEP_S * 243 < 5.0  # the self-test is over by then: the pegs again, and the question
    assert (0, 1) in _lit_holes(test, phase_s=5.2)


def test_self_test_lights_each_led_in_chain_order_then_shows_the_pegs() -> None:
    state = BoardState(Mode.TEST, 64, BoardState.playing((1, 2), (0, 0)).pegs)
    for led in (0, 1, 120, 241):
        leds = draw(state, LAYOUT, phase_s=(led + 0.5) * TEST_STEP_S)
        assert [i for i, c in enumerate(leds) if c != DARK] == [led]
    assert set(_lit_holes(state, phase_s=TEST_STEP_S * 243)) == {(0, 1), (0, 2)}


def test_win_lights_the_winners_game_hole() -> None:
    pegs = BoardState.playing((100, 112), (115, 121)).pegs
    lit = _lit_holes(BoardState(Mode.WIN, 64, pegs, None, 1))
    assert (1, 121) in lit and (0, 112) in lit
    assert all(track == 1 for track, hole in lit if hole not in (100, 112))


@settings(max_examples=50, deadline=None)
@given(st.integers(0, 255), st.integers(0, 255), st.integers(0, 255), st.integers(0, 255))
def test_the_current_cap_holds_on_any_frame(brightness: int, red: int, green: int, blue: int) -> None:
    colour = Colour(red, green, blue)
    pegs = (Pegs(0, 0, colour), Pegs(0, 0, colour))
    leds = draw(BoardState(Mode.TEST, brightness, pegs), LAYOUT, phase_s=0.0)
    assert current_ma(leds) <= 1500
    full = [colour] * 242
    capped = cap_current(full, 1500)
    assert current_ma(capped) <= 1500
    if current_ma(full) <= 1500:
        assert list(capped) == full
    else:  # scaled alike: no channel grows, the hue is kept to within rounding
        assert all(a.red <= red and a.green <= green and a.blue <= blue for a in capped)


def test_full_white_everywhere_is_capped_near_the_budget() -> None:
    capped = cap_current([Colour(255, 255, 255)] * 242, 1500)
    assert 1400 <= current_ma(capped) <= 1500


# --- how it is drawn ---------------------------------------------------------------------------------


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 121), st.integers(0, 121), st.integers(0, 121), st.integers(0, 121))
def test_text_shows_exactly_the_lit_holes(a: int, b: int, c: int, d: int) -> None:
    state = BoardState.playing((min(a, b), max(a, b)), (min(c, d), max(c, d)))
    leds = draw(state, LAYOUT)
    text = render_text(LAYOUT, leds)
    lit = {hole for hole, _ in _lit_holes(state).items()}
    assert text.count("#") + text.count("+") == len(lit)
    assert text.count("+") == (0 < min(a, b) != max(a, b)) + (0 < min(c, d) != max(c, d))  # rear pegs
    assert text.count(".") == 242 - len(lit)
    assert text.count("o") == 4


def test_text_puts_each_lit_hole_in_its_row_and_street() -> None:
    text = render_text(LAYOUT, draw(BoardState.playing((0, 1), (0, 60)), LAYOUT))
    rows = {line.split("  ")[0]: line for line in text.splitlines()}
    outside0 = rows["0: 1-60"]
    outside1 = rows["1: 1-60"]
    # Hole 1 is the first hole after the label (the players' edge is on the left), hole 60 the last.
    assert re.search(r"0: 1-60\s+#\.\.\.\.", outside0)
    assert outside1.rstrip().endswith("....#")
    assert len(re.findall(r"[.#]{5}", outside0)) == 12  # twelve streets of five


def test_text_in_colour_uses_the_led_colours() -> None:
    text = render_text(LAYOUT, draw(BoardState.playing((0, 5), (0, 0)), LAYOUT), colour=True)
    # The blue of track 0 (00C0FF), brought back to full brightness for the screen.
    assert re.search(r"\x1b\[38;2;0;19[12];255m#\x1b\[0m", text)
    assert text.count("\x1b[38;2;") == 1


def test_svg_marks_exactly_the_lit_holes_with_their_colours() -> None:
    state = BoardState.playing((37, 45), (80, 121), tentative=Tentative(1, 90))
    leds = draw(state, LAYOUT)
    root = ET.fromstring(render_svg(LAYOUT, leds))
    circles = root.findall(f"{SVG}circle")
    lit = {
        (int(c.get("data-track", "")), int(c.get("data-hole", ""))): c
        for c in circles
        if "lit" in c.get("class", "")
    }
    assert set(lit) == {(0, 37), (0, 45), (1, 80), (1, 121), (1, 90)}
    for (track, hole), circle in lit.items():
        assert circle.get("data-rgb") == leds[LAYOUT.led(track, hole)].hex
        assert int(circle.get("data-led", "")) == LAYOUT.led(track, hole)
    assert len([c for c in circles if c.get("class") == "hole"]) == 242 - 5
    assert len([c for c in circles if c.get("class") == "start"]) == 4
    assert root.get("viewBox") == "0 0 90 500"


# --- the protocol, as the board answers it -----------------------------------------------------------


def _ask(board: VirtualBoard, frame: Frame | bytes) -> Frame:
    data = frame.encode() if isinstance(frame, Frame) else frame
    (reply,) = FrameDecoder().feed(board.receive(data))
    assert isinstance(reply, Frame)
    return reply


def test_hello_reports_the_geometry_and_the_cap() -> None:
    reply = _ask(VirtualBoard(), Frame(7, "HELLO"))
    assert reply.seq == 7 and reply.is_ok
    assert reply.options() == {
        "proto": "1",
        "fw": FIRMWARE_VERSION,
        "tracks": "2",
        "holes": "121",
        "leds": "242",
        "cap": "1500",
    }


def test_state_is_latched_and_read_back_by_get() -> None:
    board = VirtualBoard()
    state = BoardState.playing((37, 45), (80, 88), tentative=Tentative(0, 50))
    assert _ask(board, Frame(1, "STATE", state.to_command())) == Frame(1, "OK")
    assert board.state == state and board.latched == 1
    reply = _ask(board, Frame(2, "GET"))
    assert reply.args == state.to_command(full=True)
    assert _ask(board, Frame(3, "STATE", state.to_command())) == Frame(3, "OK")  # idempotent
    assert board.state == state and board.latched == 2


@pytest.mark.parametrize(
    ("request_", "reason"),
    [
        (Frame(4, "STATE", ("p0=50,45,00C0FF",)), NakReason.RANGE),
        (Frame(4, "STATE", ("x=1",)), NakReason.SYNTAX),
        (Frame(4, "STATE", ("m=game", "m=game")), NakReason.SYNTAX),
        (Frame(4, "PING", ("now",)), NakReason.SYNTAX),
        (Frame(4, "BLINK"), NakReason.UNKNOWN),
        (b"@04 PING*00\n", NakReason.CRC),
        (b"@04 STATE " + b"x" * 200 + b"\n", NakReason.OVERFLOW),
    ],
)
def test_refusals(request_: Frame | bytes, reason: NakReason) -> None:
    board = VirtualBoard()
    before = BoardState.playing((1, 2), (3, 4))
    board.receive(Frame(1, "STATE", before.to_command()).encode())
    assert _ask(board, request_) == Frame(4, "NAK", (reason.value,))
    assert board.state == before  # a refused frame changes nothing


def test_a_request_numbered_with_question_marks_is_refused() -> None:
    assert _ask(VirtualBoard(), Frame(None, "PING")) == Frame(None, "NAK", ("syntax",))


def test_a_finished_self_test_reads_back_as_game() -> None:
    clock = [100.0]
    board = VirtualBoard(clock=lambda: clock[0])
    board.receive(Frame(1, "STATE", ("m=test", "p0=1,2,00C0FF")).encode())
    assert board.state.mode is Mode.TEST
    clock[0] += TEST_STEP_S * 242 + 0.01
    assert board.state.mode is Mode.GAME
    assert _ask(board, Frame(2, "GET")).options()["m"] == "game"


# --- as a pyserial port ------------------------------------------------------------------------------


def test_virtual_url_opens_resets_and_announces_itself() -> None:
    VirtualBoard.forget("announce")
    with serial.serial_for_url("virtual://announce", timeout=0.5) as port:
        assert port.readline() == b"@00 READY proto=1 fw=1.1.0*76\n"
        port.write(Frame(1, "PING").encode())
        assert port.readline() == b"@01 OK*C4\n"
    board = VirtualBoard.named("announce")
    assert board.boots == 1


def test_the_bootloader_swallows_what_is_sent_too_early() -> None:
    VirtualBoard.forget("boot")
    with serial.serial_for_url("virtual://boot?boot=0.2", timeout=0.05) as port:
        port.write(Frame(1, "PING").encode())
        assert port.read(100) == b""
        port.timeout = 10.0  # the banner comes once the boot is over: wait for it, however slow the machine
        assert port.readline().startswith(b"@00 READY")
        port.write(Frame(2, "PING").encode())
        assert port.readline().startswith(b"@02 OK")


def test_an_unplugged_board_fails_the_open_port_and_cannot_be_opened() -> None:
    VirtualBoard.forget("cable")
    port = serial.serial_for_url("virtual://cable", timeout=0.05)
    board = VirtualBoard.named("cable")
    board.unplug()
    with pytest.raises(serial.SerialException):
        port.write(b"@01 PING*C4\n")
    port.close()
    with pytest.raises(serial.SerialException, match="unplugged"):
        serial.serial_for_url("virtual://cable")
    board.plug()
    with serial.serial_for_url("virtual://cable", timeout=0.5) as again:
        assert again.readline().startswith(b"@00 READY")


def test_a_named_board_is_open_once_and_a_plain_one_is_private() -> None:
    VirtualBoard.forget("shared")
    with serial.serial_for_url("virtual://shared") as first:
        with pytest.raises(serial.SerialException, match="already open"):
            serial.serial_for_url("virtual://shared")
        assert first.board is VirtualBoard.named("shared")
    with serial.serial_for_url("virtual://shared") as again:  # free once closed
        assert again.board is VirtualBoard.named("shared")
    with serial.serial_for_url("virtual://") as one, serial.serial_for_url("virtual://") as two:
        assert one.board is not two.board


def test_unknown_options_are_refused() -> None:
    with pytest.raises(serial.SerialException, match="unknown option"):
        serial.serial_for_url("virtual://x?speed=9")


# --- fuzzing the board's side ------------------------------------------------------------------------

requests = st.sampled_from(
    [
        Frame(1, "HELLO").encode(),
        Frame(2, "STATE", BoardState.playing((37, 45), (80, 88)).to_command()).encode(),
        Frame(3, "GET").encode(),
        Frame(4, "PING").encode(),
    ]
)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.one_of(requests, st.binary(max_size=40)), max_size=12), st.data())
def test_any_byte_stream_gets_only_well_formed_replies(chunks: list[bytes], data: st.DataObject) -> None:
    board = VirtualBoard()
    stream = bytearray(b"".join(chunks))
    for _ in range(data.draw(st.integers(0, 4), label="mutations")):
        if stream:
            stream[data.draw(st.integers(0, len(stream) - 1))] = data.draw(st.integers(0, 255))
    replies = FrameDecoder().feed(board.receive(bytes(stream)))
    assert all(isinstance(reply, Frame) and reply.command in ("OK", "NAK") for reply in replies)
    assert len(replies) == len(board.received)  # one answer for every frame, none for the noise between
    expected = BoardState()
    for request, reply in zip(board.received, replies, strict=True):
        assert reply.seq == request.seq
        if isinstance(request, Frame) and request.command == "STATE" and reply.is_ok:
            expected = BoardState.from_command(request.args)
    assert board.state == expected  # the board shows the last state it acknowledged, and only that
