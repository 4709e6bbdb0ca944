"""Whether a look the renderer gives a share of scenes or dice happens this time."""

import numpy as np


def happens(rng: np.random.Generator, share: float) -> bool:
    """True for about ``share`` of calls. A share of 0 draws nothing from ``rng``, so a dataset
    rendered without a look gets the same pictures as before the look existed."""
    return share > 0 and rng.random() < share
