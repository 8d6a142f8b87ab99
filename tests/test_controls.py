"""The table's knobs and buttons, driven through gpiozero's mock pins (the same code runs on a Pi)."""

from __future__ import annotations

import json
import queue
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from gpiozero.pins.mock import MockFactory

from companion.app.config import TableConfig
from companion.app.store import Journal
from companion.app.table import Table
from companion.controls import ControlPins, PlayerPins, TableControls
from companion.events import CallMuggins, CardLanded, DialClaim, Event, NewGame, PegClaim, Undo


@pytest.fixture
def factory() -> Iterator[MockFactory]:
    made = MockFactory()
    yield made
    made.reset()
    made.close()


def make(factory: MockFactory, **pins: object) -> tuple[TableControls, queue.Queue[Event]]:
    posted: queue.Queue[Event] = queue.Queue()
    settings = ControlPins(bounce=None, **pins)  # type: ignore[arg-type]
    return TableControls(posted.put, settings, pin_factory=factory), posted


def drained(posted: queue.Queue[Event]) -> list[Event]:
    out = []
    while True:
        try:
            out.append(posted.get_nowait())
        except queue.Empty:
            return out


def turn(factory: MockFactory, a: int, b: int, clicks: int) -> None:
    """Drive the encoder's two pins through full quadrature cycles.

    With pull-ups a pin reads active when driven low.  Clockwise, A leads: A on, B on, A off, B off.
    Counter-clockwise, B leads.
    """
    first, second = (a, b) if clicks > 0 else (b, a)
    for _ in range(abs(clicks)):
        factory.pin(first).drive_low()
        factory.pin(second).drive_low()
        factory.pin(first).drive_high()
        factory.pin(second).drive_high()


def test_turning_a_knob_clockwise_dials_the_claim_up_one_step_per_detent(factory: MockFactory) -> None:
    controls, posted = make(factory)
    with controls:
        turn(factory, 17, 18, 3)
    assert drained(posted) == [DialClaim(0, +1)] * 3


def test_turning_a_knob_counter_clockwise_dials_down(factory: MockFactory) -> None:
    controls, posted = make(factory)
    with controls:
        turn(factory, 23, 24, -2)
        turn(factory, 23, 24, 1)
    assert drained(posted) == [DialClaim(1, -1), DialClaim(1, -1), DialClaim(1, +1)]


def test_a_half_turn_that_springs_back_dials_nothing(factory: MockFactory) -> None:
    controls, posted = make(factory)
    with controls:
        factory.pin(17).drive_low()
        factory.pin(18).drive_low()
        factory.pin(18).drive_high()
        factory.pin(17).drive_high()
    assert drained(posted) == []


def test_pressing_the_knob_pegs_for_that_player_only(factory: MockFactory) -> None:
    controls, posted = make(factory)
    with controls:
        factory.pin(25).drive_low()
        factory.pin(25).drive_high()
        factory.pin(27).drive_low()
        factory.pin(27).drive_high()
    assert drained(posted) == [PegClaim(1), PegClaim(0)]


def test_while_a_card_is_asked_about_the_knobs_pick_the_answer(factory: MockFactory) -> None:
    table = Table(Journal(":memory:"), TableConfig(players=("Ann", "Bob"), mode="auto", pin="1234"))
    for card, zone in (("Ah", "player0"), ("Kd", "player1"), ("2c", "starter"), ("10s", "player1")):
        table.handle(CardLanded(card, zone))
    table.handle(CardLanded("unknown", "player0"))
    assert table.correction is not None
    choices = table.correction.choices
    controls, posted = make(factory)
    with controls:
        turn(factory, 23, 24, 3)  # Bob's knob three detents on
        turn(factory, 17, 18, -1)  # Ann's one back
        for event in drained(posted):
            table.handle(event)
        assert table.highlighted == 2
        factory.pin(27).drive_low()  # Ann presses her knob
        factory.pin(27).drive_high()
        for event in drained(posted):
            table.handle(event)
    assert table.correction is None
    assert table.notice == f"corrected: {choices[2]} in front of Ann"
    laid = table.game.snapshot().deal_cards
    assert [(player, str(card)) for player, card in laid] == [(1, "10s"), (0, choices[2])]


def test_the_muggins_buttons_call_muggins_for_their_player(factory: MockFactory) -> None:
    controls, posted = make(factory)
    with controls:
        factory.pin(5).drive_low()
        factory.pin(5).drive_high()
        factory.pin(22).drive_low()
        factory.pin(22).drive_high()
    assert drained(posted) == [CallMuggins(1), CallMuggins(0)]


def test_a_short_press_of_undo_takes_back_one_action(factory: MockFactory) -> None:
    controls, posted = make(factory, hold_for_new_game=0.3)
    with controls:
        factory.pin(6).drive_low()
        time.sleep(0.05)
        factory.pin(6).drive_high()
    assert drained(posted) == [Undo()]


def test_holding_undo_starts_a_new_game_and_does_not_also_undo(factory: MockFactory) -> None:
    controls, posted = make(factory, hold_for_new_game=0.1)
    with controls:
        factory.pin(6).drive_low()
        deadline = time.monotonic() + 3
        while posted.empty() and time.monotonic() < deadline:
            time.sleep(0.01)
        time.sleep(0.15)  # still held: a hold fires once, not repeatedly
        factory.pin(6).drive_high()
    assert drained(posted) == [NewGame()]


def test_pins_are_configurable_and_the_old_ones_are_then_ignored(factory: MockFactory) -> None:
    pins = ControlPins.from_mapping({"player0": [2, 3, 4, 7], "undo": 8})
    assert pins.players[0] == PlayerPins(2, 3, 4, 7)
    assert pins.undo == 8
    posted: queue.Queue[Event] = queue.Queue()
    with TableControls(posted.put, pins, pin_factory=factory):
        turn(factory, 2, 3, 1)
        factory.pin(4).drive_low()
        factory.pin(17).drive_low()  # the default pin is no longer a control
    assert drained(posted) == [DialClaim(0, 1), PegClaim(0)]


def test_closing_releases_every_pin_so_they_can_be_claimed_again(factory: MockFactory) -> None:
    controls, _ = make(factory)
    controls.close()
    controls.close()  # idempotent
    again, posted = make(factory)
    with again:
        factory.pin(27).drive_low()
    assert drained(posted) == [PegClaim(0)]


@pytest.mark.parametrize(
    ("settings", "message"),
    [
        ({"player0": [17, 18, 27, 6]}, "pin 6 is given to two controls"),
        ({"player1": [1, 2, 3]}, "four pin numbers"),
        ({"undo": 40}, "not a GPIO pin"),
        ({"knob": 3}, "no key 'knob'"),
    ],
)
def test_bad_pin_settings_are_refused_with_a_sentence(settings: dict[str, object], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        ControlPins.from_mapping(settings)


def test_default_pins_are_the_wiring_named_in_the_board_layout() -> None:
    # The wiring is hardware: the layout file the drawings are made from names every pin.
    layout = Path(__file__).resolve().parents[1] / "companion" / "board" / "layout.json"
    wiring = json.loads(layout.read_text(encoding="utf-8"))["gpio"]
    pins = ControlPins()
    assert [list(player.pins()) for player in pins.players] == [wiring["player0"], wiring["player1"]]
    assert pins.undo == wiring["undo"]
