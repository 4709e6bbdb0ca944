"""In a real browser: the roll the camera is unsure of shows its picture with the doubted die
ringed; a tap on the ring and one on the number records the roll with that die fixed."""

import cv2
import numpy as np
import pytest

from tests.test_browser import browser, live_app, page, shot, start_red_and_green  # noqa: F401 (fixtures)

pytestmark = pytest.mark.browser

#: where the camera saw red's eight dice (x, y of the top-left corner; 52 px dice on 640×400)
PLACES = [(60, 70), (170, 120), (300, 60), (420, 150), (530, 80), (110, 250), (260, 270), (450, 280)]
SIDE = 52
SPOTS = {
    1: [(2, 2)],
    2: [(1, 1), (3, 3)],
    3: [(1, 1), (2, 2), (3, 3)],
    4: [(1, 1), (1, 3), (3, 1), (3, 3)],
    5: [(1, 1), (1, 3), (2, 2), (3, 1), (3, 3)],
    6: [(1, 1), (1, 2), (1, 3), (3, 1), (3, 2), (3, 3)],
}


def tray_picture(pips: list[int]) -> tuple[np.ndarray, list[tuple[int, int, int, int]]]:
    """A felt tray with red dice showing ``pips``, and each die's box."""
    frame = np.full((400, 640, 3), (45, 100, 35), np.uint8)
    boxes = []
    for (x, y), value in zip(PLACES, pips, strict=True):
        cv2.rectangle(frame, (x, y), (x + SIDE, y + SIDE), (40, 40, 200), -1)
        for row, col in SPOTS[value]:
            cv2.circle(frame, (x + col * SIDE // 4, y + row * SIDE // 4), 5, (245, 245, 245), -1)
        boxes.append((x, y, SIDE, SIDE))
    return frame, boxes


def test_one_tap_on_the_ringed_die_and_one_on_its_number_records_the_roll(page, live_app):  # noqa: F811
    from companion.camera.watcher import Settled
    from companion.camera_game.bridge import CameraBridge
    from companion.vision import SeenDie

    app, url = live_app
    games, camera = app.extensions["games"], app.extensions["camera"]
    start_red_and_green(page, url)
    game = games.active_game()
    camera.set_status("ok", "camera 0 is giving frames", "camera 0")
    truth = [1, 2, 5, 4, 5, 6, 6, 2]
    read = [1, 2, 3, 4, 5, 6, 6, 2]  # the third die shows 5; the reader hesitated and read 3
    frame, boxes = tray_picture(truth)
    seen = tuple(
        SeenDie(box, p, "red", 0.9, None, 0.95, 0.3 if i == 2 else 0.95)
        for i, (box, p) in enumerate(zip(boxes, read, strict=True))
    )
    CameraBridge(camera, "camera 0").on_settled(Settled(1.0, seen, frame=frame))

    page.wait_for_selector("#camera-correction .die-ring.unsure")
    assert page.locator("#camera-correction .die-ring").count() == 8, "every die can be tapped"
    assert page.get_attribute("#camera-correction .die-ring.unsure", "data-index") == "2"
    assert page.inner_text("#camera-correction h2") == "The camera is unsure of one die of Red's roll"
    assert "Tap the ringed die on the picture, then the number on top" in page.inner_text("#camera-tap-hint")
    ring = page.locator("#camera-correction .die-ring.unsure").bounding_box()
    picture = page.locator("#camera-correction img.camera-frame").bounding_box()
    centre = (ring["x"] + ring["width"] / 2 - picture["x"], ring["y"] + ring["height"] / 2 - picture["y"])
    expected = ((300 + SIDE / 2) / 640 * picture["width"], (60 + SIDE / 2) / 400 * picture["height"])
    assert abs(centre[0] - expected[0]) < 3 and abs(centre[1] - expected[1]) < 3, "the ring is round the die"
    for width, height in ((360, 740), (390, 844), (768, 1024), (1024, 768)):
        page.set_viewport_size({"width": width, "height": height})
        page.locator("#camera-correction").scroll_into_view_if_needed()
        shot(page, f"9e-camera-ringed-{width}")
    page.set_viewport_size({"width": 390, "height": 844})  # a phone at the table
    page.click("#camera-correction .die-ring.unsure")
    page.wait_for_selector("#camera-correction .chooser .pip-button.current[data-pips='3']")
    assert "Die 3: which number is on top?" in page.inner_text("#camera-correction .chooser")
    zoom = page.wait_for_function(
        "() => { const img = document.querySelector('#camera-correction .chooser img.die-zoom');"
        " return img && img.complete && img.naturalWidth; }"
    )
    assert zoom.json_value() == 2 * SIDE, "the die asked about, enlarged from the camera's frame"
    shot(page, "9f-camera-pick-390")
    page.select_option("#language", "fr")
    assert "Touchez le dé entouré" in page.inner_text("#camera-tap-hint")
    page.set_viewport_size({"width": 360, "height": 740})
    shot(page, "9f-camera-pick-360-fr")
    page.select_option("#language", "en")
    page.click("#camera-correction .chooser .pip-button[data-pips='5']")

    page.wait_for_selector('button.value[data-value="5"]')
    live = games.get(game.record.id)
    assert [d.pips for d in live.state.last_roll] == truth
    assert page.locator("#camera-correction").is_hidden()
    (fix,) = camera.fixes.fixes(game.record.id)
    assert (fix.read.pips, fix.said.pips) == (3, 5)


def test_with_two_ringed_dice_the_picker_moves_to_the_second_and_the_roll_waits_for_it(page, live_app):  # noqa: F811
    from companion.camera.watcher import Settled
    from companion.camera_game.bridge import CameraBridge
    from companion.vision import SeenDie

    app, url = live_app
    games, camera = app.extensions["games"], app.extensions["camera"]
    start_red_and_green(page, url)
    game = games.active_game()
    truth = [1, 2, 5, 4, 5, 6, 6, 2]
    read = [1, 2, 3, 4, 5, 6, 6, 3]
    frame, boxes = tray_picture(truth)
    seen = tuple(
        SeenDie(box, p, "red", 0.9, None, 0.95, 0.3 if i in (2, 7) else 0.95)
        for i, (box, p) in enumerate(zip(boxes, read, strict=True))
    )
    CameraBridge(camera, "camera 0").on_settled(Settled(1.0, seen, frame=frame))
    page.wait_for_selector("#camera-correction .die-ring.unsure")
    assert page.inner_text("#camera-correction h2") == "The camera is unsure of 2 dice of Red's roll"
    page.click('#camera-correction .die-ring[data-index="7"]')
    page.click("#camera-correction .chooser .pip-button[data-pips='2']")
    # the first told, the picker opens on the other ringed die; nothing is recorded yet
    page.wait_for_selector('#camera-correction .die-ring.selected[data-index="2"]')
    assert page.locator('#camera-correction .die-ring.fixed[data-index="7"]').count() == 1
    assert page.inner_text("#camera-correction h2") == "The camera is unsure of one die of Red's roll"
    assert games.get(game.record.id).state.phase.value == "roll"
    page.click("#camera-correction .chooser .pip-button[data-pips='5']")
    page.wait_for_selector('button.value[data-value="5"]')
    assert [d.pips for d in games.get(game.record.id).state.last_roll] == truth
    assert sorted((f.read.pips, f.said.pips) for f in camera.fixes.fixes(game.record.id)) == [(3, 2), (3, 5)]
