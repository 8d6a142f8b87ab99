"""Network weights kept as one ``.npz`` file, and the softmax: the common ground of the finder and the namer.

Why ``.npz``: it is NumPy's own format, so loading the shipped networks needs nothing NumPy does not
have, and each weight is stored by its field name, so a file that does not match the code fails loudly.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Self

import numpy as np
import numpy.typing as npt

F32 = npt.NDArray[np.float32]


def softmax(z: F32) -> F32:
    """Row-wise probabilities from a network head's scores (shifted by the row's maximum, so large
    scores do not overflow)."""
    z = z - z.max(axis=1, keepdims=True)
    e = np.exp(z)
    out: F32 = (e / e.sum(axis=1, keepdims=True)).astype(np.float32)
    return out


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
