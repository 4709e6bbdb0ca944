"""Commands on stored games. Each is checked by the rules before it is stored, so a refused
command changes nothing, and each stored change is announced on the change feed."""

import contextlib
import itertools
import json
import random
import secrets
import threading
from collections import OrderedDict
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any, Protocol

from ..rules import (
    Die,
    Event,
    GameConfig,
    GameState,
    IllegalMove,
    Phase,
    Placed,
    Rolled,
    event_to_dict,
    replay,
    roll_virtual,
    start_game,
)
from ..storage import EventStore, GameRecord, StoreError
from .changes import ChangeFeed
from .errors import GameDamaged, GameNotFound, RequestError, Unauthorized
from .live_game import LiveGame, Snapshot
from .reviews import ROLLOUTS, Reviewer
from .state_types import GameSummaryJson
from .stored_log import Damage, replay_stored
from .view import CameraPartJson, state_json

#: games kept in memory besides those in play (followed live, the last changed): a game is
#: about 0.2 MB in memory, and one not kept is read again in a few milliseconds
CACHED_GAMES = 8


class Beside(Protocol):
    """What a game's pages show beside its events, kept by another part of the companion (the
    camera's session: its health, the roll waiting for a player, a placement it saw)."""

    def state_of(self, game_id: str) -> CameraPartJson:
        """Its part of the game's state (``view.state_json``); asked under the service's lock."""
        ...

    def played(self, game_id: str, event: Event | None) -> None:
        """The game's events changed: ``event`` was recorded, or (None) they were rewritten (an
        undo, a restart, a correction, another program). Told under the service's lock, before
        the game's new state is made."""
        ...


