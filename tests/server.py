"""Run `companion serve` as a real process for tests, and talk to it."""

import json
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def start_server(data, port, *extra: str) -> subprocess.Popen:
    log = Path(f"{data}/server-{port}.log")  # a file, so a chatty server never blocks on a pipe
    with log.open("wb") as out:
        proc = subprocess.Popen(
            [sys.executable, "-m", "companion", "serve", "--port", str(port), "--data", str(data), *extra],
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/api/games", timeout=1)
            return proc
        except (urllib.error.URLError, ConnectionError):
            time.sleep(0.1)
    proc.kill()
    raise AssertionError(f"server did not start: {log.read_text()}")


def call(port, method, path, body=None, token=None) -> dict:
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    request = urllib.request.Request(
        f"http://127.0.0.1:{port}{path}",
        method=method,
        headers=headers,
        data=json.dumps(body).encode() if body is not None else None,
    )
    with urllib.request.urlopen(request, timeout=10) as response:
        return json.load(response)
