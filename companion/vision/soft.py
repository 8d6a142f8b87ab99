"""Reading through a soft or smeared picture: what a lens out of focus or a shaken camera does to an
index, and what the recogniser does about it.

Why apart from :mod:`companion.vision.recognise`: these take a frame's readings and measures of blur
(:func:`companion.vision.index.suit_blur`, :func:`companion.vision.index.smear`) and keep no state,
while the recogniser keeps a filmed table's; each is a decision of its own (decisions 36, 37 and 43).
"""

from __future__ import annotations

from collections.abc import Sequence

import cv2
import numpy as np
import numpy.typing as npt

from companion.vision import index as idx
from companion.vision.reading import Reading
from companion.vision.settings import RecognitionSettings, ScaleSettings, SuitSettings
from companion.vision.types import Frame

__all__ = ["deblurred", "disc", "sharpened", "smeared", "soft_spades", "suits_by_shape"]


def sharpened(
    image: Frame, gray: Frame, scale: float, readings: Sequence[Reading], at: ScaleSettings
) -> tuple[Frame | None, float]:
    """``image`` (the frame scaled by ``scale``; ``gray`` its grey) with the lens's blur taken out
    (:func:`deblurred`), or None where it needs none; and that blur, as a share of an index's length
    (0 where nothing like an index was read).

    The blur is the median of :func:`index.suit_blur` over the ``at.soft_sample`` surest indices read
    in it (``readings``, frame pixels): a table lies at one distance from the lens, so its indices are
    alike soft, and a handful measure it for about half a millisecond. Taken out past ``at.soft_over``,
    where the frame is soft every way alike (out of focus, not smeared: ``at.soft_spread``). The
    lens's disc is what the suit marks' edges measure less what a sharp print's own edge measures
    (``at.sharp_share``), scaled to a disc's radius (``at.disc_per_spread``).
    """
    likely = sorted((r for r in readings if r.not_index < 0.5), key=lambda r: -r.confidence)
    cands = [
        idx.Candidate(
            (r.cand.rank[0] * scale, r.cand.rank[1] * scale),
            (r.cand.suit[0] * scale, r.cand.suit[1] * scale),
            r.cand.size * scale,
        )
        for r in likely[: at.soft_sample]
    ]
    if not cands:
        return None, 0.0
    shares = idx.suit_blur(gray, cands)
    share = float(np.median(shares))
    if share <= at.soft_over:
        return None, share
    if not float(np.nanmedian(idx.spread_ratio(gray, cands))) <= at.soft_spread:  # a smear, or unmeasured
        return None, share
    lens = np.sqrt(np.maximum(shares**2 - at.sharp_share**2, 0.0)) * np.array([c.length for c in cands])
    return deblurred(image, at.disc_per_spread * float(np.median(lens)), at.deblur_noise), share


