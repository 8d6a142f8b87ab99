"""Players named as people name them: by name, or counted from 1, never "player 0"."""

from __future__ import annotations

from companion.rules.names import counted, named


def test_seats_are_said_with_the_players_names() -> None:
    names = ("Ann", "Bob", "Cal", "Dee")
    assert named("player 0 cannot say go: 5h fits under 31", names) == "Ann cannot say go: 5h fits under 31"
    assert (
        named("it is player 1's turn to play, not player 3's", names) == "it is Bob's turn to play, not Dee's"
    )
    assert named("players 0 and 2 win game 1", names) == "Ann and Cal win game 1"


def test_seats_nobody_named_are_counted_from_one() -> None:
    assert counted(3) == ("player 1", "player 2", "player 3")
    assert named("player 0 cut lowest and deals first", counted(2)) == "player 1 cut lowest and deals first"
    assert named("players 1 and 3 win", counted(4)) == "players 2 and 4 win"
    assert named("player 2 says go", ("Ann", "Bob")) == "player 3 says go"  # more seats than names


def test_only_whole_seat_numbers_are_named() -> None:
    assert (
        named("the players 10 points ahead; a player 01", ("Ann",))
        == "the players 10 points ahead; a player 01"
    )
