"""DiceNet: a small CenterNet-style detector at stride 4: a "die here" heatmap, box size and
centre offset, from a small conv backbone with a feature pyramid. The pips are read by PipNet
(``pipnet.py``) from each die found; ``classes=6`` gives the older one-heatmap-per-pip-value net,
which the product's reader does not read."""

import torch
from torch import nn
from torch.nn import functional as F

STRIDE = 4
CLASSES = 1

#: how many 3×3 convolutions each stage (stride 4, 8, 16, 32) has
Depths = tuple[int, int, int, int]
#: the outputs of the four stages
Stages = tuple[torch.Tensor, torch.Tensor, torch.Tensor, torch.Tensor]
#: the full detector's depths, the shipped one's
FULL_DEPTHS: Depths = (2, 2, 3, 2)
#: a lighter one: the last convolution of the stride-4, 8 and 16 stages dropped, about 0.6× the
#: time at 640×640 on a CPU without 8-bit dot products
LIGHT_DEPTHS: Depths = (1, 1, 2, 2)
#: how many channels the stem, the stride-4, 8, 16 and 32 stages and the pyramid have
Widths = tuple[int, int, int, int, int, int]
#: the full detector's widths, the shipped one's
FULL_WIDTHS: Widths = (16, 32, 48, 80, 112, 40)


def conv_bn(
    cin: int, cout: int, kernel: int = 3, stride: int = 1, groups: int = 1, act: bool = True
) -> nn.Sequential:
    layers: list[nn.Module] = [
        nn.Conv2d(cin, cout, kernel, stride, kernel // 2, groups=groups, bias=False),
        nn.BatchNorm2d(cout),
    ]
    if act:
        layers.append(nn.ReLU(inplace=True))
    return nn.Sequential(*layers)


def stage(cin: int, cout: int, depth: int) -> nn.Sequential:
    """``depth`` 3×3 convolutions, the first halving the picture and going to ``cout`` channels."""
    if depth < 1:
        raise ValueError(f"a stage needs at least one convolution, not {depth}")
    return nn.Sequential(conv_bn(cin, cout, 3, 2), *(conv_bn(cout, cout) for _ in range(depth - 1)))


class DiceNet(nn.Module):
    """``depths``: the 3×3 convolutions of the stride-4, 8, 16 and 32 stages, the first of each
    halving the picture. ``LIGHT_DEPTHS`` drops the last of the first three stages.
    ``widths``: the channels of the stem, the four stages and the pyramid (``FULL_WIDTHS``); a
    narrower net is started from a wider one's strongest channels (``prune.narrowed``)."""

    # Plain 3×3 convolutions: on a CPU they train ten times faster than depthwise blocks
    # (measured: 0.21 s against 0.6–2 s per batch of 16) and infer faster too.
    def __init__(
        self, classes: int = CLASSES, depths: Depths = FULL_DEPTHS, widths: Widths = FULL_WIDTHS
    ) -> None:
        super().__init__()
        if len(depths) != 4:
            raise ValueError(f"a detector has four stages, not {len(depths)}: {tuple(depths)}")
        if len(widths) != 6 or min(widths) < 1:
            raise ValueError(f"a detector has six widths of 1 or more (stem, four stages, pyramid): {widths}")
        self.depths = tuple(depths)
        self.widths = tuple(widths)
        stem, c4, c8, c16, c32, width = widths
        self.stem = conv_bn(3, stem, 3, 2)
        self.s4 = stage(stem, c4, depths[0])
        self.s8 = stage(c4, c8, depths[1])
        self.s16 = stage(c8, c16, depths[2])
        self.s32 = stage(c16, c32, depths[3])
        self.lat32 = conv_bn(c32, width, 1)
        self.lat16 = conv_bn(c16, width, 1)
        self.lat8 = conv_bn(c8, width, 1)
        self.lat4 = conv_bn(c4, width, 1)
        self.smooth = nn.Sequential(
            conv_bn(width, width, 3, groups=width),
            conv_bn(width, width, 1),
            conv_bn(width, width, 3, groups=width),
            conv_bn(width, width, 1),
        )
        self.heat = nn.Conv2d(width, classes, 1)
        self.size = nn.Conv2d(width, 2, 1)
        self.offset = nn.Conv2d(width, 2, 1)
        nn.init.constant_(self.heat.bias, -2.19)  # start from a 10% prior, as CenterNet does

    def forward(self, image: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
        """``image``: N×3×H×W BGR in 0..255, H and W multiples of 32."""
        return self.heads(self.stages(image))

    def stages(self, image: torch.Tensor) -> Stages:
        """What the stride-4, 8, 16 and 32 stages give (``widths[1:5]`` channels: 32, 48, 80 and
        112 at full width, whatever their depths), for the pyramid and for a lighter net to follow
        a fuller one's."""
        x = (image / 255.0 - 0.45) / 0.25
        c4 = self.s4(self.stem(x))
        c8 = self.s8(c4)
        c16 = self.s16(c8)
        return c4, c8, c16, self.s32(c16)

    def heads(self, stages: Stages) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
        """The heatmap, box sizes and offsets from the stages' outputs, through the pyramid."""
        c4, c8, c16, c32 = stages
        p = self.lat32(c32)
        p = self.lat16(c16) + F.interpolate(p, scale_factor=2.0, mode="nearest")
        p = self.lat8(c8) + F.interpolate(p, scale_factor=2.0, mode="nearest")
        p = self.lat4(c4) + F.interpolate(p, scale_factor=2.0, mode="nearest")
        p = self.smooth(p)
        return self.heat(p), self.size(p), self.offset(p)


class ExportedDiceNet(nn.Module):
    """What goes into the ONNX file: sigmoid heatmap with 3×3 peak suppression done in-graph."""

    def __init__(self, net: DiceNet) -> None:
        super().__init__()
        self.net = net

    def forward(self, image: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
        heat, size, offset = self.net(image)
        heat = torch.sigmoid(heat)
        best = heat.max(dim=1, keepdim=True).values  # one value per place: classes compete
        peaks = (F.max_pool2d(best, 3, 1, 1) == best).float() * best
        return heat, peaks, torch.cat([size, offset], dim=1)
