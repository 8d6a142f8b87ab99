"""Whole games transcribed as game files (tests/data/games), replayed with the score asserted at every step.

Each file carries ``score`` lines worked out by hand from the rules texts; replaying checks every one
of them, so a file is its own golden test.  ``crib replay`` is exercised on the same files.
"""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from companion.cli import main
from companion.rules.game import Phase
from companion.rules.notation import (
    NotationError,
    ScoreCheck,
    format_action,
    load_game,
    parse_action,
    read_game,
    replay_lines,
    write_game,
)

GAMES = Path(__file__).resolve().parents[1] / "data" / "games"

#: file -> (final scores, winning track, number of score lines at least)
EXPECTED = {
    "six-card-whole-game.crib": ((115, 121), 1, 20),
    "five-card-to-61.crib": ((55, 61), 1, 20),
    "claims-and-muggins.crib": ((60, 61), 1, 15),
    "four-player-partners.crib": ((31, 26), 0, 10),
    "three-player.crib": ((11, 15, 6), 1, 10),
}


def test_every_golden_game_file_is_listed() -> None:
    assert sorted(p.name for p in GAMES.glob("*.crib")) == sorted(EXPECTED)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_golden_game_replays_with_the_score_asserted_at_every_step(name: str) -> None:
    scores, winner, checks = EXPECTED[name]
    with (GAMES / name).open(encoding="utf-8") as stream:
        record = read_game(stream, name)
    seen = 0
    game = None
    for _, entry, _, replayed in replay_lines(record):
        seen += isinstance(entry, ScoreCheck)
        game = replayed
    assert game is not None
    assert seen >= checks
    assert game.phase is Phase.GAME_OVER
    assert tuple(game.scores) == scores and game.winner == winner


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_golden_game_written_out_reads_back_to_the_same_log(name: str) -> None:
    with (GAMES / name).open(encoding="utf-8") as stream:
        game = load_game(stream, name)
    text = io.StringIO()
    write_game(game, text)
    again = load_game(io.StringIO(text.getvalue()))
    assert again.log == game.log


def test_a_wrong_score_line_is_reported_with_its_line_number() -> None:
    text = (GAMES / "six-card-whole-game.crib").read_text(encoding="utf-8")
    lines = text.splitlines()
    index = lines.index("score 3 16")
    lines[index] = "score 3 17"
    with pytest.raises(NotationError, match=rf"line {index + 1}: the score should be 3 17 but is 3 16"):
        load_game(lines, "bad.crib")


@pytest.mark.parametrize(
    ("line", "words"),
    [
        ("shuffle 0", "not an action"),
        ("play 0 5x", "no suit"),
        ("play x 5h", "not a player number"),
        ("play 0", "expected 'play PLAYER CARD'"),
        ("claim 0 hand lots", "not a number of points"),
        ("muggins maybe", "'on', 'off' or 'play'"),
        ("switch sometimes", "'auto' or 'claims'"),
        ("starter 5h 6h", "one card"),
    ],
)
def test_an_unreadable_line_is_a_notation_error_naming_the_line(line: str, words: str) -> None:
    with pytest.raises(NotationError, match=f"game line 3: .*{words}"):
        read_game(["variant six-card", "# a comment", line])


def test_settings_are_read_from_the_head_of_the_file() -> None:
    record = read_game(
        [
            "variant four-player",
            "counting claims",
            "muggins play",
            "over-claim opponent-takes",
            "target 61",
            "skunk 31 none",
            "match 3 loser",
            "muggins 1",
        ]
    )
    s = record.settings
    assert (s.variant.name, s.counting.value, s.muggins, s.muggins_in_play) == (
        "four-player",
        "claims",
        True,
        True,
    )
    assert (s.over_claim.value, s.game_target, s.skunk, s.first_deal.value) == (
        "opponent-takes",
        61,
        (31, None),
        "loser",
    )
    assert [format_action(e) for _, e in record.entries] == ["muggins 1"]


@pytest.mark.parametrize(
    "line",
    [
        "cut 0 7h",
        "deal 0 5h 5d 5s Jc 2c 3c",
        "deal 1",
        "deal crib",
        "deal crib Ks",
        "discard 1 5h 5d",
        "discard 0",
        "starter Jc",
        "play 1 5s",
        "go 0",
        "count 1 hand",
        "count 0 crib 2c 3c Qs Ks",
        "claim 1 hand 12",
        "claim 0 crib 8 2c 3c Qs Ks",
        "claim 1 play 2",
        "muggins 0",
        "pass",
        "switch claims",
        "next-game",
        "undo",
        "score 12 8",
    ],
)
def test_each_action_line_reads_and_writes_back_the_same(line: str) -> None:
    assert format_action(parse_action(line)) == line


