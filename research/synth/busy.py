"""Busy tables: speckled stone, printed boards and mats, and the clutter of a real table
(cables, a phone, a remote's buttons, coins, paper, number tokens, printed text).

Real photos put dice on granite worktops, game boards and desks with things lying about;
a detector trained only on plain felt and wood takes the dice there for background (every
die on the granite of Roboflow valid's ``dice_431`` was missed). None of this is a die, so
none of it is labelled.
"""

import math

import cv2
import numpy as np

from .scene import background, smooth_noise


def _colour(rng: np.random.Generator) -> tuple[float, float, float]:
    b, g, r = rng.uniform(0, 255, 3)
    return float(b), float(g), float(r)


def speckled(rng: np.random.Generator, w: int, h: int) -> np.ndarray:
    """Granite or terrazzo: a base tone under specks of two to four other tones."""
    base = rng.uniform(150, 225) if rng.random() < 0.5 else rng.uniform(40, 110)
    img = np.full((h, w, 3), base, np.float32) * rng.uniform(0.85, 1.15, 3).astype(np.float32)
    img += 8 * smooth_noise(rng, h, w, 40)[..., None]
    for _ in range(rng.integers(2, 5)):
        speck = smooth_noise(rng, h, w, rng.uniform(1.5, 5.0))
        mask = speck > np.quantile(speck, 1 - rng.uniform(0.05, 0.3))
        tone = rng.choice([20.0, 60.0, 200.0, 240.0]) * rng.uniform(0.7, 1.1, 3)
        if rng.random() < 0.4:  # a pink, brown or green fleck
            tone = np.float32(_colour(rng)) * 0.8
        img[mask] = tone.astype(np.float32) + 6 * rng.standard_normal((int(mask.sum()), 3))
    return img


def printed(rng: np.random.Generator, w: int, h: int) -> np.ndarray:
    """A printed board or mat: a base colour under shapes, hexes, stripes and text."""
    img = np.full((h, w, 3), _colour(rng), np.float32)
    img += 5 * smooth_noise(rng, h, w, 8)[..., None]
    unit = min(w, h)
    for _ in range(rng.integers(6, 30)):
        colour = _colour(rng)
        kind = rng.integers(5)
        cx, cy = float(rng.uniform(0, w)), float(rng.uniform(0, h))
        size = unit * rng.uniform(0.03, 0.3)
        if kind == 0:  # a hex tile, as on a Catan board
            turns = np.linspace(0, 2 * math.pi, 7)[:-1] + rng.uniform(0, 1)
            corners = [(cx + size * math.cos(a), cy + size * math.sin(a)) for a in turns]
            cv2.fillPoly(img, [np.int32(corners)], colour, cv2.LINE_AA)
        elif kind == 1:
            cv2.circle(img, (int(cx), int(cy)), int(size / 2), colour, -1, cv2.LINE_AA)
        elif kind == 2:  # a stripe or a printed line
            angle = rng.uniform(0, math.pi)
            dx, dy = math.cos(angle) * unit, math.sin(angle) * unit
            thick = int(rng.uniform(1, max(2, size / 4)))
            start, end = (int(cx - dx), int(cy - dy)), (int(cx + dx), int(cy + dy))
            cv2.line(img, start, end, colour, thick, cv2.LINE_AA)
        elif kind == 3:
            corner = (int(cx + size), int(cy + size * rng.uniform(0.3, 2)))
            cv2.rectangle(img, (int(cx), int(cy)), corner, colour, -1)
        else:
            text(img, rng, (cx, cy), size / 60, colour)
    return img


def text(img: np.ndarray, rng: np.random.Generator, at: tuple[float, float], scale: float, colour) -> None:
    """A line of random capitals and digits (an advert, a label, a score sheet)."""
    letters = "ABCDEFGHJKLMNPRSTUVWXYZ0123456789 "
    words = "".join(rng.choice(list(letters), size=int(rng.integers(3, 14))))
    font = int(rng.integers(0, 8))
    write(img, words, at, font, max(0.3, scale), colour, max(1, int(scale * 2)))


def write(
    img: np.ndarray, words: str, at: tuple[float, float], font: int, scale: float, colour, thick: int
) -> None:
    """``cv2.putText`` onto a float image (OpenCV draws text on 8-bit images only)."""
    ink = np.zeros(img.shape[:2], np.uint8)
    cv2.putText(ink, words, (int(at[0]), int(at[1])), font, scale, 255, thick, cv2.LINE_AA)
    alpha = (ink.astype(np.float32) / 255)[..., None]
    img[:] = img * (1 - alpha) + np.float32(colour) * alpha


