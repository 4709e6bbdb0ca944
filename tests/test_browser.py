"""A real browser (Debian's Chromium driven by Playwright) plays a round on the tablet page.

Screenshots of every page land in test-output/screenshots/ for a person to look at.
"""

import shutil
import time
from pathlib import Path

import numpy as np
import pytest

from companion.vision import Calibration
from tests.server import call, free_port, start_server

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
SHOTS = Path(__file__).resolve().parent.parent / "test-output" / "screenshots"

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def browser():
    playwright_api = pytest.importorskip("playwright.sync_api")
    if not Path(CHROMIUM).exists():
        pytest.skip("Chromium is not installed (apt-get install chromium)")
    with playwright_api.sync_playwright() as p:
        chromium = p.chromium.launch(
            executable_path=CHROMIUM,
            args=[
                "--no-sandbox",
                "--disable-gpu",
                "--disable-quic",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
            ],
        )
        yield chromium
        chromium.close()


@pytest.fixture
def server(tmp_path):
    port = free_port()
    proc = start_server(tmp_path, port)
    yield f"http://127.0.0.1:{port}"
    proc.terminate()
    proc.wait(timeout=10)


@pytest.fixture
def page(browser):
    context = browser.new_context(viewport={"width": 1180, "height": 820}, locale="en-US")
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda err: errors.append(f"{err} {err.stack}"))
    yield page
    context.close()
    assert errors == [], f"JavaScript errors on the page: {errors}"


def shot(page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


def enter_roll(page, colour: str, pips: list[int]) -> None:
    for value in pips:
        page.click(f'.entry-row[data-colour="{colour}"] .pip-button[data-pips="{value}"]')
    page.click("#record-roll")


def start_red_and_green(page, url: str) -> None:
    """Start the new-game form's two-player game (red and green, red to roll) from the page."""
    page.goto(url + "/")
    page.click("#remove-player")
    page.click('button[type="submit"]')
    page.wait_for_selector(".entry-row")


def camera_picture(frame: np.ndarray | None = None) -> bytes:
    """A JPEG the camera might have taken (a grey frame unless one is given)."""
    import cv2

    return cv2.imencode(".jpg", np.full((120, 160, 3), 90, np.uint8) if frame is None else frame)[1].tobytes()


def test_play_a_round_by_hand_and_see_the_tie_and_payouts(page, server):
    page.goto(server + "/")
    page.click("#remove-player")
    page.fill('input[name="name-0"]', "Ana")
    page.fill('input[name="name-1"]', "Bruno")
    page.select_option('select[name="colour-1"]', "blue")
    shot(page, "1-new-game")
    page.click('button[type="submit"]')
    page.wait_for_url("**/games/*")
    page.wait_for_selector(".entry-row")
    assert page.inner_text("#turn-label") == "Ana's turn"
    shot(page, "2-table-roll-entry")

    turns = [
        ("red", [5, 5, 5, 1, 1, 1, 1, 1], 5),
        ("blue", [5, 5, 5, 2, 2, 2, 2, 2], 5),
        ("red", [1, 1, 1, 1, 1], 1),
        ("blue", [2, 2, 2, 2, 2], 2),
    ]
    for number, (colour, pips, value) in enumerate(turns):
        enter_roll(page, colour, pips)
        page.wait_for_selector(f'button.value[data-value="{value}"]')
        if number == 0:
            shot(page, "3-table-choose-value")
        page.click(f'button.value[data-value="{value}"]')
        if number < len(turns) - 1:
            page.wait_for_selector(".entry-row")

    dialog = page.locator("#round-end")
    dialog.wait_for(state="visible")
    page.wait_for_timeout(2600)  # let the reveal animation finish before the screenshot
    shot(page, "4-round-end")
    five = dialog.locator('.casino-result[data-casino="5"]')
    assert "Ana and Bruno cancel: 3 each" in five.inner_text()  # a list as the language writes one
    one = dialog.locator('.casino-result[data-casino="1"]')
    assert "Ana" in one.locator(".paid").first.inner_text()
    two = dialog.locator('.casino-result[data-casino="2"]')
    assert "Bruno" in two.locator(".paid").first.inner_text()
    assert "under the deck" in dialog.inner_text()
    standings = dialog.locator(".standings li")
    assert standings.count() == 2
    page.click("#round-end button")
    assert page.inner_text("#round-label") == "Round 2 of 4 · ★ Bruno rolls first this round"
    assert page.inner_text("#turn-label") == "Bruno's turn"
    shot(page, "5-table-round-two")

    page.select_option("#language", "es")
    assert page.inner_text("#turn-label") == "Turno de Bruno"
    page.select_option("#language", "fr")
    assert page.inner_text("#round-label") == "Manche 2 sur 4 · ★ Bruno lance en premier cette manche"
    page.select_option("#language", "en")

    page.click("#share")
    page.wait_for_selector("#share-dialog img.qr")
    page.wait_for_function("document.querySelector('#share-dialog img.qr').complete")
    assert page.eval_on_selector("#share-dialog img.qr", "img => img.naturalWidth") > 0, "the QR code shows"
    shot(page, "6-join-link")
    page.click("#share-dialog button")

    page.goto(server + "/history")
    page.wait_for_selector(".history-game")
    assert "Ana" in page.inner_text("#history")
    shot(page, "7-history")


def test_a_second_tablet_without_the_token_watches_live(browser, server, page):
    page.goto(server + "/")
    page.click('button[type="submit"]')
    page.wait_for_url("**/games/*")
    page.wait_for_selector(".entry-row")
    viewer_context = browser.new_context(viewport={"width": 820, "height": 1180})
    viewer = viewer_context.new_page()
    viewer.goto(page.url)
    viewer.wait_for_selector("#readonly-note:not([hidden])")
    assert viewer.locator(".entry-row").count() == 0
    assert viewer.locator("#undo").is_hidden()
    page.click("#virtual-roll")
    page.wait_for_selector("button.value")
    page.locator("button.value").first.click()
    viewer.wait_for_function("document.querySelector('#turn-label').textContent.includes('Green')")
    shot(viewer, "8-viewer-portrait")
    viewer_context.close()


def test_touch_targets_are_at_least_44px(page, server):
    page.goto(server + "/")
    page.click('button[type="submit"]')
    page.wait_for_selector(".entry-row")
    small = page.evaluate("""() => [...document.querySelectorAll('button, select, .pip-button')]
        .filter(e => e.offsetParent !== null)
        .map(e => [e.textContent.trim() || e.id, e.getBoundingClientRect().height])
        .filter(([, h]) => h < 44)""")
    assert small == []


@pytest.fixture
def live_app(tmp_path):
    """The app in this process on a real server, so a test can act as the camera."""
    import threading

    from companion.web import create_app
    from companion.web.live import listen, make_server

    app = create_app({"DATA_DIR": str(tmp_path / "data")})
    listening = listen("127.0.0.1", 0)
    server = make_server(app, workers=8)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [listening]}, daemon=True)
    thread.start()
    while not server.started:
        time.sleep(0.05)
    yield app, f"http://127.0.0.1:{listening.getsockname()[1]}"
    app.extensions["games"].changes.close()
    server.should_exit = True
    thread.join(timeout=10)


