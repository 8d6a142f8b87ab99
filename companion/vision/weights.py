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


def flush_subnormals(a: F32) -> F32:
    """``a`` with every weight too small for float32's normal range set to zero.

    Training leaves tens of thousands of weights decayed to subnormal values (under about 1.2e-38).
    They change no output, but on CPUs without flush-to-zero (x86 by default, and BLAS builds that do
    not set it) each product with one takes a slow path: with NumPy's OpenBLAS 0.3.31 the finder's
    first layer alone cost 30 ms a frame instead of well under one.
    """
    out: F32 = np.where(np.abs(a) < np.finfo(np.float32).smallest_normal, np.float32(0), a)
    return out


class Weights:
    """Mixed into a frozen dataclass whose every field is a float32 array."""

    @classmethod
    def load(cls, path: Path) -> Self:
        names = [f.name for f in dataclasses.fields(cls)]  # type: ignore[arg-type]
        with np.load(path) as data:
            return cls(**{name: flush_subnormals(data[name].astype(np.float32)) for name in names})

    def save(self, path: Path) -> None:
        arrays = {f.name: getattr(self, f.name) for f in dataclasses.fields(self)}  # type: ignore[arg-type]
        np.savez_compressed(path, **arrays)
