"""The recorded sample sessions: `watch` reads every roll once, none twice, none while moving;
and the rendered session plays its whole round into a game through the camera bridge."""

import json
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from companion.camera.loop import watch_source, watcher_for
from companion.camera.sources import open_source
from companion.camera_game.bridge import CameraBridge
from companion.camera_game.demo import read_recording, start_sample_game
from companion.camera_game.session import CameraSession
from companion.service import GameService
from companion.storage import EventStore
from companion.vision import Calibration, DiceReader

SAMPLES = Path(__file__).resolve().parent.parent / "samples"
SESSIONS = sorted(p for p in SAMPLES.iterdir() if (p / "recording.json").exists())


def true_rolls(session: dict) -> list[Counter]:
    return [Counter(d["pips"] for d in roll["dice"]) for roll in session["rolls"]]


def watch(folder: Path) -> tuple[list[dict], str]:
    """`companion watch --source FOLDER --json`: the records it printed, and its standard error."""
    proc = subprocess.run(
        [sys.executable, "-m", "companion", "watch", "--source", str(folder), "--json"],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert proc.returncode == 0, proc.stderr
    return [json.loads(line) for line in proc.stdout.splitlines()], proc.stderr


def watch_json(folder: Path) -> list[dict]:
    return watch(folder)[0]


@pytest.mark.parametrize("folder", SESSIONS, ids=lambda p: p.name)
def test_watch_gives_exactly_the_true_rolls(folder):
    records, said = watch(folder)
    # a recording without its table's calibration is read whole, and the player is told so once
    uncalibrated = not (folder / "calibration.json").exists()
    assert said.count("No calibration for this table") == int(uncalibrated)
    rolls = [r for r in records if "dice" in r]
    session = read_recording(folder)
    assert [Counter(d["pips"] for d in r["dice"]) for r in rolls] == true_rolls(session)
    for record, truth in zip(rolls, session["rolls"], strict=True):
        # read while the dice lay still, after they settled: never during the tumble
        assert truth["still_from"] + 0.3 <= record["t"] <= truth["still_to"] + 1e-6
    assert records[-1]["camera"] == "ended"


def test_the_rendered_round_plays_out_into_a_game(tmp_path):
    folder = SAMPLES / "classic-two-players"
    session = read_recording(folder)
    games = GameService(EventStore(tmp_path))
    game = start_sample_game(games, folder)
    reader = DiceReader(calibration=Calibration.load(folder / "calibration.json"))
    bridge = CameraBridge(CameraSession(games), "sample", accept_placements=True)
    watch_source(reader, bridge.on_record, source=str(folder), on_settled=bridge.on_settled)
    live = games.get(game.record.id)
    rolled = [e for e in live.events[1:] if type(e).__name__ == "Rolled"]
    assert [Counter(d.pips for d in e.dice) for e in rolled] == true_rolls(session)
    placed = [{"value": e.value, "casino": e.casino} for e in live.events if type(e).__name__ == "Placed"]
    assert placed == [r["placement"] for r in session["rolls"]]
    assert live.state.round_number == 2 and len(live.state.rounds) == 1


def test_a_covered_lens_in_a_recording_is_reported_with_its_end(tmp_path):
    """Two seconds of table, two with the lens covered, two of table again (15 fps)."""
    import cv2
    import numpy as np

    table = np.full((240, 320, 3), (40, 110, 30), np.uint8)  # green felt
    cv2.putText(table, "casino 4", (90, 120), cv2.FONT_HERSHEY_SIMPLEX, 1.0, (200, 200, 200), 2)
    covered = np.full_like(table, 4)
    for i in range(90):
        cv2.imwrite(str(tmp_path / f"{i:03d}.png"), covered if 30 <= i < 60 else table)
    records: list[dict] = []
    watch_source(DiceReader(threads=1), records.append, source=str(tmp_path))
    camera = [(r["camera"], r["t"]) for r in records if "camera" in r]
    assert [kind for kind, _ in camera] == ["ok", "blind", "ok", "ended"]
    assert 2.0 <= camera[1][1] <= 3.0 and 4.0 <= camera[2][1] <= 5.0
    assert "lens covered" in records[[r.get("camera") for r in records].index("blind")]["message"]


def test_the_end_of_a_short_recording_comes_after_the_roll_read_from_its_last_frame(tmp_path):
    import cv2

    from tests.pictures import rendered

    for i in range(4):  # a fifth of a second of dice lying still: read as the table stays after it
        cv2.imwrite(str(tmp_path / f"{i:03d}.png"), rendered([("red", 4), ("red", 2)]))
    records: list[dict] = []
    watch_source(DiceReader(threads=1), records.append, source=str(tmp_path))
    assert [next(k for k in ("camera", "dice") if k in r) for r in records] == ["camera", "dice", "camera"]
    assert records[-1]["camera"] == "ended" and records[-1]["t"] >= records[1]["t"] > 0.2


def test_a_calibration_that_does_not_fit_the_camera_is_reported_once_and_left_out(tmp_path):
    """A table area typed outside the picture is left out, and the camera line says so; the loop
    goes on."""
    import cv2
    import numpy as np

    table = np.full((240, 320, 3), (40, 110, 30), np.uint8)
    for i in range(30):
        cv2.imwrite(str(tmp_path / f"{i:03d}.png"), table)
    records: list[dict] = []
    calibration = Calibration(table=(2000, 2000, 100, 100), frame=(320, 240))
    watch_source(DiceReader(threads=1, calibration=calibration), records.append, source=str(tmp_path))
    camera = [(r["camera"], r["message"]) for r in records if "camera" in r]
    assert [kind for kind, _ in camera] == ["ok", "calibration", "ended"]
    assert "outside this 320×240 picture, left out: the calibration's table area" in camera[1][1]


def watched_as_the_lamp_goes_on(folder, dice: list[tuple[str, int]], before_the_lamp) -> list[dict]:
    """The records of a recording: a second of bare table, then three of a roll of ``dice``
    (colour, pips), each frame as ``before_the_lamp`` makes it; then the lamp goes on, the dice are
    taken and rolled again, and land 120 px lower (dice back in the very places they lay would be
    the same roll, seen again after a hand over them)."""
    import cv2
    import numpy as np

    from tests.pictures import rendered, rendered_row

    bare, roll = rendered([], seed=5), rendered_row(dice, seed=5)
    again = np.roll(roll, 120, axis=0)
    frames = [before_the_lamp(bare)] * 15 + [before_the_lamp(roll)] * 45 + [bare] * 15 + [again] * 45
    for i, picture in enumerate(frames):
        cv2.imwrite(str(folder / f"{i:03d}.png"), picture)
    records: list[dict] = []
    watch_source(DiceReader(threads=1), records.append, source=str(folder))
    return records


def test_a_roll_too_dark_for_its_colours_is_reported_in_a_recording(tmp_path):
    """A dim room (every value at 0.12), then the lamp goes on."""
    import numpy as np

    def dim(frame):
        return np.clip(frame.astype(np.float32) * 0.12 + 0.5, 0, 255).astype(np.uint8)

    records = watched_as_the_lamp_goes_on(tmp_path, [("white", 5), ("red", 3), ("blue", 1)], dim)
    rolls = [r["t"] for r in records if "dice" in r]
    dark = [r for r in records if r.get("camera") == "dim"]
    assert len(rolls) == 2 and len(dark) == 1 and "too dark" in dark[0]["message"]
    assert 1.0 <= dark[0]["t"] <= 4.0 and dark[0]["t"] == rolls[0]
    # the lamp's "ok" clears it; the roll in full light says nothing more about the dice
    assert not [r for r in records if r.get("camera") == "dim" and r["t"] > 4.0]


def test_a_roll_seen_without_colour_is_reported_in_a_recording(tmp_path):
    """A webcam in its night mode (every frame grey); then the room's lamp goes on and the camera
    leaves its night mode. The page is told once why the roll's colours are asked about, and told
    when they are back."""
    import cv2

    def night_mode(frame):
        return cv2.cvtColor(cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY), cv2.COLOR_GRAY2BGR)

    records = watched_as_the_lamp_goes_on(tmp_path, [("red", 5), ("red", 3), ("blue", 1)], night_mode)
    rolls = [r for r in records if "dice" in r]
    told = [r for r in records if r.get("camera") not in (None, "ended") and r["t"] > 0]
    assert len(rolls) == 2 and [r["camera"] for r in told] == ["colourless", "ok"]
    assert told[0]["t"] == rolls[0]["t"] and "night mode" in told[0]["message"]
    assert {d["colour"] for d in rolls[0]["dice"]} == {"other"}  # no colour to read them by
    assert told[1]["t"] == rolls[1]["t"] and "colours again" in told[1]["message"]
    assert sorted(d["colour"] for d in rolls[1]["dice"]) == ["blue", "red", "red"]


