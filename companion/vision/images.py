"""Reading image files safely: the size is read from the file's header before any pixel is decoded.

Why: a compressed image can be tiny on disk and huge in memory (a 20000x20000 PNG of one colour is
431 KB and decodes to 1.2 GB of pixels, and ``crib detect`` took 2.4 GB to read it). The header says
how large it is, so a file over MAX_PIXELS is refused, in one sentence naming it, before OpenCV is
asked to decode it. PNG, JPEG, BMP, GIF and WebP headers are read here; for any other format OpenCV's
own limit is set to the same number before it decodes (see :func:`read_image`).
"""

from __future__ import annotations

import os
import struct
from pathlib import Path
from typing import Final

import numpy as np

from companion.vision.types import Frame

#: The most pixels an image may have: a 50-megapixel photo (8660x5773) is 150 MB as OpenCV holds it.
#: Phones take 12-48 megapixels; a camera over the table gives 1-8.
MAX_PIXELS: Final = 50_000_000

__all__ = ["MAX_PIXELS", "ImageError", "image_size", "read_image"]

# OpenCV reads its own limit once, when it is loaded: set it for formats whose header is not read here.
os.environ.setdefault("OPENCV_IO_MAX_IMAGE_PIXELS", str(MAX_PIXELS))


class ImageError(ValueError):
    """An image file that cannot be read: missing, a folder, not an image, or too large."""


def image_size(head: bytes) -> tuple[int, int] | None:
    """Width and height from the first bytes of an image file (64 KB is ample), or None if the format
    is none of PNG, JPEG, BMP, GIF and WebP or its header is cut short."""
    if head.startswith(b"\x89PNG\r\n\x1a\n") and len(head) >= 24 and head[12:16] == b"IHDR":
        w, h = struct.unpack(">II", head[16:24])
        return int(w), int(h)
    if head[:6] in (b"GIF87a", b"GIF89a") and len(head) >= 10:
        w, h = struct.unpack("<HH", head[6:10])
        return int(w), int(h)
    if head.startswith(b"BM") and len(head) >= 26:
        w, h = struct.unpack("<ii", head[18:26])
        return abs(int(w)), abs(int(h))
    if head.startswith(b"RIFF") and head[8:12] == b"WEBP" and len(head) >= 30:
        return _webp_size(head)
    if head.startswith(b"\xff\xd8"):
        return _jpeg_size(head)
    return None


def _webp_size(head: bytes) -> tuple[int, int] | None:
    kind = head[12:16]
    if kind == b"VP8X":
        w = int.from_bytes(head[24:27], "little") + 1
        h = int.from_bytes(head[27:30], "little") + 1
        return w, h
    if kind == b"VP8L" and len(head) >= 25:
        bits = int.from_bytes(head[21:25], "little")
        return (bits & 0x3FFF) + 1, ((bits >> 14) & 0x3FFF) + 1
    if kind == b"VP8 " and head[23:26] == b"\x9d\x01\x2a":
        w, h = struct.unpack("<HH", head[26:30])
        return int(w) & 0x3FFF, int(h) & 0x3FFF
    return None


#: JPEG markers that start a frame (SOF0-SOF15 but DHT, JPG and DAC) and so hold its size.
_SOF: Final = frozenset(range(0xC0, 0xD0)) - {0xC4, 0xC8, 0xCC}


def _jpeg_size(head: bytes) -> tuple[int, int] | None:
    at = 2
    while at + 4 <= len(head):
        if head[at] != 0xFF:
            return None
        marker = head[at + 1]
        if marker == 0xFF:  # fill byte
            at += 1
            continue
        if marker in (0x01, *range(0xD0, 0xD8)):  # markers with no length
            at += 2
            continue
        length = int.from_bytes(head[at + 2 : at + 4], "big")
        if marker in _SOF and at + 9 <= len(head):
            h, w = struct.unpack(">HH", head[at + 5 : at + 9])
            return int(w), int(h)
        at += 2 + length
    return None


def read_image(path: Path, max_pixels: int = MAX_PIXELS) -> Frame:
    """The image at ``path`` as OpenCV decodes it (BGR, uint8), refused with :class:`ImageError` (one
    sentence naming the file) if it is missing, a folder, no image, or over ``max_pixels``.

    A format whose header is not read here is left to OpenCV's own pixel limit, which this module sets
    to MAX_PIXELS (``OPENCV_IO_MAX_IMAGE_PIXELS``) unless it is set already, when OpenCV is first
    imported after it.
    """
    if not path.exists():
        raise ImageError(f"{path}: no such file")
    if path.is_dir():
        raise ImageError(f"{path}: is a folder, not an image")
    try:
        with path.open("rb") as file:
            head = file.read(65536)
    except OSError as error:
        raise ImageError(f"{path}: cannot be opened ({error.strerror or error})") from None
    size = image_size(head)
    if size is not None and size[0] * size[1] > max_pixels:
        raise ImageError(
            f"{path}: is {size[0]}x{size[1]} pixels, more than the {max_pixels // 1_000_000} million "
            "pixels an image may have; scale it down first"
        )
    import cv2

    try:
        raw = cv2.imread(str(path), cv2.IMREAD_COLOR)
    except cv2.error:
        raw = None
    if raw is None:
        raise ImageError(f"{path}: not a readable image")
    return np.asarray(raw, np.uint8)
