"""Render dice as real cubes seen through a phone or webcam lens: from straight above to
40° above the table (lower when asked), so the sides of the dice show (more so toward the
edges of a wide lens) and the reader learns which face is on top. Dice may be see-through.

A die is a unit cube on the table plane (z = 0, z up), turned about z. The camera is a
pinhole looking at the table's centre. Each visible face is a pip texture mapped onto its
projected corners by a homography and shaded by how much it faces the light; dice are drawn
far to near, after their shadows. The label of a die is the box round all its visible faces,
as a person labelling a photo draws it (seen from straight above, that is its top face).
"""

import math
from dataclasses import dataclass

import cv2
import numpy as np

from .busy import busy_table
from .chance import happens
from .focus import out_of_focus
from .glossy import Shine, paint_shiny_pips, sample_shine
from .marbled import Marbling, marbled_body, sample_marbling
from .palette import BODY_COLOURS, body_and_pips, pip_colour
from .scene import (
    PIP_LAYOUT,
    RenderedDie,
    Scene,
    apply_light,
    background,
    camera_effects,
    frame_size,
    sample_light,
)

#: the faces beside each top value, in order round the die (opposite faces add up to 7)
SIDES = {1: (2, 3, 5, 4), 2: (1, 3, 6, 4), 3: (1, 2, 6, 5), 4: (1, 5, 6, 2), 5: (1, 4, 6, 3), 6: (2, 4, 5, 3)}
TEXTURE = 64
#: a die whose top face is less than this share visible (hidden by a nearer die) is left out
VISIBLE_TOP = 0.75
#: degrees above the table of the lowest camera, unless a scene asks for another
LOWEST_CAMERA = 40.0
#: how wide a die at the centre of the picture is, as a share of its shorter side (low, high)
DIE_SHARE = (0.035, 0.15)
#: the share of cameras placed anywhere from the lowest to straight above (the rest near overhead)
SLANTED = 0.3
#: a Biggy's side, in sides of an ordinary die, and the share of rendered dice drawn as one
BIGGY_SIZE, BIGGY_SHARE = 1.35, 0.06
#: a die (or a group's first die) is placed at least this share of the picture's shorter side
#: from its edge
PLACING_MARGIN = 0.06
#: how many spots a grouped scene tries when the camera saw no table at any group's first spot
GROUP_START_TRIES = 20


@dataclass(frozen=True)
class Camera:
    rotation: np.ndarray  # world -> camera (rows: right, down, forward)
    position: np.ndarray  # in world units (die sides)
    focal: float  # pixels
    centre: tuple[float, float]

    def project(self, points: np.ndarray) -> np.ndarray:
        """N×3 world points -> N×2 pixels."""
        cam = (points - self.position) @ self.rotation.T
        z = np.maximum(cam[:, 2:3], 1e-6)
        return cam[:, :2] / z * self.focal + np.array(self.centre)

    def sees(self, corners: np.ndarray, normal: np.ndarray) -> bool:
        """Whether a face (4×3 corners, outward normal) is turned toward the camera."""
        return bool(np.dot(normal, self.position - corners.mean(axis=0)) > 0)

    def on_table(self, pixel: tuple[float, float]) -> np.ndarray | None:
        """Where the ray through ``pixel`` meets the table (z = 0), or None above the horizon."""
        ray_cam = np.array(
            [(pixel[0] - self.centre[0]) / self.focal, (pixel[1] - self.centre[1]) / self.focal, 1]
        )
        ray = self.rotation.T @ ray_cam
        if ray[2] >= -1e-6:
            return None
        return self.position + ray * (-self.position[2] / ray[2])


