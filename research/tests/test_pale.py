"""Pale pictures (``research.synth.pale``): chroma scaled, luma and hue kept, as a camera pales
a picture; grey pictures keep no colour at all."""

import cv2
import numpy as np

from research.synth.pale import greyed, paled


def swatches() -> np.ndarray:
    """A 2×3 picture of strong red, green, blue, yellow, violet and mid grey (BGR)."""
    colours = [(30, 30, 220), (40, 190, 40), (200, 60, 20), (20, 210, 230), (190, 40, 150), (128, 128, 128)]
    return np.array(colours, np.uint8).reshape(2, 3, 3)


def test_a_paled_picture_keeps_its_luma_and_hue_with_its_chroma_scaled():
    """As a camera pales a picture: how light each colour looks stays, its colour fades."""
    picture = swatches()
    ycrcb = cv2.cvtColor(picture, cv2.COLOR_BGR2YCrCb).astype(int)
    pale = cv2.cvtColor(paled(picture, 0.5), cv2.COLOR_BGR2YCrCb).astype(int)
    assert np.abs(pale[..., 0] - ycrcb[..., 0]).max() <= 2
    assert np.abs((pale[..., 1:] - 128) - (ycrcb[..., 1:] - 128) * 0.5).max() <= 2
    hsv = cv2.cvtColor(picture, cv2.COLOR_BGR2HSV).astype(int)
    pale_hue = cv2.cvtColor(paled(picture, 0.5), cv2.COLOR_BGR2HSV)[..., 0].astype(int)
    coloured = hsv[..., 1] > 0
    assert np.abs((pale_hue - hsv[..., 0] + 90) % 180 - 90)[coloured].max() <= 6
    assert paled(picture, 1.0) is picture
    assert np.abs(paled(picture, 0.999).astype(int) - picture).max() <= 2  # YCrCb's rounding alone


def test_a_blue_die_paled_to_nothing_stays_as_dark_as_it_looked():
    """Scaling HSV's saturation would make a strong blue as light as white; a camera keeps it dark."""
    blue = swatches()[0, 2]
    assert np.array_equal(paled(swatches(), 0.0), greyed(swatches()))
    assert paled(swatches(), 0.0)[0, 2, 0] < 100 < int(blue.max())


def test_a_greyed_picture_keeps_three_equal_channels():
    grey = greyed(swatches())
    assert grey.shape == (2, 3, 3) and grey.dtype == np.uint8
    assert np.array_equal(grey[..., 0], grey[..., 1]) and np.array_equal(grey[..., 1], grey[..., 2])
    assert np.array_equal(paled(swatches(), 0.0), greyed(paled(swatches(), 0.0)))
