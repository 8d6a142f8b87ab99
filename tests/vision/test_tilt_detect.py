"""``crib detect --layout``: photos from a camera at a slant read with the table's plane."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.cli import main
from companion.vision.recognise import Recogniser
from companion.vision.scene import compose, wood
from companion.vision.zones import CRIB, DECK, TableLayout, calibrate, play_zone

from .markers import MARKERS, marker_table, seen_at
from .tables import SIZE, crop, tilt_homography


def test_detect_reads_a_slanted_photo_with_the_layouts_plane(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    m = tilt_homography(45)
    frame, _ = marker_table(31)
    seen = seen_at(frame, m)
    layout = calibrate(seen, Recogniser().detect(seen))
    assert layout.plane is not None
    layout.save(tmp_path / "table.json")
    cv2.imwrite(str(tmp_path / "table.png"), seen)
    assert (
        main(["detect", "--json", "--layout", str(tmp_path / "table.json"), str(tmp_path / "table.png")]) == 0
    )
    cards = json.loads(capsys.readouterr().out)["cards"]
    named = sorted(c["card"] for c in cards if c["card"] not in ("back", "unknown"))
    assert named == sorted(MARKERS)
    assert all(0 <= x < SIZE[0] and 0 <= y < SIZE[1] for c in cards for x, y in c["corners"])


@pytest.mark.parametrize("text", [None, "{not json", '{"size": [1280, 720], "zones": {"crib": [1, 1]}}'])
def test_a_missing_or_broken_layout_is_one_line_and_a_failure(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str | None
) -> None:
    layout = tmp_path / "table.json"
    if text is not None:
        layout.write_text(text)
    image = tmp_path / "table.png"
    cv2.imwrite(str(image), marker_table(32)[0])
    assert main(["detect", "--layout", str(layout), str(image)]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("crib detect:") and "table layout" in err[0]


def test_calibrate_says_the_camera_is_at_a_slant_and_saves_the_layout(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    image = tmp_path / "markers.png"
    cv2.imwrite(str(image), seen_at(marker_table(33)[0], tilt_homography(30)))
    out = tmp_path / "table.json"
    assert main(["calibrate", str(image), "--out", str(out)]) == 0
    said = capsys.readouterr().out
    assert "at a slant" in said and "player0" in said and "crib" in said
    layout = TableLayout.load(out)
    assert layout.plane is not None and set(layout.zones) == {play_zone(1), play_zone(2), DECK, CRIB}


def test_calibrate_says_a_camera_straight_down_needs_no_warp(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    image = tmp_path / "markers.png"
    cv2.imwrite(str(image), marker_table(34)[0])
    assert main(["calibrate", str(image)]) == 0
    assert "read as they come" in capsys.readouterr().out


def test_calibrate_with_one_marker_is_one_line_and_a_failure(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _, places = marker_table(35)
    image = tmp_path / "one.png"
    one = compose(np.asarray(cv2.resize(wood(640, 360, seed=3), SIZE), np.uint8), [crop("As")], [places[0]])
    cv2.imwrite(str(image), one)
    assert main(["calibrate", str(image)]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "only one marker card" in err[0]
