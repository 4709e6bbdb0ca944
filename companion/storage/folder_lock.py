"""One writer per data folder: an OS lock on a file in the folder, held while a program writes
there and released by the OS when that program ends, however it ends. The file also says who
holds it (pid, host, port, since when), for the message a second writer gets."""

import fcntl
import json
import os
import socket
from datetime import UTC, datetime
from pathlib import Path
from typing import IO, Any

from .errors import StoreError

LOCK_FILE = "writer.lock"


class FolderBusy(StoreError):
    """Another program writes to this data folder."""

    def __init__(self, folder: Path, holder: dict[str, Any]) -> None:
        self.folder = folder
        self.holder = holder
        super().__init__(
            f"the data folder {folder} is in use by {describe_holder(holder)}; "
            "one program writes to a folder at a time: use that one, stop it, "
            "or give this table its own folder with --data FOLDER"
        )


def describe_holder(holder: dict[str, Any]) -> str:
    """``holder`` in words: "companion serve (pid 4242 on host tablet, port 5000, since …)"."""
    parts = []
    if holder.get("pid"):
        parts.append(f"pid {holder['pid']}" + (f" on host {holder['host']}" if holder.get("host") else ""))
    if holder.get("port"):
        parts.append(f"port {holder['port']}")
    if holder.get("started"):
        parts.append(f"since {holder['started']}")
    what = holder.get("command") or "another companion"
    return f"{what} ({', '.join(parts)})" if parts else what


class FolderLock:
    """The writer's lock on ``folder``; ``acquire`` takes it or raises FolderBusy."""

    def __init__(self, folder: Path) -> None:
        self.folder = Path(folder)
        self._file: IO[str] | None = None

    @property
    def path(self) -> Path:
        return self.folder / LOCK_FILE

    def acquire(self, command: str, port: int | None = None) -> "FolderLock":
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
        except OSError as err:
            raise StoreError(f"cannot create the data folder {self.folder}: {err.strerror}") from None
        try:
            handle = open(self.path, "a+", encoding="utf-8")  # noqa: SIM115 (held until release)
        except OSError as err:
            raise StoreError(f"cannot lock the data folder {self.folder}: {err.strerror}") from None
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            handle.close()
            raise FolderBusy(self.folder, read_holder(self.path)) from None
        holder = {
            "command": command,
            "pid": os.getpid(),
            "host": socket.gethostname(),
            "port": port,
            "started": datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC"),
        }
        try:  # who holds it, for the message a second writer gets
            handle.seek(0)
            handle.truncate()
            handle.write(json.dumps(holder))
            handle.flush()
        except OSError:
            pass  # a full disk still lets the lock hold; the message then names the folder only
        self._file = handle
        return self

    def release(self) -> None:
        if self._file is not None:
            self._file.close()  # closing the file releases the OS lock
            self._file = None

    def __enter__(self) -> "FolderLock":
        return self

    def __exit__(self, *exc: object) -> None:
        self.release()


def read_holder(path: Path) -> dict[str, Any]:
    try:
        holder = json.loads(path.read_text(encoding="utf-8") or "{}")
    except (OSError, ValueError):
        return {}
    return holder if isinstance(holder, dict) else {}
