"""What ``crib play`` says on the terminal: every score as a player would say it, what the camera sees
and does, a progress line while frames are read, and the end of the game in plain words.

The lines are made here (pure functions of the table and the figures) and printed by the listeners, so
the tests read exactly what a player reads.  Colour is used only where the terminal has it (a TTY, and
``NO_COLOR`` unset): each player's name in their track's colour on the board.
"""

from __future__ import annotations

import os
import sys
import threading
import time
from collections.abc import Callable, Sequence
from typing import Any, TextIO

from companion.events import Event
from companion.rules.names import named

__all__ = ["Caller", "Progress", "colour_for", "ending", "score_lines"]

#: The board's default peg colours (track 0 a cool blue, track 1 a warm orange), as terminal colours.
_TRACK_RGB = ((0, 192, 255), (255, 96, 0))


def colour_for(stream: TextIO) -> bool:
    """Whether ``stream`` shows colour: a terminal, and the user has not asked for none (NO_COLOR)."""
    return stream.isatty() and not os.environ.get("NO_COLOR")


def painted(name: str, side: int, colour: bool) -> str:
    """``name`` in the colour of its track on the board (when ``colour``)."""
    if not colour or side >= len(_TRACK_RGB):
        return name
    r, g, b = _TRACK_RGB[side]
    return f"\x1b[1;38;2;{r};{g};{b}m{name}\x1b[0m"


def score_lines(table: Any, since: int, *, colour: bool = False) -> tuple[list[str], int]:
    """Every score pegged after log serial ``since``, as said at the table with where the peg now stands
    ("Bob: fifteen two and a pair is four (23)"), and the serial to start from next time.  An undo says
    nothing here (the table's notice says what was undone)."""
    log = table.game.log
    if not log:
        return [], -1
    last = log[-1].serial
    lines = []
    for op in log:
        if op.serial <= since or last < since:
            continue
        for scoring in op.scores:
            name = painted(table.players[scoring.player], scoring.side, colour)
            said = scoring.explanation or scoring.reason
            lines.append(f"  {name}: {said} ({scoring.forward})")
    return lines, last


def ending(table: Any, frames: int, asked: int, *, replay: bool) -> str:
    """The last words: where the game stands if it is not over (the result is printed as it happens),
    and how the camera did, in plain words."""
    game = table.game
    from companion.app.table import side_names

    names = side_names(game, table.players)  # the scores are the tracks', partners sharing one
    snapshot = game.snapshot()
    if snapshot.winner is not None:
        head = ""  # the result has just been printed with the last deal
    else:
        head = "The game is not finished: " + ", ".join(
            f"{name} {score}" for name, score in zip(names, snapshot.scores, strict=False)
        )
        head += "."
    if frames == 0:
        return head
    questions = {0: "no card needed asking about", 1: "one card needed asking about"}.get(
        asked, f"{asked} cards needed asking about"
    )
    answered = " (answered as the players would have)" if replay and asked else ""
    return f"{head} The camera watched {frames} pictures of the table; {questions}{answered}.".strip()


class Caller:
    """A game-loop listener that prints every score as spoken and what the table says (its notices and
    questions), each once; ``quiet`` leaves them all out (the deal totals are printed anyway)."""

    def __init__(self, out: Callable[[str], None], *, quiet: bool = False, colour: bool = False) -> None:
        self.out = out
        self.quiet = quiet
        self.colour = colour
        self._since = -1
        self._asked: object = None
        self.asked = 0
        """How many questions the table has asked."""

    def __call__(self, table: Any, event: Event | None) -> None:
        lines, self._since = score_lines(table, self._since, colour=self.colour)
        question = table.correction
        fresh = question is not None and question is not self._asked
        self._asked = question
        self.asked += fresh
        if self.quiet:
            return
        for line in lines:
            self.out(line)
        if question is not None and fresh:
            likely = ", ".join(question.choices[:3])
            self.out(f"  ? {question.message} (likely: {likely}; answer with a knob or on the scoreboard)")


class Progress:
    """A line that says how far the reading of frames has gone, at most every ``every`` seconds: redrawn
    in place on a terminal, else printed as a plain line (a log)."""

    def __init__(
        self,
        stream: TextIO,
        *,
        every: float | None = None,
        what: Callable[[], str] | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.stream = stream
        self.tty = stream.isatty()
        self.every = every if every is not None else (0.5 if self.tty else 10.0)
        self.what = what or (lambda: "")
        self.clock = clock
        self._last = clock()
        self._shown = False
        self.lock = threading.Lock()

    def __call__(self, frames: int) -> None:
        now = self.clock()
        if now - self._last < self.every:
            return
        self._last = now
        extra = self.what()
        text = f"  ... {frames} pictures read" + (f"; {extra}" if extra else "")
        with self.lock:
            if self.tty:
                self.stream.write("\r\x1b[2K" + text)
                self._shown = True
            else:
                self.stream.write(text + "\n")
            self.stream.flush()

    def clear(self) -> None:
        """Take the progress line away before other output (on a terminal)."""
        with self.lock:
            if self._shown:
                self.stream.write("\r\x1b[2K")
                self.stream.flush()
                self._shown = False


def waiting(table: Any, names: Sequence[str] = ()) -> str:
    """What the game waits for, with the players' names ("Bob to lay"), for the progress line."""
    try:
        text = str(table.game.waiting_for())
    except Exception:  # the progress line must never stop the game
        return ""
    return named(text, names or table.players)


def stdout() -> TextIO:
    return sys.stdout
