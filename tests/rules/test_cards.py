"""Cards: parsing what people and programs write, one canonical text, a repr that parses back."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.cards import Card, InvalidCard, Rank, Suit, full_deck, parse_cards


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("5h", "5h"),
        ("5H", "5h"),
        ("10h", "10h"),
        ("10H", "10h"),
        ("Th", "10h"),
        ("th", "10h"),
        ("5♥", "5h"),
        ("10♦", "10d"),
        ("Qs", "Qs"),
        ("q♠", "Qs"),
        ("ac", "Ac"),
        ("KD", "Kd"),
        ("j♣", "Jc"),
        (" 7s ", "7s"),
    ],
)
def test_parse_accepts_common_spellings_and_prints_canonically(text: str, canonical: str) -> None:
    assert str(Card.parse(text)) == canonical


def test_pip_values_count_court_cards_as_ten_and_ace_as_one() -> None:
    pips = {str(card.rank.text): card.pips for card in full_deck()}
    assert pips == {
        "A": 1, "2": 2, "3": 3, "4": 4, "5": 5, "6": 6, "7": 7,
        "8": 8, "9": 9, "10": 10, "J": 10, "Q": 10, "K": 10,
    }  # fmt: skip


def test_run_order_is_ace_low_king_high() -> None:
    assert [Card.parse(t).order for t in ["Ac", "2c", "10c", "Jc", "Qc", "Kc"]] == [1, 2, 10, 11, 12, 13]


def test_deck_has_52_distinct_cards() -> None:
    deck = full_deck()
    assert len(deck) == 52
    assert len(set(deck)) == 52
    assert {c.suit for c in deck} == set(Suit)
    assert {c.rank for c in deck} == set(Rank)


def test_parse_cards_reads_spaces_and_commas() -> None:
    assert [str(c) for c in parse_cards("5h 5d 5s jc")] == ["5h", "5d", "5s", "Jc"]
    assert [str(c) for c in parse_cards("5h,5d, 10s ,th")] == ["5h", "5d", "10s", "10h"]
    assert [str(c) for c in parse_cards(["5h 5d", "Qs"])] == ["5h", "5d", "Qs"]


def test_parse_cards_keeps_duplicates_for_the_caller_to_judge() -> None:
    assert parse_cards("5h 5h") == (Card.parse("5h"), Card.parse("5h"))


@pytest.mark.parametrize("bad", ["", "5", "5x", "1h", "11h", "Zs", "10", "5hh", "hearts"])
def test_bad_text_names_the_token_and_what_is_allowed(bad: str) -> None:
    with pytest.raises(InvalidCard) as caught:
        Card.parse(bad)
    message = str(caught.value)
    assert repr(bad) in message
    assert "rank" in message and "suit" in message


def test_bad_token_in_a_list_is_named() -> None:
    with pytest.raises(InvalidCard, match="'5q'"):
        parse_cards("5h 5q 5s")


def test_invalid_card_is_a_value_error() -> None:
    assert issubclass(InvalidCard, ValueError)


def test_cards_are_frozen() -> None:
    card = Card.parse("5h")
    with pytest.raises(AttributeError):
        card.rank = Rank.SIX  # type: ignore[misc]


cards = st.sampled_from(full_deck())


@given(cards)
def test_str_parses_back_to_the_same_card(card: Card) -> None:
    assert Card.parse(str(card)) == card


@given(cards)
def test_repr_is_a_constructor_that_parses_back(card: Card) -> None:
    assert eval(repr(card), {"Card": Card}) == card


@given(cards, st.sampled_from(["lower", "upper", "symbol", "t"]))
def test_lenient_spellings_round_trip(card: Card, style: str) -> None:
    text = str(card)
    if style == "lower":
        text = text.lower()
    elif style == "upper":
        text = text.upper()
    elif style == "symbol":
        text = card.rank.text + card.suit.symbol
    elif card.rank is Rank.TEN:
        text = "T" + card.suit.value
    assert Card.parse(text) == card


@given(st.lists(cards, max_size=12))
def test_lists_round_trip(hand: list[Card]) -> None:
    assert list(parse_cards(" ".join(map(str, hand)))) == hand
    assert list(parse_cards(",".join(map(str, hand)))) == hand


@given(cards)
def test_index_is_dense_and_reversible(card: Card) -> None:
    assert Card.from_index(card.index) == card
    assert 0 <= card.index < 52
