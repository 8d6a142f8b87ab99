"""Real card photos laid out as a card table seen by a camera, and what a cheap camera does to them.

Shared by the vision tests and ``benchmarks/bench_vision.py`` (which puts this folder on its path), so
both measure the same tables. Kept free of pytest and of the package's test fixtures.

* :func:`table`: a 1280x720 frame of a light wooden table with 8-13 face-up cards of the real deck's
  photos (``../shared/datasets/cards/real-crops``): a hand of four on each side, the far one turned to
  its player, the play running down the middle with each card over the last one's corner, the pack and
  the crib face down, chips, and a player's hand reaching in over the table's edge.
* :func:`landed`: the same table with one card more.
* Degradations at measured levels: :func:`defocus` (a lens focused nearer or farther than the table: a
  disc of the given radius), :func:`shaken` (a little motion: a line of the given length),
  :func:`shadowed` (the hard shadow of a player leaning over, the light cut to a share) and
  :func:`tilted` (a camera looking at the table at a slant, its homography returned to move the truth).
* :func:`score`: found, wrong and twice-reported cards against the truth.

The seeds listed in HELD_OUT are never used to choose or tune anything in recognition: they are the
held-out split, reported apart.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Final

import cv2
import numpy as np
import numpy.typing as npt

from companion.app.deck import load_deck
from companion.cards import full_deck
from companion.vision.scene import Placement, compose, wood
from companion.vision.types import Sighting

CARDS: Final = Path(__file__).resolve().parents[3] / "shared" / "datasets" / "cards"
CROPS: Final = CARDS / "real-crops"
DEALS: Final = CARDS / "real-deals"
SIZE: Final = (1280, 720)
#: Table seeds kept out of all tuning: measured only, reported apart (tuning may look at 0-99).
HELD_OUT: Final = tuple(range(1000, 1012))
#: The real deal kept out of all tuning (the others may be looked at).
HELD_OUT_DEAL: Final = "deal4"

Image = npt.NDArray[np.uint8]


@dataclass(frozen=True, slots=True)
class Table:
    """A frame and what lies on it: the face-up cards (name and placement, in the order laid) and the
    face-down ones."""

    frame: Image
    faces: tuple[tuple[str, Placement], ...]
    backs: tuple[Placement, ...]


def crop(name: str) -> Image:
    img = cv2.imread(str(CROPS / f"{name}.jpg"))
    if img is None:
        raise FileNotFoundError(f"the real card photo {CROPS / name}.jpg is missing")
    return np.asarray(img, np.uint8)


def _offset(p: Placement, across: float, down: float) -> tuple[float, float]:
    """A point ``across`` and ``down`` (card widths) from a placed card's centre, in its own frame."""
    a = math.radians(p.angle)
    return (
        p.x + p.width * (across * math.cos(a) + down * math.sin(a)),
        p.y + p.width * (-across * math.sin(a) + down * math.cos(a)),
    )


def _layout(seed: int, cards: int, width: float) -> tuple[list[tuple[str, Placement]], list[Placement]]:
    rng = np.random.default_rng(seed)
    names = [str(c) for c in full_deck()]
    order = [names[i] for i in rng.permutation(52)]
    w, h = SIZE
    placed: list[tuple[str, Placement]] = []
    # The two hands: four cards each, near the table's near and far edges, fanned a little apart.
    for side, y in ((0, h - 0.95 * width), (1, 0.95 * width)):
        for k in range(4):
            x = 0.24 * w + k * 1.25 * width + rng.normal(0, 6)
            angle = float(rng.normal(180.0 if side else 0.0, 7.0))
            placed.append((order.pop(), Placement(x, y + rng.normal(0, 5), angle, width)))
    # The play down the middle: each card over the right-hand part of the one before, its top-left index
    # left in sight.
    first = Placement(0.22 * w + rng.normal(0, 10), h / 2 + rng.normal(0, 8), float(rng.normal(0, 10)), width)
    p = first
    for _ in range(cards - 8):
        placed.append((order.pop(), p))
        x, y = _offset(p, float(rng.uniform(0.55, 0.75)), float(rng.uniform(-0.15, 0.15)))
        p = Placement(x, y, p.angle + float(rng.normal(0, 12)), width)
    down = [
        Placement(w - 1.6 * width, h / 2 - 0.8 * width, float(rng.uniform(-20, 20)), width),
        Placement(w - 1.4 * width + 8, h / 2 + 0.9 * width, float(rng.uniform(60, 120)), width),
    ]
    return placed, down


def table(seed: int, cards: int = 13, width: float = 105.0, hand: bool = True) -> Table:
    """A camera's frame of a card table (see the module's docstring); ``cards`` face up, 8 to 13,
    ``width`` pixels wide. Everything is drawn from ``seed``."""
    if not 8 <= cards <= 13:
        raise ValueError(f"a table has 8 to 13 face-up cards, not {cards}")
    placed, down = _layout(seed, cards, width)
    return _drawn(seed, placed, down, hand)


