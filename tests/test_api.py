"""The HTTP API through Flask's test client: contracts, auth, bad input, undo, corrections."""

import pytest

from tests.conftest import GameClient, players


def red_roll(*pips: int) -> dict:
    return {"dice": [{"colour": "red", "pips": p} for p in pips]}


def test_create_returns_id_and_token_and_state_has_everything(client, game):
    state = game.state()
    assert state["round"] == 1 and state["phase"] == "roll"
    assert state["current_player"] == "red" and state["start_player"] == "red"
    assert [c["casino"] for c in state["casinos"]] == ["1", "2", "3", "4", "5", "6"]
    assert all(sum(c["banknotes"]) >= 50_000 for c in state["casinos"])
    assert state["hands"]["red"] == {"own": 8, "big": 0, "neutral": 0, "count": 8}
    assert state["deck"]["count"] + sum(len(c["banknotes"]) for c in state["casinos"]) == 54
    assert state["standings"][0].keys() == {"colour", "money", "banknotes"}
    assert state["rounds"] == [] and state["last_roll"] is None


def test_manual_roll_then_placement(game):
    response = game.post("/rolls", red_roll(4, 4, 1, 2, 3, 5, 6, 6))
    assert response.status_code == 200
    state = response.get_json()
    assert state["phase"] == "place"
    assert [g["value"] for g in state["last_roll"]["by_value"]] == [1, 2, 3, 4, 5, 6]
    state = game.post("/placements", {"value": 4}).get_json()
    four = next(c for c in state["casinos"] if c["casino"] == "4")
    assert four["dice"] == [{"colour": "red", "count": 2, "pips": [4, 4], "big": 0}]
    assert state["current_player"] == "blue"
    assert state["hands"]["red"]["own"] == 6


def test_virtual_roll_is_recorded_for_the_current_player(game):
    state = game.post("/rolls/virtual").get_json()
    assert state["phase"] == "place"
    assert len(state["last_roll"]["dice"]) == 8
    assert {d["colour"] for d in state["last_roll"]["dice"]} == {"red"}


def test_state_changes_need_the_token(game):
    before = game.state()
    for path, body in (
        ("/rolls", red_roll(1, 2, 3, 4, 5, 6, 1, 1)),
        ("/rolls/virtual", None),
        ("/placements", {"value": 1}),
        ("/undo", None),
    ):
        assert game.post(path, body, token=None).status_code == 401
        wrong = game.post(path, body, token="not-the-token")
        assert wrong.status_code == 401
        assert "token" in wrong.get_json()["error"]
    assert game.state() == before


@pytest.mark.parametrize(
    "body, status, message",
    [
        ("{not json", 400, "not valid JSON"),
        ({"dice": "lots"}, 400, "send the roll as"),
        ({"dice": [{"colour": "purple", "pips": 3}] * 8}, 409, "'purple' is not a colour"),
        ({"dice": [{"colour": "red", "pips": 3}] * 9}, 409, "the roll has 9 dice"),
        ({"dice": [{"colour": "red", "pips": 3}] * 50}, 400, "at most 40 dice"),
        ({"dice": [{"colour": "red", "pips": 9}] * 8}, 400, "pips must be a whole number from 1 to 6, got 9"),
        ({"dice": [{"colour": "blue", "pips": 3}] * 8}, 409, "blue dice belong to another player"),
        ({"dice": [{"colour": "red", "pip": 3}] * 8}, 400, "die 1 has no field 'pip' — did you mean 'pips'?"),
        ({**red_roll(1, 2, 3, 4, 5, 6, 1, 2), "dices": []}, 400, "a roll has no field 'dices'"),
    ],
)
def test_bad_rolls_are_refused_and_change_nothing(game, body, status, message):
    before = game.state()
    if isinstance(body, str):
        response = game.client.post(
            f"/api/games/{game.id}/rolls",
            data=body,
            headers={"Authorization": f"Bearer {game.token}", "Content-Type": "application/json"},
        )
    else:
        response = game.post("/rolls", body)
    assert response.status_code == status
    assert message in response.get_json()["error"]
    assert game.state() == before


@pytest.mark.parametrize(
    "body, status, message",
    [
        ({"value": 6}, 409, "6 was not rolled"),
        ({"value": "four"}, 400, "'value' must be a whole number"),
        ({"value": 1, "casino": "slot"}, 409, "no slot casino"),
        ({"value": 1, "casino": "3"}, 409, "dice showing 1 go on casino 1"),
        ([], 400, "send the placement as"),
        ({"valeu": 4}, 400, "a placement has no field 'valeu' — did you mean 'value'?"),
    ],
)
def test_bad_placements_are_refused_and_change_nothing(game, body, status, message):
    game.post("/rolls", red_roll(1, 1, 2, 2, 3, 3, 4, 4))
    before = game.state()
    response = game.post("/placements", body)
    assert response.status_code == status
    assert message in response.get_json()["error"]
    assert game.state() == before


