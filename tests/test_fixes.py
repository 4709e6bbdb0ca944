"""One tap fixes one die: a player says what a die of the camera's waiting roll shows, the roll is
recorded with it, and the fix is kept beside the games (its crop, what was read, what was said)
for `companion export-fixes`."""

import json

import cv2
import numpy as np
import pytest

from companion.camera.watcher import Settled
from companion.camera_game.bridge import CameraBridge
from companion.cli import main
from companion.fixes import FixStore
from companion.fixes.crops import die_crop, picture_boxes
from companion.rules import Die

#: the dice of a frame: eight red dice in a row, 40 px wide, their pips drawn as that many dots
SIDE = 40


def table_frame(pips: list[int]) -> tuple[np.ndarray, list[tuple[int, int, int, int]]]:
    """A green table 480×200 with a white square per die and that many dark dots in it."""
    frame = np.full((200, 480, 3), (40, 110, 30), np.uint8)
    boxes = []
    for i, value in enumerate(pips):
        x, y = 20 + 56 * i, 80
        cv2.rectangle(frame, (x, y), (x + SIDE, y + SIDE), (235, 235, 235), -1)
        for dot in range(value):
            cv2.circle(frame, (x + 7 + (dot % 3) * 13, y + 10 + (dot // 3) * 18), 3, (20, 20, 20), -1)
        boxes.append((x, y, SIDE, SIDE))
    return frame, boxes


def seen_dice(pips: list[int], boxes, doubted: set[int]):
    from companion.vision import SeenDie

    return tuple(
        SeenDie(box, p, "red", 0.9, None, 0.95, 0.2 if i in doubted else 0.95)
        for i, (p, box) in enumerate(zip(pips, boxes, strict=True))
    )


@pytest.fixture
def red_to_roll(app, client):
    """A two-player classic game (red rolls 8 dice first) in the app, and its token's headers."""
    created = client.post(
        "/api/games",
        json={"players": [{"name": "Ana", "colour": "red"}, {"name": "Bo", "colour": "green"}], "seed": 7},
    ).get_json()
    camera = app.extensions["camera"]
    assert camera.games.get(created["id"]).state.current_player == "red"
    return camera, created["id"], {"Authorization": f"Bearer {created['token']}"}


def offer(camera, game_id: str, read: list[int], doubted: set[int]) -> dict:
    """The camera reads ``read`` in a frame of ``table_frame`` and doubts the ``doubted`` dice."""
    frame, boxes = table_frame(read)
    CameraBridge(camera, "camera 0").on_settled(Settled(1.0, seen_dice(read, boxes, doubted), frame=frame))
    return camera.state_of(game_id)["camera_roll"]


def test_a_fix_of_the_one_doubted_die_records_the_roll_with_it_and_keeps_the_fix(app, client, red_to_roll):
    camera, game_id, token = red_to_roll
    pending = offer(camera, game_id, [1, 2, 3, 4, 5, 6, 6, 2], doubted={2})
    assert pending["unsure"] == [2] and pending["fixed"] == []
    # each die's box in fractions of the picture: where the page rings it
    assert pending["boxes"][2] == pytest.approx([132 / 480, 80 / 200, SIDE / 480, SIDE / 200], abs=1e-3)
    answer = client.post(
        f"/api/games/{game_id}/camera/fix",
        json={"version": pending["version"], "die": 2, "colour": "red", "pips": 5},
        headers=token,
    )
    assert answer.status_code == 200, answer.get_json()
    state = answer.get_json()
    assert state["phase"] == "place" and state["camera_roll"] is None
    assert [d["pips"] for d in state["last_roll"]["dice"]] == [1, 2, 5, 4, 5, 6, 6, 2]
    (fix,) = app.extensions["camera"].fixes.fixes(game_id)
    assert (fix.read.pips, fix.said.pips, fix.said.colour) == (3, 5, "red")
    crop = cv2.imdecode(np.frombuffer(fix.crop.jpeg, np.uint8), cv2.IMREAD_COLOR)
    assert crop.shape[:2] == fix.crop.size[::-1] == (2 * SIDE, 2 * SIDE)
    x, y, w, h = fix.crop.box
    die = crop[y : y + h, x : x + w]
    # the crop is of the die read 3: its white body with three dark dots
    assert die.mean() > 150 and (die.min(axis=2) < 80).sum() > 20


def test_the_page_gets_the_crop_of_the_die_it_asks_about(client, red_to_roll):
    camera, game_id, _ = red_to_roll
    assert client.get(f"/api/games/{game_id}/camera/dice/2.jpg").status_code == 404  # nothing waits
    offer(camera, game_id, [1, 2, 3, 4, 5, 6, 6, 2], doubted={2})
    answer = client.get(f"/api/games/{game_id}/camera/dice/2.jpg")
    assert answer.status_code == 200 and answer.mimetype == "image/jpeg"
    crop = cv2.imdecode(np.frombuffer(answer.data, np.uint8), cv2.IMREAD_COLOR)
    assert crop.shape[:2] == (2 * SIDE, 2 * SIDE)
    assert client.get(f"/api/games/{game_id}/camera/dice/8.jpg").status_code == 404


def test_with_two_doubted_dice_the_roll_waits_until_both_are_told(client, red_to_roll):
    camera, game_id, token = red_to_roll
    pending = offer(camera, game_id, [1, 2, 3, 4, 5, 6, 6, 2], doubted={2, 6})

    def fix(die: int, pips: int):
        body = {"version": pending["version"], "die": die, "colour": "red", "pips": pips}
        return client.post(f"/api/games/{game_id}/camera/fix", json=body, headers=token)

    before = camera.games.snapshot(game_id)
    state = fix(6, 1).get_json()
    assert json.loads(before.text) == before.state, "a fix leaves the state sent before as it was"
    assert state["phase"] == "roll" and state["camera_roll"]["unsure"] == [2]
    assert state["camera_roll"]["fixed"] == [6] and state["camera_roll"]["dice"][6]["pips"] == 1
    assert state["camera_roll"]["problem"].startswith("the camera is unsure of 1 die")
    state = fix(2, 3).get_json()  # the die was right: telling it so records the roll
    assert state["phase"] == "place"
    assert [d["pips"] for d in state["last_roll"]["dice"]] == [1, 2, 3, 4, 5, 6, 1, 2]
    assert len(camera.fixes.fixes(game_id)) == 2


def test_a_fix_for_a_roll_no_longer_waiting_or_a_die_it_lacks_says_so(client, red_to_roll):
    camera, game_id, token = red_to_roll
    url = f"/api/games/{game_id}/camera/fix"
    answer = client.post(url, json={"version": 1, "die": 0, "colour": "red", "pips": 2}, headers=token)
    assert answer.status_code == 409 and answer.get_json()["code"] == "no_camera_roll"
    first = offer(camera, game_id, [1, 2, 3, 4, 5, 6, 6, 2], doubted={2})
    second = offer(camera, game_id, [1, 2, 3, 4, 5, 6, 6, 3], doubted={7})
    answer = client.post(
        url, json={"version": first["version"], "die": 2, "colour": "red", "pips": 2}, headers=token
    )
    assert answer.status_code == 409
    assert answer.get_json() == {
        "error": "the camera has offered another roll since this one; fix a die of the roll shown now",
        "code": "camera_roll_changed",
        "values": {"version": second["version"]},
    }
    answer = client.post(
        url, json={"version": second["version"], "die": 8, "colour": "red", "pips": 2}, headers=token
    )
    assert answer.status_code == 400
    assert answer.get_json()["code"] == "no_such_die" and answer.get_json()["values"] == {
        "die": 8,
        "count": 8,
    }
    answer = client.post(
        url, json={"version": second["version"], "die": 7, "colour": "red", "pips": 9}, headers=token
    )
    assert answer.status_code == 400 and "9" in answer.get_json()["error"]
    answer = client.post(
        url, json={"version": second["version"], "die": 7, "colur": "red", "pips": 2}, headers=token
    )
    assert answer.status_code == 400 and "colour" in answer.get_json()["error"]
    answer = client.post(url, json={"version": second["version"], "die": 7, "colour": "red", "pips": 2})
    assert answer.status_code == 401
    assert camera.state_of(game_id)["camera_roll"]["unsure"] == [7] and camera.fixes.fixes() == []


def test_a_fix_that_leaves_a_roll_the_rules_refuse_keeps_it_waiting_with_their_reason(client, red_to_roll):
    camera, game_id, token = red_to_roll
    pending = offer(camera, game_id, [1, 2, 3, 4, 5, 6, 6, 2], doubted={2})
    body = {"version": pending["version"], "die": 2, "colour": "green", "pips": 3}  # red rolls, not green
    state = client.post(f"/api/games/{game_id}/camera/fix", json=body, headers=token).get_json()
    assert state["phase"] == "roll"
    assert state["camera_roll"]["kind"] == "misfit" and "green" in state["camera_roll"]["problem"]


def test_a_crop_lies_inside_the_frame_with_its_die_boxed_in_it():
    frame, _ = table_frame([1])
    crop = die_crop(frame, (455, 170, 20, 20))  # in the bottom-right corner: moved, not padded
    assert crop.size == (40, 40) and crop.box == (455 - 440, 170 - 160, 20, 20)
    assert die_crop(frame, (600, 10, 20, 20)) is None  # outside the frame
    assert picture_boxes((480, 200), [(48, 20, 24, 10)]) == [[0.1, 0.1, 0.05, 0.05]]


def test_export_fixes_writes_a_labelled_set_and_says_what_it_wrote(
    app, client, red_to_roll, tmp_path, capsys
):
    camera, game_id, token = red_to_roll
    pending = offer(camera, game_id, [1, 2, 3, 4, 5, 6, 6, 2], doubted={2})
    body = {"version": pending["version"], "die": 2, "colour": "red", "pips": 5}
    client.post(f"/api/games/{game_id}/camera/fix", json=body, headers=token)
    assert main(["export-fixes", str(tmp_path / "set"), "--data", app.config["DATA_DIR"]]) == 0
    assert "1 fixed dice (1×5; 1 the reader had read otherwise)" in capsys.readouterr().out
    (label,) = (tmp_path / "set" / "train" / "labels").iterdir()
    assert label.read_text().split()[0] == "4"  # class = pips − 1
    assert (tmp_path / "set" / "train" / "images" / f"{label.stem}.jpg").exists()
    assert main(["export-fixes", str(tmp_path / "other"), "--data", str(tmp_path / "empty")]) == 2
    assert "no fixes are kept in" in capsys.readouterr().err


def test_a_fix_of_the_same_die_again_replaces_the_first(tmp_path):
    from companion.fixes import DieCrop, Fix

    store = FixStore(tmp_path)
    assert store.fixes() == [] and not store.path.exists()
    crop = DieCrop(b"jpeg", (1, 2, 3, 4), (10, 10))
    store.keep(Fix("g-a-1", "g", "2026-01-01T10:00:00", Die("red", 3), Die("red", 5), crop))
    store.keep(Fix("g-a-1", "g", "2026-01-01T10:00:05", Die("red", 3), Die("red", 4), crop))
    store.keep(Fix("h-b-0", "h", "2026-01-01T10:01:00", Die("blue", 2), Die("violet", 2), crop))
    assert [(f.id, f.said.pips) for f in FixStore(tmp_path).fixes()] == [("g-a-1", 4), ("h-b-0", 2)]
    assert [f.crop for f in store.fixes("h")] == [crop]
