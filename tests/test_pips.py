"""The pip reader: crops around a box, and the shipped PipNet reading single dice."""

import cv2
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.vision import DiceReader, ModelError
from companion.vision.onnx_model import SPINNING
from companion.vision.pips import (
    CROP_MARGIN,
    CROP_SIDE,
    SURE_UNMIRRORED,
    TURNS_KEY,
    PipReader,
    crop_die,
    toward_top_face,
)
from tests.helpers import marked_copy
from tests.pictures import single_die


def test_a_crop_is_square_and_centred_on_the_box():
    image = np.zeros((200, 300, 3), np.uint8)
    image[80:120, 130:170] = 255  # a 40×40 white square
    crop = crop_die(image, (130, 80, 40, 40))
    assert crop.shape == (CROP_SIDE, CROP_SIDE, 3)
    middle = CROP_SIDE // 2
    assert crop[middle, middle].tolist() == [255, 255, 255]
    assert crop[1, 1].tolist() == [0, 0, 0]  # the margin around the box is in the crop


@pytest.mark.parametrize("box", [(-10, -10, 30, 30), (290, 190, 30, 30), (0, 0, 300, 200), (5, 5, 0, 0)])
def test_crops_past_the_edge_repeat_the_border(box):
    image = np.full((200, 300, 3), 77, np.uint8)
    crop = crop_die(image, box)
    assert crop.shape == (CROP_SIDE, CROP_SIDE, 3) and (crop == 77).all()


def crop_by_clipped_indices(image: np.ndarray, box: tuple[float, float, float, float]) -> np.ndarray:
    """What ``crop_die`` must give, spelled out slowly: every pixel of the square, its row and
    column clipped into the image, then resized like the reader resizes."""
    extent = max(box[2], box[3], 1.0) * CROP_MARGIN
    x0, y0 = int(round(box[0] + box[2] / 2 - extent / 2)), int(round(box[1] + box[3] / 2 - extent / 2))
    size = max(2, int(round(extent)))
    rows = np.clip(np.arange(y0, y0 + size), 0, image.shape[0] - 1)
    cols = np.clip(np.arange(x0, x0 + size), 0, image.shape[1] - 1)
    square = image[np.ix_(rows, cols)]
    method = cv2.INTER_AREA if size > CROP_SIDE else cv2.INTER_LINEAR
    return cv2.resize(square, (CROP_SIDE, CROP_SIDE), interpolation=method)


@settings(max_examples=300, deadline=None)
@given(
    height=st.integers(1, 120),
    width=st.integers(1, 120),
    x=st.floats(-150, 250),
    y=st.floats(-150, 250),
    w=st.floats(0, 300),
    h=st.floats(0, 300),
    seed=st.integers(0, 2**16),
)
def test_a_crop_anywhere_repeats_the_nearest_edge_pixels(height, width, x, y, w, h, seed):
    image = np.random.default_rng(seed).integers(0, 256, (height, width, 3), dtype=np.uint8)
    box = (x, y, w, h)
    assert np.array_equal(crop_die(image, box), crop_by_clipped_indices(image, box))


def test_the_crop_moves_outward_more_the_farther_the_die_is_from_the_centre():
    size = (1000, 800)
    centred = (480, 380, 40, 40)
    assert toward_top_face(centred, size) == centred
    near, far = toward_top_face((580, 380, 40, 40), size), toward_top_face((880, 380, 40, 40), size)
    assert near[1] == far[1] == 380 and near[0] > 580 and far[0] - 880 > 2 * (near[0] - 580)
    up_left = toward_top_face((100, 100, 40, 40), size)
    assert up_left[0] < 100 and up_left[1] < 100 and up_left[2:] == (40, 40)
    assert toward_top_face((880, 380, 40, 40), size, shift=0) == (880, 380, 40, 40)


@pytest.fixture(scope="module")
def pip_reader():
    return PipReader()


@pytest.mark.parametrize("colour", ["red", "green", "blue", "black", "white", "yellow", "violet"])
def test_the_pip_reader_reads_every_value(pip_reader, colour):
    for first_seed in (1, 7, 13):  # each value in three looks and angles
        readings = []
        for pips in range(1, 7):
            image, box = single_die(colour, pips, seed=first_seed + pips - 1)
            (reading,) = pip_reader.read(image, [box])
            readings.append(reading.pips)
            assert 0 < reading.confidence <= 1
        assert readings == [1, 2, 3, 4, 5, 6], f"seeds {first_seed}–{first_seed + 5}"


def test_only_a_crop_read_unsurely_as_it_is_is_averaged_with_its_mirror(pip_reader):
    """A crop read ``SURE_UNMIRRORED`` or more surely keeps its one reading; the others are
    averaged with their left-right mirror's (PipNet learnt mirrored crops)."""
    image, box = single_die("blue", 6, seed=3)
    half_off = (box[0] + box[2] / 2, box[1], box[2], box[3])  # half the die out of the crop
    crops = np.stack([crop_die(image, box), crop_die(image, half_off)])
    once = pip_reader.infer(crops)
    mirrored = pip_reader.infer(np.ascontiguousarray(crops[:, :, ::-1]))
    sure = once.max(axis=1) >= SURE_UNMIRRORED
    assert sure.tolist() == [True, False], "one crop on each side of the line"
    read = pip_reader.probabilities(crops)
    np.testing.assert_allclose(read[0], once[0], atol=1e-6)
    np.testing.assert_allclose(read[1], (once[1] + mirrored[1]) / 2, atol=1e-5)
    assert not np.allclose(read[1], once[1], atol=1e-5)  # the mirror moved it


def test_the_shipped_pip_model_says_it_was_trained_upright_as_the_reader_reads_it():
    assert PipReader().session.get_modelmeta().custom_metadata_map[TURNS_KEY] == "1"


@pytest.mark.parametrize(
    "mark, words",
    [
        ("4", "trained on crops turned every way .quarter_turns=4.*train_pips --upright"),
        (None, "does not say how its crops are turned .quarter_turns.*train_pips --upright"),
        ("sideways", "quarter_turns='sideways'.*export it again"),
    ],
)
def test_a_pip_model_not_trained_upright_is_a_clear_error(tmp_path, mark, words):
    """The reader reads each crop upright: a PipNet that needs its crops turned, or does not say,
    would be read wrong, so it is refused with what to do."""
    with pytest.raises(ModelError, match=words):
        PipReader(marked_copy(tmp_path, mark))


def test_bare_felt_is_not_a_die(pip_reader):
    image, _ = single_die("red", 3, seed=1)
    (reading,) = pip_reader.read(image, [(10, 10, 50, 50)])
    assert reading.pips is None


def test_no_boxes_no_readings(pip_reader):
    assert pip_reader.read(np.zeros((100, 100, 3), np.uint8), []) == []


def test_a_missing_pip_model_is_a_clear_error(tmp_path):
    with pytest.raises(ModelError, match="no pip model"):
        DiceReader(pip_model_path=tmp_path / "nothing.onnx")


def test_a_broken_pip_model_is_a_clear_error(tmp_path):
    broken = tmp_path / "broken.onnx"
    broken.write_bytes(b"not a model")
    with pytest.raises(ModelError, match="cannot load the pip model"):
        PipReader(broken)


def test_both_models_run_without_busy_waiting_threads():
    # the detector and the pip reader take turns on two cores; spinning threads slow both
    reader = DiceReader()
    for session in (reader.detector.session, reader.pip_reader.session):
        assert session.get_session_options().get_session_config_entry(SPINNING) == "0"
