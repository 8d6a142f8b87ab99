"""A recogniser decides by the settings it is given, and the shipped ones are those it uses unasked."""

from __future__ import annotations

from dataclasses import FrozenInstanceError, replace

import pytest

from companion.vision.recognise import Recogniser
from companion.vision.settings import SHIPPED, ReadingSettings, RecognitionSettings
from companion.vision.types import UNKNOWN

from .conftest import crop


def test_the_shipped_settings_are_the_default() -> None:
    assert Recogniser().settings == SHIPPED == RecognitionSettings()


def test_settings_cannot_be_changed_in_place() -> None:
    with pytest.raises(FrozenInstanceError):
        SHIPPED.reading.accept = 0.5  # type: ignore[misc]


def test_a_bar_no_reading_can_reach_leaves_a_card_unnamed(recogniser: Recogniser) -> None:
    """The same card photo, named with the shipped bar, is only an unreadable index when naming asks
    for more than certainty: the bar is read from the settings given, not from the module. (Its pips
    are not counted here: two unsure corners whose middle plainly shows seven hearts are named by it.)"""
    picture = crop("7h")
    assert "7h" in {s.label for s in recogniser.detect(picture)}
    unreachable = ReadingSettings(accept=1.01, freed_accept=1.01)
    strict = Recogniser(settings=replace(SHIPPED, reading=unreachable), backs=False, pips=False)
    labels = {s.label for s in strict.detect(picture)}
    assert labels and labels <= {UNKNOWN}


def test_reading_settings_raise_the_bar_for_freed_glyphs() -> None:
    reading = ReadingSettings()
    assert reading.needed(freed=False) == reading.accept < reading.needed(freed=True) == reading.freed_accept
