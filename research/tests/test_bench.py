"""`python -m research bench`: the reader scored on labelled folders, its mistakes listed and drawn."""

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.cli import build_parser, main
from companion.vision import DiceReader
from research.reader import bench as bench_command
from research.synth.scene import DiePose, render_scene
from research.test_pictures import steady_light
from tests.pictures import LIGHTS


def bench(argv: list[str]) -> int:
    return main(argv, build_parser("python -m research", "the bench", (bench_command,)))


def rendered_scene(colours_pips: list[tuple[str, int]], seed: int = 1, light: str | None = None):
    """A rendered table as ``tests.pictures.rendered`` draws it, with each die's box, pips and colour."""
    rng = np.random.default_rng(seed)
    poses = [
        DiePose(140 + 150 * (i % 5), 150 + 200 * (i // 5), 56, 0.3 * i, pips, colour, look=seed * 10 + i)
        for i, (colour, pips) in enumerate(colours_pips)
    ]
    return render_scene(rng, 960, 540, poses, light=steady_light(LIGHTS[light]))


def yolo_folder(root: Path, scenes: dict[str, object]) -> Path:
    """``root`` as a YOLO folder: each scene's picture and a label line per die (pips − 1, box)."""
    (root / "images").mkdir(parents=True)
    (root / "labels").mkdir()
    for name, scene in scenes.items():
        height, width = scene.image.shape[:2]
        cv2.imwrite(str(root / "images" / f"{name}.png"), scene.image)
        lines = [
            f"{d.pips - 1} {(x + w / 2) / width} {(y + h / 2) / height} {w / width} {h / height}"
            for d in scene.dice
            for x, y, w, h in [d.box]
        ]
        (root / "labels" / f"{name}.txt").write_text("\n".join(lines) + "\n")
    return root


def test_bench_scores_a_labelled_folder_and_draws_what_it_read(tmp_path, capsys):
    scenes = {
        "two": rendered_scene([("red", 4), ("blue", 6)]),
        "three": rendered_scene([("green", 2), ("yellow", 5), ("white", 1)], seed=3),
    }
    folder = yolo_folder(tmp_path / "set", scenes)
    assert bench(["bench", str(folder), "--json", "--annotate", str(tmp_path / "drawn")]) == 0
    figures = json.loads(capsys.readouterr().out)
    assert figures["images"] == 2 and figures["dice"] == 5
    assert figures["recall"] == figures["precision"] == figures["read_f1"] == 1.0
    assert figures["images_all_right"] == 1.0 and figures["median_ms"] > 0
    assert sorted(p.name for p in (tmp_path / "drawn").iterdir()) == ["set_three.jpg", "set_two.jpg"]

    # a wrong label is counted: the blue die labelled 5 is found, but not read right
    label = folder / "labels" / "two.txt"
    lines = label.read_text().splitlines()
    assert [line.split()[0] for line in lines] == ["3", "5"]
    label.write_text(f"{lines[0]}\n4 {lines[1].split(' ', 1)[1]}\n")
    assert bench(["bench", str(folder), "--json", "--worst", "3"]) == 0
    figures = json.loads(capsys.readouterr().out)
    assert figures["recall"] == 1.0 and figures["pips_right_among_found"] == pytest.approx(4 / 5)
    assert figures["images_all_right"] == 0.5
    picture = str(folder / "images" / "two.png")
    assert figures["worst"] == [{"image": picture, "dice": 2, "missed": 0, "false_finds": 0, "wrong_pips": 1}]
    assert bench(["bench", str(folder), "--worst", "3"]) == 0
    out = capsys.readouterr().out
    assert f"{picture}: 0 missed, 0 false finds, 1 die with wrong pips (of 2 dice)" in out
    assert "three.png" not in out


def test_bench_draws_the_dice_read_wrong_in_red_and_the_dice_missed_in_amber(tmp_path):
    scene = rendered_scene([("red", 4), ("blue", 6)])
    folder = yolo_folder(tmp_path / "set", {"two": scene})
    label = folder / "labels" / "two.txt"
    red, blue = label.read_text().splitlines()
    # the blue die labelled 5 (read 6: wrong), and a die labelled where there is only cloth (missed)
    label.write_text(f"{red}\n4 {blue.split(' ', 1)[1]}\n0 0.1 0.1 0.08 0.08\n")
    assert bench(["bench", str(folder), "--annotate", str(tmp_path / "drawn")]) == 0
    drawn = cv2.imread(str(tmp_path / "drawn" / "set_two.jpg"))
    height, width = drawn.shape[:2]

    # the missed label's box: amber edges at (0.06, 0.06) .. (0.14, 0.14) of the picture
    def edge_is(x: int, y: int, wanted) -> bool:
        """A box's left edge at (x, y) (a JPEG: the line and the two pixels outside it) is ``wanted``."""
        return any(wanted(*pixel) for pixel in drawn[y, max(0, x - 2) : x + 1].astype(int))

    amber = lambda b, g, r: r > 180 and g > 150 and b < 100  # noqa: E731
    red = lambda b, g, r: r > 150 and r > g + 80 and r > b + 80  # noqa: E731
    green = lambda b, g, r: g > 130 and g > r + 50 and g > b + 50  # noqa: E731
    assert edge_is(round(0.06 * width), round(0.1 * height), amber)
    # the blue die (the 6) boxed in red, the red die (the 4) in green
    read = DiceReader().read(scene.image)
    assert sorted(d.pips for d in read) == [4, 6]
    for die in read:
        x, y, w, h = die.box
        assert edge_is(x, y + h // 2, red if die.pips == 6 else green)
        assert not edge_is(x, y + h // 2, green if die.pips == 6 else red)


def test_bench_says_what_is_missing_from_a_folder(tmp_path, capsys):
    assert bench(["bench", str(tmp_path / "nowhere")]) != 0
    assert "no such folder" in capsys.readouterr().err
    assert bench(["bench", str(tmp_path)]) != 0
    assert "no images/ folder" in capsys.readouterr().err
    (tmp_path / "images").mkdir()
    cv2.imwrite(str(tmp_path / "images" / "table.png"), rendered_scene([("red", 3)]).image)
    assert bench(["bench", str(tmp_path)]) != 0
    err = capsys.readouterr().err
    assert "no labels/ folder" in err and f"companion read {tmp_path / 'images'}" in err
