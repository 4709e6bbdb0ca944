"""Pips drilled into a die's face and filled with a glossy ink, as the gold and silver pips of
many dice sets are: each pip is brighter on one side than the other, its rim is in shadow on
the dark side, and the light catches it in a highlight. The renderer's other pips are flat
paint; a detector that has only seen those takes the shiny gold pips of a black die for small
dice of their own (Roboflow test ``dice_418``)."""

import math
from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class Shine:
    """How one die's pips catch the light (the same for all its faces)."""

    angle: float  # the direction the light comes from, in the face texture (radians)
    slope: float  # the lit side is this much brighter than the pip's mean, the far side darker
    rim: float  # how much darker the rim is on the side away from the light
    highlight: float  # the highlight's strength (0–255 added at its peak)


def sample_shine(rng: np.random.Generator) -> Shine:
    """A random shine, from matt drilled pips to gold ones that glint."""
    return Shine(
        angle=float(rng.uniform(0, 2 * math.pi)),
        slope=float(rng.uniform(0.2, 0.6)),
        rim=float(rng.uniform(0.25, 0.6)),
        highlight=float(rng.uniform(40, 170)),
    )


def shiny_pip(ink: np.ndarray, radius: float, shine: Shine) -> tuple[np.ndarray, np.ndarray]:
    """One pip of ``radius`` pixels as a square patch centred on the pip: its colour (already
    multiplied by its coverage) and its coverage, both 0 outside the disc."""
    half = int(math.ceil(radius)) + 1
    dy, dx = np.mgrid[-half : half + 1, -half : half + 1].astype(np.float32)
    reach = np.hypot(dx, dy) / radius  # 0 at the centre, 1 on the rim
    cover = np.clip((1 - reach) * radius + 0.5, 0, 1)
    toward = (dx * math.cos(shine.angle) + dy * math.sin(shine.angle)) / radius  # -1 .. 1
    rim = np.clip((reach - 0.7) / 0.3, 0, 1) * np.clip(0.3 - toward, 0, 1)
    brightness = np.clip(1 + shine.slope * toward - shine.rim * rim, 0.15, None)
    glint_at = 0.45 * radius * np.array([math.cos(shine.angle), math.sin(shine.angle)])
    glint = np.exp(-((dx - glint_at[0]) ** 2 + (dy - glint_at[1]) ** 2) / (2 * (0.25 * radius) ** 2))
    tint = 0.5 + 0.5 * ink / 255  # a metal's highlight takes some of its colour
    colour = ink * brightness[..., None] + shine.highlight * glint[..., None] * tint
    colour = np.clip(colour, 0, 255)
    return colour * cover[..., None], cover


def paint_shiny_pips(
    size: int, centres: list[tuple[int, int]], radius: float, ink: np.ndarray, shine: Shine
) -> tuple[np.ndarray, np.ndarray]:
    """The pips at ``centres`` on a ``size``×``size`` canvas: colour (multiplied by coverage)
    and coverage. Pips lie wholly inside the canvas and never overlap (a die's layout)."""
    colour = np.zeros((size, size, 3), np.float32)
    cover = np.zeros((size, size), np.float32)
    patch, patch_cover = shiny_pip(ink, radius, shine)
    half = patch_cover.shape[0] // 2
    for cx, cy in centres:
        window = np.s_[cy - half : cy + half + 1, cx - half : cx + half + 1]
        colour[window] += patch
        cover[window] = np.maximum(cover[window], patch_cover)
    return colour, cover
