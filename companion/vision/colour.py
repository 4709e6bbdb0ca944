"""Die colour, read from the die's body (not its pips), corrected for the light by the brightest dice pixels.

Without calibration a default palette names the colour by hue, chroma, lightness and pip
polarity (white and yellow dice have dark pips; grey and black dice light ones). With a
calibration, the nearest learned colour wins, unless nothing learned is close: then the
default palette answers. ``other`` means unsure.
"""

from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np

from ..rules.colours import PLAYER_COLOURS

#: the game's colours the palette names: all but orange, whose dice it reads red (the roller's
#: hand names them: ``camera_game.roll_colours``)
PALETTE = tuple(colour for colour in PLAYER_COLOURS if colour != "orange")
OTHER = "other"

#: CIELAB hue angle (degrees) of each chromatic colour's body, and how far it may stray
HUES = {
    "red": (35.0, 28.0),
    "yellow": (92.0, 22.0),
    "green": (150.0, 40.0),
    "blue": (275.0, 32.0),
    "violet": (320.0, 24.0),
}
#: the hue (degrees) of each colour a body may lean to (``lean_to``): the palette's, and orange,
#: a player colour of the tablet page the palette has no name for (orange dice read red). Orange
#: dice measure hue 41–48 in real photos after the light's correction, 51–68 rendered; red ones
#: 20–40 in real photos
LEAN_HUES = {name: centre for name, (centre, _) in HUES.items()} | {"orange": 55.0}
NEUTRAL_CHROMA = 24.0
#: a light body in red's hues is neutral only below this chroma: dusty red dice under a purple
#: cloth measure 19–23 at hue 349–25, while no white or grey die there measures above 17
#: (rendered) or 11 (real photos)
RED_NEUTRAL_CHROMA, RED_HUES_FROM, RED_HUES_TO = 18.0, 345.0, 30.0
#: what the brightest dice pixels are corrected to (8-bit)
REFERENCE_WHITE = 235.0
#: the least and most a channel is multiplied by to make the brightest dice pixels white
GAIN_LEAST, GAIN_MOST = 0.75, 1.6
#: a dim picture, its brightest dice pixels under DIM_BRIGHTEST, is first lifted evenly to that
#: brightness (at most ×MOST_LIFT; the gains above then apply, so ×4 in all), or its white dice
#: read grey or black; under BRIGHTEST_FLOOR it is left as it is (nothing there to correct by).
#: Figures: docs/decisions.md, "The palette's thresholds are measured"
DIM_BRIGHTEST = REFERENCE_WHITE / GAIN_MOST
MOST_LIFT, BRIGHTEST_FLOOR = 2.5, 20.0
#: brightest dice pixels under this stay far from white even lifted and corrected (×4 in all: at
#: most 200): the dice are too dark for their colours to be told for sure (docs/decisions.md, as
#: ``DIM_BRIGHTEST``)
TOO_DARK_BRIGHTEST = 50.0
#: the brightest dice pixels are taken for white under a coloured light while their channels part
#: by at most this share of the brightest channel; past it they are coloured (a table of yellow dice)
NEUTRAL_SPREAD = 0.35
#: lightness (0–100, after exposure correction) from which a neutral die is white (dark pips
#: make white likelier: white dice have dark pips, grey and black dice usually light ones),
#: and from which it is grey rather than black
WHITE_FROM_DARK_PIPS, WHITE_FROM_LIGHT_PIPS, GREY_FROM = 62.0, 80.0, 32.0
#: a dark body (L below GREY_FROM) is only black below this chroma: black dice in real photos
#: measure 14 or less (under a purple cast too), dark translucent red dice 15–34
BLACK_CHROMA = 19.0
#: a light, weakly coloured body with dark pips on the orange side of yellow is an ivory
#: (white) die in warm light, not a yellow one: ivory dice in real photos measure chroma 28–39
#: at hue 69–90, yellow dice chroma 40–67; under a warm lamp the balance cannot correct, white
#: dice 41–49 and yellow ones 57–66 (docs/decisions.md, as ``DIM_BRIGHTEST``)
IVORY_FROM, IVORY_CHROMA, IVORY_HUE = 65.0, 50.0, 86.0


