"""The game, rule by rule: each test is named after the rule of ../shared/rules it encodes.

The reference deal used throughout (worked out by hand from the primary rules text):

* the dealer holds 5h 5d 5s Jc (thrown 2c 3c), the non-dealer 7h 8h 9h 10h (thrown Qs Ks), starter 5c;
* the play: pone 7h (7), dealer 5h (12), pone 8h (20), dealer 5d (25), pone says go, dealer 5s (30, a
  pair: 2), dealer says go (one for the go: 1); then pone 9h (9), dealer Jc (19), pone 10h (29: a run
  of three 9-10-J, 3, and one for last, 1).  Play: dealer 3, pone 4;
* the show: pone 7h 8h 9h 10h + 5c = fifteen four, a run of four, a flush of four = 12; dealer
  5h 5d 5s Jc + 5c = 29; crib 2c 3c Qs Ks + 5c = four fifteens = 8.
* Deal totals: dealer 40, pone 16.
"""

from __future__ import annotations

import random

import pytest

from companion.cards import Card, parse_cards
from companion.rules.errors import IllegalAction, IllegalPlay, RulesError
from companion.rules.game import (
    Counting,
    CutForDeal,
    FirstDeal,
    Game,
    NextGame,
    OverClaim,
    Phase,
    Settings,
)
from companion.rules.items import Kind
from companion.rules.show import score_hand
from companion.rules.simulate import random_game
from companion.rules.variants import FIVE_CARD, FOUR_PLAYER, SIX_CARD, THREE_PLAYER


def card(text: str) -> Card:
    return Card.parse(text)


def cut_so_that(game: Game, dealer: int) -> None:
    """Cut for the deal so that ``dealer`` cuts an ace and everyone else a king."""
    kings = iter(parse_cards("Kc Kd Kh Ks"))
    for player in range(game.variant.players):
        game.cut_for_deal(player, card("Ac") if player == dealer else next(kings))
    assert game.dealer == dealer


def reference_deal(game: Game, starter: str = "5c") -> None:
    """Deal, throw and turn the reference deal for a two-player game (dealer already decided)."""
    dealer = game.dealer
    assert dealer is not None
    pone = 1 - dealer
    game.deal(dealer, parse_cards("5h 5d 5s Jc 2c 3c"))
    game.deal(pone, parse_cards("7h 8h 9h 10h Qs Ks"))
    game.discard(dealer, parse_cards("2c 3c"))
    game.discard(pone, parse_cards("Qs Ks"))
    game.turn_starter(card(starter))


def reference_play(game: Game, *, claims: bool = False) -> None:
    dealer = game.dealer
    assert dealer is not None
    pone = 1 - dealer
    for player, what in [
        (pone, "7h"),
        (dealer, "5h"),
        (pone, "8h"),
        (dealer, "5d"),
        (pone, "go"),
        (dealer, "5s"),
        (dealer, "go"),
        (pone, "9h"),
        (dealer, "Jc"),
        (pone, "10h"),
    ]:
        if game.over:
            return
        if what == "go":
            game.go(player)
        else:
            game.play(player, card(what))


def new_game(dealer: int = 0, **settings: object) -> Game:
    game = Game(Settings(**settings))  # type: ignore[arg-type]
    cut_so_that(game, dealer)
    return game


# -- the cut for deal ------------------------------------------------------------------------------
def test_cut_for_deal_the_lower_card_deals_and_has_the_first_crib() -> None:
    game = Game()
    game.cut_for_deal(0, card("Kh"))
    game.cut_for_deal(1, card("3c"))
    assert game.dealer == 1 and game.pone == 0
    assert game.phase is Phase.DEAL


def test_cut_for_deal_aces_are_low() -> None:
    game = Game()
    game.cut_for_deal(0, card("Ac"))
    game.cut_for_deal(1, card("2c"))
    assert game.dealer == 0


def test_cut_for_deal_equal_cards_cut_again() -> None:
    game = Game()
    game.cut_for_deal(0, card("7h"))
    op = game.cut_for_deal(1, card("7d"))
    assert game.phase is Phase.CUT_FOR_DEAL and game.dealer is None
    assert "cut again" in op.note
    game.cut_for_deal(0, card("9h"))
    game.cut_for_deal(1, card("4d"))
    assert game.dealer == 1


def test_cut_for_deal_any_two_ten_cards_count_as_equal() -> None:
    game = Game()
    game.cut_for_deal(0, card("Jh"))
    game.cut_for_deal(1, card("Qd"))
    assert game.phase is Phase.CUT_FOR_DEAL
    game.cut_for_deal(0, card("10h"))
    game.cut_for_deal(1, card("Ks"))
    assert game.phase is Phase.CUT_FOR_DEAL and not game.cuts


