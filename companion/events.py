"""What happens at the table, as small frozen values posted to the game loop.

Every source of input -- the knobs and buttons (:mod:`companion.controls`), the camera's tracker, the
scoreboard's PIN-protected page and the loop's own timers -- turns what it saw into one of these events
and puts it on the loop's queue.  Nothing else touches the game: the loop takes events one at a time, so
the game has exactly one owner and no locks are needed around it.

The names are the table's words: a player *dials* a claim and *pegs* it, *calls muggins*, says *go*; a
card *lands* in a zone or is *lifted*.  Each event has a ``to_dict`` form with a ``"event"`` key so the
journal and the scoreboard can carry it as JSON.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass, fields
from typing import Any, ClassVar, TypeAlias

from companion.cards import Card, Seen, Zone, seen_from_text

__all__ = [
    "CallMuggins",
    "CardLanded",
    "CardLifted",
    "Claim",
    "Correct",
    "DialClaim",
    "Event",
    "MugginsExpired",
    "NewGame",
    "PegClaim",
    "SayGo",
    "SetMode",
    "Shutdown",
    "TableNotice",
    "Undo",
    "event_from_dict",
    "event_to_dict",
]


@dataclass(frozen=True, slots=True)
class DialClaim:
    """A player turned their knob: the claim they are about to peg moves by ``steps`` (negative = down).

    While the table asks about a card, the turn moves the highlight through the offered cards instead.
    """

    name: ClassVar[str] = "dial"
    player: int
    steps: int


@dataclass(frozen=True, slots=True)
class PegClaim:
    """A player pressed their knob: peg the claim dialled so far (in the play, with nothing dialled, a go).

    While the table asks about a card, the press answers with the highlighted card instead.
    """

    name: ClassVar[str] = "peg"
    player: int


@dataclass(frozen=True, slots=True)
class Claim:
    """A player claims ``points`` for what they are counting now (typed on the scoreboard, or dialled)."""

    name: ClassVar[str] = "claim"
    player: int
    points: int


@dataclass(frozen=True, slots=True)
class SayGo:
    """A player says "go": they cannot lay a card without passing 31."""

    name: ClassVar[str] = "go"
    player: int


@dataclass(frozen=True, slots=True)
class CallMuggins:
    """A player calls muggins on points the opponent left behind."""

    name: ClassVar[str] = "muggins"
    player: int


@dataclass(frozen=True, slots=True)
class Undo:
    """Take back the last action (a misread card, a claim pegged too soon)."""

    name: ClassVar[str] = "undo"


@dataclass(frozen=True, slots=True)
class NewGame:
    """Abandon the game in progress and start a fresh one (the undo button held down, or the scoreboard's
    new-game form).

    ``settings`` are the house rules chosen for the new match, as (option, value) pairs named as the
    engine names them (``target``, ``muggins``, ``skunk_line`` ...); empty: the settings file's.  A mapping
    given is kept as sorted pairs, so the event stays a frozen, comparable value.
    """

    name: ClassVar[str] = "new-game"
    settings: tuple[tuple[str, Any], ...] = ()

    def __post_init__(self) -> None:
        given: Any = self.settings
        pairs = given.items() if isinstance(given, Mapping) else given
        object.__setattr__(self, "settings", tuple(sorted((str(k), v) for k, v in pairs)))

    @property
    def chosen(self) -> dict[str, Any]:
        """The house rules chosen, as a mapping (empty: the settings file's)."""
        return dict(self.settings)


@dataclass(frozen=True, slots=True)
class CardLanded:
    """The camera saw a card come to rest face up in a zone (:class:`~companion.cards.Zone`; its text,
    ``"player0"``, ``"starter"``, ``"crib"``, given instead is read into it here).

    ``card`` is the :class:`~companion.cards.Card` read, or :data:`~companion.cards.UNKNOWN` for a card
    the camera could not name (:data:`~companion.cards.BACK` for one face down).  Canonical text given
    instead (a recorded game, a test) is read once, here, into that value."""

    name: ClassVar[str] = "landed"
    card: Seen
    zone: Zone
    at: float = 0.0
    """When the frame that showed it was taken (seconds, monotonic clock of the source); for latency."""
    likely: tuple[str, ...] = ()
    """For a card not read (``"unknown"``): what the camera's frames said it might be, most likely first."""
    why: str = ""
    """How the camera settled a doubtful reading ("read 6h or 8h; 8h is already played"), to show."""
    also_near: tuple[Zone, ...] = ()
    """Other zones the card lies nearly as near as ``zone``, nearest first: where it does not fit the
    game in ``zone``, the table takes it in the first of these where it does."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "card", _seen(self.card))
        object.__setattr__(self, "zone", _zone(self.zone))
        object.__setattr__(self, "also_near", tuple(_zone(z) for z in self.also_near))


@dataclass(frozen=True, slots=True)
class CardLifted:
    """The camera saw a card leave a zone (gathered up at the end of a deal, or picked back up)."""

    name: ClassVar[str] = "lifted"
    card: Card
    zone: Zone

    def __post_init__(self) -> None:
        seen = _seen(self.card)
        if not isinstance(seen, Card):
            raise ValueError(f"a card lifted is a card the camera named, not {seen!r}")
        object.__setattr__(self, "card", seen)
        object.__setattr__(self, "zone", _zone(self.zone))


@dataclass(frozen=True, slots=True)
class TableNotice:
    """Something the camera saw and left out of the game, said to the players: a burst of cards no
    table lays at once ("44 cards appeared at once ... none is counted").  The game is not changed; the
    scoreboard shows ``text`` and the journal keeps it with the match."""

    name: ClassVar[str] = "notice"
    text: str


@dataclass(frozen=True, slots=True)
class Correct:
    """A correction from the scoreboard: the card the camera saw as ``seen`` is really ``card`` (``seen``
    empty when the camera could not name it at all) laid in ``zone``.  A knob's answer takes the same
    path in the table."""

    name: ClassVar[str] = "correct"
    card: str
    zone: Zone
    seen: str = ""

    def __post_init__(self) -> None:
        object.__setattr__(self, "zone", _zone(self.zone))


@dataclass(frozen=True, slots=True)
class SetMode:
    """Switch between automatic counting (``"auto"``) and players claiming with muggins (``"claims"``)."""

    name: ClassVar[str] = "mode"
    mode: str


@dataclass(frozen=True, slots=True)
class MugginsExpired:
    """The loop's timer: the chance to call muggins on an under-claim (its ``serial``) has passed."""

    name: ClassVar[str] = "muggins-expired"
    serial: int


@dataclass(frozen=True, slots=True)
class Shutdown:
    """Stop the loop (the process is ending)."""

    name: ClassVar[str] = "shutdown"


Event: TypeAlias = (
    DialClaim
    | PegClaim
    | Claim
    | SayGo
    | CallMuggins
    | Undo
    | NewGame
    | CardLanded
    | CardLifted
    | TableNotice
    | Correct
    | SetMode
    | MugginsExpired
    | Shutdown
)

_TYPES: dict[str, Any] = {
    cls.name: cls
    for cls in (
        DialClaim,
        PegClaim,
        Claim,
        SayGo,
        CallMuggins,
        Undo,
        NewGame,
        CardLanded,
        CardLifted,
        TableNotice,
        Correct,
        SetMode,
        MugginsExpired,
        Shutdown,
    )
}


def _seen(value: object) -> Seen:
    """A card or mark as given, or read from its canonical text (a ValueError if it is neither)."""
    if isinstance(value, Card):
        return value
    if isinstance(value, str):  # a Mark is a str too: read back as itself
        return seen_from_text(str(value))
    raise TypeError(f"a card seen is a Card, BACK, UNKNOWN or its text, not {value!r}")


def _zone(value: object) -> Zone:
    """A zone as given, or read from its text (a ValueError naming the zones if it is none of them)."""
    try:
        return Zone(str(value))
    except ValueError:
        known = ", ".join(zone.value for zone in Zone)
        raise ValueError(f"{value!r} is not a zone of the table ({known})") from None


def event_to_dict(event: Event) -> dict[str, Any]:
    """The JSON form: ``{"event": name, **fields}`` (a new game's house rules as an object, a card as
    its canonical text: ``"5h"``, ``"unknown"``)."""
    if isinstance(event, NewGame):
        return {"event": event.name, "settings": event.chosen}
    data = {"event": event.name, **asdict(event)}
    if isinstance(event, CardLanded | CardLifted):
        data["card"] = str(event.card)
    if isinstance(event, CardLanded | CardLifted | Correct):
        data["zone"] = str(event.zone)
    if isinstance(event, CardLanded):
        data["also_near"] = [str(z) for z in event.also_near]
    return data


def event_from_dict(data: dict[str, Any]) -> Event:
    """Read an event back from its JSON form; an unknown name or missing field is a ValueError."""
    name = data.get("event")
    cls = _TYPES.get(str(name))
    if cls is None:
        raise ValueError(f"{name!r} is not an event the table knows")
    names = {f.name for f in fields(cls)}
    try:
        event: Event = cls(**{k: v for k, v in data.items() if k in names})
    except TypeError as error:
        raise ValueError(f"event {name!r} is missing a field: {error}") from None
    return event