def test_a_camera_roll_that_does_not_fit_is_corrected_with_a_tap(page, live_app):
    from companion.rules import Die

    app, url = live_app
    games, camera = app.extensions["games"], app.extensions["camera"]
    start_red_and_green(page, url)
    game = games.active_game()
    camera.set_status("ok", "camera 0 is giving frames", "camera 0")
    seen = tuple(Die("red", p) for p in (1, 2, 3, 4, 5, 6, 6)) + (Die("green", 2),)  # one misread colour
    picture = camera_picture()
    camera.offer_roll(game.record.id, seen, lambda: picture)
    page.wait_for_selector("#camera-correction:not([hidden]) img.camera-frame")
    assert "the green dice belong to another player; this roll is red's" in page.inner_text(
        "#camera-correction"
    )
    assert page.inner_text("#camera-status") == "Camera: watching"
    # the tally says what the roll lacks, and the roll cannot be recorded until it fits
    tally = page.inner_text("#camera-tally")
    assert "7/8" in tally and "1 die of a colour this roll cannot hold" in tally
    assert page.is_disabled("#camera-record")
    shot(page, "9-camera-correction")
    page.select_option("#language", "es")  # the tally in Spanish; the rules' English reason is left out
    assert "1 dado de un color que esta tirada no puede tener" in page.inner_text("#camera-tally")
    assert "belong to another player" not in page.inner_text("#camera-correction")
    page.select_option("#language", "en")
    camera.set_status("blind", "the picture is almost black", "camera 0")
    page.wait_for_selector("#camera-status.blind")
    assert "black or dazzled" in page.inner_text("#camera-status")
    shot(page, "9b-camera-blind")
    camera.set_status("dim", "the dice are too dark for their colours to be told for sure", "camera 0")
    page.wait_for_selector("#camera-status.dim")
    assert "too dark to tell their colours" in page.inner_text("#camera-status")
    shot(page, "9c-camera-dim")
    camera.set_status("colourless", "the picture has no colour (black and white)", "camera 0")
    page.wait_for_selector("#camera-status.colourless")
    assert "no colour (night mode?)" in page.inner_text("#camera-status")
    page.select_option("#language", "fr")
    assert "pas de couleur" in page.inner_text("#camera-status")
    page.select_option("#language", "en")
    shot(page, "9c2-camera-colourless")
    page.click('#camera-correction .entered-die[data-index="7"]')
    page.click('#camera-correction .colour-choice[data-colour="red"]')
    assert "8/8" in page.inner_text("#camera-tally") and page.is_enabled("#camera-record")
    page.click("#camera-record")
    page.wait_for_selector('button.value[data-value="6"]')
    assert games.get(game.record.id).state.phase.value == "place"
    assert page.locator("#camera-correction").is_hidden()


