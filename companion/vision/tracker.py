"""From per-frame sightings to stable table events: a card came to rest in a zone, left, moved, or lies
there unread.

API for the game loop (``companion.app``)::

    from companion.vision.tracker import CardAppeared, CardLeft, CardMoved, CardUnread, Tracker

    tracker = Tracker(layout)                  # a TableLayout from companion.vision.zones (or None)
    for shot in source:                        # companion.vision.sources
        tracker.excluded = {...}               # cards that cannot be on the table now, and why
        for event in tracker.update(recogniser.detect(shot.frame), shot.time):
            ...                                # each event exactly once

Why it works over frames: single frames lie.  A hand reaching across hides cards for a few frames; a
blurred frame loses a card, or names it wrongly; a card being laid is seen sliding before it rests.  So
the tracker follows *things lying on the table*, not names:

* each thing seen (a named card or one the recogniser could not read) is a track; a sighting joins the
  track of the same card wherever it is (a card is in the pack once), else the undecided track lying at
  the same spot, else it starts a new one;
* every frame a track is seen in is a vote for what it is, weighted by the recogniser's confidence (a
  frame that could not read it is a vote for "unread"); a track is **decided** only once it lies still
  (its last few positions within a few index heights) and one card holds most of the evidence of all
  its frames, so one misread frame among good ones changes nothing;
* a card named surely and alike in every frame it was seen in (at least ``min_frames``), the last two
  at one spot, is decided at once; any other reading waits ``appear_after`` of seeing it, so that the
  frames have their say;
* a card **appears** once decided; it **leaves** only when it has not been seen for ``leave_after``
  seconds (longer than a hand takes to pass over); seen at rest in another zone it **moves**; nudged
  within its zone, nothing happens;
* cards the game says cannot be there (``excluded``: played or shown this deal, the starter) do not win a
  close vote: "read 6h or 8h; 8h is already played" decides 6h, and the event says so;
* a thing that lies still for ``ask_after`` seconds and is still not decided (never read, or its name
  keeps changing) is reported once as :class:`CardUnread`, with what the frames said, most likely first,
  so the players can be asked.

Backs make no events.  Times are the shots' times in seconds, so replaying a recording gives the same
events as live play.  Event values are frozen.
"""

from __future__ import annotations

import itertools
import math
from collections import deque
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Final

from companion.cards import Card
from companion.vision.plane import TablePlane
from companion.vision.types import UNKNOWN, Sighting, Zone
from companion.vision.zones import TableLayout

__all__ = [
    "CardAppeared",
    "CardLeft",
    "CardMoved",
    "CardUnread",
    "Reading",
    "TableEvent",
    "Tracker",
]

#: The weight of a frame that saw the thing but could not name it, against a named frame's confidence.
UNREAD_WEIGHT: Final = 0.5


@dataclass(frozen=True, slots=True)
class Reading:
    """What the frames a card lay in said it is: each name with its evidence, most likely first."""

    votes: tuple[tuple[Card, float, int], ...]
    """(card, summed confidence, frames) for every name the card was read as."""
    unread: int = 0
    """Frames that saw the card but could not name it."""
    ruled_out: tuple[tuple[Card, str], ...] = ()
    """Names read that the game says cannot be there, and why (set when that settled the reading)."""

    @property
    def candidates(self) -> tuple[Card, ...]:
        """The names read, most likely first."""
        return tuple(card for card, _, _ in self.votes)

    @property
    def frames(self) -> int:
        return sum(n for _, _, n in self.votes) + self.unread

    def __str__(self) -> str:
        names = [str(c) for c in self.candidates]
        said = " or ".join(names) if names else "nothing readable"
        return f"read {said} in {self.frames} frames" if names else said


@dataclass(frozen=True, slots=True)
class CardAppeared:
    """A card came to rest face up on the table and its frames agree what it is."""

    card: Card
    zone: Zone | None
    time: float
    position: tuple[float, float]
    reading: Reading = Reading(())
    since: float = 0.0
    """When it was first seen (seconds, the shots' clock): cards seen together were laid together."""
    also_near: tuple[Zone, ...] = ()
    """Other zones it lies nearly as near (see :meth:`~companion.vision.zones.TableLayout.zones_at`)."""


@dataclass(frozen=True, slots=True)
class CardLeft:
    """A card that was on the table has been gone for a while (picked up, or turned face down)."""

    card: Card
    zone: Zone | None
    time: float


@dataclass(frozen=True, slots=True)
class CardMoved:
    """A card on the table came to rest in another zone."""

    card: Card
    from_zone: Zone | None
    to_zone: Zone | None
    time: float
    position: tuple[float, float]