# -- the deal, the crib and the starter ------------------------------------------------------------
def test_deal_is_six_cards_each_and_two_each_go_to_the_crib() -> None:
    game = new_game()
    with pytest.raises(IllegalAction, match="6 cards"):
        game.deal(0, parse_cards("5h 5d 5s Jc 2c"))
    reference_deal(game)
    assert game.phase is Phase.PLAY
    assert sorted(game.snapshot().crib) == sorted(parse_cards("2c 3c Qs Ks"))


def test_starter_jack_is_two_for_his_heels_to_the_dealer_at_once() -> None:
    game = new_game(dealer=1)
    reference_deal(game, starter="Jd")
    assert game.scores == [0, 2]
    (scoring,) = game.log[-1].scores
    assert scoring.player == 1 and scoring.items[0].kind is Kind.HEELS
    assert scoring.explanation == "two for his heels"


def test_the_non_dealer_leads_the_play() -> None:
    game = new_game(dealer=0)
    reference_deal(game)
    assert game.snapshot().turn == 1
    with pytest.raises(IllegalPlay, match="player 1's turn"):
        game.play(0, card("5h"))


# -- the play --------------------------------------------------------------------------------------
def test_play_pegs_pairs_the_go_runs_and_one_for_last_as_the_reference_deal() -> None:
    game = new_game(dealer=0)
    reference_deal(game)
    reference_play(game)
    assert game.scores == [3, 4]
    assert game.phase is Phase.SHOW
    kinds = [[item.kind for s in op.scores for item in s.items] for op in game.log[-10:]]
    assert kinds[5] == [Kind.PAIR]
    assert kinds[6] == [Kind.LAST_CARD]
    assert kinds[9] == [Kind.RUN, Kind.LAST_CARD]


def test_thirty_one_is_two_and_never_also_one_for_last() -> None:
    game = new_game(dealer=0)
    game.deal(0, parse_cards("Kh Kd Ac 2c 3c 4c"))
    game.deal(1, parse_cards("Qh Ah As 2s 3s 4s"))
    game.discard(0, parse_cards("2c 3c"))
    game.discard(1, parse_cards("3s 4s"))
    game.turn_starter(card("9c"))
    game.play(1, card("Qh"))  # 10
    game.play(0, card("Kh"))  # 20
    game.play(1, card("Ah"))  # 21
    op = game.play(0, card("Kd"))  # 31
    items = [i.kind for s in op.scores for i in s.items]
    assert items == [Kind.THIRTY_ONE] and op.points == 2
    assert game.snapshot().count == 0  # a fresh count starts after 31
    assert game.snapshot().turn == 1  # led by the opponent of the player who made 31


def test_a_player_seen_to_hold_a_card_that_fits_cannot_say_go() -> None:
    game = new_game(dealer=0)
    reference_deal(game)
    game.play(1, card("7h"))
    with pytest.raises(IllegalPlay, match="fits under 31"):
        game.go(0)


# -- the show --------------------------------------------------------------------------------------
def test_show_counts_pone_then_dealer_then_crib_with_the_starter() -> None:
    game = new_game(dealer=0)
    reference_deal(game)
    reference_play(game)
    with pytest.raises(IllegalAction, match="player 1's hand"):
        game.count(0, "hand")
    assert game.count(1, "hand").points == 12
    with pytest.raises(IllegalAction, match="player 0's hand"):
        game.count(0, "crib")
    assert game.count(0, "hand").points == 29
    op = game.count(0, "crib")
    assert op.points == 8
    assert op.scores[0].explanation == "fifteen two, fifteen four, fifteen six, and fifteen eight"
    assert game.scores == [40, 16]


def test_the_deal_alternates() -> None:
    game = new_game(dealer=0)
    reference_deal(game)
    reference_play(game)
    for player, what in ((1, "hand"), (0, "hand"), (0, "crib")):
        game.count(player, what)
    assert game.dealer == 1 and game.phase is Phase.DEAL


