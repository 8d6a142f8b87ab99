"""Recognition on real photos of cards: the 52 real crops, and real cards laid on a synthetic table."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from companion.app.deck import load_deck
from companion.vision.recognise import Recogniser, one_of_each
from companion.vision.scene import Placement, compose, wood
from companion.vision.types import BACK, UNKNOWN, Sighting, seen_from_text

from .conftest import CROPS, crop
from .tables import tilt_homography

ALL = sorted(p.stem for p in CROPS.glob("*.jpg"))


def test_the_data_set_has_all_52_crops() -> None:
    assert len(ALL) == 52


def test_the_real_crops_are_named_right(recogniser: Recogniser) -> None:
    """Measured: all 52 named right and alone (50 with the perceptron alone, before the namer). The
    networks saw these photos in their training scenes; networks built without them at all
    (``--real-scenes 0``) name 51 of 52, 44 without the half-scale reading (see docs/contributing.md)."""
    right, wrong = [], {}
    for name in ALL:
        labels = sorted({s.label for s in recogniser.detect(crop(name)) if s.card is not None})
        if labels == [name]:
            right.append(name)
        else:
            wrong[name] = labels
    print(f"\nreal crops named right: {len(right)}/52; others: {wrong}")
    assert len(right) >= 51
    assert sum(1 for labels in wrong.values() if not labels) <= 1  # left unread
    # A misread, where there is one, comes with the right reading of the other corner.
    assert all(name in labels for name, labels in wrong.items() if labels)


@pytest.mark.parametrize("angle", [0, 37, 90, 160, 233, 301])
def test_cards_are_read_at_any_rotation_on_light_wood(recogniser: Recogniser, angle: int) -> None:
    names = ["5h", "Qs", "10d", "Ac", "Kh", "7c"]
    places = [Placement(190 + i * 180, 300 + (i % 2) * 150, angle + 11 * i, 120) for i in range(6)]
    frame = compose(wood(1280, 720, seed=angle), [crop(n) for n in names], places)
    sightings = recogniser.detect(frame)
    named = [s.label for s in sightings if s.card is not None]
    # No card named wrongly or twice, and none left unread. (Before glyphs were split from the lines
    # they run into, the king of hearts was missed at 160 degrees.)
    assert sorted(named) == sorted(names)
    # Each card is reported where it lies.
    for s in sightings:
        if s.card is not None:
            p = places[names.index(s.label)]
            assert abs(s.center[0] - p.x) < 90 and abs(s.center[1] - p.y) < 90


def test_overlapping_pairs_are_both_read(recogniser: Recogniser) -> None:
    # Each pair: the second card covers most of the first, leaving the first one's index corner visible.
    names = ["9s", "4d", "Jc", "2h", "8c", "Kd"]
    places = []
    for k in range(3):
        x, y = 250 + k * 380, 360
        places += [Placement(x, y, 8.0, 150), Placement(x + 55, y + 40, 8.0, 150)]
    frame = compose(wood(1280, 720, seed=7, light=False), [crop(n) for n in names], places)
    named = sorted(s.label for s in recogniser.detect(frame) if s.card is not None)
    assert named == sorted(names)


def test_a_face_down_card_is_a_back(recogniser: Recogniser) -> None:
    back = np.full((352, 228, 3), 255, np.uint8)
    yy, xx = np.mgrid[0:332, 0:208]
    back[10:342, 10:218] = np.where((((xx + yy) // 9) % 2 == 0)[..., None], (150, 40, 30), (60, 20, 160))
    frame = compose(
        wood(1280, 720, seed=3),
        [back, crop("6d")],
        [Placement(400, 360, 20, 140), Placement(850, 360, -10, 140)],
    )
    labels = sorted(s.label for s in recogniser.detect(frame))
    assert labels == ["6d", BACK]


def _light_back(kind: str) -> np.ndarray:
    """A back printed mostly white: a fine lattice, or rows of small dots, inside a thin frame."""
    back = np.full((352, 228, 3), 248, np.uint8)
    ink = (120, 90, 20)
    if kind == "lattice":
        for t in range(-352, 228 + 352, 9):
            cv2.line(back, (t, 18), (t + 352, 352 - 18), ink, 1)
            cv2.line(back, (t + 352, 18), (t, 352 - 18), ink, 1)
        back[:18], back[-18:], back[:, :18], back[:, -18:] = 248, 248, 248, 248
    else:
        for y in range(28, 352 - 24, 12):
            for x in range(28, 228 - 24, 12):
                cv2.circle(back, (x, y), 3, ink, -1)
    cv2.rectangle(back, (14, 14), (228 - 14, 352 - 14), ink, 2)
    return back


@pytest.mark.parametrize("kind", ["lattice", "dots"])
@pytest.mark.parametrize("width", [120, 170])
def test_a_back_printed_as_a_fine_pattern_on_white_is_a_back(
    recogniser: Recogniser, kind: str, width: int
) -> None:
    # Mostly white like a face, but no field of open white: the gaps of a pattern, not a face's paper.
    frame = compose(
        wood(1280, 720, seed=4),
        [_light_back(kind), crop("7c")],
        [Placement(420, 360, 25, width), Placement(860, 360, -10, width)],
    )
    assert sorted(s.label for s in recogniser.detect(frame)) == ["7c", BACK]


def test_a_face_down_card_with_a_chip_against_its_edge_is_still_a_back(recogniser: Recogniser) -> None:
    frame = compose(
        wood(1280, 720, seed=8),
        [load_deck().back, crop("Qh")],
        [Placement(420, 360, 15, 170), Placement(880, 360, 0, 170)],
    )
    # A chip a third of the card's width across, resting half over the back's long edge.
    cv2.circle(frame, (420 + 85, 330), 30, (40, 40, 170), -1, cv2.LINE_AA)
    cv2.circle(frame, (420 + 85, 330), 21, (235, 235, 235), 3, cv2.LINE_AA)
    assert sorted(s.label for s in recogniser.detect(frame)) == ["Qh", BACK]


@pytest.mark.parametrize("name", ["10c", "9c", "10d", "Ah"])
def test_a_face_whose_indices_are_covered_is_not_taken_for_a_back(recogniser: Recogniser, name: str) -> None:
    # Its index corners painted over with its own white: the pips alone are left, with open white
    # between them (the ten of clubs leaves the least of it in the real deck).
    face = crop(name).copy()
    h, w = face.shape[:2]
    white = np.median(face[h // 2 - 5 : h // 2 + 5, 3:8].reshape(-1, 3), axis=0).astype(np.uint8)
    face[4 : int(0.3 * h), 4 : int(0.2 * w)] = white
    face[h - int(0.3 * h) : h - 4, w - int(0.2 * w) : w - 4] = white
    for width in (110, 160, 220):
        frame = compose(wood(1280, 720, seed=6), [face], [Placement(640, 360, 35, width)])
        assert all(s.label != BACK for s in recogniser.detect(frame)), width


def test_a_plain_card_is_not_named(recogniser: Recogniser) -> None:
    blank = np.full((352, 228, 3), 245, np.uint8)
    frame = compose(wood(800, 600, seed=5), [blank], [Placement(400, 300, 30, 160)])
    assert [s for s in recogniser.detect(frame) if s.card is not None] == []


def test_two_copies_read_equally_surely_are_both_named(recogniser: Recogniser) -> None:
    """Which of two equally sure readings of one name is the misread one a frame cannot tell, and two
    corners of one card left unjoined read so too: both stay named (the tracker takes a name for one
    card wherever it lies)."""
    places = [Placement(350, 360, 0, 130), Placement(900, 360, 45, 130)]
    frame = compose(wood(1280, 720, seed=9), [crop("3s"), crop("3s")], places)
    named = [s for s in recogniser.detect(frame) if s.card is not None]
    assert [s.label for s in named] == ["3s", "3s"]
    assert named[0].confidence == named[1].confidence


@pytest.mark.parametrize(("width", "step"), [(130, 0.16), (130, 0.17)])
def test_a_fanned_hand_whose_indices_stand_side_by_side_has_every_card_read(
    recogniser: Recogniser, width: int, step: float
) -> None:
    """A hand fanned on the table shows each card's index beside the next one's, under an index length
    apart (an index is about a fifth of a card wide, the step here a sixth): two indices, not two
    readings of one."""
    names = ["5s", "Qs", "9h", "Kd", "3c", "7h", "Jc", "10d"]
    places = [Placement(350 + i * step * width, 360, 15, width) for i in range(len(names))]
    frame = compose(wood(1280, 720, seed=5), [crop(n) for n in names], places)
    named = [s.label for s in recogniser.detect(frame) if s.card is not None]
    assert sorted(named) == sorted(names)


def test_one_of_each_names_a_card_only_where_it_reads_surest() -> None:
    def seen(label: str, confidence: float, x: float) -> Sighting:
        return Sighting(seen_from_text(label), confidence, ((x, 10.0), (x + 20, 40.0)))

    sightings = [
        seen("5c", 0.9, 0),
        seen("5s", 0.7, 100),
        seen("5s", 0.95, 200),
        seen("back", 0.8, 300),
        seen("9d", 1.0, 400),
        seen("9d", 1.0, 500),
    ]
    kept = one_of_each(sightings)
    assert [s.label for s in kept] == ["5c", "unknown", "5s", "back", "9d", "9d"]
    assert kept[1].corners == sightings[1].corners
    assert one_of_each(kept) == kept


def test_any_image_size_and_grey_input(recogniser: Recogniser) -> None:
    big = cv2.resize(crop("Jh"), (912, 1408), interpolation=cv2.INTER_CUBIC)
    assert {s.label for s in recogniser.detect(big) if s.card} == {"Jh"}
    grey = cv2.cvtColor(crop("8s"), cv2.COLOR_BGR2GRAY)
    assert {s.label for s in recogniser.detect(grey) if s.card} == {"8s"}
    tiny = np.zeros((3, 3, 3), np.uint8)
    assert [s for s in recogniser.detect(tiny) if s.label not in (UNKNOWN,)] == []


@pytest.mark.parametrize("width", [96, 110, 140])
def test_a_jumbo_index_jack_run_into_its_suit_is_read(recogniser: Recogniser, width: int) -> None:
    """The demo deck's jumbo index: the J's hook runs into the suit mark below it, so rank and suit make
    one blob (at any size: the glyphs touch in the deck's drawing). Such a blob is split at the suit's
    solid body (:func:`companion.vision.index.split_joined`), and a club is told from a spade by the
    outline left when the J's strokes are opened away. Measured before: the jack of diamonds alone read;
    the black jacks were left unread."""
    deck = load_deck()
    names = ["Jh", "Js", "Jd", "Jc"]
    places = [Placement(250 + i * 260, 360, (-6, 4, 183, 176)[i], width) for i in range(4)]
    frame = compose(wood(1280, 720, seed=width, light=True), [deck.face(n) for n in names], places)
    named = [s.label for s in recogniser.detect(frame) if s.card is not None]
    assert sorted(named) == sorted(names)


@pytest.mark.parametrize(
    ("name", "angle"), [("9s", 0), ("10c", 25), ("Kd", 140), ("Ac", 300), ("3h", 200), ("8d", 80)]
)
def test_a_card_close_under_a_webcam_is_read(recogniser: Recogniser, name: str, angle: int) -> None:
    """A card 450 pixels wide in a 1280x720 frame, twice as wide as any the networks learnt from: read
    at half scale as well, it is named. Measured before that second reading: three of these six."""
    frame = compose(wood(1280, 720, seed=angle), [load_deck().face(name)], [Placement(640, 360, angle, 450)])
    assert [s.label for s in recogniser.detect(frame) if s.card is not None] == [name]


@pytest.mark.parametrize(("name", "angle"), [("7s", 20), ("Jc", 135), ("10d", 250), ("3h", 320)])
def test_a_small_soft_card_on_a_dark_table_under_a_webcam_is_read(
    recogniser: Recogniser, name: str, angle: int
) -> None:
    """A webcam high over the table: a 640x480 frame, the card 85 pixels wide on dark wood, the lens
    soft. Its index glyphs, under ten pixels tall, run into the card's dark edge at that size; the
    photo read enlarged as well, they stand clear. (Measured before that reading: none of 24 such
    frames named, the courts among them taken for backs.)"""
    frame = compose(wood(640, 480, seed=angle, light=False), [crop(name)], [Placement(320, 240, angle, 85)])
    soft = np.asarray(cv2.GaussianBlur(frame, (0, 0), 1.0), np.uint8)
    assert [s.label for s in recogniser.detect(soft)] == [name]


def test_a_soft_card_at_a_table_cameras_size_is_read_from_filmed_frames() -> None:
    """A whole filmed frame is not read enlarged (that would cost twice a frame's time; only a region
    where something changed is); a camera over the table sees its cards at 110-190 pixels, where a
    soft lens on a dark table still leaves the index clear of the card's edge."""
    frame = compose(wood(640, 480, seed=5, light=False), [crop("7s")], [Placement(320, 240, 20, 120)])
    soft = np.asarray(cv2.GaussianBlur(frame, (0, 0), 1.0), np.uint8)
    assert [s.label for s in Recogniser(filmed=True).detect(soft)] == ["7s"]


def _four_index_card(name: str) -> np.ndarray:
    """A card printed with its index in all four corners (as some decks are): the real crop's top-left
    index copied upright to the top right and turned half round into both bottom corners."""
    face = crop(name)
    h, w = face.shape[:2]
    card = np.empty_like(face)
    card[:] = np.median(face[h // 3 : h // 3 + 20, w // 3 : w // 3 + 20].reshape(-1, 3), axis=0)
    index = face[8:92, 3:34]
    ih, iw = index.shape[:2]
    card[8 : 8 + ih, 3 : 3 + iw] = index
    card[8 : 8 + ih, w - 3 - iw : w - 3] = index
    turned = index[::-1, ::-1]
    card[h - 8 - ih : h - 8, 3 : 3 + iw] = turned
    card[h - 8 - ih : h - 8, w - 3 - iw : w - 3] = turned
    return card


@pytest.mark.parametrize("angle", [0, 120, 300])
def test_a_four_index_card_is_one_card(recogniser: Recogniser, angle: int) -> None:
    """Its four indices name one card, not two (two head-to-tail pairs), nor a duplicate. (Measured: at
    70 degrees one corner is unreadable and reported as unknown; at 205 one corner reads 3h, a misread
    the grouping cannot mend, since corners of different names are never joined.)"""
    frame = compose(wood(1280, 720, seed=angle), [_four_index_card("5h")], [Placement(640, 360, angle, 170)])
    sightings = [s for s in recogniser.detect(frame) if s.card is not None]
    assert [s.label for s in sightings] == ["5h"]


def test_two_four_index_copies_apart_are_two_sightings(recogniser: Recogniser) -> None:
    """Two copies far apart are not joined into one card."""
    card = _four_index_card("8c")
    places = [Placement(350, 360, 10, 170), Placement(930, 360, -20, 170)]
    sightings = recogniser.detect(compose(wood(1280, 720, seed=2), [card, card], places))
    named = sorted((s for s in sightings if s.card is not None), key=lambda s: s.center[0])
    assert [s.label for s in named] == ["8c", "8c"]
    assert [abs(s.center[0] - p.x) < 170 for s, p in zip(named, places, strict=True)] == [True, True]


def _two_suited(name: str, twin: str) -> np.ndarray:
    """The real crop of ``name`` with its bottom corner's index printed as ``twin``'s: one card whose
    two corners say two suits, as a small club or heart far from a slanting camera reads."""
    card = crop(name).copy()
    h, w = card.shape[:2]
    index = crop(twin)[8:92, 3:34]
    ih, iw = index.shape[:2]
    card[h - 8 - ih : h - 8, w - 3 - iw : w - 3] = index[::-1, ::-1]
    return card


@pytest.mark.parametrize(("name", "twin"), [("Kc", "Ks"), ("Ac", "As"), ("Jd", "Jh"), ("Qs", "Qc")])
def test_an_ace_or_court_whose_corners_read_two_suits_is_one_card_never_two(
    recogniser: Recogniser, name: str, twin: str
) -> None:
    """Its two corners read one rank in the two suits of a colour: it is one card, named by the surer
    corner or else unknown, never two cards (one of them named wrong). Before, each corner read was
    reported as a card of its own: 30 of these 32 views gave two."""
    for angle in (0, 40, 135, 250):
        card = _two_suited(name, twin)
        for width in (110, 170):
            frame = compose(wood(1280, 720, seed=angle), [card], [Placement(640, 360, angle, width)])
            named = [s.label for s in recogniser.detect(frame) if s.card is not None]
            assert len(named) <= 1, (angle, width, named)


@pytest.mark.parametrize(("name", "twin"), [("7c", "7s"), ("9h", "9d"), ("4s", "4c"), ("10d", "10h")])
def test_a_number_card_whose_corners_read_two_suits_is_one_card_at_a_slant_too(
    recogniser: Recogniser, name: str, twin: str
) -> None:
    """Seen from above, its pips name its suit (the doctored corner is outvoted); seen at 45 degrees
    with no table plane, where the middle cannot be counted, it is still one card, never two. Before,
    15 of these 16 slanted views gave two cards."""
    m = tilt_homography(45)
    for angle in (0, 40, 135, 250):
        card = _two_suited(name, twin)
        frame = compose(wood(1280, 720, seed=angle), [card], [Placement(640, 360, angle, 130)])
        assert [s.label for s in recogniser.detect(frame) if s.card is not None] == [name]
        slant = np.asarray(
            cv2.warpPerspective(frame, m, (1280, 720), flags=cv2.INTER_AREA, borderMode=cv2.BORDER_REPLICATE),
            np.uint8,
        )
        named = [s.label for s in recogniser.detect(slant) if s.card is not None]
        assert len(named) <= 1, (angle, named)


@pytest.mark.parametrize("angle", [0, 110, 250])
def test_an_index_printed_in_the_middle_of_a_card_read_at_both_corners_is_no_card(
    recogniser: Recogniser, angle: int
) -> None:
    """Nothing in a card's middle is an index, so nothing read there is another card (a pip washed pale
    by glare beside a club's stem was read as a ten of hearts in the middle of a three of clubs). Here
    the real ten of hearts' index is printed beside the three's middle pip."""
    card = crop("3c").copy()
    h, w = card.shape[:2]
    index = crop("10h")[8:92, 3:34]
    ih, iw = index.shape[:2]
    card[(h - ih) // 2 : (h + ih) // 2, w * 2 // 3 : w * 2 // 3 + iw] = index
    frame = compose(wood(1280, 720, seed=angle), [card], [Placement(640, 360, angle, 170)])
    assert [s.label for s in recogniser.detect(frame)] == ["3c"]


COURTS = [f"{rank}{suit}" for rank in "JQK" for suit in "cdhs"]


@pytest.mark.parametrize("angle", [30, 135, 250])
@pytest.mark.parametrize("filmed", [False, True])
def test_small_court_cards_whose_index_runs_into_the_picture_frame_are_read(
    recogniser: Recogniser, angle: int, filmed: bool
) -> None:
    """This deck frames its court pictures a pixel or two right of the index. At 110 pixels wide and
    turned off the square, the rank's ink runs into the frame line and they make one blob; such cards
    went unread, and were even reported face down (measured before: 53 of 72 courts found over six
    turns; now 71, one king of spades at one turn still unread)."""
    reader = Recogniser(filmed=True) if filmed else recogniser
    for first in range(0, 12, 6):
        six = COURTS[first : first + 6]
        places = [Placement(160 + i * 190, 360 + (i % 2) * 60, angle + 17 * i, 110) for i in range(6)]
        frame = compose(wood(1280, 720, seed=angle), [crop(n) for n in six], places)
        sightings = reader.detect(frame)
        assert sorted(s.label for s in sightings if s.card is not None) == sorted(six)
        assert not [s for s in sightings if s.label == BACK]


def test_a_close_card_is_read_from_filmed_frames_too() -> None:
    """Filmed frames skip the half-scale reading when every index read is small; a card filling much of
    the frame has no small index, so it is still read at half scale."""
    frame = compose(wood(1280, 720, seed=3), [crop("9c")], [Placement(640, 360, 20, 420)])
    assert [s.label for s in Recogniser(filmed=True).detect(frame) if s.card is not None] == ["9c"]


@pytest.mark.parametrize("deck", ["demo", "real"])
def test_an_index_cut_by_the_edge_of_the_picture_is_not_misread(recogniser: Recogniser, deck: str) -> None:
    """A card lying over the edge of the photo, the edge cutting through its lower index (a king's "K"
    cut to a stroke looks like the "1" of a ten): that index names nothing; the card is named by its
    whole index, or not at all."""
    wrong = {}
    for k, name in enumerate(["Kc", "Kh", "Qs", "Jd", "10c", "8h", "5s", "Ac"]):
        face = load_deck().face(name) if deck == "demo" else crop(name)
        h, w = face.shape[:2]
        width = 200.0
        for cut in (0.03, 0.05, 0.07, 0.09):  # how far, as a share of the card's length, the edge cuts in
            y = 720 - width * h / w * (0.5 - cut)
            frame = compose(wood(1280, 720, seed=k), [face], [Placement(300 + 80 * k, y, 0.0, width)])
            labels = {s.label for s in recogniser.detect(frame)} - {name, UNKNOWN}
            if labels:
                wrong[(name, cut)] = sorted(labels)
    assert wrong == {}
