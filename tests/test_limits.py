"""What the server refuses before it stores anything: bodies too large or nested too deep, and
settings past the bounds of a playable game; and a consistent state for every reader."""

import json
import threading

import pytest

from companion.rules import GameConfig
from companion.rules.config import MAX_BANKNOTE, MAX_DECK_NOTES, MAX_NAME_LENGTH, MAX_ROUNDS
from companion.service import GameService
from companion.storage import EventStore
from companion.web.requests import MAX_BODY_BYTES, MAX_NESTING
from tests.conftest import players


def nested(levels: int) -> str:
    return "[" * levels + "]" * levels


def test_a_body_over_the_limit_is_refused_with_a_json_413_and_nothing_stored(client):
    name = "x" * MAX_BODY_BYTES
    body = json.dumps({"players": [{"name": name, "colour": "red"}, {"name": "B", "colour": "blue"}]})
    response = client.post("/api/games", data=body, content_type="application/json")
    assert response.status_code == 413
    assert "64 KB" in response.get_json()["error"]
    assert client.get("/api/games").get_json()["games"] == []


@pytest.mark.parametrize("levels", [MAX_NESTING + 1, 1100, 20_000])
def test_a_body_nested_too_deep_is_refused_with_a_400_on_every_route(client, game, levels):
    before = game.state()
    routes = ["/api/games", *(f"/api/games/{game.id}/{r}" for r in ("rolls", "placements", "corrections"))]
    for route in routes:
        response = client.post(
            route,
            data=nested(levels),
            content_type="application/json",
            headers={"Authorization": f"Bearer {game.token}"},
        )
        assert response.status_code == 400, route
        assert f"deeper than {MAX_NESTING} levels" in response.get_json()["error"]
    assert game.state() == before
    assert len(client.get("/api/games").get_json()["games"]) == 1


def test_a_body_as_deep_as_the_limit_is_read(client):
    """Nesting alone is not refused: a body within the limit gets to the checks of its shape."""
    response = client.post("/api/games", data=nested(MAX_NESTING), content_type="application/json")
    assert response.status_code == 400 and "JSON object" in response.get_json()["error"]


@pytest.mark.parametrize(
    ("change", "limit"),
    [
        ({"players": [{"name": "x" * (MAX_NAME_LENGTH + 1), "colour": "red"}]}, f"at most {MAX_NAME_LENGTH}"),
        ({"deck": [[10_000, 5_000_000]]}, f"at most {MAX_DECK_NOTES} notes"),
        ({"deck": [[10_000, MAX_DECK_NOTES], [20_000, 1]]}, f"at most {MAX_DECK_NOTES} notes"),
        ({"deck": [[MAX_BANKNOTE + 1, 3]]}, f"at most ${MAX_BANKNOTE:,}"),
        ({"rounds": MAX_ROUNDS + 1}, f"from 1 to {MAX_ROUNDS}"),
        ({"seed": 2**63}, "whole number from 0"),
        ({"neutral": True, "neutral_colour": "y" * 25}, "at most 24 characters"),
    ],
)
def test_each_bound_of_a_new_game_is_refused_with_a_400_naming_it(client, change, limit):
    body = {"players": players("red", "blue"), "seed": 3} | change
    if "players" in change:
        body["players"] = change["players"] + players("blue")
    response = client.post("/api/games", json=body)
    assert response.status_code == 400
    assert limit in response.get_json()["error"]
    assert client.get("/api/games").get_json()["games"] == []


def test_a_game_at_every_bound_is_taken(client):
    body = {
        "players": [{"name": "n" * MAX_NAME_LENGTH, "colour": "red"}, {"name": "B", "colour": "blue"}],
        "deck": [[MAX_BANKNOTE, MAX_DECK_NOTES]],
        "rounds": MAX_ROUNDS,
        "seed": 2**63 - 1,
    }
    assert client.post("/api/games", json=body).status_code == 201


def test_every_snapshot_a_reader_gets_is_whole_while_writers_play(tmp_path):
    """Readers take the state while two writers roll and place: in every state, each player's
    dice in hand and on the casinos add up to the dice they started the round with."""
    service = GameService(EventStore(tmp_path))
    live = service.create(GameConfig.from_dict({"players": players("red", "blue")}), seed=5)
    game_id, stop, broken = live.record.id, threading.Event(), []

    def write() -> None:
        while not stop.is_set():
            state = service.get(game_id).state
            if state.is_over:
                return
            try:
                if state.phase.value == "place":
                    move = state.legal_placements()[0]
                    service.place(game_id, move.value, move.casino)
                else:
                    service.roll_virtually(game_id)
            except Exception:  # the other writer moved first: the rules refused this one
                continue

    def read() -> None:
        while not stop.is_set():
            state = service.snapshot(game_id).state
            if state["over"]:
                return
            for colour in ("red", "blue"):
                placed = sum(d["count"] for c in state["casinos"] for d in c["dice"] if d["colour"] == colour)
                if placed + state["hands"][colour]["count"] != 8:
                    broken.append((state["events"], colour, placed))

    threads = [threading.Thread(target=write) for _ in range(2)] + [
        threading.Thread(target=read) for _ in range(3)
    ]
    for thread in threads:
        thread.start()
    threads[0].join(timeout=20)
    threads[1].join(timeout=20)
    stop.set()
    for thread in threads:
        thread.join(timeout=5)
    assert service.get(game_id).state.is_over
    assert broken == []


def test_a_served_body_sent_in_chunks_is_read_whole_and_refused_past_the_limit(tmp_path):
    """Through the real server: a body without a Content-Length (chunked) is read to its end,
    and one past the limit is a JSON 413, as one with a length is."""
    import http.client

    from tests.server import free_port, start_server

    port = free_port()
    proc = start_server(tmp_path, port)
    try:

        def post_chunked(body: bytes) -> tuple[int, dict]:
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=20)
            pieces = (body[i : i + 4096] for i in range(0, len(body), 4096))
            headers = {"Content-Type": "application/json"}
            connection.request("POST", "/api/games", pieces, headers, encode_chunked=True)
            response = connection.getresponse()
            answer = (response.status, json.loads(response.read()))
            connection.close()
            return answer

        status, created = post_chunked(json.dumps({"players": players("red", "blue")}).encode())
        assert status == 201 and "token" in created
        big = json.dumps({"players": [{"name": "x" * 200_000, "colour": "red"}, *players("blue")]})
        status, refused = post_chunked(big.encode())
        assert status == 413 and "64 KB" in refused["error"]
    finally:
        proc.terminate()
        proc.wait(timeout=10)
