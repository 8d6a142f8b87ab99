"""The camera feed and the table's plane: a camera at a slant, once calibrated, reads every frame as if
from straight above, and sightings stay in the frame's own pixels."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from companion.app.camera import CameraFeed
from companion.cards import UNKNOWN
from companion.events import CardLanded
from companion.vision.plane import TablePlane
from companion.vision.recognise import Recogniser
from companion.vision.scene import wood
from companion.vision.types import Frame, Sighting
from companion.vision.zones import TableLayout
from tests.vision.markers import marker_table, seen_at
from tests.vision.tables import SIZE, landed, table, tilt_homography, tilted


@dataclass(frozen=True)
class _Shot:
    frame: Frame
    time: float


class _Looking:
    """A detector that notes the size of every picture it is asked to read, and reads it for real when
    given a recogniser (else sees nothing)."""

    def __init__(self, recogniser: Recogniser | None = None) -> None:
        self.recogniser = recogniser
        self.sizes: list[tuple[int, int]] = []

    def detect(self, frame: Frame) -> list[Sighting]:
        self.sizes.append((frame.shape[1], frame.shape[0]))
        return self.recogniser.detect(frame) if self.recogniser is not None else []


def _filmed_at_45(opening: Frame) -> list[_Shot]:
    """A camera 45 degrees off straight down: ``opening`` (a straight-down picture) first, then a table
    of ten cards twice, then with a card laid."""
    first = table(2, cards=10)
    slanted, _ = tilted(first, 45)
    laid, _ = tilted(landed(first, 7), 45)
    return [
        _Shot(seen_at(opening, tilt_homography(45)), 0.0),
        _Shot(slanted.frame, 0.5),
        _Shot(slanted.frame, 0.7),
        _Shot(laid.frame, 1.0),
    ]


def test_calibrating_at_a_slant_reads_every_later_frame_from_above() -> None:
    markers, _ = marker_table(21)
    shots = _filmed_at_45(markers)
    looking = _Looking(Recogniser(filmed=True))
    feed = CameraFeed(shots, lambda event, _: None, recogniser=looking)
    assert feed.run() == 4
    layout = feed.watch.tracker.layout
    assert layout is not None and layout.plane is not None
    top = layout.plane.size
    # The first frame as it came (to calibrate), then again from above, and every frame after it so,
    # but for the one where nothing moved (what was read stands).
    assert looking.sizes == [SIZE, top, top, top]


def test_a_layout_file_with_a_plane_has_the_first_frame_read_from_above(tmp_path: Path) -> None:
    plane = TablePlane.of(tilt_homography(30), (1500, 800), SIZE)
    default = TableLayout.default(*SIZE)
    path = tmp_path / "table.json"
    TableLayout(default.size, default.anchors, plane).save(path)
    looking = _Looking()
    frame = np.zeros((SIZE[1], SIZE[0], 3), np.uint8)
    card = frame.copy()
    card[300:450, 600:700] = 255  # a card laid
    feed = CameraFeed(
        [_Shot(frame, 0.0), _Shot(card, 0.1)], lambda e, _: None, layout_file=path, recogniser=looking
    )
    feed.run()
    assert looking.sizes == [(1500, 800), (1500, 800)]


def test_a_camera_straight_above_reads_frames_as_they_come() -> None:
    markers, _ = marker_table(22)
    looking = _Looking(Recogniser(filmed=True))
    feed = CameraFeed([_Shot(markers, 0.0), _Shot(markers, 0.2)], lambda e, _: None, recogniser=looking)
    feed.run()
    layout = feed.watch.tracker.layout
    assert layout is not None and layout.plane is None and feed.watch.tracker.plane is None
    assert looking.sizes == [SIZE, SIZE]


def test_a_table_started_without_markers_at_a_slant_is_levelled_by_the_cards_laid() -> None:
    """No marker cards and no layout file: the empty table calibrates to the usual zones with no
    plane, the first frame with cards is read as it comes, its cards' outlines say the slant, and it
    and every frame after it are read from above."""
    empty = np.asarray(cv2.resize(wood(SIZE[0] // 2, SIZE[1] // 2, seed=5), SIZE), np.uint8)
    shots = _filmed_at_45(empty)
    looking = _Looking(Recogniser(filmed=True))
    said: list[str] = []
    feed = CameraFeed(shots, lambda event, _: None, recogniser=looking, say=said.append)
    assert feed.run() == 4
    layout = feed.watch.tracker.layout
    assert layout is not None and layout.plane is None
    assert sum("at a slant" in line for line in said) == 1
    # Zones are measured on the table from then on (see TableLayout.zone_at).
    assert feed.watch.tracker.plane is not None
    # The empty table and the first with cards as they came, that one again from above, and the card
    # laid from above (the frame where nothing moved is not read).
    assert len(looking.sizes) == 4
    assert looking.sizes[:2] == [SIZE, SIZE]
    assert looking.sizes[2] == looking.sizes[3] != SIZE


def test_at_a_slant_a_far_card_nothing_read_is_asked_about_by_the_width_of_a_card_there(
    tmp_path: Path,
) -> None:
    """A camera 40 degrees off straight down sees a far card about half as wide as a near one. One laid
    there that nothing reads is still noticed and asked about, its paper judged by the width of a card
    lying there (the table's plane says it); judged by one width for the whole frame it went unnoticed,
    and the game went out of step."""
    empty = np.asarray(cv2.resize(wood(SIZE[0] // 2, SIZE[1] // 2, seed=5), SIZE), np.uint8)
    far = empty.copy()
    cv2.rectangle(far, (615, 115), (665, 185), (245, 245, 245), -1)  # a card 50 pixels wide, far off
    shots = [_Shot(empty, n / 30) for n in range(5)] + [_Shot(far, n / 30) for n in range(5, 70)]
    default = TableLayout.default(*SIZE)
    view = np.linalg.inv(tilt_homography(40))
    posted: dict[str, list[object]] = {}
    for name, plane in (("plane", TablePlane.of(view, SIZE, SIZE, card=96.0)), ("none", None)):
        path = tmp_path / f"{name}.json"
        TableLayout(default.size, default.anchors, plane).save(path)
        posted[name] = []
        post = posted[name].append
        CameraFeed(shots, lambda e, _, post=post: post(e), layout_file=path, recogniser=_Looking()).run()
    assert posted["none"] == []
    (asked,) = posted["plane"]
    assert isinstance(asked, CardLanded) and asked.card is UNKNOWN