def test_unknown_game_and_unknown_route(client):
    response = client.get("/api/games/nope")
    assert response.status_code == 404 and "no game with id 'nope'" in response.get_json()["error"]
    assert client.post("/api/games/nope/undo", headers={"Authorization": "Bearer x"}).status_code == 404
    assert client.get("/api/nothing-here").status_code == 404


def test_a_mistyped_route_gets_a_json_error_naming_the_route_meant(client, game):
    """A typo in an API path, or the wrong method, is answered in JSON like every other API
    error, with the route meant; pages outside the API keep their HTML error page."""
    typo = client.get("/api/gams")
    assert (
        typo.status_code == 404
        and typo.get_json()["error"] == "no route GET /api/gams — did you mean /api/games?"
    )
    roll = client.post(f"/api/games/{game.id}/rols", json=red_roll(1, 2, 3, 4, 5, 6, 1, 2))
    assert roll.status_code == 404 and f"did you mean /api/games/{game.id}/rolls?" in roll.get_json()["error"]
    far = client.get("/api/nothing/like/any/route").get_json()["error"]
    assert far == "no route GET /api/nothing/like/any/route; the routes are in the README's HTTP API"
    wrong_method = client.delete(f"/api/games/{game.id}")
    assert wrong_method.status_code == 405
    assert wrong_method.get_json()["error"] == f"DELETE /api/games/{game.id}: this route takes GET"
    page = client.get("/nothing-here")
    assert page.status_code == 404 and page.mimetype == "text/html"


@pytest.mark.parametrize(
    "body, message",
    [
        ({"players": players("red")}, "2 to 5 players"),
        ({"players": players("red", "red")}, "'red' is taken twice"),
        ({"players": players("red", "blue"), "edition": "turbo"}, "unknown edition 'turbo'"),
        ({"players": players("red", "blue"), "slot": True}, "slot casino belongs to the biggy"),
        ({"players": players("red", "white"), "neutral": True}, "neutral dice are white"),
        ({"players": "three"}, "'players' must be a list"),
        ({"players": players("red", "blue"), "seed": "abc"}, "'seed' must be a whole number"),
        ({"players": players("red", "blue"), "neutral": "yes"}, "'neutral' must be true or false"),
        (
            {"players": players("red", "blue"), "editon": "biggy"},
            "a new game has no field 'editon' — did you mean 'edition'?",
        ),
        (
            {"players": [{"name": "Ana", "colour": "rde"}, *players("blue")]},
            "player 1 has no colour 'rde' — did you mean 'red'?",
        ),
        (
            {"players": [*players("blue"), {"name": "Ana", "colour": "gren"}]},
            "player 2 has no colour 'gren' — did you mean 'green' or 'grey'?",
        ),
        (
            {"players": [{"nmae": "Ana", "colour": "red"}, *players("blue")]},
            "player 1 has no field 'nmae' — did you mean 'name'?",
        ),
    ],
)
def test_bad_new_games_are_refused(client, body, message):
    response = client.post("/api/games", json=body)
    assert response.status_code == 400
    assert message in response.get_json()["error"]
    assert client.get("/api/games").get_json()["games"] == []


def test_a_player_colour_of_ones_own_is_kept_and_the_rule_texts_names_too(client):
    """Only a name one slip from a known colour is taken for a typo: pink, lilac or rose dice are
    the players' own, and "rouge" or "gray" are the reader's red and grey."""
    body = {"players": [{"name": "Ana", "colour": c} for c in ("pink", "lilac", "rose", "rouge", "Gray")]}
    response = client.post("/api/games", json=body)
    assert response.status_code == 201
    state = client.get(f"/api/games/{response.get_json()['id']}").get_json()
    assert [p["colour"] for p in state["players"]] == ["pink", "lilac", "rose", "rouge", "gray"]


def test_undo_takes_back_the_last_event_only(game):
    start = game.state()
    game.post("/rolls", red_roll(1, 1, 2, 2, 3, 3, 4, 4))
    after_roll = game.state()
    game.post("/placements", {"value": 2})
    assert game.post("/undo").get_json()["phase"] == "place"
    assert {k: v for k, v in game.state().items() if k != "last_change"} == {
        k: v for k, v in after_roll.items() if k != "last_change"
    }
    game.post("/undo")
    assert game.state()["events"] == start["events"]
    response = game.post("/undo")
    assert response.status_code == 409 and "nothing to undo" in response.get_json()["error"]


