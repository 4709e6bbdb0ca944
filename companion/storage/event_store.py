"""Every game is an event log in SQLite, one row per event; state is rebuilt by replaying it.
Beside the log: a summary of each game (what the game list shows, written in the same
transaction as the events it sums up), a game's review (computed from the log, kept with the
digest of the events it covers, so a review of events since undone is known stale) and the
table's settings.

Each write is its own transaction in WAL mode, so a server killed at any moment leaves the
log exactly as it was after the last answered request. A write that the disk refuses (full,
read-only, an I/O error) is rolled back whole and raised as a ``StoreError`` naming the cause.
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

from .errors import DiskFull, StaleWrite, StoreError, StoreIOError, StoreReadOnly

DATABASE_FILE = "games.sqlite3"


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
CREATE TABLE IF NOT EXISTS summaries (
    game_id TEXT PRIMARY KEY REFERENCES games(id) ON DELETE CASCADE,
    fresh INTEGER NOT NULL,
    payload TEXT NOT NULL
);
-- Any change to a game's events, by this program or any other SQLite client, marks its
-- summary stale; the program writes the new summary after the events, in the same transaction.
CREATE TRIGGER IF NOT EXISTS events_inserted AFTER INSERT ON events BEGIN
    UPDATE summaries SET fresh = 0 WHERE game_id = NEW.game_id;
END;
CREATE TRIGGER IF NOT EXISTS events_updated AFTER UPDATE ON events BEGIN
    UPDATE summaries SET fresh = 0 WHERE game_id IN (OLD.game_id, NEW.game_id);
END;
CREATE TRIGGER IF NOT EXISTS events_deleted AFTER DELETE ON events BEGIN
    UPDATE summaries SET fresh = 0 WHERE game_id = OLD.game_id;
END;
"""


@dataclass(frozen=True)
class GameRecord:
    id: str
    token: str
    created: str
    seed: int
    title: str


@dataclass(frozen=True)
class Listed:
    """A game as the list shows it: its record and its summary (None when the summary is
    missing or stale, and the game must be read again to know it)."""

    record: GameRecord
    summary: dict[str, Any] | None


