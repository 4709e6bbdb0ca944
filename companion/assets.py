"""Where the files the companion reads lie: the two models and the demo recording that ship with
it, and the table's own calibration. An installed package holds the shipped files inside
(``companion/models``, ``companion/demo``); a checkout installed in place (``pip install -e``)
finds them at the top of the checkout."""

from pathlib import Path

PACKAGE = Path(__file__).resolve().parent


def shipped(inside: str, in_checkout: str) -> Path:
    """The folder ``inside`` the installed package, else ``in_checkout`` beside the package."""
    installed = PACKAGE / inside
    return installed if installed.is_dir() else PACKAGE.parent / in_checkout


#: dicenet.onnx (finds the dice) and pipnet.onnx (reads their pips)
MODELS = shipped("models", "models")
#: one recorded round of a classic two-player game, played by ``serve --watch`` with no camera
DEMO = shipped("demo", "samples/classic-two-players")
#: a table's calibration (``companion calibrate``, the setup page), in the folder the companion runs in
TABLE_CALIBRATION = Path("calibration") / "table.json"
