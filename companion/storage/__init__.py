"""Persistence adapters: games as event logs in SQLite."""

from .event_store import EventStore, GameRecord, StoreError, default_folder

__all__ = ["default_folder", "EventStore", "GameRecord", "StoreError"]