@dataclass(frozen=True)
class BodyReading:
    """A die's body colour in CIELAB (L 0–100, a, b) and whether its pips are darker."""

    lab: tuple[float, float, float]
    dark_pips: bool

    @property
    def chroma(self) -> float:
        return float(np.hypot(self.lab[1], self.lab[2]))

    @property
    def hue(self) -> float:
        return float(np.degrees(np.arctan2(self.lab[2], self.lab[1])) % 360)


def lean_to(tint: tuple[float, float], colour: str) -> float:
    """How far a body's CIELAB a and b lean to a colour of ``LEAN_HUES`` (along its hue; negative:
    away from it)."""
    hue = np.radians(LEAN_HUES[colour])
    return float(tint[0] * np.cos(hue) + tint[1] * np.sin(hue))


def white_balance_gains(frame: np.ndarray, boxes: Sequence[tuple[float, float, float, float]]) -> np.ndarray:
    """Per-channel gains that make the brightest dice pixels (white pips or white bodies) a
    neutral near-white: this corrects both the light's colour and the exposure.

    The colour is only corrected when those pixels are already nearly neutral, so a table of
    yellow dice is not turned white; then only the exposure is. A dim picture is lifted evenly
    first (``MOST_LIFT``), so its colour is corrected no more than a well-lit one's."""
    mean = brightest_dice_pixels(frame, boxes)
    if mean is None or mean.max() < BRIGHTEST_FLOOR:
        return np.ones(3, np.float32)
    lift = float(np.clip(DIM_BRIGHTEST / mean.max(), 1.0, MOST_LIFT))  # 1: not a dim picture
    mean = mean * lift
    spread = (mean.max() - mean.min()) / mean.max()
    if spread > NEUTRAL_SPREAD:  # the brightest things are clearly coloured: correct the exposure only
        return np.full(3, lift * np.clip(REFERENCE_WHITE / mean.max(), GAIN_LEAST, GAIN_MOST), np.float32)
    return (lift * np.clip(REFERENCE_WHITE / np.maximum(mean, 1), GAIN_LEAST, GAIN_MOST)).astype(np.float32)


def brightest_dice_pixels(
    frame: np.ndarray, boxes: Sequence[tuple[float, float, float, float]]
) -> np.ndarray | None:
    """The mean BGR of the brightest 3 % of the dice's face pixels (None: no dice)."""
    pixels = [_face(frame, box).reshape(-1, 3) for box in boxes]
    pixels = [p for p in pixels if len(p)]
    if not pixels:
        return None
    allpix = np.concatenate(pixels).astype(np.float32)
    brightness = allpix.sum(axis=1)
    return allpix[brightness >= np.percentile(brightness, 97)].mean(axis=0)


def too_dark_for_colour(frame: np.ndarray, boxes: Sequence[tuple[float, float, float, float]]) -> bool:
    """Whether the dice in ``boxes`` are too dark for their colours to be told for sure."""
    mean = brightest_dice_pixels(frame, boxes)
    return mean is not None and float(mean.max()) < TOO_DARK_BRIGHTEST


#: a region of light pixels this share of a face sample, reaching this far across it, is the
#: body of a light die (its top face lit, its sides and pips darker), not light pips
LIT_FACE_SHARE, LIT_FACE_ACROSS = 0.2, 0.95

#: a face wider than this is read from every n-th pixel (the medians need no more)
FACE_SAMPLE_SIDE = 64


