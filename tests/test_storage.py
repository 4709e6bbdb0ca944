"""Stored games: replaying the event log gives the same state; a killed server loses nothing."""

import os
import signal
import subprocess
import sys

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.rules import GameConfig
from companion.service import GameService
from companion.service.view import state_json
from companion.storage import EventStore, GameRecord
from tests.server import call, free_port, start_server


def without_change(state: dict) -> dict:
    return {k: v for k, v in state.items() if k != "last_change"}


@settings(max_examples=40, deadline=None)
@given(
    players=st.integers(2, 5),
    edition=st.sampled_from(["classic", "biggy"]),
    seed=st.integers(0, 10_000),
    steps=st.integers(0, 200),
    choices=st.randoms(use_true_random=False),
)
def test_replaying_stored_events_gives_the_same_state(
    tmp_path_factory, players, edition, seed, steps, choices
):
    folder = tmp_path_factory.mktemp("store")
    service = GameService(EventStore(folder))
    colours = ["red", "green", "blue", "black", "white"][:players]
    players = [{"name": c, "colour": c} for c in colours]
    config = GameConfig.from_dict({"players": players, "edition": edition})
    live = service.create(config, seed)
    for _ in range(steps):
        state = live.state
        if state.is_over:
            break
        if state.phase.value == "place":
            move = choices.choice(state.legal_placements())
            live = service.place(live.record.id, move.value, move.casino)
        else:
            live = service.roll_virtually(live.record.id)
        if choices.random() < 0.05:
            live = service.undo(live.record.id)
    fresh = GameService(EventStore(folder)).get(live.record.id)
    assert without_change(state_json(fresh)) == without_change(state_json(live))


def test_kill_9_mid_round_then_restart_gives_the_same_state(tmp_path):
    port = free_port()
    server = start_server(tmp_path, port)
    try:
        created = call(
            port,
            "POST",
            "/api/games",
            {"players": [{"name": "A", "colour": "red"}, {"name": "B", "colour": "blue"}]},
        )
        gid, token = created["id"], created["token"]
        for _ in range(5):
            state = call(port, "POST", f"/api/games/{gid}/rolls/virtual", {}, token)
            value = state["placements"][0]["value"]
            state = call(port, "POST", f"/api/games/{gid}/placements", {"value": value}, token)
        before = call(port, "GET", f"/api/games/{gid}")
        assert before["events"] == 11 and before["round"] == 1
    finally:
        os.kill(server.pid, signal.SIGKILL)
        server.wait()
    port = free_port()
    server = start_server(tmp_path, port)
    try:
        after = call(port, "GET", f"/api/games/{gid}")
        assert without_change(after) == without_change(before)
        # and the game goes on where it stopped
        assert call(port, "POST", f"/api/games/{gid}/rolls/virtual", {}, token)["events"] == 12
    finally:
        server.terminate()
        server.wait(timeout=10)


def test_unusable_data_folder_is_a_clear_error(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "companion",
            "serve",
            "--port",
            str(free_port()),
            "--data",
            str(blocker / "y"),
        ],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode != 0
    assert "cannot create the data folder" in result.stderr and "Traceback" not in result.stderr


def test_games_begun_in_the_same_second_list_the_later_first(tmp_path):
    """History lists the newest game first even when two began within one second (a game played
    again straight after the last one ended); the game ids, being random, must not decide."""
    store = EventStore(tmp_path)
    second = "2026-12-04T17:50:00"
    for game_id in ["zz-first", "aa-second", "mm-third"]:
        store.create_game(GameRecord(game_id, "token", second, 1, ""), {"type": "started"}, {})
    store.create_game(GameRecord("bb-older", "token", "2026-12-04T17:49:59", 1, ""), {"type": "started"}, {})
    assert [game.id for game in store.games()] == ["mm-third", "aa-second", "zz-first", "bb-older"]
