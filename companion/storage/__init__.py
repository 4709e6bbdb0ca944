"""Persistence adapters: games as event logs in SQLite."""

from .event_store import DEFAULT_FOLDER, EventStore, GameRecord, StoreError

__all__ = ["DEFAULT_FOLDER", "EventStore", "GameRecord", "StoreError"]
