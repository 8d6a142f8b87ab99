"""The show: one test per rule of the rule texts, the golden hands, and the spoken count."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.cards import Card, full_deck, parse_cards
from companion.rules import IllegalHand, Kind, ScoreItem, score_hand, spoken_count

DATA = Path(__file__).parents[1] / "data"


def _golden_hands() -> list[tuple[str, tuple[Card, ...], Card, bool, int]]:
    cases = []
    for line in (DATA / "hands.txt").read_text(encoding="utf-8").splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        crib = line.startswith("crib:")
        cards, total = line.removeprefix("crib:").split("->")
        hand, starter = cards.split("|")
        cases.append((line, parse_cards(hand), Card.parse(starter), crib, int(total)))
    return cases


GOLDEN = _golden_hands()


@pytest.mark.parametrize(("line", "hand", "starter", "crib", "total"), GOLDEN, ids=[c[0] for c in GOLDEN])
def test_golden_hand(line: str, hand: tuple[Card, ...], starter: Card, crib: bool, total: int) -> None:
    result = score_hand(hand, starter, crib=crib)
    assert result.total == total
    assert sum(item.points for item in result.items) == total


def score(text: str, *, crib: bool = False) -> tuple[int, dict[Kind, list[tuple[str, ...]]]]:
    *hand, starter = parse_cards(text)
    result = score_hand(hand, starter, crib=crib)
    kinds: dict[Kind, list[tuple[str, ...]]] = {}
    for item in result.items:
        kinds.setdefault(item.kind, []).append(tuple(sorted(map(str, item.cards))))
    return result.total, kinds


def test_fifteen_scores_two_for_every_combination_adding_to_fifteen() -> None:
    total, kinds = score("5h 10d Js Kc 2d")
    assert sorted(kinds[Kind.FIFTEEN]) == [("10d", "5h"), ("5h", "Js"), ("5h", "Kc")]
    assert total == 6


def test_pair_scores_two_and_pair_royal_six_and_double_pair_royal_twelve() -> None:
    assert score("9h 9d 3s 7c Kd")[0] == 2
    assert score("9h 9d 9s 3c Kd")[0] == 6
    assert score("9h 9d 9s 9c Kd")[0] == 12


def test_run_scores_one_per_card_and_only_the_longest_counts() -> None:
    total, kinds = score("9h 10d Js Qc 2d")
    assert kinds[Kind.RUN] == [("10d", "9h", "Js", "Qc")]
    assert total == 4


def test_run_of_five() -> None:
    total, kinds = score("9h 10d Js Qc Kd")
    assert kinds[Kind.RUN] == [("10d", "9h", "Js", "Kd", "Qc")]
    assert total == 5


def test_ace_is_low_so_queen_king_ace_is_no_run() -> None:
    assert Kind.RUN not in score("Qh Kd Ac 7s 4d")[1]
    assert Kind.RUN in score("Ah 2d 3c 7s 9d")[1]


def test_double_run_counts_each_run_of_three() -> None:
    total, kinds = score("7h 8d 8s Kc 9c")  # the primary text's example
    assert len(kinds[Kind.RUN]) == 2
    assert total == 12


def test_triple_run_is_fifteen_and_quadruple_run_sixteen() -> None:
    assert score("8h 9d 9s 9c 10d")[0] == 15
    assert score("8h 8d 9s 9c 10d")[0] == 16


def test_double_run_of_four_is_ten() -> None:
    total, kinds = score("7h 8d 9s 10c 10d")
    assert len(kinds[Kind.RUN]) == 2 and all(len(r) == 4 for r in kinds[Kind.RUN])
    assert total == 4 + 4 + 2 + 2  # two runs of four, a pair of tens, and 7 + 8


def test_flush_of_four_in_the_hand_counts_four() -> None:
    total, kinds = score("2h 4h 6h 8h Kc")
    assert kinds[Kind.FLUSH] == [("2h", "4h", "6h", "8h")]
    assert total == 4


def test_flush_of_five_counts_five_in_hand_and_crib() -> None:
    assert score("2h 4h 6h 8h Qh")[0] == 5
    assert score("2h 4h 6h 8h Qh", crib=True)[0] == 5


def test_crib_flush_needs_all_five_cards() -> None:
    assert score("2h 4h 6h 8h Kc", crib=True)[0] == 0


def test_three_hand_cards_and_the_starter_make_no_flush() -> None:
    assert Kind.FLUSH not in score("2h 4h 6h 8c Kh")[1]


def test_nobs_is_the_jack_of_the_starters_suit_in_the_hand() -> None:
    total, kinds = score("Jh 2c 4d 8s Kh")
    assert kinds[Kind.NOBS] == [("Jh",)]
    assert total == 1


def test_a_jack_of_another_suit_is_not_nobs() -> None:
    assert Kind.NOBS not in score("Jc 2c 4d 8s Kh")[1]


def test_starter_jack_is_his_heels_never_nobs() -> None:
    total, kinds = score("2c 4d 8s Kh Jh")
    assert Kind.NOBS not in kinds
    assert total == 0


def test_nobs_counts_in_the_crib() -> None:
    assert score("Jh 2c 4d 8s Kh", crib=True)[0] == 1


def test_the_29_hand() -> None:
    total, kinds = score("5h 5d 5s Jc 5c")
    assert total == 29
    assert len(kinds[Kind.FIFTEEN]) == 8
    assert len(kinds[Kind.PAIR]) == 6
    assert kinds[Kind.NOBS] == [("Jc",)]


def test_every_29_hand_is_three_fives_and_the_jack_with_the_fifth_five_as_starter() -> None:
    fives = [c for c in full_deck() if c.rank.text == "5"]
    found = []
    for starter in fives:
        jack = Card.parse("J" + starter.suit.value)
        hand = [c for c in fives if c != starter] + [jack]
        found.append(score_hand(hand, starter).total)
    assert found == [29, 29, 29, 29]


def test_three_card_hands_for_five_card_cribbage() -> None:
    result = score_hand(parse_cards("5h 5d Jc"), Card.parse("5c"))
    assert result.total == 15


def test_three_card_flush_counts_three_in_five_card_cribbage() -> None:
    assert score_hand(parse_cards("2h 4h 8h"), Card.parse("Kc")).total == 3


@pytest.mark.parametrize(
    ("cards", "message"),
    [("5h 5d 5s", "not 2"), ("5h 5d 5s Jc 6c 5c", "not 5")],
)
def test_wrong_number_of_cards_is_refused(cards: str, message: str) -> None:
    *hand, starter = parse_cards(cards)
    with pytest.raises(IllegalHand, match=message):
        score_hand(hand, starter)


def test_a_card_twice_is_refused() -> None:
    with pytest.raises(IllegalHand, match="twice"):
        score_hand(parse_cards("5h 5d 5s 5h"), Card.parse("Jc"))
    with pytest.raises(IllegalHand, match="twice"):
        score_hand(parse_cards("5h 5d 5s Jc"), Card.parse("5h"))


def test_a_crib_has_four_cards() -> None:
    with pytest.raises(IllegalHand, match="crib has 4 cards"):
        score_hand(parse_cards("5h 5d 5s"), Card.parse("Jc"), crib=True)


# -- the spoken count --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("cards", "said"),
    [
        (
            "7h 8d 8s Kc 9c",
            "fifteen two, fifteen four, and a double run of three is twelve",
        ),
        ("5h 10s 5d 4c 8c", "fifteen two, fifteen four, and a pair of fives is six"),
        ("2h 4h 6h 8h Kc", "a flush of four is four"),
        ("Jh 2c 4d 8s Kh", "one for his nobs"),
        ("9h 9d 9s 4c Kd", "a pair royal of nines is six"),
        ("2c 4d 8s Kh Qd", "nineteen: nothing to count"),
    ],
)
def test_the_count_is_said_as_a_player_says_it(cards: str, said: str) -> None:
    *hand, starter = parse_cards(cards)
    assert score_hand(hand, starter).explain() == said


def test_the_spoken_count_ends_on_the_total() -> None:
    result = score_hand(parse_cards("5h 5d 5s Jc"), Card.parse("5c"))
    assert result.explain().endswith("is twenty-nine")


def test_spoken_count_of_single_items() -> None:
    a, b = parse_cards("5h 10s")
    assert spoken_count([ScoreItem(Kind.FIFTEEN, (a, b), 2)]) == "fifteen two"


def test_json_form_has_items_total_and_explanation() -> None:
    result = score_hand(parse_cards("5h 5d 5s Jc"), Card.parse("5c"))
    data = result.to_dict()
    assert data["total"] == 29
    assert data["starter"] == "5c"
    items = data["items"]
    assert isinstance(items, list) and len(items) == 15
    assert items[-1] == {"kind": "nobs", "cards": ["Jc"], "points": 1}


# -- properties --------------------------------------------------------------------------------

five_cards = st.lists(st.sampled_from(full_deck()), min_size=5, max_size=5, unique=True)


@given(five_cards, st.randoms(use_true_random=False), st.booleans())
def test_the_order_of_the_hand_does_not_change_its_score(cards: list[Card], rnd: object, crib: bool) -> None:
    hand, starter = cards[:4], cards[4]
    shuffled = list(hand)
    rnd.shuffle(shuffled)  # type: ignore[attr-defined]
    assert score_hand(shuffled, starter, crib=crib).total == score_hand(hand, starter, crib=crib).total


@given(five_cards, st.booleans())
def test_the_total_is_the_sum_of_the_items(cards: list[Card], crib: bool) -> None:
    result = score_hand(cards[:4], cards[4], crib=crib)
    assert result.total == sum(item.points for item in result.items)
    assert 0 <= result.total <= 29 and result.total not in (19, 25, 26, 27)


@given(five_cards)
def test_items_only_name_cards_of_the_hand_and_starter(cards: list[Card]) -> None:
    result = score_hand(cards[:4], cards[4])
    for item in result.items:
        assert set(item.cards) <= set(cards)
        if item.kind is Kind.FIFTEEN:
            assert sum(c.pips for c in item.cards) == 15
        if item.kind is Kind.PAIR:
            assert item.cards[0].rank is item.cards[1].rank


@given(five_cards)
def test_the_crib_never_scores_more_than_the_hand(cards: list[Card]) -> None:
    hand = score_hand(cards[:4], cards[4]).total
    crib = score_hand(cards[:4], cards[4], crib=True).total
    assert crib in (hand, hand - 4)
