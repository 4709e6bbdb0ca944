"""Render top-down photos of dice on a table: felt, wood, mats and trays; light from any side,
shadows, glare, motion blur, touching dice, visible side faces (which must not be read).

Everything is drawn with OpenCV from a seeded numpy Generator, so a scene is reproducible.
"""

import math
from dataclasses import dataclass, field, replace

import cv2
import numpy as np

from .palette import BODY_COLOURS, body_and_pips, pip_colour

#: pip centres on a unit face, per value (x, y in -1..1)
PIP_LAYOUT: dict[int, list[tuple[float, float]]] = {
    1: [(0, 0)],
    2: [(-0.5, -0.5), (0.5, 0.5)],
    3: [(-0.5, -0.5), (0, 0), (0.5, 0.5)],
    4: [(-0.5, -0.5), (0.5, -0.5), (-0.5, 0.5), (0.5, 0.5)],
    5: [(-0.5, -0.5), (0.5, -0.5), (0, 0), (-0.5, 0.5), (0.5, 0.5)],
    6: [(-0.5, -0.5), (0.5, -0.5), (-0.5, 0), (0.5, 0), (-0.5, 0.5), (0.5, 0.5)],
}


@dataclass(frozen=True)
class DiePose:
    """Where a die lies: centre, side length and angle of its top face, in pixels/radians."""

    x: float
    y: float
    size: float
    angle: float
    pips: int
    colour: str
    big: bool = False
    #: how far the camera sees down its sides (0: straight down), and in which direction
    tilt: float = 0.0
    tilt_angle: float = 0.0
    #: fixes the die's look (shade, glare, pip contrast) across frames of a recording
    look: int | None = None


@dataclass(frozen=True)
class RenderedDie:
    box: tuple[int, int, int, int]  # x, y, w, h of the top face
    pips: int
    colour: str
    big: bool


@dataclass
class Scene:
    image: np.ndarray
    dice: list[RenderedDie] = field(default_factory=list)


# ----------------------------------------------------------------------------- backgrounds
def smooth_noise(rng: np.random.Generator, h: int, w: int, scale: float) -> np.ndarray:
    """Smooth standard-normal noise whose blobs are about ``scale`` pixels across."""
    small = rng.standard_normal((max(2, int(h / scale)), max(2, int(w / scale)))).astype(np.float32)
    return cv2.resize(small, (w, h), interpolation=cv2.INTER_CUBIC)


