"""A power cut while the crib's fourth card is seen: the card and the crib's count reach the journal in
one transaction, so a restart never counts the crib under an earlier event's place in the recording."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from types import TracebackType

import pytest

from companion.app import store
from companion.app.simulate import script_game
from companion.app.store import Journal
from companion.app.table import Table
from companion.events import CardLanded

from .helpers import config


class PowerCut(BaseException):
    """The process dies right after a commit (nothing after it runs)."""


def _crib_count_rows(db: Path) -> list[tuple[str, int | None]]:
    with sqlite3.connect(db) as conn:
        rows = conn.execute("SELECT line, cursor FROM actions WHERE line LIKE 'count % crib %'").fetchall()
    return [(str(line), cursor) for line, cursor in rows]


@pytest.mark.parametrize("after_write", [1, 2, 3])
def test_a_cut_while_the_fourth_crib_card_is_seen_resumes_as_if_uncut(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, after_write: int
) -> None:
    recording = script_game(11, mode="auto")
    events = recording.events
    crib = [i for i, e in enumerate(events) if isinstance(e, CardLanded) and e.zone == "crib"]
    fourth = crib[3]  # the first deal's crib is whole with this event

    whole = Table(Journal(tmp_path / "whole.db"), config("auto"))
    for index, event in enumerate(events):
        whole.handle(event, cursor=index)
    assert tuple(whole.game.scores) == recording.final
    expected = _crib_count_rows(tmp_path / "whole.db")
    assert expected[0][1] == fourth  # the count is the fourth card's doing

    db = tmp_path / "cut.db"
    table = Table(Journal(db), config("auto"))
    for index in range(fourth):
        table.handle(events[index], cursor=index)
    commits = 0
    commit = store._Transaction.__exit__

    def cut_after_commit(
        self: store._Transaction,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        nonlocal commits
        commit(self, kind, error, trace)
        commits += 1
        if kind is None and commits == after_write:
            raise PowerCut

    monkeypatch.setattr(store._Transaction, "__exit__", cut_after_commit)
    with pytest.raises(PowerCut) if after_write <= 1 else _maybe_cut():
        table.handle(events[fourth], cursor=fourth)
    monkeypatch.setattr(store._Transaction, "__exit__", commit)
    table.journal.close()

    again = Table(Journal(db), config("auto"))
    for index in range(again.cursor + 1, len(events)):
        again.handle(events[index], cursor=index)
    assert tuple(again.game.scores) == recording.final
    assert _crib_count_rows(db) == expected


class _maybe_cut:
    """A later write may or may not happen during the event (a finished game is recorded): either way."""

    def __enter__(self) -> None:
        return None

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> bool:
        return kind is None or issubclass(kind, PowerCut)
