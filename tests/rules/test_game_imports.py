"""The rules engine does no I/O and pulls in nothing heavy: importing it loads only the standard library."""

from __future__ import annotations

import subprocess
import sys

HEAVY = ("cv2", "serial", "gpiozero", "fastapi", "numpy", "uvicorn", "starlette")


def test_importing_the_rules_loads_no_hardware_vision_or_web_library() -> None:
    code = (
        "import sys\n"
        "import companion.rules, companion.rules.game, companion.rules.notation, companion.rules.simulate\n"
        f"print(','.join(m for m in {HEAVY!r} if m in sys.modules))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""
