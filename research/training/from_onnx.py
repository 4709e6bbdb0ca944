"""Continue training from a shipped ONNX file when its torch checkpoint is gone.

The exporter folds every BatchNorm into the convolution before it, so the ONNX file holds
one weight and one bias per convolution, in the order the forward pass runs them. Loading
puts the weight into the torch convolution and the bias into an identity BatchNorm after it.
``spread_batch_norms`` then gives each BatchNorm the per-channel mean and spread of real
batches, so that in training mode (batch statistics) it still passes its input on unchanged.
"""

from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import NamedTuple

import numpy as np
import onnx
import torch
from onnx import numpy_helper
from torch import nn


def fused_layers(path: Path) -> list[tuple[np.ndarray, np.ndarray]]:
    """(weight, bias) of every Conv and Gemm node of the ONNX graph, in graph order."""
    model = onnx.load(str(path))
    values = {init.name: numpy_helper.to_array(init) for init in model.graph.initializer}
    layers = []
    for node in model.graph.node:
        if node.op_type in ("Conv", "Gemm"):
            weight = values[node.input[1]]
            bias = values[node.input[2]] if len(node.input) > 2 else np.zeros(weight.shape[0], np.float32)
            layers.append((weight, bias))
    return layers


class Convolution(NamedTuple):
    """What ``stage_depths`` and ``stage_widths`` need of one Conv node of an ONNX graph."""

    kernel: list[int]
    halves: bool  # a stride of 2
    full: bool  # group 1: not depthwise
    channels: int  # output channels

    @property
    def full_3x3(self) -> bool:
        return self.kernel == [3, 3] and self.full


def convolutions(path: Path) -> list[Convolution]:
    """Every Conv node of the ONNX graph in ``path``, in graph order."""
    model = onnx.load(str(path))
    shapes = {init.name: tuple(init.dims) for init in model.graph.initializer}
    found = []
    for node in model.graph.node:
        if node.op_type == "Conv":
            attributes = {a.name: onnx.helper.get_attribute_value(a) for a in node.attribute}
            found.append(
                Convolution(
                    list(attributes.get("kernel_shape", [])),
                    list(attributes.get("strides", [1, 1])) == [2, 2],
                    attributes.get("group", 1) == 1,
                    int(shapes[node.input[1]][0]),
                )
            )
    return found


def stage_depths(path: Path) -> tuple[int, ...]:
    """How many full 3×3 convolutions each stage of the backbone in ``path`` has (a stage starts
    with one that halves the picture); the first such convolution, the stem, is no stage."""
    depths: list[int] = []
    for conv in convolutions(path):
        if not conv.full_3x3:
            continue
        if conv.halves:
            depths.append(0)
        if depths:
            depths[-1] += 1
    return tuple(depths[1:])


def stage_widths(path: Path) -> tuple[int, ...]:
    """The channels of the detector in ``path``: its stem's, each stage's (what the convolution
    that starts it writes) and its pyramid's (what the first 1×1 convolution writes), as
    ``DiceNet``'s ``widths``."""
    widths: list[int] = []
    for conv in convolutions(path):
        if conv.full_3x3:
            if not widths or conv.halves:
                widths.append(conv.channels)
        elif conv.kernel == [1, 1] and widths:
            return (*widths, conv.channels)
    return tuple(widths)


def pip_widths(path: Path) -> tuple[int, ...]:
    """The channels of the PipNet in ``path``: what the first convolution of each block writes
    (the 1st, 3rd, 5th and 7th), as ``PipNet``'s ``widths``."""
    return tuple(conv.channels for conv in convolutions(path)[0:7:2])


def trainable_layers(net: nn.Module) -> list[tuple[nn.Module, nn.BatchNorm2d | None]]:
    """Every Conv2d/Linear of ``net`` in definition order, with the BatchNorm that follows it."""
    modules = list(net.modules())
    found = []
    for index, module in enumerate(modules):
        if isinstance(module, nn.Conv2d | nn.Linear):
            follower = modules[index + 1] if index + 1 < len(modules) else None
            found.append((module, follower if isinstance(follower, nn.BatchNorm2d) else None))
    return found


def load_fused(net: nn.Module, path: Path) -> None:
    """Load the fused layers of ``path`` into ``net``, whose layers run in the graph's order;
    shapes are checked layer by layer."""
    fused = fused_layers(path)
    layers = trainable_layers(net)
    if len(fused) != len(layers):
        raise ValueError(f"{path} has {len(fused)} layers with weights, the network {len(layers)}")
    with torch.no_grad():
        for position, ((layer, norm), (weight, bias)) in enumerate(zip(layers, fused, strict=True)):
            if tuple(layer.weight.shape) != weight.shape:
                raise ValueError(
                    f"layer {position} of {path}: {weight.shape} against {tuple(layer.weight.shape)}"
                )
            layer.weight.copy_(torch.from_numpy(weight.copy()))
            if norm is not None:
                pass_through(norm, torch.from_numpy(bias.copy()))
            else:
                layer.bias.copy_(torch.from_numpy(bias.copy()))


def pass_through(norm: nn.BatchNorm2d, bias: torch.Tensor | float = 0.0) -> None:
    """Make ``norm`` an identity BatchNorm (in eval mode): it adds ``bias`` and changes nothing
    else, what ``spread_batch_norms`` starts from."""
    with torch.no_grad():
        norm.weight.fill_(1.0)
        norm.bias.copy_(torch.as_tensor(bias, dtype=norm.bias.dtype).expand_as(norm.bias))
        norm.running_mean.zero_()
        norm.running_var.fill_(1.0 - norm.eps)


def resume_from_onnx(net: nn.Module, path: Path, batches: Iterable[torch.Tensor]) -> None:
    """``net`` as the ONNX file ``path`` left it, its BatchNorms spread over ``batches``."""
    load_fused(net, path)
    spread_batch_norms(net, batches)


def spread_batch_norms(
    net: nn.Module, batches: Iterable[torch.Tensor], only: Sequence[nn.BatchNorm2d] | None = None
) -> None:
    """Set each identity BatchNorm (or ``only`` these) to the mean and spread of what reaches it
    over ``batches``, keeping the function the same in eval mode and close to it in training mode."""
    norms = list(only) if only is not None else [m for m in net.modules() if isinstance(m, nn.BatchNorm2d)]
    sums = {id(n): [0.0, 0.0, 0] for n in norms}

    def record(module: nn.BatchNorm2d, inputs: tuple[torch.Tensor, ...], _output: torch.Tensor) -> None:
        x = inputs[0].transpose(0, 1).reshape(inputs[0].shape[1], -1).double()
        entry = sums[id(module)]
        entry[0] = entry[0] + x.sum(1)
        entry[1] = entry[1] + (x * x).sum(1)
        entry[2] += x.shape[1]

    hooks = [n.register_forward_hook(record) for n in norms]
    was_training = net.training
    net.eval()
    with torch.no_grad():
        for images in batches:
            net(images)
        for hook in hooks:
            hook.remove()
        for norm in norms:
            total, squares, count = sums[id(norm)]
            mean = total / count
            std = (squares / count - mean * mean).clamp(min=1e-6).sqrt()
            # y = (x - mean) / std * std + (mean + bias) = x + bias, in either mode
            norm.bias.add_(mean.float())
            norm.weight.copy_(std.float())
            norm.running_mean.copy_(mean.float())
            norm.running_var.copy_((std * std).float() - norm.eps)
    net.train(was_training)
