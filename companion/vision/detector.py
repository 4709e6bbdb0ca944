"""The dice detector: an ONNX model run with onnxruntime on the CPU.

prepare (resize + pad) → infer → decode (peaks to boxes, then non-maximum suppression) are
separate steps that return values, so each can be tested and timed on its own.

The model learnt dice up to about a fifth of its input wide; a die closer to the camera (a
phone held over one or two dice) makes it see each pip as a die. So every frame is run through
an image pyramid: at full scale and at half and a quarter of it, where such a die has a familiar
size. Each coarser scale gives the dice too large for the finer one, and the candidates a finer
scale found inside one of those dice (its pips) are dropped; a candidate reaching out of that
die's box (``PART_INSIDE``) is a neighbouring die pushed against it, and stays. A dice tray seen
whole can look like one large face, and must not take the dice in it along: a large candidate
with more than six candidates inside it at a finer scale is no die, and only one the caller
confirms (the pip reader: "this is a die") drops what lies inside it.

Full scale is the model's input side: a detector trained for a smaller one (``train
--look-side``) says so in its file (``INPUT_SIDE_KEY``); one that says nothing, as the shipped
one, was trained for ``DEFAULT_INPUT_SIDE``.

Full scale costs four times the half scale, so it is run only over the regions of interest
round what the half scale found, dice or low-score candidates (their box grown by
``FOCUS_MARGIN`` die sides), when those cover at most ``FOCUS_MOST`` of the frame: the dice on a
table lie together, and most of a frame is cloth. When the half scale finds nothing, the whole
frame is run. The quarter scale is run only when the half scale found something
``QUARTER_FROM`` pixels wide or wider (such a die is close to the size the half scale gives
away, or is a pip of a die larger still), or found nothing.

A large frame (a phone photo, longest side ``UPSCALE`` × the input side or more) is also run at
twice full scale: dice under ``SMALL_DIE`` pixels at full scale (a phone held high over a mat)
are found surely there, and those no other scale found are added.

Candidates scored between ``floor`` and ``threshold`` are low-score candidates: they are returned
(so the pip reader can keep the ones it is sure of) but never count as dice holding other dice.
"""

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np
import onnxruntime as ort

from .boxes import centre, contains, inside_share
from .onnx_model import ModelError, open_session, shipped_model

STRIDE = 4
#: the ONNX metadata key naming the model's input side: the longest side (pixels) of a frame at
#: full scale, the one it was trained for
INPUT_SIDE_KEY = "look_side"
#: the input side of a detector file without that key, the shipped one among them
DEFAULT_INPUT_SIDE = 640
#: the input sides a detector may be trained for or its file name (pixels)
INPUT_SIDES = range(64, 4097)
#: full scale is run only over the regions round what the half scale found, when they cover at
#: most this share of the frame; None: always the whole frame
FOCUS_MOST: float | None = 0.6
#: a region is the box round the half scale's candidates grown by this many of their median sides
FOCUS_MARGIN = 1.0
#: and by at least this many pixels of full scale
FOCUS_MARGIN_PIXELS = 32
#: the half scale's candidates scored this or more choose the regions of interest
FOCUS_FLOOR = 0.1
#: the quarter scale is run only when the half scale found something (scored ``FOCUS_FLOOR`` or
#: more) this wide or wider (pixels of the half scale), or nothing
QUARTER_FROM = 48
#: the heatmap peak that counts as a die
DEFAULT_THRESHOLD = 0.4
#: a die this wide (in pixels of a scale's model input) or wider is taken from the next, coarser scale
LARGE_DIE = 112
#: the image pyramid: the frame with its longest side at input_side divided by each of these
SCALES = (1, 2, 4)
#: a frame this many times the input side or larger is also run this many times as large
UPSCALE = 2
#: the upscaled run adds dice narrower than this (in pixels of full scale)
SMALL_DIE = 32
#: a finer scale's candidate whose centre lies inside a coarser scale's die is part of it (a pip,
#: its top face) and dropped only when at least this share of its box lies inside the die's; one
#: reaching further out is a neighbouring die the large box covers (dice pushed together)
PART_INSIDE = 0.9