def sample_camera(
    rng: np.random.Generator,
    w: int,
    h: int,
    die_pixels: float,
    lowest: float = LOWEST_CAMERA,
    slanted: float = SLANTED,
) -> Camera:
    """A camera ``lowest``–90° above the table, with a 45–75° wide lens, placed so that a die
    at the centre of the picture is ``die_pixels`` wide. A ``slanted`` share of the cameras is
    anywhere in that range, the rest near 90°."""
    near_overhead = rng.random() < 1 - slanted
    elevation = math.radians(90 - abs(rng.normal(0, 22)) if near_overhead else rng.uniform(lowest, 90))
    elevation = max(elevation, math.radians(lowest))
    azimuth = rng.uniform(0, 2 * math.pi)
    focal = (w / 2) / math.tan(math.radians(rng.uniform(45, 75)) / 2)
    distance = focal / die_pixels
    direction = np.array(
        [
            math.cos(elevation) * math.cos(azimuth),
            math.cos(elevation) * math.sin(azimuth),
            math.sin(elevation),
        ]
    )
    position = direction * distance
    forward = -direction
    hint = np.array([math.cos(azimuth + math.pi / 2), math.sin(azimuth + math.pi / 2), 0.0])
    right = np.cross(forward, np.array([0.0, 0.0, 1.0]))
    right = right / np.linalg.norm(right) if np.linalg.norm(right) > 1e-3 else hint
    # a little roll, as a hand-held phone has
    roll = rng.normal(0, 0.1)
    down = np.cross(forward, right)
    right, down = (
        right * math.cos(roll) + down * math.sin(roll),
        -right * math.sin(roll) + down * math.cos(roll),
    )
    return Camera(np.stack([right, down, forward]), position, focal, (w / 2, h / 2))


@dataclass(frozen=True)
class Cube:
    x: float
    y: float
    angle: float
    pips: int
    colour: str
    size: float = 1.0  # a Biggy is larger
    turn: int = 0  # which of the four side arrangements faces where

    def faces(self, bottom: bool = False) -> list[tuple[np.ndarray, np.ndarray, int]]:
        """(4×3 corners, outward normal, value) of the five faces off the table (top first),
        and with ``bottom`` the face it rests on last."""
        c, s, half = math.cos(self.angle), math.sin(self.angle), self.size / 2
        u, v = np.array([c, s, 0.0]), np.array([-s, c, 0.0])
        up = np.array([0.0, 0.0, 1.0])
        centre = np.array([self.x, self.y, half])
        faces = [(up, u, v, self.pips)]
        sides = SIDES[self.pips][self.turn % 4 :] + SIDES[self.pips][: self.turn % 4]
        for normal, value in zip((u, v, -u, -v), sides, strict=True):
            across = np.cross(up, normal)
            faces.append((normal, across, -up, value))
        if bottom:
            faces.append((-up, u, -v, 7 - self.pips))
        out = []
        for normal, a, b, value in faces:
            mid = centre + normal * half
            corners = np.array(
                [
                    mid - a * half - b * half,
                    mid + a * half - b * half,
                    mid + a * half + b * half,
                    mid - a * half + b * half,
                ]
            )
            out.append((corners, normal, value))
        return out


def face_texture(
    value: int,
    body: np.ndarray,
    pip: np.ndarray,
    rng: np.random.Generator,
    shine: Shine | None = None,
    marbling: Marbling | None = None,
) -> tuple:
    """A TEXTURE×TEXTURE face: rounded edges darker, pips as discs (flat paint, or drilled and
    glossy when a ``shine`` is given), the body one colour or ``marbling``'s; and its alpha."""
    t = TEXTURE
    yy, xx = np.mgrid[0:t, 0:t].astype(np.float32) / (t - 1) * 2 - 1
    edge = np.maximum(np.abs(xx), np.abs(yy))
    bevel = np.clip((edge - 0.78) / 0.22, 0, 1)
    edge_shade = 1 - 0.35 * bevel[..., None] ** 2
    radius = rng.uniform(0.14, 0.22)
    corner = np.hypot(np.maximum(np.abs(xx) - (1 - radius), 0), np.maximum(np.abs(yy) - (1 - radius), 0))
    alpha = np.clip((radius - corner) * t / 2, 0, 1)
    pip_r = rng.uniform(0.15, 0.2)
    spread = rng.uniform(0.5, 0.58)
    turn = int(rng.integers(4))
    # the marbling draws after the pips' layout, so a marbled face keeps the plain one's pips
    surface = body[None, None, :] if marbling is None else marbled_body(body, marbling, t, rng)
    centres = []
    for px, py in PIP_LAYOUT[value]:
        for _ in range(turn):
            px, py = -py, px
        centres.append((int((px * spread + 1) * t), int((py * spread + 1) * t)))
    cover, colour = _pips(centres, pip_r * t, pip, shine)
    image = surface * edge_shade * (1 - cover) + colour
    return image.astype(np.float32), alpha.astype(np.float32)