def background(rng: np.random.Generator, w: int, h: int) -> np.ndarray:
    kind = rng.choice(["felt", "wood", "mat", "tray", "paper"], p=[0.3, 0.2, 0.2, 0.2, 0.1])
    if kind == "wood":
        base = np.array(
            rng.choice([[60, 110, 160], [90, 150, 200], [40, 70, 110], [150, 190, 215]]), np.float32
        )
        ys = np.arange(h, dtype=np.float32)[:, None] + 8 * smooth_noise(rng, h, w, 64)
        grain = np.sin(ys / rng.uniform(4, 14) + 3 * smooth_noise(rng, h, w, 128)) * rng.uniform(8, 25)
        img = base[None, None, :] + grain[..., None] + 4 * smooth_noise(rng, h, w, 2)[..., None]
        if rng.random() < 0.5:
            img = np.transpose(cv2.resize(img, (h, w)), (1, 0, 2)).copy()
    else:
        colours = {
            "felt": [[40, 110, 20], [30, 40, 140], [110, 60, 20], [40, 40, 40], [60, 90, 30]],
            "mat": [[70, 70, 70], [120, 100, 90], [30, 30, 30], [160, 160, 150], [80, 60, 120]],
            "tray": [[30, 90, 25], [25, 25, 110], [100, 50, 20], [35, 35, 35]],
            "paper": [[235, 235, 235], [220, 225, 230], [200, 205, 205]],
        }[kind]
        base = np.array(colours[rng.integers(len(colours))], np.float32) * rng.uniform(0.8, 1.2)
        texture = 6 * smooth_noise(rng, h, w, 2) + 5 * smooth_noise(rng, h, w, 16)
        img = base[None, None, :] + texture[..., None]
        if kind == "tray":
            rim = int(min(w, h) * rng.uniform(0.04, 0.1))
            x0, y0 = rng.integers(0, w // 6), rng.integers(0, h // 6)
            x1, y1 = w - rng.integers(0, w // 6), h - rng.integers(0, h // 6)
            mask = np.zeros((h, w), np.uint8)
            cv2.rectangle(mask, (int(x0), int(y0)), (int(x1), int(y1)), 255, -1)
            inner = np.zeros((h, w), np.uint8)
            cv2.rectangle(inner, (int(x0 + rim), int(y0 + rim)), (int(x1 - rim), int(y1 - rim)), 255, -1)
            wood = np.array([40, 80, 130], np.float32) * rng.uniform(0.6, 1.3)
            outside = np.array([[70, 70, 70], [200, 200, 200], [50, 90, 140]][rng.integers(3)], np.float32)
            img[mask == 0] = outside + 5 * rng.standard_normal(3)
            ring = (mask > 0) & (inner == 0)
            img[ring] = wood
    return np.clip(img, 0, 255).astype(np.float32)


# ----------------------------------------------------------------------------- dice
def _square(cx: float, cy: float, size: float, angle: float) -> np.ndarray:
    c, s = math.cos(angle), math.sin(angle)
    half = size / 2
    corners = [(-half, -half), (half, -half), (half, half), (-half, half)]
    return np.array([(cx + x * c - y * s, cy + x * s + y * c) for x, y in corners], np.float32)


def _rounded_mask(h: int, w: int, corners: np.ndarray, radius: float) -> np.ndarray:
    """A filled polygon with rounded corners (drawn at 4x for smooth edges)."""
    scale = 4
    mask = np.zeros((h * scale, w * scale), np.uint8)
    pts = np.round(corners * scale).astype(np.int32)
    cv2.fillPoly(mask, [pts], 255, cv2.LINE_AA)
    if radius > 1:
        k = max(3, int(radius * scale) | 1)
        mask = cv2.erode(mask, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k)))
        mask = cv2.dilate(mask, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k)))
    return cv2.resize(mask, (w, h), interpolation=cv2.INTER_AREA).astype(np.float32) / 255.0


def _blend(img: np.ndarray, mask: np.ndarray, colour: np.ndarray | tuple) -> None:
    colour_arr = np.asarray(colour, np.float32)
    img[:] = img * (1 - mask[..., None]) + colour_arr * mask[..., None]


def _draw_pips(
    img: np.ndarray,
    pose: DiePose,
    centre: tuple[float, float],
    size: float,
    angle: float,
    pips: int,
    pip_colour: np.ndarray,
    squash: tuple[float, float, float],
) -> None:
    h, w = img.shape[:2]
    c, s = math.cos(angle), math.sin(angle)
    radius = size * 0.1
    spread = size * 0.27
    sx, sy, shear = squash
    mask = np.zeros((h * 2, w * 2), np.uint8)
    for px, py in PIP_LAYOUT[pips]:
        lx, ly = px * spread * 2 * 0.5 * 2, py * spread * 2 * 0.5 * 2
        lx, ly = lx * sx + ly * shear, ly * sy
        x = centre[0] + lx * c - ly * s
        y = centre[1] + lx * s + ly * c
        axes = (max(1, int(radius * 2 * sx)), max(1, int(radius * 2 * sy)))
        cv2.ellipse(mask, (int(x * 2), int(y * 2)), axes, math.degrees(angle), 0, 360, 255, -1, cv2.LINE_AA)
    m = cv2.resize(mask, (w, h), interpolation=cv2.INTER_AREA).astype(np.float32) / 255.0
    _blend(img, m, pip_colour)


def draw_die(
    img: np.ndarray, pose: DiePose, light: tuple[float, float], rng: np.random.Generator
) -> tuple[int, int, int, int]:
    """Draw one die (shadow, sides, top face, pips, glare); return its top-face box.

    Drawing happens in a window around the die, so a scene costs what its dice cost."""
    h, w = img.shape[:2]
    reach = pose.size * (1.0 + pose.tilt) + 6
    x0, y0 = max(0, int(pose.x - reach)), max(0, int(pose.y - reach))
    x1, y1 = min(w, int(pose.x + reach) + 1), min(h, int(pose.y + reach) + 1)
    local = replace(pose, x=pose.x - x0, y=pose.y - y0)
    look = np.random.default_rng(pose.look) if pose.look is not None else rng
    _draw_die_here(img[y0:y1, x0:x1], local, light, look)
    top = _square(pose.x, pose.y, pose.size, pose.angle)
    xs, ys = top[:, 0], top[:, 1]
    bx0, by0 = max(0, int(xs.min())), max(0, int(ys.min()))
    bx1, by1 = min(w, int(math.ceil(xs.max()))), min(h, int(math.ceil(ys.max())))
    return bx0, by0, bx1 - bx0, by1 - by0


