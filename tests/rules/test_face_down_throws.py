"""Dealt face up, thrown face down: the engine knows six cards and that four of them are the hand.

Primary text: a player who cannot lay a card without passing 31 says "go".  When the throw was not
seen, the engine cannot tell which two of the six cards left the hand, so a go is refused only when
no choice of the two thrown cards leaves a hand with nothing that fits; the crib shown later must hold
two of the player's six cards, including every card a go showed was thrown.
"""

from __future__ import annotations

import pytest

from companion.cards import Card, parse_cards
from companion.rules.errors import IllegalAction, IllegalPlay
from companion.rules.game import Game, Phase
from companion.rules.notation import load_game

OPENING = [
    "match 1",
    "cut 0 Ac",
    "cut 1 Kc",
    "deal 0 5h 5d 5s Jc 2c 3c",
    "deal 1 7h 8h 9h 10h Qs Ks",
    "discard 0",
    "discard 1",
    "starter 4d",
    "play 1 10h",
    "play 0 Jc",
    "play 1 9h",
]


def opened() -> Game:
    return load_game(OPENING)


def test_a_go_is_legal_when_the_cards_that_fit_could_have_been_thrown() -> None:
    game = opened()
    assert game.snapshot().count == 29
    game.go(0)  # 2c fits, but 2c may be one of the two cards thrown to the crib
    game.go(1)
    assert game.snapshot().count == 0


def test_a_go_is_refused_when_more_cards_fit_than_were_thrown() -> None:
    game = load_game(OPENING[:-1])  # count 20, player 1 to lay: all five of their cards fit
    with pytest.raises(IllegalPlay, match="player 1 cannot say go: 7h fits under 31"):
        game.go(1)


def test_a_card_a_go_showed_was_thrown_cannot_be_laid_later() -> None:
    game = opened()
    game.go(0)
    game.go(1)
    with pytest.raises(IllegalPlay, match="said go while 2c would have fitted"):
        game.play(0, Card.parse("2c"))


def test_the_crib_shown_must_hold_two_of_the_cards_dealt_to_each_player_who_threw_face_down() -> None:
    game = opened()
    game.go(0)
    game.go(1)
    for player, card in ((0, "5h"), (1, "7h"), (0, "5d"), (1, "8h"), (0, "5s")):
        game.play(player, Card.parse(card))
    assert game.phase is Phase.SHOW  # each laid four: the rest of the six went to the crib
    game.count(1, "hand")
    game.count(0, "hand")
    with pytest.raises(IllegalAction, match="so the crib holds two of 2c 3c, not 1"):
        game.count(0, "crib", parse_cards("3c Qs Ks 5c"))
    with pytest.raises(IllegalAction, match=r"player 1 threw two .* so the crib holds two of Qs Ks, not 1"):
        game.count(0, "crib", parse_cards("2c 3c Qs 6c"))
    op = game.count(0, "crib", parse_cards("2c 3c Qs Ks"))
    assert "shows the crib 2c 3c Qs Ks with 4d" in op.note
    assert game.dealer == 1 and game.phase is Phase.DEAL
