"""Training samples: the run-time candidate finder run on each scene, each candidate labelled by the
index it lies on (or "not an index") and cut out twice as at run time, at the finder's resolution and
at the namer's; scenes made in chunks of a hundred in worker processes, each chunk from its own seed.
"""

from __future__ import annotations

import functools
import time
from dataclasses import dataclass

import cv2
import numpy as np
import numpy.typing as npt

from companion.vision import cnn
from companion.vision import index as idx
from companion.vision.mlp import NOT_INDEX, RANK_TEXTS, SUIT_TEXTS
from tools.vision_build.decks import U8, CardArt, load_decks, load_jumbo_deck, load_real_deck, suit_shapes
from tools.vision_build.options import DEFAULT, Options
from tools.vision_build.scenes import Truth, make_scene
from tools.vision_build.typefaces import typeface_files


def label_candidates(
    cands: list[idx.Candidate],
    truth: Truth,
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64], npt.NDArray[np.bool_]]:
    """Rank class, suit class and a use-for-training flag for each candidate.

    A candidate on a visible index (the suit mark within 0.25 of the rank-suit distance, the rank within
    0.45) is that card; one roughly there but not quite, or on a partly covered index, is left out of
    training as ambiguous; everything else is "not an index".
    """
    n = len(cands)
    rank = np.full(n, NOT_INDEX, np.int64)
    suit = np.zeros(n, np.int64)
    use = np.ones(n, bool)
    if n == 0 or not truth:
        return rank, suit, use
    r = np.array([c.rank for c in cands])
    s = np.array([c.suit for c in cands])
    tr = np.array([t[1] for t in truth])
    ts = np.array([t[2] for t in truth])
    length = np.hypot(*(ts - tr).T)
    dr = np.hypot(r[:, None, 0] - tr[None, :, 0], r[:, None, 1] - tr[None, :, 1]) / length
    ds = np.hypot(s[:, None, 0] - ts[None, :, 0], s[:, None, 1] - ts[None, :, 1]) / length
    partial = np.array([t[0] == "partial" for t in truth])
    flag = np.array([t[3] for t in truth])
    # The rank point may sit on one digit of a two-digit rank (the "0" of a 10, paired alone with the
    # suit), about a third of the distance off the pair's centre: still that card's index, and read at
    # run time, so it is taught as that card rather than left to chance.
    near = (dr < 0.45) & (ds < 0.25) & flag & ~partial
    loose = (dr < 0.8) & (ds < 0.8) & flag
    for i in range(n):
        hits = np.flatnonzero(near[i])
        if hits.size:
            label = truth[int(hits[0])][0]
            rank[i] = RANK_TEXTS.index(label[:-1])
            suit[i] = SUIT_TEXTS.index(label[-1])
        elif loose[i].any():
            use[i] = False
    return rank, suit, use


Samples = tuple[U8, U8, npt.NDArray[np.int64], npt.NDArray[np.int64]]
"""Candidate patches as cut out at run time, for the finder (n, PATCH_H, PATCH_W, 3) and for the namer
(n, cnn.PATCH_H, cnn.PATCH_W, 3), and their rank and suit classes."""


@dataclass(frozen=True, slots=True)
class Chunk:
    """One worker's job: ``count`` scenes made with the seed ``(seed, number)``, drawn with ``options``."""

    seed: int
    number: int
    count: int
    options: Options = DEFAULT


def collect_chunk(job: Chunk) -> Samples:
    """Samples from one chunk's scenes: reproducible in any process, whatever else ran there before."""
    seed, chunk, count, options = job.seed, job.number, job.count, job.options
    # One thread per worker process (they already run side by side): OpenCV's own threads would make
    # nothing faster and leave results open to how work was split between them.
    cv2.setNumThreads(1)
    faces, backs, deck_shapes = _decks(seed)
    shapes: dict[str, list[U8]] | None = deck_shapes
    rng = np.random.default_rng([seed, chunk])
    joined = JOINED_CHUNKS <= chunk < JUMBO_CHUNKS
    if REAL_CHUNKS <= chunk < JOINED_CHUNKS:
        # Scenes of the real deck only (chunk numbers from REAL_CHUNKS up).
        faces, shapes = load_real_deck(options.hold_out_crops), None
    elif chunk >= JUMBO_CHUNKS:
        faces, shapes = load_jumbo_deck(), None
    typefaces = typeface_files()
    xs, qs, rs, ss = [], [], [], []
    for _ in range(count):
        img, truth = make_scene(rng, faces, backs, shapes, typefaces, joined, options)
        gray = cv2.cvtColor(img, cv2.COLOR_BGR2GRAY)
        cands = idx.find_candidates(np.asarray(gray, np.uint8))
        rank, suit, use = label_candidates(cands, truth)
        keep = np.flatnonzero(use)
        neg = keep[rank[keep] == NOT_INDEX]
        pos = keep[rank[keep] != NOT_INDEX]
        if neg.size > 3 * max(pos.size, 10):
            neg = rng.choice(neg, 3 * max(pos.size, 10), replace=False)
        chosen = np.concatenate([pos, neg])
        picked = [cands[i] for i in chosen]
        xs.append(idx.patches(img, picked))
        qs.append(cnn.cut(img, picked))
        rs.append(rank[chosen])
        ss.append(suit[chosen])
    return np.concatenate(xs), np.concatenate(qs), np.concatenate(rs), np.concatenate(ss)


#: Chunk numbers of the real deck's scenes and of the joined-index scenes start here, so every kind
#: of scene has its own seeds and a cached kind stays valid when another kind's count changes.
REAL_CHUNKS = 100_000
JOINED_CHUNKS = 200_000
JUMBO_CHUNKS = 300_000


@functools.cache
def _decks(seed: int) -> tuple[list[CardArt], list[CardArt], dict[str, list[U8]]]:
    """The rendered decks, their backs and suit shapes (once per process: rendering takes a while)."""
    faces, backs = load_decks(np.random.default_rng(seed), progress=False)
    return faces, backs, suit_shapes(faces)


def collect(
    scenes: int,
    seed: int,
    workers: int = 2,
    progress: bool = True,
    first: int = 0,
    options: Options = DEFAULT,
) -> Samples:
    """Training samples from ``scenes`` scenes, in chunks of 100 spread over ``workers`` processes."""
    import multiprocessing

    jobs = [Chunk(seed, k + first, min(100, scenes - k * 100), options) for k in range((scenes + 99) // 100)]
    t0 = time.monotonic()
    parts = []
    with multiprocessing.get_context("fork").Pool(workers) as pool:
        for n, part in enumerate(pool.imap(collect_chunk, jobs)):
            parts.append(part)
            if progress:
                npos = sum(int((p[2] != NOT_INDEX).sum()) for p in parts)
                total = sum(len(p[2]) for p in parts)
                print(
                    f"  scenes {min(scenes, (n + 1) * 100)}/{scenes}: {total} samples, {npos} indices, "
                    f"{time.monotonic() - t0:.0f}s",
                    flush=True,
                )
    return (
        np.concatenate([p[0] for p in parts]),
        np.concatenate([p[1] for p in parts]),
        np.concatenate([p[2] for p in parts]),
        np.concatenate([p[3] for p in parts]),
    )
