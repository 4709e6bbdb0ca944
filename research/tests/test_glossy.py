"""Drilled, glossy pips (gold, silver, ...): shaded across, their rim in shadow, a highlight."""

import math

import numpy as np

from research.synth.glossy import Shine, sample_shine, shiny_pip
from research.synth.perspective import LensOptions, face_texture, sample_perspective_scene

GOLD = np.array([40, 180, 220], np.float32)


def test_a_glossy_pip_is_lit_on_the_side_the_light_comes_from():
    shine = Shine(angle=0.0, slope=0.5, rim=0.5, highlight=120.0)  # light from the right
    colour, cover = shiny_pip(GOLD, 10.0, shine)
    middle = cover.shape[0] // 2
    inside = cover > 0.99
    brightness = colour.sum(axis=2)
    right = brightness[:, middle + 2 :][inside[:, middle + 2 :]].mean()
    left = brightness[:, : middle - 1][inside[:, : middle - 1]].mean()
    assert right > 1.5 * left
    assert brightness.max() > GOLD.sum() * 1.2  # the highlight outshines the ink itself
    assert cover[0, 0] == 0 and cover[middle, middle] == 1
    assert np.all(colour[cover == 0] == 0)  # colour is multiplied by coverage


def test_a_shine_changes_only_the_pips_of_a_face():
    """The same face drawn flat and glossy (same random draws) differs only where pips are."""
    body, ink = np.array([35, 32, 30], np.float32), GOLD
    flat, _ = face_texture(5, body, ink, np.random.default_rng(7))
    shine = Shine(angle=math.pi / 3, slope=0.5, rim=0.4, highlight=150.0)
    glossy, _ = face_texture(5, body, ink, np.random.default_rng(7), shine)
    changed = np.abs(glossy - flat).max(axis=2) > 1
    plain_pip = np.abs(flat - body).max(axis=2) > 1  # wherever the flat face shows ink
    assert changed.any()
    assert not (changed & ~plain_pip).any()
    assert np.abs(glossy - flat).max() > 60  # the highlight and the shaded side, not a rounding


def test_shines_range_from_matt_to_glinting():
    shines = [sample_shine(np.random.default_rng(seed)) for seed in range(200)]
    assert min(s.highlight for s in shines) < 60 < 150 < max(s.highlight for s in shines)
    assert all(0 <= s.angle < 2 * math.pi for s in shines)


def test_glossy_pips_change_how_the_dice_look_not_where_they_are_or_what_they_show():
    """The shine is drawn after the dice are placed, so a scene's labels stay those of the
    same seed without it; only the picture changes."""
    plain = sample_perspective_scene(np.random.default_rng(81), (320, 240), options=LensOptions(inked=0.3))
    shiny = sample_perspective_scene(
        np.random.default_rng(81), (320, 240), options=LensOptions(inked=0.3, glossy=1.0)
    )
    assert len(plain.dice) > 0
    assert plain.dice == shiny.dice
    assert not np.array_equal(plain.image, shiny.image)