def _pips(
    centres: list[tuple[int, int]], radius: float, pip: np.ndarray, shine: Shine | None
) -> tuple[np.ndarray, np.ndarray]:
    """The pips drawn at twice TEXTURE and shrunk to it: their coverage (TEXTURE×TEXTURE×1) and
    colour multiplied by it; flat discs of ``pip``, or glossy ones when a ``shine`` is given."""
    t = TEXTURE
    if shine is not None:
        colour, cover = paint_shiny_pips(t * 2, centres, radius, pip, shine)
        colour = cv2.resize(colour, (t, t), interpolation=cv2.INTER_AREA)
        return cv2.resize(cover, (t, t), interpolation=cv2.INTER_AREA)[..., None], colour
    mask = np.zeros((t * 2, t * 2), np.uint8)
    for centre in centres:
        cv2.circle(mask, centre, int(radius), 255, -1, cv2.LINE_AA)
    cover = cv2.resize(mask, (t, t), interpolation=cv2.INTER_AREA).astype(np.float32)[..., None] / 255
    return cover, pip[None, None, :] * cover


def _window(points: np.ndarray, w: int, h: int, pad: int = 2) -> tuple[int, int, int, int] | None:
    x0, y0 = np.floor(points.min(axis=0)).astype(int) - pad
    x1, y1 = np.ceil(points.max(axis=0)).astype(int) + pad
    x0, y0, x1, y1 = max(0, x0), max(0, y0), min(w, x1), min(h, y1)
    return (x0, y0, x1, y1) if x1 > x0 and y1 > y0 else None


