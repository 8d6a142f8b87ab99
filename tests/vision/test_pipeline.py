"""End to end: a recorded video of the table, through the recogniser and the tracker, gives the events."""

from __future__ import annotations

from pathlib import Path

import cv2

from companion.cards import Card
from companion.vision.recognise import Recogniser
from companion.vision.scene import Placement, compose, wood
from companion.vision.sources import open_source
from companion.vision.tracker import CardAppeared, CardLeft, Tracker
from companion.vision.zones import TableLayout, play_zone

from .conftest import crop


def test_a_recorded_play_gives_one_event_per_card(tmp_path: Path, recogniser: Recogniser) -> None:
    table = wood(640, 480, seed=4)
    five = Placement(320, 380, 10, 90)  # near side: player 1
    jack = Placement(320, 110, 190, 90)  # far side: player 2
    empty = table
    one = compose(table, [crop("5h")], [five])
    two = compose(table, [crop("5h"), crop("Jc")], [five, jack])
    hand = two.copy()
    cv2.rectangle(hand, (250, 300), (400, 470), (90, 140, 200), -1)  # a hand over the five
    frames = (
        [empty] * 5
        + [one] * 12
        + [two] * 6
        + [hand] * 8
        + [two] * 6
        + [compose(table, [crop("Jc")], [jack])] * 40
    )
    path = tmp_path / "play.avi"
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter.fourcc(*"MJPG"), 30.0, (640, 480))
    for frame in frames:
        writer.write(frame)
    writer.release()

    tracker = Tracker(TableLayout.default(640, 480))
    events = []
    with open_source(str(path)) as source:
        for shot in source:
            events += tracker.update(recogniser.detect(shot.frame), shot.time)
    assert [(type(e), e.card, e.zone) for e in events] == [
        (CardAppeared, Card.parse("5h"), play_zone(1)),
        (CardAppeared, Card.parse("Jc"), play_zone(2)),
        (CardLeft, Card.parse("5h"), play_zone(1)),
    ]
