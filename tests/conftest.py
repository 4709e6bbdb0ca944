"""Fixtures: a fresh app on a temporary data folder, its test client, and a game in it."""

import os
import tempfile

import pytest

from companion.web import create_app


def pytest_configure(config: pytest.Config) -> None:
    """Keep every test away from the user's own games: a server the user runs on the default data
    folder (and anything a test forgets to point elsewhere) never sees the tests."""
    os.environ["XDG_DATA_HOME"] = tempfile.mkdtemp(prefix="vegas-tests-")


@pytest.fixture
def app(tmp_path):
    return create_app({"TESTING": True, "DATA_DIR": str(tmp_path / "data"), "REVIEW_ROUNDS": False})


@pytest.fixture
def client(app):
    return app.test_client()


class GameClient:
    """A test client bound to one game and its token."""

    def __init__(self, client, created: dict) -> None:
        self.client = client
        self.id = created["id"]
        self.token = created["token"]

    def post(self, path: str, body=None, token: str | None = "use-mine"):
        headers = {}
        if token == "use-mine":
            token = self.token
        if token:
            headers["Authorization"] = f"Bearer {token}"
        return self.client.post(f"/api/games/{self.id}{path}", json=body, headers=headers)

    def state(self) -> dict:
        response = self.client.get(f"/api/games/{self.id}")
        assert response.status_code == 200
        return response.get_json()


def players(*colours: str) -> list[dict]:
    return [{"name": c.title(), "colour": c} for c in colours]


@pytest.fixture
def game(client):
    created = client.post(
        "/api/games", json={"players": players("red", "blue", "green"), "edition": "classic", "seed": 11}
    )
    assert created.status_code == 201
    return GameClient(client, created.get_json())
