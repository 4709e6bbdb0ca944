"""Scoring a reader against labels (IoU matching, read F1, the centre match, unlabelled images)
and the training data built from labels (unlabelled images left out, false finds)."""

from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.vision.boxes import centres_inside, iou
from companion.vision.detector import Detection
from companion.vision.die import SeenDie
from research.reader.dataset import LabelledBox
from research.reader.evaluation import (
    ImageResult,
    Summary,
    match,
    matched,
    mistakes,
    paired_difference,
    read_f1,
    worst,
)
from research.training.data import Sample, load_folder
from research.training.mining import false_finds


def die(x: int, y: int, w: int, h: int, pips: int, score: float = 0.9) -> SeenDie:
    return SeenDie((x, y, w, h), pips, "white", score)


def test_iou_of_known_boxes():
    assert iou((0, 0, 10, 10), (0, 0, 10, 10)) == 1.0
    assert iou((0, 0, 10, 10), (5, 0, 10, 10)) == pytest.approx(50 / 150)
    assert iou((0, 0, 10, 10), (20, 20, 5, 5)) == 0.0


def test_match_counts_found_right_and_each_truth_once():
    truths = [LabelledBox(3, 0, 0, 40, 40), LabelledBox(5, 100, 100, 40, 40)]
    predicted = [
        die(2, 2, 40, 40, 3, 0.9),  # found, right
        die(0, 0, 40, 40, 4, 0.5),  # same truth again: a false positive
        die(102, 98, 40, 40, 6, 0.8),  # found, wrong pips
        die(300, 300, 40, 40, 1, 0.7),  # nothing there
    ]
    result = match(predicted, truths)
    assert (result.truths, result.predictions, result.found, result.right) == (2, 4, 2, 1)
    assert not result.all_right


def test_mistakes_say_which_dice_went_wrong_and_which_labels_nobody_read():
    truths = [LabelledBox(3, 0, 0, 40, 40), LabelledBox(5, 100, 100, 40, 40), LabelledBox(2, 200, 0, 40, 40)]
    predicted = [
        die(300, 300, 40, 40, 1, 0.7),  # nothing there
        die(102, 98, 40, 40, 6, 0.8),  # found, wrong pips
        die(2, 2, 40, 40, 3, 0.9),  # found, right
        die(0, 0, 40, 40, 3, 0.5),  # the first label again, less sure: a false find
    ]
    pairs = matched(predicted, truths)
    wrong = mistakes(predicted, truths, pairs)
    assert (wrong.false_finds, wrong.wrong_pips, wrong.missed) == ([0, 3], [1], [2])
    result = match(predicted, truths)
    assert (result.missed, result.false_finds, result.wrong_pips, result.mistakes) == (1, 2, 1, 4)
    assert match(predicted, truths, pairs=pairs) == result
    one_right = predicted[2:3]
    assert (
        mistakes(one_right, truths[:1], matched(one_right, truths[:1]))
        == mistakes([], [], [])
        == type(wrong)([], [], [])
    )


def test_the_worst_pictures_come_most_mistakes_first_and_pictures_read_right_never():
    def result(picture: str, truths: int, predictions: int, found: int, right: int) -> ImageResult:
        return ImageResult(truths, predictions, found, right, picture=picture)

    results = [
        result("right.jpg", 4, 4, 4, 4),
        result("b.jpg", 4, 4, 4, 3),  # one die with the wrong pips
        result("a.jpg", 4, 4, 4, 3),
        result("pile.jpg", 10, 7, 6, 5),  # 4 missed, 1 false find, 1 wrong
    ]
    assert [r.picture for r in worst(results, 5)] == ["pile.jpg", "a.jpg", "b.jpg"]
    assert [r.picture for r in worst(results, 1)] == ["pile.jpg"]


def test_read_f1_is_the_harmonic_mean_of_read_precision_and_recall():
    assert read_f1(0, 5, 5) == 0.0
    assert read_f1(5, 5, 5) == 1.0
    precision, recall = 3 / 4, 3 / 6
    assert read_f1(3, 4, 6) == pytest.approx(2 * precision * recall / (precision + recall))


