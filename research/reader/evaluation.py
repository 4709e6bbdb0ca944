"""Scoring a reader against labelled images: dice found, pips right, read F1, colour."""

import statistics
from dataclasses import dataclass, field

import numpy as np

from companion.vision.boxes import centre, centres_inside, iou
from companion.vision.die import SeenDie

from .dataset import LabelledBox


@dataclass
class ImageResult:
    truths: int
    predictions: int
    found: int  # truths matched by a box at IoU ≥ 0.5
    right: int  # of those, pips right
    colour_checked: int = 0
    colour_right: int = 0
    ms: float = 0.0
    right_by_centre: int = 0  # truths read right by a box matched by centres instead of IoU
    picture: str = ""  # the picture's path, to name it among the worst read

    @property
    def all_right(self) -> bool:
        return self.right == self.truths == self.predictions

    @property
    def missed(self) -> int:
        """Labelled dice no die read matched."""
        return self.truths - self.found

    @property
    def false_finds(self) -> int:
        """Dice read where no label is (or a second box on a labelled die)."""
        return self.predictions - self.found

    @property
    def wrong_pips(self) -> int:
        """Dice found with the wrong pips."""
        return self.found - self.right

    @property
    def mistakes(self) -> int:
        return self.missed + self.false_finds + self.wrong_pips


def matched(
    predicted: list[SeenDie], truths: list[LabelledBox], threshold: float = 0.5
) -> list[tuple[SeenDie, int]]:
    """Each prediction that matches a truth at IoU ≥ ``threshold``, with that truth's index.
    Greedy, surest prediction first, each truth used once."""
    taken: set[int] = set()
    pairs = []
    for die in sorted(predicted, key=lambda d: -d.score):
        best, best_iou = None, threshold
        for index, truth in enumerate(truths):
            if index in taken:
                continue
            overlap = iou(die.box, (truth.x, truth.y, truth.w, truth.h))
            if overlap >= best_iou:
                best, best_iou = index, overlap
        if best is not None:
            taken.add(best)
            pairs.append((die, best))
    return pairs


def match(
    predicted: list[SeenDie],
    truths: list[LabelledBox],
    colours: list[str] | None = None,
    pairs: list[tuple[SeenDie, int]] | None = None,
) -> ImageResult:
    """Found, pips right and colours right: of ``pairs`` when given (what ``matched`` made of
    these dice), else of ``matched`` at IoU ≥ 0.5."""
    pairs = matched(predicted, truths) if pairs is None else pairs
    right = sum(die.pips == truths[index].pips for die, index in pairs)
    checked = len(pairs) if colours is not None else 0
    colour_right = sum(die.colour == colours[index] for die, index in pairs) if colours is not None else 0
    return ImageResult(
        len(truths),
        len(predicted),
        len(pairs),
        right,
        checked,
        colour_right,
        right_by_centre=right_by_centre(predicted, truths),
    )


@dataclass(frozen=True)
class Mistakes:
    """Which dice of one picture went wrong: indices of the dice read that match no label
    (``false_finds``) or read the wrong pips (``wrong_pips``), and of the labels no die read
    matched (``missed``)."""

    false_finds: list[int]
    wrong_pips: list[int]
    missed: list[int]


def mistakes(
    predicted: list[SeenDie], truths: list[LabelledBox], pairs: list[tuple[SeenDie, int]]
) -> Mistakes:
    """The dice ``pairs`` (what ``matched`` made of them) leave unpaired, and the pairs that
    differ in pips."""
    label_of = {id(die): index for die, index in pairs}
    return Mistakes(
        false_finds=[i for i, die in enumerate(predicted) if id(die) not in label_of],
        wrong_pips=[
            i
            for i, die in enumerate(predicted)
            if id(die) in label_of and die.pips != truths[label_of[id(die)]].pips
        ],
        missed=sorted(set(range(len(truths))) - set(label_of.values())),
    )


def worst(results: list[ImageResult], count: int) -> list[ImageResult]:
    """The ``count`` pictures with the most mistakes (none without), most first, then by name."""
    wrong = [r for r in results if r.mistakes]
    return sorted(wrong, key=lambda r: (-r.mistakes, r.picture))[:count]


