"""The saved game: a SQLite journal written before anything takes effect, and the finished games kept.

Nothing is lost when the power is pulled.  The game loop writes every action to the journal in the game
notation (:mod:`companion.rules.notation`: ``play 1 5s``, ``go 0``, ``claim 1 hand 12``), one row per
action, the actions done together sharing a group number, and commits them -- write-ahead log,
``synchronous = FULL``, so the commit is on the disk -- before anything is shown.  Everything one event
writes (its groups and the notes beside them) is one transaction (:meth:`Journal.atomic`), so a power
cut leaves the journal between two events, never inside one.  Starting again, the
loop reads the unfinished match (best of three, or a single game) back and replays its groups through the
same engine, which rebuilds exactly the state it had: the board is re-lit and the scoreboard shows the
same.  The rows of a match with the match's settings are a game file: ``crib export`` writes one.

An undo takes back the last group whole, in one committed transaction, so the journal always holds
exactly the groups that stand, never part of one.  A journal written by an older companion (actions
kept as JSON objects) is converted to the notation when it is opened.

Finished games keep their result and, per player, the figures the statistics are made of (points from
hands, cribs and pegging, and how many of each), grouped into matches (best of three by default).

Standard library only (``sqlite3``): the Pi needs nothing else to keep its history.
"""

from __future__ import annotations

import contextlib
import json
import sqlite3
import threading
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType
from typing import Any

from companion.app.storage import StorageError, backup, check_integrity, copy_database
from companion.app.storage import open_database as _open

__all__ = ["GameSummary", "Journal", "PlayerStats", "SavedMatch", "SeatSummary", "StorageError", "backup"]

_ACTIONS = """
CREATE TABLE IF NOT EXISTS actions (
    match_id INTEGER NOT NULL REFERENCES matches(id),
    seq INTEGER NOT NULL,
    grp INTEGER NOT NULL,
    at REAL NOT NULL,
    line TEXT NOT NULL,
    cursor INTEGER,
    PRIMARY KEY (match_id, seq)
);
CREATE INDEX IF NOT EXISTS actions_by_group ON actions (match_id, grp);
"""

_SCHEMA = (
    _ACTIONS
    + """
CREATE TABLE IF NOT EXISTS matches (
    id INTEGER PRIMARY KEY,
    started REAL NOT NULL,
    finished REAL,
    abandoned INTEGER NOT NULL DEFAULT 0,
    settings TEXT NOT NULL,
    players TEXT NOT NULL,
    winner INTEGER
);
CREATE TABLE IF NOT EXISTS notes (
    match_id INTEGER NOT NULL REFERENCES matches(id),
    key TEXT NOT NULL,
    value TEXT NOT NULL,
    PRIMARY KEY (match_id, key)
);
CREATE TABLE IF NOT EXISTS games (
    match_id INTEGER NOT NULL REFERENCES matches(id),
    number INTEGER NOT NULL,
    finished REAL NOT NULL,
    winner INTEGER NOT NULL,
    skunk INTEGER NOT NULL,
    scores TEXT NOT NULL,
    PRIMARY KEY (match_id, number)
);
CREATE TABLE IF NOT EXISTS seats (
    match_id INTEGER NOT NULL,
    number INTEGER NOT NULL,
    seat INTEGER NOT NULL,
    name TEXT NOT NULL,
    score INTEGER NOT NULL,
    won INTEGER NOT NULL,
    skunked INTEGER NOT NULL,
    hand_points INTEGER NOT NULL,
    hands INTEGER NOT NULL,
    crib_points INTEGER NOT NULL,
    cribs INTEGER NOT NULL,
    pegging_points INTEGER NOT NULL,
    deals INTEGER NOT NULL,
    PRIMARY KEY (match_id, number, seat),
    FOREIGN KEY (match_id, number) REFERENCES games(match_id, number) ON DELETE CASCADE
);
"""
)


