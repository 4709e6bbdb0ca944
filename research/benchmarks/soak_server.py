"""Soak: steady play against one server for minutes, watching what it holds over time.

Run: python -m research.benchmarks.soak_server [--seconds 180] [--writers 4] [--viewers 12] [--every 15]

It starts `companion serve` on a free loopback port with a fresh data folder. Writers play games
back to back with virtual dice (roll, place, read the state, now and then an undo; a new game
when one ends); a browser of the history lists the games and opens one at random, old or new,
with its export; viewers follow a game's live stream for a few seconds, then another. Every
--every seconds it prints the server's resident memory, threads and open file handles beside the
games and requests so far. At the end every game must be listed whole (none damaged) and no
answer may have been a 5xx. Only loopback addresses are used; every loop ends by --seconds."""

import argparse
import http.client
import json
import os
import random
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path

from tests.server import free_port, start_server

PLAYERS = [{"name": n, "colour": c} for n, c in (("Ana", "red"), ("Bo", "blue"), ("Cy", "green"))]


class Tally:
    """Requests and their statuses, from every thread."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.statuses: Counter[int] = Counter()
        self.failures: list[str] = []
        self.games: list[str] = []

    def count(self, status: int, what: str) -> None:
        with self.lock:
            self.statuses[status] += 1
            if status >= 500:
                self.failures.append(f"{what}: {status}")


class Client:
    """One kept-alive connection that counts what it is answered."""

    def __init__(self, port: int, tally: Tally) -> None:
        self.connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        self.tally = tally

    def call(
        self, method: str, path: str, body: dict | None = None, token: str | None = None
    ) -> tuple[int, bytes]:
        headers = {"Content-Type": "application/json"} | (
            {"Authorization": f"Bearer {token}"} if token else {}
        )
        self.connection.request(method, path, json.dumps(body) if body is not None else None, headers)
        response = self.connection.getresponse()
        data = response.read()
        self.tally.count(response.status, f"{method} {path}")
        return response.status, data


def play(port: int, tally: Tally, until: float, pace: float, rng: random.Random) -> None:
    client = Client(port, tally)
    game = None
    while time.monotonic() < until:
        if game is None:
            game = json.loads(client.call("POST", "/api/games", {"players": PLAYERS})[1])
            with tally.lock:
                tally.games.append(game["id"])
        gid, token = game["id"], game["token"]
        state = json.loads(client.call("GET", f"/api/games/{gid}")[1])
        if state["over"]:
            game = None
        elif state["phase"] == "place":
            move = state["placements"][rng.randrange(len(state["placements"]))]
            client.call("POST", f"/api/games/{gid}/placements", move, token)
        else:
            client.call("POST", f"/api/games/{gid}/rolls/virtual", {}, token)
        if game is not None and state["events"] > 1 and rng.random() < 0.03:
            client.call("POST", f"/api/games/{gid}/undo", {}, token)
        time.sleep(pace)


def browse_history(port: int, tally: Tally, until: float, rng: random.Random) -> None:
    client = Client(port, tally)
    while time.monotonic() < until:
        status, data = client.call("GET", "/api/games")
        listed = json.loads(data)["games"] if status == 200 else []
        if listed:
            gid = rng.choice(listed)["id"]
            client.call("GET", f"/api/games/{gid}")
            client.call("GET", f"/api/games/{gid}/export.json")
        time.sleep(0.5)


def view(port: int, tally: Tally, until: float, rng: random.Random) -> None:
    """Follow a random game's stream for 2–8 s, then another."""
    while time.monotonic() < until:
        with tally.lock:
            games = list(tally.games[-20:])
        if not games:
            time.sleep(0.2)
            continue
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
        connection.request("GET", f"/api/games/{rng.choice(games)}/events")
        response = connection.getresponse()
        tally.count(response.status, "GET events")
        leave = min(until, time.monotonic() + rng.uniform(2, 8))
        try:
            while time.monotonic() < leave and response.read1(65536):
                pass
        except OSError:
            pass  # a quiet stream timed out: leaving anyway
        connection.close()


def held(pid: int) -> tuple[float, int, int]:
    """The process's resident memory (MB), threads and open file handles."""
    status = dict(
        line.split(":", 1) for line in Path(f"/proc/{pid}/status").read_text().splitlines() if ":" in line
    )
    rss_mb = int(status["VmRSS"].split()[0]) / 1024
    return rss_mb, int(status["Threads"]), len(os.listdir(f"/proc/{pid}/fd"))


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--seconds", type=float, default=180.0)
    parser.add_argument("--writers", type=int, default=4)
    parser.add_argument("--viewers", type=int, default=12)
    parser.add_argument("--every", type=float, default=15.0, help="seconds between two samples")
    parser.add_argument("--pace", type=float, default=0.02, help="a writer's pause between turns (s)")
    args = parser.parse_args()
    tally = Tally()
    with tempfile.TemporaryDirectory(prefix="soak-") as folder:
        port = free_port()
        server = start_server(folder, port)
        try:
            start = time.monotonic()
            until = start + args.seconds
            rng = random.Random(11)
            workers = [
                threading.Thread(
                    target=play, args=(port, tally, until, args.pace, random.Random(rng.random()))
                )
                for _ in range(args.writers)
            ]
            workers.append(
                threading.Thread(target=browse_history, args=(port, tally, until, random.Random(2)))
            )
            workers += [
                threading.Thread(target=view, args=(port, tally, until, random.Random(rng.random())))
                for _ in range(args.viewers)
            ]
            print(f"{args.writers} writers, {args.viewers} viewers, a history browser; {args.seconds:.0f} s")
            print(f"{'s':>5} {'games':>6} {'requests':>9} {'RSS MB':>7} {'threads':>8} {'files':>6}")
            rss, threads, files = held(server.pid)
            print(f"{0:5.0f} {0:6d} {0:9d} {rss:7.1f} {threads:8d} {files:6d}")
            for worker in workers:
                worker.start()
            while time.monotonic() < until:
                time.sleep(min(args.every, max(0.0, until - time.monotonic())))
                rss, threads, files = held(server.pid)
                with tally.lock:
                    games, requests = len(tally.games), sum(tally.statuses.values())
                print(
                    f"{time.monotonic() - start:5.0f} {games:6d} {requests:9d} "
                    f"{rss:7.1f} {threads:8d} {files:6d}",
                    flush=True,
                )
            for worker in workers:
                worker.join(timeout=30)
            time.sleep(1)  # the last streams close
            rss, threads, files = held(server.pid)
            print(f"after the load: {rss:.1f} MB, {threads} threads, {files} files")
            client = Client(port, tally)
            status, data = client.call("GET", "/api/games")
            listed = json.loads(data)["games"]
            damaged = [g["id"] for g in listed if g.get("damaged")]
            print(
                f"statuses: {dict(sorted(tally.statuses.items()))}; "
                f"{len(listed)} games listed, damaged: {damaged}"
            )
            for failure in tally.failures[:10]:
                print("  ", failure)
            return 1 if damaged or tally.failures or status != 200 else 0
        finally:
            server.terminate()
            server.wait(timeout=10)


if __name__ == "__main__":
    raise SystemExit(main())
