"""The show said aloud with the run combinations players name.

The American rules text (``how-to-play-cribbage.txt``) names the combinations: a three-card run with a
card matching one of its cards is a "double run" of eight (8-9-9-10: two runs of three and a pair), a run
of four with a pair a double run of ten (two runs of four and a pair), a triple run fifteen (8-9-9-9-10:
three runs of three and a pair royal) and 8-8-9-9-10 sixteen (four runs of three and two pairs), which
players call a double double run.  Each expected text below is worked out by hand from those figures,
with the fifteens counted first and the running total said after each phrase, as the primary text counts
("Fifteen 2, fifteen 4, and a pair is 6 ...").
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from companion.cards import parse_cards
from companion.rules import Kind, score_hand


def said(cards: str, *, crib: bool = False) -> str:
    """The spoken count of a hand written with its starter last."""
    *hand, starter = parse_cards(cards)
    return score_hand(hand, starter, crib=crib).explain()


# -- each combination on its own (no fifteens among 8s, 9s, 10s and jacks) ----------------------


def test_a_run_of_three_with_one_card_paired_is_a_double_run_of_three_for_eight() -> None:
    assert said("8h 9d 9s 10c Kd") == "a double run of three is eight"  # 3 + 3 + 2


def test_a_run_of_four_with_one_card_paired_is_a_double_run_of_four_for_ten() -> None:
    assert said("8h 9d 9s 10c Jd") == "a double run of four is ten"  # 4 + 4 + 2


def test_a_run_of_three_with_one_card_held_three_times_is_a_triple_run_for_fifteen() -> None:
    assert said("8h 9d 9s 9c 10d") == "a triple run is fifteen"  # 3 * 3 + 6


def test_a_run_of_three_with_two_cards_paired_is_a_double_double_run_for_sixteen() -> None:
    assert said("8h 8d 9s 9c 10d") == "a double double run is sixteen"  # 4 * 3 + 2 + 2


def test_a_run_with_no_pair_is_still_just_a_run() -> None:
    assert said("8h 9d 10s Kc 2d") == "a run of three is three"


# -- fifteens are counted first, then the combination with the running total --------------------


def test_the_primary_texts_hand_is_fifteen_four_and_a_double_run_of_three_is_twelve() -> None:
    # 7-8-8-K with a 9: 7 + 8 twice, then 8 + 8 + 2 for the double run.
    assert said("7h 8d 8s Kc 9c") == "fifteen two, fifteen four, and a double run of three is twelve"


def test_fifteens_then_a_double_run_of_four() -> None:
    # 3-3-4-5-6: 4 + 5 + 6 and 3 + 3 + 4 + 5 are the fifteens; two runs of four and the pair of threes.
    assert said("3h 3d 4s 5c 6d") == "fifteen two, fifteen four, and a double run of four is fourteen"


def test_fifteens_then_a_triple_run() -> None:
    # 3-3-3-4-5: 3 + 3 + 4 + 5 with each two of the three threes (three fifteens), then 15.
    assert said("3h 3d 3s 4c 5d") == "fifteen two, fifteen four, fifteen six, and a triple run is twenty-one"


def test_fifteens_then_a_double_double_run() -> None:
    # 3-3-4-4-5: 3 + 3 + 4 + 5 with either four (two fifteens), then 16.
    assert said("3h 3d 4s 4c 5d") == "fifteen two, fifteen four, and a double double run is twenty"


def test_a_pair_outside_the_run_is_said_on_its_own_before_the_run() -> None:
    # 3-4-5 with two kings: 5 + K twice, the pair of kings, then the run alone.
    assert (
        said("3h 4d 5s Kc Kd")
        == "fifteen two, fifteen four, a pair of kings is six, and a run of three is nine"
    )


# -- the flush and his nobs come after the combination ---------------------------------------------


def test_a_flush_of_four_after_a_double_run_of_four() -> None:
    # 5-6-7-8 of hearts with the 5 of spades: 7 + 8, a double run of four (10), a flush of four (4).
    assert (
        said("5h 6h 7h 8h 5s")
        == "fifteen two, a double run of four is twelve, and a flush of four is sixteen"
    )


def test_his_nobs_after_a_double_run_of_three() -> None:
    # 9-10-10-J with the jack of the starter's suit: 8 for the double run, 1 for his nobs.
    assert said("9h 10d 10s Jc Kc") == "a double run of three is eight, and one for his nobs is nine"


def test_his_nobs_after_a_triple_run() -> None:
    assert said("9h 9d 9s Jc 10c") == "a triple run is fifteen, and one for his nobs is sixteen"


def test_his_nobs_after_a_double_double_run() -> None:
    assert said("9h 9d 10s Jc 10c") == "a double double run is sixteen, and one for his nobs is seventeen"


def test_the_crib_is_said_the_same_way() -> None:
    assert said("8h 8d 9s 9c 10d", crib=True) == "a double double run is sixteen"


def test_a_three_card_hand_of_five_card_cribbage_says_its_double_run() -> None:
    assert said("8h 9d 9s 10c") == "a double run of three is eight"


# -- the scoreboard still lists every pair and every run with its cards --------------------------


@pytest.mark.parametrize(
    ("cards", "runs", "pairs", "total"),
    [
        ("8h 9d 9s 10c Kd", 2, 1, 8),
        ("8h 9d 9s 10c Jd", 2, 1, 10),
        ("8h 9d 9s 9c 10d", 3, 3, 15),
        ("8h 8d 9s 9c 10d", 4, 2, 16),
    ],
)
def test_the_items_stay_one_per_run_and_one_per_pair(cards: str, runs: int, pairs: int, total: int) -> None:
    *hand, starter = parse_cards(cards)
    result = score_hand(hand, starter)
    kinds = [item.kind for item in result.items]
    assert kinds.count(Kind.RUN) == runs
    assert kinds.count(Kind.PAIR) == pairs
    assert sum(item.points for item in result.items) == result.total == total


def test_crib_score_prints_the_items_and_says_the_double_run() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "companion", "score", "7h", "8d", "8s", "Kc", "9c", "--json"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert data["explain"] == "fifteen two, fifteen four, and a double run of three is twelve"
    assert [item["kind"] for item in data["items"]] == ["fifteen", "fifteen", "pair", "run", "run"]
    assert data["total"] == 12
