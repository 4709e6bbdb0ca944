"""Real dice cut from one labelled photo and laid at free places on another (``train
--paste-real``): more real dice, seen as a camera saw them, in real scenes."""

import random
from dataclasses import dataclass

import cv2
import numpy as np

from .data import Sample

#: the fewest pixels a die's box side must have to be cut out and pasted
SMALLEST_CUT = 12
#: pasted dice take a size this many times the photo's median die, at most (and 1 / this at least)
SIZE_SPREAD = 1.2
#: the gap, as a share of a die's side, kept between a pasted die and any other die
GAP = 0.15


@dataclass(frozen=True)
class CutDie:
    """A die's box cut out of a real photo, and its pips less one (the detector's class)."""

    patch: np.ndarray  # BGR uint8
    pips_index: int


def cut_dice(samples: list[Sample]) -> list[CutDie]:
    """Every labelled die of ``samples`` whose box lies wholly inside its photo and is not tiny."""
    cut = []
    for sample in samples:
        h, w = sample.image.shape[:2]
        for (x0, y0, x1, y1), pips_index in zip(sample.boxes, sample.classes, strict=True):
            left, top, right, bottom = round(x0), round(y0), round(x1), round(y1)
            if left < 0 or top < 0 or right > w or bottom > h:
                continue
            if min(right - left, bottom - top) < SMALLEST_CUT:
                continue
            cut.append(CutDie(sample.image[top:bottom, left:right].copy(), int(pips_index)))
    return cut


def rounded_alpha(height: int, width: int) -> np.ndarray:
    """A height × width weight, 1 inside a rectangle with rounded corners and falling to 0 over
    a few pixels at its edge: a die's box without the table in its corners, its outline soft."""
    radius = max(1, round(0.25 * min(height, width)))
    alpha = np.zeros((height, width), np.uint8)
    cv2.rectangle(alpha, (radius, 0), (width - 1 - radius, height - 1), 255, -1)
    cv2.rectangle(alpha, (0, radius), (width - 1, height - 1 - radius), 255, -1)
    for cx, cy in (
        (radius, radius),
        (width - 1 - radius, radius),
        (radius, height - 1 - radius),
        (width - 1 - radius, height - 1 - radius),
    ):
        cv2.circle(alpha, (cx, cy), radius, 255, -1)
    feather = max(0.6, 0.04 * min(height, width))
    return cv2.GaussianBlur(alpha, (0, 0), feather).astype(np.float32) / 255


def turned(patch: np.ndarray, rng: random.Random) -> np.ndarray:
    """``patch`` flipped half the time and turned a random number of quarter turns."""
    if rng.random() < 0.5:
        patch = patch[:, ::-1]
    return np.ascontiguousarray(np.rot90(patch, rng.randrange(4)))


def overlaps(box: np.ndarray, boxes: np.ndarray, gap: float) -> bool:
    """Whether ``box`` (x0, y0, x1, y1), grown by ``gap`` of its side, meets any of ``boxes``."""
    if not len(boxes):
        return False
    margin = gap * max(box[2] - box[0], box[3] - box[1])
    return bool(
        np.any(
            (boxes[:, 0] < box[2] + margin)
            & (boxes[:, 2] > box[0] - margin)
            & (boxes[:, 1] < box[3] + margin)
            & (boxes[:, 3] > box[1] - margin)
        )
    )


def with_pasted_dice(
    sample: Sample, donors: list[CutDie], rng: random.Random, most: int = 4, tries: int = 20
) -> Sample:
    """``sample`` with 1 to ``most`` dice of ``donors`` laid on it at free places, each scaled to
    its photo's median die (× 1/``SIZE_SPREAD`` to ``SIZE_SPREAD``), and labelled. A die for
    which ``tries`` places are all taken is left out: a crowded photo gets fewer, or none."""
    if not donors:
        return sample
    image = sample.image.copy()
    h, w = image.shape[:2]
    boxes, classes = sample.boxes.copy(), sample.classes.copy()
    sides = np.maximum(boxes[:, 2] - boxes[:, 0], boxes[:, 3] - boxes[:, 1]) if len(boxes) else None
    median = float(np.median(sides)) if sides is not None else 0.08 * max(h, w)
    for _ in range(rng.randint(1, most)):
        donor = rng.choice(donors)
        patch = turned(donor.patch, rng)
        scale = median * rng.uniform(1 / SIZE_SPREAD, SIZE_SPREAD) / max(patch.shape[:2])
        pw, ph = max(2, round(patch.shape[1] * scale)), max(2, round(patch.shape[0] * scale))
        if pw >= w or ph >= h:
            continue
        for _ in range(tries):
            x0, y0 = rng.randint(0, w - pw), rng.randint(0, h - ph)
            box = np.array([x0, y0, x0 + pw, y0 + ph], np.float32)
            if not overlaps(box, boxes, GAP):
                break
        else:
            continue
        resized = cv2.resize(patch, (pw, ph), interpolation=cv2.INTER_AREA if scale < 1 else cv2.INTER_LINEAR)
        alpha = rounded_alpha(ph, pw)[..., None]
        region = image[y0 : y0 + ph, x0 : x0 + pw].astype(np.float32)
        image[y0 : y0 + ph, x0 : x0 + pw] = (alpha * resized + (1 - alpha) * region).round().astype(np.uint8)
        boxes = np.concatenate([boxes.reshape(-1, 4), box[None]])
        classes = np.concatenate([classes, [donor.pips_index]]).astype(np.int64)
    return Sample(image, boxes, classes)