def draw_cube(
    img: np.ndarray,
    cube: Cube,
    camera: Camera,
    light: np.ndarray,
    rng: np.random.Generator,
    see_through: bool = False,
    inked: float = 0.0,
    glossy: float = 0.0,
    marbled: float = 0.0,
) -> None:
    """Draw ``cube``'s faces the camera sees; a ``see_through`` (translucent) die first shows
    its far faces, their pips mirrored and faint, through the near ones; ``inked``: the share of
    dice with pips of a coloured ink (``palette.pip_colour``); ``glossy``: the share of dice
    whose pips are drilled and catch the light (``glossy.py``); ``marbled``: the share of dice
    whose body is marbled or glittered (``marbled.py``)."""
    h, w = img.shape[:2]
    body, pip = (np.array(c, np.float32) for c in body_and_pips(cube.colour))
    body = np.clip(body * rng.uniform(0.85, 1.12) + rng.normal(0, 6, 3), 0, 255)
    pip = pip_colour(body, pip, rng, inked)
    shine = sample_shine(rng) if happens(rng, glossy) else None
    marbling = sample_marbling(rng) if happens(rng, marbled) else None
    ambient, diffuse = rng.uniform(0.45, 0.65), rng.uniform(0.35, 0.6)
    src = np.float32([[0, 0], [TEXTURE - 1, 0], [TEXTURE - 1, TEXTURE - 1], [0, TEXTURE - 1]])
    near_opacity, far_opacity = (rng.uniform(0.6, 0.85), rng.uniform(0.4, 0.7)) if see_through else (1.0, 0.0)
    faces = [(c, n, value, camera.sees(c, n)) for c, n, value in cube.faces(bottom=see_through)]
    faces.sort(key=lambda face: face[3])  # far faces first, each group in its own order
    for corners, normal, value, seen in faces:
        if not seen and not see_through:
            continue
        quad = camera.project(corners).astype(np.float32)
        box = _window(quad, w, h)
        if box is None:
            continue
        x0, y0, x1, y1 = box
        texture, alpha = face_texture(value, body, pip, rng, shine, marbling)
        shade = ambient + diffuse * max(0.0, float(np.dot(normal, light))) if seen else ambient
        matrix = cv2.getPerspectiveTransform(src, quad - np.float32([x0, y0]))
        size = (x1 - x0, y1 - y0)
        face = cv2.warpPerspective(texture * shade, matrix, size, flags=cv2.INTER_LINEAR)
        a = cv2.warpPerspective(alpha, matrix, size, flags=cv2.INTER_LINEAR)[..., None]
        if see_through:
            a = a * (near_opacity if seen else far_opacity)
        part = img[y0:y1, x0:x1]
        part[:] = part * (1 - a) + face * a
        if not seen:
            continue
        if value == cube.pips and rng.random() < 0.25:  # glare on the top face
            gx, gy = rng.uniform(0.25, 0.75, 2) * np.array(size)
            yy, xx = np.mgrid[0 : size[1], 0 : size[0]].astype(np.float32)
            sigma = max(1.0, min(size) * rng.uniform(0.1, 0.25))
            glare = np.exp(-((xx - gx) ** 2 + (yy - gy) ** 2) / (2 * sigma**2))[..., None] * a
            part += glare * rng.uniform(50, 140)


def draw_shadow(img: np.ndarray, cube: Cube, camera: Camera, light: np.ndarray) -> None:
    base = cube.faces()[0][0] - np.array([0, 0, cube.size])  # the top face, dropped to the table
    reach = -light[:2] / max(light[2], 0.2) * cube.size
    points = np.concatenate([base, base + np.array([reach[0], reach[1], 0])])
    pixels = camera.project(points).astype(np.float32)
    h, w = img.shape[:2]
    box = _window(pixels, w, h, pad=12)
    if box is None:
        return
    x0, y0, x1, y1 = box
    mask = np.zeros((y1 - y0, x1 - x0), np.float32)
    hull = cv2.convexHull(pixels - np.float32([x0, y0])).astype(np.int32)
    cv2.fillConvexPoly(mask, hull, 1.0, cv2.LINE_AA)
    mask = cv2.GaussianBlur(mask, (0, 0), max(1.0, float(np.ptp(pixels[:4, 0])) * 0.08))
    img[y0:y1, x0:x1] *= 1 - 0.5 * mask[..., None]


def die_size(rng: np.random.Generator) -> float:
    """The side of the next rendered die: a Biggy's now and then, else an ordinary one's."""
    return BIGGY_SIZE if rng.random() < BIGGY_SHARE else 1.0


def spot_in_view(rng: np.random.Generator, camera: Camera, w: int, h: int) -> np.ndarray | None:
    """A random point of the table seen in the picture, away from its edge (None when the
    camera sees no table there)."""
    margin = PLACING_MARGIN * min(w, h)
    return camera.on_table((rng.uniform(margin, w - margin), rng.uniform(margin, h - margin)))


