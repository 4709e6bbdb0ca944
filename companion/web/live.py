"""The server's front: an ASGI app that serves each game's live stream (Server-Sent Events) on its
event loop, and hands every other request to the Flask app on a pool of worker threads.

A page that follows a game holds its stream open for as long as it is on screen. Served by the
event loop, an open stream costs a coroutine, not a thread: the workers stay free for requests,
a change is written to every stream of its game at once, and a viewer that hangs up is noticed
when its connection closes (see docs/decisions.md)."""

import asyncio
import json
import re
import socket
from collections.abc import Callable
from typing import Any, cast

import uvicorn
from a2wsgi import WSGIMiddleware
from a2wsgi.asgi_typing import Receive, Scope, Send
from a2wsgi.wsgi_typing import WSGIApp
from flask import Flask

from ..service import GameDamaged, GameNotFound, GameService
from ..storage import StoreError
from .failures import describe, internal_answer

EVENTS_PATH = re.compile(r"/api/games/([^/]+)/events")
STREAM_HEADERS = [
    (b"content-type", b"text/event-stream; charset=utf-8"),
    (b"cache-control", b"no-cache"),
    (b"x-accel-buffering", b"no"),
]


def listen(host: str, port: int) -> socket.socket:
    """A TCP socket listening on ``host``:``port`` (OSError when it cannot). Made as a TCP
    socket by name, so that asyncio sends each connection's writes at once (TCP_NODELAY): a
    socket from ``socket.create_server`` lets every answer on a kept-alive connection wait
    40 ms for the client's delayed acknowledgement."""
    family, kind, proto, _, address = socket.getaddrinfo(
        host, port, type=socket.SOCK_STREAM, proto=socket.IPPROTO_TCP, flags=socket.AI_PASSIVE
    )[0]
    listening = socket.socket(family, kind, proto)
    try:
        listening.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listening.bind(address)
        listening.listen(2048)
    except OSError:
        listening.close()
        raise
    return listening


def make_server(app: Flask, workers: int, on_viewer: Callable[[str], None] | None = None) -> uvicorn.Server:
    """The HTTP server for ``app``: uvicorn, with ``workers`` threads for the Flask app; start it
    with ``run(sockets=[…])`` on a socket already listening. ``on_viewer(game_id)``: told of each
    page that starts following a game."""
    config = uvicorn.Config(
        LiveServer(app, workers, on_viewer),
        lifespan="off",
        http="h11",
        ws="none",
        log_level="warning",
        access_log=False,
        server_header=False,
        # open live streams do not hold a stop (Ctrl-C) for longer than this
        timeout_graceful_shutdown=1,
    )
    return uvicorn.Server(config)


class LiveServer:
    """The ASGI app ``companion serve`` runs: live streams here, the rest in ``app`` (Flask),
    on ``workers`` threads; ``on_viewer(game_id)`` is told of each stream that starts."""

    def __init__(self, app: Flask, workers: int, on_viewer: Callable[[str], None] | None = None) -> None:
        self.pages = WSGIMiddleware(cast(WSGIApp, whole_bodies(app)), workers=workers)
        self.games: GameService = app.extensions["games"]
        self.on_viewer = on_viewer
        self.max_viewers = int(app.config["MAX_VIEWERS"])
        self.keepalive = float(app.config["SSE_KEEPALIVE"])
        self.retry_after = str(app.config["SSE_RETRY_AFTER"])
        self.viewers = 0

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope["method"] == "GET":
            match = EVENTS_PATH.fullmatch(scope["path"])
            if match:
                await self.stream(match.group(1), receive, send)
                return
        await self.pages(scope, receive, send)

    async def stream(self, game_id: str, receive: Receive, send: Send) -> None:
        """A `state` event now and after every change of the game, a comment every
        ``keepalive`` seconds (for proxies that close quiet connections), until the viewer
        leaves. Past ``max_viewers`` open streams: 503 with Retry-After (the page polls)."""
        loop = asyncio.get_running_loop()
        changed = asyncio.Event()
        # Listen before the first snapshot is taken: a change made between the two would
        # otherwise reach this viewer only with the game's next change.

        def tell() -> None:  # called from the thread that made the change
            loop.call_soon_threadsafe(changed.set)

        unsubscribe = self.games.changes.subscribe(game_id, tell)
        try:
            await self.follow(game_id, changed, receive, send)
        finally:
            unsubscribe()

    async def follow(self, game_id: str, changed: asyncio.Event, receive: Receive, send: Send) -> None:
        """Answer the viewer with the game's state, then with each new state as ``changed`` is set,
        until the viewer leaves or the server stops."""
        try:
            snapshot = await asyncio.to_thread(self.games.snapshot, game_id)
        except GameNotFound as err:
            await answer_json(send, 404, {"error": str(err)})
            return
        except (GameDamaged, StoreError) as err:
            status, answer = describe(err) or (503, {"error": str(err)})
            await answer_json(send, status, answer)
            return
        except Exception as err:  # no framework's page: an id the server's log also has
            await answer_json(send, 500, internal_answer(err, "GET", f"/api/games/{game_id}/events"))
            return
        if self.viewers >= self.max_viewers:
            error = {"error": "every live view of this server is taken; the page retries by itself"}
            await answer_json(send, 503, error, [(b"retry-after", self.retry_after.encode())])
            return
        self.viewers += 1
        gone = asyncio.ensure_future(hang_up(receive))
        try:
            if self.on_viewer is not None:
                self.on_viewer(game_id)
            await send({"type": "http.response.start", "status": 200, "headers": STREAM_HEADERS})
            await send_text(send, f"retry: 2000\n\nevent: state\ndata: {snapshot.text}\n\n")
            seen = snapshot.revision
            while not self.games.changes.closed:
                waiting = asyncio.ensure_future(changed.wait())
                first = asyncio.FIRST_COMPLETED
                done, _ = await asyncio.wait({waiting, gone}, timeout=self.keepalive, return_when=first)
                waiting.cancel()
                if gone in done:
                    break
                if waiting not in done:
                    await send_text(send, ": keepalive\n\n")
                    continue
                changed.clear()
                snapshot = self.games.snapshot(game_id)  # built when the game changed: no waiting
                if snapshot.revision != seen:
                    seen = snapshot.revision
                    await send_text(send, f"event: state\ndata: {snapshot.text}\n\n")
            # the end of the answer (the server stops, or the viewer left: then it goes nowhere)
            await send({"type": "http.response.body", "body": b"", "more_body": False})
        finally:
            gone.cancel()
            self.viewers -= 1


def whole_bodies(app: Flask) -> Callable[[dict[str, Any], Any], Any]:
    """``app`` told that its input ends where the request's body does, chunked or not: without
    that word Flask reads a body sent without a Content-Length as empty."""

    def wsgi(environ: dict[str, Any], start_response: Any) -> Any:
        environ["wsgi.input_terminated"] = True
        return app(environ, start_response)

    return wsgi


async def hang_up(receive: Receive) -> None:
    """Return when the client has disconnected."""
    while (await receive())["type"] != "http.disconnect":
        pass


async def send_text(send: Send, text: str) -> None:
    await send({"type": "http.response.body", "body": text.encode(), "more_body": True})


async def answer_json(
    send: Send, status: int, body: dict[str, Any], headers: list[tuple[bytes, bytes]] | None = None
) -> None:
    data = json.dumps(body).encode()
    start_headers = [(b"content-type", b"application/json"), (b"content-length", str(len(data)).encode())]
    await send({"type": "http.response.start", "status": status, "headers": start_headers + (headers or [])})
    await send({"type": "http.response.body", "body": data})
