"""The build's drawn decks and scenes: the shapes and pictures the networks learn from.

Most of these need the ``train`` extra (Pillow, cairosvg) and Debian's font packages, as the build
does; the test run of CI installs neither, so there they are skipped. The scenes of the real deck need
neither, and are checked everywhere.
"""

from __future__ import annotations

import dataclasses
import hashlib
import importlib.util
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt
import pytest

from companion.vision import cnn
from companion.vision import index as idx
from companion.vision.mlp import RANK_TEXTS, SUIT_TEXTS
from companion.vision.recognise import DEFAULT_MODEL, NAMER_FILE, NAMER_GRAPH
from tools.vision_build import cli, datasets, decks, drawing, graph, scenes
from tools.vision_build.options import CARD_W, Options
from tools.vision_build.typefaces import typeface_files

from .conftest import random_namer

_WITH_EZH = Path("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")
_WITHOUT_EZH = Path("/usr/share/fonts/truetype/liberation/LiberationSans-Regular.ttf")


def _style(face: Path, flat_three: bool, drawn: bool = False) -> drawing.DeckStyle:
    pytest.importorskip("PIL", reason="drawing decks in typefaces needs the train extra (Pillow)")
    if not face.is_file():
        pytest.skip(f"{face.name} is not installed (see the build's font packages)")
    plain = drawing.random_style(np.random.default_rng(7), [face], options=Options(drawn_flat_threes=drawn))
    return dataclasses.replace(
        plain, face=str(face), thick=0.0, slant=0.0, bend=0.0, squash=1.0, flat_three=flat_three
    )


def _glyph(text: str, style: drawing.DeckStyle) -> npt.NDArray[np.bool_]:
    return np.asarray(drawing._glyph(text, style, 120) > 100)


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


def test_with_drawn_flat_threes_a_face_without_one_gets_a_flat_top_over_its_own_lower_bowl() -> None:
    flat, round_ = _style(_WITHOUT_EZH, True, drawn=True), _style(_WITHOUT_EZH, False, drawn=True)
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


def test_drawn_flat_threes_leave_faces_with_their_own_and_every_other_rank_alone() -> None:
    before = {face: _glyph("3", _style(face, True)) for face in (_WITH_EZH,)}
    assert np.array_equal(_glyph("3", _style(_WITH_EZH, True, drawn=True)), before[_WITH_EZH])
    flat, round_ = _style(_WITHOUT_EZH, True, drawn=True), _style(_WITHOUT_EZH, False, drawn=True)
    for rank in ("A", "5", "8", "10", "K"):
        assert np.array_equal(_glyph(rank, flat), _glyph(rank, round_))


def _styles(options: Options, seed: int) -> tuple[list[drawing.DeckStyle], list[drawing.DeckStyle]]:
    """2000 decks' styles drawn with ``options``: the typeface decks, the rest."""
    rng = np.random.default_rng(seed)
    styles = [drawing.random_style(rng, [_WITH_EZH], options=options) for _ in range(2000)]
    return [s for s in styles if s.face], [s for s in styles if not s.face]


@pytest.mark.parametrize("share", [0.0, 0.3, 0.6])
def test_about_the_chosen_share_of_typeface_decks_have_a_flat_three(share: float) -> None:
    typeface, hershey = _styles(Options(flat_threes=share), 11)
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
def test_about_the_chosen_share_of_typeface_decks_have_a_barred_jack(share: float) -> None:
    typeface, hershey = _styles(Options(barred_jacks=share), 13)
    assert abs(sum(s.barred_jack for s in typeface) / len(typeface) - share) < 0.05
    assert not any(s.barred_jack for s in hershey)
    # Chosen apart from the flat threes: about the share of flat-three decks have a barred J as well.
    if share:
        flat = [s for s in typeface if s.flat_three]
        assert abs(sum(s.barred_jack for s in flat) / len(flat) - share) < 0.1


def _drawn(label: str, beside: bool) -> tuple[decks.CardArt, float]:
    """A card of one drawn deck, and the next number its scene's generator gives after drawing it."""
    pytest.importorskip("PIL", reason="drawing decks in typefaces needs the train extra (Pillow)")
    if not _WITH_EZH.is_file():
        pytest.skip(f"{_WITH_EZH.name} is not installed (see the build's font packages)")
    options = Options(court_frames_beside=beside)
    style = dataclasses.replace(
        drawing.random_style(np.random.default_rng(5), [_WITH_EZH], options=options), face=str(_WITH_EZH)
    )
    shapes = {s: [np.full((20, 16), 255, np.uint8)] for s in "cdhs"}
    rng = np.random.default_rng(9)
    art = drawing.draw_card(rng, label, style, shapes)
    return art, float(rng.random())


