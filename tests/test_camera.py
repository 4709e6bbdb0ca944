"""The camera loop without a model: motion states, one reading per settled roll, the watchdog."""

import threading
import time

import numpy as np
import pytest

from companion.camera.grabber import LatestFrameGrabber
from companion.camera.motion import Motion, MotionTracker
from companion.camera.sources import SourceError
from companion.camera.watcher import RollWatcher
from companion.vision.calibration import Calibration
from companion.vision.die import SeenDie

FPS = 30
rng = np.random.default_rng(0)
FELT = np.full((240, 320, 3), (40, 110, 30), np.uint8)


def frame(squares=(), hand=None) -> np.ndarray:
    """A felt table with white squares (dice) and an optional skin-coloured hand."""
    img = np.clip(FELT.astype(np.int16) + rng.integers(-3, 4, FELT.shape), 0, 255).astype(np.uint8)
    for x, y in squares:
        img[int(y) : int(y) + 16, int(x) : int(x) + 16] = 235
    if hand is not None:
        x, y = hand
        img[int(y) : int(y) + 70, int(x) : int(x) + 50] = (120, 160, 215)
    return img


class Script:
    """Frames with the dice a perfect reader would see in each; counts the reads."""

    def __init__(self) -> None:
        self.frames: list[np.ndarray] = []
        self.truth: dict[int, list[SeenDie]] = {}
        self.reads = 0

    def add(self, count: int, squares=(), dice=(), hand=None) -> None:
        for _ in range(count):
            img = frame(squares, hand)
            self.frames.append(img)
            self.truth[id(img)] = [SeenDie((int(x), int(y), 16, 16), p, "red", 0.9) for (x, y), p in dice]

    def roll(self, dice: list[tuple[tuple[int, int], int]], still_frames: int = 30) -> None:
        for step in range(10):  # tumbling in from the left
            moving = [(x - (10 - step) * 12, y + (step % 3) * 5) for (x, y), _ in dice]
            self.add(1, moving)
        self.add(still_frames, [xy for xy, _ in dice], dice)

    def read(self, img: np.ndarray) -> list[SeenDie]:
        self.reads += 1
        return self.truth[id(img)]

    def run(self, watcher: RollWatcher) -> list:
        return [
            (t, s) for t, s in ((i / FPS, watcher.feed(i / FPS, f)) for i, f in enumerate(self.frames)) if s
        ]


def watcher_for(script: Script) -> RollWatcher:
    return RollWatcher(script.read, MotionTracker(), Calibration())


def test_one_roll_gives_exactly_one_reading_after_it_settles():
    script = Script()
    script.add(20)
    script.roll([((100, 100), 3), ((150, 120), 5)])
    script.add(15)
    seen = [(t, s) for t, s in script.run(watcher_for(script)) if s.dice]
    assert len(seen) == 1
    t, settled = seen[0]
    assert sorted(d.pips for d in settled.dice) == [3, 5]
    still_from = 30 / FPS
    assert still_from + 0.4 <= t <= still_from + 0.6


def test_a_roll_the_recording_ends_on_is_read_from_its_last_frame():
    script = Script()
    script.add(20)
    script.roll([((100, 100), 2), ((150, 120), 6)], still_frames=6)  # ends 0.2 s after it settles
    watcher = watcher_for(script)
    assert not [s for _, s in script.run(watcher) if s.dice], "too short to settle while recording"
    end = (len(script.frames) - 1) / FPS
    settled = watcher.finish(end, script.frames[-1])
    assert settled is not None and sorted(d.pips for d in settled.dice) == [2, 6]
    assert end < settled.t <= end + 1.5


def test_a_recording_that_ended_settled_has_nothing_more_to_read():
    script = Script()
    script.add(20)
    script.roll([((100, 100), 4)])
    watcher = watcher_for(script)
    assert len([s for _, s in script.run(watcher) if s.dice]) == 1
    reads = script.reads
    assert watcher.finish((len(script.frames) - 1) / FPS, script.frames[-1]) is None
    assert script.reads == reads