def test_a_pip_sized_label_misses_by_iou_but_matches_by_centres():
    # the webcam set boxes a 1 around its single pip; the reader boxes the whole face
    pip_label = LabelledBox(1, 45, 45, 10, 10)
    face = die(30, 30, 40, 40, 1)
    result = match([face], [pip_label])
    assert result.found == 0
    assert result.right_by_centre == 1
    assert centres_inside(face.box, (45, 45, 10, 10))
    # a neighbour whose box only touches the label's centre does not count
    assert not centres_inside((49, 30, 40, 40), (45, 45, 10, 10))


def test_summary_counts_images_without_labels_and_centre_f1():
    summary = Summary()
    summary.images.append(match([die(30, 30, 40, 40, 1)], [LabelledBox(1, 45, 45, 10, 10)]))
    summary.images.append(match([die(0, 0, 20, 20, 2)], []))
    figures = summary.figures()
    assert figures["images_without_labels"] == 1
    assert figures["read_f1"] == 0.0
    assert figures["read_f1_by_centre"] == pytest.approx(read_f1(1, 2, 1))


def test_read_f1_of_labelled_photos_leaves_out_the_dice_of_photos_nobody_labelled():
    summary = Summary()
    summary.images.append(match([die(40, 40, 20, 20, 3)], [LabelledBox(3, 40, 40, 20, 20)]))
    summary.images.append(match([die(0, 0, 20, 20, 2), die(50, 0, 20, 20, 5)], []))
    figures = summary.figures()
    assert figures["read_f1"] == pytest.approx(read_f1(1, 3, 1))
    assert figures["read_f1_labelled_photos"] == 1.0


def test_a_paired_difference_is_sure_only_when_many_images_move_the_same_way():
    """Two readers on the same images: the difference of their read F1 and a 95 % interval from
    resampling the images. One more die right in every image is sure; one image better and one
    worse out of a hundred is not told apart from zero."""
    plain = [ImageResult(10, 10, 10, 9) for _ in range(100)]
    better_everywhere = [ImageResult(10, 10, 10, 10) for _ in range(100)]
    diff, low, high = paired_difference(plain, better_everywhere)
    assert diff == pytest.approx(read_f1(1000, 1000, 1000) - read_f1(900, 1000, 1000))
    assert 0 < low <= diff <= high
    one_up_one_down = [ImageResult(10, 10, 10, 10), ImageResult(10, 10, 10, 8)] + plain[2:]
    diff, low, high = paired_difference(plain, one_up_one_down)
    assert diff == pytest.approx(0) and low < 0 < high
    assert paired_difference(plain, plain) == (0.0, 0.0, 0.0)
    with pytest.raises(ValueError, match="not the same set"):
        paired_difference(plain, plain[1:])


def test_training_leaves_out_images_nobody_labelled(tmp_path: Path):
    (tmp_path / "images").mkdir()
    (tmp_path / "labels").mkdir()
    for name in ("labelled", "unlabelled"):
        cv2.imwrite(str(tmp_path / "images" / f"{name}.jpg"), np.full((64, 64, 3), 90, np.uint8))
    (tmp_path / "labels" / "labelled.txt").write_text("2 0.5 0.5 0.25 0.25\n")
    (tmp_path / "labels" / "unlabelled.txt").write_text("")
    samples = load_folder(tmp_path)
    assert len(samples) == 1
    assert samples[0].classes.tolist() == [2]
    assert samples[0].boxes.tolist() == [[24.0, 24.0, 40.0, 40.0]]


def test_false_finds_are_away_from_every_label_whatever_its_box_convention():
    image = np.zeros((200, 200, 3), np.uint8)
    # a die labelled around its single pip (webcam convention) and a die labelled whole
    sample = Sample(image, np.array([[45, 45, 55, 55], [120, 120, 160, 160]], np.float32), np.array([0, 4]))
    finds = [
        Detection((30.0, 30.0, 40.0, 40.0), 0.9),  # the pip-labelled die, boxed whole: not false
        Detection((121.0, 119.0, 40.0, 40.0), 0.9),  # the whole-labelled die: not false
        Detection((122.0, 122.0, 8.0, 8.0), 0.5),  # a corner pip of it: false
        Detection((10.0, 150.0, 30.0, 30.0), 0.3),  # nothing labelled there: false
    ]
    assert false_finds(sample, lambda _: finds) == [(122.0, 122.0, 8.0, 8.0), (10.0, 150.0, 30.0, 30.0)]


