"""Persistence adapters: games as event logs in SQLite, one writer per data folder."""

from .errors import DiskFull, StaleWrite, StoreError, StoreIOError, StoreReadOnly
from .event_store import DATABASE_FILE, EventStore, GameRecord, Listed, default_folder
from .folder_lock import FolderBusy, FolderLock

__all__ = [
    "DATABASE_FILE",
    "DiskFull",
    "EventStore",
    "FolderBusy",
    "FolderLock",
    "GameRecord",
    "Listed",
    "StaleWrite",
    "StoreError",
    "StoreIOError",
    "StoreReadOnly",
    "default_folder",
]
