"""The demo film: a recorded game drawn as camera frames, followed through the vision's tracker.

The recogniser here reads the film's own ground truth (the real one is the vision part's, tested
there), so these tests check everything after recognition: zones, debouncing over hands passing, the
table following the deal, and a film resumed mid-game.
"""

from __future__ import annotations

import itertools

from companion.app.frames import HEIGHT, WIDTH, TableFilm, play_film, truth_sightings
from companion.app.loop import GameLoop
from companion.app.simulate import demo_recording

from .helpers import table


def test_the_demo_film_followed_through_the_tracker_ends_with_the_recorded_scores() -> None:
    recording = demo_recording()
    played = table()
    loop = GameLoop(played)
    loop.start()
    try:
        frames = play_film(TableFilm(recording), loop, truth_sightings)
        assert loop.wait_idle()
    finally:
        loop.stop()
    assert frames > 500
    assert tuple(played.game.scores) == recording.final
    assert played.correction is None and not loop.errors


def test_frames_are_camera_sized_and_a_hand_passes_over_each_card_laid() -> None:
    film = iter(TableFilm(demo_recording()))
    shots = [next(film) for _ in range(40)]
    frames = [s.frame for s in shots if s.frame is not None]
    assert all(f.shape == (HEIGHT, WIDTH, 3) for f in frames)
    # While the hand is over it the card is in the truth but the picture differs from the card at rest.
    differing = sum(1 for a, b in itertools.pairwise(frames) if (a != b).any())
    assert differing >= 4