def test_nothing_is_read_while_dice_move():
    script = Script()
    script.add(5)
    for step in range(60):  # a die that never stops sliding (90 px/s on a 320 px view)
        script.add(1, [(40 + step * 3, 100)], [((40 + step * 3, 100), 2)])
    assert script.run(watcher_for(script)) == []
    assert script.reads == 0


def test_a_hand_resting_on_an_empty_table_is_not_a_roll_and_picking_up_dice_is_not_a_second():
    script = Script()
    script.add(20)
    script.roll([((100, 100), 6)])
    for step in range(8):  # a hand sweeps in and takes the die
        script.add(1, hand=(40 + step * 20, 80))
    script.add(30, hand=(200, 80))  # the hand rests, still, with no dice
    script.add(30)  # bare table
    watcher = watcher_for(script)
    seen = script.run(watcher)
    assert [[d.pips for d in s.dice] for _, s in seen if s.dice] == [[6]]
    after_roll = [s for t, s in seen if t > 1.5]
    # the resting hand is read, but is no roll; the bare table after it is the one seen first
    assert len(after_roll) == 1 and not after_roll[0].dice
    assert watcher.tracker.state is Motion.EMPTY


class WholeLooks(Script):
    """A perfect reader that also takes the whole-frame look (it sees the same)."""

    def read(self, img: np.ndarray, whole: bool = False, brightened: bool = False) -> list[SeenDie]:
        return super().read(img)


def three_dice_tumbled_in() -> tuple[WholeLooks, list, list]:
    """A bare table, then three dice (3, 5, 6) tumbling in: the script, the dice, their squares."""
    script = WholeLooks()
    script.add(20)
    dice = [((100, 100), 3), ((150, 120), 5), ((200, 100), 6)]
    squares = [xy for xy, _ in dice]
    for step in range(6):  # the dice tumble in
        script.add(1, [(x - (6 - step) * 10, y) for x, y in squares])
    return script, dice, squares


def test_a_hand_resting_over_fresh_dice_gives_no_roll_until_it_leaves_then_one():
    """Three dice land, a hand comes in and rests over them for 0.8 s, hiding the 6, then goes:
    the short reading made under the hand waits for the table to settle again, and the one roll
    reported is the full one, read after the hand left."""
    script, dice, squares = three_dice_tumbled_in()
    for step in range(4):  # the hand comes in over them
        script.add(1, squares, dice, hand=(120 + step * 20, 60))
    script.add(24, squares, dice[:2], hand=(185, 60))  # resting 0.8 s: the 6 under it is not seen
    for step in range(4):  # and goes
        script.add(1, squares, dice, hand=(185 + step * 30, 60 - step * 20))
    script.add(40, squares, dice)
    watcher = RollWatcher(script.read, MotionTracker(), Calibration(), rolled=lambda: 3)
    seen = [(t, s) for t, s in script.run(watcher) if s.dice]
    assert [sorted(d.pips for d in s.dice) for _, s in seen] == [[3, 5, 6]]
    assert seen[0][0] > (20 + 6 + 4 + 24) / FPS, "read after the hand left"


def test_a_short_reading_nothing_follows_is_reported_after_a_moment():
    """Dice the camera reads short with no hand over them (one under the lip of the tray): the
    reading is reported once the table has stayed as it is, for the game to ask about it."""
    script = WholeLooks()
    script.add(20)
    script.roll([((100, 100), 3), ((150, 120), 5)], still_frames=90)
    watcher = RollWatcher(script.read, MotionTracker(), Calibration(), rolled=lambda: 3)
    ((t, settled),) = [(t, s) for t, s in script.run(watcher) if s.dice]
    assert sorted(d.pips for d in settled.dice) == [3, 5]