@dataclass(frozen=True, slots=True)
class CardUnread:
    """Something lies still face up and its frames do not say what it is (see ``reading``)."""

    zone: Zone | None
    time: float
    position: tuple[float, float]
    reading: Reading
    since: float = 0.0


TableEvent = CardAppeared | CardLeft | CardMoved | CardUnread

_ids = itertools.count(1)


@dataclass
class _Track:
    first: float
    id: int = field(default_factory=lambda: next(_ids))
    named: deque[tuple[float, tuple[float, float]]] = field(default_factory=lambda: deque(maxlen=64))
    unnamed: deque[tuple[float, tuple[float, float]]] = field(default_factory=lambda: deque(maxlen=64))
    corners: deque[tuple[float, float]] = field(default_factory=lambda: deque(maxlen=16))
    """Where its other corner was seen, in frames where one corner already stood for it."""
    votes: dict[Card, list[float]] = field(default_factory=dict)
    weak: dict[Card, list[float]] = field(default_factory=dict)
    """Names read too unsurely to count as votes: hints of what to ask, never a decision."""
    unread: int = 0
    card: Card | None = None
    """Set once decided."""
    asked: bool = False
    misread: Card | None = None
    """The name the camera decided before the players named it otherwise: still this card if read so."""
    zone: Zone | None = None
    position: tuple[float, float] = (0.0, 0.0)
    last_seen: float = 0.0
    streak_start: float = 0.0

    @property
    def lead(self) -> Card | None:
        if self.card is not None:
            return self.card
        if not self.votes:
            return None
        return max(self.votes.items(), key=lambda kv: kv[1][0])[0]

    @property
    def where(self) -> tuple[float, float]:
        track = self.named or self.unnamed
        return track[-1][1] if track else self.position

    def reading(self, ruled_out: tuple[tuple[Card, str], ...] = ()) -> Reading:
        votes = sorted(((c, round(w, 3), int(n)) for c, (w, n) in self.votes.items()), key=lambda v: -v[1])
        hints = sorted(
            ((c, 0.0, int(n)) for c, (_, n) in self.weak.items() if c not in self.votes), key=lambda v: -v[2]
        )
        return Reading((*votes, *hints), self.unread, ruled_out)


