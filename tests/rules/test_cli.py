"""``crib score`` and ``crib peg`` as a user runs them: real processes, exit codes and output."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest


def crib(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "companion", *args], capture_output=True, text=True, timeout=60, check=False
    )


def test_score_prints_items_the_spoken_count_and_the_total() -> None:
    done = crib("score", "5h", "5d", "5s", "jc", "5c")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == "hand 5h 5d 5s Jc, starter 5c"
    assert lines[-1] == "total 29"
    assert "one for his nobs is twenty-nine" in done.stdout
    items = [line.split() for line in lines[1:-2]]
    assert [item[0] for item in items].count("fifteen") == 8
    assert sum(int(item[-1]) for item in items) == 29


def test_score_json_for_a_crib() -> None:
    done = crib("score", "2h", "4h", "6h", "8h", "Kc", "--crib", "--json")
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert data["crib"] is True
    assert data["total"] == 0
    assert data["items"] == []


def test_peg_says_what_each_card_scores() -> None:
    done = crib("peg", "4h", "2d", "3s", "5c", "6h", "--json")
    assert done.returncode == 0, done.stderr
    records = [json.loads(line) for line in done.stdout.splitlines() if line.startswith("{")]
    assert [r["total"] for r in records] == [0, 0, 3, 4, 6]
    assert [r["count"] for r in records] == [4, 6, 9, 14, 20]


def test_peg_go_leaves_the_opponent_to_continue_and_thirty_one_pegs_two() -> None:
    """The primary text: "A player who cannot play without exceeding 31 does not play a card but says
    Go, leaving his opponent to continue if possible ... Bringing the total to exactly 31 pegs 2"."""
    done = crib("peg", "10h", "Jc", "9h", "go", "2c")
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [
        "player 1 lays 10h: ten",
        "player 2 lays Jc: twenty",
        "player 1 lays 9h: twenty-nine, a run of three for three",
        "player 2 says go",
        "player 1 lays 2c: thirty-one for two",
        "points player 1: 5, player 2: 0",
    ]


def test_peg_when_neither_can_lay_the_last_pegs_one_for_the_go_and_a_new_round_starts_from_zero() -> None:
    """The primary text: "if ... neither player can lay a card without going over 31, then the last
    player to lay a card pegs one for the go", and "a new round of play [is] started from zero" in which
    "all combinations are started afresh": the 5d pairs nothing with the 5s of the round before."""
    done = crib("peg", "Kh", "Qd", "5s", "GO", "go", "5d", "8c")
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [
        "player 1 lays Kh: ten",
        "player 2 lays Qd: twenty",
        "player 1 lays 5s: twenty-five",
        "player 2 says go",
        "player 1 says go: one for the go to player 1, and the count starts again at 0",
        "player 2 lays 5d: five",
        "player 1 lays 8c: thirteen, one for last",
        "points player 1: 2, player 2: 0",
    ]
    records = [
        json.loads(line)
        for line in crib("peg", "Kh", "Qd", "5s", "go", "go", "5d", "--json").stdout.splitlines()[:-1]
    ]
    assert [(r["player"], r["card"], r["count"], r["total"]) for r in records] == [
        (0, "Kh", 10, 0),
        (1, "Qd", 20, 0),
        (0, "5s", 25, 0),
        (1, None, 25, 0),
        (0, None, 25, 1),
        (1, "5d", 5, 1),
    ]
    assert records[4]["scorer"] == 0 and records[4]["restart"] is True


def test_peg_three_players_pass_over_a_player_who_says_go() -> None:
    done = crib("peg", "--players", "3", "10h", "Jc", "9h", "go", "2c")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[3:5] == ["player 1 says go", "player 2 lays 2c: thirty-one for two"]
    assert lines[-1] == "points player 1: 0, player 2: 2, player 3: 3"


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (("score", "5h", "5x", "5s", "Jc", "5c"), "'5x'"),
        (("score", "5h", "5h", "5s", "Jc", "5c"), "5h is given twice"),
        (("score", "5h", "5d"), "not 2"),
        (("peg", "Kh", "Qd", "5s", "Jc"), "past 31: write go before it if player 2 could not lay"),
        (("peg", "go", "5h"), "nobody says go at the start of a count"),
        (("peg", "5h", "go", "5h"), "5h is given twice"),
    ],
)
def test_bad_input_is_one_sentence_on_stderr_with_exit_code_2(args: tuple[str, ...], needle: str) -> None:
    done = crib(*args)
    assert done.returncode == 2
    assert needle in done.stderr
    assert "Traceback" not in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1


def test_scoring_commands_do_not_load_heavy_libraries() -> None:
    code = (
        "import sys; from companion.cli import main; main(['score', '5h', '5d', '5s', 'Jc', '5c']); "
        "print(sorted(m for m in ('cv2', 'gpiozero', 'fastapi', 'uvicorn', 'numpy') if m in sys.modules))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.splitlines()[-1] == "[]"


def test_rules_import_no_io_libraries() -> None:
    code = (
        "import sys, companion.rules; "
        "print(sorted(m for m in ('cv2', 'serial', 'gpiozero', 'fastapi', 'uvicorn', 'numpy', 'sqlite3', "
        "'socket') if m in sys.modules))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"


def test_an_empty_card_argument_is_an_error_not_a_shorter_hand() -> None:
    done = crib("score", "5h", "5d", "", "Jc", "5c")
    assert done.returncode == 2
    assert done.stdout == ""
    assert (
        done.stderr.strip()
        == "crib: an empty argument is not a card: give each card as its rank and suit, e.g. 5h"
    )


def replay_text(data: bytes) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "companion", "replay", "-"],
        input=data.decode("utf-8"),
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def test_a_game_file_saved_with_a_utf8_byte_order_mark_is_read() -> None:
    done = replay_text("\ufeffmatch 1\ncut 0 Ac\ncut 1 Kc\nscore 0 0\n".encode())
    assert done.returncode == 0, done.stderr
    assert "player 1 cut lowest and deals first" in done.stdout  # the file's player 0, counted from 1


@pytest.mark.parametrize(
    ("text", "sentence"),
    [
        ("cut \u00b2 Ac\n", "crib: <stdin> line 1: '\u00b2' is not a player number"),
        (
            "skunk 200 300\n",
            "crib: <stdin> line 1: the double-skunk line must be from 0 to the skunk line, 200, not 300",
        ),
        (
            "target " + "1" + "0" * 29 + "\n",
            "crib: <stdin> line 1: the target must be at most 1000 points, not 1" + "0" * 29,
        ),
    ],
)
def test_settings_and_numbers_out_of_reason_are_refused_in_one_sentence(text: str, sentence: str) -> None:
    done = replay_text(text.encode())
    assert done.returncode == 2
    assert done.stderr.strip() == sentence
    assert "Traceback" not in done.stderr
