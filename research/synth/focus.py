"""Out of focus: a phone close to the table, or held at a slant, keeps only a band of the
picture sharp; the dice farther from that band (or every die, when it focused past them)
are blurred, more the farther they are."""

import math

import cv2
import numpy as np

#: the strongest blur, as a share of a die's width in pixels (a Gaussian's sigma)
MOST_BLUR = 0.1
#: the share of out-of-focus pictures in which nothing is sharp
ALL_BLURRED = 0.3


def out_of_focus(img: np.ndarray, rng: np.random.Generator, die_pixels: float) -> np.ndarray:
    """``img`` (float32, H×W×3) with a depth-of-field blur for dice ``die_pixels`` wide."""
    h, w = img.shape[:2]
    sigma = max(0.8, die_pixels * rng.uniform(0.03, MOST_BLUR))
    blurred = cv2.GaussianBlur(img, (0, 0), sigma)
    if rng.random() < ALL_BLURRED:
        return blurred
    angle = rng.uniform(0, 2 * math.pi)
    through = (rng.uniform(0, w), rng.uniform(0, h))
    depth = rng.uniform(0.2, 0.6) * max(h, w)  # how far from the sharp band the blur is whole
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    away = np.abs((xx - through[0]) * math.cos(angle) + (yy - through[1]) * math.sin(angle))
    weight = np.clip(away / depth, 0, 1)[..., None]
    return img * (1 - weight) + blurred * weight
