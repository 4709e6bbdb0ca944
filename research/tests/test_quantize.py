"""The 8-bit models: what ships reads the same on every x86 CPU, and the tool that makes 8-bit
copies of the float models (the `train` extra's onnx) gives models that read like their float
originals, with weights within ±64."""

import argparse
from pathlib import Path

import numpy as np
import pytest

onnx = pytest.importorskip("onnx")

from companion.assets import MODELS  # noqa: E402
from companion.vision.boxes import iou  # noqa: E402
from companion.vision.detector import DiceDetector  # noqa: E402
from companion.vision.pips import PipReader  # noqa: E402
from companion.vision.reader import CANDIDATE_THRESHOLD  # noqa: E402
from research.reader.tunable import TunablePipReader  # noqa: E402
from research.training.export import mark_look_side  # noqa: E402
from research.training.quantize import (  # noqa: E402
    DICENET_HEADS,
    DICENET_OPS,
    PIPNET_OPS,
    WEIGHT_RANGE,
    calibration_frames,
    crop_batches,
    folder_and_count,
    head_nodes,
    pyramid_tensors,
    quantize,
)

FIXTURES = Path(__file__).resolve().parents[2] / "tests" / "fixtures" / "real"


def eight_bit_weights(model: Path) -> list[np.ndarray]:
    """The signed 8-bit initializers (quantised weights) of an ONNX model."""
    graph = onnx.load(str(model)).graph
    return [
        onnx.numpy_helper.to_array(init)
        for init in graph.initializer
        if init.data_type == onnx.TensorProto.INT8
    ]


def outside_weight_range(weights: list[np.ndarray]) -> int:
    """How many of these 8-bit weights lie outside ``WEIGHT_RANGE``."""
    low, high = WEIGHT_RANGE
    return sum(int(((w < low) | (w > high)).sum()) for w in weights)


@pytest.mark.parametrize("name", ["dicenet.onnx", "pipnet.onnx"])
def test_the_shipped_models_read_the_same_on_every_x86_cpu(name):
    """No shipped weight is a full 8 bits: on AVX2 without VNNI those saturate."""
    assert outside_weight_range(eight_bit_weights(MODELS / name)) == 0


@pytest.mark.slow
def test_a_quantised_detector_keeps_its_heads_float_and_reads_like_its_float_original(tmp_path):
    """Box sizes and heatmap come from float weights; the others within ±64; the dice found are the
    same, and the copy names the look side its original does."""
    frames = calibration_frames([(FIXTURES, 6)])
    original = tmp_path / "float.onnx"
    mark_look_side(MODELS / "dicenet.onnx", original, 576)
    float_detector = DiceDetector(original, threads=1)
    out = tmp_path / "dicenet.onnx"
    quantize(
        original, out, "image", pyramid_tensors(float_detector, frames), DICENET_OPS, head_nodes(original)
    )
    graph = onnx.load(str(out)).graph
    initializers = {init.name for init in graph.initializer}
    convs = {node.name: node for node in graph.node if node.op_type == "Conv"}
    heads = [node for name, node in convs.items() if name.startswith(DICENET_HEADS)]
    assert len(heads) == 3 and all(node.input[1] in initializers for node in heads)
    assert sum(node.input[1] not in initializers for node in convs.values()) == len(convs) - 3
    weights = eight_bit_weights(out)
    assert weights and outside_weight_range(weights) == 0
    float_finds = [float_detector.detect(frame) for frame in frames]
    int8_detector = DiceDetector(out, threads=1)
    assert float_detector.input_side == int8_detector.input_side == 576
    int8_finds = [int8_detector.detect(frame) for frame in frames]
    assert sum(map(len, float_finds)) >= 10
    for floats, int8s in zip(float_finds, int8_finds, strict=True):
        assert len(int8s) == len(floats)
        assert all(max(iou(f.box, q.box) for q in int8s) > 0.8 for f in floats)


def test_a_quantised_pip_reader_reads_like_its_float_original(tmp_path):
    frames = calibration_frames([(FIXTURES, 6)])
    batches = crop_batches(
        DiceDetector(MODELS / "dicenet.onnx", threads=1, floor=CANDIDATE_THRESHOLD), frames
    )
    out = tmp_path / "pipnet.onnx"
    quantize(MODELS / "pipnet.onnx", out, "crops", batches, PIPNET_OPS)
    crops = np.concatenate(batches).transpose(0, 2, 3, 1)
    # the product's PipReader refuses a file that does not say it was trained upright: the 8-bit
    # copy loads, so the mark went with it
    float_answers = PipReader(MODELS / "pipnet.onnx", threads=1).probabilities(crops).argmax(axis=1)
    int8_answers = PipReader(out, threads=1).probabilities(crops).argmax(axis=1)
    assert len(crops) >= 12
    assert (float_answers == int8_answers).mean() >= 0.9
    assert TunablePipReader(out, threads=1).turns == 1


def test_calibration_frames_are_given_as_folder_and_count():
    assert folder_and_count("build/synth_lens:50") == (Path("build/synth_lens"), 50)
    for wrong in ("build/synth_lens", "build/synth_lens:", ":5", "x:0", "x:many"):
        with pytest.raises(argparse.ArgumentTypeError, match="FOLDER:COUNT"):
            folder_and_count(wrong)