def test_a_camera_roll_that_does_not_fit_has_one_tap_ways_on(page, live_app):
    """Read again (the camera is asked, the offer goes), enter by hand, or take the dice as seen
    named as the roller's own; the next roll that fits is recorded whatever was pending."""
    from companion.camera.watcher import Settled
    from companion.camera_game.bridge import CameraBridge
    from companion.rules import Die
    from companion.vision import SeenDie

    app, url = live_app
    games, camera = app.extensions["games"], app.extensions["camera"]
    start_red_and_green(page, url)
    game = games.active_game()
    camera.set_status("ok", "camera 0 is giving frames", "camera 0")
    seen = tuple(Die("red", p) for p in (1, 2, 3, 4, 5, 6, 6)) + (Die("green", 2),)
    picture = camera_picture()

    camera.offer_roll(game.record.id, seen, lambda: picture)
    page.wait_for_selector("#camera-read-again")
    page.click("#camera-read-again")
    page.wait_for_selector("#camera-correction", state="hidden")
    assert camera.read_again.is_set(), "the camera is asked to read the table again"
    camera.read_again.clear()

    camera.offer_roll(game.record.id, seen, lambda: picture)
    page.wait_for_selector("#camera-by-hand")
    page.click("#camera-by-hand")
    page.wait_for_selector(".entry-row")  # the manual entry, though the camera watches

    short = tuple(
        SeenDie((60 * i, 0, 50, 50), p, "red", 0.95, None, 0.95, 0.95) for i, p in enumerate((1, 2, 3, 4, 5))
    )
    bridge = CameraBridge(camera, "camera 0")
    bridge.on_settled(Settled(1.0, short))  # read short: it waits for a player
    page.wait_for_selector("#camera-correction:not([hidden])")
    assert page.locator("#camera-take").count() == 0, "five dice cannot be taken as a roll of eight"
    full = tuple(
        SeenDie((60 * i, 0, 50, 50), p, "red", 0.95, None, 0.95, 0.95)
        for i, p in enumerate((1, 2, 3, 4, 5, 6, 6, 2))
    )
    bridge.on_settled(Settled(2.0, full))  # the next reading fits: the game goes on
    page.wait_for_selector('button.value[data-value="6"]')
    assert games.get(game.record.id).state.phase.value == "place"

    games.undo(game.record.id)
    camera.offer_roll(game.record.id, seen, lambda: picture)
    page.wait_for_selector("#camera-take")
    assert page.inner_text("#camera-take") == "Take as Red's roll"
    page.click("#camera-take")
    page.wait_for_selector('button.value[data-value="6"]')
    rolled = games.get(game.record.id).events[-1]
    assert sorted((d.colour, d.pips) for d in rolled.dice) == sorted(("red", d.pips) for d in seen)


def test_a_camera_roll_with_a_die_the_camera_is_unsure_of_waits_for_a_look(page, live_app):
    """The roll fits red's hand, but the reader scored its third die low: the page shows it for a
    player to check (that die marked) instead of recording it unseen; one tap records it."""
    import cv2

    from companion.rules import Die

    app, url = live_app
    games, camera = app.extensions["games"], app.extensions["camera"]
    start_red_and_green(page, url)
    game = games.active_game()
    seen = tuple(Die("red", p) for p in (1, 2, 3, 4, 5, 6, 6, 2))
    frame = np.full((240, 320, 3), (40, 110, 30), np.uint8)
    cv2.rectangle(frame, (150, 100), (190, 140), (0, 0, 255), 3)  # as the bridge boxes a doubted die
    picture = camera_picture(frame)
    camera.offer_roll(game.record.id, seen, lambda: picture, unsure=(2,))
    page.wait_for_selector("#camera-correction:not([hidden]) img.camera-frame")
    text = page.inner_text("#camera-correction")
    assert "The camera is unsure of one die of Red's roll (boxed in red)" in text
    assert "does not fit" not in text
    assert page.locator("#camera-correction .entered-die.unsure").count() == 1
    assert page.get_attribute("#camera-correction .entered-die.unsure", "data-index") == "2"
    shot(page, "9d-camera-unsure")
    page.click("#camera-record")
    page.wait_for_selector('button.value[data-value="6"]')
    assert games.get(game.record.id).state.phase.value == "place"
    assert page.locator("#camera-correction").is_hidden()


