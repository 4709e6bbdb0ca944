"""From frames to readings: read once the table has settled, and only when frames agree.

A settled reading splits the dice into those in the tray (a roll) and those in the casino
zones (where placed dice went), when the table's zones are calibrated."""

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field, replace

import numpy as np

from ..vision.boxes import iou
from ..vision.calibration import Calibration
from ..vision.dark_frame import is_dark
from ..vision.die import SeenDie, in_reading_order
from .motion import Motion, MotionTracker
from .same_roll import Verdict, compare, exactly_again


@dataclass(frozen=True)
class Settled:
    """One settled view: when (seconds on the source's clock), the dice in the tray, and
    the dice elsewhere by zone name ("1".."6", "slot"; "" outside every zone).

    ``again``: the tray holds the roll reported before (or some of its dice), each die where it
    lay: the table moved (a hand rested over it and left) but nothing was rolled. ``replaces``:
    the tray holds the roll reported at that t, seen better (dice a hand hid, pips misread)."""

    t: float
    dice: tuple[SeenDie, ...]
    placed: dict[str, int] = field(default_factory=dict, compare=False)
    frame: np.ndarray | None = field(default=None, repr=False, compare=False)
    again: bool = False
    replaces: float | None = None

    @property
    def new_dice(self) -> bool:
        """Whether this view reports dice: a new roll or a roll's correction."""
        return bool(self.dice) and not self.again


def signature(dice: list[SeenDie] | tuple[SeenDie, ...]) -> Counter:
    """What two readings of one settling must agree on: the pips of the dice, so their count.
    Not their colours: a die whose colour name flickers (white, yellow, grey under a lamp) would
    keep two readings from ever agreeing; its colour is voted on instead (``voted_colours``)."""
    return Counter(d.pips for d in dice)


def voted_colours(readings: list[list[SeenDie]]) -> list[SeenDie]:
    """The last reading, each die's colour the one most of the readings gave the die at its place
    (a die is at the place of the last reading's die whose box holds its centre); on a tie, the
    last reading's."""
    last = readings[-1]
    voted = []
    for die in last:
        votes = Counter(
            other.colour
            for reading in readings
            for other in reading
            if die.box[0] <= other.centre[0] <= die.box[0] + die.box[2]
            and die.box[1] <= other.centre[1] <= die.box[1] + die.box[3]
        )
        best = max(votes.values(), default=0)
        colour = die.colour if votes.get(die.colour, 0) == best else votes.most_common(1)[0][0]
        voted.append(die if colour == die.colour else replace(die, colour=colour))
    return voted


def split_by_zone(dice: list[SeenDie], calibration: Calibration) -> tuple[list[SeenDie], dict[str, int]]:
    """The tray's dice, and how many dice lie in each other zone."""
    if "tray" not in calibration.zones:
        return dice, {}
    tray: list[SeenDie] = []
    placed: Counter[str] = Counter()
    for die in dice:
        zone = calibration.zone_of(die.centre)
        if zone == "tray":
            tray.append(die)
        else:
            placed[zone or ""] += 1
    return tray, dict(placed)


#: seconds a reading short of the dice rolled waits, once the table is still, for it to settle
#: again before it is reported: a hand resting over fresh dice hides some, and when it leaves
#: the dice settle and are read in full; the wait starts again while anything moves (a hand
#: leaving slowly), so the full reading comes first
SHORT_HOLD = 1.2
#: a die found on a dark frame's brightened copy is new when it overlaps every die already read by
#: at most this (IoU): more is the same die, boxed a little otherwise
NEW_DIE_OVERLAP = 0.3


def read_short(in_tray: int, rolled: int | None) -> bool:
    """Whether a reading with ``in_tray`` dice in the tray is short of the ``rolled`` dice (None:
    unknown): some dice, not all. An empty tray is no roll (the table settling after a placement)."""
    return rolled is not None and 0 < in_tray < rolled


