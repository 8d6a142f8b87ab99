"""The ``crib`` command as a whole: every part's sub-commands are there, and it behaves as a shell tool."""

from __future__ import annotations

import subprocess
import sys

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
