"""Where on the table things are: each player's play zone, the deck (and starter) spot and the crib.

API for the game loop (``companion.app``)::

    from companion.vision.zones import TableLayout, calibrate

    layout = calibrate(frame, recogniser.detect(frame))   # once, at the start of a session
    layout.save(Path("table.json"))                        # and TableLayout.load(...) next time
    layout.zone_at((x, y))                                 # -> Zone.PLAYER0, Zone.PLAYER1, ... Zone.CRIB

A zone is the part of the table nearer to its anchor point than to any other anchor (a Voronoi split),
so zones need no careful drawing, cover the whole table and never overlap. The anchors are set in one
of two ways:

* **marker cards** -- lay the ace of spades where player 1 plays, the ace of hearts where player 2 plays
  (ace of clubs / ace of diamonds for players 3 and 4), the king of diamonds on the deck spot and the
  king of clubs where the crib goes, and take one frame;
* **an empty table** -- with no marker cards in view the usual layout is used: for two players, player 1
  on the near half (bottom of the frame), player 2 on the far half, the deck on the left and the crib on
  the right of the middle; for four, the seats go round the table to the left as the deal and the play
  do -- player 1 near, player 2 on the left, player 3 far, player 4 on the right -- so partners (1 and
  3, 2 and 4) sit opposite, with the deck and the crib side by side in the middle.

Positions are in frame pixels; a layout keeps the frame size it was made for and scales itself to
frames of another size (the same camera at another resolution).

A camera looking at the table at a slant (a shelf, a tripod) is fine: calibrating from marker cards
also fits the table's plane (:mod:`companion.vision.rectify`) from the cards' outlines, and the layout
keeps it (``plane``, None for a camera straight above), so every frame can be read as if from above.
A layout file without a plane (an older one) loads as one for a camera straight above.

Zones are :class:`~companion.cards.Zone` values, the table's own names: the same type reaches the
table and the scoreboard, with no second vocabulary to translate.  A layout saved under the old names
(``play:1``, ``deck``) still loads.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from companion.cards import Card
from companion.vision.plane import TablePlane
from companion.vision.types import Frame, Sighting, Zone

__all__ = ["CRIB", "DECK", "MARKERS", "TableLayout", "Zone", "calibrate", "play_zone"]

DECK: Final = Zone.STARTER
CRIB: Final = Zone.CRIB


def play_zone(player: int) -> Zone:
    """A player's play zone (players count from 1 here, as the marker cards are told)."""
    return Zone.of_player(player - 1)


#: Marker card -> the zone it anchors.
MARKERS: Final[Mapping[Card, Zone]] = {
    Card.parse("As"): play_zone(1),
    Card.parse("Ah"): play_zone(2),
    Card.parse("Ac"): play_zone(3),
    Card.parse("Ad"): play_zone(4),
    Card.parse("Kd"): DECK,
    Card.parse("Kc"): CRIB,
}

#: Names a layout may have been saved under before zones were one type.
_OLD_NAMES: Final[Mapping[str, Zone]] = {
    **{f"play:{p}": play_zone(p) for p in range(1, 5)},
    "deck": Zone.STARTER,
}


def _zone_named(name: str) -> Zone:
    old = _OLD_NAMES.get(name)
    return old if old is not None else Zone(name)


#: A zone whose anchor lies within this share of the nearest one's distance is one a card may have
#: been laid in too (see :meth:`TableLayout.zones_at`): the game decides between them. The one card
#: the demo game at 40 degrees gave to the wrong zone lay 158 and 169 pixels from the two anchors.
NEARLY_AS_NEAR: Final = 1.2


