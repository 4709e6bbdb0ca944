"""Reviews of games (``odds.review``) made in the background and kept with each game.

One thread reviews one game at a time, at a lower priority than the camera and the web: a
round's review takes a second or two of one core, a whole game's a few seconds. The review is
kept beside the event log with the digest of the events it covers; an undo or a correction
that changes those events makes it stale, and it is made again from the log."""

import contextlib
import hashlib
import json
import logging
import os
import queue
import threading
import time
from collections.abc import Callable

from ..odds.review import ROLLOUTS, GameReview, Progress, review_game, reviewed_span
from ..rules import Event, event_to_dict
from ..storage import EventStore
from .live_game import LiveGame
from .state_types import ReviewProgressJson, ReviewStatusJson

log = logging.getLogger(__name__)

#: pages hear of a review's progress at most this often (seconds)
PROGRESS_EVERY = 0.4
#: how much nicer than the server the reviewing thread runs (Linux: per thread)
NICENESS = 10


def digest(events: list[Event]) -> str:
    """A fingerprint of these events: a kept review is good while its events are unchanged."""
    text = json.dumps([event_to_dict(e) for e in events], separators=(",", ":"), sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()


class Reviewer:
    """Reviews the rounds of a game that have ended: on request, in the background."""

    def __init__(
        self,
        store: EventStore,
        game: Callable[[str], LiveGame],
        changed: Callable[[str], None],
        rollouts: int = ROLLOUTS,
    ) -> None:
        """``store`` keeps the reviews beside the events; ``game(game_id)`` is the game as it is
        now; ``changed(game_id)`` tells the game's pages that its review moved on."""
        self._store = store
        self._game = game
        self._changed = changed
        self._rollouts = rollouts
        self._queue: queue.Queue[str] = queue.Queue()
        self._lock = threading.Lock()
        self._waiting: set[str] = set()
        self._progress: dict[str, tuple[int, int]] = {}
        self._thread: threading.Thread | None = None

    # ----------------------------------------------------------------- asking
    def request(self, game_id: str) -> None:
        """Review the game's ended rounds soon, unless its kept review covers them already."""
        with self._lock:
            if game_id in self._waiting:
                return
            self._waiting.add(game_id)
            self._progress.setdefault(game_id, (0, 0))
            if self._thread is None or not self._thread.is_alive():
                self._thread = threading.Thread(target=self._work, name="reviewer", daemon=True)
                self._thread.start()
        self._queue.put(game_id)

    def progress(self, game_id: str) -> ReviewProgressJson | None:
        """How far the review under way (or waiting) has got: {"done", "total"}; None when idle."""
        with self._lock:
            step = self._progress.get(game_id)
        return {"done": step[0], "total": step[1]} if step else None

    def kept(self, game_id: str) -> GameReview | None:
        """The kept review, if the events it covers are still the game's."""
        stored = self._store.review(game_id)
        if stored is None:
            return None
        kept_digest, payload = stored
        events = list(self._game(game_id).events)
        covered = payload.get("covered", 0)
        if covered > len(events) or digest(events[:covered]) != kept_digest:
            return None
        try:
            return GameReview.from_record(payload)
        except (KeyError, TypeError):  # kept by another version of the companion: made again
            return None

    def status(self, game_id: str) -> ReviewStatusJson:
        """What a page shows: the kept review, whether it covers every ended round, the progress."""
        events = list(self._game(game_id).events)
        review = self.kept(game_id)
        current = review is not None and review.covered == reviewed_span(events)
        return {
            "review": review.as_json() if review else None,
            "current": current,
            "progress": self.progress(game_id),
        }

    # ----------------------------------------------------------------- doing
    def review_now(self, game_id: str, progress: Progress | None = None) -> GameReview:
        """Bring the game's review up to date here and now, keep it, and return it."""
        live = self._game(game_id)
        events, seed = list(live.events), live.record.seed
        earlier = self.kept(game_id)
        if earlier is not None and earlier.covered == reviewed_span(events):
            return earlier
        review = review_game(events, seed, earlier, progress, self._rollouts)
        self._store.save_review(game_id, digest(events[: review.covered]), review.record())
        return review

    def _work(self) -> None:
        if hasattr(os, "setpriority"):
            with contextlib.suppress(OSError):  # not allowed here: review at the server's priority
                os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), NICENESS)
        while True:
            game_id = self._queue.get()
            told = [0.0]

            def progressed(done: int, total: int, game_id: str = game_id, told: list = told) -> None:
                with self._lock:
                    self._progress[game_id] = (done, total)
                if time.monotonic() - told[0] >= PROGRESS_EVERY:
                    told[0] = time.monotonic()
                    self._changed(game_id)

            try:
                self.review_now(game_id, progressed)
            except Exception:  # a review is a nicety: never let it take the server down
                log.exception("could not review game %s", game_id)
            finally:
                with self._lock:
                    self._waiting.discard(game_id)
                    self._progress.pop(game_id, None)
                self._changed(game_id)
