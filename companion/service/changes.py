"""A change feed: each game's version, and the listeners called when it moves (the live streams
of the tablet pages)."""

import threading
from collections.abc import Callable


class ChangeFeed:
    """Counts changes per key and calls that key's listeners after each."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._versions: dict[str, int] = {}
        self._listeners: dict[str, set[Callable[[], None]]] = {}
        self._closed = False

    def version(self, key: str) -> int:
        with self._lock:
            return self._versions.get(key, 0)

    def publish(self, key: str) -> None:
        with self._lock:
            self._versions[key] = self._versions.get(key, 0) + 1
            listeners = list(self._listeners.get(key, ()))
        for listener in listeners:
            listener()

    def listened(self, key: str) -> bool:
        """Whether anything follows ``key`` now (a page open on that game)."""
        with self._lock:
            return bool(self._listeners.get(key))

    def subscribe(self, key: str, listener: Callable[[], None]) -> Callable[[], None]:
        """Call ``listener`` (from the publishing thread: it must be quick and thread-safe) after
        each change of ``key``; return what ends that."""
        with self._lock:
            self._listeners.setdefault(key, set()).add(listener)

        def unsubscribe() -> None:
            with self._lock:
                group = self._listeners.get(key, set())
                group.discard(listener)
                if not group:  # a page of a game that was never there leaves nothing behind
                    self._listeners.pop(key, None)

        return unsubscribe

    def close(self) -> None:
        """Call every listener a last time (the server is shutting down): ``closed`` is now true."""
        with self._lock:
            self._closed = True
            listeners = [listener for group in self._listeners.values() for listener in group]
        for listener in listeners:
            listener()

    @property
    def closed(self) -> bool:
        return self._closed