@dataclass(frozen=True, slots=True)
class SavedMatch:
    """A match (or single game) read back from the journal: enough to rebuild it by replaying ``groups``
    (each a group of notation lines done together) under ``settings``.  ``cursor`` is the position, in a
    replayed recording, of the last event that took effect (-1 if none)."""

    id: int
    settings: dict[str, Any]
    players: tuple[str, ...]
    groups: tuple[tuple[str, ...], ...]
    cursor: int = -1

    @property
    def actions(self) -> tuple[str, ...]:
        """Every action line, in order."""
        return tuple(line for group in self.groups for line in group)


@dataclass(frozen=True, slots=True)
class SeatSummary:
    """One player's part in a finished game."""

    name: str
    score: int
    hand_points: int = 0
    hands: int = 0
    crib_points: int = 0
    cribs: int = 0
    pegging_points: int = 0
    deals: int = 0


@dataclass(frozen=True, slots=True)
class GameSummary:
    """How a game ended: its number in the match, the winner's seat, the skunk (0 none, 1 skunk, 2 double
    skunk) and each seat."""

    number: int
    winner: int
    skunk: int
    seats: tuple[SeatSummary, ...]


@dataclass(frozen=True, slots=True)
class PlayerStats:
    """A player's record over every finished game, by name."""

    name: str
    games: int
    wins: int
    skunks_given: int
    skunked: int
    matches_won: int
    average_hand: float
    average_crib: float
    average_pegging: float
    """Points pegged in the play per deal."""

    def to_dict(self) -> dict[str, object]:
        return {
            "name": self.name,
            "games": self.games,
            "wins": self.wins,
            "skunks_given": self.skunks_given,
            "skunked": self.skunked,
            "matches_won": self.matches_won,
            "average_hand": round(self.average_hand, 2),
            "average_crib": round(self.average_crib, 2),
            "average_pegging": round(self.average_pegging, 2),
        }


