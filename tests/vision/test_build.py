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


def _top_edge_spread(mask: npt.NDArray[np.bool_]) -> int:
    """How far the glyph's upper edge rises and falls across the middle three fifths of its width."""
    w = mask.shape[1]
    cols = [np.flatnonzero(mask[:, x])[0] for x in range(w // 5, w - w // 5) if mask[:, x].any()]
    return int(max(cols) - min(cols))


def test_a_flat_three_deck_prints_its_three_with_a_bar_over_a_diagonal() -> None:
    flat, round_ = _style(_WITH_EZH, True), _style(_WITH_EZH, False)
    # The top of a flat 3 is one straight bar: its upper edge sits on the same row across the middle
    # of the glyph, where a round 3's arch falls away towards its ends.
    assert _top_edge_spread(_glyph("3", flat)) <= 2
    assert _top_edge_spread(_glyph("3", round_)) > 2


def test_only_the_three_changes() -> None:
    flat, round_ = _style(_WITH_EZH, True), _style(_WITH_EZH, False)
    for rank in ("A", "5", "10", "K"):
        assert np.array_equal(_glyph(rank, flat), _glyph(rank, round_))


def test_a_face_without_the_flat_three_keeps_its_own() -> None:
    flat, round_ = _style(_WITHOUT_EZH, True), _style(_WITHOUT_EZH, False)
    assert np.array_equal(_glyph("3", flat), _glyph("3", round_))


def test_with_drawn_flat_threes_a_face_without_one_gets_a_flat_top_over_its_own_lower_bowl(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setitem(build.FLAT_THREES, "drawn", True)
    flat, round_ = _style(_WITHOUT_EZH, True), _style(_WITHOUT_EZH, False)
    three, own = _glyph("3", flat), _glyph("3", round_)
    assert _top_edge_spread(three) <= 2
    assert _top_edge_spread(own) > 2
    # Below the head, the face's own 3 is kept as it was: the lowest third of both glyphs agrees,
    # but for the anti-aliased rim.
    assert three.shape == own.shape
    low = slice(2 * three.shape[0] // 3, None)
    assert (three[low] != own[low]).mean() < 0.02
    # A bar, not an arch: the top quarter of the glyph has ink right across it, in one row at least.
    head = three[: three.shape[0] // 4]
    assert head.sum(axis=1).max() >= 0.7 * three.shape[1]
    assert head.sum(axis=1).max() > own[: own.shape[0] // 4].sum(axis=1).max()


def test_drawn_flat_threes_leave_faces_with_their_own_and_every_other_rank_alone(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    before = {face: _glyph("3", _style(face, True)) for face in (_WITH_EZH,)}
    monkeypatch.setitem(build.FLAT_THREES, "drawn", True)
    assert np.array_equal(_glyph("3", _style(_WITH_EZH, True)), before[_WITH_EZH])
    flat, round_ = _style(_WITHOUT_EZH, True), _style(_WITHOUT_EZH, False)
    for rank in ("A", "5", "8", "10", "K"):
        assert np.array_equal(_glyph(rank, flat), _glyph(rank, round_))


def _styles(
    setting: dict[str, float | bool], share: float, seed: int, monkeypatch: pytest.MonkeyPatch
) -> tuple[list[build.DeckStyle], list[build.DeckStyle]]:
    """2000 decks' styles drawn with ``setting``'s share at ``share``: the typeface decks, the rest."""
    monkeypatch.setitem(setting, "share", share)
    rng = np.random.default_rng(seed)
    styles = [build.random_style(rng, [_WITH_EZH]) for _ in range(2000)]
    return [s for s in styles if s.face], [s for s in styles if not s.face]


@pytest.mark.parametrize("share", [0.0, 0.3, 0.6])
def test_about_the_chosen_share_of_typeface_decks_have_a_flat_three(
    share: float, monkeypatch: pytest.MonkeyPatch
) -> None:
    typeface, hershey = _styles(build.FLAT_THREES, share, 11, monkeypatch)
    assert abs(sum(s.flat_three for s in typeface) / len(typeface) - share) < 0.05
    assert not any(s.flat_three for s in hershey)  # Hershey decks have no such glyph


@pytest.mark.parametrize("face", [_WITH_EZH, _WITHOUT_EZH])
def test_a_barred_jack_deck_prints_a_bar_across_the_top_of_its_stem_reaching_past_it(face: Path) -> None:
    plain = _style(face, False)
    barred, own = _glyph("J", dataclasses.replace(plain, barred_jack=True)), _glyph("J", plain)
    # Below the bar the face's own J is kept (found where it lies: a bar reaching left of the glyph
    # moves the rest right), but for the anti-aliased rim.
    assert barred.shape[0] == own.shape[0]
    low = slice(own.shape[0] // 4, None)
    shifts = range(barred.shape[1] - own.shape[1] + 1)
    shift = min(shifts, key=lambda k: int((barred[low, k : k + own.shape[1]] != own[low]).sum()))
    assert (barred[low, shift : shift + own.shape[1]] != own[low]).mean() < 0.02
    # Its top row: a bar reaching past the face's own top on both sides.
    bar, top = np.flatnonzero(barred[1]), np.flatnonzero(own[1]) + shift
    assert bar.min() < top.min() and bar.max() > top.max()


def test_barred_jacks_leave_every_other_rank_alone() -> None:
    plain = _style(_WITHOUT_EZH, False)
    barred = dataclasses.replace(plain, barred_jack=True)
    for rank in ("A", "3", "7", "10", "Q", "K"):
        assert np.array_equal(_glyph(rank, barred), _glyph(rank, plain))


@pytest.mark.parametrize("share", [0.0, 0.3])
def test_about_the_chosen_share_of_typeface_decks_have_a_barred_jack(
    share: float, monkeypatch: pytest.MonkeyPatch
) -> None:
    typeface, hershey = _styles(build.BARRED_JACKS, share, 13, monkeypatch)
    assert abs(sum(s.barred_jack for s in typeface) / len(typeface) - share) < 0.05
    assert not any(s.barred_jack for s in hershey)
    # Chosen apart from the flat threes: about the share of flat-three decks have a barred J as well.
    if share:
        flat = [s for s in typeface if s.flat_three]
        assert abs(sum(s.barred_jack for s in flat) / len(flat) - share) < 0.1


def _drawn(label: str, beside: bool, monkeypatch: pytest.MonkeyPatch) -> tuple[build.CardArt, float]:
    """A card of one drawn deck, and the next number its scene's generator gives after drawing it."""
    if not _WITH_EZH.is_file():
        pytest.skip(f"{_WITH_EZH.name} is not installed (see the build's font packages)")
    monkeypatch.setitem(build.COURT_FRAMES, "beside", beside)
    style = dataclasses.replace(
        build.random_style(np.random.default_rng(5), [_WITH_EZH]), face=str(_WITH_EZH)
    )
    shapes = {s: [np.full((20, 16), 255, np.uint8)] for s in "cdhs"}
    rng = np.random.default_rng(9)
    art = build.draw_card(rng, label, style, shapes)
    return art, float(rng.random())


def test_frames_beside_the_index_change_only_the_court_cards_and_draw_nothing_else_anew(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The option must leave every other card of every scene as it was, so that builds with and
    # without it differ only where it acts.
    for label in ("5h", "Ac", "10s"):
        (plain, after_plain), (beside, after_beside) = (_drawn(label, b, monkeypatch) for b in (False, True))
        assert np.array_equal(plain.image, beside.image)
        assert after_plain == after_beside
    (plain, after_plain), (beside, after_beside) = (_drawn("Kd", b, monkeypatch) for b in (False, True))
    assert not np.array_equal(plain.image, beside.image)
    assert after_plain == after_beside
    assert plain.marks == beside.marks  # the index itself is where it was


@pytest.mark.parametrize("seed", range(40))
def test_a_court_frame_starts_just_right_of_the_index_and_level_with_it(seed: int) -> None:
    style = build.random_style(np.random.default_rng(seed))
    w, h = build.CARD_W, round(build.CARD_W * style.aspect)
    right, bottom = 0.16 * w, 0.2 * h
    x0, y0 = build._court_frame(style, right, bottom, w, h)
    assert right < x0 <= right + 0.06 * w + 1
    assert y0 < 0.16 * h  # beside the rank glyph, not below the suit mark
    # One deck puts the frame of all its courts in one place.
    assert build._court_frame(style, right, bottom, w, h) == (x0, y0)


def test_an_index_too_wide_for_a_frame_beside_it_has_the_frame_below() -> None:
    style = build.random_style(np.random.default_rng(1))
    w, h = build.CARD_W, round(build.CARD_W * style.aspect)
    x0, y0 = build._court_frame(style, 0.33 * w, 0.2 * h, w, h)
    assert y0 > 0.2 * h
    assert x0 < 0.33 * w


def test_the_jumbo_deck_for_scenes_of_its_own_has_every_card_with_its_index_above_its_suit() -> None:
    pytest.importorskip("cairosvg", reason="rendering the vector decks needs the train extra (cairosvg)")
    faces = build.load_jumbo_deck()  # the demo deck's design
    labels = [face.label for face in faces]
    assert sorted(labels) == sorted(r + s for r in build.RANK_TEXTS for s in build.SUIT_TEXTS)
    for face in faces:
        (rx, ry), (sx, sy), _ = face.marks[0]
        # Upright in the top-left corner: the suit mark about a glyph below the rank, not beside it.
        assert 30 < sy - ry < 70 and abs(sx - rx) < 10, face.label
        assert rx < 0.3 * face.image.shape[1] and ry < 0.3 * face.image.shape[0], face.label
