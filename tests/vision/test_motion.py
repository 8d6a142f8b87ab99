"""Filmed frames are read only where they changed since the table was last read (vision/motion.py)."""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np
import pytest

from companion.app.deck import load_deck
from companion.vision import recognise
from companion.vision.motion import Motion, MotionSettings, merged
from companion.vision.plane import Detector
from companion.vision.recognise import Recogniser
from companion.vision.rectify import Levelling
from companion.vision.scene import Placement, compose, wood
from companion.vision.settings import RecognitionSettings
from tools.synthesis import gaussian_blur, motion_blur

from .tables import HELD_OUT, landed, score, table, tilted


def _labels(sightings: list) -> list[str]:
    return sorted(s.label for s in sightings)


def test_a_still_table_is_compared_not_read_again() -> None:
    t = table(3)
    motion = Motion()
    small = motion.small(t.frame)
    assert motion.change(t.frame, small) is None  # nothing to compare with yet
    motion.settle(t.frame, small)
    noisy = np.clip(t.frame.astype(np.int16) + np.random.default_rng(0).normal(0, 4, t.frame.shape), 0, 255)
    noisy = noisy.astype(np.uint8)
    change = motion.change(noisy, motion.small(noisy))
    assert change is not None and change.boxes == () and change.share == 0.0


def test_a_little_more_or_less_light_everywhere_is_no_change() -> None:
    t = table(4)
    motion = Motion()
    motion.settle(t.frame, motion.small(t.frame))
    brighter = np.clip(t.frame.astype(np.int16) + 12, 0, 255).astype(np.uint8)
    change = motion.change(brighter, motion.small(brighter))
    assert change is not None and change.boxes == ()


def test_a_card_laid_is_one_region_round_it() -> None:
    t = table(5, cards=10)
    after = landed(t, 5)
    _, p = after.faces[-1]
    motion = Motion()
    motion.settle(t.frame, motion.small(t.frame))
    change = motion.change(after.frame, motion.small(after.frame))
    assert change is not None and len(change.boxes) == 1
    x0, y0, x1, y1 = change.boxes[0]
    assert x0 <= p.x <= x1 and y0 <= p.y <= y1
    # About the card's size: more than its width across, less than twice its length.
    assert p.width < x1 - x0 < 3 * p.width and p.width < y1 - y0 < 3 * p.width


