"""Every one of the 12,994,800 hand-and-starter combinations, scored by ``score_hand`` itself.

The published distribution of show scores (scoring-facts.md, after Lumetta) is the oracle: scored as
hands, the counts per total must match it exactly; scored as cribs, the number of zero cribs must be
1,022,208.  The same loop proves that the NumPy fast path in :mod:`companion.rules.bulk` (used by the
benchmark) agrees with ``score_hand`` on every single combination, hand and crib.
"""

from __future__ import annotations

from itertools import combinations

import numpy as np
import pytest

from companion.cards import full_deck
from companion.rules import score_hand
from companion.rules.bulk import HANDS, STARTERS_PER_HAND, show_totals

#: scoring-facts.md: how many of the 12,994,800 combinations score each total as a hand.
PUBLISHED_HAND_DISTRIBUTION = {
    0: 1_009_008, 1: 99_792, 2: 2_813_796, 3: 505_008, 4: 2_855_676, 5: 697_508, 6: 1_800_268,
    7: 751_324, 8: 1_137_236, 9: 361_224, 10: 388_740, 11: 51_680, 12: 317_340, 13: 19_656,
    14: 90_100, 15: 9_168, 16: 58_248, 17: 11_196, 18: 2_708, 19: 0, 20: 8_068, 21: 2_496,
    22: 444, 23: 356, 24: 3_680, 25: 0, 26: 0, 27: 0, 28: 76, 29: 4,
}  # fmt: skip
PUBLISHED_ZERO_CRIBS = 1_022_208


def _score_every_combination(*, crib: bool) -> np.ndarray:
    deck = full_deck()
    totals = np.empty((HANDS, STARTERS_PER_HAND), dtype=np.int8)
    for row, hand in enumerate(combinations(deck, 4)):
        held = set(hand)
        totals[row] = [score_hand(hand, s, crib=crib).total for s in deck if s not in held]
    return totals


@pytest.mark.slow
def test_every_hand_reproduces_the_published_distribution() -> None:
    totals = _score_every_combination(crib=False)
    assert totals.size == 12_994_800
    counts = np.bincount(totals.ravel(), minlength=30)
    assert {score: int(n) for score, n in enumerate(counts)} == PUBLISHED_HAND_DISTRIBUTION
    assert int(totals.sum()) * 12_740 == 60_759 * 12_994_800  # the published mean, exactly
    np.testing.assert_array_equal(totals, show_totals(crib=False))


@pytest.mark.slow
def test_every_crib_reproduces_the_published_zero_count() -> None:
    totals = _score_every_combination(crib=True)
    assert int((totals == 0).sum()) == PUBLISHED_ZERO_CRIBS
    np.testing.assert_array_equal(totals, show_totals(crib=True))
