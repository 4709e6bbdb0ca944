"""Run every `companion` command once, as a user who installed the wheel would.

Run with the Python of a fresh virtual environment that holds only the installed wheel, from an
empty folder; the one argument is the checkout, for its sample photos and recordings. Each step
says what it ran; the first that fails stops the script with what the command printed.
"""

import json
import shutil
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

CHECKOUT = Path(sys.argv[1]).resolve()
COMPANION = shutil.which("companion", path=str(Path(sys.executable).parent))
#: a real photo of white dice (never trained on) and the sample recording of eight real rolls
PHOTO = CHECKOUT / "samples" / "webcam-real" / "frames" / "00030.jpg"
RECORDING = CHECKOUT / "samples" / "webcam-real"
ROUND = {
    "neutral": "white",
    "casinos": [
        {
            "casino": "4",
            "banknotes": [10000, 80000, 30000],
            "dice": [{"colour": "red", "pips": 4}, {"colour": "blue", "pips": 4, "big": True}],
        }
    ],
}


def run(*args: str, timeout: float = 300) -> str:
    """``companion ARGS``; its standard output, or the script stops with what it printed."""
    print("$ companion", " ".join(args), flush=True)
    done = subprocess.run([COMPANION, *args], capture_output=True, text=True, timeout=timeout)
    if done.returncode != 0:
        sys.exit(f"`companion {' '.join(args)}` failed ({done.returncode}):\n{done.stdout}\n{done.stderr}")
    return done.stdout


def check(condition: bool, what: str) -> None:
    if not condition:
        sys.exit(f"installed package: {what}")


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def call(port: int, method: str, path: str, body: dict | None = None, token: str | None = None) -> tuple:
    """One HTTP request to the server: its status and its body (parsed when it is JSON)."""
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(f"http://127.0.0.1:{port}{path}", data, headers, method=method)
    try:
        with urllib.request.urlopen(request, timeout=30) as answer:
            status, text = answer.status, answer.read().decode()
    except urllib.error.HTTPError as refused:
        status, text = refused.code, refused.read().decode()
    kind = answer.headers.get_content_type() if status < 400 else "application/json"
    return status, json.loads(text) if kind == "application/json" else text


def wait_for(port: int, server: subprocess.Popen) -> None:
    for _ in range(300):
        check(server.poll() is None, f"`companion serve` exited ({server.returncode})")
        try:
            call(port, "GET", "/api/games")
            return
        except OSError:
            time.sleep(0.1)
    sys.exit("`companion serve` did not answer within 30 s")


def serve_and_play(folder: Path) -> None:
    """serve: the page and the list answer, a game is made and played a little; advise reads its
    state; review reviews it."""
    port, data = free_port(), folder / "games"
    print(f"$ companion serve --port {port} --data {data}", flush=True)
    log = (folder / "serve.log").open("w")
    server = subprocess.Popen(
        [COMPANION, "serve", "--port", str(port), "--data", str(data)], stdout=log, stderr=log
    )
    try:
        wait_for(port, server)
        status, page = call(port, "GET", "/")
        check(status == 200 and "<html" in page.lower(), f"GET / answered {status}")
        status, _ = call(port, "GET", "/api/games")
        check(status == 200, f"GET /api/games answered {status}")
        players = [{"name": "Ana", "colour": "red"}, {"name": "Ben", "colour": "blue"}]
        status, made = call(port, "POST", "/api/games", {"players": players, "seed": 3})
        check(status == 201, f"POST /api/games answered {status}: {made}")
        game, token = made["id"], made["token"]
        for _ in range(6):  # three turns each: roll, then place the first value offered
            status, state = call(port, "POST", f"/api/games/{game}/rolls/virtual", {}, token)
            check(status == 200, f"a virtual roll answered {status}: {state}")
            if state["phase"] != "place":
                break
            (state_file := folder / "state.json").write_text(json.dumps(state))
            advice = run("advise", str(state_file), "--rollouts", "200", "--json")
            check(json.loads(advice)["choices"] != [], "advise gave no choice")
            run("advise", str(state_file), "--rollouts", "200")
            choice = state["placements"][0]
            status, state = call(port, "POST", f"/api/games/{game}/placements", choice, token)
            check(status == 200, f"a placement answered {status}: {state}")
    finally:
        server.terminate()
        server.wait(timeout=30)
        log.close()
    review = run("review", game, "--data", str(data), "--rollouts", "200", "--json")
    check("moves" in json.loads(review), "review printed no moves")


def main() -> None:
    check(COMPANION is not None, f"no `companion` script beside {sys.executable}")
    folder = Path.cwd()
    check(not any(folder.iterdir()), f"run from an empty folder, not {folder}")

    dice = json.loads(run("read", str(PHOTO), "--json"))
    check(len(dice[0]["dice"]) > 0, f"read found no die in {PHOTO}")
    run("read", str(PHOTO), "--annotate", str(folder / "read.png"))
    check((folder / "read.png").is_file(), "read --annotate wrote no picture")

    (folder / "round.json").write_text(json.dumps(ROUND))
    check(json.loads(run("score", "round.json"))["totals"] == {"blue": 80000, "red": 30000}, "score")

    games = json.loads(run("simulate", "--games", "3", "--seed", "1", "--json"))
    check(len(games["results"]) == 3, "simulate did not play three games")

    run("calibrate", "--photo", f"white={PHOTO}", "--out", str(folder / "table.json"))
    check("white" in json.loads((folder / "table.json").read_text())["colours"], "calibrate learned no white")

    rolls = [json.loads(line) for line in run("watch", "--source", str(RECORDING), "--json").splitlines()]
    check(sum(1 for line in rolls if "dice" in line) >= 1, "watch reported no roll from the recording")

    serve_and_play(folder)

    files = subprocess.run(
        [sys.executable, "-m", "pip", "show", "-f", "vegas-companion"], capture_output=True, text=True
    ).stdout
    check("research" not in files, "the wheel carries research modules")
    print("installed package: every command ran")


if __name__ == "__main__":
    main()
