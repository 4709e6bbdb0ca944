"""The camera's session at the table: its health, the roll it read that waits for a player (with
its picture and each die's crop), and the placement it saw happen. None of it is an event:
nothing is recorded until the rules accept it and the camera is sure, or a player confirms.

Every command here runs under the game service's lock and goes through its public commands, so
a roll the camera offers while a player taps is weighed against the game as it is then, and
each game's state shows the session and the game at the same moment."""

import copy
import logging
import secrets
import sqlite3
import threading
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from ..fixes import DieCrop, Fix, FixStore
from ..rules import Die, Event, GameState, IllegalMove, Rolled
from ..rules.events import die_from_dict, die_to_dict
from ..service import FixRefused, GameService, LiveGame
from ..service.state_types import CameraJson, CameraRollJson, PlacementJson
from ..service.view import CameraPartJson
from ..words import counted

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class CameraOffer:
    """What the camera read of a roll that waits for a player, kept for the dice a player fixes:
    an id of its own (a fix names its die by it), the dice as read, and a crop of each die
    (None where there is no picture)."""

    id: str
    read: tuple[Die, ...]
    crops: tuple[DieCrop | None, ...]


@dataclass
class WaitingRoll:
    """A camera reading that does not fit the roll, or holds a die the camera is unsure of."""

    #: as the page shows it: {"dice", "kind", "problem", "unsure", "fixed", "boxes", "version"}
    shown: CameraRollJson
    #: the camera's picture of it, with what was read drawn on it (JPEG)
    frame: bytes | None
    offer: CameraOffer