def place_cubes(
    rng: np.random.Generator, camera: Camera, w: int, h: int, count: int, colours: list[str] | None
) -> list[Cube]:
    """Dice at random places in view with their whole top face in the picture, not overlapping
    (touching allowed)."""
    names = colours or list(BODY_COLOURS)
    cubes: list[Cube] = []
    for _ in range(count * 30):
        if len(cubes) == count:
            break
        spot = spot_in_view(rng, camera, w, h)
        if spot is None:
            continue
        size = die_size(rng)
        if any(math.hypot(spot[0] - c.x, spot[1] - c.y) < (size + c.size) * 0.72 for c in cubes):
            continue
        cube = Cube(
            float(spot[0]),
            float(spot[1]),
            rng.uniform(0, math.pi / 2),
            int(rng.integers(1, 7)),
            str(names[rng.integers(len(names))]),
            size,
            int(rng.integers(4)),
        )
        if top_inside(cube, camera, w, h):  # a die cut by the frame's edge is not drawn
            cubes.append(cube)
    return cubes


def footprint(cube: Cube) -> np.ndarray:
    """The 4×2 corners on the table of the square a cube stands on."""
    return cube.faces(bottom=True)[-1][0][:, :2].astype(np.float32)


def overlap(a: Cube, b: Cube) -> bool:
    """Whether two cubes would stand in each other (touching is not overlapping)."""
    if math.hypot(a.x - b.x, a.y - b.y) > (a.size + b.size) * 0.75:
        return False
    area, _ = cv2.intersectConvexConvex(footprint(a), footprint(b))
    return area > 1e-3


def place_groups(
    rng: np.random.Generator, camera: Camera, w: int, h: int, count: int, colours: list[str] | None
) -> list[Cube]:
    """Dice pushed together in one to four groups, as they lie on a casino or after a roll that
    clumped: each die stands beside one already in its group, touching it or nearly (0–25 % of
    a side apart), mostly square to it in a row or block, never standing in another. Most dice
    of a group share its colour, and half the groups show one value (a casino's dice). A group
    whose first die does not fit where it was to start (too near the edge, or on another group)
    starts somewhere else.

    A start drawn once left about 6 % of grouped scenes with a close camera with no die; scenes
    where every first die fits render as they would with one draw."""
    names = colours or list(BODY_COLOURS)
    anchors: list[tuple[float, float, float]] = []  # where each group starts, and its turn
    for _ in range(int(rng.integers(1, min(4, count) + 1))):
        if (start := group_start(rng, camera, w, h)) is not None:
            anchors.append(start)
    for _ in range(GROUP_START_TRIES if count and not anchors else 0):
        if (start := group_start(rng, camera, w, h)) is not None:
            anchors.append(start)
            break
    looks = [
        (str(names[rng.integers(len(names))]), int(rng.integers(1, 7)) if rng.random() < 0.5 else 0)
        for _ in anchors
    ]
    members: list[list[Cube]] = [[] for _ in anchors]
    cubes: list[Cube] = []
    for _ in range(count * 30 if anchors else 0):
        if len(cubes) == count:
            break
        index = int(rng.integers(len(anchors)))
        (colour, value), size = looks[index], die_size(rng)
        square = rng.random() < 0.6
        if members[index]:
            neighbour = members[index][int(rng.integers(len(members[index])))]
            side = neighbour.angle + int(rng.integers(4)) * math.pi / 2 + rng.normal(0, 0.05)
            direction = side if square else rng.uniform(0, 2 * math.pi)
            gap = (neighbour.size + size) / 2 * rng.uniform(1.0, 1.25)
            x, y = neighbour.x + gap * math.cos(direction), neighbour.y + gap * math.sin(direction)
            turn = neighbour.angle
        else:
            x, y, turn = anchors[index]
        cube = Cube(
            x,
            y,
            turn + rng.normal(0, 0.05) if square else rng.uniform(0, math.pi / 2),
            value or int(rng.integers(1, 7)),
            colour if rng.random() < 0.7 else str(names[rng.integers(len(names))]),
            size,
            int(rng.integers(4)),
        )
        if top_inside(cube, camera, w, h) and not any(overlap(cube, other) for other in cubes):
            members[index].append(cube)
            cubes.append(cube)
        elif not members[index]:
            anchors[index] = group_start(rng, camera, w, h) or anchors[index]
    return cubes


