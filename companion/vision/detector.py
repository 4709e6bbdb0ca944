"""The dice detector: an ONNX model run with onnxruntime on the CPU.

prepare (resize + pad) → infer → decode (peaks to boxes, then NMS) are separate steps that
return values, so each can be tested and timed on its own.

The model learnt dice up to about a fifth of its input wide; a die closer to the camera (a
phone held over one or two dice) makes it see each pip as a die. So every frame is also looked
at half and a quarter as large, where such a die has a familiar size. Each smaller look gives
the dice too large for the look above it, and what a larger look found inside one of those
dice (its pips) is dropped; a find reaching out of that die's box (``PART_INSIDE``) is a
neighbouring die pushed against it, and stays. A dice tray seen whole can look like one large
face, and must not take the dice in it along: a large find with more than six finds inside it
in a finer look is no die, and only one the caller confirms (the pip reader: "this is a die")
drops what lies inside it.

The first look's side is the model's: a detector trained for a smaller look (``train
--look-side``) says so in its file (``LOOK_SIDE_KEY``); one that says nothing was trained for
``DEFAULT_LOOK_SIDE``.

The usual look is the dearest (the half look costs a quarter of it): it is made only over the
part of the frame where the half look found anything, dice or maybes (their box grown by
``FOCUS_MARGIN`` die sides), when that part is at most ``FOCUS_MOST`` of the frame; the dice on
a table lie together, and most of a frame is cloth. When the half look finds nothing, the whole
frame is looked at. The quarter look is made only when the half look found something
``QUARTER_FROM`` pixels wide or wider (such a die is close to the size the half look gives away,
or is a pip of a die larger still), or found nothing.

A large frame (a phone photo, longest side ``CLOSE_LOOK`` × the input side or more) is also
looked at twice as large: dice under ``SMALL_DIE`` pixels in the usual look (a phone held high
over a mat) are found surely there, and those no other look found are added.

Finds between ``floor`` and ``threshold`` are "maybe" dice: they are returned (so the pip
reader can keep the ones it is sure of) but never count as dice holding other dice.
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
#: the ONNX metadata key naming the longest side (pixels) the detector was trained to look at a frame with
LOOK_SIDE_KEY = "look_side"
#: the look side of a detector file without that key (older exports wrote none)
DEFAULT_LOOK_SIDE = 640
#: the look sides a detector may be trained for or its file name (pixels)
LOOK_SIDES = range(64, 4097)
#: the usual look covers only the part of the frame where the half look found something, when that
#: part is at most this share of the frame; None: always the whole frame
FOCUS_MOST: float | None = 0.6
#: that part is the box round the half look's finds grown by this many of their median sides
FOCUS_MARGIN = 1.0
#: and by at least this many pixels of the usual look
FOCUS_MARGIN_PIXELS = 32
#: the half look's finds scored this or more choose where the usual look looks
FOCUS_FLOOR = 0.1
#: the quarter look is made only when the half look found something (scored ``FOCUS_FLOOR`` or
#: more) this wide or wider (pixels of the half look), or nothing; None: always
QUARTER_FROM: int | None = 48
#: the heatmap peak that counts as a die
DEFAULT_THRESHOLD = 0.4
#: a die this wide (in pixels of a look's model input) or wider is taken from the next, smaller look
LARGE_DIE = 112
#: the frame is looked at with its longest side at input_side divided by each of these
LOOKS = (1, 2, 4)
#: a frame this many times the input side or larger also gets a look this many times as large
CLOSE_LOOK = 2
#: the close look adds dice narrower than this (in pixels of the usual look)
SMALL_DIE = 32
#: a finer look's find whose centre lies inside a larger look's die is part of it (a pip, its top
#: face) and dropped only when at least this share of its box lies inside the die's; one reaching
#: further out is a neighbouring die the large box covers (dice pushed together). None: every
#: find whose centre lies inside is dropped
PART_INSIDE: float | None = 0.9


DEFAULT_MODEL = shipped_model("dicenet.onnx")

#: which of these finds (boxes in pixels of the frame) are dice
Confirm = Callable[[list["Detection"]], list[bool]]


@dataclass(frozen=True)
class Prepared:
    tensor: np.ndarray  # 1×3×H×W float32, BGR 0..255
    scale: float  # model pixels per original pixel
    size: tuple[int, int]  # original (w, h)
    origin: tuple[int, int] = (0, 0)  # where the tensor starts in the look (pixels): a part's corner


#: a part of a look: x0, y0, x1, y1 in pixels of the look (x0, y0 on the model's 32 px grid)
Region = tuple[int, int, int, int]


@dataclass(frozen=True)
class Detection:
    box: tuple[float, float, float, float]  # x, y, w, h in original pixels
    pips: int | None  # None from a find-only model: the pip reader reads them
    score: float


class DiceDetector:
    """Load once, then ``detect(frame)``. ``input_side`` is the longest side the model sees
    (None: the side its file names, ``trained_look_side``);
    a heatmap peak of ``threshold`` is a die, one of ``floor`` (default: ``threshold``) a maybe;
    the close look of a large frame adds dice narrower than ``small_die`` (pixels of the usual look);
    the usual look covers only where the half look found something when that is at most
    ``focus_most`` of the frame (None: always the whole frame); the quarter look is made only when
    the half look found something ``quarter_from`` pixels wide or nothing (None: always)."""

    def __init__(
        self,
        model_path: Path | None = None,
        input_side: int | None = None,
        threads: int = 2,
        threshold: float = DEFAULT_THRESHOLD,
        floor: float | None = None,
        small_die: int = SMALL_DIE,
        part_inside: float | None = PART_INSIDE,
        focus_most: float | None = FOCUS_MOST,
        quarter_from: int | None = QUARTER_FROM,
    ) -> None:
        path = Path(model_path or DEFAULT_MODEL)
        self.session = open_session(path, threads, "dice", "--model")
        self.input_name = self.session.get_inputs()[0].name
        self.output_names = [o.name for o in self.session.get_outputs()]
        heat_shape = self.session.get_outputs()[0].shape
        #: True when the model reads pips itself (one heatmap per value), False if it only finds dice
        self.reads_pips = len(heat_shape) == 4 and heat_shape[1] == 6
        self.input_side = input_side or trained_look_side(self.session, path)
        self.threshold = threshold
        self.floor = threshold if floor is None else min(floor, threshold)
        self.small_die = small_die
        self.part_inside = part_inside
        self.focus_most = focus_most
        self.focus_floor = FOCUS_FLOOR
        self.quarter_from = quarter_from

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
        """The finds scored ``floor`` (default: the detector's) or more, in pixels of the frame."""
        heat, peaks, boxes = outputs["heat"][0], outputs["peaks"][0, 0], outputs["boxes"][0]
        ys, xs = np.nonzero(peaks >= (self.floor if floor is None else floor))
        if len(xs) == 0:
            return []
        scores = peaks[ys, xs]
        values = heat[:, ys, xs].argmax(axis=0) + 1 if self.reads_pips else None
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
            pips = int(values[i]) if values is not None else None
            found.append(Detection((x0, y0, bw, bh), pips, float(scores[i])))
        return suppress_overlaps(found)

    def detect_at(
        self, frame: np.ndarray, side: int, region: Region | None = None, floor: float | None = None
    ) -> tuple[list[Detection], float]:
        """Dice found with the frame's longest side at ``side`` pixels, and that scale; only in
        ``region`` of that look when one is given; scored ``floor`` (default: the detector's) or more."""
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
        """Dice of every size: each from the look that sees it at a familiar size (see the
        module's docstring). ``confirm`` says, for finds in pixels of ``frame``, which are dice;
        ``whole``: the usual look covers the whole frame, however little the half look found."""
        h, w = frame.shape[:2]
        close_side = self.input_side * CLOSE_LOOK
        if max(h, w) < close_side:
            return self.detect_in_looks(frame, confirm, (w, h), whole)
        # a phone photo is shrunk once to the close look's size; the other looks are made from that copy
        close, scale = fitted(frame, close_side)
        found, _ = self.detect_at(close, close_side)
        small = [
            in_frame(d, scale, (w, h)) for d in found if max(d.box[2], d.box[3]) < self.small_die * CLOSE_LOOK
        ]
        dice = self.detect_in_looks(close, confirm, (w, h), whole)
        return dice + [d for d in small if not overlaps_any(d, dice)]

    def detect_in_looks(
        self, frame: np.ndarray, confirm: Confirm | None, size: tuple[int, int], whole: bool = False
    ) -> list[Detection]:
        """The dice of the three looks, in pixels of a frame of ``size`` (``frame`` may be a
        shrunk copy of it); ``whole``: the usual look covers the whole frame."""
        h, w = frame.shape[:2]
        source, shrink = frame, 1.0
        if max(h, w) > self.input_side:  # a large frame is shrunk once; the looks are made from the copy
            source, shrink = fitted(frame, self.input_side)
        shrink *= w / size[0]  # look pixels per pixel of the frame of ``size``
        half, rest = LOOKS[1], LOOKS[2:]
        glimpse, half_scale = self.detect_at(
            source, self.input_side // half, floor=min(self.floor, self.focus_floor)
        )
        looks = {half: ([d for d in glimpse if d.score >= self.floor], half_scale)}
        if self.needs_smaller_looks(glimpse, half_scale):
            looks |= {look: self.detect_at(source, self.input_side // look) for look in rest}
        else:
            looks |= {look: ([], half_scale / (look // half)) for look in rest}
        parts = None if whole else self.focus(source.shape, glimpse)
        looks[LOOKS[0]] = self.detect_in_parts(source, parts)
        kept: list[Detection] = []
        for look in reversed(LOOKS):  # smallest look first: its large dice win
            found, scale = looks[look]
            found = [d for d in found if not inside_any(d, self.holders(d, kept))]
            if look != LOOKS[0]:
                finer = [sure(looks[other][0], self.threshold) for other in LOOKS if other < look]
                found = [
                    d
                    for d in found
                    if max(d.box[2], d.box[3]) * scale * 2 >= LARGE_DIE and not holds_dice(d, finer)
                ]
                if confirm is not None and found:
                    dice = confirm([in_frame(d, shrink, size) for d in found])
                    found = [d for d, is_die in zip(found, dice, strict=True) if is_die]
            kept += found
        return [in_frame(d, shrink, size) for d in suppress_overlaps(kept)]

    def detect_in_parts(self, frame: np.ndarray, parts: list[Region] | None) -> tuple[list[Detection], float]:
        """The usual look, made only over ``parts`` of it (None: the whole frame)."""
        if parts is None:
            return self.detect_at(frame, self.input_side)
        found: list[Detection] = []
        for part in parts:
            found += self.detect_at(frame, self.input_side, part)[0]
        return suppress_overlaps(found), self.input_side / max(frame.shape[:2])

    def needs_smaller_looks(self, glimpse: list[Detection], half_scale: float) -> bool:
        """Whether the looks smaller than the half look are worth making, from what the half look
        found (``glimpse``, boxes in pixels of a frame it saw at ``half_scale``): something at least
        ``quarter_from`` pixels wide there, or nothing at all."""
        if self.quarter_from is None or not glimpse:
            return True
        return max(max(d.box[2], d.box[3]) for d in glimpse) * half_scale >= self.quarter_from

    def focus(self, shape: tuple[int, ...], found: list[Detection]) -> list[Region] | None:
        """The parts of the usual look of a frame of ``shape`` worth looking at: round what the
        half look ``found`` (boxes in pixels of the frame), each find's box grown by the margin,
        those that overlap joined, on the model's grid; None (the whole frame) when it found
        nothing or the parts cover over ``focus_most`` of the frame."""
        if self.focus_most is None or not found:
            return None
        h, w = shape[:2]
        scale = self.input_side / max(h, w)
        look_w, look_h = max(1, round(w * scale)), max(1, round(h * scale))
        boxes = np.array([d.box for d in found]) * scale
        margin = max(FOCUS_MARGIN_PIXELS, FOCUS_MARGIN * float(np.median(boxes[:, 2:].max(axis=1))))
        parts = [
            on_grid((x - margin, y - margin, x + bw + margin, y + bh + margin), (look_w, look_h))
            for x, y, bw, bh in boxes
        ]
        parts = joined(parts)
        if sum((x1 - x0) * (y1 - y0) for x0, y0, x1, y1 in parts) > self.focus_most * look_w * look_h:
            return None
        return parts

    def holders(self, find: Detection, dice: list[Detection]) -> list[Detection]:
        """The ``dice`` ``find`` may be part of: it lies at least ``part_inside`` inside them."""
        if self.part_inside is None:
            return dice
        return [die for die in dice if inside_share(find.box, die.box) >= self.part_inside]


def trained_look_side(session: ort.InferenceSession, path: Path) -> int:
    """The look side the detector in ``session`` (loaded from ``path``) was trained for, from its
    metadata (``LOOK_SIDE_KEY``); ``DEFAULT_LOOK_SIDE`` when it names none."""
    mark = session.get_modelmeta().custom_metadata_map.get(LOOK_SIDE_KEY)
    if mark is None:
        return DEFAULT_LOOK_SIDE
    if not mark.isdigit() or int(mark) not in LOOK_SIDES:
        raise ModelError(
            f"the dice model {path} names a look side of {mark!r}; expected pixels, {look_sides_named()}"
        )
    return int(mark)


def look_sides_named() -> str:
    """``LOOK_SIDES`` as a message says them."""
    return f"{LOOK_SIDES.start} to {LOOK_SIDES.stop - 1}"


def fitted(frame: np.ndarray, side: int) -> tuple[np.ndarray, float]:
    """``frame`` resized so its longest side is ``side`` (itself when it already is), and the scale."""
    h, w = frame.shape[:2]
    scale = side / max(h, w)
    size = (max(1, round(w * scale)), max(1, round(h * scale)))
    if size == (w, h):
        return frame, scale
    return cv2.resize(frame, size, interpolation=cv2.INTER_AREA if scale < 1 else cv2.INTER_LINEAR), scale


def on_grid(box: tuple[float, float, float, float], size: tuple[int, int]) -> Region:
    """The corners ``box`` (x0, y0, x1, y1) as a part of a look of ``size``: inside it, its
    top left on the model's 32 px grid."""
    x0, y0, x1, y1 = box
    return (
        max(0, int(x0 // 32) * 32),
        max(0, int(y0 // 32) * 32),
        min(size[0], int(np.ceil(x1))),
        min(size[1], int(np.ceil(y1))),
    )


def joined(parts: list[Region]) -> list[Region]:
    """``parts`` with those that overlap replaced by the box round them, until none overlap."""
    kept: list[Region] = []
    for part in parts:
        while overlapping := [other for other in kept if overlap(part, other)]:
            kept = [other for other in kept if other not in overlapping]
            part = (
                min(r[0] for r in (part, *overlapping)),
                min(r[1] for r in (part, *overlapping)),
                max(r[2] for r in (part, *overlapping)),
                max(r[3] for r in (part, *overlapping)),
            )
        kept.append(part)
    return kept


def overlap(a: Region, b: Region) -> bool:
    """Whether two parts share pixels."""
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def padded(
    image: np.ndarray, scale: float, size: tuple[int, int], origin: tuple[int, int] = (0, 0)
) -> Prepared:
    """``image`` (a look at ``scale`` of a frame of ``size``, or the part of one starting at
    ``origin``) as the model's input: padded with black to multiples of 32."""
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
    return Detection((x, y, min(w, size[0] - x), min(h, size[1] - y)), detection.pips, detection.score)


#: the most pips a face has: a large find with more finds than this inside it is no die
MOST_PIPS = 6


def sure(found: list[Detection], threshold: float) -> list[Detection]:
    """The finds of ``found`` scored ``threshold`` or more (not maybes)."""
    return [d for d in found if d.score >= threshold]


def holds_dice(large: Detection, finer_looks: list[list[Detection]]) -> bool:
    """Whether more finds lie inside ``large`` in one of the finer looks than a die has pips:
    then it is a tray or a board holding dice, not one die close to the camera."""
    return any(sum(contains(large.box, centre(d.box)) for d in found) > MOST_PIPS for found in finer_looks)


def inside_any(detection: Detection, dice: list[Detection]) -> bool:
    """Whether ``detection``'s centre lies inside one of ``dice`` (a pip of a large die)."""
    point = centre(detection.box)
    return any(contains(die.box, point) for die in dice)


def overlaps_any(detection: Detection, dice: list[Detection]) -> bool:
    """Whether ``detection``'s centre lies inside one of ``dice`` or one of theirs inside it."""
    return inside_any(detection, dice) or any(contains(detection.box, centre(die.box)) for die in dice)


def suppress_overlaps(found: list[Detection], iou: float = 0.45) -> list[Detection]:
    """Keep the surer of two boxes that mostly overlap (one die, two guesses)."""
    if len(found) < 2:
        return found
    keep = cv2.dnn.NMSBoxes([list(d.box) for d in found], [d.score for d in found], 0.0, iou)
    return [found[i] for i in sorted(np.array(keep).reshape(-1).tolist(), key=lambda i: -found[i].score)]
