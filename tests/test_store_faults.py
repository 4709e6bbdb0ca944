"""The store under faults: two writers on one folder, a stale writer, a damaged event row, a
full disk, a database that cannot be written, an unexpected error."""

import contextlib
import errno
import json
import logging
import re
import sqlite3
import subprocess
import sys
import urllib.error
from pathlib import Path

import pytest

from companion.rules import GameConfig
from companion.service import GameService
from companion.storage import EventStore, StaleWrite
from companion.web import create_app
from tests.conftest import GameClient, players
from tests.server import call, free_port, start_server


def new_app(folder: Path):
    return create_app({"TESTING": True, "DATA_DIR": str(folder), "REVIEW_ROUNDS": False})


def new_game(client, *colours: str, seed: int = 3) -> GameClient:
    created = client.post("/api/games", json={"players": players(*colours), "seed": seed})
    assert created.status_code == 201
    return GameClient(client, created.get_json())


def play_turns(game: GameClient, turns: int) -> dict:
    """Roll virtually and place the first legal value, ``turns`` times."""
    state = game.state()
    for _ in range(turns):
        state = game.post("/rolls/virtual").get_json()
        answer = game.post("/placements", {"value": state["placements"][0]["value"]})
        assert answer.status_code == 200, answer.get_json()
        state = answer.get_json()
    return state


def error_of(response, status: int, code: str) -> dict:
    assert response.status_code == status, response.get_data(as_text=True)
    answer = response.get_json()
    assert answer["code"] == code and answer["error"]
    assert "internal error" not in answer["error"].lower() and "overloaded" not in answer["error"]
    return answer


