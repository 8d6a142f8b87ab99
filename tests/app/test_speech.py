"""Spoken call-outs: each score said as a player says it, by whatever speech command is installed."""

from __future__ import annotations

import sys
import time
from pathlib import Path

from companion.app.loop import GameLoop
from companion.app.speech import Speaker
from companion.events import CardLanded

from .helpers import lay, table


def test_every_score_is_said_in_order_with_the_players_name(tmp_path: Path) -> None:
    spoken = tmp_path / "spoken.txt"
    script = f"import sys; open({str(spoken)!r}, 'a').write(sys.argv[1] + '\\n')"
    speaker = Speaker([sys.executable, "-c", script])
    loop = GameLoop(table())
    loop.listeners.append(speaker)
    loop.step(lay("player0 Ah")[0])
    loop.step(lay("player1 Kd")[0])
    loop.step(CardLanded("Jc", "starter"))
    deadline = time.monotonic() + 10
    while not spoken.exists() and time.monotonic() < deadline:
        time.sleep(0.05)
    loop.step(lay("player1 10s")[0])
    loop.step(lay("player0 5h")[0])
    speaker.close()
    lines = spoken.read_text().splitlines()
    assert lines[0] == "Ann: two for his heels"
    assert lines[-1] == "Ann: fifteen two"


def test_the_show_is_said_with_the_run_combination_players_name(tmp_path: Path) -> None:
    # Ann deals, the starter is the 9 of clubs; Bob plays out 7-8-8-K, the primary rules text's hand:
    # two fifteens (7 + 8, twice), then two runs of three and a pair said as one double run (8).
    spoken = tmp_path / "spoken.txt"
    script = f"import sys; open({str(spoken)!r}, 'a').write(sys.argv[1] + '\\n')"
    speaker = Speaker([sys.executable, "-c", script])
    loop = GameLoop(table())
    loop.listeners.append(speaker)
    for event in [
        *lay("player0 Ah", "player1 Kd"),
        CardLanded("9c", "starter"),
        *lay("player1 Kc", "player0 2d", "player1 8d", "player0 3s", "player1 8s"),  # 31 for two
        *lay("player0 4c", "player1 7h", "player0 Ad"),  # one for last, then the show
    ]:
        loop.step(event)
    speaker.close()
    last = spoken.read_text().splitlines()[-1]
    assert "Bob: fifteen two, fifteen four, and a double run of three is twelve" in last.split("; ")
