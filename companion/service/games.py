"""Commands on stored games. Each is checked by the rules before it is stored, so a refused
command changes nothing, and each stored change is announced on the change feed."""

import contextlib
import json
import logging
import random
import secrets
import sqlite3
import threading
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from ..fixes import DieCrop, Fix, FixStore
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
from ..rules.events import die_from_dict, die_to_dict
from ..storage import EventStore, GameRecord, StoreError
from ..words import counted
from .changes import ChangeFeed
from .errors import FixRefused, GameDamaged, GameNotFound, RequestError, Unauthorized
from .reviews import ROLLOUTS, Reviewer
from .stored_log import Damage, replay_stored
from .view import state_json

log = logging.getLogger(__name__)

#: rollouts per value for the hints: each value's worth to about ±$1,500, in about 0.3 s
ADVICE_ROLLOUTS = 1000
#: plays of the rest of the game for the chances to win: each to about ±1.5 points, in under 1 s
CHANCES_ROLLOUTS = 1000
#: games kept in memory besides those in play (followed live, fed by the camera, the last changed):
#: a game is about 0.2 MB in memory, and one not kept is read again in a few milliseconds
CACHED_GAMES = 8


@dataclass(frozen=True)
class Snapshot:
    """A game's state at one revision: as a dict and as the JSON text sent to clients."""

    revision: int  # the game's version on the change feed
    state: dict[str, Any]
    text: str