DEFAULT_MODEL = shipped_model("dicenet.onnx")

#: which of these candidates (boxes in pixels of the frame) are dice
Confirm = Callable[[list["Detection"]], list[bool]]


@dataclass(frozen=True)
class Prepared:
    tensor: np.ndarray  # 1×3×H×W float32, BGR 0..255
    scale: float  # model pixels per original pixel
    size: tuple[int, int]  # original (w, h)
    origin: tuple[int, int] = (0, 0)  # where the tensor starts in the scaled frame: a region's corner


#: a region of a scaled frame: x0, y0, x1, y1 in its pixels (x0, y0 on the model's 32 px grid)
Region = tuple[int, int, int, int]


@dataclass(frozen=True)
class Detection:
    box: tuple[float, float, float, float]  # x, y, w, h in original pixels
    score: float


class DiceDetector:
    """Load once, then ``detect(frame)``. ``input_side`` is the longest side the model sees at
    full scale (None: the side its file names, ``trained_input_side``);
    a heatmap peak of ``threshold`` is a die, one of ``floor`` (default: ``threshold``) a
    low-score candidate; full scale is run only over the regions round what the half scale found
    when they cover at most ``focus_most`` of the frame (None: always the whole frame)."""

    def __init__(
        self,
        model_path: Path | None = None,
        input_side: int | None = None,
        threads: int = 2,
        threshold: float = DEFAULT_THRESHOLD,
        floor: float | None = None,
        focus_most: float | None = FOCUS_MOST,
    ) -> None:
        path = Path(model_path or DEFAULT_MODEL)
        self.session = open_session(path, threads, "dice", "--model")
        self.input_name = self.session.get_inputs()[0].name
        self.output_names = [o.name for o in self.session.get_outputs()]
        self.input_side = input_side or trained_input_side(self.session, path)
        self.threshold = threshold
        self.floor = threshold if floor is None else min(floor, threshold)
        self.focus_most = focus_most

    def prepare(self, frame: np.ndarray, side: int | None = None) -> Prepared:
        """The frame resized so its longest side is ``side`` (default ``input_side``), padded to 32."""
        h, w = frame.shape[:2]
        resized, scale = fitted(frame, side or self.input_side)
        return padded(resized, scale, (w, h))

    def infer(self, prepared: Prepared) -> dict[str, np.ndarray]:
        outputs = self.session.run(self.output_names, {self.input_name: prepared.tensor})
        return dict(zip(self.output_names, outputs, strict=True))

    def decode(
        self, outputs: dict[str, np.ndarray], prepared: Prepared, floor: float | None = None
    ) -> list[Detection]:
        """The candidates scored ``floor`` (default: the detector's) or more, in pixels of the frame."""
        peaks, boxes = outputs["peaks"][0, 0], outputs["boxes"][0]
        ys, xs = np.nonzero(peaks >= (self.floor if floor is None else floor))
        if len(xs) == 0:
            return []
        scores = peaks[ys, xs]
        size = boxes[0:2, ys, xs] * STRIDE / prepared.scale
        cx = ((xs + boxes[2, ys, xs]) * STRIDE + prepared.origin[0]) / prepared.scale
        cy = ((ys + boxes[3, ys, xs]) * STRIDE + prepared.origin[1]) / prepared.scale
        w_img, h_img = prepared.size
        found = []
        for i in range(len(xs)):
            bw, bh = max(1.0, float(size[0, i])), max(1.0, float(size[1, i]))
            x0 = float(np.clip(cx[i] - bw / 2, 0, w_img - 1))
            y0 = float(np.clip(cy[i] - bh / 2, 0, h_img - 1))
            bw, bh = min(bw, w_img - x0), min(bh, h_img - y0)
            found.append(Detection((x0, y0, bw, bh), float(scores[i])))
        return non_maximum_suppression(found)

    def detect_at(
        self, frame: np.ndarray, side: int, region: Region | None = None, floor: float | None = None
    ) -> tuple[list[Detection], float]:
        """Dice found with the frame's longest side at ``side`` pixels, and that scale; only in
        ``region`` of the scaled frame when one is given; scored ``floor`` (default: the
        detector's) or more."""
        if region is None:
            prepared = self.prepare(frame, side)
            return self.decode(self.infer(prepared), prepared, floor), prepared.scale
        resized, scale = fitted(frame, side)
        x0, y0, x1, y1 = region
        h, w = frame.shape[:2]
        prepared = padded(resized[y0:y1, x0:x1], scale, (w, h), (x0, y0))
        return self.decode(self.infer(prepared), prepared, floor), scale

    def detect(
        self, frame: np.ndarray, confirm: Confirm | None = None, whole: bool = False
    ) -> list[Detection]:
        """Dice of every size: each from the scale that sees it at a familiar size (see the
        module's docstring). ``confirm`` says, for candidates in pixels of ``frame``, which are
        dice; ``whole``: full scale covers the whole frame, however little the half scale found."""
        h, w = frame.shape[:2]
        upscaled_side = self.input_side * UPSCALE
        if max(h, w) < upscaled_side:
            return self.detect_in_pyramid(frame, confirm, (w, h), whole)
        # a phone photo is shrunk once to the upscaled side; the pyramid is made from that copy
        upscaled, scale = fitted(frame, upscaled_side)
        found, _ = self.detect_at(upscaled, upscaled_side)
        small = [in_frame(d, scale, (w, h)) for d in found if max(d.box[2], d.box[3]) < SMALL_DIE * UPSCALE]
        dice = self.detect_in_pyramid(upscaled, confirm, (w, h), whole)
        return dice + [d for d in small if not overlaps_any(d, dice)]

    def detect_in_pyramid(
        self, frame: np.ndarray, confirm: Confirm | None, size: tuple[int, int], whole: bool = False
    ) -> list[Detection]:
        """The dice of the pyramid's three scales, in pixels of a frame of ``size`` (``frame`` may
        be a shrunk copy of it); ``whole``: full scale covers the whole frame."""
        h, w = frame.shape[:2]
        source, shrink = frame, 1.0
        if max(h, w) > self.input_side:  # a large frame is shrunk once; the pyramid is made from the copy
            source, shrink = fitted(frame, self.input_side)
        shrink *= w / size[0]  # full-scale pixels per pixel of the frame of ``size``
        half, coarser = SCALES[1], SCALES[2:]
        half_found, half_scale = self.detect_at(
            source, self.input_side // half, floor=min(self.floor, FOCUS_FLOOR)
        )
        scales = {half: ([d for d in half_found if d.score >= self.floor], half_scale)}
        if self.needs_coarser_scales(half_found, half_scale):
            scales |= {step: self.detect_at(source, self.input_side // step) for step in coarser}
        else:
            scales |= {step: ([], half_scale / (step // half)) for step in coarser}
        regions = None if whole else self.regions_of_interest(source.shape, half_found)
        scales[SCALES[0]] = self.detect_in_regions(source, regions)
        kept: list[Detection] = []
        for step in reversed(SCALES):  # coarsest first: its large dice win
            found, scale = scales[step]
            found = [d for d in found if not inside_any(d, self.containing(d, kept))]
            if step != SCALES[0]:
                finer = [above(scales[other][0], self.threshold) for other in SCALES if other < step]
                found = [
                    d
                    for d in found
                    if max(d.box[2], d.box[3]) * scale * 2 >= LARGE_DIE and not holds_dice(d, finer)
                ]
                if confirm is not None and found:
                    dice = confirm([in_frame(d, shrink, size) for d in found])
                    found = [d for d, is_die in zip(found, dice, strict=True) if is_die]
            kept += found
        return [in_frame(d, shrink, size) for d in non_maximum_suppression(kept)]

    def detect_in_regions(
        self, frame: np.ndarray, regions: list[Region] | None
    ) -> tuple[list[Detection], float]:
        """Full scale, run only over ``regions`` of it (None: the whole frame)."""
        if regions is None:
            return self.detect_at(frame, self.input_side)
        found: list[Detection] = []
        for region in regions:
            found += self.detect_at(frame, self.input_side, region)[0]
        return non_maximum_suppression(found), self.input_side / max(frame.shape[:2])

    def needs_coarser_scales(self, half_found: list[Detection], half_scale: float) -> bool:
        """Whether the scales coarser than half are worth running, from what the half scale found
        (``half_found``, boxes in pixels of a frame it saw at ``half_scale``): something at least
        ``QUARTER_FROM`` pixels wide there, or nothing at all."""
        if not half_found:
            return True
        return max(max(d.box[2], d.box[3]) for d in half_found) * half_scale >= QUARTER_FROM

    def regions_of_interest(self, shape: tuple[int, ...], found: list[Detection]) -> list[Region] | None:
        """The regions of full scale of a frame of ``shape`` worth running: round what the half
        scale ``found`` (boxes in pixels of the frame), each candidate's box grown by the margin,
        those that overlap joined, on the model's grid; None (the whole frame) when it found
        nothing or the regions cover over ``focus_most`` of the frame."""
        if self.focus_most is None or not found:
            return None
        h, w = shape[:2]
        scale = self.input_side / max(h, w)
        full_w, full_h = max(1, round(w * scale)), max(1, round(h * scale))
        boxes = np.array([d.box for d in found]) * scale
        margin = max(FOCUS_MARGIN_PIXELS, FOCUS_MARGIN * float(np.median(boxes[:, 2:].max(axis=1))))
        regions = [
            on_grid((x - margin, y - margin, x + bw + margin, y + bh + margin), (full_w, full_h))
            for x, y, bw, bh in boxes
        ]
        regions = joined(regions)
        if sum((x1 - x0) * (y1 - y0) for x0, y0, x1, y1 in regions) > self.focus_most * full_w * full_h:
            return None
        return regions

    def containing(self, candidate: Detection, dice: list[Detection]) -> list[Detection]:
        """The ``dice`` ``candidate`` may be part of: it lies at least ``PART_INSIDE`` inside them."""
        return [die for die in dice if inside_share(candidate.box, die.box) >= PART_INSIDE]


def trained_input_side(session: ort.InferenceSession, path: Path) -> int:
    """The input side the detector in ``session`` (loaded from ``path``) was trained for, from its
    metadata (``INPUT_SIDE_KEY``); ``DEFAULT_INPUT_SIDE`` when it names none."""
    mark = session.get_modelmeta().custom_metadata_map.get(INPUT_SIDE_KEY)
    if mark is None:
        return DEFAULT_INPUT_SIDE
    if not mark.isdigit() or int(mark) not in INPUT_SIDES:
        raise ModelError(
            f"the dice model {path} names an input side ({INPUT_SIDE_KEY}) of {mark!r}; "
            f"expected pixels, {input_sides_named()}"
        )
    return int(mark)


def input_sides_named() -> str:
    """``INPUT_SIDES`` as a message says them."""
    return f"{INPUT_SIDES.start} to {INPUT_SIDES.stop - 1}"


def fitted(frame: np.ndarray, side: int) -> tuple[np.ndarray, float]:
    """``frame`` resized so its longest side is ``side`` (itself when it already is), and the scale."""
    h, w = frame.shape[:2]
    scale = side / max(h, w)
    size = (max(1, round(w * scale)), max(1, round(h * scale)))
    if size == (w, h):
        return frame, scale
    return cv2.resize(frame, size, interpolation=cv2.INTER_AREA if scale < 1 else cv2.INTER_LINEAR), scale


def on_grid(box: tuple[float, float, float, float], size: tuple[int, int]) -> Region:
    """The corners ``box`` (x0, y0, x1, y1) as a region of a scaled frame of ``size``: inside it,
    its top left on the model's 32 px grid."""
    x0, y0, x1, y1 = box
    return (
        max(0, int(x0 // 32) * 32),
        max(0, int(y0 // 32) * 32),
        min(size[0], int(np.ceil(x1))),
        min(size[1], int(np.ceil(y1))),
    )


def joined(regions: list[Region]) -> list[Region]:
    """``regions`` with those that overlap replaced by the box round them, until none overlap."""
    kept: list[Region] = []
    for region in regions:
        while overlapping := [other for other in kept if overlap(region, other)]:
            kept = [other for other in kept if other not in overlapping]
            region = (
                min(r[0] for r in (region, *overlapping)),
                min(r[1] for r in (region, *overlapping)),
                max(r[2] for r in (region, *overlapping)),
                max(r[3] for r in (region, *overlapping)),
            )
        kept.append(region)
    return kept


def overlap(a: Region, b: Region) -> bool:
    """Whether two regions share pixels."""
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def padded(
    image: np.ndarray, scale: float, size: tuple[int, int], origin: tuple[int, int] = (0, 0)
) -> Prepared:
    """``image`` (a frame of ``size`` at ``scale``, or the region of it starting at ``origin``)
    as the model's input: padded with black to multiples of 32."""
    rh, rw = image.shape[:2]
    pw, ph = -(-rw // 32) * 32, -(-rh // 32) * 32
    canvas = np.zeros((ph, pw, 3), np.uint8)
    canvas[:rh, :rw] = image
    tensor = np.ascontiguousarray(canvas.transpose(2, 0, 1)[None], dtype=np.float32)
    return Prepared(tensor, scale, size, origin)


def in_frame(detection: Detection, shrink: float, size: tuple[int, int]) -> Detection:
    """``detection`` found on a copy shrunk by ``shrink``, in pixels of the frame (``size``)."""
    if shrink == 1:
        return detection
    x, y, w, h = (v / shrink for v in detection.box)
    x, y = min(x, size[0] - 1), min(y, size[1] - 1)
    return Detection((x, y, min(w, size[0] - x), min(h, size[1] - y)), detection.score)


#: the most pips a face has: a large candidate with more candidates than this inside it is no die
MOST_PIPS = 6


def above(found: list[Detection], threshold: float) -> list[Detection]:
    """The candidates of ``found`` scored ``threshold`` or more (no low-score ones)."""
    return [d for d in found if d.score >= threshold]


def holds_dice(large: Detection, finer_scales: list[list[Detection]]) -> bool:
    """Whether more candidates lie inside ``large`` at one of the finer scales than a die has
    pips: then it is a tray or a board holding dice, not one die close to the camera."""
    return any(sum(contains(large.box, centre(d.box)) for d in found) > MOST_PIPS for found in finer_scales)


def inside_any(detection: Detection, dice: list[Detection]) -> bool:
    """Whether ``detection``'s centre lies inside one of ``dice`` (a pip of a large die)."""
    point = centre(detection.box)
    return any(contains(die.box, point) for die in dice)


def overlaps_any(detection: Detection, dice: list[Detection]) -> bool:
    """Whether ``detection``'s centre lies inside one of ``dice`` or one of theirs inside it."""
    return inside_any(detection, dice) or any(contains(detection.box, centre(die.box)) for die in dice)


def non_maximum_suppression(found: list[Detection], iou: float = 0.45) -> list[Detection]:
    """Keep the higher-scored of two boxes that mostly overlap (one die, two guesses), surest first."""
    if len(found) < 2:
        return found
    keep = cv2.dnn.NMSBoxes([list(d.box) for d in found], [d.score for d in found], 0.0, iou)
    return [found[i] for i in sorted(np.array(keep).reshape(-1).tolist(), key=lambda i: -found[i].score)]
