"""The reader's settings research turns: PipNet read in quarter turns, mirrored or not, and a
PipNet file's turns; the detector's quarter-scale and part-inside settings."""

import numpy as np
import pytest

from companion.vision.pips import PipReader, crop_die
from research.reader.tunable import UNMARKED_TURNS, TunableDiceReader, TunablePipReader
from tests.helpers import marked_copy
from tests.pictures import single_die


@pytest.fixture(scope="module")
def crops():
    image, box = single_die("blue", 6, seed=3)
    return np.stack([crop_die(image, box), crop_die(image, (10, 10, 50, 50))])


def test_with_its_defaults_it_reads_as_the_product_does(crops):
    np.testing.assert_array_equal(TunablePipReader().probabilities(crops), PipReader().probabilities(crops))


def test_each_crop_can_be_read_in_four_turns_and_the_answers_averaged(crops):
    shipped = PipReader()
    turned = [shipped.probabilities(np.ascontiguousarray(np.rot90(crops, k, axes=(1, 2)))) for k in range(4)]
    averaged = TunablePipReader(turns=4, sure_upright=None).probabilities(crops)
    np.testing.assert_allclose(averaged, np.mean(turned, axis=0), atol=1e-5)
    np.testing.assert_allclose(averaged.sum(axis=1), 1.0, atol=1e-5)


def test_a_die_reads_the_same_in_a_mirror_when_every_crop_is_mirrored(crops):
    """Each crop read as it is and mirrored, the two answers averaged (without
    ``sure_unmirrored``): a crop and its mirror get the same answer, which PipNet alone does not."""
    mirrors = np.ascontiguousarray(crops[:, :, ::-1])
    reader = TunablePipReader(sure_unmirrored=None)
    np.testing.assert_allclose(reader.probabilities(crops), reader.probabilities(mirrors), atol=1e-5)
    alone = TunablePipReader(mirrored=False)
    assert not np.allclose(alone.probabilities(crops), alone.probabilities(mirrors), atol=1e-5)


def test_only_a_crop_read_unsurely_as_it_is_is_read_mirrored_too(crops):
    once = TunablePipReader(mirrored=False).probabilities(crops)
    always = TunablePipReader(sure_unmirrored=None).probabilities(crops)
    sure, unsure = sorted(range(2), key=lambda i: -once[i].max())
    line = float(once.max(axis=1).mean())
    assert once[unsure].max() < line <= once[sure].max()
    adaptive = TunablePipReader(sure_unmirrored=line).probabilities(crops)
    np.testing.assert_allclose(adaptive[sure], once[sure], atol=1e-5)
    np.testing.assert_allclose(adaptive[unsure], always[unsure], atol=1e-5)
    assert not np.allclose(always[sure], once[sure], atol=1e-5)  # the mirror would have moved it
    np.testing.assert_allclose(TunablePipReader(sure_unmirrored=1.01).probabilities(crops), always, atol=1e-5)


def test_only_a_crop_read_unsurely_upright_is_turned(crops):
    upright = TunablePipReader(turns=1).probabilities(crops)
    every_turn = TunablePipReader(turns=4, sure_upright=None).probabilities(crops)
    # between the two crops' upright certainties: the surer is left as read, the other turned
    sure, unsure = sorted(range(2), key=lambda i: -upright[i].max())
    line = float(upright.max(axis=1).mean())
    assert upright[unsure].max() < line <= upright[sure].max()
    adaptive = TunablePipReader(turns=4, sure_upright=line).probabilities(crops)
    np.testing.assert_allclose(adaptive[sure], upright[sure], atol=1e-5)
    np.testing.assert_allclose(adaptive[unsure], every_turn[unsure], atol=1e-5)


@pytest.mark.parametrize("mark, turns", [("4", 4), ("1", 1), (None, UNMARKED_TURNS)])
def test_the_pip_reader_reads_crops_in_the_turns_its_model_file_names(tmp_path, mark, turns):
    """A PipNet trained on turned crops is read in four turns; one trained upright once; one
    exported before the mark existed as the earlier PipNets were (turned)."""
    assert TunablePipReader(marked_copy(tmp_path, mark)).turns == turns
    assert TunablePipReader(marked_copy(tmp_path, mark), turns=2).turns == 2  # asked for, it wins


@pytest.mark.parametrize("turns", [0, 5])
def test_turns_outside_one_to_four_are_refused(turns):
    with pytest.raises(ValueError, match="turns must be 1–4"):
        TunablePipReader(turns=turns)


def test_the_tunable_reader_reads_as_the_product_with_its_defaults():
    import cv2

    from companion.vision import DiceReader
    from tests.test_vision import FIXTURES

    frame = cv2.imread(str(next((FIXTURES / "images").glob("webcam*"))))
    assert TunableDiceReader().read(frame) == DiceReader().read(frame)


def test_the_detector_can_drop_every_candidate_whose_centre_lies_inside_a_larger_die(monkeypatch):
    """``part_inside`` None: the neighbour a large box covers goes with the pip (as before the
    product kept a candidate reaching out of the box)."""
    from research.reader.tunable import TunableDetector
    from tests.test_pyramid import FRAME, die, scripted

    large, neighbour, pip = die(100, 100, 150), die(190, 110, 100), die(150, 150, 30)
    for part_inside, kept in ((0.9, [large, neighbour]), (None, [large])):
        detector = scripted(TunableDetector(part_inside=part_inside), monkeypatch)
        detector.answers.update({640: [neighbour, pip], 320: [large]})
        assert sorted(d.box for d in detector.detect(FRAME)) == sorted(d.box for d in kept)


def test_the_detector_can_always_run_the_quarter_scale(monkeypatch):
    from research.reader.tunable import TunableDetector
    from tests.test_pyramid import FRAME, die, scripted

    for quarter_from, made in ((48, False), (None, True)):
        detector = scripted(TunableDetector(quarter_from=quarter_from), monkeypatch)
        detector.answers.update({320: [die(40, 40, 20)]})
        detector.detect(FRAME)
        assert (detector.input_side // 4 in [side for side, _ in detector.runs]) is made
