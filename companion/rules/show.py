"""The show: scoring a hand or the crib together with the starter.

The combinations that depend only on ranks (fifteens, pairs, runs) are worked out once per multiset of
ranks and remembered: there are only 6,175 possible multisets of five ranks, so after a warm-up every
hand is a table look-up plus the flush and nobs, which depend on suits.  The same function fills the
bulk tables in :mod:`companion.rules.bulk`, so the exhaustive figures and the app can never disagree.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import lru_cache
from itertools import combinations
from operator import attrgetter

from companion.cards import Card, Rank
from companion.rules.errors import IllegalHand
from companion.rules.items import Kind, ScoreItem, spoken_count

__all__ = ["ShowScore", "rank_combinations", "score_hand"]

#: A combination found among ranks alone: its kind, the positions (into the cards sorted by
#: :func:`_show_order`) that make it, and its points.
Template = tuple[tuple[Kind, tuple[int, ...], int], ...]


@dataclass(frozen=True, slots=True)
class ShowScore:
    """A counted hand or crib: every scoring item with its exact cards, and the total.

    The items are built from the remembered rank combinations only when asked for: the exhaustive
    checks score millions of hands and need only the total, while the table needs every item.
    """

    hand: tuple[Card, ...]
    starter: Card
    crib: bool
    total: int
    cards: tuple[Card, ...] = field(repr=False, compare=False)
    combinations: Template = field(repr=False, compare=False)
    flush: tuple[Card, ...] = field(repr=False, compare=False)
    nobs: Card | None = field(repr=False, compare=False)

    @property
    def items(self) -> tuple[ScoreItem, ...]:
        """Every scoring item, in the order they are counted aloud (fifteens, pairs, runs, flush, nobs)."""
        found = [
            ScoreItem(kind, tuple(self.cards[i] for i in positions), points)
            for kind, positions, points in self.combinations
        ]
        if self.flush:
            found.append(ScoreItem(Kind.FLUSH, self.flush, len(self.flush)))
        if self.nobs is not None:
            found.append(ScoreItem(Kind.NOBS, (self.nobs,), 1))
        return tuple(found)

    def explain(self) -> str:
        """The count as a seasoned player says it: "fifteen two, fifteen four, and a pair is six"."""
        return spoken_count(self.items)

    def to_dict(self) -> dict[str, object]:
        """A JSON-ready form."""
        return {
            "hand": [str(c) for c in self.hand],
            "starter": str(self.starter),
            "crib": self.crib,
            "items": [item.to_dict() for item in self.items],
            "total": self.total,
            "explain": self.explain(),
        }


_JACK = Rank.JACK.value
_show_order = attrgetter("index")  # rank-major, so this sorts by run order then suit


def rank_combinations(orders: tuple[int, ...]) -> Template:
    """Fifteens, pairs and runs among cards of these run orders (sorted ascending).

    Returns positions rather than cards so that one answer serves every suit assignment.  Runs follow
    the rules: the longest run length present is the only one that counts, once for every way of
    choosing one card of each rank in it (so 8-9-9-10 is two runs of three).
    """
    pips = [min(order, 10) for order in orders]
    positions = range(len(orders))
    found: list[tuple[Kind, tuple[int, ...], int]] = []
    for size in range(2, len(orders) + 1):
        for subset in combinations(positions, size):
            if sum(pips[i] for i in subset) == 15:
                found.append((Kind.FIFTEEN, subset, 2))
    for a, b in combinations(positions, 2):
        if orders[a] == orders[b]:
            found.append((Kind.PAIR, (a, b), 2))
    for length in range(len(orders), 2, -1):
        runs = [
            subset
            for subset in combinations(positions, length)
            if len({orders[i] for i in subset}) == length
            and orders[subset[-1]] - orders[subset[0]] == length - 1
        ]
        if runs:
            found.extend((Kind.RUN, subset, length) for subset in runs)
            break
    return tuple(found)


def score_hand(hand: Iterable[Card], starter: Card, *, crib: bool = False) -> ShowScore:
    """Count a hand (four cards, or three in five-card cribbage) or the crib with the starter.

    Flushes: every card of the hand in one suit scores one a card, one more if the starter matches;
    in the crib only a flush of all five (crib and starter) counts.  Nobs: a jack in the hand of the
    starter's suit scores one; a jack turned as the starter is his heels, scored at the cut, never here.
    """
    held = tuple(hand)
    if len(held) not in (3, 4):
        raise IllegalHand(f"a hand for the show has 4 cards (3 in five-card cribbage), not {len(held)}")
    if crib and len(held) != 4:
        raise IllegalHand(f"a crib has 4 cards, not {len(held)}")
    cards = tuple(sorted((*held, starter), key=_show_order))
    orders = tuple([c.order for c in cards])
    if len({c.index for c in cards}) != len(cards):
        raise IllegalHand("the same card appears twice among the hand and the starter")
    combos, points = _rank_points(orders)
    flush: tuple[Card, ...] = ()
    if len({c.suit for c in held}) == 1:
        if starter.suit is held[0].suit:
            flush = cards
        elif not crib:
            flush = tuple(sorted(held, key=_show_order))
    nobs = None
    for card in held:
        if card.order == _JACK and card.suit is starter.suit:
            nobs = card
    total = points + len(flush) + (nobs is not None)
    return ShowScore(held, starter, crib, total, cards, combos, flush, nobs)


@lru_cache(maxsize=8192)
def _rank_points(orders: tuple[int, ...]) -> tuple[Template, int]:
    combos = rank_combinations(orders)
    return combos, sum(points for _, _, points in combos)
