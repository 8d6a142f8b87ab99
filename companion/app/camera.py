"""The camera at the table: frames -> recognised cards -> debounced table events -> the game loop's queue.

Runs on its own thread so a slow frame never holds up the knobs or the scoreboard.  The recognition and
the tracking are the vision part's (:mod:`companion.vision.recognise`, :mod:`companion.vision.tracker`);
this module only names the vision's zones in the table's words and posts the events:

* a card coming to rest face up (or moving to another zone) -> :class:`CardLanded` in that zone;
* a card gone for a while -> :class:`CardLifted`.

Zones: the vision calls them ``play:1``, ``play:2`` (players counted from 1), ``deck`` and ``crib``; the
table calls them ``player0``, ``player1``, ``starter`` (the starter is turned on the pack) and ``crib``.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from companion.events import CardLanded, CardLifted, Event

__all__ = ["CameraFeed", "table_zone"]


def table_zone(zone: str | None) -> str:
    """The table's name for a vision zone (``play:1`` -> ``player0``, ``deck`` -> ``starter``)."""
    if zone is None:
        return "unknown"
    if zone.startswith("play:"):
        return f"player{int(zone.split(':', 1)[1]) - 1}"
    return {"deck": "starter", "crib": "crib"}.get(zone, zone)


class CameraFeed:
    """Reads a frame source until it ends (or ``stop()``), posting table events.

    ``layout_file``: a saved :class:`~companion.vision.zones.TableLayout`; without one the first frame
    calibrates the zones (marker cards, or the usual two-player split of an empty table).
    """

    def __init__(
        self,
        spec: str,
        post: Callable[[Event], None],
        *,
        layout_file: Path | None = None,
        recogniser: Any = None,
    ) -> None:
        """``recogniser``: anything with ``detect(frame) -> list[Sighting]`` (default: the shipped one)."""
        from companion.vision.sources import open_source

        if recogniser is None:
            from companion.vision.recognise import Recogniser

            recogniser = Recogniser(filmed=True)
        self.spec = spec
        self._post = post
        self._source = open_source(spec)
        self._recogniser = recogniser
        self._layout_file = layout_file
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self.frames = 0
        self.error = ""

    def start(self) -> None:
        self._thread = threading.Thread(target=self._run, name="camera", daemon=True)
        self._thread.start()

    def join(self, timeout: float | None = None) -> None:
        if self._thread is not None:
            self._thread.join(timeout)

    @property
    def running(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    def stop(self) -> None:
        self._stop.set()
        self.join(5)
        self._source.close()

    def _run(self) -> None:
        from companion.vision.tracker import CardAppeared, CardLeft, CardMoved, Tracker
        from companion.vision.zones import TableLayout, calibrate

        tracker: Tracker | None = None
        try:
            for shot in self._source:
                if self._stop.is_set():
                    return
                taken = time.monotonic()
                sightings = self._recogniser.detect(shot.frame)
                if tracker is None:
                    if self._layout_file is not None and self._layout_file.is_file():
                        layout: Any = TableLayout.load(self._layout_file)
                    else:
                        layout = calibrate(shot.frame, sightings)
                    tracker = Tracker(layout)
                self.frames += 1
                for event in tracker.update(sightings, shot.time):
                    if isinstance(event, CardAppeared):
                        self._post(CardLanded(str(event.card), table_zone(event.zone), at=taken))
                    elif isinstance(event, CardMoved):
                        self._post(CardLanded(str(event.card), table_zone(event.to_zone), at=taken))
                    elif isinstance(event, CardLeft):
                        self._post(CardLifted(str(event.card), table_zone(event.zone)))
        except Exception as error:  # reported by crib play as one sentence; the game so far is kept
            self.error = f"the camera stopped: {error}"
