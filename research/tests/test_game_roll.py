"""One player's roll as the table's webcam sees it (``research.synth.game_roll``), and how the
game-roll benchmark judges a roll."""

import json
from collections import Counter

import cv2
import numpy as np

from research.benchmarks.bench_game_rolls import roll_outcome
from research.reader.dataset import read_yolo_folder
from research.synth.game_roll import (
    CALIBRATION_DICE,
    PLAYER_COLOURS,
    SEATS,
    calibration_picture,
    place_roll,
    roll_dice,
    sample_game_roll,
    sample_table,
    table_roll,
)
from research.synth.make_dataset import write_dataset
from research.synth.perspective import BIGGY_SIZE, overlap, sample_camera, top_inside


def test_a_roll_holds_what_a_player_may_throw_at_once():
    editions = Counter()
    for seed in range(400):
        dice = roll_dice(np.random.default_rng(seed))
        bigs = [d for d in dice if d.big]
        colours = Counter(d.colour for d in dice if not d.big)
        player = bigs[0].colour if bigs else next(d.colour for d in dice if d.colour in PLAYER_COLOURS)
        neutrals = {c: n for c, n in colours.items() if c != player}
        assert len(neutrals) <= 1 and all(1 <= d.pips <= 6 for d in dice)
        if bigs:  # the three-round edition: up to six dice and the Biggy, grey neutral dice
            editions["biggy"] += 1
            assert len(bigs) == 1 and colours[player] <= 6 and set(neutrals) <= {"grey"}
            assert sum(neutrals.values()) <= 3
        else:  # classic, or the three-round edition once its Biggy is on a casino
            editions["classic"] += 1
            assert 1 <= colours[player] <= 8 and sum(neutrals.values()) <= 4
            assert set(neutrals) <= ({"grey"} if player == "white" else {"white", "grey"})
    assert editions["biggy"] > 50 and editions["classic"] > 200


def test_rolled_dice_lie_whole_in_the_picture_and_never_in_each_other():
    touching = 0
    for seed in range(12):
        rng = np.random.default_rng(seed)
        camera = sample_camera(rng, 1280, 720, die_pixels=50, lowest=60, slanted=0.15)
        dice = roll_dice(rng)
        cubes = place_roll(rng, camera, 1280, 720, dice)
        assert 0 < len(cubes) <= len(dice)
        assert all(top_inside(c, camera, 1280, 720) for c in cubes)
        assert not any(overlap(a, b) for i, a in enumerate(cubes) for b in cubes[i + 1 :])
        assert sum(c.size == BIGGY_SIZE for c in cubes) <= sum(d.big for d in dice)
        assert {c.size for c in cubes} <= {1.0, BIGGY_SIZE}
        pairs = [(a, b) for i, a in enumerate(cubes) for b in cubes[i + 1 :]]
        touching += any(np.hypot(a.x - b.x, a.y - b.y) < (a.size + b.size) / 2 * 1.13 for a, b in pairs)
    assert touching >= 6  # most rolls have dice lying against each other


def test_game_rolls_are_written_as_a_labelled_folder_with_their_colours(tmp_path):
    write_dataset(tmp_path / "rolls", 4, seed=7, max_side=None, game_rolls=1.0)
    colours = json.loads((tmp_path / "rolls" / "colours.json").read_text())
    items = list(read_yolo_folder(tmp_path / "rolls"))
    assert len(items) == len(colours) == 4
    for item in items:
        assert len(item.rows) == len(colours[item.image_path.stem]) >= 1
    scene = sample_game_roll(np.random.default_rng(7), (960, 540))
    assert scene.image.shape == (540, 960, 3)
    for die in scene.dice:
        x, y, w, h = die.box
        assert 0 <= x <= x + w <= 960 and 0 <= y <= y + h <= 540 and 10 < w < 200


def test_an_orange_players_rolls_are_drawn_only_when_asked_for(tmp_path):
    """Orange (a player colour of the tablet page the palette lacks) is drawn when named, in
    orange, and never among the default players (so every seed's scenes stay as they were)."""
    import argparse

    import pytest

    from research.synth.cli import parse_players

    write_dataset(tmp_path / "orange", 3, seed=7, max_side=None, game_rolls=1.0, players=("orange",))
    write_dataset(tmp_path / "usual", 3, seed=7, max_side=None, game_rolls=1.0)
    orange = json.loads((tmp_path / "orange" / "colours.json").read_text())
    usual = json.loads((tmp_path / "usual" / "colours.json").read_text())
    assert {c for dice in orange.values() for c in dice} <= {"orange", "white", "grey"}
    assert "orange" in {c for dice in orange.values() for c in dice}
    assert "orange" not in {c for dice in usual.values() for c in dice}
    image = cv2.imread(str(next((tmp_path / "orange" / "images").iterdir())))
    hsv = cv2.cvtColor(image, cv2.COLOR_BGR2HSV)
    assert ((hsv[..., 0] >= 5) & (hsv[..., 0] <= 20) & (hsv[..., 1] > 150)).sum() > 500  # orange bodies
    assert parse_players("orange, red") == ("orange", "red")
    with pytest.raises(argparse.ArgumentTypeError, match="oragne"):
        parse_players("oragne")


