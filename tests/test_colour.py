"""The default palette on body readings measured on real dice (Roboflow valid photos, each
die's colour named by eye: research/benchmarks/roboflow_colours.json)."""

import math

import cv2
import numpy as np
import pytest

from companion.vision.colour import (
    HUES,
    BodyReading,
    lean_to,
    lit_face_across,
    palette_colour,
    read_body,
)


def reading(lightness: float, chroma: float, hue: float, dark_pips: bool) -> BodyReading:
    a, b = chroma * math.cos(math.radians(hue)), chroma * math.sin(math.radians(hue))
    return BodyReading((lightness, a, b), dark_pips)


@pytest.mark.parametrize(
    "lightness, chroma, hue, dark_pips, colour",
    [
        (18, 34, 32, False, "red"),  # dark translucent red, read black before the dark-chroma cut
        (18, 37, 31, False, "red"),
        (14, 22, 21, False, "red"),  # darker still: read black before BLACK_CHROMA
        (29, 22, 5, False, "red"),
        (28, 41, 22, False, "red"),
        (47, 53, 37, True, "red"),
        (52, 23, 5, False, "red"),  # dusty red under a purple cloth, read grey before RED_NEUTRAL_CHROMA
        (49, 23, 5, True, "red"),
        (60, 12, 10, True, "grey"),  # a grey die with a pink cast stays neutral
        (70, 11, 355, True, "white"),
        (15, 4, 14, False, "black"),
        (9, 12, 305, False, "black"),
        (29, 11, 58, False, "black"),
        (23, 10, 276, True, "black"),
        (15, 14, 300, False, "black"),  # under a purple cast
        (12, 24, 291, False, "blue"),  # dark blue, read black before BLACK_CHROMA
        (91, 3, 90, True, "white"),
        (84, 1, 315, True, "white"),
        (80, 29, 90, True, "yellow"),
        (79, 31, 75, True, "white"),  # ivory in warm light, read yellow before the ivory rule
        (74, 37, 77, True, "white"),
        (82, 29, 98, True, "yellow"),  # a pale yellow die
        (76, 54, 91, True, "yellow"),
        (76, 44, 72, True, "white"),  # white under a warm cast (valid): an ivory die
        (79, 47, 81, True, "white"),
        (75, 62, 81, True, "yellow"),  # yellow dice under the same cast (median, 10th percentile)
        (70, 57, 77, True, "yellow"),
    ],
)
def test_real_dice_bodies_are_named_right(lightness, chroma, hue, dark_pips, colour):
    assert palette_colour(reading(lightness, chroma, hue, dark_pips))[0] == colour


def test_a_lit_top_face_reaching_across_is_the_body_light_pips_are_not():
    face = np.zeros((40, 40), bool)
    face[:14, :] = True  # a light die at an angle: its lit top face above its shaded sides
    assert lit_face_across(face)
    pips = np.zeros((40, 40), np.uint8)
    for x in (8, 20, 32):
        for y in (10, 30):
            cv2.circle(pips, (x, y), 4, 1, -1)  # the light pips of a dark six
    assert not lit_face_across(pips.astype(bool))


def test_a_white_die_seen_at_an_angle_is_white_not_grey():
    die = np.full((60, 60, 3), 120, np.uint8)  # shaded sides, grey to the camera
    die[:22] = 235  # the lit top face, a band across the box
    for x in (20, 40):
        cv2.circle(die, (x, 11), 3, (20, 20, 20), -1)  # its dark pips
    reading = read_body(die, (0, 0, 60, 60))
    assert reading is not None and reading.dark_pips
    assert palette_colour(reading)[0] == "white"


def test_a_tint_leans_to_its_own_hue_in_full_and_away_from_the_opposite_one():
    green = reading(60.0, 30.0, HUES["green"][0], True).lab[1:]
    assert lean_to(green, "green") == pytest.approx(30.0)
    assert lean_to(green, "violet") < 0 < lean_to(green, "yellow") < 30.0
    assert lean_to((0.0, 0.0), "red") == 0.0
