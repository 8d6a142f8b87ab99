"""The journal: written before anything takes effect, read back exactly, finished games kept."""

from __future__ import annotations

import random
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from companion.app.simulate import script_game
from companion.app.store import GameSummary, Journal, SeatSummary

from .helpers import table


def test_actions_are_read_back_in_order_and_in_their_groups_after_reopening(tmp_path: Path) -> None:
    path = tmp_path / "table.db"
    with Journal(path) as journal:
        match = journal.begin_match({"mode": "auto"}, ["Ann", "Bob"])
        assert journal.append_group(match, ["cut 0 5h"]) == 0
        assert journal.append_group(match, ["cut 1 Kd"], cursor=4) == 1
        assert journal.append_group(match, ["go 1", "play 0 5s"], cursor=7) == 2
    with Journal(path) as again:
        saved = again.unfinished()
    assert saved is not None
    assert saved.id == match
    assert saved.players == ("Ann", "Bob")
    assert saved.settings == {"mode": "auto"}
    assert saved.groups == (("cut 0 5h",), ("cut 1 Kd",), ("go 1", "play 0 5s"))
    assert saved.actions == ("cut 0 5h", "cut 1 Kd", "go 1", "play 0 5s")
    assert saved.cursor == 7


def test_the_journal_is_committed_to_disk_in_wal_mode_with_full_sync(tmp_path: Path) -> None:
    path = tmp_path / "table.db"
    journal = Journal(path)
    match = journal.begin_match({}, ["Ann", "Bob"])
    journal.append_group(match, ["go 1"])
    # Another connection sees the row at once: it was committed, not left in an open transaction.
    other = sqlite3.connect(path)
    assert other.execute("SELECT COUNT(*) FROM actions").fetchone()[0] == 1
    assert other.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    other.close()
    assert journal._conn().execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL
    journal.close()
    journal.close()


def test_undo_removes_exactly_the_last_group(tmp_path: Path) -> None:
    with Journal(tmp_path / "t.db") as journal:
        match = journal.begin_match({}, ["Ann", "Bob"])
        journal.append_group(match, ["go 0"])
        journal.append_group(match, ["go 1", "play 0 5h"])
        assert journal.pop_group(match) == ("go 1", "play 0 5h")
        assert journal.append_group(match, ["play 1 9c"]) == 1
        assert journal.actions(match) == ("go 0", "play 1 9c")
        journal.pop_group(match)
        journal.pop_group(match)
        assert journal.pop_group(match) == ()
        with pytest.raises(ValueError, match="at least one action"):
            journal.append_group(match, [])


def test_a_new_match_abandons_the_unfinished_one(tmp_path: Path) -> None:
    with Journal(tmp_path / "t.db") as journal:
        first = journal.begin_match({}, ["Ann", "Bob"])
        journal.append_group(first, ["go 0"])
        second = journal.begin_match({}, ["Ann", "Bob"])
        saved = journal.unfinished()
        assert saved is not None and saved.id == second and saved.actions == ()
        journal.abandon(second)
        assert journal.unfinished() is None


def summary(number: int, winner: int, loser_score: int, skunk: int) -> GameSummary:
    # (score, hand points, hands, crib points, cribs, pegging points, deals)
    won = (121, 40, 5, 12, 3, 20, 5)
    lost = (loser_score, 30, 5, 8, 2, 15, 5)
    ann, bob = (won, lost) if winner == 0 else (lost, won)
    return GameSummary(number, winner, skunk, (SeatSummary("Ann", *ann), SeatSummary("Bob", *bob)))


def test_statistics_count_wins_skunks_matches_and_averages(tmp_path: Path) -> None:
    with Journal(tmp_path / "t.db") as journal:
        match = journal.begin_match({}, ["Ann", "Bob"])
        journal.record_games(match, [summary(1, 0, 80, 1)])
        journal.record_games(match, [summary(1, 0, 80, 1)])  # recording the same game again changes nothing
        journal.record_games(match, [summary(1, 0, 80, 1), summary(2, 1, 100, 0)])
        journal.record_games(match, [summary(1, 0, 80, 1), summary(2, 1, 100, 0), summary(3, 0, 50, 2)])
        assert journal.games_won(match) == (4, 1)  # Ann's two wins were skunks: two games each
        journal.finish_match(match, 0)
        assert journal.unfinished() is None
        stats = {s.name: s for s in journal.statistics()}
        history = journal.history()
    ann, bob = stats["Ann"], stats["Bob"]
    assert (ann.games, ann.wins, ann.skunks_given, ann.skunked, ann.matches_won) == (3, 2, 2, 0, 1)
    assert (bob.games, bob.wins, bob.skunks_given, bob.skunked, bob.matches_won) == (3, 1, 0, 2, 0)
    # Ann: hands 40+30+40 over 15 hands; cribs 12+8+12 over 8; pegging 20+15+20 over 15 deals.
    assert ann.average_hand == pytest.approx(110 / 15)
    assert ann.average_crib == pytest.approx(32 / 8)
    assert ann.average_pegging == pytest.approx(55 / 15)
    assert [h["game"] for h in history] == [3, 2, 1]
    assert history[0]["scores"] == [121, 50] and history[0]["skunk"] == 2