def read_whole(
    read: Callable[..., list[SeenDie]],
    frame: np.ndarray,
    rolled: int | None,
    tray: Callable[[list[SeenDie]], list[SeenDie]] = lambda dice: dice,
) -> list[SeenDie]:
    """The dice ``read`` finds in ``frame`` with the whole frame run at full scale. When the ``tray``
    among them is still short of the ``rolled`` dice and the frame is dark (``is_dark``: black
    dice on a dark cloth), the dice ``read`` finds on a brightened copy are added too: those in
    the tray that overlap no die already read (IoU at most ``NEW_DIE_OVERLAP``), the surest
    first, no more than are missing."""
    dice = read(frame, whole=True)
    in_tray = tray(dice)
    if not (read_short(len(in_tray), rolled) and is_dark(frame)):
        return dice
    missing = (rolled or 0) - len(in_tray)
    more = [
        die
        for die in tray(read(frame, whole=True, brightened=True))
        if all(iou(die.box, seen.box) <= NEW_DIE_OVERLAP for seen in dice)
    ]
    more = sorted(more, key=lambda die: -die.score)[:missing]
    return in_reading_order(dice + more)


def read_counted(
    read: Callable[..., list[SeenDie]],
    frame: np.ndarray,
    rolled: int | None,
    tray: Callable[[list[SeenDie]], list[SeenDie]] = lambda dice: dice,
) -> tuple[list[SeenDie], bool]:
    """The dice ``read`` finds in ``frame``, and whether they were read with the whole frame run
    at full scale: when the ``tray`` among them is short of the ``rolled`` dice (``read_short``),
    the frame is read again by ``read_whole``: full scale over the regions of interest passes by
    a die the half scale barely saw (a busy table), over the whole frame it does not; a dark
    frame is also read brightened."""
    dice = read(frame)
    if read_short(len(tray(dice)), rolled):
        return read_whole(read, frame, rolled, tray), True
    return dice, False


