"""The table setup page's API: the camera's picture, areas drawn on it and colours learned from
the dice in the tray, saved to the calibration file and used by the reader at once."""

import cv2
import numpy as np
import pytest

from companion.camera.table_setup import TableSetup
from companion.vision import Calibration, DiceReader
from companion.web import create_app
from tests.pictures import rendered

TOKEN = "setup-token"


@pytest.fixture(scope="module")
def reader():
    return DiceReader(threads=1)


@pytest.fixture
def setup(tmp_path, reader):
    reader.calibration = Calibration()
    return TableSetup(reader, tmp_path / "calibration" / "table.json", "camera 0")


@pytest.fixture
def client(tmp_path, setup):
    app = create_app({"TESTING": True, "DATA_DIR": str(tmp_path / "data"), "SETUP_TOKEN": TOKEN})
    app.extensions["setup"] = setup
    return app.test_client()


def post(client, path, body, token=TOKEN):
    return client.post(path, json=body, headers={"Authorization": f"Bearer {token}"} if token else {})


# rendered() lays dice out left to right at x = 140, 290, 440, 590, 740 (y = 150) on a 960×540 table
TRAY = [60, 60, 320, 200]  # around the first two dice


def test_without_a_camera_the_page_says_how_to_start_one(tmp_path):
    client = create_app({"TESTING": True, "DATA_DIR": str(tmp_path / "data")}).test_client()
    assert client.get("/setup").status_code == 200
    answer = client.get("/api/setup")
    assert answer.status_code == 404 and "companion serve --camera 0" in answer.get_json()["error"]


def test_before_the_first_picture_the_page_is_told_to_wait(client):
    assert client.get("/api/setup").get_json()["frame"] is None
    answer = client.get("/api/setup/frame.jpg")
    assert answer.status_code == 400 and "has given no picture yet" in answer.get_json()["error"]


def test_areas_drawn_on_the_picture_are_saved_and_used_at_once(client, setup, reader):
    setup.see(rendered([("red", 4), ("blue", 6), ("green", 2)]))
    picture = client.get("/api/setup/frame.jpg")
    assert picture.mimetype == "image/jpeg"
    assert cv2.imdecode(np.frombuffer(picture.data, np.uint8), cv2.IMREAD_COLOR).shape == (540, 960, 3)
    areas = {"table": [0, 0, 365, 540], "tray": TRAY, "4": [0, 300, 300, 200], "slot": None}
    assert post(client, "/api/setup/areas", areas, token=None).status_code == 401
    assert post(client, "/api/setup/areas", areas, token="wrong").status_code == 401
    state = post(client, "/api/setup/areas", areas).get_json()
    assert state["table"] == [0, 0, 365, 540] and state["zones"] == {"tray": TRAY, "4": [0, 300, 300, 200]}
    saved = Calibration.load(setup.path)
    assert (
        saved.table == (0, 0, 365, 540)
        and saved.frame == (960, 540)
        and reader.calibration.table == saved.table
    )
    # the reader now ignores the green die, which lies off the table area
    assert sorted(d.pips for d in reader.read(setup.frame())) == [4, 6]


@pytest.mark.parametrize(
    "areas, message",
    [
        ({"tray": [2000, 0, 50, 50]}, "tray [2000, 0, 50, 50] lies outside the camera's 960×540 picture"),
        ({"tary": [0, 0, 50, 50]}, "no area 'tary'"),
        ({"tray": [0, 0, 0, 50]}, "an area needs a width and a height"),
        ({"tray": "middle"}, "an area is [x, y, w, h] in pixels"),
        ([1, 2], "send the areas as a JSON object"),
    ],
)
def test_areas_that_cannot_be_are_refused_and_nothing_is_written(client, setup, areas, message):
    setup.see(rendered([("red", 4)]))
    answer = post(client, "/api/setup/areas", areas)
    assert answer.status_code == 400 and message in answer.get_json()["error"]
    assert not setup.path.exists()