class Journal:
    """The SQLite file holding the game in progress and every finished one.

    One connection, shared under a lock: the game loop writes, the scoreboard may read statistics from
    the web server's thread.  ``close()`` is idempotent; the journal is a context manager.
    """

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        if str(path) != ":memory:" and not self.path.parent.is_dir():
            folder = self.path.parent
            raise FileNotFoundError(f"cannot keep the game in {self.path}: folder {folder} is missing")
        self._lock = threading.RLock()  # re-entered by the writes inside one ``atomic()``
        self._depth = 0
        """How many ``_write()`` transactions the lock's holder has open (more than one: nested)."""
        self._db: sqlite3.Connection | None = _open(self.path)
        try:
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=FULL")
            self._db.execute("PRAGMA foreign_keys=ON")
            check_integrity(self._db)
            _convert_json_actions(self._db)
            self._db.executescript(_SCHEMA)
        except BaseException:
            self._db.close()
            raise

    # -- the match in progress --------------------------------------------------------------------

    def begin_match(self, settings: dict[str, Any], players: Sequence[str]) -> int:
        """Start a match (any unfinished one is marked abandoned) and return its id."""
        with self._write() as db:
            db.execute("UPDATE matches SET abandoned = 1 WHERE finished IS NULL AND abandoned = 0")
            cursor = db.execute(
                "INSERT INTO matches (started, settings, players) VALUES (?, ?, ?)",
                (time.time(), json.dumps(settings), json.dumps(list(players))),
            )
            return int(cursor.lastrowid or 0)

    def append_group(
        self,
        match_id: int,
        lines: Sequence[str],
        cursor: int | None = None,
        notes: Mapping[str, Any] | None = None,
    ) -> int:
        """Write one group of action lines in one committed transaction (all or none reach the disk);
        returns the group's number.  ``cursor`` is kept with it (see :attr:`SavedMatch.cursor`).

        ``notes`` (see :meth:`set_note`) are written in the same transaction: a note that the group
        makes stale -- the crib cards seen, once the crib is counted -- never outlives it on the disk,
        and a note that led to the group is never on the disk without it."""
        if not lines:
            raise ValueError("a group of actions needs at least one action")
        with self._write() as db:
            seq, grp = db.execute(
                "SELECT COALESCE(MAX(seq) + 1, 0), COALESCE(MAX(grp) + 1, 0) FROM actions WHERE match_id = ?",
                (match_id,),
            ).fetchone()
            now = time.time()
            db.executemany(
                "INSERT INTO actions (match_id, seq, grp, at, line, cursor) VALUES (?, ?, ?, ?, ?, ?)",
                [(match_id, int(seq) + i, int(grp), now, line, cursor) for i, line in enumerate(lines)],
            )
            for key, value in (notes or {}).items():
                self._write_note(db, match_id, key, value)
            return int(grp)

    def atomic(self) -> _Transaction:
        """``with journal.atomic():`` -- everything written inside reaches the disk in one committed
        transaction, or none of it does.

        One event at the table may write several things: a play and the count it completes, the
        starter and the clearing of the last deal's crib cards, an answer and the cards held for it.
        Committed one by one, a power cut between them left the journal holding part of an event
        under that event's cursor, which no uninterrupted game ever passes through, so a resume went
        on from a state of its own.  Each write inside keeps its own all-or-none (a savepoint); other
        threads wait for the whole."""
        return _Transaction(self)

    def pop_group(self, match_id: int) -> tuple[str, ...]:
        """Undo: remove the last group whole in one committed transaction; returns its lines (none if
        the match has none)."""
        with self._write() as db:
            return self._pop_group(db, match_id)

    @staticmethod
    def _pop_group(db: sqlite3.Connection, match_id: int) -> tuple[str, ...]:
        rows = db.execute(
            "SELECT line FROM actions WHERE match_id = ? AND grp = "
            "(SELECT MAX(grp) FROM actions WHERE match_id = ?) ORDER BY seq",
            (match_id, match_id),
        ).fetchall()
        db.execute(
            "DELETE FROM actions WHERE match_id = ? AND grp = "
            "(SELECT MAX(grp) FROM actions WHERE match_id = ?)",
            (match_id, match_id),
        )
        return tuple(str(line) for (line,) in rows)

    def groups(self, match_id: int) -> tuple[tuple[str, ...], ...]:
        """The groups of action lines that stand, in order."""
        with self._lock:
            rows = (
                self._conn()
                .execute("SELECT grp, line FROM actions WHERE match_id = ? ORDER BY seq", (match_id,))
                .fetchall()
            )
        groups: dict[int, list[str]] = {}
        for grp, line in rows:
            groups.setdefault(int(grp), []).append(str(line))
        return tuple(tuple(lines) for lines in groups.values())

    def actions(self, match_id: int) -> tuple[str, ...]:
        """The action lines that stand, in order."""
        return tuple(line for group in self.groups(match_id) for line in group)

    def match(self, match_id: int) -> SavedMatch:
        """Any match in the journal, finished or not (for ``crib export``)."""
        with self._lock:
            row = (
                self._conn()
                .execute("SELECT settings, players FROM matches WHERE id = ?", (match_id,))
                .fetchone()
            )
        if row is None:
            raise LookupError(f"there is no match {match_id} in {self.path}")
        return self._saved(match_id, row[0], row[1])

    def matches(self) -> tuple[int, ...]:
        """Every match's id, oldest first."""
        with self._lock:
            rows = self._conn().execute("SELECT id FROM matches ORDER BY id").fetchall()
        return tuple(int(mid) for (mid,) in rows)

    def _saved(self, match_id: int, settings: str, players: str) -> SavedMatch:
        with self._lock:
            found = (
                self._conn()
                .execute("SELECT MAX(cursor) FROM actions WHERE match_id = ?", (match_id,))
                .fetchone()
            )
        cursor = -1 if found is None or found[0] is None else int(found[0])
        return SavedMatch(
            match_id, json.loads(settings), tuple(json.loads(players)), self.groups(match_id), cursor
        )

    def unfinished(self) -> SavedMatch | None:
        """The match to resume after a restart, if one was in progress."""
        with self._lock:
            row = (
                self._conn()
                .execute(
                    "SELECT id, settings, players FROM matches "
                    "WHERE finished IS NULL AND abandoned = 0 ORDER BY id DESC LIMIT 1"
                )
                .fetchone()
            )
        if row is None:
            return None
        match_id, settings, players = row
        return self._saved(int(match_id), settings, players)

    def set_note(self, match_id: int, key: str, value: Any) -> None:
        """Keep something the table has seen that is not (yet) an action -- the crib cards turned up
        before the crib is counted -- so a restart does not forget it."""
        with self._write() as db:
            self._write_note(db, match_id, key, value)

    @staticmethod
    def _write_note(db: sqlite3.Connection, match_id: int, key: str, value: Any) -> None:
        db.execute(
            "INSERT OR REPLACE INTO notes (match_id, key, value) VALUES (?, ?, ?)",
            (match_id, key, json.dumps(value)),
        )

    def note(self, match_id: int, key: str, default: Any = None) -> Any:
        with self._lock:
            row = (
                self._conn()
                .execute("SELECT value FROM notes WHERE match_id = ? AND key = ?", (match_id, key))
                .fetchone()
            )
        return default if row is None else json.loads(row[0])

    def abandon(self, match_id: int) -> None:
        """Give up a match (a new game was asked for): it stays in the file, and its finished games count."""
        with self._write() as db:
            db.execute("UPDATE matches SET abandoned = 1 WHERE id = ?", (match_id,))

    # -- finished games and matches -----------------------------------------------------------------

    def record_games(self, match_id: int, summaries: Sequence[GameSummary]) -> None:
        """Make the match's finished games exactly ``summaries`` (an undo of a winning peg removes one)."""
        with self._write() as db:
            if db.execute("SELECT 1 FROM matches WHERE id = ?", (match_id,)).fetchone() is None:
                raise LookupError(f"there is no match {match_id} in {self.path}")
            numbers = {summary.number for summary in summaries}
            kept = {int(n) for (n,) in db.execute("SELECT number FROM games WHERE match_id = ?", (match_id,))}
            for number in kept - numbers:
                db.execute("DELETE FROM seats WHERE match_id = ? AND number = ?", (match_id, number))
                db.execute("DELETE FROM games WHERE match_id = ? AND number = ?", (match_id, number))
            for summary in summaries:
                if summary.number in kept:
                    continue
                self._insert_game(db, match_id, summary)

    @staticmethod
    def _insert_game(db: sqlite3.Connection, match_id: int, summary: GameSummary) -> None:
        scores = [seat.score for seat in summary.seats]
        db.execute(
            "INSERT INTO games VALUES (?, ?, ?, ?, ?, ?)",
            (match_id, summary.number, time.time(), summary.winner, summary.skunk, json.dumps(scores)),
        )
        for index, seat in enumerate(summary.seats):
            won = index == summary.winner
            db.execute(
                "INSERT INTO seats VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    match_id,
                    summary.number,
                    index,
                    seat.name,
                    seat.score,
                    int(won),
                    0 if won else summary.skunk,
                    seat.hand_points,
                    seat.hands,
                    seat.crib_points,
                    seat.cribs,
                    seat.pegging_points,
                    seat.deals,
                ),
            )

    def finish_match(self, match_id: int, winner: int | None) -> None:
        """Close the match (``winner`` None: it ended undecided, e.g. a single game was asked for)."""
        with self._write() as db:
            db.execute(
                "UPDATE matches SET finished = ?, winner = ? WHERE id = ? AND finished IS NULL",
                (time.time(), winner, match_id),
            )

    def games_won(self, match_id: int) -> tuple[int, ...]:
        """Games won so far in a match, per seat, counted as the engine counts them toward the match: a
        skunk (or double skunk) counts two when the match's ``skunk_double_win`` setting is on (the
        default), so the figure agrees with the scoreboard's."""
        with self._lock:
            db = self._conn()
            found = db.execute("SELECT players, settings FROM matches WHERE id = ?", (match_id,)).fetchone()
            if found is None:
                raise LookupError(f"there is no match {match_id} in {self.path}")
            rows = db.execute("SELECT winner, skunk FROM games WHERE match_id = ?", (match_id,)).fetchall()
        double = bool(json.loads(found[1]).get("skunk_double_win", True))
        won = [0] * len(json.loads(found[0]))
        for winner, skunk in rows:
            won[int(winner)] += 2 if double and int(skunk) > 0 else 1
        return tuple(won)

    def history(self, limit: int = 20) -> list[dict[str, Any]]:
        """The most recent finished games, newest first."""
        with self._lock:
            rows = (
                self._conn()
                .execute(
                    "SELECT g.match_id, g.number, g.finished, m.players, g.winner, g.skunk, g.scores "
                    "FROM games g JOIN matches m ON m.id = g.match_id "
                    "ORDER BY g.finished DESC, g.match_id DESC, g.number DESC LIMIT ?",
                    (limit,),
                )
                .fetchall()
            )
        return [
            {
                "match": int(mid),
                "game": int(number),
                "finished": finished,
                "players": json.loads(players),
                "winner": winner,
                "skunk": skunk,
                "scores": json.loads(scores),
            }
            for mid, number, finished, players, winner, skunk, scores in rows
        ]

    def statistics(self) -> list[PlayerStats]:
        """Each player's record over all finished games, by name, most wins first."""
        with self._lock:
            db = self._conn()
            rows = db.execute(
                "SELECT name, COUNT(*), SUM(won), SUM(CASE WHEN won = 1 AND g.skunk > 0 THEN 1 ELSE 0 END), "
                "SUM(CASE WHEN skunked > 0 THEN 1 ELSE 0 END), SUM(hand_points), SUM(hands), "
                "SUM(crib_points), SUM(cribs), SUM(pegging_points), SUM(deals) "
                "FROM seats JOIN games g ON g.match_id = seats.match_id AND g.number = seats.number "
                "GROUP BY name"
            ).fetchall()
            match_rows = db.execute("SELECT players, winner FROM matches WHERE winner IS NOT NULL").fetchall()
        matches: dict[str, int] = {}
        for players, winner in match_rows:
            name = json.loads(players)[int(winner)]
            matches[name] = matches.get(name, 0) + 1
        stats = [
            PlayerStats(
                name=name,
                games=int(games),
                wins=int(wins),
                skunks_given=int(given),
                skunked=int(skunked),
                matches_won=matches.get(name, 0),
                average_hand=hand / hands if hands else 0.0,
                average_crib=crib / cribs if cribs else 0.0,
                average_pegging=pegging / deals if deals else 0.0,
            )
            for name, games, wins, given, skunked, hand, hands, crib, cribs, pegging, deals in rows
        ]
        return sorted(stats, key=lambda s: (-s.wins, s.name))

    # -- plumbing -----------------------------------------------------------------------------------

    def _conn(self) -> sqlite3.Connection:
        if self._db is None:
            raise OSError(f"the game journal {self.path} is closed")
        return self._db

    def _write(self) -> _Transaction:
        return _Transaction(self)

    def backup(self, dest: str | Path) -> Path:
        """Copy the journal, as it stands between two actions, to ``dest`` (see :func:`backup`)."""
        with self._lock:
            return copy_database(self._conn(), self.path, Path(dest))

    def checkpoint(self) -> None:
        """Move everything in the write-ahead log into the database file and empty the log.

        Done at a clean exit, so ``crib.db`` alone holds the whole game; while the companion runs the
        latest actions may still be in ``crib.db-wal`` (use ``crib backup``, never a plain copy).
        """
        with self._lock:
            self._conn().execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchall()

    def close(self) -> None:
        """Checkpoint (if the storage still works) and close; idempotent."""
        with self._lock:
            if self._db is not None:
                try:
                    # After a disk failure the checkpoint fails too: what was committed is safe in the
                    # log, and the next start reads it.
                    with contextlib.suppress(StorageError):
                        if str(self.path) != ":memory:":
                            self._db.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchall()
                finally:
                    self._db.close()
                    self._db = None

    def __enter__(self) -> Journal:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        self.close()


