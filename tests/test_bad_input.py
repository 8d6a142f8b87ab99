"""Bad input is one sentence that names the file and quotes at most about 80 characters of what was wrong:
a megabyte line, a binary file, a folder given for a file, a name too long for the scoreboard."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.app.config import MAX_NAME, TableConfig
from companion.cli import QUOTE_LIMIT, clipped, main


def crib(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str]:
    status = main(list(argv))
    err = capsys.readouterr().err
    assert len(err.splitlines()) == 1 and "Traceback" not in err, err[:500]
    return status, err


def test_a_huge_line_in_a_game_file_is_quoted_short(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    game = tmp_path / "huge.txt"
    game.write_text("deal 0 " + "x" * 1_000_000 + "\n")
    status, err = crib(capsys, "replay", str(game))
    assert status == 2 and err.startswith("crib: huge.txt line 1: 'xxx")
    assert "(1000000 characters) is not a card" in err and len(err) < 4 * QUOTE_LIMIT


@pytest.mark.parametrize("command", [["replay"], ["play", "--once", "--no-serve", "--events", "--recording"]])
def test_a_binary_file_is_named(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], command: list[str]
) -> None:
    binary = tmp_path / "photo.jpg"
    binary.write_bytes(bytes(range(256)) * 4)
    status, err = crib(capsys, *command, str(binary))
    assert status == 2 and str(binary) in err


def test_a_binary_config_is_named(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    binary = tmp_path / "crib.toml"
    binary.write_bytes(b"\xff\xfe" * 100)
    status, err = crib(capsys, "play", "--once", "--no-serve", "--events", "--config", str(binary))
    assert (status, err) == (2, f"crib: {binary} is not a config file (it is not UTF-8 text)\n")


@pytest.mark.parametrize("option", [["replay"], ["play", "--once", "--no-serve", "--events", "--config"]])
def test_a_folder_given_for_a_file_is_named(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], option: list[str]
) -> None:
    status, err = crib(capsys, *option, str(tmp_path))
    assert status == 1 and str(tmp_path) in err and "folder" in err


def test_a_players_name_longer_than_the_scoreboard_shows_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    TableConfig(players=("A" * MAX_NAME, "Bob"))  # the longest name is taken
    with pytest.raises(ValueError, match="at most 40 printable characters"):
        TableConfig(players=("A" * (MAX_NAME + 1), "Bob"))
    with pytest.raises(ValueError, match="printable"):
        TableConfig(players=("Ann\x1b[2J", "Bob"))  # no terminal escapes in the logs either
    status, err = crib(capsys, "play", "--once", "--no-serve", "--events", "--players", "A" * 1_000_000, "B")
    assert status == 2 and len(err) < 2 * QUOTE_LIMIT
    config = tmp_path / "crib.toml"
    config.write_text(f'[table]\nplayers = ["{"A" * 1000}", "Bob"]\n')
    status, err = crib(capsys, "play", "--once", "--no-serve", "--events", "--config", str(config))
    assert status == 2 and err.startswith(f"crib: {config}: a player's name is at most 40")


def test_only_long_quotes_are_clipped() -> None:
    assert clipped("'5x' is not a card") == "'5x' is not a card"
    long = "y" * 200
    cut = "y" * (QUOTE_LIMIT - 3)
    assert clipped(f'"{long}" is not a card') == f'"{cut}..." (200 characters) is not a card'
    assert len(clipped("z" * 100_000)) == 4 * QUOTE_LIMIT
