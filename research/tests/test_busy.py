"""Busy tables for the lens renderer: speckled stone, printed boards, clutter (none of it a die)."""

import cv2
import numpy as np
import pytest

from research.synth.busy import busy_table, printed, speckled
from research.synth.perspective import LensOptions, sample_perspective_scene
from research.synth.scene import background


def edge_share(image: np.ndarray) -> float:
    """Share of pixels on an edge once sensor-fine grain is blurred away."""
    grey = cv2.cvtColor(np.clip(image, 0, 255).astype(np.uint8), cv2.COLOR_BGR2GRAY)
    return float((cv2.Canny(cv2.GaussianBlur(grey, (0, 0), 1.5), 30, 90) > 0).mean())


def test_a_busy_table_is_an_image_of_the_frame_size_drawn_from_its_seed():
    a = busy_table(np.random.default_rng(4), 320, 240, 30)
    b = busy_table(np.random.default_rng(4), 320, 240, 30)
    assert a.shape == (240, 320, 3) and a.dtype == np.float32
    assert a.min() >= 0 and a.max() <= 255
    assert np.array_equal(a, b)


@pytest.mark.parametrize("kind", [speckled, printed])
def test_stone_and_print_are_busier_than_the_plain_tables(kind):
    plain = np.median([edge_share(background(np.random.default_rng(s), 320, 240)) for s in range(8)])
    busy = np.median([edge_share(kind(np.random.default_rng(s), 320, 240)) for s in range(8)])
    assert busy > 0.01 and busy > 10 * plain, f"edges on {busy:.1%} of busy, {plain:.1%} of plain"


@pytest.mark.parametrize("seed", range(3))
def test_a_busy_table_changes_the_table_not_the_dice(seed):
    plain = sample_perspective_scene(np.random.default_rng(seed), (640, 480), count=8)
    busy = sample_perspective_scene(
        np.random.default_rng(seed), (640, 480), count=8, options=LensOptions(busy=1.0)
    )
    assert busy.dice == plain.dice, "the same seed places the same dice, labelled alike"
    assert np.abs(busy.image.astype(int) - plain.image.astype(int)).mean() > 10


@pytest.mark.parametrize("seed", range(4))
def test_a_die_on_a_busy_table_is_drawn_over_the_clutter(seed):
    rng = np.random.default_rng(20 + seed)
    scene = sample_perspective_scene(rng, (640, 480), count=1, colours=["red"], options=LensOptions(busy=1.0))
    (die,) = scene.dice
    x, y, w, h = die.box
    middle = scene.image[y + h // 4 : y + 3 * h // 4, x + w // 4 : x + 3 * w // 4]
    b, g, r = np.median(middle.reshape(-1, 3).astype(float), axis=0)
    assert r > g + 40 and r > b + 40, f"a red body expected, got BGR {b:.0f},{g:.0f},{r:.0f}"
