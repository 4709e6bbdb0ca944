"""Take the README's picture of the table page: ``python -m research.table_screenshot``.

Starts ``companion serve`` on a spare port with a fresh data folder, plays seven turns of a
seeded three-player classic game through the API, rolls for the next player and photographs the
page at 1180×820 in Debian's Chromium (``/usr/bin/chromium``)."""

import json
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

from playwright.sync_api import sync_playwright

OUT = Path(__file__).resolve().parent.parent / "docs" / "images" / "table.png"
PORT = 5091


def post(base: str, path: str, body: dict | None = None, token: str | None = None) -> dict:
    headers = {"Content-Type": "application/json"} | ({"Authorization": f"Bearer {token}"} if token else {})
    request = urllib.request.Request(base + path, json.dumps(body or {}).encode(), headers, method="POST")
    with urllib.request.urlopen(request, timeout=10) as response:
        return json.loads(response.read())


def main() -> int:
    base = f"http://127.0.0.1:{PORT}"
    with tempfile.TemporaryDirectory() as data:
        command = [sys.executable, "-m", "companion", "serve", "--port", str(PORT), "--data", data]
        server = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            time.sleep(3)
            seats = (("Ana", "red"), ("Bruno", "blue"), ("Carla", "green"))
            players = [{"name": name, "colour": colour} for name, colour in seats]
            game = post(base, "/api/games", {"players": players, "edition": "classic", "seed": 5})
            gid, token = game["id"], game["token"]
            for turn in range(7):
                state = post(base, f"/api/games/{gid}/rolls/virtual", token=token)
                if state["phase"] == "place":
                    choices = state["placements"]
                    post(base, f"/api/games/{gid}/placements", choices[turn % len(choices)], token=token)
            post(base, f"/api/games/{gid}/rolls/virtual", token=token)
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(
                    executable_path="/usr/bin/chromium", args=["--no-sandbox", "--disable-gpu"]
                )
                page = browser.new_page(viewport={"width": 1180, "height": 820})
                page.goto(f"{base}/games/{gid}#token={token}")
                page.wait_for_selector(".casino")
                page.wait_for_timeout(1000)
                page.screenshot(path=str(OUT))
                browser.close()
        finally:
            server.terminate()
    print(f"wrote {OUT}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