def test_correcting_an_earlier_roll_replays_from_there(game):
    game.post("/rolls", red_roll(1, 1, 2, 2, 3, 3, 4, 4))  # event 1
    game.post("/placements", {"value": 2})  # event 2
    game.post("/rolls/virtual")  # event 3 (blue)
    corrected = game.post("/corrections", {"event": 1, **red_roll(2, 2, 2, 2, 3, 3, 4, 4)})
    assert corrected.status_code == 200
    body = corrected.get_json()
    assert body["dropped"] == 0
    two = next(c for c in body["state"]["casinos"] if c["casino"] == "2")
    assert two["dice"][0]["count"] == 4
    # A correction that makes the later placement impossible drops it and what followed.
    body = game.post("/corrections", {"event": 1, **red_roll(1, 1, 1, 1, 3, 3, 4, 4)}).get_json()
    assert body["dropped"] == 2
    assert body["state"]["phase"] == "place" and body["state"]["current_player"] == "red"
    refused = game.post("/corrections", {"event": 2, **red_roll(1, 1, 1, 1, 3, 3, 4, 4)})
    assert refused.status_code == 400
    before = game.state()
    typo = game.post("/corrections", {"evnet": 1, **red_roll(2, 2, 2, 2, 3, 3, 4, 4)})
    assert (
        typo.status_code == 400
        and "a correction has no field 'evnet' — did you mean 'event'?" in typo.get_json()["error"]
    )
    assert game.state() == before


def test_a_whole_round_shows_ties_payouts_and_what_goes_under_the_deck(client):
    created = client.post("/api/games", json={"players": players("red", "blue"), "seed": 3}).get_json()
    game = GameClient(client, created)
    moves = [
        ("red", [5, 5, 5, 1, 1, 1, 1, 1], 5),
        ("blue", [5, 5, 5, 2, 2, 2, 2, 2], 5),
        ("red", [1, 1, 1, 1, 1], 1),
        ("blue", [2, 2, 2, 2, 2], 2),
    ]
    for colour, pips, value in moves:
        game.post("/rolls", {"dice": [{"colour": colour, "pips": p} for p in pips]})
        state = game.post("/placements", {"value": value}).get_json()
    assert state["round"] == 2
    (first,) = state["rounds"]
    five = next(c for c in first["casinos"] if c["casino"] == "5")
    assert five["cancelled"] == ["blue", "red"] and five["payouts"] == []
    assert five["tallies"] == [
        {"colour": "blue", "dice": 3, "pips": 15, "highest": 5},
        {"colour": "red", "dice": 3, "pips": 15, "highest": 5},
    ]
    one = next(c for c in first["casinos"] if c["casino"] == "1")
    assert one["payouts"][0]["colour"] == "red"
    assert first["to_deck"] == [n for c in first["casinos"] for n in c["unclaimed"]]
    assert state["last_change"]["round_ended"] is True


def test_exports(game):
    game.post("/rolls/virtual")
    exported = game.client.get(f"/api/games/{game.id}/export.json")
    assert exported.status_code == 200
    data = exported.get_json()
    assert data["config"]["players"][0]["colour"] == "red"
    assert [e["type"] for e in data["events"]] == ["game_started", "rolled"]
    csv_text = game.client.get(f"/api/games/{game.id}/export.csv").get_data(as_text=True)
    lines = csv_text.strip().splitlines()
    assert lines[0] == "section,round,casino,colour,banknote,what"
    assert sum(line.startswith("standing,") for line in lines) == 3


def test_pages_render(client, game):
    assert client.get("/").status_code == 200
    assert client.get("/history").status_code == 200
    page = client.get(f"/games/{game.id}")
    assert page.status_code == 200 and b'data-game="' + game.id.encode() in page.data
    assert client.get("/games/unknown").status_code == 404
    qr = client.get("/qr.svg?data=http://192.0.2.1:5000/games/abc")
    assert qr.status_code == 200 and qr.mimetype == "image/svg+xml"
    assert qr.data.startswith(b'<svg xmlns="http://www.w3.org/2000/svg"')  # without it an <img> is empty
    assert client.get("/qr.svg?data=javascript:alert(1)").status_code == 400


def test_state_lists_this_rounds_rolls_with_their_event_numbers(client):
    created = client.post("/api/games", json={"players": players("red", "blue"), "seed": 3}).get_json()
    game = GameClient(client, created)
    game.post("/rolls", red_roll(1, 1, 2, 2, 3, 3, 4, 4))
    game.post("/placements", {"value": 3})
    state = game.post("/rolls/virtual").get_json()
    assert [(r["event"], r["player"], r["placed"]) for r in state["round_rolls"]] == [
        (1, "red", {"value": 3, "casino": "3"}),
        (3, "blue", None),
    ]
    state = game.post("/placements", {"value": state["placements"][0]["value"]}).get_json()
    while state["round"] == 1:
        state = game.post("/rolls/virtual").get_json()
        state = game.post("/placements", {"value": state["placements"][0]["value"]}).get_json()
    assert state["round_rolls"] == []  # a new round starts with no rolls
