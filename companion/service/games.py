"""Commands on stored games. Each is checked by the rules before it is stored, so a refused
command changes nothing, and each stored change is announced on the change feed."""

import json
import random
import secrets
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from ..rules import (
    Die,
    Event,
    GameConfig,
    GameState,
    IllegalMove,
    Phase,
    Placed,
    Rolled,
    event_from_dict,
    event_to_dict,
    replay,
    roll_virtual,
    start_game,
)
from ..rules.events import die_to_dict
from ..storage import EventStore, GameRecord
from ..words import counted
from .changes import ChangeFeed
from .errors import GameNotFound, RequestError, Unauthorized
from .reviews import ROLLOUTS, Reviewer
from .view import state_json

#: rollouts per value for the hints: each value's worth to about ±$1,500, in about 0.3 s
ADVICE_ROLLOUTS = 1000
#: plays of the rest of the game for the chances to win: each to about ±1.5 points, in under 1 s
CHANCES_ROLLOUTS = 1000


@dataclass(frozen=True)
class Snapshot:
    """A game's state at one revision: as a dict and as the JSON text sent to clients."""

    revision: int  # the game's version on the change feed
    state: dict[str, Any]
    text: str


@dataclass
class LiveGame:
    """A game as the service holds it: its record, its events and their fold, and what the
    camera proposes (not events: nothing is recorded until it fits or a player confirms)."""

    record: GameRecord
    events: list[Event]
    state: GameState
    last_change: dict[str, Any] = field(default_factory=dict)
    #: a camera reading that does not fit the roll: {"dice", "problem", "version"} + frame
    camera_roll: dict[str, Any] | None = None
    camera_frame: bytes | None = None
    #: a placement the camera saw happen: {"value", "casino"}
    proposal: dict[str, Any] | None = None
    #: the table's choices for this game (``hints``), kept beside its events
    settings: dict[str, Any] = field(default_factory=dict)


