"""Between the camera's tracker and the table: what was seen, checked against the game, as table events.

This is the one translation from the vision's events (:mod:`companion.vision.tracker`) to the table's
(:class:`~companion.events.CardLanded`, :class:`~companion.events.CardLifted`); the live camera
and the demo's film both go through it (:class:`~companion.app.camera.CameraFeed`).  It runs on the
camera's thread and never touches the game: the game loop hands it a frozen :class:`GameView` after
every event (:meth:`Watch.follow`, a loop listener), and it uses that view for two things.

**The game as a check.**  The cards that cannot newly lie on the table (played or shown this deal, the
starter, the crib cards seen) are given to the tracker, so a reading torn between two names is settled
by the one the game allows, and the reason goes with the card to the table and the terminal ("read 6h or
8h; 8h is already played: 6h").

**Only what a table can do.**  Players lay one card at a time in the play, cut one card each, turn one
starter, turn up the crib's four.  Cards that appear together (first seen within ``together`` seconds of
each other) more than the phase allows in any zone -- a spilled pack, a hand shown in the play, a photo
of another game -- are *held*: none is fed to the game, and one report says so, to the terminal and, as a
:class:`~companion.events.TableNotice`, to the scoreboard and the journal.  They stay held until they are
taken away.  A single card in a zone the phase does not use is fed all the same, and the table
asks about it, as it asks about any card that does not fit.

A card that lies still but stays unread for about a second becomes ``CardLanded(UNKNOWN)`` with what
the frames said it might be, most likely first: the table asks, and the game goes on with the answer.
So does a card the recogniser read nothing at all on, that the camera saw come to rest all the same
(an *arrival*, :mod:`companion.vision.arrivals`): asked about after the same second, or at once when a
card laid after it is given to the game -- taken without it, the next card would look like the next
turn and the deal would go out of step.
"""

from __future__ import annotations

import math
import threading
import time as clock
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from companion.cards import UNKNOWN, Card
from companion.events import CardLanded, CardLifted, Event, TableNotice
from companion.vision.arrivals import Arrival
from companion.vision.tracker import CardAppeared, CardLeft, CardMoved, CardUnread, Reading, Tracker
from companion.vision.types import Sighting, Zone
from companion.vision.zones import TableLayout

__all__ = ["GameView", "Watch", "allowance"]

_PLAYERS: Final = (Zone.PLAYER0, Zone.PLAYER1, Zone.PLAYER2, Zone.PLAYER3)


@dataclass(frozen=True, slots=True)
class GameView:
    """What the camera may know of the game: the phase, the cards already in it and the players."""

    phase: str = "cut-for-deal"
    """The engine's phase name (``cut-for-deal``, ``deal``, ``discard``, ``starter``, ``play``, ``show``,
    ``game-over``)."""
    in_game: Mapping[Card, str] = field(default_factory=dict)
    """Cards this deal already holds, each with why it cannot newly be laid ("is the starter")."""
    players: tuple[str, ...] = ("Player 1", "Player 2")

    @classmethod
    def of(cls, table: Any) -> GameView:
        """The view of a :class:`~companion.app.table.Table` (on the loop's thread only)."""
        game = table.game
        state = game.deal_state
        in_game: dict[Card, str] = {}
        for card in state.seen:
            in_game[card] = "is already played"
        for text in table.crib_seen():
            in_game[Card.parse(text)] = "is already in the crib"
        for card in state.crib_known:
            in_game[card] = "is already in the crib"
        if state.starter is not None:
            in_game[state.starter] = "is the starter"
        return cls(game.phase.value, in_game, tuple(table.players))


def allowance(phase: str, zone: Zone | None, players: int = 2) -> int:
    """How many new cards a table can show at once in ``zone`` during ``phase``."""
    if zone is None:
        return 1
    if zone in _PLAYERS[:players]:
        return 1  # a cut, a card laid; never a whole hand at once
    if zone is Zone.STARTER:
        return 0 if phase == "cut-for-deal" else 1
    if zone is Zone.CRIB:
        return 4 if phase in ("show", "game-over") else 1
    return 0


