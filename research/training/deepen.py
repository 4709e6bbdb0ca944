"""A deeper DiceNet started from a shallower one, answering as it did (``train --depths``
deeper than the ``--resume``d file's).

The convolutions a stage has beyond the shallower net's are added at the stage's end and start
as the identity: a Dirac kernel, a BatchNorm that passes its input on. What reaches them has
come through a ReLU already (every convolution of a stage ends with one), so their own ReLU
changes nothing either, and the deeper net computes what the shallower one did until training
moves them.
"""

import torch
from torch import nn

from .from_onnx import pass_through
from .model import Depths, DiceNet


def added_as_identity(net: DiceNet, shallower: Depths) -> list[nn.BatchNorm2d]:
    """Make each convolution of ``net``'s stages past the depths ``shallower`` names pass its
    input on; the BatchNorms after them, for ``spread_batch_norms`` to spread."""
    norms = []
    stages = (net.s4, net.s8, net.s16, net.s32)
    with torch.no_grad():
        for stage, depth in zip(stages, shallower, strict=True):
            for block in list(stage)[depth:]:
                conv, norm = block[0], block[1]
                nn.init.dirac_(conv.weight)
                pass_through(norm)
                norms.append(norm)
    return norms
