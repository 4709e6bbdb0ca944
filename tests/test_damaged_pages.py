"""A game whose stored events no longer replay, in the browser: the list and the history mark
it and still show the other games; its page says why and offers its events as stored."""

import pytest

from tests.server import call, free_port, start_server
from tests.test_browser import browser, shot  # noqa: F401 (the browser fixture)
from tests.test_store_faults import damage

pytestmark = [pytest.mark.browser]


@pytest.fixture
def served_with_a_damaged_game(tmp_path):
    """A server whose folder holds two games, the second damaged at its event 2 while it ran."""
    port = free_port()
    proc = start_server(tmp_path, port)
    games = []
    for seed, names in ((1, ("Ana", "Bo")), (2, ("Cy", "Dee"))):
        body = {"players": [{"name": names[0], "colour": "red"}, {"name": names[1], "colour": "blue"}]}
        game = call(port, "POST", "/api/games", body | {"seed": seed})
        state = call(port, "POST", f"/api/games/{game['id']}/rolls/virtual", {}, game["token"])
        value = state["placements"][0]["value"]
        call(port, "POST", f"/api/games/{game['id']}/placements", {"value": value}, game["token"])
        games.append(game)
    damage(tmp_path / "games.sqlite3", games[1]["id"], 2, "cut")
    yield port, games
    proc.terminate()
    proc.wait(timeout=10)


@pytest.mark.parametrize("width", [360, 768, 1024])
def test_the_pages_set_a_damaged_game_apart(browser, served_with_a_damaged_game, width):  # noqa: F811
    port, (whole, damaged) = served_with_a_damaged_game
    base = f"http://127.0.0.1:{port}"
    page = browser.new_page(viewport={"width": width, "height": 800})
    try:
        page.goto(base + "/")
        page.wait_for_selector(".damaged-mark")
        links = page.locator(".game-link")
        assert links.count() == 2
        assert "(event 2)" in page.locator(".damaged-mark").inner_text()
        shot(page, f"damaged-list-{width}")

        page.goto(base + "/history")
        page.wait_for_selector("article.history-game.damaged")
        assert page.locator("article.history-game").count() == 2
        assert "Ana · Bo" in page.locator("article.history-game:not(.damaged)").inner_text()
        shot(page, f"damaged-history-{width}")

        page.goto(base + f"/games/{damaged['id']}")
        assert page.locator("h1").inner_text() == "This game cannot be read"
        assert "is not whole JSON" in page.locator("#damaged-where").inner_text()
        export = page.locator("#damaged-export").get_attribute("href")
        assert export == f"/api/games/{damaged['id']}/export.json"
        assert page.evaluate("document.documentElement.scrollWidth <= innerWidth")
        page.select_option("#language", "es")
        assert page.locator("h1").inner_text() == "No se puede leer esta partida"
        shot(page, f"damaged-game-{width}")
        page.select_option("#language", "en")

        page.goto(base + f"/games/{whole['id']}")  # the other game plays on
        page.wait_for_selector("#round-label:not(:empty)")
    finally:
        page.close()
