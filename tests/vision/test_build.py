"""The build's drawn decks: the shapes the networks learn from.

These need the ``train`` extra (Pillow) and Debian's font packages, as the build does; the test run of
CI installs neither, so there they are skipped.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

import numpy as np
import numpy.typing as npt
import pytest

from companion.vision import build

pytest.importorskip("PIL", reason="drawing decks in typefaces needs the train extra (Pillow)")

_WITH_EZH = Path("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")
_WITHOUT_EZH = Path("/usr/share/fonts/truetype/liberation/LiberationSans-Regular.ttf")


def _style(face: Path, flat_three: bool) -> build.DeckStyle:
    if not face.is_file():
        pytest.skip(f"{face.name} is not installed (see the build's font packages)")
    plain = build.random_style(np.random.default_rng(7), [face])
    return dataclasses.replace(
        plain, face=str(face), thick=0.0, slant=0.0, bend=0.0, squash=1.0, flat_three=flat_three
    )


def _glyph(text: str, style: build.DeckStyle) -> npt.NDArray[np.bool_]:
    return np.asarray(build._glyph(text, style, 120) > 100)


def test_a_flat_three_deck_prints_its_three_with_a_bar_over_a_diagonal() -> None:
    flat, round_ = _style(_WITH_EZH, True), _style(_WITH_EZH, False)
    three = _glyph("3", flat)

    # The top of a flat 3 is one straight bar: its upper edge sits on the same row across the middle
    # of the glyph, where a round 3's arch falls away towards its ends.
    def top_edge_spread(mask: npt.NDArray[np.bool_]) -> int:
        w = mask.shape[1]
        cols = [np.flatnonzero(mask[:, x])[0] for x in range(w // 5, w - w // 5) if mask[:, x].any()]
        return int(max(cols) - min(cols))

    assert top_edge_spread(three) <= 2
    assert top_edge_spread(_glyph("3", round_)) > 2


def test_only_the_three_changes() -> None:
    flat, round_ = _style(_WITH_EZH, True), _style(_WITH_EZH, False)
    for rank in ("A", "5", "10", "K"):
        assert np.array_equal(_glyph(rank, flat), _glyph(rank, round_))


def test_a_face_without_the_flat_three_keeps_its_own() -> None:
    flat, round_ = _style(_WITHOUT_EZH, True), _style(_WITHOUT_EZH, False)
    assert np.array_equal(_glyph("3", flat), _glyph("3", round_))


@pytest.mark.parametrize("share", [0.0, 0.3])
def test_about_the_chosen_share_of_typeface_decks_have_a_flat_three(
    share: float, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(build.FLAT_THREES, "share", share)
    rng = np.random.default_rng(11)
    styles = [build.random_style(rng, [_WITH_EZH]) for _ in range(2000)]
    typeface = [s for s in styles if s.face]
    assert abs(sum(s.flat_three for s in typeface) / len(typeface) - share) < 0.05
    assert not any(s.flat_three for s in styles if not s.face)  # Hershey decks have no such glyph