def test_a_flush_in_the_crib_counts_only_with_the_starter_of_its_suit() -> None:
    for starter, expected in (("Kd", 0), ("10h", 5)):
        game = new_game(dealer=0)
        game.deal(0, parse_cards("2h 4h 5h 5d 5s Jc"))
        game.deal(1, parse_cards("6h 8h 7c 8c 9c 10c"))
        game.discard(0, parse_cards("2h 4h"))
        game.discard(1, parse_cards("6h 8h"))
        game.turn_starter(card(starter))
        for player, what in [
            (1, "7c"),
            (0, "5h"),
            (1, "8c"),
            (0, "5d"),
            (1, "go"),
            (0, "5s"),
            (0, "go"),
            (1, "9c"),
            (0, "Jc"),
            (1, "10c"),
        ]:
            game.go(player) if what == "go" else game.play(player, card(what))
        game.count(1, "hand")
        game.count(0, "hand")
        assert game.count(0, "crib").points == expected
    # the same four hearts in a hand are a flush of four
    assert score_hand(parse_cards("2h 4h 6h 8h"), card("Kd")).total == 4


def test_pegs_forward_peg_is_the_score_and_rear_peg_the_previous_score() -> None:
    game = new_game(dealer=0)
    reference_deal(game)
    reference_play(game)
    game.count(1, "hand")
    game.count(0, "hand")
    game.count(0, "crib")
    pegs = game.snapshot().pegs
    assert (pegs[0].rear, pegs[0].forward) == (32, 40)
    assert (pegs[1].rear, pegs[1].forward) == (4, 16)


# -- winning ---------------------------------------------------------------------------------------
def test_the_game_ends_the_instant_a_player_reaches_the_target_even_in_the_play() -> None:
    game = new_game(dealer=0, target=3)
    reference_deal(game)
    for player, what in [(1, "7h"), (0, "5h"), (1, "8h"), (0, "5d"), (1, "go"), (0, "5s")]:
        game.go(player) if what == "go" else game.play(player, card(what))
    assert game.scores == [2, 0]
    op = game.go(0)
    assert game.phase is Phase.GAME_OVER and game.winner == 0 and game.scores == [3, 0]
    assert op.phase is Phase.GAME_OVER
    with pytest.raises(IllegalAction, match="game is over"):
        game.play(1, card("9h"))


def test_the_game_can_end_on_two_for_his_heels() -> None:
    game = new_game(dealer=1, target=2)
    reference_deal(game, starter="Jd")
    assert game.winner == 1 and game.phase is Phase.GAME_OVER


def test_the_non_dealer_counts_first_and_can_win_before_the_dealer_counts() -> None:
    game = new_game(dealer=0, target=15)
    reference_deal(game)
    reference_play(game)
    game.count(1, "hand")  # 4 + 12 = 16
    assert game.winner == 1
    assert game.scores == [3, 15]  # the dealer's 29 is never counted
    with pytest.raises(IllegalAction, match="game is over"):
        game.count(0, "hand")


def test_pegging_out_need_not_be_exact_and_the_winning_peg_stops_in_the_game_hole() -> None:
    game = new_game(dealer=0, target=20)
    reference_deal(game)
    reference_play(game)
    game.count(1, "hand")
    op = game.count(0, "hand")
    assert game.winner == 0 and game.scores == [20, 16]
    assert op.scores[0].points == 17 and op.scores[0].items  # the whole 29 is still explained
    assert sum(i.points for i in op.scores[0].items) == 29


def test_skunk_is_a_loser_below_91_and_double_skunk_below_61_by_default() -> None:
    assert Settings().skunk == (91, 61)
    assert Settings(variant=FIVE_CARD).skunk == (31, None)
    game = new_game(dealer=0, target=3, skunk_line=1)
    reference_deal(game)
    reference_play(game)
    assert game.skunk == "skunk"
    game = new_game(dealer=0, target=3, skunk_line=5, double_skunk_line=1)
    reference_deal(game)
    reference_play(game)
    assert game.skunk == "double-skunk"
    game = new_game(dealer=0, target=3, skunk_line=0)
    reference_deal(game)
    reference_play(game)
    assert game.skunk is None


# -- the match -------------------------------------------------------------------------------------
def _win_game_with_dealer(game: Game) -> None:
    """In a game to 3, the dealer of the reference deal wins on the go."""
    reference_deal(game)
    reference_play(game)


def test_match_second_game_first_deal_alternates_and_the_decider_has_a_fresh_cut() -> None:
    game = new_game(dealer=0, target=3)
    _win_game_with_dealer(game)
    assert game.match_wins == [1, 0] and game.phase is Phase.GAME_OVER
    game.next_game()
    assert game.game_number == 2 and game.dealer == 1 and game.phase is Phase.DEAL
    assert game.scores == [0, 0]
    _win_game_with_dealer(game)
    assert game.match_wins == [1, 1]
    game.next_game()
    assert game.phase is Phase.CUT_FOR_DEAL  # the decider: a fresh cut
    cut_so_that(game, 1)
    _win_game_with_dealer(game)
    assert game.match_winner == 1
    with pytest.raises(IllegalAction, match="match is over"):
        game.next_game()


