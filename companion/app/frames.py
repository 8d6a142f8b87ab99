"""A recorded game as the table camera would film it: frames drawn from the shipped card pictures.

For the demo and the end-to-end tests the companion must work from *frames*, through the real card
recognition and the same camera feed the Pi runs (:class:`~companion.app.camera.CameraFeed`: the
tracker, then the watch that checks what it saw against the game), not from ready-made events.
A :class:`TableFilm` turns a :class:`~companion.app.simulate.Recording` into what a camera above the
table would see, 1280x720 at 30 frames a second, on a light wooden table:

* the cuts for the deal in front of each player, then gathered up;
* the pack face down on the left, the starter turned on it;
* each card laid in front of the player who laid it, in a row, the far player's cards upside down as
  they face the other way -- a hand passing over the card as it is laid (four players: rows near and
  far, columns down the left and right edges, each card turned to its player);
* the crib turned up on the right; everything gathered before the next deal.

Each camera event becomes a few frames (a hand over the card, then the card at rest for longer than the
tracker's debounce); other events (claims, muggins, undo) are handed on between frames, in order.  The
film is drawn as it plays, one card composited at a time, so it needs no video file in the package.
"""

from __future__ import annotations

import math
import threading
from collections.abc import Callable, Collection, Iterator, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import cv2
import numpy as np

from companion.app.deck import Deck, load_deck
from companion.app.simulate import Recording
from companion.cards import Card
from companion.events import CardLanded, CardLifted, Correct, Event, Undo
from companion.rules.variants import variant_named
from companion.vision.scene import Placement, compose, wood
from companion.vision.types import Frame, Sighting
from companion.vision.zones import TableLayout

if TYPE_CHECKING:
    from companion.app.loop import GameLoop

__all__ = ["FilmFrame", "TableFilm", "play_film", "truth_sightings"]

WIDTH, HEIGHT, FPS = 1280, 720, 30.0
CARD_PX = 96
_ROW_STEP = 74
_HAND_FRAMES = 2
_REST_FRAMES = 6
_PATIENCE_FRAMES = int(3 * FPS)
"""How long the players look at the board, at most, for the card just laid before they press a button
(an undo, a claim): three seconds, past the second after which an unread card is asked about."""


@dataclass(frozen=True, slots=True)
class FilmFrame:
    """One frame of the film, or (``frame`` None) an event that is not seen but done (a claim, an undo).

    ``index`` is the recording's event the frame belongs to; ``truth`` lists what lies face up.
    """

    index: int
    time: float
    frame: Frame | None
    event: Event | None = None
    truth: tuple[tuple[str, tuple[tuple[float, float], ...]], ...] = ()


@dataclass
class _Laid:
    card: str
    zone: str
    placement: Placement


@dataclass
class _Table:
    laid: list[_Laid] = field(default_factory=list)

    def slots(self, zone: str) -> int:
        return sum(1 for c in self.laid if c.zone == zone)


