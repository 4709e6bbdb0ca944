"""HEIC/HEIF photos, an iPhone's default format, which OpenCV cannot decode.

pi-heif (libheif with only its decoder) decodes them. libheif turns the picture as the file says
(its rotation and mirror properties, which an iPhone writes for a photo taken upright), so the
frame is the picture as a viewer shows it, like a JPEG turned by its EXIF orientation.
"""

from pathlib import Path

import numpy as np


class HeicError(ValueError):
    """A HEIC file that cannot be decoded here; the message says why and what to do."""


def read_heic(path: Path) -> np.ndarray:
    """The photo in ``path`` as an 8-bit BGR frame, turned the way up it is shown."""
    try:
        import pi_heif
    except ImportError:
        raise HeicError(
            f"{path} is a HEIC photo; reading it needs pi-heif (python3 -m pip install pi-heif), "
            "or save it as JPEG first"
        ) from None
    try:
        picture = pi_heif.open_heif(str(path), convert_hdr_to_8bit=True)
        pixels = np.asarray(picture)
    except (ValueError, RuntimeError, OSError):  # pi-heif raises these for damaged files
        raise HeicError(
            f"{path} is a HEIC file that cannot be decoded: it is cut short or damaged; copy it again"
        ) from None
    if pixels.ndim == 2:  # a monochrome picture
        pixels = np.repeat(pixels[:, :, None], 3, axis=2)
    # RGB or RGBA in pi-heif's order; the reader takes BGR without alpha
    return np.ascontiguousarray(pixels[:, :, 2::-1])