def _draw_die_here(
    img: np.ndarray, pose: DiePose, light: tuple[float, float], rng: np.random.Generator
) -> None:
    h, w = img.shape[:2]
    body, pip = (np.array(c, np.float32) for c in body_and_pips(pose.colour))
    body = np.clip(body * rng.uniform(0.85, 1.12) + rng.normal(0, 6, 3), 0, 255)
    pip = pip_colour(body, pip, rng)
    top = _square(pose.x, pose.y, pose.size, pose.angle)
    radius = pose.size * rng.uniform(0.08, 0.2)

    # shadow, cast away from the light
    sx, sy = -light[0] * pose.size * 0.25, -light[1] * pose.size * 0.25
    shadow = _rounded_mask(h, w, top + np.array([sx, sy], np.float32), radius)
    shadow = cv2.GaussianBlur(shadow, (0, 0), max(1.0, pose.size * 0.12))
    img *= 1 - 0.45 * shadow[..., None]

    # sides seen at an angle: the top face shifts away from the base by `tilt`
    dx = math.cos(pose.tilt_angle) * pose.tilt * pose.size
    dy = math.sin(pose.tilt_angle) * pose.tilt * pose.size
    if pose.tilt > 0.02:
        base = top - np.array([dx, dy], np.float32)
        hull = cv2.convexHull(np.concatenate([top, base])).reshape(-1, 2)
        side_mask = _rounded_mask(h, w, hull, radius)
        _blend(img, side_mask, body * rng.uniform(0.55, 0.8))
        side_value = int(rng.integers(1, 7))
        centre = (
            pose.x - dx * 0.5 - math.cos(pose.tilt_angle) * pose.size * 0.25,
            pose.y - dy * 0.5 - math.sin(pose.tilt_angle) * pose.size * 0.25,
        )
        _draw_pips(
            img,
            pose,
            centre,
            pose.size * 0.8,
            pose.angle,
            side_value,
            pip * 0.8,
            (1.0, max(0.25, pose.tilt), 0.0),
        )

    top_mask = _rounded_mask(h, w, top, radius)
    # shading across the face, brighter toward the light
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    ramp = ((xx - pose.x) * light[0] + (yy - pose.y) * light[1]) / max(pose.size, 1)
    shade = (1 + 0.15 * np.clip(ramp, -1, 1))[..., None]
    face = np.clip(body[None, None, :] * shade, 0, 255)
    img[:] = img * (1 - top_mask[..., None]) + face * top_mask[..., None]
    _draw_pips(img, pose, (pose.x, pose.y), pose.size, pose.angle, pose.pips, pip, (1.0, 1.0, 0.0))

    if rng.random() < 0.3:  # glare
        gx = pose.x + light[0] * pose.size * rng.uniform(0.1, 0.3)
        gy = pose.y + light[1] * pose.size * rng.uniform(0.1, 0.3)
        sigma = pose.size * rng.uniform(0.08, 0.2)
        glare = np.exp(-((xx - gx) ** 2 + (yy - gy) ** 2) / (2 * sigma**2)) * top_mask
        img += glare[..., None] * rng.uniform(60, 160)