def test_match_option_the_loser_of_the_previous_game_deals_first() -> None:
    game = new_game(dealer=0, target=3, first_deal=FirstDeal.LOSER)
    _win_game_with_dealer(game)  # player 0 wins, player 1 lost
    game.next_game()
    assert game.dealer == 1
    _win_game_with_dealer(game)  # player 1 wins, player 0 lost
    game.next_game()
    assert game.phase is Phase.DEAL and game.dealer == 0  # no fresh cut under this rule


def test_match_best_of_three_by_default_and_a_single_game_on_request() -> None:
    assert Settings().wins_needed == 2
    game = new_game(dealer=0, target=3, match_games=1)
    _win_game_with_dealer(game)
    assert game.match_winner == 0
    assert not game.can_next_game()


# -- claims, muggins and over-claims -----------------------------------------------------------------
def _claims_game(**settings: object) -> Game:
    game = new_game(dealer=0, counting=Counting.CLAIMS, **settings)
    reference_deal(game)
    return game


def _to_the_show(game: Game) -> None:
    reference_play(game)
    game.claim(1, "play", 4)  # the run and one for last, claimed in full


def test_claims_an_exact_claim_pegs_it() -> None:
    game = _claims_game()
    _to_the_show(game)
    game.claim(1, "hand", 12)
    assert game.scores[1] == 16 and game.offer is None


def test_muggins_the_opponent_pegs_points_left_behind_in_the_show() -> None:
    game = _claims_game()
    _to_the_show(game)
    op = game.claim(1, "hand", 10)
    assert game.scores[1] == 14
    assert game.offer is not None and game.offer.points == 2
    assert "fifteen two" in game.offer.explanation  # the decision carries the true count
    assert "true count is 12" in op.note
    game.muggins(0)
    assert game.scores[0] == 0 + 2 and game.offer is None


def test_muggins_off_points_left_behind_are_simply_lost() -> None:
    game = _claims_game(muggins=False)
    _to_the_show(game)
    game.claim(1, "hand", 10)
    assert game.offer is None and game.scores == [0, 14]
    with pytest.raises(IllegalAction, match="not played"):
        game.muggins(0)


def test_muggins_the_offer_lapses_at_the_next_action() -> None:
    game = _claims_game()
    _to_the_show(game)
    game.claim(1, "hand", 10)
    game.claim(0, "hand", 29)
    with pytest.raises(IllegalAction, match="nothing to call muggins on"):
        game.muggins(0)


def test_a_false_muggins_call_is_refused_and_changes_nothing() -> None:
    game = _claims_game()
    _to_the_show(game)
    game.claim(1, "hand", 12)
    before = game.snapshot()
    with pytest.raises(IllegalAction, match="nothing to call muggins on"):
        game.muggins(0)
    assert game.snapshot() == before


def test_the_player_who_under_claimed_cannot_call_muggins_on_themselves() -> None:
    game = _claims_game()
    _to_the_show(game)
    game.claim(1, "hand", 10)
    with pytest.raises(IllegalAction, match="only an opponent"):
        game.muggins(1)


def test_over_claim_is_corrected_by_default() -> None:
    game = _claims_game()
    _to_the_show(game)
    op = game.claim(1, "hand", 15)
    assert game.scores == [0, 16] and "corrected" in op.note


def test_over_claim_house_rule_the_opponent_takes_the_excess() -> None:
    game = _claims_game(over_claim=OverClaim.OPPONENT_TAKES)
    _to_the_show(game)
    game.claim(1, "hand", 15)
    assert game.scores == [3, 16]


def test_a_claim_above_29_for_a_hand_is_refused() -> None:
    game = _claims_game()
    _to_the_show(game)
    with pytest.raises(IllegalAction, match="the most a hand can score is 29"):
        game.claim(1, "hand", 30)


def test_claims_in_the_play_a_score_not_claimed_before_the_next_card_is_lost() -> None:
    game = _claims_game()
    for player, what in [(1, "7h"), (0, "5h"), (1, "8h"), (0, "5d"), (1, "go"), (0, "5s")]:
        game.go(player) if what == "go" else game.play(player, card(what))
    assert game.snapshot().pending_claim is not None
    game.go(0)  # the pair was not claimed; the go is now pending
    game.claim(0, "play", 1)
    assert game.scores == [1, 0] and game.offer is None  # muggins in the play is off by default


