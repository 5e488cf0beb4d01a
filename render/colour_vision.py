"""How far apart a picture's colours stay for a viewer with a colour-vision deficiency.

The simulation is Machado, Oliveira and Fernandes, "A Physiologically-based Model for
Simulation of Color Vision Deficiency", IEEE TVCG 15(6), 2009: one 3x3 matrix per deficiency
(here severity 1.0, the full dichromacy), applied to linear RGB (sRGB decoded, then encoded
again and clipped). The distance is CIE76 ΔE: the Euclidean distance in CIELAB (D65 white),
where about 2 is barely noticeable. Pure functions of RGB triples; no image is touched.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from enum import Enum
from itertools import combinations

RGB = tuple[int, int, int]
Matrix = tuple[tuple[float, float, float], ...]


class Vision(Enum):
    """A way of seeing colour: normal, or one of the three dichromacies."""

    NORMAL = "normal"
    PROTAN = "protanopia"
    DEUTAN = "deuteranopia"
    TRITAN = "tritanopia"


MACHADO: dict[Vision, Matrix] = {
    Vision.PROTAN: (
        (0.152286, 1.052583, -0.204868),
        (0.114503, 0.786281, 0.099216),
        (-0.003882, -0.048116, 1.051998),
    ),
    Vision.DEUTAN: (
        (0.367322, 0.860646, -0.227968),
        (0.280085, 0.672501, 0.047413),
        (-0.011820, 0.042940, 0.968881),
    ),
    Vision.TRITAN: (
        (1.255528, -0.076749, -0.178779),
        (-0.078411, 0.930809, 0.147602),
        (0.004733, 0.691367, 0.303900),
    ),
}
"""Machado et al. 2009, table of severity 1.0, on linear RGB."""

_SRGB_TO_XYZ: Matrix = (
    (0.4124564, 0.3575761, 0.1804375),
    (0.2126729, 0.7151522, 0.0721750),
    (0.0193339, 0.1191920, 0.9503041),
)
_WHITE = (0.95047, 1.0, 1.08883)
"""The D65 white point in XYZ (Y = 1)."""


def _decode(channel: int) -> float:
    c = channel / 255
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4


def _encode(linear: float) -> int:
    c = min(1.0, max(0.0, linear))
    c = 12.92 * c if c <= 0.0031308 else 1.055 * c ** (1 / 2.4) - 0.055
    return round(c * 255)


def _apply(m: Matrix, v: Sequence[float]) -> tuple[float, float, float]:
    return (
        m[0][0] * v[0] + m[0][1] * v[1] + m[0][2] * v[2],
        m[1][0] * v[0] + m[1][1] * v[1] + m[1][2] * v[2],
        m[2][0] * v[0] + m[2][1] * v[1] + m[2][2] * v[2],
    )


def simulate(colour: RGB, vision: Vision) -> RGB:
    """``colour`` as a viewer with ``vision`` sees it (sRGB in, sRGB out)."""
    if vision is Vision.NORMAL:
        return colour
    seen = _apply(MACHADO[vision], [_decode(c) for c in colour])
    return (_encode(seen[0]), _encode(seen[1]), _encode(seen[2]))


def lab(colour: RGB) -> tuple[float, float, float]:
    """``colour`` (sRGB) in CIELAB under D65."""
    xyz = _apply(_SRGB_TO_XYZ, [_decode(c) for c in colour])

    def f(t: float) -> float:
        return t ** (1 / 3) if t > (6 / 29) ** 3 else t / (3 * (6 / 29) ** 2) + 4 / 29

    fx, fy, fz = (f(v / w) for v, w in zip(xyz, _WHITE, strict=True))
    return 116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)


def delta_e(a: RGB, b: RGB, vision: Vision = Vision.NORMAL) -> float:
    """CIE76 ΔE between ``a`` and ``b`` as a viewer with ``vision`` sees them."""
    return math.dist(lab(simulate(a, vision)), lab(simulate(b, vision)))


def min_delta_e(palette: Sequence[RGB], vision: Vision = Vision.NORMAL) -> float:
    """The smallest ΔE between any two colours of ``palette`` under ``vision``."""
    return min(delta_e(a, b, vision) for a, b in combinations(palette, 2))


def hex_rgb(code: str) -> RGB:
    """``"#0072b2"`` as ``(0, 114, 178)``."""
    h = code.lstrip("#")
    return (int(h[0:2], 16), int(h[2:4], 16), int(h[4:6], 16))
