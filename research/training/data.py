"""Training samples: real YOLO folders and rendered ones, cropped and augmented on the fly."""

import random
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from companion.vision.detector import DEFAULT_INPUT_SIDE
from research.reader.dataset import read_yolo_folder
from research.synth.pale import greyed, paled


@dataclass
class Sample:
    image: np.ndarray  # BGR uint8
    boxes: np.ndarray  # N×4 x0, y0, x1, y1 in pixels
    classes: np.ndarray  # N pips − 1


def load_folder(folder: Path, max_side: int = 800) -> list[Sample]:
    """The labelled images of a YOLO folder, shrunk to ``max_side``.

    Images without a single label are left out: in the shared sets those are photos full of
    dice nobody labelled, and training on them would teach that a die is background.
    """
    samples = []
    for item in read_yolo_folder(folder):
        if not item.rows:
            continue
        image = cv2.imread(str(item.image_path), cv2.IMREAD_COLOR)
        if image is None:
            continue
        h, w = image.shape[:2]
        true_boxes = item.boxes(w, h)
        scale = min(1.0, max_side / max(h, w))
        if scale < 1:
            image = cv2.resize(image, (round(w * scale), round(h * scale)), interpolation=cv2.INTER_AREA)
        boxes = np.array([[b.x, b.y, b.x + b.w, b.y + b.h] for b in true_boxes], np.float32).reshape(-1, 4)
        classes = np.array([b.pips - 1 for b in true_boxes], np.int64)
        samples.append(Sample(image, boxes * scale, classes))
    return samples


#: the widest median die (pixels) a picture is scaled to for a ``DEFAULT_INPUT_SIDE`` input side
WIDEST_DIE = 200