def test_muggins_option_also_in_the_play() -> None:
    game = _claims_game(muggins_in_play=True)
    for player, what in [(1, "7h"), (0, "5h"), (1, "8h"), (0, "5d"), (1, "go"), (0, "5s")]:
        game.go(player) if what == "go" else game.play(player, card(what))
    game.go(0)  # the pair of fives left unclaimed
    assert game.offer is not None and game.offer.what == "play" and game.offer.points == 2
    game.muggins(1)
    assert game.scores == [0, 2]


def test_switching_to_automatic_counting_pegs_a_pending_play_score_in_full() -> None:
    game = _claims_game()
    for player, what in [(1, "7h"), (0, "5h"), (1, "8h"), (0, "5d"), (1, "go"), (0, "5s")]:
        game.go(player) if what == "go" else game.play(player, card(what))
    game.switch_counting("auto")
    assert game.scores == [2, 0] and game.counting is Counting.AUTO


def test_counting_automatically_refuses_claims_and_claiming_refuses_counts() -> None:
    game = new_game(dealer=0)
    reference_deal(game)
    reference_play(game)
    with pytest.raises(IllegalAction, match="nobody claims"):
        game.claim(1, "hand", 12)
    game2 = _claims_game()
    _to_the_show(game2)
    with pytest.raises(IllegalAction, match="must claim"):
        game2.count(1, "hand")


# -- variants ---------------------------------------------------------------------------------------
def five_card_deal(game: Game) -> None:
    """Dealer 0: 5h 5d 5s (thrown 2c 3c); pone 1: 7h 8h 9h (thrown Qs Ks); starter Ac.

    The play: pone 7h (7), dealer 5h (12), pone 8h (20), dealer 5d (25), pone go (9h would pass 31),
    dealer 5s (30, a pair: 2, and the dealer is out of cards: one for the go, 1).  Neither can come in,
    so the play is at an end (Britannica): the pone's 9h is never laid.  The show: pone 7h 8h 9h + Ac =
    fifteen two, a run of three, a flush of three = 8; dealer 5h 5d 5s + Ac = fifteen two and a pair
    royal = 8; crib 2c 3c Qs Ks + Ac = two fifteens and the run A-2-3 = 7.
    """
    game.deal(0, parse_cards("5h 5d 5s 2c 3c"))
    game.deal(1, parse_cards("7h 8h 9h Qs Ks"))
    game.discard(0, parse_cards("2c 3c"))
    game.discard(1, parse_cards("Qs Ks"))
    game.turn_starter(card("Ac"))
    expected = [0, 0, 0, 0, 0, 3]
    for (player, what), points in zip(
        [(1, "7h"), (0, "5h"), (1, "8h"), (0, "5d"), (1, "go"), (0, "5s")], expected, strict=True
    ):
        op = game.go(player) if what == "go" else game.play(player, card(what))
        if game.counting is Counting.AUTO:
            assert op.points == points, what
    assert game.phase is Phase.SHOW
    if game.counting is Counting.AUTO:
        assert game.count(1, "hand").points == 8
        assert game.count(0, "hand").points == 8


def test_five_card_three_for_last_to_the_non_dealer_once_at_the_start_of_the_game() -> None:
    """Hoyle: "The non-dealer at the commencement of the game in five-card cribbage scores 3 points"."""
    game = Game(variant="five-card")
    assert game.target == 61
    cut_so_that(game, 0)
    assert game.scores == [0, 3]
    assert game.log[-1].scores[0].items[0].kind is Kind.THREE_FOR_LAST
    five_card_deal(game)
    op = game.count(0, "crib")
    assert [(s.player, s.points, s.reason) for s in op.scores] == [(0, 7, "crib")]  # the next deal: none
    assert game.dealer == 1 and game.scores == [18, 11]
    later = [s for o in game.log[1:] for s in o.scores if s.reason == "three-for-last"]
    assert len(later) == 1


def test_five_card_three_for_last_again_at_the_start_of_the_next_game_of_a_match() -> None:
    settings = Settings(variant=FIVE_CARD, match_games=3, skunk_double_win=False)
    game = random_game(random.Random(1), settings, match=True)
    starts = [i for i, op in enumerate(game.log) if any(s.reason == "three-for-last" for s in op.scores)]
    assert len(starts) == len(game.games)
    for index in starts[1:]:
        assert isinstance(game.log[index].action, NextGame | CutForDeal)