def test_a_short_reading_is_reported_when_its_dice_are_taken_away_at_once():
    """Dice read short (one under the lip of the tray), then the 3 taken to its casino before the
    wait is over: the table read with fewer dice than the short reading reports the short
    reading, once; what is left is no roll."""
    script = WholeLooks()
    script.add(20)
    script.roll([((100, 100), 3), ((150, 120), 5)], still_frames=20)
    for step in range(8):  # a hand takes the 3 away
        script.add(1, [(150, 120), (100 + step * 25, 100)], hand=(90 + step * 25, 80))
    script.add(60, [(150, 120)], [((150, 120), 5)])
    watcher = RollWatcher(script.read, MotionTracker(), Calibration(), rolled=lambda: 3)
    readings = [s for _, s in script.run(watcher) if s.new_dice]
    assert [sorted(d.pips for d in s.dice) for s in readings] == [[3, 5]]


def hand_over(script: Script, squares, seen, at, frames: int = 24) -> None:
    """A hand comes to ``at``, rests there ``frames`` frames (the dice ``seen`` under it), and goes."""
    for step in range(4):
        script.add(1, squares, hand=(at[0] - (4 - step) * 25, at[1] + (4 - step) * 20))
    script.add(frames, squares, seen, hand=at)
    for step in range(4):
        script.add(1, squares, hand=(at[0] + step * 30, at[1] - step * 20))


def test_a_hand_resting_over_a_settled_roll_then_leaving_is_no_second_roll():
    """With nothing to say how many dice were rolled (`companion watch`): a roll is read, a hand
    rests 0.8 s over it hiding one die, then over the other, and leaves; no die moved, so the
    dice read again in their places are the same roll, not a second one."""
    script = WholeLooks()
    script.add(20)
    dice = [((100, 100), 3), ((170, 120), 5)]
    squares = [xy for xy, _ in dice]
    script.roll(dice)
    hand_over(script, squares, dice[:1], (165, 110))
    script.add(30, squares, dice)
    hand_over(script, squares, [], (80, 80))  # a hand over both: the tray reads empty
    script.add(30, squares, dice)
    script.add(10)  # the dice taken away: the bare table
    script.roll([((100, 100), 3)])  # a new roll, one die where one lay
    readings = [s for _, s in script.run(RollWatcher(script.read, MotionTracker(), Calibration()))]
    assert [sorted(d.pips for d in s.dice) for s in readings if s.new_dice] == [[3, 5], [3]]
    assert sum(s.again for s in readings) == 3, "the hand's readings and the one after it are the roll"


def test_a_roll_read_short_then_whole_is_reported_once_more_as_its_correction():
    """A hand rests over fresh dice long enough for a short reading; when it leaves the whole
    roll is read with the short reading's dice where they lay: the same roll, seen better,
    reported as the correction of the first report (its t), and only once."""
    script, dice, squares = three_dice_tumbled_in()
    script.add(24, squares, dice[:2], hand=(185, 60))
    for step in range(4):
        script.add(1, squares, hand=(185 + step * 30, 60 - step * 20))
    script.add(40, squares, dice)
    hand_over(script, squares, dice[1:], (90, 90))  # and once more, over the 3: no news
    script.add(30, squares, dice)
    reported = [s for _, s in script.run(watcher_for(script)) if s.new_dice]
    assert [sorted(d.pips for d in s.dice) for s in reported] == [[3, 5], [3, 5, 6]]
    assert reported[0].replaces is None and reported[1].replaces == reported[0].t


def test_two_rolls_two_readings():
    script = Script()
    script.add(10)
    script.roll([((100, 100), 1), ((140, 100), 1)])
    script.add(6, hand=(90, 80))
    script.add(20)
    script.roll([((120, 60), 4)])
    readings = [s for _, s in script.run(watcher_for(script)) if s.dice]
    assert [[d.pips for d in s.dice] for s in readings] == [[1, 1], [4]]


