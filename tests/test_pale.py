"""Pale pictures (``companion.synth.pale``): saturation scaled, hue and brightness kept; grey
pictures keep no colour at all."""

import cv2
import numpy as np

from companion.synth.pale import greyed, paled


def swatches() -> np.ndarray:
    """A 2×3 picture of strong red, green, blue, yellow, violet and mid grey (BGR)."""
    colours = [(30, 30, 220), (40, 190, 40), (200, 60, 20), (20, 210, 230), (190, 40, 150), (128, 128, 128)]
    return np.array(colours, np.uint8).reshape(2, 3, 3)


def test_a_paled_picture_keeps_its_hue_and_brightness_with_its_saturation_scaled():
    picture = swatches()
    hsv, pale = cv2.cvtColor(picture, cv2.COLOR_BGR2HSV), cv2.cvtColor(paled(picture, 0.5), cv2.COLOR_BGR2HSV)
    coloured = hsv[..., 1] > 0
    assert np.allclose(pale[..., 1][coloured], hsv[..., 1][coloured] * 0.5, atol=3)
    assert np.abs(pale[..., 0].astype(int) - hsv[..., 0])[coloured].max() <= 2
    assert np.abs(pale[..., 2].astype(int) - hsv[..., 2]).max() <= 2
    assert paled(picture, 1.0) is picture
    assert np.abs(paled(picture, 0.999).astype(int) - picture).max() <= 3  # HSV's rounding alone


def test_a_greyed_picture_keeps_three_equal_channels():
    grey = greyed(swatches())
    assert grey.shape == (2, 3, 3) and grey.dtype == np.uint8
    assert np.array_equal(grey[..., 0], grey[..., 1]) and np.array_equal(grey[..., 1], grey[..., 2])
    assert np.array_equal(paled(swatches(), 0.0), greyed(paled(swatches(), 0.0)))
