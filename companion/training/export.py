"""Export DiceNet to ONNX (opset 17, any input size that is a multiple of 32)."""

from pathlib import Path

import torch

from .model import DiceNet, ExportedDiceNet


def export_onnx(net: DiceNet, out: Path) -> None:
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
    tmp.replace(out)  # never leave a half-written model where the reader looks
    net.train()
