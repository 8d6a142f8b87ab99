"""The camera at the table: frames -> recognised cards -> the watch -> the game loop's queue.

Runs on its own thread so a slow frame never holds up the knobs or the scoreboard (or, for the demo's
film and the tests, on the caller's: :meth:`CameraFeed.run`).  The recognition and the tracking are the
vision part's (:mod:`companion.vision.recognise`, :mod:`companion.vision.tracker`); deciding what the
frames mean for the game -- checked against it, and held when no table could have done it -- is the
watch's (:mod:`companion.app.seen`), which also hears of cards come to rest that nothing was read on
(:mod:`companion.vision.arrivals`).  This module only reads the frames and posts what the watch says.

The same feed serves the Pi's camera, a USB camera, a video, a folder of frames and the demo's film
(:class:`~companion.app.frames.TableFilm`): a film's shots may also carry events the camera does not see
(a claim, an undo), posted in their place between the frames.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from companion.app.seen import Watch
from companion.events import Event
from companion.vision.arrivals import Arrivals, CardWidth
from companion.vision.plane import TablePlane, TopDown
from companion.vision.types import Frame, Sighting
from companion.vision.zones import TableLayout

if TYPE_CHECKING:
    from companion.vision.rectify import Levelling

__all__ = ["CameraFeed", "Detector", "Post"]


class Detector(Protocol):
    """Anything that names the cards in a frame (the shipped recogniser, or a stand-in in tests)."""

    def detect(self, frame: Frame) -> list[Sighting]: ...


Post = Callable[[Event, "int | None"], None]
"""Where events go: ``post(event, cursor)``; ``cursor`` is a film's event index (None live)."""


class CameraFeed:
    """Reads a frame source until it ends (or ``stop()``), posting table events.

    ``source``: a camera spec (``pi``, ``camera:0``, a video file, a folder of frames) or any iterable of
    shots (``frame``, ``time``, and optionally ``index`` and ``event``, as a film's).  ``layout`` or
    ``layout_file``: the table's zones; without either the first frame calibrates them (marker cards, or
    the usual split of an empty table for ``players`` seats); a layout with the table's plane (a camera at
    a slant, see :mod:`companion.vision.plane`) has every frame read as if from above.  ``after(shot)``
    runs after each shot's events are posted (the demo waits there for the game to take them and answers
    its questions).
    """

    def __init__(
        self,
        source: str | Iterable[Any],
        post: Post,
        *,
        layout: TableLayout | None = None,
        layout_file: Path | None = None,
        recogniser: Detector | None = None,
        say: Callable[[str], None] | None = None,
        after: Callable[[Any], None] | None = None,
        players: int = 2,
    ) -> None:
        if recogniser is None:
            from companion.vision.recognise import Recogniser

            recogniser = Recogniser(filmed=True)
        if isinstance(source, str):
            from companion.vision.sources import open_source

            self.spec = source
            self._source: Iterable[Any] = open_source(source)
        else:
            self.spec = type(source).__name__
            self._source = source
        self._post = post
        self._recogniser = recogniser
        self._levelling: Levelling | None = None
        """Reading a table no marker cards calibrated until its cards settle the camera's slant."""
        self._slant_said = False
        self._layout = layout
        self._players = players
        """Seats round the table, for the layout of an empty table (four: near, left, far, right)."""
        self._layout_file = layout_file
        self._after = after
        self.watch = Watch(say=say)
        """Follows the game: add ``watch.follow`` to the game loop's listeners."""
        self.arrivals = Arrivals()
        """Cards come to rest that the recogniser read nothing on (so the watch can ask about them)."""
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self.frames = 0
        self.error = ""

    def start(self) -> None:
        self._thread = threading.Thread(target=self._guarded, name="camera", daemon=True)
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
        close = getattr(self._source, "close", None)
        if close is not None:
            close()

    def _guarded(self) -> None:
        try:
            self.run()
        except Exception as error:  # reported by crib play as one sentence; the game so far is kept
            self.error = f"the camera stopped: {error}"

    def run(self) -> int:
        """Read every shot on the caller's thread; returns the number of frames read."""
        ready = False
        known: TableLayout | None = None
        for shot in self._source:
            if self._stop.is_set():
                break
            cursor: int | None = getattr(shot, "index", None)
            if shot.frame is None:  # a film's event the camera does not see (a claim, an undo)
                event = getattr(shot, "event", None)
                if event is not None:
                    self._post(event, cursor)
                if self._after is not None:
                    self._after(shot)
                continue
            taken = time.monotonic()
            if not ready:
                known = self._known_layout()
                if known is not None and known.plane is not None:
                    self._recogniser = TopDown(self._recogniser, known.plane)
            sightings = self._recogniser.detect(shot.frame)
            if not ready:
                sightings = self._set_zones(shot.frame, sightings, known)
                ready = True
            elif self._levelling is not None and self._levelling.plane is not None:
                if not self._slant_said:
                    self.watch.say("The camera looks at the table at a slant: reading it as if from above.")
                    self._slant_said = True
                if self._levelling.settled:  # no card's outline will move the plane again
                    self._recogniser, self._levelling = self._levelling.levelled(), None
            self.frames += 1
            # Where the camera looks at a slant, zones and card sizes are taken on the table.
            plane = getattr(self._recogniser, "plane", None)
            plane = plane if isinstance(plane, TablePlane) else None
            self.watch.tracker.plane = plane
            arrived = self.arrivals.see(shot.frame, sightings, shot.time, self._card_width(shot.frame, plane))
            for event in self.watch.see(sightings, shot.time, at=taken, arrivals=arrived):
                self._post(event, cursor)
            if self._after is not None:
                self._after(shot)
        return self.frames

    def _card_width(self, frame: Frame, plane: TablePlane | None) -> float | CardWidth:
        """A card's width in ``frame``'s pixels: where the camera looks at a slant the table's ``plane``
        knows, the width of a card lying at each point (far cards are smaller), else one for all."""
        whole = self.watch.tracker.card_px
        if plane is None or not plane.card:
            return whole
        size = (frame.shape[1], frame.shape[0])

        def at(point: tuple[float, float]) -> float:
            width = plane.card_at(point, size)
            return whole if width is None else width

        return at

    def _known_layout(self) -> TableLayout | None:
        """The layout given, or the one in the layout file, or None (the first frame calibrates)."""
        if self._layout is None and self._layout_file is not None and self._layout_file.is_file():
            return TableLayout.load(self._layout_file)
        return self._layout

    def _set_zones(
        self, frame: Frame, sightings: list[Sighting], layout: TableLayout | None
    ) -> list[Sighting]:
        """Set the tracker's zones from ``layout``, or calibrate them from the first frame; returns that
        frame's sightings (read again from above when calibrating found the camera at a slant, as every
        frame after it will be)."""
        from companion.vision.zones import calibrate

        if layout is None:
            layout = calibrate(frame, sightings, self._players)
            if layout.plane is not None:
                view = TopDown(self._recogniser, layout.plane)
                view.forget()  # what was read of the frame as it came is no view from above
                self._recogniser = view
                sightings = view.detect(frame)
            elif layout == TableLayout.default(frame.shape[1], frame.shape[0], self._players):
                # No marker cards: whether the camera looks at a slant, the cards laid will say.
                from companion.vision.rectify import Levelling

                self._levelling = Levelling(self._recogniser)
                self._recogniser = self._levelling
        tracker = self.watch.tracker
        tracker.layout = layout
        tracker.frame_size = (frame.shape[1], frame.shape[0])
        return sightings
