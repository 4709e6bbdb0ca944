"""What the vision commands share: building a reader from the command line's options."""

import argparse
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

from ..vision.picture_file import PICTURE_SUFFIXES, jpeg_cut_short, kind_of
from ..words import counted
from . import CommandError
from .parser import add_whole_frame_option, share, whole_number

if TYPE_CHECKING:
    from ..vision import DiceReader


def add_model_options(parser: argparse.ArgumentParser) -> None:
    """--model and --pip-model: other ONNX files than the two the package ships."""
    parser.add_argument("--model", type=Path, help="an ONNX dice model (default: the shipped dicenet.onnx)")
    parser.add_argument("--pip-model", type=Path, help="an ONNX pip model (default: the shipped pipnet.onnx)")


def add_reader_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--calibration", type=Path, help="a calibration file from `companion calibrate`")
    add_model_options(parser)
    parser.add_argument(
        "--threads", type=whole_number(1), default=2, help="CPU threads for the model (default 2)"
    )
    parser.add_argument(
        "--threshold",
        type=share,
        help="the detector's score that counts as a die (default: the reader's, 0.4)",
    )
    add_whole_frame_option(parser)


def table_calibration(given: Path | None, camera: int | None, source: str | None) -> tuple[Path | None, str]:
    """The calibration file the camera loop reads with, and a note for the player: the one
    ``given``; else a sample's own (``SOURCE/calibration.json``: a sample is read with the table
    it was recorded on); else the table's (calibrate's and the setup page's default file), for a
    camera or a recording alike, when there is one."""
    from ..vision.calibration import DEFAULT_FILE

    if given is not None:
        return given, ""
    if source and (Path(source) / "calibration.json").exists():
        return Path(source) / "calibration.json", ""  # a sample carries its own table calibration
    if (camera is not None or source) and DEFAULT_FILE.exists():
        return (
            DEFAULT_FILE,
            f"Using this table's calibration in {DEFAULT_FILE} (--calibration names another).",
        )
    return None, ""


def build_reader(
    calibration: Path | None = None,
    model: Path | None = None,
    pip_model: Path | None = None,
    threads: int = 2,
    threshold: float | None = None,
    whole_frame: bool = False,
) -> "DiceReader":
    """A DiceReader (None: the shipped models, the reader's own threshold), or a CommandError
    saying what is missing."""
    from ..vision import Calibration, CalibrationError, DiceReader, ModelError
    from ..vision.detector import DEFAULT_THRESHOLD, FOCUS_MOST

    try:
        return DiceReader(
            model,
            Calibration.load(calibration) if calibration else None,
            threads=threads,
            threshold=DEFAULT_THRESHOLD if threshold is None else threshold,
            pip_model_path=pip_model,
            focus_most=None if whole_frame else FOCUS_MOST,
        )
    except (CalibrationError, ModelError) as err:
        raise CommandError(str(err)) from None


def reader_for(args: argparse.Namespace) -> "DiceReader":
    """The reader a command's options (``add_reader_options``, or some of them) ask for."""
    return build_reader(
        getattr(args, "calibration", None),
        args.model,
        args.pip_model,
        args.threads,
        getattr(args, "threshold", None),
        getattr(args, "whole_frame", False),
    )


def pictures_in(paths: list[Path]) -> list[Path]:
    """The paths given, each folder among them replaced by the pictures in it (by name, not its
    subfolders; hidden files left out). A folder with no picture stays, and reads as an error."""
    expanded = []
    for path in paths:
        if not path.is_dir():
            expanded.append(path)
            continue
        inside = sorted(
            child
            for child in path.iterdir()
            if child.is_file() and not child.name.startswith(".") and child.suffix.lower() in PICTURE_SUFFIXES
        )
        expanded.extend(inside or [path])
    return expanded


class Picture(NamedTuple):
    """A picture file read once: the frame, or why there is none; and what is wrong with a frame
    that could be read only in part."""

    image: Any  # BGR ndarray, or None
    problem: str | None = None
    warning: str | None = None


