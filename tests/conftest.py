"""Test-suite wide options: tests marked ``hardware`` need a real board, camera or GPIO pins attached.

They are skipped unless ``--hardware`` is given, so CI (which has none) runs everything else and a
bench with the real parts attached runs them with one flag.
"""

from __future__ import annotations

import pytest


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--hardware", action="store_true", default=False, help="also run tests that need real hardware"
    )


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if config.getoption("--hardware"):
        return
    skip = pytest.mark.skip(reason="needs real hardware: run with --hardware on the bench")
    for item in items:
        if item.get_closest_marker("hardware") is not None:
            item.add_marker(skip)
