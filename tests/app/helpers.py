"""Shared helpers for the app tests: a table on a fresh journal, and feeding it events."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from companion.app.config import TableConfig
from companion.app.store import Journal
from companion.app.table import Table
from companion.events import CardLanded, Event

NAMES = ("Ann", "Bob")


def config(mode: str = "auto", **changes: object) -> TableConfig:
    settings: dict[str, object] = {"players": NAMES, "mode": mode, "games_to_win": 1, "pin": "1234"}
    return TableConfig(**(settings | changes))  # type: ignore[arg-type]


def table(path: Path | str = ":memory:", mode: str = "auto", **changes: object) -> Table:
    return Table(Journal(path), config(mode, **changes))


def feed(target: Table, events: Iterable[Event]) -> None:
    """Hand events to the table; any correction asked for, or refusal, fails the test at once."""
    for event in events:
        target.handle(event)
        assert target.correction is None, f"after {event}: {target.correction}"
        quiet = not target.notice or target.notice.startswith(("corrected", "undone"))
        assert quiet, f"after {event}: {target.notice}"


def lay(*pairs: str) -> list[Event]:
    """``lay("player1 10s", "player0 Kh")`` -> CardLanded events."""
    out: list[Event] = []
    for pair in pairs:
        zone, card = pair.split()
        out.append(CardLanded(card, zone))
    return out
