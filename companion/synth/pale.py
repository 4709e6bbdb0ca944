"""Pale pictures: a dim room or a washed-out webcam takes the colour out of a picture, and a
black-and-white camera all of it. What the detector trains on now and then, and what the
benchmarks read to see what colour the reader and the camera bridge need."""

import cv2
import numpy as np


def greyed(image: np.ndarray) -> np.ndarray:
    """``image`` (BGR, 8-bit) with no colour left, still three channels."""
    return cv2.cvtColor(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY), cv2.COLOR_GRAY2BGR)


def paled(image: np.ndarray, saturation: float) -> np.ndarray:
    """``image`` (BGR, 8-bit) with its saturation scaled by ``saturation`` (0–1; 1: ``image``
    itself, spared HSV's rounding)."""
    if saturation >= 1:
        return image
    hsv = cv2.cvtColor(image, cv2.COLOR_BGR2HSV).astype(np.float32)
    hsv[..., 1] *= saturation
    return cv2.cvtColor(hsv.astype(np.uint8), cv2.COLOR_HSV2BGR)
