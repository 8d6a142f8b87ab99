"""The camera feed: frames from a source, through a recogniser and the tracker, posted as table events."""

from __future__ import annotations

import itertools
from pathlib import Path

import cv2

from companion.app.camera import CameraFeed
from companion.app.frames import TableFilm, truth_sightings
from companion.app.simulate import demo_recording
from companion.events import CardLanded, Event
from companion.vision.types import Frame, Sighting


class _Truth:
    """Stands in for the recogniser: says what the film put in each frame, in the order read."""

    def __init__(self, truths: list[list[Sighting]]) -> None:
        self.truths = iter(truths)

    def detect(self, frame: Frame) -> list[Sighting]:
        return next(self.truths)


def test_a_folder_of_frames_becomes_card_landed_events(tmp_path: Path) -> None:
    recording = demo_recording()
    shots = [s for s in itertools.islice(TableFilm(recording), 40) if s.frame is not None]
    for number, shot in enumerate(shots):
        assert shot.frame is not None
        cv2.imwrite(str(tmp_path / f"{number:04d}.png"), shot.frame)
    posted: list[Event] = []
    truths = _Truth([truth_sightings(s) for s in shots])
    feed = CameraFeed(str(tmp_path), lambda event, _: posted.append(event), recogniser=truths)
    feed.start()
    feed.join(30)
    feed.stop()
    assert feed.frames == len(shots) and not feed.error
    landed = [(str(e.card), e.zone) for e in posted if isinstance(e, CardLanded)]
    first = [e for e in recording.events if isinstance(e, CardLanded)][:2]
    assert landed[:2] == [(str(e.card), e.zone) for e in first]  # the two cuts for the deal, in place
    assert all(isinstance(e, CardLanded) and e.at > 0 for e in posted if isinstance(e, CardLanded))
