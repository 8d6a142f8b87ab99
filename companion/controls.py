"""The knobs and buttons at the table, read with gpiozero, turned into events for the game loop.

Each player has a rotary encoder with a push button -- turn it to dial a claim (the board blinks the
tentative forward peg as it moves), press it to peg the claim, or, in the play with nothing dialled, to
say "go" -- and a muggins button.  One undo button sits between them: a short press takes back the last
action, holding it for :attr:`ControlPins.hold_for_new_game` seconds starts a new game.

The knobs only say what was done to them (turned so many detents, pressed); what that means is the
table's to decide.  While the table asks about a card it cannot place (the board flashes white), the same
turn moves the highlight through the offered cards and the same press answers with the highlighted one.

The callbacks run on gpiozero's own threads, so they do nothing but post a frozen event through the
``post`` function they are given (normally the game loop's queue).  The game is never touched here.

The default wiring is hardware data: the ``gpio`` entry of the board's layout
(``companion/board/layout.json``, written by ``hardware/make_layout.py``), the same file the builder's
wiring diagram is drawn from.  As shipped (BCM numbers; every switch between the pin and ground,
gpiozero's internal pull-ups)::

    player 0 knob  A=17  B=18  press=27   muggins=22
    player 1 knob  A=23  B=24  press=25   muggins=5
    undo                                  undo=6

The ``[gpio]`` section of the config file overrides any of them.

Off the Pi, pass gpiozero's ``MockFactory`` (or set ``GPIOZERO_PIN_FACTORY=mock``): the same code runs
against mock pins that tests drive low and high.
"""

from __future__ import annotations

import itertools
import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from types import TracebackType
from typing import Any

from companion.board.layout import default_layout
from companion.events import CallMuggins, DialClaim, Event, NewGame, PegClaim, Undo

__all__ = ["ControlPins", "PlayerPins", "TableControls"]


@dataclass(frozen=True, slots=True)
class PlayerPins:
    """One player's controls: the knob's two encoder pins, its push button and the muggins button."""

    knob_a: int
    knob_b: int
    knob_press: int
    muggins: int

    def pins(self) -> tuple[int, ...]:
        return (self.knob_a, self.knob_b, self.knob_press, self.muggins)


@dataclass(frozen=True, slots=True)
class ControlPins:
    """Which GPIO pin each control is on, and the timings; the defaults are the board's wiring."""

    players: tuple[PlayerPins, ...] = field(default_factory=lambda: _wired_players())
    undo: int = field(default_factory=lambda: _wired_undo())
    hold_for_new_game: float = 2.0
    """Seconds the undo button must be held to start a new game instead."""
    bounce: float | None = 0.01
    """Debounce for the push buttons in seconds (None: none, as with hardware debouncing)."""

    def __post_init__(self) -> None:
        used = [pin for player in self.players for pin in player.pins()] + [self.undo]
        clashes = sorted({pin for pin in used if used.count(pin) > 1})
        if clashes:
            raise ValueError(f"GPIO pin {clashes[0]} is given to two controls; each needs its own pin")
        if not self.players:
            raise ValueError("the controls need at least one player's knob")
        if self.hold_for_new_game <= 0:
            raise ValueError("the hold time for a new game must be more than zero seconds")

    @classmethod
    def from_mapping(cls, data: Mapping[str, Any]) -> ControlPins:
        """Read the ``[gpio]`` section of the config file.

        Keys: ``player0 = [A, B, press, muggins]``, ``player1 = [...]``, ``undo = N``,
        ``hold_for_new_game = seconds``; any key left out keeps its default.
        """
        default = cls()
        players = list(default.players)
        known = {"player0", "player1", "undo", "hold_for_new_game", "bounce"}
        unknown = sorted(set(data) - known)
        if unknown:
            listed = ", ".join(sorted(known))
            raise ValueError(f"the gpio settings have no key {unknown[0]!r} (known: {listed})")
        for index in range(len(players)):
            key = f"player{index}"
            if key in data:
                value = data[key]
                if not isinstance(value, list | tuple) or len(value) != 4:
                    raise ValueError(f"gpio {key} must be four pin numbers: knob A, knob B, press, muggins")
                a, b, press, muggins = (_pin(key, v) for v in value)
                players[index] = PlayerPins(a, b, press, muggins)
        hold = data.get("hold_for_new_game", default.hold_for_new_game)
        bounce = data.get("bounce", default.bounce)
        return cls(
            players=tuple(players),
            undo=_pin("undo", data.get("undo", default.undo)),
            hold_for_new_game=float(hold),
            bounce=None if bounce is None else float(bounce),
        )