def augment(
    sample: Sample, crop: int, rng: random.Random, stretch: float = 1.0, look_side: int = DEFAULT_INPUT_SIDE
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A random crop at a random scale, flips, quarter turns, light and colour changes, blur.

    The scale is drawn so the picture's longest side is 0.55–1.45 × ``look_side``: a net trained
    for a smaller look sees its dice as that look shows them.

    ``stretch`` above 1: half the images are also made wider than tall (or taller than wide) by
    up to that factor, as a die seen at a slant or a photo squeezed to a square looks."""
    image, boxes, classes = sample.image, sample.boxes.copy(), sample.classes.copy()
    h, w = image.shape[:2]
    longest = max(h, w)
    scale = rng.uniform(0.55, 1.45) * look_side / longest
    if len(boxes):
        median = float(np.median(np.maximum(boxes[:, 2] - boxes[:, 0], boxes[:, 3] - boxes[:, 1])))
        widest = WIDEST_DIE * look_side / DEFAULT_INPUT_SIDE
        scale = min(scale, widest / max(median, 1))  # keep dice within what the net sees
    aspect = np.exp(rng.uniform(-1, 1) * np.log(stretch)) if stretch > 1 and rng.random() < 0.5 else 1.0
    sx, sy = scale * aspect**0.5, scale / aspect**0.5
    image = cv2.resize(
        image,
        (max(1, round(w * sx)), max(1, round(h * sy))),
        interpolation=cv2.INTER_AREA if max(sx, sy) < 1 else cv2.INTER_LINEAR,
    )
    boxes *= np.array([sx, sy, sx, sy], np.float32)
    h, w = image.shape[:2]
    if len(boxes) and rng.random() < 0.8:  # crop around a die most of the time
        i = rng.randrange(len(boxes))
        cx, cy = (boxes[i, 0] + boxes[i, 2]) / 2, (boxes[i, 1] + boxes[i, 3]) / 2
        x0 = int(np.clip(cx - rng.uniform(0.15, 0.85) * crop, 0, max(0, w - crop)))
        y0 = int(np.clip(cy - rng.uniform(0.15, 0.85) * crop, 0, max(0, h - crop)))
    else:
        x0, y0 = rng.randint(0, max(0, w - crop)), rng.randint(0, max(0, h - crop))
    canvas = np.full((crop, crop, 3), rng.randint(0, 255), np.uint8)
    part = image[y0 : y0 + crop, x0 : x0 + crop]
    canvas[: part.shape[0], : part.shape[1]] = part
    boxes -= np.array([x0, y0, x0, y0], np.float32)
    if len(boxes):
        inside_w = np.clip(boxes[:, 2], 0, crop) - np.clip(boxes[:, 0], 0, crop)
        inside_h = np.clip(boxes[:, 3], 0, crop) - np.clip(boxes[:, 1], 0, crop)
        area = (boxes[:, 2] - boxes[:, 0]) * (boxes[:, 3] - boxes[:, 1])
        keep = (inside_w * inside_h) > 0.6 * area  # a die cut in half is not a readable die
        boxes, classes = np.clip(boxes[keep], 0, crop), classes[keep]
    image = canvas
    if rng.random() < 0.5:
        image = image[:, ::-1]
        boxes[:, [0, 2]] = crop - boxes[:, [2, 0]]
    for _ in range(rng.randrange(4)):
        image = np.rot90(image)  # counter-clockwise: (x, y) -> (y, crop - x)
        boxes = (
            np.stack([boxes[:, 1], crop - boxes[:, 2], boxes[:, 3], crop - boxes[:, 0]], 1)
            if len(boxes)
            else boxes
        )
    image = np.ascontiguousarray(image)
    image = photometric(image, rng)
    return image, boxes.reshape(-1, 4), classes


def tiled(
    samples: list[Sample],
    crop: int,
    rng: random.Random,
    stretch: float = 1.0,
    look_side: int = DEFAULT_INPUT_SIDE,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Four samples, each ``augment``ed to a crop half the side, tiled two by two into one
    ``crop``-sided picture: its dice in new company and at new places in the frame, at the sizes
    a single photo's crop gives them (``train --tile-real``)."""
    half = crop // 2
    canvas = np.zeros((crop, crop, 3), np.uint8)
    all_boxes, all_classes = [], []
    corners = ((0, 0), (half, 0), (0, half), (half, half))
    for sample, (x0, y0) in zip(samples, corners, strict=True):
        image, boxes, classes = augment(sample, half, rng, stretch, look_side)
        canvas[y0 : y0 + half, x0 : x0 + half] = image
        all_boxes.append(boxes + np.array([x0, y0, x0, y0], np.float32))
        all_classes.append(classes)
    return canvas, np.concatenate(all_boxes).reshape(-1, 4), np.concatenate(all_classes)


def smeared(image: np.ndarray, rng: random.Random, lengths: tuple[int, int]) -> np.ndarray:
    """``image`` blurred along a line at a random angle, its length drawn from the ``lengths``
    range (least, most; pixels): a picture taken by a shaken camera."""
    length = rng.randint(*lengths)
    kernel = np.zeros((length, length), np.float32)
    kernel[length // 2, :] = 1.0
    turn = cv2.getRotationMatrix2D(((length - 1) / 2, (length - 1) / 2), rng.uniform(0, 180), 1.0)
    kernel = cv2.warpAffine(kernel, turn, (length, length))
    return cv2.filter2D(image, -1, kernel / kernel.sum())


#: share of the desaturated pictures made fully grey; the rest keep a little of their colour
FULLY_GREY = 0.4
#: the most of its colour a desaturated picture keeps that is not fully grey
MOST_SATURATION_KEPT = 0.5


def desaturated(image: np.ndarray, rng: random.Random) -> np.ndarray:
    """``image`` with its colour taken away, as a webcam gives it in dim light or a black-and-white
    camera: fully grey ``FULLY_GREY`` of the time, else its colour scaled by 0.05 to
    ``MOST_SATURATION_KEPT``."""
    if rng.random() < FULLY_GREY:
        return greyed(image)
    return paled(image, rng.uniform(0.05, MOST_SATURATION_KEPT))


def photometric(image: np.ndarray, rng: random.Random) -> np.ndarray:
    hsv = cv2.cvtColor(image, cv2.COLOR_BGR2HSV).astype(np.int16)
    hsv[..., 0] = (hsv[..., 0] + rng.randint(-90, 90)) % 180 if rng.random() < 0.5 else hsv[..., 0]
    hsv[..., 1] = np.clip(hsv[..., 1] * rng.uniform(0.6, 1.4), 0, 255)
    hsv[..., 2] = np.clip(hsv[..., 2] * rng.uniform(0.6, 1.3) + rng.randint(-20, 20), 0, 255)
    image = cv2.cvtColor(hsv.astype(np.uint8), cv2.COLOR_HSV2BGR)
    if rng.random() < 0.2:
        image = cv2.GaussianBlur(image, (0, 0), rng.uniform(0.5, 1.5))
    return image


def targets(boxes: np.ndarray, classes: np.ndarray, size: int, stride: int, n_classes: int):
    """CenterNet targets: Gaussian heatmaps (one per class, or a single "die here" map when
    ``n_classes`` is 1), and size/offset at each centre cell."""
    out = size // stride
    heat = np.zeros((n_classes, out, out), np.float32)
    reg = np.zeros((4, out, out), np.float32)
    mask = np.zeros((out, out), np.float32)
    ys, xs = np.mgrid[0:out, 0:out].astype(np.float32)
    for (x0, y0, x1, y1), cls in zip(boxes, classes, strict=True):
        bw, bh = (x1 - x0) / stride, (y1 - y0) / stride
        if bw < 0.5 or bh < 0.5:
            continue
        cx, cy = (x0 + x1) / 2 / stride, (y0 + y1) / 2 / stride
        ix, iy = min(int(cx), out - 1), min(int(cy), out - 1)
        sigma = max(0.5, min(bw, bh) / 6)
        g = np.exp(-((xs - ix) ** 2 + (ys - iy) ** 2) / (2 * sigma**2))
        channel = cls if n_classes > 1 else 0
        heat[channel] = np.maximum(heat[channel], g)
        reg[:, iy, ix] = (bw, bh, cx - ix, cy - iy)
        mask[iy, ix] = 1
    return heat, reg, mask
