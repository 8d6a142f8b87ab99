"""``crib backup DEST``: a safe copy of the game database, even while a game is being played.

Copying ``crib.db`` with ``cp`` while the companion runs can lose the game: the latest actions live in
``crib.db-wal`` until SQLite moves them into the main file.  This command copies through SQLite's backup
API, which reads the database as it stands between two committed actions, the log included, into one
self-contained file that ``crib play --db`` can resume from.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

__all__ = ["register", "run_backup"]


def register(subparsers: Any) -> None:
    """Add ``crib backup``."""
    backup = subparsers.add_parser(
        "backup",
        help="copy the game database safely (works while a game is being played)",
        description="Copy the game database with SQLite's backup API: safe while crib play runs, unlike "
        "copying crib.db alone (its latest actions may still be in crib.db-wal). DEST may be a folder: "
        "the copy is then named after the database and the time.",
    )
    backup.add_argument("dest", metavar="DEST", help="the file to write, or a folder to write it in")
    backup.add_argument("--db", metavar="FILE", help="the game database (default: the one crib play uses)")
    backup.add_argument("--config", metavar="FILE", help="a TOML settings file naming the database")
    backup.set_defaults(func=run_backup)


def run_backup(args: argparse.Namespace) -> int:
    from companion.app.cli import _DEFAULT_DB
    from companion.app.config import load_config
    from companion.app.store import backup

    if args.db:
        source = Path(args.db)
    else:
        configured = load_config(args.config).db_path
        source = Path(configured) if configured != "crib.db" else _DEFAULT_DB
    written = backup(source, args.dest)
    print(f"copied {source} to {written}")
    return 0
