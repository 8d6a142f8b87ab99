"""Table scenes and what a camera does to them, written once for the build, the benchmarks and the tests.

Why one module: the build's training scenes, the webcam and table benchmarks and the pip tests each
blurred, lit, slanted and compressed their pictures in code of their own, four slightly different ways
of doing one thing, so a trouble measured in a benchmark was not the trouble the networks were taught.
The run time needs none of this: the demo film lays cards with :mod:`companion.vision.scene`, which
stays in the package (re-exported here, so a tool imports its scenes from one place).

Every function here is deterministic given its arguments (a generator where chance is wanted), and the
troubles take and give 8-bit BGR frames, except where noted for the float steps of a camera's pipeline
(``[0, 1]`` floats, so that light, glare and colour combine before the one rounding to 8 bits).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

from companion.vision.scene import Placement, compose, wood
from companion.vision.types import Frame

__all__ = [
    "Placement",
    "compose",
    "dim",
    "gaussian_blur",
    "glare_spot",
    "hard_shadow",
    "jpeg",
    "lit",
    "motion_blur",
    "noise_field",
    "placed_points",
    "random_table",
    "sensor_noise",
    "slant",
    "table_top",
    "tilt_view",
    "tilted",
    "vignette",
    "warp",
    "wood",
]

F32 = npt.NDArray[np.float32]
F64 = npt.NDArray[np.float64]
TABLES = ("light wood", "dark wood", "baize", "grey cloth")


# ------------------------------------------------------------------------------------------ table tops


def table_top(kind: str, width: int, height: int, seed: int) -> Frame:
    """A named table top (one of :data:`TABLES`): pale or stained wood, green baize or grey cloth."""
    if kind in ("light wood", "dark wood"):
        return wood(width, height, seed=seed, light=kind == "light wood")
    if kind not in TABLES:
        raise ValueError(f"no table top called {kind!r}")
    rng = np.random.default_rng(seed)
    colour = np.array([60.0, 110.0, 40.0]) if kind == "baize" else np.array([120.0, 120.0, 118.0])
    weave = cv2.GaussianBlur(rng.standard_normal((height, width)).astype(np.float32), (0, 0), 1.2) * 12.0
    top: Frame = np.clip(colour[None, None, :] + weave[..., None], 0, 255).astype(np.uint8)
    return top


def noise_field(rng: np.random.Generator, h: int, w: int, scale: float) -> F32:
    """Smooth noise, about one unit strong, whose blobs are about ``scale`` pixels across."""
    small = rng.standard_normal((max(2, int(h / scale)), max(2, int(w / scale)))).astype(np.float32)
    out = np.asarray(cv2.resize(small, (w, h), interpolation=cv2.INTER_CUBIC), np.float32)
    return out


def random_table(rng: np.random.Generator, h: int, w: int) -> F32:
    """A table top drawn at random (light and dark wood, cloth, cork, a pattern, plain), as floats."""
    kind = rng.choice(["light_wood", "light_wood", "dark_wood", "cloth", "cork", "pattern", "plain"])
    if kind in ("light_wood", "dark_wood"):
        # Grain: noise stretched along one axis, bent by low-frequency noise, then rotated.
        big = int(np.hypot(h, w)) + 4
        grain = noise_field(rng, big, big, 1.0)
        grain = np.asarray(cv2.resize(cv2.resize(grain, (big // 40 + 2, big)), (big, big)), np.float32)
        bend = noise_field(rng, big, big, 60.0) * 6
        lines = np.sin((np.arange(big)[None, :] + bend) / rng.uniform(3, 12)) * 0.5
        tex = grain * 0.5 + lines + noise_field(rng, big, big, 30.0) * 0.4
        m = cv2.getRotationMatrix2D((big / 2, big / 2), float(rng.uniform(0, 180)), 1.0)
        tex = cv2.warpAffine(tex, m, (big, big))[
            (big - h) // 2 : (big - h) // 2 + h, (big - w) // 2 : (big - w) // 2 + w
        ]
        if kind == "light_wood":
            base = np.array([rng.uniform(120, 190), rng.uniform(160, 215), rng.uniform(190, 240)])
        else:
            base = np.array([rng.uniform(20, 60), rng.uniform(40, 90), rng.uniform(70, 130)])
        amp = rng.uniform(6, 22)
        img = base[None, None, :] + tex[..., None] * amp * np.array([0.8, 0.9, 1.0])
    elif kind == "cloth":
        base = rng.uniform(20, 200, 3)
        img = base[None, None, :] + noise_field(rng, h, w, 1.5)[..., None] * rng.uniform(2, 10)
    elif kind == "cork":
        base = np.array([rng.uniform(60, 110), rng.uniform(110, 150), rng.uniform(150, 200)])
        img = (
            base[None, None, :]
            + (noise_field(rng, h, w, 2.0) * 14 + noise_field(rng, h, w, 6.0) * 8)[..., None]
        )
    elif kind == "pattern":
        img = np.zeros((h, w, 3), np.float32) + rng.uniform(60, 220, 3)
        for _ in range(int(rng.integers(10, 60))):
            colour = tuple(float(c) for c in rng.uniform(0, 255, 3))
            centre = (int(rng.integers(0, w)), int(rng.integers(0, h)))
            if rng.random() < 0.5:
                cv2.circle(img, centre, int(rng.integers(3, 40)), colour, -1)
            else:
                size = (int(rng.integers(3, 60)), int(rng.integers(3, 60)))
                cv2.ellipse(
                    img, centre, size, float(rng.uniform(0, 180)), 0, 360, colour, int(rng.integers(1, 6))
                )
        img += noise_field(rng, h, w, 2.0)[..., None] * 5
    else:
        img = np.zeros((h, w, 3), np.float32) + rng.uniform(30, 235, 3)
        img += noise_field(rng, h, w, 3.0)[..., None] * 6
    out: F32 = np.asarray(img, np.float32)
    return out


def placed_points(
    points: Sequence[tuple[float, float]], size: tuple[int, int], p: Placement
) -> list[tuple[float, float]]:
    """Points of a card picture ``size`` (w, h) where :func:`compose` lays them for placement ``p``."""
    w, h = size
    m = cv2.getRotationMatrix2D((w / 2, h / 2), p.angle, p.width / w)
    m[:, 2] += np.array([p.x - w / 2, p.y - h / 2])
    moved = cv2.transform(np.array([points], np.float32), m)[0]
    return [(float(x), float(y)) for x, y in moved]


# ------------------------------------------------------------------------------------ the camera's view


def warp(frame: Frame, m: npt.NDArray[Any], fill: tuple[float, float, float] | None = None) -> Frame:
    """``frame`` through the homography ``m``, at its own size, the gaps filled by mirroring the picture
    (or, with ``fill``, in that colour: a mirrored card near the edge would be a second card)."""
    h, w = frame.shape[:2]
    if fill is None:
        warped = cv2.warpPerspective(frame, m, (w, h), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT)
    else:
        warped = cv2.warpPerspective(
            frame, m, (w, h), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT, borderValue=fill
        )
    out: Frame = np.asarray(warped, np.uint8)
    return out


def slant(w: int, h: int, far: int, shorter: float) -> F64:
    """The homography taking a straight-down view of a ``w`` x ``h`` frame to a slanted one: the frame's
    edge ``far`` (0 top, 1 right, 2 bottom, 3 left) ``shorter`` of its length shorter than the near
    edge."""
    src = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32)
    dst = src.copy()
    first, second = far, (far + 1) % 4  # the two corners of that edge
    pull = (dst[second] - dst[first]) * shorter / 2
    dst[first] += pull
    dst[second] -= pull
    m = np.asarray(cv2.getPerspectiveTransform(src, dst), np.float64)
    return m


def tilted(frame: Frame, far: int, shorter: float) -> Frame:
    """The table as a camera looking down at a slant sees it (see :func:`slant`), the gaps beside the
    far edge filling the frame (the table mirrored where the picture had none)."""
    h, w = frame.shape[:2]
    return warp(frame, slant(w, h, far, shorter))


def tilt_view(w: int, h: int, degrees: float, turn: float = 0.0, fov: float = 60.0) -> F64:
    """The homography from a straight-down view of a ``w`` x ``h`` frame to the view of the same camera
    moved round the frame's centre to look at it ``degrees`` off straight down, leaning towards
    ``turn`` (degrees anticlockwise from the frame's bottom edge); ``fov``: the lens's width of view.

    Why measured in degrees: a tilt is how far the camera's arm leans, and a pinhole's view of a plane
    from a camera at the same distance, turned by that angle, is this homography exactly: the far side
    shrinks, the near side grows and the whole is foreshortened by the cosine along the lean.
    """
    f = (w / 2) / math.tan(math.radians(fov) / 2)
    t = math.radians(degrees)
    centre = np.array([[1.0, 0.0, -w / 2], [0.0, 1.0, -h / 2], [0.0, 0.0, 1.0]])
    a = math.radians(turn)
    spin = np.array([[math.cos(a), -math.sin(a), 0.0], [math.sin(a), math.cos(a), 0.0], [0.0, 0.0, 1.0]])
    lean = np.array([[1.0, 0.0, 0.0], [0.0, math.cos(t), 0.0], [0.0, math.sin(t) / f, 1.0]])
    m = np.linalg.inv(centre) @ spin @ lean @ spin.T @ centre
    out: F64 = np.asarray(m / m[2, 2], np.float64)
    return out


# ------------------------------------------------------------------------------ light on the table


def dim(img: F32, light: float) -> F32:
    """A [0, 1] picture in light ``light`` times as bright as it was taken (dim light darkens the
    mid-tones most, as a camera's exposure curve does)."""
    out: F32 = img ** (1.0 / max(light, 0.1)) * light
    return out


def vignette(img: F32, strength: float = 0.125) -> F32:
    """A [0, 1] picture darker towards its corners, as a cheap lens's rim is (``strength``: the light
    lost at the middle of each edge)."""
    h, w = img.shape[:2]
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    rim = ((xx - w / 2) / (w / 2)) ** 2 + ((yy - h / 2) / (h / 2)) ** 2
    out: F32 = img * (1.0 - 2.0 * strength * rim / 2.0)[..., None]
    return out


def glare_spot(h: int, w: int, centre: tuple[int, int], radius: int, softness: float) -> F32:
    """A lamp's bright spot, 0 to 1, a disc of ``radius`` softened by a blur of ``softness`` pixels."""
    spot = np.zeros((h, w), np.float32)
    cv2.circle(spot, centre, radius, 1.0, -1)
    out: F32 = np.asarray(cv2.GaussianBlur(spot, (0, 0), softness), np.float32)
    return out


def lit(
    frame: Frame, gains: tuple[float, float, float], glare: tuple[float, float, float] | None = None
) -> Frame:
    """``frame`` under a tinted light (``gains`` per channel, B G R) and, if given, a lamp's glare: a
    bright spot (x, y, radius) lifting whatever lies under it towards white."""
    img = frame.astype(np.float32) / 255.0
    if glare is not None:
        x, y, radius = glare
        img += (
            glare_spot(frame.shape[0], frame.shape[1], (round(x), round(y)), round(radius), radius * 0.6)[
                ..., None
            ]
            * 0.6
        )
    img *= np.array(gains, np.float32)
    out: Frame = np.clip(img * 255.0, 0, 255).astype(np.uint8)
    return out


def hard_shadow(frame: Frame, edge: tuple[float, float], turn: float, depth: float = 0.45) -> Frame:
    """``frame`` with a hard shadow (a player's arm, a lamp behind a glass) over everything on one side
    of a straight edge through ``edge`` running at ``turn`` degrees; ``depth``: the light taken away.

    Why a hard one: a soft shadow only dims a card, a sharp edge across it puts a step of brightness
    through its white and its index that no threshold fitted to one level of light treats alike.
    """
    h, w = frame.shape[:2]
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    a = math.radians(turn)
    side = (xx - edge[0]) * math.sin(a) + (yy - edge[1]) * math.cos(a)
    # Half a pixel of softening: a real edge is never sharper than the lens.
    shade = 1.0 - depth * np.clip(side + 0.5, 0.0, 1.0)
    out: Frame = np.clip(frame.astype(np.float32) * shade[..., None], 0, 255).astype(np.uint8)
    return out


# ----------------------------------------------------------------------------------------- the lens


def gaussian_blur(frame: Frame, sigma: float) -> Frame:
    """A lens out of focus: a Gaussian blur of ``sigma`` pixels."""
    out: Frame = np.asarray(cv2.GaussianBlur(frame, (0, 0), sigma), frame.dtype)
    return out


def motion_blur(frame: Frame, length: float, turn: float) -> Frame:
    """A camera (or card) moving during the exposure: each point smeared along a line ``length``
    pixels long at ``turn`` degrees."""
    size = max(3, math.ceil(length) | 1)
    kernel = np.zeros((size, size), np.float32)
    c = size // 2
    a = math.radians(turn)
    dx, dy = math.cos(a) * length / 2, -math.sin(a) * length / 2
    cv2.line(
        kernel,
        (round(c * 16 - dx * 16), round(c * 16 - dy * 16)),
        (round(c * 16 + dx * 16), round(c * 16 + dy * 16)),
        1.0,
        1,
        cv2.LINE_AA,
        4,
    )
    kernel /= kernel.sum()
    out: Frame = np.asarray(cv2.filter2D(frame, -1, kernel, borderType=cv2.BORDER_REFLECT), np.uint8)
    return out


def sensor_noise(img: F32, sigma: float, rng: np.random.Generator) -> F32:
    """A picture (any scale) with a sensor's noise of ``sigma`` (in the picture's units) added."""
    out: F32 = img + rng.normal(0.0, sigma, img.shape).astype(np.float32)
    return out


def jpeg(frame: Frame, quality: int) -> Frame:
    """``frame`` saved as a JPEG of ``quality`` and read back, with the losses that brings."""
    ok, enc = cv2.imencode(".jpg", frame, [cv2.IMWRITE_JPEG_QUALITY, int(quality)])
    if not ok:
        raise RuntimeError("OpenCV could not encode a JPEG")
    out: Frame = np.asarray(cv2.imdecode(enc, cv2.IMREAD_COLOR), np.uint8)
    return out
