"""Dice bodies that are not one colour: marbled (swirls of a second colour through the body)
or glittered (bright flecks), as many-coloured dice sets have. The renderer's other dice have a
body of one colour; a reader that has only seen those may take a vein or a fleck for a pip."""

from dataclasses import dataclass

import cv2
import numpy as np

from .scene import smooth_noise

#: second colours a swirl runs in (BGR): white, black, a gold, a blue, a red
SWIRL_COLOURS: tuple[tuple[int, int, int], ...] = (
    (235, 235, 235),
    (25, 25, 25),
    (60, 170, 210),
    (190, 100, 40),
    (40, 40, 190),
)


@dataclass(frozen=True)
class Marbling:
    """How one die's body is marbled or glittered (each face draws its own pattern of it)."""

    swirl: np.ndarray | None  # the second colour of the veins (BGR), or None for glitter only
    share: float  # how much of the body the veins cover (0–1)
    flecks: float  # share of the body's pixels that glint (0 for none)


def sample_marbling(rng: np.random.Generator) -> Marbling:
    """A marbled body (veins of a second colour), a glittered one, or both."""
    kind = rng.random()
    swirl = None if kind < 0.3 else np.array(SWIRL_COLOURS[int(rng.integers(len(SWIRL_COLOURS)))], np.float32)
    flecks = float(rng.uniform(0.005, 0.03)) if kind < 0.3 or kind > 0.8 else 0.0
    return Marbling(swirl, float(rng.uniform(0.2, 0.5)), flecks)


def marbled_body(body: np.ndarray, marbling: Marbling, size: int, rng: np.random.Generator) -> np.ndarray:
    """A ``size``×``size`` face of ``body`` colour with ``marbling``'s veins and flecks."""
    image = np.broadcast_to(body, (size, size, 3)).astype(np.float32)
    if marbling.swirl is not None:
        field = smooth_noise(rng, size, size, size / 4)  # a few broad swirls across the face
        veins = np.abs(np.sin(field * rng.uniform(1.2, 3.0)))  # 0 along each vein, 1 between
        vein = np.clip((marbling.share - veins) / max(marbling.share, 1e-3), 0, 1) ** 0.7
        image = image * (1 - vein[..., None]) + marbling.swirl * vein[..., None]
    if marbling.flecks > 0:
        glints = (rng.random((size, size)) < marbling.flecks).astype(np.float32)
        glints = cv2.GaussianBlur(glints, (3, 3), 0.6) * rng.uniform(80, 180)
        image = image + glints[..., None]
    return np.clip(image, 0, 255)