@dataclass(frozen=True, slots=True)
class TableLayout:
    """Zone anchors (frame pixels) for a frame of ``size`` (width, height), and the table's plane where
    the camera looks at it at a slant (see :mod:`companion.vision.plane`)."""

    size: tuple[int, int]
    anchors: tuple[tuple[Zone, tuple[float, float]], ...]
    plane: TablePlane | None = None

    def __post_init__(self) -> None:
        if len(self.anchors) < 2:
            raise ValueError("a table layout needs at least two zones")
        names = [name for name, _ in self.anchors]
        if len(set(names)) != len(names):
            raise ValueError("each zone of a table layout must be named once")

    @property
    def zones(self) -> tuple[Zone, ...]:
        return tuple(name for name, _ in self.anchors)

    def zone_at(
        self, point: tuple[float, float], size: tuple[int, int] | None = None, plane: TablePlane | None = None
    ) -> Zone:
        """The zone a point lies in (the nearest anchor), for a frame of ``size`` (default: the layout's).

        Where the camera looks at a slant (``plane``, else the layout's own), nearest is measured on the
        table, as if from above. Why: the frame shrinks the far side and squeezes distances along the
        line of sight, so a Voronoi split of the frame's pixels is not one of the table. Filmed 40
        degrees off straight down with the usual zones (no marker cards), a card played in front of the
        near player lay 159 pixels from its anchor and 168 from the starter's: split on the table,
        183 and 218 (the demo game: 7 cards given to the wrong zone, then 1).
        """
        return self.zones_at(point, size, plane)[0]

    def zones_at(
        self, point: tuple[float, float], size: tuple[int, int] | None = None, plane: TablePlane | None = None
    ) -> tuple[Zone, ...]:
        """The zone a point lies in (see :meth:`zone_at`), then any other whose anchor is nearly as near
        (within :data:`NEARLY_AS_NEAR` of the nearest's distance), nearest first.

        Why: a card laid between two zones is in either as far as the geometry can tell, above all
        before a camera at a slant has found the table's plane, when the split is the frame's; the
        game can tell them apart (a card of the play on the starter's spot does not fit the game).
        """
        sx = sy = 1.0
        if size is not None and size != self.size:
            sx, sy = self.size[0] / size[0], self.size[1] / size[1]
        x, y = point[0] * sx, point[1] * sy
        plane = plane if plane is not None else self.plane
        if plane is None:
            seen = [(zone, math.hypot(a[0] - x, a[1] - y)) for zone, a in self.anchors]
        else:
            (tx, ty), *anchors = plane.from_frame([(x, y), *(p for _, p in self.anchors)], self.size)
            seen = [
                (zone, math.hypot(a[0] - tx, a[1] - ty)) for zone, a in zip(self.zones, anchors, strict=True)
            ]
        order = sorted(seen, key=lambda z: z[1])  # stable: equals keep the anchors' order
        nearest = order[0][1]
        return tuple(zone for zone, d in order if d <= nearest * NEARLY_AS_NEAR)

    def to_dict(self) -> dict[str, object]:
        data: dict[str, object] = {
            "size": list(self.size),
            "zones": {str(name): list(p) for name, p in self.anchors},
        }
        if self.plane is not None:
            data["plane"] = self.plane.to_dict()
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, object]) -> TableLayout:
        try:
            size_raw = data["size"]
            zones_raw = data["zones"]
            assert isinstance(size_raw, list) and isinstance(zones_raw, dict)
            size = (int(size_raw[0]), int(size_raw[1]))
            anchors = tuple((_zone_named(str(k)), (float(v[0]), float(v[1]))) for k, v in zones_raw.items())
            plane_raw = data.get("plane")
            assert plane_raw is None or isinstance(plane_raw, dict)
            plane = TablePlane.from_dict(plane_raw) if plane_raw is not None else None
        except (KeyError, IndexError, TypeError, ValueError, AssertionError) as error:
            raise ValueError(f"not a table layout: {error}") from error
        return cls(size, anchors, plane)

    def save(self, path: Path) -> None:
        path.write_text(json.dumps(self.to_dict(), indent=2) + "\n", encoding="utf-8")

    @classmethod
    def load(cls, path: Path) -> TableLayout:
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except json.JSONDecodeError as error:
            raise ValueError(f"{path} is not a table layout (bad JSON: {error.msg})") from error
        if not isinstance(data, dict):
            raise ValueError(f"{path} is not a table layout")
        return cls.from_dict(data)

    @classmethod
    def default(cls, width: int, height: int, players: int = 2) -> TableLayout:
        """The usual layout: players round the frame's edges, deck left and crib right of the middle."""
        near, far, left, right = (0.5, 0.82), (0.5, 0.18), (0.12, 0.5), (0.88, 0.5)
        seats: tuple[tuple[float, float], ...]
        if players == 4:
            # Round the table to the left (the camera looks down from above the near player's side):
            # partners opposite; the middle kept narrow so each side seat reaches the table's centre.
            seats, deck, crib = (near, left, far, right), (0.36, 0.5), (0.62, 0.5)
        else:
            seats, deck, crib = (near, far, left, right)[:players], (0.32, 0.5), (0.68, 0.5)
        anchors = [(play_zone(p + 1), (x * width, y * height)) for p, (x, y) in enumerate(seats)]
        anchors += [(DECK, (deck[0] * width, deck[1] * height)), (CRIB, (crib[0] * width, crib[1] * height))]
        return cls((width, height), tuple(anchors))


def calibrate(frame: Frame, sightings: Iterable[Sighting], players: int = 2) -> TableLayout:
    """A layout from one frame: marker cards where present, the default layout for an empty table.

    With marker cards, the table's plane is fitted from their outlines too, and from any other card's
    lying alone (None for a camera straight above, or where no card's outline stands clear): see
    :func:`companion.vision.rectify.fit_plane`.
    """
    height, width = frame.shape[:2]
    sightings = list(sightings)
    found: dict[Zone, tuple[float, float]] = {}
    for s in sightings:
        zone = MARKERS.get(s.card) if s.card is not None else None
        if zone is not None and zone not in found:
            found[zone] = s.where
    if not found:
        return TableLayout.default(width, height, players)
    if len(found) < 2:
        raise ValueError(
            "only one marker card seen: lay the ace of spades and the ace of hearts (players 1 and 2), "
            "the king of diamonds (deck) and the king of clubs (crib)"
        )
    from companion.vision.rectify import fit_plane  # OpenCV: only once a frame is calibrated from

    return TableLayout((width, height), tuple(sorted(found.items())), fit_plane(frame, sightings))
