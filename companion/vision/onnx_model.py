"""Finding and opening the ONNX models the reader runs (onnxruntime, CPU only)."""

from pathlib import Path

import onnxruntime as ort

from ..assets import MODELS

#: onnxruntime's switch for worker threads that busy-wait between runs
SPINNING = "session.intra_op.allow_spinning"


class ModelError(RuntimeError):
    """The model file is missing or unusable; the message says which file and what to do."""


def shipped_model(name: str) -> Path:
    """The shipped model file ``name`` (``assets.MODELS``)."""
    return MODELS / name


def open_session(path: Path, threads: int, kind: str, option: str) -> ort.InferenceSession:
    """An onnxruntime session on ``threads`` CPU threads, or a ModelError naming the ``kind`` of
    model and the command-line ``option`` that points at another file."""
    if not path.is_file():
        raise ModelError(f"no {kind} model at {path}; reinstall the package (it ships them) or pass {option}")
    options = ort.SessionOptions()
    options.intra_op_num_threads = threads
    options.inter_op_num_threads = 1
    options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
    # The reader runs two sessions one after the other on a 2-core machine. Threads that spin
    # after their run keep the cores from the next session: measured 40 ms per 640×640 frame
    # spinning against 23 ms without.
    options.add_session_config_entry(SPINNING, "0")
    try:
        return ort.InferenceSession(str(path), options, providers=["CPUExecutionProvider"])
    except Exception as err:  # onnxruntime raises its own exception types
        raise ModelError(f"cannot load the {kind} model {path}: {err}") from None
