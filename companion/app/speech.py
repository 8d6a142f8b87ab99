"""Spoken call-outs: every score said aloud as a player would say it ("Ann: fifteen two, and a pair is
four"), through espeak-ng (Debian package ``espeak-ng``; optional -- ``crib play --speak``).

Speaking is slow next to the game, so a worker thread says the lines in order while the loop goes on;
if the table moves faster than speech, only the newest waiting line is kept (nobody wants to hear a
backlog of old counts).
"""

from __future__ import annotations

import contextlib
import queue
import shutil
import subprocess
import threading
from collections.abc import Sequence
from typing import Any

from companion.events import Event

__all__ = ["Speaker", "espeak_command"]


def espeak_command() -> list[str] | None:
    """The espeak-ng command line, or None when it is not installed."""
    found = shutil.which("espeak-ng")
    return None if found is None else [found, "-v", "en-gb", "-s", "165"]


class Speaker:
    """A game-loop listener that says each new score; ``close()`` finishes the line being said."""

    def __init__(self, command: Sequence[str]) -> None:
        self.command = list(command)
        self.said: list[str] = []
        self._queue: queue.Queue[str | None] = queue.Queue(maxsize=1)
        self._last_serial = -1
        self._thread = threading.Thread(target=self._run, name="speech", daemon=True)
        self._thread.start()

    def __call__(self, table: Any, event: Event | None) -> None:
        game = table.game
        log = game.log
        if not log or log[-1].serial == self._last_serial:
            return
        if log[-1].serial < self._last_serial:  # an undo: say nothing, start from here
            self._last_serial = log[-1].serial
            return
        new = [op for op in log if op.serial > self._last_serial]
        self._last_serial = log[-1].serial
        lines = []
        for op in new:
            for scoring in op.scores:
                name = table.players[scoring.player]
                lines.append(f"{name}: {scoring.explanation or scoring.reason}")
        if game.winner is not None and any(op.phase.value == "game-over" for op in new):
            from companion.app.table import side_names

            winners = side_names(game, table.players)[game.winner]
            lines.append(f"{winners} {'win' if ' & ' in winners else 'wins'}")
        if lines:
            self._say("; ".join(lines))

    def _say(self, text: str) -> None:
        while True:
            try:
                self._queue.put_nowait(text)
                return
            except queue.Full:
                with contextlib.suppress(queue.Empty):
                    self._queue.get_nowait()  # drop the stale line

    def _run(self) -> None:
        while True:
            text = self._queue.get()
            if text is None:
                return
            self.said.append(text)
            with contextlib.suppress(OSError, subprocess.TimeoutExpired):
                subprocess.run([*self.command, text], check=False, timeout=30, capture_output=True)

    def close(self) -> None:
        """Say the line still waiting, then stop."""
        with contextlib.suppress(queue.Full):
            self._queue.put(None, timeout=35)
        self._thread.join(timeout=35)
