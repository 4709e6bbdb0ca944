"""A narrower DiceNet or PipNet started from a wider one's strongest channels (``train --widths``,
``train_pips --widths``).

Each convolution's output channels are ranked by how strongly they answer: the L1 norm of the
channel's weights times its BatchNorm's scale (the weight the ONNX file holds, where the two are
folded). The narrower net keeps the strongest of each layer, in their order, and of the next
layers' weights the parts that read them. The pyramid's channels are summed from four lateral
layers and run through the smoothing layers channel by channel, so they are ranked once, over
all the layers that write them. A net narrowed to its own widths is the same net. PipNet is a
chain: each convolution's channels are ranked alone, and its classifier reads the last one's.
"""

from dataclasses import dataclass

import torch
from torch import nn

from .model import DiceNet, Widths
from .pipnet import PipNet, PipWidths

#: the input picture's channels, never narrowed
IMAGE = "image"
#: the pyramid's channels, written by the lateral and smoothing layers
PYRAMID = "pyramid"


@dataclass(frozen=True)
class Link:
    """One convolution, the BatchNorm after it (None for a head), and which channels it reads
    and writes: the name of the layer that writes its input, its own name (None for a head,
    whose outputs are the answers)."""

    conv: nn.Conv2d
    norm: nn.BatchNorm2d | None
    reads: str
    writes: str | None

    @property
    def depthwise(self) -> bool:
        return self.conv.groups > 1


def channel_plan(net: DiceNet) -> list[Link]:
    """Every convolution of ``net`` with what it reads and writes, in the forward pass's order."""
    links: list[Link] = []

    def add(block: nn.Module, reads: str, writes: str) -> None:
        links.append(Link(block[0], block[1], reads, writes))  # type: ignore[index]

    add(net.stem, IMAGE, "stem")
    previous, stage_output = "stem", {}
    for name in ("s4", "s8", "s16", "s32"):
        for index, block in enumerate(getattr(net, name)):
            add(block, previous, f"{name}.{index}")
            previous = f"{name}.{index}"
        stage_output[name] = previous
    for lateral, name in (("lat32", "s32"), ("lat16", "s16"), ("lat8", "s8"), ("lat4", "s4")):
        add(getattr(net, lateral), stage_output[name], PYRAMID)
    for block in net.smooth:
        add(block, PYRAMID, PYRAMID)
    links += [Link(head, None, PYRAMID, None) for head in (net.heat, net.size, net.offset)]
    return links


def width_of(name: str, widths: Widths) -> int:
    """How many channels the layer(s) called ``name`` write in a net of ``widths``."""
    if name == PYRAMID:
        return widths[5]
    if name == "stem":
        return widths[0]
    return widths[("s4", "s8", "s16", "s32").index(name.split(".")[0]) + 1]


def strengths(link: Link) -> torch.Tensor:
    """How strongly each output channel of ``link`` answers: its weights' L1 norm times its
    BatchNorm's scale."""
    weight = link.conv.weight.detach().abs().flatten(1).sum(dim=1)
    if link.norm is None:
        return weight
    norm = link.norm
    return weight * (norm.weight.detach().abs() / torch.sqrt(norm.running_var + norm.eps))


def kept_channels(plan: list[Link], widths: Widths) -> dict[str, torch.Tensor]:
    """For each layer name of ``plan``, the indices of its strongest channels, as many as a net of
    ``widths`` has, in their order."""
    totals: dict[str, torch.Tensor] = {}
    for link in plan:
        if link.writes is not None:
            found = strengths(link)
            totals[link.writes] = totals[link.writes] + found if link.writes in totals else found
    return {name: strongest(total, width_of(name, widths), name) for name, total in totals.items()}


def strongest(strength: torch.Tensor, wanted: int, name: str) -> torch.Tensor:
    """The indices of the ``wanted`` strongest channels of the layer(s) ``name`` by their
    ``strength``, in their order; a ValueError when it has fewer (a net is only narrowed)."""
    if wanted > len(strength):
        raise ValueError(f"cannot widen {name} from {len(strength)} to {wanted} channels: only narrow")
    return torch.sort(torch.argsort(strength, descending=True)[:wanted]).values


def copy_norm(mine: nn.BatchNorm2d, theirs: nn.BatchNorm2d, channels: torch.Tensor) -> None:
    """``theirs``'s scale, shift and running statistics of ``channels`` into ``mine``."""
    for name in ("weight", "bias", "running_mean", "running_var"):
        getattr(mine, name).copy_(getattr(theirs, name)[channels])


def narrowed(source: DiceNet, widths: Widths) -> DiceNet:
    """A net of ``widths`` (each at most ``source``'s) and ``source``'s depths holding the weights
    of ``source``'s strongest channels (see the module's docstring)."""
    target = DiceNet(classes=source.heat.out_channels, depths=source.depths, widths=widths)
    plan = channel_plan(source)
    kept = kept_channels(plan, widths)
    with torch.no_grad():
        for theirs, mine in zip(plan, channel_plan(target), strict=True):
            weight = theirs.conv.weight
            if theirs.writes is not None:
                weight = weight[kept[theirs.writes]]
            if not theirs.depthwise and theirs.reads != IMAGE:
                weight = weight[:, kept[theirs.reads]]
            mine.conv.weight.copy_(weight)
            if theirs.conv.bias is not None:
                mine.conv.bias.copy_(theirs.conv.bias)  # only the heads have one: never narrowed
            if theirs.norm is not None and mine.norm is not None and theirs.writes is not None:
                copy_norm(mine.norm, theirs.norm, kept[theirs.writes])
    return target


def narrowed_pipnet(source: PipNet, widths: PipWidths) -> PipNet:
    """A PipNet of ``widths`` (each at most ``source``'s) holding the weights of ``source``'s
    strongest channels of each convolution, and of the next layer's the parts that read them."""
    target = PipNet(widths)
    blocks = [
        (theirs, mine)
        for theirs, mine in zip(source.features, target.features, strict=True)
        if isinstance(theirs, nn.Sequential)
    ]
    read: torch.Tensor | None = None  # the channels the next layer reads (None: the image's)
    with torch.no_grad():
        for index, (theirs, mine) in enumerate(blocks):
            conv, norm = theirs[0], theirs[1]
            strength = strengths(Link(conv, norm, IMAGE, "pip"))
            kept = strongest(strength, mine[0].out_channels, f"PipNet convolution {index + 1}")
            weight = conv.weight[kept]
            mine[0].weight.copy_(weight if read is None else weight[:, read])
            copy_norm(mine[1], norm, kept)
            read = kept
        theirs_linear, mine_linear = source.classify[-1], target.classify[-1]
        mine_linear.weight.copy_(theirs_linear.weight[:, read])
        mine_linear.bias.copy_(theirs_linear.bias)
    return target