def test_readings_that_disagree_wait_then_report_once():
    script = Script()
    script.add(10)
    script.roll([((100, 100), 2)], still_frames=40)
    flip = iter(range(1000))

    def flaky(img):
        script.reads += 1
        return [SeenDie((100, 100, 16, 16), 2 + next(flip) % 2, "red", 0.6)]

    watcher = RollWatcher(flaky, MotionTracker(), Calibration(), agree=2, give_up_after=5)
    seen = [s for s in (watcher.feed(i / FPS, f) for i, f in enumerate(script.frames)) if s]
    assert len(seen) == 1 and script.reads == 5


def test_readings_agree_on_pips_and_each_die_s_colour_is_voted():
    """A die whose colour name flickers (white, white, yellow under a lamp) does not keep the
    readings from agreeing: they agree on pips, and the die is named as most readings named it."""
    script = Script()
    script.add(10)
    script.roll([((100, 100), 5), ((140, 100), 2)], still_frames=40)
    names = iter(["white", "white", "yellow"])  # the last reading alone would say yellow

    def flickering(img):
        script.reads += 1
        return [SeenDie((100, 100, 16, 16), 5, next(names), 0.9), SeenDie((140, 100, 16, 16), 2, "red", 0.9)]

    watcher = RollWatcher(flickering, MotionTracker(), Calibration(), agree=3, give_up_after=6)
    (seen,) = [s for s in (watcher.feed(i / FPS, f) for i, f in enumerate(script.frames)) if s]
    assert script.reads == 3, "three readings agreed at once"
    assert [(d.pips, d.colour) for d in seen.dice] == [(5, "white"), (2, "red")]


def test_dice_in_casino_zones_are_counted_apart_from_the_tray():
    calibration = Calibration(zones={"tray": (0, 150, 320, 90), "4": (200, 0, 100, 100)})
    script = Script()
    script.add(10)
    script.roll([((60, 180), 4), ((220, 20), 4)])
    watcher = RollWatcher(script.read, MotionTracker(), calibration)
    ((_, settled),) = script.run(watcher)
    assert [d.pips for d in settled.dice] == [4]
    assert settled.placed == {"4": 1}


def test_zones_set_on_larger_frames_of_the_same_camera_are_scaled_to_its_frames():
    # the same table calibrated on 640×480 frames of this camera; the watcher sees it at 320×240
    calibration = Calibration(zones={"tray": (0, 300, 640, 180), "4": (400, 0, 200, 200)}, frame=(640, 480))
    script = Script()
    script.add(10)
    script.roll([((60, 180), 4), ((220, 20), 4)])
    ((_, settled),) = script.run(RollWatcher(script.read, MotionTracker(), calibration))
    assert [d.pips for d in settled.dice] == [4] and settled.placed == {"4": 1}


def test_a_table_area_outside_the_frames_is_left_out_not_a_crash():
    script = Script()
    script.add(10)
    script.roll([((60, 180), 4), ((220, 20), 5)])
    calibration = Calibration(table=(2000, 2000, 100, 100), frame=(320, 240))  # 2000 typed for 200
    ((_, settled),) = script.run(RollWatcher(script.read, MotionTracker(), calibration))
    assert sorted(d.pips for d in settled.dice) == [4, 5]


class FakeSource:
    def __init__(self, frames: int, repeat_last: bool = False) -> None:
        self.name, self.fps, self.left, self.repeat = "fake camera", None, frames, repeat_last
        self.still = frame()

    def read(self):
        time.sleep(1 / 200)
        if self.left <= 0:
            return self.still if self.repeat else None
        self.left -= 1
        return frame()

    def close(self) -> None:
        pass


