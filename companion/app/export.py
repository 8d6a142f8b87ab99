"""``crib export``: any match kept in a game database, written as a game file that ``crib replay`` replays.

The journal keeps each match's settings and its actions in the game notation, so a game played at the
table can be handed to ``crib replay`` (a dispute, a bug report, a golden test) exactly as it went:
the file has the settings, each action with its sentence, and a ``score`` line after every score, all
checked when it is replayed.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any, TextIO

from companion.app.store import Journal
from companion.rules.game import Game, Settings
from companion.rules.notation import action_from_line, write_game

__all__ = ["export_match", "register", "run_export"]


def register(subparsers: Any) -> None:
    """Add ``crib export``."""
    export = subparsers.add_parser(
        "export",
        help="write a saved game from the game database as a game file for 'crib replay'",
        description="Write a match kept in the game database (the latest unless --match is given) in the "
        "game notation, with a 'score' line after every score, ready for 'crib replay'.",
    )
    export.add_argument("db", metavar="DB", help="the game database ('crib play --db')")
    export.add_argument("--match", type=int, metavar="ID", help="the match to write (default: the latest)")
    export.add_argument("--list", action="store_true", help="list the matches kept, and write none")
    export.add_argument("-o", "--output", metavar="FILE", help="write to FILE (default: standard output)")
    export.set_defaults(func=run_export)


def export_match(journal: Journal, match_id: int, stream: TextIO) -> Game:
    """Replay match ``match_id`` from the journal and write it as a game file; returns the game."""
    saved = journal.match(match_id)
    game = Game(Settings.from_dict(saved.settings))
    for group in saved.groups:
        game.apply_group([action_from_line(line) for line in group])
    names = ", ".join(f"{name} (player {seat})" for seat, name in enumerate(saved.players))
    stream.write(f"# match {match_id} of {journal.path.name}: {names}\n")
    # The names on a players line too, for what crib replay prints (unless one would not read back).
    plain = all(name.strip() and not set(name) & set("#,\n") for name in saved.players)
    write_game(game, stream, players=saved.players if plain else ())
    return game


def run_export(args: argparse.Namespace) -> int:
    """Write one match, or list them."""
    path = Path(args.db)
    if not path.is_file():
        raise FileNotFoundError(f"there is no game database at {path}")
    with Journal(path) as journal:
        matches = journal.matches()
        if args.list:
            for match_id in matches:
                saved = journal.match(match_id)
                print(f"{match_id}: {' against '.join(saved.players)}, {len(saved.actions)} actions")
            return 0
        if not matches:
            raise LookupError(f"{path} holds no match to export")
        match_id = matches[-1] if args.match is None else args.match
        if args.output is None:
            export_match(journal, match_id, sys.stdout)
            return 0
        with Path(args.output).open("w", encoding="utf-8") as stream:
            export_match(journal, match_id, stream)
    return 0
