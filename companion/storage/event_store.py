"""Every game is an event log in SQLite, one row per event; state is rebuilt by replaying it.
Beside the log: a game's review (computed from the log, kept with the digest of the events it
covers, so a review of events since undone is known stale) and the table's settings.

Each write is its own transaction in WAL mode, so a server killed at any moment leaves the
log exactly as it was after the last answered request.
"""

import json
import os
import sqlite3
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any


def default_folder() -> Path:
    """Where games are kept unless a folder is named: in the user's data folder ($XDG_DATA_HOME,
    by default ~/.local/share), where other programs on the desktop keep theirs."""
    return Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share") / "vegas-companion"


SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id TEXT PRIMARY KEY,
    token TEXT NOT NULL,
    created TEXT NOT NULL,
    seed INTEGER NOT NULL,
    title TEXT NOT NULL DEFAULT ''
);
CREATE TABLE IF NOT EXISTS events (
    game_id TEXT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    seq INTEGER NOT NULL,
    payload TEXT NOT NULL,
    PRIMARY KEY (game_id, seq)
);
CREATE TABLE IF NOT EXISTS reviews (
    game_id TEXT PRIMARY KEY REFERENCES games(id) ON DELETE CASCADE,
    digest TEXT NOT NULL,
    payload TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS settings (
    game_id TEXT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    name TEXT NOT NULL,
    value TEXT NOT NULL,
    PRIMARY KEY (game_id, name)
);
"""


class StoreError(RuntimeError):
    """The data folder or database cannot be used; the message says which and why."""


@dataclass(frozen=True)
class GameRecord:
    id: str
    token: str
    created: str
    seed: int
    title: str


class EventStore:
    """A folder with one SQLite database of games and their events. Safe across threads."""

    def __init__(self, folder: Path) -> None:
        self.folder = Path(folder)
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
        except OSError as err:
            raise StoreError(f"cannot create the data folder {self.folder}: {err.strerror}") from None
        self.path = self.folder / "games.sqlite3"
        self._local = threading.local()
        with self._connection() as db:
            db.executescript(SCHEMA)

    def _connect(self) -> sqlite3.Connection:
        try:
            db = sqlite3.connect(self.path, timeout=10, isolation_level=None, check_same_thread=False)
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA synchronous=FULL")
            db.execute("PRAGMA foreign_keys=ON")
        except sqlite3.Error as err:
            raise StoreError(f"cannot open the game database {self.path}: {err}") from None
        return db

    @contextmanager
    def _connection(self) -> Iterator[sqlite3.Connection]:
        db = getattr(self._local, "db", None)
        if db is None:
            db = self._local.db = self._connect()
        yield db

    @contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        with self._connection() as db:
            db.execute("BEGIN IMMEDIATE")
            try:
                yield db
            except BaseException:
                db.execute("ROLLBACK")
                raise
            db.execute("COMMIT")

    def create_game(self, record: GameRecord, first_event: dict[str, Any]) -> None:
        with self._transaction() as db:
            db.execute(
                "INSERT INTO games (id, token, created, seed, title) VALUES (?, ?, ?, ?, ?)",
                (record.id, record.token, record.created, record.seed, record.title),
            )
            db.execute(
                "INSERT INTO events (game_id, seq, payload) VALUES (?, 0, ?)",
                (record.id, json.dumps(first_event)),
            )

    def game(self, game_id: str) -> GameRecord | None:
        with self._connection() as db:
            row = db.execute(
                "SELECT id, token, created, seed, title FROM games WHERE id = ?", (game_id,)
            ).fetchone()
        return GameRecord(*row) if row else None

    def games(self) -> list[GameRecord]:
        """Every game, newest first (games begun in the same second: the later stored first)."""
        with self._connection() as db:
            rows = db.execute(
                "SELECT id, token, created, seed, title FROM games ORDER BY created DESC, rowid DESC"
            ).fetchall()
        return [GameRecord(*row) for row in rows]

    def events(self, game_id: str) -> list[dict[str, Any]]:
        with self._connection() as db:
            rows = db.execute(
                "SELECT payload FROM events WHERE game_id = ? ORDER BY seq", (game_id,)
            ).fetchall()
        return [json.loads(payload) for (payload,) in rows]

    def append(self, game_id: str, seq: int, event: dict[str, Any]) -> None:
        """Store event number ``seq``; fails if another writer stored that number first."""
        with self._transaction() as db:
            db.execute(
                "INSERT INTO events (game_id, seq, payload) VALUES (?, ?, ?)",
                (game_id, seq, json.dumps(event)),
            )

    def replace_from(self, game_id: str, seq: int, events: list[dict[str, Any]]) -> None:
        """Drop events numbered ``seq`` and later, then store ``events`` from ``seq`` on."""
        with self._transaction() as db:
            db.execute("DELETE FROM events WHERE game_id = ? AND seq >= ?", (game_id, seq))
            db.executemany(
                "INSERT INTO events (game_id, seq, payload) VALUES (?, ?, ?)",
                [(game_id, seq + i, json.dumps(e)) for i, e in enumerate(events)],
            )

    def save_review(self, game_id: str, digest: str, review: dict[str, Any]) -> None:
        """Keep the review of a game, made from the events whose digest is ``digest``."""
        with self._transaction() as db:
            db.execute(
                "INSERT OR REPLACE INTO reviews (game_id, digest, payload) VALUES (?, ?, ?)",
                (game_id, digest, json.dumps(review)),
            )

    def review(self, game_id: str) -> tuple[str, dict[str, Any]] | None:
        """The kept review of a game and the digest of the events it covers, if any."""
        with self._connection() as db:
            row = db.execute("SELECT digest, payload FROM reviews WHERE game_id = ?", (game_id,)).fetchone()
        return (row[0], json.loads(row[1])) if row else None

    def set_setting(self, game_id: str, name: str, value: Any) -> None:
        with self._transaction() as db:
            db.execute(
                "INSERT OR REPLACE INTO settings (game_id, name, value) VALUES (?, ?, ?)",
                (game_id, name, json.dumps(value)),
            )

    def settings(self, game_id: str) -> dict[str, Any]:
        """A table's settings (a player's choices for this game, not part of its rules)."""
        with self._connection() as db:
            rows = db.execute("SELECT name, value FROM settings WHERE game_id = ?", (game_id,)).fetchall()
        return {name: json.loads(value) for name, value in rows}
