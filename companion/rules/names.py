"""Players named as people name them, in the engine's sentences.

The engine and the game notation number players from 0 (``play 0 5h``), and every sentence the engine
writes says "player 0", or "players 0 and 2" for partners.  People count from 1, or use names: what a
person reads (the table, the scoreboard, ``crib replay``) goes through :func:`named` first.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Final

__all__ = ["counted", "named"]

_PLAYERS: Final = re.compile(r"\bplayers (\d) and (\d)\b|\bplayer (\d)\b")


def counted(players: int) -> tuple[str, ...]:
    """Names for players nobody named: "player 1", "player 2", ... counting from 1."""
    return tuple(f"player {seat + 1}" for seat in range(players))


def named(text: str, names: Sequence[str]) -> str:
    """``text`` with each "player N" (and "players N and M") said with the players' ``names``.

    A number with no name (more seats than names) is counted from 1 instead, so no reader ever sees a
    player 0.
    """

    def name(seat: str) -> str:
        index = int(seat)
        return names[index] if index < len(names) else f"player {index + 1}"

    def say(match: re.Match[str]) -> str:
        if match.group(3) is not None:
            return name(match.group(3))
        first, second = int(match.group(1)), int(match.group(2))
        pair = (name(match.group(1)), name(match.group(2)))
        if pair == (f"player {first + 1}", f"player {second + 1}"):
            return f"players {first + 1} and {second + 1}"
        return " and ".join(pair)

    return _PLAYERS.sub(say, text)
