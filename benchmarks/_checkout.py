"""Puts the checkout on the import path, so a benchmark run as a script can import :mod:`tools` (the
scene synthesis shared with the build and the tests), which is not installed with the companion."""

import sys
from pathlib import Path

_ROOT = str(Path(__file__).resolve().parents[1])
if _ROOT not in sys.path:
    sys.path.insert(0, _ROOT)