class GameService:
    """Creates games and applies commands to them; thread-safe. What a game's pages show beside
    its events (the camera's session) attaches as its ``Beside``; the hints (``hints.Hints``)
    read games through ``get`` and ``locked``."""

    def __init__(
        self,
        store: EventStore,
        clock: Callable[[], datetime] | None = None,
        review_rounds: bool = False,
        review_rollouts: int = ROLLOUTS,
    ) -> None:
        """``review_rounds``: review each round in the background as it ends (the server does;
        otherwise a review is made when asked for), with ``review_rollouts`` per choice."""
        self.store = store
        self.reviews = Reviewer(store, self.get, self.publish, review_rollouts)
        self._review_rounds = review_rounds
        self.changes = ChangeFeed()
        self._clock = clock or (lambda: datetime.now(UTC))
        self._lock = threading.RLock()
        #: the snapshot of each game in memory as of its last change (``snapshot``)
        self._snapshots: dict[str, Snapshot] = {}
        #: the games in memory, least recently used first (``_trim`` bounds them)
        self._cache: OrderedDict[str, LiveGame] = OrderedDict()
        #: the stamps of ``LiveGame.revision``
        self._revisions = itertools.count(1)
        self._active: str | None = None
        self._beside: Beside | None = None

    def attach(self, beside: Beside) -> None:
        """Show ``beside``'s part in every game's state, and tell it of each change of play."""
        with self._lock:
            self._beside = beside
            self._snapshots.clear()

    def locked(self) -> contextlib.AbstractContextManager[Any]:
        """The service's lock: held, a game is read and acted on as one step (a camera's offer
        weighed against a player's tap). Every command takes it; the thread that holds it may
        call them."""
        return self._lock

    # ------------------------------------------------------------------ reading
    def get(self, game_id: str) -> LiveGame:
        """The game in memory, read from the store when it is not (GameDamaged when its
        events no longer replay)."""
        with self._lock:
            live = self._cache.get(game_id)
            if live is None:
                live = self._load(game_id)
                self._cache[game_id] = live
                self._trim()
            else:
                self._cache.move_to_end(game_id)
            return live

    def _load(self, game_id: str) -> LiveGame:
        record = self.store.game(game_id)
        if record is None:
            raise GameNotFound(f"no game with id {game_id!r}")
        replayed = replay_stored(self.store.stored_events(game_id))
        if replayed.damage is not None or replayed.state is None:
            damage = replayed.damage or Damage(0, "is missing")
            # the list says so too (events that the rules of this version refuse, unchanged)
            with contextlib.suppress(StoreError):
                self.store.save_summary(game_id, summary_of(replayed.state, replayed.stored, damage))
            raise GameDamaged(game_id, damage.event, damage.reason)
        return LiveGame(
            record,
            replayed.events,
            replayed.state,
            revision=next(self._revisions),
            settings=self.store.settings(game_id),
        )

    def _trim(self) -> None:
        """Forget the least recently used games past ``CACHED_GAMES``, keeping those in play."""
        spare = [game_id for game_id in self._cache if not self._in_play(game_id)]
        for game_id in spare[: max(0, len(spare) - CACHED_GAMES)]:
            self._forget(game_id)

    def _in_play(self, game_id: str) -> bool:
        return game_id == self._active or self.changes.listened(game_id)

    def _forget(self, game_id: str) -> None:
        """Drop the game from memory; it is read from the store when next asked for."""
        self._cache.pop(game_id, None)
        self._snapshots.pop(game_id, None)

    def _played(self, game_id: str, event: Event | None) -> None:
        """Tell what is kept beside the game that its events changed (``Beside.played``)."""
        if self._beside is not None:
            self._beside.played(game_id, event)

    def listing(self) -> list[GameSummaryJson]:
        """Every game as the game list shows it, newest first, from the summaries kept with
        each write: a game is read again only when its summary is missing or stale (its events
        were changed by another program), and one whose events no longer replay is listed
        with ``damaged``: the first event that fails and why."""
        listed: list[GameSummaryJson] = []
        for item in self.store.listing():
            summary = item.summary if item.summary is not None else self._summarise(item.record.id)
            listed.append(
                {
                    "id": item.record.id,
                    "title": item.record.title,
                    "created": item.record.created,
                    "edition": summary.get("edition"),
                    "round": summary.get("round", 0),
                    "over": summary.get("over", False),
                    "winners": summary.get("winners", []),
                    "damaged": summary.get("damaged"),
                }
            )
        return listed

    def _summarise(self, game_id: str) -> dict[str, Any]:
        """The summary of a game read again from its stored events, kept when the store can."""
        with self._lock:
            self._forget(game_id)  # its stored events changed without this service
            self._played(game_id, None)
            replayed = replay_stored(self.store.stored_events(game_id))
            summary = summary_of(replayed.state, replayed.stored, replayed.damage)
            with contextlib.suppress(StoreError):  # not kept: made again next time
                self.store.save_summary(game_id, summary)
        return summary

    def stored_log(self, game_id: str) -> tuple[GameRecord, list[tuple[int, str]], Damage | None]:
        """The game's record, its events as stored (number, text) and where they stop
        replaying: what a damaged game's export holds."""
        record = self.store.game(game_id)
        if record is None:
            raise GameNotFound(f"no game with id {game_id!r}")
        rows = self.store.stored_events(game_id)
        return record, rows, replay_stored(rows).damage

    def snapshot(self, game_id: str) -> Snapshot:
        """The game's state as a client receives it: built whole under the lock when the game
        changes (``publish``), so no reader sees a change half applied, and read without the
        lock, so no reader waits while a change is written to disk."""
        kept = self._snapshots.get(game_id)
        if kept is not None:
            return kept
        with self._lock:
            live = self.get(game_id)
            kept = self._snapshots.get(game_id)
            return kept if kept is not None else self._snapshot_of(live, self.changes.version(game_id))

    def _snapshot_of(self, live: LiveGame, revision: int) -> Snapshot:
        game_id = live.record.id
        beside = self._beside.state_of(game_id) if self._beside is not None else None
        state = state_json(live, beside, self.reviews.progress(game_id))
        kept = Snapshot(revision, state, json.dumps(state, separators=(",", ":")))
        self._snapshots[game_id] = kept
        return kept

    def publish(self, game_id: str) -> None:
        """The game's state changed (its events, its review's progress, what the camera offers
        for it): its new snapshot is made, then its pages hear of it."""
        with self._lock:
            self._snapshot_of(self.get(game_id), self.changes.version(game_id) + 1)
            self.changes.publish(game_id)

    def restate_all(self) -> None:
        """Something every game's state shows changed (the camera's health): each game's
        snapshot is made again when next asked for."""
        with self._lock:
            self._snapshots.clear()

    def set_hints(self, game_id: str, on: bool) -> LiveGame:
        """Show (or not) the worth of each value beside the value buttons at this table."""
        with self._lock:
            live = self.get(game_id)
            self.store.set_setting(game_id, "hints", on)
            live.settings["hints"] = on
            self.publish(game_id)
        return live

    def active_game(self) -> LiveGame | None:
        """The game the camera plays into: the last one created or changed, if unfinished."""
        with self._lock:
            candidates = [self._active] if self._active else []
            candidates += [g["id"] for g in self.listing() if not g["over"] and not g["damaged"]]
            for game_id in candidates:
                try:
                    live = self.get(game_id)
                except GameDamaged:
                    continue
                if not live.state.is_over:
                    return live
            return None

    def check_token(self, game_id: str, token: str | None) -> None:
        record = self.get(game_id).record
        if not token or not secrets.compare_digest(token, record.token):
            raise Unauthorized("this needs the game's token (Authorization: Bearer …)")

    # ------------------------------------------------------------------ commands
    def create(self, config: GameConfig, seed: int | None = None) -> LiveGame:
        """A new game with these settings; ``seed`` shuffles its deck and rolls its virtual dice
        (None: a fresh one, kept with the game)."""
        if seed is None:
            seed = secrets.randbelow(2**31)
        first = start_game(config, random.Random(seed))
        record = GameRecord(
            id=secrets.token_hex(4),
            token=secrets.token_urlsafe(18),
            created=self._clock().isoformat(timespec="seconds"),
            seed=seed,
            title=" · ".join(p.name for p in config.players),
        )
        state = replay([first])
        with self._lock:
            self.store.create_game(record, event_to_dict(first), summary_of(state, 1))
            live = LiveGame(record, [first], state, revision=next(self._revisions))
            self._active = record.id
            self._cache[record.id] = live
            self._trim()
        self.changes.publish("games")
        return live

    def roll(self, game_id: str, dice: tuple[Die, ...]) -> LiveGame:
        with self._lock:
            live = self.get(game_id)
            return self._record(live, Rolled(self._roller(live), dice))

    def roll_virtually(self, game_id: str) -> LiveGame:
        with self._lock:
            live = self.get(game_id)
            rng = random.Random(f"{live.record.seed}:{len(live.events)}")
            event = roll_virtual(live.state, rng)
            return self._record(live, event)

    def place(self, game_id: str, value: int, casino: str) -> LiveGame:
        with self._lock:
            live = self.get(game_id)
            return self._record(live, Placed(self._roller(live), value, casino))

    def undo(self, game_id: str) -> LiveGame:
        with self._lock:
            live = self.get(game_id)
            if len(live.events) <= 1:
                raise IllegalMove("there is nothing to undo yet", "nothing_to_undo")
            self._rewrite(live, len(live.events) - 1, [], replay(live.events[:-1]))
            live = self.get(game_id)
            live.last_change = {"kind": "undo"}
            self.publish(game_id)
        return live

    def restart(self, game_id: str) -> LiveGame:
        """Take the game back to its start (its first event: the same players, the same deck),
        as a recording played again does."""
        with self._lock:
            live = self.get(game_id)
            self._rewrite(live, 1, [], replay(live.events[:1]))
            live = self.get(game_id)
            live.last_change = {"kind": "restart"}
            self._active = game_id  # the game a camera plays into
            self.publish(game_id)
        return live

    def correct_roll(self, game_id: str, seq: Any, dice: tuple[Die, ...]) -> tuple[LiveGame, int]:
        """Replace roll number ``seq`` and replay the rest; later events that no longer fit
        are dropped. Returns the game and how many events were dropped."""
        with self._lock:
            live = self.get(game_id)
            if isinstance(seq, bool) or not isinstance(seq, int) or not 0 < seq < len(live.events):
                raise RequestError(f"there is no event number {seq!r} in this game")
            old = live.events[seq]
            if not isinstance(old, Rolled):
                raise RequestError(f"event {seq} is not a roll; only rolls can be corrected")
            state = replay(live.events[:seq])
            state.apply(Rolled(old.player, dice))  # a corrected roll must itself be legal
            kept: list[Event] = [Rolled(old.player, dice)]
            for later in live.events[seq + 1 :]:
                try:
                    state.apply(later)
                except IllegalMove:
                    break
                kept.append(later)
            dropped = len(live.events) - seq - len(kept)
            self._rewrite(live, seq, kept, state)
            live = self.get(game_id)
            live.last_change = {"kind": "correction", "event": seq, "dropped": dropped}
            self.publish(game_id)
        return live, dropped

    def _roller(self, live: LiveGame) -> str:
        state = live.state
        if state.phase is Phase.OVER:
            raise IllegalMove("the game is over; no more rolls or placements", "game_over")
        return state.current_player or ""

    def _rewrite(self, live: LiveGame, seq: int, events: list[Event], state: GameState) -> None:
        """Store ``events`` in place of the game's events from number ``seq`` on (``state``:
        the game after them); the game is read again from the store when next asked for."""
        try:
            self.store.replace_from(
                live.record.id,
                seq,
                [event_to_dict(e) for e in events],
                summary_of(state, seq + len(events)),
                known=len(live.events),
            )
        finally:
            self._forget(live.record.id)
            self._played(live.record.id, None)

    def _record(self, live: LiveGame, event: Event) -> LiveGame:
        """Apply (the rules refuse or accept), then store with the game's summary; if storing
        fails (a full disk, a stale copy), forget the game: it is read again from the store."""
        rounds_before = len(live.state.rounds)
        live.state.apply(event)
        try:
            summary = summary_of(live.state, len(live.events) + 1)
            self.store.append(live.record.id, len(live.events), event_to_dict(event), summary)
        except Exception:
            self._forget(live.record.id)
            self._played(live.record.id, None)
            raise
        live.events.append(event)
        live.revision = next(self._revisions)
        live.last_change = {
            "kind": type(event).__name__.lower(),
            "round_ended": len(live.state.rounds) > rounds_before,
        }
        self._active = live.record.id
        self._played(live.record.id, event)
        self.publish(live.record.id)
        if live.last_change["round_ended"] and self._review_rounds:
            self.reviews.request(live.record.id)
        return live


def summary_of(state: GameState | None, events: int, damage: Damage | None = None) -> dict[str, Any]:
    """What the game list shows of a game, kept with each write: ``state`` is the game after its
    ``events`` (None when not even its start replays)."""
    return {
        "edition": state.config.edition if state else None,
        "round": state.round_number if state else 0,
        "over": state.is_over if state else False,
        "winners": state.winners() if state and state.is_over else [],
        "events": events,
        "damaged": damage.as_json() if damage else None,
    }