def _convert_json_actions(db: sqlite3.Connection) -> None:
    """Convert a journal of an older companion, whose actions were JSON objects with their group beside
    them, to notation lines, in one transaction.  Its hand counts were written by the table; now the
    engine counts hands itself (``auto_show``), so they are dropped and the setting is turned on."""
    columns = {str(row[1]) for row in db.execute("PRAGMA table_info(actions)")}
    if "action" not in columns:
        return
    from companion.rules.actions import Count, action_from_dict
    from companion.rules.notation import format_action

    db.execute("BEGIN IMMEDIATE")
    try:
        rows = db.execute("SELECT match_id, seq, at, action FROM actions ORDER BY match_id, seq").fetchall()
        db.execute("ALTER TABLE actions RENAME TO old_actions")
        for statement in _ACTIONS.split(";")[:2]:
            db.execute(statement)
        for match_id, seq, at, text in rows:
            data = json.loads(text)
            action = action_from_dict(data)
            if isinstance(action, Count) and action.what == "hand":
                continue
            db.execute(
                "INSERT INTO actions (match_id, seq, grp, at, line, cursor) VALUES (?, ?, ?, ?, ?, ?)",
                (match_id, seq, int(data.get("_group", seq)), at, format_action(action), data.get("_cursor")),
            )
        for match_id, settings in db.execute("SELECT id, settings FROM matches").fetchall():
            db.execute(
                "UPDATE matches SET settings = ? WHERE id = ?",
                (json.dumps({**json.loads(settings), "auto_show": True}), match_id),
            )
        db.execute("DROP TABLE old_actions")
    except BaseException:
        db.execute("ROLLBACK")
        raise
    db.execute("COMMIT")


