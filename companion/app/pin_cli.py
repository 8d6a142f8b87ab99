"""``crib pin``: show the scoreboard's PIN, or replace it with ``--rotate``.

The PIN lives in ``scoreboard-pin`` in the state folder, beside the game database: the folder of
``--db``, else of the settings' ``[store] path`` (``--config``), else ``~/.local/share/crib``.  Run it as
the user the companion runs as (on the Pi: ``sudo -u crib /opt/crib/venv/bin/crib pin --config
/etc/crib/crib.toml``).  A PIN set in the settings file (``[table] pin``) wins over the kept one, and this
command says so.  A rotated PIN takes effect at the scoreboard's next try, without a restart.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

__all__ = ["register", "run_pin", "state_folder"]

DEFAULT_STATE = Path.home() / ".local" / "share" / "crib"


def register(subparsers: Any) -> None:
    """Add ``crib pin``."""
    command = subparsers.add_parser(
        "pin",
        help="show the scoreboard's PIN (or make a new one with --rotate)",
        description="Show the PIN that changes on the scoreboard need, kept (mode 0600) in the state "
        "folder beside the game database; --rotate replaces it with a fresh random one.",
    )
    command.add_argument("--rotate", action="store_true", help="replace the PIN with a new random one")
    command.add_argument("--config", metavar="FILE", help="the settings file (its [store] path's folder)")
    command.add_argument("--db", metavar="FILE", help="the game database (the PIN is kept beside it)")
    command.set_defaults(func=run_pin)


def state_folder(db: str | None, store_path: str | None) -> Path:
    """Where the PIN is kept: beside ``--db``, else beside the settings' database, else the default."""
    if db:
        return Path(db).resolve().parent
    if store_path and store_path != "crib.db":
        return Path(store_path).resolve().parent
    return DEFAULT_STATE


def run_pin(args: argparse.Namespace) -> int:
    from companion.app.config import load_config
    from companion.web.pin import PinFile

    config = load_config(args.config)
    pins = PinFile(state_folder(args.db, config.db_path))
    pin = pins.rotate() if args.rotate else pins.current()
    told = "new PIN" if args.rotate else "PIN"
    print(f"{told} {pin} (kept in {pins.path})")
    if config.pin is not None:
        print(f"note: {args.config} sets pin = {config.pin!r}, which the scoreboard uses instead")
    return 0
