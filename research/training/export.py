"""Export DiceNet to ONNX (opset 17, any input size that is a multiple of 32), and name in the
file the look side it was trained for (``vision.detector.INPUT_SIDE_KEY``)."""

import argparse
from pathlib import Path

import onnx
import torch

from companion.vision.detector import DEFAULT_INPUT_SIDE, INPUT_SIDE_KEY, INPUT_SIDES, input_sides_named

from .model import DiceNet, ExportedDiceNet


def export_onnx(net: DiceNet, out: Path, look_side: int = DEFAULT_INPUT_SIDE) -> None:
    """``net`` as ONNX at ``out``, marked with ``look_side`` (the reader's first look)."""
    out.parent.mkdir(parents=True, exist_ok=True)
    net.eval()
    wrapped = ExportedDiceNet(net).eval()
    example = torch.zeros(1, 3, 320, 320)
    tmp = out.with_suffix(".onnx.tmp")
    with torch.no_grad():
        torch.onnx.export(
            wrapped,
            (example,),
            str(tmp),
            input_names=["image"],
            output_names=["heat", "peaks", "boxes"],
            opset_version=17,
            dynamo=False,
            dynamic_axes={
                "image": {0: "n", 2: "h", 3: "w"},
                "heat": {0: "n", 2: "fh", 3: "fw"},
                "peaks": {0: "n", 2: "fh", 3: "fw"},
                "boxes": {0: "n", 2: "fh", 3: "fw"},
            },
        )
    mark_look_side(tmp, tmp, look_side)
    tmp.replace(out)  # never leave a half-written model where the reader looks
    net.train()


def mark_look_side(model: Path, out: Path, look_side: int) -> None:
    """A copy of the detector ``model`` at ``out`` that names ``look_side`` as its first look."""
    if look_side not in INPUT_SIDES:
        raise ValueError(f"a look side is {input_sides_named()} pixels, not {look_side}")
    graph = onnx.load(str(model))
    kept = {p.key: p.value for p in graph.metadata_props if p.key != INPUT_SIDE_KEY}
    onnx.helper.set_model_props(graph, {**kept, INPUT_SIDE_KEY: str(look_side)})
    onnx.save(graph, str(out))


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        description="Copy a dice model, naming the look side the reader should use with it "
        "(python -m research.training.export IN.onnx --look-side 448 --out OUT.onnx)."
    )
    parser.add_argument("model", type=Path)
    parser.add_argument("--look-side", type=int, required=True)
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args(argv)
    if not args.model.is_file():
        parser.error(f"{args.model}: no such file")
    try:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        mark_look_side(args.model, args.out, args.look_side)
    except ValueError as err:
        parser.error(str(err))
    except Exception as err:  # onnx raises its own types for a file that is no model
        parser.error(f"{args.model} is not an ONNX model: {err}")
    print(f"wrote {args.out} (look side {args.look_side})")


if __name__ == "__main__":
    main()
