"""Where the files that ship with the package lie: the two models and the demo recording. An
installed package holds them inside (``companion/models``, ``companion/demo``); a checkout
installed in place (``pip install -e``) finds them at the top of the checkout."""

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
