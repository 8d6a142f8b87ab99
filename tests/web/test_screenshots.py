"""The docs' pictures of the scoreboard are made by a script from the running app, and it still runs."""

from __future__ import annotations

import importlib.util
import struct
from pathlib import Path

HERE = Path(__file__).resolve().parent


def _png_size(path: Path) -> tuple[int, int]:
    head = path.read_bytes()[:24]
    assert head[:8] == b"\x89PNG\r\n\x1a\n", f"{path.name} is not a PNG"
    width, height = struct.unpack(">II", head[16:24])
    return int(width), int(height)


def test_the_screenshot_script_photographs_phone_desktop_and_wall(tmp_path: Path) -> None:
    spec = importlib.util.spec_from_file_location("screenshots", HERE / "screenshots.py")
    assert spec is not None and spec.loader is not None
    script = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(script)
    written = script.main(tmp_path)
    assert [p.name for p in written] == list(script.SHOTS)
    sizes = {p.name: _png_size(p) for p in written}
    assert sizes["scoreboard-phone.png"] == (780, 1688)  # 390x844 drawn at twice the pixels
    assert sizes["scoreboard-phone-show.png"] == (780, 1688)
    assert sizes["scoreboard-desktop.png"] == (1280, 800)
    assert sizes["scoreboard-wall.png"] == (1280, 800)
    for name in script.SHOTS:  # the committed pictures are the script's, at the same sizes
        committed = HERE.parents[1] / "docs" / "images" / name
        assert committed.is_file() and _png_size(committed) == sizes[name]
