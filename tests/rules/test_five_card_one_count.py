"""Two-handed five-card cribbage has one count in the play, not a fresh count after every go.

The rule, as ../shared/rules/README.md gives it from the Encyclopaedia Britannica (9th ed., "Cribbage"):

    "At the two-handed five-card game, when neither can come in the play is at an end": after the first
    go (or 31) the cards still held are not played; there is no second count.

The six-card game (the primary text, six-card-cribbage-pagat.txt) goes on instead: "if either player has
any cards left there is a further round".  The cards kept back are still part of the hand: the show
counts the three cards each player kept after throwing two to the crib.

Deals worked out by hand (dealer 0, the non-dealer 1 pegs three for last at the start of the game):

* **the go deal**: dealer 5h 5d 5s (throws 2c 3c), non-dealer 7h 8h 9h (throws Qs Ks), starter Ac.
  Pone 7h (7), dealer 5h (12), pone 8h (20), dealer 5d (25), pone go (9h would make 34), dealer 5s (30,
  a pair: 2; the dealer has no card left and the pone said go: one for the go, 1).  Neither can come
  in: the play is over with the 9h unplayed.  Show: pone 7h 8h 9h + Ac, fifteen two, a run of three, a
  flush of three: 8; dealer 5h 5d 5s + Ac, fifteen two and a pair royal: 8; crib 2c 3c Qs Ks + Ac, two
  fifteens and the run A-2-3: 7.
* **the thirty-one deal**: dealer 10d As 8c (throws 2c 3c), non-dealer Kh Qc 9s (throws 4d 6d), starter
  5h.  Pone Kh (10), dealer 10d (20), pone Qc (30), dealer As (31 for two, and nothing for last).  The
  play is over with one card in each hand.  Show: pone Kh Qc 9s + 5h, K-5 and Q-5, fifteen four: 4;
  dealer 10d As 8c + 5h, 10-5, fifteen two: 2; crib 2c 3c 4d 6d + 5h, fifteens 4-5-6 and 2-3-4-6 (4)
  and the run of five 2-3-4-5-6 (5): 9.
"""

from __future__ import annotations

import random

import pytest

from companion.cards import Card, parse_cards
from companion.rules.errors import IllegalAction, IllegalPlay
from companion.rules.game import Counting, Game, Phase, Settings
from companion.rules.items import Kind
from companion.rules.notation import format_action, load_game
from companion.rules.simulate import random_game
from companion.rules.variants import FIVE_CARD, SIX_CARD


def card(text: str) -> Card:
    return Card.parse(text)


def five_card_game(**settings: object) -> Game:
    """A five-card game with player 0 dealing (cut ace against king)."""
    game = Game(Settings(variant=FIVE_CARD, **settings))  # type: ignore[arg-type]
    game.cut_for_deal(0, card("Ac"))
    game.cut_for_deal(1, card("Kc"))
    assert game.dealer == 0 and game.scores == [0, 3]  # three for last to the non-dealer
    return game


def deal_go_hands(game: Game, *, face_up: bool = True) -> None:
    hands = {0: "5h 5d 5s 2c 3c", 1: "7h 8h 9h Qs Ks"}
    thrown = {0: "2c 3c", 1: "Qs Ks"}
    for player in (0, 1):
        game.deal(player, parse_cards(hands[player]) if face_up else None)
    for player in (0, 1):
        game.discard(player, parse_cards(thrown[player]) if face_up else None)
    game.turn_starter(card("Ac"))


def play_to_the_go(game: Game) -> None:
    """The go deal's play: it ends on the dealer's 5s."""
    game.play(1, card("7h"))
    game.play(0, card("5h"))
    game.play(1, card("8h"))
    game.play(0, card("5d"))
    game.go(1)
    game.play(0, card("5s"))


def test_after_the_go_neither_can_come_in_so_the_play_is_at_an_end() -> None:
    game = five_card_game()
    deal_go_hands(game)
    play_to_the_go(game)
    last = game.log[-1]
    assert [(s.player, s.points) for s in last.scores] == [(0, 3)]  # a pair and one for the go
    assert [i.kind for i in last.scores[0].items] == [Kind.PAIR, Kind.LAST_CARD]
    assert "the play is at an end" in last.note
    assert game.phase is Phase.SHOW  # the pone's 9h is never laid
    assert game.kept_back(1) == 1 and game.kept_back(0) == 0
    assert game.scores == [3, 3]
    with pytest.raises(IllegalAction, match="during the show"):
        game.play(1, card("9h"))


def test_the_cards_kept_back_are_counted_in_the_show() -> None:
    game = five_card_game()
    deal_go_hands(game)
    play_to_the_go(game)
    pone = game.count(1, "hand")
    assert pone.points == 8
    assert {c for s in pone.scores for i in s.items for c in i.cards} >= {card("9h")}
    assert game.count(0, "hand").points == 8
    assert game.count(0, "crib").points == 7
    assert game.scores == [3 + 8 + 7, 3 + 8]
    assert game.phase is Phase.DEAL and game.dealer == 1


def test_six_card_cribbage_plays_a_second_count_with_the_cards_left() -> None:
    """The primary text: "if either player has any cards left there is a further round"."""
    game = Game(Settings(variant=SIX_CARD))
    game.cut_for_deal(0, card("Ac"))
    game.cut_for_deal(1, card("Kc"))
    game.deal(0, parse_cards("5h 5d 5s Jc 2c 3c"))
    game.deal(1, parse_cards("7h 8h 9h 10h Qs Ks"))
    game.discard(0, parse_cards("2c 3c"))
    game.discard(1, parse_cards("Qs Ks"))
    game.turn_starter(card("Ac"))
    play_to_the_go(game)
    game.go(0)  # the dealer still holds Jc: one for the go, and a fresh count
    assert game.phase is Phase.PLAY and game.snapshot().count == 0
    assert game.can_play(1, card("9h"))


