"""Scoring items and the way a player counts them aloud.

Every point the companion pegs is a :class:`ScoreItem` naming the exact cards that made it, so a dispute
can be settled by pointing at them.  The spoken form follows how the count is said at the table:
running totals ("fifteen two, fifteen four, and a pair is six"), pairs of one rank said together
("a pair royal is six"), and each run said on its own ("a run is nine, and a run is twelve"), as the
primary rules text counts 7-8-8-K with a 9.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum
from typing import Final

from companion.cards import Card

__all__ = ["Kind", "ScoreItem", "number_word", "spoken_count"]


class Kind(Enum):
    """What an item scored for; the value is the name used in JSON and game files."""

    FIFTEEN = "fifteen"
    PAIR = "pair"
    RUN = "run"
    FLUSH = "flush"
    NOBS = "nobs"
    HEELS = "heels"
    THIRTY_ONE = "thirty-one"
    PAIR_ROYAL = "pair-royal"
    DOUBLE_PAIR_ROYAL = "double-pair-royal"
    LAST_CARD = "last-card"
    THREE_FOR_LAST = "three-for-last"


@dataclass(frozen=True, slots=True)
class ScoreItem:
    """One scoring combination: its kind, the cards that make it, and the points it is worth."""

    kind: Kind
    cards: tuple[Card, ...]
    points: int

    def to_dict(self) -> dict[str, object]:
        """A JSON-ready form (cards in canonical text)."""
        return {"kind": self.kind.value, "cards": [str(c) for c in self.cards], "points": self.points}


_WORDS: Final = [
    "nothing",
    "one",
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
    "eleven",
    "twelve",
    "thirteen",
    "fourteen",
    "fifteen",
    "sixteen",
    "seventeen",
    "eighteen",
    "nineteen",
    "twenty",
]
_TENS: Final = {2: "twenty", 3: "thirty", 4: "forty", 5: "fifty"}


def number_word(n: int) -> str:
    """A small non-negative number as spoken ("twenty-nine"); larger ones as digits."""
    if 0 <= n < len(_WORDS):
        return _WORDS[n]
    if 20 < n < 60:
        tens, ones = divmod(n, 10)
        return _TENS[tens] + (f"-{_WORDS[ones]}" if ones else "")
    return str(n)


_SAME_RANK_NAMES: Final = {2: "a pair", 3: "a pair royal", 4: "a double pair royal"}
_RUN_MULTIPLES: Final = {1: "a run", 2: "a double run", 3: "a triple run", 4: "a quadruple run"}


def _phrases(items: Sequence[ScoreItem]) -> list[tuple[str, int]]:
    """Group items the way they are said aloud: (phrase, points) in the order of the count."""
    phrases: list[tuple[str, int]] = []
    index = 0
    while index < len(items):
        item = items[index]
        if item.kind is Kind.FIFTEEN:
            phrases.append(("fifteen", item.points))
            index += 1
        elif item.kind is Kind.PAIR:
            rank = item.cards[0].rank
            group = [it for it in items[index:] if it.kind is Kind.PAIR and it.cards[0].rank is rank]
            cards = {c for it in group for c in it.cards}
            name = _SAME_RANK_NAMES.get(len(cards), f"{len(group)} pairs")
            phrases.append((f"{name} of {rank.plural}", sum(it.points for it in group)))
            index += len(group)
        elif item.kind is Kind.RUN:
            length = len(item.cards)
            phrases.append((f"a run of {number_word(length)}", item.points))
            index += 1
        elif item.kind is Kind.FLUSH:
            phrases.append((f"a flush of {number_word(len(item.cards))}", item.points))
            index += 1
        else:
            phrases.append((_SINGLE_NAMES[item.kind], item.points))
            index += 1
    return phrases


_SINGLE_NAMES: Final = {
    Kind.NOBS: "one for his nobs",
    Kind.HEELS: "two for his heels",
    Kind.THIRTY_ONE: "thirty-one for two",
    Kind.PAIR_ROYAL: "a pair royal",
    Kind.DOUBLE_PAIR_ROYAL: "a double pair royal",
    Kind.LAST_CARD: "one for last",
    Kind.THREE_FOR_LAST: "three for last",
}


def spoken_count(items: Sequence[ScoreItem]) -> str:
    """The count as a player says it, with running totals.

    >>> from companion.cards import parse_cards
    >>> a, b, c = parse_cards("5h 10s 5d")
    >>> spoken_count([ScoreItem(Kind.FIFTEEN, (a, b), 2), ScoreItem(Kind.FIFTEEN, (b, c), 2),
    ...               ScoreItem(Kind.PAIR, (a, c), 2)])
    'fifteen two, fifteen four, and a pair of fives is six'
    """
    if not items:
        return "nineteen: nothing to count"
    said: list[str] = []
    total = 0
    for phrase, points in _phrases(items):
        total += points
        if phrase == "fifteen":
            said.append(f"fifteen {number_word(total)}")
        elif phrase == "one for his nobs" and total == points:
            said.append("one for his nobs")
        else:
            said.append(f"{phrase} is {number_word(total)}")
    if len(said) == 1:
        return said[0]
    return ", ".join(said[:-1]) + ", and " + said[-1]
