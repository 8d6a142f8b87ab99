"""Index geometry: splitting a rank glyph run into its suit mark
(:func:`companion.vision.index.split_joined`) or into a frame's line
(:func:`companion.vision.index.freed_candidates`), and the pieces of the features (gradient sectors,
upright patches), which are written for speed and checked here against their plain definitions."""

from __future__ import annotations

import cv2
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.vision import cnn
from companion.vision.index import (
    PATCH_H,
    PATCH_W,
    Candidate,
    _orientation_bins,
    _within,
    candidates,
    evened,
    freed_candidates,
    ink,
    outlines,
    patch_features,
    patches,
    shading,
    split_joined,
    uneven,
)


def _diamond(mask: np.ndarray, cx: int, cy: int, half_w: int, half_h: int) -> None:
    pts = np.array([(cx, cy - half_h), (cx + half_w, cy), (cx, cy + half_h), (cx - half_w, cy)], np.int32)
    cv2.fillConvexPoly(mask, pts, 1)


def _jack_over_diamond(turn: float) -> tuple[np.ndarray, tuple[float, float], tuple[float, float]]:
    """A thin "J" whose hook runs into a solid diamond below it, turned by ``turn`` degrees; with the
    (turned) centres of the J's box and of the diamond."""
    mask = np.zeros((120, 120), np.uint8)
    cv2.line(mask, (62, 20), (62, 52), 1, 3)  # the stem
    cv2.ellipse(mask, (56, 52), (6, 6), 0, 0, 180, 1, 3)  # the hook, curling down into the diamond
    _diamond(mask, 60, 74, 11, 16)
    rank, suit = (57.0, 39.0), (60.0, 74.0)
    m = cv2.getRotationMatrix2D((60, 60), turn, 1.0)
    turned = cv2.warpAffine(mask, m, (120, 120), flags=cv2.INTER_NEAREST)

    def at(p: tuple[float, float]) -> tuple[float, float]:
        q = m @ np.array([p[0], p[1], 1.0])
        return float(q[0]), float(q[1])

    return turned, at(rank), at(suit)


def test_a_jack_run_into_its_suit_splits_into_rank_and_suit() -> None:
    for turn in (0, 35, 90, 180, 250):
        mask, rank, suit = _jack_over_diamond(turn)
        assert cv2.connectedComponents(mask)[0] == 2  # one blob
        split = split_joined(mask)
        assert split is not None, turn
        got_rank, got_suit, size = split
        # The suit is found at the diamond (its solid body) and the rank on the J, so that the line from
        # rank to suit runs the card's "down" (within 15 degrees), whatever the turn.
        assert np.hypot(got_suit[0] - suit[0], got_suit[1] - suit[1]) < 4, turn
        assert np.hypot(got_rank[0] - rank[0], got_rank[1] - rank[1]) < 10, turn
        want = np.subtract(suit, rank)
        got = np.subtract(got_suit, got_rank)
        cos = float(want @ got) / float(np.linalg.norm(want) * np.linalg.norm(got))
        assert cos > np.cos(np.radians(15)), turn
        assert 25 <= size <= 45


def test_a_lone_stroke_or_a_lone_shape_does_not_split() -> None:
    stroke = np.zeros((80, 80), np.uint8)
    cv2.line(stroke, (40, 10), (40, 70), 1, 3)
    assert split_joined(stroke) is None
    shape = np.zeros((80, 80), np.uint8)
    _diamond(shape, 40, 40, 14, 20)
    assert split_joined(shape) is None
    disc = np.zeros((80, 80), np.uint8)
    cv2.circle(disc, (40, 40), 20, 1, -1)
    assert split_joined(disc) is None


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.integers(-4096, 4096), st.integers(-4096, 4096)), min_size=1, max_size=64))
def test_gradient_sectors_are_the_arctangent_s(steps: list[tuple[int, int]]) -> None:
    """The comparison-built sectors equal floor((atan2(gy, gx) + pi) / 45 degrees), ties and axes
    included, for gradients of normalised grey levels (differences on a grid of 1/2048)."""
    g = np.array(steps, np.float32) / np.float32(2048)
    gx, gy = g[None, :, 0], g[None, :, 1]
    want = np.minimum(((np.arctan2(gy, gx) + np.pi) * (8 / (2 * np.pi))).astype(np.int32), 7)
    got = _orientation_bins(gx, gy)
    live = np.hypot(gx, gy) > 0
    assert (got[live] == want[live]).all()