class GameService:
    """Creates games and applies commands to them; thread-safe."""

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
        self.reviews = Reviewer(self, review_rollouts)
        self._review_rounds = review_rounds
        #: the advice for the roll in front of a player, per game: (events then, advice)
        self._advice: dict[str, tuple[int, dict[str, Any]]] = {}
        #: each player's chance to win, per game: (events then, chances)
        self._chances: dict[str, tuple[int, dict[str, Any]]] = {}
        self.changes = ChangeFeed()
        self._clock = clock or (lambda: datetime.now(UTC))
        self._lock = threading.RLock()
        #: set when a player asks the camera to read the table again (the camera loop clears it)
        self.read_again = threading.Event()
        #: every game's snapshot as of its last change (``snapshot``)
        self._snapshots: dict[str, Snapshot] = {}
        self._cache: dict[str, LiveGame] = {}
        #: the camera's health when a camera loop runs: {"ok", "message", "source"}
        self.camera: dict[str, Any] | None = None
        self._active: str | None = None
        self._viewers: dict[str, threading.Event] = {}

    # ------------------------------------------------------------------ reading
    def get(self, game_id: str) -> LiveGame:
        with self._lock:
            live = self._cache.get(game_id)
            if live is None:
                live = self._load(game_id)
                self._cache[game_id] = live
            return live

    def _load(self, game_id: str) -> LiveGame:
        record = self.store.game(game_id)
        if record is None:
            raise GameNotFound(f"no game with id {game_id!r}")
        events = [event_from_dict(e) for e in self.store.events(game_id)]
        return LiveGame(record, events, replay(events), settings=self.store.settings(game_id))

    def snapshot(self, game_id: str) -> Snapshot:
        """The game's state as a client receives it: built whole under the lock when the game
        changes (``_changed``), so no reader sees a change half applied, and read without the
        lock, so no reader waits while a change is written to disk."""
        kept = self._snapshots.get(game_id)
        if kept is not None:
            return kept
        with self._lock:
            live = self.get(game_id)
            kept = self._snapshots.get(game_id)
            return kept if kept is not None else self._snapshot_of(live, self.changes.version(game_id))

    def _snapshot_of(self, live: LiveGame, revision: int) -> Snapshot:
        state = state_json(live, self.camera, self.reviews.progress(live.record.id))
        kept = Snapshot(revision, state, json.dumps(state, separators=(",", ":")))
        self._snapshots[live.record.id] = kept
        return kept

    def _changed(self, game_id: str) -> None:
        """After a change (under the lock): the game's new snapshot, then the news of it."""
        self._snapshot_of(self.get(game_id), self.changes.version(game_id) + 1)
        self.changes.publish(game_id)

    def review_changed(self, game_id: str) -> None:
        """The review of the game moved on or finished: its pages hear of it."""
        with self._lock:
            self._changed(game_id)

    def advice(self, game_id: str) -> dict[str, Any]:
        """What each placement of the roll in front of the player is worth: the chance to win,
        the money by the round's end (``odds.advisor``), worked out once per roll."""
        from ..odds.advisor import advice_json  # numpy: loaded when a table first asks
        from ..odds.position import Position
        from ..odds.standing import Standing

        def inputs(live: LiveGame, moment: int) -> Callable[[], dict[str, Any]]:
            state = live.state
            if state.phase is not Phase.PLACE or not state.last_roll:
                raise IllegalMove("no roll waits to be placed: the worth of each value is for a roll")
            position = Position.from_state(state)
            standing = Standing.from_state(state)
            dice = [(d.colour, d.pips, d.big) for d in state.last_roll]
            rng = random.Random(f"{live.record.seed}:advice:{moment}")
            return lambda: advice_json(position, dice, ADVICE_ROLLOUTS, rng, standing)

        return self._once_per_change(self._advice, game_id, inputs)

    def chances(self, game_id: str) -> dict[str, Any]:
        """Each player's chance to win from where the game stands (``odds.chances``), worked out
        once per change of the game."""
        from ..odds.chances import win_chances

        def inputs(live: LiveGame, moment: int) -> Callable[[], dict[str, Any]]:
            state = replay(live.events)  # a copy: the rollouts read it while play goes on
            rng = random.Random(f"{live.record.seed}:chances:{moment}")

            def work() -> dict[str, Any]:
                found = win_chances(state, CHANCES_ROLLOUTS, rng)
                return {
                    "events": moment,
                    "rollouts": found.rollouts,
                    "chances": {c: round(p, 3) for c, p in found.chances.items()},
                    "stderr": {c: round(e, 3) for c, e in found.stderr.items()},
                }

            return work

        return self._once_per_change(self._chances, game_id, inputs)

    def _once_per_change(
        self,
        kept: dict[str, tuple[int, dict[str, Any]]],
        game_id: str,
        inputs: Callable[[LiveGame, int], Callable[[], dict[str, Any]]],
    ) -> dict[str, Any]:
        """The answer ``kept`` for the game as it stands, else worked out: ``inputs`` takes what
        it needs from the game under the lock and returns the work, done without the lock (so
        play goes on meanwhile) and kept until the game changes."""
        with self._lock:
            live = self.get(game_id)
            moment = len(live.events)
            known = kept.get(game_id)
            if known is not None and known[0] == moment:
                return known[1]
            work = inputs(live, moment)
        answer = work()
        with self._lock:
            kept[game_id] = (moment, answer)
        return answer

    def set_hints(self, game_id: str, on: bool) -> LiveGame:
        """Show (or not) the worth of each value beside the value buttons at this table."""
        with self._lock:
            live = self.get(game_id)
            self.store.set_setting(game_id, "hints", on)
            live.settings["hints"] = on
            self._changed(game_id)
        return live

    def active_game(self) -> LiveGame | None:
        """The game the camera plays into: the last one created or changed, if unfinished."""
        with self._lock:
            candidates = [self._active] if self._active else []
            candidates += [r.id for r in self.store.games()]
            for game_id in candidates:
                live = self.get(game_id)
                if not live.state.is_over:
                    return live
            return None

    def viewer_joined(self, game_id: str) -> None:
        """A page opened this game's live updates."""
        with self._lock:
            self._viewers.setdefault(game_id, threading.Event()).set()

    def wait_for_viewer(self, game_id: str, stop: threading.Event) -> bool:
        """Block until a page opens this game's live updates (since ``forget_viewers``), or
        ``stop`` is set; whether a page did."""
        with self._lock:
            joined = self._viewers.setdefault(game_id, threading.Event())
        while not joined.wait(0.2):
            if stop.is_set():
                return False
        return True

    def forget_viewers(self, game_id: str) -> None:
        """From now on ``wait_for_viewer`` waits for a page opened after this."""
        with self._lock:
            self._viewers.setdefault(game_id, threading.Event()).clear()

    def set_camera_status(self, kind: str, message: str, source: str) -> None:
        """``kind``: "ok", "lost", "ended", "blind" (a black or dazzled picture), "dim" (rolls
        too dark for their dice's colours), "colourless" (rolls seen in a picture without colour)
        or "calibration" (its table or zones do not fit the camera's frames and are left out)."""
        with self._lock:
            self.camera = {
                "ok": kind == "ok",
                "ended": kind == "ended",
                "kind": kind,
                "message": message,
                "source": source,
            }
            self._snapshots.clear()  # the camera's line is part of every game's state
            live = self.active_game()
            if live is not None:
                self._changed(live.record.id)

    def offer_camera_roll(
        self,
        game_id: str,
        dice: tuple[Die, ...],
        picture: Callable[[], bytes | None],
        unsure: tuple[int, ...] = (),
    ) -> LiveGame:
        """Record the camera's roll when the rules accept it and the camera is sure of every die;
        otherwise keep it, with the reason and ``picture()`` (made only then), for a player to
        correct or confirm. ``unsure``: the indices of the dice the camera is unsure of."""
        with self._lock:
            live = self.get(game_id)
            if unsure and live.state.roll_fits(dice):
                kind, problem = "unsure", unsure_problem(len(unsure))
            else:
                try:
                    return self._record(live, Rolled(self._roller(live), dice))
                except IllegalMove as err:
                    kind, problem = "misfit", str(err)
            version = (live.camera_roll or {}).get("version", 0) + 1
            live.camera_roll = {
                "dice": [die_to_dict(d) for d in dice],
                "kind": kind,
                "problem": problem,
                "unsure": list(unsure),
                "version": version,
            }
            live.camera_frame = picture()
            self._changed(game_id)
        return live

    def ask_to_read_again(self, game_id: str) -> LiveGame:
        """A player asks the camera to read the table again (the roll it offered was read wrong):
        the offer goes, and the camera's next reading of the table takes its place."""
        live = self.dismiss_camera_roll(game_id)
        self.read_again.set()
        return live

    def dismiss_camera_roll(self, game_id: str) -> LiveGame:
        with self._lock:
            live = self.get(game_id)
            live.camera_roll, live.camera_frame = None, None
            self._changed(game_id)
        return live

    def propose_placement(self, game_id: str, proposal: dict[str, Any] | None) -> None:
        with self._lock:
            live = self.get(game_id)
            if live.proposal == proposal:
                return
            live.proposal = proposal
            self._changed(game_id)

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
        with self._lock:
            self.store.create_game(record, event_to_dict(first))
            live = LiveGame(record, [first], replay([first]))
            self._cache[record.id] = live
            self._active = record.id
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
                raise IllegalMove("there is nothing to undo yet")
            self.store.replace_from(game_id, len(live.events) - 1, [])
            self._cache.pop(game_id, None)
            live = self.get(game_id)
            live.last_change = {"kind": "undo"}
            self._changed(game_id)
        return live

    def restart(self, game_id: str) -> LiveGame:
        """Take the game back to its start (its first event: the same players, the same deck),
        as a recording played again does."""
        with self._lock:
            self.get(game_id)  # GameNotFound first
            self.store.replace_from(game_id, 1, [])
            self._cache.pop(game_id, None)
            live = self.get(game_id)
            live.last_change = {"kind": "restart"}
            self._active = game_id  # the game a camera plays into
            self._changed(game_id)
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
            self.store.replace_from(game_id, seq, [event_to_dict(e) for e in kept])
            self._cache.pop(game_id, None)
            live = self.get(game_id)
            live.last_change = {"kind": "correction", "event": seq, "dropped": dropped}
            self._changed(game_id)
        return live, dropped

    def _roller(self, live: LiveGame) -> str:
        state = live.state
        if state.phase is Phase.OVER:
            raise IllegalMove("the game is over; no more rolls or placements")
        return state.current_player or ""

    def _record(self, live: LiveGame, event: Event) -> LiveGame:
        """Apply (the rules refuse or accept), then store; if storing fails, forget the cache."""
        rounds_before = len(live.state.rounds)
        live.state.apply(event)
        try:
            self.store.append(live.record.id, len(live.events), event_to_dict(event))
        except Exception:
            self._cache.pop(live.record.id, None)
            raise
        live.events.append(event)
        live.last_change = {
            "kind": type(event).__name__.lower(),
            "round_ended": len(live.state.rounds) > rounds_before,
        }
        live.proposal = None
        if isinstance(event, Rolled):
            live.camera_roll, live.camera_frame = None, None
        self._active = live.record.id
        self._changed(live.record.id)
        if live.last_change["round_ended"] and self._review_rounds:
            self.reviews.request(live.record.id)
        return live


def unsure_problem(count: int) -> str:
    """Why a roll that fits waits for a player: the camera is unsure of ``count`` of its dice."""
    dice = counted(count, "die", "dice")
    return f"the camera is unsure of {dice} (boxed in red); check the roll, then record it"
