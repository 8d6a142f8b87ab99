"""What ``crib play`` says on the terminal: each score as spoken, the questions, a progress line while
pictures are read, and the end in plain words."""

from __future__ import annotations

import io

import pytest

from companion.app.terminal import Caller, Progress, ending, painted, score_lines
from companion.cli import main
from companion.events import CardLanded

from .helpers import feed, lay, table


class _Tty(io.StringIO):
    def isatty(self) -> bool:
        return True


def _in_play() -> object:
    played = table()
    feed(played, lay("player0 2c", "player1 Kd"))  # Ann cuts low: she deals, Bob plays first
    feed(played, lay("starter 5c"))
    return played


def test_each_score_is_printed_as_spoken_with_the_players_name_and_where_the_peg_stands() -> None:
    played = _in_play()
    lines: list[str] = []
    caller = Caller(lines.append)
    caller(played, None)
    feed(played, lay("player1 7d", "player0 8h"))  # Ann makes fifteen
    caller(played, None)
    assert lines == ["  Ann: fifteen two (2)"]
    feed(played, lay("player1 8s"))  # Bob: twenty-three and a pair
    caller(played, None)
    assert lines[-1] == "  Bob: twenty-three, a pair for two (2)"


def test_quiet_prints_no_scores_and_no_questions() -> None:
    played = _in_play()
    lines: list[str] = []
    caller = Caller(lines.append, quiet=True)
    feed(played, lay("player1 7d", "player0 8h"))
    played.handle(CardLanded("unknown", "player1", likely=("9s",)))
    caller(played, None)
    assert lines == [] and caller.asked == 1


def test_a_question_is_printed_once_with_the_likely_cards_first() -> None:
    played = _in_play()
    lines: list[str] = []
    caller = Caller(lines.append)
    played.handle(CardLanded("unknown", "player1", likely=("9s", "6s")))
    caller(played, None)
    caller(played, None)
    assert len(lines) == 1
    assert lines[0].startswith("  ? The camera could not read the card in front of Bob")
    assert "likely: 9s, 6s," in lines[0]


def test_an_undo_says_no_score_again() -> None:
    played = _in_play()
    lines: list[str] = []
    caller = Caller(lines.append)
    feed(played, lay("player1 7d", "player0 8h"))
    caller(played, None)
    from companion.events import Undo

    played.handle(Undo())
    caller(played, None)
    feed(played, lay("player0 8h"))
    caller(played, None)
    assert lines == ["  Ann: fifteen two (2)", "  Ann: fifteen two (2)"]


def test_names_are_in_their_tracks_colour_only_on_a_colour_terminal() -> None:
    assert painted("Ann", 0, False) == "Ann"
    assert painted("Ann", 0, True).startswith("\x1b[") and "Ann" in painted("Ann", 0, True)
    assert painted("Ann", 0, True) != painted("Ann", 1, True)
    played = _in_play()
    feed(played, lay("player1 7d", "player0 8h"))
    lines, _ = score_lines(played, -1, colour=True)
    assert lines == [f"  {painted('Ann', 0, True)}: fifteen two (2)"]


def test_progress_is_a_line_every_ten_seconds_in_a_log_and_redrawn_in_place_on_a_terminal() -> None:
    now = [0.0]
    log = io.StringIO()
    progress = Progress(log, what=lambda: "Bob to lay", clock=lambda: now[0])
    for frames in range(1, 700):
        now[0] = frames / 30.0  # 30 pictures a second
        progress(frames)
    lines = log.getvalue().splitlines()
    assert len(lines) == 2  # at 10 s and 20 s
    assert lines[0] == "  ... 300 pictures read; Bob to lay"
    tty = _Tty()
    progress = Progress(tty, clock=lambda: now[0])
    now[0] = 100.0
    progress(42)
    assert tty.getvalue() == "\r\x1b[2K  ... 42 pictures read"
    progress.clear()
    assert tty.getvalue().endswith("\r\x1b[2K")


def test_the_end_is_said_in_plain_words() -> None:
    played = _in_play()
    text = ending(played, 1103, 0, replay=True)
    assert text == (
        "The game is not finished: Ann 0, Bob 0. The camera watched 1103 pictures of the table; "
        "no card needed asking about."
    )
    assert ending(played, 20, 1, replay=True).endswith(
        "one card needed asking about (answered as the players would have)."
    )


def test_crib_play_says_every_score_and_quiet_only_the_totals(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["play", "--events", "--once", "--no-serve", "--pace", "0", "--players", "Ann", "Bob"]
    assert main(args) == 0
    out = capsys.readouterr().out.splitlines()
    assert "  Ann: two for his heels (2)" in out  # the demo's first score, as spoken
    assert out.index("  Ann: two for his heels (2)") < out.index(
        "deal  1 (Ann deals): Ann +8 = 8, Bob +3 = 3"
    )
    assert out[-1] == "Ann wins 121 to 81 -- a skunk"
    assert main([*args, "--quiet"]) == 0
    quiet = capsys.readouterr().out.splitlines()
    assert [line for line in quiet if line.startswith("  ")] == []
    assert sum(line.startswith("deal ") for line in quiet) == 10 and quiet[-1] == out[-1]