class RollWatcher:
    """Feed (t, frame); get a Settled once per settling of the table.

    After motion stops for the settle time, the frame is read; the reading is reported when
    ``agree`` readings in a row give the same dice. Nothing is read while anything moves."""

    def __init__(
        self,
        read: Callable[..., list[SeenDie]],
        tracker: MotionTracker,
        calibration: Calibration | Callable[[], Calibration] | None = None,
        agree: int = 2,
        give_up_after: int = 6,
        rolled: Callable[[], int | None] = lambda: None,
    ) -> None:
        """``calibration``: the table's, or how to get the one in use now (the setup page may
        change it while the camera watches); ``rolled``: how many dice the roller rolls now
        (None: unknown): a tray read short (``read_short``) is read again with the whole frame
        looked at, and so is every later reading of that settling (the table stays still for
        under a second between a roll and a placement: each reading must be quick)."""
        self.read = read
        self.rolled = rolled
        self.tracker = tracker
        fixed = calibration or Calibration()
        self.calibration: Callable[[], Calibration] = fixed if callable(fixed) else lambda: fixed
        self.agree = agree
        self.give_up_after = give_up_after
        self._pending: list[list[SeenDie]] = []
        self._active = False
        self._attempts = 0
        self.reads = 0
        self._whole = False  # this settling's dice are read with the whole frame looked at
        self._held: Settled | None = None  # a short reading waiting for the table to settle again
        self._held_until = 0.0
        self._reported: Settled | None = None  # the roll in the tray, as last reported
        self._first_t: float | None = None  # when that roll was first reported
        self._hidden: Settled | None = None  # that roll, when the tray read empty since

    @property
    def state(self) -> Motion:
        return self.tracker.state

    def read_again(self) -> None:
        """Read the table again at the next still frame, with the whole frame looked at (a player
        says the reading was wrong), as if it had just settled."""
        self.tracker.locked = False
        self.tracker.still_since = None
        self._pending, self._active, self._held = [], False, None
        self._reported = self._first_t = self._hidden = None  # whatever is read next is reported

    def finish(self, t: float, frame: np.ndarray, step: float = 0.1) -> Settled | None:
        """The recording ended at ``t``: the table stays as its last frame shows it. Look at
        that frame until it settles and is read, as a camera left on the table would, so a
        roll or placement made just before the end still counts (None: nothing new to read)."""
        looks = int((self.tracker.settings.settle_seconds + self.give_up_after * step) / step) + 2
        for k in range(1, looks + 1):
            seen = self.feed(t + k * step, frame)
            if seen is not None:
                return seen
        held, self._held = self._held, None  # nothing more will come to read in full
        return self._as_reported(held)

    def feed(self, t: float, frame: np.ndarray) -> Settled | None:
        """Look at the frame seen at ``t``; a Settled when the table has settled and been read."""
        return self._as_reported(self._settled(t, frame))

    def _as_reported(self, seen: Settled | None) -> Settled | None:
        """``seen`` told apart from the roll reported before: the same dice where they lay
        (``again``), that roll seen better (``replaces``), or a new roll."""
        if seen is None:
            return None
        if not seen.dice:
            if self._reported is not None:
                # A hand over the whole roll, or its dice taken to the casinos: only the very same
                # dice, each where it lay, are that roll again; and this is not the bare table.
                self._hidden, self._reported = self._reported, None
            else:
                self.tracker.mark_empty()  # nothing in the tray: this is how the bare table looks
            return seen
        hidden, self._hidden = self._hidden, None
        if hidden is not None and exactly_again(hidden.dice, seen.dice):
            self._reported = hidden
            return replace(seen, again=True)
        verdict = Verdict.NEW if self._reported is None else compare(self._reported.dice, seen.dice)
        if verdict is Verdict.AGAIN:
            return replace(seen, again=True)
        if verdict is Verdict.CORRECTED:
            seen = replace(seen, replaces=self._first_t)
        else:
            self._first_t = seen.t
        self._reported = seen
        return seen

    def _settled(self, t: float, frame: np.ndarray) -> Settled | None:
        seen = self._look(t, frame)
        if seen is not None:
            held, self._held = self._held, None  # a newer reading stands in for a short one waiting
            if held is not None and len(seen.dice) < len(held.dice):
                return held  # unless dice left the table since: the short reading was the roll
            if read_short(len(seen.dice), self.rolled()):
                self._held, self._held_until = seen, t + SHORT_HOLD
                return None
        elif self._held is not None and self.state is Motion.MOVING:
            self._held_until = t + SHORT_HOLD  # something moves: the table has not settled again
        elif self._held is not None and t >= self._held_until:
            seen, self._held = self._held, None
        return seen

    def _look(self, t: float, frame: np.ndarray) -> Settled | None:
        # the table and zones in this frame's pixels (a camera may come back at another resolution)
        fitted = self.calibration().fitted_to((frame.shape[1], frame.shape[0])).calibration
        self.tracker.region = fitted.table
        state, settle_now = self.tracker.update(frame, t)
        if state is Motion.EMPTY:
            self._reported = self._first_t = self._hidden = None  # the bare table: the next dice are a roll
        if state is not Motion.STILL:
            self._pending, self._active = [], False
            return None
        if settle_now:
            self._active, self._attempts, self._whole = True, 0, False
        if not self._active:
            return None

        def in_tray(dice: list[SeenDie]) -> list[SeenDie]:
            return split_by_zone(dice, fitted)[0]

        if self._whole:
            dice = read_whole(self.read, frame, self.rolled(), in_tray)
        else:
            dice, self._whole = read_counted(self.read, frame, self.rolled(), in_tray)
        self.reads += 1
        self._attempts += 1
        if self._pending and signature(self._pending[-1]) != signature(dice):
            self._pending = []
        self._pending.append(dice)
        # Readings that keep disagreeing still end in one report (the last one); the game's
        # roll check then asks the players to correct it rather than waiting forever.
        if len(self._pending) < self.agree and self._attempts < self.give_up_after:
            return None
        dice = voted_colours(self._pending)
        self._pending, self._active = [], False
        tray, placed = split_by_zone(dice, fitted)
        return Settled(t, tuple(tray), placed, frame)
