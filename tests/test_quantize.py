"""The 8-bit models: the shipped ones are quantised, and the tool that makes them from the float
models (the `train` extra's onnx) gives a model that reads like its float original."""

import argparse
from pathlib import Path

import numpy as np
import pytest

onnx = pytest.importorskip("onnx")

from companion.training.quantize import (  # noqa: E402
    DICENET_HEADS,
    PIPNET_OPS,
    calibration_frames,
    crop_batches,
    folder_and_count,
    quantize,
)
from companion.vision.detector import DiceDetector  # noqa: E402
from companion.vision.pips import PipReader  # noqa: E402
from companion.vision.reader import MAYBE_THRESHOLD  # noqa: E402

MODELS = Path(__file__).resolve().parents[1] / "models"
FIXTURES = Path(__file__).parent / "fixtures" / "real"


@pytest.mark.parametrize("name", ["dicenet.onnx", "pipnet.onnx"])
def test_the_shipped_models_are_8_bit_copies_of_the_float_ones(name):
    ops = {node.op_type for node in onnx.load(str(MODELS / name)).graph.node}
    assert {"QuantizeLinear", "DequantizeLinear"} <= ops
    assert (MODELS / "float" / name).stat().st_size > 3 * (MODELS / name).stat().st_size


def test_the_detector_keeps_its_heads_float():
    """Box sizes and heatmap come from float weights (quantised weights arrive dequantised)."""
    graph = onnx.load(str(MODELS / "dicenet.onnx")).graph
    initializers = {init.name for init in graph.initializer}
    convs = {node.name: node for node in graph.node if node.op_type == "Conv"}
    heads = [node for name, node in convs.items() if name.startswith(DICENET_HEADS)]
    assert len(heads) == 3 and all(node.input[1] in initializers for node in heads)
    assert sum(node.input[1] not in initializers for node in convs.values()) == len(convs) - 3


def test_a_quantised_pip_reader_reads_like_its_float_original(tmp_path):
    frames = calibration_frames([(FIXTURES, 6)])
    batches = crop_batches(
        DiceDetector(MODELS / "float" / "dicenet.onnx", threads=1, floor=MAYBE_THRESHOLD), frames
    )
    out = tmp_path / "pipnet.onnx"
    quantize(MODELS / "float" / "pipnet.onnx", out, "crops", batches, PIPNET_OPS)
    crops = np.concatenate(batches).transpose(0, 2, 3, 1)
    float_answers = PipReader(MODELS / "float" / "pipnet.onnx", threads=1).run(crops).argmax(axis=1)
    int8_answers = PipReader(out, threads=1).run(crops).argmax(axis=1)
    assert len(crops) >= 12
    assert (float_answers == int8_answers).mean() >= 0.9
    # how PipNet is read (once, trained upright) goes with it into the 8-bit copy
    assert PipReader(out, threads=1).turns == PipReader(MODELS / "float" / "pipnet.onnx").turns == 1


def test_calibration_frames_are_given_as_folder_and_count():
    assert folder_and_count("build/synth_lens:50") == (Path("build/synth_lens"), 50)
    for wrong in ("build/synth_lens", "build/synth_lens:", ":5", "x:0", "x:many"):
        with pytest.raises(argparse.ArgumentTypeError, match="FOLDER:COUNT"):
            folder_and_count(wrong)
