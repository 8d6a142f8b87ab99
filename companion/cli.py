"""The ``crib`` command: one entry point, one sub-command family per part of the product.

Each part owns its sub-commands in its own ``cli`` module with a ``register(subparsers)`` function, so
adding a part is one line in :data:`COMMANDS` and no part imports another's heavy dependencies (the
scoring commands start without loading OpenCV).  Errors that come from what the user typed or pointed
at are printed as one sentence, never a traceback.
"""

from __future__ import annotations

import argparse
import importlib
import os
import re
import sys
from collections.abc import Sequence

from companion import __version__

#: The most characters of bad input an error message quotes.
QUOTE_LIMIT = 80

#: Modules that add sub-commands, in the order ``crib --help`` lists them.
COMMANDS: tuple[str, ...] = (
    "companion.rules.cli",
    "companion.vision.cli",
    "companion.rules.replay_cli",
    "companion.board.cli",
    "companion.app.cli",
    "companion.app.export",
    "companion.app.pin_cli",
    "companion.app.backup_cli",
)


def build_parser() -> argparse.ArgumentParser:
    """The full argument parser, with every part's sub-commands registered."""
    parser = argparse.ArgumentParser(
        prog="crib",
        description="The crib companion: counts, pegs and explains every cribbage score.",
    )
    parser.add_argument("--version", action="version", version=f"crib {__version__}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for name in COMMANDS:
        importlib.import_module(name).register(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run one ``crib`` command and return its exit status (2 for bad input, 1 for I/O trouble)."""
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        status: int = args.func(args)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        # The reader went away (``crib simulate | head``): stop quietly, as a shell tool does.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 141
    except (ValueError, LookupError) as error:
        print(f"crib: {clipped(str(error))}", file=sys.stderr)
        return 2
    except OSError as error:
        message = str(error)
        if isinstance(error, IsADirectoryError) and error.filename:
            message = f"{error.filename} is a folder, where a file was expected"
        print(f"crib: {clipped(message)}", file=sys.stderr)
        return 1
    return status


#: A quoted piece of input in an error message: 'text' or "text" (the way repr() and the parts quote).
_QUOTED = re.compile("|".join(f"{q}[^{q}\\n]{{{QUOTE_LIMIT + 1},}}{q}" for q in "'\""))


def clipped(message: str) -> str:
    """The error message with every quoted piece of input cut to :data:`QUOTE_LIMIT` characters.

    Errors quote what they could not read; a 50 MB line, or a megabyte of name, must not be echoed whole
    to the terminal and the logs.  What was wrong stays in view: the quote's start, and how long it was.
    """

    def cut(match: re.Match[str]) -> str:
        quote, text = match.group()[0], match.group()[1:-1]
        return f"{quote}{text[: QUOTE_LIMIT - 3]}...{quote} ({len(text)} characters)"

    message = _QUOTED.sub(cut, message)
    if len(message) > 4 * QUOTE_LIMIT:  # an unquoted flood: keep the start, which says what failed
        message = message[: 4 * QUOTE_LIMIT - 3] + "..."
    return message


if __name__ == "__main__":
    sys.exit(main())
