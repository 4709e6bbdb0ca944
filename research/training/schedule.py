"""The learning-rate schedule both trainings use: 100 warm-up steps, then cosine decay over
the time budget down to 3 % of the base rate."""

import math

import torch

WARM_UP_STEPS = 100


def set_learning_rate(optimiser: torch.optim.Optimizer, base: float, progress: float, step: int) -> float:
    """Set and return the rate for ``step`` at ``progress`` (0–1) through the time budget."""
    lr = base * (0.5 * (1 + math.cos(math.pi * progress)) * 0.97 + 0.03)
    lr *= min(1.0, (step + 1) / WARM_UP_STEPS)
    for group in optimiser.param_groups:
        group["lr"] = lr
    return lr