def landed(t: Table, seed: int, name: str | None = None) -> Table:
    """``t`` with one more card laid face up on a clear part of the table (from ``seed``)."""
    rng = np.random.default_rng(seed)
    taken = {n for n, _ in t.faces}
    free = [str(c) for c in full_deck() if str(c) not in taken]
    width = t.faces[0][1].width
    new = Placement(
        SIZE[0] * 0.55 + rng.normal(0, 10),
        SIZE[1] * 0.5 + rng.normal(0, 10),
        float(rng.uniform(-30, 30)),
        width,
    )
    card = name or free[int(rng.integers(0, len(free)))]
    frame = compose(t.frame, [crop(card)], [new])
    return Table(frame, (*t.faces, (card, new)), t.backs)


def _drawn(seed: int, placed: list[tuple[str, Placement]], down: list[Placement], hand: bool) -> Table:
    rng = np.random.default_rng(seed + 7919)
    w, h = SIZE
    top = wood(w // 2, h // 2, seed=seed)
    base = np.asarray(cv2.resize(top, SIZE, interpolation=cv2.INTER_LINEAR), np.uint8)
    back = load_deck().back
    frame = compose(base, [back, back], down)
    frame = compose(frame, [crop(n) for n, _ in placed], [p for _, p in placed])
    width = placed[0][1].width
    for _ in range(3):  # chips, away from the cards' middles
        centre = (int(rng.uniform(0.05, 0.95) * w), int(rng.uniform(0.3, 0.7) * h))
        radius = int(width * 0.2)
        colour = tuple(int(v) for v in rng.uniform(0, 255, 3))
        cv2.circle(frame, centre, radius, colour, -1, cv2.LINE_AA)
        cv2.circle(frame, centre, int(radius * 0.7), (235, 235, 235), max(2, radius // 10), cv2.LINE_AA)
    if hand:
        _hand(frame, rng, width)
    return Table(frame, tuple(placed), tuple(down))


def _hand(frame: Image, rng: np.random.Generator, width: float) -> None:
    """A player's hand and forearm reaching in over the table's left edge, skin toned and shaded."""
    h = frame.shape[0]
    y = int(h * rng.uniform(0.35, 0.65))
    skin = tuple(int(v) for v in (rng.uniform(90, 140), rng.uniform(130, 170), rng.uniform(180, 220)))
    mask = np.zeros(frame.shape[:2], np.uint8)
    cv2.ellipse(mask, (0, y), (int(1.1 * width), int(0.45 * width)), 0, 0, 360, 255, -1)
    for k in range(4):  # fingers
        cv2.ellipse(
            mask,
            (int(1.05 * width), y - int(0.3 * width) + k * int(0.2 * width)),
            (int(0.35 * width), int(0.08 * width)),
            float(rng.normal(0, 8)),
            0,
            360,
            255,
            -1,
        )
    soft = cv2.GaussianBlur(mask, (0, 0), 1.5).astype(np.float32) / 255.0
    shade = np.linspace(0.8, 1.0, frame.shape[1], dtype=np.float32)[None, :]
    colour = np.array(skin, np.float32)[None, None, :] * shade[..., None]
    frame[:] = np.clip(frame * (1 - soft[..., None]) + colour * soft[..., None], 0, 255).astype(np.uint8)


# ------------------------------------------------------------------------------------ degradations
def defocus(frame: Image, radius: float) -> Image:
    """``frame`` through a lens out of focus: each point spread over a disc ``radius`` pixels across
    its half (0: sharp). A 1280x720 webcam focused at 40 cm sees a table at 60-90 cm with a disc of
    about 1-2.5 pixels."""
    if radius <= 0:
        return frame
    size = math.ceil(radius) * 2 + 1
    disc = np.zeros((size * 4, size * 4), np.float32)
    cv2.circle(disc, (size * 2, size * 2), round(radius * 4), 1.0, -1, cv2.LINE_AA)
    kernel = cv2.resize(disc, (size, size), interpolation=cv2.INTER_AREA)
    kernel /= kernel.sum()
    out: Image = np.asarray(cv2.filter2D(frame, -1, kernel), np.uint8)
    return out


def shaken(frame: Image, length: float, angle: float = 30.0) -> Image:
    """``frame`` smeared along a line ``length`` pixels long at ``angle`` degrees (a hand bumping the
    shelf, a slow shutter)."""
    if length <= 1:
        return frame
    size = math.ceil(length) | 1
    line = np.zeros((size, size), np.float32)
    c = size // 2
    dx, dy = math.cos(math.radians(angle)) * length / 2, -math.sin(math.radians(angle)) * length / 2
    cv2.line(line, (round(c - dx), round(c - dy)), (round(c + dx), round(c + dy)), 1.0, 1, cv2.LINE_AA)
    line /= line.sum()
    out: Image = np.asarray(cv2.filter2D(frame, -1, line), np.uint8)
    return out


def shadowed(frame: Image, light: float, seed: int = 0) -> Image:
    """``frame`` with the hard shadow of a player leaning over: a broad shape over a third to half of
    the table, its edge sharp (a point lamp), the light inside cut to ``light`` of what it was."""
    rng = np.random.default_rng(seed)
    h, w = frame.shape[:2]
    mask = np.zeros((h, w), np.float32)
    centre = (int(w * rng.uniform(0.3, 0.7)), int(h * rng.uniform(0.1, 0.3)))
    cv2.ellipse(mask, centre, (int(w * 0.3), int(h * 0.5)), float(rng.uniform(-30, 30)), 0, 360, 1.0, -1)
    mask = cv2.GaussianBlur(mask, (0, 0), 1.5)
    gain = 1.0 - (1.0 - light) * mask
    out: Image = np.clip(frame.astype(np.float32) * gain[..., None], 0, 255).astype(np.uint8)
    return out


def tilt_homography(
    degrees: float, size: tuple[int, int] = SIZE, lens: float = 60.0
) -> npt.NDArray[np.float64]:
    """The homography from a straight-down frame of the table to the frame of a camera looking at the
    table's middle from ``degrees`` off straight down, from the frame's bottom edge's side, at the same
    distance (``lens``: the degrees the lens sees across); scaled and moved so that the whole table seen
    before lies inside the frame. The top of the table is then the far side: its cards smaller, every
    card shortened along the line of sight, as a camera on a shelf sees them."""
    w, h = size
    f = (w / 2) / math.tan(math.radians(lens / 2))
    k = np.array([[f, 0, w / 2], [0, f, h / 2], [0, 0, 1]], np.float64)
    t = math.radians(degrees)
    # The table is the plane Z = 0, measured in the straight-down frame's pixels from its middle; the
    # straight-down camera sees it from f away, so a table pixel is a frame pixel there.
    centre = np.array([0.0, f * math.sin(t), -f * math.cos(t)])
    axes = np.array([[1.0, 0.0, 0.0], [0.0, math.cos(t), math.sin(t)], [0.0, -math.sin(t), math.cos(t)]])
    plane = np.column_stack([axes[:, 0], axes[:, 1], -axes @ centre])
    to_table = np.array([[1.0, 0.0, -w / 2], [0.0, 1.0, -h / 2], [0.0, 0.0, 1.0]])
    m = k @ plane @ to_table
    corners = np.array([[[0, 0], [w, 0], [w, h], [0, h]]], np.float64)
    seen = cv2.perspectiveTransform(corners, m)[0]
    lo, hi = seen.min(axis=0), seen.max(axis=0)
    fit = min(w / (hi[0] - lo[0]), h / (hi[1] - lo[1]))
    move = np.array([[fit, 0, -lo[0] * fit], [0, fit, -lo[1] * fit], [0, 0, 1]], np.float64)
    move[0, 2] += (w - (hi[0] - lo[0]) * fit) / 2
    move[1, 2] += (h - (hi[1] - lo[1]) * fit) / 2
    out = move @ m
    result: npt.NDArray[np.float64] = out / out[2, 2]
    return result


def tilted(t: Table, degrees: float) -> tuple[Table, npt.NDArray[np.float64]]:
    """``t`` as a camera turned ``degrees`` from straight down sees it (see :func:`tilt_homography`),
    the truth moved with it (a placement's centre moved, its width the local scale's), and the
    homography."""
    m = tilt_homography(degrees)
    w, h = SIZE
    # Beyond the table seen before: the table's own colour (no card may be seen twice by a mirror).
    colour = [float(v) for v in np.median(t.frame.reshape(-1, 3), axis=0)]
    frame = np.asarray(
        cv2.warpPerspective(
            t.frame, m, (w, h), flags=cv2.INTER_AREA, borderMode=cv2.BORDER_CONSTANT, borderValue=colour
        ),
        np.uint8,
    )

    def moved(p: Placement) -> Placement:
        pts = np.array([[[p.x, p.y], [p.x + p.width, p.y]]], np.float64)
        (x, y), (x2, y2) = cv2.perspectiveTransform(pts, m)[0]
        return replace(p, x=float(x), y=float(y), width=float(math.hypot(x2 - x, y2 - y)))

    return Table(frame, tuple((n, moved(p)) for n, p in t.faces), tuple(moved(p) for p in t.backs)), m


# ----------------------------------------------------------------------------------------- scoring
@dataclass(frozen=True, slots=True)
class Score:
    """Face-up cards on the table, those found (named right where they lie), reports naming a card not
    there (or far from where it lies), and cards reported more than once."""

    cards: int
    found: int
    wrong: int
    twice: int
    reported: int

    def __add__(self, other: Score) -> Score:
        return Score(*(a + b for a, b in zip(_fields(self), _fields(other), strict=True)))

    @property
    def recall(self) -> float:
        return self.found / max(self.cards, 1)

    @property
    def wrong_share(self) -> float:
        return self.wrong / max(self.reported, 1)

    def __str__(self) -> str:
        return (
            f"found {self.found}/{self.cards} ({100 * self.recall:.1f} %), "
            f"wrong {self.wrong}/{self.reported} ({100 * self.wrong_share:.1f} %), twice {self.twice}"
        )


def _fields(s: Score) -> tuple[int, int, int, int, int]:
    return s.cards, s.found, s.wrong, s.twice, s.reported


def score(sightings: list[Sighting], t: Table) -> Score:
    """How ``sightings`` read ``t``'s face-up cards: a card is found when a sighting of its name lies
    within a card's width of its centre; a sighting naming a card elsewhere is wrong."""
    named = [s for s in sightings if s.card is not None]
    where = dict(t.faces)
    found: set[str] = set()
    wrong = 0
    for s in named:
        p = where.get(s.label)
        if p is not None and math.dist(s.center, (p.x, p.y)) < 1.0 * p.width:
            found.add(s.label)
        else:
            wrong += 1
    labels = [s.label for s in named]
    twice = sum(1 for n in set(labels) if labels.count(n) > 1)
    return Score(len(t.faces), len(found), wrong, twice, len(named))


# ------------------------------------------------------------------------------------------ deals
def deal(name: str = HELD_OUT_DEAL) -> tuple[Image, list[tuple[str, float, float, float]]]:
    """A real deal photo and its labelled index corners (name, centre x, centre y, size in pixels)."""
    import json

    image = cv2.imread(str(DEALS / f"{name}-md-sq.jpg"))
    if image is None:
        raise FileNotFoundError(f"the real deal photo {DEALS / name}-md-sq.jpg is missing")
    h, w = image.shape[:2]
    labels = json.loads((DEALS / f"{name}-md-sq-net1280-labels.json").read_text())
    boxes = []
    for item in labels:
        rc = item["relative_coordinates"]
        size = max(rc["width"] * w, rc["height"] * h)
        boxes.append((str(item["name"]), rc["center_x"] * w, rc["center_y"] * h, size))
    return np.asarray(image, np.uint8), boxes


def deal_tilted(
    degrees: float, name: str = HELD_OUT_DEAL
) -> tuple[Image, list[tuple[str, float, float, float]]]:
    """A real deal as a camera ``degrees`` off straight down sees it (see :func:`tilt_homography`), its
    labels moved with it (a label's size scaled as the picture is where it lies)."""
    image, boxes = deal(name)
    h, w = image.shape[:2]
    m = tilt_homography(degrees, (w, h))
    colour = [float(v) for v in np.median(image.reshape(-1, 3), axis=0)]
    warped = cv2.warpPerspective(
        image, m, (w, h), flags=cv2.INTER_AREA, borderMode=cv2.BORDER_CONSTANT, borderValue=colour
    )
    moved = []
    for label, x, y, size in boxes:
        pts = np.array([[[x, y], [x + size, y]]], np.float64)
        (nx, ny), (x2, y2) = cv2.perspectiveTransform(pts, m)[0]
        moved.append((label, float(nx), float(ny), float(math.hypot(x2 - nx, y2 - ny))))
    return np.asarray(warped, np.uint8), moved


def deal_score(indices: list[Sighting], boxes: list[tuple[str, float, float, float]]) -> tuple[int, int, int]:
    """(labelled indices, found and named right, misread) for index sightings of a deal: a label is found
    when a reading of its name lies within 0.9 of its size, each reading used once; a misread is a
    reading left over that lies on labels of other names (``test_deals.py`` and the benchmark count
    so)."""
    readings = [s for s in indices if s.card is not None]
    found = 0
    used: set[int] = set()
    for name, x, y, size in boxes:
        for i, s in enumerate(readings):
            if i not in used and s.label == name and math.dist(s.center, (x, y)) < 0.9 * size:
                found += 1
                used.add(i)
                break
    misread = 0
    for i, s in enumerate(readings):
        if i in used:
            continue
        near = [name for name, x, y, size in boxes if math.dist(s.center, (x, y)) < 0.9 * size]
        if near and s.label not in near:
            misread += 1
    return len(boxes), found, misread
