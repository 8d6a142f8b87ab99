"""``crib board show|test|demo`` at the terminal, on the virtual board by default."""

from __future__ import annotations

import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from companion.board.link import BoardLink
from companion.board.state import BoardState
from companion.cli import main


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def test_show_draws_the_pegs(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    svg = tmp_path / "board.svg"
    status, out, err = _run(capsys, "board", "show", "0", "37", "45", "1", "80", "88", "--svg", str(svg))
    assert (status, err) == (0, "")
    assert out.count("#") == 2 and out.count("+") == 2  # each forward peg, and its rear peg dimmer
    rows = {line.split("  ")[0]: line for line in out.splitlines() if ":" in line[:3]}
    assert rows["0: 1-60"].count("#") == rows["0: 1-60"].count("+") == 1  # 37 and 45 up the outside
    assert rows["1: 61-120"].count("#") == rows["1: 61-120"].count("+") == 1  # 80 and 88 down the inside
    assert "track 0: rear 37, forward 45; track 1: rear 80, forward 88" in out
    lit = [c for c in ET.parse(svg).getroot().iter() if "lit" in c.get("class", "")]
    assert sorted((c.get("data-track"), c.get("data-hole")) for c in lit) == [
        ("0", "37"),
        ("0", "45"),
        ("1", "80"),
        ("1", "88"),
    ]


def test_show_one_track_and_a_claim(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = _run(capsys, "board", "show", "1", "0", "121", "--tentative", "0,5")
    assert status == 0
    assert out.count("#") == 2  # the game hole of track 1, and the claim (drawn lit)
    assert "claim on track 0 at 5" in out


def test_show_a_waiting_question(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = _run(capsys, "board", "show", "0", "3", "9", "--question")
    assert status == 0
    # hole 1 of both tracks and the forward peg drawn white, the rear peg as it is (dimmer)
    assert out.count("#") == 3 and out.count("+") == 1
    assert "a question is waiting" in out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (("0", "37"), "TRACK REAR FORWARD"),
        (("0", "50", "45"), "ahead of its forward peg"),
        (("2", "1", "2"), "track 2 does not exist"),
        (("0", "1", "122"), "not a hole 0..121"),
        (("0", "x", "2"), "'x' is not a whole number"),
        (("0", "1", "2", "0", "3", "4"), "track 0 is given twice"),
        (("0", "1", "2", "--tentative", "0"), "not TRACK,HOLE"),
        (("0", "1", "2", "--tentative", "0,0"), "tentative hole 0"),
        (("0", "1", "2", "--brightness", "300"), "brightness 300"),
    ],
)
def test_bad_input_is_one_sentence_and_exit_2(
    capsys: pytest.CaptureFixture[str], argv: tuple[str, ...], message: str
) -> None:
    status, out, err = _run(capsys, "board", "show", *argv)
    assert status == 2
    assert err.count("\n") == 1 and err.startswith("crib: ") and message in err
    assert out == ""


def test_a_port_that_cannot_be_opened_is_one_sentence_and_exit_1() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "companion", "board", "show", "0", "1", "2", "--port", "/dev/ttyUSB-none"],
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert result.returncode == 1
    assert result.stderr == "crib: cannot open the board at /dev/ttyUSB-none: No such file or directory\n"


def test_test_checks_the_link_and_runs_the_self_test(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = _run(capsys, "board", "test")
    assert (status, err) == (0, "")
    assert "firmware 1.1.0, protocol 1, 2 tracks of 121 holes, 242 LEDs, current cap 1500 mA" in out
    assert "self-test: done in" in out
    assert "read-back: the board reports exactly the state sent" in out


def test_demo_plays_to_121(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    svg = tmp_path / "win.svg"
    status, out, _ = _run(capsys, "board", "demo", "--delay", "0", "--seed", "7", "--svg", str(svg))
    assert status == 0
    moves = [line for line in out.splitlines() if line.startswith("move")]
    assert len(moves) > 10
    assert moves[-1].endswith("-> 121")
    assert "wins, 121 to" in out
    lit = [c for c in ET.parse(svg).getroot().iter() if "lit" in c.get("class", "")]
    assert any(c.get("data-hole") == "121" for c in lit)


def test_serve_puts_the_virtual_board_on_a_pseudo_terminal() -> None:
    server = subprocess.Popen(
        [sys.executable, "-m", "companion", "board", "serve", "--seconds", "20"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert server.stdout is not None
        first = server.stdout.readline()
        assert first.startswith("virtual board on /dev/pts/"), first
        path = first.split()[3]
        with BoardLink(path, heartbeat=None) as link:
            link.show(BoardState.playing((3, 5), (0, 0)))
            assert link.read_state() == BoardState.playing((3, 5), (0, 0))
        lines = [server.stdout.readline().strip() for _ in range(6)]
    finally:
        server.terminate()
        server.communicate(timeout=10)
    expected = [
        ("> @", " HELLO*"),
        ("< @", " OK proto=1 fw=1.1.0 tracks=2 holes=121 leds=242 cap=1500*"),
        ("> @", " STATE m=game p0=3,5,00C0FF*"),
        ("< @", " OK*"),
        ("> @", " GET*"),
        ("< @", " OK m=game b=64 p0=3,5,00C0FF p1=0,0,FF6000 t=- w=- q=-*"),
    ]
    for line, (start, middle) in zip(lines, expected, strict=True):
        assert line.startswith(start) and middle in line, line
