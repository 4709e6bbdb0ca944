"""Weight averages of ONNX models: the mean of the weights, shapes and graphs checked, and the
shipped detector averaged with itself reads as before."""

import argparse
from pathlib import Path

import numpy as np
import pytest

onnx = pytest.importorskip("onnx")
from onnx import TensorProto, helper, numpy_helper  # noqa: E402

from companion.assets import MODELS  # noqa: E402
from research.training.average import average_models, parse_share  # noqa: E402


def tiny_model(weight: np.ndarray, bias: np.ndarray, axes: np.ndarray | None = None) -> onnx.ModelProto:
    """y = x @ weight.T + bias, with an integer initializer beside the float ones."""
    nodes = [helper.make_node("Gemm", ["x", "w", "b"], ["y"], transB=1)]
    initializers = [numpy_helper.from_array(weight, "w"), numpy_helper.from_array(bias, "b")]
    if axes is not None:
        initializers.append(numpy_helper.from_array(axes, "axes"))
    graph = helper.make_graph(
        nodes,
        "tiny",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, weight.shape[1]])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, weight.shape[0]])],
        initializers,
    )
    return helper.make_model(graph)


def initializer(model: onnx.ModelProto, name: str) -> np.ndarray:
    return next(numpy_helper.to_array(i) for i in model.graph.initializer if i.name == name)


def test_the_average_is_the_share_weighted_mean_of_the_float_weights() -> None:
    first = tiny_model(np.zeros((2, 3), np.float32), np.array([1, 2], np.float32), np.array([0, 1]))
    second = tiny_model(np.full((2, 3), 4, np.float32), np.array([5, 6], np.float32), np.array([0, 1]))
    averaged = average_models([first, second], [3, 1])  # shares scaled to 0.75 and 0.25
    assert np.allclose(initializer(averaged, "w"), 1.0)
    assert np.allclose(initializer(averaged, "b"), [2.0, 3.0])
    assert initializer(averaged, "axes").tolist() == [0, 1]
    assert initializer(averaged, "w").dtype == np.float32
    assert np.allclose(initializer(first, "w"), 0.0), "the inputs are left as they were"


def test_models_that_do_not_share_a_graph_are_refused() -> None:
    small = tiny_model(np.zeros((2, 3), np.float32), np.zeros(2, np.float32))
    wide = tiny_model(np.zeros((2, 4), np.float32), np.zeros(2, np.float32))
    with pytest.raises(ValueError, match="shapes differ"):
        average_models([small, wide], [1, 1])
    with_axes = tiny_model(np.zeros((2, 3), np.float32), np.zeros(2, np.float32), np.array([0, 1]))
    with pytest.raises(ValueError, match="other initializers"):
        average_models([small, with_axes], [1, 1])
    other_axes = tiny_model(np.zeros((2, 3), np.float32), np.zeros(2, np.float32), np.array([1, 0]))
    with pytest.raises(ValueError, match="non-float initializer differs"):
        average_models([with_axes, other_axes], [1, 1])
    with pytest.raises(ValueError, match="one share for each model"):
        average_models([small], [1, 1])


def test_a_share_is_written_path_colon_number() -> None:
    assert parse_share("build/a.onnx:0.25") == (Path("build/a.onnx"), 0.25)
    for text in ("build/a.onnx", "a.onnx:half", "a.onnx:0", ":0.5"):
        with pytest.raises(argparse.ArgumentTypeError):
            parse_share(text)


def test_the_shipped_detector_averaged_with_itself_gives_the_same_outputs() -> None:
    ort = pytest.importorskip("onnxruntime")
    shipped = onnx.load(str(MODELS / "dicenet.onnx"))
    averaged = average_models([shipped, shipped], [0.5, 0.5])
    image = np.random.default_rng(0).random((1, 3, 320, 320), dtype=np.float32)
    outputs = [
        ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"]).run(
            None, {"image": image}
        )
        for model in (shipped, averaged)
    ]
    for before, after in zip(*outputs, strict=True):
        assert np.allclose(before, after, atol=1e-5)