class TableFilm:
    """Frames of a recorded game (see the module notes); iterate it once."""

    def __init__(
        self, recording: Recording, *, start: int = 0, deck: Deck | None = None, seed: int = 0
    ) -> None:
        self.recording = recording
        self.start = start
        self.deck = deck or load_deck()
        self.seats = variant_named(recording.variant).players
        """Four players sit round the table (near, left, far, right); two face each other."""
        self.layout = TableLayout.default(WIDTH, HEIGHT, 4 if self.seats == 4 else 2)
        self.background = wood(WIDTH, HEIGHT, seed=seed, light=True)
        pack = Placement(0.30 * WIDTH, 0.5 * HEIGHT, 3.0, CARD_PX)
        self._pack = compose(self.background, [self.deck.back], [pack])
        self._rng = np.random.default_rng(seed)
        self._table = _Table()
        self._history: list[_Laid] = []  # every card laid so far, gathered up or not
        self.time = 0.0
        self.taken: Callable[[str], bool] | None = None
        """Whether the game has taken the card (by its text), when the film is played into a game
        (:func:`play_film`): before a button pressed after a card is laid, the film shows the table
        still until it has (or the players' patience, ``_PATIENCE_FRAMES``, runs out), as players
        wait for the board to show their card before they claim for it or take it back."""

    # -- where cards go ---------------------------------------------------------------------------
    def _placement(self, zone: str, slot: int, card: str) -> Placement:
        jitter = float(self._rng.uniform(-5, 5))
        if self.seats == 4:
            return self._seat_placement(zone, slot, jitter)
        if zone in ("player0", "player1"):
            y = 0.80 * HEIGHT if zone == "player0" else 0.20 * HEIGHT
            x = WIDTH / 2 + (slot - 1.5) * _ROW_STEP
            angle = jitter if zone == "player0" else 180.0 + jitter
            return Placement(x, y, angle, CARD_PX)
        if zone == "starter":
            return Placement(0.32 * WIDTH, 0.5 * HEIGHT - 6, jitter, CARD_PX)
        return Placement(0.68 * WIDTH + (slot - 1.5) * _ROW_STEP, 0.5 * HEIGHT, jitter, CARD_PX)

    def _seat_placement(self, zone: str, slot: int, jitter: float) -> Placement:
        """Four seats: rows along the near and far edges, columns down the left and right edges, each
        card turned to its player; the starter and the crib (a block of two by two) in the middle."""
        along = (slot - 1.5) * _ROW_STEP
        if zone == "player0":
            return Placement(WIDTH / 2 + along, 0.80 * HEIGHT, jitter, CARD_PX)
        if zone == "player1":
            return Placement(0.12 * WIDTH, HEIGHT / 2 + along, 270.0 + jitter, CARD_PX)
        if zone == "player2":
            return Placement(WIDTH / 2 - along, 0.20 * HEIGHT, 180.0 + jitter, CARD_PX)
        if zone == "player3":
            return Placement(0.88 * WIDTH, HEIGHT / 2 - along, 90.0 + jitter, CARD_PX)
        if zone == "starter":
            return Placement(0.36 * WIDTH, 0.5 * HEIGHT - 6, jitter, CARD_PX)
        # The crib turned up two by two, clear of the seats' rows and columns and of each other.
        across, down = (slot % 2 - 0.5) * 104, (slot // 2 % 2 - 0.5) * 142
        return Placement(0.62 * WIDTH + across, 0.5 * HEIGHT + down, jitter, CARD_PX)

    def _draw(self, table: _Table) -> Frame:
        return compose(
            self._pack,
            [self.deck.face(c.card) for c in table.laid],
            [c.placement for c in table.laid],
        )

    def _corners(self, laid: _Laid) -> tuple[tuple[float, float], ...]:
        p = laid.placement
        face = self.deck.face(laid.card)
        h = p.width * face.shape[0] / face.shape[1]
        out = []
        for dx, dy in ((-1, -1), (1, -1), (1, 1), (-1, 1)):
            x, y = dx * p.width / 2, dy * h / 2
            a = math.radians(-p.angle)
            out.append((p.x + x * math.cos(a) - y * math.sin(a), p.y + x * math.sin(a) + y * math.cos(a)))
        return tuple(out)

    def _frame(self, index: int, image: Frame, table: _Table) -> FilmFrame:
        self.time += 1.0 / FPS
        truth = tuple((c.card, self._corners(c)) for c in table.laid)
        return FilmFrame(index, self.time, image, None, truth)

    # -- the film ---------------------------------------------------------------------------------
    def answer(self, zone: str, choices: Sequence[str] = (), known: Collection[str] = ()) -> str | None:
        """What a player at the table would answer when asked which card lies in ``zone``: the card laid
        there that the game does not know of yet, the earliest such (the film knows; the table only
        asks), else the card laid there last -- of those among ``choices`` when given, since a question
        about a crib already gathered up names a card that has left the table.  ``known``: the cards
        the game already holds this deal (a player looks at the board and names the one missing)."""
        cards = [c.card for c in self._table.laid if c.zone == zone and (not choices or c.card in choices)]
        missing = [c for c in cards if c not in known]
        if missing:
            return missing[0]
        if choices and not cards:
            cards = [c.card for c in self._history if c.zone == zone and c.card in choices]
        return cards[-1] if cards else None

    def __iter__(self) -> Iterator[FilmFrame]:
        table = self._table = _Table()
        events = self.recording.events
        # Lay out the table as it stood at ``start`` (a resumed replay), without filming it.
        for event in events[: self.start]:
            self._apply(table, event)
        image = self._draw(table)
        for _ in range(_REST_FRAMES):
            yield self._frame(self.start, image, table)
        for index in range(self.start, len(events)):
            event = events[index]
            if isinstance(event, CardLanded):
                laid = self._apply(table, event)
                assert laid is not None
                image = compose(image, [self.deck.face(laid.card)], [laid.placement])
                for _ in range(_HAND_FRAMES):
                    yield self._frame(index, _hand_over(image, laid.placement), table)
                for _ in range(_REST_FRAMES):
                    yield self._frame(index, image, table)
            elif isinstance(event, CardLifted):
                self._apply(table, event)
                following = events[index + 1] if index + 1 < len(events) else None
                if not isinstance(following, CardLifted):
                    image = self._draw(table)
                    for _ in range(3):  # the table cleared for over a second: the tracker lets them go
                        self.time += 0.5
                        yield FilmFrame(index, self.time, image, None, ())
            else:
                previous = events[index - 1] if index > self.start else None
                if isinstance(previous, CardLanded) and self.taken is not None:
                    for _ in range(_PATIENCE_FRAMES):
                        if self.taken(str(previous.card)):
                            break
                        yield self._frame(index - 1, image, table)
                if isinstance(event, Undo):
                    self._apply(table, event)
                    image = self._draw(table)
                yield FilmFrame(index, self.time, None, event)

    def _apply(self, table: _Table, event: Event) -> _Laid | None:
        if isinstance(event, CardLanded):
            slot = table.slots(event.zone)
            card = str(event.card)  # the deck's faces are named by the card's text
            laid = _Laid(card, event.zone, self._placement(event.zone, slot, card))
            table.laid.append(laid)
            self._history.append(laid)
            return laid
        if isinstance(event, CardLifted):
            table.laid = [c for c in table.laid if c.card != str(event.card)]
        elif isinstance(event, Undo) and table.laid:
            table.laid.pop()  # the card taken back up (the demo's misread)
        return None


def _hand_over(image: Frame, near: Placement) -> Frame:
    """A hand reaching in over the card being laid (a skin-coloured blob with an arm)."""
    out = image.copy()
    centre = (int(near.x + 30), int(near.y + 20))
    cv2.ellipse(out, centre, (70, 50), 20, 0, 360, (120, 150, 205), -1, cv2.LINE_AA)
    edge = (int(near.x + 60), HEIGHT if near.y > HEIGHT / 2 else 0)
    cv2.line(out, centre, edge, (110, 140, 195), 70, cv2.LINE_AA)
    return out


def truth_sightings(shot: FilmFrame) -> list[Sighting]:
    """What a perfect recogniser would report for a film frame (for checking everything after it)."""
    return [Sighting(Card.parse(card), 1.0, corners) for card, corners in shot.truth]


def play_film(
    film: TableFilm,
    loop: GameLoop,
    detect: Callable[[FilmFrame], Sequence[Sighting]],
    *,
    stop: threading.Event | None = None,
    answers: list[str] | None = None,
    say: Callable[[str], None] | None = None,
    progress: Callable[[int], None] | None = None,
) -> int:
    """Run the film through ``detect`` and the camera feed (:class:`~companion.app.camera.CameraFeed`,
    the code the Pi runs) into the loop, in order; returns the frames read.

    Events the camera does not see (claims, muggins, undo) are posted between the frames where they
    happened, and each is handled before the film goes on, so the replay is the same every time.

    With ``answers`` (a list to fill), a question the table asks -- a card it could not read, a starter
    it did not see -- is answered as a player would on the scoreboard, with the card the film laid
    there, and each answer is noted in the list.  ``say`` hears what the camera sees and does;
    ``progress`` is told the number of frames read after each one.
    """
    from companion.app.camera import CameraFeed
    from companion.app.seen import GameView

    current: list[FilmFrame] = []

    class _Detect:
        def detect(self, frame: Frame) -> list[Sighting]:
            return list(detect(current[-1]))

        @property
        def plane(self) -> object:
            """The table's plane ``detect`` reads by, where it has one (a camera levelling itself)."""
            return getattr(detect, "plane", None)

    def taken(card: str) -> bool:
        loop.wait_idle(30)
        return card in {str(c) for c in GameView.of(loop.table).in_game}

    film.taken = taken

    def shots() -> Iterator[FilmFrame]:
        for shot in film:
            if stop is not None and stop.is_set():
                return
            current[:] = [shot]
            yield shot

    def post(event: Event, cursor: int | None) -> None:
        loop.post_at(event, cursor if cursor is not None else 0)

    def after(shot: FilmFrame) -> None:
        loop.wait_idle(30)
        if shot.frame is not None and progress is not None:
            progress(feed.frames)
        correction = loop.table.correction
        if answers is None or correction is None:
            return
        known = {str(c) for c in GameView.of(loop.table).in_game}
        card = film.answer(correction.zone, correction.choices, known)
        if card is not None and card != correction.seen:
            answers.append(f"{correction.message} -- {card}")
            loop.post_at(Correct(card, correction.zone, correction.seen), shot.index)
        else:  # the card was read right but does not fit: a player would press undo to pass over it
            answers.append(f"{correction.message} -- undo")
            loop.post_at(Undo(), shot.index)
        loop.wait_idle(30)

    feed = CameraFeed(shots(), post, layout=film.layout, recogniser=_Detect(), say=say, after=after)
    loop.listeners.append(feed.watch.follow)
    feed.watch.follow(loop.table, None)
    try:
        return feed.run()
    finally:
        loop.listeners.remove(feed.watch.follow)
