"""Where frames come from: the Pi camera, a USB webcam, a video file or a folder of images, behind one seam.

API for the game loop (``companion.app``)::

    from companion.vision.sources import open_source

    with open_source("pi") as source:           # or "camera:0", "table.mp4", "photos/"
        for shot in source:                     # Shot(frame, time, number), until the source ends
            sightings = recogniser.detect(shot.frame)
            events = tracker.update(sightings, shot.time)

Every source yields :class:`Shot` values: a BGR ``uint8`` frame, a time in seconds (the camera's clock
for live sources, frame number / fps for files, so a recorded game replays with its own timing) and a
running frame number. Downstream code never knows which source it has, so a game recorded on the Pi
replays on a laptop through exactly the same recogniser and tracker.

``picamera2`` is imported only when a Pi camera is asked for, and only there: everywhere else the
companion must start without it. A camera that cannot be opened raises :class:`SourceError` with one
sentence saying what to check.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType
from typing import Any, Final, Protocol

import cv2
import numpy as np

from companion.vision.images import ImageError, read_image
from companion.vision.types import Frame

__all__ = [
    "IMAGE_SUFFIXES",
    "CameraSource",
    "FrameSource",
    "ImageFolderSource",
    "PiCameraSource",
    "Shot",
    "SourceError",
    "VideoFileSource",
    "open_source",
]

IMAGE_SUFFIXES: Final = (".png", ".jpg", ".jpeg", ".bmp", ".tif", ".tiff", ".webp")


class SourceError(OSError):
    """A frame source that cannot be opened or read (a missing file, an absent camera)."""


@dataclass(frozen=True, slots=True)
class Shot:
    """One frame with when it was taken."""

    frame: Frame
    time: float
    """Seconds: the camera's monotonic clock for live sources, number / fps for recordings."""
    number: int


class FrameSource(Protocol):
    """Anything that yields shots until it ends (files) or is closed (cameras)."""

    def read(self) -> Shot | None:
        """The next shot, or None when the source has ended."""
        ...

    def close(self) -> None:
        """Release the camera or file."""
        ...

    def __iter__(self) -> Iterator[Shot]: ...

    def __enter__(self) -> FrameSource: ...

    def __exit__(
        self, kind: type[BaseException] | None, value: BaseException | None, tb: TracebackType | None
    ) -> None: ...


class _Base:
    """Iteration and context management shared by every source."""

    def read(self) -> Shot | None:  # pragma: no cover - every source overrides it
        raise NotImplementedError

    def close(self) -> None:
        return None

    def __iter__(self) -> Iterator[Shot]:
        while (shot := self.read()) is not None:
            yield shot

    def __enter__(self) -> _Base:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, value: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()


class ImageFolderSource(_Base):
    """The images in a folder, in name order, as if taken ``fps`` times a second. Unreadable files (and
    images too large to read safely: see :mod:`companion.vision.images`) are skipped with their names
    kept in :attr:`skipped` so one bad file does not end a replay."""

    def __init__(self, folder: Path, fps: float = 30.0) -> None:
        if not folder.is_dir():
            raise SourceError(f"{folder} is not a folder of images")
        self.paths = sorted(p for p in folder.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES)
        if not self.paths:
            raise SourceError(f"{folder} holds no images ({', '.join(IMAGE_SUFFIXES)})")
        self.fps = fps
        self.skipped: list[Path] = []
        self._next = 0
        self._number = 0

    def read(self) -> Shot | None:
        while self._next < len(self.paths):
            path = self.paths[self._next]
            self._next += 1
            try:
                frame = read_image(path)
            except ImageError:
                self.skipped.append(path)
                continue
            shot = Shot(frame, self._number / self.fps, self._number)
            self._number += 1
            return shot
        return None


class _CaptureSource(_Base):
    """An OpenCV capture: a camera by index or a video file."""

    def __init__(self, capture: Any, what: str, live: bool, fps: float | None = None) -> None:
        if not capture.isOpened():
            raise SourceError(f"cannot open {what}")
        self._capture = capture
        self._live = live
        self._number = 0
        self._start = time.monotonic()
        reported = float(capture.get(cv2.CAP_PROP_FPS) or 0.0)
        self.fps = fps or (reported if 1.0 <= reported <= 240.0 else 30.0)

    def read(self) -> Shot | None:
        ok, frame = self._capture.read()
        if not ok or frame is None:
            return None
        t = time.monotonic() - self._start if self._live else self._number / self.fps
        shot = Shot(np.ascontiguousarray(frame), t, self._number)
        self._number += 1
        return shot

    def close(self) -> None:
        self._capture.release()


class CameraSource(_CaptureSource):
    """Any camera OpenCV can open by index (a USB webcam), at the size asked for if it offers it."""

    def __init__(self, index: int = 0, width: int = 1280, height: int = 720) -> None:
        capture = cv2.VideoCapture(index)
        if capture.isOpened():
            capture.set(cv2.CAP_PROP_FRAME_WIDTH, width)
            capture.set(cv2.CAP_PROP_FRAME_HEIGHT, height)
        super().__init__(capture, f"camera {index} (is it plugged in and free?)", live=True)


class VideoFileSource(_CaptureSource):
    """A recorded video, timed by its own frame rate (or ``fps`` when given)."""

    def __init__(self, path: Path, fps: float | None = None) -> None:
        if not path.is_file():
            raise SourceError(f"{path} does not exist")
        super().__init__(cv2.VideoCapture(str(path)), f"{path} as a video", live=False, fps=fps)


class PiCameraSource(_Base):
    """The Raspberry Pi camera through picamera2 (imported here only, on the Pi)."""

    def __init__(self, width: int = 1280, height: int = 720) -> None:
        try:
            from picamera2 import Picamera2
        except ImportError as error:
            raise SourceError(
                "the Pi camera needs picamera2, which exists only on a Raspberry Pi "
                "(install it there with: sudo apt install python3-picamera2)"
            ) from error
        try:
            camera = Picamera2()
            config = camera.create_video_configuration(main={"size": (width, height), "format": "RGB888"})
            camera.configure(config)
            camera.start()
        except Exception as error:  # picamera2 raises many kinds; all mean the same to the user
            raise SourceError(f"cannot start the Pi camera: {error}") from error
        self._camera = camera
        self._start = time.monotonic()
        self._number = 0

    def read(self) -> Shot | None:
        # picamera2's "RGB888" is laid out B, G, R in memory: already OpenCV's order.
        frame = np.ascontiguousarray(self._camera.capture_array("main")[..., :3])
        shot = Shot(frame, time.monotonic() - self._start, self._number)
        self._number += 1
        return shot

    def close(self) -> None:
        self._camera.stop()
        self._camera.close()


def open_source(spec: str, *, width: int = 1280, height: int = 720, fps: float | None = None) -> _Base:
    """Open a source from text as a user writes it.

    ``"pi"`` is the Pi camera; ``"camera"``, ``"camera:N"`` or a bare number an OpenCV camera; a folder
    is its images in name order; anything else a video file.
    """
    text = spec.strip()
    if text == "pi":
        return PiCameraSource(width, height)
    if text == "camera" or text.startswith("camera:") or text.isdigit():
        number = text.split(":", 1)[1] if ":" in text else ("0" if text == "camera" else text)
        if not number.isdigit():
            raise SourceError(f"{spec!r} is not a camera: write camera:0, camera:1 ...")
        return CameraSource(int(number), width, height)
    path = Path(text)
    if path.is_dir():
        return ImageFolderSource(path, fps or 30.0)
    return VideoFileSource(path, fps)
