"""What can go wrong with the data folder, each error carrying what a person needs to act on it."""

from pathlib import Path


class StoreError(RuntimeError):
    """The data folder or database cannot be used; the message says which and why."""


class DiskFull(StoreError):
    """The disk holding the data folder has no room left; the write was not recorded."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        super().__init__(
            f"the disk holding {folder} is full; nothing was recorded: free some space and try again"
        )


class StoreReadOnly(StoreError):
    """The database file cannot be written (permissions, a read-only disk)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        super().__init__(
            f"the game database {path} cannot be written (read-only file or disk); nothing was recorded: "
            "make it writable, or serve another folder with --data"
        )


class StoreIOError(StoreError):
    """The disk answered a read or write of the database with an error."""

    def __init__(self, path: Path, detail: str) -> None:
        self.path = path
        self.detail = detail
        super().__init__(f"the game database {path} cannot be used: {detail}; nothing was recorded")


class StaleWrite(StoreError):
    """A writer's copy of a game is behind the stored log (another writer changed it)."""

    def __init__(self, game_id: str, seq: int, stored: int) -> None:
        self.game_id = game_id
        self.seq = seq
        self.stored = stored
        super().__init__(
            f"game {game_id} changed elsewhere: it has {stored} events stored, "
            f"so event number {seq} cannot be written; nothing was recorded: reload the game and try again"
        )
