"""The engine's actions as JSON for the journal, and back.

The rules engine writes an action as a dict (:func:`companion.rules.game.action_to_dict`); the journal
keeps that text, and resuming reads it back here.  A row that cannot be read is a clear error naming it,
never a half-replayed game.
"""

from __future__ import annotations

from typing import Any

from companion.cards import Card
from companion.rules.game import (
    Action,
    Claim,
    Count,
    Counting,
    CutForDeal,
    Deal,
    DealCrib,
    Discard,
    Go,
    Muggins,
    NextGame,
    PassMuggins,
    Play,
    SwitchCounting,
    TurnStarter,
    action_to_dict,
)

__all__ = ["action_from_dict", "action_to_dict"]


def _card(data: dict[str, Any]) -> Card:
    return Card.parse(str(data["card"]))


def _cards(data: dict[str, Any]) -> tuple[Card, ...] | None:
    cards = data.get("cards")
    return None if cards is None else tuple(Card.parse(str(c)) for c in cards)


def action_from_dict(data: dict[str, Any]) -> Action:
    """Read one journalled action; an unknown or mangled one is a ValueError saying which."""
    name = data.get("action")
    try:
        match name:
            case "cut":
                return CutForDeal(int(data["player"]), _card(data))
            case "deal":
                return Deal(int(data["player"]), _cards(data))
            case "deal-crib":
                return DealCrib(None if data.get("card") is None else _card(data))
            case "discard":
                return Discard(int(data["player"]), _cards(data))
            case "starter":
                return TurnStarter(_card(data))
            case "play":
                return Play(int(data["player"]), _card(data))
            case "go":
                return Go(int(data["player"]))
            case "count":
                return Count(int(data["player"]), str(data["what"]), _cards(data))
            case "claim":
                return Claim(int(data["player"]), str(data["what"]), int(data["points"]), _cards(data))
            case "muggins":
                return Muggins(int(data["player"]))
            case "pass":
                return PassMuggins()
            case "switch":
                return SwitchCounting(Counting(str(data["counting"])))
            case "next-game":
                return NextGame()
    except (KeyError, TypeError) as error:
        raise ValueError(f"the saved action {data!r} lacks {error}") from None
    raise ValueError(f"the saved action {data!r} is not one the companion knows")
