"""The default palette on body readings measured on real dice (Roboflow valid photos, each
die's colour checked by eye)."""

import math

import pytest

from companion.vision.colour import BodyReading, palette_colour


def reading(lightness: float, chroma: float, hue: float, dark_pips: bool) -> BodyReading:
    a, b = chroma * math.cos(math.radians(hue)), chroma * math.sin(math.radians(hue))
    return BodyReading((lightness, a, b), dark_pips)


@pytest.mark.parametrize(
    "lightness, chroma, hue, dark_pips, colour",
    [
        (18, 34, 32, False, "red"),  # dark translucent red, read black before the dark-chroma cut
        (18, 37, 31, False, "red"),
        (28, 41, 22, False, "red"),
        (47, 53, 37, True, "red"),
        (15, 4, 14, False, "black"),
        (9, 12, 305, False, "black"),
        (29, 11, 58, False, "black"),
        (23, 10, 276, True, "black"),
        (91, 3, 90, True, "white"),
        (84, 1, 315, True, "white"),
        (80, 29, 90, True, "yellow"),
    ],
)
def test_real_dice_bodies_are_named_right(lightness, chroma, hue, dark_pips, colour):
    assert palette_colour(reading(lightness, chroma, hue, dark_pips))[0] == colour
