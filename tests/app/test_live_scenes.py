"""Short filmed scenes at a table in the play, read by the real card recognition through the camera feed:
a hand passing over, a card slid into place, a card lifted and laid again, two cards laid at once, a
card laid on the crib's spot in the play.  Each must reach the table as a player would expect."""

from __future__ import annotations

from collections.abc import Sequence

import cv2
import pytest

from companion.app.camera import CameraFeed
from companion.app.deck import load_deck
from companion.app.seen import GameView
from companion.app.table import Table
from companion.cards import Card
from companion.events import CardLanded, Event
from companion.vision.recognise import Recogniser
from companion.vision.scene import Placement, compose, wood
from companion.vision.sources import Shot
from companion.vision.types import Frame
from companion.vision.zones import TableLayout

from .helpers import feed, lay, table

W, H, CARD = 1280, 720, 96
ANN = Placement(600, 0.80 * H, 4, CARD)  # in front of Ann (the near side)
BOB = Placement(680, 0.20 * H, 183, CARD)  # in front of Bob, facing him
CRIB = Placement(0.68 * W, 0.5 * H, -3, CARD)
# Between Ann's place (640, 590) and the starter's (410, 360) of the usual zones: just nearer the
# starter's (158 pixels against 168), and a few pixels on, just nearer Ann's.
BETWEEN = Placement(515, 478, 10, CARD)
BETWEEN_ON = Placement(522, 485, 10, CARD)


@pytest.fixture(scope="module")
def recogniser() -> Recogniser:
    return Recogniser(filmed=True)


def picture(cards: Sequence[tuple[str, Placement]], hand: Placement | None = None) -> Frame:
    deck = load_deck()
    out = compose(wood(W, H, light=True), [deck.face(c) for c, _ in cards], [p for _, p in cards])
    if hand is not None:
        cv2.ellipse(out, (int(hand.x + 20), int(hand.y + 10)), (80, 60), 20, 0, 360, (120, 150, 205), -1)
    return out


def watch(recogniser: Recogniser, frames: Sequence[Frame]) -> tuple[list[Event], list[str]]:
    """The frames at 30 a second through the camera feed, at a table in the play (5c the starter, 9h
    laid by Bob); what it posted and what it said."""
    posted: list[Event] = []
    said: list[str] = []
    shots = [Shot(frame, n / 30.0, n) for n, frame in enumerate(frames)]
    feed_ = CameraFeed(
        shots,
        lambda e, _: posted.append(e),
        layout=TableLayout.default(W, H),
        recogniser=recogniser,
        say=said.append,
    )
    feed_.watch.view = GameView(
        "play", {Card.parse("5c"): "is the starter", Card.parse("9h"): "is already played"}, ("Ann", "Bob")
    )
    feed_.run()
    return posted, said


def landed(posted: Sequence[Event]) -> list[tuple[str, str]]:
    return [(str(e.card), e.zone) for e in posted if isinstance(e, CardLanded)]


def test_a_hand_passing_over_a_card_lying_there_makes_nothing_new(recogniser: Recogniser) -> None:
    laid = picture([("7d", ANN)])
    frames = [picture([])] * 3 + [laid] * 10 + [picture([("7d", ANN)], hand=ANN)] * 8 + [laid] * 10
    posted, said = watch(recogniser, frames)
    assert landed(posted) == [("7d", "player0")]
    assert said == ["7d in front of Ann"]


def test_a_card_slid_into_place_is_taken_once_where_it_comes_to_rest(recogniser: Recogniser) -> None:
    path = [Placement(300 + 40 * k, 0.80 * H, 4, CARD) for k in range(8)]
    frames = [picture([("Qs", p)]) for p in path] + [picture([("Qs", ANN)])] * 12
    posted, _ = watch(recogniser, frames)
    assert landed(posted) == [("Qs", "player0")]


def test_a_card_lifted_and_laid_again_at_once_is_taken_once(recogniser: Recogniser) -> None:
    laid = picture([("8c", BOB)])
    frames = [laid] * 10 + [picture([])] * 8 + [picture([("8c", Placement(690, 0.21 * H, 180, CARD))])] * 10
    posted, _ = watch(recogniser, frames)
    assert landed(posted) == [("8c", "player1")]


def test_two_cards_laid_at_once_by_the_two_players_are_both_taken(recogniser: Recogniser) -> None:
    frames = [picture([])] * 2 + [picture([("4h", ANN), ("Jc", BOB)])] * 12
    posted, _ = watch(recogniser, frames)
    assert sorted(landed(posted)) == [("4h", "player0"), ("Jc", "player1")]


def test_a_card_laid_on_the_crib_in_the_play_is_asked_about(recogniser: Recogniser) -> None:
    posted, _ = watch(recogniser, [picture([("3s", CRIB)])] * 12)
    assert landed(posted) == [("3s", "crib")]
    played = table()
    feed(played, lay("player0 2c", "player1 Kd", "starter 5c", "player1 9h"))
    for event in posted:
        played.handle(event)
    question = played.correction
    assert question is not None and "3s on the crib does not fit the game" in question.message


def _in_the_play(posted: Sequence[Event]) -> Table:
    """A table in the play (5c the starter, 9h laid by Bob: Ann to play) given what was posted."""
    played = table()
    feed(played, lay("player0 2c", "player1 Kd", "starter 5c", "player1 9h"))
    for event in posted:
        played.handle(event)
    return played


def test_a_card_laid_between_a_players_place_and_the_starters_is_taken_where_it_fits_the_game(
    recogniser: Recogniser,
) -> None:
    """A card of the play laid nearly as near the starter's spot as Ann's: the camera cannot tell
    them apart, the game can (the starter is turned already), and Ann's play is taken, not asked
    about."""
    posted, _ = watch(recogniser, [picture([])] * 2 + [picture([("4h", BETWEEN)])] * 12)
    assert landed(posted) == [("4h", "starter")]
    played = _in_the_play(posted)
    assert played.correction is None
    assert (0, Card.parse("4h")) in played.game.snapshot().deal_cards
    assert played.taken_in == "player0"
    assert "4h lay between two places; taken as laid in front of Ann" in played.notice


def test_a_card_wavering_between_two_places_is_no_card_moved(recogniser: Recogniser) -> None:
    """A card at rest between two zones, seen a few pixels on now and then (the camera's noise, the
    table nudged), is one card laid, not laid again in the other zone."""
    here, there = picture([("4h", BETWEEN)]), picture([("4h", BETWEEN_ON)])
    posted, _ = watch(recogniser, [picture([])] * 2 + ([here] * 12 + [there] * 12) * 2)
    assert len(landed(posted)) == 1
    played = _in_the_play(posted)
    assert played.correction is None and (0, Card.parse("4h")) in played.game.snapshot().deal_cards
