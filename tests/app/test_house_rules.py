"""House rules at the table: chosen in the settings file or on the scoreboard before a game, played by
the engine, and kept by the journal through an export and a restart.

The rules' README lists the options where the texts differ: who deals first in the later games of a
match, muggins on or off (and in the play), over-claims, the skunk and double-skunk lines (91 and 61 by
default) and whether a skunk is a double win in a match (it is, by default); and the game's length.
"""

from __future__ import annotations

import io
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from companion.app.config import TableConfig, config_from_mapping
from companion.app.export import export_match
from companion.app.simulate import script_game
from companion.app.store import Journal
from companion.app.table import Table
from companion.events import NewGame, event_from_dict, event_to_dict
from companion.rules.notation import read_game
from companion.rules.settings import FirstDeal, OverClaim, Settings
from companion.rules.simulate import random_game

REPO = Path(__file__).resolve().parents[2]

ACCEPTED: list[tuple[str, object, str, object]] = [
    # key, value in the file, what the engine is asked, what it should hold
    ("muggins", False, "muggins", False),
    ("muggins", True, "muggins", True),
    ("muggins_in_play", True, "muggins_in_play", True),
    ("over_claim", "opponent-takes", "over_claim", OverClaim.OPPONENT_TAKES),
    ("over_claim", "corrected", "over_claim", OverClaim.CORRECTED),
    ("target", 61, "game_target", 61),
    ("target", 181, "game_target", 181),
    ("skunk_line", 100, "skunk", (100, 61)),
    ("double_skunk_line", 51, "skunk", (91, 51)),
    ("double_skunk_line", "none", "skunk", (91, None)),
    ("double_skunk_line", 0, "skunk", (91, None)),
    ("skunk_double_win", False, "skunk_double_win", False),
    ("skunk_double_win", True, "skunk_double_win", True),
    ("first_deal", "loser", "first_deal", FirstDeal.LOSER),
    ("first_deal", "alternate", "first_deal", FirstDeal.ALTERNATE),
    ("games_to_win", 1, "match_games", 1),
    ("games_to_win", 3, "match_games", 5),
]


@pytest.mark.parametrize(("key", "value", "field", "held"), ACCEPTED)
def test_each_house_rule_in_the_settings_file_reaches_the_engine(
    key: str, value: object, field: str, held: object
) -> None:
    config = config_from_mapping({"table": {key: value}})
    assert getattr(config.settings(), field) == held


REFUSED: list[tuple[str, object, str]] = [
    ("muggins", "yes", "has the wrong type"),
    ("skunk_double_win", 1, "has the wrong type"),
    ("target", 0, "the target must be at least 1 point"),
    ("target", 1001, "the target must be at most 1000 points"),
    ("target", "121", "has the wrong type"),
    ("skunk_line", -1, "the skunk line must be from 0"),
    ("skunk_line", 130, "the skunk line, 130, must not be above the target, 121"),
    ("double_skunk_line", 95, "the double-skunk line must be from 0 to the skunk line, 91"),
    ("double_skunk_line", "never", "double_skunk_line is a whole number"),
    ("first_deal", "winner", "first_deal is 'alternate' or 'loser', not 'winner'"),
    ("over_claim", "penalty", "over_claim 'penalty' is not"),
    ("games_to_win", 6, "games_to_win must be 1 to 5"),
]


@pytest.mark.parametrize(("key", "value", "message"), REFUSED)
def test_a_bad_house_rule_in_the_settings_file_is_one_sentence(key: str, value: object, message: str) -> None:
    with pytest.raises(ValueError) as refused:
        config_from_mapping({"table": {key: value}}, "crib.toml")
    text = str(refused.value)
    assert message in text
    assert "\n" not in text and text.count(". ") == 0


def crib(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "companion", *args], capture_output=True, text=True, timeout=120, cwd=REPO
    )


def test_crib_play_stops_on_a_bad_house_rule_with_one_sentence(tmp_path: Path) -> None:
    bad = tmp_path / "crib.toml"
    bad.write_text('[table]\nfirst_deal = "winner"\n')
    done = crib("play", "--config", str(bad))
    assert done.returncode == 2
    assert "Traceback" not in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1
    assert "first_deal is 'alternate' or 'loser', not 'winner'" in done.stderr