class CameraSession:
    """The camera's side of the games of ``games`` (its ``Beside``); thread-safe."""

    def __init__(
        self,
        games: GameService,
        fixes: FixStore | None = None,
        clock: Callable[[], datetime] | None = None,
    ) -> None:
        """``fixes``: where the dice players fix on the camera's picture are kept (None: not kept)."""
        self.games = games
        self.fixes = fixes
        self._clock = clock or (lambda: datetime.now(UTC))
        #: the camera's health when a camera loop runs: {"ok", "ended", "kind", "message", "source"}
        self.status: CameraJson | None = None
        #: set when a player asks the camera to read the table again (the camera loop clears it)
        self.read_again = threading.Event()
        self._waiting: dict[str, WaitingRoll] = {}
        #: a placement the camera saw happen, per game: {"value", "casino"}
        self._proposals: dict[str, PlacementJson] = {}
        games.attach(self)

    # ------------------------------------------------------------------ what the game shows
    def state_of(self, game_id: str) -> CameraPartJson:
        """The camera's part of the game's state (a copy: a fix changes the waiting roll later)."""
        waiting = self._waiting.get(game_id)
        proposal = self._proposals.get(game_id)
        return {
            "camera": self.status.copy() if self.status is not None else None,
            "camera_roll": copy.deepcopy(waiting.shown) if waiting is not None else None,
            "proposal": proposal.copy() if proposal is not None else None,
        }

    def played(self, game_id: str, event: Event | None) -> None:
        """A recorded roll takes the place of the one waiting, and any change of play of a
        placement the camera saw; an undo, a restart or a correction, of both."""
        if event is None or isinstance(event, Rolled):
            self._waiting.pop(game_id, None)
        self._proposals.pop(game_id, None)

    def frame(self, game_id: str) -> bytes | None:
        """The camera's picture of the roll waiting in this game (GameNotFound: no such game)."""
        self.games.get(game_id)
        waiting = self._waiting.get(game_id)
        return waiting.frame if waiting is not None else None

    def die_crop(self, game_id: str, index: int) -> DieCrop | None:
        """The crop of die number ``index`` of the roll waiting in this game, if there is one."""
        self.games.get(game_id)
        waiting = self._waiting.get(game_id)
        crops = waiting.offer.crops if waiting is not None else ()
        return crops[index] if 0 <= index < len(crops) else None

    # ------------------------------------------------------------------ commands
    def set_status(self, kind: str, message: str, source: str) -> None:
        """``kind``: "ok", "lost", "ended", "blind" (a black or dazzled picture), "dim" (rolls
        too dark for their dice's colours), "colourless" (rolls seen in a picture without colour)
        or "calibration" (its table or zones do not fit the camera's frames and are left out)."""
        with self.games.locked():
            self.status = {
                "ok": kind == "ok",
                "ended": kind == "ended",
                "kind": kind,
                "message": message,
                "source": source,
            }
            self.games.restate_all()  # the camera's line is part of every game's state
            live = self.games.active_game()
            if live is not None:
                self.games.publish(live.record.id)

    def offer_roll(
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
        with self.games.locked():
            live = self.games.get(game_id)
            roller = roller_name(live.state)
            if unsure and live.state.roll_fits(dice):
                kind, problem = "unsure", unsure_problem(len(unsure), roller)
            else:
                try:
                    return self.games.roll(game_id, dice)
                except IllegalMove as err:
                    kind, problem = "misfit", f"{roller}'s roll as the camera read it: {err}"
            earlier = self._waiting.get(game_id)
            kept = crops() if crops is not None else ()
            self._waiting[game_id] = WaitingRoll(
                shown={
                    "dice": [die_to_dict(d) for d in dice],
                    "kind": kind,
                    "problem": problem,
                    "unsure": list(unsure),
                    "fixed": [],
                    "boxes": boxes if boxes is not None and len(boxes) == len(dice) else None,
                    "version": (earlier.shown["version"] if earlier is not None else 0) + 1,
                },
                frame=picture(),
                offer=CameraOffer(
                    secrets.token_hex(4), dice, kept if len(kept) == len(dice) else (None,) * len(dice)
                ),
            )
            self.games.publish(game_id)
        return live

    def fix_die(self, game_id: str, version: Any, index: Any, die: Die) -> LiveGame:
        """A player says what die number ``index`` of the camera's waiting roll (offer
        ``version``) is: the roll takes it, the fix is kept with the die's crop, and the roll is
        recorded once no die the camera was unsure of is left and the rules accept it."""
        with self.games.locked():
            live = self.games.get(game_id)
            waiting = self._waiting.get(game_id)
            if waiting is None:
                raise FixRefused(
                    "no camera roll waits for a player in this game; the roll was recorded or dismissed",
                    "no_camera_roll",
                )
            pending = waiting.shown
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
            self._keep_fix(game_id, waiting.offer, index, die)
            pending["dice"][index] = die_to_dict(die)
            pending["unsure"] = [i for i in pending["unsure"] if i != index]
            pending["fixed"] = sorted({*pending["fixed"], index})
            dice = tuple(die_from_dict(d) for d in pending["dice"])
            if not pending["unsure"]:
                try:
                    return self.games.roll(game_id, dice)
                except IllegalMove as err:
                    pending["kind"], pending["problem"] = "misfit", str(err)
            elif live.state.roll_fits(dice):
                pending["kind"], pending["problem"] = (
                    "unsure",
                    unsure_problem(len(pending["unsure"]), roller_name(live.state)),
                )
            self.games.publish(game_id)
        return live

    def _keep_fix(self, game_id: str, offer: CameraOffer, index: int, said: Die) -> None:
        """Keep what the player said of a die beside the game, with its crop (when there is one)."""
        crop = offer.crops[index]
        if self.fixes is None or crop is None:
            return
        created = self._clock().isoformat(timespec="seconds")
        fix = Fix(f"{game_id}-{offer.id}-{index}", game_id, created, offer.read[index], said, crop)
        try:
            self.fixes.keep(fix)
        except (sqlite3.Error, OSError):  # a labelled die lost for training; the player's roll goes on
            log.warning("the fix of die %d in game %s could not be kept", index, game_id, exc_info=True)

    def ask_to_read_again(self, game_id: str) -> LiveGame:
        """A player asks the camera to read the table again (the roll it offered was read wrong):
        the offer goes, and the camera's next reading of the table takes its place."""
        live = self.dismiss_roll(game_id)
        self.read_again.set()
        return live

    def dismiss_roll(self, game_id: str) -> LiveGame:
        """The roll waiting for a player goes (a player enters the roll another way)."""
        with self.games.locked():
            live = self.games.get(game_id)
            self._waiting.pop(game_id, None)
            self.games.publish(game_id)
        return live

    def propose_placement(self, game_id: str, proposal: PlacementJson | None) -> None:
        """The placement the camera saw happen (None: none), shown for a player to confirm."""
        with self.games.locked():
            live = self.games.get(game_id)
            legal = {(placed.value, placed.casino) for placed in live.state.legal_placements()}
            if proposal is not None and (proposal["value"], proposal["casino"]) not in legal:
                proposal = None  # play moved on since the camera saw it
            if self._proposals.get(game_id) == proposal:
                return
            if proposal is None:
                self._proposals.pop(game_id, None)
            else:
                self._proposals[game_id] = proposal
            self.games.publish(game_id)


def roller_name(state: GameState) -> str:
    """The player whose roll the game waits for, by name and colour: "Ana (red)"."""
    colour = state.current_player or ""
    name = next((p.name for p in state.config.players if p.colour == colour), colour)
    return f"{name} ({colour})" if name != colour else colour


def unsure_problem(count: int, roller: str) -> str:
    """Why a roll that fits waits for a player: the camera is unsure of ``count`` of ``roller``'s dice."""
    dice = counted(count, "die", "dice")
    return f"the camera is unsure of {dice} of {roller}'s roll (boxed in red); check the roll, then record it"