def test_a_colour_is_learned_from_the_dice_in_the_tray_and_named_in_play(client, setup, reader):
    setup.see(rendered([("red", 4), ("red", 6), ("blue", 2), ("blue", 5)]))  # blue ones on a casino
    post(client, "/api/setup/areas", {"tray": TRAY})
    state = post(client, "/api/setup/colours", {"colour": "Rouge"}).get_json()  # the rule texts' French
    boxes = state["learned"].pop("boxes")
    assert state["learned"] == {
        "colour": "red",
        "dice": 2,
        "frame": [960, 540],
        "note": "learned as red, the reader's name for rouge",
        "warnings": [],
    }
    # the boxes of the dice learned from, for the page to ring: the two red dice in the tray
    assert sorted(round(x + w / 2, -1) for x, _, w, _ in boxes) == [140, 290]
    assert state["colours"] == ["red"]
    typo = post(client, "/api/setup/colours", {"colour": "blu"})  # refused: nothing learned as "blu"
    assert typo.status_code == 400 and "no colour 'blu' — did you mean 'blue'?" in typo.get_json()["error"]
    assert set(Calibration.load(setup.path).colours) == {"red"} and "red" in reader.calibration.colours
    assert Calibration.load(setup.path).zones == {"tray": tuple(TRAY)}  # the areas stay
    setup.see(rendered([]))  # nothing in the tray now
    answer = post(client, "/api/setup/colours", {"colour": "green"})
    assert answer.status_code == 400 and "no dice seen in the tray" in answer.get_json()["error"]


def test_the_page_names_the_colours_the_game_being_played_rolls_that_are_not_learned(client, setup):
    """Each player's colour and the neutral dice's (learning them matters), until learned."""
    setup.see(rendered([("red", 4), ("red", 6)]))
    assert client.get("/api/setup").get_json()["to_learn"] is None  # no game yet
    players = [{"name": "Ann", "colour": "red"}, {"name": "Bo", "colour": "gray"}]
    assert client.post("/api/games", json={"players": players, "neutral": True}).status_code == 201
    assert client.get("/api/setup").get_json()["to_learn"] == [
        {"colour": "red", "player": "Ann"},
        {"colour": "gray", "player": "Bo"},
        {"colour": "white", "player": None},
    ]
    state = post(client, "/api/setup/colours", {"colour": "red"}).get_json()
    assert [c["colour"] for c in state["to_learn"]] == ["gray", "white"]


def test_colours_learned_under_another_name_count_as_learned():
    from companion.camera_game.table_colours import colours_to_learn
    from companion.rules import GameConfig
    from companion.rules.config import Player

    config = GameConfig(players=(Player("Ann", "grey"), Player("Bo", "orange")), neutral=False)
    assert colours_to_learn(["Gray", "orange"], config) == []
    assert colours_to_learn(["grey"], config) == [{"colour": "orange", "player": "Bo"}]


def test_a_tray_holding_two_colours_is_refused_and_nothing_is_learned(client, setup):
    setup.see(rendered([("red", 4), ("blue", 6), ("red", 2), ("blue", 3)], seed=2))
    answer = post(client, "/api/setup/colours", {"colour": "red"})  # no tray: the whole table
    refused = answer.get_json()
    assert answer.status_code == 400 and refused["code"] == "dice_mixed"
    assert "not all one colour (2 look red, 2 blue)" in refused["error"]
    assert "leave only the red dice there" in refused["error"]
    assert refused["values"] == {"colour": "red", "many": 2, "many_look": "red", "few": 2, "few_look": "blue"}
    assert not setup.path.exists()
    assert post(client, "/api/setup/colours", {"shade": "red"}).status_code == 400


def test_a_colour_is_learned_from_the_picture_on_screen_not_a_newer_frame(client, setup):
    """The player looks at red dice in the tray and taps learn; meanwhile the camera's newest
    frame shows the tray empty: the picture the page showed (its X-Picture number) is used."""
    setup.see(rendered([("red", 4), ("red", 6)]))
    shown = client.get("/api/setup/frame.jpg")
    number = int(shown.headers["X-Picture"])
    setup.see(rendered([]))  # the dice taken away since
    state = post(client, "/api/setup/colours", {"colour": "red", "picture": number}).get_json()
    assert state["learned"]["dice"] == 2 and state["colours"] == ["red"]
    empty = post(client, "/api/setup/colours", {"colour": "blue"})  # no picture named: the newest frame
    assert empty.status_code == 400 and empty.get_json()["code"] == "no_dice_seen_table"
    for _ in range(8):  # the page has taken newer pictures since: the old one is no longer kept
        client.get("/api/setup/frame.jpg")
    gone = post(client, "/api/setup/colours", {"colour": "red", "picture": number})
    assert gone.status_code == 400 and gone.get_json()["code"] == "picture_gone"
    assert "take a new picture" in gone.get_json()["error"]