def test_fix_an_earlier_roll_from_the_roll_log(page, server):
    start_red_and_green(page, server)
    enter_roll(page, "red", [2, 2, 3, 3, 4, 4, 5, 6])
    page.click('button.value[data-value="2"]')
    page.wait_for_selector(".roll-line .fix-roll")
    page.click(".roll-line .fix-roll")
    page.click('.fix-editor .entered-die[data-index="2"]')  # the first 3 was really a 2
    page.click('.fix-editor .pip-button[data-pips="2"]')
    page.click("#fix-save")
    page.wait_for_function("document.querySelector('[data-casino=\"2\"] .count')?.textContent === '×3'")
    shot(page, "10-roll-log")


def test_mark_the_tray_on_the_camera_picture_and_learn_a_colour(page, tmp_path):
    """The setup page of a server watching the bundled sample: the tray drawn by dragging across
    the camera's picture is saved (in pixels of the camera's frames) and a colour is learned."""
    sample = Path(__file__).resolve().parent.parent / "samples" / "classic-two-players"
    calibration = tmp_path / "table.json"
    port = free_port()
    proc = start_server(tmp_path, port, "--source", str(sample), "--calibration", str(calibration))
    try:
        log = (tmp_path / f"server-{port}.log").read_text()
        game = next(line.split("open ")[1] for line in log.splitlines() if line.startswith("Sample game"))
        setup = next(
            line.split(": ", 1)[1] for line in log.splitlines() if line.startswith("Set up the table")
        )
        page.goto(game)  # the recording starts playing when its game is watched
        page.wait_for_selector(".casino")
        page.goto(setup)
        page.wait_for_function("document.querySelector('#setup-frame').naturalWidth > 0", timeout=20000)
        # nothing learned yet: the page names the sample game's colours still to learn
        assert page.inner_text("#setup-to-learn") == (
            "Not learned yet, for the game being played: red (Red), green (Green)"
        )
        page.click('button[data-area="tray"]')
        picture = page.locator("#setup-frame").bounding_box()
        page.mouse.move(picture["x"] + picture["width"] * 0.25, picture["y"] + picture["height"] * 0.5)
        page.mouse.down()
        page.mouse.move(
            picture["x"] + picture["width"] * 0.75, picture["y"] + picture["height"] * 0.95, steps=6
        )
        page.mouse.up()
        page.click("#setup-save")
        page.wait_for_function("document.querySelector('#toast').textContent.startsWith('Saved in')")
        tray = Calibration.load(calibration).zones["tray"]
        assert abs(tray[0] - 240) <= 8 and abs(tray[1] - 270) <= 8 and abs(tray[2] - 480) <= 8
        assert "Tray ✓" in page.inner_text("#setup-area-buttons")
        shot(page, "11-table-setup")
        page.select_option("#language", "es")
        assert page.inner_text("#setup h1") == "Preparar la mesa" and "Bandeja ✓" in page.inner_text(
            "#setup-area-buttons"
        )
        page.select_option("#language", "fr")
        assert "Plateau ✓" in page.inner_text("#setup-area-buttons")
        page.select_option("#language", "en")
        page.select_option("#setup-colour", "green")
        page.click("#setup-learn")  # the recording's tray may be bare at that moment: either answer is clear
        page.wait_for_function("!document.querySelector('#toast').textContent.startsWith('Saved in')")
        said = page.inner_text("#toast")
        assert said.startswith(
            ("green: learned from", "No dice seen in the tray", "The dice are not all one")
        )
        if said.startswith("green: learned from"):
            assert page.inner_text("#setup-to-learn").endswith("game being played: red (Red)")
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def play_to_the_end(port: int, game_id: str, token: str) -> dict:
    """Virtual rolls, each placed on its lowest value, until the game is over; the last state."""
    for _ in range(500):
        state = call(port, "GET", f"/api/games/{game_id}")
        if state["over"]:
            return state
        if state["phase"] == "place":
            value = state["last_roll"]["by_value"][0]["value"]
            call(port, "POST", f"/api/games/{game_id}/placements", {"value": value}, token)
        else:
            call(port, "POST", f"/api/games/{game_id}/rolls/virtual", {}, token)
    raise AssertionError("the game did not end in 500 moves")


