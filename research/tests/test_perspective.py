"""The lens renderer: cubes through a pinhole camera, labels of the top faces."""

import numpy as np
import pytest

from companion.vision.boxes import iou
from research.synth.chance import happens
from research.synth.perspective import (
    SIDES,
    Cube,
    LensOptions,
    draw_cube,
    outline,
    place_cubes,
    sample_camera,
    sample_perspective_scene,
)


@pytest.mark.parametrize("seed", range(4))
def test_a_point_on_the_table_projects_back_where_it_was_seen(seed):
    rng = np.random.default_rng(seed)
    camera = sample_camera(rng, 1000, 700, 50)
    for pixel in [(500, 350), (10, 20), (990, 690), (120, 600)]:
        spot = camera.on_table(pixel)
        assert spot is not None and abs(spot[2]) < 1e-6
        np.testing.assert_allclose(camera.project(spot[None])[0], pixel, atol=1e-6)


def elevation(camera) -> float:
    """Degrees above the table of the camera (it looks at the table's centre)."""
    return float(np.degrees(np.arcsin(camera.position[2] / np.linalg.norm(camera.position))))


def test_the_lowest_camera_can_be_asked_for():
    default = [elevation(sample_camera(np.random.default_rng(s), 800, 600, 40)) for s in range(300)]
    low = [elevation(sample_camera(np.random.default_rng(s), 800, 600, 40, lowest=25)) for s in range(300)]
    assert min(default) >= 40 - 1e-9 and max(default) <= 90
    assert min(low) >= 25 - 1e-9 and sum(e < 40 for e in low) >= 20
    # the same draws: a camera from the near-overhead draw (70 %) above 40° is where it was
    assert sum(abs(a - b) < 1e-9 for a, b in zip(default, low, strict=True)) >= 150


@pytest.mark.parametrize("pips", range(1, 7))
def test_a_cube_has_its_pips_on_top_and_opposite_faces_add_up_to_seven(pips):
    for turn in range(4):
        faces = Cube(0.0, 0.0, 0.4, pips, "red", turn=turn).faces()
        top_corners, top_normal, top_value = faces[0]
        assert top_value == pips and top_normal.tolist() == [0, 0, 1]
        assert np.allclose(top_corners[:, 2], 1.0)  # a unit die resting on the table
        sides = [value for _, _, value in faces[1:]]
        assert sides[0] + sides[2] == 7 and sides[1] + sides[3] == 7
        assert sorted(sides + [pips, 7 - pips]) == [1, 2, 3, 4, 5, 6]
        assert set(sides) == set(SIDES[pips])


def test_the_same_seed_draws_the_same_scene():
    a = sample_perspective_scene(np.random.default_rng(5), (640, 480))
    b = sample_perspective_scene(np.random.default_rng(5), (640, 480))
    assert a.dice == b.dice and np.array_equal(a.image, b.image)