def test_five_card_hands_are_three_cards_and_the_game_is_to_61() -> None:
    game = Game(variant=FIVE_CARD)
    cut_so_that(game, 0)
    with pytest.raises(IllegalAction, match="5 cards"):
        game.deal(0, parse_cards("5h 5d 5s 2c 3c 4c"))
    five_card_deal(game)
    claims = Game(Settings(variant=FIVE_CARD, counting=Counting.CLAIMS))
    cut_so_that(claims, 0)
    five_card_deal(claims)
    with pytest.raises(IllegalAction, match="the most a hand can score is 20"):
        claims.claim(1, "hand", 21)
    claims.claim(1, "hand", 20)  # an over-claim, but a possible score: corrected
    assert claims.scores[1] == 3 + 8


def test_three_players_deal_five_each_and_one_to_the_crib_and_need_a_three_track_board() -> None:
    game = Game(variant=THREE_PLAYER)
    assert game.needs_three_tracks and game.snapshot().tracks == 3
    assert not Game().needs_three_tracks
    cut_so_that(game, 2)
    assert game.pone == 0
    game.deal(0, parse_cards("Ah 2h 3h 4h 5h"))
    game.deal(1, parse_cards("Ac 2c 3c 4c 5c"))
    game.deal(2, parse_cards("Ad 2d 3d 4d 5d"))
    assert game.phase is Phase.DEAL  # the crib card is still to come
    game.deal_crib(card("Ks"))
    with pytest.raises(IllegalAction, match="one card"):
        game.discard(0, parse_cards("5h 4h"))
    game.discard(0, parse_cards("5h"))
    game.discard(1, parse_cards("5c"))
    game.discard(2, parse_cards("5d"))
    game.turn_starter(card("9s"))
    assert game.snapshot().turn == 0  # left of the dealer leads
    game.play(0, card("Ah"))
    game.play(1, card("Ac"))  # a pair
    op = game.play(2, card("Ad"))  # a pair royal
    assert op.points == 6 and op.scores[0].side == 2
    assert game.show_order() == ((0, "hand"), (1, "hand"), (2, "hand"), (2, "crib"))


def test_four_players_partners_opposite_share_one_track_and_play_rotates() -> None:
    game = Game(variant=FOUR_PLAYER)
    assert game.snapshot().sides == ((0, 2), (1, 3))
    assert not game.needs_three_tracks
    cut_so_that(game, 3)
    hands = ["Ah 2h 3h 4h 5h", "Ac 2c 3c 4c 5c", "Ad 2d 3d 4d 5d", "As 2s 3s 4s 5s"]
    for player, hand in enumerate(hands):
        game.deal(player, parse_cards(hand))
    for player, hand in enumerate(hands):
        game.discard(player, parse_cards(hand.split()[-1]))
    game.turn_starter(card("Ks"))
    order = [game.snapshot().turn]
    game.play(0, card("Ah"))
    order.append(game.snapshot().turn)
    game.play(1, card("2c"))
    order.append(game.snapshot().turn)
    op = game.play(2, card("3d"))  # a run of three for player 2: partners' track 0
    order.append(game.snapshot().turn)
    assert order == [0, 1, 2, 3]
    assert op.scores[0].side == 0 and game.scores == [3, 0]


def test_four_players_a_partner_cannot_call_muggins_on_their_own_side() -> None:
    game = Game(Settings(variant=FOUR_PLAYER, counting=Counting.CLAIMS))
    cut_so_that(game, 3)
    hands = ["Ah 2h 3h 4h 5h", "Ac 2c 3c 4c 5c", "Ad 2d 3d 4d 5d", "As 2s 3s 4s 5s"]
    for player, hand in enumerate(hands):
        game.deal(player, parse_cards(hand))
    for player, hand in enumerate(hands):
        game.discard(player, parse_cards(hand.split()[-1]))
    game.turn_starter(card("Ks"))
    # every card of the play, in rotation; nobody claims anything in the play
    for step in range(40):
        player = game.snapshot().turn
        assert player is not None
        hand = [c for c in game.deal_state.held[player]]
        fits = sorted(c for c in hand if game.snapshot().count + c.pips <= 31)
        game.play(player, fits[0]) if fits else game.go(player)
        if game.phase is Phase.SHOW:
            break
        assert step < 39
    game.claim(0, "hand", 0)
    assert game.offer is not None
    with pytest.raises(IllegalAction, match="own side"):
        game.muggins(2)
    game.muggins(1)
    assert game.scores[1] > 0


