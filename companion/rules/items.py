"""Scoring items and the way a player counts them aloud.

Every point the companion pegs is a :class:`ScoreItem` naming the exact cards that made it, so a dispute
can be settled by pointing at them.  The spoken form follows how the count is said at the table:
running totals ("fifteen two, fifteen four, and a pair is six"), pairs of one rank said together
("a pair royal is six"), and runs that share cards said as the one combination players name, with the
pairs inside it: "a double run of three" (3-3-4-5: two runs and a pair, eight), "a double run of four"
(3-3-4-5-6: ten), "a triple run" (3-3-3-4-5: three runs and a pair royal, fifteen) and "a double
double run" (3-3-4-4-5: four runs and two pairs, sixteen; the American rules text calls it a
quadruple run).  Fifteens still come first, so the primary text's 7-8-8-K with a 9 is said "fifteen
two, fifteen four, and a double run of three is twelve".  The items themselves stay one per
combination of cards, so the scoreboard can still point at every pair and every run.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum
from math import prod
from typing import Final

from companion.cards import Card, Rank

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
#: Runs sharing cards, by how many cards of each repeated rank they hold (largest first).
_RUN_COMBINATIONS: Final = {
    (): "a run",
    (2,): "a double run",
    (3,): "a triple run",
    (2, 2): "a double double run",
}


def _run_combination(items: Sequence[ScoreItem]) -> tuple[str, frozenset[Rank]] | None:
    """The name players give the show's runs taken together, and the ranks whose pairs it takes in.

    "a run of three" for one run; "a double run of three" (or "of four") when one rank of the run is
    paired; "a triple run" when one rank is held three times; "a double double run" when two ranks are
    paired.  Only three-card runs can be tripled or doubled twice in five cards, so those two names are
    said without the length, as players say them.  None when the items are no such combination (no
    runs, or runs of mixed lengths or a shape no name covers): then each run is said on its own.
    """
    runs = [item for item in items if item.kind is Kind.RUN]
    if not runs or len({len(run.cards) for run in runs}) != 1:
        return None
    length = len(runs[0].cards)
    held: dict[Rank, set[Card]] = {}
    for run in runs:
        for card in run.cards:
            held.setdefault(card.rank, set()).add(card)
    repeated = tuple(sorted((len(cards) for cards in held.values() if len(cards) > 1), reverse=True))
    name = _RUN_COMBINATIONS.get(repeated)
    if name is None or len(runs) != prod(repeated):
        return None
    if repeated in ((), (2,)) or length != 3:
        name = f"{name} of {number_word(length)}"
    return name, frozenset(held)


def _pair_of(item: ScoreItem, ranks: frozenset[Rank]) -> bool:
    """Whether the item is a pair of one of these ranks."""
    return item.kind is Kind.PAIR and item.cards[0].rank in ranks


def _phrases(items: Sequence[ScoreItem]) -> list[tuple[str, int]]:
    """Group items the way they are said aloud: (phrase, points) in the order of the count."""
    phrases: list[tuple[str, int]] = []
    combination = _run_combination(items)
    taken_in = combination[1] if combination else frozenset()
    combination_said = False
    index = 0
    while index < len(items):
        item = items[index]
        if item.kind is Kind.FIFTEEN:
            phrases.append(("fifteen", item.points))
            index += 1
        elif _pair_of(item, taken_in):
            index += 1  # said as part of the run combination
        elif item.kind is Kind.RUN and combination is not None:
            if not combination_said:  # the whole combination at its first run, later runs in it
                inside = [it for it in items if it.kind is Kind.RUN or _pair_of(it, taken_in)]
                phrases.append((combination[0], sum(it.points for it in inside)))
                combination_said = True
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
