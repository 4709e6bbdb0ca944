"""Finding and opening the ONNX models the reader runs (onnxruntime, CPU only)."""

from pathlib import Path

import onnxruntime as ort


class ModelError(RuntimeError):
    """The model file is missing or unusable; the message says which file and what to do."""


def shipped_model(name: str) -> Path:
    """models/<name> beside the package (a source checkout), else in the current folder."""
    relative = Path("models") / name
    beside = Path(__file__).resolve().parents[2] / relative
    return beside if beside.is_file() else Path.cwd() / relative


def open_session(path: Path, threads: int, kind: str, option: str) -> ort.InferenceSession:
    """An onnxruntime session on ``threads`` CPU threads, or a ModelError naming the ``kind`` of
    model and the command-line ``option`` that points at another file."""
    if not path.is_file():
        raise ModelError(f"no {kind} model at {path}; train one (see models/README.md) or pass {option}")
    options = ort.SessionOptions()
    options.intra_op_num_threads = threads
    options.inter_op_num_threads = 1
    options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
    try:
        return ort.InferenceSession(str(path), options, providers=["CPUExecutionProvider"])
    except Exception as err:  # onnxruntime raises its own exception types
        raise ModelError(f"cannot load the {kind} model {path}: {err}") from None
