"""Image files are sized from their headers before decoding, and refused in one sentence if too large."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.vision.images import ImageError, image_size, read_image


@pytest.mark.parametrize("suffix", [".png", ".jpg", ".bmp", ".webp"])
def test_the_size_is_read_from_the_header_of_each_format(suffix: str) -> None:
    picture = np.full((37, 91, 3), 128, np.uint8)
    ok, encoded = cv2.imencode(suffix, picture)
    assert ok
    assert image_size(encoded.tobytes()[:4096]) == (91, 37)


def test_a_lossless_webp_is_sized_too() -> None:
    ok, encoded = cv2.imencode(".webp", np.zeros((50, 70, 3), np.uint8), [cv2.IMWRITE_WEBP_QUALITY, 101])
    assert ok
    assert image_size(encoded.tobytes()) == (70, 50)


def test_a_header_cut_short_or_of_no_image_gives_no_size() -> None:
    assert image_size(b"\x89PNG\r\n\x1a\n") is None
    assert image_size(b"hello, world") is None
    assert image_size(b"\xff\xd8\xff") is None


def test_an_image_over_the_limit_is_refused_naming_the_file(tmp_path: Path) -> None:
    path = tmp_path / "big.png"
    cv2.imwrite(str(path), np.zeros((300, 400, 3), np.uint8))
    with pytest.raises(ImageError, match=r"big\.png: is 400x300 pixels"):
        read_image(path, max_pixels=100_000)
    assert read_image(path).shape == (300, 400, 3)


def test_missing_folders_and_non_images_are_named(tmp_path: Path) -> None:
    with pytest.raises(ImageError, match=r"nothing\.png: no such file"):
        read_image(tmp_path / "nothing.png")
    with pytest.raises(ImageError, match="is a folder"):
        read_image(tmp_path)
    junk = tmp_path / "junk.jpg"
    junk.write_bytes(bytes(range(256)) * 4)
    with pytest.raises(ImageError, match=r"junk\.jpg: not a readable image"):
        read_image(junk)
