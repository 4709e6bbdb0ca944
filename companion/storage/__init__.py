"""Persistence adapters: games as event logs in SQLite."""

from .event_store import EventStore, GameRecord, StoreError

__all__ = ["EventStore", "GameRecord", "StoreError"]
