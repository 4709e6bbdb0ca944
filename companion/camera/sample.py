"""Sample sessions: a recording plus session.json (the players, the seed, the true rolls)."""

import json
from pathlib import Path

from ..service import GameService, LiveGame


def read_session(folder: Path) -> dict | None:
    path = Path(folder) / "session.json"
    if not path.is_file():
        return None
    return json.loads(path.read_text())


def start_sample_game(games: GameService, folder: Path) -> LiveGame | None:
    """A new game set up as the recorded one (same players, same seed, so the same deck)."""
    session = read_session(folder)
    if session is None or "players" not in session:
        return None
    return games.create(
        {
            "players": session["players"],
            "edition": session.get("edition", "classic"),
            "neutral": session.get("neutral", False),
            "seed": session["seed"],
        }
    )


def bundled_sample() -> Path | None:
    """samples/classic-two-players in the project folder (where the README's commands run)."""
    for root in (Path.cwd(), Path(__file__).resolve().parents[2]):
        candidate = root / "samples" / "classic-two-players"
        if (candidate / "session.json").is_file():
            return candidate
    return None
