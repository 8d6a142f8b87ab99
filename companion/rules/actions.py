"""What a player (or the camera) says happened at the table: one small frozen value per kind of action.

Each action has two JSON directions here (:func:`action_to_dict` and :func:`action_from_dict`, for the
scoreboard and the log) and one text form, the game notation (:mod:`companion.rules.notation`), which
is what a saved game is written in.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar, Final, TypeAlias

from companion.cards import Card
from companion.rules.settings import Counting

__all__ = [
    "Action",
    "Claim",
    "Count",
    "CutForDeal",
    "Deal",
    "DealCrib",
    "Discard",
    "Go",
    "Muggins",
    "NextGame",
    "PassMuggins",
    "Play",
    "SwitchCounting",
    "TurnStarter",
    "action_from_dict",
    "action_to_dict",
]


@dataclass(frozen=True, slots=True)
class CutForDeal:
    """A player cut ``card`` to decide who deals first (lower deals; ten-cards are all equal)."""

    name: ClassVar[str] = "cut"
    player: int
    card: Card


@dataclass(frozen=True, slots=True)
class Deal:
    """The dealer dealt ``player`` their cards; ``None`` when they were dealt face down, unseen."""

    name: ClassVar[str] = "deal"
    player: int
    cards: tuple[Card, ...] | None = None


@dataclass(frozen=True, slots=True)
class DealCrib:
    """Three players: the dealer dealt one card straight to the crib (``None``: face down, unseen)."""

    name: ClassVar[str] = "deal-crib"
    card: Card | None = None


@dataclass(frozen=True, slots=True)
class Discard:
    """A player threw cards to the crib (``None``: face down, unseen)."""

    name: ClassVar[str] = "discard"
    player: int
    cards: tuple[Card, ...] | None = None


@dataclass(frozen=True, slots=True)
class TurnStarter:
    """The dealer turned up the starter (a jack is two for his heels)."""

    name: ClassVar[str] = "starter"
    card: Card


@dataclass(frozen=True, slots=True)
class Play:
    """A player laid a card in the play."""

    name: ClassVar[str] = "play"
    player: int
    card: Card


@dataclass(frozen=True, slots=True)
class Go:
    """A player said go: they cannot lay a card without passing 31."""

    name: ClassVar[str] = "go"
    player: int


@dataclass(frozen=True, slots=True)
class Count:
    """Automatic counting: show ``player``'s hand, or the crib (the dealer's), and peg the true count.

    ``cards`` gives the shown cards when the engine has not seen them (a crib thrown face down).
    """

    name: ClassVar[str] = "count"
    player: int
    what: str
    cards: tuple[Card, ...] | None = None


@dataclass(frozen=True, slots=True)
class Claim:
    """Players counting: ``player`` claims ``points`` for their hand, the crib, or a card in the play."""

    name: ClassVar[str] = "claim"
    player: int
    what: str
    points: int
    cards: tuple[Card, ...] | None = None


@dataclass(frozen=True, slots=True)
class Muggins:
    """An opponent calls muggins on points a player left behind, and pegs them."""

    name: ClassVar[str] = "muggins"
    player: int


@dataclass(frozen=True, slots=True)
class PassMuggins:
    """The chance to call muggins passes unused."""

    name: ClassVar[str] = "pass"


@dataclass(frozen=True, slots=True)
class SwitchCounting:
    """Switch between automatic counting and players claiming, mid-game."""

    name: ClassVar[str] = "switch"
    counting: Counting


@dataclass(frozen=True, slots=True)
class NextGame:
    """Start the next game of the match."""

    name: ClassVar[str] = "next-game"


Action: TypeAlias = (
    CutForDeal
    | Deal
    | DealCrib
    | Discard
    | TurnStarter
    | Play
    | Go
    | Count
    | Claim
    | Muggins
    | PassMuggins
    | SwitchCounting
    | NextGame
)

WHATS: Final = ("hand", "crib", "play")


def action_to_dict(action: Action) -> dict[str, object]:
    """A JSON-ready form of an action: ``{"action": name, ...fields}`` with cards as text."""
    out: dict[str, object] = {"action": action.name}
    for key in ("player", "what", "points"):
        if hasattr(action, key):
            out[key] = getattr(action, key)
    if isinstance(action, CutForDeal | TurnStarter | Play):
        out["card"] = str(action.card)
    if isinstance(action, DealCrib):
        out["card"] = None if action.card is None else str(action.card)
    if isinstance(action, Deal | Discard | Count | Claim):
        out["cards"] = None if action.cards is None else [str(c) for c in action.cards]
    if isinstance(action, SwitchCounting):
        out["counting"] = action.counting.value
    return out


def _card(data: dict[str, Any]) -> Card:
    return Card.parse(str(data["card"]))


def _card_list(data: dict[str, Any]) -> tuple[Card, ...] | None:
    cards = data.get("cards")
    return None if cards is None else tuple(Card.parse(str(c)) for c in cards)


def action_from_dict(data: dict[str, Any]) -> Action:
    """Read back :func:`action_to_dict`; an unknown or mangled action is a ValueError saying which."""
    name = data.get("action")
    try:
        match name:
            case "cut":
                return CutForDeal(int(data["player"]), _card(data))
            case "deal":
                return Deal(int(data["player"]), _card_list(data))
            case "deal-crib":
                return DealCrib(None if data.get("card") is None else _card(data))
            case "discard":
                return Discard(int(data["player"]), _card_list(data))
            case "starter":
                return TurnStarter(_card(data))
            case "play":
                return Play(int(data["player"]), _card(data))
            case "go":
                return Go(int(data["player"]))
            case "count":
                return Count(int(data["player"]), str(data["what"]), _card_list(data))
            case "claim":
                return Claim(int(data["player"]), str(data["what"]), int(data["points"]), _card_list(data))
            case "muggins":
                return Muggins(int(data["player"]))
            case "pass":
                return PassMuggins()
            case "switch":
                return SwitchCounting(Counting(str(data["counting"])))
            case "next-game":
                return NextGame()
    except (KeyError, TypeError) as error:
        raise ValueError(f"the action {data!r} lacks {error}") from None
    raise ValueError(f"the action {data!r} is not one the companion knows")
