"""Scoring a reader against labelled images: dice found, pips right, read F1, colour."""

import statistics
from dataclasses import dataclass, field

from .dataset import LabelledBox
from .die import Die


def iou(a: tuple[float, float, float, float], b: tuple[float, float, float, float]) -> float:
    ax0, ay0, aw, ah = a
    bx0, by0, bw, bh = b
    w = min(ax0 + aw, bx0 + bw) - max(ax0, bx0)
    h = min(ay0 + ah, by0 + bh) - max(ay0, by0)
    if w <= 0 or h <= 0:
        return 0.0
    inter = w * h
    return inter / (aw * ah + bw * bh - inter)


@dataclass
class ImageResult:
    truths: int
    predictions: int
    found: int  # truths matched by a box at IoU ≥ 0.5
    right: int  # of those, pips right
    colour_checked: int = 0
    colour_right: int = 0
    ms: float = 0.0

    @property
    def all_right(self) -> bool:
        return self.right == self.truths == self.predictions


def match(
    predicted: list[Die], truths: list[LabelledBox], colours: list[str] | None = None, threshold: float = 0.5
) -> ImageResult:
    """Greedy matching, surest prediction first, each truth used once."""
    taken: set[int] = set()
    found = right = colour_checked = colour_right = 0
    for die in sorted(predicted, key=lambda d: -d.score):
        best, best_iou = None, threshold
        for index, truth in enumerate(truths):
            if index in taken:
                continue
            overlap = iou(die.box, (truth.x, truth.y, truth.w, truth.h))
            if overlap >= best_iou:
                best, best_iou = index, overlap
        if best is None:
            continue
        taken.add(best)
        found += 1
        right += die.pips == truths[best].pips
        if colours is not None:
            colour_checked += 1
            colour_right += die.colour == colours[best]
    return ImageResult(len(truths), len(predicted), found, right, colour_checked, colour_right)


@dataclass
class Summary:
    images: list[ImageResult] = field(default_factory=list)

    def figures(self) -> dict[str, float]:
        truths = sum(r.truths for r in self.images)
        preds = sum(r.predictions for r in self.images)
        found = sum(r.found for r in self.images)
        right = sum(r.right for r in self.images)
        precision_read = right / preds if preds else 0.0
        recall_read = right / truths if truths else 0.0
        f1 = (
            2 * precision_read * recall_read / (precision_read + recall_read)
            if precision_read + recall_read
            else 0.0
        )
        checked = sum(r.colour_checked for r in self.images)
        out = {
            "images": len(self.images),
            "dice": truths,
            "predictions": preds,
            "recall": found / truths if truths else 0.0,
            "precision": found / preds if preds else 0.0,
            "pips_right_among_found": right / found if found else 0.0,
            "read_f1": f1,
            "images_all_right": (
                sum(r.all_right for r in self.images) / len(self.images) if self.images else 0.0
            ),
            "median_ms": statistics.median(r.ms for r in self.images) if self.images else 0.0,
        }
        if checked:
            out["colour_right"] = sum(r.colour_right for r in self.images) / checked
        return out
