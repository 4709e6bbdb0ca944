"""Benchmark: how long `companion score` and `companion simulate` take to start and answer, side by
side with importing numpy alone (what every command paid before the vision stack loaded lazily).

Run: python -m research.benchmarks.bench_startup [--runs 20]

Each command runs as its own process, the runs of the three interleaved so a busy spell of the
machine falls on all of them alike; the median and the fastest of each are printed in seconds."""

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROUND = {"casinos": [{"casino": "4", "banknotes": [10000, 80000], "dice": [{"colour": "red", "pips": 4}]}]}


def timed(command: list[str]) -> float:
    start = time.perf_counter()
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
    return time.perf_counter() - start


def main() -> int:
    formatter = argparse.RawDescriptionHelpFormatter
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=formatter)
    parser.add_argument("--runs", type=int, default=20)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        round_file = Path(folder) / "round.json"
        round_file.write_text(json.dumps(ROUND))
        commands = {
            "import numpy": [sys.executable, "-c", "import numpy"],
            "companion score FILE": [sys.executable, "-m", "companion", "score", str(round_file)],
            "companion simulate --games 1": [sys.executable, "-m", "companion", "simulate", "--games", "1"],
        }
        times: dict[str, list[float]] = {name: [] for name in commands}
        for _ in range(args.runs):
            for name, command in commands.items():
                times[name].append(timed(command))
    print(f"{'command':32} {'median s':>9} {'fastest s':>10}   ({args.runs} runs each)")
    for name, seconds in times.items():
        print(f"{name:32} {statistics.median(seconds):9.3f} {min(seconds):10.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
