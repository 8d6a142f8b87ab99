"""Bad input: every illegal action is refused with a sentence saying what and why, and changes nothing.

Each case sets up a table, tries one action, and checks all three of the triad (``verify`` raises a
rules error with the expected words, ``can`` says no, doing it raises) and that the snapshot and the
log are exactly as before.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from companion.cards import Card, parse_cards
from companion.rules.errors import RulesError
from companion.rules.game import (
    Action,
    Claim,
    Count,
    Counting,
    CutForDeal,
    Deal,
    DealCrib,
    Discard,
    Game,
    Go,
    Muggins,
    NextGame,
    PassMuggins,
    Play,
    Settings,
    SwitchCounting,
    TurnStarter,
)
from companion.rules.variants import THREE_PLAYER


def c(text: str) -> Card:
    return Card.parse(text)


def cs(text: str) -> tuple[Card, ...]:
    return parse_cards(text)


def fresh() -> Game:
    return Game()


def one_cut() -> Game:
    game = Game()
    game.cut_for_deal(0, c("7h"))
    return game


def dealing(**settings: object) -> Game:
    game = Game(Settings(**settings))  # type: ignore[arg-type]
    game.cut_for_deal(0, c("Ac"))
    game.cut_for_deal(1, c("Kc"))
    return game


def half_dealt(**settings: object) -> Game:
    game = dealing(**settings)
    game.deal(0, cs("5h 5d 5s Jc 2c 3c"))
    return game


def discarding(**settings: object) -> Game:
    game = half_dealt(**settings)
    game.deal(1, cs("7h 8h 9h 10h Qs Ks"))
    return game


def one_discard() -> Game:
    game = discarding()
    game.discard(0, cs("2c 3c"))
    return game


def starter_due(**settings: object) -> Game:
    game = discarding(**settings)
    game.discard(0, cs("2c 3c"))
    game.discard(1, cs("Qs Ks"))
    return game


def playing(**settings: object) -> Game:
    game = starter_due(**settings)
    game.turn_starter(c("5c"))
    return game


def at_25() -> Game:
    game = playing()
    for player, card in ((1, "7h"), (0, "5h"), (1, "8h"), (0, "5d")):
        game.play(player, c(card))
    return game


def showing(**settings: object) -> Game:
    game = playing(**settings)
    for player, what in [
        (1, "7h"),
        (0, "5h"),
        (1, "8h"),
        (0, "5d"),
        (1, "go"),
        (0, "5s"),
        (0, "go"),
        (1, "9h"),
        (0, "Jc"),
        (1, "10h"),
    ]:
        if game.over:
            break
        game.go(player) if what == "go" else game.play(player, c(what))
    return game


def claiming() -> Game:
    return showing(counting=Counting.CLAIMS)


def hidden_crib() -> Game:
    game = dealing()
    game.deal(0)
    game.deal(1)
    game.discard(0)
    game.discard(1)
    game.turn_starter(c("5c"))
    for player, what in [
        (1, "7h"),
        (0, "5h"),
        (1, "8h"),
        (0, "5d"),
        (1, "go"),
        (0, "5s"),
        (0, "go"),
        (1, "9h"),
        (0, "Jc"),
        (1, "10h"),
    ]:
        game.go(player) if what == "go" else game.play(player, c(what))
    game.count(1, "hand")
    game.count(0, "hand")
    return game


def over(**settings: object) -> Game:
    game = showing(target=3, **settings)
    assert game.over
    return game


def three_dealing() -> Game:
    game = Game(variant=THREE_PLAYER)
    for player, card in enumerate(("Ac", "Kc", "Kd")):
        game.cut_for_deal(player, c(card))
    return game


CASES: list[tuple[str, Callable[[], Game], Action, str]] = [
    # wrong phase
    ("deal before the cut", fresh, Deal(0), "cannot deal while the players cut"),
    ("lay a card before the cut", fresh, Play(0, c("5h")), "cannot lay a card while the players cut"),
    (
        "throw during the deal",
        half_dealt,
        Discard(0, cs("2c 3c")),
        "cannot throw to the crib during the deal",
    ),
    ("lay before the starter", starter_due, Play(1, c("7h")), "cannot lay a card while the starter"),
    ("count during the play", at_25, Count(1, "hand"), "cannot count the hand during the play"),
    ("turn a starter in the play", playing, TurnStarter(c("Ah")), "cannot turn the starter during the play"),
    ("next game mid-game", showing, NextGame(), "finish this one first"),
    ("play after the game is won", over, Play(1, c("9h")), "the game is over"),
    ("next game when the match is won", lambda: over(match_games=1), NextGame(), "the match is over"),
    # wrong player
    ("a player who does not exist", fresh, CutForDeal(2, c("5h")), "no player 2"),
    ("cut twice", one_cut, CutForDeal(0, c("8h")), "already cut 7h"),
    ("lay out of turn", playing, Play(0, c("5h")), "player 1's turn"),
    ("show out of order", showing, Count(0, "hand"), "next in the show is player 1's hand"),
    ("the crib before the hands", showing, Count(0, "crib"), "next in the show is player 1's hand"),
    ("claim out of order", claiming, Claim(0, "hand", 29), "next in the show is player 1's hand"),
    ("muggins on oneself", lambda: _under_claimed(), Muggins(1), "only an opponent"),
    # a card seen twice in one deal
    ("the same card cut twice", one_cut, CutForDeal(1, c("7h")), "already cut by player 0"),
    ("a card dealt twice", half_dealt, Deal(1, cs("5h 8h 9h 10h Qs Ks")), "already been seen"),
    ("a card twice in one deal", dealing, Deal(0, cs("5h 5h 5s Jc 2c 3c")), "given twice"),
    ("a starter from a hand", starter_due, TurnStarter(c("Jc")), "already been seen"),
    ("a card laid that another holds", playing, Play(1, c("5h")), "does not hold 5h"),
    ("a hand shown that was not laid", showing, Count(1, "hand", cs("7h 8h 9h Jh")), "laid 7h 8h 9h 10h"),
    # wrong numbers
    ("six cards in a crib", discarding, Discard(0, cs("2c 3c 5h")), "must throw two cards"),
    ("throw a card not held", discarding, Discard(0, cs("2c 4c")), "not in their hand"),
    ("throw twice", one_discard, Discard(0, cs("5h 5d")), "already thrown"),
    ("deal twice to one player", half_dealt, Deal(0), "already been dealt"),
    ("five cards dealt", dealing, Deal(0, cs("5h 5d 5s Jc 2c")), "must be dealt 6 cards"),
    ("a card to the crib in six-card", dealing, DealCrib(c("Ah")), "no card is dealt straight to the crib"),
    ("a second crib card", lambda: _crib_dealt(), DealCrib(), "already been dealt its card"),
    ("a card past 31", at_25, Play(1, c("9h")), "past 31"),
    ("go at the start of a count", playing, Go(1), "nobody says go at the start"),
    ("go holding a card that fits", lambda: _after_7h(), Go(0), "player 0 cannot say go: 5d fits"),
    # claims
    ("a claim above 29 for a hand", claiming, Claim(1, "hand", 30), "the most a hand can score is 29"),
    ("a claim above 29 for the crib", lambda: _crib_due(), Claim(0, "crib", 30), "the most a crib"),
    ("a negative claim", claiming, Claim(1, "hand", -2), "0 or more"),
    ("a claim for nothing", claiming, Claim(1, "jackpot", 2), "not 'jackpot'"),
    (
        "a claim in the play with nothing pending",
        lambda: _under_claimed(),
        Claim(1, "play", 2),
        "nothing to claim",
    ),
    ("a claim for another's card", claiming, Claim(0, "play", 1), "only player 1 can claim"),
    ("a claim when the companion counts", showing, Claim(1, "hand", 12), "nobody claims"),
    ("a count when players claim", claiming, Count(1, "hand"), "must claim"),
    ("a false muggins call", showing, Muggins(0), "nothing to call muggins on"),
    ("pass with no muggins open", showing, PassMuggins(), "no muggins to pass"),
    ("switch to the mode in force", fresh, SwitchCounting(Counting.AUTO), "already auto"),
    # a crib thrown face down
    ("count a hidden crib without its cards", hidden_crib, Count(0, "crib"), "give its four cards"),
    ("a crib of three cards", hidden_crib, Count(0, "crib", cs("2c 3c Qs")), "four cards, not 3"),
    ("a crib card laid in the play", hidden_crib, Count(0, "crib", cs("2c 3c Qs 7h")), "already been seen"),
    ("a three-player crib dealt twice", three_dealing, Discard(0, cs("5h")), "during the deal"),
]


def _under_claimed() -> Game:
    game = claiming()
    game.claim(1, "play", 4)
    game.claim(1, "hand", 10)
    return game


def _after_7h() -> Game:
    game = playing()
    game.play(1, c("7h"))
    return game


def _crib_dealt() -> Game:
    game = three_dealing()
    game.deal_crib(c("Ks"))
    return game


def _crib_due() -> Game:
    game = claiming()
    game.claim(1, "play", 4)
    game.claim(1, "hand", 12)
    game.claim(0, "hand", 29)
    return game


@pytest.mark.parametrize(
    ("setup", "action", "words"), [case[1:] for case in CASES], ids=[c[0] for c in CASES]
)
def test_illegal_action_is_refused_with_a_sentence_and_changes_nothing(
    setup: Callable[[], Game], action: Action, words: str
) -> None:
    game = setup()
    before, log = game.snapshot(), game.log
    with pytest.raises(RulesError) as refused:
        game.verify(action)
    message = str(refused.value)
    assert words in message
    assert len(message.split()) >= 4, "a refusal is a sentence, not a code"
    assert not game.can(action)
    with pytest.raises(RulesError, match=words.replace("(", r"\(").replace(")", r"\)")):
        game.apply(action)
    assert game.snapshot() == before and game.log == log


def test_undo_with_nothing_done_is_refused() -> None:
    game = Game()
    assert not game.can_undo()
    with pytest.raises(RulesError, match="nothing to undo"):
        game.undo()


def test_the_named_triads_agree_with_the_generic_verify() -> None:
    game = at_25()
    assert not game.can_play(1, c("9h")) and game.can_play(1, c("10h")) is False
    assert game.can_play(1, c("Qs")) is False  # thrown to the crib
    assert game.can_go(1) and not game.can_go(0)
    game2 = playing()
    assert game2.can_play(1, c("7h")) and not game2.can_go(1)
