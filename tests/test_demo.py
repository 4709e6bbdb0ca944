"""The demo as a new user meets it: `companion serve --watch` with no camera, three pages open
and two other busy processes on the machine, plays its recorded round to the end."""

import http.client
import subprocess
import sys
import time

import pytest

from tests.server import call, free_port, start_server

pytestmark = pytest.mark.slow


def test_the_demo_plays_its_round_to_the_end_with_three_pages_open_on_a_busy_machine(tmp_path):
    busy = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(2)]
    port = free_port()
    proc = start_server(tmp_path, port, "--watch")
    pages = []
    try:
        (game,) = call(port, "GET", "/api/games")["games"]
        for _ in range(3):
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
            connection.request("GET", f"/api/games/{game['id']}/events")
            pages.append((connection, connection.getresponse()))
        deadline = time.monotonic() + 90  # the recording is 23 s long
        while not (state := call(port, "GET", f"/api/games/{game['id']}"))["rounds"]:
            assert time.monotonic() < deadline, f"stalled: {state['camera_roll'] or state['camera']}"
            time.sleep(1)
        # the recorded round: red and green, seed 7, as rolled and placed on the recording
        assert [(s["colour"], s["money"]) for s in state["standings"]] == [
            ("green", 190_000),
            ("red", 130_000),
        ]
    finally:
        for connection, response in pages:
            response.close()
            connection.close()
        proc.terminate()
        proc.wait(timeout=10)
        for process in busy:
            process.kill()
            process.wait()
