"""Nothing lost: ``crib play`` killed (SIGKILL, a real process) at random points of a replayed game and
started again finishes with exactly what an uninterrupted run gives."""

from __future__ import annotations

import json
import os
import random
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from companion.app.simulate import script_game


def crib_play(db: Path, recording: Path) -> subprocess.Popen[str]:
    command = [sys.executable, "-m", "companion.cli", "play", "--once", "--no-serve", "--json", "--events"]
    command += ["--pace", "0.004", "--db", str(db), "--recording", str(recording)]
    return subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def journal(db: Path) -> list[tuple[int, str, int | None]]:
    with sqlite3.connect(db) as conn:
        rows = conn.execute("SELECT grp, line, cursor FROM actions ORDER BY match_id, seq").fetchall()
    return [(int(grp), str(line), cursor) for grp, line, cursor in rows]


def finished_games(db: Path) -> list[tuple[int, int, str]]:
    with sqlite3.connect(db) as conn:
        return [(w, s, sc) for w, s, sc in conn.execute("SELECT winner, skunk, scores FROM games")]


def result(output: str) -> dict[str, object]:
    lines = [json.loads(line) for line in output.splitlines() if line.strip()]
    return next(line for line in lines if "winner" in line)


@pytest.mark.parametrize(("seed", "mode"), [(11, "auto"), (6, "claims")])
def test_killed_at_random_points_and_restarted_it_finishes_the_same(
    tmp_path: Path, seed: int, mode: str
) -> None:
    recording = script_game(seed, mode=mode)
    path = tmp_path / "game.json"
    recording.save(path)

    whole = crib_play(tmp_path / "whole.db", path)
    out, err = whole.communicate(timeout=120)
    assert whole.returncode == 0, err
    expected = result(out)
    assert expected["scores"] == list(recording.final)

    rng = random.Random(seed)
    db = tmp_path / "killed.db"
    kills = 0
    for _attempt in range(12):
        process = crib_play(db, path)
        if kills < 4:
            time.sleep(rng.uniform(0.3, 1.6))
            if process.poll() is None:
                os.kill(process.pid, signal.SIGKILL)
                process.communicate(timeout=30)
                kills += 1
                continue
        out, err = process.communicate(timeout=120)
        assert process.returncode == 0, err
        break
    assert kills >= 2, "the game finished before it could be killed: make the replay slower"
    # The journal holds the same actions, in the same groups, as the uninterrupted run's...
    assert journal(db) == journal(tmp_path / "whole.db")
    # ...the game ended the same way, and it was recorded once.
    assert result(out) == expected
    assert finished_games(db) == finished_games(tmp_path / "whole.db")
    assert len(finished_games(db)) == 1
