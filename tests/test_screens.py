"""Every page and dialog on a phone, a tablet upright and a tablet on its side, in each language:
nothing runs off the side of the screen, the join QR code shows, no page says "null" or
"undefined", the round's summary has its Continue button on screen, and on the tablet on its
side the turn, the roll and the values to choose are on screen without scrolling."""

import re

import pytest

from tests.server import call, free_port, start_server
from tests.test_browser import CHROMIUM, browser, shot  # noqa: F401 (the browser fixture)

pytestmark = [pytest.mark.browser, pytest.mark.slow]

SIZES = [(360, 740), (390, 844), (768, 1024), (1024, 768)]
LANGUAGES = ["en", "es", "fr"]
PLAYERS = [
    {"name": "Alexandrine", "colour": "red"},
    {"name": "Bob", "colour": "blue"},
    {"name": "Carla", "colour": "green"},
]

#: how a page would show a value its script did not have
NOT_WORDS = re.compile(r"\bnull\b|\bundefined\b|\bNaN\b|\[object Object\]")
#: the singular or plural of no banknote, in each language
NO_NOTES = {"en": "0 notes", "es": "0 billetes", "fr": "0 billet"}

OVERFLOW = """() => {
  const wide = (node) => node && node.scrollWidth > node.clientWidth + 1;
  const dialogs = [...document.querySelectorAll('dialog[open], dialog[open] > div')];
  return { page: document.documentElement.scrollWidth, screen: innerWidth,
           dialogs: dialogs.filter(wide).map((d) => d.id) };
}"""


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    data = tmp_path_factory.mktemp("screens")
    port = free_port()
    proc = start_server(data, port)
    yield port
    proc.terminate()
    proc.wait(timeout=10)


def roll_all(port, game, colour: str, pips: int) -> dict:
    """The current player rolls every die they hold as ``pips`` and places them."""
    state = call(port, "GET", f"/api/games/{game['id']}")
    count = state["hands"][colour]["count"]
    call(
        port,
        "POST",
        f"/api/games/{game['id']}/rolls",
        {"dice": [{"colour": colour, "pips": pips}] * count},
        game["token"],
    )
    return call(port, "POST", f"/api/games/{game['id']}/placements", {"value": pips}, game["token"])


def assert_fits(page, where: str) -> None:
    sizes = page.evaluate(OVERFLOW)
    assert sizes["page"] <= sizes["screen"], (
        f"{where}: the page is {sizes['page']} px wide on {sizes['screen']}"
    )
    assert sizes["dialogs"] == [], f"{where}: a dialog is wider than it shows: {sizes['dialogs']}"
    said = NOT_WORDS.search(page.inner_text("body"))
    assert said is None, f"{where}: the page says {said.group()!r}"


def assert_on_screen(page, selector: str, height: int, where: str) -> None:
    box = page.locator(selector).bounding_box()
    assert box and box["y"] >= 0 and box["y"] + box["height"] <= height, f"{selector} off screen, {where}"


@pytest.mark.parametrize(("width", "height"), SIZES)
def test_every_page_and_dialog_fits_the_screen(browser, served, width, height):  # noqa: F811
    port, base = served, f"http://127.0.0.1:{served}"
    for language in LANGUAGES:
        game = call(port, "POST", "/api/games", {"players": PLAYERS, "seed": 1})
        context = browser.new_context(viewport={"width": width, "height": height})
        context.add_init_script(
            f"localStorage.setItem('vegas-language', '{language}');"
            f"localStorage.setItem('vegas-token-{game['id']}', '{game['token']}');"
        )
        page = context.new_page()
        where = f"{language} {width}×{height}"
        for path in ("/", "/history", "/setup"):
            page.goto(base + path)
            page.wait_for_load_state("networkidle")
            assert_fits(page, f"{path} {where}")

        page.goto(f"{base}/games/{game['id']}")
        page.wait_for_selector(".casino")
        assert page.locator(".player-money small").all_inner_texts() == [NO_NOTES[language]] * 3
        roll_all(port, game, "red", 1)
        roll_all(port, game, "blue", 2)
        page.wait_for_selector(".casino[data-casino='2'] .dice-group")
        assert_fits(page, f"table {where}")

        page.click("#share")
        page.wait_for_selector("#share-dialog img.qr")
        page.wait_for_function("document.querySelector('#share-dialog img.qr').complete")
        assert page.eval_on_selector("#share-dialog img.qr", "img => img.naturalWidth") > 0, (
            "the QR code shows"
        )
        assert_fits(page, f"join link {where}")
        page.click("#share-dialog button")

        green = [{"colour": "green", "pips": pips} for pips in (3, 3, 3, 5, 6, 6, 1, 4)]
        call(port, "POST", f"/api/games/{game['id']}/rolls", {"dice": green}, game["token"])
        page.wait_for_selector("button.value")
        assert_fits(page, f"the values to choose, hints off, {where}")
        call(port, "POST", f"/api/games/{game['id']}/hints", {"on": True}, game["token"])
        page.wait_for_selector(".worth[data-worth]")
        if width > height:  # on its side: the turn, the roll and its values without scrolling
            for selector in ("#turn-label", "#action h2", "button.value", ".worth"):
                for box in [item.bounding_box() for item in page.locator(selector).all()]:
                    assert box and box["y"] + box["height"] <= height, f"{selector} below the fold, {where}"
        assert_fits(page, f"the values to choose {where}")
        shot(page, f"screens-{language}-{width}x{height}-choose")

        call(port, "POST", f"/api/games/{game['id']}/placements", {"value": 3}, game["token"])
        roll_all(port, game, "green", 6)
        page.wait_for_selector("#round-end[open]")
        assert_fits(page, f"round end {where}")
        assert page.eval_on_selector("#round-end-body", "d => d.scrollTop") == 0, (
            "the round's summary opens at its top"
        )
        assert_on_screen(page, "#round-end form button", height, f"round end {where}")
        page.wait_for_selector("#round-review .chances", timeout=30_000)
        assert_fits(page, f"round end with its review {where}")
        assert_on_screen(page, "#round-end form button", height, f"round end with its review {where}")
        shot(page, f"screens-{language}-{width}x{height}-round-end")

        page.goto(f"{base}/games/{game['id']}/review")
        page.wait_for_selector(".game-review .chances", timeout=30_000)
        assert_fits(page, f"review {where}")
        shot(page, f"screens-{language}-{width}x{height}-review")
        context.close()
