"""From per-frame sightings to stable table events: a card appeared in a zone, a card left, a card moved.

API for the game loop (``companion.app``)::

    from companion.vision.tracker import CardAppeared, CardLeft, CardMoved, Tracker

    tracker = Tracker(layout)                  # a TableLayout from companion.vision.zones (or None)
    for shot in source:                        # companion.vision.sources
        for event in tracker.update(recogniser.detect(shot.frame), shot.time):
            ...                                # CardAppeared / CardLeft / CardMoved, each exactly once

Why debouncing is needed and how it is done: single frames lie. A hand reaching across the table hides
cards for a few frames; a blurred frame loses a card for one frame; a card being laid is seen sliding
before it comes to rest. So:

* a card **appears** only once it has been seen for ``appear_after`` seconds, in most of the frames of
  that time, and has come to rest (its last few positions lie within a few index heights);
* a card **leaves** only when it has not been seen for ``leave_after`` seconds -- longer than a hand
  takes to pass over it, so covering a card is not taking it away;
* a card that is seen again at rest in another zone **moves** (one event); nudged within its zone, it
  makes no event at all;
* each card is tracked by its name, so it is reported once however many frames show it. Sightings of
  "back" and "unknown" make no events (the game loop asks the players when a card stays unknown).

Times are the shots' times in seconds, so replaying a recording gives the same events as live play.
Event values are frozen.
"""

from __future__ import annotations

import math
from collections import deque
from collections.abc import Iterable
from dataclasses import dataclass, field

from companion.cards import Card
from companion.vision.types import Sighting
from companion.vision.zones import TableLayout

__all__ = ["CardAppeared", "CardLeft", "CardMoved", "TableEvent", "Tracker"]


@dataclass(frozen=True, slots=True)
class CardAppeared:
    """A card came to rest face up on the table."""

    card: Card
    zone: str | None
    time: float
    position: tuple[float, float]


@dataclass(frozen=True, slots=True)
class CardLeft:
    """A card that was on the table has been gone for a while (picked up, or turned face down)."""

    card: Card
    zone: str | None
    time: float


@dataclass(frozen=True, slots=True)
class CardMoved:
    """A card on the table came to rest in another zone."""

    card: Card
    from_zone: str | None
    to_zone: str | None
    time: float
    position: tuple[float, float]


TableEvent = CardAppeared | CardLeft | CardMoved


@dataclass
class _Track:
    card: Card
    seen: deque[tuple[float, tuple[float, float]]] = field(default_factory=lambda: deque(maxlen=64))
    present: bool = False
    zone: str | None = None
    position: tuple[float, float] = (0.0, 0.0)
    streak_start: float = 0.0

    @property
    def last_seen(self) -> float:
        return self.seen[-1][0]


class Tracker:
    """Turns sightings frame by frame into :data:`TableEvent` values (see the module notes)."""

    def __init__(
        self,
        layout: TableLayout | None = None,
        *,
        appear_after: float = 0.12,
        leave_after: float = 1.0,
        min_confidence: float = 0.8,
        still: float = 0.02,
        frame_size: tuple[int, int] | None = None,
    ) -> None:
        """``still`` is how far (as a share of the frame's diagonal, or of 1000 px without a frame
        size) a card may shift between frames and still be at rest."""
        self.layout = layout
        self.appear_after = appear_after
        self.leave_after = leave_after
        self.min_confidence = min_confidence
        self.still = still
        self.frame_size = frame_size or (layout.size if layout is not None else None)
        self._tracks: dict[Card, _Track] = {}
        self._frames: deque[float] = deque(maxlen=256)

    @property
    def on_table(self) -> dict[Card, str | None]:
        """The cards now on the table (as events have reported them) and their zones."""
        return {card: t.zone for card, t in self._tracks.items() if t.present}

    def _zone(self, point: tuple[float, float]) -> str | None:
        if self.layout is None:
            return None
        return self.layout.zone_at(point, self.frame_size)

    def _still_px(self) -> float:
        if self.frame_size is None:
            return self.still * 1000.0
        return self.still * math.hypot(*self.frame_size)

    def _at_rest(self, track: _Track, since: float) -> tuple[float, float] | None:
        """The resting position if the card's recent positions agree, else None."""
        recent = [p for t, p in track.seen if t >= since]
        if not recent:
            return None
        xs = sorted(p[0] for p in recent)
        ys = sorted(p[1] for p in recent)
        mid = (xs[len(xs) // 2], ys[len(ys) // 2])
        tail = recent[-3:]
        limit = self._still_px()
        if all(abs(p[0] - mid[0]) <= limit and abs(p[1] - mid[1]) <= limit for p in tail):
            return mid
        return None

    def update(self, sightings: Iterable[Sighting], time: float) -> list[TableEvent]:
        """Take one frame's sightings at ``time`` (seconds); return the events it completes."""
        self._frames.append(time)
        seen_now: dict[Card, Sighting] = {}
        for s in sightings:
            card = s.card
            if card is None or s.confidence < self.min_confidence:
                continue
            best = seen_now.get(card)
            if best is None or s.confidence > best.confidence:
                seen_now[card] = s
        events: list[TableEvent] = []
        for card, s in seen_now.items():
            track = self._tracks.get(card)
            if track is None:
                track = self._tracks[card] = _Track(card, streak_start=time)
            elif time - track.last_seen > self.leave_after / 2 and not track.present:
                track.streak_start = time  # a fresh attempt, not a continuation of an old glimpse
            track.seen.append((time, s.center))
        for card, track in list(self._tracks.items()):
            gone_for = time - track.last_seen
            if track.present:
                if gone_for >= self.leave_after:
                    events.append(CardLeft(card, track.zone, time))
                    del self._tracks[card]
                    continue
                if card in seen_now and time - track.streak_start >= self.appear_after:
                    self._maybe_moved(track, time, events)
                continue
            if gone_for >= max(self.appear_after * 2, 0.25):
                del self._tracks[card]  # a glimpse that never settled
                continue
            window_start = time - self.appear_after
            if time - track.streak_start < self.appear_after or card not in seen_now:
                continue
            frames = sum(1 for t in self._frames if t >= window_start)
            hits = sum(1 for t, _ in track.seen if t >= window_start)
            if frames == 0 or hits / frames < 0.6:
                continue
            rest = self._at_rest(track, window_start)
            if rest is None:
                continue
            track.present = True
            track.position = rest
            track.zone = self._zone(rest)
            events.append(CardAppeared(card, track.zone, time, rest))
        return events

    def _maybe_moved(self, track: _Track, time: float, events: list[TableEvent]) -> None:
        rest = self._at_rest(track, time - self.appear_after)
        if rest is None:
            return
        zone = self._zone(rest)
        if zone != track.zone:
            events.append(CardMoved(track.card, track.zone, zone, time, rest))
            track.zone = zone
        track.position = rest
