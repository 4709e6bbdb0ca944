"""Listing many stored games on a server just started: the game list is read from the summaries
kept with each write, not by replaying every game.

Run: python -m research.benchmarks.bench_listing [--games 300] [--repeats 20]

It fills a fresh data folder with --games games (a third played to the end, the rest stopped
at a random turn; each game's events written in one transaction), starts `companion serve` on a
free loopback port, and times the first `GET /api/games` (nothing in the server's memory) and
--repeats more. Then it marks every summary stale, as a database from before summaries were kept
would be, restarts the server and times the first listing again: that one replays every game
(and keeps the summaries it makes), the cost every listing had before."""

import argparse
import json
import random
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

from companion.rules import GameConfig, event_to_dict, replay, roll_virtual, start_game
from companion.service.games import summary_of
from companion.storage import EventStore, GameRecord
from tests.server import free_port

PLAYERS = [{"name": n, "colour": c} for n, c in (("Ana", "red"), ("Bo", "blue"), ("Cy", "green"))]


def fill(folder: Path, games: int, rng: random.Random) -> int:
    """Store ``games`` games played with virtual dice and the first legal move; the events stored."""
    store = EventStore(folder)
    config = GameConfig.from_dict({"players": PLAYERS})
    stored = 0
    for number in range(games):
        seed = rng.randrange(2**31)
        first = start_game(config, random.Random(seed))
        state = replay([first])
        events = [first]
        stop = None if number % 3 == 0 else rng.randrange(1, 120)
        dice = random.Random(seed)
        while not state.is_over and (stop is None or len(events) < stop):
            event = roll_virtual(state, dice) if state.phase.value != "place" else state.legal_placements()[0]
            state.apply(event)
            events.append(event)
        record = GameRecord(
            f"g{number:05d}", "token", f"2026-12-07T10:{number // 60:02d}:{number % 60:02d}", seed, ""
        )
        store.create_game(record, event_to_dict(first), summary_of(replay([first]), 1))
        rest = [event_to_dict(e) for e in events[1:]]
        store.replace_from(record.id, 1, rest, summary_of(state, len(events)), known=1)
        stored += len(events)
    return stored


def time_listing(port: int) -> tuple[float, int]:
    start = time.perf_counter()
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/games", timeout=60) as answer:
        listed = json.load(answer)["games"]
    return (time.perf_counter() - start) * 1000, len(listed)


def start(folder: Path, port: int) -> subprocess.Popen:
    """`companion serve` on ``folder``, waited for on its home page (which lists nothing)."""
    command = [sys.executable, "-m", "companion", "serve", "--port", str(port), "--data", str(folder)]
    server = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=1).read()
            return server
        except OSError:
            time.sleep(0.05)
    server.kill()
    raise RuntimeError("the server did not start")


def fresh_server_listing(folder: Path, repeats: int) -> tuple[float, list[float], int]:
    """The first listing of a server just started on ``folder``, then ``repeats`` more (ms)."""
    port = free_port()
    server = start(folder, port)
    try:
        first, count = time_listing(port)
        again = [time_listing(port)[0] for _ in range(repeats)]
    finally:
        server.terminate()
        server.wait(timeout=10)
    return first, again, count


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--repeats", type=int, default=20)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="listing-") as tmp:
        folder = Path(tmp)
        events = fill(folder, args.games, random.Random(7))
        print(f"{args.games} games, {events} events stored")
        first, again, count = fresh_server_listing(folder, args.repeats)
        print(
            f"summaries kept:  first listing {first:6.1f} ms, "
            f"then median {statistics.median(again):5.1f} ms, max {max(again):5.1f} ms ({count} games)"
        )
        with sqlite3.connect(folder / "games.sqlite3") as db:
            db.execute("UPDATE summaries SET fresh = 0")
        first, again, count = fresh_server_listing(folder, args.repeats)
        print(
            f"summaries stale: first listing {first:6.1f} ms (every game replayed), "
            f"then median {statistics.median(again):5.1f} ms"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
