"""What the board shows, as one small frozen value: the pegs of both tracks, the mode and brightness,
and whether the table is waiting for an answer to a question.

The host never pushes pixels: it says where the pegs are and the board draws them.  A ``BoardState`` is
always a *full* state (a ``STATE`` command built from it sets every key, the ones left out taking their
defaults), so sending the same state twice is harmless and resending after any doubt is always safe.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from enum import StrEnum

from companion.board.protocol import key_values

TRACKS = 2
GAME_HOLE = 121
DEFAULT_BRIGHTNESS = 64


class StateSyntaxError(ValueError):
    """A state text that cannot be read (unknown key, not a number, malformed value): NAK syntax."""


class StateRangeError(ValueError):
    """A state that reads but is not allowed (a score past 121, a rear peg ahead of the forward one)."""


class Mode(StrEnum):
    """What the board is doing (the ``m`` key)."""

    IDLE = "idle"  # a gentle pattern before the first game
    GAME = "game"  # the pegs
    WIN = "win"  # the winner's animation
    TEST = "test"  # every LED in turn, in chain order, then back to the pegs


@dataclass(frozen=True, order=True)
class Colour:
    """A peg colour, 8 bits per channel; written ``RRGGBB`` in hex on the wire."""

    red: int
    green: int
    blue: int

    def __post_init__(self) -> None:
        for name, value in (("red", self.red), ("green", self.green), ("blue", self.blue)):
            if not 0 <= value <= 255:
                raise StateRangeError(f"the {name} channel {value} is not in 0..255")

    @classmethod
    def parse(cls, text: str) -> Colour:
        """``"00C0FF"`` (either case) as a colour."""
        if len(text) != 6 or any(c not in "0123456789abcdefABCDEF" for c in text):
            raise StateSyntaxError(f"colour {text!r} is not six hex digits RRGGBB")
        value = int(text, 16)
        return cls(value >> 16, (value >> 8) & 0xFF, value & 0xFF)

    @property
    def hex(self) -> str:
        return f"{self.red:02X}{self.green:02X}{self.blue:02X}"

    def scaled(self, numerator: int, denominator: int) -> Colour:
        """Every channel times numerator/denominator, rounded down."""
        return Colour(
            self.red * numerator // denominator,
            self.green * numerator // denominator,
            self.blue * numerator // denominator,
        )

    def __str__(self) -> str:
        return self.hex

    def __repr__(self) -> str:
        return f"Colour.parse({self.hex!r})"


#: The default peg colours of track 0 and track 1 (a cool blue and a warm orange, told apart by anyone).
DEFAULT_COLOURS = (Colour.parse("00C0FF"), Colour.parse("FF6000"))
DARK = Colour(0, 0, 0)


@dataclass(frozen=True)
class Pegs:
    """One track's two pegs: the rear peg (the previous score) and the forward peg (the score).

    A score of 0 means the peg is in the start holes, which have no LED.  The rear peg never leads the
    forward one, except that a forward peg of 0 leaves the rear peg unchecked, as the protocol allows.
    """

    rear: int
    forward: int
    colour: Colour

    def __post_init__(self) -> None:
        for name, value in (("rear", self.rear), ("forward", self.forward)):
            if not 0 <= value <= GAME_HOLE:
                raise StateRangeError(f"the {name} peg at {value} is not in 0..{GAME_HOLE}")
        if self.forward != 0 and self.rear > self.forward:
            raise StateRangeError(
                f"the rear peg at {self.rear} is ahead of the forward peg at {self.forward}"
            )

    @property
    def text(self) -> str:
        """The value of the ``p0``/``p1`` key: ``REAR,FORWARD,RRGGBB``."""
        return f"{self.rear},{self.forward},{self.colour.hex}"

    @classmethod
    def parse(cls, text: str) -> Pegs:
        parts = text.split(",")
        if len(parts) != 3:
            raise StateSyntaxError(f"pegs {text!r} are not REAR,FORWARD,RRGGBB")
        rear, forward = (_number(part, "peg") for part in parts[:2])
        return cls(rear, forward, Colour.parse(parts[2]))


@dataclass(frozen=True)
class Tentative:
    """A claimed but not yet agreed score: that hole blinks in the track's colour."""

    track: int
    hole: int

    def __post_init__(self) -> None:
        if not 0 <= self.track < TRACKS:
            raise StateRangeError(f"track {self.track} is not 0 or 1")
        if not 1 <= self.hole <= GAME_HOLE:
            raise StateRangeError(f"the tentative hole {self.hole} is not in 1..{GAME_HOLE}")

    @property
    def text(self) -> str:
        return f"{self.track},{self.hole}"


def _number(text: str, what: str) -> int:
    """A decimal number as written on the wire: digits only, at most three of them."""
    if not text or len(text) > 3 or not text.isascii() or not text.isdigit():
        raise StateSyntaxError(f"{what} {text!r} is not a decimal number")
    return int(text)


def _default_pegs() -> tuple[Pegs, Pegs]:
    return (Pegs(0, 0, DEFAULT_COLOURS[0]), Pegs(0, 0, DEFAULT_COLOURS[1]))


