"""docs/protocol.md is the protocol's specification: every frame it quotes must be what the code does."""

from __future__ import annotations

import re
from pathlib import Path

from companion.board.protocol import FrameDecoder, crc8, parse_body
from companion.board.virtual import VirtualBoard

DOC = (Path(__file__).resolve().parents[2] / "docs" / "protocol.md").read_text(encoding="utf-8")


def _session() -> list[tuple[str, str]]:
    block = DOC.split("## A session at a terminal", 1)[1].split("```\n", 2)[1]
    return [(line[0], line[2:]) for line in block.splitlines() if line[:2] in ("> ", "< ")]


def test_the_terminal_session_is_what_the_virtual_board_answers() -> None:
    board = VirtualBoard()
    lines = _session()
    assert lines[0] == ("<", board.reset().decode().strip())
    expected_replies: list[str] = []
    actual_replies: list[str] = []
    for direction, text in lines[1:]:
        if direction == ">":
            actual_replies.append(board.receive(text.encode() + b"\n").decode().strip())
        else:
            expected_replies.append(text)
    assert actual_replies == expected_replies
    assert len(expected_replies) == 8


def test_every_request_in_the_session_has_a_correct_crc_except_the_one_said_to_be_wrong() -> None:
    requests = [text for direction, text in _session() if direction == ">"]
    wrong = [text for text in requests if parse_body(text[1:].encode()).__class__.__name__ == "BadFrame"]
    assert wrong == ["@08 PING*00"]


def test_the_crc_worked_example_table() -> None:
    rows = re.findall(r"^\| `(.)`\s+\| 0x([0-9A-F]{2}) \| 0x([0-9A-F]{2})\s+\|$", DOC, flags=re.MULTILINE)
    assert "".join(char for char, _, _ in rows) == "01 PING"
    crc = 0
    for char, code, after in rows:
        assert ord(char) == int(code, 16)
        crc = crc8(char.encode(), crc)
        assert crc == int(after, 16)
    assert "`@01 PING*85`" in DOC and crc == 0x85


def test_the_check_value_and_the_noise_reply_quoted_in_the_text() -> None:
    assert "**0xF4**" in DOC and crc8(b"123456789") == 0xF4
    decoder = FrameDecoder()
    (reply,) = VirtualBoard().receive(b"@x*00\n").decode().splitlines()
    assert f"`{reply}`" in DOC
    (frame,) = decoder.feed(reply.encode() + b"\n")
    assert frame.__class__.__name__ == "Frame"


def test_the_python_example_runs() -> None:
    (code,) = re.findall(r"```python\n(.*?)```", DOC, flags=re.DOTALL)
    exec(compile(code, "docs/protocol.md", "exec"), {})
