"""The pip reader's crop moved toward a die's top face, checked against a die drawn in 3-D."""

import numpy as np
import pytest

from companion.vision.pips import CROP_MARGIN, toward_top_face
from research.synth.perspective import Camera, Cube, outline


@pytest.mark.parametrize("corner", [(1, 1), (-1, 1), (1, -1), (-1, -1)])
def test_the_moved_crop_holds_the_top_face_and_pushes_the_sides_out_for_a_die_seen_from_above(corner):
    """A wide lens straight above the table: a die toward a corner shows its inner sides; the
    moved crop still holds its whole top face, and the sides it shows lie farther out in it."""
    w, h = 1200, 900
    focal = (w / 2) / np.tan(np.radians(65) / 2)
    looking_down = np.array([[1.0, 0, 0], [0, -1, 0], [0, 0, -1]])
    camera = Camera(looking_down, np.array([0.0, 0.0, 30.0]), focal, (w / 2, h / 2))
    cube = Cube(corner[0] * 14.0, corner[1] * 10.0, 0.3, 4, "red")
    box = outline(cube, camera, w, h)
    moved = toward_top_face(box, (w, h))
    half = max(box[2], box[3]) * CROP_MARGIN / 2
    middle, old_middle = (
        np.array(moved[:2]) + np.array(moved[2:]) / 2,
        np.array(box[:2]) + np.array(box[2:]) / 2,
    )
    top, *sides = cube.faces()
    assert (np.abs(camera.project(top[0]) - middle) <= half).all()
    shown = [camera.project(c).mean(axis=0) for c, normal, _ in sides if camera.sees(c, normal)]
    assert len(shown) == 2
    for side in shown:
        assert np.hypot(*(side - middle)) > np.hypot(*(side - old_middle))
