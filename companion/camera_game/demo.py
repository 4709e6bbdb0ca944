"""Recordings to play instead of a camera: a recording (a video or a folder of frames) with
``recording.json`` beside it (the players, the seed, the true rolls), and the demo that ships
inside the package."""

import json
import threading
from pathlib import Path

from ..assets import DEMO
from ..rules import GameConfig
from ..service import GameDamaged, GameNotFound, GameService, LiveGame

#: the file beside a recording that says how its game was set up
RECORDING_FILE = "recording.json"


def read_recording(folder: Path) -> dict | None:
    """The ``recording.json`` of a recording's folder, or None when it has none."""
    path = Path(folder) / RECORDING_FILE
    if not path.is_file():
        return None
    return json.loads(path.read_text())


def start_sample_game(games: GameService, folder: Path, kept: Path | None = None) -> LiveGame | None:
    """The game of a recording: set up as the recorded one (same players, same seed, so the same
    deck), at its start. With ``kept`` (a JSON file of the recordings' games, in the data
    folder) the game made for this recording before is taken back to its start, not made
    again, so a recording played on every start of the server leaves one game in the history."""
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
    known = kept_games(kept)
    key = str(Path(folder).resolve())
    if key in known:
        try:
            live = games.get(known[key])
        except (GameNotFound, GameDamaged):  # a new game for the recording
            live = None
        if live is not None and live.record.seed == recording["seed"] and live.state.config == config:
            return games.restart(live.record.id)
    live = games.create(config, recording["seed"])
    if kept is not None:
        kept.write_text(json.dumps(known | {key: live.record.id}, indent=1))
    return live


def kept_games(kept: Path | None) -> dict[str, str]:
    """The game made for each recording (by its folder), from ``kept``; {} when there is none."""
    try:
        known = json.loads(kept.read_text()) if kept is not None else {}
    except (OSError, ValueError):
        return {}
    return known if isinstance(known, dict) else {}


class Audience:
    """The pages that open a recording's game: its recording plays when a page first opens the
    game, and from its start again each time a page opens it after the recording ended. The
    live server tells ``joined`` of each page that follows a game; thread-safe."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._joined: dict[str, threading.Event] = {}

    def _event(self, game_id: str) -> threading.Event:
        with self._lock:
            return self._joined.setdefault(game_id, threading.Event())

    def joined(self, game_id: str) -> None:
        """A page opened this game's live updates."""
        self._event(game_id).set()

    def wait(self, game_id: str, stop: threading.Event) -> bool:
        """Block until a page opens this game's live updates (since ``forget``), or ``stop`` is
        set; whether a page did."""
        joined = self._event(game_id)
        while not joined.wait(0.2):
            if stop.is_set():
                return False
        return True

    def forget(self, game_id: str) -> None:
        """From now on ``wait`` waits for a page opened after this."""
        self._event(game_id).clear()


def bundled_demo() -> Path | None:
    """The demo recording (``assets.DEMO``), or None when an install left it out."""
    return DEMO if (DEMO / RECORDING_FILE).is_file() else None