def test_a_roll_is_right_asked_about_or_recorded_wrong():
    truth = [("red", 3), ("red", 5), ("white", 2)]
    assert roll_outcome(truth, truth[::-1], truth) == "right"
    # a white neutral die read grey, named white by the bridge from the roller's hand
    assert roll_outcome(truth, [("red", 3), ("red", 5), ("grey", 2)], truth) == "right after naming"
    # the colours fit the hand, so nobody is asked, but a 5 was read as a 6
    wrong = [("red", 3), ("red", 6), ("white", 2)]
    assert roll_outcome(truth, wrong, wrong) == "recorded wrong"
    assert roll_outcome(truth, truth[:2], truth[:2]) == "dice missing"
    extra = [*truth, ("red", 1)]
    assert roll_outcome(truth, extra, extra) == "dice too many"
    swapped = [("red", 3), ("white", 5), ("red", 2)]
    assert roll_outcome(truth, swapped, [("red", 3), ("red", 5), ("red", 2)]) == "colours wrong"


def test_a_tables_rolls_are_its_players_and_neutral_dice_on_one_cloth_under_one_lamp():
    """``sample_table``: 2–5 players, the neutral dice grey in the three-round edition or beside a
    white player; each roll one player's dice and the neutral dice, drawn on the table's own cloth."""
    for seed in range(30):
        rng = np.random.default_rng(seed)
        table = sample_table(rng)
        assert SEATS[0] <= len(table.players) <= SEATS[1] and len(set(table.players)) == len(table.players)
        assert set(table.players) <= set(PLAYER_COLOURS)
        grey = table.biggy_edition or "white" in table.players
        assert table.neutral == ("grey" if grey else "white") and table.colours[-1] == table.neutral
        for _ in range(3):
            scene = table_roll(rng, table)
            assert scene.image.shape[:2] == (table.size[1], table.size[0])
            rolled = {d.colour for d in scene.dice}
            assert len(rolled - {table.neutral}) <= 1 and rolled <= set(table.colours)
    table = sample_table(np.random.default_rng(3))
    first, second = (table_roll(np.random.default_rng(n), table).image.astype(np.float32) for n in (1, 2))
    other = sample_game_roll(np.random.default_rng(4), table.size).image.astype(np.float32)
    same_cloth = float(np.median(np.abs(first - second)))
    assert same_cloth < 6 < float(np.median(np.abs(first - other)))


def test_a_calibration_picture_shows_one_colours_dice_alone():
    rng = np.random.default_rng(5)
    table = sample_table(rng)
    for colour in table.colours:
        dice = calibration_picture(rng, table, colour).dice
        assert 1 <= len(dice) <= CALIBRATION_DICE and {d.colour for d in dice} == {colour}


def test_dark_cloth_rolls_lie_on_dark_speckled_stone_and_are_black_as_often_as_asked(tmp_path):
    """The table where black dice go missing (``research.synth.dark_cloth``): every cloth darker
    than ``DARKEST_CLOTH``, the black player's rolls as often as ``black_share`` says, the others'
    in turn, each written as a labelled folder with its colours."""
    from research.synth.dark_cloth import DARKEST_CLOTH, dark_cloth_rolls, dark_speckled
    from research.synth.make_dataset import write_scenes

    rng = np.random.default_rng(3)
    cloths = [dark_speckled(rng, 320, 240) for _ in range(6)]
    assert all(cloth.mean() < DARKEST_CLOTH and cloth.std() > 10 for cloth in cloths)  # dark, and speckled
    others = [{d.colour for d in roll.dice} for roll in dark_cloth_rolls(np.random.default_rng(5), 6, 0.0)]
    assert not any("black" in colours for colours in others) and len(set().union(*others)) >= 5
    blacks = [{d.colour for d in roll.dice} for roll in dark_cloth_rolls(np.random.default_rng(5), 6, 1.0)]
    assert all("black" in colours and colours <= {"black", "white", "grey"} for colours in blacks)
    write_scenes(tmp_path / "dark", 5, dark_cloth_rolls(np.random.default_rng(5), 3, 0.5), max_side=400)
    colours = json.loads((tmp_path / "dark" / "colours.json").read_text())
    items = list(read_yolo_folder(tmp_path / "dark"))
    assert len(items) == len(colours) == 3
    for item in items:
        assert len(item.rows) == len(colours[item.image_path.stem]) >= 1
        assert max(cv2.imread(str(item.image_path)).shape[:2]) == 400
