"""What the commands that read stored games share: the folder they read, and a game id that is
not there said with the one meant."""

from pathlib import Path

from . import CommandError


def games_folder(data: Path | None) -> Path:
    """The data folder named (else the default one), or a CommandError when it keeps no games."""
    from ..storage import DATABASE_FILE, default_folder

    folder = data or default_folder()
    if not (folder / DATABASE_FILE).exists():
        raise CommandError(f"no games are kept in {folder}: name the folder `serve --data` used")
    return folder


def unknown_game(game_id: str, folder: Path, ids: list[str]) -> str:
    """No game ``game_id`` in ``folder``: the nearest id among ``ids``, else the first few."""
    from ..words import nearest

    close = nearest(game_id, ids)
    hint = f"; did you mean {close}?" if close else f"; the games there: {', '.join(ids[:8]) or 'none'}"
    return f"no game {game_id!r} in {folder}{hint}"
