"""Rendered pictures partly out of focus."""

import cv2
import numpy as np

from research.synth.focus import out_of_focus
from research.synth.perspective import LensOptions, sample_perspective_scene


def sharpness(image: np.ndarray) -> float:
    return float(cv2.Laplacian(cv2.cvtColor(image.astype(np.uint8), cv2.COLOR_BGR2GRAY), cv2.CV_64F).var())


def test_out_of_focus_blurs_and_keeps_the_picture_in_range():
    image = sample_perspective_scene(np.random.default_rng(3), (640, 480), count=12).image.astype(np.float32)
    for seed in range(6):
        blurred = out_of_focus(image, np.random.default_rng(seed), die_pixels=50)
        assert blurred.shape == image.shape and blurred.dtype == np.float32
        assert blurred.min() >= image.min() - 1e-3 and blurred.max() <= image.max() + 1e-3
        assert sharpness(blurred) < 0.8 * sharpness(image)


def test_a_band_of_the_picture_can_stay_sharp():
    """Where the picture is not blurred whole, some rows or columns keep their detail."""
    image = np.random.default_rng(0).uniform(0, 255, (240, 320, 3)).astype(np.float32)
    kept = []
    for seed in range(20):
        blurred = out_of_focus(image, np.random.default_rng(seed), die_pixels=60)
        change = np.abs(blurred - image).mean(axis=2)
        kept.append(float(np.percentile(change, 1)) < 0.1 * float(np.median(change)))
    assert any(kept) and not all(kept)


def test_defocus_changes_only_the_scenes_it_is_asked_for():
    plain = sample_perspective_scene(np.random.default_rng(8), (640, 480), count=6)
    again = sample_perspective_scene(
        np.random.default_rng(8), (640, 480), count=6, options=LensOptions(defocus=0.0)
    )
    assert np.array_equal(plain.image, again.image) and plain.dice == again.dice
    blurred = sample_perspective_scene(
        np.random.default_rng(8), (640, 480), count=6, options=LensOptions(defocus=1.0)
    )
    assert blurred.dice == plain.dice  # the same dice and labels, only the picture is blurred
    assert sharpness(blurred.image) < sharpness(plain.image)


def test_a_share_outside_0_to_1_is_refused_with_a_message():
    import argparse

    import pytest

    from research.synth.cli import parse_share

    assert parse_share("0.4") == 0.4 and parse_share("1") == 1.0 and parse_share("0") == 0.0
    for bad, message in (("4", "from 0 to 1"), ("-0.1", "from 0 to 1"), ("lots", "such as 0.4")):
        with pytest.raises(argparse.ArgumentTypeError, match=message):
            parse_share(bad)