def _wiring() -> dict[str, Any]:
    """The ``gpio`` entry of the board's layout, checked once for its shape."""
    wiring = default_layout().gpio
    if "undo" not in wiring or "player0" not in wiring:
        raise ValueError("the board's layout names no GPIO pins for the knobs and buttons (its 'gpio' entry)")
    return wiring


def _wired_players() -> tuple[PlayerPins, ...]:
    wiring = _wiring()
    players = []
    for index in itertools.count():
        value = wiring.get(f"player{index}")
        if value is None:
            break
        if not isinstance(value, list | tuple) or len(value) != 4:
            raise ValueError(
                f"the layout's gpio player{index} must be four pins: knob A, knob B, press, muggins"
            )
        a, b, press, muggins = (_pin(f"player{index}", pin) for pin in value)
        players.append(PlayerPins(a, b, press, muggins))
    return tuple(players)


def _wired_undo() -> int:
    return _pin("undo", _wiring()["undo"])


def _pin(key: str, value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 27:
        raise ValueError(f"gpio {key}: {value!r} is not a GPIO pin number (0-27)")
    return value


class TableControls:
    """The table's knobs and buttons, posting events; a context manager, ``close()`` is idempotent.

    ``pin_factory`` is passed to every gpiozero device (None: gpiozero's default, the real pins on a Pi).
    """

    def __init__(
        self,
        post: Callable[[Event], None],
        pins: ControlPins | None = None,
        *,
        pin_factory: Any = None,
    ) -> None:
        from gpiozero import Button, RotaryEncoder

        self.pins = pins or ControlPins()
        self._post = post
        self._devices: list[Any] = []
        self._undo_held = threading.Event()
        try:
            for player, wiring in enumerate(self.pins.players):
                knob = RotaryEncoder(wiring.knob_a, wiring.knob_b, max_steps=0, pin_factory=pin_factory)
                knob.when_rotated_clockwise = self._dial(player, +1)
                knob.when_rotated_counter_clockwise = self._dial(player, -1)
                press = Button(wiring.knob_press, bounce_time=self.pins.bounce, pin_factory=pin_factory)
                press.when_pressed = self._peg(player)
                muggins = Button(wiring.muggins, bounce_time=self.pins.bounce, pin_factory=pin_factory)
                muggins.when_pressed = self._muggins(player)
                self._devices += [knob, press, muggins]
            undo = Button(
                self.pins.undo,
                bounce_time=self.pins.bounce,
                hold_time=self.pins.hold_for_new_game,
                pin_factory=pin_factory,
            )
            undo.when_pressed = self._undo_pressed
            undo.when_held = self._undo_hold
            undo.when_released = self._undo_released
            self._devices.append(undo)
        except BaseException:
            self.close()
            raise

    # Each callback takes gpiozero's optional device argument and ignores it.
    def _dial(self, player: int, steps: int) -> Callable[..., None]:
        def turned(*_: object) -> None:
            self._post(DialClaim(player, steps))

        return turned

    def _peg(self, player: int) -> Callable[..., None]:
        def pressed(*_: object) -> None:
            self._post(PegClaim(player))

        return pressed

    def _muggins(self, player: int) -> Callable[..., None]:
        def pressed(*_: object) -> None:
            self._post(CallMuggins(player))

        return pressed

    def _undo_pressed(self, *_: object) -> None:
        self._undo_held.clear()

    def _undo_hold(self, *_: object) -> None:
        # Held long enough: this press means a new game, and its release must not also undo.
        self._undo_held.set()
        self._post(NewGame())

    def _undo_released(self, *_: object) -> None:
        if not self._undo_held.is_set():
            self._post(Undo())
        self._undo_held.clear()

    def close(self) -> None:
        """Release every pin (safe to call twice)."""
        devices, self._devices = self._devices, []
        for device in reversed(devices):
            device.close()

    def __enter__(self) -> TableControls:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        self.close()