class EventStore:
    """A folder with one SQLite database of games and their events. Safe across threads."""

    def __init__(self, folder: Path) -> None:
        self.folder = Path(folder)
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
        except OSError as err:
            raise StoreError(f"cannot create the data folder {self.folder}: {err.strerror}") from None
        self.path = self.folder / DATABASE_FILE
        self._local = threading.local()
        try:
            with self._connection() as db:
                db.executescript(SCHEMA)
        except StoreReadOnly:
            pass  # a database that cannot be written can still be read (and said so on a write)

    # ------------------------------------------------------------------ connections
    def _connect(self) -> sqlite3.Connection:
        try:
            db = sqlite3.connect(self.path, timeout=10, isolation_level=None, check_same_thread=False)
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA synchronous=FULL")
            db.execute("PRAGMA foreign_keys=ON")
        except sqlite3.Error as err:
            raise StoreError(f"cannot open the game database {self.path}: {err}") from None
        # SQLite opens a file it cannot write read-only, and the connection stays so
        self._local.writable = os.access(self.path, os.W_OK)
        return db

    @contextmanager
    def _connection(self, writing: bool = False) -> Iterator[sqlite3.Connection]:
        """This thread's connection. A failure of the disk is raised as the StoreError that
        names it, and the connection is dropped, so the next request opens the database anew
        (a file made writable again, or a disk with room again, is then used at once)."""
        db = getattr(self._local, "db", None)
        if db is not None and writing and not self._local.writable and os.access(self.path, os.W_OK):
            self._drop(db)  # opened while the file could not be written; it can now
            db = None
        if db is None:
            db = self._local.db = self._connect()
        try:
            yield db
        except sqlite3.Error as err:
            self._drop(db)
            raise self.failure(err) from err

    def _drop(self, db: sqlite3.Connection) -> None:
        self._local.db = None
        try:
            if db.in_transaction:
                db.execute("ROLLBACK")
            db.close()
        except sqlite3.Error:
            pass  # the connection is being thrown away

    def failure(self, err: sqlite3.Error) -> StoreError:
        """The StoreError that says what the disk refused."""
        name = getattr(err, "sqlite_errorname", "") or ""
        if name == "SQLITE_FULL":
            return DiskFull(self.folder)
        if name.startswith(("SQLITE_READONLY", "SQLITE_PERM", "SQLITE_CANTOPEN", "SQLITE_AUTH")):
            return StoreReadOnly(self.path)
        return StoreIOError(self.path, str(err))

    @contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        with self._connection(writing=True) as db:
            db.execute("BEGIN IMMEDIATE")
            try:
                yield db
                db.execute("COMMIT")
            except BaseException:
                if db.in_transaction:
                    db.execute("ROLLBACK")
                raise

    # ------------------------------------------------------------------ games
    def create_game(self, record: GameRecord, first_event: dict[str, Any], summary: dict[str, Any]) -> None:
        with self._transaction() as db:
            db.execute(
                "INSERT INTO games (id, token, created, seed, title) VALUES (?, ?, ?, ?, ?)",
                (record.id, record.token, record.created, record.seed, record.title),
            )
            db.execute(
                "INSERT INTO events (game_id, seq, payload) VALUES (?, 0, ?)",
                (record.id, json.dumps(first_event)),
            )
            self._write_summary(db, record.id, summary)

    def game(self, game_id: str) -> GameRecord | None:
        with self._connection() as db:
            row = db.execute(
                "SELECT id, token, created, seed, title FROM games WHERE id = ?", (game_id,)
            ).fetchone()
        return GameRecord(*row) if row else None

    def games(self) -> list[GameRecord]:
        """Every game, newest first (games begun in the same second: the later stored first)."""
        return [listed.record for listed in self.listing()]

    def listing(self) -> list[Listed]:
        """Every game with its summary if that is fresh, newest first: one query, no replay."""
        with self._connection() as db:
            rows = db.execute(
                "SELECT g.id, g.token, g.created, g.seed, g.title, s.payload FROM games g "
                "LEFT JOIN summaries s ON s.game_id = g.id AND s.fresh = 1 "
                "ORDER BY g.created DESC, g.rowid DESC"
            ).fetchall()
        return [Listed(GameRecord(*row[:5]), json.loads(row[5]) if row[5] else None) for row in rows]

    def save_summary(self, game_id: str, summary: dict[str, Any]) -> None:
        """Keep a summary made by reading the game again (its stored one was missing or stale)."""
        with self._transaction() as db:
            self._write_summary(db, game_id, summary)

    @staticmethod
    def _write_summary(db: sqlite3.Connection, game_id: str, summary: dict[str, Any]) -> None:
        db.execute(
            "INSERT OR REPLACE INTO summaries (game_id, fresh, payload) VALUES (?, 1, ?)",
            (game_id, json.dumps(summary)),
        )

    # ------------------------------------------------------------------ events
    def events(self, game_id: str) -> list[dict[str, Any]]:
        return [json.loads(payload) for _, payload in self.stored_events(game_id)]

    def stored_events(self, game_id: str) -> list[tuple[int, str]]:
        """The game's events as stored: (number, JSON text), in order, unread."""
        with self._connection() as db:
            return db.execute(
                "SELECT seq, payload FROM events WHERE game_id = ? ORDER BY seq", (game_id,)
            ).fetchall()

    def append(self, game_id: str, seq: int, event: dict[str, Any], summary: dict[str, Any]) -> None:
        """Store event number ``seq`` and the game's summary after it. ``seq`` must be the next
        number: a writer whose copy of the game is behind gets StaleWrite, and nothing is written."""
        with self._transaction() as db:
            self._check_count(db, game_id, seq, seq)
            db.execute(
                "INSERT INTO events (game_id, seq, payload) VALUES (?, ?, ?)",
                (game_id, seq, json.dumps(event)),
            )
            self._write_summary(db, game_id, summary)

    def replace_from(
        self, game_id: str, seq: int, events: list[dict[str, Any]], summary: dict[str, Any], known: int
    ) -> None:
        """Drop events numbered ``seq`` and later, then store ``events`` from ``seq`` on, and the
        game's summary. ``known``: how many events the writer's copy holds; a writer whose copy
        is not the stored log gets StaleWrite, and nothing is written."""
        with self._transaction() as db:
            self._check_count(db, game_id, known, seq)
            db.execute("DELETE FROM events WHERE game_id = ? AND seq >= ?", (game_id, seq))
            db.executemany(
                "INSERT INTO events (game_id, seq, payload) VALUES (?, ?, ?)",
                [(game_id, seq + i, json.dumps(e)) for i, e in enumerate(events)],
            )
            self._write_summary(db, game_id, summary)

    @staticmethod
    def _check_count(db: sqlite3.Connection, game_id: str, known: int, seq: int) -> None:
        (stored,) = db.execute("SELECT COUNT(*) FROM events WHERE game_id = ?", (game_id,)).fetchone()
        if stored != known:
            raise StaleWrite(game_id, seq, stored)

    def keep_events_before(self, game_id: str, seq: int) -> int:
        """Drop the game's events numbered ``seq`` and later (a repair); how many were dropped.
        The game's summary goes stale and is made again when the game is next read."""
        with self._transaction() as db:
            dropped = db.execute("DELETE FROM events WHERE game_id = ? AND seq >= ?", (game_id, seq)).rowcount
            db.execute("DELETE FROM reviews WHERE game_id = ?", (game_id,))
        return dropped

    # ------------------------------------------------------------------ beside the log
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

    def backup(self, target: Path) -> None:
        """A consistent copy of the database at ``target`` (SQLite's online backup)."""
        with self._connection() as db:
            copy = sqlite3.connect(target)
            try:
                db.backup(copy)
            finally:
                copy.close()
