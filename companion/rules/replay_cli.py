"""``crib replay FILE``: replay a saved game and print it with every score explained.

The file is checked as it is replayed: an unreadable line, an action the rules refuse or a ``score``
line that does not match stops the replay with one sentence naming the line (exit status 2).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from companion.rules.game import Game, Operation
from companion.rules.notation import ScoreCheck, Undo, read_game, replay_lines


def register(subparsers: Any) -> None:
    """Add the ``replay`` sub-command."""
    replay = subparsers.add_parser(
        "replay",
        help="replay a saved game file and explain every score",
        description="Replay a game file (one action per line, see companion.rules.notation), checking "
        "every action against the rules and every 'score' line, and print each action with the points "
        "it pegged and why, then the final scores. Use - to read standard input.",
    )
    replay.add_argument("file", metavar="FILE", help="the game file ('-' for standard input)")
    replay.add_argument(
        "--json", action="store_true", help="print one JSON object per action, then the final snapshot"
    )
    replay.set_defaults(func=run_replay)


def _track(game: Game, side: int) -> str:
    return game.side_name(side)


def run_replay(args: argparse.Namespace) -> int:
    """Replay the file and print the game."""
    name: str = args.file
    if name == "-":
        record = read_game(sys.stdin, "<stdin>")
    else:
        with Path(name).open(encoding="utf-8") as stream:
            record = read_game(stream, Path(name).name)
    game = Game(record.settings)
    steps = []
    for number, entry, op, replayed in replay_lines(record):  # the whole file is checked before printing
        steps.append((number, entry, op))
        game = replayed
    for number, entry, op in steps:
        if args.json:
            if op is not None:
                print(json.dumps({"line": number, "undo": isinstance(entry, Undo), **op.to_dict()}))
            continue
        if isinstance(entry, ScoreCheck):
            continue
        assert op is not None
        if isinstance(entry, Undo):
            print(f"{number:>4}  undo: {op.note}")
            continue
        _print_op(number, op, game)
    if args.json:
        print(json.dumps({"final": game.snapshot().to_dict()}))
        return 0
    print()
    print("final scores: " + ", ".join(f"{_track(game, s)} {n}" for s, n in enumerate(game.scores)))
    if game.winner is not None:
        skunk = f" ({game.skunk.replace('-', ' ')})" if game.skunk else ""
        verb = "win" if len(game.variant.players_on(game.winner)) > 1 else "wins"
        print(f"{_track(game, game.winner)} {verb} game {game.game_number}{skunk}")
    else:
        print(f"unfinished: {game.waiting_for()}")
    if len(game.games) > 1 or game.settings.match_games > 1:
        wins = ", ".join(f"{_track(game, s)} {n}" for s, n in enumerate(game.match_wins))
        print(f"match (best of {game.settings.match_games}): {wins}")
    return 0


def _print_op(number: int, op: Operation, game: Game) -> None:
    print(f"{number:>4}  {op.note}")
    for scoring in op.scores:
        what = scoring.explanation or scoring.reason
        print(
            f"        {_track(game, scoring.side)} pegs {scoring.points} ({scoring.reason}: {what}): "
            f"{scoring.rear} -> {scoring.forward}"
        )
