"""Where the files the companion reads lie: the two models and the demo recording that ship with
it (inside the package, ``companion/models`` and ``companion/demo``; in a checkout these are links
to ``models/`` and ``samples/classic-two-players/``), and the table's own calibration."""

from pathlib import Path

PACKAGE = Path(__file__).resolve().parent

#: dicenet.onnx (finds the dice) and pipnet.onnx (reads their pips)
MODELS = PACKAGE / "models"
#: one recorded round of a classic two-player game, played by ``serve --watch`` with no camera
DEMO = PACKAGE / "demo"
#: a table's calibration (``companion calibrate``, the setup page), in the folder the companion runs in
TABLE_CALIBRATION = Path("calibration") / "table.json"