def test_frames_beside_the_index_change_only_the_court_cards_and_draw_nothing_else_anew() -> None:
    # The option must leave every other card of every scene as it was, so that builds with and
    # without it differ only where it acts.
    for label in ("5h", "Ac", "10s"):
        (plain, after_plain), (beside, after_beside) = (_drawn(label, b) for b in (False, True))
        assert np.array_equal(plain.image, beside.image)
        assert after_plain == after_beside
    (plain, after_plain), (beside, after_beside) = (_drawn("Kd", b) for b in (False, True))
    assert not np.array_equal(plain.image, beside.image)
    assert after_plain == after_beside
    assert plain.marks == beside.marks  # the index itself is where it was


@pytest.mark.parametrize("seed", range(40))
def test_a_court_frame_starts_just_right_of_the_index_and_level_with_it(seed: int) -> None:
    style = drawing.random_style(np.random.default_rng(seed))
    w, h = CARD_W, round(CARD_W * style.aspect)
    right, bottom = 0.16 * w, 0.2 * h
    x0, y0 = drawing._court_frame(style, right, bottom, w, h)
    assert right < x0 <= right + 0.06 * w + 1
    assert y0 < 0.16 * h  # beside the rank glyph, not below the suit mark
    # One deck puts the frame of all its courts in one place.
    assert drawing._court_frame(style, right, bottom, w, h) == (x0, y0)


def test_an_index_too_wide_for_a_frame_beside_it_has_the_frame_below() -> None:
    style = drawing.random_style(np.random.default_rng(1))
    w, h = CARD_W, round(CARD_W * style.aspect)
    x0, y0 = drawing._court_frame(style, 0.33 * w, 0.2 * h, w, h)
    assert y0 > 0.2 * h
    assert x0 < 0.33 * w


def test_the_jumbo_deck_for_scenes_of_its_own_has_every_card_with_its_index_above_its_suit() -> None:
    pytest.importorskip("cairosvg", reason="rendering the vector decks needs the train extra (cairosvg)")
    faces = decks.load_jumbo_deck()  # the demo deck's design
    labels = [face.label for face in faces]
    assert sorted(labels) == sorted(r + s for r in RANK_TEXTS for s in SUIT_TEXTS)
    for face in faces:
        (rx, ry), (sx, sy), _ = face.marks[0]
        # Upright in the top-left corner: the suit mark about a glyph below the rank, not beside it.
        assert 30 < sy - ry < 70 and abs(sx - rx) < 10, face.label
        assert rx < 0.3 * face.image.shape[1] and ry < 0.3 * face.image.shape[0], face.label


# ---------------------------------------------------------------------------------------- reproduction
#
# The shipped networks are what a build from scratch gives (docs/contributing.md), and a build takes
# hours; so the cheap part of it is pinned instead: the scenes, the candidates found on them, their
# labels and the patches cut out, digested. The digests were taken from the build as it was when the
# shipped networks were made (before it moved out of the package), and the same code here must still
# give them: any change to how scenes are drawn or degraded -- the order numbers are drawn in
# included -- changes what a rebuild gives, and must come with rebuilt networks. They hold for the
# NumPy and OpenCV of the lock file (another JPEG coder or resize may round differently).


def _digest(arrays: list[npt.NDArray[Any]]) -> str:
    out = hashlib.sha256()
    for a in arrays:
        out.update(f"{a.dtype}{a.shape}".encode())
        out.update(np.ascontiguousarray(a).tobytes())
    return out.hexdigest()[:16]


def _scene_samples(faces: list[decks.CardArt], backs: list[decks.CardArt], rng: np.random.Generator) -> str:
    """Two scenes of ``faces`` and what the build takes from them, digested."""
    arrays: list[npt.NDArray[Any]] = []
    for _ in range(2):
        img, truth = scenes.make_scene(rng, faces, backs)
        cands = idx.find_candidates(np.asarray(cv2.cvtColor(img, cv2.COLOR_BGR2GRAY), np.uint8))
        rank, suit, use = datasets.label_candidates(cands, truth)
        arrays += [img, rank, suit, use, idx.patches(img, cands), cnn.cut(img, cands)]
        arrays += [np.array([label == "partial", visible]) for label, _, _, visible in truth]
        arrays += [np.array([*r, *s]) for _, r, s, _ in truth]
    return _digest(arrays)


