"""The knobs and buttons on a real Raspberry Pi: ``pytest --hardware tests/test_controls_hardware.py``.

Run on the Pi with the controls wired as documented (companion/controls.py, hardware/README.md). The
first test only claims every default pin with gpiozero's real pin factory and reads it idle; the second
asks the person at the bench to turn player 0's knob one click clockwise within 20 seconds.
"""

from __future__ import annotations

import queue

import pytest

from companion.controls import ControlPins, TableControls
from companion.events import DialClaim, Event

pytestmark = pytest.mark.hardware


def test_every_default_pin_can_be_claimed_and_reads_idle() -> None:
    events: queue.Queue[Event] = queue.Queue()
    with TableControls(events.put, ControlPins()) as controls:
        assert len(controls._devices) == 7
        for device in controls._devices:
            assert not getattr(device, "is_pressed", False), f"{device} reads pressed with nobody at it"
    assert events.empty()


def test_turning_player_0s_knob_clockwise_dials_up() -> None:
    events: queue.Queue[Event] = queue.Queue()
    with TableControls(events.put, ControlPins()):
        print("\nturn player 0's knob one click clockwise")
        event = events.get(timeout=20)
    assert event == DialClaim(0, +1)
