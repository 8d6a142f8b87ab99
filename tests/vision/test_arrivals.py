"""Something new lying still that nothing was read on (:mod:`companion.vision.arrivals`), from pictures of
a card table: a card laid and never read is found; a card read, a card taken away, a hand resting on
the table and a face-down card are not."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import cv2

from companion.app.deck import load_deck
from companion.cards import Card
from companion.vision.arrivals import Arrival, Arrivals
from companion.vision.scene import Placement, compose, wood
from companion.vision.types import Frame, Sighting

W, H, CARD = 1280, 720, 96
SPOT = Placement(640, 560, 3, CARD)
TABLE = wood(W, H, light=True)


def laid(*faces: str, back: bool = False) -> Frame:
    deck = load_deck()
    pictures = [deck.back if back else deck.face(face) for face in faces]
    return compose(TABLE, pictures, [Placement(SPOT.x + 74 * k, SPOT.y, 3, CARD) for k in range(len(faces))])


def run(frames: Sequence[Frame], sightings: Sequence[Sequence[Sighting]] = ()) -> list[list[Arrival]]:
    """What is found in each of ``frames`` (30 a second), given what was recognised in each."""
    arrivals = Arrivals()
    read = [*sightings, *([()] * (len(frames) - len(sightings)))]
    return [arrivals.see(frame, read[n], n / 30.0, CARD) for n, frame in enumerate(frames)]


def test_a_card_laid_that_nothing_reads_is_found_where_it_lies_and_kept_while_it_lies_there() -> None:
    out = run([TABLE] * 3 + [laid("7d")] * 15)
    assert out[3] == [] and out[-1], "judged only after the recogniser has had its turn"
    (arrival,) = out[-1]
    assert all(frame == [arrival] for frame in out[-5:])  # one thing, the same in every frame
    x, y = arrival.centre
    assert abs(x - SPOT.x) < CARD / 3 and abs(y - SPOT.y) < CARD / 3
    assert 3 / 30.0 <= arrival.since <= 4 / 30.0


def test_a_card_laid_over_part_of_another_is_found_by_its_own_new_paper() -> None:
    out = run([laid("7d")] * 3 + [laid("7d", "8c")] * 15)
    (arrival,) = out[-1]
    assert arrival.centre[0] > SPOT.x + CARD / 2  # the new card's face, right of the first


def test_a_card_something_was_read_on_is_left_to_the_tracker() -> None:
    read = Sighting(Card.parse("7d"), 0.99, ((600.0, 500.0), (620.0, 500.0), (620.0, 530.0), (600.0, 530.0)))
    assert run([TABLE] * 3 + [laid("7d")] * 15, [()] * 3 + [[read]] * 15)[-1] == []


def test_a_card_laid_over_one_read_before_is_not_taken_for_it() -> None:
    """The 7d lies read; a blank card is laid over its right half, where the 7d's reading still stands
    (a recogniser keeps what it read where it saw no change): that old reading is no reading of the
    new card, which is still found."""
    deck = load_deck()
    face = deck.face("7d").copy()
    face[10:-10, 10:-10] = face[face.shape[0] // 2, 4]
    first = Placement(SPOT.x - 60, SPOT.y, 3, CARD)
    before = compose(TABLE, [deck.face("7d")], [first])
    after = compose(TABLE, [deck.face("7d"), face], [first, SPOT])
    index = Sighting(Card.parse("7d"), 0.99, ((600.0, 540.0), (620.0, 540.0), (620.0, 570.0), (600.0, 570.0)))
    assert run([before] * 30 + [after] * 15, [[index]] * 45)[-1] != []


def test_a_card_taken_away_a_face_down_card_and_a_hand_resting_make_nothing() -> None:
    assert run([laid("7d")] * 3 + [TABLE] * 15)[-1] == []
    assert run([TABLE] * 3 + [laid("7d", back=True)] * 15)[-1] == []
    hand = TABLE.copy()
    cv2.ellipse(hand, (640, 560), (80, 60), 20, 0, 360, (120, 150, 205), -1)
    assert run([TABLE] * 3 + [hand] * 15)[-1] == []


def test_a_card_found_and_then_taken_away_is_no_longer_reported() -> None:
    out = run([TABLE] * 3 + [laid("7d")] * 15 + [TABLE] * 5)
    assert out[17] and out[-1] == []


def test_at_a_slant_a_far_card_is_judged_by_the_width_of_a_card_lying_there() -> None:
    """A camera at a slant sees a far card half as wide as a near one. Judged by one width for the whole
    frame (the near cards'), its paper is too little for a card and it is never asked about; judged by
    the width of a card lying where it lies (the table's plane says it), it is found. A scrap of paper
    a third of that far card's width is still nothing."""
    deck = load_deck()
    far = compose(TABLE, [deck.face("7d")], [Placement(640, 150, 3, CARD / 2)])
    scrap = TABLE.copy()
    cv2.rectangle(scrap, (630, 140), (646, 162), (250, 250, 250), -1)

    def width(point: tuple[float, float]) -> float:
        return CARD / 2 if point[1] < H / 2 else CARD

    def found(frames: Sequence[Frame], card: float | Callable[[tuple[float, float]], float]) -> list[Arrival]:
        arrivals = Arrivals()
        return [arrivals.see(frame, (), n / 30.0, card) for n, frame in enumerate(frames)][-1]

    assert found([TABLE] * 3 + [far] * 15, CARD) == []
    (arrival,) = found([TABLE] * 3 + [far] * 15, width)
    assert abs(arrival.centre[0] - 640) < CARD / 4 and abs(arrival.centre[1] - 150) < CARD / 4
    assert found([TABLE] * 3 + [scrap] * 15, width) == []