def test_variants_have_the_numbers_of_the_rules_texts() -> None:
    assert (SIX_CARD.dealt, SIX_CARD.thrown, SIX_CARD.hand_size, SIX_CARD.target) == (6, 2, 4, 121)
    assert (FIVE_CARD.dealt, FIVE_CARD.thrown, FIVE_CARD.hand_size, FIVE_CARD.target) == (5, 2, 3, 61)
    assert (THREE_PLAYER.dealt, THREE_PLAYER.thrown, THREE_PLAYER.crib_from_pack) == (5, 1, 1)
    assert (FOUR_PLAYER.dealt, FOUR_PLAYER.thrown, FOUR_PLAYER.tracks) == (5, 1, 2)
    for v in (SIX_CARD, FIVE_CARD, THREE_PLAYER, FOUR_PLAYER):
        assert v.players * v.thrown + v.crib_from_pack == 4  # every crib has four cards


def test_errors_are_rules_errors_and_value_errors() -> None:
    game = Game()
    with pytest.raises(RulesError):
        game.play(0, card("5h"))
    with pytest.raises(ValueError):
        game.play(0, card("5h"))


def test_the_starter_jack_is_his_heels_never_his_nobs() -> None:
    game = new_game(dealer=0)
    reference_deal(game, starter="Jd")
    assert game.scores == [2, 0]
    reference_play(game)
    game.count(1, "hand")
    # 5h 5d 5s Jc with the jack of diamonds: six fifteens of five and jack (12), 5-5-5 (2), a pair royal
    # of fives (6), a pair of jacks (2) = 22; the jack of clubs is not of the starter's suit: no nobs.
    op = game.count(0, "hand")
    assert op.points == 22
    assert Kind.NOBS not in {i.kind for i in op.scores[0].items}


def test_three_players_after_a_go_play_keeps_rotating_and_the_last_to_lay_pegs() -> None:
    game = Game(variant=THREE_PLAYER)
    cut_so_that(game, 2)
    for player, hand in enumerate(("Kh Qh Jh 10h 2s", "Kc Qc Jc Ac 3s", "Kd Qd 9d 8d 4s")):
        game.deal(player, parse_cards(hand))
    game.deal_crib(card("5s"))
    for player, thrown in enumerate(("2s", "3s", "4s")):
        game.discard(player, parse_cards(thrown))
    game.turn_starter(card("7c"))
    script = [
        (0, "Kh", 0),  # 10
        (1, "Kc", 2),  # 20, a pair
        (2, "Kd", 6),  # 30, a pair royal
        (0, "go", 0),
        (1, "Ac", 2),  # 31 for two; player 2 (after the last to lay) leads the next count
        (2, "Qd", 0),
        (0, "Qh", 2),
        (1, "Qc", 6),  # 30, a pair royal
        (2, "go", 0),
        (0, "go", 0),
        (1, "go", 1),  # nobody can lay: one for the go to player 1, who laid last
        (2, "9d", 0),
        (0, "Jh", 0),
        (1, "Jc", 2),  # 29, a pair of jacks; player 1 is now out of cards
        (2, "go", 0),
        (0, "go", 1),  # player 1 has no cards and is passed over: the go to player 1
        (2, "8d", 0),
        (0, "10h", 1),  # the last card
    ]
    for player, what, points in script:
        assert game.snapshot().turn == player, what
        op = game.go(player) if what == "go" else game.play(player, card(what))
        assert op.points == points, what
    assert game.scores == [3, 14, 6]
    assert game.phase is Phase.SHOW and game.snapshot().show_next == (0, "hand")


def test_snapshot_shows_the_count_the_table_and_the_last_scores_for_the_board() -> None:
    import json

    game = new_game(dealer=0)
    reference_deal(game)
    for player, what in [(1, "7h"), (0, "5h"), (1, "8h"), (0, "5d"), (1, "go"), (0, "5s")]:
        game.go(player) if what == "go" else game.play(player, card(what))
    snap = game.snapshot()
    assert snap.phase is Phase.PLAY and snap.count == 30 and snap.turn == 0
    assert [str(c) for _, c in snap.count_cards] == ["7h", "5h", "8h", "5d", "5s"]
    assert snap.last_scores[0].explanation == "thirty, a pair for two"
    assert (snap.pegs[0].rear, snap.pegs[0].forward) == (0, 2)
    assert snap.starter == card("5c") and snap.dealer == 0 and snap.pone == 1
    game.go(0)
    game.play(1, card("9h"))
    snap = game.snapshot()
    assert snap.count == 9 and [str(c) for _, c in snap.count_cards] == ["9h"]
    assert len(snap.deal_cards) == 6
    data = json.loads(json.dumps(snap.to_dict()))
    assert data["scores"] == [3, 0] and data["pegs"][0] == {"rear": 2, "forward": 3}
    assert data["count_cards"] == [{"player": 1, "card": "9h"}] and data["phase"] == "play"
    assert data["waiting_for"] == "player 0 to lay a card or say go (count 9)"


