"""Marbled and glittered dice bodies: veins of a second colour, bright flecks, pips untouched."""

import numpy as np

from research.synth.marbled import Marbling, marbled_body, sample_marbling
from research.synth.perspective import LensOptions, face_texture, sample_perspective_scene

RED = np.array([40, 35, 200], np.float32)
WHITE = np.array([235, 235, 235], np.float32)


def test_veins_of_the_second_colour_run_through_part_of_the_body():
    face = marbled_body(RED, Marbling(WHITE, share=0.4, flecks=0.0), 64, np.random.default_rng(2))
    near_white = np.linalg.norm(face - WHITE, axis=2) < 40
    near_red = np.linalg.norm(face - RED, axis=2) < 40
    assert 0.03 < near_white.mean() < 0.7
    assert near_red.mean() > 0.3


def test_glitter_adds_bright_flecks_to_a_body_of_one_colour():
    face = marbled_body(RED, Marbling(None, share=0.3, flecks=0.03), 64, np.random.default_rng(3))
    brighter = face.sum(axis=2) > RED.sum() + 60
    assert 0.005 < brighter.mean() < 0.2
    assert np.all(face <= 255)


def test_sampled_marblings_are_veins_glitter_or_both():
    marblings = [sample_marbling(np.random.default_rng(seed)) for seed in range(300)]
    veins = [m.swirl is not None for m in marblings]
    glitter = [m.flecks > 0 for m in marblings]
    assert any(v and not g for v, g in zip(veins, glitter, strict=True))
    assert any(g and not v for v, g in zip(veins, glitter, strict=True))
    assert any(v and g for v, g in zip(veins, glitter, strict=True))


def test_a_marbled_face_keeps_its_pips():
    """The same face drawn plain and marbled (same random draws): every pixel wholly pip is
    the same; the body changes."""
    pip = np.array([245, 245, 245], np.float32)
    plain, _ = face_texture(6, RED, pip, np.random.default_rng(9))
    marbled, _ = face_texture(
        6, RED, pip, np.random.default_rng(9), marbling=Marbling(WHITE * 0.1, 0.5, 0.02)
    )
    whole_pip = np.abs(plain - pip).max(axis=2) < 0.5
    assert whole_pip.sum() > 100
    assert np.allclose(marbled[whole_pip], plain[whole_pip])
    assert np.abs(marbled - plain).max() > 100


def test_marbling_changes_how_the_dice_look_not_where_they_are_or_what_they_show():
    plain = sample_perspective_scene(np.random.default_rng(85), (320, 240), options=LensOptions(inked=0.3))
    marbled = sample_perspective_scene(
        np.random.default_rng(85), (320, 240), options=LensOptions(inked=0.3, marbled=1.0)
    )
    assert len(plain.dice) > 0
    assert plain.dice == marbled.dice
    assert not np.array_equal(plain.image, marbled.image)
