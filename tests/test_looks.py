"""How the detector's three looks are merged: a die close to the camera drops its pips, but a
tray seen whole (one large "face" with the dice inside) never drops the dice in it."""

import numpy as np
import pytest

from companion.vision.detector import Detection, DiceDetector


def die(x: float, y: float, side: float, score: float = 0.9) -> Detection:
    return Detection((x, y, side, side), None, score)


TRAY = die(20, 20, 600, 0.7)  # found by the smallest look: as large as a close-up die
PIPS = [die(200 + 60 * (i % 3), 250 + 80 * (i // 3), 30) for i in range(6)]  # a six's pips
DICE_IN_TRAY = [die(60 + 70 * (i % 7), 80 + 120 * (i // 7), 50) for i in range(12)]


@pytest.fixture
def detector(monkeypatch):
    """The shipped detector whose looks answer what each test says (scale 1: frame pixels)."""
    detector = DiceDetector()
    answers: dict[int, list[Detection]] = {}
    monkeypatch.setattr(detector, "detect_at", lambda frame, side: (answers.get(side, []), 1.0))
    detector.answers = answers
    return detector


FRAME = np.zeros((640, 640, 3), np.uint8)


def test_a_die_close_to_the_camera_drops_its_pips(detector):
    detector.answers.update({640: PIPS, 160: [TRAY]})
    assert [d.box for d in detector.detect(FRAME)] == [TRAY.box]


def test_a_large_find_holding_more_dice_than_a_face_has_pips_is_a_tray(detector):
    detector.answers.update({640: DICE_IN_TRAY, 160: [TRAY]})
    found = detector.detect(FRAME)
    assert TRAY.box not in [d.box for d in found]
    assert len(found) == len(DICE_IN_TRAY)


def test_a_large_find_the_pip_reader_rejects_keeps_the_dice_inside(detector):
    few = DICE_IN_TRAY[:4]
    detector.answers.update({640: few, 160: [TRAY]})
    asked = []

    def confirm(boxes):
        asked.append(boxes)
        return [False for _ in boxes]  # "not a die"

    found = detector.detect(FRAME, confirm)
    assert asked == [[TRAY.box]]
    assert sorted(d.box for d in found) == sorted(d.box for d in few)
    # confirmed, the same large find is one die close to the camera again
    assert [d.box for d in detector.detect(FRAME, lambda boxes: [True for _ in boxes])] == [TRAY.box]