def test_after_a_game_the_same_players_play_again_and_history_says_who_won(page, server):
    port = int(server.rsplit(":", 1)[1])
    # pink: a colour the form does not offer, which a game made through the API may have
    seats = [("Ana", "red"), ("Bo", "pink"), ("Cy", "green")]
    players = [{"name": name, "colour": colour} for name, colour in seats]
    setup = {"players": players, "neutral": True, "neutral_colour": "grey", "seed": 5}
    created = call(port, "POST", "/api/games", setup)
    finished = play_to_the_end(port, created["id"], created["token"])
    names = [p["name"] for p in finished["players"] if p["colour"] in finished["winners"]]
    # (seed 5 ends in a tie on money and notes: a shared win, as the rule texts have it)
    listed = f"{', '.join(names[:-1])} and {names[-1]}" if len(names) > 1 else names[0]
    winners = f"{'Shared win' if len(names) > 1 else 'Winner'}: {listed}"

    page.goto(f"{server}/games/{created['id']}")
    page.wait_for_selector("#casinos a.play-again")
    assert winners in page.inner_text("#casinos")
    page.click("#casinos a.play-again")  # "Play again with these players"
    page.wait_for_selector("#form-note:not([hidden])")
    assert "Ana, Bo, and Cy" in page.inner_text("#form-note")
    assert [page.input_value(f'input[name="name-{i}"]') for i in range(3)] == ["Ana", "Bo", "Cy"]
    assert [page.input_value(f'select[name="colour-{i}"]') for i in range(3)] == ["red", "pink", "green"]
    assert page.is_checked('input[name="neutral"]') and not page.is_checked('input[name="slot"]')
    shot(page, "12-play-again")
    page.click('button[type="submit"]')
    page.wait_for_url("**/games/*")
    page.wait_for_selector(".entry-row")
    again = call(port, "GET", page.url.replace(server, "/api"))
    assert [(p["name"], p["colour"]) for p in again["players"]] == [(p["name"], p["colour"]) for p in players]
    assert again["neutral"] == "grey" and again["id"] != created["id"]

    page.goto(server + "/history")
    page.wait_for_selector(".history-game")
    games = page.locator(".history-game")
    assert games.count() == 2
    assert games.nth(0).locator(".game-status").inner_text() == "In play: round 1 of 4"
    assert games.nth(1).locator(".game-status").inner_text() == winners
    assert "grey neutral dice" in games.nth(1).locator("h2").inner_text()
    page.select_option("#language", "es")  # the history is drawn again in Spanish
    page.locator(".game-status", has_text="En juego: ronda 1 de 4").wait_for()
    page.select_option("#language", "en")

    # a tie on money and notes is a shared win (rule texts), said so in each language
    tie = (
        "winnersText({winners: ['red', 'pink'], "
        "players: [{name: 'Ana', colour: 'red'}, {name: 'Bo', colour: 'pink'}]})"
    )
    assert page.evaluate(tie) == "Shared win: Ana and Bo"
    page.select_option("#language", "fr")
    assert page.evaluate(tie) == "Victoire partagée : Ana et Bo"
    page.select_option("#language", "en")

    page.goto(server + "/?again=nosuchgame")
    page.wait_for_selector("#form-error:has-text('nosuchgame')")
    assert "not on this table" in page.inner_text("#form-error")
    assert page.input_value('input[name="name-0"]') == ""