_spots = st.lists(
    st.tuples(st.integers(0, 2000), st.integers(0, 2000), st.integers(6, 90)), min_size=1, max_size=80
)


@settings(max_examples=300, deadline=None)
@given(_spots, _spots)
def test_marks_within_reach_are_every_pair_closer_than_it(
    rows: list[tuple[int, int, int]], cols: list[tuple[int, int, int]]
) -> None:
    """The sweep finds exactly the pairs whose distance is under their reach, in row-major order, as
    the distance between every row and every column says, for a reach up to each row's window."""
    r = np.array(rows, np.float32) / np.float32(4)
    c = np.array(cols, np.float32) / np.float32(4)
    window = 1.6 * r[:, 2]

    def reach(i: np.ndarray, j: np.ndarray) -> np.ndarray:
        return np.minimum(r[i, 2] + c[j, 2], window[i])

    got_rows, got_cols, got_dist = _within(r[:, 0], r[:, 1], c[:, 0], c[:, 1], window, reach)
    every_i, every_j = np.meshgrid(np.arange(len(r)), np.arange(len(c)), indexing="ij")
    dist = np.hypot(r[:, None, 0] - c[None, :, 0], r[:, None, 1] - c[None, :, 1])
    want_i, want_j = np.nonzero(dist < reach(every_i, every_j))
    assert got_rows.tolist() == want_i.tolist()
    assert got_cols.tolist() == want_j.tolist()
    assert np.array_equal(got_dist, dist[want_i, want_j])


def test_features_of_many_patches_are_each_patchs_own() -> None:
    """Thousands of candidates (a mat's weave gives tens of thousands) are worked out a lot at a
    time: every patch's features are what it has alone."""
    rng = np.random.default_rng(5)
    many = rng.integers(0, 256, (2600, PATCH_H, PATCH_W, 3), np.uint8)
    together = patch_features(many)
    for k in (0, 1, 1023, 1024, 1025, 2047, 2048, 2599):
        assert np.array_equal(together[k], patch_features(many[k : k + 1])[0]), k


@pytest.mark.parametrize("size", [(PATCH_W, PATCH_H), (cnn.PATCH_W, cnn.PATCH_H)], ids=["finder", "namer"])
def test_patches_are_the_index_cut_out_upright(size: tuple[int, int]) -> None:
    """Each candidate's patch is the image around it turned so that its rank is above its suit: the
    same picture cv2.warpAffine cuts (to a grey level), at any rotation, hundreds at once, and the same
    region at the finder's size and at the namer's."""
    width, height = size
    rng = np.random.default_rng(3)
    image = rng.integers(0, 256, (300, 400, 3), np.uint8)
    image = np.asarray(cv2.GaussianBlur(image, (7, 7), 0), np.uint8)
    cands = []
    for _ in range(1200):  # more than one remap call takes
        r = rng.uniform(40, 260, 2)
        turn = rng.uniform(0, 2 * np.pi)
        length = rng.uniform(8, 40)
        s = r + length * np.array([np.cos(turn), np.sin(turn)])
        cands.append(Candidate((float(r[0]), float(r[1])), (float(s[0]), float(s[1])), length))
    got = patches(image, cands, size)
    assert got.shape == (len(cands), height, width, 3)
    for k in range(0, len(cands), 97):
        c = cands[k]
        down = (np.array(c.suit) - np.array(c.rank)) / c.length
        right = np.array([down[1], -down[0]])
        centre = (np.array(c.rank) + np.array(c.suit)) / 2
        sx = width / (2 * 0.95 * c.length)
        sy = height / (2 * 1.35 * c.length)
        m = np.array([[sx * right[0], sx * right[1], 0.0], [sy * down[0], sy * down[1], 0.0]])
        m[:, 2] = np.array([width / 2, height / 2]) - m[:, :2] @ centre
        want = cv2.warpAffine(
            image, m, (width, height), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE
        )
        assert np.abs(got[k].astype(int) - want.astype(int)).max() <= 1, k


