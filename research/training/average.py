"""Average the weights of ONNX models that share one graph (a "weight average" of detectors).

Models fine-tuned from the same start lie close together in weight space; a weighted mean of
their weights is again a working model, and mixing a fine-tuned model back toward its start
tends to keep what the start knew while keeping part of what the fine-tuning taught.

Every float initializer (the fused convolution weights and biases) is averaged; any other
initializer (shapes, indices) must be equal in all models. The graphs must hold the same
initializers with the same shapes.

Run: python -m research.training.average --out build/mix.onnx A.onnx:0.5 B.onnx:0.25 C.onnx:0.25
"""

import argparse
from pathlib import Path

import numpy as np
import onnx
from onnx import numpy_helper


def parse_share(text: str) -> tuple[Path, float]:
    """``path:share`` → (path, share); the share is a positive number."""
    path, separator, share = text.rpartition(":")
    if not separator or not path:
        raise argparse.ArgumentTypeError(f"{text!r}: give each model as PATH:SHARE, e.g. a.onnx:0.5")
    try:
        value = float(share)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r}: the share {share!r} is not a number") from None
    if not value > 0:
        raise argparse.ArgumentTypeError(f"{text!r}: the share must be above 0")
    return Path(path), value


def average_models(models: list[onnx.ModelProto], shares: list[float]) -> onnx.ModelProto:
    """A copy of the first model whose float initializers are the share-weighted mean of all
    models' (shares are scaled to sum to 1)."""
    if not models or len(models) != len(shares):
        raise ValueError("give one share for each model, and at least one model")
    total = sum(shares)
    weights = [share / total for share in shares]
    tables = [{init.name: numpy_helper.to_array(init) for init in m.graph.initializer} for m in models]
    names = list(tables[0])
    for position, table in enumerate(tables[1:], start=2):
        if sorted(table) != sorted(names):
            raise ValueError(f"model {position} holds other initializers than model 1")
    averaged = onnx.ModelProto()
    averaged.CopyFrom(models[0])
    for init in averaged.graph.initializer:
        arrays = [table[init.name] for table in tables]
        if any(array.shape != arrays[0].shape for array in arrays):
            raise ValueError(f"{init.name}: shapes differ {[a.shape for a in arrays]}")
        if np.issubdtype(arrays[0].dtype, np.floating):
            mean = sum(w * a.astype(np.float64) for w, a in zip(weights, arrays, strict=True))
            init.CopyFrom(numpy_helper.from_array(mean.astype(arrays[0].dtype), init.name))
        elif any(not np.array_equal(array, arrays[0]) for array in arrays):
            raise ValueError(f"{init.name}: a non-float initializer differs between the models")
    return averaged


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--out", type=Path, required=True, help="where the averaged model goes")
    parser.add_argument("models", type=parse_share, nargs="+", help="PATH:SHARE for each model")
    args = parser.parse_args()
    paths = [path for path, _ in args.models]
    missing = [str(path) for path in paths if not path.is_file()]
    if missing:
        parser.error(f"no such model file: {', '.join(missing)}")
    averaged = average_models([onnx.load(str(path)) for path in paths], [share for _, share in args.models])
    onnx.checker.check_model(averaged)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    onnx.save(averaged, str(args.out))
    listed = ", ".join(f"{path} x {share:g}" for path, share in args.models)
    print(f"wrote {args.out}: the mean of {listed}")


if __name__ == "__main__":
    main()