def right_by_centre(predicted: list[SeenDie], truths: list[LabelledBox]) -> int:
    """Truths read right when a prediction matches by centres inside each other, not by IoU.

    The shared sets box dice differently (Roboflow the whole die, the webcam set the pip
    pattern, so a 1 is a box around one pip); this count shows how much of a miss at
    IoU ≥ 0.5 is only the box convention."""
    return sum(die.pips == truths[index].pips for die, index in matched_by_centre(predicted, truths))


def matched_by_centre(predicted: list[SeenDie], truths: list[LabelledBox]) -> list[tuple[SeenDie, int]]:
    """Each prediction whose box and a truth's hold each other's centre, with that truth's index.
    Greedy like ``matched``: surest prediction first, the nearest truth, each truth used once."""
    taken: set[int] = set()
    pairs = []
    boxes = [(t.x, t.y, t.w, t.h) for t in truths]
    centres = [centre(box) for box in boxes]
    for die in sorted(predicted, key=lambda d: -d.score):
        px, py = die.centre
        candidates = [
            (abs(centres[index][0] - px) + abs(centres[index][1] - py), index)
            for index, box in enumerate(boxes)
            if index not in taken and centres_inside(die.box, box)
        ]
        if candidates:
            _, best = min(candidates)
            taken.add(best)
            pairs.append((die, best))
    return pairs


@dataclass
class Summary:
    images: list[ImageResult] = field(default_factory=list)

    def figures(self) -> dict[str, float]:
        truths = sum(r.truths for r in self.images)
        preds = sum(r.predictions for r in self.images)
        found = sum(r.found for r in self.images)
        right = sum(r.right for r in self.images)
        f1 = read_f1(right, preds, truths)
        checked = sum(r.colour_checked for r in self.images)
        labelled = [r for r in self.images if r.truths]
        out = {
            "images": len(self.images),
            "dice": truths,
            "predictions": preds,
            "recall": found / truths if truths else 0.0,
            "precision": found / preds if preds else 0.0,
            "pips_right_among_found": right / found if found else 0.0,
            "read_f1": f1,
            "read_f1_by_centre": read_f1(sum(r.right_by_centre for r in self.images), preds, truths),
            "images_without_labels": len(self.images) - len(labelled),
            # every die read in a photo nobody labelled counts against read_f1; this leaves them out
            "read_f1_labelled_photos": read_f1(
                sum(r.right for r in labelled), sum(r.predictions for r in labelled), truths
            ),
            "images_all_right": (
                sum(r.all_right for r in self.images) / len(self.images) if self.images else 0.0
            ),
            "median_ms": statistics.median(r.ms for r in self.images) if self.images else 0.0,
        }
        if checked:
            out["colour_right"] = sum(r.colour_right for r in self.images) / checked
        return out


def read_f1(right: int, predictions: int, truths: int) -> float:
    """F1 of dice read right: precision over predictions, recall over true dice."""
    if not right:
        return 0.0
    precision, recall = right / predictions, right / truths
    return 2 * precision * recall / (precision + recall)


def paired_difference(
    before: list[ImageResult], after: list[ImageResult], rounds: int = 2000, seed: int = 0
) -> tuple[float, float, float]:
    """Read F1 of ``after`` minus that of ``before`` (two readers on the same images, in the same
    order), with a 95 % interval from a paired bootstrap: the images are drawn again with
    replacement, the same draw for both readers, ``rounds`` times (a seeded generator)."""
    if len(before) != len(after):
        raise ValueError(f"the two readers read {len(before)} and {len(after)} images: not the same set")
    if not before:
        return 0.0, 0.0, 0.0
    counts = np.array([[[r.truths, r.predictions, r.right] for r in rs] for rs in (before, after)], float)

    def f1(picked: np.ndarray) -> np.ndarray:
        """``read_f1`` of the images picked (… × images × 3 counts), over the last axis but one."""
        truths, predictions, right = picked.sum(axis=-2).transpose()
        return 2 * right / np.maximum(truths + predictions, 1)

    draws = np.random.default_rng(seed).integers(0, len(before), (rounds, len(before)))
    spread = f1(counts[1][draws]) - f1(counts[0][draws])
    low, high = np.percentile(spread, [2.5, 97.5])
    return float(f1(counts[1]) - f1(counts[0])), float(low), float(high)