def test_hints_show_each_value_s_worth_and_the_review_every_move(page, server):
    """The hints switch (off by default) puts the worth of each value beside its button, the best
    marked; the round-end dialog shows the round's moves against the best ones once reviewed;
    the review page shows every move, the biggest swings and the chances to win."""
    port = int(server.rsplit(":", 1)[1])
    created = call(
        port,
        "POST",
        "/api/games",
        {
            "players": [
                {"name": n, "colour": c} for n, c in (("Ana", "red"), ("Bo", "blue"), ("Cy", "green"))
            ],
            "seed": 8,
        },
    )
    game, token = created["id"], created["token"]
    page.goto(f"{server}/games/{game}#token={token}")
    page.click("#virtual-roll")
    page.wait_for_selector("button.value")
    assert not page.is_checked("#hints") and page.locator(".worth").count() == 0
    page.click("#hints")
    page.wait_for_selector(".worth[data-worth]")
    advice = call(port, "GET", f"/api/games/{game}/advice")
    shown = {
        int(v): int(w)
        for v, w in zip(
            page.eval_on_selector_all(".value-choice button.value", "els => els.map(e => e.dataset.value)"),
            page.eval_on_selector_all(".value-choice > .worth", "els => els.map(e => e.dataset.worth)"),
            strict=True,
        )
    }
    assert shown == {c["value"]: c["money"] for c in advice["choices"]}
    best = advice["choices"][0]
    assert page.get_attribute(".worth.best", "data-worth") == str(best["money"])
    shown_chance = page.inner_text(".worth.best .chance")
    assert shown_chance.endswith("% to win") and abs(int(shown_chance[:-8]) - best["chance"] * 100) <= 0.51
    same = sum(1 for c in advice["choices"][1:] if c["about_the_same"])
    assert page.locator(".worth.same").count() == same == page.locator("text=about the same").count()
    assert call(port, "GET", f"/api/games/{game}")["hints"] is True
    shot(page, "13-hints")

    page.click("#chances-button")  # on demand: each player's chance to win, on their card
    page.wait_for_selector(".player-chance")
    odds = call(port, "GET", f"/api/games/{game}/chances")["chances"]
    for colour, chance in odds.items():
        shown = page.inner_text(f'.player[data-colour="{colour}"] .player-chance')
        assert shown == f"{round(chance * 100)}% to win", (colour, shown)

    placed_before = call(port, "GET", f"/api/games/{game}")["events"]
    page.click(f'button.value[data-value="{best["value"]}"]')
    # the page's placement lands before the test plays on, or both would place the same roll
    deadline = time.monotonic() + 30
    while call(port, "GET", f"/api/games/{game}")["events"] == placed_before:
        assert time.monotonic() < deadline, "the page's placement never arrived"
        time.sleep(0.1)
    while not call(port, "GET", f"/api/games/{game}")["rounds"]:  # the rest of round 1 by the API
        state = call(port, "GET", f"/api/games/{game}")
        if state["phase"] == "place":
            call(port, "POST", f"/api/games/{game}/placements", state["placements"][0], token)
        else:
            call(port, "POST", f"/api/games/{game}/rolls/virtual", {}, token)
    page.wait_for_selector("#round-end[open] #round-review .review-moves", timeout=60_000)
    assert "Review of round 1" in page.inner_text("#round-review")
    assert "Chances to win after round 1" in page.inner_text("#round-review")
    page.locator("#round-review").scroll_into_view_if_needed()
    shot(page, "14-round-review")
    page.click("#round-end button")

    finished = play_to_the_end(port, game, token)
    page.goto(f"{server}/games/{game}/review")
    page.wait_for_selector(".game-review .chances", timeout=60_000)
    page.wait_for_function("!document.querySelector('.review-progress')", timeout=60_000)
    review = call(port, "GET", f"/api/games/{game}/review")["review"]
    assert review["covered"] == finished["events"]
    assert [r["round"] for r in review["rounds"]] == [1, 2, 3, 4]
    last = review["rounds"][-1]["chances"]
    assert {c for c, p in last.items() if p > 0} == set(finished["winners"])
    first_round = page.locator(".game-review details").nth(0)
    first_round.locator("summary").click()
    assert first_round.locator(".review-move").first.is_visible()
    listed = first_round.locator(".review-move").count()
    assert listed == sum(1 for m in review["moves"] if m["round"] == 1)
    assert page.locator(".game-review > ol .review-move").count() == len(review["biggest"])
    shot(page, "15-review")


def test_a_page_refused_a_live_stream_follows_by_polling_and_takes_the_stream_when_one_frees(
    browser, tmp_path
):
    """A server with room for one live view: the second page is refused its stream (503), still
    shows every change, and goes live when the first page leaves."""
    port = free_port()
    proc = start_server(tmp_path, port, "--viewers", "1")
    base = f"http://127.0.0.1:{port}"
    try:
        game = call(
            port,
            "POST",
            "/api/games",
            {"players": [{"name": "Ana", "colour": "red"}, {"name": "Bo", "colour": "blue"}]},
        )
        first, second = browser.new_page(), browser.new_page()
        for tablet in (first, second):
            tablet.goto(f"{base}/games/{game['id']}")
            tablet.wait_for_selector(".casino")
        second.wait_for_function("document.getElementById('live-dot').className === 'live-dot off'")
        assert "Ana's turn" in second.inner_text("#turn-label")
        call(port, "POST", f"/api/games/{game['id']}/rolls/virtual", {}, token=game["token"])
        second.wait_for_selector("text=Choose a value", timeout=10_000)
        first.close()
        second.wait_for_function(
            "document.getElementById('live-dot').className === 'live-dot on'", timeout=15_000
        )
        second.close()
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def test_blank_rows_of_the_new_game_form_are_no_players(page, server):
    """Two names typed in a form of three rows: the game has those two players, not a third
    named after the blank row's colour."""
    port = int(server.rsplit(":", 1)[1])
    page.goto(server + "/")
    page.fill('input[name="name-0"]', "Ana")
    page.fill('input[name="name-1"]', "Bo")
    assert page.locator(".player-row").count() == 3
    page.click('button[type="submit"]')
    page.wait_for_selector(".casino")
    game_id = page.url.rsplit("/", 1)[1].split("#")[0]
    players = call(port, "GET", f"/api/games/{game_id}")["players"]
    assert [(p["name"], p["colour"]) for p in players] == [("Ana", "red"), ("Bo", "green")]