@pytest.mark.parametrize("seed", range(6))
def test_every_label_is_a_whole_die_inside_the_picture(seed):
    scene = sample_perspective_scene(np.random.default_rng(100 + seed), (800, 600), count=15)
    assert scene.dice, "a scene of 15 dice keeps some"
    for die in scene.dice:
        x, y, w, h = die.box
        assert x >= 0 and y >= 0 and x + w <= 801 and y + h <= 601
        assert w >= 3 and h >= 3 and 1 <= die.pips <= 6
    # dice do not stand in each other: their boxes barely overlap
    for i, a in enumerate(scene.dice):
        for b in scene.dice[i + 1 :]:
            assert iou(a.box, b.box) < 0.3


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("translucent", [0.0, 1.0])
def test_a_lone_die_is_drawn_in_its_colour_inside_its_label(seed, translucent):
    rng = np.random.default_rng(7 + seed)
    scene = sample_perspective_scene(
        rng, (640, 480), count=1, colours=["red"], options=LensOptions(translucent=translucent)
    )
    (die,) = scene.dice
    x, y, w, h = die.box
    middle = scene.image[y + h // 4 : y + 3 * h // 4, x + w // 4 : x + 3 * w // 4]  # the die, not the table
    b, g, r = np.median(middle.reshape(-1, 3).astype(float), axis=0)
    assert r > g + 40 and r > b + 40, f"a red body expected, got BGR {b:.0f},{g:.0f},{r:.0f}"


def test_a_translucent_die_shows_its_far_faces_through_its_near_ones():
    cube = Cube(0.0, 0.0, 0.3, 2, "white", turn=1)
    faces = cube.faces(bottom=True)
    assert sorted(value for _, _, value in faces) == [1, 2, 3, 4, 5, 6]
    assert faces[-1][2] == 5 and faces[-1][1].tolist() == [0, 0, -1] and np.allclose(faces[-1][0][:, 2], 0)
    camera = sample_camera(np.random.default_rng(3), 640, 480, 120)
    drawn = {}
    for see_through in (False, True):
        image = np.full((480, 640, 3), 90, np.float32)
        draw_cube(image, cube, camera, np.array([0.0, 0.0, 1.0]), np.random.default_rng(0), see_through)
        drawn[see_through] = image
    x, y, w, h = outline(cube, camera, 640, 480)
    opaque, clear = (drawn[k][y : y + h, x : x + w] for k in (False, True))
    # white body over a grey table: the see-through die lets the table (and far pips) show
    assert clear.mean() < opaque.mean() - 5
    assert np.abs(clear - opaque).max() > 40


@pytest.mark.parametrize("seed", range(4))
def test_a_label_holds_the_top_face_and_the_sides_the_camera_sees(seed):
    rng = np.random.default_rng(seed)
    camera = sample_camera(rng, 800, 600, 60)
    for cube in place_cubes(rng, camera, 800, 600, 10, None):
        x, y, w, h = outline(cube, camera, 800, 600)
        top = camera.project(cube.faces()[0][0])
        assert (top[:, 0] >= x - 1).all() and (top[:, 0] <= x + w + 1).all()
        assert (top[:, 1] >= y - 1).all() and (top[:, 1] <= y + h + 1).all()
        assert w * h >= np.ptp(top[:, 0]) * np.ptp(top[:, 1])


def test_small_dice_can_be_asked_for_in_a_phone_sized_frame():
    """A phone photo of a table from above: a large frame and dice a few per cent of it wide."""

    def sizes(share: tuple[float, float]) -> list[int]:
        found = []
        for seed in range(3):
            scene = sample_perspective_scene(
                np.random.default_rng(seed), (1600, 1200), count=6, options=LensOptions(die_share=share)
            )
            assert scene.image.shape == (1200, 1600, 3) and scene.dice
            found += [max(die.box[2], die.box[3]) for die in scene.dice]
        return found

    small, large = sizes((0.03, 0.04)), sizes((0.12, 0.15))
    # a die's top face at the centre is 36–48 px wide; its sides and the lens add to its box
    assert min(small) >= 20 and max(small) <= 150
    assert np.mean(small) * 2.5 < np.mean(large)


def test_a_dataset_can_be_drawn_at_a_phone_size_both_ways_up(tmp_path):
    import cv2

    from research.synth.cli import parse_size
    from research.synth.make_dataset import write_dataset

    assert parse_size("3264x2448") == (3264, 2448)
    for bad in ("3264", "axb", "10x10"):
        with pytest.raises(Exception, match="WIDTHxHEIGHT|too small"):
            parse_size(bad)
    write_dataset(
        tmp_path, 6, 3, None, perspective=1.0, size=(320, 240), lens=LensOptions(die_share=(0.1, 0.12))
    )
    shapes = {cv2.imread(str(p)).shape[:2] for p in (tmp_path / "images").glob("*.jpg")}
    assert shapes == {(240, 320), (320, 240)}


def test_inked_pips_stand_out_and_leave_the_other_renders_as_they_were():
    """``inked`` dice get a coloured ink far from their body; with no ink asked for, the pips
    and the random draws are exactly those of the renderer before inks existed."""
    from research.synth.palette import INK_CONTRAST, PIP_INKS, pip_colour

    body, pip = np.array([40, 35, 200], np.float32), np.array([245, 245, 245], np.float32)
    plain, before = np.random.default_rng(3), np.random.default_rng(3)
    for _ in range(50):
        expected = np.array([230, 230, 230], np.float32) if before.random() < 0.12 else pip
        assert np.array_equal(pip_colour(body, pip, plain), expected)
    rng = np.random.default_rng(4)
    inks = [pip_colour(body, pip, rng, inked=1.0) for _ in range(200)]
    coloured = [ink for ink in inks if tuple(ink) in PIP_INKS]
    assert len(coloured) > 150 and len({tuple(ink) for ink in coloured}) >= 3
    assert all(np.linalg.norm(ink - body) >= INK_CONTRAST for ink in coloured)
    assert (40, 40, 200) not in {tuple(int(v) for v in ink) for ink in coloured}  # red ink on a red die


def test_more_cameras_can_be_slanted():
    def elevations(**options):
        rngs = (np.random.default_rng(s) for s in range(300))
        return [elevation(sample_camera(rng, 800, 600, 40, lowest=15, **options)) for rng in rngs]

    usual, slanted = elevations(), elevations(slanted=1.0)
    assert min(slanted) >= 15 - 1e-9 and max(slanted) <= 90
    # uniform over 15–90°: about a third below 40°, against about a tenth with the usual share
    assert sum(e < 40 for e in slanted) >= 2 * sum(e < 40 for e in usual)
    assert sum(e < 40 for e in slanted) >= 75


def test_a_look_given_no_share_draws_nothing_and_one_given_all_always_happens():
    rng, untouched = np.random.default_rng(5), np.random.default_rng(5)
    assert not any(happens(rng, 0.0) for _ in range(20))
    assert rng.random() == untouched.random()  # a share of 0 left the generator where it was
    assert all(happens(rng, 1.0) for _ in range(20))
    share = sum(happens(rng, 0.3) for _ in range(2000)) / 2000
    assert 0.25 < share < 0.35
