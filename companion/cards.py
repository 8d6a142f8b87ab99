"""Playing cards as small frozen values, at the bottom of the import graph.

Every part of the companion -- the camera, the rules, the board, the saved game -- talks about cards in
one canonical text form so that a card read by the camera, typed at a terminal or written in a game file
is the same value:

* the rank is ``A``, ``2`` ... ``10``, ``J``, ``Q``, ``K`` (upper case, ten written ``10``);
* the suit is ``c``, ``d``, ``h``, ``s`` (lower case).

So ``str(Card.parse("th")) == "10h"`` and ``str(Card.parse("q♠")) == "Qs"``.  ``repr`` is a
``Card.parse`` call that can be pasted back.  Parsing is lenient (upper or lower case, ``T`` or ``10``,
suit symbols), printing is strict.

What the camera may see besides a named card -- a card face down (:data:`BACK`) or one it could not read
(:data:`UNKNOWN`) -- is defined here too, as :class:`Mark`, so the table's events (which import nothing
of the companion but this module) can carry "a card, or the unread mark" as a value, not as text.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from enum import Enum, StrEnum
from typing import Final, TypeAlias

__all__ = [
    "BACK",
    "RANKS",
    "SUITS",
    "UNKNOWN",
    "Card",
    "InvalidCard",
    "Mark",
    "Rank",
    "Seen",
    "Suit",
    "Zone",
    "full_deck",
    "parse_cards",
    "seen_from_text",
]


class InvalidCard(ValueError):
    """Text that does not name a playing card (a parse error, not a rules error)."""


class Suit(Enum):
    """The four suits, valued by their canonical letter."""

    CLUBS = "c"
    DIAMONDS = "d"
    HEARTS = "h"
    SPADES = "s"

    @property
    def symbol(self) -> str:
        """The printed suit symbol, for people (never used in the canonical text)."""
        return _SUIT_SYMBOL[self]

    @property
    def noun(self) -> str:
        """The suit's name as spoken ("hearts")."""
        return self.name.lower()


_SUIT_SYMBOL: Final = {
    Suit.CLUBS: "♣",
    Suit.DIAMONDS: "♦",
    Suit.HEARTS: "♥",
    Suit.SPADES: "♠",
}


class Rank(Enum):
    """The thirteen ranks; the value is the run order (ace low, king high)."""

    ACE = 1
    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13

    @property
    def order(self) -> int:
        """Position in a run: A=1 ... K=13 (aces are low in cribbage, never high)."""
        return self.value

    @property
    def pips(self) -> int:
        """Counting value toward fifteen and 31: A=1, number cards their number, court cards 10."""
        return min(self.value, 10)

    @property
    def text(self) -> str:
        """Canonical rank text: A 2 3 4 5 6 7 8 9 10 J Q K."""
        return _RANK_TEXT[self]

    @property
    def noun(self) -> str:
        """The rank as spoken in a count ("five", "jack")."""
        return self.name.lower()

    @property
    def plural(self) -> str:
        """The spoken plural ("fives", "sixes")."""
        return "sixes" if self is Rank.SIX else self.noun + "s"


_RANK_TEXT: Final = {
    rank: {1: "A", 11: "J", 12: "Q", 13: "K"}.get(rank.value, str(rank.value)) for rank in Rank
}
_RANK_BY_TEXT: Final = {text: rank for rank, text in _RANK_TEXT.items()} | {"T": Rank.TEN}
_SUIT_BY_TEXT: Final = (
    {suit.value: suit for suit in Suit}
    | {sym: s for s, sym in _SUIT_SYMBOL.items()}
    | {
        "♧": Suit.CLUBS,
        "♢": Suit.DIAMONDS,
        "♡": Suit.HEARTS,
        "♤": Suit.SPADES,
    }
)
_ALLOWED: Final = (
    "a rank (A, 2-10, T, J, Q, K, any case) followed by a suit (c, d, h, s or ♣ ♦ ♥ ♠), e.g. 5h, 10d, Qs"
)
_CARD_RE: Final = re.compile(r"^(10|[0-9atjqk])(.)$", re.IGNORECASE)
_SEPARATORS: Final = re.compile(r"[\s,;]+")

RANKS: Final = tuple(Rank)
_SUIT_INDEX: Final = {suit: i for i, suit in enumerate(Suit)}
SUITS: Final = tuple(Suit)


