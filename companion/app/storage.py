"""Storage that fails, said in one sentence: the journal's SQLite connection, its checks and its backup.

Every SQLite error on the journal (opening, a write, a damaged page, text that is not UTF-8) becomes a
:class:`StorageError` (an ``OSError``) that names the file and how to recover: the disk is full, the file
or its disk turned read-only, the disk failed, or the file is damaged.  The guarded connection and
cursors below translate them where they happen, so no query of :mod:`companion.app.store` can let a raw
sqlite3 error, or its traceback, reach the players.

Kept apart from the journal's format (``store.py``): this is how the file is opened, checked, copied.
"""

from __future__ import annotations

import os
import sqlite3
import time
from pathlib import Path
from typing import Any

__all__ = ["StorageError", "backup", "check_integrity", "copy_database", "open_database", "storage_error"]

_SQLITE_PERM, _SQLITE_READONLY, _SQLITE_IOERR, _SQLITE_CORRUPT = 3, 8, 10, 11
_SQLITE_FULL, _SQLITE_CANTOPEN, _SQLITE_NOTADB = 13, 14, 26
_MOVE_ASIDE = "move it aside (or restore a copy made with crib backup) and start crib play again"


class StorageError(OSError):
    """The journal cannot be written or read: the disk is full, read-only, or the file is damaged."""


def storage_error(error: BaseException, path: Path) -> StorageError:
    """One sentence for a SQLite failure on ``path``: what failed and how to recover."""
    text = str(error)
    code = int(getattr(error, "sqlite_errorcode", 0) or 0) & 0xFF  # the primary result code
    if code == _SQLITE_FULL or "disk is full" in text:
        return StorageError(
            f"the game cannot be saved in {path}: the disk is full; free some space and start crib play "
            "again (the game resumes from the last action saved)"
        )
    if code == _SQLITE_READONLY or "readonly" in text:
        return StorageError(
            f"the game cannot be saved in {path}: the file or its disk has become read-only (an SD card "
            "that is failing turns read-only); copy it to a working disk and start crib play there (the "
            "game resumes from the last action saved)"
        )
    if code in (_SQLITE_IOERR, _SQLITE_CANTOPEN, _SQLITE_PERM):
        return StorageError(
            f"the game cannot be saved in {path} ({_quote(text)}): check the disk (an SD card that is "
            "failing, a USB stick pulled out) and start crib play again"
        )
    damaged = code in (_SQLITE_CORRUPT, _SQLITE_NOTADB) or "decode" in text
    if not damaged and isinstance(error, sqlite3.OperationalError):
        return StorageError(f"the game database {path} cannot be used ({_quote(text)})")
    if code == _SQLITE_NOTADB:
        return StorageError(f"{path} is not a game database the companion can use ({_quote(text)})")
    return StorageError(f"the game database {path} is damaged ({_quote(text)}): {_MOVE_ASIDE}")


def _quote(text: str, limit: int = 80) -> str:
    """At most ``limit`` characters of a message that may carry damaged data."""
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 3] + "..."


class _GuardedCursor(sqlite3.Cursor):
    """A cursor whose every step turns SQLite's errors into a StorageError naming the file."""

    def _fail(self, error: sqlite3.Error) -> StorageError:
        connection = self.connection
        return storage_error(error, getattr(connection, "path", Path("the game database")))

    def execute(self, sql: str, parameters: Any = (), /) -> _GuardedCursor:
        try:
            super().execute(sql, parameters)
        except sqlite3.Error as error:
            raise self._fail(error) from None
        return self

    def executemany(self, sql: str, seq_of_parameters: Any, /) -> _GuardedCursor:
        try:
            super().executemany(sql, seq_of_parameters)
        except sqlite3.Error as error:
            raise self._fail(error) from None
        return self

    def fetchone(self) -> Any:
        try:
            return super().fetchone()
        except sqlite3.Error as error:
            raise self._fail(error) from None

    def fetchall(self) -> list[Any]:
        try:
            return super().fetchall()
        except sqlite3.Error as error:
            raise self._fail(error) from None

    def __next__(self) -> Any:
        try:
            return super().__next__()
        except sqlite3.Error as error:
            raise self._fail(error) from None


class _GuardedConnection(sqlite3.Connection):
    """A connection whose queries run on guarded cursors (see :class:`_GuardedCursor`)."""

    path = Path("the game database")

    def execute(self, sql: str, parameters: Any = (), /) -> _GuardedCursor:
        return self.cursor(_GuardedCursor).execute(sql, parameters)

    def executemany(self, sql: str, seq_of_parameters: Any, /) -> _GuardedCursor:
        return self.cursor(_GuardedCursor).executemany(sql, seq_of_parameters)

    def executescript(self, script: str, /) -> sqlite3.Cursor:
        try:
            return super().executescript(script)
        except sqlite3.Error as error:
            raise storage_error(error, self.path) from None


def open_database(path: Path) -> sqlite3.Connection:
    """Open the journal's connection (the write-ahead log, full sync and foreign keys are set by the
    caller); a file that is not a database, or cannot be opened, is one sentence."""
    try:
        db = sqlite3.connect(
            str(path), check_same_thread=False, isolation_level=None, factory=_GuardedConnection
        )
    except sqlite3.Error as error:
        raise storage_error(error, path) from None
    db.path = path
    return db


def check_integrity(db: sqlite3.Connection) -> None:
    """Refuse a damaged journal at once, before a game is resumed from it (SQLite's quick check reads
    every page; on a Pi a year of games takes a fraction of a second)."""
    path = getattr(db, "path", Path("the game database"))
    rows = db.execute("PRAGMA quick_check").fetchall()
    problems = [str(row[0]) for row in rows if row and row[0] != "ok"]
    if problems:
        raise StorageError(f"the game database {path} is damaged ({_quote(problems[0])}): {_MOVE_ASIDE}")


def backup(source: str | Path, dest: str | Path) -> Path:
    """Copy the journal at ``source`` to ``dest`` with SQLite's backup API; returns the file written.

    Safe while a game is being played (the copy is of the journal between two committed actions, the
    write-ahead log included), unlike copying ``crib.db`` alone.  ``dest`` may be a folder: the copy is
    then named after the source and the time.  The copy is written beside ``dest`` and renamed into place,
    so an interrupted backup never leaves half a file under the wanted name.
    """
    source = Path(source)
    if not source.is_file():
        raise FileNotFoundError(f"there is no game database at {source}")
    db = open_database(source)
    try:
        return copy_database(db, source, Path(dest))
    finally:
        db.close()


def copy_database(db: sqlite3.Connection, source: Path, dest: Path) -> Path:
    """Copy the open database ``db`` (the file ``source``) to ``dest``, as :func:`backup` does."""
    if dest.is_dir():
        dest = dest / f"{source.stem}-{time.strftime('%Y%m%d-%H%M%S')}{source.suffix or '.db'}"
    if not dest.parent.is_dir():
        raise FileNotFoundError(f"cannot write the backup {dest}: folder {dest.parent} is missing")
    if dest.exists() and dest.resolve() == source.resolve():
        raise ValueError(f"the backup {dest} would overwrite the game database itself")
    partial = dest.with_name(dest.name + ".partial")
    try:
        target = sqlite3.connect(str(partial))
        try:
            db.backup(target)
            target.execute("PRAGMA journal_mode=DELETE")  # one self-contained file
        finally:
            target.close()
        os.replace(partial, dest)
    except sqlite3.Error as error:
        partial.unlink(missing_ok=True)
        raise storage_error(error, source if "source" in str(error) else dest) from None
    except OSError:
        partial.unlink(missing_ok=True)
        raise
    return dest