def group_start(
    rng: np.random.Generator, camera: Camera, w: int, h: int
) -> tuple[float, float, float] | None:
    """Where on the table a group of dice starts, and its turn: a spot seen in the picture, away
    from its edge (None when the camera sees no table there)."""
    spot = spot_in_view(rng, camera, w, h)
    if spot is None:
        return None
    return float(spot[0]), float(spot[1]), rng.uniform(0, math.pi / 2)


def visible_tops(cubes: list[Cube], camera: Camera, w: int, h: int) -> list[bool]:
    """For each cube, whether enough of its top face is left once nearer dice are drawn."""
    order = sorted(range(len(cubes)), key=lambda i: -distance(cubes[i], camera))
    owner = np.full((h, w), -1, np.int32)
    top_area = {}
    for i in order:  # far to near, as they are drawn
        faces = cubes[i].faces()
        for corners, normal, _ in faces:
            if camera.sees(corners, normal):
                cv2.fillConvexPoly(owner, camera.project(corners).astype(np.int32), i)
        top = np.zeros((h, w), np.uint8)
        cv2.fillConvexPoly(top, camera.project(faces[0][0]).astype(np.int32), 1)
        top_area[i] = (top, max(1, int(top.sum())))
    return [
        int(((owner == i) & (top_area[i][0] > 0)).sum()) >= VISIBLE_TOP * top_area[i][1]
        for i in range(len(cubes))
    ]


def top_inside(cube: Cube, camera: Camera, w: int, h: int) -> bool:
    """Whether the whole top face is in the picture (a die cut by the frame's edge is left out)."""
    top = camera.project(cube.faces()[0][0])
    return bool((top.min(axis=0) >= 0).all() and top[:, 0].max() < w and top[:, 1].max() < h)


def outline(cube: Cube, camera: Camera, w: int, h: int) -> tuple[int, int, int, int]:
    """The box (x, y, w, h) round every face of ``cube`` the camera sees, within the picture."""
    seen = [camera.project(corners) for corners, normal, _ in cube.faces() if camera.sees(corners, normal)]
    points = np.concatenate(seen)
    x0, y0 = np.clip(points.min(axis=0), 0, [w, h])
    x1, y1 = np.clip(points.max(axis=0), 0, [w, h])
    return int(x0), int(y0), int(math.ceil(x1 - x0)), int(math.ceil(y1 - y0))


def distance(cube: Cube, camera: Camera) -> float:
    return float(np.linalg.norm(np.array([cube.x, cube.y, cube.size / 2]) - camera.position))


@dataclass(frozen=True)
class LensOptions:
    """How lens scenes are drawn: where the camera may stand, how large the dice are, and the
    share of scenes (or of dice) that get each look. The defaults are plain dice on a plain
    table; ``make_dataset``'s options of the same names set them."""

    #: degrees above the table of the lowest camera
    lowest: float = LOWEST_CAMERA
    #: share of cameras anywhere from ``lowest`` to 90° (the rest near overhead)
    slanted: float = SLANTED
    #: how wide a die at the centre is, as a share of the frame's shorter side (low, high)
    die_share: tuple[float, float] = DIE_SHARE
    #: share of scenes whose dice are pushed together in touching groups (``place_groups``)
    grouped: float = 0.0
    #: share of scenes on a speckled, printed or cluttered table (``busy.py``)
    busy: float = 0.0
    #: share of pictures partly out of focus (``focus.py``)
    defocus: float = 0.0
    #: share of dice that are see-through
    translucent: float = 0.0
    #: share of dice with pips of a coloured ink (gold, silver, red, blue, green)
    inked: float = 0.0
    #: share of dice whose drilled pips catch the light (``glossy.py``)
    glossy: float = 0.0
    #: share of dice with marbled or glittered bodies (``marbled.py``)
    marbled: float = 0.0


