"""The memory one frame's reading frees is kept for the next (companion.vision.heap)."""

from __future__ import annotations

import json
import platform
import subprocess
import sys

import pytest

_FRAMES = """
import json, resource, sys
import numpy as np
from companion.vision.heap import keep_freed_memory
kept = keep_freed_memory() if sys.argv[1] == "keep" else None
faults = []
for _ in range(6):
    before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
    frame = np.ones(1280 * 720 * 3, np.float32)  # a frame as floats, 11 MB
    half = np.ones(640 * 360 * 3, np.float32)
    del frame, half
    faults.append(resource.getrusage(resource.RUSAGE_SELF).ru_minflt - before)
print(json.dumps({"kept": kept, "faults": faults}))
"""


def _frames(how: str) -> dict[str, object]:
    out = subprocess.run([sys.executable, "-c", _FRAMES, how], capture_output=True, text=True, check=True)
    result: dict[str, object] = json.loads(out.stdout)
    return result


@pytest.mark.skipif(platform.libc_ver()[0] != "glibc", reason="the allocator told is glibc's")
def test_a_frames_arrays_reuse_the_last_frames_memory() -> None:
    """From the second frame on, a frame's arrays come from memory the last one freed: no page is
    faulted in afresh (about 1,300 pages a frame otherwise: glibc maps such arrays apart and hands
    them back, until its own threshold has risen)."""
    kept = _frames("keep")
    assert kept["kept"] is True
    faults = kept["faults"]
    assert isinstance(faults, list)
    assert all(f < 100 for f in faults[1:]), faults
    plain = _frames("plain")["faults"]
    assert isinstance(plain, list)
    assert any(f > 500 for f in plain[1:]), plain  # what is saved, so this test can tell