def a_short_recording(folder) -> None:
    """A recording of a game's table (red and green, seed 7) with no roll in it: a second of felt."""
    import cv2
    import numpy as np

    (folder / "frames").mkdir(parents=True)
    table = np.full((240, 320, 3), (40, 110, 30), np.uint8)
    for i in range(15):
        cv2.imwrite(str(folder / "frames" / f"{i:03d}.png"), table)
    players = [{"name": "Red", "colour": "red"}, {"name": "Green", "colour": "green"}]
    (folder / "recording.json").write_text(
        json.dumps({"fps": 15, "players": players, "seed": 7, "rolls": []})
    )


def test_a_served_recording_waits_for_a_page_plays_again_for_a_page_opened_later_and_keeps_one_game(tmp_path):
    recording, data = tmp_path / "recording", tmp_path / "data"
    a_short_recording(recording)
    data.mkdir()
    first = served_recording_played(data, recording)
    again = served_recording_played(data, recording)  # the server started again on the same data
    assert first == again, "one game for the recording, not one more on every start"


def served_recording_played(data, recording) -> str:
    """Serve ``recording``; check it waits for a page, plays when one opens, and starts its game
    again and plays it for a page opened after it ended; the game's id."""
    import http.client
    import time

    from tests.server import call, free_port, start_server

    port = free_port()
    proc = start_server(data, port, "--source", str(recording), "--accept-placements")

    def state() -> dict:
        return call(port, "GET", f"/api/games/{game_id}")

    def open_page():
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        connection.request("GET", f"/api/games/{game_id}/events")
        return connection, connection.getresponse()

    def wait_for(check, seconds=20):
        deadline = time.monotonic() + seconds
        while not check():
            assert time.monotonic() < deadline, "waited too long"
            time.sleep(0.1)

    try:
        (game,) = call(port, "GET", "/api/games")["games"]
        game_id = game["id"]
        time.sleep(2)
        assert state()["camera"] is None, "nothing plays before a page opens"
        pages = [open_page()]
        wait_for(lambda: (state()["camera"] or {}).get("kind") == "ended")
        pages.append(open_page())  # opened after the end: the game starts again, and plays
        wait_for(lambda: state()["last_change"] == {"kind": "restart"})
        wait_for(lambda: state()["camera"]["kind"] in ("ok", "ended"))
        for connection, response in pages:
            response.close()
            connection.close()
        return game_id
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def test_a_recorded_hand_resting_over_fresh_dice_gives_no_roll_until_it_leaves_then_one():
    """A recording made from real webcam photos: before each of its five rolls lies still, a hand
    rests 0.8 s over one of its dice and leaves slowly. Told how many dice were rolled (as the
    game tells it), the camera reports each roll once, in full, after the hand has left."""
    folder = Path(__file__).parent / "fixtures" / "hand-over-dice"
    rolls = json.loads((folder / "recording.json").read_text())["rolls"]
    reported: list = []
    watcher = watcher_for(DiceReader(), rolled=lambda: len(rolls[min(len(reported), len(rolls) - 1)]["dice"]))
    source = open_source(source=str(folder))
    index = 0
    while (picture := source.read()) is not None:
        seen = watcher.feed(index / source.fps, picture)
        index += 1
        if seen is not None and seen.dice:
            reported.append(seen)
    assert [sorted(d.pips for d in s.dice) for s in reported] == [
        sorted(d["pips"] for d in r["dice"]) for r in rolls
    ]
    for seen, roll in zip(reported, rolls, strict=True):
        assert roll["still_from"] <= seen.t <= roll["still_to"], (
            "read after the hand left, while the dice lay still"
        )


