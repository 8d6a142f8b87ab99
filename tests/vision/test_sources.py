"""Frame sources: a folder of images, a video file, camera specs; one interface for all."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.vision.sources import (
    ImageFolderSource,
    PiCameraSource,
    SourceError,
    VideoFileSource,
    open_source,
)


def frame(value: int) -> np.ndarray:
    img = np.zeros((48, 64, 3), np.uint8)
    img[:, :, 1] = value
    return img


def test_a_folder_of_images_plays_in_name_order_and_skips_bad_files(tmp_path: Path) -> None:
    for n, value in enumerate((10, 20, 30)):
        cv2.imwrite(str(tmp_path / f"shot{n:02d}.png"), frame(value))
    (tmp_path / "shot01b.jpg").write_bytes(b"not an image")
    (tmp_path / "notes.txt").write_text("ignored")
    with open_source(str(tmp_path), fps=10.0) as source:
        shots = list(source)
    assert [int(s.frame[0, 0, 1]) for s in shots] == [10, 20, 30]
    assert [s.time for s in shots] == [0.0, 0.1, 0.2]
    assert [s.number for s in shots] == [0, 1, 2]
    assert isinstance(source, ImageFolderSource)
    assert [p.name for p in source.skipped] == ["shot01b.jpg"]


def test_a_video_file_gives_its_frames_timed_by_its_rate(tmp_path: Path) -> None:
    path = tmp_path / "table.avi"
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter.fourcc(*"MJPG"), 25.0, (64, 48))
    assert writer.isOpened()
    for value in range(0, 250, 25):
        writer.write(frame(value))
    writer.release()
    with open_source(str(path)) as source:
        assert isinstance(source, VideoFileSource)
        shots = list(source)
    assert len(shots) == 10
    assert shots[1].time == pytest.approx(1 / 25)
    assert abs(int(shots[4].frame[24, 32, 1]) - 100) < 8


def test_missing_things_are_clear_errors(tmp_path: Path) -> None:
    with pytest.raises(SourceError, match="does not exist"):
        open_source(str(tmp_path / "nothing.mp4"))
    with pytest.raises(SourceError, match="holds no images"):
        open_source(str(tmp_path))
    with pytest.raises(SourceError, match="not a camera"):
        open_source("camera:front")


def test_the_pi_camera_is_only_imported_when_asked_for() -> None:
    try:
        import picamera2  # noqa: F401
    except ImportError:
        with pytest.raises(SourceError, match="Raspberry Pi"):
            PiCameraSource()
    else:  # pragma: no cover - only on a Pi
        pytest.skip("picamera2 is installed: this is a Pi")


def test_importing_vision_loads_neither_opencv_nor_picamera2() -> None:
    code = (
        "import sys, companion.vision, companion.vision.zones, companion.vision.tracker; "
        "print('cv2' in sys.modules, 'picamera2' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["False", "False"]


@pytest.mark.hardware
def test_a_real_camera_gives_frames() -> None:
    with open_source("camera:0") as source:
        shot = source.read()
    assert shot is not None and shot.frame.ndim == 3
