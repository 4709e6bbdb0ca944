"""A change feed: listeners wait for a game's version to move (used by Server-Sent Events)."""

import threading


class ChangeFeed:
    """Counts changes per key and wakes every waiter when one happens."""

    def __init__(self) -> None:
        self._condition = threading.Condition()
        self._versions: dict[str, int] = {}
        self._closed = False

    def version(self, key: str) -> int:
        with self._condition:
            return self._versions.get(key, 0)

    def publish(self, key: str) -> None:
        with self._condition:
            self._versions[key] = self._versions.get(key, 0) + 1
            self._condition.notify_all()

    def wait(self, key: str, seen: int, timeout: float) -> int:
        """Block until ``key`` moves past ``seen`` or ``timeout`` passes; return the version."""
        with self._condition:
            self._condition.wait_for(lambda: self._closed or self._versions.get(key, 0) != seen, timeout)
            return self._versions.get(key, 0)

    def close(self) -> None:
        """Wake every waiter for good (server shutting down)."""
        with self._condition:
            self._closed = True
            self._condition.notify_all()

    @property
    def closed(self) -> bool:
        return self._closed