def test_a_match_with_single_skunks_from_the_file_counts_a_skunk_as_one_game() -> None:
    # Seed 8 deals a skunk in the first game of a best of three: with the quick guide's double win the
    # match is over at once; at a table whose file says skunk_double_win = false it goes on.
    for double_win in (True, False):
        config = config_from_mapping({"table": {"skunk_double_win": double_win, "games_to_win": 2}})
        game = random_game(random.Random(8), config.settings(), match=True)
        first = game.games[0]
        assert first.skunk == "skunk"
        assert game.match_wins[first.winner] >= 1
        if double_win:
            assert len(game.games) == 1 and game.match_wins[first.winner] == 2
        else:
            assert len(game.games) >= 2 and sum(game.match_wins) == len(game.games)


def test_the_table_plays_the_file_s_house_rules(tmp_path: Path) -> None:
    config = TableConfig(
        target=61, skunk_line=40, double_skunk_line="none", first_deal="loser", muggins=False
    )
    with Journal(tmp_path / "t.db") as journal:
        table = Table(journal, config)
        settings = table.game.settings
        assert (settings.game_target, settings.skunk, settings.first_deal) == (
            61,
            (40, None),
            FirstDeal.LOSER,
        )
        assert not settings.muggins
        assert table.game.target == 61


CHOSEN: dict[str, Any] = {
    "target": 91,
    "match_games": 5,
    "muggins": True,
    "muggins_in_play": True,
    "over_claim": "opponent-takes",
    "skunk_line": 70,
    "double_skunk_line": "none",
    "skunk_double_win": False,
    "first_deal": "loser",
}


def _expected() -> Settings:
    return Settings(
        auto_show=True,
        target=91,
        match_games=5,
        muggins_in_play=True,
        over_claim=OverClaim.OPPONENT_TAKES,
        skunk_line=70,
        double_skunk_line=0,
        skunk_double_win=False,
        first_deal=FirstDeal.LOSER,
    )


def test_a_new_game_event_carries_its_house_rules_through_json() -> None:
    event = NewGame(tuple(CHOSEN.items()))
    assert event.chosen == CHOSEN
    assert event_from_dict(event_to_dict(event)) == event
    assert event_from_dict({"event": "new-game"}) == NewGame()


def test_house_rules_chosen_for_a_new_game_survive_an_export_and_a_restart(tmp_path: Path) -> None:
    config = TableConfig(players=("Ann", "Bob"))
    path = tmp_path / "t.db"
    with Journal(path) as journal:
        table = Table(journal, config)
        table.handle(NewGame(tuple(CHOSEN.items())))
        assert table.game.settings.to_dict() == _expected().to_dict()
        for event in script_game(9).events[:12]:  # a few cards of the new match
            table.handle(event)
        played = len(table.game.log)
        assert played > 0
        match_id = table.match_id
        # The game file written by ``crib export`` holds every option, and reads back the same.
        text = io.StringIO()
        export_match(journal, match_id, text)
        lines = text.getvalue().splitlines()
        for line in (
            "muggins play",
            "over-claim opponent-takes",
            "match 5 loser",
            "target 91",
            "skunk 70 none",
        ):
            assert line in lines
        assert "skunk-wins single" in lines
        assert read_game(lines).settings.to_dict() == _expected().to_dict()
    # The power comes back: the settings file says otherwise, but the match goes on as chosen.
    with Journal(path) as journal:
        resumed = Table(journal, config)
        assert resumed.match_id == match_id
        assert resumed.game.settings.to_dict() == _expected().to_dict()
        assert len(resumed.game.log) == played
    # ``crib export`` and ``crib replay`` take the match, with its house rules, from the database.
    game_file = tmp_path / "match.txt"
    exported = crib("export", str(path), "--match", str(match_id), "-o", str(game_file))
    assert exported.returncode == 0, exported.stderr
    assert "skunk 70 none" in game_file.read_text(encoding="utf-8").splitlines()
    replayed = crib("replay", str(game_file))
    assert replayed.returncode == 0, replayed.stderr
    with Journal(path) as journal:
        # A new game with nothing chosen goes back to the settings file's rules.
        again = Table(journal, config)
        again.handle(NewGame())
        assert again.match_id != match_id
        assert again.game.settings.to_dict() == config.settings().to_dict()


def test_house_rules_the_engine_refuses_leave_the_match_alone(tmp_path: Path) -> None:
    with Journal(tmp_path / "t.db") as journal:
        table = Table(journal, TableConfig())
        before = table.match_id
        table.handle(NewGame((("skunk_line", 130),)))
        assert table.match_id == before
        assert table.notice == "no new game: the skunk line, 130, must not be above the target, 121"
