"""``crib detect``: JSON lines, drawings, and one-line errors for bad files while the others still run."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import pytest

from companion.cli import main
from companion.vision.types import Sighting, seen_from_text

from .conftest import CROPS
from .tables import landed, score, table, tilted


def test_json_line_per_image(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    images = [CROPS / "5h.jpg", CROPS / "Qs.jpg"]
    assert main(["detect", "--json", *map(str, images)]) == 0
    lines = capsys.readouterr().out.strip().splitlines()
    assert len(lines) == 2
    first = json.loads(lines[0])
    assert set(first) == {"image", "cards", "ms", "levelled"}
    assert first["levelled"] is False  # one card lying flat under the lens: nothing to level
    assert first["image"] == str(images[0])
    named = [c for c in first["cards"] if c["card"] not in ("unknown", "back")]
    assert [c["card"] for c in named] == ["5h"]
    card = named[0]
    assert 0.0 <= card["confidence"] <= 1.0
    assert len(card["corners"]) >= 3 and all(len(p) == 2 for p in card["corners"])
    assert all(0 <= x <= 228 and 0 <= y <= 352 for x, y in card["corners"])
    x, y = card["middle"]
    assert abs(x - 114) < 30 and abs(y - 176) < 40  # the card fills the photo: its middle is the photo's
    assert isinstance(first["ms"], float)
    assert "Qs" in [c["card"] for c in json.loads(lines[1])["cards"]]


def test_bad_and_missing_files_are_one_line_each_and_the_rest_still_run(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    broken = tmp_path / "broken.jpg"
    broken.write_bytes(b"\xff\xd8 not really a jpeg")
    missing = tmp_path / "missing.png"
    status = main(["detect", "--json", str(missing), str(broken), str(CROPS / "9c.jpg")])
    out, err = capsys.readouterr()
    assert status == 1
    assert err.count("\n") == 2
    assert "missing.png: no such file" in err and "broken.jpg: not a readable image" in err
    assert "Traceback" not in err
    assert "9c" in [c["card"] for c in json.loads(out)["cards"]]


def test_draw_writes_the_outlined_image(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "seen.png"
    assert main(["detect", str(CROPS / "Ad.jpg"), "--draw", str(out)]) == 0
    assert "Ad" in capsys.readouterr().out
    drawn = cv2.imread(str(out))
    original = cv2.imread(str(CROPS / "Ad.jpg"))
    assert drawn is not None and drawn.shape == original.shape
    assert (cv2.absdiff(drawn, original) > 60).any()
    # Several images: one drawing each, named after the image.
    assert main(["detect", str(CROPS / "Ad.jpg"), str(CROPS / "2c.jpg"), "--draw", str(out)]) == 0
    assert (tmp_path / "seen-Ad.png").is_file() and (tmp_path / "seen-2c.png").is_file()


def test_an_image_too_large_to_read_safely_is_refused_before_decoding_in_one_sentence(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # A 20000x20000 PNG of one colour is a few hundred KB on disk and 1.2 GB decoded: the header alone
    # must refuse it. Only its header is written here (a decoder would fail on the missing data, so
    # the sentence can only come from the header's size).
    huge = tmp_path / "huge.png"
    huge.write_bytes(
        b"\x89PNG\r\n\x1a\n" + b"\x00\x00\x00\x0dIHDR" + (20000).to_bytes(4, "big") * 2 + b"\x08\x00"
    )
    status = main(["detect", str(huge), str(CROPS / "5h.jpg")])
    out, err = capsys.readouterr()
    assert status == 1
    assert err.count("\n") == 1 and "huge.png" in err and "20000x20000" in err
    assert "Traceback" not in err
    assert "5h" in out


def test_a_folder_given_as_an_image_is_named_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status = main(["detect", str(tmp_path)])
    err = capsys.readouterr().err
    assert status == 1
    assert err.count("\n") == 1 and str(tmp_path) in err and "folder" in err


def test_filmed_images_are_read_as_frames_of_one_camera(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # The same frame twice, then one with a card more: one JSON line each, the last naming the new card.
    table = cv2.imread(str(CROPS / "5h.jpg"))
    assert table is not None
    wide = cv2.copyMakeBorder(table, 100, 100, 100, 400, cv2.BORDER_CONSTANT, value=(120, 160, 190))
    first = tmp_path / "a.png"
    cv2.imwrite(str(first), wide)
    landed = wide.copy()
    landed[100:452, 380:608] = cv2.imread(str(CROPS / "9c.jpg"))
    second = tmp_path / "b.png"
    cv2.imwrite(str(second), landed)
    assert main(["detect", "--filmed", "--json", str(first), str(first), str(second)]) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.strip().splitlines()]
    assert len(lines) == 3 and all(isinstance(line["ms"], float) for line in lines)
    named = [
        sorted(c["card"] for c in line["cards"] if c["card"] not in ("unknown", "back")) for line in lines
    ]
    assert named == [["5h"], ["5h"], ["5h", "9c"]]


def test_a_photo_taken_at_a_slant_is_levelled_by_its_own_cards(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A table photographed 45 degrees off straight down, no calibration given: its cards' outlines
    say the slant, and it is read as if from above (said so), its cards named where they lie."""
    t = table(3, cards=11)
    slanted, _ = tilted(t, 45)
    photo = tmp_path / "slant.png"
    cv2.imwrite(str(photo), slanted.frame)
    assert main(["detect", "--json", str(photo)]) == 0
    line = json.loads(capsys.readouterr().out)
    assert line["levelled"] is True
    named = [
        Sighting(seen_from_text(c["card"]), c["confidence"], tuple((x, y) for x, y in c["corners"]))
        for c in line["cards"]
    ]
    assert score(named, slanted).wrong == 0
    assert main(["detect", str(photo)]) == 0
    assert "read as if from above" in capsys.readouterr().out


def test_frames_filmed_at_a_slant_are_levelled_once_their_cards_say_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A camera 45 degrees off straight down, no calibration given: the first frame's cards say the
    slant, and it and every frame after it are read as if from above, the card laid later named where
    it lies and nothing named wrong."""
    t = table(3, cards=11)
    after = landed(t, 7)
    paths = []
    for n, shown in enumerate((t, t, after)):
        slanted, _ = tilted(shown, 45)
        paths.append(tmp_path / f"{n}.png")
        cv2.imwrite(str(paths[-1]), slanted.frame)
    assert main(["detect", "--filmed", "--json", *map(str, paths)]) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.strip().splitlines()]
    assert [line["levelled"] for line in lines] == [True, True, True]
    last, _ = tilted(after, 45)
    named = [
        Sighting(seen_from_text(c["card"]), c["confidence"], tuple((x, y) for x, y in c["corners"]))
        for c in lines[-1]["cards"]
    ]
    assert score(named, last).wrong == 0
    assert after.faces[-1][0] in {c["card"] for c in lines[-1]["cards"]}
