"""Pale pictures: a dim room or a washed-out webcam takes the colour out of a picture, and a
black-and-white camera all of it. What the detector trains on now and then, and what the
benchmarks read to see what colour the reader and the camera bridge need."""

import cv2
import numpy as np


def greyed(image: np.ndarray) -> np.ndarray:
    """``image`` (BGR, 8-bit) with no colour left, still three channels."""
    return cv2.cvtColor(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY), cv2.COLOR_GRAY2BGR)


def paled(image: np.ndarray, saturation: float) -> np.ndarray:
    """``image`` (BGR, 8-bit) with its colour scaled by ``saturation`` (0–1; 1: ``image`` itself)
    and its brightness kept, as a camera does it: the chroma (YCrCb's Cr and Cb about their
    middle) is scaled and the luma left alone, so a coloured die keeps how dark it looks and at 0
    the picture is ``greyed``. (Scaling HSV's saturation instead keeps
    each pixel's brightest channel: a strong blue die paled to nothing turns as light as a white
    one, which no camera shows.)"""
    if saturation >= 1:
        return image
    ycrcb = cv2.cvtColor(image, cv2.COLOR_BGR2YCrCb).astype(np.float32)
    ycrcb[..., 1:] = (ycrcb[..., 1:] - 128.0) * saturation + 128.0
    return cv2.cvtColor(np.clip(ycrcb + 0.5, 0, 255).astype(np.uint8), cv2.COLOR_YCrCb2BGR)
