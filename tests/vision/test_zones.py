"""Table zones: calibration from marker cards or an empty table, saved and loaded as JSON."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from companion.vision.types import Sighting, Zone, seen_from_text
from companion.vision.zones import CRIB, DECK, TableLayout, calibrate, play_zone


def at(label: str, x: float, y: float) -> Sighting:
    return Sighting(
        seen_from_text(label), 0.99, ((x - 10, y - 10), (x + 10, y - 10), (x + 10, y + 10), (x - 10, y + 10))
    )


def test_marker_cards_define_the_zones() -> None:
    frame = np.zeros((720, 1280, 3), np.uint8)
    markers = [at("As", 300, 600), at("Ah", 300, 100), at("Kd", 1000, 200), at("Kc", 1000, 550)]
    layout = calibrate(frame, markers)
    assert set(layout.zones) == {play_zone(1), play_zone(2), DECK, CRIB}
    assert layout.zone_at((320, 650)) == play_zone(1)
    assert layout.zone_at((250, 60)) == play_zone(2)
    assert layout.zone_at((1100, 150)) == DECK
    assert layout.zone_at((950, 600)) == CRIB
    # The same table seen at half the resolution.
    assert layout.zone_at((500, 300), size=(640, 360)) == CRIB


def test_an_empty_table_gives_the_usual_layout() -> None:
    layout = calibrate(np.zeros((720, 1280, 3), np.uint8), [])
    assert layout.zone_at((640, 700)) == play_zone(1)
    assert layout.zone_at((640, 10)) == play_zone(2)
    assert layout.zone_at((300, 360)) == DECK
    assert layout.zone_at((980, 360)) == CRIB


def test_one_marker_alone_is_refused() -> None:
    with pytest.raises(ValueError, match="marker"):
        calibrate(np.zeros((100, 100, 3), np.uint8), [at("As", 10, 10)])


def test_layout_round_trips_through_json(tmp_path: Path) -> None:
    layout = TableLayout.default(1920, 1080, players=3)
    path = tmp_path / "table.json"
    layout.save(path)
    assert TableLayout.load(path) == layout
    assert play_zone(3) in TableLayout.load(path).zones


def test_a_broken_layout_file_is_a_clear_error(tmp_path: Path) -> None:
    path = tmp_path / "table.json"
    path.write_text("{not json")
    with pytest.raises(ValueError, match="not a table layout"):
        TableLayout.load(path)
    path.write_text('{"size": [10]}')
    with pytest.raises(ValueError, match="not a table layout"):
        TableLayout.load(path)


def test_zones_are_the_tables_own_names() -> None:
    layout = TableLayout.default(1280, 720)
    assert set(layout.zones) == {Zone.PLAYER0, Zone.PLAYER1, Zone.STARTER, Zone.CRIB}
    assert layout.zone_at((640, 700)) == "player0" and layout.zone_at((300, 360)) == "starter"


def test_a_layout_saved_under_the_old_zone_names_still_loads(tmp_path: Path) -> None:
    path = tmp_path / "table.json"
    path.write_text(
        '{"size": [1280, 720], "zones": {"play:1": [640, 600], "play:2": [640, 100], "deck": [300, 360]}}'
    )
    layout = TableLayout.load(path)
    assert layout.zone_at((640, 700)) is Zone.PLAYER0
    assert layout.zone_at((250, 360)) is Zone.STARTER


def test_an_empty_table_for_four_has_the_seats_round_the_table_to_the_left() -> None:
    layout = calibrate(np.zeros((720, 1280, 3), np.uint8), [], players=4)
    assert layout.zone_at((640, 700)) is Zone.PLAYER0  # near
    assert layout.zone_at((30, 360)) is Zone.PLAYER1  # on the near player's left
    assert layout.zone_at((640, 10)) is Zone.PLAYER2  # far: the near player's partner, opposite
    assert layout.zone_at((1250, 360)) is Zone.PLAYER3  # right: the left player's partner, opposite
    assert layout.zone_at((500, 360)) is Zone.STARTER and layout.zone_at((780, 360)) is Zone.CRIB


def test_each_of_four_seats_is_found_for_cards_in_a_composed_frame() -> None:
    """Real card pictures laid before each of four seats (turned to their player), on the starter spot
    and on the crib, read by the card recognition: each card lands in its own zone."""
    from companion.app.deck import load_deck
    from companion.vision.recognise import Recogniser
    from companion.vision.scene import Placement, compose, wood

    w, h, card = 1280, 720, 96
    laid = {
        "7h": (Placement(600, 0.80 * h, 4, card), Zone.PLAYER0),
        "Qs": (Placement(0.14 * w, 380, 272, card), Zone.PLAYER1),
        "3d": (Placement(680, 0.20 * h, 183, card), Zone.PLAYER2),
        "9c": (Placement(0.86 * w, 340, 88, card), Zone.PLAYER3),
        "5s": (Placement(0.4 * w, 0.5 * h, -2, card), Zone.STARTER),
        "Jh": (Placement(0.6 * w, 0.5 * h, 3, card), Zone.CRIB),
    }
    deck = load_deck()
    names = list(laid)
    frame = compose(wood(w, h, light=True), [deck.face(c) for c in names], [laid[c][0] for c in names])
    layout = calibrate(wood(w, h, light=True), [], players=4)
    found = {str(s.card): layout.zone_at(s.center) for s in Recogniser(filmed=True).detect(frame)}
    assert found == {name: zone for name, (_, zone) in laid.items()}


def test_at_a_slant_zones_are_split_on_the_table_not_in_the_frame() -> None:
    """A camera 40 degrees off straight down, the usual zones (no marker cards). Nearest is measured on
    the table: every point of the frame goes to the anchor nearest it as seen from above. A card
    lying 125 pixels right of the middle of the near player's row (at 0.8 of the table's depth) is,
    in the frame, nearer the crib's anchor (the slant squeezes the table's depth); on the table, the
    near player's."""
    import cv2

    from companion.vision.plane import TablePlane
    from tests.vision.tables import tilt_homography

    seen_from = tilt_homography(40, (1280, 720))  # the table's pixels to the frame's
    plane = TablePlane.of(np.linalg.inv(seen_from), (1280, 720), (1280, 720))
    usual = TableLayout.default(1280, 720)
    anchors = np.array([[p for _, p in usual.anchors]], np.float64)
    on_table = cv2.perspectiveTransform(anchors, np.linalg.inv(seen_from))[0]
    rng = np.random.default_rng(5)
    for x, y in rng.uniform((0, 0), (1280, 720), size=(200, 2)):
        where = cv2.perspectiveTransform(np.array([[[x, y]]], np.float64), np.linalg.inv(seen_from))[0, 0]
        nearest = usual.anchors[int(np.argmin(((on_table - where) ** 2).sum(axis=1)))][0]
        assert usual.zone_at((x, y), plane=plane) == nearest
    card = cv2.perspectiveTransform(np.array([[[640 + 125, 0.8 * 720]]], np.float64), seen_from)[0, 0]
    point = (float(card[0]), float(card[1]))
    assert usual.zone_at(point) == CRIB
    assert usual.zone_at(point, plane=plane) == play_zone(1)
    assert TableLayout(usual.size, usual.anchors, plane).zone_at(point) == play_zone(1)


def test_a_point_between_two_anchors_lies_nearly_as_near_both_nearest_first() -> None:
    """Between the near player's anchor and the starter's, a point is in the nearer zone, with the
    other nearly as near; well inside a zone, in that one alone."""
    layout = TableLayout.default(1280, 720)
    anchors = dict(layout.anchors)
    player, starter = np.array(anchors[play_zone(1)]), np.array(anchors[DECK])
    just_nearer_starter = tuple(player + 0.52 * (starter - player))
    assert layout.zones_at(just_nearer_starter) == (DECK, play_zone(1))
    assert layout.zone_at(just_nearer_starter) == DECK
    assert layout.zones_at(tuple(player + 0.1 * (starter - player))) == (play_zone(1),)
    for zone, anchor in layout.anchors:
        assert layout.zones_at(anchor) == (zone,)
