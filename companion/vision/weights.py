"""Network weights kept as one ``.npz`` file: the common ground of the finder and the namer.

Why ``.npz``: it is NumPy's own format, so loading the shipped networks needs nothing NumPy does not
have, and each weight is stored by its field name, so a file that does not match the code fails loudly.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Self

import numpy as np


class Weights:
    """Mixed into a frozen dataclass whose every field is a float32 array."""

    @classmethod
    def load(cls, path: Path) -> Self:
        names = [f.name for f in dataclasses.fields(cls)]  # type: ignore[arg-type]
        with np.load(path) as data:
            return cls(**{name: data[name].astype(np.float32) for name in names})

    def save(self, path: Path) -> None:
        arrays = {f.name: getattr(self, f.name) for f in dataclasses.fields(self)}  # type: ignore[arg-type]
        np.savez_compressed(path, **arrays)
