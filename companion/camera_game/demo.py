"""Recordings to play instead of a camera: a recording (a video or a folder of frames) with
``recording.json`` beside it (the players, the seed, the true rolls), and the demo that ships
inside the package."""

import json
from pathlib import Path

from ..assets import DEMO
from ..rules import GameConfig
from ..service import GameService, LiveGame

#: the file beside a recording that says how its game was set up
RECORDING_FILE = "recording.json"


def read_recording(folder: Path) -> dict | None:
    """The ``recording.json`` of a recording's folder, or None when it has none."""
    path = Path(folder) / RECORDING_FILE
    if not path.is_file():
        return None
    return json.loads(path.read_text())


def start_sample_game(games: GameService, folder: Path) -> LiveGame | None:
    """A new game set up as the recorded one (same players, same seed, so the same deck)."""
    recording = read_recording(folder)
    if recording is None or "players" not in recording:
        return None
    config = GameConfig.from_dict(
        {
            "players": recording["players"],
            "edition": recording.get("edition", "classic"),
            "neutral": recording.get("neutral", False),
        }
    )
    return games.create(config, recording["seed"])


def bundled_demo() -> Path | None:
    """The demo recording (``assets.DEMO``), or None when an install left it out."""
    return DEMO if (DEMO / RECORDING_FILE).is_file() else None