def test_watch_gives_each_roll_once_when_a_hand_rests_over_it_after_it_settled():
    """A recording made from real webcam photos: each of its five rolls lies still and is read,
    then a hand rests 0.8 s over one of its dice and leaves without moving any. `companion
    watch` prints each roll once, while it first lay still, and nothing when the hand leaves."""
    folder = Path(__file__).parent / "fixtures" / "hand-after-roll"
    truth = json.loads((folder / "recording.json").read_text())["rolls"]
    rolls = [r for r in watch_json(folder) if "dice" in r]
    assert [Counter(d["pips"] for d in r["dice"]) for r in rolls] == [
        Counter(d["pips"] for d in roll["dice"]) for roll in truth
    ]
    for record, roll in zip(rolls, truth, strict=True):
        assert roll["still_from"] <= record["t"] <= roll["hand_from"] and "replaces" not in record


def test_watch_gives_a_roll_first_read_short_under_a_hand_once_then_its_correction():
    """The recording whose hand rests 0.8 s over each roll's fresh dice before it lies still:
    with no game to say how many dice were rolled, `companion watch` prints what it sees under
    the hand, and once the hand has left, the whole roll as that reading's correction
    (``replaces``: its t); each roll is one first report, and its last word is the true roll."""
    folder = Path(__file__).parent / "fixtures" / "hand-over-dice"
    truth = json.loads((folder / "recording.json").read_text())["rolls"]
    rolls: dict[float, dict] = {}
    for record in watch_json(folder):
        if "dice" in record:
            first = record.get("replaces", record["t"])
            assert "replaces" not in record or first in rolls, "a correction of a roll printed before"
            rolls[first] = record
    assert len(rolls) == len(truth)
    for (_, last), roll in zip(sorted(rolls.items()), truth, strict=True):
        assert Counter(d["pips"] for d in last["dice"]) == Counter(d["pips"] for d in roll["dice"])
        assert roll["still_from"] <= last["t"] <= roll["still_to"]
