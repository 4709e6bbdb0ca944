"""`companion calibrate` questions photos that look wrong: one photo given for two colours, dice
of two colours in one photo, dice of a hue far from the colour named, two colours learned alike."""

import json

import cv2

from companion.cli import main
from companion.vision import Calibration
from companion.vision.calibration import learn_colour
from companion.vision.calibration_checks import MIXED_APART, alike_colours, looks_like_another_hue, parting
from companion.vision.colour import BodyReading
from tests.pictures import rendered


def reading(L: float, a: float, b: float, dark_pips: bool = False) -> BodyReading:
    return BodyReading((L, a, b), dark_pips)


RED, BLUE = reading(45, 55, 35), reading(35, 15, -50)


def test_dice_of_one_colour_do_not_part_and_two_colours_do():
    alone = parting([RED])
    assert alone.apart == 0 and alone.fewer == ()
    one_colour = [reading(45 + d, 55 - d, 35 + d) for d in (-6, -2, 0, 3, 7)]  # one set under uneven light
    assert parting(one_colour).apart < MIXED_APART
    mixed = parting([RED, BLUE, RED, RED, BLUE])
    assert mixed.apart >= MIXED_APART and mixed.fewer == (1, 4)


def test_a_hue_far_from_the_name_is_questioned_but_neutral_names_never_are():
    reds = learn_colour([RED, RED])
    assert looks_like_another_hue("blue", reds) == "red"
    assert looks_like_another_hue("red", reds) is None
    assert looks_like_another_hue("violet", learn_colour([BLUE])) is None  # a lamp moves blue toward violet
    warm_white = learn_colour([reading(80, 5, 45, dark_pips=True)])  # white dice under a tungsten lamp
    assert looks_like_another_hue("white", warm_white) is None
    assert looks_like_another_hue("orange", reds) is None  # not a palette hue: nothing to compare


def test_colours_learned_alike_are_paired():
    learned = {"red": learn_colour([RED, RED]), "orange": learn_colour([RED]), "blue": learn_colour([BLUE])}
    assert alike_colours(learned) == [("red", "orange")]


def test_calibrate_warns_of_photos_that_look_wrong_and_still_writes(tmp_path, capsys):
    mixed, reds, blues = tmp_path / "mixed.png", tmp_path / "reds.png", tmp_path / "blues.png"
    cv2.imwrite(str(mixed), rendered([("red", 4), ("blue", 6), ("red", 2), ("blue", 3)]))
    cv2.imwrite(str(reds), rendered([("red", 4), ("red", 6), ("red", 2)], seed=2))
    cv2.imwrite(str(blues), rendered([("blue", 1), ("blue", 5), ("blue", 3)], seed=3))
    out = tmp_path / "table.json"

    def calibrate(*photos: str) -> str:
        assert main(["calibrate", *(f"--photo={p}" for p in photos), "--out", str(out)]) == 0
        return capsys.readouterr().out

    assert "warning" not in calibrate(f"red={reds}", f"blue={blues}")
    printed = calibrate(f"red={mixed}", f"blue={blues}")
    assert f"the dice in {mixed} are not all one colour (2 look red, 2 blue)" in printed
    assert f"these dice look red, not blue: is {reds} the photo of the blue dice?" in calibrate(
        f"red={mixed}", f"blue={reds}"
    )
    more_reds = tmp_path / "more_reds.png"  # the same red dice rolled again, given as another player's
    cv2.imwrite(str(more_reds), rendered([("red", 1), ("red", 5), ("red", 3)], seed=2))
    assert f"red and orange were learned alike ({reds}; {more_reds})" in calibrate(
        f"red={reds}", f"orange={more_reds}"
    )
    assert set(Calibration.load(out).colours) == {"red", "orange"}  # written all the same


def test_one_photo_for_two_colours_is_refused_before_any_is_read(tmp_path, capsys):
    out = tmp_path / "table.json"
    missing = tmp_path / "dice.png"  # never read: the refusal comes first
    assert (
        main(["calibrate", "--photo", f"red={missing}", "--photo", f"rojo={missing}", "--out", str(out)]) != 0
    )
    assert "no such file" in capsys.readouterr().err  # one colour twice is fine; this file is missing
    assert (
        main(["calibrate", "--photo", f"red={missing}", "--photo", f"blue={missing}", "--out", str(out)]) != 0
    )
    err = capsys.readouterr().err
    assert f"{missing} is given for both red and blue" in err and not out.exists()


def test_a_calibration_is_scaled_to_frames_of_its_shape_and_cut_to_them():
    calibration = Calibration(
        table=(100, 50, 1800, 1000),
        zones={"tray": (600, 500, 700, 500), "6": (1700, 0, 400, 300), "slot": (3000, 0, 10, 10)},
        frame=(1920, 1080),
    )
    fitted = calibration.fitted_to((960, 540))
    assert fitted.calibration.table == (50, 25, 900, 500) and fitted.calibration.frame == (960, 540)
    assert fitted.calibration.zones == {"tray": (300, 250, 350, 250), "6": (850, 0, 110, 150)}
    assert fitted.problem == (
        "outside this 960×540 picture, left out: the calibration's casino slot zone "
        "(calibrate again from this camera)"
    )
    assert calibration.fitted_to((1920, 1080)).calibration.zones["6"] == (1700, 0, 220, 300)
    other_shape = calibration.fitted_to((640, 480))  # another camera: nothing of it can be placed
    assert other_shape.calibration.table is None and other_shape.calibration.zones == {}
    assert "set on 1920×1080 pictures and do not fit this 640×480 one" in other_shape.problem
    assert other_shape.calibration.colours is calibration.colours  # the colours still hold
    assert Calibration().fitted_to((640, 480)).problem is None


def test_read_warns_when_the_calibration_does_not_fit_the_picture_and_reads_it_whole(tmp_path, capsys):
    picture, table = tmp_path / "roll.png", tmp_path / "table.json"
    cv2.imwrite(str(picture), rendered([("red", 4), ("blue", 6)]))  # 960×540
    Calibration(table=(0, 0, 300, 300), frame=(640, 480)).save(table)
    assert main(["read", str(picture), "--calibration", str(table), "--json"]) == 0
    (result,) = json.loads(capsys.readouterr().out)
    assert sorted(d["pips"] for d in result["dice"]) == [4, 6]
    assert "set on 640×480 pictures and do not fit this 960×540 one" in result["warning"]
    Calibration(table=(0, 0, 440, 1080), frame=(1920, 1080)).save(table)  # the first die's side, scaled
    assert main(["read", str(picture), "--calibration", str(table), "--json"]) == 0
    (result,) = json.loads(capsys.readouterr().out)
    assert [d["pips"] for d in result["dice"]] == [4] and "warning" not in result


def test_calibrate_refuses_a_table_or_zone_outside_its_photos(tmp_path, capsys):
    reds, out = tmp_path / "reds.png", tmp_path / "table.json"
    cv2.imwrite(str(reds), rendered([("red", 4), ("red", 6)], seed=2))
    for options, refused in (
        (["--table", "2000,200,600,300"], "--table 2000,200,600,300"),
        (["--zone", "tray=100,100,200,200", "--zone", "6=960,0,50,50"], "--zone 6=960,0,50,50"),
    ):
        assert main(["calibrate", "--photo", f"red={reds}", *options, "--out", str(out)]) != 0
        assert f"{refused} lies outside the 960×540 photos" in capsys.readouterr().err
        assert not out.exists()