def clutter(img: np.ndarray, rng: np.random.Generator, die_pixels: float) -> None:
    """Things lying on the table, drawn onto it before the dice (dice may lie on them)."""
    h, w = img.shape[:2]
    for _ in range(rng.integers(1, 7)):
        kind = rng.integers(6)
        cx, cy = float(rng.uniform(0, w)), float(rng.uniform(0, h))
        colour = _colour(rng)
        if kind == 0:
            _cable(img, rng, (cx, cy), die_pixels, colour)
        elif kind == 1:  # a remote or a phone: a dark slab with rows of small buttons
            _slab_with_buttons(img, rng, (cx, cy), die_pixels)
        elif kind == 2:  # a coin or a counter
            radius = int(die_pixels * rng.uniform(0.3, 0.8))
            rim = tuple(c * 0.8 for c in colour)
            cv2.circle(img, (int(cx), int(cy)), radius, colour, -1, cv2.LINE_AA)
            cv2.circle(img, (int(cx), int(cy)), max(1, int(radius * 0.8)), rim, 1, cv2.LINE_AA)
        elif kind == 3:  # a sheet of paper or a card, maybe ruled
            _sheet(img, rng, (cx, cy), die_pixels)
        elif kind == 4:  # a round number token
            radius = int(die_pixels * rng.uniform(0.4, 0.7))
            cv2.circle(img, (int(cx), int(cy)), radius, (200, 225, 235), -1, cv2.LINE_AA)
            number = str(rng.choice([2, 3, 4, 5, 6, 8, 9, 10, 11, 12]))
            ink = (20, 20, 20) if rng.random() < 0.6 else (30, 30, 180)
            corner = (cx - radius * 0.5, cy + radius * 0.35)
            write(img, number, corner, cv2.FONT_HERSHEY_SIMPLEX, radius / 28, ink, max(1, radius // 10))
        else:
            text(img, rng, (cx, cy), die_pixels / rng.uniform(25, 60), colour)


def _cable(img: np.ndarray, rng: np.random.Generator, at: tuple[float, float], die: float, colour) -> None:
    points = [at]
    angle = rng.uniform(0, 2 * math.pi)
    for _ in range(rng.integers(4, 12)):
        angle += rng.normal(0, 0.5)
        step = die * rng.uniform(1, 4)
        points.append((points[-1][0] + step * math.cos(angle), points[-1][1] + step * math.sin(angle)))
    thick = max(2, int(die * rng.uniform(0.08, 0.25)))
    cv2.polylines(img, [np.int32(points)], False, colour, thick, cv2.LINE_AA)


def _rotated_box(centre: tuple[float, float], size: tuple[float, float], angle: float) -> np.ndarray:
    return np.int32(cv2.boxPoints((centre, size, angle)))


def _slab_with_buttons(
    img: np.ndarray, rng: np.random.Generator, at: tuple[float, float], die: float
) -> None:
    long, short = die * rng.uniform(2.5, 5), die * rng.uniform(1.0, 1.8)
    angle = float(rng.uniform(0, 180))
    body = float(rng.uniform(10, 60))
    cv2.fillPoly(img, [_rotated_box(at, (short, long), angle)], (body, body, body), cv2.LINE_AA)
    if rng.random() < 0.4:  # a phone: a screen, no buttons
        screen = _colour(rng)
        cv2.fillPoly(img, [_rotated_box(at, (short * 0.85, long * 0.85), angle)], screen, cv2.LINE_AA)
        return
    cos, sin = math.cos(math.radians(angle)), math.sin(math.radians(angle))
    rows, columns = int(rng.integers(3, 7)), int(rng.integers(2, 4))
    radius = max(1, int(short / columns * 0.22))
    for r in range(rows):
        for c in range(columns):
            u = (c + 0.5) / columns * short * 0.8 - short * 0.4
            v = (r + 0.5) / rows * long * 0.7 - long * 0.35
            x, y = at[0] + u * cos - v * sin, at[1] + u * sin + v * cos
            tone = (200.0, 200.0, 200.0) if rng.random() < 0.7 else _colour(rng)
            cv2.circle(img, (int(x), int(y)), radius, tone, -1, cv2.LINE_AA)


def _sheet(img: np.ndarray, rng: np.random.Generator, at: tuple[float, float], die: float) -> None:
    size = (die * rng.uniform(3, 10), die * rng.uniform(3, 12))
    paper = float(rng.uniform(215, 250))
    corners = _rotated_box(at, size, float(rng.uniform(0, 180)))
    cv2.fillPoly(img, [corners], (paper, paper, paper * float(rng.uniform(0.95, 1.0))), cv2.LINE_AA)
    if rng.random() < 0.5:  # ruled
        mask = np.zeros(img.shape[:2], np.uint8)
        cv2.fillPoly(mask, [corners], 255)
        lines = np.zeros(img.shape[:2], np.uint8)
        gap = max(3, int(die * rng.uniform(0.12, 0.3)))
        for y in range(0, img.shape[0], gap):
            cv2.line(lines, (0, y), (img.shape[1], y), 255, 1)
        img[(mask > 0) & (lines > 0)] = (paper - 50, paper - 30, paper - 30)


def busy_table(rng: np.random.Generator, w: int, h: int, die_pixels: float) -> np.ndarray:
    """A speckled, printed or plain table with clutter on it (float32 BGR, as ``background``)."""
    kind = rng.choice(["speckled", "printed", "plain"], p=[0.4, 0.35, 0.25])
    img = {"speckled": speckled, "printed": printed, "plain": background}[str(kind)](rng, w, h)
    clutter(img, rng, die_pixels)
    return np.clip(img, 0, 255).astype(np.float32)