class Watch:
    """Tracker events -> table events, checked against the game (see the module notes)."""

    def __init__(
        self,
        layout: TableLayout | None = None,
        *,
        say: Callable[[str], None] | None = None,
        together: float = 0.3,
        tracker: Tracker | None = None,
    ) -> None:
        self.tracker = tracker or Tracker(layout)
        self.say = say or (lambda text: None)
        self.together = together
        self.view = GameView()
        self.reports: list[str] = []
        """Everything said about what the camera saw and did (also passed to ``say``)."""
        self.held: set[Card] = set()
        """Cards that came in a burst no table could make: not fed to the game while they lie there."""
        self._burst: float | None = None
        self._fed: set[Card] = set()
        """Cards given to the game and still on the table: not new however recently they came."""
        self._asked: set[int] = set()
        """The arrivals (cards nothing was read on) already asked about, by number."""
        self._given: dict[tuple[Zone, str], list[tuple[float, float]]] = {}
        """Where the cards given to the game in each zone under each name ("unknown") lie, in the order
        given, which is the order the table asks about them: an answer names the first still asked."""
        self._answers: list[tuple[str, Zone, str]] = []
        """Answers the game took, not yet passed to the tracker (they come on the loop's thread)."""
        self._lock = threading.Lock()

    # -- from the game loop ---------------------------------------------------------------------
    def follow(self, table: Any, event: Event | None) -> None:
        """A game-loop listener: take a fresh view of the game after each event (on the loop's thread)."""
        view = GameView.of(table)
        answered = getattr(table, "answered", None)
        with self._lock:
            self.view = view
            if answered is not None:
                self._answers.append(answered)

    # -- from the camera -----------------------------------------------------------------------
    def see(
        self,
        sightings: list[Sighting],
        time: float,
        *,
        at: float | None = None,
        arrivals: Sequence[Arrival] = (),
    ) -> list[Event]:
        """One frame's sightings (taken at ``time`` on the source's clock, ``at`` on the monotonic clock
        for the latency figures) and the cards lying in it that nothing was read on (``arrivals``, see
        :mod:`companion.vision.arrivals`): the table events they complete, in the order to post them."""
        with self._lock:
            view = self.view
            answers, self._answers = self._answers, []
        for card, zone, read in answers:
            self._named(card, zone, read)
        at = clock.monotonic() if at is None else at
        fed_here = {c for c in self.tracker.on_table if c not in self.held}
        # A finished game's cards say nothing about the next game's cuts: nothing is ruled out then.
        ruling = view.phase not in ("cut-for-deal", "game-over")
        self.tracker.excluded = {c: why for c, why in view.in_game.items() if ruling and c not in fed_here}
        out: list[Event] = []
        settled: list[CardAppeared | CardUnread] = []
        for event in self.tracker.update(sightings, time):
            if isinstance(event, CardLeft):
                self._fed.discard(event.card)
                if event.card in self.held:
                    self.held.discard(event.card)
                    continue
                out.append(CardLifted(event.card, _zone(event.zone)))
            elif isinstance(event, CardMoved):
                if event.card in self.held:
                    continue
                self._report(f"{event.card} moved {self._words(event.to_zone, view)}")
                out.append(CardLanded(event.card, _zone(event.to_zone), at=at))
            else:
                settled.append(event)
        settled += self._unnoticed(arrivals, settled, time)
        if settled:
            out += self._gate(settled, view, at)
        return out

    def _named(self, text: str, zone: Zone, read: str) -> None:
        """The players answered the table's question about the card given to it in ``zone`` as ``read``
        ("" when it could not be read): the thing lying there is ``text`` from now on, so it is neither
        asked about again nor, read at last, given to the game as a second card."""
        given = self._given.get((zone, read or UNKNOWN))
        if not given or text in (UNKNOWN, "back"):
            return
        where = given.pop(0)
        card = Card.parse(text)
        if self.tracker.name(where, card):
            if read and read != UNKNOWN:
                self._fed.discard(Card.parse(read))
            self._fed.add(card)

    def _unnoticed(
        self, arrivals: Sequence[Arrival], settled: list[CardAppeared | CardUnread], time: float
    ) -> list[CardUnread]:
        """Cards lying still that nothing was read on, to be asked about as unread cards: once one has
        lain there for the tracker's ``ask_after``, or as soon as a card laid after it is given to the
        game (the game needs the cards in the order they were laid: a card never noticed would make
        the next one look like the next turn)."""
        latest = max((e.since for e in settled), default=None)
        out: list[CardUnread] = []
        for arrival in arrivals:
            if arrival.number in self._asked:
                continue
            late = latest is not None and latest > arrival.since
            if late or time - arrival.since >= self.tracker.ask_after:
                self._asked.add(arrival.number)
                where = arrival.centre
                out.append(CardUnread(self.tracker.zone_of(where), time, where, Reading(()), arrival.since))
        return out

    def _gate(self, settled: list[CardAppeared | CardUnread], view: GameView, at: float) -> list[Event]:
        """Feed what a table could have done; hold a burst of more cards than the phase allows."""
        out: list[Event] = []
        for event in sorted(settled, key=lambda e: e.since):
            if isinstance(event, CardAppeared) and event.card in view.in_game:
                self._fed.add(event.card)
                out.append(CardLanded(event.card, _zone(event.zone), at=at, also_near=event.also_near))
                continue  # the game knows it already (seen again): the table says so if it matters
            burst = self._together(event.since, view)
            counts: dict[Zone | None, int] = {}
            for zone in burst:
                counts[zone] = counts.get(zone, 0) + 1
            over = [z for z, n in counts.items() if n > allowance(view.phase, z, len(view.players))]
            if over:
                said = self._hold(event, len(burst), view)
                if said:
                    out.append(TableNotice(said))
                continue
            if isinstance(event, CardUnread):
                likely = tuple(str(c) for c in event.reading.candidates)
                said = f"; {event.reading}" if likely else ""
                self._report(f"a card {self._words(event.zone, view)} cannot be read{said}: asking")
                self._given.setdefault((_zone(event.zone), UNKNOWN), []).append(event.position)
                out.append(CardLanded(UNKNOWN, _zone(event.zone), at=at, likely=likely))
                continue
            why = ""
            if event.reading.ruled_out:
                names = " or ".join(
                    str(c) for c in sorted(event.reading.candidates, key=lambda c: c != event.card)
                )
                ruled = "; ".join(f"{c} {reason}" for c, reason in event.reading.ruled_out)
                why = f"read {names}; {ruled}: {event.card}"
            words = self._words(event.zone, view)
            self._report(f"{event.card} {words}" + (f" ({why})" if why else ""))
            self._fed.add(event.card)
            self._given[(_zone(event.zone), str(event.card))] = [event.position]
            out.append(CardLanded(event.card, _zone(event.zone), at=at, why=why, also_near=event.also_near))
        return out

    def _together(self, since: float, view: GameView) -> list[Zone | None]:
        """The zones of every new thing on the table first seen within ``together`` of ``since``.  A
        thing never named counts only away from the others (a card's unread corner is not a card)."""
        lying = [
            thing
            for thing in self.tracker.lying(min_frames=2)
            if abs(thing[0] - since) <= self.together
            and (thing[2] is None or (thing[2] not in view.in_game and thing[2] not in self._fed))
        ]
        counted = [thing for thing in lying if thing[2] is not None]
        apart = 1.5 * self.tracker.card_px
        for thing in lying:
            if thing[2] is None and all(math.dist(thing[3], other[3]) > apart for other in counted):
                counted.append(thing)
        return [zone for _, zone, _, _ in counted]

    def _hold(self, event: CardAppeared | CardUnread, burst: int, view: GameView) -> str:
        """Hold the card back; the first of a burst says why (returned too, for the scoreboard)."""
        if isinstance(event, CardAppeared):
            self.held.add(event.card)
        if self._burst is None or abs(event.since - self._burst) > self.together:
            self._burst = event.since
            phase = {
                "cut-for-deal": "to cut for the deal",
                "play": "in the play",
                "show": "at the show",
                "game-over": "at the end of a game",
            }.get(view.phase, "to turn the starter")
            text = (
                f"{burst} cards appeared at once: no table lays that many {phase}; none is counted "
                "(take them away, or lay them one at a time)"
            )
            self._report(text)
            return text
        return ""

    def _words(self, zone: Zone | None, view: GameView) -> str:
        if zone is None:
            return "on the table"
        if zone.player is not None:
            names = view.players
            return f"in front of {names[zone.player] if zone.player < len(names) else zone}"
        return {Zone.STARTER: "on the starter spot", Zone.CRIB: "on the crib"}.get(zone, f"in {zone}")

    def _report(self, text: str) -> None:
        self.reports.append(text)
        self.say(text)


def _zone(zone: Zone | None) -> Zone:
    """The zone for the table's events (a card seen with no zones set is taken as the crib's: no play
    or cut is guessed from where nothing says who laid it)."""
    return zone if zone is not None else Zone.CRIB
