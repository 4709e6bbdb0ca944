"""What the table page says, in each language: refusals translated and naming the player, a
double tap that does not turn into a refusal, players left unnamed named in the page's language,
and the game-over screen."""

import re

import pytest

from tests.server import call
from tests.test_browser import browser, page, play_to_the_end, server, shot  # noqa: F401 (fixtures)

pytestmark = pytest.mark.browser

#: what a page must never show a player: a value the script did not have
NOT_WORDS = re.compile(r"\bnull\b|\bundefined\b|\bNaN\b|\[object Object\]")


def open_as(page, base: str, game: dict, language: str) -> None:  # noqa: F811
    page.add_init_script(
        f"localStorage.setItem('vegas-language', '{language}');"
        f"localStorage.setItem('vegas-token-{game['id']}', '{game['token']}');"
    )
    page.goto(f"{base}/games/{game['id']}")
    page.wait_for_selector(".casino")


def test_refusals_arrive_translated_and_name_the_player(page, server):  # noqa: F811
    port = int(server.rsplit(":", 1)[1])
    players = [{"name": "Ana", "colour": "red"}, {"name": "Bo", "colour": "blue"}]
    game = call(port, "POST", "/api/games", {"players": players, "seed": 4})
    open_as(page, server, game, "es")

    # a slow network: the first tap on "Roll virtual dice" is still on its way at the second
    def slowly(route):
        page.wait_for_timeout(600)
        route.continue_()

    page.route("**/rolls/virtual", slowly)
    page.click("#virtual-roll")
    page.click("#virtual-roll", timeout=2000)
    page.wait_for_selector("button.value")
    page.wait_for_timeout(700)
    assert "error" not in (page.get_attribute("#toast", "class") or ""), page.inner_text("#toast")
    assert call(port, "GET", f"/api/games/{game['id']}")["events"] == 2  # the start and one roll

    page.evaluate("command('rolls/virtual')")  # a roll the rules refuse: Ana has rolled already
    page.wait_for_selector("#toast.show.error")
    assert page.inner_text("#toast") == "Ana ya ha tirado: elige un valor para colocar."

    state = call(port, "GET", f"/api/games/{game['id']}")
    missing = next(v for v in range(1, 7) if v not in {g["value"] for g in state["last_roll"]["by_value"]})
    page.evaluate(f"command('placements', {{value: {missing}}})")
    page.wait_for_function(f"document.getElementById('toast').textContent.includes('ningún {missing}')")
    assert page.inner_text("#toast").startswith(f"No ha salido ningún {missing}: elige entre ")
    assert not NOT_WORDS.search(page.inner_text("body"))


@pytest.mark.parametrize(("language", "names"), [("es", ["Rojo", "Verde"]), ("fr", ["Rouge", "Vert"])])
def test_players_left_unnamed_are_named_in_the_page_s_language(page, server, language, names):  # noqa: F811
    page.add_init_script(f"localStorage.setItem('vegas-language', '{language}');")
    page.goto(server + "/")
    page.click("#remove-player")
    page.click('button[type="submit"]')
    page.wait_for_selector(".player-name")
    assert [name.strip(" ★") for name in page.locator(".player-name").all_inner_texts()] == names


@pytest.mark.parametrize(("language", "none"), [("en", "0 notes"), ("es", "0 billetes"), ("fr", "0 billet")])
def test_the_game_over_screen_shows_the_winner_and_standings_where_the_casinos_were(
    page,  # noqa: F811
    server,  # noqa: F811
    language,
    none,
):
    port = int(server.rsplit(":", 1)[1])
    players = [{"name": "Ana", "colour": "red"}, {"name": "Bo", "colour": "blue"}]
    game = call(port, "POST", "/api/games", {"players": players, "seed": 2})
    open_as(page, server, game, language)
    assert page.locator(".player-money small").all_inner_texts() == [none, none]  # no note yet
    assert page.get_attribute(".start-star", "title")  # the star says what it marks

    final = play_to_the_end(port, game["id"], game["token"])
    page.wait_for_selector("#casinos.final")
    assert page.locator("#casinos .casino").count() == 0
    winner = page.inner_text("#casinos .winner")
    assert all(
        next(p["name"] for p in players if p["colour"] == colour) in winner for colour in final["winners"]
    )
    places = page.locator("#casinos .standings li").all_inner_texts()
    assert [re.split(r" — ", line)[0].strip() for line in places] == [
        next(p["name"] for p in players if p["colour"] == s["colour"]) for s in final["standings"]
    ]
    assert page.locator("#action").is_hidden()
    page.keyboard.press("Escape")  # the last round's summary
    assert not NOT_WORDS.search(page.inner_text("body"))
    shot(page, f"game-over-{language}")
