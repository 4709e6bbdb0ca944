"""Rendered test pictures: top-down tables drawn once by the research renderer and committed as
lossless WebP, so the product's tests read the very pixels they were written against without
importing ``research/`` (``python -m research.test_pictures`` draws them again).

Each picture is named by what is on it; ``manifest.json`` beside them holds how each was drawn
and, for a single die, the box round it."""

import json
from functools import cache
from pathlib import Path

import cv2
import numpy as np

FOLDER = Path(__file__).parent / "fixtures" / "rendered"
MANIFEST = FOLDER / "manifest.json"
#: the lamps the tests name: BGR gains of a steady light from the upper left
LIGHTS = {None: (1.0, 1.0, 1.0), "warm": (0.8, 0.95, 1.1), "cold": (1.1, 1.0, 0.87)}


@cache
def manifest() -> dict[str, dict]:
    return json.loads(MANIFEST.read_text()) if MANIFEST.is_file() else {}


def picture(name: str) -> np.ndarray:
    """The committed picture ``name`` (BGR), or a FileNotFoundError saying how to draw it (a new
    picture is an entry added to the manifest first)."""
    path = FOLDER / f"{name}.webp"
    image = cv2.imread(str(path), cv2.IMREAD_COLOR)
    if image is None:
        raise FileNotFoundError(f"no test picture {path}: draw it with python -m research.test_pictures")
    return image


def table_name(colours_pips: list[tuple[str, int]], seed: int = 1, light: str | None = None) -> str:
    dice = "_".join(f"{colour}{pips}" for colour, pips in colours_pips) or "empty"
    return f"table-s{seed}-{light or 'even'}-{dice}"


def rendered(colours_pips: list[tuple[str, int]], seed: int = 1, light: str | None = None) -> np.ndarray:
    """A top-down 960×540 table with one die per (colour, pips), 56 px wide, spaced apart: five to
    a row at x = 140, 290, 440, 590, 740, the rows at y = 150, 350; ``light`` None, warm or cold."""
    return picture(table_name(colours_pips, seed, light))


def rendered_row(colours_pips: list[tuple[str, int]], seed: int) -> np.ndarray:
    """A top-down 960×540 table with the dice in one row at y = 270, x = 200, 380, 560, …"""
    return picture("row-s{}-{}".format(seed, "_".join(f"{colour}{pips}" for colour, pips in colours_pips)))


def single_die_name(colour: str, pips: int, seed: int) -> str:
    return f"die-s{seed}-{colour}{pips}"


def single_die(colour: str, pips: int, seed: int) -> tuple[np.ndarray, tuple[int, int, int, int]]:
    """One die 60 px wide in a 320×240 picture, turned by 0.4 × ``seed`` radians, and the box round
    it as drawn (a fixed square would cut a turned die's corner pips off)."""
    name = single_die_name(colour, pips, seed)
    return picture(name), tuple(manifest()[name]["box"])


def close_die(pips: int, colour: str, look: int) -> np.ndarray:
    """One die 120 px wide in the middle of a 960×540 table (look ``look`` of its colour)."""
    return picture(f"close-{colour}{pips}-look{look}")


def paled(image: np.ndarray, saturation: float) -> np.ndarray:
    """The picture with its chroma scaled by ``saturation`` and its luma kept, as a camera in a dim
    room pales it: a coloured die keeps how dark it looks."""
    ycrcb = cv2.cvtColor(image, cv2.COLOR_BGR2YCrCb).astype(np.float32)
    ycrcb[..., 1:] = (ycrcb[..., 1:] - 128.0) * saturation + 128.0
    return cv2.cvtColor(np.clip(ycrcb + 0.5, 0, 255).astype(np.uint8), cv2.COLOR_YCrCb2BGR)


def greyed(image: np.ndarray) -> np.ndarray:
    """The picture as a black-and-white camera takes it."""
    return cv2.cvtColor(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY), cv2.COLOR_GRAY2BGR)
