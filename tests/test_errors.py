"""Every refusal of the API carries a stable code and the values its message needs, so a page
can say it in the player's language and name the player rather than a colour."""

import pytest

from tests.conftest import players


def test_a_second_roll_is_refused_naming_the_player(game):
    assert game.post("/rolls/virtual").status_code == 200
    refused = game.post("/rolls/virtual")
    assert refused.status_code == 409
    answer = refused.get_json()
    assert answer["code"] == "rolled_already"
    assert answer["values"] == {"colour": "red", "player": "Red"}
    assert answer["error"] == "red has rolled already; choose a value to place"


def test_a_value_not_rolled_names_the_values_that_were(game):
    state = game.post("/rolls", {"dice": [{"colour": "red", "pips": p} for p in (1, 1, 2, 2, 3, 3, 4, 4)]})
    assert state.status_code == 200
    answer = game.post("/placements", {"value": 6}).get_json()
    assert answer["code"] == "not_rolled"
    assert answer["values"] == {"value": "6", "values": "1, 2, 3, 4"}


def test_a_turn_out_of_order_names_whose_turn_it_is(client):
    created = client.post(
        "/api/games", json={"players": [{"name": "Ana", "colour": "red"}, {"name": "Bo", "colour": "blue"}]}
    ).get_json()
    roll = {"dice": [{"colour": "blue", "pips": 3}] * 8}
    answer = client.post(
        f"/api/games/{created['id']}/rolls",
        json=roll,
        headers={"Authorization": f"Bearer {created['token']}"},
    ).get_json()
    assert answer["code"] == "foreign_die"
    assert answer["values"] == {"colour": "red", "player": "Ana"}


@pytest.mark.parametrize(
    ("setup", "code", "values"),
    [
        ({"players": players("red", "red")}, "colour_taken", {"colour": "red"}),
        ({"players": players("red")}, "player_count", {"min": 2, "max": 5, "count": 1}),
        ({"players": players("red", "blue"), "slot": True}, "slot_biggy_only", {}),
        ({"players": players("red", "blue"), "colour": "red"}, "bad_request", {}),
    ],
)
def test_a_setup_the_rules_refuse_says_why_by_code(client, setup, code, values):
    refused = client.post("/api/games", json=setup)
    assert refused.status_code == 400
    assert refused.get_json()["code"] == code
    assert refused.get_json()["values"] == values


def test_routes_and_ids_that_are_not_there_have_codes_too(client, game):
    assert client.get("/api/games/nope").get_json()["code"] == "game_not_found"
    assert client.get("/api/gamez").get_json()["code"] == "no_route"
    assert client.put("/api/games").get_json()["code"] == "method_not_allowed"
    unauthorized = game.post("/undo", token=None).get_json()
    assert unauthorized["code"] == "unauthorized" and unauthorized["values"] == {}
    assert game.post("/undo").get_json()["code"] == "nothing_to_undo"