#: The keys of a STATE command, in the order the host writes them and GET reports them.
KEYS = ("m", "b", "p0", "p1", "t", "w", "q")


@dataclass(frozen=True)
class BoardState:
    """Everything the board shows.  Build one from the game, hand it to ``BoardLink.show``.

    >>> BoardState.playing((37, 45), (80, 88)).to_command()
    ('m=game', 'p0=37,45,00C0FF', 'p1=80,88,FF6000')
    """

    mode: Mode = Mode.IDLE
    brightness: int = DEFAULT_BRIGHTNESS
    pegs: tuple[Pegs, Pegs] = field(default_factory=_default_pegs)
    tentative: Tentative | None = None
    winner: int | None = None
    question: bool = False
    """The table is asking about a card it cannot place: in ``game`` mode the board flashes white."""

    def __post_init__(self) -> None:
        if not 0 <= self.brightness <= 255:
            raise StateRangeError(f"brightness {self.brightness} is not in 0..255")
        if len(self.pegs) != TRACKS:
            raise StateRangeError(f"a board has {TRACKS} tracks, not {len(self.pegs)}")
        if self.winner is not None and not 0 <= self.winner < TRACKS:
            raise StateRangeError(f"winner track {self.winner} is not 0 or 1")

    @classmethod
    def playing(
        cls,
        track0: tuple[int, int],
        track1: tuple[int, int],
        *,
        tentative: Tentative | None = None,
        brightness: int = DEFAULT_BRIGHTNESS,
        question: bool = False,
    ) -> BoardState:
        """A game in progress with the default colours: ``(rear, forward)`` for each track."""
        pegs = (
            Pegs(track0[0], track0[1], DEFAULT_COLOURS[0]),
            Pegs(track1[0], track1[1], DEFAULT_COLOURS[1]),
        )
        return cls(Mode.GAME, brightness, pegs, tentative, None, question)

    def with_pegs(self, track: int, rear: int, forward: int) -> BoardState:
        """The same state with one track's pegs moved (its colour kept)."""
        pegs = list(self.pegs)
        pegs[track] = Pegs(rear, forward, pegs[track].colour)
        return replace(self, pegs=(pegs[0], pegs[1]))

    def options(self, *, full: bool = False) -> dict[str, str]:
        """The ``key=value`` pairs in the fixed key order; the defaults are left out unless ``full``."""
        values = {
            "m": self.mode.value,
            "b": str(self.brightness),
            "p0": self.pegs[0].text,
            "p1": self.pegs[1].text,
            "t": "-" if self.tentative is None else self.tentative.text,
            "w": "-" if self.winner is None else str(self.winner),
            "q": "1" if self.question else "-",
        }
        if full:
            return values
        defaults = BoardState().options(full=True)
        return {key: value for key, value in values.items() if value != defaults[key]}

    def to_command(self, *, full: bool = False) -> tuple[str, ...]:
        """The arguments of the ``STATE`` command that sets exactly this state.

        Keys at their default are left out (the board resets them anyway), which keeps the usual game
        frame near 50 bytes: under 5 ms on the wire at 115200 baud.
        """
        return tuple(f"{key}={value}" for key, value in self.options(full=full).items())

    @classmethod
    def from_options(cls, options: Mapping[str, str]) -> BoardState:
        """The state a board holds after ``STATE`` with these keys (the others take their defaults).

        Raises StateSyntaxError (unknown key, unreadable value) or StateRangeError (out of range), the
        two refusals the board answers with ``NAK syntax`` and ``NAK range``.
        """
        unknown = sorted(set(options) - set(KEYS))
        if unknown:
            raise StateSyntaxError(f"unknown key {unknown[0]!r}")
        state = cls()
        pegs = list(state.pegs)
        mode, brightness, tentative, winner = state.mode, state.brightness, state.tentative, state.winner
        question = state.question
        if "m" in options:
            try:
                mode = Mode(options["m"])
            except ValueError:
                raise StateSyntaxError(f"mode {options['m']!r} is not idle, game, win or test") from None
        if "b" in options:
            brightness = _number(options["b"], "brightness")
        for track in range(TRACKS):
            if f"p{track}" in options:
                pegs[track] = Pegs.parse(options[f"p{track}"])
        if "t" in options and options["t"] != "-":
            parts = options["t"].split(",")
            if len(parts) != 2:
                raise StateSyntaxError(f"tentative peg {options['t']!r} is not TRACK,HOLE or -")
            tentative = Tentative(_number(parts[0], "track"), _number(parts[1], "hole"))
        if "w" in options and options["w"] != "-":
            winner = _number(options["w"], "winner track")
        if "q" in options:
            if options["q"] not in ("1", "-"):
                raise StateSyntaxError(f"question {options['q']!r} is not 1 or -")
            question = options["q"] == "1"
        return cls(mode, brightness, (pegs[0], pegs[1]), tentative, winner, question)

    @classmethod
    def from_command(cls, args: Iterable[str]) -> BoardState:
        """Parse the arguments of a ``STATE`` command (or of the reply to ``GET``)."""
        try:
            options = key_values(args)
        except ValueError as error:
            raise StateSyntaxError(str(error)) from None
        return cls.from_options(options)