@pytest.mark.parametrize(
    "areas, code, words",
    [
        ({"tray": [100, 100, 300, 6]}, "area_too_small", "the tray is 300×6 pixels, too small to hold a die"),
        (
            {"table": [0, 0, 480, 540], "3": [400, 0, 200, 200]},
            "area_outside_table",
            "casino 3 lies 60 % outside the table area",
        ),
        (
            {"tray": [100, 100, 300, 200], "1": [50, 50, 200, 200]},
            "area_overlap",
            "casino 1 lies over the tray",
        ),
        ({"2": [0, 0, 200, 200], "1": [20, 20, 200, 200]}, "area_overlap", "casino 1 lies over casino 2"),
    ],
)
def test_areas_that_cannot_be_right_are_refused_with_the_reason(client, setup, areas, code, words):
    setup.see(rendered([("red", 4)]))
    answer = post(client, "/api/setup/areas", areas)
    refused = answer.get_json()
    assert answer.status_code == 400 and refused["code"] == code and words in refused["error"]
    assert refused["values"]["area"] in areas
    assert not setup.path.exists()


def test_areas_that_touch_or_share_an_edge_are_kept(client, setup):
    setup.see(rendered([("red", 4)]))
    areas = {
        "table": [0, 0, 960, 540],
        "tray": [300, 300, 360, 240],
        "1": [0, 0, 160, 200],
        "2": [150, 0, 160, 200],
    }
    assert post(client, "/api/setup/areas", areas).status_code == 200


def test_saving_areas_keeps_the_colours_learned(client, setup):
    setup.see(rendered([("red", 4), ("red", 6)]))
    post(client, "/api/setup/colours", {"colour": "red"})
    post(client, "/api/setup/areas", {"tray": TRAY, "4": [600, 0, 300, 300]})
    saved = Calibration.load(setup.path)
    assert set(saved.colours) == {"red"} and set(saved.zones) == {"tray", "4"}


def test_the_page_is_told_when_the_camera_stopped_or_the_recording_ended(client, setup, tmp_path):
    setup.see(rendered([("red", 4)]))
    camera = client.application.extensions["camera"]
    assert client.get("/api/setup").get_json()["status"] is None
    camera.set_status("lost", "camera 0 gives no frames; reconnecting in 1 s", "camera 0")
    assert client.get("/api/setup").get_json()["status"]["kind"] == "lost"
    camera.set_status("ended", "the recording ended", "sample")
    assert client.get("/api/setup").get_json()["status"] == {
        "kind": "ended",
        "message": "the recording ended",
    }


def test_a_live_camera_reads_with_the_tables_own_calibration_when_none_is_named(tmp_path, monkeypatch):
    """What the setup page saved is what the camera reads with next time, with nothing to remember."""
    from pathlib import Path

    from companion.commands.vision_support import table_calibration

    monkeypatch.chdir(tmp_path)
    sample = tmp_path / "sample"
    sample.mkdir()
    (sample / "calibration.json").write_text("{}")
    assert table_calibration(None, 0, None) == (None, "")  # nothing saved yet
    Calibration(zones={"tray": (0, 0, 10, 10)}).save(Path("calibration/table.json"))
    path, note = table_calibration(None, 0, None)
    assert path == Path("calibration/table.json") and "Using this table's calibration" in note
    assert table_calibration(None, None, "rtsp://10.0.0.5/stream")[0] == path
    assert table_calibration(None, None, str(sample)) == (sample / "calibration.json", "")  # a sample's own
    # a recording is read with what the setup page saved for it, as a camera is
    assert table_calibration(None, None, "game.mp4")[0] == path
    assert table_calibration(Path("mine.json"), 0, None) == (Path("mine.json"), "")


def test_the_page_sees_areas_set_on_other_frames_in_the_pictures_pixels(client, setup, reader):
    setup.see(rendered([("red", 4)]))  # 960×540
    reader.calibration = Calibration(
        table=(0, 0, 1920, 1000), zones={"tray": (200, 400, 800, 600)}, frame=(1920, 1080)
    )
    state = client.get("/api/setup").get_json()
    assert state["table"] == [0, 0, 960, 500] and state["zones"] == {"tray": [100, 200, 400, 300]}
    assert state["problem"] is None
    reader.calibration = Calibration(zones={"tray": (0, 0, 100, 100)}, frame=(640, 480))  # another shape
    state = client.get("/api/setup").get_json()
    assert state["zones"] == {} and "set on 640×480 pictures" in state["problem"]
