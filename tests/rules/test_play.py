"""The play: golden sequences from the rule texts, one test per rule, and properties of random plays."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.cards import Card, full_deck, parse_cards
from companion.rules import IllegalPlay, Kind, Pegging, pegging_items

DATA = Path(__file__).parents[1] / "data"


def _golden_plays() -> list[tuple[str, list[tuple[int, Card | None]], list[int], list[int]]]:
    cases = []
    for line in (DATA / "plays.txt").read_text(encoding="utf-8").splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        actions_text, rest = line.split("->")
        points_text, totals_text = rest.split("=>")
        actions: list[tuple[int, Card | None]] = []
        for token in actions_text.split():
            player, what = token.split(":")
            actions.append((int(player), None if what == "go" else Card.parse(what)))
        points = [int(p) for p in points_text.split()]
        cases.append((line, actions, points, [int(t) for t in totals_text.split()]))
    return cases


GOLDEN = _golden_plays()


@pytest.mark.parametrize(("line", "actions", "points", "totals"), GOLDEN, ids=[c[0] for c in GOLDEN])
def test_golden_play(
    line: str, actions: list[tuple[int, Card | None]], points: list[int], totals: list[int]
) -> None:
    players = max(p for p, _ in actions) + 1
    sizes = [sum(1 for p, c in actions if p == player and c is not None) for player in range(players)]
    pegging = Pegging(players, actions[0][0], hand_size=sizes)
    pegged = []
    for player, card in actions:
        peg = pegging.go(player) if card is None else pegging.play(player, card)
        pegged.append(peg.total)
        assert 0 <= pegging.count <= 31
    assert pegged == points
    assert pegging.points == totals
    assert pegging.done


def lay(cards: str, *, players: int = 2) -> list[int]:
    """Lay the cards in turn (no go) with ample hands and return what each card pegged."""
    pegging = Pegging(players, 0, hand_size=8)
    out = []
    for card in parse_cards(cards):
        out.append(pegging.play(pegging.turn, card).total)
    return out


def kinds_of(cards: str) -> list[Kind]:
    return [item.kind for item in pegging_items(list(parse_cards(cards)))]


def test_fifteen_for_two() -> None:
    assert lay("8h 7d") == [0, 2]
    assert kinds_of("8h 7d") == [Kind.FIFTEEN]


def test_thirty_one_for_two() -> None:
    assert lay("Kh Qd 5s 6c") == [0, 0, 0, 2]
    assert kinds_of("Kh Qd 5s 6c") == [Kind.THIRTY_ONE]


def test_pair_pair_royal_and_double_pair_royal() -> None:
    assert lay("7h 7d 7s 7c") == [0, 2, 6, 12]
    assert kinds_of("7h 7d") == [Kind.PAIR]
    assert kinds_of("7h 7d 7s") == [Kind.PAIR_ROYAL]
    assert kinds_of("7h 7d 7s 7c") == [Kind.DOUBLE_PAIR_ROYAL]


def test_a_pair_only_counts_for_cards_laid_in_immediate_succession() -> None:
    assert lay("7h 2d 7s") == [0, 0, 0]


def test_runs_count_in_any_order() -> None:
    assert lay("6h 8d 7s") == [0, 0, 3]
    assert lay("4h 2d 3s 5c 6h") == [0, 0, 3, 4, 5]


def test_a_run_is_broken_by_an_intervening_card() -> None:
    assert lay("4h 2d 3s 4c 3h") == [0, 0, 3, 3, 0]


def test_a_run_is_found_after_a_repeated_rank() -> None:
    assert lay("3h 3d 4s 5c") == [0, 2, 0, 5]


def test_ace_is_low_in_play_runs() -> None:
    assert lay("Qh Kd Ac") == [0, 0, 0]
    assert lay("2h Ad 3c") == [0, 0, 3]


def test_a_card_past_31_is_refused_and_changes_nothing() -> None:
    pegging = Pegging(2, 0)
    for player, card in ((0, "Kh"), (1, "Qd"), (0, "8c")):
        pegging.play(player, Card.parse(card))
    with pytest.raises(IllegalPlay, match="past 31"):
        pegging.play(1, Card.parse("4s"))
    assert pegging.count == 28 and pegging.turn == 1 and pegging.points == [0, 0]


def test_a_card_out_of_turn_is_refused() -> None:
    pegging = Pegging(2, 1)
    with pytest.raises(IllegalPlay, match="turn"):
        pegging.play(0, Card.parse("5h"))


def test_a_card_already_played_is_refused() -> None:
    pegging = Pegging(2, 0)
    pegging.play(0, Card.parse("5h"))
    with pytest.raises(IllegalPlay, match="already been played"):
        pegging.play(1, Card.parse("5h"))


def test_a_card_not_held_is_refused_when_hands_are_known() -> None:
    pegging = Pegging(2, 0, hands=[parse_cards("5h 6h 7h 8h"), parse_cards("5d 6d 7d 8d")])
    with pytest.raises(IllegalPlay, match="does not hold"):
        pegging.play(0, Card.parse("5d"))


def test_go_is_refused_while_a_card_still_fits() -> None:
    pegging = Pegging(2, 0, hands=[parse_cards("Kh Qh 7h 8h"), parse_cards("Kd Qd Ad 8d")])
    pegging.play(0, Card.parse("Kh"))
    pegging.play(1, Card.parse("Kd"))
    pegging.play(0, Card.parse("8h"))
    with pytest.raises(IllegalPlay, match="Ad fits"):
        pegging.go(1)


def test_nobody_says_go_at_the_start_of_a_count() -> None:
    with pytest.raises(IllegalPlay, match="start of a count"):
        Pegging(2, 0).go(0)


def test_one_for_last_goes_to_the_last_player_to_lay() -> None:
    pegging = Pegging(2, 0, hands=[parse_cards("Kh Jc 9h 2h"), parse_cards("Qd 9s 9c 8c")])
    pegging.play(0, Card.parse("Kh"))
    pegging.play(1, Card.parse("Qd"))
    pegging.play(0, Card.parse("Jc"))
    assert pegging.go(1).total == 0
    closing = pegging.go(0)
    assert closing.scorer == 0
    assert [item.kind for item in closing.items] == [Kind.LAST_CARD]
    assert pegging.count == 0
    assert pegging.turn == 1  # the opponent of the last to lay leads the next count


def test_a_player_out_of_cards_is_passed_over() -> None:
    pegging = Pegging(2, 0, hand_size=[1, 3])
    pegging.play(0, Card.parse("2h"))
    assert pegging.turn == 1
    pegging.play(1, Card.parse("3h"))
    assert pegging.turn == 1
    assert pegging.play(1, Card.parse("4h")).total == 3  # the run 2-3-4


def test_four_players_rotate_and_skip_a_player_who_said_go() -> None:
    pegging = Pegging(4, 1, hand_size=5)
    for player, card in ((1, "Kh"), (2, "Qd"), (3, "5c")):
        pegging.play(player, Card.parse(card))
    pegging.go(0)
    assert pegging.turn == 1
    pegging.play(1, Card.parse("Ac"))
    assert pegging.turn == 2


# -- properties ---------------------------------------------------------------------------------


def play_out(seed: int, players: int) -> tuple[Pegging, list[list[Card]], int]:
    """A whole play with random legal choices; returns the engine, the hands and the leader."""
    rnd = random.Random(seed)
    size = 4 if players == 2 else 5 if players == 3 else 4
    deck = list(full_deck())
    rnd.shuffle(deck)
    hands = [deck[i * size : (i + 1) * size] for i in range(players)]
    leader = rnd.randrange(players)
    pegging = Pegging(players, leader, hand_size=size, hands=hands)
    held = [list(h) for h in hands]
    while not pegging.done:
        player = pegging.turn
        fits = [c for c in held[player] if pegging.count + c.pips <= 31]
        if fits:
            card = rnd.choice(fits)
            held[player].remove(card)
            peg = pegging.play(player, card)
            assert peg.count <= 31
        else:
            peg = pegging.go(player)
        assert peg.total == sum(item.points for item in peg.items)
    return pegging, hands, leader


@settings(max_examples=300)
@given(st.integers(0, 2**32), st.sampled_from([2, 3, 4]))
def test_random_plays_never_pass_31_and_points_match_items(seed: int, players: int) -> None:
    pegging, hands, _ = play_out(seed, players)
    assert sorted(c for _, c in pegging.played) == sorted(c for h in hands for c in h)
    scored = [0] * players
    for peg in pegging.history:
        scored[peg.scorer] += peg.total
        assert 0 < peg.count <= 31 or peg.card is None
    assert scored == pegging.points


@settings(max_examples=300)
@given(st.integers(0, 2**32))
def test_the_dealer_always_pegs_at_least_one_in_the_two_player_play(seed: int) -> None:
    pegging, _, leader = play_out(seed, 2)
    dealer = 1 - leader
    assert pegging.points[dealer] >= 1


@settings(max_examples=200)
@given(st.integers(0, 2**32))
def test_exactly_one_last_card_or_thirty_one_closes_every_count(seed: int) -> None:
    pegging, _, _ = play_out(seed, 2)
    closes = [
        peg
        for peg in pegging.history
        if any(item.kind in (Kind.LAST_CARD, Kind.THIRTY_ONE) for item in peg.items)
    ]
    for peg in closes:
        kinds = [item.kind for item in peg.items]
        assert not (Kind.LAST_CARD in kinds and Kind.THIRTY_ONE in kinds)
    assert closes and closes[-1] is [p for p in pegging.history if p.items][-1]


@pytest.mark.parametrize(
    ("cards", "calls"),
    [
        ("5h 5d 5s", ["five", "ten, a pair for two", "fifteen two, a pair royal for six"]),
        ("Kh Qd 5s 6c", ["ten", "twenty", "twenty-five", "thirty-one for two"]),
        ("6h 8d 7s", ["six", "fourteen", "twenty-one, a run of three for three"]),
    ],
)
def test_each_card_is_called_as_a_player_calls_it(cards: str, calls: list[str]) -> None:
    pegging = Pegging(2, 0, hand_size=4)
    said = [pegging.play(pegging.turn, card).explain() for card in parse_cards(cards)]
    assert said == calls


def test_the_last_card_of_the_play_is_called_one_for_last() -> None:
    pegging = Pegging(2, 0, hand_size=1)
    pegging.play(0, Card.parse("9h"))
    assert pegging.play(1, Card.parse("2d")).explain() == "eleven, one for last"
