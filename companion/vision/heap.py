"""Keeping the memory a frame's reading frees for the next frame, rather than handing it back.

Why: reading a whole frame allocates and frees tens of megabytes of short-lived arrays (the frame at
several scales, its grey and ink, every candidate's patches). glibc's allocator hands the top of its
heap back to the system once more than 128 KiB lie free there, so the next frame's arrays were mapped
anew and every page touched faulted in again: 50 to 4,700 minor page faults a first read of a table,
depending on where earlier frames left the heap, some 0-10 ms of processor time a read on this
machine and more on a Pi. Told to serve blocks under 32 MiB from its heap, to keep 64 MiB free at its
top and to trim only past 128 MiB, it faulted at most about 200 pages a read (decision 46). The price
is up to 128 MiB kept by the process (a Pi 4 has 1-8 GiB).
"""

from __future__ import annotations

import ctypes
import ctypes.util
import functools
from typing import Final

__all__ = ["keep_freed_memory"]

#: glibc's mallopt parameters (malloc.h).
M_TRIM_THRESHOLD: Final = -1
M_TOP_PAD: Final = -2
M_MMAP_THRESHOLD: Final = -3
#: Blocks from this size up are mapped apart from the heap: glibc's own ceiling for the threshold
#: on a 64-bit system (32 MiB; half that on a 32-bit one). Why set: setting the two below stops glibc
#: raising the threshold itself as large blocks are freed, and a frame-sized array (11 MB as floats)
#: would then be mapped and faulted in afresh every time.
MMAP_THRESHOLDS: Final = (32 << 20, 16 << 20)
#: Free memory kept at the heap's top when it grows, and how much may lie free there before it is
#: handed back.
TOP_PAD: Final = 64 << 20
TRIM_THRESHOLD: Final = 128 << 20


@functools.cache
def keep_freed_memory() -> bool:
    """Tell the C allocator to keep freed memory for the next frame (see the module's docstring); once a
    process. False where the C library has no ``mallopt`` (not glibc): nothing is changed there."""
    name = ctypes.util.find_library("c")
    try:
        mallopt = ctypes.CDLL(name).mallopt
    except (OSError, AttributeError, TypeError):
        return False
    mallopt.argtypes = [ctypes.c_int, ctypes.c_int]
    mallopt.restype = ctypes.c_int
    mapped = any(mallopt(M_MMAP_THRESHOLD, size) for size in MMAP_THRESHOLDS)
    return mapped and bool(mallopt(M_TOP_PAD, TOP_PAD)) and bool(mallopt(M_TRIM_THRESHOLD, TRIM_THRESHOLD))
