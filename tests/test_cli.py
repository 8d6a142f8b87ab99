"""The ``crib`` command as a whole: every part's sub-commands are there, and it behaves as a shell tool."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from companion.cli import build_parser


def test_every_part_adds_its_commands() -> None:
    help_text = build_parser().format_help()
    for command in ("score", "peg", "replay", "simulate", "detect", "board", "play"):
        assert f"    {command} " in help_text


def test_a_reader_that_goes_away_ends_the_command_quietly() -> None:
    with subprocess.Popen(
        [sys.executable, "-m", "companion", "simulate", "--seed", "3"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        bufsize=0,
    ) as writer:
        assert writer.stdout is not None and writer.stderr is not None
        first = writer.stdout.read(10)
        writer.stdout.close()  # like `crib simulate | head -c 10`
        status = writer.wait(timeout=60)
        said = writer.stderr.read()
    assert first.startswith(b"#")
    assert said == b""
    assert status in (0, 141)


def crib_play(*args: str) -> subprocess.CompletedProcess[str]:
    """``crib play`` with no camera and no board: a replay through the table, stopped when it ends."""
    return subprocess.run(
        [sys.executable, "-m", "companion", "play", "--once", "--no-serve", "--pace", "0", "--events", *args],
        capture_output=True,
        text=True,
        timeout=180,
        check=False,
    )


def test_crib_play_variant_four_player_plays_partners_named_on_the_command_line() -> None:
    from companion.app.simulate import DEMO_SEED, script_game

    expected = script_game(DEMO_SEED, variant="four-player")  # what is replayed: no recording of it ships
    done = crib_play("--variant", "four-player", "--players", "Ann,Bob,Cal,Dee", "--quiet")
    assert done.returncode == 0, done.stderr
    assert "a scripted four-player game" in done.stdout
    first, second = expected.deal_scores[0]
    assert "deal  1 (" in done.stdout and f"Ann & Cal +{first} = {first}, Bob & Dee +{second}" in done.stdout
    winners = ("Ann & Cal", "Bob & Dee")[expected.winner]
    win, lose = expected.final[expected.winner], expected.final[1 - expected.winner]
    assert done.stdout.rstrip().splitlines()[-1].startswith(f"{winners} win {win} to {lose}")


def test_crib_play_variant_five_card_is_a_game_to_61() -> None:
    done = crib_play("--variant", "five-card", "--players", "Ann", "Bob", "--json")
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout.splitlines()[-1])
    assert max(result["scores"]) == 61


def test_crib_play_variant_without_names_numbers_the_four_seats(tmp_path: Path) -> None:
    settings = tmp_path / "two.toml"
    settings.write_text('[table]\nplayers = ["Ann", "Bob"]\n', encoding="utf-8")  # two names: not four
    done = crib_play("--config", str(settings), "--variant", "four-player", "--quiet")
    assert done.returncode == 0, done.stderr
    assert "Player 1 & Player 3" in done.stdout and "Player 2 & Player 4" in done.stdout


@pytest.mark.parametrize(
    ("args", "sentence"),
    [
        (("--variant", "three-player"), "needs a track for each of three players"),
        (("--variant", "seven-card"), "variant 'seven-card' is not one a two-track board can show"),
        (("--variant", "four-player", "--players", "Ann", "Bob"), "needs the names of four players"),
    ],
)
def test_crib_play_refuses_a_variant_the_table_cannot_play_in_one_sentence(
    args: tuple[str, ...], sentence: str
) -> None:
    done = crib_play(*args)
    assert done.returncode == 2
    assert sentence in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1 and "Traceback" not in done.stderr


def test_crib_play_variant_must_match_a_recording_given(tmp_path: Path) -> None:
    from companion.app.simulate import DEMO_PATH

    done = crib_play("--variant", "four-player", "--recording", str(DEMO_PATH))
    assert done.returncode == 2
    assert done.stderr.strip() == f"crib: {DEMO_PATH} is a game of six-card, not four-player"
