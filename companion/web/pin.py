"""The table's PIN, kept in a file only the companion's user can read.

A PIN made afresh at every start changes whenever the service restarts (after a crash too), so players
would have to look it up again mid-game.  Instead one is made once, eight random digits from
:mod:`secrets`, and kept in ``scoreboard-pin`` (mode 0600) in the state folder beside the game database;
``crib pin`` shows it and ``crib pin --rotate`` replaces it.  The running scoreboard notices a rotated
PIN at the next try (it looks at the file's modification time), so rotating needs no restart.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import stat
import threading
from pathlib import Path

__all__ = ["DIGITS", "PIN_FILE", "PinFile", "new_pin"]

PIN_FILE = "scoreboard-pin"
DIGITS = 8


def new_pin(digits: int = DIGITS) -> str:
    """A fresh random PIN of ``digits`` digits (leading zeros kept)."""
    return f"{secrets.randbelow(10**digits):0{digits}d}"


class PinFile:
    """The PIN kept in ``folder/scoreboard-pin``; made on first use, re-read when the file changes."""

    def __init__(self, folder: str | Path) -> None:
        self.path = Path(folder) / PIN_FILE
        self._lock = threading.Lock()
        self._seen: tuple[int, str] | None = None

    def current(self) -> str:
        """The PIN now (made and saved if there is none yet); an unreadable file is an OSError."""
        with self._lock:
            try:
                changed = self.path.stat().st_mtime_ns
            except FileNotFoundError:
                self._write(new_pin(), replace=False)
                changed = self.path.stat().st_mtime_ns
            if self._seen is None or self._seen[0] != changed:
                self._seen = (changed, self._read())
            return self._seen[1]

    def rotate(self) -> str:
        """Replace the PIN with a fresh one and return it (phones holding the old one must ask again)."""
        with self._lock:
            pin = new_pin()
            self._write(pin, replace=True)
            self._seen = None
        return pin

    def __call__(self) -> str:
        return self.current()

    def _read(self) -> str:
        text = self.path.read_text(encoding="ascii").strip()
        if not text.isdigit() or not 4 <= len(text) <= 8:
            raise OSError(f"{self.path} does not hold a PIN of 4 to 8 digits: run crib pin --rotate")
        mode = stat.S_IMODE(self.path.stat().st_mode)
        if mode & 0o077:
            os.chmod(self.path, 0o600)  # someone loosened it: only the companion's user may read the PIN
        return text

    def _write(self, pin: str, *, replace: bool) -> None:
        self.path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        target = self.path.with_suffix(".new") if replace else self.path
        flags = os.O_WRONLY | os.O_CREAT | (os.O_TRUNC if replace else os.O_EXCL)
        try:
            handle = os.open(target, flags, 0o600)
        except FileExistsError:
            return  # another process made it first: read theirs
        try:
            os.fchmod(handle, 0o600)
            os.write(handle, f"{pin}\n".encode("ascii"))
            os.fsync(handle)
        finally:
            os.close(handle)
        if replace:
            try:
                os.replace(target, self.path)
            except OSError:
                with contextlib.suppress(OSError):
                    target.unlink()
                raise