def disc(radius: float, size: int) -> npt.NDArray[np.float64]:
    """A lens's blur out of focus: a disc ``radius`` pixels across its half, its edge pixels covered in
    part, summing to one, on the middle pixel of a ``size`` x ``size`` square (``size`` odd)."""
    fine = 8
    r = (np.arange(size * fine) + 0.5) / fine - size / 2
    inside = (r[:, None] ** 2 + r[None, :] ** 2 <= radius**2).astype(np.float64)
    spot = inside.reshape(size, fine, size, fine).mean(axis=(1, 3))
    total = float(spot.sum())
    if total <= 0:
        spot[size // 2, size // 2] = 1.0
        total = 1.0
    out: npt.NDArray[np.float64] = spot / total
    return out


def deblurred(image: Frame, radius: float, noise: float) -> Frame:
    """``image`` with a lens's blur of ``radius`` pixels taken out by a Wiener filter: the inverse of
    the disc's blur, held back where the disc passes little (``noise``: the power of the noise against
    the picture's), as a small kernel.

    Why a disc and not a Gaussian: a lens out of focus spreads each point over its aperture's image,
    a disc; its blur has zeros an unsharp mask knows nothing of, and inverting it brings back the
    narrow gaps of a glyph (a club's notches, a 3's bowls) that a mask only steepens."""
    if radius < 0.5:
        return image
    # The inverse rings far past the disc (its blur has zeros): cut short, it is no inverse at all.
    reach = max(32, int(np.ceil(12 * radius)))
    size = 64
    while size < 4 * reach:
        size *= 2
    # The disc's middle pixel at the origin, as the transform takes a kernel.
    spread = int(np.ceil(radius)) + 1
    psf = np.zeros((size, size))
    psf[: 2 * spread + 1, : 2 * spread + 1] = disc(radius, 2 * spread + 1)
    h = np.fft.fft2(np.roll(psf, (-spread, -spread), axis=(0, 1)))
    inverse = np.real(np.fft.fftshift(np.fft.ifft2(np.conj(h) / (np.abs(h) ** 2 + noise))))
    c = size // 2
    kernel = inverse[c - reach : c + reach + 1, c - reach : c + reach + 1]
    kernel = (kernel / kernel.sum()).astype(np.float32)
    if image.ndim == 3:
        ycc = np.asarray(cv2.cvtColor(image, cv2.COLOR_BGR2YCrCb), np.uint8)
        ycc[..., 0] = cv2.filter2D(ycc[..., 0], -1, kernel, borderType=cv2.BORDER_REPLICATE)
        return np.asarray(cv2.cvtColor(ycc, cv2.COLOR_YCrCb2BGR), np.uint8)
    return np.asarray(cv2.filter2D(image, -1, kernel, borderType=cv2.BORDER_REPLICATE), np.uint8)


def suits_by_shape(
    ps: npt.NDArray[np.float32],
    notch: npt.NDArray[np.float32],
    joined: npt.NDArray[np.bool_],
    settings: SuitSettings,
) -> npt.NDArray[np.float32]:
    """Suit probabilities with the suit mark's shape weighed in (its notch depth; NaN: no evidence).

    The network's split between the two suits of one colour is shifted in log-odds by the shape's
    evidence (clipped), leaving the share given to each colour as it was. ``joined`` marks candidates
    whose suit mark was cut from its rank glyph, measured against their own split (see
    :class:`SuitSettings`).
    """
    out = ps.astype(np.float64)
    ok = ~np.isnan(notch)
    split = np.where(joined, settings.joined_notch_split, settings.notch_split)
    scale = np.where(joined, settings.joined_notch_scale, settings.notch_scale)
    z = np.where(ok, (np.nan_to_num(notch) - split) / scale, 0.0)
    # club/spade, heart/diamond
    for notched, plain, sway in ((0, 3, settings.black_sway), (2, 1, settings.red_sway)):
        pair = out[:, notched] + out[:, plain]
        logit = np.log(out[:, notched] + 1e-9) - np.log(out[:, plain] + 1e-9) + np.clip(z, -sway, sway)
        share = 1.0 / (1.0 + np.exp(-logit))
        out[:, notched] = pair * share
        out[:, plain] = pair * (1.0 - share)
    result: npt.NDArray[np.float32] = out.astype(np.float32)
    return result


def soft_spades(
    ps: npt.NDArray[np.float32],
    gray: Frame,
    cands: list[idx.Candidate],
    settings: SuitSettings,
    softness: float = 0.0,
) -> npt.NDArray[np.float32]:
    """Suit probabilities ``ps`` of ``cands`` with each spade whose suit mark is too blurred to tell
    from a club (see SuitSettings.spade_blur) made a coin toss between the two: its card is reported
    unread, not named wrong. A mark is taken to be at least ``softness`` blurred (the frame's blur
    before it was sharpened)."""
    spade = np.flatnonzero(np.argmax(ps, axis=1) == 3)
    if spade.size == 0:
        return ps
    blur = np.maximum(idx.suit_blur(gray, [cands[k] for k in spade.tolist()]), softness)
    soft = spade[blur > settings.spade_blur]
    out = ps.copy()
    out[soft, 0] = out[soft, 3] = (ps[soft, 0] + ps[soft, 3]) / 2
    return out


def smeared(
    confidence: npt.NDArray[np.float32],
    gray: Frame,
    cands: list[idx.Candidate],
    settings: RecognitionSettings,
) -> npt.NDArray[np.float32]:
    """``confidence`` of ``cands`` with each index smeared past ReadingSettings.smear_strokes and read
    below ``smeared_accept`` brought under its bar (scaled by the bar over ``smeared_accept``): its
    corner is reported unread, and its card named from the other corner if that one is sharp. Only
    readings that would name a card are measured (a sharp table has few under ``smeared_accept``)."""
    at = settings.reading
    bars = np.array([at.needed(c.freed) for c in cands], np.float32)
    doubtful = np.flatnonzero((confidence >= bars) & (confidence < at.smeared_accept))
    if doubtful.size == 0:
        return confidence
    smeared = doubtful[idx.smear(gray, [cands[k] for k in doubtful.tolist()]) > at.smear_strokes]
    out = confidence.copy()
    out[smeared] *= bars[smeared] / at.smeared_accept
    return out
