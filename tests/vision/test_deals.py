"""Recall of labelled index corners on the real bridge deals (fanned, heavily overlapping hands).

The networks are trained on rendered decks and the real crops; these deal photos are never used to fit
them. The suit-shape thresholds (:func:`companion.vision.index.suit_notches`) were read off the real
crops and deals 1-3 only, so deal 4 stays wholly held out. Run with ``-s`` to see the figures.

Measured (recall, misreads): deal 1 48/50 = 0.960, 0; deal 2 52/54 = 0.963, 0; deal 3 48/52 = 0.923, 0;
deal 4 49/56 = 0.875, 2 -- with the finder and the convolutional namer built with flat-topped threes
and the namer taught nine passes, every frame read at half scale as well (197 of 212 in all; 198 with
the namer taught six passes, 199 before the flat threes, 193 before that second reading). The namer at
the finder's 32x24 before: 48/50, 49/54, 47/52, 51/56 (195) with none misread; the perceptron alone:
48/50, 51/54, 44/52, 47/56 (190) with 1. Each deal keeps a floor a little under its own figure, so a
real loss fails. Deal 3 then gained two indices (50/52) when two readings side by side across an
index were no longer taken for one (ReadingSettings.same_index_across); the others were unchanged.
"""

from __future__ import annotations

import pytest

from companion.vision.recognise import Recogniser
from tools.synthesis import gaussian_blur

from .tables import deal as labelled_deal
from .tables import deal_score, shadowed, shaken

#: Recall each deal must keep (a little under what was measured; see the module docstring).
FLOOR = {1: 0.94, 2: 0.94, 3: 0.94, 4: 0.86}
#: Named indices that sit on a labelled index of another card: misreads. At most this share.
MISREAD_CEILING = 0.05


def score(recogniser: Recogniser, deal: int) -> tuple[int, int, int, int]:
    """(labelled indices, found and named right, named, misread) for one deal."""
    image, boxes = labelled_deal(f"deal{deal}")
    indices = recogniser.indices(image)
    total, found, misread = deal_score(indices, boxes)
    return total, found, sum(s.card is not None for s in indices), misread


@pytest.mark.parametrize("deal", [1, 2, 3, 4])
def test_deal_index_recall(recogniser: Recogniser, deal: int) -> None:
    total, found, named, misread = score(recogniser, deal)
    print(f"\ndeal{deal}: recall {found}/{total} = {found / total:.3f}, named {named}, misread {misread}")
    assert found / total >= FLOOR[deal]
    assert misread <= max(1, MISREAD_CEILING * named)


@pytest.mark.parametrize("deal", [2, 3])
@pytest.mark.parametrize(("length", "degrees"), [(8, 172), (11, 100)])
def test_a_deal_smeared_by_a_bumped_camera_is_read_with_its_smear_taken_out(
    recogniser: Recogniser, deal: int, length: int, degrees: int
) -> None:
    """A tuning deal smeared along a line (the phone photo's indices are 20-25 pixels from rank to
    suit): the smear is measured, tried a pixel shorter as well, and judged by the indices found
    again in each sharpened picture. Before, three of these four kept the photo as it was and found
    4, 8 and 12 of about 50 indices, with up to 3 misread; now all four find 37-50, at most one
    misread."""
    image, boxes = labelled_deal(f"deal{deal}")
    total, found, misread = deal_score(recogniser.indices(shaken(image, length, degrees)), boxes)
    print(f"\ndeal{deal} smeared {length} px at {degrees}: {found}/{total}, misread {misread}")
    assert found / total >= 0.65
    assert misread <= 1


@pytest.mark.parametrize("deal", [1, 2, 3])
def test_a_soft_photo_of_a_deal_names_the_spades_whose_clubs_are_named(
    recogniser: Recogniser, deal: int
) -> None:
    """A tuning deal out of focus (a Gaussian blur of 2.3 pixels; its cards 60-140 pixels wide):
    blur fills in a club's notches, so a photo leaves each spade's corner unread rather than risk a
    club named a spade. But a pack holds one club of each rank: a black corner whose club is named
    elsewhere in the photo is the spade, where its rank is all but certain. Before, none of the three
    deals' spades was named; now 6-7 of each deal's 11-13 are, and nothing is misread."""
    image, boxes = labelled_deal(f"deal{deal}")
    seen = recogniser.detect(gaussian_blur(image, 2.3))
    spades = [box for box in boxes if box[0].endswith("s")]
    _, found, _ = deal_score(seen, spades)
    _, _, misread = deal_score(seen, boxes)
    print(f"\ndeal{deal} out of focus: spades {found}/{len(spades)}, misread {misread}")
    assert found >= 0.4 * len(spades)
    assert misread == 0


@pytest.mark.parametrize("light", [0.5, 0.25])
def test_a_deal_under_a_players_hard_shadow_keeps_its_indices(recogniser: Recogniser, light: float) -> None:
    """The tuning deals under the sharp-edged shadow of a player leaning over, half of each photo at
    ``light`` of the light: indices the shadow's edge crosses are half lit. Before, 8 and 9 of the
    149 indices read lit were lost (the edge's dark side read as ink, and the half-lit patches taken
    for none); now 2 and 4, and none misread."""
    lit = shaded = 0
    for deal in (1, 2, 3):
        image, boxes = labelled_deal(f"deal{deal}")
        lit += deal_score(recogniser.indices(image), boxes)[1]
        _, found, misread = deal_score(recogniser.indices(shadowed(image, light, seed=3)), boxes)
        shaded += found
        assert misread == 0
    print(f"\ndeals 1-3 under a shadow at {light}: {shaded} found, {lit} lit")
    assert shaded >= lit - 4