def test_thirty_one_ends_the_play_with_cards_still_held() -> None:
    game = five_card_game()
    game.deal(0, parse_cards("10d As 8c 2c 3c"))
    game.deal(1, parse_cards("Kh Qc 9s 4d 6d"))
    game.discard(0, parse_cards("2c 3c"))
    game.discard(1, parse_cards("4d 6d"))
    game.turn_starter(card("5h"))
    for player, laid in [(1, "Kh"), (0, "10d"), (1, "Qc")]:
        game.play(player, card(laid))
    op = game.play(0, card("As"))
    assert [(s.player, s.points) for s in op.scores] == [(0, 2)]  # 31 for two, not 2 + 1
    assert [i.kind for i in op.scores[0].items] == [Kind.THIRTY_ONE]
    assert game.phase is Phase.SHOW
    assert (game.kept_back(0), game.kept_back(1)) == (1, 1)
    assert game.count(1, "hand").points == 4
    assert game.count(0, "hand").points == 2
    assert game.count(0, "crib").points == 9
    assert game.scores == [2 + 2 + 9, 3 + 4]


def test_cards_dealt_face_down_and_kept_back_are_given_to_count_the_hand() -> None:
    game = five_card_game()
    deal_go_hands(game, face_up=False)
    play_to_the_go(game)
    assert game.phase is Phase.SHOW
    with pytest.raises(IllegalAction, match="kept one of their cards when the play ended"):
        game.count(1, "hand")
    with pytest.raises(IllegalAction, match="laid 8h in the play"):
        game.count(1, "hand", parse_cards("7h 9h 10h"))
    with pytest.raises(IllegalAction, match="already been seen"):
        game.count(1, "hand", parse_cards("7h 8h 5s"))
    with pytest.raises(IllegalAction, match="three cards, not 4"):
        game.count(1, "hand", parse_cards("7h 8h 9h 10h"))
    assert game.count(1, "hand", parse_cards("7h 8h 9h")).points == 8
    assert game.count(0, "hand").points == 8  # the dealer laid all three
    with pytest.raises(IllegalAction, match="9h"):  # shown in the hand, so not in the crib
        game.count(0, "crib", parse_cards("2c 3c 9h Ks"))
    assert game.count(0, "crib", parse_cards("2c 3c Qs Ks")).points == 7


def test_the_automatic_show_waits_for_cards_kept_back_face_down() -> None:
    game = five_card_game(auto_show=True)
    deal_go_hands(game, face_up=False)
    play_to_the_go(game)
    assert game.phase is Phase.SHOW and game.snapshot().show_next == (1, "hand")
    assert game.waiting_for() == "player 1 to show the hand, turning up the card kept back from the play"
    game.count(1, "hand", parse_cards("7h 8h 9h"))
    # The dealer's hand is known (all laid): shown by the engine; the crib, face down, waits.
    assert game.snapshot().show_next == (0, "crib")
    assert game.scores == [3 + 8, 3 + 8]


def test_claims_for_a_hand_with_cards_kept_back() -> None:
    game = five_card_game(counting=Counting.CLAIMS)
    deal_go_hands(game, face_up=False)
    play_to_the_go(game)
    game.claim(0, "play", 3)
    with pytest.raises(IllegalAction, match="give the hand's three cards"):
        game.claim(1, "hand", 8)
    game.claim(1, "hand", 8, parse_cards("9h 8h 7h"))
    assert game.scores == [3, 11]


def test_the_game_file_writes_the_hand_kept_back() -> None:
    game = five_card_game()
    deal_go_hands(game, face_up=False)
    play_to_the_go(game)
    game.count(1, "hand", parse_cards("7h 8h 9h"))
    lines = ["variant five-card", "cut 0 Ac", "cut 1 Kc", *(format_action(op.action) for op in game.log[2:])]
    assert "count 1 hand 7h 8h 9h" in lines
    again = load_game(lines)
    assert again.scores == game.scores and again.phase is game.phase


def test_random_five_card_games_lay_every_card_of_a_deal_in_one_count() -> None:
    """Whole seeded games, face up and face down, replayed action by action: while the play lasts every
    card laid in the deal is in the current count (none was ever closed), and every game finishes."""
    ended_early = 0
    for seed in range(40):
        for hidden in (False, True):
            counting = Counting.CLAIMS if seed % 3 == 0 else Counting.AUTO
            settings = Settings(variant=FIVE_CARD, counting=counting, match_games=1)
            played = random_game(random.Random(seed), settings, hidden=hidden)
            assert played.phase is Phase.GAME_OVER and max(played.scores) == 61
            game = Game(settings)
            for action in played.actions:
                op = game.apply(action)
                pegging = game.deal_state.pegging
                if game.phase is Phase.PLAY and pegging is not None:
                    assert len(pegging.laid) == len(pegging.played), f"seed {seed}: a second count"
                ended_early += "the play is at an end" in op.note
            assert game.scores == played.scores
    assert ended_early > 0  # the rule was exercised, not only deals where every card fitted


def test_no_card_is_laid_once_the_one_count_play_is_over() -> None:
    game = five_card_game()
    deal_go_hands(game)
    play_to_the_go(game)
    pegging = game.deal_state.pegging
    assert pegging is not None and pegging.done and pegging.cut_short
    with pytest.raises(IllegalPlay, match="no second count"):
        pegging.play(1, card("9h"))