#: a JPEG file that ends before its picture does: the decoder paints the rest grey and says nothing
CUT_SHORT = (
    "the file ends before the picture does (cut short while copying?): dice in the missing part are not read"
)


def load_image(path: Path) -> Picture:
    """Read a picture file, turned as a viewer shows it (by a JPEG's EXIF orientation, a HEIC
    photo's rotation).

    ``cv2.imread``, not ``imdecode`` of the bytes: imread decodes a JPEG cut short as far as it
    goes, imdecode refuses it. What OpenCV does not read, a HEIC photo, pi-heif does. The file's
    first bytes say what is wrong with it; a JPEG's are all read again to find where its picture
    ends."""
    import cv2

    from ..vision.heic import HeicError, read_heic
    from ..vision.native_noise import native_stderr_silenced
    from ..vision.quality import unreadable

    if not path.exists():
        if any(wildcard in path.name for wildcard in "*?["):  # a shell pattern that matched nothing
            return Picture(None, f"no file matches {path}")
        if (address := web_address(path)) is not None:
            return Picture(
                None, f"{address} is a web address; the reader reads picture files: download it first"
            )
        return Picture(None, f"no such file: {path}")
    if path.is_dir():
        if pictures_in([path]) == [path]:
            subfolders = sorted(child.name for child in path.iterdir() if child.is_dir())
            hint = f"; its subfolders are not read: name them ({', '.join(subfolders)})" if subfolders else ""
            return Picture(
                None, f"{path} is a folder with no pictures in it ({', '.join(PICTURE_SUFFIXES)}){hint}"
            )
        return Picture(None, f"{path} is a folder, not a picture: name one picture in it")
    with native_stderr_silenced():  # libjpeg's "Premature end of JPEG file": CUT_SHORT says it
        image = cv2.imread(str(path), cv2.IMREAD_COLOR)
    with path.open("rb") as file:
        head = file.read(16)
    if image is None and head and is_heic(path, head):
        try:
            image = read_heic(path)
        except HeicError as err:
            return Picture(None, str(err))
    if image is None:
        return Picture(None, why_unreadable(path, head))
    problem = unreadable(image)
    if problem is not None:
        return Picture(None, f"{path}: {problem}")
    cut_short = kind_of(head) == "JPEG" and jpeg_cut_short(path.read_bytes())
    return Picture(image, warning=CUT_SHORT if cut_short else None)


def web_address(path: Path) -> str | None:
    """The web address a path was typed as (``Path`` keeps one slash of ``https://``), or None."""
    scheme, _, rest = str(path).partition(":/")
    if rest and scheme.lower() in ("http", "https", "ftp"):
        return f"{scheme}://{rest}"
    return None


def is_heic(path: Path, head: bytes) -> bool:
    """Whether the file (starting with ``head``) is a HEIC photo, by its first bytes or, when they
    are of no kind known here, by its name."""
    kind = kind_of(head)
    return kind == "HEIC" or (kind in (None, "video") and path.suffix.lower() in (".heic", ".heif"))


def why_unreadable(path: Path, head: bytes) -> str:
    """What to tell a player whose file (starting with ``head``) could not be decoded."""
    if not head:
        return f"{path} is empty (0 bytes): copy the picture again"
    kind = kind_of(head)
    if kind == "video":
        return f"{path} is a video, not a picture: companion watch --source {path} reads the rolls in it"
    if kind == "AVIF":
        return f"{path} is an AVIF picture, which the reader cannot open; save it as JPEG first"
    if kind is not None:
        return f"{path} is a {kind} file that cannot be decoded: it is cut short or damaged; copy it again"
    return f"{path} is not a picture the reader can open (JPEG, PNG, BMP, WebP, TIFF, HEIC)"


def dice_count(count: int) -> str:
    """The count with its noun: 1 die, 3 dice."""
    return counted(count, "die", "dice")
