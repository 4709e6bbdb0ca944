"""The camera into the live game: a settled roll becomes the current player's roll when it
fits and the reader is sure of every die; otherwise the page shows the picture and asks for a
correction (or, for a roll that fits, a confirmation). Dice that arrived in a
casino zone become a placement proposal (accepted at once only with ``accept_placements``)."""

from collections import Counter

from ..camera.watcher import Settled
from ..fixes import DieCrop
from ..fixes.crops import die_crop, picture_boxes
from ..rules import Die, GameState, Phase
from ..rules.colours import canonical
from ..service.state_types import PlacementJson
from ..vision import SeenDie
from ..vision.annotate import annotate, jpeg
from ..vision.sure import is_sure
from .roll_colours import to_rules_dice
from .session import CameraSession


def unsure(die: SeenDie) -> bool:
    """Whether the reader is unsure of this die (``vision.sure.is_sure``): a roll that holds
    one is shown to a player before it is recorded."""
    return not is_sure(die)


def unsure_dice(seen: tuple[SeenDie, ...]) -> tuple[int, ...]:
    """The indices of the dice the reader is unsure of."""
    return tuple(i for i, die in enumerate(seen) if unsure(die))


def placement_seen(placed: dict[str, int], before: dict[str, int], state: GameState) -> PlacementJson | None:
    """The casino whose zone gained the most dice since the previous settled view, among the
    values just rolled. Comparing two views of the camera (not the camera with the game)
    cancels whatever it steadily mistakes for a die, such as a painted casino number."""
    if state.phase is not Phase.PLACE or not state.last_roll:
        return None
    rolled = Counter(d.pips for d in state.last_roll)
    gains = {name: placed.get(name, 0) - before.get(name, 0) for name in state.casinos}
    candidates = [n for n, g in gains.items() if g > 0 and (n == "slot" or int(n) in rolled)]
    if not candidates:
        return None
    best = max(gains[n] for n in candidates)
    top = [n for n in candidates if gains[n] == best]
    if len(top) != 1:
        return None
    name = top[0]
    if name == "slot":
        values = [v for v, n in rolled.items() if n == gains[name]]
        return {"value": values[0], "casino": "slot"} if len(values) == 1 else None
    return {"value": int(name), "casino": name}


def taken_from_others(seen: tuple[SeenDie, ...], named: tuple[Die, ...], state: GameState) -> tuple[int, ...]:
    """The dice read in another player's colour that the naming gave the roller: a renaming
    that changes whose dice they are is asked about, never assumed (a roll read as black, blue,
    red and white dice is not the white player's until a player says so)."""
    others = {canonical(p.colour) for p in state.config.players} - {canonical(state.current_player or "")}
    return tuple(
        i
        for i, (die, name) in enumerate(zip(seen, named, strict=True))
        if canonical(die.colour) in others and canonical(name.colour) != canonical(die.colour)
    )


#: the phases in which the game waits for a roll
ROLL_PHASES = (Phase.ROLL, Phase.NEUTRAL_ROLL)


class CameraBridge:
    """What a camera loop reports, into the camera's ``session`` and the game it plays into."""

    def __init__(self, session: CameraSession, source_name: str, accept_placements: bool = False) -> None:
        self.session = session
        self.service = session.games
        self.source_name = source_name
        self.accept_placements = accept_placements
        self._placed_before: dict[str, int] = {}

    def on_record(self, record: dict) -> None:
        if "camera" in record:
            self.session.set_status(record["camera"], record["message"], self.source_name)

    def dice_rolled(self) -> int | None:
        """How many dice the camera's game waits to see rolled (None: it waits for no roll)."""
        with self.service.locked():  # a tap changes the game's state in place
            live = self.service.active_game()
            if live is None or live.state.phase not in ROLL_PHASES:
                return None
            return sum(live.state.expected_roll().values()) or None

    def on_settled(self, seen: Settled) -> None:
        """A settled view of the table: a placement it shows, and a roll it shows, go to the game.
        Weighed against the game under the service's lock, so that a player's tap in between
        cannot have the dice named for the hand of the player before."""
        with self.service.locked():
            self._take(seen)

    def _take(self, seen: Settled) -> None:
        live = self.service.active_game()
        if live is None:
            return
        state = live.state
        before, self._placed_before = self._placed_before, dict(seen.placed)
        if seen.placed:
            proposal = placement_seen(seen.placed, before, state)
            if proposal is not None:
                if self.accept_placements:
                    live = self.service.place(live.record.id, proposal["value"], proposal["casino"])
                    state = live.state
                else:
                    self.session.propose_placement(live.record.id, proposal)
        if not seen.new_dice or state.phase not in ROLL_PHASES:
            return  # seen.again: the roll offered before, seen once more after a hand left
        dice = to_rules_dice(seen.dice, state.expected_roll())
        unsure = tuple(sorted(set(unsure_dice(seen.dice)) | set(taken_from_others(seen.dice, dice, state))))

        frame = seen.frame

        def picture() -> bytes | None:
            if frame is None:
                return None
            return jpeg(annotate(frame, list(seen.dice), wrong=set(unsure)))

        def crops() -> tuple[DieCrop | None, ...]:
            return () if frame is None else tuple(die_crop(frame, die.box) for die in seen.dice)

        boxes = (
            None
            if frame is None
            else picture_boxes((frame.shape[1], frame.shape[0]), [d.box for d in seen.dice])
        )
        # The rules decide whether the roll fits, and say why not; the bridge only translates,
        # and holds back a roll with a die the reader is unsure of for a player to look at (the
        # page rings each die on the picture, where a tap fixes it).
        self.session.offer_roll(live.record.id, dice, picture, unsure, boxes, crops)