# ----------------------------------------------------------------------------- scenes
def sample_poses(
    rng: np.random.Generator,
    w: int,
    h: int,
    count: int,
    colours: list[str] | None = None,
    size_range: tuple[float, float] | None = None,
    tilt_max: float = 0.35,
) -> list[DiePose]:
    """Random non-overlapping dice (touching allowed)."""
    names = colours or list(BODY_COLOURS)
    lo, hi = size_range or (min(w, h) * 0.035, min(w, h) * 0.14)
    base = rng.uniform(lo, hi)
    poses: list[DiePose] = []
    tilt_angle = rng.uniform(0, 2 * math.pi)
    for _ in range(count * 30):
        if len(poses) == count:
            break
        big = rng.random() < 0.08
        size = base * rng.uniform(0.85, 1.15) * (1.45 if big else 1)
        x, y = rng.uniform(size, w - size), rng.uniform(size, h - size)
        if any(math.hypot(x - p.x, y - p.y) < (size + p.size) * 0.75 for p in poses):
            continue
        tilt = rng.uniform(0, tilt_max) if rng.random() < 0.5 else 0.0
        poses.append(
            DiePose(
                x,
                y,
                size,
                rng.uniform(0, math.pi / 2),
                int(rng.integers(1, 7)),
                str(names[rng.integers(len(names))]),
                big,
                tilt,
                tilt_angle + rng.normal(0, 0.2),
            )
        )
    return poses


def render_scene(
    rng: np.random.Generator,
    w: int,
    h: int,
    poses: list[DiePose],
    table: np.ndarray | None = None,
    light: dict | None = None,
) -> Scene:
    """Draw ``poses`` on a table (a fresh random one unless given), then light and camera effects."""
    img = (table if table is not None else background(rng, w, h)).astype(np.float32).copy()
    light = light or sample_light(rng)
    direction = light["direction"]
    dice = []
    for pose in sorted(poses, key=lambda p: p.y):
        x, y, bw, bh = draw_die(img, pose, direction, rng)
        if bw > 2 and bh > 2:
            dice.append(RenderedDie((x, y, bw, bh), pose.pips, pose.colour, pose.big))
    img = apply_light(img, light, rng)
    return Scene(camera_effects(img, rng, light), dice)


def sample_light(rng: np.random.Generator) -> dict:
    angle = rng.uniform(0, 2 * math.pi)
    temperature = rng.choice(["neutral", "warm", "cold"], p=[0.5, 0.25, 0.25])
    gains = {"neutral": (1, 1, 1), "warm": (0.78, 0.95, 1.12), "cold": (1.12, 1.0, 0.85)}[temperature]
    return {
        "direction": (math.cos(angle), math.sin(angle)),
        "gains": np.array(gains, np.float32),
        "brightness": rng.uniform(0.7, 1.2),
        "gradient": rng.uniform(0, 0.35),
        "blur": rng.random() < 0.15,
        "temperature": temperature,
    }


def apply_light(img: np.ndarray, light: dict, rng: np.random.Generator) -> np.ndarray:
    h, w = img.shape[:2]
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    dx, dy = light["direction"]
    ramp = ((xx / w - 0.5) * dx + (yy / h - 0.5) * dy) * light["gradient"] * 2
    img = img * (light["brightness"] * (1 + ramp))[..., None] * light["gains"][None, None, :]
    return img


def camera_effects(img: np.ndarray, rng: np.random.Generator, light: dict) -> np.ndarray:
    if light.get("blur"):
        length = int(rng.integers(3, 9))
        kernel = np.zeros((length, length), np.float32)
        kernel[length // 2, :] = 1 / length
        rot = cv2.getRotationMatrix2D((length / 2 - 0.5, length / 2 - 0.5), rng.uniform(0, 180), 1)
        kernel = cv2.warpAffine(kernel, rot, (length, length))
        img = cv2.filter2D(img, -1, kernel / max(kernel.sum(), 1e-6))
    img = img + rng.normal(0, rng.uniform(1, 5), img.shape).astype(np.float32)
    out = np.clip(img, 0, 255).astype(np.uint8)
    quality = int(rng.integers(55, 95))
    ok, buf = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, quality])
    return cv2.imdecode(buf, cv2.IMREAD_COLOR) if ok else out


def frame_size(rng: np.random.Generator) -> tuple[int, int]:
    """A camera's frame: 640 to 1280 wide, 0.56–0.78 as high as wide."""
    w = int(rng.integers(640, 1281))
    return w, int(w * rng.uniform(0.56, 0.78))


def sample_scene(
    rng: np.random.Generator,
    size: tuple[int, int] | None = None,
    count: int | None = None,
    colours: list[str] | None = None,
) -> Scene:
    """A whole random scene: 640×480 to 1280×720, 1–20 dice unless given."""
    w, h = size or frame_size(rng)
    poses = sample_poses(rng, w, h, count or int(rng.integers(1, 21)), colours)
    return render_scene(rng, w, h, poses)