# A recorded table for the setup page: red dice at x = 140 and 290 (y = 150) of a 960×540 picture
SETUP_AREAS = {
    "table": [8, 8, 944, 524],
    "tray": [60, 60, 320, 200],
    **{str(n): [16 + 155 * (n - 1), 300, 140, 200] for n in range(1, 7)},
}


def recorded_table(folder: Path, seconds: float = 2.0, players: bool = False) -> Path:
    """A folder of frames of a table with two red dice lying still; with ``players``, a game's
    recording, which plays only once its game's page is opened."""
    import json

    import cv2

    from tests.pictures import rendered

    (folder / "frames").mkdir(parents=True)
    picture = rendered([("red", 4), ("red", 6)])
    for i in range(int(seconds * 15)):
        cv2.imwrite(str(folder / "frames" / f"{i:03d}.png"), picture)
    about = {"fps": 15, "rolls": []}
    if players:
        about.update(players=[{"name": "Ana", "colour": "red"}, {"name": "Bo", "colour": "green"}], seed=7)
    (folder / "recording.json").write_text(json.dumps(about))
    return folder


def setup_link(log: Path) -> str:
    lines = log.read_text().splitlines()
    return next(line.split(": ", 1)[1] for line in lines if line.startswith("Set up the table"))


def draw(page, name: str, rect: list[int]) -> None:
    """Pick the area ``name`` and drag across the picture from its top left to its bottom right."""
    page.click(f'button[data-area="{name}"]')
    picture = page.locator("#setup-frame").bounding_box()
    scale = picture["width"] / 960
    x, y, w, h = rect
    page.mouse.move(picture["x"] + x * scale, picture["y"] + y * scale)
    page.mouse.down()
    page.mouse.move(picture["x"] + (x + w) * scale, picture["y"] + (y + h) * scale, steps=5)
    page.mouse.up()


def labels_apart_and_whole(page) -> bool:
    """Whether every area's label lies inside the picture and over no other label."""
    return page.evaluate(
        """() => {
          const view = document.querySelector('#setup-frame').getBoundingClientRect();
          const texts = [...document.querySelectorAll('#setup-areas text')];
          const boxes = texts.map((t) => t.getBoundingClientRect());
          const inside = boxes.every((b) => b.left >= view.left - 1 && b.right <= view.right + 1
            && b.top >= view.top - 1 && b.bottom <= view.bottom + 1);
          const apart = boxes.every((a, i) => boxes.every((b, j) => i === j || a.right <= b.left
            || b.right <= a.left || a.bottom <= b.top || b.bottom <= a.top));
          return boxes.length > 0 && inside && apart;
        }"""
    )


def test_setup_on_a_tablet_draws_every_area_learns_a_colour_and_keeps_both_after_a_restart(browser, tmp_path):
    """At 1024×768 the picture and the area buttons are side by side: the table, the tray and six
    casinos are drawn with no scrolling, their labels apart and whole. A colour is learned from
    the picture on screen, its dice ringed. The server started again reads both from the file."""
    table = recorded_table(tmp_path / "table")
    calibration = tmp_path / "table.json"
    args = ("--source", str(table), "--calibration", str(calibration))
    context = browser.new_context(viewport={"width": 1024, "height": 768}, locale="en-US")
    page = context.new_page()
    port = free_port()
    proc = start_server(tmp_path, port, *args)
    try:
        page.goto(setup_link(tmp_path / f"server-{port}.log"))
        page.wait_for_function("document.querySelector('#setup-frame').naturalWidth > 0", timeout=20000)
        for name, rect in SETUP_AREAS.items():
            draw(page, name, rect)
            assert page.evaluate("window.scrollY") == 0, f"scrolled to draw {name}"
            for part in ("#setup-frame", f'button[data-area="{name}"]', "#setup-save"):
                box = page.locator(part).bounding_box()
                assert box["y"] >= 0 and box["y"] + box["height"] <= 768, f"{part} out of view"
        assert labels_apart_and_whole(page)
        page.click("#setup-save")
        page.wait_for_function("document.querySelector('#toast').textContent.startsWith('Saved in')")
        saved = Calibration.load(calibration)
        assert set(saved.zones) == set(SETUP_AREAS) - {"table"}
        assert all(abs(a - b) <= 6 for a, b in zip(saved.zones["tray"], SETUP_AREAS["tray"], strict=True))
        page.select_option("#setup-colour", "red")
        page.click("#setup-learn")
        page.wait_for_function("document.querySelector('#toast').textContent.startsWith('red: learned')")
        assert page.inner_text("#toast") == "red: learned from 2 dice"
        assert page.locator("#setup-areas circle.learned-ring").count() == 2
        page.wait_for_function(
            "document.querySelector('#setup-camera').textContent.startsWith('The recording has ended')"
        )
        shot(page, "11-table-setup-1024")
    finally:
        proc.terminate()
        proc.wait(timeout=10)
    port = free_port()
    proc = start_server(tmp_path, port, *args)
    try:
        page.goto(setup_link(tmp_path / f"server-{port}.log"))
        page.wait_for_function("document.querySelector('#setup-frame').naturalWidth > 0", timeout=20000)
        buttons = page.inner_text("#setup-area-buttons")
        assert buttons.count("✓") == len(SETUP_AREAS), buttons
        assert page.inner_text("#setup-status").endswith("colours learned: red")
        assert set(Calibration.load(calibration).colours) == {"red"}
    finally:
        proc.terminate()
        proc.wait(timeout=10)
        context.close()


