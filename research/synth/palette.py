"""Body and pip colours of the dice the renderer draws (BGR, before lighting)."""

import numpy as np

from .chance import happens

#: name -> (body BGR, pip BGR); the game's colours plus the others the reader must know
BODY_COLOURS: dict[str, tuple[tuple[int, int, int], tuple[int, int, int]]] = {
    "red": ((40, 35, 200), (245, 245, 245)),
    "green": ((70, 150, 40), (245, 245, 245)),
    "blue": ((190, 90, 25), (245, 245, 245)),
    "black": ((35, 32, 30), (240, 240, 240)),
    "white": ((238, 240, 240), (30, 30, 30)),
    "yellow": ((40, 200, 235), (30, 30, 30)),
    "grey": ((135, 135, 135), (245, 245, 245)),
    "violet": ((150, 50, 110), (245, 245, 245)),
}

#: bodies a player's dice may have that the reader's palette has no name for (the tablet page offers
#: orange): drawn only when asked for by name, so the scenes of every seed stay as they were
OFF_PALETTE_BODIES: dict[str, tuple[tuple[int, int, int], tuple[int, int, int]]] = {
    "orange": ((20, 110, 235), (245, 245, 245)),
}


def body_and_pips(colour: str) -> tuple[tuple[int, int, int], tuple[int, int, int]]:
    """The body and pip colours (BGR) the renderer draws a die of ``colour`` in."""
    return BODY_COLOURS.get(colour) or OFF_PALETTE_BODIES[colour]


#: pip inks of many-coloured dice sets besides black and white (BGR): gold, silver, red, blue, green
PIP_INKS: tuple[tuple[int, int, int], ...] = (
    (40, 180, 220),
    (185, 185, 185),
    (40, 40, 200),
    (200, 90, 30),
    (60, 160, 40),
)
#: an ink this far (BGR distance) from a die's body stands out from it
INK_CONTRAST = 120.0


def pip_colour(body: np.ndarray, pip: np.ndarray, rng: np.random.Generator, inked: float = 0.0) -> np.ndarray:
    """The pips' colour for a die of ``body``: mostly its palette ``pip``, sometimes the other of
    black and white, and for an ``inked`` share an ink of ``PIP_INKS`` that stands out from the
    body. With ``inked`` 0 this draws from ``rng`` exactly as the renderer always has."""
    if rng.random() < 0.12:  # pips of another colour, always one that stands out
        return np.array([30, 30, 30] if body.mean() > 128 else [230, 230, 230], np.float32)
    if happens(rng, inked):
        inks = [ink for ink in PIP_INKS if np.linalg.norm(np.array(ink) - body) >= INK_CONTRAST]
        if inks:
            return np.array(inks[int(rng.integers(len(inks)))], np.float32)
    return pip