@dataclass(frozen=True)
class CameraOffer:
    """What the camera read of a roll that waits for a player, kept for the dice a player fixes:
    an id of its own (a fix names its die by it), the dice as read, and a crop of each die
    (None where there is no picture)."""

    id: str
    read: tuple[Die, ...]
    crops: tuple[DieCrop | None, ...]


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
    #: what the camera read of that roll and each die's crop, for the dice a player fixes
    camera_offer: CameraOffer | None = None
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
        fixes: FixStore | None = None,
    ) -> None:
        """``review_rounds``: review each round in the background as it ends (the server does;
        otherwise a review is made when asked for), with ``review_rollouts`` per choice.
        ``fixes``: where the dice players fix on the camera's picture are kept (None: not kept)."""
        self.store = store
        self.fixes = fixes
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
        #: the snapshot of each game in memory as of its last change (``snapshot``)
        self._snapshots: dict[str, Snapshot] = {}
        #: the games in memory, least recently used first (``_trim`` bounds them)
        self._cache: OrderedDict[str, LiveGame] = OrderedDict()
        #: the camera's health when a camera loop runs: {"ok", "message", "source"}
        self.camera: dict[str, Any] | None = None
        self._active: str | None = None
        self._viewers: dict[str, threading.Event] = {}

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
        return LiveGame(record, replayed.events, replayed.state, settings=self.store.settings(game_id))

    def _trim(self) -> None:
        """Forget the least recently used games past ``CACHED_GAMES``, keeping those in play."""
        spare = [game_id for game_id, live in self._cache.items() if not self._in_play(game_id, live)]
        for game_id in spare[: max(0, len(spare) - CACHED_GAMES)]:
            self._forget(game_id)

    def _in_play(self, game_id: str, live: LiveGame) -> bool:
        return (
            game_id == self._active
            or self.changes.listened(game_id)
            or live.camera_roll is not None
            or live.proposal is not None
        )

    def _forget(self, game_id: str) -> None:
        """Drop the game from memory; it is read from the store when next asked for."""
        self._cache.pop(game_id, None)
        self._snapshots.pop(game_id, None)
        self._advice.pop(game_id, None)
        self._chances.pop(game_id, None)

    def listing(self) -> list[dict[str, Any]]:
        """Every game as the game list shows it, newest first, from the summaries kept with
        each write: a game is read again only when its summary is missing or stale (its events
        were changed by another program), and one whose events no longer replay is listed
        with ``damaged``: the first event that fails and why."""
        listed = []
        for item in self.store.listing():
            summary = item.summary if item.summary is not None else self._summarise(item.record.id)
            listed.append(
                {
                    "id": item.record.id,
                    "title": item.record.title,
                    "created": item.record.created,
                    **{key: summary.get(key) for key in ("edition", "round", "over", "winners", "damaged")},
                }
            )
        return listed

    def _summarise(self, game_id: str) -> dict[str, Any]:
        """The summary of a game read again from its stored events, kept when the store can."""
        with self._lock:
            self._forget(game_id)  # its stored events changed without this service
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
                raise IllegalMove(
                    "no roll waits to be placed: the worth of each value is for a roll", "no_roll_waits"
                )
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
            candidates += [g["id"] for g in self.listing() if not g["over"] and not g["damaged"]]
            for game_id in candidates:
                try:
                    live = self.get(game_id)
                except GameDamaged:
                    continue
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
        boxes: list[list[float]] | None = None,
        crops: Callable[[], tuple[DieCrop | None, ...]] | None = None,
    ) -> LiveGame:
        """Record the camera's roll when the rules accept it and the camera is sure of every die;
        otherwise keep it, with the reason and ``picture()`` (made only then), for a player to
        correct or confirm. ``unsure``: the indices of the dice the camera is unsure of;
        ``boxes``: each die's box as fractions of the picture (where the page rings it);
        ``crops()``: a crop of each die, kept with a fix of it."""
        with self._lock:
            live = self.get(game_id)
            roller = roller_name(live.state)
            if unsure and live.state.roll_fits(dice):
                kind, problem = "unsure", unsure_problem(len(unsure), roller)
            else:
                try:
                    return self._record(live, Rolled(self._roller(live), dice))
                except IllegalMove as err:
                    kind, problem = "misfit", f"{roller}'s roll as the camera read it: {err}"
            version = (live.camera_roll or {}).get("version", 0) + 1
            live.camera_roll = {
                "dice": [die_to_dict(d) for d in dice],
                "kind": kind,
                "problem": problem,
                "unsure": list(unsure),
                "fixed": [],
                "boxes": boxes if boxes is not None and len(boxes) == len(dice) else None,
                "version": version,
            }
            live.camera_frame = picture()
            kept = crops() if crops is not None else ()
            live.camera_offer = CameraOffer(
                secrets.token_hex(4), dice, kept if len(kept) == len(dice) else (None,) * len(dice)
            )
            self._changed(game_id)
        return live

    def fix_camera_die(self, game_id: str, version: Any, index: Any, die: Die) -> LiveGame:
        """A player says what die number ``index`` of the camera's waiting roll (offer
        ``version``) is: the roll takes it, the fix is kept with the die's crop, and the roll is
        recorded once no die the camera was unsure of is left and the rules accept it."""
        with self._lock:
            live = self.get(game_id)
            pending, offer = live.camera_roll, live.camera_offer
            if pending is None or offer is None:
                raise FixRefused(
                    "no camera roll waits for a player in this game; the roll was recorded or dismissed",
                    "no_camera_roll",
                )
            if version != pending["version"]:
                raise FixRefused(
                    "the camera has offered another roll since this one; fix a die of the roll shown now",
                    "camera_roll_changed",
                    version=pending["version"],
                )
            count = len(pending["dice"])
            if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < count:
                raise FixRefused(
                    f"the camera's roll has no die number {index!r}; its dice are numbered 0 to {count - 1}",
                    "no_such_die",
                    die=index,
                    count=count,
                )
            self._keep_fix(live, offer, index, die)
            pending["dice"][index] = die_to_dict(die)
            pending["unsure"] = [i for i in pending["unsure"] if i != index]
            pending["fixed"] = sorted({*pending["fixed"], index})
            dice = tuple(die_from_dict(d) for d in pending["dice"])
            if not pending["unsure"]:
                try:
                    return self._record(live, Rolled(self._roller(live), dice))
                except IllegalMove as err:
                    pending["kind"], pending["problem"] = "misfit", str(err)
            elif live.state.roll_fits(dice):
                pending["kind"], pending["problem"] = (
                    "unsure",
                    unsure_problem(len(pending["unsure"]), roller_name(live.state)),
                )
            self._changed(game_id)
        return live

    def _keep_fix(self, live: LiveGame, offer: CameraOffer, index: int, said: Die) -> None:
        """Keep what the player said of a die beside the game, with its crop (when there is one)."""
        crop = offer.crops[index]
        if self.fixes is None or crop is None:
            return
        created = self._clock().isoformat(timespec="seconds")
        fix = Fix(
            f"{live.record.id}-{offer.id}-{index}", live.record.id, created, offer.read[index], said, crop
        )
        try:
            self.fixes.keep(fix)
        except (sqlite3.Error, OSError):  # a labelled die lost for training; the player's roll goes on
            log.warning(
                "the fix of die %d in game %s could not be kept", index, live.record.id, exc_info=True
            )

    def ask_to_read_again(self, game_id: str) -> LiveGame:
        """A player asks the camera to read the table again (the roll it offered was read wrong):
        the offer goes, and the camera's next reading of the table takes its place."""
        live = self.dismiss_camera_roll(game_id)
        self.read_again.set()
        return live

    def dismiss_camera_roll(self, game_id: str) -> LiveGame:
        with self._lock:
            live = self.get(game_id)
            live.camera_roll, live.camera_frame, live.camera_offer = None, None, None
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
        state = replay([first])
        with self._lock:
            self.store.create_game(record, event_to_dict(first), summary_of(state, 1))
            live = LiveGame(record, [first], state)
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
            self._changed(game_id)
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
            self._rewrite(live, seq, kept, state)
            live = self.get(game_id)
            live.last_change = {"kind": "correction", "event": seq, "dropped": dropped}
            self._changed(game_id)
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
            raise
        live.events.append(event)
        live.last_change = {
            "kind": type(event).__name__.lower(),
            "round_ended": len(live.state.rounds) > rounds_before,
        }
        live.proposal = None
        if isinstance(event, Rolled):
            live.camera_roll, live.camera_frame, live.camera_offer = None, None, None
        self._active = live.record.id
        self._changed(live.record.id)
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


def roller_name(state: GameState) -> str:
    """The player whose roll the game waits for, by name and colour: "Ana (red)"."""
    colour = state.current_player or ""
    name = next((p.name for p in state.config.players if p.colour == colour), colour)
    return f"{name} ({colour})" if name != colour else colour


def unsure_problem(count: int, roller: str) -> str:
    """Why a roll that fits waits for a player: the camera is unsure of ``count`` of ``roller``'s dice."""
    dice = counted(count, "die", "dice")
    return f"the camera is unsure of {dice} of {roller}'s roll (boxed in red); check the roll, then record it"