@pytest.mark.parametrize(
    "repeat_last, reason", [(False, "gives no frames"), (True, "repeats the same frame")]
)
def test_watchdog_reports_a_stalled_camera_and_reconnects(repeat_last, reason):
    opened = []
    events = []
    got_ok_again = threading.Event()

    def open_source():
        opened.append(1)
        if len(opened) == 2:
            raise SourceError("no camera at index 0")  # unplugged for a moment
        return FakeSource(20, repeat_last)

    def on_event(event):
        events.append(event)
        if event.kind == "ok" and len(opened) >= 3:
            got_ok_again.set()

    grabber = LatestFrameGrabber(
        open_source, on_event, live=True, stall_seconds=0.3, frozen_seconds=0.3, max_backoff=0.2
    )
    with grabber:
        assert grabber.latest(0, timeout=2) is not None
        assert got_ok_again.wait(10), [e.message for e in events]
    kinds = [e.kind for e in events]
    assert kinds[:2] == ["ok", "lost"] and reason in events[1].message
    assert "no camera at index 0" in events[2].message
    assert kinds.count("ok") >= 2


def test_grabber_hands_out_only_the_newest_frame():
    class Fast(FakeSource):
        def read(self):
            self.left -= 1
            time.sleep(1 / 500)
            return frame() if self.left > 0 else None

    grabber = LatestFrameGrabber(lambda: Fast(400), lambda e: None, live=False)
    with grabber:
        first = grabber.latest(0, timeout=2)
        time.sleep(0.1)  # a slow consumer
        second = grabber.latest(first[0], timeout=2)
    assert second[0] - first[0] > 5  # frames in between were skipped, not queued


def test_rolls_too_dark_for_their_colours_are_reported_and_so_is_their_end():
    from companion.camera.lighting import DIM, DiceColourWatch

    watch = DiceColourWatch()
    table = np.full((240, 320, 3), (60, 110, 40), np.uint8)  # green felt
    table[100:130, 100:130] = 240  # a white die
    boxes = [(100, 100, 30, 30)]
    dim = (table * 0.15).astype(np.uint8)  # its whitest pixels at 36
    assert watch.check(0.0, table, boxes) is None  # light enough: nothing to say
    dark = watch.check(1.0, dim, boxes)
    assert dark["camera"] == DIM and "too dark" in dark["message"]
    assert watch.check(2.0, dim, boxes) is None  # said once
    back = watch.check(3.0, table, boxes)
    assert back["camera"] == "ok" and "light enough" in back["message"]
    assert watch.check(4.0, dim, []) is None  # no dice: nothing to judge
    watch.check(5.0, dim, boxes)
    watch.reset()  # another status was set since: a dark roll is reported again
    assert watch.check(6.0, dim, boxes)["camera"] == DIM


def test_rolls_seen_without_colour_are_reported_and_so_is_their_end():
    """A webcam gone to its night mode gives grey pictures: the page is told why the colours are
    asked about. Too dark is said first (more light helps either way), and colour coming back is
    said as such."""
    import cv2

    from companion.camera.lighting import COLOURLESS, DIM, DiceColourWatch

    watch = DiceColourWatch()
    table = np.full((240, 320, 3), (60, 110, 40), np.uint8)  # green felt
    table[100:130, 100:130] = (40, 40, 200)  # a red die
    boxes = [(100, 100, 30, 30)]
    grey = cv2.cvtColor(cv2.cvtColor(table, cv2.COLOR_BGR2GRAY), cv2.COLOR_GRAY2BGR)
    assert watch.check(0.0, table, boxes) is None  # in colour: nothing to say
    night = watch.check(1.0, grey, boxes)
    assert (
        night["camera"] == COLOURLESS and "no colour" in night["message"] and "night mode" in night["message"]
    )
    assert watch.check(2.0, grey, boxes) is None  # said once
    dark = watch.check(3.0, (grey * 0.15).astype(np.uint8), boxes)
    assert dark["camera"] == DIM  # too dark is said before no colour
    assert watch.check(4.0, grey, boxes)["camera"] == COLOURLESS
    back = watch.check(5.0, table, boxes)
    assert back["camera"] == "ok" and "colours again" in back["message"]
    assert watch.check(6.0, grey, []) is None  # no dice: nothing to judge