#: plain dice on a plain table, through the default lens
PLAIN_LENS = LensOptions()


def sample_perspective_scene(
    rng: np.random.Generator,
    size: tuple[int, int] | None = None,
    count: int | None = None,
    colours: list[str] | None = None,
    options: LensOptions = PLAIN_LENS,
) -> Scene:
    """A random scene of 1–25 dice (``count`` when given, of ``colours`` when given), 640×480 to
    1280×720 unless ``size`` is given, through a random lens drawn as ``options`` say."""
    w, h = size or frame_size(rng)
    die_pixels, camera = sample_lens(rng, w, h, options)
    place = place_groups if happens(rng, options.grouped) else place_cubes
    cubes = place(rng, camera, w, h, count or int(rng.integers(1, 26)), colours)
    return render_cubes(rng, camera, (w, h), cubes, die_pixels, options)


def sample_lens(rng: np.random.Generator, w: int, h: int, options: LensOptions) -> tuple[float, Camera]:
    """How wide a die at the centre of a ``w``×``h`` picture is (pixels), and a camera placed as
    ``options`` say."""
    die_pixels = min(w, h) * rng.uniform(*options.die_share)
    return die_pixels, sample_camera(rng, w, h, die_pixels, options.lowest, options.slanted)


#: how high a lamp stands over the table (lowest, highest): its shadows' length
LAMP_HEIGHT = (0.5, 1.8)


@dataclass(frozen=True)
class TableLook:
    """One table under one lamp: its cloth (the bare table as the camera sees it, before the
    light) and the lamp, shared by every picture taken of that table."""

    cloth: np.ndarray  # h×w×3 float32
    light: dict
    #: how high the lamp stands over the table (its shadows' length)
    height: float


def sample_table_look(
    rng: np.random.Generator, size: tuple[int, int], die_pixels: float, options: LensOptions = PLAIN_LENS
) -> TableLook:
    """A random table of ``size`` under a random lamp (a patterned cloth as often as ``options.busy``)."""
    w, h = size
    light = sample_light(rng)
    height = rng.uniform(*LAMP_HEIGHT)
    if happens(rng, options.busy):
        cloth = busy_table(rng, w, h, die_pixels)
    else:
        cloth = background(rng, w, h).astype(np.float32)
    return TableLook(cloth, light, height)


def render_cubes(
    rng: np.random.Generator,
    camera: Camera,
    size: tuple[int, int],
    cubes: list[Cube],
    die_pixels: float,
    options: LensOptions = PLAIN_LENS,
    table: TableLook | None = None,
) -> Scene:
    """The picture ``camera`` takes of ``cubes`` on a table of ``size``, on ``table`` (None: a
    random table under a random light); the dice whose top face nearer dice hide are left out
    (neither drawn nor labelled). Of ``options`` the looks count here (busy, defocus,
    translucent, inked, glossy, marbled)."""
    w, h = size
    cubes = [c for c, seen in zip(cubes, visible_tops(cubes, camera, w, h), strict=True) if seen]
    table = table or sample_table_look(rng, size, die_pixels, options)
    light = table.light
    lx, ly = light["direction"]
    direction = np.array([lx, ly, table.height]) / math.hypot(1.0, table.height)
    img = table.cloth.copy()
    for cube in cubes:
        draw_shadow(img, cube, camera, direction)
    dice = []
    for cube in sorted(cubes, key=lambda c: -distance(c, camera)):
        see_through = happens(rng, options.translucent)
        draw_cube(
            img, cube, camera, direction, rng, see_through, options.inked, options.glossy, options.marbled
        )
        dice.append(RenderedDie(outline(cube, camera, w, h), cube.pips, cube.colour, cube.size > 1))
    img = apply_light(img, light, rng)
    if happens(rng, options.defocus):
        img = out_of_focus(img, rng, die_pixels)
    return Scene(camera_effects(img, rng, light), dice)