# -- crib replay ------------------------------------------------------------------------------------
def test_crib_replay_prints_every_score_explained_and_the_final_scores(
    capsys: pytest.CaptureFixture[str],
) -> None:
    status = main(["replay", str(GAMES / "six-card-whole-game.crib")])
    out = capsys.readouterr().out
    assert status == 0
    # The file names no players: they are counted from 1, as people count them (the file's 0 is player 1).
    assert "player 1 shows their hand 5h 5d 5s Jc with 5c: fifteen two, fifteen four, fifteen six" in out
    assert "player 1 pegs 29 for the hand (3 -> 32)" in out
    assert "a double pair royal of fives is twenty-eight, and one for his nobs is twenty-nine" in out
    assert "player 2 lays 10h: twenty-nine, a run of three for three, one for last" in out
    assert "player 2 pegs 4 for the play (0 -> 4)" in out
    assert "player 2 pegs 5 for the hand (116 -> 121)" in out  # the winning peg stops in the game hole
    assert out.rstrip().endswith("final scores: player 1 115, player 2 121\nplayer 2 wins game 1")
    assert "player 0" not in out


def test_crib_replay_says_the_names_on_the_players_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = (GAMES / "six-card-whole-game.crib").read_text(encoding="utf-8")
    named = tmp_path / "named.crib"
    named.write_text("players Ann, Bob\n" + text, encoding="utf-8")
    assert main(["replay", str(named)]) == 0
    out = capsys.readouterr().out
    assert "Ann pegs 29 for the hand (3 -> 32)" in out
    assert out.rstrip().endswith("final scores: Ann 115, Bob 121\nBob wins game 1")
    assert "player" not in out


def test_a_players_line_must_name_every_seat() -> None:
    with pytest.raises(NotationError, match="names 3 players, but six-card cribbage has 2"):
        read_game(["players Ann, Bob, Cal", "cut 0 7h"])
    with pytest.raises(NotationError, match="line 1: expected 'players NAME, NAME"):
        read_game(["players Ann,, Bob"])
    assert read_game(["players Ann Smith, Bob"]).players == ("Ann Smith", "Bob")


def test_a_game_written_with_names_reads_back_with_them() -> None:
    game = load_game(["cut 0 Ac", "cut 1 Kc"])
    text = io.StringIO()
    write_game(game, text, players=("Ann", "Bob"))
    record = read_game(io.StringIO(text.getvalue()))
    assert record.players == ("Ann", "Bob")
    assert [entry for _, entry in record.entries] == [op.action for op in game.log]


def test_crib_replay_of_a_bad_file_is_one_line_naming_the_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = tmp_path / "bad.crib"
    bad.write_text("variant six-card\ncut 0 7h\ncut 1 7h\n", encoding="utf-8")
    status = main(["replay", str(bad)])
    captured = capsys.readouterr()
    assert status == 2
    assert captured.out == ""
    assert captured.err.count("\n") == 1
    assert "bad.crib line 3" in captured.err and "Traceback" not in captured.err


def test_crib_replay_names_partners_sharing_a_track(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", str(GAMES / "four-player-partners.crib")]) == 0
    out = capsys.readouterr().out
    assert "final scores: players 1 and 3 31, players 2 and 4 26\nplayers 1 and 3 win game 1" in out
    assert "players 1 and 3 peg 11 for the hand (20 -> 31)" in out


def test_crib_replay_json_ends_with_the_snapshot(capsys: pytest.CaptureFixture[str]) -> None:
    import json

    assert main(["replay", "--json", str(GAMES / "five-card-to-61.crib")]) == 0
    lines = capsys.readouterr().out.splitlines()
    final = json.loads(lines[-1])["final"]
    assert final["scores"] == [55, 61] and final["winner"] == 1 and final["phase"] == "game-over"
    assert json.loads(lines[0])["action"] == {"action": "cut", "player": 0, "card": "2s"}


def test_a_setting_after_the_first_action_is_refused() -> None:
    with pytest.raises(
        NotationError, match="game line 2: the setting 'target' must come before the first action"
    ):
        read_game(["cut 0 7h", "target 61"])


@pytest.mark.parametrize("variant", ["six-card", "five-card", "three-player", "four-player"])
def test_crib_simulate_writes_a_game_file_that_crib_replay_accepts(
    variant: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["simulate", "--seed", "11", "--variant", variant, "--claims", "--face-down"]) == 0
    text = capsys.readouterr().out
    path = tmp_path / "random.crib"
    path.write_text(text, encoding="utf-8")
    assert main(["replay", str(path)]) == 0
    out = capsys.readouterr().out
    assert "wins game 1" in out or "win game 1" in out
    game = load_game(io.StringIO(text))
    assert game.over and game.variant.name == variant


def test_crib_replay_reads_standard_input_when_given_a_dash(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    text = (GAMES / "three-player.crib").read_text(encoding="utf-8")
    monkeypatch.setattr("sys.stdin", io.StringIO(text))
    assert main(["replay", "-"]) == 0
    assert "final scores: player 1 11, player 2 15, player 3 6" in capsys.readouterr().out


def test_crib_replay_of_a_missing_file_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status = main(["replay", str(tmp_path / "nowhere.crib")])
    err = capsys.readouterr().err
    assert status != 0 and err.count("\n") == 1 and "nowhere.crib" in err