def test_a_covered_lens_or_a_dazzled_camera_is_reported_and_so_is_its_end():
    from companion.camera.lighting import BLIND, LightingWatch

    watch = LightingWatch(every=1.0)
    black, white = np.zeros((480, 640, 3), np.uint8), np.full((480, 640, 3), 250, np.uint8)
    assert watch.check(0.0, frame()) is None  # a table: nothing to say
    assert watch.check(0.5, black) is None  # looked at once a second only
    covered = watch.check(1.0, black)
    assert covered["camera"] == BLIND and "lens covered" in covered["message"]
    assert watch.check(2.0, black) is None  # said once
    assert "dazzled" in watch.check(3.0, white)["message"]
    back = watch.check(4.0, frame())
    assert back["camera"] == "ok" and watch.check(5.0, frame()) is None
    watch.check(6.0, black)
    watch.reset()  # the camera reconnected and said "ok": a black picture is reported again
    assert watch.check(6.1, black)["camera"] == BLIND


def test_a_misfit_calibration_is_said_once_and_a_fitting_one_clears_it():
    from companion.camera.calibration_fit import MISFIT, CalibrationFitWatch

    in_use = [Calibration(zones={"tray": (0, 0, 100, 100)}, frame=(640, 480))]  # another camera's
    watch = CalibrationFitWatch(lambda: in_use[0])
    first = watch.check(0.0, frame())  # 320×240 frames: the same shape, scaled: fits
    assert first is None
    in_use[0] = Calibration(zones={"tray": (0, 0, 100, 100)}, frame=(1280, 720))  # 16:9 on 4:3
    said = watch.check(0.1, frame())
    assert said["camera"] == MISFIT and "set on 1280×720 pictures" in said["message"]
    assert watch.check(0.2, frame()) is None  # said once
    in_use[0] = Calibration(zones={"tray": (0, 0, 100, 100)}, frame=(320, 240))  # the setup page saved
    assert watch.check(0.3, frame())["camera"] == "ok"


class ShortSighted(Script):
    """A reader whose run over regions of interest misses the last die of each frame; its run
    over the whole frame sees all."""

    def __init__(self) -> None:
        super().__init__()
        self.whole_reads = 0

    def read(self, img: np.ndarray, whole: bool = False) -> list[SeenDie]:
        self.reads += 1
        self.whole_reads += whole
        dice = self.truth[id(img)]
        return dice if whole else dice[:-1]


def test_a_tray_read_with_fewer_dice_than_were_rolled_is_read_again_with_the_whole_look():
    script = ShortSighted()
    script.add(10)
    script.roll([((60, 100), 4), ((120, 100), 2), ((180, 100), 6)])
    rolled = [3]
    ((_, settled),) = script.run(
        RollWatcher(script.read, MotionTracker(), Calibration(), rolled=lambda: rolled[0])
    )
    assert [d.pips for d in settled.dice] == [4, 2, 6]
    # the first reading was made twice, the later ones of that settling over the whole frame only
    assert script.reads == 3 and script.whole_reads == 2
    # the game waits for no roll (or the count is unknown): the focused reading stands
    script, rolled[0] = ShortSighted(), None
    script.add(10)
    script.roll([((60, 100), 4), ((120, 100), 2)])
    ((_, settled),) = script.run(
        RollWatcher(script.read, MotionTracker(), Calibration(), rolled=lambda: rolled[0])
    )
    assert [d.pips for d in settled.dice] == [4] and script.whole_reads == 0