def test_a_frame_not_a_whole_number_of_cells_is_compared_cell_by_cell_where_change_places_them() -> None:
    """Each compared cell is the mean of the very pixels :meth:`Motion.change` reports it as (``cell``
    square from a multiple of ``cell``), however many pixels are left over at the right and bottom (a
    levelled camera's view from above is 2237 by 1237)."""
    motion = Motion()
    c = motion.settings.cell
    rng = np.random.default_rng(3)
    frame = rng.integers(0, 256, (1237, 2237, 3), dtype=np.uint8)
    small = motion.small(frame)
    gray = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY).astype(np.float64)
    assert small.shape == (1237 // c, 2237 // c)
    for i, j in [(0, 0), (70, 140), (small.shape[0] - 1, small.shape[1] - 1)]:
        assert small[i, j] == pytest.approx(gray[i * c : (i + 1) * c, j * c : (j + 1) * c].mean(), abs=0.5)


def test_overlapping_regions_are_merged_and_apart_ones_kept() -> None:
    assert merged([(0, 0, 10, 10), (5, 5, 20, 20), (30, 30, 40, 40)]) == [(0, 0, 20, 20), (30, 30, 40, 40)]


@pytest.mark.parametrize("seed", [HELD_OUT[0], HELD_OUT[1], 7])
def test_a_card_landing_on_a_filmed_table_is_read_as_well_as_a_whole_reading_reads_it(seed: int) -> None:
    t = table(seed, cards=12)
    after = landed(t, seed)
    gated = Recogniser(filmed=True)
    first = gated.detect(t.frame)
    assert _labels(gated.detect(t.frame)) == _labels(first)  # nothing moved: the same cards
    seen = score(gated.detect(after.frame), after)
    whole = score(Recogniser(filmed=True, motion=False).detect(after.frame), after)
    assert seen.found >= whole.found and seen.wrong <= whole.wrong and seen.twice == 0
    name, _ = after.faces[-1]
    assert name in _labels(gated.detect(after.frame))
    # Taken away again: the card is gone, the rest stand.
    assert _labels(gated.detect(t.frame)) == _labels(first)


def test_the_whole_frame_is_read_again_now_and_then() -> None:
    t = table(8, cards=9)
    after = landed(t, 8)
    name, _ = after.faces[-1]
    # No change is ever large enough to count here: only the whole reading due every third frame sees
    # the card laid.
    gated = Recogniser(
        filmed=True, settings=RecognitionSettings(motion=MotionSettings(threshold=255.0, reread=3))
    )
    gated.detect(t.frame)
    assert [name in _labels(gated.detect(after.frame)) for _ in range(4)] == [False, False, False, True]


def test_forgetting_reads_the_next_frame_whole() -> None:
    t = table(9, cards=8)
    gated = Recogniser(filmed=True)
    first = gated.detect(t.frame)
    gated.forget()
    assert _labels(gated.detect(t.frame)) == _labels(first)


@pytest.mark.parametrize("name", ["7d", "2d", "6d"])
def test_a_soft_card_read_where_it_landed_stays_named_when_the_whole_frame_is_read_again(name: str) -> None:
    """Through a soft lens (sigma 1.6, the card 96 pixels wide) a whole frame leaves this card unread;
    the region where it landed, read enlarged as well, names it; and the whole frame read again for
    drift (every fifth frame here) does not take the name away where nothing changed."""
    base = wood(1280, 720, seed=3, light=True)
    laid = compose(base, [load_deck().face(name)], [Placement(640, 400, 10, 96)])
    soft_base, soft_laid = (np.asarray(cv2.GaussianBlur(f, (0, 0), 1.6), np.uint8) for f in (base, laid))
    assert name not in _labels(Recogniser(filmed=True, motion=False).detect(soft_laid))
    gated = Recogniser(filmed=True, settings=RecognitionSettings(motion=MotionSettings(reread=5)))
    gated.detect(soft_base)
    assert all(name in _labels(gated.detect(soft_laid)) for _ in range(12))


@pytest.mark.parametrize(
    ("name", "x", "y", "turn"), [("7d", 640, 400, 10), ("6d", 1000, 500, -40), ("7d", 300, 500, -20)]
)
def test_a_soft_card_named_where_it_landed_is_placed_where_it_lies(
    name: str, x: int, y: int, turn: int
) -> None:
    """Through a soft lens a whole frame leaves this card unread, and only the part of the region
    round the change is read enlarged: the card named there is placed where it lies in the frame,
    wherever in it the card landed."""
    base = wood(1280, 720, seed=3, light=True)
    laid = compose(base, [load_deck().face(name)], [Placement(x, y, turn, 96)])
    soft_base, soft_laid = (np.asarray(cv2.GaussianBlur(f, (0, 0), 1.6), np.uint8) for f in (base, laid))
    assert name not in _labels(Recogniser(filmed=True, motion=False).detect(soft_laid))
    gated = Recogniser(filmed=True)
    gated.detect(soft_base)
    seen = [s for s in gated.detect(soft_laid) if s.card is not None]
    assert [s.label for s in seen] == [name]
    assert np.hypot(seen[0].center[0] - x, seen[0].center[1] - y) < 96 / 2


@pytest.mark.parametrize(("seed", "slant"), [(1, 0), (2, 0), (3, 0), (4, 0), (1, 45), (2, 45), (3, 45)])
def test_a_sharp_card_named_all_but_certainly_is_not_read_again_enlarged(
    seed: int, slant: float, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A card laid sharp is named all but certainly at the working scale: the region round it is not
    read again enlarged (the enlarged read is for what that scale cannot read), and the frame names
    the same cards as when it is. Also from a camera 45 degrees off straight down that levelled itself,
    where a coarser scale reads the new card's index again, less surely: the same index, no other."""
    enlarged: list[int] = []
    real = Recogniser._enlarged

    def counted_enlarged(self: Recogniser, *args: object) -> list:
        enlarged.append(1)
        return real(self, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(Recogniser, "_enlarged", counted_enlarged)
    t = table(seed)
    after = landed(t, seed)
    before, now = (
        (t.frame, after.frame) if not slant else (tilted(t, slant)[0].frame, tilted(after, slant)[0].frame)
    )
    always = RecognitionSettings()
    always = replace(always, scales=replace(always.scales, fine_unless_named=False))
    seen = {}
    for settings in (RecognitionSettings(), always):
        reader: Detector = Recogniser(filmed=True, settings=settings)
        if slant:
            levelling = Levelling(reader)
            levelling.detect(before)
            reader = levelling.levelled()
        reader.detect(before)
        enlarged.clear()
        seen[settings] = _labels(reader.detect(now))
        seen[settings, "enlarged"] = len(enlarged)
    assert after.faces[-1][0] in seen[RecognitionSettings()]
    assert seen[RecognitionSettings()] == seen[always]
    assert seen[RecognitionSettings(), "enlarged"] == 0 < seen[always, "enlarged"]


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_a_frame_read_whole_for_drift_after_a_card_landed_looks_again_at_no_card_lying_still(
    seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A card's middle is looked at (its pips counted, its picture measured) once for as long as it
    lies still: the region where a card landed looks at that card, and the whole frame read again for
    drift after it looks at none of the cards lying where they lay (before, the region's looks replaced
    the whole frame's, and the re-read counted every card's pips again)."""
    looks: list[int] = []
    real = recognise.Middle

    def counted_middle(*args: object, **kwargs: object) -> recognise.Middle:
        looks.append(1)
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(recognise, "Middle", counted_middle)
    t = table(seed)
    after = landed(t, seed)
    reader = Recogniser(filmed=True, settings=RecognitionSettings(motion=MotionSettings(reread=2)))
    reader.detect(t.frame)
    first = len(looks)
    reader.detect(after.frame)  # the region where the card landed
    reader.detect(after.frame)  # nothing moved
    looks.clear()
    reader.detect(after.frame)  # read whole for drift
    assert first >= 5
    assert len(looks) <= 1


@pytest.mark.parametrize("turn", [0.0, 45.0, 100.0, 160.0])
def test_a_table_shaken_or_out_of_focus_is_a_smear_not_a_change(turn: float) -> None:
    """A bump or a camera's focus hunting spreads the settled table into itself: every card's edge
    differs, nothing on the table moved."""
    t = table(11, cards=12)
    motion = Motion()
    motion.settle(t.frame, motion.small(t.frame))
    for spoilt in (motion_blur(t.frame, 9.0, turn), gaussian_blur(t.frame, 2.5)):
        change = motion.change(spoilt, motion.small(spoilt))
        assert change is not None and change.share > 0 and change.shaken


@pytest.mark.parametrize("seed", [12, 13, 14])
def test_a_card_laid_or_a_hand_reaching_in_is_no_smear(seed: int) -> None:
    t = table(seed, cards=10, hand=False)
    motion = Motion()
    motion.settle(t.frame, motion.small(t.frame))
    after = landed(t, seed).frame
    reached = after.copy()
    cv2.ellipse(reached, (300, 360), (80, 55), 20, 0, 360, (120, 150, 205), -1, cv2.LINE_AA)
    cv2.line(reached, (300, 360), (340, 720), (110, 140, 195), 70, cv2.LINE_AA)
    for frame in (after, reached):
        change = motion.change(frame, motion.small(frame))
        assert change is not None and change.boxes and not change.shaken


def test_frames_shaken_by_a_bump_leave_what_was_read_and_the_table_is_read_after() -> None:
    """Three frames smeared 9 pixels (the table bumped) change nothing read; a card laid once the
    table is still again is read as before. A smear that does not pass (the camera gone soft) is read
    as it is after a re-read's interval."""
    t = table(15, cards=11)
    after = landed(t, 15)
    name, _ = after.faces[-1]
    gated = Recogniser(filmed=True, settings=RecognitionSettings(motion=MotionSettings(reread=5)))
    first = _labels(gated.detect(t.frame))
    for turn in (100.0, 30.0, 160.0):
        assert _labels(gated.detect(motion_blur(t.frame, 9.0, turn))) == first
    assert _labels(gated.detect(t.frame)) == first
    assert name in _labels(gated.detect(after.frame))
    laid = _labels(gated.detect(after.frame))
    soft = gaussian_blur(after.frame, 3.0)
    whole_soft = _labels(Recogniser(filmed=True, motion=False).detect(soft))
    assert whole_soft != laid
    assert [_labels(gated.detect(soft)) for _ in range(7)] == [laid] * 5 + [whole_soft] * 2
