"""Reading through a soft or smeared picture: what a lens out of focus or a shaken camera does to an
index, and what the recogniser does about it.

Why apart from :mod:`companion.vision.recognise`: these take a frame's readings and measures of blur
(:func:`companion.vision.index.suit_blur`, :func:`companion.vision.index.smear`) and keep no state,
while the recogniser keeps a filmed table's; each is a decision of its own (decisions 36, 37 and 43).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Final

import cv2
import numpy as np
import numpy.typing as npt

from companion.vision import index as idx
from companion.vision.reading import Reading
from companion.vision.settings import RecognitionSettings, ScaleSettings, SuitSettings
from companion.vision.types import Frame

__all__ = [
    "Judge",
    "by_marks_beside",
    "deblurred",
    "disc",
    "line",
    "sharpened",
    "smear_lines",
    "smeared",
    "soft_spades",
    "suits_by_shape",
]


#: What :func:`sharpened` asks of the namer: how surely it names each index of a few cut from
#: pictures (each a picture and one candidate in its pixels), as one figure (higher is surer).
Judge = Callable[[Sequence[tuple[Frame, idx.Candidate]]], float]


def sharpened(
    image: Frame, gray: Frame, scale: float, readings: Sequence[Reading], at: ScaleSettings, judge: Judge
) -> tuple[Frame | None, float]:
    """``image`` (the frame scaled by ``scale``; ``gray`` its grey) with the lens's blur or a smear
    taken out, or None where it needs neither; and the blur, as a share of an index's length (0 where
    nothing like an index was read).

    The blur is the median of :func:`index.suit_blur` over the ``at.soft_sample`` surest indices read
    in it (``readings``, frame pixels): a table lies at one distance from the lens, so its indices are
    alike soft, and a handful measure it for about half a millisecond. Where their suit marks' edges
    spread one way more than another (past ``at.soft_spread``) the frame is smeared, and a line's
    smear is searched for and taken out (:func:`_unblurred`). Otherwise, past ``at.soft_over``, it is
    out of focus: the lens's disc is what the suit marks' edges measure less what a sharp print's own
    edge measures (``at.sharp_share``), scaled to a disc's radius (``at.disc_per_spread``), and taken
    out (:func:`deblurred`).
    """
    # Where the blur took every index, nothing reads as one: then it is measured on what came nearest
    # (on the tuning tables smeared 7 pixels, one table of 100 was lost so, 1 card of 10 found).
    likely = [r for r in readings if r.not_index < 0.5] or list(readings)
    sample = _scaled(sorted(likely, key=lambda r: -r.confidence)[: at.soft_sample], scale)
    if not sample:
        return None, 0.0
    shares = idx.suit_blur(gray, sample)
    share = float(np.median(shares))
    spread = float(np.nanmedian(idx.spread_ratio(gray, sample)))

    def judged() -> list[idx.Candidate]:
        # The likeliest indices, not the surest read: those were read through the blur already, and
        # would judge it better left.
        return _scaled(sorted(likely, key=lambda r: r.not_index)[: at.smear_sample], scale)

    if spread > at.soft_spread:
        return _unblurred(image, gray, judged(), at, judge, None), share
    if share <= at.soft_over or not spread <= at.soft_spread:  # sharp, or unmeasured
        return None, share
    lens = np.sqrt(np.maximum(shares**2 - at.sharp_share**2, 0.0)) * np.array([c.length for c in sample])
    radius = at.disc_per_spread * float(np.median(lens))
    if spread > at.smear_doubt:
        return _unblurred(image, gray, judged(), at, judge, radius), share
    return deblurred(image, radius, at.deblur_noise), share


def _scaled(readings: Sequence[Reading], scale: float) -> list[idx.Candidate]:
    """The candidates of ``readings`` (frame pixels) in the pixels of the frame scaled by ``scale``."""
    return [
        idx.Candidate(
            (r.cand.rank[0] * scale, r.cand.rank[1] * scale),
            (r.cand.suit[0] * scale, r.cand.suit[1] * scale),
            r.cand.size * scale,
        )
        for r in readings
    ]


def _unblurred(
    image: Frame,
    gray: Frame,
    cands: Sequence[idx.Candidate],
    at: ScaleSettings,
    judge: Judge,
    radius: float | None,
) -> Frame | None:
    """``image`` with the smear of a shaken camera or a moving card taken out, or with the lens's disc
    of ``radius`` where that reads ``cands`` more surely; None where ``radius`` is None (the frame
    is plainly smeared) and no smear tried reads them more surely than the picture as it is.

    Why a search: a smear is a line of some length and direction, and the inverse of a line taken
    shorter than the smear leaves glyphs run together and names them wrong, so both must be found
    closely (on the tuning tables a 7-pixel smear taken out as 6 found a third of the cards, as 8
    nearly all). The lines tried are those :func:`smear_lines` measures (``at.smear_tries`` of them);
    each is taken out of a small picture around every index sampled and the namer judges how surely
    it reads them (``judge``); the surest wins. Where the suit marks spread one way a little more
    than another but the frame measures soft (``at.smear_doubt``), a slight smear and a lens's blur
    look alike, and the disc competes with the lines instead of the picture as it is.
    """
    seen = [_around(image, c) for c in cands]
    shapes = {picture.shape[:2] for picture, _ in seen}

    def sureness(psf: npt.NDArray[np.float64]) -> float:
        filters = {shape: _transfer(psf, shape, at.deblur_noise) for shape in shapes}
        return judge([(_through(picture, filters[picture.shape[:2]]), c) for picture, c in seen])

    best = judge(seen) if radius is None else sureness(_lens(radius))
    chosen: tuple[float, float] | None = None
    for length, angle in smear_lines(gray, cands)[: at.smear_tries]:
        tried = sureness(line(length, angle))
        if tried > best:
            best, chosen = tried, (length, angle)
    if chosen is None:
        return None if radius is None else deblurred(image, radius, at.deblur_noise)
    return _filtered(image, _kernel(line(*chosen), chosen[0], at.deblur_noise))


#: A sampled index's picture, each side of its middle, in rank-to-suit lengths: its patch
#: (:func:`companion.vision.index.patch_polygon`) with a margin for the smear's reach.
_AROUND: Final = 2.5
#: The directions a smear is measured along (half a turn in steps of 7.5 degrees) and the lengths
#: (pixels) it is measured at.
_SMEAR_ANGLES: Final = np.arange(24) * (np.pi / 24)
_SMEAR_LAGS: Final = np.arange(1, 17, dtype=np.float64)


def _around(image: Frame, c: idx.Candidate) -> tuple[Frame, idx.Candidate]:
    """A square picture of ``image`` around ``c``'s index (padded with its edge), a power of two
    wide, and ``c`` in its pixels."""
    middle = ((c.rank[0] + c.suit[0]) / 2, (c.rank[1] + c.suit[1]) / 2)
    side = 32
    while side < 2 * _AROUND * c.length:
        side *= 2
    x0, y0 = round(middle[0]) - side // 2, round(middle[1]) - side // 2
    h, w = image.shape[:2]
    picture = cv2.copyMakeBorder(
        image[max(y0, 0) : max(y0 + side, 0), max(x0, 0) : max(x0 + side, 0)],
        max(-y0, 0),
        max(y0 + side - h, 0),
        max(-x0, 0),
        max(x0 + side - w, 0),
        cv2.BORDER_REPLICATE,
    )
    moved = idx.Candidate((c.rank[0] - x0, c.rank[1] - y0), (c.suit[0] - x0, c.suit[1] - y0), c.size)
    return np.asarray(picture, np.uint8), moved


def smear_lines(gray: Frame, cands: Sequence[idx.Candidate]) -> list[tuple[float, float]]:
    """The smears (length in pixels, direction in radians, anticlockwise from the frame's rows) most
    likely to lie over ``cands``' indices, likeliest first: the deepest trough's direction at its
    trough's length and a pixel shorter, then the two directions either side of it, each at its own
    trough's length.

    Why troughs: smearing along a line of length L adds to every edge a copy of it L further along,
    of the opposite sign in the derivative along the line; the derivative's autocorrelation along the
    smear's direction then dips below zero at L (the print's own edges dip at about 2 pixels, every
    way alike). Measured over the sampled indices' pictures only, the table's grain and the cards'
    pictures do not sway it.
    """
    acc: dict[str, npt.NDArray[np.complex128]] = {}
    pictures = [_around(gray, c)[0] for c in cands]
    # One size of picture (the first's): the indices of a table are alike in size.
    for picture in (p for p in pictures if p.shape == pictures[0].shape):
        g = picture.astype(np.float64)
        window = np.outer(np.hanning(g.shape[0]), np.hanning(g.shape[1]))
        gx = np.zeros_like(g)
        gy = np.zeros_like(g)
        gx[:, 1:-1] = (g[:, 2:] - g[:, :-2]) / 2
        gy[1:-1] = (g[2:] - g[:-2]) / 2
        side = 2 * g.shape[0]  # zero-padded: no wrapping round
        fx = np.fft.rfft2(gx * window, (side, side))
        fy = np.fft.rfft2(gy * window, (side, side))
        for key, product in (("xx", fx * np.conj(fx)), ("yy", fy * np.conj(fy)), ("xy", fx * np.conj(fy))):
            acc[key] = acc.get(key, 0) + product
    if not acc:
        return []
    xx, yy, xy = (np.fft.fftshift(np.fft.irfft2(acc[k])) for k in ("xx", "yy", "xy"))
    side = xx.shape[0]
    middle = side // 2
    # R_xy at v plus R_xy at -v: the cross terms of the derivative along a direction.
    cross = xy + np.roll(xy[::-1, ::-1], (1, 1), axis=(0, 1))
    dips = np.zeros((len(_SMEAR_ANGLES), len(_SMEAR_LAGS)))
    for k, angle in enumerate(_SMEAR_ANGLES.tolist()):
        ca, sa = np.cos(angle), -np.sin(angle)  # rows run down the frame
        along = np.asarray(ca * ca * xx + sa * sa * yy + ca * sa * cross, np.float32)
        xs = (middle + _SMEAR_LAGS * ca).astype(np.float32)[None]
        ys = (middle + _SMEAR_LAGS * sa).astype(np.float32)[None]
        dips[k] = cv2.remap(along, xs, ys, cv2.INTER_LINEAR)[0] / max(float(along[middle, middle]), 1e-9)
    beyond = 2  # from 3 pixels: the print's own edges dip at about 2
    deepest = int(np.unravel_index(np.argmin(dips[:, beyond:]), dips[:, beyond:].shape)[0])
    out = []
    for step in (0, -1, 1, -2, 2):
        k = (deepest + step) % len(_SMEAR_ANGLES)
        out.append((float(_SMEAR_LAGS[beyond + int(np.argmin(dips[k, beyond:]))]), float(_SMEAR_ANGLES[k])))
    # The trough lies at the smear's length or a pixel past it (a line's ends are soft), and taken out
    # a pixel too long a smear reads hardly better than left in: the deepest direction is tried a pixel
    # shorter as well, second.
    out.insert(1, (out[0][0] - 1, out[0][1]))
    return out


def line(length: float, angle: float) -> npt.NDArray[np.float64]:
    """A smear: a line ``length`` pixels long at ``angle`` (radians, anticlockwise from the frame's
    rows), a pixel thick, its edge pixels covered in part, summing to one, on the middle pixel of a
    square of odd side."""

    def inside(x: npt.NDArray[np.float64], y: npt.NDArray[np.float64]) -> npt.NDArray[np.bool_]:
        along = x * np.cos(angle) - y * np.sin(angle)
        across = x * np.sin(angle) + y * np.cos(angle)
        return np.asarray((np.abs(along) <= length / 2) & (np.abs(across) <= 0.5))

    spot = _covered(inside, (int(np.ceil(length)) + 3) | 1)
    out: npt.NDArray[np.float64] = spot / float(spot.sum())
    return out


def _covered(
    inside: Callable[[npt.NDArray[np.float64], npt.NDArray[np.float64]], npt.NDArray[np.bool_]], size: int
) -> npt.NDArray[np.float64]:
    """How much of each pixel of a ``size`` x ``size`` square (its middle at 0, 0) a shape covers
    (``inside``: which points, x across and y down, lie in it), from 8 x 8 points a pixel."""
    fine = 8
    r = (np.arange(size * fine) + 0.5) / fine - size / 2
    x, y = np.meshgrid(r, r)
    out: npt.NDArray[np.float64] = (
        inside(x, y).astype(np.float64).reshape(size, fine, size, fine).mean(axis=(1, 3))
    )
    return out


def _transfer(
    psf: npt.NDArray[np.float64], shape: tuple[int, int], noise: float
) -> npt.NDArray[np.complex128]:
    """The Wiener filter undoing ``psf`` (its middle pixel the origin) on pictures of ``shape``, as
    :func:`numpy.fft.rfft2` gives their transforms."""
    size = psf.shape[0]
    spot = np.zeros(shape)
    spot[:size, :size] = psf
    h = np.fft.rfft2(np.roll(spot, (-(size // 2), -(size // 2)), axis=(0, 1)))
    out = np.asarray(np.conj(h) / (np.abs(h) ** 2 + noise), np.complex128)
    return out


def _through(picture: Frame, h: npt.NDArray[np.complex128]) -> Frame:
    """``picture`` (BGR) with its luminance passed through the filter ``h`` (see :func:`_transfer`)."""

    def through(y: Frame) -> Frame:
        passed = np.fft.irfft2(np.fft.rfft2(y.astype(np.float64)) * h, y.shape)
        return np.clip(np.round(passed), 0, 255).astype(np.uint8)

    return _on_luminance(picture, through)


def disc(radius: float, size: int) -> npt.NDArray[np.float64]:
    """A lens's blur out of focus: a disc ``radius`` pixels across its half, its edge pixels covered in
    part, summing to one, on the middle pixel of a ``size`` x ``size`` square (``size`` odd)."""
    spot = _covered(lambda x, y: np.asarray(x**2 + y**2 <= radius**2), size)
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
    return _filtered(image, _kernel(_lens(radius), radius, noise))


def _lens(radius: float) -> npt.NDArray[np.float64]:
    """The disc of ``radius`` on a square just large enough for it."""
    return disc(radius, 2 * (int(np.ceil(radius)) + 1) + 1)


def _kernel(psf: npt.NDArray[np.float64], extent: float, noise: float) -> npt.NDArray[np.float32]:
    """The Wiener filter undoing ``psf`` (a blur ``extent`` pixels across its half or its length) as
    a kernel reaching 12 times ``extent``, at least 32 pixels: the inverse rings far past the blur
    (its transform has zeros), and cut short it is no inverse at all."""
    reach = max(32, int(np.ceil(12 * extent)))
    size = 64
    while size < 4 * reach:
        size *= 2
    inverse = np.fft.fftshift(np.fft.irfft2(_transfer(psf, (size, size), noise), (size, size)))
    c = size // 2
    kernel = inverse[c - reach : c + reach + 1, c - reach : c + reach + 1]
    out: npt.NDArray[np.float32] = (kernel / kernel.sum()).astype(np.float32)
    return out


def _filtered(image: Frame, kernel: npt.NDArray[np.float32]) -> Frame:
    """``image`` with its luminance passed through ``kernel`` (see :func:`_on_luminance`)."""
    return _on_luminance(
        image, lambda y: np.asarray(cv2.filter2D(y, -1, kernel, borderType=cv2.BORDER_REPLICATE), np.uint8)
    )


def _on_luminance(image: Frame, change: Callable[[Frame], Frame]) -> Frame:
    """``image`` with ``change`` made to its luminance (YCrCb; a grey image is all luminance): the
    colours, which tell a red suit from a black one, are left as they were."""
    if image.ndim != 3:
        return change(image)
    ycc = np.asarray(cv2.cvtColor(image, cv2.COLOR_BGR2YCrCb), np.uint8)
    ycc[..., 0] = change(ycc[..., 0])
    return np.asarray(cv2.cvtColor(ycc, cv2.COLOR_YCrCb2BGR), np.uint8)


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


def by_marks_beside(
    ps: npt.NDArray[np.float32],
    even: npt.NDArray[np.float32],
    asked: npt.NDArray[np.bool_],
    gray: Frame,
    cands: list[idx.Candidate],
    settings: SuitSettings,
    club_notch: float,
    spade_notch: float,
) -> npt.NDArray[np.float32]:
    """``even`` (suit probabilities after :func:`soft_spades`) with each soft spade of ``asked`` (every
    rank but the ace's) named by the large suit mark printed beside its index (see
    :func:`companion.vision.index.court_pip_notches`), where that mark says plainly: notched at least
    ``club_notch`` deep, the club; at most ``spade_notch``, the spade (the bars the pips of a number
    card and an ace's one pip are read by). The black suit the network gave (``ps``) goes wholly to
    the one named. Elsewhere the card stays unread.

    Why: blur fills a club's notches in its index's small suit mark first, and past about 2.5 pixels
    the index alone no longer tells a club from a spade. Beside the index a court prints its picture
    frame's mark and a number card from four up its nearest pip, two to three times the index's suit
    mark (1.2-1.5 index lengths on the real deck), and they keep their notches through that blur, as
    an ace's pip does. A court has no pips to count (the tuning tables at a 2.5 pixel disc lost 7 of
    their 8 kings of spades), and a number card lying under the next card of the play shows one corner
    and no middle to count (at a 3 pixel disc, a spade so was left unread every time). An ace prints
    nothing beside its index: its one pip is asked (see :func:`companion.vision.arbitration._ace`).
    The glyphs of the other indices read (``cands``) are never taken for the mark: in a fanned hand
    the next card's index lies beside this one's.
    """
    soft = np.flatnonzero(asked & (even[:, 0] == even[:, 3]) & (np.argmax(ps, axis=1) == 3))
    if soft.size == 0:
        return even
    depth = idx.court_pip_notches(
        gray,
        [cands[k] for k in soft.tolist()],
        settings.court_across,
        settings.court_down,
        settings.court_inward,
        settings.court_size,
        settings.court_fill,
        settings.court_symmetry,
        [p for c in cands for p in (c.rank, c.suit)],
    )
    out = even.copy()
    black = ps[soft, 0] + ps[soft, 3]
    clubs, spades = depth >= club_notch, depth <= spade_notch
    out[soft[clubs], 0], out[soft[clubs], 3] = black[clubs], 0.0
    out[soft[spades], 3], out[soft[spades], 0] = black[spades], 0.0
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