def test_sure_counts_leave_out_the_dice_the_camera_would_ask_about():
    """compare_readers --sure: of the dice found surely and read with a clear margin, those
    matched with their pips are right, a false find or wrong pips wrong; a hesitant die (found
    under 0.3, or read by a margin under 0.6: the bridge's ``unsure``) counts neither way."""
    from research.benchmarks.compare_readers import sure_counts

    truths = [LabelledBox(3, 0, 0, 20, 20), LabelledBox(5, 40, 0, 20, 20), LabelledBox(2, 80, 0, 20, 20)]

    def die(x: int, pips: int, found: float = 0.9, margin: float = 0.9) -> SeenDie:
        return SeenDie((x, 0, 20, 20), pips, "red", 0.8, found_score=found, pips_margin=margin)

    dice = [
        die(0, 3),  # right
        die(40, 6),  # wrong pips
        die(80, 1, margin=0.2),  # wrong pips, but read hesitantly: asked about
        die(120, 4),  # a false find
        die(160, 4, found=0.2),  # a false find found hesitantly: asked about
    ]
    counts = sure_counts(dice, truths, matched(dice, truths))
    assert (counts["right"], counts["wrong"]) == (1, 2)


def test_the_benchmarks_name_the_cpu_and_whether_it_has_8_bit_dot_products(tmp_path):
    """The reader ran 2–3× as fast on CPUs with AVX-512 VNNI, so every speed figure says which CPU."""
    from research.benchmarks.machine import cpu_line

    info = tmp_path / "cpuinfo"
    info.write_text("processor\t: 0\nmodel name\t: AMD EPYC 9R14\nflags\t\t: fpu avx2 avx512f avx512_vnni\n")
    assert cpu_line(info).startswith("AMD EPYC 9R14, ") and cpu_line(info).endswith(", AVX-512 VNNI")
    info.write_text("model name\t: AMD EPYC\nflags\t\t: fpu avx avx2 fma\n")
    assert cpu_line(info).endswith(", AVX2 without VNNI")
    info.write_text("model name\t: Intel Xeon\nflags\t\t: avx2 avx512f avx512_vnni amx_tile amx_int8\n")
    assert cpu_line(info).endswith(", AVX-512 VNNI, AMX")
    assert "cores" in cpu_line(tmp_path / "missing")


def test_the_benchmarks_name_the_python_and_onnxruntime_that_ran_the_models():
    import onnxruntime

    from research.benchmarks.machine import runtime_line

    line = runtime_line()
    assert line.startswith("Python 3.") and line.endswith(f"onnxruntime {onnxruntime.__version__}")


def test_the_benchmarks_time_one_look_as_the_machines_pace():
    """The pace printed beside a benchmark's medians is a time for the look asked, in ms."""
    from companion.vision.detector import DiceDetector
    from research.benchmarks.machine import full_scale_pace

    detector = DiceDetector(threads=1)
    calls = []
    detect_at = detector.detect_at
    detector.detect_at = lambda frame, side: calls.append(frame.shape) or detect_at(frame, side)
    pace = full_scale_pace(detector, side=64, runs=3)
    assert 0 < pace < 5000
    assert calls == [(64, 64, 3)] * 5  # two to warm up, three timed


def test_the_mirror_option_of_the_reader_benchmarks_takes_a_probability_or_none():
    import argparse

    from research.benchmarks.compare_readers import share_or_none

    assert share_or_none("0.9") == 0.9
    assert share_or_none(" None ") is None
    for wrong in ("0.9x", "0", "2"):
        with pytest.raises(argparse.ArgumentTypeError, match="not a number|out of range"):
            share_or_none(wrong)


def test_paired_speed_reads_each_picture_with_both_readers_in_turn_the_first_alternating():
    """A slow spell of the machine falls on both readers alike: they read each picture one
    after the other, and which goes first changes from picture to picture."""
    from research.benchmarks.paired_speed import paired_times

    log: list[tuple[str, int]] = []

    class Reader:
        def __init__(self, name: str) -> None:
            self.name = name

        def read(self, picture: np.ndarray) -> list:
            log.append((self.name, int(picture[0, 0])))
            return []

    pictures = [np.full((2, 2), value, np.uint8) for value in range(3)]
    old, new = paired_times((Reader("a"), Reader("b")), pictures, rounds=2)  # type: ignore[arg-type]
    assert len(old) == len(new) == 6
    assert log[:6] == [("a", 0), ("b", 0), ("b", 1), ("a", 1), ("a", 2), ("b", 2)]
    assert log[6:] == log[:6]
