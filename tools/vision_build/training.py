"""Training the two networks on the collected samples: the finder (the perceptron of
:mod:`companion.vision.mlp`, on gradient features of its patches, in NumPy) and the namer (the
convolutional network of :mod:`companion.vision.cnn`, with PyTorch, the ``train`` extra).

The namer's training lives here rather than beside its forward pass: the companion reads cards with
NumPy alone, and only a build needs PyTorch.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from companion.vision import cnn
from companion.vision import index as idx
from companion.vision.cnn import CHANNELS, HIDDEN, LAYERS, Namer
from companion.vision.mlp import NOT_INDEX, SUIT_TEXTS, Network, train
from tools.vision_build.datasets import Samples

__all__ = ["train_finder", "train_namer"]

#: Samples turned into features a slice at a time, to keep memory flat.
_STEP = 20_000


def train_finder(samples: Samples, *, seed: int, epochs: int, progress: bool = True) -> Network:
    """The finder fitted on the samples' patches at its own resolution."""
    p, _, r, s = samples
    x = np.concatenate([idx.patch_features(p[k : k + _STEP]) for k in range(0, len(p), _STEP)])
    return train(x, r, s, seed=seed, epochs=epochs, progress=progress)


def namer_inputs(samples: Samples) -> npt.NDArray[np.float16]:
    """The namer's inputs as float16: at its resolution, float32 inputs of every sample would not fit
    in the memory of a small machine."""
    q = samples[1]
    return np.concatenate([cnn.inputs(q[k : k + _STEP]).astype(np.float16) for k in range(0, len(q), _STEP)])


def train_namer(
    x: npt.NDArray[np.float32] | npt.NDArray[np.float16],
    rank: npt.NDArray[np.int64],
    suit: npt.NDArray[np.int64],
    *,
    seed: int,
    epochs: int = 6,
    batch: int = 256,
    progress: bool = True,
) -> Namer:
    """Fit the namer with PyTorch on inputs from :func:`companion.vision.cnn.inputs` (kept as float16
    if memory is short: each batch is widened to float32).

    ``suit`` is ignored where ``rank`` is "not an index". Seeded and run on a fixed number of threads
    with deterministic kernels, so a rebuild on the same machine gives the same weights. Light noise
    and one-pixel shifts guard against learning the exact pixels of the rendered decks; dropout before
    the heads against leaning on a few features.
    """
    import torch  # the train extra; not needed to run the companion
    from torch import nn
    from torch.nn import functional

    torch.manual_seed(seed)
    torch.set_num_threads(2)
    torch.use_deterministic_algorithms(True)

    class Net(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            c = (CHANNELS, *LAYERS)
            self.convs = nn.ModuleList(nn.Conv2d(c[k], c[k + 1], 3, padding=1) for k in range(3))
            cells = (x.shape[2] // 8) * (x.shape[3] // 8)
            self.f1 = nn.Linear(LAYERS[-1] * cells, HIDDEN)
            self.rank = nn.Linear(HIDDEN, NOT_INDEX + 1)
            self.suit = nn.Linear(HIDDEN, len(SUIT_TEXTS))
            self.drop = nn.Dropout(0.3)

        def forward(self, h: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
            for conv in self.convs:
                h = functional.max_pool2d(functional.relu(conv(h)), 2)
            hidden = self.drop(functional.relu(self.f1(h.flatten(1))))
            return self.rank(hidden), self.suit(hidden)

    net = Net()
    n = len(x)
    steps = epochs * (n // batch)
    opt = torch.optim.AdamW(net.parameters(), 2e-3, weight_decay=1e-4)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, 3e-3, total_steps=steps)
    xt = torch.from_numpy(x)
    rt = torch.from_numpy(rank.astype(np.int64))
    st = torch.from_numpy(suit.astype(np.int64))
    gen = torch.Generator().manual_seed(seed)
    for epoch in range(epochs):
        net.train()
        order = torch.randperm(n, generator=gen)
        total = 0.0
        for k in range(n // batch):
            sel = order[k * batch : (k + 1) * batch]
            xb = xt[sel].float() + 0.05 * torch.randn(batch, *x.shape[1:], generator=gen)
            dy, dx = (int(v) for v in torch.randint(-1, 2, (2,), generator=gen))
            xb = torch.roll(xb, (dy, dx), (2, 3))
            rb = rt[sel]
            out_rank, out_suit = net(xb)
            is_index = (rb != NOT_INDEX).float()
            loss = (
                functional.cross_entropy(out_rank, rb)
                + (functional.cross_entropy(out_suit, st[sel], reduction="none") * is_index).mean()
            )
            opt.zero_grad()
            torch.autograd.backward(loss)
            opt.step()
            sched.step()
            total += float(loss.detach())
        if progress:
            print(f"  namer epoch {epoch + 1}/{epochs}: loss {total / max(n // batch, 1):.4f}", flush=True)
    net.eval()

    weights = {name: t.detach().numpy().astype(np.float32) for name, t in net.state_dict().items()}
    names = {"convs.0": "c0", "convs.1": "c1", "convs.2": "c2", "f1": "f1", "rank": "r", "suit": "s"}
    return Namer(
        **{
            f"{short}{kind[0]}": weights[f"{layer}.{kind}"]
            for layer, short in names.items()
            for kind in ("weight", "bias")
        }
    )