def test_the_setup_page_opened_before_the_first_picture_shows_it_when_it_comes(browser, tmp_path):
    """The demo's setup link opened first: its recording plays only once the game's page opens.
    The setup page waits, then shows the picture without a reload, and the tray can be drawn;
    on a phone the picture stays in view, naming the area picked, while the page scrolls."""
    table = recorded_table(tmp_path / "table", seconds=30, players=True)
    port = free_port()
    proc = start_server(tmp_path, port, "--source", str(table), "--calibration", str(tmp_path / "t.json"))
    context = browser.new_context(viewport={"width": 390, "height": 800}, locale="en-US")
    try:
        log = (tmp_path / f"server-{port}.log").read_text()
        game = next(line.split("open ")[1] for line in log.splitlines() if line.startswith("Sample game"))
        page = context.new_page()
        page.goto(setup_link(tmp_path / f"server-{port}.log"))
        page.wait_for_selector("#setup-camera:not([hidden])")
        assert page.inner_text("#setup-camera") == "Waiting for the camera's first picture…"
        shot(page, "11-table-setup-waiting")
        context.new_page().goto(game)  # the recording starts playing
        page.wait_for_function("document.querySelector('#setup-frame').naturalWidth > 0", timeout=20000)
        assert page.locator("#setup-camera").is_hidden()
        page.locator('button[data-area="5"]').scroll_into_view_if_needed()
        page.click('button[data-area="5"]')
        view = page.locator("#setup-view").bounding_box()
        assert view["y"] >= 0 and view["y"] + view["height"] <= 800, "the picture stays in view"
        assert page.inner_text("#setup-drawing").startswith("Drawing: Casino 5")
        draw(page, "tray", SETUP_AREAS["tray"])
        page.click("#setup-save")
        page.wait_for_function("document.querySelector('#toast').textContent.startsWith('Saved in')")
        assert "tray" in Calibration.load(tmp_path / "t.json").zones
        for width in (360, 390, 768):
            page.set_viewport_size({"width": width, "height": 800})
            page.evaluate("window.scrollTo(0, 0)")
            page.wait_for_timeout(200)
            assert labels_apart_and_whole(page)
            shot(page, f"11-table-setup-{width}")
    finally:
        context.close()
        proc.terminate()
        proc.wait(timeout=10)


def test_an_area_that_cannot_be_right_is_refused_on_the_page_with_the_reason(browser, tmp_path):
    table = recorded_table(tmp_path / "table")
    port = free_port()
    proc = start_server(tmp_path, port, "--source", str(table), "--calibration", str(tmp_path / "t.json"))
    context = browser.new_context(viewport={"width": 1024, "height": 768}, locale="en-US")
    try:
        page = context.new_page()
        page.goto(setup_link(tmp_path / f"server-{port}.log"))
        page.wait_for_function("document.querySelector('#setup-frame').naturalWidth > 0", timeout=20000)
        draw(page, "tray", SETUP_AREAS["tray"])
        draw(page, "1", [100, 100, 200, 200])  # over the tray
        page.click("#setup-save")
        page.wait_for_selector("#setup-problem:not([hidden])")
        assert page.inner_text("#setup-problem") == (
            "Casino 1 lies over Tray: a die there would count in both; draw them apart."
        )
        assert not (tmp_path / "t.json").exists()
        page.select_option("#language", "es")
        page.click("#setup-save")
        page.wait_for_function(
            "document.querySelector('#setup-problem').textContent.startsWith('Casino 1 está')"
        )
    finally:
        context.close()
        proc.terminate()
        proc.wait(timeout=10)