@pytest.mark.parametrize(("double", "won"), [(True, (3, 1)), (False, (2, 1))])
def test_a_skunk_counts_two_games_of_the_match_only_when_the_house_rule_says_so(
    tmp_path: Path, double: bool, won: tuple[int, int]
) -> None:
    with Journal(tmp_path / "t.db") as journal:
        match = journal.begin_match({"games_to_win": 3, "skunk_double_win": double}, ["Ann", "Bob"])
        journal.record_games(match, [summary(1, 0, 80, 1), summary(2, 1, 100, 0), summary(3, 0, 100, 0)])
        assert journal.games_won(match) == won


def test_undoing_a_winning_peg_takes_the_game_back_out_of_the_record(tmp_path: Path) -> None:
    with Journal(tmp_path / "t.db") as journal:
        match = journal.begin_match({}, ["Ann", "Bob"])
        journal.record_games(match, [summary(1, 0, 80, 1)])
        journal.record_games(match, [])
        assert journal.games_won(match) == (0, 0)
        assert journal.statistics() == []


def test_a_file_that_is_not_a_database_is_a_clear_error(tmp_path: Path) -> None:
    bad = tmp_path / "notes.db"
    bad.write_text("these are my notes, not a database " * 100)
    with pytest.raises(OSError, match="not a game database"):
        Journal(bad)


def test_a_missing_folder_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError, match=r"folder .* is missing"):
        Journal(tmp_path / "nowhere" / "t.db")


class _PowerCutAfterDelete:
    """A connection whose power goes right after the undo's DELETE runs, before anything is committed."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self._db = db

    def execute(self, sql: str, *args: object) -> sqlite3.Cursor:
        cursor = self._db.execute(sql, *args)
        if sql.lstrip().upper().startswith("DELETE"):
            raise OSError("the power went")
        return cursor


def test_an_undo_cut_short_between_its_statements_leaves_the_group_whole(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "t.db"
    with Journal(path) as journal:
        match = journal.begin_match({}, ["Ann", "Bob"])
        journal.append_group(match, ["go 0"])
        journal.append_group(match, ["go 1", "go 0", "play 1 5h"])
        original = Journal._pop_group
        monkeypatch.setattr(
            Journal, "_pop_group", staticmethod(lambda db, m: original(_PowerCutAfterDelete(db), m))
        )
        with pytest.raises(OSError, match="the power went"):
            journal.pop_group(match)
        monkeypatch.undo()
        assert journal.groups(match) == (("go 0",), ("go 1", "go 0", "play 1 5h"))
    with Journal(path) as again:
        assert again.groups(match) == (("go 0",), ("go 1", "go 0", "play 1 5h"))


_UNDOER = """
import sys
from companion.app.store import Journal
journal = Journal(sys.argv[1])
match = journal.begin_match({}, ["Ann", "Bob"])
n = 0
print("ready", flush=True)
while True:
    for size in (3, 5, 4):
        n += 1
        journal.append_group(match, [f"group {n} line {i} of {size}" for i in range(size)])
    for _ in range(3):
        journal.pop_group(match)
"""


def test_a_journal_killed_at_random_points_of_undo_holds_whole_groups_only(tmp_path: Path) -> None:
    """SIGKILL a real process that keeps writing and undoing groups: every group left is whole."""
    rng = random.Random(5)
    for run in range(4):
        path = tmp_path / f"killed{run}.db"
        child = subprocess.Popen(
            [sys.executable, "-c", _UNDOER, str(path)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        assert child.stdout is not None and child.stdout.readline().strip() == "ready"
        time.sleep(rng.uniform(0.05, 0.4))  # a random point: no event marks "mid-undo" from outside
        child.send_signal(signal.SIGKILL)
        child.communicate(timeout=30)
        with Journal(path) as journal:
            (match,) = journal.matches()
            groups = journal.groups(match)
        assert len(groups) <= 3
        for group in groups:
            size = int(group[0].rsplit(" ", 1)[1])
            assert len(group) == size, f"a group cut in half: {group}"
            assert group == tuple(f"{group[0].rsplit(' line', 1)[0]} line {i} of {size}" for i in range(size))


@pytest.mark.parametrize(("double", "counted"), [(True, 2), (False, 1)])
def test_the_journal_counts_a_skunk_in_a_match_as_the_engine_does(double: bool, counted: int) -> None:
    recording = script_game(2)  # a whole game won 121 to 81: a skunk
    assert min(recording.final) < 91
    played = table(games_to_win=3, skunk_double_win=double)
    for event in recording.events:
        played.handle(event)
    winner = recording.final.index(121)
    snapshot = played.game.snapshot()
    assert snapshot.skunk == "skunk" and snapshot.match_winner is None
    assert snapshot.match_wins[winner] == counted
    assert played.journal.games_won(played.match_id) == tuple(snapshot.match_wins)