def test_snapshot_carries_the_pending_claim_and_the_muggins_offer() -> None:
    game = _claims_game()
    _to_the_show(game)
    snap = game.snapshot()
    assert snap.pending_claim is not None and snap.pending_claim.to_dict() == {"player": 1, "what": "hand"}
    game.claim(1, "hand", 10)
    offer = game.snapshot().to_dict()["muggins_offer"]
    assert offer["against"] == 1 and offer["points"] == 2 and offer["serial"] == len(game.log)
    assert "claimed 10 of 12" in offer["explanation"]
    game.pass_muggins()
    assert game.snapshot().muggins_offer is None and game.scores == [0, 14]


def test_cards_dealt_and_thrown_face_down_are_learned_from_the_play_and_the_crib_shown() -> None:
    game = new_game(dealer=0)
    game.deal(0)
    game.deal(1)
    game.discard(0)
    game.discard(1)
    game.turn_starter(card("5c"))
    reference_play(game)
    assert game.count(1, "hand").points == 12
    assert game.count(0, "hand").points == 29
    assert game.count(0, "crib", parse_cards("2c 3c Qs Ks")).points == 8
    assert game.scores == [40, 16]


def test_undo_restores_both_pegs_and_the_phase() -> None:
    game = new_game(dealer=0)
    reference_deal(game)
    reference_play(game)
    game.count(1, "hand")
    before = game.snapshot()
    undone = game.count(0, "hand")
    assert game.snapshot().pegs[0] != before.pegs[0]
    assert game.undo() == undone
    assert game.snapshot() == before
    assert (game.snapshot().pegs[0].rear, game.snapshot().pegs[0].forward) == (2, 3)


def test_a_combination_formed_across_a_go_still_counts() -> None:
    game = new_game(dealer=0)
    reference_deal(game)
    for player, what in [(1, "7h"), (0, "5h"), (1, "8h"), (0, "5d"), (1, "go")]:
        game.go(player) if what == "go" else game.play(player, card(what))
    op = game.play(0, card("5s"))  # the 5d before the go and this 5s still make a pair
    assert [i.kind for i in op.scores[0].items] == [Kind.PAIR]


def test_after_31_combinations_start_afresh() -> None:
    game = new_game(dealer=0)
    game.deal(0, parse_cards("Kh Kd Ac 4c 3c 2c"))
    game.deal(1, parse_cards("Qh Ah Ks 2s 3s 4s"))
    game.discard(0, parse_cards("3c 2c"))
    game.discard(1, parse_cards("3s 4s"))
    game.turn_starter(card("9c"))
    for player, what in [(1, "Qh"), (0, "Kh"), (1, "Ah")]:
        game.play(player, card(what))
    assert game.play(0, card("Kd")).points == 2  # 31
    op = game.play(1, card("Ks"))  # a king after the king that made 31: no pair, a fresh count
    assert op.points == 0 and game.snapshot().count == 10


def test_settings_round_trip_through_json() -> None:
    import json

    for settings in (
        Settings(),
        Settings(variant=FIVE_CARD, counting=Counting.CLAIMS, muggins_in_play=True),
        Settings(variant=FOUR_PLAYER, target=61, skunk_line=40, double_skunk_line=None, match_games=1),
        Settings(over_claim=OverClaim.OPPONENT_TAKES, first_deal=FirstDeal.LOSER, match_games=5),
    ):
        again = Settings.from_dict(json.loads(json.dumps(settings.to_dict())))
        assert again.to_dict() == settings.to_dict()
        assert again.skunk == settings.skunk and again.game_target == settings.game_target


def test_the_most_a_three_card_hand_scores_is_20_so_higher_claims_are_refused() -> None:
    """Five-card cribbage: checked over every three-card hand with every starter.

    Swapping suits changes no score, so only hands whose first card (lowest rank, then lowest suit) is a
    club are scored: every other hand is one of those with its suits renamed.
    """
    from itertools import combinations

    from companion.cards import Suit, full_deck
    from companion.rules.game import MAX_HAND

    deck = full_deck()
    best = max(
        score_hand(hand, starter).total
        for hand in combinations(deck, 3)
        if hand[0].suit is Suit.CLUBS
        for starter in deck
        if starter not in hand
    )
    assert best == MAX_HAND[3] == 20
    assert MAX_HAND[4] == 29


def test_four_players_play_to_121_and_three_players_too() -> None:
    assert FOUR_PLAYER.target == THREE_PLAYER.target == 121
    assert Game(variant=FOUR_PLAYER).snapshot().target == 121