def _face(frame: np.ndarray, box: tuple[float, float, float, float], keep: float = 0.7) -> np.ndarray:
    """The middle of the box: the top face without the table or the die's sides (every n-th
    pixel of a large face)."""
    x, y, w, h = box
    cx, cy = x + w / 2, y + h / 2
    hw, hh = w * keep / 2, h * keep / 2
    x0, y0 = max(0, int(cx - hw)), max(0, int(cy - hh))
    x1, y1 = min(frame.shape[1], int(cx + hw) + 1), min(frame.shape[0], int(cy + hh) + 1)
    step = max(1, max(x1 - x0, y1 - y0) // FACE_SAMPLE_SIDE)
    return frame[y0:y1:step, x0:x1:step]


def read_body(
    frame: np.ndarray, box: tuple[float, float, float, float], gains: np.ndarray | None = None
) -> BodyReading | None:
    """Separate pips from body by lightness (two clusters; the body is the larger one, or the
    light one when it is a face reaching across the sample)."""
    face = _face(frame, box)
    if face.size < 12:
        return None
    pixels = face.reshape(-1, 3).astype(np.float32)
    if gains is not None:
        pixels = np.clip(pixels * gains[None, :], 0, 255)
    lab = cv2.cvtColor(pixels.reshape(-1, 1, 3).astype(np.uint8), cv2.COLOR_BGR2LAB).reshape(-1, 3)
    lab = lab.astype(np.float32)
    lightness = lab[:, 0]
    low, high = np.percentile(lightness, 10), np.percentile(lightness, 90)
    threshold = (low + high) / 2
    dark = lightness < threshold
    if high - low < 25:  # no visible pips in the middle (a 1 seen small, or blur): all body
        body = lab
        dark_pips = lightness.mean() > 128
    else:
        body_is_light = (~dark).sum() >= dark.sum() or lit_face_across(~dark.reshape(face.shape[:2]))
        body = lab[~dark] if body_is_light else lab[dark]
        dark_pips = bool(body_is_light)
    core = body[np.abs(body[:, 0] - np.median(body[:, 0])) <= 2 * body[:, 0].std() + 1]
    L, a, b = np.median(core if len(core) else body, axis=0)
    return BodyReading((float(L) * 100 / 255, float(a) - 128, float(b) - 128), dark_pips)


def lit_face_across(light: np.ndarray) -> bool:
    """Whether the light pixels of a face sample hold one region that reaches across it (in
    width or height) and covers a fifth of it: the lit top face of a light die seen at an angle,
    its shaded sides and pips outnumbering it. Light pips never reach across a face."""
    count, _, stats, _ = cv2.connectedComponentsWithStats(light.astype(np.uint8), connectivity=4)
    if count < 2:
        return False
    region = stats[1 + int(np.argmax(stats[1:, cv2.CC_STAT_AREA]))]
    height, width = light.shape
    across = max(region[cv2.CC_STAT_WIDTH] / width, region[cv2.CC_STAT_HEIGHT] / height)
    return bool(region[cv2.CC_STAT_AREA] >= LIT_FACE_SHARE * light.size and across >= LIT_FACE_ACROSS)


def palette_colour(reading: BodyReading) -> tuple[str, float]:
    """Name a body colour from the default palette, with a confidence 0–1."""
    L, chroma = reading.lab[0], reading.chroma
    if chroma < neutral_chroma(reading):
        if (WHITE_FROM_DARK_PIPS if reading.dark_pips else WHITE_FROM_LIGHT_PIPS) <= L:
            return "white", 0.9 if reading.dark_pips else 0.6
        if L < GREY_FROM:
            return "black", 0.9 if not reading.dark_pips else 0.6
        return "grey", 0.8
    hue = reading.hue
    best, best_distance, tolerance = OTHER, 360.0, 0.0
    for name, (centre, spread) in HUES.items():
        distance = abs((hue - centre + 180) % 360 - 180)
        if distance < best_distance:
            best, best_distance, tolerance = name, distance, spread
    if best_distance > tolerance * 1.6:
        return OTHER, 0.3
    if best == "yellow" and looks_ivory(reading):
        return "white", 0.6
    confidence = 1.0 - 0.5 * best_distance / (tolerance * 1.6)
    if chroma < NEUTRAL_CHROMA * 1.4:
        confidence *= 0.7
    return best, float(confidence)


def neutral_chroma(reading: BodyReading) -> float:
    """The chroma below which a body is white, grey or black rather than coloured."""
    if reading.lab[0] < GREY_FROM:
        return BLACK_CHROMA
    if reading.hue >= RED_HUES_FROM or reading.hue <= RED_HUES_TO:
        return RED_NEUTRAL_CHROMA
    return NEUTRAL_CHROMA


def looks_ivory(reading: BodyReading) -> bool:
    """A light, weakly coloured body with dark pips, on the orange side of yellow."""
    L, chroma = reading.lab[0], reading.chroma
    return reading.dark_pips and L >= IVORY_FROM and chroma < IVORY_CHROMA and reading.hue < IVORY_HUE
