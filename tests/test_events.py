"""A card an event carries is a value: a named card or the camera's unread mark, never loose text."""

from __future__ import annotations

import pytest

from companion.cards import BACK, UNKNOWN, Card
from companion.events import CardLanded, CardLifted, TableNotice, event_from_dict, event_to_dict
from companion.vision import types


def test_a_card_landed_carries_the_card_or_the_unread_mark_and_keeps_its_text_form_in_json() -> None:
    read = CardLanded(
        Card.parse("10h"), "player0", why="read 10h or 10d; 10d is the starter: 10h", also_near=("starter",)
    )
    unread = CardLanded(UNKNOWN, "crib", likely=("6h", "9h"))
    assert event_to_dict(read)["card"] == "10h" and event_to_dict(unread)["card"] == "unknown"
    assert read.also_near == (types.Zone.STARTER,) and event_to_dict(read)["also_near"] == ["starter"]
    for event in (read, unread, CardLifted(Card.parse("Qs"), "starter"), TableNotice("44 cards at once")):
        assert event_from_dict(event_to_dict(event)) == event
    assert CardLanded("Kd", "player1").card == Card.parse("Kd")  # a recording's text is read once
    assert CardLanded("back", "crib").card is BACK


def test_the_vision_and_the_events_share_one_unread_mark() -> None:
    assert types.UNKNOWN is UNKNOWN and types.BACK is BACK


@pytest.mark.parametrize("bad", ["kd", "11h", "nothing"])
def test_a_card_not_in_canonical_form_is_refused(bad: str) -> None:
    with pytest.raises(ValueError):
        CardLanded(bad, "player0")


def test_a_lifted_card_is_a_named_card() -> None:
    with pytest.raises(ValueError, match="a card lifted is a card the camera named"):
        CardLifted(UNKNOWN, "crib")  # type: ignore[arg-type]