# ---------------------------------------------------------------------- one writer per folder
def test_a_second_server_on_the_same_folder_is_refused_naming_the_first(tmp_path):
    port = free_port()
    first = start_server(tmp_path, port)
    try:
        created = call(port, "POST", "/api/games", {"players": players("red", "blue"), "seed": 1})
        second = subprocess.run(
            [sys.executable, "-m", "companion", "serve", "--port", str(free_port()), "--data", str(tmp_path)],
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert second.returncode != 0 and "Traceback" not in second.stderr
        said = second.stderr
        assert str(tmp_path) in said and f"pid {first.pid}" in said and f"port {port}" in said
        assert "since " in said and "--data" in said
        # the first server plays on, and a reader still reads the folder
        state = call(port, "POST", f"/api/games/{created['id']}/rolls/virtual", {}, created["token"])
        assert state["events"] == 2
        review = subprocess.run(
            [sys.executable, "-m", "companion", "review", created["id"], "--data", str(tmp_path), "--json"],
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert review.returncode == 0, review.stderr
        assert json.loads(review.stdout)["game"] == created["id"]
    finally:
        first.terminate()
        first.wait(timeout=10)


def test_a_stale_append_is_refused_and_nothing_is_written(tmp_path):
    store = EventStore(tmp_path)
    config = GameConfig.from_dict({"players": players("red", "blue")})
    first, second = GameService(store), GameService(EventStore(tmp_path))
    game_id = first.create(config, seed=5).record.id
    behind = second.get(game_id)  # a second writer's copy of the game
    first.roll_virtually(game_id)
    stored = store.stored_events(game_id)

    with pytest.raises(StaleWrite, match="changed elsewhere"):
        second.roll_virtually(game_id)
    assert store.stored_events(game_id) == stored and len(behind.events) == 1
    for seq in (1, 3):  # a number taken, a number past the next
        with pytest.raises(StaleWrite):
            store.append(game_id, seq, {"type": "rolled"}, {})
    assert store.stored_events(game_id) == stored
    # the stale writer read the game again: its next move is the next one
    move = second.get(game_id).state.legal_placements()[0]
    assert len(second.place(game_id, move.value, move.casino).events) == 3


def test_a_stale_undo_is_answered_409_and_nothing_is_lost(tmp_path):
    first, second = new_app(tmp_path).test_client(), new_app(tmp_path).test_client()
    game = new_game(first, "red", "blue")
    other = GameClient(second, {"id": game.id, "token": game.token})
    play_turns(game, 1)
    assert other.state()["events"] == 3
    play_turns(game, 1)
    answer = error_of(other.post("/undo"), 409, "game_changed")
    assert answer["values"] == {"game": game.id, "events": 5}
    assert game.state()["events"] == 5 and other.state()["events"] == 5


# ---------------------------------------------------------------------- a damaged game
def damage(path: Path, game_id: str, seq: int, how: str) -> None:
    with contextlib.closing(sqlite3.connect(path)) as db:
        where = (game_id, seq)
        (payload,) = db.execute("SELECT payload FROM events WHERE game_id=? AND seq=?", where).fetchone()
        event = json.loads(payload)
        if how == "cut":
            payload = payload[: len(payload) // 2]
        elif how == "missing":
            del event["value"]
            payload = json.dumps(event)
        else:  # a placement of a value the roll before it does not have
            event["value"] = next(v for v in range(1, 7) if v != event["value"])
            payload = json.dumps(event)
        db.execute("UPDATE events SET payload=? WHERE game_id=? AND seq=?", (payload, game_id, seq))
        db.commit()


@pytest.mark.parametrize(
    ("how", "reason"),
    [
        ("cut", "is not whole JSON"),
        ("missing", "lacks its field 'value'"),
        ("refused", "is refused by the rules"),
    ],
)
def test_a_damaged_event_row_sets_its_game_apart(tmp_path, how, reason):
    client = new_app(tmp_path).test_client()
    before = new_game(client, "red", "blue", seed=1)
    damaged = new_game(client, "red", "green", seed=2)
    after = new_game(client, "blue", "green", seed=3)
    for game in (before, damaged, after):
        play_turns(game, 2)
    damaged.client.get(f"/api/games/{damaged.id}")  # in the server's memory, and then damaged
    damage(tmp_path / "games.sqlite3", damaged.id, 4, how)

    for app_client in (client, new_app(tmp_path).test_client()):  # this server, and one restarted
        listing = app_client.get("/api/games")
        assert listing.status_code == 200
        marks = {g["id"]: g["damaged"] for g in listing.get_json()["games"]}
        assert marks[before.id] is None and marks[after.id] is None
        assert marks[damaged.id]["event"] == 4 and marks[damaged.id]["reason"].startswith(reason)

        answer = error_of(app_client.get(f"/api/games/{damaged.id}"), 409, "game_damaged")
        assert answer["values"]["event"] == 4 and f"repair {damaged.id}" in answer["error"]
        page = app_client.get(f"/games/{damaged.id}")
        text = page.get_data(as_text=True)
        assert page.status_code == 409 and "cannot be read" in text
        assert f"/api/games/{damaged.id}/export.json" in text
        export = app_client.get(f"/api/games/{damaged.id}/export.json")
        assert export.status_code == 200
        exported = export.get_json()
        assert exported["damaged"]["event"] == 4 and len(exported["events"]) == 5

        for game in (before, after):  # the other games read and play
            other = GameClient(app_client, {"id": game.id, "token": game.token})
            assert other.post("/rolls/virtual").status_code == 200
            assert other.post("/undo").status_code == 200


# ---------------------------------------------------------------------- a full disk
@pytest.fixture
def small_disk(tmp_path):
    """A 3 MB tmpfs mounted for the test (root only; skipped where mounting is refused)."""
    mount = tmp_path / "disk"
    mount.mkdir()
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=3m", "tmpfs", str(mount)], capture_output=True)
    if done.returncode != 0:
        pytest.skip(f"cannot mount a small disk here: {done.stderr.decode().strip()}")
    try:
        yield mount
    finally:
        subprocess.run(["umount", "-l", str(mount)], check=False)


def fill(folder: Path) -> Path:
    """Fill the disk holding ``folder`` to the last byte; the file that does it."""
    filler = folder / "filler"
    with filler.open("wb", buffering=0) as out:
        try:
            while True:
                out.write(b"\0" * 4096)
        except OSError as err:
            assert err.errno == errno.ENOSPC
    return filler


def test_a_full_disk_is_said_nothing_is_lost_and_play_resumes(small_disk):
    folder = small_disk / "games"
    client = new_app(folder).test_client()
    game = new_game(client, "red", "blue")
    before = play_turns(game, 2)
    filler = fill(small_disk)

    answer = error_of(game.post("/rolls/virtual"), 507, "disk_full")
    assert answer["values"] == {"folder": str(folder)}
    assert f"the disk holding {folder} is full; nothing was recorded" in answer["error"]
    error_of(client.post("/api/games", json={"players": players("red", "blue")}), 507, "disk_full")
    assert game.state()["events"] == before["events"]
    assert client.get("/api/games").status_code == 200

    filler.unlink()
    after = play_turns(game, 1)
    assert after["events"] == before["events"] + 2
    restarted = GameClient(new_app(folder).test_client(), {"id": game.id, "token": game.token})
    assert restarted.state()["events"] == after["events"]


# ---------------------------------------------------------------------- a read-only database
def test_a_database_that_cannot_be_written_is_named_and_play_resumes(tmp_path):
    database = tmp_path / "games.sqlite3"
    game = new_game(new_app(tmp_path).test_client(), "red", "blue")
    before = play_turns(game, 1)
    if subprocess.run(["chattr", "+i", str(database)], capture_output=True).returncode != 0:
        pytest.skip("cannot make a file immutable here (chattr +i needs root and ext2/3/4)")
    try:
        client = new_app(tmp_path).test_client()  # a server started on it
        table = GameClient(client, {"id": game.id, "token": game.token})
        assert table.state()["events"] == before["events"]
        assert client.get("/api/games").status_code == 200
        answer = error_of(table.post("/rolls/virtual"), 503, "store_read_only")
        assert answer["values"] == {"file": str(database)} and str(database) in answer["error"]
        assert table.state()["events"] == before["events"]
    finally:
        subprocess.run(["chattr", "-i", str(database)], check=True)
    again = table.post("/rolls/virtual")
    assert again.status_code == 200, again.get_json()  # writable again: no restart needed
    assert GameClient(new_app(tmp_path).test_client(), vars(game)).state()["events"] == before["events"] + 1


# ---------------------------------------------------------------------- anything else
def test_an_unexpected_error_answers_json_with_an_id_that_is_in_the_log(client, game, monkeypatch, caplog):
    def broken(*args, **kwargs):
        raise RuntimeError("a bug")

    monkeypatch.setattr(client.application.extensions["games"], "listing", broken)
    monkeypatch.setattr(client.application.extensions["games"], "get", broken)
    with caplog.at_level(logging.ERROR):
        answer = error_of(client.get("/api/games"), 500, "internal")
        page = client.get(f"/games/{game.id}")
    incident = answer["values"]["id"]
    assert re.fullmatch(r"[0-9a-f]{8}", incident) and incident in answer["error"]
    logged = [r for r in caplog.records if incident in r.getMessage()]
    assert logged and logged[0].exc_info and "a bug" in str(logged[0].exc_info[1])
    text = page.get_data(as_text=True)
    assert page.status_code == 500 and "overloaded" not in text and "Internal Server Error" not in text


# ---------------------------------------------------------------------- repair
def test_repair_shows_where_a_game_breaks_and_keeps_the_events_before(tmp_path, capsys):
    from companion.cli import main
    from companion.storage import FolderLock

    folder = tmp_path / "data"
    client = new_app(folder).test_client()
    game, other = new_game(client, "red", "blue", seed=1), new_game(client, "red", "green", seed=2)
    play_turns(game, 3)
    damage(folder / "games.sqlite3", game.id, 4, "refused")

    assert main(["repair", game.id, "--data", str(folder)]) == 0
    shown = capsys.readouterr().out
    assert "events 0–3 replay" in shown and "event 4 is refused by the rules" in shown
    assert "--keep-before 4" in shown
    assert main(["repair", other.id, "--data", str(folder)]) == 0
    assert "nothing to repair" in capsys.readouterr().out

    with FolderLock(folder).acquire("companion serve", 5000):  # a server on the folder
        assert main(["repair", game.id, "--data", str(folder), "--keep-before", "4"]) == 2
        assert "in use by companion serve" in capsys.readouterr().err
    assert main(["repair", game.id, "--data", str(folder), "--keep-before", "5"]) == 2
    assert "give at most 4" in capsys.readouterr().err

    assert main(["repair", game.id, "--data", str(folder), "--keep-before", "4"]) == 0
    assert "Kept events 0–3" in capsys.readouterr().out
    (copy,) = tmp_path.glob("data.backup-*")
    assert len(EventStore(copy).stored_events(game.id)) == 7  # the folder as it was
    restarted = new_app(folder).test_client()
    listed = {g["id"]: g for g in restarted.get("/api/games").get_json()["games"]}
    assert listed[game.id]["damaged"] is None and listed[other.id]["damaged"] is None
    repaired = GameClient(restarted, vars(game))
    state = repaired.state()
    assert state["events"] == 4 and state["phase"] == "place"  # event 3 was a roll
    assert repaired.post("/placements", {"value": state["placements"][0]["value"]}).status_code == 200


# ---------------------------------------------------------------------- memory
def test_listing_reads_no_game_and_memory_holds_a_bounded_number(tmp_path):
    from companion.service.games import CACHED_GAMES

    config = GameConfig.from_dict({"players": players("red", "blue")})
    writer = GameService(EventStore(tmp_path))
    ids = [writer.create(config, seed).record.id for seed in range(CACHED_GAMES + 12)]
    for game_id in ids:
        writer.roll_virtually(game_id)

    fresh = GameService(EventStore(tmp_path))
    listed = fresh.listing()
    assert [g["id"] for g in listed] == ids[::-1] and all(g["round"] == 1 for g in listed)
    assert len(fresh._cache) == 0  # the list came from the kept summaries
    for game_id in ids:
        assert len(fresh.get(game_id).events) == 2
    assert len(fresh._cache) == CACHED_GAMES
    played = ids[0]  # the oldest game, played again, stays in memory while later ones are read
    move = fresh.get(played).state.legal_placements()[0]  # its roll waits to be placed
    fresh.place(played, move.value, move.casino)
    for game_id in ids[1:]:
        fresh.get(game_id)
    assert played in fresh._cache and len(fresh._cache) == CACHED_GAMES + 1


def test_a_game_the_rules_now_refuse_is_listed_damaged_once_it_is_read(tmp_path, monkeypatch):
    """Events unchanged but refused by the rules of another version: the kept summary says the
    game is whole until it is read; from then on the list marks it."""
    from companion.rules import IllegalMove
    from companion.rules.game import GameState

    client = new_app(tmp_path).test_client()
    game = new_game(client, "red", "blue")
    play_turns(game, 1)
    restarted = new_app(tmp_path).test_client()
    assert restarted.get("/api/games").get_json()["games"][0]["damaged"] is None

    def refuse(self, event):
        raise IllegalMove("this version refuses every placement")

    monkeypatch.setattr(GameState, "_apply_placement", refuse)
    error_of(restarted.get(f"/api/games/{game.id}"), 409, "game_damaged")
    listed = restarted.get("/api/games").get_json()["games"][0]
    assert listed["damaged"] == {
        "event": 2,
        "reason": "is refused by the rules: this version refuses every placement",
    }


def test_a_damaged_games_live_stream_is_refused_with_the_reason(tmp_path):
    game = new_game(new_app(tmp_path).test_client(), "red", "blue")
    play_turns(game, 1)
    damage(tmp_path / "games.sqlite3", game.id, 1, "cut")
    port = free_port()
    server = start_server(tmp_path, port)
    try:
        with pytest.raises(urllib.error.HTTPError) as refused:
            call(port, "GET", f"/api/games/{game.id}/events")
        answer = json.load(refused.value)
        assert refused.value.code == 409 and answer["code"] == "game_damaged"
        assert answer["values"]["event"] == 1
        assert "Unterminated string starting at character" in answer["error"]
    finally:
        server.terminate()
        server.wait(timeout=10)
