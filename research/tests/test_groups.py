"""Rendered dice pushed together in touching groups (``place_groups``)."""

import math

import numpy as np
import pytest

from research.synth.perspective import (
    BIGGY_SIZE,
    PLACING_MARGIN,
    Camera,
    Cube,
    LensOptions,
    group_start,
    overlap,
    place_groups,
    sample_camera,
    sample_perspective_scene,
)


def nearest(cubes: list[Cube]) -> list[float]:
    """For each cube, the distance (in die sides) from its centre to the nearest other one."""
    return [min(math.hypot(a.x - b.x, a.y - b.y) for b in cubes if b is not a) for a in cubes]


def test_grouped_dice_touch_or_nearly_and_never_stand_in_each_other():
    for seed in range(8):
        rng = np.random.default_rng(seed)
        camera = sample_camera(rng, 960, 720, die_pixels=45)
        cubes = place_groups(rng, camera, 960, 720, 16, None)
        assert len(cubes) >= 8
        assert not any(overlap(a, b) for i, a in enumerate(cubes) for b in cubes[i + 1 :])
        gaps = nearest(cubes)
        assert max(gaps) <= BIGGY_SIZE * 1.25 + 1e-6  # each die was put beside one in its group
        assert np.median(gaps) < 1.2  # most touch or nearly: far closer than scattered dice


def test_overlap_tells_touching_from_standing_in_each_other():
    a = Cube(0.0, 0.0, 0.0, 3, "red")
    assert not overlap(a, Cube(1.0, 0.0, 0.0, 4, "red"))  # side to side
    assert overlap(a, Cube(0.9, 0.0, 0.0, 4, "red"))
    assert overlap(a, Cube(1.05, 0.0, math.pi / 4, 4, "red"))  # a turned die's corner reaches in
    assert not overlap(a, Cube(3.0, 0.0, 0.3, 4, "red"))


def test_grouped_changes_only_the_scenes_it_is_asked_for():
    plain = sample_perspective_scene(np.random.default_rng(8), (640, 480), count=10)
    again = sample_perspective_scene(
        np.random.default_rng(8), (640, 480), count=10, options=LensOptions(grouped=0.0)
    )
    assert np.array_equal(plain.image, again.image) and plain.dice == again.dice
    grouped = sample_perspective_scene(
        np.random.default_rng(8), (640, 480), count=10, options=LensOptions(grouped=1.0)
    )
    assert grouped.dice and grouped.dice != plain.dice


@pytest.mark.parametrize("seed", [5, 13, 17, 21, 31])
def test_a_grouped_scene_asked_for_dice_has_some(seed):
    """These seeds draw a close camera and groups starting too near the picture's edge: such a
    group starts again elsewhere (drawn once, such a scene came out with no die)."""
    scene = sample_perspective_scene(
        np.random.default_rng(seed), (800, 600), options=LensOptions(grouped=1.0, lowest=20, slanted=0.6)
    )
    assert scene.dice


def test_a_group_starts_on_the_table_inside_the_picture_or_nowhere():
    """A camera looking down gives a start on the table within the picture's margin; one looking
    up sees no table, and gives none (the caller draws again)."""
    w, h = 800, 600
    looking_down = np.array([[1.0, 0, 0], [0, -1, 0], [0, 0, -1]])
    down = Camera(looking_down, np.array([0.0, 0.0, 30.0]), 700.0, (w / 2, h / 2))
    up = Camera(np.eye(3), np.array([0.0, 0.0, 30.0]), 700.0, (w / 2, h / 2))
    rng, margin = np.random.default_rng(0), PLACING_MARGIN * min(w, h) - 1e-6
    for _ in range(20):
        x, y, turn = group_start(rng, down, w, h)
        u, v = down.project(np.array([[x, y, 0.0]]))[0]
        assert margin <= u <= w - margin and margin <= v <= h - margin
        assert 0 <= turn <= math.pi / 2
    assert group_start(rng, up, w, h) is None
