"""``crib replay FILE``: replay a saved game and print it with every score explained; ``crib simulate``.

The file is checked as it is replayed: an unreadable line, an action the rules refuse or a ``score``
line that does not match stops the replay with one sentence naming the line (exit status 2).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from companion.rules.game import Counting, Game, Operation, Settings
from companion.rules.names import counted, named
from companion.rules.notation import ScoreCheck, Undo, read_game, replay_lines, write_game
from companion.rules.simulate import random_game
from companion.rules.variants import VARIANTS, variant_named


def register(subparsers: Any) -> None:
    """Add the ``replay`` sub-command."""
    replay = subparsers.add_parser(
        "replay",
        help="replay a saved game file and explain every score",
        description="Replay a game file (one action per line, see companion.rules.notation), checking "
        "every action against the rules and every 'score' line, and print each action with the points "
        "it pegged and why, then the final scores. Players are printed by the names on the file's "
        "'players' line, else as player 1, player 2, ... (the file's actions number them from 0). Use "
        "- to read standard input.",
    )
    replay.add_argument("file", metavar="FILE", help="the game file ('-' for standard input)")
    replay.add_argument(
        "--json", action="store_true", help="print one JSON object per action, then the final snapshot"
    )
    replay.set_defaults(func=run_replay)

    simulate = subparsers.add_parser(
        "simulate",
        help="play a random game and print it as a game file",
        description="Deal and play a whole random game (the same seed gives the same game) and print it "
        "in the game notation, with a 'score' line after every score, ready for 'crib replay'.",
    )
    simulate.add_argument("--seed", type=int, default=0, help="the random seed (default 0)")
    simulate.add_argument("--variant", default="six-card", help=f"one of {', '.join(VARIANTS)}")
    simulate.add_argument("--claims", action="store_true", help="players claim (with mistakes and muggins)")
    simulate.add_argument("--match", action="store_true", help="play a best-of-three match")
    simulate.add_argument("--face-down", action="store_true", help="deal and throw face down (unseen)")
    simulate.set_defaults(func=run_simulate)


def run_simulate(args: argparse.Namespace) -> int:
    """Print a random game as a game file."""
    settings = Settings(
        variant=variant_named(args.variant),
        counting=Counting.CLAIMS if args.claims else Counting.AUTO,
        match_games=3 if args.match else 1,
    )
    game = random_game(random.Random(args.seed), settings, hidden=args.face_down, match=args.match)
    sys.stdout.write(f"# a random game, seed {args.seed}\n")
    write_game(game, sys.stdout)
    return 0


def _track(game: Game, side: int, names: Sequence[str]) -> str:
    return named(game.side_name(side), names)


def run_replay(args: argparse.Namespace) -> int:
    """Replay the file and print the game."""
    name: str = args.file
    if name == "-":
        record = read_game(sys.stdin, "<stdin>")
    else:
        try:
            with Path(name).open(encoding="utf-8") as stream:
                record = read_game(stream, Path(name).name)
        except UnicodeDecodeError:
            raise ValueError(f"{name} is not a game file (it is not UTF-8 text)") from None
    game = Game(record.settings)
    names = record.players or counted(game.variant.players)  # people count players from 1
    steps: list[tuple[int, bool, tuple[Operation, ...]]] = []
    logged = 0
    for number, entry, op, replayed in replay_lines(record):  # the whole file is checked before printing
        if isinstance(entry, Undo | ScoreCheck):
            ops: tuple[Operation, ...] = () if op is None else (op,)
        else:  # the action, then what the engine did by itself after it (the automatic show)
            ops = replayed.log[logged:]
        logged = len(replayed.log)
        steps.append((number, isinstance(entry, Undo), ops))
        game = replayed
    for number, undo, ops in steps:
        for op in ops:
            if args.json:
                print(json.dumps({"line": number, "undo": undo, **op.to_dict()}))
            elif undo:
                print(f"{number:>4}  undo: {named(op.note, names)}")
            else:
                _print_op(number, op, game, names)
    if args.json:
        print(json.dumps({"final": game.snapshot().to_dict()}))
        return 0
    print()
    scores = ", ".join(f"{_track(game, s, names)} {n}" for s, n in enumerate(game.scores))
    print(f"final scores: {scores}")
    if game.winner is not None:
        skunk = f" ({game.skunk.replace('-', ' ')})" if game.skunk else ""
        verb = "win" if len(game.variant.players_on(game.winner)) > 1 else "wins"
        print(f"{_track(game, game.winner, names)} {verb} game {game.game_number}{skunk}")
    else:
        print(f"unfinished: {named(game.waiting_for(), names)}")
    if len(game.games) > 1 or game.settings.match_games > 1:
        wins = ", ".join(f"{_track(game, s, names)} {n}" for s, n in enumerate(game.match_wins))
        print(f"match (best of {game.settings.match_games}): {wins}")
    return 0


def _print_op(number: int, op: Operation, game: Game, names: Sequence[str]) -> None:
    print(f"{number:>4}  {named(op.note, names)}")
    for scoring in op.scores:
        said, _, aside = scoring.explanation.partition(" (claimed")
        if not said or said in op.note:  # the note already says the count: add only what the claim did
            why = f" (claimed{aside}" if aside else ""
        else:
            why = f": {named(scoring.explanation, names)}"
        track = f"{_track(game, scoring.side, names)} {_pegs(game, scoring.side)}"
        print(
            f"        {track} {scoring.points} for the {_REASONS[scoring.reason]}"
            f"{why} ({scoring.rear} -> {scoring.forward})"
        )


def _pegs(game: Game, side: int) -> str:
    """The verb for a track: partners peg, a player pegs."""
    return "peg" if len(game.variant.players_on(side)) > 1 else "pegs"


_REASONS = {
    "play": "play",
    "hand": "hand",
    "crib": "crib",
    "heels": "heels",
    "three-for-last": "three for last",
    "muggins": "muggins",
    "over-claim": "over-claim",
}
