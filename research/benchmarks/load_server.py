"""Load benchmark: many tablets following games live while a few play, against a local server.

Run: python -m research.benchmarks.load_server [--viewers 200] [--writers 5] [--seconds 30] [--url URL]

Without --url it starts `companion serve` on a free loopback port with a fresh data folder (its
default workers and live-view slots) and stops it at the end. Each writer plays a game of its
own with virtual dice, a turn every --pace seconds (roll, place, read the state, list the games;
a new game when one ends);
the viewers follow those games over Server-Sent Events, spread evenly. It prints p50 / p95 / max
milliseconds per route, and how long a change took from the writer's request to each viewer's
stream. Only loopback addresses are loaded; every loop stops by itself after --seconds."""

import argparse
import http.client
import json
import re
import selectors
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections import defaultdict
from urllib.parse import urlparse

from tests.server import free_port, start_server

PLAYERS = [
    {"name": "Ana", "colour": "red"},
    {"name": "Bo", "colour": "blue"},
    {"name": "Cy", "colour": "green"},
]


#: the event count near the start of a state's JSON
EVENTS = re.compile(rb'"events":(\d+)')


class Writer:
    """Plays one game after another and times every request."""

    def __init__(self, host: str, port: int, timings: dict[str, list[float]], sent: dict) -> None:
        self.connection = http.client.HTTPConnection(host, port, timeout=30)
        self.timings, self.sent = timings, sent
        self.game = self.new_game()

    def call(self, route: str, method: str, path: str, body: dict | None = None, token: str | None = None):
        headers = {"Content-Type": "application/json"} | (
            {"Authorization": f"Bearer {token}"} if token else {}
        )
        start = time.monotonic()
        self.connection.request(method, path, json.dumps(body) if body is not None else None, headers)
        response = self.connection.getresponse()
        data = json.loads(response.read())
        self.timings[route].append((time.monotonic() - start) * 1000)
        if response.status >= 400:
            raise RuntimeError(f"{method} {path}: {response.status} {data}")
        return data, start

    def new_game(self) -> dict:
        return self.call("POST /api/games", "POST", "/api/games", {"players": PLAYERS})[0]

    def turn(self) -> None:
        gid, token = self.game["id"], self.game["token"]
        state, start = self.call("POST rolls/virtual", "POST", f"/api/games/{gid}/rolls/virtual", {}, token)
        self.sent[(gid, state["events"])] = start
        if state["phase"] == "place":
            move = state["placements"][0]
            state, start = self.call("POST placements", "POST", f"/api/games/{gid}/placements", move, token)
            self.sent[(gid, state["events"])] = start
        self.call("GET /api/games/<id>", "GET", f"/api/games/{gid}")
        self.call("GET /api/games", "GET", "/api/games")
        if state["over"]:
            self.game = self.new_game()


def watch(host: str, port: int, games: list[str], until: float, received: list, refused: list) -> None:
    """Follow one stream per entry of ``games`` (a game's id) until ``until``, all from this one
    thread (so the load's own threads do not crowd the server's), noting when each state (by
    its event count) arrived."""
    selector = selectors.DefaultSelector()
    for game_id in games:
        sock = socket.create_connection((host, port))
        sock.sendall(f"GET /api/games/{game_id}/events HTTP/1.1\r\nHost: {host}\r\n\r\n".encode())
        sock.setblocking(False)
        selector.register(sock, selectors.EVENT_READ, [game_id, b"", False])
    while time.monotonic() < until and selector.get_map():
        for key, _ in selector.select(timeout=0.5):
            game_id, buffer, started = key.data
            chunk = key.fileobj.recv(65536)
            now = time.monotonic()
            if not chunk:
                selector.unregister(key.fileobj)
                continue
            buffer += chunk
            if not started and b"\r\n\r\n" in buffer:
                head, _, buffer = buffer.partition(b"\r\n\r\n")
                if b" 200 " not in head.split(b"\r\n")[0]:
                    refused.append(head.split(b"\r\n")[0].decode())
                    selector.unregister(key.fileobj)
                    key.fileobj.close()
                    continue
                started = True
            *lines, buffer = buffer.split(b"\n")
            for line in lines:
                if line.startswith(b"data: "):  # the event count only: parsing it all costs the server's CPU
                    events = EVENTS.search(line, 0, 300)
                    received.append((game_id, int(events.group(1)), now))
            key.data[1:] = [buffer, started]
    for key in list(selector.get_map().values()):
        key.fileobj.close()


def percentiles(values: list[float]) -> str:
    if not values:
        return "        -        -        -       0"
    ordered = sorted(values)
    p95 = ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]
    return f"{statistics.median(ordered):9.1f} {p95:8.1f} {ordered[-1]:8.1f} {len(ordered):7d}"


def run(host: str, port: int, viewers: int, writers: int, seconds: float, pace: float) -> None:
    timings: dict[str, list[float]] = defaultdict(list)
    sent: dict = {}
    players = [Writer(host, port, timings, sent) for _ in range(writers)]
    first_games = [w.game["id"] for w in players]
    until = time.monotonic() + seconds
    received: list = []
    refused: list = []
    watched = [first_games[i % writers] for i in range(viewers)]
    watcher = threading.Thread(target=watch, args=(host, port, watched, until + 2, received, refused))
    watcher.start()
    time.sleep(2)  # every stream open before the first change

    def play(writer: Writer) -> None:
        while time.monotonic() < until:
            started = time.monotonic()
            writer.turn()
            time.sleep(max(0.0, pace - (time.monotonic() - started)))

    playing = [threading.Thread(target=play, args=(w,)) for w in players]
    for thread in playing:
        thread.start()
    for thread in [*playing, watcher]:
        thread.join()

    delivery = [(t - sent[(g, n)]) * 1000 for g, n, t in received if (g, n) in sent]
    per_game = viewers / writers
    changes = sum(1 for g, _ in sent if g in first_games)
    turns = f"a turn every {pace:g} s" if pace else "turns back to back"
    print(f"{viewers} viewers, {writers} writers ({turns}), {seconds:.0f} s; {len(refused)} streams refused")
    print(f"{'route':24} {'p50 ms':>9} {'p95 ms':>8} {'max ms':>8} {'count':>7}")
    for route, values in sorted(timings.items()):
        print(f"{route:24} {percentiles(values)}")
    print(f"{'change -> each stream':24} {percentiles(delivery)}")
    expected = changes * per_game  # each change of a watched game, to each of its viewers
    print(f"deliveries: {len(delivery)} of about {expected:.0f}")


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--viewers", type=int, default=200)
    parser.add_argument("--writers", type=int, default=5)
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument(
        "--pace",
        type=float,
        default=1.0,
        help="seconds from the start of a writer's turn to its next (0: as fast as the server answers)",
    )
    parser.add_argument("--url", help="a server already running on this machine (http://127.0.0.1:PORT)")
    args = parser.parse_args()
    if args.url:
        address = urlparse(args.url)
        if address.hostname not in ("127.0.0.1", "localhost", "::1"):
            parser.error("load only a server on this machine (127.0.0.1, localhost)")
        run(address.hostname, address.port or 80, args.viewers, args.writers, args.seconds, args.pace)
        return 0
    with tempfile.TemporaryDirectory() as data:
        port = free_port()
        server: subprocess.Popen = start_server(data, port)
        try:
            run("127.0.0.1", port, args.viewers, args.writers, args.seconds, args.pace)
        finally:
            server.terminate()
            server.wait(timeout=10)
    return 0


if __name__ == "__main__":
    sys.exit(main())