def _framed_index(turn: float) -> tuple[np.ndarray, tuple[float, float], tuple[float, float]]:
    """A grey card face: a court picture's frame drawn one pixel wide, a "K" whose arms touch the frame's
    left line near its top, a heart-like blob below the K clear of the line, turned by ``turn`` degrees
    about the middle; with the (turned) centres of the K's box and of the suit mark."""
    face = np.full((260, 220), 235, np.uint8)
    cv2.rectangle(face, (70, 40), (170, 220), 40, 1)
    cv2.line(face, (52, 44), (52, 66), 40, 2)  # the K's stem
    cv2.line(face, (53, 55), (69, 44), 40, 2)  # its arms, up to the frame line at x = 70
    cv2.line(face, (56, 53), (69, 66), 40, 2)
    cv2.circle(face, (59, 84), 6, 40, -1)  # the suit mark
    cv2.circle(face, (120, 130), 25, 40, -1)  # something of the picture, well inside
    m = cv2.getRotationMatrix2D((110, 130), turn, 1.0)
    turned = cv2.warpAffine(face, m, (220, 260), flags=cv2.INTER_LINEAR, borderValue=235)

    def at(p: tuple[float, float]) -> tuple[float, float]:
        q = m @ np.array([p[0], p[1], 1.0])
        return float(q[0]), float(q[1])

    return turned, at((60.5, 55.0)), at((59.0, 84.0))


@pytest.mark.parametrize("turn", [0, 23, 90, 200, 311])
def test_a_rank_run_into_a_frame_line_is_freed_and_paired_with_its_suit(turn: float) -> None:
    face, rank, suit = _framed_index(turn)
    blobs = ink(face)

    def near(c: Candidate) -> bool:
        return (
            float(np.hypot(*np.subtract(c.rank, rank))) < 5
            and float(np.hypot(*np.subtract(c.suit, suit))) < 4
        )

    # Run into the frame, the K is no glyph of its own: no plain candidate has it as its rank.
    assert not any(near(c) for c in candidates(blobs))
    freed = freed_candidates(blobs, [int(i) for i in outlines(blobs)])
    assert any(near(c) and c.freed for c in freed)


def test_an_outline_with_nothing_run_into_it_frees_nothing() -> None:
    face = np.full((260, 220), 235, np.uint8)
    cv2.rectangle(face, (70, 40), (170, 220), 40, 1)
    blobs = ink(face)
    assert len(outlines(blobs)) == 1
    assert freed_candidates(blobs, [int(i) for i in outlines(blobs)]) == []


def _index_patch(width: int = 48, height: int = 64) -> np.ndarray:
    """A namer-sized patch of white paper with a dark rank stroke and a suit blob, BGR."""
    patch = np.full((height, width, 3), 220, np.uint8)
    cv2.line(patch, (20, 8), (20, 30), (25, 25, 25), 3)
    cv2.circle(patch, (22, 46), 6, (25, 25, 25), -1)
    return patch


def test_a_patch_half_in_a_shadow_is_evened_to_paper_and_print() -> None:
    """A shadow's sharp edge across an index's patch, its far side at 0.4 of the light: evened, the
    shadowed paper is as bright as the lit paper, and print keeps its darkness against its paper."""
    patch = _index_patch()
    shaded = patch.copy()
    shaded[:, 24:] = (shaded[:, 24:] * 0.4).astype(np.uint8)
    shade = shading(shaded[None])
    assert uneven(shade).tolist() == [True]
    out = evened(shaded[None], shade)[0].astype(int)
    paper = np.all(patch == 220, axis=2)
    assert abs(out[paper].mean() - 220) < 3
    assert out[paper].min() >= 210
    print_ = np.all(patch == 25, axis=2)
    assert out[print_].max() < 60  # print either side of the edge: about 25 of paper's 220


def test_a_patch_lit_evenly_or_wholly_in_shadow_is_left_as_it_is() -> None:
    """Evening changes nothing where the light is even; and one patch of a batch never takes light
    from the next (a lit patch beside a dim one)."""
    lit = _index_patch()
    dim = (lit * 0.3).astype(np.uint8)
    both = np.stack([lit, dim, lit])
    shade = shading(both)
    assert uneven(shade).tolist() == [False, False, False]
    assert np.abs(evened(both, shade).astype(int) - both.astype(int)).max() <= 1


def test_red_print_wider_than_the_papers_reach_is_not_taken_for_shadow() -> None:
    """A heart pip larger than the reach of the paper's light: its brightest colour is as bright as
    paper, so it is not shade; a black mark of the same size is (which is why only what reads as
    nothing plainly is read again evened)."""
    red, black = _index_patch(), _index_patch()
    cv2.circle(red, (40, 20), 14, (40, 40, 210), -1)
    cv2.circle(black, (40, 20), 14, (30, 30, 30), -1)
    shade = shading(np.stack([red, black]))
    assert shade[0].min() > 0.9 * 255
    assert shade[1, 20, 40] < 0.3 * 255
