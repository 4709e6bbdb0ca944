"""PipNet: a small classifier for one die's crop: not a die, or 1–6 pips on top."""

from pathlib import Path

import onnx
import torch
from torch import nn

from companion.vision.pips import CROP_SIDE, TURNS_KEY

from .model import conv_bn

CLASSES = 7  # not a die, then 1–6 pips


#: the channels of PipNet's four blocks (two convolutions each, the last one): the shipped net's
PipWidths = tuple[int, int, int, int]
PIP_WIDTHS: PipWidths = (24, 48, 80, 112)


class PipNet(nn.Module):
    def __init__(self, widths: PipWidths = PIP_WIDTHS) -> None:
        super().__init__()
        a, b, c, d = widths
        self.widths = widths
        self.features = nn.Sequential(
            conv_bn(3, a),
            conv_bn(a, a),
            nn.MaxPool2d(2),  # 24
            conv_bn(a, b),
            conv_bn(b, b),
            nn.MaxPool2d(2),  # 12
            conv_bn(b, c),
            conv_bn(c, c),
            nn.MaxPool2d(2),  # 6
            conv_bn(c, d),
            nn.AdaptiveAvgPool2d(1),
        )
        self.classify = nn.Sequential(nn.Flatten(), nn.Dropout(0.2), nn.Linear(d, CLASSES))

    def forward(self, crops: torch.Tensor) -> torch.Tensor:
        """``crops``: N×3×side×side BGR in 0..255; returns logits N×7."""
        x = (crops / 255.0 - 0.45) / 0.25
        return self.classify(self.features(x))


class ExportedPipNet(nn.Module):
    def __init__(self, net: PipNet) -> None:
        super().__init__()
        self.net = net

    def forward(self, crops: torch.Tensor) -> torch.Tensor:
        return torch.softmax(self.net(crops), dim=1)


def export_pipnet(net: PipNet, out: Path, turns: int) -> None:
    """ONNX with a free batch size: every crop of a frame goes through in one run. ``turns``
    (1 when trained upright, else 4) is written into the file, so the reader reads the crops
    the way the model learnt them (``vision.pips.TURNS_KEY``)."""
    out.parent.mkdir(parents=True, exist_ok=True)
    net.eval()
    tmp = out.with_suffix(".onnx.tmp")
    with torch.no_grad():
        torch.onnx.export(
            ExportedPipNet(net).eval(),
            (torch.zeros(2, 3, CROP_SIDE, CROP_SIDE),),
            str(tmp),
            input_names=["crops"],
            output_names=["probabilities"],
            opset_version=17,
            dynamo=False,
            dynamic_axes={"crops": {0: "n"}, "probabilities": {0: "n"}},
        )
    model = onnx.load(str(tmp))
    onnx.helper.set_model_props(model, {TURNS_KEY: str(turns)})
    onnx.save(model, str(tmp))
    tmp.replace(out)
    net.train()