class _Transaction:
    """``with journal._write() as db:`` -- one committed transaction under the journal's lock.

    Opened inside another (``Journal.atomic``), it is a savepoint of the outer one instead: all or
    none of it stays in the outer transaction, which alone commits.
    """

    def __init__(self, journal: Journal) -> None:
        self._journal = journal

    def __enter__(self) -> sqlite3.Connection:
        journal = self._journal
        journal._lock.acquire()
        try:
            db = journal._conn()
            db.execute("SAVEPOINT nested" if journal._depth else "BEGIN IMMEDIATE")
        except BaseException:
            journal._lock.release()
            raise
        journal._depth += 1
        return db

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        journal = self._journal
        journal._depth -= 1
        try:
            db = journal._conn()
            if journal._depth:
                _end_savepoint(db, keep=kind is None)
            elif kind is None:
                try:
                    db.execute("COMMIT")
                except StorageError:
                    _roll_back(db)  # nothing half-written stays pending; the caller hears why
                    raise
            else:
                _roll_back(db)
        finally:
            journal._lock.release()


def _end_savepoint(db: sqlite3.Connection, *, keep: bool) -> None:
    """Close a nested write: kept in the outer transaction, or taken out of it (after a disk error
    SQLite may have given up the whole transaction: then there is nothing left to take out, and the
    error on its way out says why)."""
    if keep:
        db.execute("RELEASE nested")
        return
    with contextlib.suppress(StorageError):
        db.execute("ROLLBACK TO nested")
        db.execute("RELEASE nested")


def _roll_back(db: sqlite3.Connection) -> None:
    """Give up the transaction (SQLite may already have, after a disk error: then there is nothing to do)."""
    if db.in_transaction:
        with contextlib.suppress(StorageError):  # the failure that led here is the one to report
            db.execute("ROLLBACK")
