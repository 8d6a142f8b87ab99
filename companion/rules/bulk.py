"""Every hand at once: the show total of all 12,994,800 hand-and-starter combinations, with NumPy.

This serves figures that need every hand (the published score distribution, expected values for a
discard) where calling :func:`~companion.rules.show.score_hand` thirteen million times would take a
minute.  It cannot drift from ``score_hand``: the fifteens, pairs and runs come from the very same
:func:`~companion.rules.show.rank_combinations` (looked up per multiset of ranks), and the test suite
checks the totals against ``score_hand`` on every single combination.  Only flushes and nobs, which
depend on suits, are worked out here with array arithmetic.

NumPy is imported here only; :mod:`companion.rules` itself stays standard-library only.

Combinations are enumerated in a fixed order: the four-card hands in lexicographic order of card
index (as :func:`itertools.combinations` over ``range(52)`` gives them), and for each hand the 48
other cards as starters in increasing index order.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np
import numpy.typing as npt

from companion.rules.show import _rank_points

__all__ = ["HANDS", "STARTERS_PER_HAND", "all_hands", "all_starters", "score_distribution", "show_totals"]

HANDS = 270_725  # 52 choose 4
STARTERS_PER_HAND = 48
_JACK_ROW = 10  # rank row of the jack: card index // 4 (ace is row 0)

IntArray = npt.NDArray[np.int64]


@lru_cache(maxsize=1)
def all_hands() -> npt.NDArray[np.int8]:
    """Every four-card hand as card indices, shape (270725, 4), lexicographic order."""
    n = 52
    a, b, c, d = np.meshgrid(*(np.arange(n, dtype=np.int16),) * 4, indexing="ij", sparse=True)
    mask = (a < b) & (b < c) & (c < d)
    cols = [np.broadcast_to(x, mask.shape)[mask] for x in (a, b, c, d)]
    hands = np.stack(cols, axis=1).astype(np.int8)
    hands.setflags(write=False)
    return hands


@lru_cache(maxsize=1)
def all_starters() -> npt.NDArray[np.int8]:
    """For each hand of :func:`all_hands`, the 48 other cards in increasing order, shape (270725, 48)."""
    hands = all_hands().astype(np.int16)
    starters = np.broadcast_to(np.arange(STARTERS_PER_HAND, dtype=np.int16), (HANDS, STARTERS_PER_HAND))
    starters = starters.copy()
    for column in range(4):  # skip over each hand card in turn (the hand is sorted)
        starters += starters >= hands[:, column : column + 1]
    result = starters.astype(np.int8)
    result.setflags(write=False)
    return result


def _rank_table(hand_ranks: IntArray) -> tuple[IntArray, npt.NDArray[np.int8]]:
    """Rank-only points (fifteens, pairs, runs) for every hand's rank multiset with every starter rank.

    Of the 270,725 hands only 1,820 distinct multisets of four ranks exist, so each hand is mapped to
    the dense number of its multiset and the points are looked up in a (1820, 13) table filled by
    :func:`~companion.rules.show._rank_points`, the function :func:`~companion.rules.show.score_hand`
    itself uses.  Returns the per-hand multiset number and the table.
    """
    pow5 = 5 ** np.arange(13, dtype=np.int64)  # at most four of a rank: base five is exact
    keys = pow5[hand_ranks].sum(axis=1)
    _, first, dense = np.unique(keys, return_index=True, return_inverse=True)
    table = np.zeros((len(first), 13), dtype=np.int8)
    for row, hand in enumerate(first):
        ranks = [int(r) for r in hand_ranks[hand]]
        for starter in range(13):
            if ranks.count(starter) < 4:
                orders = tuple(sorted(r + 1 for r in [*ranks, starter]))
                table[row, starter] = _rank_points(orders)[1]
    return dense.reshape(-1), table


def show_totals(*, crib: bool = False) -> npt.NDArray[np.int8]:
    """The show total of every combination, shape (270725, 48), in the module's fixed order."""
    hands = all_hands()
    starters = all_starters()
    hand_ranks = (hands // 4).astype(np.int64)
    hand_suits = hands % 4
    starter_ranks = (starters // 4).astype(np.int64)
    starter_suits = starters % 4

    dense, table = _rank_table(hand_ranks)
    totals = table[dense[:, None], starter_ranks]

    same_suit = (
        (hand_suits[:, 0] == hand_suits[:, 1])
        & (hand_suits[:, 1] == hand_suits[:, 2])
        & (hand_suits[:, 2] == hand_suits[:, 3])
    )[:, None]
    five_flush = same_suit & (starter_suits == hand_suits[:, :1])
    if crib:
        totals += (5 * five_flush).astype(np.int8)
    else:
        totals += (4 * same_suit + five_flush).astype(np.int8)

    # A hand holds at most one jack of the starter's suit, so nobs is 0 or 1.
    for column in range(4):
        is_jack = (hand_ranks[:, column] == _JACK_ROW)[:, None]
        totals += (is_jack & (starter_suits == hand_suits[:, column : column + 1])).astype(np.int8)
    return totals


def score_distribution(*, crib: bool = False) -> dict[int, int]:
    """How many combinations score each total (0..29), as in the published tables."""
    counts = np.bincount(show_totals(crib=crib).ravel(), minlength=30)
    return {score: int(n) for score, n in enumerate(counts)}
