"""How the detector's image pyramid is merged: a die close to the camera drops its pips, but a
tray seen whole (one large "face" with the dice inside) never drops the dice in it."""

import numpy as np
import pytest

from companion.vision.boxes import centre, contains
from companion.vision.detector import QUARTER_FROM, Detection, DiceDetector


def die(x: float, y: float, side: float, score: float = 0.9) -> Detection:
    return Detection((x, y, side, side), score)


TRAY = die(20, 20, 600, 0.7)  # found at the quarter scale: as large as a close-up die
PIPS = [die(200 + 60 * (i % 3), 250 + 80 * (i // 3), 30) for i in range(6)]  # a six's pips
DICE_IN_TRAY = [die(60 + 70 * (i % 7), 80 + 120 * (i // 7), 50) for i in range(12)]


@pytest.fixture
def detector(monkeypatch):
    return scripted(DiceDetector(), monkeypatch)


def scripted(detector: DiceDetector, monkeypatch) -> DiceDetector:
    """``detector`` whose scales answer what each test says (scale 1: frame pixels; a region of
    the frame answers the candidates whose centre lies in it), recording each run's side and
    region."""
    answers: dict[int, list[Detection]] = {}
    runs: list[tuple[int, tuple | None]] = []

    def detect_at(frame, side, region=None, floor=None):
        runs.append((side, region))
        found = [d for d in answers.get(side, []) if d.score >= (detector.floor if floor is None else floor)]
        if region is not None:
            x0, y0, x1, y1 = region
            found = [d for d in found if contains((x0, y0, x1 - x0, y1 - y0), centre(d.box))]
        return found, 1.0

    monkeypatch.setattr(detector, "detect_at", detect_at)
    detector.answers, detector.runs = answers, runs
    return detector


FRAME = np.zeros((640, 640, 3), np.uint8)


def test_a_die_close_to_the_camera_drops_its_pips(detector):
    detector.answers.update({640: PIPS, 160: [TRAY]})
    assert [d.box for d in detector.detect(FRAME)] == [TRAY.box]


def test_a_neighbour_the_large_box_covers_is_a_die_but_a_pip_inside_it_is_not(detector):
    """Dice pushed together: the half scale boxes one die a little large, over the centre of its
    neighbour. The neighbour reaches out of that box, so it is a die of its own; a pip lies
    wholly inside the box and goes."""
    large = die(100, 100, 150)  # found at the half scale
    neighbour, pip = die(190, 110, 100), die(150, 150, 30)  # found at full scale
    detector.answers.update({640: [neighbour, pip], 320: [large]})
    assert sorted(d.box for d in detector.detect(FRAME)) == sorted([large.box, neighbour.box])


def test_a_large_find_holding_more_dice_than_a_face_has_pips_is_a_tray(detector):
    detector.answers.update({640: DICE_IN_TRAY, 160: [TRAY]})
    found = detector.detect(FRAME)
    assert TRAY.box not in [d.box for d in found]
    assert len(found) == len(DICE_IN_TRAY)


def test_a_large_find_the_pip_reader_rejects_keeps_the_dice_inside(detector):
    few = DICE_IN_TRAY[:4]
    detector.answers.update({640: few, 160: [TRAY]})
    asked = []

    def confirm(candidates):
        asked.append([d.box for d in candidates])
        return [False for _ in candidates]  # "not a die"

    found = detector.detect(FRAME, confirm)
    assert asked == [[TRAY.box]]
    assert sorted(d.box for d in found) == sorted(d.box for d in few)
    # confirmed, the same large candidate is one die close to the camera again
    assert [d.box for d in detector.detect(FRAME, lambda found: [True for _ in found])] == [TRAY.box]


def test_a_large_photo_adds_the_small_dice_only_its_upscaled_run_finds(detector):
    """A phone photo (1280 px or more) is also run with its longest side at 1280: small
    dice found there and nowhere else are added; a die already found, or a large candidate, is not."""
    from companion.vision.detector import SMALL_DIE

    photo = np.zeros((2560, 2560, 3), np.uint8)  # the upscaled run sees it at half size
    found_at_full_scale = die(50, 50, 10)  # at 640 px: 200, 200, 40 in the photo
    new_small, large = die(300, 300, 15), die(450, 450, SMALL_DIE * 2 + 10)
    detector.answers.update({640: [found_at_full_scale], 1280: [die(102, 102, 20), new_small, large]})
    assert sorted(d.box for d in detector.detect(photo)) == [(200, 200, 40, 40), (600, 600, 30, 30)]
    # a frame under 1280 px gets no upscaled run
    detector.answers.update({640: [], 1280: [new_small]})
    assert detector.detect(FRAME) == []


def test_a_low_score_candidate_is_kept_only_when_its_pips_are_read_surely(monkeypatch):
    """A candidate scored between the candidate threshold and the threshold stays when the pip
    reader is sure of its pips, and goes when it is unsure; a sure die stays either way."""
    from companion.vision import DiceReader
    from companion.vision.pips import PipReading

    reader = DiceReader()
    assert reader.detector.floor == 0.25 and reader.detector.threshold == 0.4  # the candidate threshold
    sure = die(40, 40, 40, 0.9)
    low_read_surely, low_read_unsurely = die(200, 40, 40, 0.3), die(400, 40, 40, 0.3)
    monkeypatch.setattr(
        reader.detector,
        "detect",
        lambda frame, confirm=None, whole=False: [sure, low_read_surely, low_read_unsurely],
    )
    confidence = {sure.box: 0.5, low_read_surely.box: 0.95, low_read_unsurely.box: 0.5}
    monkeypatch.setattr(
        reader.pip_reader, "read", lambda frame, boxes: [PipReading(3, confidence[tuple(b)]) for b in boxes]
    )
    kept = {d.box[0] for d in reader.read(FRAME)}
    assert kept == {40, 200}


def test_a_find_too_small_to_show_pips_is_not_a_die(monkeypatch):
    """A 40-pixel thumbnail blown up to the model's size makes 3-pixel "dice" of its specks."""
    from companion.vision import DiceReader
    from companion.vision.pips import PipReading
    from companion.vision.reader import MIN_DIE_SIDE

    reader = DiceReader()
    speck, die_ = die(10, 10, MIN_DIE_SIDE - 1, 0.9), die(100, 100, MIN_DIE_SIDE + 6, 0.9)
    monkeypatch.setattr(reader.detector, "detect", lambda frame, confirm=None, whole=False: [speck, die_])
    monkeypatch.setattr(reader.pip_reader, "read", lambda frame, boxes: [PipReading(2, 0.99) for _ in boxes])
    assert [d.box[0] for d in reader.read(FRAME)] == [100]


def test_a_large_find_the_pip_reader_confirmed_is_not_read_again(monkeypatch):
    """The pip reader reads a die close to the camera once: when the detector asks whether it
    is a die, and its answer is kept for the die's pips."""
    from companion.vision import DiceReader
    from companion.vision.pips import PipReading

    reader = DiceReader()
    close_up, small = die(20, 20, 500, 0.9), die(560, 560, 40, 0.9)

    def detect(frame, confirm=None, whole=False):
        return [d for d, is_die in zip([close_up], confirm([close_up]), strict=True) if is_die] + [small]

    asked: list[tuple] = []

    def read(frame, boxes):
        asked.extend(tuple(b) for b in boxes)
        return [PipReading(5 if b == close_up.box else 2, 0.95) for b in boxes]

    monkeypatch.setattr(reader.detector, "detect", detect)
    monkeypatch.setattr(reader.pip_reader, "read", read)
    dice = reader.read(FRAME)
    assert sorted(asked) == sorted([close_up.box, small.box])
    assert sorted(d.pips for d in dice) == [2, 5]


def test_full_scale_covers_only_the_regions_round_what_the_half_scale_found(detector):
    """Dice lie together: full scale (640) is run over the box round the half scale's candidates
    grown by a die (at least 32 px), its corner on the 32 px grid; a die away from it is not sought."""
    from companion.vision.detector import FOCUS_MARGIN

    half = [die(200, 200, 40), die(260, 200, 40)]  # scale 1: the boxes are in pixels of each scale
    at_640 = [die(205, 205, 30), die(265, 205, 30), die(600, 20, 30)]
    detector.answers.update({320: half, 640: at_640})
    found = detector.detect(FRAME)
    margin = max(32, FOCUS_MARGIN * 40)
    part = (int((200 - margin) // 32) * 32, int((200 - margin) // 32) * 32, 300 + margin, 240 + margin)
    assert (640, part) in detector.runs
    assert (640, None) not in detector.runs
    assert sorted(d.box for d in found) == sorted([at_640[0].box, at_640[1].box])


def test_far_apart_candidates_get_a_region_each_and_overlapping_regions_are_joined(detector):
    near = [die(40, 40, 30), die(80, 40, 30)]  # their grown boxes overlap: one region
    far = die(560, 560, 30)
    detector.answers.update({320: [*near, far]})
    detector.detect(FRAME)
    parts = [region for side, region in detector.runs if side == 640]
    assert len(parts) == 2
    assert all(x0 % 32 == 0 and y0 % 32 == 0 and x1 <= 640 and y1 <= 640 for x0, y0, x1, y1 in parts)
    assert any(x0 <= 40 and x1 >= 110 for x0, _, x1, _ in parts)  # the near two in one region


def test_the_whole_frame_is_run_when_the_half_scale_finds_nothing_or_the_regions_cover_most_of_it(
    detector,
):
    detector.detect(FRAME)  # nothing found
    assert (640, None) in detector.runs
    detector.runs.clear()
    spread = [die(40 + 150 * (i % 4), 40 + 150 * (i // 4), 60) for i in range(16)]
    detector.answers.update({320: spread})
    detector.detect(FRAME)
    assert (640, None) in detector.runs
    detector.runs.clear()
    detector.focus_most = None  # focus off: always the whole frame
    detector.answers.update({320: [die(40, 40, 30)]})
    detector.detect(FRAME)
    assert (640, None) in detector.runs


def test_a_faint_half_scale_candidate_chooses_the_region_but_is_no_die(detector):
    """A small die the half scale barely sees (scored under the candidate floor, over
    ``FOCUS_FLOOR``) still brings full scale to it, where it is found surely."""
    from companion.vision.detector import FOCUS_FLOOR

    faint = die(300, 300, 10, (FOCUS_FLOOR + detector.floor) / 2)
    detector.answers.update({320: [faint], 640: [die(298, 298, 16)]})
    found = detector.detect(FRAME)
    assert [d.box for d in found] == [(298, 298, 16, 16)]
    assert (640, None) not in detector.runs


def test_a_region_of_a_real_frame_finds_its_dice_where_the_whole_frame_does():
    """The shipped model: the dice found in a region of full scale are in pixels of the frame,
    where the run over the whole frame finds them."""
    import cv2

    from tests.test_vision import FIXTURES

    frame = cv2.imread(str(next((FIXTURES / "images").glob("webcam*"))))
    detector = DiceDetector()
    whole, _ = detector.detect_at(frame, 640)
    dice = [d for d in whole if d.score >= detector.threshold]
    assert dice
    target = dice[0].box
    x0, y0 = int(max(0, target[0] - 40) // 32 * 32), int(max(0, target[1] - 40) // 32 * 32)
    part = (x0, y0, min(640, int(target[0] + target[2] + 40)), min(480, int(target[1] + target[3] + 40)))
    in_part, _ = detector.detect_at(frame, 640, part)
    assert any(np.allclose(d.box, target, atol=2) for d in in_part)


def test_asked_for_the_whole_frame_full_scale_covers_it_however_little_the_half_scale_found(detector):
    far = die(560, 560, 30)  # the half scale did not see it
    detector.answers.update({320: [die(40, 40, 30)], 640: [die(40, 40, 30), far]})
    assert far.box not in [d.box for d in detector.detect(FRAME)]
    assert far.box in [d.box for d in detector.detect(FRAME, whole=True)]
    assert detector.runs[-1] == (640, None)


def test_the_quarter_scale_is_run_only_when_the_half_scale_saw_something_wide_or_nothing(detector):
    """A die the quarter scale gives is 112 px or wider at the half scale, and the half scale sees
    it (or its pips) as something wide: when all it found is narrower than ``QUARTER_FROM``, the
    quarter scale is not run; when it found nothing, it is."""
    quarter = detector.input_side // 4
    detector.detect(FRAME)  # the half scale found nothing: every scale
    assert quarter in [side for side, _ in detector.runs]
    for widest, made in ((QUARTER_FROM - 1, False), (QUARTER_FROM, True)):
        detector.runs.clear()
        detector.answers.update({320: [die(40, 40, 20), die(300, 300, widest)]})
        detector.detect(FRAME)
        assert (quarter in [side for side, _ in detector.runs]) is made, widest


def test_a_faint_wide_half_scale_candidate_also_brings_the_quarter_scale(detector):
    """A candidate scored over ``FOCUS_FLOOR`` but under the candidate floor counts: a die too
    large for the half scale is seen there only faintly, beside narrow candidates it is sure of."""
    from companion.vision.detector import FOCUS_FLOOR

    faint = die(100, 100, 200, (FOCUS_FLOOR + detector.floor) / 2)
    close = die(20, 20, 600, 0.9)
    detector.answers.update({320: [faint, die(500, 500, 20)], 160: [close]})
    assert [d.box for d in detector.detect(FRAME)] == [close.box]


def test_a_brightened_reading_finds_on_the_brightened_copy_and_names_colours_on_the_frame(monkeypatch):
    """A black die on a dark cloth, read brightened (a dark roll read short): the detector and the
    pip reader see the lifted frame, the colour is read from the frame as it is (lifted, the black
    body would look grey)."""
    from companion.vision import DiceReader
    from companion.vision.dark_frame import brightened
    from companion.vision.pips import PipReading

    reader = DiceReader()
    frame = np.full((480, 640, 3), (40, 45, 50), np.uint8)
    frame[200:260, 300:360] = (35, 32, 30)
    frame[225:235, 325:335] = 240  # a pip
    seen: list[float] = []

    def detect(image, confirm=None, whole=False):
        seen.append(float(image.mean()))
        return [die(300, 200, 60, 0.9)]

    monkeypatch.setattr(reader.detector, "detect", detect)
    monkeypatch.setattr(reader.pip_reader, "read", lambda image, boxes: [PipReading(5, 0.99) for _ in boxes])
    (plain,) = reader.read(frame, whole=True)
    (lifted,) = reader.read(frame, whole=True, brightened=True)
    assert seen[1] > seen[0] + 40  # the detector ran on a brighter picture
    assert plain.colour == lifted.colour == "black" and lifted.pips == 5
    (read_on_the_copy,) = reader.read(brightened(frame), whole=True)
    assert read_on_the_copy.colour == "grey"  # what naming the colour on the copy would say
