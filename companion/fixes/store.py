"""Fixes in their own SQLite file beside the games (``fixes.sqlite3`` in the data folder): one row
per die a player fixed, its crop kept as JPEG bytes. Apart from the event log: a fix says what a
die looked like, not what the game recorded (a roll fixed and then undone keeps its fixes)."""

import json
import sqlite3
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from ..rules import Die
from ..rules.events import die_from_dict, die_to_dict

FILE_NAME = "fixes.sqlite3"

SCHEMA = """
CREATE TABLE IF NOT EXISTS fixes (
    id TEXT PRIMARY KEY,
    game_id TEXT NOT NULL,
    created TEXT NOT NULL,
    read TEXT NOT NULL,
    said TEXT NOT NULL,
    crop BLOB NOT NULL,
    box TEXT NOT NULL
);
"""


@dataclass(frozen=True)
class DieCrop:
    """A square of the camera's picture round one die, as JPEG bytes, and the die's box inside
    it in pixels (x, y, w, h)."""

    jpeg: bytes
    box: tuple[int, int, int, int]
    size: tuple[int, int]  # the crop's width and height in pixels


@dataclass(frozen=True)
class Fix:
    """One die a player fixed: ``id`` names the die of one camera offer (fixing it again replaces
    the fix), ``read`` is what the reader read, ``said`` what the player said it is."""

    id: str
    game_id: str
    created: str
    read: Die
    said: Die
    crop: DieCrop


class FixStore:
    """The fixes of every game in one data folder. Safe across threads."""

    def __init__(self, folder: Path) -> None:
        self.path = Path(folder) / FILE_NAME
        self._local = threading.local()
        self._lock = threading.Lock()
        self._ready = False

    @contextmanager
    def _connection(self) -> Iterator[sqlite3.Connection]:
        db = getattr(self._local, "db", None)
        if db is None:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            db = self._local.db = sqlite3.connect(self.path, timeout=10, isolation_level=None)
            db.execute("PRAGMA journal_mode=WAL")
        with self._lock:
            if not self._ready:
                db.executescript(SCHEMA)
                self._ready = True
        yield db

    def keep(self, fix: Fix) -> None:
        """Store ``fix``, replacing an earlier fix of the same die."""
        with self._connection() as db:
            db.execute(
                "INSERT OR REPLACE INTO fixes (id, game_id, created, read, said, crop, box) "
                "VALUES (?, ?, ?, ?, ?, ?, ?)",
                (
                    fix.id,
                    fix.game_id,
                    fix.created,
                    json.dumps(die_to_dict(fix.read)),
                    json.dumps(die_to_dict(fix.said)),
                    fix.crop.jpeg,
                    json.dumps({"box": list(fix.crop.box), "size": list(fix.crop.size)}),
                ),
            )

    def fixes(self, game_id: str | None = None) -> list[Fix]:
        """Every fix kept (or one game's), oldest first."""
        if not self.path.exists():
            return []
        query = "SELECT id, game_id, created, read, said, crop, box FROM fixes"
        args: tuple[str, ...] = ()
        if game_id is not None:
            query, args = query + " WHERE game_id = ?", (game_id,)
        with self._connection() as db:
            rows = db.execute(query + " ORDER BY created, rowid", args).fetchall()
        return [fix_from_row(row) for row in rows]


def fix_from_row(row: tuple) -> Fix:
    fix_id, game_id, created, read, said, crop, box = row
    where = json.loads(box)
    return Fix(
        fix_id,
        game_id,
        created,
        die_from_dict(json.loads(read)),
        die_from_dict(json.loads(said)),
        DieCrop(bytes(crop), tuple(where["box"]), tuple(where["size"])),
    )