@dataclass(frozen=True, order=True, slots=True)
class Card:
    """One playing card.  Ordered by rank then suit (its :attr:`index`), so sorted hands read naturally.

    ``index``, ``order`` and ``pips`` are worked out once when the card is made: the exhaustive checks
    score millions of hands, and plain attributes are several times faster than enum look-ups.
    """

    rank: Rank = field(compare=False)
    suit: Suit = field(compare=False)
    #: A dense number 0..51 (rank-major), handy for tables and bit sets; equality and order use it.
    index: int = field(init=False, repr=False)
    #: Run order: A=1 ... K=13.
    order: int = field(init=False, repr=False, compare=False)
    #: Counting value: A=1 ... 10, J, Q, K = 10.
    pips: int = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "order", self.rank.value)
        object.__setattr__(self, "pips", min(self.rank.value, 10))
        object.__setattr__(self, "index", (self.rank.value - 1) * 4 + _SUIT_INDEX[self.suit])

    @classmethod
    def parse(cls, text: str) -> Card:
        """Read one card as people and programs write it (``5h``, ``10H``, ``Th``, ``q♠``)."""
        token = text.strip()
        match = _CARD_RE.match(token)
        if match is None:
            raise InvalidCard(f"{text!r} is not a card: expected {_ALLOWED}")
        rank_text, suit_text = match.group(1).upper(), match.group(2)
        rank = _RANK_BY_TEXT.get(rank_text)
        suit = _SUIT_BY_TEXT.get(suit_text.lower())
        if rank is None:
            raise InvalidCard(f"{text!r} has no rank {match.group(1)!r}: expected {_ALLOWED}")
        if suit is None:
            raise InvalidCard(f"{text!r} has no suit {suit_text!r}: expected {_ALLOWED}")
        return cls(rank, suit)

    @classmethod
    def from_index(cls, index: int) -> Card:
        """The inverse of :attr:`index`."""
        if not 0 <= index < 52:
            raise InvalidCard(f"card index {index} is outside 0..51")
        return _DECK[index]

    @property
    def name(self) -> str:
        """The card as spoken: "five of hearts"."""
        return f"{self.rank.noun} of {self.suit.noun}"

    def __str__(self) -> str:
        return f"{self.rank.text}{self.suit.value}"

    def __repr__(self) -> str:
        return f"Card.parse({str(self)!r})"


_DECK: Final = tuple(Card(rank, suit) for rank in Rank for suit in Suit)


def full_deck() -> tuple[Card, ...]:
    """The 52 cards in index order (a fresh tuple each call is unnecessary: it is immutable)."""
    return _DECK


def _tokens(text: str) -> Iterator[str]:
    for token in _SEPARATORS.split(text.strip()):
        if token:
            yield token


def parse_cards(text: str | Iterable[str]) -> tuple[Card, ...]:
    """Read a list of cards: ``"5h 5d 5s jc"``, ``"5h,5d"`` or an iterable of tokens.

    Duplicates are kept: whether a repeated card is an error depends on the caller (a misread from the
    camera is a warning; a hand typed twice at the terminal is an error), so that decision is not made
    here.
    """
    tokens = list(_tokens(text)) if isinstance(text, str) else [t for s in text for t in _tokens(s)]
    return tuple(Card.parse(token) for token in tokens)


class Mark(StrEnum):
    """What the camera can see besides a named card."""

    BACK = "back"
    """A card lying face down (the pack, the crib, a hand put down)."""
    UNKNOWN = "unknown"
    """A face-up card the recogniser could not name with confidence."""


BACK: Final = Mark.BACK
UNKNOWN: Final = Mark.UNKNOWN

Seen: TypeAlias = Card | Mark
"""What the camera saw where a card lies: a card, a back, or a card that could not be read."""


def seen_from_text(text: str) -> Seen:
    """``"back"``, ``"unknown"`` or a card's canonical text (``"5h"``) as the value it names."""
    if text in (BACK, UNKNOWN):
        return Mark(text)
    card = Card.parse(text)
    if str(card) != text:
        raise ValueError(f"{text!r} is not in canonical card form")
    return card


class Zone(StrEnum):
    """A part of the table (the camera finds them: :mod:`companion.vision.zones`)."""

    PLAYER0 = "player0"
    """In front of the first player named (the bottom of the camera's picture): their cut and plays."""
    PLAYER1 = "player1"
    PLAYER2 = "player2"
    PLAYER3 = "player3"
    STARTER = "starter"
    """The pack's spot, where the starter is turned."""
    CRIB = "crib"

    @classmethod
    def of_player(cls, player: int) -> Zone:
        """The zone in front of ``player`` (counted from 0, in the order the players are named)."""
        return cls(f"player{player}")

    @property
    def player(self) -> int | None:
        """Whose zone this is (from 0), or None for the starter and the crib."""
        return int(self.value[6:]) if self.value.startswith("player") else None