def _plain_back() -> decks.CardArt:
    img = np.zeros((336, CARD_W, 4), np.uint8)
    img[..., :3] = (150, 40, 30)
    img[..., 3] = 255
    return decks.CardArt(img, None, [])


@pytest.mark.parametrize(("seed", "digest"), [(1, "c98dbb0d87609fa0"), (2, "558aa15fe0177227")])
def test_scenes_of_the_real_deck_are_drawn_as_the_shipped_networks_saw_them(seed: int, digest: str) -> None:
    faces = decks.load_real_deck()
    assert len(faces) > 40  # the real crops beside the repository, their indices found
    assert _scene_samples(faces, [_plain_back()], np.random.default_rng([seed, 100_000])) == digest


def test_holding_out_crops_leaves_out_one_of_each_rank() -> None:
    kept = {face.label for face in decks.load_real_deck(hold_out=True)}
    everything = {face.label for face in decks.load_real_deck()}
    assert everything - kept == set(decks.HELD_OUT_CROPS) & everything
    assert sorted(label[:-1] for label in decks.HELD_OUT_CROPS) == sorted(RANK_TEXTS)


def test_samples_of_drawn_decks_are_made_as_the_shipped_networks_saw_them() -> None:
    """One chunk of the rendered and drawn decks' scenes and one of joined indices, as a worker makes
    them with the build's default options (every deck, typeface and option of a full build)."""
    pytest.importorskip("PIL", reason="drawing decks in typefaces needs the train extra (Pillow)")
    pytest.importorskip("cairosvg", reason="rendering the vector decks needs the train extra (cairosvg)")
    try:
        typeface_files()
    except SystemExit:
        pytest.skip("the build's font packages are not installed")
    seed = 20261123
    for number, digest in ((0, "602d060e1b0667d2"), (datasets.JOINED_CHUNKS, "c54eeab625d2a10d")):
        samples = datasets.collect_chunk(datasets.Chunk(seed, number, 2, Options()))
        assert _digest(list(samples)) == digest, number


# ------------------------------------------------------------------------------------------ the command


def test_a_build_asked_for_no_scenes_says_so_in_one_line_and_fails(
    capsys: pytest.CaptureFixture[str],
) -> None:
    zero = ["--scenes", "0", "--real-scenes", "0", "--joined-scenes", "0", "--jumbo-scenes", "0"]
    assert cli.main(zero) == 1
    err = capsys.readouterr().err
    assert err.startswith("build: no scenes") and err.count("\n") == 1


def test_a_build_without_the_train_extra_says_what_to_install_before_any_work(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    found = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name: None if name == "torch" else found(name))
    assert cli.main(["--out", str(tmp_path)]) == 1
    err = capsys.readouterr().err
    assert "torch" in err and ".[train]" in err and err.count("\n") == 1
    assert list(tmp_path.iterdir()) == []  # nothing written


def test_a_graph_written_from_weights_runs_those_weights(tmp_path: Path) -> None:
    namer = random_namer(6)
    rng = np.random.default_rng(6)
    namer.save(tmp_path / NAMER_FILE)
    graph.write_graph(namer, tmp_path / NAMER_GRAPH)
    x = cnn.inputs(rng.integers(0, 256, (9, cnn.PATCH_H, cnn.PATCH_W, 3), np.uint8))
    want = namer.predict(x)
    loaded = cnn.load_namer(tmp_path / NAMER_FILE, tmp_path / NAMER_GRAPH)
    assert isinstance(loaded, cnn.CompiledNamer)
    for got, expected in zip(loaded.predict(x, batch=4), want, strict=True):
        assert np.abs(got - expected).max() < 1e-4


def test_the_shipped_graph_is_the_one_the_shipped_weights_make() -> None:
    """Rebuilt weights with a graph not written again would show here (the recogniser would run the
    NumPy pass, correctly but at twice the cost)."""
    written = graph.graph(cnn.Namer.load(DEFAULT_MODEL / NAMER_FILE)).SerializeToString()
    assert written == (DEFAULT_MODEL / NAMER_GRAPH).read_bytes()


def test_writing_the_graph_from_missing_weights_says_so_in_one_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    assert graph.main(["--weights", str(tmp_path / "none.npz")]) == 1
    err = capsys.readouterr().err
    assert err.startswith("graph: ") and "none.npz is missing" in err and err.count("\n") == 1
    assert list(tmp_path.iterdir()) == []