class Tracker:
    """Turns sightings frame by frame into :data:`TableEvent` values (see the module notes)."""

    def __init__(
        self,
        layout: TableLayout | None = None,
        *,
        appear_after: float = 0.12,
        leave_after: float = 1.0,
        ask_after: float = 1.0,
        min_confidence: float = 0.7,
        share: float = 0.7,
        min_frames: int = 3,
        still: float = 0.02,
        card: float = 0.07,
        frame_size: tuple[int, int] | None = None,
    ) -> None:
        """``still`` is how far (as a share of the frame's diagonal, or of 1000 px without a frame size)
        a card may shift between frames and still be at rest; ``card`` is a card's width, the same way.
        A card is decided when its leading name holds ``share`` of the evidence over at least
        ``min_frames`` frames; readings under ``min_confidence`` count as unread."""
        self.layout = layout
        self.appear_after = appear_after
        self.leave_after = leave_after
        self.ask_after = ask_after
        self.min_confidence = min_confidence
        self.share = share
        self.min_frames = min_frames
        self.still = still
        self.card = card
        self.frame_size = frame_size or (layout.size if layout is not None else None)
        self.plane: TablePlane | None = None
        """The table's plane where a camera at a slant found it by the cards it read (a calibrated
        layout keeps its own): zones are then measured on the table (see ``TableLayout.zone_at``)."""
        self.excluded: Mapping[Card, str] = {}
        """Cards the game says cannot newly lie on the table, each with the reason in a few words."""
        self._tracks: list[_Track] = []
        self._frames: deque[float] = deque(maxlen=256)
        self._named_gone: deque[tuple[Card, tuple[float, float]]] = deque(maxlen=8)
        """Cards the players named that have since left, and where they lay: if something unread comes
        to rest there again, they are what it most likely is (a hand hid the card for a while)."""

    @property
    def on_table(self) -> dict[Card, Zone | None]:
        """The cards now on the table (as events have reported them) and their zones."""
        return {t.card: t.zone for t in self._tracks if t.card is not None}

    @property
    def card_px(self) -> float:
        """A card's width in the frame's pixels."""
        return self.card * self._scale()

    def lying(self, min_frames: int = 2) -> list[tuple[float, Zone | None, Card | None, tuple[float, float]]]:
        """Everything lying on the table now (seen in the last quarter second, in at least ``min_frames``
        frames): when it was first seen, its zone, its card if decided, and where it lies."""
        latest = self._frames[-1] if self._frames else 0.0
        return [
            (t.first, self._zone(t.where), t.card, t.where)
            for t in self._tracks
            if latest - t.last_seen <= 0.25 and len(t.named) + len(t.unnamed) >= min_frames
        ]

    def zone_of(self, point: tuple[float, float]) -> Zone | None:
        """The zone a point of the frame lies in (None with no layout)."""
        return self._zone(point)

    def _zone(self, point: tuple[float, float]) -> Zone | None:
        zones = self._zones(point)
        return zones[0] if zones else None

    def _zones(self, point: tuple[float, float]) -> tuple[Zone, ...]:
        """The zone a point lies in, then those it lies nearly as near (none with no layout)."""
        if self.layout is None:
            return ()
        return self.layout.zones_at(point, self.frame_size, self.plane)

    def _scale(self) -> float:
        return 1000.0 if self.frame_size is None else math.hypot(*self.frame_size)

    def _at_rest(self, track: _Track, since: float) -> tuple[float, float] | None:
        """The resting position if the thing's recent positions agree, else None."""
        seen = track.named if any(t >= since for t, _ in track.named) else track.unnamed
        recent = [p for t, p in seen if t >= since]
        if not recent:
            return None
        xs = sorted(p[0] for p in recent)
        ys = sorted(p[1] for p in recent)
        mid = (xs[len(xs) // 2], ys[len(ys) // 2])
        limit = self.still * self._scale()
        if all(abs(p[0] - mid[0]) <= limit and abs(p[1] - mid[1]) <= limit for p in recent[-3:]):
            return mid
        # Read at two spots by turns (its index in one frame, a mark beside it in the next), it lies
        # still all the same: each of its last positions is one it was already seen at.  A card
        # sliding into place is never seen at the same spot twice.
        again = limit / 4
        before = [p for _, p in seen][:-3]
        if all(any(math.dist(p, q) <= again for q in before) for p in recent[-3:]):
            return mid
        return None

    # -- which track a sighting belongs to ----------------------------------------------------------
    def _match(self, s: Sighting, card: Card | None, taken: set[int], time: float) -> _Track | None:
        centre = s.where
        spot = 0.8 * self.card_px
        if card is not None:
            for t in self._tracks:
                if t.card == card:
                    return t  # a card is in the pack once: wherever it is now, it is this card
            for t in self._tracks:
                if t.misread == card and math.dist(t.where, centre) <= 2 * spot:
                    return t  # read again as it was before the players named it
            for t in self._tracks:
                if t.card is None and t.lead == card and math.dist(t.where, centre) <= 2 * spot:
                    return t
        decided = [t for t in self._tracks if t.card is not None]
        named = min(decided, key=lambda t: math.dist(t.where, centre), default=None)
        xs, ys = [p[0] for p in s.corners], [p[1] for p in s.corners]
        corner = max(max(xs) - min(xs), max(ys) - min(ys)) < 0.6 * self.card_px
        # Something unread beside a card already named is one of its corners only where that card was
        # seen: at a spot it never was, it is a card laid over it since (the play's cards overlap each
        # other's corners), to be asked about in its turn.
        there = card is None and named is not None and self._seen_at(named, centre)
        if there and corner and named is not None and math.dist(named.where, centre) <= spot:
            return named  # an index read unsurely beside a card already named: one of its corners
        # A name read beside a thing asked about, or one lying unread a while where it was never seen,
        # is another card, laid over it.
        undecided = [
            t
            for t in self._tracks
            if t.card is None
            and t.id not in taken
            and not (card and t.asked)
            and not (card and time - t.first > self.appear_after and not self._seen_at(t, centre))
        ]
        near = min(undecided, key=lambda t: math.dist(t.where, centre), default=None)
        if near is not None and math.dist(near.where, centre) <= spot:
            return near
        if there:
            return named  # a card already named, not read in this frame
        return None

    def _seen_at(self, track: _Track, centre: tuple[float, float]) -> bool:
        """Whether ``track`` was seen at ``centre`` (within a third of a card)."""
        near = 0.35 * self.card_px
        spots = itertools.chain((p for _, p in track.named), (p for _, p in track.unnamed), track.corners)
        return any(math.dist(p, centre) <= near for p in spots)

    def name(self, position: tuple[float, float], card: Card) -> bool:
        """The players said what lies at ``position``: the thing asked about there, or the card decided
        there that did not fit the game, is ``card`` from now on -- neither asked about nor reported
        again while it lies there, however it is read.  False if nothing asked about or decided lies
        there, or ``card`` is already on the table elsewhere."""
        if any(t.card == card for t in self._tracks):
            return False
        there = [t for t in self._tracks if t.card is not None or t.asked]
        track = min(there, key=lambda t: math.dist(t.position, position), default=None)
        if track is None or math.dist(track.position, position) > 0.8 * self.card_px:
            return False
        if track.card is not None:
            track.misread = track.card
        track.card, track.asked = card, True
        return True

    def update(self, sightings: Iterable[Sighting], time: float) -> list[TableEvent]:
        """Take one frame's sightings at ``time`` (seconds); return the events it completes."""
        self._frames.append(time)
        best: dict[Card, Sighting] = {}
        unread: list[tuple[Sighting, Card | None]] = []
        for s in sightings:
            card = s.card
            if card is None:
                if s.seen is UNKNOWN:
                    unread.append((s, None))
                continue
            if s.confidence < self.min_confidence:
                unread.append((s, card))
            elif card not in best or s.confidence > best[card].confidence:
                best[card] = s
        taken: set[int] = set()
        named: list[tuple[Sighting, Card | None]] = [(s, c) for c, s in best.items()]
        for number, (s, card) in enumerate([*named, *unread]):
            hint = card if number >= len(named) else None
            card = None if hint is not None else card
            track = self._match(s, card, taken, time)
            if track is None:
                track = _Track(first=time, streak_start=time)
                self._tracks.append(track)
            elif track.id in taken:
                track.corners.append(s.where)
                continue  # a second corner of a thing already seen in this frame
            taken.add(track.id)
            if track.card is None and time - track.last_seen > self.leave_after / 2:
                track.streak_start = time  # a fresh attempt, not a continuation of an old glimpse
            track.last_seen = time
            if card is not None:
                track.named.append((time, s.where))
                if track.card is None:
                    w = track.votes.setdefault(card, [0.0, 0])
                    w[0] += s.confidence
                    w[1] += 1
            else:
                track.unnamed.append((time, s.where))
                if track.card is None:
                    track.unread += 1
                    if hint is not None:
                        w = track.weak.setdefault(hint, [0.0, 0])
                        w[0] += s.confidence
                        w[1] += 1
        events: list[TableEvent] = []
        for track in list(self._tracks):
            gone_for = time - track.last_seen
            if track.card is not None:
                if gone_for >= self.leave_after:
                    events.append(CardLeft(track.card, track.zone, time))
                    self._tracks.remove(track)
                    if track.asked or track.misread is not None:
                        self._named_gone.append((track.card, track.position))
                elif gone_for == 0 and time - track.streak_start >= self.appear_after:
                    self._maybe_moved(track, time, events)
                continue
            if gone_for >= (self.leave_after if track.asked else max(self.appear_after * 2, 0.25)):
                self._tracks.remove(track)  # a glimpse that never settled, or an unread card taken away
                continue
            if gone_for > 0 or (time - track.streak_start < self.appear_after and not self._plain(track)):
                continue
            self._decide(track, time, events)
        if any(isinstance(e, CardAppeared) for e in events):
            self._ask_older(time, events)
        return events

    def _ask_older(self, time: float, events: list[TableEvent]) -> None:
        """A card decided while an older one lying still is not: the older one is reported unread now,
        before it, since the game needs the cards in the order they were laid."""
        newest = max(e.since for e in events if isinstance(e, CardAppeared))
        for track in self._tracks:
            if track.card is not None or track.asked or track.last_seen != time or track.first >= newest:
                continue
            if (
                newest - track.streak_start < self.appear_after
                or time - track.streak_start < 2 * self.appear_after
            ):
                continue  # laid at about the same time: it still has its chance to be read
            if len(track.named) + len(track.unnamed) < self.min_frames:
                continue
            rest = self._at_rest(track, time - self.appear_after)
            if rest is None or track.asked:  # asked already in this loop, as another's corner
                continue
            self._asking(track, rest)
            events.insert(0, CardUnread(track.zone, time, rest, self._unread_reading(track), track.first))

    def _plain(self, track: _Track) -> bool:
        """Whether every frame the thing was seen in named the same card, surely, in at least
        ``min_frames`` frames, the last two at the same spot: decisive evidence, taken without waiting
        out ``appear_after`` (which is there for readings that disagree, and costs a frame at every
        card laid)."""
        if track.unread or track.weak or len(track.votes) != 1 or len(track.named) < 2:
            return False
        ((count),) = (int(n) for _, n in track.votes.values())
        return count >= self.min_frames and self._at_rest(track, track.named[-2][0]) is not None

    def _decide(self, track: _Track, time: float, events: list[TableEvent]) -> None:
        window_start = time - self.appear_after
        frames = sum(1 for t in self._frames if t >= window_start)
        hits = sum(1 for t, _ in (*track.named, *track.unnamed) if t >= window_start)
        if frames == 0 or hits / frames < 0.6:
            return
        plain = self._plain(track)
        rest = self._at_rest(track, track.named[-2][0] if plain else window_start)
        if rest is None:
            return
        card, ruled = self._verdict(track)
        zones = self._zones(rest)
        zone = zones[0] if zones else None
        if card is not None:
            track.card, track.position, track.zone = card, rest, zone
            events.append(CardAppeared(card, zone, time, rest, track.reading(ruled), track.first, zones[1:]))
            self._other_corner_asked(track, rest, never_read=True)
        elif not track.asked and time - track.streak_start >= self.ask_after:
            self._asking(track, rest)
            events.append(CardUnread(zone, time, rest, self._unread_reading(track), track.first))

    def _asking(self, track: _Track, rest: tuple[float, float]) -> None:
        """``track``, lying at ``rest``, is about to be reported unread; its other corner, if read
        apart, is the same card, asked about once.  Its other corner came with it: something first
        seen later beside it is a card laid over it (the play's cards overlap), asked about itself."""
        track.asked, track.position, track.zone = True, rest, self._zone(rest)
        self._other_corner_asked(track, rest, never_read=False)

    def _other_corner_asked(self, track: _Track, rest: tuple[float, float], never_read: bool) -> None:
        """The undecided things that came with ``track`` (first seen within ``appear_after`` of it) and
        lie within a card of ``rest`` are its other corner: never asked about apart.  ``never_read``:
        only those no frame named (a card decided: a corner read as another name is its own card)."""
        for other in self._tracks:
            if (
                other.card is None
                and not (never_read and other.votes)
                and abs(other.first - track.first) <= self.appear_after
                and math.dist(other.where, rest) <= 1.6 * self.card_px
            ):
                other.asked = True

    def _unread_reading(self, track: _Track) -> Reading:
        """What the frames said, the names the game allows first."""
        reading = track.reading()
        votes = sorted(reading.votes, key=lambda v: (v[0] in self.excluded, -v[1]))
        near = [c for c, at in self._named_gone if math.dist(at, track.position) <= self.card_px]
        named = [c for c in near if c not in self.on_table]
        if named:  # the card the players named here before, hidden a while
            votes = [(named[-1], 0.0, 0), *(v for v in votes if v[0] != named[-1])]
        ruled = tuple((c, self.excluded[c]) for c, _, _ in votes if c in self.excluded)
        return Reading(tuple(votes), reading.unread, ruled)

    def _verdict(self, track: _Track) -> tuple[Card | None, tuple[tuple[Card, str], ...]]:
        """The card the evidence names, and the names the game ruled out to settle it."""
        unread = UNREAD_WEIGHT * track.unread
        on_table = {t.card for t in self._tracks if t.card is not None}
        allowed = {c: v for c, v in track.votes.items() if c not in self.excluded and c not in on_table}
        ruled = tuple(
            (c, self.excluded.get(c, "seen elsewhere on the table")) for c in track.votes if c not in allowed
        )
        if not allowed:
            return None, ()
        lead, (weight, count) = max(allowed.items(), key=lambda kv: kv[1][0])
        if count < self.min_frames:
            return None, ()
        total = unread + sum(w for w, _ in allowed.values())
        if weight < self.share * total:
            return None, ()
        if not ruled:
            return lead, ()
        # Settled only because the game ruled names out: they must have been a real share of the reading.
        everything = unread + sum(w for w, _ in track.votes.values())
        return (lead, ruled) if weight < self.share * everything else (lead, ())

    def _maybe_moved(self, track: _Track, time: float, events: list[TableEvent]) -> None:
        rest = self._at_rest(track, time - self.appear_after)
        if rest is None or track.card is None:
            return
        zones = self._zones(rest)
        # A card lying nearly as near its zone as another still lies in it: between two anchors a
        # card at rest wavers a few pixels from frame to frame, and is no card moved.
        if zones and track.zone not in zones:
            events.append(CardMoved(track.card, track.zone, zones[0], time, rest))
            track.zone = zones[0]
        track.position = rest
