"""`python -m research real`: every real held-out split by centre, a read of an unclear die left
out, and the colour per hand-named colour with the palette and with a calibration learned from
the set's own photos."""

import json

from companion.cli import build_parser, main
from research.reader import real as real_command
from research.reader import table_feel
from research.tests.test_bench import rendered_scene, yolo_folder


def real(argv: list[str]) -> int:
    return main(argv, build_parser("python -m research", "the bench", (real_command,)))


def test_real_prints_each_set_and_the_colours_and_leaves_unclear_dice_out(tmp_path, capsys, monkeypatch):
    root = tmp_path / "datasets"
    for part, seed in (("roboflow-dice/valid", 1), ("roboflow-dice/test", 2), ("webcam-white-dice/valid", 3)):
        yolo_folder(root / part, {"one": rendered_scene([("red", 3), ("white", 5)], seed=seed)})
    scenes = {
        "a": rendered_scene([("red", 4), ("blue", 6), ("black", 2)], seed=4),
        "b": rendered_scene([("red", 1), ("blue", 2), ("black", 5)], seed=5),
    }
    table = yolo_folder(root / "table-dice/valid", scenes)
    # the black die of "b" is one its annotators could not read: out of labels/, into unclear/
    lines = (table / "labels" / "b.txt").read_text().splitlines()
    (table / "labels" / "b.txt").write_text("\n".join(lines[:2]) + "\n")
    (table / "unclear").mkdir()
    (table / "unclear" / "b.txt").write_text(lines[2] + "\n")
    labels = tmp_path / "colours.json"
    labels.write_text(json.dumps({"a": ["red", "blue", "black"], "b": ["red", "blue"]}))
    monkeypatch.setattr(real_command, "COLOUR_LABELS", labels)
    # Roboflow's colours named by eye: the white die of valid's photo nobody could name
    named = {"valid/one": ["red", None], "test/one": ["red", "white"]}
    monkeypatch.setattr(table_feel, "roboflow_colours", lambda: named)

    assert real(["real", "--datasets", str(root), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["roboflow valid+test"]["photos"] == 2 and report["roboflow valid+test"]["dice"] == 4
    assert report["table-dice valid"] | {"median_ms": 0} == {
        "photos": 2,
        "dice": 5,
        "found": 1.0,
        "false_finds": 0.0,  # the unclear die was read, and is neither right nor wrong
        "pips_right_among_found": 1.0,
        "read_f1": 1.0,
        "median_ms": 0,
    }
    palette = report["colour on table-dice valid, palette"]
    assert palette["game_dice"] == 5 and palette["game_colours"] == 1.0
    assert palette["per_colour"]["red"] == {"dice": 2, "right": 1.0, "read_as": {"red": 2}}
    calibrated = report["colour on table-dice valid, calibrated from its own photos"]
    assert calibrated["game_dice"] == 5
    solid = report[real_command.SOLID]
    assert [solid[name]["dice"] for name in real_command.SETS] == [3, 2, 5]
    assert solid["pooled"]["dice"] == 10
    assert solid["table-dice valid"]["found"] == 1.0
    for figures in solid.values():
        assert 0.0 <= figures["roll_waits"] <= 1.0 and 0.0 <= figures["roll_wrong_silently"] <= 1.0
        assert 0.0 <= figures["unsure_among_found"] <= 1.0

    assert real(["real", "--datasets", str(root)]) == 0
    out = capsys.readouterr().out
    assert "table-dice valid" in out and "1.000 of 5 dice of the game's colours" in out
    assert real_command.SOLID in out
    assert real(["real", "--datasets", str(tmp_path / "nowhere")]) == 2
    assert "no such folder" in capsys.readouterr().err