class InTheDark(Script):
    """A reader that misses the last die of each frame, whatever it looks with, unless the frame
    is brightened; brightened, it boxes the dice it saw a little otherwise and also reads a
    speck of the cloth as a die (the least sure find)."""

    def __init__(self) -> None:
        super().__init__()
        self.brightened_reads = 0

    def read(self, img: np.ndarray, whole: bool = False, brightened: bool = False) -> list[SeenDie]:
        self.reads += 1
        self.brightened_reads += brightened
        dice = self.truth[id(img)]
        if not brightened:
            return dice[:-1]
        shifted = [SeenDie((d.box[0] + 2, d.box[1] + 1, 16, 16), d.pips, d.colour, d.score) for d in dice]
        return [*shifted, SeenDie((280, 200, 16, 16), 1, "black", 0.3)]


DARK_ROLL = [((60, 100), 4), ((120, 100), 2), ((180, 100), 6)]


def test_a_dark_roll_still_read_short_adds_the_dice_found_on_a_brightened_copy():
    from companion.vision.dark_frame import is_dark

    script = InTheDark()
    script.add(10)
    script.roll(DARK_ROLL)
    assert is_dark(script.frames[-1])  # the felt is dark green
    ((_, settled),) = script.run(RollWatcher(script.read, MotionTracker(), Calibration(), rolled=lambda: 3))
    # the missing die is added; the dice already read are not added twice (boxed a little
    # otherwise), nor is the speck: no more dice than were rolled
    assert [d.pips for d in settled.dice] == [4, 2, 6]
    assert [d.box for d in settled.dice][:2] == [(60, 100, 16, 16), (120, 100, 16, 16)]
    # each reading of that settling looked at the brightened copy (two readings agree)
    assert script.brightened_reads == 2


def test_a_light_roll_read_short_is_not_looked_at_brightened():
    from companion.camera.watcher import read_whole

    script = InTheDark()
    script.add(1, dice=[((60, 100), 4), ((120, 100), 2)])
    light = np.full_like(script.frames[0], 200)
    script.truth[id(light)] = script.truth[id(script.frames[0])]
    assert [d.pips for d in read_whole(script.read, light, 2)] == [4]
    assert script.brightened_reads == 0
    # dark, but the roll is read in full, or the number rolled is unknown: no brightened look
    dark = script.frames[0]
    assert [d.pips for d in read_whole(script.read, dark, 1)] == [4]
    assert [d.pips for d in read_whole(script.read, dark, None)] == [4]
    assert script.brightened_reads == 0
    assert [d.pips for d in read_whole(script.read, dark, 2)] == [4, 2]
    assert script.brightened_reads == 1


def test_brightening_lifts_a_dark_frame_and_keeps_black_and_white():
    from companion.vision.dark_frame import brightened, is_dark

    tones = np.array([[[0, 0, 0], [64, 64, 64], [255, 255, 255]]], np.uint8)
    assert brightened(tones).tolist() == [[[0, 0, 0], [128, 128, 128], [255, 255, 255]]]
    assert is_dark(np.full((480, 640, 3), 60, np.uint8))
    assert not is_dark(np.full((480, 640, 3), 160, np.uint8))


def test_an_empty_tray_is_no_roll_and_is_not_read_again():
    """The table settling after a placement, while the next player is to roll."""
    script = ShortSighted()
    script.add(10)
    script.roll([((60, 100), 4)])  # the regions of interest miss it: the tray reads empty
    seen = script.run(RollWatcher(script.read, MotionTracker(), Calibration(), rolled=lambda: 8))
    assert script.whole_reads == 0 and all(not settled.dice for _, settled in seen)


def test_a_roll_read_in_full_is_not_read_again():
    from companion.camera.watcher import read_counted

    script = ShortSighted()
    script.add(1, dice=[((60, 100), 4), ((120, 100), 2)])
    img = script.frames[0]
    dice, whole = read_counted(script.read, img, 1)
    assert [d.pips for d in dice] == [4] and not whole
    assert script.whole_reads == 0
    dice, whole = read_counted(script.read, img, 2)
    assert [d.pips for d in dice] == [4, 2] and whole
    assert script.whole_reads == 1
