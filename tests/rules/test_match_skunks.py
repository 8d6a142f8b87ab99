"""Skunks in a match.

Quick guide: "If the loser has not reached 91 points the victor scores a skunk, or double win."  The
American text: a skunk "won a double game"; "if the loser has fewer than 61 points -- it's a double
skunk".  The rules' README: whether a skunk counts double in a match is a house rule, double by default.
"""

from __future__ import annotations

import io
import random
from dataclasses import replace

from companion.rules.game import Game, Settings
from companion.rules.notation import load_game, read_game, write_game
from companion.rules.simulate import random_game


def skunked_match(skunk_double_win: bool = True) -> Game:
    """A best-of-three match whose first game is a skunk (seed 8 deals one)."""
    return random_game(
        random.Random(8), Settings(match_games=3, skunk_double_win=skunk_double_win), match=True
    )


def test_a_skunk_is_a_double_win_in_a_match() -> None:
    game = skunked_match()
    first = game.games[0]
    assert first.skunk == "skunk"
    # Two games won at once: the best-of-three match is decided by the skunk alone.
    assert len(game.games) == 1
    assert game.match_wins[first.winner] == 2
    assert game.match_winner == first.winner
    assert not game.can_next_game()


def test_with_single_skunks_a_skunk_counts_one_game() -> None:
    game = skunked_match(skunk_double_win=False)
    first = game.games[0]
    assert first.skunk == "skunk"
    assert len(game.games) >= 2
    assert game.match_wins[first.winner] >= 1 and sum(game.match_wins) == len(game.games)


def test_the_skunk_rule_of_a_match_round_trips_through_a_game_file() -> None:
    game = skunked_match(skunk_double_win=False)
    text = io.StringIO()
    write_game(game, text)
    assert "skunk-wins single" in text.getvalue().splitlines()
    assert load_game(text.getvalue().splitlines()).log == game.log


def test_skunk_none_means_no_double_skunk() -> None:
    settings = read_game(["skunk 91 none"]).settings
    assert settings.skunk == (91, None)
    # A loser under 61 is only skunked at this table (the seed deals a 121 to 60 game).
    game = random_game(random.Random(159), replace(settings, match_games=1))
    assert min(game.scores) < 61
    assert game.skunk == "skunk"
    text = io.StringIO()
    write_game(game, text)
    assert "skunk 91 none" in text.getvalue().splitlines()
    assert Settings.from_dict(settings.to_dict()).skunk == (91, None)


def test_the_double_skunk_line_stays_61_when_only_the_skunk_line_is_given() -> None:
    assert read_game(["skunk 95"]).settings.skunk == (95, 61)
    text = io.StringIO()
    write_game(Game(read_game(["skunk 95"]).settings), text)
    assert "skunk 95" in text.getvalue().splitlines()


def test_a_game_shorter_than_thirty_points_has_no_skunk() -> None:
    """The skunk line is 30 holes short of the target ("skunk (< 91)" in a game to 121); in a game to
    fewer than 30 that is before the start, so nobody is skunked, and the settings still save."""
    settings = Settings(target=7)
    assert settings.skunk == (0, None)
    assert Settings.from_dict(settings.to_dict()).skunk == (0, None)
    game = random_game(random.Random(3), replace(settings, match_games=1))
    assert game.over and game.skunk is None
